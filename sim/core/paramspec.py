"""Parameters declared once: a key of a game's TOML with its type and bounds, from which the core
derives the key's validation and, for the rules an engine reads, its slot in the rules array.

A game lays out its engine's rules array as a `RulesLayout` (in its state.py, beside the other
layouts): each declaration takes the next slots of the array and returns the index of its first,
so the declaration order *is* the layout and the index constants stay plain module-level ints,
which the compiled engine reads as constants (`rules[R_ROUNDS]`):

    RULES = RulesLayout()
    R_ROUNDS = RULES.add(Int("rules.rounds", 1, 6))                  # rules[R_ROUNDS]
    R_PUTUTU = RULES.add(Bool("pututu.enabled"))                     # 0 or 1
    R_EXCHANGE = RULES.add(Ints("exchange", EXCHANGE_NAMES, 1, 6))   # + exchange index
    R_HEADDRESS_VP = RULES.add(IntList("rules.headdress_vp_by_round", 6, -100, 100))  # + round
    R_STATUS_LEN = RULES.add(LengthOf("rules.status_track_vp"))      # the list's length
    R_GOD_DEAL = RULES.add(PerPlayerCount("setup.god_deal_per_pile", 4, 0, 12))      # + players
    R_OFFER_DRAW = RULES.add(Const(3))                               # a fixed number, no key
    N_RULES = RULES.size

The game's data.py then calls `RULES.check(params, where)` in validate() and `RULES.pack(params)`
in engine_arrays(); only the checks across keys (a total that must fit, one key bounded by
another) stay hand-written there. A table of named rows sharing their fields ([goods.soup] count,
food, vp) is one `Records` declaration, checked and packed into its own 2-D array. A declaration
also works alone, for a component that keeps its own packing (a list of roads, missions):
`IntList("villages.vp", 12, 0, 100).check(p, where)`, or `.check_value(value, where)` for an entry
inside a list.

Every error is one line, "<where>: <key> <what>" (the form of sim.core.params.require), e.g.
"variant file v.toml: rules.rounds must be a whole number from 1 to 6 (got 9)".
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Iterator

import numpy as np

from sim.core.params import PROVENANCE_TABLE, format_key, require


def lookup(params: dict[str, Any], key: str) -> Any:
    """The value at a dotted key ("rules.rounds") of nested parameter tables."""
    value: Any = params
    for part in key.split("."):
        value = value[part]
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Param:
    """One declared parameter. Subclasses set `width` (rules slots it takes) and define
    check_value() and pack_value()."""

    key: str
    width: int = 1
    doc: str = ""

    def value(self, params: dict[str, Any]) -> Any:
        return lookup(params, self.key)

    def check(self, params: dict[str, Any], where: str) -> None:
        """UserError "<where>: <key> ..." unless the parameters hold a valid value at this key."""
        self.check_value(self.value(params), where)

    def check_value(self, value: Any, where: str) -> None:
        raise NotImplementedError

    def pack(self, params: dict[str, Any], out: np.ndarray, at: int) -> None:
        """Write the (checked) value into out[at:at + width]."""
        self.pack_value(self.value(params), out, at)

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        out[at] = value


@dataclass(frozen=True)
class Int(Param):
    """A whole number from lo to hi."""

    key: str
    lo: int
    hi: int
    doc: str = ""

    def check_value(self, value: Any, where: str) -> None:
        require(_whole(value) and self.lo <= value <= self.hi, where, self.key,
                f"must be a whole number from {self.lo} to {self.hi} (got {value!r})")


@dataclass(frozen=True)
class Float(Param):
    """A number (a whole one is accepted) from lo to hi; for settings kept in float arrays."""

    key: str
    lo: float
    hi: float
    doc: str = ""

    def check_value(self, value: Any, where: str) -> None:
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
              and self.lo <= value <= self.hi)
        require(ok, where, self.key, f"must be a number from {self.lo} to {self.hi} (got {value!r})")


@dataclass(frozen=True)
class Bool(Param):
    """true or false; packed as 1 or 0."""

    key: str
    doc: str = ""

    def check_value(self, value: Any, where: str) -> None:
        require(isinstance(value, bool), where, self.key, "must be true or false")

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        out[at] = int(value)


@dataclass(frozen=True)
class Choice(Param):
    """One of a fixed tuple of names; packed as its index."""

    key: str
    names: tuple[str, ...]
    doc: str = ""

    def check_value(self, value: Any, where: str) -> None:
        require(value in self.names, where, self.key, f"must be one of {', '.join(self.names)} (got {value!r})")

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        out[at] = self.names.index(value)


@dataclass(frozen=True)
class IntList(Param):
    """A list of whole numbers from lo to hi: exactly `length` of them, or (min, max) of them (the
    slots then hold max entries, the unused ones 0; `unit` names the entries in that message)."""

    key: str
    length: int | tuple[int, int]
    lo: int
    hi: int
    unit: str = "entries"
    doc: str = ""

    @property
    def width(self) -> int:  # type: ignore[override]
        return self.length if isinstance(self.length, int) else self.length[1]

    def check_value(self, value: Any, where: str) -> None:
        require(isinstance(value, list), where, self.key, "must be a list")
        if isinstance(self.length, int):
            require(len(value) == self.length, where, self.key, f"must list exactly {self.length} entries")
        else:
            least, most = self.length
            require(least <= len(value) <= most, where, self.key, f"must list {least} to {most} {self.unit}")
        for v in value:
            require(_whole(v) and self.lo <= v <= self.hi, where, self.key,
                    f"entries must be whole numbers from {self.lo} to {self.hi} (got {v!r})")

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        for i, v in enumerate(value):
            out[at + i] = v


@dataclass(frozen=True)
class Ints(Param):
    """Several whole numbers from lo to hi, the keys `<table>.<name>` for each name, packed in the
    order of `names` (e.g. the pips of each exchange)."""

    key: str
    names: tuple[str, ...]
    lo: int
    hi: int
    doc: str = ""

    @property
    def width(self) -> int:  # type: ignore[override]
        return len(self.names)

    def parts(self) -> tuple[Int, ...]:
        return tuple(Int(f"{self.key}.{format_key(name)}", self.lo, self.hi) for name in self.names)

    def check_value(self, value: Any, where: str) -> None:
        for name, part in zip(self.names, self.parts()):
            part.check_value(value[name], where)

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        for i, name in enumerate(self.names):
            out[at + i] = value[name]


@dataclass(frozen=True)
class PerPlayerCount(Param):
    """A table keyed by player count ({ 2 = 1, 3 = 2, 4 = 2 }) of whole numbers from lo to hi;
    its keys are the player counts the game allows (`player_counts`). It takes max_players + 1
    slots, the value for n players at slot + n (the others 0)."""

    key: str
    max_players: int
    lo: int
    hi: int
    min_players: int = 2
    doc: str = ""

    @property
    def width(self) -> int:  # type: ignore[override]
        return self.max_players + 1

    def check_value(self, value: Any, where: str) -> None:
        require(isinstance(value, dict), where, self.key, "must be a table of player counts")
        for players, v in value.items():
            key = f"{self.key}.{format_key(str(players))}"
            require(isinstance(players, str) and players.isascii() and players.isdigit()
                    and self.min_players <= int(players) <= self.max_players, where, key,
                    f"must name a player count from {self.min_players} to {self.max_players}")
            Int(key, self.lo, self.hi).check_value(v, where)

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        for players, v in value.items():
            out[at + int(players)] = v

    def player_counts(self, params: dict[str, Any]) -> tuple[int, ...]:
        return tuple(sorted(int(k) for k in self.value(params)))


@dataclass(frozen=True)
class LengthOf(Param):
    """The length of a list another declaration checks (a slot only; it checks nothing)."""

    key: str
    doc: str = ""

    def check_value(self, value: Any, where: str) -> None:
        pass

    def pack_value(self, value: Any, out: np.ndarray, at: int) -> None:
        out[at] = len(value)


@dataclass(frozen=True)
class Const(Param):
    """A fixed number the engine reads from the rules array, not a parameter of the TOML."""

    number: int
    doc: str = ""
    key: str = ""

    def value(self, params: dict[str, Any]) -> Any:
        return self.number

    def check_value(self, value: Any, where: str) -> None:
        pass


@dataclass(frozen=True)
class Records:
    """A table of named rows sharing their fields ([goods.soup] count = 7, food = 1, vp = 1, ...),
    packed as a 2-D array with one row per name. `fields` pairs each field's column in the array
    with its declaration, keyed by the field's name within a row; `rows` fixes the names and their
    order, or None takes the table's own in file order (its `source` table aside)."""

    key: str
    fields: tuple[tuple[int, Param], ...]
    columns: int
    rows: tuple[str, ...] | None = None
    doc: str = ""

    def names(self, params: dict[str, Any]) -> list[str]:
        if self.rows is not None:
            return list(self.rows)
        return [name for name in lookup(params, self.key) if name != PROVENANCE_TABLE]

    def check(self, params: dict[str, Any], where: str) -> None:
        table = lookup(params, self.key)
        if self.rows is not None:
            require(set(table) - {PROVENANCE_TABLE} == set(self.rows), where, self.key,
                    f"must define {', '.join(self.rows)}")
        for name in self.names(params):
            row = table[name]
            here = f"{self.key}.{format_key(name)}"
            require(isinstance(row, dict), where, here, "must be a table")
            for _, field in self.fields:
                require(field.key in row, where, f"{here}.{field.key}", "is missing")
                replace(field, key=f"{here}.{field.key}").check_value(row[field.key], where)

    def pack(self, params: dict[str, Any], dtype: Any = np.int32) -> np.ndarray:
        table = lookup(params, self.key)
        names = self.names(params)
        out = np.zeros((len(names), self.columns), dtype)
        for i, name in enumerate(names):
            for column, field in self.fields:
                field.pack_value(table[name][field.key], out[i], column)
        return out


class RulesLayout:
    """An engine's rules array as a sequence of declarations (see the module docstring)."""

    def __init__(self) -> None:
        self._entries: list[tuple[int, Param]] = []
        self.size = 0

    def add(self, param: Param) -> int:
        """Give `param` the next param.width slots; return the first one's index."""
        if param.key and not isinstance(param, LengthOf) and param.key in self.keys():
            raise ValueError(f"rules layout: {param.key} is declared twice")
        at = self.size
        self._entries.append((at, param))
        self.size += param.width
        return at

    def __iter__(self) -> Iterator[tuple[int, Param]]:
        return iter(self._entries)

    def keys(self) -> list[str]:
        """The dotted keys declared (an Ints declaration's every key), in layout order."""
        out: list[str] = []
        for _, param in self._entries:
            if isinstance(param, Ints):
                out += [part.key for part in param.parts()]
            elif param.key and not isinstance(param, LengthOf):
                out.append(param.key)
        return out

    def check(self, params: dict[str, Any], where: str) -> None:
        """Check every declared key, in layout order; the first bad one is a UserError."""
        for _, param in self._entries:
            param.check(params, where)

    def pack(self, params: dict[str, Any], dtype: Any = np.int32) -> np.ndarray:
        """The rules array of checked parameters: each declaration at its slots, the rest 0."""
        out = np.zeros(self.size, dtype)
        for at, param in self._entries:
            param.pack(params, out, at)
        return out


def check_all(params: dict[str, Any], declarations: Any, where: str) -> None:
    """Check a sequence of declarations that take no rules slots (a component's own table)."""
    for param in declarations:
        param.check(params, where)
