"""Chachapoya: acquiring treasures and the end of a round (rulebook "I. Checking", "Grim Warriors",
"Curse", "II. Three Cards Rule", "III. When There Is a Tie", "IV. New Round Begins",
"Hidden Treasure Token" A)."""
import numpy as np
import pytest

from chachapoya_helpers import (
    A, ENGINE, N_T, NO_LOG, T, collect, collection, hand, hand_dict, heuristic, make_state, random_bots,
    set_adeck, set_offer, set_tdeck, tdeck_list,
)
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S


def take(st, seat, *cards):
    """The seat acquires the cards, laid where the rules lay a winner's cards (scratch row SCR_TAKEN)."""
    S.scratch(st)[S.SCR_TAKEN, :len(cards)] = [T[c] for c in cards]
    R.acquire(ENGINE, st, NO_LOG, np.int64(seat), S.scratch_at(st, S.SCR_TAKEN), np.int64(len(cards)))


# ------------------------------------------------------------------ I. Checking
def test_fourth_yellow_idol_eliminates():
    """I. Checking / Bidding example: four yellow idols is an X: the player is eliminated, the
    hand goes to the adventurer discard pile and every treasure leaves the game."""
    st = make_state(3)
    collect(st, 1, yellow_idol=3, blue_idol=1, gold=2)
    hand(st, 1, number_9=2, spy=1)
    discard_before = S.adiscard(st).copy()
    take(st, 1, "yellow_idol", "red_idol")
    pstat = S.players(st)
    assert pstat[1, S.P_ALIVE] == 0 and pstat[1, S.P_ELIMINATION] == S.ELIM_IN_PLAY
    assert collection(st, 1) == {} and hand_dict(st, 1) == {}
    assert S.adiscard(st)[A["number_9"]] - discard_before[A["number_9"]] == 2
    assert S.adiscard(st)[A["spy"]] - discard_before[A["spy"]] == 1
    out = S.gone(st)
    assert out[T["yellow_idol"]] == 4 and out[T["blue_idol"]] == 1 and out[T["gold"]] == 2
    assert out[T["red_idol"]] == 1
    assert pstat[0, S.P_ALIVE] == 1 and pstat[2, S.P_ALIVE] == 1


def test_two_yellow_in_one_bidding_can_overflow():
    """Bidding example: an unlucky bidding can bring two of the same card (2 + 2 = 4 yellow: X)."""
    st = make_state(2)
    collect(st, 0, yellow_idol=2)
    take(st, 0, "yellow_idol", "yellow_idol")
    assert S.players(st)[0, S.P_ALIVE] == 0


def test_three_yellow_is_zero_not_elimination():
    """Bidding example: three yellow idols score 0 points but do not eliminate."""
    st = make_state(2)
    collect(st, 0, yellow_idol=2)
    take(st, 0, "yellow_idol")
    assert S.players(st)[0, S.P_ALIVE] == 1 and collection(st, 0) == {"yellow_idol": 3}


# ------------------------------------------------------------------ Grim Warriors
@pytest.mark.parametrize("last_round", [0, 1])
def test_grim_warriors_draw_three_each_also_in_last_round(last_round):
    """Grim Warriors: acquiring one draws three adventurer cards at once, also in the last round;
    two warriors in one bidding draw three each."""
    st = make_state(3)
    st[S.S_LAST_ROUND] = last_round
    set_adeck(st, [A["number_3"]] * 4 + [A["number_7"]] * 6)
    hand(st, 2)
    take(st, 2, "grim_warriors")
    assert hand_dict(st, 2) == {"number_3": 3}
    take(st, 2, "grim_warriors", "grim_warriors")
    assert hand_dict(st, 2) == {"number_3": 4, "number_7": 5}
    assert collection(st, 2) == {"grim_warriors": 3}


def test_fifth_grim_warrior_eliminates_without_drawing():
    """Grim Warriors: five of them eliminate their owner (Checking comes first)."""
    st = make_state(2)
    collect(st, 0, grim_warriors=4)
    set_adeck(st, [A["number_3"]] * 10)
    take(st, 0, "grim_warriors")
    assert S.players(st)[0, S.P_ALIVE] == 0 and hand_dict(st, 0) == {}
    assert st[S.S_ADECK_SIZE] == 10


# ------------------------------------------------------------------ Curse
def test_curse_loses_most_valuable_from_earlier_rounds():
    """Curse: the most valuable treasure (upper-left value) acquired in previous rounds goes out of
    the game - not a card won in the same bidding."""
    st = make_state(3)
    collect(st, 0, gold=2, red_idol=1)  # values 1 and 2
    take(st, 0, "curse", "blue_idol")  # blue (7) was won now: not eligible
    assert collection(st, 0) == {"gold": 2, "curse": 1, "blue_idol": 1}
    assert S.gone(st)[T["red_idol"]] == 1
    assert S.players(st)[0, S.P_LOST_TO_CURSE] == 1
    assert S.treasure_stats(st)[0, S.T_LOST, T["red_idol"]] == 1


def test_curse_picks_by_card_value():
    """Curse: by card value: blue idol (7) before yellow (5), green (3), red (2), gold (1)."""
    st = make_state(2)
    collect(st, 0, yellow_idol=1, blue_idol=1, green_idol=2, gold=3)
    take(st, 0, "curse")
    assert collection(st, 0) == {"yellow_idol": 1, "green_idol": 2, "gold": 3, "curse": 1}
    earlier = S.scratch(st)[S.SCR_EARLIER]
    earlier[:N_T] = S.collections(st)[0]
    earlier[T["curse"]] = 0
    assert R.most_valuable_previous(ENGINE, st, np.int64(0), S.scratch_at(st, S.SCR_EARLIER)) == T["yellow_idol"]


def test_curse_with_nothing_earlier_costs_nothing():
    """Curse: with no treasure from previous rounds there is nothing to lose."""
    st = make_state(2)
    take(st, 0, "curse", "gold")
    assert collection(st, 0) == {"curse": 1, "gold": 1}
    assert S.gone(st).sum() == 0


def test_curse_never_takes_curses():
    """Curse: the cursed card stays in front of the player; curses are not lost to curses."""
    st = make_state(2)
    collect(st, 0, curse=1)
    take(st, 0, "curse")
    assert collection(st, 0) == {"curse": 2}
    assert S.players(st)[0, S.P_ALIVE] == 1


def test_two_curses_in_one_bidding_lose_two():
    """Curse: each curse acquired takes the then most valuable earlier treasure."""
    st = make_state(2)
    collect(st, 0, blue_idol=1, green_idol=1, gold=1)
    take(st, 0, "curse", "curse")
    assert collection(st, 0) == {"gold": 1, "curse": 2}


def test_third_curse_eliminates():
    """Curse: getting the third one eliminates the player."""
    st = make_state(2)
    collect(st, 1, curse=2, blue_idol=1)
    take(st, 1, "curse")
    assert S.players(st)[1, S.P_ALIVE] == 0 and collection(st, 1) == {}


# ------------------------------------------------------------------ II. Three Cards Rule, token A
def test_end_of_round_draw_one_each_then_fill_to_three():
    """II. Three Cards Rule: every player still in play draws one card; anyone below three then
    fills up to three. Eliminated players draw nothing."""
    st = make_state(4)
    S.players(st)[:, S.P_TOKEN] = 0
    hand(st, 0, number_9=5)
    hand(st, 1)
    hand(st, 2, number_3=1)
    hand(st, 3, number_5=2)
    S.players(st)[3, S.P_ALIVE] = 0
    hand(st, 3)
    set_adeck(st, [A["number_7"]] * 20)
    R.end_of_round_draws(ENGINE, st, NO_LOG, *heuristic(4))
    assert [int(S.hands(st)[s].sum()) for s in range(4)] == [6, 3, 3, 0]
    assert st[S.S_ADECK_SIZE] == 20 - 1 - 3 - 2


def test_end_of_round_draws_go_clockwise_from_start_player():
    """Example for a Round: starting from the starting player every player draws one card."""
    st = make_state(3)
    S.players(st)[:, S.P_TOKEN] = 0
    for s in range(3):
        hand(st, s, number_3=5)
    st[S.S_START] = 2
    set_adeck(st, [A["number_17"], A["number_11"], A["number_9"]])
    R.end_of_round_draws(ENGINE, st, NO_LOG, *heuristic(3))
    assert hand_dict(st, 2)["number_17"] == 1
    assert hand_dict(st, 0)["number_11"] == 1
    assert hand_dict(st, 1)["number_9"] == 1


def test_hidden_treasure_refill_to_eight():
    """Hidden Treasure A: at the end of a round a player may discard the token to fill the hand
    up to eight cards; the token leaves the game."""
    st = make_state(2)
    hand(st, 0, number_3=1)  # draws 1 -> 2, fills to 3, then (balanced: <= 3 cards) uses the token
    hand(st, 1, number_3=6)  # 7 cards: keeps the token
    set_adeck(st, [A["number_5"]] * 30)
    R.end_of_round_draws(ENGINE, st, NO_LOG, *heuristic(2))
    pstat = S.players(st)
    assert S.hands(st)[0].sum() == 8 and pstat[0, S.P_TOKEN] == 0 and pstat[0, S.P_TOKEN_REFILL] == 1
    assert S.hands(st)[1].sum() == 7 and pstat[1, S.P_TOKEN] == 1 and pstat[1, S.P_TOKEN_REFILL] == 0


def test_hidden_treasure_refill_not_in_last_round():
    """Hidden Treasure A: the token may be used to refill "except the last round" (draws can
    happen in a last round after a 2-player leader clash)."""
    st = make_state(2)
    st[S.S_LAST_ROUND] = 1
    hand(st, 0)
    hand(st, 1)
    set_adeck(st, [A["number_5"]] * 30)
    R.end_of_round_draws(ENGINE, st, NO_LOG, *heuristic(2))
    pstat = S.players(st)
    assert list(pstat[:, S.P_TOKEN]) == [1, 1]
    assert [int(S.hands(st)[s].sum()) for s in range(2)] == [3, 3]


def test_adventurer_deck_is_reshuffled_from_discards_when_empty():
    """Drawing from an empty adventurer deck reshuffles the discard pile (not printed)."""
    st = make_state(2)
    set_adeck(st, [A["number_3"]])
    S.adiscard(st)[:] = 0
    S.adiscard(st)[A["number_9"]] = 4
    hand(st, 0)
    R.draw_adventurers(st, NO_LOG, np.int64(0), np.int64(3), np.int64(R.DRAW_ROUND))
    assert hand_dict(st, 0) == {"number_3": 1, "number_9": 2}
    assert S.adiscard(st).sum() == 0 and st[S.S_ADECK_SIZE] == 2


# ------------------------------------------------------------------ III, IV
def test_no_winner_puts_both_cards_to_the_bottom():
    """III. When There Is a Tie: nobody wins; the treasures go back to the bottom of the deck."""
    st = make_state(3)
    set_tdeck(st, [T["gold"]] * 3)
    set_offer(st, ["red_idol", "curse"], knower=1)
    R.settle_bidding(ENGINE, st, NO_LOG, *heuristic(3), np.int64(R.OUT_NO_WINNER), np.int64(-1))
    assert tdeck_list(st) == [T["gold"]] * 3 + [T["red_idol"], T["curse"]]
    assert st[S.S_N_OFFER] == 0 and st[S.S_NO_WINNER_ROUNDS] == 1
    assert all(collection(st, s) == {} for s in range(3))


def test_no_winner_round_still_draws():
    """III: players still get one card each and fill up to three."""
    st = make_state(3, seed=3)
    S.players(st)[:, S.P_TOKEN] = 0
    set_tdeck(st, [T["gold"]] * 6 + [T["red_idol"]] * 3)
    set_adeck(st, [A["number_5"]] * 30)
    for s in range(3):
        hand(st, s, number_9=1)  # everyone bids 9: all tied
    R.play_round(ENGINE, st, NO_LOG, *random_bots(3), False)
    assert st[S.S_NO_WINNER_ROUNDS] == 1
    assert [hand_dict(st, s) for s in range(3)] == [{"number_5": 3}] * 3
    assert st[S.S_TDECK_SIZE] == 9  # 3 drawn, 1 bottomed, 2 returned


@pytest.mark.parametrize("start,dead,expected", [(0, [], 1), (3, [], 0), (1, [2], 3), (2, [3, 0], 1)])
def test_start_player_passes_left_skipping_eliminated(start, dead, expected):
    """IV. New Round Begins: the player to the left becomes the start player (players out of
    the game are skipped)."""
    st = make_state(4)
    st[S.S_START] = start
    for d in dead:
        S.players(st)[d, S.P_ALIVE] = 0
    assert R.next_start_player(st) == expected


def test_elimination_of_all_but_one_ends_the_game():
    """I. Checking: eliminated players are out; with one player left the game is over."""
    st = make_state(2, seed=4)
    set_tdeck(st, [T["yellow_idol"]] * 3 + [T["gold"]] * 6)
    collect(st, 0, yellow_idol=3)
    hand(st, 0, number_31=1)
    hand(st, 1, number_3=1)
    set_adeck(st, [A["number_5"]] * 30)
    R.play_round(ENGINE, st, NO_LOG, *random_bots(2), False)
    assert S.players(st)[0, S.P_ALIVE] == 0
    assert st[S.S_END_REASON] == S.END_LAST_STANDING
