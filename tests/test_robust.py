"""Robustness to the reconstructed numbers (sim robust): the tables a game declares, the sweep of
the base game and each table on common seeds, the verdicts judged under every table, the command
line, the index's headline verdicts and the notes on the report pages; the real games' tables."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest

import fakegame
from sim.analysis import report
from sim.analysis.io import open_dataset
from sim.analysis.robust import (CHANGES, HOLDS, UNCLEAR, Measurement, Robustness, Verdict, dependence_note,
                                 outcome, robust_label, robustness, robustness_text, table_alpha, verdict_line,
                                 verdict_state, verdict_table)
from sim.cli import main
from sim.core import registry
from sim.core.errors import EngineFailure, UserError
from sim.core.robust import RobustEffect, load_robust_spec
from sim.studies.robust import plan_robust, run_robust

SPEC = """
[effect]
param = "rounds"
label = "longer games"
off = 5
on = 8

[report]
share = 4
cap = 300

[[tables]]
variant = "{dir}/sides-4.toml"
number = "die size"
reading = "a four-sided die"

[[tables]]
variant = "{dir}/sides-12.toml"
number = "die size"
reading = "a twelve-sided die"
"""


def _tables(tmp_path: Path, spec: str = SPEC, **variants: str) -> Path:
    files = {"sides-4.toml": 'name = "sides-4"\n[dice]\nsides = 4\n',
             "sides-12.toml": 'name = "sides-12"\n[dice]\nsides = 12\n'}
    files.update(variants)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "robust.toml"
    path.write_text(spec.replace("{dir}", str(tmp_path)))
    return path


@pytest.fixture
def dicey_tables(tmp_path, monkeypatch, with_fake_game):
    """The fake game `dicey`, registered, declaring two tables (die size) and an effect (rounds 5 -> 8)."""
    spec = load_robust_spec("dicey", _tables(tmp_path))
    monkeypatch.setattr(fakegame.FakeGame, "robustness", lambda self: spec)
    return spec


# ------------------------------------------------------------------ what a game declares
def test_a_robust_file_names_its_tables_after_their_variants(tmp_path):
    spec = load_robust_spec("dicey", _tables(tmp_path))
    assert [t.name for t in spec.tables] == ["base", "sides-4", "sides-12"]
    assert spec.tables[0].variant is None and spec.tables[1].number == "die size"
    assert spec.effect == RobustEffect("rounds", "longer games", 5, 8)
    assert [spec.report_games(g) for g in (2, 400, 10**6)] == [1, 100, 300]
    assert spec.record()["tables"][2] == {"name": "sides-12", "variant": f"{tmp_path}/sides-12.toml",
                                          "number": "die size", "reading": "a twelve-sided die"}


@pytest.mark.parametrize("edit, message", [
    (lambda s: s.replace("[report]", "[reports]"), "unknown key 'reports'"),
    (lambda s: s.replace('reading = "a four-sided die"', ""), r"tables\[0\]: 'reading' must be a non-empty string"),
    (lambda s: s.replace("sides-12.toml", "sides-4.toml"), "the table name 'sides-4' .* is taken"),
    (lambda s: s.replace("on = 8", "on = 5"), "off and on are the same value"),
    (lambda s: s.replace("cap = 300", "cap = 0"), r"\[report\] cap must be a whole number of at least 1"),
    (lambda s: s.replace("sides-12.toml", "missing.toml"), "missing.toml: no such file"),
    (lambda s: s[:s.index("[[tables]]")], "give at least one"),
])
def test_a_malformed_robust_file_is_one_clear_error(tmp_path, edit, message):
    path = _tables(tmp_path, edit(SPEC))
    with pytest.raises(UserError, match=message):
        load_robust_spec("dicey", path)


def test_a_malformed_table_is_refused_before_anything_is_written(dicey_tables, tmp_path):
    game = registry.get_game("dicey")
    load_robust_spec("dicey", _tables(tmp_path, **{"sides-4.toml": 'name = "sides-4"\n[dice]\nsides = "four"\n'}))
    bad = load_robust_spec("dicey", tmp_path / "robust.toml")
    with pytest.raises(UserError, match="sides-4.toml: parameter 'dice.sides' must be a int"):
        run_robust(game, tmp_path / "out", 20, spec=bad, progress=False)
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ the run
def test_every_table_plays_the_same_seeds(dicey_tables, tmp_path):
    game = registry.get_game("dicey")
    plan = plan_robust(game, dicey_tables, 60, 5, bots="greedy,random,random")
    assert [c.coords for c in plan.cells][:3] == [{"table": "base", "rounds": 5}, {"table": "base", "rounds": 8},
                                                  {"table": "sides-4", "rounds": 5}]
    assert plan.cells[2].partition == "table=sides-4/rounds=5" and plan.cells[2].params.resolved["dice"]["sides"] == 4
    out = tmp_path / "run"
    manifest = run_robust(game, out, 60, 5, bots="greedy,random,random", workers=1, progress=False,
                          spec=dicey_tables)
    assert manifest["status"] == "complete" and manifest["robust"]["effect"]["param"] == "rounds"
    assert [t["name"] for t in manifest["robust"]["tables"]] == ["base", "sides-4", "sides-12"]
    cells = [open_dataset(out, cell={"table": t, "rounds": r}) for t in ("base", "sides-4") for r in (5, 8)]
    ids = [c.games(["game_id"])["game_id"].tolist() for c in cells]
    assert all(i == list(range(60)) for i in ids)
    # seats rotated, the same bot in the same seat of game i in every cell
    seats = [c.players(["game_id", "seat", "bot"]).astype(str) for c in cells]
    assert all(s.equals(seats[0]) for s in seats)
    # the same seed: game i of the base table with 8 rounds starts as with 5 (common random numbers)
    five, eight = (c.players(["game_id", "seat", "score"]) for c in cells[:2])
    assert not five["score"].equals(eight["score"]) and (eight["score"] >= five["score"]).mean() > 0.9


def test_an_engine_failure_in_a_table_names_its_variant_file(dicey_tables, tmp_path):
    spec = load_robust_spec("dicey", _tables(tmp_path, **{"sides-4.toml": 'name = "sides-4"\n[debug]\nfail_game = 7\n'}))
    with pytest.raises(EngineFailure, match=r"--variant .*sides-4.toml") as failure:
        run_robust(registry.get_game("dicey"), tmp_path / "out", 20, spec=spec, progress=False)
    assert "--param table" not in str(failure.value) and "--param rounds=5" in str(failure.value)


# ------------------------------------------------------------------ judging the verdicts
def _m(table, state, value=0.3, low=0.28, high=0.32, items=()):
    return Measurement(table, state, value, low, high, 100, list(items))


def test_outcome_of_a_direction_verdict():
    head = _m("headline", "favoured")
    assert outcome("position", head, _m("t", "favoured")) == HOLDS
    assert outcome("position", head, _m("t", "fair")) == UNCLEAR
    assert outcome("position", head, _m("t", "disfavoured")) == CHANGES
    # a "fair" headline is no proof of fairness: a table changes it only with a clearly other value
    assert outcome("position", _m("headline", "fair"), _m("t", "favoured", .31, .29, .33)) == UNCLEAR
    assert outcome("position", _m("headline", "fair"), _m("t", "favoured", .36, .34, .38)) == CHANGES
    assert outcome("effect", _m("headline", "raises"), _m("t", "no clear change")) == UNCLEAR
    assert outcome("effect", _m("headline", "raises"), _m("t", "lowers")) == CHANGES


def test_outcome_of_a_ranking_and_of_a_top_card():
    head = _m("headline", "a > b > c", items=[("a", .4, .38, .42), ("b", .3, .28, .32), ("c", .2, .18, .22)])
    same = _m("t", "a > b > c", items=head.items)
    close = _m("t", "b > a > c", items=[("b", .35, .33, .37), ("a", .34, .32, .36), ("c", .2, .18, .22)])
    apart = _m("t", "b > a > c", items=[("b", .45, .43, .47), ("a", .3, .28, .32), ("c", .2, .18, .22)])
    assert [outcome("ranking", head, m) for m in (same, close, apart)] == [HOLDS, UNCLEAR, CHANGES]
    # bots the headline cannot tell apart (overlapping intervals) may swap: the verdict holds
    tied = _m("headline", "a > b > c", items=[("a", .31, .28, .34), ("b", .30, .27, .33), ("c", .2, .18, .22)])
    assert outcome("ranking", tied, apart) == HOLDS
    assert outcome("ranking", tied, _m("t", "c > a > b", items=[("c", .4, .38, .42), ("a", .3, .28, .32),
                                                               ("b", .29, .27, .31)])) == CHANGES
    top = _m("headline", "x", .6, .58, .62)
    items = [("y", .61, .59, .63), ("x", .60, .58, .62), ("z", .5, .48, .52)]
    assert outcome("strongest", top, _m("t", "x", .6, .58, .62, items[1:])) == HOLDS
    assert outcome("strongest", top, _m("t", "y", .61, .59, .63, items)) == UNCLEAR
    far = [("y", .7, .68, .72), ("x", .5, .48, .52)]
    assert outcome("strongest", top, _m("t", "y", .7, .68, .72, far)) == CHANGES
    assert outcome("weakest", top, _m("t", "y", .7, .68, .72, [("y", .7, .68, .72)])) == UNCLEAR  # x not ranked


def _verdict(outcomes, states=None, numbers=("", "die size", "die size", "road pips")):
    head = _m("headline", "favoured", .3, .29, .31)
    states = states or ["favoured"] * len(outcomes)
    tables = [_m(name, state) for name, state in zip(["base", "a", "b", "c"], states)]
    return Verdict("dicey", 3, "position", "position", "the first player", "proportion", head, tables,
                   list(outcomes), list(numbers[:len(outcomes)]))


def test_a_verdict_holds_when_every_alternative_table_agrees():
    held = _verdict([HOLDS] * 4)
    assert held.holds and held.robustness() == "holds under every reconstructed table" and held.depends_on() == []
    assert verdict_line(held) == ("Dicey, 3 players: the first player wins 30.0% [29.0, 31.0] against a fair 33%: "
                                  "favoured; holds under every reconstructed table")
    # the base table varies nothing: it does not count, but its doubt is reported
    small = _verdict([UNCLEAR, HOLDS, HOLDS, HOLDS], ["fair", "favoured", "favoured", "favoured"])
    assert small.holds and "own base table is unclear too" in small.robustness()
    mixed = _verdict([HOLDS, CHANGES, UNCLEAR, UNCLEAR], ["favoured", "disfavoured", "fair", "fair"])
    assert not mixed.holds and mixed.depends_on() == ["die size"] and mixed.may_depend_on() == ["road pips"]
    assert mixed.robustness() == "changes under a (disfavoured); unclear under b, c (fair)"
    assert verdict_line(mixed).endswith("; depends on: die size; may depend on: road pips")
    everywhere = _verdict([HOLDS, UNCLEAR, UNCLEAR, UNCLEAR], ["favoured", "fair", "fair", "fair"])
    assert everywhere.robustness() == "unclear under every table (fair)"


def test_a_verdicts_state_in_a_word():
    """Issue 37, wall 8: the index colours each verdict by its state."""
    assert verdict_state(_verdict([HOLDS] * 4)) == "holds"
    assert verdict_state(_verdict([HOLDS, CHANGES, UNCLEAR, HOLDS])) == "depends"
    assert verdict_state(_verdict([HOLDS, UNCLEAR, HOLDS, HOLDS])) == "unclear"
    assert verdict_state(_verdict([HOLDS], numbers=("",))) == "not checked"


def test_the_page_note_names_the_dependent_verdicts():
    rob = Robustness("dicey", 3, "p", 100, [], None, "h", [_verdict([HOLDS] * 4),
                                                          _verdict([HOLDS, CHANGES, HOLDS, HOLDS])])
    note = dependence_note(rob, "robust_dicey.html")
    assert note.startswith("**Reconstructed numbers.** 1 of 2 headline verdicts of Dicey hold")
    assert "([robustness page](robust_dicey.html))" in note
    assert note.count("\n- ") == 1 and "(depends on: die size)" in note
    # issue 37, wall 8: the list folds away (<details>), the count in its one-line summary
    assert "\n\n<details><summary>1 depend, or may depend" in note and note.endswith("</details>")
    assert note.index("<details>") < note.index("\n- ")
    assert "None depends" in dependence_note(Robustness("dicey", 3, "p", 100, [], None, "h", [_verdict([HOLDS] * 4)]))
    assert Robustness.from_json(rob.to_json()) == rob


def test_verdicts_of_a_robustness_run(dicey_tables, tmp_path, monkeypatch):
    out = tmp_path / "run"
    run_robust(registry.get_game("dicey"), out, 300, 2, bots="greedy,random,random", workers=1, progress=False,
               spec=dicey_tables)

    def no_figure(*args, **kwargs):
        raise AssertionError("the verdicts read tables only: no figure is drawn")

    from sim.analysis import cards, compare, winrates
    monkeypatch.setattr(cards, "_strength_figure", no_figure)
    monkeypatch.setattr(compare, "forest_plot", no_figure)
    monkeypatch.setattr(winrates, "_figure", no_figure)
    rob = robustness(out)
    keys = [v.key for v in rob.verdicts]
    assert keys[:2] == ["position", "ranking"] and "effect:mean score" in keys
    assert rob.games_per_cell == 300 and rob.headline_source.startswith("the base table (300 games")
    by_key = {v.key: v for v in rob.verdicts}
    assert by_key["ranking"].headline.state.startswith("greedy > ")  # rolls twice, keeps the best
    # the headline (here the base table) at 95%, each table at 1 - 0.05/2: simultaneous intervals
    head, base = by_key["position"].headline, by_key["position"].tables[0]
    assert head.value == base.value and base.low < head.low < head.high < base.high
    assert table_alpha(2) == 0.025 and table_alpha(10) == 0.005 and table_alpha(0) == 0.05
    mean_score = by_key["effect:mean score"]
    assert mean_score.headline.state == "raises" and mean_score.holds  # 8 rounds score more than 5, any die
    assert [m.table for m in mean_score.tables] == ["base", "sides-4", "sides-12"]
    assert mean_score.tables[1].value < mean_score.tables[0].value < mean_score.tables[2].value  # 3 x E[die]
    table = verdict_table(rob)
    assert set(table["outcome"]) <= {HOLDS, UNCLEAR, CHANGES, "(headline)"} and len(table) == 4 * len(rob.verdicts)
    text = robustness_text(rob)
    assert "table sides-12: die size: a twelve-sided die" in text and "verdicts hold under every" in text
    # issue 37, wall 7: the base table's line says why its interval is wider than the headline's
    base_line = next(line for line in text.splitlines() if line.startswith("  base ") and "%" in line)
    assert base_line.endswith("(the same games as the headline, a wider interval: the tables' intervals are "
                              "simultaneous, each at 97.5% over the 2 alternative tables, the headline's 95%)")
    # headlines read on another dataset of the game (the report's main one): every table is judged
    # against them; the effect's headline stays the base table's without a paired second dataset
    from sim.core import runner
    from sim.core.lineup import lineup_indices

    game = registry.get_game("dicey")
    names, lineup = lineup_indices(["greedy", "random", "random"])
    runner.run(game, game.resolve_params(None), 3, names, lineup, True, 900, 9, tmp_path / "main", 1, 300,
               progress=False)
    judged = {v.key: v for v in robustness(out, headline=tmp_path / "main").verdicts}
    assert judged["position"].headline.n == 900 and judged["position"].tables[0].n == 300
    assert judged["effect:mean score"].headline == mean_score.headline
    with pytest.raises(UserError, match="not a robustness dataset"):
        robustness(tmp_path / "main")


# ------------------------------------------------------------------ the command line
def _sim(capsys, *argv):
    with pytest.raises(SystemExit) as exit_info:
        main(list(argv))
    return exit_info.value.code, capsys.readouterr()


def test_sim_robust_prints_every_verdict_under_every_table(dicey_tables, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["robust", "dicey", "--games", "90", "--seed", "3", "--bots", "greedy,random,random",
                 "--out", str(out), "--no-progress", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"dataset: {out}\ndicey: 3 tables, 90 games each, rounds off and on")
    assert "Dicey, 3 players: the first player wins" in printed and "sides-12" in printed
    assert json.loads((out / "manifest.json").read_text())["config"]["games"] == 90
    # issue 37, wall 9: the same command again prints the finished run's verdicts, playing nothing
    manifest = (out / "manifest.json").read_bytes()
    assert main(["robust", "dicey", "--games", "90", "--seed", "3", "--bots", "greedy,random,random",
                 "--out", str(out), "--no-progress", "--workers", "1"]) == 0
    assert capsys.readouterr().out == printed and (out / "manifest.json").read_bytes() == manifest
    code, streams = _sim(capsys, "robust", "dicey", "--games", "90", "--out", str(out))
    assert code == 2 and streams.err.count("\n") == 1 and "already exists" in streams.err


def _seatings(out: Path, cell: dict) -> list[tuple[str, ...]]:
    """The bots of each game's seats 0..P-1, in game order, of one cell."""
    seated = open_dataset(out, cell=cell).players(["game_id", "seat", "bot"]).sort_values(["game_id", "seat"])
    return [tuple(map(str, bots)) for _, bots in seated.groupby("game_id")["bot"]]


def test_sim_robust_permute_seats_plays_every_seating_order_in_every_table(dicey_tables, tmp_path, capsys):
    """Two greedy and two random bots: rotation seats 4 of their 6 arrangements (never g,r,g,r), seat
    permutation all 6, each 4 times in 24 games, the same in every table (common random numbers)."""
    argv = ["robust", "dicey", "--games", "24", "--seed", "3", "--players", "4", "--bots",
            "greedy,greedy,random,random", "--workers", "1"]
    assert main([*argv, "--permute-seats", "--out", str(tmp_path / "p")]) == 0
    assert "24 games, seats permuted, the same seeds" in capsys.readouterr().err
    config = json.loads((tmp_path / "p" / "manifest.json").read_text())["config"]
    assert config["permute_seats"] is True and config["rotate_seats"] is False
    cells = [{"table": t, "rounds": r} for t in ("base", "sides-4", "sides-12") for r in (5, 8)]
    permuted = _seatings(tmp_path / "p", cells[0])
    arrangements = set(itertools.permutations(["greedy", "greedy", "random", "random"]))
    assert Counter(permuted) == {order: 4 for order in arrangements}
    assert all(_seatings(tmp_path / "p", cell) == permuted for cell in cells[1:])
    assert main([*argv, "--out", str(tmp_path / "r"), "--no-progress"]) == 0
    assert len(set(_seatings(tmp_path / "r", cells[0]))) == 4
    # the notebook's data line names the seating its figures were played with
    assert robust_label(tmp_path / "p").endswith("seed 3, seats permuted")
    assert robust_label(tmp_path / "r").endswith("seed 3, seats rotated")
    # the other seating is refused on the finished run, and on --resume, by one line naming it
    for extra in ([], ["--resume"]):
        code, streams = _sim(capsys, *argv, "--out", str(tmp_path / "p"), "--no-progress", *extra)
        assert code == 2 and streams.err.count("\n") == 1 and "permute_seats True (requested False)" in streams.err


def test_an_interrupted_robust_run_from_before_permute_seats_still_resumes(dicey_tables, tmp_path, capsys,
                                                                           monkeypatch):
    """A manifest written before the key existed (no permute_seats) resumes as a rotated run."""
    game = registry.get_game("dicey")
    whole = run_robust(game, tmp_path / "whole", 40, 2, bots="greedy,random,random", workers=1, chunk_size=20,
                       progress=False, spec=dicey_tables)
    real = game.simulate
    fakegame.interrupt_at_chunk_one(game, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        run_robust(game, tmp_path / "cut", 40, 2, bots="greedy,random,random", workers=1, chunk_size=20,
                   progress=False, spec=dicey_tables)
    monkeypatch.setattr(game, "simulate", real)
    manifest = json.loads((tmp_path / "cut" / "manifest.json").read_text())
    del manifest["config"]["permute_seats"]
    (tmp_path / "cut" / "manifest.json").write_text(json.dumps(manifest))
    resumed = run_robust(game, tmp_path / "cut", 40, 2, bots="greedy,random,random", workers=1, chunk_size=20,
                         resume=True, progress=False, spec=dicey_tables)
    assert resumed["status"] == whole["status"] == "complete"
    for cell in ({"table": "base", "rounds": 5}, {"table": "sides-12", "rounds": 8}):
        read = [open_dataset(out, cell=cell).players(["game_id", "seat", "bot", "score"])
                for out in (tmp_path / "cut", tmp_path / "whole")]
        assert read[0].sort_values(["game_id", "seat"]).reset_index(drop=True).equals(
            read[1].sort_values(["game_id", "seat"]).reset_index(drop=True))


@pytest.mark.parametrize("argv, message", [
    (["robust", "nosuchgame"], "unknown game"),
    (["robust", "dicey", "--games", "0", "--out", "{tmp}/x"], "--games must be at least 1"),
    (["robust", "dicey", "--players", "9", "--out", "{tmp}/x"], "played by 2, 3, 4 players, not 9"),
    (["robust", "dicey", "--bots", "nobody", "--out", "{tmp}/x"], "unknown bot"),
])
def test_sim_robust_bad_input_is_one_line(dicey_tables, tmp_path, capsys, argv, message):
    code, streams = _sim(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and streams.err.startswith("error: ") and streams.err.count("\n") == 1
    assert message in streams.err and not (tmp_path / "x").exists()


def test_sim_robust_of_a_game_without_tables(with_fake_game, tmp_path, capsys):
    code, streams = _sim(capsys, "robust", "dicey", "--out", str(tmp_path / "x"))
    assert code == 2 and "declares no reconstructed-number tables" in streams.err and streams.err.count("\n") == 1


# ------------------------------------------------------------------ the reports
def test_the_index_opens_with_each_games_verdicts(tmp_path):
    rob = Robustness("dicey", 3, "p", 100, [], None, "h", [_verdict([HOLDS] * 4),
                                                          _verdict([HOLDS, CHANGES, HOLDS, HOLDS])])
    found = {"dicey": report.GameVerdicts("dicey", rob, None, {"position": "overview_dicey"}, "robust_dicey"),
             "other": report.GameVerdicts("other", error="no dataset")}
    spec = report.ReportSpec("overview_dicey", "overview", "Dicey overview", "in short", {})
    outcome_ = report.ReportOutcome(spec, tmp_path / "overview_dicey.html", 1.0)
    page = report.write_index([outcome_], tmp_path, verdicts=found).read_text()
    head, table = page.split("<table>")
    assert head.index("<h3>Dicey</h3>") < head.index("holds under every reconstructed table") < head.index(
        "changes under a (favoured)")
    assert head.count('<a href="overview_dicey.html">evidence</a>') == 2  # robust_dicey is not a page here
    assert "The verdicts could not be computed: no dataset" in head and 'href="overview_dicey.html"' in table


def test_every_game_with_tables_gets_a_robustness_page(dicey_tables):
    game = registry.get_game("dicey")
    (section,) = report.game_sections(game)
    spec = section.spec(games=1000, data_dir="d", seed=4)
    assert spec.name == "robust_dicey" and spec.notebook == "robust"
    assert spec.datasets["dataset"] == report.RobustDatasetSpec(Path("d/dicey-robust"), "dicey", 250, 4)
    assert "longer games's effect" in spec.description and "250 games per table" in spec.description


def test_a_robustness_dataset_is_reused_and_checked(dicey_tables, tmp_path):
    spec = report.RobustDatasetSpec(tmp_path / "dicey-robust", "dicey", 30, 1)
    assert report.ensure_datasets([spec], progress=False) == [spec]  # played
    assert report.ensure_datasets([spec], progress=False) == []  # complete: reused
    with pytest.raises(UserError, match="holds a robustness run with games = 30, not 40"):
        report.ensure_datasets([report.RobustDatasetSpec(spec.path, "dicey", 40, 1)], progress=False)
    rob = report.compute_verdicts([report.robust_section("dicey").spec(120, tmp_path, 1)], tmp_path, False)["dicey"]
    assert rob.error is None and rob.robustness.verdicts[0].key == "position"
    assert (tmp_path / "verdicts" / "dicey.json").is_file()


def test_a_failure_to_judge_the_verdicts_is_shown_not_raised(dicey_tables, tmp_path, monkeypatch):
    from sim.analysis import robust

    spec = report.robust_section("dicey").spec(120, tmp_path, 1)
    missing = report.compute_verdicts([spec], tmp_path, False)["dicey"]
    assert missing.robustness is None and "not a dataset directory" in missing.error

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(robust, "robustness", broken)
    assert report.compute_verdicts([spec], tmp_path, False)["dicey"].error == "RuntimeError: boom"


# ------------------------------------------------------------------ the real games' tables
NUMBERS = {"cuzco": {"status track VP": 2, "circlet VP": 2, "goods' food cost": 1, "goods' VP": 1, "road pips": 2,
                     "village placement": 2},
           "chachapoya": {"tracker count": 2, "blue idol scale": 2, "number 3 and 5 counts": 2}}


@pytest.mark.parametrize("name, effect", [("cuzco", "pututu.enabled"), ("chachapoya", None)])
def test_the_real_games_tables_are_documented_and_valid(name, effect):
    """Issue 14's numbers with leverage, two readings each (Cuzco's goods: one for the cost, one for
    the VP), each variant file documenting its reading; every table passes the game's checks."""
    game = registry.get_game(name)
    spec = game.robustness()
    assert (spec.effect and spec.effect.param) == effect
    counts = {}
    for table in spec.tables[1:]:
        counts[table.number] = counts.get(table.number, 0) + 1
        text = table.variant_file().read_text()
        assert text.startswith(f"# Robustness table for {name.capitalize()}"), table.variant
        assert "Printed:" in text and "Not printed:" in text and "NOTES.md" in text, table.variant
    assert counts == NUMBERS[name]
    plan = plan_robust(game, spec, 10, 0)  # every table resolves against the game's checks
    assert len(plan.cells) == len(spec.tables) * (2 if effect else 1)
    assert len({json.dumps(c.params.resolved, sort_keys=True) for c in plan.cells}) == len(plan.cells)


def test_sim_report_says_when_the_verdicts_could_not_be_computed(dicey_tables, tmp_path, monkeypatch):
    """The pages are built and the index says why; then one error names the game (exit status 2)."""
    from sim.analysis import robust

    spec = report.robust_section("dicey").spec(120, tmp_path / "data", 1)
    report.ensure_datasets(list(spec.datasets.values()), progress=False)
    monkeypatch.setattr(robust, "robustness", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    with pytest.raises(UserError, match="the headline verdicts of dicey could not be computed: RuntimeError: boom"):
        report.build_reports([spec], tmp_path / "out", progress=False, jobs=1)
    assert "The verdicts could not be computed: RuntimeError: boom" in (tmp_path / "out" / "index.html").read_text()
    assert "This report did not finish" not in (tmp_path / "out" / "robust_dicey.html").read_text()
