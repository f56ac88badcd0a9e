"""The game contract suite: every registered game, and the toy game Pig written only against the
contract (tests/toygame/pig), gets these checks by registering. Per-game test files keep only the
game's own rules and examples.

Checked mode on random and mixed line-ups for every player count, identical tables whatever the
threads and chunk sizes, replay equal to the batch row, the column schema, every bot playing a
game, bad variants named by their key, and every command on the toy game.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from determinism import assert_same_tables, tables_by_threads_and_chunks
from fuzz_helpers import run_cli
from sim.core import registry, runner
from sim.core.dataset import build_tables
from sim.core.errors import UserError
from sim.core.game import GAME_COLUMNS, PLAYER_COLUMNS, REPLAY_FINAL, ContractError, check_columns
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.core.params import strip_provenance

TOY_GAMES_DIR = Path(__file__).resolve().parent / "toygame"
REPO_ROOT = Path(__file__).resolve().parent.parent
TOY = "pig"
GAME_NAMES = [*registry.game_names(), TOY]
CHECKED_GAMES = {"cuzco": 40, "chachapoya": 300, "machu_picchu": 300, "tahuantinsuyu": 300, TOY: 300}  # games per checked-mode case
CHECKED_PLAYERS = {"tahuantinsuyu": (3, 4)}  # player counts checked, when not 2, 3 and 4 (Tahuantinsuyu has no 2)


@pytest.fixture
def toy_registered(monkeypatch):
    """Pig discoverable by the real registry, as if it were a package under sim/games."""
    import sim.games

    monkeypatch.setattr(sim.games, "__path__", [*sim.games.__path__, str(TOY_GAMES_DIR)])
    yield


@pytest.fixture(params=GAME_NAMES)
def game(request):
    if request.param == TOY:
        request.getfixturevalue("toy_registered")
    return registry.get_game(request.param)


def _fast_bots(game) -> list[str]:
    """The bots that take milliseconds a game (not the search bots)."""
    return [b for b in game.bots() if game.kind_name(b) != "search"]


def _lineup(game, n_players: int, kind: str) -> list[str]:
    if kind == "random":
        return ["random"] * n_players
    styles = [b for b in _fast_bots(game) if b != "random"] + ["random"]
    return [styles[(s * 2) % len(styles)] for s in range(n_players)]


def _simulate(game, n_players, lineup, n_games, seed=5, checked=False, params=None):
    params = params or game.resolve_params(None)
    names, idx = lineup_indices(lineup)
    return game.simulate(params, n_players, names, seat_bot_matrix(idx, 0, n_games, True), seed, 0, n_games, checked)


def _case_ids():
    return [(name, p, kind) for name in GAME_NAMES for p in CHECKED_PLAYERS.get(name, (2, 3, 4))
            for kind in ("random", "mixed")]


# ------------------------------------------------------------------ the contract's attributes
def test_every_game_declares_the_contract(game):
    for attribute in ("name", "description", "player_counts", "default_players", "card_groups"):
        assert getattr(game, attribute) is not None
    assert game.default_players in game.player_counts
    assert "random" in game.bots(), "every game has a random-legal bot, the floor of every ladder"
    assert len(game.default_bots(game.default_players)) == game.default_players
    assert set(game.default_bots(game.default_players)) <= set(game.bots())
    assert isinstance(game.report_sections(), tuple)
    for bot in game.bots():  # the tuned weights lead the vector (a search budget may follow them)
        assert len(game.weight_names(bot)) <= game.bots()[bot].weights.shape[0]


# ------------------------------------------------------------------ invariants and the schema
@pytest.mark.parametrize("name,n_players,kind", _case_ids(), ids=["-".join(map(str, c)) for c in _case_ids()])
def test_checked_mode_on_random_and_mixed_lineups(request, name, n_players, kind):
    """Checked mode verifies the game's invariants after every step: no failures, and the result
    columns agree with each other (ranks, winners, winner_seat)."""
    if name == TOY:
        request.getfixturevalue("toy_registered")
    game = registry.get_game(name)
    assert n_players in game.player_counts
    res = _simulate(game, n_players, _lineup(game, n_players, kind), CHECKED_GAMES[name], checked=True)
    assert res.failures == []
    check_columns(name, res, CHECKED_GAMES[name], n_players)
    won = res.player_columns["won"].reshape(-1, n_players)
    rank = res.player_columns["rank"].reshape(-1, n_players)
    score = res.player_columns["score"].reshape(-1, n_players)
    winner = res.game_columns["winner_seat"]
    decided = won.any(axis=1)
    assert (rank[won] == 1).all()
    assert (rank >= 1).all() and (rank <= n_players).all()
    single = won.sum(axis=1) == 1
    assert (winner[single] == won[single].argmax(axis=1)).all()
    assert (winner[~single] == -1).all()  # a shared win or a game without a result
    best = score.max(axis=1, keepdims=True)
    assert (score[won] == np.broadcast_to(best, score.shape)[won]).all() or name == "chachapoya"
    assert len(res.categories["end_reason"]) > int(res.game_columns["end_reason"].max())


def test_a_missing_or_mistyped_column_breaks_the_contract(game):
    res = _simulate(game, game.default_players, game.default_bots(game.default_players), 2)
    check_columns(game.name, res, 2, game.default_players)
    for table, schema in (("game_columns", GAME_COLUMNS), ("player_columns", PLAYER_COLUMNS)):
        for column in schema:
            broken = _simulate(game, game.default_players, game.default_bots(game.default_players), 2)
            del getattr(broken, table)[column]
            with pytest.raises(ContractError, match=column):
                build_tables(broken, game_name=game.name, variant_name="base", run_seed=5,
                             n_players=game.default_players, bot_names=game.default_bots(game.default_players),
                             seat_bots=np.zeros((2, game.default_players), np.int8), first_game=0, n_games=2)
    broken = _simulate(game, game.default_players, game.default_bots(game.default_players), 2)
    broken.player_columns["score"] = broken.player_columns["score"].astype(np.float64)
    with pytest.raises(ContractError, match="score"):
        check_columns(game.name, broken, 2, game.default_players)


# ------------------------------------------------------------------ determinism and replay
def test_same_tables_whatever_the_threads_and_chunk_sizes(game):
    params = game.resolve_params(None)
    n = game.default_players
    one, many = tables_by_threads_and_chunks(game, params, n, _lineup(game, n, "mixed"), 30, 17, 7)
    assert_same_tables(one[0], many[0])
    assert_same_tables(one[1], many[1])


def test_runner_output_identical_for_workers_and_chunk_sizes(game, tmp_path):
    params = game.resolve_params(None)
    n = game.default_players
    names, idx = lineup_indices(_lineup(game, n, "mixed"))
    for out, workers, chunk in (("a", 1, 9), ("b", 2, 1000)):
        runner.run(game, params, n, names, idx, True, 25, 3, tmp_path / out, workers, chunk, progress=False)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / table), pd.read_parquet(tmp_path / "b" / table))


PLAIN_PYTHON_SCRIPT = """
import sys
import numpy as np
from sim.core import registry, runner
from sim.core.compile_engines import add_games_dirs
from sim.core.lineup import lineup_indices, seat_bot_matrix
sys.path.insert(0, sys.argv[1])
import test_contract
add_games_dirs([str(test_contract.TOY_GAMES_DIR)])
game = registry.get_game(sys.argv[2])
n = game.default_players
names, idx = lineup_indices(test_contract._lineup(game, n, "mixed"))
with np.errstate(over="ignore"):
    games, players = runner.run_chunk_in_memory(game, game.resolve_params(None), n, names,
                                                seat_bot_matrix(idx, 0, 2, True), 5, 0, 2)
games.to_pickle(sys.argv[3] + "/games.pkl")
players.to_pickle(sys.argv[3] + "/players.pkl")
"""


def test_plain_python_plays_the_same_games(game, tmp_path):
    """With NUMBA_DISABLE_JIT=1 (`make bench`'s plain-Python row, debugging with pdb) the engine
    runs as Python and plays the same games: every decorator in sim.core.jit must leave a plain
    function then (njit_level once failed at import)."""
    script = tmp_path / "plain.py"
    script.write_text(PLAIN_PYTHON_SCRIPT)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run([sys.executable, str(script), str(Path(__file__).parent), game.name, str(tmp_path)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    n = game.default_players
    names, idx = lineup_indices(_lineup(game, n, "mixed"))
    games, players = runner.run_chunk_in_memory(game, game.resolve_params(None), n, names,
                                                seat_bot_matrix(idx, 0, 2, True), 5, 0, 2)
    assert_same_tables(pd.read_pickle(tmp_path / "games.pkl"), games)
    assert_same_tables(pd.read_pickle(tmp_path / "players.pkl"), players)


@pytest.mark.parametrize("n_players", [2, 4])
def test_replay_equals_the_batch_row(game, n_players):
    """`sim replay` plays game i again with the log on: its final lines are row i of the batch."""
    n_players = n_players if n_players in game.player_counts else min(game.player_counts)
    params = game.resolve_params(None)
    names, idx = lineup_indices(_lineup(game, n_players, "mixed"))
    seed, n_games = 31, 6
    games, players = runner.run_chunk_in_memory(game, params, n_players, names,
                                                seat_bot_matrix(idx, 0, n_games, True), seed, 0, n_games)
    for index in (0, n_games - 1):
        row = seat_bot_matrix(idx, index, 1, True)[0]
        finals = {}
        for line in game.replay(params, n_players, names, row, seed, index):
            m = REPLAY_FINAL.search(line)
            if m:
                finals[int(m.group(1))] = (m.group(2), int(m.group(3)), int(m.group(4)))
        batch = players[players.game_id == index].sort_values("seat")
        assert sorted(finals) == list(range(n_players))
        assert [finals[s][0] for s in range(n_players)] == batch["bot"].astype(str).tolist()
        assert [finals[s][1] for s in range(n_players)] == batch["score"].tolist()
        assert [finals[s][2] for s in range(n_players)] == batch["rank"].tolist()


# ------------------------------------------------------------------ bots and variants
def test_every_bot_plays_a_game(game):
    """Each bot of `sim bots`, search bots included, plays a whole game in seat 0 without failing."""
    n = game.default_players
    others = game.default_bots(n)[1:]
    for bot in game.bots():
        res = _simulate(game, n, [bot, *others], 1, checked=game.kind_name(bot) != "search")
        assert res.failures == [], bot
        assert res.player_columns["rank"][0] >= 1


def test_an_unknown_bot_is_refused(game):
    with pytest.raises(UserError, match="no-such-bot"):
        _simulate(game, 2, ["no-such-bot", "random"], 1)


def _first_number(tree, path=()):
    for key, value in tree.items():
        if isinstance(value, dict):
            found = _first_number(value, (*path, key))
            if found:
                return found
        elif isinstance(value, int) and not isinstance(value, bool):
            return (*path, key), value
    return None


def _nest(path, value):
    out = value
    for key in reversed(path):
        out = {key: out}
    return out


def test_a_bad_variant_names_its_key(game):
    defaults = strip_provenance(game.resolve_params(None).resolved)
    path, _ = _first_number(defaults)
    dotted = ".".join(path)
    with pytest.raises(UserError, match=dotted.replace(".", r"\.")):
        game.resolve_params(_nest(path, "not a number"))
    with pytest.raises(UserError, match="no_such_key"):
        game.resolve_params({"no_such_key": 1})


# ------------------------------------------------------------------ every command on the toy game
def test_every_command_works_for_the_toy_game(toy_registered, tmp_path, capsys):
    def ok(*argv):
        status, out, err = run_cli(capsys, list(argv))
        assert status == 0, (argv, out, err)
        return out

    data = tmp_path / "data"
    assert "pig" in ok("games")
    assert "cautious" in ok("bots", TOY)
    ok("run", TOY, "--games", "400", "--seed", "1", "--rotate-seats", "--no-progress", "--out", str(data / "a"))
    variant = tmp_path / "long.toml"
    variant.write_text('name = "long"\n[rules]\ntarget = 80\n')
    ok("run", TOY, "--games", "400", "--seed", "1", "--rotate-seats", "--no-progress", "--variant", str(variant),
       "--out", str(data / "b"))
    assert "score" in ok("compare", str(data / "a"), str(data / "b"))
    assert "final: seat 0" in ok("replay", "--from", str(data / "a"), "--game-index", "3")
    ok("summary", str(data / "a"))
    ok("sweep", TOY, "--param", "rules.target=30,60", "--games", "200", "--no-progress", "--out", str(data / "s"))
    ok("tournament", TOY, "--bots", "random,cautious,bold", "--players", "2", "--games", "60", "--no-progress",
       "--out", str(data / "t"))
    ok("ladder", TOY, "--rungs", "random,cautious", "--players", "2", "--games", "60", "--no-progress",
       "--out", str(data / "l"))
    tuned = tmp_path / "tuned.toml"
    ok("tune", TOY, "--bot", "bold", "--generations", "2", "--games", "40", "--validation-games", "40",
       "--state", str(tmp_path / "tune.pkl"), "--out", str(tuned), "--no-progress")
    assert "[bots.bold-tuned" in tuned.read_text()
    manifest = json.loads((data / "a" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["config"]["game"] == TOY
