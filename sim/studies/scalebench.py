"""Scale benchmark: run whole `sim run` commands and measure wall time, games/s and peak memory.

Peak memory is the largest sum of resident memory over the command's whole process tree (the
CLI, and on the Dask backend its scheduler, nannies and workers), sampled every 0.2 s with
psutil, so it is what the machine had to hold, not one process's share. Each measurement is its
own `sim run` into a fresh directory, removed afterwards; figures are appended to benchmarks/HISTORY.md.

    python -m sim.studies.scalebench --repeats 1 -- run chachapoya --games 1000000 --players 4
    python -m sim.studies.scalebench --repeats 3 --compare-backends -- run cuzco --games 100000
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from sim.studies.bench import HISTORY_FILE, benchmarks_file, cpu_count, cpu_model
from sim.core.runner import source_commit

SAMPLE_SECONDS = 0.2


def tree_rss(process: psutil.Process) -> int:
    """Resident bytes of a process and all its descendants (those that vanish meanwhile count 0)."""
    total = 0
    for member in [process, *process.children(recursive=True)]:
        try:
            total += member.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return total


def measure_command(sim_args: list[str]) -> dict:
    """Run `sim <sim_args> --out <fresh dir>`; wall seconds, peak tree RSS, games and the run's own timings."""
    work = Path(tempfile.mkdtemp(prefix="scalebench-"))
    out = work / "run"
    command = [sys.executable, "-m", "sim", *sim_args, "--out", str(out), "--no-progress"]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    handle = psutil.Process(process.pid)
    peak = 0
    while process.poll() is None:
        try:
            peak = max(peak, tree_rss(handle))
        except psutil.NoSuchProcess:
            break
        time.sleep(SAMPLE_SECONDS)
    wall = time.perf_counter() - started
    stderr = process.stderr.read() if process.stderr else ""
    if process.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise SystemExit(f"error: {shlex.join(command)} failed ({process.returncode}): {stderr.strip()[-300:]}")
    manifest = json.loads((out / "manifest.json").read_text())
    shutil.rmtree(work, ignore_errors=True)
    games = manifest["config"]["games"] * max(1, len(manifest.get("cells") or []))
    return {"wall_seconds": wall, "peak_rss_mb": peak / 2**20, "games": games,
            "run_seconds": manifest["timings"]["total_seconds"],
            "games_per_second": games / manifest["timings"]["total_seconds"]}


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.studies.scalebench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per measurement (the median is kept)")
    parser.add_argument("--compare-backends", action="store_true",
                        help="measure --backend local and --backend dask (LocalCluster) in alternation")
    parser.add_argument("--output", type=Path, help=f"markdown file to append to (default {HISTORY_FILE})")
    parser.add_argument("sim_args", nargs=argparse.REMAINDER, help="-- then the sim command (run ... or sweep ...)")
    args = parser.parse_args(argv)
    sim_args = [a for a in args.sim_args if a != "--"] if args.sim_args[:1] == ["--"] else args.sim_args
    variants = ([("local", sim_args + ["--backend", "local"]), ("dask", sim_args + ["--backend", "dask"])]
                if args.compare_backends else [("", sim_args)])
    results: dict[str, list[dict]] = {label: [] for label, _ in variants}
    for repeat in range(args.repeats):
        for label, command in variants:
            row = measure_command(command)
            results[label].append(row)
            print(f"{label or 'run'} #{repeat + 1}: {json.dumps({k: round(v, 2) for k, v in row.items()})}",
                  file=sys.stderr, flush=True)
    commit, dirty = source_commit()
    invocation = "python -m sim.studies.scalebench " + shlex.join(argv if argv is not None else sys.argv[1:])
    lines = [f"## {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC: scale, `sim {shlex.join(sim_args)}`", "",
             f"- Command: `{invocation}`",
             f"- Machine: {cpu_count()} CPUs (nproc), {cpu_model()}; {platform.platform()}",
             f"- Software: git {commit}{' (uncommitted changes)' if dirty else ''}, Python {platform.python_version()}",
             f"- Median of {args.repeats} run(s), each a fresh `sim` process writing a fresh dataset; peak memory "
             f"is the whole process tree's resident memory (CLI, and Dask scheduler and workers)", "",
             "| backend | games | wall s | games/s (run) | peak RSS MB (tree) |", "|---|---:|---:|---:|---:|"]
    for label, rows in results.items():
        lines.append(f"| {label or 'as given'} | {rows[0]['games']:,} | {_median(rows, 'wall_seconds'):.1f} | "
                     f"{_median(rows, 'games_per_second'):,.0f} | {_median(rows, 'peak_rss_mb'):.0f} |")
    if args.compare_backends:
        local, dask = _median(results["local"], "games_per_second"), _median(results["dask"], "games_per_second")
        lines += ["", f"Dask throughput is {100 * dask / local:.1f}% of the local backend's."]
    text = "\n".join(lines) + "\n"
    print(text)
    target = args.output or benchmarks_file(HISTORY_FILE)
    with target.open("a") as fh:
        fh.write("\n" + text)
    print(f"appended to {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
