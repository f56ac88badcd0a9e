"""Work per game of the Cuzco bots: phase-I decisions, options valued, options played on a copy.

    python -m sim.games.cuzco.workcount [--players 4] [--games 300] [--variant FILE] [--lookahead] [--bots A,B,...]

Plays the default line-up on one thread and reads the running counters of the look-ahead record
(state.REC_COUNTS): the engine's cost is mostly options played on a copy, so this is the number
an evaluation change should move (benchmarks/HISTORY.md); milliseconds per game are printed beside it.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from sim.core import registry
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices
from sim.core.params import resolve_variant_file
from . import game as cuzco_game
from .bots import KIND_HEURISTIC, KIND_LOOKAHEAD
from .state import (ACTION_NAMES, COUNT_BY_ACTION, COUNT_CARD_TURNS, COUNT_DECISIONS, COUNT_EXCHANGE_STEPS, COUNT_MODELLED,
                    COUNT_OPTIONS, COUNT_PLAYS, N_COUNTS, REC_COUNTS)


def count_work(n_players: int, n_games: int, variant: str | None = None, seed: int = 7, lookahead: bool = False,
               bots: list[str] | None = None) -> dict:
    """Counters and CPU a game of the default line-up (or `bots`, one per seat); variant: a variant
    file (None: the base game)."""
    game = registry.get_game("cuzco")
    params = resolve_variant_file(game, variant)
    bot_names, lineup = lineup_indices(bots or list(game.default_bots(n_players)))
    kinds, weights = game.bot_arrays(bot_names)
    kinds, weights = kinds[np.array(lineup)], weights[np.array(lineup)]
    if lookahead:
        kinds = np.where(kinds == KIND_HEURISTIC, KIND_LOOKAHEAD, kinds)
    totals = np.zeros(N_COUNTS, np.int64)
    started = time.process_time()
    for i in range(n_games):
        arrays = cuzco_game.new_game_arrays(n_players, False)
        cuzco_game.play_one(params.engine, arrays, n_players, kinds, weights, np.uint64(seed), np.uint64(i), False, None)
        lrec = arrays[4]
        totals += lrec[REC_COUNTS:REC_COUNTS + N_COUNTS]
    seconds = time.process_time() - started
    return {"decisions": totals[COUNT_DECISIONS] / n_games, "options": totals[COUNT_OPTIONS] / n_games,
            "plays": totals[COUNT_PLAYS] / n_games, "modelled": totals[COUNT_MODELLED] / n_games,
            "exchange_steps": totals[COUNT_EXCHANGE_STEPS] / n_games, "card_turns": totals[COUNT_CARD_TURNS] / n_games,
            "by_action": {a: totals[COUNT_BY_ACTION + i] / n_games for i, a in enumerate(ACTION_NAMES)},
            "ms_per_game": 1000 * seconds / n_games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--variant", metavar="FILE", help="a variant file, e.g. variants/cuzco-pututu.toml (default: the base game)")
    parser.add_argument("--lookahead", action="store_true",
                        help="the same bots as kind lookahead: every phase-I option played on a copy")
    parser.add_argument("--bots", help="comma list, one bot per seat (default: the game's line-up)")
    args = parser.parse_args()
    bots = args.bots.split(",") if args.bots else None
    if bots is not None and len(bots) != args.players:
        raise UserError(f"--bots names {len(bots)} bots for {args.players} players")
    count_work(args.players, 5, args.variant, lookahead=args.lookahead, bots=bots)  # compile, or load from the cache
    work = count_work(args.players, args.games, args.variant, lookahead=args.lookahead, bots=bots)
    print(f"{args.games} games, {args.players} players, {args.variant or 'base'}: per game "
          f"{work['decisions']:.1f} phase-I decisions, {work['options']:.0f} options valued, "
          f"{work['plays']:.0f} played on a copy, {work['modelled']:.0f} modelled; {work['ms_per_game']:.2f} ms CPU a game (one thread)")
    print(f"  modelled: {work['exchange_steps']:.0f} exchange steps, {work['card_turns']:.0f} turns playing a card; turns by action: "
          + ", ".join(f"{a} {n:.0f}" for a, n in work["by_action"].items()))


if __name__ == "__main__":
    try:
        main()
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
