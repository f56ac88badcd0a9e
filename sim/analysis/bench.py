"""Benchmark of the analysis layer on big datasets: peak memory and time, appended to benchmarks/HISTORY.md.

    python -m sim.analysis.bench tile SRC DST --games N     # a big dataset from a real small run
    python -m sim.analysis.bench read DIR                   # every analysis on DIR: time, peak RSS
    python -m sim.analysis.bench report BASE PUTUTU         # the full report set on two datasets

Simulating ten million Cuzco games takes hours on this machine, so `tile` builds a big dataset
from a real run by repeating its Parquet parts with shifted game ids (the manifest says so). The
tables have the real width, types and compression; only the games repeat, which is what a test of
reading speed and memory needs. Each measurement runs in its own process so peak RSS is its own.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.core.dataset import GAMES_DIR, MANIFEST, PLAYERS_DIR, part_name, read_manifest, write_json_atomic

# (module, function, keyword arguments): the analyses a report runs on one dataset
ANALYSES = (
    ("winrates", "seat_win_rates", {"by": "start_order"}),
    ("winrates", "bot_win_rates", {}),
    ("winrates", "seat_bot_win_rates", {}),
    ("winrates", "seat_balance_test", {}),
    ("winrates", "balance_measures", {}),
    ("winrates", "score_distribution", {}),
    ("winrates", "margin_distribution", {}),
    ("winrates", "game_length", {}),
    ("dice", "roll_odds", {}),
    ("dice", "placement_odds_observed", {}),
    ("dice", "pututu_effect", {}),
    ("cards", "card_strength", {}),
    ("cards", "card_strength_logit", {}),
)


def tile(src: Path, dst: Path, n_games: int) -> None:
    """Write DST with n_games games: SRC's parts repeated with game ids shifted by SRC's size."""
    manifest = read_manifest(src)
    games = pq.read_table(src / GAMES_DIR)
    players = pq.read_table(src / PLAYERS_DIR)
    base = games.num_rows
    dst.mkdir(parents=True)
    (dst / GAMES_DIR).mkdir()
    (dst / PLAYERS_DIR).mkdir()
    done = 0
    part = 0
    while done < n_games:
        take = min(base, n_games - done)
        for table, sub, key in ((games, GAMES_DIR, "game_id"), (players, PLAYERS_DIR, "game_id")):
            t = table.filter(pc.less(table[key], take)) if take < base else table
            shifted = pc.add(t[key], pa.scalar(done, t.schema.field(key).type))
            t = t.set_column(t.schema.get_field_index(key), key, shifted)
            pq.write_table(t, dst / sub / part_name(part), compression="zstd")
        done += take
        part += 1
    manifest["config"]["games"] = n_games
    manifest["tiled_from"] = {"source": str(src), "source_games": base,
                              "note": "games repeat every source_games ids (benchmark dataset)"}
    write_json_atomic(manifest, dst / MANIFEST)


def _measure_one(module: str, function: str, kwargs: dict, path: str) -> dict:
    """Run one analysis in this process; the caller runs it in a fresh one."""
    import importlib

    from sim.analysis.io import open_dataset

    ds = open_dataset(path)
    fn = getattr(importlib.import_module(f"sim.analysis.{module}"), function)
    started = time.perf_counter()
    result = fn(ds, **kwargs)
    seconds = time.perf_counter() - started
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"analysis": f"{module}.{function}", "seconds": round(seconds, 2), "peak_rss_mb": round(rss_mb, 1),
            "rows": len(result.table)}


def read_all(path: Path) -> list[dict]:
    rows = []
    for module, function, kwargs in ANALYSES:
        cmd = [sys.executable, "-m", "sim.analysis.bench", "_one", module, function, json.dumps(kwargs), str(path)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            rows.append({"analysis": f"{module}.{function}", "error": out.stderr.strip().splitlines()[-1:]})
        else:
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(rows[-1], flush=True)
    return rows


def append(section: str, lines: list[str], output: Path) -> None:
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with output.open("a") as fh:
        fh.write(f"\n## {stamp}: {section}\n\n" + "\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.analysis.bench")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tile")
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    p.add_argument("--games", type=int, required=True)
    p = sub.add_parser("read")
    p.add_argument("path", type=Path)
    p.add_argument("--output", type=Path, default=Path(__file__).resolve().parents[2] / "benchmarks" / "HISTORY.md")
    p = sub.add_parser("_one")
    p.add_argument("module")
    p.add_argument("function")
    p.add_argument("kwargs")
    p.add_argument("path")
    args = parser.parse_args(argv)
    if args.command == "tile":
        tile(args.src, args.dst, args.games)
    elif args.command == "_one":
        print(json.dumps(_measure_one(args.module, args.function, json.loads(args.kwargs), args.path)))
    else:
        rows = read_all(args.path)
        n_games = read_manifest(args.path)["config"]["games"]
        lines = [f"- Command: `python -m sim.analysis.bench read {args.path}` ({n_games:,} games; "
                 "each analysis in its own process)", "",
                 "| analysis | seconds | peak RSS MB | table rows |", "|---|---:|---:|---:|"]
        for r in rows:
            if "error" in r:
                lines.append(f"| {r['analysis']} | error: {r['error']} | | |")
            else:
                lines.append(f"| {r['analysis']} | {r['seconds']} | {r['peak_rss_mb']} | {r['rows']} |")
        append(f"analyses on {n_games:,} games", lines, args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
