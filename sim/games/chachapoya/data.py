"""Component data and rule parameters: TOML (components.toml + a variant) to engine arrays.

The designer's numbers live in components.toml and bots.toml; this module only reads, checks and
packs them. Every check names the offending key so a variant file can be fixed in one go.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.errors import UserError
from sim.core.params import load_toml, require
from sim.core.tuned_bots import tuned_bots
from . import bots as bots_mod
from . import search as search_mod
from .state import (
    AF_COUNT, AF_MAX, AF_PENALTY, AF_ROLE, AF_VALUE, EFFECT_NAMES, MAX_PLAYERS, N_AF, N_RULES, N_TF,
    R_BID_MAX, R_BID_MIN, R_CLASH_REBID, R_DISCARD_BASE, R_HAND_SIZE, R_LAST_ROUND_DECK,
    R_MIN_HAND, R_OFFER_DRAW, R_PAIR_DRAW, R_ROUND_DRAW, R_ROUND_LIMIT, R_STALEMATE_ROUNDS,
    R_TOKEN_REFILL_TO, R_TOKENS, R_UNRESOLVED_LEADER, ROLE_NAMES, SCALE_X, TF_COUNT, TF_EFFECT,
    TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"  # written by `sim tune`; optional
OFFER_DRAW = 3  # Gameplay: three drawn, one to the bottom, one face up, one face down
MAX_POINTS = 1000  # largest points value of one scale entry, card value or hand penalty
# The players table stores scores (and their parts) as int16: the treasure scales, the hand
# penalties and the unresolved-leader charges may each reach at most this much in absolute value,
# so a score can never wrap around.
SCORE_PART_LIMIT = 10_000


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def _scale_list(raw: list, where: str, key: str) -> list[int]:
    require(len(raw) > 0, where, key, "must list at least one entry")
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
    """Semantic checks the type-level merge cannot make."""
    treasures = p["treasure"]
    adventurers = p["adventurer"]
    require(1 <= len(treasures) <= 60, where, "treasure", "must define 1 to 60 treasure types")
    require(1 <= len(adventurers) <= 60, where, "adventurer", "must define 1 to 60 adventurer kinds")
    n_treasure = 0
    for name, t in treasures.items():
        key = f"treasure.{name}"
        require(0 <= t["count"] <= 100, where, f"{key}.count", "must be between 0 and 100")
        require(t["effect"] in EFFECT_NAMES, where, f"{key}.effect", f"must be one of {', '.join(EFFECT_NAMES)}")
        require(0 <= t["effect_amount"] <= 20, where, f"{key}.effect_amount", "must be between 0 and 20")
        require(-MAX_POINTS <= t["card_value"] <= MAX_POINTS, where, f"{key}.card_value",
                 f"must be between -{MAX_POINTS} and {MAX_POINTS}")
        _scale_list(t["scale"], where, f"{key}.scale")
        n_treasure += t["count"]
    n_adventurer = 0
    for name, a in adventurers.items():
        key = f"adventurer.{name}"
        require(0 <= a["count"] <= 100, where, f"{key}.count", "must be between 0 and 100")
        require(a["role"] in ROLE_NAMES, where, f"{key}.role", f"must be one of {', '.join(ROLE_NAMES)}")
        require(0 <= a["value"] <= 1000, where, f"{key}.value", "must be between 0 and 1000")
        require(1 <= a["max_per_bid"] <= 10, where, f"{key}.max_per_bid", "must be between 1 and 10")
        require(-100 <= a["hand_penalty"] <= 100, where, f"{key}.hand_penalty", "must be between -100 and 100")
        n_adventurer += a["count"]
    require(n_treasure <= 127 * 4, where, "treasure", "holds too many cards")
    _check_score_parts(p, where)
    setup, rules = p["setup"], p["rules"]
    require(1 <= setup["hand_size"] <= 30, where, "setup.hand_size", "must be between 1 and 30")
    require(0 <= setup["hidden_tokens_per_player"] <= 5, where, "setup.hidden_tokens_per_player",
             "must be between 0 and 5")
    for players, n in setup["treasure_discard"].items():
        key = f"setup.treasure_discard.{players}"
        require(players.isdigit() and 2 <= int(players) <= MAX_PLAYERS, where, key,
                 f"must name a player count from 2 to {MAX_PLAYERS}")
        require(isinstance(n, int) and not isinstance(n, bool) and 0 <= n, where, key,
                 "must be a whole number of cards, at least 0")
        require(n_treasure - n >= 2, where, key,
                 f"leaves {n_treasure - n} treasure cards; a game needs at least 2")
        require(int(players) * setup["hand_size"] <= n_adventurer, where, "setup.hand_size",
                 f"x {players} players needs more than the {n_adventurer} adventurer cards")
    require(1 <= rules["bid_min_cards"] <= rules["bid_max_cards"] <= 10, where, "rules.bid_max_cards",
             "must satisfy 1 <= bid_min_cards <= bid_max_cards <= 10")
    require(0 <= rules["round_draw"] <= 20, where, "rules.round_draw", "must be between 0 and 20")
    require(0 <= rules["minimum_hand"] <= 30, where, "rules.minimum_hand", "must be between 0 and 30")
    require(0 <= rules["token_refill_to"] <= 30, where, "rules.token_refill_to", "must be between 0 and 30")
    require(2 <= rules["last_round_deck"] <= 3, where, "rules.last_round_deck", "must be 2 or 3")
    require(0 <= rules["tracker_pair_draw"] <= 20, where, "rules.tracker_pair_draw", "must be between 0 and 20")
    require(1 <= rules["round_limit"] <= 10_000, where, "rules.round_limit", "must be between 1 and 10000")
    require(1 <= rules["stalemate_rounds"] <= 10_000, where, "rules.stalemate_rounds",
             "must be between 1 and 10000")
    require(-100 <= rules["unresolved_leader_last_round"] <= 100, where, "rules.unresolved_leader_last_round",
             "must be between -100 and 100")


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


def engine_arrays(p: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pack validated parameters into the (treasure, scale, adventurer, rules) tuple of state.py."""
    treasures = list(p["treasure"].values())
    adventurers = list(p["adventurer"].values())
    tokens = p["setup"]["hidden_tokens_per_player"]
    longest = max(t["count"] for t in treasures) + tokens + 1
    treasure = np.zeros((len(treasures), N_TF), np.int32)
    scale = np.zeros((len(treasures), longest + 1), np.int32)
    for i, t in enumerate(treasures):
        treasure[i, TF_COUNT] = t["count"]
        treasure[i, TF_VALUE] = t["card_value"]
        treasure[i, TF_EFFECT] = EFFECT_NAMES.index(t["effect"])
        treasure[i, TF_EFFECT_AMOUNT] = t["effect_amount"]
        treasure[i, TF_TOKEN_OK] = int(t["token_allowed"])
        points = _scale_list(t["scale"], "components", "scale")
        for n in range(1, longest + 1):
            scale[i, n] = points[min(n, len(points)) - 1]
    adventurer = np.zeros((len(adventurers), N_AF), np.int32)
    for i, a in enumerate(adventurers):
        adventurer[i, AF_COUNT] = a["count"]
        adventurer[i, AF_VALUE] = a["value"]
        adventurer[i, AF_MAX] = a["max_per_bid"]
        adventurer[i, AF_ROLE] = ROLE_NAMES.index(a["role"])
        adventurer[i, AF_PENALTY] = a["hand_penalty"]
    rules = np.zeros(N_RULES, np.int32)
    r = p["rules"]
    rules[R_HAND_SIZE] = p["setup"]["hand_size"]
    rules[R_TOKENS] = tokens
    rules[R_OFFER_DRAW] = OFFER_DRAW
    rules[R_BID_MIN] = r["bid_min_cards"]
    rules[R_BID_MAX] = r["bid_max_cards"]
    rules[R_ROUND_DRAW] = r["round_draw"]
    rules[R_MIN_HAND] = r["minimum_hand"]
    rules[R_TOKEN_REFILL_TO] = r["token_refill_to"]
    rules[R_LAST_ROUND_DECK] = r["last_round_deck"]
    rules[R_PAIR_DRAW] = r["tracker_pair_draw"]
    rules[R_UNRESOLVED_LEADER] = r["unresolved_leader_last_round"]
    rules[R_CLASH_REBID] = int(r["two_player_leader_clash_rebid"])
    rules[R_ROUND_LIMIT] = r["round_limit"]
    rules[R_STALEMATE_ROUNDS] = r["stalemate_rounds"]
    for players, n in p["setup"]["treasure_discard"].items():
        rules[R_DISCARD_BASE + int(players)] = n
    return treasure, scale, adventurer, rules


def treasure_names(p: dict[str, Any]) -> list[str]:
    return list(p["treasure"])


def adventurer_names(p: dict[str, Any]) -> list[str]:
    return list(p["adventurer"])


def default_lineup() -> list[str]:
    """The bots seated when the user names none (bots.toml [lineup]), repeated round the table."""
    return list(load_toml(BOTS_FILE)["lineup"]["default"])


# A search bot's budget (bots.toml): kept out of the weight vector, so that `sim tune` never tunes
# it and every bot's vector has the same length. Field name -> search.py row index.
SEARCH_BUDGET_FIELDS = {"rollouts": search_mod.CFG_ROLLOUTS, "candidates": search_mod.CFG_CANDIDATES,
                        "margin": search_mod.CFG_MARGIN, "confidence": search_mod.CFG_CONFIDENCE,
                        "horizon": search_mod.CFG_HORIZON, "rollout_noise": search_mod.CFG_ROLLOUT_NOISE}
SEARCH_BUDGET_LIMITS = {"rollouts": (0, 10_000), "candidates": (1, 100), "margin": (0.0, 1.0),
                        "confidence": (0.0, 10.0), "horizon": (0, 1000), "rollout_noise": (0.0, 100.0)}


def _budget(spec: dict[str, Any], base: dict[str, float], where: str) -> dict[str, float]:
    out = dict(base)
    for key, (lo, hi) in SEARCH_BUDGET_LIMITS.items():
        if key in spec:
            value = spec[key]
            whole = isinstance(lo, int)
            if (isinstance(value, bool) or not isinstance(value, int if whole else (int, float))
                    or not lo <= value <= hi):
                raise UserError(f"{where}: {key} must be {'a whole number' if whole else 'a number'} "
                                f"from {lo} to {hi} (got {value!r})")
            out[key] = value
    return out


def search_budget_table() -> dict[str, dict[str, float]]:
    """{bot name: {"rollouts": R, "candidates": K, "margin": M, "confidence": Z, "horizon": H,
    "rollout_noise": N}} for bots.toml's search bots, plus "" for the
    [search] defaults, which a search bot defined elsewhere (bots.tuned.toml, a tuning candidate)
    plays with."""
    raw = load_toml(BOTS_FILE)
    for key in SEARCH_BUDGET_FIELDS:
        if key not in raw.get("search", {}):
            raise UserError(f"bots.toml [search] lacks {key}")
    table = {"": _budget(raw["search"], {}, "bots.toml [search]")}
    for name, spec in raw["bots"].items():
        here = f"bots.toml: bot {name}"
        if spec.get("kind") == "search":
            table[name] = _budget(spec, table[""], here)
        elif any(key in spec for key in SEARCH_BUDGET_FIELDS):
            raise UserError(f"{here}: only a search bot has {' or '.join(SEARCH_BUDGET_FIELDS)}")
    return table


def search_budgets(bot_names: list[str]) -> np.ndarray:
    """The engine's float64 [bot, CFG_*] settings rows (search.py) for a list of bot names; bots of
    other kinds get the defaults too, which the engine never reads."""
    table = search_budget_table()
    out = np.zeros((len(bot_names), search_mod.N_CFG), np.float64)
    for i, name in enumerate(bot_names):
        budget = table.get(name, table[""])
        for key, j in SEARCH_BUDGET_FIELDS.items():
            out[i, j] = budget[key]
    return out


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    """bots.toml, then bots.tuned.toml if present, to {name: (description, kind code, weight vector)}.

    bots.tuned.toml holds the bots `sim tune` wrote (a designer may edit it too); its entries take
    the bots.toml [defaults] for any weight they omit and override a bots.toml bot of the same name.
    A search bot's weights are the heuristic's (its rollout policy); its budget is read apart
    (search_budgets).
    """
    raw = load_toml(BOTS_FILE)
    defaults = raw["defaults"]
    missing = set(bots_mod.WEIGHT_NAMES) - set(defaults)
    if missing:
        raise ValueError(f"bots.toml [defaults] lacks {sorted(missing)}")
    search_budget_table()  # checks the budgets
    out = {}
    for name, spec in raw["bots"].items():
        weights = dict(defaults)
        for key, value in spec.get("weights", {}).items():
            if key not in defaults:
                raise ValueError(f"bots.toml: bot {name} has unknown weight {key}")
            weights[key] = value
        vector = np.array([float(weights[k]) for k in bots_mod.WEIGHT_NAMES], np.float64)
        out[name] = (spec["description"], bots_mod.BOT_KIND_NAMES.index(spec["kind"]), vector)
    if TUNED_BOTS_FILE.exists():
        out.update(tuned_bots(load_toml(TUNED_BOTS_FILE), defaults, str(TUNED_BOTS_FILE),
                              bots_mod.WEIGHT_NAMES, bots_mod.BOT_KIND_NAMES))
    return out


def weight_names(kind: str) -> tuple[str, ...]:
    """The names of a bot's weight vector, in engine order; () for a kind that ignores weights.

    A search bot's vector is its heuristic rollout policy (the same names); its budget is not in it.
    """
    return () if kind == "random" else tuple(bots_mod.WEIGHT_NAMES)


def bot_kind_names() -> tuple[str, ...]:
    """Engine kind codes' names: BotSpec.kind indexes this."""
    return tuple(bots_mod.BOT_KIND_NAMES)
