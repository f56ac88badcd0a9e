"""The one line a first command prints before a long compile: "compiling the <game> engine once
(about N s); later runs start at once" (issue 37: the first command after set-up was silent for
minutes while it compiled every engine).

Kept apart from numba_cache.py on purpose: a file of `sim` that mentions Numba's decorator counts
in the cache key of every engine (numba_cache.py's docstring), and this one must not, so the word is
spelled in pieces below.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from sim.numba_cache import _BASE_ENV, _compiled_sources, group_folder

SECONDS_PER_KERNEL = 0.37  # cold compile on the 2-core machine: Cuzco's 247 compiled functions take about 90 s
KERNEL_MARK = ("@" + "nj" + "it").encode()  # spelled in pieces: see the module docstring
QUIET_ENV = "SIM_QUIET_COMPILE"  # set to 1: no notice even on a terminal


def compile_pending(game_dir: Path) -> bool:
    """Whether a game's compiled code (or the core helpers') is missing from the cache, so that
    importing it will compile: its cache folder holds no index file of a compiled function."""
    base = os.environ.get(_BASE_ENV) or ""
    if not base or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    return any(not any((Path(base) / group_folder(group)).rglob("*.nbi")) for group in (Path(game_dir), None))


def estimated_compile_seconds(game_dir: Path) -> int:
    """A rough cold-compile time of a game's engine here, from its number of compiled functions
    (rounded to 5 s)."""
    kernels = sum(p.read_bytes().count(KERNEL_MARK) for p in _compiled_sources(Path(game_dir), True))
    return max(5, int(round(kernels * SECONDS_PER_KERNEL / 5.0)) * 5)


def compile_notice(name: str, game_dir: Path, stream=None) -> bool:
    """Before the import that compiles a game's engine, when its cache is missing, one line on
    `stream` (default stderr, and then only on a terminal, so tests and pipes stay quiet). True if printed."""
    if stream is None:
        stream = sys.stderr
        if os.environ.get(QUIET_ENV, "") not in ("", "0") or not getattr(stream, "isatty", lambda: False)():
            return False
    if not compile_pending(game_dir):
        return False
    print(f"compiling the {name} engine once (about {estimated_compile_seconds(game_dir)} s); later runs start "
          f"at once", file=stream, flush=True)
    return True
