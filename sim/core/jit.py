"""Numba decorators shared by the game engines.

`njit_noalloc` is for small hot helpers that allocate no arrays: compiled without Numba's
reference-counting runtime, they borrow their array arguments instead of counting references to
them. Measured on the Chachapoya engine, atomic reference counting took over a third of the
run time before hot helpers were compiled this way (see benchmarks/HISTORY.md). A helper marked so must not
create arrays (np.empty, np.zeros, copies); Numba refuses to compile it if it does.
"""
from llvmlite import binding as llvm_binding
from numba import config as numba_config, njit
from numba.core import cgutils


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
    decision) and holds much code under it: its callers call it by a symbol instead of linking in
    its code. Numba otherwise copies every callee's code into each caller and optimises and emits
    it again there, so each level over the engine costs as much compile time as the engine (issue
    13); the price is that the caller cannot inline it, nothing for a call made once a decision.

    The symbol is named after the function (`sim_level.<module>.<name>`), not Numba's mangled name,
    which holds a per-process counter: a caller cached by one process then finds the level whatever
    process compiled the level's own cache entry (two processes compiling the same engine at once
    into one cache). The level registers its address under that name when its module is imported
    (its declared signature compiles or loads it then), before any caller is compiled or loaded;
    so whatever it calls must be defined above it. Under NUMBA_DISABLE_JIT the function stays the
    plain Python function, as with every other decorator here."""
    def decorate(fn):
        dispatcher = njit_typed(signature)(fn)
        if numba_config.DISABLE_JIT:
            return dispatcher
        (result,) = dispatcher.overloads.values()
        symbol = f"sim_level.{fn.__module__}.{fn.__qualname__}"
        llvm_binding.add_symbol(symbol, result.library.get_pointer_to_function(result.fndesc.llvm_func_name))
        selector = dispatcher.targetctx._defns[result.entry_point]
        selector.versions[:] = [(sig, _call_by_symbol(result.fndesc, symbol)) for sig, _ in selector.versions]
        selector._cache.clear()
        return dispatcher
    return decorate


def _call_by_symbol(fndesc, symbol):
    """Numba's lowering of a call to a compiled function (numba.core.imputils.user_function), to
    `symbol` and without the function's library, so its code is not linked into the caller."""
    def call(context, builder, sig, args):
        fnty = context.call_conv.get_function_type(fndesc.restype, fndesc.argtypes)
        callee = cgutils.get_or_insert_function(builder.module, fnty, symbol)
        context.call_conv.decorate_function(callee, fndesc.args, fndesc.argtypes, noalias=fndesc.noalias)
        status, result = context.call_conv.call_function(builder, callee, fndesc.restype, fndesc.argtypes, args)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result
    call.signature = fndesc.argtypes
    call.libs = ()
    return call


def njit_inline(fn):
    """`njit_noalloc` whose body Numba copies into its compiled callers (inline="always") instead
    of compiling it as a function of its own. For orchestration called from one or two places
    (a game's round sequence): each compiled function re-optimises and re-emits the machine code
    of everything it calls, so a level of wrappers over the whole game costs as much compile time
    as the game itself. Not for helpers called from many places (the body is copied at each)."""
    return njit(cache=True, _nrt=False, inline="always")(fn)
