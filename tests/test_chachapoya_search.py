"""The Chachapoya search bot (sim/games/chachapoya/search.py): hidden information, determinism,
legality and strength.

Rulebook sections: Setup (treasures boxed unseen), Gameplay (three drawn cards shown; only the
start player knows which hidden one is offered), Bidding (bids laid face down), Last Round (cards
offered face down, unseen by all), Elimination (the hand goes to the discard pile unseen).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.core import rng as rng_mod
from sim.core.search import STAT_SEARCHED, STAT_WORDS
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import search as X
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import is_legal_bid

from chachapoya_helpers import ENGINE, NO_LOG, bots, count_adventurers, count_treasures, tdeck_list

N = 4


def _budget(rollouts=4, candidates=3):
    cfg = data.search_budgets(["search"])[0].copy()
    cfg[X.CFG_ROLLOUTS] = rollouts
    cfg[X.CFG_CANDIDATES] = candidates
    cfg[X.CFG_HORIZON] = 1000
    return cfg


def _bidding_points(seed, n_players=N):
    """Every round of one heuristic game, stopped where the bids are about to be laid: yields
    copies of the state (and the round's start player)."""
    kinds, weights = bots(["balanced"] * n_players)
    st = S.new_state(ENGINE, n_players)
    R.start_game(ENGINE, st, NO_LOG, np.uint64(seed), np.uint64(0), False)
    while R.game_goes_on(st):
        if R.open_round(st, NO_LOG) and R.draw_offer(ENGINE, st, NO_LOG):
            start = st[S.S_START]
            bottom, up = B.choose_offer(ENGINE, st, start, kinds[start], weights[start])
            R.arrange_offer(st, NO_LOG, bottom, up)
        yield st.copy()
        R.collect_bids(ENGINE, st, NO_LOG, kinds, weights)
        outcome, seat = R.reveal_bids(ENGINE, st, NO_LOG, False)
        R.settle_bidding(ENGINE, st, NO_LOG, kinds, weights, outcome, seat)
        R.close_round(ENGINE, st, NO_LOG, kinds, weights, outcome, False)


def _context(n_players=N):
    return X.new_search_context(ENGINE, n_players, B.N_WEIGHTS)


def test_determinisation_conserves_every_component_and_my_view():
    """Every card stays somewhere exactly once, the searcher's hand and everything public stay,
    the others keep their hand sizes; and what is hidden does get dealt again."""
    changed_hands = changed_deck = 0
    n_checked = 0
    for seed in (1, 2):
        for st in _bidding_points(seed):
            for seat in range(N):
                if S.players(st)[seat, S.P_ALIVE] == 0:
                    continue
                det = st.copy()
                X.seed_search_stream(S.rng_words(det), np.uint64(5), np.uint64(0), n_checked, 0)
                X.determinise(det, seat, np.zeros(400, np.int64), True, _context()[X.CX_MEMORY], np.bool_(False))
                n_checked += 1
                assert (count_adventurers(det) == count_adventurers(st)).all()
                assert (count_treasures(det) == count_treasures(st)).all()
                R.check_components(ENGINE, det)
                assert det[S.S_ERROR] == 0
                assert (S.hands(det)[seat] == S.hands(st)[seat]).all()  # my hand
                assert (S.hands(det).sum(axis=1) == S.hands(st).sum(axis=1)).all()  # hand sizes are public
                for view in (S.collections, S.players, S.kind_stats):  # collections, counters, played cards
                    assert (view(det) == view(st)).all()
                assert (S.gone(det) == S.gone(st)).all()  # treasures out of the game in public
                assert (S.adiscard(det) - S.adhidden(det) == S.adiscard(st) - S.adhidden(st)).all()  # seen discards
                assert det[S.S_TDECK_SIZE] == st[S.S_TDECK_SIZE] and det[S.S_ADECK_SIZE] == st[S.S_ADECK_SIZE]
                if st[S.S_FACE_UP] == 1:
                    assert S.offer(det)[0] == S.offer(st)[0]  # the face-up card
                    pair = {int(S.offer(st)[1]), int(tdeck_list(st)[-1])}  # face down + buried: seen drawn
                    assert {int(S.offer(det)[1]), int(tdeck_list(det)[-1])} == pair
                    if st[S.S_KNOWER] == seat:
                        assert S.offer(det)[1] == S.offer(st)[1]
                changed_hands += any((S.hands(det)[p] != S.hands(st)[p]).any() for p in range(N) if p != seat)
                changed_deck += tdeck_list(det) != tdeck_list(st)
    assert changed_hands > n_checked // 2 and changed_deck > n_checked // 2


def _rehidden(st, seat, seed):
    """The same game as `st` for `seat`'s eyes, with every hidden card elsewhere and another real
    random stream: other hands, adventurer deck, treasure deck (bar the bottom card), box."""
    other = st.copy()
    hands, tdeck, adeck, boxed, offer = S.hands(other), S.tdeck(other), S.adeck(other), S.boxed(other), S.offer(other)
    rnd = np.random.default_rng(seed)
    pool = [a for p in range(N) if p != seat for a in range(hands.shape[1]) for _ in range(hands[p, a])]
    pool += list(adeck[: other[S.S_ADECK_SIZE]])
    rnd.shuffle(pool)
    k = 0
    for p in range(N):
        if p != seat:
            size = int(hands[p].sum())
            hands[p] = 0
            for a in pool[k:k + size]:
                hands[p, a] += 1
            k += size
    adeck[: other[S.S_ADECK_SIZE]] = pool[k:]
    cards = tdeck_list(other)
    free = cards[:-1] + [t for t in range(boxed.shape[0]) for _ in range(boxed[t])]
    rnd.shuffle(free)
    boxed[:] = 0
    for t in free[len(cards) - 1:]:
        boxed[t] += 1
    new_deck = free[: len(cards) - 1] + cards[-1:]
    if other[S.S_KNOWER] != seat and rnd.integers(2) == 1:  # it saw both drawn, not which is offered
        new_deck[-1], offer[1] = offer[1], new_deck[-1]
        other[S.S_BURIED] = new_deck[-1]
    for i, t in enumerate(new_deck):
        tdeck[(other[S.S_TDECK_HEAD] + i) % tdeck.shape[0]] = t
    rng_mod.seed_game_stream(S.rng_words(other), np.uint64(seed), np.uint64(99))
    return other


def test_search_never_reads_the_real_future():
    """Two games alike up to a bidding, but with every hidden card elsewhere and a different real
    random stream, get the same search values and bid; the real state is left untouched but for
    the seat's search-map counters (its searched decisions). (This fails if a rollout reused the
    real stream or the real hidden cards.)"""
    _, weights = bots(["balanced"] * N)
    cfg = _budget()
    points = [st for st in _bidding_points(3) if st[S.S_FACE_UP] == 1]
    tried = 0
    for st in points[2:12:3]:
        seat = (st[S.S_START] + 1) % N
        if S.players(st)[seat, S.P_ALIVE] == 0:
            continue
        other = _rehidden(st, seat, 17 + tried)
        assert not (st == other).all()
        results = []
        for state in (st, other):
            before = state.copy()
            ctx = _context()
            # the table's memory (memory = 1): every card of the deck but this round's buried one
            # unseen since Setup, as _rehidden deals them again
            ctx[X.CX_MEMORY][X.MEM_SETUP_LEFT] = state[S.S_TDECK_SIZE] - 1
            bid = X.search_bid(ENGINE, state, seat, weights[seat], cfg, np.uint64(11), np.uint64(4), ctx)
            # the real game is not touched, but for the seat's search record: this bid counted once
            record = S.seat_at(seat) + S.P_SEARCH_STATS + S.SEARCH_BID * STAT_WORDS
            changed = np.flatnonzero(before != state)
            assert set(changed.tolist()) <= set(range(record, record + STAT_WORDS))
            assert state[record + STAT_SEARCHED] == before[record + STAT_SEARCHED] + 1
            results.append((tuple(int(x) for x in bid), ctx[X.CX_VALUE][:3].copy()))
        assert results[0][0] == results[1][0]
        assert (results[0][1] == results[1][1]).all()
        assert is_legal_bid(ENGINE, st, seat, *results[0][0])
        tried += 1
    assert tried >= 2


def test_search_choices_are_legal_in_checked_games():
    """Whole games with two search seats under --checked: no illegal bid (an engine error), no
    broken invariant."""
    names = ["balanced", "search"]
    seat_bots = np.array([[1, 0, 1, 0], [0, 1, 0, 1]], np.int8)
    result = GAME.simulate(GAME.resolve_params(None), N, names, seat_bots, 5, 0, 2, checked=True)
    assert result.failures == []


def test_results_do_not_depend_on_workers_or_chunks(tmp_path):
    """A game's result depends only on (configuration, seed, game index)."""
    tables = []
    for workers, chunk in ((1, 6), (2, 2)):
        out = tmp_path / f"w{workers}"
        assert main(["run", "chachapoya", "--bots", "search,balanced,greedy,balanced", "--rotate-seats",
                     "--games", "6", "--seed", "2", "--workers", str(workers), "--chunk-size", str(chunk),
                     "--out", str(out), "--no-progress"]) == 0
        tables.append(pd.read_parquet(out / "players").sort_values(["game_id", "seat"]).reset_index(drop=True))
    assert tables[0].equals(tables[1])


def _wilson(wins, n, z=1.96):
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _search_win_rate(opponent, n_games, seed=1):
    names = [opponent, "search"]
    seat_bots = np.array([np.roll([1, 0, 0, 0], i) for i in range(n_games)], np.int8)
    result = GAME.simulate(GAME.resolve_params(None), N, names, seat_bots, seed, 0, n_games)
    won = np.asarray(result.player_columns["won"]).reshape(n_games, N)
    wins = int(won[seat_bots == 1].sum())
    return wins, _wilson(wins, n_games)


def test_search_beats_balanced():
    """Against three balanced bots (seats rotated) the reference bot wins clearly more than its
    fair 25%: the lower end of the 95% interval over 200 games is above 25%."""
    wins, (low, high) = _search_win_rate("balanced", 200)
    assert low > 0.25, (wins, low, high)
