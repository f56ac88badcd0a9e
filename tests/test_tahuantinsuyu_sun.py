"""The 21 Sun cards (rulebook: Sun Cards), one test each: a card laid in gap 0 affects seats 0 and 1
(the two players beside it) from its reveal until the Sapa Inca phase."""
from __future__ import annotations

import numpy as np

from tahuantinsuyu_helpers import GAME, PARAMS, REGION, SITE, SUN, Table, connect, line
from sim.games.tahuantinsuyu import geometry as G
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S


def _heuristic(t, **overrides):
    """Every seat plays the builder style, labour costing nothing (so it takes what a card offers)."""
    w = GAME.bots()["builder"].weights.astype(np.float64).copy()
    w[S.W_LABOUR] = 0.0
    w[S.W_NOISE] = 0.0
    for name, value in overrides.items():
        w[S.WEIGHT_NAMES.index(name)] = value
    t.kinds[:] = S.KIND_HEURISTIC
    t.W = np.tile(w, (t.n, 1))


def _site_ready(t, p, site, bits=0):
    """The site joined to seat p's network, its region conquered by p, with the given buildings."""
    region = PARAMS.resolved["site"][site]["region"]
    if t.owner(region) != p and not PARAMS.resolved["region"][region]["start"]:
        t.conquer(p, region)
    connect(t, p, site)
    s = SITE[site]
    for bit, tile in ((S.B_CITY, S.T_CITY), (S.B_GARRISON, S.T_GARRISON), (S.B_TEMPLE, S.T_TEMPLE)):
        if bits & bit:
            t.st[S.S_BUILDING + s] |= bit
            t.st[S.S_TILES + tile] -= 1


def test_the_deck_has_32_cards_of_21_kinds_wilderness_road_three():
    counts = {k: PARAMS.resolved["sun"][k]["count"] for k in S.SUN_NAMES}
    assert len(counts) == 21 and sum(counts.values()) == 32 and counts["wilderness_road"] == 3


def test_a_card_affects_only_the_two_players_beside_its_gap():
    t = Table(4)
    t.sun("resistance", 0)
    assert [t.at(p, S.P_ACTIVE + SUN["resistance"]) for p in range(4)] == [1, 1, 0, 0]
    assert [t.at(p, S.P_SUN_SUFFERED + SUN["resistance"]) for p in range(4)] == [1, 1, 0, 0]


def test_military_superiority_one_labour_less_and_resistance_one_free():
    t = Table(4)
    t.set_chip("C03", resistance=1)
    t.set_chip("C01", resistance=3)
    t.sun("military_superiority", 0)
    assert R.conquest_cost(t.P, t.st, 0, REGION["C03"], 0) == 0
    assert R.conquest_cost(t.P, t.st, 0, REGION["C01"], 0) == 2
    assert R.conquest_cost(t.P, t.st, 2, REGION["C01"], 0) == 3


def test_resistance_one_labour_more_and_two_cards_stack():
    t = Table(4)
    t.set_chip("C01", resistance=2)
    t.sun("resistance", 0)
    assert R.conquest_cost(t.P, t.st, 0, REGION["C01"], 0) == 3
    t.sun("resistance", 3)  # the second card beside seat 0, in the gap to seat 3
    assert R.conquest_cost(t.P, t.st, 0, REGION["C01"], 0) == 4
    assert R.conquest_cost(t.P, t.st, 1, REGION["C01"], 0) == 3


def test_popular_support_one_labour_for_each_resistance_one_chip_held():
    t = Table(4)
    t.conquer(0, "C03", resistance=1)
    t.conquer(0, "C01", resistance=1)
    t.conquer(0, "C02", resistance=2)
    before = t.labour(0)
    t.sun("popular_support", 0)
    assert t.labour(0) - before == 2 and t.at(0, S.P_LAB_CARDS) == 2
    t.check()


def test_stores_stop_famine_one_more_vp_for_a_garrison():
    t = Table(4)
    _site_ready(t, 0, "C00c")
    t.sun("stores_stop_famine", 0)
    t.set_labour(0, 4)
    R.build_garrison(t.P, t.st, t.log, 0, SITE["C00c"])
    assert t.vp(0) == 3 + 1 and t.at(0, S.P_VP_CARDS) == 1


def test_urban_renewal_two_more_vp_for_a_city():
    t = Table(4)
    _site_ready(t, 0, "C00b")
    t.sun("urban_renewal", 0)
    t.set_labour(0, 6)
    R.build_city(t.P, t.st, t.log, 0, SITE["C00b"])
    assert t.vp(0) == 4 + 2


def test_epidemic_two_more_labour_for_a_city():
    t = Table(4)
    _site_ready(t, 0, "C00b")
    t.sun("epidemic", 0)
    t.set_labour(0, 7)
    assert all(a != S.ACT_CITY for a, _, _ in t.turn_options(0))
    t.set_labour(0, 8)
    assert (S.ACT_CITY, SITE["C00b"], 0) in t.turn_options(0)
    R.build_city(t.P, t.st, t.log, 0, SITE["C00b"])
    assert t.labour(0) == 0


def test_harsh_weather_one_more_labour_for_a_garrison():
    t = Table(4)
    _site_ready(t, 0, "C00c")
    t.sun("harsh_weather", 0)
    t.set_labour(0, 4)
    assert all(a != S.ACT_GARRISON for a, _, _ in t.turn_options(0))
    t.set_labour(0, 5)
    R.build_garrison(t.P, t.st, t.log, 0, SITE["C00c"])
    assert t.labour(0) == 0


def test_solar_eclipse_a_temple_or_roads_not_both():
    t = Table(4)
    _site_ready(t, 0, "C00b", S.B_CITY)
    t.sun("solar_eclipse", 0)
    t.set(0, S.P_BUILT_ROAD, 0)
    t.set_labour(0, 10)
    assert (S.ACT_TEMPLE, SITE["C00b"], 0) in t.turn_options(0)
    t.road(0, "C00a", "C00c")  # a road this People phase: no temple
    assert all(a != S.ACT_TEMPLE for a, _, _ in t.turn_options(0))
    t.set(0, S.P_BUILT_ROAD, 0)
    R.build_temple(t.P, t.st, t.log, 0, SITE["C00b"])  # a temple: no road
    assert t.road_options(0) == [] and all(a not in (S.ACT_ROADS, S.ACT_EXTRA_ROAD) for a, _, _ in t.turn_options(0))
    assert t.road_options(2)  # the player not beside the card still builds roads


def test_rural_unrest_destroys_the_roads_through_unconquered_regions():
    t = Table(4)
    t.road(0, "C00a", "C00b")  # inside the own starting region: kept
    t.road(0, "C00a", "C03a")  # into unconquered C03: destroyed
    t.road(2, "Q00a", "Q00b")
    t.sun("rural_unrest", 0)
    assert t.st[S.S_ROAD_OWNER + line("C00a", "C00b")] == 0
    assert t.st[S.S_ROAD_OWNER + line("C00a", "C03a")] == -1
    assert not t.reaches(0, "C03a") and t.at(0, S.P_ROADS_LOST) == 1
    assert t.st[S.S_ROAD_OWNER + line("Q00a", "Q00b")] == 2  # seat 2 is not beside gap 0
    t.check()


def test_rural_unrest_spares_a_road_through_a_region_another_player_conquered():
    """Ambiguity 8: 'unconquered' is conquered by nobody."""
    t = Table(4)
    t.road(0, "C00a", "C03a")
    t.conquer(3, "C03")
    t.sun("rural_unrest", 0)
    assert t.st[S.S_ROAD_OWNER + line("C00a", "C03a")] == 0


def test_el_nino_flooding_one_road_fewer_but_at_least_one():
    t = Table(4)
    assert R.free_roads(t.P, t.st, 0) == 2
    t.sun("el_nino_flooding", 0)
    assert R.free_roads(t.P, t.st, 0) == 1
    t.sun("el_nino_flooding", 3)
    assert R.free_roads(t.P, t.st, 0) == 1
    t.sun("extra_roadcrew", 0)
    assert R.free_roads(t.P, t.st, 1) == 2  # seat 1: one flood, one roadcrew


def test_extra_roadcrew_one_more_free_road():
    t = Table(4)
    t.sun("extra_roadcrew", 0)
    assert R.free_roads(t.P, t.st, 0) == 3
    t.kinds[:] = S.KIND_RANDOM
    t.call(R.do_action, 0, S.ACT_ROADS, -1, 0)
    assert t.at(0, S.P_ROADS_BUILT) <= 3 and t.at(0, S.P_ROAD_DONE) == 1


def test_workers_press_on_a_second_road_free_with_the_additional_road():
    t = Table(4)
    _heuristic(t)
    t.sun("workers_press_on", 0)
    t.set_labour(0, 1)
    t.call(R.do_action, 0, S.ACT_EXTRA_ROAD, -1, 0)
    assert t.at(0, S.P_ROADS_BUILT) == 2 and t.labour(0) == 0
    t.check()


NEIGHBOURS_READING = {"rules": {"wilderness_road_neighbouring_regions_only": True,
                                 "wilderness_road_takes_a_road_slot": True}}


def _wild_pair_from(region):
    """A pair of map.wilderness_pairs with its first city in the region (seat 0's start)."""
    for a, b in PARAMS.resolved["map"]["wilderness_pairs"]:
        for x, y in ((a, b), (b, a)):
            if PARAMS.resolved["site"][x]["region"] == region:
                return x, y
    raise AssertionError(f"no Wilderness Road pair from {region}")


def test_wilderness_road_pairs_are_the_drawing_s_cities_joined_without_crossing_a_dashed_line():
    """Wilderness Road: "connect any two cities with a single road, as long as it does not cross an
    existing road or a planned road route": map.wilderness_pairs are the city-holding sites whose
    straight road on the reconstructed drawing (map.xy) crosses no dashed line, derived again here."""
    p = PARAMS.resolved
    pairs = [tuple(x) for x in p["map"]["wilderness_pairs"]]
    assert pairs == G.wilderness_pairs(p) and len(pairs) > 40
    xy = G.site_xy(p)
    for a, b in pairs:
        assert not any(G.segments_cross(xy[a], xy[b], xy[c], xy[d]) for c, d in G.lines(p))
    # a city pair in far regions crosses lines, so it is no pair
    assert ("C00b", "ranchillos") not in pairs and G.segments_cross((0, 0), (2, 2), (0, 2), (2, 0))


def test_wilderness_road_joins_two_cities_of_the_map_s_pairs_and_no_crossing_one():
    """Wilderness Road (ambiguity 10): a city of the network joined to a built city of a
    map.wilderness_pairs pair outside it; the second joins the network; one a card a People phase;
    a road that would cross a Wilderness Road already built ("an existing road") is refused."""
    a, b = _wild_pair_from("C00")
    t = Table(4)
    _site_ready(t, 0, a, S.B_CITY)
    t.st[S.S_BUILDING + SITE[b]] |= S.B_CITY
    t.st[S.S_TILES + S.T_CITY] -= 1
    assert not t.reaches(0, b)
    n = R.list_roads(t.P, t.st, 0, True)
    assert not [o for o in t.options(n) if o[2] == 1]
    t.sun("wilderness_road", 0)
    n = R.list_roads(t.P, t.st, 0, True)
    wild = [o for o in t.options(n) if o[2] == 1]
    assert (SITE[a], SITE[b], 1) in wild
    pairs = {frozenset((SITE[u], SITE[v])) for u, v in PARAMS.resolved["map"]["wilderness_pairs"]}
    assert all(frozenset((x, y)) in pairs for x, y, _ in wild)
    R.build_wild(t.P, t.st, t.log, 0, SITE[a], SITE[b])
    assert t.reaches(0, b) and t.at(0, S.P_WILD_BUILT) == 1
    n = R.list_roads(t.P, t.st, 0, True)
    assert not [o for o in t.options(n) if o[2] == 1]  # one a card a People phase
    t.check()
    # a straight road crossing a Wilderness Road already built is refused (the drawing's points)
    xy = {k: tuple(v) for k, v in PARAMS.resolved["map"]["xy"].items()}
    c, d = "C00a", "C00c"
    w = t.st[S.S_WILD_N]
    t.st[S.S_WILD + 3 * w:S.S_WILD + 3 * w + 3] = (SITE[c], SITE[d], 3)
    t.st[S.S_WILD_N] += 1
    for x, y in (("cuzco", "C00b"), (a, b), ("C00b", d)):
        assert R.wild_crosses_built(t.P, t.st, SITE[x], SITE[y]) == G.segments_cross(xy[x], xy[y], xy[c], xy[d])
    assert R.wild_cross(t.P, SITE["C00b"], SITE["C00a"], SITE["C00c"], SITE["cuzco"]) == G.segments_cross(
        xy["C00b"], xy["C00a"], xy["C00c"], xy["cuzco"])


def test_wilderness_road_is_built_beside_the_roads_of_the_action_unless_it_takes_a_slot():
    """Wilderness Road: "During the People Phase, you may connect any two cities with a single road":
    the card's road comes beside the action's roads (base), so one road to build still builds a
    dashed line after it; the earlier reading (rules.wilderness_road_takes_a_road_slot) spends it."""
    for variant, dashed_after in ((None, 1), (NEIGHBOURS_READING, 0)):
        seen = False
        for seed in range(40):
            t = Table(4, variant=variant)
            a, b = _wild_pair_from("C00") if variant is None else ("C00b", "A00b")
            _site_ready(t, 0, a, S.B_CITY)
            t.st[S.S_BUILDING + SITE[b]] |= S.B_CITY
            t.st[S.S_TILES + S.T_CITY] -= 1
            t.sun("wilderness_road", 0)
            R.rng.seed_game_stream(t.stream, np.uint64(seed), np.uint64(0))
            before = t.at(0, S.P_ROADS_BUILT)
            t.kinds[:] = S.KIND_RANDOM
            R.build_roads(t.P, t.st, t.stream, t.log, t.kinds, t.W, 0, 1, 1, 1)
            if t.at(0, S.P_WILD_BUILT) == 1 and t.st[S.S_WILD] == SITE[a]:
                seen = True
                assert t.at(0, S.P_ROADS_BUILT) - before == dashed_after
                break
        assert seen


def test_wilderness_road_neighbouring_regions_reading():
    """The earlier reading of Wilderness Road (variants/robust/tahuantinsuyu-wilderness-neighbours.toml):
    one road between two built cities in the same or neighbouring regions, the first in the network."""
    t = Table(4, variant=NEIGHBOURS_READING)
    _site_ready(t, 0, "C00b", S.B_CITY)
    _site_ready(t, 1, "A00b", S.B_CITY)
    assert not t.reaches(0, "A00b")
    t.sun("wilderness_road", 0)
    n = R.list_roads(t.P, t.st, 0, True)
    wild = [o for o in t.options(n) if o[2] == 1]
    assert (SITE["C00b"], SITE["A00b"], 1) in wild
    R.build_wild(t.P, t.st, t.log, 0, SITE["C00b"], SITE["A00b"])
    assert t.reaches(0, "A00b") and t.at(0, S.P_WILD_BUILT) == 1
    t.check()


def test_key_outpost_turns_an_earlier_garrison_into_a_city_for_four_labour():
    t = Table(4)
    _site_ready(t, 0, "C00c")
    t.set_labour(0, 4)
    t.st[S.S_ROUND] = 1
    R.build_garrison(t.P, t.st, t.log, 0, SITE["C00c"])
    t.sun("key_outpost", 0)
    t.set_labour(0, 4)
    assert all(a != S.ACT_KEY_OUTPOST for a, _, _ in t.turn_options(0))  # built this round
    t.st[S.S_ROUND] = 2
    assert (S.ACT_KEY_OUTPOST, SITE["C00c"], 0) in t.turn_options(0)
    vp = t.vp(0)
    R.key_outpost(t.P, t.st, t.log, 0, SITE["C00c"])
    assert t.labour(0) == 0 and t.vp(0) - vp == 4
    assert t.st[S.S_BUILDING + SITE["C00c"]] == S.B_CITY
    t.check()
    t.sun("epidemic", 0)  # cards changing a city's cost change the outpost's
    assert R.outpost_cost(t.P, t.st, 0) == 6


def test_religious_fervor_a_temple_on_a_garrison():
    t = Table(4)
    _site_ready(t, 0, "C00c", S.B_GARRISON)
    t.set_labour(0, 5)
    assert all(a != S.ACT_TEMPLE for a, _, _ in t.turn_options(0))
    t.sun("religious_fervor", 0)
    assert (S.ACT_TEMPLE, SITE["C00c"], 0) in t.turn_options(0)
    R.build_temple(t.P, t.st, t.log, 0, SITE["C00c"])
    assert t.vp(0) == 4
    before = t.vp(0)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.vp(0) - before == 2 + 1
    t.check()


def test_building_project_a_second_garrison_paid():
    t = Table(4)
    _heuristic(t)
    _site_ready(t, 0, "C00c")
    t.conquer(0, "C01")
    connect(t, 0, "C01a")
    t.sun("building_project", 0)
    t.set_labour(0, 8)
    t.call(R.do_action, 0, S.ACT_GARRISON, SITE["C00c"], 0)
    assert t.at(0, S.P_BUILT + S.T_GARRISON) == 2 and t.labour(0) == 0
    t.check()


def test_expert_surveyors_a_second_terrace_paid():
    t = Table(4)
    _heuristic(t)
    t.conquer(0, "C03")
    t.conquer(0, "C01")
    t.sun("expert_surveyors", 0)
    t.set_labour(0, 4)
    t.call(R.do_action, 0, S.ACT_TERRACE, REGION["C03"], 0)
    assert t.at(0, S.P_TERRACES) == 2 and t.labour(0) == 0
    t.check()


def test_rapid_expansion_a_second_conquest_two_labour_dearer():
    t = Table(4)
    t.set_chip("C03", resistance=1)
    t.set_chip("C01", resistance=2)
    t.sun("rapid_expansion", 0)
    t.set_labour(0, 5)
    t.call(R.do_action, 0, S.ACT_CONQUER, REGION["C03"], 0)
    options = t.turn_options(0)
    assert (S.ACT_RAPID, REGION["C01"], 0) in options
    t.call(R.do_action, 0, S.ACT_RAPID, REGION["C01"], 0)
    assert t.labour(0) == 0 and t.owner("C01") == 0
    assert all(a != S.ACT_RAPID for a, _, _ in t.turn_options(0))
    t.check()


def _pilgrimage(card, site, vp):
    t = Table(4)
    _site_ready(t, 0, site, S.B_CITY | S.B_TEMPLE)
    t.set(0, S.P_ROAD_DONE, 0)
    assert all(a != S.ACT_PILGRIMAGE for a, _, _ in t.turn_options(0))
    t.sun(card, 0)
    options = [o for o in t.turn_options(0) if o[0] == S.ACT_PILGRIMAGE]
    assert options == [(S.ACT_PILGRIMAGE, SITE[site], S.REPLACES_ROADS), (S.ACT_PILGRIMAGE, SITE[site],
                                                                           S.REPLACES_BUILDING)]
    t.call(R.do_action, 0, S.ACT_PILGRIMAGE, SITE[site], S.REPLACES_BUILDING)
    assert t.at(0, S.P_VP_PILGRIM) == vp and t.at(0, S.P_BUILD_DONE) == 1 and t.at(0, S.P_ROAD_DONE) == 0
    assert all(a != S.ACT_PILGRIMAGE for a, _, _ in t.turn_options(0))  # one a People phase
    assert (S.ACT_ROADS, -1, 0) in t.turn_options(0)


def test_great_pilgrimage_to_pucara_de_andalgala_or_ranchillos_8_vp():
    _pilgrimage("great_pilgrimage", "pucara_de_andalgala", 8)
    _pilgrimage("great_pilgrimage", "ranchillos", 8)


def test_annual_pilgrimage_to_chiquitoy_viejo_or_pachacamac_6_vp():
    _pilgrimage("annual_pilgrimage", "chiquitoy_viejo", 6)
    _pilgrimage("annual_pilgrimage", "pachacamac", 6)


def test_local_pilgrimage_to_machu_picchu_or_huanuco_pampa_5_vp():
    _pilgrimage("local_pilgrimage", "machu_picchu", 5)
    _pilgrimage("local_pilgrimage", "huanuco_pampa", 5)
