"""How often the default bots took each alternative of the choices issue 35 made theirs.

    python -m sim.games.cuzco.choicecount [--players 4] [--games 1000] [--seed 7] [--variant FILE]

Plays the default line-up (seats rotated) on one thread and sums the choice counters the rules
keep per seat (state.STAT_CHOICE + CH_*; no output column): the duplicate-colour card kept at
setup, each card paid from the hand or with a medal while the other way was open too, the overlay
turned or kept, the arm left at the village reached, a jump to an outer village, the exchange's
slide-down and Iliapa 02's slide-up (the most valuable tile or another), Viracocha 09's tile kind,
Mama Quilia 06's destination, the feather slot, the cards a phase-I turn played, and a card a
turn's medal turned up used by a second medal on its god or not.
"""
from __future__ import annotations

import argparse
import sys

import numpy as np

from sim.core import registry
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices
from sim.core.params import resolve_variant_file
from . import game as cuzco_game
from . import state as S


def count_choices(n_players: int, n_games: int, variant: str | None = None, seed: int = 7) -> np.ndarray:
    """The CH_* counters summed over every seat of n_games games of the default line-up."""
    game = registry.get_game("cuzco")
    params = resolve_variant_file(game, variant)
    bot_names, lineup = lineup_indices(list(game.default_bots(n_players)))
    kinds, weights = game.bot_arrays(bot_names)
    totals = np.zeros(S.N_CHOICE, np.int64)
    for i in range(n_games):
        order = np.roll(np.array(lineup), i % n_players)
        arrays = cuzco_game.new_game_arrays(n_players, False)
        cuzco_game.play_one(params.engine, arrays, n_players, kinds[order], np.ascontiguousarray(weights[order]),
                            np.uint64(seed), np.uint64(i), False, None)
        rec = arrays[1]
        for p in range(n_players):
            base = S.REC_STATS + p * S.N_STAT + S.STAT_CHOICE
            totals += rec[base:base + S.N_CHOICE]
    return totals


def rows(totals: np.ndarray) -> list[tuple[str, str]]:
    """(choice, alternatives taken) lines of the README's table."""
    t = [int(x) for x in totals]
    out = [("setup 15: duplicate colour, which card kept (first dealt / second / same ability)",
            f"{t[S.CH_SETUP_KEEP_FIRST]} / {t[S.CH_SETUP_KEEP_SECOND]} / {t[S.CH_SETUP_SAME]}")]
    for c in range(S.N_CARDS):
        card, medal = t[S.CH_PAID_CARD + c], t[S.CH_PAID_MEDAL + c]
        if card or medal:
            out.append((f"card {c + 1:02d} ({S.CARD_NAMES[c]}) with both ways open: hand / medal", f"{card} / {medal}"))
    arms = " / ".join(str(t[S.CH_ARM_BACK + k]) for k in range(1, 7))
    out += [("overlay free to turn when leaving Cuzco: kept / turned",
             f"{t[S.CH_ROTATION_KEPT]} / {t[S.CH_ROTATION_TURNED]}"),
            ("arm left at the inner village reached, by its pips 1 / 2 / 3 / 4 / 5 / 6", arms),
            ("14 jump from Cuzco to an outer village, overlay turned as chosen", str(t[S.CH_JUMP_OUTER])),
            ("exchange slide-down: the most valuable tile / another",
             f"{t[S.CH_SLIDE_DOWN_DEAREST]} / {t[S.CH_SLIDE_DOWN_OTHER]}"),
            ("Iliapa 02 slide-up: the most valuable slid tile / another / left down",
             f"{t[S.CH_SLIDE_UP_DEAREST]} / {t[S.CH_SLIDE_UP_OTHER]} / {t[S.CH_SLIDE_UP_NONE]}"),
            ("Viracocha 09 discard tile: study / farm", f"{t[S.CH_DISCARD_TILE_STUDY]} / {t[S.CH_DISCARD_TILE_FARM]}"),
            ("Mama Quilia 06 destination: the victory-point space / another space",
             f"{t[S.CH_MOVE_DIE_TO_VP]} / {t[S.CH_MOVE_DIE_ELSEWHERE]}"),
            ("feather slot (the starting one included): the slot of the fixed rule before issue 35 / another",
             f"{t[S.CH_FEATHER_SLOT_FIXED]} / {t[S.CH_FEATHER_SLOT_OTHER]}"),
            ("phase-I turns by the cards in their card slots (08, 10 aside) 0 / 1 / 2 / 3 / 4",
             " / ".join(str(t[S.CH_TURN_CARDS + k]) for k in range(5)))]
    for k, name in enumerate(("08 on the blessing", "09 on the people tile", "05 after the turn")):
        out.append((f"second medal on one god: {name}, turned up by the turn's medal: used / left",
                     f"{t[S.CH_FOLLOW_TAKEN + k]} / {t[S.CH_FOLLOW_DECLINED + k]}"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variant", metavar="FILE", help="a variant file (default: the base game)")
    args = parser.parse_args()
    if args.games < 1 or not 2 <= args.players <= 4:
        raise UserError("--games must be at least 1 and --players 2-4")
    totals = count_choices(args.players, args.games, args.variant, args.seed)
    print(f"{args.games} games, {args.players} players, {args.variant or 'base'}, seed {args.seed}, default line-up")
    print("| choice | alternatives taken |\n|---|---|")
    for name, value in rows(totals):
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    try:
        main()
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
