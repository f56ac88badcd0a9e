"""The Cuzco forward model: setup, the three phases of a round, the end, and the Pututu module.

Section names in docstrings refer to ../shared/rules/cuzco.md. Every function works on the
parameter array `P` (the rules and the component tables, read by name: state.py) and the state
tuple `st` = (g, pl, board, decks, rng) of state.py, and records what happened in the side tuple
`side` = (stats, dstat, log, scratch). A player's decisions come in as an option array (O_* fields
for a phase-I turn, U_* for a phase-II use) chosen by bots.py; the few choices made in the middle
of an action (which feather slot, which face-up god card) follow the preference rules at the end
of this module, driven by the acting bot's weights `w`.
"""
import numpy as np

from sim.core import rng as rng_mod
from sim.core.eventlog import append_event
from sim.core.jit import njit_noalloc
from .state import (
    A_BRIDGE, A_EXCHANGE, A_FARM, A_HEADDRESS, A_STUDY, A_TEMPLE, A_TRAIL, A_VP,
    AB_BRIDGE, AB_CIRCLET, AB_FARMING, AB_FEATHER, AB_FOOD, AB_GOD_CARD, AB_OFFERING, AB_QUIPU,
    AB_STATUS, AB_STUDY, AB_TRAIL, AB_VP, BD_FARM, BD_MARKET, BD_PALACE, BD_SPACE_DICE,
    BD_SPACE_MIN, BD_SPACE_N, BD_STACK, BD_STACK_N, BD_STUDY, BD_TEMPLE,
    C_BLESSING_PLENTY, C_DELIVERY_VP, C_DOUBLE_GOOD, C_DOUBLE_PEOPLE, C_EXTRA_FARM, C_EXTRA_STUDY,
    C_EXTRA_TURN, C_IGNORE_LOWER, C_JUMP, C_MISSION_DISCOUNT, C_MOVE_DIE, C_PRIEST_RETURN,
    C_SEARCH_DISCARD, C_SLIDE_UP, C_VIRTUAL_SIX, CUZCO, DK_FARM, DK_FARM_DISCARD, DK_GOD,
    DK_GOD_DISCARD, DK_MISSION, DK_STUDY, DK_STUDY_DISCARD, EX_FEATHER, EX_FOOD, EX_GOD_CARD,
    EX_OFFERING, EX_STATUS, EX_VP, FARM, G_BOX_GOODS, G_BOX_MISSIONS, 
    G_FARM_DISCARD_N, G_FARM_N, G_FEATHER_SUPPLY, G_FOOD_SUPPLY, G_GOD_DISCARD_N,
    G_GOD_PILE_N, G_GOD_UP, G_LOG_N, G_MARKET_ROW_SIZE, G_MISSION_N, G_N_PLAYERS,
    G_OFFERING_SUPPLY, G_ORDER, G_PALACE_SIZE, G_PUTUTU1, G_PUTUTU2, G_PUTUTU_SHORT,
    G_ROTATION, G_ROUND, G_STATUS_SEQ, G_STUDY_DISCARD_N, G_STUDY_N, G_TEMPLE_MEDALS, G_TURNS,
    G_LOOKAHEAD, G_SETUP_DONE, G_WINNER, GF_COUNT, GF_FOOD, GF_VP, MAX_DICE_ON_SPACE, MAX_PLAYERS, MAX_SPACES, MF_ARG1,
    MF_ARG2, MF_KIND1, MF_KIND2, MF_N1, MF_N2, MF_STARTING, MK_CIRCLETS, MK_FARM_ABILITIES,
    MK_FARM_SLID, MK_FARM_TILES, MK_FEATHER_COLOURS, MK_FEATHERS, MK_FEATHERS_OF_COLOUR, MK_FOOD,
    MK_GOD_COLOURS, MK_GOD_SAME_COLOUR, MK_GODS_OF, MK_GOODS, MK_GOODS_OF_TYPE, MK_GOODS_TYPES,
    MK_MEDALS, MK_NONE, MK_OFFERINGS, MK_ORDER_TOKEN_ONE, MK_PEOPLE_SLID, MK_PEOPLE_WITH_ABILITY,
    MK_PRIESTS, MK_STUDY_ABILITIES, MK_STUDY_SLID, MK_STUDY_TILES, MK_VILLAGE_VALUES,
    MK_VILLAGES, MK_VILLAGES_IN_RING, MK_VILLAGES_OF_COLOUR, MK_VILLAGES_WORTH, N_ABILITIES,
    N_CARDS, N_CIRCLETS, N_COLOURS, N_EXCHANGES, N_GODS, N_GOODS, N_SLOTS, N_TEMPLE, N_VILLAGES,
    NO_DIE, PL_CIRCLET, PL_DELIVERED, PL_DICE, PL_DOUBLE_PEOPLE, PL_FEATHERS, PL_FOOD, PL_GOODS,
    PL_DEALT, PL_GOODS_BOUGHT, PL_HAND, PL_LOC, PL_MAY_ROTATE, PL_MASK, PL_MEDALS, PL_MISSION, PL_MISSIONS_DONE, PL_N_TILES,
    PL_OFFERINGS, PL_ORDER_POS, PL_PRIESTS_HOME, PL_PUTUTU1, PL_PUTUTU2, PL_QUIPU_DELIVERED,
    PL_QUIPU_MASK, PL_QUIPU_RESERVE, PL_SLID, PL_SLOT, PL_STATUS, PL_STATUS_SEQ, PL_TILE,
    PALACE_SLOTS, PL_USED_FARM, PL_USED_STUDY, PL_VP, R_ACH_CIRCLETS, R_ACH_FEATHERS, R_ACH_GOODS,
    R_ACH_MISSIONS, R_ACH_PEOPLE, R_ACH_QUIPUS, R_BLESS_CARD, R_BLESS_STATUS, R_CIRCLET_VP,
    R_DICE, R_DISPLAY_TILES, R_EXCHANGE, R_FEATHER_CAP, R_FEATHERS_PER_COLOUR, R_FOOD_SUPPLY,
    R_GOD_COPIES, R_GOD_DEAL, R_GOLDEN_PER_PLAYER, R_HEADDRESS_VP, R_MASK_SPACES, R_MEDAL_END_VP,
    R_MISSION_VP, R_MISSION_VP_REDUCED, R_OFFERING_SUPPLY, R_PALACE_EXTRA, R_PLENTY_FOOD,
    R_PLENTY_STATUS, R_PRIEST_VP, R_PRIESTS, R_PUTUTU, R_PUTUTU1, R_PUTUTU2, R_QUIPUS, R_ROUNDS,
    R_SMALL_MARKET_ROW, R_START_MEDALS, R_START_OFFERINGS, R_START_VP, R_STATUS_LEN, R_STATUS_VP,
    R_TEMPLE_MEDALS, R_VP_SPACE, RF_A, RF_B, RF_KIND, RF_PIPS, SCR_TMP, ST_BLESSINGS,
    ST_CARD_GAINED, ST_CARD_MEDAL, ST_CARD_PLAYED, ST_FINAL_ORDER, ST_GOOD_BOUGHT, ST_HEADDRESSES,
    ST_MEDALS_GAINED, ST_MISSION_DONE, ST_MISSION_FAILED, ST_PEOPLE, ST_PUTUTU_CHANGED,
    ST_PUTUTU_GAINED1, ST_PUTUTU_GAINED2, ST_PUTUTU_SPENT1, ST_PUTUTU_SPENT2, ST_DOUBLES, ST_RANK, ST_START_ORDER, ST_TRIPLES, ST_VP,
    ST_WON, STUDY, TF_ABILITY, TF_KIND, TF_VALUE, VF_COLOUR, VF_RING, VF_VP, VP_ACHIEVEMENTS,
    VP_ACTION_SPACE, VP_DELIVERY, VP_EXCHANGE, VP_GOODS, VP_HEADDRESS, VP_MEDALS, VP_MISSIONS,
    VP_PEOPLE, VP_PRIESTS, VP_START, VP_STATUS, VP_VILLAGES, WAY_ANY, WAY_BRIDGE, WAY_TRAIL,
    H_MASKS, H_MISSIONS, H_ROADS, N_ARMS, N_PEOPLE, arm_field, good_field, joint_amount, mask_colour, mission_field, road_field, space_actions, tile_field, village_field,
)
from .weights import W_ABILITY_PREF, W_CARD_PREF

# ---- a phase-I turn, as chosen by a bot: opt[O_*]
O_DIE = 0  # die index 0..2, or -1 for the extra turn of Mama Quilia 05
O_PIPS = 1  # pips after any pututu tiles
O_PU1 = 2  # +1/-1 tiles spent
O_PU2 = 3  # +2/-2 tiles spent
O_SPACE = 4
O_ACTION = 5
O_TARGET = 6  # village / display pips-1 / circlet, by action
O_BLESS = 7  # fire blessing: bit 0 offering instead of god card, bit 1 food instead of status
O_CARD = 8  # the god-card ability played with the turn, -1 none
O_MEDAL = 9  # 1 if that card is played through an Inti medal
O_CARD_ARG = 10  # 06: space to move a die from; 09: discard tile position
O_CARD_ARG2 = 11  # 06: space to move it to
O_PLENTY = 12  # Viracocha 08 on the turn's fire blessing: 0 no, 1 card, 2 medal
O_DELIVERY = 13  # Pacha Mama 10 on the turn's delivery: 0 no, 1 card, 2 medal
O_EX = 14  # + exchange: times it is bought
N_O = O_EX + N_EXCHANGES

# ---- a phase-II use, as chosen by a bot: use[U_*]
U_KIND = 0  # STUDY or FARM
U_ABILITY = 1
U_TARGET = 2
U_BLESS = 3
U_DOUBLE = 4  # Iliapa 01 played with this use: 0 no, 1 card, 2 medal
U_EXTRA = 5  # this use is the additional ability of card 11/15: 0 no, 1 card, 2 medal
U_PLENTY = 6
N_U = 7

SRC_NONE = 0
SRC_CARD = 1
SRC_MEDAL = 2

# ---- replay log events: log[i] = (event, a, b, c, d, e, f)
EV_ROUND = 1  # round
EV_ROLL = 2  # seat, die, die, die
EV_PUTUTU_GAIN = 3  # seat, tile (1 or 2)
EV_PLACE = 4  # seat, space, action, pips placed, pututu spent, virtual pips
EV_MOVE = 5  # seat, from, to, kind
EV_DELIVER = 6  # seat, village, feather colour (-1 none)
EV_BLESSING = 7  # seat, card taken (-1 none), offering, status, food
EV_TILE = 8  # seat, kind, tile id, ability, value
EV_EXCHANGE = 9  # seat, exchange, times
EV_PRIEST = 10  # seat, step, expelled seat (-1)
EV_HEADDRESS = 11  # seat, circlet, VP
EV_VP = 12  # seat, VP, source
EV_CARD = 13  # seat, card ability, via medal
EV_CARD_GAIN = 14  # seat, card ability
EV_USE = 15  # seat, kind, ability, tiles joined
EV_STATUS_VP = 16  # seat, VP, new order position
EV_MEDAL = 17  # seat (-1 removed)
EV_BUY = 18  # seat, good, food paid, VP
EV_MISSION = 19  # seat, mission, outcome (1 done, 2 done with card 04, 0 failed)
EV_NEW_MISSION = 20  # seat, mission
EV_FINAL = 21  # seat, VP, rank, won
EV_MOVE_DIE = 22  # seat, from space, to space, pips
EV_EXTRA_TURN = 23  # seat
EV_FEATHER = 24  # seat, colour, slot


@njit_noalloc
def log_event(g, log, ev, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event for `sim replay`; a no-op unless the side arrays were made with logging on."""
    append_event(g, G_LOG_N, log, ev, a, b, c, d, e, f)


# ------------------------------------------------------------------------------ supplies

@njit_noalloc
def gain_vp(st, side, p, n, source):
    st[1][p, PL_VP] += n
    side[0][p, ST_VP + source] += n
    if n != 0:
        log_event(st[0], side[2], EV_VP, p, n, source)


@njit_noalloc
def take_from_supply(st, p, supply, field, n):
    """Up to n items of a finite common supply (g[supply]) onto a player's mask board (pl field);
    returns how many there were."""
    g, pl = st[0], st[1]
    k = min(n, g[supply])
    g[supply] -= k
    pl[p, field] += k
    return k


@njit_noalloc
def gain_offerings(st, p, n):
    """Offerings come from the common supply (30 printed) while it lasts."""
    return take_from_supply(st, p, G_OFFERING_SUPPLY, PL_OFFERINGS, n)


@njit_noalloc
def gain_food(st, p, n):
    """Food comes from the common supply (36 printed) while it lasts."""
    return take_from_supply(st, p, G_FOOD_SUPPLY, PL_FOOD, n)


@njit_noalloc
def advance_status(P, st, p, n):
    """Move the status marker n spaces; it lands on top of the markers already there."""
    g, pl = st[0], st[1]
    if n <= 0:
        return
    pl[p, PL_STATUS] = min(pl[p, PL_STATUS] + n, P[R_STATUS_LEN] - 1)
    g[G_STATUS_SEQ] += 1
    pl[p, PL_STATUS_SEQ] = g[G_STATUS_SEQ]


@njit_noalloc
def feather_slot_for(P, pl, p, colour):
    """The free slot a colour goes to: one that completes a circlet's pair, the cheapest first;
    otherwise the cheapest circlet with a free slot of that colour. -1 if none is free."""
    mask = pl[p, PL_MASK]
    best = -1
    best_key = 1 << 30
    for slot in range(N_SLOTS):
        if mask_colour(P, mask, slot) != colour or pl[p, PL_SLOT + slot] != 0:
            continue
        c = slot // 2
        partner = slot ^ 1
        key = c
        if pl[p, PL_CIRCLET + c] != 0:
            key += 100
        elif pl[p, PL_SLOT + partner] == 0:
            key += 10
        if key < best_key:
            best_key = key
            best = slot
    return best


@njit_noalloc
def can_take_feather(P, st, p, colour):
    g, pl = st[0], st[1]
    if pl[p, PL_FEATHERS + colour] >= P[R_FEATHER_CAP] or g[G_FEATHER_SUPPLY + colour] <= 0:
        return False
    return feather_slot_for(P, pl, p, colour) >= 0


@njit_noalloc
def take_feather(P, st, side, p, colour):
    """A feather from the common supply into a matching slot (never more than 3 of a colour)."""
    g, pl = st[0], st[1]
    if not can_take_feather(P, st, p, colour):
        return False
    slot = feather_slot_for(P, pl, p, colour)
    pl[p, PL_SLOT + slot] = 1
    pl[p, PL_FEATHERS + colour] += 1
    g[G_FEATHER_SUPPLY + colour] -= 1
    log_event(g, side[2], EV_FEATHER, p, colour, slot)
    return True


@njit_noalloc
def feather_colour_choice(P, st, p):
    """The colour a player picks when any colour is allowed: one that completes a circlet pair
    (cheapest circlet first), else one that starts the cheapest pair. -1 if none can be taken."""
    pl = st[1]
    best = -1
    best_key = 1 << 30
    for colour in range(N_COLOURS):
        if not can_take_feather(P, st, p, colour):
            continue
        slot = feather_slot_for(P, pl, p, colour)
        c = slot // 2
        key = c + (0 if pl[p, PL_SLOT + (slot ^ 1)] != 0 else 10)
        if key < best_key:
            best_key = key
            best = colour
    return best


# ------------------------------------------------------------------------------ god cards

@njit_noalloc
def reveal_god(st, god):
    """Turn up the next card of a god's pile, rebuilding an empty pile from that god's discards
    (Layout of God Cards: any time a draw pile is exhausted)."""
    g, decks, rng = st[0], st[3], st[4]
    if g[G_GOD_PILE_N + god] == 0:
        n = 0
        m = 0
        base = DK_GOD + god * 12
        for i in range(g[G_GOD_DISCARD_N]):
            card = decks[DK_GOD_DISCARD + i]
            if card // 3 == god and n < 12:
                decks[base + n] = card
                n += 1
            else:
                decks[DK_GOD_DISCARD + m] = card
                m += 1
        for i in range(m, g[G_GOD_DISCARD_N]):
            decks[DK_GOD_DISCARD + i] = -1
        g[G_GOD_DISCARD_N] = m
        if n > 1:
            rng_mod.shuffle(rng, decks[base:base + n], n)
        g[G_GOD_PILE_N + god] = n
    n = g[G_GOD_PILE_N + god]
    if n == 0:
        g[G_GOD_UP + god] = -1
    else:
        if g[G_LOOKAHEAD] != 0 and n > 1:
            # a look-ahead turns up a random card of the pile's contents, whatever their order
            base = DK_GOD + god * 12
            r = rng_mod.randint(rng, n)
            card = -1
            for a in range(god * 3, god * 3 + 3):
                k = 0
                for i in range(n):
                    if decks[base + i] == a:
                        k += 1
                if card < 0 and r < k:
                    card = a
                r -= k
            for i in range(n):
                if decks[base + i] == card:
                    decks[base + i] = decks[base + n - 1]
                    decks[base + n - 1] = card
                    break
        g[G_GOD_UP + god] = decks[DK_GOD + god * 12 + n - 1]
        decks[DK_GOD + god * 12 + n - 1] = -1
        g[G_GOD_PILE_N + god] = n - 1


@njit_noalloc
def take_god_card(st, side, p, god):
    """Take the face-up card of a god and reveal the next one."""
    g, pl = st[0], st[1]
    card = g[G_GOD_UP + god]
    if card < 0:
        return -1
    pl[p, PL_HAND + card] += 1
    side[0][p, ST_CARD_GAINED + card] += 1
    log_event(g, side[2], EV_CARD_GAIN, p, card)
    g[G_GOD_UP + god] = -1
    reveal_god(st, god)
    return card


@njit_noalloc
def god_pile_choice(st, w):
    """The face-up card a player takes: the one its preferences like most."""
    g = st[0]
    best = -1
    best_v = -1e300
    for god in range(N_GODS):
        card = g[G_GOD_UP + god]
        if card >= 0 and w[W_CARD_PREF + card] > best_v:
            best_v = w[W_CARD_PREF + card]
            best = god
    return best


@njit_noalloc
def take_preferred_god_card(st, side, p, w):
    god = god_pile_choice(st, w)
    if god < 0:
        return -1
    return take_god_card(st, side, p, god)


@njit_noalloc
def discard_god_card(st, card):
    """A card onto the face-up discard pile; a god whose display and pile had run dry turns it
    up again at once (its pile is rebuilt from the discards, Layout of God Cards)."""
    g, decks = st[0], st[3]
    decks[DK_GOD_DISCARD + g[G_GOD_DISCARD_N]] = card
    g[G_GOD_DISCARD_N] += 1
    if g[G_GOD_UP + card // 3] < 0 and g[G_SETUP_DONE] != 0:
        reveal_god(st, card // 3)


@njit_noalloc
def card_source(st, p, card):
    """How a player can use a card's ability now: from the hand (needs an offering), through an
    Inti medal on a face-up card (Inti medal), or not at all."""
    g, pl = st[0], st[1]
    if pl[p, PL_HAND + card] > 0 and pl[p, PL_OFFERINGS] > 0:
        return SRC_CARD
    if pl[p, PL_MEDALS] > 0 and g[G_GOD_UP + card // 3] == card:
        return SRC_MEDAL
    return SRC_NONE


@njit_noalloc
def play_card(st, side, p, card, source):
    """Pay for a god card: the card and an offering, or a medal and the face-up card."""
    g, pl = st[0], st[1]
    if source == SRC_CARD:
        pl[p, PL_HAND + card] -= 1
        pl[p, PL_OFFERINGS] -= 1
        g[G_OFFERING_SUPPLY] += 1
        side[0][p, ST_CARD_PLAYED + card] += 1
        discard_god_card(st, card)
    else:
        pl[p, PL_MEDALS] -= 1
        side[0][p, ST_CARD_MEDAL + card] += 1
        g[G_GOD_UP + card // 3] = -1
        discard_god_card(st, card)
        if g[G_GOD_UP + card // 3] < 0:
            reveal_god(st, card // 3)
    log_event(g, side[2], EV_CARD, p, card, 1 if source == SRC_MEDAL else 0)


# ------------------------------------------------------------------------------ the fire blessing

@njit_noalloc
def fire_blessing(P, st, side, p, w, choice, plenty):
    """The fire blessing: a god card or an offering, and a status space or a food; with
    Viracocha 08, 3 food and 3 status spaces instead."""
    g = st[0]
    side[0][p, ST_BLESSINGS] += 1
    if plenty != SRC_NONE:
        play_card(st, side, p, C_BLESSING_PLENTY, plenty)
        food = gain_food(st, p, P[R_PLENTY_FOOD])
        advance_status(P, st, p, P[R_PLENTY_STATUS])
        log_event(g, side[2], EV_BLESSING, p, -1, 0, P[R_PLENTY_STATUS], food)
        return
    card = -1
    offering = 0
    for _ in range(P[R_BLESS_CARD]):
        took = -1
        if choice & 1 == 0:
            took = take_preferred_god_card(st, side, p, w)
        if took < 0:
            offering += gain_offerings(st, p, 1)
        else:
            card = took
    status = 0
    food = 0
    if choice & 2 == 0:
        status = P[R_BLESS_STATUS]
        advance_status(P, st, p, status)
    else:
        food = gain_food(st, p, P[R_BLESS_STATUS])
    log_event(g, side[2], EV_BLESSING, p, card, offering, status, food)


# ------------------------------------------------------------------------------ the road system

@njit_noalloc
def road_between(P, a, b, kind):
    """Minimum pips of a way of this kind between two villages (kind WAY_ANY: the easier one),
    or 99 if there is none."""
    best = 99
    for e in range(P[H_ROADS]):
        ra, rb = road_field(P, e, RF_A), road_field(P, e, RF_B)
        if (ra == a and rb == b) or (ra == b and rb == a):
            if kind == WAY_ANY or road_field(P, e, RF_KIND) == kind:
                best = min(best, road_field(P, e, RF_PIPS))
    return best


@njit_noalloc
def arm_to(P, st, village):
    """Index of the overlay arm that leads to an inner village under the current rotation."""
    return (village - st[0][G_ROTATION]) % 6


@njit_noalloc
def leave_cuzco_arm(P, st, p, kind, pips, village):
    """The overlay arm a chasqui leaving Cuzco takes to an inner village, -1 if none fits. A
    chasqui that has returned to Cuzco may turn the overlay first, so any arm of the right kind
    and pips will do (the first one is used); at the start of the game the overlay stays put."""
    if village >= 6 or village_field(P, village, VF_RING) != 0:
        return -1
    if st[1][p, PL_MAY_ROTATE] == 0:
        k = arm_to(P, st, village)
        if (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips:
            return k
        return -1
    for k in range(N_ARMS):
        if (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips:
            return k
    return -1


@njit_noalloc
def can_move(P, st, p, kind, pips, dest, jump):
    """Movement across a stone trail or rope bridge of equal or fewer pips to an adjacent place;
    a jump (Mama Sara 14) reaches any village."""
    pl = st[1]
    here = pl[p, PL_LOC]
    if dest == here:
        return False
    if jump:
        return dest < N_VILLAGES
    if here == CUZCO:
        return leave_cuzco_arm(P, st, p, kind, pips, dest) >= 0
    if dest == CUZCO:
        if here >= 6:
            return False
        k = arm_to(P, st, here)
        return (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips
    return road_between(P, here, dest, kind) <= pips


@njit_noalloc
def deliver_quipu(P, st, side, p, village, w, delivery_vp):
    """Action: Movement - a quipu onto the village's building (mask first, then the reserve; one
    per player colour per village), then the village's feather. A village already holding this
    player's quipu, or a player out of quipus, gets no quipu and gives no feather."""
    g, pl, board = st[0], st[1], st[2]
    if pl[p, PL_DELIVERED + village] != 0:
        return False
    if pl[p, PL_QUIPU_MASK] > 0:
        pl[p, PL_QUIPU_MASK] -= 1
    elif pl[p, PL_QUIPU_RESERVE] > 0:
        pl[p, PL_QUIPU_RESERVE] -= 1
    else:
        return False
    n = board[BD_STACK_N + village]
    board[BD_STACK + village * MAX_PLAYERS + n] = p
    board[BD_STACK_N + village] = n + 1
    pl[p, PL_DELIVERED + village] = 1
    pl[p, PL_QUIPU_DELIVERED] += 1
    colour = village_field(P, village, VF_COLOUR)
    got = take_feather(P, st, side, p, colour)
    log_event(g, side[2], EV_DELIVER, p, village, colour if got else -1)
    if delivery_vp != SRC_NONE:
        play_card(st, side, p, C_DELIVERY_VP, delivery_vp)
        gain_vp(st, side, p, village_field(P, village, VF_VP), VP_DELIVERY)
    return True


@njit_noalloc
def move_chasqui(P, st, side, p, w, dest, kind, pips, bless, plenty, delivery_vp):
    """Move to `dest` (legality checked by the caller): a village takes a quipu, Cuzco gives a
    fire blessing and lets the chasqui turn the overlay when it next leaves."""
    g, pl = st[0], st[1]
    here = pl[p, PL_LOC]
    if here == CUZCO:
        if pl[p, PL_MAY_ROTATE] != 0 and dest < 6:
            k = leave_cuzco_arm(P, st, p, kind, pips, dest)
            if k >= 0:
                g[G_ROTATION] = (dest - k) % 6
        pl[p, PL_MAY_ROTATE] = 0
    pl[p, PL_LOC] = dest
    log_event(g, side[2], EV_MOVE, p, here, dest, kind)
    if dest == CUZCO:
        pl[p, PL_MAY_ROTATE] = 1
        fire_blessing(P, st, side, p, w, bless, plenty)
    else:
        deliver_quipu(P, st, side, p, dest, w, delivery_vp)


# ------------------------------------------------------------------------------ mask board

@njit_noalloc
def empty_spaces(P, pl, p):
    return P[R_MASK_SPACES] - pl[p, PL_QUIPU_MASK] - pl[p, PL_N_TILES]


@njit_noalloc
def put_tile(P, st, side, p, tile):
    """A people tile onto an empty mask space (caller checks there is one)."""
    pl = st[1]
    for i in range(12):
        if pl[p, PL_TILE + i] < 0:
            pl[p, PL_TILE + i] = tile
            pl[p, PL_SLID + i] = 0
            pl[p, PL_N_TILES] += 1
            kind = tile_field(P, tile, TF_KIND)
            side[0][p, ST_PEOPLE + kind * N_ABILITIES + tile_field(P, tile, TF_ABILITY)] += 1
            log_event(st[0], side[2], EV_TILE, p, kind, tile, tile_field(P, tile, TF_ABILITY),
                      tile_field(P, tile, TF_VALUE))
            return


@njit_noalloc
def take_display_tile(P, st, side, p, kind, index):
    """Action: Study or farming - the tile beside `index + 1` pips goes onto the mask board; the
    column is not refilled until phase III."""
    board = st[2]
    base = BD_STUDY if kind == STUDY else BD_FARM
    tile = board[base + index]
    if tile < 0 or empty_spaces(P, st[1], p) <= 0:
        return False
    board[base + index] = -1
    put_tile(P, st, side, p, tile)
    return True


@njit_noalloc
def best_discard_tile(P, st, p, w):
    """Position in the combined discard list (study first) of the tile Viracocha 09 takes."""
    g, decks = st[0], st[3]
    best = -1
    best_v = -1e300
    for i in range(g[G_STUDY_DISCARD_N] + g[G_FARM_DISCARD_N]):
        if i < g[G_STUDY_DISCARD_N]:
            tile = decks[DK_STUDY_DISCARD + i]
        else:
            tile = decks[DK_FARM_DISCARD + i - g[G_STUDY_DISCARD_N]]
        v = w[W_ABILITY_PREF + tile_field(P, tile, TF_ABILITY)] + 0.01 * tile_field(P, tile, TF_VALUE)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit_noalloc
def take_discard_tile(P, st, side, p, position):
    """Viracocha 09: any tile from the people discard piles onto the mask board."""
    g, decks = st[0], st[3]
    if position < 0 or empty_spaces(P, st[1], p) <= 0:
        return False
    if position < g[G_STUDY_DISCARD_N]:
        base, counter = DK_STUDY_DISCARD, G_STUDY_DISCARD_N
    else:
        position -= g[G_STUDY_DISCARD_N]
        base, counter = DK_FARM_DISCARD, G_FARM_DISCARD_N
    n = g[counter]
    if position >= n:
        return False
    tile = decks[base + position]
    for i in range(position, n - 1):
        decks[base + i] = decks[base + i + 1]
    decks[base + n - 1] = -1
    g[counter] = n - 1
    put_tile(P, st, side, p, tile)
    return True


@njit_noalloc
def slide_down(P, st, p, kind, n):
    """Exchange: slide down up to n tiles of a kind (the most valuable first); returns the status
    or food they show."""
    pl = st[1]
    total = 0
    for _ in range(n):
        best = -1
        for i in range(12):
            t = pl[p, PL_TILE + i]
            if t >= 0 and pl[p, PL_SLID + i] == 0 and tile_field(P, t, TF_KIND) == kind:
                if best < 0 or tile_field(P, t, TF_VALUE) > tile_field(P, pl[p, PL_TILE + best], TF_VALUE):
                    best = i
        if best < 0:
            break
        pl[p, PL_SLID + best] = 1
        total += tile_field(P, pl[p, PL_TILE + best], TF_VALUE)
    return total


@njit_noalloc
def slide_up(P, st, p, n):
    """Iliapa 02: slide up to n slid-down tiles back up (the most valuable first)."""
    pl = st[1]
    for _ in range(n):
        best = -1
        for i in range(12):
            t = pl[p, PL_TILE + i]
            if t >= 0 and pl[p, PL_SLID + i] != 0:
                if best < 0 or tile_field(P, t, TF_VALUE) > tile_field(P, pl[p, PL_TILE + best], TF_VALUE):
                    best = i
        if best < 0:
            break
        pl[p, PL_SLID + best] = 0


@njit_noalloc
def count_unslid(P, pl, p, kind):
    n = 0
    for i in range(12):
        t = pl[p, PL_TILE + i]
        if t >= 0 and pl[p, PL_SLID + i] == 0 and tile_field(P, t, TF_KIND) == kind:
            n += 1
    return n


@njit_noalloc
def count_tiles(P, pl, p, kind, ability):
    """Tiles of a kind (and ability, -1 any) on the mask board."""
    n = 0
    for i in range(12):
        t = pl[p, PL_TILE + i]
        if t >= 0 and tile_field(P, t, TF_KIND) == kind and (ability < 0 or tile_field(P, t, TF_ABILITY) == ability):
            n += 1
    return n


@njit_noalloc
def circlet_ready(pl, p, c):
    return pl[p, PL_CIRCLET + c] == 0 and pl[p, PL_SLOT + 2 * c] != 0 and pl[p, PL_SLOT + 2 * c + 1] != 0


# ------------------------------------------------------------------------------ the actions

@njit_noalloc
def activate_circlet(P, st, side, p, w, c, bless, plenty):
    """Action: Headdress - flip a circlet with both feathers: 10/7/4 VP by round, the circlet's VP
    and a fire blessing."""
    g, pl = st[0], st[1]
    pl[p, PL_CIRCLET + c] = 1
    vp = P[R_HEADDRESS_VP + g[G_ROUND]] + P[R_CIRCLET_VP + c]
    side[0][p, ST_HEADDRESSES] += 1
    log_event(g, side[2], EV_HEADDRESS, p, c, vp)
    gain_vp(st, side, p, vp, VP_HEADDRESS)
    fire_blessing(P, st, side, p, w, bless, plenty)


@njit_noalloc
def place_priest(P, st, side, p, w, step, bless, plenty, priest_return):
    """Action: Temple - a priest onto step `step` (0-based); an occupant is pushed one step down
    (a chain), off step 1 back to its owner; Pacha Mama 12 sends the occupant home instead."""
    g, pl, board = st[0], st[1], st[2]
    occupant = board[BD_TEMPLE + step]
    expelled = -1
    if occupant >= 0:
        if priest_return != SRC_NONE:
            play_card(st, side, p, C_PRIEST_RETURN, priest_return)
            pl[occupant, PL_PRIESTS_HOME] += 1
            expelled = occupant
        else:
            s = step
            moving = occupant
            while moving >= 0:
                if s == 0:
                    pl[moving, PL_PRIESTS_HOME] += 1
                    expelled = moving
                    break
                below = board[BD_TEMPLE + s - 1]
                board[BD_TEMPLE + s - 1] = moving
                moving = below
                s -= 1
    board[BD_TEMPLE + step] = p
    pl[p, PL_PRIESTS_HOME] -= 1
    log_event(g, side[2], EV_PRIEST, p, step + 1, expelled)
    fire_blessing(P, st, side, p, w, bless, plenty)


@njit_noalloc
def exchange_allowed(P, st, p, ex):
    """Whether one more exchange of this kind does anything."""
    g, pl = st[0], st[1]
    if ex == EX_STATUS:
        return count_unslid(P, pl, p, STUDY) > 0
    if ex == EX_FOOD:
        return count_unslid(P, pl, p, FARM) > 0 and g[G_FOOD_SUPPLY] > 0
    if ex == EX_VP:
        return True
    if ex == EX_OFFERING:
        return g[G_OFFERING_SUPPLY] > 0
    if ex == EX_GOD_CARD:
        for god in range(N_GODS):
            if g[G_GOD_UP + god] >= 0:
                return True
        return False
    if ex == EX_FEATHER:
        return feather_colour_choice(P, st, p) >= 0
    return pl[p, PL_QUIPU_MASK] > 0


@njit_noalloc
def do_exchange(P, st, side, p, w, counts, pips):
    """Action: Exchange - spend the pips on any combination of the seven exchanges."""
    g = st[0]
    budget = pips
    for ex in range(N_EXCHANGES):
        cost = P[R_EXCHANGE + ex]
        done = 0
        for _ in range(counts[ex]):
            if budget < cost or not exchange_allowed(P, st, p, ex):
                break
            budget -= cost
            done += 1
            if ex == EX_STATUS:
                advance_status(P, st, p, slide_down(P, st, p, STUDY, 1))
            elif ex == EX_FOOD:
                gain_food(st, p, slide_down(P, st, p, FARM, 1))
            elif ex == EX_VP:
                gain_vp(st, side, p, 1, VP_EXCHANGE)
            elif ex == EX_OFFERING:
                gain_offerings(st, p, 1)
            elif ex == EX_GOD_CARD:
                take_preferred_god_card(st, side, p, w)
            elif ex == EX_FEATHER:
                take_feather(P, st, side, p, feather_colour_choice(P, st, p))
            else:
                st[1][p, PL_QUIPU_MASK] -= 1
                st[1][p, PL_QUIPU_RESERVE] += 1
        if done > 0:
            log_event(g, side[2], EV_EXCHANGE, p, ex, done)


@njit_noalloc
def can_study_or_farm(P, st, p, kind, strength):
    board = st[2]
    if empty_spaces(P, st[1], p) <= 0:
        return False
    base = BD_STUDY if kind == STUDY else BD_FARM
    for i in range(min(strength, 6)):
        if board[base + i] >= 0:
            return True
    return False


@njit_noalloc
def can_headdress(st, p, strength):
    pl = st[1]
    for c in range(min(strength, N_CIRCLETS)):
        if circlet_ready(pl, p, c):
            return True
    return False


@njit_noalloc
def action_possible(P, st, p, action, strength, jump):
    """Whether an action can be chosen at all with this strength (e.g. the headdress needs an
    eligible circlet, study needs an empty mask space)."""
    pl = st[1]
    if action == A_TRAIL or action == A_BRIDGE:
        kind = WAY_TRAIL if action == A_TRAIL else WAY_BRIDGE
        for dest in range(N_VILLAGES + 1):
            if can_move(P, st, p, kind, strength, dest, jump):
                return True
        return False
    if action == A_STUDY:
        return can_study_or_farm(P, st, p, STUDY, strength)
    if action == A_FARM:
        return can_study_or_farm(P, st, p, FARM, strength)
    if action == A_TEMPLE:
        return pl[p, PL_PRIESTS_HOME] > 0
    if action == A_HEADDRESS:
        return can_headdress(st, p, strength)
    return True


# ------------------------------------------------------------------------------ dice placement

@njit_noalloc
def space_has_action(P, st, space, action):
    return (space_actions(P, st[0][G_N_PLAYERS], space) >> action) & 1 == 1


@njit_noalloc
def is_vp_space(P, st, space):
    return space_has_action(P, st, space, A_VP)


@njit_noalloc
def die_fits(P, st, space, pips, ignore_lower):
    """Phase I: a die goes where its pips are lower than every die already there (the VP space
    excepted); Viracocha 07 lifts the rule."""
    if space_actions(P, st[0][G_N_PLAYERS], space) == 0:
        return False
    if ignore_lower or is_vp_space(P, st, space):
        return True
    return pips < st[2][BD_SPACE_MIN + space]


@njit_noalloc
def recompute_space_min(board, space):
    m = NO_DIE
    for i in range(board[BD_SPACE_N + space]):
        m = min(m, board[BD_SPACE_DICE + space * MAX_DICE_ON_SPACE + i] % 8)
    board[BD_SPACE_MIN + space] = m


@njit_noalloc
def put_die(st, space, seat, pips):
    board = st[2]
    n = board[BD_SPACE_N + space]
    if n < MAX_DICE_ON_SPACE:
        board[BD_SPACE_DICE + space * MAX_DICE_ON_SPACE + n] = seat * 8 + pips
        board[BD_SPACE_N + space] = n + 1
    board[BD_SPACE_MIN + space] = min(board[BD_SPACE_MIN + space], pips)


@njit_noalloc
def move_die(st, side, p, from_space, to_space):
    """Mama Quilia 06: reallocate a die (the lowest on its space) to another space, ignoring the
    placement rules."""
    board = st[2]
    n = board[BD_SPACE_N + from_space]
    if n == 0 or from_space == to_space:
        return False
    base = BD_SPACE_DICE + from_space * MAX_DICE_ON_SPACE
    lo = 0
    for i in range(1, n):
        if board[base + i] % 8 < board[base + lo] % 8:
            lo = i
    code = board[base + lo]
    for i in range(lo, n - 1):
        board[base + i] = board[base + i + 1]
    board[base + n - 1] = -1
    board[BD_SPACE_N + from_space] = n - 1
    recompute_space_min(board, from_space)
    put_die(st, to_space, code // 8, code % 8)
    log_event(st[0], side[2], EV_MOVE_DIE, p, from_space, to_space, code % 8)
    return True


@njit_noalloc
def pututu_can_reach(pl, p, pips, target):
    """Tiles (+1/-1, +2/-2) that turn a die from pips to target, fewest first; (-1, -1) if the
    player's tiles cannot (Cuzco Module 1: never below 1 nor above 6)."""
    if target < 1 or target > 6:
        return -1, -1
    d = abs(target - pips)
    for total in range(0, pl[p, PL_PUTUTU1] + pl[p, PL_PUTUTU2] + 1):
        for n2 in range(min(total, pl[p, PL_PUTUTU2]), -1, -1):
            n1 = total - n2
            if n1 <= pl[p, PL_PUTUTU1] and n1 + 2 * n2 == d:
                return n1, n2
    return -1, -1


@njit_noalloc
def perform_turn(P, st, side, p, w, opt):
    """One turn of phase I as chosen in `opt`: pututu tiles, a card played before the die
    (06 reallocates a die), the die placed, and the action performed (with the turn's cards)."""
    g, pl = st[0], st[1]
    stats, dstat = side[0], side[1]
    die = opt[O_DIE]
    card = opt[O_CARD]
    card_src = SRC_MEDAL if opt[O_MEDAL] != 0 else SRC_CARD
    extra = die < 0
    if extra:
        pips = 1
    else:
        rolled = pl[p, PL_DICE + die]
        pips = opt[O_PIPS]
        if opt[O_PU1] > 0 or opt[O_PU2] > 0:
            pl[p, PL_PUTUTU1] -= opt[O_PU1]
            pl[p, PL_PUTUTU2] -= opt[O_PU2]
            g[G_PUTUTU1] += opt[O_PU1]
            g[G_PUTUTU2] += opt[O_PU2]
            stats[p, ST_PUTUTU_SPENT1] += opt[O_PU1]
            stats[p, ST_PUTUTU_SPENT2] += opt[O_PU2]
            if not die_fits(P, st, opt[O_SPACE], rolled, card == C_IGNORE_LOWER):
                stats[p, ST_PUTUTU_CHANGED] += 1
        pl[p, PL_DICE + die] = 0
    if card == C_MOVE_DIE:
        play_card(st, side, p, card, card_src)
        move_die(st, side, p, opt[O_CARD_ARG], opt[O_CARD_ARG2])
    elif card == C_IGNORE_LOWER or card == C_EXTRA_TURN or card == C_VIRTUAL_SIX or \
            card == C_JUMP or card == C_SLIDE_UP or card == C_SEARCH_DISCARD:
        play_card(st, side, p, card, card_src)
    space = opt[O_SPACE]
    action = opt[O_ACTION]
    if not extra:
        put_die(st, space, p, pips)
        dstat[action, pips] += 1
    else:
        dstat[action, 0] += 1
        log_event(g, side[2], EV_EXTRA_TURN, p)
    g[G_TURNS] += 1
    strength = 6 if card == C_VIRTUAL_SIX else pips
    log_event(g, side[2], EV_PLACE, p, space, action, pips, opt[O_PU1] + opt[O_PU2], strength)
    target = opt[O_TARGET]
    if action == A_TRAIL or action == A_BRIDGE:
        kind = WAY_TRAIL if action == A_TRAIL else WAY_BRIDGE
        move_chasqui(P, st, side, p, w, target, kind, 6 if card == C_JUMP else strength, opt[O_BLESS],
                     opt[O_PLENTY], opt[O_DELIVERY])
    elif action == A_STUDY or action == A_FARM:
        kind = STUDY if action == A_STUDY else FARM
        take_display_tile(P, st, side, p, kind, target)
        if card == C_SEARCH_DISCARD:
            take_discard_tile(P, st, side, p, opt[O_CARD_ARG])
    elif action == A_EXCHANGE:
        if card == C_SLIDE_UP:
            slide_up(P, st, p, 2)
        do_exchange(P, st, side, p, w, opt[O_EX:O_EX + N_EXCHANGES], strength)
    elif action == A_TEMPLE:
        step = min(strength, N_TEMPLE) - 1
        place_priest(P, st, side, p, w, step, opt[O_BLESS], opt[O_PLENTY],
                     SRC_NONE if card != C_PRIEST_RETURN else card_src)
    elif action == A_HEADDRESS:
        activate_circlet(P, st, side, p, w, target, opt[O_BLESS], opt[O_PLENTY])
    else:
        gain_vp(st, side, p, P[R_VP_SPACE], VP_ACTION_SPACE)


# ------------------------------------------------------------------------------ phase II

@njit_noalloc
def joint_count(P, st, p, kind, ability, doubled):
    """Identical tiles of one kind used jointly; Iliapa 01 doubles one of them (one more tile)."""
    n = count_tiles(P, st[1], p, kind, ability)
    if n > 0 and doubled:
        n += 1
    return min(n, 4)


@njit_noalloc
def use_ability(P, st, side, p, w, use):
    """Phase II: one joint use of a study or farm ability (Addendum: The People Study and Farm
    Tiles), with Iliapa 01, Pacha Mama 11 / Mama Sara 15 and Viracocha 08 as chosen."""
    g, pl = st[0], st[1]
    kind = use[U_KIND]
    ability = use[U_ABILITY]
    if use[U_DOUBLE] != SRC_NONE:
        play_card(st, side, p, C_DOUBLE_PEOPLE, use[U_DOUBLE])
        pl[p, PL_DOUBLE_PEOPLE] = 1
    if use[U_EXTRA] != SRC_NONE:
        play_card(st, side, p, C_EXTRA_STUDY if kind == STUDY else C_EXTRA_FARM, use[U_EXTRA])
    else:
        if kind == STUDY:
            pl[p, PL_USED_STUDY] = ability
        else:
            pl[p, PL_USED_FARM] = ability
    n = joint_count(P, st, p, kind, ability, pl[p, PL_DOUBLE_PEOPLE] != 0 and use[U_EXTRA] == SRC_NONE)
    if n == 0:
        return
    amount = joint_amount(P, ability, n)
    log_event(g, side[2], EV_USE, p, kind, ability, n)
    target = use[U_TARGET]
    if ability == AB_OFFERING:
        gain_offerings(st, p, amount)
    elif ability == AB_VP:
        gain_vp(st, side, p, amount, VP_PEOPLE)
    elif ability == AB_FEATHER:
        for _ in range(amount):
            colour = feather_colour_choice(P, st, p)
            if colour < 0:
                break
            take_feather(P, st, side, p, colour)
    elif ability == AB_TRAIL or ability == AB_BRIDGE:
        way = WAY_TRAIL if ability == AB_TRAIL else WAY_BRIDGE
        if target >= 0 and can_move(P, st, p, way, amount, target, False):
            move_chasqui(P, st, side, p, w, target, way, amount, use[U_BLESS], use[U_PLENTY], SRC_NONE)
    elif ability == AB_STATUS:
        advance_status(P, st, p, amount)
    elif ability == AB_GOD_CARD:
        for _ in range(amount):
            if take_preferred_god_card(st, side, p, w) < 0:
                break
    elif ability == AB_QUIPU:
        k = min(amount, pl[p, PL_QUIPU_MASK])
        pl[p, PL_QUIPU_MASK] -= k
        pl[p, PL_QUIPU_RESERVE] += k
    elif ability == AB_CIRCLET:
        if target >= 0 and target < amount and circlet_ready(pl, p, target):
            activate_circlet(P, st, side, p, w, target, use[U_BLESS], use[U_PLENTY])
    elif ability == AB_FOOD:
        gain_food(st, p, amount)
    elif ability == AB_FARMING or ability == AB_STUDY:
        tkind = FARM if ability == AB_FARMING else STUDY
        if target >= 0 and target < amount:
            take_display_tile(P, st, side, p, tkind, target)


# ------------------------------------------------------------------------------ missions

@njit_noalloc
def popcount(bits):
    n = 0
    while bits != 0:
        bits &= bits - 1
        n += 1
    return n


@njit_noalloc
def requirement_have(P, st, p, kind, arg):
    """How much of a mission requirement a player has (Addendum: The Missions of the Sapa Inca)."""
    pl, board = st[1], st[2]
    if kind == MK_PRIESTS:
        n = 0
        for s in range(N_TEMPLE):
            if board[BD_TEMPLE + s] == p:
                n += 1
        return n
    if kind == MK_FARM_TILES:
        return count_tiles(P, pl, p, FARM, -1)
    if kind == MK_STUDY_TILES:
        return count_tiles(P, pl, p, STUDY, -1)
    if kind == MK_ORDER_TOKEN_ONE:
        return 1 if pl[p, PL_ORDER_POS] == 0 else 0
    if kind == MK_GOODS:
        n = 0
        for t in range(N_GOODS):
            n += pl[p, PL_GOODS + t]
        return n
    if kind == MK_VILLAGES:
        return pl[p, PL_QUIPU_DELIVERED]
    if kind == MK_FEATHERS_OF_COLOUR:
        return pl[p, PL_FEATHERS + arg]
    if kind == MK_FEATHER_COLOURS:
        n = 0
        for c in range(N_COLOURS):
            if pl[p, PL_FEATHERS + c] > 0:
                n += 1
        return n
    if kind == MK_FEATHERS:
        n = 0
        for c in range(N_COLOURS):
            n += pl[p, PL_FEATHERS + c]
        return n
    if kind == MK_VILLAGES_OF_COLOUR or kind == MK_VILLAGES_WORTH or kind == MK_VILLAGES_IN_RING:
        field = VF_COLOUR if kind == MK_VILLAGES_OF_COLOUR else (VF_VP if kind == MK_VILLAGES_WORTH else VF_RING)
        n = 0
        for v in range(N_VILLAGES):
            if pl[p, PL_DELIVERED + v] != 0 and village_field(P, v, field) == arg:
                n += 1
        return n
    if kind == MK_VILLAGE_VALUES:
        seen = np.int64(0)  # bit set of the VP values delivered to (values 0..63)
        for v in range(N_VILLAGES):
            if pl[p, PL_DELIVERED + v] != 0:
                seen |= np.int64(1) << min(village_field(P, v, VF_VP), 63)
        return popcount(seen)
    if kind == MK_STUDY_ABILITIES or kind == MK_FARM_ABILITIES:
        tkind = STUDY if kind == MK_STUDY_ABILITIES else FARM
        seen = np.int64(0)
        for i in range(12):
            t = pl[p, PL_TILE + i]
            if t >= 0 and tile_field(P, t, TF_KIND) == tkind:
                seen |= np.int64(1) << tile_field(P, t, TF_ABILITY)
        return popcount(seen)
    if kind == MK_STUDY_SLID or kind == MK_FARM_SLID or kind == MK_PEOPLE_SLID:
        n = 0
        for i in range(12):
            t = pl[p, PL_TILE + i]
            if t >= 0 and pl[p, PL_SLID + i] != 0:
                if kind == MK_PEOPLE_SLID or tile_field(P, t, TF_KIND) == (STUDY if kind == MK_STUDY_SLID else FARM):
                    n += 1
        return n
    if kind == MK_GOD_COLOURS or kind == MK_GOD_SAME_COLOUR or kind == MK_GODS_OF:
        distinct = 0
        most = 0
        of = 0
        for god in range(N_GODS):
            n = pl[p, PL_HAND + 3 * god] + pl[p, PL_HAND + 3 * god + 1] + pl[p, PL_HAND + 3 * god + 2]
            if n > 0:
                distinct += 1
            most = max(most, n)
            if god == arg:
                of = n
        if kind == MK_GOD_COLOURS:
            return distinct
        if kind == MK_GOD_SAME_COLOUR:
            return most
        return of
    if kind == MK_GOODS_OF_TYPE:
        return pl[p, PL_GOODS + arg]
    if kind == MK_GOODS_TYPES:
        n = 0
        for t in range(N_GOODS):
            if pl[p, PL_GOODS + t] > 0:
                n += 1
        return n
    if kind == MK_FOOD:
        return pl[p, PL_FOOD]
    if kind == MK_CIRCLETS:
        n = 0
        for c in range(N_CIRCLETS):
            n += pl[p, PL_CIRCLET + c]
        return n
    if kind == MK_MEDALS:
        return pl[p, PL_MEDALS]
    if kind == MK_OFFERINGS:
        return pl[p, PL_OFFERINGS]
    if kind == MK_PEOPLE_WITH_ABILITY:
        return count_tiles(P, pl, p, STUDY, arg) + count_tiles(P, pl, p, FARM, arg)
    return 0


@njit_noalloc
def mission_shortfall(P, st, p, m):
    """Requirement units a player lacks for a mission (0: met). A two-part mission adds its parts;
    Mama Quilia 04 completes a mission with a shortfall of 1."""
    short = 0
    if mission_field(P, m, MF_KIND1) != MK_NONE:
        short += max(0, mission_field(P, m, MF_N1) - requirement_have(P, st, p, mission_field(P, m, MF_KIND1), mission_field(P, m, MF_ARG1)))
    if mission_field(P, m, MF_KIND2) != MK_NONE:
        short += max(0, mission_field(P, m, MF_N2) - requirement_have(P, st, p, mission_field(P, m, MF_KIND2), mission_field(P, m, MF_ARG2)))
    return short


@njit_noalloc
def settle_mission(P, st, side, p, slot, outcome, discount_src):
    """Complete (outcome 1: 6 VP; 2: 4 VP with Mama Quilia 04) or return (0) a mission."""
    g, pl = st[0], st[1]
    m = pl[p, PL_MISSION + slot]
    if m < 0:
        return
    if outcome == 2:
        play_card(st, side, p, C_MISSION_DISCOUNT, discount_src)
    if outcome > 0:
        pl[p, PL_MISSIONS_DONE] += 1
        side[0][p, ST_MISSION_DONE + m] += 1
        gain_vp(st, side, p, P[R_MISSION_VP] if outcome == 1 else P[R_MISSION_VP_REDUCED], VP_MISSIONS)
    else:
        side[0][p, ST_MISSION_FAILED + m] += 1
        g[G_BOX_MISSIONS] += 1
    pl[p, PL_MISSION + slot] = -1
    log_event(g, side[2], EV_MISSION, p, m, outcome)


@njit_noalloc
def take_palace_mission(st, side, p, index):
    """Phase III 4: a new mission from the palace display (not refilled until the round ends)."""
    pl, board = st[1], st[2]
    m = board[BD_PALACE + index]
    if m < 0:
        return
    board[BD_PALACE + index] = -1
    for slot in range(3):
        if pl[p, PL_MISSION + slot] < 0:
            pl[p, PL_MISSION + slot] = m
            log_event(st[0], side[2], EV_NEW_MISSION, p, m)
            return


# ------------------------------------------------------------------------------ phase III

@njit_noalloc
def score_status_and_reorder(P, st, side):
    """Phase III 1: status VP, then the new player order - furthest ahead first, the marker on
    top of a stack breaking ties; markers return to space 0 stacked in that order."""
    g, pl = st[0], st[1]
    n = g[G_N_PLAYERS]
    for p in range(n):
        gain_vp(st, side, p, P[R_STATUS_VP + pl[p, PL_STATUS]], VP_STATUS)
    for pos in range(n):
        best = -1
        for p in range(n):
            taken = False
            for q in range(pos):
                if g[G_ORDER + q] == p:
                    taken = True
            if taken:
                continue
            if best < 0 or pl[p, PL_STATUS] > pl[best, PL_STATUS] or \
                    (pl[p, PL_STATUS] == pl[best, PL_STATUS] and pl[p, PL_STATUS_SEQ] > pl[best, PL_STATUS_SEQ]):
                best = p
        g[G_ORDER + pos] = best
    for pos in range(n):
        p = g[G_ORDER + pos]
        log_event(g, side[2], EV_STATUS_VP, p, P[R_STATUS_VP + pl[p, PL_STATUS]], pos)
        pl[p, PL_ORDER_POS] = pos
        pl[p, PL_STATUS] = 0
        pl[p, PL_STATUS_SEQ] = n - pos
    g[G_STATUS_SEQ] = n


@njit_noalloc
def score_priests(P, st, side):
    """Phase III 2: VP per priest on the steps by round; the Inti medal to the most priests (the
    highest priest breaks ties), or one medal removed if the steps are empty."""
    g, pl, board = st[0], st[1], st[2]
    n = g[G_N_PLAYERS]
    per = P[R_PRIEST_VP + g[G_ROUND]]
    best = -1
    best_n = 0
    best_top = -1
    for p in range(n):
        k = 0
        top = -1
        for s in range(N_TEMPLE):
            if board[BD_TEMPLE + s] == p:
                k += 1
                top = s
        if k > 0:
            gain_vp(st, side, p, k * per, VP_PRIESTS)
        if k > best_n or (k == best_n and k > 0 and top > best_top):
            best, best_n, best_top = p, k, top
    if g[G_TEMPLE_MEDALS] > 0:
        g[G_TEMPLE_MEDALS] -= 1
        if best >= 0:
            pl[best, PL_MEDALS] += 1
            side[0][best, ST_MEDALS_GAINED] += 1
        log_event(g, side[2], EV_MEDAL, best)


@njit_noalloc
def buy_good(P, st, side, p, index, double_src):
    """Phase III 3: one good from the round's market row, paid in food, its VP at once (twice
    with Iliapa 03)."""
    g, pl, board = st[0], st[1], st[2]
    cell = BD_MARKET + g[G_ROUND] * 5 + index
    t = board[cell]
    if t < 0 or pl[p, PL_FOOD] < good_field(P, t, GF_FOOD):
        return False
    board[cell] = -1
    pl[p, PL_FOOD] -= good_field(P, t, GF_FOOD)
    g[G_FOOD_SUPPLY] += good_field(P, t, GF_FOOD)
    pl[p, PL_GOODS + t] += 1
    pl[p, PL_GOODS_BOUGHT] += 1
    side[0][p, ST_GOOD_BOUGHT + t] += 1
    log_event(g, side[2], EV_BUY, p, t, good_field(P, t, GF_FOOD), good_field(P, t, GF_VP))
    gain_vp(st, side, p, good_field(P, t, GF_VP), VP_GOODS)
    if double_src != SRC_NONE:
        play_card(st, side, p, C_DOUBLE_GOOD, double_src)
        gain_vp(st, side, p, good_field(P, t, GF_VP), VP_GOODS)
    return True


@njit_noalloc
def deal_onto(g, counter, decks, stack, board, dest, count):
    """Turn up to `count` items from the top of a stack (size in g[counter]) onto the board
    slots dest, dest + 1, ...; stops when the stack is empty."""
    for i in range(count):
        n = g[counter]
        if n == 0:
            break
        board[dest + i] = decks[stack + n - 1]
        decks[stack + n - 1] = -1
        g[counter] = n - 1


@njit_noalloc
def refill_display(P, st, kind):
    """Phase III 5: leftover study/farm tiles go to the discard pile; 6 new ones are laid out."""
    g, board, decks = st[0], st[2], st[3]
    base = BD_STUDY if kind == STUDY else BD_FARM
    stack = DK_STUDY if kind == STUDY else DK_FARM
    stack_n = G_STUDY_N if kind == STUDY else G_FARM_N
    disc = DK_STUDY_DISCARD if kind == STUDY else DK_FARM_DISCARD
    disc_n = G_STUDY_DISCARD_N if kind == STUDY else G_FARM_DISCARD_N
    for i in range(6):
        t = board[base + i]
        if t >= 0:
            decks[disc + g[disc_n]] = t
            g[disc_n] += 1
            board[base + i] = -1
    deal_onto(g, stack_n, decks, stack, board, base, P[R_DISPLAY_TILES])


@njit_noalloc
def refill_palace(P, st):
    """Players + 2 missions from the golden piles; leftovers go back to the box."""
    g, board, decks = st[0], st[2], st[3]
    for i in range(PALACE_SLOTS):
        if board[BD_PALACE + i] >= 0:
            g[G_BOX_MISSIONS] += 1
            board[BD_PALACE + i] = -1
    deal_onto(g, G_MISSION_N, decks, DK_MISSION, board, BD_PALACE, g[G_PALACE_SIZE])


@njit_noalloc
def end_of_round(P, st, side):
    """Phase III 5 (skipped in round 6): refill the people columns and the palace, box the
    round's unsold goods, take the dice back."""
    g, board = st[0], st[2]
    refill_display(P, st, STUDY)
    refill_display(P, st, FARM)
    refill_palace(P, st)
    for i in range(5):
        cell = BD_MARKET + g[G_ROUND] * 5 + i
        if board[cell] >= 0:
            board[cell] = -1
            g[G_BOX_GOODS] += 1
    clear_action_board(st)


@njit_noalloc
def clear_action_board(st):
    board = st[2]
    for s in range(MAX_SPACES):
        for i in range(MAX_DICE_ON_SPACE):
            board[BD_SPACE_DICE + s * MAX_DICE_ON_SPACE + i] = -1
        board[BD_SPACE_N + s] = 0
        board[BD_SPACE_MIN + s] = NO_DIE


# ------------------------------------------------------------------------------ rolling dice

@njit_noalloc
def roll_dice(P, st, side):
    """Phase I: every player rolls 3 dice; with the Pututu module doubles and triples take tiles
    from the supply, in reverse player order when it runs short."""
    g, pl, rng = st[0], st[1], st[4]
    n = g[G_N_PLAYERS]
    for pos in range(n):
        p = g[G_ORDER + pos]
        for d in range(P[R_DICE]):
            pl[p, PL_DICE + d] = 1 + rng_mod.randint(rng, 6)
        log_event(g, side[2], EV_ROLL, p, pl[p, PL_DICE], pl[p, PL_DICE + 1], pl[p, PL_DICE + 2])
        a, b, c = pl[p, PL_DICE], pl[p, PL_DICE + 1], pl[p, PL_DICE + 2]
        if a == b and b == c:
            side[0][p, ST_TRIPLES] += 1
        elif a == b or b == c or a == c:
            side[0][p, ST_DOUBLES] += 1
    if P[R_PUTUTU] == 0:
        return
    for pos in range(n - 1, -1, -1):
        p = g[G_ORDER + pos]
        a, b, c = pl[p, PL_DICE], pl[p, PL_DICE + 1], pl[p, PL_DICE + 2]
        if a == b and b == c:
            if g[G_PUTUTU2] > 0:
                g[G_PUTUTU2] -= 1
                pl[p, PL_PUTUTU2] += 1
                side[0][p, ST_PUTUTU_GAINED2] += 1
                log_event(g, side[2], EV_PUTUTU_GAIN, p, 2)
            else:
                g[G_PUTUTU_SHORT] += 1
        elif a == b or b == c or a == c:
            if g[G_PUTUTU1] > 0:
                g[G_PUTUTU1] -= 1
                pl[p, PL_PUTUTU1] += 1
                side[0][p, ST_PUTUTU_GAINED1] += 1
                log_event(g, side[2], EV_PUTUTU_GAIN, p, 1)
            else:
                g[G_PUTUTU_SHORT] += 1


# ------------------------------------------------------------------------------ setup

@njit_noalloc
def shuffle_into(rng, arr, n):
    if n > 1:
        rng_mod.shuffle(rng, arr, n)


@njit_noalloc
def setup(P, st, side, n_players):
    """Setup 1-15 for n players."""
    g, pl, board, decks, rng = st
    scr = side[3][SCR_TMP]
    n = n_players
    g[G_N_PLAYERS] = n
    g[G_OFFERING_SUPPLY] = P[R_OFFERING_SUPPLY]
    g[G_FOOD_SUPPLY] = P[R_FOOD_SUPPLY]
    for c in range(N_COLOURS):
        g[G_FEATHER_SUPPLY + c] = P[R_FEATHERS_PER_COLOUR] * n
    g[G_PUTUTU1] = P[R_PUTUTU1] if P[R_PUTUTU] != 0 else 0
    g[G_PUTUTU2] = P[R_PUTUTU2] if P[R_PUTUTU] != 0 else 0
    clear_action_board(st)
    for i in range(N_VILLAGES):
        board[BD_STACK_N + i] = 0
    # 6. god piles, one per god
    copies = P[R_GOD_COPIES]
    for god in range(N_GODS):
        k = 0
        for a in range(3):
            for _ in range(copies):
                decks[DK_GOD + god * 12 + k] = god * 3 + a
                k += 1
        shuffle_into(rng, decks[DK_GOD + god * 12:DK_GOD + god * 12 + k], k)
        g[G_GOD_PILE_N + god] = k
        g[G_GOD_UP + god] = -1
    # 7. study and farm stacks, 6 face up each
    for kind in range(2):
        stack = DK_STUDY if kind == STUDY else DK_FARM
        k = 0
        for t in range(N_PEOPLE):
            if tile_field(P, t, TF_KIND) == kind:
                decks[stack + k] = t
                k += 1
        shuffle_into(rng, decks[stack:stack + k], k)
        g[G_STUDY_N if kind == STUDY else G_FARM_N] = k
        refill_display(P, st, kind)
    # 9. Inti medals on the temple
    g[G_TEMPLE_MEDALS] = P[R_TEMPLE_MEDALS]
    for s in range(N_TEMPLE):
        board[BD_TEMPLE + s] = -1
    # 10. goods onto the market rows (one of each type out with 2-3 players)
    row = 5 if n >= 4 else P[R_SMALL_MARKET_ROW]
    g[G_MARKET_ROW_SIZE] = row
    k = 0
    for t in range(N_GOODS):
        count = good_field(P, t, GF_COUNT) - (1 if n < 4 and good_field(P, t, GF_COUNT) > 0 else 0)
        g[G_BOX_GOODS] += good_field(P, t, GF_COUNT) - count
        for _ in range(count):
            scr[k] = t
            k += 1
    shuffle_into(rng, scr[:k], k)
    used = 0
    for r in range(P[R_ROUNDS]):
        for i in range(5):
            if i < row and used < k:
                board[BD_MARKET + r * 5 + i] = scr[used]
                used += 1
            else:
                board[BD_MARKET + r * 5 + i] = -1
    g[G_BOX_GOODS] += k - used
    # 11. golden missions in piles, the palace display
    k = 0
    for m in range(P[H_MISSIONS]):
        if mission_field(P, m, MF_STARTING) == 0:
            decks[DK_MISSION + k] = m
            k += 1
    shuffle_into(rng, decks[DK_MISSION:DK_MISSION + k], k)
    g[G_MISSION_N] = k
    g[G_PALACE_SIZE] = n + P[R_PALACE_EXTRA]
    for i in range(PALACE_SLOTS):
        board[BD_PALACE + i] = -1
    refill_palace(P, st)
    # 13. random mask boards
    n_masks = P[H_MASKS]
    for i in range(n_masks):
        scr[i] = i
    shuffle_into(rng, scr[:n_masks], n_masks)
    for p in range(MAX_PLAYERS):
        for i in range(12):
            pl[p, PL_TILE + i] = -1
        for i in range(3):
            pl[p, PL_MISSION + i] = -1
        pl[p, PL_USED_STUDY] = -1
        pl[p, PL_USED_FARM] = -1
    for p in range(n):
        pl[p, PL_MASK] = scr[p % n_masks]
        pl[p, PL_QUIPU_MASK] = P[R_QUIPUS]
        pl[p, PL_PRIESTS_HOME] = P[R_PRIESTS]
        pl[p, PL_LOC] = CUZCO
    # 15. order tokens (and their starting VP, status stack), feathers, offerings, medals
    for i in range(n):
        scr[i] = i
    shuffle_into(rng, scr[:n], n)
    for pos in range(n):
        p = scr[pos]
        g[G_ORDER + pos] = p
        pl[p, PL_ORDER_POS] = pos
        pl[p, PL_STATUS_SEQ] = n - pos
        side[0][p, ST_START_ORDER] = pos
        gain_vp(st, side, p, P[R_START_VP + pos], VP_START)
    g[G_STATUS_SEQ] = n
    for c in range(N_COLOURS):
        scr[c] = c
    shuffle_into(rng, scr[:N_COLOURS], N_COLOURS)
    for p in range(n):
        take_feather(P, st, side, p, scr[p % N_COLOURS])
        gain_offerings(st, p, P[R_START_OFFERINGS])
        pl[p, PL_MEDALS] = P[R_START_MEDALS]
    # starting missions: one grey each, then two golden each
    k = 0
    for m in range(P[H_MISSIONS]):
        if mission_field(P, m, MF_STARTING) != 0:
            scr[k] = m
            k += 1
    shuffle_into(rng, scr[:k], k)
    for p in range(n):
        if p < k:
            pl[p, PL_MISSION] = scr[p]
        for j in range(P[R_GOLDEN_PER_PLAYER]):
            mn = g[G_MISSION_N]
            if mn > 0:
                pl[p, PL_MISSION + 1 + j] = decks[DK_MISSION + mn - 1]
                decks[DK_MISSION + mn - 1] = -1
                g[G_MISSION_N] = mn - 1
    g[G_BOX_MISSIONS] += max(0, k - n)
    deal_god_cards(P, st, side, n)
    for god in range(N_GODS):
        reveal_god(st, god)
    g[G_SETUP_DONE] = 1


@njit_noalloc
def deal_god_cards(P, st, side, n):
    """Setup 15: cards from every pile mixed; two each, a duplicate colour redealt from the
    reserve; the reserve goes face up onto the discard pile."""
    g, pl, decks, rng = st[0], st[1], st[3], st[4]
    res = side[3][SCR_TMP]
    per = P[R_GOD_DEAL + n]
    k = 0
    for god in range(N_GODS):
        for _ in range(per):
            pn = g[G_GOD_PILE_N + god]
            if pn > 0:
                res[k] = decks[DK_GOD + god * 12 + pn - 1]
                decks[DK_GOD + god * 12 + pn - 1] = -1
                g[G_GOD_PILE_N + god] = pn - 1
                k += 1
    shuffle_into(rng, res[:k], k)
    for p in range(n):
        for j in range(2):
            if k == 0:
                break
            k -= 1
            card = res[k]
            if j == 1:
                first = -1
                for c in range(N_CARDS):
                    if pl[p, PL_HAND + c] > 0:
                        first = c
                tries = 0
                while first >= 0 and card // 3 == first // 3 and k > 0 and tries < 100:
                    res[k] = card
                    shuffle_into(rng, res[:k + 1], k + 1)
                    card = res[k]
                    tries += 1
            pl[p, PL_HAND + card] += 1
            pl[p, PL_DEALT + card] += 1
            side[0][p, ST_CARD_GAINED + card] += 1
    for i in range(k):
        discard_god_card(st, res[i])


# ------------------------------------------------------------------------------ the end

@njit_noalloc
def final_scoring(P, st, side):
    """End of the Game: medals, top quipus, the six achievements; most VP wins, ties to the
    player further ahead in player order."""
    g, pl, board = st[0], st[1], st[2]
    n = g[G_N_PLAYERS]
    for p in range(n):
        gain_vp(st, side, p, P[R_MEDAL_END_VP] * pl[p, PL_MEDALS], VP_MEDALS)
    for v in range(N_VILLAGES):
        k = board[BD_STACK_N + v]
        if k > 0:
            gain_vp(st, side, board[BD_STACK + v * MAX_PLAYERS + k - 1], village_field(P, v, VF_VP), VP_VILLAGES)
    for p in range(n):
        ach = 0
        feathers = 0
        for c in range(N_COLOURS):
            feathers += pl[p, PL_FEATHERS + c]
        if feathers >= N_SLOTS:
            ach += P[R_ACH_FEATHERS]
        circ = 0
        for c in range(N_CIRCLETS):
            circ += pl[p, PL_CIRCLET + c]
        if circ >= N_CIRCLETS:
            ach += P[R_ACH_CIRCLETS]
        if pl[p, PL_MISSIONS_DONE] >= P[R_ROUNDS] + 3:
            ach += P[R_ACH_MISSIONS]
        if pl[p, PL_QUIPU_DELIVERED] >= P[R_QUIPUS]:
            ach += P[R_ACH_QUIPUS]
        if pl[p, PL_N_TILES] >= P[R_MASK_SPACES]:
            ach += P[R_ACH_PEOPLE]
        if pl[p, PL_GOODS_BOUGHT] >= P[R_ROUNDS]:
            ach += P[R_ACH_GOODS]
        gain_vp(st, side, p, ach, VP_ACHIEVEMENTS)
    stats = side[0]
    for rank in range(n):
        best = -1
        for pos in range(n):
            p = g[G_ORDER + pos]
            if stats[p, ST_RANK] != 0:
                continue
            if best < 0 or pl[p, PL_VP] > pl[best, PL_VP]:
                best = p
        stats[best, ST_RANK] = rank + 1
    for p in range(n):
        stats[p, ST_FINAL_ORDER] = pl[p, PL_ORDER_POS]
        if stats[p, ST_RANK] == 1:
            stats[p, ST_WON] = 1
            g[G_WINNER] = p
        log_event(g, side[2], EV_FINAL, p, pl[p, PL_VP], stats[p, ST_RANK], stats[p, ST_WON])


# ------------------------------------------------------------------------------ invariants

@njit_noalloc
def check_components(P, st):
    """Components are never created or lost; returns 0 or the code of the first broken check."""
    g, pl, board = st[0], st[1], st[2]
    n = g[G_N_PLAYERS]
    # offerings
    total = g[G_OFFERING_SUPPLY]
    for p in range(n):
        total += pl[p, PL_OFFERINGS]
    if total != P[R_OFFERING_SUPPLY]:
        return 1
    total = g[G_FOOD_SUPPLY]
    for p in range(n):
        total += pl[p, PL_FOOD]
    if total != P[R_FOOD_SUPPLY]:
        return 2
    for c in range(N_COLOURS):
        total = g[G_FEATHER_SUPPLY + c]
        for p in range(n):
            total += pl[p, PL_FEATHERS + c]
            if pl[p, PL_FEATHERS + c] > P[R_FEATHER_CAP]:
                return 3
        if total != P[R_FEATHERS_PER_COLOUR] * n:
            return 4
    # god cards: piles + face up + discard + hands
    total = g[G_GOD_DISCARD_N]
    for god in range(N_GODS):
        total += g[G_GOD_PILE_N + god] + (1 if g[G_GOD_UP + god] >= 0 else 0)
    for p in range(n):
        for c in range(N_CARDS):
            if pl[p, PL_HAND + c] < 0:
                return 5
            total += pl[p, PL_HAND + c]
    if total != N_GODS * 3 * P[R_GOD_COPIES]:
        return 6
    # people tiles: stacks + display + discards + masks
    total = g[G_STUDY_N] + g[G_FARM_N] + g[G_STUDY_DISCARD_N] + g[G_FARM_DISCARD_N]
    for i in range(6):
        total += (1 if board[BD_STUDY + i] >= 0 else 0) + (1 if board[BD_FARM + i] >= 0 else 0)
    for p in range(n):
        total += pl[p, PL_N_TILES]
        if empty_spaces(P, pl, p) < 0:
            return 7
    if total != N_PEOPLE:
        return 8
    # quipus and priests
    for p in range(n):
        if pl[p, PL_QUIPU_MASK] + pl[p, PL_QUIPU_RESERVE] + pl[p, PL_QUIPU_DELIVERED] != P[R_QUIPUS]:
            return 9
        on_steps = 0
        for s in range(N_TEMPLE):
            if board[BD_TEMPLE + s] == p:
                on_steps += 1
        if on_steps + pl[p, PL_PRIESTS_HOME] != P[R_PRIESTS]:
            return 10
        if pl[p, PL_PRIESTS_HOME] < 0 or pl[p, PL_OFFERINGS] < 0 or pl[p, PL_FOOD] < 0:
            return 11
    total = 0
    for v in range(N_VILLAGES):
        total += board[BD_STACK_N + v]
    delivered = 0
    for p in range(n):
        delivered += pl[p, PL_QUIPU_DELIVERED]
    if total != delivered:
        return 12
    # goods: market + owned + box
    total = g[G_BOX_GOODS]
    for i in range(30):
        if board[BD_MARKET + i] >= 0:
            total += 1
    for p in range(n):
        total += pl[p, PL_GOODS_BOUGHT]
    all_goods = 0
    for t in range(N_GOODS):
        all_goods += good_field(P, t, GF_COUNT)
    if total != all_goods:
        return 13
    # pututu tiles
    if P[R_PUTUTU] != 0:
        t1 = g[G_PUTUTU1]
        t2 = g[G_PUTUTU2]
        for p in range(n):
            t1 += pl[p, PL_PUTUTU1]
            t2 += pl[p, PL_PUTUTU2]
            if pl[p, PL_PUTUTU1] < 0 or pl[p, PL_PUTUTU2] < 0:
                return 14
        if t1 != P[R_PUTUTU1] or t2 != P[R_PUTUTU2]:
            return 15
    # medals: temple + held + used/removed never exceed the printed 10
    return 0
