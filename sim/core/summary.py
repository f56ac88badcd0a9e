"""The summary printed after a run: win rates per seat and per bot with confidence intervals.

Intervals matter more than point estimates for balance work: a 2-point seat advantage means
nothing until the interval says it is not noise. Wins are the players table's `won` column; shared
wins exist, so win rates may sum above 1. A game nobody won (a stalemate) is left out of the win
rates, and the summary says how many were; mean scores count every game.

Beside the win rate, the win share splits a shared win among its winners (a win shared by two
counts a half to each), so the shares of a line-up sum to 1 and a fair share is exactly 1/P: the
measure for "is this line-up even?" in a game with shared wins, where a bot's fair win rate is
above 1/P.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from sim.core.dataset import cell_index, cell_manifest, is_sweep, read_manifest, table_dirs
from sim.core.errors import UserError
from sim.core.lineup import seating_words
from sim.core.stats import Z95, no_winner_note

ORDER_COLUMN = "start_order"  # a game that records the turn order: 0 is the first player
# (required, optional) columns the summary reads of each table
PLAYER_COLUMNS = (["game_id", "seat", "bot", "won"], ["score", "eliminated", ORDER_COLUMN])
GAME_COLUMNS = (["game_id"], ["n_rounds"])


@dataclass
class Summary:
    config: dict
    n_games: int
    by_seat: pd.DataFrame
    by_bot: pd.DataFrame
    mean_rounds: float | None
    shared_win_games: int
    no_win_games: int
    by_order: pd.DataFrame | None = None  # by turn position (start_order), when the game records it


def _columns(names: list[str], wanted: list[str], optional: list[str]) -> list[str]:
    return wanted + [name for name in optional if name in names]


def _parts(run_dir: Path, table_dir: Path, columns: tuple[list[str], list[str]], known: dict[str, object],
           sums_of: Callable[[pd.DataFrame], object]) -> Iterator[object]:
    """The sums of each Parquet part in file order: those `known` (by path relative to run_dir) as
    they are, the others read one file at a time, so memory is bounded by a part.

    Each file is read on its own: a pyarrow Dataset keeps every fragment's metadata once read,
    which grows with the number of parts (about 0.2 MB each for a wide table)."""
    files = sorted(p for p in Path(table_dir).rglob("*.parquet") if not p.name.startswith("."))
    if not files:
        raise UserError(f"{table_dir}: damaged dataset (no Parquet parts)")
    wanted = None
    for path in files:
        relative = path.relative_to(run_dir).as_posix()
        if relative in known:
            yield known[relative]
            continue
        try:
            if wanted is None:
                wanted = _columns(pq.read_schema(path).names, *columns)
            table = pq.read_table(path, columns=wanted)
        except (pa.ArrowException, OSError) as exc:
            raise UserError(f"{path}: damaged Parquet part ({' '.join(str(exc).split())[:200]})") from None
        yield sums_of(table.to_pandas())


@dataclass
class PlayerSums:
    """What the summary needs of one players part."""

    by_seat: pd.DataFrame
    by_bot: pd.DataFrame
    shared_win_games: int
    no_win_games: int
    by_order: pd.DataFrame | None = None


@dataclass
class GameSums:
    """What the summary needs of one games part."""

    n_games: int
    rounds_sum: float
    rounds_n: int


def player_sums(players: pd.DataFrame) -> PlayerSums:
    if "score" in players:
        players["score"] = players["score"].astype(np.float64)  # small int dtypes would overflow sums
        players["score_sq"] = players["score"] ** 2
    players["decided"] = players.groupby("game_id", sort=False)["won"].transform("any")
    winners_of_game = players.groupby("game_id", sort=False)["won"].transform("sum")
    players["share"] = players["won"] / winners_of_game.where(winners_of_game > 0, 1)
    winners = players.groupby("game_id", sort=False)["won"].sum()
    by_order = _partial_sums(players, ORDER_COLUMN) if ORDER_COLUMN in players else None
    return PlayerSums(_partial_sums(players, "seat"), _partial_sums(players, "bot"),
                      int((winners > 1).sum()), int((winners == 0).sum()), by_order)


def game_sums(games: pd.DataFrame) -> GameSums:
    if "n_rounds" not in games:
        return GameSums(len(games), 0.0, 0)
    return GameSums(len(games), float(games["n_rounds"].astype(np.float64).sum()), len(games))


class ChunkSums:
    """The summary's sums of each chunk a run writes, taken from its tables in memory (the
    backends' on_tables hook), so the summary after a run need not read the dataset back.

    The hook runs on the local backend's writer thread while the engine plays the next chunk, so
    the first call also imports statsmodels there (2 s of CPU the summary would otherwise wait for)."""

    def __init__(self):
        self.parts: dict[str, object] = {}

    def add(self, files: list[str], games: pa.Table, players: pa.Table) -> None:
        games_file, players_file = files
        self.parts[games_file] = game_sums(games.select(_columns(games.schema.names, *GAME_COLUMNS)).to_pandas())
        self.parts[players_file] = player_sums(
            players.select(_columns(players.schema.names, *PLAYER_COLUMNS)).to_pandas())
        import statsmodels.stats.proportion  # noqa: F401  (see the class docstring)


def _partial_sums(players: pd.DataFrame, key: str) -> pd.DataFrame:
    """Win counts over the games someone won (`decided`); score sums over every game."""
    grouped = players.groupby(key, observed=True, sort=False)
    decided = players[players["decided"]].groupby(key, observed=True, sort=False)
    sums = pd.DataFrame({"n": decided.size(), "wins": decided["won"].sum(),
                         "shares": decided["share"].sum()}).reindex(grouped.size().index, fill_value=0)
    if "score" in players:
        sums["score_sum"] = grouped["score"].sum()
        sums["score_sq"] = grouped["score_sq"].sum()
    if "eliminated" in players:
        sums["eliminated"] = grouped["eliminated"].sum()
    return sums


def _group_stats(sums: pd.DataFrame) -> pd.DataFrame:
    """Win rate with Wilson interval, mean score with a normal interval, from summed counts."""
    from statsmodels.stats.proportion import proportion_confint  # 2 s to import: only when a summary is made

    stats = sums.groupby(level=0, observed=True, sort=True).sum()
    n = stats["n"].to_numpy(np.float64)
    low, high = proportion_confint(stats["wins"].to_numpy(), n, alpha=0.05, method="wilson")
    stats["win_rate"] = stats["wins"] / stats["n"]
    stats["win_low"], stats["win_high"] = low, high
    stats["win_share"] = stats["shares"] / stats["n"]
    if "score_sum" in stats:
        mean = stats["score_sum"] / n
        variance = (stats["score_sq"] - n * mean**2) / np.maximum(n - 1, 1)
        half = Z95 * np.sqrt(np.maximum(variance, 0.0)) / np.sqrt(n)
        stats["score_mean"], stats["score_low"], stats["score_high"] = mean, mean - half, mean + half
    if "eliminated" in stats:
        stats["elimination_rate"] = stats["eliminated"] / n
    return stats.drop(columns=[c for c in ("score_sum", "score_sq", "eliminated", "shares") if c in stats])


def summarize(run_dir: str | Path, cell: int | str | dict | None = None, known: ChunkSums | None = None) -> Summary:
    """Statistics of a complete dataset (or of one cell of a sweep), read part by part so memory stays
    flat however many games the dataset holds; parts whose sums `known` holds are not read."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if is_sweep(manifest):
        manifest = cell_manifest(manifest, cell_index(manifest, cell, run_dir))
    games_dir, players_dir = table_dirs(run_dir, manifest)
    parts = known.parts if known is not None else {}
    players = list(_parts(run_dir, players_dir, PLAYER_COLUMNS, parts, player_sums))
    games = list(_parts(run_dir, games_dir, GAME_COLUMNS, parts, game_sums))
    rounds_n = sum(g.rounds_n for g in games)
    rounds_sum = 0.0
    for part in games:
        rounds_sum += part.rounds_sum
    return Summary(
        config=manifest.get("config", {}),
        n_games=sum(g.n_games for g in games),
        by_seat=_group_stats(pd.concat([p.by_seat for p in players])),
        by_bot=_group_stats(pd.concat([p.by_bot for p in players])),
        mean_rounds=rounds_sum / rounds_n if rounds_n else None,
        shared_win_games=sum(p.shared_win_games for p in players),
        no_win_games=sum(p.no_win_games for p in players),
        by_order=(_group_stats(pd.concat([p.by_order for p in players]))
                  if all(p.by_order is not None for p in players) else None),
    )


def _rows(stats: pd.DataFrame, label: str, shares: bool = False) -> list[list[str]]:
    rows = []
    for key, row in stats.iterrows():
        cells = [f"{label} {key}", f"{int(row['n']):,}", f"{row['win_rate']:.4f}",
                 f"[{row['win_low']:.4f}, {row['win_high']:.4f}]"]
        if "score_mean" in stats:
            cells += [f"{row['score_mean']:.3f}", f"[{row['score_low']:.3f}, {row['score_high']:.3f}]"]
        if "elimination_rate" in stats:
            cells.append(f"{row['elimination_rate']:.4f}")
        if shares:
            cells.append(f"{row['win_share']:.4f}")
        rows.append(cells)
    return rows


def align_columns(rows: list[list[str]], left_columns: int = 1) -> list[str]:
    """Text rows with padded columns: the first `left_columns` left-aligned, the numbers right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i < left_columns else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in rows]


def first_player_line(summary: Summary) -> str | None:
    """"first player X% [lo, hi] against a fair Y%": the win rate of turn position 0 with its 95%
    interval against the fair 1/N, for a game that records the turn order (else None)."""
    stats = summary.by_order
    if stats is None or 0 not in stats.index:
        return None
    players = summary.config.get("players") or len(summary.by_seat)
    first, fair = stats.loc[0], 1 / players
    if first["win_low"] > fair:
        verdict = "favoured"
    elif first["win_high"] < fair:
        verdict = "disfavoured"
    else:
        verdict = "fair within the interval"
    return (f"first player {100 * first['win_rate']:.1f}% [{100 * first['win_low']:.1f}, "
            f"{100 * first['win_high']:.1f}] against a fair {100 * fair:.1f}% ({verdict}; "
            f"turn order position 0, {int(first['n']):,} games)")


def format_summary(summary: Summary) -> str:
    """A plain aligned text table."""
    config = summary.config
    header = ["", "n", "win rate", "95% CI"]
    if "score_mean" in summary.by_seat:
        header += ["mean score", "95% CI"]
    if "elimination_rate" in summary.by_seat:
        header.append("eliminated")
    shares = summary.shared_win_games > 0  # the win share differs from the win rate only then
    if shares:
        header.append("win share")
    rotate, permute = bool(config.get("rotate_seats")), bool(config.get("permute_seats"))
    lines = [f"{config.get('game', '?')} (variant {config.get('variant', '?')}), {config.get('players', '?')} players, "
             f"{summary.n_games:,} games, seed {config.get('seed', '?')}"
             + (f", {seating_words(rotate, permute)}" if rotate or permute else "")]
    first_line = first_player_line(summary)
    if first_line is not None:
        lines.append(first_line)
    order_rows = _rows(summary.by_order, "turn order", shares) if summary.by_order is not None else []
    table = align_columns([header] + order_rows + _rows(summary.by_seat, "seat", shares)
                          + _rows(summary.by_bot, "bot", shares))
    n_order_rows, n_seat_rows = len(order_rows), len(summary.by_seat)
    if n_order_rows:
        lines += table[:1 + n_order_rows] + [""]
        table = table[:1] + table[1 + n_order_rows:]
    lines += table[: 1 + n_seat_rows] + [""] + table[1 + n_seat_rows:]
    notes = []
    if summary.mean_rounds is not None:
        notes.append(f"mean rounds {summary.mean_rounds:.2f}")
    notes.append(f"shared wins in {summary.shared_win_games:,} games")
    if summary.no_win_games:
        notes.append(no_winner_note(summary.no_win_games))
    lines.append("")
    lines.append("; ".join(notes) + " (win rates may sum above 1 because of shared wins"
                 + ("; the win share splits each shared win among its winners, so shares sum to 1)" if shares else ")"))
    return "\n".join(lines)
