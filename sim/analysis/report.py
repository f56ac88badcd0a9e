"""HTML reports: simulate what is missing, execute the notebooks, render to HTML.

A report is one notebook of `notebooks/` run on one or two datasets. `build_reports` makes sure
every dataset the reports need exists (running `sim.core.runner.run` for those that do not),
executes each notebook headless (papermill injects the dataset paths after its `parameters` cell;
nbclient runs it in a kernel kept for the next notebook, `WarmKernel`),
renders it with nbconvert and writes `reports/<name>.html` plus `reports/index.html`, the page a
designer opens. The executed notebooks are kept in `reports/notebooks/` for anyone who wants the
code next to the answers.

Which reports. `sim report` asks every registered game for its report sections (the game's
`report_sections()`, see `game_sections`): each a `ReportSection` naming a notebook, a title, a
line on what it answers and the datasets it reads, described by what they are (`RunData`,
`TournamentData`, `LadderData`) rather than where and how big; `ReportSection.spec` makes them
concrete for one `sim report --games/--data/--seed`. The generic pages (overview, win rates, card
strength, variant comparison, tournament, skill ladder, tuned bots) are built by the `*_section`
functions here; a game adds pages of its own (Cuzco: the dice odds, sim/games/cuzco/analysis/).
Today Cuzco is the game with sections: its base game and Pututu module, 4 players, 200,000 games
each from the same seed with seats rotated (common random numbers), the overview, win rates, dice
odds, card strength and base-vs-Pututu comparison, and the bots' pages (tournament, skill ladder,
tuned bots).

The overview (`notebooks/overview.ipynb`) is one notebook for every game: `overview_setup` reads
what is game-specific in it (the first player's position column, how it is chosen, extra
sections such as Cuzco's dice) from the game's overview section.
"""
from __future__ import annotations

import copy
import datetime as dt
import hashlib
import html
import importlib
import math
import os
import queue
import re
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from sim.core.errors import UserError

DEFAULT_GAMES = 200_000
DEFAULT_SEED = 1
# Games per Parquet part when simulating: Cuzco plays about 270 games/s here, so the progress bar
# moves every 40 s or so (the data do not depend on the chunk size).
SIMULATION_CHUNK = 10_000
DEFAULT_PLAYERS = 4
REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
OVERVIEW_NOTEBOOK = "overview"


# ------------------------------------------------------------------------------------ specs
@dataclass(frozen=True)
class DatasetSpec:
    """A dataset a report reads, and how to simulate it if its directory holds no complete run.

    variant: a variant TOML file (relative paths are taken from the repository root) or None for
    the base game.
    """

    path: Path
    game: str
    games: int = DEFAULT_GAMES
    players: int = DEFAULT_PLAYERS
    seed: int = DEFAULT_SEED
    variant: str | None = None
    rotate_seats: bool = True
    precision: float | None = None  # sized by precision: `games` is the cap (see ensure_precision)

    def variant_file(self) -> Path | None:
        from sim.core.params import repo_file

        return None if self.variant is None else repo_file(self.variant)


@dataclass(frozen=True)
class ReportSpec:
    """One report: notebooks/<notebook>.ipynb (or a path to a .ipynb) executed into reports/<name>.html.

    datasets maps a parameter of the notebook's `parameters` cell (e.g. `dataset`, `compare_to`)
    to the dataset it receives; parameters are any other values for that cell. labels names a
    dataset parameter in the index's "Data" cell (default: _PARAMETER_LABELS, else the parameter).
    """

    name: str
    notebook: str
    title: str
    description: str
    datasets: Mapping[str, DatasetSpec]
    parameters: Mapping[str, Any] = field(default_factory=dict)
    data_note: str = ""  # the index's "Data" cell for a report that reads no simulated dataset
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TournamentDatasetSpec:
    """A `sim tournament` dataset a report reads: every line-up of `bots` at `players`, `games`
    games each (a multiple of players) from `seed`, seats rotated."""

    path: Path
    game: str
    bots: tuple[str, ...]
    games: int
    players: int = DEFAULT_PLAYERS
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class LadderDatasetSpec:
    """A `sim ladder` dataset a report reads: for each adjacent pair of `rungs` (weakest first) the
    rung alone against players-1 copies of the rung below and the reverse, `games` games each (a
    multiple of players) from `seed`, seats rotated."""

    path: Path
    game: str
    rungs: tuple[str, ...]
    games: int
    players: int = DEFAULT_PLAYERS
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class RobustDatasetSpec:
    """A `sim robust` dataset a report reads: the game's base table and each alternative table of its
    reconstructed numbers (times its effect switch), `games` games per cell from `seed`, the game's
    default players and line-up, seats rotated."""

    path: Path
    game: str
    games: int
    seed: int = DEFAULT_SEED


# ------------------------------------------------------------- sections: what a game asks for
@dataclass(frozen=True)
class GamesShare:
    """Games per line-up of a tournament or ladder a report plays, as a share of `sim report
    --games`: 1 in `per` of them, rounded down to a multiple of the player count, at least one game
    per seat and at most `cap` (a tournament plays many line-ups; a search bot is slow)."""

    per: int
    cap: int

    def games(self, games: int, players: int = DEFAULT_PLAYERS) -> int:
        return max(players, min(self.cap, games // self.per // players * players))


@dataclass(frozen=True)
class RunData:
    """A `sim run` dataset a section reads: DATA/<folder>, `sim report --games` games of the game's
    default line-up from `--seed`, `players` players, seats rotated; variant: a variant file
    (relative to the repository root) or None for the base game."""

    folder: str
    game: str
    players: int = DEFAULT_PLAYERS
    variant: str | None = None
    rotate_seats: bool = True

    def spec(self, games: int, data_dir: str | Path, seed: int, precision: float | None = None) -> DatasetSpec:
        return DatasetSpec(Path(data_dir) / self.folder, self.game, games, self.players, seed, self.variant,
                           self.rotate_seats, precision)


@dataclass(frozen=True)
class TournamentData:
    """A `sim tournament` dataset a section reads: DATA/<folder>, every line-up of `bots` at
    `players`, share.games(--games) games each from `--seed`."""

    folder: str
    game: str
    bots: tuple[str, ...]
    share: GamesShare
    players: int = DEFAULT_PLAYERS

    def spec(self, games: int, data_dir: str | Path, seed: int) -> TournamentDatasetSpec:
        return TournamentDatasetSpec(Path(data_dir) / self.folder, self.game, tuple(self.bots),
                                     self.share.games(games, self.players), self.players, seed)


@dataclass(frozen=True)
class LadderData:
    """A `sim ladder` dataset a section reads: DATA/<folder>, the ladder of `rungs` (weakest first)
    at `players`, share.games(--games) games per line-up from `--seed`."""

    folder: str
    game: str
    rungs: tuple[str, ...]
    share: GamesShare
    players: int = DEFAULT_PLAYERS

    def spec(self, games: int, data_dir: str | Path, seed: int) -> LadderDatasetSpec:
        return LadderDatasetSpec(Path(data_dir) / self.folder, self.game, tuple(self.rungs),
                                 self.share.games(games, self.players), self.players, seed)


@dataclass(frozen=True)
class RobustData:
    """A `sim robust` dataset a section reads: DATA/<folder>, the game's robustness tables
    (Game.robustness()), as many games per cell as the game's robust.toml takes of `--games`."""

    folder: str
    game: str

    def spec(self, games: int, data_dir: str | Path, seed: int) -> RobustDatasetSpec:
        from sim.core import registry
        from sim.studies.robust import game_robustness

        robust = game_robustness(registry.get_game(self.game))
        return RobustDatasetSpec(Path(data_dir) / self.folder, self.game, robust.report_games(games), seed)


@dataclass(frozen=True)
class ReportSection:
    """One report page a game asks `sim report` for (see `game_sections`), with its datasets
    described by what they are; `spec` places and sizes them for one `sim report`.

    name: the page, OUT/<name>.html; notebook: notebooks/<notebook>.ipynb (or a .ipynb path);
    datasets: the notebook parameter each dataset goes to; parameters: other notebook parameters;
    description: the index's line on what the page answers, formatted with the concrete dataset
    specs (so "{search.games}" is the games per line-up of the `search` dataset); data_note: the
    index's "Data" cell of a page that reads no simulated dataset; labels: how the index names a
    dataset parameter ("pututu" -> "with Pututu").
    """

    name: str
    notebook: str
    title: str
    description: str
    datasets: Mapping[str, RunData | TournamentData | LadderData | RobustData] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    data_note: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)

    def spec(self, games: int = DEFAULT_GAMES, data_dir: str | Path = "data", seed: int = DEFAULT_SEED,
             precision: float | None = None) -> ReportSpec:
        """precision: the `sim run` datasets (RunData) play until their headline intervals are that
        narrow, `games` their cap (ensure_precision); the other datasets take their share of games."""
        datasets = {key: data.spec(games, data_dir, seed, precision) if isinstance(data, RunData)
                    else data.spec(games, data_dir, seed) for key, data in self.datasets.items()}
        return ReportSpec(self.name, self.notebook, self.title, self.description.format(**datasets), datasets,
                          dict(self.parameters), self.data_note, dict(self.labels))


def overview_section(data: RunData, name: str, title: str, description: str, by: str = "",
                     position_note: str = "", sections: str = "", **parameters: Any) -> ReportSection:
    """The game's overview page (notebooks/overview.ipynb) on one dataset: the headline answers.

    by: the players column whose position 0 is the first player ("start_order", "seat"; "" = the
    turn-order column when the dataset records one, else the seat); position_note: how that first
    player is chosen, in words; sections: "module:function" of the game's own overview sections,
    called with the Dataset and returning OverviewSection objects (Cuzco: its dice odds)."""
    values = {"game": data.game, "by": by, "position_note": position_note, "sections": sections, **parameters}
    return ReportSection(name, OVERVIEW_NOTEBOOK, title, description, {"dataset": data},
                         {key: value for key, value in values.items() if value != ""})


def win_rates_section(data: RunData, name: str = "win_rates", title: str = "Win rates and balance",
                      description: str = "Who wins: by seat and turn order, by bot, seat x bot; balance measures, "
                                         "score margins, game length, how games end.") -> ReportSection:
    """The win-rates page (notebooks/win_rates.ipynb) on one dataset."""
    return ReportSection(name, "win_rates", title, description, {"dataset": data})


def card_strength_section(data: RunData, name: str = "card_strength", title: str = "Card strength",
                          description: str = "Which cards go with winning: win rate when held, when played, "
                                             "improvement when played, and a seat- and bot-controlled "
                                             "estimate.") -> ReportSection:
    """The card-strength page (notebooks/card_strength.ipynb) on one dataset."""
    return ReportSection(name, "card_strength", title, description, {"dataset": data})


def comparison_section(data: RunData, compare_to: RunData, name: str = "variant_comparison",
                       title: str = "Variant comparison",
                       description: str = "What the variant changes: seat balance, scores, game length, bots and "
                                          "cards, each difference with an interval.") -> ReportSection:
    """The comparison page (notebooks/variant_comparison.ipynb): compare_to (B) against data (A)."""
    return ReportSection(name, "variant_comparison", title, description, {"dataset": data, "compare_to": compare_to})


def tournament_section(data: TournamentData, name: str, title: str,
                       description: str = "How strong each bot is (openskill ratings, win rate against the field), "
                                          "which strategies survive in equilibrium, whether one dominates, and the "
                                          "skill ladder.") -> ReportSection:
    """The bots' meta-game page (notebooks/tournament.ipynb) on a tournament dataset."""
    return ReportSection(name, "tournament", title, description, {"dataset": data})


def ladder_section(data: LadderData, search: LadderData | None, name: str, title: str,
                   description: str) -> ReportSection:
    """The skill-ladder page (notebooks/ladder.ipynb): a ladder dataset and, for slow upper rungs
    (a search bot), a second one with fewer games per line-up whose first rung is data's last."""
    datasets = {"dataset": data} if search is None else {"dataset": data, "search": search}
    return ReportSection(name, "ladder", title, description, datasets, {} if search is not None else {"search": ""})


def tuning_section(game: str, name: str | None = None, title: str | None = None) -> ReportSection:
    """The tuned-bots page (notebooks/tuning.ipynb): `sim tune`'s output for the game
    (bots.tuned.toml and its tune_logs/), read as it is; it simulates nothing."""
    return ReportSection(name or f"tuning_{game}", "tuning", title or f"{game.capitalize()} tuned bots",
                         "What tuning did to each bot: provenance, held-out win rate against its base bot, the "
                         "learning curve and how far each weight moved.", {}, {"game": game},
                         data_note=f"tuned bots: sim/games/{game}/bots.tuned.toml and tune_logs/")


ROBUST_NOTEBOOK = "robust"


def robust_section(game: str, effect: str | None = None) -> ReportSection:
    """The robustness page (notebooks/robust.ipynb) of a game that declares tables of its
    reconstructed numbers: every headline verdict under every table; effect: the label of the
    switch whose effect is checked too. `sim report` adds it for every such game (game_sections)
    and gives it the verdicts it computed (`verdicts`)."""
    checked = "first player, bot ranking, strongest and weakest cards" + (
        f", {effect}'s effect on each measure" if effect else "")
    return ReportSection(f"robust_{game}", ROBUST_NOTEBOOK, f"{game.capitalize()}: robustness to the reconstructed "
                         f"numbers", f"Do the headline verdicts ({checked}) hold under every plausible table of the "
                         "numbers we had to reconstruct? {dataset.games:,} games per table, the same seeds.",
                         {"dataset": RobustData(f"{game}-robust", game)}, {"verdicts": ""})


# ------------------------------------------------------------------------- sections by game
def game_sections(game) -> tuple[ReportSection | ReportSpec, ...]:
    """The report sections a game asks for, in its order (the game contract's report_sections()),
    then its robustness page when it declares robustness tables (Game.robustness()), then its
    skill page when its `sim skill` evidence is committed (sim/games/<game>/skill/)."""
    sections = tuple(game.report_sections())
    robust = game.robustness()
    if robust is not None and not any(s.notebook == ROBUST_NOTEBOOK for s in sections):
        sections += (robust_section(game.name, None if robust.effect is None else robust.effect.label),)
    evidence = skill_evidence(game)
    if evidence is not None and not any(s.notebook == SKILL_NOTEBOOK for s in sections):
        from sim.analysis.skill import skill_section

        sections += (skill_section(evidence.relative_to(REPO_ROOT) if evidence.is_relative_to(REPO_ROOT)
                                   else evidence, game.name),)
    return sections


SKILL_NOTEBOOK = "skill"


def skill_evidence(game) -> Path | None:
    """The game's committed `sim skill` evidence (sim/games/<game>/skill/), None when there is none."""
    from sim.studies.skill import game_folder

    folder = game_folder(game) / "skill"
    return folder if (folder / "manifest.json").is_file() else None


def default_specs(games: int = DEFAULT_GAMES, data_dir: str | Path = "data",
                  seed: int = DEFAULT_SEED, game: str | None = None, precision: float | None = None) -> list[ReportSpec]:
    """The main job's reports: every game's sections (games in name order), each with `games` games
    per simulated dataset (tournaments and ladders: their share of it) under data_dir, from seed;
    game: that game's sections only (`sim report --game NAME`; an unknown name is a UserError)."""
    from sim.core import registry

    games_ = [registry.get_game(game)] if game is not None else registry.all_games()
    return [section if isinstance(section, ReportSpec) else section.spec(games, data_dir, seed, precision)
            for found in games_ for section in game_sections(found)]


def _reuse_or_play(path: Path, what: str, found_of: Callable[[dict], dict], wanted: dict[str, Any], games: int,
                   simulate: bool, check_size: bool, play: Callable[[], Any]) -> bool:
    """Check a complete dataset's manifest (found_of(manifest) against wanted, and the game count when
    check_size), or play (resume) it; True if it was played. what: "tournament", "skill ladder", ..."""
    from sim.core.dataset import read_manifest

    status = dataset_status(path)
    if status == "complete":
        manifest = read_manifest(path)
        found, wanted = found_of(manifest), dict(wanted)
        if check_size:
            found["games"], wanted["games"] = manifest["config"].get("games"), games
        for key, value in wanted.items():
            if found[key] != value:
                raise UserError(f"{path} holds a {what} with {key} = {found[key]!r}, not {value!r}: remove it, or "
                                f"choose another data folder (--data)")
        return False
    if not simulate:
        raise UserError(f"{path} holds no complete dataset; run without --no-simulate to make it")
    if status == "incomplete" and not _is_partial_run(Path(path)):
        raise UserError(f"{path} exists but is not a complete dataset; remove it or choose another "
                        f"data folder (--data)")
    play()
    return True


def _ensure_tournament(spec: TournamentDatasetSpec | LadderDatasetSpec, simulate: bool, check_size: bool,
                       workers: int | None, progress: bool) -> bool:
    """Check a complete tournament (or skill ladder) against its spec, or play (resume) it; True if it
    was played."""
    from sim.studies.tournament import MANIFEST_KEY, run_ladder, run_tournament

    ladder = isinstance(spec, LadderDatasetSpec)
    bots = tuple(spec.rungs if ladder else spec.bots)

    def found(manifest: dict) -> dict:
        record = manifest.get(MANIFEST_KEY) or {}
        return {"game": manifest["config"].get("game"), "bots": tuple(record.get("bots", ())),
                "ladder": None if record.get("ladder") is None else tuple(record["ladder"]),
                "players": record.get("players"), "seed": manifest["config"].get("seed")}

    wanted = {"game": spec.game, "bots": bots, "ladder": bots if ladder else None, "players": spec.players,
              "seed": spec.seed}
    play = run_ladder if ladder else run_tournament
    return _reuse_or_play(spec.path, "skill ladder" if ladder else "tournament", found, wanted, spec.games, simulate,
                          check_size, lambda: play(spec.game, list(bots), spec.path, spec.players, spec.games,
                                                   spec.seed, workers or os.cpu_count() or 1, SIMULATION_CHUNK,
                                                   resume=True, progress=progress))


def _ensure_robust(spec: RobustDatasetSpec, simulate: bool, check_size: bool, workers: int | None,
                   progress: bool) -> bool:
    """Check a complete robustness dataset against its spec (game, seed, the tables and their variant
    files, games per cell), or play (resume) it; True if it was played."""
    from sim.core import registry
    from sim.core.robust import MANIFEST_KEY
    from sim.studies.robust import game_robustness, run_robust

    game = registry.get_game(spec.game)
    robust = game_robustness(game)

    def tables(record: dict | None) -> list:
        return [[t["name"], t["variant"]] for t in (record or {}).get("tables", [])]

    def found(manifest: dict) -> dict:
        return {"game": manifest["config"].get("game"), "tables": tables(manifest.get(MANIFEST_KEY)),
                "seed": manifest["config"].get("seed")}

    wanted = {"game": spec.game, "tables": tables(robust.record()), "seed": spec.seed}
    return _reuse_or_play(spec.path, "robustness run", found, wanted, spec.games, simulate, check_size,
                          lambda: run_robust(game, spec.path, spec.games, spec.seed,
                                             workers=workers or os.cpu_count() or 1, chunk_size=SIMULATION_CHUNK,
                                             resume=True, progress=progress, spec=robust))


def _compile_ahead(plan: dict[str, tuple[str, ...]], what: str, failed: str, fallback: str, progress: bool) -> None:
    """compile_side_by_side(plan) in spawned processes, one per game, with a line per game ready;
    a game the worker processes cannot import (a test's) is left to compile here, with one line."""
    from sim.core.compile_engines import compile_side_by_side, ready_line

    if progress:
        print(f"compiling {what} of {', '.join(plan)} side by side (first use; then cached)...",
              file=sys.stderr, flush=True)
    try:
        compile_side_by_side(plan, os.cpu_count() or 1, start_method="spawn",
                             on_ready=(lambda name, timings: print(ready_line(name, timings), file=sys.stderr,
                                                                   flush=True)) if progress else None)
    except Exception as error:
        if progress:
            print(f"{failed} ({type(error).__name__}: {error}); {fallback}", file=sys.stderr, flush=True)


def _compile_engines_first(to_play: Sequence[Any], progress: bool) -> None:
    """Compile (or load) the engines the datasets to play need, one process per game side by side
    (sim.core.compile_engines), before the first is played: from an empty cache each game's engine
    takes a minute or more of one core, and compiled one after another on first use they would leave
    the other core idle (make run from a clean clone)."""
    from sim.core.compile_engines import DEFAULT, SEARCH, SEARCH_BOT

    plan: dict[str, set[str]] = {}
    for spec in to_play:
        engines = plan.setdefault(spec.game, {DEFAULT})
        bots = getattr(spec, "rungs", None) or getattr(spec, "bots", None) or ()
        if SEARCH_BOT in bots:
            engines.add(SEARCH)
    if sum(len(engines) for engines in plan.values()) < 2:
        return
    _compile_ahead({game: tuple(sorted(engines, key=(DEFAULT, SEARCH).index)) for game, engines in plan.items()},
                   "the engines", "engines not compiled ahead", "each compiles on first use", progress)


def _import_games_first(progress: bool) -> None:
    """Import the games not yet in the Numba cache side by side, one spawned process each, before
    this process imports them to list the reports: a game's import compiles its levels (sim.core.jit),
    most of its engine, and one game after another here they took over three minutes of `make run`
    from a clean clone with the other core idle. The rest of each engine compiles later
    (_compile_engines_first)."""
    from sim.core.compile_engines import uncached_games

    cold = uncached_games()
    if len(cold) >= 2:
        _compile_ahead(dict.fromkeys(cold, ()), "the rules and bots", "games not imported ahead",
                       "each compiles on import", progress)


# --------------------------------------------------------------------------------- datasets
def dataset_status(path: str | Path) -> str:
    """'complete', 'missing' (no directory) or 'incomplete' (a directory without a complete manifest)."""
    from sim.core.dataset import read_manifest

    path = Path(path)
    if not path.exists():
        return "missing"
    try:
        read_manifest(path)
    except UserError:
        return "incomplete"
    return "complete"


def _is_partial_run(path: Path) -> bool:
    """A directory left by a killed run: only games/ and players/ and its running manifest."""
    allowed = {"games", "players", ".manifest.json.tmp", "manifest.json"}
    return path.is_dir() and {p.name for p in path.iterdir()} <= allowed


def check_dataset(spec: DatasetSpec, check_size: bool = True) -> None:
    """UserError if the complete dataset at spec.path is not the run the spec describes."""
    from sim.core import registry
    from sim.core.dataset import read_manifest
    from sim.core.params import resolve_variant_file

    config = read_manifest(spec.path)["config"]
    game = registry.get_game(spec.game)
    variant = resolve_variant_file(game, spec.variant_file()).variant_name
    wanted = {"game": spec.game, "players": spec.players, "seed": spec.seed, "variant": variant,
              "rotate_seats": spec.rotate_seats}
    if check_size:
        wanted["games"] = spec.games
    for key, value in wanted.items():
        if config.get(key) != value:
            raise UserError(f"{spec.path} holds a run with {key} = {config.get(key)!r}, not {value!r}: "
                            f"remove it, or choose another data folder (--data)")


def ensure_datasets(datasets: Sequence[DatasetSpec], simulate: bool = True, check_size: bool = True,
                    workers: int | None = None, progress: bool = True, compile_first: bool = False) -> list[DatasetSpec]:
    """Simulate every dataset whose directory holds no complete run; returns those simulated.
    compile_first: before playing, compile the engines they need side by side (_compile_engines_first).

    A run that was interrupted is resumed (its finished chunks are kept; a different configuration
    is refused); any other incomplete directory is an error, never deleted.
    """
    from sim.core import registry, runner
    from sim.core.dataset import read_any_manifest
    from sim.core.lineup import lineup_indices
    from sim.core.params import resolve_variant_file

    unique = list(dict.fromkeys(datasets))
    tournaments = [spec for spec in unique if isinstance(spec, (TournamentDatasetSpec, LadderDatasetSpec))]
    robust = [spec for spec in unique if isinstance(spec, RobustDatasetSpec)]
    unique = [spec for spec in unique if not isinstance(spec, (TournamentDatasetSpec, LadderDatasetSpec,
                                                               RobustDatasetSpec))]
    sized = [spec for spec in unique if spec.precision]
    unique = [spec for spec in unique if not spec.precision]
    todo = []
    for spec in unique:
        status = dataset_status(spec.path)
        if status == "complete":
            check_dataset(spec, check_size)
        elif not simulate:
            raise UserError(f"{spec.path} holds no complete dataset; run without --no-simulate to make it")
        elif status == "incomplete" and not _is_partial_run(Path(spec.path)):
            raise UserError(f"{spec.path} exists but is not a complete dataset; remove it or choose another "
                            f"data folder (--data)")
        else:
            todo.append(spec)
    for spec in sized:
        if dataset_status(spec.path) == "complete":
            check_dataset(spec, check_size=False)
        elif not simulate:
            raise UserError(f"{spec.path} holds no complete dataset; run without --no-simulate to make it")
        elif dataset_status(spec.path) == "incomplete" and not _is_partial_run(Path(spec.path)):
            raise UserError(f"{spec.path} exists but is not a complete dataset; remove it or choose another "
                            f"data folder (--data)")
    _compile_engines_first(todo + sized + [spec for spec in tournaments + robust
                                           if dataset_status(spec.path) != "complete"]
                           if simulate and compile_first else [], progress)
    played = [spec for spec in sized if ensure_precision(spec, simulate, workers, progress)]
    for number, spec in enumerate(todo, 1):
        game = registry.get_game(spec.game)
        variant_file = spec.variant_file()
        params = resolve_variant_file(game, variant_file)
        names, lineup = lineup_indices(game.default_bots(spec.players))
        if Path(spec.path).exists() and read_any_manifest(spec.path) is None:
            shutil.rmtree(spec.path)  # killed before its first manifest was written: nothing to keep
        if progress:
            print(f"simulating {number}/{len(todo)}: {spec.game} ({params.variant_name}), {spec.players} players, "
                  f"{spec.games:,} games, seed {spec.seed} -> {spec.path}", file=sys.stderr, flush=True)
        runner.run(game, params, spec.players, names, lineup, spec.rotate_seats, spec.games, spec.seed, spec.path,
                   workers or os.cpu_count() or 1, SIMULATION_CHUNK, progress=progress,
                   variant_path=None if spec.variant is None else spec.variant, resume=True)
    return (todo + played
            + [spec for spec in tournaments if _ensure_tournament(spec, simulate, check_size, workers, progress)]
            + [spec for spec in robust if _ensure_robust(spec, simulate, check_size, workers, progress)])


PRECISION_START = 20_000  # games a dataset sized by precision plays first (two chunks)


def headline_half_width(path: str | Path) -> float:
    """The widest half-width of a dataset's headline intervals: the first player's win rate (turn
    position 0, or seat 0 in a game without a turn order) and each bot's win rate (95%, Wilson)."""
    from sim.core.summary import summarize

    summary = summarize(path)
    first = summary.by_order if summary.by_order is not None else summary.by_seat
    rows = [first.loc[first.index[0]]] + [row for _, row in summary.by_bot.iterrows()]
    return max((row["win_high"] - row["win_low"]) / 2 for row in rows)


def ensure_precision(spec: DatasetSpec, simulate: bool, workers: int | None, progress: bool) -> bool:
    """Play (or grow) the dataset until its headline half-width is at most spec.precision or it
    holds spec.games (the cap); True if games were played. It starts with PRECISION_START games and
    grows in whole chunks to the size the last half-width asks for (half-widths shrink as 1/sqrt(n)),
    so a grown dataset holds exactly the games a run of its final size would (sim.core.runner grow)."""
    from sim.core import registry, runner
    from sim.core.dataset import read_manifest
    from sim.core.lineup import lineup_indices
    from sim.core.params import resolve_variant_file

    if not simulate:  # a complete dataset is read as it is (ensure_datasets checked it)
        return False
    game = registry.get_game(spec.game)
    params = resolve_variant_file(game, spec.variant_file())
    names, lineup = lineup_indices(game.default_bots(spec.players))
    chunk = SIMULATION_CHUNK
    n = min(spec.games, PRECISION_START)
    played = False
    while True:
        if dataset_status(spec.path) == "complete":
            n = max(n, int(read_manifest(spec.path)["config"]["games"]))
        if dataset_status(spec.path) != "complete" or read_manifest(spec.path)["config"]["games"] < n:
            if progress:
                print(f"simulating {spec.game} ({params.variant_name}), {spec.players} players, {n:,} games "
                      f"(until the headline intervals are +-{100 * spec.precision:g} points, at most "
                      f"{spec.games:,}), seed {spec.seed} -> {spec.path}", file=sys.stderr, flush=True)
            runner.run(game, params, spec.players, names, lineup, spec.rotate_seats, n, spec.seed, spec.path,
                       workers or os.cpu_count() or 1, chunk, progress=progress,
                       variant_path=None if spec.variant is None else spec.variant, resume=True, grow=True)
            played = True
        half = headline_half_width(spec.path)
        if half <= spec.precision or n >= spec.games:
            if progress:
                print(f"{spec.path}: {n:,} games, headline intervals +-{100 * half:.2f} points", file=sys.stderr,
                      flush=True)
            return played
        wanted = n * (half / spec.precision) ** 2 * 1.05
        n = min(spec.games, max(n + chunk, math.ceil(wanted / chunk) * chunk))


# ------------------------------------------------------------------------ notebook helpers
def show(result, max_rows: int = 60, precision: int = 3) -> None:
    """Display an analysis Result in a notebook: its figure, then its table (rounded, first rows)."""
    import pandas as pd
    from IPython.display import HTML, Markdown, display

    table, figure = result
    if figure is not None:
        display(HTML(figure_html(figure)))
    if table is None or not len(table):
        return
    shown = plain_columns(named_items(table.head(max_rows), table.attrs.get("item_names")))
    styler = shown.style.format(precision=precision, thousands=",", na_rep="-")
    if isinstance(shown.index, pd.RangeIndex):
        styler = styler.hide(axis="index")
    display(styler)
    if len(table) > max_rows:
        display(Markdown(f"*First {max_rows} of {len(table):,} rows.*"))


# Plain names for the raw column names of the analysis tables (issue 37: a designer reads "95% low",
# not `ci_low`); a column not named here shows with spaces for underscores.
PLAIN_COLUMNS = {
    "ci_low": "95% low", "ci_high": "95% high", "ci_lo": "95% low", "ci_hi": "95% high",
    "rate": "win rate", "expected": "fair share", "n_games": "games", "p_value": "p-value",
    "p_adjusted": "adjusted p-value", "p_adj": "adjusted p-value", "start_order": "turn position",
    "gih_wr": "win rate when held (GIH WR)", "gih": "win rate when held (GIH WR)", "gih_games": "games held",
    "not_held": "win rate when not held", "held_not_played": "win rate when held, not played",
    "played": "win rate when played", "kept": "win rate when kept",
    "held_delta": "held - not held", "iwd": "played - held unplayed (IWD)", "gih_z": "z (GIH WR vs group)",
    "group_mean": "group mean", "n_rounds": "rounds", "sd": "sd", "diff": "B - A",
}
_SUFFIXES = {"_low": "95% low", "_lo": "95% low", "_high": "95% high", "_hi": "95% high"}


def plain_name(column: Any) -> Any:
    """A table column's plain name: PLAIN_COLUMNS, else `<name>_low/_lo/_high/_hi` as
    '<plain name>: 95% low/high', else the name with spaces for underscores."""
    if not isinstance(column, str):
        return column
    if column in PLAIN_COLUMNS:
        return PLAIN_COLUMNS[column]
    for suffix, text in _SUFFIXES.items():
        if column.endswith(suffix) and len(column) > len(suffix):
            return f"{plain_name(column[:-len(suffix)])}: {text}"
    return column.replace("_", " ")


def plain_columns(table):
    """The table with plain column (and index) names for display (plain_name); a name two columns
    would share keeps its raw form."""
    import pandas as pd

    if isinstance(table.columns, pd.MultiIndex):
        return table
    names = [plain_name(c) for c in table.columns]
    clash = {n for n in names if names.count(n) > 1}
    shown = table.copy()
    shown.columns = [c if n in clash else n for c, n in zip(table.columns, names)]
    if not isinstance(shown.index, pd.MultiIndex) and isinstance(shown.index.name, str):
        shown.index = shown.index.rename(plain_name(shown.index.name))
    return shown


def named_items(table, names: Mapping[str, Mapping[str, str]] | None):
    """The table with each item of a card table (columns group, item) shown with the name the game
    gives it, 'm05: 4 feather colours' (table.attrs["item_names"], sim.analysis.cards.item_names)."""
    if not names or "item" not in table.columns or "group" not in table.columns:
        return table
    shown = table.copy()
    shown["item"] = [f"{item}: {names[group][item]}" if item in names.get(group, {}) else item
                     for group, item in zip(table["group"], table["item"])]
    return shown


def number_text(x: float, decimals: int = 2) -> str:
    """A number without decimals when it is whole ('6'), else with `decimals` ('6.42')."""
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:,.{decimals}f}"


def range_text(mean: float, low: float, high: float, unit: str, decimals: int = 2) -> str:
    """A mean with its range in words: '6 rounds in every game' when constant, else '6.42 rounds a game
    on average (from 5 to 8)'."""
    if low == high:
        return f"{number_text(low, decimals)} {unit} in every game"
    return f"{number_text(mean, decimals)} {unit} a game on average (from {number_text(low)} to {number_text(high)})"


def figure_html(figure, dpi: int = 100) -> str:
    """A figure as a PNG <img> with its titles as alternative text (nbconvert keeps only alt and src
    of an output's <img>, so the size is the figure's own at `dpi`)."""
    import base64
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", facecolor="white")
    titles = [figure.get_suptitle(), *(ax.get_title() or ax.get_title("left") for ax in figure.axes)]
    alt = " / ".join(dict.fromkeys(" ".join(t.split()) for t in titles if t.strip())) or "chart"
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}"/>'


def dataset_note(ds) -> str:
    """One Markdown line naming a dataset for a notebook: game, variant, players, games, seed, bots."""
    config = ds.config
    seats = ("every ordering in turn" if config.get("permute_seats") else
             "rotated every game" if config.get("rotate_seats") else "fixed")
    bots = ", ".join(config.get("bots", []))
    note = (f"**{ds.game}** ({ds.variant}), {ds.n_players} players, {ds.n_games:,} games, seed "
            f"{config.get('seed')}, bots by seat: {bots} (seats {seats}); `{ds.path}`")
    from sim.core.stats import no_winner_note

    stalemates = no_winner_note(ds.no_winner_games)
    return note + (f". **{stalemates[0].upper()}{stalemates[1:]}.**" if stalemates else "")


# ------------------------------------------------------------------------------- overview
@dataclass
class OverviewSection:
    """A section a game adds to its overview: a heading, a paragraph and the results shown."""

    title: str
    text: str
    results: Sequence[Any] = ()


@dataclass
class Overview:
    """What the overview notebook needs to know about a dataset's game (see overview_setup)."""

    game: str  # the game's name
    title: str  # the game's name as a title
    by: str  # the players column whose position 0 is the first player
    position_text: str  # "seat (seat 0 starts)", "turn-order position (0 = first player; ...)"
    sections: Callable[[Any], Sequence[OverviewSection]] | None = None

    def extra_sections(self, ds) -> list[OverviewSection]:
        return list(self.sections(ds)) if self.sections is not None else []


def _function(reference: str) -> Callable:
    """The function a "module:function" reference names (a one-line UserError if there is none)."""
    module, _, name = reference.partition(":")
    try:
        function = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError):
        raise UserError(f"no function {reference!r} (give module:function)") from None
    if not callable(function):
        raise UserError(f"{reference!r} is not a function")
    return function


def overview_parameters(game: str) -> dict[str, Any]:
    """The parameters the game's overview section gives the overview notebook ({} without one)."""
    from sim.core import registry

    if game not in registry.game_names():
        return {}
    for section in game_sections(registry.get_game(game)):
        if section.notebook == OVERVIEW_NOTEBOOK:
            return dict(section.parameters)
    return {}


def overview_setup(ds, game: str = "", by: str = "", position_note: str = "", sections: str = "") -> Overview:
    """The game-specific part of the overview of a dataset. Every argument left empty comes from the
    game's overview section (overview_parameters), else from the dataset: game, the dataset's;
    by, "start_order" when the players table records it, else "seat"."""
    if game and game != ds.game:
        raise UserError(f"{ds.path} is a {ds.game} dataset, not {game}")
    defaults = overview_parameters(ds.game)
    by = by or defaults.get("by") or ("start_order" if "start_order" in ds.player_columns() else "seat")
    position_note = position_note or defaults.get("position_note", "")
    sections = sections or defaults.get("sections", "")
    if by == "seat":
        position = "seat (seat 0 starts" + (f"; {position_note})" if position_note else ")")
    else:
        label = "turn-order position" if by == "start_order" else by
        position = f"{label} (0 = first player" + (f"; {position_note})" if position_note else ")")
    return Overview(ds.game, ds.game.capitalize(), by, position, _function(sections) if sections else None)


# ---------------------------------------------------------------------------------- kernels
def _runs_current_python(argv: Sequence[str]) -> bool:
    # jupyter_client starts "python"/"python3"/"python3.X" as the interpreter that launches it.
    short = {"python", f"python{sys.version_info[0]}", "python{}.{}".format(*sys.version_info[:2])}
    return bool(argv) and (argv[0] in short or Path(argv[0]).absolute() == Path(sys.executable).absolute())


def kernel_name() -> str:
    """A Jupyter kernel that runs this very interpreter (so the notebooks import this `sim`).

    `python3` if it does (the usual case in the venv); otherwise a `sim-<hash>` kernel spec is
    registered with ipykernel for sys.executable, under sys.prefix (or the user's folder).
    """
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    manager = KernelSpecManager()
    own = "sim-" + hashlib.sha1(sys.executable.encode()).hexdigest()[:8]
    for name in ("python3", own):
        try:
            if _runs_current_python(manager.get_kernel_spec(name).argv):
                return name
        except NoSuchKernel:
            pass
    from ipykernel.kernelspec import install

    name = own

    try:
        install(kernel_name=name, display_name=f"Python ({sys.executable})", prefix=sys.prefix)
    except OSError:
        install(kernel_name=name, display_name=f"Python ({sys.executable})", user=True)
    return name


def _kernel_manager_class(stderr):
    """nbclient's kernel manager, with the kernel's own stderr (ipykernel's start-up and shutdown
    chatter) sent to a log file instead of the terminal, where it would break the progress bar."""
    from jupyter_client import AsyncKernelManager

    class LoggedKernelManager(AsyncKernelManager):
        async def start_kernel(self, **kw):
            kw.setdefault("stderr", stderr)
            return await super().start_kernel(**kw)

    return LoggedKernelManager


class WarmKernel:
    """One Jupyter kernel kept from one notebook to the next (one per report job).

    A fresh kernel costs about a second to start and 2.5 s to import pandas, matplotlib, scipy and
    statsmodels: most of a small report's time, 27 times in `make run`. Before each notebook the
    user namespace is cleared (`%reset -f`) and every figure closed, so a notebook finds what a
    fresh kernel holds but for the modules already imported (notebooks change no module settings:
    tests/test_analysis_report.py). After a notebook that timed out or killed its kernel, the next
    one gets a new kernel."""

    RESET = "%reset -f\nimport matplotlib.pyplot as _plt\n_plt.close(\"all\")\ndel _plt"

    def __init__(self, name: str, log_path: Path, cwd: Path):
        self.name, self.log_path, self.cwd = name, log_path, cwd
        self.manager = None
        self.log = None

    def execute(self, nb, timeout: int | None) -> None:
        """Run every cell of nb in this kernel, outputs into nb; raises nbclient's errors
        (CellExecutionError after the failing cell's output, CellTimeoutError, DeadKernelError)."""
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellTimeoutError, DeadKernelError

        if self.manager is None:
            self.log = open(self.log_path, "a")
            self.manager = _kernel_manager_class(self.log)(kernel_name=self.name)
        reset = nbformat.v4.new_code_cell(self.RESET)
        nb.cells.insert(0, reset)
        client = NotebookClient(nb, km=self.manager, kernel_name=self.name, timeout=timeout, startup_timeout=120,
                                resources={"metadata": {"path": str(self.cwd)}})
        try:
            client.execute()
        except (CellTimeoutError, DeadKernelError):
            self.close()
            raise
        finally:
            nb.cells.remove(reset)
            counted = [c for c in nb.cells if c.cell_type == "code" and c.get("execution_count")]
            for number, cell in enumerate(counted, 1):  # as a fresh kernel numbers them
                cell.execution_count = number

    def close(self) -> None:
        """Shut the kernel down (now: it may be stuck in a cell) and close its log."""
        from jupyter_core.utils import run_sync

        if self.manager is not None and self.manager.has_kernel:
            run_sync(self.manager.shutdown_kernel)(now=True)
        self.manager = None
        if self.log is not None:
            self.log.close()
            self.log = None


# ------------------------------------------------------------------------------- execution
def default_jobs() -> int:
    """Notebooks executed at once: one per core, at most 4 (each holds its analyses' columns)."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class ReportOutcome:
    spec: ReportSpec
    html: Path
    seconds: float
    error: str | None = None
    datasets: dict[str, str] = field(default_factory=dict)  # parameter -> dataset label


def notebook_path(name: str) -> Path:
    """notebooks/<name>.ipynb, or name itself when it is a path to a .ipynb file."""
    path = Path(name) if name.endswith(".ipynb") else NOTEBOOKS_DIR / f"{name}.ipynb"
    if not path.is_file():
        raise UserError(f"notebook {path} not found (reports need the source checkout's notebooks/ folder)")
    return path


def _dataset_label(path: Path) -> str:
    from sim.analysis.io import open_dataset
    from sim.analysis.tournament import open_tournament

    try:
        return f"{open_tournament(path).description} ({path})"
    except UserError:
        pass
    try:
        ds = open_dataset(path)
        return f"{ds.label}, seed {ds.config['seed']} ({path})"
    except UserError:
        pass
    try:
        from sim.analysis.robust import robust_label

        return f"{robust_label(path)} ({path})"
    except UserError:
        return str(path)


def render_html(nb, title: str, show_code: bool = False) -> str:
    """The executed notebook as one self-contained HTML page (figures embedded as PNG).

    show_code=False hides the code cells and prompts, so a designer reads the text, charts and
    tables only; the papermill-injected parameters cell is always hidden unless code is shown.
    """
    nb = copy.deepcopy(nb)
    nb.metadata["title"] = title
    body, _ = _html_exporter(show_code).from_notebook_node(nb)
    return _REMOTE_SCRIPT.sub("", body)


# The lab template loads require.js and MathJax from a CDN: the pages use neither (no widgets, no
# formulas), and a page read offline or on a closed network logged two failed loads (the browser
# check in tests/test_analysis_report.py), so every script fetched from elsewhere is left out.
_REMOTE_SCRIPT = re.compile(r'<script[^>]*\bsrc="https?://[^"]*"[^>]*>\s*</script>\s*')


_EXPORTERS = threading.local()


def _html_exporter(show_code: bool):
    """render_html's exporter, one per thread and code setting: a new one loads its templates
    again on its first page (0.2 of the 0.46 s a report's page took)."""
    from nbconvert import HTMLExporter

    exporters = _EXPORTERS.__dict__
    if show_code not in exporters:
        exporter = HTMLExporter(template_name="lab")
        exporter.exclude_input = not show_code
        exporter.exclude_input_prompt = not show_code
        exporter.exclude_output_prompt = True
        exporters[show_code] = exporter
    return exporters[show_code]


ANSWERS_HEADING = "## The answers in short"


def _note_position(nb) -> int:
    """Where the page's note on the reconstructed numbers goes: after the cell showing the page's
    answers (ANSWERS_HEADING, in a markdown cell or a cell's Markdown output), so that the page
    opens with its answers; else after the title."""
    for i, cell in enumerate(nb.cells):
        texts = [cell.source] if cell.cell_type == "markdown" else [
            str(o.get("data", {}).get("text/markdown", "")) for o in cell.get("outputs", [])]
        if any(text.lstrip().startswith(ANSWERS_HEADING) for text in texts):
            return i + 1
    return 1 if nb.cells and nb.cells[0].cell_type == "markdown" else 0


def execute_report(spec: ReportSpec, out_dir: Path, kernel: WarmKernel, show_code: bool = False,
                   timeout: int | None = None, note: str = "") -> ReportOutcome:
    """Execute one report's notebook in `kernel` with its parameters injected by papermill and write
    out_dir/<name>.html (even when a cell fails); note: Markdown shown under the page's title (the
    verdicts of its game that depend on a reconstructed number)."""
    import nbformat
    from nbclient.exceptions import CellExecutionError
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook

    source = notebook_path(spec.notebook)
    executed = out_dir / "notebooks" / f"{spec.name}.ipynb"
    executed.parent.mkdir(parents=True, exist_ok=True)
    parameters = {key: str(Path(ds.path).resolve()) for key, ds in spec.datasets.items()}
    parameters.update(spec.parameters)
    started = time.perf_counter()
    error = None
    nb = parameterize_notebook(load_notebook_node(str(source)), parameters, kernel_name=kernel.name)
    try:
        kernel.execute(nb, timeout)
    except CellExecutionError as exc:
        error = f"{exc.ename}: {' '.join(str(exc.evalue).split())}"
    except Exception as exc:  # the kernel died or timed out, or would not start
        error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
    nbformat.write(nb, executed)
    if note:  # under the page's answers when it has some ("## The answers in short"), else its title
        nb.cells.insert(_note_position(nb), nbformat.v4.new_markdown_cell(note))
    if error:
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(
            f"**This report did not finish:** `{error}`. The sections after the failing step are "
            f"empty; the executed notebook is `{executed}` and the kernel's log `{kernel.log_path}`."))
    target = out_dir / f"{spec.name}.html"
    target.write_text(render_html(nb, spec.title, show_code), encoding="utf-8")
    labels = {key: _dataset_label(Path(ds.path)) for key, ds in spec.datasets.items()}
    if not labels and spec.data_note:
        labels = {"": spec.data_note}
    return ReportOutcome(spec, target, time.perf_counter() - started, error, labels)


# -------------------------------------------------------------------------------- verdicts
def spec_game(spec: ReportSpec) -> str | None:
    """The game a report is about: its datasets', else its `game` parameter (the tuned bots)."""
    for dataset in spec.datasets.values():
        return dataset.game
    game = spec.parameters.get("game")
    return game if isinstance(game, str) and game else None


@dataclass
class GameVerdicts:
    """A game's headline verdicts for the index and its pages: the sim.analysis.robust.Robustness
    (None when they could not be computed: `error` says why), where it was saved, and the page
    holding each verdict kind's evidence."""

    game: str
    robustness: Any = None
    path: Path | None = None
    pages: dict[str, str] = field(default_factory=dict)
    robust_page: str | None = None
    error: str | None = None
    skill: dict[str, str] = field(default_factory=dict)  # verdict kind -> its label with skill
    skill_page: str | None = None


def compute_verdicts(specs: Sequence[ReportSpec], out_dir: Path, progress: bool = True) -> dict[str, GameVerdicts]:
    """Every game's headline verdicts, judged under its robustness tables when a report reads its
    robustness dataset: stated from the game's overview dataset (and, for the effect, the comparison
    page's two datasets when the comparison starts from the overview's dataset), saved as
    OUT/verdicts/<game>.json. A game with neither an overview nor a robustness page has none. A
    failure is recorded (GameVerdicts.error, shown in the index), never raised: the pages are
    still built."""
    from sim.analysis.robust import headlines, robustness

    by_game: dict[str, list[ReportSpec]] = {}
    for spec in specs:
        game = spec_game(spec)
        if game:
            by_game.setdefault(game, []).append(spec)
    out = {}
    for game, game_specs in by_game.items():
        def find(notebook: str) -> ReportSpec | None:
            return next((s for s in game_specs if s.notebook == notebook), None)

        overview, cards, comparison, robust = (find(OVERVIEW_NOTEBOOK), find("card_strength"),
                                               find("variant_comparison"), find(ROBUST_NOTEBOOK))
        if overview is None and robust is None:
            continue
        main = Path(overview.datasets["dataset"].path) if overview else None
        pair = None
        if comparison and main and Path(comparison.datasets["dataset"].path) == main:
            pair = Path(comparison.datasets["compare_to"].path)
        home = (overview or robust).name
        result = GameVerdicts(game, robust_page=robust.name if robust else None, pages={
            "position": home, "ranking": home, "strongest": (cards or overview or robust).name,
            "weakest": (cards or overview or robust).name, "effect": (comparison or robust or overview).name})
        skill = next((s for s in game_specs if s.notebook == SKILL_NOTEBOOK), None)
        if skill is not None:
            result.skill, result.skill_page = skill_labels(skill.parameters["evidence"]), skill.name
        try:
            if progress:
                print(f"verdicts: {game}", file=sys.stderr, flush=True)
            if robust is not None:
                result.robustness = robustness(robust.datasets["dataset"].path, main, pair)
            else:
                result.robustness = headlines(main, pair, "the compared variant")
            result.path = result.robustness.save(out_dir / "verdicts" / f"{game}.json")
        except Exception as exc:  # noqa: BLE001 - the pages still get built; the index says why
            result.robustness = None
            detail = " ".join(str(exc).split())
            result.error = detail if isinstance(exc, UserError) else f"{type(exc).__name__}: {detail}"
        out[game] = result
    return out


# which `sim skill` verdict answers each headline verdict kind of the index
SKILL_OF_KIND = {"position": ("first_player", ""), "effect": ("effect:first_player", "")}


def skill_labels(evidence: str | Path) -> dict[str, str]:
    """{headline verdict kind: its label with skill} from a skill evidence folder; {} if unreadable."""
    from sim.analysis.skill import read_skill

    try:
        _, _, labels = read_skill(evidence)
    except (UserError, OSError, ValueError):
        return {}
    out = {}
    for kind, (verdict, item) in SKILL_OF_KIND.items():
        found = labels[(labels["verdict"] == verdict) & (labels["item"] == item)]
        if not found.empty:
            out[kind] = str(found.iloc[0]["label"])
    return out


def _with_verdicts(spec: ReportSpec, verdicts: dict[str, GameVerdicts]) -> tuple[ReportSpec, str]:
    """The spec (a robustness page gets its verdicts file) and the note its page opens with."""
    from sim.analysis.robust import dependence_note

    found = verdicts.get(spec_game(spec) or "")
    if found is None or found.robustness is None:
        return spec, ""
    if spec.notebook == ROBUST_NOTEBOOK:
        return ReportSpec(spec.name, spec.notebook, spec.title, spec.description, spec.datasets,
                          {**spec.parameters, "verdicts": str(found.path.resolve())}, spec.data_note, spec.labels), ""
    link = f"{found.robust_page}.html" if found.robust_page else ""
    return spec, dependence_note(found.robustness, link)


# ----------------------------------------------------------------------------------- index
_INDEX_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 60rem;
       color: #222; line-height: 1.45; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; }
.meta { color: #666; font-size: .9rem; margin-bottom: 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .55rem .6rem; border-bottom: 1px solid #ddd; }
th { font-size: .85rem; text-transform: uppercase; letter-spacing: .03em; color: #555; }
td.data { font-size: .85rem; color: #444; }
.failed { color: #b00020; font-weight: 600; }
a { color: #0b57d0; text-decoration: none; font-weight: 600; }
a:hover { text-decoration: underline; }
h2 { font-size: 1.2rem; margin-top: 1.6rem; }
table.verdicts { margin-bottom: 1rem; }
table.verdicts td:first-child { font-weight: 600; width: 14rem; }
.state { display: inline-block; padding: .05rem .5rem; border-radius: .7rem; font-size: .8rem; font-weight: 600;
         color: #fff; white-space: nowrap; }
.state.holds { background: #1b6e20; }
.state.depends { background: #b3261e; }
.state.unclear { background: #a05a00; }
.state.not-checked { background: #777; }
tr.holds td { background: #f1f8f1; }
tr.depends td { background: #fcefee; }
tr.unclear td { background: #fdf5e8; }
details summary { cursor: pointer; }
.line { display: block; font-size: .85rem; color: #444; margin-top: .3rem; }
.evidence { font-size: .85rem; }
"""


_PARAMETER_LABELS = {"dataset": "data", "compare_to": "against", "search": "search rung"}


def _verdicts_html(verdicts: dict[str, GameVerdicts], pages: set[str]) -> str:
    """The index's opening, a dashboard: per game, one row per headline verdict with the designer's
    question, the answer with its interval, its state under the reconstructed numbers (coloured:
    holds / depends / unclear / not checked) and links to the evidence; the full sentence on what
    it depends on folds away under the state."""
    from sim.analysis.robust import QUESTIONS, verdict_answer, verdict_line, verdict_state

    if not verdicts:
        return ""

    def link(page: str | None, text: str) -> str:
        return f'<a href="{html.escape(page)}.html">{text}</a>' if page and page in pages else ""

    parts = ["<h2>Headline verdicts</h2>",
             '<p>Each answer with its 95% interval, and whether it survives the numbers we had to reconstruct: '
             '<span class="state holds">holds</span> under every plausible table, '
             '<span class="state depends">depends</span> on one (another table gives another answer), '
             '<span class="state unclear">unclear</span> (a table\'s interval does not decide) or '
             '<span class="state not-checked">not checked</span> (no robustness run). The robustness pages show '
             'each table. <em>With stronger play</em> (games with `sim skill` evidence): whether the answer holds at '
             'every level of play from random to the search bot, grows or shrinks with skill, flips, or is '
             'unclear.</p>']
    for game, found in verdicts.items():
        parts.append(f"<h3>{html.escape(game.capitalize())}</h3>")
        if found.robustness is None:
            parts.append(f'<p class="failed">The verdicts could not be computed: {html.escape(found.error or "")}</p>')
            continue
        rows = []
        for v in found.robustness.verdicts:
            state = verdict_state(v)
            links = " &middot; ".join(x for x in (link(found.pages.get(v.kind), "evidence"),
                                                  link(found.robust_page, "under every table")) if x)
            skill_cell = ""
            if found.skill_page:
                label = found.skill.get(v.kind)
                skill_cell = (f'<td>{link(found.skill_page, html.escape(label)) or html.escape(label)}</td>' if label
                              else '<td class="evidence">not measured</td>')
            rows.append(f'<tr class="{state.replace(" ", "-")}"><td>{html.escape(QUESTIONS.get(v.kind, v.subject))}</td>'
                        f"<td>{html.escape(verdict_answer(v))}</td>"
                        f'<td><details><summary><span class="state {state.replace(" ", "-")}">{state}</span></summary>'
                        f'<span class="line">{html.escape(verdict_line(v))}</span></details></td>'
                        f"{skill_cell}"
                        f'<td class="evidence">{links}</td></tr>')
        skill_head = "<th>With stronger play</th>" if found.skill_page else ""
        parts.append('<table class="verdicts"><thead><tr class="head"><th>Question</th><th>Answer (95% interval)</th>'
                     f"<th>Reconstructed numbers</th>{skill_head}<th>Detail</th></tr></thead><tbody>"
                     + "".join(rows) + "</tbody></table>")
    parts.append("<h2>Reports</h2>")
    return "\n".join(parts)


def write_index(outcomes: Sequence[ReportOutcome], out_dir: Path, show_code: bool = False,
                verdicts: dict[str, GameVerdicts] | None = None) -> Path:
    """reports/index.html: the headline verdicts of every game (compute_verdicts), then one row per
    report with its link, one-line description and datasets."""
    import sim

    rows = []
    for outcome in outcomes:
        spec = outcome.spec
        labels = {**_PARAMETER_LABELS, **spec.labels}
        data = "<br>".join(html.escape(f"{labels.get(key, key)}: {label}" if key else label)
                           for key, label in outcome.datasets.items())
        status = (f'<div class="failed">failed: {html.escape(outcome.error)}</div>' if outcome.error else "")
        rows.append(
            f'<tr><td><a href="{html.escape(outcome.html.name)}">{html.escape(spec.title)}</a></td>'
            f"<td>{html.escape(spec.description)}{status}</td><td class=\"data\">{data}</td></tr>")
    created = dt.datetime.now().astimezone().isoformat(timespec="seconds")
    try:
        from sim.core.runner import source_commit

        commit, dirty = source_commit()
    except Exception:  # pragma: no cover - reporting the commit is a courtesy
        commit, dirty = None, None
    version = f"sim {sim.__version__}" + (f", commit {commit[:10]}{' (modified)' if dirty else ''}" if commit else "")
    page = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Simulation reports</title><style>{_INDEX_CSS}</style></head>
<body>
<h1>Simulation reports</h1>
<div class="meta">Built {html.escape(created)} with {html.escape(version)}. Every chart shows 95% intervals;
{"code cells are shown" if show_code else "code cells are hidden (the executed notebooks are in notebooks/)"}.</div>
{_verdicts_html(verdicts or {}, {o.spec.name for o in outcomes})}
<table>
<thead><tr><th>Report</th><th>What it answers</th><th>Data</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody>
</table>
</body>
</html>
"""
    path = out_dir / "index.html"
    path.write_text(page, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ main
def build_reports(specs: Sequence[ReportSpec] | None = None, out_dir: str | Path = "reports", *,
                  games: int | None = None, data_dir: str | Path = "data", simulate: bool = True,
                  show_code: bool = False, workers: int | None = None, jobs: int | None = None,
                  progress: bool = True, timeout: int | None = None, seed: int = DEFAULT_SEED,
                  compile_first: bool = False, game: str | None = None, precision: float | None = None) -> Path:
    """Simulate missing datasets, execute every report's notebook, write HTML; returns index.html.

    specs: the reports (default: `default_specs(games or 200,000, data_dir, seed)`). A dataset is
    simulated when its directory holds no complete manifest; an existing one must be the run its
    spec describes (game, players, seed, variant, seat rotation and, unless simulate=False and
    games is None, the game count). workers: simulation threads (default all cores); jobs:
    notebooks executed at once (default `default_jobs()`); compile_first: compile the engines of the
    datasets to play side by side first (`sim report`; ensure_datasets), the games not yet in the
    Numba cache imported side by side before the default specs import them (_import_games_first).
    Reports whose notebook fails still get their HTML page (with the error) and a line in the
    index; then a UserError names them. game: with the default specs, that game's pages only (and
    an index of them; `sim report --game NAME`); an unknown game is a UserError before anything runs.
    precision: with the default specs, the `sim run` datasets play until their headline intervals
    are +-precision (a rate: 0.005 is half a point), `games` their cap (ensure_precision).
    """
    from tqdm import tqdm

    if games is not None and games < 1:
        raise UserError(f"--games must be at least 1 (got {games})")
    if jobs is not None and jobs < 1:
        raise UserError(f"--jobs must be at least 1 (got {jobs})")
    if game is not None:
        from sim.core import registry

        if game not in registry.game_names():
            raise UserError(f"unknown game '{game}' (known: {', '.join(registry.game_names())})")
    if specs is None:
        if compile_first and simulate and game is None:
            _import_games_first(progress)
        specs = default_specs(games or DEFAULT_GAMES, data_dir, seed, game, precision)
    if not specs:
        raise UserError("no reports to build")
    for spec in specs:
        notebook_path(spec.notebook)
    ensure_datasets([ds for spec in specs for ds in spec.datasets.values()], simulate=simulate,
                    check_size=simulate or games is not None, workers=workers, progress=progress,
                    compile_first=compile_first)
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise UserError(f"two reports share a name: {', '.join(sorted(n for n in set(names) if names.count(n) > 1))}")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    verdicts = compute_verdicts(specs, out_dir, progress)
    specs, notes = zip(*(_with_verdicts(spec, verdicts) for spec in specs))
    notes = {spec.name: note for spec, note in zip(specs, notes)}
    jobs = min(len(specs), jobs or default_jobs())
    (out_dir / "notebooks").mkdir(exist_ok=True)
    kernels: queue.SimpleQueue[WarmKernel] = queue.SimpleQueue()
    name = kernel_name()
    for job in range(jobs):
        kernels.put(WarmKernel(name, out_dir / "notebooks" / f"kernel-{job + 1}.log", Path.cwd()))

    def execute(spec: ReportSpec) -> ReportOutcome:
        kernel = kernels.get()
        try:
            return execute_report(spec, out_dir, kernel, show_code, timeout, notes[spec.name])
        finally:
            kernels.put(kernel)

    outcomes: dict[str, ReportOutcome] = {}
    try:
        with tqdm(total=len(specs), desc="reports", unit="report", disable=not progress, dynamic_ncols=True) as bar:
            # Each notebook runs in a kernel process of its job; these threads only wait on them.
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                futures = [pool.submit(execute, spec) for spec in specs]
                for future in as_completed(futures):
                    outcome = future.result()
                    outcomes[outcome.spec.name] = outcome
                    bar.set_postfix_str(outcome.spec.name)
                    bar.update()
    finally:
        while not kernels.empty():
            kernels.get().close()
    outcomes = [outcomes[spec.name] for spec in specs]
    index = write_index(outcomes, out_dir, show_code, verdicts)
    failed = [o for o in outcomes if o.error]
    if failed:
        first = failed[0]
        raise UserError(f"{len(failed)} of {len(outcomes)} reports failed; {first.spec.name}: {first.error} "
                        f"(see {first.html})")
    unjudged = [found for found in verdicts.values() if found.error]
    if unjudged:
        raise UserError(f"the headline verdicts of {unjudged[0].game} could not be computed: {unjudged[0].error} "
                        f"(see {index})")
    return index
