"""Run many games of one configuration and write them as a Parquet dataset.

Everything is validated before the output directory is created, and the directory is removed
again if anything goes wrong, so a dataset directory with a manifest is always complete.
"""
from __future__ import annotations

import datetime as dt
import platform
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm import tqdm

import sim
from sim.core.dataset import DatasetWriter, build_tables
from sim.core.errors import EngineFailure, UserError
from sim.core.game import ChunkResult, Game, Params
from sim.core.lineup import seat_bot_matrix

MAX_SEED = 2**63 - 1


def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first_game, n_games) of each chunk."""
    return [(first, min(chunk_size, n_games - first)) for first in range(0, n_games, chunk_size)]


def simulate_chunk(game: Game, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                   seed: int, first_game: int, n_games: int, checked: bool) -> ChunkResult:
    """game.simulate, tolerating uint64 wrap-around when Numba runs as plain Python."""
    if numba.config.DISABLE_JIT:
        with np.errstate(over="ignore"):
            return game.simulate(params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)
    return game.simulate(params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)


def _tables(game: Game, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
            seed: int, first_game: int, n_games: int, result: ChunkResult) -> tuple[pa.Table, pa.Table]:
    return build_tables(result, game_name=game.name, variant_name=params.variant_name, run_seed=seed,
                        n_players=n_players, bot_names=bot_names, seat_bots=seat_bots,
                        first_game=first_game, n_games=n_games)


def run_chunk_in_memory(game: Game, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                        seed: int, first_game: int, n_games: int, checked: bool = False
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, players) DataFrames of one chunk, built exactly as the dataset writer builds them."""
    result = simulate_chunk(game, params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)
    games, players = _tables(game, params, n_players, bot_names, seat_bots, seed, first_game, n_games, result)
    return games.to_pandas(), players.to_pandas()


def replay_command(game_name: str, seed: int, game_index: int, n_players: int, lineup_names: list[str],
                   rotate: bool, variant_path: str | None) -> str:
    """The `sim replay` command line that reproduces one game of a run."""
    args = ["sim", "replay", game_name, "--seed", str(seed), "--game-index", str(game_index),
            "--players", str(n_players), "--bots", ",".join(lineup_names)]
    if variant_path is not None:
        args += ["--variant", str(variant_path)]
    if rotate:
        args.append("--rotate-seats")
    return shlex.join(args)


def source_commit() -> tuple[str | None, bool | None]:
    """(git commit, uncommitted changes under sim/) of the running source tree; None if not a checkout."""
    package_dir = Path(sim.__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=package_dir, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None, None
        status = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=package_dir,
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None, None
    dirty = bool(status.stdout.strip()) if status.returncode == 0 else None
    return head.stdout.strip(), dirty


def validate_run(game: Game, params: Params, n_players: int, bot_names: list[str], lineup: np.ndarray,
                 n_games: int, seed: int, out_dir: str | Path, workers: int, chunk_size: int) -> None:
    """Every check a run needs, so nothing is created for a run that cannot succeed."""
    if Path(out_dir).exists():
        raise UserError(f"output directory {out_dir} already exists")
    if n_games < 1:
        raise UserError(f"--games must be at least 1 (got {n_games})")
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {seed})")
    if workers < 1:
        raise UserError(f"--workers must be at least 1 (got {workers})")
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1 (got {chunk_size})")
    allowed = tuple(game.allowed_players(params))
    if n_players not in allowed:
        raise UserError(f"{game.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                        f"players, not {n_players}")
    if len(lineup) != n_players:
        raise UserError(f"the line-up has {len(lineup)} bots but the game has {n_players} players")
    known = game.bots()
    for name in bot_names:
        if name not in known:
            raise UserError(f"unknown bot '{name}' for {game.name} (known: {', '.join(sorted(known))})")
    if len(lineup) and not 0 <= int(np.min(lineup)) <= int(np.max(lineup)) < len(bot_names):
        raise UserError("the line-up refers to a bot index outside the bot list")


def run(
    game: Game,
    params: Params,
    n_players: int,
    bot_names: list[str],
    lineup: np.ndarray,
    rotate: bool,
    n_games: int,
    seed: int,
    out_dir: str | Path,
    workers: int,
    chunk_size: int,
    checked: bool = False,
    progress: bool = True,
    variant_path: str | None = None,
) -> dict[str, Any]:
    """Simulate games 0 .. n_games-1 in chunks, write the dataset to out_dir, return its manifest.

    bot_names: the distinct bots of the run; lineup: index into bot_names for each seat
    (see sim.core.lineup.lineup_indices). variant_path is recorded in the manifest and in the
    replay command of an engine failure.
    """
    lineup = np.asarray(lineup, dtype=np.int8)
    validate_run(game, params, n_players, bot_names, lineup, n_games, seed, out_dir, workers, chunk_size)
    out_dir = Path(out_dir)
    lineup_names = [bot_names[i] for i in lineup]
    threads = min(workers, numba.config.NUMBA_NUM_THREADS)
    previous_threads = numba.get_num_threads()
    numba.set_num_threads(threads)
    started = time.perf_counter()
    engine_seconds = writing_seconds = 0.0
    chunks: list[dict[str, Any]] = []
    writer = DatasetWriter(out_dir)
    try:
        if progress:  # Numba compiles the engine on first use; keep that out of the bar's rate
            print("loading the engine (compiled on first use, then cached)...", file=sys.stderr, flush=True)
        simulate_chunk(game, params, n_players, bot_names, seat_bot_matrix(lineup, 0, 1, rotate), seed, 0, 1,
                       checked)
        with tqdm(total=n_games, unit="games", unit_scale=True, disable=not progress,
                  dynamic_ncols=True, smoothing=0.1) as bar:
            for index, (first, count) in enumerate(chunk_bounds(n_games, chunk_size)):
                t0 = time.perf_counter()
                seat_bots = seat_bot_matrix(lineup, first, count, rotate)
                result = simulate_chunk(game, params, n_players, bot_names, seat_bots, seed, first, count, checked)
                t1 = time.perf_counter()
                if result.failures:
                    raise EngineFailure(_failure_message(game, params, n_players, lineup_names, rotate, seed,
                                                         variant_path, result.failures))
                games, players = _tables(game, params, n_players, bot_names, seat_bots, seed, first, count, result)
                del result
                files = writer.write_chunk(index, games, players)
                t2 = time.perf_counter()
                engine_seconds += t1 - t0
                writing_seconds += t2 - t1
                chunks.append({"index": index, "first_game": first, "n_games": count, "files": files,
                               "seconds": round(t2 - t0, 4)})
                bar.update(count)
        total = time.perf_counter() - started
        commit, dirty = source_commit()
        manifest = {
            "status": "complete",
            "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "sim_version": sim.__version__,
            "git_commit": commit,
            "git_dirty": dirty,
            "config": {
                "game": game.name,
                "players": n_players,
                "games": n_games,
                "seed": seed,
                "bots": lineup_names,
                "rotate_seats": rotate,
                "variant": params.variant_name,
                "variant_path": None if variant_path is None else str(variant_path),
                "workers": workers,
                "numba_threads": threads,
                "chunk_size": chunk_size,
                "checked": checked,
                "jit": not numba.config.DISABLE_JIT,
            },
            "params": params.resolved,
            "seed": seed,
            "environment": {
                "python": platform.python_version(),
                "numba": numba.__version__,
                "numpy": np.__version__,
                "pyarrow": pa.__version__,
                "platform": platform.platform(),
            },
            "tables": {"games": "games", "players": "players"},
            "chunks": chunks,
            "timings": {
                "total_seconds": round(total, 4),
                "engine_seconds": round(engine_seconds, 4),
                "writing_seconds": round(writing_seconds, 4),
                "games_per_second": round(n_games / total, 1) if total > 0 else None,
            },
        }
        writer.write_manifest(manifest)
    except BaseException:
        shutil.rmtree(out_dir, ignore_errors=True)
        raise
    finally:
        numba.set_num_threads(previous_threads)
    return manifest


def _failure_message(game: Game, params: Params, n_players: int, lineup_names: list[str], rotate: bool,
                     seed: int, variant_path: str | None, failures: list[tuple[int, str]]) -> str:
    game_index, message = min(failures)
    more = f" (and {len(failures) - 1} more in this chunk)" if len(failures) > 1 else ""
    command = replay_command(game.name, seed, int(game_index), n_players, lineup_names, rotate, variant_path)
    detail = " ".join(str(message).split())
    return (f"engine failure in game {game_index} of run seed {seed}: {detail}{more}; "
            f"nothing was written; reproduce with: {command}")
