"""A heuristic bot's model of a phase-I turn: its direct effects on the bot's own position.

The heuristic values an option without running the rules on a copy of the state: the turn's
effects on what position_value reads (the player's VP, status, food, feathers, tiles, cards, ...,
the temple and the village stacks) are written into the real state in place, each write noted
in a journal (field, old value) and tagged with the value group it touches; the bot re-values
only those groups against the decision's table of group values, then undoes the journal.

What the model leaves out, on purpose: what position_value never reads (dice on the board, the
supplies' use by other seats, logs and statistics), and what a player cannot know when choosing
(a god card turned up to replace one taken is hidden: the pile is treated as empty for the rest
of the turn, so a second card that turn comes from another face-up card). The test
tests/test_cuzco_effects.py checks that, apart from that, the modelled position values equal
those of the rules played on a copy.
"""
import numpy as np

from sim.core.jit import njit_inline, njit_noalloc, njit_typed
from .rules import (
    O_ACTION, O_BLESS, O_CARD, O_CARD2, O_CARD3, O_CARD4, card_way, O_DELIVERY, O_DIE, O_DISCARD_POS, O_EX, O_MEDAL, O_PIPS, O_PLENTY,
    O_PU1, O_PU2, O_TARGET, SRC_CARD, SRC_MEDAL, SRC_NONE, feather_colour_choice,
    card_cost, feather_slot_choice, god_pile_choice, plays, slide_down_choice, slide_up_choice, tile_field,
)
from .state import (
    P_DICE,
    A_BRIDGE, A_EXCHANGE, A_FARM, A_HEADDRESS, A_STUDY, A_TEMPLE, A_TRAIL, C_BLESSING_PLENTY,
    C_DELIVERY_VP, C_EXTRA_TURN, C_IGNORE_LOWER, C_JUMP, C_MOVE_DIE, C_PRIEST_RETURN,
    C_SEARCH_DISCARD, C_SLIDE_UP, C_VIRTUAL_SIX, CUZCO, EX_FEATHER, EX_FOOD, EX_GOD_CARD,
    EX_OFFERING, EX_STATUS, EX_VP, FARM, MAX_PLAYERS, MK_CIRCLETS, MK_FARM_ABILITIES,
    MK_FARM_SLID, MK_FARM_TILES, MK_FEATHER_COLOURS, MK_FEATHERS, MK_FEATHERS_OF_COLOUR, MK_FOOD,
    MK_GOD_COLOURS, MK_GOD_SAME_COLOUR, MK_GODS_OF, MK_GOODS, MK_GOODS_OF_TYPE, MK_GOODS_TYPES,
    MK_MEDALS, MK_NONE, MK_OFFERINGS, MK_ORDER_TOKEN_ONE, MK_PEOPLE_SLID, MK_PEOPLE_WITH_ABILITY,
    MK_PRIESTS, MK_STUDY_ABILITIES, MK_STUDY_SLID, MK_STUDY_TILES, MK_VILLAGE_VALUES, MK_VILLAGES,
    MK_VILLAGES_IN_RING, MK_VILLAGES_OF_COLOUR, MK_VILLAGES_WORTH, N_EXCHANGES, N_TEMPLE,
    P_CIRCLET, P_DELIVERED, P_FEATHERS, P_FOOD, P_HAND, P_LOC, P_MEDALS, P_N_TILES, P_OFFERINGS,
    P_PUTUTU1, P_PUTUTU2, P_QUIPU_DELIVERED, P_QUIPU_MASK, P_QUIPU_RESERVE, P_SLID, P_SLOT, P_STATUS,
    P_TILE, P_VP, JOURNAL_HEADER, R_BLESS_CARD, R_BLESS_STATUS, R_CIRCLET_VP, R_EXCHANGE, R_HEADDRESS_VP,
    R_PLENTY_FOOD, R_PLENTY_STATUS, R_STATUS_LEN, R_VP_SPACE, S_FARM_DISCARD, S_FARM_DISPLAY,
    S_FEATHER_SUPPLY, S_FOOD_SUPPLY, S_GOD_UP, S_OFFERING_SUPPLY, S_ROUND, S_STACK, S_STACK_N,
    S_STUDY_DISCARD, S_STUDY_DISCARD_N, S_STUDY_DISPLAY, S_TEMPLE, STUDY, T_PARAMS, T_REC, T_STATE,
    VF_VP, TF_VALUE, seat_at, village_colour, village_field, JOURNAL_WEIGHTS, N_COLOURS,
)
from .weights import N_WEIGHTS

# ---- value groups: the parts of position_value, each reading its own fields (bots.group_term)
G_VP = 0
G_STATUS = 1
G_PRIESTS = 2  # the temple
G_MEDALS = 3
G_CARDS = 4  # god cards in hand and offerings
G_FOOD = 5
G_GOODS = 6
G_FEATHERS = 7  # feathers, slots, circlets
G_QUIPUS = 8  # quipus delivered, villages delivered to
G_VILLAGES = 9  # the village stacks
G_TILES = 10  # the people tiles on the mask board, slid or not
G_MISSIONS = 11  # one bit per mission slot from here
G_PUTUTU = 14
G_ORDER = 15
G_LOC = 16
G_EMPTY = 17  # empty mask spaces (tiles and quipus on the mask)
N_GROUPS = 18
G_DISPLAY = N_GROUPS  # the face-up god cards: no value group reads them, the god-card choice does
G_DIE = N_GROUPS + 1  # one of the bot's dice placed: G_PUTUTU's term, known per decision (bots.journal_value)
G_SLID = N_GROUPS + 2  # people tiles slid or turned back: G_TILES's term and the slid-tile missions, not the tile counts
G_NONE = -1  # a field nothing the bot values reads (a supply): journalled, not re-valued
G_UNKNOWN = -2  # a requirement kind requirement_group does not know: any change may matter
ALL_GROUPS = (1 << N_GROUPS) - 1

J_N = 0  # journal: entries
J_GROUPS = 1  # bit set of the groups touched
# The decision's choice memo: a god-card or feather choice depends only on fields of the groups in
# its deps word, so while the memo is on (a phase-I decision, bots.open_choice_memo) and an option's
# journal has touched none of them, the choice is the one made on the decision's own position,
# computed once.
J_MEMO_ON = 2
J_GOD_DEPS = 3
J_FEATHER_DEPS = 4
J_GOD_CHOICE = 5  # god_pile_choice, CHOICE_UNKNOWN until first asked
J_COLOUR_CHOICE = 6  # feather_colour_choice
J_SLOT_CHOICE = 7  # + colour: feather_slot_choice
# The deciding bot's weights (float64 bits), copied in once per decision (remember_weights): the
# valuation chain reads them from the journal it already receives instead of taking one more array
# argument per call (Numba passes each array as 7 machine words).
J_WEIGHTS = J_SLOT_CHOICE + N_COLOURS
assert N_WEIGHTS <= JOURNAL_WEIGHTS and J_WEIGHTS + JOURNAL_WEIGHTS == JOURNAL_HEADER
SLOT_DEPS = 1 << G_FEATHERS  # feather_slot_choice reads the feathers, slots and circlets (and their supply)
J_PAIRS = JOURNAL_HEADER  # + 2 * entry: field, old value
CHOICE_UNKNOWN = -2


@njit_typed("int64(int64)")
def requirement_group(kind):
    """The value group whose fields a mission requirement kind reads (rules.requirement_have)."""
    if kind == MK_NONE:
        return G_NONE
    if kind == MK_PRIESTS:
        return G_PRIESTS
    if kind == MK_FARM_TILES or kind == MK_STUDY_TILES or kind == MK_STUDY_ABILITIES or kind == MK_FARM_ABILITIES \
            or kind == MK_PEOPLE_WITH_ABILITY:
        return G_TILES
    if kind == MK_STUDY_SLID or kind == MK_FARM_SLID or kind == MK_PEOPLE_SLID:
        return G_SLID  # a tile put on the mask is unslid: the counts of slid tiles stay
    if kind == MK_ORDER_TOKEN_ONE:
        return G_ORDER
    if kind == MK_GOODS or kind == MK_GOODS_OF_TYPE or kind == MK_GOODS_TYPES:
        return G_GOODS
    if kind == MK_VILLAGES or kind == MK_VILLAGES_OF_COLOUR or kind == MK_VILLAGES_WORTH \
            or kind == MK_VILLAGES_IN_RING or kind == MK_VILLAGE_VALUES:
        return G_QUIPUS
    if kind == MK_FEATHERS_OF_COLOUR or kind == MK_FEATHER_COLOURS or kind == MK_FEATHERS or kind == MK_CIRCLETS:
        return G_FEATHERS
    if kind == MK_GOD_COLOURS or kind == MK_GOD_SAME_COLOUR or kind == MK_GODS_OF or kind == MK_OFFERINGS:
        return G_CARDS
    if kind == MK_FOOD:
        return G_FOOD
    if kind == MK_MEDALS:
        return G_MEDALS
    return G_UNKNOWN


# ------------------------------------------------------------------------------ the journal

@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64, int64)")
def put(st, journal, field, value, group):
    """st[field] = value, noted in the journal with the group it touches."""
    n = journal[J_N]
    journal[J_PAIRS + 2 * n] = field
    journal[J_PAIRS + 2 * n + 1] = st[field]
    journal[J_N] = n + 1
    if group >= 0:
        journal[J_GROUPS] |= 1 << group
    st[field] = value


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64, int64)")
def add(st, journal, field, n, group):
    put(st, journal, field, st[field] + n, group)


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64, int64)")
def save_range(st, journal, start, count, group):
    """Note count fields from start before a rules function writes some of them."""
    for i in range(start, start + count):
        put(st, journal, i, st[i], group)


@njit_typed(f"boolean({T_REC}, int64)")
def memo_holds(journal, deps):
    """The decision's memo of a choice is on and still valid: the option has touched none of the
    value groups in `deps` (journal[J_GOD_DEPS], journal[J_FEATHER_DEPS] or SLOT_DEPS)."""
    return journal[J_MEMO_ON] != 0 and journal[J_GROUPS] & deps == 0


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64)")
def undo_to(st, journal, mark, groups):
    """Put back the fields journalled since entry `mark`, newest first; `groups` were touched before."""
    for k in range(journal[J_N] - 1, mark - 1, -1):
        st[journal[J_PAIRS + 2 * k]] = journal[J_PAIRS + 2 * k + 1]
    journal[J_N] = mark
    journal[J_GROUPS] = groups


@njit_typed(f"void({T_STATE}, {T_REC})")
def undo(st, journal):
    """Put every journalled field back and empty the journal."""
    undo_to(st, journal, 0, 0)


@njit_inline
def weights_of(journal):
    """The deciding bot's weight vector, as remember_weights left it in the journal."""
    return journal[J_WEIGHTS:J_WEIGHTS + N_WEIGHTS].view(np.float64)


@njit_noalloc
def remember_weights(journal, w):
    """Copy the deciding bot's weights into the journal, bit for bit, when a decision starts."""
    kept = weights_of(journal)
    for i in range(N_WEIGHTS):
        kept[i] = w[i]


# ------------------------------------------------------------------------------ supplies and cards

@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64, int64, int64)")
def take_supply(st, journal, p, supply, field, n):
    k = min(n, st[supply])
    if k > 0:
        add(st, journal, supply, -k, G_NONE)
        add(st, journal, seat_at(p) + field, k, G_FOOD if field == P_FOOD else G_CARDS)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, int64, int64)")
def gain_status(P, st, journal, p, n):
    if n > 0:
        put(st, journal, seat_at(p) + P_STATUS, min(st[seat_at(p) + P_STATUS] + n, P[R_STATUS_LEN] - 1), G_STATUS)


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64)")
def gain_vp(st, journal, p, n):
    add(st, journal, seat_at(p) + P_VP, n, G_VP)


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64, int64)")
def pay_card(st, journal, p, card, source):
    """A card's price: the card and its offerings (card_cost, back to the supply), or a medal. The
    face-up card a medal uses is replaced by a hidden one: treated as gone."""
    if source == SRC_CARD:
        add(st, journal, seat_at(p) + P_HAND + card, -1, G_CARDS)
        add(st, journal, seat_at(p) + P_OFFERINGS, -card_cost(st, card), G_CARDS)
        add(st, journal, S_OFFERING_SUPPLY, card_cost(st, card), G_NONE)
    elif source == SRC_MEDAL:
        add(st, journal, seat_at(p) + P_MEDALS, -1, G_MEDALS)
        put(st, journal, S_GOD_UP + card // 3, -1, G_DISPLAY)


@njit_noalloc
def take_god_card(P, st, journal, p):
    """The face-up card the bot likes most (rules.take_preferred_god_card); its hidden
    replacement is not counted. False if no card is face up."""
    if not memo_holds(journal, journal[J_GOD_DEPS]):
        god = god_pile_choice(P, st, p, weights_of(journal))
    else:
        if journal[J_GOD_CHOICE] == CHOICE_UNKNOWN:
            journal[J_GOD_CHOICE] = god_pile_choice(P, st, p, weights_of(journal))
        god = journal[J_GOD_CHOICE]
    if god < 0:
        return False
    add(st, journal, seat_at(p) + P_HAND + st[S_GOD_UP + god], 1, G_CARDS)
    put(st, journal, S_GOD_UP + god, -1, G_DISPLAY)
    return True


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, {T_REC}, int64, int64)")
def take_feather(P, st, journal, p, colour):
    """rules.take_chosen_feather: the feather into the slot the bot chooses."""
    if not memo_holds(journal, SLOT_DEPS):
        slot = feather_slot_choice(P, st, p, weights_of(journal), colour)
    else:
        if journal[J_SLOT_CHOICE + colour] == CHOICE_UNKNOWN:
            journal[J_SLOT_CHOICE + colour] = feather_slot_choice(P, st, p, weights_of(journal), colour)
        slot = journal[J_SLOT_CHOICE + colour]
    if slot < 0:
        return False
    put(st, journal, seat_at(p) + P_SLOT + slot, 1, G_FEATHERS)
    add(st, journal, seat_at(p) + P_FEATHERS + colour, 1, G_FEATHERS)
    add(st, journal, S_FEATHER_SUPPLY + colour, -1, G_NONE)
    return True


# ------------------------------------------------------------------------------ the actions

@njit_typed(f"void({T_PARAMS}, {T_STATE}, int64[::1], int64, int64, int64)")
def fire_blessing(P, st, journal, p, choice, plenty):
    """rules.fire_blessing: a god card or an offering, and status or food; Viracocha 08's 3 + 3."""
    if plenty != SRC_NONE:
        pay_card(st, journal, p, C_BLESSING_PLENTY, plenty)
        take_supply(st, journal, p, S_FOOD_SUPPLY, P_FOOD, P[R_PLENTY_FOOD])
        gain_status(P, st, journal, p, P[R_PLENTY_STATUS])
        return
    for _ in range(P[R_BLESS_CARD]):
        if choice & 1 != 0 or not take_god_card(P, st, journal, p):
            take_supply(st, journal, p, S_OFFERING_SUPPLY, P_OFFERINGS, 1)
    if choice & 2 == 0:
        gain_status(P, st, journal, p, P[R_BLESS_STATUS])
    else:
        take_supply(st, journal, p, S_FOOD_SUPPLY, P_FOOD, P[R_BLESS_STATUS])


@njit_noalloc
def deliver_quipu(P, st, journal, p, village, delivery_vp):
    """rules.deliver_quipu: a quipu (mask first) onto the village, its feather, Pacha Mama 10."""
    if st[seat_at(p) + P_DELIVERED + village] != 0:
        return
    if st[seat_at(p) + P_QUIPU_MASK] > 0:
        add(st, journal, seat_at(p) + P_QUIPU_MASK, -1, G_EMPTY)
    elif st[seat_at(p) + P_QUIPU_RESERVE] > 0:
        add(st, journal, seat_at(p) + P_QUIPU_RESERVE, -1, G_NONE)
    else:
        return
    n = st[S_STACK_N + village]
    put(st, journal, S_STACK + village * MAX_PLAYERS + n, p, G_VILLAGES)
    put(st, journal, S_STACK_N + village, n + 1, G_VILLAGES)
    put(st, journal, seat_at(p) + P_DELIVERED + village, 1, G_QUIPUS)
    add(st, journal, seat_at(p) + P_QUIPU_DELIVERED, 1, G_QUIPUS)
    take_feather(P, st, journal, p, village_colour(st, village))
    if delivery_vp != SRC_NONE:
        pay_card(st, journal, p, C_DELIVERY_VP, delivery_vp)
        gain_vp(st, journal, p, village_field(P, village, VF_VP))


@njit_noalloc
def move_chasqui(P, st, journal, p, dest, bless, plenty, delivery_vp):
    put(st, journal, seat_at(p) + P_LOC, dest, G_LOC)
    if dest == CUZCO:
        fire_blessing(P, st, journal, p, bless, plenty)
    else:
        deliver_quipu(P, st, journal, p, dest, delivery_vp)


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64)")
def put_tile(st, journal, p, tile):
    """A people tile onto the first empty mask space (the caller checked there is one)."""
    for i in range(12):
        if st[seat_at(p) + P_TILE + i] < 0:
            put(st, journal, seat_at(p) + P_TILE + i, tile, G_TILES)
            put(st, journal, seat_at(p) + P_SLID + i, 0, G_TILES)
            add(st, journal, seat_at(p) + P_N_TILES, 1, G_TILES)
            journal[J_GROUPS] |= 1 << G_EMPTY
            return


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64)")
def take_discard_tile(st, journal, p, position):
    """Viracocha 09: the tile at `position` of the discard piles (study first); the piles
    themselves are not re-read this turn, so they are left as they are."""
    if position < 0:
        return
    if position < st[S_STUDY_DISCARD_N]:
        put_tile(st, journal, p, st[S_STUDY_DISCARD + position])
    else:
        put_tile(st, journal, p, st[S_FARM_DISCARD + position - st[S_STUDY_DISCARD_N]])


@njit_noalloc
def place_priest(P, st, journal, p, step, priest_return):
    """rules.place_priest on the temple steps: a chain of pushes down, or (Pacha Mama 12) the
    occupant sent home."""
    occupant = st[S_TEMPLE + step]
    if occupant >= 0 and priest_return != SRC_NONE:
        pay_card(st, journal, p, C_PRIEST_RETURN, priest_return)
    elif occupant >= 0:
        s = step
        moving = occupant
        while moving >= 0 and s > 0:
            below = st[S_TEMPLE + s - 1]
            put(st, journal, S_TEMPLE + s - 1, moving, G_PRIESTS)
            moving = below
            s -= 1
    put(st, journal, S_TEMPLE + step, p, G_PRIESTS)


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64[::1], int64, int64)")
def slide_one_down(P, st, journal, p, kind):
    """The exchange's slide-down (rules.slide_down, one tile): the tile the bot chooses
    (rules.slide_down_choice) slid down, its one flag journalled (not the mask's twelve: undo
    puts back the same state, and a step that slides nothing touches no group); its value, -1
    when no unslid tile of the kind is left (slide_down_choice finds none exactly when
    rules.count_unslid is 0: the step's own test, without a walk over the mask of its own)."""
    i = slide_down_choice(P, st, p, weights_of(journal), kind)
    if i < 0:
        return -1
    put(st, journal, seat_at(p) + P_SLID + i, 1, G_SLID)
    return tile_field(P, st[seat_at(p) + P_TILE + i], TF_VALUE)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64[::1], int64, int64)")
def exchange_step(P, st, journal, p, ex):
    """One exchange of kind ex (rules.do_exchange); False if it can do nothing now (and does
    nothing). The exchanges touch disjoint parts of the position, so their order is immaterial."""
    if ex == EX_STATUS:
        value = slide_one_down(P, st, journal, p, STUDY)
        if value < 0:
            return False
        gain_status(P, st, journal, p, value)
    elif ex == EX_FOOD:
        if st[S_FOOD_SUPPLY] <= 0:
            return False
        value = slide_one_down(P, st, journal, p, FARM)
        if value < 0:
            return False
        take_supply(st, journal, p, S_FOOD_SUPPLY, P_FOOD, value)
    elif ex == EX_VP:
        gain_vp(st, journal, p, 1)
    elif ex == EX_OFFERING:
        if st[S_OFFERING_SUPPLY] <= 0:
            return False
        take_supply(st, journal, p, S_OFFERING_SUPPLY, P_OFFERINGS, 1)
    elif ex == EX_GOD_CARD:
        return take_god_card(P, st, journal, p)
    elif ex == EX_FEATHER:
        if not memo_holds(journal, journal[J_FEATHER_DEPS]):
            colour = feather_colour_choice(P, st, p, weights_of(journal))
        else:
            if journal[J_COLOUR_CHOICE] == CHOICE_UNKNOWN:
                journal[J_COLOUR_CHOICE] = feather_colour_choice(P, st, p, weights_of(journal))
            colour = journal[J_COLOUR_CHOICE]
        if colour < 0:
            return False
        take_feather(P, st, journal, p, colour)
    else:
        if st[seat_at(p) + P_QUIPU_MASK] <= 0:
            return False
        add(st, journal, seat_at(p) + P_QUIPU_MASK, -1, G_EMPTY)
        add(st, journal, seat_at(p) + P_QUIPU_RESERVE, 1, G_NONE)
    return True


@njit_inline
def exchange(P, st, journal, p, opt, pips):
    """rules.do_exchange: the exchanges in their order, each while it does anything and the
    pips last. Inlined into apply_turn, its one call site (a level of its own would emit the
    exchange steps under it once more)."""
    budget = pips
    for ex in range(N_EXCHANGES):
        cost = P[R_EXCHANGE + ex]
        for _ in range(opt[O_EX + ex]):
            if budget < cost or not exchange_step(P, st, journal, p, ex):
                break
            budget -= cost


@njit_typed(f"void({T_STATE}, {T_REC}, int64, int64[::1])")
def spend_pututu(st, journal, p, opt):
    """The pututu tiles a turn spends (apply_turn leaves them to this: their value is linear)."""
    if opt[O_PU1] > 0:
        add(st, journal, seat_at(p) + P_PUTUTU1, -opt[O_PU1], G_PUTUTU)
    if opt[O_PU2] > 0:
        add(st, journal, seat_at(p) + P_PUTUTU2, -opt[O_PU2], G_PUTUTU)


@njit_noalloc
def apply_turn(P, st, journal, p, opt):
    """rules.perform_turn's effects on the player's own position, journalled (see the module),
    but for the pututu tiles spent (spend_pututu): the die placed (the tiles' worth depends on the
    placements left), the card's payment, the action."""
    if opt[O_DIE] >= 0:
        put(st, journal, seat_at(p) + P_DICE + opt[O_DIE], 0, G_DIE)
    card = opt[O_CARD]
    card_src = SRC_MEDAL if opt[O_MEDAL] != 0 else SRC_CARD
    pips = 1 if opt[O_DIE] < 0 else opt[O_PIPS]
    if card == C_MOVE_DIE or card == C_IGNORE_LOWER or card == C_EXTRA_TURN or card == C_VIRTUAL_SIX or \
            card == C_JUMP or card == C_SLIDE_UP or card == C_SEARCH_DISCARD:
        pay_card(st, journal, p, card, card_src)
    for slot in (O_CARD2, O_CARD3, O_CARD4):
        if opt[slot] >= 0 and opt[slot] != C_PRIEST_RETURN:
            pay_card(st, journal, p, opt[slot], SRC_MEDAL if opt[slot + 1] != 0 else SRC_CARD)
    strength = 6 if plays(opt, C_VIRTUAL_SIX) else pips
    action = opt[O_ACTION]
    target = opt[O_TARGET]
    if action == A_TRAIL or action == A_BRIDGE:
        move_chasqui(P, st, journal, p, target, opt[O_BLESS], opt[O_PLENTY], opt[O_DELIVERY])
    elif action == A_STUDY or action == A_FARM:
        base = S_STUDY_DISPLAY if action == A_STUDY else S_FARM_DISPLAY
        put_tile(st, journal, p, st[base + target])
        put(st, journal, base + target, -1, G_NONE)
        if plays(opt, C_SEARCH_DISCARD):
            take_discard_tile(st, journal, p, opt[O_DISCARD_POS])
    elif action == A_EXCHANGE:
        if plays(opt, C_SLIDE_UP):
            save_range(st, journal, seat_at(p) + P_SLID, 12, G_SLID)
            for _ in range(2):
                i = slide_up_choice(P, st, p, weights_of(journal))
                if i < 0:
                    break
                st[seat_at(p) + P_SLID + i] = 0
        exchange(P, st, journal, p, opt, strength)
    elif action == A_TEMPLE:
        place_priest(P, st, journal, p, min(strength, N_TEMPLE) - 1, card_way(opt, C_PRIEST_RETURN))
        fire_blessing(P, st, journal, p, opt[O_BLESS], opt[O_PLENTY])
    elif action == A_HEADDRESS:
        put(st, journal, seat_at(p) + P_CIRCLET + target, 1, G_FEATHERS)
        gain_vp(st, journal, p, P[R_HEADDRESS_VP + st[S_ROUND]] + P[R_CIRCLET_VP + target])
        fire_blessing(P, st, journal, p, opt[O_BLESS], opt[O_PLENTY])
    else:
        gain_vp(st, journal, p, P[R_VP_SPACE])
