"""Pig's data: components.toml and bots.toml, checked and packed for the engine."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.params import load_toml, require
from .state import BOT_KIND_NAMES, MAX_PLAYERS, RULES, WEIGHT_NAMES

HERE = Path(__file__).parent
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"
ROBUST_FILE = None  # no robustness tables
BOTS = BotsSchema(kinds=BOT_KIND_NAMES, weights=WEIGHT_NAMES)


def default_components() -> dict[str, Any]:
    return load_toml(HERE / "components.toml")


def validate(p: dict[str, Any], where: str) -> None:
    RULES.check(p, where)
    require(p["rules"]["bust_face"] <= p["rules"]["sides"], where, "rules.bust_face", "must be a face of the die")


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    return RULES.pack(p)


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(range(2, MAX_PLAYERS + 1))


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).specs(BOTS)


def default_lineup() -> list[str]:
    return read_lineup(BOTS_FILE)


def weight_names(kind: str) -> tuple[str, ...]:
    return () if kind == "random" else WEIGHT_NAMES


def bot_kind_names() -> tuple[str, ...]:
    return BOT_KIND_NAMES
