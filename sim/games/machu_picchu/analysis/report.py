"""Machu Picchu's report pages: what `sim report` builds for Machu Picchu.

`report_sections()` is the game's report hook (the contract's `report_sections`): the base game, 4
players, `sim report --games` games from the same seed with seats rotated, in
DATA/machu_picchu-base; on it the shared overview, win rates (seat balance, bots, how games end)
and the strength of the 28 offering cards; the overview adds whether the gold multiplier decides
games and how the holders of each priest/virgin kind fare (overview.py). The win rates are also
played with 2, 3 and 5 players (DATA/machu_picchu-<n>p), for the seat balance by player count.
"""
from __future__ import annotations

from sim.analysis.report import (ReportSection, RunData, card_strength_section, overview_section,
                                 win_rates_section)

GAME = "machu_picchu"
PLAYERS = 4
BASE = RunData("machu_picchu-base", GAME, PLAYERS)
OTHER_COUNTS = (2, 3, 5)  # the seat balance at each other player count the game allows


def report_sections() -> tuple[ReportSection, ...]:
    """Machu Picchu's report pages, in the index's order: the overview, win rates and card strength
    with 4 players, then the win rates with 2, 3 and 5."""
    return (
        overview_section(BASE, "overview_machu_picchu", "Machu Picchu overview",
                         "The headline answers for Machu Picchu: seat balance, bots, scores, game length, how "
                         "games end, whether the gold multiplier decides them, the priest kinds and the strongest "
                         "offering cards.", by="seat", position_note="seat 0 is the start player of the first day",
                         sections="sim.games.machu_picchu.analysis.overview:overview_sections"),
        win_rates_section(BASE, name="win_rates_machu_picchu", title="Machu Picchu win rates and balance"),
        card_strength_section(BASE, name="card_strength_machu_picchu", title="Machu Picchu offering-card strength",
                              description="Which of the 28 offering cards go with winning: win rate when held "
                                          "(drawn at the summit or dealt), when kept to the end, and a seat- and "
                                          "bot-controlled estimate."),
        *(win_rates_section(RunData(f"machu_picchu-{n}p", GAME, n), name=f"win_rates_machu_picchu_{n}p",
                            title=f"Machu Picchu win rates and balance, {n} players",
                            description=f"Seat and start-player balance with {n} players (the default line-up "
                                        "round the table, seats rotated): win rates by seat and bot, score "
                                        "margins, game length, how games end.")
          for n in OTHER_COUNTS),
    )
