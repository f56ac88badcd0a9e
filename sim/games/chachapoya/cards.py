"""What cards are worth and which bids are legal: pure helpers shared by the rules and the bots."""

from sim.core.jit import njit_noalloc

from .state import (
    AF_MAX, AF_ROLE, AF_VALUE, B_JOKER, B_JOKER_KIND, B_KIND, B_N, R_BID_MAX, R_BID_MIN, ROLE_NUMBER,
    ROLE_TRACKER, SCALE_X,
    H_ADVENTURERS, H_SCALE_AT, H_SCALE_WIDTH, af,
)


@njit_noalloc
def bid_strength(params, kind, n, joker):
    """Bidding: the sum of the cards' values; a joker tracker counts as one more card (Tracker 1)."""
    if kind < 0 or af(params, kind, AF_ROLE) != ROLE_NUMBER:
        return 0
    return (n + joker) * af(params, kind, AF_VALUE)


@njit_noalloc
def is_legal_bid(params, hand, kind, n, joker, joker_kind):
    """Bidding: one kind, 1-5 cards, within the card's maximum; Tracker: one joker, or a pair."""
    if kind < 0 or kind >= params[H_ADVENTURERS] or n < 1 or n + joker < params[R_BID_MIN]:
        return False
    role = af(params, kind, AF_ROLE)
    if role == ROLE_TRACKER:
        return joker == 0 and n == 2 and hand[kind] >= 2
    if n + joker > params[R_BID_MAX] or n + joker > af(params, kind, AF_MAX) or hand[kind] < n:
        return False
    if joker == 1:
        if role != ROLE_NUMBER or joker_kind < 0 or af(params, joker_kind, AF_ROLE) != ROLE_TRACKER:
            return False
        return hand[joker_kind] >= 1
    return joker == 0


@njit_noalloc
def list_legal_bids(params, hand, options):
    """Every legal bid of a hand, written into options[:, B_*]; returns how many."""
    n_a = params[H_ADVENTURERS]
    joker_kind = -1
    for a in range(n_a):
        if af(params, a, AF_ROLE) == ROLE_TRACKER and hand[a] >= 1:
            joker_kind = a
            break
    k = 0
    for a in range(n_a):
        if hand[a] == 0:
            continue
        role = af(params, a, AF_ROLE)
        if role == ROLE_TRACKER:
            if hand[a] >= 2 and params[R_BID_MIN] <= 2:
                options[k, B_KIND] = a
                options[k, B_N] = 2
                options[k, B_JOKER] = 0
                options[k, B_JOKER_KIND] = -1
                k += 1
            continue
        cap = min(hand[a], af(params, a, AF_MAX), params[R_BID_MAX])
        for n in range(max(1, params[R_BID_MIN]), cap + 1):
            options[k, B_KIND] = a
            options[k, B_N] = n
            options[k, B_JOKER] = 0
            options[k, B_JOKER_KIND] = -1
            k += 1
        if role == ROLE_NUMBER and joker_kind >= 0:
            cap_j = min(hand[a], af(params, a, AF_MAX) - 1, params[R_BID_MAX] - 1)
            for n in range(max(1, params[R_BID_MIN] - 1), cap_j + 1):
                options[k, B_KIND] = a
                options[k, B_N] = n
                options[k, B_JOKER] = 1
                options[k, B_JOKER_KIND] = joker_kind
                k += 1
    return k


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
def points_of(params, counts, t):
    """Scoring scale lookup for the count of type t in a collection."""
    return scale_points(params, t, counts[t])


@njit_noalloc
def overflowed_type(params, counts):
    """I. Checking: the first treasure type whose count has reached an X, or -1."""
    for t in range(counts.shape[0]):
        if counts[t] > 0 and points_of(params, counts, t) == SCALE_X:
            return t
    return -1


@njit_noalloc
def hand_size(hands, seat):
    n = 0
    for a in range(hands.shape[1]):
        n += hands[seat, a]
    return n
