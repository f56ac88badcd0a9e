"""The Chachapoya forward model: setup, rounds of bidding, their resolution, and scoring.

Section names in docstrings refer to ../shared/rules/chachapoya.md. Every function works on the
parameter array `params`, the state array `st` and the replay log `log` laid out in state.py;
decisions are asked of the bots through bots.py, which see only what their seat may see. The
seats' bots come as `bot_kind[seat]` and `bot_w[seat]`.
"""
import numpy as np
from numba import njit

from sim.core.eventlog import append_event
from sim.core.jit import njit_inline, njit_level, njit_noalloc

from sim.core import rng as rng_mod
from .state import (
    AF_COUNT, AF_PENALTY, AF_ROLE, B_JOKER, B_JOKER_KIND, B_KIND, B_N, N_B,
    EFFECT_CURSE, EFFECT_DRAW, ELIM_AT_SCORING, ELIM_IN_PLAY, END_ALL_ELIMINATED, END_DECK,
    END_LAST_STANDING, END_ROUND_LIMIT, END_STALEMATE, ERR_ADVENTURERS, ERR_ILLEGAL_BID, ERR_NEGATIVE,
    ERR_TOKENS, ERR_TREASURES, S_ADECK_AT, S_ADECK_SIZE, S_ADHIDDEN_AT, S_ADISCARD_AT, S_BOXED_AT,
    S_BURIED, S_END_REASON, S_ERROR, S_FACE_UP, S_GONE_AT, S_IDLE_ROUNDS, S_INITIAL_TDECK, S_KNOWER,
    S_LAST_ROUND, S_LEADER_CLASHES, S_LOG_N, S_N_ADVENTURERS, S_N_OFFER, S_N_PLAYERS, S_N_TREASURES,
    S_NO_WINNER_ROUNDS, S_OFFER_AT, S_OFFER_LEN, S_PAIR_CANCELS, S_UP_GAINS_READY, S_REBID, S_ROUND, S_START,
    S_TDECK_AT, S_TDECK_HEAD, S_TDECK_LEN, S_TDECK_SIZE, S_WINNER, K_END, K_OPENING, K_PLAYED, P_ALIVE,
    P_BIDS_WON, P_CARDS_DRAWN, P_ELIM_ROUND, P_ELIMINATION, P_LOST_TO_CURSE, P_PAIR_CANCELS, P_PAIR_DECLINED,
    P_HAND_CARDS, P_POINTS, UNCOUNTED,
    P_RANK, P_SCORE, P_TOKEN, P_TOKEN_REFILL, P_TOKEN_SCORED_ON, P_UNRESOLVED_LEADERS,
    P_VP_HAND, P_VP_UNRESOLVED, P_WON, R_CLASH_REBID, R_DISCARD_BASE, R_HAND_SIZE,
    R_LAST_ROUND_DECK, R_MIN_HAND, R_OFFER_DRAW, R_PAIR_DRAW, R_ROUND_DRAW, R_ROUND_LIMIT,
    R_STALEMATE_ROUNDS, R_TOKEN_REFILL_TO, R_TOKENS, R_UNRESOLVED_LEADER, ROLE_DICTATOR, ROLE_MAFIA,
    ROLE_NUMBER, ROLE_SPY, ROLE_TRACKER, T_GOT, T_LOST, T_VP, TF_COUNT, TF_EFFECT,
    TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE, SCR_COUNTS, SCR_DRAWN, SCR_EARLIER, SCR_TAKEN,
    SCR_STRENGTH, SCR_UNRESOLVED, NO_CARD, N_AF, N_TF, H_ADVENTURER_AT, H_ADVENTURERS, H_TREASURES, TREASURE_AT,
    af, bid_at, collection_at, hand_at, kind_stat_at, new_state, rng_of, scratch_at, seat_at, tdeck_slot,
    tf, treasure_stat_at, TYPE_KINDS, TYPE_LOG, TYPE_PARAMS, TYPE_STATE, TYPE_WEIGHTS,
)
from . import bots
from .cards import (
    bid_strength, is_legal_bid, known_hand_size, overflowed_type, points_of,
)

# ---- replay log events: log[i] = (event, a, b, c, d, e, f); np.int64 like the codes of state.py,
# so that log_event is compiled once
UNUSED = np.int64(0)  # an event's field that the event does not use
EV_ROUND = np.int64(1)  # round, start, treasure deck size, rebid of the same offer
EV_OFFER_DRAWN = np.int64(2)  # start, card, card, card
EV_OFFER = np.int64(3)  # start, face-up, face-down, bottomed
EV_LAST_OFFER = np.int64(4)  # n cards, card, card, card (all face down)
EV_BID = np.int64(5)  # seat, kind, n cards, joker (1/0), strength
EV_PAIR_CANCEL = np.int64(6)  # seat, draws the pair's cards (1/0)
EV_PAIRS_KNOCKED = np.int64(7)  # number of pairs
EV_LEADER_RESOLVED = np.int64(8)  # seat, kind
EV_LEADER_UNRESOLVED = np.int64(9)  # seat, kind, penalty
EV_CLASH = np.int64(10)
EV_WINNER = np.int64(11)  # seat, strength, takes one (1/0)
EV_NO_WINNER = np.int64(12)
EV_TAKE = np.int64(13)  # seat, treasure type
EV_RETURN = np.int64(14)  # treasure type (to the bottom of the deck)
EV_ELIMINATED = np.int64(15)  # seat, stage (ELIM_*), treasure type that reached X
EV_CURSE_LOSS = np.int64(16)  # seat, treasure type lost
EV_DRAW = np.int64(17)  # seat, cards drawn, reason (DRAW_*)
EV_RESHUFFLE = np.int64(18)  # cards reshuffled
EV_TOKEN_PLACED = np.int64(19)  # seat, treasure type
EV_FINAL = np.int64(20)  # seat, score, rank, eliminated
EV_END = np.int64(21)  # end reason
EV_TIE_KNOCKOUT = np.int64(22)  # strength, number of players knocked out

DRAW_ROUND = np.int64(0)
DRAW_FILL = np.int64(1)
DRAW_TOKEN = np.int64(2)
DRAW_EFFECT = np.int64(3)
DRAW_PAIR = np.int64(4)
DRAW_DEAL = np.int64(5)


@njit_noalloc
def log_event(st, log, ev, a, b, c, d, e, f):
    """Append an event for `sim replay`; a no-op unless the log was made with logging on.

    Every argument is passed at every call (no defaults): each combination of omitted arguments
    would compile another version."""
    append_event(st, S_LOG_N, log, ev, a, b, c, d, e, f)


# ------------------------------------------------------------------ decks
@njit_noalloc
def treasure_draw(st):
    slot = st[S_TDECK_AT] + st[S_TDECK_HEAD]
    card = st[slot]
    st[slot] = -1
    st[S_TDECK_HEAD] = (st[S_TDECK_HEAD] + 1) % st[S_TDECK_LEN]
    st[S_TDECK_SIZE] -= 1
    return card


@njit_noalloc
def treasure_to_bottom(st, log, card):
    """Cards go back face down to the bottom of the treasure deck (Gameplay; III; Tracker)."""
    st[tdeck_slot(st, st[S_TDECK_SIZE])] = card
    st[S_TDECK_SIZE] += 1
    log_event(st, log, EV_RETURN, card, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)


@njit_noalloc
def reshuffle_adventurers(st, log):
    """An empty adventurer deck is rebuilt from the shuffled discard pile (not printed; README).

    The unseen discards (S_ADHIDDEN_AT: the cards nobody saw) empty with the pile: the new deck is unseen.
    """
    deck, discard, hidden = st[S_ADECK_AT], st[S_ADISCARD_AT], st[S_ADHIDDEN_AT]
    n = np.int64(0)  # np.int64 from the start, as it is passed on (see UNUSED)
    for a in range(st[S_N_ADVENTURERS]):
        for _ in range(st[discard + a]):
            st[deck + n] = a
            n += 1
        st[discard + a] = 0
        st[hidden + a] = 0
    rng_mod.shuffle(rng_of(st), st[deck:deck + n], n)
    st[S_ADECK_SIZE] = n
    log_event(st, log, EV_RESHUFFLE, n, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)


@njit_noalloc
def draw_adventurers(st, log, seat, n, reason):
    """Draw n adventurer cards into a hand; returns how many could be drawn."""
    hand = hand_at(st, seat)
    deck = st[S_ADECK_AT]
    drawn = np.int64(0)
    for _ in range(n):
        if st[S_ADECK_SIZE] == 0:
            reshuffle_adventurers(st, log)
            if st[S_ADECK_SIZE] == 0:
                break
        st[S_ADECK_SIZE] -= 1
        top = deck + st[S_ADECK_SIZE]
        st[hand + st[top]] += 1
        st[top] = -1
        drawn += 1
    st[seat_at(seat) + P_CARDS_DRAWN] += drawn
    if st[seat_at(seat) + P_HAND_CARDS] != UNCOUNTED:
        st[seat_at(seat) + P_HAND_CARDS] += drawn
    if drawn > 0:
        log_event(st, log, EV_DRAW, seat, drawn, reason, UNUSED, UNUSED, UNUSED)
    return drawn


# ------------------------------------------------------------------ setup
@njit_noalloc
def lay_out_deck(st, deck, params, count_at, n_kinds, row_width):
    """Every card of every kind into the deck at st[deck:], kind by kind (params[count_at + kind *
    row_width] cards of each: a table's count field); returns how many."""
    n = 0
    for kind in range(n_kinds):
        for _ in range(params[count_at + kind * row_width]):
            st[deck + n] = kind
            n += 1
    return n


@njit_noalloc
def setup(params, st, log):
    """Setup: shuffle both decks, discard treasures unseen by player count, deal hands, tokens."""
    n_players = st[S_N_PLAYERS]
    tdeck, adeck = st[S_TDECK_AT], st[S_ADECK_AT]
    n = lay_out_deck(st, tdeck, params, TREASURE_AT + TF_COUNT, st[S_N_TREASURES], N_TF)
    rng_mod.shuffle(rng_of(st), st[tdeck:tdeck + n], n)
    n_discard = min(params[R_DISCARD_BASE + n_players], n)
    for i in range(n_discard):
        st[st[S_BOXED_AT] + st[tdeck + i]] += 1
        st[tdeck + i] = -1
    st[S_TDECK_HEAD] = n_discard % st[S_TDECK_LEN]
    st[S_TDECK_SIZE] = n - n_discard
    st[S_INITIAL_TDECK] = n - n_discard

    m = lay_out_deck(st, adeck, params, params[H_ADVENTURER_AT] + AF_COUNT, st[S_N_ADVENTURERS], N_AF)
    rng_mod.shuffle(rng_of(st), st[adeck:adeck + m], m)
    st[S_ADECK_SIZE] = m
    for p in range(n_players):
        at = seat_at(p)
        st[at + P_ALIVE] = 1
        st[at + P_TOKEN] = params[R_TOKENS]
        st[at + P_TOKEN_SCORED_ON] = -1
        st[at + P_RANK] = 0
        draw_adventurers(st, log, p, np.int64(params[R_HAND_SIZE]), DRAW_DEAL)
        st[at + P_CARDS_DRAWN] = 0
        hand, opening = hand_at(st, p), kind_stat_at(st, p, K_OPENING)
        for a in range(st[S_N_ADVENTURERS]):
            st[opening + a] = st[hand + a]
    st[S_START] = 0  # seat 0 starts, so seat numbers are turn-order positions
    st[S_KNOWER] = -1
    st[S_WINNER] = -1


# ------------------------------------------------------------------ offer
@njit_inline
def prepare_offer(params, st, log, bot_kind, bot_w):
    """Gameplay: the start player draws three, bottoms one secretly, shows one, hides one.

    Last Round: with two or three cards left they are all offered face down, unseen by anyone.
    """
    if draw_offer(params, st, log):
        start = st[S_START]
        bottom, face_up = bots.choose_offer(params, st, start, bot_kind[start], bot_w[start])
        arrange_offer(st, log, bottom, face_up)


@njit_noalloc
def draw_offer(params, st, log):
    """prepare_offer up to the start player's choice: returns True when the three drawn cards
    (scratch row SCR_DRAWN) wait to be arranged, False when the last round's cards are offered."""
    offer = st[S_OFFER_AT]
    for i in range(st[S_OFFER_LEN]):
        st[offer + i] = -1
    if st[S_TDECK_SIZE] <= params[R_LAST_ROUND_DECK]:
        st[S_LAST_ROUND] = 1
        n = st[S_TDECK_SIZE]
        for i in range(n):
            st[offer + i] = treasure_draw(st)
        st[S_N_OFFER] = n
        st[S_FACE_UP] = 0
        st[S_KNOWER] = -1
        st[S_BURIED] = -1
        log_event(st, log, EV_LAST_OFFER, n, st[offer], st[offer + 1], st[offer + 2], UNUSED, UNUSED)
        return False
    drawn = scratch_at(st, SCR_DRAWN)
    for i in range(min(params[R_OFFER_DRAW], 3)):
        st[drawn + i] = treasure_draw(st)
    log_event(st, log, EV_OFFER_DRAWN, st[S_START], st[drawn], st[drawn + 1], st[drawn + 2], UNUSED, UNUSED)
    return True


@njit_noalloc
def arrange_offer(st, log, bottom, face_up):
    """The start player's choice: drawn card `bottom` to the bottom, `face_up` shown, the third face down."""
    offer, drawn = st[S_OFFER_AT], scratch_at(st, SCR_DRAWN)
    buried = st[drawn + bottom]
    treasure_to_bottom(st, log, buried)
    st[offer] = st[drawn + face_up]
    st[offer + 1] = st[drawn + 3 - bottom - face_up]
    st[S_N_OFFER] = 2
    st[S_FACE_UP] = 1
    st[S_KNOWER] = st[S_START]
    st[S_BURIED] = buried
    log_event(st, log, EV_OFFER, st[S_START], st[offer], st[offer + 1], buried, UNUSED, UNUSED)


# ------------------------------------------------------------------ bidding
@njit_inline
def place_bid(params, st, log, seat, kind, n, joker, joker_kind):
    """Move the bid's cards from the hand to the table."""
    bid = bid_at(seat)
    st[bid + B_KIND] = kind
    st[bid + B_N] = n
    st[bid + B_JOKER] = joker
    st[bid + B_JOKER_KIND] = joker_kind
    if kind < 0:
        return
    hand, played = hand_at(st, seat), kind_stat_at(st, seat, K_PLAYED)
    st[hand + kind] -= n
    st[played + kind] += n
    if joker == 1:
        st[hand + joker_kind] -= 1
        st[played + joker_kind] += 1
    if st[seat_at(seat) + P_HAND_CARDS] != UNCOUNTED:
        st[seat_at(seat) + P_HAND_CARDS] -= n + joker
    log_event(st, log, EV_BID, seat, kind, n, joker, bid_strength(params, kind, n, joker), UNUSED)


@njit_inline
def collect_bids(params, st, log, bot_kind, bot_w):
    """Bidding: from the start player clockwise each player in play lays a bid face down."""
    n_players = st[S_N_PLAYERS]
    bots.up_card_gains(params, st, bot_kind)
    for i in range(n_players):
        seat = (st[S_START] + i) % n_players
        st[bid_at(seat) + B_KIND] = -1
        if st[seat_at(seat) + P_ALIVE] == 0:
            continue
        kind, n, joker, joker_kind = bots.choose_bid(params, st, seat, bot_kind[seat], bot_w[seat])
        lay_bid(params, st, log, seat, kind, n, joker, joker_kind)
    st[S_UP_GAINS_READY] = 0


# chosen[seat, B_KIND] of collect_bids_chosen: the seat's bot decides at its turn
ASK_BOT = np.int64(-2)


@njit_noalloc
def collect_bids_chosen(params, st, log, bot_kind, bot_w, chosen):
    """collect_bids, except that a seat whose chosen[seat, B_KIND] is not ASK_BOT lays that bid.

    The search decides a seat's bid before the bidding starts (bids are laid face down, so its
    seat sees nothing more at its turn) and passes it here, keeping the bidding order of the log.
    """
    n_players = st[S_N_PLAYERS]
    bots.up_card_gains(params, st, bot_kind)
    for i in range(n_players):
        seat = (st[S_START] + i) % n_players
        st[bid_at(seat) + B_KIND] = -1
        if st[seat_at(seat) + P_ALIVE] == 0:
            continue
        if chosen[seat, B_KIND] == ASK_BOT:
            kind, n, joker, joker_kind = bots.choose_bid(params, st, seat, bot_kind[seat], bot_w[seat])
        else:
            kind, n = chosen[seat, B_KIND], chosen[seat, B_N]
            joker, joker_kind = chosen[seat, B_JOKER], chosen[seat, B_JOKER_KIND]
        lay_bid(params, st, log, seat, kind, n, joker, joker_kind)
    st[S_UP_GAINS_READY] = 0


@njit_inline
def lay_bid(params, st, log, seat, kind, n, joker, joker_kind):
    """A chosen bid goes to the table; an illegal one is an engine error (and no bid)."""
    if kind >= 0 and not is_legal_bid(params, st, seat, kind, n, joker, joker_kind):
        st[S_ERROR] = ERR_ILLEGAL_BID + seat
        kind = -1
    place_bid(params, st, log, seat, kind, n, joker, joker_kind)


@njit_noalloc
def unique_extreme(st, strengths, n, highest):
    """Seat with the best strength (st[strengths + seat]) that no one else shares (ties knock each other out).

    Bidding: tied winners knock each other out and the next best wins; Russian Spy: the same
    from the lowest bid upwards. Seats with a negative strength made no number bid. Returns -1
    if every strength is shared.
    """
    best = -1
    for s in range(n):
        value = st[strengths + s]
        if value < 0:
            continue
        shared = False
        for o in range(n):
            if o != s and st[strengths + o] == value:
                shared = True
                break
        if shared:
            continue
        if best < 0 or (highest and value > st[strengths + best]) or (
                not highest and value < st[strengths + best]):
            best = s
    return best


# Outcome codes of resolve_bidding
OUT_NO_WINNER = np.int64(0)
OUT_WIN_ALL = np.int64(1)
OUT_WIN_ONE = np.int64(2)
OUT_PAIR_CANCEL = np.int64(3)
OUT_CLASH = np.int64(4)


@njit(cache=True)
def resolve_bidding(params, bids, start, n_players, unresolved):
    """decide_bidding on bids[seat, B_*] outside a game (tests): a fresh state holds them, and
    unresolved[seat] is set for each seat whose leader did not resolve."""
    st = new_state(params, n_players)
    st[S_START] = start
    for s in range(n_players):
        for f in range(N_B):
            st[bid_at(s) + f] = bids[s, f]
    outcome, seat = decide_bidding(params, st)
    for s in range(n_players):
        unresolved[s] = st[scratch_at(st, SCR_UNRESOLVED) + s] == 1
    return outcome, seat


@njit_noalloc
def decide_bidding(params, st):
    """Decide a bidding from the revealed bids. Returns (outcome, seat).

    Order of precedence (Tracker 2, Leader Cards, Tricky Play, 2 Player Variant):
    1. Exactly one tracker pair cancels the round; several pairs knock each other out.
    2. Otherwise only the last leader in turn order resolves (others lose their power); with two
       players and two leaders, the 2-player rule cancels the bidding for a rebid.
       Mafia takes both cards, the Dictator beats every number and takes one, the Spy makes the
       lowest number bid win.
    3. Otherwise the highest number bid that nobody ties wins.
    A winner who used a tracker joker takes only one card. Scratch row SCR_UNRESOLVED is 1 for
    each seat whose leader did not resolve; row SCR_STRENGTH holds each seat's number-bid strength.
    """
    n_players, start = st[S_N_PLAYERS], st[S_START]
    unresolved, strengths = scratch_at(st, SCR_UNRESOLVED), scratch_at(st, SCR_STRENGTH)
    n_pairs = 0
    pair_seat = NO_CARD
    n_leaders = 0
    last_leader = NO_CARD
    for i in range(n_players):
        s = (start + i) % n_players
        st[unresolved + s] = 0
        st[strengths + s] = -1
        bid = bid_at(s)
        kind = st[bid + B_KIND]
        if kind < 0:
            continue
        role = af(params, kind, AF_ROLE)
        if role == ROLE_TRACKER:
            n_pairs += 1
            pair_seat = s
        elif role == ROLE_NUMBER:
            st[strengths + s] = bid_strength(params, kind, st[bid + B_N], st[bid + B_JOKER])
        else:
            n_leaders += 1
            last_leader = s
    if n_pairs == 1:
        for s in range(n_players):
            if is_leader_bid(params, st, s):
                st[unresolved + s] = 1
        return OUT_PAIR_CANCEL, pair_seat
    if n_leaders > 0:
        for s in range(n_players):
            if s != last_leader and is_leader_bid(params, st, s):
                st[unresolved + s] = 1
        if n_players == 2 and n_leaders == 2 and params[R_CLASH_REBID] == 1:
            st[unresolved + last_leader] = 1
            return OUT_CLASH, -1
        role = af(params, st[bid_at(last_leader) + B_KIND], AF_ROLE)
        if role == ROLE_MAFIA:
            return OUT_WIN_ALL, last_leader
        if role == ROLE_DICTATOR:
            return OUT_WIN_ONE, last_leader
    # the Spy (the one leader left that resolves) makes the lowest number bid win
    winner = unique_extreme(st, strengths, n_players, n_leaders == 0)
    if winner < 0:
        return OUT_NO_WINNER, -1
    if st[bid_at(winner) + B_JOKER] == 1:
        return OUT_WIN_ONE, winner
    return OUT_WIN_ALL, winner


@njit_noalloc
def is_leader_bid(params, st, seat):
    """Whether the seat's bid on the table is a leader (Mafia, Dictator, Spy)."""
    kind = st[bid_at(seat) + B_KIND]
    return kind >= 0 and af(params, kind, AF_ROLE) >= ROLE_MAFIA


@njit_inline
def discard_bids(st):
    """Played adventurer cards go to the discard pile."""
    discard = st[S_ADISCARD_AT]
    for s in range(st[S_N_PLAYERS]):
        bid = bid_at(s)
        kind = st[bid + B_KIND]
        if kind < 0:
            continue
        st[discard + kind] += st[bid + B_N]
        if st[bid + B_JOKER] == 1:
            st[discard + st[bid + B_JOKER_KIND]] += 1
        st[bid + B_KIND] = -1
        st[bid + B_N] = 0
        st[bid + B_JOKER] = 0
        st[bid + B_JOKER_KIND] = -1


# ------------------------------------------------------------------ acquiring treasures
@njit_noalloc
def eliminate(st, log, seat, stage, reason_type):
    """I. Checking: hand to the discard pile, treasures (and token) out of the game.

    The hand goes to the pile unseen: S_ADHIDDEN_AT counts those cards for the search's
    determinisations (search.py), which must not learn them.
    """
    hand, discard, hidden = hand_at(st, seat), st[S_ADISCARD_AT], st[S_ADHIDDEN_AT]
    for a in range(st[S_N_ADVENTURERS]):
        st[discard + a] += st[hand + a]
        st[hidden + a] += st[hand + a]
        st[hand + a] = 0
    collection, gone = collection_at(st, seat), st[S_GONE_AT]
    for t in range(st[S_N_TREASURES]):
        st[gone + t] += st[collection + t]
        st[collection + t] = 0
    at = seat_at(seat)
    st[at + P_HAND_CARDS] = 0
    st[at + P_POINTS] = 0
    st[at + P_ALIVE] = 0
    st[at + P_ELIMINATION] = stage
    st[at + P_ELIM_ROUND] = st[S_ROUND]
    log_event(st, log, EV_ELIMINATED, seat, stage, reason_type, UNUSED, UNUSED, UNUSED)


@njit_noalloc
def most_valuable_previous(params, st, seat, earlier):
    """Curse: the treasure type with the highest card value among earlier rounds' cards
    (st[earlier + type]).

    Curse cards themselves are never taken. Equal card values (none in the printed set) are
    broken in favour of the owner: the type whose loss costs fewest points.
    """
    collection = collection_at(st, seat)
    best = NO_CARD
    best_loss = 0
    for t in range(st[S_N_TREASURES]):
        if st[earlier + t] <= 0 or tf(params, t, TF_EFFECT) == EFFECT_CURSE:
            continue
        before = points_of(params, st, collection, t)
        st[collection + t] -= 1
        loss = before - points_of(params, st, collection, t)
        st[collection + t] += 1
        if best < 0 or tf(params, t, TF_VALUE) > tf(params, best, TF_VALUE) or (
                tf(params, t, TF_VALUE) == tf(params, best, TF_VALUE) and loss < best_loss):
            best = t
            best_loss = loss
    return best


@njit_noalloc
def acquire(params, st, log, seat, cards, n_cards):
    """The winner takes the cards (st[cards + i]): Checking (X), then each Curse, then each
    Grim Warriors draw."""
    collection = collection_at(st, seat)
    st[seat_at(seat) + P_POINTS] = UNCOUNTED  # the points change; a bot that reads them sums them again
    earlier = scratch_at(st, SCR_EARLIER)
    for t in range(st[S_N_TREASURES]):
        st[earlier + t] = st[collection + t]
    got = treasure_stat_at(st, seat, T_GOT)
    for i in range(n_cards):
        t = st[cards + i]
        st[collection + t] += 1
        st[got + t] += 1
        log_event(st, log, EV_TAKE, seat, t, UNUSED, UNUSED, UNUSED, UNUSED)
    over = overflowed_type(params, st, collection)
    if over >= 0:
        eliminate(st, log, seat, ELIM_IN_PLAY, over)
        return
    for i in range(n_cards):
        t = st[cards + i]
        if tf(params, t, TF_EFFECT) == EFFECT_CURSE:
            for _ in range(tf(params, t, TF_EFFECT_AMOUNT)):
                lost = most_valuable_previous(params, st, seat, earlier)
                if lost >= 0:
                    st[earlier + lost] -= 1
                    st[collection + lost] -= 1
                    st[st[S_GONE_AT] + lost] += 1
                    st[treasure_stat_at(st, seat, T_LOST) + lost] += 1
                    st[seat_at(seat) + P_LOST_TO_CURSE] += 1
                    log_event(st, log, EV_CURSE_LOSS, seat, lost, UNUSED, UNUSED, UNUSED, UNUSED)
    for i in range(n_cards):
        t = st[cards + i]
        if tf(params, t, TF_EFFECT) == EFFECT_DRAW:
            draw_adventurers(st, log, seat, np.int64(tf(params, t, TF_EFFECT_AMOUNT)), DRAW_EFFECT)


@njit_inline
def settle_bidding(params, st, log, bot_kind, bot_w, outcome, seat):
    """Carry out a bidding's outcome on the cards on the table (the winner's bot picks a card
    when it may take only one; a tracker pair's player decides whether to draw its cards)."""
    pick = -1
    if outcome == OUT_WIN_ONE:
        pick = bots.choose_take(params, st, seat, bot_kind[seat], bot_w[seat])
    elif outcome == OUT_PAIR_CANCEL:
        pick = PAIR_DRAWS if bots.choose_pair_draw(params, st, seat, bot_kind[seat], bot_w[seat]) else PAIR_DECLINES
    carry_out_bidding(params, st, log, outcome, seat, pick)


# carry_out_bidding's pick for OUT_PAIR_CANCEL: the pair's player draws its cards, or declines them
PAIR_DECLINES = np.int64(0)
PAIR_DRAWS = np.int64(1)


@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, int64, int64, int64)")
def carry_out_bidding(params, st, log, outcome, seat, pick):
    """settle_bidding with the choice made: for OUT_WIN_ONE the offer index the winner takes,
    for OUT_PAIR_CANCEL whether the pair's player draws (PAIR_DRAWS) or not (PAIR_DECLINES)."""
    offer = st[S_OFFER_AT]
    n_offer = st[S_N_OFFER]
    if outcome == OUT_CLASH:
        st[S_LEADER_CLASHES] += 1
        log_event(st, log, EV_CLASH, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)
        return
    if outcome == OUT_PAIR_CANCEL or outcome == OUT_NO_WINNER:
        if outcome == OUT_PAIR_CANCEL:
            st[S_PAIR_CANCELS] += 1
            st[seat_at(seat) + P_PAIR_CANCELS] += 1
            if pick == PAIR_DECLINES:
                st[seat_at(seat) + P_PAIR_DECLINED] += 1
            log_event(st, log, EV_PAIR_CANCEL, seat, pick, UNUSED, UNUSED, UNUSED, UNUSED)
        else:
            st[S_NO_WINNER_ROUNDS] += 1
            log_event(st, log, EV_NO_WINNER, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)
        for i in range(n_offer):
            treasure_to_bottom(st, log, st[offer + i])
            st[offer + i] = -1
        st[S_N_OFFER] = 0
        if outcome == OUT_PAIR_CANCEL and pick == PAIR_DRAWS:  # Tracker 2: "can immediately draw three"
            draw_adventurers(st, log, seat, np.int64(params[R_PAIR_DRAW]), DRAW_PAIR)
        return
    st[seat_at(seat) + P_BIDS_WON] += 1
    taken = scratch_at(st, SCR_TAKEN)
    n_taken = np.int64(0)
    if outcome == OUT_WIN_ALL:
        for i in range(n_offer):
            st[taken + n_taken] = st[offer + i]
            n_taken += 1
            st[offer + i] = -1
    else:
        st[taken] = st[offer + pick]
        n_taken = 1
        st[offer + pick] = -1
        for i in range(n_offer):
            if st[offer + i] >= 0:
                treasure_to_bottom(st, log, st[offer + i])
                st[offer + i] = -1
    st[S_N_OFFER] = 0
    acquire(params, st, log, seat, taken, n_taken)


@njit_inline
def charge_unresolved_leaders(params, st, log):
    """Leader Cards, Note: a leader that cannot resolve in the last round costs its player 5.

    The unresolved leaders are those decide_bidding marked in scratch row SCR_UNRESOLVED."""
    unresolved = scratch_at(st, SCR_UNRESOLVED)
    for s in range(st[S_N_PLAYERS]):
        if st[unresolved + s] == 1:
            penalty = np.int64(0)
            if st[S_LAST_ROUND] == 1:
                penalty = np.int64(params[R_UNRESOLVED_LEADER])
                st[seat_at(s) + P_UNRESOLVED_LEADERS] += 1
                st[seat_at(s) + P_VP_UNRESOLVED] += penalty
            log_event(st, log, EV_LEADER_UNRESOLVED, s, st[bid_at(s) + B_KIND], penalty, UNUSED, UNUSED, UNUSED)


# ------------------------------------------------------------------ end of round
@njit_inline
def end_of_round_draws(params, st, log, bot_kind, bot_w):
    """II. Three Cards Rule and Hidden Treasure A (not in the last round), from the start player
    clockwise."""
    n_players = st[S_N_PLAYERS]
    for i in range(n_players):
        seat = (st[S_START] + i) % n_players
        at = seat_at(seat)
        if st[at + P_ALIVE] == 0:
            continue
        # the hand's size, as the rules keep it (cards.known_hand_size): each draw adds the cards it drew
        held = known_hand_size(st, seat) + draw_adventurers(st, log, seat, np.int64(params[R_ROUND_DRAW]), DRAW_ROUND)
        if held < params[R_MIN_HAND]:
            held += draw_adventurers(st, log, seat, params[R_MIN_HAND] - held, DRAW_FILL)
        # Hidden Treasure A: "except the last round" (draws follow a 2-player clash there too).
        if st[S_LAST_ROUND] == 0 and st[at + P_TOKEN] > 0 and held < params[R_TOKEN_REFILL_TO]:
            if bots.choose_token_refill(params, st, seat, bot_kind[seat], bot_w[seat], held):
                st[at + P_TOKEN] -= 1
                st[at + P_TOKEN_REFILL] += 1
                draw_adventurers(st, log, seat, params[R_TOKEN_REFILL_TO] - held, DRAW_TOKEN)


@njit_noalloc
def players_in_play(st):
    n = 0
    for s in range(st[S_N_PLAYERS]):
        n += st[seat_at(s) + P_ALIVE]
    return n


@njit_inline
def next_start_player(st):
    """IV. New Round: the player to the left of the start player (skipping eliminated players)."""
    n_players = st[S_N_PLAYERS]
    for i in range(1, n_players + 1):
        s = (st[S_START] + i) % n_players
        if st[seat_at(s) + P_ALIVE] == 1:
            return s
    return st[S_START]


@njit_inline
def play_round(params, st, log, bot_kind, bot_w, checked):
    """One round: offer (unless a 2-player rebid keeps it), bids, resolution, draws.

    search.play_round_search is this sequence with a search bot's decisions put in; the steps
    are shared so that the two cannot drift apart. Inlined into play_game (as a compiled function
    of its own, called per round, the heuristic kernel ran 2-7% slower); the search calls
    round_level.
    """
    if open_round(st, log):
        prepare_offer(params, st, log, bot_kind, bot_w)
    collect_bids(params, st, log, bot_kind, bot_w)
    outcome, seat = reveal_bids(params, st, log, checked)
    settle_bidding(params, st, log, bot_kind, bot_w, outcome, seat)
    close_round(params, st, log, bot_kind, bot_w, outcome, checked)


@njit_inline
def open_round(st, log):
    """A new round begins; returns True when it needs a new offer (not a 2-player rebid)."""
    st[S_ROUND] += 1
    log_event(st, log, EV_ROUND, st[S_ROUND], st[S_START], st[S_TDECK_SIZE], st[S_REBID], UNUSED, UNUSED)
    new_offer = st[S_REBID] == 0
    st[S_REBID] = 0
    return new_offer


@njit_inline
def reveal_bids(params, st, log, checked):
    """The bids are turned face up and decided; leaders' penalties, then the bids are discarded.

    Returns (outcome, winning seat) for settle_bidding.
    """
    if checked:
        check_components(params, st)
    outcome, seat = decide_bidding(params, st)
    charge_unresolved_leaders(params, st, log)
    log_resolution(params, st, log, outcome, seat)
    if outcome == OUT_WIN_ALL or outcome == OUT_WIN_ONE:
        bid = bid_at(seat)
        strength = bid_strength(params, st[bid + B_KIND], st[bid + B_N], st[bid + B_JOKER])
        log_event(st, log, EV_WINNER, seat, strength, 1 if outcome == OUT_WIN_ONE else 0, UNUSED, UNUSED, UNUSED)
    discard_bids(st)
    return outcome, seat


@njit_inline
def log_resolution(params, st, log, outcome, winner):
    """Replay only: how a decided bidding came out. Tracker pairs that knocked each other out
    (Tracker 2), the leader that resolved (Leader Cards) and, where the number bids decide, the
    tied bids that knocked each other out (Bidding; Russian Spy). Nothing is computed when
    logging is off, so batch runs are unaffected."""
    if log.shape[0] <= 1 or outcome == OUT_PAIR_CANCEL or outcome == OUT_CLASH:
        return
    unresolved = scratch_at(st, SCR_UNRESOLVED)
    n_pairs = np.int64(0)
    leader = NO_CARD
    for s in range(st[S_N_PLAYERS]):
        kind = st[bid_at(s) + B_KIND]
        if kind < 0:
            continue
        role = af(params, kind, AF_ROLE)
        if role == ROLE_TRACKER:
            n_pairs += 1
        elif role >= ROLE_MAFIA and st[unresolved + s] == 0:
            leader = s
    if n_pairs > 1:
        log_event(st, log, EV_PAIRS_KNOCKED, n_pairs, UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)
    if leader >= 0:
        kind = st[bid_at(leader) + B_KIND]
        log_event(st, log, EV_LEADER_RESOLVED, leader, kind, UNUSED, UNUSED, UNUSED, UNUSED)
        if af(params, kind, AF_ROLE) != ROLE_SPY:
            return
    log_tie_knockouts(st, log, winner, leader < 0)


@njit_noalloc
def log_tie_knockouts(st, log, winner, highest):
    """One event per strength that several bids share and that would have beaten the winner
    (every shared strength when nobody wins): those bids knocked each other out (Bidding)."""
    n = st[S_N_PLAYERS]
    strengths = scratch_at(st, SCR_STRENGTH)
    for s in range(n):
        value = st[strengths + s]
        if value < 0:
            continue
        tied = np.int64(0)
        first = True
        for o in range(n):
            if st[strengths + o] == value:
                tied += 1
                first = first and o >= s
        if tied < 2 or not first:
            continue
        if winner >= 0:
            best = st[strengths + winner]
            if (value < best) if highest else (value > best):
                continue
        log_event(st, log, EV_TIE_KNOCKOUT, value, tied, UNUSED, UNUSED, UNUSED, UNUSED)


@njit_inline
def count_idle_round(st, outcome):
    """Stalemate rule (engine rule, not printed): counts the rounds in a row in which nobody
    acquired a treasure (a tracker pair cancelled, nobody won, or a 2-player leader clash)."""
    if outcome == OUT_WIN_ALL or outcome == OUT_WIN_ONE:
        st[S_IDLE_ROUNDS] = 0
    else:
        st[S_IDLE_ROUNDS] += 1


@njit_inline
def close_round(params, st, log, bot_kind, bot_w, outcome, checked):
    """After the cards are settled: the end checks, the end-of-round draws, the next start player.

    A game that goes rules.stalemate_rounds rounds in a row without a treasure acquired is a
    stalemate (README, rule reading 16): one player can end up holding the whole adventurer deck
    and cancel every bidding with a tracker pair, forever (mostly with 2 players).
    """
    count_idle_round(st, outcome)
    if outcome == OUT_CLASH:
        st[S_REBID] = 1
    if checked:
        check_components(params, st)
    in_play = players_in_play(st)
    if in_play <= 1:
        st[S_END_REASON] = END_LAST_STANDING if in_play == 1 else END_ALL_ELIMINATED
        return
    if st[S_LAST_ROUND] == 1 and st[S_REBID] == 0:
        st[S_END_REASON] = END_DECK
        return
    end_of_round_draws(params, st, log, bot_kind, bot_w)
    st[S_START] = next_start_player(st)
    if st[S_TDECK_SIZE] == 0 and st[S_REBID] == 0:
        st[S_END_REASON] = END_DECK
    elif st[S_IDLE_ROUNDS] >= params[R_STALEMATE_ROUNDS]:
        st[S_END_REASON] = END_STALEMATE
    elif st[S_ROUND] >= params[R_ROUND_LIMIT]:
        st[S_END_REASON] = END_ROUND_LIMIT
    if checked:
        check_components(params, st)


# ------------------------------------------------------------------ invariants (checked mode)
@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE})")
def check_components(params, st):
    """Every card and token is somewhere, exactly once: decks, table, hands, piles, box."""
    n_players = st[S_N_PLAYERS]
    for a in range(st[S_N_ADVENTURERS]):
        n = st[st[S_ADISCARD_AT] + a]
        for s in range(n_players):
            held = st[hand_at(st, s) + a]
            if held < 0:
                st[S_ERROR] = ERR_NEGATIVE
            n += held
            bid = bid_at(s)
            if st[bid + B_KIND] == a:
                n += st[bid + B_N]
            if st[bid + B_KIND] >= 0 and st[bid + B_JOKER] == 1 and st[bid + B_JOKER_KIND] == a:
                n += 1
        for i in range(st[S_ADECK_SIZE]):
            if st[st[S_ADECK_AT] + i] == a:
                n += 1
        if n != af(params, a, AF_COUNT):
            st[S_ERROR] = ERR_ADVENTURERS
    for t in range(st[S_N_TREASURES]):
        n = st[st[S_BOXED_AT] + t] + st[st[S_GONE_AT] + t]
        for s in range(n_players):
            held = st[collection_at(st, s) + t]
            if held < 0:
                st[S_ERROR] = ERR_NEGATIVE
            n += held
        for i in range(st[S_TDECK_SIZE]):
            if st[tdeck_slot(st, i)] == t:
                n += 1
        for i in range(st[S_N_OFFER]):
            if st[st[S_OFFER_AT] + i] == t:
                n += 1
        if n != tf(params, t, TF_COUNT):
            st[S_ERROR] = ERR_TREASURES
    for s in range(n_players):
        at = seat_at(s)
        used = st[at + P_TOKEN] + st[at + P_TOKEN_REFILL]
        if st[at + P_TOKEN_SCORED_ON] >= 0:
            used += 1
        if st[at + P_ALIVE] == 1 and used != params[R_TOKENS]:
            st[S_ERROR] = ERR_TOKENS


# ---- the round's steps as levels (sim.core.jit.njit_level), for the search (search.py): its
# round, its rollouts and its searched decisions call these from several places, and an inlined
# or linked copy at each place is compiled again (issue 13: the search kernel's compile). The
# heuristic kernel inlines the steps instead (play_round), which keeps it as fast as before.
@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, {TYPE_KINDS}, {TYPE_WEIGHTS}, boolean)")
def round_level(params, st, log, bot_kind, bot_w, checked):
    """play_round, compiled once."""
    play_round(params, st, log, bot_kind, bot_w, checked)


@njit_level(f"UniTuple(int64, 2)({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, boolean)")
def reveal_level(params, st, log, checked):
    """reveal_bids, compiled once."""
    return reveal_bids(params, st, log, checked)


@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, {TYPE_KINDS}, {TYPE_WEIGHTS}, int64, boolean)")
def close_level(params, st, log, bot_kind, bot_w, outcome, checked):
    """close_round, compiled once."""
    close_round(params, st, log, bot_kind, bot_w, outcome, checked)


# ------------------------------------------------------------------ scoring


@njit_noalloc
def any_token_target(params, st, counts):
    """Hidden Treasure B: the token joins one of the player's sequences (st[counts + type]),
    never the Curses."""
    for t in range(st[S_N_TREASURES]):
        if st[counts + t] > 0 and tf(params, t, TF_TOKEN_OK) == 1:
            return True
    return False


@njit_noalloc
def rank_players(st, log):
    """Ranks 1.. by score among players in play (ties share a rank); eliminated players last.

    Every player ranked 1 wins (a shared win); winner_seat is -1 unless the win is unique.
    A stalemate has no winner: every player in play shares rank 1 and nobody wins.
    """
    n_players = st[S_N_PLAYERS]
    stalemate = st[S_END_REASON] == END_STALEMATE
    n_alive = players_in_play(st)
    n_top = 0
    top = -1
    for s in range(n_players):
        at = seat_at(s)
        if st[at + P_ALIVE] == 0:
            st[at + P_RANK] = n_alive + 1
            st[at + P_WON] = 0
            continue
        better = 0
        for o in range(n_players):
            if st[seat_at(o) + P_ALIVE] == 1 and st[seat_at(o) + P_SCORE] > st[at + P_SCORE]:
                better += 1
        st[at + P_RANK] = 1 if stalemate else better + 1
        wins = better == 0 and not stalemate
        st[at + P_WON] = 1 if wins else 0
        if wins:
            n_top += 1
            top = s
    st[S_WINNER] = top if n_top == 1 else -1
    for s in range(n_players):
        at = seat_at(s)
        log_event(st, log, EV_FINAL, s, st[at + P_SCORE], st[at + P_RANK], 1 - st[at + P_ALIVE], UNUSED, UNUSED)


@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, {TYPE_KINDS}, {TYPE_WEIGHTS})")
def final_scores(params, st, log, bot_kind, bot_w):
    """Scoring: the token joins a sequence, scales, hand penalties, last-round leader penalties.

    A token that pushes a sequence to an X eliminates its owner at scoring (scoring examples:
    Lucy). Eliminated players score 0 and rank below everyone still in play.
    """
    n_t, n_a = st[S_N_TREASURES], st[S_N_ADVENTURERS]
    counts = scratch_at(st, SCR_COUNTS)
    for s in range(st[S_N_PLAYERS]):
        at, hand = seat_at(s), hand_at(st, s)
        end = kind_stat_at(st, s, K_END)
        for a in range(n_a):
            st[end + a] = st[hand + a]
        if st[at + P_ALIVE] == 0:
            st[at + P_SCORE] = 0
            continue
        collection = collection_at(st, s)
        for t in range(n_t):
            st[counts + t] = st[collection + t]
        if st[at + P_TOKEN] > 0 and any_token_target(params, st, counts):
            t = bots.choose_token_place(params, st, s, bot_kind[s], bot_w[s])
            st[counts + t] += 1
            st[at + P_TOKEN] -= 1
            st[at + P_TOKEN_SCORED_ON] = t
            log_event(st, log, EV_TOKEN_PLACED, s, t, UNUSED, UNUSED, UNUSED, UNUSED)
        over = overflowed_type(params, st, counts)
        if over >= 0:
            st[at + P_ALIVE] = 0
            st[at + P_ELIMINATION] = ELIM_AT_SCORING
            st[at + P_ELIM_ROUND] = st[S_ROUND]
            st[at + P_SCORE] = 0
            log_event(st, log, EV_ELIMINATED, s, ELIM_AT_SCORING, over, UNUSED, UNUSED, UNUSED)
            continue
        vp = treasure_stat_at(st, s, T_VP)
        total = 0
        for t in range(n_t):
            points = points_of(params, st, counts, t)
            st[vp + t] = points
            total += points
        penalty = 0
        for a in range(n_a):
            penalty += st[hand + a] * af(params, a, AF_PENALTY)
        st[at + P_VP_HAND] = penalty
        st[at + P_SCORE] = total + penalty + st[at + P_VP_UNRESOLVED]
    rank_players(st, log)


# ------------------------------------------------------------------ a whole game


@njit_noalloc
def start_game(params, st, log, run_seed, game_index, checked):
    """The game's random stream from (run seed, game index), then Setup."""
    rng_mod.seed_game_stream(rng_of(st), run_seed, game_index)
    setup(params, st, log)
    if checked:
        check_components(params, st)


@njit_inline
def game_goes_on(st):
    return st[S_END_REASON] == 0 and st[S_ERROR] == 0


@njit_noalloc
def end_game(params, st, log, bot_kind, bot_w, checked):
    """Scoring, and the log's last event."""
    final_scores(params, st, log, bot_kind, bot_w)
    if checked:
        check_components(params, st)
    log_event(st, log, EV_END, st[S_END_REASON], UNUSED, UNUSED, UNUSED, UNUSED, UNUSED)


@njit_level(f"void({TYPE_PARAMS}, {TYPE_STATE}, {TYPE_LOG}, {TYPE_KINDS}, {TYPE_WEIGHTS}, uint64, uint64, boolean)")
def play_game(params, st, log, bot_kind, bot_w, run_seed, game_index, checked):
    """Setup, rounds until the game ends, scoring. The state array holds the result.

    search.play_game_search is the same with play_round_search for the rounds.
    """
    start_game(params, st, log, run_seed, game_index, checked)
    while game_goes_on(st):
        play_round(params, st, log, bot_kind, bot_w, checked)
    end_game(params, st, log, bot_kind, bot_w, checked)
