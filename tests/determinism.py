"""Shared determinism check: one seed, identical tables whatever the threads and chunking."""
from __future__ import annotations

import numba
import pandas as pd

from sim.core import runner
from sim.core.lineup import lineup_indices, seat_bot_matrix


def tables_by_threads_and_chunks(game, params, n_players, lineup, n_games, seed, chunk):
    """(games, players) played on 1 thread in one chunk, and on 2 threads in chunks of `chunk`."""
    names, idx = lineup_indices(lineup)
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        sb = seat_bot_matrix(idx, 0, n_games, True)
        one = runner.run_chunk_in_memory(game, params, n_players, names, sb, seed, 0, n_games)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        parts = []
        for first, count in runner.chunk_bounds(n_games, chunk):
            sb = seat_bot_matrix(idx, first, count, True)
            parts.append(runner.run_chunk_in_memory(game, params, n_players, names, sb, seed, first, count))
    finally:
        numba.set_num_threads(previous)
    many = (pd.concat([g for g, _ in parts], ignore_index=True),
            pd.concat([p for _, p in parts], ignore_index=True))
    return one, many


def assert_same_tables(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Frames equal row for row (categoricals compared by label: chunks may differ in categories)."""
    a, b = a.copy(), b.copy()
    for col in a.columns:
        if isinstance(a[col].dtype, pd.CategoricalDtype):
            a[col] = a[col].astype(str)
            b[col] = b[col].astype(str)
    pd.testing.assert_frame_equal(a, b)
