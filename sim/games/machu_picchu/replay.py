"""`sim replay` for Machu Picchu: one game played again from its seed with the log on, told event by
event and ended with one replay_final_line per seat (kept apart from game.py, whose compiled
kernel would be recompiled by an edit of this text)."""
from __future__ import annotations

import numpy as np

from sim.core.game import Params, replay_final_line
from . import data
from .game import play_one_logged, search_budgets_of, search_flag
from .state import (
    D_MAIN_TEMPLE, DISTRICT_NAMES, END_REASON_NAMES, ERROR_NAMES, EV_CLOCK, EV_CLOCK_GOODS, EV_DAY, EV_DAY_CORN,
    EV_END, EV_FINAL, EV_MOON, EV_MOON_USE, EV_MOVE, EV_NUDGE, EV_OFFER, EV_PRIEST, EV_PRODUCE, EV_REWARD,
    EV_SCOUT, EV_SUMMIT, EV_SUN, EV_TAKE, EV_TRADE, EV_WORKER, GOOD_NAMES, KIND_NAMES, MOON_CORN, MOON_GOOD,
    N_GOODS, N_P, P_WON, S_ERROR, S_LOG_N, S_PLAYERS,
)


def replay_lines(params: Params, n_players: int, bot_names: list[str], rows: np.ndarray, kinds: np.ndarray,
                 weights: np.ndarray, run_seed: int, game_index: int) -> list[str]:
    """The log of one game as lines of text (a game with a search seat is played again with its search,
    as the batch played it)."""
    budgets = search_budgets_of(bot_names, search_flag(kinds, rows))
    st, log = play_one_logged(params.engine, n_players, rows, kinds, weights, budgets, run_seed, game_index)
    seats = [f"seat {s} ({bot_names[rows[s]]})" for s in range(n_players)]
    lines = [f"Machu Picchu, {n_players} players, seed {run_seed}, game {game_index}"]
    moons = data.moon_names(params.resolved)
    for ev, a, b, c, d, e, _ in log[:st[S_LOG_N]].tolist():
        line = describe_event(ev, a, b, c, d, e, seats, moons)
        if ev == EV_FINAL:
            line = replay_final_line(a, bot_names[rows[a]], b, c, bool(st[S_PLAYERS + a * N_P + P_WON])) + line
        lines.append(line)
    if st[S_ERROR]:
        lines.append(f"engine error: {ERROR_NAMES[int(st[S_ERROR])]}")
    return lines


def describe_event(ev: int, a: int, b: int, c: int, d: int, e: int, seats: list[str], moons: list[str]) -> str:
    """One log row as a line of text (sim replay)."""
    def mask_names(mask: int) -> str:
        return "+".join(GOOD_NAMES[g] for g in range(N_GOODS) if mask & (1 << g)) or "nothing"

    if ev == EV_DAY:
        return f"-- day {a}, start player seat {b}"
    if ev == EV_MOVE:
        return f"   {seats[a]} moves to {DISTRICT_NAMES[b]}" + (" (pays a llama)" if c else "")
    if ev == EV_MOON:
        return f"   {seats[a]} stays and takes moon tile {moons[b]} ({c} taken today)"
    if ev == EV_SUN:
        return f"   {seats[a]} takes the sun tile"
    if ev == EV_TAKE:
        return f"     {seats[a]} takes {c} from {DISTRICT_NAMES[b]}"
    if ev == EV_PRODUCE:
        return f"     {seats[a]}'s workers produce {d} {GOOD_NAMES[c]}"
    if ev == EV_OFFER:
        what = mask_names(c) if b == D_MAIN_TEMPLE else f"{c} llama(s)"
        return f"     {seats[a]} offers {what} at {DISTRICT_NAMES[b]}: {d} steps"
    if ev == EV_WORKER:
        return f"     {seats[a]} places a worker on {DISTRICT_NAMES[b]}"
    if ev == EV_PRIEST:
        return f"     {seats[a]} takes a {KIND_NAMES[b]} card"
    if ev == EV_TRADE:
        return f"     {seats[a]} {'buys' if c > 0 else 'sells'} {GOOD_NAMES[b]} for {d} corn"
    if ev == EV_NUDGE:
        return f"     {seats[a]} {'adds' if c > 0 else 'removes'} one {GOOD_NAMES[b]} in the market"
    if ev == EV_CLOCK:
        return f"     {seats[a]} moves a worker from {DISTRICT_NAMES[b]} to the Sun Clock"
    if ev == EV_CLOCK_GOODS:
        return f"     {seats[a]} takes {mask_names(b)} (Sun Clock)"
    if ev == EV_SCOUT:
        return f"     {seats[a]}'s scout {b} + {c} -> {d}"
    if ev == EV_SUMMIT:
        return f"     {seats[a]} reaches the summit: draws {b}, puts back {c}"
    if ev == EV_REWARD:
        return f"     {seats[a]} takes the trail's {b} corn and {c} llama(s)"
    if ev == EV_MOON_USE:
        use = "3 corn" if c == MOON_CORN else "its good for 1 corn" if c == MOON_GOOD else "its steps"
        return f"   night: {seats[a]} uses moon tile {moons[b]}: {use}"
    if ev == EV_DAY_CORN:
        return f"   {seats[a]} acts last and takes {b} corn from the time track"
    if ev == EV_END:
        return f"-- game over: {END_REASON_NAMES[a]}"
    if ev == EV_FINAL:
        return f"; gold {d}, x{e}"
    return f"   event {ev}: {a} {b} {c} {d} {e}"
