"""Chachapoya as the core sees it: the Game object, the batch kernel and the output columns."""
from __future__ import annotations


import numpy as np
from numba import njit

from sim.core.game import CardGroup, ChunkResult, Params, TomlGame
from sim.core.parallel import run_blocks
from sim.core.search import search_choice_columns
from . import data
from .bots import BOT_SEARCH
from .rules import play_game
from .search import N_CFG, play_game_search
from .state import (
    ELIMINATION_NAMES, END_REASON_NAMES, S_END_REASON, S_ERROR, S_LEADER_CLASHES, S_N_ADVENTURERS,
    S_N_TREASURES, S_NO_WINNER_ROUNDS, S_PAIR_CANCELS, S_ROUND, S_TDECK_SIZE, S_WINNER, N_K, N_T, P_ALIVE,
    P_BIDS_WON, P_CARDS_DRAWN, P_ELIM_ROUND, P_ELIMINATION, P_LOST_TO_CURSE, P_PAIR_CANCELS, P_PAIR_DECLINED,
    P_RANK, P_SCORE, P_SEARCH_STATS, SEARCH_KIND_NAMES, P_TOKEN_REFILL, P_TOKEN_SCORED_ON, P_UNRESOLVED_LEADERS, P_VP_HAND,
    P_VP_UNRESOLVED, P_WON, error_name, kind_stat_at, new_log, new_state, reset_state, seat_at, treasure_stat_at,
)

# Game-table columns: (column, state slot S_*, dtype); n_eliminated is added from the players table.
GAME_FIELDS = (
    ("n_rounds", S_ROUND, np.int16),
    ("winner_seat", S_WINNER, np.int8),
    ("end_reason", S_END_REASON, np.int8),
    ("rounds_without_winner", S_NO_WINNER_ROUNDS, np.int16),
    ("tracker_pair_cancels", S_PAIR_CANCELS, np.int16),
    ("leader_clashes", S_LEADER_CLASHES, np.int16),
    ("treasure_deck_left", S_TDECK_SIZE, np.int16),
)
_G_INDEX = np.array([f for _, f, _ in GAME_FIELDS], np.int64)
# Player-table scalar columns: (column, seat field P_*, dtype).
PLAYER_FIELDS = (
    ("score", P_SCORE, np.int16),
    ("rank", P_RANK, np.int8),
    ("won", P_WON, np.bool_),
    ("eliminated", P_ALIVE, np.bool_),  # inverted below
    ("elimination", P_ELIMINATION, np.int8),
    ("elimination_round", P_ELIM_ROUND, np.int16),
    ("vp_hand_penalty", P_VP_HAND, np.int16),
    ("vp_unresolved_leaders", P_VP_UNRESOLVED, np.int16),
    ("bids_won", P_BIDS_WON, np.int16),
    ("cards_drawn", P_CARDS_DRAWN, np.int16),
    ("token_refill", P_TOKEN_REFILL, np.int16),
    ("token_scored_on", P_TOKEN_SCORED_ON, np.int16),
    ("unresolved_leaders", P_UNRESOLVED_LEADERS, np.int16),
    ("tracker_pair_cancels", P_PAIR_CANCELS, np.int16),
    ("pair_draws_declined", P_PAIR_DECLINED, np.int16),
    ("lost_to_curse", P_LOST_TO_CURSE, np.int16),
    *search_choice_columns(P_SEARCH_STATS, SEARCH_KIND_NAMES),
)
_PSTAT_INDEX = np.array([f for _, f, _ in PLAYER_FIELDS], np.int64)
KIND_ROWS = ("opening", "played", "end")  # K_* record rows: column prefix per adventurer kind
TREASURE_ROWS = ("got", "lost", "vp")  # T_* record rows: column prefix per treasure type


@njit(cache=True, nogil=True)
def play_games(lo, hi, params, n_players, seat_bots, bot_kinds, bot_weights, bot_budgets, run_seed, first_game,
               checked, with_search, no_log, g_index, pstat_index, out_game, out_player, out_kinds, out_treasures,
               errors):
    """Play games lo..hi-1 of a chunk and write their rows (sim.core.parallel.run_blocks spreads
    the blocks over threads); game i depends only on (run_seed, first_game + i).

    A game with a search bot plays through search.play_game_search; any other through the
    heuristic-only rules.play_game. `with_search` is None for a line-up without a search bot
    (search_flag): Numba then prunes the search branch, so that kernel never compiles the search
    bot. The seats' bot arrays and the state array are allocated once per block (each game starts
    from a copy of one fresh state), and `no_log` (logging off: never written) serves every game.
    """
    kinds = np.empty(n_players, np.int8)
    weights = np.empty((n_players, bot_weights.shape[1]), np.float64)
    budgets = np.empty((n_players, bot_budgets.shape[1]), np.float64)
    fresh = new_state(params, n_players)
    st = fresh.copy()
    for i in range(lo, hi):
        searching = False
        for s in range(n_players):
            kinds[s] = bot_kinds[seat_bots[i, s]]
            for k in range(weights.shape[1]):  # loops, not slice copies: those compile Numba's shape-error message
                weights[s, k] = bot_weights[seat_bots[i, s], k]
            for k in range(budgets.shape[1]):
                budgets[s, k] = bot_budgets[seat_bots[i, s], k]
            searching = searching or kinds[s] == BOT_SEARCH
        reset_state(fresh, st)  # each game starts from a fresh state, in the block's one state array
        game_index = first_game + np.uint64(i)
        if with_search is None:
            play_game(params, st, no_log, kinds, weights, run_seed, game_index, checked)
        elif searching:
            play_game_search(params, st, no_log, kinds, weights, budgets, run_seed, game_index, checked)
        else:
            play_game(params, st, no_log, kinds, weights, run_seed, game_index, checked)
        errors[i] = st[S_ERROR]
        for j in range(g_index.shape[0]):
            out_game[i, j] = st[g_index[j]]
        for s in range(n_players):
            row = i * n_players + s
            for j in range(pstat_index.shape[0]):
                out_player[row, j] = st[seat_at(s) + pstat_index[j]]
            for r in range(N_K):
                at = kind_stat_at(st, s, r)
                for a in range(st[S_N_ADVENTURERS]):
                    out_kinds[row, r, a] = st[at + a]
            for r in range(N_T):
                at = treasure_stat_at(st, s, r)
                for t in range(st[S_N_TREASURES]):
                    out_treasures[row, r, t] = st[at + t]


def search_flag(bot_kinds: np.ndarray, seat_bots: np.ndarray) -> bool | None:
    """play_games's `with_search`: True when a seat of the line-up is a search bot, else None."""
    return True if bool((bot_kinds[np.unique(seat_bots)] == BOT_SEARCH).any()) else None


def failure_messages(first_game: int, errors: np.ndarray) -> list[tuple[int, str]]:
    """(game index, "engine error: <name>") for each game whose st[S_ERROR] is not 0 (state.ERROR_NAMES)."""
    return [(first_game + int(i), f"engine error: {error_name(int(errors[i]))}") for i in np.flatnonzero(errors)]


class Chachapoya(TomlGame):
    name = "chachapoya"
    search_value = "1 a win (shared wins split) + the search margin per point over the best other"
    description = "Bluff-and-bid treasure hunt: 95 cards, secret offers, leaders and trackers (2-4 players)."
    default_players = 4
    data = data
    card_groups = (
        CardGroup("adventurer", held="opening_", played=("played_",), kept="end_"),
        CardGroup("treasure", held="got_"),
    )

    def report_sections(self) -> tuple:
        """Chachapoya's report pages (sim/games/chachapoya/analysis/report.py)."""
        from .analysis import report_sections
        return report_sections()

    def simulate(self, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                 run_seed: int, first_game: int, n_games: int, checked: bool = False) -> ChunkResult:
        kinds, weights = self.bot_arrays(bot_names)
        if seat_bots.shape != (n_games, n_players):
            raise ValueError(f"seat_bots has shape {seat_bots.shape}, expected {(n_games, n_players)}")
        # the engine reads a bot's search budget only for a search bot: the bots files are read
        # (about 11 ms, once per engine slice) only for a line-up with one
        with_search = search_flag(kinds, seat_bots)
        budgets = (data.search_budgets(bot_names) if with_search else
                   np.zeros((len(bot_names), N_CFG), np.float64))
        tr_names = data.treasure_names(params.resolved)
        adv_names = data.adventurer_names(params.resolved)
        n_rows = n_games * n_players
        out_game = np.zeros((n_games, len(GAME_FIELDS)), np.int32)
        out_player = np.zeros((n_rows, len(PLAYER_FIELDS)), np.int32)
        out_kinds = np.zeros((n_rows, N_K, len(adv_names)), np.int16)
        out_treasures = np.zeros((n_rows, N_T, len(tr_names)), np.int16)
        errors = np.zeros(n_games, np.int64)
        run_blocks(play_games, n_games, params.engine, n_players, np.ascontiguousarray(seat_bots, np.int8), kinds,
                   weights, budgets, np.uint64(run_seed), np.uint64(first_game), checked, with_search,
                   new_log(False), _G_INDEX, _PSTAT_INDEX, out_game, out_player, out_kinds, out_treasures, errors)
        player_cols: dict[str, np.ndarray] = {}
        for j, (name, field, dt) in enumerate(PLAYER_FIELDS):
            col = out_player[:, j]
            if field == P_ALIVE:
                col = 1 - col
            if name == "token_scored_on":
                col = col + 1  # -1 (none) becomes category 0
            player_cols[name] = col.astype(dt)
        for j, t in enumerate(tr_names):
            player_cols[f"vp_{t}"] = out_treasures[:, 2, j].copy()
        for r, prefix in enumerate(KIND_ROWS):
            for j, a in enumerate(adv_names):
                player_cols[f"{prefix}_{a}"] = out_kinds[:, r, j].copy()  # int16: long games pass 127
        for r, prefix in enumerate(TREASURE_ROWS[:2]):
            for j, t in enumerate(tr_names):
                player_cols[f"{prefix}_{t}"] = out_treasures[:, r, j].copy()
        game_cols = {name: out_game[:, j].astype(dt) for j, (name, _, dt) in enumerate(GAME_FIELDS)}
        game_cols["n_eliminated"] = player_cols["eliminated"].reshape(n_games, n_players).sum(axis=1).astype(np.int8)
        return ChunkResult(
            game_columns=game_cols,
            player_columns=player_cols,
            categories={
                "end_reason": list(END_REASON_NAMES),
                "elimination": list(ELIMINATION_NAMES),
                "token_scored_on": ["none", *tr_names],
            },
            failures=failure_messages(first_game, errors),
        )

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        from .replay import replay_lines
        kinds, weights = self.bot_arrays(bot_names)
        seat_kinds = kinds[np.asarray(seat_bots_row)]
        seat_weights = weights[np.asarray(seat_bots_row)]
        seat_budgets = data.search_budgets(bot_names)[np.asarray(seat_bots_row)]
        seat_names = [bot_names[i] for i in seat_bots_row]
        return replay_lines(params, n_players, seat_names, seat_kinds, seat_weights, seat_budgets, run_seed,
                            game_index)
