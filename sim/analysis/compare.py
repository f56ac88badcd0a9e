"""Variant comparison: two datasets of one game side by side, each difference with an interval and
a test, corrected for multiple comparisons.

`compare(a, b)` measures, in both datasets, the win rate of each turn position (the players
table's `start_order` when the game records it, as Cuzco does, otherwise the seat: seat 0 starts
in Chachapoya), the first-player advantage, the mean score and its spread, the winning margin,
the game length (`n_rounds`, and `turns` when present), each bot's win rate and, for every card
group the game declares (sim.core.game.CardGroup), the win rate of the players who gained or held
each item (17lands' GIH WR). Every row carries B - A with a confidence interval, the test used,
the p-value and the p-value adjusted over all the rows (Holm or Benjamini-Hochberg,
statsmodels.stats.multitest.multipletests).

Common random numbers. `sim run` plays game i from a stream derived from (run seed, i), so two
runs with the same seed, the same game ids and the same bots in every seat are *paired*: game i
of A and game i of B start from the same shuffle and dice, and differ only by what the variant
changes. Per-game differences then cancel the game-to-game noise the two runs still share, and
the paired tests below give narrower intervals than two independent samples would (how much
narrower depends on how soon the variant makes the games diverge: 15-25% for Cuzco with Pututu,
whose tiles change the bots' choices from the first round). The pairing is checked
on the data, not assumed: same `config.seed` in both manifests, the same game ids, the same bot
in every seat of every game. Otherwise every row uses a two-sample test.

Tests (scipy / statsmodels):
- win rates, paired: McNemar's test (statsmodels ``mcnemar``, exact binomial when fewer than 25
  discordant games) on the per-game win indicators; the interval is the paired t interval of the
  per-game differences (scipy ``ttest_rel``). A bot seated more than once per game uses the paired
  t test on its per-game win counts scaled by the mean number of seats it holds.
- win rates, unpaired: the two-proportion score test (statsmodels ``test_proportions_2indep``,
  method "score") with Newcombe's interval (``confint_proportions_2indep``, method "newcomb").
- mean score, margin, game length: paired t (``ttest_rel``) on per-game values, or Welch's t
  (``ttest_ind(equal_var=False)``). The unit is the game (its players' mean score), since scores
  of one game are not independent of each other.
- score sd: the same t tests on each game's mean squared deviation from its dataset's mean score
  (whose mean is the score variance); the difference of sds is the difference of variances over
  (sd_a + sd_b), an identity, and so is its interval (the denominator's own noise is of second
  order).
- card GIH WR: always the two-proportion score test: the players who hold a card differ between
  variants, so the pairs do not carry over (the row says paired = False).
A row whose per-game differences are all equal (e.g. a fixed round count) has no test: its
interval is the difference itself, its p-value is 1 when the difference is 0, else 0, and it is
left out of the correction. The first-player advantage row repeats the first position's test
(with equal player counts it is the same hypothesis) and is counted once.

Games without a winner (a stalemate: no players row with `won`) are left out of the win-rate and
GIH rows, in each dataset; paired, a game left out of one dataset is left out of the other too, so
the pairs stay pairs (`decided_games`). The table's attrs `no_winner_a`/`no_winner_b` count them and
the text says so. Scores, margins and lengths count every game.

Memory: per game, one row per seat of score, won, turn position and bot (about 25 bytes per seat
and dataset), and the card counters in record batches; a 10-million-game dataset fits.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

from sim.analysis.io import Dataset, Result, open_dataset
from sim.core.stats import adjust_p_values, has_winner, no_winner_note
from sim.core.errors import UserError

CORRECTIONS = {"holm": "holm", "bh": "fdr_bh", "fdr_bh": "fdr_bh"}
COLUMNS = ["group", "metric", "unit", "value_a", "value_b", "difference", "ci_low", "ci_high", "test",
           "p_value", "p_adjusted", "significant", "paired", "n_a", "n_b"]
EXACT_MCNEMAR_BELOW = 25  # discordant pairs; the chi-square approximation is poor below this


# ------------------------------------------------------------------ per-game data
@dataclass
class GameTable:
    """One dataset's per-game, per-seat data: what every non-card row needs, nothing more."""

    ids: np.ndarray            # int64 [G] game ids, sorted
    score: np.ndarray          # float64 [G, P]
    won: np.ndarray            # bool [G, P]
    position: np.ndarray       # int16 [G, P] turn position of each seat (start_order or seat)
    bot: np.ndarray            # int16 [G, P] index into bot_names
    bot_names: list[str]
    position_column: str       # "start_order" or "seat"
    lengths: dict[str, np.ndarray] = field(default_factory=dict)  # n_rounds, turns [G]

    def bot_codes_in(self, names: list[str]) -> np.ndarray:
        """The bot matrix with codes into another name list (-2 for bots that list lacks)."""
        lookup = np.array([names.index(n) if n in names else -2 for n in self.bot_names] + [-1], dtype=np.int16)
        return lookup[self.bot]


def _codes(column: pd.Series, names: list[str]) -> np.ndarray:
    """Integer codes of a label column into a growing list of names (categories differ by part)."""
    cat = column if isinstance(column.dtype, pd.CategoricalDtype) else column.astype("category")
    lookup = []
    for label in cat.cat.categories:
        label = str(label)
        if label not in names:
            names.append(label)
        lookup.append(names.index(label))
    lookup = np.asarray(lookup + [-1], dtype=np.int16)  # code -1 (missing) -> -1
    return lookup[cat.cat.codes.to_numpy()]


def load_games(ds: Dataset) -> GameTable:
    """Per-game arrays of a dataset, read in record batches (only the columns needed)."""
    players_cols = ds.player_columns()
    for needed in ("game_id", "seat", "bot", "won", "score"):
        if needed not in players_cols:
            raise UserError(f"{ds.path}: the players table has no column {needed!r}")
    position_column = "start_order" if "start_order" in players_cols else "seat"
    game_cols = ds.game_columns()
    length_cols = [c for c in ("n_rounds", "turns") if c in game_cols]
    games = ds.games(["game_id", *length_cols])
    order = np.argsort(games["game_id"].to_numpy(), kind="stable")
    ids = games["game_id"].to_numpy()[order].astype(np.int64)
    if len(ids) and np.any(ids[1:] == ids[:-1]):
        raise UserError(f"{ds.path}: the games table repeats a game_id")
    lengths = {c: games[c].to_numpy()[order].astype(np.float64) for c in length_cols}
    n_games, n_players = len(ids), ds.n_players
    score = np.full((n_games, n_players), np.nan)
    won = np.zeros((n_games, n_players), dtype=bool)
    position = np.full((n_games, n_players), -1, dtype=np.int16)
    bot = np.full((n_games, n_players), -1, dtype=np.int16)
    names: list[str] = []
    columns = ["game_id", "seat", "bot", "won", "score"] + (["start_order"] if position_column == "start_order" else [])
    for batch in ds.batches("players", columns):
        row = np.searchsorted(ids, batch["game_id"].to_numpy())
        seat = batch["seat"].to_numpy().astype(np.int64)
        if np.any(row >= n_games) or np.any(ids[np.minimum(row, n_games - 1)] != batch["game_id"].to_numpy()) \
                or np.any((seat < 0) | (seat >= n_players)):
            raise UserError(f"{ds.path}: the players table names a game or seat the games table lacks")
        score[row, seat] = batch["score"].to_numpy().astype(np.float64)
        won[row, seat] = batch["won"].to_numpy().astype(bool)
        position[row, seat] = batch[position_column].to_numpy().astype(np.int16)
        bot[row, seat] = _codes(batch["bot"], names)
    if np.isnan(score).any():
        raise UserError(f"{ds.path}: some games lack a player row (or a score)")
    return GameTable(ids, score, won, position, bot, names, position_column, lengths)


def pairing(a: Dataset, b: Dataset, ga: GameTable, gb: GameTable) -> tuple[bool, str]:
    """(paired, reason): same run seed, same game ids, same bot in every seat of every game."""
    seed_a, seed_b = a.config.get("seed"), b.config.get("seed")
    if seed_a is None or seed_a != seed_b:
        return False, f"different run seeds ({seed_a} and {seed_b})"
    if a.n_players != b.n_players:
        return False, f"different player counts ({a.n_players} and {b.n_players})"
    if not np.array_equal(ga.ids, gb.ids):
        return False, "different game ids"
    if not np.array_equal(ga.bot, gb.bot_codes_in(ga.bot_names)):
        return False, "different bots in the seats"
    return True, f"same seed {seed_a}, same {len(ga.ids):,} game ids and seats: common random numbers"


def games_changed(ga: GameTable, gb: GameTable) -> int:
    """Of paired games (the same deal and dice in A and B), how many the change touched: a final
    score, a winner, a turn position or a game length differs. A change that touches few games
    can move no measure much, whatever it does to those few."""
    changed = np.any(ga.score != gb.score, axis=1) | np.any(ga.won != gb.won, axis=1)
    changed |= np.any(ga.position != gb.position, axis=1)
    for name, lengths in ga.lengths.items():
        if name in gb.lengths:
            changed |= lengths != gb.lengths[name]
    return int(np.count_nonzero(changed))


# ------------------------------------------------------------------ one row per test
def _row(group, metric, unit, value_a, value_b, diff, ci, test, p, paired, n_a, n_b) -> dict:
    return {"group": group, "metric": metric, "unit": unit, "value_a": float(value_a), "value_b": float(value_b),
            "difference": float(diff), "ci_low": float(ci[0]), "ci_high": float(ci[1]), "test": test,
            "p_value": float(p), "paired": bool(paired), "n_a": int(n_a), "n_b": int(n_b)}


def _constant(d: np.ndarray) -> bool:
    return len(d) == 0 or bool(np.all(d == d[0]))


def _no_test(diff: float) -> tuple[tuple[float, float], float]:
    return (diff, diff), (1.0 if diff == 0 else 0.0)


def paired_mean(xa: np.ndarray, xb: np.ndarray, level: float) -> tuple[float, tuple[float, float], float, str]:
    """(mean B - A, CI, p, test) of paired per-game values: scipy's paired t test."""
    d = xb - xa
    diff = float(d.mean()) if len(d) else float("nan")
    if _constant(d):
        ci, p = _no_test(diff)
        return diff, ci, p, "none (all differences equal)"
    res = stats.ttest_rel(xb, xa)
    ci = res.confidence_interval(confidence_level=level)
    return diff, (float(ci.low), float(ci.high)), float(res.pvalue), "paired t"


def welch_mean(xa: np.ndarray, xb: np.ndarray, level: float) -> tuple[float, tuple[float, float], float, str]:
    """(mean B - mean A, CI, p, test) of two independent samples: Welch's t test."""
    diff = float(xb.mean() - xa.mean())
    if _constant(xa) and _constant(xb):
        ci, p = _no_test(diff)
        return diff, ci, p, "none (both samples constant)"
    res = stats.ttest_ind(xb, xa, equal_var=False)
    ci = res.confidence_interval(confidence_level=level)
    return diff, (float(ci.low), float(ci.high)), float(res.pvalue), "Welch t"


def paired_rate(wins_a: np.ndarray, wins_b: np.ndarray, seats: np.ndarray, level: float):
    """Win-rate difference from per-game win counts of the same seats in A and B (paired games).

    With one seat per game the per-game outcomes are win indicators and McNemar's test applies;
    otherwise the paired t test on the win counts scaled by the mean number of seats, whose mean
    is exactly sum(wins) / sum(seats).
    """
    present = seats > 0
    wa, wb, c = wins_a[present].astype(np.float64), wins_b[present].astype(np.float64), seats[present]
    scale = c.mean()
    diff, ci, p, test = paired_mean(wa / scale, wb / scale, level)
    if np.all(c == 1) and not _constant(wb - wa):
        both = int(np.sum((wa == 1) & (wb == 1)))
        only_a = int(np.sum((wa == 1) & (wb == 0)))
        only_b = int(np.sum((wa == 0) & (wb == 1)))
        neither = int(np.sum((wa == 0) & (wb == 0)))
        exact = only_a + only_b < EXACT_MCNEMAR_BELOW
        p = float(mcnemar([[both, only_a], [only_b, neither]], exact=exact, correction=True).pvalue)
        test = "McNemar exact" if exact else "McNemar chi2"
    return diff, ci, p, test


def two_proportions(wins_a: int, n_a: int, wins_b: int, n_b: int, level: float):
    """(rate B - rate A, CI, p, test) of independent samples: the two-proportion score test, with
    Newcombe's hybrid score interval (Wilson based, so sound at rates near 0 or 1)."""
    diff = wins_b / n_b - wins_a / n_a
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        p = float(test_proportions_2indep(wins_b, n_b, wins_a, n_a, compare="diff", method="score").pvalue)
        low, high = confint_proportions_2indep(wins_b, n_b, wins_a, n_a, compare="diff", method="newcomb",
                                               alpha=1 - level)
    if not np.isfinite(p):  # both rates 0, or both 1: no evidence of a difference
        p = 1.0
    return diff, (float(low), float(high)), p, "two-proportion score z"


# ------------------------------------------------------------------ the rows
def decided_games(ga: GameTable, gb: GameTable, paired: bool) -> tuple[np.ndarray, np.ndarray]:
    """Per game of A and of B, whether it counts in the win rates: some player won it (and, paired,
    some player won its twin in the other dataset too, so the pairs stay pairs)."""
    keep_a, keep_b = has_winner(ga.won), has_winner(gb.won)
    if paired:
        keep_a = keep_b = keep_a & keep_b
    return keep_a, keep_b


def _rate_rows(ga: GameTable, gb: GameTable, paired: bool, level: float) -> list[dict]:
    """Win rate by turn position, first-player advantage, win rate by bot (over the games with a
    winner, see decided_games)."""
    rows = []
    n_players = ga.score.shape[1]
    kind = ga.position_column
    keep_a, keep_b = decided_games(ga, gb, paired)
    groups = []  # (group, metric, seats mask A, seats mask B)
    for p in range(n_players):
        groups.append(("turn order", f"win rate, {kind} {p}" + (" (first player)" if p == 0 else ""),
                       ga.position == p, gb.position == p))
    for name in ga.bot_names:
        if name in gb.bot_names:
            groups.append(("bots", f"win rate, bot {name}", ga.bot == ga.bot_names.index(name),
                           gb.bot == gb.bot_names.index(name)))
    for group, metric, ma, mb in groups:
        ma, mb = ma & keep_a[:, None], mb & keep_b[:, None]
        seats_a, seats_b = ma.sum(axis=1), mb.sum(axis=1)
        wins_a, wins_b = (ga.won & ma).sum(axis=1), (gb.won & mb).sum(axis=1)
        n_a, n_b = int(seats_a.sum()), int(seats_b.sum())
        if n_a == 0 or n_b == 0:
            continue
        rate_a, rate_b = wins_a.sum() / n_a, wins_b.sum() / n_b
        if paired and np.array_equal(seats_a, seats_b):
            diff, ci, p, test = paired_rate(wins_a, wins_b, seats_a, level)
            row = _row(group, metric, "proportion", rate_a, rate_b, diff, ci, test, p, True, n_a, n_b)
        else:
            diff, ci, p, test = two_proportions(int(wins_a.sum()), n_a, int(wins_b.sum()), n_b, level)
            row = _row(group, metric, "proportion", rate_a, rate_b, diff, ci, test, p, False, n_a, n_b)
        rows.append(row)
        if group == "turn order" and metric.startswith(f"win rate, {kind} 0"):
            # Ludii's first-player advantage: the first player's win rate above the fair share 1/N.
            # With equal player counts its difference is the first position's, the same hypothesis:
            # it shares that row's test and is counted once in the correction (_same_as).
            fair_a, fair_b = 1 / n_players, 1 / gb.score.shape[1]
            shift = fair_b - fair_a
            adv = dict(row, metric="first-player advantage (win rate - 1/N)", value_a=rate_a - fair_a,
                       value_b=rate_b - fair_b, difference=row["difference"] - shift,
                       ci_low=row["ci_low"] - shift, ci_high=row["ci_high"] - shift)
            if shift == 0:
                adv["_same_as"] = row["metric"]
            rows.append(adv)
    return rows


def _mean_rows(ga: GameTable, gb: GameTable, paired: bool, level: float) -> list[dict]:
    """Mean score, score sd, winning margin, game length: per-game values, paired or Welch t."""
    test_fn = paired_mean if paired else welch_mean
    rows = []
    n_a, n_b = len(ga.ids), len(gb.ids)

    def add(group, metric, unit, xa, xb, value_a=None, value_b=None):
        diff, ci, p, test = test_fn(xa, xb, level)
        va = xa.mean() if value_a is None else value_a
        vb = xb.mean() if value_b is None else value_b
        rows.append(_row(group, metric, unit, va, vb, diff, ci, test, p, paired, n_a, n_b))

    add("scores", "mean score", "VP", ga.score.mean(axis=1), gb.score.mean(axis=1))
    # score sd: each game's mean squared deviation from the dataset mean; its mean is the variance
    dev_a = ((ga.score - ga.score.mean()) ** 2).mean(axis=1)
    dev_b = ((gb.score - gb.score.mean()) ** 2).mean(axis=1)
    sd_a, sd_b = np.sqrt(dev_a.mean()), np.sqrt(dev_b.mean())
    var_diff, var_ci, p, test = test_fn(dev_a, dev_b, level)
    denominator = sd_a + sd_b
    if denominator > 0:
        ci = (var_ci[0] / denominator, var_ci[1] / denominator)
        rows.append(_row("scores", "score sd", "VP", sd_a, sd_b, sd_b - sd_a, ci,
                         f"{test} on squared deviations", p, paired, n_a, n_b))
    if ga.score.shape[1] >= 2 and gb.score.shape[1] >= 2:
        top_a, top_b = np.sort(ga.score, axis=1), np.sort(gb.score, axis=1)
        add("scores", "winning margin (1st - 2nd score)", "VP", top_a[:, -1] - top_a[:, -2],
            top_b[:, -1] - top_b[:, -2])
    for column, unit in (("n_rounds", "rounds"), ("turns", "turns")):
        if column in ga.lengths and column in gb.lengths:
            add("game length", f"mean {column}", unit, ga.lengths[column], gb.lengths[column])
    return rows


def _card_items(ds_a: Dataset, ds_b: Dataset) -> list[tuple[str, str, str]]:
    """(group name, item, column) of every held-column both datasets record."""
    from sim.core import registry

    try:
        game = registry.get_game(ds_a.game)
    except UserError:
        return []
    cols_a, cols_b = ds_a.player_columns(), set(ds_b.player_columns())
    items = []
    for group in getattr(game, "card_groups", ()):
        for column in cols_a:
            if group.held and column.startswith(group.held) and column in cols_b:
                items.append((group.name, column[len(group.held):], column))
    return items


def _held_counts(ds: Dataset, columns: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(players who held each column's item, how many of them won), summed over record batches."""
    held = np.zeros(len(columns), dtype=np.int64)
    wins = np.zeros(len(columns), dtype=np.int64)
    for batch in ds.win_batches(["won", *columns]):
        has = batch[columns].to_numpy() > 0
        held += has.sum(axis=0)
        wins += (has & batch["won"].to_numpy().astype(bool)[:, None]).sum(axis=0)
    return held, wins


def _card_rows(ds_a: Dataset, ds_b: Dataset, level: float) -> list[dict]:
    """GIH WR of every card item, A against B: two independent samples of holders."""
    items = _card_items(ds_a, ds_b)
    if not items:
        return []
    columns = [column for _, _, column in items]
    held_a, wins_a = _held_counts(ds_a, columns)
    held_b, wins_b = _held_counts(ds_b, columns)
    rows = []
    for k, (group, item, _) in enumerate(items):
        if held_a[k] == 0 or held_b[k] == 0:
            continue
        diff, ci, p, test = two_proportions(int(wins_a[k]), int(held_a[k]), int(wins_b[k]), int(held_b[k]), level)
        rows.append(_row(f"cards: {group}", f"GIH WR, {group} {item}", "proportion", wins_a[k] / held_a[k],
                         wins_b[k] / held_b[k], diff, ci, test, p, False, held_a[k], held_b[k]))
    return rows


# ------------------------------------------------------------------ the comparison
def _as_dataset(d: Dataset | str) -> Dataset:
    return d if isinstance(d, Dataset) else open_dataset(d)


def compare(a: Dataset | str, b: Dataset | str, alpha: float = 0.05, correction: str = "holm",
            cards: bool = True, figure: bool = True) -> Result:
    """Every metric of B against A with B - A, its (1 - alpha) interval, a test and adjusted p-values.

    a, b: datasets (or their directories) of the same game. correction: "holm" (family-wise) or
    "bh" (Benjamini-Hochberg false discovery rate), over all the rows. cards=False leaves out the
    card rows (fewer tests, so more power for the others). figure=False: the table alone
    (Result.figure None), as the verdicts read it. The table's attrs hold the labels, whether the
    datasets are paired and why.
    """
    if correction not in CORRECTIONS:
        raise UserError(f"unknown correction {correction!r} (use holm or bh)")
    if not 0 < alpha < 1:
        raise UserError(f"alpha must be between 0 and 1 (got {alpha})")
    ds_a, ds_b = _as_dataset(a), _as_dataset(b)
    if ds_a.game != ds_b.game:
        raise UserError(f"cannot compare datasets of different games ({ds_a.game} and {ds_b.game})")
    ga, gb = load_games(ds_a), load_games(ds_b)
    if len(ga.ids) == 0 or len(gb.ids) == 0:
        raise UserError("cannot compare an empty dataset")
    paired, reason = pairing(ds_a, ds_b, ga, gb)
    level = 1 - alpha
    rows = _rate_rows(ga, gb, paired, level) + _mean_rows(ga, gb, paired, level)
    if cards:
        rows += _card_rows(ds_a, ds_b, level)
    table = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_adjusted", "significant")] + ["_same_as"])
    table["p_adjusted"] = np.nan
    table["significant"] = False
    untested = table["test"].str.startswith("none").to_numpy()  # certain: p is 0 or 1, nothing to adjust
    table.loc[untested, "p_adjusted"] = table.loc[untested, "p_value"]
    table.loc[untested, "significant"] = table.loc[untested, "p_value"] == 0
    tested = (table["p_value"].notna() & table["_same_as"].isna()).to_numpy() & ~untested
    if tested.any():
        reject, adjusted = adjust_p_values(table.loc[tested, "p_value"].to_numpy(), alpha, CORRECTIONS[correction])
        table.loc[tested, "p_adjusted"] = adjusted
        table.loc[tested, "significant"] = reject
    for i in np.flatnonzero(table["_same_as"].notna().to_numpy()):
        source = table.index[table["metric"] == table.at[i, "_same_as"]][0]
        table.loc[i, ["p_adjusted", "significant"]] = table.loc[source, ["p_adjusted", "significant"]].to_numpy()
    table = table[COLUMNS]
    table.attrs["games_changed"] = games_changed(ga, gb) if paired else None
    table.attrs["n_games"] = int(len(ga.ids))
    table.attrs.update({"a": ds_a.label, "b": ds_b.label, "paired": paired, "pairing": reason,
                        "correction": correction, "alpha": alpha, "game": ds_a.game, "n_tests": int(tested.sum()),
                        "no_winner_a": int(np.count_nonzero(~has_winner(ga.won))),
                        "no_winner_b": int(np.count_nonzero(~has_winner(gb.won)))})
    return Result(table, forest_plot(table) if figure else None)


# ------------------------------------------------------------------ figure and text
def _panels(table: pd.DataFrame, max_cards: int) -> list[tuple[str, pd.DataFrame, float]]:
    """(title, rows, scale) of each forest-plot panel; scale turns proportions into points."""
    panels = []
    rates = table[(table["unit"] == "proportion") & ~table["group"].str.startswith("cards")]
    if len(rates):
        panels.append(("win rate: B - A (percentage points)", rates, 100.0))
    for unit in ("VP", "rounds", "turns"):
        rows = table[table["unit"] == unit]
        if len(rows):
            panels.append((f"B - A ({unit})", rows, 1.0))
    cards = table[table["group"].str.startswith("cards")]
    if len(cards):
        half = (cards["ci_high"] - cards["ci_low"]).replace(0, np.nan) / 2
        strength = (cards["difference"].abs() / half).fillna(0)
        chosen = cards.loc[strength.sort_values(ascending=False).index[:max_cards]]
        title = "card GIH win rate: B - A (percentage points)"
        if len(cards) > len(chosen):
            title += f", the {len(chosen)} clearest shifts of {len(cards)}"
        panels.append((title, chosen, 100.0))
    return panels


def forest_plot(table: pd.DataFrame, max_cards: int = 15) -> Figure:
    """Differences B - A with their intervals, one panel per unit; significant rows in red."""
    panels = _panels(table, max_cards)
    heights = [max(len(rows), 1) + 1.5 for _, rows, _ in panels] or [1]
    fig = Figure(figsize=(9, 0.32 * sum(heights) + 1.5), layout="constrained")
    level = 100 * (1 - table.attrs.get("alpha", 0.05))
    paired = table.attrs.get("paired")
    fig.suptitle(f"Variant comparison, B - A with {level:.0f}% intervals "
                 f"({'paired by seed' if paired else 'independent samples'})\n"
                 f"A: {table.attrs.get('a', 'A')}\nB: {table.attrs.get('b', 'B')}", fontsize=9)
    if not panels:
        return fig
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)[:, 0]
    for ax, (title, rows, scale) in zip(axes, panels):
        y = np.arange(len(rows))[::-1]
        diff = rows["difference"].to_numpy() * scale
        err = np.vstack([diff - rows["ci_low"].to_numpy() * scale, rows["ci_high"].to_numpy() * scale - diff])
        sig = rows["significant"].to_numpy(dtype=bool)
        for mask, color, label in ((~sig, "tab:blue", "not significant"),
                                   (sig, "tab:red", f"significant ({table.attrs.get('correction', 'holm')})")):
            if mask.any():
                ax.errorbar(diff[mask], y[mask], xerr=err[:, mask], fmt="o", color=color, capsize=3,
                            markersize=4, label=label)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(y, rows["metric"].tolist(), fontsize=8)
        ax.set_ylim(-0.8, len(rows) - 0.2)
        ax.set_xlabel(title)
        ax.grid(axis="x", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    return fig


def _fmt(value: float, unit: str, diff: bool = False) -> str:
    if not np.isfinite(value):
        return "-"
    if unit == "proportion":
        return f"{100 * value:+.2f} pp" if diff else f"{100 * value:.2f}%"
    return f"{value:+.3f}" if diff else f"{value:.3f}"


def _fmt_p(p: float) -> str:
    if not np.isfinite(p):
        return "-"
    return f"{p:.2g}" if p >= 1e-4 else "<1e-4"


def no_winner_lines(attrs: dict) -> list[str]:
    """The lines saying how many games without a winner the win-rate rows left out (none: no line)."""
    lines = [f"{which}: {no_winner_note(attrs[key])}" for key, which in (("no_winner_a", "A"), ("no_winner_b", "B"))
             if attrs.get(key, 0) > 0]
    if lines and attrs.get("paired"):
        lines.append("(paired: a game left out of one dataset's win rates is left out of the other's too)")
    return lines


def compare_summary_text(result: Result, all_cards: bool = False) -> str:
    """The comparison as a fixed-width table: every metric, and the card rows that are significant
    (all of them with all_cards=True)."""
    table = result.table
    attrs = table.attrs
    level = 100 * (1 - attrs.get("alpha", 0.05))
    lines = [f"A: {attrs.get('a', '?')}", f"B: {attrs.get('b', '?')}"]
    if attrs.get("paired"):
        lines.append(f"paired: yes ({attrs.get('pairing')}); per-game differences, paired tests, "
                     "sharper intervals")
    else:
        lines.append(f"paired: no ({attrs.get('pairing')}); two-sample tests")
    changed = attrs.get("games_changed")
    if changed is not None:
        games = int(table["n_a"].max()) if "n_a" in table and len(table) else 0
        games = attrs.get("n_games", games)
        share = f" ({100 * changed / games:.2f}%)" if games else ""
        lines.append(f"the change touched {changed:,} of {games:,} paired games{share} (a score, winner, turn "
                     f"order or length differs); the others played out the same"
                     + ("; it can move no measure much" if games and changed < 0.01 * games else ""))
    lines.append(f"p adj: {attrs.get('correction', 'holm')} over {attrs.get('n_tests', '?')} tests; "
                 f"* = significant at {attrs.get('alpha', 0.05)}; card rows (GIH WR) are never paired")
    lines += no_winner_lines(attrs)
    cards = table["group"].str.startswith("cards")
    shown = table if all_cards else table[~cards | table["significant"]]
    header = ["metric", "A", "B", "B - A", f"{level:.0f}% CI", "test", "p", "p adj", ""]
    body = []
    for _, r in shown.iterrows():
        ci = f"[{_fmt(r.ci_low, r.unit, True)}, {_fmt(r.ci_high, r.unit, True)}]"
        body.append([r.metric, _fmt(r.value_a, r.unit), _fmt(r.value_b, r.unit), _fmt(r.difference, r.unit, True),
                     ci, r.test, _fmt_p(r.p_value), _fmt_p(r.p_adjusted), "*" if r.significant else ""])
    widths = [max(len(str(row[i])) for row in [header, *body]) for i in range(len(header))]
    lines.append("")
    lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip())
    lines.append("  ".join("-" * w for w in widths[:-1]))
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip() for row in body]
    if cards.any() and not all_cards:
        n_sig = int((cards & table["significant"]).sum())
        lines.append(f"({int(cards.sum())} card rows tested, {n_sig} significant shown above)")
    return "\n".join(lines)
