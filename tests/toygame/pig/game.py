"""Pig as the core sees it: the Game object and its columns."""
from __future__ import annotations

import numpy as np

from sim.core.game import ChunkResult, Params, TomlGame, replay_final_line
from sim.core.parallel import run_blocks
from . import data
from .rules import play_batch, run_one
from .state import (
    END_REASON_NAMES, ERROR_NAMES, EV_BUST, EV_FINAL, EV_HOLD, EV_ROLL, EV_ROUND, N_P, N_STATE, P_BUSTS,
    P_RANK, P_ROLLS, P_SCORE, S_END_REASON, S_ERROR, S_LOG_N, S_PLAYERS, S_ROUND, S_WINNER,
)

# Output columns: (column, state slot or player field, dtype); a column is one row here.
GAME_FIELDS = (("n_rounds", S_ROUND, np.int16), ("winner_seat", S_WINNER, np.int8),
               ("end_reason", S_END_REASON, np.int8))
PLAYER_FIELDS = (("score", P_SCORE, np.int16), ("rank", P_RANK, np.int8), ("rolls", P_ROLLS, np.int16),
                 ("busts", P_BUSTS, np.int16))


class Pig(TomlGame):
    name = "pig"
    description = "Push-your-luck dice race to 50 (toy game of the contract tests, 2-6 players)."
    default_players = 2
    data = data

    def simulate(self, params: Params, n_players: int, bot_names: list[str], seat_bots: np.ndarray,
                 run_seed: int, first_game: int, n_games: int, checked: bool = False) -> ChunkResult:
        kinds, weights = self.bot_arrays(bot_names)
        out = np.zeros((n_games, N_STATE), np.int32)
        run_blocks(play_batch, n_games, params.engine, np.ascontiguousarray(seat_bots, np.int8), kinds, weights,
                   np.uint64(run_seed), np.uint64(first_game), checked, out)
        players = out[:, S_PLAYERS:S_PLAYERS + n_players * N_P].reshape(n_games * n_players, N_P)
        game_cols = {name: out[:, slot].astype(dt) for name, slot, dt in GAME_FIELDS}
        player_cols = {name: players[:, f].astype(dt) for name, f, dt in PLAYER_FIELDS}
        winners = np.repeat(game_cols["winner_seat"], n_players)
        player_cols["won"] = winners == np.tile(np.arange(n_players), n_games)
        failures = [(first_game + int(i), f"engine error: {ERROR_NAMES[int(out[i, S_ERROR])]}")
                    for i in np.flatnonzero(out[:, S_ERROR])]
        return ChunkResult(game_cols, player_cols, {"end_reason": list(END_REASON_NAMES)}, failures)

    def replay(self, params: Params, n_players: int, bot_names: list[str], seat_bots_row: np.ndarray,
               run_seed: int, game_index: int) -> list[str]:
        kinds, weights = self.bot_arrays(bot_names)
        rows = np.asarray(seat_bots_row)
        state, events = run_one(params.engine, n_players, kinds[rows], weights[rows], np.uint64(run_seed),
                                np.uint64(game_index), False, True)
        who = [f"seat {s} ({bot_names[rows[s]]})" for s in range(n_players)]
        lines = [f"Pig, {n_players} players, seed {run_seed}, game {game_index}"]
        for ev, seat, a, b in events[:state[S_LOG_N]]:
            if ev == EV_ROUND:
                lines.append(f"-- round {a}")
            elif ev == EV_ROLL:
                lines.append(f"   {who[seat]} rolls {a}: turn total {b}")
            elif ev == EV_BUST:
                lines.append(f"   {who[seat]} busts, losing {a}")
            elif ev == EV_HOLD:
                lines.append(f"   {who[seat]} holds {a}: score {b}")
            elif ev == EV_FINAL:
                lines.append(replay_final_line(seat, bot_names[rows[seat]], a, b, seat == state[S_WINNER]))
        return lines
