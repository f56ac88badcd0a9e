"""Who wins: win rates per seat, turn-order position and bot, seat balance, scores, winning
margins, game length and how games end.

Every function takes a `Dataset` (io.open_dataset) and returns a `Result(table, figure)`. Tables
are tidy (one row per group or per measure); figures carry a title naming the dataset, labelled
axes and 95% intervals as error bars.

Conventions:
- A win is a players row with `won = true`. Games with a shared first place give every sharer a
  win, so win rates over seats can sum to a little more than 1, and the fair share of a seat is
  (won rows / player rows), which is 1/N when every game has exactly one winner.
- A game no player won (a stalemate) is left out of every win rate, balance measure and test: its
  rows count neither as wins nor as games played. The tables say how many games that left out
  (`table.attrs["no_winner_games"]`, and a line in the figure's title when there are any).
- "First player" is position 0 of the `by` column. In Chachapoya seat 0 starts (`by="seat"`); in
  Cuzco turn order is dealt at random, so ask with `by="start_order"`.
- Intervals on proportions are Wilson score (`method="wilson"`) or Clopper-Pearson
  (`method="beta"`) from statsmodels; intervals on means are Student t (statsmodels DescrStatsW).
- Tables are read in record batches and aggregated (counts of values), so a 10-million-game
  dataset never sits in memory whole.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterator, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter
from scipy.stats import chisquare
from statsmodels.stats.weightstats import DescrStatsW

from sim.analysis.io import Dataset, Result
from sim.core.stats import no_winner_note, rate_ci
from sim.core.errors import UserError

ALPHA = 0.05  # 95% intervals
METHODS = {"wilson": "Wilson", "beta": "Clopper-Pearson"}
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
QUANTILE_COLUMNS = ("q05", "q25", "median", "q75", "q95")
SUMMARY_COLUMNS = ("n", "mean", "ci_low", "ci_high", "sd", "min", *QUANTILE_COLUMNS, "max")
BATCH_ROWS = 1_000_000  # rows per record batch when scanning a table

AXIS_LABELS = {
    "seat": "seat",
    "start_order": "turn-order position at start (0 = first player)",
    "final_order": "turn-order position at the end (0 = first)",
    "bot": "bot",
}


# ------------------------------------------------------------------------------ helpers
def _check_method(method: str) -> str:
    if method not in METHODS:
        raise UserError(f"unknown interval method {method!r} (use 'wilson' or 'beta')")
    return method


def _check_player_column(ds: Dataset, column: str, what: str = "by") -> str:
    if column not in ds.player_columns():
        hint = " (Cuzco-style turn order; use by='seat')" if column == "start_order" else ""
        raise UserError(f"{ds.game}: the players table has no column {column!r} for {what}{hint}")
    return column


SHORT_NAMES = {"start_order": "turn-order position", "final_order": "final turn-order position"}


def _short(column: str | None) -> str:
    return SHORT_NAMES.get(column, column) if column else "all players"


def _axis_label(column: str | None) -> str:
    return AXIS_LABELS.get(column, column) if column else "all players"


def _figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def _confint(wins, n, method: str) -> tuple[np.ndarray, np.ndarray]:
    _, lo, hi = rate_ci(wins, n, method, ALPHA)
    return lo, hi


def _left_out(ds: Dataset, table: pd.DataFrame) -> str:
    """Records in the table how many games without a winner were left out; the title's line for them."""
    table.attrs["no_winner_games"] = ds.no_winner_games
    note = no_winner_note(ds.no_winner_games)
    return f"\n{note}" if note else ""


def _win_counts(ds: Dataset, keys: Sequence[str]) -> pd.DataFrame:
    """Player rows (`n`) and wins (`wins`) per combination of `keys`, summed batch by batch, over
    the games some player won."""
    parts = []
    for batch in ds.win_batches([*keys, "won"], batch_rows=BATCH_ROWS):
        g = batch.groupby(list(keys), observed=True)["won"]
        parts.append(pd.DataFrame({"n": g.size(), "wins": g.sum()}))
    if not parts:
        raise UserError(f"{ds.path}: the dataset holds no games")
    counts = pd.concat(parts).groupby(level=list(range(len(keys))), observed=True).sum()
    counts = counts.astype(np.int64).sort_index().reset_index()
    counts.columns = [*keys, "n", "wins"]
    return counts


def _with_rates(counts: pd.DataFrame, method: str) -> pd.DataFrame:
    """Adds rate, its interval and the fair share (won rows / player rows) to win counts."""
    out = counts.copy()
    out["rate"] = out["wins"] / out["n"]
    out["ci_low"], out["ci_high"] = _confint(out["wins"], out["n"], method)
    out["expected"] = out["wins"].sum() / out["n"].sum()
    return out


def _whole_games(ds: Dataset, columns: Sequence[str]) -> Iterator[pd.DataFrame]:
    """Players rows in frames that never split a game (a game's rows are contiguous)."""
    carry = None
    for batch in ds.batches("players", ["game_id", *columns], batch_rows=BATCH_ROWS):
        if carry is not None and len(carry):
            batch = pd.concat([carry, batch], ignore_index=True)
        ids = batch["game_id"].to_numpy()
        tail = ids == ids[-1]
        carry = batch[tail]
        if not tail.all():
            yield batch[~tail]
    if carry is not None and len(carry):
        yield carry


def _value_counts(frames: Iterator[pd.DataFrame], value: str, by: str | None) -> pd.Series:
    """Counts of each value (per group of `by`), summed over frames: index (group, value)."""
    parts = []
    for frame in frames:
        if by is None:
            frame = frame.assign(_all="all")
        parts.append(frame.groupby([by or "_all", value], observed=True).size())
    if not parts:
        raise UserError("the dataset holds no games")
    return pd.concat(parts).groupby(level=[0, 1], observed=True).sum().sort_index()


def _summary(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """n, mean with its 95% t interval, sd, min, quantiles and max of values given their counts."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    keep = counts > 0
    values, counts = values[keep], counts[keep]
    stats = DescrStatsW(values, weights=counts, ddof=1)
    n = counts.sum()
    lo, hi = stats.tconfint_mean(alpha=ALPHA) if n > 1 else (np.nan, np.nan)
    q = stats.quantile(np.array(QUANTILES), return_pandas=False)
    return {
        "n": int(n), "mean": float(stats.mean), "ci_low": float(lo), "ci_high": float(hi),
        "sd": float(stats.std) if n > 1 else np.nan, "min": float(values.min()),
        **{name: float(v) for name, v in zip(QUANTILE_COLUMNS, q)}, "max": float(values.max()),
    }


def _bars_with_ci(ax, labels, rate, lo, hi, expected: float | None, color=None, label=None):
    x = np.arange(len(labels))
    err = [np.clip(rate - lo, 0, None), np.clip(hi - rate, 0, None)]
    ax.bar(x, rate, yerr=err, capsize=4, color=color, label=label,
           error_kw={"elinewidth": 1.2})
    ax.set_xticks(x, [str(v) for v in labels])
    if expected is not None:
        ax.axhline(expected, color="black", linestyle="--", linewidth=1,
                   label=f"fair share {expected:.1%}")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def _histogram(ax, values: np.ndarray, counts: np.ndarray, label: str | None = None,
               max_bars: int = 60) -> None:
    """Share of observations per value (integer values one bar each, else binned), as a step."""
    values = np.asarray(values, dtype=float)
    counts = np.asarray(counts, dtype=float)
    lo, hi = values.min(), values.max()
    integer = np.all(values == np.round(values))
    if integer and hi - lo + 1 <= max_bars:
        edges = np.arange(lo - 0.5, hi + 1.5)
    else:
        edges = np.histogram_bin_edges(values, bins=min(max_bars, 40), range=(lo, hi + 1e-9))
    share, edges = np.histogram(values, bins=edges, weights=counts / counts.sum())
    ax.stairs(share, edges, label=label, fill=label is None, alpha=0.85 if label is None else 1,
              linewidth=1.5)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if integer:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


# ------------------------------------------------------------------------------ win rates
def seat_win_rates(ds: Dataset, by: str = "seat", method: str = "wilson", figure: bool = True) -> Result:
    """Win rate per seat (`by="seat"`) or per turn-order position (`by="start_order"`).

    Table: <by>, n (games played there), wins, rate, ci_low, ci_high (95%), expected (fair share).
    figure=False: the table alone (Result.figure None), as the verdicts read it.
    """
    _check_method(method)
    _check_player_column(ds, by)
    table = _with_rates(_win_counts(ds, [by]), method)
    return Result(table, _seat_figure(ds, table, by, method) if figure else None)


def _seat_figure(ds: Dataset, table: pd.DataFrame, by: str, method: str) -> Figure:
    fig = _figure(7, 4.2)
    ax = fig.subplots()
    _bars_with_ci(ax, table[by], table["rate"].to_numpy(), table["ci_low"].to_numpy(),
                  table["ci_high"].to_numpy(), float(table["expected"].iloc[0]), color="tab:blue")
    ax.set_xlabel(_axis_label(by))
    ax.set_ylabel("win rate (share of games won)")
    ax.set_title(f"Win rate by {_short(by)}, 95% {METHODS[method]} intervals\n{ds.label}{_left_out(ds, table)}")
    ax.legend(loc="lower right")
    return fig


def bot_win_rates(ds: Dataset, method: str = "wilson", figure: bool = True) -> Result:
    """Win rate per bot over every seat it played. Table: bot, n (player rows), wins, rate, CI, expected.
    figure=False: the table alone (Result.figure None), as the verdicts read it."""
    _check_method(method)
    table = _with_rates(_win_counts(ds, ["bot"]), method)
    table["bot"] = table["bot"].astype(str)
    return Result(table, _bot_figure(ds, table, method) if figure else None)


def _bot_figure(ds: Dataset, table: pd.DataFrame, method: str) -> Figure:
    fig = _figure(7, 4.2)
    ax = fig.subplots()
    _bars_with_ci(ax, table["bot"], table["rate"].to_numpy(), table["ci_low"].to_numpy(),
                  table["ci_high"].to_numpy(), float(table["expected"].iloc[0]), color="tab:green")
    ax.set_xlabel("bot")
    ax.set_ylabel("win rate (share of its games won)")
    ax.set_title(f"Win rate by bot, 95% {METHODS[method]} intervals\n{ds.label}{_left_out(ds, table)}")
    ax.legend(loc="lower right")
    return fig


def seat_bot_win_rates(ds: Dataset, method: str = "wilson", by: str = "seat") -> Result:
    """Win rate of each bot in each seat (or turn-order position): the seat x bot grid.

    Table: <by>, bot, n, wins, rate, ci_low, ci_high, expected. Figure: bars grouped by seat.
    """
    _check_method(method)
    _check_player_column(ds, by)
    table = _with_rates(_win_counts(ds, [by, "bot"]), method)
    table["bot"] = table["bot"].astype(str)

    positions = sorted(table[by].unique())
    bots = list(dict.fromkeys(table.sort_values("bot")["bot"]))
    width = 0.8 / max(len(bots), 1)
    fig = _figure(max(7, 1.2 * len(positions) * max(len(bots), 1) * 0.5 + 3), 4.5)
    ax = fig.subplots()
    x = np.arange(len(positions))
    for k, bot in enumerate(bots):
        rows = table[table["bot"] == bot].set_index(by).reindex(positions)
        rate = rows["rate"].to_numpy()
        err = [np.clip(rate - rows["ci_low"].to_numpy(), 0, None),
               np.clip(rows["ci_high"].to_numpy() - rate, 0, None)]
        ax.bar(x - 0.4 + width * (k + 0.5), rate, width=width, yerr=err, capsize=2, label=bot,
               error_kw={"elinewidth": 1})
    expected = float(table["expected"].iloc[0])
    ax.axhline(expected, color="black", linestyle="--", linewidth=1, label=f"fair share {expected:.1%}")
    ax.set_xticks(x, [str(p) for p in positions])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel(_axis_label(by))
    ax.set_ylabel("win rate (share of games won)")
    ax.set_title(f"Win rate of each bot by {_short(by)}, 95% {METHODS[method]} intervals\n"
                 f"{ds.label}{_left_out(ds, table)}")
    ax.legend(title="bot", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    return Result(table, fig)


# ------------------------------------------------------------------------------ balance
def seat_balance_test(ds: Dataset, by: str = "seat") -> Result:
    """Chi-square goodness of fit of wins per seat against equal shares (scipy.stats.chisquare).

    Expected wins of a group are total wins times its share of player rows (total wins / N when
    every seat plays every game), so shared wins are handled. Table (one row): by, statistic, dof,
    p_value, n_games, wins, verdict.
    """
    _check_player_column(ds, by)
    counts = _win_counts(ds, [by])
    if len(counts) < 2:
        raise UserError(f"{ds.game}: need at least two values of {by!r} to compare")
    f_obs = counts["wins"].to_numpy(dtype=float)
    f_exp = f_obs.sum() * counts["n"].to_numpy(dtype=float) / counts["n"].sum()
    test = chisquare(f_obs, f_exp)
    p = float(test.pvalue)
    what = _short(by)
    if p < ALPHA:
        verdict = (f"wins are not evenly spread over the values of {what} (chi-square p = {p:.3g} < {ALPHA}): "
                   f"some {what} is favoured")
    else:
        verdict = (f"no evidence that wins differ between the values of {what} (chi-square p = {p:.3g} >= "
                   f"{ALPHA}); small differences may still exist")
    table = pd.DataFrame([{
        "by": by, "statistic": float(test.statistic), "dof": len(f_obs) - 1, "p_value": p,
        "n_games": int(ds.n_games) - ds.no_winner_games, "wins": int(f_obs.sum()), "verdict": verdict,
    }])

    fig = _figure(7, 4.2)
    ax = fig.subplots()
    x = np.arange(len(counts))
    ax.bar(x, f_obs, color="tab:blue", label="observed wins")
    ax.scatter(x, f_exp, color="black", marker="_", s=800, linewidths=2, zorder=3,
               label="expected if balanced")
    ax.set_xticks(x, [str(v) for v in counts[by]])
    ax.set_xlabel(what)
    ax.set_ylabel("wins (games)")
    ax.set_title(f"Wins by {_short(by)} against equal shares\nchi-square = {test.statistic:.2f}, "
                 f"dof = {len(f_obs) - 1}, p = {p:.3g}; {ds.label}{_left_out(ds, table)}")
    ax.legend(loc="lower right")
    return Result(table, fig)


def _win_patterns(ds: Dataset, by: str) -> Counter:
    """Games counted by the set of `by` positions that won, as a bit mask (bit i = position i won)."""
    patterns: Counter = Counter()
    for frame in _whole_games(ds, [by, "won"]):
        frame = ds.decided(frame)
        if not len(frame):
            continue
        pos = frame[by].to_numpy().astype(np.int64)
        if pos.min() < 0 or pos.max() > 62:
            raise UserError(f"{ds.game}: column {by!r} is not a position 0..62")
        bits = np.where(frame["won"].to_numpy(), np.left_shift(np.int64(1), pos), 0)
        masks = pd.Series(bits).groupby(frame["game_id"].to_numpy()).sum()
        patterns.update(masks.value_counts().to_dict())
    return patterns


def _paired_gap_ci(patterns: Counter, i: int, j: int) -> tuple[float, float]:
    """95% t interval of (win rate of i) - (win rate of j) over the same games: the per-game
    difference is +1 (only i won), -1 (only j won) or 0, so seats' dependence is accounted for."""
    n = sum(patterns.values())
    only_i = sum(c for m, c in patterns.items() if (m >> i) & 1 and not (m >> j) & 1)
    only_j = sum(c for m, c in patterns.items() if (m >> j) & 1 and not (m >> i) & 1)
    if n < 2:
        return np.nan, np.nan
    weights = np.array([only_i, only_j, n - only_i - only_j], dtype=float)
    d = DescrStatsW(np.array([1.0, -1.0, 0.0]), weights=weights)
    lo, hi = d.tconfint_mean(alpha=ALPHA)
    return float(lo), float(hi)


def balance_measures(ds: Dataset, by: str = "seat", method: str = "wilson") -> Result:
    """Ludii's balance measures over seats (or turn-order positions with `by="start_order"`).

    Rows (measure, group, value, ci_low, ci_high, n_games, note):
    - `balance`: 1 - (largest gap between two positions' win rates); 1 is perfect balance. Its
      interval is that of the gap between the best and the worst position, paired by game
      (a t interval on per-game differences; it ignores that the pair was picked as the extremes).
    - `first_player_advantage`: win rate of position 0 minus the fair share (1/N with one winner
      per game), interval from the position's Wilson/Clopper-Pearson interval.
    - `advantage`: the same for every position (`group` = the position).
    """
    _check_method(method)
    _check_player_column(ds, by)
    rates = _with_rates(_win_counts(ds, [by]), method)
    expected = float(rates["expected"].iloc[0])
    n_games = int(ds.n_games) - ds.no_winner_games
    positions = rates[by].to_numpy()
    rate = rates["rate"].to_numpy()

    best, worst = int(np.argmax(rate)), int(np.argmin(rate))
    gap = float(rate[best] - rate[worst])
    patterns = _win_patterns(ds, by)
    gap_lo, gap_hi = _paired_gap_ci(patterns, int(positions[best]), int(positions[worst]))
    rows = [{
        "measure": "balance", "group": None, "value": 1.0 - gap,
        "ci_low": max(0.0, 1.0 - gap_hi), "ci_high": min(1.0, 1.0 - gap_lo), "n_games": n_games,
        "note": f"largest gap: {by} {positions[best]} ({rate[best]:.1%}) vs {by} {positions[worst]} "
                f"({rate[worst]:.1%})",
    }]
    first = rates[rates[by] == 0]
    if len(first):
        r = first.iloc[0]
        rows.append({
            "measure": "first_player_advantage", "group": 0, "value": r["rate"] - expected,
            "ci_low": r["ci_low"] - expected, "ci_high": r["ci_high"] - expected,
            "n_games": n_games, "note": f"win rate of {by} 0 minus fair share {expected:.1%}",
        })
    for _, r in rates.iterrows():
        rows.append({
            "measure": "advantage", "group": int(r[by]), "value": r["rate"] - expected,
            "ci_low": r["ci_low"] - expected, "ci_high": r["ci_high"] - expected,
            "n_games": n_games, "note": f"win rate of {by} {int(r[by])} minus fair share {expected:.1%}",
        })
    table = pd.DataFrame(rows)
    table["group"] = table["group"].astype("Int64")
    table.insert(1, "by", by)

    adv = table[table["measure"] == "advantage"]
    bal = table.iloc[0]
    fig = _figure(7, 4.2)
    ax = fig.subplots()
    x = np.arange(len(adv))
    v = adv["value"].to_numpy()
    ax.bar(x, v, yerr=[np.clip(v - adv["ci_low"].to_numpy(dtype=float), 0, None),
                       np.clip(adv["ci_high"].to_numpy(dtype=float) - v, 0, None)], capsize=4,
           color=np.where(v >= 0, "tab:red", "tab:blue"))
    ax.axhline(0, color="black", linewidth=1)
    ax.set_xticks(x, [str(g) for g in adv["group"]])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    ax.set_xlabel(_axis_label(by))
    ax.set_ylabel("advantage (win rate minus fair share,\npercentage points)")
    ax.set_title(f"Advantage by {_short(by)} (95% {METHODS[method]} intervals)\nBalance = "
                 f"{bal['value']:.3f} [{bal['ci_low']:.3f}, {bal['ci_high']:.3f}]; {ds.label}"
                 f"{_left_out(ds, table)}")
    return Result(table, fig)


# ------------------------------------------------------------------------------ scores, margins
def _summary_table(counts: pd.Series, column: str) -> pd.DataFrame:
    rows = []
    for group, sub in counts.groupby(level=0, observed=True):
        values = sub.index.get_level_values(1).to_numpy()
        rows.append({column: group, **_summary(values, sub.to_numpy())})
    return pd.DataFrame(rows, columns=[column, *SUMMARY_COLUMNS])


def score_distribution(ds: Dataset, by: str | None = "bot") -> Result:
    """Final score per group (`by` = "bot", "seat", "start_order" or None for all players).

    Table: <by>, n, mean, ci_low, ci_high (95% t), sd, min, q05, q25, median, q75, q95, max.
    Figure: the score distribution of each group, and each group's mean with its interval.
    """
    if by is not None:
        _check_player_column(ds, by)
    column = by or "group"
    counts = _value_counts(ds.batches("players", [c for c in (by, "score") if c], BATCH_ROWS),
                           "score", by)
    table = _summary_table(counts, column)
    if by == "bot":
        table["bot"] = table["bot"].astype(str)

    fig = _figure(11, 4.2)
    ax_hist, ax_mean = fig.subplots(1, 2, width_ratios=[2, 1])
    for group, sub in counts.groupby(level=0, observed=True):
        _histogram(ax_hist, sub.index.get_level_values(1).to_numpy(), sub.to_numpy(),
                   label=str(group) if by else None)
    ax_hist.set_xlabel("final score (points)")
    ax_hist.set_ylabel("share of players")
    ax_hist.set_title("Score distribution")
    if by:
        ax_hist.legend(title=_axis_label(by), fontsize="small")
    y = np.arange(len(table))
    m = table["mean"].to_numpy()
    ax_mean.errorbar(m, y, xerr=[m - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - m],
                     fmt="o", capsize=4)
    ax_mean.set_yticks(y, [str(g) for g in table[column]])
    ax_mean.invert_yaxis()
    ax_mean.set_xlabel("mean score (points), 95% interval")
    ax_mean.set_ylabel(_axis_label(by))
    ax_mean.set_title("Mean score")
    fig.suptitle(f"Final scores by {_short(by)}\n{ds.label}")
    return Result(table, fig)


def _margin_frames(ds: Dataset) -> Iterator[pd.DataFrame]:
    for frame in _whole_games(ds, ["score", "rank", "won"]):
        frame = frame.sort_values(["game_id", "rank", "score"], ascending=[True, True, False], kind="stable")
        place = frame.groupby("game_id", sort=False).cumcount().to_numpy()
        top = frame[place == 0].set_index("game_id")
        second = frame[place == 1].set_index("game_id")
        out = pd.DataFrame({
            "winner_score": top["score"].astype(np.int64),
            "runner_up_score": second["score"].reindex(top.index).astype(np.int64),
            "won": top["won"],
        })
        out = out[out["won"]].drop(columns="won")
        out["margin"] = out["winner_score"] - out["runner_up_score"]
        yield out.reset_index()


def game_margins(ds: Dataset) -> pd.DataFrame:
    """One row per game that has a winner: game_id, winner_score, runner_up_score, margin.

    The winner is the first player in rank order (highest score among equal ranks), the runner-up
    the next one; with a shared first place the margin is 0. Holds every game: for big datasets
    prefer margin_distribution, which aggregates.
    """
    frames = list(_margin_frames(ds))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["game_id", "winner_score", "runner_up_score", "margin"])


def margin_distribution(ds: Dataset) -> Result:
    """Winner's margin over the runner-up per game (points), summarised, with a histogram.

    Table (one row): games (with a winner), mean, ci_low, ci_high, sd, min, quantiles, max,
    tied (games with margin 0: shared first place or a tie broken by a rule), tied_share,
    no_winner (games without a winning row, left out).
    """
    n_games = int(ds.n_games)
    counts = _value_counts(_margin_frames(ds), "margin", None)
    values = counts.index.get_level_values(1).to_numpy()
    summary = _summary(values, counts.to_numpy())
    tied = int(counts[values == 0].sum())
    table = pd.DataFrame([{**summary, "tied": tied, "tied_share": tied / summary["n"],
                           "no_winner": n_games - summary["n"]}])
    table = table.rename(columns={"n": "games"})

    fig = _figure(8, 4.2)
    ax = fig.subplots()
    _histogram(ax, values, counts.to_numpy())
    ax.axvline(summary["mean"], color="black", linestyle="--", linewidth=1,
               label=f"mean {summary['mean']:.2f} [{summary['ci_low']:.2f}, {summary['ci_high']:.2f}]")
    ax.axvspan(summary["ci_low"], summary["ci_high"], color="grey", alpha=0.3)
    ax.set_xlabel("winner's margin over the runner-up (points)")
    ax.set_ylabel("share of games")
    ax.set_title(f"Winning margin ({tied / summary['n']:.1%} of games tied at the top)\n{ds.label}")
    ax.legend()
    return Result(table, fig)


# ------------------------------------------------------------------------------ length, endings
def game_length(ds: Dataset) -> Result:
    """Rounds per game (`n_rounds`) and, where recorded, turns per game (`turns`).

    Table: measure, n, mean, ci_low, ci_high (95% t), sd, min, q05, q25, median, q75, q95, max.
    """
    available = ds.game_columns()
    measures = [m for m in ("n_rounds", "turns") if m in available]
    if not measures:
        raise UserError(f"{ds.game}: the games table has no n_rounds or turns column")
    rows, dists = [], {}
    for m in measures:
        counts = _value_counts(ds.batches("games", [m], BATCH_ROWS), m, None)
        values = counts.index.get_level_values(1).to_numpy()
        dists[m] = (values, counts.to_numpy())
        rows.append({"measure": m, **_summary(values, counts.to_numpy())})
    table = pd.DataFrame(rows, columns=["measure", *SUMMARY_COLUMNS])

    labels = {"n_rounds": "rounds per game", "turns": "turns per game"}
    fig = _figure(5.5 * len(measures), 4.2)
    axes = np.atleast_1d(fig.subplots(1, len(measures)))
    for ax, m in zip(axes, measures):
        values, counts = dists[m]
        _histogram(ax, values, counts)
        s = table.set_index("measure").loc[m]
        ax.set_title(f"{labels[m].capitalize()}: mean {s['mean']:.2f} [{s['ci_low']:.2f}, "
                     f"{s['ci_high']:.2f}]", fontsize="medium")
        ax.set_xlabel(labels[m])
        ax.set_ylabel("share of games")
    fig.suptitle(f"Game length\n{ds.label}")
    return Result(table, fig)


def end_reasons(ds: Dataset, method: str = "wilson") -> Result:
    """How games end: counts and shares of `end_reason`, and eliminations if recorded.

    Table: kind ("end_reason" or "elimination"), category, count, n, share, ci_low, ci_high, note.
    A game without an `end_reason` column gets one row saying so (count NaN). Elimination rows
    (from the players' `eliminated` column): share of players eliminated, share of games with at
    least one elimination.
    """
    _check_method(method)
    rows = []
    n_games = int(ds.n_games)
    if "end_reason" in ds.game_columns():
        total: pd.Series | None = None
        for batch in ds.batches("games", ["end_reason"], BATCH_ROWS):
            vc = batch["end_reason"].value_counts(dropna=False)
            vc.index = vc.index.astype(str)
            total = vc if total is None else total.add(vc, fill_value=0)
        total = total.astype(np.int64).sort_values(ascending=False, kind="stable")
        for reason, count in total.items():
            rows.append({"kind": "end_reason", "category": str(reason), "count": int(count),
                         "n": n_games, "note": ""})
    else:
        rows.append({"kind": "end_reason", "category": "not recorded", "count": np.nan,
                     "n": n_games, "note": f"the {ds.game} games table has no end_reason column"})
    if "eliminated" in ds.player_columns():
        players = eliminated = games_with = 0
        for frame in _whole_games(ds, ["eliminated"]):
            players += len(frame)
            eliminated += int(frame["eliminated"].sum())
            games_with += int(frame.groupby("game_id")["eliminated"].any().sum())
        rows.append({"kind": "elimination", "category": "players eliminated", "count": eliminated,
                     "n": players, "note": "share of player rows"})
        rows.append({"kind": "elimination", "category": "games with an elimination",
                     "count": games_with, "n": n_games, "note": "share of games"})
    table = pd.DataFrame(rows, columns=["kind", "category", "count", "n", "note"])
    table["share"] = table["count"] / table["n"]
    recorded = table["count"].notna()
    table["ci_low"] = np.nan
    table["ci_high"] = np.nan
    if recorded.any():
        lo, hi = _confint(table.loc[recorded, "count"].astype(np.int64),
                          table.loc[recorded, "n"].astype(np.int64), method)
        table.loc[recorded, "ci_low"], table.loc[recorded, "ci_high"] = lo, hi
    table = table[["kind", "category", "count", "n", "share", "ci_low", "ci_high", "note"]]

    fig = _figure(8, 1.6 + 0.45 * max(int(recorded.sum()), 1))
    ax = fig.subplots()
    shown = table[recorded]
    if len(shown):
        y = np.arange(len(shown))
        s = shown["share"].to_numpy(dtype=float)
        err = [np.clip(s - shown["ci_low"].to_numpy(dtype=float), 0, None),
               np.clip(shown["ci_high"].to_numpy(dtype=float) - s, 0, None)]
        ax.barh(y, s, xerr=err,
                capsize=3, color=np.where(shown["kind"] == "end_reason", "tab:blue", "tab:red"))
        ax.set_yticks(y, [f"{k.replace('_', ' ')}: {c}" for k, c in zip(shown["kind"], shown["category"])])
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(PercentFormatter(1.0))
        ax.set_xlabel(f"share (of games; of players for 'players eliminated'), 95% {METHODS[method]}")
    else:
        ax.text(0.5, 0.5, f"{ds.game} records no end reason and no eliminations", ha="center",
                va="center", transform=ax.transAxes)
        ax.set_axis_off()
    ax.set_title(f"How games end\n{ds.label}")
    return Result(table, fig)
