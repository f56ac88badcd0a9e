"""Variant comparison: known differences on hand-made paired datasets, paired against two-sample
intervals, the multiple-comparison correction, and `sim compare` on the Cuzco fixtures."""
import gc
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import test_proportions_2indep as two_proportion_test

from sim.analysis.compare import compare, compare_summary_text
from sim.analysis.io import Result, open_dataset
from sim.cli import main
from sim.core.errors import UserError
from sim.core.stats import adjust_p_values

N_GAMES = 1000


def write_dataset(path, players, games, seed, variant="base", game="cuzco", n_players=2):
    """A dataset directory as `sim run` writes it: Parquet parts and a complete manifest."""
    (path / "players").mkdir(parents=True)
    (path / "games").mkdir()
    players.to_parquet(path / "players" / "part-00000.parquet", index=False)
    games.to_parquet(path / "games" / "part-00000.parquet", index=False)
    manifest = {"status": "complete", "config": {"game": game, "players": n_players, "variant": variant,
                                                 "seed": seed, "games": len(games)}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path


def handmade(variant):
    """Two-player games whose answers are known exactly.

    Scores: a large game effect shared by A and B (common random numbers), seat noise, and in B
    +2 VP for both seats plus +1/-1 alternating by game: the per-game mean score difference is
    2 +- 1, exactly 2 on average. Seat 0 (bot "x") wins games g % 4 == 0 in A (25%) and g % 4 in
    {0, 1} in B (50%); seat 1 (bot "y") wins the others. n_rounds is 10 + g % 3 in A, one more in
    B. Card "idol" (a Cuzco god-card column) is held by seat 0 in every game.
    """
    rng = np.random.default_rng(7)
    g = np.arange(N_GAMES)
    game_effect = rng.normal(100, 20, N_GAMES)
    score = np.round(game_effect[:, None] + rng.normal(0, 5, (N_GAMES, 2)))
    seat0_wins = g % 4 == 0
    n_rounds = 10 + g % 3
    if variant == "b":
        score = score + 2 + np.where(g % 2 == 0, 1, -1)[:, None]
        seat0_wins = g % 4 <= 1
        n_rounds = n_rounds + 1
    won = np.stack([seat0_wins, ~seat0_wins], axis=1)
    players = pd.DataFrame({
        "game_id": np.repeat(g, 2), "seat": np.tile([0, 1], N_GAMES).astype(np.int8),
        "bot": pd.Categorical(np.tile(["x", "y"], N_GAMES)), "score": score.ravel().astype(np.int16),
        "won": won.ravel(), "card_gained_idol": np.tile([1, 0], N_GAMES).astype(np.int8),
    })
    games = pd.DataFrame({"game_id": g, "n_rounds": n_rounds.astype(np.int16)})
    return players, games, score


@pytest.fixture(scope="module")
def handmade_dirs(tmp_path_factory):
    root = tmp_path_factory.mktemp("handmade")
    pa_, ga, score_a = handmade("a")
    pb, gb, score_b = handmade("b")
    return {
        "a": write_dataset(root / "a", pa_, ga, seed=5),
        "b": write_dataset(root / "b", pb, gb, seed=5, variant="b"),
        "b_other_seed": write_dataset(root / "b2", pb, gb, seed=6, variant="b"),
        "b_other_bots": write_dataset(root / "b3", pb.assign(bot=pb["bot"].map({"x": "y", "y": "x"})), gb, seed=5,
                                      variant="b"),
        "scores": (score_a, score_b),
    }


def row(result, metric):
    rows = result.table[result.table["metric"] == metric]
    assert len(rows) == 1, metric
    return rows.iloc[0]


def test_paired_comparison_finds_the_known_differences(handmade_dirs):
    res = compare(handmade_dirs["a"], handmade_dirs["b"])
    assert res.table.attrs["paired"] is True
    score_a, score_b = handmade_dirs["scores"]

    mean = row(res, "mean score")
    assert mean.paired and mean.test == "paired t"
    assert mean.difference == pytest.approx(2.0, abs=1e-12)
    assert (mean.value_a, mean.value_b) == pytest.approx((score_a.mean(), score_b.mean()))
    expected = stats.ttest_rel(score_b.mean(axis=1), score_a.mean(axis=1)).confidence_interval(0.95)
    assert (mean.ci_low, mean.ci_high) == pytest.approx((expected.low, expected.high))
    assert mean.ci_low < 2.0 < mean.ci_high and mean.ci_high - mean.ci_low < 0.15  # sd 1 over 1000 games
    assert mean.significant

    seat0 = row(res, "win rate, seat 0 (first player)")
    assert (seat0.value_a, seat0.value_b, seat0.difference) == pytest.approx((0.25, 0.5, 0.25))
    assert seat0.test == "McNemar chi2"
    assert seat0.p_value == pytest.approx(mcnemar([[250, 0], [250, 500]], exact=False, correction=True).pvalue)
    assert row(res, "win rate, bot x").difference == pytest.approx(0.25)
    assert row(res, "win rate, bot y").difference == pytest.approx(-0.25)
    advantage = row(res, "first-player advantage (win rate - 1/N)")
    assert (advantage.value_a, advantage.value_b) == pytest.approx((-0.25, 0.0))
    assert advantage.p_adjusted == seat0.p_adjusted

    rounds = row(res, "mean n_rounds")
    assert (rounds.difference, rounds.ci_low, rounds.ci_high, rounds.p_value) == (1.0, 1.0, 1.0, 0.0)
    assert rounds.significant

    card = row(res, "GIH WR, god card idol")
    assert not card.paired  # the holders differ between variants: never paired
    assert (card.value_a, card.value_b, card.n_a) == pytest.approx((0.25, 0.5, 1000))
    assert card.p_value == pytest.approx(two_proportion_test(500, 1000, 250, 1000, method="score").pvalue)


def test_paired_intervals_are_narrower_than_two_sample_ones(handmade_dirs):
    paired = compare(handmade_dirs["a"], handmade_dirs["b"])
    unpaired = compare(handmade_dirs["a"], handmade_dirs["b_other_seed"])
    assert unpaired.table.attrs["paired"] is False and "run seeds" in unpaired.table.attrs["pairing"]
    swapped = compare(handmade_dirs["a"], handmade_dirs["b_other_bots"], cards=False).table
    assert swapped.attrs["paired"] is False and "different bots" in swapped.attrs["pairing"]
    assert row(Result(swapped, None), "win rate, bot x").difference == pytest.approx(0.5 - 0.25)  # x now in seat 1
    for metric, ratio in (("mean score", 0.1), ("win rate, seat 0 (first player)", 0.8)):
        p, u = row(paired, metric), row(unpaired, metric)
        assert p.difference == pytest.approx(u.difference)  # same data, same estimate
        assert not u.paired
        assert (p.ci_high - p.ci_low) < ratio * (u.ci_high - u.ci_low), metric
    u = row(unpaired, "mean score")
    score_a, score_b = handmade_dirs["scores"]
    welch = stats.ttest_ind(score_b.mean(axis=1), score_a.mean(axis=1), equal_var=False)
    assert u.test == "Welch t" and u.p_value == pytest.approx(welch.pvalue)
    assert row(unpaired, "win rate, seat 0 (first player)").test == "two-proportion score z"


@pytest.mark.parametrize("correction, method", [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjusted_p_values_are_multipletests_over_the_tested_rows(handmade_dirs, correction, method):
    table = compare(handmade_dirs["a"], handmade_dirs["b_other_seed"], alpha=0.05, correction=correction).table
    tested = ~table["test"].str.startswith("none") & ~table["metric"].str.startswith("first-player advantage")
    reject, adjusted, _, _ = multipletests(table.loc[tested, "p_value"], alpha=0.05, method=method)
    np.testing.assert_allclose(table.loc[tested, "p_adjusted"], adjusted)
    assert table.loc[tested, "significant"].tolist() == list(reject)
    assert table.attrs["n_tests"] == int(tested.sum())
    assert (table["p_adjusted"] >= table["p_value"] - 1e-15).all()


def test_the_table_alone_is_the_same_table_without_a_figure(handmade_dirs):
    drawn = compare(handmade_dirs["a"], handmade_dirs["b"])
    alone = compare(handmade_dirs["a"], handmade_dirs["b"], figure=False)
    assert alone.figure is None and drawn.figure is not None
    pd.testing.assert_frame_equal(alone.table, drawn.table)


def test_the_adjustment_leaves_the_collector_as_it_found_it():
    """adjust_p_values freezes the heap around multipletests (whose Holm branch collects) and
    unfreezes it, even when multipletests raises."""
    p = np.array([0.01, 0.04, 0.03, 0.2])
    for method in ("holm", "fdr_bh"):
        reject, adjusted = adjust_p_values(p, 0.05, method)
        expected_reject, expected, _, _ = multipletests(p, alpha=0.05, method=method)
        np.testing.assert_array_equal(adjusted, expected)
        np.testing.assert_array_equal(reject, expected_reject)
        assert gc.get_freeze_count() == 0
    with pytest.raises(ValueError):
        adjust_p_values(p, 0.05, "no such method")
    assert gc.get_freeze_count() == 0


def test_summary_text_and_forest_plot(handmade_dirs):
    res = compare(handmade_dirs["a"], handmade_dirs["b"])
    text = compare_summary_text(res)
    assert "paired: yes" in text and "mean score" in text and "+25.00 pp" in text
    assert "GIH WR, god card idol" in text  # significant, so shown
    axes = res.figure.get_axes()
    assert len(axes) == 4  # win rates, VP, rounds, cards
    assert "percentage points" in axes[0].get_xlabel() and "VP" in axes[1].get_xlabel()


def test_bad_input(handmade_dirs, tmp_path, chachapoya_small):
    with pytest.raises(UserError, match="different games"):
        compare(handmade_dirs["a"], chachapoya_small)
    with pytest.raises(UserError, match="not a dataset directory"):
        compare(handmade_dirs["a"], tmp_path)
    with pytest.raises(UserError, match="unknown correction"):
        compare(handmade_dirs["a"], handmade_dirs["b"], correction="bonferroni")


def test_cuzco_base_against_pututu(cuzco_small, cuzco_small_pututu):
    res = compare(cuzco_small, cuzco_small_pututu)
    assert res.table.attrs["paired"] is True
    for path, column in ((cuzco_small, "value_a"), (cuzco_small_pututu, "value_b")):
        players = open_dataset(path).players(["score", "start_order", "won"])
        assert row(res, "mean score")[column] == pytest.approx(players.score.mean())
        first = players[players.start_order == 0].won.mean()
        assert row(res, "win rate, start_order 0 (first player)")[column] == pytest.approx(first)
    groups = set(res.table["group"])
    assert {"turn order", "bots", "scores", "game length", "cards: god card", "cards: mission"} <= groups


def test_sim_compare_cli(cuzco_small, cuzco_small_pututu, chachapoya_small, capsys, tmp_path):
    assert main(["compare", str(cuzco_small), str(cuzco_small_pututu), "--figure", str(tmp_path / "f.png")]) == 0
    out = capsys.readouterr().out
    assert "paired: yes" in out and "win rate, start_order 0" in out and "mean turns" in out
    assert (tmp_path / "f.png").stat().st_size > 0
    for args, fragment in ((["compare", str(cuzco_small), str(chachapoya_small)], "different games"),
                           (["compare", str(cuzco_small), str(tmp_path / "nope")], "not a dataset directory"),
                           (["compare", str(cuzco_small)], "give two dataset directories")):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("error: ") and fragment in err[0]


def test_compare_says_how_many_games_the_change_touched(handmade_dirs, tmp_path):
    """Issue 37 (wall 2's "sim compare says how many games the change touched"): paired games
    whose score, winner, turn order or length differ; a change touching few of them is called so."""
    assert compare(handmade_dirs["a"], handmade_dirs["b"]).table.attrs["games_changed"] == N_GAMES
    assert compare(handmade_dirs["a"], handmade_dirs["b_other_seed"]).table.attrs["games_changed"] is None
    players, games, _ = handmade("a")
    touched = players["game_id"].isin([3, 10, 500]) & (players["seat"] == 1)
    players.loc[touched, "score"] += 1  # three games end one point apart, nothing else moves
    few = write_dataset(tmp_path / "few", players, games, seed=5, variant="few")
    result = compare(handmade_dirs["a"], few)
    assert result.table.attrs["games_changed"] == 3
    text = compare_summary_text(result)
    assert ("the change touched 3 of 1,000 paired games (0.30%) (a score, winner, turn order or length differs); "
            "the others played out the same; it can move no measure much") in text
