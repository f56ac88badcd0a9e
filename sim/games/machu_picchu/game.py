"""Machu Picchu as the core sees it: the batch kernel, its output turned into columns, and GAME
(replay.py tells a game again for `sim replay`)."""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.game import CardGroup, ChunkResult, Params, TomlGame
from sim.core.parallel import run_blocks
from sim.core.search import search_choice_columns
from . import data
from .rules import new_game_arrays, play_game
from .search import N_CFG, play_game_search
from .state import (
    DISTRICT_NAMES, END_REASON_NAMES, ERROR_NAMES, GOOD_NAMES, KIND_NAMES, KIND_SEARCH, LOG_CAPACITY, LOG_WIDTH,
    N_GOODS, N_KINDS, N_P, N_PRODUCTION, N_STATE,
    P_ACTIONS, P_CLOCK_STAYING, P_COMPENSATION, P_FREE_WORKERS, P_GOLD, P_GOODS, P_GOODS_VALUE, P_HAND, P_HAND_N,
    P_HELD, P_START_ORDER, P_JUMPS, P_LLAMAS_OFFERED, P_MAIN_OFFERED, P_MOON_KIND, P_MOONS, P_MULTIPLIER, P_PRIESTS, P_RANK, P_SCORE, P_SCORE_PRIESTS,
    P_SCORE_TRAIL, P_SCORE_WORKERS, P_SCOUT, P_STEPS, P_SUMMITS, P_TRADES, P_WON, P_WORKERS, P_SEARCH_STATS, SEARCH_KIND_NAMES, S_ACTIONS, S_DAY,
    S_DAYS_PLAYED, S_DECK_SIZE, S_END_REASON, S_ERROR, S_MARKET, S_PLAYERS, S_PRIESTS_LEFT, S_WINNER,
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
    ("start_order", P_START_ORDER, np.int8),
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
    ("trades", P_TRADES, np.int16),
    ("llamas_offered", P_LLAMAS_OFFERED, np.int16),
    ("main_offered", P_MAIN_OFFERED, np.int16),
)
CARD_HELD = "offering_held_"  # times the card entered the hand (the one dealt at setup included)
CARD_KEPT = "offering_kept_"  # 1 when the card is in the hand at the end
MOON_TAKEN = "moon_"  # times each moon tile was taken


@njit(cache=True, nogil=True)
def play_games(lo, hi, P, n, seat_bots, bot_kinds, bot_weights, bot_budgets, run_seed, first_game, checked,
               with_search, g_index, pl_index, out_game, out_player, errors, log, final_state):
    """Games lo..hi-1 of a chunk (sim.core.parallel.run_blocks spreads the blocks over threads); game
    i depends only on (run_seed, first_game + i). The slots named by g_index and pl_index are copied
    out of each game's final state.

    A game with a search seat plays through search.play_game_search, any other through the
    heuristic-only rules.play_game. `with_search` is None for a line-up without a search bot
    (search_flag): Numba then prunes the search branch, so that kernel never compiles the search.
    `log` is one row for a batch (nothing is logged, so the threads can share it) or a whole log for
    a replayed game (play_one_logged), whose final state is then copied into `final_state` (else
    empty): `sim replay` and the tests' logged games run the batch's cached kernel, not a copy of it."""
    kinds = np.empty(n, np.int8)
    W = np.empty((n, bot_weights.shape[1]), np.float64)
    budgets = np.empty((n, bot_budgets.shape[1]), np.float64)
    st, stream, _ = new_game_arrays(False)
    for i in range(lo, hi):
        searching = False
        for s in range(n):
            kinds[s] = bot_kinds[seat_bots[i, s]]
            for k in range(W.shape[1]):  # loops, not slice copies: those compile Numba's shape-error message
                W[s, k] = bot_weights[seat_bots[i, s], k]
            for k in range(budgets.shape[1]):
                budgets[s, k] = bot_budgets[seat_bots[i, s], k]
            searching = searching or kinds[s] == KIND_SEARCH
        st[:] = 0
        if with_search is None:
            play_game(P, st, stream, log, kinds, W, n, run_seed, first_game + np.uint64(i), checked)
        elif searching:
            play_game_search(P, st, stream, log, kinds, W, budgets, n, run_seed, first_game + np.uint64(i), checked)
        else:
            play_game(P, st, stream, log, kinds, W, n, run_seed, first_game + np.uint64(i), checked)
        errors[i] = st[S_ERROR]
        if final_state.shape[0] > 0:
            for k in range(st.shape[0]):
                final_state[k] = st[k]
        for j in range(g_index.shape[0]):
            out_game[i, j] = st[g_index[j]]
        for s in range(n):
            for j in range(pl_index.shape[0]):
                out_player[i * n + s, j] = st[S_PLAYERS + s * N_P + pl_index[j]]


def play_one_logged(P: np.ndarray, n: int, seats: np.ndarray, bot_kinds: np.ndarray, bot_weights: np.ndarray,
                    bot_budgets: np.ndarray, run_seed: int, game_index: int,
                    checked: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """One game with its log on, through the batch kernel (the search one when a seat searches):
    (final state, log). seats: the line-up index of each seat; checked: the invariants checked."""
    seat_bots = np.ascontiguousarray(np.asarray(seats, np.int8).reshape(1, n))
    st = np.zeros(N_STATE, np.int64)
    log = np.zeros((LOG_CAPACITY, LOG_WIDTH), np.int64)
    out_game = np.zeros((1, 1), np.int64)
    out_player = np.zeros((n, 1), np.int64)
    index = np.zeros(1, np.int64)
    play_games(0, 1, P, n, seat_bots, bot_kinds, bot_weights, bot_budgets, np.uint64(run_seed),
               np.uint64(game_index), bool(checked), search_flag(bot_kinds, seat_bots), index, index, out_game, out_player,
               np.zeros(1, np.int64), log, st)
    return st, log


def search_budgets_of(bot_names: list[str], with_search: bool | None) -> np.ndarray:
    """Each bot's search budget row; the bots files are read only for a line-up with a search bot."""
    return data.search_budgets(bot_names) if with_search else np.zeros((len(bot_names), N_CFG), np.float64)


def search_flag(bot_kinds: np.ndarray, seat_bots: np.ndarray) -> bool | None:
    """play_games's `with_search`: True when a seat of the line-up is a search bot, else None."""
    return True if bool((bot_kinds[np.unique(seat_bots)] == KIND_SEARCH).any()) else None


def player_columns_of(params: Params) -> list[tuple[str, int, type]]:
    """Every players-table column with its field: PLAYER_FIELDS, then one per offering card and moon tile."""
    cards, moons = data.card_names(params.resolved), data.moon_names(params.resolved)
    return [*PLAYER_FIELDS,
            *((f"{CARD_HELD}{name}", P_HELD + c, np.int8) for c, name in enumerate(cards)),
            *((f"{CARD_KEPT}{name}", P_HAND + c, np.int8) for c, name in enumerate(cards)),
            *((f"{MOON_TAKEN}{name}", P_MOON_KIND + t, np.int8) for t, name in enumerate(moons)),
            *search_choice_columns(P_SEARCH_STATS, SEARCH_KIND_NAMES)]


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
    search_value = "1 a win (shared wins split) + the search margin per point over the best other"
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
        with_search = search_flag(kinds, seat_bots)
        budgets = search_budgets_of(bot_names, with_search)
        player_fields = player_columns_of(params)
        g_index = np.array([slot for _, slot, _ in GAME_FIELDS], np.int64)
        pl_index = np.array([field for _, field, _ in player_fields], np.int64)
        out_game = np.zeros((n_games, len(GAME_FIELDS)), np.int64)
        out_player = np.zeros((n_games * n_players, len(player_fields)), np.int64)
        errors = np.zeros(n_games, np.int64)
        run_blocks(play_games, n_games, params.engine, n_players, np.ascontiguousarray(seat_bots, np.int8), kinds,
                   weights, budgets, np.uint64(run_seed), np.uint64(first_game), checked, with_search, g_index,
                   pl_index, out_game, out_player, errors, np.zeros((1, LOG_WIDTH), np.int64), np.zeros(0, np.int64))
        game_cols = {name: out_game[:, j].astype(dt) for j, (name, _, dt) in enumerate(GAME_FIELDS)}
        game_cols.update(market_prices(params, game_cols))
        player_cols = {name: out_player[:, j].astype(dt) for j, (name, _, dt) in enumerate(player_fields)}
        failures = [(first_game + int(i), f"engine error: {ERROR_NAMES[int(errors[i])]}")
                    for i in np.flatnonzero(errors)]
        return ChunkResult(game_cols, player_cols, {"end_reason": list(END_REASON_NAMES)}, failures)

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        from .replay import replay_lines
        kinds, weights = self.bot_arrays(bot_names)
        return replay_lines(params, n_players, bot_names, np.asarray(seat_bots_row), kinds, weights, run_seed,
                            game_index)
