"""`sim robust GAME`: the base game and each alternative table of its reconstructed numbers, as one
sweep with common random numbers.

The tables are the game's declaration (`Game.robustness()`, read by sim/core/robust.py).
`plan_robust` makes a `RunPlan` whose cells are the tables (the base game first), times the
effect's two values when there is one: cell coordinates {"table": name} or {"table": name,
"pututu.enabled": false}, parts under `games/table=status-long/pututu.enabled=true/`. Every cell
plays games 0..G-1 from the same seed with seats rotated (or, with --permute-seats, every seating
order in turn: sim.core.lineup.seat_orders), so the tables differ by their numbers only (common
random numbers), and the dataset is an ordinary sweep: crash-safe, resumable, on the
local or the Dask backend, read one cell at a time by `open_dataset(path, cell=...)`. The manifest
adds a `robust` record (tables, their files, numbers and readings, the effect), which is all
`sim.analysis.robust` needs to judge the verdicts.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from sim.core.errors import UserError
from sim.core.game import Game
from sim.core.lineup import seating_words
from sim.core.robust import DEFAULT_GAMES, MANIFEST_KEY, RobustSpec
from sim.core.runner import RunPlan, check_same_finished_run, is_finished_run, run_plan, validate_plan
from sim.core.sweep import TABLE, build_cells, partition_path

DEFAULT_CHUNK_SIZE = 10_000


def game_robustness(game: Game) -> RobustSpec:
    """The game's robustness tables; a one-line error for a game that declares none."""
    spec = game.robustness()
    if spec is None:
        raise UserError(f"{game.name} declares no reconstructed-number tables, so there is nothing to check "
                        f"(a game lists them in its robust.toml)")
    return spec


def plan_robust(game: Game, spec: RobustSpec, n_games: int, seed: int, players: int | None = None,
                bots: str | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE, checked: bool = False,
                permute: bool = False):
    """The RunPlan of a robustness run: one cell per table (times the effect's two values), each
    n_games games from `seed`, seats rotated (permute: every seating order in turn). Every table is
    validated before anything is written."""
    grid: dict[str, list[Any]] = {TABLE: [t.name for t in spec.tables]}
    effect_grid = {} if spec.effect is None else {spec.effect.param: [spec.effect.off, spec.effect.on]}
    grid.update(effect_grid)
    cells = []
    for table in spec.tables:
        variant = table.variant_file()
        for cell in build_cells(game, None if variant is None else str(variant), effect_grid, players, bots):
            cell.coords = {TABLE: table.name, **cell.coords}
            cell.partition = partition_path(cell.coords)
            cell.variant_path = table.variant
            cells.append(cell)
    if len({c.n_players for c in cells}) != 1:
        raise UserError("the robustness tables allow different player counts; give --players")
    return RunPlan(game=game, cells=cells, n_games=n_games, seed=seed, rotate=not permute, chunk_size=chunk_size,
                   checked=checked, grid=grid, bots_spec=bots, manifest_extra={MANIFEST_KEY: spec.record()},
                   permute=permute)


def run_robust(game: Game, out_dir: str | Path, n_games: int = DEFAULT_GAMES, seed: int = 0,
               players: int | None = None, bots: str | None = None, workers: int | None = None,
               chunk_size: int = DEFAULT_CHUNK_SIZE, checked: bool = False, backend: str = "local",
               scheduler: str | None = None, resume: bool = False, progress: bool = True,
               spec: RobustSpec | None = None, permute: bool = False) -> dict[str, Any]:
    """Play (or, with resume, finish) the game's robustness run into out_dir (permute: every seating
    order in turn); returns its manifest."""
    spec = spec or game_robustness(game)
    plan = plan_robust(game, spec, n_games, seed, players, bots, chunk_size, checked, permute)
    workers = workers or os.cpu_count() or 1
    # bad input: one error line, not after the banner; the same finished run again is pointed at (run_plan)
    validate_plan(plan, Path(out_dir), workers, resume or is_finished_run(Path(out_dir)))
    if not resume:
        check_same_finished_run(plan, Path(out_dir))
    if progress:
        what = f"{len(spec.tables)} tables" + ("" if spec.effect is None else f" x {spec.effect.param} off/on")
        print(f"robustness: {game.name}, {what} = {len(plan.cells)} cells x {n_games:,} games, "
              f"{seating_words(not permute, permute)}, "
              f"the same seeds in every cell -> {out_dir}", file=sys.stderr, flush=True)
    return run_plan(plan, out_dir, workers, backend=backend, scheduler=scheduler, resume=resume, progress=progress)
