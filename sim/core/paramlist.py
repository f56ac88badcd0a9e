"""`sim params GAME`: every parameter key of a game with its value, type, bounds and source.

The keys are the leaves of the game's resolved parameters (its components.toml, with a variant
file on top): each dotted key a variant file or `--param` can set. The source is the text of the
`source` table beside the key (or beside its table), whose first word says whether the number is
printed in a rulebook, reconstructed or a reading; the bounds are those of the game's parameter
declarations (sim.core.paramspec) where it declares the key, found among the modules of the
game's package already imported (the core never names a game).
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, Iterator

from sim.core.params import PROVENANCE_TABLE, _kind, format_key
from sim.core import paramspec

SOURCE_KINDS = ("printed", "reconstructed", "reading")
VALUE_WIDTH = 48


@dataclass
class ParamRow:
    key: str
    value: Any
    kind: str
    bounds: str
    source: str

    @property
    def source_kind(self) -> str:
        """printed, reconstructed, reading (the source text's first word), other, or "" (none given)."""
        text = self.source.strip().lower()
        if not text:
            return ""
        return next((kind for kind in SOURCE_KINDS if text.startswith(kind)), "other")


def _leaves(table: dict, prefix: str, ancestors: tuple[dict, ...] = (), inherited: str = ""
            ) -> Iterator[tuple[str, Any, str]]:
    """(dotted key, value, source text) of every leaf below `table`. A key's source is the line of
    its table's `source` table; else the line of that name in an enclosing table's `source` (a table
    of rows, [goods.source] count = ..., documents a field of every row); else its table's own line."""
    own = table.get(PROVENANCE_TABLE)
    own = own if isinstance(own, dict) else {}
    chain = (own, *ancestors)
    for key, value in table.items():
        if key == PROVENANCE_TABLE and isinstance(value, dict):
            continue
        path = f"{prefix}{format_key(str(key))}"
        note = next((t[key] for t in chain if isinstance(t.get(key), str)), inherited)
        if isinstance(value, dict):
            nested = own.get(key)
            yield from _leaves(value, f"{path}.", ((nested,) if isinstance(nested, dict) else ()) + chain, note)
        else:
            yield path, value, note


def _declarations(game: Any) -> Iterator[Any]:
    """Every parameter declaration (paramspec) at module level in the game's imported modules."""
    module_name = type(game).__module__
    package = f"sim.games.{getattr(game, 'name', '')}"
    for name, module in list(sys.modules.items()):
        if module is None or not (name == module_name or name == package or name.startswith(package + ".")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, paramspec.RulesLayout):
                yield from (param for _, param in value)
            elif isinstance(value, (paramspec.Param, paramspec.Records)):
                yield value
            elif isinstance(value, (tuple, list)) and value and all(
                    isinstance(v, (paramspec.Param, paramspec.Records)) for v in value):
                yield from value


def _bounds_text(param: Any) -> str:
    if isinstance(param, (paramspec.Int, paramspec.Float, paramspec.PerPlayerCount)):
        return f"{param.lo} to {param.hi}"
    if isinstance(param, paramspec.IntList):
        length = (f"{param.length}" if isinstance(param.length, int)
                  else f"{param.length[0]}-{param.length[1]}")
        return f"{length} entries, {param.lo} to {param.hi}"
    if isinstance(param, paramspec.Choice):
        return "one of " + ", ".join(param.names)
    return ""


def declared_bounds(game: Any, resolved: dict) -> dict[str, str]:
    """Bounds text by dotted key (a player-count table's keys by table) for the keys the game declares."""
    out: dict[str, str] = {}
    for param in _declarations(game):
        if isinstance(param, paramspec.Ints):
            for part in param.parts():
                out.setdefault(part.key, _bounds_text(part))
        elif isinstance(param, paramspec.Records):
            try:
                names = param.names(resolved)
            except (KeyError, TypeError):
                continue
            for name in names:
                for _, field in param.fields:
                    text = _bounds_text(field)
                    if text:
                        out.setdefault(f"{param.key}.{format_key(name)}.{field.key}", text)
        elif param.key:
            text = _bounds_text(param)
            if text:
                out.setdefault(param.key, text)
    return out


def _kind_text(value: Any) -> str:
    kind = _kind(value)
    if kind == "list" and value:
        kinds = sorted({_kind(item) for item in value})
        return f"list of {kinds[0]}" if len(kinds) == 1 else "list"
    return kind


def value_text(value: Any, width: int = VALUE_WIDTH) -> str:
    """A value as TOML writes it, shortened to `width` characters."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, dict) else json.dumps(value)
    if isinstance(value, bool):
        text = "true" if value else "false"
    return text if len(text) <= width else text[: width - 3] + "..."


def parameter_rows(game: Any, resolved: dict) -> list[ParamRow]:
    bounds = declared_bounds(game, resolved)
    rows = []
    for key, value, source in _leaves(resolved, "", {}):
        table_key = key.rsplit(".", 1)[0]
        bound = bounds.get(key) or (bounds.get(table_key, "") if table_key != key else "")
        rows.append(ParamRow(key, value, _kind_text(value), bound, source))
    return rows


def all_keys(resolved: dict) -> list[str]:
    """Every dotted key a variant can set (tables and leaves), for "did you mean"."""
    keys = []

    def walk(table: dict, prefix: str) -> None:
        for key, value in table.items():
            if key == PROVENANCE_TABLE and isinstance(value, dict):
                continue
            path = f"{prefix}{format_key(str(key))}"
            keys.append(path)
            if isinstance(value, dict):
                walk(value, f"{path}.")

    walk(resolved, "")
    return keys
