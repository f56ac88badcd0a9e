"""Cuzco's games stay the games they were when the rules last changed on purpose (issue 14).

tests/reference/ holds the first games of runs (how they were made: tests/reference/make_reference.py):
- modelled-*: the heuristic (phase-I options valued from their modelled effects, effects.py);
- lookahead-*: the same weights played as the kind "lookahead" (each phase-I option played by
  the rules on a copy), through the `NAME-lookahead` twins.
An exact rewrite (speed, layout) must leave them unchanged; a deliberate change of the rules or
of the bots' play regenerates them, and says so in its commit. Each run's config records the
weight vectors its bots had, so a re-tune does not change it. Base and Pututu, 3-4 players,
default and mixed line-ups. Every column both tables have must agree row for row; columns added
since are not compared.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sim.core import registry, runner
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.core.params import load_variant
from sim.games.cuzco.weights import W_HEIGHT, W_RIVAL_PRIEST

REFERENCE = Path(__file__).resolve().parent / "reference"
VARIANTS = Path(__file__).resolve().parents[1] / "variants"
TEMPLE_TERMS = W_HEIGHT + 1 - W_RIVAL_PRIEST
RECORDED_LENGTH = 56  # the recorded vectors: 53 heuristic weights and 3 search settings, before the temple terms
RUNS = sorted(p.name for p in REFERENCE.iterdir() if (p / "config.json").is_file())


def play_like(config: dict, n_games: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    game = registry.get_game(config["game"])
    variant = None
    if config["variant"] != "base":
        _, variant = load_variant(VARIANTS / f"{config['game']}-{config['variant']}.toml")
    params = game.resolve_params(variant, config["variant"])
    names, idx = lineup_indices(config["bots"])
    seat_bots = seat_bot_matrix(idx, 0, n_games, config["rotate_seats"])
    game = as_recorded(game, config.get("weights", {}))
    return runner.run_chunk_in_memory(game, params, config["players"], names, seat_bots, config["seed"], 0, n_games)


def as_recorded(game, weights: dict):
    """The game with the bots as the reference run had them: the weight vectors it recorded (a
    re-tune since changes a bot's weights, not the reference)."""
    class Recorded(type(game)):
        def bot_arrays(self, bot_names):
            kinds, vectors = super().bot_arrays(bot_names)
            for i, name in enumerate(bot_names):
                if name in weights:
                    recorded = in_todays_layout(weights[name])
                    vectors[i, :len(recorded)] = recorded
            return kinds, vectors
    twin = copy.copy(game)
    twin.__class__ = Recorded
    return twin


def in_todays_layout(recorded: list) -> list:
    """A recorded vector in today's layout: the scalar weights added since (issue 36's temple terms,
    rival_priest, tie_lead and height, after block) are 0 in every recorded bot, as in [defaults]."""
    if len(recorded) == RECORDED_LENGTH:
        return recorded[:W_RIVAL_PRIEST] + [0.0] * TEMPLE_TERMS + recorded[W_RIVAL_PRIEST:]
    return recorded


def same_values(before: pd.DataFrame, after: pd.DataFrame) -> list[str]:
    """The columns both frames have whose values differ (dtypes may have widened since)."""
    differ = []
    for col in before.columns.intersection(after.columns):
        a, b = before[col], after[col]
        if isinstance(a.dtype, pd.CategoricalDtype) or isinstance(b.dtype, pd.CategoricalDtype):
            a, b = a.astype(str), b.astype(str)
        if not np.array_equal(a.to_numpy(), b.to_numpy()):
            differ.append(col)
    return differ


def test_every_reference_run_is_present():
    assert {"modelled-3p", "modelled-4p", "modelled-4p-mixed-pututu", "lookahead-4p"} <= set(RUNS)


@pytest.mark.parametrize("run", RUNS)
def test_games_are_the_reference_games(run):
    config = json.loads((REFERENCE / run / "config.json").read_text())
    games_before = pd.read_parquet(REFERENCE / run / "games.parquet")
    players_before = pd.read_parquet(REFERENCE / run / "players.parquet")
    games, players = play_like(config, len(games_before))
    assert len(games) == len(games_before) and len(players) == len(players_before)
    assert same_values(games_before, games.sort_values("game_id").reset_index(drop=True)) == []
    assert same_values(players_before, players.sort_values(["game_id", "seat"]).reset_index(drop=True)) == []
