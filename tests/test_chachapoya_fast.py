"""Chachapoya's fast bot kind: the heuristic's choices in law, with fewer noise draws.

Rulebook sections: Bidding (a bid is one to five cards of one kind, a tracker as joker, a pair of
trackers, or a leader) and Gameplay (the start player arranges the three drawn cards). The fast
kind plays the same rules as the heuristic; only the bids and offers that no noise draw could
make the best are skipped before their draw (README: the fast kind).
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import list_legal_bids

from chachapoya_helpers import ENGINE, NO_LOG, bots, chosen_bid, listed_bid, mid_game_states, weight_sets

FAST = np.int8(B.BOT_FAST)
HEURISTIC = np.int8(B.BOT_HEURISTIC)


def test_fast_bid_without_noise_is_the_heuristic_bid():
    """With the noise weight at 0 both kinds take the first bid of best utility (Bidding)."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        for seat in range(4):
            if S.players(st)[seat, S.P_ALIVE] == 0:
                continue
            for w in weight_sets(weights, 11):
                w = w.copy()
                w[B.W_NOISE] = 0.0
                assert chosen_bid(st, seat, w, FAST) == chosen_bid(st, seat, w, HEURISTIC)
                checked += 1
    assert checked > 300


def test_fast_bid_is_always_a_bid_the_heuristic_could_choose():
    """A fast bid is legal and its utility is within one noise weight of the best legal bid's:
    only such a bid can come out on top of a noise draw of at most half the weight either side."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        for seat in range(4):
            if S.players(st)[seat, S.P_ALIVE] == 0:
                continue
            for w in weight_sets(weights, 11):
                got = chosen_bid(st, seat, w, FAST)
                listed = st.copy()
                n = list_legal_bids(ENGINE, listed, seat)
                if n == 0:
                    assert got == (-1, 0, 0, -1)
                    continue
                utility = np.zeros(n)
                B.bid_utilities(ENGINE, listed, seat, w, n, utility)
                options = [tuple(int(x) for x in row) for row in S.options(listed)[:n]]
                assert got in options
                assert utility[options.index(got)] >= np.nanmax(utility) - abs(w[B.W_NOISE]) - 1e-9
                checked += 1
    assert checked > 300


def test_fast_bid_has_the_heuristic_distribution():
    """Over many streams from the same state, the fast kind picks each bid as often as the
    heuristic (the listed choice), where several bids compete within the noise."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    w = weights[0].copy()
    w[B.W_NOISE] = 3.0  # wide enough for several bids to win sometimes
    compared = 0
    for st in mid_game_states(12, kinds, weights):
        seat = int(st[S.S_START])
        if S.players(st)[seat, S.P_ALIVE] == 0:
            continue
        fast, listed = Counter(), Counter()
        draws = 3000
        for k in range(draws):
            a = st.copy()
            S.rng_words(a)[:] = np.random.default_rng(k).integers(1, 2**63, 4, dtype=np.uint64)
            b = a.copy()
            fast[tuple(int(x) for x in B.fast_bid(ENGINE, a, seat, w))] += 1
            listed[listed_bid(b, seat, w)] += 1
        if len(listed) < 2:
            continue
        distance = 0.5 * sum(abs(fast[o] - listed[o]) for o in set(fast) | set(listed)) / draws
        assert distance < 0.05, (fast, listed)
        compared += 1
    assert compared >= 3


def test_fast_offer_without_noise_is_the_heuristic_offer():
    """The start player's arrangement of the drawn cards (Gameplay): with no noise both kinds
    keep the first best arrangement; with noise the fast one draws only for those near it."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    checked = 0
    for st in mid_game_states(40, kinds, weights):
        if st[S.S_FACE_UP] == 0:
            continue
        R.draw_offer(ENGINE, st, NO_LOG)
        start = int(st[S.S_START])
        for w in weight_sets(weights, 11):
            w = w.copy()
            w[B.W_NOISE] = 0.0
            got = B.choose_offer(ENGINE, st.copy(), start, np.int8(B.BOT_FAST), w)
            assert got == B.choose_offer(ENGINE, st.copy(), start, np.int8(B.BOT_HEURISTIC), w)
            checked += 1
    assert checked > 100
