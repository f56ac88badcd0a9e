"""Chachapoya's pruned bot kind: the heuristic's valuation of the bids that can make its best two,
settled by one noise draw (README: the pruned kind).

Rulebook sections: Bidding (a bid is one to five cards of one kind, a tracker as joker, a pair of
trackers, or a leader; every player in play bids) and Gameplay (the start player arranges the
three drawn cards). The pruned kind plays the same rules; it values fewer bids and changes play.
"""
from __future__ import annotations

import numpy as np

from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.chachapoya import GAME
from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import list_legal_bids

from chachapoya_helpers import (ADVENTURER, ENGINE, NO_LOG, TREASURE, bots, chosen_bid, count_adventurers, count_treasures,
                                mid_game_states, weight_sets)

PRUNED = np.int8(B.BOT_PRUNED)
HEURISTIC = np.int8(B.BOT_HEURISTIC)
LINEUP = ["balanced-g4", "cautious-g5", "greedy-g7", "bluffer-g6"]
PRUNED_LINEUP = [f"{name}-pruned" for name in LINEUP]


def _listed(st, seat, w):
    """Every legal bid (list_legal_bids) with the heuristic's utility before noise (bid_utilities)."""
    listed = st.copy()
    n = list_legal_bids(ENGINE, listed, seat)
    utility = np.zeros(n)
    if n:
        B.bid_utilities(ENGINE, listed, seat, w, n, utility)
    return [tuple(int(x) for x in row) for row in S.options(listed)[:n]], utility


def _seats_in_play(st):
    return [s for s in range(4) if S.players(st)[s, S.P_ALIVE] == 1]


def test_pruned_bid_without_noise_is_the_heuristic_bid():
    """With the noise weight at 0 the best bid is always a candidate, and both kinds take the
    first bid of best utility (Bidding)."""
    kinds, weights = bots(LINEUP)
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        for seat in _seats_in_play(st):
            for w in weight_sets(weights, 13):
                w = w.copy()
                w[B.W_NOISE] = 0.0
                assert chosen_bid(st, seat, w, PRUNED) == chosen_bid(st, seat, w, HEURISTIC)
                checked += 1
    assert checked > 300


def test_pruned_first_candidate_is_the_best_legal_bid():
    """The first candidate is the legal bid of best utility (the heuristic's choice before noise),
    with that utility; the second, when there is one, is legal and within the noise weight of it."""
    kinds, weights = bots(LINEUP)
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        for seat in _seats_in_play(st):
            for w in weight_sets(weights, 13):
                options, utility = _listed(st, seat, w)
                k1, n1, j1, u1, k2, n2, j2, u2, _ = B.pruned_candidates(ENGINE, st.copy(), seat, w)
                if not options:
                    assert k1 == -1
                    continue
                best = int(np.argmax(utility))
                first = (k1, n1, 1 if j1 >= 0 else 0, j1)
                assert first == options[best] and abs(u1 - utility[best]) < 1e-9
                if k2 >= 0:
                    second = (k2, n2, 1 if j2 >= 0 else 0, j2)
                    assert second in options and second != first
                    assert u1 - u2 < abs(w[B.W_NOISE])
                checked += 1
    assert checked > 300


def test_pruned_bid_is_always_legal_and_near_the_best():
    """A pruned bid is a legal bid whose utility is within one noise weight of the best legal
    bid's (only such a bid can come out on top of the heuristic's draws); no legal bid, no bid."""
    kinds, weights = bots(LINEUP)
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        for seat in _seats_in_play(st):
            for w in weight_sets(weights, 13):
                got = chosen_bid(st, seat, w, PRUNED)
                options, utility = _listed(st, seat, w)
                if not options:
                    assert got == (-1, 0, 0, -1)
                    continue
                assert got in options
                assert utility[options.index(got)] >= np.nanmax(utility) - abs(w[B.W_NOISE]) - 1e-9
                checked += 1
    assert checked > 300


def test_pruned_values_fewer_bids_than_the_heuristic():
    """Counted on mid-game states of the default line-up: the pruned kind values fewer bids than
    the legal bids the heuristic values and gives a noise draw each (90% of them here: the keep
    costs are small, so the sure-win bound rarely fails; README: the pruned kind)."""
    kinds, weights = bots(LINEUP)
    legal = valued = decisions = 0
    for st in mid_game_states(60, kinds, weights):
        for seat in _seats_in_play(st):
            options, _ = _listed(st, seat, weights[seat])
            if not options:
                continue
            valued += B.pruned_candidates(ENGINE, st.copy(), seat, weights[seat])[8]
            legal += len(options)
            decisions += 1
    assert decisions > 100
    assert valued < 0.95 * legal, (valued, legal)


def test_second_wins_has_the_law_of_two_noise_draws():
    """second_wins gives the second of two candidates the chance the heuristic's two independent
    draws noise * (U - 0.5) give it: (1 - d / noise)^2 / 2 for a gap d below the noise, else 0."""
    noise = 0.4
    draws = (np.arange(20000) + 0.5) / 20000
    picker = np.random.default_rng(3)
    u_first, u_second = picker.random(200000), picker.random(200000)
    for gap in (0.0, 0.05, 0.2, 0.39, 0.4, 1.0):
        share = np.mean([B.second_wins(d, 1.0 + gap, 1.0, noise) for d in draws])
        expected = 0.5 * max(1.0 - gap / noise, 0.0) ** 2
        assert abs(share - expected) < 1e-3
        simulated = np.mean(1.0 + noise * (u_second - 0.5) > 1.0 + gap + noise * (u_first - 0.5))
        assert abs(share - simulated) < 0.005
    assert not B.second_wins(0.0, 1.0, 1.0, 0.0)  # no noise: the first stays


def test_pruned_offer_without_noise_is_the_heuristic_offer():
    """The start player's arrangement (Gameplay): with no noise the pruned kind keeps the
    heuristic's best arrangement; with noise it picks one of the two best."""
    kinds, weights = bots(LINEUP)
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        if st[S.S_FACE_UP] == 0:
            continue
        R.draw_offer(ENGINE, st, NO_LOG)
        start = int(st[S.S_START])
        for w in weight_sets(weights, 13):
            quiet = w.copy()
            quiet[B.W_NOISE] = 0.0
            got = B.choose_offer(ENGINE, st.copy(), start, PRUNED, quiet)
            assert got == B.choose_offer(ENGINE, st.copy(), start, HEURISTIC, quiet)
            utility = np.zeros(6)
            B.offer_utilities(ENGINE, st.copy(), start, w, utility)
            two_best = sorted(range(6), key=lambda i: -utility[i])[:2]
            assert B.choose_offer(ENGINE, st.copy(), start, PRUNED, w) in [B.offer_choice(i) for i in two_best]
            checked += 1
    assert checked > 100


def test_pruned_games_conserve_the_components():
    """Whole games of the pruned line-up in checked mode: every card somewhere exactly once after
    every step, every bid legal (Bidding), every game ended by a rule; 45 treasures and 50
    adventurers accounted for at the end (Content)."""
    names, idx = lineup_indices(PRUNED_LINEUP)
    res = GAME.simulate(GAME.resolve_params(None), 4, names, seat_bot_matrix(idx, 0, 300, True), 38, 0, 300, True)
    assert res.failures == []
    assert set(np.unique(res.game_columns["end_reason"])) <= {S.END_DECK, S.END_LAST_STANDING, S.END_ALL_ELIMINATED}
    kinds, w = bots(PRUNED_LINEUP)
    for seed in (1, 2, 3):
        st = S.new_state(ENGINE, 4)
        R.play_game(ENGINE, st, NO_LOG, kinds, w, np.uint64(seed), np.uint64(seed * 7), True)
        assert st[S.S_ERROR] == 0 and st[S.S_END_REASON] != S.END_NONE
        assert (count_treasures(st) == TREASURE[:, S.TF_COUNT]).all()
        assert (count_adventurers(st) == ADVENTURER[:, S.AF_COUNT]).all()
