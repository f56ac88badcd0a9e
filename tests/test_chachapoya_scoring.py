"""Chachapoya rulebook "Scoring", both "Example for Scoring" sections, "Hidden Treasure Token" B and
the scales printed on the treasure cards."""
import numpy as np
import pytest

from chachapoya_helpers import (
    ENGINE, NO_LOG, T, bots, collect, hand, heuristic, make_state,
)
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import overflowed_type, points_of

X = "X"


def pts(kind, n):
    st = S.new_state(ENGINE, 2)
    S.collections(st)[0, T[kind]] = n
    at = S.collection_at(st, 0)
    if overflowed_type(ENGINE, st, at) >= 0:
        return X
    return int(points_of(ENGINE, st, at, T[kind]))


@pytest.mark.parametrize("kind,expected", [
    ("yellow_idol", [5, 10, 0, X, X]),        # Bidding example: 5/10/0, four or five X
    ("green_idol", [3, 6, 10, 0, X]),         # scoring examples: 3, 6, 10 (two + one), 0 for four
    ("red_idol", [2, 5, None, 10, X]),        # scoring examples: two = 5, four = 10; five X
    ("gold", [1, 3, None, 10, X]),            # scoring examples: 1, 3 (two), 10 (four)
    ("grim_warriors", [0, -5, -10, None, X]),  # Grim Warriors: 0; examples -5, -10; five X
    ("blue_idol", [7, 15]),                   # scoring examples: 7, 15
    ("curse", [0, None, X]),                  # Scoring example 2: one Curse 0; Curse: the third eliminates
])
def test_printed_scales(kind, expected):
    """Scoring: the scale on each card type (printed values; None = not printed)."""
    for n, want in enumerate(expected, start=1):
        if want is not None:
            assert pts(kind, n) == want, (kind, n)
    assert pts(kind, 0) == 0


def score(st, bot_names=None):
    n = st[S.S_N_PLAYERS]
    kinds, w = bots(bot_names) if bot_names else heuristic(n)
    R.final_scores(ENGINE, st, NO_LOG, kinds, w)
    return S.players(st)


def _scoring_example_1():
    """Example for Scoring (1): Betty, Lucy and Tim's spoils and hands, each with the token of setup."""
    betty, lucy, tim = 0, 1, 2
    st = make_state(3)
    collect(st, betty, blue_idol=2, green_idol=1, gold=1, grim_warriors=2)
    collect(st, lucy, red_idol=4, green_idol=4)
    collect(st, tim, blue_idol=2, yellow_idol=3, red_idol=2)
    hand(st, betty, number_9=2)
    hand(st, lucy, tracker=2)
    hand(st, tim, dictator=1, number_3=1)
    return st


def _scoring_example_2():
    """Example for Scoring (2): Ann, Lucy, John and Tim's spoils and hands, each with the token of setup."""
    ann, lucy, john, tim = 0, 1, 2, 3
    st = make_state(4)
    collect(st, ann, blue_idol=2, green_idol=1, gold=2, grim_warriors=3)
    collect(st, lucy, red_idol=4, gold=4, curse=1)
    collect(st, john, yellow_idol=3, green_idol=2, grim_warriors=2)
    collect(st, tim, red_idol=2, yellow_idol=3, blue_idol=1)
    hand(st, ann, tracker=2, number_5=1)
    hand(st, lucy, number_31=1)
    hand(st, john, number_7=3)
    hand(st, tim, mafia=1)
    return st


def test_the_scoring_examples_totals_before_the_tokens():
    """Example for Scoring (1): Lucy "10 points for her four red idols and 0 points for her four
    green idols but ... -2 points for the two Trackers in her hand, which is a total of 8 points",
    before her forgotten token. (2): Lucy "10 points for her four red idols, 10 points for her four
    golds and 0 points for the Curse card, which would mean 20 points"; Tim 5 + 0 + 7 - 3, "a total
    of 9 points", before his token on the blue idol."""
    st = _scoring_example_1()
    S.players(st)[:, S.P_TOKEN] = 0
    assert score(st)[1, S.P_SCORE] == 8
    st = _scoring_example_2()
    S.players(st)[:, S.P_TOKEN] = 0
    pstat = score(st)
    assert (pstat[1, S.P_SCORE], pstat[3, S.P_SCORE]) == (20, 9)


def test_example_for_scoring_1():
    """Example for Scoring (1): Betty 15 + 3 + 1 - 5 = 14; Lucy's forgotten token on red or green
    idols eliminates her; Tim 15 + 0 + 5 - 3 = 17 wins."""
    betty, lucy, tim = 0, 1, 2
    st = _scoring_example_1()
    S.players(st)[betty, S.P_TOKEN] = 0
    S.players(st)[tim, S.P_TOKEN] = 0
    pstat = score(st)
    assert pstat[betty, S.P_SCORE] == 14
    assert pstat[lucy, S.P_ALIVE] == 0 and pstat[lucy, S.P_ELIMINATION] == S.ELIM_AT_SCORING
    assert pstat[lucy, S.P_TOKEN_SCORED_ON] in (T["red_idol"], T["green_idol"])
    assert pstat[tim, S.P_SCORE] == 17 and pstat[tim, S.P_VP_HAND] == -3
    assert st[S.S_WINNER] == tim
    assert list(pstat[:, S.P_RANK]) == [2, 3, 1] and list(pstat[:, S.P_WON]) == [0, 0, 1]


@pytest.mark.parametrize("seed", range(4))
def test_example_for_scoring_1_lucy_is_eliminated_wherever_the_token_goes(seed):
    """Example for Scoring (1): "Lucy could put it either to her red idols or to her green idols,
    she would still get eliminated" - also with a random token placement."""
    st = make_state(2, seed=seed)
    collect(st, 1, red_idol=4, green_idol=4)
    collect(st, 0, gold=1)
    pstat = score(st, ["random", "random"])
    assert pstat[1, S.P_ALIVE] == 0 and pstat[1, S.P_SCORE] == 0
    assert st[S.S_WINNER] == 0


def test_example_for_scoring_2():
    """Example for Scoring (2): Ann 15 + 6 (token on green) + 3 - 10 - 2 = 12; Lucy eliminated by
    her token; John 0 + 10 (two + one green) - 5 = 5; Tim 5 + 0 + 15 (token on blue) - 3 = 17."""
    ann, lucy, john, tim = 0, 1, 2, 3
    st = _scoring_example_2()
    pstat = score(st)
    assert pstat[ann, S.P_SCORE] == 12 and pstat[ann, S.P_VP_HAND] == -2
    assert pstat[lucy, S.P_ALIVE] == 0 and pstat[lucy, S.P_TOKEN_SCORED_ON] in (T["red_idol"], T["gold"])
    assert pstat[john, S.P_SCORE] == 5 and pstat[john, S.P_TOKEN_SCORED_ON] == T["green_idol"]
    assert pstat[tim, S.P_SCORE] == 17 and pstat[tim, S.P_TOKEN_SCORED_ON] == T["blue_idol"]
    assert st[S.S_WINNER] == tim
    assert S.treasure_stats(st)[tim, S.T_VP, T["blue_idol"]] == 15


def test_hidden_treasure_b_amy_three_red_plus_token_is_ten():
    """Hidden Treasure B example: Amy's token on her three red idols scores as four: 10 points."""
    st = make_state(2)
    collect(st, 0, red_idol=3)
    collect(st, 1, gold=1)
    pstat = score(st)
    assert pstat[0, S.P_TOKEN_SCORED_ON] == T["red_idol"]
    assert pstat[0, S.P_SCORE] == 10 and pstat[0, S.P_TOKEN] == 0


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("bot", ["random", "balanced"])
def test_token_never_on_curses(seed, bot):
    """Hidden Treasure B: the token cannot be put on Curse cards."""
    st = make_state(2, seed=seed)
    collect(st, 0, curse=2, gold=1)
    collect(st, 1, curse=2)
    pstat = score(st, [bot, bot])
    assert pstat[0, S.P_TOKEN_SCORED_ON] == T["gold"] and pstat[0, S.P_SCORE] == 3
    assert pstat[1, S.P_TOKEN_SCORED_ON] == -1 and pstat[1, S.P_ALIVE] == 1  # no target: unused
    assert pstat[1, S.P_SCORE] == 0


def test_used_token_is_not_placed_at_scoring():
    """Hidden Treasure A/B: a token spent on a refill is out of the game and adds nothing."""
    st = make_state(2)
    collect(st, 0, red_idol=3)
    S.players(st)[0, S.P_TOKEN] = 0
    pstat = score(st)
    assert pstat[0, S.P_SCORE] == 7 and pstat[0, S.P_TOKEN_SCORED_ON] == -1


def test_hand_penalties_tracker_minus_one_leader_minus_three():
    """Scoring: -1 per Tracker and -3 per Leader left in hand; numbers cost nothing."""
    st = make_state(2)
    S.players(st)[:, S.P_TOKEN] = 0
    collect(st, 0, blue_idol=2)
    hand(st, 0, tracker=3, mafia=1, spy=1, number_31=2, number_3=4)
    collect(st, 1, gold=1)
    hand(st, 1, dictator=1)
    pstat = score(st)
    assert pstat[0, S.P_VP_HAND] == -3 - 6 and pstat[0, S.P_SCORE] == 15 - 9
    assert pstat[1, S.P_VP_HAND] == -3 and pstat[1, S.P_SCORE] == 1 - 3


def test_eliminated_in_play_score_zero_and_rank_last():
    """I. Checking / Scoring: an eliminated player cannot win; ties at the top share the win."""
    st = make_state(3)
    S.players(st)[:, S.P_TOKEN] = 0
    collect(st, 0, gold=2)
    collect(st, 1, gold=2)
    S.players(st)[2, S.P_ALIVE] = 0
    S.players(st)[2, S.P_ELIMINATION] = S.ELIM_IN_PLAY
    pstat = score(st)
    assert list(pstat[:, S.P_SCORE]) == [3, 3, 0]
    assert list(pstat[:, S.P_RANK]) == [1, 1, 3] and list(pstat[:, S.P_WON]) == [1, 1, 0]
    assert st[S.S_WINNER] == -1  # shared win
