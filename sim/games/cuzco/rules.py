"""The Cuzco forward model: setup, the three phases of a round, the end, and the Pututu module.

Section names in docstrings refer to ../shared/rules/cuzco.md. Every function works on the
parameter array `P` (the rules and the component tables, read by name: state.py) and the state
array `st` of state.py (S_* slots, P_* fields of a seat at seat_at(p)), and records what
happened in the record array `rec` (STAT_* fields at stats_at(p), the dice placed, scratch rows)
and the replay log `log`. A player's decisions come in as an option array (O_* fields
for a phase-I turn, U_* for a phase-II use) chosen by bots.py; the few choices made in the middle
of an action (which feather slot, which face-up god card) follow the preference rules at the end
of this module, driven by the acting bot's weights `w`.
"""
import numpy as np

from sim.core import rng as rng_mod
from sim.core.eventlog import append_event
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed
from .state import (
    MASK_FIELDS, WAY_PIPS_AT,
    A_BRIDGE, A_EXCHANGE, A_FARM, A_HEADDRESS, A_STUDY, A_TEMPLE, A_TRAIL, A_VP,
    AB_BRIDGE, AB_CIRCLET, AB_FARMING, AB_FEATHER, AB_FOOD, AB_GOD_CARD, AB_OFFERING, AB_QUIPU,
    AB_STATUS, AB_STUDY, AB_TRAIL, AB_VP, S_FARM_DISPLAY, S_MARKET, S_PALACE, S_SPACE_DICE,
    S_SPACE_MIN, S_SPACE_N, S_STACK, S_STACK_N, S_STUDY_DISPLAY, S_TEMPLE,
    C_BLESSING_PLENTY, C_DELIVERY_VP, C_DOUBLE_GOOD, C_DOUBLE_PEOPLE, C_EXTRA_FARM, C_EXTRA_STUDY,
    C_EXTRA_TURN, C_IGNORE_LOWER, C_JUMP, C_MISSION_DISCOUNT, C_MOVE_DIE, C_PRIEST_RETURN,
    C_SEARCH_DISCARD, C_SLIDE_UP, C_VIRTUAL_SIX, CUZCO, S_FARM_STACK, S_FARM_DISCARD, S_GOD_PILES,
    S_GOD_DISCARD, S_MISSION_PILE, S_STUDY_STACK, S_STUDY_DISCARD, EX_FEATHER, EX_FOOD, EX_GOD_CARD,
    EX_OFFERING, EX_STATUS, EX_VP, FARM, S_BOX_GOODS, S_BOX_MISSIONS, 
    S_FARM_DISCARD_N, S_FARM_N, S_FEATHER_SUPPLY, S_FOOD_SUPPLY, S_GOD_DISCARD_N,
    S_GOD_PILE_N, S_GOD_UP, S_LOG_N, S_MARKET_ROW_SIZE, S_MISSION_N, S_N_PLAYERS,
    S_OFFERING_SUPPLY, S_ORDER, S_PALACE_SIZE, S_PUTUTU1, S_PUTUTU2, S_PUTUTU_SHORT,
    S_ROTATION, S_ROUND, S_STATUS_SEQ, S_STUDY_DISCARD_N, S_STUDY_N, S_TEMPLE_MEDALS, S_TURNS,
    S_LOOKAHEAD, S_SETUP_DONE, S_VILLAGE_COLOUR, S_WINNER, GF_COUNT, GF_FOOD, GF_VP, MAX_DICE_ON_SPACE, MAX_PLAYERS, MAX_SPACES, MF_ARG1,
    MF_ARG2, MF_KIND1, MF_KIND2, MF_N1, MF_N2, MF_STARTING, MK_CIRCLETS, MK_FARM_ABILITIES,
    MK_FARM_SLID, MK_FARM_TILES, MK_FEATHER_COLOURS, MK_FEATHERS, MK_FEATHERS_OF_COLOUR, MK_FOOD,
    MK_GOD_COLOURS, MK_GOD_SAME_COLOUR, MK_GODS_OF, MK_GOODS, MK_GOODS_OF_TYPE, MK_GOODS_TYPES,
    MK_MEDALS, MK_NONE, MK_OFFERINGS, MK_ORDER_TOKEN_ONE, MK_PEOPLE_SLID, MK_PEOPLE_WITH_ABILITY,
    MK_PRIESTS, MK_STUDY_ABILITIES, MK_STUDY_SLID, MK_STUDY_TILES, MK_VILLAGE_VALUES,
    MK_VILLAGES, MK_VILLAGES_IN_RING, MK_VILLAGES_OF_COLOUR, MK_VILLAGES_WORTH, N_ABILITIES,
    N_CARDS, N_CIRCLETS, N_COLOURS, N_EXCHANGES, N_GODS, N_GOODS, N_SLOTS, N_TEMPLE, N_VILLAGES,
    NO_DIE, P_CIRCLET, P_DELIVERED, P_DICE, P_DOUBLE_PEOPLE, P_FEATHERS, P_FOOD, P_GOODS,
    P_DEALT, P_GOODS_BOUGHT, P_HAND, P_LOC, P_MAY_ROTATE, P_MASK, P_MEDALS, P_MISSION, P_MISSIONS_DONE, P_N_TILES,
    P_OFFERINGS, P_ORDER_POS, P_PRIESTS_HOME, P_PUTUTU1, P_PUTUTU2, P_QUIPU_DELIVERED,
    P_QUIPU_MASK, P_QUIPU_RESERVE, P_SLID, P_SLOT, P_STATUS, P_STATUS_SEQ, P_TILE,
    PALACE_SLOTS, P_USED_FARM, P_USED_STUDY, P_VP, R_ACH_CIRCLETS, R_ACH_FEATHERS, R_ACH_GOODS,
    R_ACH_MISSIONS, R_ACH_PEOPLE, R_ACH_QUIPUS, R_BLESS_CARD, R_BLESS_STATUS, R_CIRCLET_VP,
    R_DEAL_PIECES, R_DICE, R_DISPLAY_TILES, R_EXCHANGE, R_FEATHER_CAP, R_FEATHERS_PER_COLOUR, R_FOOD_SUPPLY,
    CARDS_AT, CF_COPIES, CF_OFFERINGS, FORBIDDEN_AT, S_CARD_COST, GOD_PILE_SLOTS, N_CF, P_FORBIDDEN, R_GOD_DEAL, R_GOLDEN_PER_PLAYER, R_HEADDRESS_VP, R_MASK_SPACES, R_MEDAL_END_VP,
    R_MISSION_VP, R_MISSION_VP_REDUCED, R_OFFERING_SUPPLY, R_PALACE_EXTRA, R_PLENTY_FOOD,
    R_PLENTY_STATUS, R_PRIEST_VP, R_PRIESTS, R_PUTUTU, R_PUTUTU1, R_PUTUTU2, R_QUIPUS, R_ROUNDS,
    R_SMALL_MARKET_ROW, R_START_MEDALS, R_START_OFFERINGS, R_START_VP, R_STATUS_LEN, R_STATUS_VP,
    R_TEMPLE_MEDALS, R_VP_SPACE, RF_KIND, RF_PIPS, SCR_LIST, SCR_TMP, STAT_BLESSINGS,
    STAT_CARD_GAINED, STAT_CARD_MEDAL, STAT_CARD_PLAYED, STAT_FINAL_ORDER, STAT_GOOD_BOUGHT, STAT_HEADDRESSES,
    STAT_MEDALS_GAINED, STAT_MISSION_DONE, STAT_MISSION_FAILED, STAT_PEOPLE, STAT_PUTUTU_CHANGED,
    STAT_PUTUTU_GAINED1, STAT_PUTUTU_GAINED2, STAT_PUTUTU_SPENT1, STAT_PUTUTU_SPENT2, STAT_DOUBLES, STAT_RANK, STAT_START_ORDER, STAT_TRIPLES, STAT_VP, STAT_CHOICE, CH_SETUP_KEEP_FIRST, CH_SETUP_KEEP_SECOND, CH_SETUP_SAME, CH_PAID_CARD, CH_PAID_MEDAL, CH_ROTATION_KEPT, CH_ROTATION_TURNED, CH_ARM_BACK, CH_JUMP_OUTER, CH_SLIDE_DOWN_DEAREST, CH_SLIDE_DOWN_OTHER, CH_SLIDE_UP_DEAREST, CH_SLIDE_UP_OTHER, CH_SLIDE_UP_NONE, CH_DISCARD_TILE_STUDY, CH_DISCARD_TILE_FARM, CH_MOVE_DIE_TO_VP, CH_MOVE_DIE_ELSEWHERE, CH_FEATHER_SLOT_FIXED, CH_FEATHER_SLOT_OTHER, CH_FOLLOW_TAKEN, CH_FOLLOW_DECLINED, CH_TURN_CARDS,
    STAT_WON, STUDY, TF_ABILITY, TF_KIND, TF_VALUE, VF_COLOUR, VF_PIECE, VF_RING, VF_VP, VP_ACHIEVEMENTS,
    VP_ACTION_SPACE, VP_DELIVERY, VP_EXCHANGE, VP_GOODS, VP_HEADDRESS, VP_MEDALS, VP_MISSIONS,
    VP_PEOPLE, VP_PRIESTS, VP_START, VP_STATUS, VP_VILLAGES, WAY_ANY, WAY_BRIDGE, WAY_TRAIL,
    H_MASKS, H_MISSIONS, N_ARMS, N_PEOPLE, arm_field, village_colour, good_field, joint_amount, mask_colour, mission_field, space_actions, tile_field, village_field,
    N_DSTAT_PIPS, REC_DICE, T_LOG, T_PARAMS, T_REC, T_STATE, rng_of, scr_row, seat_at, seat_in_order, stats_at,
)
from .weights import EXTRA_COPY, W_ABILITY_PREF, W_ARM, W_CARD, W_CARD_PREF, W_CUZCO, W_FOOD, W_MISSION_GAP, W_MISSION_READY, W_PAIR, W_STATUS, W_TILE, W_UNSLID

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
O_CARD_ARG = 10  # 06: space to move a die from
O_CARD_ARG2 = 11  # 06: space to move it to
O_PLENTY = 12  # Viracocha 08 on the turn's fire blessing: 0 no, 1 card, 2 medal
O_DELIVERY = 13  # Pacha Mama 10 on the turn's delivery: 0 no, 1 card, 2 medal
O_MOVE_INDEX = 14  # 06: which die of the space it moves from (its place in the space's list)
O_CARD2 = 15  # a second card with the first (06/07/13 first, then 13, 14, 12, 02 or 09), -1 none
O_MEDAL2 = 16  # 1 if the second card is played through an Inti medal
O_DISCARD_POS = 17  # 09: the people discard tile taken (its position)
O_EX = 18  # + exchange: times it is bought
O_CARD3 = O_EX + N_EXCHANGES  # a third card (06/07 first, 13 second, then 12, 02 or 09), -1 none
O_MEDAL3 = O_CARD3 + 1  # 1 if the third card is played through an Inti medal
O_CARD4 = O_MEDAL3 + 1  # a fourth card (Mama Quilia 05 after three), -1 none
O_MEDAL4 = O_CARD4 + 1
O_FOLLOW = O_MEDAL4 + 1  # follow-up medals planned (FOLLOW_* bits): the card this turn's medal turns up
N_O = O_FOLLOW + 1
CARD_SLOTS = (O_CARD, O_CARD2, O_CARD3, O_CARD4)  # each card slot's medal flag is the field after it
# O_FOLLOW: a medal spent on a god's face-up card turns up that god's next card, hidden while the turn
# is chosen; the bot decides beforehand, for the one card that could follow in the turn, whether it
# would use it by a second medal if it comes up (its value does not depend on which card comes up,
# only on whether it is this one), and perform_turn uses it then (follow_up)
FOLLOW_PLENTY = 1  # Viracocha 08 on the turn's fire blessing, after a medal-paid 07
FOLLOW_SEARCH = 2  # Viracocha 09 on the turn's people tile, after a medal-paid 07
FOLLOW_EXTRA = 4  # Mama Quilia 05 after the turn, after a medal-paid 06
FOLLOW_CARDS = (C_BLESSING_PLENTY, C_SEARCH_DISCARD, C_EXTRA_TURN)  # bit k: FOLLOW_CARDS[k]

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


@njit_typed(f"void({T_STATE}, {T_LOG}, int64, int64, int64, int64, int64, int64, int64)")
def log_event(st, log, ev, a, b, c, d, e, f):
    """Append an event for `sim replay`; a no-op unless the log was made with logging on.
    Every event passes all six values (unused ones 0): one signature, compiled once."""
    append_event(st, S_LOG_N, log, ev, a, b, c, d, e, f)


# ------------------------------------------------------------------------------ supplies

@njit_typed(f"void({T_STATE}, {T_REC}, {T_LOG}, int64, int64, int64)")
def gain_vp(st, rec, log, p, n, source):
    st[seat_at(p) + P_VP] += n
    rec[stats_at(p) + STAT_VP + source] += n
    if n != 0:
        log_event(st, log, EV_VP, p, n, source, 0, 0, 0)


@njit_typed(f"int64({T_STATE}, int64, int64, int64, int64)")
def take_from_supply(st, p, supply, field, n):
    """Up to n items of a finite common supply (st[supply]) onto a player's mask board (P_* field);
    returns how many there were."""
    k = min(n, st[supply])
    st[supply] -= k
    st[seat_at(p) + field] += k
    return k


@njit_typed(f"int64({T_STATE}, int64, int64)")
def gain_offerings(st, p, n):
    """Offerings come from the common supply (30 printed) while it lasts."""
    return take_from_supply(st, p, S_OFFERING_SUPPLY, P_OFFERINGS, n)


@njit_typed(f"int64({T_STATE}, int64, int64)")
def gain_food(st, p, n):
    """Food comes from the common supply (36 printed) while it lasts."""
    return take_from_supply(st, p, S_FOOD_SUPPLY, P_FOOD, n)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, int64, int64)")
def advance_status(P, st, p, n):
    """Move the status marker n spaces; it lands on top of the markers already there."""
    if n <= 0:
        return
    st[seat_at(p) + P_STATUS] = min(st[seat_at(p) + P_STATUS] + n, P[R_STATUS_LEN] - 1)
    st[S_STATUS_SEQ] += 1
    st[seat_at(p) + P_STATUS_SEQ] = st[S_STATUS_SEQ]


# ------------------------------------------------------------------------------ missions' requirements
# (before the choices that weigh them: which feather, which god card)

@njit_noalloc
def popcount(bits):
    n = 0
    while bits != 0:
        bits &= bits - 1
        n += 1
    return n


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64, int64)")
def count_tiles(P, st, p, kind, ability):
    """Tiles of a kind (and ability, -1 any) on the mask board. The walk stops once it has seen
    the seat's P_N_TILES tiles (every rule that puts or takes a tile counts it there): the same
    count, without the empty spaces after the last tile (tiles go to the first empty space)."""
    n = 0
    left = st[seat_at(p) + P_N_TILES]
    for i in range(12):
        if left <= 0:
            break
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0:
            left -= 1
            if tile_field(P, t, TF_KIND) == kind and (ability < 0 or tile_field(P, t, TF_ABILITY) == ability):
                n += 1
    return n


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def ability_bits(P, st, p, kind):
    """The abilities of a seat's tiles of one kind, as a bit set (bit = ability)."""
    seen = np.int64(0)
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0 and tile_field(P, t, TF_KIND) == kind:
            seen |= np.int64(1) << tile_field(P, t, TF_ABILITY)
    return seen


@njit_noalloc
def requirement_have(P, st, p, kind, arg):
    """How much of a mission requirement a player has (Addendum: The Missions of the Sapa Inca)."""
    if kind == MK_PRIESTS:
        n = 0
        for s in range(N_TEMPLE):
            if st[S_TEMPLE + s] == p:
                n += 1
        return n
    if kind == MK_FARM_TILES:
        return count_tiles(P, st, p, FARM, -1)
    if kind == MK_STUDY_TILES:
        return count_tiles(P, st, p, STUDY, -1)
    if kind == MK_ORDER_TOKEN_ONE:
        return 1 if st[seat_at(p) + P_ORDER_POS] == 0 else 0
    if kind == MK_GOODS:
        n = 0
        for t in range(N_GOODS):
            n += st[seat_at(p) + P_GOODS + t]
        return n
    if kind == MK_VILLAGES:
        return st[seat_at(p) + P_QUIPU_DELIVERED]
    if kind == MK_FEATHERS_OF_COLOUR:
        return st[seat_at(p) + P_FEATHERS + arg]
    if kind == MK_FEATHER_COLOURS:
        n = 0
        for c in range(N_COLOURS):
            if st[seat_at(p) + P_FEATHERS + c] > 0:
                n += 1
        return n
    if kind == MK_FEATHERS:
        n = 0
        for c in range(N_COLOURS):
            n += st[seat_at(p) + P_FEATHERS + c]
        return n
    if kind == MK_VILLAGES_OF_COLOUR or kind == MK_VILLAGES_WORTH or kind == MK_VILLAGES_IN_RING:
        n = 0
        for v in range(N_VILLAGES):
            if st[seat_at(p) + P_DELIVERED + v] != 0:
                if kind == MK_VILLAGES_OF_COLOUR:
                    value = village_colour(st, v)  # this game's colour: the pieces are dealt
                else:
                    value = village_field(P, v, VF_VP if kind == MK_VILLAGES_WORTH else VF_RING)
                if value == arg:
                    n += 1
        return n
    if kind == MK_VILLAGE_VALUES:
        seen = np.int64(0)  # bit set of the VP values delivered to (values 0..63)
        for v in range(N_VILLAGES):
            if st[seat_at(p) + P_DELIVERED + v] != 0:
                seen |= np.int64(1) << min(village_field(P, v, VF_VP), 63)
        return popcount(seen)
    if kind == MK_STUDY_ABILITIES or kind == MK_FARM_ABILITIES:
        return popcount(ability_bits(P, st, p, STUDY if kind == MK_STUDY_ABILITIES else FARM))
    if kind == MK_STUDY_SLID or kind == MK_FARM_SLID or kind == MK_PEOPLE_SLID:
        n = 0
        for i in range(12):
            t = st[seat_at(p) + P_TILE + i]
            if t >= 0 and st[seat_at(p) + P_SLID + i] != 0:
                if kind == MK_PEOPLE_SLID or tile_field(P, t, TF_KIND) == (STUDY if kind == MK_STUDY_SLID else FARM):
                    n += 1
        return n
    if kind == MK_GOD_COLOURS or kind == MK_GOD_SAME_COLOUR or kind == MK_GODS_OF:
        distinct = 0
        most = 0
        of = 0
        for god in range(N_GODS):
            n = st[seat_at(p) + P_HAND + 3 * god] + st[seat_at(p) + P_HAND + 3 * god + 1] + st[seat_at(p) + P_HAND + 3 * god + 2]
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
        return st[seat_at(p) + P_GOODS + arg]
    if kind == MK_GOODS_TYPES:
        n = 0
        for t in range(N_GOODS):
            if st[seat_at(p) + P_GOODS + t] > 0:
                n += 1
        return n
    if kind == MK_FOOD:
        return st[seat_at(p) + P_FOOD]
    if kind == MK_CIRCLETS:
        n = 0
        for c in range(N_CIRCLETS):
            n += st[seat_at(p) + P_CIRCLET + c]
        return n
    if kind == MK_MEDALS:
        return st[seat_at(p) + P_MEDALS]
    if kind == MK_OFFERINGS:
        return st[seat_at(p) + P_OFFERINGS]
    if kind == MK_PEOPLE_WITH_ABILITY:
        return count_tiles(P, st, p, STUDY, arg) + count_tiles(P, st, p, FARM, arg)
    return 0


@njit_inline
def part_shortfall(P, st, p, m, part):
    """Requirement units a player lacks for one part (0 or 1) of a mission; 0 for a part it has
    not. Inlined: the bots' valuation keeps each part apart (bots.journal_value)."""
    kind = mission_field(P, m, MF_KIND1 if part == 0 else MF_KIND2)
    if kind == MK_NONE:
        return 0
    need = mission_field(P, m, MF_N1 if part == 0 else MF_N2)
    return max(0, need - requirement_have(P, st, p, kind, mission_field(P, m, MF_ARG1 if part == 0 else MF_ARG2)))


@njit_noalloc
def mission_shortfall(P, st, p, m):
    """Requirement units a player lacks for a mission (0: met). A two-part mission adds its parts;
    Mama Quilia 04 completes a mission with a shortfall of 1."""
    return part_shortfall(P, st, p, m, 0) + part_shortfall(P, st, p, m, 1)


@njit_noalloc
def mission_term(w, short):
    """A mission slot's part of a bot's position value: a bonus if met, a penalty per unit short
    (capped at 6)."""
    if short == 0:
        return w[W_MISSION_READY]
    return -w[W_MISSION_GAP] * min(short, 6)


GOD_CARD_KINDS = (1 << MK_GOD_COLOURS) | (1 << MK_GOD_SAME_COLOUR) | (1 << MK_GODS_OF)
FEATHER_KINDS = (1 << MK_FEATHERS_OF_COLOUR) | (1 << MK_FEATHER_COLOURS) | (1 << MK_FEATHERS)
SLID_KINDS = (1 << MK_STUDY_SLID) | (1 << MK_FARM_SLID) | (1 << MK_PEOPLE_SLID)
TILE_KINDS = (1 << MK_STUDY_TILES) | (1 << MK_FARM_TILES) | (1 << MK_STUDY_ABILITIES) | (1 << MK_FARM_ABILITIES) | \
    (1 << MK_PEOPLE_WITH_ABILITY) | (1 << MK_STUDY_SLID) | (1 << MK_FARM_SLID) | (1 << MK_PEOPLE_SLID)


@njit_inline
def weighed_shortfall(P, st, p, kinds, slot):
    """One slot's part of weighed_shortfalls."""
    m = st[seat_at(p) + P_MISSION + slot]
    if m < 0:
        return -1
    kind1 = mission_field(P, m, MF_KIND1)
    kind2 = mission_field(P, m, MF_KIND2)
    if (kind1 == MK_NONE or (kinds >> kind1) & 1 == 0) and (kind2 == MK_NONE or (kinds >> kind2) & 1 == 0):
        return -1
    return mission_shortfall(P, st, p, m)


@njit_typed(f"UniTuple(int64, 3)({T_PARAMS}, {T_STATE}, int64, int64)")
def weighed_shortfalls(P, st, p, kinds):
    """The shortfall of each mission slot (0-2) that has a requirement of the given kinds (a bit
    per MK_* kind), -1 for the others: what mission_gain weighs one more unit against, the same
    for every candidate of a choice, so computed once per choice."""
    return weighed_shortfall(P, st, p, kinds, 0), weighed_shortfall(P, st, p, kinds, 1), \
        weighed_shortfall(P, st, p, kinds, 2)


@njit_noalloc
def mission_gain(P, st, p, w, field, before):
    """How much one more of st[field] moves the value of the player's missions weighed
    (weighed_shortfalls: `before`, their shortfalls now), by the bot's mission weights."""
    gain = 0.0
    for slot in range(3):
        if before[slot] < 0:
            continue
        m = st[seat_at(p) + P_MISSION + slot]
        st[field] += 1
        after = mission_shortfall(P, st, p, m)
        st[field] -= 1
        gain += mission_term(w, after) - mission_term(w, before[slot])
    return gain


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64)")
def missions_value(P, st, p, w, kinds):
    """The bot's mission terms (mission_term) of the slots with a requirement of the given kinds:
    compared before and after a change, what the change does for those missions."""
    v = 0.0
    for slot in range(3):
        short = weighed_shortfall(P, st, p, kinds, slot)
        if short >= 0:
            v += mission_term(w, short)
    return v


@njit_inline
def rounds_left(P, st):
    """Rounds left, the current one included (the bots' "per round left")."""
    return P[R_ROUNDS] - st[S_ROUND]


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64, int64)")
def slid_gain(P, st, p, w, kind, value):
    """What a tile slid down now gives a bot: `value` status (study, as the status VP it moves;
    nothing past the track's last space) or food (farm; as much as the supply holds, worth to
    the bot up to 8 food held), by the bot's weights."""
    if kind == STUDY:
        pos = st[seat_at(p) + P_STATUS]
        to = min(pos + value, P[R_STATUS_LEN] - 1)
        return w[W_STATUS] * (P[R_STATUS_VP + to] - P[R_STATUS_VP + pos])
    if rounds_left(P, st) <= 0:
        return 0.0
    food = st[seat_at(p) + P_FOOD]
    return w[W_FOOD] * (min(food + min(value, st[S_FOOD_SUPPLY]), 8) - min(food, 8))


@njit_inline
def unslid_worth(P, st, w, value):
    """A tile's value kept unslid, to a bot: `unslid` per status/food value per round left."""
    return w[W_UNSLID] * value * rounds_left(P, st)


@njit_inline
def tile_worth(P, st, p, w, tile):
    """A bot's value of one more people tile on its mask (Viracocha 09's choice): per round left,
    the tile itself, its unslid value and its ability (half for an identical kind and ability
    already held), plus what it does for the missions counting tiles (15, 16, 20, 21, 44-55;
    tried on an empty space and taken back)."""
    kind = tile_field(P, tile, TF_KIND)
    ability = tile_field(P, tile, TF_ABILITY)
    same = count_tiles(P, st, p, kind, ability) > 0
    v = rounds_left(P, st) * (w[W_TILE] + w[W_UNSLID] * tile_field(P, tile, TF_VALUE) +
                              w[W_ABILITY_PREF + ability] * (0.5 if same else 1.0))
    for i in range(12):
        if st[seat_at(p) + P_TILE + i] < 0:
            before = missions_value(P, st, p, w, TILE_KINDS)
            st[seat_at(p) + P_TILE + i] = tile
            st[seat_at(p) + P_N_TILES] += 1
            v += missions_value(P, st, p, w, TILE_KINDS) - before
            st[seat_at(p) + P_TILE + i] = -1
            st[seat_at(p) + P_N_TILES] -= 1
            break
    return v


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def feather_slot_for(P, st, p, colour):
    """The free slot a colour goes to: one that completes a circlet's pair, the cheapest first;
    otherwise the cheapest circlet with a free slot of that colour. -1 if none is free."""
    mask = st[seat_at(p) + P_MASK]
    best = -1
    best_key = 1 << 30
    for slot in range(N_SLOTS):
        if mask_colour(P, mask, slot) != colour or st[seat_at(p) + P_SLOT + slot] != 0:
            continue
        c = slot // 2
        partner = slot ^ 1
        key = c
        if st[seat_at(p) + P_CIRCLET + c] != 0:
            key += 100
        elif st[seat_at(p) + P_SLOT + partner] == 0:
            key += 10
        if key < best_key:
            best_key = key
            best = slot
    return best


@njit_inline
def feather_colour_open(P, st, p, colour):
    """The limits on a feather of this colour other than a free slot: fewer than the cap of the
    colour held, and one left in the supply."""
    return st[seat_at(p) + P_FEATHERS + colour] < P[R_FEATHER_CAP] and st[S_FEATHER_SUPPLY + colour] > 0


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def feather_room(P, st, p, colour):
    """The slot a feather of this colour would take, -1 if it cannot be taken (3 of the colour
    already, none left in the supply, or no free slot of that colour)."""
    if not feather_colour_open(P, st, p, colour):
        return -1
    return feather_slot_for(P, st, p, colour)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64)")
def can_take_feather(P, st, p, colour):
    return feather_room(P, st, p, colour) >= 0


@njit_typed(f"void({T_STATE}, {T_LOG}, int64, int64, int64)")
def put_feather(st, log, p, colour, slot):
    st[seat_at(p) + P_SLOT + slot] = 1
    st[seat_at(p) + P_FEATHERS + colour] += 1
    st[S_FEATHER_SUPPLY + colour] -= 1
    log_event(st, log, EV_FEATHER, p, colour, slot, 0, 0, 0)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, int64)")
def take_feather(P, st, rec, log, p, colour):
    """A feather from the common supply into a matching slot (never more than 3 of a colour), the
    default slot (feather_slot_for): the starting feather; a bot's feathers go where it chooses
    (take_chosen_feather)."""
    slot = feather_room(P, st, p, colour)
    if slot < 0:
        return False
    put_feather(st, log, p, colour, slot)
    return True


@njit_noalloc
def slot_value(P, st, p, w, slot):
    """A feather's worth in a slot to a bot, per situation: a circlet made ready (its headdress VP
    next round and the circlet's VP, as its position value counts it); a pair started, half of
    that times the chance a die activates the circlet ((7 - pips) / 6), if a feather of the
    partner's colour can still come (the supply holds one and the player has fewer than 3);
    nothing in an activated circlet."""
    c = slot // 2
    if st[seat_at(p) + P_CIRCLET + c] != 0:
        return 0.0
    if st[seat_at(p) + P_SLOT + (slot ^ 1)] != 0:
        return ready_circlet_value(P, st, w, c)
    partner = mask_colour(P, st[seat_at(p) + P_MASK], slot ^ 1)
    if st[S_FEATHER_SUPPLY + partner] <= 0 or st[seat_at(p) + P_FEATHERS + partner] >= P[R_FEATHER_CAP]:
        return 0.0
    return 0.5 * ready_circlet_value(P, st, w, c) * (6 - c) / 6.0


@njit_noalloc
def ready_circlet_value(P, st, w, c):
    """A bot's value of circlet c ready to activate: the headdress VP it would pay next round and
    its own VP, times the `pair` weight."""
    return w[W_PAIR] * (P[R_HEADDRESS_VP + min(st[S_ROUND] + 1, P[R_ROUNDS] - 1)] + P[R_CIRCLET_VP + c])


@njit_noalloc
def feather_slot_choice(P, st, p, w, colour):
    """The free slot of this colour a player puts a feather in: the one its bot values most
    (slot_value); among equals, the order of feather_slot_for (a pair completed, then a pair
    started, then an activated circlet's slot; the cheapest circlet first). -1 if it cannot be
    taken. The loop finds the free slots of the colour itself, so only feather_room's other
    limits are checked first (feather_colour_open): feather_room's own walk over the
    slots (feather_slot_for) is -1 exactly when the loop finds no slot, so the choice is the same."""
    if not feather_colour_open(P, st, p, colour):
        return -1
    mask = st[seat_at(p) + P_MASK]
    best = -1
    best_v = -1e300
    best_rank = 3
    for slot in range(N_SLOTS):
        if mask_colour(P, mask, slot) != colour or st[seat_at(p) + P_SLOT + slot] != 0:
            continue
        c = slot // 2
        rank = 2 if st[seat_at(p) + P_CIRCLET + c] != 0 else (1 if st[seat_at(p) + P_SLOT + (slot ^ 1)] == 0 else 0)
        v = slot_value(P, st, p, w, slot)
        if v > best_v or (v == best_v and rank < best_rank):
            best_v = v
            best_rank = rank
            best = slot
    return best


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64)")
def take_chosen_feather(P, st, rec, log, p, w, colour):
    """A feather of this colour into the slot the bot chooses (feather_slot_choice); rec counts
    whether it is the slot the fixed rule before issue 35 took (feather_slot_for)."""
    slot = feather_slot_choice(P, st, p, w, colour)
    if slot < 0:
        return False
    rec[stats_at(p) + STAT_CHOICE + (CH_FEATHER_SLOT_FIXED if slot == feather_slot_for(P, st, p, colour)
                                     else CH_FEATHER_SLOT_OTHER)] += 1
    put_feather(st, log, p, colour, slot)
    return True


@njit_noalloc
def feather_colour_choice(P, st, p, w):
    """The colour a player picks when any colour is allowed: the one its bot values most, for
    the slot it would take (slot_value) and for its feather missions (01-06 and the like);
    among equals, one that completes a pair, the cheapest circlet first. -1 if none can be taken."""
    best = -1
    best_v = -1e300
    best_key = 1 << 30
    before = weighed_shortfalls(P, st, p, FEATHER_KINDS)
    for colour in range(N_COLOURS):
        slot = feather_slot_choice(P, st, p, w, colour)
        if slot < 0:
            continue
        v = slot_value(P, st, p, w, slot) + mission_gain(P, st, p, w, seat_at(p) + P_FEATHERS + colour, before)
        key = slot // 2 + (0 if st[seat_at(p) + P_SLOT + (slot ^ 1)] != 0 else 10)
        if v > best_v or (v == best_v and key < best_key):
            best_v = v
            best_key = key
            best = colour
    return best


# ------------------------------------------------------------------------------ god cards

@njit_typed(f"int64({T_PARAMS}, int64)")
def card_copies(P, card):
    """Cards of this ability in its god's pile (gods.cards.NAME.copies; printed 4)."""
    return P[CARDS_AT + card * N_CF + CF_COPIES]


@njit_noalloc
def rebuild_god_pile(st, god):
    """Layout of God Cards: "Any time a draw pile of a certain god is exhausted, search the
    discard pile for cards of such god. Mix them well, and place them as the new draw pile." The
    god's cards leave the discard pile (the others keep their order) for its empty draw pile."""
    rng = rng_of(st)
    n = 0
    m = 0
    base = S_GOD_PILES + god * GOD_PILE_SLOTS
    for i in range(st[S_GOD_DISCARD_N]):
        card = st[S_GOD_DISCARD + i]
        if card // 3 == god and n < GOD_PILE_SLOTS:
            st[base + n] = card
            n += 1
        else:
            st[S_GOD_DISCARD + m] = card
            m += 1
    for i in range(m, st[S_GOD_DISCARD_N]):
        st[S_GOD_DISCARD + i] = -1
    st[S_GOD_DISCARD_N] = m
    if n > 1:
        rng_mod.shuffle(rng, st[base:base + n], n)
    st[S_GOD_PILE_N + god] = n


@njit_noalloc
def reveal_god(st, god):
    """Turn up the next card of a god's pile. A pile exhausted (its last card turned up, or
    found empty) is rebuilt at once from that god's discards (rebuild_god_pile), so cards
    discarded later wait on the discard pile until it is exhausted again."""
    rng = rng_of(st)
    if st[S_GOD_PILE_N + god] == 0:
        rebuild_god_pile(st, god)
    n = st[S_GOD_PILE_N + god]
    if n == 0:
        st[S_GOD_UP + god] = -1
    else:
        if st[S_LOOKAHEAD] != 0 and n > 1:
            # a look-ahead turns up a random card of the pile's contents, whatever their order
            base = S_GOD_PILES + god * GOD_PILE_SLOTS
            r = rng_mod.randint(rng, n)
            card = -1
            for a in range(god * 3, god * 3 + 3):
                k = 0
                for i in range(n):
                    if st[base + i] == a:
                        k += 1
                if card < 0 and r < k:
                    card = a
                r -= k
            for i in range(n):
                if st[base + i] == card:
                    st[base + i] = st[base + n - 1]
                    st[base + n - 1] = card
                    break
        st[S_GOD_UP + god] = st[S_GOD_PILES + god * GOD_PILE_SLOTS + n - 1]
        st[S_GOD_PILES + god * GOD_PILE_SLOTS + n - 1] = -1
        st[S_GOD_PILE_N + god] = n - 1
        if n == 1:
            rebuild_god_pile(st, god)


@njit_noalloc
def take_god_card(st, rec, log, p, god):
    """Take the face-up card of a god and reveal the next one."""
    card = st[S_GOD_UP + god]
    if card < 0:
        return -1
    st[seat_at(p) + P_HAND + card] += 1
    rec[stats_at(p) + STAT_CARD_GAINED + card] += 1
    log_event(st, log, EV_CARD_GAIN, p, card, 0, 0, 0, 0)
    st[S_GOD_UP + god] = -1
    reveal_god(st, god)
    return card


@njit_typed(f"int64({T_STATE}, int64)")
def card_cost(st, card):
    """Offerings it costs to play this card from the hand (Layout of God Cards, Cost: 1 printed;
    gods.cards.NAME.offerings)."""
    return st[S_CARD_COST + card]


@njit_typed(f"boolean({T_STATE}, int64, int64)")
def card_forbidden(st, p, card):
    """Whether seat p may not take or play this card (gods.forbidden_by_seat: a `sim value` study
    forbids one card to one seat; no rule of the game forbids a card)."""
    return (st[seat_at(p) + P_FORBIDDEN] >> card) & 1 != 0


@njit_typed(f"boolean({T_STATE}, int64)")
def any_card_to_take(st, p):
    """Whether a face-up card is there for seat p to take (one it is not forbidden)."""
    for god in range(N_GODS):
        card = st[S_GOD_UP + god]
        if card >= 0 and not card_forbidden(st, p, card):
            return True
    return False


@njit_noalloc
def god_pile_choice(P, st, p, w):
    """The face-up card a player takes (any of the five): the one its bot values most, as a card
    in hand (its preference; a copy already held is worth less, as in the position value) plus
    what it does for the player's missions. A card forbidden to the seat is never taken."""
    best = -1
    best_v = -1e300
    before = weighed_shortfalls(P, st, p, GOD_CARD_KINDS)
    for god in range(N_GODS):
        card = st[S_GOD_UP + god]
        if card < 0 or card_forbidden(st, p, card):
            continue
        held = st[seat_at(p) + P_HAND + card]
        v = w[W_CARD] * w[W_CARD_PREF + card] * (1.0 if held == 0 else EXTRA_COPY) + \
            mission_gain(P, st, p, w, seat_at(p) + P_HAND + card, before)
        if v > best_v:
            best_v = v
            best = god
    return best


@njit_inline
def take_preferred_god_card(P, st, rec, log, p, w):
    """The face-up card the bot prefers (god_pile_choice) taken into the hand (take_god_card's
    result; -1: none face up). Inlined: a compiled level of its own would emit the choice once more."""
    god = god_pile_choice(P, st, p, w)
    if god < 0:
        return -1
    return take_god_card(st, rec, log, p, god)


@njit_typed(f"void({T_STATE}, int64)")
def discard_god_card(st, card):
    """A card onto the face-up discard pile. A god whose draw pile is exhausted (empty: nothing of
    that god was left on the discard pile when it ran out) takes it as its new pile at once
    ("any time" a pile is exhausted, Layout of God Cards), and turns it up if its display space
    is empty too."""
    st[S_GOD_DISCARD + st[S_GOD_DISCARD_N]] = card
    st[S_GOD_DISCARD_N] += 1
    if st[S_SETUP_DONE] != 0 and st[S_GOD_PILE_N + card // 3] == 0:
        rebuild_god_pile(st, card // 3)
        if st[S_GOD_UP + card // 3] < 0:
            reveal_god(st, card // 3)


@njit_typed(f"int64({T_STATE}, int64, int64, int64)")
def payment(st, p, card, source):
    """`source` if a player can pay for a card's ability that way now, else SRC_NONE: SRC_CARD
    (a copy in hand and an offering) or SRC_MEDAL (an Inti medal and the card face up). Which of
    the two a player uses is the player's choice (card_source is the bots' default). A card
    forbidden to the seat (card_forbidden) cannot be paid for at all."""
    if card_forbidden(st, p, card):
        return SRC_NONE
    if source == SRC_CARD:
        if st[seat_at(p) + P_HAND + card] > 0 and st[seat_at(p) + P_OFFERINGS] >= card_cost(st, card):
            return SRC_CARD
    elif source == SRC_MEDAL:
        if st[seat_at(p) + P_MEDALS] > 0 and st[S_GOD_UP + card // 3] == card:
            return SRC_MEDAL
    return SRC_NONE


@njit_typed(f"int64({T_STATE}, int64, int64)")
def card_source(st, p, card):
    """How a player can use a card's ability now, a hand copy before a medal (the bots' default
    where the payment is not a choice they value): SRC_CARD, SRC_MEDAL or SRC_NONE."""
    src = payment(st, p, card, SRC_CARD)
    return src if src != SRC_NONE else payment(st, p, card, SRC_MEDAL)


@njit_typed(f"void({T_STATE}, {T_REC}, {T_LOG}, int64, int64, int64)")
def play_card(st, rec, log, p, card, source):
    """Pay for a god card: the card and an offering, or a medal and the face-up card."""
    if payment(st, p, card, SRC_CARD) != SRC_NONE and payment(st, p, card, SRC_MEDAL) != SRC_NONE:
        rec[stats_at(p) + STAT_CHOICE + (CH_PAID_CARD if source == SRC_CARD else CH_PAID_MEDAL) + card] += 1
    if source == SRC_CARD:
        st[seat_at(p) + P_HAND + card] -= 1
        st[seat_at(p) + P_OFFERINGS] -= card_cost(st, card)
        st[S_OFFERING_SUPPLY] += card_cost(st, card)
        rec[stats_at(p) + STAT_CARD_PLAYED + card] += 1
        discard_god_card(st, card)
    else:
        st[seat_at(p) + P_MEDALS] -= 1
        rec[stats_at(p) + STAT_CARD_MEDAL + card] += 1
        st[S_GOD_UP + card // 3] = -1
        discard_god_card(st, card)
        if st[S_GOD_UP + card // 3] < 0:
            reveal_god(st, card // 3)
    log_event(st, log, EV_CARD, p, card, 1 if source == SRC_MEDAL else 0, 0, 0, 0)


# ------------------------------------------------------------------------------ the fire blessing

@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64, int64)")
def fire_blessing(P, st, rec, log, p, w, choice, plenty):
    """The fire blessing: a god card or an offering, and a status space or a food; with
    Viracocha 08, 3 food and 3 status spaces instead."""
    rec[stats_at(p) + STAT_BLESSINGS] += 1
    if plenty != SRC_NONE:
        play_card(st, rec, log, p, C_BLESSING_PLENTY, plenty)
        food = gain_food(st, p, P[R_PLENTY_FOOD])
        advance_status(P, st, p, P[R_PLENTY_STATUS])
        log_event(st, log, EV_BLESSING, p, -1, 0, P[R_PLENTY_STATUS], food, 0)
        return
    card = -1
    offering = 0
    for _ in range(P[R_BLESS_CARD]):
        took = -1
        if choice & 1 == 0:
            took = take_preferred_god_card(P, st, rec, log, p, w)
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
    log_event(st, log, EV_BLESSING, p, card, offering, status, food, 0)


# ------------------------------------------------------------------------------ the road system

@njit_typed(f"int64({T_PARAMS}, int64, int64, int64)")
def road_between(P, a, b, kind):
    """Minimum pips of a way of this kind between two villages (kind WAY_ANY: the easier one),
    or 99 if there is none (the table data.py derives from the roads)."""
    return P[WAY_PIPS_AT + (a * N_VILLAGES + b) * 3 + kind]


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def arm_to(P, st, village):
    """Index of the overlay arm that leads to an inner village under the current rotation."""
    return (village - st[S_ROTATION]) % 6


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64, int64, int64)")
def leave_cuzco_arm(P, st, p, kind, pips, village):
    """The overlay arm a chasqui leaving Cuzco takes to an inner village, -1 if none fits. A
    chasqui that has returned to Cuzco may turn the overlay first, so any arm of the right kind
    and pips will do (a move takes the one its bot chooses, chosen_arm); at the start of the game
    the overlay stays put."""
    if village >= 6 or village_field(P, village, VF_RING) != 0:
        return -1
    if st[seat_at(p) + P_MAY_ROTATE] == 0:
        k = arm_to(P, st, village)
        if (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips:
            return k
        return -1
    for k in range(N_ARMS):
        if (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips:
            return k
    return -1


@njit_inline
def arm_value(P, st, p, w, k):
    """A bot's value of overlay arm k as its chasqui's way back to Cuzco (from the inner village
    it will point at), per situation: the chance one die gets back across it ((7 - pips) / 6; 1
    when a people tile of the arm's kind the player holds covers its pips), times the `cuzco`
    weight (a fire blessing a move away), plus the style's `arm` weight per pip."""
    pips = arm_field(P, k, RF_PIPS)
    ability = AB_TRAIL if arm_field(P, k, RF_KIND) == WAY_TRAIL else AB_BRIDGE
    chance = (7.0 - pips) / 6.0
    for kind in range(2):
        n = count_tiles(P, st, p, kind, ability)
        if n > 0 and joint_amount(P, ability, min(n, 3)) >= pips:
            chance = 1.0
    return w[W_CUZCO] * chance + w[W_ARM] * pips


@njit_noalloc
def chosen_rotation(P, st, p, w, dest, kind, pips):
    """The overlay's rotation a chasqui that may turn it leaves Cuzco with ("you may rotate the
    overlay in any way you want"), -1 if none fits. To an inner village: an arm of the move's kind
    (any arm on a Mama Sara 14 jump, kind WAY_ANY) with pips not above the move's is turned to
    it, the one its bot values most as the way back (arm_value; the first in roads.cuzco_arms
    order among equals). A jump to an outer village: any rotation, the one whose arm at the
    best-valued inner neighbour of the destination the bot values most (its way home in two
    steps; the current rotation among equals)."""
    best = -1
    best_v = -1e300
    if dest < 6:
        for k in range(N_ARMS):
            if (kind == WAY_ANY or arm_field(P, k, RF_KIND) == kind) and arm_field(P, k, RF_PIPS) <= pips:
                v = arm_value(P, st, p, w, k)
                if v > best_v:
                    best_v = v
                    best = (dest - k) % 6
        return best
    for i in range(N_ARMS):
        r = (st[S_ROTATION] + i) % 6
        v = -1e300
        for inner in range(6):
            if road_between(P, inner, dest, WAY_ANY) < 99:
                v = max(v, arm_value(P, st, p, w, (inner - r) % 6))
        if v > best_v:
            best_v = v
            best = r
    return best


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64, int64, int64, boolean)")
def can_move(P, st, p, kind, pips, dest, jump):
    """Movement across a stone trail or rope bridge of equal or fewer pips to an adjacent place;
    a jump (Mama Sara 14) reaches any village."""
    here = st[seat_at(p) + P_LOC]
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


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, int64, float64[::1], int64)")
def deliver_quipu(P, st, rec, log, p, village, w, delivery_vp):
    """Action: Movement - a quipu onto the village's building (mask first, then the reserve; one
    per player colour per village), then the village's feather. A village already holding this
    player's quipu, or a player out of quipus, gets no quipu and gives no feather."""
    if st[seat_at(p) + P_DELIVERED + village] != 0:
        return False
    if st[seat_at(p) + P_QUIPU_MASK] > 0:
        st[seat_at(p) + P_QUIPU_MASK] -= 1
    elif st[seat_at(p) + P_QUIPU_RESERVE] > 0:
        st[seat_at(p) + P_QUIPU_RESERVE] -= 1
    else:
        return False
    n = st[S_STACK_N + village]
    st[S_STACK + village * MAX_PLAYERS + n] = p
    st[S_STACK_N + village] = n + 1
    st[seat_at(p) + P_DELIVERED + village] = 1
    st[seat_at(p) + P_QUIPU_DELIVERED] += 1
    colour = village_colour(st, village)
    got = take_chosen_feather(P, st, rec, log, p, w, colour)
    log_event(st, log, EV_DELIVER, p, village, colour if got else -1, 0, 0, 0)
    if delivery_vp != SRC_NONE:
        play_card(st, rec, log, p, C_DELIVERY_VP, delivery_vp)
        gain_vp(st, rec, log, p, village_field(P, village, VF_VP), VP_DELIVERY)
    return True


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64, int64, int64, int64, int64, int64)")
def move_chasqui(P, st, rec, log, p, w, dest, kind, pips, bless, plenty, delivery_vp):
    """Move to `dest` (legality checked by the caller): a village takes a quipu, Cuzco gives a
    fire blessing and lets the chasqui turn the overlay when it next leaves."""
    here = st[seat_at(p) + P_LOC]
    if here == CUZCO:
        if st[seat_at(p) + P_MAY_ROTATE] != 0:
            r = chosen_rotation(P, st, p, w, dest, kind, pips)
            if r >= 0:
                rec[stats_at(p) + STAT_CHOICE + (CH_ROTATION_KEPT if r == st[S_ROTATION] else CH_ROTATION_TURNED)] += 1
                if dest < 6:
                    rec[stats_at(p) + STAT_CHOICE + CH_ARM_BACK + arm_field(P, (dest - r) % 6, RF_PIPS)] += 1
                else:
                    rec[stats_at(p) + STAT_CHOICE + CH_JUMP_OUTER] += 1
                st[S_ROTATION] = r
        st[seat_at(p) + P_MAY_ROTATE] = 0
    st[seat_at(p) + P_LOC] = dest
    log_event(st, log, EV_MOVE, p, here, dest, kind, 0, 0)
    if dest == CUZCO:
        st[seat_at(p) + P_MAY_ROTATE] = 1
        fire_blessing(P, st, rec, log, p, w, bless, plenty)
    else:
        deliver_quipu(P, st, rec, log, p, dest, w, delivery_vp)


# ------------------------------------------------------------------------------ mask board

@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def empty_spaces(P, st, p):
    return P[R_MASK_SPACES] - st[seat_at(p) + P_QUIPU_MASK] - st[seat_at(p) + P_N_TILES]


@njit_noalloc
def put_tile(P, st, rec, log, p, tile):
    """A people tile onto an empty mask space (caller checks there is one)."""
    for i in range(12):
        if st[seat_at(p) + P_TILE + i] < 0:
            st[seat_at(p) + P_TILE + i] = tile
            st[seat_at(p) + P_SLID + i] = 0
            st[seat_at(p) + P_N_TILES] += 1
            kind = tile_field(P, tile, TF_KIND)
            rec[stats_at(p) + STAT_PEOPLE + kind * N_ABILITIES + tile_field(P, tile, TF_ABILITY)] += 1
            log_event(st, log, EV_TILE, p, kind, tile, tile_field(P, tile, TF_ABILITY),
                      tile_field(P, tile, TF_VALUE), 0)
            return


@njit_noalloc
def take_display_tile(P, st, rec, log, p, kind, index):
    """Action: Study or farming - the tile beside `index + 1` pips goes onto the mask board; the
    column is not refilled until phase III."""
    base = S_STUDY_DISPLAY if kind == STUDY else S_FARM_DISPLAY
    tile = st[base + index]
    if tile < 0 or empty_spaces(P, st, p) <= 0:
        return False
    st[base + index] = -1
    put_tile(P, st, rec, log, p, tile)
    return True


@njit_noalloc
def best_discard_tile(P, st, p, w):
    """Position in the combined discard list (study first) of the tile Viracocha 09 takes: the
    one the bot values most on its mask (tile_worth: its kind, ability, value and the missions
    counting tiles); the first among equals."""
    best = -1
    best_v = -1e300
    for i in range(st[S_STUDY_DISCARD_N] + st[S_FARM_DISCARD_N]):
        if i < st[S_STUDY_DISCARD_N]:
            tile = st[S_STUDY_DISCARD + i]
        else:
            tile = st[S_FARM_DISCARD + i - st[S_STUDY_DISCARD_N]]
        v = tile_worth(P, st, p, w, tile)
        if v > best_v:
            best_v = v
            best = i
    return best


@njit_noalloc
def take_discard_tile(P, st, rec, log, p, position):
    """Viracocha 09: any tile from the people discard piles onto the mask board."""
    if position < 0 or empty_spaces(P, st, p) <= 0:
        return False
    if position < st[S_STUDY_DISCARD_N]:
        base, counter = S_STUDY_DISCARD, S_STUDY_DISCARD_N
    else:
        position -= st[S_STUDY_DISCARD_N]
        base, counter = S_FARM_DISCARD, S_FARM_DISCARD_N
    n = st[counter]
    if position >= n:
        return False
    tile = st[base + position]
    rec[stats_at(p) + STAT_CHOICE + (CH_DISCARD_TILE_STUDY if base == S_STUDY_DISCARD else CH_DISCARD_TILE_FARM)] += 1
    for i in range(position, n - 1):
        st[base + i] = st[base + i + 1]
    st[base + n - 1] = -1
    st[counter] = n - 1
    put_tile(P, st, rec, log, p, tile)
    return True


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64)")
def slide_down_choice(P, st, p, w, kind):
    """The unslid tile of a kind (mask index, -1 none) an exchange slides down: the one the bot
    values most to slide now (slid_gain of its value, less its unslid_worth); the most valuable
    among equals."""
    best = -1
    best_v = -1e300
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0 and st[seat_at(p) + P_SLID + i] == 0 and tile_field(P, t, TF_KIND) == kind:
            value = tile_field(P, t, TF_VALUE)
            v = slid_gain(P, st, p, w, kind, value) - unslid_worth(P, st, w, value)
            if v > best_v or (v == best_v and value > tile_field(P, st[seat_at(p) + P_TILE + best], TF_VALUE)):
                best_v = v
                best = i
    return best


@njit_noalloc
def slide_up_choice(P, st, p, w):
    """Iliapa 02: "slide up any 2 people tiles" - the slid tile (mask index, -1 none) the bot
    slides up next: the one it values most, its value kept unslid or slid again by the exchange
    that follows (status for a study tile, food for a farm tile: slid_gain), whichever is more,
    plus what it does to the missions counting slid tiles (17-19); a tile worth nothing to slide
    up stays down (the card says "may"). The most valuable among equals."""
    best = -1
    best_v = 0.0
    before = missions_value(P, st, p, w, SLID_KINDS)
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0 and st[seat_at(p) + P_SLID + i] != 0:
            value = tile_field(P, t, TF_VALUE)
            st[seat_at(p) + P_SLID + i] = 0
            v = max(unslid_worth(P, st, w, value), slid_gain(P, st, p, w, tile_field(P, t, TF_KIND), value)) + \
                missions_value(P, st, p, w, SLID_KINDS) - before
            st[seat_at(p) + P_SLID + i] = 1
            if v > best_v or (v == best_v and best >= 0 and
                              value > tile_field(P, st[seat_at(p) + P_TILE + best], TF_VALUE)):
                best_v = v
                best = i
    return best


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64, boolean)")
def dearest_tile_value(P, st, p, kind, slid):
    """The highest value among the tiles of a kind (-1 either) slid down (slid) or not."""
    dearest = 0
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0 and (st[seat_at(p) + P_SLID + i] != 0) == slid and (kind < 0 or tile_field(P, t, TF_KIND) == kind):
            dearest = max(dearest, tile_field(P, t, TF_VALUE))
    return dearest


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, {T_REC}, int64, float64[::1], int64, int64)")
def slide_down(P, st, rec, p, w, kind, n):
    """Exchange: slide down up to n tiles of a kind, each the bot's choice (slide_down_choice);
    returns the status or food they show. rec counts whether it was the most valuable tile."""
    total = 0
    for _ in range(n):
        best = slide_down_choice(P, st, p, w, kind)
        if best < 0:
            break
        value = tile_field(P, st[seat_at(p) + P_TILE + best], TF_VALUE)
        dearest = dearest_tile_value(P, st, p, kind, False)
        rec[stats_at(p) + STAT_CHOICE + (CH_SLIDE_DOWN_DEAREST if value == dearest else CH_SLIDE_DOWN_OTHER)] += 1
        st[seat_at(p) + P_SLID + best] = 1
        total += value
    return total


@njit_noalloc
def slide_up(P, st, rec, p, w, n):
    """Iliapa 02: slide up to n slid-down tiles back up, each the bot's choice (slide_up_choice).
    rec counts whether it was the most valuable slid tile, or none was worth it."""
    for _ in range(n):
        best = slide_up_choice(P, st, p, w)
        dearest = dearest_tile_value(P, st, p, -1, True)
        if best < 0:
            if dearest > 0:
                rec[stats_at(p) + STAT_CHOICE + CH_SLIDE_UP_NONE] += 1
            break
        value = tile_field(P, st[seat_at(p) + P_TILE + best], TF_VALUE)
        rec[stats_at(p) + STAT_CHOICE + (CH_SLIDE_UP_DEAREST if value == dearest else CH_SLIDE_UP_OTHER)] += 1
        st[seat_at(p) + P_SLID + best] = 0


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def count_unslid(P, st, p, kind):
    n = 0
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t >= 0 and st[seat_at(p) + P_SLID + i] == 0 and tile_field(P, t, TF_KIND) == kind:
            n += 1
    return n


@njit_noalloc
def circlet_ready(st, p, c):
    return st[seat_at(p) + P_CIRCLET + c] == 0 and st[seat_at(p) + P_SLOT + 2 * c] != 0 and st[seat_at(p) + P_SLOT + 2 * c + 1] != 0


# ------------------------------------------------------------------------------ the actions

@njit_noalloc
def activate_circlet(P, st, rec, log, p, w, c, bless, plenty):
    """Action: Headdress - flip a circlet with both feathers: 10/7/4 VP by round, the circlet's VP
    and a fire blessing."""
    st[seat_at(p) + P_CIRCLET + c] = 1
    vp = P[R_HEADDRESS_VP + st[S_ROUND]] + P[R_CIRCLET_VP + c]
    rec[stats_at(p) + STAT_HEADDRESSES] += 1
    log_event(st, log, EV_HEADDRESS, p, c, vp, 0, 0, 0)
    gain_vp(st, rec, log, p, vp, VP_HEADDRESS)
    fire_blessing(P, st, rec, log, p, w, bless, plenty)


@njit_noalloc
def place_priest(P, st, rec, log, p, w, step, bless, plenty, priest_return):
    """Action: Temple - a priest onto step `step` (0-based); an occupant is pushed one step down
    (a chain), off step 1 back to its owner; Pacha Mama 12 sends the occupant home instead."""
    occupant = st[S_TEMPLE + step]
    expelled = -1
    if occupant >= 0:
        if priest_return != SRC_NONE:
            play_card(st, rec, log, p, C_PRIEST_RETURN, priest_return)
            st[seat_at(occupant) + P_PRIESTS_HOME] += 1
            expelled = occupant
        else:
            s = step
            moving = occupant
            while moving >= 0:
                if s == 0:
                    st[seat_at(moving) + P_PRIESTS_HOME] += 1
                    expelled = moving
                    break
                below = st[S_TEMPLE + s - 1]
                st[S_TEMPLE + s - 1] = moving
                moving = below
                s -= 1
    st[S_TEMPLE + step] = p
    st[seat_at(p) + P_PRIESTS_HOME] -= 1
    log_event(st, log, EV_PRIEST, p, step + 1, expelled, 0, 0, 0)
    fire_blessing(P, st, rec, log, p, w, bless, plenty)


@njit_noalloc
def exchange_allowed(P, st, p, ex):
    """Whether one more exchange of this kind does anything."""
    if ex == EX_STATUS:
        return count_unslid(P, st, p, STUDY) > 0
    if ex == EX_FOOD:
        return count_unslid(P, st, p, FARM) > 0 and st[S_FOOD_SUPPLY] > 0
    if ex == EX_VP:
        return True
    if ex == EX_OFFERING:
        return st[S_OFFERING_SUPPLY] > 0
    if ex == EX_GOD_CARD:
        return any_card_to_take(st, p)
    if ex == EX_FEATHER:
        for colour in range(N_COLOURS):
            if feather_room(P, st, p, colour) >= 0:
                return True
        return False
    return st[seat_at(p) + P_QUIPU_MASK] > 0


@njit_noalloc
def do_exchange(P, st, rec, log, p, w, counts, pips):
    """Action: Exchange - spend the pips on any combination of the seven exchanges."""
    budget = pips
    for ex in range(N_EXCHANGES):
        cost = P[R_EXCHANGE + ex]
        done = 0
        for _ in range(counts[ex]):
            colour = feather_colour_choice(P, st, p, w) if ex == EX_FEATHER else -1
            if budget < cost or (colour < 0 if ex == EX_FEATHER else not exchange_allowed(P, st, p, ex)):
                break
            budget -= cost
            done += 1
            if ex == EX_STATUS:
                advance_status(P, st, p, slide_down(P, st, rec, p, w, STUDY, 1))
            elif ex == EX_FOOD:
                gain_food(st, p, slide_down(P, st, rec, p, w, FARM, 1))
            elif ex == EX_VP:
                gain_vp(st, rec, log, p, 1, VP_EXCHANGE)
            elif ex == EX_OFFERING:
                gain_offerings(st, p, 1)
            elif ex == EX_GOD_CARD:
                take_preferred_god_card(P, st, rec, log, p, w)
            elif ex == EX_FEATHER:
                take_chosen_feather(P, st, rec, log, p, w, colour)
            else:
                st[seat_at(p) + P_QUIPU_MASK] -= 1
                st[seat_at(p) + P_QUIPU_RESERVE] += 1
        if done > 0:
            log_event(st, log, EV_EXCHANGE, p, ex, done, 0, 0, 0)


@njit_noalloc
def can_study_or_farm(P, st, p, kind, strength):
    if empty_spaces(P, st, p) <= 0:
        return False
    base = S_STUDY_DISPLAY if kind == STUDY else S_FARM_DISPLAY
    for i in range(min(strength, 6)):
        if st[base + i] >= 0:
            return True
    return False


@njit_noalloc
def can_headdress(st, p, strength):
    for c in range(min(strength, N_CIRCLETS)):
        if circlet_ready(st, p, c):
            return True
    return False


@njit_noalloc
def action_possible(P, st, p, action, strength, jump):
    """Whether an action can be chosen at all with this strength (e.g. the headdress needs an
    eligible circlet, study needs an empty mask space)."""
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
        return st[seat_at(p) + P_PRIESTS_HOME] > 0
    if action == A_HEADDRESS:
        return can_headdress(st, p, strength)
    return True


# ------------------------------------------------------------------------------ dice placement

@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64)")
def space_has_action(P, st, space, action):
    return (space_actions(P, st[S_N_PLAYERS], space) >> action) & 1 == 1


@njit_noalloc
def is_vp_space(P, st, space):
    return space_has_action(P, st, space, A_VP)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64, boolean)")
def die_fits(P, st, space, pips, ignore_lower):
    """Phase I: a die goes where its pips are lower than every die already there (the VP space
    excepted); Viracocha 07 lifts the rule."""
    if space_actions(P, st[S_N_PLAYERS], space) == 0:
        return False
    if ignore_lower or is_vp_space(P, st, space):
        return True
    return pips < st[S_SPACE_MIN + space]


@njit_noalloc
def recompute_space_min(st, space):
    m = NO_DIE
    for i in range(st[S_SPACE_N + space]):
        m = min(m, st[S_SPACE_DICE + space * MAX_DICE_ON_SPACE + i] % 8)
    st[S_SPACE_MIN + space] = m


@njit_typed(f"void({T_STATE}, int64, int64, int64)")
def put_die(st, space, seat, pips):
    n = st[S_SPACE_N + space]
    if n < MAX_DICE_ON_SPACE:
        st[S_SPACE_DICE + space * MAX_DICE_ON_SPACE + n] = seat * 8 + pips
        st[S_SPACE_N + space] = n + 1
    st[S_SPACE_MIN + space] = min(st[S_SPACE_MIN + space], pips)


@njit_noalloc
def move_die(st, rec, log, p, from_space, index, to_space):
    """Mama Quilia 06: reallocate any one die (the index-th on its space), whoever owns it, to
    another space, ignoring the placement rules."""
    n = st[S_SPACE_N + from_space]
    if index < 0 or index >= n or from_space == to_space:
        return False
    base = S_SPACE_DICE + from_space * MAX_DICE_ON_SPACE
    code = st[base + index]
    for i in range(index, n - 1):
        st[base + i] = st[base + i + 1]
    st[base + n - 1] = -1
    st[S_SPACE_N + from_space] = n - 1
    recompute_space_min(st, from_space)
    put_die(st, to_space, code // 8, code % 8)
    log_event(st, log, EV_MOVE_DIE, p, from_space, to_space, code % 8, 0, 0)
    return True


@njit_noalloc
def pututu_can_reach(st, p, pips, target):
    """Tiles (+1/-1, +2/-2) that turn a die from pips to target, fewest first; (-1, -1) if the
    player's tiles cannot (Cuzco Module 1: never below 1 nor above 6)."""
    if target < 1 or target > 6:
        return -1, -1
    d = abs(target - pips)
    for total in range(0, st[seat_at(p) + P_PUTUTU1] + st[seat_at(p) + P_PUTUTU2] + 1):
        for n2 in range(min(total, st[seat_at(p) + P_PUTUTU2]), -1, -1):
            n1 = total - n2
            if n1 <= st[seat_at(p) + P_PUTUTU1] and n1 + 2 * n2 == d:
                return n1, n2
    return -1, -1


@njit_typed("boolean(int64[::1], int64)")
def plays(opt, card):
    """Whether the turn `opt` plays this card (in any of its card slots)."""
    return opt[O_CARD] == card or opt[O_CARD2] == card or opt[O_CARD3] == card or opt[O_CARD4] == card


@njit_typed("int64(int64[::1], int64)")
def card_way(opt, card):
    """How the turn `opt` pays for this card: SRC_CARD, SRC_MEDAL, or SRC_NONE if it does not play it."""
    for slot in CARD_SLOTS:
        if opt[slot] == card:
            return SRC_MEDAL if opt[slot + 1] != 0 else SRC_CARD
    return SRC_NONE


@njit_typed("boolean(int64[::1], int64)")
def medal_on_god(opt, god):
    """Whether the turn `opt` plays a face-up card of this god through a medal (which turns up
    that god's next card)."""
    for slot in CARD_SLOTS:
        if opt[slot] >= 0 and opt[slot + 1] != 0 and opt[slot] // 3 == god:
            return True
    return (opt[O_PLENTY] == SRC_MEDAL and C_BLESSING_PLENTY // 3 == god) or \
        (opt[O_DELIVERY] == SRC_MEDAL and C_DELIVERY_VP // 3 == god)


@njit_noalloc
def ends_in_blessing(opt):
    action = opt[O_ACTION]
    return action == A_TEMPLE or action == A_HEADDRESS or \
        ((action == A_TRAIL or action == A_BRIDGE) and opt[O_TARGET] == CUZCO)


@njit_typed("int64(int64[::1], int64)")
def follow_bit(opt, card):
    """The FOLLOW_* bit of a card that may follow this turn by a second medal on its god (the
    card this turn's medal turns up is used at its moment: 08 on the blessing, 09 on the people
    tile, 05 after the turn), or 0 when the turn gives it no moment or already plays it."""
    if plays(opt, card) or not medal_on_god(opt, card // 3):
        return 0
    action = opt[O_ACTION]
    if card == C_BLESSING_PLENTY:
        return FOLLOW_PLENTY if ends_in_blessing(opt) and opt[O_PLENTY] == SRC_NONE else 0
    if card == C_SEARCH_DISCARD:
        return FOLLOW_SEARCH if action == A_STUDY or action == A_FARM else 0
    return FOLLOW_EXTRA if opt[O_DIE] >= 0 else 0


@njit_typed(f"boolean({T_STATE}, {T_REC}, int64, int64[::1], int64)")
def follow_up(st, rec, p, opt, card):
    """Whether the player uses `card` now by a second medal on its god: the turn's medal turned
    it up (follow_bit), it is face up, a medal is left, and the bot planned it (opt[O_FOLLOW]).
    Counts each such moment as the bot took it or not (CH_FOLLOW_TAKEN / CH_FOLLOW_DECLINED)."""
    bit = follow_bit(opt, card)
    if bit == 0 or st[S_GOD_UP + card // 3] != card or st[seat_at(p) + P_MEDALS] <= 0 or \
            card_forbidden(st, p, card):
        return False
    k = 0 if card == C_BLESSING_PLENTY else (1 if card == C_SEARCH_DISCARD else 2)
    take = opt[O_FOLLOW] & bit != 0
    rec[stats_at(p) + STAT_CHOICE + (CH_FOLLOW_TAKEN if take else CH_FOLLOW_DECLINED) + k] += 1
    return take


@njit_typed(f"int64({T_STATE}, int64[::1])")
def offerings_spent(st, opt):
    """Offerings the cards of the turn `opt` paid from the hand cost (card_cost each)."""
    n = 0
    for slot in CARD_SLOTS:
        if opt[slot] >= 0 and opt[slot + 1] == 0:
            n += card_cost(st, opt[slot])
    if opt[O_PLENTY] == SRC_CARD:
        n += card_cost(st, C_BLESSING_PLENTY)
    if opt[O_DELIVERY] == SRC_CARD:
        n += card_cost(st, C_DELIVERY_VP)
    return n


@njit_typed("int64(int64[::1])")
def free_card_slot(opt):
    """The first empty card slot of the turn `opt`, -1 if none."""
    for slot in CARD_SLOTS:
        if opt[slot] < 0:
            return slot
    return -1


@njit_typed(f"boolean({T_PARAMS}, {T_STATE})")
def extra_turn_space(P, st):
    """Whether an action space without any die is left for Mama Quilia 05's extra turn (never the
    victory-point space)."""
    for s in range(MAX_SPACES):
        if space_actions(P, st[S_N_PLAYERS], s) != 0 and st[S_SPACE_N + s] == 0 and not is_vp_space(P, st, s):
            return True
    return False


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64[::1])")
def perform_turn(P, st, rec, log, p, w, opt):
    """One turn of phase I as chosen in `opt`: pututu tiles, the turn's cards paid (06 first
    reallocates a die), the die placed, and the action performed (with the turn's cards: the
    first, O_CARD, and up to three more, O_CARD2-O_CARD4), and the cards the turn's own medals
    turn up that the bot planned to use by a second medal (follow_up)."""
    die = opt[O_DIE]
    card = opt[O_CARD]
    card_src = SRC_MEDAL if opt[O_MEDAL] != 0 else SRC_CARD
    extra = die < 0
    if extra:
        pips = 1
    else:
        rolled = st[seat_at(p) + P_DICE + die]
        pips = opt[O_PIPS]
        if opt[O_PU1] > 0 or opt[O_PU2] > 0:
            st[seat_at(p) + P_PUTUTU1] -= opt[O_PU1]
            st[seat_at(p) + P_PUTUTU2] -= opt[O_PU2]
            st[S_PUTUTU1] += opt[O_PU1]
            st[S_PUTUTU2] += opt[O_PU2]
            rec[stats_at(p) + STAT_PUTUTU_SPENT1] += opt[O_PU1]
            rec[stats_at(p) + STAT_PUTUTU_SPENT2] += opt[O_PU2]
            if not die_fits(P, st, opt[O_SPACE], rolled, plays(opt, C_IGNORE_LOWER)):
                rec[stats_at(p) + STAT_PUTUTU_CHANGED] += 1
        st[seat_at(p) + P_DICE + die] = 0
    if card == C_MOVE_DIE:
        play_card(st, rec, log, p, card, card_src)
        rec[stats_at(p) + STAT_CHOICE + (CH_MOVE_DIE_TO_VP if is_vp_space(P, st, opt[O_CARD_ARG2]) else CH_MOVE_DIE_ELSEWHERE)] += 1
        move_die(st, rec, log, p, opt[O_CARD_ARG], opt[O_MOVE_INDEX], opt[O_CARD_ARG2])
    elif card == C_IGNORE_LOWER or card == C_EXTRA_TURN or card == C_VIRTUAL_SIX or \
            card == C_JUMP or card == C_SLIDE_UP or card == C_SEARCH_DISCARD:
        play_card(st, rec, log, p, card, card_src)
    cards = 0
    for slot in CARD_SLOTS:
        if opt[slot] >= 0:
            cards += 1
    rec[stats_at(p) + STAT_CHOICE + CH_TURN_CARDS + cards] += 1
    for slot in (O_CARD2, O_CARD3, O_CARD4):
        c = opt[slot]
        if c == C_VIRTUAL_SIX or c == C_JUMP or c == C_SLIDE_UP or c == C_SEARCH_DISCARD or c == C_EXTRA_TURN:
            play_card(st, rec, log, p, c, SRC_MEDAL if opt[slot + 1] != 0 else SRC_CARD)
    space = opt[O_SPACE]
    action = opt[O_ACTION]
    if not extra:
        put_die(st, space, p, pips)
        rec[REC_DICE + action * N_DSTAT_PIPS + pips] += 1
    else:
        rec[REC_DICE + action * N_DSTAT_PIPS + 0] += 1
        log_event(st, log, EV_EXTRA_TURN, p, 0, 0, 0, 0, 0)
    st[S_TURNS] += 1
    strength = 6 if plays(opt, C_VIRTUAL_SIX) else pips
    log_event(st, log, EV_PLACE, p, space, action, pips, opt[O_PU1] + opt[O_PU2], strength)
    target = opt[O_TARGET]
    plenty = opt[O_PLENTY]
    if follow_up(st, rec, p, opt, C_BLESSING_PLENTY):
        plenty = SRC_MEDAL
    if action == A_TRAIL or action == A_BRIDGE:
        kind = WAY_ANY if plays(opt, C_JUMP) else (WAY_TRAIL if action == A_TRAIL else WAY_BRIDGE)
        move_chasqui(P, st, rec, log, p, w, target, kind, 6 if plays(opt, C_JUMP) else strength, opt[O_BLESS],
                     plenty, opt[O_DELIVERY])
    elif action == A_STUDY or action == A_FARM:
        kind = STUDY if action == A_STUDY else FARM
        search = plays(opt, C_SEARCH_DISCARD)
        if not search and empty_spaces(P, st, p) >= 2 and st[S_STUDY_DISCARD_N] + st[S_FARM_DISCARD_N] > 0 and \
                follow_up(st, rec, p, opt, C_SEARCH_DISCARD):
            play_card(st, rec, log, p, C_SEARCH_DISCARD, SRC_MEDAL)
            search = True
        take_display_tile(P, st, rec, log, p, kind, target)
        if search:
            take_discard_tile(P, st, rec, log, p, opt[O_DISCARD_POS])
    elif action == A_EXCHANGE:
        if plays(opt, C_SLIDE_UP):
            slide_up(P, st, rec, p, w, 2)
        do_exchange(P, st, rec, log, p, w, opt[O_EX:O_EX + N_EXCHANGES], strength)
    elif action == A_TEMPLE:
        step = min(strength, N_TEMPLE) - 1
        place_priest(P, st, rec, log, p, w, step, opt[O_BLESS], plenty, card_way(opt, C_PRIEST_RETURN))
    elif action == A_HEADDRESS:
        activate_circlet(P, st, rec, log, p, w, target, opt[O_BLESS], plenty)
    else:
        gain_vp(st, rec, log, p, P[R_VP_SPACE], VP_ACTION_SPACE)
    if not extra and free_card_slot(opt) >= 0 and extra_turn_space(P, st) and \
            follow_up(st, rec, p, opt, C_EXTRA_TURN):
        # Mama Quilia 05 "after your turn": the turn as performed now plays it (rounds: the extra turn)
        play_card(st, rec, log, p, C_EXTRA_TURN, SRC_MEDAL)
        slot = free_card_slot(opt)
        opt[slot] = C_EXTRA_TURN
        opt[slot + 1] = 1


# ------------------------------------------------------------------------------ phase II

@njit_noalloc
def joint_count(P, st, p, kind, ability, doubled):
    """Identical tiles of one kind used jointly; Iliapa 01 doubles one of them (one more tile)."""
    n = count_tiles(P, st, p, kind, ability)
    if n > 0 and doubled:
        n += 1
    return min(n, 4)


@njit_inline
def doubles_use(st, p, kind):
    """Whether Iliapa 01 ("use the abilities of 1 study and 1 farming tile twice"), played this
    phase II, doubles the next use of this kind: once per kind, the regular use or, if the card
    came after it, the additional one of Pacha Mama 11 / Mama Sara 15 (P_DOUBLE_PEOPLE: bit 0 the
    card played, bit 1 + kind that kind's doubling spent)."""
    return st[seat_at(p) + P_DOUBLE_PEOPLE] & 1 != 0 and (st[seat_at(p) + P_DOUBLE_PEOPLE] >> (1 + kind)) & 1 == 0


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64[::1])")
def use_ability(P, st, rec, log, p, w, use):
    """Phase II: one joint use of a study or farm ability (Addendum: The People Study and Farm
    Tiles), with Iliapa 01, Pacha Mama 11 / Mama Sara 15 and Viracocha 08 as chosen."""
    kind = use[U_KIND]
    ability = use[U_ABILITY]
    if use[U_DOUBLE] != SRC_NONE:
        play_card(st, rec, log, p, C_DOUBLE_PEOPLE, use[U_DOUBLE])
        st[seat_at(p) + P_DOUBLE_PEOPLE] |= 1
    if use[U_EXTRA] != SRC_NONE:
        play_card(st, rec, log, p, C_EXTRA_STUDY if kind == STUDY else C_EXTRA_FARM, use[U_EXTRA])
    else:
        if kind == STUDY:
            st[seat_at(p) + P_USED_STUDY] = ability
        else:
            st[seat_at(p) + P_USED_FARM] = ability
    doubled = doubles_use(st, p, kind)
    if doubled:
        st[seat_at(p) + P_DOUBLE_PEOPLE] |= 2 << kind
    n = joint_count(P, st, p, kind, ability, doubled)
    if n == 0:
        return
    amount = joint_amount(P, ability, n)
    log_event(st, log, EV_USE, p, kind, ability, n, 0, 0)
    target = use[U_TARGET]
    if ability == AB_OFFERING:
        gain_offerings(st, p, amount)
    elif ability == AB_VP:
        gain_vp(st, rec, log, p, amount, VP_PEOPLE)
    elif ability == AB_FEATHER:
        for _ in range(amount):
            colour = feather_colour_choice(P, st, p, w)
            if colour < 0:
                break
            take_chosen_feather(P, st, rec, log, p, w, colour)
    elif ability == AB_TRAIL or ability == AB_BRIDGE:
        way = WAY_TRAIL if ability == AB_TRAIL else WAY_BRIDGE
        if target >= 0 and can_move(P, st, p, way, amount, target, False):
            move_chasqui(P, st, rec, log, p, w, target, way, amount, use[U_BLESS], use[U_PLENTY], SRC_NONE)
    elif ability == AB_STATUS:
        advance_status(P, st, p, amount)
    elif ability == AB_GOD_CARD:
        for _ in range(amount):
            if take_preferred_god_card(P, st, rec, log, p, w) < 0:
                break
    elif ability == AB_QUIPU:
        k = min(amount, st[seat_at(p) + P_QUIPU_MASK])
        st[seat_at(p) + P_QUIPU_MASK] -= k
        st[seat_at(p) + P_QUIPU_RESERVE] += k
    elif ability == AB_CIRCLET:
        if target >= 0 and target < amount and circlet_ready(st, p, target):
            activate_circlet(P, st, rec, log, p, w, target, use[U_BLESS], use[U_PLENTY])
    elif ability == AB_FOOD:
        gain_food(st, p, amount)
    elif ability == AB_FARMING or ability == AB_STUDY:
        tkind = FARM if ability == AB_FARMING else STUDY
        if target >= 0 and target < amount:
            take_display_tile(P, st, rec, log, p, tkind, target)


# ------------------------------------------------------------------------------ missions

@njit_noalloc
def requirement_fields(p, kind):
    """(start, count): the state fields requirement_have reads for seat p and this kind, one
    contiguous range (count 0: none; start -1: unknown). A bot's look-ahead reuses a mission's
    shortfall when an option leaves these fields alone."""
    seat = seat_at(p)
    if kind == MK_NONE:
        return 0, 0
    if kind == MK_PRIESTS:
        return S_TEMPLE, N_TEMPLE
    if kind == MK_FARM_TILES or kind == MK_STUDY_TILES or kind == MK_STUDY_ABILITIES or kind == MK_FARM_ABILITIES \
            or kind == MK_STUDY_SLID or kind == MK_FARM_SLID or kind == MK_PEOPLE_SLID or kind == MK_PEOPLE_WITH_ABILITY:
        return seat + P_TILE, MASK_FIELDS
    if kind == MK_ORDER_TOKEN_ONE:
        return seat + P_ORDER_POS, 1
    if kind == MK_GOODS or kind == MK_GOODS_OF_TYPE or kind == MK_GOODS_TYPES:
        return seat + P_GOODS, N_GOODS
    if kind == MK_VILLAGES:
        return seat + P_QUIPU_DELIVERED, 1
    if kind == MK_FEATHERS_OF_COLOUR or kind == MK_FEATHER_COLOURS or kind == MK_FEATHERS:
        return seat + P_FEATHERS, N_COLOURS
    if kind == MK_VILLAGES_OF_COLOUR or kind == MK_VILLAGES_WORTH or kind == MK_VILLAGES_IN_RING or kind == MK_VILLAGE_VALUES:
        return seat + P_DELIVERED, N_VILLAGES
    if kind == MK_GOD_COLOURS or kind == MK_GOD_SAME_COLOUR or kind == MK_GODS_OF:
        return seat + P_HAND, N_CARDS
    if kind == MK_FOOD:
        return seat + P_FOOD, 1
    if kind == MK_CIRCLETS:
        return seat + P_CIRCLET, N_CIRCLETS
    if kind == MK_MEDALS:
        return seat + P_MEDALS, 1
    if kind == MK_OFFERINGS:
        return seat + P_OFFERINGS, 1
    return -1, 0


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, int64, int64, int64)")
def settle_mission(P, st, rec, log, p, slot, outcome, discount_src):
    """Complete (outcome 1: 6 VP; 2: 4 VP with Mama Quilia 04) or return (0) a mission."""
    m = st[seat_at(p) + P_MISSION + slot]
    if m < 0:
        return
    if outcome == 2:
        play_card(st, rec, log, p, C_MISSION_DISCOUNT, discount_src)
    if outcome > 0:
        st[seat_at(p) + P_MISSIONS_DONE] += 1
        rec[stats_at(p) + STAT_MISSION_DONE + m] += 1
        gain_vp(st, rec, log, p, P[R_MISSION_VP] if outcome == 1 else P[R_MISSION_VP_REDUCED], VP_MISSIONS)
    else:
        rec[stats_at(p) + STAT_MISSION_FAILED + m] += 1
        st[S_BOX_MISSIONS] += 1
    st[seat_at(p) + P_MISSION + slot] = -1
    log_event(st, log, EV_MISSION, p, m, outcome, 0, 0, 0)


LAST_MISSION_PLANS = 48  # the order of the three slots (6) x the payment of each (2 x 2 x 2)
SLOT_ORDERS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, int64)")
def settle_last_missions(P, st, rec, log, p, plan):
    """End of the Game for one player: every mission already met is completed first; then Mama
    Quilia 04 completes missions one requirement short, in the plan's slot order, each paid from
    the plan's source (bit i of plan // 6: slot i's payment, 0 a hand copy, 1 a medal) when that
    source can pay and the mission is still one short; what is left is returned."""
    for slot in range(3):
        m = st[seat_at(p) + P_MISSION + slot]
        if m >= 0 and mission_shortfall(P, st, p, m) == 0:
            settle_mission(P, st, rec, log, p, slot, 1, SRC_NONE)
    order = plan % 6
    sources = plan // 6
    for i in range(3):
        slot = SLOT_ORDERS[order, i]
        m = st[seat_at(p) + P_MISSION + slot]
        if m < 0 or mission_shortfall(P, st, p, m) != 1:
            continue
        src = payment(st, p, C_MISSION_DISCOUNT, SRC_MEDAL if (sources >> slot) & 1 else SRC_CARD)
        if src != SRC_NONE:
            settle_mission(P, st, rec, log, p, slot, 2, src)
    for slot in range(3):
        settle_mission(P, st, rec, log, p, slot, 0, SRC_NONE)


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def one_short_slots(P, st, p):
    """The slots (a bit each) whose mission is one requirement short: the only ones whose order and
    payment settle_last_missions' plans vary. Met missions are completed and the others returned
    alike by every plan, and paying Mama Quilia 04 (a hand copy and an offering, or a medal) only
    lowers what the missions count, so a mission short by more never becomes one short."""
    slots = 0
    for slot in range(3):
        m = st[seat_at(p) + P_MISSION + slot]
        if m >= 0 and mission_shortfall(P, st, p, m) == 1:
            slots |= 1 << slot
    return slots


@njit_typed("boolean(int64, int64)")
def first_plan_of_its_kind(plan, one_short):
    """Whether no lower plan settles a player's last missions the same way: it pays from a hand
    copy every slot not in `one_short` (one_short_slots), and no lower slot order puts the one-short
    slots in the same order."""
    if (plan // 6) & ~one_short != 0:
        return False
    order = plan % 6
    for lower in range(order):
        same = True
        i = 0
        j = 0
        while same:
            while i < 3 and (one_short >> SLOT_ORDERS[order, i]) & 1 == 0:
                i += 1
            while j < 3 and (one_short >> SLOT_ORDERS[lower, j]) & 1 == 0:
                j += 1
            if i == 3 or j == 3:
                break
            same = SLOT_ORDERS[order, i] == SLOT_ORDERS[lower, j]
            i += 1
            j += 1
        if same:
            return False
    return True


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def end_value(P, st, p):
    """What a player's last missions are worth at the end: VP, the medals' end VP and the
    missions achievement (the rest of final scoring does not depend on them)."""
    v = st[seat_at(p) + P_VP] + P[R_MEDAL_END_VP] * st[seat_at(p) + P_MEDALS]
    if st[seat_at(p) + P_MISSIONS_DONE] >= P[R_ROUNDS] + 3:
        v += P[R_ACH_MISSIONS]
    return v


@njit_typed(f"void({T_STATE}, {T_REC}, {T_LOG}, int64, int64)")
def take_palace_mission(st, rec, log, p, index):
    """Phase III 4: a new mission from the palace display (not refilled until the round ends)."""
    m = st[S_PALACE + index]
    if m < 0:
        return
    st[S_PALACE + index] = -1
    for slot in range(3):
        if st[seat_at(p) + P_MISSION + slot] < 0:
            st[seat_at(p) + P_MISSION + slot] = m
            log_event(st, log, EV_NEW_MISSION, p, m, 0, 0, 0, 0)
            return


# ------------------------------------------------------------------------------ phase III

@njit_noalloc
def score_status_and_reorder(P, st, rec, log):
    """Phase III 1: status VP, then the new player order - furthest ahead first, the marker on
    top of a stack breaking ties; markers return to space 0 stacked in that order."""
    n = st[S_N_PLAYERS]
    for p in range(n):
        gain_vp(st, rec, log, p, P[R_STATUS_VP + st[seat_at(p) + P_STATUS]], VP_STATUS)
    for pos in range(n):
        best = -1
        for p in range(n):
            taken = False
            for q in range(pos):
                if st[S_ORDER + q] == p:
                    taken = True
            if taken:
                continue
            if best < 0 or st[seat_at(p) + P_STATUS] > st[seat_at(best) + P_STATUS] or \
                    (st[seat_at(p) + P_STATUS] == st[seat_at(best) + P_STATUS] and st[seat_at(p) + P_STATUS_SEQ] > st[seat_at(best) + P_STATUS_SEQ]):
                best = p
        st[S_ORDER + pos] = best
    for pos in range(n):
        p = seat_in_order(st, pos)
        log_event(st, log, EV_STATUS_VP, p, P[R_STATUS_VP + st[seat_at(p) + P_STATUS]], pos, 0, 0, 0)
        st[seat_at(p) + P_ORDER_POS] = pos
        st[seat_at(p) + P_STATUS] = 0
        st[seat_at(p) + P_STATUS_SEQ] = n - pos
    st[S_STATUS_SEQ] = n


@njit_noalloc
def score_priests(P, st, rec, log):
    """Phase III 2: VP per priest on the steps by round; the Inti medal to the most priests (the
    highest priest breaks ties), or one medal removed if the steps are empty."""
    n = st[S_N_PLAYERS]
    per = P[R_PRIEST_VP + st[S_ROUND]]
    best = -1
    best_n = 0
    best_top = -1
    for p in range(n):
        k = 0
        top = -1
        for s in range(N_TEMPLE):
            if st[S_TEMPLE + s] == p:
                k += 1
                top = s
        if k > 0:
            gain_vp(st, rec, log, p, k * per, VP_PRIESTS)
        if k > best_n or (k == best_n and k > 0 and top > best_top):
            best, best_n, best_top = p, k, top
    if st[S_TEMPLE_MEDALS] > 0:
        st[S_TEMPLE_MEDALS] -= 1
        if best >= 0:
            st[seat_at(best) + P_MEDALS] += 1
            rec[stats_at(best) + STAT_MEDALS_GAINED] += 1
        log_event(st, log, EV_MEDAL, best, 0, 0, 0, 0, 0)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64, int64, int64)")
def buy_good(P, st, rec, log, p, index, double_src):
    """Phase III 3: one good from the round's market row, paid in food, its VP at once (twice
    with Iliapa 03)."""
    cell = S_MARKET + st[S_ROUND] * 5 + index
    t = st[cell]
    if t < 0 or st[seat_at(p) + P_FOOD] < good_field(P, t, GF_FOOD):
        return False
    st[cell] = -1
    st[seat_at(p) + P_FOOD] -= good_field(P, t, GF_FOOD)
    st[S_FOOD_SUPPLY] += good_field(P, t, GF_FOOD)
    st[seat_at(p) + P_GOODS + t] += 1
    st[seat_at(p) + P_GOODS_BOUGHT] += 1
    rec[stats_at(p) + STAT_GOOD_BOUGHT + t] += 1
    log_event(st, log, EV_BUY, p, t, good_field(P, t, GF_FOOD), good_field(P, t, GF_VP), 0, 0)
    gain_vp(st, rec, log, p, good_field(P, t, GF_VP), VP_GOODS)
    if double_src != SRC_NONE:
        play_card(st, rec, log, p, C_DOUBLE_GOOD, double_src)
        gain_vp(st, rec, log, p, good_field(P, t, GF_VP), VP_GOODS)
    return True


@njit_typed(f"void({T_STATE}, int64, int64, int64, int64)")
def deal_onto(st, counter, stack, dest, count):
    """Turn up to `count` items from the top of a stack (size in st[counter]) onto the board
    slots dest, dest + 1, ...; stops when the stack is empty."""
    for i in range(count):
        n = st[counter]
        if n == 0:
            break
        st[dest + i] = st[stack + n - 1]
        st[stack + n - 1] = -1
        st[counter] = n - 1


@njit_typed(f"void({T_PARAMS}, {T_STATE}, int64)")
def refill_display(P, st, kind):
    """Phase III 5: leftover study/farm tiles go to the discard pile; 6 new ones are laid out."""
    base = S_STUDY_DISPLAY if kind == STUDY else S_FARM_DISPLAY
    stack = S_STUDY_STACK if kind == STUDY else S_FARM_STACK
    stack_n = S_STUDY_N if kind == STUDY else S_FARM_N
    disc = S_STUDY_DISCARD if kind == STUDY else S_FARM_DISCARD
    disc_n = S_STUDY_DISCARD_N if kind == STUDY else S_FARM_DISCARD_N
    for i in range(6):
        t = st[base + i]
        if t >= 0:
            st[disc + st[disc_n]] = t
            st[disc_n] += 1
            st[base + i] = -1
    deal_onto(st, stack_n, stack, base, P[R_DISPLAY_TILES])


@njit_noalloc
def refill_palace(P, st):
    """Players + 2 missions from the golden piles; leftovers go back to the box."""
    for i in range(PALACE_SLOTS):
        if st[S_PALACE + i] >= 0:
            st[S_BOX_MISSIONS] += 1
            st[S_PALACE + i] = -1
    deal_onto(st, S_MISSION_N, S_MISSION_PILE, S_PALACE, st[S_PALACE_SIZE])


@njit_noalloc
def clear_action_board(st):
    for s in range(MAX_SPACES):
        for i in range(MAX_DICE_ON_SPACE):
            st[S_SPACE_DICE + s * MAX_DICE_ON_SPACE + i] = -1
        st[S_SPACE_N + s] = 0
        st[S_SPACE_MIN + s] = NO_DIE


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG})")
def end_of_round(P, st, rec, log):
    """Phase III 5 (skipped in round 6): refill the people columns and the palace, box the
    round's unsold goods, take the dice back."""
    refill_display(P, st, STUDY)
    refill_display(P, st, FARM)
    refill_palace(P, st)
    for i in range(5):
        cell = S_MARKET + st[S_ROUND] * 5 + i
        if st[cell] >= 0:
            st[cell] = -1
            st[S_BOX_GOODS] += 1
    clear_action_board(st)


# ------------------------------------------------------------------------------ rolling dice

@njit_noalloc
def roll_dice(P, st, rec, log):
    """Phase I: every player rolls 3 dice; with the Pututu module doubles and triples take tiles
    from the supply, in reverse player order when it runs short."""
    rng = rng_of(st)
    n = st[S_N_PLAYERS]
    for pos in range(n):
        p = seat_in_order(st, pos)
        for d in range(P[R_DICE]):
            st[seat_at(p) + P_DICE + d] = 1 + rng_mod.randint(rng, 6)
        log_event(st, log, EV_ROLL, p, st[seat_at(p) + P_DICE], st[seat_at(p) + P_DICE + 1], st[seat_at(p) + P_DICE + 2], 0, 0)
        a, b, c = st[seat_at(p) + P_DICE], st[seat_at(p) + P_DICE + 1], st[seat_at(p) + P_DICE + 2]
        if a == b and b == c:
            rec[stats_at(p) + STAT_TRIPLES] += 1
        elif a == b or b == c or a == c:
            rec[stats_at(p) + STAT_DOUBLES] += 1
    if P[R_PUTUTU] == 0:
        return
    for pos in range(n - 1, -1, -1):
        p = seat_in_order(st, pos)
        a, b, c = st[seat_at(p) + P_DICE], st[seat_at(p) + P_DICE + 1], st[seat_at(p) + P_DICE + 2]
        if a == b and b == c:
            if st[S_PUTUTU2] > 0:
                st[S_PUTUTU2] -= 1
                st[seat_at(p) + P_PUTUTU2] += 1
                rec[stats_at(p) + STAT_PUTUTU_GAINED2] += 1
                log_event(st, log, EV_PUTUTU_GAIN, p, 2, 0, 0, 0, 0)
            else:
                st[S_PUTUTU_SHORT] += 1
        elif a == b or b == c or a == c:
            if st[S_PUTUTU1] > 0:
                st[S_PUTUTU1] -= 1
                st[seat_at(p) + P_PUTUTU1] += 1
                rec[stats_at(p) + STAT_PUTUTU_GAINED1] += 1
                log_event(st, log, EV_PUTUTU_GAIN, p, 1, 0, 0, 0, 0)
            else:
                st[S_PUTUTU_SHORT] += 1


# ------------------------------------------------------------------------------ setup

@njit_typed(["void(uint64[::1], int32[::1], int64)", "void(uint64[::1], int64[::1], int64)"])
def shuffle_into(rng, arr, n):
    if n > 1:
        rng_mod.shuffle(rng, arr, n)


@njit_noalloc
def setup(P, st, rec, log, n_players, W):
    """Setup 1-15 for n players; W: each seat's bot weights (its choices in setup: the starting
    feather's slot, the duplicate-colour card it discards)."""
    rng = rng_of(st)
    scr = scr_row(rec, SCR_TMP)
    n = n_players
    st[S_N_PLAYERS] = n
    st[S_OFFERING_SUPPLY] = P[R_OFFERING_SUPPLY]
    st[S_FOOD_SUPPLY] = P[R_FOOD_SUPPLY]
    for c in range(N_COLOURS):
        st[S_FEATHER_SUPPLY + c] = P[R_FEATHERS_PER_COLOUR] * n
    st[S_PUTUTU1] = P[R_PUTUTU1] if P[R_PUTUTU] != 0 else 0
    st[S_PUTUTU2] = P[R_PUTUTU2] if P[R_PUTUTU] != 0 else 0
    clear_action_board(st)
    for i in range(N_VILLAGES):
        st[S_STACK_N + i] = 0
    # 1. the road system's feather pieces in a random order, the overlay at a random rotation
    # (every rotation leads each arm to a village)
    deal_feather_pieces(P, st, scr)
    st[S_ROTATION] = rng_mod.randint(rng, N_ARMS)
    # 6. god piles, one per god, each card in its copies (gods.cards.NAME.copies); their costs
    for card in range(N_CARDS):
        st[S_CARD_COST + card] = P[CARDS_AT + card * N_CF + CF_OFFERINGS]
    for god in range(N_GODS):
        k = 0
        for a in range(3):
            for _ in range(card_copies(P, god * 3 + a)):
                st[S_GOD_PILES + god * GOD_PILE_SLOTS + k] = god * 3 + a
                k += 1
        shuffle_into(rng, st[S_GOD_PILES + god * GOD_PILE_SLOTS:S_GOD_PILES + god * GOD_PILE_SLOTS + k], k)
        st[S_GOD_PILE_N + god] = k
        st[S_GOD_UP + god] = -1
    # 7. study and farm stacks, 6 face up each
    for kind in range(2):
        stack = S_STUDY_STACK if kind == STUDY else S_FARM_STACK
        k = 0
        for t in range(N_PEOPLE):
            if tile_field(P, t, TF_KIND) == kind:
                st[stack + k] = t
                k += 1
        shuffle_into(rng, st[stack:stack + k], k)
        st[S_STUDY_N if kind == STUDY else S_FARM_N] = k
        refill_display(P, st, kind)
    # 9. Inti medals on the temple
    st[S_TEMPLE_MEDALS] = P[R_TEMPLE_MEDALS]
    for s in range(N_TEMPLE):
        st[S_TEMPLE + s] = -1
    # 10. goods onto the market rows (one of each type out with 2-3 players)
    row = 5 if n >= 4 else P[R_SMALL_MARKET_ROW]
    st[S_MARKET_ROW_SIZE] = row
    k = 0
    for t in range(N_GOODS):
        count = good_field(P, t, GF_COUNT) - (1 if n < 4 and good_field(P, t, GF_COUNT) > 0 else 0)
        st[S_BOX_GOODS] += good_field(P, t, GF_COUNT) - count
        for _ in range(count):
            scr[k] = t
            k += 1
    shuffle_into(rng, scr[:k], k)
    used = 0
    for r in range(P[R_ROUNDS]):
        for i in range(5):
            if i < row and used < k:
                st[S_MARKET + r * 5 + i] = scr[used]
                used += 1
            else:
                st[S_MARKET + r * 5 + i] = -1
    st[S_BOX_GOODS] += k - used
    # 11. golden missions in piles, the palace display
    k = 0
    for m in range(P[H_MISSIONS]):
        if mission_field(P, m, MF_STARTING) == 0:
            st[S_MISSION_PILE + k] = m
            k += 1
    shuffle_into(rng, st[S_MISSION_PILE:S_MISSION_PILE + k], k)
    st[S_MISSION_N] = k
    st[S_PALACE_SIZE] = n + P[R_PALACE_EXTRA]
    for i in range(PALACE_SLOTS):
        st[S_PALACE + i] = -1
    refill_palace(P, st)
    # 13. random mask boards
    n_masks = P[H_MASKS]
    for i in range(n_masks):
        scr[i] = i
    shuffle_into(rng, scr[:n_masks], n_masks)
    for p in range(MAX_PLAYERS):
        for i in range(12):
            st[seat_at(p) + P_TILE + i] = -1
        for i in range(3):
            st[seat_at(p) + P_MISSION + i] = -1
        st[seat_at(p) + P_USED_STUDY] = -1
        st[seat_at(p) + P_USED_FARM] = -1
    for p in range(n):
        st[seat_at(p) + P_MASK] = scr[p % n_masks]
        st[seat_at(p) + P_QUIPU_MASK] = P[R_QUIPUS]
        st[seat_at(p) + P_PRIESTS_HOME] = P[R_PRIESTS]
        st[seat_at(p) + P_LOC] = CUZCO
        st[seat_at(p) + P_FORBIDDEN] = P[FORBIDDEN_AT + p]
    # 15. order tokens (and their starting VP, status stack), feathers, offerings, medals
    for i in range(n):
        scr[i] = i
    shuffle_into(rng, scr[:n], n)
    for pos in range(n):
        p = scr[pos]
        st[S_ORDER + pos] = p
        st[seat_at(p) + P_ORDER_POS] = pos
        st[seat_at(p) + P_STATUS_SEQ] = n - pos
        rec[stats_at(p) + STAT_START_ORDER] = pos
        gain_vp(st, rec, log, p, P[R_START_VP + pos], VP_START)
    st[S_STATUS_SEQ] = n
    for c in range(N_COLOURS):
        scr[c] = c
    shuffle_into(rng, scr[:N_COLOURS], N_COLOURS)
    for p in range(n):
        take_chosen_feather(P, st, rec, log, p, W[p], scr[p % N_COLOURS])
        gain_offerings(st, p, P[R_START_OFFERINGS])
        st[seat_at(p) + P_MEDALS] = P[R_START_MEDALS]
    # starting missions: one grey each, then two golden each
    k = 0
    for m in range(P[H_MISSIONS]):
        if mission_field(P, m, MF_STARTING) != 0:
            scr[k] = m
            k += 1
    shuffle_into(rng, scr[:k], k)
    for p in range(n):
        if p < k:
            st[seat_at(p) + P_MISSION] = scr[p]
        for j in range(P[R_GOLDEN_PER_PLAYER]):
            mn = st[S_MISSION_N]
            if mn > 0:
                st[seat_at(p) + P_MISSION + 1 + j] = st[S_MISSION_PILE + mn - 1]
                st[S_MISSION_PILE + mn - 1] = -1
                st[S_MISSION_N] = mn - 1
    st[S_BOX_MISSIONS] += max(0, k - n)
    deal_god_cards(P, st, rec, log, n, W)
    for god in range(N_GODS):
        reveal_god(st, god)
    st[S_SETUP_DONE] = 1


@njit_inline
def deal_feather_pieces(P, st, scr):
    """Setup 1: the villages' feather colours this game. The board pieces that carry feathers
    (villages.feather_piece: the triangles of the inner villages, the frame pieces of the outer)
    are laid in a random order among the places of their kind, each with its feathers in the same
    order; without setup.deal_feather_pieces, as villages.feather lists them."""
    for v in range(N_VILLAGES):
        st[S_VILLAGE_COLOUR + v] = village_field(P, v, VF_COLOUR)
    if P[R_DEAL_PIECES] == 0:
        return
    pieces = scr[:N_VILLAGES]
    dealt = scr[N_VILLAGES:2 * N_VILLAGES]
    for ring in range(2):
        k = 0
        for v in range(N_VILLAGES):
            q = village_field(P, v, VF_PIECE)
            listed = False
            for j in range(k):
                listed = listed or pieces[j] == q
            if village_field(P, v, VF_RING) == ring and not listed:
                pieces[k] = q
                k += 1
        for j in range(k):
            dealt[j] = j
        shuffle_into(rng_of(st), dealt[:k], k)
        for j in range(k):
            place = pieces[j]
            piece = pieces[dealt[j]]
            i = 0
            for v in range(N_VILLAGES):
                if village_field(P, v, VF_PIECE) == place:
                    st[S_VILLAGE_COLOUR + v] = nth_colour_on_piece(P, piece, i)
                    i += 1


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def nth_colour_on_piece(P, piece, n):
    """The printed colour of the n-th village (in villages order) whose feather lies on `piece`."""
    for v in range(N_VILLAGES):
        if village_field(P, v, VF_PIECE) == piece:
            if n == 0:
                return village_field(P, v, VF_COLOUR)
            n -= 1
    return -1


@njit_inline
def deal_god_cards(P, st, rec, log, n, W):
    """Setup 15: cards from every pile mixed; two each to every player, the rest kept as the
    reserve pile. A player with two cards of one colour discards the one its bot values less
    (setup_discard_choice), draws the reserve's top card and shuffles the discarded card back into
    the reserve, until their colours differ (in player order; a player whose colour the whole
    reserve shares keeps the pair: no draw could end it). The reserve then goes face up onto the
    discard pile. Inlined into setup (its one call site), as is deal_feather_pieces: not a
    compiled level emitting what it calls once more."""
    rng = rng_of(st)
    res = scr_row(rec, SCR_TMP)
    per = P[R_GOD_DEAL + n]
    k = 0
    for god in range(N_GODS):
        for _ in range(per):
            pn = st[S_GOD_PILE_N + god]
            if pn > 0:
                res[k] = st[S_GOD_PILES + god * GOD_PILE_SLOTS + pn - 1]
                st[S_GOD_PILES + god * GOD_PILE_SLOTS + pn - 1] = -1
                st[S_GOD_PILE_N + god] = pn - 1
                k += 1
    shuffle_into(rng, res[:k], k)
    held = scr_row(rec, SCR_LIST)
    for p in range(n):
        for j in range(2):
            held[2 * p + j] = -1
            if k > 0:
                k -= 1
                held[2 * p + j] = res[k]
    redeal_duplicate_colours(st, rec, W, held, res, k, n)
    swap_forbidden_cards(st, held, res, k, n)
    for p in range(n):
        for j in range(2):
            card = held[2 * p + j]
            if card >= 0:
                st[seat_at(p) + P_HAND + card] += 1
                st[seat_at(p) + P_DEALT + card] += 1
                rec[stats_at(p) + STAT_CARD_GAINED + card] += 1
    for i in range(k):
        discard_god_card(st, res[i])


@njit_typed(f"void({T_STATE}, int64[::1], int64[::1], int64, int64)")
def swap_forbidden_cards(st, held, res, k, n):
    """A seat dealt a card it is forbidden (gods.forbidden_by_seat, a `sim value` study) swaps it
    for the reserve's topmost card it may hold, of another colour than its other card if there is
    one: the seat never holds the card. The reserve keeps its order otherwise, so with nothing
    forbidden the deal is the game's own (the random stream is not touched)."""
    for p in range(n):
        for j in range(2):
            card = held[2 * p + j]
            if card < 0 or not card_forbidden(st, p, card):
                continue
            other = held[2 * p + 1 - j]
            pick = -1
            for i in range(k - 1, -1, -1):
                if not card_forbidden(st, p, res[i]) and (pick < 0 or (res[pick] // 3 == other // 3 and
                                                                         res[i] // 3 != other // 3)):
                    pick = i
            if pick >= 0:
                held[2 * p + j] = res[pick]
                res[pick] = card


@njit_inline
def setup_discard_choice(st, p, w, a, b):
    """Setup 15, "they must discard one of these": which of two dealt cards of one colour a
    player discards (0: the first, 1: the second), the one its bot values less in hand (its
    `card_preference`; the two are of one god, so the god-card missions 22/23 and 32-36 count
    them alike); the second on a tie (the same ability: no choice)."""
    return 0 if w[W_CARD_PREF + a] < w[W_CARD_PREF + b] else 1


@njit_typed(f"void({T_STATE}, {T_REC}, float64[:, ::1], int64[::1], int64[::1], int64, int64)")
def redeal_duplicate_colours(st, rec, W, held, res, k, n):
    """Setup 15, "If a player receives 2 cards of identical color, they must discard one of these.
    Then, the player draws a card from the reserve pile, and shuffle the discarded card back on
    that pile. Repeat this process until each player has 2 cards of different colors": in player
    order, each player's two cards (held[2p], held[2p + 1]) against the reserve res[:k] (its top
    is res[k - 1]). The card discarded is the bot's choice (setup_discard_choice). A player whose
    colour every reserve card shares keeps the pair (no draw could end it)."""
    rng = rng_of(st)
    for pos in range(n):
        p = st[S_ORDER + pos]
        tries = 0
        while held[2 * p] >= 0 and held[2 * p + 1] >= 0 and held[2 * p] // 3 == held[2 * p + 1] // 3 \
                and k > 0 and tries < 100:
            other = False
            for i in range(k):
                other = other or res[i] // 3 != held[2 * p] // 3
            if not other:
                break
            j = setup_discard_choice(st, p, W[p], held[2 * p], held[2 * p + 1])
            gone = held[2 * p + j]
            held[2 * p + j] = res[k - 1]
            res[k - 1] = gone
            if k > 1:
                rng_mod.shuffle(rng, res[:k], k)
            kept = held[2 * p + 1 - j]
            rec[stats_at(p) + STAT_CHOICE + (CH_SETUP_SAME if kept == gone else CH_SETUP_KEEP_SECOND - j)] += 1
            tries += 1


# ------------------------------------------------------------------------------ the end

@njit_noalloc
def final_scoring(P, st, rec, log):
    """End of the Game: medals, top quipus, the six achievements; most VP wins, ties to the
    player further ahead in player order."""
    n = st[S_N_PLAYERS]
    for p in range(n):
        gain_vp(st, rec, log, p, P[R_MEDAL_END_VP] * st[seat_at(p) + P_MEDALS], VP_MEDALS)
    for v in range(N_VILLAGES):
        k = st[S_STACK_N + v]
        if k > 0:
            gain_vp(st, rec, log, st[S_STACK + v * MAX_PLAYERS + k - 1], village_field(P, v, VF_VP), VP_VILLAGES)
    for p in range(n):
        ach = 0
        feathers = 0
        for c in range(N_COLOURS):
            feathers += st[seat_at(p) + P_FEATHERS + c]
        if feathers >= N_SLOTS:
            ach += P[R_ACH_FEATHERS]
        circ = 0
        for c in range(N_CIRCLETS):
            circ += st[seat_at(p) + P_CIRCLET + c]
        if circ >= N_CIRCLETS:
            ach += P[R_ACH_CIRCLETS]
        if st[seat_at(p) + P_MISSIONS_DONE] >= P[R_ROUNDS] + 3:
            ach += P[R_ACH_MISSIONS]
        if st[seat_at(p) + P_QUIPU_DELIVERED] >= P[R_QUIPUS]:
            ach += P[R_ACH_QUIPUS]
        if st[seat_at(p) + P_N_TILES] >= P[R_MASK_SPACES]:
            ach += P[R_ACH_PEOPLE]
        if st[seat_at(p) + P_GOODS_BOUGHT] >= P[R_ROUNDS]:
            ach += P[R_ACH_GOODS]
        gain_vp(st, rec, log, p, ach, VP_ACHIEVEMENTS)
    for rank in range(n):
        best = -1
        for pos in range(n):
            p = seat_in_order(st, pos)
            if rec[stats_at(p) + STAT_RANK] != 0:
                continue
            if best < 0 or st[seat_at(p) + P_VP] > st[seat_at(best) + P_VP]:
                best = p
        if best < 0:
            # A record reused without clearing (the search's rollouts) holds every rank already;
            # the per-seat stats table this record replaced wrote this rank to its last row
            # (index -1), so that seat's rank is overwritten here too: search results unchanged.
            best = MAX_PLAYERS - 1
        rec[stats_at(best) + STAT_RANK] = rank + 1
    for p in range(n):
        rec[stats_at(p) + STAT_FINAL_ORDER] = st[seat_at(p) + P_ORDER_POS]
        if rec[stats_at(p) + STAT_RANK] == 1:
            rec[stats_at(p) + STAT_WON] = 1
            st[S_WINNER] = p
        log_event(st, log, EV_FINAL, p, st[seat_at(p) + P_VP], rec[stats_at(p) + STAT_RANK], rec[stats_at(p) + STAT_WON], 0, 0)


# ------------------------------------------------------------------------------ invariants

@njit_inline
def check_components(P, st):
    """Components are never created or lost; returns 0 or the code of the first broken check."""
    n = st[S_N_PLAYERS]
    # offerings
    total = st[S_OFFERING_SUPPLY]
    for p in range(n):
        total += st[seat_at(p) + P_OFFERINGS]
    if total != P[R_OFFERING_SUPPLY]:
        return 1
    total = st[S_FOOD_SUPPLY]
    for p in range(n):
        total += st[seat_at(p) + P_FOOD]
    if total != P[R_FOOD_SUPPLY]:
        return 2
    for c in range(N_COLOURS):
        total = st[S_FEATHER_SUPPLY + c]
        for p in range(n):
            total += st[seat_at(p) + P_FEATHERS + c]
            if st[seat_at(p) + P_FEATHERS + c] > P[R_FEATHER_CAP]:
                return 3
        if total != P[R_FEATHERS_PER_COLOUR] * n:
            return 4
    # god cards: piles + face up + discard + hands
    total = st[S_GOD_DISCARD_N]
    for god in range(N_GODS):
        total += st[S_GOD_PILE_N + god] + (1 if st[S_GOD_UP + god] >= 0 else 0)
    for p in range(n):
        for c in range(N_CARDS):
            if st[seat_at(p) + P_HAND + c] < 0:
                return 5
            total += st[seat_at(p) + P_HAND + c]
    copies = 0
    for c in range(N_CARDS):
        copies += card_copies(P, c)
    if total != copies:
        return 6
    # people tiles: stacks + display + discards + masks
    total = st[S_STUDY_N] + st[S_FARM_N] + st[S_STUDY_DISCARD_N] + st[S_FARM_DISCARD_N]
    for i in range(6):
        total += (1 if st[S_STUDY_DISPLAY + i] >= 0 else 0) + (1 if st[S_FARM_DISPLAY + i] >= 0 else 0)
    for p in range(n):
        total += st[seat_at(p) + P_N_TILES]
        if empty_spaces(P, st, p) < 0:
            return 7
    if total != N_PEOPLE:
        return 8
    # quipus and priests
    for p in range(n):
        if st[seat_at(p) + P_QUIPU_MASK] + st[seat_at(p) + P_QUIPU_RESERVE] + st[seat_at(p) + P_QUIPU_DELIVERED] != P[R_QUIPUS]:
            return 9
        on_steps = 0
        for s in range(N_TEMPLE):
            if st[S_TEMPLE + s] == p:
                on_steps += 1
        if on_steps + st[seat_at(p) + P_PRIESTS_HOME] != P[R_PRIESTS]:
            return 10
        if st[seat_at(p) + P_PRIESTS_HOME] < 0 or st[seat_at(p) + P_OFFERINGS] < 0 or st[seat_at(p) + P_FOOD] < 0:
            return 11
    total = 0
    for v in range(N_VILLAGES):
        total += st[S_STACK_N + v]
    delivered = 0
    for p in range(n):
        delivered += st[seat_at(p) + P_QUIPU_DELIVERED]
    if total != delivered:
        return 12
    # goods: market + owned + box
    total = st[S_BOX_GOODS]
    for i in range(30):
        if st[S_MARKET + i] >= 0:
            total += 1
    for p in range(n):
        total += st[seat_at(p) + P_GOODS_BOUGHT]
    all_goods = 0
    for t in range(N_GOODS):
        all_goods += good_field(P, t, GF_COUNT)
    if total != all_goods:
        return 13
    # pututu tiles
    if P[R_PUTUTU] != 0:
        t1 = st[S_PUTUTU1]
        t2 = st[S_PUTUTU2]
        for p in range(n):
            t1 += st[seat_at(p) + P_PUTUTU1]
            t2 += st[seat_at(p) + P_PUTUTU2]
            if st[seat_at(p) + P_PUTUTU1] < 0 or st[seat_at(p) + P_PUTUTU2] < 0:
                return 14
        if t1 != P[R_PUTUTU1] or t2 != P[R_PUTUTU2]:
            return 15
    # Inti medals: those on the temple and those held never exceed the temple's stack and one a
    # player (Setup 9 and 15: 6 + 4 of the printed 10); a used medal leaves the game
    medals = st[S_TEMPLE_MEDALS]
    for p in range(n):
        if st[seat_at(p) + P_MEDALS] < 0:
            return 16
        medals += st[seat_at(p) + P_MEDALS]
    if st[S_TEMPLE_MEDALS] < 0 or medals > P[R_TEMPLE_MEDALS] + n * P[R_START_MEDALS]:
        return 16
    return 0
