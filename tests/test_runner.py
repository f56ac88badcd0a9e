import json

import duckdb
import pandas as pd
import polars as pl
import pytest

import fakegame
from fakegame import interrupt_at_chunk_one
from sim.core import runner
from sim.core.errors import EngineFailure, UserError
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.core.summary import ChunkSums, format_summary, summarize

LINEUP = ["greedy", "random", "random"]


def run_fake(game, out, n_games=200, seed=11, workers=2, chunk_size=64, rotate=True, params=None, **kw):
    params = params or game.resolve_params(None)
    names, idx = lineup_indices(LINEUP)
    return runner.run(game, params, 3, names, idx, rotate, n_games, seed, out, workers, chunk_size,
                      progress=False, **kw)


def read_tables(out):
    return pd.read_parquet(out / "games"), pd.read_parquet(out / "players")


def test_dataset_is_readable_with_expected_layout_and_dtypes(tmp_path, game):
    out = tmp_path / "run"
    manifest = run_fake(game, out, n_games=200, chunk_size=64)
    assert sorted(p.name for p in (out / "players").iterdir()) == [f"part-0000{i}.parquet" for i in range(4)]
    assert json.loads((out / "manifest.json").read_text()) == manifest
    assert manifest["status"] == "complete" and manifest["config"]["bots"] == LINEUP
    assert [c["n_games"] for c in manifest["chunks"]] == [64, 64, 64, 8]

    games, players = read_tables(out)
    assert list(games.columns) == ["game_id", "seed", "game", "variant", "n_players", "n_rounds", "winner_seat",
                                   "end_reason"]
    assert list(players.columns) == ["game_id", "seat", "bot", "score", "rank", "won", "eliminated"]
    assert len(games) == 200 and len(players) == 600
    assert games.dtypes.astype(str).to_dict() == {
        "game_id": "int64", "seed": "int64", "game": "category", "variant": "category", "n_players": "int8",
        "n_rounds": "int16", "winner_seat": "int8", "end_reason": "category"}
    assert players.dtypes.astype(str).to_dict() == {
        "game_id": "int64", "seat": "int8", "bot": "category", "score": "int16", "rank": "int8", "won": "bool",
        "eliminated": "bool"}
    assert set(games["end_reason"]) <= set(fakegame.END_REASONS)
    assert (games["seed"] == 11).all() and (games["game"] == "dicey").all() and (games["variant"] == "base").all()
    assert players.loc[players.game_id == 1, "bot"].tolist() == ["random", "random", "greedy"]

    assert duckdb.sql(f"select count(*) from read_parquet('{out}/players/*.parquet')").fetchall()[0][0] == 600
    assert duckdb.sql(f"select count(*) from read_parquet('{out}/games/*.parquet')").fetchall()[0][0] == 200
    assert pl.read_parquet(out / "players" / "*.parquet").height == 600


def test_tables_identical_across_workers_and_chunk_sizes(tmp_path, game):
    run_fake(game, tmp_path / "a", workers=1, chunk_size=7)
    run_fake(game, tmp_path / "b", workers=2, chunk_size=1000)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / table),
                                      pd.read_parquet(tmp_path / "b" / table))


def test_in_memory_chunk_matches_written_rows(tmp_path, game):
    out = tmp_path / "run"
    run_fake(game, out, n_games=100, chunk_size=30)
    params = game.resolve_params(None)
    names, idx = lineup_indices(LINEUP)
    seat_bots = seat_bot_matrix(idx, 40, 25, rotate=True)
    games, players = runner.run_chunk_in_memory(game, params, 3, names, seat_bots, 11, 40, 25)
    written_games, written_players = read_tables(out)
    pd.testing.assert_frame_equal(games, written_games.iloc[40:65].reset_index(drop=True), check_categorical=False)
    pd.testing.assert_frame_equal(players, written_players.iloc[120:195].reset_index(drop=True),
                                  check_categorical=False)


@pytest.mark.parametrize("change, match", [
    ({"n_games": 0}, "--games must be at least 1"),
    ({"seed": -1}, "--seed must be between"),
    ({"seed": 2**63}, "--seed must be between"),
    ({"workers": 0}, "--workers must be at least 1"),
    ({"chunk_size": 0}, "--chunk-size must be at least 1"),
])
def test_bad_input_writes_nothing(tmp_path, game, change, match):
    out = tmp_path / "run"
    with pytest.raises(UserError, match=match):
        run_fake(game, out, **change)
    assert not out.exists()


def test_wrong_player_count(tmp_path, game):
    params = game.resolve_params(None)
    names, idx = lineup_indices(["random"] * 5)
    with pytest.raises(UserError, match="played by 2, 3, 4 players, not 5"):
        runner.run(game, params, 5, names, idx, False, 10, 0, tmp_path / "run", 1, 10, progress=False)
    assert not (tmp_path / "run").exists()


def test_existing_out_dir_is_refused_and_untouched(tmp_path, game):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(UserError, match=f"output directory {out} already exists"):
        run_fake(game, out)
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_engine_failure_names_game_seed_and_replay_command_and_removes_output(tmp_path, game):
    out = tmp_path / "run"
    params = game.resolve_params({"debug": {"fail_game": 150}})
    with pytest.raises(EngineFailure) as info:
        run_fake(game, out, n_games=200, chunk_size=64, seed=42, params=params)
    message = str(info.value)
    assert "game 150 of run seed 42" in message and "\n" not in message
    assert "sim replay dicey --seed 42 --game-index 150 --players 3 --bots greedy,random,random --rotate-seats" in message
    assert not out.exists()


def test_interrupt_keeps_finished_chunks_and_resume_completes_them_identically(tmp_path, game, monkeypatch):
    """Issue 5, crash safety: an interrupted run keeps its finished parts; --resume plays the rest."""
    reference = tmp_path / "reference"
    run_fake(game, reference, n_games=200, chunk_size=64)
    out = tmp_path / "run"
    real = game.simulate
    interrupt_at_chunk_one(game, monkeypatch)
    with pytest.raises(KeyboardInterrupt, match="64 of 200 games are kept"):
        run_fake(game, out, n_games=200, chunk_size=64)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "running" and [c["index"] for c in manifest["chunks"]] == [0]
    with pytest.raises(UserError, match="not complete"):
        summarize(out)
    monkeypatch.setattr(game, "simulate", real)
    with pytest.raises(UserError, match="already exists"):
        run_fake(game, out, n_games=200, chunk_size=64)
    finished = run_fake(game, out, n_games=200, chunk_size=64, resume=True)
    assert finished["status"] == "complete" and [c["index"] for c in finished["chunks"]] == [0, 1, 2, 3]
    assert finished["timings"]["games_this_session"] == 136
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / table), pd.read_parquet(reference / table))


def test_summary_reports_seats_bots_and_shared_wins(tmp_path, game):
    out = tmp_path / "run"
    run_fake(game, out, n_games=300)
    summary = summarize(out)
    assert summary.n_games == 300
    assert summary.by_seat["n"].tolist() == [300, 300, 300]
    assert summary.by_bot.loc["random", "n"] == 600
    players = pd.read_parquet(out / "players")
    assert summary.by_seat["wins"].sum() == players["won"].sum()
    assert (summary.by_seat["win_low"] <= summary.by_seat["win_rate"]).all()
    text = format_summary(summary)
    assert "seat 0" in text and "bot greedy" in text and "eliminated" in text and "mean rounds" in text


def test_engine_slices_within_a_chunk_do_not_change_the_rows(tmp_path, game, monkeypatch):
    """Chunks are played in slices (so Ctrl-C and the bar never wait long); any slice size gives the same data."""
    import sim.core.backends as backends

    run_fake(game, tmp_path / "whole", n_games=200, chunk_size=200)
    monkeypatch.setattr(backends, "ENGINE_SLICE", 7)
    run_fake(game, tmp_path / "sliced", n_games=200, chunk_size=200)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "whole" / table),
                                      pd.read_parquet(tmp_path / "sliced" / table))


def _summary_frames(summary):
    return summary.by_seat, summary.by_bot, (summary.n_games, summary.mean_rounds, summary.shared_win_games,
                                             summary.no_win_games)


def test_summary_from_the_run_chunks_equals_the_read_back_one_and_reads_no_part(tmp_path, game):
    """`sim run` summarises from the chunks' tables in memory: the same numbers, no part read back."""
    out = tmp_path / "run"
    sums = ChunkSums()
    run_fake(game, out, n_games=300, chunk_size=64, on_tables=sums.add)
    assert len(sums.parts) == 2 * 5
    from_disk, from_memory = summarize(out), summarize(out, known=sums)
    assert format_summary(from_memory) == format_summary(from_disk)
    for mine, theirs in zip(_summary_frames(from_memory), _summary_frames(from_disk)):
        if isinstance(mine, pd.DataFrame):
            pd.testing.assert_frame_equal(mine, theirs)
        else:
            assert mine == theirs
    for part in (out / "players").glob("*.parquet"):
        part.write_bytes(b"not parquet")
    assert format_summary(summarize(out, known=sums)) == format_summary(from_disk)
    with pytest.raises(UserError, match="damaged Parquet part"):
        summarize(out)


def test_summary_after_a_resume_reads_only_the_earlier_session_parts(tmp_path, game, monkeypatch):
    reference = tmp_path / "reference"
    run_fake(game, reference, n_games=200, chunk_size=64)
    out = tmp_path / "run"
    real, calls = game.simulate, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:  # the warm-up game, chunks 0 and 1, then Ctrl-C in chunk 2
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(game, "simulate", interrupted)
    with pytest.raises(KeyboardInterrupt, match="128 of 200 games are kept"):
        run_fake(game, out, n_games=200, chunk_size=64)
    monkeypatch.setattr(game, "simulate", real)
    sums = ChunkSums()
    run_fake(game, out, n_games=200, chunk_size=64, resume=True, on_tables=sums.add)
    assert sorted(sums.parts) == [f"{table}/part-{i:05d}.parquet" for table in ("games", "players") for i in (2, 3)]
    assert format_summary(summarize(out, known=sums)) == format_summary(summarize(reference))


def test_a_write_failing_on_the_background_thread_is_reported_and_removes_the_new_run(tmp_path, game, monkeypatch):
    """Parts are written on the writer thread while the engine plays on: its error still ends the run."""
    import sim.core.backends as backends

    real, calls = backends.write_chunk_parts, []

    def full_disk(out_dir, partition, chunk_index, games, players):
        calls.append(chunk_index)
        if chunk_index == 2:
            raise OSError(28, "No space left on device", str(out_dir / "games"))
        return real(out_dir, partition, chunk_index, games, players)

    monkeypatch.setattr(backends, "write_chunk_parts", full_disk)
    out = tmp_path / "run"
    with pytest.raises(UserError, match="cannot write to .*No space left on device; nothing was written"):
        run_fake(game, out, n_games=300, chunk_size=64)
    assert calls[:3] == [0, 1, 2] and not out.exists()  # chunk 3 may be played and written meanwhile


def test_win_share_splits_a_shared_win_among_its_winners():
    """A win shared by two counts a half to each, so a line-up's shares sum to 1; a stalemate counts
    in neither (game 3), as in the win rate."""
    from sim.core.summary import _group_stats, player_sums

    players = pd.DataFrame({"game_id": [1, 1, 2, 2, 3, 3], "seat": [0, 1, 0, 1, 0, 1],
                            "bot": ["a", "b", "a", "b", "a", "b"],
                            "won": [True, True, True, False, False, False]})
    stats = _group_stats(player_sums(players).by_bot)
    assert stats.loc["a", "win_rate"] == 1.0 and stats.loc["b", "win_rate"] == 0.5
    assert stats.loc["a", "win_share"] == 0.75 and stats.loc["b", "win_share"] == 0.25
    assert stats["win_share"].sum() == 1.0
