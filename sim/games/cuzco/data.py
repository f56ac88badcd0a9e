"""Component data and rule parameters: TOML (components.toml + a variant) to engine arrays.

The designer's numbers live in components.toml and bots.toml; this module only reads, checks and
packs them. Every check names the offending key so a variant file can be fixed in one go.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.params import load_toml, require
from sim.core.tuned_bots import tuned_bots
from .state import (
    ACTION_NAMES, ABILITY_NAMES, CARD_NAMES, COLOUR_NAMES, GF_COUNT, GF_FOOD, GF_VP, GOD_NAMES,
    GOOD_NAMES, MAX_PLAYERS, MAX_SPACES, MAX_STATUS, MF_ARG1, MF_ARG2, MF_KIND1, MF_KIND2, MF_N1,
    MF_N2, MF_STARTING, MISSION_KIND_NAMES, N_ABILITIES, N_CIRCLETS, 
    N_GF, N_GODS, N_GOODS, N_MF, N_RF, N_RULES, N_SLOTS, N_TF, N_VF, N_VILLAGES, EXCHANGE_NAMES,
    R_ACH_CIRCLETS, R_ACH_FEATHERS, R_ACH_GOODS, R_ACH_MISSIONS, R_ACH_PEOPLE, R_ACH_QUIPUS,
    R_BLESS_CARD, R_BLESS_STATUS, R_CIRCLET_VP, R_DICE, R_DISPLAY_TILES, R_EXCHANGE,
    R_FEATHER_CAP, R_FEATHERS_PER_COLOUR, R_FOOD_SUPPLY, R_GOD_COPIES, R_GOD_DEAL,
    R_GOLDEN_PER_PLAYER, R_HEADDRESS_VP, R_MASK_SPACES, R_MEDAL_END_VP, R_MISSION_VP,
    R_MISSION_VP_REDUCED, R_OFFERING_SUPPLY, R_PALACE_EXTRA, R_PLENTY_FOOD, R_PLENTY_STATUS,
    R_PRIEST_VP, R_PRIESTS, R_PUTUTU, R_PUTUTU1, R_PUTUTU2, R_QUIPUS, R_ROUNDS,
    R_SMALL_MARKET_ROW, R_START_MEDALS, R_START_OFFERINGS, R_START_VP, R_STATUS_LEN,
    R_STATUS_VP, R_TEMPLE_MEDALS, R_VP_SPACE, RF_KIND, RF_PIPS, 
    VF_COLOUR, VF_RING, VF_VP,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"  # written by `sim tune`; optional
WAY_KINDS = ("trail", "bridge")
RINGS = ("inner", "outer")
ROUNDS = 6  # the market rows, headdress and priest tables are laid out for six rounds
# The largest argument of the mission kinds whose argument is an index (the engine reads the
# player's count at that index, so a larger one would read an unrelated field).
MISSION_ARGUMENT_MAX = {
    "feathers_of_colour": len(COLOUR_NAMES) - 1, "villages_of_colour": len(COLOUR_NAMES) - 1,
    "villages_in_ring": len(RINGS) - 1, "goods_of_type": N_GOODS - 1, "gods_of": N_GODS - 1,
    "people_with_ability": N_ABILITIES - 1,
}


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def _int_list(value: Any, where: str, key: str, length: int | None, lo: int, hi: int) -> list[int]:
    require(isinstance(value, list), where, key, "must be a list")
    if length is not None:
        require(len(value) == length, where, key, f"must list exactly {length} entries")
    for v in value:
        require(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi, where, key,
                 f"entries must be whole numbers from {lo} to {hi} (got {v!r})")
    return list(value)


def _int(value: Any, where: str, key: str, lo: int, hi: int) -> int:
    require(isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi, where, key,
             f"must be a whole number from {lo} to {hi} (got {value!r})")
    return value


def _name(value: Any, names: tuple[str, ...], where: str, key: str) -> int:
    require(value in names, where, key, f"must be one of {', '.join(names)} (got {value!r})")
    return names.index(value)


def validate(p: dict[str, Any], where: str) -> None:
    """Semantic checks the type-level merge cannot make; engine_arrays relies on them."""
    s, r = p["setup"], p["rules"]
    _int_list(s["start_vp_by_order_token"], where, "setup.start_vp_by_order_token", MAX_PLAYERS, -100, 100)
    for key in ("start_offerings", "start_medals", "golden_missions_per_player"):
        _int(s[key], where, f"setup.{key}", 0, 10 if key != "golden_missions_per_player" else 2)
    _int(s["temple_medals"], where, "setup.temple_medals", 0, 30)
    _int(s["palace_extra"], where, "setup.palace_extra", 0, 4)
    _int(s["feathers_per_colour_per_player"], where, "setup.feathers_per_colour_per_player", 1, 10)
    _int(s["display_tiles"], where, "setup.display_tiles", 1, 6)
    _int(s["small_game_market_row"], where, "setup.small_game_market_row", 0, 5)
    _int(s["offerings"], where, "setup.offerings", 0, 1000)
    _int(s["food"], where, "setup.food", 0, 1000)
    for players, k in s["god_deal_per_pile"].items():
        key = f"setup.god_deal_per_pile.{players}"
        require(players.isdigit() and 2 <= int(players) <= MAX_PLAYERS, where, key,
                 f"must name a player count from 2 to {MAX_PLAYERS}")
        _int(k, where, key, 0, 12)
        require(k * N_GODS >= 2 * int(players), where, key,
                 f"deals {k * N_GODS} cards, fewer than 2 per player")
    require(s["start_offerings"] * MAX_PLAYERS <= s["offerings"], where, "setup.offerings",
             "cannot cover the starting offerings")
    require(s["start_medals"] * MAX_PLAYERS + s["temple_medals"] <= 100, where, "setup.start_medals", "is too large")
    _int(r["rounds"], where, "rules.rounds", 1, ROUNDS)
    _int(r["dice"], where, "rules.dice", 3, 3)
    _int(r["priests"], where, "rules.priests", 1, 6)
    _int(r["quipus"], where, "rules.quipus", 0, 12)
    _int(r["mask_spaces"], where, "rules.mask_spaces", 1, 12)
    require(r["quipus"] <= r["mask_spaces"], where, "rules.quipus", "cannot exceed rules.mask_spaces")
    _int(r["feather_cap_per_colour"], where, "rules.feather_cap_per_colour", 0, 3)
    for key in ("vp_space", "mission_vp", "mission_vp_reduced", "medal_end_vp",
                "achievement_feathers_vp", "achievement_circlets_vp", "achievement_missions_vp",
                "achievement_quipus_vp", "achievement_people_vp", "achievement_goods_vp"):
        _int(r[key], where, f"rules.{key}", -100, 100)
    for key in ("fire_blessing_card_or_offering", "fire_blessing_status_or_food",
                "viracocha_blessing_food", "viracocha_blessing_status"):
        _int(r[key], where, f"rules.{key}", 0, 10)
    _int_list(r["headdress_vp_by_round"], where, "rules.headdress_vp_by_round", ROUNDS, -100, 100)
    _int_list(r["priest_vp_by_round"], where, "rules.priest_vp_by_round", ROUNDS, -100, 100)
    _int_list(r["status_track_vp"], where, "rules.status_track_vp", None, -100, 100)
    require(1 <= len(r["status_track_vp"]) <= MAX_STATUS, where, "rules.status_track_vp",
             f"must list 1 to {MAX_STATUS} spaces")
    _int_list(r["circlet_vp"], where, "rules.circlet_vp", N_CIRCLETS, -100, 100)
    for key in EXCHANGE_NAMES:
        _int(p["exchange"][key], where, f"exchange.{key}", 1, 6)
    require(isinstance(p["pututu"]["enabled"], bool), where, "pututu.enabled", "must be true or false")
    _int(p["pututu"]["plus_minus_1"], where, "pututu.plus_minus_1", 0, 100)
    _int(p["pututu"]["plus_minus_2"], where, "pututu.plus_minus_2", 0, 100)
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
                _name(a, ACTION_NAMES, where, key)
                require(a not in seen, where, key, f"names {a} twice")
                seen.add(a)
        require("victory_points" in seen, where, key, "needs the victory_points space (always usable)")
        vp_space = [sp for sp in sides if "victory_points" in sp][0]
        require(len(vp_space) == 1, where, key, "must keep victory_points on a space of its own")
    v = p["villages"]
    for key in ("names", "ring", "feather", "vp"):
        require(isinstance(v[key], list) and len(v[key]) == N_VILLAGES, where, f"villages.{key}",
                 f"must list {N_VILLAGES} villages")
    names = v["names"]
    require(len(set(names)) == N_VILLAGES, where, "villages.names", "must be distinct")
    for i in range(N_VILLAGES):
        _name(v["ring"][i], RINGS, where, "villages.ring")
        _name(v["feather"][i], COLOUR_NAMES, where, "villages.feather")
    require(v["ring"][:6] == ["inner"] * 6 and v["ring"][6:] == ["outer"] * 6, where, "villages.ring",
             "must list the 6 inner villages first (the Cuzco overlay's arms lead to them)")
    _int_list(v["vp"], where, "villages.vp", N_VILLAGES, 0, 100)
    ways = p["roads"]["ways"]
    require(isinstance(ways, list) and 1 <= len(ways) <= 60, where, "roads.ways", "must list 1 to 60 ways")
    for w in ways:
        require(isinstance(w, list) and len(w) == 4, where, "roads.ways",
                 f"entries must be [village, village, kind, pips] (got {w!r})")
        require(w[0] in names and w[1] in names and w[0] != w[1], where, "roads.ways",
                 f"{w!r} must join two different villages named in villages.names")
        _name(w[2], WAY_KINDS, where, "roads.ways")
        _int(w[3], where, "roads.ways pips", 1, 6)
    arms = p["roads"]["cuzco_arms"]
    require(isinstance(arms, list) and len(arms) == 6, where, "roads.cuzco_arms", "must list 6 arms")
    for a in arms:
        require(isinstance(a, list) and len(a) == 2, where, "roads.cuzco_arms", "entries must be [kind, pips]")
        _name(a[0], WAY_KINDS, where, "roads.cuzco_arms")
        _int(a[1], where, "roads.cuzco_arms pips", 1, 6)
    masks = p["masks"]["feathers"]
    require(isinstance(masks, list) and 1 <= len(masks) <= 8, where, "masks.feathers", "must list 1 to 8 mask boards")
    require(len(masks) >= MAX_PLAYERS, where, "masks.feathers", f"needs at least {MAX_PLAYERS} mask boards")
    for m in masks:
        require(isinstance(m, list) and len(m) == N_SLOTS, where, "masks.feathers",
                 f"each mask board lists {N_SLOTS} feather slots")
        for c in m:
            _name(c, COLOUR_NAMES, where, "masks.feathers")
    goods = p["goods"]
    require(set(goods) - {"source"} == set(GOOD_NAMES), where, "goods", f"must define {', '.join(GOOD_NAMES)}")
    total = 0
    for name in GOOD_NAMES:
        _int(goods[name]["count"], where, f"goods.{name}.count", 0, 30)
        _int(goods[name]["food"], where, f"goods.{name}.food", 0, 30)
        _int(goods[name]["vp"], where, f"goods.{name}.vp", -100, 100)
        total += goods[name]["count"]
    require(total <= 30, where, "goods", f"holds {total} goods; the market has 30 spaces")
    people = p["people"]
    require(people["abilities"] == list(ABILITY_NAMES), where, "people.abilities",
             "names the 12 printed abilities in order and cannot be changed")
    for key in ("study_values", "farm_values"):
        vals = people[key]
        require(isinstance(vals, list) and len(vals) == N_ABILITIES, where, f"people.{key}",
                 f"must list {N_ABILITIES} abilities")
        for row in vals:
            _int_list(row, where, f"people.{key}", 3, 0, 15)
    for name in ABILITY_NAMES:
        _int_list(people[name], where, f"people.{name}", 4, 0, 20)
    gods = p["gods"]
    require(gods["names"] == list(GOD_NAMES) and gods["abilities"] == list(CARD_NAMES), where,
             "gods", "names the printed gods and cards in order and cannot be changed")
    _int(gods["copies"], where, "gods.copies", 1, 4)
    missions = p["missions"]
    for key, n in (("starting", 6), ("general", 55)):
        ms = missions[key]
        require(isinstance(ms, list) and 1 <= len(ms) <= n, where, f"missions.{key}", f"must list 1 to {n} missions")
        for m in ms:
            require(isinstance(m, list) and 1 <= len(m) <= 2, where, f"missions.{key}",
                     "each mission lists one or two requirements")
            for req in m:
                require(isinstance(req, list) and len(req) == 3, where, f"missions.{key}",
                         f"requirements are [kind, count, argument] (got {req!r})")
                _name(req[0], MISSION_KIND_NAMES[1:], where, f"missions.{key}")
                _int(req[1], where, f"missions.{key} count", 0, 30)
                _int(req[2], where, f"missions.{key} argument of {req[0]}", 0, MISSION_ARGUMENT_MAX.get(req[0], 20))
    require(len(missions["starting"]) >= MAX_PLAYERS, where, "missions.starting",
             f"needs at least {MAX_PLAYERS} starting missions")


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(sorted(int(k) for k in p["setup"]["god_deal_per_pile"]))


def engine_arrays(p: dict[str, Any]) -> tuple:
    """Pack validated parameters into the tuple described in state.py."""
    v = p["villages"]
    names = v["names"]
    villages = np.zeros((N_VILLAGES, N_VF), np.int32)
    for i in range(N_VILLAGES):
        villages[i, VF_COLOUR] = COLOUR_NAMES.index(v["feather"][i])
        villages[i, VF_VP] = v["vp"][i]
        villages[i, VF_RING] = RINGS.index(v["ring"][i])
    ways = p["roads"]["ways"]
    roads = np.zeros((len(ways), N_RF), np.int32)
    for e, (a, b, kind, pips) in enumerate(ways):
        roads[e] = (names.index(a), names.index(b), WAY_KINDS.index(kind), pips)
    arms = np.zeros((6, N_RF), np.int32)
    for k, (kind, pips) in enumerate(p["roads"]["cuzco_arms"]):
        arms[k, RF_KIND] = WAY_KINDS.index(kind)
        arms[k, RF_PIPS] = pips
    spaces = np.zeros((MAX_PLAYERS + 1, MAX_SPACES), np.int32)
    for n in (2, 3, 4):
        for s, space in enumerate(p["action_board"][f"players_{n}"]):
            for a in space:
                spaces[n, s] |= 1 << ACTION_NAMES.index(a)
    masks = np.array([[COLOUR_NAMES.index(c) for c in m] for m in p["masks"]["feathers"]], np.int32)
    goods = np.zeros((N_GOODS, N_GF), np.int32)
    for t, name in enumerate(GOOD_NAMES):
        goods[t, GF_COUNT] = p["goods"][name]["count"]
        goods[t, GF_FOOD] = p["goods"][name]["food"]
        goods[t, GF_VP] = p["goods"][name]["vp"]
    pe = p["people"]
    people = np.zeros((2 * 3 * N_ABILITIES, N_TF), np.int32)
    t = 0
    for kind, key in enumerate(("study_values", "farm_values")):
        for a in range(N_ABILITIES):
            for value in pe[key][a]:
                people[t] = (kind, a, value)
                t += 1
    joint = np.array([pe[name] for name in ABILITY_NAMES], np.int32)
    ms = [(1, m) for m in p["missions"]["starting"]] + [(0, m) for m in p["missions"]["general"]]
    missions = np.zeros((len(ms), N_MF), np.int32)
    for i, (starting, reqs) in enumerate(ms):
        missions[i, MF_STARTING] = starting
        for j, (kind, n, arg) in enumerate(reqs):
            missions[i, (MF_KIND1, MF_KIND2)[j]] = MISSION_KIND_NAMES.index(kind)
            missions[i, (MF_N1, MF_N2)[j]] = n
            missions[i, (MF_ARG1, MF_ARG2)[j]] = arg
    rules = np.zeros(N_RULES, np.int32)
    s, r = p["setup"], p["rules"]
    rules[R_ROUNDS] = r["rounds"]
    rules[R_DICE] = r["dice"]
    rules[R_PRIESTS] = r["priests"]
    rules[R_QUIPUS] = r["quipus"]
    rules[R_MASK_SPACES] = r["mask_spaces"]
    rules[R_FEATHER_CAP] = r["feather_cap_per_colour"]
    rules[R_VP_SPACE] = r["vp_space"]
    rules[R_MISSION_VP] = r["mission_vp"]
    rules[R_MISSION_VP_REDUCED] = r["mission_vp_reduced"]
    rules[R_MEDAL_END_VP] = r["medal_end_vp"]
    rules[R_BLESS_CARD] = r["fire_blessing_card_or_offering"]
    rules[R_BLESS_STATUS] = r["fire_blessing_status_or_food"]
    rules[R_PLENTY_FOOD] = r["viracocha_blessing_food"]
    rules[R_PLENTY_STATUS] = r["viracocha_blessing_status"]
    rules[R_ACH_FEATHERS] = r["achievement_feathers_vp"]
    rules[R_ACH_CIRCLETS] = r["achievement_circlets_vp"]
    rules[R_ACH_MISSIONS] = r["achievement_missions_vp"]
    rules[R_ACH_QUIPUS] = r["achievement_quipus_vp"]
    rules[R_ACH_PEOPLE] = r["achievement_people_vp"]
    rules[R_ACH_GOODS] = r["achievement_goods_vp"]
    rules[R_START_OFFERINGS] = s["start_offerings"]
    rules[R_START_MEDALS] = s["start_medals"]
    rules[R_TEMPLE_MEDALS] = s["temple_medals"]
    rules[R_PALACE_EXTRA] = s["palace_extra"]
    rules[R_GOLDEN_PER_PLAYER] = s["golden_missions_per_player"]
    rules[R_FEATHERS_PER_COLOUR] = s["feathers_per_colour_per_player"]
    rules[R_DISPLAY_TILES] = s["display_tiles"]
    rules[R_SMALL_MARKET_ROW] = s["small_game_market_row"]
    rules[R_OFFERING_SUPPLY] = s["offerings"]
    rules[R_FOOD_SUPPLY] = s["food"]
    rules[R_PUTUTU] = int(p["pututu"]["enabled"])
    rules[R_PUTUTU1] = p["pututu"]["plus_minus_1"]
    rules[R_PUTUTU2] = p["pututu"]["plus_minus_2"]
    rules[R_STATUS_LEN] = len(r["status_track_vp"])
    rules[R_GOD_COPIES] = p["gods"]["copies"]
    for i, name in enumerate(EXCHANGE_NAMES):
        rules[R_EXCHANGE + i] = p["exchange"][name]
    for i in range(ROUNDS):
        rules[R_HEADDRESS_VP + i] = r["headdress_vp_by_round"][i]
        rules[R_PRIEST_VP + i] = r["priest_vp_by_round"][i]
    for i in range(N_CIRCLETS):
        rules[R_CIRCLET_VP + i] = r["circlet_vp"][i]
    for i in range(MAX_PLAYERS):
        rules[R_START_VP + i] = s["start_vp_by_order_token"][i]
    for players, k in s["god_deal_per_pile"].items():
        rules[R_GOD_DEAL + int(players)] = k
    for i, vp in enumerate(r["status_track_vp"]):
        rules[R_STATUS_VP + i] = vp
    return villages, roads, arms, spaces, masks, goods, people, joint, missions, rules


def mission_labels(p: dict[str, Any]) -> list[str]:
    """Column-friendly mission ids: s01..s06 for the grey starts, m01..m55 for the golden ones."""
    return ([f"s{i + 1:02d}" for i in range(len(p["missions"]["starting"]))]
            + [f"m{i + 1:02d}" for i in range(len(p["missions"]["general"]))])


def default_lineup() -> list[str]:
    """The bots seated when the user names none (bots.toml [lineup]), repeated round the table."""
    return list(load_toml(BOTS_FILE)["lineup"]["default"])


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    """bots.toml, then bots.tuned.toml if present, to {name: (description, kind code, weight vector)}.

    bots.tuned.toml holds the bots `sim tune` wrote (a designer may edit it too); its entries take
    the bots.toml [defaults] for any weight they omit and override a bots.toml bot of the same name.
    Its weights may be flat (card_jump = 2.2, as sim tune writes them) or nested like bots.toml's.
    """
    from .bots import BOT_KIND_NAMES, WEIGHT_NAMES
    raw = load_toml(BOTS_FILE)
    defaults = dict(raw["defaults"])
    cards = defaults.pop("card_preference")
    abilities = defaults.pop("ability_preference")
    out = {}
    for name, spec in raw["bots"].items():
        weights = dict(defaults)
        card_pref = dict(cards)
        ability_pref = dict(abilities)
        for key, value in spec.get("weights", {}).items():
            if key == "card_preference":
                card_pref.update(value)
            elif key == "ability_preference":
                ability_pref.update(value)
            elif key not in defaults:
                raise ValueError(f"bots.toml: bot {name} has unknown weight {key}")
            else:
                weights[key] = value
        flat = _flat_weights({**weights, "card_preference": card_pref, "ability_preference": ability_pref})
        missing = [k for k in WEIGHT_NAMES if k not in flat]
        if missing:
            raise ValueError(f"bots.toml: bot {name} lacks weights {missing}")
        vector = np.array([float(flat[k]) for k in WEIGHT_NAMES], np.float64)
        out[name] = (spec["description"], BOT_KIND_NAMES.index(spec["kind"]), vector)
    if TUNED_BOTS_FILE.exists():
        flat_defaults = _flat_weights({**defaults, "card_preference": cards, "ability_preference": abilities})
        out.update(tuned_bots(load_toml(TUNED_BOTS_FILE), flat_defaults, str(TUNED_BOTS_FILE), WEIGHT_NAMES,
                              BOT_KIND_NAMES, flatten=_flat_weights))
    for name, spec in raw["bots"].items():
        if "policy" in spec:
            out[name] = _with_policy(name, spec, out)
    return out


def _with_policy(name: str, spec: dict[str, Any], bots: dict[str, tuple[str, int, np.ndarray]]):
    """A bot that plays by another bot's heuristic weights, keeping its own search settings: the
    search bot searches with the best heuristic there is. `policy` is a bot name or a list of them,
    the first one known taken (`["temple-tuned", "temple"]` still works without bots.tuned.toml)."""
    from .weights import N_HEURISTIC_WEIGHTS, SEARCH_SETTINGS
    wanted = spec["policy"] if isinstance(spec["policy"], list) else [spec["policy"]]
    known = [policy for policy in wanted if policy in bots and policy != name]
    if not known:
        raise ValueError(f"bots.toml: bot {name} has policy {spec['policy']!r}, which names no other bot "
                         f"(known: {', '.join(b for b in bots if b != name)})")
    policy = known[0]
    own = spec.get("weights", {})
    borrowed = [key for key in own if key not in {name for name, _ in SEARCH_SETTINGS}]
    if borrowed:
        raise ValueError(f"bots.toml: bot {name} takes its weights from policy {policy}, so it cannot set {borrowed[0]}")
    description, kind, vector = bots[name]
    merged = bots[policy][2].copy()
    merged[N_HEURISTIC_WEIGHTS:] = vector[N_HEURISTIC_WEIGHTS:]
    return description, kind, merged


def _flat_weights(weights: dict[str, Any]) -> dict[str, Any]:
    """bots.toml's nested card_preference / ability_preference tables as card_X / ability_X weights."""
    flat = {k: v for k, v in weights.items() if k not in ("card_preference", "ability_preference")}
    for table, prefix in (("card_preference", "card_"), ("ability_preference", "ability_")):
        nested = weights.get(table, {})
        if not isinstance(nested, dict):
            raise ValueError(f"{table} must be a table")
        flat.update({f"{prefix}{k}": v for k, v in nested.items()})
    return flat


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
