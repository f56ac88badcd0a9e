"""`sim skill` (sim/studies/skill.py): the rungs' specs, the verdicts, the labels, the command."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from sim.core import registry
from sim.core.errors import UserError
from sim.studies.skill import (Rung, label_series, label_table, load_skill_spec, mirror_verdicts, mixed_verdicts,
                               rung_lineups, seat_imbalance)

GAMES = ("cuzco", "chachapoya", "machu_picchu", "tahuantinsuyu")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_declares_its_rungs_weakest_first(name):
    spec = load_skill_spec(registry.get_game(name))
    assert spec.rungs[0].name == "random"
    assert len(spec.rungs) >= 3
    assert all(len(r.bots) == len(r.styles) for r in spec.rungs)


def test_a_bad_key_names_the_file_and_the_key(tmp_path):
    path = tmp_path / "skill.toml"
    path.write_text('players = 4\n[[rungs]]\nname = "a"\nbots = ["random"]\ncolour = 1\n'
                    '[[rungs]]\nname = "b"\nbots = ["balanced"]\n')
    with pytest.raises(UserError, match=r"skill.toml: rungs\[0\]: unknown key 'colour'"):
        load_skill_spec(registry.get_game("chachapoya"), path)
    path.write_text('[[rungs]]\nname = "a"\nbots = ["nobody"]\n[[rungs]]\nname = "b"\nbots = ["random"]\n')
    with pytest.raises(UserError, match="unknown bot 'nobody'"):
        load_skill_spec(registry.get_game("chachapoya"), path)


def test_a_rung_plays_each_bot_in_a_mirror_then_all_of_them_together():
    rung = Rung("tuned", ("a", "b", "c"), ("a", "b", "c"))
    assert rung_lineups(rung, 4) == [("a",) * 4, ("b",) * 4, ("c",) * 4, ("a", "b", "c", "a")]
    assert rung_lineups(Rung("search", ("s",), ("s",)), 4) == [("s",) * 4]


def _mirror_games(first_player_wins: float, n_games: int, seed: int = 1) -> pd.DataFrame:
    """Players rows of n_games 4-player games where position 0 wins with the given probability,
    the others share the rest evenly; scores: the winner 10, the others 8, 6, 4 by position."""
    rng = np.random.default_rng(seed)
    probabilities = [first_player_wins] + [(1 - first_player_wins) / 3] * 3
    winners = rng.choice(4, size=n_games, p=probabilities)
    rows = []
    for g, w in enumerate(winners):
        others = iter([8, 6, 4])
        for p in range(4):
            rows.append(dict(game=g, position=p, bot="x", won=p == w, score=10 if p == w else next(others)))
    return pd.DataFrame(rows)


def test_mirror_verdicts_measure_the_first_player_margin_and_spread():
    players = _mirror_games(0.4, 4000)
    games = pd.DataFrame({"game_id": range(4000), "n_rounds": [7] * 4000})
    rows = {(r["verdict"], r["item"]): r for r in mirror_verdicts(players, games, 4)}
    first = rows[("first_player", "")]
    assert first["low"] < 0.4 < first["high"] and first["n"] == 4000
    assert abs(first["value"] - 0.4) < 0.03
    assert rows[("margin", "")]["value"] == pytest.approx(2.0)
    assert rows[("score_spread", "")]["value"] == pytest.approx(np.std([10, 8, 6, 4]))
    assert rows[("length", "")]["value"] == 7
    assert sum(rows[("position", str(p))]["value"] for p in range(4)) == pytest.approx(1.0)


def test_seat_imbalance_removes_the_noise_of_fair_seats_and_finds_a_real_edge():
    rng = np.random.default_rng(3)
    fair = np.eye(4)[rng.integers(0, 4, 20000)]
    raw = np.sqrt(np.mean((fair.mean(axis=0) - 0.25) ** 2))
    assert seat_imbalance(fair) < 0.006 and seat_imbalance(fair) <= raw
    edge = np.eye(4)[rng.choice(4, 20000, p=[0.4, 0.2, 0.2, 0.2])]
    # rms distance from 1/4 of (0.4, 0.2, 0.2, 0.2) is sqrt((0.15^2 + 3 * 0.05^2) / 4) = 0.0866
    assert seat_imbalance(edge) == pytest.approx(0.0866, abs=0.005)


def test_mixed_verdicts_give_each_style_its_win_share():
    players = pd.DataFrame({"game": [0, 0, 1, 1], "bot": ["a-tuned", "b-tuned"] * 2, "won": [True, False, True, False]})
    rows = mixed_verdicts(players, {"a-tuned": "a", "b-tuned": "b"}, 2)
    assert [(r["item"], r["value"]) for r in rows] == [("a", 1.0), ("b", 0.0)]


@pytest.mark.parametrize("values, lows, highs, reference, label", [
    ([0.30, 0.31, 0.30], [0.28, 0.29, 0.28], [0.32, 0.33, 0.32], 0.25, "holds at every level"),
    ([0.26, 0.30, 0.35], [0.255, 0.295, 0.345], [0.265, 0.305, 0.355], 0.25, "grows with skill"),
    ([0.35, 0.30, 0.27], [0.345, 0.295, 0.265], [0.355, 0.305, 0.275], 0.25, "shrinks with skill"),
    ([0.30, 0.20], [0.28, 0.18], [0.32, 0.22], 0.25, "flips"),
    ([0.24, 0.30, 0.24], [0.22, 0.28, 0.22], [0.26, 0.32, 0.26], 0.25, "unclear"),
    ([5.0, 5.1, 4.9], [4.5, 4.6, 4.4], [5.5, 5.6, 5.4], None, "holds at every level"),
    ([5.0, 6.0, 7.0], [4.9, 5.9, 6.9], [5.1, 6.1, 7.1], None, "grows with skill"),
])
def test_labels_follow_the_documented_rules(values, lows, highs, reference, label):
    assert label_series(values, lows, highs, reference)[0] == label


def test_a_fixed_game_length_holds_at_every_level():
    assert label_series([6, 6, 6], [6, 6, 6], [6, 6, 6], None)[0] == "holds at every level"


def test_label_table_orders_rungs_weakest_first():
    verdicts = pd.DataFrame([dict(rung=r, verdict="length", item="", value=v, low=v - 0.1, high=v + 0.1,
                                  reference=math.nan) for r, v in (("search", 3.0), ("random", 1.0), ("tuned", 2.0))])
    labels = label_table(verdicts, ["random", "tuned", "search"])
    assert labels.iloc[0]["label"] == "grows with skill"


def test_sim_skill_writes_its_evidence_and_prints_the_labels(tmp_path, capsys):
    from sim.analysis.skill import read_skill
    from sim.cli import main

    out = tmp_path / "skill"
    assert main(["skill", "chachapoya", "--rungs", "random,tuned", "--games", "24", "--out", str(out),
                 "--workers", "1", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "first player" in printed and "random < tuned" in printed
    manifest, verdicts, labels = read_skill(out)
    assert manifest["rungs"] == ["random", "tuned"]
    assert set(verdicts["rung"]) == {"random", "tuned"}
    assert {"first_player", "seat_imbalance", "style_share"} <= set(labels["verdict"])
    assert labels["label"].isin(["holds at every level", "grows with skill", "shrinks with skill", "flips",
                                 "unclear"]).all()
    # the same command again reuses the datasets and gives the same verdicts
    assert main(["skill", "chachapoya", "--rungs", "random,tuned", "--games", "24", "--out", str(out),
                 "--workers", "1", "--no-progress"]) == 0
    pd.testing.assert_frame_equal(verdicts, read_skill(out)[1])
    # a ladder kept beside the evidence: the skill page says which rung beats the one below
    assert main(["ladder", "chachapoya", "--rungs", "random,balanced", "--games", "8", "--out", str(tmp_path / "ladder"),
                 "--skill-evidence", str(out), "--workers", "1", "--no-progress"]) in (0, None)
    from sim.analysis.skill import ladder_evidence_result, read_ladder_evidence, search_map_result

    manifest, table = read_ladder_evidence(out)
    assert manifest["rungs"] == ["random", "balanced"] and "--skill-evidence" in manifest["command"]
    assert table[["rung", "below", "games"]].values.tolist() == [["balanced", "random", 8]]
    assert ladder_evidence_result(out).table["verdict"].iloc[0].startswith("balanced is ")
    # a search map kept beside the evidence: the page shows where the search leaves its heuristic
    assert main(["search-map", "chachapoya", "--games", "8", "--out", str(tmp_path / "map"),
                 "--skill-evidence", str(out), "--workers", "1", "--no-progress"]) in (0, None)
    assert "search left it" in " ".join(search_map_result(out).table.columns)
    page = _page_runs_headless(out, tmp_path)
    assert "Does each rung beat the one below?" in page and "alone against 3 copies of random" in page
    assert "Where our bots are weakest" in page and "in every seat, 4 players, 8 games" in page


def _page_runs_headless(evidence, tmp_path):
    """The skill page (notebooks/skill.ipynb) as `sim report` builds it; tests/test_analysis_report.py
    leaves this notebook to this file."""
    import nbformat

    from sim.analysis.report import build_reports
    from sim.analysis.skill import skill_section

    spec = skill_section(evidence, "chachapoya").spec()
    build_reports([spec], tmp_path / "out", simulate=False, progress=False)
    executed = nbformat.read(tmp_path / "out" / "notebooks" / "skill_chachapoya.ipynb", as_version=4)
    assert [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"] == []
    page = (tmp_path / "out" / "skill_chachapoya.html").read_text()
    assert "The answers in short" in page and "How the labels are decided" in page
    assert page.count("data:image/png;base64") >= 6
    return page


@pytest.mark.parametrize("argv, message", [
    (["skill", "chachapoya", "--rungs", "nobody"], "unknown rung 'nobody'"),
    (["skill", "chachapoya", "--games", "6", "--rungs", "random"], "multiple of the player count"),
    (["skill", "nogame"], "unknown game"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    from sim.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv + ["--out", str(tmp_path / "x")] if argv[1] != "nogame" else argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_base_pass_sets_no_parameter_when_the_effects_off_value_is_the_games_own():
    """So a `--no-effect` run's datasets are the base pass of a run with the effect (and the reverse)."""
    from sim.studies.skill import SkillEffect, effect_overrides

    cuzco = registry.get_game("cuzco")
    effect = load_skill_spec(cuzco).effect
    assert effect_overrides(cuzco, effect, False) is None
    assert effect_overrides(cuzco, effect, True) == {"pututu.enabled": True}
    assert effect_overrides(cuzco, None, False) is None
    flipped = SkillEffect("Pututu off", "pututu.enabled", True, False)
    assert effect_overrides(cuzco, flipped, False) == {"pututu.enabled": True}


def test_permuted_seating_seats_every_order_of_a_mixed_rung_only(tmp_path):
    """skill.toml `seating = "permuted"`: a rung with a mixed line-up plays it in every seating
    order, so its games must be a multiple of P!; a one-bot rung (mirror only) keeps rotation."""
    from sim.studies.skill import SkillSettings, rung_games

    game = registry.get_game("chachapoya")
    path = tmp_path / "skill.toml"
    rungs = '[[rungs]]\nname = "r"\nbots = ["random"]\n[[rungs]]\nname = "t"\nbots = ["balanced", "greedy"]\n'
    path.write_text('players = 4\ngames = 48\nseating = "permuted"\n' + rungs)
    spec = load_skill_spec(game, path)
    assert spec.seating == "permuted" and spec.record()["seating"] == "permuted"
    assert [spec.permutes(r) for r in spec.rungs] == [False, True]
    settings = SkillSettings()
    assert rung_games(spec, spec.rungs[1], settings, 4) == 48
    path.write_text('players = 4\ngames = 40\nseating = "permuted"\n' + rungs)
    spec = load_skill_spec(game, path)
    assert rung_games(spec, spec.rungs[0], settings, 4) == 40
    with pytest.raises(UserError, match=r"multiple of 24"):
        rung_games(spec, spec.rungs[1], settings, 4)
    path.write_text('players = 4\nseating = "shuffled"\n' + rungs)
    with pytest.raises(UserError, match="seating must be one of rotated, permuted"):
        load_skill_spec(game, path)
