"""The bots (issue 16): random-legal and four heuristic styles making every decision a player makes;
each heuristic beats three random bots in at least 90% of 4-player games."""
from __future__ import annotations

import re

import numpy as np
import pytest

from tahuantinsuyu_helpers import REGION, SITE, Table, connect, line
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.tahuantinsuyu import GAME
from sim.games.tahuantinsuyu import bots as B
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S

STYLES = ["conqueror", "builder", "road-network", "pilgrim"]


def _styles():
    tuned = [f"{style}-tuned" for style in STYLES if f"{style}-tuned" in GAME.bots()]
    return STYLES + tuned


@pytest.mark.parametrize("style", _styles())
def test_each_style_beats_three_random_bots_in_90_percent_of_4_player_games(style):
    names, idx = lineup_indices([style, "random", "random", "random"])
    seats = seat_bot_matrix(idx, 0, 200, True)
    res = GAME.simulate(GAME.resolve_params(None), 4, names, seats, 7, 0, 200, True)
    assert res.failures == []
    is_style = np.array([names[i] == style for i in seats.reshape(-1)])
    assert res.player_columns["won"][is_style].mean() >= 0.9


def test_the_default_line_up_is_four_heuristic_styles():
    lineup = GAME.default_bots(4)
    assert len(set(lineup)) == 4 and all(GAME.kind_name(bot) == "heuristic" for bot in lineup)
    assert {re.sub(r"-(tuned|g\d+)$", "", bot) for bot in lineup} == set(STYLES)  # tuned or a league generation


def _w(style="builder"):
    return GAME.bots()[style].weights.astype(np.float64)


def _pick(t, p, decision, n, style="builder"):
    w = _w(style).copy()
    w[S.W_NOISE] = 0.0
    return t.options(n)[B.choose(t.P, t.st, t.stream, S.KIND_HEURISTIC, w, p, decision, n)]


def test_the_heuristic_plays_a_harmful_card_between_rivals_and_a_helpful_one_beside_itself():
    """The Sun card decision values each (card, gap) by the card's benefit to the two players beside
    the gap: for itself, against a rival."""
    t = Table(4)
    hand = [S.SUN_NAMES.index("resistance"), S.SUN_NAMES.index("extra_roadcrew"), -1]
    for i, kind in enumerate(hand):
        t.set(0, S.P_HAND + i, kind)
    n = R.list_sun_plays(t.P, t.st, 0)
    kind, gap, _ = _pick(t, 0, S.DEC_SUN_CARD, n)
    if kind == S.SUN_NAMES.index("resistance"):
        assert gap in (1, 2)  # between two rivals
    else:
        assert gap in (0, 3)  # beside seat 0


def test_the_heuristic_conquers_the_richest_region_it_can_afford():
    t = Table(4)
    t.set_chip("C03", resistance=2, labour=2, vp=4)
    t.set_chip("C01", resistance=2, labour=0, vp=1)
    t.set_chip("C02", resistance=2, labour=0, vp=1)
    t.set(0, S.P_ROAD_DONE, 1)
    t.set_labour(0, 2)
    options = [o for o in t.turn_options(0)]
    n = R.list_turn(t.P, t.st, 0)
    act, target, _ = _pick(t, 0, S.DEC_TURN, n, "conqueror")
    assert (act, target) == (S.ACT_CONQUER, REGION["C03"]), options


def test_the_heuristic_builds_a_city_where_it_pays_most():
    t = Table(4)
    connect(t, 0, "C00b")
    t.set_labour(0, 6)
    t.set(0, S.P_ROAD_DONE, 1)
    n = R.list_turn(t.P, t.st, 0)
    act, target, _ = _pick(t, 0, S.DEC_TURN, n, "builder")
    assert (act, target) == (S.ACT_CITY, SITE["C00b"])


def test_every_decision_is_asked_in_whole_games():
    """Every decision kind comes up in games of the default line-up (the bots make them all)."""
    P = GAME.resolve_params(None).engine
    kinds, W = GAME.bot_arrays(GAME.default_bots(4))
    seen = set()
    for game in range(30):
        st, log = R.run_one(P, 4, kinds, W, np.uint64(5), np.uint64(game), False, True)
        events = set(int(e) for e in log[:st[S.S_LOG_N], 0])
        seen |= events
    for ev in (S.EV_SUN_PLAY, S.EV_ROAD, S.EV_BUILD, S.EV_CONQUER, S.EV_PILGRIM, S.EV_WILD, S.EV_OUTPOST):
        assert ev in seen, S.ERROR_NAMES[0] + f" event {ev} never seen"


def test_the_heuristic_prices_rural_unrest_s_risk_to_a_road_and_the_roads_a_conquest_makes_safe():
    """Rural Unrest: "During the Sun Phase, destroy all roads that run partly or entirely through an
    unconquered region." The heuristic's weight unrest_risk (bots.toml) is the share of a road's value
    lost when an end lies in unconquered land, and a conquest gains it for each of the player's roads
    it makes safe; with the weight at 1 a bot takes a safe road over one Rural Unrest could destroy."""
    t = Table(4)
    risky, safe = line("C00a", "C03a"), line("C00a", "C00b")
    assert B.unrest_risk(t.P, t.st, 0, risky) == 1.0 and B.unrest_risk(t.P, t.st, 0, safe) == 0.0
    w = GAME.bots()["builder-tuned"].weights.astype(np.float64).copy()
    assert w[S.W_UNREST_RISK] == 0.3
    assert B.at_risk(t.P, t.st, w, 0, risky, 2.0) == pytest.approx(1.4)
    assert B.at_risk(t.P, t.st, w, 0, safe, 2.0) == 2.0 and B.at_risk(t.P, t.st, w, 0, risky, -1.0) == -1.0
    t.road(0, "C00a", "C03a")  # now seat 0's road into unconquered C03: conquering C03 makes it safe
    r = REGION["C03"]
    assert B.roads_secured(t.P, t.st, 0, r) == 1 and B.roads_secured(t.P, t.st, 1, r) == 0
    w0 = w.copy()
    w0[S.W_UNREST_RISK] = 0.0
    assert (B.conquest_value(t.P, t.st, w, 0, r, 0, 0.0) - B.conquest_value(t.P, t.st, w0, 0, r, 0, 0.0)
            == pytest.approx(0.3))
    t.conquer(0, "C03")
    assert B.unrest_risk(t.P, t.st, 0, risky) == 0.0
    # the road decision: the only two lines, one safe and one at risk, worth the same but for the risk
    u = Table(4)
    u.conquer(0, "C03")
    connect(u, 0, "C03b")
    u.conquer(1, "C07")
    w1 = w.copy()
    w1[S.W_NOISE] = 0.0
    n = R.list_roads(u.P, u.st, 0, True)
    opts = u.options(n)
    picks = {}
    for weight in (0.0, 1.0):
        w1[S.W_UNREST_RISK] = weight
        values = [0.0 if a < 0 else B.at_risk(u.P, u.st, w1, 0, a, B.new_site_value(u.P, u.st, w1, 0, b, B.sapa_incas_left(u.P, u.st)))
                  for a, b, c in opts]
        picks[weight] = opts[B.choose_road(u.P, u.st, u.stream, w1, 0, n)]
        assert picks[weight] == opts[int(np.argmax(values))]
    assert any(B.unrest_risk(u.P, u.st, 0, a) > 0 for a, _, _ in opts if a >= 0)
    assert B.unrest_risk(u.P, u.st, 0, picks[1.0][0]) == 0.0


def test_rival_near_values_a_building_by_each_rival_one_road_from_its_site():
    """Building a Road: one road along a dashed line joins a network to the next point; Sapa Inca Phase:
    every player whose network connects to a city scores its 3 VP. The weight rival_near (bots.toml,
    0 in [defaults]) adds, to a building on a site a rival's network is one road from, its Sapa Inca VP
    times the phases left for each such rival; a rival already joined to it is not counted again."""
    t = Table(4)
    connect(t, 0, "C00b")
    connect(t, 3, "C01a")  # one dashed line, C01a-C00b, from the city site
    assert t.reaches(0, "C00b") and not t.reaches(3, "C00b") and t.reaches(3, "C01a")
    s = SITE["C00b"]
    assert B.rivals_near(t.P, t.st, 0, s) == 1 and B.rivals_near(t.P, t.st, 3, s) == 0
    w = GAME.bots()["builder-tuned"].weights.astype(np.float64).copy()
    assert w[S.W_RIVAL_NEAR] == 0.0
    t.set(0, S.P_ROAD_DONE, 1)
    t.set_labour(0, 6)
    n = R.list_turn(t.P, t.st, 0)
    city = [i for i, (a, b, _) in enumerate(t.options(n)) if (a, b) == (S.ACT_CITY, s)][0]
    before = B.turn_value(t.P, t.st, w, 0, city, B.turn_terms(t.P, t.st, w, 0))
    w[S.W_RIVAL_NEAR] = 0.4
    after = B.turn_value(t.P, t.st, w, 0, city, B.turn_terms(t.P, t.st, w, 0))
    left = B.sapa_incas_left(t.P, t.st)
    assert left > 0 and after - before == pytest.approx(0.4 * left * t.P[S.R_CITY_SI])
    t.road(3, "C01a", "C00b")  # joined now: the rival's share is rival_share's, not rival_near's
    assert B.rivals_near(t.P, t.st, 0, s) == 0


def test_territory_fade_takes_a_share_of_a_conquest_s_territory_each_round_played():
    """How Do I Win?: the game ends after the Sapa Inca Phase that follows Pizarro's arrival, so land
    conquered late carries fewer roads and buildings to score. With territory_fade f (bots.toml, 0 in
    [defaults]) a conquest's territory weight is worth 1 - f * round / (last round): all of it in the
    first round, 1 - f in the last."""
    t = Table(4)
    r = REGION["C03"]
    w = GAME.bots()["conqueror-tuned"].weights.astype(np.float64).copy()
    assert w[S.W_TERRITORY_FADE] == 0.0 and w[S.W_TERRITORY] > 0
    faded = w.copy()
    faded[S.W_TERRITORY_FADE] = 0.5
    last = t.P[S.H_N_ROUNDS] - 1
    for rnd, share in ((0, 0.0), (last // 2, 0.5 * (last // 2) / last), (last, 0.5)):
        t.st[S.S_ROUND] = rnd
        loss = B.conquest_value(t.P, t.st, w, 0, r, 0, 0.0) - B.conquest_value(t.P, t.st, faded, 0, r, 0, 0.0)
        assert loss == pytest.approx(share * w[S.W_TERRITORY])


def _temple_joined(t, p, site):
    """Seat p's network joins a temple on the site (its region conquered by p, a city and temple built)."""
    from tahuantinsuyu_helpers import PARAMS
    region = PARAMS.resolved["site"][site]["region"]
    if t.owner(region) != p and not PARAMS.resolved["region"][region]["start"]:
        t.conquer(p, region)
    connect(t, p, site)
    t.st[S.S_BUILDING + SITE[site]] |= S.B_CITY | S.B_TEMPLE


def test_pilgrim_ready_values_a_pilgrimage_card_by_its_vp_beside_a_player_who_could_go_now():
    """Local Pilgrimage: "If your road network connects to a temple in Machu Picchu or Huanuco Pampa,
    you may go on a pilgrimage ... worth 5 VP"; Sun Phase: a card affects the players beside it. With
    pilgrim_ready (bots.toml, 0 in [defaults]) a pilgrimage card in a gap gains the weight times its VP
    for each player beside it whose network joins a temple of its cities: for the seat (times
    sun_self), against a rival (times sun_rival)."""
    t = Table(4)
    _temple_joined(t, 0, "machu_picchu")
    local = S.SUN_NAMES.index("local_pilgrimage")
    w = GAME.bots()["pilgrim-tuned"].weights.astype(np.float64).copy()
    assert w[S.W_PILGRIM_READY] == 0.0 and B.pilgrim_grounds(t.P, t.st, w) == 0
    ready = w.copy()
    ready[S.W_PILGRIM_READY] = 0.5
    grounds = B.pilgrim_grounds(t.P, t.st, ready)
    assert grounds == 1 << S.PG_LOCAL  # seat 0, the Local group; no other seat
    gain = {g: B.sun_value(t.P, t.st, ready, 0, local, g, 0, grounds) - B.sun_value(t.P, t.st, w, 0, local, g, 0, 0)
            for g in range(4)}
    assert gain[0] == pytest.approx(0.5 * 5 * w[S.W_SUN_SELF]) and gain[3] == pytest.approx(gain[0])
    assert gain[1] == 0.0 and gain[2] == 0.0  # gaps not beside seat 0
    # seen from seat 1, seat 0 is a rival beside gap 0 or 3: the card there loses value
    rival = B.sun_value(t.P, t.st, ready, 1, local, 0, 0, grounds) - B.sun_value(t.P, t.st, w, 1, local, 0, 0, 0)
    assert rival == pytest.approx(-0.5 * 5 * w[S.W_SUN_RIVAL])
    great = S.SUN_NAMES.index("great_pilgrimage")  # no temple of its cities joined: unchanged
    assert B.sun_value(t.P, t.st, ready, 0, great, 0, 0, grounds) == B.sun_value(t.P, t.st, w, 0, great, 0, 0, 0)
