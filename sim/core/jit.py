"""Numba decorators shared by the game engines.

`njit_noalloc` is for small hot helpers that allocate no arrays: compiled without Numba's
reference-counting runtime, they borrow their array arguments instead of counting references to
them. Measured on the Chachapoya engine, atomic reference counting took over a third of the
run time before hot helpers were compiled this way (see BENCHMARKS.md). A helper marked so must not
create arrays (np.empty, np.zeros, copies); Numba refuses to compile it if it does.
"""
from numba import njit


def njit_noalloc(fn):
    return njit(cache=True, _nrt=False)(fn)
