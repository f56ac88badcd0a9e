"""Chachapoya bots: a random-legal player and a weighted heuristic player.

A bot sees what its seat sees: its own hand, every collection on the table, the discard and
out-of-game piles as they became public, the face-up offer card, and the face-down card only if
it is the start player who placed it. The unknown card is valued against the distribution of
treasure cards no one has seen (deck and the unseen setup discard together).

The heuristic's behaviour is set entirely by a weight vector (bots.toml): styles differ in data.
"""
import numpy as np
from numba import njit

from sim.core import rng as rng_mod
from .cards import hand_size, list_legal_bids, overflowed_type, points_of
from .state import SCALE_X
from .state import (
    AF_PENALTY, AF_ROLE, AF_VALUE, B_JOKER, B_JOKER_KIND, B_KIND, B_N, EFFECT_CURSE, EFFECT_DRAW,
    G_FACE_UP, G_INITIAL_TDECK, G_KNOWER, G_LAST_ROUND, G_N_OFFER, G_N_PLAYERS, G_TDECK_SIZE,
    P_ALIVE, R_PAIR_DRAW, ROLE_DICTATOR, ROLE_MAFIA, ROLE_NUMBER, ROLE_SPY, ROLE_TRACKER,
    TF_COUNT, TF_EFFECT, TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE,
)

BOT_RANDOM = 0
BOT_HEURISTIC = 1
BOT_KIND_NAMES = ("random", "heuristic")

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
    "token_hand",       # use the token to refill when the hand has at most this many cards
    "noise",            # random jitter on every choice (spread of utilities)
    "self_offer",       # start player: weight on the offer's worth to myself
)
(W_GAIN, W_ELIMINATION, W_DRAW_CARD, W_KEEP_POINT, W_KEEP_CARD, W_KEEP_TRACKER, W_KEEP_LEADER,
 W_MU_BASE, W_MU_PUBLIC, W_MU_OPPONENT, W_SIGMA, W_LEADER_SUCCESS, W_SPY_SAFE, W_PAIR_DENY,
 W_PAIR_SAFE, W_SUSPICION, W_RISK, W_BAIT, W_TOKEN_HAND, W_NOISE, W_SELF_OFFER) = range(21)
N_WEIGHTS = len(WEIGHT_NAMES)

LAST_ROUND_SAMPLES = 8


# ------------------------------------------------------------------ valuing treasures
@njit(cache=True)
def collection_points(scale, counts):
    total = 0
    for t in range(counts.shape[0]):
        total += points_of(scale, counts, t)
    return total


@njit(cache=True)
def scale_points(scale, t, c):
    """Points for c cards of type t (past the end of the scale the last entry repeats)."""
    if c <= 0:
        return 0
    if c >= scale.shape[1]:
        c = scale.shape[1] - 1
    return scale[t, c]


@njit(cache=True)
def gain_of(params, counts, cards, n_cards, w):
    """What taking `cards` is worth to a collection: points, the curse's loss, warriors' draws.

    Only the touched types are rescored. Elimination costs every point held plus the bot's
    elimination weight. `counts` is left unchanged.
    """
    treasure, scale = params[0], params[1]
    delta = 0.0
    eliminated = False
    has_curse = False
    draws = 0
    for i in range(n_cards):
        t = cards[i]
        seen_before = False
        for j in range(i):
            if cards[j] == t:
                seen_before = True
        if treasure[t, TF_EFFECT] == EFFECT_DRAW:
            draws += treasure[t, TF_EFFECT_AMOUNT]
        elif treasure[t, TF_EFFECT] == EFFECT_CURSE:
            has_curse = True
        if seen_before:
            continue
        k = 0
        for j in range(i, n_cards):
            if cards[j] == t:
                k += 1
        after = scale_points(scale, t, counts[t] + k)
        if after == SCALE_X:
            eliminated = True
        delta += after - scale_points(scale, t, counts[t])
    if eliminated:
        return -collection_points(scale, counts) - w[W_ELIMINATION]
    if has_curse:
        best = -1
        for u in range(counts.shape[0]):
            if counts[u] > 0 and treasure[u, TF_EFFECT] != EFFECT_CURSE and (
                    best < 0 or treasure[u, TF_VALUE] > treasure[best, TF_VALUE]):
                best = u
        if best >= 0:
            k = 0
            for j in range(n_cards):
                if cards[j] == best:
                    k += 1
            c = counts[best] + k
            delta += scale_points(scale, best, c - 1) - scale_points(scale, best, c)
    return delta + draws * w[W_DRAW_CARD]


@njit(cache=True)
def unseen_treasures(params, state, seat):
    """Treasure cards this seat has not seen: counts minus collections, public losses, visible offer."""
    treasure = params[0]
    g, collected, tout, offer = state[0], state[2], state[6], state[7]
    n_t = treasure.shape[0]
    unseen = np.empty(n_t, np.float64)
    for t in range(n_t):
        n = treasure[t, TF_COUNT] - tout[1, t]
        for p in range(collected.shape[0]):
            n -= collected[p, t]
        unseen[t] = n
    if g[G_FACE_UP] == 1 and g[G_N_OFFER] > 0:
        unseen[offer[0]] -= 1
        if g[G_KNOWER] == seat:
            unseen[offer[1]] -= 1
    return unseen


@njit(cache=True)
def public_worth(params, state, seat, card, w):
    """What one card is worth, on average, to the other players still in play."""
    g, collected, pstat = state[0], state[2], state[9]
    cards = np.empty(1, np.int8)
    cards[0] = card
    total = 0.0
    n = 0
    for p in range(g[G_N_PLAYERS]):
        if p != seat and pstat[p, P_ALIVE] == 1:
            total += gain_of(params, collected[p], cards, 1, w)
            n += 1
    return total / n if n > 0 else 0.0


@njit(cache=True)
def offer_worth(params, state, seat, w):
    """(worth of taking every card, worth of taking the better single card, public worth)."""
    g, collected, offer, rng = state[0], state[2], state[7], state[12]
    mine = collected[seat]
    n_offer = g[G_N_OFFER]
    cards = np.empty(4, np.int8)
    if g[G_FACE_UP] == 1:
        face_up = offer[0]
        cards[0] = face_up
        v_up = gain_of(params, mine, cards, 1, w)
        public = public_worth(params, state, seat, face_up, w)
        if g[G_KNOWER] == seat:
            cards[1] = offer[1]
            v_both = gain_of(params, mine, cards, 2, w)
            cards[0] = offer[1]
            v_down = gain_of(params, mine, cards, 1, w)
            return v_both, max(v_up, v_down), public
        unseen = unseen_treasures(params, state, seat)
        total = unseen.sum()
        v_both = 0.0
        v_down = 0.0
        v_both_sq = 0.0
        if total > 0:
            for t in range(unseen.shape[0]):
                if unseen[t] <= 0:
                    continue
                p = unseen[t] / total
                cards[0] = face_up
                cards[1] = t
                vb = gain_of(params, mine, cards, 2, w)
                cards[0] = t
                vd = gain_of(params, mine, cards, 1, w)
                v_both += p * vb
                v_both_sq += p * vb * vb
                v_down += p * vd
        spread = np.sqrt(max(v_both_sq - v_both * v_both, 0.0))
        doubt = w[W_SUSPICION] * max(v_up, 0.0)
        v_both -= doubt + w[W_RISK] * spread
        v_down -= doubt
        return v_both, max(v_up, v_down), public
    # Last round: every card face down; sample what they might be.
    unseen = unseen_treasures(params, state, seat)
    n_unseen = 0
    for t in range(unseen.shape[0]):
        n_unseen += int(unseen[t])
    if n_unseen < n_offer or n_offer == 0:
        return 0.0, 0.0, 0.0
    pool = np.empty(n_unseen, np.int8)
    k = 0
    for t in range(unseen.shape[0]):
        for _ in range(int(unseen[t])):
            pool[k] = t
            k += 1
    v_all = 0.0
    v_one = 0.0
    for _ in range(LAST_ROUND_SAMPLES):
        for i in range(n_offer):
            j = i + rng_mod.randint(rng, n_unseen - i)
            tmp = pool[i]
            pool[i] = pool[j]
            pool[j] = tmp
            cards[i] = pool[i]
        v_all += gain_of(params, mine, cards, n_offer, w)
        v_one += gain_of(params, mine, cards, 1, w)
    return v_all / LAST_ROUND_SAMPLES, v_one / LAST_ROUND_SAMPLES, 0.0


# ------------------------------------------------------------------ decisions
@njit(cache=True)
def keep_cost(params, state, kind, w):
    """What spending one card of a kind costs: its use later, minus its end-of-game penalty."""
    adventurer = params[2]
    g = state[0]
    left = g[G_TDECK_SIZE] / max(g[G_INITIAL_TDECK], 1)
    role = adventurer[kind, AF_ROLE]
    relief = (1.0 - left) * (-adventurer[kind, AF_PENALTY])
    if role == ROLE_NUMBER:
        return left * (w[W_KEEP_POINT] * adventurer[kind, AF_VALUE] + w[W_KEEP_CARD]) - relief
    if role == ROLE_TRACKER:
        return left * w[W_KEEP_TRACKER] - relief
    return left * w[W_KEEP_LEADER] - relief


@njit(cache=True)
def win_chance(strength, mu, sigma):
    """A cheap S-curve: the chance a bid of this strength wins."""
    x = (strength - mu) / sigma
    return 0.5 + 0.5 * x / (1.0 + abs(x))


@njit(cache=True)
def choose_bid(params, state, seat, kind, w):
    """Bidding: returns (kind, n, joker, joker_kind); kind -1 if the hand holds no legal bid."""
    adventurer, rules = params[2], params[3]
    g, hands, pstat, rng, options = state[0], state[1], state[9], state[12], state[14]
    n_opts = list_legal_bids(params, hands[seat], options)
    if n_opts == 0:
        return -1, 0, 0, -1
    if kind == BOT_RANDOM:
        i = rng_mod.randint(rng, n_opts)
        return options[i, B_KIND], options[i, B_N], options[i, B_JOKER], options[i, B_JOKER_KIND]
    v_all, v_one, public = offer_worth(params, state, seat, w)
    n_opp = 0
    for p in range(g[G_N_PLAYERS]):
        if p != seat and pstat[p, P_ALIVE] == 1:
            n_opp += 1
    mu = w[W_MU_BASE] + w[W_MU_PUBLIC] * max(public, 0.0) + w[W_MU_OPPONENT] * max(n_opp - 1, 0)
    sigma = max(w[W_SIGMA], 1e-6)
    keep = np.empty(adventurer.shape[0], np.float64)
    for a in range(adventurer.shape[0]):
        keep[a] = keep_cost(params, state, a, w) if hands[seat, a] > 0 else 0.0
    best = 0
    best_u = -1e300
    for i in range(n_opts):
        a = options[i, B_KIND]
        n = options[i, B_N]
        role = adventurer[a, AF_ROLE]
        if role == ROLE_NUMBER:
            strength = (n + options[i, B_JOKER]) * adventurer[a, AF_VALUE]
            cost = n * keep[a]
            worth = v_all
            if options[i, B_JOKER] == 1:
                cost += keep[options[i, B_JOKER_KIND]]
                worth = v_one
            u = win_chance(strength, mu, sigma) * worth * w[W_GAIN] - cost
        elif role == ROLE_TRACKER:
            u = (w[W_DRAW_CARD] * rules[R_PAIR_DRAW] + w[W_PAIR_DENY] * max(public, 0.0)
                 + w[W_PAIR_SAFE] * max(-v_all, 0.0) - 2 * keep[a])
        elif role == ROLE_MAFIA:
            u = w[W_LEADER_SUCCESS] * v_all * w[W_GAIN] - keep[a]
        elif role == ROLE_DICTATOR:
            u = w[W_LEADER_SUCCESS] * v_one * w[W_GAIN] - keep[a]
        else:
            u = w[W_SPY_SAFE] * max(-v_all, 0.0) - keep[a]
        u += w[W_NOISE] * (rng_mod.uniform(rng) - 0.5)
        if u > best_u:
            best_u = u
            best = i
    return options[best, B_KIND], options[best, B_N], options[best, B_JOKER], options[best, B_JOKER_KIND]


@njit(cache=True)
def choose_offer(params, state, seat, kind, w, drawn):
    """Start player: which of the three drawn cards goes to the bottom, and which is shown.

    Returns (bottom index, face-up index) into `drawn`.
    """
    rng, collected = state[12], state[2]
    if kind == BOT_RANDOM:
        bottom = rng_mod.randint(rng, 3)
        up = (bottom + 1 + rng_mod.randint(rng, 2)) % 3
        return bottom, up
    public = np.empty(3, np.float64)
    for i in range(3):
        public[i] = public_worth(params, state, seat, drawn[i], w)
    pair = np.empty(2, np.int8)
    best_u = -1e300
    best_bottom = 0
    best_up = 1
    for bottom in range(3):
        pair[0] = drawn[(bottom + 1) % 3]
        pair[1] = drawn[(bottom + 2) % 3]
        mine = gain_of(params, collected[seat], pair, 2, w)
        for j in range(2):
            up = (bottom + 1 + j) % 3
            down = (bottom + 2 - j) % 3
            u = (w[W_SELF_OFFER] * mine + w[W_BAIT] * (public[up] - public[down])
                 + w[W_NOISE] * (rng_mod.uniform(rng) - 0.5))
            if u > best_u:
                best_u = u
                best_bottom = bottom
                best_up = up
    return best_bottom, best_up


@njit(cache=True)
def choose_take(params, state, seat, kind, w):
    """A winner who may take one card (tracker joker, dictator): the offer index to take."""
    g, collected, offer, rng = state[0], state[2], state[7], state[12]
    n_offer = g[G_N_OFFER]
    if kind == BOT_RANDOM or g[G_FACE_UP] == 0:
        return rng_mod.randint(rng, n_offer)
    cards = np.empty(1, np.int8)
    cards[0] = offer[0]
    v_up = gain_of(params, collected[seat], cards, 1, w)
    if g[G_KNOWER] == seat:
        cards[0] = offer[1]
        v_down = gain_of(params, collected[seat], cards, 1, w)
    else:
        unseen = unseen_treasures(params, state, seat)
        total = unseen.sum()
        v_down = 0.0
        for t in range(unseen.shape[0]):
            if unseen[t] > 0:
                cards[0] = t
                v_down += unseen[t] / total * gain_of(params, collected[seat], cards, 1, w)
        v_down -= w[W_SUSPICION] * max(v_up, 0.0)
    return 0 if v_up >= v_down else 1


@njit(cache=True)
def choose_token_refill(params, state, seat, kind, w):
    """Hidden Treasure A: refill the hand now, or keep the token for the end."""
    rng, hands = state[12], state[1]
    if kind == BOT_RANDOM:
        return rng_mod.randint(rng, 2) == 1
    return hand_size(hands, seat) <= w[W_TOKEN_HAND]


@njit(cache=True)
def choose_token_place(params, state, seat, kind, w):
    """Hidden Treasure B: the sequence the token joins (the heuristic takes the best score)."""
    treasure, scale = params[0], params[1]
    collected, rng = state[2], state[12]
    counts = collected[seat]
    n_targets = 0
    for t in range(counts.shape[0]):
        if counts[t] > 0 and treasure[t, TF_TOKEN_OK] == 1:
            n_targets += 1
    if kind == BOT_RANDOM:
        pick = rng_mod.randint(rng, n_targets)
        for t in range(counts.shape[0]):
            if counts[t] > 0 and treasure[t, TF_TOKEN_OK] == 1:
                if pick == 0:
                    return t
                pick -= 1
    best = -1
    best_points = 0
    for t in range(counts.shape[0]):
        if counts[t] > 0 and treasure[t, TF_TOKEN_OK] == 1:
            counts[t] += 1
            points = -1_000_000_000 if overflowed_type(scale, counts) >= 0 else collection_points(scale, counts)
            counts[t] -= 1
            if best < 0 or points > best_points:
                best = t
                best_points = points
    return best
