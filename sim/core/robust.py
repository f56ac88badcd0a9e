"""The reconstructed-number tables a game declares for robustness runs: the part of the contract.

Many numbers of a game's data are not printed anywhere we could find (components.toml marks them
"reconstructed"). A balance verdict that leans on one of them may flip under another plausible
reading. A game declares the readings it wants checked (`Game.robustness()`, for a TomlGame the
file named by its data module's ROBUST_FILE, e.g. sim/games/cuzco/robust.toml): a list of tables,
each a variant file (variants/robust/<game>-*.toml, with a comment saying the reading and its
source) with the reconstructed number it varies and a line on the reading, and optionally an
*effect*: a switch parameter (Cuzco's `pututu.enabled`) whose effect on every measure is checked
under every table too.

This module reads and checks the declaration (`load_robust_spec`) and holds its data classes; it
imports only the errors and the parameter files, so the contract (sim/core/game.py) can use it. The
study that plays the tables, `sim robust`, is sim/studies/robust.py, and `sim.analysis.robust`
judges its verdicts from the manifest's `robust` record (`RobustSpec.record`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sim.core.errors import UserError
from sim.core.params import load_toml, load_variant, repo_file

BASE_TABLE = "base"
MANIFEST_KEY = "robust"
DEFAULT_GAMES = 20_000  # per cell


@dataclass(frozen=True)
class RobustTable:
    """One alternative reading: a variant file (None: the base game), the reconstructed number it
    varies and the reading in a line."""

    name: str
    variant: str | None
    number: str
    reading: str

    def variant_file(self) -> Path | None:
        """The variant file (sim.core.params.repo_file), None for the base game."""
        return None if self.variant is None else repo_file(self.variant)


@dataclass(frozen=True)
class RobustEffect:
    """A switch whose effect is measured under every table: `param` at `off` against `on`."""

    param: str
    label: str
    off: Any = False
    on: Any = True


@dataclass(frozen=True)
class RobustSpec:
    """What `sim robust GAME` plays: the base game and every table (base first), with the effect."""

    game: str
    tables: tuple[RobustTable, ...]
    effect: RobustEffect | None = None
    share: int = 10  # `sim report` plays 1 in `share` of --games per cell ...
    cap: int = DEFAULT_GAMES  # ... at most `cap`

    def report_games(self, games: int) -> int:
        """Games per cell of the robustness dataset `sim report --games games` plays."""
        return max(1, min(self.cap, games // self.share))

    def record(self) -> dict[str, Any]:
        """The manifest's `robust` record."""
        return {"game": self.game,
                "tables": [{"name": t.name, "variant": t.variant, "number": t.number, "reading": t.reading}
                           for t in self.tables],
                "effect": None if self.effect is None else {"param": self.effect.param, "label": self.effect.label,
                                                            "off": self.effect.off, "on": self.effect.on}}


BASE = RobustTable(BASE_TABLE, None, "", "the game's own data (components.toml)")


def _toml_text(value: Any) -> str:
    """A value as TOML writes it (sim.core.sweep.value_text, which this module cannot import: the
    sweep imports the contract, and the contract reads this module): `8` and `"8"` are the same."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _text(entry: dict, key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise UserError(f"{where}: '{key}' must be a non-empty string")
    return " ".join(value.split())


def load_robust_spec(game_name: str, path: str | Path) -> RobustSpec:
    """A game's robust.toml: `[[tables]]` entries (variant, number, reading; the table is named by
    its variant file's `name`), an optional `[effect]` (param, label, off, on) and an optional
    `[report]` (share, cap). Unknown keys and missing fields are one-line errors."""
    path = Path(path)
    data = load_toml(path)
    where = str(path)
    unknown = sorted(set(data) - {"tables", "effect", "report"})
    if unknown:
        raise UserError(f"{where}: unknown key '{unknown[0]}' (known: tables, effect, report)")
    entries = data.get("tables")
    if not isinstance(entries, list) or not entries:
        raise UserError(f"{where}: give at least one [[tables]] entry")
    tables = [BASE]
    for i, entry in enumerate(entries):
        at = f"{where}: tables[{i}]"
        if not isinstance(entry, dict):
            raise UserError(f"{at} must be a table")
        stray = sorted(set(entry) - {"variant", "number", "reading"})
        if stray:
            raise UserError(f"{at}: unknown key '{stray[0]}' (known: variant, number, reading)")
        variant = _text(entry, "variant", at)
        table = RobustTable("", variant, _text(entry, "number", at), _text(entry, "reading", at))
        name, _ = load_variant(table.variant_file())
        if name == BASE_TABLE or name in {t.name for t in tables}:
            raise UserError(f"{at}: the table name {name!r} (the variant's name) is taken")
        tables.append(RobustTable(name, variant, table.number, table.reading))
    effect = None
    if "effect" in data:
        entry = data["effect"]
        stray = sorted(set(entry) - {"param", "label", "off", "on"}) if isinstance(entry, dict) else ["effect"]
        if stray:
            raise UserError(f"{where}: [effect] unknown key '{stray[0]}' (known: param, label, off, on)")
        effect = RobustEffect(_text(entry, "param", f"{where}: [effect]"), _text(entry, "label", f"{where}: [effect]"),
                              entry.get("off", False), entry.get("on", True))
        if _toml_text(effect.off) == _toml_text(effect.on):
            raise UserError(f"{where}: [effect] off and on are the same value")
    report = data.get("report", {})
    share, cap = report.get("share", 10), report.get("cap", DEFAULT_GAMES)
    for key, value in (("share", share), ("cap", cap)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise UserError(f"{where}: [report] {key} must be a whole number of at least 1")
    return RobustSpec(game_name, tuple(tables), effect, share, cap)
