"""`sim replay` for Tahuantinsuyu: one game played again from its seed with the log on, told event
by event and ended with one replay_final_line per seat (kept apart from game.py, whose compiled
kernel would be recompiled by an edit of this text)."""
from __future__ import annotations

import numpy as np

from sim.core.game import Params, replay_final_line
from . import data
from .game import play_one_logged, search_budgets_of, search_flag
from .state import (
    ERROR_NAMES, EV_BUILD, EV_CARDS, EV_CONQUER, EV_FINAL, EV_INCOME, EV_OUTPOST, EV_PASS, EV_PHASE, EV_PILGRIM,
    EV_PIZARRO, EV_POPULAR, EV_ROAD, EV_ROUND, EV_SCORE, EV_SUN_PLAY, EV_SUN_REVEAL, EV_TRANSFER, EV_UNREST,
    EV_WILD, N_P, PHASE_NAMES, P_WON, SUN_NAMES, SUYU_NAMES, S_ERROR, S_LOG_N, S_PLAYERS, TILE_NAMES, T_TERRACE,
)


def replay_lines(params: Params, n_players: int, bot_names: list[str], rows: np.ndarray, kinds: np.ndarray,
                 weights: np.ndarray, run_seed: int, game_index: int) -> list[str]:
    """The log of one game as lines of text (played by the batch kernel, the search one when a seat
    searches: game.play_one_logged)."""
    budgets = search_budgets_of(bot_names, search_flag(kinds, np.asarray(rows).reshape(1, -1)))
    st, log = play_one_logged(params.engine, n_players, rows, kinds, weights, budgets, run_seed, game_index)
    seats = [f"seat {s} ({SUYU_NAMES[s]}, {bot_names[rows[s]]})" for s in range(n_players)]
    names = Names(data.site_names(params.resolved), data.region_names(params.resolved),
                  data.road_pairs(params.resolved))
    lines = [f"Tahuantinsuyu, {n_players} players, seed {run_seed}, game {game_index}"]
    for ev, a, b, c, d, e, _ in log[:st[S_LOG_N]].tolist():
        line = describe_event(ev, a, b, c, d, e, seats, names)
        if ev == EV_FINAL:
            line = replay_final_line(a, bot_names[rows[a]], b, c, bool(st[S_PLAYERS + a * N_P + P_WON])) + line
        lines.append(line)
    if st[S_ERROR]:
        lines.append(f"engine error: {ERROR_NAMES[int(st[S_ERROR])]}")
    return lines


class Names:
    def __init__(self, sites: list[str], regions: list[str], roads: list[tuple[str, str]]):
        self.sites, self.regions, self.roads = sites, regions, roads


def describe_event(ev: int, a: int, b: int, c: int, d: int, e: int, seats: list[str], names: Names) -> str:
    """One log row as a line of text (sim replay)."""
    if ev == EV_ROUND:
        return f"== round {a}"
    if ev == EV_PHASE:
        return f"-- {PHASE_NAMES[a]} phase"
    if ev == EV_INCOME:
        return f"   {seats[a]} receives {e} labour (resources {b}, chips {c}, terraces {d})"
    if ev == EV_TRANSFER:
        return f"   {seats[a]} gives {c} labour to {seats[b]}"
    if ev == EV_CARDS:
        return f"   {seats[a]} takes Turn Sequence card {b}"
    if ev == EV_SUN_PLAY:
        return f"   {seats[a]} plays a Sun card face down into gap {c}"
    if ev == EV_SUN_REVEAL:
        return f"   gap {a}: {SUN_NAMES[b]}"
    if ev == EV_UNREST:
        return f"   Rural Unrest destroys {b} road(s) of {seats[a]}"
    if ev == EV_POPULAR:
        return f"   Popular Support gives {seats[a]} {b} labour"
    if ev == EV_ROAD:
        x, y = names.roads[b]
        return f"   {seats[a]} builds a road {x} - {y}" + ("" if c else " (paid)")
    if ev == EV_WILD:
        return f"   {seats[a]} builds a Wilderness Road {names.sites[b]} - {names.sites[c]}"
    if ev == EV_BUILD:
        where = names.regions[c] if b == T_TERRACE else names.sites[c]
        return f"   {seats[a]} builds a {TILE_NAMES[b]} at {where} for {d} labour: {e} VP"
    if ev == EV_CONQUER:
        return f"   {seats[a]} conquers {names.regions[b]} for {c} labour: {d} VP"
    if ev == EV_PILGRIM:
        return f"   {seats[a]} goes on a pilgrimage to {names.sites[b]}: {c} VP"
    if ev == EV_OUTPOST:
        return f"   {seats[a]} turns the garrison at {names.sites[b]} into a city (Key Outpost) for {c} labour: {d} VP"
    if ev == EV_SCORE:
        return (f"   {seats[a]} scores {b} VP" if c == 0 else f"   {seats[a]} returns {c} labour above next round's")
    if ev == EV_PIZARRO:
        return f"-- Pizarro arrives after People phase {b} of round {a}"
    if ev == EV_PASS:
        return f"   {seats[a]} passes the building action"
    if ev == EV_FINAL:
        return ""
    return f"   event {ev}: {a} {b} {c} {d} {e}"
