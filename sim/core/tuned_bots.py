"""Reading a game's bots.tuned.toml: the bots `sim tune` wrote, which a designer may also edit.

Kept apart from sim/studies/tune.py so a game's data module can read the file without importing the
optimiser. Entries look like bots.toml's, plus a provenance table the engine ignores:

    [bots.balanced-tuned]
    kind = "heuristic"
    description = "..."
    [bots.balanced-tuned.weights]     # any weight left out takes the bots.toml [defaults] value
    gain = 1.37
    [bots.balanced-tuned.provenance]  # how the weights were found (sim tune fills it in)
    pool = ["cautious", "greedy"]

A game reads it through sim/core/bots_file.py (read_bots), which merges it over bots.toml; the
function below is that reader's tuned-file half on its own, for a data module that builds its
weight vectors itself.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from sim.core.bots_file import TUNED_KEYS, BotsSchema, read_tuned

ENTRY_KEYS = TUNED_KEYS


def tuned_bots(raw: dict[str, Any], defaults: dict[str, float], where: str, weight_names: tuple[str, ...],
               kind_names: tuple[str, ...]) -> dict[str, tuple[str, int, np.ndarray]]:
    """{name: (description, kind code, weight vector)} of a parsed tuned-bots file.

    defaults: every weight by name (the game's bots.toml [defaults], flat). Anything malformed is a
    one-line UserError naming the file, the bot and the key.
    """
    schema = BotsSchema(kinds=tuple(kind_names), weights=tuple(weight_names))
    return {name: (b.description, schema.kinds.index(b.kind), b.vector(schema.weights))
            for name, b in read_tuned(raw, where, schema, dict(defaults), {}).items()}
