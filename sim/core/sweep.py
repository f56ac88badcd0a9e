"""Parameter overrides from the command line, and the cells of a parameter sweep.

`--param NAME=VALUE` overrides one parameter of the game's data (a dotted key such as
`rules.headdress_vp_by_round`) without writing a variant file; `sim sweep --param NAME=V1,V2`
lists several values, and the sweep plays every combination. The special name `players` sets the
player count. Values are TOML values (`8`, `true`, `"text"`, `[12, 8, 5]`); a bare word that is not
TOML is taken as a string.

A sweep is one dataset: each cell's parts sit under hive-style directories
(`games/players=3/pututu.enabled=true/part-00000.parquet`), which pyarrow, DuckDB and Polars read
as partition columns, and each game row also carries the values as `param.<name>` columns.
"""
from __future__ import annotations

import itertools
import json
import math
import tomllib
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import numpy as np

from sim.core.errors import UserError
from sim.core.game import Game, Params
from sim.core.lineup import parse_bots
from sim.core.params import BASE_VARIANT, load_variant, resolve_variant_file

PLAYERS = "players"
LINEUP = "lineup"  # a tournament's cells: the bots per seat (sim/studies/tournament.py), not a parameter
TABLE = "table"  # a robustness run's cells: a table of reconstructed numbers (sim/studies/robust.py), not a parameter
PARAM_COLUMN_PREFIX = "param."


def split_values(text: str) -> list[str]:
    """Split on commas that are not inside brackets or quotes: `[8,7],[10,7]` is two values."""
    parts, depth, quote_char, current = [], 0, "", []
    for char in text:
        if quote_char:
            if char == quote_char:
                quote_char = ""
        elif char in "\"'":
            quote_char = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts]


def parse_value(text: str, where: str) -> Any:
    """A TOML value, or the text itself when it is a bare word."""
    if not text:
        raise UserError(f"{where}: empty value")
    try:
        value = tomllib.loads(f"value = {text}")["value"]
    except tomllib.TOMLDecodeError:
        if any(char in text for char in "[]{}\"'=,"):
            raise UserError(f"{where}: {text!r} is not a valid TOML value") from None
        return text
    if isinstance(value, float) and not math.isfinite(value):
        raise UserError(f"{where}: {text!r} is not a finite number")
    return value


def parse_assignment(text: str, several: bool) -> tuple[str, list[Any]]:
    """`NAME=V` (or `NAME=V1,V2,...` when several values are allowed) as (name, values)."""
    name, sep, values_text = text.partition("=")
    name = name.strip()
    where = f"--param {' '.join(text.split())}"
    if not sep or not name:
        raise UserError(f"{where}: expected NAME=VALUE{',VALUE...' if several else ''}")
    if name.startswith(".") or name.endswith(".") or ".." in name:
        raise UserError(f"{where}: '{name}' is not a parameter name")
    texts = split_values(values_text) if several else [values_text.strip()]
    values = [parse_value(t, where) for t in texts]
    if several and len({value_text(v) for v in values}) != len(values):
        raise UserError(f"{where}: a value is listed twice")
    return name, values


def parse_params(assignments: list[str] | None, several: bool) -> dict[str, list[Any]]:
    """Every --param of a command, in order; a name given twice is an error."""
    grid: dict[str, list[Any]] = {}
    for text in assignments or []:
        name, values = parse_assignment(text, several)
        if name in grid:
            raise UserError(f"--param {name} is given twice")
        grid[name] = values
    return grid


def value_text(value: Any) -> str:
    """How a value appears in a directory name, a variant label or a command line (TOML syntax)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"))


def command_value(value: Any) -> str:
    """The value as `--param` reads it back (strings quoted, so `8` stays a string)."""
    return json.dumps(value) if isinstance(value, str) else value_text(value)


def partition_path(coords: dict[str, Any]) -> str:
    """Hive-style `name=value/...` directories; values are URI-encoded as pyarrow's reader expects."""
    return "/".join(f"{quote(name, safe='.')}={quote(value_text(value), safe='.-')}" for name, value in coords.items())


def nested_override(name: str, value: Any) -> dict[str, Any]:
    """{'a': {'b': value}} for 'a.b'."""
    out: dict[str, Any] = value
    for part in reversed(name.split(".")):
        out = {part: out}
    return out


def _deep_merge(target: dict, extra: dict) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _deep_merge(target[key], value)
        else:
            target[key] = value


def resolve_with_overrides(game: Game, variant_path: str | None, overrides: dict[str, Any]) -> Params:
    """Params of the variant file (or the base game) with --param overrides on top, checked by the game.

    The variant file is checked on its own first, so its errors name the file; an override's
    error names the --param.
    """
    base = resolve_variant_file(game, variant_path)
    if not overrides:
        return base
    if variant_path is None:
        base_name, variant = BASE_VARIANT, {}
    else:
        base_name, variant = load_variant(variant_path)
    for name, value in overrides.items():
        _deep_merge(variant, nested_override(name, value))
        game.resolve_params(variant, base_name, where=f"--param {name}={value_text(value)}")
    label = " ".join([base_name] + [f"{name}={value_text(value)}" for name, value in overrides.items()])
    return game.resolve_params(variant, label, where="--param")


@dataclass
class Cell:
    """One combination of a sweep (or the only one of a plain run): its parameters and players."""

    coords: dict[str, Any]
    params: Params
    n_players: int
    lineup_names: list[str]
    partition: str = ""
    bot_names: list[str] | None = None  # distinct bots and each seat's index into them, when the
    lineup: np.ndarray | None = None    # caller fixed them; else derived from lineup_names
    variant_path: str | None = None  # the cell's own variant file (a robustness table), for replay commands

    @property
    def label(self) -> str:
        return ", ".join(f"{name}={value_text(value)}" for name, value in self.coords.items()) or "all games"


def build_cells(game: Game, variant_path: str | None, grid: dict[str, list[Any]], players: int | None,
                bots: str | None, fixed: dict[str, Any] | None = None) -> list[Cell]:
    """Every combination of the grid, in the order the --param options were given, each validated."""
    fixed = dict(fixed or {})
    if PLAYERS in fixed:
        raise UserError("--param players: use --players to set the player count of a run")
    if PLAYERS in grid and players is not None:
        raise UserError("give the player count either as --players or as --param players=..., not both")
    names = list(grid)
    cells = []
    for combo in itertools.product(*(grid[name] for name in names)):
        coords = dict(zip(names, combo))
        overrides = dict(fixed)
        overrides.update({k: v for k, v in coords.items() if k != PLAYERS})
        params = resolve_with_overrides(game, variant_path, overrides)
        n_players = coords.get(PLAYERS, players if players is not None else game.default_players)
        if isinstance(n_players, bool) or not isinstance(n_players, int):
            raise UserError(f"--param players: player counts are whole numbers, not {value_text(n_players)!r}")
        allowed = tuple(game.allowed_players(params))
        if n_players not in allowed:
            raise UserError(f"{game.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                            f"players, not {n_players}")
        cells.append(Cell(coords=coords, params=params, n_players=n_players,
                          lineup_names=parse_bots(game, bots, n_players), partition=partition_path(coords)))
    return cells


def param_column(values: Any, n_rows: int):
    """A games-table column holding one swept value for every row (lists as their TOML text)."""
    import pyarrow as pa

    if isinstance(values, bool):
        return pa.array(np.full(n_rows, values, dtype=bool))
    if isinstance(values, int):
        return pa.array(np.full(n_rows, values, dtype=np.int64))
    if isinstance(values, float):
        return pa.array(np.full(n_rows, values, dtype=np.float64))
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n_rows, dtype=np.int8)),
                                          pa.array([value_text(values)], type=pa.string()))
