"""Pig bots: the one decision of the game, hold or roll again."""
from sim.core import rng
from sim.core.jit import njit_noalloc

from .state import KIND_RANDOM, N_P, P_SCORE, R_TARGET, S_N_PLAYERS, S_PLAYERS, W_CHASE, W_FINISH, W_HOLD_AT


@njit_noalloc
def leader_lead(state, p):
    """Points the best other player is ahead of seat p (negative when p leads)."""
    best = -1_000_000
    for q in range(state[S_N_PLAYERS]):
        if q != p:
            best = max(best, state[S_PLAYERS + q * N_P + P_SCORE])
    return best - state[S_PLAYERS + p * N_P + P_SCORE]


@njit_noalloc
def wants_to_hold(rules, state, stream, p, kind, weights, turn_total):
    """A random bot tosses a coin; a heuristic holds at its threshold, raised when behind, and
    always when the turn total wins (finish = 1)."""
    if kind == KIND_RANDOM:
        return rng.uniform(stream) < 0.5
    if weights[W_FINISH] > 0.5 and state[S_PLAYERS + p * N_P + P_SCORE] + turn_total >= rules[R_TARGET]:
        return True
    return turn_total >= weights[W_HOLD_AT] + weights[W_CHASE] * max(0, leader_lead(state, p))
