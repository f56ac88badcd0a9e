"""`sim search-map` (sim/studies/search_map.py) and the counters it reads: each game's search bot counts
its searched decisions by kind, how often it left the heuristic's first choice and the rollout value
it gained (sim.core.search.record_choice)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.core import registry
from sim.core.search import GAP_SCALE, STAT_WORDS, pick_candidate, record_choice, search_choice_columns
from sim.studies.search_map import ratio_ci, search_kinds, search_map_table


def test_a_decision_is_counted_and_a_leave_adds_the_kept_candidates_mean_gain():
    st = np.zeros(2 + 2 * STAT_WORDS, np.int64)
    value = np.array([4.0, 6.0, 5.0])  # sums over 4 rollouts: means 1.0, 1.5, 1.25
    record_choice(st, 2, 0, value, 4, 1)
    record_choice(st, 2, 0, value, 4, 0)
    record_choice(st, 2, 1, value, 4, 2)
    assert st[2:].tolist() == [2, 1, int(0.5 * GAP_SCALE), 1, 1, int(0.25 * GAP_SCALE)]
    assert st[:2].tolist() == [0, 0]


def test_the_search_leaves_its_first_choice_only_for_a_clearly_better_one():
    """pick_candidate: with confidence 0 any better mean is kept; with a high confidence a noisy
    edge is not (so record_choice counts no leave)."""
    value = np.array([10.0, 11.0])
    spread = np.array([0.0, 10 * 4.0])  # paired differences of +-2 around a mean of +0.1 over 10 rollouts
    assert pick_candidate(value, spread, 2, 10, 0.0) == 1
    assert pick_candidate(value, spread, 2, 10, 3.0) == 0


def test_columns_are_named_by_kind_and_read_back_as_kinds():
    columns = search_choice_columns(100, ("bid", "offer"))
    assert [(name, field) for name, field, _ in columns] == [
        ("search_bid_searched", 100), ("search_bid_left", 101), ("search_bid_gap", 102),
        ("search_offer_searched", 103), ("search_offer_left", 104), ("search_offer_gap", 105)]
    assert search_kinds([name for name, _, _ in columns] + ["score"]) == ["bid", "offer"]


def test_ratio_interval_is_the_delta_method_over_player_games():
    num = np.array([1.0, 3.0, 0.0, 2.0])
    den = np.array([2.0, 4.0, 2.0, 2.0])
    ratio, low, high = ratio_ci(num, den)
    assert ratio == pytest.approx(0.6)
    resid = num - 0.6 * den
    se = np.sqrt((resid ** 2).sum() * 4 / 3) / den.sum()
    assert (low, high) == pytest.approx((0.6 - 1.959964 * se, 0.6 + 1.959964 * se), rel=1e-6)


def test_the_map_ranks_kinds_by_their_share_of_the_gain():
    players = pd.DataFrame({
        "search_bid_searched": [10, 10], "search_bid_left": [2, 4], "search_bid_gap": [1_000_000, 2_000_000],
        "search_take_searched": [5, 5], "search_take_left": [5, 5], "search_take_gap": [5_000_000, 4_000_000],
        "search_offer_searched": [0, 0], "search_offer_left": [0, 0], "search_offer_gap": [0, 0],
    })
    table = search_map_table(players)
    assert table["kind"].tolist() == ["take", "bid"]  # offer never searched: no row
    take, bid = table.iloc[0], table.iloc[1]
    assert (take.searched, take.left, take.left_rate) == (10, 10, 1.0)
    assert take.gap_when_left == pytest.approx(0.9) and take.share_of_value == pytest.approx(0.75)
    assert (bid.searched, bid.left, bid.left_rate) == (20, 6, pytest.approx(0.3))
    assert bid.gap_when_left == pytest.approx(0.5) and bid.gap_per_decision == pytest.approx(0.15)
    assert bid.share_of_decisions == pytest.approx(20 / 30)


SEARCH_LINEUPS = {
    "cuzco": ["search", "balanced-tuned", "search", "temple-tuned"],
    "chachapoya": ["search", "balanced", "search", "greedy"],
    "machu_picchu": ["search", "trail-runner", "search", "gold-hoarder"],
    "tahuantinsuyu": ["search", "builder", "search", "conqueror"],
}


@pytest.mark.parametrize("name", sorted(SEARCH_LINEUPS))
def test_every_game_counts_only_its_search_seats_decisions(name):
    """Two games with two search seats: the search seats' decisions are counted (leaves never more
    than decisions, a gain only with a leave and never negative: the search leaves only for a
    better mean), the heuristic seats' counters stay 0."""
    game = registry.get_game(name)
    bots = SEARCH_LINEUPS[name]
    names = list(dict.fromkeys(bots))
    seats = np.array([[names.index(b) for b in bots]] * 2, np.int8)
    result = game.simulate(game.resolve_params(None), 4, names, seats, 11, 0, 2)
    assert result.failures == []
    cols = result.player_columns
    kinds = search_kinds(cols)
    assert kinds
    searched = np.sum([cols[f"search_{k}_searched"] for k in kinds], axis=0).reshape(2, 4)
    assert (searched[:, [0, 2]] > 0).all() and (searched[:, [1, 3]] == 0).all()
    for k in kinds:
        s, left, gap = (cols[f"search_{k}_{x}"].astype(np.int64) for x in ("searched", "left", "gap"))
        assert (left <= s).all() and (gap >= 0).all() and (gap[left == 0] == 0).all()


def test_machu_picchu_counts_each_district_under_what_its_action_does():
    from sim.games.machu_picchu.state import DISTRICT_NAMES, SEARCH_KIND_NAMES, SEARCH_KIND_OF_DISTRICT

    assert len(SEARCH_KIND_OF_DISTRICT) == len(DISTRICT_NAMES)
    kind_of = {d: SEARCH_KIND_NAMES[k] for d, k in zip(DISTRICT_NAMES, SEARCH_KIND_OF_DISTRICT)}
    assert kind_of["watchmans_hut"] == kind_of["royal_palace"] == "hire_worker"
    assert kind_of["house_of_priests"] == kind_of["house_of_virgins"] == "buy_card"
    assert {kind_of[t] for t in ("sun_temple", "puma_temple", "condor_temple")} == {"llama_temple"}
    assert kind_of["corn_terraces"] == "production" and kind_of["sun_clock"] == "sun_clock"


def test_tahuantinsuyu_kinds_are_its_actions_in_code_order():
    from sim.games.tahuantinsuyu import state as S

    for code, kind in ((S.ACT_END, "end_turn"), (S.ACT_ROADS, "roads"), (S.ACT_CONQUER, "conquer"),
                       (S.ACT_PILGRIMAGE, "pilgrimage"), (S.ACT_RAPID, "rapid_expansion")):
        assert S.SEARCH_KIND_NAMES[code] == kind


@pytest.mark.parametrize("argv, message", [
    (["search-map", "machu_picchu", "--bot", "temple-priest-chain-tuned"], "not a search bot"),
    (["search-map", "machu_picchu", "--bot", "nobody"], "unknown bot 'nobody'"),
    (["search-map", "machu_picchu", "--games", "6"], "multiple of the player count"),
    (["search-map", "nogame"], "unknown game"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    from sim.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv + ["--out", str(tmp_path / "x"), "--no-progress"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and not (tmp_path / "x" / "players").exists()
