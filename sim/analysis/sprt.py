"""Sequential test of a variant: play games in batches until a GSPRT decides.

`sim compare --sprt` answers "does variant B move this metric by at least `margin`?" with as few
games as the evidence needs, the way fishtest (the Stockfish testing framework) decides whether a
patch gains Elo.

The observations are per-game differences x_i = m_B(i) - m_A(i) of a per-game quantity m (the
first player's win indicator, a bot's win indicator, the players' mean score), where game i of A
and game i of B are played from the same seed stream (common random numbers: the pairing removes
most of the game-to-game noise). The hypotheses are on their mean mu:

    H0: mu = mu0 (= margin0, 0 by default)      H1: mu = mu1 (= margin)

Generalized SPRT with the normal approximation (M. Van den Bergh, "A GSPRT approximation",
http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf; fishtest's
server/fishtest/stats/LLRcalc.py, function LLR_alt2): after N observations with sample mean
x_bar and sample variance s^2 (divisor N), the log-likelihood ratio of H1 against H0 is

    LLR = N * (mu1 - mu0) * (2 * x_bar - mu0 - mu1) / (2 * s^2)

(the log-likelihood ratio of two normal models with means mu1 and mu0 and the variance replaced
by its estimate). The test stops as soon as the LLR leaves Wald's bounds

    lower = log(beta / (1 - alpha))  -> accept H0
    upper = log((1 - beta) / alpha)  -> accept H1

so that P(accept H1 | H0) <= about alpha and P(accept H0 | H1) <= about beta. Checking only
after whole batches (as fishtest does) overshoots the bounds a little, which makes the error
rates slightly smaller than alpha and beta. Values of mu between mu0 and mu1 may take long and
end either way; mu <= mu0 tends to H0 and mu >= mu1 to H1 (the test is one-sided, in the
direction of mu1 - mu0; a negative margin tests for a decrease).
A sample whose variance is 0 (every difference equal so far) uses a variance of 1e-12, i.e.
near-certainty about its mean.

For the win metrics, a pair of games in which either variant's game has no winner (a stalemate:
no player with `won`) is left out (it is neither a win nor a loss); `table.attrs["no_winner_games"]`
counts those pairs and the summary says so. The score metric counts every game.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.analysis.io import Result
from sim.core.errors import EngineFailure, UserError
from sim.core.stats import Z95, has_winner, no_winner_note


ACCEPT_H0, ACCEPT_H1, CONTINUE = "accept H0", "accept H1", "continue"
VARIANCE_FLOOR = 1e-12


class GSPRT:
    """Fishtest-style GSPRT on the mean of i.i.d. observations (normal approximation).

    mu0, mu1: the mean under H0 and under H1 (e.g. 0 and the margin); alpha: the chance of
    accepting H1 when H0 holds; beta: the chance of accepting H0 when H1 holds. Feed observations
    with update(); the first bound crossed is the decision (it stays, further updates only move
    the LLR).
    """

    def __init__(self, mu0: float, mu1: float, alpha: float = 0.05, beta: float = 0.05):
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise UserError(f"alpha and beta must be in (0, 1) with alpha + beta < 1 (got {alpha}, {beta})")
        if not (math.isfinite(mu0) and math.isfinite(mu1)) or mu0 == mu1:
            raise UserError(f"the means under H0 and H1 must differ (got {mu0} and {mu1})")
        self.mu0, self.mu1, self.alpha, self.beta = float(mu0), float(mu1), float(alpha), float(beta)
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0  # sum of squared deviations from the mean (Chan et al.'s pairwise update)
        self.decision = CONTINUE

    @property
    def variance(self) -> float:
        """Sample variance with divisor N, as in the LLR formula."""
        return self._m2 / self.n if self.n else float("nan")

    @property
    def llr(self) -> float:
        """N (mu1 - mu0) (2 x_bar - mu0 - mu1) / (2 s^2); 0 before any observation."""
        if self.n == 0:
            return 0.0
        var = max(self.variance, VARIANCE_FLOOR)
        return self.n * (self.mu1 - self.mu0) * (2 * self.mean - self.mu0 - self.mu1) / (2 * var)

    def update(self, observations) -> str:
        """Add a batch of observations, then check the bounds once; returns status()."""
        x = np.asarray(observations, dtype=np.float64).ravel()
        if x.size:
            if not np.all(np.isfinite(x)):
                raise ValueError("GSPRT observations must be finite numbers")
            n_b, mean_b = x.size, float(x.mean())
            m2_b = float(((x - mean_b) ** 2).sum())
            n = self.n + n_b
            delta = mean_b - self.mean
            self._m2 += m2_b + delta * delta * self.n * n_b / n
            self.mean += delta * n_b / n
            self.n = n
        if self.decision == CONTINUE:
            llr = self.llr
            if llr >= self.upper:
                self.decision = ACCEPT_H1
            elif llr <= self.lower:
                self.decision = ACCEPT_H0
        return self.decision

    def status(self) -> str:
        """"accept H0", "accept H1" or "continue"."""
        return self.decision

    def bounds(self) -> tuple[float, float]:
        """(lower, upper) = (log(beta / (1 - alpha)), log((1 - beta) / alpha))."""
        return self.lower, self.upper


# ------------------------------------------------------------------ per-game metrics
def parse_metric(metric: str) -> tuple[str, str | None]:
    """("first_player_win" | "score" | "bot_win", bot name or None)."""
    if metric in ("first_player_win", "score"):
        return metric, None
    if metric.startswith("bot_win:") and metric[len("bot_win:"):].strip():
        return "bot_win", metric[len("bot_win:"):].strip()
    raise UserError(f"unknown metric {metric!r} (use first_player_win, score or bot_win:NAME)")


def per_game_metric(metric: str, won: np.ndarray, score: np.ndarray, position: np.ndarray,
                    seat_bots: np.ndarray, bot_names: list[str]) -> np.ndarray:
    """One value per game from [games, seats] arrays.

    first_player_win: 1 if the player at turn position 0 (start_order, or seat 0) won;
    score: the players' mean score; bot_win:NAME: the share of NAME's seats that won (its win
    indicator when it has one seat).
    """
    kind, bot = parse_metric(metric)
    if kind == "first_player_win":
        return (won & (position == 0)).any(axis=1).astype(np.float64)
    if kind == "score":
        return score.astype(np.float64).mean(axis=1)
    if bot not in bot_names:
        raise UserError(f"bot {bot!r} is not in the line-up ({', '.join(bot_names)})")
    seats = seat_bots == bot_names.index(bot)
    return (won & seats).sum(axis=1) / seats.sum(axis=1)


def _chunk_metric(game, params, n_players, bot_names, seat_bots, seed, first, count,
                  metric) -> tuple[np.ndarray, np.ndarray]:
    """The metric of each game of a chunk, and whether some player won it."""
    from sim.core.runner import simulate_chunk

    result = simulate_chunk(game, params, n_players, bot_names, seat_bots, seed, first, count, False)
    if result.failures:
        index, message = min(result.failures)
        raise EngineFailure(f"engine failure in game {index} of run seed {seed} ({params.variant_name}): {message}")
    cols = result.player_columns
    shape = (count, n_players)
    position = (np.asarray(cols["start_order"]).reshape(shape) if "start_order" in cols
                else np.tile(np.arange(n_players), (count, 1)))
    won = np.asarray(cols["won"]).reshape(shape).astype(bool)
    return (per_game_metric(metric, won, np.asarray(cols["score"]).reshape(shape), position, seat_bots, bot_names),
            has_winner(won))


def _params(game, variant):
    from sim.core.params import resolve_variant_file

    if variant is None or isinstance(variant, (str, Path)):
        return resolve_variant_file(game, variant)
    overrides = {key: value for key, value in dict(variant).items() if key != "name"}
    return game.resolve_params(overrides, str(variant.get("name", "variant")))


# ------------------------------------------------------------------ the sequential run
def run_sprt(game: str, variant_a: Any, variant_b: Any, metric: str, margin: float, alpha: float = 0.05,
             beta: float = 0.05, batch: int = 2000, max_games: int = 200_000, seed: int = 0,
             players: int | None = None, bots: str | list[str] | None = None, margin0: float = 0.0,
             rotate: bool = True, progress: Callable[[dict], None] | None = None,
             on_start: Callable[[], None] | None = None, permute: bool = False) -> Result:
    """Play A and B from the same seeds in batches until the GSPRT decides, or max_games.

    variant_a / variant_b: a variant TOML path, a variant dict, or None for the base game.
    metric: "first_player_win", "score" or "bot_win:NAME"; margin: the difference B - A under H1
    (a proportion for win metrics, e.g. 0.02 = 2 points; VP for score); margin0: under H0.
    bots: one name per seat (list or comma string; default the game's line-up), rotated every game
    unless rotate=False, or with permute=True seated in every ordering in turn (sim.core.lineup.
    seat_orders; it rotates too, so rotate is then ignored). progress(row) is called after every
    batch with the trace row, on_start() once the options are checked, before the first game.

    Returns Result(table, figure): table is the LLR trace, one row per batch (games played, mean
    and sd of the per-game differences, LLR, bounds, status); table.attrs holds "decision" (the
    last status: "accept H0", "accept H1", or "continue" when max_games ran out), "games" and the
    settings. The figure draws the LLR path between the bounds.
    """
    from sim.core import registry
    from sim.core.lineup import lineup_indices, parse_bots, seat_bot_matrix

    parse_metric(metric)
    if batch < 1 or max_games < 1:
        raise UserError(f"--batch and --max-games must be at least 1 (got {batch} and {max_games})")
    if not 0 <= seed <= 2**63 - 1:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {seed})")
    test = GSPRT(margin0, margin, alpha, beta)
    g = registry.get_game(game)
    params_a, params_b = _params(g, variant_a), _params(g, variant_b)
    n_players = g.default_players if players is None else int(players)
    for params in (params_a, params_b):
        allowed = tuple(g.allowed_players(params))
        if n_players not in allowed:
            raise UserError(f"{g.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                            f"players, not {n_players}")
    spec = ",".join(bots) if isinstance(bots, (list, tuple)) else bots
    bot_names, lineup = lineup_indices(parse_bots(g, spec, n_players))
    kind, bot = parse_metric(metric)
    if kind == "bot_win" and bot not in bot_names:
        raise UserError(f"bot {bot!r} is not in the line-up ({', '.join(bot_names)})")
    rows = []
    played = left_out = 0
    if on_start is not None:  # every option is valid: the games begin
        on_start()
    while played < max_games and test.status() == CONTINUE:
        count = min(batch, max_games - played)
        seat_bots = seat_bot_matrix(lineup, played, count, rotate and not permute, permute)
        m_a, won_a = _chunk_metric(g, params_a, n_players, bot_names, seat_bots, seed, played, count, metric)
        m_b, won_b = _chunk_metric(g, params_b, n_players, bot_names, seat_bots, seed, played, count, metric)
        keep = np.ones(count, dtype=bool) if kind == "score" else won_a & won_b
        left_out += count - int(keep.sum())
        status = test.update((m_b - m_a)[keep])
        played += count
        row = {"batch": len(rows) + 1, "games": played, "pairs": test.n, "mean_diff": test.mean,
               "sd_diff": math.sqrt(test.variance), "llr": test.llr, "lower": test.lower, "upper": test.upper,
               "status": status}
        rows.append(row)
        if progress is not None:
            progress(row)
    table = pd.DataFrame(rows)
    table.attrs.update({"decision": test.status(), "games": played, "game": g.name, "metric": metric,
                        "margin0": margin0, "margin": margin, "alpha": alpha, "beta": beta, "seed": seed,
                        "players": n_players, "bots": [bot_names[i] for i in lineup],
                        "variant_a": params_a.variant_name, "variant_b": params_b.variant_name,
                        "no_winner_games": left_out, "permute_seats": permute})
    return Result(table, llr_plot(table))


def llr_plot(table: pd.DataFrame) -> Figure:
    """The LLR after each batch between the two bounds, with the decision in the title."""
    attrs = table.attrs
    fig = Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.subplots()
    if len(table):
        games = np.concatenate([[0], table["games"].to_numpy()])
        llr = np.concatenate([[0.0], table["llr"].to_numpy()])
        ax.plot(games, llr, marker="o", markersize=3, color="tab:blue", label="log-likelihood ratio")
        lower, upper = table["lower"].iloc[0], table["upper"].iloc[0]
        ax.axhline(upper, color="tab:red", linestyle="--",
                   label=f"accept H1 above log((1-beta)/alpha) = {upper:.2f}")
        ax.axhline(lower, color="tab:green", linestyle="--",
                   label=f"accept H0 below log(beta/(1-alpha)) = {lower:.2f}")
        ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("games played (each in both variants)")
    ax.set_ylabel("log-likelihood ratio H1 : H0")
    decision = attrs.get("decision", CONTINUE)
    outcome = "no decision" if decision == CONTINUE else decision
    ax.set_title(f"GSPRT {attrs.get('game', '')}: {attrs.get('metric', '')}, "
                 f"{attrs.get('variant_b', 'B')} - {attrs.get('variant_a', 'A')}; "
                 f"H0: diff = {attrs.get('margin0', 0):g}, H1: diff = {attrs.get('margin', '?'):g}\n"
                 f"{outcome} after {attrs.get('games', 0):,} games "
                 f"(alpha {attrs.get('alpha', '?')}, beta {attrs.get('beta', '?')})", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return fig


def sprt_progress_line(row: dict) -> str:
    """One line per batch for the command line."""
    return (f"batch {row['batch']}: {row['games']:,} games, mean diff {row['mean_diff']:+.5f} "
            f"(sd {row['sd_diff']:.4f}), LLR {row['llr']:+.3f} in [{row['lower']:.3f}, {row['upper']:.3f}]: "
            f"{row['status']}")


def _diff_text(value: float, win: bool) -> str:
    return f"{100 * value:+.2f} points" if win else f"{value:+.3f}"


def sprt_summary_text(result: Result) -> str:
    """The decision and the games it took, the mean difference with its 95% interval, and what the
    decision says: the test is one-sided (it asks whether B - A reaches the H1 margin), so "accept
    H0" is "B - A is nearer the H0 value than the H1 margin", which a difference the other way also gives."""
    attrs = result.table.attrs
    decision, games = attrs["decision"], attrs["games"]
    win = attrs["metric"] != "score"
    m0, m1 = attrs["margin0"], attrs["margin"]
    what = (f"{attrs['metric']}, {attrs['variant_b']} - {attrs['variant_a']}: "
            f"H0 diff = {m0:g} against H1 diff = {m1:g}")
    last = result.table.iloc[-1] if len(result.table) else None
    mean = ""
    if last is not None:
        pairs = int(last["pairs"]) if "pairs" in last and not pd.isna(last["pairs"]) else int(last["games"])
        half = Z95 * float(last["sd_diff"]) / math.sqrt(max(pairs - 1, 1))
        mean = (f"; mean difference {_diff_text(last['mean_diff'], win)}, 95% interval "
                f"[{_diff_text(last['mean_diff'] - half, win)}, {_diff_text(last['mean_diff'] + half, win)}] "
                f"over {pairs:,} paired games, LLR {last['llr']:+.3f}")
    note = no_winner_note(attrs.get("no_winner_games", 0))
    note = f"\n{note} (a game without a winner in either variant leaves out the pair)" if note else ""
    side = "at least" if m1 > m0 else "at most"
    direction = (f"\nThe test looks in one direction: it asks whether B - A is {side} {_diff_text(m1, win)} "
                 f"(H1) rather than {_diff_text(m0, win)} (H0)")
    if decision == ACCEPT_H0:
        direction += (f"; accept H0 says B - A is nearer {_diff_text(m0, win)} than {_diff_text(m1, win)}, which a "
                      f"difference the other way gives too: read the interval for its size and sign")
    elif decision == ACCEPT_H1:
        direction += f"; accept H1 says B - A is nearer {_diff_text(m1, win)} than {_diff_text(m0, win)}"
    if decision == CONTINUE:
        return f"{what}\nno decision after {games:,} games (max games reached){mean}{note}{direction}"
    return f"{what}\n{decision} after {games:,} games{mean}{note}{direction}"


__all__ = ["GSPRT", "run_sprt", "per_game_metric", "parse_metric", "llr_plot", "sprt_progress_line",
           "sprt_summary_text", "ACCEPT_H0", "ACCEPT_H1", "CONTINUE"]
