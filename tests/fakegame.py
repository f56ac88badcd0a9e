"""A tiny dice game implementing the Game contract, so the core is tested without a real game.

Each round every player rolls a die ("greedy" rolls twice and keeps the better roll); a roll of
exactly 1 by seat 0 may end the game early. Each seat then adds its `seat_bonus` (0 by default; the
balance search's known-answer tests move it). Ties for the top score are shared wins.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.core import rng
from sim.core.errors import UserError
from sim.core.game import BotSpec, ChunkResult, GameBase, Params
from sim.core.params import merge_variant

DEFAULTS = {
    "rounds": 5,
    "dice": {"sides": 6, "bonus": 0.0, "source": {"note": "any six-sided die"}},
    "elimination": {"threshold": 8},
    "debug": {"fail_game": -1},
    "seat_bonus": [0, 0, 0, 0],
}
END_REASONS = ["all_rounds", "snake_eyes"]


@njit(cache=True)
def _play(seat_kinds, run_seed, first_game, rounds, sides, threshold, fail_game, seat_bonus):
    n_games, n_players = seat_kinds.shape
    score = np.zeros(n_games * n_players, dtype=np.int16)
    won = np.zeros(n_games * n_players, dtype=np.bool_)
    eliminated = np.zeros(n_games * n_players, dtype=np.bool_)
    n_rounds = np.zeros(n_games, dtype=np.int16)
    end_reason = np.zeros(n_games, dtype=np.int8)
    error = np.zeros(n_games, dtype=np.int8)
    for g in range(n_games):
        state = np.empty(rng.STATE_WORDS, dtype=np.uint64)
        rng.seed_game_stream(state, run_seed, first_game + g)
        base = g * n_players
        played = 0
        for _ in range(rounds):
            played += 1
            stop = False
            for s in range(n_players):
                roll = rng.randint(state, sides) + 1
                if seat_kinds[g, s] == 1:
                    roll = max(roll, rng.randint(state, sides) + 1)
                score[base + s] += roll
                if s == 0 and roll == 1 and rng.uniform(state) < 0.5:
                    stop = True
            if stop:
                end_reason[g] = 1
                break
        n_rounds[g] = played
        for s in range(n_players):
            score[base + s] += seat_bonus[s]
        best = score[base]
        for s in range(1, n_players):
            best = max(best, score[base + s])
        for s in range(n_players):
            won[base + s] = score[base + s] == best
            eliminated[base + s] = score[base + s] < threshold
        if first_game + g == fail_game:
            error[g] = 1
    return score, won, eliminated, n_rounds, end_reason, error


class FakeGame(GameBase):
    name = "dicey"
    description = "Roll dice, highest total wins (test game)."
    player_counts = (2, 3, 4)
    default_players = 3

    def resolve_params(self, variant, variant_name="base", where=None):
        where = where or f"variant {variant_name!r}"
        resolved = merge_variant(DEFAULTS, variant or {}, where=where)
        if resolved["dice"]["sides"] < 2:
            raise UserError(f"{where}: dice.sides must be at least 2")
        bonus = resolved["seat_bonus"]
        if not all(isinstance(b, int) and not isinstance(b, bool) and -1000 <= b <= 1000 for b in bonus):
            raise UserError(f"{where}: seat_bonus must be whole numbers between -1000 and 1000")
        seat_bonus = np.zeros(max(len(bonus), max(self.player_counts)), dtype=np.int16)
        seat_bonus[:len(bonus)] = bonus
        engine = (resolved["rounds"], resolved["dice"]["sides"], resolved["elimination"]["threshold"],
                  resolved["debug"]["fail_game"], seat_bonus)
        return Params(resolved=resolved, engine=engine, variant_name=variant_name)

    def allowed_players(self, params):
        return self.player_counts

    def bots(self):
        return {
            "random": BotSpec("random", "rolls once", 0, np.zeros(0)),
            "greedy": BotSpec("greedy", "rolls twice, keeps the best", 1, np.zeros(0)),
        }

    def default_bots(self, n_players):
        return ["random"] * n_players

    def _kinds(self, bot_names, seat_bots):
        kinds = np.array([self.bots()[name].kind for name in bot_names], dtype=np.int8)
        return kinds[np.asarray(seat_bots)]

    def simulate(self, params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, checked=False):
        rounds, sides, threshold, fail_game, seat_bonus = params.engine
        score, won, eliminated, n_rounds, end_reason, error = _play(
            self._kinds(bot_names, seat_bots), np.uint64(run_seed), first_game, rounds, sides, threshold, fail_game,
            seat_bonus)
        failures = [(first_game + int(g), "score table corrupted") for g in np.flatnonzero(error)]
        by_game = score.reshape(n_games, n_players)
        rank = (1 + (by_game[:, None, :] > by_game[:, :, None]).sum(axis=2)).astype(np.int8).reshape(-1)
        return ChunkResult(
            game_columns={"n_rounds": n_rounds, "winner_seat": by_game.argmax(axis=1).astype(np.int8),
                          "end_reason": end_reason},
            player_columns={"score": score, "rank": rank, "won": won, "eliminated": eliminated},
            categories={"end_reason": END_REASONS},
            failures=failures,
        )

    def replay(self, params, n_players, bot_names, seat_bots_row, run_seed, game_index):
        result = self.simulate(params, n_players, bot_names, np.asarray(seat_bots_row)[None, :], run_seed,
                               game_index, 1)
        lines = [f"game {game_index} of seed {run_seed}"]
        for s in range(n_players):
            lines.append(f"seat {s} ({bot_names[seat_bots_row[s]]}): score {result.player_columns['score'][s]}")
        return lines


GAME = FakeGame()


def interrupt_at_chunk_one(game, monkeypatch) -> None:
    """Make the game's simulate raise KeyboardInterrupt (Ctrl-C) on its third call: the warm-up
    game, chunk 0, then chunk 1, so an interrupted run keeps exactly its first chunk."""
    calls, real = [], game.simulate

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(game, "simulate", interrupted)
