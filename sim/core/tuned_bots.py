"""Reading a game's bots.tuned.toml: the bots `sim tune` wrote, which a designer may also edit.

Kept apart from sim/core/tune.py so a game's data module can read the file without importing the
optimiser. Entries look like bots.toml's, plus a provenance table the engine ignores:

    [bots.balanced-tuned]
    kind = "heuristic"
    description = "..."
    [bots.balanced-tuned.weights]     # any weight left out takes the bots.toml [defaults] value
    gain = 1.37
    [bots.balanced-tuned.provenance]  # how the weights were found (sim tune fills it in)
    pool = ["cautious", "greedy"]
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from sim.core.errors import UserError

ENTRY_KEYS = ("kind", "description", "weights", "provenance")


def tuned_bots(raw: dict[str, Any], defaults: dict[str, float], where: str, weight_names: tuple[str, ...],
               kind_names: tuple[str, ...],
               flatten: Callable[[dict[str, Any]], dict[str, Any]] | None = None
               ) -> dict[str, tuple[str, int, np.ndarray]]:
    """{name: (description, kind code, weight vector)} of a parsed tuned-bots file.

    defaults: every weight by name (the game's bots.toml [defaults], flat); flatten turns an entry's
    weights table into flat names when the game nests some of them (Cuzco's card preferences).
    Anything malformed is a one-line UserError naming the file, the bot and the key.
    """
    extra = sorted(set(raw) - {"bots"})
    if extra:
        raise UserError(f"{where}: unexpected top-level key {extra[0]!r} (only [bots.NAME] tables belong here)")
    bots = raw.get("bots", {})
    if not isinstance(bots, dict):
        raise UserError(f"{where}: 'bots' must be a table of [bots.NAME] entries")
    out = {}
    for name, entry in bots.items():
        here = f"{where}: bot {name!r}"
        if not isinstance(entry, dict):
            raise UserError(f"{here} must be a table")
        unknown = sorted(set(entry) - set(ENTRY_KEYS))
        if unknown:
            raise UserError(f"{here}: unknown key {unknown[0]!r} (allowed: {', '.join(ENTRY_KEYS)})")
        kind = entry.get("kind")
        if kind not in kind_names:
            raise UserError(f"{here}: kind must be one of {', '.join(kind_names)} (got {kind!r})")
        description = entry.get("description", "")
        if not isinstance(description, str):
            raise UserError(f"{here}: description must be a string")
        weights = entry.get("weights", {})
        if not isinstance(weights, dict):
            raise UserError(f"{here}: weights must be a table")
        try:
            flat = flatten(weights) if flatten is not None else weights
        except ValueError as exc:
            raise UserError(f"{here}: {exc}") from None
        merged = dict(defaults)
        for key, value in flat.items():
            if key not in defaults:
                raise UserError(f"{here}: unknown weight {key!r}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise UserError(f"{here}: weight {key!r} must be a finite number (got {value!r})")
            merged[key] = value
        vector = np.array([float(merged[k]) for k in weight_names], np.float64)
        out[name] = (description, kind_names.index(kind), vector)
    return out
