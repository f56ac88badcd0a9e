"""Issue 6, skill ladders: `sim ladder GAME --rungs a,b,c` plays only the line-ups a ladder needs (each
rung alone against copies of the rung below, and the reverse), G games each with seats rotated and
the same seeds, as a tournament dataset restricted to those line-ups. Played on the fake dice game
(tests/fakegame.py) with a third bot, so no real engine compiles: about a second per test."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as pads
import pytest

from sim.analysis import tournament as tour
from sim.cli import main
from sim.core.errors import Interrupted, UserError
from sim.studies.tournament import (ladder_lineups, lineup_label, lineups, plan_tournament, run_ladder,
                                 run_tournament)

RUNGS = ["random", "greedy", "lucky"]
GAMES = 60  # per line-up: a multiple of 2, 3 and 4

THREE_BOTS = '''
import numpy as np
from fakegame import FakeGame
from sim.core.game import BotSpec


class ThreeBots(FakeGame):
    name = "dicey3"
    description = "The fake dice game with a third bot (lucky: rolls twice, like greedy)."

    def bots(self):
        bots = super().bots()
        bots["lucky"] = BotSpec("lucky", "rolls twice, keeps the best (a copy of greedy)", 1, np.zeros(0))
        return bots


GAME = ThreeBots()
'''


@pytest.fixture(scope="module")
def dicey3(tmp_path_factory):
    """`dicey3`: the fake game with bots random, greedy and lucky, discoverable by the registry."""
    import sim.games

    package = tmp_path_factory.mktemp("games_ext") / "dicey3"
    package.mkdir()
    (package / "__init__.py").write_text(THREE_BOTS)
    saved = list(sim.games.__path__)
    sim.games.__path__[:] = [*saved, str(package.parent)]
    yield "dicey3"
    sim.games.__path__[:] = saved
    sys.modules.pop("sim.games.dicey3", None)


@pytest.fixture(scope="module")
def pair(dicey3, tmp_path_factory):
    """A 3-player ladder and the full tournament of the same bots, seed and games."""
    root = tmp_path_factory.mktemp("ladder")
    ladder, full = root / "ladder", root / "full"
    main(["ladder", dicey3, "--rungs", ",".join(RUNGS), "--players", "3", "--games", str(GAMES), "--seed", "5",
          "--out", str(ladder), "--workers", "1", "--no-progress"])
    run_tournament(dicey3, RUNGS, full, 3, GAMES, 5, workers=1, progress=False)
    return ladder, full


def _rows(out: Path, table: str) -> pd.DataFrame:
    frame = pads.dataset(out / table, format="parquet", partitioning="hive").to_table().to_pandas()
    frame["lineup"] = frame["lineup"].astype(str)
    keys = ["lineup", "game_id", "seat"] if table == "players" else ["lineup", "game_id"]
    return frame.sort_values(keys).reset_index(drop=True)


# ------------------------------------------------------------------------------ line-ups
def test_ladder_lineups_are_each_rung_against_the_rung_below():
    assert ladder_lineups(["a", "b", "c"], 4) == [("a", "a", "a", "b"), ("a", "b", "b", "b"),
                                                  ("b", "b", "b", "c"), ("b", "c", "c", "c")]
    # at two players both tables of a pair are the same line-up: played once
    assert ladder_lineups(["a", "b", "c"], 2) == [("a", "b"), ("b", "c")]
    # listed in rung order, like the same line-up of a tournament of the rungs
    assert set(ladder_lineups(["c", "a", "b"], 3)) <= set(lineups(["c", "a", "b"], 3))
    assert ladder_lineups(["c", "a"], 3) == [("c", "c", "a"), ("c", "a", "a")]


def test_ladder_plays_exactly_the_needed_lineups_g_games_each_seats_rotated(pair):
    ladder, _ = pair
    manifest = json.loads((ladder / "manifest.json").read_text())
    record = manifest["tournament"]
    assert manifest["status"] == "complete" and record["ladder"] == RUNGS and record["bots"] == RUNGS
    wanted = ["random+random+greedy", "random+greedy+greedy", "greedy+greedy+lucky", "greedy+lucky+lucky"]
    assert record["lineups"] == wanted and record["games_per_lineup"] == GAMES
    assert sorted(p.name for p in (ladder / "games").iterdir()) == sorted(f"lineup={x}" for x in wanted)
    players = _rows(ladder, "players")
    for label, rows in players.groupby("lineup"):
        lineup = label.split("+")
        assert sorted(rows["game_id"].unique()) == list(range(GAMES))
        counts = pd.crosstab(rows["bot"].astype(str), rows["seat"])
        for bot, copies in Counter(lineup).items():
            assert (counts.loc[bot] == copies * GAMES // 3).all(), (label, bot)
        expected = [lineup[(seat + game) % 3] for game, seat in zip(rows["game_id"], rows["seat"])]
        assert list(rows["bot"].astype(str)) == expected  # cyclic rotation
    assert (_rows(ladder, "games")["seed"] == 5).all()


def test_ladder_rows_equal_the_same_cells_of_a_full_tournament(pair):
    ladder, full = pair
    for table in ("games", "players"):
        mine = _rows(ladder, table)
        theirs = _rows(full, table)
        theirs = theirs[theirs["lineup"].isin(set(mine["lineup"]))].reset_index(drop=True)
        for frame in (mine, theirs):
            frame["lineup"] = frame["lineup"].astype(str)
            if "bot" in frame:
                frame["bot"] = frame["bot"].astype(str)
        pd.testing.assert_frame_equal(mine, theirs, check_categorical=False)


def test_skill_ladder_of_the_ladder_equals_the_full_tournaments(pair):
    ladder, full = pair
    mine = tour.skill_ladder(ladder, RUNGS).table
    theirs = tour.skill_ladder(full, RUNGS).table
    pd.testing.assert_frame_equal(mine, theirs)
    assert bool(mine.iloc[0]["stronger"]) and mine.iloc[0]["games"] == GAMES
    text = tour.ladder_summary_text(ladder)
    assert text.startswith("dicey3 skill ladder: random < greedy < lucky, 3 players, 4 line-ups x 60 games")
    assert "greedy is stronger than random" in text and "lucky is not clearly stronger than greedy" in text


def test_tournament_analyses_refuse_or_summarise_a_ladder(pair):
    ladder, _ = pair
    t = tour.open_tournament(ladder)
    assert t.ladder == RUNGS and not t.complete and tour.open_tournament(pair[1]).complete
    payoff = tour.payoff_table(ladder).table  # the data are fine to read
    assert len(payoff) == 8
    for call in (lambda: tour.ratings(ladder, by="score"), lambda: tour.meta_game(payoff),
                 lambda: tour.dominance(payoff), lambda: tour.full_game_payoffs(payoff, np.ones(3) / 3)):
        with pytest.raises(UserError, match="needs every line-up") as info:
            call()
        assert "\n" not in str(info.value)
    with pytest.raises(UserError, match="did not meet head to head"):
        tour.skill_ladder(ladder, ["random", "lucky"])
    text = tour.tournament_summary_text(ladder)
    assert "skill ladder" in text and "no ratings, meta-game or dominance verdict" in text


def test_cli_prints_the_ladder_table_and_the_verdicts(dicey3, tmp_path, capsys):
    out = tmp_path / "l"
    main(["ladder", dicey3, "--rungs", "random,greedy", "--players", "2", "--games", "20", "--out", str(out),
          "--workers", "1", "--no-progress"])
    printed = capsys.readouterr().out
    assert printed.startswith(f"dataset: {out}\n")
    assert "greedy over random:" in printed and "Verdict:" in printed and "Symmetric equilibria" not in printed
    assert json.loads((out / "manifest.json").read_text())["tournament"]["lineups"] == ["random+greedy"]


def test_default_out_folder(dicey3, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    main(["ladder", dicey3, "--rungs", "random,greedy", "--games", "6", "--seed", "2", "--no-progress",
          "--workers", "1"])
    assert (tmp_path / "data" / "dicey3-ladder-random-greedy-3p-6g-s2" / "manifest.json").is_file()


@pytest.mark.parametrize("argv, message", [
    (["--rungs", "random,zorro"], "unknown bot 'zorro' for dicey3"),
    (["--rungs", "random"], "a skill ladder needs at least two rungs"),
    (["--rungs", "random,greedy,random"], "--rungs lists random twice"),
    (["--rungs", "random,,greedy"], "empty bot name"),
    (["--rungs", "random,greedy", "--games", "10"], "multiple of the player count 3"),
    (["--rungs", "random,greedy", "--players", "5"], "played by 2, 3, 4 players, not 5"),
    ([], "the following arguments are required: --rungs"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(dicey3, tmp_path, capsys, argv, message):
    out = tmp_path / "l"
    with pytest.raises(SystemExit) as info:
        main(["ladder", dicey3, "--out", str(out), "--no-progress", *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err, err
    assert not out.exists()


def test_resume_after_an_interrupted_ladder_gives_the_same_dataset(dicey3, tmp_path, monkeypatch):
    import sim.core.backends as backends

    options = dict(n_players=3, n_games=30, seed=3, workers=1, chunk_size=10, progress=False)
    run_ladder(dicey3, RUNGS, tmp_path / "whole", **options)
    real, calls = backends.run_chunk, []

    def interrupt_after_five(game, job, task, *rest):
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(task.index)
        return real(game, job, task, *rest)

    monkeypatch.setattr(backends, "run_chunk", interrupt_after_five)
    with pytest.raises(Interrupted, match="50 of 120 games are kept"):
        run_ladder(dicey3, RUNGS, tmp_path / "cut", **options)
    monkeypatch.setattr(backends, "run_chunk", real)
    with pytest.raises(UserError, match="different run"):
        run_ladder(dicey3, ["random", "greedy"], tmp_path / "cut", resume=True, **options)
    with pytest.raises(UserError, match="different run"):  # the full tournament of the rungs is another run
        run_tournament(dicey3, RUNGS, tmp_path / "cut", resume=True, **options)
    main(["ladder", dicey3, "--rungs", ",".join(RUNGS), "--players", "3", "--games", "30", "--seed", "3",
          "--out", str(tmp_path / "cut"), "--resume", "--workers", "1", "--no-progress"])
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(_rows(tmp_path / "cut", table), _rows(tmp_path / "whole", table))


def test_explicit_lineup_lists_are_checked(dicey3):
    from sim.core import registry

    game = registry.get_game(dicey3)
    plan = plan_tournament(game, RUNGS, 3, 6, 0, lineup_list=[("random", "random", "lucky")])
    assert [c.partition for c in plan.cells] == ["lineup=random+random+lucky"]
    assert "ladder" not in plan.manifest_extra["tournament"]
    for lineups_, message in (([("random", "lucky")], "has 2 bots, not 3"),
                              ([("random", "random", "zorro")], "names 'zorro'"),
                              ([("random", "lucky", "lucky"), ("lucky", "random", "lucky")], "listed twice"),
                              ([], "no line-ups")):
        with pytest.raises(UserError, match=message):
            plan_tournament(game, RUNGS, 3, 6, 0, lineup_list=lineups_)
    assert lineup_label(plan.cells[0].lineup_names) == "random+random+lucky"


def test_verdicts_in_plain_words():
    def row(up, up_ci, down, down_ci, fair=0.25):
        return {"rung": "b", "below": "a", "rung_alone": up, "rung_alone_low": up_ci[0], "rung_alone_high": up_ci[1],
                "rung_alone_fair": fair, "below_alone": down, "below_alone_low": down_ci[0],
                "below_alone_high": down_ci[1], "below_alone_fair": fair, "games": 400,
                "stronger": bool(up_ci[0] > fair and down_ci[1] < fair)}

    table = pd.DataFrame([row(0.4, (0.35, 0.45), 0.1, (0.07, 0.13)), row(0.1, (0.07, 0.13), 0.4, (0.35, 0.45)),
                          row(0.4, (0.35, 0.45), 0.25, (0.2, 0.3)), row(0.26, (0.2, 0.3), 0.24, (0.2, 0.3))])
    texts = tour.ladder_verdicts(table, 4)
    assert texts[0].startswith("b is stronger than a: alone against 3 copies of a it wins 40.0% [35.0, 45.0]")
    assert texts[1].startswith("b is weaker than a, against the ladder's order")
    assert texts[2].startswith("b is not clearly stronger than a (only one of the two tables shows it; b beats")
    assert texts[3].startswith("b is not clearly stronger than a (400 games per line-up cannot tell them apart")
