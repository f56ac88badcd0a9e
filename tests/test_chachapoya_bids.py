"""Chachapoya rulebook sections "Bidding", "Tracker" and "Leader Cards": which bids are legal."""
import itertools

import numpy as np
import pytest

from chachapoya_helpers import A, ADVENTURER, ENGINE, N_A
from sim.games.chachapoya import state as S
from sim.games.chachapoya.cards import bid_strength, is_legal_bid, list_legal_bids

TRACKER = A["tracker"]


def mk_hand(**counts):
    """A state whose seat 0 holds exactly these cards (the legality helpers read a seat's hand)."""
    st = S.new_state(ENGINE, 2)
    for name, n in counts.items():
        S.hands(st)[0, A[name]] = n
    return st


def legal(h, kind, n, joker=False):
    return bool(is_legal_bid(ENGINE, h, 0, A[kind], n, 1 if joker else 0, TRACKER if joker else -1))


def strength(kind, n, joker=False):
    return int(bid_strength(ENGINE, A[kind], n, 1 if joker else 0))


def options_of(h):
    k = list_legal_bids(ENGINE, h, 0)
    return {(int(o[0]), int(o[1]), int(o[2]), int(o[3])) for o in S.options(h)[:k]}, k


def test_bidding_example_three_nines_and_two_elevens():
    """Bidding: three number 9 cards (27) or two number 11 cards (22) are legal bids."""
    h = mk_hand(number_9=3, number_11=2)
    assert legal(h, "number_9", 3) and strength("number_9", 3) == 27
    assert legal(h, "number_11", 2) and strength("number_11", 2) == 22
    # playing those five cards together is not a bid of one kind: no representation exists,
    # and no single-kind bid may use more cards than the hand holds
    assert not legal(h, "number_9", 4)
    assert not legal(h, "number_11", 3)


def test_bidding_number_17_at_most_two():
    """Bidding: only two number 17 can be played (34 points at most)."""
    h = mk_hand(number_17=4)
    assert legal(h, "number_17", 1) and legal(h, "number_17", 2)
    assert strength("number_17", 2) == 34
    assert not legal(h, "number_17", 3)


def test_bidding_one_to_five_cards():
    """Bidding: any number of cards between one and five."""
    h = mk_hand(number_3=8)
    assert not legal(h, "number_3", 0)
    for n in range(1, 6):
        assert legal(h, "number_3", n)
    assert not legal(h, "number_3", 6)


def test_tracker_joker_counts_as_one_more_card():
    """Tracker 1: a tracker with two number 11 counts as three 11s (22 + 11 = 33)."""
    h = mk_hand(number_11=3, tracker=2)
    assert legal(h, "number_11", 2, joker=True)
    assert strength("number_11", 2, joker=True) == 33


def test_tracker_joker_cannot_exceed_the_kind_maximum():
    """Tracker 1, Note: the maximum of a kind holds even with the tracker (3 x 11 + tracker is
    illegal when three is the most 11s per bid; 2 x 17 + tracker likewise)."""
    assert ADV_MAX("number_11") == 3
    h = mk_hand(number_11=3, number_17=2, tracker=1)
    assert not legal(h, "number_11", 3, joker=True)
    assert not legal(h, "number_17", 2, joker=True)
    assert legal(h, "number_17", 1, joker=True)


def ADV_MAX(kind):
    return int(ADVENTURER[A[kind], S.AF_MAX])


def test_tracker_joker_needs_a_tracker_in_hand_and_only_one():
    """Tracker 1: exactly one tracker joins, and it must be in the hand."""
    h = mk_hand(number_9=2)
    assert not legal(h, "number_9", 2, joker=True)
    h = mk_hand(number_9=2, tracker=1)
    assert legal(h, "number_9", 2, joker=True)
    # the joker field is a flag: a value of 2 (two jokers) is not a legal bid
    assert not is_legal_bid(ENGINE, mk_hand(number_9=1, tracker=2), 0, A["number_9"], 1, 2, TRACKER)


@pytest.mark.parametrize("n", [1, 3])
def test_trackers_alone_only_as_exactly_two(n):
    """Tracker: cannot be played alone, except exactly two together (Tracker 2)."""
    h = mk_hand(tracker=3)
    assert not legal(h, "tracker", n)
    assert legal(h, "tracker", 2)
    assert not legal(mk_hand(tracker=1), "tracker", 2)
    # a tracker is not a joker for another tracker
    assert not is_legal_bid(ENGINE, h, 0, TRACKER, 1, 1, TRACKER)


@pytest.mark.parametrize("leader", ["mafia", "dictator", "spy"])
def test_leaders_are_played_alone(leader):
    """Leader Cards: a leader is a bid of its own - one card, no tracker joining it."""
    h = mk_hand(**{leader: 1}, tracker=1, number_9=1)
    assert legal(h, leader, 1)
    assert not legal(h, leader, 1, joker=True)
    assert not legal(mk_hand(**{leader: 2}), leader, 2)
    assert strength(leader, 1) == 0  # a leader has no number value


def test_list_legal_bids_example_hand():
    """Bidding/Tracker: the full option list of a hand holding 11s, trackers and the spy."""
    h = mk_hand(number_11=3, tracker=2, spy=1)
    opts, k = options_of(h)
    eleven, spy = A["number_11"], A["spy"]
    expected = {
        (eleven, 1, 0, -1), (eleven, 2, 0, -1), (eleven, 3, 0, -1),
        (eleven, 1, 1, TRACKER), (eleven, 2, 1, TRACKER),
        (TRACKER, 2, 0, -1),
        (spy, 1, 0, -1),
    }
    assert opts == expected and k == len(expected)


@pytest.mark.parametrize("seed", range(25))
def test_list_legal_bids_agrees_with_is_legal_bid(seed):
    """Bidding: the enumerated options are exactly the legal bids (no duplicates)."""
    rs = np.random.default_rng(seed)
    h = mk_hand()
    for a in rs.choice(N_A, size=rs.integers(1, 12)):
        S.hands(h)[0, a] += 1
    opts, k = options_of(h)
    assert len(opts) == k
    brute = set()
    for a, n, joker in itertools.product(range(N_A), range(0, 7), (0, 1)):
        jk = TRACKER if joker else -1
        if is_legal_bid(ENGINE, h, 0, a, n, joker, jk):
            brute.add((a, n, joker, jk))
    assert opts == brute
    for a, n, joker, _ in opts:  # nothing beyond five cards, nothing beyond the kind's max
        assert n + joker <= 5
        if ADVENTURER[a, S.AF_ROLE] != S.ROLE_TRACKER:
            assert n + joker <= ADVENTURER[a, S.AF_MAX]
