"""Statistics shared by the core and the analysis layer: proportion intervals (thin, NaN-aware
layers over statsmodels) and how games without a winner are counted.

Games without a winner. A game may end without a result (Chachapoya's stalemate: `end_reason`
"stalemate", `winner_seat` -1, no players row with `won` true). Such a game is neither a win nor
a loss for anyone, so every win rate leaves it out: its player rows count neither in the wins nor
in the games played, and the fair share of a seat stays 1 in N. Each win-rate table says how many
games it left out (`no_winner_note`). Scores, game lengths and end reasons still count every game.
"""
from __future__ import annotations

import gc

import numpy as np

from sim.core.errors import UserError

# names a user may give -> statsmodels' proportion_confint method
Z95 = 1.959963984540054  # the standard normal quantile of a two-sided 95% interval
INTERVAL_METHODS = {"wilson": "wilson", "beta": "beta", "clopper-pearson": "beta", "clopper_pearson": "beta",
                    "agresti_coull": "agresti_coull", "jeffreys": "jeffreys", "normal": "normal"}


def interval_method(name: str) -> str:
    """statsmodels' name of a proportion interval method (one-line UserError if unknown)."""
    try:
        return INTERVAL_METHODS[name.lower()]
    except KeyError:
        raise UserError(f"unknown interval method {name!r} (known: {', '.join(INTERVAL_METHODS)})") from None


def rate_ci(count, n, method: str = "wilson", alpha: float = 0.05):
    """Rate and its 1 - alpha interval per entry, as float arrays; NaN where n == 0."""
    from statsmodels.stats.proportion import proportion_confint

    count = np.asarray(count, dtype=float)
    n = np.asarray(n, dtype=float)
    ok = n > 0
    rate = np.full(np.shape(count), np.nan)
    lo = np.full(np.shape(count), np.nan)
    hi = np.full(np.shape(count), np.nan)
    if ok.any():
        rate[ok] = count[ok] / n[ok]
        lo[ok], hi[ok] = proportion_confint(count[ok], n[ok], alpha=alpha, method=interval_method(method))
    return rate, lo, hi


def adjust_p_values(p, alpha: float, method: str) -> tuple[np.ndarray, np.ndarray]:
    """statsmodels' multipletests: (reject, corrected p-values). Its Holm branch calls
    gc.collect(), a full collection each time (30 ms with a report's objects alive, 129 times in
    `sim report`'s verdicts): the heap is frozen around the call, so the collection finds nothing
    to walk."""
    from statsmodels.stats.multitest import multipletests

    gc.freeze()
    try:
        reject, adjusted, _, _ = multipletests(np.asarray(p, dtype=float), alpha=alpha, method=method)
    finally:
        gc.unfreeze()
    return reject, adjusted


def has_winner(won) -> np.ndarray:
    """Per game, whether some player won, from a [games, seats] array of `won`."""
    return np.asarray(won, dtype=bool).any(axis=1)


def no_winner_note(n_games: int) -> str:
    """The line a win-rate table carries when it left out games without a winner; "" for none."""
    n_games = int(n_games)
    if n_games <= 0:
        return ""
    if n_games == 1:
        return "1 game without a winner (stalemate) is left out of win rates"
    return f"{n_games:,} games without a winner (stalemate) are left out of win rates"
