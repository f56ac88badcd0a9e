"""Cuzco dice odds: exact probabilities by enumeration next to the simulated frequencies.

Phase I of a Cuzco round: every player rolls 3 dice, then places them one at a time on the
action spaces, a die only if it is lower than every die already on that space (the victory-points
space excepted). With the Pututu module (Cuzco Module 1) a roll showing exactly two equal dice
(a double) takes a +1/-1 tile and three equal dice (a triple) a +2/-2 tile from a finite supply
(12 and 3 printed; spent tiles go back to it), served in reverse player order when short; a tile
turns a placed die by +-1 or +-2.

Exact values come from enumerating the 6**n outcomes (numpy) and from the binomial and
multinomial laws (scipy); simulated frequencies carry 95% intervals from statsmodels
(`proportion_confint`, Wilson by default) or, for means, Student t intervals (scipy). Columns
read: players `rolled_doubles`, `rolled_triples`, `pututu_*`; games `n_rounds`,
`dice_<action>_<pips>`, `extra_turns_<action>`, `pututu_shortfalls`, `pututu_left_1/2`. Game
facts (dice per roll, supply sizes, module on or off) come from the manifest's resolved
parameters, with the printed values as fallback; no engine module is imported. (Cuzco-only, so it
lives in the game's folder; report.py beside it names the report pages that use it.)

Every function returns `Result(table, figure)` with a tidy table.
"""
from __future__ import annotations

import itertools
import re
import textwrap
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from scipy import stats

from sim.analysis.io import Dataset, Result
from sim.core.stats import rate_ci
from sim.core.errors import UserError

ALPHA = 0.05  # 95% intervals
CI_METHOD = "wilson"
FACES = 6
MAX_ENUMERATED_DICE = 8  # 6**8 = 1.7 million outcomes
DICE_COLUMN = re.compile(r"^dice_(?P<action>.+)_(?P<pips>[1-9])$")

# printed values, used when a manifest does not carry resolved parameters
DEFAULT_DICE = 3
DEFAULT_SUPPLY = (12, 3)  # +1/-1 tiles, +2/-2 tiles

OUTCOME_NAMES = {1: "all different", 2: "double", 3: "triple"}
QUALIFIES = "double or triple"
TAKES = "takes a tile"


# ------------------------------------------------------------------------------ helpers

def _outcome_name(max_equal: int) -> str:
    return OUTCOME_NAMES.get(max_equal, f"{max_equal} of a kind")


def _mean_ci(total: float, total_sq: float, n: int) -> tuple[float, float, float]:
    """Mean and 95% Student t interval from a sum and a sum of squares (no table held)."""
    if n <= 0:
        return (np.nan, np.nan, np.nan)
    mean = total / n
    if n < 2:
        return (mean, np.nan, np.nan)
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    if var == 0.0:
        return (mean, mean, mean)
    lo, hi = stats.t.interval(1 - ALPHA, n - 1, loc=mean, scale=np.sqrt(var / n))
    return (mean, float(lo), float(hi))


def _require(ds: Dataset, table: str, columns: Iterable[str]) -> None:
    have = set(ds.player_columns() if table == "players" else ds.game_columns())
    for column in columns:
        if column not in have:
            raise UserError(f"{ds.path}: the {table} table has no column {column!r} "
                            f"(the dice analyses read Cuzco datasets; this one is {ds.game})")


def _param(ds: Dataset, section: str, key: str, default):
    value = ds.manifest.get("params", {}).get(section, {}).get(key)
    return default if value is None else value


def _n_dice(ds: Dataset) -> int:
    return int(_param(ds, "rules", "dice", DEFAULT_DICE))


def _supply(ds: Dataset) -> tuple[int, int]:
    return (int(_param(ds, "pututu", "plus_minus_1", DEFAULT_SUPPLY[0])),
            int(_param(ds, "pututu", "plus_minus_2", DEFAULT_SUPPLY[1])))


def _sum_columns(ds: Dataset, table: str, columns: Sequence[str]) -> tuple[pd.Series, int]:
    """Column sums over the whole table, read in batches, and the row count."""
    total = pd.Series(0, index=list(columns), dtype="int64")
    rows = 0
    for batch in ds.batches(table, columns):
        total += batch.sum(axis=0).astype("int64")
        rows += len(batch)
    return total, rows


def _sum_and_squares(ds: Dataset, table: str, columns: Sequence[str]) -> tuple[pd.Series, pd.Series, int]:
    """Sums and sums of squares of columns (for means with intervals), read in batches."""
    total = pd.Series(0.0, index=list(columns))
    total_sq = pd.Series(0.0, index=list(columns))
    rows = 0
    for batch in ds.batches(table, columns):
        values = batch.astype("float64")
        total += values.sum(axis=0)
        total_sq += (values * values).sum(axis=0)
        rows += len(batch)
    return total, total_sq, rows


def _per_game(ds: Dataset, columns: Sequence[str]) -> pd.DataFrame:
    """Players-table columns summed over the players of each game (batch by batch)."""
    parts = [b.groupby("game_id", sort=False)[list(columns)].sum()
             for b in ds.batches("players", ["game_id", *columns])]
    if not parts:
        return pd.DataFrame(columns=list(columns), dtype="int64")
    return pd.concat(parts).groupby(level=0).sum().astype("int64")


def _rounds(ds: Dataset) -> pd.Series:
    """Games per number of rounds played (one value in Cuzco: 6)."""
    counts = pd.Series(dtype="int64")
    for batch in ds.batches("games", ["n_rounds"]):
        counts = counts.add(batch["n_rounds"].value_counts(), fill_value=0)
    return counts.astype("int64").sort_index()


def _module_on(ds: Dataset) -> bool:
    """The Pututu module: from the manifest's resolved parameters, else from the data."""
    enabled = ds.manifest.get("params", {}).get("pututu", {}).get("enabled")
    if enabled is not None:
        return bool(enabled)
    needed = ["pututu_gained_1", "pututu_gained_2"]
    if not set(needed) <= set(ds.player_columns()):
        return False
    total, _ = _sum_columns(ds, "players", needed)
    return bool(total.sum() > 0)


def _yerr(value, lo, hi) -> np.ndarray:
    value, lo, hi = (np.asarray(x, dtype=float) for x in (value, lo, hi))
    # clipped at 0: an interval can miss its own point by a rounding error (e.g. 42 of 42)
    return np.clip(np.nan_to_num(np.vstack([value - lo, hi - value]), nan=0.0), 0.0, None)


# ------------------------------------------------------------------------------ exact roll odds

def _roll_probabilities(n_dice: int) -> pd.DataFrame:
    if not isinstance(n_dice, (int, np.integer)) or not 1 <= n_dice <= MAX_ENUMERATED_DICE:
        raise UserError(f"n_dice must be a whole number from 1 to {MAX_ENUMERATED_DICE}, got {n_dice!r}")
    outcomes = np.array(list(itertools.product(range(1, FACES + 1), repeat=int(n_dice))), dtype=np.int8)
    per_face = (outcomes[:, :, None] == np.arange(1, FACES + 1, dtype=np.int8)).sum(axis=1)
    max_equal = per_face.max(axis=1)
    total = len(outcomes)
    rows = []
    for m in range(1, int(n_dice) + 1):
        ways = int((max_equal == m).sum())
        if ways == 0:
            continue
        rows.append({"outcome": _outcome_name(m), "max_equal": m, "ways": ways, "outcomes": total,
                     "probability": ways / total, "fraction": str(Fraction(ways, total))})
    return pd.DataFrame(rows)


def exact_roll_odds(n_dice: int = DEFAULT_DICE) -> Result:
    """Exact chances of a roll of n dice by the largest group of equal dice, from the 6**n outcomes.

    For 3 dice: all different 120/216 = 20/36, a double (exactly two equal) 90/216 = 15/36, a
    triple 6/216 = 1/36. For 4 or more dice "double" means the largest group is two (two pairs
    included). Table: outcome, max_equal, ways, outcomes, probability, fraction (reduced).
    """
    table = _roll_probabilities(n_dice)
    fig = Figure(figsize=(6.5, 4), layout="constrained")
    ax = fig.subplots()
    bars = ax.bar(table["outcome"], 100 * table["probability"], color="tab:blue")
    for bar, ways, total in zip(bars, table["ways"], table["outcomes"]):
        ax.annotate(f"{ways}/{total}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=9)
    ax.set_ylabel("probability per roll (%)")
    ax.set_xlabel(f"roll of {n_dice} dice")
    ax.set_title(f"Exact odds of one roll of {n_dice} six-sided dice ({FACES ** n_dice:,} outcomes enumerated)")
    ax.set_ylim(0, 100 * table["probability"].max() * 1.15)
    return Result(table, fig)


# ------------------------------------------------------------------------------ simulated rolls

def roll_odds(ds: Dataset, method: str = CI_METHOD) -> Result:
    """Simulated doubles and triples per roll next to the exact odds, and the tiles demanded.

    Table `section`s:
    - "per roll": double, triple, all different, double or triple (the chance a given player
      qualifies for a pututu tile in a round), and, with the module on, "takes a tile" (tiles
      really taken; the exact column is the chance with an unlimited supply). Simulated share with
      a 95% interval and the exact binomial test p-value against the exact odds.
    - "players qualifying per round": k of the N players roll a double or triple in one round,
      exact Binomial(N, 16/36); simulated is NaN, since the dataset keeps per-game totals only.
    - "+1 tiles demanded per game", "+2 tiles demanded per game", "tiles demanded per game":
      doubles, triples and both rolled by all players over a game, exact Binomial(rounds x N, p)
      against the simulated distribution with intervals. These count demand, not the supply,
      which also gets back the tiles players spend.
    """
    _require(ds, "players", ["game_id", "rolled_doubles", "rolled_triples"])
    _require(ds, "games", ["n_rounds"])
    n_dice = _n_dice(ds)
    exact = _roll_probabilities(n_dice).set_index("outcome")["probability"]
    p_double, p_triple = exact.get("double", 0.0), exact.get("triple", 0.0)
    p_qualify = p_double + p_triple
    n = ds.n_players
    module = _module_on(ds)

    columns = ["rolled_doubles", "rolled_triples"]
    gained = ["pututu_gained_1", "pututu_gained_2"]
    if module:
        _require(ds, "players", gained)
    per_game = _per_game(ds, columns + (gained if module else []))
    rounds = _rounds(ds)
    rolls = int((rounds.index.to_numpy(dtype=np.int64) * rounds.to_numpy()).sum() * n)

    doubles = int(per_game["rolled_doubles"].sum())
    triples = int(per_game["rolled_triples"].sum())
    counts = {"double": doubles, "triple": triples, "all different": rolls - doubles - triples,
              QUALIFIES: doubles + triples}
    exacts = {"double": p_double, "triple": p_triple, "all different": exact.get("all different", 0.0),
              QUALIFIES: p_qualify}
    if module:
        counts[TAKES] = int(per_game[gained].to_numpy().sum())
        exacts[TAKES] = p_qualify
    rows = []
    for outcome, count in counts.items():
        share, lo, hi = rate_ci(count, rolls, method, ALPHA)
        p_value = stats.binomtest(count, rolls, exacts[outcome]).pvalue if rolls > 0 else np.nan
        rows.append({"section": "per roll", "outcome": outcome, "k": np.nan, "exact": exacts[outcome],
                     "count": count, "n": rolls, "simulated": float(share), "ci_low": float(lo),
                     "ci_high": float(hi), "p_value": p_value})

    k = np.arange(n + 1)
    for kk, p in zip(k, stats.binom.pmf(k, n, p_qualify)):
        rows.append({"section": "players qualifying per round", "outcome": QUALIFIES, "k": int(kk),
                     "exact": float(p), "count": np.nan, "n": np.nan, "simulated": np.nan,
                     "ci_low": np.nan, "ci_high": np.nan, "p_value": np.nan})

    n_games = len(per_game)
    game_rounds = rounds.index.to_numpy(dtype=np.int64)
    game_weights = rounds.to_numpy(dtype=float) / max(rounds.sum(), 1)
    max_rolls = int(game_rounds.max() * n) if len(game_rounds) else 0
    series = {"+1 tiles demanded per game": (per_game["rolled_doubles"], p_double),
              "+2 tiles demanded per game": (per_game["rolled_triples"], p_triple),
              "tiles demanded per game": (per_game["rolled_doubles"] + per_game["rolled_triples"], p_qualify)}
    k = np.arange(max_rolls + 1)
    for section, (values, p) in series.items():
        exact_pmf = sum(w * stats.binom.pmf(k, r * n, p) for r, w in zip(game_rounds, game_weights))
        observed = np.bincount(values.to_numpy(dtype=np.int64), minlength=max_rolls + 1)[: max_rolls + 1]
        share, lo, hi = rate_ci(observed, np.full(len(k), n_games), method, ALPHA)
        for i in k:
            rows.append({"section": section, "outcome": section.split(" per ")[0], "k": int(i),
                         "exact": float(exact_pmf[i]) if np.ndim(exact_pmf) else np.nan,
                         "count": int(observed[i]), "n": n_games, "simulated": float(share[i]),
                         "ci_low": float(lo[i]), "ci_high": float(hi[i]), "p_value": np.nan})
    table = pd.DataFrame(rows)
    table["k"] = table["k"].astype("Int64")
    table["count"] = table["count"].astype("Int64")
    table["n"] = table["n"].astype("Int64")
    return Result(table, _roll_figure(ds, table, n, _supply(ds), module))


def _roll_figure(ds: Dataset, table: pd.DataFrame, n: int, supply: tuple[int, int], module: bool) -> Figure:
    fig = Figure(figsize=(12, 8.5), layout="constrained")
    (ax_roll, ax_round), (ax_d, ax_t) = fig.subplots(2, 2)
    fig.suptitle(f"Cuzco dice: exact odds against simulated frequencies, 95% intervals - {ds.label}")

    per_roll = table[table["section"] == "per roll"]
    x = np.arange(len(per_roll))
    ax_roll.bar(x - 0.2, 100 * per_roll["exact"], width=0.4, label="exact (enumeration)", color="tab:gray")
    ax_roll.bar(x + 0.2, 100 * per_roll["simulated"], width=0.4, label="simulated", color="tab:blue",
                yerr=100 * _yerr(per_roll["simulated"], per_roll["ci_low"], per_roll["ci_high"]), capsize=4)
    ax_roll.set_xticks(x, per_roll["outcome"], rotation=15)
    ax_roll.set_ylabel("share of rolls (%)")
    ax_roll.set_title(f"One player's roll of 3 dice ({int(per_roll['n'].iloc[0]):,} rolls)")
    ax_roll.legend()

    per_round = table[table["section"] == "players qualifying per round"]
    ax_round.bar(per_round["k"].astype(int), 100 * per_round["exact"], color="tab:gray", label="exact (binomial)")
    ax_round.set_xticks(per_round["k"].astype(int))
    ax_round.set_xlabel(f"players (of {n}) rolling a double or triple in one round")
    ax_round.set_ylabel("probability (%)")
    ax_round.set_title("Players taking a tile in one round (exact only:\nthe dataset keeps per-game totals)")
    ax_round.legend()

    for ax, section, cap, name in ((ax_d, "+1 tiles demanded per game", supply[0], "+1/-1"),
                                   (ax_t, "+2 tiles demanded per game", supply[1], "+2/-2")):
        part = table[(table["section"] == section) & ((table["exact"] > 1e-4) | (table["count"] > 0))]
        kk = part["k"].astype(int).to_numpy()
        ax.bar(kk, 100 * part["exact"], color="tab:gray", alpha=0.6, label="exact (binomial)")
        ax.errorbar(kk, 100 * part["simulated"], yerr=100 * _yerr(part["simulated"], part["ci_low"], part["ci_high"]),
                    fmt="o", color="tab:blue", capsize=3, markersize=4, label="simulated, 95% CI")
        ax.axvline(cap + 0.5, color="tab:red", linestyle="--",
                   label=f"supply of {cap} {name} tiles" + ("" if module else " (module off)"))
        ax.set_xlabel(f"{'doubles' if cap == supply[0] else 'triples'} rolled by all players in a game")
        ax.set_ylabel("share of games (%)")
        ax.set_title(f"{name} tiles demanded per game (before spent tiles return)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=8)
    return fig


# ------------------------------------------------------------------------------ placement

def placement_odds(max_dice_on_space: int = 11) -> Result:
    """Exact chance that a die showing v can still go on a space already holding k random dice.

    The die fits only if every die there shows more: P = ((6 - v) / 6) ** k for k independent
    uniform dice (a simplification: dice already placed were chosen, not random). Four players
    roll 12 dice a round, so a space holds at most 11 before the last die. Table: die, dice_on_space,
    probability, fraction. The victory-points space takes any die.
    """
    if not isinstance(max_dice_on_space, (int, np.integer)) or not 0 <= max_dice_on_space <= 100:
        raise UserError(f"max_dice_on_space must be a whole number from 0 to 100, got {max_dice_on_space!r}")
    rows = []
    for v in range(1, FACES + 1):
        for k in range(max_dice_on_space + 1):
            exact = Fraction(FACES - v, FACES) ** k
            rows.append({"die": v, "dice_on_space": k, "probability": float(exact), "fraction": str(exact)})
    table = pd.DataFrame(rows)

    fig = Figure(figsize=(7.5, 4.5), layout="constrained")
    ax = fig.subplots()
    for v, part in table.groupby("die"):
        ax.plot(part["dice_on_space"], 100 * part["probability"], marker="o", markersize=3, label=f"die shows {v}")
    ax.set_xlabel("dice already on the action space (k, random rolls)")
    ax.set_ylabel("chance the die can still be placed (%)")
    ax.set_title("As the round fills: P(every die there is higher) = ((6 - v) / 6)^k\n"
                 "(exact; every space but victory points)")
    ax.set_xticks(range(max_dice_on_space + 1))
    ax.legend(title="die value v")
    return Result(table, fig)


def _dice_columns(ds: Dataset) -> list[tuple[str, str, int]]:
    found = []
    for column in ds.game_columns():
        match = DICE_COLUMN.match(column)
        if match:
            found.append((column, match["action"], int(match["pips"])))
    if not found:
        raise UserError(f"{ds.path}: the games table has no dice_<action>_<pips> columns "
                        f"(the dice analyses read Cuzco datasets; this one is {ds.game})")
    return found


def placement_odds_observed(ds: Dataset, method: str = CI_METHOD) -> Result:
    """Pips of the dice placed on each action space, and dice per space per game.

    Table, one row per action and pips: count (dice placed with those pips, after pututu changes),
    share of that action's dice with a 95% interval, and per action: action_dice, mean_pips,
    dice_per_game with a 95% t interval, extra_turns_per_game (Mama Quilia 05 turns, no die).
    """
    found = _dice_columns(ds)
    actions = list(dict.fromkeys(action for _, action, _ in found))
    extra = [f"extra_turns_{a}" for a in actions if f"extra_turns_{a}" in ds.game_columns()]
    columns = [c for c, _, _ in found]
    counts = pd.Series(0, index=columns, dtype="int64")
    per_action = pd.Series(0.0, index=actions)
    per_action_sq = pd.Series(0.0, index=actions)
    extra_total = pd.Series(0, index=extra, dtype="int64")
    n_games = 0
    for batch in ds.batches("games", columns + extra):
        counts += batch[columns].sum(axis=0).astype("int64")
        if extra:
            extra_total += batch[extra].sum(axis=0).astype("int64")
        for action in actions:
            cols = [c for c, a, _ in found if a == action]
            totals = batch[cols].sum(axis=1).astype("float64")
            per_action[action] += totals.sum()
            per_action_sq[action] += (totals * totals).sum()
        n_games += len(batch)

    rows = []
    for action in actions:
        cols = [(c, pips) for c, a, pips in found if a == action]
        action_dice = int(sum(counts[c] for c, _ in cols))
        mean_pips = sum(pips * counts[c] for c, pips in cols) / action_dice if action_dice else np.nan
        mean, mlo, mhi = _mean_ci(per_action[action], per_action_sq[action], n_games)
        key = f"extra_turns_{action}"
        extra_mean = extra_total[key] / n_games if key in extra_total.index and n_games else np.nan
        for column, pips in cols:
            share, lo, hi = rate_ci(counts[column], action_dice, method, ALPHA)
            rows.append({"action": action, "pips": pips, "count": int(counts[column]), "share": float(share),
                         "ci_low": float(lo), "ci_high": float(hi), "action_dice": action_dice,
                         "mean_pips": mean_pips, "dice_per_game": mean, "dice_per_game_ci_low": mlo,
                         "dice_per_game_ci_high": mhi, "extra_turns_per_game": extra_mean})
    table = pd.DataFrame(rows)

    fig = Figure(figsize=(11, 5.5), layout="constrained")
    ax_stack, ax_share = fig.subplots(1, 2, width_ratios=[1.1, 1])
    fig.suptitle(f"Dice placed per action space - {ds.label}")
    wide = table.pivot(index="action", columns="pips", values="count").reindex(actions).fillna(0) / max(n_games, 1)
    colours = [f"C{i}" for i in range(wide.shape[1])]
    bottom = np.zeros(len(actions))
    for (pips, values), colour in zip(wide.items(), colours):
        ax_stack.bar(actions, values, bottom=bottom, label=f"pips {pips}", color=colour)
        bottom += values.to_numpy()
    summary = table.drop_duplicates("action").set_index("action").reindex(actions)
    ax_stack.errorbar(actions, summary["dice_per_game"],
                      yerr=_yerr(summary["dice_per_game"], summary["dice_per_game_ci_low"],
                                 summary["dice_per_game_ci_high"]),
                      fmt="none", ecolor="black", capsize=4, label="total, 95% CI")
    ax_stack.set_ylabel("dice placed per game (mean)")
    ax_stack.set_title("Dice per space per game, by pips")
    ax_stack.tick_params(axis="x", rotation=35)
    ax_stack.legend(fontsize=8, ncol=2)

    width = 0.8 / max(wide.shape[1], 1)
    x = np.arange(len(actions))
    for i, pips in enumerate(sorted(table["pips"].unique())):
        part = table[table["pips"] == pips].set_index("action").reindex(actions)
        ax_share.bar(x + (i - (wide.shape[1] - 1) / 2) * width, 100 * part["share"], width=width,
                     color=colours[i], label=f"pips {pips}",
                     yerr=100 * _yerr(part["share"], part["ci_low"], part["ci_high"]), capsize=1.5)
    ax_share.axhline(100 / FACES, color="gray", linestyle=":", label="1/6 (a random roll)")
    ax_share.set_xticks(x, actions, rotation=35)
    ax_share.set_ylabel("share of the space's dice (%)")
    ax_share.set_title("Pips distribution per space, 95% CI")
    ax_share.legend(fontsize=8, ncol=2)
    return Result(table, fig)


# ------------------------------------------------------------------------------ pututu tiles

def _shortage_without_returns(n_rolls: int, p_double: float, p_triple: float, supply: tuple[int, int]) -> float:
    """Exact P(some double or triple finds no tile) over n_rolls rolls if no tile came back:
    doubles and triples are multinomial; 1 - P(doubles <= supply1 and triples <= supply2)."""
    if n_rolls <= 0:
        return 0.0
    d2 = np.arange(min(supply[1], n_rolls) + 1)
    p_d2 = stats.binom.pmf(d2, n_rolls, p_triple)
    p_d1_given = stats.binom.cdf(supply[0], n_rolls - d2, p_double / (1 - p_triple))
    return float(1.0 - np.sum(p_d2 * p_d1_given))


def pututu_effect(ds: Dataset, method: str = CI_METHOD) -> Result:
    """How much the Pututu tiles matter: tiles gained and spent, placements they made legal, and
    the chance the supply runs out in a game.

    Table rows (metric, unit, value, ci_low, ci_high, count, n, module): means per player per game
    with 95% t intervals; shares (tiles spent of those gained, placements a tile made legal of all
    dice placed, games with a shortfall, qualifying rolls that found no tile) with 95% intervals;
    the exact chance the supply would run out if no tile were ever returned (an upper bound: spent
    tiles go back). On a dataset without the module, `module` is "off" and only the would-be
    demand and that bound are given.
    """
    _require(ds, "players", ["rolled_doubles", "rolled_triples"])
    _require(ds, "games", ["n_rounds"])
    module = _module_on(ds)
    n_dice = _n_dice(ds)
    exact = _roll_probabilities(n_dice).set_index("outcome")["probability"]
    p_double, p_triple = exact.get("double", 0.0), exact.get("triple", 0.0)
    supply = _supply(ds)
    n = ds.n_players
    rounds = _rounds(ds)
    n_games = int(rounds.sum())
    bound = float(sum(c * _shortage_without_returns(int(r) * n, p_double, p_triple, supply)
                      for r, c in rounds.items()) / max(n_games, 1))
    label = "on" if module else "off"
    rows = []

    def mean_row(metric, unit, total, total_sq, count_rows):
        value, lo, hi = _mean_ci(total, total_sq, count_rows)
        rows.append({"metric": metric, "unit": unit, "value": value, "ci_low": lo, "ci_high": hi,
                     "count": int(total), "n": int(count_rows), "module": label})

    def share_row(metric, unit, count, nobs):
        value, lo, hi = rate_ci(count, nobs, method, ALPHA)
        rows.append({"metric": metric, "unit": unit, "value": float(value), "ci_low": float(lo),
                     "ci_high": float(hi), "count": int(count), "n": int(nobs), "module": label})

    player_cols = ["rolled_doubles", "rolled_triples"]
    if not module:
        total, total_sq, n_rows = _sum_and_squares(ds, "players", player_cols)
        mean_row("doubles rolled (would take +1 tiles)", "per player per game",
                 total["rolled_doubles"], total_sq["rolled_doubles"], n_rows)
        mean_row("triples rolled (would take +2 tiles)", "per player per game",
                 total["rolled_triples"], total_sq["rolled_triples"], n_rows)
    else:
        tile_cols = ["pututu_gained_1", "pututu_gained_2", "pututu_spent_1", "pututu_spent_2",
                     "pututu_changed_action"]
        _require(ds, "players", tile_cols)
        game_cols = ["pututu_shortfalls", "pututu_left_1", "pututu_left_2"]
        _require(ds, "games", game_cols)
        dice_cols = [c for c, _, _ in _dice_columns(ds)]
        total, total_sq, n_rows = _sum_and_squares(ds, "players", player_cols + tile_cols)
        names = {"pututu_gained_1": "+1 tiles gained", "pututu_gained_2": "+2 tiles gained",
                 "pututu_spent_1": "+1 tiles spent", "pututu_spent_2": "+2 tiles spent",
                 "pututu_changed_action": "placements a tile made legal"}
        for column, metric in names.items():
            mean_row(metric, "per player per game", total[column], total_sq[column], n_rows)
        share_row("+1 tiles spent", "share of +1 tiles gained", total["pututu_spent_1"], total["pututu_gained_1"])
        share_row("+2 tiles spent", "share of +2 tiles gained", total["pututu_spent_2"], total["pututu_gained_2"])

        placed = 0
        short_games = 0
        g_total = pd.Series(0.0, index=game_cols)
        g_sq = pd.Series(0.0, index=game_cols)
        for batch in ds.batches("games", game_cols + dice_cols):
            placed += int(batch[dice_cols].to_numpy(dtype=np.int64).sum())
            short_games += int((batch["pututu_shortfalls"] > 0).sum())
            values = batch[game_cols].astype("float64")
            g_total += values.sum(axis=0)
            g_sq += (values * values).sum(axis=0)
        share_row("placements a tile made legal", "share of dice placed", total["pututu_changed_action"], placed)
        share_row("supply ran out (a qualifying roll got no tile)", "share of games", short_games, n_games)
        mean_row("qualifying rolls that got no tile", "per game", g_total["pututu_shortfalls"],
                 g_sq["pututu_shortfalls"], n_games)
        share_row("qualifying rolls that got no tile", "share of doubles and triples rolled",
                  g_total["pututu_shortfalls"], total["rolled_doubles"] + total["rolled_triples"])
        mean_row("+1 tiles left in the supply at the end", "per game", g_total["pututu_left_1"],
                 g_sq["pututu_left_1"], n_games)
        mean_row("+2 tiles left in the supply at the end", "per game", g_total["pututu_left_2"],
                 g_sq["pututu_left_2"], n_games)
    rows.append({"metric": "supply would run out if no tile were ever returned",
                 "unit": "per game (exact, multinomial)", "value": bound, "ci_low": np.nan, "ci_high": np.nan,
                 "count": np.nan, "n": np.nan, "module": label})
    table = pd.DataFrame(rows)
    table["count"] = table["count"].astype("Int64")
    table["n"] = table["n"].astype("Int64")
    return Result(table, _pututu_figure(ds, table, module, supply, bound))


def _pututu_figure(ds: Dataset, table: pd.DataFrame, module: bool, supply: tuple[int, int], bound: float) -> Figure:
    if not module:
        fig = Figure(figsize=(8, 3.5), layout="constrained")
        ax = fig.subplots()
        ax.set_axis_off()
        ax.set_title(f"Pututu tiles: module off in this dataset - {ds.label}")
        doubles = table.loc[table["metric"].str.startswith("doubles"), "value"].iloc[0]
        triples = table.loc[table["metric"].str.startswith("triples"), "value"].iloc[0]
        ax.text(0.5, 0.5,
                "Pututu module off: no tiles were taken.\n"
                f"With it, each player would take {doubles:.2f} +1 tiles and {triples:.2f} +2 tiles a game;\n"
                f"if spent tiles never came back, the supply ({supply[0]} + {supply[1]}) would run out "
                f"in {100 * bound:.1f}% of games (exact).",
                ha="center", va="center", transform=ax.transAxes, fontsize=10)
        return fig

    fig = Figure(figsize=(14, 5.5), layout="constrained")
    ax_tiles, ax_share = fig.subplots(1, 2, width_ratios=[1, 1.2])
    fig.suptitle(f"Pututu tiles (Cuzco Module 1), 95% intervals - {ds.label}")
    per_player = table[table["unit"] == "per player per game"]
    ax_tiles.barh([textwrap.fill(m, 20) for m in per_player["metric"]], per_player["value"], color="tab:purple",
                  xerr=_yerr(per_player["value"], per_player["ci_low"], per_player["ci_high"]), capsize=4)
    ax_tiles.invert_yaxis()
    ax_tiles.set_xlabel("per player per game (mean)")
    ax_tiles.set_title("Tiles gained, spent, and placements they made legal")

    shares = table[table["unit"].str.startswith("share")]
    labels = [f"{m}\n({u})" for m, u in zip(shares["metric"], shares["unit"])]
    ax_share.barh(labels, 100 * shares["value"], color="tab:blue",
                  xerr=100 * _yerr(shares["value"], shares["ci_low"], shares["ci_high"]), capsize=4)
    ax_share.invert_yaxis()
    games_row = labels[list(shares["unit"]).index("share of games")]
    ax_share.plot([100 * bound], [games_row], marker="D", color="tab:red", linestyle="none",
                  label=f"exact, if no tile came back: {100 * bound:.1f}%")
    ax_share.set_xlabel("share (%)")
    ax_share.set_title("How often tiles matter; the supply running out")
    ax_share.tick_params(axis="y", labelsize=8)
    ax_share.legend(fontsize=8)
    return fig
