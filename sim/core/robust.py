"""Robustness runs: the base game and each alternative table of its reconstructed numbers, as one
sweep with common random numbers.

Many numbers of a game's data are not printed anywhere we could find (components.toml marks them
"reconstructed"). A balance verdict that leans on one of them may flip under another plausible
reading. A game declares the readings it wants checked (`Game.robustness()`, for a TomlGame the
file named by its data module's ROBUST_FILE, e.g. sim/games/cuzco/robust.toml): a list of tables,
each a variant file (variants/robust/<game>-*.toml, with a comment saying the reading and its
source) with the reconstructed number it varies and a line on the reading, and optionally an
*effect*: a switch parameter (Cuzco's `pututu.enabled`) whose effect on every measure is checked
under every table too.

`plan_robust` makes a `RunPlan` whose cells are the tables (the base game first), times the
effect's two values when there is one: cell coordinates {"table": name} or {"table": name,
"pututu.enabled": false}, parts under `games/table=status-long/pututu.enabled=true/`. Every cell
plays games 0..G-1 from the same seed with seats rotated, so the tables differ by their numbers
only (common random numbers), and the dataset is an ordinary sweep: crash-safe, resumable, on the
local or the Dask backend, read one cell at a time by `open_dataset(path, cell=...)`. The manifest
adds a `robust` record (tables, their files, numbers and readings, the effect), which is all
`sim.analysis.robust` needs to judge the verdicts.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.core.errors import UserError
from sim.core.game import Game
from sim.core.params import load_toml, load_variant, repo_file
from sim.core.sweep import TABLE, build_cells, partition_path, value_text

BASE_TABLE = "base"
MANIFEST_KEY = "robust"
DEFAULT_GAMES = 20_000  # per cell
DEFAULT_CHUNK_SIZE = 10_000


@dataclass(frozen=True)
class RobustTable:
    """One alternative reading: a variant file (None: the base game), the reconstructed number it
    varies and the reading in a line."""

    name: str
    variant: str | None
    number: str
    reading: str

    def variant_file(self) -> Path | None:
        """The variant file (sim.core.params.repo_file), None for the base game."""
        return None if self.variant is None else repo_file(self.variant)


@dataclass(frozen=True)
class RobustEffect:
    """A switch whose effect is measured under every table: `param` at `off` against `on`."""

    param: str
    label: str
    off: Any = False
    on: Any = True


@dataclass(frozen=True)
class RobustSpec:
    """What `sim robust GAME` plays: the base game and every table (base first), with the effect."""

    game: str
    tables: tuple[RobustTable, ...]
    effect: RobustEffect | None = None
    share: int = 10  # `sim report` plays 1 in `share` of --games per cell ...
    cap: int = DEFAULT_GAMES  # ... at most `cap`

    def report_games(self, games: int) -> int:
        """Games per cell of the robustness dataset `sim report --games games` plays."""
        return max(1, min(self.cap, games // self.share))

    def record(self) -> dict[str, Any]:
        """The manifest's `robust` record."""
        return {"game": self.game,
                "tables": [{"name": t.name, "variant": t.variant, "number": t.number, "reading": t.reading}
                           for t in self.tables],
                "effect": None if self.effect is None else {"param": self.effect.param, "label": self.effect.label,
                                                            "off": self.effect.off, "on": self.effect.on}}


BASE = RobustTable(BASE_TABLE, None, "", "the game's own data (components.toml)")


def _text(entry: dict, key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise UserError(f"{where}: '{key}' must be a non-empty string")
    return " ".join(value.split())


def load_robust_spec(game_name: str, path: str | Path) -> RobustSpec:
    """A game's robust.toml: `[[tables]]` entries (variant, number, reading; the table is named by
    its variant file's `name`), an optional `[effect]` (param, label, off, on) and an optional
    `[report]` (share, cap). Unknown keys and missing fields are one-line errors."""
    path = Path(path)
    data = load_toml(path)
    where = str(path)
    unknown = sorted(set(data) - {"tables", "effect", "report"})
    if unknown:
        raise UserError(f"{where}: unknown key '{unknown[0]}' (known: tables, effect, report)")
    entries = data.get("tables")
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{where}: give at least one [[tables]] entry")
    tables = [BASE]
    for i, entry in enumerate(entries):
        at = f"{where}: tables[{i}]"
        if not isinstance(entry, dict):
            raise UserError(f"{at} must be a table")
        stray = sorted(set(entry) - {"variant", "number", "reading"})
        if stray:
            raise UserError(f"{at}: unknown key '{stray[0]}' (known: variant, number, reading)")
        variant = _text(entry, "variant", at)
        table = RobustTable("", variant, _text(entry, "number", at), _text(entry, "reading", at))
        name, _ = load_variant(table.variant_file())
        if name == BASE_TABLE or name in {t.name for t in tables}:
            raise UserError(f"{at}: the table name {name!r} (the variant's name) is taken")
        tables.append(RobustTable(name, variant, table.number, table.reading))
    effect = None
    if "effect" in data:
        entry = data["effect"]
        stray = sorted(set(entry) - {"param", "label", "off", "on"}) if isinstance(entry, dict) else ["effect"]
        if stray:
            raise UserError(f"{where}: [effect] unknown key '{stray[0]}' (known: param, label, off, on)")
        effect = RobustEffect(_text(entry, "param", f"{where}: [effect]"), _text(entry, "label", f"{where}: [effect]"),
                              entry.get("off", False), entry.get("on", True))
        if value_text(effect.off) == value_text(effect.on):
            raise UserError(f"{where}: [effect] off and on are the same value")
    report = data.get("report", {})
    share, cap = report.get("share", 10), report.get("cap", DEFAULT_GAMES)
    for key, value in (("share", share), ("cap", cap)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UserError(f"{where}: [report] {key} must be a whole number of at least 1")
    return RobustSpec(game_name, tuple(tables), effect, share, cap)


def game_robustness(game: Game) -> RobustSpec:
    """The game's robustness tables; a one-line error for a game that declares none."""
    spec = game.robustness()
    if spec is None:
        raise UserError(f"{game.name} declares no reconstructed-number tables, so there is nothing to check "
                        f"(a game lists them in its robust.toml)")
    return spec


def plan_robust(game: Game, spec: RobustSpec, n_games: int, seed: int, players: int | None = None,
                bots: str | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE, checked: bool = False):
    """The RunPlan of a robustness run: one cell per table (times the effect's two values), each
    n_games games from `seed`, seats rotated. Every table is validated before anything is written."""
    from sim.core.runner import RunPlan

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
    return RunPlan(game=game, cells=cells, n_games=n_games, seed=seed, rotate=True, chunk_size=chunk_size,
                   checked=checked, grid=grid, bots_spec=bots, manifest_extra={MANIFEST_KEY: spec.record()})


def run_robust(game: Game, out_dir: str | Path, n_games: int = DEFAULT_GAMES, seed: int = 0,
               players: int | None = None, bots: str | None = None, workers: int | None = None,
               chunk_size: int = DEFAULT_CHUNK_SIZE, checked: bool = False, backend: str = "local",
               scheduler: str | None = None, resume: bool = False, progress: bool = True,
               spec: RobustSpec | None = None) -> dict[str, Any]:
    """Play (or, with resume, finish) the game's robustness run into out_dir; returns its manifest."""
    from sim.core.runner import check_same_finished_run, is_finished_run, run_plan, validate_plan

    spec = spec or game_robustness(game)
    plan = plan_robust(game, spec, n_games, seed, players, bots, chunk_size, checked)
    workers = workers or os.cpu_count() or 1
    # bad input: one error line, not after the banner; the same finished run again is pointed at (run_plan)
    validate_plan(plan, Path(out_dir), workers, resume or is_finished_run(Path(out_dir)))
    if not resume:
        check_same_finished_run(plan, Path(out_dir))
    if progress:
        what = f"{len(spec.tables)} tables" + ("" if spec.effect is None else f" x {spec.effect.param} off/on")
        print(f"robustness: {game.name}, {what} = {len(plan.cells)} cells x {n_games:,} games, seats rotated, "
              f"the same seeds in every cell -> {out_dir}", file=sys.stderr, flush=True)
    return run_plan(plan, out_dir, workers, backend=backend, scheduler=scheduler, resume=resume, progress=progress)
