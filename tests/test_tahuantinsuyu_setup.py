"""Component data and setup (rulebook: Contents, Setup; issue 16's printed and reconstructed numbers),
and the readings of the rulebook's open points that the other files do not already test."""
from __future__ import annotations

import pytest

from tahuantinsuyu_helpers import PARAMS, REGION, Table, line
from sim.core.errors import UserError
from sim.games.tahuantinsuyu import GAME, data
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S


def test_the_printed_component_counts():
    p = PARAMS.resolved
    assert len(data.names(p, "chip")) == 45
    assert p["supply"]["labour"] == 70
    assert all(p["supply"][f"{t}s"] == 20 for t in S.TILE_NAMES)
    regions = p["region"]
    starts = [r for r in data.region_names(p) if regions[r]["start"]]
    others = [r for r in data.region_names(p) if not regions[r]["start"]]
    assert len(starts) == 4 and len(others) == 45  # one RI chip each (Setup; NOTES.md: not Inca Empire's 42)
    assert sum(regions[r]["players"] <= 3 for r in starts) == 3
    assert sum(regions[r]["players"] <= 3 for r in others) == 39  # the overlay's count, reconstructed
    b = p["buildings"]
    assert (b["city_cost"], b["city_vp"], b["city_sapa_inca_vp"]) == (6, 4, 3)
    assert (b["temple_cost"], b["temple_vp"], b["temple_sapa_inca_vp"]) == (5, 4, 1)
    assert (b["garrison_cost"], b["garrison_vp"], b["garrison_sapa_inca_vp"]) == (4, 3, 2)
    assert (b["terrace_cost"], b["terrace_vp"], b["terrace_sapa_inca_vp"], b["extra_road_cost"]) == (2, 1, 1, 1)


def test_the_six_significant_cities_of_the_pilgrimage_cards_are_on_the_map():
    sites = PARAMS.resolved["site"]
    groups = {s: sites[s]["pilgrimage"] for s in data.significant_sites(PARAMS.resolved)}
    assert groups == {"pucara_de_andalgala": "great", "ranchillos": "great", "chiquitoy_viejo": "annual",
                      "pachacamac": "annual", "machu_picchu": "local", "huanuco_pampa": "local"}
    assert all(sites[s]["temple_bonus"] > 0 for s in groups)


def test_setup_one_chip_on_each_of_the_45_regions_none_in_the_box():
    """Setup: "Place the RI chips face down in the regions, one marker per region, but not in the
    gray starting regions." With 4 players every one of the 45 chips (Contents) lies on a region,
    one on each region but the grey starting regions, none left in the box."""
    t = Table(4)
    n_regions = int(t.st[S.S_N_REGIONS])
    start = [bool(S.region_field(t.P, r, S.RG_START)) for r in range(n_regions)]
    chips = [int(t.st[S.S_CHIP + r]) for r in range(n_regions)]
    assert all(c == -1 for c, s in zip(chips, start) if s)
    on_map = [c for c, s in zip(chips, start) if not s]
    assert len(on_map) == 45 and sorted(on_map) == list(range(45))
    assert t.st[S.S_BOX_CHIPS] == 0
    assert all(t.st[S.S_OWNER + r] != -2 for r in range(n_regions))
    assert sum(t.at(p, S.P_HAND + i) >= 0 for p in range(4) for i in range(S.HAND)) == 3 * 4
    assert sorted(t.at(p, S.P_CARD) for p in range(4)) == [1, 2, 3, 4]
    t.check()


def test_setup_with_three_players_the_overlay_leaves_its_regions_chips_in_the_box():
    """Setup: "If playing with three players, lay the three-player map overlay onto the board so
    that it covers Cuzco and the surrounding regions." The overlay hides Cuntisuyu's starting region
    and its six inner regions (reconstructed): 3 + 39 regions, one chip each, six in the box."""
    t = Table(3)
    n_regions = int(t.st[S.S_N_REGIONS])
    on_map = sum(1 for r in range(n_regions) if t.st[S.S_CHIP + r] >= 0)
    assert on_map == 39 and t.st[S.S_BOX_CHIPS] == 45 - 39
    assert sum(1 for r in range(n_regions) if t.st[S.S_OWNER + r] == -2) == 7
    assert sum(t.at(p, S.P_HAND + i) >= 0 for p in range(3) for i in range(S.HAND)) == 3 * 3
    assert sorted(t.at(p, S.P_CARD) for p in range(3)) == [1, 2, 3]
    t.check()


def test_bad_variants_name_their_key():
    with pytest.raises(UserError, match="track.resources"):
        GAME.resolve_params({"track": {"resources": [1, 2]}})
    with pytest.raises(UserError, match="map.roads"):
        GAME.resolve_params({"map": {"roads": [["cuzco", "nowhere"]]}})
    with pytest.raises(UserError, match="track.invasion_tiles"):
        GAME.resolve_params({"track": {"invasion_tiles": 3}})


def test_terrace_labour_at_the_sapa_inca_reading():
    """Ambiguity 3, the other reading: the terrace's labour comes at the Sapa Inca phase (after the
    excess is returned), not with the Inca phase's income."""
    t = Table(4, variant={"rules": {"terrace_labour_at_sapa_inca": True}})
    t.conquer(0, "C03")
    R.build_terrace(t.P, t.st, t.log, 0, REGION["C03"])
    assert R.entitlement(t.P, t.st, 0, 1) == t.P[S.RESOURCES_AT + 1] + t.at(0, S.P_CHIP_LABOUR)
    t.set_labour(0, 0)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.labour(0) == 1 and t.at(0, S.P_LAB_TERRACES) == 1
    t.check()


def test_only_face_up_chips_can_be_conquered_unless_the_switch_allows_it():
    """Ambiguity 5: the resistance must be known to pay it."""
    t = Table(4)
    r = REGION["C03"]
    t.st[S.S_REVEALED + r] = 0
    assert not R.conquerable(t.P, t.st, 0, r, False)
    assert R.conquerable(t.P, t.st, 0, r, True)


def test_income_goes_to_the_last_player_first_when_the_supply_runs_short():
    """Ambiguity 16: an empty supply pays the players from the last place up."""
    t = Table(4)
    R.add_vp(t.st, 0, 5, S.P_VP_CONQUEST)
    R.add_vp(t.st, 1, 3, S.P_VP_CONQUEST)
    R.add_vp(t.st, 2, 1, S.P_VP_CONQUEST)
    t.set_labour(3, 70 - 10)  # 10 left in the supply
    t.st[S.S_ROUND] = 0
    R.inca_phase(t.P, t.st, t.log)
    assert t.labour(3) == 60 + 8 and t.labour(2) == 2 and t.labour(1) == 0 and t.labour(0) == 0
    assert t.at(0, S.P_LAB_SHORT) == 8
    t.check()


def test_a_transfer_gives_what_the_giver_has():
    t = Table(4)
    R.add_vp(t.st, 0, 9, S.P_VP_CONQUEST)
    t.st[S.S_LABOUR] += t.labour(0)
    t.set(0, S.P_LABOUR, 0)
    R.transfer(t.st, t.log, 0, 3, 2)
    assert t.labour(0) == 0 and t.labour(3) == 0 and t.st[S.S_TRANSFERS] == 0


def test_no_road_option_is_ever_cut():
    """Building a Road and Wilderness Road ("one road between two cities"): a turn's road options
    are at most the stop, every dashed line and every pair of city sites, and the engine holds them
    all, so no legal road goes unoffered; a map with more than that is refused by name."""
    p = PARAMS.resolved
    cities = sum(1 for s in data.names(p, "site") if p["site"][s]["kind"] in ("city", "significant_city"))
    assert cities == 33
    lines = len(p["map"]["roads"]) + len(p["map"]["royal_roads"])
    assert 1 + lines + cities * (cities - 1) // 2 <= S.MAX_OPTIONS
    every_site_a_city = {s: {"kind": "city"} for s in data.names(p, "site") if p["site"][s]["kind"] in ("garrison", "huaca")}
    with pytest.raises(UserError, match="road options"):
        GAME.resolve_params({"site": every_site_a_city})


def test_the_corridor_map_is_long_and_thin_with_no_outer_ring():
    """NOTES.md: reviews call the board "long and thin" along the coast, a "skinny corridor". The
    corridor table (variants/robust/tahuantinsuyu-map-corridor.toml) lays the same regions in rows
    from north to south, four wide at most, with no outer ring running round; its Wilderness Road pairs
    are the ones its drawing gives (geometry.corridor_map made it), no line joins two starting regions."""
    from pathlib import Path
    from sim.core.params import load_variant
    from sim.games.tahuantinsuyu import geometry as G
    _, v = load_variant(Path(__file__).resolve().parents[1] / "variants/robust/tahuantinsuyu-map-corridor.toml")
    p = GAME.resolve_params(v).resolved
    base = PARAMS.resolved
    borders = {frozenset(b) for b in p["map"]["borders"]}
    for wrap in (("C14", "A09"), ("A10", "Q10"), ("Q12", "K09"), ("C12", "K09")):
        assert frozenset(wrap) in {frozenset(b) for b in base["map"]["borders"]} and frozenset(wrap) not in borders
    ys = [xy[1] for r, xy in p["map"]["layout"].items() if r != "source"]
    xs = [xy[0] for r, xy in p["map"]["layout"].items() if r != "source"]
    assert max(ys) - min(ys) > 2.5 * (max(xs) - min(xs))  # long and thin
    assert [tuple(x) for x in p["map"]["wilderness_pairs"]] == G.wilderness_pairs(p)
    assert len(G.crossing_lines(p)) <= 1
    starts = {r for r in data.names(p, "region") if p["region"][r]["start"]}
    assert not [x for x in p["map"]["roads"] if {p["site"][x[0]]["region"], p["site"][x[1]]["region"]} <= starts
                and p["site"][x[0]]["region"] != p["site"][x[1]]["region"]]


def test_the_overlay_recut_reading_keeps_cuntisuyu_s_inner_regions_with_three_players():
    """Setup: "lay the three-player map overlay onto the board so that it covers Cuzco and the
    surrounding regions". Base: Cuntisuyu's starting region and K01-K06 go (3 + 39, six chips in the
    box). The re-cut reading (variants/robust/tahuantinsuyu-overlay-recut.toml): the overlay re-cuts the
    starting area into three, so only K00 goes and every chip lies on the map; 4 players unchanged."""
    from pathlib import Path
    from sim.core.params import load_variant
    _, v = load_variant(Path(__file__).resolve().parents[1] / "variants/robust/tahuantinsuyu-overlay-recut.toml")
    base3, recut3 = Table(3), Table(3, variant=v)
    assert base3.owner("K00") == -2 and recut3.owner("K00") == -2
    assert base3.owner("K03") == -2 and recut3.owner("K03") == -1
    assert base3.st[S.S_BOX_CHIPS] == 6 and recut3.st[S.S_BOX_CHIPS] == 0
    # K02 is joined to Chinchaysuyu's C01 and K01 to Collasuyu's Q03 by a dashed line, open with the re-cut
    assert recut3.st[S.S_ROAD_OWNER + line("C01a", "K02b")] == -1 and base3.st[S.S_ROAD_OWNER + line("C01a", "K02b")] == -2
    four = Table(4, variant=v)
    assert four.st[S.S_BOX_CHIPS] == Table(4).st[S.S_BOX_CHIPS] == 0
    assert (GAME.resolve_params(v).engine == PARAMS.engine).sum() == len(PARAMS.engine) - 6  # only the six regions' players
    recut3.check()
