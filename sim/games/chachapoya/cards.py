"""What cards are worth and which bids are legal: pure helpers shared by the rules and the bots.

A hand or a collection is read where it lies in the state array: st[at + kind] or st[at + type]
(state.hand_at, state.collection_at, or a scratch row holding a collection with a token added).
"""

import numpy as np

from sim.core.jit import njit_noalloc

from .state import (
    AF_MAX, AF_ROLE, AF_VALUE, B_JOKER, B_JOKER_KIND, B_KIND, B_N, R_BID_MAX, R_BID_MIN, ROLE_NUMBER,
    ROLE_TRACKER, SCALE_X, S_N_ADVENTURERS, S_N_TREASURES, NO_CARD,
    H_SCALE_AT, H_SCALE_WIDTH, P_HAND_CARDS, UNCOUNTED, af, hand_at, option_at, seat_at,
)


TRACKER_PAIR = np.int64(2)  # Tracker 2: two trackers played together


@njit_noalloc
def bid_strength(params, kind, n, joker):
    """Bidding: the sum of the cards' values; a joker tracker counts as one more card (Tracker 1)."""
    if kind < 0 or af(params, kind, AF_ROLE) != ROLE_NUMBER:
        return 0
    return (n + joker) * af(params, kind, AF_VALUE)


@njit_noalloc
def is_legal_bid(params, st, seat, kind, n, joker, joker_kind):
    """Bidding: one kind, 1-5 cards, within the card's maximum; Tracker: one joker, or a pair."""
    if kind < 0 or kind >= st[S_N_ADVENTURERS] or n < 1 or n + joker < params[R_BID_MIN]:
        return False
    hand = hand_at(st, seat)
    role = af(params, kind, AF_ROLE)
    if role == ROLE_TRACKER:
        return joker == 0 and n == 2 and st[hand + kind] >= 2
    if n + joker > params[R_BID_MAX] or n + joker > af(params, kind, AF_MAX) or st[hand + kind] < n:
        return False
    if joker == 1:
        if role != ROLE_NUMBER or joker_kind < 0 or af(params, joker_kind, AF_ROLE) != ROLE_TRACKER:
            return False
        return st[hand + joker_kind] >= 1
    return joker == 0


@njit_noalloc
def list_legal_bids(params, st, seat):
    """Every legal bid of a seat's hand, written into the state's legal-bid list (option_at); returns how many."""
    n_a = st[S_N_ADVENTURERS]
    hand = hand_at(st, seat)
    joker_kind = NO_CARD
    for a in range(n_a):
        if af(params, a, AF_ROLE) == ROLE_TRACKER and st[hand + a] >= 1:
            joker_kind = a
            break
    k = np.int64(0)  # np.int64 from the start, as it is passed on (see state.py)
    for a in range(n_a):
        held = st[hand + a]
        if held == 0:
            continue
        role = af(params, a, AF_ROLE)
        if role == ROLE_TRACKER:
            if held >= 2 and params[R_BID_MIN] <= 2:
                write_option(st, k, a, TRACKER_PAIR, NO_CARD)
                k += 1
            continue
        cap = min(held, af(params, a, AF_MAX), params[R_BID_MAX])
        for n in range(max(1, params[R_BID_MIN]), cap + 1):
            write_option(st, k, a, n, NO_CARD)
            k += 1
        if role == ROLE_NUMBER and joker_kind >= 0:
            cap_j = min(held, af(params, a, AF_MAX) - 1, params[R_BID_MAX] - 1)
            for n in range(max(1, params[R_BID_MIN] - 1), cap_j + 1):
                write_option(st, k, a, n, joker_kind)
                k += 1
    return k


@njit_noalloc
def write_option(st, i, kind, n, joker_kind):
    """The i-th legal bid: n cards of a kind, and a tracker joker of joker_kind unless NO_CARD."""
    at = option_at(st, i)
    st[at + B_KIND] = kind
    st[at + B_N] = n
    st[at + B_JOKER] = 1 if joker_kind >= 0 else 0
    st[at + B_JOKER_KIND] = joker_kind


@njit_noalloc
def scale_points(params, t, c):
    """Points for c cards of type t; past the end of the printed scale the last entry repeats."""
    if c <= 0:
        return 0
    width = params[H_SCALE_WIDTH]
    if c >= width:
        c = width - 1
    return params[params[H_SCALE_AT] + t * width + c]


@njit_noalloc
def points_of(params, st, at, t):
    """Scoring scale lookup for the count of type t in the collection at st[at:]."""
    return scale_points(params, t, st[at + t])


@njit_noalloc
def overflowed_type(params, st, at):
    """I. Checking: the first treasure type whose count in the collection at st[at:] has reached an X, or -1."""
    for t in range(st[S_N_TREASURES]):
        if st[at + t] > 0 and points_of(params, st, at, t) == SCALE_X:
            return t
    return -1


@njit_noalloc
def hand_size(st, seat):
    at = hand_at(st, seat)
    n = 0
    for a in range(st[S_N_ADVENTURERS]):
        n += st[at + a]
    return n


@njit_noalloc
def known_hand_size(st, seat):
    """The cards in a seat's hand, counted once: kept in its P_HAND_CARDS field, which the rules
    keep up to date once counted (draws, bids laid, elimination). The bids read the other seats'
    hands (bots.fullest_other_hand) and the Three Cards Rule each seat's at every round's end."""
    at = seat_at(seat) + P_HAND_CARDS
    if st[at] == UNCOUNTED:
        st[at] = hand_size(st, seat)
    return st[at]
