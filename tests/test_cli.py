"""CLI errors: one `error:` line on stderr, exit status 2, nothing written."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main

TESTS_DIR = Path(__file__).resolve().parent
LAUNCHER = ("import sys, sim.games; sim.games.__path__.append(sys.argv.pop(1)); "
            "from sim.cli import main; raise SystemExit(main())")


def sim_subprocess(fake_games_path, *args, cwd):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", LAUNCHER, str(fake_games_path), *args],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def assert_one_line_error(stderr, fragment):
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and fragment in lines[0], lines[0]


def test_unknown_game_subprocess(tmp_path):
    result = subprocess.run([sys.executable, "-m", "sim", "run", "nosuchgame", "--out", str(tmp_path / "o")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, "unknown game 'nosuchgame'")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("args, fragment", [
    (["--bots", "nobot"], "unknown bot 'nobot'"),
    (["--players", "7"], "not 7"),
    (["--games", "0"], "--games must be at least 1"),
    (["--games", "x"], "invalid int value"),
])
def test_bad_run_arguments_subprocess(tmp_path, fake_games_path, args, fragment):
    result = sim_subprocess(fake_games_path, "run", "dicey", "--out", "o", *args, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert_one_line_error(result.stderr, fragment)
    assert not (tmp_path / "o").exists() and not (tmp_path / "data").exists()


@pytest.mark.parametrize("content, fragment", [
    ("rounds = = 3\n", "invalid TOML"),
    ("[dice]\nsidez = 4\n", "unknown parameter 'dice.sidez'"),
    ('rounds = "many"\n', "parameter 'rounds' must be a int"),
])
def test_bad_variant_subprocess(tmp_path, fake_games_path, content, fragment):
    (tmp_path / "v.toml").write_text(content)
    result = sim_subprocess(fake_games_path, "run", "dicey", "--variant", "v.toml", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stderr, fragment)
    assert "v.toml" in result.stderr
    assert not (tmp_path / "data").exists()


def test_existing_out_dir(tmp_path, capsys, with_fake_game):
    (tmp_path / "o").mkdir()
    with pytest.raises(SystemExit) as info:
        main(["run", "dicey", "--out", str(tmp_path / "o"), "--games", "10"])
    assert info.value.code == 2
    assert_one_line_error(capsys.readouterr().err, "already exists")
    assert list((tmp_path / "o").iterdir()) == []


def test_run_summary_and_replay_in_process(tmp_path, capsys, with_fake_game):
    out = tmp_path / "o"
    assert main(["run", "dicey", "--games", "50", "--seed", "3", "--bots", "greedy,random",
                 "--players", "2", "--rotate-seats", "--out", str(out), "--chunk-size", "20",
                 "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert f"dataset: {out}" in printed and "bot greedy" in printed

    assert main(["replay", "--from", str(out), "--game-index", "7"]) == 0
    from_manifest = capsys.readouterr().out
    assert main(["replay", "dicey", "--seed", "3", "--game-index", "7", "--players", "2",
                 "--bots", "greedy,random", "--rotate-seats"]) == 0
    assert capsys.readouterr().out == from_manifest
    assert "seat 0 (random)" in from_manifest  # game 7 is rotated by one seat

    assert main(["summary", str(out)]) == 0
    assert "seat 1" in capsys.readouterr().out


def test_engine_failure_exits_1_with_replay_command(tmp_path, capsys, with_fake_game):
    (tmp_path / "v.toml").write_text("[debug]\nfail_game = 3\n")
    with pytest.raises(SystemExit) as info:
        main(["run", "dicey", "--games", "10", "--variant", str(tmp_path / "v.toml"), "--out",
              str(tmp_path / "o"), "--no-progress"])
    assert info.value.code == 1
    assert_one_line_error(capsys.readouterr().err, "sim replay dicey --seed 0 --game-index 3")
    assert not (tmp_path / "o").exists()


def test_games_and_bots_listing(capsys, with_fake_game):
    assert main(["games"]) == 0
    assert "dicey" in capsys.readouterr().out
    assert main(["bots", "dicey"]) == 0
    assert "greedy" in capsys.readouterr().out
