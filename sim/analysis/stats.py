"""Statistics shared by the analysis modules: thin, NaN-aware layers over statsmodels."""
from __future__ import annotations

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from sim.core.errors import UserError

# names a user may give -> statsmodels' proportion_confint method
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
