"""`sim tune`: the fitness is the win rate a dataset shows, candidates play their own weights, CMA-ES
repairs a sabotaged bot, an interrupted tune resumes to the same result, and the tuned bot is data."""
from __future__ import annotations

import json
import pickle
import signal
import subprocess
import sys
import tomllib

import numpy as np
import pandas as pd
import pytest

from sim.core import runner
from sim.core.errors import Interrupted, UserError
from sim.core.lineup import parse_bots, seat_bot_matrix
from sim.cli import main
from sim.studies.tune import (Evaluator, TuneSettings, derived_seed, games_per_evaluation, lineup_schedule, log_path,
                           tune, tuned_log_path, write_tuned_bot)
from sim.games.chachapoya import GAME, data as chachapoya_data
from sim.games.cuzco import data as cuzco_data

PARAMS = GAME.resolve_params(None)
BALANCED = GAME.bots()["balanced"]
NAMES = GAME.weight_names("balanced")


def _tiny(tmp_path, **changes) -> TuneSettings:
    settings = dict(bot="balanced", games=40, generations=3, popsize=4, validation_games=40, seed=5,
                    state=tmp_path / "state.pkl", out=tmp_path / "bots.tuned.toml", progress=False, workers=2)
    settings.update(changes)
    return TuneSettings(**settings)


def _fresh_game(monkeypatch, tuned_file):
    """A Chachapoya game object that loads its bots with `tuned_file` as bots.tuned.toml."""
    monkeypatch.setattr(chachapoya_data, "TUNED_BOTS_FILE", tuned_file)
    return type(GAME)()


@pytest.fixture(scope="module")
def tiny_tune(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("tune")
    return tune(GAME, PARAMS, _tiny(tmp_path)), tmp_path


# ------------------------------------------------------------------------------ the schedule, the fitness

def test_schedule_meets_every_pool_bot_equally_in_every_seat():
    for players, pool in ((4, 3), (4, 4), (3, 5), (2, 3)):
        n_games = games_per_evaluation(1, players, pool) * 2
        rows = lineup_schedule(n_games, players, pool)
        assert ((rows == 0).sum(axis=1) == 1).all()  # one candidate per game
        seats = np.argmax(rows == 0, axis=1)
        assert np.bincount(seats, minlength=players).tolist() == [n_games // players] * players
        for seat in range(players):  # per seat of the candidate, each pool bot equally often
            counts = np.bincount(rows[seats == seat].ravel(), minlength=pool + 1)[1:]
            assert len(set(counts.tolist())) == 1, (players, pool, seat, counts)


def test_games_are_rounded_up_to_whole_schedules():
    assert games_per_evaluation(400, 4, 3) == 400
    assert games_per_evaluation(401, 4, 3) == 404
    assert games_per_evaluation(10, 4, 4) == 16  # 4 line-ups x 4 seats


def test_fitness_is_the_win_rate_of_the_same_games_written_as_a_dataset(tmp_path):
    weights = BALANCED.weights * np.linspace(0.7, 1.3, BALANCED.weights.size)
    seed = derived_seed(3, 0, 7)
    evaluator = Evaluator(GAME, PARAMS, 4, "balanced", ["greedy"], 120)
    fitness = evaluator.evaluate(weights, seed)

    name = evaluator.candidate
    game = GAME.with_bot(name, weights, "candidate", kind=BALANCED.kind)
    runner.run(game, PARAMS, 4, [name, "greedy"], np.array([0, 1, 1, 1], np.int8), True, 120, seed,
               tmp_path / "ds", workers=2, chunk_size=50, progress=False)
    players = pd.read_parquet(tmp_path / "ds" / "players")
    mine = players[players["bot"] == name].set_index("game_id")
    best_other = players[players["bot"] != name].groupby("game_id")["score"].max()
    assert len(mine) == 120
    assert fitness.wins == int(mine["won"].sum())
    assert fitness.win_rate == mine["won"].mean()
    assert fitness.mean_margin == pytest.approx(float((mine["score"].astype(float) - best_other).mean()))
    assert 0 < fitness.wins < 120


def test_margin_only_orders_equal_win_counts():
    from sim.studies.tune import Evaluation

    assert Evaluation(50, 100, -100.0).objective > Evaluation(49, 100, 100.0).objective
    assert Evaluation(50, 100, 2.0).objective > Evaluation(50, 100, 1.0).objective


def test_games_without_a_winner_are_left_out_of_the_fitness(monkeypatch):
    """A stalemate (no player won) counts neither as a win nor as a game of the win rate; the
    margin still counts every game. The engine is replaced by fixed outcomes."""
    import sim.core.backends as backends
    from sim.core.game import BotSpec, ChunkResult
    from sim.studies.tune import Evaluation

    class Stub:
        name = "stub"

        def bots(self):
            return {"me": BotSpec("me", "", 1, np.ones(2)), "them": BotSpec("them", "", 1, np.ones(2))}

        def with_bot(self, name, weights, description, kind=None):
            return self

    # 2 players, 6 games; the candidate sits in seat (i % 2) of game i (rotated)
    won = np.array([[1, 0], [0, 1], [0, 0], [0, 1], [0, 0], [1, 1]], bool)  # games 2 and 4: stalemates
    score = np.array([[5, 3], [3, 5], [4, 4], [2, 6], [1, 1], [7, 7]], np.int16)
    monkeypatch.setattr(backends, "simulate_chunk", lambda *args: ChunkResult(
        {}, {"won": won.ravel(), "score": score.ravel()}))
    evaluator = Evaluator(Stub(), None, 2, "me", ["them"], 6)
    assert evaluator.candidate_seat.tolist() == [0, 1, 0, 1, 0, 1]
    result = evaluator.evaluate(np.ones(2), 1)
    assert (result.wins, result.games, result.no_winner, result.played) == (4, 4, 2, 6)
    assert result.win_rate == 1.0 and result.mean_margin == pytest.approx((2 + 2 + 0 + 4 + 0 + 0) / 6)
    assert Evaluation(0, 0, 0.0, no_winner=3).win_rate == 0.0  # every game stalled: no rate, no crash


# ------------------------------------------------------------------------------ with_bot

def test_with_bot_plays_the_given_weights_and_leaves_the_game_alone():
    seats = seat_bot_matrix(np.array([0, 1, 1, 1], np.int8), 0, 400, True)
    copy = GAME.with_bot("copy", BALANCED.weights, "balanced again", kind=BALANCED.kind)
    same = copy.simulate(PARAMS, 4, ["copy", "greedy"], seats, 9, 0, 400)
    original = GAME.simulate(PARAMS, 4, ["balanced", "greedy"], seats, 9, 0, 400)
    assert np.array_equal(same.player_columns["won"], original.player_columns["won"])
    assert "copy" not in GAME.bots() and "copy" in copy.bots()

    evaluator = Evaluator(GAME, PARAMS, 4, "balanced", ["random"], 400)
    balanced = evaluator.evaluate(BALANCED.weights, 9)
    zero = evaluator.evaluate(np.zeros_like(BALANCED.weights), 9)
    negated = evaluator.evaluate(-BALANCED.weights, 9)
    assert balanced.win_rate > zero.win_rate + 0.15
    assert balanced.win_rate > negated.win_rate + 0.2
    with pytest.raises(ValueError):
        GAME.with_bot("short", BALANCED.weights[:3], "too few weights", kind=BALANCED.kind)


def test_weight_names_come_from_the_games_data():
    assert NAMES[:3] == ("gain", "elimination", "draw_card") and len(NAMES) == BALANCED.weights.size
    assert GAME.weight_names("random") == ()
    assert GAME.kind_name("balanced") == "heuristic"


# ------------------------------------------------------------------------------ the optimiser

def test_cma_repairs_a_sabotaged_bot(tmp_path):
    weights = BALANCED.weights.copy()
    weights[NAMES.index("gain")] *= 0.25
    weights[NAMES.index("mu_base")] *= 4
    game = GAME.with_bot("sabotaged", weights, "undervalues gains, overbids", kind=BALANCED.kind)
    result = tune(game, PARAMS, _tiny(tmp_path, bot="sabotaged", pool=["random"], games=200, generations=6,
                                      popsize=8, sigma=0.5, seed=0, validation_games=800,
                                      state=tmp_path / "not" / "yet" / "state.pkl"))
    assert (tmp_path / "not" / "yet" / "state.pkl").is_file()  # the state's folder is created
    log = json.loads((tmp_path / "tune_logs" / "sabotaged-tuned.log.json").read_text())  # kept beside the weights
    assert [entry["generation"] for entry in log] == list(range(6))
    lo, _ = result.validation.interval()
    _, base_hi = result.base_validation.interval()
    assert lo > base_hi, (result.validation, result.base_validation)
    centre = [entry["centre_win_rate"] for entry in result.log]
    assert np.mean(centre[-2:]) > centre[0] + 0.1, centre
    assert result.weights["gain"] > weights[NAMES.index("gain")]


def test_interrupted_tune_resumes_to_the_uninterrupted_result(tmp_path, tiny_tune):
    whole, _ = tiny_tune

    def stop(generation, index):
        if (generation, index) == (1, 2):
            raise KeyboardInterrupt

    settings = _tiny(tmp_path)
    with pytest.raises(Interrupted, match="1 of 3 generations are saved"):
        tune(GAME, PARAMS, settings, on_evaluation=stop)
    saved = pickle.loads(settings.state.read_bytes())
    assert saved["generation"] == 1 and len(json.loads(log_path(settings.state).read_text())) == 1
    assert not settings.out.exists()

    with pytest.raises(UserError, match="already exists"):
        tune(GAME, PARAMS, settings)
    settings.resume = True
    resumed = tune(GAME, PARAMS, settings)
    assert resumed.weights == whole.weights
    assert (resumed.final, resumed.validation, resumed.base_validation) == (
        whole.final, whole.validation, whole.base_validation)
    drop = lambda log: [{k: v for k, v in entry.items() if k != "seconds"} for entry in log]  # noqa: E731
    assert drop(resumed.log) == drop(whole.log)

    resumed_more = tune(GAME, PARAMS, _tiny(tmp_path, generations=4, resume=True))
    assert len(resumed_more.log) == 4 and drop(resumed_more.log[:3]) == drop(whole.log)


def test_tune_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path, tiny_tune):
    """kill -9 in the middle of generation 2: the state saved after generation 1 is intact."""
    whole, _ = tiny_tune
    settings = _tiny(tmp_path)
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from sim.studies.tune import TuneSettings, tune\n"
        "from sim.games.chachapoya import GAME\n"
        "def die(generation, index):\n"
        "    if (generation, index) == (1, 1):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        f"tune(GAME, GAME.resolve_params(None), TuneSettings(bot='balanced', games=40, generations=3, popsize=4, "
        f"validation_games=40, seed=5, state=Path({str(settings.state)!r}), out=Path({str(settings.out)!r}), "
        f"progress=False, workers=2), on_evaluation=die)\n")
    killed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert pickle.loads(settings.state.read_bytes())["generation"] == 1
    assert not settings.out.exists() and not list(tmp_path.glob(".*.tmp"))
    settings.resume = True
    resumed = tune(GAME, PARAMS, settings)
    assert resumed.weights == whole.weights and resumed.validation == whole.validation


def test_resume_refuses_a_different_tune(tmp_path, capsys):
    tune(GAME, PARAMS, _tiny(tmp_path, generations=1))
    argv = ["tune", "chachapoya", "--bot", "balanced", "--games", "80", "--generations", "1", "--popsize", "4",
            "--seed", "5", "--state", str(tmp_path / "state.pkl"), "--out", str(tmp_path / "o.toml"), "--resume",
            "--no-progress"]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a different tune" in err and "games 40 (requested 80)" in err


# ------------------------------------------------------------------------------ the tuned bot as data

def test_tuned_bot_round_trips_through_load_bots_with_provenance(tiny_tune, monkeypatch, capsys):
    result, tmp_path = tiny_tune
    raw = tomllib.loads(result.out.read_text())
    entry = raw["bots"]["balanced-tuned"]
    assert entry["kind"] == "heuristic" and set(entry["weights"]) == set(NAMES)
    provenance = entry["provenance"]
    for key in ("base_bot", "pool", "players", "games_per_evaluation", "generations", "popsize", "seed",
                "optimizer", "final_win_rate", "final_ci95", "validation_win_rate", "validation_ci95",
                "validation_games", "base_validation_win_rate", "date", "wall_seconds", "search_space"):
        assert key in provenance, key
    assert provenance["pool"] == ["cautious", "greedy", "bluffer"] and provenance["generations"] == 3
    lo, hi = provenance["validation_ci95"]
    assert lo <= provenance["validation_win_rate"] <= hi

    game = _fresh_game(monkeypatch, result.out)
    spec = game.bots()["balanced-tuned"]
    assert spec.weights.tolist() == [result.weights[name] for name in NAMES]
    replayed = Evaluator(game, PARAMS, 4, "balanced", ["cautious", "greedy", "bluffer"], result.validation.games)
    assert replayed.evaluate(spec.weights, provenance["validation_seed"]) == result.validation
    assert parse_bots(game, "balanced-tuned,greedy,cautious,bluffer", 4)[0] == "balanced-tuned"

    from sim import cli

    monkeypatch.setattr(GAME, "_bots", game.bots())
    cli.main(["bots", "chachapoya"])
    assert "balanced-tuned" in capsys.readouterr().out
    # the default line-up is the tuned styles: those this file holds, the base bots for the others
    assert GAME.default_bots(4) == ["balanced-tuned", "cautious", "greedy", "bluffer"]


def test_writing_a_second_bot_keeps_the_first_and_the_designers_comments(tmp_path, monkeypatch):
    out = tmp_path / "bots.tuned.toml"
    out.write_text("# my notes\n[bots.mine]\nkind = \"heuristic\"\ndescription = \"hand-made\"\n"
                   "[bots.mine.weights]\ngain = 2.0\n")
    write_tuned_bot(out, "greedy-tuned", "heuristic", "tuned", {"gain": 1.5}, {"seed": 1})
    write_tuned_bot(out, "greedy-tuned", "heuristic", "tuned again", {"gain": 1.25}, {"seed": 2})
    assert out.read_text().startswith("# my notes")
    bots = _fresh_game(monkeypatch, out).bots()
    defaults = bots["balanced"].weights
    assert bots["mine"].weights[0] == 2.0 and bots["greedy-tuned"].weights[0] == 1.25
    assert bots["greedy-tuned"].description == "tuned again"
    assert np.array_equal(bots["greedy-tuned"].weights[1:], defaults[1:])  # left out: the [defaults]


def test_a_broken_tuned_file_is_one_line_naming_the_bot_and_key(tmp_path, monkeypatch):
    out = tmp_path / "bots.tuned.toml"
    out.write_text("[bots.x]\nkind = \"heuristic\"\ndescription = \"\"\n[bots.x.weights]\ngian = 1.0\n")
    with pytest.raises(UserError, match="bot 'x': unknown weight 'gian'"):
        _fresh_game(monkeypatch, out).bots()
    out.write_text("[bots.x]\nkind = \"clever\"\n")
    with pytest.raises(UserError, match="kind must be one of random, heuristic"):
        _fresh_game(monkeypatch, out).bots()


def test_cuzco_tuned_file_takes_flat_or_nested_weights(tmp_path, monkeypatch):
    out = tmp_path / "bots.tuned.toml"
    out.write_text("[bots.flat]\nkind = \"heuristic\"\ndescription = \"d\"\n[bots.flat.weights]\n"
                   "card_jump = 9.0\nvp = 2.0\n"
                   "[bots.nested]\nkind = \"heuristic\"\ndescription = \"d\"\n"
                   "[bots.nested.weights.card_preference]\njump = 9.0\n")
    monkeypatch.setattr(cuzco_data, "TUNED_BOTS_FILE", out)
    bots = cuzco_data.load_bots()
    names = cuzco_data.weight_names("heuristic")
    flat, nested, balanced = bots["flat"][2], bots["nested"][2], bots["balanced"][2]
    # without temple-tuned the search bot falls back to the next policy of its list
    assert np.array_equal(bots["search"][2][:len(names)], bots["temple"][2][:len(names)])
    jump, vp = names.index("card_jump"), names.index("vp")
    assert flat[jump] == nested[jump] == 9.0 and flat[vp] == 2.0 and nested[vp] == balanced[vp]
    assert np.array_equal(np.delete(nested, jump), np.delete(balanced, jump))
    out.write_text("[bots.bad]\nkind = \"heuristic\"\n[bots.bad.weights]\ncard_preference = 3\n")
    with pytest.raises(UserError, match="bot 'bad': card_preference must be a table"):
        cuzco_data.load_bots()


# ------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("extra, message", [
    (["--bot", "nobody"], "unknown bot 'nobody'"),
    (["--bot", "random"], "no weights to tune"),
    (["--bot", "balanced", "--pool", "greedy,nobody"], "--pool: unknown bot 'nobody'"),
    (["--bot", "balanced", "--generations", "0"], "--generations must be at least 1"),
    (["--bot", "balanced", "--games", "0"], "--games must be at least 1"),
    (["--bot", "balanced", "--players", "9"], "not 9"),
    (["--bot", "balanced", "--sigma", "-1"], "--sigma must be above 0"),
    (["--bot", "balanced", "--optimizer", "ntbea"], "invalid choice"),
])
def test_bad_input_is_one_line(tmp_path, capsys, extra, message):
    with pytest.raises(SystemExit) as stop:
        main(["tune", "chachapoya", *extra, "--state", str(tmp_path / "s.pkl"), "--out", str(tmp_path / "o.toml"),
              "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err
    assert not (tmp_path / "s.pkl").exists() and not (tmp_path / "o.toml").exists()


def test_a_game_without_named_weights_cannot_be_tuned(with_fake_game, tmp_path):
    from sim.core import registry

    game = registry.get_game("dicey")
    with pytest.raises(UserError, match="which has no weights to tune"):
        tune(game, game.resolve_params(None), _tiny(tmp_path, bot=next(iter(game.bots()))))


# ------------------------------------------------------------------------ tuning on several variants

BLUE_ZERO = "variants/robust/chachapoya-blue-zero.toml"


def test_an_evaluation_on_two_variants_adds_up_each_variants_games():
    """Issue 14: a bot is tuned on the game with and without a module; its fitness is the two sets
    of games together (same schedule and seed under each), not one of them."""
    from sim.core.params import resolve_variant_file
    from sim.studies.tune import combined

    other = resolve_variant_file(GAME, BLUE_ZERO)
    weights = BALANCED.weights * np.linspace(0.8, 1.2, BALANCED.weights.size)
    seed = derived_seed(4, 0, 1)
    alone = [Evaluator(GAME, params, 4, "balanced", ["greedy"], 40).evaluate(weights, seed) for params in (PARAMS, other)]
    both = Evaluator(GAME, [PARAMS, other], 4, "balanced", ["greedy"], 40)
    together = both.evaluate(weights, seed)
    assert both.games_played == 80
    assert together == combined(alone)
    assert together.wins == alone[0].wins + alone[1].wins and together.played == 80
    assert together.mean_margin == pytest.approx((alone[0].mean_margin + alone[1].mean_margin) / 2)
    assert alone[0] != alone[1]  # the variant changes the games, so both really are played


def test_tune_on_two_variants_shares_the_games_and_names_both(tmp_path, capsys):
    main(["tune", "chachapoya", "--bot", "balanced", "--variant", "base", "--variant", BLUE_ZERO,
          "--games", "40", "--generations", "1", "--popsize", "2", "--validation-games", "40", "--seed", "3",
          "--state", str(tmp_path / "s.pkl"), "--out", str(tmp_path / "o.toml"), "--no-progress"])
    entry = tomllib.loads((tmp_path / "o.toml").read_text())["bots"]["balanced-tuned"]
    assert entry["provenance"]["variant"] == "base + blue-zero"
    per_variant = games_per_evaluation(20, 4, len(entry["provenance"]["pool"]))  # half of --games, whole schedules
    assert entry["provenance"]["games_per_evaluation"] == 2 * per_variant
    assert "base + blue-zero" in entry["description"]
    log = json.loads(tuned_log_path(tmp_path / "o.toml", "balanced-tuned").read_text())
    assert log[0]["games"] == 3 * 2 * per_variant  # two candidates and the centre, each under both variants


def test_the_same_variant_twice_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["tune", "chachapoya", "--bot", "balanced", "--variant", BLUE_ZERO, "--variant", BLUE_ZERO,
              "--state", str(tmp_path / "s.pkl"), "--no-progress"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named twice" in err


def test_a_tune_can_start_from_another_bots_weights(tmp_path, capsys):
    """--start NAME: the search starts at that bot's weights (e.g. a tuned bot re-tuned on a new
    objective), and the held-out check measures the starting weights beside the result."""
    sabotaged = tmp_path / "start.toml"
    write_tuned_bot(sabotaged, "balanced-tuned", "heuristic", "start", dict(zip(NAMES, BALANCED.weights * 3.0)), {})
    import sim.games.chachapoya.data as data
    from unittest import mock

    with mock.patch.object(data, "TUNED_BOTS_FILE", sabotaged):
        game = type(GAME)()
        result = tune(game, PARAMS, _tiny(tmp_path, start="balanced-tuned", generations=1))
    state = pickle.loads((tmp_path / "state.pkl").read_bytes())
    assert state["identity"]["base_weights"] == pytest.approx(list(BALANCED.weights[:len(NAMES)] * 3.0))
    assert result.start_validation is not None and result.provenance["start_bot"] == "balanced-tuned"
    assert "from balanced-tuned's weights" in tomllib.loads(result.out.read_text())["bots"]["balanced-tuned"]["description"]
    with pytest.raises(UserError, match="--start: unknown bot 'nobody'"):
        tune(GAME, PARAMS, _tiny(tmp_path / "x", start="nobody"))


def test_permuted_schedule_plays_every_ordering_of_each_line_up():
    """--permute-seats: each block of P! games is one line-up of the pool in every seating order, so
    the candidate sits just before each opponent as often as just after it; without it the schedule
    is the rotations' (unchanged)."""
    import itertools

    from sim.studies.tune import games_per_evaluation, lineup_schedule, schedule_cycle

    rows = lineup_schedule(2 * 24, 4, 3, permute=True)
    for block in (rows[:24], rows[24:]):
        assert {tuple(r) for r in block} == set(itertools.permutations(block[0]))
        before = sum(int(r[(list(r).index(0) + 1) % 4] == 1) for r in block)
        after = sum(int(r[(list(r).index(0) - 1) % 4] == 1) for r in block)
        assert before == after == 8
    assert set(rows[0]) == {0, 1, 2, 3}
    assert schedule_cycle(4, 3, permute=True) == 24 and games_per_evaluation(100, 4, 3, permute=True) == 120
    assert schedule_cycle(4, 2, permute=True) == 48 and schedule_cycle(4, 2) == 8
    rotated = lineup_schedule(12, 4, 3)
    assert [list(r) for r in rotated[:4]] == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
