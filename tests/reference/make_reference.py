"""Cut the saved reference tables out of full datasets: the first GAMES games of each run.

The Cuzco engine's exact rewrites (issue 13) must leave every game unchanged; the reference tables
were played by the engine before them (commit edb3bfb) with
    sim run cuzco --players P --games N --seed 7 --rotate-seats [--bots ...] [--variant ...]
Game i of a run depends only on the seed and i, so the first games of a long run are the games a
short run plays. A deliberate change of play regenerates them from new runs with this script:
    python tests/reference/make_reference.py DATASETS_DIR
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

GAMES = 60
HERE = Path(__file__).resolve().parent
RUNS = ("cuzco-2p", "cuzco-3p", "cuzco-4p", "cuzco-4p-pututu", "cuzco-3p-mixed", "cuzco-4p-mixed-pututu")


def main(source: str) -> None:
    for run in RUNS:
        out = HERE / run
        out.mkdir(exist_ok=True)
        for table in ("games", "players"):
            frame = pd.read_parquet(Path(source) / run / table)
            frame = frame[frame.game_id < GAMES].sort_values(
                ["game_id", "seat"] if table == "players" else ["game_id"]).reset_index(drop=True)
            frame.to_parquet(out / f"{table}.parquet", index=False)
        config = json.loads((Path(source) / run / "manifest.json").read_text())["config"]
        run_config = {k: config[k] for k in ("game", "players", "seed", "bots", "rotate_seats", "variant")}
        (out / "config.json").write_text(json.dumps(run_config, indent=1) + "\n")
        print(run, "written")


if __name__ == "__main__":
    main(sys.argv[1])
