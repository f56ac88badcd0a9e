"""Cut the saved reference tables out of full datasets: the first GAMES games of each run.

Game i of a run depends only on the seed and i, so the first games of a long run are the games a
short run plays (tests/test_cuzco_reference.py). The runs, regenerated when the rules or the
bots' play change on purpose (issue 35 last: a third card, a second medal on one god):
    sim run cuzco --players 3 --games 60 --seed 7 --rotate-seats --out DIR/modelled-3p
    sim run cuzco --players 4 --games 60 --seed 7 --rotate-seats --out DIR/modelled-4p
    sim run cuzco --players 4 --games 60 --seed 7 --rotate-seats --bots random,headdress,balanced,temple-tuned \
        --variant variants/cuzco-pututu.toml --out DIR/modelled-4p-mixed-pututu
    sim run cuzco --players 4 --games 60 --seed 7 --rotate-seats \
        --bots balanced-tuned-lookahead,temple-tuned-lookahead,runner-tuned-lookahead,market-tuned-lookahead \
        --out DIR/lookahead-4p
then
    python tests/reference/make_reference.py DIR
(in a git worktree, `PYTHONPATH=. python tests/reference/make_reference.py DIR`: run as a script it
imports the installed `sim`, which may be another checkout's, and would record that checkout's
bot weights in config.json)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

from sim.core import registry

GAMES = 60
HERE = Path(__file__).resolve().parent
RUNS = ("modelled-3p", "modelled-4p", "modelled-4p-mixed-pututu", "lookahead-4p")


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
        specs = registry.get_game(config["game"]).bots()
        run_config["weights"] = {b: [float(x) for x in specs[b].weights] for b in config["bots"] if b != "random"}
        (out / "config.json").write_text(json.dumps(run_config, indent=1) + "\n")
        print(run, "written")


if __name__ == "__main__":
    main(sys.argv[1])
