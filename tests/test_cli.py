"""CLI errors: one `error:` line on stderr, exit status 2, nothing written."""
import io
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
    # The repository beside these tests first, so a subprocess imports the `sim` under test.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS_DIR.parent), str(TESTS_DIR),
                                                        os.environ.get("PYTHONPATH", "")])}
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
    ("[dice]\nsidez = 4\n", "unknown parameter 'dice.sidez'; did you mean 'dice.sides'?"),
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


ORDERED_GAME = '''
import numpy as np
from fakegame import FakeGame


class OrderedGame(FakeGame):
    """dicey, recording the turn order: game i starts with seat i % N (start_order 0)."""

    name = "ordered"

    def simulate(self, params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, checked=False):
        result = super().simulate(params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, checked)
        starter = (first_game + np.arange(n_games)) % n_players
        order = (np.arange(n_players)[None, :] - starter[:, None]) % n_players
        result.player_columns["start_order"] = order.reshape(-1).astype(np.int8)
        return result


GAME = OrderedGame()
'''


@pytest.fixture
def with_ordered_game(monkeypatch, with_fake_game, fake_games_path):
    """`ordered`: the fake game with a start_order column (a game that records its turn order)."""
    package = fake_games_path / "ordered"
    package.mkdir()
    (package / "__init__.py").write_text(ORDERED_GAME)
    yield
    sys.modules.pop("sim.games.ordered", None)


def test_run_and_summary_print_the_turn_order_table(tmp_path, capsys, with_ordered_game):
    """Issue 37, wall 1: `sim run` and `sim summary` answer "does the first player win more?" with
    the turn-order table and a first-player line against the fair share, the seat table kept."""
    out = tmp_path / "o"
    assert main(["run", "ordered", "--games", "300", "--players", "3", "--out", str(out), "--no-progress",
                 "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert main(["summary", str(out)]) == 0
    summary = capsys.readouterr().out
    for text in (printed, summary):
        assert "turn order 0" in text and "turn order 2" in text and "seat 0" in text and "bot random" in text
        line = next(line for line in text.splitlines() if line.startswith("first player "))
        assert "against a fair 33.3%" in line and "300 games" in line
    import pandas as pd

    players = pd.read_parquet(out / "players")
    first = players[players["start_order"] == 0]
    rate = first["won"].sum() / players.groupby("game_id")["won"].any().sum()
    assert f"first player {100 * rate:.1f}% [" in summary


def test_summary_without_turn_order_has_no_first_player_line(tmp_path, capsys, with_fake_game):
    out = tmp_path / "o"
    assert main(["run", "dicey", "--games", "30", "--out", str(out), "--no-progress", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "first player" not in printed and "turn order" not in printed and "seat 0" in printed


def test_params_lists_every_key_with_value_type_and_source(tmp_path, capsys, with_fake_game):
    """Issue 37, wall 3: `sim params GAME` lists every key a variant can set; --variant shows its values."""
    assert main(["params", "dicey"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dicey (variant base): 6 keys")
    keys = [line.split()[0] for line in lines[2:]]
    assert keys == ["rounds", "dice.sides", "dice.bonus", "elimination.threshold", "debug.fail_game", "seat_bonus"]
    assert lines[2 + keys.index("dice.bonus")].split()[1:3] == ["0.0", "float"]
    assert lines[2 + keys.index("seat_bonus")].split()[1:7] == ["[0,", "0,", "0,", "0]", "list", "of"]
    (tmp_path / "v.toml").write_text("[dice]\nsides = 8\n")
    assert main(["params", "dicey", "dice", "--variant", str(tmp_path / "v.toml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("dicey (variant v): 2 keys") and lines[2].split()[:3] == ["dice.sides", "8", "int"]


def test_params_unknown_prefix_and_variant_key_suggest_the_near_key(tmp_path, capsys, with_fake_game):
    """Issue 37, wall 3: an unknown key gets "did you mean" (difflib) in its one-line error, exit 2."""
    with pytest.raises(SystemExit) as info:
        main(["params", "dicey", "dise"])
    assert info.value.code == 2
    assert_one_line_error(capsys.readouterr().err, "no parameter key starts with 'dise'; did you mean 'dice'?")
    with pytest.raises(SystemExit) as info:
        main(["run", "dicey", "--param", "elimination.treshold=3", "--out", str(tmp_path / "o")])
    assert info.value.code == 2
    assert_one_line_error(capsys.readouterr().err, "did you mean 'elimination.threshold'? (sim params dicey lists "
                                                   "every key)")
    assert not (tmp_path / "o").exists()


def test_params_of_cuzco_show_bounds_and_sources(capsys):
    """Bounds come from the game's declarations (sim.core.paramspec), sources from its `source`
    tables, a field of a table of rows ([goods.source] count = ...) documented for every row."""
    assert main(["params", "cuzco"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[2:]}
    assert rows["rules.rounds"].split()[1:] == ["6", "int", "1", "to", "6", "printed", "(Playing", "the", "Game:",
                                                "6", "rounds)"]
    assert "reconstructed" in rows["rules.circlet_vp"] and "6 entries, -100 to 100" in rows["rules.circlet_vp"]
    assert rows["goods.soup.count"].rstrip().endswith("printed (Components: 7/6/5/5/4/3)")
    assert "0 to 12" in rows["setup.god_deal_per_pile.2"]


def test_rerunning_a_finished_run_points_at_it(tmp_path, capsys, with_fake_game):
    """Issue 37, wall 9: the same `sim run` into the same --out again prints where the result is and
    its summary (exit 0, nothing played); another configuration there is a one-line error, exit 2."""
    out = tmp_path / "o"
    command = ["run", "dicey", "--games", "40", "--seed", "2", "--out", str(out), "--no-progress", "--workers", "1",
               "--chunk-size", "15"]
    assert main(command) == 0
    first = capsys.readouterr().out
    manifest = (out / "manifest.json").read_bytes()
    assert main(command[:-2]) == 0  # the run's own chunk size is taken when none is given
    again = capsys.readouterr().out
    assert again.splitlines()[0].startswith(f"dataset: {out} (already there: this run")
    assert again.splitlines()[1:] == first.splitlines()[1:]
    assert (out / "manifest.json").read_bytes() == manifest
    with pytest.raises(SystemExit) as info:
        main(["run", "dicey", "--games", "50", "--seed", "2", "--out", str(out), "--no-progress"])
    assert info.value.code == 2
    assert_one_line_error(capsys.readouterr().err, "holds a finished run of another configuration: games 40 "
                                                   "(requested 50)")
    assert (out / "manifest.json").read_bytes() == manifest


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_first_load_of_an_uncompiled_engine_says_so_on_a_terminal(tmp_path, monkeypatch, with_fake_game):
    """Issue 37, wall 4: the first command after set-up is not silent while it compiles: loading a
    game whose compiled code is not cached prints one line first, on a terminal only (tests, pipes quiet)."""
    from sim.core import registry

    monkeypatch.setenv("SIM_NUMBA_CACHE_BASE", str(tmp_path / "cache"))  # empty: nothing compiled
    monkeypatch.delenv("SIM_QUIET_COMPILE", raising=False)
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    registry.get_game("dicey")
    assert quiet.getvalue() == ""
    sys.modules.pop("sim.games.dicey", None)
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    registry.get_game("dicey")
    assert terminal.getvalue() == "compiling the dicey engine once (about 5 s); later runs start at once\n"
    registry.get_game("dicey")  # already loaded: nothing more
    assert terminal.getvalue().count("\n") == 1


def test_compile_notice_only_when_the_cache_is_missing(tmp_path, monkeypatch):
    from sim import compile_notice, numba_cache

    pig = TESTS_DIR / "toygame" / "pig"
    monkeypatch.setenv("SIM_NUMBA_CACHE_BASE", str(tmp_path))
    stream = io.StringIO()
    assert compile_notice.compile_notice("pig", pig, stream)
    seconds = compile_notice.estimated_compile_seconds(pig)
    assert stream.getvalue() == f"compiling the pig engine once (about {seconds} s); later runs start at once\n"
    for group in (pig, None):  # both the game's folder and the core helpers' hold compiled code
        folder = tmp_path / numba_cache.group_folder(group)
        folder.mkdir()
        (folder / "x.nbi").write_bytes(b"")
    assert not compile_notice.compile_notice("pig", pig, io.StringIO())
    cuzco = TESTS_DIR.parent / "sim" / "games" / "cuzco"
    assert 60 <= compile_notice.estimated_compile_seconds(cuzco) <= 120  # about 90 s measured (README)


def test_readme_tells_the_set_up_alone():
    """Issue 37, wall 5: the README says how to set up alone, get `sim` on the PATH, and what the
    one-time compile is; the Makefile has the target it names."""
    readme = (TESTS_DIR.parent / "README.md").read_text()
    first_hour = readme[readme.index("## Set-up (the first hour)"):readme.index("## Quick start")]
    for text in ("make setup", ". .venv/bin/activate", ".venv/bin/sim", "compiling the cuzco engine once",
                 "sim compare data/a data/b", "sim params cuzco"):
        assert text in first_hour, text
    assert "\nsetup:" in (TESTS_DIR.parent / "Makefile").read_text()


def test_sweep_summary_of_a_game_with_turn_order_prints_it_per_cell(tmp_path, capsys, with_ordered_game):
    """Issue 37, wall 1: a sweep's summary lines up the win rate by turn order too, every cell."""
    out = tmp_path / "grid"
    assert main(["sweep", "ordered", "--param", "rounds=3,5", "--games", "60", "--players", "2", "--out", str(out),
                 "--no-progress", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert main(["summary", str(out)]) == 0
    assert capsys.readouterr().out == printed.split("\n", 1)[1]
    turn_rows = [line for line in printed.splitlines() if "turn order" in line]
    assert len(turn_rows) == 4 and all(line.startswith("rounds=") for line in turn_rows)
