"""Reading a run's dataset for analysis: the manifest, and only the columns an analysis needs.

Games in which no player won (a stalemate) are left out of every win rate: `win_batches` and
`win_players` read the players rows of the other games, `no_winner_games` counts them.

Datasets can hold millions of games (a 10,000,000-game Cuzco players table has 40,000,000 rows
and over 300 columns), so nothing reads a whole table: every reader names its columns, and
pyarrow reads just those from the Parquet parts. Dictionary (categorical) columns stay
categorical in pandas, which keeps bot and variant labels cheap.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple, Sequence

import numpy as np
import pandas as pd
import pyarrow.dataset as pads
from matplotlib.figure import Figure

from sim.core.dataset import (GAMES_DIR, PLAYERS_DIR, cell_index, cell_manifest, is_sweep, read_manifest,
                              table_dirs)
from sim.core.errors import UserError


SCAN_ROWS = 1_000_000  # rows per record batch of the scan for games without a winner


class Result(NamedTuple):
    """What every analysis returns: a tidy table and a figure drawing it (None if not drawable)."""

    table: pd.DataFrame
    figure: Figure | None


@dataclass
class Dataset:
    """A run directory: manifest.json, games/ and players/ (see sim/core/dataset.py)."""

    path: Path
    manifest: dict[str, Any]  # of a sweep cell: the cell seen as a run (sim.core.dataset.cell_manifest)

    @property
    def config(self) -> dict[str, Any]:
        return self.manifest["config"]

    @property
    def game(self) -> str:
        return self.config["game"]

    @property
    def n_players(self) -> int:
        return int(self.config["players"])

    @property
    def variant(self) -> str:
        return self.config.get("variant", "base")

    @property
    def label(self) -> str:
        """A short name for titles and legends: game, variant, players, games."""
        return f"{self.game} ({self.variant}), {self.n_players} players, {self.n_games:,} games"

    @cached_property
    def _players(self) -> pads.Dataset:
        return pads.dataset(table_dirs(self.path, self.manifest)[1], format="parquet")

    @cached_property
    def _games(self) -> pads.Dataset:
        return pads.dataset(table_dirs(self.path, self.manifest)[0], format="parquet")

    @cached_property
    def n_games(self) -> int:
        return self._games.count_rows()

    def player_columns(self) -> list[str]:
        return list(self._players.schema.names)

    def game_columns(self) -> list[str]:
        return list(self._games.schema.names)

    def players(self, columns: Sequence[str]) -> pd.DataFrame:
        """The players table, only these columns (always name them: the table is wide)."""
        return self._read(self._players, columns, "players")

    def games(self, columns: Sequence[str]) -> pd.DataFrame:
        """The games table, only these columns."""
        return self._read(self._games, columns, "games")

    def _read(self, source: pads.Dataset, columns: Sequence[str], table: str) -> pd.DataFrame:
        missing = [c for c in columns if c not in source.schema.names]
        if missing:
            raise UserError(f"{self.path}: the {table} table has no column {missing[0]!r}")
        return source.to_table(columns=list(columns)).to_pandas()

    def batches(self, table: str, columns: Sequence[str], batch_rows: int = 1_000_000):
        """Record batches of a table as DataFrames, for aggregations that must not hold it all."""
        source = self._players if table == "players" else self._games
        for batch in source.to_batches(columns=list(columns), batch_size=batch_rows):
            yield batch.to_pandas()

    # ---- games without a winner (sim/core/stats.py): left out of every win rate
    @cached_property
    def no_winner_ids(self) -> np.ndarray:
        """Sorted ids of the games in which no player won (a stalemate): one pass over the players'
        game_id and won, remembering only those games (and the few a record batch splits)."""
        candidates: set[int] = set()
        decided_edges: set[int] = set()
        for batch in self.batches("players", ["game_id", "won"], SCAN_ROWS):
            if not len(batch):
                continue
            per_game = batch.groupby("game_id", sort=False)["won"].any()
            candidates.update(per_game.index[~per_game.to_numpy()].tolist())
            # a game split between batches is the first or the last of each: it may have won elsewhere
            for edge in {int(batch["game_id"].iloc[0]), int(batch["game_id"].iloc[-1])}:
                if per_game.loc[edge]:
                    decided_edges.add(edge)
        return np.array(sorted(candidates - decided_edges), dtype=np.int64)

    @property
    def no_winner_games(self) -> int:
        """How many games no player won; they are left out of win rates."""
        return int(len(self.no_winner_ids))

    def decided(self, frame: pd.DataFrame) -> pd.DataFrame:
        """The rows of `frame` (it has game_id) from games some player won."""
        if not len(self.no_winner_ids):
            return frame
        return frame[~np.isin(frame["game_id"].to_numpy(), self.no_winner_ids)]

    def win_batches(self, columns: Sequence[str], batch_rows: int = 1_000_000):
        """Record batches of the players table (these columns) from the games some player won: the
        rows a win rate counts. Without games lacking a winner, exactly `batches("players", ...)`."""
        if not len(self.no_winner_ids):
            yield from self.batches("players", columns, batch_rows)
            return
        columns = list(columns)
        for batch in self.batches("players", list(dict.fromkeys([*columns, "game_id"])), batch_rows):
            yield self.decided(batch)[columns].reset_index(drop=True)

    def win_players(self, columns: Sequence[str]) -> pd.DataFrame:
        """The players table (these columns) of the games some player won."""
        if not len(self.no_winner_ids):
            return self.players(columns)
        columns = list(columns)
        return self.decided(self.players(list(dict.fromkeys([*columns, "game_id"]))))[columns].reset_index(drop=True)


REPO_ROOT = Path(__file__).resolve().parents[2]


def data_path(path: str | Path) -> Path:
    """A dataset path as given, or, when it is relative and names nothing from here but does from the
    repository's folder, that one: a notebook opened in JupyterLab (`make lab`) runs in notebooks/,
    and its `dataset = "data/cuzco-base"` means the repository's data/."""
    path = Path(path)
    if path.is_absolute() or path.exists() or not (REPO_ROOT / path).exists():
        return path
    return REPO_ROOT / path


def open_dataset(path: str | Path, cell: int | str | dict | None = None) -> Dataset:
    """A finished run directory, or one cell of a sweep (an index, {name: value} or 'name=value,...');
    a one-line UserError if it is not one. A relative path is read from the repository's folder when
    it names nothing from here (data_path)."""
    path = data_path(path)
    if not (path / GAMES_DIR).is_dir() or not (path / PLAYERS_DIR).is_dir():
        raise UserError(f"{path}: not a dataset directory (no games/ and players/ tables)")
    manifest = read_manifest(path)
    if is_sweep(manifest):
        manifest = cell_manifest(manifest, cell_index(manifest, cell, path))
    elif cell is not None:
        raise UserError(f"{path} is a single run, not a sweep: it has no cells")
    return Dataset(path=path, manifest=manifest)
