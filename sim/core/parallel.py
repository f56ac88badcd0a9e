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

BLOCKS_PER_THREAD = 16  # a slice is cut into about this many blocks per thread, taken as threads free up
MAX_BLOCK = 1024  # games per call at most (a call's fixed cost is a few hundred µs at most)

# One pool per thread count for the whole process: a run calls run_blocks once per engine slice
# (hundreds of times per million games), and idle pool threads cost nothing.
_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    with _POOLS_LOCK:
        if threads not in _POOLS:
            _POOLS[threads] = ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"sim-engine-{threads}")
        return _POOLS[threads]


def block_size(n_items: int, threads: int) -> int:
    """Items per kernel call: about BLOCKS_PER_THREAD blocks per thread, so the threads finish a
    slice together whatever its size (a fixed block of 32 games left one core idle for most of a
    40-game slice of the search bot's one-second games), at most MAX_BLOCK, at least 1."""
    return max(1, min(MAX_BLOCK, -(-n_items // (threads * BLOCKS_PER_THREAD))))


def run_blocks(kernel: Callable[..., None], n_items: int, *args) -> None:
    """Call `kernel(lo, hi, *args)` over [0, n_items) in blocks (block_size), on as many threads as
    Numba is set to use in this thread (numba.set_num_threads), each thread taking the next block
    when free."""
    threads = max(1, min(numba.get_num_threads(), n_items))
    if threads == 1:
        kernel(0, n_items, *args)
        return
    block = block_size(n_items, threads)
    for _ in _pool(threads).map(lambda lo: kernel(lo, min(lo + block, n_items), *args), range(0, n_items, block)):
        pass
