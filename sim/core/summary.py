"""The summary printed after a run: win rates per seat and per bot with confidence intervals.

Intervals matter more than point estimates for balance work: a 2-point seat advantage means
nothing until the interval says it is not noise. Wins are the players table's `won` column; shared
wins exist, so win rates may sum above 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as ds
from statsmodels.stats.proportion import proportion_confint

from sim.core.dataset import cell_index, cell_manifest, is_sweep, read_manifest, table_dirs

Z95 = 1.959963984540054


@dataclass
class Summary:
    config: dict
    n_games: int
    by_seat: pd.DataFrame
    by_bot: pd.DataFrame
    mean_rounds: float | None
    shared_win_games: int
    no_win_games: int


def _read(table_dir: Path, wanted: list[str], optional: list[str]) -> pd.DataFrame:
    dataset = ds.dataset(table_dir, format="parquet")
    present = set(dataset.schema.names)
    columns = wanted + [name for name in optional if name in present]
    return dataset.to_table(columns=columns).to_pandas()


def _group_stats(players: pd.DataFrame, key: str) -> pd.DataFrame:
    grouped = players.groupby(key, observed=True, sort=True)
    stats = pd.DataFrame({"n": grouped.size(), "wins": grouped["won"].sum()})
    low, high = proportion_confint(stats["wins"].to_numpy(), stats["n"].to_numpy(), alpha=0.05, method="wilson")
    stats["win_rate"] = stats["wins"] / stats["n"]
    stats["win_low"], stats["win_high"] = low, high
    if "score" in players:
        score = grouped["score"]
        stats["score_mean"] = score.mean()
        half = Z95 * score.std(ddof=1) / np.sqrt(stats["n"])
        stats["score_low"] = stats["score_mean"] - half
        stats["score_high"] = stats["score_mean"] + half
    if "eliminated" in players:
        stats["elimination_rate"] = grouped["eliminated"].mean()
    return stats


def summarize(run_dir: str | Path, cell: int | str | dict | None = None) -> Summary:
    """Statistics of a complete dataset (or of one cell of a sweep), reading only the columns they need."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if is_sweep(manifest):
        manifest = cell_manifest(manifest, cell_index(manifest, cell, run_dir))
    games_dir, players_dir = table_dirs(run_dir, manifest)
    players = _read(players_dir, ["game_id", "seat", "bot", "won"], ["score", "eliminated"])
    if "score" in players:
        players["score"] = players["score"].astype(np.float64)  # small int dtypes would overflow sums
    games = _read(games_dir, ["game_id"], ["n_rounds"])
    winners = players.groupby("game_id", sort=False)["won"].sum()
    return Summary(
        config=manifest.get("config", {}),
        n_games=len(games),
        by_seat=_group_stats(players, "seat"),
        by_bot=_group_stats(players, "bot"),
        mean_rounds=float(games["n_rounds"].mean()) if "n_rounds" in games else None,
        shared_win_games=int((winners > 1).sum()),
        no_win_games=int((winners == 0).sum()),
    )


def _rows(stats: pd.DataFrame, label: str) -> list[list[str]]:
    rows = []
    for key, row in stats.iterrows():
        cells = [f"{label} {key}", f"{int(row['n']):,}", f"{row['win_rate']:.4f}",
                 f"[{row['win_low']:.4f}, {row['win_high']:.4f}]"]
        if "score_mean" in stats:
            cells += [f"{row['score_mean']:.3f}", f"[{row['score_low']:.3f}, {row['score_high']:.3f}]"]
        if "elimination_rate" in stats:
            cells.append(f"{row['elimination_rate']:.4f}")
        rows.append(cells)
    return rows


def _align(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def format_summary(summary: Summary) -> str:
    """A plain aligned text table."""
    config = summary.config
    header = ["", "n", "win rate", "95% CI"]
    if "score_mean" in summary.by_seat:
        header += ["mean score", "95% CI"]
    if "elimination_rate" in summary.by_seat:
        header.append("eliminated")
    lines = [f"{config.get('game', '?')} (variant {config.get('variant', '?')}), {config.get('players', '?')} players, "
             f"{summary.n_games:,} games, seed {config.get('seed', '?')}"
             + (", seats rotated" if config.get("rotate_seats") else "")]
    table = _align([header] + _rows(summary.by_seat, "seat") + _rows(summary.by_bot, "bot"))
    n_seat_rows = len(summary.by_seat)
    lines += table[: 1 + n_seat_rows] + [""] + table[1 + n_seat_rows:]
    notes = []
    if summary.mean_rounds is not None:
        notes.append(f"mean rounds {summary.mean_rounds:.2f}")
    notes.append(f"shared wins in {summary.shared_win_games:,} games")
    notes.append(f"no winner in {summary.no_win_games:,} games")
    lines.append("")
    lines.append("; ".join(notes) + " (win rates may sum above 1 because of shared wins)")
    return "\n".join(lines)
