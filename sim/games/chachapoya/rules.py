"""The Chachapoya forward model: setup, rounds of bidding, their resolution, and scoring.

Section names in docstrings refer to ../shared/rules/chachapoya.md. Every function works on the
parameter tuple `params` and the state tuple `state` laid out in state.py; decisions are asked of
the bots through bots.py, which see only what their seat may see.
"""
import numpy as np
from numba import njit

from sim.core.eventlog import append_event
from sim.core.jit import njit_noalloc

from sim.core import rng as rng_mod
from .state import (
    AF_COUNT, AF_PENALTY, AF_ROLE, B_JOKER, B_JOKER_KIND, B_KIND, B_N,
    EFFECT_CURSE, EFFECT_DRAW, ELIM_AT_SCORING, ELIM_IN_PLAY, END_ALL_ELIMINATED, END_DECK,
    END_LAST_STANDING, END_ROUND_LIMIT, END_STALEMATE, ERR_ADVENTURERS, ERR_ILLEGAL_BID, ERR_NEGATIVE,
    ERR_TOKENS, ERR_TREASURES, S_ADECK_SIZE, S_BURIED, S_END_REASON, S_ERROR, S_FACE_UP, S_IDLE_ROUNDS,
    S_INITIAL_TDECK, S_KNOWER, S_LAST_ROUND, S_LEADER_CLASHES, S_LOG_N, S_N_OFFER,
    S_N_PLAYERS, S_NO_WINNER_ROUNDS, S_PAIR_CANCELS, S_REBID, S_ROUND, S_START, S_TDECK_HEAD,
    S_TDECK_SIZE, S_WINNER, K_END, K_OPENING, K_PLAYED, P_ALIVE,
    P_BIDS_WON, P_CARDS_DRAWN, P_ELIM_ROUND, P_ELIMINATION, P_LOST_TO_CURSE, P_PAIR_CANCELS,
    P_RANK, P_SCORE, P_TOKEN, P_TOKEN_REFILL, P_TOKEN_SCORED_ON, P_UNRESOLVED_LEADERS,
    P_VP_HAND, P_VP_UNRESOLVED, P_WON, R_CLASH_REBID, R_DISCARD_BASE, R_HAND_SIZE,
    R_LAST_ROUND_DECK, R_MIN_HAND, R_OFFER_DRAW, R_PAIR_DRAW, R_ROUND_DRAW, R_ROUND_LIMIT,
    R_STALEMATE_ROUNDS, R_TOKEN_REFILL_TO, R_TOKENS, R_UNRESOLVED_LEADER, ROLE_DICTATOR, ROLE_MAFIA,
    ROLE_NUMBER, ROLE_SPY, ROLE_TRACKER, T_GOT, T_LOST, T_VP, TF_COUNT, TF_EFFECT,
    TF_EFFECT_AMOUNT, TF_TOKEN_OK, TF_VALUE, SCR_COUNTS, SCR_DRAWN, SCR_EARLIER, SCR_TAKEN,
    SCR_STRENGTH, SCR_UNRESOLVED, ADHIDDEN_AT,
    N_AF, N_TF, H_ADVENTURER_AT, H_ADVENTURERS, H_TREASURES, TREASURE_AT, af, tf,
)
from . import bots
from .cards import (
    bid_strength, hand_size, is_legal_bid, overflowed_type, points_of,
)

# ---- replay log events: log[i] = (event, a, b, c, d, e, f)
EV_ROUND = 1  # round, start, treasure deck size, rebid of the same offer
EV_OFFER_DRAWN = 2  # start, card, card, card
EV_OFFER = 3  # start, face-up, face-down, bottomed
EV_LAST_OFFER = 4  # n cards, card, card, card (all face down)
EV_BID = 5  # seat, kind, n cards, joker (1/0), strength
EV_PAIR_CANCEL = 6  # seat
EV_PAIRS_KNOCKED = 7  # number of pairs
EV_LEADER_RESOLVED = 8  # seat, kind
EV_LEADER_UNRESOLVED = 9  # seat, kind, penalty
EV_CLASH = 10
EV_WINNER = 11  # seat, strength, takes one (1/0)
EV_NO_WINNER = 12
EV_TAKE = 13  # seat, treasure type
EV_RETURN = 14  # treasure type (to the bottom of the deck)
EV_ELIMINATED = 15  # seat, stage (ELIM_*), treasure type that reached X
EV_CURSE_LOSS = 16  # seat, treasure type lost
EV_DRAW = 17  # seat, cards drawn, reason (DRAW_*)
EV_RESHUFFLE = 18  # cards reshuffled
EV_TOKEN_PLACED = 19  # seat, treasure type
EV_FINAL = 20  # seat, score, rank, eliminated
EV_END = 21  # end reason
EV_TIE_KNOCKOUT = 22  # strength, number of players knocked out

DRAW_ROUND = 0
DRAW_FILL = 1
DRAW_TOKEN = 2
DRAW_EFFECT = 3
DRAW_PAIR = 4
DRAW_DEAL = 5


@njit_noalloc
def log_event(g, log, ev, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event for `sim replay`; a no-op unless the state was made with logging on."""
    append_event(g, S_LOG_N, log, ev, a, b, c, d, e, f)


# ------------------------------------------------------------------ decks
@njit_noalloc
def treasure_draw(g, tdeck):
    card = tdeck[g[S_TDECK_HEAD]]
    tdeck[g[S_TDECK_HEAD]] = -1
    g[S_TDECK_HEAD] = (g[S_TDECK_HEAD] + 1) % tdeck.shape[0]
    g[S_TDECK_SIZE] -= 1
    return card


@njit_noalloc
def treasure_to_bottom(g, tdeck, log, card):
    """Cards go back face down to the bottom of the treasure deck (Gameplay; III; Tracker)."""
    tdeck[(g[S_TDECK_HEAD] + g[S_TDECK_SIZE]) % tdeck.shape[0]] = card
    g[S_TDECK_SIZE] += 1
    log_event(g, log, EV_RETURN, card)


@njit_noalloc
def reshuffle_adventurers(g, adeck, adiscard, adhidden, rng, log):
    """An empty adventurer deck is rebuilt from the shuffled discard pile (not printed; README).

    `adhidden` (the discarded cards nobody saw) empties with the pile: the new deck is unseen.
    """
    n = 0
    for a in range(adiscard.shape[0]):
        for _ in range(adiscard[a]):
            adeck[n] = a
            n += 1
        adiscard[a] = 0
        adhidden[a] = 0
    rng_mod.shuffle(rng, adeck, n)
    g[S_ADECK_SIZE] = n
    log_event(g, log, EV_RESHUFFLE, n)


@njit_noalloc
def draw_adventurers(state, seat, n, reason):
    """Draw n adventurer cards into a hand; returns how many could be drawn."""
    return draw_cards(state[0], state[1], state[4], state[5], state[ADHIDDEN_AT], state[9], state[12], state[13],
                      seat, n, reason)


@njit_noalloc
def draw_cards(g, hands, adeck, adiscard, adhidden, pstat, rng, log, seat, n, reason):
    """draw_adventurers on the arrays themselves (the hot path passes no state tuple)."""
    drawn = 0
    for _ in range(n):
        if g[S_ADECK_SIZE] == 0:
            reshuffle_adventurers(g, adeck, adiscard, adhidden, rng, log)
            if g[S_ADECK_SIZE] == 0:
                break
        g[S_ADECK_SIZE] -= 1
        card = adeck[g[S_ADECK_SIZE]]
        adeck[g[S_ADECK_SIZE]] = -1
        hands[seat, card] += 1
        drawn += 1
    pstat[seat, P_CARDS_DRAWN] += drawn
    if drawn > 0:
        log_event(g, log, EV_DRAW, seat, drawn, reason)
    return drawn


# ------------------------------------------------------------------ setup
@njit_noalloc
def lay_out_deck(deck, params, count_at, n_kinds, row_width):
    """Every card of every kind into `deck`, kind by kind (params[count_at + kind * row_width]
    cards of each: a table's count field); returns how many."""
    n = 0
    for kind in range(n_kinds):
        for _ in range(params[count_at + kind * row_width]):
            deck[n] = kind
            n += 1
    return n


@njit_noalloc
def setup(params, state, n_players):
    """Setup: shuffle both decks, discard treasures unseen by player count, deal hands, tokens."""
    g, hands, tdeck, adeck, tout, pstat, kstat, rng = (
        state[0], state[1], state[3], state[4], state[6], state[9], state[10], state[12])
    n = lay_out_deck(tdeck, params, TREASURE_AT + TF_COUNT, params[H_TREASURES], N_TF)
    rng_mod.shuffle(rng, tdeck, n)
    n_discard = min(params[R_DISCARD_BASE + n_players], n)
    for i in range(n_discard):
        tout[0, tdeck[i]] += 1
        tdeck[i] = -1
    g[S_TDECK_HEAD] = n_discard % tdeck.shape[0]
    g[S_TDECK_SIZE] = n - n_discard
    g[S_INITIAL_TDECK] = n - n_discard

    m = lay_out_deck(adeck, params, params[H_ADVENTURER_AT] + AF_COUNT, params[H_ADVENTURERS], N_AF)
    rng_mod.shuffle(rng, adeck, m)
    g[S_ADECK_SIZE] = m
    for p in range(n_players):
        pstat[p, P_ALIVE] = 1
        pstat[p, P_TOKEN] = params[R_TOKENS]
        pstat[p, P_TOKEN_SCORED_ON] = -1
        pstat[p, P_RANK] = 0
        draw_adventurers(state, p, params[R_HAND_SIZE], DRAW_DEAL)
        pstat[p, P_CARDS_DRAWN] = 0
        for a in range(params[H_ADVENTURERS]):
            kstat[p, K_OPENING, a] = hands[p, a]
    g[S_START] = 0  # seat 0 starts, so seat numbers are turn-order positions
    g[S_KNOWER] = -1
    g[S_WINNER] = -1


# ------------------------------------------------------------------ offer
@njit_noalloc
def prepare_offer(params, state, bot_kind, bot_w):
    """Gameplay: the start player draws three, bottoms one secretly, shows one, hides one.

    Last Round: with two or three cards left they are all offered face down, unseen by anyone.
    """
    if draw_offer(params, state):
        start = state[0][S_START]
        bottom, face_up = bots.choose_offer(params, state, start, bot_kind[start], bot_w[start],
                                            state[15][SCR_DRAWN, :3])
        arrange_offer(params, state, bottom, face_up)


@njit_noalloc
def draw_offer(params, state):
    """prepare_offer up to the start player's choice: returns True when the three drawn cards
    (scratch row SCR_DRAWN) wait to be arranged, False when the last round's cards are offered."""
    g, offer, log = state[0], state[7], state[13]
    start = g[S_START]
    for i in range(offer.shape[0]):
        offer[i] = -1
    if g[S_TDECK_SIZE] <= params[R_LAST_ROUND_DECK]:
        g[S_LAST_ROUND] = 1
        n = g[S_TDECK_SIZE]
        for i in range(n):
            offer[i] = treasure_draw(g, state[3])
        g[S_N_OFFER] = n
        g[S_FACE_UP] = 0
        g[S_KNOWER] = -1
        g[S_BURIED] = -1
        log_event(g, log, EV_LAST_OFFER, n, offer[0], offer[1], offer[2])
        return False
    drawn = state[15][SCR_DRAWN, :3]
    n_draw = min(params[R_OFFER_DRAW], 3)
    for i in range(n_draw):
        drawn[i] = treasure_draw(g, state[3])
    log_event(g, log, EV_OFFER_DRAWN, start, drawn[0], drawn[1], drawn[2])
    return True


@njit_noalloc
def arrange_offer(params, state, bottom, face_up):
    """The start player's choice: drawn[bottom] to the bottom, drawn[face_up] shown, the third face down."""
    g, offer, log = state[0], state[7], state[13]
    start = g[S_START]
    drawn = state[15][SCR_DRAWN, :3]
    face_down = 3 - bottom - face_up
    treasure_to_bottom(g, state[3], log, drawn[bottom])
    offer[0] = drawn[face_up]
    offer[1] = drawn[face_down]
    g[S_N_OFFER] = 2
    g[S_FACE_UP] = 1
    g[S_KNOWER] = start
    g[S_BURIED] = drawn[bottom]
    log_event(g, log, EV_OFFER, start, offer[0], offer[1], drawn[bottom])


# ------------------------------------------------------------------ bidding
@njit_noalloc
def place_bid(params, g, log, hands, bids, kstat, seat, kind, n, joker, joker_kind):
    """Move the bid's cards from the hand to the table."""
    bids[seat, B_KIND] = kind
    bids[seat, B_N] = n
    bids[seat, B_JOKER] = joker
    bids[seat, B_JOKER_KIND] = joker_kind
    if kind < 0:
        return
    hands[seat, kind] -= n
    kstat[seat, K_PLAYED, kind] += n
    if joker == 1:
        hands[seat, joker_kind] -= 1
        kstat[seat, K_PLAYED, joker_kind] += 1
    log_event(g, log, EV_BID, seat, kind, n, joker, bid_strength(params, kind, n, joker))


@njit_noalloc
def collect_bids(params, state, bot_kind, bot_w):
    """Bidding: from the start player clockwise each player in play lays a bid face down."""
    g, bids, pstat = state[0], state[8], state[9]
    n_players = g[S_N_PLAYERS]
    for i in range(n_players):
        seat = (g[S_START] + i) % n_players
        bids[seat, B_KIND] = -1
        if pstat[seat, P_ALIVE] == 0:
            continue
        kind, n, joker, joker_kind = bots.choose_bid(params, state, seat, bot_kind[seat], bot_w[seat])
        lay_bid(params, state, seat, kind, n, joker, joker_kind)


# chosen[seat, B_KIND] of collect_bids_chosen: the seat's bot decides at its turn
ASK_BOT = -2


@njit_noalloc
def collect_bids_chosen(params, state, bot_kind, bot_w, chosen):
    """collect_bids, except that a seat whose chosen[seat, B_KIND] is not ASK_BOT lays that bid.

    The search decides a seat's bid before the bidding starts (bids are laid face down, so its
    seat sees nothing more at its turn) and passes it here, keeping the bidding order of the log.
    """
    g, bids, pstat = state[0], state[8], state[9]
    n_players = g[S_N_PLAYERS]
    for i in range(n_players):
        seat = (g[S_START] + i) % n_players
        bids[seat, B_KIND] = -1
        if pstat[seat, P_ALIVE] == 0:
            continue
        if chosen[seat, B_KIND] == ASK_BOT:
            kind, n, joker, joker_kind = bots.choose_bid(params, state, seat, bot_kind[seat], bot_w[seat])
        else:
            kind, n = chosen[seat, B_KIND], chosen[seat, B_N]
            joker, joker_kind = chosen[seat, B_JOKER], chosen[seat, B_JOKER_KIND]
        lay_bid(params, state, seat, kind, n, joker, joker_kind)


@njit_noalloc
def lay_bid(params, state, seat, kind, n, joker, joker_kind):
    """A chosen bid goes to the table; an illegal one is an engine error (and no bid)."""
    g, hands, bids, kstat, log = state[0], state[1], state[8], state[10], state[13]
    if kind >= 0 and not is_legal_bid(params, hands[seat], kind, n, joker, joker_kind):
        g[S_ERROR] = ERR_ILLEGAL_BID + seat
        kind = -1
    place_bid(params, g, log, hands, bids, kstat, seat, kind, n, joker, joker_kind)


@njit_noalloc
def unique_extreme(strengths, highest):
    """Seat with the best strength that no one else shares (ties knock each other out).

    Bidding: tied winners knock each other out and the next best wins; Russian Spy: the same
    from the lowest bid upwards. Seats with a negative strength made no number bid. Returns -1
    if every strength is shared.
    """
    n = strengths.shape[0]
    best = -1
    for s in range(n):
        if strengths[s] < 0:
            continue
        shared = False
        for o in range(n):
            if o != s and strengths[o] == strengths[s]:
                shared = True
                break
        if shared:
            continue
        if best < 0 or (highest and strengths[s] > strengths[best]) or (
                not highest and strengths[s] < strengths[best]):
            best = s
    return best


# Outcome codes of resolve_bidding
OUT_NO_WINNER = 0
OUT_WIN_ALL = 1
OUT_WIN_ONE = 2
OUT_PAIR_CANCEL = 3
OUT_CLASH = 4


@njit(cache=True)
def resolve_bidding(params, bids, start, n_players, unresolved):
    """decide_bidding with its own work array (for callers outside a game's state)."""
    return decide_bidding(params, bids, start, n_players, unresolved, np.empty(n_players, np.int64))


@njit_noalloc
def decide_bidding(params, bids, start, n_players, unresolved, strengths):
    """Decide a bidding from the revealed bids. Returns (outcome, seat).

    Order of precedence (Tracker 2, Leader Cards, Tricky Play, 2 Player Variant):
    1. Exactly one tracker pair cancels the round; several pairs knock each other out.
    2. Otherwise only the last leader in turn order resolves (others lose their power); with two
       players and two leaders, the 2-player rule cancels the bidding for a rebid.
       Mafia takes both cards, the Dictator beats every number and takes one, the Spy makes the
       lowest number bid win.
    3. Otherwise the highest number bid that nobody ties wins.
    A winner who used a tracker joker takes only one card. `unresolved[s]` is set for each seat
    whose leader did not resolve.
    """
    strengths = strengths[:n_players]
    n_pairs = 0
    pair_seat = -1
    n_leaders = 0
    last_leader = -1
    for i in range(n_players):
        s = (start + i) % n_players
        unresolved[s] = False
        strengths[s] = -1
        kind = bids[s, B_KIND]
        if kind < 0:
            continue
        role = af(params, kind, AF_ROLE)
        if role == ROLE_TRACKER:
            n_pairs += 1
            pair_seat = s
        elif role == ROLE_NUMBER:
            strengths[s] = bid_strength(params, kind, bids[s, B_N], bids[s, B_JOKER])
        else:
            n_leaders += 1
            last_leader = s
    if n_pairs == 1:
        for s in range(n_players):
            if bids[s, B_KIND] >= 0 and af(params, bids[s, B_KIND], AF_ROLE) >= ROLE_MAFIA:
                unresolved[s] = True
        return OUT_PAIR_CANCEL, pair_seat
    if n_leaders > 0:
        for s in range(n_players):
            if s != last_leader and bids[s, B_KIND] >= 0 and af(params, bids[s, B_KIND], AF_ROLE) >= ROLE_MAFIA:
                unresolved[s] = True
        if n_players == 2 and n_leaders == 2 and params[R_CLASH_REBID] == 1:
            unresolved[last_leader] = True
            return OUT_CLASH, -1
        role = af(params, bids[last_leader, B_KIND], AF_ROLE)
        if role == ROLE_MAFIA:
            return OUT_WIN_ALL, last_leader
        if role == ROLE_DICTATOR:
            return OUT_WIN_ONE, last_leader
        winner = unique_extreme(strengths, False)
    else:
        winner = unique_extreme(strengths, True)
    if winner < 0:
        return OUT_NO_WINNER, -1
    if bids[winner, B_JOKER] == 1:
        return OUT_WIN_ONE, winner
    return OUT_WIN_ALL, winner


@njit_noalloc
def discard_bids(state):
    """Played adventurer cards go to the discard pile."""
    bids, adiscard = state[8], state[5]
    for s in range(bids.shape[0]):
        kind = bids[s, B_KIND]
        if kind < 0:
            continue
        adiscard[kind] += bids[s, B_N]
        if bids[s, B_JOKER] == 1:
            adiscard[bids[s, B_JOKER_KIND]] += 1
        bids[s, B_KIND] = -1
        bids[s, B_N] = 0
        bids[s, B_JOKER] = 0
        bids[s, B_JOKER_KIND] = -1


# ------------------------------------------------------------------ acquiring treasures
@njit_noalloc
def eliminate(state, seat, stage, reason_type):
    """I. Checking: hand to the discard pile, treasures (and token) out of the game.

    The hand goes to the pile unseen: `adhidden` counts those cards for the search's
    determinisations (search.py), which must not learn them.
    """
    g, hands, collected, adiscard, tout, pstat, log = (
        state[0], state[1], state[2], state[5], state[6], state[9], state[13])
    adhidden = state[ADHIDDEN_AT]
    for a in range(hands.shape[1]):
        adiscard[a] += hands[seat, a]
        adhidden[a] += hands[seat, a]
        hands[seat, a] = 0
    for t in range(collected.shape[1]):
        tout[1, t] += collected[seat, t]
        collected[seat, t] = 0
    pstat[seat, P_ALIVE] = 0
    pstat[seat, P_ELIMINATION] = stage
    pstat[seat, P_ELIM_ROUND] = g[S_ROUND]
    log_event(g, log, EV_ELIMINATED, seat, stage, reason_type)


@njit_noalloc
def most_valuable_previous(params, state, seat, earlier):
    """Curse: the treasure type with the highest card value among earlier rounds' cards.

    Curse cards themselves are never taken. Equal card values (none in the printed set) are
    broken in favour of the owner: the type whose loss costs fewest points.
    """
    collected = state[2]
    best = -1
    best_loss = 0
    for t in range(params[H_TREASURES]):
        if earlier[t] <= 0 or tf(params, t, TF_EFFECT) == EFFECT_CURSE:
            continue
        before = points_of(params, collected[seat], t)
        collected[seat, t] -= 1
        loss = before - points_of(params, collected[seat], t)
        collected[seat, t] += 1
        if best < 0 or tf(params, t, TF_VALUE) > tf(params, best, TF_VALUE) or (
                tf(params, t, TF_VALUE) == tf(params, best, TF_VALUE) and loss < best_loss):
            best = t
            best_loss = loss
    return best


@njit_noalloc
def acquire(params, state, seat, cards, n_cards):
    """The winner takes the cards: Checking (X), then each Curse, then each Grim Warriors draw."""
    g, collected, tout, pstat, tstat, log = state[0], state[2], state[6], state[9], state[11], state[13]
    n_t = params[H_TREASURES]
    earlier = state[15][SCR_EARLIER, :n_t]
    for t in range(n_t):
        earlier[t] = collected[seat, t]
    for i in range(n_cards):
        t = cards[i]
        collected[seat, t] += 1
        tstat[seat, T_GOT, t] += 1
        log_event(g, log, EV_TAKE, seat, t)
    over = overflowed_type(params, collected[seat])
    if over >= 0:
        eliminate(state, seat, ELIM_IN_PLAY, over)
        return
    for i in range(n_cards):
        t = cards[i]
        if tf(params, t, TF_EFFECT) == EFFECT_CURSE:
            for _ in range(tf(params, t, TF_EFFECT_AMOUNT)):
                lost = most_valuable_previous(params, state, seat, earlier)
                if lost >= 0:
                    earlier[lost] -= 1
                    collected[seat, lost] -= 1
                    tout[1, lost] += 1
                    tstat[seat, T_LOST, lost] += 1
                    pstat[seat, P_LOST_TO_CURSE] += 1
                    log_event(g, log, EV_CURSE_LOSS, seat, lost)
    for i in range(n_cards):
        t = cards[i]
        if tf(params, t, TF_EFFECT) == EFFECT_DRAW:
            draw_adventurers(state, seat, tf(params, t, TF_EFFECT_AMOUNT), DRAW_EFFECT)


@njit_noalloc
def settle_bidding(params, state, bot_kind, bot_w, outcome, seat):
    """Carry out a bidding's outcome on the cards on the table (the winner's bot picks a card
    when it may take only one)."""
    pick = -1
    if outcome == OUT_WIN_ONE:
        pick = bots.choose_take(params, state, seat, bot_kind[seat], bot_w[seat])
    carry_out_bidding(params, state, outcome, seat, pick)


@njit_noalloc
def carry_out_bidding(params, state, outcome, seat, pick):
    """settle_bidding with the winner's pick made (offer index; used only by OUT_WIN_ONE)."""
    g, offer, pstat, log = state[0], state[7], state[9], state[13]
    n_offer = g[S_N_OFFER]
    if outcome == OUT_CLASH:
        g[S_LEADER_CLASHES] += 1
        log_event(g, log, EV_CLASH)
        return
    if outcome == OUT_PAIR_CANCEL or outcome == OUT_NO_WINNER:
        if outcome == OUT_PAIR_CANCEL:
            g[S_PAIR_CANCELS] += 1
            pstat[seat, P_PAIR_CANCELS] += 1
            log_event(g, log, EV_PAIR_CANCEL, seat)
        else:
            g[S_NO_WINNER_ROUNDS] += 1
            log_event(g, log, EV_NO_WINNER)
        for i in range(n_offer):
            treasure_to_bottom(g, state[3], log, offer[i])
            offer[i] = -1
        g[S_N_OFFER] = 0
        if outcome == OUT_PAIR_CANCEL:
            draw_adventurers(state, seat, params[R_PAIR_DRAW], DRAW_PAIR)
        return
    pstat[seat, P_BIDS_WON] += 1
    taken = state[15][SCR_TAKEN, :offer.shape[0]]
    n_taken = 0
    if outcome == OUT_WIN_ALL:
        for i in range(n_offer):
            taken[n_taken] = offer[i]
            n_taken += 1
            offer[i] = -1
    else:
        taken[0] = offer[pick]
        n_taken = 1
        offer[pick] = -1
        for i in range(n_offer):
            if offer[i] >= 0:
                treasure_to_bottom(g, state[3], log, offer[i])
                offer[i] = -1
    g[S_N_OFFER] = 0
    acquire(params, state, seat, taken, n_taken)


@njit_noalloc
def charge_unresolved_leaders(params, state, unresolved):
    """Leader Cards, Note: a leader that cannot resolve in the last round costs its player 5."""
    g, bids, pstat, log = state[0], state[8], state[9], state[13]
    for s in range(unresolved.shape[0]):
        if unresolved[s]:
            penalty = 0
            if g[S_LAST_ROUND] == 1:
                penalty = params[R_UNRESOLVED_LEADER]
                pstat[s, P_UNRESOLVED_LEADERS] += 1
                pstat[s, P_VP_UNRESOLVED] += penalty
            log_event(g, log, EV_LEADER_UNRESOLVED, s, bids[s, B_KIND], penalty)


# ------------------------------------------------------------------ end of round
@njit_noalloc
def end_of_round_draws(params, state, bot_kind, bot_w):
    """II. Three Cards Rule and Hidden Treasure A (not in the last round), from the start player
    clockwise."""
    g, hands, adeck, adiscard, adhidden, pstat, rng, log = (
        state[0], state[1], state[4], state[5], state[ADHIDDEN_AT], state[9], state[12], state[13])
    n_players = g[S_N_PLAYERS]
    for i in range(n_players):
        seat = (g[S_START] + i) % n_players
        if pstat[seat, P_ALIVE] == 0:
            continue
        draw_cards(g, hands, adeck, adiscard, adhidden, pstat, rng, log, seat, params[R_ROUND_DRAW], DRAW_ROUND)
        held = hand_size(hands, seat)
        if held < params[R_MIN_HAND]:
            draw_cards(g, hands, adeck, adiscard, adhidden, pstat, rng, log, seat, params[R_MIN_HAND] - held,
                       DRAW_FILL)
        held = hand_size(hands, seat)
        # Hidden Treasure A: "except the last round" (draws follow a 2-player clash there too).
        if g[S_LAST_ROUND] == 0 and pstat[seat, P_TOKEN] > 0 and held < params[R_TOKEN_REFILL_TO]:
            if bots.choose_token_refill(params, state, seat, bot_kind[seat], bot_w[seat]):
                pstat[seat, P_TOKEN] -= 1
                pstat[seat, P_TOKEN_REFILL] += 1
                draw_adventurers(state, seat, params[R_TOKEN_REFILL_TO] - held, DRAW_TOKEN)


@njit_noalloc
def players_in_play(state):
    pstat = state[9]
    n = 0
    for s in range(pstat.shape[0]):
        n += pstat[s, P_ALIVE]
    return n


@njit_noalloc
def next_start_player(state):
    """IV. New Round: the player to the left of the start player (skipping eliminated players)."""
    g, pstat = state[0], state[9]
    n_players = g[S_N_PLAYERS]
    for i in range(1, n_players + 1):
        s = (g[S_START] + i) % n_players
        if pstat[s, P_ALIVE] == 1:
            return s
    return g[S_START]


@njit_noalloc
def play_round(params, state, bot_kind, bot_w, checked):
    """One round: offer (unless a 2-player rebid keeps it), bids, resolution, draws.

    search.play_round_search is this sequence with a search bot's decisions put in; the steps
    are shared so that the two cannot drift apart.
    """
    if open_round(state):
        prepare_offer(params, state, bot_kind, bot_w)
    collect_bids(params, state, bot_kind, bot_w)
    outcome, seat = reveal_bids(params, state, checked)
    settle_bidding(params, state, bot_kind, bot_w, outcome, seat)
    close_round(params, state, bot_kind, bot_w, outcome, checked)


@njit_noalloc
def open_round(state):
    """A new round begins; returns True when it needs a new offer (not a 2-player rebid)."""
    g, log = state[0], state[13]
    g[S_ROUND] += 1
    log_event(g, log, EV_ROUND, g[S_ROUND], g[S_START], g[S_TDECK_SIZE], g[S_REBID])
    new_offer = g[S_REBID] == 0
    g[S_REBID] = 0
    return new_offer


@njit_noalloc
def reveal_bids(params, state, checked):
    """The bids are turned face up and decided; leaders' penalties, then the bids are discarded.

    Returns (outcome, winning seat) for settle_bidding.
    """
    g, log = state[0], state[13]
    n_players = g[S_N_PLAYERS]
    if checked:
        check_components(params, state)
    unresolved = state[15][SCR_UNRESOLVED, :n_players]
    outcome, seat = decide_bidding(params, state[8], g[S_START], n_players, unresolved,
                                   state[15][SCR_STRENGTH])
    charge_unresolved_leaders(params, state, unresolved)
    log_resolution(params, state, outcome, seat, unresolved, state[15][SCR_STRENGTH, :n_players])
    if outcome == OUT_WIN_ALL or outcome == OUT_WIN_ONE:
        log_event(g, log, EV_WINNER, seat,
                  bid_strength(params, state[8][seat, B_KIND], state[8][seat, B_N], state[8][seat, B_JOKER]),
                  1 if outcome == OUT_WIN_ONE else 0)
    discard_bids(state)
    return outcome, seat


@njit_noalloc
def log_resolution(params, state, outcome, winner, unresolved, strengths):
    """Replay only: how a decided bidding came out. Tracker pairs that knocked each other out
    (Tracker 2), the leader that resolved (Leader Cards) and, where the number bids decide, the
    tied bids that knocked each other out (Bidding; Russian Spy). Nothing is computed when
    logging is off, so batch runs are unaffected."""
    g, bids, log = state[0], state[8], state[13]
    if log.shape[0] <= 1 or outcome == OUT_PAIR_CANCEL or outcome == OUT_CLASH:
        return
    n_pairs = 0
    leader = -1
    for s in range(strengths.shape[0]):
        kind = bids[s, B_KIND]
        if kind < 0:
            continue
        role = af(params, kind, AF_ROLE)
        if role == ROLE_TRACKER:
            n_pairs += 1
        elif role >= ROLE_MAFIA and not unresolved[s]:
            leader = s
    if n_pairs > 1:
        log_event(g, log, EV_PAIRS_KNOCKED, n_pairs)
    if leader >= 0:
        log_event(g, log, EV_LEADER_RESOLVED, leader, bids[leader, B_KIND])
        if af(params, bids[leader, B_KIND], AF_ROLE) != ROLE_SPY:
            return
    log_tie_knockouts(g, log, strengths, winner, leader < 0)


@njit_noalloc
def log_tie_knockouts(g, log, strengths, winner, highest):
    """One event per strength that several bids share and that would have beaten the winner
    (every shared strength when nobody wins): those bids knocked each other out (Bidding)."""
    n = strengths.shape[0]
    for s in range(n):
        value = strengths[s]
        if value < 0:
            continue
        tied = 0
        first = True
        for o in range(n):
            if strengths[o] == value:
                tied += 1
                first = first and o >= s
        if tied < 2 or not first:
            continue
        if winner >= 0 and (value < strengths[winner] if highest else value > strengths[winner]):
            continue
        log_event(g, log, EV_TIE_KNOCKOUT, value, tied)


@njit_noalloc
def count_idle_round(g, outcome):
    """Stalemate rule (engine rule, not printed): counts the rounds in a row in which nobody
    acquired a treasure (a tracker pair cancelled, nobody won, or a 2-player leader clash)."""
    if outcome == OUT_WIN_ALL or outcome == OUT_WIN_ONE:
        g[S_IDLE_ROUNDS] = 0
    else:
        g[S_IDLE_ROUNDS] += 1


@njit_noalloc
def close_round(params, state, bot_kind, bot_w, outcome, checked):
    """After the cards are settled: the end checks, the end-of-round draws, the next start player.

    A game that goes rules.stalemate_rounds rounds in a row without a treasure acquired is a
    stalemate (README, rule reading 16): one player can end up holding the whole adventurer deck
    and cancel every bidding with a tracker pair, forever (mostly with 2 players).
    """
    g = state[0]
    count_idle_round(g, outcome)
    if outcome == OUT_CLASH:
        g[S_REBID] = 1
    if checked:
        check_components(params, state)
    in_play = players_in_play(state)
    if in_play <= 1:
        g[S_END_REASON] = END_LAST_STANDING if in_play == 1 else END_ALL_ELIMINATED
        return
    if g[S_LAST_ROUND] == 1 and g[S_REBID] == 0:
        g[S_END_REASON] = END_DECK
        return
    end_of_round_draws(params, state, bot_kind, bot_w)
    g[S_START] = next_start_player(state)
    if g[S_TDECK_SIZE] == 0 and g[S_REBID] == 0:
        g[S_END_REASON] = END_DECK
    elif g[S_IDLE_ROUNDS] >= params[R_STALEMATE_ROUNDS]:
        g[S_END_REASON] = END_STALEMATE
    elif g[S_ROUND] >= params[R_ROUND_LIMIT]:
        g[S_END_REASON] = END_ROUND_LIMIT
    if checked:
        check_components(params, state)


# ------------------------------------------------------------------ scoring
@njit_noalloc
def final_scores(params, state, bot_kind, bot_w):
    """Scoring: the token joins a sequence, scales, hand penalties, last-round leader penalties.

    A token that pushes a sequence to an X eliminates its owner at scoring (scoring examples:
    Lucy). Eliminated players score 0 and rank below everyone still in play.
    """
    g, hands, collected, pstat, kstat, tstat, log = (
        state[0], state[1], state[2], state[9], state[10], state[11], state[13])
    n_players = g[S_N_PLAYERS]
    for s in range(n_players):
        for a in range(params[H_ADVENTURERS]):
            kstat[s, K_END, a] = hands[s, a]
        if pstat[s, P_ALIVE] == 0:
            pstat[s, P_SCORE] = 0
            continue
        counts = state[15][SCR_COUNTS, :collected.shape[1]]
        for t in range(collected.shape[1]):
            counts[t] = collected[s, t]
        if pstat[s, P_TOKEN] > 0 and any_token_target(params, counts):
            t = bots.choose_token_place(params, state, s, bot_kind[s], bot_w[s])
            counts[t] += 1
            pstat[s, P_TOKEN] -= 1
            pstat[s, P_TOKEN_SCORED_ON] = t
            log_event(g, log, EV_TOKEN_PLACED, s, t)
        over = overflowed_type(params, counts)
        if over >= 0:
            pstat[s, P_ALIVE] = 0
            pstat[s, P_ELIMINATION] = ELIM_AT_SCORING
            pstat[s, P_ELIM_ROUND] = g[S_ROUND]
            pstat[s, P_SCORE] = 0
            log_event(g, log, EV_ELIMINATED, s, ELIM_AT_SCORING, over)
            continue
        total = 0
        for t in range(params[H_TREASURES]):
            vp = points_of(params, counts, t)
            tstat[s, T_VP, t] = vp
            total += vp
        penalty = 0
        for a in range(params[H_ADVENTURERS]):
            penalty += hands[s, a] * af(params, a, AF_PENALTY)
        pstat[s, P_VP_HAND] = penalty
        pstat[s, P_SCORE] = total + penalty + pstat[s, P_VP_UNRESOLVED]
    rank_players(state)


@njit_noalloc
def any_token_target(params, counts):
    """Hidden Treasure B: the token joins one of the player's sequences, never the Curses."""
    for t in range(counts.shape[0]):
        if counts[t] > 0 and tf(params, t, TF_TOKEN_OK) == 1:
            return True
    return False


@njit_noalloc
def rank_players(state):
    """Ranks 1.. by score among players in play (ties share a rank); eliminated players last.

    Every player ranked 1 wins (a shared win); winner_seat is -1 unless the win is unique.
    A stalemate has no winner: every player in play shares rank 1 and nobody wins.
    """
    g, pstat, log = state[0], state[9], state[13]
    n_players = g[S_N_PLAYERS]
    stalemate = g[S_END_REASON] == END_STALEMATE
    n_alive = 0
    for s in range(n_players):
        n_alive += pstat[s, P_ALIVE]
    n_top = 0
    top = -1
    for s in range(n_players):
        if pstat[s, P_ALIVE] == 0:
            pstat[s, P_RANK] = n_alive + 1
            pstat[s, P_WON] = 0
            continue
        better = 0
        for o in range(n_players):
            if pstat[o, P_ALIVE] == 1 and pstat[o, P_SCORE] > pstat[s, P_SCORE]:
                better += 1
        pstat[s, P_RANK] = 1 if stalemate else better + 1
        wins = better == 0 and not stalemate
        pstat[s, P_WON] = 1 if wins else 0
        if wins:
            n_top += 1
            top = s
    g[S_WINNER] = top if n_top == 1 else -1
    for s in range(n_players):
        log_event(g, log, EV_FINAL, s, pstat[s, P_SCORE], pstat[s, P_RANK], 1 - pstat[s, P_ALIVE])


# ------------------------------------------------------------------ invariants (checked mode)
@njit_noalloc
def check_components(params, state):
    """Every card and token is somewhere, exactly once: decks, table, hands, piles, box."""
    g, hands, collected, tdeck, adeck, adiscard, tout, offer, bids, pstat = state[:10]
    n_players = g[S_N_PLAYERS]
    for a in range(params[H_ADVENTURERS]):
        n = adiscard[a]
        for s in range(n_players):
            if hands[s, a] < 0:
                g[S_ERROR] = ERR_NEGATIVE
            n += hands[s, a]
            if bids[s, B_KIND] == a:
                n += bids[s, B_N]
            if bids[s, B_KIND] >= 0 and bids[s, B_JOKER] == 1 and bids[s, B_JOKER_KIND] == a:
                n += 1
        for i in range(g[S_ADECK_SIZE]):
            if adeck[i] == a:
                n += 1
        if n != af(params, a, AF_COUNT):
            g[S_ERROR] = ERR_ADVENTURERS
    for t in range(params[H_TREASURES]):
        n = tout[0, t] + tout[1, t]
        for s in range(n_players):
            if collected[s, t] < 0:
                g[S_ERROR] = ERR_NEGATIVE
            n += collected[s, t]
        for i in range(g[S_TDECK_SIZE]):
            if tdeck[(g[S_TDECK_HEAD] + i) % tdeck.shape[0]] == t:
                n += 1
        for i in range(offer.shape[0]):
            if i < g[S_N_OFFER] and offer[i] == t:
                n += 1
        if n != tf(params, t, TF_COUNT):
            g[S_ERROR] = ERR_TREASURES
    for s in range(n_players):
        used = pstat[s, P_TOKEN] + pstat[s, P_TOKEN_REFILL]
        if pstat[s, P_TOKEN_SCORED_ON] >= 0:
            used += 1
        if pstat[s, P_ALIVE] == 1 and used != params[R_TOKENS]:
            g[S_ERROR] = ERR_TOKENS


# ------------------------------------------------------------------ a whole game
@njit_noalloc
def play_game(params, state, n_players, bot_kind, bot_w, run_seed, game_index, checked):
    """Setup, rounds until the game ends, scoring. The state tuple holds the result.

    search.play_game_search is the same with play_round_search for the rounds.
    """
    start_game(params, state, n_players, run_seed, game_index, checked)
    while game_goes_on(state):
        play_round(params, state, bot_kind, bot_w, checked)
    end_game(params, state, bot_kind, bot_w, checked)


@njit_noalloc
def start_game(params, state, n_players, run_seed, game_index, checked):
    """The game's random stream from (run seed, game index), then Setup."""
    rng_mod.seed_game_stream(state[12], run_seed, game_index)
    setup(params, state, n_players)
    if checked:
        check_components(params, state)


@njit_noalloc
def game_goes_on(state):
    g = state[0]
    return g[S_END_REASON] == 0 and g[S_ERROR] == 0


@njit_noalloc
def end_game(params, state, bot_kind, bot_w, checked):
    """Scoring, and the log's last event."""
    g, log = state[0], state[13]
    final_scores(params, state, bot_kind, bot_w)
    if checked:
        check_components(params, state)
    log_event(g, log, EV_END, g[S_END_REASON])
