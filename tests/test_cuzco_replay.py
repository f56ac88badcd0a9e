"""`sim replay cuzco`: the text log of one game (sim/games/cuzco/replay.py).

The replay plays the game again from its seed with the event log on, so its final scores must be
the batch kernel's for the same seed and game index.
"""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from sim.games.cuzco import GAME
from sim.games.cuzco import replay as replay_mod
from sim.games.cuzco.state import S_LOG_N

FINAL = re.compile(r"final: seat (\d+) \(.*\) scores (-?\d+), rank (\d+)")


def replay(n_players, seed, game_index, variant=None):
    params = GAME.resolve_params(variant, "pututu" if variant else "base")
    names = GAME.default_bots(n_players)
    row = np.arange(n_players, dtype=np.int8)
    return params, names, GAME.replay(params, n_players, names, row, seed, game_index)


@pytest.mark.parametrize("n_players,seed,game_index,variant", [
    (4, 3, 2, None),
    (3, 17, 5, None),
    (2, 8, 0, {"pututu": {"enabled": True}}),
])
def test_replay_final_scores_match_the_batch(n_players, seed, game_index, variant):
    params, names, lines = replay(n_players, seed, game_index, variant)
    result = GAME.simulate(params, n_players, names, np.arange(n_players, dtype=np.int8)[None, :],
                           seed, game_index, 1)
    assert not result.failures
    finals = {}
    for line in lines:
        m = FINAL.search(line)
        if m:
            finals[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    assert sorted(finals) == list(range(n_players))
    assert [finals[s][0] for s in range(n_players)] == result.player_columns["score"].tolist()
    assert [finals[s][1] for s in range(n_players)] == result.player_columns["rank"].tolist()
    # the final lines close the log, after the end-of-game section, then the winner
    tail = lines[-(n_players + 1):]
    assert all(FINAL.search(line) for line in tail[:-1])
    winner = int(result.game_columns["winner_seat"][0])
    assert tail[-1] == f"winner: seat {winner} ({names[winner]}) with {finals[winner][0]} VP"
    assert lines.index("-- end of the game") < len(lines) - n_players - 1


def test_replay_tells_every_round_and_the_setup():
    _, names, lines = replay(4, 3, 2)
    assert lines[0] == "cuzco, 4 players, run seed 3, game 2, variant base"
    assert lines[1] == "seats: " + ", ".join(f"seat {s} ({names[s]})" for s in range(4))
    rounds = [line for line in lines if line.startswith("-- round ")]
    assert rounds == [f"-- round {r}" for r in range(1, 7)]
    assert lines[2].startswith("-- setup: player order ")
    assert sum(1 for line in lines[3:7] if "missions " in line and "god cards " in line) == 4
    round_1 = lines.index("-- round 1")
    assert sum(1 for line in lines[round_1:] if re.match(r"   seat \d \([\w-]+\) rolls \d \d \d$", line)) == 24
    # every die placement names its pips and the action space, one per line
    placements = [line for line in lines if re.match(r"   seat \d \([\w-]+\): (extra turn, )?\d pips? on \w+", line)]
    assert len(placements) >= 72
    # sub-events are indented beneath the line they belong to
    assert any(line.startswith("      ") for line in lines)
    assert all(line.startswith(("   ", "-- ", "cuzco,", "seats:", "winner:")) for line in lines)


def test_replay_is_deterministic():
    assert replay(3, 17, 5)[2] == replay(3, 17, 5)[2]


def test_replay_says_when_the_log_overflowed(monkeypatch):
    real = replay_mod.run_one

    def cut_short(*args):
        st, rec, log = real(*args)
        capacity = 200
        st[S_LOG_N] = min(st[S_LOG_N], capacity)
        return st, rec, log[:capacity]

    monkeypatch.setattr(replay_mod, "run_one", cut_short)
    _, _, lines = replay(4, 3, 2)
    assert "the event log is full at 200 events" in lines[-1]
    assert "the game did not finish" in lines[-2]


def test_cli_replay_prints_the_winner():
    result = subprocess.run([sys.executable, "-m", "sim", "replay", "cuzco", "--seed", "3", "--game-index", "2"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert out[0].startswith("cuzco, 4 players, run seed 3, game 2")
    assert re.fullmatch(r"winner: seat \d \([\w-]+\) with -?\d+ VP", out[-1])
