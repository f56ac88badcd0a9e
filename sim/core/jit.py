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


def njit_level(signature: str):
    """`njit_typed` for a level of an engine that is called rarely (once a game, a round or a
    decision) and holds much code under it: its callers call it by its symbol instead of linking in
    its code. Numba otherwise copies every callee's code into each caller and optimises and emits
    it again there, so each level over the engine costs as much compile time as the engine (issue
    13); the price is that the caller cannot inline it, nothing for a call made once a decision.
    The function must be compiled before its callers are (a declared signature compiles it when
    its module is imported, and a cached caller then finds it loaded)."""
    def decorate(fn):
        dispatcher = njit(signature, cache=True, _nrt=False)(fn)
        for result in dispatcher.overloads.values():
            for _, call in dispatcher.targetctx._defns[result.entry_point].versions:
                call.libs = ()  # the compiled code Numba would link into each caller
        return dispatcher
    return decorate


def njit_inline(fn):
    """`njit_noalloc` whose body Numba copies into its compiled callers (inline="always") instead
    of compiling it as a function of its own. For orchestration called from one or two places
    (a game's round sequence): each compiled function re-optimises and re-emits the machine code
    of everything it calls, so a level of wrappers over the whole game costs as much compile time
    as the game itself. Not for helpers called from many places (the body is copied at each)."""
    return njit(cache=True, _nrt=False, inline="always")(fn)
