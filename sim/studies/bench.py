"""Benchmark of any game: games/s end to end and engine alone, peak memory, JIT speed-up.

    python -m sim.studies.bench GAME --games N --players P [--repeats R] [--bots BOTS]

Each measurement runs in its own subprocess so compile time, caches and peak RSS of one do not
leak into another; the figures are appended as a dated section to BENCHMARKS.md at the repo root.
The line-up is the game's default unless --bots names one (as `sim run --bots`): with
`--bots random` the section gives the game's floor on the day, the rules and the listing of the
legal moves without any valuing, which the default line-up's figure can be read against on a
machine whose speed drifts (BENCHMARKS.md, issue 13).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

import sim
from sim.core import registry, runner
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices, parse_bots, seat_bot_matrix

END_TO_END = "end-to-end"
ENGINE = "engine"
WARMUP_GAMES = 1000
DEFAULT_NOJIT_GAMES = 1000
DEFAULT_CHUNK_SIZE = 50_000


def _setup(game_name: str, n_players: int, bots: str | None = None):
    """The game, its base parameters, and the line-up (bots: a `--bots` spec, None: the default)."""
    game = registry.get_game(game_name)
    params = game.resolve_params(None, "base")
    if n_players not in tuple(game.allowed_players(params)):
        raise UserError(f"{game.name} is not played by {n_players} players")
    bot_names, lineup = lineup_indices(parse_bots(game, bots, n_players))
    return game, params, bot_names, lineup


def _time_end_to_end(game, params, n_players, bot_names, lineup, n_games, workers, chunk_size) -> float:
    with tempfile.TemporaryDirectory(prefix="sim-bench-") as tmp:
        started = time.perf_counter()
        runner.run(game, params, n_players, bot_names, lineup, True, n_games, 0, Path(tmp) / "run", workers,
                   chunk_size, progress=False)
        return time.perf_counter() - started


def _time_engine(game, params, n_players, bot_names, lineup, n_games, workers, chunk_size) -> float:
    """The engine over the same chunks as a run, results dropped: no Parquet, bounded memory."""
    numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))
    started = time.perf_counter()
    for first, count in runner.chunk_bounds(n_games, chunk_size):
        seat_bots = seat_bot_matrix(lineup, first, count, rotate=True)
        runner.simulate_chunk(game, params, n_players, bot_names, seat_bots, 0, first, count, False)
    return time.perf_counter() - started


def measure(kind: str, game_name: str, n_players: int, n_games: int, repeats: int, workers: int,
            chunk_size: int, warmup: bool, bots: str | None = None) -> dict:
    """Seconds of each repeat (after an optional compile warm-up) and this process's peak RSS."""
    game, params, bot_names, lineup = _setup(game_name, n_players, bots)

    def once(games: int) -> float:
        if kind == END_TO_END:
            return _time_end_to_end(game, params, n_players, bot_names, lineup, games, workers, chunk_size)
        return _time_engine(game, params, n_players, bot_names, lineup, games, workers, chunk_size)

    if warmup:
        once(min(n_games, WARMUP_GAMES))
    seconds = [once(n_games) for _ in range(repeats)]
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {"kind": kind, "games": n_games, "seconds": seconds, "peak_rss_mb": round(peak_kib / 1024, 1)}


def _measure_in_subprocess(kind: str, args, n_games: int, repeats: int, warmup: bool, env=None) -> dict:
    command = [sys.executable, "-m", "sim.studies.bench", args.game, "--measure", kind, "--games", str(n_games),
               "--players", str(args.players), "--repeats", str(repeats), "--workers", str(args.workers),
               "--chunk-size", str(args.chunk_size)]
    if args.bots is not None:
        command += ["--bots", args.bots]
    if not warmup:
        command.append("--no-warmup")
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed ({' '.join(command)}):\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_count() -> int:
    """What `nproc` reports: the CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _row(label: str, figures: dict) -> tuple[str, int, float, float, float]:
    median = statistics.median(figures["seconds"])
    return label, figures["games"], median, figures["games"] / median, figures["peak_rss_mb"]


def format_section(command: str, game_name: str, n_players: int, workers: int, chunk_size: int,
                   end_to_end: dict, engine: dict, nojit: dict, lineup: str = "") -> str:
    """A dated markdown section with the command, the machine, the line-up (when given) and the figures."""
    rows = [
        _row(f"end to end: engine + Parquet ({workers} threads, chunks of {chunk_size:,})", end_to_end),
        _row(f"engine alone, same chunks, no writing ({workers} threads)", engine),
        _row("engine alone, NUMBA_DISABLE_JIT=1", nojit),
    ]
    speedup = rows[1][3] / rows[2][3]
    commit, dirty = runner.source_commit()
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## {now}: {game_name}, {n_players} players",
        "",
        f"- Command: `{command}`",
        f"- Machine: {cpu_count()} CPUs (nproc), {cpu_model()}; {platform.platform()}",
        *([f"- Line-up: {lineup}, seats rotated"] if lineup else []),
        f"- Software: sim {sim.__version__}, git {commit or 'n/a'}{' (uncommitted changes)' if dirty else ''}, "
        f"Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}",
        f"- Repeats: median of {len(end_to_end['seconds'])} runs after a compile warm-up; "
        "each measurement in its own process",
        "",
        "| measurement | games | median s | games/s | peak RSS MB |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {label} | {games:,} | {median:.3f} | {rate:,.0f} | {rss:,.1f} |"
              for label, games, median, rate, rss in rows]
    lines += ["", f"JIT speed-up of the engine over plain Python: {speedup:,.0f}x", ""]
    return "\n".join(lines)


def append_section(output: Path, section: str) -> None:
    """Append a section to the markdown file, a blank line after whatever ends it (a hand-written
    paragraph included), or after a title when the file is new or empty."""
    text = output.read_text() if output.exists() else ""
    with output.open("a") as fh:
        if not text:
            fh.write("# Benchmarks\n\nAppended by `make bench` (python -m sim.studies.bench).\n\n")
        elif not text.endswith("\n\n"):
            fh.write("\n" if text.endswith("\n") else "\n\n")
        fh.write(section + "\n")


def benchmarks_file() -> Path:
    """BENCHMARKS.md at the root of the source checkout (the current directory otherwise)."""
    root = Path(sim.__file__).resolve().parents[1]
    return (root if (root / "pyproject.toml").exists() else Path.cwd()) / "BENCHMARKS.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.studies.bench", description=__doc__.splitlines()[0])
    parser.add_argument("game", metavar="GAME")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=cpu_count())
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE)
    parser.add_argument("--nojit-games", type=int, default=DEFAULT_NOJIT_GAMES,
                        help="games for the NUMBA_DISABLE_JIT measurement (plain Python is slow)")
    parser.add_argument("--bots", metavar="BOTS",
                        help="comma list, one bot per seat, or one name for every seat (default: the game's line-up)")
    parser.add_argument("--output", type=Path, help="markdown file to append to (default BENCHMARKS.md)")
    parser.add_argument("--measure", choices=[END_TO_END, ENGINE], help=argparse.SUPPRESS)
    parser.add_argument("--no-warmup", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if min(args.games, args.repeats, args.workers, args.chunk_size, args.nojit_games) < 1:
        parser.error("--games, --repeats, --workers, --chunk-size and --nojit-games must be at least 1")

    if args.measure:
        print(json.dumps(measure(args.measure, args.game, args.players, args.games, args.repeats, args.workers,
                                 args.chunk_size, warmup=not args.no_warmup, bots=args.bots)))
        return 0

    _, _, bot_names, lineup = _setup(args.game, args.players, args.bots)  # fails fast on bad input
    end_to_end = _measure_in_subprocess(END_TO_END, args, args.games, args.repeats, warmup=True)
    engine = _measure_in_subprocess(ENGINE, args, args.games, args.repeats, warmup=True)
    nojit = _measure_in_subprocess(ENGINE, args, min(args.nojit_games, args.games), 1, warmup=False,
                                   env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    command = shlex.join(["python", "-m", "sim.studies.bench", *(sys.argv[1:] if argv is None else argv)])
    seats = ", ".join(bot_names[i] for i in lineup)
    label = seats if args.bots is not None else f"the game's default ({seats})"
    section = format_section(command, args.game, args.players, args.workers, args.chunk_size, end_to_end, engine, nojit,
                             lineup=label)
    output = args.output or benchmarks_file()
    append_section(output, section)
    print(section)
    print(f"appended to {output}")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
