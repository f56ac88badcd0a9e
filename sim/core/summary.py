"""The summary printed after a run: win rates per seat and per bot with confidence intervals.

Intervals matter more than point estimates for balance work: a 2-point seat advantage means
nothing until the interval says it is not noise. Wins are the players table's `won` column; shared
wins exist, so win rates may sum above 1. A game nobody won (a stalemate) is left out of the win
rates, and the summary says how many were; mean scores count every game.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from statsmodels.stats.proportion import proportion_confint

from sim.core.dataset import cell_index, cell_manifest, is_sweep, read_manifest, table_dirs
from sim.core.errors import UserError
from sim.core.stats import no_winner_note

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


def _parts(table_dir: Path, wanted: list[str], optional: list[str]):
    """One DataFrame per Parquet part (a part holds whole games), so memory is bounded by a part.

    Each file is read on its own: a pyarrow Dataset keeps every fragment's metadata once read,
    which grows with the number of parts (about 0.2 MB each for a wide table)."""
    files = sorted(p for p in Path(table_dir).rglob("*.parquet") if not p.name.startswith("."))
    if not files:
        raise UserError(f"{table_dir}: damaged dataset (no Parquet parts)")
    for index, path in enumerate(files):
        try:
            if index == 0:
                present = set(pq.read_schema(path).names)
                columns = wanted + [name for name in optional if name in present]
            table = pq.read_table(path, columns=columns)
        except (pa.ArrowException, OSError) as exc:
            raise UserError(f"{path}: damaged Parquet part ({' '.join(str(exc).split())[:200]})") from None
        yield table.to_pandas()


def _partial_sums(players: pd.DataFrame, key: str) -> pd.DataFrame:
    """Win counts over the games someone won (`decided`); score sums over every game."""
    grouped = players.groupby(key, observed=True, sort=False)
    decided = players[players["decided"]].groupby(key, observed=True, sort=False)
    sums = pd.DataFrame({"n": decided.size(), "wins": decided["won"].sum()}).reindex(
        grouped.size().index, fill_value=0)
    if "score" in players:
        sums["score_sum"] = grouped["score"].sum()
        sums["score_sq"] = grouped["score_sq"].sum()
    if "eliminated" in players:
        sums["eliminated"] = grouped["eliminated"].sum()
    return sums


def _group_stats(sums: pd.DataFrame) -> pd.DataFrame:
    """Win rate with Wilson interval, mean score with a normal interval, from summed counts."""
    stats = sums.groupby(level=0, observed=True, sort=True).sum()
    n = stats["n"].to_numpy(np.float64)
    low, high = proportion_confint(stats["wins"].to_numpy(), n, alpha=0.05, method="wilson")
    stats["win_rate"] = stats["wins"] / stats["n"]
    stats["win_low"], stats["win_high"] = low, high
    if "score_sum" in stats:
        mean = stats["score_sum"] / n
        variance = (stats["score_sq"] - n * mean**2) / np.maximum(n - 1, 1)
        half = Z95 * np.sqrt(np.maximum(variance, 0.0)) / np.sqrt(n)
        stats["score_mean"], stats["score_low"], stats["score_high"] = mean, mean - half, mean + half
    if "eliminated" in stats:
        stats["elimination_rate"] = stats["eliminated"] / n
    return stats.drop(columns=[c for c in ("score_sum", "score_sq", "eliminated") if c in stats])


def summarize(run_dir: str | Path, cell: int | str | dict | None = None) -> Summary:
    """Statistics of a complete dataset (or of one cell of a sweep), read part by part so memory stays
    flat however many games the dataset holds."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if is_sweep(manifest):
        manifest = cell_manifest(manifest, cell_index(manifest, cell, run_dir))
    games_dir, players_dir = table_dirs(run_dir, manifest)
    by_seat, by_bot = [], []
    shared = no_winner = 0
    for players in _parts(players_dir, ["game_id", "seat", "bot", "won"], ["score", "eliminated"]):
        if "score" in players:
            players["score"] = players["score"].astype(np.float64)  # small int dtypes would overflow sums
            players["score_sq"] = players["score"] ** 2
        players["decided"] = players.groupby("game_id", sort=False)["won"].transform("any")
        by_seat.append(_partial_sums(players, "seat"))
        by_bot.append(_partial_sums(players, "bot"))
        winners = players.groupby("game_id", sort=False)["won"].sum()
        shared += int((winners > 1).sum())
        no_winner += int((winners == 0).sum())
    n_games = rounds_sum = rounds_n = 0
    for games in _parts(games_dir, ["game_id"], ["n_rounds"]):
        n_games += len(games)
        if "n_rounds" in games:
            rounds_sum += float(games["n_rounds"].astype(np.float64).sum())
            rounds_n += len(games)
    return Summary(
        config=manifest.get("config", {}),
        n_games=n_games,
        by_seat=_group_stats(pd.concat(by_seat)),
        by_bot=_group_stats(pd.concat(by_bot)),
        mean_rounds=rounds_sum / rounds_n if rounds_n else None,
        shared_win_games=shared,
        no_win_games=no_winner,
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


def align_columns(rows: list[list[str]], left_columns: int = 1) -> list[str]:
    """Text rows with padded columns: the first `left_columns` left-aligned, the numbers right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i < left_columns else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
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
    table = align_columns([header] + _rows(summary.by_seat, "seat") + _rows(summary.by_bot, "bot"))
    n_seat_rows = len(summary.by_seat)
    lines += table[: 1 + n_seat_rows] + [""] + table[1 + n_seat_rows:]
    notes = []
    if summary.mean_rounds is not None:
        notes.append(f"mean rounds {summary.mean_rounds:.2f}")
    notes.append(f"shared wins in {summary.shared_win_games:,} games")
    if summary.no_win_games:
        notes.append(no_winner_note(summary.no_win_games))
    lines.append("")
    lines.append("; ".join(notes) + " (win rates may sum above 1 because of shared wins)")
    return "\n".join(lines)
