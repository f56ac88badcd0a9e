"""Benchmark of any game: games/s end to end and engine alone, peak memory, JIT speed-up.

    python -m sim.studies.bench GAME --games N --players P [--repeats R] [--bots BOTS]

Each measurement runs in its own subprocess so compile time, caches and peak RSS of one do not
leak into another; the figures replace the line-up's row in the game's table of BENCHMARKS.md at
the repo root (the current figures; git keeps their history).
The line-up is the game's default unless --bots names one (as `sim run --bots`): with
`--bots random` the row is the game's floor, the rules and the listing of the legal moves without
any valuing, which every other row's cost is given against ("x floor", as measured the same hour
when it was: the machine's speed drifts).
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


TABLE_START = "<!-- figures: written by python -m sim.studies.bench; notes outside these marks are kept -->"
TABLE_END = "<!-- end of figures -->"
COLUMNS = ("line-up", "players", "games", "end to end s", "games/s", "engine alone s", "JIT speed-up",
           "peak RSS MB", "x floor", "measured", "commit", "command")
FLOOR_LINEUP = "random"  # the floor: the rules and the listing of the legal moves, nothing valued
SAME_HOUR = dt.timedelta(hours=1)
TIME_FORMAT = "%Y-%m-%d %H:%M UTC"


def figures_row(command: str, lineup: str, n_players: int, end_to_end: dict, engine: dict, nojit: dict) -> dict:
    """One line-up's current figures: medians of the repeats, the JIT speed-up, when and at what commit."""
    def median(figures: dict) -> float:
        return statistics.median(figures["seconds"])

    commit, dirty = runner.source_commit()
    return {"line-up": lineup, "players": str(n_players), "games": f"{end_to_end['games']:,}",
            "end to end s": f"{median(end_to_end):.3f}", "games/s": f"{end_to_end['games'] / median(end_to_end):,.0f}",
            "engine alone s": f"{median(engine):.3f}",
            "JIT speed-up": f"{(engine['games'] / median(engine)) / (nojit['games'] / median(nojit)):,.0f}x",
            "peak RSS MB": f"{end_to_end['peak_rss_mb']:,.1f}", "x floor": "",
            "measured": dt.datetime.now(dt.timezone.utc).strftime(TIME_FORMAT),
            "commit": (commit or "n/a")[:9] + ("+" if dirty else ""), "command": f"`{command}`"}


def _seconds_per_game(row: dict) -> float:
    return float(row["end to end s"]) / int(row["games"].replace(",", ""))


def floor_ratio(row: dict, rows: list[dict]) -> str:
    """The row's cost a game over the random line-up's at the same player count: "2.4x" when the
    floor was measured within the hour (the machine's speed drifts by a third), else the ratio with
    the floor's date, which makes it a weaker reading."""
    floor = next((r for r in rows if r["line-up"] == FLOOR_LINEUP and r["players"] == row["players"]), None)
    if floor is None or row is floor:
        return "" if row is floor else "no floor"
    ratio = _seconds_per_game(row) / _seconds_per_game(floor)
    apart = abs(dt.datetime.strptime(row["measured"], TIME_FORMAT) - dt.datetime.strptime(floor["measured"], TIME_FORMAT))
    return f"{ratio:.2f}x" if apart <= SAME_HOUR else f"{ratio:.2f}x (floor of {floor['measured'][:10]})"


def _parse_tables(block: str) -> dict[str, list[dict]]:
    """The figures block read back: game -> rows (a dict per table row, keyed by COLUMNS)."""
    tables: dict[str, list[dict]] = {}
    game = None
    for line in block.splitlines():
        if line.startswith("## "):
            game = line[3:].strip()
            tables[game] = []
        elif game and line.startswith("| ") and not line.startswith("| line-up |"):
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            if len(cells) == len(COLUMNS):
                tables[game].append(dict(zip(COLUMNS, cells)))
    return tables


def _format_tables(tables: dict[str, list[dict]], machine: str) -> str:
    lines = [TABLE_START, "", f"Machine of the last measurement: {machine}.", ""]
    for game in sorted(tables):
        rows = sorted(tables[game], key=lambda r: (int(r["players"]), r["line-up"] != FLOOR_LINEUP, r["line-up"]))
        lines += [f"## {game}", "", "| " + " | ".join(COLUMNS) + " |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|"]
        for row in rows:
            row = {**row, "x floor": floor_ratio(row, rows)}
            lines.append("| " + " | ".join(row[c] for c in COLUMNS) + " |")
        lines.append("")
    return "\n".join(lines + [TABLE_END])


INTRO = """# Benchmarks

The current speed of every game, one table per game: a row per line-up and player count, replaced
each time `python -m sim.studies.bench GAME --players P [--bots BOTS]` measures it (`make bench`,
`make bench-floors`). Each figure is the median of the repeats, each measurement in its own process
after a compile warm-up; "end to end" plays the games and writes Parquet, "engine alone" plays the
same chunks without writing. The floor is the random line-up (the rules and the listing of the
legal moves, nothing valued); "x floor" is a game's cost over it, read as measured the same hour
only when the floor was (this machine's speed drifts by a third within the hour). Past figures and
the notes of earlier work are in git's history of this file and in benchmarks/HISTORY.md.
"""


def _key(row: dict) -> tuple[str, str]:
    """A row's place: its player count and line-up, the game's default line-up one place whatever
    its bots are today (a new default replaces the old default's row)."""
    lineup = row["line-up"]
    return row["players"], "default" if lineup.startswith("default (") else lineup


def record(output: Path, game_name: str, row: dict, machine: str) -> str:
    """Put `row` in the game's table of `output` (replacing the row of the same line-up and player
    count), keeping every other game's rows and the notes outside the figures' marks; returns the
    row's cost over the floor as the table gives it."""
    text = output.read_text() if output.exists() else INTRO + "\n" + TABLE_START + "\n" + TABLE_END + "\n"
    if TABLE_START not in text or TABLE_END not in text:
        text = text.rstrip("\n") + "\n\n" + TABLE_START + "\n" + TABLE_END + "\n"
    before, rest = text.split(TABLE_START, 1)
    block, after = rest.split(TABLE_END, 1)
    tables = _parse_tables(block)
    rows = [r for r in tables.get(game_name, []) if _key(r) != _key(row)]
    tables[game_name] = rows + [row]
    output.write_text(before + _format_tables(tables, machine) + after)
    return floor_ratio(row, tables[game_name])


def machine_line() -> str:
    return (f"{cpu_count()} CPUs (nproc), {cpu_model()}; {platform.platform()}; Python {platform.python_version()}, "
            f"numba {numba.__version__}, numpy {np.__version__}")


def benchmarks_file(name: str = "BENCHMARKS.md") -> Path:
    """BENCHMARKS.md (or another file under the root) at the root of the source checkout (the
    current directory otherwise)."""
    root = Path(sim.__file__).resolve().parents[1]
    return (root if (root / "pyproject.toml").exists() else Path.cwd()) / name


HISTORY_FILE = "benchmarks/HISTORY.md"  # the studies' dated sections (scale, analysis) and past notes


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
    parser.add_argument("--output", type=Path, help="markdown file holding the tables (default BENCHMARKS.md)")
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
    seats = [bot_names[i] for i in lineup]
    named = seats[0] if len(set(seats)) == 1 else ", ".join(seats)
    label = named if args.bots is not None else f"default ({', '.join(seats)})"
    row = figures_row(command, label, args.players, end_to_end, engine, nojit)
    output = args.output or benchmarks_file()
    row["x floor"] = record(output, args.game, row, machine_line())
    for column in COLUMNS:
        print(f"{column}: {row[column]}")
    print(f"recorded in {output} ({args.game}'s table)")
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
