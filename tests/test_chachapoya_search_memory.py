"""The search bot's table memory (sim/games/chachapoya/search.py, `memory = 1`): determinisations
keep what every player saw go under the decks.

Rulebook sections: Gameplay (the three drawn treasures are shown face up; the one put back goes to
the bottom of the deck), III and Tracker (offered cards go back to the bottom), Last Round (the last
cards are offered face down), Bidding (bids are turned face up, then discarded). The adventurer deck
rebuilt from the discard pile is the engine's reading (README: reshuffle): every card on that pile was
seen laid as a bid, so the rebuilt deck holds only cards seen there.
"""
from __future__ import annotations

import numpy as np

from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import search as X
from sim.games.chachapoya import state as S

from chachapoya_helpers import ENGINE, NO_LOG, bots, count_adventurers, count_treasures, tdeck_list

N = 4
REMEMBER = np.bool_(True)


def _bidding_points_with_memory(seed):
    """Every round of one heuristic game where the bids are about to be laid, with the table's
    memory kept as play_round_search keeps it: yields copies of (state, memory)."""
    kinds, weights = bots(["balanced"] * N)
    st = S.new_state(ENGINE, N)
    memory = X.new_search_context(ENGINE, N, B.N_WEIGHTS)[X.CX_MEMORY]
    R.start_game(ENGINE, st, NO_LOG, np.uint64(seed), np.uint64(0), False)
    X.remember_setup(st, memory)
    while R.game_goes_on(st):
        size_before = st[S.S_TDECK_SIZE]
        if R.open_round(st, NO_LOG):
            offered = R.draw_offer(ENGINE, st, NO_LOG)
            X.remember_draw(st, memory, size_before)
            if offered:
                start = st[S.S_START]
                bottom, up = B.choose_offer(ENGINE, st, start, kinds[start], weights[start])
                R.arrange_offer(st, NO_LOG, bottom, up)
        else:
            X.remember_draw(st, memory, size_before)
        yield st.copy(), memory.copy()
        R.collect_bids(ENGINE, st, NO_LOG, kinds, weights)
        outcome, seat = R.reveal_bids(ENGINE, st, NO_LOG, False)
        X.remember_pile(st, memory, X.AFTER_REVEAL)
        R.settle_bidding(ENGINE, st, NO_LOG, kinds, weights, outcome, seat)
        R.close_round(ENGINE, st, NO_LOG, kinds, weights, outcome, False)
        X.remember_pile(st, memory, X.AFTER_ROUND)
        X.remember_returns(st, memory)


def _determinised(st, memory, seat, key):
    det = st.copy()
    X.seed_search_stream(S.rng_words(det), np.uint64(5), np.uint64(0), key, 0)
    X.determinise(det, seat, np.zeros(400, np.int64), True, memory, REMEMBER)
    return det


def _points(seeds=(1, 2)):
    for seed in seeds:
        for st, memory in _bidding_points_with_memory(seed):
            for seat in range(N):
                if S.players(st)[seat, S.P_ALIVE] == 1:
                    yield st, memory, seat


def test_remembering_determinisation_conserves_every_card_and_the_seat_view():
    """With the memory on, every card still lies somewhere exactly once, and the seat's hand, the
    hand sizes and everything public stay."""
    for key, (st, memory, seat) in enumerate(_points()):
        det = _determinised(st, memory, seat, key)
        assert (count_adventurers(det) == count_adventurers(st)).all()
        assert (count_treasures(det) == count_treasures(st)).all()
        R.check_components(ENGINE, det)
        assert det[S.S_ERROR] == 0
        assert (S.hands(det)[seat] == S.hands(st)[seat]).all()
        assert (S.hands(det).sum(axis=1) == S.hands(st).sum(axis=1)).all()
        assert (S.adiscard(det) - S.adhidden(det) == S.adiscard(st) - S.adhidden(st)).all()


def test_a_rebuilt_adventurer_deck_holds_only_cards_seen_on_the_pile():
    """Once the deck was rebuilt from the discard pile, the determinised deck never holds more of a
    kind than the pile held then: a card kept in hand since (no leader on the pile) stays in a hand.
    Without the memory, the uniform deal puts such cards in the deck."""
    rebuilt_at = None
    n_rebuilt = forgotten = 0
    for key, (st, memory, seat) in enumerate(_points()):
        if memory[X.MEM_REBUILT] == 0:
            continue
        rebuilt_at = X.memory_at(st, X.MEM_REBUILT_AT)
        pile = memory[rebuilt_at:rebuilt_at + st[S.S_N_ADVENTURERS]]
        n_rebuilt += 1
        det = _determinised(st, memory, seat, key)
        deck = np.bincount(S.adeck(det)[: det[S.S_ADECK_SIZE]], minlength=st[S.S_N_ADVENTURERS])
        real = np.bincount(S.adeck(st)[: st[S.S_ADECK_SIZE]], minlength=st[S.S_N_ADVENTURERS])
        unseen = real + S.adhidden(st) + S.hands(st).sum(axis=0) - S.hands(st)[seat]
        # the pile's cards come first; only if too few of them are unseen (an eliminated hand went
        # unseen onto the pile before it was shuffled) does the rest come from the other cards
        short = max(int(real.sum()) - int(np.minimum(pile, unseen).sum()), 0)
        assert np.maximum(deck - pile, 0).sum() <= short
        forget = st.copy()
        X.seed_search_stream(S.rng_words(forget), np.uint64(5), np.uint64(0), key, 0)
        X.determinise(forget, seat, np.zeros(400, np.int64), True, memory, np.bool_(False))
        deck = np.bincount(S.adeck(forget)[: forget[S.S_ADECK_SIZE]], minlength=st[S.S_N_ADVENTURERS])
        forgotten += bool((deck > pile).any())
    assert rebuilt_at is not None and n_rebuilt > 20
    assert forgotten > n_rebuilt // 4


def test_cards_put_back_under_the_treasure_deck_keep_their_places_by_round():
    """Below Setup's unseen cards, the deck holds the cards put back round by round: each round's
    cards stay in that round's places (as a set; in order for its start player), and only Setup's
    unseen cards and the box are dealt again."""
    n_checked = n_returns = 0
    for key, (st, memory, seat) in enumerate(_points()):
        det = _determinised(st, memory, seat, key)
        deck, real = tdeck_list(det), tdeck_list(st)
        fixed_bottom = int(st[S.S_FACE_UP] == 1 and st[S.S_BURIED] >= 0 and len(real) > 0)
        top = min(memory[X.MEM_SETUP_LEFT], len(real) - fixed_bottom)
        group_at, knower_at = X.memory_at(st, X.MEM_GROUP_AT), X.memory_at(st, X.MEM_KNOWER_AT)
        # Setup's unseen cards and the box, pooled: the same cards, wherever they are now
        unseen = sorted(real[:top] + [t for t, n in enumerate(S.boxed(st)) for _ in range(n)])
        assert sorted(deck[:top] + [t for t, n in enumerate(S.boxed(det)) for _ in range(n)]) == unseen
        i = top
        while i < len(real) - fixed_bottom:
            slot = (st[S.S_TDECK_HEAD] + i) % S.tdeck(st).shape[0]
            j = i
            while j < len(real) - fixed_bottom and memory[group_at + (st[S.S_TDECK_HEAD] + j) % S.tdeck(st).shape[0]] \
                    == memory[group_at + slot]:
                j += 1
            assert sorted(deck[i:j]) == sorted(real[i:j])
            if memory[knower_at + slot] == seat:
                assert deck[i:j] == real[i:j]
            n_returns += j - i
            i = j
        n_checked += 1
    assert n_checked > 100 and n_returns > 200
