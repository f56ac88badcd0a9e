"""Cuzco as the core sees it: a whole game (rounds.py plays its rounds), the batch kernel, the Game object and its columns."""
from __future__ import annotations


import numpy as np
from numba import njit

from sim.core import rng as rng_mod
from sim.core.game import CardGroup, ChunkResult, Params, TomlGame
from sim.core.jit import njit_inline
from sim.core.params import ForbidGroup
from sim.core.parallel import run_blocks
from sim.core.search import search_choice_columns
from . import data
from .rounds import ERROR_NO_TURN, NO_STOP, PHASE_I, PHASE_ONE_DONE, check, play_from, start_round
from .bots import KIND_SEARCH
from .rules import setup
from .search import new_search_buffers, search_player_turn
from .state import (
    ABILITY_NAMES, ACTION_NAMES, CARD_NAMES, S_ERROR, S_PUTUTU1, S_PUTUTU2,
    S_PUTUTU_SHORT, S_TEMPLE_MEDALS, S_TURNS, S_WINNER, GOOD_NAMES, N_ABILITIES, N_CARDS, N_DSTAT_PIPS,
    N_STAT, P_CIRCLET, P_FEATHERS, P_FOOD, P_HAND, P_MEDALS, P_MISSIONS_DONE, P_N_TILES, P_OFFERINGS,
    P_QUIPU_DELIVERED, P_SEARCH_STATS, P_VP, STAT_BLESSINGS, STAT_CARD_GAINED, STAT_CARD_MEDAL, STAT_CARD_PLAYED,
    STAT_DOUBLES, STAT_FINAL_ORDER, STAT_GOOD_BOUGHT, STAT_HEADDRESSES, STAT_MEDALS_GAINED, STAT_MISSION_DONE,
    STAT_MISSION_FAILED, STAT_PEOPLE, STAT_PUTUTU_CHANGED, STAT_PUTUTU_GAINED1, STAT_PUTUTU_GAINED2, STAT_PUTUTU_SPENT1,
    STAT_PUTUTU_SPENT2, STAT_RANK, STAT_START_ORDER, STAT_TRIPLES, STAT_VP, STAT_WON, VP_SOURCE_NAMES, new_side,
    new_state,
    REC_DICE, rng_of, rng_words, seat_at, seat_in_order, stats_at,
)


@njit_inline
def play_heuristic_game(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed, game_index, checked):
    """One whole game from its seed, every seat a heuristic or random bot: setup, six rounds, the
    end (rounds.play_from, a compiled call)."""
    rng_mod.seed_game_stream(rng_of(st), run_seed, game_index)
    setup(P, st, rec, log, n_players, W)
    if check(P, st, checked):
        return
    start_round(P, st, rec, log, 0)
    if play_from(P, st, rec, log, look, lrec, llog, kinds, W, checked, 0, PHASE_I, NO_STOP) != PHASE_ONE_DONE:
        st[S_ERROR] = ERROR_NO_TURN  # a search seat, in a kernel built without the search


@njit_inline
def play_search_game(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed, game_index, checked):
    """One whole game with search seats: rounds.play_from plays up to a search seat's phase-I
    turn, which is searched here with the buffers of new_search_buffers, then goes on."""
    rng_mod.seed_game_stream(rng_of(st), run_seed, game_index)
    setup(P, st, rec, log, n_players, W)
    if check(P, st, checked):
        return
    search = new_search_buffers(n_players)
    start_round(P, st, rec, log, 0)
    turn = 0
    while True:
        turn = play_from(P, st, rec, log, look, lrec, llog, kinds, W, checked, turn, PHASE_I, NO_STOP)
        if turn == PHASE_ONE_DONE or st[S_ERROR] != 0:
            return
        p = seat_in_order(st, turn % n_players)
        if not search_player_turn(P, st, rec, log, look, lrec, llog, p, W[p], turn, search, run_seed, game_index,
                                  checked):
            st[S_ERROR] = ERROR_NO_TURN
        if st[S_ERROR] != 0:
            return
        turn += 1


@njit(cache=True)
def play_search_one(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed, game_index, checked):
    """play_search_game compiled on its own: the replay of a line-up with a search bot."""
    play_search_game(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed, game_index, checked)


def run_one(P, n_players, kinds, W, run_seed, game_index, checked, logging, with_search):
    """Allocate one game's arrays and play it (play_one): its state, record and log (replay and
    tests; the batch kernel is play_games)."""
    arrays = new_game_arrays(n_players, logging)
    play_one(P, arrays, n_players, kinds, W, run_seed, game_index, checked, with_search)
    return arrays[:3]


def play_one(P, arrays, n_players, kinds, W, run_seed, game_index, checked, with_search):
    """One whole game into `arrays` (new_game_arrays), played from Python. `with_search` is None
    unless a seat is a search bot (see `search_flag`). Without one, the game is started here and
    its rounds played by rounds.play_from, the compiled entry point the tests share, so the replay
    adds no compiled level over the whole game."""
    st, rec, log = arrays[:3]
    if with_search is not None:
        play_search_one(P, *arrays, n_players, kinds, W, run_seed, game_index, checked)
        return
    rng_mod.seed_game_stream(rng_words(st), run_seed, game_index)
    setup(P, st, rec, log, n_players, W)
    if not check(P, st, checked):
        start_round(P, st, rec, log, 0)
        if play_from(P, *arrays, kinds, W, checked, 0, PHASE_I, NO_STOP) != PHASE_ONE_DONE:
            st[S_ERROR] = ERROR_NO_TURN  # a search seat, without the search


@njit(cache=True)
def new_game_arrays(n_players, logging):
    """A game's state, record and log, and the look-ahead's (one copy of each)."""
    st = new_state(n_players, logging)
    rec, log = new_side(n_players, logging)
    look = new_state(n_players, False)
    lrec, llog = new_side(n_players, False)
    return st, rec, log, look, lrec, llog


def search_flag(kinds: np.ndarray) -> bool | None:
    """run_one's `with_search`: True when a seat is a search bot, else None, the value for which
    Numba compiles a kernel without the search bot (half the cold compile)."""
    return True if bool((np.asarray(kinds) == KIND_SEARCH).any()) else None


# Game-table columns: (column, state slot)
GAME_FIELDS = (
    ("winner_seat", S_WINNER),
    ("turns", S_TURNS),
    ("medals_left_on_temple", S_TEMPLE_MEDALS),
    ("pututu_left_1", S_PUTUTU1),
    ("pututu_left_2", S_PUTUTU2),
    ("pututu_shortfalls", S_PUTUTU_SHORT),
)
_G_INDEX = np.array([f for _, f in GAME_FIELDS], np.int64)
# End-of-game player-state columns: (column, P_* field of the seat)
END_FIELDS = (
    ("score", P_VP),
    ("medals_end", P_MEDALS),
    ("quipus_delivered", P_QUIPU_DELIVERED),
    ("people_tiles", P_N_TILES),
    ("missions_completed", P_MISSIONS_DONE),
    ("food_end", P_FOOD),
    ("offerings_end", P_OFFERINGS),
)
# The search bot's phase-I turns by the action of its heuristic's first turn: (column, P_* field, dtype)
SEARCH_FIELDS = search_choice_columns(P_SEARCH_STATS, ACTION_NAMES)
_PL_INDEX = np.array([f for _, f in END_FIELDS] + [f for _, f, _ in SEARCH_FIELDS], np.int64)


@njit(cache=True, nogil=True)
def play_games(lo, hi, P, n_players, seat_bots, bot_kinds, bot_weights, run_seed, first_game, checked, with_search,
               g_index, pl_index, out_game, out_dice, out_player, out_stats, out_extra, errors):
    """Play games lo..hi-1 of a chunk (sim.core.parallel.run_blocks spreads the blocks over threads);
    game i depends only on (run_seed, first_game + i). `with_search` None (a line-up without a
    search bot, see `search_flag`) and True compile two kernels; only the second holds the search."""
    kinds = np.empty(n_players, np.int8)
    W = np.empty((n_players, bot_weights.shape[1]), np.float64)
    for i in range(lo, hi):
        for s in range(n_players):
            kinds[s] = bot_kinds[seat_bots[i, s]]
            for k in range(W.shape[1]):  # a loop, not a slice copy: that one compiles Numba's shape-error message
                W[s, k] = bot_weights[seat_bots[i, s], k]
        st, rec, log, look, lrec, llog = new_game_arrays(n_players, False)
        # the game's start is inlined here, its rounds are the compiled rounds.play_from
        if with_search is None:
            play_heuristic_game(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed,
                                first_game + np.uint64(i), checked)
        else:
            play_search_game(P, st, rec, log, look, lrec, llog, n_players, kinds, W, run_seed,
                             first_game + np.uint64(i), checked)
        errors[i] = st[S_ERROR]
        for j in range(g_index.shape[0]):
            out_game[i, j] = st[g_index[j]]
        for a in range(out_dice.shape[1]):
            for pips in range(N_DSTAT_PIPS):
                out_dice[i, a, pips] = rec[REC_DICE + a * N_DSTAT_PIPS + pips]
        for s in range(n_players):
            row = i * n_players + s
            for j in range(pl_index.shape[0]):
                out_player[row, j] = st[seat_at(s) + pl_index[j]]
            for k in range(N_STAT):
                out_stats[row, k] = rec[stats_at(s) + k]
            hand = 0
            for c in range(N_CARDS):
                hand += st[seat_at(s) + P_HAND + c]
            feathers = 0
            for c in range(4):
                feathers += st[seat_at(s) + P_FEATHERS + c]
            circlets = 0
            for c in range(6):
                circlets += st[seat_at(s) + P_CIRCLET + c]
            out_extra[row, 0] = hand
            out_extra[row, 1] = feathers
            out_extra[row, 2] = circlets


END_REASONS = ("all_rounds_played",)
ERROR_NAMES = {
    1: "offerings created or lost", 2: "food created or lost", 3: "more than 3 feathers of a colour",
    4: "feathers created or lost", 5: "negative god cards in a hand", 6: "god cards created or lost",
    7: "more tiles and quipus than mask spaces", 8: "people tiles created or lost",
    9: "quipus created or lost", 10: "priests created or lost", 11: "negative supplies",
    12: "village stacks and delivered quipus disagree", 13: "goods created or lost",
    14: "negative pututu tiles", 15: "pututu tiles created or lost",
    16: "Inti medals created, or negative", ERROR_NO_TURN: "a bot found no legal turn",
}


class Cuzco(TomlGame):
    name = "cuzco"
    search_value = "VP margin over the best opponent, +10 a win (a cut rollout: the heuristic's position margin)"
    description = ("Stefan Feld's dice-placement game of chasquis, temples and missions, 6 rounds "
                   "(2-4 players); variant pututu.enabled = true adds the Pututu module.")
    default_players = 4
    data = data
    card_groups = (
        CardGroup("god card", held="card_gained_", played=("card_played_", "card_medal_")),
        CardGroup("study tile", held="people_study_"),
        CardGroup("farm tile", held="people_farm_"),
        CardGroup("mission", held="mission_done_", failed="mission_failed_"),
        CardGroup("good", held="goods_"),
    )
    # `sim value cuzco --group gods`: each god card forbidden to one seat (gods.forbidden_by_seat)
    value_groups = (ForbidGroup("gods", data.CARD_NAMES, data.forbid_variant, held="card_gained_",
                                played=("card_played_", "card_medal_")),)

    def report_sections(self) -> tuple:
        """Cuzco's report pages (sim/games/cuzco/analysis/report.py)."""
        from .analysis import report_sections
        return report_sections()

    def simulate(self, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                 run_seed: int, first_game: int, n_games: int, checked: bool = False) -> ChunkResult:
        kinds, weights = self.bot_arrays(bot_names)
        if seat_bots.shape != (n_games, n_players):
            raise ValueError(f"seat_bots has shape {seat_bots.shape}, expected {(n_games, n_players)}")
        n_rows = n_games * n_players
        out_game = np.zeros((n_games, len(GAME_FIELDS)), np.int32)
        out_dice = np.zeros((n_games, len(ACTION_NAMES), N_DSTAT_PIPS), np.int32)
        out_player = np.zeros((n_rows, len(_PL_INDEX)), np.int64)
        out_stats = np.zeros((n_rows, N_STAT), np.int32)
        out_extra = np.zeros((n_rows, 3), np.int32)
        errors = np.zeros(n_games, np.int64)
        run_blocks(play_games, n_games, params.engine, n_players, np.ascontiguousarray(seat_bots, np.int8), kinds, weights,
                   np.uint64(run_seed), np.uint64(first_game), checked, search_flag(kinds), _G_INDEX, _PL_INDEX,
                   out_game, out_dice, out_player, out_stats, out_extra, errors)
        game_cols = {name: out_game[:, j].astype(np.int16) for j, (name, _) in enumerate(GAME_FIELDS)}
        game_cols["winner_seat"] = game_cols["winner_seat"].astype(np.int8)
        game_cols["n_rounds"] = np.full(n_games, params.resolved["rules"]["rounds"], np.int16)
        game_cols["end_reason"] = np.zeros(n_games, np.int8)  # END_REASONS[0]: every game plays all its rounds
        for a, action in enumerate(ACTION_NAMES):
            game_cols[f"extra_turns_{action}"] = out_dice[:, a, 0].astype(np.int8)
            for pips in range(1, N_DSTAT_PIPS):
                game_cols[f"dice_{action}_{pips}"] = out_dice[:, a, pips].astype(np.int8)
        player_cols = player_columns(params, out_player, out_stats, out_extra)
        failures = [(first_game + int(i), f"engine error: {ERROR_NAMES.get(int(errors[i]), int(errors[i]))}")
                    for i in np.flatnonzero(errors)]
        return ChunkResult(game_columns=game_cols, player_columns=player_cols,
                           categories={"end_reason": list(END_REASONS)}, failures=failures)

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        from .replay import replay_lines
        kinds, weights = self.bot_arrays(bot_names)
        rows = np.asarray(seat_bots_row)
        return replay_lines(params, n_players, [bot_names[i] for i in rows], kinds[rows], weights[rows],
                            run_seed, game_index)


def player_columns(params: Params, out_player, out_stats, out_extra) -> dict[str, np.ndarray]:
    """The players table: score breakdown and every counter the analyses read."""
    cols: dict[str, np.ndarray] = {}
    for j, (name, _) in enumerate(END_FIELDS):
        cols[name] = out_player[:, j].astype(np.int16)
    for j, (name, _, dtype) in enumerate(SEARCH_FIELDS, start=len(END_FIELDS)):
        cols[name] = out_player[:, j].astype(dtype)
    cols["rank"] = out_stats[:, STAT_RANK].astype(np.int8)
    cols["won"] = out_stats[:, STAT_WON].astype(np.bool_)
    cols["start_order"] = out_stats[:, STAT_START_ORDER].astype(np.int8)
    cols["final_order"] = out_stats[:, STAT_FINAL_ORDER].astype(np.int8)
    for k, src in enumerate(VP_SOURCE_NAMES):
        cols[f"vp_{src}"] = out_stats[:, STAT_VP + k].astype(np.int16)
    cols["cards_in_hand_end"] = out_extra[:, 0].astype(np.int8)
    cols["feathers_end"] = out_extra[:, 1].astype(np.int8)
    cols["circlets_end"] = out_extra[:, 2].astype(np.int8)
    cols["medals_gained"] = out_stats[:, STAT_MEDALS_GAINED].astype(np.int8)
    cols["fire_blessings"] = out_stats[:, STAT_BLESSINGS].astype(np.int8)
    cols["headdresses"] = out_stats[:, STAT_HEADDRESSES].astype(np.int8)
    for c, card in enumerate(CARD_NAMES):
        cols[f"card_gained_{card}"] = out_stats[:, STAT_CARD_GAINED + c].astype(np.int8)
        cols[f"card_played_{card}"] = out_stats[:, STAT_CARD_PLAYED + c].astype(np.int8)
        cols[f"card_medal_{card}"] = out_stats[:, STAT_CARD_MEDAL + c].astype(np.int8)
    for m, label in enumerate(data.mission_labels(params.resolved)):
        cols[f"mission_done_{label}"] = out_stats[:, STAT_MISSION_DONE + m].astype(np.int8)
        cols[f"mission_failed_{label}"] = out_stats[:, STAT_MISSION_FAILED + m].astype(np.int8)
    for t, good in enumerate(GOOD_NAMES):
        cols[f"goods_{good}"] = out_stats[:, STAT_GOOD_BOUGHT + t].astype(np.int8)
    for kind, label in ((0, "study"), (1, "farm")):
        for a, ability in enumerate(ABILITY_NAMES):
            cols[f"people_{label}_{ability}"] = out_stats[:, STAT_PEOPLE + kind * N_ABILITIES + a].astype(np.int8)
    cols["pututu_gained_1"] = out_stats[:, STAT_PUTUTU_GAINED1].astype(np.int8)
    cols["pututu_gained_2"] = out_stats[:, STAT_PUTUTU_GAINED2].astype(np.int8)
    cols["pututu_spent_1"] = out_stats[:, STAT_PUTUTU_SPENT1].astype(np.int8)
    cols["pututu_spent_2"] = out_stats[:, STAT_PUTUTU_SPENT2].astype(np.int8)
    cols["pututu_changed_action"] = out_stats[:, STAT_PUTUTU_CHANGED].astype(np.int8)
    cols["rolled_doubles"] = out_stats[:, STAT_DOUBLES].astype(np.int8)
    cols["rolled_triples"] = out_stats[:, STAT_TRIPLES].astype(np.int8)
    return cols
