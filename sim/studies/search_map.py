"""`sim search-map GAME`: where the search bot leaves its heuristic's first choice, by decision kind.

The search bot (each game's search.py) ranks a decision's options with its heuristic, plays the best
few out, and keeps the heuristic's first choice unless another beats it (sim.core.search.pick_candidate).
Every searched decision is counted per seat under its kind (the players-table columns
`search_<kind>_searched`, `search_<kind>_left`, `search_<kind>_gap`, sim.core.search.record_choice).
A search mirror (the search bot in every seat) played here turns those counts into the map of where
the heuristics are weakest: for each kind, how often the search leaves the heuristic's first choice
and what that is worth in rollout value (the kept candidate's mean less the first's, on the same
rollouts).

Two cautions the table carries: the gap is measured on the rollouts that chose the candidate, so it
is biased upwards (the largest of a few noisy means; the more so, the fewer the rollouts), and with
the search's confidence at 0 a leave can be noise. Compare kinds with each other, not with zero.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.errors import UserError
from sim.core.game import Game
from sim.core.search import GAP_SCALE, SEARCH_COLUMN
from sim.core.stats import Z95

DEFAULT_GAMES = 200


def search_kinds(columns) -> list[str]:
    """The decision kinds a players table counts, in its column order."""
    suffix = "_searched"
    return [c[len(SEARCH_COLUMN):-len(suffix)] for c in columns if c.startswith(SEARCH_COLUMN) and c.endswith(suffix)]


def ratio_ci(numerator: np.ndarray, denominator: np.ndarray) -> tuple[float, float, float]:
    """sum(numerator) / sum(denominator) with its 95% interval, the rows (player-games) taken as the
    independent units (the delta method for a ratio of sums): a seat's decisions within one game are
    not independent of each other."""
    num = np.asarray(numerator, float)
    den = np.asarray(denominator, float)
    total = den.sum()
    if total <= 0:
        return float("nan"), float("nan"), float("nan")
    ratio = num.sum() / total
    n = int((den > 0).sum())
    if n < 2:
        return float(ratio), float("nan"), float("nan")
    residual = num - ratio * den
    se = np.sqrt((residual ** 2).sum() * n / (n - 1)) / total
    return float(ratio), float(ratio - Z95 * se), float(ratio + Z95 * se)


def search_map_table(players: pd.DataFrame) -> pd.DataFrame:
    """One row per decision kind the search met: decisions searched (and their share), how often it
    left the heuristic's first choice, the gap when it did and per decision searched (rollout value),
    and the kind's share of all the value the search added; the kinds with the most value added first."""
    rows = []
    kinds = search_kinds(players.columns)
    total_gap = sum(float(players[f"{SEARCH_COLUMN}{k}_gap"].sum()) for k in kinds) / GAP_SCALE
    total_searched = sum(int(players[f"{SEARCH_COLUMN}{k}_searched"].sum()) for k in kinds)
    for kind in kinds:
        searched = players[f"{SEARCH_COLUMN}{kind}_searched"].to_numpy(np.int64)
        left = players[f"{SEARCH_COLUMN}{kind}_left"].to_numpy(np.int64)
        gap = players[f"{SEARCH_COLUMN}{kind}_gap"].to_numpy(np.float64) / GAP_SCALE
        if searched.sum() == 0:
            continue
        left_rate, left_lo, left_hi = ratio_ci(left, searched)
        left_lo, left_hi = max(left_lo, 0.0), min(left_hi, 1.0)  # a rate's interval stays within [0, 1]
        gap_left, gap_left_lo, gap_left_hi = ratio_ci(gap, left) if left.sum() else (np.nan,) * 3
        gap_each, gap_each_lo, gap_each_hi = ratio_ci(gap, searched)
        rows.append({
            "kind": kind, "searched": int(searched.sum()),
            "share_of_decisions": searched.sum() / total_searched,
            "left": int(left.sum()), "left_rate": left_rate, "left_low": left_lo, "left_high": left_hi,
            "gap_when_left": gap_left, "gap_when_left_low": gap_left_lo, "gap_when_left_high": gap_left_hi,
            "gap_per_decision": gap_each, "gap_per_decision_low": gap_each_lo, "gap_per_decision_high": gap_each_hi,
            "share_of_value": gap.sum() / total_gap if total_gap > 0 else np.nan,
        })
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    return table.sort_values(["share_of_value", "searched"], ascending=False, ignore_index=True)


def default_search_bot(game: Game) -> str:
    """The skill spec's top search rung's bot (skill.toml), else the bots file's `search`."""
    from sim.studies.skill import load_skill_spec, skill_file

    if skill_file(game).is_file():
        slow = [r for r in load_skill_spec(game).rungs if r.slow]
        if slow:
            return slow[-1].bots[0]
    return "search"


def check_search_bot(game: Game, bot: str) -> None:
    """A one-line error unless `bot` is one of the game's bots and plays by search (its games record
    searched decisions)."""
    known = list(game.bots())
    if bot not in known:
        raise UserError(f"unknown bot '{bot}' for {game.name} (known: {', '.join(known)})")
    if game.kind_name(bot) != "search":
        raise UserError(f"bot '{bot}' of {game.name} is of kind '{game.kind_name(bot)}', not a search bot: "
                        f"only a search bot leaves its heuristic's choices")


def default_out(game: str, bot: str, players: int, games: int, seed: int) -> Path:
    return Path("data") / f"{game}-search-map-{bot}-{players}p-{games}g-s{seed}"


def run_search_map(game: Game, bot: str, n_players: int, n_games: int, seed: int, out: Path,
                   workers: int | None = None, progress: bool = True) -> pd.DataFrame:
    """Play (or resume, or reuse) the search mirror into `out` and return its map."""
    from sim.core.runner import run_plan
    from sim.studies.tournament import plan_tournament

    check_search_bot(game, bot)
    lineup = (bot,) * n_players
    plan = plan_tournament(game, [bot], n_players, n_games, seed, lineup_list=[lineup])
    run_plan(plan, out, workers or os.cpu_count() or 1, resume=True, progress=progress)
    return read_search_map(out)


def read_search_map(dataset: str | Path) -> pd.DataFrame:
    """The map of a dataset whose line-ups hold a search bot (every seat's counts pooled)."""
    from sim.analysis.io import open_dataset

    data = open_dataset(dataset)
    columns = [c for c in data.player_columns() if c.startswith(SEARCH_COLUMN)]
    if not columns:
        raise UserError(f"{dataset} has no search_<kind>_* columns: it was played before the search counted its "
                        f"decisions, or by a game without a search bot")
    players = data.players(columns)
    return search_map_table(players)


def search_map_text(table: pd.DataFrame, unit: str) -> str:
    """The map as the terminal prints it."""
    if table.empty:
        return "no searched decision (the search bot met no decision with two or more candidates)"
    lines = [f"{'kind':<18} {'searched':>8} {'left':>22} {'gap when left':>26} {'value':>6}"]
    for r in table.itertuples():
        lines.append(f"{r.kind:<18} {r.searched:>8} {100 * r.left_rate:>6.1f}% [{100 * r.left_low:5.1f}, "
                     f"{100 * r.left_high:5.1f}] {r.gap_when_left:>+9.3f} [{r.gap_when_left_low:+.3f}, "
                     f"{r.gap_when_left_high:+.3f}] {100 * r.share_of_value:>5.1f}%")
    lines.append(f"left: how often the search left the heuristic's first choice; gap: what it gained on its "
                 f"rollouts ({unit}; biased upwards, compare kinds with each other); value: the kind's share "
                 f"of all the gap; 95% intervals over player-games")
    return "\n".join(lines)
