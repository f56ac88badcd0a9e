"""Win rates, seat balance, scores, margins, game length and end reasons.

Hand-made datasets (Parquet parts + manifest written here) whose answers are known exactly, checked
against statsmodels/scipy and hand arithmetic; then smoke tests on the real session datasets.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from sim.analysis import winrates as wr
from sim.analysis.io import open_dataset
from sim.core.dataset import dictionary_column
from sim.core.errors import UserError

N = 4


def write_dataset(path, players: dict, games: dict, n_players=N, parts=2, categories=None):
    """A dataset directory like `sim run` writes: games/ and players/ parts plus a manifest.

    `categories` maps column -> labels for columns stored as dictionary (categorical) columns.
    Games are split over `parts` part files, each game's player rows with it.
    """
    categories = categories or {}
    (path / "games").mkdir(parents=True)
    (path / "players").mkdir()
    n_games = len(games["game_id"])
    bounds = np.linspace(0, n_games, parts + 1).astype(int)

    def table(columns, lo, hi):
        out = {}
        for name, values in columns.items():
            values = np.asarray(values)[lo:hi]
            out[name] = dictionary_column(values, categories[name]) if name in categories else pa.array(values)
        return pa.table(out)

    for k in range(parts):
        lo, hi = bounds[k], bounds[k + 1]
        pq.write_table(table(games, lo, hi), path / "games" / f"part-{k:05d}.parquet")
        pq.write_table(table(players, lo * n_players, hi * n_players), path / "players" / f"part-{k:05d}.parquet")
    manifest = {"status": "complete", "config": {"game": "handmade", "players": n_players, "variant": "base"}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    return open_dataset(path)


def seat_wins_dataset(tmp_path, wins_per_seat=(40, 25, 20, 15), shared_games=0):
    """100 games of 4 players; game g is won by one seat so that seat s wins wins_per_seat[s]
    games; in the first `shared_games` games seat 1 also wins (a shared first place).
    Bots: 'a' in even seats, 'b' in odd seats. start_order = (seat + g) % 4."""
    winner = np.repeat(np.arange(N), wins_per_seat)
    n_games = len(winner)
    game_id = np.repeat(np.arange(n_games), N)
    seat = np.tile(np.arange(N), n_games)
    won = seat == np.repeat(winner, N)
    won |= (game_id < shared_games) & (seat == 1)
    score = np.where(won, 10, 5)
    rank = np.where(won, 1, 2)
    players = {
        "game_id": game_id, "seat": seat.astype(np.int8), "bot": seat % 2, "score": score.astype(np.int16),
        "rank": rank.astype(np.int8), "won": won, "start_order": ((seat + game_id) % N).astype(np.int8),
    }
    games = {"game_id": np.arange(n_games), "n_rounds": np.full(n_games, 6, dtype=np.int8)}
    return write_dataset(tmp_path / "seatwins", players, games, categories={"bot": ["a", "b"]})


# ---------------------------------------------------------------------------- hand-made: win rates
def test_seat_win_rates_match_statsmodels_intervals(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    t = wr.seat_win_rates(ds).table
    assert list(t.columns) == ["seat", "n", "wins", "rate", "ci_low", "ci_high", "expected"]
    assert t["n"].tolist() == [100] * 4 and t["wins"].tolist() == [40, 25, 20, 15]
    assert t["rate"].tolist() == pytest.approx([0.40, 0.25, 0.20, 0.15])
    for wins, row in zip((40, 25, 20, 15), t.itertuples()):
        lo, hi = proportion_confint(wins, 100, alpha=0.05, method="wilson")
        assert (row.ci_low, row.ci_high) == pytest.approx((lo, hi), abs=1e-12)
    assert t["expected"].tolist() == pytest.approx([0.25] * 4)
    beta = wr.seat_win_rates(ds, method="beta").table
    assert (beta.ci_low[0], beta.ci_high[0]) == pytest.approx(proportion_confint(40, 100, method="beta"))
    # Wilson on 40/100 is roughly [0.309, 0.498] (textbook value)
    assert (t.ci_low[0], t.ci_high[0]) == pytest.approx((0.3094, 0.4980), abs=1e-4)


def test_the_tables_alone_are_the_same_tables_without_a_figure(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    for rates in (wr.seat_win_rates, wr.bot_win_rates):
        drawn, alone = rates(ds), rates(ds, figure=False)
        assert alone.figure is None and drawn.figure is not None
        pd.testing.assert_frame_equal(alone.table, drawn.table)


def test_win_rates_by_turn_order_and_bot_and_grid(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    # start_order = (seat + g) % 4: count by hand with pandas from the written table
    players = pd.read_parquet(ds.path / "players", columns=["start_order", "won"])
    by_order = players.groupby("start_order")["won"].sum().tolist()
    t = wr.seat_win_rates(ds, by="start_order").table
    assert t["start_order"].tolist() == [0, 1, 2, 3] and t["wins"].tolist() == by_order
    assert t["n"].tolist() == [100] * 4

    bots = wr.bot_win_rates(ds).table
    assert bots["bot"].tolist() == ["a", "b"]
    assert bots["n"].tolist() == [200, 200]
    assert bots["wins"].tolist() == [40 + 20, 25 + 15]
    assert bots["rate"].tolist() == pytest.approx([0.3, 0.2])
    assert (bots.ci_low[0], bots.ci_high[0]) == pytest.approx(proportion_confint(60, 200, method="wilson"))

    grid = wr.seat_bot_win_rates(ds).table
    assert list(grid.columns[:4]) == ["seat", "bot", "n", "wins"]
    assert list(zip(grid.seat, grid.bot, grid.wins)) == [(0, "a", 40), (1, "b", 25), (2, "a", 20), (3, "b", 15)]


def test_shared_wins_count_every_winner(tmp_path):
    ds = seat_wins_dataset(tmp_path, shared_games=10)  # games 0-9: seat 0 and seat 1 both win
    t = wr.seat_win_rates(ds).table
    assert t["wins"].tolist() == [40, 35, 20, 15]
    assert t["rate"].sum() == pytest.approx(110 / 100)           # won rows per game
    assert t["expected"].tolist() == pytest.approx([110 / 400] * 4)
    test = wr.seat_balance_test(ds).table.iloc[0]
    expected = stats.chisquare([40, 35, 20, 15], [27.5] * 4)
    assert test.statistic == pytest.approx(expected.statistic) and test.p_value == pytest.approx(expected.pvalue)
    assert test.wins == 110 and test.n_games == 100


# ---------------------------------------------------------------------------- hand-made: balance
def test_seat_balance_test_is_scipy_chisquare(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    r = wr.seat_balance_test(ds)
    row = r.table.iloc[0]
    # sum (o - 25)^2 / 25 = (225 + 0 + 25 + 100) / 25 = 14
    assert row.statistic == pytest.approx(14.0)
    assert row.dof == 3 and row.n_games == 100 and row.wins == 100
    assert row.p_value == pytest.approx(stats.chisquare([40, 25, 20, 15]).pvalue)
    assert row.p_value == pytest.approx(stats.chi2.sf(14.0, 3))
    assert "not evenly spread" in row.verdict
    even = wr.seat_balance_test(seat_wins_dataset(tmp_path / "even", (25, 25, 25, 25))).table.iloc[0]
    assert even.statistic == 0 and even.p_value == pytest.approx(1.0) and "no evidence" in even.verdict


def test_balance_measures_by_hand(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    t = wr.balance_measures(ds).table
    assert list(t.columns) == ["measure", "by", "group", "value", "ci_low", "ci_high", "n_games", "note"]
    bal = t[t.measure == "balance"].iloc[0]
    assert bal.value == pytest.approx(1 - (0.40 - 0.15))
    # gap seat 0 - seat 3 paired by game: +1 in 40 games, -1 in 15, 0 in 45 -> t interval
    d = np.array([1.0] * 40 + [-1.0] * 15 + [0.0] * 45)
    lo, hi = stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))
    assert (bal.ci_low, bal.ci_high) == pytest.approx((1 - hi, 1 - lo))
    assert "seat 0" in bal.note and "seat 3" in bal.note

    first = t[t.measure == "first_player_advantage"].iloc[0]
    wl, wh = proportion_confint(40, 100, method="wilson")
    assert first.group == 0
    assert (first.value, first.ci_low, first.ci_high) == pytest.approx((0.15, wl - 0.25, wh - 0.25))
    adv = t[t.measure == "advantage"]
    assert adv["group"].tolist() == [0, 1, 2, 3]
    assert adv["value"].tolist() == pytest.approx([0.15, 0.0, -0.05, -0.10])
    assert adv["value"].sum() == pytest.approx(0)

    perfect = wr.balance_measures(seat_wins_dataset(tmp_path / "even", (25, 25, 25, 25))).table
    assert perfect.value[0] == pytest.approx(1.0) and perfect.ci_high[0] == 1.0


# ---------------------------------------------------------------------------- hand-made: scores etc.
def margins_dataset(tmp_path):
    """Four 4-player games with chosen scores and ranks.

    game 0: 30 (won) 20 10 5                    -> margin 10
    game 1: 12 12 (both rank 1, shared win) 3 1 -> margin 0
    game 2: 7 (won), -2 (rank 2), 0 and 0 eliminated (ranks 3, 4) -> margin 9 (rank order, not score)
    game 3: 50 (won) 49 0 0                     -> margin 1
    """
    score = [30, 20, 10, 5, 12, 12, 3, 1, 7, -2, 0, 0, 0, 0, 49, 50]
    rank = [1, 2, 3, 4, 1, 1, 3, 4, 1, 2, 3, 3, 3, 3, 2, 1]
    won = [r == 1 for r in rank]
    eliminated = [False] * 10 + [True, True] + [False] * 4
    players = {
        "game_id": np.repeat(np.arange(4), N), "seat": np.tile(np.arange(N, dtype=np.int8), 4),
        "bot": np.tile([0, 1, 0, 1], 4), "score": np.array(score, dtype=np.int16),
        "rank": np.array(rank, dtype=np.int8), "won": np.array(won), "eliminated": np.array(eliminated),
    }
    games = {"game_id": np.arange(4), "n_rounds": np.array([3, 5, 5, 9], dtype=np.int16),
             "turns": np.array([12, 20, 21, 40], dtype=np.int16),
             "end_reason": np.array([0, 0, 1, 0])}
    return write_dataset(tmp_path / "margins", players, games, parts=2,
                         categories={"bot": ["x", "y"], "end_reason": ["deck_exhausted", "last_standing", "round_limit"]})


def test_margins_follow_rank_order_and_shared_wins(tmp_path):
    ds = margins_dataset(tmp_path)
    per_game = wr.game_margins(ds)
    assert per_game["game_id"].tolist() == [0, 1, 2, 3]
    assert per_game["margin"].tolist() == [10, 0, 9, 1]
    assert per_game["runner_up_score"].tolist() == [20, 12, -2, 49]
    r = wr.margin_distribution(ds)
    row = r.table.iloc[0]
    m = np.array([10, 0, 9, 1])
    assert row.games == 4 and row.tied == 1 and row.tied_share == 0.25 and row.no_winner == 0
    assert (row["mean"], row.sd) == pytest.approx((m.mean(), m.std(ddof=1)))
    assert (row.ci_low, row.ci_high) == pytest.approx(stats.t.interval(0.95, 3, loc=m.mean(), scale=stats.sem(m)))
    assert (row["min"], row["median"], row["max"]) == (0, 5.0, 10)  # median of 0 1 9 10


def test_score_distribution_matches_numpy(tmp_path):
    ds = margins_dataset(tmp_path)
    raw = pd.read_parquet(ds.path / "players", columns=["bot", "score"])
    t = wr.score_distribution(ds, by="bot").table
    assert list(t.columns) == ["bot", *wr.SUMMARY_COLUMNS]
    assert t["bot"].tolist() == ["x", "y"]
    for row in t.itertuples():
        s = raw.loc[raw.bot == row.bot, "score"].to_numpy(dtype=float)
        assert row.n == len(s) == 8
        assert (row.mean, row.sd, row.min, row.max) == pytest.approx((s.mean(), s.std(ddof=1), s.min(), s.max()))
        assert (row.ci_low, row.ci_high) == pytest.approx(stats.t.interval(0.95, 7, loc=s.mean(), scale=stats.sem(s)))
        q = np.quantile(s, wr.QUANTILES, method="averaged_inverted_cdf")
        assert [row.q05, row.q25, row.median, row.q75, row.q95] == pytest.approx(q)
    everyone = wr.score_distribution(ds, by=None).table
    assert len(everyone) == 1 and everyone.n[0] == 16 and everyone["mean"][0] == pytest.approx(raw.score.mean())
    by_seat = wr.score_distribution(ds, by="seat").table
    assert by_seat["seat"].tolist() == [0, 1, 2, 3]
    assert by_seat["mean"][0] == pytest.approx(np.mean([30, 12, 7, 0]))


def test_game_length_and_end_reasons(tmp_path):
    ds = margins_dataset(tmp_path)
    t = wr.game_length(ds).table.set_index("measure")
    assert list(t.index) == ["n_rounds", "turns"]
    assert t.loc["n_rounds", "n"] == 4 and t.loc["n_rounds", "mean"] == pytest.approx(22 / 4)
    assert (t.loc["n_rounds", "min"], t.loc["n_rounds", "median"], t.loc["n_rounds", "max"]) == (3, 5, 9)
    assert t.loc["turns", "mean"] == pytest.approx(93 / 4)

    e = wr.end_reasons(ds).table.set_index("category")
    assert e.loc["deck_exhausted", "count"] == 3 and e.loc["last_standing", "count"] == 1
    assert e.loc["round_limit", "count"] == 0 and e.loc["round_limit", "ci_low"] == pytest.approx(0, abs=1e-12)
    assert e.loc["round_limit", "ci_high"] == pytest.approx(proportion_confint(0, 4, method="wilson")[1])
    assert e.loc["deck_exhausted", "share"] == 0.75
    assert e.loc["players eliminated", ["count", "n"]].tolist() == [2, 16]
    assert e.loc["games with an elimination", ["count", "n"]].tolist() == [1, 4]
    assert e.loc["games with an elimination", "ci_high"] == pytest.approx(
        proportion_confint(1, 4, method="wilson")[1])


def test_game_without_end_reason_says_so(tmp_path):
    ds = seat_wins_dataset(tmp_path)
    r = wr.end_reasons(ds)
    assert len(r.table) == 1
    row = r.table.iloc[0]
    assert row.category == "not recorded" and np.isnan(row["count"]) and "no end_reason" in row.note
    assert r.figure.axes[0].get_title()
    t = wr.game_length(ds).table
    assert t["measure"].tolist() == ["n_rounds"] and t.sd[0] == 0 and t["mean"][0] == 6


def test_small_batches_give_the_same_answers(tmp_path, monkeypatch):
    """Games split across record batches (3 rows per batch, 4 players per game) change nothing."""
    ds = margins_dataset(tmp_path)
    seats = seat_wins_dataset(tmp_path, shared_games=10)
    before = (wr.game_margins(ds), wr.end_reasons(ds).table, wr.balance_measures(seats).table,
              wr.score_distribution(ds).table, wr.seat_bot_win_rates(seats).table)
    monkeypatch.setattr(wr, "BATCH_ROWS", 3)
    after = (wr.game_margins(ds), wr.end_reasons(ds).table, wr.balance_measures(seats).table,
             wr.score_distribution(ds).table, wr.seat_bot_win_rates(seats).table)
    for a, b in zip(before, after):
        pd.testing.assert_frame_equal(a, b)


def test_bad_input_is_a_user_error(tmp_path):
    ds = margins_dataset(tmp_path)
    with pytest.raises(UserError, match="no column 'start_order'"):
        wr.seat_win_rates(ds, by="start_order")
    with pytest.raises(UserError, match="unknown interval method"):
        wr.bot_win_rates(ds, method="exact")
    with pytest.raises(UserError, match="no column 'nope'"):
        wr.score_distribution(ds, by="nope")


# ---------------------------------------------------------------------------- real datasets
def assert_labelled(fig):
    ax = fig.axes[0]
    title = ax.get_title() or fig.get_suptitle()
    assert title and ax.get_xlabel() and ax.get_ylabel()
    assert "players" in (fig.get_suptitle() + " ".join(a.get_title() for a in fig.axes))  # dataset label


def test_cuzco_first_player_by_turn_order(cuzco_small):
    ds = open_dataset(cuzco_small)
    raw = ds.players(["start_order", "won"])
    r = wr.seat_win_rates(ds, by="start_order")
    assert r.table["start_order"].tolist() == [0, 1, 2, 3] and r.table["n"].tolist() == [400] * 4
    assert r.table["wins"].tolist() == raw.groupby("start_order")["won"].sum().tolist()
    assert r.table["rate"].sum() == pytest.approx(raw.won.sum() / 400) and raw.won.sum() == 400
    assert ((r.table.ci_low <= r.table.rate) & (r.table.rate <= r.table.ci_high)).all()
    assert_labelled(r.figure)
    assert any("fair share" in t.get_text() for t in r.figure.axes[0].get_legend().get_texts())

    test = wr.seat_balance_test(ds, by="start_order").table.iloc[0]
    assert test.p_value == pytest.approx(stats.chisquare(r.table["wins"]).pvalue)
    b = wr.balance_measures(ds, by="start_order")
    assert b.table.measure.tolist() == ["balance", "first_player_advantage"] + ["advantage"] * 4
    assert b.table.value[0] == pytest.approx(1 - (r.table.rate.max() - r.table.rate.min()))
    assert b.table.value[1] == pytest.approx(r.table.rate[0] - 0.25)
    assert_labelled(b.figure)

    lengths = wr.game_length(ds).table.set_index("measure")
    assert lengths.loc["n_rounds", "n"] == 400 and lengths.loc["n_rounds", "sd"] == 0
    assert lengths.loc["turns", "min"] >= 72
    assert wr.end_reasons(ds).table.category.tolist() == ["all_rounds_played"]  # every game plays its six rounds
    margins = wr.margin_distribution(ds)
    assert margins.table.games[0] == 400 and margins.table["min"][0] >= 0
    assert_labelled(margins.figure)


def test_chachapoya_shared_wins_scores_and_endings(chachapoya_small):
    ds = open_dataset(chachapoya_small)
    raw = ds.players(["game_id", "seat", "bot", "won", "score"])
    won_per_game = raw.groupby("game_id").won.sum()
    seats = wr.seat_win_rates(ds)
    assert len(seats.table) == 4
    assert seats.table.rate.sum() == pytest.approx(raw.won.sum() / ds.n_games)
    assert_labelled(seats.figure)
    bots = wr.bot_win_rates(ds)
    assert sorted(bots.table.bot) == sorted(raw.bot.astype(str).unique()) and bots.table.n.sum() == 8000
    assert_labelled(bots.figure)
    grid = wr.seat_bot_win_rates(ds)
    assert len(grid.table) == 16 and grid.table.wins.sum() == raw.won.sum()
    assert_labelled(grid.figure)

    scores = wr.score_distribution(ds)
    assert scores.table.n.sum() == 8000
    greedy = next(bot for bot in raw.bot.astype(str).unique() if bot.startswith("greedy"))
    assert scores.table.set_index("bot").loc[greedy, "mean"] == pytest.approx(raw.loc[raw.bot == greedy, "score"].mean())
    assert_labelled(scores.figure)
    margins = wr.margin_distribution(ds).table.iloc[0]
    assert margins.tied >= (won_per_game > 1).sum() and margins.games == (won_per_game > 0).sum()

    ends = wr.end_reasons(ds)
    e = ends.table
    assert e.loc[e.kind == "end_reason", "count"].sum() == ds.n_games
    eliminated = ds.players(["eliminated"]).eliminated.sum()
    assert e.set_index("category").loc["players eliminated", "count"] == eliminated
    assert ends.figure.axes[0].get_title() and ends.figure.axes[0].get_xlabel()
    length = wr.game_length(ds).table
    assert length.measure.tolist() == ["n_rounds"] and length.n[0] == ds.n_games
    assert length["mean"][0] == pytest.approx(ds.games(["n_rounds"]).n_rounds.mean())
