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


def njit_typed(signature: str | list[str]):
    """`njit_noalloc` compiled for one declared signature (or a short list of them). Callers passing
    int32 (read from a state array), int64, literal or bool arguments then share one machine-code
    version instead of compiling a version per combination of argument types (each version costs
    compile time, not speed)."""
    return njit(signature, cache=True, _nrt=False)


def njit_inline(fn):
    """`njit_noalloc` whose body Numba copies into its compiled callers (inline="always") instead
    of compiling it as a function of its own. For orchestration called from one or two places
    (a game's round sequence): each compiled function re-optimises and re-emits the machine code
    of everything it calls, so a level of wrappers over the whole game costs as much compile time
    as the game itself. Not for helpers called from many places (the body is copied at each)."""
    return njit(cache=True, _nrt=False, inline="always")(fn)
