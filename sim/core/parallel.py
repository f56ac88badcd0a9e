"""Spread a batch of games over threads from Python, for engines compiled with `nogil=True`.

A `prange` kernel costs Numba a parallel-loop analysis and three more libraries, each of which
re-optimises and re-emits the whole engine under it (half a minute of Cuzco's cold compile). A
plain loop over a range of games, released from the GIL and called here from a few threads,
plays the same games at the same speed. Each game writes only its own rows, so the tables are the
same whatever the number of threads or the blocks they take.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba

BLOCK = 32  # games per call: small enough to balance games of uneven length across threads

# One pool per thread count for the whole process: a run calls run_blocks once per engine slice
# (hundreds of times per million games), and idle pool threads cost nothing.
_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"sim-engine-{threads}")
        return _POOLS[threads]


def run_blocks(kernel: Callable[..., None], n_items: int, *args) -> None:
    """Call `kernel(lo, hi, *args)` over [0, n_items) in blocks, on as many threads as Numba is set
    to use in this thread (numba.set_num_threads), each thread taking the next block when free."""
    threads = max(1, min(numba.get_num_threads(), -(-n_items // BLOCK)))
    if threads == 1:
        kernel(0, n_items, *args)
        return
    starts = range(0, n_items, BLOCK)
    for _ in _pool(threads).map(lambda lo: kernel(lo, min(lo + BLOCK, n_items), *args), starts):
        pass
