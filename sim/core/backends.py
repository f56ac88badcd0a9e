"""Where chunks of games run: in this process on Numba threads (local), or as Dask tasks.

A chunk is the unit of work and of output: it plays games first .. first+n-1 of one cell and
writes its own Parquet part for each table, atomically. Whatever runs it, a chunk's rows depend
only on the job and the game indices, so the backend, worker count and chunk size never change
the data. The driver (sim/core/runner.py) records each finished chunk in the manifest.

Dask workers find the game by name in the registry and write the parts themselves, so on a
multi-machine cluster the output directory must be on a filesystem every worker sees.
"""
from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numba
import numpy as np

from sim.core import registry
from sim.core.dataset import build_tables, write_chunk_parts
from sim.core.errors import UserError
from sim.core.game import ChunkResult, Game, Params
from sim.core.lineup import seat_bot_matrix
from sim.core.sweep import PARAM_COLUMN_PREFIX, param_column

BACKENDS = ("local", "dask")
# on_tables(files, games, players): a chunk's part paths (relative to the run directory) and tables.
TablesHook = Callable[[list[str], Any, Any], None]
# Games per engine call within a chunk: Ctrl-C and the progress bar wait for at most one slice
# (a Numba kernel cannot be interrupted), about 10 s of Cuzco on two threads.
ENGINE_SLICE = 4_096

# How long to try reaching a --scheduler before giving up.
SCHEDULER_TIMEOUT = "20s"
# Numba's parallel kernels must not be launched from two threads of one process at once.
_ENGINE_LOCK = threading.Lock()


@dataclass(frozen=True)
class ChunkJob:
    """Everything a worker needs to play and write the chunks of one cell (picklable)."""

    game_name: str
    cell: int
    params: Params
    n_players: int
    bot_names: list[str]
    lineup: np.ndarray
    rotate: bool
    seed: int
    checked: bool
    out_dir: str
    partition: str = ""
    coords: dict[str, Any] = field(default_factory=dict)
    permute: bool = False


@dataclass(frozen=True)
class ChunkTask:
    cell: int
    index: int
    first_game: int
    n_games: int


def simulate_chunk(game: Game, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                   seed: int, first_game: int, n_games: int, checked: bool) -> ChunkResult:
    """game.simulate, tolerating uint64 wrap-around when Numba runs as plain Python."""
    if numba.config.DISABLE_JIT:
        with np.errstate(over="ignore"):
            return game.simulate(params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)
    return game.simulate(params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)


def chunk_tables(game: Game, job: ChunkJob, first_game: int, n_games: int, seat_bots: np.ndarray,
                 result: ChunkResult):
    """The games and players tables of a chunk, with a `param.<name>` column per swept value."""
    games, players = build_tables(result, game_name=game.name, variant_name=job.params.variant_name,
                                  run_seed=job.seed, n_players=job.n_players, bot_names=job.bot_names,
                                  seat_bots=seat_bots, first_game=first_game, n_games=n_games)
    for name, value in job.coords.items():
        games = games.append_column(PARAM_COLUMN_PREFIX + name, param_column(value, n_games))
    return games, players


def merge_results(parts: list[ChunkResult]) -> ChunkResult:
    """One ChunkResult from consecutive slices of games."""
    if len(parts) == 1:
        return parts[0]
    first = parts[0]
    return ChunkResult(
        game_columns={k: np.concatenate([p.game_columns[k] for p in parts]) for k in first.game_columns},
        player_columns={k: np.concatenate([p.player_columns[k] for p in parts]) for k in first.player_columns},
        categories=first.categories,
        failures=[f for p in parts for f in p.failures])


def simulate_sliced(game: Game, job: ChunkJob, seat_bots: np.ndarray, first_game: int, n_games: int,
                    on_games: Callable[[int], None] | None = None) -> ChunkResult:
    """Play a chunk in slices of ENGINE_SLICE games, or the game's smaller slice for slow bots
    (game i depends only on i: the same rows)."""
    size = game.engine_slice(job.bot_names) or ENGINE_SLICE
    parts = []
    for offset in range(0, n_games, size):
        count = min(size, n_games - offset)
        parts.append(simulate_chunk(game, job.params, job.n_players, job.bot_names,
                                    seat_bots[offset:offset + count], job.seed, first_game + offset, count,
                                    job.checked))
        if on_games is not None:
            on_games(count)
    return merge_results(parts)


@dataclass
class PlayedChunk:
    """A chunk the engine has played, waiting to be turned into tables and written."""

    game: Game
    job: ChunkJob
    task: ChunkTask
    seat_bots: np.ndarray
    result: ChunkResult
    started: float
    engine_seconds: float

    def write(self, on_tables: TablesHook | None = None) -> dict[str, Any]:
        """Write the chunk's parts; its manifest record."""
        task = self.task
        games, players = chunk_tables(self.game, self.job, task.first_game, task.n_games, self.seat_bots,
                                      self.result)
        self.result = None  # the tables hold the data now
        files = write_chunk_parts(Path(self.job.out_dir), self.job.partition, task.index, games, players)
        if on_tables is not None:
            on_tables(files, games, players)
        return {"cell": task.cell, "index": task.index, "first_game": task.first_game, "n_games": task.n_games,
                "files": files, "seconds": round(time.perf_counter() - self.started, 4),
                "engine_seconds": round(self.engine_seconds, 4)}


def run_chunk(game: Game, job: ChunkJob, task: ChunkTask, on_games: Callable[[int], None] | None = None,
              writer: Executor | None = None, on_tables: TablesHook | None = None) -> Future:
    """Play one chunk, then write its parts: on `writer` (one background thread, so the engine can play
    the next chunk meanwhile) or here. The Future of its manifest record, or of its engine failures
    (nothing written). on_tables(files, games, players) sees each chunk's tables once written."""
    started = time.perf_counter()
    seat_bots = seat_bot_matrix(job.lineup, task.first_game, task.n_games, job.rotate, job.permute)
    result = simulate_sliced(game, job, seat_bots, task.first_game, task.n_games, on_games)
    if result.failures:
        return _completed({"cell": task.cell, "index": task.index, "first_game": task.first_game,
                           "n_games": task.n_games,
                           "failures": [(int(g), str(m)) for g, m in result.failures]})
    played = PlayedChunk(game, job, task, seat_bots, result, started, time.perf_counter() - started)
    if writer is not None:
        return writer.submit(played.write, on_tables)
    return _completed(played.write(on_tables))


def _completed(record: dict[str, Any]) -> Future:
    future: Future = Future()
    future.set_result(record)
    return future


def warm_up(game: Game, job: ChunkJob) -> None:
    """Play one game so Numba compiles (or loads from its cache) before the progress bar starts."""
    seat_bots = seat_bot_matrix(job.lineup, 0, 1, job.rotate, job.permute)
    simulate_chunk(game, job.params, job.n_players, job.bot_names, seat_bots, job.seed, 0, 1, job.checked)


class LocalBackend:
    """Chunks one after another in this process, each spread over Numba threads."""

    name = "local"

    def __init__(self, game: Game, workers: int):
        self.game = game
        self.threads = min(workers, numba.config.NUMBA_NUM_THREADS)

    def __enter__(self):
        self._previous = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        return self

    def __exit__(self, *exc):
        numba.set_num_threads(self._previous)

    def warm_up(self, jobs: list[ChunkJob]) -> None:
        warm_up(self.game, jobs[0])

    def run(self, jobs: list[ChunkJob], tasks: list[ChunkTask], on_games: Callable[[int], None],
            on_tables: TablesHook | None = None) -> Iterator[dict[str, Any]]:
        """Records in task order. Chunk k is written on a background thread while the engine plays
        chunk k+1 (at most one chunk waits to be written); a chunk whose play is interrupted still
        yields the one before it, which is whole on disk."""
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="sim-writer") as writer:
            writing: Future | None = None
            for task in tasks:
                try:
                    played = run_chunk(self.game, jobs[task.cell], task, on_games, writer, on_tables)
                except BaseException:
                    if writing is not None:
                        yield writing.result()
                    raise
                if writing is not None:
                    yield writing.result()
                writing = played
                if played.done() and "failures" in played.result():
                    yield played.result()
                    return
            if writing is not None:
                yield writing.result()


def dask_run_chunk(job: ChunkJob, task: ChunkTask) -> dict[str, Any]:
    """A Dask task: one chunk on one worker thread (Numba itself single-threaded)."""
    game = registry.get_game(job.game_name)
    with _ENGINE_LOCK:
        previous = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            return run_chunk(game, job, task).result()
        finally:
            numba.set_num_threads(previous)


def engine_fingerprint() -> str:
    """Hash of this installation's compiled sources: a worker must run the driver's engine code."""
    from sim.numba_cache import source_fingerprint

    return source_fingerprint(Path(__file__).resolve().parents[1])


def dask_warm_up(job: ChunkJob) -> str:
    """Compile or load the engine on this worker; returns the worker's engine fingerprint."""
    game = registry.get_game(job.game_name)
    with _ENGINE_LOCK:
        warm_up(game, job)
    return engine_fingerprint()


class DaskBackend:
    """Chunks as tasks on a dask.distributed cluster: an existing one (scheduler address) or a
    LocalCluster of `workers` single-threaded processes started for the run."""

    name = "dask"

    def __init__(self, game: Game, workers: int, scheduler: str | None):
        self.game = game
        self.workers = workers
        self.scheduler = scheduler
        self.cluster = None
        self.client = None

    def __enter__(self):
        from dask.distributed import Client, LocalCluster

        if self.game.name not in registry.game_names():
            raise UserError(f"the dask backend runs registered games only, not {self.game.name}")
        try:
            if self.scheduler:
                self.client = Client(self.scheduler, timeout=SCHEDULER_TIMEOUT)
            else:
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None, silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
        except (OSError, TimeoutError) as exc:
            self.__exit__(None, None, None)
            where = f"the Dask scheduler at {self.scheduler}" if self.scheduler else "a Dask LocalCluster"
            raise UserError(f"cannot reach {where}: {' '.join(str(exc).split())}") from None
        return self

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def warm_up(self, jobs: list[ChunkJob]) -> None:
        addresses = list(self.client.scheduler_info()["workers"])
        if not addresses:
            raise UserError(f"the Dask cluster at {self.scheduler} has no workers")
        futures = [self.client.submit(dask_warm_up, jobs[0], workers=[address], pure=False,
                                      allow_other_workers=False) for address in addresses]
        ours = engine_fingerprint()
        for address, theirs in zip(addresses, self.client.gather(futures)):
            if theirs != ours:
                raise UserError(f"Dask worker {address} runs other engine code than this sim ({theirs} vs {ours}): "
                                f"install the same version on every worker")

    def run(self, jobs: list[ChunkJob], tasks: list[ChunkTask], on_games: Callable[[int], None],
            on_tables: TablesHook | None = None) -> Iterator[dict[str, Any]]:
        """Records as chunks finish; the workers write the parts, so on_tables is not called."""
        from dask.distributed import as_completed

        shared = self.client.scatter(jobs, broadcast=True)
        futures = [self.client.submit(dask_run_chunk, shared[task.cell], task, pure=False) for task in tasks]
        try:
            for future in as_completed(futures):
                record = future.result()
                on_games(record["n_games"])
                yield record
        finally:
            for future in futures:
                future.cancel()


def make_backend(name: str, game: Game, workers: int, scheduler: str | None):
    if name == "local":
        if scheduler:
            raise UserError("--scheduler needs --backend dask")
        return LocalBackend(game, workers)
    if name == "dask":
        return DaskBackend(game, workers, scheduler)
    raise UserError(f"unknown backend '{name}' (known: {', '.join(BACKENDS)})")
