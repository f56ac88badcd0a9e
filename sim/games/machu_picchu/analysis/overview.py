"""What Machu Picchu adds to the overview of a dataset (the overview notebook's game sections):
does the gold multiplier decide games, and how do the holders of each priest/virgin kind fare."""
from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from sim.analysis.report import OverviewSection

KINDS = ("sun", "puma", "condor")
SPANISH = "spanish_arrival"


def _rate(hits: int, n: int) -> tuple[float, float, float]:
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = proportion_confint(hits, n, method="wilson")
    return hits / n, lo, hi


def multiplier_decides(ds) -> pd.DataFrame:
    """Games ended by the Spanish arrival whose winner by points before the gold multipliers (ties
    broken by goods, as the rules do) is not a winner after them."""
    players = ds.players(["game_id", "score", "gold_multiplier", "goods_value", "won"])
    games = ds.games(["game_id", "end_reason"])
    spanish = set(games.loc[games["end_reason"].astype(str) == SPANISH, "game_id"])
    frame = players[players["game_id"].isin(spanish)].copy()
    frame["raw"] = frame["score"] // frame["gold_multiplier"].clip(lower=1)
    frame = frame.sort_values(["game_id", "raw", "goods_value"], ascending=[True, False, False])
    best = frame.groupby("game_id").head(1)
    decided = int((~best["won"]).sum())
    share, lo, hi = _rate(decided, len(best))
    return pd.DataFrame([{"Spanish-arrival games": len(best), "winner changed by the multipliers": decided,
                          "share": share, "95% low": lo, "95% high": hi}])


def priest_kinds(ds) -> pd.DataFrame:
    """Win rate of the players holding at least one card of each kind against those holding none."""
    players = ds.players(["won", *(f"priests_{k}" for k in KINDS)])
    rows = []
    for kind in KINDS:
        holds = players[f"priests_{kind}"] > 0
        for label, part in (("held", players[holds]), ("not held", players[~holds])):
            rate, lo, hi = _rate(int(part["won"].sum()), len(part))
            rows.append({"kind": kind, "": label, "players": len(part), "win rate": rate,
                         "95% low": lo, "95% high": hi, "cards per holder": float(
                             part[f"priests_{kind}"].mean()) if label == "held" and len(part) else np.nan})
    return pd.DataFrame(rows)


def overview_sections(ds) -> list[OverviewSection]:
    return [
        OverviewSection("Does the gold multiplier decide games?",
                        "Of the games the Spanish arrival ended, the share whose winner on points alone (goods "
                        "breaking ties) is not a winner once the most gold triples and the second-most doubles.",
                        [(multiplier_decides(ds), None)]),
        OverviewSection("Priests and virgins",
                        "Win rate of the players holding at least one card of a kind, against those holding none.",
                        [(priest_kinds(ds), None)]),
    ]
