"""Issue 5, crash safety and resume: parts written atomically, recorded as they complete, and a run
killed at any moment (kill -9) finished by `sim run ... --resume` into the dataset an
uninterrupted run writes, every game id exactly once."""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.core.errors import UserError
from sim.core.registry import get_game

SIM = [sys.executable, "-m", "sim"]
RUN = ["run", "chachapoya", "--games", "6000", "--chunk-size", "75", "--seed", "5", "--rotate-seats",
       "--workers", "2", "--no-progress"]


def recorded_chunks(out: Path) -> int:
    try:
        return len(json.loads((out / "manifest.json").read_text())["chunks"])
    except (FileNotFoundError, ValueError):
        return 0


def sorted_table(out: Path, table: str) -> pd.DataFrame:
    keys = ["game_id", "seat"] if table == "players" else ["game_id"]
    frame = pd.read_parquet(out / table)
    return frame.sort_values(keys).reset_index(drop=True)


def assert_same_dataset(a: Path, b: Path) -> None:
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(sorted_table(a, table), sorted_table(b, table))


def test_kill_9_mid_run_then_resume_gives_the_uninterrupted_dataset(tmp_path, capsys):
    """Only the killed run is a process of its own; the reference, the refused summary and the
    resume run in this one (a `sim` process spends seconds importing before it plays)."""
    reference, out = tmp_path / "reference", tmp_path / "killed"
    main(RUN + ["--out", str(reference)])

    process = subprocess.Popen(SIM + RUN + ["--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while recorded_chunks(out) < 5 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL
    kept = recorded_chunks(out)
    assert 5 <= kept < 80, "the run was not killed mid-way"
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"

    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:
        main(["summary", str(out)])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "not complete" in err and "--resume" in err

    main(RUN + ["--out", str(out), "--resume"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and len(manifest["resumed"]) == 1
    assert [c["index"] for c in manifest["chunks"]] == list(range(80))
    assert manifest["timings"]["games_this_session"] == 6000 - 75 * kept
    games = pd.read_parquet(out / "games", columns=["game_id"])["game_id"]
    assert games.is_unique and sorted(games) == list(range(6000))
    assert not list(out.rglob(".*.tmp"))
    assert_same_dataset(out, reference)


def _interrupted_run(tmp_path, monkeypatch, argv, after_chunks=2):
    """Run argv in-process and raise Ctrl-C when `after_chunks` chunks are recorded."""
    import sim.core.backends as backends

    real, calls = backends.run_chunk, []

    def counting(game, job, task, *rest):
        if len(calls) == after_chunks:
            raise KeyboardInterrupt
        calls.append(task.index)
        return real(game, job, task, *rest)

    monkeypatch.setattr(backends, "run_chunk", counting)
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    monkeypatch.setattr(backends, "run_chunk", real)
    return exit_info.value.code


def test_ctrl_c_keeps_parts_and_says_how_to_resume(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    argv = ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--out", str(out), "--no-progress"]
    assert _interrupted_run(tmp_path, monkeypatch, argv) == 130
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "2,000 of 3,000 games are kept" in err and "--resume" in err
    assert sorted(p.name for p in (out / "games").iterdir()) == ["part-00000.parquet", "part-00001.parquet"]
    main(argv + ["--resume"])
    assert "chachapoya" in capsys.readouterr().out
    assert len(pd.read_parquet(out / "games")) == 3000


def test_resume_refuses_a_different_configuration_and_leaves_the_run_untouched(tmp_path, monkeypatch, capsys):
    out = tmp_path / "run"
    argv = ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--out", str(out), "--no-progress"]
    _interrupted_run(tmp_path, monkeypatch, argv)
    capsys.readouterr()
    before = (out / "manifest.json").read_text()
    for change, named in ((["--seed", "9"], "seed"), (["--players", "3"], "players"),
                          (["--param", "setup.hand_size=9"], "parameters"), (["--chunk-size", "500"], "chunk_size"),
                          (["--bots", "random"], "bots")):
        with pytest.raises(SystemExit) as exit_info:
            main(argv + change + ["--resume"])  # the last of two --chunk-size options wins
        err = capsys.readouterr().err.strip()
        assert exit_info.value.code == 2 and "\n" not in err
        assert "holds a different run" in err and named in err, err
    assert (out / "manifest.json").read_text() == before
    main(argv + ["--resume", "--workers", "1"])  # execution settings may change
    assert len(pd.read_parquet(out / "games")) == 3000


def test_resume_refuses_a_bot_redefined_under_the_same_name(tmp_path, monkeypatch, capsys):
    """A bot re-tuned (or given another search budget) under its old name would mix two players'
    games in one dataset, or let `sim skill` reuse a rung the old bot played: a run's identity holds
    each bot's kind and non-zero weights (`bot_definitions`); a run written before it still resumes."""
    out = tmp_path / "run"
    argv = ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--out", str(out), "--no-progress"]
    _interrupted_run(tmp_path, monkeypatch, argv)
    capsys.readouterr()
    manifest = json.loads((out / "manifest.json").read_text())
    played = manifest["config"]["bot_definitions"]
    assert set(played) == set(get_game("chachapoya").default_bots(4))
    assert all(d["kind"] == "heuristic" and 0.0 not in d["weights"].values() for d in played.values())
    bot = sorted(played)[0]
    played[bot]["weights"]["gain"] += 1.0  # as if re-tuned since
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--resume"])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "\n" not in err and f"(kind or weights) of bot {bot} changed" in err
    del manifest["config"]["bot_definitions"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    main(argv + ["--resume"])
    assert len(pd.read_parquet(out / "games")) == 3000


def test_resume_removes_stale_temporaries_and_rewrites_unrecorded_parts(tmp_path, monkeypatch, capsys):
    out, reference = tmp_path / "run", tmp_path / "reference"
    argv = ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--no-progress"]
    main(argv + ["--out", str(reference)])
    _interrupted_run(tmp_path, monkeypatch, argv + ["--out", str(out)], after_chunks=1)
    # A kill between writing a part and recording it, and one in the middle of a write:
    garbage = pq.read_table(out / "games" / "part-00000.parquet").slice(0, 3)
    pq.write_table(garbage, out / "games" / "part-00001.parquet")
    (out / "players" / ".part-00001.parquet.tmp").write_bytes(b"half a file")
    (out / ".manifest.json.tmp").write_text("{")
    main(argv + ["--out", str(out), "--resume"])
    assert not list(out.rglob(".*.tmp"))
    assert_same_dataset(out, reference)


def test_resume_of_a_complete_run_does_nothing_and_of_a_missing_one_starts_it(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["run", "chachapoya", "--games", "500", "--out", str(out), "--resume"]
    main(argv)
    first = (out / "manifest.json").read_text()
    main(argv)
    assert "already complete" in capsys.readouterr().err
    assert (out / "manifest.json").read_text() == first


def test_resume_into_a_folder_that_is_not_a_run_is_refused(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "chachapoya", "--games", "10", "--out", str(out), "--resume"])
    assert exit_info.value.code == 2 and "holds no run to resume" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]


# ------------------------------------------------------------------ unwritable and full outputs
def test_output_under_a_file_is_a_one_line_error_and_creates_nothing(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "chachapoya", "--games", "10", "--out", str(blocker / "run")])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and err.startswith("error: cannot create the output directory") and "\n" not in err
    assert blocker.read_text() == "x"


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
def test_a_disk_that_fills_or_refuses_writes_ends_in_one_line_and_no_dataset(tmp_path, monkeypatch, capsys, code):
    import sim.core.dataset as dataset

    real, writes = dataset.pq.write_table, []

    def failing(table, where, **kwargs):
        writes.append(where)
        if len(writes) == 3:  # the second chunk's games part
            raise OSError(code, os.strerror(code), str(where))
        return real(table, where, **kwargs)

    monkeypatch.setattr(dataset.pq, "write_table", failing)
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--out", str(out), "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "\n" not in err
    assert os.strerror(code) in err and "nothing was written" in err
    assert not out.exists()


def test_a_write_failure_while_resuming_leaves_the_run_as_it_was(tmp_path, monkeypatch, capsys):
    import sim.core.dataset as dataset

    out = tmp_path / "run"
    argv = ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000", "--out", str(out), "--no-progress"]
    _interrupted_run(tmp_path, monkeypatch, argv, after_chunks=1)
    capsys.readouterr()

    def full(table, where, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(where))

    monkeypatch.setattr(dataset.pq, "write_table", full)
    with pytest.raises(SystemExit) as exit_info:
        main(argv + ["--resume"])
    assert exit_info.value.code == 2 and "is left as it was" in capsys.readouterr().err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "running" and len(manifest["chunks"]) == 1
    assert (out / "games" / "part-00000.parquet").exists()


def test_readers_refuse_a_running_dataset(tmp_path, monkeypatch, capsys):
    from sim.analysis.io import open_dataset

    out = tmp_path / "run"
    _interrupted_run(tmp_path, monkeypatch, ["run", "chachapoya", "--games", "3000", "--chunk-size", "1000",
                                             "--out", str(out), "--no-progress"])
    with pytest.raises(UserError, match="not complete.*--resume"):
        open_dataset(out)


def test_sigterm_stops_like_ctrl_c_and_the_run_resumes(tmp_path):
    out = tmp_path / "run"
    argv = SIM + ["run", "chachapoya", "--games", "6000", "--chunk-size", "75", "--no-progress", "--out", str(out)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while recorded_chunks(out) < 2 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("error: interrupted;") and "--resume" in err
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    main(argv[len(SIM):] + ["--resume"])
    assert len(pd.read_parquet(out / "games", columns=["game_id"])) == 6000


@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.text(min_size=0, max_size=300))
def test_any_output_path_runs_or_is_a_one_line_error(tmp_path, name):
    """Odd, huge, nested or empty --out names: a dataset, or one error line and nothing created."""
    before = set(tmp_path.rglob("*"))
    out = str(tmp_path / "o" / name)
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
        try:
            main(["run", "chachapoya", "--games", "3", "--no-progress", "--out", out])
            code = 0
        except SystemExit as exc:
            code = exc.code
    if code == 0:
        assert json.loads((Path(out) / "manifest.json").read_text())["status"] == "complete"
        shutil.rmtree(tmp_path / "o")
    else:
        text = stderr.getvalue()
        assert code == 2 and text.startswith("error: ") and text.count("\n") == 1, text
        leftovers = set(tmp_path.rglob("*")) - before
        assert all(p.is_dir() and p.name == "o" for p in leftovers), leftovers


# ------------------------------------------------------------------ growing a finished run
def test_resume_grows_a_finished_run_into_the_larger_run(tmp_path, capsys):
    """`sim run --resume` with a larger --games continues a finished run in whole chunks: the grown
    dataset is the one a run of the larger size writes from the start (games are seeded by index)."""
    grown, whole = tmp_path / "grown", tmp_path / "whole"
    base = ["run", "chachapoya", "--chunk-size", "50", "--seed", "3", "--rotate-seats", "--no-progress"]
    main(base + ["--games", "100", "--out", str(grown)])
    main(base + ["--games", "250", "--out", str(grown), "--resume"])
    main(base + ["--games", "250", "--out", str(whole)])
    assert_same_dataset(grown, whole)
    manifest = json.loads((grown / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["config"]["games"] == 250
    assert manifest["grown"][0]["from"] == 100 and manifest["grown"][0]["to"] == 250


def test_a_run_cannot_grow_across_a_different_chunk_or_configuration(tmp_path, capsys):
    out = tmp_path / "run"
    main(["run", "chachapoya", "--games", "100", "--chunk-size", "50", "--out", str(out), "--no-progress"])
    first = (out / "manifest.json").read_text()
    for extra in (["--chunk-size", "40"], ["--seed", "9", "--chunk-size", "50"]):
        with pytest.raises(SystemExit) as exit_info:
            main(["run", "chachapoya", "--games", "200", "--out", str(out), "--resume", "--no-progress"] + extra)
        assert exit_info.value.code == 2
    assert (out / "manifest.json").read_text() == first
