"""The contract between the game-agnostic machinery and one game.

A game package under `sim/games/<name>/` exposes a module-level `GAME` object satisfying `Game`
(usually a `TomlGame` subclass). The core never imports a game by name: the registry discovers the
packages under `sim.games`, and everything the core, the analyses and the command line read from a
game is declared on `Game` below; nothing is read through getattr or by convention.

Data flow of a run:
  params = game.resolve_params(variant_dict)        # validated; UserError names the bad key
  seat_bots = sim.core.lineup.seat_bot_matrix(...)  # int8 [n_games, n_players] bot index per seat
  result = game.simulate(params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, ...)
  -> ChunkResult with plain NumPy columns; the core checks them against GAME_COLUMNS and
     PLAYER_COLUMNS (check_columns), adds the key columns and writes Parquet.

docs/adding-a-game.md says what a game's author writes and what the core gives them.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from sim.core.bots_file import nearest_known
from sim.core.errors import UserError
from sim.core.params import merge_variant
from sim.core.robust import RobustSpec, load_robust_spec

CATEGORY = "category"  # an integer-coded column written as a dictionary column (ChunkResult.categories)

# The columns every game writes, with their dtypes: what the analyses may rely on for any game.
# A game writes any further columns it likes (counters, card columns named by its card_groups).
GAME_COLUMNS: dict[str, np.dtype | str] = {
    "n_rounds": np.dtype(np.int16),  # rounds played
    "winner_seat": np.dtype(np.int8),  # the seat that won alone; -1 on a shared win or without a result
    "end_reason": CATEGORY,  # why the game ended; a game without a result says so here
}
PLAYER_COLUMNS: dict[str, np.dtype | str] = {
    "score": np.dtype(np.int16),  # final points
    "rank": np.dtype(np.int8),  # 1 = best; tied players share a rank
    "won": np.dtype(np.bool_),  # a shared win marks every winner; a game without a result marks none
}

# A replay ends with one line per seat in this form, so tests and tools can check it against the
# batch row (replay_final_line writes it).
REPLAY_FINAL = re.compile(r"final: seat (\d+) \((.*)\) scores (-?\d+), rank (\d+)")


def replay_final_line(seat: int, bot: str, score: int, rank: int, won: bool) -> str:
    return f"final: seat {seat} ({bot}) scores {score}, rank {rank}" + (" (winner)" if won else "")


class ContractError(ValueError):
    """A game broke the contract (a programming error in the game, not a user's input error)."""


@dataclass(frozen=True)
class BotSpec:
    """One bot a designer can name on the command line."""

    name: str
    description: str
    kind: int  # engine dispatch code (e.g. random vs heuristic); meaning is the game's own
    weights: np.ndarray  # float64 weight vector; empty for bots without weights


@dataclass(frozen=True)
class Params:
    """Resolved parameters of one run.

    `resolved` is the JSON-able nested dict written to the manifest (defaults merged with the
    variant); `engine` is whatever the game's engine needs (typed arrays), opaque to the core.
    """

    resolved: dict[str, Any]
    engine: Any
    variant_name: str = "base"


@dataclass(frozen=True)
class CardGroup:
    """A family of cards (or tiles, missions, goods) whose strength the analysis layer measures.

    Columns of the players table are `<prefix><item>` with one item per card kind. `held` counts
    copies gained or held in a game (> 0: the player had it), `played` the copies played (summed
    over the prefixes, e.g. played with an offering and through a medal), `kept` the copies still
    in hand at the end. Empty prefixes mean the game does not record that.
    """

    name: str
    held: str
    played: tuple[str, ...] = ()
    kept: str = ""
    failed: str = ""  # missions: returned unfulfilled (held = done + failed)


@dataclass
class ChunkResult:
    """Columns for one chunk of games, as produced by a game's engine.

    game_columns: name -> array of length n_games (the core adds game_id, seed, game, variant,
        n_players in front).
    player_columns: name -> array of length n_games * n_players, game-major then seat (the core
        adds game_id, seat and bot in front).
    categories: column name -> list of labels, for integer-coded columns that should be written as
        dictionary (categorical) columns, e.g. end_reason.
    failures: list of (game_index, message) for games whose engine reported an error; the core
        reports them with the seed so `sim replay` reproduces them.
    """

    game_columns: dict[str, np.ndarray]
    player_columns: dict[str, np.ndarray]
    categories: dict[str, list[str]] = field(default_factory=dict)
    failures: list[tuple[int, str]] = field(default_factory=list)


def check_columns(game_name: str, result: ChunkResult, n_games: int, n_players: int) -> None:
    """Every column of GAME_COLUMNS and PLAYER_COLUMNS is present, of its dtype and length."""
    for table, schema, columns, n_rows in (("games", GAME_COLUMNS, result.game_columns, n_games),
                                           ("players", PLAYER_COLUMNS, result.player_columns,
                                            n_games * n_players)):
        for name, dtype in schema.items():
            if name not in columns:
                raise ContractError(f"{game_name}: the {table} table lacks the column '{name}' every game writes")
            values = np.asarray(columns[name])
            if values.shape != (n_rows,):
                raise ContractError(f"{game_name}: {table} column '{name}' has shape {values.shape}, "
                                    f"expected ({n_rows},)")
            if dtype == CATEGORY:
                if name not in result.categories or not np.issubdtype(values.dtype, np.integer):
                    raise ContractError(f"{game_name}: {table} column '{name}' must be integer codes with "
                                        "labels in ChunkResult.categories")
            elif values.dtype != dtype:
                raise ContractError(f"{game_name}: {table} column '{name}' is {values.dtype}, the contract "
                                    f"says {dtype}")


class Game(Protocol):
    name: str
    description: str
    player_counts: tuple[int, ...]  # allowed player counts under the default parameters
    default_players: int

    def resolve_params(self, variant: dict[str, Any] | None, variant_name: str = "base",
                       where: str | None = None) -> Params:
        """Merge a parsed variant TOML over the defaults and validate (raise UserError).

        `where` names the variant's source in error messages (e.g. "variant file cheap.toml").
        """

    def allowed_players(self, params: Params) -> tuple[int, ...]:
        """Player counts the resolved parameters support."""

    def bots(self) -> dict[str, BotSpec]:
        """Every bot of this game, by name."""

    def default_bots(self, n_players: int) -> list[str]:
        """The line-up used when the user names no bots (one name per seat)."""

    def simulate(
        self,
        params: Params,
        n_players: int,
        bot_names: list[str],
        seat_bots: np.ndarray,
        run_seed: int,
        first_game: int,
        n_games: int,
        checked: bool = False,
    ) -> ChunkResult:
        """Play games first_game .. first_game+n_games-1 of a run (the real games spread them over threads with sim.core.parallel.run_blocks).

        bot_names: the distinct bot names used in the run; seat_bots[g, s] indexes into it.
        Game i must depend only on (params, n_players, bots of its seats, run_seed, i).
        checked=True verifies the component invariants after every step (slower).
        """

    def replay(
        self,
        params: Params,
        n_players: int,
        bot_names: list[str],
        seat_bots_row: np.ndarray,
        run_seed: int,
        game_index: int,
    ) -> list[str]:
        """A readable turn-by-turn log of one game, reproduced from its seed; it ends with one
        replay_final_line per seat."""

    # ---- what the analyses and reports read
    card_groups: tuple[CardGroup, ...]  # card families whose strength is measured; () for none

    def report_sections(self) -> tuple[Any, ...]:
        """The game's own report pages, in the index's order: `sim.analysis.report.ReportSection`s
        (page name, notebook, title, a line on what it answers, datasets described by what they
        are). `sim report` places them under `--data`, sizes them from `--games`/`--seed` and
        simulates the missing ones. A section whose notebook is `overview` also gives the shared
        overview its game-specific parameters. () for none."""

    def robustness(self) -> RobustSpec | None:
        """The reconstructed-number tables `sim robust` plays (a `sim.core.robust.RobustSpec`: variant
        files of alternative readings, each naming the number it varies, and an optional switch
        whose effect is checked under every table), or None when the game declares none. A
        TomlGame reads the file its data module names as ROBUST_FILE."""

    # ---- what the backends read
    def engine_slice(self, bot_names: list[str]) -> int | None:
        """Games per engine call for these bots (small when a bot takes seconds a game, so the
        progress bar moves and Ctrl-C takes effect); None: the backends' default."""

    # ---- what `sim tune`, the ladder and the tuned-bot reports read
    def kind_name(self, bot: str) -> str:
        """The name of a bot's engine kind ("random", "heuristic", "search", ...)."""

    def weight_names(self, bot: str) -> tuple[str, ...]:
        """Names of the bot's weights in engine order; () when its kind ignores weights."""

    def with_bot(self, name: str, weights: np.ndarray, description: str, kind: int | None = None) -> "Game":
        """A copy of the game whose bots() also holds `name` with these weights."""

    def tuned_bots_path(self) -> Path:
        """Where `sim tune` writes tuned bots (merged into bots() when it exists)."""


SEARCH_ENGINE_SLICE = 16  # a search bot's games take seconds each


class GameData(Protocol):
    """What TomlGame reads from a game's data module (sim/games/<name>/data.py)."""

    TUNED_BOTS_FILE: Path  # where `sim tune` writes tuned bots
    ROBUST_FILE: Path | None  # the game's robustness tables (sim/core/robust.py); None or no such file: none

    def default_components(self) -> dict[str, Any]:
        """components.toml, parsed."""

    def validate(self, resolved: dict[str, Any], where: str) -> None:
        """Checks the merge cannot make (ranges, checks across keys); UserError naming `where` and the key."""

    def engine_arrays(self, resolved: dict[str, Any]) -> Any:
        """The validated parameters packed for the engine (Params.engine)."""

    def player_counts(self, resolved: dict[str, Any]) -> tuple[int, ...]:
        """Player counts these parameters support."""

    def load_bots(self) -> dict[str, tuple[str, int, np.ndarray]]:
        """bots.toml and bots.tuned.toml: {name: (description, kind code, weight vector)}."""

    def default_lineup(self) -> list[str]:
        """bots.toml [lineup] default, repeated round the table."""

    def weight_names(self, kind: str) -> tuple[str, ...]:
        """A kind's weight names in engine order; () for a kind that ignores weights."""

    def bot_kind_names(self) -> tuple[str, ...]:
        """Engine kind codes' names: BotSpec.kind indexes this."""


class GameBase:
    """Defaults for the optional parts of the contract: no card families, no report pages of its
    own, no robustness tables, the backends' engine slice, and bots without weights (so `sim tune` refuses them)."""

    card_groups: tuple[CardGroup, ...] = ()
    # what a search bot's rollout is worth, in words (`sim search-map` states its gaps in it)
    search_value: str = "the search bot's rollout value"

    def report_sections(self) -> tuple[Any, ...]:
        return ()

    def robustness(self) -> RobustSpec | None:
        return None

    def engine_slice(self, bot_names: list[str]) -> int | None:
        return None

    def kind_name(self, bot: str) -> str:
        return "fixed"

    def weight_names(self, bot: str) -> tuple[str, ...]:
        return ()

    def with_bot(self, name: str, weights: np.ndarray, description: str, kind: int | None = None) -> "Game":
        raise UserError(f"{self.name}: bots have no weights to set")

    def tuned_bots_path(self) -> Path:
        raise UserError(f"{self.name}: bots have no weights, so there is no tuned-bots file")

    def reload_bots(self) -> None:
        """Forget the bots read so far, so bots() reads the bot files again (a league just wrote one)."""


class TomlGame(GameBase):
    """The plumbing every game with TOML data shares: variants, player counts, bots by name.

    A subclass sets `name`, `description`, `default_players` and `data`, the game's data module
    (GameData), and `card_groups`; it adds simulate() and replay(), and report_sections() when it
    has report pages of its own.
    """

    name: str
    description: str
    default_players: int
    data: GameData
    card_groups: tuple[CardGroup, ...] = ()

    def __init__(self) -> None:
        self._bots: dict[str, BotSpec] | None = None

    @property
    def player_counts(self) -> tuple[int, ...]:
        return self.data.player_counts(self.data.default_components())

    def resolve_params(self, variant: dict[str, Any] | None, variant_name: str = "base",
                       where: str | None = None) -> Params:
        where = where or f"variant {variant_name}"
        resolved = merge_variant(self.data.default_components(), variant or {}, where)
        self.data.validate(resolved, where)
        return Params(resolved=resolved, engine=self.data.engine_arrays(resolved), variant_name=variant_name)

    def allowed_players(self, params: Params) -> tuple[int, ...]:
        return self.data.player_counts(params.resolved)

    def robustness(self) -> RobustSpec | None:
        """The tables of the data module's ROBUST_FILE (sim.core.robust.load_robust_spec); None
        without one."""
        path = self.data.ROBUST_FILE
        if path is None or not Path(path).is_file():
            return None
        return load_robust_spec(self.name, path)

    def reload_bots(self) -> None:
        self._bots = None

    def bots(self) -> dict[str, BotSpec]:
        if self._bots is None:
            self._bots = {
                name: BotSpec(name=name, description=desc, kind=kind, weights=w)
                for name, (desc, kind, w) in self.data.load_bots().items()
            }
        return self._bots

    def engine_slice(self, bot_names: list[str]) -> int | None:
        """Games per engine call when a search bot plays (seconds per game, so the progress bar
        moves and Ctrl-C takes effect); None: the backends' default."""
        specs = self.bots()
        kinds = self.data.bot_kind_names()
        if any(name in specs and kinds[specs[name].kind] == "search" for name in bot_names):
            return SEARCH_ENGINE_SLICE
        return None

    def default_bots(self, n_players: int) -> list[str]:
        """bots.toml's [lineup] round the table; a tuned bot missing from bots.tuned.toml (a designer
        removed the file) falls back to the nearest bot it was tuned from."""
        known = self.bots()
        styles = [nearest_known(name, known) for name in self.data.default_lineup()]
        return [styles[s % len(styles)] for s in range(n_players)]

    def bot_arrays(self, bot_names: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Engine arrays for a list of bot names: kinds (int8) and weight rows (float64)."""
        specs = self.bots()
        unknown = [b for b in bot_names if b not in specs]
        if unknown:
            raise UserError(f"unknown bot '{unknown[0]}' for {self.name} (known: {', '.join(specs)})")
        kinds = np.array([specs[b].kind for b in bot_names], np.int8)
        weights = np.stack([specs[b].weights for b in bot_names]).astype(np.float64)
        return kinds, weights

    # ----------------------------------------------------------------- tuning support (sim tune)
    # A tuner plays candidate weight vectors under a bot name, and writes the winner by weight name.

    def kind_name(self, bot: str) -> str:
        """The name of a bot's engine kind ("random", "heuristic", ...)."""
        return self.data.bot_kind_names()[self._spec(bot).kind]

    def weight_names(self, bot: str) -> tuple[str, ...]:
        """Names of the bot's weights in engine order; () when its kind ignores weights (random)."""
        return tuple(self.data.weight_names(self.kind_name(bot)))

    def with_bot(self, name: str, weights: np.ndarray, description: str, kind: int | None = None) -> "TomlGame":
        """A shallow copy of the game whose bots() also holds `name` with these weights.

        A bot of that name is overridden (and lends its kind when none is given); the original game
        is unchanged. The engine reads weights through bot_arrays(), so simulate() plays them.
        """
        bots = dict(self.bots())
        if kind is None:
            kind = self._spec(name).kind
        vector = np.asarray(weights, dtype=np.float64)
        length = next(iter(bots.values())).weights.shape if bots else vector.shape
        if vector.shape != length:
            raise ValueError(f"{self.name}: bot {name} needs {length[0]} weights, got shape {vector.shape}")
        bots[name] = BotSpec(name=name, description=description, kind=int(kind), weights=vector.copy())
        game = copy.copy(self)
        game._bots = bots
        return game

    def tuned_bots_path(self) -> Path:
        """Where `sim tune` writes tuned bots by default, merged into bots() when it exists."""
        return Path(self.data.TUNED_BOTS_FILE)

    def _spec(self, bot: str) -> BotSpec:
        specs = self.bots()
        if bot not in specs:
            raise UserError(f"unknown bot '{bot}' for {self.name} (known: {', '.join(specs)})")
        return specs[bot]
