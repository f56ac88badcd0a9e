"""Cuzco dice odds (sim/games/cuzco/analysis/dice.py): exact values by enumeration, intervals equal to
statsmodels' on the same counts, hand-made datasets with known answers, and the session fixtures."""
import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.weightstats import DescrStatsW

from sim.games.cuzco.analysis import dice
from sim.analysis.io import open_dataset
from sim.core.errors import UserError

ACTIONS = ["stone_trail", "rope_bridge", "study", "farming", "exchange", "temple", "headdress", "victory_points"]


# ------------------------------------------------------------------------------ hand-made datasets

def write_dataset(path, players, games, *, variant="pututu", params=None, game="cuzco"):
    """A tiny run directory: players/ and games/ Parquet parts and a complete manifest."""
    (path / "players").mkdir(parents=True)
    (path / "games").mkdir()
    pd.DataFrame(players).to_parquet(path / "players" / "part-00000.parquet", index=False)
    pd.DataFrame(games).to_parquet(path / "games" / "part-00000.parquet", index=False)
    manifest = {"status": "complete", "config": {"game": game, "players": 4, "variant": variant}}
    if params is not None:
        manifest["params"] = params
    (path / "manifest.json").write_text(json.dumps(manifest))
    return open_dataset(path)


# two 4-player games of 6 rounds: 48 rolls
DOUBLES = [3, 2, 1, 0, 6, 0, 2, 2]  # game 0: 6, game 1: 10 -> 16
TRIPLES = [0, 1, 0, 0, 0, 2, 0, 0]  # game 0: 1, game 1: 2 -> 3
GAINED_1 = [3, 2, 1, 0, 5, 0, 2, 2]  # game 1, seat 0 found no +1 tile once -> 15
SPENT_1 = [2, 2, 1, 0, 4, 0, 1, 2]  # 12
SPENT_2 = [0, 1, 0, 0, 0, 1, 0, 0]  # 2
CHANGED = [1, 0, 0, 0, 2, 0, 1, 0]  # 4


def tiny_players(module=True):
    players = {"game_id": [0] * 4 + [1] * 4, "seat": [0, 1, 2, 3] * 2,
               "rolled_doubles": DOUBLES, "rolled_triples": TRIPLES}
    zeros = [0] * 8
    players.update({"pututu_gained_1": GAINED_1 if module else zeros,
                    "pututu_gained_2": TRIPLES if module else zeros,
                    "pututu_spent_1": SPENT_1 if module else zeros,
                    "pututu_spent_2": SPENT_2 if module else zeros,
                    "pututu_changed_action": CHANGED if module else zeros})
    return {k: np.asarray(v, dtype=np.int8) if k != "game_id" else np.asarray(v) for k, v in players.items()}


def tiny_games(module=True):
    games = {"game_id": [0, 1], "n_rounds": np.array([6, 6], dtype=np.int8)}
    for action in ACTIONS:
        games[f"extra_turns_{action}"] = np.zeros(2, dtype=np.int8)
        for pips in range(1, 7):
            games[f"dice_{action}_{pips}"] = np.zeros(2, dtype=np.int8)
    # 72 dice a game: temple 30 ones + 42 exchange sixes; then 70 temple twos + 2 VP sixes
    games["dice_temple_1"] = np.array([30, 0], dtype=np.int8)
    games["dice_exchange_6"] = np.array([42, 0], dtype=np.int8)
    games["dice_temple_2"] = np.array([0, 70], dtype=np.int8)
    games["dice_victory_points_6"] = np.array([0, 2], dtype=np.int8)
    games["extra_turns_temple"] = np.array([1, 0], dtype=np.int8)
    games["pututu_shortfalls"] = np.array([0, 1] if module else [0, 0], dtype=np.int16)
    games["pututu_left_1"] = np.array([10, 7] if module else [0, 0], dtype=np.int16)
    games["pututu_left_2"] = np.array([3, 1] if module else [0, 0], dtype=np.int16)
    return games


PUTUTU_PARAMS = {"rules": {"dice": 3, "rounds": 6}, "pututu": {"enabled": True, "plus_minus_1": 12, "plus_minus_2": 3}}
BASE_PARAMS = {"rules": {"dice": 3, "rounds": 6}, "pututu": {"enabled": False, "plus_minus_1": 12, "plus_minus_2": 3}}


@pytest.fixture
def tiny(tmp_path):
    return write_dataset(tmp_path / "tiny", tiny_players(), tiny_games(), params=PUTUTU_PARAMS)


@pytest.fixture
def tiny_base(tmp_path):
    return write_dataset(tmp_path / "tiny-base", tiny_players(False), tiny_games(False), variant="base",
                         params=BASE_PARAMS)


def row(table, **where):
    mask = np.ones(len(table), dtype=bool)
    for key, value in where.items():
        mask &= (table[key] == value).fillna(False).to_numpy(dtype=bool)
    assert mask.sum() == 1, where
    return table[mask].iloc[0]


def titles(figure):
    found = [ax.get_title() for ax in figure.axes]
    if figure._suptitle is not None:
        found.append(figure._suptitle.get_text())
    return [t for t in found if t]


# ------------------------------------------------------------------------------ exact values

def test_exact_roll_odds_of_three_dice():
    table = dice.exact_roll_odds().table.set_index("outcome")
    assert table.loc["double", "ways"] == 90 and table.loc["double", "outcomes"] == 216
    assert table.loc["double", "probability"] == pytest.approx(15 / 36)
    assert table.loc["triple", "probability"] == pytest.approx(1 / 36)
    assert table.loc["all different", "probability"] == pytest.approx(20 / 36)
    assert table.loc["double", "fraction"] == str(Fraction(15, 36))
    assert table["probability"].sum() == pytest.approx(1.0)


def test_exact_roll_odds_other_dice_counts_and_bad_input():
    two = dice.exact_roll_odds(2).table.set_index("outcome")
    assert two.loc["double", "probability"] == pytest.approx(6 / 36)
    assert two.loc["all different", "probability"] == pytest.approx(30 / 36)
    four = dice.exact_roll_odds(4).table.set_index("outcome")
    assert four.loc["4 of a kind", "ways"] == 6
    assert four.loc["all different", "ways"] == 6 * 5 * 4 * 3
    assert four.loc["triple", "ways"] == 6 * 5 * 4  # face, odd face, position of the odd die
    with pytest.raises(UserError, match="n_dice"):
        dice.exact_roll_odds(0)


@pytest.mark.parametrize("v,k", [(1, 1), (3, 2), (2, 5), (5, 3), (6, 1), (4, 0)])
def test_placement_odds_is_all_k_dice_higher(v, k):
    table = dice.placement_odds().table
    assert row(table, die=v, dice_on_space=k)["probability"] == pytest.approx(((6 - v) / 6) ** k)


def test_placement_odds_table_and_brute_force():
    result = dice.placement_odds(3)
    assert len(result.table) == 6 * 4
    assert row(result.table, die=2, dice_on_space=3)["fraction"] == "8/27"
    # brute force over the 6**2 pairs already on the space: a 3 fits only under two 4+ dice
    fits = sum(1 for a in range(1, 7) for b in range(1, 7) if a > 3 and b > 3)
    assert row(result.table, die=3, dice_on_space=2)["probability"] == pytest.approx(fits / 36)
    assert any("((6 - v) / 6)^k" in t for t in titles(result.figure))
    with pytest.raises(UserError, match="max_dice_on_space"):
        dice.placement_odds(-1)


def test_supply_bound_against_multinomial_enumeration():
    p2, p3 = 15 / 36, 1 / 36
    n = 24
    inside = sum(stats.multinomial.pmf([d1, d2, n - d1 - d2], n, [p2, p3, 1 - p2 - p3])
                 for d1 in range(13) for d2 in range(4))
    assert dice._shortage_without_returns(n, p2, p3, (12, 3)) == pytest.approx(1 - inside)
    # an empty supply runs out as soon as anyone rolls a double or triple
    assert dice._shortage_without_returns(6, p2, p3, (0, 0)) == pytest.approx(1 - (20 / 36) ** 6)


# ------------------------------------------------------------------------------ hand-made datasets

def test_roll_odds_counts_and_intervals(tiny):
    result = dice.roll_odds(tiny)
    table = result.table
    double = row(table, section="per roll", outcome="double")
    assert (double["count"], double["n"]) == (16, 48)
    assert double["exact"] == pytest.approx(15 / 36)
    assert double["simulated"] == pytest.approx(16 / 48)
    lo, hi = proportion_confint(16, 48, alpha=0.05, method="wilson")
    assert (double["ci_low"], double["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert double["p_value"] == pytest.approx(stats.binomtest(16, 48, 15 / 36).pvalue)
    assert row(table, section="per roll", outcome="triple")["count"] == 3
    assert row(table, section="per roll", outcome="all different")["count"] == 48 - 19
    assert row(table, section="per roll", outcome="double or triple")["exact"] == pytest.approx(16 / 36)
    takes = row(table, section="per roll", outcome="takes a tile")
    assert takes["count"] == 15 + 3
    # players qualifying in one round: exact binomial, no simulated value
    k2 = row(table, section="players qualifying per round", k=2)
    assert k2["exact"] == pytest.approx(stats.binom.pmf(2, 4, 16 / 36)) and np.isnan(k2["simulated"])
    # per game: doubles 6 and 10, triples 1 and 2, both 7 and 12
    plus1 = table[table["section"] == "+1 tiles demanded per game"].set_index("k")
    assert plus1["count"].sum() == 2 and plus1.loc[6, "count"] == 1 and plus1.loc[10, "count"] == 1
    assert plus1.loc[10, "exact"] == pytest.approx(stats.binom.pmf(10, 24, 15 / 36))
    lo, hi = proportion_confint(1, 2, alpha=0.05, method="wilson")
    assert (plus1.loc[10, "ci_low"], plus1.loc[10, "ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    plus2 = table[table["section"] == "+2 tiles demanded per game"].set_index("k")
    assert plus2.loc[1, "count"] == 1 and plus2.loc[2, "count"] == 1 and plus2.loc[0, "count"] == 0
    both = table[table["section"] == "tiles demanded per game"].set_index("k")
    assert both.loc[7, "count"] == 1 and both.loc[12, "count"] == 1
    assert both["exact"].sum() == pytest.approx(1.0)
    assert len(titles(result.figure)) >= 4


def test_roll_odds_clopper_pearson_when_asked(tiny):
    double = row(dice.roll_odds(tiny, method="beta").table, section="per roll", outcome="double")
    lo, hi = proportion_confint(16, 48, alpha=0.05, method="beta")
    assert (double["ci_low"], double["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))


def test_placement_observed_counts_shares_and_means(tiny):
    result = dice.placement_odds_observed(tiny)
    table = result.table
    assert list(dict.fromkeys(table["action"])) == ACTIONS
    assert table["count"].sum() == 144
    temple1 = row(table, action="temple", pips=1)
    assert (temple1["count"], temple1["action_dice"]) == (30, 100)
    assert temple1["share"] == pytest.approx(0.3)
    lo, hi = proportion_confint(30, 100, alpha=0.05, method="wilson")
    assert (temple1["ci_low"], temple1["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert temple1["mean_pips"] == pytest.approx(1.7)
    assert temple1["dice_per_game"] == pytest.approx(50)
    lo, hi = DescrStatsW(np.array([30.0, 70.0])).tconfint_mean(alpha=0.05)
    assert (temple1["dice_per_game_ci_low"], temple1["dice_per_game_ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert temple1["extra_turns_per_game"] == pytest.approx(0.5)
    assert row(table, action="exchange", pips=6)["share"] == pytest.approx(1.0)
    assert row(table, action="victory_points", pips=6)["dice_per_game"] == pytest.approx(1.0)
    study = table[table["action"] == "study"]
    assert (study["count"] == 0).all() and study["share"].isna().all()
    assert titles(result.figure)


def test_pututu_effect_on_known_counts(tiny):
    result = dice.pututu_effect(tiny)
    table = result.table
    assert set(table["module"]) == {"on"}
    gained = row(table, metric="+1 tiles gained", unit="per player per game")
    assert gained["value"] == pytest.approx(15 / 8) and gained["count"] == 15 and gained["n"] == 8
    lo, hi = DescrStatsW(np.array(GAINED_1, dtype=float)).tconfint_mean(alpha=0.05)
    assert (gained["ci_low"], gained["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    spent = row(table, metric="+1 tiles spent", unit="share of +1 tiles gained")
    assert (spent["count"], spent["n"]) == (12, 15)
    lo, hi = proportion_confint(12, 15, alpha=0.05, method="wilson")
    assert (spent["ci_low"], spent["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    assert row(table, metric="+2 tiles spent", unit="share of +2 tiles gained")["value"] == pytest.approx(2 / 3)
    changed = row(table, metric="placements a tile made legal", unit="share of dice placed")
    assert (changed["count"], changed["n"]) == (4, 144)
    assert row(table, metric="placements a tile made legal", unit="per player per game")["value"] == pytest.approx(0.5)
    short = row(table, unit="share of games")
    assert (short["count"], short["n"], short["value"]) == (1, 2, 0.5)
    lo, hi = proportion_confint(1, 2, alpha=0.05, method="wilson")
    assert (short["ci_low"], short["ci_high"]) == (pytest.approx(lo), pytest.approx(hi))
    per_roll = row(table, metric="qualifying rolls that got no tile", unit="share of doubles and triples rolled")
    assert (per_roll["count"], per_roll["n"]) == (1, 19)
    assert row(table, metric="+1 tiles left in the supply at the end")["value"] == pytest.approx(8.5)
    bound = row(table, metric="supply would run out if no tile were ever returned")["value"]
    assert bound == pytest.approx(dice._shortage_without_returns(24, 15 / 36, 1 / 36, (12, 3)))
    assert 0.05 < bound < 0.5
    assert "Pututu" in " ".join(titles(result.figure))


def test_pututu_effect_says_module_off(tiny_base):
    result = dice.pututu_effect(tiny_base)
    table = result.table
    assert set(table["module"]) == {"off"}
    assert row(table, metric="doubles rolled (would take +1 tiles)")["value"] == pytest.approx(16 / 8)
    assert not table["metric"].str.contains("gained").any()
    assert any("module off" in t for t in titles(result.figure))
    # no "takes a tile" row without the module
    assert "takes a tile" not in set(dice.roll_odds(tiny_base).table["outcome"])


def test_module_read_from_data_when_the_manifest_has_no_params(tmp_path):
    on = write_dataset(tmp_path / "on", tiny_players(), tiny_games())
    off = write_dataset(tmp_path / "off", tiny_players(False), tiny_games(False), variant="base")
    assert set(dice.pututu_effect(on).table["module"]) == {"on"}
    assert set(dice.pututu_effect(off).table["module"]) == {"off"}


def test_non_cuzco_dataset_is_a_one_line_error(tmp_path):
    ds = write_dataset(tmp_path / "other", {"game_id": [0, 0], "seat": [0, 1], "won": [True, False]},
                       {"game_id": [0], "n_rounds": [5]}, variant="base", game="chachapoya")
    with pytest.raises(UserError, match="no column 'rolled_doubles'"):
        dice.roll_odds(ds)
    with pytest.raises(UserError, match="no dice_<action>_<pips> columns"):
        dice.placement_odds_observed(ds)
    with pytest.raises(UserError, match="chachapoya"):
        dice.pututu_effect(ds)


# ------------------------------------------------------------------------------ real datasets

def test_fixtures_roll_odds_near_exact(cuzco_small, cuzco_small_pututu):
    for path in (cuzco_small, cuzco_small_pututu):
        ds = open_dataset(path)
        result = dice.roll_odds(ds)
        table = result.table
        double = row(table, section="per roll", outcome="double")
        assert double["n"] == 400 * 4 * 6
        assert abs(double["simulated"] - 15 / 36) < 0.03
        assert abs(row(table, section="per roll", outcome="triple")["simulated"] - 1 / 36) < 0.01
        assert double["ci_low"] < double["simulated"] < double["ci_high"]
        assert table[table["section"] == "+1 tiles demanded per game"]["count"].sum() == 400
        assert any("exact odds" in t for t in titles(result.figure))


def test_fixtures_placement_and_pututu(cuzco_small, cuzco_small_pututu):
    base, pututu = open_dataset(cuzco_small), open_dataset(cuzco_small_pututu)
    for ds in (base, pututu):
        placed = dice.placement_odds_observed(ds)
        # every die rolled is placed: 4 players x 3 dice x 6 rounds
        assert placed.table["count"].sum() == 72 * ds.n_games
        assert set(placed.table["action"]) == set(ACTIONS)
        assert placed.table.drop_duplicates("action")["dice_per_game"].sum() == pytest.approx(72)
        assert titles(placed.figure)
    effect_off = dice.pututu_effect(base)
    assert set(effect_off.table["module"]) == {"off"}
    effect = dice.pututu_effect(pututu)
    table = effect.table
    assert set(table["module"]) == {"on"} and len(table) > 5
    # every double or triple either took a tile or is counted as a shortfall
    rolls = dice.roll_odds(pututu).table
    took = row(rolls, section="per roll", outcome="takes a tile")["count"]
    qualified = row(rolls, section="per roll", outcome="double or triple")["count"]
    no_tile = row(table, metric="qualifying rolls that got no tile", unit="per game")["count"]
    assert took + no_tile == qualified
    changed = row(table, metric="placements a tile made legal", unit="share of dice placed")
    assert 0 < changed["value"] < 0.5 and changed["n"] == 72 * 400
    assert any("Pututu" in t for t in titles(effect.figure))
