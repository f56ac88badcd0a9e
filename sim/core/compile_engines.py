"""Compile (or load from the cache) every game's engine, one process per game, side by side.

`make test` runs this before pytest: the first game of each engine costs minutes of Numba
compilation on one core, so compiling the engines in parallel processes, into the shared on-disk
cache, saves wall time, and the test workers then load them instead of each compiling its own.

    python -m sim.core.compile_engines [--workers N]
"""
from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor


def compile_engine(game_name: str) -> tuple[str, float]:
    """Play one game of `game_name` with its default line-up; the seconds it took (importing `sim`
    points Numba at the shared cache)."""
    import numpy as np

    from sim.core import registry
    from sim.core.lineup import lineup_indices, seat_bot_matrix

    started = time.perf_counter()
    game = registry.get_game(game_name)
    params = game.resolve_params(None)
    names, idx = lineup_indices(game.default_bots(game.default_players))
    seat_bots = seat_bot_matrix(idx, 0, 1, True).astype(np.int8)
    game.simulate(params, game.default_players, names, seat_bots, 0, 0, 1, False)
    return game_name, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    from sim.core import registry

    parser = argparse.ArgumentParser(prog="python -m sim.core.compile_engines", description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    args = parser.parse_args(argv)
    names = registry.game_names()
    with ProcessPoolExecutor(max_workers=max(1, min(args.workers, len(names)))) as pool:
        for name, seconds in pool.map(compile_engine, names):
            print(f"{name}: engine ready in {seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
