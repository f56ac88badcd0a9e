"""A tournament read back: payoff table, ratings, the meta-game, dominance and the skill ladder.

A tournament (`sim tournament`, sim/studies/tournament.py) plays every line-up of P bots drawn from a
list, G games each from the same seed with seats rotated. From it:

- the payoff table: each line-up, each distinct bot's win rate per seat with a Wilson interval. A
  win is a players row with `won = true` (a shared first place is a win for every sharer, as the
  `won` column says), and a bot's rate counts every seat it holds: wins / (games x copies). Copies
  of one bot in one game compete for the same win, so they are negatively correlated and the
  interval, computed as if the seat-games were independent, is conservative. The line-up's fair
  share is its won rows / player rows (1/P when no game is shared). A game no player won (a
  stalemate) is left out of every win rate and fair share, and the summaries say how many there were;
- ratings: openskill's Plackett-Luce model over every game, ranked by the players' `rank` (or
  `score`), and each bot's pooled win rate against the field (every line-up with another bot in it);
- the meta-game: the symmetric "one bot against a field" matrix M[i][j] = win rate of bot i seated
  with P-1 copies of bot j, solved as the symmetric two-player game (M, M^T) for its symmetric Nash
  equilibria with nashpy; each equilibrium is then checked in the real P-player game (opponents
  drawn from the mixture) from the full payoff table, and its regret there reported;
- a dominance verdict in plain words, and the skill ladder of an ordered list of bots.

A skill-ladder dataset (`sim ladder`) is a tournament restricted to the line-ups of adjacent rungs:
the payoff table and the skill ladder read it like any tournament; the ratings, the meta-game and
the dominance verdict need every line-up and refuse it with a one-line UserError
(`tournament_summary_text` prints the ladder's summary instead).

Tuned bots (`sim tune`'s output) read back for the tuning report: `tuned_bots` (each tuned bot's
provenance), `tuning_log` (its learning curve, from tune_logs/<bot>.log.json) and `weight_changes`
(how far each weight moved from the base bot's).
"""
from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from sim.analysis.io import Dataset, Result
from sim.core.stats import no_winner_note, rate_ci
from sim.core.dataset import cell_manifest, read_manifest
from sim.core.errors import UserError
from sim.core.lineup import seating_words
from sim.studies.tournament import MANIFEST_KEY, lineup_label

ALPHA = 0.05
# Games per line-up `sim tournament` rates: openskill rates about 10,000 games a second, so 126
# line-ups take some 15 s (the default tournament, 1,200 games per line-up, is rated whole).
RATING_GAMES_PER_LINEUP = 1200
# Tolerance of the equilibrium checks, on win-rate payoffs (0..1).
EQUILIBRIUM_TOLERANCE = 1e-9


# ----------------------------------------------------------------------------- the dataset
@dataclass
class Tournament:
    """A tournament dataset: its bots, player count and line-ups (one sweep cell each)."""

    path: Path
    manifest: dict
    bots: list[str]
    n_players: int
    lineups: list[tuple[str, ...]]
    games_per_lineup: int
    ladder: list[str] | None = None  # the rungs, weakest first, of a `sim ladder` dataset
    _cells: dict[int, Dataset] = field(default_factory=dict, repr=False, compare=False)

    @cached_property
    def labels(self) -> list[str]:
        """Each line-up's cell name, in line-up order (computed once: payoff_table reads one a row)."""
        return [lineup_label(lineup) for lineup in self.lineups]

    def cell(self, index: int) -> Dataset:
        """The line-up's cell as a Dataset (one object per line-up, so what it caches is kept)."""
        if index not in self._cells:
            self._cells[index] = Dataset(path=self.path, manifest=cell_manifest(self.manifest, index))
        return self._cells[index]

    def lineup_players(self, columns: Sequence[str], with_winner: bool = False) -> Iterator[tuple[int, pd.DataFrame]]:
        """(line-up index, its players rows with these columns), line-up by line-up; with_winner:
        only the rows of games some player won (what win rates count)."""
        for index in range(len(self.lineups)):
            cell = self.cell(index)
            yield index, cell.win_players(columns) if with_winner else cell.players(columns)

    @cached_property
    def no_winner_by_lineup(self) -> list[int]:
        """Per line-up, how many of its games no player won (left out of win rates)."""
        return [self.cell(index).no_winner_games for index in range(len(self.lineups))]

    @property
    def no_winner_games(self) -> int:
        return int(sum(self.no_winner_by_lineup))

    @property
    def no_winner_text(self) -> str:
        """The line saying how many games without a winner the win rates left out ("" for none)."""
        return no_winner_note(self.no_winner_games)

    def player_columns(self) -> list[str]:
        return self.cell(0).player_columns()

    @property
    def complete(self) -> bool:
        """Whether every line-up of the bots was played (a full tournament, not a ladder's few)."""
        return {tuple(sorted(x)) for x in self.lineups} >= {
            tuple(sorted(x)) for x in itertools.combinations_with_replacement(self.bots, self.n_players)}

    @property
    def description(self) -> str:
        config = self.manifest["config"]
        seats = seating_words(config.get("rotate_seats", True), config.get("permute_seats", False))
        if self.ladder is not None:
            return (f"{config['game']} skill ladder: {' < '.join(self.ladder)}, {self.n_players} players, "
                    f"{len(self.lineups)} line-ups x {self.games_per_lineup:,} games, seed {config['seed']}, "
                    f"{seats}")
        return (f"{config['game']} tournament: {len(self.bots)} bots ({', '.join(self.bots)}), {self.n_players} "
                f"players, {len(self.lineups)} line-ups x {self.games_per_lineup:,} games, seed {config['seed']}, "
                f"{seats}")

    def require_complete(self, what: str) -> None:
        """A one-line UserError when an analysis needs every line-up and this dataset lacks some."""
        if not self.complete:
            kind = "a skill-ladder dataset (sim ladder)" if self.ladder is not None else "a partial tournament"
            raise UserError(f"{self.path}: {what} needs every line-up of the bots, and this is {kind} with "
                            f"{len(self.lineups)} of them; play a full tournament (sim tournament) for it")


def open_tournament(source: str | Path | Tournament) -> Tournament:
    """A complete `sim tournament` dataset (a one-line UserError if the directory is something else)."""
    if isinstance(source, Tournament):
        return source
    from sim.analysis.io import data_path

    path = data_path(source)
    manifest = read_manifest(path)
    record = manifest.get(MANIFEST_KEY)
    if manifest.get("kind") != "sweep" or not isinstance(record, dict):
        raise UserError(f"{path}: not a tournament dataset (made by sim tournament)")
    lineups = [tuple(cell["bots"]) for cell in manifest["cells"]]
    ladder = record.get("ladder")
    return Tournament(path=path, manifest=manifest, bots=list(record["bots"]), n_players=int(record["players"]),
                      lineups=lineups, games_per_lineup=int(manifest["config"]["games"]),
                      ladder=None if ladder is None else [str(r) for r in ladder])


# --------------------------------------------------------------------------- payoff table
def payoff_table(source: str | Path | Tournament, method: str = "wilson", alpha: float = ALPHA) -> Result:
    """One row per line-up and distinct bot: copies, games, seat-games, wins, win rate per seat with
    its interval, and the line-up's fair share; the figure is the one-bot-against-a-field matrix."""
    t = open_tournament(source)
    rows = []
    for index, players in t.lineup_players(["bot", "won"], with_winner=True):
        lineup = t.lineups[index]
        grouped = players.groupby("bot", observed=True)["won"]
        seat_games, wins = grouped.size(), grouped.sum()
        fair = float(players["won"].sum()) / len(players) if len(players) else float("nan")
        for bot in dict.fromkeys(lineup):
            copies = lineup.count(bot)
            rows.append({"lineup": t.labels[index], "lineup_index": index, "bot": bot, "copies": copies,
                         "games": int(seat_games.get(bot, 0)) // copies, "seat_games": int(seat_games.get(bot, 0)),
                         "wins": int(wins.get(bot, 0)), "fair_share": fair})
    table = pd.DataFrame(rows)
    table["win_rate"], table["ci_low"], table["ci_high"] = rate_ci(table["wins"], table["seat_games"], method, alpha)
    table = table[["lineup", "lineup_index", "bot", "copies", "games", "seat_games", "wins", "win_rate", "ci_low",
                   "ci_high", "fair_share"]]
    table.attrs.update(bots=list(t.bots), n_players=t.n_players, complete=t.complete,
                       no_winner_games=t.no_winner_games)
    return Result(table, _matrix_figure(field_matrix(table), t.n_players))


def _payoff_meta(payoff: pd.DataFrame) -> tuple[list[str], int]:
    """(bots, player count) a payoff table carries in its attrs."""
    if "bots" not in payoff.attrs or "n_players" not in payoff.attrs:
        raise UserError("pass the table payoff_table(...) returns, unfiltered (it carries the bots and player count)")
    return list(payoff.attrs["bots"]), int(payoff.attrs["n_players"])


def _require_full_payoff(payoff: pd.DataFrame, what: str) -> None:
    """A one-line UserError when a payoff table lacks line-ups an analysis of every line-up needs."""
    if payoff.attrs.get("complete", True) is False:
        raise UserError(f"{what} needs every line-up of the bots, and this payoff table is from a skill ladder "
                        f"or partial tournament; play a full tournament (sim tournament) for it")


def _rate_lookup(payoff: pd.DataFrame) -> dict[tuple[str, str], Any]:
    return {(row.lineup, row.bot): row for row in payoff.itertuples(index=False)}


def _sorted_lineup(lineup: Sequence[str], bots: Sequence[str]) -> str:
    order = {name: i for i, name in enumerate(bots)}
    return lineup_label(sorted(lineup, key=order.__getitem__))


@dataclass
class FieldMatrix:
    """M[i][j]: win rate of bots[i] seated with P-1 copies of bots[j] (the diagonal: self-play)."""

    bots: list[str]
    n_players: int
    rate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    seat_games: np.ndarray
    fair_share: np.ndarray


def field_matrix(payoff: pd.DataFrame) -> FieldMatrix:
    """The one-bot-against-a-field matrix of a payoff table (every bot alone against every field)."""
    bots, n_players = _payoff_meta(payoff)
    lookup = _rate_lookup(payoff)
    n = len(bots)
    arrays = {name: np.full((n, n), np.nan) for name in ("rate", "low", "high", "seat_games", "fair_share")}
    for i, j in itertools.product(range(n), repeat=2):
        row = lookup.get((_sorted_lineup([bots[i]] + [bots[j]] * (n_players - 1), bots), bots[i]))
        if row is None:
            continue
        if i == j:  # alone among copies of itself: one seat of the self-play line-up
            arrays["seat_games"][i, j] = row.seat_games / row.copies
        else:
            arrays["seat_games"][i, j] = row.seat_games
        arrays["rate"][i, j], arrays["low"][i, j], arrays["high"][i, j] = row.win_rate, row.ci_low, row.ci_high
        arrays["fair_share"][i, j] = row.fair_share
    return FieldMatrix(bots=list(bots), n_players=n_players, **arrays)


def one_vs_field(source: str | Path | Tournament, method: str = "wilson", alpha: float = ALPHA) -> Result:
    """Long table of the field matrix: bot, field, rate with interval, fair share, seat-games."""
    payoff = source if isinstance(source, pd.DataFrame) else payoff_table(source, method, alpha).table
    m = field_matrix(payoff)
    rows = [{"bot": m.bots[i], "field": m.bots[j], "win_rate": m.rate[i, j], "ci_low": m.low[i, j],
             "ci_high": m.high[i, j], "fair_share": m.fair_share[i, j], "games": m.seat_games[i, j]}
            for i, j in itertools.product(range(len(m.bots)), repeat=2)]
    return Result(pd.DataFrame(rows), _matrix_figure(m, m.n_players))


def _matrix_figure(m: FieldMatrix, n_players: int) -> Figure:
    n = len(m.bots)
    fig = Figure(figsize=(2.5 + 0.95 * n, 1.4 + 0.8 * n), layout="constrained")
    ax = fig.subplots()
    image = ax.imshow(m.rate, cmap="RdBu", vmin=0, vmax=min(1.0, 2.0 / n_players))
    for i, j in itertools.product(range(n), repeat=2):
        if np.isfinite(m.rate[i, j]):
            ax.text(j, i, f"{100 * m.rate[i, j]:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), m.bots, rotation=30, ha="right")
    ax.set_yticks(range(n), m.bots)
    ax.set_xlabel(f"field: {_copies(n_players - 1)} of")
    ax.set_ylabel("bot seated alone")
    ax.set_title(f"Win rate of one bot alone against a field\n(fair share {1 / n_players:.0%})")
    fig.colorbar(image, ax=ax, format=PercentFormatter(1.0), shrink=0.8)
    return fig


# -------------------------------------------------------------------------------- ratings
def ratings(source: str | Path | Tournament, by: str = "rank", games_per_lineup: int | None = None,
            method: str = "wilson", alpha: float = ALPHA, progress: bool = False) -> Result:
    """openskill Plackett-Luce mu, sigma and ordinal (mu - 3 sigma) per bot, and its pooled win rate
    against the field (line-ups with another bot in them) with interval and fair share.

    Games are rated in a round-robin order (game 0 of every line-up, then game 1, ...) so no line-up
    comes last; each seat is rated as a player, and a bot with several seats in a game takes the mean
    of its seats' updated mu and sigma. Self-play games (one bot in every seat) say nothing about
    strength and would only shrink sigma: they are not rated. games_per_lineup rates only games
    0 .. N-1 of each line-up (keep it a multiple of P so seats stay balanced); None rates them all;
    the pooled win rates always use every game. openskill rates about 10,000 games a second;
    progress shows a bar.
    """
    from openskill.models import PlackettLuce
    from tqdm import tqdm

    t = open_tournament(source)
    t.require_complete("the ratings")
    if by not in ("rank", "score"):
        raise UserError(f"ratings rank players by 'rank' or 'score', not {by!r}")
    if by not in t.player_columns():
        raise UserError(f"{t.path}: the players table has no {by!r} column to rank games by")
    code = {name: i for i, name in enumerate(t.bots)}
    frames = []
    pooled_wins = np.zeros(len(t.bots))
    pooled_seats = np.zeros(len(t.bots))
    pooled_fair = np.zeros(len(t.bots))
    for index, players in t.lineup_players(["game_id", "seat", "bot", "won", by]):
        if len(set(t.lineups[index])) == 1:
            continue
        decided = t.cell(index).decided(players)
        fair = decided["won"].mean()
        for bot, group in decided.groupby("bot", observed=True)["won"]:
            pooled_wins[code[str(bot)]] += group.sum()
            pooled_seats[code[str(bot)]] += len(group)
            pooled_fair[code[str(bot)]] += len(group) * fair
        if games_per_lineup is not None:
            players = players[players["game_id"] < games_per_lineup]
        players = players.sort_values(["game_id", "seat"], kind="stable")
        frames.append(pd.DataFrame({"game_id": players["game_id"].to_numpy(), "lineup": index,
                                    "bot": players["bot"].astype(str).map(code).to_numpy(),
                                    "order": players[by].to_numpy() if by == "rank" else -players[by].to_numpy()}))
    allrows = pd.concat(frames, ignore_index=True).sort_values(["game_id", "lineup"], kind="stable")
    bots_by_game = allrows["bot"].to_numpy().reshape(-1, t.n_players)
    order_by_game = allrows["order"].to_numpy().reshape(-1, t.n_players)

    model = PlackettLuce()
    mu = np.full(len(t.bots), model.mu)
    sigma = np.full(len(t.bots), model.sigma)
    rated_games = np.zeros(len(t.bots), dtype=np.int64)
    # one rating object per seat, given each game's mu and sigma (model.rate copies its teams and
    # returns new ones): building four a game cost a fifth of the loop
    teams = [[model.rating()] for _ in range(t.n_players)]
    for seats, order in tqdm(zip(bots_by_game.tolist(), order_by_game.tolist()), total=len(bots_by_game),
                             desc="ratings", unit="games", unit_scale=True, disable=not progress, dynamic_ncols=True):
        for team, b in zip(teams, seats):
            team[0].mu, team[0].sigma = mu[b], sigma[b]
        updated = model.rate(teams, ranks=[float(x) for x in order])
        for b in set(seats):
            mine = [k for k, s in enumerate(seats) if s == b]
            if len(mine) == 1:  # np.mean of one value is the value: the common case, without numpy's call
                mu[b], sigma[b] = updated[mine[0]][0].mu, updated[mine[0]][0].sigma
            else:
                mu[b] = float(np.mean([updated[k][0].mu for k in mine]))
                sigma[b] = float(np.mean([updated[k][0].sigma for k in mine]))
            rated_games[b] += 1
    rate, low, high = rate_ci(pooled_wins, pooled_seats, method, alpha)
    table = pd.DataFrame({"bot": t.bots, "mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma,
                          "games_rated": rated_games, "field_seat_games": pooled_seats.astype(np.int64),
                          "field_wins": pooled_wins.astype(np.int64), "field_win_rate": rate, "ci_low": low,
                          "ci_high": high, "field_fair_share": pooled_fair / np.where(pooled_seats > 0, pooled_seats, 1)})
    table = table.sort_values("ordinal", ascending=False, kind="stable").reset_index(drop=True)
    table.insert(0, "place", np.arange(1, len(table) + 1))
    return Result(table, _ratings_figure(table))


def _ratings_figure(table: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(10, 0.6 + 0.45 * len(table)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(len(table))[::-1]
    left.errorbar(table["mu"], y, xerr=3 * table["sigma"], fmt="o", capsize=3)
    left.plot(table["ordinal"], y, "|", color="black", markersize=12, label="ordinal (mu - 3 sigma)")
    left.set_yticks(y, table["bot"])
    left.set_xlabel("openskill Plackett-Luce rating (mu +/- 3 sigma)")
    left.set_title("Ratings")
    left.legend(loc="lower right", fontsize=8)
    err = [np.clip(table["field_win_rate"] - table["ci_low"], 0, None),
           np.clip(table["ci_high"] - table["field_win_rate"], 0, None)]
    right.errorbar(table["field_win_rate"], y, xerr=err, fmt="o", capsize=3, label="win rate")
    right.plot(table["field_fair_share"], y, "x", color="black", label="fair share")
    right.xaxis.set_major_formatter(PercentFormatter(1.0))
    right.set_xlabel("win rate per seat against the field (95% interval)")
    right.set_title("Pooled win rate against the field")
    right.legend(loc="lower right", fontsize=8)
    return fig


# ------------------------------------------------------------------------------ meta-game
def _equilibrium_regret(matrix: np.ndarray, x: np.ndarray) -> float:
    """How much the best pure strategy gains over the mixture x against x (0 at an equilibrium)."""
    payoffs = matrix @ x
    return float(payoffs.max() - x @ payoffs)


def symmetric_equilibria(matrix: np.ndarray | Sequence[Sequence[float]]) -> tuple[list[np.ndarray], str]:
    """The symmetric Nash equilibria (x, x) of the symmetric game (M, M^T), and the method that found them.

    Support enumeration over symmetric supports with nashpy's indifference solver (2^n - 1 linear
    systems: every symmetric equilibrium of a non-degenerate game). A degenerate game can hide its
    mixed equilibria from it; then Lemke-Howson on the imitation game (M, I), whose column strategy y
    always gives a symmetric equilibrium (y, y) (McLennan and Tourky), and last nashpy's replicator
    dynamics from the uniform mix. Returned mixtures are deduplicated, largest support first.
    """
    import nashpy
    from nashpy.algorithms.support_enumeration import obey_support, powerset, solve_indifference

    m = np.asarray(matrix, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] < 1 or not np.isfinite(m).all():
        raise UserError(f"the meta-game needs a finite square payoff matrix (got shape {m.shape})")
    n = m.shape[0]
    tolerance = EQUILIBRIUM_TOLERANCE * max(1.0, float(np.abs(m).max()))
    found: list[np.ndarray] = []

    def keep(x) -> None:
        if x is False or x is None:
            return
        x = np.clip(np.asarray(x, dtype=float), 0, None)
        if x.sum() <= 0:
            return
        x = x / x.sum()
        if _equilibrium_regret(m, x) <= tolerance * 10 and not any(np.allclose(x, y, atol=1e-7) for y in found):
            found.append(x)

    for support in (s for s in powerset(n) if s):
        x = solve_indifference(m, rows=support, columns=support)
        if obey_support(x, np.array(support), tol=1e-12):
            keep(x)
    method = "support enumeration"
    if not found:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            imitation = nashpy.Game(m, np.eye(n))
            for label in range(2 * n):
                try:
                    _, y = imitation.lemke_howson(initial_dropped_label=label)
                except Exception:  # nashpy's pivoting may fail on a degenerate tableau; try the next label
                    continue
                keep(y)
        method = "Lemke-Howson (imitation game)"
    if not found:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            path = nashpy.Game(m, m.T).replicator_dynamics(y0=np.full(n, 1 / n), timepoints=np.linspace(0, 1e4, 2001))
        x = np.clip(path[-1], 0, None)
        found.append(x / x.sum())
        method = "replicator dynamics (approximate)"
    found.sort(key=lambda x: (-int((x > 1e-9).sum()), tuple(-x)))
    return found, method


def full_game_payoffs(payoff: pd.DataFrame, mixture: np.ndarray) -> np.ndarray:
    """Each bot's expected win rate in the real P-player game when its P-1 opponents are drawn
    independently from the mixture (from the payoff table of every line-up)."""
    bots, n_players = _payoff_meta(payoff)
    _require_full_payoff(payoff, "the P-player meta-game")
    lookup = _rate_lookup(payoff)
    out = np.zeros(len(bots))
    for i, bot in enumerate(bots):
        for opponents in itertools.combinations_with_replacement(range(len(bots)), n_players - 1):
            counts = np.bincount(opponents, minlength=len(bots))
            probability = math.factorial(n_players - 1) / np.prod([math.factorial(c) for c in counts])
            probability *= float(np.prod(mixture ** counts))
            if probability == 0:
                continue
            row = lookup.get((_sorted_lineup([bot] + [bots[k] for k in opponents], bots), bot))
            if row is None:
                raise UserError(f"the payoff table lacks line-up {_sorted_lineup([bot] + [bots[k] for k in opponents], bots)} "
                                f"(the P-player meta-game needs every line-up: a full tournament)")
            out[i] += probability * row.win_rate
    return out


def meta_game(source: str | Path | Tournament | pd.DataFrame, bootstrap: int = 0, seed: int = 0) -> Result:
    """The symmetric equilibria of the one-bot-against-a-field game: one row per equilibrium and bot
    with its weight, whether it is in the support, its payoff against the mixture in the matrix game
    and in the real P-player game, and that game's regret (how far the mixture is from an
    equilibrium of the P-player meta-game). bootstrap > 0 redraws the matrix that many times from
    its binomial counts and reports how often each bot is in some equilibrium's support."""
    payoff = source if isinstance(source, pd.DataFrame) else payoff_table(source).table
    _require_full_payoff(payoff, "the meta-game")
    m = field_matrix(payoff)
    if not np.isfinite(m.rate).all():
        raise UserError("the payoff table lacks some one-bot-against-a-field line-ups (not a full tournament)")
    equilibria, method = symmetric_equilibria(m.rate)
    support_share = _bootstrap_support(m, bootstrap, seed) if bootstrap > 0 else np.full(len(m.bots), np.nan)
    rows = []
    for number, x in enumerate(equilibria, 1):
        matrix_payoffs = m.rate @ x
        full = full_game_payoffs(payoff, x)
        regret = float(full.max() - x @ full)
        for i, bot in enumerate(m.bots):
            rows.append({"equilibrium": number, "bot": bot, "weight": float(x[i]), "in_support": bool(x[i] > 1e-9),
                         "payoff_vs_mix": float(matrix_payoffs[i]), "full_game_payoff": float(full[i]),
                         "full_game_regret": regret, "support_share": float(support_share[i]), "method": method})
    table = pd.DataFrame(rows)
    return Result(table, _meta_game_figure(table, m))


def _bootstrap_support(m: FieldMatrix, replicates: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = m.seat_games.astype(np.int64)
    counts = np.zeros(len(m.bots))
    for _ in range(replicates):
        redrawn = rng.binomial(n, np.clip(m.rate, 0, 1)) / n
        equilibria, _ = symmetric_equilibria(redrawn)
        counts += np.any([x > 1e-9 for x in equilibria], axis=0)
    return counts / replicates


def _meta_game_figure(table: pd.DataFrame, m: FieldMatrix) -> Figure:
    n_eq = int(table["equilibrium"].max())
    fig = Figure(figsize=(max(6.0, 1.1 * len(m.bots) + 2), 3.6), layout="constrained")
    ax = fig.subplots()
    width = 0.8 / n_eq
    x = np.arange(len(m.bots))
    for number, group in table.groupby("equilibrium"):
        ax.bar(x + (number - 1) * width - 0.4 + width / 2, group["weight"], width, label=f"equilibrium {number}")
    ax.set_xticks(x, m.bots)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("weight in the equilibrium mix")
    ax.set_title(f"Which bots survive in equilibrium\n(one bot against a field of {_copies(m.n_players - 1)})")
    if n_eq > 1:
        ax.legend(fontsize=8)
    return fig


# ------------------------------------------------------------------------------ dominance
@dataclass
class DominanceVerdict:
    """dominant: the bot that dominates, or None; level: 'dominant', 'pure' (the equilibrium is one
    bot, which does not beat every field clearly), 'strong' (one bot beats every field but the
    equilibrium mixes) or 'mixed'; text: the verdict in plain words, with the numbers."""

    dominant: str | None
    level: str
    text: str


def _copies(n: int) -> str:
    return f"{n} copy" if n == 1 else f"{n} copies"


def _rate_text(rate: float, low: float, high: float) -> str:
    if np.isnan(low):
        return f"{100 * rate:.1f}%"
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def dominance_verdict(matrix, bots: Sequence[str], low=None, high=None, fair_share=None,
                      equilibria: list[np.ndarray] | None = None) -> DominanceVerdict:
    """Does one bot dominate the one-bot-against-a-field game?

    Bot d beats the field of j when its win rate alone against copies of j exceeds the fair share of
    that line-up (default: j's own self-play rate, the diagonal) - by its whole interval when `low`
    is given. d dominates when it beats every other bot's field and every symmetric equilibrium is
    d alone: then the meta-game collapses to d and the others are not worth playing.
    """
    m = np.asarray(matrix, dtype=float)
    n = len(bots)
    low = np.full_like(m, np.nan) if low is None else np.asarray(low, dtype=float)
    high = np.full_like(m, np.nan) if high is None else np.asarray(high, dtype=float)
    fair = np.tile(np.diag(m), (n, 1)) if fair_share is None else np.asarray(fair_share, dtype=float)
    if equilibria is None:
        equilibria, _ = symmetric_equilibria(m)
    evidence = np.where(np.isnan(low), m, low)
    beats = evidence > fair + 1e-12
    supports = [frozenset(np.flatnonzero(x > 1e-9).tolist()) for x in equilibria]
    pure = {next(iter(s)) for s in supports if len(s) == 1}
    sole = next(iter(pure)) if len(pure) == 1 and all(len(s) == 1 for s in supports) else None
    beats_all = [i for i in range(n) if all(beats[i, j] for j in range(n) if j != i)]
    interval = "" if np.isnan(low).all() else " (95% intervals)"

    def against(i: int) -> str:
        return "; ".join(f"vs {bots[j]} {_rate_text(m[i, j], low[i, j], high[i, j])} (fair {100 * fair[i, j]:.1f}%)"
                         for j in range(n) if j != i)

    mix = _mix_text(equilibria[0], bots)
    if sole is not None and sole in beats_all:
        return DominanceVerdict(bots[sole], "dominant", (
            f"Warning: {bots[sole]} dominates. Seated alone against a field of any other bot it wins more than "
            f"the fair share{interval}: {against(sole)}; and the only equilibrium of the meta-game is {bots[sole]} "
            f"alone (weight 1.00). The strategy mix collapses to {bots[sole]}: the other strategies are not worth "
            f"playing against it, so a balance verdict made with them understates what {bots[sole]}'s play does."))
    if sole is not None:
        return DominanceVerdict(None, "pure", (
            f"The only equilibrium is {bots[sole]} alone, but {bots[sole]} does not clearly beat every field"
            f"{interval}: {against(sole)}. It is the best reply to itself, not a dominant strategy: watch it."))
    if beats_all:
        best = beats_all[0]
        return DominanceVerdict(None, "strong", (
            f"{bots[best]} beats every other bot's field{interval} ({against(best)}), yet the equilibrium mixes "
            f"{mix}: no single strategy dominates."))
    if len(equilibria) > 1:
        shown = "; ".join(_mix_text(x, bots) for x in equilibria[:4])
        more = f" and {len(equilibria) - 4} more" if len(equilibria) > 4 else ""
        where = f"the meta-game has {len(equilibria)} symmetric equilibria ({shown}{more}), so which mix survives depends on where play starts"
    else:
        where = f"the equilibrium mixes {mix}"
    return DominanceVerdict(None, "mixed", (
        f"No strategy dominates: no bot beats the field of every other bot, and {where}."))


def _mix_text(mixture: np.ndarray, bots: Sequence[str]) -> str:
    """'greedy alone', or 'balanced 0.60, greedy 0.40' (heaviest first)."""
    support = [i for i in np.argsort(-mixture, kind="stable") if mixture[i] > 1e-9]
    if len(support) == 1:
        return f"{bots[support[0]]} alone"
    return ", ".join(f"{bots[i]} {mixture[i]:.2f}" for i in support)


def dominance(source: str | Path | Tournament | pd.DataFrame) -> Result:
    """One row per bot: fields it beats (whole interval above the fair share), its worst field, its
    weight in the first equilibrium and whether it dominates; the verdict text is in table.attrs["verdict"]."""
    payoff = source if isinstance(source, pd.DataFrame) else payoff_table(source).table
    _require_full_payoff(payoff, "the dominance verdict")
    m = field_matrix(payoff)
    if not np.isfinite(m.rate).all():
        raise UserError("the dominance verdict needs every one-bot-against-a-field line-up (a full tournament)")
    equilibria, _ = symmetric_equilibria(m.rate)
    verdict = dominance_verdict(m.rate, m.bots, m.low, m.high, m.fair_share, equilibria)
    rows = []
    for i, bot in enumerate(m.bots):
        others = [j for j in range(len(m.bots)) if j != i]
        margin = [m.low[i, j] - m.fair_share[i, j] for j in others]
        worst = others[int(np.argmin(margin))]
        rows.append({"bot": bot, "fields_beaten": int(sum(v > 0 for v in margin)), "fields": len(others),
                     "worst_field": m.bots[worst], "worst_win_rate": m.rate[i, worst], "worst_ci_low": m.low[i, worst],
                     "worst_fair_share": m.fair_share[i, worst], "equilibrium_weight": float(equilibria[0][i]),
                     "dominant": bot == verdict.dominant})
    table = pd.DataFrame(rows)
    table.attrs["verdict"] = verdict.text
    table.attrs["level"] = verdict.level
    return Result(table, None)


# ---------------------------------------------------------------------------- skill ladder
def skill_ladder(source: str | Path | Tournament, rungs: Sequence[str], method: str = "wilson",
                 alpha: float = ALPHA) -> Result:
    """Each rung against the rung below it, weakest first: the rung's win rate alone against P-1
    copies of the rung below, and the rung below's alone against P-1 copies of the rung, each with
    its interval and fair share (the same seeds, seats rotated); `stronger` when the first interval
    lies above its fair share and the second below."""
    t = open_tournament(source)
    rungs = list(rungs)
    if len(rungs) < 2:
        raise UserError("a skill ladder needs at least two rungs")
    missing = [r for r in rungs if r not in t.bots]
    if missing:
        raise UserError(f"the ladder's rung {missing[0]!r} did not play in this tournament ({', '.join(t.bots)})")
    payoff = payoff_table(t, method, alpha).table
    m = field_matrix(payoff)
    where = {name: i for i, name in enumerate(m.bots)}
    rows = []
    repeated = sorted({r for r in rungs if rungs.count(r) > 1})
    if repeated:
        raise UserError(f"the ladder lists {repeated[0]!r} twice (give each rung once, weakest first)")
    for below, rung in zip(rungs, rungs[1:]):
        i, j = where[rung], where[below]
        if not (np.isfinite(m.rate[i, j]) and np.isfinite(m.rate[j, i])):
            raise UserError(f"{t.path}: {rung} and {below} did not meet head to head here (a ladder dataset holds "
                            f"only adjacent rungs: {' < '.join(t.ladder or t.bots)})")
        rows.append({"rung": rung, "below": below,
                     "rung_alone": m.rate[i, j], "rung_alone_low": m.low[i, j], "rung_alone_high": m.high[i, j],
                     "rung_alone_fair": m.fair_share[i, j],
                     "below_alone": m.rate[j, i], "below_alone_low": m.low[j, i], "below_alone_high": m.high[j, i],
                     "below_alone_fair": m.fair_share[j, i], "games": int(m.seat_games[i, j]),
                     "stronger": bool(m.low[i, j] > m.fair_share[i, j] and m.high[j, i] < m.fair_share[j, i])})
    table = pd.DataFrame(rows)
    return Result(table, _ladder_figure(table, t.n_players))


def _ladder_figure(table: pd.DataFrame, n_players: int) -> Figure:
    fig = Figure(figsize=(max(7.0, 1.8 * len(table) + 2), 4.0), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(table))
    for offset, prefix, label, color in ((-0.12, "rung_alone", "rung alone vs the rung below", "tab:green"),
                                         (0.12, "below_alone", "rung below alone vs the rung", "tab:gray")):
        rate = table[prefix].to_numpy()
        err = [np.clip(rate - table[f"{prefix}_low"], 0, None), np.clip(table[f"{prefix}_high"] - rate, 0, None)]
        ax.errorbar(x + offset, rate, yerr=err, fmt="o", capsize=4, color=color, label=label)
        ax.scatter(x + offset, table[f"{prefix}_fair"], marker="_", s=300, color="black")
    ax.axhline(1 / n_players, color="black", linestyle="--", linewidth=1, label=f"1 in {n_players}")
    ax.set_xticks(x, [f"{r.rung}\nover {r.below}" for r in table.itertuples()])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylabel(f"win rate alone against {_copies(n_players - 1)}")
    ax.set_title("Skill ladder: each rung head to head with the rung below\n(95% intervals; black bars: fair share)")
    ax.legend(fontsize=8)
    return fig


# ------------------------------------------------------------------------------ summary
def ladder_verdicts(table: pd.DataFrame, n_players: int) -> list[str]:
    """One plain-language sentence per rung of a skill_ladder table: stronger than the rung below,
    weaker, or not told apart by these games, with the two head-to-head win rates."""
    field = _copies(n_players - 1)
    out = []
    for row in table.itertuples():
        up = _rate_text(row.rung_alone, row.rung_alone_low, row.rung_alone_high)
        down = _rate_text(row.below_alone, row.below_alone_low, row.below_alone_high)
        numbers = (f"alone against {field} of {row.below} it wins {up} of its games (fair share "
                   f"{100 * row.rung_alone_fair:.1f}%), and {row.below} alone against {field} of {row.rung} wins "
                   f"{down} (fair share {100 * row.below_alone_fair:.1f}%)")
        up_wins, down_loses = row.rung_alone_low > row.rung_alone_fair, row.below_alone_high < row.below_alone_fair
        if row.stronger:
            out.append(f"{row.rung} is stronger than {row.below}: {numbers}.")
        elif row.rung_alone_high < row.rung_alone_fair and row.below_alone_low > row.below_alone_fair:
            out.append(f"{row.rung} is weaker than {row.below}, against the ladder's order: {numbers}.")
        elif up_wins or down_loses:
            which = (f"{row.rung} beats its fair share when outnumbered, but {row.below} does not fall clearly short "
                     f"of its own" if up_wins else f"{row.below} falls short of its fair share when outnumbered, but "
                     f"{row.rung} does not clearly beat its own")
            out.append(f"{row.rung} is not clearly stronger than {row.below} (only one of the two tables shows it; "
                       f"{which}): {numbers}.")
        else:
            out.append(f"{row.rung} is not clearly stronger than {row.below} ({row.games:,} games per line-up "
                       f"cannot tell them apart at 95%): {numbers}.")
    return out


def _ladder_lines(t: Tournament, rungs: Sequence[str]) -> list[str]:
    lines = []
    for row in skill_ladder(t, rungs).table.itertuples():
        lines.append(f"  {row.rung} over {row.below}: {_rate_text(row.rung_alone, row.rung_alone_low, row.rung_alone_high)}"
                     f" (fair {100 * row.rung_alone_fair:.1f}%); {row.below} alone: "
                     f"{_rate_text(row.below_alone, row.below_alone_low, row.below_alone_high)}"
                     f" (fair {100 * row.below_alone_fair:.1f}%) -> {'stronger' if row.stronger else 'not clearly stronger'}")
    return lines


def ladder_summary_text(source: str | Path | Tournament, rungs: Sequence[str] | None = None) -> str:
    """What `sim ladder` prints: each rung alone against copies of the rung below (and the reverse)
    with 95% intervals and fair shares, then a verdict per rung in plain words. rungs default to the
    dataset's ladder (or its bots, in order)."""
    t = open_tournament(source)
    rungs = list(rungs or t.ladder or t.bots)
    result = skill_ladder(t, rungs)
    lines = [t.description, "",
             f"Skill ladder (win rate alone against {_copies(t.n_players - 1)} of the rung below, and the reverse; "
             f"95% interval):"]
    lines += _ladder_lines(t, rungs)
    lines += ["", "Verdict:"] + [f"  - {text}" for text in ladder_verdicts(result.table, t.n_players)]
    if t.no_winner_text:
        lines += ["", f"({t.no_winner_text}.)"]
    return "\n".join(lines)


def tournament_summary_text(source: str | Path | Tournament, ladder: Sequence[str] | None = None,
                            progress: bool = False) -> str:
    """What `sim tournament` prints: ratings, the field matrix, the equilibrium and the verdict
    (for a skill-ladder dataset, which lacks the line-ups those need: the ladder's summary)."""
    t = open_tournament(source)
    if not t.complete:
        note = ("(a skill-ladder dataset holds only the line-ups of adjacent rungs: no ratings, meta-game or "
                "dominance verdict, which need every line-up)")
        if t.ladder is None:
            t.require_complete("the tournament summary")
        return ladder_summary_text(t, ladder) + "\n\n" + note
    payoff = payoff_table(t).table
    m = field_matrix(payoff)
    rated = min(t.games_per_lineup, RATING_GAMES_PER_LINEUP // t.n_players * t.n_players)
    lines = [t.description, "", f"Ratings (openskill Plackett-Luce over the first {rated:,} games of each mixed line-up; "
                                f"field win rate per seat over every game, 95% interval):"]
    for row in ratings(t, games_per_lineup=rated, progress=progress).table.itertuples():
        lines.append(f"  {row.place}. {row.bot:<12} mu {row.mu:6.2f}  sigma {row.sigma:5.2f}  ordinal "
                     f"{row.ordinal:6.2f}  vs field {_rate_text(row.field_win_rate, row.ci_low, row.ci_high)} "
                     f"(fair {100 * row.field_fair_share:.1f}%)")
    width = max(len(b) for b in m.bots) + 2
    lines += ["", f"Win rate seated alone (rows) against {_copies(t.n_players - 1)} of (columns):",
              " " * width + "".join(f"{b:>{width}}" for b in m.bots)]
    for i, bot in enumerate(m.bots):
        lines.append(f"{bot:<{width}}" + "".join(f"{100 * v:>{width - 1}.1f}%" for v in m.rate[i]))
    game = meta_game(payoff).table
    lines += ["", "Symmetric equilibria of that game (weights; regret in the real "
                  f"{t.n_players}-player game):"]
    for number, group in game.groupby("equilibrium"):
        mix = ", ".join(f"{r.bot} {r.weight:.2f}" for r in group.itertuples() if r.in_support)
        lines.append(f"  {number}. {mix}  (regret {100 * group['full_game_regret'].iloc[0]:.2f} points)")
    lines += ["", dominance(payoff).table.attrs["verdict"]]
    if ladder:
        lines += ["", "Skill ladder (alone against copies of the rung below, and the reverse):"]
        lines += _ladder_lines(t, ladder)
    if t.no_winner_text:
        lines += ["", f"({t.no_winner_text}.)"]
    return "\n".join(lines)


def skill_ladders(sources: Sequence[str | Path | Tournament], method: str = "wilson", alpha: float = ALPHA) -> Result:
    """One skill ladder from several ladder datasets played at the same player count (e.g. the cheap
    heuristic rungs with many games, and a slow search rung with few): each dataset's own ladder
    (its rungs, or its bots in order), the rows joined weakest first, with the dataset each came from."""
    tables, n_players = [], None
    for source in sources:
        t = open_tournament(source)
        if n_players is not None and t.n_players != n_players:
            raise UserError(f"{t.path}: {t.n_players} players, but the ladder's other datasets have {n_players}")
        n_players = t.n_players
        table = skill_ladder(t, t.ladder or t.bots, method, alpha).table
        table["dataset"] = str(t.path)
        tables.append(table)
    if not tables:
        raise UserError("give at least one ladder dataset")
    table = pd.concat(tables, ignore_index=True)
    return Result(table, _ladder_figure(table, n_players))


# ------------------------------------------------------------------------------ tuned bots
def _load_tuned(game, tuned_file: str | Path | None) -> tuple[Path, dict[str, Any]]:
    import tomllib

    path = Path(tuned_file) if tuned_file else Path(game.tuned_bots_path())
    if not path.is_file():
        return path, {}
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    return path, {name: spec for name, spec in (data.get("bots") or {}).items()
                  if isinstance(spec, dict) and isinstance(spec.get("provenance"), dict)}


def tuned_bots(game, tuned_file: str | Path | None = None) -> Result:
    """One row per bot `sim tune` wrote (a `[bots.NAME.provenance]` table in the game's
    bots.tuned.toml, or in tuned_file): its base bot, pool, games per evaluation, generations,
    wall time, and the held-out validation win rate of the tuned bot and of its base bot on the same
    games with their intervals; the figure sets the two side by side against the fair share."""
    path, specs = _load_tuned(game, tuned_file)
    rows = []
    for name, spec in specs.items():
        p = spec["provenance"]
        low, high = (p.get("validation_ci95") or [np.nan, np.nan])[:2]
        base_low, base_high = (p.get("base_validation_ci95") or [np.nan, np.nan])[:2]
        rows.append({"bot": name, "base_bot": p.get("base_bot"), "players": p.get("players"),
                     "pool": ", ".join(p.get("pool") or []), "games_per_evaluation": p.get("games_per_evaluation"),
                     "generations": p.get("generations"), "popsize": p.get("popsize"),
                     "wall_minutes": (p.get("wall_seconds") or np.nan) / 60,
                     "validation_games": p.get("validation_games"),
                     "win_rate": p.get("validation_win_rate", np.nan), "ci_low": low, "ci_high": high,
                     "base_win_rate": p.get("base_validation_win_rate", np.nan), "base_ci_low": base_low,
                     "base_ci_high": base_high, "date": p.get("date"), "git_commit": str(p.get("git_commit") or "")[:10],
                     "command": p.get("command")})
    table = pd.DataFrame(rows, columns=["bot", "base_bot", "players", "pool", "games_per_evaluation", "generations",
                                        "popsize", "wall_minutes", "validation_games", "win_rate", "ci_low", "ci_high",
                                        "base_win_rate", "base_ci_low", "base_ci_high", "date", "git_commit", "command"])
    numeric = ["players", "games_per_evaluation", "generations", "popsize", "wall_minutes", "validation_games",
               "win_rate", "ci_low", "ci_high", "base_win_rate", "base_ci_low", "base_ci_high"]
    table[numeric] = table[numeric].apply(pd.to_numeric, errors="coerce")  # an older provenance may lack some
    table.attrs["path"] = str(path)
    return Result(table, _tuned_figure(table) if len(table) else None)


def _tuned_figure(table: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(8, 1.2 + 0.7 * len(table)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(table))[::-1]
    for offset, prefix, label, color in ((0.12, "", "tuned bot", "tab:green"), (-0.12, "base_", "its base bot", "tab:gray")):
        rate = table[f"{prefix}win_rate"].astype(float).to_numpy()
        err = [np.clip(rate - table[f"{prefix}ci_low"].astype(float), 0, None),
               np.clip(table[f"{prefix}ci_high"].astype(float) - rate, 0, None)]
        ax.errorbar(rate, y + offset, xerr=err, fmt="o", capsize=4, color=color, label=label)
    for players in sorted({int(p) for p in table["players"].dropna()}):
        ax.axvline(1 / players, color="black", linestyle="--", linewidth=1, label=f"fair share (1 in {players})")
    ax.set_yticks(y, [f"{r.bot}\n(base {r.base_bot})" for r in table.itertuples()])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("win rate alone against the tuning pool, held-out games (95% interval)")
    ax.set_title("Tuned bots against their base bots\n(the same held-out games, seats rotated)")
    ax.legend(fontsize=8, loc="lower right")
    return fig


LOG_COLUMNS = ("generation", "seed", "best_win_rate", "best_margin", "mean_win_rate", "mean_margin",
               "centre_win_rate", "centre_margin", "sigma", "games", "seconds")


def tuning_log(path: str | Path) -> Result:
    """A tuning log (`tune_logs/<bot>.log.json`: one dict per CMA-ES generation) as a table, and its
    learning curve: the centre of the search distribution's win rate, the generation's best and its
    mean per generation (each on that generation's games), with the step size sigma beside."""
    import json

    path = Path(path)
    try:
        records = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"{path}: not a readable tuning log ({' '.join(str(exc).split())})") from None
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise UserError(f"{path}: a tuning log is a JSON list of per-generation objects")
    table = pd.DataFrame(records)
    missing = [c for c in ("generation", "centre_win_rate", "best_win_rate", "mean_win_rate") if c not in table]
    if missing:
        raise UserError(f"{path}: the tuning log lacks {', '.join(missing)}")
    table = table[[c for c in LOG_COLUMNS if c in table] + [c for c in table if c not in LOG_COLUMNS]]
    return Result(table, _learning_figure(table, path.name.removesuffix(".log.json")))


def _learning_figure(table: pd.DataFrame, bot: str) -> Figure:
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    ax = fig.subplots()
    x = table["generation"]
    for column, label, style in (("best_win_rate", "best candidate", ":"), ("centre_win_rate", "centre (the bot so far)", "-"),
                                 ("mean_win_rate", "mean of the generation", "--")):
        ax.plot(x, table[column], style, marker="o", markersize=3, label=label)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("generation")
    ax.set_ylabel("win rate against the pool")
    ax.set_title(f"Learning curve of {bot}\n(each generation on new games)")
    if "sigma" in table:
        right = ax.twinx()
        right.plot(x, table["sigma"], color="black", alpha=0.3, linewidth=1)
        right.set_ylabel("step size sigma (grey)")
    ax.legend(fontsize=8, loc="lower right")
    return fig


def weight_changes(game, bot: str, tuned_file: str | Path | None = None, top: int = 25) -> Result:
    """How far tuning moved each weight: base (the base bot's), tuned, their ratio and natural
    log-ratio, largest moves first; a weight that left zero has no ratio and comes first. The tuned
    weights are the game's own bot when the file is the game's (every weight), else the file's
    weights table (a weight it leaves out counts as unchanged). The figure: the `top` largest moves."""
    path, specs = _load_tuned(game, tuned_file)
    if bot not in specs:
        raise UserError(f"{path} has no tuned bot {bot!r} (with a provenance table)")
    base_bot = specs[bot]["provenance"].get("base_bot")
    known = game.bots()
    if base_bot not in known:
        raise UserError(f"{bot}'s base bot {base_bot!r} is not a bot of {game.name}")
    names = list(game.weight_names(base_bot))
    base = np.asarray(known[base_bot].weights, dtype=float)[:len(names)]
    own = Path(game.tuned_bots_path()).resolve() == path.resolve() and bot in known
    if own:
        tuned = np.asarray(known[bot].weights, dtype=float)[:len(names)]
    else:
        table = specs[bot].get("weights") or {}
        tuned = np.array([float(table.get(name, b)) for name, b in zip(names, base)])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where((base != 0) & (np.sign(base) == np.sign(tuned)), tuned / base, np.nan)
    log_ratio = np.log(ratio)
    from_zero = (base == 0) & (tuned != 0)
    table = pd.DataFrame({"weight": names, "base": base, "tuned": tuned, "ratio": ratio, "log_ratio": log_ratio,
                          "from_zero": from_zero})
    key = np.where(from_zero, np.inf, np.abs(np.nan_to_num(log_ratio)))
    table = table.iloc[np.argsort(-key, kind="stable")].reset_index(drop=True)
    table.attrs.update(bot=bot, base_bot=base_bot)
    return Result(table, _weights_figure(table.head(top), bot, base_bot))


def _weights_figure(table: pd.DataFrame, bot: str, base_bot: str) -> Figure:
    fig = Figure(figsize=(8, 1.0 + 0.28 * len(table)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(table))[::-1]
    values = np.log10(table["ratio"].to_numpy(dtype=float))
    shown = np.nan_to_num(values)
    ax.barh(y, shown, color=np.where(shown >= 0, "tab:green", "tab:red"))
    for yy, row in zip(y, table.itertuples()):
        if row.from_zero:
            ax.text(0, yy, f"  from 0 to {row.tuned:.3g}", va="center", fontsize=8)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(y, table["weight"])
    ticks = [-1, -0.5, 0, 0.5, 1]
    ax.set_xticks(ticks, ["1/10", "1/3", "x1", "x3", "x10"])
    ax.set_xlim(-1.05, 1.05)
    ax.set_xlabel(f"tuned weight / {base_bot}'s weight (log scale)")
    ax.set_title(f"How {bot}'s weights moved from {base_bot}'s\n(largest moves first)")
    return fig
