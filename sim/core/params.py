"""Parameter files: TOML loading and variant merging with errors that name the offending key.

Games keep their defaults in TOML; a designer's variant file overrides a few of them. A typo must
fail loudly (a silently ignored key would make a whole run meaningless), so every variant key has
to exist in the defaults and keep the default's type.
"""
from __future__ import annotations

import copy
import hashlib
import json
import math
import pickle
import re
import reprlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from sim.core.errors import UserError

PROVENANCE_TABLE = "source"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1  # every integer parameter ends up in a NumPy array
VARIANT_NAME_KEY = "name"
BASE_VARIANT = "base"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


# Parsed TOML files by their content's digest, kept pickled: a game's components file is read for
# every parameter resolution (tens of milliseconds each for the larger games), and a pickle round
# trip hands each caller its own copy several times faster than parsing again.
_PARSED: dict[bytes, bytes] = {}


def load_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file (each caller gets its own copy); any problem becomes a one-line UserError
    naming the file."""
    path = Path(path)
    try:
        text = path.read_bytes()
        key = hashlib.blake2b(text, digest_size=16).digest()
        if key not in _PARSED:
            if len(_PARSED) >= 256:  # a tune or fuzz run reads many one-off variant files
                _PARSED.clear()
            _PARSED[key] = pickle.dumps(tomllib.loads(text.decode()))
        return pickle.loads(_PARSED[key])
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except ValueError as exc:  # TOMLDecodeError carries "(at line L, column C)"; also bad UTF-8
        detail = " ".join(str(exc).split())
        raise UserError(f"{path}: invalid TOML: {detail}") from None


def _kind(value: Any) -> str:
    # bool first: it is a subclass of int but a different parameter type for a designer.
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 60
_SHORT.maxlist = _SHORT.maxdict = 8


def _show(value: Any) -> str:
    """A value for an error message, shortened so a huge list or number stays a readable line."""
    return _SHORT.repr(value)


def _check_numbers(value: Any, where: str, path: str) -> None:
    """Reject numbers no engine can hold, anywhere inside a value: ints beyond 64 bits, NaN and
    infinities (TOML allows all of them)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        raise UserError(f"{where}: parameter '{path}' is out of range: {_show(value)} does not fit in 64 bits")
    if isinstance(value, float) and not math.isfinite(value):
        raise UserError(f"{where}: parameter '{path}' must be a finite number, not {value!r}")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_numbers(item, where, f"{path}[{i}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_numbers(item, where, f"{path}.{format_key(str(key))}")


def _coerce(default_kind: str, value: Any, where: str, path: str) -> Any:
    """The value if its type fits the default's; an int is promoted where a float is expected."""
    kind = _kind(value)
    if default_kind == "float" and kind == "int":
        return float(value)
    if kind != default_kind:
        raise UserError(f"{where}: parameter '{path}' must be a {default_kind}, not a {kind} ({_show(value)})")
    return copy.deepcopy(value)


def _checked_list(default: list, value: list, where: str, path: str) -> list:
    """A replacement list; when the default's elements share one scalar type, so must the new ones."""
    kinds = {_kind(item) for item in default}
    if len(kinds) != 1 or kinds & {"list", "table"}:
        return copy.deepcopy(value)
    (element_kind,) = kinds
    return [_coerce(element_kind, item, where, f"{path}[{i}]") for i, item in enumerate(value)]


def format_key(key: str) -> str:
    """One part of a dotted key path as TOML writes it: bare, or quoted if it must be
    (e.g. `rules."no such"`), so a key holding a newline or a dot still reads as one key."""
    if _BARE_KEY.fullmatch(key):
        return key
    return json.dumps(key, ensure_ascii=not key.isprintable())


def did_you_mean(key: str, table: dict, prefix: str = "") -> str:
    """'; did you mean 'rules.rounds'?' naming the keys of `table` closest to an unknown `key`
    (difflib), or "" when none is close; `sim params GAME` lists every key."""
    import difflib

    known = [str(k) for k in table if not (k == PROVENANCE_TABLE and isinstance(table[k], dict))]
    close = difflib.get_close_matches(str(key), known, n=3, cutoff=0.6)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[k] for k in difflib.get_close_matches(str(key).lower(), list(lowered), n=3, cutoff=0.6)]
    hint = " or ".join(f"'{prefix}{format_key(name)}'" for name in close)
    return f"; did you mean {hint}? (sim params GAME lists every key)" if close else " (sim params GAME lists every key)"


def _merge_into(target: dict, overrides: dict, where: str, prefix: str) -> None:
    for key, value in overrides.items():
        path = f"{prefix}{format_key(key)}"
        if key not in target:
            raise UserError(f"{where}: unknown parameter '{path}'{did_you_mean(key, target, prefix)}")
        default = target[key]
        default_kind = _kind(default)
        if key == PROVENANCE_TABLE and default_kind == "table":
            raise UserError(f"{where}: '{path}' documents where values come from and cannot be overridden")
        if default_kind == "table":
            if not isinstance(value, dict):
                raise UserError(f"{where}: parameter '{path}' must be a table, not a {_kind(value)} ({_show(value)})")
            _merge_into(default, value, where, f"{path}.")
        elif default_kind == "list":
            _check_numbers(value, where, path)
            target[key] = _checked_list(default, _coerce("list", value, where, path), where, path)
        else:
            _check_numbers(value, where, path)
            target[key] = _coerce(default_kind, value, where, path)


def merge_variant(defaults: dict[str, Any], variant: dict[str, Any], where: str) -> dict[str, Any]:
    """Deep-merge `variant` over `defaults` (both untouched) and return the merged copy.

    `where` prefixes every error (e.g. "variant file cheap.toml") so the designer knows which file
    to fix; the error names the full dotted key.
    """
    merged = copy.deepcopy(defaults)
    _merge_into(merged, variant, where, "")
    return merged


def split_variant_name(variant: dict[str, Any], path: str | Path) -> tuple[str, dict[str, Any]]:
    """Separate the optional top-level `name` (default: the file stem) from the parameters."""
    rest = dict(variant)
    name = rest.pop(VARIANT_NAME_KEY, None)
    if name is None:
        return Path(path).stem, rest
    if not isinstance(name, str) or not name.strip():
        raise UserError(f"variant file {path}: 'name' must be a non-empty string")
    return name.strip(), rest


REPO_ROOT = Path(__file__).resolve().parents[2]


def repo_file(path: str | Path) -> Path:
    """A data file named relative to the repository (variants/...): as given when absolute or found from
    the working directory, else from the repository root (so it is found from any folder)."""
    path = Path(path)
    return path if path.is_absolute() or path.exists() else REPO_ROOT / path


def load_variant(path: str | Path) -> tuple[str, dict[str, Any]]:
    """Read a variant file: (variant name, parameter overrides)."""
    return split_variant_name(load_toml(path), path)


def strip_provenance(params: dict[str, Any]) -> dict[str, Any]:
    """A copy without `source` tables, e.g. to feed resolved parameters back as a variant."""
    return {
        key: strip_provenance(value) if isinstance(value, dict) else copy.deepcopy(value)
        for key, value in params.items()
        if not (key == PROVENANCE_TABLE and isinstance(value, dict))
    }


def resolve_variant_file(game: Any, path: str | Path | None):
    """The game's Params for a variant file (None: the base game), errors naming the file.

    Keys and types are checked here against the game's resolved defaults, so the message names
    the file even though `Game.resolve_params` never sees the path; the game then adds its own
    semantic checks.
    """
    if path is None:
        return game.resolve_params(None, BASE_VARIANT)
    where = f"variant file {path}"
    name, variant = load_variant(path)
    merge_variant(game.resolve_params(None, BASE_VARIANT).resolved, variant, where)
    try:
        return game.resolve_params(variant, name, where=where)
    except UserError as exc:
        message = str(exc)
        if str(path) in message:
            raise
        raise UserError(f"{where}: {message}") from None


@dataclass(frozen=True)
class ForbidGroup:
    """A card group whose items `sim value` forbids to one seat at a time (issue 37), as data: the
    game declares it (its `value_groups`) with `forbid(seat, items)`, the variant overrides that
    forbid those items to that seat (a parameter its rules and legal-option listing respect).
    `held` / `played` are the players-table column prefixes (as sim.core.game.CardGroup's) that say
    whether a seat took or played an item, for the held win rate and the check that it never did."""

    name: str
    items: tuple[str, ...]
    forbid: Callable[[int, list[str]], dict[str, Any]]
    held: str = ""
    played: tuple[str, ...] = ()


def merge_overrides(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """`extra` deep-merged over a copy of `base` (two variant dicts; no checks, the game's resolve
    makes them)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_overrides(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def require(ok: bool, where: str, key: str, what: str) -> None:
    """A game's semantic parameter check: a one-line UserError naming the source and the key."""
    if not ok:
        raise UserError(f"{where}: {key} {what}")
