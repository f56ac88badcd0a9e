"""Pig's forward model: turns, the end of the game, ranks, and the checked-mode invariant."""
import numpy as np
from numba import njit

from sim.core import rng
from sim.core.eventlog import append_event
from sim.core.jit import njit_noalloc

from .bots import wants_to_hold
from .state import (
    END_ROUND_LIMIT, END_TARGET, EV_BUST, EV_FINAL, EV_HOLD, EV_ROLL, EV_ROUND, LOG_CAPACITY, LOG_WIDTH,
    N_P, N_STATE, P_BANKED, P_BUSTS, P_RANK, P_ROLLS, P_SCORE, R_BUST_FACE, R_ROUND_LIMIT, R_SIDES,
    R_TARGET, S_END_REASON, S_ERROR, S_LOG_N, S_N_PLAYERS, S_PLAYERS, S_ROUND, S_WINNER,
)


@njit_noalloc
def log(state, events, ev, seat, a, b):
    append_event(state, S_LOG_N, events, ev, seat, a, b, 0, 0, 0)


@njit_noalloc
def play_turn(rules, state, stream, events, p, kind, weights):
    """Roll until the bot holds or the bust face comes up; returns True when p reached the target."""
    at = S_PLAYERS + p * N_P
    turn_total = 0
    while True:
        roll = rng.randint(stream, rules[R_SIDES]) + 1
        state[at + P_ROLLS] += 1
        if roll == rules[R_BUST_FACE]:
            state[at + P_BUSTS] += 1
            log(state, events, EV_BUST, p, turn_total, 0)
            return False
        turn_total += roll
        log(state, events, EV_ROLL, p, roll, turn_total)
        if wants_to_hold(rules, state, stream, p, kind, weights, turn_total):
            state[at + P_SCORE] += turn_total
            state[at + P_BANKED] += turn_total
            log(state, events, EV_HOLD, p, turn_total, state[at + P_SCORE])
            return state[at + P_SCORE] >= rules[R_TARGET]


@njit_noalloc
def rank_players(state):
    """Rank 1 is the best score; tied players share a rank."""
    n = state[S_N_PLAYERS]
    for p in range(n):
        better = 0
        for q in range(n):
            if state[S_PLAYERS + q * N_P + P_SCORE] > state[S_PLAYERS + p * N_P + P_SCORE]:
                better += 1
        state[S_PLAYERS + p * N_P + P_RANK] = better + 1


@njit_noalloc
def check_invariant(state):
    for p in range(state[S_N_PLAYERS]):
        if state[S_PLAYERS + p * N_P + P_SCORE] != state[S_PLAYERS + p * N_P + P_BANKED]:
            state[S_ERROR] = 1


@njit_noalloc
def play_game(rules, state, stream, events, kinds, weights, run_seed, game_index, checked):
    """Seat 0 starts; the first to reach the target wins at once, and a game still undecided after
    the round limit ends without a winner."""
    rng.seed_game_stream(stream, run_seed, game_index)
    n = state[S_N_PLAYERS]
    state[S_WINNER] = -1
    state[S_END_REASON] = END_ROUND_LIMIT
    while state[S_ROUND] < rules[R_ROUND_LIMIT] and state[S_WINNER] < 0:
        state[S_ROUND] += 1
        log(state, events, EV_ROUND, 0, state[S_ROUND], 0)
        for p in range(n):
            if play_turn(rules, state, stream, events, p, kinds[p], weights[p]):
                state[S_WINNER] = p
                state[S_END_REASON] = END_TARGET
                break
            if checked:
                check_invariant(state)
    rank_players(state)
    for p in range(n):
        log(state, events, EV_FINAL, p, state[S_PLAYERS + p * N_P + P_SCORE], state[S_PLAYERS + p * N_P + P_RANK])


@njit(cache=True)
def run_one(rules, n_players, kinds, weights, run_seed, game_index, checked, logging):
    """One game's arrays, played (the batch kernel, tests and replay call this)."""
    state = np.zeros(N_STATE, np.int32)
    state[S_N_PLAYERS] = n_players
    stream = np.zeros(rng.STATE_WORDS, np.uint64)
    events = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int32)
    play_game(rules, state, stream, events, kinds, weights, run_seed, game_index, checked)
    return state, events


@njit(cache=True, nogil=True)
def play_batch(lo, hi, rules, seat_bots, bot_kinds, bot_weights, run_seed, first_game, checked, out_state):
    """Games lo..hi-1 of the chunk (sim.core.parallel.run_blocks spreads the blocks over threads,
    as the real games do); game i plays from the stream of (run_seed, first_game + i)."""
    n_players = seat_bots.shape[1]
    for i in range(lo, hi):
        kinds = bot_kinds[seat_bots[i]]
        weights = bot_weights[seat_bots[i]]
        state, _ = run_one(rules, n_players, kinds, weights, run_seed, first_game + np.uint64(i), checked, False)
        out_state[i, :] = state
