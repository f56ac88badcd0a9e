"""sim.core.parallel.run_blocks: every item exactly once, in blocks, on the threads Numba is set to."""
from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from sim.core import parallel


def covered(n_items: int, threads: int) -> tuple[np.ndarray, set[int], list[tuple[int, int]]]:
    """How often each item was played, the threads that played, and the blocks."""
    counts = np.zeros(n_items, np.int64)
    seen_threads: set[int] = set()
    blocks: list[tuple[int, int]] = []
    lock = threading.Lock()

    def kernel(lo, hi, out):
        with lock:
            seen_threads.add(threading.get_ident())
            blocks.append((lo, hi))
            out[lo:hi] += 1

    previous = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        parallel.run_blocks(kernel, n_items, counts)
    finally:
        numba.set_num_threads(previous)
    return counts, seen_threads, blocks


@pytest.mark.parametrize("n_items", [1, 2, 31, 40, 1000, 5 * parallel.MAX_BLOCK * 32 + 3])
@pytest.mark.parametrize("threads", [1, 2])
def test_every_item_is_played_exactly_once(n_items, threads):
    counts, _, blocks = covered(n_items, threads)
    assert (counts == 1).all()
    if threads > 1 and numba.config.NUMBA_NUM_THREADS > 1 and n_items > 1:
        assert all(hi - lo <= parallel.block_size(n_items, 2) for lo, hi in blocks)


def test_blocks_grow_with_the_slice_up_to_a_cap():
    """About 16 blocks per thread: a 40-game slice of the search bot in 20 blocks of 2, not in a
    block of 32 and one of 8 (one core idle for most of it); a 10,000-game slice in blocks of 313;
    a million in blocks of MAX_BLOCK."""
    assert parallel.block_size(40, 2) == 2 and parallel.block_size(1, 2) == 1
    assert parallel.block_size(10_000, 2) == 313
    assert parallel.block_size(1_000_000, 2) == parallel.MAX_BLOCK


def test_one_thread_plays_everything_in_one_call():
    counts, threads, blocks = covered(10 * parallel.MAX_BLOCK, 1)
    assert blocks == [(0, 10 * parallel.MAX_BLOCK)] and len(threads) == 1 and (counts == 1).all()


def test_no_items_is_no_call():
    counts, _, blocks = covered(0, 2)
    assert len(counts) == 0 and blocks in ([], [(0, 0)])



@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two Numba threads")
def test_calls_share_one_pool_of_threads():
    """A run calls run_blocks once per engine slice: the threads are made once, not per call."""
    seen: set[threading.Thread] = set()

    def kernel(lo, hi):
        seen.add(threading.current_thread())

    previous = numba.get_num_threads()
    numba.set_num_threads(2)
    try:
        for _ in range(5):
            parallel.run_blocks(kernel, 20 * parallel.MAX_BLOCK)
    finally:
        numba.set_num_threads(previous)
    assert 1 <= len(seen) <= 2 and threading.main_thread() not in seen
