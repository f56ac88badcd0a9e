"""Cuzco rulebook "Phase III: Resolve Cuzco Board" (1 status track, 2 priests, 3 market,
4 missions, 5 end of the round) and "End of the Game" (last missions, final scoring, winner)."""
import numpy as np
import pytest

from cuzco_helpers import (
    CARD, GAME, GOOD, GOODS, MISSION, PARAMS, assign_mission, bots, clear_holdings, deliver,
    free_spaces, give_card, give_feathers, give_good, give_tile, last_missions, log_events, put_priest, set_face_up,
    table,
)
from sim.games.cuzco import rounds as G
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

STATUS_VP = PARAMS.resolved["rules"]["status_track_vp"]


def order(st):
    return [int(st[S.S_ORDER + pos]) for pos in range(st[S.S_N_PLAYERS])]


def vp(st):
    return S.players(st)[:, S.P_VP].copy()


def vp_from(side, seat, source):
    return int(S.stats(side[0])[seat, S.STAT_VP + source])


# ------------------------------------------------------------------ 1) the status track

def test_status_track_printed_range():
    """Phase III 1: "between 0 and 15 points" - the track starts at 0 VP and ends at 15."""
    assert STATUS_VP[0] == 0 and STATUS_VP[-1] == 15 and max(STATUS_VP) == 15
    assert STATUS_VP == sorted(STATUS_VP)


def test_status_vp_and_new_player_order():
    """Phase III 1: each player gains the VP above their status marker; the new order is the
    furthest ahead first, and on a shared space the marker on top (the one that arrived later)
    goes first; all markers return to space 0, stacked in the new order, token 1 on top."""
    P, st, side = table(4, seed=3)
    a, b, c, d = order(st)
    R.advance_status(P, st, d, 5)
    R.advance_status(P, st, b, 3)
    R.advance_status(P, st, a, 2)
    R.advance_status(P, st, a, 3)   # a reaches space 5 after d: a is on top of d
    before = vp(st)
    R.score_status_and_reorder(P, st, *side)
    gained = vp(st) - before
    assert [gained[a], gained[b], gained[c], gained[d]] == [STATUS_VP[5], STATUS_VP[3], 0, STATUS_VP[5]]
    assert [gained[a], gained[b], gained[c], gained[d]] == [5, 3, 0, 5]
    assert order(st) == [a, d, b, c]
    pl = S.players(st)
    assert [pl[p, S.P_ORDER_POS] for p in (a, d, b, c)] == [0, 1, 2, 3]
    assert all(pl[p, S.P_STATUS] == 0 for p in range(4))
    seqs = [pl[p, S.P_STATUS_SEQ] for p in (a, d, b, c)]
    assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == 4
    assert vp_from(side, a, S.VP_STATUS) == 5
    assert R.check_components(P, st) == 0


def test_status_ties_on_space_zero_keep_the_stack():
    """Phase III 1: markers that never moved keep their order in the stack (the previous order);
    a single marker that moved goes first."""
    P, st, side = table(4, seed=8)
    a, b, c, d = order(st)
    R.advance_status(P, st, c, 1)
    R.score_status_and_reorder(P, st, *side)
    assert order(st) == [c, a, b, d]


def test_status_order_is_effective_for_the_next_stack():
    """Phase III 1: after re-stacking, the new stack decides the next tie - the new first player's
    marker is on top at space 0, and a later arrival on a shared space is on top of it."""
    P, st, side = table(3, seed=2)
    a, b, c = order(st)
    R.advance_status(P, st, c, 2)
    R.score_status_and_reorder(P, st, *side)
    assert order(st) == [c, a, b]
    R.advance_status(P, st, b, 4)
    R.advance_status(P, st, a, 4)   # a arrives on 4 after b
    R.score_status_and_reorder(P, st, *side)
    assert order(st) == [a, b, c]


def test_status_marker_stops_at_15():
    """Phase III 1: a player gains between 0 and 15 points - a marker pushed past the end scores
    15."""
    P, st, side = table(2, seed=1)
    p = order(st)[1]
    R.advance_status(P, st, p, 40)
    before = vp(st)
    R.score_status_and_reorder(P, st, *side)
    assert (vp(st) - before)[p] == 15
    assert order(st)[0] == p


# ------------------------------------------------------------------ 2) the priests

@pytest.mark.parametrize("rnd,per_priest", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_priest_vp_by_round_and_medal_to_most(rnd, per_priest):
    """Phase III 2: 1 VP per priest in rounds 1-2, 2 in rounds 3-4, 3 in rounds 5-6; the player
    with the most priests takes 1 Inti medal from the temple."""
    P, st, side = table(4, seed=4)
    a, b, c, d = order(st)
    st[S.S_ROUND] = rnd
    put_priest(st, b, 1)
    put_priest(st, b, 2)
    put_priest(st, b, 3)
    put_priest(st, c, 6)
    before = vp(st)
    R.score_priests(P, st, *side)
    gained = vp(st) - before
    assert list(gained[[a, b, c, d]]) == [0, 3 * per_priest, per_priest, 0]
    assert S.players(st)[b, S.P_MEDALS] == 2 and S.players(st)[c, S.P_MEDALS] == 1
    assert st[S.S_TEMPLE_MEDALS] == 5
    assert S.stats(side[0])[b, S.STAT_MEDALS_GAINED] == 1
    assert R.check_components(P, st) == 0


@pytest.mark.parametrize("steps_a,steps_b,winner", [
    ((1, 5), (2, 6), "b"),     # b's priest on step 6 is highest
    ((6, 1), (5, 4), "a"),     # a's priest on step 6 is highest
    ((3, 4), (1, 2), "a"),
])
def test_priest_medal_tie_to_highest_priest(steps_a, steps_b, winner):
    """Phase III 2: "If several players are tied for the most priests, the tied player whose
    priest is highest on the steps receives the medal." """
    P, st, side = table(3, seed=5)
    a, b, c = order(st)
    for s in steps_a:
        put_priest(st, a, s)
    for s in steps_b:
        put_priest(st, b, s)
    R.score_priests(P, st, *side)
    who = a if winner == "a" else b
    other = b if winner == "a" else a
    assert S.players(st)[who, S.P_MEDALS] == 2 and S.players(st)[other, S.P_MEDALS] == 1
    assert st[S.S_TEMPLE_MEDALS] == 5


def test_no_priest_removes_a_medal():
    """Phase III 2: "If there is no priest on the temple steps at this time, take 1 Inti medal
    from the stack and remove it from the game." """
    P, st, side = table(4, seed=6)
    before = vp(st)
    R.score_priests(P, st, *side)
    assert st[S.S_TEMPLE_MEDALS] == 5
    assert list(S.players(st)[:4, S.P_MEDALS]) == [1, 1, 1, 1]
    assert np.array_equal(vp(st), before)
    ev = log_events(st, side, R.EV_MEDAL)
    assert len(ev) == 1 and ev[0, 1] == -1


def test_empty_medal_stack_gives_nothing_but_vp():
    """Phase III 2: with the temple stack empty nobody receives a medal; the priests still score."""
    P, st, side = table(2, seed=6)
    a, b = order(st)
    st[S.S_TEMPLE_MEDALS] = 0
    put_priest(st, a, 2)
    before = vp(st)
    R.score_priests(P, st, *side)
    assert (vp(st) - before)[a] == 1
    assert S.players(st)[a, S.P_MEDALS] == 1 and st[S.S_TEMPLE_MEDALS] == 0


# ------------------------------------------------------------------ 3) the market

def put_on_market(st, rnd, index, good_name):
    """Swap a good of this type into cell `index` of row `rnd` (the market keeps its goods)."""
    board = st
    cell = S.S_MARKET + rnd * 5 + index
    t = GOOD[good_name]
    if board[cell] == t:
        return
    for i in range(30):
        if board[S.S_MARKET + i] == t and S.S_MARKET + i != cell:
            board[S.S_MARKET + i], board[cell] = board[cell], board[S.S_MARKET + i]
            return
    raise LookupError(good_name)


def test_ulrich_buys_soup_for_one_food():
    """Phase III 3 example: Ulrich chooses the soup and spends 1 food tile, gaining 1 VP; the good
    goes onto his mask board and the food back to the common supply."""
    P, st, side = table(4, seed=9)
    ulrich = order(st)[0]
    put_on_market(st, 0, 2, "soup")
    R.gain_food(st, ulrich, 1)
    assert st[S.S_FOOD_SUPPLY] == 35
    before = vp(st)
    assert R.buy_good(P, st, *side, ulrich, 2, R.SRC_NONE)
    assert (vp(st) - before)[ulrich] == 1
    assert S.players(st)[ulrich, S.P_FOOD] == 0 and st[S.S_FOOD_SUPPLY] == 36
    assert S.players(st)[ulrich, S.P_GOODS + GOOD["soup"]] == 1 and S.players(st)[ulrich, S.P_GOODS_BOUGHT] == 1
    assert st[S.S_MARKET + 2] == -1
    assert R.check_components(P, st) == 0


@pytest.mark.parametrize("good", list(GOOD))
def test_cannot_buy_without_enough_food(good):
    """Phase III 3: goods are paid with the food shown on the tile; a player without enough food
    cannot buy (and is skipped). With exactly enough, the food goes back to the supply."""
    P, st, side = table(4, seed=10)
    p = order(st)[1]
    price = int(GOODS[GOOD[good], S.GF_FOOD])
    put_on_market(st, 0, 0, good)
    R.gain_food(st, p, price - 1)
    before = vp(st)
    assert not R.buy_good(P, st, *side, p, 0, R.SRC_NONE)
    assert st[S.S_MARKET] == GOOD[good]
    assert S.players(st)[p, S.P_FOOD] == price - 1 and np.array_equal(vp(st), before)
    R.gain_food(st, p, 1)
    assert R.buy_good(P, st, *side, p, 0, R.SRC_NONE)
    assert S.players(st)[p, S.P_FOOD] == 0 and st[S.S_FOOD_SUPPLY] == 36
    assert (vp(st) - before)[p] == GOODS[GOOD[good], S.GF_VP]
    assert R.check_components(P, st) == 0


def test_buy_from_the_row_of_the_current_round():
    """Phase III 3: each player may buy 1 good from the market row corresponding to the current
    round."""
    P, st, side = table(4, seed=11)
    p = order(st)[0]
    st[S.S_ROUND] = 2
    put_on_market(st, 2, 1, "soup")
    rows = st[S.S_MARKET:S.S_MARKET + 30].copy()
    R.gain_food(st, p, 1)
    assert R.buy_good(P, st, *side, p, 1, R.SRC_NONE)
    after = st[S.S_MARKET:S.S_MARKET + 30]
    changed = np.flatnonzero(after != rows)
    assert list(changed) == [2 * 5 + 1]


def test_iliapa_03_jewelry_18_vp():
    """God card 03 example: buying the jewelry with the card gains 9 + 9 = 18 VP (1 offering
    spent, the card to the discard pile)."""
    P, st, side = table(4, seed=12)
    p = order(st)[0]
    clear_holdings(st, p)
    R.gain_offerings(st, p, 1)
    give_card(st, p, "double_good")
    put_on_market(st, 0, 0, "jewelry")
    R.gain_food(st, p, int(GOODS[GOOD["jewelry"], S.GF_FOOD]))
    before = vp(st)
    discard = st[S.S_GOD_DISCARD_N]
    assert R.buy_good(P, st, *side, p, 0, R.SRC_CARD)
    assert (vp(st) - before)[p] == 18
    assert S.players(st)[p, S.P_OFFERINGS] == 0 and S.players(st)[p, S.P_HAND + S.C_DOUBLE_GOOD] == 0
    assert st[S.S_GOD_DISCARD_N] == discard + 1
    assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ 4) the missions

def test_completed_mission_six_vp_face_down():
    """Phase III 4: a completed mission gives 6 VP and stays face down on the mask board (counted
    as completed); its space is empty for the new tile."""
    P, st, side = table(4, seed=13)
    p = order(st)[0]
    clear_holdings(st, p)
    assign_mission(st, p, 1, "m41")
    R.gain_offerings(st, p, 4)
    m = MISSION["m41"]
    assert R.mission_shortfall(P, st, p, m) == 0
    box = st[S.S_BOX_MISSIONS]
    before = vp(st)
    R.settle_mission(P, st, *side, p, 1, 1, R.SRC_NONE)
    assert (vp(st) - before)[p] == 6
    assert S.players(st)[p, S.P_MISSIONS_DONE] == 1 and S.players(st)[p, S.P_MISSION + 1] == -1
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + m] == 1
    assert st[S.S_BOX_MISSIONS] == box


def test_requirement_is_a_minimum_and_nothing_is_spent():
    """Phase III 4: the tile shows a minimum - more is fine - and "in order to complete a mission
    tile you never spend something": 7 offerings prove mission 41 (4 offerings) and all 7 stay."""
    P, st, side = table(4, seed=14)
    p = order(st)[2]
    clear_holdings(st, p)
    assign_mission(st, p, 0, "m41")
    R.gain_offerings(st, p, 7)
    assign_mission(st, p, 2, "m24")
    give_good(st, p, "soup")
    give_good(st, p, "soup")
    give_good(st, p, "soup")
    assert R.mission_shortfall(P, st, p, MISSION["m41"]) == 0
    snapshot = st.copy()
    R.settle_mission(P, st, *side, p, 0, 1, R.SRC_NONE)
    assert S.players(st)[p, S.P_OFFERINGS] == 7 and st[S.S_OFFERING_SUPPLY] == snapshot[S.S_OFFERING_SUPPLY]
    R.settle_mission(P, st, *side, p, 2, 1, R.SRC_NONE)
    assert S.players(st)[p, S.P_GOODS + GOOD["soup"]] == 3
    changed = np.flatnonzero(S.players(st)[p] != S.players(snapshot)[p])
    assert set(changed) == {S.P_VP, S.P_MISSIONS_DONE, S.P_MISSION, S.P_MISSION + 2}
    assert S.players(st)[p, S.P_VP] == S.players(snapshot)[p, S.P_VP] + 12


def test_failed_mission_goes_to_the_box():
    """Phase III 4: a player who cannot complete a mission returns 1 tile of their choice to the
    game box and gains no VP."""
    P, st, side = table(4, seed=15)
    p = order(st)[1]
    m = int(S.players(st)[p, S.P_MISSION + 2])
    box = st[S.S_BOX_MISSIONS]
    before = vp(st)
    R.settle_mission(P, st, *side, p, 2, 0, R.SRC_NONE)
    assert np.array_equal(vp(st), before)
    assert st[S.S_BOX_MISSIONS] == box + 1
    assert S.players(st)[p, S.P_MISSION + 2] == -1 and S.players(st)[p, S.P_MISSIONS_DONE] == 0
    assert S.stats(side[0])[p, S.STAT_MISSION_FAILED + m] == 1


def test_new_mission_from_palace_not_refilled():
    """Phase III 4: after completing or not, the player chooses 1 new tile from the palace and
    puts it on the empty space; the palace is not replenished, so later players choose from
    fewer."""
    P, st, side = table(4, seed=16)
    g, pl, board = st, S.players(st), st
    first, second = order(st)[:2]
    palace = [int(board[S.S_PALACE + i]) for i in range(6)]
    pile = int(g[S.S_MISSION_N])
    R.settle_mission(P, st, *side, first, 0, 0, R.SRC_NONE)
    R.take_palace_mission(st, *side, first, 3)
    assert pl[first, S.P_MISSION + 0] == palace[3]
    R.settle_mission(P, st, *side, second, 1, 0, R.SRC_NONE)
    R.take_palace_mission(st, *side, second, 0)
    assert pl[second, S.P_MISSION + 1] == palace[0]
    now = [int(board[S.S_PALACE + i]) for i in range(6)]
    assert now == [-1, palace[1], palace[2], -1, palace[4], palace[5]]
    assert g[S.S_MISSION_N] == pile
    assert len(log_events(st, side, R.EV_NEW_MISSION)) == 2


def phase_three(P, st, side):
    """Phase III of the current round alone (rounds.play_from from phase III, stopping after it)."""
    n = int(st[S.S_N_PLAYERS])
    kinds, W = bots(GAME.default_bots(n))
    look, lside = S.new_state(n, False), S.new_side(n, False)
    G.play_from(P, st, *side, look, *lside, kinds, W, True, 0, G.PHASE_III, int(st[S.S_ROUND]))


def test_sixth_round_takes_new_mission_and_skips_end_of_round():
    """Phase III 4 "You always take 1 new mission tile, even in the sixth round"; Phase III 5
    "In the sixth round, skip this phase": no refill of tiles or palace, the unsold goods of row
    6 stay. A player who can complete a mission must complete exactly one (6 VP); a player who
    cannot returns one to the box."""
    P, st, side = table(4, seed=17)
    g, pl, board = st, S.players(st), st
    g[S.S_ROUND] = 5
    a, b, c, d = order(st)
    for p in (a, b, c, d):
        clear_holdings(st, p)
        for slot, label in enumerate(("m07", "m29", "m39")):   # nobody can meet these
            assign_mission(st, p, slot, label)
    assign_mission(st, b, 1, "m41")
    R.gain_offerings(st, b, 4)
    palace = [int(board[S.S_PALACE + i]) for i in range(6)]
    study = board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6].copy()
    market = board[S.S_MARKET:S.S_MARKET + 30].copy()
    pile, box, box_goods = int(g[S.S_MISSION_N]), int(g[S.S_BOX_MISSIONS]), int(g[S.S_BOX_GOODS])
    before = vp(st)
    phase_three(P, st, side)
    assert g[S.S_ERROR] == 0
    gained = vp(st) - before
    assert list(gained[[a, b, c, d]]) == [0, 6, 0, 0]
    assert [pl[p, S.P_MISSIONS_DONE] for p in (a, b, c, d)] == [0, 1, 0, 0]
    assert g[S.S_BOX_MISSIONS] == box + 3
    for p in (a, b, c, d):
        assert all(pl[p, S.P_MISSION + i] >= 0 for i in range(3)), p
    now = [int(board[S.S_PALACE + i]) for i in range(6)]
    assert sum(m >= 0 for m in now) == 2 and set(m for m in now if m >= 0) < set(palace)
    assert g[S.S_MISSION_N] == pile
    assert np.array_equal(board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6], study)
    assert np.array_equal(board[S.S_MARKET:S.S_MARKET + 30], market)
    assert g[S.S_BOX_GOODS] == box_goods
    assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ 5) end of the round

def test_end_of_round():
    """Phase III 5: leftover study and farm tiles go to their discard piles and 6 new ones are
    laid out from the stacks; leftover palace missions go to the box and players + 2 new ones are
    laid out; unsold goods of the round go to the box; the dice come back."""
    P, st, side = table(4, seed=18)
    g, pl, board, decks = st, S.players(st), st, st
    p = order(st)[0]
    free_spaces(P, st, p, 3)
    assert R.take_display_tile(P, st, *side, p, S.STUDY, 0)
    assert R.take_display_tile(P, st, *side, p, S.STUDY, 3)
    assert R.take_display_tile(P, st, *side, p, S.FARM, 2)
    left_study = [int(board[S.S_STUDY_DISPLAY + i]) for i in (1, 2, 4, 5)]
    left_farm = [int(board[S.S_FARM_DISPLAY + i]) for i in (0, 1, 3, 4, 5)]
    next_study = [int(decks[S.S_STUDY_STACK + 29 - i]) for i in range(6)]
    next_farm = [int(decks[S.S_FARM_STACK + 29 - i]) for i in range(6)]
    R.settle_mission(P, st, *side, p, 0, 0, R.SRC_NONE)
    R.take_palace_mission(st, *side, p, 1)
    box_m = int(g[S.S_BOX_MISSIONS])
    pile = int(g[S.S_MISSION_N])
    next_missions = [int(decks[S.S_MISSION_PILE + pile - 1 - i]) for i in range(6)]
    put_on_market(st, 0, 0, "soup")
    R.gain_food(st, p, 1)
    assert R.buy_good(P, st, *side, p, 0, R.SRC_NONE)
    later_rows = board[S.S_MARKET + 5:S.S_MARKET + 30].copy()
    box_g = int(g[S.S_BOX_GOODS])
    R.put_die(st, 2, p, 4)
    R.end_of_round(P, st, *side)
    assert g[S.S_STUDY_DISCARD_N] == 4 and g[S.S_FARM_DISCARD_N] == 5
    assert sorted(decks[S.S_STUDY_DISCARD:S.S_STUDY_DISCARD + 4]) == sorted(left_study)
    assert sorted(decks[S.S_FARM_DISCARD:S.S_FARM_DISCARD + 5]) == sorted(left_farm)
    assert [int(board[S.S_STUDY_DISPLAY + i]) for i in range(6)] == next_study
    assert [int(board[S.S_FARM_DISPLAY + i]) for i in range(6)] == next_farm
    assert g[S.S_STUDY_N] == 24 and g[S.S_FARM_N] == 24
    assert g[S.S_BOX_MISSIONS] == box_m + 5
    assert [int(board[S.S_PALACE + i]) for i in range(6)] == next_missions
    assert g[S.S_MISSION_N] == pile - 6
    assert all(board[S.S_MARKET + i] == -1 for i in range(5))
    assert g[S.S_BOX_GOODS] == box_g + 4
    assert np.array_equal(board[S.S_MARKET + 5:S.S_MARKET + 30], later_rows)
    assert board[S.S_SPACE_N + 2] == 0 and board[S.S_SPACE_MIN + 2] == S.NO_DIE
    assert R.check_components(P, st) == 0


@pytest.mark.parametrize("n", [2, 3])
def test_end_of_round_small_game_palace(n):
    """Phase III 5: the palace is refilled with "always as many as player count plus 2"."""
    P, st, side = table(n, seed=19)
    R.end_of_round(P, st, *side)
    shown = [m for m in st[S.S_PALACE:S.S_PALACE + 10] if m >= 0]
    assert len(shown) == n + 2
    assert st[S.S_BOX_MISSIONS] == (6 - n) + (n + 2)
    assert st[S.S_BOX_GOODS] == 6 + 4


def test_phase_three_round_one_keeps_components():
    """Phase III 1-5 in round 1 with the bots: each player settles one mission and takes a new
    one, the palace is laid out again with players + 2, and no component is created or lost."""
    for seed in range(20, 26):
        P, st, side = table(4, seed=seed)
        phase_three(P, st, side)
        g, pl, board = st, S.players(st), st
        assert g[S.S_ERROR] == 0
        settled = sum(S.stats(side[0])[p, S.STAT_MISSION_DONE:S.STAT_MISSION_DONE + 61].sum()
                      + S.stats(side[0])[p, S.STAT_MISSION_FAILED:S.STAT_MISSION_FAILED + 61].sum() for p in range(4))
        assert settled == 4
        for p in range(4):
            assert all(pl[p, S.P_MISSION + i] >= 0 for i in range(3))
        assert sum(board[S.S_PALACE + i] >= 0 for i in range(10)) == 6
        assert g[S.S_TEMPLE_MEDALS] == 5   # nobody on the temple: one medal removed
        assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ End of the Game

def test_last_three_missions():
    """End of the Game: all players must now complete their 3 remaining missions (6 VP each);
    completed ones join the stack, uncompleted ones go back to the box."""
    P, st, side = table(4, seed=27)
    g, pl = st, S.players(st)
    p = order(st)[1]
    clear_holdings(st, p)
    for slot, label in enumerate(("s06", "m41", "m07")):
        assign_mission(st, p, slot, label)
    deliver(P, st, side, p, "I1")
    deliver(P, st, side, p, "O6")
    R.gain_offerings(st, p, 4)
    pl[p, S.P_MISSIONS_DONE] = 6
    box = int(g[S.S_BOX_MISSIONS])
    before = vp(st)
    last_missions(P, st, side)
    assert (vp(st) - before)[p] == 12
    assert pl[p, S.P_MISSIONS_DONE] == 8
    assert all(pl[p, S.P_MISSION + i] == -1 for i in range(3))
    assert S.stats(side[0])[p, S.STAT_MISSION_FAILED + MISSION["m07"]] == 1
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + MISSION["s06"]] == 1
    for q in range(4):
        assert all(pl[q, S.P_MISSION + i] == -1 for i in range(3))
    assert R.check_components(P, st) == 0
    assert g[S.S_BOX_MISSIONS] >= box + 1


def test_last_missions_mama_quilia_04():
    """God card 04: "You may also use these cards at the end of the game, with each card
    affecting a single mission tile" - 4 VP instead of 6 for a mission short of 1 requirement;
    a second such mission without another card fails."""
    P, st, side = table(4, seed=28)
    g, pl = st, S.players(st)
    p = order(st)[0]
    clear_holdings(st, p)
    for slot, label in enumerate(("m38", "s06", "m31")):
        assign_mission(st, p, slot, label)
    R.gain_food(st, p, 4)            # 38 needs 5 food: short of 1
    deliver(P, st, side, p, "I1")
    deliver(P, st, side, p, "I2")    # S-06 met
    for good in ("soup", "bowl", "tools"):
        give_good(st, p, good)       # 31 needs 4 goods: short of 1
    give_card(st, p, "mission_discount")
    R.gain_offerings(st, p, 1)
    box = int(g[S.S_BOX_MISSIONS])
    before = vp(st)
    last_missions(P, st, side)
    assert (vp(st) - before)[p] == 4 + 6
    assert pl[p, S.P_MISSIONS_DONE] == 2
    assert pl[p, S.P_HAND + S.C_MISSION_DISCOUNT] == 0 and pl[p, S.P_OFFERINGS] == 0
    assert S.stats(side[0])[p, S.STAT_MISSION_FAILED + MISSION["m31"]] == 1
    assert R.check_components(P, st) == 0


def cleared_end_table(n=4, seed=30):
    """A table at the end of the game where nobody holds medals (so final scoring adds nothing
    unless a test gives something)."""
    P, st, side = table(n, seed=seed)
    for p in range(n):
        clear_holdings(st, p)
    return P, st, side


def test_final_medals_two_vp_each_and_leftovers_worthless():
    """End of the Game: 2 VP for each unused Inti medal (2 medals = 4 VP); remaining food,
    offerings and god cards award no VP."""
    P, st, side = cleared_end_table()
    a, b, c, d = order(st)
    S.players(st)[a, S.P_MEDALS] = 2
    S.players(st)[c, S.P_MEDALS] = 1
    R.gain_food(st, d, 5)
    R.gain_offerings(st, d, 4)
    give_card(st, d, "jump")
    give_card(st, d, "extra_turn")
    before = vp(st)
    R.final_scoring(P, st, *side)
    assert list((vp(st) - before)[[a, b, c, d]]) == [4, 0, 2, 0]
    assert vp_from(side, a, S.VP_MEDALS) == 4
    assert R.check_components(P, st) == 0


def test_final_top_quipu_scores_the_village():
    """End of the Game example "8 VP for red": the owner of the top quipu in each village gains
    its printed VP - red's quipu on top in the village worth 8; quipus below score nothing."""
    P, st, side = cleared_end_table()
    red, blue, _, _ = order(st)
    deliver(P, st, side, blue, "O6")   # village worth 8
    deliver(P, st, side, red, "O6")    # red on top
    deliver(P, st, side, red, "O5")    # worth 7
    deliver(P, st, side, blue, "O5")   # blue on top
    deliver(P, st, side, blue, "I1")   # worth 1, alone
    before = vp(st)
    R.final_scoring(P, st, *side)
    assert vp_from(side, red, S.VP_VILLAGES) == 8
    assert vp_from(side, blue, S.VP_VILLAGES) == 7 + 1
    assert (vp(st) - before)[red] == 8 and (vp(st) - before)[blue] == 8
    assert R.check_components(P, st) == 0


def full_feathers(P, st, side, p, full):
    for colour in S.COLOUR_NAMES:
        give_feathers(P, st, side, p, colour, 3 if full or colour != "pink" else 2)


def full_circlets(P, st, side, p, full):
    S.players(st)[p, S.P_CIRCLET:S.P_CIRCLET + (6 if full else 5)] = 1


def full_missions(P, st, side, p, full):
    S.players(st)[p, S.P_MISSIONS_DONE] = 9 if full else 8


def full_quipus(P, st, side, p, full):
    for v in range(10 if full else 9):
        deliver(P, st, side, p, v)


def full_people(P, st, side, p, full):
    free_spaces(P, st, p, 12)
    for i in range(12 if full else 11):
        give_tile(P, st, side, p, i % 2, i)


def full_goods(P, st, side, p, full):
    for good in ("soup", "soup", "clothes", "bowl", "tools", "jewelry")[: 6 if full else 5]:
        give_good(st, p, good)


@pytest.mark.parametrize("build,vp_award", [
    (full_feathers, 6), (full_circlets, 9), (full_missions, 9),
    (full_quipus, 10), (full_people, 12), (full_goods, 6),
], ids=["12_feathers", "6_circlets", "9_missions", "10_quipus", "12_people_tiles", "6_goods"])
@pytest.mark.parametrize("full", [True, False], ids=["full", "one_short"])
def test_final_achievements(build, vp_award, full):
    """End of the Game achievements: 6 VP for 12 feathers, 9 for all 6 circlets, 9 for 9
    completed missions, 10 for all 10 quipus delivered, 12 for 12 people tiles, 6 for 6 goods -
    "No points are awarded for partially meeting an achievement" (one short = 0)."""
    P, st, side = cleared_end_table()
    p = order(st)[2]
    build(P, st, side, p, full)
    R.final_scoring(P, st, *side)
    assert vp_from(side, p, S.VP_ACHIEVEMENTS) == (vp_award if full else 0)
    for q in range(4):
        if q != p:
            assert vp_from(side, q, S.VP_ACHIEVEMENTS) == 0
    assert R.check_components(P, st) == 0


def test_all_achievements_add_up():
    """End of the Game: the six achievements together are worth 6 + 9 + 9 + 10 + 12 + 6 = 52."""
    P, st, side = cleared_end_table()
    p = order(st)[0]
    for build in (full_feathers, full_circlets, full_missions, full_goods):
        build(P, st, side, p, True)
    for v in range(10):
        deliver(P, st, side, p, v)
    # all 10 quipus delivered: the 12 mask spaces are free for people tiles
    for i in range(12):
        give_tile(P, st, side, p, i % 2, i)
    R.final_scoring(P, st, *side)
    assert vp_from(side, p, S.VP_ACHIEVEMENTS) == 52


@pytest.mark.parametrize("scores,ranks", [
    ((40, 55, 55, 50), (4, 1, 2, 3)),   # tie for most: the one further ahead in order wins
    ((60, 60, 60, 60), (1, 2, 3, 4)),
    ((10, 20, 30, 40), (4, 3, 2, 1)),
    ((30, 20, 30, 40), (2, 4, 3, 1)),
])
def test_winner_and_tie_break(scores, ranks):
    """End of the Game: most VP wins; "In case of a tie for most points, the tied player who is
    further ahead in player order is the winner." scores/ranks are listed by order position."""
    P, st, side = cleared_end_table()
    seats = order(st)
    for pos, p in enumerate(seats):
        S.players(st)[p, S.P_VP] = scores[pos]
    R.final_scoring(P, st, *side)
    got = tuple(int(S.stats(side[0])[p, S.STAT_RANK]) for p in seats)
    assert got == ranks
    winner = seats[ranks.index(1)]
    assert [int(S.stats(side[0])[p, S.STAT_WON]) for p in seats] == [1 if p == winner else 0 for p in seats]
    assert st[S.S_WINNER] == winner
    assert [int(S.stats(side[0])[p, S.STAT_FINAL_ORDER]) for p in seats] == [0, 1, 2, 3]


def test_two_player_tie():
    """End of the Game tie-break with 2 players: equal VP, token 1 wins."""
    P, st, side = cleared_end_table(n=2, seed=31)
    first, second = order(st)
    S.players(st)[first, S.P_VP] = 33
    S.players(st)[second, S.P_VP] = 33
    R.final_scoring(P, st, *side)
    assert S.stats(side[0])[first, S.STAT_WON] == 1 and S.stats(side[0])[second, S.STAT_WON] == 0
    assert S.stats(side[0])[first, S.STAT_RANK] == 1 and S.stats(side[0])[second, S.STAT_RANK] == 2


def mama_quilia_end_table():
    """The first player at the end of the game with M-38 (5 food; 4 held: one short) in the first
    slot, M-33 (2 Mama Quilia cards in hand) and S-06, and a Mama Quilia 04 in hand."""
    P, st, side = table(4, seed=28)
    p = order(st)[0]
    clear_holdings(st, p)
    for slot, label in enumerate(("m38", "m33", "s06")):
        assign_mission(st, p, slot, label)
    R.gain_food(st, p, 4)
    give_card(st, p, "mission_discount")
    return P, st, side, p


def test_last_missions_met_ones_complete_before_mama_quilia_04():
    """End of the Game and card 04: a mission already met is completed before 04 is paid, so the
    payment cannot break it. M-33 (2 Mama Quilia cards in hand) is met by 04 and 05 in hand; M-38
    (5 food, 4 held), in the first slot, is one short. Paying 04 first would leave one Mama Quilia
    card and fail M-33; both are completed: 6 + 4 VP."""
    P, st, side, p = mama_quilia_end_table()
    give_card(st, p, "extra_turn")
    R.gain_offerings(st, p, 1)
    assert R.mission_shortfall(P, st, p, MISSION["m38"]) == 1
    assert R.mission_shortfall(P, st, p, MISSION["m33"]) == 0
    before = vp(st)
    last_missions(P, st, side)
    assert (vp(st) - before)[p] == 6 + 4
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + MISSION["m33"]] == 1
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + MISSION["m38"]] == 1
    assert R.check_components(P, st) == 0


def test_last_missions_04_payment_does_not_break_another_mission():
    """End of the Game, card 04 paid from a hand copy or, with an Inti medal, from the face-up
    card: M-38 (5 food, 4 held) and M-33 (2 Mama Quilia cards, one in hand) are each one short.
    Paying M-38 with the hand copy would break M-33 (two short then); paying M-38 with the medal
    and M-33 with the hand copy completes both (8 VP, the medal's 2 end VP given up)."""
    P, st, side, p = mama_quilia_end_table()
    pl = S.players(st)
    set_face_up(st, "mission_discount")
    R.gain_offerings(st, p, 1)
    pl[p, S.P_MEDALS] = 1
    before = vp(st)
    last_missions(P, st, side)
    assert (vp(st) - before)[p] == 4 + 4
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + MISSION["m33"]] == 1
    assert S.stats(side[0])[p, S.STAT_MISSION_DONE + MISSION["m38"]] == 1
    assert pl[p, S.P_MEDALS] == 0
    assert R.check_components(P, st) == 0


HOLDING_KINDS = (S.MK_FOOD, S.MK_OFFERINGS, S.MK_MEDALS, S.MK_GOD_COLOURS, S.MK_GOD_SAME_COLOUR, S.MK_GODS_OF)
HOLDING_MISSIONS = sorted(label for label, m in MISSION.items()
                          if R.mission_field(PARAMS.engine, m, S.MF_KIND1) in HOLDING_KINDS)


def random_end_holdings(rng, trial):
    """The first player at the end of a game with three random missions (most of them on food,
    offerings, medals or god cards, what paying Mama Quilia 04 takes) and random such holdings,
    sometimes 04 face up."""
    P, st, side = table(4, seed=100 + trial)
    p = order(st)[0]
    clear_holdings(st, p)
    pool = HOLDING_MISSIONS if rng.random() < 0.7 else sorted(MISSION)
    for slot, label in enumerate(rng.choice(pool, 3, replace=False)):
        assign_mission(st, p, slot, str(label))
    R.gain_food(st, p, int(rng.integers(0, 8)))
    R.gain_offerings(st, p, int(rng.integers(0, 4)))
    for card in rng.choice(sorted(CARD), int(rng.integers(0, 6))):
        try:
            give_card(st, p, str(card))
        except LookupError:
            pass
    if rng.random() < 0.5:
        set_face_up(st, "mission_discount")
    S.players(st)[p, S.P_MEDALS] = int(rng.integers(0, 3))
    return P, st, side, p


def test_last_mission_plans_skipped_settle_as_a_lower_plan():
    """The bots play only the first plan of each kind at the End of the Game
    (rules.first_plan_of_its_kind, bots.choose_last_missions): on random holdings, every plan
    skipped leaves the state and record exactly as a lower plan does, so the plan chosen is the
    same as when all 48 were played."""
    rng = np.random.default_rng(5)
    checked_with_order = 0
    for trial in range(400):
        P, st, side, p = random_end_holdings(rng, trial)
        one_short = R.one_short_slots(P, st, p)
        assert one_short == sum(1 << slot for slot in range(3) if S.players(st)[p, S.P_MISSION + slot] >= 0 and
                                R.mission_shortfall(P, st, p, S.players(st)[p, S.P_MISSION + slot]) == 1)
        outcomes = []
        for plan in range(R.LAST_MISSION_PLANS):
            look, rec, log = st.copy(), side[0].copy(), side[1].copy()
            R.settle_last_missions(P, look, rec, log, p, plan)
            if not R.first_plan_of_its_kind(plan, one_short):
                assert any(np.array_equal(look, a) and np.array_equal(rec, b) for a, b in outcomes), (trial, plan)
                checked_with_order += bin(one_short).count("1") >= 2
            outcomes.append((look, rec))
        kept = [plan for plan in range(R.LAST_MISSION_PLANS) if R.first_plan_of_its_kind(plan, one_short)]
        k = bin(one_short).count("1")
        assert len(kept) == [1, 2, 8, 48][k]
    assert checked_with_order > 1000
