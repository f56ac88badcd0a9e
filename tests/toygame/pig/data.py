"""Pig's data: components.toml and bots.toml, checked and packed for the engine."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.params import load_toml, require
from sim.core.tuned_bots import tuned_bots
from .state import BOT_KIND_NAMES, MAX_PLAYERS, N_RULES, R_BUST_FACE, R_ROUND_LIMIT, R_SIDES, R_TARGET, WEIGHT_NAMES

HERE = Path(__file__).parent
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"


def default_components() -> dict[str, Any]:
    return load_toml(HERE / "components.toml")


def validate(p: dict[str, Any], where: str) -> None:
    r = p["rules"]
    require(1 <= r["target"] <= 10_000, where, "rules.target", "must be between 1 and 10000")
    require(2 <= r["sides"] <= 100, where, "rules.sides", "must be between 2 and 100")
    require(1 <= r["bust_face"] <= r["sides"], where, "rules.bust_face", "must be a face of the die")
    require(1 <= r["round_limit"] <= 10_000, where, "rules.round_limit", "must be between 1 and 10000")


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    rules = np.zeros(N_RULES, np.int32)
    for slot, key in ((R_TARGET, "target"), (R_SIDES, "sides"), (R_BUST_FACE, "bust_face"),
                      (R_ROUND_LIMIT, "round_limit")):
        rules[slot] = p["rules"][key]
    return rules


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(range(2, MAX_PLAYERS + 1))


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    raw = load_toml(BOTS_FILE)
    out = {}
    for name, spec in raw["bots"].items():
        weights = {**raw["defaults"], **spec.get("weights", {})}
        out[name] = (spec["description"], BOT_KIND_NAMES.index(spec["kind"]),
                     np.array([float(weights[k]) for k in WEIGHT_NAMES]))
    if TUNED_BOTS_FILE.exists():
        out.update(tuned_bots(load_toml(TUNED_BOTS_FILE), raw["defaults"], str(TUNED_BOTS_FILE),
                              WEIGHT_NAMES, BOT_KIND_NAMES))
    return out


def default_lineup() -> list[str]:
    return list(load_toml(BOTS_FILE)["lineup"]["default"])


def weight_names(kind: str) -> tuple[str, ...]:
    return () if kind == "random" else WEIGHT_NAMES


def bot_kind_names() -> tuple[str, ...]:
    return BOT_KIND_NAMES
