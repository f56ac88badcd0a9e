"""Machu Picchu's data: components.toml (and a variant over it) checked and packed for the engine.

Each parameter is declared once with its type and bounds: the rules array by state.RULES, the
tables below (priest/virgin kinds, worker costs, moon tiles, offering cards); the board's borders
and the checks across keys are written here. Every error names the offending key.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.params import PROVENANCE_TABLE, load_toml, require
from sim.core.paramspec import Choice, Float, Int, IntList, Records
from . import search as search_mod
from .state import (
    ADJ_AT, BOT_KIND_NAMES, CARD_AT, DISTRICT_NAMES, GOOD_NAMES, H_N_CARDS, H_N_MOON, ICON_NAMES, KIND_NAMES,
    MAX_CARDS, MAX_MOON, MAX_PER_KIND, MF_GOOD, MF_STEPS, MOON_AT, N_CF, N_DISTRICTS, N_GOODS, N_MF,
    N_PARAMS, N_PF, N_PRODUCTION, N_RULES, PF_COST, PF_COUNT, PF_STEPS, PRIEST_AT, RULES, WCOST_AT, WEIGHT_NAMES,
    CF_GOLD, CF_ICONS, ICON_CARDS_AT, N_ICONS,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"
ROBUST_FILE = HERE / "robust.toml"  # the reconstructed-number tables `sim robust` plays (sim/core/robust.py)
# bots.toml: the kinds, the weights in vector order, and a search bot's budget ([search]), each
# setting at its column of the engine's budget rows (search.py CFG_*).
SEARCH_BUDGET = (
    (search_mod.CFG_ROLLOUTS, Int("rollouts", 0, 10_000)),
    (search_mod.CFG_CANDIDATES, Int("candidates", 1, 64)),
    (search_mod.CFG_MARGIN, Float("margin", 0.0, 1.0)),
    (search_mod.CFG_CONFIDENCE, Float("confidence", 0.0, 10.0)),
    (search_mod.CFG_HORIZON, Int("horizon", 0, 30)),
    (search_mod.CFG_ROLLOUT_NOISE, Float("rollout_noise", 0.0, 100.0)),
)
BOTS = BotsSchema(kinds=BOT_KIND_NAMES, weights=WEIGHT_NAMES, budget=tuple(param for _, param in SEARCH_BUDGET))

PRIESTS = Records("priest", (
    (PF_COUNT, Int("count", 0, MAX_PER_KIND)),
    *((PF_COST + g, Int(name, 0, 30)) for g, name in enumerate(GOOD_NAMES)),
    (PF_STEPS, IntList("steps", (1, MAX_PER_KIND), 0, 100, unit="numbers")),
), N_PF, rows=KIND_NAMES)
WORKER_COSTS = Records("worker_cost", tuple((g, Int(name, 0, 30)) for g, name in enumerate(GOOD_NAMES)),
                       N_GOODS, rows=DISTRICT_NAMES[:N_PRODUCTION])
MOON_TILES = Records("moon", (
    (MF_STEPS, Int("steps", 0, 30)),
    (MF_GOOD, Choice("good", GOOD_NAMES)),
), N_MF)
OFFERING_CARDS = Records("offering", (
    *((CF_ICONS + i, Int(name, 0, 20)) for i, name in enumerate(ICON_NAMES)),
    (CF_GOLD, Int("gold", 0, 100)),
), N_CF)


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def validate(p: dict[str, Any], where: str) -> None:
    """Every declared key, then the checks across keys."""
    RULES.check(p, where)
    PRIESTS.check(p, where)
    WORKER_COSTS.check(p, where)
    MOON_TILES.check(p, where)
    OFFERING_CARDS.check(p, where)
    for kind in KIND_NAMES:
        row = p["priest"][kind]
        require(len(row["steps"]) == row["count"], where, f"priest.{kind}.steps",
                f"must list one number per card ({row['count']})")
    n_moon = len(MOON_TILES.names(p))
    n_cards = len(OFFERING_CARDS.names(p))
    rules, setup = p["rules"], p["setup"]
    most_players = max(player_counts(p))
    require(rules["moon_tiles_to_end_day"] + most_players - 1 <= n_moon <= MAX_MOON, where, "moon",
            f"must hold {rules['moon_tiles_to_end_day'] + most_players - 1} to {MAX_MOON} tiles, so that every "
            "player can still stay after the tile that ends the day")
    require(1 <= n_cards <= MAX_CARDS, where, "offering", f"must hold 1 to {MAX_CARDS} cards")
    require(set(setup["start_day"]) == set(setup["workers_per_player"]), where, "setup.start_day",
            "must name the same player counts as setup.workers_per_player")
    for players, day in setup["start_day"].items():
        require(day <= rules["last_day"], where, f"setup.start_day.{players}", "must not be after rules.last_day")
    require(rules["granary_space"] < rules["stable_space"] < rules["summit_space"], where, "rules.stable_space",
            "must lie between rules.granary_space and rules.summit_space")
    require(rules["summit_return"] < rules["summit_draw"], where, "rules.summit_return",
            "must be less than rules.summit_draw (a summit keeps at least one card)")
    require(p["board"]["districts"] == list(DISTRICT_NAMES), where, "board.districts",
            f"must list the 15 districts in engine order: {', '.join(DISTRICT_NAMES)}")
    _adjacency(p, where)


def _adjacency(p: dict[str, Any], where: str) -> np.ndarray:
    """board.adjacent as a symmetric 0/1 matrix; pairs must name two different districts."""
    matrix = np.zeros((N_DISTRICTS, N_DISTRICTS), np.int64)
    pairs = p["board"]["adjacent"]
    require(isinstance(pairs, list), where, "board.adjacent", "must be a list of district pairs")
    for i, pair in enumerate(pairs):
        key = f"board.adjacent[{i}]"
        require(isinstance(pair, list) and len(pair) == 2 and all(name in DISTRICT_NAMES for name in pair),
                where, key, f"must be a pair of district names ({', '.join(DISTRICT_NAMES)})")
        a, b = DISTRICT_NAMES.index(pair[0]), DISTRICT_NAMES.index(pair[1])
        require(a != b, where, key, "must name two different districts")
        matrix[a, b] = matrix[b, a] = 1
    return matrix


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(sorted(int(k) for k in p["setup"]["workers_per_player"]))


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    """The validated parameters in the engine's one int64 array (layout in state.py)."""
    P = np.zeros(N_PARAMS, np.int64)
    P[:N_RULES] = RULES.pack(p, np.int64)
    moon = MOON_TILES.pack(p, np.int64)
    cards = OFFERING_CARDS.pack(p, np.int64)
    P[H_N_MOON] = moon.shape[0]
    P[H_N_CARDS] = cards.shape[0]
    P[ADJ_AT:ADJ_AT + N_DISTRICTS * N_DISTRICTS] = _adjacency(p, "components").ravel()
    P[WCOST_AT:WCOST_AT + N_PRODUCTION * N_GOODS] = WORKER_COSTS.pack(p, np.int64).ravel()
    priests = PRIESTS.pack(p, np.int64)
    P[PRIEST_AT:PRIEST_AT + priests.size] = priests.ravel()
    P[MOON_AT:MOON_AT + moon.size] = moon.ravel()
    P[CARD_AT:CARD_AT + cards.size] = cards.ravel()
    P[ICON_CARDS_AT:ICON_CARDS_AT + N_ICONS] = (cards[:, CF_ICONS:CF_ICONS + N_ICONS] > 0).sum(axis=0)
    return P


def card_names(p: dict[str, Any]) -> list[str]:
    return [name for name in p["offering"] if name != PROVENANCE_TABLE]


def moon_names(p: dict[str, Any]) -> list[str]:
    return [name for name in p["moon"] if name != PROVENANCE_TABLE]


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).specs(BOTS)


def default_lineup() -> list[str]:
    return read_lineup(BOTS_FILE)


def weight_names(kind: str) -> tuple[str, ...]:
    return () if kind == "random" else tuple(WEIGHT_NAMES)


def bot_kind_names() -> tuple[str, ...]:
    return tuple(BOT_KIND_NAMES)


def search_budgets(bot_names: list[str]) -> np.ndarray:
    """The engine's float64 [bot, CFG_*] budget rows (search.py) for a list of bot names; a bot the
    files do not define (a tuning candidate) gets the [search] defaults."""
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).budget_rows(bot_names, SEARCH_BUDGET, search_mod.N_CFG)
