"""Whole games through the contract (GAME.simulate, replay): checked mode, the columns, the switches."""
from __future__ import annotations

import pytest

from machu_picchu_helpers import random_game_logged
from sim.core.game import REPLAY_FINAL, check_columns
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.machu_picchu import GAME
from sim.games.machu_picchu import state as S


def _simulate(n, n_games, seed=1, variant=None, checked=True):
    params = GAME.resolve_params(variant)
    names, idx = lineup_indices(["random"] * n)
    return GAME.simulate(params, n, names, seat_bot_matrix(idx, 0, n_games, True), seed, 0, n_games, checked)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_checked_random_games_keep_every_component(n):
    """Checked mode: goods, corn, workers, offering and priest cards, temple stones and moon tiles are
    conserved after every action and night, over 2,000 random games at every player count."""
    res = _simulate(n, 2000)
    assert res.failures == []
    check_columns("machu_picchu", res, 2000, n)
    assert (res.game_columns["end_reason"] > 0).all()
    won = res.player_columns["won"].reshape(-1, n)
    assert won.any(axis=1).all()


def test_the_games_table_records_days_market_and_the_offering_cards():
    """Issue 15's data: days played (n_rounds), market at the end, cards held and kept by id."""
    res = _simulate(4, 50)
    assert set(res.game_columns["n_rounds"]) == {7}
    for good in ("llama", "coca", "pottery", "cloth"):
        count, price = res.game_columns[f"market_{good}"], res.game_columns[f"market_price_{good}"]
        assert count.max() <= 4
        expected = {0: 6, 1: 6, 2: 5, 3: 4, 4: 3}  # empty: 6 from the supply; else the bottom good's number
        assert all(price[i] == expected[count[i]] for i in range(len(count)))
    held = sum(res.player_columns[c] for c in res.player_columns if c.startswith("offering_held_"))
    kept = sum(res.player_columns[c] for c in res.player_columns if c.startswith("offering_kept_"))
    assert (kept == res.player_columns["offering_cards"]).all()
    assert (held >= kept).all()


def test_replay_ends_with_the_batch_rows():
    names, idx = lineup_indices(["random"] * 3)
    res = _simulate(3, 4, seed=9, checked=False)
    for game in range(4):
        row = seat_bot_matrix(idx, game, 1, True)[0]
        lines = GAME.replay(GAME.resolve_params(None), 3, names, row, 9, game)
        finals = [REPLAY_FINAL.search(line) for line in lines]
        scores = [int(m.group(3)) for m in finals if m]
        assert scores == list(res.player_columns["score"][game * 3:(game + 1) * 3])


def test_the_price_nudge_switch():
    """README ambiguity 7: with rules.plaza_price_nudge off no price is nudged."""
    P_on = GAME.resolve_params(None).engine
    P_off = GAME.resolve_params({"rules": {"plaza_price_nudge": False}}).engine
    nudges = {}
    for name, P in (("on", P_on), ("off", P_off)):
        total = 0
        for game in range(20):
            st, log = random_game_logged(P, 4, 2, game)
            total += int((log[:st[S.S_LOG_N], 0] == S.EV_NUDGE).sum())
        nudges[name] = total
    assert nudges["on"] > 0 and nudges["off"] == 0


def test_the_same_seed_plays_the_same_game():
    a = _simulate(4, 20, seed=3)
    b = _simulate(4, 20, seed=3)
    for column in a.player_columns:
        assert (a.player_columns[column] == b.player_columns[column]).all(), column


@pytest.mark.parametrize("variant,reason,column", [
    ({"priest": {kind: {"cloth": 0, "coca": 0, "pottery": 0} for kind in ("sun", "puma", "condor")}},
     "priests_taken", "priests_left"),
    ({"rules": {"summit_space": 6, "granary_space": 2, "stable_space": 4, "summit_draw": 1, "summit_return": 0}},
     "deck_exhausted", "offering_deck_left"),
])
def test_whole_games_end_by_the_priests_and_by_the_deck(variant, reason, column):
    """Game End 1 and 2 in whole checked games: with free priest/virgin cards the heuristics take all
    15; with a 6-space trail they empty the offering deck. Either way the game stops before day 9,
    with nothing left of what ended it."""
    params = GAME.resolve_params(variant)
    names, idx = lineup_indices(["trail-runner-tuned", "temple-priest", "worker-economy-tuned", "gold-hoarder"])
    res = GAME.simulate(params, 4, names, seat_bot_matrix(idx, 0, 200, True), 3, 0, 200, True)
    assert res.failures == []
    ended = res.game_columns["end_reason"] == S.END_REASON_NAMES.index(reason)
    assert ended.mean() > 0.9
    assert (res.game_columns[column][ended] == 0).all()
    assert (res.game_columns["n_rounds"][ended] < 7).any()
    multiplied = res.player_columns["gold_multiplier"].reshape(-1, 4)[ended]
    assert (multiplied == 1).all()  # no gold multipliers without the Spanish


@pytest.mark.parametrize("table,reason", [("priests-free", "priests_taken"), ("trail-half", "deck_exhausted")])
def test_the_what_if_tables_bring_game_end_1_and_2_about_for_the_default_line_up(table, reason):
    """Game End 1 and 2 never happen with the default line-up on the printed numbers (README, "The
    chain"); robust.toml's what-ifs (every card free; the trail halved) make each the usual ending."""
    from sim.core.params import load_variant

    spec = {t.name: t for t in GAME.robustness().tables}
    _, variant = load_variant(spec[table].variant_file())
    names, idx = lineup_indices(GAME.default_bots(4))
    res = GAME.simulate(GAME.resolve_params(variant), 4, names, seat_bot_matrix(idx, 0, 100, True), 3, 0, 100)
    assert res.failures == []
    assert (res.game_columns["end_reason"] == S.END_REASON_NAMES.index(reason)).mean() > 0.9


def test_the_overview_tells_whether_the_multiplier_decides_and_how_priest_kinds_fare(tmp_path):
    """Issue 15's report questions on a small dataset: the share of Spanish-arrival games whose
    winner on points alone loses once the multipliers apply, recounted here from the columns; and a
    win rate for holders and non-holders of each priest/virgin kind."""
    from sim.analysis.io import open_dataset
    from sim.core import runner
    from sim.games.machu_picchu.analysis.overview import multiplier_decides, priest_kinds

    params = GAME.resolve_params(None)
    names, idx = lineup_indices(["temple-priest", "trail-runner", "worker-economy", "gold-hoarder"])
    runner.run(GAME, params, 4, names, idx, True, 60, 5, tmp_path / "run", 1, 1000, progress=False)
    ds = open_dataset(tmp_path / "run")
    players = ds.players(["game_id", "seat", "score", "gold_multiplier", "goods_value", "won"])
    changed = 0
    for _, game in players.groupby("game_id"):
        raw = list(zip(game["score"] // game["gold_multiplier"], game["goods_value"]))
        best = max(range(4), key=lambda i: raw[i])
        changed += not game["won"].iloc[best]
    table = multiplier_decides(ds)
    assert int(table["Spanish-arrival games"][0]) == 60
    assert int(table["winner changed by the multipliers"][0]) == changed
    kinds = priest_kinds(ds)
    assert len(kinds) == 6 and (kinds.groupby("kind")["players"].sum() == 240).all()
