"""Issue 5, distributed runs: the Dask backend writes, row for row, the tables the local backend
writes, for a run and for a sweep, on a LocalCluster started for the run and on an existing
cluster named by --scheduler (2 worker processes on loopback)."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from sim.cli import main

RUN = ["run", "chachapoya", "--games", "3000", "--seed", "17", "--rotate-seats", "--bots", "greedy,random,balanced,cautious",
       "--no-progress"]
SWEEP = ["sweep", "chachapoya", "--param", "players=3,4", "--param", "rules.round_draw=1,2", "--games", "600",
         "--seed", "4", "--no-progress"]


def table(out, name, keys):
    frame = pd.read_parquet(out / name)
    return frame.sort_values(keys).reset_index(drop=True)


def assert_identical(a, b, sweep=False):
    game_keys = ["param.players", "param.rules.round_draw", "game_id"] if sweep else ["game_id"]
    pd.testing.assert_frame_equal(table(a, "games", game_keys), table(b, "games", game_keys))
    if not sweep:
        pd.testing.assert_frame_equal(table(a, "players", ["game_id", "seat"]), table(b, "players", ["game_id", "seat"]))
    else:
        for cell in json.loads((a / "manifest.json").read_text())["cells"]:
            pa_, pb = (pd.read_parquet(x / "players" / cell["partition"]).sort_values(["game_id", "seat"])
                       .reset_index(drop=True) for x in (a, b))
            pd.testing.assert_frame_equal(pa_, pb)


@pytest.fixture(scope="module")
def local_datasets(tmp_path_factory):
    root = tmp_path_factory.mktemp("local")
    main(RUN + ["--out", str(root / "run"), "--chunk-size", "1000", "--workers", "2"])
    main(SWEEP + ["--out", str(root / "sweep"), "--chunk-size", "600"])
    return root


def test_dask_local_cluster_matches_local_backend(tmp_path, local_datasets, capsys):
    out = tmp_path / "dask-run"
    main(RUN + ["--out", str(out), "--backend", "dask", "--workers", "2", "--chunk-size", "250"])
    assert_identical(out, local_datasets / "run")
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["backend"] == "dask" and manifest["status"] == "complete"
    assert len(manifest["chunks"]) == 12
    assert "dataset:" in capsys.readouterr().out


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as running:
        yield running


def test_existing_cluster_by_scheduler_address_matches_local_for_a_sweep(tmp_path, local_datasets, cluster):
    out = tmp_path / "dask-sweep"
    main(SWEEP + ["--out", str(out), "--backend", "dask", "--scheduler", cluster.scheduler_address,
                  "--chunk-size", "200"])
    assert_identical(out, local_datasets / "sweep", sweep=True)


def test_dask_run_resumes_a_run_the_local_backend_started(tmp_path, local_datasets, cluster, monkeypatch, capsys):
    import sim.core.backends as backends

    out = tmp_path / "mixed"
    real, calls = backends.run_chunk, []

    def interrupt_after_one(game, job, task, *rest):
        if calls:
            raise KeyboardInterrupt
        calls.append(task)
        return real(game, job, task, *rest)

    monkeypatch.setattr(backends, "run_chunk", interrupt_after_one)
    with pytest.raises(SystemExit):
        main(RUN + ["--out", str(out), "--chunk-size", "1000"])
    monkeypatch.setattr(backends, "run_chunk", real)
    main(RUN + ["--out", str(out), "--resume", "--backend", "dask", "--scheduler", cluster.scheduler_address])
    assert_identical(out, local_datasets / "run")


def test_engine_failure_on_a_dask_worker_names_seed_game_and_replay(tmp_path, capsys, with_fake_game):
    """A game that fails inside a Dask task is reported with its seed, game index and replay command."""
    from dask.distributed import LocalCluster

    out = tmp_path / "run"
    variant = tmp_path / "fail.toml"
    variant.write_text("[debug]\nfail_game = 130\n")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as threads:
        with pytest.raises(SystemExit) as exit_info:
            main(["run", "dicey", "--players", "3", "--games", "200", "--seed", "42", "--chunk-size", "50",
                  "--variant", str(variant), "--out", str(out), "--no-progress", "--backend", "dask",
                  "--scheduler", threads.scheduler_address])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 1 and "\n" not in err
    assert "engine failure in game 130 of run seed 42" in err and "nothing was written" in err
    assert f"sim replay dicey --seed 42 --game-index 130 --players 3 --bots random,random,random --variant {variant}" in err
    assert not out.exists()


@pytest.mark.parametrize("argv, fragment", [
    (["--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler at tcp://127.0.0.1:9"),
    (["--scheduler", "tcp://127.0.0.1:9"], "--scheduler needs --backend dask"),
    (["--backend", "spark"], "invalid choice: 'spark'"),
])
def test_backend_errors_are_one_line_and_create_nothing(tmp_path, capsys, monkeypatch, argv, fragment):
    import sim.core.backends as backends

    monkeypatch.setattr(backends, "SCHEDULER_TIMEOUT", "2s")
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "chachapoya", "--games", "10", "--out", str(out), "--no-progress"] + argv)
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "\n" not in err and fragment in err
    assert not out.exists()


def test_a_worker_with_other_engine_code_is_refused(tmp_path, cluster, monkeypatch, capsys):
    """The driver compares its engine fingerprint with every worker's before any game is played."""
    import sim.core.backends as backends

    monkeypatch.setattr(backends, "engine_fingerprint", lambda: "not-the-workers")
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "chachapoya", "--games", "10", "--out", str(out), "--no-progress", "--backend", "dask",
              "--scheduler", cluster.scheduler_address])
    err = capsys.readouterr().err.strip()
    assert exit_info.value.code == 2 and "runs other engine code" in err and "\n" not in err
    assert not out.exists()
