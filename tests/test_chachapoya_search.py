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
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import search as X
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import is_legal_bid

from chachapoya_helpers import ENGINE, bots, count_adventurers, count_treasures, tdeck_list

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
    st = S.new_state(ENGINE, n_players, False)
    R.start_game(ENGINE, st, n_players, np.uint64(seed), np.uint64(0), False)
    while R.game_goes_on(st):
        if R.open_round(st) and R.draw_offer(ENGINE, st):
            start = st[0][S.S_START]
            bottom, up = B.choose_offer(ENGINE, st, start, kinds[start], weights[start], st[15][S.SCR_DRAWN, :3])
            R.arrange_offer(ENGINE, st, bottom, up)
        yield tuple(a.copy() for a in st)
        R.collect_bids(ENGINE, st, kinds, weights)
        outcome, seat = R.reveal_bids(ENGINE, st, False)
        R.settle_bidding(ENGINE, st, kinds, weights, outcome, seat)
        R.close_round(ENGINE, st, kinds, weights, outcome, False)


def _context(n_players=N):
    return X.new_search_context(ENGINE, n_players, B.N_WEIGHTS)


def test_determinisation_conserves_every_component_and_my_view():
    """Every card stays somewhere exactly once, the searcher's hand and everything public stay,
    the others keep their hand sizes; and what is hidden does get dealt again."""
    changed_hands = changed_deck = 0
    n_checked = 0
    for seed in (1, 2):
        for st in _bidding_points(seed):
            g = st[0]
            for seat in range(N):
                if st[9][seat, S.P_ALIVE] == 0:
                    continue
                det = tuple(a.copy() for a in st)
                X.seed_search_stream(det[12], np.uint64(5), np.uint64(0), n_checked, 0)
                X.determinise(ENGINE, det, seat, np.zeros(200, np.int8), True)
                n_checked += 1
                assert (count_adventurers(det) == count_adventurers(st)).all()
                assert (count_treasures(det) == count_treasures(st)).all()
                R.check_components(ENGINE, det)
                assert det[0][S.S_ERROR] == 0
                assert (det[1][seat] == st[1][seat]).all()  # my hand
                assert (det[1].sum(axis=1) == st[1].sum(axis=1)).all()  # hand sizes are public
                for k in (2, 9, 10):  # collections, player counters, played cards
                    assert (det[k] == st[k]).all()
                assert (det[6][1] == st[6][1]).all()  # treasures out of the game in public
                assert (det[5] - det[S.ADHIDDEN_AT] == st[5] - st[S.ADHIDDEN_AT]).all()  # seen discards
                assert det[0][S.S_TDECK_SIZE] == g[S.S_TDECK_SIZE] and det[0][S.S_ADECK_SIZE] == g[S.S_ADECK_SIZE]
                if g[S.S_FACE_UP] == 1:
                    assert det[7][0] == st[7][0]  # the face-up card
                    pair = {int(st[7][1]), int(tdeck_list(st)[-1])}  # face down + buried: seen drawn
                    assert {int(det[7][1]), int(tdeck_list(det)[-1])} == pair
                    if g[S.S_KNOWER] == seat:
                        assert det[7][1] == st[7][1]
                changed_hands += any((det[1][p] != st[1][p]).any() for p in range(N) if p != seat)
                changed_deck += tdeck_list(det) != tdeck_list(st)
    assert changed_hands > n_checked // 2 and changed_deck > n_checked // 2


def _rehidden(st, seat, seed):
    """The same game as `st` for `seat`'s eyes, with every hidden card elsewhere and another real
    random stream: other hands, adventurer deck, treasure deck (bar the bottom card), box."""
    other = tuple(a.copy() for a in st)
    g, hands, tdeck, adeck, tout = other[0], other[1], other[3], other[4], other[6]
    rnd = np.random.default_rng(seed)
    pool = [a for p in range(N) if p != seat for a in range(hands.shape[1]) for _ in range(hands[p, a])]
    pool += list(adeck[: g[S.S_ADECK_SIZE]])
    rnd.shuffle(pool)
    k = 0
    for p in range(N):
        if p != seat:
            size = int(hands[p].sum())
            hands[p] = 0
            for a in pool[k:k + size]:
                hands[p, a] += 1
            k += size
    adeck[: g[S.S_ADECK_SIZE]] = pool[k:]
    cards = tdeck_list(other)
    free = cards[:-1] + [t for t in range(tout.shape[1]) for _ in range(tout[0, t])]
    rnd.shuffle(free)
    tout[0] = 0
    for t in free[len(cards) - 1:]:
        tout[0, t] += 1
    new_deck = free[: len(cards) - 1] + cards[-1:]
    if g[S.S_KNOWER] != seat and rnd.integers(2) == 1:  # it saw both drawn, not which is offered
        new_deck[-1], other[7][1] = other[7][1], new_deck[-1]
        g[S.S_BURIED] = new_deck[-1]
    for i, t in enumerate(new_deck):
        tdeck[(g[S.S_TDECK_HEAD] + i) % tdeck.shape[0]] = t
    rng_mod.seed_game_stream(other[12], np.uint64(seed), np.uint64(99))
    return other


def test_search_never_reads_the_real_future():
    """Two games alike up to a bidding, but with every hidden card elsewhere and a different real
    random stream, get the same search values and bid; the real state is left untouched. (This
    fails if a rollout reused the real stream or the real hidden cards.)"""
    _, weights = bots(["balanced"] * N)
    cfg = _budget()
    points = [st for st in _bidding_points(3) if st[0][S.S_FACE_UP] == 1]
    tried = 0
    for st in points[2:12:3]:
        seat = (st[0][S.S_START] + 1) % N
        if st[9][seat, S.P_ALIVE] == 0:
            continue
        other = _rehidden(st, seat, 17 + tried)
        assert not all((a == b).all() for a, b in zip(st, other))
        results = []
        for state in (st, other):
            before = tuple(a.copy() for a in state)
            ctx = _context()
            bid = X.search_bid(ENGINE, state, seat, weights[seat], cfg, np.uint64(11), np.uint64(4), ctx)
            assert all((a == b).all() for a, b in zip(before, state))  # the real game is not touched
            results.append((tuple(int(x) for x in bid), ctx[X.CX_VALUE][:3].copy()))
        assert results[0][0] == results[1][0]
        assert (results[0][1] == results[1][1]).all()
        assert is_legal_bid(ENGINE, st[1][seat], *results[0][0])
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
