"""Setup and the component data (rulebook sections "Components", "Setup"; NOTES.md)."""
from __future__ import annotations

from collections import deque

import pytest

from machu_picchu_helpers import DISTRICT, KIND, PARAMS, Table
from sim.core.errors import UserError
from sim.games.machu_picchu import GAME
from sim.games.machu_picchu import state as S


@pytest.mark.parametrize("n,workers,day", [(2, 12, 1), (3, 10, 2), (4, 9, 3), (5, 8, 3)])
def test_workers_time_marker_and_its_corn_by_player_count(n, workers, day):
    """Setup: 12 / 10 / 9 / 8 workers; the time marker on 1 / 2 / 3 ("45人" read as 4 or 5 players,
    README ambiguity 3); 1 corn on each moon symbol from the marker to day 9."""
    t = Table(n)
    for p in range(n):
        placed = sum(t.at(p, S.P_WORKERS + d) for d in range(S.N_PRODUCTION))
        assert placed == 1 and t.at(p, S.P_FREE_WORKERS) == workers - 1
    assert int(t.st[S.S_DAY]) == day
    assert int(t.st[S.S_TIME_CORN]) == 9 - day + 1
    t.check()


def test_each_player_starts_with_3_corn_one_of_each_good_and_one_offering_card():
    """Setup: 3 corn and 1 each of llama, coca, pottery and cloth; 1 offering card dealt; the prince
    is not on the board until the first action."""
    t = Table(5)
    for p in range(5):
        assert [t.goods(p, g) for g in S.GOOD_NAMES] == [3, 1, 1, 1, 1]
        assert t.at(p, S.P_HAND_N) == 1
        assert t.at(p, S.P_PRINCE) == S.NOWHERE
    assert int(t.st[S.S_DECK_SIZE]) == 28 - 5


def test_the_board_is_stocked_for_the_first_day():
    """Setup: 2 goods in each market column (on 6 and 5), 1 stone on each temple, 1 good on each
    production area and 3 corn on the terraces, all 15 priest/virgin cards and 7 moon tiles out."""
    t = Table(4)
    assert [int(t.st[S.S_MARKET + g]) for g in range(1, 5)] == [2, 2, 2, 2]
    assert [int(t.st[S.S_DISTRICT + d]) for d in range(S.N_PRODUCTION)] == [3, 1, 1, 1, 1]
    assert [int(t.st[S.S_DISTRICT + d]) for d in range(5, 9)] == [1, 1, 1, 1]
    assert int(t.st[S.S_PRIESTS_LEFT]) == 15
    assert all(int(t.st[S.S_MOON_HOLDER + m]) == -1 for m in range(7))


def test_the_printed_component_counts():
    """Components and NOTES.md: 28 offering cards ("汹" read as a stray character, README ambiguity 1),
    7 moon tiles, 8 temple stones, 38 llamas, 28 coca, pottery and cloth, 33 x 3 + 31 corn; 6 Sun
    virgins, 5 Puma and 4 Condor priests, each kind its own row (README ambiguity 2)."""
    p = PARAMS.resolved
    assert len([c for c in p["offering"] if c != "source"]) == 28
    assert len([m for m in p["moon"] if m != "source"]) == 7
    assert p["supply"] == {**p["supply"], "temple_stones": 8, "llama": 38, "coca": 28, "pottery": 28,
                           "cloth": 28, "corn": 33 * 3 + 31}
    assert [p["priest"][k]["count"] for k in ("sun", "puma", "condor")] == [6, 5, 4]
    costs = {k: {g: p["priest"][k][g] for g in S.GOOD_NAMES if p["priest"][k][g]} for k in ("sun", "puma", "condor")}
    assert costs == {"sun": {"cloth": 3, "coca": 1, "pottery": 1}, "puma": {"cloth": 2, "coca": 1, "pottery": 1},
                     "condor": {"cloth": 1, "coca": 1, "pottery": 1}}
    for kind in ("sun", "puma", "condor"):
        steps = p["priest"][kind]["steps"]
        assert steps == sorted(steps, reverse=True), "the fewer cards remain, the fewer spaces"


def test_every_number_carries_its_source():
    """components.toml: each value has a source saying printed or reconstructed (or the reading or
    engine bound it is)."""
    p = PARAMS.resolved
    for table in ("setup", "supply", "rules", "market", "worker_cost", "priest", "board"):
        keys = set(p[table]) - {"source"}
        assert keys <= set(p[table]["source"]), table
    for table in ("moon", "offering"):
        assert {"count"} <= set(p[table]["source"])
    words = ("printed", "reconstructed", "reading", "engine bound")
    for table in ("setup", "supply", "rules", "market", "worker_cost", "priest", "board", "moon", "offering"):
        for key, text in p[table]["source"].items():
            assert any(text.startswith(w) for w in words), (table, key)


def test_the_reconstructed_city_respects_the_published_facts():
    """NOTES.md: the Central Plaza lies in the middle; the Houses of Priests and Virgins border no
    temple; the production districts do not border the Houses. Every district can be reached."""
    P = GAME.resolve_params(None).engine
    def neighbours(d):
        return [e for e in range(S.N_DISTRICTS) if P[S.ADJ_AT + d * S.N_DISTRICTS + e]]
    degrees = [len(neighbours(d)) for d in range(S.N_DISTRICTS)]
    assert degrees[DISTRICT["central_plaza"]] == max(degrees)
    for house in ("house_of_priests", "house_of_virgins"):
        for e in neighbours(DISTRICT[house]):
            assert not (S.FIRST_TEMPLE <= e <= DISTRICT["main_temple"]) and e >= S.N_PRODUCTION
    seen, queue = {0}, deque([0])
    while queue:
        for e in neighbours(queue.popleft()):
            if e not in seen:
                seen.add(e)
                queue.append(e)
    assert len(seen) == S.N_DISTRICTS
    assert all(P[S.ADJ_AT + d * S.N_DISTRICTS + e] == P[S.ADJ_AT + e * S.N_DISTRICTS + d]
               for d in range(S.N_DISTRICTS) for e in range(S.N_DISTRICTS))


def test_a_variant_overrides_a_reconstructed_number():
    """Any number can be overridden from a variant file: here the Sun row's numbers, a card's gold,
    a moon tile and a border."""
    variant = {"priest": {"sun": {"steps": [9, 8, 7, 6, 5, 4]}}, "offering": {"c04": {"gold": 7}},
               "moon": {"m7": {"steps": 3, "good": "pottery"}},
               "board": {"adjacent": [["central_plaza", "sun_temple"]]}}
    P = GAME.resolve_params(variant).engine
    at = S.PRIEST_AT + KIND["sun"] * S.N_PF + S.PF_STEPS
    assert list(P[at:at + 6]) == [9, 8, 7, 6, 5, 4]
    assert P[S.CARD_AT + 3 * S.N_CF + S.CF_GOLD] == 7
    assert list(P[S.MOON_AT + 6 * S.N_MF:S.MOON_AT + 7 * S.N_MF]) == [3, S.GOOD_NAMES.index("pottery")]
    assert P[S.ADJ_AT + DISTRICT["central_plaza"] * S.N_DISTRICTS + DISTRICT["sun_temple"]] == 1
    assert P[S.ADJ_AT + DISTRICT["central_plaza"] * S.N_DISTRICTS + DISTRICT["main_temple"]] == 0


@pytest.mark.parametrize("variant,key", [
    ({"priest": {"sun": {"steps": [5, 4]}}}, "priest.sun.steps"),
    ({"board": {"adjacent": [["central_plaza", "no_such_district"]]}}, r"board.adjacent\[0\]"),
    ({"rules": {"granary_space": 15}}, "rules.stable_space"),
    ({"moon": {"m1": {"good": "gold"}}}, "moon.m1.good"),
    ({"setup": {"workers_per_player": {"6": 7}}}, "setup.workers_per_player.6"),
])
def test_a_bad_variant_names_its_key(variant, key):
    with pytest.raises(UserError, match=key):
        GAME.resolve_params(variant)


def test_every_robustness_table_is_a_valid_variant_of_a_reconstructed_number():
    """robust.toml: each alternative reading resolves, changes the engine's numbers, and varies a
    number components.toml marks reconstructed, but for the what-ifs of printed numbers that bring
    Game End 1 and 2 about (issue 34), which say so."""
    spec = GAME.robustness()
    base = GAME.resolve_params(None).engine
    assert len(spec.tables) == 9 and spec.tables[0].variant is None
    from sim.core.params import load_variant
    for table in spec.tables[1:]:
        _, variant = load_variant(table.variant_file())
        engine = GAME.resolve_params(variant).engine
        assert (engine != base).any() or engine.shape != base.shape, table.name
        if table.number.startswith("what-if"):
            assert table.name in ("priests-free", "trail-half")
            continue
        for key in variant:
            sources = PARAMS.resolved[key]["source"]
            assert any("reconstructed" in text for text in sources.values()), (table.name, key)


def test_the_what_if_tables_are_played_but_judge_no_verdict():
    """sim.analysis.robust.robustness judges the headline verdicts under the plausible tables only:
    a what-if of printed numbers shows what an end condition hinges on, it is not a reading."""
    from sim.analysis.robust import is_what_if
    from sim.core import registry

    tables = registry.get_game("machu_picchu").robustness().record()["tables"]
    what_ifs = [t["name"] for t in tables if is_what_if(t)]
    assert len(what_ifs) == 2 and len(tables) - len(what_ifs) >= 5
