"""Run many games of one configuration (or of every cell of a sweep) as a Parquet dataset.

Everything is validated before the output directory is created. The manifest is written at the
start with status "running" and rewritten (atomically) each time a chunk's parts are in place,
so a run killed at any moment leaves a directory that `--resume` finishes: it replays exactly
the chunks the manifest does not list, and the finished dataset holds every game once, the same
rows an uninterrupted run writes. Readers accept only status "complete".
"""
from __future__ import annotations

import contextlib
import datetime as dt
import json
import platform
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm import tqdm

import sim
from sim.core.backends import BACKENDS, ChunkJob, ChunkTask, TablesHook, make_backend, simulate_chunk
from sim.core.dataset import (MANIFEST, build_tables, cell_params, create_run_dir, read_any_manifest,
                              remove_temporary_files, write_json_atomic)
from sim.core.errors import EngineFailure, Interrupted, UserError
from sim.core.game import Game, Params
from sim.core.lineup import check_seating, lineup_indices
from sim.core.params import strip_provenance
from sim.core.sweep import LINEUP, PLAYERS, TABLE, Cell, command_value

MAX_SEED = 2**63 - 1
# Configuration keys that do not change the data: a run may be resumed with other values.
EXECUTION_KEYS = ("workers", "numba_threads", "backend", "scheduler", "jit")
# Configuration keys added after datasets were written without them, with the value those datasets
# were played with (so an older dataset still resumes and grows).
LATER_KEYS = {"permute_seats": False}
# The configuration key of the bots' definitions (bot_definitions); a dataset written before it
# existed does not record them, so its bots are taken as the same ones.
BOT_DEFINITIONS = "bot_definitions"

__all__ = ["run", "run_plan", "RunPlan", "chunk_bounds", "run_chunk_in_memory", "simulate_chunk", "BACKENDS"]


def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first_game, n_games) of each chunk."""
    return [(first, min(chunk_size, n_games - first)) for first in range(0, n_games, chunk_size)]


def run_chunk_in_memory(game: Game, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                        seed: int, first_game: int, n_games: int, checked: bool = False
                        ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, players) DataFrames of one chunk, built exactly as the dataset writer builds them."""
    result = simulate_chunk(game, params, n_players, bot_names, seat_bots, seed, first_game, n_games, checked)
    games, players = build_tables(result, game_name=game.name, variant_name=params.variant_name, run_seed=seed,
                                  n_players=n_players, bot_names=bot_names, seat_bots=seat_bots,
                                  first_game=first_game, n_games=n_games)
    return games.to_pandas(), players.to_pandas()


def replay_command(game_name: str, seed: int, game_index: int, n_players: int, lineup_names: list[str],
                   rotate: bool, variant_path: str | None, overrides: dict[str, Any] | None = None,
                   permute: bool = False) -> str:
    """The `sim replay` command line that reproduces one game of a run (or of a sweep cell)."""
    args = ["sim", "replay", game_name, "--seed", str(seed), "--game-index", str(game_index),
            "--players", str(n_players), "--bots", ",".join(lineup_names)]
    if variant_path is not None:
        args += ["--variant", str(variant_path)]
    for name, value in (overrides or {}).items():
        args += ["--param", f"{name}={command_value(value)}"]
    if rotate:
        args.append("--rotate-seats")
    if permute:
        args.append("--permute-seats")
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


@dataclass
class RunPlan:
    """What a run plays: one or more cells of the same game, each n_games games from one seed.

    grid is None for a plain run (`sim run`, one cell) and {name: values} for a sweep; overrides
    are the --param values every cell shares. rotate / permute: the seating (sim.core.lineup.
    seat_bot_matrix; at most one of them).
    """

    game: Game
    cells: list[Cell]
    n_games: int
    seed: int
    rotate: bool
    chunk_size: int
    checked: bool = False
    variant_path: str | None = None
    grid: dict[str, list[Any]] | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    bots_spec: str | None = None
    # Extra top-level manifest entries of the caller's (a tournament records its bots and line-ups).
    manifest_extra: dict[str, Any] = field(default_factory=dict)
    permute: bool = False

    @property
    def is_sweep(self) -> bool:
        return self.grid is not None

    def tasks(self) -> list[ChunkTask]:
        return [ChunkTask(cell, index, first, count)
                for cell in range(len(self.cells))
                for index, (first, count) in enumerate(chunk_bounds(self.n_games, self.chunk_size))]

    def jobs(self, out_dir: Path) -> list[ChunkJob]:
        jobs = []
        for index, cell in enumerate(self.cells):
            bot_names, lineup = cell_bots(cell)
            jobs.append(ChunkJob(game_name=self.game.name, cell=index, params=cell.params, n_players=cell.n_players,
                                 bot_names=bot_names, lineup=lineup, rotate=self.rotate, seed=self.seed,
                                 checked=self.checked, out_dir=str(out_dir), partition=cell.partition,
                                 coords=dict(cell.coords), permute=self.permute))
        return jobs

    def config(self, workers: int, backend: str, scheduler: str | None) -> dict[str, Any]:
        first = self.cells[0]
        config: dict[str, Any] = {
            "game": self.game.name,
            "players": None if self.is_sweep and PLAYERS in self.grid else first.n_players,
            "games": self.n_games,
            "seed": self.seed,
            "bots": None if self.is_sweep else first.lineup_names,
            "rotate_seats": self.rotate,
            "permute_seats": self.permute,
            "variant": None if self.is_sweep else first.params.variant_name,
            "variant_path": None if self.variant_path is None else str(self.variant_path),
            "workers": workers,
            "numba_threads": min(workers, numba.config.NUMBA_NUM_THREADS) if backend == "local" else 1,
            "backend": backend,
            "scheduler": scheduler,
            "chunk_size": self.chunk_size,
            "checked": self.checked,
            "jit": not numba.config.DISABLE_JIT,
        }
        if self.overrides:
            config["overrides"] = self.overrides
        if self.is_sweep:
            config["bots_spec"] = self.bots_spec
            config["grid"] = self.grid
        config[BOT_DEFINITIONS] = bot_definitions(self.game, [name for cell in self.cells
                                                              for name in cell_bots(cell)[0]])
        return config

    def cells_manifest(self) -> list[dict[str, Any]]:
        """One entry per cell; a cell's resolved parameters only where they differ from the first
        cell's (the manifest's `params`), which keeps a 126-line-up tournament's manifest small."""
        shared = self.cells[0].params.resolved
        entries = []
        for cell in self.cells:
            entry = {"coords": cell.coords, "partition": cell.partition, "players": cell.n_players,
                     "bots": cell.lineup_names, "variant": cell.params.variant_name}
            if cell.params.resolved != shared:
                entry["params"] = cell.params.resolved
            entries.append(entry)
        return entries


def bot_definitions(game: Game, names: list[str]) -> dict[str, Any]:
    """Each named bot as the engine plays it: its kind and its non-zero weights by name.

    Part of a run's identity: a bot edited under the same name (re-tuned weights, another search
    budget) makes another run, so --resume never mixes its games with the old ones and `sim skill`
    never reuses a rung played by the old bot. Zero weights are left out, so a weight added later at
    0 (which changes no game) leaves the identity of runs written before it unchanged."""
    specs = game.bots()
    definitions: dict[str, Any] = {}
    for name in sorted(set(names)):
        spec = specs.get(name)
        if spec is None:
            continue  # validate_plan names the unknown bot
        values = np.asarray(spec.weights, dtype=np.float64).ravel()
        labels = list(game.weight_names(name))
        labels += [str(i) for i in range(len(labels), len(values))]
        definitions[name] = {"kind": game.kind_name(name),
                             "weights": {label: float(v) for label, v in zip(labels, values) if v != 0.0}}
    return definitions


def _changed_bots(stored: Any, wanted: Any) -> list[str]:
    """The bots whose definitions differ; none when the stored run predates bot_definitions."""
    if not isinstance(stored, dict) or not isinstance(wanted, dict):
        return []
    return sorted(name for name in set(stored) | set(wanted) if stored.get(name) != wanted.get(name))


def cell_bots(cell: Cell) -> tuple[list[str], np.ndarray]:
    if cell.bot_names is not None:
        return cell.bot_names, np.asarray(cell.lineup, dtype=np.int8)
    return lineup_indices(cell.lineup_names)


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def identity(manifest: dict[str, Any]) -> dict[str, Any]:
    """The part of a manifest that fixes the data: equal identities give identical datasets."""
    config = dict(LATER_KEYS)
    config.update({k: v for k, v in manifest["config"].items() if k not in EXECUTION_KEYS})
    out = {"config": config, "params": strip_provenance(manifest["params"]) if manifest.get("params") else None}
    if manifest.get("cells"):
        out["cells"] = [dict(cell, params=strip_provenance(cell_params(manifest, cell))) for cell in manifest["cells"]]
    return _jsonable(out)


def _differences(stored: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    names = []
    for key in sorted((set(stored["config"]) | set(wanted["config"])) - {BOT_DEFINITIONS}):
        if stored["config"].get(key) != wanted["config"].get(key):
            names.append(f"{key} {stored['config'].get(key)!r} (requested {wanted['config'].get(key)!r})")
    changed = _changed_bots(stored["config"].get(BOT_DEFINITIONS), wanted["config"].get(BOT_DEFINITIONS))
    if changed:
        names.append(f"the definition (kind or weights) of bot {', '.join(changed)} changed since it was played")
    if stored.get("params") != wanted.get("params") or stored.get("cells") != wanted.get("cells"):
        names.append("the game parameters")
    return names


def validate_plan(plan: RunPlan, out_dir: Path, workers: int, resume: bool) -> None:
    """Every check a run needs, so nothing is created for a run that cannot succeed."""
    if "\0" in str(out_dir) or not str(out_dir).strip():
        raise UserError(f"--out {str(out_dir)!r} is not a usable directory name")
    if out_dir.exists() and not resume:
        raise UserError(f"output directory {out_dir} already exists (add --resume to finish an interrupted run "
                        f"into it, or choose another --out)")
    if plan.n_games < 1:
        raise UserError(f"--games must be at least 1 (got {plan.n_games})")
    if not 0 <= plan.seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {plan.seed})")
    if workers < 1:
        raise UserError(f"--workers must be at least 1 (got {workers})")
    if plan.chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1 (got {plan.chunk_size})")
    check_seating(plan.rotate, plan.permute)
    if not plan.cells:
        raise UserError("the run has no cells")
    known = plan.game.bots()
    for cell in plan.cells:
        allowed = tuple(plan.game.allowed_players(cell.params))
        if cell.n_players not in allowed:
            raise UserError(f"{plan.game.name} ({cell.params.variant_name}) is played by "
                            f"{', '.join(map(str, allowed))} players, not {cell.n_players}")
        bot_names, lineup = cell_bots(cell)
        if len(lineup) != cell.n_players:
            raise UserError(f"the line-up has {len(lineup)} bots but the game has {cell.n_players} players")
        for name in bot_names:
            if name not in known:
                raise UserError(f"unknown bot '{name}' for {plan.game.name} (known: {', '.join(sorted(known))})")
        if len(lineup) and not 0 <= int(np.min(lineup)) <= int(np.max(lineup)) < len(bot_names):
            raise UserError("the line-up refers to a bot index outside the bot list")


def _new_manifest(plan: RunPlan, workers: int, backend: str, scheduler: str | None) -> dict[str, Any]:
    commit, dirty = source_commit()
    manifest: dict[str, Any] = {
        "status": "running",
        "kind": "sweep" if plan.is_sweep else "run",
        "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "sim_version": sim.__version__,
        "git_commit": commit,
        "git_dirty": dirty,
        "config": plan.config(workers, backend, scheduler),
        "params": plan.cells[0].params.resolved,
        "seed": plan.seed,
        "environment": {
            "python": platform.python_version(),
            "numba": numba.__version__,
            "numpy": np.__version__,
            "pyarrow": pa.__version__,
            "platform": platform.platform(),
        },
        "tables": {"games": "games", "players": "players"},
        "chunks": [],
    }
    if plan.is_sweep:
        manifest["cells"] = plan.cells_manifest()
    manifest.update({key: value for key, value in plan.manifest_extra.items() if key not in manifest})
    return _jsonable(manifest)


def is_finished_run(out_dir: Path) -> bool:
    """Whether out_dir holds a complete run (its manifest's status), whatever its configuration."""
    if not out_dir.is_dir():
        return False
    try:
        stored = read_any_manifest(out_dir)
    except UserError:
        return False
    return isinstance(stored, dict) and stored.get("status") == "complete" and "config" in stored


def check_same_finished_run(plan: RunPlan, out_dir: Path) -> None:
    """For a command that prints before it plays: a one-line error now, if out_dir holds a finished
    run of another configuration (run_plan would say the same, later)."""
    if is_finished_run(out_dir):
        stored = read_any_manifest(out_dir)
        differences = _differences(identity(stored), identity(_new_manifest(plan, 1, "local", None)))
        if differences:
            raise UserError(_other_finished_run(out_dir, differences))


def _other_finished_run(out_dir: Path, differences: list[str]) -> str:
    return (f"output directory {out_dir} already exists and holds a finished run of another configuration: "
            f"{'; '.join(differences)} (choose another --out, or remove it)")


def _can_grow(stored: dict[str, Any], wanted: dict[str, Any]) -> bool:
    """Whether the stored run is the wanted one cut short: the same configuration but fewer games,
    in whole chunks of the same size, so that its chunks are the wanted run's first chunks (games
    are numbered and seeded by their index, so a grown run holds exactly the data of a run played
    at the larger size from the start)."""
    before, after = stored["config"], wanted["config"]
    chunk = before.get("chunk_size")
    if not (isinstance(before.get("games"), int) and isinstance(after.get("games"), int)):
        return False
    if before["games"] >= after["games"] or chunk != after.get("chunk_size") or before["games"] % chunk:
        return False
    return not _differences(identity(stored), identity(dict(wanted, config=dict(after, games=before["games"]))))


def _grow(stored: dict[str, Any], wanted: dict[str, Any]) -> None:
    """Turn the stored manifest into the larger run's, still running: its chunks are kept."""
    stored.setdefault("grown", []).append({"from": stored["config"]["games"], "to": wanted["config"]["games"],
                                           "at": wanted["created"]})
    stored["config"]["games"] = wanted["config"]["games"]
    stored["status"] = "running"


def _open_run_dir(plan: RunPlan, out_dir: Path, resume: bool, workers: int, backend: str,
                  scheduler: str | None, finished: bool = False, grow: bool = False) -> tuple[dict[str, Any], bool]:
    """(manifest, created): a new run directory, or the interrupted run that --resume continues, or
    (finished) the complete run of the same configuration already there, or (grow) a complete run
    of the same configuration with fewer games, continued to the larger size (_can_grow)."""
    wanted = _new_manifest(plan, workers, backend, scheduler)
    if resume and out_dir.exists():
        if not out_dir.is_dir():
            raise UserError(f"{out_dir} is not a directory")
        stored = read_any_manifest(out_dir)
        if not isinstance(stored, dict) or "config" not in stored or "chunks" not in stored:
            raise UserError(f"{out_dir} exists but holds no run to resume (no {MANIFEST}); "
                            f"remove it or choose another --out")
        differences = _differences(identity(stored), identity(wanted))
        if grow and _can_grow(stored, wanted):
            _grow(stored, wanted)
            differences = _differences(identity(stored), identity(wanted))
        if differences and finished:
            raise UserError(_other_finished_run(out_dir, differences))
        if differences:
            raise UserError(f"{out_dir} holds a different run, not resumed: {'; '.join(differences)}")
        if stored.get("status") == "running":
            remove_temporary_files(out_dir)
            stored["config"].update({k: wanted["config"][k] for k in EXECUTION_KEYS})
            stored.setdefault("resumed", []).append(wanted["created"])
        return stored, False
    try:
        create_run_dir(out_dir)
        write_json_atomic(wanted, out_dir / MANIFEST)
    except OSError as exc:
        if not isinstance(exc, FileExistsError):
            shutil.rmtree(out_dir, ignore_errors=True)
        raise UserError(f"cannot create the output directory {out_dir}: {exc.strerror or exc}") from None
    return wanted, True


def _finish(manifest: dict[str, Any], plan: RunPlan, total_seconds: float, games_played: int) -> None:
    manifest["status"] = "complete"
    manifest["chunks"].sort(key=lambda c: (c.get("cell", 0), c["index"]))
    engine = sum(c.get("engine_seconds", 0.0) for c in manifest["chunks"])
    manifest["timings"] = {
        "total_seconds": round(total_seconds, 4),
        "engine_seconds": round(engine, 4),
        "writing_seconds": round(sum(c.get("seconds", 0.0) for c in manifest["chunks"]) - engine, 4),
        "games_per_second": round(games_played / total_seconds, 1) if total_seconds > 0 else None,
        "games_this_session": games_played,
    }


def run_plan(plan: RunPlan, out_dir: str | Path, workers: int, backend: str = "local", scheduler: str | None = None,
             resume: bool = False, progress: bool = True, on_tables: TablesHook | None = None,
             grow: bool = False) -> dict[str, Any]:
    """Play every chunk of the plan not yet in out_dir's manifest, then mark the dataset complete.

    on_tables(files, games, players) sees the tables of each chunk the local backend writes; grow
    (with resume): a complete run of the same configuration with fewer games is continued to the
    plan's size (_can_grow)."""
    out_dir = Path(out_dir)
    finished = not resume and is_finished_run(out_dir)
    # A finished run asked for again is pointed at (its configuration checked), not refused.
    validate_plan(plan, out_dir, workers, resume or finished)
    if backend not in BACKENDS:
        raise UserError(f"unknown backend '{backend}' (known: {', '.join(BACKENDS)})")
    executor = make_backend(backend, plan.game, workers, scheduler)
    manifest, created = _open_run_dir(plan, out_dir, resume or finished, workers, backend, scheduler,
                                      finished=finished, grow=grow and resume)
    if manifest["status"] == "complete":
        if progress:
            print(f"{out_dir} is already complete; nothing to do", file=sys.stderr, flush=True)
        return manifest
    done = {(c.get("cell", 0), c["index"]) for c in manifest["chunks"]}
    pending = [t for t in plan.tasks() if (t.cell, t.index) not in done]
    total_games = plan.n_games * len(plan.cells)
    done_games = total_games - sum(t.n_games for t in pending)
    jobs = plan.jobs(out_dir)
    started = time.perf_counter()
    try:
        with executor:
            if progress:  # Numba compiles the engine on first use; keep that out of the bar's rate
                where = "" if backend == "local" else f" on every {backend} worker"
                print(f"loading the engine{where} (compiled on first use, then cached)...", file=sys.stderr,
                      flush=True)
            executor.warm_up(jobs)
            started = time.perf_counter()
            # closing: a chunk still being written in the background is finished before anything
            # below removes or reports on the directory
            with tqdm(total=total_games, initial=done_games, unit="games", unit_scale=True, disable=not progress,
                      dynamic_ncols=True, smoothing=0.1) as bar, \
                    contextlib.closing(executor.run(jobs, pending, bar.update, on_tables)) as records:
                for record in records:
                    if record.get("failures"):
                        raise _ChunkFailed(jobs[record["cell"]], record["failures"])
                    manifest["chunks"].append(record)
                    write_json_atomic(manifest, out_dir / MANIFEST)
        _finish(manifest, plan, time.perf_counter() - started, total_games - done_games)
        write_json_atomic(manifest, out_dir / MANIFEST)
    except KeyboardInterrupt:
        kept = sum(c["n_games"] for c in manifest["chunks"])
        raise Interrupted(f"interrupted; {kept:,} of {total_games:,} games are kept in {out_dir}: run the same "
                          f"command with --resume to finish") from None
    except (_ChunkFailed, OSError) as exc:
        if created:
            shutil.rmtree(out_dir, ignore_errors=True)
        kept = "nothing was written" if created else f"{out_dir} is left as it was"
        if isinstance(exc, OSError):
            raise UserError(f"cannot write to {exc.filename or out_dir}: {exc.strerror or exc}; {kept}") from None
        raise EngineFailure(_failure_message(plan, exc.job, exc.failures, kept)) from None
    except BaseException:
        if created:
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return manifest


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
    resume: bool = False,
    backend: str = "local",
    scheduler: str | None = None,
    overrides: dict[str, Any] | None = None,
    on_tables: TablesHook | None = None,
    grow: bool = False,
    permute: bool = False,
) -> dict[str, Any]:
    """Simulate games 0 .. n_games-1 in chunks, write the dataset to out_dir, return its manifest.

    bot_names: the distinct bots of the run; lineup: index into bot_names for each seat
    (see sim.core.lineup.lineup_indices); rotate or permute: the seating (seat_bot_matrix).
    variant_path and overrides (--param values) are recorded in the manifest and in the replay
    command of an engine failure.
    """
    lineup = np.asarray(lineup, dtype=np.int8)
    names = [bot_names[i] for i in lineup if 0 <= i < len(bot_names)]
    cell = Cell(coords={}, params=params, n_players=n_players, lineup_names=names, bot_names=list(bot_names),
                lineup=lineup)
    plan = RunPlan(game=game, cells=[cell], n_games=n_games, seed=seed, rotate=rotate, chunk_size=chunk_size,
                   checked=checked, variant_path=variant_path, overrides=dict(overrides or {}), permute=permute)
    return run_plan(plan, out_dir, workers, backend=backend, scheduler=scheduler, resume=resume, progress=progress,
                    on_tables=on_tables, grow=grow)


class _ChunkFailed(Exception):
    """A chunk whose engine reported failed games (raised inside the run loop, reported by run_plan)."""

    def __init__(self, job: ChunkJob, failures: list[tuple[int, str]]):
        super().__init__(job.cell)
        self.job, self.failures = job, failures


def _failure_message(plan: RunPlan, job: ChunkJob, failures: list[tuple[int, str]], kept: str) -> str:
    game_index, message = min(failures)
    more = f" (and {len(failures) - 1} more in this chunk)" if len(failures) > 1 else ""
    overrides = dict(plan.overrides)
    overrides.update({k: v for k, v in job.coords.items() if k not in (PLAYERS, LINEUP, TABLE)})
    variant_path = plan.cells[job.cell].variant_path or plan.variant_path
    command = replay_command(plan.game.name, plan.seed, int(game_index), job.n_players,
                             [job.bot_names[i] for i in job.lineup], plan.rotate, variant_path, overrides,
                             plan.permute)
    detail = " ".join(str(message).split())
    cell = f" (sweep cell {', '.join(f'{k}={v}' for k, v in job.coords.items())})" if job.coords else ""
    return (f"engine failure in game {game_index} of run seed {plan.seed}{cell}: {detail}{more}; "
            f"{kept}; reproduce with: {command}")
