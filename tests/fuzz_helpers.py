"""Shared pieces of the hostile-input fuzz tests (tests/test_fuzz_*.py).

- `dumps`: a tiny TOML writer (tomli_w is not a dependency) for the values a variant can hold.
- `run_cli`: `sim.cli.main(argv)` in-process, returning (status, stdout, stderr).
- `assert_user_error`: the contract of every bad input: status 2, one `error: ` line, no traceback.
- strategies for hostile values and for mutating one leaf of a game's default parameters.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from sim.cli import main

INT64_MAX = 2**63 - 1

# Reproducible in CI: no example database, examples derived from the test's name.
FUZZ = settings(database=None, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# ------------------------------------------------------------------ a minimal TOML writer
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, except DEL and other controls, escaped here."""
    body = json.dumps(text, ensure_ascii=False)[1:-1]
    body = "".join(f"\\u{ord(c):04x}" if ord(c) == 0x7F or 0x80 <= ord(c) <= 0x9F else c for c in body)
    return f'"{body}"'


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        return text if any(c in text for c in ".en") else text + ".0"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {type(value).__name__}")


def toml_value(value: Any) -> str:
    """One value in TOML syntax (inline arrays and tables), e.g. for `--param KEY=VALUE`."""
    return _value(value)


def dumps(doc: dict[str, Any]) -> str:
    """A TOML document: scalars and arrays first, then one [table] section per nested table."""
    lines: list[str] = []

    def emit(table: dict[str, Any], prefix: tuple[str, ...]) -> None:
        scalars = {k: v for k, v in table.items() if not isinstance(v, dict)}
        tables = {k: v for k, v in table.items() if isinstance(v, dict)}
        if prefix and (scalars or not tables):
            lines.append("[" + ".".join(_key(k) for k in prefix) + "]")
        for key, value in scalars.items():
            lines.append(f"{_key(key)} = {_value(value)}")
        for key, value in tables.items():
            emit(value, (*prefix, key))

    emit(doc, ())
    return "\n".join(lines) + "\n"


def nest(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """{'a': {'b': value}} for the path ('a', 'b')."""
    for key in reversed(path):
        value = {key: value}
    return value


def leaves(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """(path, value) of every non-table value, in file order."""
    out = []
    for key, value in table.items():
        if isinstance(value, dict):
            out += leaves(value, (*prefix, key))
        else:
            out.append(((*prefix, key), value))
    return out


def dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


# ------------------------------------------------------------------ running the CLI in-process
def run_cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `sim ARGV`, run in this process."""
    capsys.readouterr()  # drop whatever an earlier example left
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_user_error(status: int, err: str, *fragments: str) -> str:
    """Status 2 and exactly one stderr line `error: ...` (containing every fragment); the line."""
    lines = err.splitlines()
    assert status == 2, (status, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


def names_key(line: str, path: str) -> bool:
    """Whether an error line names the dotted key `path` (or its list, or a table holding it).

    `a.b[3]` is named by `a.b[3]` or `a.b`; `a.b.c` by `a.b.c`, or by `a.b` / `a` for a check over
    a whole table (e.g. "goods holds 31 goods"), as long as the name stands alone in the line.
    """
    base = path.split("[", 1)[0]
    parts = base.split(".")
    candidates = [path] + [".".join(parts[:n]) for n in range(len(parts), 0, -1)]
    for name in candidates:
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", line):
            return True
    return False


def dataset_is_complete(out: Path, n_games: int) -> bool:
    manifest = json.loads((out / "manifest.json").read_text())
    if manifest.get("status") != "complete" or manifest["config"]["games"] != n_games:
        return False
    import pyarrow.dataset as ds

    games = ds.dataset(out / "games", format="parquet").to_table(columns=["game_id"]).column("game_id")
    return sorted(games.to_pylist()) == list(range(n_games))


# ------------------------------------------------------------------ hostile values
def text(min_size: int = 0, max_size: int = 20) -> st.SearchStrategy[str]:
    """Text a command line or TOML file can carry (no lone surrogates, no NUL)."""
    return st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                   min_size=min_size, max_size=max_size)


huge_ints = st.one_of(st.integers(min_value=2**31, max_value=INT64_MAX),
                      st.integers(max_value=-(2**31), min_value=-(2**63)),
                      st.integers(min_value=2**63, max_value=2**200),
                      st.integers(max_value=-(2**63) - 1, min_value=-(2**200)))
odd_floats = st.one_of(st.sampled_from([math.nan, math.inf, -math.inf, 0.5, -0.0]),
                       st.floats(allow_nan=True, allow_infinity=True))
scalars = st.one_of(st.integers(-5, 200), huge_ints, odd_floats, st.booleans(), text(max_size=8))


def wrong_values(default: Any) -> st.SearchStrategy[Any]:
    """Values a designer might write in place of `default`: other types, edge numbers, odd lists."""
    options = [scalars, st.lists(scalars, max_size=4), st.dictionaries(text(1, 6), scalars, max_size=2)]
    if isinstance(default, bool):
        options.append(st.booleans())
    elif isinstance(default, int):
        options += [st.integers(-3, 3), st.integers(-1000, 1000), st.just(-default), st.just(default + 1),
                    st.just(default * 10), st.just(default - 1), huge_ints]
    elif isinstance(default, str):
        options += [text(0, 12), st.just(default.upper()), st.just(default + " ")]
    elif isinstance(default, list):
        options.append(_list_mutations(default))
    return st.one_of(options)


def _list_mutations(default: list) -> st.SearchStrategy[list]:
    """The default list, shortened, lengthened, emptied, reordered, or with one element replaced."""
    options = [st.just([]), st.just(default * 2), st.just(list(reversed(default)))]
    if default:
        options += [st.integers(0, len(default) - 1).map(lambda n: default[:n]),
                    st.integers(1, 5).map(lambda n: default + default[-1:] * n)]

        @st.composite
        def one_element(draw):
            i = draw(st.integers(0, len(default) - 1))
            out = list(default)
            out[i] = draw(wrong_values(default[i]) if not isinstance(default[i], list)
                          else st.one_of(wrong_values(default[i]), _list_mutations(default[i])))
            return out

        options.append(one_element())
    return st.one_of(options)
