"""One reader for a game's bots: bots.toml, then bots.tuned.toml (written by `sim tune`) over it.

A game declares what its bots may hold (`BotsSchema`): its engine kinds, its weight names in
vector order (some grouped in nested tables), and the settings of a search bot's budget, declared
with sim.core.paramspec (name, type, bounds). Every game's bots.toml follows one convention:

    [lineup]
    default = ["balanced", "greedy"]    # seated when no bots are named, repeated round the table

    [defaults]                          # every weight, by name
    gain = 1.0
    [defaults.card_preference]          # a group (BotsSchema.groups): card_preference.jump is the
    jump = 1.4                          #   weight card_jump (either spelling works everywhere)

    [search]                            # the search budget: every setting the game declares
    rollouts = 96                       #   (BotsSchema.budget), the defaults of every bot
    candidates = 2

    [bots.NAME]
    kind = "heuristic"                  # one of the game's kinds
    description = "..."
    [bots.NAME.weights]                 # only the weights that differ from [defaults]
    gain = 1.4

    [bots.search]
    kind = "search"                     # a kind of BotsSchema.budget_kinds ...
    description = "..."
    rollouts = 200                      # ... may set any budget setting in its own table
    policy = ["temple-tuned", "temple"] # optional, any bot: play by another bot's weights (the first
                                        #   named that exists), keeping its own budget; no weights table

So a search budget is never a weight: `sim tune` never sees it, and every bot has one (the
[search] defaults unless it is a search bot that sets its own), whatever the game does with it
(Cuzco appends it to the weight vector, Chachapoya passes it as an array of its own). A game
without a search bot declares no budget and its bots.toml has no [search] table.

bots.tuned.toml holds [bots.NAME] tables of kind, description, weights and a provenance table the
engine ignores (sim/core/tuned_bots.py); a weight it leaves out takes the [defaults] value, its
budget is the [search] defaults, and a tuned bot overrides a bots.toml bot of the same name. A
`policy` may name a tuned bot: policies are resolved after the tuned file is merged.

Anything malformed is a one-line UserError naming the file, the bot and the key.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from sim.core.errors import UserError
from sim.core.params import load_toml
from sim.core.paramspec import Param

TUNED_SUFFIX = "-tuned"  # `sim tune` names the bot it writes <bot>-tuned
GENERATION_NAME = re.compile(r"^(?P<style>.+)-g(?P<k>[0-9]+)$")  # `sim league` names generation k <style>-g<k>


def generation_name(style: str, k: int) -> str:
    return f"{style}-g{k}"


def tuned_from(name: str) -> str | None:
    """The bot a tuned bot started from, read off the names `sim tune` and `sim league` give
    (<style>-g<k> from <style>-g<k-1>, <style>-g1 from <style>-tuned, <style>-tuned from <style>);
    None for a bot no tuning wrote."""
    generation = GENERATION_NAME.match(name)
    if generation:
        k = int(generation["k"])
        return generation_name(generation["style"], k - 1) if k > 1 else generation["style"] + TUNED_SUFFIX
    return name.removesuffix(TUNED_SUFFIX) if name.endswith(TUNED_SUFFIX) else None


def base_style(name: str) -> str:
    """The hand-set bot at the start of a tuned bot's lineage (the name itself for an untuned bot)."""
    while (parent := tuned_from(name)) is not None:
        name = parent
    return name


def nearest_known(name: str, known: Mapping[str, Any] | set[str]) -> str:
    """`name`, or when a designer removed the tuned-bots file (or the entry), the nearest bot it was
    tuned from that still exists; `name` itself when none does (the caller's unknown-bot error names it)."""
    current: str | None = name
    while current is not None and current not in known:
        current = tuned_from(current)
    return name if current is None else current

TOP_KEYS = ("lineup", "defaults", "search", "bots")
BOT_KEYS = ("kind", "description", "weights", "policy")
TUNED_KEYS = ("kind", "description", "weights", "provenance")  # a bots.tuned.toml entry


@dataclass(frozen=True)
class BotsSchema:
    """What a game's bots may hold.

    kinds: engine kind names (a bot's kind code indexes them); weights: every weight name, in the
    order of the vector a bot's weights become; groups: nested table name -> prefix of the flat
    weight names it holds (Cuzco: card_preference -> card_); budget: the search settings, each
    declared with its bounds, keyed by its name in [search]; budget_kinds: the kinds that may set
    their own budget.
    """

    kinds: tuple[str, ...]
    weights: tuple[str, ...]
    groups: Mapping[str, str] = field(default_factory=dict)
    budget: tuple[Param, ...] = ()
    budget_kinds: tuple[str, ...] = ("search",)

    @property
    def budget_names(self) -> tuple[str, ...]:
        return tuple(param.key for param in self.budget)


@dataclass(frozen=True)
class BotEntry:
    """One bot as the files define it: its weights by name (every one) and its budget by setting."""

    description: str
    kind: str
    weights: dict[str, float]
    budget: dict[str, float]

    def vector(self, weight_names: tuple[str, ...], budget_names: tuple[str, ...] = ()) -> np.ndarray:
        """The float64 vector of these weights, then these budget settings, in the order given."""
        return np.array([float(self.weights[k]) for k in weight_names]
                        + [float(self.budget[k]) for k in budget_names], np.float64)


@dataclass(frozen=True)
class Bots:
    """A game's bots, in file order (bots.toml's, then the tuned ones new to it)."""

    entries: dict[str, BotEntry]
    default_budget: dict[str, float]  # [search]: the budget of a bot the files do not define

    def specs(self, schema: BotsSchema, weight_names: tuple[str, ...] | None = None,
              budget_names: tuple[str, ...] = ()) -> dict[str, tuple[str, int, np.ndarray]]:
        """{name: (description, kind code, weight vector)}: what a game's load_bots() returns."""
        names = schema.weights if weight_names is None else weight_names
        return {name: (b.description, schema.kinds.index(b.kind), b.vector(names, budget_names))
                for name, b in self.entries.items()}

    def budget(self, name: str) -> dict[str, float]:
        """A bot's budget; a bot the files do not define (a tuning candidate) has the defaults."""
        return self.entries[name].budget if name in self.entries else self.default_budget

    def budget_rows(self, bot_names: list[str], columns: tuple[tuple[int, Any], ...], width: int) -> np.ndarray:
        """The engine's float64 [bot, column] budget rows for a list of bot names, each setting at
        its column (a game's SEARCH_BUDGET pairs); bots of other kinds get the [search] defaults,
        which the engine reads only for a search bot."""
        out = np.zeros((len(bot_names), width), np.float64)
        for i, name in enumerate(bot_names):
            budget = self.budget(name)
            for column, param in columns:
                out[i, column] = budget[param.key]
        return out


def read_lineup(path: str | Path) -> list[str]:
    """bots.toml [lineup] default: bot names."""
    lineup = load_toml(path).get("lineup", {})
    names = lineup.get("default") if isinstance(lineup, dict) else None
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n for n in names):
        raise UserError(f"{path}: [lineup] default must list bot names")
    return list(names)


def read_bots(path: str | Path, tuned_path: str | Path | None, schema: BotsSchema) -> Bots:
    """bots.toml at `path`, then the tuned file if it exists (see the module docstring)."""
    where = str(path)
    raw = load_toml(path)
    extra = [key for key in raw if key not in TOP_KEYS or (key == "search" and not schema.budget)]
    if extra:
        raise UserError(f"{where}: unexpected top-level key {extra[0]!r} "
                        f"(allowed: {', '.join(k for k in TOP_KEYS if k != 'search' or schema.budget)})")
    defaults = _defaults(raw.get("defaults"), where, schema)
    default_budget = _default_budget(raw.get("search"), where, schema)
    bots = raw.get("bots")
    if not isinstance(bots, dict) or not bots:
        raise UserError(f"{where}: needs [bots.NAME] tables")
    entries: dict[str, BotEntry] = {}
    policies: dict[str, list[str]] = {}
    for name, spec in bots.items():
        here = f"{where}: bot {name!r}"
        allowed = BOT_KEYS + (schema.budget_names if spec_kind(spec) in schema.budget_kinds else ())
        entries[name] = _entry(spec, here, allowed, schema, defaults, default_budget)
        if "policy" in spec:
            policies[name] = _policy_names(spec, here)
            if "weights" in spec:
                raise UserError(f"{here} takes its weights from its policy, so it cannot set weights")
    if tuned_path is not None and Path(tuned_path).exists():
        entries.update(read_tuned(load_toml(tuned_path), str(tuned_path), schema, defaults, default_budget))
    for name, wanted in policies.items():
        known = [nearest_known(policy, entries) for policy in wanted]
        known = [policy for policy in known if policy in entries and policy != name]
        if not known:
            raise UserError(f"{where}: bot {name!r} has policy {bots[name]['policy']!r}, which names no other "
                            f"bot (known: {', '.join(b for b in entries if b != name)})")
        own = entries[name]
        entries[name] = BotEntry(own.description, own.kind, dict(entries[known[0]].weights), own.budget)
    return Bots(entries, default_budget)


def read_tuned(raw: dict[str, Any], where: str, schema: BotsSchema, defaults: dict[str, float],
               default_budget: dict[str, float]) -> dict[str, BotEntry]:
    """The entries of a parsed bots.tuned.toml (defaults: every weight, flat)."""
    extra = sorted(set(raw) - {"bots"})
    if extra:
        raise UserError(f"{where}: unexpected top-level key {extra[0]!r} (only [bots.NAME] tables belong here)")
    bots = raw.get("bots", {})
    if not isinstance(bots, dict):
        raise UserError(f"{where}: 'bots' must be a table of [bots.NAME] entries")
    return {name: _entry(entry, f"{where}: bot {name!r}", TUNED_KEYS, schema, defaults, default_budget)
            for name, entry in bots.items()}


def spec_kind(spec: Any) -> Any:
    return spec.get("kind") if isinstance(spec, dict) else None


def flat_weights(weights: dict[str, Any], groups: Mapping[str, str], here: str) -> dict[str, Any]:
    """A weights table with its group tables (card_preference.jump) spelt flat (card_jump)."""
    flat = {k: v for k, v in weights.items() if k not in groups}
    for table, prefix in groups.items():
        nested = weights.get(table, {})
        if not isinstance(nested, dict):
            raise UserError(f"{here}: {table} must be a table")
        flat.update({f"{prefix}{k}": v for k, v in nested.items()})
    return flat


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _defaults(raw: Any, where: str, schema: BotsSchema) -> dict[str, float]:
    here = f"{where} [defaults]"
    if not isinstance(raw, dict):
        raise UserError(f"{where}: needs a [defaults] table of every weight")
    flat = flat_weights(raw, schema.groups, here)
    for key, value in flat.items():
        if key not in schema.weights:
            raise UserError(f"{here}: unknown weight {key!r}")
        if not _number(value):
            raise UserError(f"{here}: weight {key!r} must be a finite number (got {value!r})")
    missing = [k for k in schema.weights if k not in flat]
    if missing:
        raise UserError(f"{here} lacks {', '.join(missing)}")
    return flat


def _default_budget(raw: Any, where: str, schema: BotsSchema) -> dict[str, float]:
    if not schema.budget:
        return {}
    here = f"{where} [search]"
    if not isinstance(raw, dict):
        raise UserError(f"{where}: needs a [search] table: {', '.join(schema.budget_names)}")
    unknown = [key for key in raw if key not in schema.budget_names]
    if unknown:
        raise UserError(f"{here}: unknown setting {unknown[0]!r} (known: {', '.join(schema.budget_names)})")
    for param in schema.budget:
        if param.key not in raw:
            raise UserError(f"{here} lacks {param.key}")
        param.check_value(raw[param.key], here)
    return {param.key: raw[param.key] for param in schema.budget}


def _policy_names(spec: dict[str, Any], here: str) -> list[str]:
    policy = spec["policy"]
    names = policy if isinstance(policy, list) else [policy]
    if not names or not all(isinstance(n, str) for n in names):
        raise UserError(f"{here}: policy must be a bot name or a list of them (got {policy!r})")
    return names


def _entry(entry: Any, here: str, allowed: tuple[str, ...], schema: BotsSchema, defaults: dict[str, float],
           default_budget: dict[str, float]) -> BotEntry:
    if not isinstance(entry, dict):
        raise UserError(f"{here} must be a table")
    kind = entry.get("kind")
    if kind not in schema.kinds:
        raise UserError(f"{here}: kind must be one of {', '.join(schema.kinds)} (got {kind!r})")
    unknown = sorted(set(entry) - set(allowed))
    if unknown:
        if unknown[0] in schema.budget_names:
            raise UserError(f"{here}: only a {' or '.join(schema.budget_kinds)} bot sets {unknown[0]}")
        raise UserError(f"{here}: unknown key {unknown[0]!r} (allowed: {', '.join(allowed)})")
    description = entry.get("description", "")
    if not isinstance(description, str):
        raise UserError(f"{here}: description must be a string")
    weights = entry.get("weights", {})
    if not isinstance(weights, dict):
        raise UserError(f"{here}: weights must be a table")
    merged = dict(defaults)
    for key, value in flat_weights(weights, schema.groups, here).items():
        if key not in defaults:
            raise UserError(f"{here}: unknown weight {key!r}")
        if not _number(value):
            raise UserError(f"{here}: weight {key!r} must be a finite number (got {value!r})")
        merged[key] = value
    budget = dict(default_budget)
    for param in schema.budget:
        if param.key in entry:
            param.check_value(entry[param.key], here)
            budget[param.key] = entry[param.key]
    return BotEntry(description, kind, merged, budget)
