"""`sim replay`: one game replayed from its seed with the event log on, told as text."""
from __future__ import annotations

import numpy as np

from . import data
from . import rules as R
from .bots import BOT_SEARCH
from .search import play_game_search
from .state import ELIMINATION_NAMES, END_REASON_NAMES, END_STALEMATE, S_LOG_N, new_log, new_state

DRAW_REASONS = {R.DRAW_ROUND: "end-of-round draw", R.DRAW_FILL: "three-cards rule",
                R.DRAW_TOKEN: "hidden-treasure refill", R.DRAW_EFFECT: "treasure effect",
                R.DRAW_PAIR: "tracker pair", R.DRAW_DEAL: "opening hand"}


def replay_lines(params, n_players, seat_names, seat_kinds, seat_weights, seat_budgets, run_seed,
                 game_index) -> list[str]:
    st = new_state(params.engine, n_players)
    log = new_log(True)
    kinds = np.asarray(seat_kinds, np.int8)
    weights = np.asarray(seat_weights, np.float64)
    with np.errstate(over="ignore"):
        if (kinds == BOT_SEARCH).any():  # as game.play_games: search line-ups play through search.py
            play_game_search(params.engine, st, log, kinds, weights, np.asarray(seat_budgets, np.float64),
                             np.uint64(run_seed), np.uint64(game_index), False)
        else:
            R.play_game(params.engine, st, log, kinds, weights, np.uint64(run_seed), np.uint64(game_index), False)
    seats = ", ".join(f"seat {s} ({seat_names[s]})" for s in range(n_players))
    return [f"chachapoya, {n_players} players, run seed {run_seed}, game {game_index}, variant {params.variant_name}",
            f"seats: {seats}"] + event_lines(params, st, log, seat_names)


def event_lines(params, st, log, seat_names) -> list[str]:
    """The events a game logged (its log made with logging on), one line each."""
    tnames = data.treasure_names(params.resolved)
    anames = data.adventurer_names(params.resolved)
    log = log[: st[S_LOG_N]]

    def card(t):
        return tnames[t] if t >= 0 else "-"

    def who(s):
        return f"seat {s} ({seat_names[s]})"

    lines = []
    for ev, a, b, c, d, e, f in log:
        if ev == R.EV_ROUND:
            again = " (the same offer again, 2-player rule)" if d else ""
            lines.append(f"-- round {a}: start player seat {b}, treasure deck {c}{again}")
        elif ev == R.EV_OFFER_DRAWN:
            lines.append(f"   {who(a)} draws {card(b)}, {card(c)}, {card(d)}")
        elif ev == R.EV_OFFER:
            lines.append(f"   offer: face up {card(b)}, face down {card(c)} (to the bottom: {card(d)})")
        elif ev == R.EV_LAST_OFFER:
            shown = ", ".join(card(x) for x in (b, c, d)[:a])
            lines.append(f"   last round: {a} cards face down ({shown})")
        elif ev == R.EV_BID:
            joker = " + tracker" if c and d else ""
            lines.append(f"   {who(a)} bids {c} x {anames[b]}{joker}" + (f" = {e}" if e else ""))
        elif ev == R.EV_PAIR_CANCEL:
            lines.append(f"   {who(a)}'s tracker pair cancels the bidding" + ("" if b else " (its player declines the draw)"))
        elif ev == R.EV_PAIRS_KNOCKED:
            lines.append(f"   {a} tracker pairs knock each other out (nobody draws three); the other bids decide")
        elif ev == R.EV_LEADER_RESOLVED:
            lines.append(f"   {who(a)}'s {anames[b]} resolves")
        elif ev == R.EV_TIE_KNOCKOUT:
            lines.append(f"   {b} bids of {a} tie and knock each other out")
        elif ev == R.EV_LEADER_UNRESOLVED:
            lines.append(f"   {who(a)}'s {anames[b]} does not resolve" + (f" ({c} points)" if c else ""))
        elif ev == R.EV_CLASH:
            lines.append("   two leaders neutralise each other: the same cards are bid for again")
        elif ev == R.EV_WINNER:
            lines.append(f"   {who(a)} wins the bidding" + (" and takes one card" if c else ""))
        elif ev == R.EV_NO_WINNER:
            lines.append("   nobody wins: the cards go to the bottom of the deck")
        elif ev == R.EV_TAKE:
            lines.append(f"   {who(a)} takes {card(b)}")
        elif ev == R.EV_RETURN:
            lines.append(f"   {card(a)} goes to the bottom of the treasure deck")
        elif ev == R.EV_ELIMINATED:
            lines.append(f"   {who(a)} is eliminated ({ELIMINATION_NAMES[b]}: too many {card(c)})")
        elif ev == R.EV_CURSE_LOSS:
            lines.append(f"   the curse takes {who(a)}'s {card(b)}")
        elif ev == R.EV_DRAW:
            lines.append(f"   {who(a)} draws {b} ({DRAW_REASONS.get(c, c)})")
        elif ev == R.EV_RESHUFFLE:
            lines.append(f"   the discard pile ({a} cards) is shuffled into a new adventurer deck")
        elif ev == R.EV_TOKEN_PLACED:
            lines.append(f"   {who(a)} puts the hidden-treasure token on {card(b)}")
        elif ev == R.EV_FINAL:
            status = " (eliminated)" if d else ""
            lines.append(f"   final: {who(a)} scores {b}, rank {c}{status}")
        elif ev == R.EV_END:
            stalled = ""
            if a == END_STALEMATE:
                n = params.resolved["rules"]["stalemate_rounds"]
                stalled = f" ({n} rounds in a row without a treasure acquired: no winner)"
            lines.append(f"-- game over: {END_REASON_NAMES[a]}{stalled}")
    return lines
