"""Component data and rule parameters: TOML (components.toml + a variant) to engine arrays.

The designer's numbers live in components.toml and bots.toml; this module only reads, checks and
packs them. Each parameter is declared once with its type and bounds (sim/core/paramspec.py): the
rules array by state.RULES, the treasure and adventurer tables by TREASURES and ADVENTURERS below;
only the scales and the checks across keys are written here. Every check names the offending key
so a variant file can be fixed in one go. The bots are read by sim/core/bots_file.py.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.errors import UserError
from sim.core.params import load_toml, require
from sim.core.paramspec import Bool, Choice, Float, Int, Records
from . import bots as bots_mod
from . import search as search_mod
from .state import (
    AF_COUNT, AF_MAX, AF_PENALTY, AF_ROLE, AF_VALUE, EFFECT_NAMES, MAX_TREASURE_CARDS, N_AF, N_RULES, N_TF,
    H_ADVENTURER_AT, H_ADVENTURERS, H_TREASURES, H_SCALE_AT, H_SCALE_WIDTH, ROLE_NAMES, RULES, SCALE_X,
    TF_COUNT, TF_EFFECT, TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE, TREASURE_AT,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"  # written by `sim tune`; optional
ROBUST_FILE = HERE / "robust.toml"  # the reconstructed-number tables `sim robust` plays (sim/core/robust.py)
MAX_POINTS = 1000  # largest points value of one scale entry, card value or hand penalty
# The players table stores scores (and their parts) as int16: the treasure scales, the hand
# penalties and the unresolved-leader charges may each reach at most this much in absolute value,
# so a score can never wrap around.
SCORE_PART_LIMIT = 10_000

# treasure[t, TF_*] and adventurer[a, AF_*]: one row per [treasure.NAME] / [adventurer.NAME], in
# file order. A treasure's scale is packed apart (engine_arrays), since "X" entries eliminate.
TREASURES = Records("treasure", (
    (TF_COUNT, Int("count", 0, 100)),
    (TF_VALUE, Int("card_value", -MAX_POINTS, MAX_POINTS)),
    (TF_EFFECT, Choice("effect", EFFECT_NAMES)),
    (TF_EFFECT_AMOUNT, Int("effect_amount", 0, 20)),
    (TF_TOKEN_OK, Bool("token_allowed")),
), N_TF)
ADVENTURERS = Records("adventurer", (
    (AF_COUNT, Int("count", 0, 100)),
    (AF_VALUE, Int("value", 0, 1000)),
    (AF_MAX, Int("max_per_bid", 1, 10)),
    (AF_ROLE, Choice("role", ROLE_NAMES)),
    (AF_PENALTY, Int("hand_penalty", -100, 100)),
), N_AF)

# bots.toml: the kinds, the weights in vector order, and a search bot's budget ([search]), each
# setting at its column of the engine's budget rows (search.py CFG_*).
SEARCH_BUDGET = (
    (search_mod.CFG_ROLLOUTS, Int("rollouts", 0, 10_000)),
    (search_mod.CFG_CANDIDATES, Int("candidates", 1, 100)),
    (search_mod.CFG_MARGIN, Float("margin", 0.0, 1.0)),
    (search_mod.CFG_CONFIDENCE, Float("confidence", 0.0, 10.0)),
    (search_mod.CFG_HORIZON, Int("horizon", 0, 1000)),
    (search_mod.CFG_ROLLOUT_NOISE, Float("rollout_noise", 0.0, 100.0)),
    (search_mod.CFG_MEMORY, Int("memory", 0, 1)),
)
BOTS = BotsSchema(kinds=bots_mod.BOT_KIND_NAMES, weights=bots_mod.WEIGHT_NAMES,
                  budget=tuple(param for _, param in SEARCH_BUDGET))


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def _scale_list(raw: Any, where: str, key: str) -> list[int]:
    require(isinstance(raw, list) and len(raw) > 0, where, key, "must list at least one entry")
    out = []
    for v in raw:
        if v == "X":
            out.append(SCALE_X)
        elif isinstance(v, int) and not isinstance(v, bool):
            require(abs(v) <= MAX_POINTS, where, key, f"entry {v} is out of range (-{MAX_POINTS} to {MAX_POINTS})")
            out.append(v)
        else:
            raise UserError(f"{where}: {key} entries must be whole numbers or \"X\" (got {v!r})")
    return out


def validate(p: dict[str, Any], where: str) -> None:
    """Every declared key (TREASURES, ADVENTURERS, state.RULES), the scales, then the checks across keys."""
    treasures = p["treasure"]
    adventurers = p["adventurer"]
    require(1 <= len(treasures) <= 60, where, "treasure", "must define 1 to 60 treasure types")
    require(1 <= len(adventurers) <= 60, where, "adventurer", "must define 1 to 60 adventurer kinds")
    TREASURES.check(p, where)
    for name, t in treasures.items():
        _scale_list(t["scale"], where, f"treasure.{name}.scale")
    ADVENTURERS.check(p, where)
    n_treasure = sum(t["count"] for t in treasures.values())
    n_adventurer = sum(a["count"] for a in adventurers.values())
    require(n_treasure <= MAX_TREASURE_CARDS, where, "treasure", "holds too many cards")
    _check_score_parts(p, where)
    RULES.check(p, where)
    setup, rules = p["setup"], p["rules"]
    for players, n in setup["treasure_discard"].items():
        key = f"setup.treasure_discard.{players}"
        require(n_treasure - n >= 2, where, key,
                 f"leaves {n_treasure - n} treasure cards; a game needs at least 2")
        require(int(players) * setup["hand_size"] <= n_adventurer, where, "setup.hand_size",
                 f"x {players} players needs more than the {n_adventurer} adventurer cards")
    require(rules["bid_min_cards"] <= rules["bid_max_cards"], where, "rules.bid_max_cards",
             "must satisfy 1 <= bid_min_cards <= bid_max_cards <= 10")


def _check_score_parts(p: dict[str, Any], where: str) -> None:
    """Each part of a score stays within SCORE_PART_LIMIT, whatever the cards held (int16 columns)."""
    scales = {}
    for name, t in p["treasure"].items():
        points = [v for v in _scale_list(t["scale"], where, f"treasure.{name}.scale") if v != SCALE_X]
        scales[name] = max((abs(v) for v in points), default=0)
    biggest = max(scales, key=scales.get)
    require(sum(scales.values()) <= SCORE_PART_LIMIT, where, f"treasure.{biggest}.scale",
             f"makes the treasure scales add up to {sum(scales.values())} points, more than {SCORE_PART_LIMIT}")
    penalties = {name: a["count"] * abs(a["hand_penalty"]) for name, a in p["adventurer"].items()}
    biggest = max(penalties, key=penalties.get)
    require(sum(penalties.values()) <= SCORE_PART_LIMIT, where, f"adventurer.{biggest}.hand_penalty",
             f"(x count) makes a hand of every adventurer card cost {sum(penalties.values())} points, "
             f"more than {SCORE_PART_LIMIT}")


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(sorted(int(k) for k in p["setup"]["treasure_discard"]))


def engine_tables(p: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The validated parameters as four int32 tables: treasure[T, TF_*], scale[T, n cards],
    adventurer[A, AF_*] and rules[R_*] (the declarations of state.RULES); state.param_tables gives
    them back from the packed array."""
    treasures = list(p["treasure"].values())
    longest = max(t["count"] for t in treasures) + p["setup"]["hidden_tokens_per_player"] + 1
    scale = np.zeros((len(treasures), longest + 1), np.int32)
    for i, t in enumerate(treasures):
        points = _scale_list(t["scale"], "components", "scale")
        for n in range(1, longest + 1):
            scale[i, n] = points[min(n, len(points)) - 1]
    return TREASURES.pack(p), scale, ADVENTURERS.pack(p), RULES.pack(p)


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    """The validated parameters packed into the engine's one int32 array (layout in state.py): the
    rules, the tables' sizes and places, then the treasure, adventurer and scale tables row by row."""
    treasure, scale, adventurer, rules = engine_tables(p)
    sizes = np.zeros(TREASURE_AT - N_RULES, np.int32)
    sizes[H_TREASURES - N_RULES] = treasure.shape[0]
    sizes[H_ADVENTURERS - N_RULES] = adventurer.shape[0]
    sizes[H_SCALE_WIDTH - N_RULES] = scale.shape[1]
    sizes[H_ADVENTURER_AT - N_RULES] = TREASURE_AT + treasure.size
    sizes[H_SCALE_AT - N_RULES] = TREASURE_AT + treasure.size + adventurer.size
    return np.concatenate([rules, sizes, treasure.ravel(), adventurer.ravel(), scale.ravel()]).astype(np.int32)


def treasure_names(p: dict[str, Any]) -> list[str]:
    return list(p["treasure"])


def adventurer_names(p: dict[str, Any]) -> list[str]:
    return list(p["adventurer"])


def default_lineup() -> list[str]:
    """The bots seated when the user names none (bots.toml [lineup]), repeated round the table."""
    return read_lineup(BOTS_FILE)


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    """bots.toml, then bots.tuned.toml if present, to {name: (description, kind code, weight vector)}.

    A search bot's weights are the heuristic's (its rollout policy); its budget is read apart
    (search_budgets).
    """
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).specs(BOTS)


def search_budgets(bot_names: list[str]) -> np.ndarray:
    """The engine's float64 [bot, CFG_*] settings rows (search.py) for a list of bot names; a bot the
    files do not define (a tuning candidate) gets the [search] defaults."""
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).budget_rows(bot_names, SEARCH_BUDGET, search_mod.N_CFG)


def weight_names(kind: str) -> tuple[str, ...]:
    """The names of a bot's weight vector, in engine order; () for a kind that ignores weights.

    A search bot's vector is its heuristic rollout policy (the same names); its budget is not in it.
    """
    return () if kind == "random" else tuple(bots_mod.WEIGHT_NAMES)


def bot_kind_names() -> tuple[str, ...]:
    """Engine kind codes' names: BotSpec.kind indexes this."""
    return tuple(bots_mod.BOT_KIND_NAMES)
