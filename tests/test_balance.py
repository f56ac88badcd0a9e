"""`sim balance`: on the fake dice game, whose first-seat win rate for each seat bonus is known exactly,
the search finds the one bonus within tolerance of the target; a killed search resumes to the
evidence an uninterrupted one writes; the evidence reads back as a table, a chart and a summary;
bad input exits 2 with one line and writes nothing."""
from __future__ import annotations

import argparse
import itertools
import json
from collections import Counter, defaultdict
from pathlib import Path

import pandas as pd
import pytest

from sim.studies import balance as B
from sim.core.errors import Interrupted, UserError

ROUNDS, SIDES = 5, 6  # the fake game's defaults


def exact_first_seat(bonus: int, rounds: int = ROUNDS, sides: int = SIDES) -> tuple[float, float]:
    """(P(seat 0 wins), E[score gap]) of a 2-player fake game with seat_bonus [bonus, 0]: exact, by
    the distribution of D = seat 0's rolls minus seat 1's (a 1 rolled by seat 0 ends the game after
    the round with probability 1/2; a tie is a shared win)."""
    live, done = {0: 1.0}, defaultdict(float)
    for _ in range(rounds):
        new = defaultdict(float)
        for d, p in live.items():
            for a in range(1, sides + 1):
                for b in range(1, sides + 1):
                    q = p / sides**2
                    if a == 1:
                        done[d + a - b] += q / 2
                        new[d + a - b] += q / 2
                    else:
                        new[d + a - b] += q
        live = new
    for d, p in live.items():
        done[d] += p
    return (sum(p for d, p in done.items() if d + bonus >= 0), sum(p * (d + bonus) for d, p in done.items()))


def _settings(game, **changes) -> B.Settings:
    params = game.resolve_params(None)
    values = dict(rules=B.parse_rules(["seat_bonus"], ["x,0,0,0"], params.resolved), lo=-10, hi=10,
                  metric=B.parse_metric("first_player_win"), target=exact_first_seat(-3)[0], tolerance=0.02,
                  players=2, bots=["random", "random"], seed=3, batch=500, budget=60_000, workers=2)
    values.update(changes)
    return B.Settings(game="dicey", **values)


# ------------------------------------------------------------------------------ known answers
def test_search_finds_the_known_balancing_value(game, tmp_path):
    exact = {x: exact_first_seat(x)[0] for x in range(-10, 11)}
    target = exact[-3]
    within = [x for x, p in exact.items() if abs(p - target) <= 0.02]
    assert within == [-3]  # the neighbours are over 5 points away: one answer
    result = B.search(game, _settings(game, target=target), tmp_path / "ev")
    assert result.status == B.FOUND, result.reason
    assert result.best["values"] == {"seat_bonus": [-3, 0, 0, 0]}
    assert target - 0.02 <= result.best["lower"] <= result.best["upper"] <= target + 0.02
    assert result.games < 20_000  # a few batches, not a grid
    manifest, batches, candidates = B.read_evidence(tmp_path / "ev")
    assert manifest["status"] == "complete" and manifest["result"]["status"] == B.FOUND
    assert batches["games"].sum() == result.games == candidates["games"].sum()
    # common random numbers: every candidate plays games 0, 1, 2, ... of the same seed
    for _, rows in batches.groupby("values"):
        assert rows["first_game"].tolist() == [0, *rows["games"].cumsum().tolist()[:-1]]


def test_score_gap_metric_finds_its_known_value(game, tmp_path):
    gaps = {x: exact_first_seat(x)[1] for x in range(-10, 11)}
    settings = _settings(game, metric=B.parse_metric("score_gap"), target=gaps[2], tolerance=0.4)
    result = B.search(game, settings, tmp_path / "gap")
    assert result.status == B.FOUND, result.reason
    assert result.best["values"] == {"seat_bonus": [2, 0, 0, 0]}


def test_target_outside_the_range_and_between_values(game, tmp_path):
    high = B.search(game, _settings(game, lo=-10, hi=-6), tmp_path / "out")
    assert high.status == B.OUT_OF_RANGE and "widen --range" in high.reason
    assert "barely moves" not in high.reason
    # Issue 37, wall 7: a range over which x barely moves the metric (seat 0 always loses) is not
    # answered with "widen --range"
    flat = B.search(game, _settings(game, lo=-300, hi=-290, workers=1), tmp_path / "flat")
    assert flat.status == B.OUT_OF_RANGE and "barely moves across it" in flat.reason
    assert "widen --range" not in flat.reason and "try another parameter" in flat.reason
    exact = {x: exact_first_seat(x)[0] for x in (-4, -3)}
    between = B.search(game, _settings(game, target=(exact[-4] + exact[-3]) / 2, tolerance=0.005),
                       tmp_path / "between")
    assert between.status == B.BETWEEN
    assert "seat_bonus=[-4,0,0,0]" in between.reason and "seat_bonus=[-3,0,0,0]" in between.reason


# ------------------------------------------------------------------------------ resuming
def test_killed_search_resumes_to_the_uninterrupted_evidence(game, tmp_path):
    whole = B.search(game, _settings(game), tmp_path / "whole")

    def kill_after_third(row):
        if row["step"] == 3:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="--resume"):
        B.search(game, _settings(game), tmp_path / "killed", progress=kill_after_third)
    assert len(B.read_evidence(tmp_path / "killed")[1]) == 3
    with pytest.raises(UserError, match="already exists"):
        B.search(game, _settings(game), tmp_path / "killed")
    with pytest.raises(UserError, match="different balance search"):
        B.search(game, _settings(game, seed=4), tmp_path / "killed", resume=True)
    resumed = B.search(game, _settings(game, workers=1), tmp_path / "killed", resume=True)
    assert (resumed.status, resumed.best, resumed.games) == (whole.status, whole.best, whole.games)
    columns = ["x", "values", "first_game", "games", "counted", "total", "metric", "lower", "upper", "state"]
    a = B.read_evidence(tmp_path / "whole")[1][columns]
    b = B.read_evidence(tmp_path / "killed")[1][columns]
    pd.testing.assert_frame_equal(a, b)


def test_budget_stops_and_a_larger_budget_resumes(game, tmp_path):
    stopped = B.search(game, _settings(game, budget=1500), tmp_path / "ev")
    assert stopped.status == B.BUDGET and stopped.games <= 1500
    assert json.loads((tmp_path / "ev" / "manifest.json").read_text())["status"] == "stopped"
    finished = B.search(game, _settings(game), tmp_path / "ev", resume=True)
    assert finished.status == B.FOUND


# ------------------------------------------------------------------------------ seating
MIXED = ["greedy", "greedy", "random", "random"]  # rotation seats 4 of their 6 arrangements, never g,r,g,r


def _seated(game, monkeypatch) -> list[tuple[int, tuple[str, ...]]]:
    """Records (game index, bots in seats 0..P-1) of every game the fake game plays from now on."""
    seen, real = [], game.simulate

    def simulate(params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, checked=False):
        seen.extend((first_game + i, tuple(bot_names[b] for b in row)) for i, row in enumerate(seat_bots))
        return real(params, n_players, bot_names, seat_bots, run_seed, first_game, n_games, checked)

    monkeypatch.setattr(game, "simulate", simulate)
    return seen


def _four_players(game, **changes) -> B.Settings:
    values = dict(players=4, bots=MIXED, metric=B.parse_metric("seat_win:1"), batch=24, budget=48, workers=1)
    return _settings(game, **{**values, **changes})


def test_a_permuted_search_seats_every_order_and_refuses_the_other_seating(game, tmp_path, monkeypatch):
    seated = _seated(game, monkeypatch)
    stopped = B.search(game, _four_players(game, permute=True), tmp_path / "p")
    assert stopped.status == B.BUDGET and stopped.games == 48  # both ends, 24 games (4!) each
    arrangements = set(itertools.permutations(MIXED))
    for first in (0, 24):  # each end's games 0..23
        assert Counter(seats for _, seats in seated[first:first + 24]) == {order: 4 for order in arrangements}
    config = json.loads((tmp_path / "p" / "manifest.json").read_text())["config"]
    assert config["permute_seats"] is True and config["rotate_seats"] is False
    with pytest.raises(UserError, match=r"permute_seats True \(requested False\)"):
        B.search(game, _four_players(game, budget=96), tmp_path / "p", resume=True)
    seated.clear()
    B.search(game, _four_players(game), tmp_path / "r")
    assert len({seats for _, seats in seated[:24]}) == 4


def test_only_the_seating_differs_between_a_permuted_and_a_rotated_search(game, tmp_path):
    """A mirror line-up plays the same games either way; a mixed one other games (seats moved)."""
    def game_values(out):
        return pd.read_parquet(out / B.GAMES)["value"].to_numpy()

    for name, bots in (("mirror", ["random"] * 4), ("mixed", MIXED)):
        for permute in (False, True):
            B.search(game, _four_players(game, bots=bots, permute=permute), tmp_path / f"{name}-{permute}")
    assert (game_values(tmp_path / "mirror-True") == game_values(tmp_path / "mirror-False")).all()
    assert (game_values(tmp_path / "mixed-True") != game_values(tmp_path / "mixed-False")).any()


def test_a_search_from_before_permute_seats_still_resumes(game, tmp_path):
    """Evidence written before the key existed (no permute_seats: seats rotated) resumes as it is."""
    B.search(game, _four_players(game), tmp_path / "old")
    manifest = json.loads((tmp_path / "old" / "manifest.json").read_text())
    del manifest["config"]["permute_seats"]
    (tmp_path / "old" / "manifest.json").write_text(json.dumps(manifest))
    resumed = B.search(game, _four_players(game, budget=96), tmp_path / "old", resume=True)
    whole = B.search(game, _four_players(game, budget=96), tmp_path / "whole")
    assert resumed.games == whole.games > 48
    columns = ["x", "first_game", "games", "counted", "total", "metric", "lower", "upper"]
    pd.testing.assert_frame_equal(B.read_evidence(tmp_path / "old")[1][columns],
                                  B.read_evidence(tmp_path / "whole")[1][columns])


def test_command_permute_seats_prints_and_records_the_seating(sim_main, capsys, tmp_path):
    out = tmp_path / "ev"
    argv = ["balance", "dicey", "--param", "seat_bonus", "--rule", "x,0,0,0", "--range=-10,10", "--target",
            "0.25", "--players", "4", "--bots", ",".join(MIXED), "--batch", "24", "--games", "48", "--workers", "1",
            "--out", str(out)]
    status, _, err = sim_main(capsys, [*argv, "--permute-seats"])
    assert status == 0 and "4 players, seats permuted, seed 0" in err, err
    assert json.loads((out / "manifest.json").read_text())["config"]["permute_seats"] is True
    status, _, err = sim_main(capsys, [*argv, "--resume", "--games", "96"])
    assert status == 2 and len(err.splitlines()) == 1 and "permute_seats True (requested False)" in err, err


# ------------------------------------------------------------------------------ rules and metrics
def test_rules_elements_and_rounding(game):
    resolved = {"setup": {"vp": [0, 1, 2, 3], "share": 0.5, "on": True}}
    spaced = B.parse_rules(["setup.vp"], ["[0, x, 2x, 3(x)]"], resolved)[0]
    assert spaced.integer and spaced.value(1.0) == [0, 1, 2, 3] and spaced.value(1.3) == [0, 1, 3, 4]
    assert spaced.value(2.5) == [0, 3, 5, 8]  # half up, not to even
    element = B.parse_rules(["setup.vp[2]"], None, resolved)[0]
    assert element.value(7.4) == [0, 1, 7, 3]
    assert B.parse_rules(["setup.share"], None, resolved)[0].value(0.123456789) == 0.123457
    for names, rules, fragment in ((["setup.vp"], None, "--rule"), (["setup.vp"], ["x,x"], "gives 2 values"),
                                   (["setup.on"], None, "not a number"), (["setup.nope"], None, "unknown"),
                                   (["setup.vp[9]"], None, "4 elements"),
                                   (["setup.vp"], ["x;import os,x,x,x"], "expression"),
                                   (["setup.vp"], ["__import__('os'),x,x,x"], "expression"),
                                   (["setup.vp=3"], None, "expected NAME or")):
        with pytest.raises(UserError, match=fragment):
            B.parse_rules(names, rules, resolved)


def test_metrics_per_game():
    import numpy as np

    won = np.array([[1, 0, 0], [0, 1, 1], [0, 0, 0]], bool)
    score = np.array([[10, 4, 7], [5, 9, 9], [3, 3, 3]], float)
    order = np.array([[1, 0, 2], [0, 1, 2], [2, 1, 0]])
    value, counts = B.game_metrics(B.parse_metric("first_player_win"), won, score, order)
    assert value.tolist() == [0, 0, 0] and counts.tolist() == [True, True, False]
    value, _ = B.game_metrics(B.parse_metric("position_win:1"), won, score, order)
    assert value.tolist() == [1, 1, 0]
    value, _ = B.game_metrics(B.parse_metric("seat_win:2"), won, score, order)
    assert value.tolist() == [0, 1, 0]
    value, counts = B.game_metrics(B.parse_metric("score_gap"), won, score, order)
    assert value.tolist() == [4 - 8.5, 5 - 9, 0] and counts.all()
    for bad in ("first_player_win:1", "seat_win", "elo", "score_gap:x"):
        with pytest.raises(UserError, match="unknown metric"):
            B.parse_metric(bad)


# ------------------------------------------------------------------------------ the evidence
def test_evidence_reads_as_summary_chart_and_report_section(game, tmp_path):
    from sim.analysis.balance import balance_section, balance_summary_text, candidates_result
    from sim.analysis.report import ReportSection

    B.search(game, _settings(game), tmp_path / "ev")
    table, figure = candidates_result(tmp_path / "ev")
    assert "inside" in table["state"].tolist() and table["x"].is_monotonic_increasing
    assert {"win_rate_position_0", "mean_score_position_1", "param.seat_bonus"} <= set(table.columns)
    assert table.attrs["answer"].startswith("**Found: seat_bonus = [-3, 0, 0, 0]**")
    assert len(figure.axes) >= 2
    text = balance_summary_text(tmp_path / "ev")
    assert text.startswith("Found: seat_bonus = [-3, 0, 0, 0]") and "seat_bonus=[-10,0,0,0]" in text
    assert text.endswith("seats rotated")  # the seating the search used (--permute-seats: seats permuted)
    assert balance_summary_text(
        Path(__file__).resolve().parents[1] / "sim/games/cuzco/balance/first-player-start-vp-default").endswith("seats permuted")
    section = balance_section(tmp_path / "ev", "balance_dicey", "Dicey balance", game="dicey")
    assert isinstance(section, ReportSection) and section.notebook == "balance"
    spec = section.spec()
    assert spec.parameters == {"evidence": str(tmp_path / "ev"), "game": "dicey"}


def test_report_page_runs_headless_and_shows_the_answer(game, tmp_path):
    """The page (notebooks/balance.ipynb) as `sim report` builds it; tests/test_analysis_report.py
    leaves this notebook to this file."""
    import nbformat

    from sim.analysis.balance import balance_section
    from sim.analysis.report import build_reports

    B.search(game, _settings(game), tmp_path / "ev")
    spec = balance_section(tmp_path / "ev", "balance_dicey", "Dicey balance", game="dicey").spec()
    build_reports([spec], tmp_path / "out", simulate=False, progress=False)
    executed = nbformat.read(tmp_path / "out" / "notebooks" / "balance_dicey.ipynb", as_version=4)
    assert [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"] == []
    page = (tmp_path / "out" / "balance_dicey.html").read_text()
    assert "<title>Dicey balance</title>" in page and "How to read the chart" in page
    assert page.count("data:image/png;base64") >= 2 and "read_balance(" not in page
    assert "Found: seat_bonus = [-3, 0, 0, 0]" in page
    assert "balance search: " + str(tmp_path / "ev") in (tmp_path / "out" / "index.html").read_text()


# ------------------------------------------------------------------------------ the command line
@pytest.fixture
def sim_main(monkeypatch, with_fake_game):
    """`sim` with the balance command registered (whether or not commands.py registers it)."""
    import sim.cli.commands as commands
    from sim.cli.balance import add_balance_parser

    original = commands.build_parser

    def build():
        parser = original()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if "balance" not in sub.choices:
            add_balance_parser(sub)
        return parser

    monkeypatch.setattr(commands, "build_parser", build)

    def run(capsys, argv):
        capsys.readouterr()
        try:
            status = commands.main(argv)
        except SystemExit as exc:
            status = exc.code
        out = capsys.readouterr()
        return status, out.out, out.err

    return run


def test_command_finds_and_prints_the_answer(sim_main, capsys, tmp_path):
    out = tmp_path / "ev"
    target = exact_first_seat(-3)[0]
    argv = ["balance", "dicey", "--param", "seat_bonus", "--rule", "x,0,0,0", "--range=-10,10", "--metric",
            "first_player_win", "--target", f"{target:.6f}", "--tolerance", "0.02", "--players", "2", "--batch",
            "500", "--games", "60000", "--seed", "3", "--workers", "2", "--out", str(out)]
    status, stdout, err = sim_main(capsys, argv)
    assert status == 0, err
    assert "Found: seat_bonus = [-3, 0, 0, 0]" in stdout and f"evidence: {out}" in stdout
    assert "batch 1: x = -10, seat_bonus=[-10,0,0,0]" in err  # issue 37: not the stretch middle -9.75
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["command"].startswith("sim balance dicey --param seat_bonus")
    status, stdout, _ = sim_main(capsys, argv + ["--resume", "--no-progress"])  # complete: nothing to play
    assert status == 0 and "Found: seat_bonus = [-3, 0, 0, 0]" in stdout


@pytest.mark.parametrize("extra, fragment", [
    (["--param", "seat_bonus", "--range", "0,5", "--target", "0.25"], "--rule"),
    (["--param", "seat_bonus[0]", "--range", "5,0", "--target", "0.25"], "LO < HI"),
    (["--param", "seat_bonus[0]", "--range", "a,b", "--target", "0.25"], "LO,HI"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "25"], "proportion"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "0.25", "--metric", "elo"], "unknown metric"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "0.25", "--metric", "seat_win:7"], "positions"),
    (["--param", "nope", "--range", "0,5", "--target", "0.25"], "unknown parameter"),
    (["--param", "seat_bonus[0]", "--range", "0,2000", "--target", "0.25"], "seat_bonus"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "0.25", "--fix", "seat_bonus=[1,1,1,1]"],
     "searched"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "0.25", "--games", "10"], "budget"),
    (["--param", "seat_bonus[0]", "--range", "0,5", "--target", "0.25", "--players", "9"], "players"),
    (["--param", "seat_bonus[0]", "--range", "0,5"], "--target"),
])
def test_bad_input_exits_2_with_one_line_and_writes_nothing(sim_main, capsys, tmp_path, extra, fragment):
    out = tmp_path / "ev"
    status, stdout, err = sim_main(capsys, ["balance", "dicey", *extra, "--out", str(out)])
    lines = err.splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), err
    assert fragment in lines[0], lines[0]
    assert not out.exists()


def test_existing_output_needs_resume(sim_main, capsys, tmp_path):
    out = tmp_path / "ev"
    out.mkdir()
    status, _, err = sim_main(capsys, ["balance", "dicey", "--param", "seat_bonus[0]", "--range", "0,5",
                                       "--target", "0.25", "--out", str(out)])
    assert status == 2 and "already exists" in err and len(err.splitlines()) == 1
    status, _, err = sim_main(capsys, ["balance", "dicey", "--param", "seat_bonus[0]", "--range", "0,5",
                                       "--target", "0.25", "--out", str(out), "--resume"])
    assert status == 2 and "no balance search" in err and len(err.splitlines()) == 1


def test_time_limit_stops_resumably_and_engine_failure_leaves_nothing(game, tmp_path):
    from sim.core.errors import EngineFailure

    timed = B.search(game, _settings(game, time_limit=1e-6), tmp_path / "timed")
    assert timed.status == B.TIME and len(B.read_evidence(tmp_path / "timed")[1]) == 1
    assert B.search(game, _settings(game), tmp_path / "timed", resume=True).status == B.FOUND
    with pytest.raises(EngineFailure, match="game 7 of run seed 3"):
        B.search(game, _settings(game, overrides={"debug": {"fail_game": 7}}), tmp_path / "failed")
    assert not (tmp_path / "failed").exists()


def test_paired_estimate_uses_the_reference_games():
    """The control variate: a candidate identical to the reference on their shared games gets exactly
    the reference's mean over all its games; an independent one stays near its own mean."""
    import numpy as np

    rng = np.random.default_rng(1)
    ref = rng.random(5000) < 0.3
    ok = np.ones(5000, dtype=bool)
    value, variance = B.paired_estimate((ref[:800].astype(float), ok[:800]), (ref.astype(float), ok))
    assert value == pytest.approx(ref.mean()) and variance < 0.3 * 0.7 / 800 / 2
    other = rng.random(800) < 0.3
    value, variance = B.paired_estimate((other.astype(float), ok[:800]), (ref.astype(float), ok))
    assert value == pytest.approx(other.mean(), abs=0.01) and variance == pytest.approx(0.21 / 800, rel=0.2)
    assert B.paired_estimate((other[:10].astype(float), ok[:10]), (ref.astype(float), ok)) is None


def test_printed_x_and_states_do_not_mislead():
    """Issue 37, wall 7: a whole-number parameter prints its value, not x = 19.8; a rule's x two
    decimals; "above" says when its interval still reaches into the target band."""
    from sim.analysis.balance import state_label, x_text

    assert x_text(19.8, "rules.rounds=20") == "20"
    assert x_text(0.247, "setup.start_vp=[0,0,0,1]") == "0.25"
    assert x_text(0.2468, "dice.bonus=0.2468") == "0.247"
    base = {"setup": {"vp": [0, 1, 2, 3]}}
    spread = B.parse_rules(["setup.vp"], ["0,x,2x,3x"], base)
    assert x_text(0.247, "setup.vp=[0,0,0,1]", spread) == "0.25"  # no whole x plays these values
    first = B.parse_rules(["setup.vp"], ["x,0,0,0"], base)
    assert x_text(-9.75, "setup.vp=[-10,0,0,0]", first) == "-10"  # the stretch's middle, shown as its whole x
    assert state_label("above", 0.250, 0.269, 0.25, 0.01) == "above the target, interval overlaps the band"
    assert state_label("above", 0.261, 0.275, 0.25, 0.01) == "above the band"
    assert state_label("inside", 0.245, 0.255, 0.25, 0.01) == "inside"
