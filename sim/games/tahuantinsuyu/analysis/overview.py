"""What Tahuantinsuyu adds to the overview of a dataset: suyu balance, whether the catch-up transfers
and the turn order keep the game close, where the VP come from, and which Sun cards swing games."""
from __future__ import annotations

import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from sim.analysis.report import OverviewSection

SUYUS = ("chinchaysuyu", "antisuyu", "collasuyu", "cuntisuyu")
SOURCES = ("vp_conquest", "vp_city", "vp_city_sapa_inca", "vp_temple", "vp_temple_bonus", "vp_temple_sapa_inca",
           "vp_garrison", "vp_garrison_sapa_inca", "vp_terrace", "vp_terrace_sapa_inca", "vp_pilgrimage",
           "vp_sun_cards")
SUN = ("annual_pilgrimage", "harsh_weather", "resistance", "building_project", "key_outpost", "rural_unrest",
       "el_nino_flooding", "local_pilgrimage", "solar_eclipse", "epidemic", "military_superiority",
       "stores_stop_famine", "expert_surveyors", "popular_support", "urban_renewal", "extra_roadcrew",
       "rapid_expansion", "wilderness_road", "great_pilgrimage", "religious_fervor", "workers_press_on")


def _rate(hits: int, n: int) -> tuple[float, float, float]:
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    lo, hi = proportion_confint(hits, n, method="wilson")
    return hits / n, lo, hi


def suyu_balance(ds) -> pd.DataFrame:
    """Win rate of each seat (its suyu) and of each first turn-order card."""
    players = ds.players(["seat", "start_order", "won"])
    rows = []
    for seat, part in players.groupby("seat"):
        rate, lo, hi = _rate(int(part["won"].sum()), len(part))
        rows.append({"by": "suyu", "": SUYUS[int(seat)], "players": len(part), "win rate": rate, "95% low": lo,
                     "95% high": hi})
    for card, part in players.groupby("start_order"):
        rate, lo, hi = _rate(int(part["won"].sum()), len(part))
        rows.append({"by": "first turn card", "": int(card), "players": len(part), "win rate": rate,
                     "95% low": lo, "95% high": hi})
    return pd.DataFrame(rows)


def closeness(ds) -> pd.DataFrame:
    """How close games are: lead changes between Sapa Inca phases, the winner's margin over second,
    the catch-up transfers made, labour given and received by final rank."""
    games = ds.games(["game_id", "lead_changes", "catch_up_transfers", "pizarro_people_phase"])
    players = ds.players(["game_id", "score", "rank", "labour_given", "labour_received"])
    top = players[players["rank"] <= 2].pivot_table(index="game_id", columns="rank", values="score")
    margin = (top[1] - top[2]).mean() if 2 in top else float("nan")
    rows = [{"measure": "lead changes a game", "mean": games["lead_changes"].mean()},
            {"measure": "winner's margin over second (VP)", "mean": margin},
            {"measure": "catch-up transfers a game", "mean": games["catch_up_transfers"].mean()},
            {"measure": "Pizarro's People phase of round 7", "mean": games["pizarro_people_phase"].mean()}]
    for rank, part in players.groupby("rank"):
        rows.append({"measure": f"labour received - given, final rank {int(rank)}",
                     "mean": (part["labour_received"] - part["labour_given"]).mean()})
    return pd.DataFrame(rows)


def vp_sources(ds) -> pd.DataFrame:
    """Mean VP by source, winners and the others."""
    players = ds.players(["won", *SOURCES])
    table = players.groupby("won")[list(SOURCES)].mean().T
    table.columns = ["others" if not won else "winners" for won in table.columns]
    return table.reset_index(names="source")


def sun_swing(ds) -> pd.DataFrame:
    """Each Sun card kind: win rate of the players it lay beside at least once against those it never
    did, and of the players who played it."""
    cols = [f"sun_suffered_{k}" for k in SUN] + [f"sun_played_{k}" for k in SUN]
    players = ds.players(["won", *cols])
    rows = []
    for kind in SUN:
        hit = players[f"sun_suffered_{kind}"] > 0
        played = players[f"sun_played_{kind}"] > 0
        with_rate = _rate(int(players.loc[hit, "won"].sum()), int(hit.sum()))
        without = _rate(int(players.loc[~hit, "won"].sum()), int((~hit).sum()))
        by_player = _rate(int(players.loc[played, "won"].sum()), int(played.sum()))
        rows.append({"card": kind, "win rate beside it": with_rate[0], "95% low": with_rate[1],
                     "95% high": with_rate[2], "win rate never beside it": without[0],
                     "swing (beside - never)": with_rate[0] - without[0], "win rate of its players": by_player[0]})
    return pd.DataFrame(rows).sort_values("swing (beside - never)")


def overview_sections(ds) -> list[OverviewSection]:
    return [
        OverviewSection("Suyu balance", "Win rate by seat, each seat playing its suyu, and by the first turn card "
                        "(dealt at random at setup; card 1 plays first).", [(suyu_balance(ds), None)]),
        OverviewSection("Do the catch-up transfers keep the game close?",
                        "Lead changes between Sapa Inca phases, the winner's margin, and the labour the transfers "
                        "move by final rank (the comparison page plays the same games without them).",
                        [(closeness(ds), None)]),
        OverviewSection("Where the VP come from", "Mean VP by source, winners against the others.",
                        [(vp_sources(ds), None)]),
        OverviewSection("Sun cards that swing games",
                        "For each card kind, the win rate of the players it lay beside against those it never did "
                        "(most harmful first), and of the players who played it.", [(sun_swing(ds), None)]),
    ]
