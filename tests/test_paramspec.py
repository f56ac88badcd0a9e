"""Parameters declared once (sim/core/paramspec.py) and the one bots.toml reader (sim/core/bots_file.py).

The Cuzco part pins the rules array to the layout and packing it had before the declarations
(a frozen copy of the old packing code, with its literal indices), and the errors to their wording.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

from sim.core import registry
from sim.core.bots_file import BotsSchema, read_bots, read_lineup
from sim.core.errors import UserError
from sim.core.params import resolve_variant_file, strip_provenance
from sim.core.paramspec import (
    Bool, Choice, Const, Float, Int, IntList, Ints, LengthOf, PerPlayerCount, Records, RulesLayout, check_all,
)
from sim.games.cuzco import data as cuzco_data
from sim.games.cuzco import state as S
from sim.games.cuzco.weights import N_HEURISTIC_WEIGHTS, W_SEARCH_CANDIDATES, W_SEARCH_ROLLOUTS

CUZCO = registry.get_game("cuzco")


# ------------------------------------------------------------------ the declarations
def _layout():
    rules = RulesLayout()
    slots = dict(
        rounds=rules.add(Int("rules.rounds", 1, 6)),
        fast=rules.add(Bool("rules.fast")),
        draw=rules.add(Const(3)),
        cost=rules.add(Ints("cost", ("a", "b"), 1, 6)),
        seats=rules.add(IntList("rules.seats", 3, -5, 5)),
        track_len=rules.add(LengthOf("rules.track")),
        deal=rules.add(PerPlayerCount("setup.deal", 4, 0, 9)),
        track=rules.add(IntList("rules.track", (1, 5), 0, 9, unit="spaces")),
    )
    return rules, slots


PARAMS = {"rules": {"rounds": 5, "fast": True, "seats": [-1, 0, 4], "track": [7, 8]},
          "cost": {"a": 2, "b": 6, "source": {"a": "printed"}}, "setup": {"deal": {"2": 1, "4": 9}}}


def test_each_declaration_takes_the_next_slots_and_packs_there():
    rules, slots = _layout()
    assert slots == dict(rounds=0, fast=1, draw=2, cost=3, seats=5, track_len=8, deal=9, track=14)
    assert rules.size == 19
    assert rules.keys() == ["rules.rounds", "rules.fast", "cost.a", "cost.b", "rules.seats", "setup.deal",
                            "rules.track"]
    rules.check(PARAMS, "v")
    packed = rules.pack(PARAMS)
    assert packed.dtype == np.int32
    assert packed.tolist() == [5, 1, 3, 2, 6, -1, 0, 4, 2, 0, 0, 1, 0, 9, 7, 8, 0, 0, 0]
    assert PerPlayerCount("setup.deal", 4, 0, 9).player_counts(PARAMS) == (2, 4)


def test_a_key_is_declared_once():
    rules = RulesLayout()
    rules.add(Int("rules.rounds", 1, 6))
    rules.add(LengthOf("rules.rounds"))  # a slot derived from a key, not a second declaration
    with pytest.raises(ValueError, match="declared twice"):
        rules.add(Int("rules.rounds", 1, 7))


@pytest.mark.parametrize("path, value, message", [
    (("rules", "rounds"), 7, "v: rules.rounds must be a whole number from 1 to 6 (got 7)"),
    (("rules", "rounds"), True, "v: rules.rounds must be a whole number from 1 to 6 (got True)"),
    (("rules", "fast"), 1, "v: rules.fast must be true or false"),
    (("cost", "b"), 0, "v: cost.b must be a whole number from 1 to 6 (got 0)"),
    (("rules", "seats"), 3, "v: rules.seats must be a list"),
    (("rules", "seats"), [1, 2], "v: rules.seats must list exactly 3 entries"),
    (("rules", "seats"), [1, 2, 6], "v: rules.seats entries must be whole numbers from -5 to 5 (got 6)"),
    (("rules", "track"), [], "v: rules.track must list 1 to 5 spaces"),
    (("rules", "track"), [1.5], "v: rules.track entries must be whole numbers from 0 to 9 (got 1.5)"),
    (("setup", "deal"), {"5": 1}, "v: setup.deal.5 must name a player count from 2 to 4"),
    (("setup", "deal"), {"x y": 1}, 'v: setup.deal."x y" must name a player count from 2 to 4'),
    (("setup", "deal"), {"3": 10}, "v: setup.deal.3 must be a whole number from 0 to 9 (got 10)"),
])
def test_errors_name_the_source_and_the_key(path, value, message):
    rules, _ = _layout()
    params = copy.deepcopy(PARAMS)
    params[path[0]][path[1]] = value
    with pytest.raises(UserError) as info:
        rules.check(params, "v")
    assert str(info.value) == message


def test_standalone_declarations():
    Choice("roads.kind", ("trail", "bridge")).check_value("bridge", "v")
    with pytest.raises(UserError, match=r"^v: roads.kind must be one of trail, bridge \(got 'rope'\)$"):
        Choice("roads.kind", ("trail", "bridge")).check_value("rope", "v")
    Float("margin", 0.0, 1.0).check_value(1, "v")
    for bad in (1.5, float("nan"), True, "0.5"):
        with pytest.raises(UserError, match=r"^v: margin must be a number from 0.0 to 1.0 \(got "):
            Float("margin", 0.0, 1.0).check_value(bad, "v")
    check_all(PARAMS, [Int("rules.rounds", 1, 6), IntList("rules.track", 2, 0, 9)], "v")
    with pytest.raises(UserError, match="rules.track must list exactly 3 entries"):
        check_all(PARAMS, [IntList("rules.track", 3, 0, 9)], "v")


def test_records_check_and_pack_a_table_of_named_rows():
    table = Records("goods", ((2, Int("vp", 0, 9)), (0, Int("count", 0, 30)), (1, Choice("kind", ("a", "b")))), 3)
    params = {"goods": {"soup": {"count": 7, "vp": 1, "kind": "b"}, "jar": {"count": 2, "vp": 9, "kind": "a"},
                        "source": {"count": "printed"}}}
    table.check(params, "v")
    assert table.pack(params).tolist() == [[7, 1, 1], [2, 0, 9]]
    fixed = Records("goods", table.fields, 3, rows=("jar", "soup"))
    assert fixed.pack(params).tolist() == [[2, 0, 9], [7, 1, 1]]
    params["goods"]["jar"]["vp"] = 10
    with pytest.raises(UserError, match=r"^v: goods.jar.vp must be a whole number from 0 to 9 \(got 10\)$"):
        table.check(params, "v")
    del params["goods"]["jar"]
    with pytest.raises(UserError, match="^v: goods must define jar, soup$"):
        fixed.check(params, "v")


# ------------------------------------------------------------------ Cuzco: the rules array is unchanged
# The layout and packing of sim/games/cuzco/data.py before the declarations, frozen.
OLD_SLOTS = dict(
    R_ROUNDS=0, R_DICE=1, R_PRIESTS=2, R_QUIPUS=3, R_MASK_SPACES=4, R_FEATHER_CAP=5, R_VP_SPACE=6, R_MISSION_VP=7,
    R_MISSION_VP_REDUCED=8, R_MEDAL_END_VP=9, R_BLESS_CARD=10, R_BLESS_STATUS=11, R_PLENTY_FOOD=12,
    R_PLENTY_STATUS=13, R_ACH_FEATHERS=14, R_ACH_CIRCLETS=15, R_ACH_MISSIONS=16, R_ACH_QUIPUS=17,
    R_ACH_PEOPLE=18, R_ACH_GOODS=19, R_START_OFFERINGS=20, R_START_MEDALS=21, R_TEMPLE_MEDALS=22,
    R_PALACE_EXTRA=23, R_GOLDEN_PER_PLAYER=24, R_FEATHERS_PER_COLOUR=25, R_DISPLAY_TILES=26,
    R_SMALL_MARKET_ROW=27, R_PUTUTU=28, R_PUTUTU1=29, R_PUTUTU2=30, R_STATUS_LEN=31,
    R_OFFERING_SUPPLY=32, R_FOOD_SUPPLY=33, R_EXCHANGE=34, R_HEADDRESS_VP=41, R_PRIEST_VP=47, R_CIRCLET_VP=53,
    R_START_VP=59, R_GOD_DEAL=63, R_STATUS_VP=68, N_RULES=108,
)  # issue 37: slot 32 (gods.copies, every card's) left for the card table, gods.cards.NAME.copies
OLD_EXCHANGE_NAMES = ("status", "food", "vp", "offering", "god_card", "feather", "quipu_to_reserve")


def old_rules(p):
    """Cuzco's engine_arrays rules packing as it was written by hand (indices from OLD_SLOTS)."""
    R = OLD_SLOTS
    rules = np.zeros(R["N_RULES"], np.int32)
    s, r = p["setup"], p["rules"]
    for slot, value in (
        ("R_ROUNDS", r["rounds"]), ("R_DICE", r["dice"]), ("R_PRIESTS", r["priests"]), ("R_QUIPUS", r["quipus"]),
        ("R_MASK_SPACES", r["mask_spaces"]), ("R_FEATHER_CAP", r["feather_cap_per_colour"]),
        ("R_VP_SPACE", r["vp_space"]), ("R_MISSION_VP", r["mission_vp"]),
        ("R_MISSION_VP_REDUCED", r["mission_vp_reduced"]), ("R_MEDAL_END_VP", r["medal_end_vp"]),
        ("R_BLESS_CARD", r["fire_blessing_card_or_offering"]), ("R_BLESS_STATUS", r["fire_blessing_status_or_food"]),
        ("R_PLENTY_FOOD", r["viracocha_blessing_food"]), ("R_PLENTY_STATUS", r["viracocha_blessing_status"]),
        ("R_ACH_FEATHERS", r["achievement_feathers_vp"]), ("R_ACH_CIRCLETS", r["achievement_circlets_vp"]),
        ("R_ACH_MISSIONS", r["achievement_missions_vp"]), ("R_ACH_QUIPUS", r["achievement_quipus_vp"]),
        ("R_ACH_PEOPLE", r["achievement_people_vp"]), ("R_ACH_GOODS", r["achievement_goods_vp"]),
        ("R_START_OFFERINGS", s["start_offerings"]), ("R_START_MEDALS", s["start_medals"]),
        ("R_TEMPLE_MEDALS", s["temple_medals"]), ("R_PALACE_EXTRA", s["palace_extra"]),
        ("R_GOLDEN_PER_PLAYER", s["golden_missions_per_player"]),
        ("R_FEATHERS_PER_COLOUR", s["feathers_per_colour_per_player"]), ("R_DISPLAY_TILES", s["display_tiles"]),
        ("R_SMALL_MARKET_ROW", s["small_game_market_row"]), ("R_OFFERING_SUPPLY", s["offerings"]),
        ("R_FOOD_SUPPLY", s["food"]), ("R_PUTUTU", int(p["pututu"]["enabled"])),
        ("R_PUTUTU1", p["pututu"]["plus_minus_1"]), ("R_PUTUTU2", p["pututu"]["plus_minus_2"]),
        ("R_STATUS_LEN", len(r["status_track_vp"])),
    ):
        rules[R[slot]] = value
    for i, name in enumerate(OLD_EXCHANGE_NAMES):
        rules[R["R_EXCHANGE"] + i] = p["exchange"][name]
    for i in range(6):
        rules[R["R_HEADDRESS_VP"] + i] = r["headdress_vp_by_round"][i]
        rules[R["R_PRIEST_VP"] + i] = r["priest_vp_by_round"][i]
    for i in range(6):
        rules[R["R_CIRCLET_VP"] + i] = r["circlet_vp"][i]
    for i in range(4):
        rules[R["R_START_VP"] + i] = s["start_vp_by_order_token"][i]
    for players, k in s["god_deal_per_pile"].items():
        rules[R["R_GOD_DEAL"] + int(players)] = k
    for i, vp in enumerate(r["status_track_vp"]):
        rules[R["R_STATUS_VP"] + i] = vp
    return rules


def test_cuzco_rules_layout_is_the_old_one():
    assert {name: getattr(S, name) for name in OLD_SLOTS if name != "N_RULES"} == \
        {name: slot for name, slot in OLD_SLOTS.items() if name != "N_RULES"}
    assert S.EXCHANGE_NAMES == OLD_EXCHANGE_NAMES


VARIANTS = [
    None,
    {"rules": {"status_track_vp": [0, 2, 4, 6, 9], "headdress_vp_by_round": [12, 12, 8, 8, 5, -5]}},
    {"setup": {"god_deal_per_pile": {"2": 2, "3": 2, "4": 3}, "start_vp_by_order_token": [-3, 0, 5, 100]}},
    {"exchange": {"status": 6, "quipu_to_reserve": 1}, "gods": {"cards": {"jump": {"copies": 1}}}, "pututu": {"enabled": True}},
    {"rules": {"status_track_vp": list(range(-20, 20)), "rounds": 1, "circlet_vp": [9, 8, 7, 6, 5, -100]}},
]


# Rules added since the pinned layout go after it (issue 14: setup.deal_feather_pieces).
NEW_SLOTS = {"R_DEAL_PIECES": ("setup", "deal_feather_pieces")}


@pytest.mark.parametrize("variant", VARIANTS)
def test_cuzco_rules_array_is_byte_identical_to_the_old_packing(variant):
    params = CUZCO.resolve_params(variant, "v")
    old = OLD_SLOTS["N_RULES"]
    rules = params.engine[:old]  # the rules lead the flat parameter array
    expected = old_rules(params.resolved)
    assert rules.dtype == expected.dtype and rules.shape == expected.shape
    assert rules.tobytes() == expected.tobytes()
    assert S.N_RULES == old + len(NEW_SLOTS)
    for name, (section, key) in NEW_SLOTS.items():
        assert getattr(S, name) >= old and params.engine[getattr(S, name)] == int(params.resolved[section][key])


def test_cuzco_pututu_variant_file_packs_as_before():
    params = resolve_variant_file(CUZCO, "variants/cuzco-pututu.toml")
    assert params.engine[:OLD_SLOTS["N_RULES"]].tobytes() == old_rules(params.resolved).tobytes()
    assert params.engine[S.R_PUTUTU] == 1


def test_every_cuzco_rule_parameter_is_declared():
    """Every leaf of [setup], [rules], [exchange] and [pututu] goes through a
    declaration of the rules array (the tables of components keep their own packing)."""
    defaults = strip_provenance(cuzco_data.default_components())
    leaves = [f"{table}.{key}" for table in ("setup", "rules", "exchange", "pututu") for key in defaults[table]]
    assert sorted(S.RULES.keys()) == sorted(leaves)


@pytest.mark.parametrize("variant, message", [
    ({"rules": {"rounds": 7}}, "rules.rounds must be a whole number from 1 to 6 (got 7)"),
    ({"rules": {"headdress_vp_by_round": [10, 10, 7]}}, "rules.headdress_vp_by_round must list exactly 6 entries"),
    ({"rules": {"status_track_vp": list(range(41))}}, "rules.status_track_vp must list 1 to 40 spaces"),
    ({"rules": {"status_track_vp": [0, 101]}},
     "rules.status_track_vp entries must be whole numbers from -100 to 100 (got 101)"),
    ({"rules": {"quipus": 11, "mask_spaces": 10}}, "rules.quipus cannot exceed rules.mask_spaces"),
    ({"setup": {"god_deal_per_pile": {"4": 0}}}, "setup.god_deal_per_pile.4 deals 0 cards, fewer than 2 per player"),
    ({"setup": {"god_deal_per_pile": {"3": 13}}}, "setup.god_deal_per_pile.3 must be a whole number from 0 to 12 (got 13)"),
    ({"setup": {"start_offerings": 10}}, "setup.offerings cannot cover the starting offerings"),
    ({"exchange": {"vp": 0}}, "exchange.vp must be a whole number from 1 to 6 (got 0)"),
    ({"gods": {"cards": {"jump": {"copies": 9}}}}, "gods.cards.jump.copies must be a whole number from 0 to 8 (got 9)"),
    ({"goods": {"soup": {"vp": 101}}}, "goods.soup.vp must be a whole number from -100 to 100 (got 101)"),
    ({"goods": {"soup": {"count": 30}}}, "goods holds 53 goods; the market has 30 spaces"),
    ({"villages": {"vp": [1] * 11 + [101]}}, "villages.vp entries must be whole numbers from 0 to 100 (got 101)"),
    ({"people": {"circlet": [3, 6, 6]}}, "people.circlet must list exactly 4 entries"),
    ({"roads": {"cuzco_arms": [["rope", 2]] * 6}}, "roads.cuzco_arms must be one of trail, bridge (got 'rope')"),
])
def test_cuzco_errors_keep_their_wording(variant, message):
    with pytest.raises(UserError) as info:
        CUZCO.resolve_params(variant, "v")
    assert str(info.value) == f"variant v: {message}"


def test_a_bool_declaration_refuses_a_number():
    params = copy.deepcopy(CUZCO.resolve_params(None).resolved)
    params["pututu"]["enabled"] = 1  # the merge refuses this in a variant; a components.toml could hold it
    with pytest.raises(UserError, match=r"^components: pututu.enabled must be true or false$"):
        cuzco_data.validate(params, "components")


# ------------------------------------------------------------------ one bots.toml reader
SCHEMA = BotsSchema(kinds=("random", "heuristic", "search"), weights=("gain", "card_a", "card_b"),
                    groups={"cards": "card_"}, budget=(Int("rollouts", 0, 100), Float("margin", 0.0, 1.0)))
BOTS_TOML = """
[lineup]
default = ["plain", "eager"]
[defaults]
gain = 1.0
[defaults.cards]
a = 0.5
b = 0.25
[search]
rollouts = 8
margin = 0.1
[bots.plain]
kind = "heuristic"
description = "the defaults"
[bots.eager]
kind = "heuristic"
description = "more gain"
[bots.eager.weights]
gain = 2.0
card_b = 3.0
[bots.eager.weights.cards]
a = 4.0
[bots.deep]
kind = "search"
description = "searches"
policy = ["eager-tuned", "eager"]
rollouts = 50
"""


def _bots(tmp_path, text=BOTS_TOML, tuned=None):
    path = tmp_path / "bots.toml"
    path.write_text(text)
    tuned_path = tmp_path / "bots.tuned.toml"
    if tuned is not None:
        tuned_path.write_text(tuned)
    return read_bots(path, tuned_path, SCHEMA)


def test_the_convention(tmp_path):
    bots = _bots(tmp_path)
    assert list(bots.entries) == ["plain", "eager", "deep"]
    assert bots.entries["plain"].weights == {"gain": 1.0, "card_a": 0.5, "card_b": 0.25}
    assert bots.entries["eager"].weights == {"gain": 2.0, "card_a": 4.0, "card_b": 3.0}
    assert bots.entries["eager"].budget == bots.default_budget == {"rollouts": 8, "margin": 0.1}
    deep = bots.entries["deep"]  # no eager-tuned: the next policy of its list
    assert deep.weights == bots.entries["eager"].weights and deep.budget == {"rollouts": 50, "margin": 0.1}
    assert bots.budget("a tuning candidate") == bots.default_budget
    specs = bots.specs(SCHEMA, budget_names=("rollouts",))
    assert specs["deep"][1] == 2 and specs["deep"][2].tolist() == [2.0, 4.0, 3.0, 50.0]
    assert read_lineup(tmp_path / "bots.toml") == ["plain", "eager"]


def test_tuned_bots_merge_over_the_file_and_policies_see_them(tmp_path):
    tuned = ('[bots.eager-tuned]\nkind = "heuristic"\ndescription = "tuned"\n[bots.eager-tuned.weights]\ncard_a = 9.0\n'
             '[bots.eager-tuned.provenance]\npool = ["plain"]\n'
             '[bots.plain]\nkind = "heuristic"\ndescription = "edited"\n')
    bots = _bots(tmp_path, tuned=tuned)
    assert list(bots.entries) == ["plain", "eager", "deep", "eager-tuned"]
    assert bots.entries["plain"].description == "edited"
    assert bots.entries["eager-tuned"].weights == {"gain": 1.0, "card_a": 9.0, "card_b": 0.25}
    assert bots.entries["deep"].weights == bots.entries["eager-tuned"].weights
    assert bots.entries["deep"].budget["rollouts"] == 50


@pytest.mark.parametrize("change, message", [
    (("rollouts = 50", "rollouts = 500"), "bot 'deep': rollouts must be a whole number from 0 to 100 (got 500)"),
    (("margin = 0.1", "margin = 2"), "bots.toml [search]: margin must be a number from 0.0 to 1.0 (got 2)"),
    (("margin = 0.1", ""), "bots.toml [search] lacks margin"),
    (("margin = 0.1", "margin = 0.1\ndepth = 3"), "bots.toml [search]: unknown setting 'depth'"),
    (('description = "more gain"', 'description = "more gain"\nrollouts = 3'),
     "bot 'eager': only a search bot sets rollouts"),
    (("gain = 2.0", "gian = 2.0"), "bot 'eager': unknown weight 'gian'"),
    (("gain = 2.0", 'gain = "x"'), "bot 'eager': weight 'gain' must be a finite number"),
    (("b = 0.25", ""), "bots.toml [defaults] lacks card_b"),
    (('kind = "search"', 'kind = "clever"'), "bot 'deep': kind must be one of random, heuristic, search"),
    (('policy = ["eager-tuned", "eager"]', 'policy = "nobody"'), "bot 'deep' has policy 'nobody', which names no other bot"),
    (('rollouts = 50', 'rollouts = 50\n[bots.deep.weights]\ngain = 1.0'), "bot 'deep' takes its weights from its policy"),
    (('[bots.plain]', '[bots.plain]\nstyle = 1'), "bot 'plain': unknown key 'style'"),
    (("[lineup]", "[lineups]"), "unexpected top-level key 'lineups'"),
])
def test_a_malformed_bots_file_is_one_line_naming_the_bot_and_key(tmp_path, change, message):
    old, new = change
    assert old in BOTS_TOML
    with pytest.raises(UserError) as info:
        _bots(tmp_path, BOTS_TOML.replace(old, new, 1))
    assert message in str(info.value) and "\n" not in str(info.value)
    assert str(tmp_path / "bots.toml") in str(info.value)


def test_cuzco_bots_end_with_their_search_budget():
    """Cuzco's vectors: heuristic weights, then the budget ([search], or the bot's own for the kinds
    that own one: the search bot, and the pruned kind's `candidates`)."""
    bots = CUZCO.bots()
    raw = cuzco_data.load_toml(cuzco_data.BOTS_FILE)
    budget = raw["search"]
    owners = cuzco_data.bots_schema().budget_kinds
    assert owners == ("search", "pruned")
    for name, spec in bots.items():
        own = raw["bots"].get(name, {}) if cuzco_data.bot_kind_names()[spec.kind] in owners else {}
        assert spec.weights[W_SEARCH_CANDIDATES] == own.get("candidates", budget["candidates"]), name
        assert spec.weights[W_SEARCH_ROLLOUTS] == own.get("rollouts", budget["rollouts"]), name
    assert len(CUZCO.weight_names("balanced")) == N_HEURISTIC_WEIGHTS
    assert cuzco_data.default_lineup() == raw["lineup"]["default"]


def test_cuzco_search_budget_is_bounded(tmp_path, monkeypatch):
    text = cuzco_data.BOTS_FILE.read_text()
    assert "\ncandidates = 5" in text
    path = tmp_path / "bots.toml"
    path.write_text(text.replace("\ncandidates = 5", "\ncandidates = 9", 1))
    monkeypatch.setattr(cuzco_data, "BOTS_FILE", path)
    with pytest.raises(UserError, match=r"\[search\]: candidates must be a whole number from 1 to 8 \(got 9\)"):
        cuzco_data.load_bots()
