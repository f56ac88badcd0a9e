"""Chachapoya: resolving a bidding (rulebook "Bidding", "Tracker", "Leader Cards", "Tricky Play of
Leader Cards", "Example for a Round", "2 Player Variant")."""
import numpy as np
import pytest

from chachapoya_helpers import (
    A, ENGINE, NO_LOG, T, bids_array, bots, collect, collection, hand, hand_dict, heuristic, make_state, random_bots,
    resolve, set_adeck, set_offer, set_tdeck, set_unresolved, tdeck_list,
)
from sim.games.chachapoya import cards as C
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S


def settle(st, outcome, seat, n_players, bot_arrays=None):
    kinds, w = bot_arrays or heuristic(n_players)
    R.settle_bidding(ENGINE, st, NO_LOG, kinds, w, np.int64(outcome), np.int64(seat))


# ------------------------------------------------------------------ numbers
def test_highest_bid_wins_both_cards():
    """Bidding: the highest total value wins and gets both treasure cards."""
    assert resolve(3, {0: ("number_9", 2), 1: ("number_31", 1), 2: ("number_3", 5)}) == (
        R.OUT_WIN_ALL, 1, set())


def test_rulebook_tie_example_john_ann_tim_betty():
    """Bidding example: John and Ann both 2 x 9 (18) knock each other out; Tim 7, Betty 17:
    Betty, the next in line, collects both treasure cards."""
    john, ann, tim, betty = 0, 1, 2, 3
    spec = {john: ("number_9", 2), ann: ("number_9", 2), tim: ("number_7", 1), betty: ("number_17", 1)}
    for start in range(4):
        assert resolve(4, spec, start=start) == (R.OUT_WIN_ALL, betty, set())


def test_tie_knockout_cascades_and_can_leave_no_winner():
    """Bidding / III. When There Is a Tie: tied bids knock each other out at every level; if
    every bid is tied nobody wins."""
    spec = {0: ("number_9", 2), 1: ("number_9", 2), 2: ("number_17", 1), 3: ("number_17", 1)}
    assert resolve(4, spec)[:2] == (R.OUT_NO_WINNER, -1)
    spec[3] = ("number_7", 1)
    assert resolve(4, spec)[:2] == (R.OUT_WIN_ALL, 2)
    # values tie across kinds: 3 x 3 = 9 = 1 x 9
    assert resolve(3, {0: ("number_3", 3), 1: ("number_9", 1), 2: ("number_5", 1)})[:2] == (
        R.OUT_WIN_ALL, 2)


def test_tracker_joker_winner_takes_one_card():
    """Tracker 1, PLEASE NOTE: winning with a tracker joker acquires only one treasure card."""
    spec = {0: ("number_11", 2, "joker"), 1: ("number_17", 1), 2: ("number_9", 3)}
    assert resolve(3, spec) == (R.OUT_WIN_ONE, 0, set())  # 33 > 27 > 17


def test_tracker_joker_tie_still_knocks_out():
    """Tracker, Exceptional case: a tie made with a tracker still knocks both out."""
    spec = {0: ("number_9", 2, "joker"), 1: ("number_9", 3), 2: ("number_17", 1)}
    assert resolve(3, spec) == (R.OUT_WIN_ALL, 2, set())


# ------------------------------------------------------------------ tracker pairs
def test_single_tracker_pair_cancels_and_neutralises_leaders():
    """Tracker 2 / Leader Cards Attention: one pair of trackers removes both treasures from the
    bidding, nobody wins, and no leader resolves."""
    spec = {0: ("mafia", 1), 1: ("tracker", 2), 2: ("number_31", 1), 3: ("spy", 1)}
    assert resolve(4, spec) == (R.OUT_PAIR_CANCEL, 1, {0, 3})


def test_tracker_pair_cancel_settles_cards_to_bottom_and_draws_three():
    """Tracker 2: the treasures go back to the bottom of the deck and the pair's player draws three
    adventurer cards (then the usual one at the end of the round). The draw is the player's choice
    (test_chachapoya_choices.py): with the whole deck to come, the heuristic draws."""
    st = make_state(3)
    set_tdeck(st, [T["gold"]] * 5)
    st[S.S_INITIAL_TDECK] = 5
    set_offer(st, ["blue_idol", "curse"], knower=0)
    set_adeck(st, [A["number_3"]] * 20)
    hand(st, 1)
    outcome, seat, _ = resolve(3, {0: ("number_9", 1), 1: ("tracker", 2), 2: ("number_5", 1)})
    settle(st, outcome, seat, 3)
    assert tdeck_list(st) == [T["gold"]] * 5 + [T["blue_idol"], T["curse"]]
    assert st[S.S_N_OFFER] == 0
    assert hand_dict(st, 1) == {"number_3": 3}
    assert all(collection(st, s) == {} for s in range(3))
    assert st[S.S_PAIR_CANCELS] == 1 and S.players(st)[1, S.P_PAIR_CANCELS] == 1
    R.end_of_round_draws(ENGINE, st, NO_LOG, *random_bots(3))
    assert hand_dict(st, 1)["number_3"] >= 4  # three for the pair, then one more (four in all)


def test_two_tracker_pairs_knock_each_other_out():
    """Tracker 2, Please note: two pairs knock each other out and the rest resolves normally; the
    pairs' players draw no extra cards."""
    spec = {0: ("tracker", 2), 1: ("number_9", 1), 2: ("tracker", 2), 3: ("number_7", 1)}
    assert resolve(4, spec) == (R.OUT_WIN_ALL, 1, set())
    st = make_state(4)
    set_offer(st, ["gold", "red_idol"], knower=0)
    set_adeck(st, [A["number_3"]] * 10)
    outcome, seat, _ = resolve(4, spec)
    settle(st, outcome, seat, 4)
    assert collection(st, 1) == {"gold": 1, "red_idol": 1}
    assert st[S.S_ADECK_SIZE] == 10  # nobody drew


def test_two_tracker_pairs_with_a_leader_let_the_leader_resolve():
    """Tracker 2 + Leader Cards: with the pairs knocked out, the last leader resolves."""
    spec = {0: ("tracker", 2), 1: ("mafia", 1), 2: ("tracker", 2), 3: ("number_31", 1)}
    assert resolve(4, spec) == (R.OUT_WIN_ALL, 1, set())


# ------------------------------------------------------------------ leaders
def test_mafia_takes_both_cards():
    """Chinese Mafia: if it resolves, its player acquires both treasure cards."""
    assert resolve(3, {0: ("number_17", 2), 1: ("mafia", 1), 2: ("number_31", 1)}) == (
        R.OUT_WIN_ALL, 1, set())


def test_dictator_beats_numbers_but_takes_one():
    """Dictator: higher than every number bid, but takes only one card of its player's choice."""
    assert resolve(3, {0: ("number_17", 2), 1: ("number_31", 1), 2: ("dictator", 1)}) == (
        R.OUT_WIN_ONE, 2, set())


def test_dictator_take_one_puts_the_other_to_the_bottom():
    """Dictator: choosing one card, the other goes face down to the bottom of the treasure deck."""
    st = make_state(3)
    set_tdeck(st, [T["gold"]] * 4)
    set_offer(st, ["blue_idol", "grim_warriors"], knower=2)
    outcome, seat, _ = resolve(3, {0: ("number_9", 1), 2: ("dictator", 1)})
    settle(st, outcome, seat, 3)
    got = collection(st, 2)
    assert sum(got.values()) == 1
    assert got == {"blue_idol": 1}  # the balanced bot knows the face-down card and takes the idol
    assert tdeck_list(st)[-1] == T["grim_warriors"]


def test_spy_lowest_bid_wins():
    """Russian Spy: the player who offered the lowest bid wins; the spy never wins itself."""
    spec = {0: ("number_31", 1), 1: ("spy", 1), 2: ("number_7", 2), 3: ("number_9", 3)}
    assert resolve(4, spec) == (R.OUT_WIN_ALL, 2, set())


def test_spy_tied_lowest_knock_out_second_lowest_wins():
    """Russian Spy: if two or more tie with the lowest bid, the second lowest wins."""
    spec = {0: ("number_5", 1), 1: ("spy", 1), 2: ("number_5", 1), 3: ("number_9", 1)}
    assert resolve(4, spec)[:2] == (R.OUT_WIN_ALL, 3)


def test_spy_alone_against_no_numbers_has_no_winner():
    """Russian Spy: the spy can never win a bidding."""
    assert resolve(2, {0: ("spy", 1), 1: ("tracker", 2)})[:2] == (R.OUT_PAIR_CANCEL, 1)
    assert resolve(3, {0: ("spy", 1)})[:2] == (R.OUT_NO_WINNER, -1)


def test_tricky_play_example_lucy_betty_john():
    """Tricky Play of Leader Cards: Lucy 2 x 7, Betty the spy, John a 31: Lucy (lowest) wins both
    treasure cards."""
    lucy, betty, john = 0, 1, 2
    spec = {lucy: ("number_7", 2), betty: ("spy", 1), john: ("number_31", 1)}
    for start in range(3):
        assert resolve(3, spec, start=start) == (R.OUT_WIN_ALL, lucy, set())


@pytest.mark.parametrize("start,expected", [(0, 3), (1, 0), (2, 0), (3, 0)])
def test_only_the_last_leader_in_turn_order_resolves(start, expected):
    """Leader Cards: of several leaders only the one played last in turn order (which starts at
    the start player) resolves; the others lose their feature."""
    spec = {0: ("mafia", 1), 1: ("number_31", 1), 3: ("dictator", 1)}
    outcome, seat, unresolved = resolve(4, spec, start=start)
    assert seat == expected
    assert unresolved == {0, 3} - {expected}
    assert outcome == (R.OUT_WIN_ONE if expected == 3 else R.OUT_WIN_ALL)


def test_last_leader_spy_over_mafia_makes_lowest_number_win():
    """Leader Cards: a mafia played earlier loses its power; a later spy resolves."""
    spec = {0: ("mafia", 1), 1: ("number_31", 1), 2: ("spy", 1), 3: ("number_3", 2)}
    assert resolve(4, spec, start=0) == (R.OUT_WIN_ALL, 3, {0})


def test_example_for_a_round_ann_amy_john_tim():
    """Example for a Round: Ann (start) spy, Amy 2 x 11, John 2 x 9, Tim 7 + tracker: "Amy would be
    the winner (with 22 points), but Ann reversed the order with the lady spy, so the player with
    the lowest bid, Tim wins the round of bidding (with 14 points)"; having used a tracker he takes
    only one of the two cards; if it is the Grim Warrior he draws three adventurer cards at once."""
    ann, amy, john, tim = 0, 1, 2, 3
    spec = {ann: ("spy", 1), amy: ("number_11", 2), john: ("number_9", 2), tim: ("number_7", 1, "joker")}
    strengths = {seat: C.bid_strength(ENGINE, A[b[0]], b[1], 1 if len(b) > 2 else 0) for seat, b in spec.items()}
    assert (strengths[amy], strengths[john], strengths[tim]) == (22, 18, 14)
    assert resolve(4, {seat: b for seat, b in spec.items() if seat != ann}, start=ann) == (R.OUT_WIN_ALL, amy, set())
    assert resolve(4, spec, start=ann) == (R.OUT_WIN_ONE, tim, set())
    for seed in range(6):  # whichever card Tim chooses, the rule outcome must follow
        st = make_state(4, seed=seed)
        set_tdeck(st, [T["yellow_idol"]] * 10 + [T["blue_idol"]])
        set_offer(st, ["green_idol", "grim_warriors"], knower=ann)
        collect(st, tim, blue_idol=1)
        set_adeck(st, [A["number_5"]] * 10)
        hand(st, tim)
        settle(st, R.OUT_WIN_ONE, tim, 4, random_bots(4))
        got = collection(st, tim)
        bottom = tdeck_list(st)[-1]
        if got.get("grim_warriors"):
            assert got == {"blue_idol": 1, "grim_warriors": 1}
            assert bottom == T["green_idol"]
            assert hand_dict(st, tim) == {"number_5": 3}
        else:
            assert got == {"blue_idol": 1, "green_idol": 1}
            assert bottom == T["grim_warriors"]
            assert hand_dict(st, tim) == {}


# ------------------------------------------------------------------ two players, penalties
def test_two_player_leader_clash():
    """2 Player Variant: when both players play leaders, none of them wins (a clash)."""
    assert resolve(2, {0: ("mafia", 1), 1: ("spy", 1)}) == (R.OUT_CLASH, -1, {0, 1})
    # three players: the ordinary rule (the last leader resolves)
    assert resolve(3, {0: ("mafia", 1), 1: ("dictator", 1), 2: ("number_3", 1)}) == (
        R.OUT_WIN_ONE, 1, {0})


def test_two_player_clash_keeps_the_offer_for_a_rebid_after_draws():
    """2 Player Variant: the leaders are discarded, the treasures stay on the table for another
    bidding, and the players draw adventurer cards at the end of the round as usual."""
    st = make_state(2)
    set_tdeck(st, [T["blue_idol"], T["gold"], T["red_idol"]] + [T["yellow_idol"]] * 6)
    set_adeck(st, [A["number_5"]] * 20)
    hand(st, 0, mafia=1)
    hand(st, 1, dictator=1)
    S.players(st)[:, S.P_TOKEN] = 0  # no hidden-treasure refill in this test
    kinds, w = random_bots(2)
    R.play_round(ENGINE, st, NO_LOG, kinds, w, False)
    assert st[S.S_LEADER_CLASHES] == 1 and st[S.S_REBID] == 1 and st[S.S_END_REASON] == 0
    assert st[S.S_N_OFFER] == 2
    kept = sorted(int(x) for x in S.offer(st)[:2])
    deck_after = tdeck_list(st)
    assert len(deck_after) == 9 - 2
    assert S.adiscard(st)[A["mafia"]] == 1 and S.adiscard(st)[A["dictator"]] == 1  # leaders discarded
    assert collection(st, 0) == {} and collection(st, 1) == {}
    assert hand_dict(st, 0) == {"number_5": 3} and hand_dict(st, 1) == {"number_5": 3}
    # the rebid: no new offer is drawn; seat 0 now wins the same two cards
    hand(st, 0, number_31=1)
    hand(st, 1, number_3=1)
    R.play_round(ENGINE, st, NO_LOG, kinds, w, False)
    got = collection(st, 0)
    assert sorted(T[k] for k, v in got.items() for _ in range(v)) == kept
    assert tdeck_list(st) == deck_after


def test_unresolved_leader_in_last_round_costs_five():
    """Leader Cards, Note: a leader played in the last round that cannot resolve costs -5; in
    earlier rounds there is no penalty."""
    for last, penalty in ((1, -5), (0, 0)):
        st = make_state(3)
        st[S.S_LAST_ROUND] = last
        S.bids(st)[:] = bids_array(3, {0: ("mafia", 1), 1: ("dictator", 1), 2: ("number_9", 1)})
        outcome, seat = R.decide_bidding(ENGINE, st)
        assert (outcome, seat) == (R.OUT_WIN_ONE, 1)
        R.charge_unresolved_leaders(ENGINE, st, NO_LOG)
        assert list(S.players(st)[:, S.P_VP_UNRESOLVED]) == [penalty, 0, 0]
        assert S.players(st)[0, S.P_UNRESOLVED_LEADERS] == (1 if last else 0)


def test_unresolved_leader_penalty_reaches_the_final_score():
    """Leader Cards, Note + Scoring: the -5 is part of the final score."""
    st = make_state(2)
    collect(st, 0, gold=1)
    collect(st, 1, gold=1)
    S.players(st)[:, S.P_TOKEN] = 0
    st[S.S_LAST_ROUND] = 1
    set_unresolved(st, {0})
    R.charge_unresolved_leaders(ENGINE, st, NO_LOG)
    R.final_scores(ENGINE, st, NO_LOG, *heuristic(2))
    assert list(S.players(st)[:, S.P_SCORE]) == [1 - 5, 1]


def test_tracker_pair_in_last_round_neutralises_leader_with_penalty():
    """Leader Cards Attention + Note: a pair cancels the last round's leaders, each costing -5."""
    st = make_state(3)
    st[S.S_LAST_ROUND] = 1
    outcome, seat, unresolved = resolve(3, {0: ("spy", 1), 1: ("mafia", 1), 2: ("tracker", 2)})
    assert outcome == R.OUT_PAIR_CANCEL and unresolved == {0, 1}
    set_unresolved(st, unresolved)
    R.charge_unresolved_leaders(ENGINE, st, NO_LOG)
    assert list(S.players(st)[:, S.P_VP_UNRESOLVED]) == [-5, -5, 0]


def test_two_player_clash_in_last_round_rebids_with_penalty_and_no_refill():
    """2 Player Variant + Last Round + Leader Cards Note + Hidden Treasure A: a clash in the last
    round keeps the face-down cards for a rebid, both neutralised leaders cost -5, players draw
    but may not use the token to refill; the rebid's winner takes all and the game ends."""
    st = make_state(2)
    cards = [T["gold"], T["red_idol"], T["green_idol"]]
    set_tdeck(st, cards)
    set_adeck(st, [A["number_5"]] * 20)
    hand(st, 0, spy=1)
    hand(st, 1, mafia=1)
    kinds, w = bots(["balanced", "balanced"])
    R.play_round(ENGINE, st, NO_LOG, kinds, w, False)
    pstat = S.players(st)
    assert st[S.S_LAST_ROUND] == 1 and st[S.S_REBID] == 1 and st[S.S_END_REASON] == 0
    assert st[S.S_N_OFFER] == 3
    assert list(pstat[:, S.P_VP_UNRESOLVED]) == [-5, -5]
    assert list(pstat[:, S.P_TOKEN]) == [1, 1] and list(pstat[:, S.P_TOKEN_REFILL]) == [0, 0]
    assert hand_dict(st, 0) == {"number_5": 3} and hand_dict(st, 1) == {"number_5": 3}
    hand(st, 0, number_3=1)
    hand(st, 1, number_31=1)
    R.play_round(ENGINE, st, NO_LOG, kinds, w, False)
    assert st[S.S_END_REASON] == S.END_DECK
    assert collection(st, 1) == {"gold": 1, "red_idol": 1, "green_idol": 1}
