"""The Tahuantinsuyu search bot (sim/games/tahuantinsuyu/search.py): legality, determinism, hidden
information and a built state where one action clearly wins.

Rulebook sections: Setup (RI chips face down; Sun cards dealt; the invasion tiles face down beside
the last column), Sun Phase (cards drawn from a face-down pile), People Phase (the actions a turn
offers: the decision searched), How Do I Win? (whoever is ahead on the scoring track).
"""
from __future__ import annotations

import numpy as np

from tahuantinsuyu_helpers import Table
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.tahuantinsuyu import GAME, data
from sim.games.tahuantinsuyu import bots as B
from sim.games.tahuantinsuyu import game as G
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import search as X
from sim.games.tahuantinsuyu import state as S

N = 4
LINE_UP = ["search", "conqueror-tuned", "road-network-tuned", "pilgrim-tuned"]


def _play(names, n_games, seed, checked=False):
    """n_games of the line-up, seats rotated, through the batch kernel: (errors, per-seat P_WON, P_VP,
    decisions a game)."""
    kinds, weights = GAME.bot_arrays(names)
    bot_names, idx = lineup_indices(names)
    seat_bots = seat_bot_matrix(idx, 0, n_games, True).astype(np.int8)
    with_search = G.search_flag(kinds, seat_bots)
    budgets = G.search_budgets_of(bot_names, with_search)
    out_game = np.zeros((n_games, 2), np.int64)
    out_player = np.zeros((n_games * N, 2), np.int64)
    errors = np.zeros(n_games, np.int64)
    G.play_games(0, n_games, GAME.resolve_params(None).engine, N, seat_bots, kinds, weights, budgets,
                 np.uint64(seed), np.uint64(0), checked, with_search, np.array([S.S_ACTIONS, S.S_ENDED], np.int64),
                 np.array([S.P_WON, S.P_VP], np.int64), out_game, out_player, errors, np.zeros((1, S.LOG_WIDTH), np.int64),
                 np.zeros(0, np.int64))
    return errors, out_player.reshape(n_games, N, 2), out_game, seat_bots


def test_search_games_are_legal_to_the_end_with_every_invariant_checked():
    """Two games of the search bot against three tuned styles and one four-search mirror, in checked
    mode: no engine error, each game ranked (How Do I Win?: one winner)."""
    for names, games in ((LINE_UP, 2), (["search"] * N, 1)):
        errors, players, out_game, _ = _play(names, games, seed=11, checked=True)
        assert (errors == 0).all()
        assert (out_game[:, 1] == 1).all()  # S_ENDED: ranked
        assert (players[:, :, 0].sum(axis=1) == 1).all()


def test_a_search_game_depends_only_on_its_seed():
    """The same seed plays the same games (the searches draw from streams of their own, keyed by the
    seed, the game and the decision); another seed plays others."""
    first = _play(LINE_UP, 2, seed=5)[1]
    again = _play(LINE_UP, 2, seed=5)[1]
    other = _play(LINE_UP, 2, seed=6)[1]
    assert (first == again).all()
    assert not (first == other).all()


def test_replay_of_a_search_game_is_the_batch_game():
    """`sim replay` plays a search line-up through the same kernel: its final scores are the batch's."""
    kinds, weights = GAME.bot_arrays(LINE_UP)
    budgets = data.search_budgets(LINE_UP)
    st, log = G.play_one_logged(GAME.resolve_params(None).engine, N, np.arange(N), kinds, weights, budgets, 5, 0)
    _, players, _, seat_bots = _play(LINE_UP, 1, seed=5)
    assert (seat_bots[0] == np.arange(N)).all()
    assert [int(st[S.seat_at(p) + S.P_VP]) for p in range(N)] == players[0, :, 1].tolist()
    assert int(st[S.S_LOG_N]) > 100


def _weights(name):
    return GAME.bots()[name].weights.astype(np.float64)


def _stop_in_last_round(seed=4):
    """A game of heuristic bots with seat 0 a search seat, stopped at seat 0's first action of the last
    round's first People phase, after which Pizarro comes (one invasion tile): (table, stop)."""
    t = Table(N, seed=seed)
    t.P = t.P.copy()
    t.P[S.H_INVASION] = 1
    t.st[S.S_PIZARRO] = 0
    t.kinds[:] = S.KIND_HEURISTIC
    t.kinds[0] = S.KIND_SEARCH
    t.W = np.ascontiguousarray(np.tile(_weights("builder-tuned"), (N, 1)))
    R.start_round(t.st, t.log, 0)
    resume = R.NEW_ROUND
    last = int(t.P[S.H_N_ROUNDS]) - 1
    while True:
        stop = R.play_from(t.P, t.st, t.stream, t.log, t.kinds, t.W, True, resume, R.NO_CUT)
        assert stop >= 0, "the game ended before the search seat's turn in the last round"
        n = R.list_turn(t.P, t.st, 0)
        if t.st[S.S_ROUND] == last:
            return t, stop, n
        resume = R.carry_out_choice(t.P, t.st, t.stream, t.log, t.kinds, t.W, 0,
                                    R.ask(t.P, t.st, t.stream, t.kinds, t.W, 0, S.DEC_TURN, n), stop)


def test_the_search_takes_the_action_that_wins_where_its_heuristic_would_end_the_turn():
    """Last People phase (Pizarro follows it: How Do I Win?): seat 0 trails the leader's final score
    by one point, the others have nothing left to do, its road action is spent. Its heuristic (labour
    priced at 100 points) ends the turn, which loses; the search plays each candidate to the end and
    takes an action that scores and wins."""
    t, stop, _ = _stop_in_last_round()
    st = t.st
    for p in range(N):
        at = S.seat_at(p)
        st[at + S.P_ROAD_DONE] = 1
        st[at + S.P_PILGRIM_DONE] = 1
        if p != 0:
            st[at + S.P_BUILD_DONE] = 1
    supply = int(st[S.S_LABOUR])
    st[S.seat_at(0) + S.P_LABOUR] += min(20, supply)
    st[S.S_LABOUR] -= min(20, supply)
    final = [int(st[S.seat_at(p) + S.P_VP]) + X.standing_sapa_inca_vp(t.P, st, p) for p in range(N)]
    gap = max(final[1:]) - 1 - final[0]  # seat 0 one point behind, by Sun-card VP (the sources add up)
    seat = 0 if gap >= 0 else 1 + int(np.argmax(final[1:]))
    for field in (S.P_VP, S.P_VP_CARDS):
        st[S.seat_at(seat) + field] += abs(gap)
    n = R.list_turn(t.P, st, 0)
    acts = [int(R.option(st, i, S.O_A)) for i in range(n)]
    assert any(a in (S.ACT_CITY, S.ACT_TEMPLE, S.ACT_GARRISON, S.ACT_CONQUER) for a in acts)
    w = t.W[0].copy()
    w[S.W_LABOUR] = 100.0
    w[S.W_NOISE] = 0.0
    heuristic = B.choose(t.P, st, t.stream, S.KIND_HEURISTIC, w, 0, S.DEC_TURN, n)
    assert acts[heuristic] == S.ACT_END
    ended, ended_stream, kinds, W = st.copy(), t.stream.copy(), np.full(N, S.KIND_HEURISTIC, np.int8), t.W.copy()
    W[0] = w
    resume = R.carry_out_choice(t.P, ended, ended_stream, t.log, kinds, W, 0, heuristic, stop)
    R.play_from(t.P, ended, ended_stream, t.log, kinds, W, True, resume, R.NO_CUT)
    assert ended[S.S_ERROR] == 0 and ended[S.S_WINNER] != 0  # ending the turn loses
    cfg = data.search_budgets(["search"])[0].copy()
    cfg[X.CFG_CANDIDATES] = n
    ctx = X.new_search_context(N, w.shape[0])
    picked = X.search_choice(t.P, st, 0, n, w, cfg, stop, np.uint64(1), np.uint64(0), ctx)
    assert acts[picked] != S.ACT_END
    resume = R.carry_out_choice(t.P, st, t.stream, t.log, t.kinds, t.W, 0, picked, stop)
    t.kinds[0] = S.KIND_HEURISTIC
    t.W[0] = w
    assert R.play_from(t.P, st, t.stream, t.log, t.kinds, t.W, True, resume, R.NO_CUT) == R.GAME_OVER
    assert st[S.S_ERROR] == 0 and st[S.S_WINNER] == 0


def test_determinisation_deals_the_face_down_pieces_again_and_keeps_what_the_seat_sees():
    """Setup's face-down RI chips, the other Sun hands and the draw pile are dealt again from their
    pool: the seat's own hand, every face-up chip, each hand's and the pile's size stay, nothing is
    created or lost; Pizarro's People phase is drawn among those not yet passed."""
    t = Table(N, seed=9)
    before = t.st.copy()
    stream = np.zeros_like(t.stream)
    R.rng.seed_game_stream(stream, np.uint64(1), np.uint64(2))
    X.determinise(t.P, t.st, stream, 0, np.zeros(256, np.int64))
    st = t.st
    regions = range(int(st[S.S_N_REGIONS]))
    up = [r for r in regions if before[S.S_CHIP + r] >= 0 and before[S.S_REVEALED + r] == 1]
    down = [r for r in regions if before[S.S_CHIP + r] >= 0 and before[S.S_REVEALED + r] == 0]
    assert up and down
    assert all(st[S.S_CHIP + r] == before[S.S_CHIP + r] for r in up)
    assert any(st[S.S_CHIP + r] != before[S.S_CHIP + r] for r in down)
    chips = [int(st[S.S_CHIP + r]) for r in regions if st[S.S_CHIP + r] >= 0]
    assert len(set(chips)) == len(chips)
    hand = slice(S.seat_at(0) + S.P_HAND, S.seat_at(0) + S.P_HAND + S.HAND)
    assert (st[hand] == before[hand]).all()

    def cards(state):
        pile = list(state[S.S_DRAW:S.S_DRAW + state[S.S_DRAW_N]])
        hands = [state[S.seat_at(p) + S.P_HAND + i] for p in range(1, N) for i in range(S.HAND)]
        return sorted(pile + [c for c in hands if c >= 0])
    assert cards(st) == cards(before) and st[S.S_DRAW_N] == before[S.S_DRAW_N]
    assert 0 <= st[S.S_PIZARRO] < t.P[S.H_INVASION]


def test_the_round_loop_resumed_at_every_action_plays_the_game_the_heuristic_plays():
    """rules.play_from stopped at each People-phase action of a search seat and resumed after it
    (no rollouts: the seat asks its heuristic) plays exactly the heuristic's game: every seat's VP,
    every decision counted, the same winner."""
    P = GAME.resolve_params(None).engine
    W = np.ascontiguousarray(np.tile(_weights("builder-tuned"), (N, 1)))
    cfg = np.zeros((N, X.N_CFG), np.float64)
    for game in range(2):
        ends = []
        for kind in (S.KIND_HEURISTIC, S.KIND_SEARCH):
            kinds = np.full(N, S.KIND_HEURISTIC, np.int8)
            kinds[game % N] = kind
            st, stream, log = R.new_game_arrays(False)
            if kind == S.KIND_SEARCH:
                X.play_game_search(P, st, stream, log, kinds, W, cfg, N, np.uint64(8), np.uint64(game), True)
            else:
                R.play_game(P, st, stream, log, kinds, W, N, np.uint64(8), np.uint64(game), True)
            ends.append(st)
        assert ends[0][S.S_ERROR] == 0 and ends[0][S.S_ENDED] == 1
        assert (ends[0] == ends[1]).all()
