"""Cuzco's report pages: what `sim report` builds for Cuzco (the main job), and Cuzco's part of the
overview.

`report_sections()` is Cuzco's report hook (the game contract's `report_sections`, asked by
sim/analysis/report.py): Cuzco base and Cuzco with the Pututu module, 4 players, `sim report
--games` games each (200,000 by default) from the same seed with seats rotated, in DATA/cuzco-base
and DATA/cuzco-pututu; on them the overview, win rates, dice odds, card strength and the
base-vs-Pututu comparison; the balance search's page (the starting VP that makes the first player
fair, from a `sim balance` evidence kept in sim/games/cuzco/balance/); and the bots' pages: the
tournament of the tuned heuristic bots, the skill ladder random < temple < temple-tuned < search
(two ladder datasets) and the tuned bots (read from bots.tuned.toml and tune_logs/, no simulated
dataset). The page names, and so the
report's links, are the ones the report has always had.
"""
from __future__ import annotations

from sim.analysis.balance import balance_section
from sim.analysis.report import (GamesShare, LadderData, OverviewSection, ReportSection, RunData, TournamentData,
                                 card_strength_section, comparison_section, ladder_section, overview_section,
                                 tournament_section, tuning_section, win_rates_section)

GAME = "cuzco"
PLAYERS = 4
PUTUTU_VARIANT = "variants/cuzco-pututu.toml"
BASE = RunData("cuzco-base", GAME, PLAYERS)
PUTUTU = RunData("cuzco-pututu", GAME, PLAYERS, PUTUTU_VARIANT)

# The meta-game: random, untuned temple (the reference) and the four tuned styles of the default
# line-up (126 line-ups at 4 players). Listed by name, so bots added later (the search bot) do not
# silently grow its cost. 1 in 500 of --games per line-up, at most 400: 50,400 games, about 3
# minutes, at the main job's 200,000.
TOURNAMENT_BOTS = ("random", "temple", "balanced-tuned", "temple-tuned", "runner-tuned", "market-tuned")
TOURNAMENT_SHARE = GamesShare(per=500, cap=400)

# The skill ladder random < temple < temple-tuned < search at 4 players. The search bot takes about
# 2 s of CPU a game per search seat, so its rung is a dataset of its own with far fewer games per
# line-up than the heuristic rungs (one dataset plays every line-up the same number of games):
# data/cuzco-ladder, 1 in 100 of --games per line-up, at most 2,000 (4 line-ups: some 25
# CPU-seconds at the main job's 200,000); data/cuzco-ladder-search, 1 in 5,000, at most 40 (2
# line-ups, search alone against 3 temple-tuned and temple-tuned alone against 3 search: 160 search
# seat-games, some 5 CPU-minutes). The search rung's intervals are wide (about +-13 points at 40).
LADDER = ("random", "temple", "temple-tuned", "search")
LADDER_SHARE = GamesShare(per=100, cap=2000)
SEARCH_LADDER_SHARE = GamesShare(per=5000, cap=40)

# What would make the first player fair: the evidence of a `sim balance` search (the starting VP by
# turn order written as 0,x,2x,3x, the first player's 4-player win rate to 25% +- 1 point), kept
# in the repository because the search takes minutes (its manifest holds the command).
BALANCE_EVIDENCE = "sim/games/cuzco/balance/first-player-start-vp"
# The same search with stronger line-ups seated, so the answer is given at three levels of play
# (issue 36): the league's last generation, and the top heuristic rung, the default line-up (the
# league's balanced-g2 with the best responses temple-g5, runner-g3 and market-g3; seats permuted).
BALANCE_EVIDENCE_LEAGUE = "sim/games/cuzco/balance/first-player-start-vp-league"
BALANCE_EVIDENCE_DEFAULT = "sim/games/cuzco/balance/first-player-start-vp-default"


def report_sections() -> tuple[ReportSection, ...]:
    """Cuzco's report pages, in the index's order: the bots' meta-game, their skill ladder and the
    tuned bots, then the base game and base against Pututu."""
    heuristic = LadderData("cuzco-ladder", GAME, LADDER[:3], LADDER_SHARE, PLAYERS)
    search = LadderData("cuzco-ladder-search", GAME, LADDER[2:], SEARCH_LADDER_SHARE, PLAYERS)
    return (
        tournament_section(TournamentData("cuzco-tournament", GAME, TOURNAMENT_BOTS, TOURNAMENT_SHARE, PLAYERS),
                           "tournament_cuzco", "Cuzco bots and the meta-game"),
        ladder_section(heuristic, search, "ladder_cuzco", "Cuzco skill ladder",
                       f"Is each bot stronger than the one below it ({' < '.join(LADDER)})? Head-to-head "
                       "win rates with intervals, seats rotated, the same seeds; the search rung plays "
                       "{search.games} games per line-up (seconds a game), the others {dataset.games:,}."),
        tuning_section(GAME),
        overview_section(BASE, "overview_cuzco", "Cuzco overview",
                         "The headline answers for Cuzco: seat balance, bots, scores, game length, dice and the "
                         "strongest cards.", by="start_order",
                         position_note="Cuzco deals the turn order at random every game",
                         sections="sim.games.cuzco.analysis:overview_sections"),
        win_rates_section(BASE),
        ReportSection("dice_odds", "dice_odds", "Dice odds",
                      "Exact dice probabilities next to the simulated frequencies: doubles and triples, "
                      "where a die can still be placed, where dice go, what the Pututu tiles change.",
                      {"dataset": BASE, "pututu": PUTUTU}, labels={"pututu": "with Pututu"}),
        card_strength_section(BASE, description="Which god cards, people, missions and goods win games: win "
                                                "rate when held, when played, improvement when played, and a "
                                                "seat- and bot-controlled estimate."),
        comparison_section(BASE, PUTUTU, title="Base game vs Pututu module",
                           description="What the Pututu module changes: seat balance, scores, game length, bots "
                                       "and cards, each difference with an interval, on the same seeds."),
        balance_section(BALANCE_EVIDENCE, "balance_cuzco", "Cuzco: what would make the first player fair?",
                        "Which starting VP by turn order brings the first player's 4-player win rate to 25% +- 1 "
                        "point: every value the balance search played, with its 95% interval and games (the "
                        "tuned styles seated).", GAME),
        balance_section(BALANCE_EVIDENCE_LEAGUE, "balance_cuzco_league",
                        "Cuzco: what would make the first player fair, with stronger play?",
                        "The same balance search with the league's last generation seated: does the fair "
                        "starting VP move with the level of play?", GAME),
        balance_section(BALANCE_EVIDENCE_DEFAULT, "balance_cuzco_default",
                        "Cuzco: what would make the first player fair, at the top heuristic rung?",
                        "The same balance search with the default line-up seated (the league's balanced-g2 and "
                        "the best responses temple-g5, runner-g3 and market-g3, played by the fast kind; seats "
                        "permuted): the answer beside the tuned styles' and the league's.", GAME),
    )


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def overview_sections(ds) -> list[OverviewSection]:
    """What Cuzco adds to the overview of a dataset: the exact chance of a double or triple and the
    simulated share per roll next to it."""
    from sim.games.cuzco.analysis.dice import _n_dice, exact_roll_odds, roll_odds

    n_dice = _n_dice(ds)
    rolls = roll_odds(ds)
    per_roll = (rolls.table[rolls.table["section"] == "per roll"], rolls.figure)
    return [OverviewSection("Dice", f"The exact chance of a double or triple with {NUMBER_WORDS.get(n_dice, n_dice)} "
                                    f"dice, and the simulated share next to it.",
                            [exact_roll_odds(n_dice), per_roll])]
