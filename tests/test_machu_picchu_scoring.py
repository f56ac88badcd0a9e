"""Scoring, Gold and Winning (rulebook sections "Scoring", "Gold", "Winning")."""
from __future__ import annotations

from machu_picchu_helpers import DISTRICT, PARAMS, Table
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S

ICON_ORDER = S.ICON_NAMES


def _card_with(*icons):
    """The name of an offering card showing exactly these icons (one each)."""
    for name, card in PARAMS.resolved["offering"].items():
        if name == "source":
            continue
        if all(card[i] == (1 if i in icons else 0) for i in ICON_ORDER):
            return name
    raise AssertionError(f"no card shows exactly {icons}")


def _scoring_table(n=4):
    t = Table(n)
    for p in range(n):
        t.empty_hand(p)
        t.unplace_workers(p)
        t.set(p, S.P_SCOUT, 0)
    return t


def test_the_printed_example_cards_exist():
    """NOTES.md: a card with 1 pottery and 1 puma icon; a card with 1 corn and 1 cloth icon and 3 gold."""
    assert _card_with("pottery", "puma")
    corn_cloth = _card_with("corn", "cloth")
    assert PARAMS.resolved["offering"][corn_cloth]["gold"] == 3


def test_two_cloth_icons_score_2_per_worker_in_the_weavers_quarter():
    """Scoring example: "2 cloth icons in total ... 2 points for each of their workers in the Weaver's
    Quarter". Three weavers, the cards llama + cloth and coca + cloth, no llama or coca workers: 6."""
    t = _scoring_table()
    t.take_card(0, _card_with("llama", "cloth"))
    t.take_card(0, _card_with("coca", "cloth"))
    t.move_worker(0, "weavers_quarter", 3)
    R.score_player(t.P, t.st, 0)
    assert t.at(0, S.P_SCORE_WORKERS) == 2 * 3
    assert t.at(0, S.P_SCORE) == 6
    t.move_worker(0, "llamas_meadow", 2)  # the llama icon now counts too: 1 point per llama worker
    R.score_player(t.P, t.st, 0)
    assert t.at(0, S.P_SCORE) == 6 + 2


def test_three_condor_icons_score_3_per_condor_card():
    """Scoring example: "3 condor icons in total ... 3 points for each Condor Temple priest card"."""
    t = _scoring_table()
    for other in ("corn", "llama", "coca"):
        t.take_card(1, _card_with(other, "condor"))
    t.give_priest(1, "condor", 2)
    t.give_priest(1, "puma", 1)  # no puma icon: worth nothing
    R.score_player(t.P, t.st, 1)
    assert t.at(1, S.P_SCORE_PRIESTS) == 3 * 2
    assert t.at(1, S.P_SCORE) == 6


def test_trail_bonus_1_point_and_gold_on_7_to_12_and_2_on_13_to_19():
    """Scoring / Gold: a scout on the Granary's stretch (7-12) 1 point and 1 gold, the Stable's (13-19) 2."""
    t = _scoring_table()
    for space, bonus in ((6, 0), (7, 1), (12, 1), (13, 2), (19, 2), (0, 0)):
        t.set(2, S.P_SCOUT, space)
        R.score_player(t.P, t.st, 2)
        assert (t.at(2, S.P_SCORE_TRAIL), t.at(2, S.P_GOLD)) == (bonus, bonus), space


def test_gold_is_the_sum_printed_on_the_cards_held():
    """Gold: the numbers at the top of the offering cards a player holds, added up."""
    t = _scoring_table()
    names = [_card_with("corn", "cloth"), _card_with("pottery", "puma")]
    for name in names:
        t.take_card(3, name)
    R.score_player(t.P, t.st, 3)
    assert t.at(3, S.P_GOLD) == sum(PARAMS.resolved["offering"][n]["gold"] for n in names)


def test_most_gold_triples_second_doubles_and_ties_share():
    """Gold: the most gold triples the points, the second-most doubles them; "if 2 players are tied for
    the most gold, both have their points tripled, and the player with the next-most gold still has
    their points doubled"."""
    t = _scoring_table()
    for p, (gold, score) in enumerate(((10, 5), (10, 4), (7, 6), (3, 9))):
        t.set(p, S.P_GOLD, gold)
        t.set(p, S.P_SCORE, score)
    R.apply_gold_multipliers(t.P, t.st)
    assert [t.at(p, S.P_MULTIPLIER) for p in range(4)] == [3, 3, 2, 1]
    assert [t.at(p, S.P_SCORE) for p in range(4)] == [15, 12, 12, 9]


def test_multipliers_only_when_the_spanish_arrive():
    """Winning: the gold counts only if the game ends because the Spanish soldiers arrive (day 9)."""
    for reason, multiplied in ((S.END_SPANISH, True), (S.END_DECK, False), (S.END_PRIESTS, False)):
        t = _scoring_table()
        t.take_card(0, _card_with("corn", "cloth"))
        t.move_worker(0, "corn_terraces", 2)
        t.st[S.S_END_PENDING] = reason
        R.finish_game(t.P, t.st, t.log)
        assert t.at(0, S.P_SCORE) == (2 * 3 if multiplied else 2)


def test_a_tie_on_points_goes_to_more_goods_with_3_corn_as_one_good():
    """Winning: "If points are tied, the player with more goods wins (every 3 corn count as 1 good)"."""
    t = _scoring_table(2)
    t.set_goods(0, corn=5, llama=1)  # 1 + 1 = 2 goods
    t.set_goods(1, corn=6, coca=1)  # 2 + 1 = 3 goods
    t.st[S.S_END_PENDING] = S.END_PRIESTS
    R.finish_game(t.P, t.st, t.log)
    assert t.at(0, S.P_SCORE) == t.at(1, S.P_SCORE) == 0
    assert (t.at(0, S.P_GOODS_VALUE), t.at(1, S.P_GOODS_VALUE)) == (2, 3)
    assert (t.at(0, S.P_RANK), t.at(1, S.P_RANK)) == (2, 1)
    assert int(t.st[S.S_WINNER]) == 1


def test_players_tied_on_points_and_goods_share_the_win():
    t = _scoring_table(3)
    for p in range(3):
        t.set_goods(p, llama=1)
    t.st[S.S_END_PENDING] = S.END_PRIESTS
    R.finish_game(t.P, t.st, t.log)
    assert [t.at(p, S.P_RANK) for p in range(3)] == [1, 1, 1]
    assert int(t.st[S.S_WINNER]) == -1
    assert all(t.at(p, S.P_WON) == 1 for p in range(3))


def test_compensation_is_added_to_the_score():
    """Game End 2: the 3 points of a player who could not draw count in the score."""
    t = _scoring_table()
    t.set(2, S.P_COMPENSATION, 3)
    t.st[S.S_END_PENDING] = S.END_DECK
    R.finish_game(t.P, t.st, t.log)
    assert t.at(2, S.P_SCORE) == 3


def test_sun_clock_workers_are_not_in_a_production_district():
    """Scoring counts workers in the production areas; a worker left on the Sun Clock on day 9 is not."""
    t = _scoring_table()
    t.take_card(0, _card_with("corn", "cloth"))
    t.move_worker(0, "corn_terraces", 2)
    t.st[S.S_DAY] = 9
    t.call(R.send_worker_to_clock, 0, DISTRICT["corn_terraces"])
    R.score_player(t.P, t.st, 0)
    assert t.at(0, S.P_SCORE_WORKERS) == 1


def test_the_icons_kept_with_the_hand_match_a_recount():
    """The icons a hand shows are kept up to date as cards come and go (the bots and the scoring
    read them); checked mode recounts them card by card."""
    t = _scoring_table()
    t.take_card(0, _card_with("llama", "cloth"))
    t.take_card(0, _card_with("cloth", "condor"))
    icons = [R.icons_held(t.P, t.st, 0, i) for i in range(S.N_ICONS)]
    assert icons == [R.count_icons(t.P, t.st, 0, i) for i in range(S.N_ICONS)]
    assert icons[S.ICON_NAMES.index("cloth")] == 2 and sum(icons) == 4
    t.empty_hand(0)
    assert [R.icons_held(t.P, t.st, 0, i) for i in range(S.N_ICONS)] == [0] * S.N_ICONS
    t.check()
