"""Parquet dataset of a run: `manifest.json` plus `games/` and `players/` with one part per chunk.

A directory of part files is what pandas, DuckDB and Polars all read as one table, and writing a
part per chunk keeps memory bounded however many games a run has. Parts are written under a
hidden temporary name then renamed, so a reader never sees half a file.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.core.errors import UserError
from sim.core.game import ChunkResult

GAMES_DIR = "games"
PLAYERS_DIR = "players"
MANIFEST = "manifest.json"
COMPRESSION = "zstd"
GAME_KEY_COLUMNS = ("game_id", "seed", "game", "variant", "n_players")
PLAYER_KEY_COLUMNS = ("game_id", "seat", "bot")


def part_name(chunk_index: int) -> str:
    return f"part-{chunk_index:05d}.parquet"


def _index_type(n_labels: int) -> np.dtype:
    """Smallest signed index dtype for a dictionary, fixed by the label count so every part of a
    run shares one schema."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_labels <= np.iinfo(dtype).max + 1:
            return np.dtype(dtype)
    return np.dtype(np.int64)


def dictionary_column(codes: np.ndarray, labels: list[str]) -> pa.DictionaryArray:
    """A categorical column from integer codes (validated against the labels)."""
    codes = np.asarray(codes)
    if not np.issubdtype(codes.dtype, np.integer):
        raise TypeError(f"dictionary codes must be integers, got {codes.dtype}")
    indices = pa.array(codes.astype(_index_type(len(labels)), copy=False))
    return pa.DictionaryArray.from_arrays(indices, pa.array(labels, type=pa.string()), safe=True)


def _constant_label(label: str, n_rows: int) -> pa.DictionaryArray:
    return dictionary_column(np.zeros(n_rows, dtype=np.int8), [label])


def _engine_columns(columns: dict[str, np.ndarray], categories: dict[str, list[str]], n_rows: int,
                    reserved: tuple[str, ...], table: str) -> dict[str, pa.Array]:
    out: dict[str, pa.Array] = {}
    for name, values in columns.items():
        if name in reserved:
            raise ValueError(f"engine {table} column '{name}' clashes with a key column the core adds")
        values = np.asarray(values)
        if values.ndim != 1 or values.shape[0] != n_rows:
            raise ValueError(f"engine {table} column '{name}' has shape {values.shape}, expected ({n_rows},)")
        out[name] = dictionary_column(values, categories[name]) if name in categories else pa.array(values)
    return out


def build_tables(
    result: ChunkResult,
    *,
    game_name: str,
    variant_name: str,
    run_seed: int,
    n_players: int,
    bot_names: list[str],
    seat_bots: np.ndarray,
    first_game: int,
    n_games: int,
) -> tuple[pa.Table, pa.Table]:
    """The games and players tables of one chunk: key columns first, then the engine's columns."""
    game_ids = np.arange(first_game, first_game + n_games, dtype=np.int64)
    games: dict[str, pa.Array] = {
        "game_id": pa.array(game_ids),
        "seed": pa.array(np.full(n_games, run_seed, dtype=np.int64)),
        "game": _constant_label(game_name, n_games),
        "variant": _constant_label(variant_name, n_games),
        "n_players": pa.array(np.full(n_games, n_players, dtype=np.int8)),
    }
    games.update(_engine_columns(result.game_columns, result.categories, n_games, GAME_KEY_COLUMNS, "game"))

    n_rows = n_games * n_players
    seat_bots = np.asarray(seat_bots)
    if seat_bots.shape != (n_games, n_players):
        raise ValueError(f"seat_bots has shape {seat_bots.shape}, expected ({n_games}, {n_players})")
    players: dict[str, pa.Array] = {
        "game_id": pa.array(np.repeat(game_ids, n_players)),
        "seat": pa.array(np.tile(np.arange(n_players, dtype=np.int8), n_games)),
        "bot": dictionary_column(seat_bots.reshape(-1), bot_names),
    }
    players.update(_engine_columns(result.player_columns, result.categories, n_rows, PLAYER_KEY_COLUMNS, "player"))
    return pa.table(games), pa.table(players)


def write_table_atomic(table: pa.Table, path: Path) -> None:
    """Write a Parquet file under a hidden name in the same directory, then rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp, compression=COMPRESSION)
    os.replace(tmp, path)


def write_json_atomic(data: dict[str, Any], path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, path)


class DatasetWriter:
    """Creates the run directory layout and writes chunk parts and the manifest into it."""

    def __init__(self, out_dir: str | Path):
        self.out_dir = Path(out_dir)
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.out_dir.mkdir()
        (self.out_dir / GAMES_DIR).mkdir()
        (self.out_dir / PLAYERS_DIR).mkdir()

    def write_chunk(self, chunk_index: int, games: pa.Table, players: pa.Table) -> list[str]:
        """Write one chunk's parts; returns their paths relative to the run directory."""
        name = part_name(chunk_index)
        write_table_atomic(games, self.out_dir / GAMES_DIR / name)
        write_table_atomic(players, self.out_dir / PLAYERS_DIR / name)
        return [f"{GAMES_DIR}/{name}", f"{PLAYERS_DIR}/{name}"]

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        write_json_atomic(manifest, self.out_dir / MANIFEST)


def read_manifest(run_dir: str | Path) -> dict[str, Any]:
    """The manifest of a complete run directory (UserError if it is missing or unreadable)."""
    path = Path(run_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError(f"{run_dir}: not a dataset directory (no {MANIFEST})") from None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read manifest ({' '.join(str(exc).split())})") from None
    if manifest.get("status") != "complete":
        raise UserError(f"{run_dir}: dataset is not complete (status {manifest.get('status')!r})")
    return manifest
