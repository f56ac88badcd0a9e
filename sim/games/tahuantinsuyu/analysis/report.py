"""Tahuantinsuyu's report pages: what `sim report` builds for Tahuantinsuyu.

`report_sections()` is the game's report hook: the base game, 4 players, `sim report --games`
games from the same seed with seats rotated, in DATA/tahuantinsuyu-base; on it the shared
overview (with Tahuantinsuyu's own sections, overview.py: suyu balance, the catch-up transfers and
the lead, VP by source, the Sun cards that swing games), win rates and the Sun cards' strength
(played and suffered); the same games without the catch-up transfers (variant
variants/tahuantinsuyu-no-transfers.toml) compared with the base game; and the win rates with 3
players.
"""
from __future__ import annotations

from sim.analysis.report import (ReportSection, RunData, card_strength_section, comparison_section,
                                 overview_section, win_rates_section)

GAME = "tahuantinsuyu"
PLAYERS = 4
BASE = RunData("tahuantinsuyu-base", GAME, PLAYERS)
NO_TRANSFERS = RunData("tahuantinsuyu-no-transfers", GAME, PLAYERS, "variants/tahuantinsuyu-no-transfers.toml")
THREE = RunData("tahuantinsuyu-3p", GAME, 3)


def report_sections() -> tuple[ReportSection, ...]:
    """Tahuantinsuyu's report pages, in the index's order."""
    return (
        overview_section(BASE, "overview_tahuantinsuyu", "Tahuantinsuyu overview",
                         "The headline answers for Tahuantinsuyu: seat (suyu) balance, bots, scores, whether the "
                         "catch-up transfers keep the game close, where the VP come from, and the Sun cards that "
                         "swing games.", by="seat",
                         position_note="seat s plays suyu s (Chinchaysuyu, Antisuyu, Collasuyu, Cuntisuyu); the "
                                       "first turn order is dealt at random (start_order)",
                         sections="sim.games.tahuantinsuyu.analysis.overview:overview_sections"),
        win_rates_section(BASE, name="win_rates_tahuantinsuyu", title="Tahuantinsuyu win rates and balance"),
        card_strength_section(BASE, name="card_strength_tahuantinsuyu", title="Tahuantinsuyu Sun-card strength",
                              description="Which of the 21 Sun cards go with winning: win rate when held, when "
                                          "played, and when suffered (laid beside the player), with a seat- and "
                                          "bot-controlled estimate."),
        comparison_section(BASE, NO_TRANSFERS, name="variant_comparison_tahuantinsuyu",
                           title="Tahuantinsuyu with and without the catch-up transfers",
                           description="Do the catch-up transfers pull the scores together? Margins, lead "
                                       "changes, seat balance and bots with and without them, on the same seeds."),
        win_rates_section(THREE, name="win_rates_tahuantinsuyu_3p", title="Tahuantinsuyu win rates, 3 players",
                          description="Seat (suyu) balance with 3 players on the 3-player map (the default line-up "
                                      "round the table, seats rotated): win rates by seat and bot, score margins."),
    )
