"""The People phase (rulebook: People Phase, Building a Road, Building a City / Temple / Garrison /
Terrace / an Additional Road, Conquering a Region, Scoring, Miscellaneous)."""
from __future__ import annotations

from tahuantinsuyu_helpers import LINES, REGION, SITE, Table, connect, line, line_between
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S


def test_the_royal_line_joins_each_player_to_cuzco_and_the_own_starting_region():
    """Setup: each player draws the dash-dot line from Cuzco to the edge of the own quadrant; the
    starting region is the player's territory."""
    t = Table(4)
    for p, (region, gate) in enumerate((("C00", "C00a"), ("A00", "A00a"), ("Q00", "Q00a"), ("K00", "K00a"))):
        assert t.owner(region) == p
        assert t.reaches(p, "cuzco") and t.reaches(p, gate)
        assert not t.reaches((p + 1) % 4, gate)
    t.check()


def test_a_road_must_join_the_own_network_and_touch_the_own_territory():
    """Building a Road: connect directly to the own network (which reaches Cuzco); at least one of
    the two points lies in territory already conquered; one road a dashed line."""
    t = Table(4)
    open_lines = t.road_options(0)
    assert line("C00a", "C00b") in open_lines  # inside the starting region
    assert line("C00a", "C03a") in open_lines  # from the own territory into a neighbour
    assert line("C00b", "C01a") not in open_lines  # C00b is not in the network yet
    a, b = "C03a", "C03b"
    assert line(a, b) not in open_lines
    t.road(0, "C00a", "C03a")
    # C03a is now in the network, but neither end of a line inside C03 lies in own territory
    assert t.reaches(0, "C03a")
    assert line(a, b) not in t.road_options(0)
    t.conquer(0, "C03")
    assert line(a, b) in t.road_options(0)
    # "Only one road may be built per dashed line": the line C00a - C00b, once seat 0's, is nobody's
    # to build again (seat 1 joined beside it)
    t.road(0, "C00a", "C00b")
    connect(t, 1, "C00c")
    assert t.reaches(1, "C00c") and line("C00a", "C00b") not in t.road_options(0) + t.road_options(1)
    # the starting regions border each other, but no dashed line joins their gates (README "The map")
    for a, b in (("C00a", "A00a"), ("A00a", "Q00a"), ("Q00a", "K00a"), ("K00a", "C00a")):
        assert not any({a, b} == set(pair) for pair in LINES)
    t.check()


def _has(rx, ry):
    try:
        line_between(rx, ry)
        return True
    except KeyError:
        return False


def test_a_road_into_a_region_turns_its_chip_face_up():
    """Building a Road: a road leading into a region with a face-down chip reveals it."""
    t = Table(4)
    t.road(0, "C00a", "C03a")
    assert t.revealed("C03")
    a, b = line_between("C03", "C06") if _has("C03", "C06") else line_between("C03", "C07")
    region_b = b[:3]
    t.conquer(0, "C03")
    assert t.revealed(region_b)  # conquering reveals the neighbours
    t.check()


def test_setup_reveals_the_chips_beside_the_starting_regions_only():
    """Setup: the chips in the regions neighbouring the grey starting regions are revealed."""
    t = Table(4)
    assert t.revealed("C01") and t.revealed("C03") and t.revealed("A01")
    assert not t.revealed("C14") and not t.revealed("Q12")


def test_conquering_pays_the_resistance_scores_the_chip_and_needs_the_network_beside_the_region():
    """Conquering a Region: the network must border the region or lead into it; pay the
    resistance, take the chip, score its left VP; its labour comes each Inca phase."""
    t = Table(4)
    r = REGION["C03"]
    assert R.conquerable(t.P, t.st, 0, r, False)  # C03 borders the starting region's network
    assert not R.conquerable(t.P, t.st, 0, REGION["C14"], True)  # far away
    t.set_chip("C03", resistance=3, labour=2, vp=4)
    t.set_labour(0, 5)
    R.conquer(t.P, t.st, t.log, 0, r, 0)
    assert t.labour(0) == 2 and t.vp(0) == 4 and t.owner("C03") == 0
    assert t.at(0, S.P_CHIP_LABOUR) == 2 and t.at(0, S.P_N_CHIPS) == 1
    assert t.at(0, S.P_CONQUERED + 0) == 1
    assert not R.conquerable(t.P, t.st, 1, r, False)  # conquered regions are no one else's to take
    t.check()


def test_conquest_reach_across_a_dashed_line_of_a_reached_site_is_the_stricter_reading():
    """Conquering a Region: "your road network must border that region or lead into it". Base: a
    reached site borders every neighbour of its region; the stricter reading
    (rules.conquest_reach_across_dashed_lines, robustness table conquest-reach-lines): a region is
    reached across a border that a dashed line of a reached site crosses."""
    base, strict = Table(4), Table(4, variant={"rules": {"conquest_reach_across_dashed_lines": True}})
    for t in (base, strict):
        assert t.reaches(0, "C00a") and not t.reaches(0, "C00b")
        assert R.conquerable(t.P, t.st, 0, REGION["C03"], False)  # line C00a - C03a from the gate
    assert R.conquerable(base.P, base.st, 0, REGION["C01"], False)  # C01 borders the starting region
    assert not R.conquerable(strict.P, strict.st, 0, REGION["C01"], False)  # no reached site's line leads there
    strict.road(0, "C00a", "C00b")  # C00b's line C00b - C01a crosses into C01
    assert R.conquerable(strict.P, strict.st, 0, REGION["C01"], False)
    strict.check()


def test_a_road_end_in_anyones_conquered_territory_is_the_switch_reading():
    """Building a Road: "at least one of the two points being connected must lie in territory you
    have already conquered". Base: the player's own territory; switch
    rules.road_end_in_anyones_conquered_territory: a region anyone controls, so a rival's conquest
    opens lines to the player (its road lines are scanned again)."""
    for anyones in (False, True):
        t = Table(4, variant={"rules": {"road_end_in_anyones_conquered_territory": anyones}})
        t.road(0, "C00a", "C03a")  # from the own starting region into unconquered C03
        e = line("C03a", "C06a")
        seen = lambda: [o[0] for o in t.options(R.list_scanned_roads(t.P, t.st, 0, False))]
        assert e not in seen()  # neither end in conquered land
        t.conquer(1, "C06")
        assert (e in seen()) == anyones
        assert (e in t.road_options(0)) == anyones
        t.check()


def test_a_region_needs_enough_labour_to_be_offered():
    t = Table(4)
    t.set_chip("C03", resistance=4)
    t.set_labour(0, 3)
    conquests = [b for a, b, _ in t.turn_options(0) if a == S.ACT_CONQUER]
    assert REGION["C03"] not in conquests
    t.set_labour(0, 4)
    assert REGION["C03"] in [b for a, b, _ in t.turn_options(0) if a == S.ACT_CONQUER]


def test_a_city_on_a_connected_city_site_in_conquered_land_scores_4_now_and_3_per_connected_player():
    """Building a City: 6 labour, 4 VP now; in the Sapa Inca phase 3 VP to every player whose
    network connects to it, whoever built it."""
    t = Table(4)
    city = "C00b"
    assert SITE[city] not in [b for a, b, _ in t.turn_options(0) if a == S.ACT_CITY]  # not yet joined
    t.road(0, "C00a", "C00b")
    t.set_labour(0, 6)
    assert (S.ACT_CITY, SITE[city], 0) in t.turn_options(0)
    R.build_city(t.P, t.st, t.log, 0, SITE[city])
    assert t.vp(0) == 4 and t.labour(0) == 0 and t.at(0, S.P_VP_CITY) == 4
    # seat 1 joins the city too, by its own roads (C00a - C00b is seat 0's)
    assert not t.reaches(1, city)
    connect(t, 1, city)
    assert t.reaches(1, city)
    before = [t.vp(p) for p in range(4)]
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    gained = [t.vp(p) - before[p] for p in range(4)]
    assert gained[0] == 3 and gained[1] == 3 and gained[2] == 0 and gained[3] == 0
    t.check()


def test_temple_on_a_built_city_and_the_significant_bonus():
    """Building a Temple: on a built city joined to the network, 5 labour, 4 VP now plus the
    significant city's printed bonus; 1 VP per connected player at each Sapa Inca."""
    t = Table(4)
    mp = SITE["machu_picchu"]
    t.conquer(1, "A01")
    connect(t, 1, "machu_picchu")
    t.set_labour(1, 11)
    R.build_city(t.P, t.st, t.log, 1, mp)
    assert (S.ACT_TEMPLE, mp, 0) in t.turn_options(1)
    vp = t.vp(1)
    R.build_temple(t.P, t.st, t.log, 1, mp)
    bonus = t.P[S.SITE_AT + mp * S.N_SF + S.SF_BONUS]
    assert bonus == 2 and t.vp(1) - vp == 4 + bonus and t.at(1, S.P_VP_TEMPLE_BONUS) == bonus
    before = t.vp(1)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.vp(1) - before == 3 + 1  # the city's 3 and the temple's 1
    t.check()


def test_garrison_scores_3_now_and_2_per_connected_player():
    """Building a Garrison: 4 labour, 3 VP now, 2 VP per connected player at each Sapa Inca."""
    t = Table(3)
    t.road(0, "C00a", "C00c")
    t.set_labour(0, 4)
    assert (S.ACT_GARRISON, SITE["C00c"], 0) in t.turn_options(0)
    R.build_garrison(t.P, t.st, t.log, 0, SITE["C00c"])
    assert t.vp(0) == 3 and t.labour(0) == 0
    connect(t, 1, "C00c")
    v0, v1, v2 = t.vp(0), t.vp(1), t.vp(2)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert (t.vp(0) - v0, t.vp(1) - v1, t.vp(2) - v2) == (2, 2, 0)
    t.check()


def test_terrace_one_a_conquered_region_1_vp_now_1_at_each_sapa_inca_and_1_labour_a_round():
    """Building a Terrace: 2 labour, one per controlled region (next to its RI chip), 1 VP now, 1 VP
    to its builder at each Sapa Inca, one labour a round (README ambiguity 3)."""
    t = Table(4)
    assert not [o for o in t.turn_options(0) if o[0] == S.ACT_TERRACE]  # the starting region has no chip
    t.conquer(0, "C03")
    t.set_labour(0, 4)
    assert (S.ACT_TERRACE, REGION["C03"], 0) in t.turn_options(0)
    R.build_terrace(t.P, t.st, t.log, 0, REGION["C03"])
    assert t.vp(0) - t.at(0, S.P_VP_CONQUEST) == 1
    assert (S.ACT_TERRACE, REGION["C03"], 0) not in t.turn_options(0)
    assert R.entitlement(t.P, t.st, 0, 1) == t.P[S.RESOURCES_AT + 1] + t.at(0, S.P_CHIP_LABOUR) + 1
    before = t.vp(0)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.vp(0) - before == 1
    t.check()


def test_an_additional_road_costs_one_labour():
    """Building an Additional Road: one labour for one more road, in the building action."""
    t = Table(4)
    t.set_labour(0, 1)
    assert (S.ACT_EXTRA_ROAD, -1, 0) in t.turn_options(0)
    t.kinds[:] = S.KIND_RANDOM
    t.call(R.do_action, 0, S.ACT_EXTRA_ROAD, -1, 0)
    assert t.labour(0) == 0 and t.at(0, S.P_ROADS_BUILT) == 1 and t.at(0, S.P_BUILD_DONE) == 1
    t.check()


def test_two_free_roads_in_the_road_action_and_one_building_action_or_pass():
    """People Phase: the road-building action (up to two roads, free) and one of the seven building
    actions, in either order; ending the turn passes what is left."""
    t = Table(4)
    t.set_labour(0, 30)
    t.call(R.do_action, 0, S.ACT_ROADS, -1, 0)
    assert t.at(0, S.P_ROADS_BUILT) == 2 and t.labour(0) == 30
    options = t.turn_options(0)
    assert all(a != S.ACT_ROADS for a, _, _ in options)
    assert options[-1][0] == S.ACT_END
    t.call(R.do_action, 0, S.ACT_CONQUER, REGION["C03"], 0)
    assert [o[0] for o in t.turn_options(0)] == [S.ACT_END]
    t.check()


def test_buildings_need_conquered_land_and_the_network():
    """Miscellaneous: cities and garrisons only in conquered regions; sites in unconquered regions
    wait for the conquest."""
    t = Table(4)
    a, b = line_between("C00", "C01")
    connect(t, 0, b)
    t.set_labour(0, 20)
    builds = [(x, y) for x, y, _ in t.turn_options(0) if x in (S.ACT_CITY, S.ACT_GARRISON)]
    assert all(y != SITE[b] for _, y in builds)
    t.conquer(0, "C01")
    builds = [(x, y) for x, y, _ in t.turn_options(0) if x in (S.ACT_CITY, S.ACT_GARRISON)]
    assert any(y == SITE[b] for _, y in builds)


def test_the_scoring_track_puts_a_later_arrival_behind():
    """Scoring: a piece arriving on an occupied space goes outside; the innermost is ahead."""
    t = Table(4)
    R.add_vp(t.st, 2, 5, S.P_VP_CONQUEST)
    R.add_vp(t.st, 1, 5, S.P_VP_CONQUEST)
    assert R.ahead(t.st, 2, 1) and not R.ahead(t.st, 1, 2)
    assert R.place_of(t.st, 2) == 0 and R.place_of(t.st, 1) == 1
