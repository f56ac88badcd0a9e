"""The GSPRT: its formula and bounds, decisions on synthetic data whose truth is known, error
rates near alpha and beta over many seeded runs, and a real sequential run of Chachapoya."""
import math

import numpy as np
import pandas as pd
import pytest

from sim.analysis.sprt import GSPRT, per_game_metric, run_sprt
from sim.cli import main
from sim.core import registry
from sim.core.errors import UserError


def test_llr_is_fishtests_normal_approximation_and_bounds_are_walds():
    x = np.array([0.5, -1.0, 2.0, 0.0, 1.5, -0.25])
    test = GSPRT(0.0, 0.3, alpha=0.05, beta=0.1)
    test.update(x[:2])
    test.update(x[2:5])
    test.update(x[5:])
    n, mean, var = len(x), x.mean(), x.var()  # variance with divisor N
    assert (test.n, test.mean, test.variance) == pytest.approx((n, mean, var))
    assert test.llr == pytest.approx(n * (0.3 - 0.0) * (2 * mean - 0.0 - 0.3) / (2 * var))
    assert test.bounds() == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert test.status() == "continue"


def test_bad_settings():
    with pytest.raises(UserError):
        GSPRT(0.0, 0.0)
    with pytest.raises(UserError):
        GSPRT(0.0, 0.1, alpha=0.6, beta=0.5)


def run_synthetic(rng, true_diff, margin, sd=1.0, batch=100, max_n=100_000):
    test = GSPRT(0.0, margin, alpha=0.05, beta=0.05)
    n = 0
    while test.status() == "continue" and n < max_n:
        test.update(rng.normal(true_diff, sd, batch))
        n += batch
    return test.status(), n


def trinomial_run(rng, true_diff, margin=0.05, q=0.2, batch=100):
    """Per-game differences of two win indicators: -1, 0 or +1 with mean true_diff."""
    test = GSPRT(0.0, margin)
    while test.status() == "continue":
        test.update(rng.choice([-1.0, 0.0, 1.0], size=batch, p=[q - true_diff / 2, 1 - 2 * q, q + true_diff / 2]))
    return test.status()


def test_decides_on_the_right_side():
    assert run_synthetic(np.random.default_rng(1), 0.0, 0.1)[0] == "accept H0"
    assert run_synthetic(np.random.default_rng(2), 0.2, 0.1)[0] == "accept H1"
    assert run_synthetic(np.random.default_rng(3), -0.1, 0.1)[0] == "accept H0"  # one-sided
    assert run_synthetic(np.random.default_rng(4), -0.2, -0.1)[0] == "accept H1"  # a decrease


def test_error_rates_are_near_alpha_and_beta():
    """200 seeded runs at each hypothesis: P(accept H1 | diff 0) ~ alpha, P(accept H0 | diff =
    margin) ~ beta (a little below, from checking after whole batches: 0.037 and 0.033 in 2,000
    runs). Binomial sd of a rate near 0.05 over 200 runs is 0.015, hence the band."""
    false_h1 = np.mean([trinomial_run(np.random.default_rng(s), 0.0) == "accept H1" for s in range(200)])
    false_h0 = np.mean([trinomial_run(np.random.default_rng(1000 + s), 0.05) == "accept H0" for s in range(200)])
    assert 0.01 <= false_h1 <= 0.09, false_h1
    assert 0.01 <= false_h0 <= 0.09, false_h0
    far = [trinomial_run(np.random.default_rng(2000 + s), 0.10) for s in range(50)]
    assert far.count("accept H1") == 50  # at twice the margin H1 always wins


def test_per_game_metrics():
    won = np.array([[True, False, False], [False, False, True]])
    score = np.array([[10, 4, 1], [3, 3, 9]])
    position = np.array([[0, 1, 2], [2, 1, 0]])
    seat_bots = np.array([[0, 1, 1], [1, 0, 1]])
    names = ["a", "b"]
    np.testing.assert_array_equal(per_game_metric("first_player_win", won, score, position, seat_bots, names), [1, 1])
    np.testing.assert_allclose(per_game_metric("score", won, score, position, seat_bots, names), [5, 5])
    np.testing.assert_allclose(per_game_metric("bot_win:b", won, score, position, seat_bots, names), [0, 0.5])
    with pytest.raises(UserError, match="not in the line-up"):
        per_game_metric("bot_win:c", won, score, position, seat_bots, names)
    with pytest.raises(UserError, match="unknown metric"):
        per_game_metric("elo", won, score, position, seat_bots, names)


def test_run_sprt_on_chachapoya():
    # The same variant twice: every per-game difference is exactly 0, so H0 after one batch.
    same = run_sprt("chachapoya", None, None, "score", margin=1.0, batch=200, max_games=600, seed=3)
    assert same.table.attrs["decision"] == "accept H0" and same.table.attrs["games"] == 200
    assert same.table["mean_diff"].tolist() == [0.0]
    # A real variant with a margin far beyond reach: runs until max_games or H0.
    greedy = next(bot for bot in registry.get_game("chachapoya").default_bots(4) if bot.startswith("greedy"))
    res = run_sprt("chachapoya", None, {"name": "hand7", "setup": {"hand_size": 7}}, f"bot_win:{greedy}",
                   margin=0.5, batch=200, max_games=600, seed=3)
    trace, attrs = res.table, res.table.attrs
    assert attrs["decision"] in ("accept H0", "continue") and attrs["games"] in (200, 400, 600)
    assert trace["games"].tolist() == list(range(200, attrs["games"] + 1, 200))
    assert (trace["lower"] == math.log(0.05 / 0.95)).all()
    assert "games played" in res.figure.get_axes()[0].get_xlabel()


def test_sim_compare_sprt_cli(tmp_path, capsys):
    (tmp_path / "v.toml").write_text('name = "hand7"\n[setup]\nhand_size = 7\n')
    assert main(["compare", "--sprt", "--game", "chachapoya", "--variant-b", str(tmp_path / "v.toml"),
                 "--metric", "first_player_win", "--margin", "0.5", "--batch", "100", "--max-games", "200",
                 "--seed", "9"]) == 0
    captured = capsys.readouterr()
    assert "batch 1: 100 games" in captured.err
    assert "games" in captured.out and "first_player_win, hand7 - base" in captured.out
    with pytest.raises(SystemExit) as info:
        main(["compare", "--sprt", "--game", "chachapoya", "--variant-b", str(tmp_path / "v.toml"),
              "--metric", "bot_win:nobody", "--margin", "0.1"])
    assert info.value.code == 2
    assert "not in the line-up" in capsys.readouterr().err


def test_summary_gives_the_interval_and_the_one_sided_reading():
    """Issue 37, wall 7: "accept H0" comes with the mean difference's 95% interval and a word that
    the test looks in one direction (a difference the other way also ends in H0)."""
    import pandas as pd

    from sim.analysis.io import Result
    from sim.analysis.sprt import sprt_summary_text

    table = pd.DataFrame([{"batch": 1, "games": 2000, "pairs": 1601, "mean_diff": -0.01, "sd_diff": 0.4,
                           "llr": -3.2, "lower": -2.94, "upper": 2.94, "status": "accept H0"}])
    table.attrs.update({"decision": "accept H0", "games": 2000, "metric": "first_player_win", "margin0": 0.0,
                        "margin": 0.02, "variant_a": "base", "variant_b": "pututu", "no_winner_games": 0})
    text = sprt_summary_text(Result(table, None))
    half = 1.959963984540054 * 0.4 / 40  # sd / sqrt(pairs - 1)
    assert (f"mean difference -1.00 points, 95% interval [{100 * (-0.01 - half):+.2f} points, "
            f"{100 * (-0.01 + half):+.2f} points] over 1,601 paired games") in text
    assert "looks in one direction: it asks whether B - A is at least +2.00 points" in text
    assert "a difference the other way gives too" in text


def test_sprt_permute_seats_moves_only_a_mixed_line_ups_seats(with_fake_game, tmp_path, capsys):
    """--permute-seats: a mixed line-up's trace changes (g,r,g,r is seated too), a mirror's does not."""
    bonus = {"name": "bonus", "seat_bonus": [2, 0, 0, 0]}

    def trace(bots, permute):
        res = run_sprt("dicey", None, bonus, "first_player_win", margin=0.5, batch=48, max_games=48, seed=3,
                       players=4, bots=bots, permute=permute)
        assert res.table.attrs["permute_seats"] is permute and res.table.attrs["games"] == 48
        return res.table

    mixed = "greedy,greedy,random,random"
    assert not trace(mixed, True)["mean_diff"].equals(trace(mixed, False)["mean_diff"])
    pd.testing.assert_frame_equal(trace("random", True), trace("random", False))
    (tmp_path / "v.toml").write_text('name = "bonus"\nseat_bonus = [2, 0, 0, 0]\n')
    assert main(["compare", "--sprt", "--game", "dicey", "--variant-b", str(tmp_path / "v.toml"), "--metric",
                 "first_player_win", "--margin", "0.5", "--batch", "24", "--max-games", "48", "--players", "4",
                 "--bots", mixed, "--permute-seats"]) == 0
    assert "sequential test, seats permuted" in capsys.readouterr().err
