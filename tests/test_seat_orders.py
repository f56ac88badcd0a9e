"""--permute-seats: every seating order of a line-up, for run, sweep, tournament, ladder and replay.

Rotation keeps a line-up's cyclic order (who sits just before whom); in Machu Picchu that order moves
a bot's win rate by about 9 points, so a designer needs a seating that averages over every order.
Played on the fake dice game (tests/fakegame.py): no real engine compiles.
"""
from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pandas as pd
import pyarrow.dataset as pads
import pytest

from fakegame import interrupt_at_chunk_one
from sim.cli import main
from sim.core import runner
from sim.core.errors import EngineFailure, UserError
from sim.core.lineup import lineup_indices, seat_bot_matrix, seat_orders
from sim.core.summary import format_summary, summarize

# Four players with two pairs: the line-up's cyclic orders differ (g,g,r,r side by side or g,r,g,r
# alternating), which rotation alone never changes.
LINEUP = ["greedy", "greedy", "random", "random"]


def run_dicey(game, out, n_games=96, seed=11, workers=1, chunk_size=20, rotate=False, permute=True, params=None,
              **kw):
    names, idx = lineup_indices(LINEUP)
    return runner.run(game, params or game.resolve_params(None), len(LINEUP), names, idx, rotate, n_games, seed, out,
                      workers, chunk_size, progress=False, permute=permute, **kw)


def expected_bots(lineup, game_index):
    """The documented order, computed independently: games in blocks of P, block b the b-th cyclic order
    (position 0 first, the rest in itertools.permutations order), rotated as --rotate-seats rotates."""
    n = len(lineup)
    rest = list(itertools.permutations(range(1, n)))[(game_index // n) % math.factorial(n - 1)]
    cyclic = (0, *rest)
    return [lineup[cyclic[(seat + game_index) % n]] for seat in range(n)]


def predecessor_pairs(rows):
    """(bot, the bot in the next seat round the table) over every seat of every game."""
    n = rows.shape[1]
    return Counter((int(row[s]), int(row[(s + 1) % n])) for row in rows for s in range(n))


# ------------------------------------------------------------------------------ the seating matrix
def test_three_players_seat_all_six_orders_in_six_games_each_bot_twice_per_seat():
    rows = seat_bot_matrix(np.array([0, 1, 2], np.int8), 0, 6, rotate=False, permute=True)
    assert sorted(map(tuple, rows.tolist())) == sorted(itertools.permutations(range(3)))
    for seat in range(3):
        assert Counter(rows[:, seat].tolist()) == {0: 2, 1: 2, 2: 2}
    # every bot just before every other bot equally often (rotation gives only 0->1->2->0)
    assert predecessor_pairs(rows) == {pair: 3 for pair in itertools.permutations(range(3), 2)}
    rotated = seat_bot_matrix(np.array([0, 1, 2], np.int8), 0, 6, rotate=True)
    assert set(predecessor_pairs(rotated)) == {(0, 1), (1, 2), (2, 0)}


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 6])
def test_every_p_factorial_games_seat_every_ordering_once_and_every_p_games_every_seat(n_players):
    lineup = np.arange(n_players, dtype=np.int8)
    orders = math.factorial(n_players)
    rows = seat_bot_matrix(lineup, 3 * orders, orders, rotate=False, permute=True)
    assert len({tuple(r) for r in rows.tolist()}) == orders
    blocks = rows.reshape(-1, n_players, n_players)  # every P games from a multiple of P: each bot once per seat
    assert all((np.sort(block, axis=0) == lineup[:, None]).all() for block in blocks)
    assert [list(r) for r in rows[:50].tolist()] == [expected_bots(list(range(n_players)), 3 * orders + i)
                                                     for i in range(min(50, orders))]
    assert (seat_bot_matrix(lineup, 0, n_players, False, True)
            == seat_bot_matrix(lineup, 0, n_players, True)).all()  # the first P games are the rotation's


def test_seating_is_a_function_of_the_game_index_and_changes_nothing_for_a_mirror():
    lineup = np.array([0, 0, 1, 1], np.int8)
    whole = seat_bot_matrix(lineup, 0, 60, False, True)
    pieces = np.vstack([seat_bot_matrix(lineup, 0, 7, False, True), seat_bot_matrix(lineup, 7, 53, False, True)])
    assert (whole == pieces).all()
    mirror = np.zeros(4, np.int8)
    assert (seat_bot_matrix(mirror, 5, 30, False, True) == seat_bot_matrix(mirror, 5, 30, False)).all()
    assert seat_orders(6).shape == (720, 6) and not seat_orders(6).flags.writeable


def test_rotate_and_permute_together_are_refused(tmp_path, game):
    with pytest.raises(UserError, match="exclude each other"):
        seat_bot_matrix(np.arange(3, dtype=np.int8), 0, 3, rotate=True, permute=True)
    with pytest.raises(UserError, match="exclude each other"):
        run_dicey(game, tmp_path / "run", rotate=True, permute=True)
    assert not (tmp_path / "run").exists()


# ------------------------------------------------------------------------------------- a run
def players_of(out):
    return pd.read_parquet(out / "players").sort_values(["game_id", "seat"]).reset_index(drop=True)


def test_a_permuted_run_seats_the_documented_order_whatever_chunks_or_workers(tmp_path, game):
    manifest = run_dicey(game, tmp_path / "a", workers=1, chunk_size=7)
    run_dicey(game, tmp_path / "b", workers=2, chunk_size=1000)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / table), pd.read_parquet(tmp_path / "b" / table))
    players = players_of(tmp_path / "a")
    seated = players.groupby("game_id")["bot"].apply(lambda b: [str(x) for x in b]).tolist()
    assert seated == [expected_bots(LINEUP, i) for i in range(96)]
    assert (players.groupby(["bot", "seat"], observed=True).size() == 48).all()  # 96 games: each bot 2 x 24 per seat
    assert manifest["config"]["permute_seats"] is True and manifest["config"]["rotate_seats"] is False
    header = format_summary(summarize(tmp_path / "a")).splitlines()[0]
    assert header.endswith("seed 11, seats permuted")
    run_dicey(game, tmp_path / "r", rotate=True, permute=False)
    rotated = players_of(tmp_path / "r").groupby("game_id")["bot"].apply(lambda b: [str(x) for x in b])
    assert rotated[9] == ["greedy", "random", "random", "greedy"] != seated[9] == ["random", "greedy", "random", "greedy"]


def test_a_dask_run_permutes_seats_as_the_local_backend_does(tmp_path, game, with_fake_game):
    from dask.distributed import LocalCluster

    run_dicey(game, tmp_path / "local", n_games=48)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as threads:
        main(["run", "dicey", "--players", "4", "--bots", ",".join(LINEUP), "--games", "48", "--seed", "11",
              "--permute-seats", "--chunk-size", "20", "--out", str(tmp_path / "dask"), "--no-progress",
              "--backend", "dask", "--scheduler", threads.scheduler_address])
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dask" / table),
                                      pd.read_parquet(tmp_path / "local" / table))


def test_an_interrupted_permuted_run_resumes_to_the_same_data(tmp_path, game, monkeypatch):
    run_dicey(game, tmp_path / "whole")
    real = game.simulate
    interrupt_at_chunk_one(game, monkeypatch)
    with pytest.raises(KeyboardInterrupt, match="20 of 96 games are kept"):
        run_dicey(game, tmp_path / "cut")
    monkeypatch.setattr(game, "simulate", real)
    with pytest.raises(UserError, match="permute_seats True \\(requested False\\)"):
        run_dicey(game, tmp_path / "cut", rotate=True, permute=False, resume=True)
    run_dicey(game, tmp_path / "cut", resume=True)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "cut" / table),
                                      pd.read_parquet(tmp_path / "whole" / table))


def test_an_engine_failure_names_the_permuted_replay_command(tmp_path, game):
    params = game.resolve_params({"debug": {"fail_game": 9}})
    with pytest.raises(EngineFailure) as info:
        run_dicey(game, tmp_path / "run", params=params)
    assert ("sim replay dicey --seed 11 --game-index 9 --players 4 --bots greedy,greedy,random,random "
            "--permute-seats") in str(info.value)


# ------------------------------------------------------------------------------- CLI and replay
def test_replay_of_game_k_seats_what_the_permuted_dataset_says(tmp_path, capsys, with_fake_game):
    out = tmp_path / "o"
    assert main(["run", "dicey", "--players", "4", "--bots", ",".join(LINEUP), "--games", "30", "--seed", "3",
                 "--permute-seats", "--out", str(out), "--chunk-size", "8", "--workers", "1", "--no-progress"]) == 0
    assert "seats permuted" in capsys.readouterr().out
    players = players_of(out)
    for k in (0, 9, 17, 29):
        assert main(["replay", "--from", str(out), "--game-index", str(k)]) == 0
        from_manifest = capsys.readouterr().out
        assert main(["replay", "dicey", "--seed", "3", "--game-index", str(k), "--players", "4",
                     "--bots", ",".join(LINEUP), "--permute-seats"]) == 0
        assert capsys.readouterr().out == from_manifest
        rows = players[players.game_id == k]
        assert from_manifest.splitlines()[1:] == [f"seat {seat} ({bot}): score {score}"
                                                  for seat, bot, score in zip(rows.seat, rows.bot, rows.score)]


@pytest.mark.parametrize("command", [
    ["run", "dicey", "--games", "10"],
    ["sweep", "dicey", "--param", "rounds=2,3", "--games", "10"],
    ["replay", "dicey", "--game-index", "0"],
])
def test_rotate_and_permute_flags_together_exit_2_with_one_line(tmp_path, capsys, with_fake_game, command):
    with pytest.raises(SystemExit) as info:
        main([*command, "--rotate-seats", "--permute-seats", "--out", str(tmp_path / "o")]
             if command[0] != "replay" else [*command, "--rotate-seats", "--permute-seats"])
    assert info.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "not allowed with argument" in lines[0], lines
    assert not (tmp_path / "o").exists()


def test_a_permuted_sweep_permutes_every_cell(tmp_path, capsys, with_fake_game):
    out = tmp_path / "s"
    main(["sweep", "dicey", "--param", "rounds=2,3", "--players", "4", "--bots", ",".join(LINEUP), "--games", "24",
          "--permute-seats", "--out", str(out), "--workers", "1", "--no-progress"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["permute_seats"] is True
    for cell in manifest["cells"]:
        rows = pd.read_parquet(out / "players" / cell["partition"]).sort_values(["game_id", "seat"])
        assert rows.groupby("game_id")["bot"].apply(lambda b: [str(x) for x in b]).tolist() == [
            expected_bots(LINEUP, i) for i in range(24)]


def test_an_older_manifest_without_the_key_still_summarises_replays_and_grows(tmp_path, capsys, game,
                                                                               with_fake_game):
    out = tmp_path / "old"
    run_dicey(game, out, n_games=40, rotate=True, permute=False)
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["config"]["permute_seats"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert format_summary(summarize(out)).splitlines()[0].endswith("seats rotated")
    assert main(["replay", "--from", str(out), "--game-index", "5"]) == 0
    assert "seat 0 (greedy)" in capsys.readouterr().out  # game 5 rotated: greedy,random,random,greedy
    grown = run_dicey(game, out, n_games=80, rotate=True, permute=False, resume=True, grow=True)
    assert grown["status"] == "complete" and grown["config"]["games"] == 80
    run_dicey(game, tmp_path / "new", n_games=80, rotate=True, permute=False)
    pd.testing.assert_frame_equal(players_of(out), players_of(tmp_path / "new"))


# ------------------------------------------------------------------------- tournament and ladder
def lineup_rows(out):
    frame = pads.dataset(out / "players", format="parquet", partitioning="hive").to_table(
        columns=["lineup", "game_id", "seat", "bot"]).to_pandas()
    frame["lineup"], frame["bot"] = frame["lineup"].astype(str), frame["bot"].astype(str)
    return frame.sort_values(["lineup", "game_id", "seat"]).reset_index(drop=True)


def test_a_permuted_tournament_and_ladder_seat_every_ordering_of_each_lineup(tmp_path, capsys, with_fake_game):
    from sim.analysis import tournament as tour

    tournament, ladder = tmp_path / "t", tmp_path / "l"
    main(["tournament", "dicey", "--bots", "random,greedy", "--players", "4", "--games", "48", "--seed", "5",
          "--permute-seats", "--out", str(tournament), "--workers", "1", "--no-progress"])
    assert "seats permuted" in capsys.readouterr().out
    manifest = json.loads((tournament / "manifest.json").read_text())
    assert manifest["config"]["permute_seats"] is True and manifest["config"]["rotate_seats"] is False
    assert manifest["tournament"]["seating"].startswith("every ordering")
    rows = lineup_rows(tournament)
    for label, group in rows.groupby("lineup"):
        lineup = label.split("+")
        seated = group.groupby("game_id")["bot"].apply(list).tolist()
        assert seated == [expected_bots(lineup, i) for i in range(48)], label
    assert tour.payoff_table(tournament).table["seat_games"].sum() == 5 * 48 * 4
    main(["ladder", "dicey", "--rungs", "random,greedy", "--players", "4", "--games", "48", "--seed", "5",
          "--permute-seats", "--out", str(ladder), "--workers", "1", "--no-progress"])
    ladder_rows = lineup_rows(ladder)
    pd.testing.assert_frame_equal(ladder_rows, rows[rows.lineup.isin(set(ladder_rows.lineup))]
                                  .reset_index(drop=True))


def test_a_permuted_tournament_needs_a_multiple_of_p_factorial_games(tmp_path, capsys, with_fake_game):
    with pytest.raises(SystemExit) as info:
        main(["tournament", "dicey", "--bots", "random,greedy", "--players", "4", "--games", "20",
              "--permute-seats", "--out", str(tmp_path / "t"), "--no-progress"])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--games must be a multiple of 24 (4!) with --permute-seats" in err
    assert not (tmp_path / "t").exists()
