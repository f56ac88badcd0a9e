"""Tahuantinsuyu as the core sees it: the batch kernel, its output turned into columns, and GAME
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
    END_REASON_NAMES, ERROR_NAMES, KIND_SEARCH, LOG_CAPACITY, LOG_WIDTH, N_STATE, N_P, N_SUN, N_SUYU, N_TILES, P_BUILT, P_CONQUERED, P_FIRST_CARD, P_LABOUR,
    P_LAB_CARDS, P_LAB_CHIPS, P_LAB_GIVEN, P_LAB_RETURNED, P_LAB_ROW, P_LAB_SHORT, P_LAB_SPENT, P_LAB_TAKEN,
    P_LAB_TERRACES, P_LEAD_ROUNDS, P_N_CHIPS, P_OUTPOSTS, P_PILGRIMAGES, P_RANK, P_ROADS, P_ROADS_BUILT,
    P_ROADS_LOST, P_SEARCH_STATS, SEARCH_KIND_NAMES, P_SUN_HELD, P_SUN_PLAYED, P_SUN_SUFFERED, P_TERRACES, P_VP, P_VP_CARDS, P_VP_CITY,
    P_VP_CITY_SI, P_VP_CONQUEST, P_VP_GARRISON, P_VP_GARRISON_SI, P_VP_PILGRIM, P_VP_TEMPLE, P_VP_TEMPLE_BONUS,
    P_VP_TEMPLE_SI, P_VP_TERRACE, P_VP_TERRACE_SI, P_WILD_BUILT, P_WON, SUN_NAMES, SUYU_NAMES, S_ACTIONS,
    S_BOX_CHIPS, S_ENDED, S_ERROR, S_LABOUR, S_LEAD_CHANGES, S_N_ROUNDS, S_PEOPLE_PHASES, S_PIZARRO_PHASE,
    S_PIZARRO_ROUND, S_PLAYERS, S_SAPA_INCAS, S_TILES, S_TRANSFERS, S_WILD_N, S_WINNER, TILE_NAMES,
)

# Games-table columns: (column, state slot, dtype).
GAME_FIELDS = (
    ("n_rounds", S_N_ROUNDS, np.int16),
    ("winner_seat", S_WINNER, np.int8),
    ("end_reason", S_ENDED, np.int8),  # 1 = Pizarro; read with END_REASON_NAMES after the shift below
    ("pizarro_round", S_PIZARRO_ROUND, np.int8),
    ("pizarro_people_phase", S_PIZARRO_PHASE, np.int8),
    ("people_phases", S_PEOPLE_PHASES, np.int8),
    ("sapa_inca_phases", S_SAPA_INCAS, np.int8),
    ("catch_up_transfers", S_TRANSFERS, np.int16),
    ("lead_changes", S_LEAD_CHANGES, np.int8),
    ("decisions", S_ACTIONS, np.int32),
    ("labour_supply_end", S_LABOUR, np.int16),
    ("wilderness_roads", S_WILD_N, np.int8),
    ("chips_in_box", S_BOX_CHIPS, np.int8),
    *((f"{TILE_NAMES[t]}_tiles_left", S_TILES + t, np.int8) for t in range(N_TILES)),
)
# Players-table columns: (column, P_* field of the seat, dtype).
PLAYER_FIELDS = (
    ("score", P_VP, np.int16),
    ("rank", P_RANK, np.int8),
    ("won", P_WON, np.bool_),
    ("start_order", P_FIRST_CARD, np.int8),  # the first turn order: 0 holds card 1 (the analyses' position 0 starts)
    ("vp_conquest", P_VP_CONQUEST, np.int16),
    ("vp_city", P_VP_CITY, np.int16),
    ("vp_city_sapa_inca", P_VP_CITY_SI, np.int16),
    ("vp_temple", P_VP_TEMPLE, np.int16),
    ("vp_temple_bonus", P_VP_TEMPLE_BONUS, np.int16),
    ("vp_temple_sapa_inca", P_VP_TEMPLE_SI, np.int16),
    ("vp_garrison", P_VP_GARRISON, np.int16),
    ("vp_garrison_sapa_inca", P_VP_GARRISON_SI, np.int16),
    ("vp_terrace", P_VP_TERRACE, np.int16),
    ("vp_terrace_sapa_inca", P_VP_TERRACE_SI, np.int16),
    ("vp_pilgrimage", P_VP_PILGRIM, np.int16),
    ("vp_sun_cards", P_VP_CARDS, np.int16),
    ("labour_resources", P_LAB_ROW, np.int16),
    ("labour_chips", P_LAB_CHIPS, np.int16),
    ("labour_terraces", P_LAB_TERRACES, np.int16),
    ("labour_popular_support", P_LAB_CARDS, np.int16),
    ("labour_given", P_LAB_GIVEN, np.int16),
    ("labour_received", P_LAB_TAKEN, np.int16),
    ("labour_returned", P_LAB_RETURNED, np.int16),
    ("labour_spent", P_LAB_SPENT, np.int16),
    ("labour_short", P_LAB_SHORT, np.int16),
    ("labour_end", P_LABOUR, np.int16),
    ("regions", P_N_CHIPS, np.int8),
    *((f"regions_{SUYU_NAMES[s]}", P_CONQUERED + s, np.int8) for s in range(N_SUYU)),
    *((f"built_{TILE_NAMES[t]}", P_BUILT + t, np.int8) for t in range(N_TILES)),
    ("terraces", P_TERRACES, np.int8),
    ("key_outposts", P_OUTPOSTS, np.int8),
    ("pilgrimages", P_PILGRIMAGES, np.int8),
    ("roads", P_ROADS, np.int16),
    ("roads_built", P_ROADS_BUILT, np.int16),
    ("roads_lost", P_ROADS_LOST, np.int16),
    ("wilderness_roads", P_WILD_BUILT, np.int8),
    ("lead_sapa_incas", P_LEAD_ROUNDS, np.int8),
    *((f"sun_held_{SUN_NAMES[k]}", P_SUN_HELD + k, np.int8) for k in range(N_SUN)),
    *((f"sun_played_{SUN_NAMES[k]}", P_SUN_PLAYED + k, np.int8) for k in range(N_SUN)),
    *((f"sun_suffered_{SUN_NAMES[k]}", P_SUN_SUFFERED + k, np.int8) for k in range(N_SUN)),
    *search_choice_columns(P_SEARCH_STATS, SEARCH_KIND_NAMES),
)


@njit(cache=True, nogil=True)
def play_games(lo, hi, P, n, seat_bots, bot_kinds, bot_weights, bot_budgets, run_seed, first_game, checked,
               with_search, g_index, pl_index, out_game, out_player, errors, log, final_state):
    """Games lo..hi-1 of a chunk (sim.core.parallel.run_blocks spreads the blocks over threads); game
    i depends only on (run_seed, first_game + i).

    A game with a search seat plays through search.play_game_search, any other through the
    heuristic-only rules.play_game. `with_search` is None for a line-up without a search bot
    (search_flag): Numba then prunes the search branch, so that kernel never compiles the search.
    `log` is one row for a batch (nothing is logged, so the threads can share it) or a whole log for
    a replayed game (play_one_logged), whose final state is then copied into `final_state` (else
    empty)."""
    kinds = np.empty(n, np.int8)
    W = np.empty((n, bot_weights.shape[1]), np.float64)
    budgets = np.empty((n, bot_budgets.shape[1]), np.float64)
    st, stream, _ = new_game_arrays(False)
    for i in range(lo, hi):
        searching = False
        for s in range(n):
            kinds[s] = bot_kinds[seat_bots[i, s]]
            for k in range(W.shape[1]):  # a loop, not a slice copy: that one compiles Numba's shape-error message
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
               np.uint64(game_index), bool(checked), search_flag(bot_kinds, seat_bots), index, index, out_game,
               out_player, np.zeros(1, np.int64), log, st)
    return st, log


def search_budgets_of(bot_names: list[str], with_search: bool | None) -> np.ndarray:
    """Each bot's search budget row; the bots files are read only for a line-up with a search bot."""
    return data.search_budgets(bot_names) if with_search else np.zeros((len(bot_names), N_CFG), np.float64)


def search_flag(bot_kinds: np.ndarray, seat_bots: np.ndarray) -> bool | None:
    """play_games's `with_search`: True when a seat of the line-up is a search bot, else None."""
    return True if bool((bot_kinds[np.unique(seat_bots)] == KIND_SEARCH).any()) else None


class Tahuantinsuyu(TomlGame):
    name = "tahuantinsuyu"
    search_value = "1 for the lead + the search margin per point over the best other"
    description = ("Tahuantinsuyu (Alan Ernstein, 2004): roads from Cuzco, conquests, cities, temples, garrisons "
                   "and terraces, Sun cards between neighbours, until Pizarro arrives; 3-4 players.")
    default_players = 4
    data = data
    card_groups = (CardGroup(name="Sun card", held="sun_held_", played=("sun_played_",)),
                   CardGroup(name="Sun card suffered", held="sun_suffered_"))

    def report_sections(self) -> tuple:
        """Tahuantinsuyu's report pages (sim/games/tahuantinsuyu/analysis/report.py)."""
        from .analysis import report_sections
        return report_sections()

    def simulate(self, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                 run_seed: int, first_game: int, n_games: int, checked: bool = False) -> ChunkResult:
        kinds, weights = self.bot_arrays(bot_names)
        with_search = search_flag(kinds, seat_bots)
        budgets = search_budgets_of(bot_names, with_search)
        g_index = np.array([slot for _, slot, _ in GAME_FIELDS], np.int64)
        pl_index = np.array([field for _, field, _ in PLAYER_FIELDS], np.int64)
        out_game = np.zeros((n_games, len(GAME_FIELDS)), np.int64)
        out_player = np.zeros((n_games * n_players, len(PLAYER_FIELDS)), np.int64)
        errors = np.zeros(n_games, np.int64)
        run_blocks(play_games, n_games, params.engine, n_players, np.ascontiguousarray(seat_bots, np.int8), kinds,
                   weights, budgets, np.uint64(run_seed), np.uint64(first_game), checked, with_search, g_index,
                   pl_index, out_game, out_player, errors, np.zeros((1, LOG_WIDTH), np.int64), np.zeros(0, np.int64))
        game_cols = {name: out_game[:, j].astype(dt) for j, (name, _, dt) in enumerate(GAME_FIELDS)}
        game_cols["end_reason"] = (game_cols["end_reason"] - 1).clip(0).astype(np.int8)
        player_cols = {name: out_player[:, j].astype(dt) for j, (name, _, dt) in enumerate(PLAYER_FIELDS)}
        failures = [(first_game + int(i), f"engine error: {ERROR_NAMES[int(errors[i])]}")
                    for i in np.flatnonzero(errors)]
        return ChunkResult(game_cols, player_cols, {"end_reason": list(END_REASON_NAMES)}, failures)

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        from .replay import replay_lines
        kinds, weights = self.bot_arrays(bot_names)
        return replay_lines(params, n_players, bot_names, np.asarray(seat_bots_row), kinds, weights, run_seed,
                            game_index)
