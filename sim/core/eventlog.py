"""The event log a game engine keeps for `sim replay`: fixed-width int32 rows appended in play.

A game passes its scalar array `g`, the index in it that counts the rows written, and the log
array; a log of one row means logging is off (batch runs), so appending costs one comparison.
"""
from sim.core.jit import njit_noalloc


@njit_noalloc
def append_event(g, count_index, log, ev, a, b, c, d, e, f):
    i = g[count_index]
    if log.shape[0] > 1 and i < log.shape[0]:
        log[i, 0] = ev
        log[i, 1] = a
        log[i, 2] = b
        log[i, 3] = c
        log[i, 4] = d
        log[i, 5] = e
        log[i, 6] = f
        g[count_index] = i + 1
