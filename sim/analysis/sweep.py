"""A parameter sweep read back: each cell's balance figures side by side.

A sweep (`sim sweep`) is one dataset whose cells share seeds, so differences between cells are
the parameters' doing, not the dice's. Every analysis of this package runs on one cell through
`open_dataset(path, cell=...)`; this module lines the cells up: win rate by seat and by bot, mean
score and game length per cell, with Wilson intervals. Win rates leave out the games no player won
(a stalemate); `table.attrs["no_winner_games"]` counts them per cell and the text says so.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from sim.analysis.io import Result, open_dataset
from sim.core.dataset import read_manifest
from sim.core.errors import UserError
from sim.core.stats import no_winner_note, rate_ci
from sim.core.summary import align_columns
from sim.core.sweep import value_text


def sweep_cells(path: str | Path) -> list[dict]:
    """The cells of a sweep: coords, players, bots and variant label, in grid order."""
    manifest = read_manifest(path)
    if manifest.get("kind") != "sweep":
        raise UserError(f"{path} is a single run, not a sweep")
    return manifest["cells"]


def sweep_summary(path: str | Path, by: str = "seat", alpha: float = 0.05) -> Result:
    """One row per cell and seat (by='seat') or bot (by='bot'): games, win rate [interval], mean score,
    and the cell's mean game length; the figure plots the win rates with their intervals per cell."""
    if by not in ("seat", "bot", "start_order"):
        raise UserError(f"by must be 'seat', 'bot' or 'start_order', not {by!r}")
    rows = []
    left_out = {}
    for index, cell in enumerate(sweep_cells(path)):
        ds = open_dataset(path, cell=index)
        columns = [c for c in ("game_id", by, "won", "score") if c in ds.player_columns()]
        players = ds.players(columns)
        games = ds.games([c for c in ("game_id", "n_rounds") if c in ds.game_columns()])
        grouped = players.groupby(by, observed=True, sort=True)
        decided = ds.decided(players).groupby(by, observed=True, sort=True)
        stats = pd.DataFrame({"n": decided.size(), "wins": decided["won"].sum()}).reindex(
            grouped.size().index, fill_value=0)
        stats["win_rate"], stats["win_low"], stats["win_high"] = rate_ci(stats["wins"].to_numpy(float),
                                                                          stats["n"].to_numpy(float),
                                                                          "wilson", alpha)
        if "score" in players:
            stats["score_mean"] = grouped["score"].mean()
        stats["mean_rounds"] = float(games["n_rounds"].mean()) if "n_rounds" in games else float("nan")
        stats = stats.reset_index().rename(columns={by: "group"})
        label = ", ".join(f"{k}={value_text(v)}" for k, v in cell["coords"].items())
        left_out[label] = ds.no_winner_games
        stats.insert(0, "cell", label)
        for name, value in reversed(list(cell["coords"].items())):
            stats.insert(1, name, value_text(value))
        stats.insert(len(cell["coords"]) + 1, "by", by)
        rows.append(stats)
    table = pd.concat(rows, ignore_index=True)
    table.attrs["no_winner_games"] = left_out
    return Result(table, _figure(table, by))


def _figure(table: pd.DataFrame, by: str) -> Figure:
    figure = Figure(figsize=(8, 0.35 * len(table) + 1.5))
    ax = figure.subplots()
    labels = [f"{cell} | {by} {group}" for cell, group in zip(table["cell"], table["group"])]
    y = range(len(table))[::-1]
    ax.errorbar(table["win_rate"], list(y),
                xerr=[table["win_rate"] - table["win_low"], table["win_high"] - table["win_rate"]],
                fmt="o", capsize=3)
    ax.set_yticks(list(y), labels, fontsize=8)
    ax.set_xlabel("win rate (95% interval)")
    ax.set_title(f"Win rate by {by} in each cell of the sweep")
    figure.tight_layout()
    return figure


def format_sweep_summary(result: Result) -> str:
    """A plain aligned text table of sweep_summary."""
    table = result.table
    header = ["cell", "group", "n", "win rate", "95% CI", "mean score", "rounds"]
    rows = [header]
    for _, row in table.iterrows():
        rows.append([row["cell"], f"{'turn order' if row['by'] == 'start_order' else row['by']} {row['group']}", f"{int(row['n']):,}", f"{row['win_rate']:.4f}",
                     f"[{row['win_low']:.4f}, {row['win_high']:.4f}]",
                     f"{row['score_mean']:.2f}" if "score_mean" in table else "-",
                     f"{row['mean_rounds']:.2f}"])
    notes = [f"{cell}: {no_winner_note(n)}" for cell, n in table.attrs.get("no_winner_games", {}).items() if n]
    return "\n".join(align_columns(rows, left_columns=2) + notes)
