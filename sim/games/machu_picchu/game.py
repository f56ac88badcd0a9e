"""Machu Picchu as the core sees it: the batch kernel's output turned into columns, replay, GAME."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.game import CardGroup, ChunkResult, Params, TomlGame, replay_final_line
from sim.core.parallel import run_blocks
from . import data
from .rules import new_game_arrays, play_game, run_one
from .state import (
    D_MAIN_TEMPLE, DISTRICT_NAMES, END_REASON_NAMES, ERROR_NAMES, EV_CLOCK, EV_CLOCK_GOODS, EV_DAY, EV_DAY_CORN, EV_END,
    EV_FINAL, EV_MOON, EV_MOON_USE, EV_MOVE, EV_NUDGE, EV_OFFER, EV_PRIEST, EV_PRODUCE, EV_REWARD, EV_SCOUT,
    EV_SUMMIT, EV_SUN, EV_TAKE, EV_TRADE, EV_WORKER, GOOD_NAMES, KIND_NAMES, N_GOODS, N_KINDS, N_P,
    N_PRODUCTION, P_ACTIONS, P_CLOCK_STAYING, P_COMPENSATION, P_FREE_WORKERS, P_GOLD, P_GOODS, P_GOODS_VALUE,
    P_HAND, P_HAND_N, P_HELD, P_JUMPS, P_MOON_KIND, P_MOONS, P_MULTIPLIER, P_PRIESTS, P_RANK, P_SCORE,
    P_SCORE_PRIESTS, P_SCORE_TRAIL, P_SCORE_WORKERS, P_SCOUT, P_STEPS, P_SUMMITS, P_WON, P_WORKERS, S_ACTIONS,
    S_DAY, S_DAYS_PLAYED, S_DECK_SIZE, S_END_REASON, S_ERROR, S_LOG_N, S_MARKET, S_PRIESTS_LEFT, S_WINNER,
    S_PLAYERS, MOON_CORN, MOON_GOOD,
)

# Games-table columns: (column, state slot, dtype); market columns are added per good.
GAME_FIELDS = (
    ("n_rounds", S_DAYS_PLAYED, np.int16),
    ("winner_seat", S_WINNER, np.int8),
    ("end_reason", S_END_REASON, np.int8),
    ("last_day", S_DAY, np.int8),
    ("actions", S_ACTIONS, np.int16),
    ("priests_left", S_PRIESTS_LEFT, np.int8),
    ("offering_deck_left", S_DECK_SIZE, np.int8),
    *((f"market_{GOOD_NAMES[g]}", S_MARKET + g, np.int8) for g in range(1, N_GOODS)),
)
# Players-table columns: (column, P_* field of the seat, dtype); card and moon columns added per item.
PLAYER_FIELDS = (
    ("score", P_SCORE, np.int16),
    ("rank", P_RANK, np.int8),
    ("won", P_WON, np.bool_),
    ("gold", P_GOLD, np.int16),
    ("gold_multiplier", P_MULTIPLIER, np.int8),
    ("score_workers", P_SCORE_WORKERS, np.int16),
    ("score_priests", P_SCORE_PRIESTS, np.int16),
    ("score_trail", P_SCORE_TRAIL, np.int16),
    ("score_compensation", P_COMPENSATION, np.int16),
    ("goods_value", P_GOODS_VALUE, np.int16),
    ("scout_space", P_SCOUT, np.int8),
    ("trail_laps", P_SUMMITS, np.int16),
    ("trail_steps", P_STEPS, np.int16),
    ("offering_cards", P_HAND_N, np.int8),
    *((f"priests_{KIND_NAMES[k]}", P_PRIESTS + k, np.int8) for k in range(N_KINDS)),
    *((f"workers_{DISTRICT_NAMES[d]}", P_WORKERS + d, np.int8) for d in range(N_PRODUCTION)),
    ("workers_unplaced", P_FREE_WORKERS, np.int8),
    ("workers_sun_clock", P_CLOCK_STAYING, np.int8),
    *((f"{GOOD_NAMES[g]}_end", P_GOODS + g, np.int16) for g in range(N_GOODS)),
    ("actions", P_ACTIONS, np.int16),
    ("llama_jumps", P_JUMPS, np.int16),
    ("moon_tiles", P_MOONS, np.int16),
)
CARD_HELD = "offering_held_"  # times the card entered the hand (the one dealt at setup included)
CARD_KEPT = "offering_kept_"  # 1 when the card is in the hand at the end
MOON_TAKEN = "moon_"  # times each moon tile was taken


@njit(cache=True, nogil=True)
def play_games(lo, hi, P, n, seat_bots, bot_kinds, bot_weights, run_seed, first_game, checked, g_index, pl_index,
               out_game, out_player, errors):
    """Games lo..hi-1 of a chunk (sim.core.parallel.run_blocks spreads the blocks over threads); game
    i depends only on (run_seed, first_game + i). The slots named by g_index and pl_index are copied
    out of each game's final state."""
    kinds = np.empty(n, np.int8)
    W = np.empty((n, bot_weights.shape[1]), np.float64)
    st, stream, log = new_game_arrays(False)
    for i in range(lo, hi):
        for s in range(n):
            kinds[s] = bot_kinds[seat_bots[i, s]]
            W[s, :] = bot_weights[seat_bots[i, s], :]
        st[:] = 0
        play_game(P, st, stream, log, kinds, W, n, run_seed, first_game + np.uint64(i), checked)
        errors[i] = st[S_ERROR]
        for j in range(g_index.shape[0]):
            out_game[i, j] = st[g_index[j]]
        for s in range(n):
            for j in range(pl_index.shape[0]):
                out_player[i * n + s, j] = st[S_PLAYERS + s * N_P + pl_index[j]]


def player_columns_of(params: Params) -> list[tuple[str, int, type]]:
    """Every players-table column with its field: PLAYER_FIELDS, then one per offering card and moon tile."""
    cards, moons = data.card_names(params.resolved), data.moon_names(params.resolved)
    return [*PLAYER_FIELDS,
            *((f"{CARD_HELD}{name}", P_HELD + c, np.int8) for c, name in enumerate(cards)),
            *((f"{CARD_KEPT}{name}", P_HAND + c, np.int8) for c, name in enumerate(cards)),
            *((f"{MOON_TAKEN}{name}", P_MOON_KIND + t, np.int8) for t, name in enumerate(moons))]


def market_prices(params: Params, game_cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """market_price_<good>: what buying one costs at the end (the number a purchase uncovers, or
    the supply's fall-back when the column is empty), from the goods left in each column."""
    rules = params.resolved["rules"]
    out = {}
    for good in GOOD_NAMES[1:]:
        column = np.array([rules["market_buy_from_supply"], *params.resolved["market"][good]], np.int64)
        out[f"market_price_{good}"] = column[game_cols[f"market_{good}"].astype(np.int64)].astype(np.int8)
    return out


class MachuPicchu(TomlGame):
    name = "machu_picchu"
    description = ("The Princes of Machu Picchu (Mac Gerdts, 2008): princes, workers, priests and the "
                   "Inca Trail to the summit's offering cards, 2-5 players.")
    default_players = 4
    data = data
    card_groups = (CardGroup(name="offering card", held=CARD_HELD, kept=CARD_KEPT),)

    def report_sections(self) -> tuple:
        """Machu Picchu's report pages (sim/games/machu_picchu/analysis/report.py)."""
        from .analysis import report_sections
        return report_sections()

    def simulate(self, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                 run_seed: int, first_game: int, n_games: int, checked: bool = False) -> ChunkResult:
        kinds, weights = self.bot_arrays(bot_names)
        player_fields = player_columns_of(params)
        g_index = np.array([slot for _, slot, _ in GAME_FIELDS], np.int64)
        pl_index = np.array([field for _, field, _ in player_fields], np.int64)
        out_game = np.zeros((n_games, len(GAME_FIELDS)), np.int64)
        out_player = np.zeros((n_games * n_players, len(player_fields)), np.int64)
        errors = np.zeros(n_games, np.int64)
        run_blocks(play_games, n_games, params.engine, n_players, np.ascontiguousarray(seat_bots, np.int8), kinds,
                   weights, np.uint64(run_seed), np.uint64(first_game), checked, g_index, pl_index, out_game,
                   out_player, errors)
        game_cols = {name: out_game[:, j].astype(dt) for j, (name, _, dt) in enumerate(GAME_FIELDS)}
        game_cols.update(market_prices(params, game_cols))
        player_cols = {name: out_player[:, j].astype(dt) for j, (name, _, dt) in enumerate(player_fields)}
        failures = [(first_game + int(i), f"engine error: {ERROR_NAMES[int(errors[i])]}")
                    for i in np.flatnonzero(errors)]
        return ChunkResult(game_cols, player_cols, {"end_reason": list(END_REASON_NAMES)}, failures)

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        kinds, weights = self.bot_arrays(bot_names)
        rows = np.asarray(seat_bots_row)
        st, log = run_one(params.engine, n_players, kinds[rows], weights[rows], np.uint64(run_seed),
                          np.uint64(game_index), False, True)
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
