"""Machu Picchu bots: every decision the rulebook gives a player, asked with its options listed.

The rules list a decision's options in the state (st[S_OPTIONS + i * N_OPT + O_*], meaning by
decision code in state.py DEC_*) and call `choose`, which returns the index of the option taken.
The random-legal bot takes any listed option with equal chance: the floor other bots must beat.
"""
from sim.core import rng
from sim.core.jit import njit_typed

from .state import T_PARAMS, T_STATE, T_STREAM


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, int64, float64[::1], int64, int64, int64)")
def choose(P, st, stream, kind, weights, p, decision, n_options):
    """The index of the option seat p takes among the n_options the rules listed for `decision`."""
    return rng.randint(stream, n_options)
