"""Chachapoya's report pages: what `sim report` (so `make run`) builds for Chachapoya.

`report_sections()` is Chachapoya's report hook (the game contract's `report_sections`, asked by
sim/analysis/report.py): the base game, 4 players, `sim report --games` games (200,000 by default:
Chachapoya plays about ten times as fast as Cuzco, well under a minute on two cores) from the same
seed with seats rotated, in DATA/chachapoya-base; on it the overview, the win rates and the card
strength. Its robustness page (the tables of sim/games/chachapoya/robust.toml) is added by `sim
report` itself, as for every game that declares robustness tables.
"""
from __future__ import annotations

from sim.analysis.report import (ReportSection, RunData, card_strength_section, overview_section,
                                 win_rates_section)

GAME = "chachapoya"
PLAYERS = 4
BASE = RunData("chachapoya-base", GAME, PLAYERS)


def report_sections() -> tuple[ReportSection, ...]:
    """Chachapoya's report pages, in the index's order: the overview, win rates and card strength."""
    return (
        overview_section(BASE, "overview_chachapoya", "Chachapoya overview",
                         "The headline answers for Chachapoya: seat balance, bots, scores, game length, stalemates "
                         "and the strongest cards.", by="seat"),
        win_rates_section(BASE, name="win_rates_chachapoya", title="Chachapoya win rates and balance"),
        card_strength_section(BASE, name="card_strength_chachapoya", title="Chachapoya card strength",
                              description="Which adventurer and treasure cards go with winning: win rate when "
                                          "held, when played, improvement when played, and a seat- and "
                                          "bot-controlled estimate."),
    )
