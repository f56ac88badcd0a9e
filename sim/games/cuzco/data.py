"""Component data and rule parameters: TOML (components.toml + a variant) to engine arrays.

The designer's numbers live in components.toml and bots.toml; this module only reads, checks and
packs them. Every check names the offending key so a variant file can be fixed in one go.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.params import format_key, load_toml, require
from sim.core.paramspec import Choice, Int, IntList, Records
from .state import (
    ACTION_NAMES, ABILITY_NAMES, CARDS_AT, CARD_NAMES, CF_COPIES, CF_OFFERINGS, MAX_CARD_OFFERINGS, FORBIDDEN_AT, MAX_CARD_COPIES, N_CARDS, N_CF, COLOUR_NAMES, GF_COUNT, GF_FOOD, GF_VP, GOD_NAMES,
    GOOD_NAMES, H_MASKS, H_MISSIONS, H_ROADS, WAY_ANY, WAY_PIPS_AT, MAX_MASKS, MAX_PLAYERS, MAX_MISSIONS, MAX_ROADS,
    MAX_SPACES, MAX_STARTING_MISSIONS, MF_ARG1, MF_ARG2, MF_KIND1, MF_KIND2, MF_N1, MF_N2, MF_STARTING,
    MISSION_KIND_NAMES, N_ABILITIES, N_GF, N_GODS, N_GOODS, N_PARAMS, N_RULES, N_SLOTS, N_VILLAGES,
    RF_KIND, RF_PIPS, RULES, VF_COLOUR, VF_PIECE, VF_RING, VF_VP, param_tables,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"  # written by `sim tune`; optional
ROBUST_FILE = HERE / "robust.toml"  # the reconstructed-number tables `sim robust` plays (sim/core/robust.py)
WAY_KINDS = ("trail", "bridge")
RINGS = ("inner", "outer")
# The largest argument of the mission kinds whose argument is an index (the engine reads the
# player's count at that index, so a larger one would read an unrelated field).
MISSION_ARGUMENT_MAX = {
    "feathers_of_colour": len(COLOUR_NAMES) - 1, "villages_of_colour": len(COLOUR_NAMES) - 1,
    "villages_in_ring": len(RINGS) - 1, "goods_of_type": N_GOODS - 1, "gods_of": N_GODS - 1,
    "people_with_ability": N_ABILITIES - 1,
}
# The goods table, goods[type, GF_*]. The rule parameters (rules, setup, exchange, pututu) are
# declared with the rules array they fill, state.RULES.
GOODS = Records("goods", ((GF_COUNT, Int("count", 0, 30)), (GF_FOOD, Int("food", 0, 30)),
                          (GF_VP, Int("vp", -100, 100))), N_GF, rows=GOOD_NAMES)
GOODS_SPACES = 30  # market spaces
# Each god card's printed numbers, cards[card, CF_*] ([gods.cards.NAME], issue 37).
GOD_CARDS = Records("gods.cards", ((CF_COPIES, Int("copies", 0, MAX_CARD_COPIES)),
                                   (CF_OFFERINGS, Int("offerings", 0, MAX_CARD_OFFERINGS))), N_CF, rows=CARD_NAMES)
FORBIDDEN_KEY = "gods.forbidden_by_seat"


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def validate(p: dict[str, Any], where: str) -> None:
    """Semantic checks the type-level merge cannot make; engine_arrays relies on them.

    Each rule parameter's type and bounds come from its declaration (state.RULES); what is written
    here is what no single declaration says: checks across keys and the table-shaped components.
    """
    RULES.check(p, where)
    s, r = p["setup"], p["rules"]
    for players, k in s["god_deal_per_pile"].items():
        require(k * N_GODS >= 2 * int(players), where, f"setup.god_deal_per_pile.{format_key(players)}",
                f"deals {k * N_GODS} cards, fewer than 2 per player")
    require(s["start_offerings"] * MAX_PLAYERS <= s["offerings"], where, "setup.offerings",
            "cannot cover the starting offerings")
    require(s["start_medals"] * MAX_PLAYERS + s["temple_medals"] <= 100, where, "setup.start_medals", "is too large")
    require(r["quipus"] <= r["mask_spaces"], where, "rules.quipus", "cannot exceed rules.mask_spaces")
    board = p["action_board"]
    for n in (2, 3, 4):
        key = f"action_board.players_{n}"
        sides = board[f"players_{n}"]
        require(isinstance(sides, list) and 1 <= len(sides) <= MAX_SPACES, where, key,
                f"must list 1 to {MAX_SPACES} action spaces")
        seen: set[str] = set()
        for space in sides:
            require(isinstance(space, list) and len(space) >= 1, where, key, "spaces must be lists of action names")
            for a in space:
                Choice(key, ACTION_NAMES).check_value(a, where)
                require(a not in seen, where, key, f"names {a} twice")
                seen.add(a)
        require("victory_points" in seen, where, key, "needs the victory_points space (always usable)")
        vp_space = [sp for sp in sides if "victory_points" in sp][0]
        require(len(vp_space) == 1, where, key, "must keep victory_points on a space of its own")
    v = p["villages"]
    for key in ("names", "ring", "feather", "vp", "feather_piece"):
        require(isinstance(v[key], list) and len(v[key]) == N_VILLAGES, where, f"villages.{key}",
                f"must list {N_VILLAGES} villages")
    names = v["names"]
    require(len(set(names)) == N_VILLAGES, where, "villages.names", "must be distinct")
    for i in range(N_VILLAGES):
        Choice("villages.ring", RINGS).check_value(v["ring"][i], where)
        Choice("villages.feather", COLOUR_NAMES).check_value(v["feather"][i], where)
    require(v["ring"][:6] == ["inner"] * 6 and v["ring"][6:] == ["outer"] * 6, where, "villages.ring",
            "must list the 6 inner villages first (the Cuzco overlay's arms lead to them)")
    IntList("villages.vp", N_VILLAGES, 0, 100).check(p, where)
    IntList("villages.feather_piece", N_VILLAGES, 0, N_VILLAGES - 1).check(p, where)
    pieces = v["feather_piece"]
    for ring in RINGS:
        counts = {q: sum(1 for i in range(N_VILLAGES) if pieces[i] == q) for q in set(pieces)
                  if any(pieces[i] == q and v["ring"][i] == ring for i in range(N_VILLAGES))}
        require(len(set(counts.values())) <= 1, where, "villages.feather_piece",
                f"the {ring} villages' pieces must carry as many villages each (they are dealt into each other's places)")
        require(all(v["ring"][i] == ring for i in range(N_VILLAGES) if pieces[i] in counts), where,
                "villages.feather_piece", "a piece carries villages of one ring only")
    ways = p["roads"]["ways"]
    require(isinstance(ways, list) and 1 <= len(ways) <= MAX_ROADS, where, "roads.ways",
            f"must list 1 to {MAX_ROADS} ways")
    for w in ways:
        require(isinstance(w, list) and len(w) == 4, where, "roads.ways",
                f"entries must be [village, village, kind, pips] (got {w!r})")
        require(w[0] in names and w[1] in names and w[0] != w[1], where, "roads.ways",
                f"{w!r} must join two different villages named in villages.names")
        Choice("roads.ways", WAY_KINDS).check_value(w[2], where)
        Int("roads.ways pips", 1, 6).check_value(w[3], where)
    arms = p["roads"]["cuzco_arms"]
    require(isinstance(arms, list) and len(arms) == 6, where, "roads.cuzco_arms", "must list 6 arms")
    for a in arms:
        require(isinstance(a, list) and len(a) == 2, where, "roads.cuzco_arms", "entries must be [kind, pips]")
        Choice("roads.cuzco_arms", WAY_KINDS).check_value(a[0], where)
        Int("roads.cuzco_arms pips", 1, 6).check_value(a[1], where)
    masks = p["masks"]["feathers"]
    require(isinstance(masks, list) and 1 <= len(masks) <= MAX_MASKS, where, "masks.feathers",
            f"must list 1 to {MAX_MASKS} mask boards")
    require(len(masks) >= MAX_PLAYERS, where, "masks.feathers", f"needs at least {MAX_PLAYERS} mask boards")
    for m in masks:
        require(isinstance(m, list) and len(m) == N_SLOTS, where, "masks.feathers",
                f"each mask board lists {N_SLOTS} feather slots")
        for c in m:
            Choice("masks.feathers", COLOUR_NAMES).check_value(c, where)
    GOODS.check(p, where)
    total = sum(p["goods"][name]["count"] for name in GOOD_NAMES)
    require(total <= GOODS_SPACES, where, "goods", f"holds {total} goods; the market has {GOODS_SPACES} spaces")
    people = p["people"]
    require(people["abilities"] == list(ABILITY_NAMES), where, "people.abilities",
            "names the 12 printed abilities in order and cannot be changed")
    for key in ("study_values", "farm_values"):
        vals = people[key]
        require(isinstance(vals, list) and len(vals) == N_ABILITIES, where, f"people.{key}",
                f"must list {N_ABILITIES} abilities")
        for row in vals:
            IntList(f"people.{key}", 3, 0, 15).check_value(row, where)
    for name in ABILITY_NAMES:
        IntList(f"people.{name}", 4, 0, 20).check(p, where)
    gods = p["gods"]
    require(gods["names"] == list(GOD_NAMES) and gods["abilities"] == list(CARD_NAMES), where,
            "gods", "names the printed gods and cards in order and cannot be changed")
    GOD_CARDS.check(p, where)
    copies = [gods["cards"][name]["copies"] for name in CARD_NAMES]
    for players, k in s["god_deal_per_pile"].items():
        dealt = sum(min(k, sum(copies[3 * g:3 * g + 3])) for g in range(N_GODS))
        require(dealt >= 2 * int(players), where, "gods.cards",
                f"leave {dealt} cards to deal from the piles for {format_key(players)} players, fewer than 2 per player")
    forbidden = gods["forbidden_by_seat"]
    require(isinstance(forbidden, list) and len(forbidden) == MAX_PLAYERS and all(isinstance(x, list) for x in forbidden),
            where, FORBIDDEN_KEY, f"must list {MAX_PLAYERS} lists of card names, one per seat")
    for names_of_seat in forbidden:
        for name in names_of_seat:
            Choice(FORBIDDEN_KEY, CARD_NAMES).check_value(name, where)
    missions = p["missions"]
    for key, n in (("starting", MAX_STARTING_MISSIONS), ("general", MAX_MISSIONS - MAX_STARTING_MISSIONS)):
        ms = missions[key]
        require(isinstance(ms, list) and 1 <= len(ms) <= n, where, f"missions.{key}", f"must list 1 to {n} missions")
        for m in ms:
            require(isinstance(m, list) and 1 <= len(m) <= 2, where, f"missions.{key}",
                    "each mission lists one or two requirements")
            for req in m:
                require(isinstance(req, list) and len(req) == 3, where, f"missions.{key}",
                        f"requirements are [kind, count, argument] (got {req!r})")
                Choice(f"missions.{key}", MISSION_KIND_NAMES[1:]).check_value(req[0], where)
                Int(f"missions.{key} count", 0, 30).check_value(req[1], where)
                Int(f"missions.{key} argument of {req[0]}", 0, MISSION_ARGUMENT_MAX.get(req[0], 20)).check_value(
                    req[2], where)
    require(len(missions["starting"]) >= MAX_PLAYERS, where, "missions.starting",
            f"needs at least {MAX_PLAYERS} starting missions")


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(sorted(int(k) for k in p["setup"]["god_deal_per_pile"]))


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    """Pack validated parameters into the flat int32 array P described in state.py."""
    P = np.zeros(N_PARAMS, np.int32)
    P[:N_RULES] = RULES.pack(p)
    rules, villages, _, arms, spaces, _, goods, people, joint, _ = param_tables(P)
    v = p["villages"]
    names = v["names"]
    for i in range(N_VILLAGES):
        villages[i, VF_COLOUR] = COLOUR_NAMES.index(v["feather"][i])
        villages[i, VF_VP] = v["vp"][i]
        villages[i, VF_RING] = RINGS.index(v["ring"][i])
        villages[i, VF_PIECE] = v["feather_piece"][i]
    ways = p["roads"]["ways"]
    P[H_ROADS] = len(ways)
    roads = param_tables(P)[2]
    for e, (a, b, kind, pips) in enumerate(ways):
        roads[e] = (names.index(a), names.index(b), WAY_KINDS.index(kind), pips)
    way_pips = P[WAY_PIPS_AT:WAY_PIPS_AT + N_VILLAGES * N_VILLAGES * 3].reshape(N_VILLAGES, N_VILLAGES, 3)
    way_pips[:] = 99
    for a, b, kind, pips in roads[:len(ways)]:
        for x, y in ((a, b), (b, a)):
            way_pips[x, y, kind] = min(way_pips[x, y, kind], pips)
            way_pips[x, y, WAY_ANY] = min(way_pips[x, y, WAY_ANY], pips)
    for k, (kind, pips) in enumerate(p["roads"]["cuzco_arms"]):
        arms[k, RF_KIND] = WAY_KINDS.index(kind)
        arms[k, RF_PIPS] = pips
    for n in (2, 3, 4):
        for s, space in enumerate(p["action_board"][f"players_{n}"]):
            for a in space:
                spaces[n, s] |= 1 << ACTION_NAMES.index(a)
    P[H_MASKS] = len(p["masks"]["feathers"])
    param_tables(P)[5][:] = [[COLOUR_NAMES.index(c) for c in m] for m in p["masks"]["feathers"]]
    goods[:] = GOODS.pack(p)
    P[CARDS_AT:CARDS_AT + N_CARDS * N_CF] = GOD_CARDS.pack(p).ravel()
    for seat, names_of_seat in enumerate(p["gods"]["forbidden_by_seat"]):
        P[FORBIDDEN_AT + seat] = sum(1 << CARD_NAMES.index(name) for name in set(names_of_seat))
    pe = p["people"]
    t = 0
    for kind, key in enumerate(("study_values", "farm_values")):
        for a in range(N_ABILITIES):
            for value in pe[key][a]:
                people[t] = (kind, a, value)
                t += 1
    joint[:] = [pe[name] for name in ABILITY_NAMES]
    ms = [(1, m) for m in p["missions"]["starting"]] + [(0, m) for m in p["missions"]["general"]]
    P[H_MISSIONS] = len(ms)
    missions = param_tables(P)[9]
    for i, (starting, reqs) in enumerate(ms):
        missions[i, MF_STARTING] = starting
        for j, (kind, n, arg) in enumerate(reqs):
            missions[i, (MF_KIND1, MF_KIND2)[j]] = MISSION_KIND_NAMES.index(kind)
            missions[i, (MF_N1, MF_N2)[j]] = n
            missions[i, (MF_ARG1, MF_ARG2)[j]] = arg
    return P


def forbid_variant(seat: int, cards: list[str]) -> dict[str, Any]:
    """The variant overrides that forbid `cards` to one seat (sim value's hook, VALUE_GROUPS)."""
    forbidden: list[list[str]] = [[] for _ in range(MAX_PLAYERS)]
    forbidden[seat] = list(cards)
    return {"gods": {"forbidden_by_seat": forbidden}}


def mission_labels(p: dict[str, Any]) -> list[str]:
    """Column-friendly mission ids: s01..s06 for the grey starts, m01..m55 for the golden ones."""
    return ([f"s{i + 1:02d}" for i in range(len(p["missions"]["starting"]))]
            + [f"m{i + 1:02d}" for i in range(len(p["missions"]["general"]))])


def default_lineup() -> list[str]:
    """The bots seated when the user names none (bots.toml [lineup]), repeated round the table."""
    return read_lineup(BOTS_FILE)


def bots_schema() -> BotsSchema:
    """What bots.toml may hold: the heuristic weights (card_preference / ability_preference tables
    spelt card_X / ability_X) and the search budget (weights.SEARCH_BUDGET)."""
    from .bots import BOT_KIND_NAMES
    from .weights import SEARCH_BUDGET
    return BotsSchema(kinds=tuple(BOT_KIND_NAMES), weights=weight_names("heuristic"),
                      groups={"card_preference": "card_", "ability_preference": "ability_"}, budget=SEARCH_BUDGET,
                      budget_kinds=("search", "pruned"))


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    """bots.toml, then bots.tuned.toml if present, to {name: (description, kind code, weight vector)}
    (sim/core/bots_file.py reads them). A bot's vector is its heuristic weights, then its search
    budget (the [search] defaults unless a search bot sets its own), where search.py reads it."""
    schema = bots_schema()
    specs = read_bots(BOTS_FILE, TUNED_BOTS_FILE, schema).specs(schema, budget_names=schema.budget_names)
    return {**specs, **lookahead_twins(specs)}


def lookahead_twins(specs: dict) -> dict:
    """NAME-lookahead for every heuristic bot: the same weights, as the kind "lookahead" (each
    phase-I turn played on a copy by the rules: the heuristic before issue 13, for comparisons)."""
    from .bots import BOT_KIND_NAMES
    heuristic, lookahead = BOT_KIND_NAMES.index("heuristic"), BOT_KIND_NAMES.index("lookahead")
    return {f"{name}-lookahead": (f"{name} played by look-ahead on a copy (kind lookahead)", lookahead, weights)
            for name, (_, kind, weights) in specs.items() if kind == heuristic and f"{name}-lookahead" not in specs}


def weight_names(kind: str) -> tuple[str, ...]:
    """The names of a bot's weight vector, in engine order; () for a kind that ignores weights."""
    from .bots import WEIGHT_NAMES
    from .weights import N_HEURISTIC_WEIGHTS
    if kind == "random":
        return ()
    return tuple(WEIGHT_NAMES) if kind == "search" else tuple(WEIGHT_NAMES[:N_HEURISTIC_WEIGHTS])


def bot_kind_names() -> tuple[str, ...]:
    """Engine kind codes' names: BotSpec.kind indexes this."""
    from .bots import BOT_KIND_NAMES
    return tuple(BOT_KIND_NAMES)
