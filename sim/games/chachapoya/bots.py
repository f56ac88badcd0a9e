"""Chachapoya bots: a random-legal player and a weighted heuristic player.

A bot sees what its seat sees: its own hand, every collection on the table, the cards that left
the game in public, and the three treasure cards the start player drew (Gameplay: laid face up
for everyone). Of the two not shown face up, one is offered face down and one went to the bottom:
only the start player knows which, so the others weigh both candidates alike. In the last round
the cards are unseen by all and are valued against the treasures nobody has seen.

The heuristic's behaviour is set entirely by a weight vector (bots.toml): styles differ in data.
A search bot (search.py) decides its bids, offers and takes by rollouts; every other choice of
its seat, and every choice inside its rollouts, is this heuristic with the search bot's weights.
"""

import numpy as np

from sim.core.jit import njit_inline, njit_level, njit_noalloc

from sim.core import rng as rng_mod
from .cards import TRACKER_PAIR, known_hand_size, list_legal_bids, overflowed_type, scale_points
from .state import (
    AF_MAX, AF_PENALTY, AF_ROLE, AF_VALUE, B_JOKER, B_JOKER_KIND, B_KIND, B_N, EFFECT_CURSE, EFFECT_DRAW,
    EFFECT_NONE, S_BURIED, S_FACE_UP, S_GONE_AT, S_INITIAL_TDECK, S_KNOWER, S_N_ADVENTURERS, S_N_OFFER,
    S_N_PLAYERS, S_N_TREASURES, S_OFFER_AT, S_TDECK_SIZE, S_UP_GAINS_READY, P_ALIVE, R_BID_MAX, R_BID_MIN, R_HAND_SIZE, R_PAIR_DRAW,
    R_TOKEN_REFILL_TO, ROLE_DICTATOR, ROLE_MAFIA, S_ADHIDDEN_AT, S_ADISCARD_AT, S_LAST_ROUND, AF_COUNT,
    ROLE_NUMBER, ROLE_TRACKER, SCALE_X, TF_COUNT, TF_EFFECT, TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE,
    FSCR_CHANCE, FSCR_KEEP, FSCR_PUBLIC, FSCR_UTILITY, NO_CARD, SCR_DRAWN, SCR_POOL, SCR_UNSEEN, SCR_UP_GAIN,
    af, collection_at, fscratch, hand_at, option_at, rng_of, scratch_at, seat_at, tf,
    TYPE_KINDS, TYPE_PARAMS, TYPE_SEAT_WEIGHTS, TYPE_STATE, P_POINTS, UNCOUNTED,
)

BOT_RANDOM = 0
BOT_HEURISTIC = 1
BOT_SEARCH = 2  # search.py; here (and in its rollouts) it plays as the heuristic
BOT_FAST = 3  # the heuristic's choices in law; bids and offers that cannot win draw no noise (fast_bid)
BOT_KIND_NAMES = ("random", "heuristic", "search", "fast")

# Weight vector layout; bots.toml names every entry.
WEIGHT_NAMES = (
    "gain",             # multiplier on the points a bid would win me
    "elimination",      # extra cost of being eliminated, beyond losing my points
    "draw_card",        # value of one adventurer card drawn
    "keep_point",       # cost per point of strength spent (scaled by how much game is left)
    "keep_card",        # cost per card spent (scaled likewise)
    "keep_tracker",     # cost of spending a tracker early in the game
    "keep_leader",      # cost of spending a leader early in the game
    "mu_base",          # strength I expect to need to win an unattractive offer
    "mu_public",        # extra strength needed per point the face-up card is worth to others
    "mu_opponent",      # extra strength needed per opponent beyond the first
    "sigma",            # spread of the winning strength (softness of the win estimate)
    "leader_success",   # chance that a leader I play is the one that resolves
    "spy_safe",         # value of the spy as a sure way not to win, per point of a bad offer
    "pair_deny",        # value of cancelling an offer, per point it is worth to others
    "pair_safe",        # value of cancelling an offer, per point it would cost me
    "suspicion",        # discount on the face-down card per point of an attractive face-up card
    "risk",             # cost per point of spread in the unknown card's worth
    "bait",             # start player: show others a tempting card, hide a bad one
    "refill_card",      # hidden-treasure refill: value of each card it draws (scaled by how much game is left)
    "noise",            # random jitter on every choice (spread of utilities)
    "self_offer",       # start player: weight on the offer's worth to myself
    "token_keep",       # keeping the token: value per point it would add at scoring to my treasures as they stand
    "token_base",       # keeping the token: its least worth early on (the sequences still to come), fading with the game left
    "deny",             # worth of winning or cancelling, per point the face-up card is worth to the leading other player
    "mu_hand",          # extra strength needed per card the fullest other hand holds beyond the starting hand
)
(W_GAIN, W_ELIMINATION, W_DRAW_CARD, W_KEEP_POINT, W_KEEP_CARD, W_KEEP_TRACKER, W_KEEP_LEADER,
 W_MU_BASE, W_MU_PUBLIC, W_MU_OPPONENT, W_SIGMA, W_LEADER_SUCCESS, W_SPY_SAFE, W_PAIR_DENY,
 W_PAIR_SAFE, W_SUSPICION, W_RISK, W_BAIT, W_REFILL_CARD, W_NOISE, W_SELF_OFFER, W_TOKEN_KEEP,
 W_TOKEN_BASE, W_DENY, W_MU_HAND) = range(25)
N_WEIGHTS = len(WEIGHT_NAMES)

LAST_ROUND_SAMPLES = 8
# Counts passed to compiled functions, np.int64 like the codes of state.py (one compiled version)
COIN = np.int64(2)  # rng_mod.randint(rng, COIN) == 1: a fair coin toss
DRAWN = np.int64(3)  # cards the start player draws for the offer (Gameplay)
ARRANGEMENTS = np.int64(6)  # ways to arrange the three drawn cards (offer_choice)
NO_DRAWS = np.int64(0)  # gain_of_general's draw count for cards without the draw effect


# ------------------------------------------------------------------ valuing treasures
@njit_noalloc
def seat_points(params, st, seat):
    """Points of one seat's collection as it stands (an X counts as its sentinel value)."""
    collection = collection_at(st, seat)
    total = 0
    for t in range(st[S_N_TREASURES]):
        total += scale_points(params, t, st[collection + t])
    return total


@njit_noalloc
def known_points(params, st, seat):
    """seat_points of a seat's collection as it stands, summed once between changes: kept in its
    P_POINTS field, which rules.acquire marks UNCOUNTED (collections change only when a bidding
    is carried out), so the bids of a round do not sum the others' collections again."""
    at = seat_at(seat) + P_POINTS
    if st[at] == UNCOUNTED:
        st[at] = seat_points(params, st, seat)
    return st[at]


@njit_inline
def gain_of(params, st, seat, c0, c1, c2, w_elimination, w_draw):
    """What taking up to three cards (c1, c2 may be NO_CARD) is worth to a seat's collection.

    Points on the touched types, the curse's loss of the most valuable earlier card, the
    warriors' draws; elimination costs every point held plus the elimination weight.
    """
    if c2 < 0:
        # the common cases, fast: one or two cards without a curse that do not eliminate, valued
        # as gain_of_general values them (the same sums in the same order)
        e0 = tf(params, c0, TF_EFFECT)
        collection = collection_at(st, seat)
        held = st[collection + c0]
        if c1 < 0:
            after = scale_points(params, c0, held + 1)
            if after == SCALE_X:  # as gain_of_general: every point held, and the elimination weight
                return -known_points(params, st, seat) - w_elimination
            if e0 == EFFECT_NONE:
                return float(after - scale_points(params, c0, held))
            if e0 == EFFECT_DRAW:
                delta = 0.0
                delta += after - scale_points(params, c0, held)
                return delta + np.int64(tf(params, c0, TF_EFFECT_AMOUNT)) * w_draw
        else:
            e1 = tf(params, c1, TF_EFFECT)
            if (e0 == EFFECT_NONE or e0 == EFFECT_DRAW) and (e1 == EFFECT_NONE or e1 == EFFECT_DRAW):
                draws = NO_DRAWS
                if e0 == EFFECT_DRAW:
                    draws += tf(params, c0, TF_EFFECT_AMOUNT)
                if e1 == EFFECT_DRAW:
                    draws += tf(params, c1, TF_EFFECT_AMOUNT)
                if c1 == c0:
                    after = scale_points(params, c0, held + 2)
                    if after != SCALE_X:
                        delta = 0.0
                        delta += after - scale_points(params, c0, held)
                        return delta + draws * w_draw
                else:
                    after = scale_points(params, c0, held + 1)
                    held1 = st[collection + c1]
                    after1 = scale_points(params, c1, held1 + 1)
                    if after != SCALE_X and after1 != SCALE_X:
                        delta = 0.0
                        delta += after - scale_points(params, c0, held)
                        delta += after1 - scale_points(params, c1, held1)
                        return delta + draws * w_draw
    return gain_of_general(params, st, seat, c0, c1, c2, w_elimination, w_draw)


@njit_noalloc
def gain_of_general(params, st, seat, c0, c1, c2, w_elimination, w_draw):
    """gain_of past its common case (one plain card that does not eliminate), kept out of line
    so that the common case is small enough to be compiled into its callers."""
    collection = collection_at(st, seat)
    delta = 0.0
    eliminated = False
    has_curse = False
    draws = 0
    for i in range(3):
        t = c0 if i == 0 else (c1 if i == 1 else c2)
        if t < 0:
            continue
        effect = tf(params, t, TF_EFFECT)
        if effect == EFFECT_DRAW:
            draws += tf(params, t, TF_EFFECT_AMOUNT)
        elif effect == EFFECT_CURSE:
            has_curse = True
        if (i >= 1 and c0 == t) or (i == 2 and c1 == t):
            continue
        k = 1 + (1 if i == 0 and c1 == t else 0) + (1 if i < 2 and c2 == t else 0)
        after = scale_points(params, t, st[collection + t] + k)
        if after == SCALE_X:
            eliminated = True
        delta += after - scale_points(params, t, st[collection + t])
    if eliminated:  # every point held is lost: summed once between changes (known_points)
        return -known_points(params, st, seat) - w_elimination
    if has_curse:
        best = NO_CARD
        for u in range(st[S_N_TREASURES]):
            if st[collection + u] > 0 and tf(params, u, TF_EFFECT) != EFFECT_CURSE and (
                    best < 0 or tf(params, u, TF_VALUE) > tf(params, best, TF_VALUE)):
                best = u
        if best >= 0:
            c = st[collection + best] + (c0 == best) + (c1 == best) + (c2 == best)
            delta += scale_points(params, best, c - 1) - scale_points(params, best, c)
    return delta + draws * w_draw


@njit_noalloc
def public_worth(params, st, seat, card, w):
    """What one card is worth, on average, to the other players still in play."""
    total = 0.0
    n = 0
    for p in range(st[S_N_PLAYERS]):
        if p != seat and st[seat_at(p) + P_ALIVE] == 1:
            total += gain_of(params, st, p, card, NO_CARD, NO_CARD, w[W_ELIMINATION], w[W_DRAW_CARD])
            n += 1
    return total / n if n > 0 else 0.0


@njit_inline
def doubtful(a, b, w):
    """The worth of one of two equally likely cards, shaded towards the worse by suspicion."""
    s = min(max(w[W_SUSPICION], 0.0), 1.0)
    return (1.0 - s) * 0.5 * (a + b) + s * min(a, b) - w[W_RISK] * 0.5 * abs(a - b)


@njit_noalloc
def unseen_treasures(params, st, unseen):
    """Treasure cards not in any collection and not publicly out of the game, into st[unseen + type]."""
    n_players = st[S_N_PLAYERS]
    for t in range(st[S_N_TREASURES]):
        n = tf(params, t, TF_COUNT) - st[st[S_GONE_AT] + t]
        for p in range(n_players):
            n -= st[collection_at(st, p) + t]
        st[unseen + t] = n


@njit_noalloc
def last_round_worth(params, st, seat, w):
    """Last round: (worth of taking all face-down cards, of taking one), by sampling unseen cards."""
    n_offer = st[S_N_OFFER]
    if n_offer == 0:
        return 0.0, 0.0
    n_t = st[S_N_TREASURES]
    unseen = scratch_at(st, SCR_UNSEEN)
    unseen_treasures(params, st, unseen)
    n_unseen = 0
    for t in range(n_t):
        n_unseen += st[unseen + t]
    if n_unseen < n_offer:
        return 0.0, 0.0
    pool = scratch_at(st, SCR_POOL)
    k = 0
    for t in range(n_t):
        for _ in range(st[unseen + t]):
            st[pool + k] = t
            k += 1
    rng = rng_of(st)
    v_all = 0.0
    v_one = 0.0
    for _ in range(LAST_ROUND_SAMPLES):
        rng_mod.draw_to_front(rng, st[pool:pool + n_unseen], n_offer, n_unseen)
        c1 = st[pool + 1] if n_offer > 1 else NO_CARD
        c2 = st[pool + 2] if n_offer > 2 else NO_CARD
        v_all += gain_of(params, st, seat, st[pool], c1, c2, w[W_ELIMINATION], w[W_DRAW_CARD])
        v_one += gain_of(params, st, seat, st[pool], NO_CARD, NO_CARD, w[W_ELIMINATION], w[W_DRAW_CARD])
    return v_all / LAST_ROUND_SAMPLES, v_one / LAST_ROUND_SAMPLES


@njit_inline
def offer_worth(params, st, seat, w):
    """(worth of taking every card, worth of the better single card, face-up card's worth to others)."""
    if st[S_FACE_UP] == 0:
        v_all, v_one = last_round_worth(params, st, seat, w)
        return v_all, v_one, 0.0
    w_e, w_d = w[W_ELIMINATION], w[W_DRAW_CARD]
    up, first_down = st[st[S_OFFER_AT]], st[st[S_OFFER_AT] + 1]
    if st[S_UP_GAINS_READY] == 1:  # during a bidding: the face-up card's gains, computed once for every seat
        v_up = up_card_gain(params, st, seat, up, w_e, w_d)
        public = up_card_public_worth(params, st, seat, up, w_e, w_d)
    else:
        v_up = gain_of(params, st, seat, up, NO_CARD, NO_CARD, w_e, w_d)
        public = public_worth(params, st, seat, up, w)
    if st[S_KNOWER] == seat or st[S_BURIED] < 0:
        v_both = gain_of(params, st, seat, up, first_down, NO_CARD, w_e, w_d)
        v_down = gain_of(params, st, seat, first_down, NO_CARD, NO_CARD, w_e, w_d)
        return v_both, max(v_up, v_down), public
    a, b = first_down, st[S_BURIED]  # equally likely to be the face-down card, as far as I know
    v_both = doubtful(gain_of(params, st, seat, up, a, NO_CARD, w_e, w_d),
                      gain_of(params, st, seat, up, b, NO_CARD, w_e, w_d), w)
    v_down = doubtful(gain_of(params, st, seat, a, NO_CARD, NO_CARD, w_e, w_d),
                      gain_of(params, st, seat, b, NO_CARD, NO_CARD, w_e, w_d), w)
    return v_both, max(v_up, v_down), public


# A bidding's table of the face-up card's gains (scratch row SCR_UP_GAIN, per seat p in play): at
# p the points it adds, at n_players + p how gain_of values it, at 2 * n_players + p the seat's points
GAIN_PLAIN = 0  # gain_of's common case: the points it adds
GAIN_EFFECT = 1  # the points it adds (a curse's loss included), plus its draws times the draw weight
GAIN_ELIMINATES = 2  # it eliminates the seat: minus the seat's points, minus the elimination weight


@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_KINDS})")
def up_card_gains(params, st, bot_kind):
    """Before a bidding with a face-up card: what that card adds to each seat in play, as gain_of
    would compute it before the weights come in (every seat's bot needs it for itself and for the
    others' public worth, and nothing it depends on changes during a bidding). The table holds
    while st[S_UP_GAINS_READY] is 1: rules.collect_bids sets it around its bids only."""
    st[S_UP_GAINS_READY] = 0
    if st[S_FACE_UP] == 0:
        return
    heuristic = False
    for p in range(bot_kind.shape[0]):
        heuristic = heuristic or bot_kind[p] != BOT_RANDOM
    if not heuristic:
        return
    n = st[S_N_PLAYERS]
    row = scratch_at(st, SCR_UP_GAIN)
    up = st[st[S_OFFER_AT]]
    effect = tf(params, up, TF_EFFECT)
    for p in range(n):
        if st[seat_at(p) + P_ALIVE] == 0:
            continue
        collection = collection_at(st, p)
        held = st[collection + up]
        after = scale_points(params, up, held + 1)
        if after == SCALE_X:
            st[row + n + p] = GAIN_ELIMINATES
            st[row + 2 * n + p] = known_points(params, st, p)
            continue
        delta = after - scale_points(params, up, held)
        if effect == EFFECT_NONE:
            st[row + n + p] = GAIN_PLAIN
        else:
            st[row + n + p] = GAIN_EFFECT
            if effect == EFFECT_CURSE:  # gain_of_general's curse loss, for one card
                best = NO_CARD
                for u in range(st[S_N_TREASURES]):
                    if st[collection + u] > 0 and tf(params, u, TF_EFFECT) != EFFECT_CURSE and (
                            best < 0 or tf(params, u, TF_VALUE) > tf(params, best, TF_VALUE)):
                        best = u
                if best >= 0:
                    c = st[collection + best] + (up == best)
                    delta += scale_points(params, best, c - 1) - scale_points(params, best, c)
        st[row + p] = delta
    st[S_UP_GAINS_READY] = 1


@njit_inline
def up_card_gain(params, st, p, up, w_elimination, w_draw):
    """gain_of(params, st, p, up, NO_CARD, NO_CARD, w_elimination, w_draw) from the bidding's table
    (up_card_gains): the same value, to the last bit (gain_of's sums are of small integers)."""
    n = st[S_N_PLAYERS]
    row = scratch_at(st, SCR_UP_GAIN)
    how = st[row + n + p]
    if how == GAIN_ELIMINATES:
        return -st[row + 2 * n + p] - w_elimination
    if how == GAIN_PLAIN:
        return float(st[row + p])
    draws = tf(params, up, TF_EFFECT_AMOUNT) if tf(params, up, TF_EFFECT) == EFFECT_DRAW else 0
    return float(st[row + p]) + draws * w_draw


@njit_noalloc
def up_card_public_worth(params, st, seat, up, w_elimination, w_draw):
    """public_worth of the face-up card from the bidding's table: the same sum in the same order."""
    total = 0.0
    n = 0
    for p in range(st[S_N_PLAYERS]):
        if p != seat and st[seat_at(p) + P_ALIVE] == 1:
            total += up_card_gain(params, st, p, up, w_elimination, w_draw)
            n += 1
    return total / n if n > 0 else 0.0


# ------------------------------------------------------------------ decisions
@njit_noalloc
def keep_costs(params, st, seat, left, w, out):
    """What spending one card of each kind costs: its later use, less its end-of-game penalty."""
    hand = hand_at(st, seat)
    for a in range(st[S_N_ADVENTURERS]):
        if st[hand + a] == 0:
            out[a] = 0.0
            continue
        role = af(params, a, AF_ROLE)
        relief = (1.0 - left) * (-af(params, a, AF_PENALTY))
        if role == ROLE_NUMBER:
            out[a] = left * (w[W_KEEP_POINT] * af(params, a, AF_VALUE) + w[W_KEEP_CARD]) - relief
        elif role == ROLE_TRACKER:
            out[a] = left * w[W_KEEP_TRACKER] - relief
        else:
            out[a] = left * w[W_KEEP_LEADER] - relief


@njit_inline
def win_chance(strength, mu, sigma):
    """A cheap S-curve: the chance a bid of this strength wins."""
    x = (strength - mu) / sigma
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@njit_inline
def win_chances(value, top, mu, sigma, chance):
    """chance[k] = win_chance(k * value, mu, sigma) for k = 1..top: one number kind's bids valued
    once per decision, each the same sum in the same order as win_chance's (so the same bits). The
    divisions of one loop do not wait on each other nor on the bid loop's comparisons: valued
    bid by bid, each bid waited on its two divisions (about a third of heuristic_bid's time)."""
    for k in range(1, top + 1):
        chance[k] = win_chance(k * value, mu, sigma)


@njit_inline
def choose_bid(params, st, seat, kind, w):
    """Bidding: returns (kind, n, joker, joker_kind); kind -1 if the hand holds no legal bid."""
    if kind == BOT_FAST:
        return fast_bid(params, st, seat, w)
    if kind != BOT_RANDOM:
        return heuristic_bid(params, st, seat, w)
    n_opts = list_legal_bids(params, st, seat)
    if n_opts == 0:
        return -1, 0, 0, -1
    at = option_at(st, rng_mod.randint(rng_of(st), n_opts))
    return st[at + B_KIND], st[at + B_N], st[at + B_JOKER], st[at + B_JOKER_KIND]


@njit_noalloc
def any_legal_bid(params, st, hand, joker_kind):
    """Whether list_legal_bids would list at least one bid for the hand at st[hand:]."""
    bid_min, bid_max = params[R_BID_MIN], params[R_BID_MAX]
    for a in range(st[S_N_ADVENTURERS]):
        held = st[hand + a]
        if held == 0:
            continue
        role = af(params, a, AF_ROLE)
        if role == ROLE_TRACKER:
            if held >= 2 and bid_min <= 2:
                return True
            continue
        if min(held, af(params, a, AF_MAX), bid_max) >= max(1, bid_min):
            return True
        if role == ROLE_NUMBER and joker_kind >= 0 and (
                min(held, af(params, a, AF_MAX) - 1, bid_max - 1) >= max(1, bid_min - 1)):
            return True
    return False


@njit_noalloc
def first_legal_bid(params, st, seat):
    """The first bid of list_legal_bids's list (there is one)."""
    list_legal_bids(params, st, seat)
    at = option_at(st, 0)
    return st[at + B_KIND], st[at + B_N], st[at + B_JOKER], st[at + B_JOKER_KIND]


@njit_inline
def keep_cost(params, st, hand, a, left, w):
    """keep_costs for one kind a of the hand at st[hand:]."""
    if st[hand + a] == 0:
        return 0.0
    role = af(params, a, AF_ROLE)
    relief = (1.0 - left) * (-af(params, a, AF_PENALTY))
    if role == ROLE_NUMBER:
        return left * (w[W_KEEP_POINT] * af(params, a, AF_VALUE) + w[W_KEEP_CARD]) - relief
    if role == ROLE_TRACKER:
        return left * w[W_KEEP_TRACKER] - relief
    return left * w[W_KEEP_LEADER] - relief


@njit_noalloc
def bid_utilities(params, st, seat, w, n_opts, utility):
    """The heuristic's utility (before noise) of each of the n_opts legal bids in the state's list.

    Shared by choose_bid and the search, which tries the best few of them by rollouts.
    """
    v_all, v_one, public, mu, sigma = bid_context(params, st, seat, w)
    pair = pair_worth(params, st, seat, w, v_all, public)
    deny = denied_worth(params, st, seat, w)
    keep = fscratch(st, FSCR_KEEP)
    keep_costs(params, st, seat, st[S_TDECK_SIZE] / max(st[S_INITIAL_TDECK], 1), w, keep)
    gain = w[W_GAIN]
    for i in range(n_opts):
        at = option_at(st, i)
        a = st[at + B_KIND]
        role = af(params, a, AF_ROLE)
        if role == ROLE_NUMBER:
            n = st[at + B_N]
            if st[at + B_JOKER] == 1:
                chance = win_chance((n + 1) * af(params, a, AF_VALUE), mu, sigma)
                u = chance * v_one * gain + chance * deny - n * keep[a] - keep[st[at + B_JOKER_KIND]]
            else:
                chance = win_chance(n * af(params, a, AF_VALUE), mu, sigma)
                u = chance * v_all * gain + chance * deny - n * keep[a]
        elif role == ROLE_TRACKER:
            u = pair + deny - 2 * keep[a]
        elif role == ROLE_MAFIA:
            u = w[W_LEADER_SUCCESS] * v_all * gain + w[W_LEADER_SUCCESS] * deny - keep[a]
        elif role == ROLE_DICTATOR:
            u = w[W_LEADER_SUCCESS] * v_one * gain + w[W_LEADER_SUCCESS] * deny - keep[a]
        else:
            u = w[W_SPY_SAFE] * max(-v_all, 0.0) - keep[a]
        utility[i] = u


@njit_noalloc
def offer_choice(i):
    """The i-th of the six ways to arrange three drawn cards: (bottom index, face-up index)."""
    bottom = i // 2
    return bottom, (bottom + 1 + i % 2) % 3


@njit_noalloc
def offer_utilities(params, st, seat, w, utility):
    """The heuristic's utility (before noise) of the six arrangements of the drawn cards (scratch
    row SCR_DRAWN), in offer_choice order."""
    drawn = scratch_at(st, SCR_DRAWN)
    public = fscratch(st, FSCR_PUBLIC)
    for i in range(3):
        public[i] = public_worth(params, st, seat, st[drawn + i], w)
    for bottom in range(3):
        mine = gain_of(params, st, seat, st[drawn + (bottom + 1) % 3], st[drawn + (bottom + 2) % 3], NO_CARD,
                       w[W_ELIMINATION], w[W_DRAW_CARD])
        for j in range(2):
            up = (bottom + 1 + j) % 3
            down = (bottom + 2 - j) % 3
            utility[2 * bottom + j] = w[W_SELF_OFFER] * mine + w[W_BAIT] * (public[up] - public[down])


@njit_level(f"UniTuple(int64, 2)({TYPE_PARAMS}, {TYPE_STATE}, int64, int8, {TYPE_SEAT_WEIGHTS})")
def choose_offer(params, st, seat, kind, w):
    """Start player: which of the three drawn cards (scratch row SCR_DRAWN) goes to the bottom,
    and which is shown. Returns (bottom index, face-up index) into the drawn cards.
    """
    rng = rng_of(st)
    if kind == BOT_RANDOM:
        bottom = rng_mod.randint(rng, DRAWN)
        up = (bottom + 1 + rng_mod.randint(rng, COIN)) % 3
        return bottom, up
    utility = fscratch(st, FSCR_UTILITY)
    offer_utilities(params, st, seat, w, utility)
    floor = -1e300
    if kind == BOT_FAST:
        top = -1e300
        for i in range(ARRANGEMENTS):
            top = max(top, utility[i])
        floor = top - abs(w[W_NOISE])
    best_u = -1e300
    best = np.int64(0)
    for i in range(ARRANGEMENTS):
        if utility[i] < floor:
            continue  # the fast kind: no noise draw can lift it over the best arrangement's
        u = utility[i] + w[W_NOISE] * (rng_mod.uniform(rng) - 0.5)
        if u > best_u:
            best_u = u
            best = i
    return offer_choice(best)


@njit_level(f"int64({TYPE_PARAMS}, {TYPE_STATE}, int64, int8, {TYPE_SEAT_WEIGHTS})")
def choose_take(params, st, seat, kind, w):
    """A winner who may take one card (tracker joker, dictator): the offer index to take."""
    if kind == BOT_RANDOM or st[S_FACE_UP] == 0:
        return rng_mod.randint(rng_of(st), st[S_N_OFFER])
    w_e, w_d = w[W_ELIMINATION], w[W_DRAW_CARD]
    up, down = st[st[S_OFFER_AT]], st[st[S_OFFER_AT] + 1]
    v_up = gain_of(params, st, seat, up, NO_CARD, NO_CARD, w_e, w_d)
    if st[S_KNOWER] == seat or st[S_BURIED] < 0:
        v_down = gain_of(params, st, seat, down, NO_CARD, NO_CARD, w_e, w_d)
    else:
        v_down = doubtful(gain_of(params, st, seat, down, NO_CARD, NO_CARD, w_e, w_d),
                          gain_of(params, st, seat, st[S_BURIED], NO_CARD, NO_CARD, w_e, w_d), w)
    return 0 if v_up >= v_down else 1


@njit_noalloc
def game_left(st):
    """The share of the treasure deck still to come (1 at the start, 0 in the last round): how much
    use a card in hand still has (keep_costs, drawn_card_worth)."""
    if st[S_LAST_ROUND] == 1:
        return 0.0
    return st[S_TDECK_SIZE] / max(st[S_INITIAL_TDECK], 1)


@njit_noalloc
def unseen_penalty(params, st, seat):
    """The mean end-of-game hand penalty (Scoring: -1 a Tracker, -3 a Leader) of the adventurer
    cards this seat has not seen: all of them less its hand and the discards played face up."""
    hand, discard, hidden = hand_at(st, seat), st[S_ADISCARD_AT], st[S_ADHIDDEN_AT]
    n = 0
    total = 0
    for a in range(st[S_N_ADVENTURERS]):
        k = af(params, a, AF_COUNT) - st[hand + a] - (st[discard + a] - st[hidden + a])
        n += k
        total += k * af(params, a, AF_PENALTY)
    return total / n if n > 0 else 0.0


@njit_noalloc
def drawn_card_worth(params, st, seat, w_card):
    """What one adventurer card drawn now is worth: its use in later biddings (w_card, scaled by the
    game left, as keep_costs scales a card's use) and, as the end nears, the hand penalty it may
    cost (the unseen cards' mean). In the last round a drawn card is never played."""
    return card_worth(game_left(st), w_card, unseen_penalty(params, st, seat))


@njit_noalloc
def card_worth(left, w_card, penalty):
    """drawn_card_worth with the game left and the unseen cards' mean penalty given."""
    return left * w_card + (1.0 - left) * penalty


@njit_noalloc
def highest_penalty(params, st):
    """The highest hand penalty of any adventurer kind, or 0: no mean of unseen_penalty exceeds
    it (the seat's unseen cards of each kind are its count less the cards it saw, never fewer
    than none: no card is created or lost)."""
    top = 0
    for a in range(st[S_N_ADVENTURERS]):
        top = max(top, af(params, a, AF_PENALTY))
    return float(top)


@njit_noalloc
def pair_draw_worth(params, st, seat, w):
    """Tracker 2: what drawing the tracker pair's cards is worth (draw_card per card, valued now)."""
    return params[R_PAIR_DRAW] * drawn_card_worth(params, st, seat, w[W_DRAW_CARD])


@njit_noalloc
def choose_pair_draw(params, st, seat, kind, w):
    """Tracker 2: the pair's player "can immediately draw three". The heuristic draws when the
    cards are worth more than nothing (every card is valued alike, so all or none)."""
    if kind == BOT_RANDOM:
        return rng_mod.randint(rng_of(st), COIN) == 1
    return pair_draw_worth(params, st, seat, w) > 0.0


@njit_noalloc
def token_worth(params, st, seat, w):
    """Hidden Treasure B: what the token would add at scoring to the seat's treasures as they stand,
    on the sequence choose_token_place would pick; an X there costs every point plus the
    elimination weight. 0 with no sequence to join (it would go unused)."""
    collection = collection_at(st, seat)
    best = 0.0
    found = False
    for t in range(st[S_N_TREASURES]):
        held = st[collection + t]
        if held > 0 and tf(params, t, TF_TOKEN_OK) == 1:
            after = scale_points(params, t, held + 1)
            if after == SCALE_X:
                worth = -known_points(params, st, seat) - w[W_ELIMINATION]
            else:
                worth = float(after - scale_points(params, t, held))
            if not found or worth > best:
                best = worth
                found = True
    return best


@njit_noalloc
def refill_worth(params, st, seat, w, held):
    """Hidden Treasure A against B: (worth of refilling a hand of `held` cards to eight now,
    worth of keeping the token for scoring).

    The token kept is worth what it would add to the treasures as they stand (token_keep per
    point) or, while the game has far to go, at least token_base (a better sequence may yet
    come): the two are blended by the game left, as keep_costs blends a card's use and penalty.
    So a token that would push every sequence held to an X becomes a liability only late.
    """
    refill = (params[R_TOKEN_REFILL_TO] - held) * drawn_card_worth(params, st, seat, w[W_REFILL_CARD])
    return refill, token_kept_worth(params, st, seat, w)


@njit_noalloc
def token_kept_worth(params, st, seat, w):
    """refill_worth's worth of keeping the token."""
    now = w[W_TOKEN_KEEP] * token_worth(params, st, seat, w)
    left = game_left(st)
    return left * max(w[W_TOKEN_BASE], now) + (1.0 - left) * now


@njit_noalloc
def choose_token_refill(params, st, seat, kind, w, held):
    """Hidden Treasure A: refill the hand of `held` cards now, or keep the token for the end.
    The heuristic refills when the cards are worth more than the token kept (refill_worth).

    The refill's worth grows with the unseen cards' mean penalty (each rounding step is monotone:
    a positive number of cards, a game left of at most 1), so a refill that would not beat the
    token even at highest_penalty is declined without counting the unseen cards (unseen_penalty
    was about 5% of a game's CPU here): the same choice as refill_worth's."""
    if kind == BOT_RANDOM:
        return rng_mod.randint(rng_of(st), COIN) == 1
    keep = token_kept_worth(params, st, seat, w)
    cards = params[R_TOKEN_REFILL_TO] - held
    left = game_left(st)
    if cards > 0 and cards * card_worth(left, w[W_REFILL_CARD], highest_penalty(params, st)) <= keep:
        return False
    return cards * card_worth(left, w[W_REFILL_CARD], unseen_penalty(params, st, seat)) > keep


@njit_noalloc
def choose_token_place(params, st, seat, kind, w):
    """Hidden Treasure B: the sequence the token joins (the heuristic takes the best score)."""
    collection = collection_at(st, seat)
    n_t = st[S_N_TREASURES]
    n_targets = np.int64(0)  # np.int64 from the start, as it is passed on (see state.py)
    for t in range(n_t):
        if st[collection + t] > 0 and tf(params, t, TF_TOKEN_OK) == 1:
            n_targets += 1
    if kind == BOT_RANDOM:
        pick = rng_mod.randint(rng_of(st), n_targets)
        for t in range(n_t):
            if st[collection + t] > 0 and tf(params, t, TF_TOKEN_OK) == 1:
                if pick == 0:
                    return t
                pick -= 1
    best = -1
    best_points = 0
    for t in range(n_t):
        if st[collection + t] > 0 and tf(params, t, TF_TOKEN_OK) == 1:
            st[collection + t] += 1
            points = -1_000_000_000 if overflowed_type(params, st, collection) >= 0 else seat_points(params, st, seat)
            st[collection + t] -= 1
            if best < 0 or points > best_points:
                best = t
                best_points = points
    return best


@njit_inline
def seat_bid_context(params, st, seat, w):
    """What every bid of a seat is valued against: the offer's worth (to all, to one, to the
    others) and the strength expected to win it (mu, sigma). Compiled into heuristic_bid, the
    decision every seat makes every round (bid_context is the level the others call)."""
    v_all, v_one, public = offer_worth(params, st, seat, w)
    n_opp = 0
    for p in range(st[S_N_PLAYERS]):
        if p != seat and st[seat_at(p) + P_ALIVE] == 1:
            n_opp += 1
    mu = w[W_MU_BASE] + w[W_MU_PUBLIC] * max(public, 0.0) + w[W_MU_OPPONENT] * max(n_opp - 1, 0)
    if w[W_MU_HAND] != 0.0:  # only then: the hands are counted for no other use
        mu += w[W_MU_HAND] * (fullest_other_hand(params, st, seat) - params[R_HAND_SIZE])
    sigma = max(w[W_SIGMA], 1e-6)
    return v_all, v_one, public, mu, sigma


@njit_noalloc
def fullest_other_hand(params, st, seat):
    """The most adventurer cards any other seat in play holds (hand sizes are public; Bidding: a
    bid is up to five cards of one hand, so a fuller hand can bid stronger)."""
    most = 0
    for p in range(st[S_N_PLAYERS]):
        if p != seat and st[seat_at(p) + P_ALIVE] == 1:
            most = max(most, known_hand_size(st, p))
    return most


@njit_noalloc
def leader_gain(params, st, seat, w):
    """What the face-up card is worth to the other seat in play with the most points (the one this
    seat must beat; of several tied, the most it is worth to any), 0 in the last round."""
    if st[S_FACE_UP] == 0:
        return 0.0
    w_e, w_d = w[W_ELIMINATION], w[W_DRAW_CARD]
    up = st[st[S_OFFER_AT]]
    top = np.int64(-1)
    worth = 0.0
    for p in range(st[S_N_PLAYERS]):
        if p == seat or st[seat_at(p) + P_ALIVE] == 0:
            continue
        points = known_points(params, st, p)
        if st[S_UP_GAINS_READY] == 1:
            g = up_card_gain(params, st, p, up, w_e, w_d)
        else:
            g = gain_of(params, st, p, up, NO_CARD, NO_CARD, w_e, w_d)
        if top < 0 or points > top:
            top, worth = points, g
        elif points == top:
            worth = max(worth, g)
    return worth


@njit_noalloc
def denied_worth(params, st, seat, w):
    """What taking the offer away keeps from the leading other player (leader_gain, the deny
    weight per point; never below 0). Added, times the win chance, to every bid that can win the
    offer, and in full to a tracker pair, which cancels it. With the weight 0 nothing is read."""
    if w[W_DENY] == 0.0:
        return 0.0
    return w[W_DENY] * max(leader_gain(params, st, seat, w), 0.0)


@njit_level(f"UniTuple(float64, 5)({TYPE_PARAMS}, {TYPE_STATE}, int64, {TYPE_SEAT_WEIGHTS})")
def bid_context(params, st, seat, w):
    """seat_bid_context, compiled once (fast_bid and the search's bid_utilities call it)."""
    return seat_bid_context(params, st, seat, w)


@njit_noalloc
def pair_worth(params, st, seat, w, v_all, public):
    """The value of cancelling the offer with a tracker pair (bid_context's v_all and public).
    Apart from bid_context: most hands hold no pair, and the pair's draw (unseen_penalty's loop
    over the kinds) was a tenth of a game's CPU when it was valued for every bid."""
    # the pair's draw counts at what the bot will make of it: declined (0) when it is worth less
    return (max(pair_draw_worth(params, st, seat, w), 0.0) + w[W_PAIR_DENY] * max(public, 0.0)
            + w[W_PAIR_SAFE] * max(-v_all, 0.0))


@njit_level(f"UniTuple(int64, 4)({TYPE_PARAMS}, {TYPE_STATE}, int64, {TYPE_SEAT_WEIGHTS})")
def heuristic_bid(params, st, seat, w):
    """choose_bid of a heuristic: the legal bid of best utility (bid_utilities) plus noise.

    One pass over the hand instead of listing the legal bids and then valuing the list: the bids
    come in list_legal_bids's order, each valued as bid_utilities values it and given its noise
    draw in that order, so the choice and the random stream are those of the listed version
    (tests/test_chachapoya_bots.py compares the two).
    """
    n_a = st[S_N_ADVENTURERS]
    hand = hand_at(st, seat)
    bid_min, bid_max = params[R_BID_MIN], params[R_BID_MAX]
    joker_kind = NO_CARD
    for a in range(n_a):
        if af(params, a, AF_ROLE) == ROLE_TRACKER and st[hand + a] >= 1:
            joker_kind = a
            break
    if not any_legal_bid(params, st, hand, joker_kind):
        return -1, 0, 0, -1  # as list_legal_bids finding none: no value computed, no draw
    v_all, v_one, public, mu, sigma = seat_bid_context(params, st, seat, w)
    deny = denied_worth(params, st, seat, w)
    left = st[S_TDECK_SIZE] / max(st[S_INITIAL_TDECK], 1)
    gain = w[W_GAIN]
    keep_joker = keep_cost(params, st, hand, joker_kind, left, w) if joker_kind >= 0 else 0.0
    noise = w[W_NOISE]
    # Every number bid is valued: its win chance comes from the kind's table (win_chances, where a
    # count's chance serves both its plain bid and the joker bid one card lower), so a valuation is
    # two products and a sum. A bid whose sure-win bound plus its noise did not beat the best so
    # far used to be skipped (never changing the choice); with the table that test cost more than
    # it saved (issue 38: 891 chances a game computed, against 894 valued bids with the skip).
    chance = fscratch(st, FSCR_CHANCE)
    rng = rng_of(st)
    best_u = -1e300
    best_kind, best_n, best_joker = np.int64(-1), np.int64(0), NO_CARD
    for a in range(n_a):
        held = st[hand + a]
        if held == 0:
            continue
        keep = keep_cost(params, st, hand, a, left, w)
        role = af(params, a, AF_ROLE)
        if role == ROLE_TRACKER:
            if held >= 2 and bid_min <= 2:
                u = pair_worth(params, st, seat, w, v_all, public) + deny - 2 * keep + noise * (rng_mod.uniform(rng) - 0.5)
                if u > best_u:
                    best_u, best_kind, best_n, best_joker = u, a, TRACKER_PAIR, NO_CARD
            continue
        cap = min(held, af(params, a, AF_MAX), bid_max)
        if role == ROLE_NUMBER:
            value = af(params, a, AF_VALUE)
            cap_j = min(held, af(params, a, AF_MAX) - 1, bid_max - 1) if joker_kind >= 0 else 0
            win_chances(value, max(cap, cap_j + 1), mu, sigma, chance)
            for n in range(max(1, bid_min), cap + 1):
                jitter = noise * (rng_mod.uniform(rng) - 0.5)
                u = chance[n] * v_all * gain + chance[n] * deny - n * keep + jitter
                if u > best_u:
                    best_u, best_kind, best_n, best_joker = u, a, n, NO_CARD
            if joker_kind >= 0:
                for n in range(max(1, bid_min - 1), cap_j + 1):
                    jitter = noise * (rng_mod.uniform(rng) - 0.5)
                    u = chance[n + 1] * v_one * gain + chance[n + 1] * deny - n * keep - keep_joker + jitter
                    if u > best_u:
                        best_u, best_kind, best_n, best_joker = u, a, n, joker_kind
            continue
        if role == ROLE_MAFIA:
            u = w[W_LEADER_SUCCESS] * v_all * gain + w[W_LEADER_SUCCESS] * deny - keep
        elif role == ROLE_DICTATOR:
            u = w[W_LEADER_SUCCESS] * v_one * gain + w[W_LEADER_SUCCESS] * deny - keep
        else:
            u = w[W_SPY_SAFE] * max(-v_all, 0.0) - keep
        for n in range(max(1, bid_min), cap + 1):  # a leader's list entries share one utility
            un = u + noise * (rng_mod.uniform(rng) - 0.5)
            if un > best_u:
                best_u, best_kind, best_n, best_joker = un, a, n, NO_CARD
    if best_kind < 0:  # every utility NaN: the listed version keeps the first legal bid
        return first_legal_bid(params, st, seat)
    return best_kind, best_n, 1 if best_joker >= 0 else 0, best_joker


@njit_level(f"UniTuple(int64, 4)({TYPE_PARAMS}, {TYPE_STATE}, int64, {TYPE_SEAT_WEIGHTS})")
def fast_bid(params, st, seat, w):
    """choose_bid of the fast kind: heuristic_bid with every skip made before the noise draw.

    A bid that cannot beat the best so far even with the most noise it could draw (half the noise
    weight) is skipped before its draw, and before its valuation when its sure-win bound already
    fails. The noise it would have drawn could not have changed the choice, and every bid that
    still draws gets a fresh uniform draw, so the chosen bid has heuristic_bid's distribution
    (tests/test_chachapoya_fast.py); the random stream, and so the game, is another.
    """
    n_a = st[S_N_ADVENTURERS]
    hand = hand_at(st, seat)
    bid_min, bid_max = params[R_BID_MIN], params[R_BID_MAX]
    joker_kind = NO_CARD
    for a in range(n_a):
        if af(params, a, AF_ROLE) == ROLE_TRACKER and st[hand + a] >= 1:
            joker_kind = a
            break
    if not any_legal_bid(params, st, hand, joker_kind):
        return -1, 0, 0, -1
    v_all, v_one, public, mu, sigma = bid_context(params, st, seat, w)
    deny = denied_worth(params, st, seat, w)
    left = st[S_TDECK_SIZE] / max(st[S_INITIAL_TDECK], 1)
    gain = w[W_GAIN]
    keep_joker = keep_cost(params, st, hand, joker_kind, left, w) if joker_kind >= 0 else 0.0
    noise = w[W_NOISE]
    reach = 0.5 * abs(noise)  # the most a noise draw can add
    top_all = max(v_all * gain + deny, 0.0) + reach
    top_one = max(v_one * gain + deny, 0.0) + reach
    rng = rng_of(st)
    best_u = -1e300
    best_kind, best_n, best_joker = np.int64(-1), np.int64(0), NO_CARD
    for a in range(n_a):
        held = st[hand + a]
        if held == 0:
            continue
        keep = keep_cost(params, st, hand, a, left, w)
        role = af(params, a, AF_ROLE)
        if role == ROLE_TRACKER:
            if held >= 2 and bid_min <= 2:
                u = pair_worth(params, st, seat, w, v_all, public) + deny - 2 * keep
                if u + reach > best_u:
                    u += noise * (rng_mod.uniform(rng) - 0.5)
                    if u > best_u:
                        best_u, best_kind, best_n, best_joker = u, a, TRACKER_PAIR, NO_CARD
            continue
        cap = min(held, af(params, a, AF_MAX), bid_max)
        if role == ROLE_NUMBER:
            value = af(params, a, AF_VALUE)
            for n in range(max(1, bid_min), cap + 1):
                if top_all - n * keep <= best_u:
                    continue  # even a sure win with the best noise would not beat the best so far
                chance = win_chance(n * value, mu, sigma)
                u = chance * v_all * gain + chance * deny - n * keep
                if u + reach <= best_u:
                    continue
                u += noise * (rng_mod.uniform(rng) - 0.5)
                if u > best_u:
                    best_u, best_kind, best_n, best_joker = u, a, n, NO_CARD
            if joker_kind >= 0:
                cap_j = min(held, af(params, a, AF_MAX) - 1, bid_max - 1)
                for n in range(max(1, bid_min - 1), cap_j + 1):
                    if top_one - n * keep - keep_joker <= best_u:
                        continue
                    chance = win_chance((n + 1) * value, mu, sigma)
                    u = chance * v_one * gain + chance * deny - n * keep - keep_joker
                    if u + reach <= best_u:
                        continue
                    u += noise * (rng_mod.uniform(rng) - 0.5)
                    if u > best_u:
                        best_u, best_kind, best_n, best_joker = u, a, n, joker_kind
            continue
        if role == ROLE_MAFIA:
            u = w[W_LEADER_SUCCESS] * v_all * gain + w[W_LEADER_SUCCESS] * deny - keep
        elif role == ROLE_DICTATOR:
            u = w[W_LEADER_SUCCESS] * v_one * gain + w[W_LEADER_SUCCESS] * deny - keep
        else:
            u = w[W_SPY_SAFE] * max(-v_all, 0.0) - keep
        if u + reach <= best_u:
            continue
        for n in range(max(1, bid_min), cap + 1):  # a leader's list entries share one utility
            un = u + noise * (rng_mod.uniform(rng) - 0.5)
            if un > best_u:
                best_u, best_kind, best_n, best_joker = un, a, n, NO_CARD
    if best_kind < 0:  # every utility NaN: as heuristic_bid, the first legal bid
        return first_legal_bid(params, st, seat)
    return best_kind, best_n, 1 if best_joker >= 0 else 0, best_joker
