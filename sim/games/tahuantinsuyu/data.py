"""Tahuantinsuyu's data: components.toml (and a variant over it) checked and packed for the engine.

The rules array is declared by state.RULES; the chips and Sun cards are `Records`; the map (regions,
sites, borders, the dashed road lines and the royal lines from Cuzco) and the turn-sequence track
are checked here by hand. Every error names the offending key.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.params import PROVENANCE_TABLE, load_toml, require
from sim.core.paramspec import Choice, Float, Int, Records
from . import search as search_mod
from .state import (
    BOT_KIND_NAMES, CHIP_AT, CH_LABOUR, CH_RES, CH_VP, ERA_AT, H_CHIP_MEAN_RES, H_CHIP_MEAN_VP, H_DECK, H_INVASION,
    H_N_CHIPS, H_N_REGIONS, H_N_ROADS, H_N_ROUNDS, H_N_SITES, INC_AT, INC_END_AT, MAX_CHIPS, MAX_DECK, MAX_INC, MAX_NB,
    MAX_OPTIONS, MAX_PHASES, MAX_PLAYERS, MAX_REGIONS, MAX_ROADS, MAX_ROUNDS, MAX_SITES, MIN_PLAYERS, NB_AT, N_CH, N_PARAMS,
    N_RF, N_RG, N_RULES, N_SF, N_SU, PHASE_AT, PH_INCA, PH_PEOPLE, PH_SAPA_INCA, PH_SUN, PILGRIMAGE_NAMES,
    REGION_AT, RESOURCES_AT, RF_A, RF_B, RF_REGION_A, RF_REGION_B, RF_ROYAL, RG_N_LINES, RG_N_NB, RG_PLAYERS, RG_RING,
    RG_START, RG_SUYU, RL_AT, MAX_RL, MAX_WP, ROAD_AT, WP_AT, WP_N_AT, XY_AT, RULES, SI_LEFT_AT,
    SF_BONUS, SF_KIND, SF_N_INC, SF_PILGRIM, SF_REGION, SITE_AT, SITE_KIND_NAMES, SK_CUZCO, SK_SIGNIFICANT, SUN_AT,
    SUN_NAMES, SUYU_NAMES, SU_COUNT, SU_VALUE, WEIGHT_NAMES,
)

HERE = Path(__file__).parent
COMPONENTS_FILE = HERE / "components.toml"
BOTS_FILE = HERE / "bots.toml"
TUNED_BOTS_FILE = HERE / "bots.tuned.toml"
ROBUST_FILE = HERE / "robust.toml"
# bots.toml: the kinds, the weights in vector order, and a search bot's budget ([search]), each
# setting at its column of the engine's budget rows (search.py CFG_*).
SEARCH_BUDGET = (
    (search_mod.CFG_ROLLOUTS, Int("rollouts", 0, 10_000)),
    (search_mod.CFG_CANDIDATES, Int("candidates", 1, 64)),
    (search_mod.CFG_MARGIN, Float("margin", 0.0, 1.0)),
    (search_mod.CFG_CONFIDENCE, Float("confidence", 0.0, 10.0)),
    (search_mod.CFG_ROUNDS, Int("rounds", 0, 20)),
    (search_mod.CFG_ROLLOUT_NOISE, Float("rollout_noise", 0.0, 100.0)),
    (search_mod.CFG_LABOUR_VP, Float("labour_vp", 0.0, 10.0)),
)
BOTS = BotsSchema(kinds=BOT_KIND_NAMES, weights=WEIGHT_NAMES, budget=tuple(param for _, param in SEARCH_BUDGET))
PHASE_LETTERS = {"I": PH_INCA, "S": PH_SUN, "P": PH_PEOPLE, "X": PH_SAPA_INCA}

CHIPS = Records("chip", ((CH_RES, Int("resistance", 0, 30)), (CH_LABOUR, Int("labour", 0, 30)),
                         (CH_VP, Int("vp", 0, 50))), N_CH)
SUN = Records("sun", ((SU_COUNT, Int("count", 0, 10)), (SU_VALUE, Int("value", 0, 50))), N_SU, rows=SUN_NAMES)
REGIONS = Records("region", ((RG_SUYU, Choice("suyu", SUYU_NAMES)), (RG_START, Int("start", 0, 1)),
                             (RG_PLAYERS, Int("players", MIN_PLAYERS, MAX_PLAYERS)), (RG_RING, Int("ring", 0, 20))),
                  N_RG)
SITES = Records("site", ((SF_KIND, Choice("kind", SITE_KIND_NAMES)), (SF_BONUS, Int("temple_bonus", 0, 50)),
                         (SF_PILGRIM, Choice("pilgrimage", PILGRIMAGE_NAMES))), N_SF)


def default_components() -> dict[str, Any]:
    return load_toml(COMPONENTS_FILE)


def names(p: dict[str, Any], key: str) -> list[str]:
    return [name for name in p[key] if name != PROVENANCE_TABLE]


def validate(p: dict[str, Any], where: str) -> None:
    """Every declared key, then the map and the track."""
    RULES.check(p, where)
    CHIPS.check(p, where)
    SUN.check(p, where)
    REGIONS.check(p, where)
    SITES.check(p, where)
    regions, sites, chips = names(p, "region"), names(p, "site"), names(p, "chip")
    require(1 <= len(regions) <= MAX_REGIONS, where, "region", f"must hold 1 to {MAX_REGIONS} regions")
    require(1 <= len(sites) <= MAX_SITES, where, "site", f"must hold 1 to {MAX_SITES} sites")
    require(1 <= len(chips) <= MAX_CHIPS, where, "chip", f"must hold 1 to {MAX_CHIPS} chips")
    deck = sum(p["sun"][k]["count"] for k in SUN_NAMES)
    require(1 <= deck <= MAX_DECK, where, "sun", f"must hold 1 to {MAX_DECK} cards")
    for n in player_counts(p):
        require(deck >= n * p["rules"]["sun_hand"] + 1, where, "sun", f"must hold more cards than {n} hands")
        conquerable = sum(1 for r in regions if not p["region"][r]["start"] and p["region"][r]["players"] <= n)
        require(conquerable <= len(chips), where, "chip", f"must hold a chip for each of the {conquerable} regions "
                f"of the {n}-player map")
    cuzco = [s for s in sites if p["site"][s]["kind"] == "cuzco"]
    require(len(cuzco) == 1 and sites[0] == cuzco[0], where, "site", "must name Cuzco (kind cuzco) first, once")
    for s in sites:
        row = p["site"][s]
        require(row["region"] in regions or (row["kind"] == "cuzco" and row["region"] == ""), where,
                f"site.{s}.region", "must name a region (Cuzco: \"\")")
    for key in ("borders", "roads", "royal_roads"):
        require(isinstance(p["map"][key], list), where, f"map.{key}", "must be a list of pairs")
    _pairs(p, where, "borders", regions)
    roads = _pairs(p, where, "roads", sites) + _pairs(p, where, "royal_roads", sites)
    require(len(roads) <= MAX_ROADS, where, "map.roads", f"must hold at most {MAX_ROADS} lines with the royal ones")
    require(len(set(roads)) == len(roads), where, "map.roads", "must not list a line twice")
    cities = sum(1 for s in sites if p["site"][s]["kind"] in ("city", "significant_city"))
    require(1 + len(roads) + cities * (cities - 1) // 2 <= MAX_OPTIONS, where, "site",
            f"must hold few enough road lines and city sites for a turn's road options (the stop, every line, every "
            f"pair of cities for Wilderness Road) to fit {MAX_OPTIONS}")
    require(isinstance(p["map"]["wilderness_pairs"], list), where, "map.wilderness_pairs", "must be a list of pairs")
    wild = _pairs(p, where, "wilderness_pairs", sites)
    require(len(set(map(frozenset, wild))) == len(wild), where, "map.wilderness_pairs", "must not list a pair twice")
    for i, (a, b) in enumerate(wild):
        require(all(p["site"][sites[x]]["kind"] in ("city", "significant_city", "garrison") for x in (a, b)), where,
                f"map.wilderness_pairs[{i}]", "must join two sites that can hold a city (city, significant city, "
                "garrison)")
    partners = np.zeros(len(sites), np.int64)
    for a, b in wild:
        partners[a] += 1
        partners[b] += 1
    require(int(partners.max(initial=0)) <= MAX_WP, where, "map.wilderness_pairs",
            f"must give a site at most {MAX_WP} partners")
    require(1 + len(roads) + len(wild) <= MAX_OPTIONS, where, "map.wilderness_pairs",
            f"must leave the road options (the stop, every line, every pair) within {MAX_OPTIONS}")
    for s in sites:
        xy = p["map"]["xy"].get(s)
        require(isinstance(xy, list) and len(xy) == 2 and all(isinstance(v, (int, float)) and abs(v) < 1000 for v in xy),
                where, f"map.xy.{s}", "must be the site's point [x, y] (board units, below 1000)")
    starts = [r for r in regions if p["region"][r]["start"]]
    require(len(starts) == MAX_PLAYERS and [p["region"][r]["suyu"] for r in starts] == list(SUYU_NAMES), where,
            "region", "must have one starting region a suyu, in the order " + ", ".join(SUYU_NAMES))
    royal = p["map"]["royal_roads"]
    require(len(royal) == MAX_PLAYERS, where, "map.royal_roads", "must hold one line a suyu")
    for i, (a, b) in enumerate(royal):
        require(a == sites[0] and p["site"][b]["region"] == starts[i], where, f"map.royal_roads[{i}]",
                f"must join Cuzco to a site of the starting region {starts[i]}")
    for n in player_counts(p):
        present = sum(1 for r in starts if p["region"][r]["players"] <= n)
        require(present >= n, where, "region", f"must have {n} starting regions for {n} players")
    degree = np.zeros(len(sites), np.int64)
    for a, b in roads:
        degree[a] += 1
        degree[b] += 1
    require(int(degree.max()) <= MAX_INC, where, "map.roads", f"must join at most {MAX_INC} lines at a site")
    in_region = np.zeros(len(regions), np.int64)
    site_region = [regions.index(p["site"][s]["region"]) if p["site"][s]["region"] else -1 for s in sites]
    for a, b in roads:
        for r in {site_region[a], site_region[b]} - {-1}:
            in_region[r] += 1
    require(int(in_region.max()) <= MAX_RL, where, "map.roads", f"must join at most {MAX_RL} lines to a region's sites")
    nb = np.zeros(len(regions), np.int64)
    for a, b in _pairs(p, where, "borders", regions):
        nb[a] += 1
        nb[b] += 1
    require(int(nb.max()) <= MAX_NB, where, "map.borders", f"must give a region at most {MAX_NB} neighbours")
    track = p["track"]
    n_rounds = len(track["phases"])
    require(1 <= n_rounds <= MAX_ROUNDS, where, "track.phases", f"must list 1 to {MAX_ROUNDS} rounds")
    for i, column in enumerate(track["phases"]):
        require(isinstance(column, str) and 1 <= len(column) <= MAX_PHASES and set(column) <= set(PHASE_LETTERS),
                where, f"track.phases[{i}]", f"must be 1 to {MAX_PHASES} of the letters I, S, P, X")
    require(track["phases"][-1].endswith("X"), where, "track.phases", "must end the last round with a Sapa Inca")
    require(track["phases"][-1].count("P") == track["invasion_tiles"], where, "track.invasion_tiles",
            "must equal the People phases of the last round (one tile beside each)")
    for key in ("resources", "era"):
        require(isinstance(track[key], list) and len(track[key]) == n_rounds, where, f"track.{key}",
                f"must give one number a round ({n_rounds})")
        require(all(isinstance(v, int) and 0 <= v <= (50 if key == "resources" else 2) for v in track[key]),
                where, f"track.{key}", "must hold numbers 0-50 (resources) or 0-2 (era)")


def _pairs(p: dict[str, Any], where: str, key: str, pool: list[str]) -> list[tuple[int, int]]:
    out = []
    for i, pair in enumerate(p["map"][key]):
        require(isinstance(pair, list) and len(pair) == 2 and all(x in pool for x in pair) and pair[0] != pair[1],
                where, f"map.{key}[{i}]", "must be a pair of two different known names")
        out.append((pool.index(pair[0]), pool.index(pair[1])))
    return out


def player_counts(p: dict[str, Any]) -> tuple[int, ...]:
    return tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))


def engine_arrays(p: dict[str, Any]) -> np.ndarray:
    """The validated parameters in the engine's one int64 array (layout in state.py)."""
    P = np.zeros(N_PARAMS, np.int64)
    P[:N_RULES] = RULES.pack(p, np.int64)
    regions, sites = names(p, "region"), names(p, "site")
    reg = REGIONS.pack(p, np.int64)
    site = SITES.pack(p, np.int64)
    for s, name in enumerate(sites):
        site[s, SF_REGION] = regions.index(p["site"][name]["region"]) if p["site"][name]["region"] else -1
    roads = _pairs(p, "components", "roads", sites)
    royal = _pairs(p, "components", "royal_roads", sites)
    for r_a, r_b in _pairs(p, "components", "borders", regions):
        for a, b in ((r_a, r_b), (r_b, r_a)):
            P[NB_AT + a * MAX_NB + reg[a, RG_N_NB]] = b
            reg[a, RG_N_NB] += 1
    for e, (a, b) in enumerate(roads + royal):
        P[ROAD_AT + e * N_RF + RF_A] = a
        P[ROAD_AT + e * N_RF + RF_B] = b
        P[ROAD_AT + e * N_RF + RF_ROYAL] = 1 if e >= len(roads) else 0
        P[ROAD_AT + e * N_RF + RF_REGION_A] = site[a, SF_REGION]
        P[ROAD_AT + e * N_RF + RF_REGION_B] = site[b, SF_REGION]
        for r in {site[a, SF_REGION], site[b, SF_REGION]} - {-1}:
            P[RL_AT + r * MAX_RL + reg[r, RG_N_LINES]] = e
            reg[r, RG_N_LINES] += 1
        for s, other in ((a, b), (b, a)):
            P[INC_AT + s * MAX_INC + site[s, SF_N_INC]] = e
            P[INC_END_AT + s * MAX_INC + site[s, SF_N_INC]] = other
            site[s, SF_N_INC] += 1
    for a, b in _pairs(p, "components", "wilderness_pairs", sites):
        for s, other in ((a, b), (b, a)):
            P[WP_AT + s * MAX_WP + P[WP_N_AT + s]] = other
            P[WP_N_AT + s] += 1
    for s, name in enumerate(sites):
        x, y = p["map"]["xy"][name]
        P[XY_AT + s * 2] = int(round(x * 1000))
        P[XY_AT + s * 2 + 1] = int(round(y * 1000))
    P[REGION_AT:REGION_AT + reg.size] = reg.ravel()
    P[SITE_AT:SITE_AT + site.size] = site.ravel()
    chips = CHIPS.pack(p, np.int64)
    P[CHIP_AT:CHIP_AT + chips.size] = chips.ravel()
    sun = SUN.pack(p, np.int64)
    P[SUN_AT:SUN_AT + sun.size] = sun.ravel()
    P[H_N_REGIONS], P[H_N_SITES], P[H_N_ROADS], P[H_N_CHIPS] = len(regions), len(sites), len(roads + royal), len(chips)
    track = p["track"]
    P[H_N_ROUNDS] = len(track["phases"])
    P[H_INVASION] = track["invasion_tiles"]
    P[H_CHIP_MEAN_RES:H_CHIP_MEAN_VP + 1] = np.round(chips.mean(axis=0) * 100).astype(np.int64)
    P[H_DECK] = int(sun[:, SU_COUNT].sum())
    for i, column in enumerate(track["phases"]):
        P[RESOURCES_AT + i] = track["resources"][i]
        P[ERA_AT + i] = track["era"][i]
        for j, letter in enumerate(column):
            P[PHASE_AT + i * MAX_PHASES + j] = PHASE_LETTERS[letter]
    left = 0
    for i in range(len(track["phases"]) - 1, -1, -1):  # the Sapa Inca phases from each phase on
        for j in range(MAX_PHASES - 1, -1, -1):
            if P[PHASE_AT + i * MAX_PHASES + j] == PH_SAPA_INCA:
                left += 1
            P[SI_LEFT_AT + i * MAX_PHASES + j] = left
    return P


def region_names(p: dict[str, Any]) -> list[str]:
    return names(p, "region")


def site_names(p: dict[str, Any]) -> list[str]:
    return names(p, "site")


def significant_sites(p: dict[str, Any]) -> list[str]:
    return [s for s in names(p, "site") if p["site"][s]["kind"] == SITE_KIND_NAMES[SK_SIGNIFICANT]]


def road_pairs(p: dict[str, Any]) -> list[tuple[str, str]]:
    """Every road line (the dashed ones, then the royal ones) as a pair of site names."""
    return [tuple(pair) for pair in p["map"]["roads"] + p["map"]["royal_roads"]]


def load_bots() -> dict[str, tuple[str, int, np.ndarray]]:
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).specs(BOTS)


def default_lineup() -> list[str]:
    return read_lineup(BOTS_FILE)


def weight_names(kind: str) -> tuple[str, ...]:
    return () if kind == "random" else tuple(WEIGHT_NAMES)


def bot_kind_names() -> tuple[str, ...]:
    return tuple(BOT_KIND_NAMES)


assert SK_CUZCO == 0 and MAX_PLAYERS == 4


def search_budgets(bot_names: list[str]) -> np.ndarray:
    """The engine's float64 [bot, CFG_*] budget rows (search.py) for a list of bot names; a bot the
    files do not define (a tuning candidate) gets the [search] defaults."""
    return read_bots(BOTS_FILE, TUNED_BOTS_FILE, BOTS).budget_rows(bot_names, SEARCH_BUDGET, search_mod.N_CFG)
