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
from sim.core.game import ChunkResult, check_columns
from sim.core.sweep import value_text

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
    """The games and players tables of one chunk: key columns first, then the engine's columns
    (checked against the contract's column schema)."""
    check_columns(game_name, result, n_games, n_players)
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


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_table_atomic(table: pa.Table, path: Path) -> None:
    """Write a Parquet file under a hidden name in the same directory, then rename it into place.

    A run killed mid-write leaves only the hidden file, which readers skip and resume removes.
    """
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        pq.write_table(table, tmp, compression=COMPRESSION)
        _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes_atomic(data: bytes, path: Path) -> None:
    """Write a file under a hidden name, fsync it, then rename it into place."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json_atomic(data: dict[str, Any], path: Path) -> None:
    write_bytes_atomic((json.dumps(data, indent=2, sort_keys=False) + "\n").encode(), path)


def resume_chunk_size(requested: int | None, resume: bool, out_dir: Path, default: int) -> int:
    """--chunk-size, or on --resume the interrupted run's own, or the default."""
    if requested is not None:
        return requested
    if resume and out_dir.is_dir():
        stored = read_any_manifest(out_dir)
        if isinstance(stored, dict) and isinstance(stored.get("config"), dict):
            return int(stored["config"].get("chunk_size") or default)
    return default


def create_run_dir(out_dir: Path) -> None:
    """The run directory with its empty tables (the parent is created as needed)."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    out_dir.mkdir()
    (out_dir / GAMES_DIR).mkdir()
    (out_dir / PLAYERS_DIR).mkdir()


def write_chunk_parts(out_dir: Path, partition: str, chunk_index: int, games: pa.Table,
                      players: pa.Table) -> list[str]:
    """Write one chunk's parts (under a sweep cell's partition directories, if any); returns their
    paths relative to the run directory."""
    name = part_name(chunk_index)
    files = []
    for table_dir, table in ((GAMES_DIR, games), (PLAYERS_DIR, players)):
        relative = Path(table_dir, partition, name) if partition else Path(table_dir, name)
        (out_dir / relative).parent.mkdir(parents=True, exist_ok=True)
        write_table_atomic(table, out_dir / relative)
        files.append(relative.as_posix())
    return files


def remove_temporary_files(out_dir: Path) -> int:
    """Delete the hidden part files a killed run left behind; returns how many."""
    stale = [p for table in (GAMES_DIR, PLAYERS_DIR) for p in (out_dir / table).rglob(".*.tmp")]
    stale += list(out_dir.glob(".*.tmp"))
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


def read_any_manifest(run_dir: str | Path) -> dict[str, Any] | None:
    """The manifest of a run directory whatever its status; None if there is none."""
    path = Path(run_dir) / MANIFEST
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: cannot read manifest ({' '.join(str(exc).split())})") from None


def read_manifest(run_dir: str | Path) -> dict[str, Any]:
    """The manifest of a complete run directory (UserError if it is missing or unreadable)."""
    path = Path(run_dir) / MANIFEST
    manifest = read_any_manifest(run_dir)
    if manifest is None:
        raise UserError(f"{run_dir}: not a dataset directory (no {MANIFEST})")
    if not isinstance(manifest, dict):
        raise UserError(f"{path}: not a run manifest")
    if manifest.get("status") != "complete":
        raise UserError(f"{run_dir}: dataset is not complete (status {manifest.get('status')!r}); "
                        f"finish it by running the same command again with --resume")
    check_manifest(manifest, path)
    if not (Path(run_dir) / GAMES_DIR).is_dir() or not (Path(run_dir) / PLAYERS_DIR).is_dir():
        raise UserError(f"{run_dir}: damaged dataset (no {GAMES_DIR}/ and {PLAYERS_DIR}/ tables)")
    return manifest


# Types of the config keys readers use; a key that is present must have its type (hand-made
# manifests may leave keys out: each reader that needs one asks with require_config).
_CONFIG_TYPES = {"game": str, "games": int, "seed": int, "rotate_seats": bool, "permute_seats": bool,
                 "players": int, "bots": list, "variant": str}


def _not_a_manifest(path: Path, what: str) -> UserError:
    return UserError(f"{path}: not a run manifest ({what})")


def check_manifest(manifest: dict[str, Any], path: Path) -> None:
    """UserError naming the first mistyped key a reader would trip on."""
    config = manifest.get("config")
    if not isinstance(config, dict):
        raise _not_a_manifest(path, "no config table")
    for key, kind in _CONFIG_TYPES.items():
        value = config.get(key)
        if value is not None and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise _not_a_manifest(path, f"config.{key} must be a {kind.__name__}")
    if manifest.get("params") is not None and not isinstance(manifest["params"], dict):
        raise _not_a_manifest(path, "params must be a table")
    if is_sweep(manifest):
        cells = manifest.get("cells")
        if not isinstance(cells, list) or not cells or not all(
                isinstance(c, dict) and isinstance(c.get("coords"), dict)
                and isinstance(c.get("params", manifest.get("params")), dict)
                and isinstance(c.get("players"), int) and isinstance(c.get("partition"), str) for c in cells):
            raise _not_a_manifest(path, "sweep cells")


def require_config(manifest: dict[str, Any], run_dir: str | Path, keys: tuple[str, ...]) -> dict[str, Any]:
    """The manifest's config, with a UserError if it lacks a key this reader needs."""
    config = manifest["config"]
    missing = [key for key in keys if config.get(key) is None]
    if missing:
        raise _not_a_manifest(Path(run_dir) / MANIFEST, f"no config.{missing[0]}")
    return config


def is_sweep(manifest: dict[str, Any]) -> bool:
    return manifest.get("kind") == "sweep"


def cell_index(manifest: dict[str, Any], cell: int | str | dict[str, Any] | None, run_dir: str | Path) -> int:
    """Which cell of a sweep: an index, {name: value}, or 'name=value,name=value' (values as in the
    directory names). A sweep of one cell needs no choice."""
    cells = manifest.get("cells") or []
    labels = [",".join(f"{k}={value_text(v)}" for k, v in c["coords"].items()) for c in cells]
    if cell is None:
        if len(cells) == 1:
            return 0
        raise UserError(f"{run_dir} is a sweep of {len(cells)} cells: choose one ({'; '.join(labels)})")
    if isinstance(cell, int) and not isinstance(cell, bool):
        if 0 <= cell < len(cells):
            return cell
        raise UserError(f"{run_dir}: no cell {cell} (the sweep has {len(cells)})")
    wanted = cell if isinstance(cell, dict) else dict(part.split("=", 1) for part in str(cell).split(",") if "=" in part)
    wanted = {k.strip(): value_text(v).strip() for k, v in wanted.items()}
    matches = [i for i, c in enumerate(cells)
               if all(k in c["coords"] and value_text(c["coords"][k]) == v for k, v in wanted.items())]
    if len(matches) != 1 or not wanted:
        raise UserError(f"{run_dir}: '{cell}' matches {len(matches)} cells of the sweep ({'; '.join(labels)})")
    return matches[0]


def cell_params(manifest: dict[str, Any], cell: dict[str, Any]) -> dict[str, Any]:
    """A cell's resolved parameters: its own, or the manifest's when it shares the first cell's."""
    return cell.get("params", manifest.get("params"))


def cell_manifest(manifest: dict[str, Any], index: int) -> dict[str, Any]:
    """A sweep cell seen as a plain run: its players, bots, variant and parameters in the config."""
    cell = manifest["cells"][index]
    config = dict(manifest["config"], players=cell["players"], bots=cell["bots"], variant=cell["variant"])
    chunks = [c for c in manifest.get("chunks", []) if c.get("cell", 0) == index]
    return dict(manifest, config=config, params=cell_params(manifest, cell), cell=cell["coords"],
                partition=cell["partition"],
                chunks=chunks)


def table_dirs(run_dir: str | Path, manifest: dict[str, Any]) -> tuple[Path, Path]:
    """(games, players) directories of a run, or of the sweep cell a cell_manifest describes."""
    partition = manifest.get("partition") or ""
    run_dir = Path(run_dir)
    return run_dir / GAMES_DIR / partition, run_dir / PLAYERS_DIR / partition
