"""Card strength: exact answers on hand-made players tables, then the real small datasets."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import statsmodels.api as sm
from matplotlib.figure import Figure
from scipy.stats import binomtest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from sim.analysis.cards import card_strength, card_strength_logit, card_summary
from sim.analysis.io import open_dataset
from sim.core.errors import UserError
from sim.core.registry import get_game


def write_dataset(path, game, n_players, players: pd.DataFrame, variant="base"):
    """A minimal dataset directory: manifest (complete), games/ and players/ as Parquet."""
    (path / "games").mkdir(parents=True)
    (path / "players").mkdir()
    n_games = int(players["game_id"].max()) + 1
    pq.write_table(pa.table({"game_id": np.arange(n_games, dtype=np.int64)}), path / "games" / "part-00000.parquet")
    table = pa.Table.from_pandas(players, preserve_index=False)
    pq.write_table(table, path / "players" / "part-00000.parquet")
    manifest = {"status": "complete", "config": {"game": game, "players": n_players, "variant": variant}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    return open_dataset(path)


def two_player_rows():
    """150 two-player games, one winner each: winner i and loser i play game i.

    Item X (adventurer): held (opening hand) by 40 winners + 10 losers who played it and 20 winners
    + 30 losers who did not: GIH 60/100, played 40/50, held-not-played 20/50; not held 90/200.
    Kept to the end by 5 winners + 20 losers. Item Y: never in the opening hand, played by 7
    winners and 3 losers (drawn later). Item Z: in the opening hand of winners only.
    """
    n = 150
    winners = pd.DataFrame({"won": True, "i": np.arange(n)})
    losers = pd.DataFrame({"won": False, "i": np.arange(n)})
    for frame, (played_held, held_only, kept, y_played) in ((winners, (40, 20, 5, 7)), (losers, (10, 30, 20, 3))):
        i = frame["i"].to_numpy()
        frame["opening_X"] = (i < played_held + held_only).astype(np.int8) * 2  # two copies: counts, not flags
        frame["played_X"] = (i < played_held).astype(np.int8)
        frame["end_X"] = ((i >= 100) & (i < 100 + kept)).astype(np.int8)
        frame["opening_Y"] = np.zeros(n, np.int8)
        frame["played_Y"] = ((i >= 140) & (i < 140 + y_played)).astype(np.int8)
        frame["end_Y"] = np.zeros(n, np.int8)
        frame["opening_Z"] = (i < 30).astype(np.int8) if frame is winners else np.zeros(n, np.int8)
        frame["played_Z"] = np.zeros(n, np.int8)
        frame["end_Z"] = np.zeros(n, np.int8)
        # treasures t1..t5: 50 of 200 holders won; t6: 150 of 200 won
        for k in range(1, 6):
            frame[f"got_t{k}"] = ((i < 50) if frame is winners else np.ones(n, bool)).astype(np.int8)
        frame["got_t6"] = (np.ones(n, bool) if frame is winners else (i < 50)).astype(np.int8)
    rows = pd.concat([winners, losers], ignore_index=True)
    rows["game_id"] = rows.pop("i").astype(np.int64)
    rows["seat"] = np.where(rows["won"], rows["game_id"] % 2, 1 - rows["game_id"] % 2).astype(np.int8)
    rows["bot"] = pd.Categorical(np.where((rows["seat"] + rows["game_id"] // 2) % 2 == 0, "greedy", "cautious"))
    rows["score"] = np.where(rows["won"], 10, 5).astype(np.int16)
    return rows.sort_values(["game_id", "seat"]).reset_index(drop=True)


@pytest.fixture
def handmade(tmp_path):
    return write_dataset(tmp_path / "hand", "chachapoya", 2, two_player_rows())


def row(table, group, item):
    found = table[(table["group"] == group) & (table["item"] == item)]
    assert len(found) == 1, (group, item)
    return found.iloc[0]


def test_win_rates_iwd_and_intervals_on_a_handmade_table(handmade):
    result = card_strength(handmade)
    x = row(result.table, "adventurer", "X")
    assert (x.gih_games, x.gih_wins, x.gih_wr) == (100, 60, pytest.approx(0.6))
    assert (x.played_games, x.played_wins, x.played_wr) == (50, 40, pytest.approx(0.8))
    assert (x.held_not_played_games, x.held_not_played_wins) == (50, 20)
    assert x.held_not_played_wr == pytest.approx(0.4)
    assert (x.not_held_games, x.not_held_wins, x.not_held_wr) == (200, 90, pytest.approx(0.45))
    assert (x.kept_games, x.kept_wins, x.kept_wr) == (25, 5, pytest.approx(0.2))
    assert x.iwd == pytest.approx(0.4)
    assert x.held_delta == pytest.approx(0.15)
    assert x.held_as.startswith("in opening hand")
    for prefix, (wins, games) in {"gih": (60, 100), "played": (40, 50), "held_not_played": (20, 50),
                                  "not_held": (90, 200), "kept": (5, 25)}.items():
        lo, hi = proportion_confint(wins, games, method="wilson")
        assert (x[f"{prefix}_lo"], x[f"{prefix}_hi"]) == (pytest.approx(lo), pytest.approx(hi))
    lo, hi = confint_proportions_2indep(40, 50, 20, 50, method="newcomb", compare="diff")
    assert (x.iwd_lo, x.iwd_hi) == (pytest.approx(lo), pytest.approx(hi))
    # Clopper-Pearson on request
    cp = row(card_strength(handmade, group="adventurer", method="beta").table, "adventurer", "X")
    assert (cp.gih_lo, cp.gih_hi) == tuple(pytest.approx(v) for v in proportion_confint(60, 100, method="beta"))

    # Y: never in the opening hand, played all the same (drawn later): played WR without GIH WR
    y = row(result.table, "adventurer", "Y")
    assert (y.gih_games, y.played_games, y.played_wins) == (0, 10, 7)
    assert np.isnan(y.gih_wr) and np.isnan(y.iwd) and y.played_wr == pytest.approx(0.7)
    # treasures record no play: those rates are missing, not zero
    t1 = row(result.table, "treasure", "t1")
    assert pd.isna(t1.played_games) and np.isnan(t1.played_wr) and np.isnan(t1.iwd)
    assert np.isnan(x.completion_rate)
    assert isinstance(result.figure, Figure) and len(result.figure.axes) == 2


def test_the_table_alone_is_the_same_table_without_a_figure(handmade):
    drawn = card_strength(handmade)
    alone = card_strength(handmade, figure=False)
    assert alone.figure is None and isinstance(drawn.figure, Figure)
    pd.testing.assert_frame_equal(alone.table, drawn.table)


def test_ranks_and_outliers_use_the_group_mean_and_holm(handmade):
    t = card_strength(handmade, group="treasure").table
    assert list(t["item"]) == ["t6", "t1", "t2", "t3", "t4", "t5"]  # ranked by GIH WR
    assert list(t["rank"]) == [1, 2, 2, 2, 2, 2]
    mean = (5 * 0.25 + 0.75) / 6
    assert t["group_mean"].to_numpy() == pytest.approx(np.full(6, mean))
    p = [binomtest(150, 200, mean).pvalue] + [binomtest(50, 200, mean).pvalue] * 5
    assert t["gih_p"].to_numpy() == pytest.approx(p)
    holm = multipletests(p, method="holm")[1]
    assert t["gih_p_adj"].to_numpy() == pytest.approx(holm)
    assert t["gih_z"].iloc[0] == pytest.approx((0.75 - mean) / np.sqrt(mean * (1 - mean) / 200))
    assert t["outlier"].iloc[0] == "high"
    assert list(t["outlier"].iloc[1:]) == ["low" if q < 0.05 else "" for q in holm[1:]]
    assert "Holm" in t.attrs["outlier_test"]
    bh = card_strength(handmade, group="treasure", correction="fdr_bh").table
    assert bh["gih_p_adj"].to_numpy() == pytest.approx(multipletests(p, method="fdr_bh")[1])
    assert list(bh["outlier"]) == ["high"] + ["low"] * 5  # BH (0.016) flags what Holm (0.066) does not
    assert list(t["outlier"]) == ["high"] + [""] * 5
    # too few games: ranked, not tested
    few = card_strength(handmade, group="treasure", min_games=201).table
    assert few["gih_p"].isna().all() and (few["outlier"] == "").all()


def test_logit_matches_a_row_level_fit_and_reports_skips(handmade):
    result = card_strength_logit(handmade, group="adventurer")
    t = result.table
    x = row(t, "adventurer", "X")
    rows = two_player_rows()
    design = pd.DataFrame({
        "const": 1.0,
        "seat_1": (rows["seat"] == 1).astype(float),
        "bot_greedy": (rows["bot"] == "greedy").astype(float),
        "held": (rows["opening_X"] > 0).astype(float),
    })
    fit = sm.Logit(rows["won"].astype(float), design).fit(disp=0)
    assert x.coef == pytest.approx(fit.params["held"], rel=1e-6)
    assert x.se == pytest.approx(fit.bse["held"], rel=1e-5)
    assert x.p_value == pytest.approx(fit.pvalues["held"], rel=1e-4)
    assert x.odds_ratio == pytest.approx(np.exp(fit.params["held"]), rel=1e-6)
    assert x.coef > 0
    assert (x.coef_lo, x.coef_hi) == tuple(pytest.approx(v, rel=1e-5) for v in fit.conf_int().loc["held"])
    assert (x.held_games, x.rows_used, x.covariates) == (100, 300, "seat, bot")
    y = row(t, "adventurer", "Y")
    assert np.isnan(y.coef) and "no variation" in y.note and "nobody" in y.note
    z = row(t, "adventurer", "Z")
    assert np.isnan(z.coef) and "perfect separation" in z.note and "holders won" in z.note
    assert set(t.attrs["skipped"]) == {"adventurer/Y", "adventurer/Z"}
    assert isinstance(result.figure, Figure)


def test_logit_strong_effect_positive_random_effect_not_significant(tmp_path):
    rng = np.random.default_rng(7)
    n_games = 2000
    seat = np.tile([0, 1, 2, 3], n_games).astype(np.int8)
    game_id = np.repeat(np.arange(n_games), 4)
    winner = rng.integers(0, 4, n_games)
    won = seat == np.repeat(winner, 4)
    strong = np.where(won, rng.random(4 * n_games) < 0.8, rng.random(4 * n_games) < 0.2)
    noise = rng.random(4 * n_games) < 0.5
    rows = pd.DataFrame({
        "game_id": game_id, "seat": seat, "bot": pd.Categorical(np.where(seat % 2, "a", "b")), "won": won,
        "got_strong": strong.astype(np.int8), "got_noise": noise.astype(np.int8),
        "start_order": seat,  # identical to seat: dropped from the design, not a singular fit
    })
    ds = write_dataset(tmp_path / "rand", "chachapoya", 4, rows)
    t = card_strength_logit(ds, max_rows=None).table
    s, r = row(t, "treasure", "strong"), row(t, "treasure", "noise")
    assert s.coef > 2.0 and s.p_value < 1e-10 and s.significant
    assert r.p_value > 0.05 and not r.significant and r.or_lo < 1 < r.or_hi
    assert s.covariates == "seat"  # bot follows seat here, start order equals seat: both redundant
    # sampling: whole games, seeded, reported
    a = card_strength_logit(ds, max_rows=2000, seed=3).table
    b = card_strength_logit(ds, max_rows=2000, seed=3).table
    used = a.attrs["rows_used"]
    assert used % 4 == 0 and 1500 < used < 2500 and used == a["rows_used"].iloc[0]
    assert a["coef"].equals(b["coef"])
    assert card_strength_logit(ds, max_rows=2000, seed=4).table.attrs["rows_used"] != used


def test_cuzco_missions_medals_and_played_through_medals(tmp_path):
    n = 100  # 100 four-player games: 400 rows; winner is seat g % 4
    game_id = np.repeat(np.arange(n), 4)
    seat = np.tile(np.arange(4), n)
    won = seat == game_id % 4
    i = np.arange(4 * n)
    widx = np.cumsum(won) - 1   # index among winners (0..99), valid on winner rows
    lidx = np.cumsum(~won) - 1  # index among losers (0..299)
    done = np.where(won, widx < 35, lidx < 15)      # completed: 35 winners + 15 losers
    failed = np.where(won, (widx >= 35) & (widx < 40), (lidx >= 15) & (lidx < 40))  # 5 + 25
    rows = pd.DataFrame({
        "game_id": game_id, "seat": seat.astype(np.int8),
        "bot": pd.Categorical(np.where((game_id // 3 + seat) % 2 == 0, "x", "y")),
        "won": won, "start_order": ((seat + game_id) % 4).astype(np.int8),
        "mission_done_m01": done.astype(np.int8), "mission_failed_m01": failed.astype(np.int8),
        # a god card: gained by rows 0..99, played with an offering by rows 0..19, through a medal by
        # rows 90..119 (so rows 100..119 played it without holding it)
        "card_gained_jump": (i < 100).astype(np.int8),
        "card_played_jump": (i < 20).astype(np.int8),
        "card_medal_jump": ((i >= 90) & (i < 120)).astype(np.int8),
        "medals_gained": np.where(i < 200, 2, 0).astype(np.int8),
    })
    ds = write_dataset(tmp_path / "cz", "cuzco", 4, rows)
    t = card_strength(ds).table
    m = row(t, "mission", "m01")
    assert (m.gih_games, m.gih_wins, m.completed) == (80, 40, 50)
    assert m.completion_rate == pytest.approx(50 / 80)
    wilson = proportion_confint(50, 80, method="wilson")
    assert (m.completion_lo, m.completion_hi) == tuple(pytest.approx(v) for v in wilson)
    assert (m.played_games, m.played_wins, m.held_not_played_games, m.held_not_played_wins) == (50, 35, 30, 5)
    assert m.iwd == pytest.approx(35 / 50 - 5 / 30)
    assert m.played_as == "completed"
    card = row(t, "god card", "jump")
    played = (i < 20) | ((i >= 90) & (i < 120))
    assert card.played_games == played.sum() == 50
    assert card.played_wins == (played & won).sum()
    assert card.held_not_played_games == ((i < 100) & ~played).sum() == 70
    medal = row(t, "inti medal", "medal")
    assert (medal.gih_games, medal.gih_wins) == (200, (won & (i < 200)).sum())
    assert medal.played_games == ((i >= 90) & (i < 120)).sum()
    assert set(t["group"]) == {"mission", "god card", "inti medal"}
    lt = card_strength_logit(ds, max_rows=None).table
    assert set(lt["covariates"]) == {"seat, bot, start_order"}


def test_summary_and_errors(handmade):
    strength = card_strength(handmade)
    s = card_summary(handmade, n=2, strength=strength, min_games=1).table
    treasure = s[s["group"] == "treasure"]
    assert list(treasure["end"]) == ["top", "top", "bottom", "bottom"]
    assert treasure["item"].iloc[0] == "t6"
    adv = s[s["group"] == "adventurer"]
    assert list(adv["item"]) == ["Z", "X"]  # Y was never held: left out; two items, no bottom
    assert list(adv["end"]) == ["top", "top"]
    assert card_summary(handmade, n=1, min_games=1).table["item"].tolist() == ["Z", "X", "t6", "t5"]
    with pytest.raises(UserError, match="no card group 'gods'"):
        card_strength(handmade, group="gods")
    with pytest.raises(UserError, match="unknown interval method"):
        card_strength(handmade, method="exact-ish")
    with pytest.raises(UserError, match="correction"):
        card_strength_logit(handmade, correction="nope")


# ------------------------------------------------------------------ the real small datasets
def _held_count(players, cols):
    return players[cols].astype("int64").sum(axis=1) > 0


@pytest.mark.parametrize("fixture", ["cuzco_small", "chachapoya_small"])
def test_every_declared_item_appears_with_consistent_counts(fixture, request):
    ds = open_dataset(request.getfixturevalue(fixture))
    t = card_strength(ds).table
    columns = ds.player_columns()
    players = ds.players(columns)
    expected = 0
    for g in get_game(ds.game).card_groups:
        items = [c[len(g.held):] for c in columns if c.startswith(g.held)]
        assert items, g.name
        for item in items:
            expected += 1
            r = row(t, g.name, item)
            held_cols = [g.held + item] + ([g.failed + item] if g.failed else [])
            held = _held_count(players, held_cols)
            assert r.gih_games == held.sum()
            assert r.gih_wins == (held & players["won"]).sum()
            assert r.gih_games + r.not_held_games == len(players) == 4 * ds.n_games
            if g.played:
                played = _held_count(players, [p + item for p in g.played])
                assert r.played_games == played.sum()
                assert r.held_not_played_games == (held & ~played).sum()
            if g.failed:
                assert r.completed == (players[g.held + item] > 0).sum()
    if ds.game == "cuzco":
        expected += 1
        medal = row(t, "inti medal", "medal")
        assert medal.gih_games == (ds.players(["medals_gained"])["medals_gained"] > 0).sum()
        assert len(t[t["group"] == "god card"]) == 15 and len(t[t["group"] == "mission"]) == 61
    assert len(t) == expected
    assert t.groupby("group")["rank"].min().eq(1).all()


def test_logit_on_chachapoya_small(chachapoya_small):
    ds = open_dataset(chachapoya_small)
    result = card_strength_logit(ds, group="treasure")
    t = result.table
    assert t.attrs["rows_used"] == 4 * ds.n_games == 8000
    assert len(t) == 7 and set(t["covariates"]) == {"seat, bot"}
    assert t["coef"].notna().all()
    curse = row(t, "treasure", "curse")
    assert curse.coef < 0 and curse.significant  # curses lose games
