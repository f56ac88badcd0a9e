"""Cuzco bots: every legal choice enumerated and valued.

All bots share one enumeration of the legal options (dice, pututu tiles, action spaces, targets,
fire blessings, god cards and Inti medals). A heuristic bot keeps the option whose resulting
position it values most; `position_value` is a weighted sum of features of its own seat, the
weights being the bot's style (bots.toml), in value groups (effects.G_*). A phase-I turn's result
is modelled from its direct effects (effects.py): written into the state in place with a journal,
only the groups it touched valued again against the decision's table of group values, then undone;
turns with the same effects share one valuation per decision. The kind "lookahead" (same weights)
plays each phase-I turn on a copy of the state with the rules instead: the bot of before issue 13,
several times slower, kept for comparison. The kind "fast" (same weights) values fewer phase-I
turns: a card paid the cheaper way only, 07/06/13 priced apart from the turn they allow, exchange
plans built lazily (README: the fast kind). Phase-II uses, goods, missions and the palace are tried
on a copy by all three. The random bot gives every option an independent uniform value, so it picks
uniformly among the enumerated legal options. Bots read only public information and their own
seat (hands of god cards are secret; the god piles are never looked into).
"""

import numpy as np

from sim.core import rng as rng_mod
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed
from .rules import (
    N_O, N_U, O_ACTION, O_BLESS, O_CARD, O_CARD2, O_CARD_ARG, O_CARD_ARG2, O_DELIVERY, O_DIE, O_DISCARD_POS, O_EX,
    O_MEDAL, O_MEDAL2, O_MOVE_INDEX, O_CARD3, O_MEDAL3, O_CARD4, O_MEDAL4, O_FOLLOW, CARD_SLOTS, FOLLOW_CARDS,
    medal_on_god, ends_in_blessing, follow_bit, free_card_slot,
    O_PIPS, O_PLENTY, O_PU1, O_PU2, O_SPACE, O_TARGET, SRC_CARD, SRC_MEDAL, SRC_NONE, U_ABILITY,
    U_BLESS, U_DOUBLE, U_EXTRA, U_KIND, U_PLENTY, U_TARGET, best_discard_tile,
    LAST_MISSION_PLANS, ability_bits, doubles_use, buy_good, can_move, count_unslid, circlet_ready, die_fits,
    empty_spaces, end_value, mission_term, payment, plays, ready_circlet_value, settle_last_missions,
    card_cost, card_forbidden, offerings_spent,
    fire_blessing, is_vp_space, joint_count, mission_shortfall, part_shortfall, perform_turn, popcount, requirement_fields,
    FEATHER_KINDS, GOD_CARD_KINDS,
    pututu_can_reach, settle_mission, use_ability,
)
from .state import (
    A_BRIDGE, A_EXCHANGE, A_FARM, A_HEADDRESS, A_STUDY, A_TEMPLE, A_TRAIL, A_VP,
    AB_BRIDGE, AB_CIRCLET, AB_FARMING, AB_STUDY, AB_TRAIL, S_FARM_DISPLAY, S_MARKET, S_PALACE,
    S_SPACE_DICE, S_SPACE_MIN, S_SPACE_N, S_STACK, S_STACK_N, S_STUDY_DISPLAY, S_TEMPLE, C_BLESSING_PLENTY, C_DELIVERY_VP,
    C_DOUBLE_GOOD, C_DOUBLE_PEOPLE, C_EXTRA_FARM, C_EXTRA_STUDY, C_EXTRA_TURN, C_IGNORE_LOWER,
    C_JUMP, C_MISSION_DISCOUNT, C_MOVE_DIE, C_PRIEST_RETURN, C_SEARCH_DISCARD, C_SLIDE_UP,
    C_VIRTUAL_SIX, CUZCO, S_MARKET_ROW_SIZE, S_N_PLAYERS, S_PALACE_SIZE, S_PHASE, S_ROUND,
    S_STUDY_DISCARD_N, S_FARM_DISCARD_N, S_GOD_UP, S_TEMPLE_MEDALS, GF_FOOD, MAX_DICE_ON_SPACE, MAX_PLAYERS, MAX_SPACES,
    N_ABILITIES, N_ACTIONS, N_CARDS, N_CIRCLETS, N_COLOURS, N_EXCHANGES, N_GOODS, N_TEMPLE,
    N_VILLAGES, P_CIRCLET, P_DELIVERED, P_DICE, P_DOUBLE_PEOPLE, P_FEATHERS, P_FOOD,
    P_GOODS, P_HAND, P_LOC, P_MEDALS, P_MISSION, P_N_TILES, P_OFFERINGS, P_ORDER_POS,
    P_PRIESTS_HOME, P_PUTUTU1, P_PUTUTU2, P_QUIPU_DELIVERED, P_SLID, P_STATUS, P_TILE,
    P_USED_FARM, P_USED_STUDY, USED_UP, P_VP, R_EXCHANGE, 
    R_PRIEST_VP, R_ROUNDS, R_STATUS_VP, STUDY, TF_ABILITY, TF_KIND, TF_VALUE, VF_VP,
    SCR_LIST, SCR_LIST2, SCR_TOP, SCR_TOP_VALUE, TOP_TURNS, WAY_BRIDGE, WAY_TRAIL, copy_state,
    good_field, joint_amount, space_actions, tile_field, village_field,
    T_LOG, T_PARAMS, T_REC, T_STATE, SCR_BASE, REC_RANK_TURNS, MASK_FIELDS, EX_GOD_CARD, EX_OFFERING, EX_QUIPU, EX_STATUS, P_QUIPU_MASK, S_OFFERING_SUPPLY, MEMO_SLOTS, MEMO_USED, RNG_WORDS, S_RNG, memo_of, MF_KIND1, MF_KIND2, mission_field, REC_COUNTS, COUNT_DECISIONS, COUNT_OPTIONS, COUNT_PLAYS, COUNT_MODELLED, COUNT_EXCHANGE_STEPS, COUNT_CARD_TURNS, COUNT_BY_ACTION, rng_of, scr_row, seat_at, journal_of,
)
from .effects import (
    ALL_GROUPS, G_CARDS, G_FEATHERS, G_FOOD, G_GOODS, G_LOC, G_MEDALS, G_MISSIONS, G_ORDER, G_PRIESTS,
    G_DIE, G_SLID, G_PUTUTU, G_QUIPUS, G_STATUS, G_TILES, G_VILLAGES, G_VP, G_EMPTY, J_GROUPS, N_GROUPS, apply_turn, undo,
    exchange_step, pay_card, undo_to, J_N, G_UNKNOWN, CHOICE_UNKNOWN, G_DISPLAY, J_COLOUR_CHOICE, J_FEATHER_DEPS,
    J_GOD_CHOICE, J_GOD_DEPS, J_MEMO_ON, J_SLOT_CHOICE,
    fire_blessing as fire_blessing_effects, remember_weights, requirement_group, weights_of,
)
from .weights import (
    EXTRA_COPY, N_WEIGHTS, SCALAR_WEIGHTS, SEARCH_SETTINGS, W_ABILITY_PREF, W_CARD, W_CARD_PREF, W_CIRCLET, W_CUZCO, W_EMPTY, W_EXTRA_TURN,
    W_FEATHER, W_FOOD, W_GOOD, W_MAJORITY, W_MEDAL, W_NOISE,
    W_OFFERING, W_ORDER, W_PRIEST, W_PUTUTU, W_QUIPU, W_STATUS, W_TILE, W_UNSLID, W_BLOCK,
    W_RIVAL_PRIEST, W_TIE_LEAD, W_HEIGHT, W_SEARCH_CANDIDATES,
    W_VILLAGE, W_VP,
)
from .state import ABILITY_NAMES, CARD_NAMES
from .rules import first_plan_of_its_kind, one_short_slots

BOT_KIND_NAMES = ("random", "heuristic", "search", "lookahead", "fast", "pruned")
KIND_RANDOM = 0
KIND_HEURISTIC = 1  # phase-I turns valued from their modelled direct effects (effects.py)
KIND_SEARCH = 2  # search.py: phase-I turns by rollouts; everything else as KIND_HEURISTIC
KIND_LOOKAHEAD = 3  # the same weights, each phase-I turn played by the rules on a copy (slower)
KIND_FAST = 4  # the heuristic valuing fewer phase-I options (cheaper_payments, plan_exchange_modelled)
KIND_PRUNED = 5  # the fast kind playing cards only on its best few plain turns (choose_turn's two stages)
WEIGHT_NAMES = tuple([name for name, _ in SCALAR_WEIGHTS] + [f"card_{c}" for c in CARD_NAMES]
                     + [f"ability_{a}" for a in ABILITY_NAMES] + [name for name, _ in SEARCH_SETTINGS])
assert len(WEIGHT_NAMES) == N_WEIGHTS
NO_VALUE = -1e300
NO_TOP = -(2 ** 62)  # an empty rank of the top-turns list
BLESSING_SLOT = 60  # look-ahead scratch: the turn's preferred fire blessing (exchange plans below)
BLESSING_KNOWN = 61  # 1 once BLESSING_SLOT holds it (the pruned kind chooses it when a turn first needs it)
REACH_SLOT = 64  # + 7 * (2 * way + jump) + strength: the places a move reaches (reachable_places)
DISCARD_SLOT = REACH_SLOT + 7 * 4  # Viracocha 09's discard tile + 2 (0: not chosen yet; decision_discard_tile)
PLAIN_CARDS = (C_IGNORE_LOWER, C_MOVE_DIE, C_VIRTUAL_SIX)
# The pruned kind's candidates (scratch row SCR_LIST2 of the look-ahead record, choose_turn): the
# best few (die, pips, space, action) of its plain turns, on whose turns alone it plays cards.
CAND_ON = 0  # 1 while the first stage notes its turns (keep_turn_if_better)
CAND_N = 1  # candidates kept
CAND_K = 2  # candidates to keep (the bot's `candidates` setting, at most CAND_ROOM)
CAND_EVERY = 3  # 1: every (die, pips, space, action) is a candidate (`candidates` above CAND_ROOM)
CAND_KEYS = 4  # + i: candidate i's key (candidate_key), best first
CAND_ROOM = 40
CAND_VALUES = CAND_KEYS + CAND_ROOM  # + i: float64, its best plain turn's value


# ------------------------------------------------------------------------------ valuing a position

@njit_noalloc
def tile_terms(P, st, p, w):
    """Seat p's people tiles: the value of the unslid ones, and what their abilities are worth to
    the bot (the first tile of a kind and ability counts fully, each identical one half)."""
    unslid = 0
    held = 0.0
    seen = np.int64(0)  # bit kind * N_ABILITIES + ability: a tile of that kind and ability came before
    for i in range(12):
        t = st[seat_at(p) + P_TILE + i]
        if t < 0:
            continue
        if st[seat_at(p) + P_SLID + i] == 0:
            unslid += tile_field(P, t, TF_VALUE)
        ability = tile_field(P, t, TF_ABILITY)
        bit = np.int64(1) << (tile_field(P, t, TF_KIND) * N_ABILITIES + ability)
        held += w[W_ABILITY_PREF + ability] * (0.5 if seen & bit else 1.0)
        seen |= bit
    return unslid, held


# Each group's part of position_value is added to a running sum v, in a fixed order: position_sum
# adds every group so (its float sum is the same, operation for operation, as ever: the lookahead
# kind plays as before), a group's value alone is its part added to 0.0 (group_term).
# add_priests, add_cards and add_feathers are copied into add_costly_group, their one call site: a
# call of its own passes three arrays (21 machine words) per group valued.

@njit_inline
def add_priests(P, st, p, w, v):
    """Priests: the VP still to come per priest on the steps (the bot's own, and the others'
    subtracted), how high its priests stand (pushes they survive), and the medal race (Phase III 2:
    most priests, a tie to the highest priest)."""
    n = st[S_N_PLAYERS]
    per_priest = 0
    for r in range(st[S_ROUND], P[R_ROUNDS]):
        per_priest += P[R_PRIEST_VP + r]
    mine = 0
    others = 0
    my_top = -1
    height = 0
    for s in range(N_TEMPLE):
        if st[S_TEMPLE + s] == p:
            mine += 1
            my_top = s
            height += s
        elif st[S_TEMPLE + s] >= 0:
            others += 1
    v += w[W_PRIEST] * mine * per_priest
    if w[W_RIVAL_PRIEST] != 0.0:
        v -= w[W_RIVAL_PRIEST] * others * per_priest
    if w[W_HEIGHT] != 0.0:
        v += w[W_HEIGHT] * height
    if mine > 0 and st[S_TEMPLE_MEDALS] > 0:
        lead = True
        tie_won = True
        for q in range(n):
            if q == p:
                continue
            k = 0
            q_top = -1
            for s in range(N_TEMPLE):
                if st[S_TEMPLE + s] == q:
                    k += 1
                    q_top = s
            if k >= mine:
                lead = False
            if k > mine or (k == mine and q_top > my_top):
                tie_won = False
        if lead:
            v += w[W_MAJORITY]
        elif tie_won:
            v += w[W_TIE_LEAD]
    return v


@njit_inline
def add_cards(st, p, w, v):
    """God cards in hand (each card's preference, extra copies less) and offerings to pay with."""
    cards = 0
    card_value = 0.0
    for c in range(N_CARDS):
        k = st[seat_at(p) + P_HAND + c]
        if k > 0:
            cards += k
            card_value += w[W_CARD_PREF + c] * (1.0 + EXTRA_COPY * (k - 1))
    v += w[W_CARD] * card_value
    v += w[W_OFFERING] * min(st[seat_at(p) + P_OFFERINGS], cards + 1) + 0.1 * st[seat_at(p) + P_OFFERINGS]
    return v


@njit_inline
def add_feathers(P, st, p, w, v):
    """Feathers, circlets ready to be activated (worth their headdress VP next round), active ones."""
    feathers = 0
    for c in range(N_COLOURS):
        feathers += st[seat_at(p) + P_FEATHERS + c]
    v += w[W_FEATHER] * feathers
    active = 0
    for c in range(N_CIRCLETS):
        active += st[seat_at(p) + P_CIRCLET + c]
        if circlet_ready(st, p, c):
            v += ready_circlet_value(P, st, w, c)
    v += w[W_CIRCLET] * active
    return v


@njit_noalloc
def add_mission(st, p, w, slot, short, v):
    """A mission slot: a bonus if met, a penalty per unit short (capped), nothing if empty."""
    if st[seat_at(p) + P_MISSION + slot] < 0:
        return v
    return v + mission_term(w, short)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64)")
def pututu_worth(P, st, p, w, placing):
    """A bot's value of a pip of pututu tiles: its weight while the player has a die still to
    place after the `placing` (0 or 1) it is placing now, nothing after the last placement (the
    rulebook: unused tiles are worthless at the end)."""
    dice = 0
    if st[S_PHASE] == 1:
        for d in range(3):
            if st[seat_at(p) + P_DICE + d] != 0:
                dice += 1
    if dice - placing + 3 * (P[R_ROUNDS] - 1 - st[S_ROUND]) > 0:
        return w[W_PUTUTU]
    return 0.0


@njit_inline
def slot_shortfall(P, st, p, slot):
    m = st[seat_at(p) + P_MISSION + slot]
    return mission_shortfall(P, st, p, m) if m >= 0 else 0


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64, float64)")
def add_costly_group(P, st, p, w, g, v):
    """add_group for the groups whose term loops over fields or calls a rules function: one
    compiled function, called. The mask board is two groups here (G_TILES: its people tiles;
    G_EMPTY: its empty spaces) and one addend in position_sum."""
    left = P[R_ROUNDS] - st[S_ROUND]
    if g == G_PRIESTS:
        return add_priests(P, st, p, w, v)
    if g == G_CARDS:
        return add_cards(st, p, w, v)
    if g == G_GOODS:
        goods = 0
        for t in range(N_GOODS):
            goods += st[seat_at(p) + P_GOODS + t]
        return v + w[W_GOOD] * goods
    if g == G_FEATHERS:
        return add_feathers(P, st, p, w, v)
    if g == G_VILLAGES:
        top_vp = 0
        for vil in range(N_VILLAGES):
            k = st[S_STACK_N + vil]
            if k > 0 and st[S_STACK + vil * MAX_PLAYERS + k - 1] == p:
                top_vp += village_field(P, vil, VF_VP)
        return v + w[W_VILLAGE] * top_vp
    if g == G_TILES:
        unslid, held = tile_terms(P, st, p, w)
        return v + left * (w[W_TILE] * st[seat_at(p) + P_N_TILES] + w[W_UNSLID] * unslid + held)
    if g == G_EMPTY:
        return v + left * w[W_EMPTY] * empty_spaces(P, st, p)
    if g >= G_MISSIONS and g < G_MISSIONS + 3:
        return add_mission(st, p, w, g - G_MISSIONS, slot_shortfall(P, st, p, g - G_MISSIONS), v)
    return v + pututu_worth(P, st, p, w, 0) * (st[seat_at(p) + P_PUTUTU1] + 2 * st[seat_at(p) + P_PUTUTU2])


@njit_inline
def add_group(P, st, p, w, g, v):
    """v plus one value group's part of position_value (effects.G_*). A group read from a field
    or two is added here, copied into each caller: no call, whose three array arguments (21
    machine words) and frame cost more than the term; the others are called (add_costly_group)."""
    if g == G_VP:
        return v + w[W_VP] * st[seat_at(p) + P_VP]
    if g == G_STATUS:
        return v + w[W_STATUS] * P[R_STATUS_VP + st[seat_at(p) + P_STATUS]]
    if g == G_MEDALS:
        return v + w[W_MEDAL] * st[seat_at(p) + P_MEDALS]
    if g == G_FOOD:
        return v + w[W_FOOD] * min(st[seat_at(p) + P_FOOD], 8) if P[R_ROUNDS] - st[S_ROUND] > 0 else v
    if g == G_QUIPUS:
        return v + w[W_QUIPU] * st[seat_at(p) + P_QUIPU_DELIVERED]
    if g == G_ORDER:
        return v + w[W_ORDER] * (st[S_N_PLAYERS] - 1 - st[seat_at(p) + P_ORDER_POS])
    if g == G_LOC:
        loc = st[seat_at(p) + P_LOC]
        return v + w[W_CUZCO] if loc == CUZCO or loc < 6 else v
    return add_costly_group(P, st, p, w, g, v)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64, float64[::1], int64, float64)")
def add_group_called(P, st, p, w, g, v):
    """add_group compiled once, for the callers off the hot path (position_sum, the decision's
    base): each copy of add_group costs compile time, only journal_value's saves enough."""
    return add_group(P, st, p, w, g, v)


@njit_inline
def group_term(P, st, p, w, g):
    """One value group's part of position_value, alone. The costly groups are called
    (add_costly_group), not copied in: their body inlined into journal_value saved about 4% of a
    game's CPU but cost about 11 s of Cuzco's cold compile (benchmarks/HISTORY.md, eighth session)."""
    return add_group(P, st, p, w, g, np.float64(0.0))


@njit_noalloc
def position_sum(P, st, p, w, unslid, held, short0, short1, short2):
    """position_value given the two costliest parts: tile_terms and the missions' shortfalls."""
    v = 0.0
    for g in (G_VP, G_STATUS, G_PRIESTS, G_MEDALS, G_CARDS, G_FOOD, G_GOODS, G_FEATHERS, G_QUIPUS, G_VILLAGES):
        v = add_group_called(P, st, p, w, g, v)
    v += (P[R_ROUNDS] - st[S_ROUND]) * (w[W_TILE] * st[seat_at(p) + P_N_TILES] + w[W_UNSLID] * unslid
                                        + w[W_EMPTY] * empty_spaces(P, st, p) + held)
    for slot in range(3):
        v = add_mission(st, p, w, slot, short0 if slot == 0 else (short1 if slot == 1 else short2), v)
    for g in (G_PUTUTU, G_ORDER, G_LOC):
        v = add_group_called(P, st, p, w, g, v)
    return v


@njit_inline
def position_value(P, st, p, w):
    """What seat p's position is worth to a bot with weights w, in VP-like units. Inlined, as are
    judged, group_term, slot_shortfall and modelled_blessing_value: thin levels over the valuation,
    each of which, compiled on its own, would optimise and emit the whole valuation again (issue 13)."""
    unslid, held = tile_terms(P, st, p, w)
    return position_sum(P, st, p, w, unslid, held, slot_shortfall(P, st, p, 0), slot_shortfall(P, st, p, 1),
                        slot_shortfall(P, st, p, 2))


BASE_UNSLID = 0  # scratch row SCR_BASE: the decision's starting position, for look_value
BASE_SHORT = 1  # + slot: each mission's shortfall
BASE_HELD = 4  # a float64: tile_terms' held
BASE_FIELDS = 8  # + 4 * slot + 2 * part: (start, count) of the fields that part reads
BASE_TERMS = 24  # + group: float64 value of each group (effects.G_*)
BASE_TOTAL = BASE_TERMS + N_GROUPS  # float64: their sum, the position's value
BASE_PART_SHORT = BASE_TOTAL + 1  # + 2 * slot + part: that part's shortfall (rules.part_shortfall)
BASE_PART_GROUPS = BASE_PART_SHORT + 6  # + 2 * slot + part: the value groups (bit set) the part reads
BASE_DIE_PLACED = BASE_PART_GROUPS + 6  # float64: the G_PUTUTU term once one of the dice is placed
BASE_GOD_DEPS = BASE_DIE_PLACED + 1  # the value groups the god-card choice reads (open_choice_memo)
BASE_COLOUR_DEPS = BASE_GOD_DEPS + 1  # the value groups the feather colour choice reads
BASE_PUTUTU_WORTH = BASE_COLOUR_DEPS + 1  # + placing (0, 1): float64 pututu_worth
BASE_PRICE = BASE_PUTUTU_WORTH + 2  # + 2 * k + way: float64, the fast kind's price of PLAIN_CARDS[k] (card_prices)
BASE_GAINS = BASE_PRICE + 6  # + exchange: float64, the fast kind's last gain of each exchange in a plan (plan_exchange_modelled)


@njit_noalloc
def remember_valuation_base(P, st, p, w, lrec):
    """What journal_value and the choice memo reuse from the position a decision starts from:
    each mission part's shortfall and the value groups it reads, the pututu tiles' term once a
    die is placed, and the groups the god-card and feather-colour choices read (their holdings,
    and the groups of the missions they weigh, rules.mission_gain)."""
    base = scr_row(lrec, SCR_BASE)
    god_deps = (1 << G_CARDS) | (1 << G_DISPLAY)
    colour_deps = 1 << G_FEATHERS
    for slot in range(3):
        m = st[seat_at(p) + P_MISSION + slot]
        groups = 0
        kinds = 0
        for part in range(2):
            part_groups = 0
            base[BASE_PART_SHORT + 2 * slot + part] = 0
            if m >= 0:
                kind = mission_field(P, m, MF_KIND1 if part == 0 else MF_KIND2)
                g = requirement_group(kind)
                part_groups = ALL_GROUPS | (1 << G_DIE) | (1 << G_SLID) if g == G_UNKNOWN else (1 << g if g >= 0 else 0)
                base[BASE_PART_SHORT + 2 * slot + part] = part_shortfall(P, st, p, m, part)
                kinds |= np.int64(1) << kind
            base[BASE_PART_GROUPS + 2 * slot + part] = part_groups
            groups |= part_groups
        if kinds & GOD_CARD_KINDS:
            god_deps |= groups
        if kinds & FEATHER_KINDS:
            colour_deps |= groups
    base[BASE_GOD_DEPS] = god_deps
    base[BASE_COLOUR_DEPS] = colour_deps
    worth = base[BASE_PUTUTU_WORTH:BASE_PUTUTU_WORTH + 2].view(np.float64)
    worth[0] = pututu_worth(P, st, p, w, 0)
    worth[1] = pututu_worth(P, st, p, w, 1)
    tiles = st[seat_at(p) + P_PUTUTU1] + 2 * st[seat_at(p) + P_PUTUTU2]
    base[BASE_DIE_PLACED:BASE_DIE_PLACED + 1].view(np.float64)[0] = np.float64(0.0) + worth[1] * tiles


@njit_inline
def pututu_spent(lrec, opt):
    """The turn's pututu tiles at the worth the decision computed (pututu_worth, the die placed
    or not): subtracted from a modelled value, linear."""
    placing = 1 if opt[O_DIE] >= 0 else 0
    worth = scr_row(lrec, SCR_BASE)[BASE_PUTUTU_WORTH + placing:BASE_PUTUTU_WORTH + placing + 1].view(np.float64)[0]
    return -worth * (opt[O_PU1] + 2 * opt[O_PU2])


@njit_noalloc
def remember_decision_base(P, st, p, w, lrec):
    """The costly parts of position_value for the position a decision starts from, and the state
    fields each depends on, for look_value to reuse on every option that leaves them alone."""
    base = scr_row(lrec, SCR_BASE)
    unslid, held = tile_terms(P, st, p, w)
    base[BASE_UNSLID] = unslid
    base[BASE_HELD:BASE_HELD + 1].view(np.float64)[0] = held
    for slot in range(3):
        m = st[seat_at(p) + P_MISSION + slot]
        base[BASE_SHORT + slot] = mission_shortfall(P, st, p, m) if m >= 0 else 0
        for part in range(2):
            start, count = (0, 0)
            if m >= 0:
                start, count = requirement_fields(p, mission_field(P, m, MF_KIND1 if part == 0 else MF_KIND2))
            base[BASE_FIELDS + 4 * slot + 2 * part] = start
            base[BASE_FIELDS + 4 * slot + 2 * part + 1] = count
    terms = base[BASE_TERMS:BASE_TOTAL + 1].view(np.float64)
    total = 0.0
    for g in range(N_GROUPS):
        if g >= G_MISSIONS and g < G_MISSIONS + 3:
            terms[g] = add_mission(st, p, w, g - G_MISSIONS, base[BASE_SHORT + g - G_MISSIONS], np.float64(0.0))
        else:
            terms[g] = add_group_called(P, st, p, w, g, np.float64(0.0))
        total += terms[g]
    terms[N_GROUPS] = total
    remember_valuation_base(P, st, p, w, lrec)


@njit_noalloc
def open_choice_memo(lrec):
    """Start the decision's memo of the god-card and feather choices (effects.J_*): each depends
    on its own holdings and on what the missions it weighs read (remember_valuation_base noted
    those groups); a feather's slot on the feathers alone."""
    journal = journal_of(lrec)
    base = scr_row(lrec, SCR_BASE)
    journal[J_GOD_DEPS] = base[BASE_GOD_DEPS]
    journal[J_FEATHER_DEPS] = base[BASE_COLOUR_DEPS]
    journal[J_GOD_CHOICE] = CHOICE_UNKNOWN
    journal[J_COLOUR_CHOICE] = CHOICE_UNKNOWN
    for colour in range(N_COLOURS):
        journal[J_SLOT_CHOICE + colour] = CHOICE_UNKNOWN
    journal[J_MEMO_ON] = 1


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, {T_REC}, int64)")
def journal_value(P, st, lrec, p):
    """position_value of the state as an option's journal left it: the decision's value with
    each group the journal touched computed again (a mission slot when a group one of its parts
    reads was, only that part's shortfall counted again). The die a turn places (effects.G_DIE)
    changes only the pututu tiles' worth, the same for every turn: the decision computed it. The
    weights are the decision's, kept in the journal (effects.remember_weights)."""
    base = scr_row(lrec, SCR_BASE)
    terms = base[BASE_TERMS:BASE_TOTAL + 1].view(np.float64)
    journal = journal_of(lrec)
    w = weights_of(journal)
    journalled = journal[J_GROUPS]
    touched = journalled & ALL_GROUPS
    die_only = journalled & (1 << G_DIE) != 0 and touched & (1 << G_PUTUTU) == 0
    if die_only:
        touched |= 1 << G_PUTUTU
    if journalled & (1 << G_SLID):
        touched |= 1 << G_TILES
    v = terms[N_GROUPS]
    rest = touched
    while rest != 0:  # the touched groups, lowest first (the order of the additions): a pass per group, not per bit
        low = rest & -rest
        rest ^= low
        g = popcount(low - 1)
        if g == G_PUTUTU and die_only:
            v += base[BASE_DIE_PLACED:BASE_DIE_PLACED + 1].view(np.float64)[0] - terms[g]
        else:
            v += group_term(P, st, p, w, g) - terms[g]
    for slot in range(3):
        first = journalled & base[BASE_PART_GROUPS + 2 * slot]
        second = journalled & base[BASE_PART_GROUPS + 2 * slot + 1]
        if first | second:
            m = st[seat_at(p) + P_MISSION + slot]
            short = (part_shortfall(P, st, p, m, 0) if first else base[BASE_PART_SHORT + 2 * slot]) + \
                (part_shortfall(P, st, p, m, 1) if second else base[BASE_PART_SHORT + 2 * slot + 1])
            g = G_MISSIONS + slot
            v += add_mission(st, p, w, slot, short, np.float64(0.0)) - terms[g]
    return v


@njit_typed("int64(int64[::1])")
def effect_key(opt):
    """What decides a turn's modelled effects (effects.apply_turn), packed in one word (0: too
    large to pack): the action and its target, the strength where it matters (the temple step), the
    card and how it is paid, the blessing and delivery choices; for an Exchange, with
    exchange_counts_key, the exchanges (the plans never cost more than the pips, so the pips do not
    matter). Not the die, the space nor the pututu tiles (spend_pututu, valued apart), nor the way
    taken to a place: a move by stone trail and one by rope bridge to the same place have the same
    modelled effects (effects.move_chasqui), so they share one valuation."""
    action = opt[O_ACTION]
    if action == A_BRIDGE:
        action = A_TRAIL
    card = opt[O_CARD]
    strength = 0
    if action == A_TEMPLE:
        strength = 6 if card == C_VIRTUAL_SIX else (1 if opt[O_DIE] < 0 else opt[O_PIPS])
    arg = opt[O_DISCARD_POS] if plays(opt, C_SEARCH_DISCARD) else 0
    if opt[O_TARGET] + 1 >= 64 or arg < 0 or arg >= 256:
        return 0
    return 1 | (action << 1) | ((opt[O_TARGET] + 1) << 4) | (strength << 10) | ((card + 1) << 13) | \
        (opt[O_MEDAL] << 18) | (opt[O_BLESS] << 19) | (opt[O_PLENTY] << 22) | (opt[O_DELIVERY] << 24) | (arg << 26) | \
        ((opt[O_CARD2] + 1) << 34) | (opt[O_MEDAL2] << 39) | ((opt[O_CARD3] + 1) << 40) | (opt[O_MEDAL3] << 45) | \
        ((opt[O_CARD4] + 1) << 46) | (opt[O_MEDAL4] << 51)


@njit_noalloc
def memo_slot(memo, k0, k1):
    """The slot of a decision's outcome memo holding the keys (k0, k1), or the empty slot where
    they would go (the memo is never filled beyond half, so there is one)."""
    h = k0 * 1000003 + k1 * 7919
    h ^= h >> 29
    slot = h & (MEMO_SLOTS - 1)
    while memo[slot] != 0 and not (memo[slot] == k0 and memo[MEMO_SLOTS + slot] == k1):
        slot = (slot + 1) & (MEMO_SLOTS - 1)
    return slot


@njit_noalloc
def memo_value(memo, slot):
    """The value the memo holds in a slot memo_slot found filled."""
    return memo[2 * MEMO_SLOTS:3 * MEMO_SLOTS].view(np.float64)[slot]


@njit_noalloc
def memo_store(memo, slot, k0, k1, v):
    """Keep a value under its keys in the empty slot memo_slot found (-1: unkeyed), while the memo
    is at most half full."""
    if slot >= 0 and memo[MEMO_USED] < MEMO_SLOTS // 2:
        memo[slot] = k0
        memo[MEMO_SLOTS + slot] = k1
        memo[2 * MEMO_SLOTS:3 * MEMO_SLOTS].view(np.float64)[slot] = v
        memo[MEMO_USED] += 1


@njit_noalloc
def plain_card_index(opt, slot):
    """The index in PLAIN_CARDS of the card in this slot of `opt` when its only modelled effect
    is its price (Inti 07 and Mama Quilia 06 make room; 13 makes a 6, which changes a move's, a
    tile's or a circlet's outcome nothing once its target is chosen; the temple's step and an
    exchange's budget it changes as a die of 6 pips would, strip_plain_cards puts one there, but
    not on Mama Quilia 05's die-less turn), else -1."""
    card = opt[slot]
    if card == C_IGNORE_LOWER:
        return 0
    if card == C_MOVE_DIE:
        return 1
    if card == C_VIRTUAL_SIX and (opt[O_DIE] >= 0 or (opt[O_ACTION] != A_TEMPLE and opt[O_ACTION] != A_EXCHANGE)):
        return 2
    return -1


@njit_noalloc
def forget_card_prices(lrec):
    """A decision starts: no plain card's price is known yet (strip_plain_cards computes each once)."""
    prices = scr_row(lrec, SCR_BASE)[BASE_PRICE:BASE_PRICE + 2 * len(PLAIN_CARDS)].view(np.float64)
    for i in range(prices.shape[0]):
        prices[i] = np.nan


@njit_noalloc
def strip_plain_cards(P, st, lrec, p, opt):
    """The fast kind: take the plain cards (plain_card_index) out of `opt` and return their prices
    (card_price, once per decision and way): the turn is valued as the turn without them plus
    their prices, so a card that only makes room or a 6 shares the valuation of the plain turn (not
    exact: the price and the turn's effects may read the same fields, offerings, cards, medals).
    The caller puts the slots (and the pips) back."""
    prices = scr_row(lrec, SCR_BASE)[BASE_PRICE:BASE_PRICE + 2 * len(PLAIN_CARDS)].view(np.float64)
    price = 0.0
    for slot in CARD_SLOTS:
        k = plain_card_index(opt, slot)
        if k < 0:
            continue
        i = 2 * k + opt[slot + 1]
        if np.isnan(prices[i]):
            prices[i] = card_price(P, st, lrec, p, opt[slot], SRC_MEDAL if opt[slot + 1] != 0 else SRC_CARD)
        price += prices[i]
        if opt[slot] == C_VIRTUAL_SIX and opt[O_DIE] >= 0:
            opt[O_PIPS] = 6
        opt[slot] = -1
        opt[slot + 1] = 0
    return price


@njit_noalloc
def count_modelled_turn(lrec, opt):
    """The work counters (state.COUNT_*) of one turn valued from its modelled effects."""
    lrec[REC_COUNTS + COUNT_MODELLED] += 1
    lrec[REC_COUNTS + COUNT_BY_ACTION + opt[O_ACTION]] += 1
    if opt[O_CARD] >= 0 or opt[O_CARD2] >= 0 or opt[O_PLENTY] != SRC_NONE or opt[O_DELIVERY] != SRC_NONE:
        lrec[REC_COUNTS + COUNT_CARD_TURNS] += 1


@njit_inline
def modelled_value_by_kind(P, st, lrec, p, opt, kind):
    """modelled_value; the fast kind values a turn's plain cards apart (strip_plain_cards)."""
    if kind == KIND_FAST or kind == KIND_PRUNED:
        c1, m1, c2, m2 = opt[O_CARD], opt[O_MEDAL], opt[O_CARD2], opt[O_MEDAL2]
        c3, m3, c4, m4 = opt[O_CARD3], opt[O_MEDAL3], opt[O_CARD4], opt[O_MEDAL4]
        pips = opt[O_PIPS]
        price = strip_plain_cards(P, st, lrec, p, opt)
        v = modelled_value(P, st, lrec, p, opt)
        opt[O_PIPS] = pips
        opt[O_CARD], opt[O_MEDAL], opt[O_CARD2], opt[O_MEDAL2] = c1, m1, c2, m2
        opt[O_CARD3], opt[O_MEDAL3], opt[O_CARD4], opt[O_MEDAL4] = c3, m3, c4, m4
        return v + price
    return modelled_value(P, st, lrec, p, opt)


@njit_inline
def modelled_value(P, st, lrec, p, opt):
    """position_value after the turn `opt`, from its direct effects (effects.apply_turn) applied
    in place and undone: no copy, no rules run. Turns with the same effects (another die, space
    or pututu tiles) share one valuation per decision (the memo); the pututu tiles are linear."""
    pututu = pututu_spent(lrec, opt)
    memo = memo_of(lrec)
    k0 = effect_key(opt)
    k1 = exchange_counts_key(opt) if opt[O_ACTION] == A_EXCHANGE else 0
    slot = -1
    if k0 != 0 and k1 >= 0:
        slot = memo_slot(memo, k0, k1)
        if memo[slot] != 0:
            return memo_value(memo, slot) + pututu
    count_modelled_turn(lrec, opt)
    apply_turn(P, st, journal_of(lrec), p, opt)
    v = journal_value(P, st, lrec, p)
    undo(st, journal_of(lrec))
    memo_store(memo, slot, k0, k1, v)
    return v + pututu


@njit_inline
def modelled_blessing_value(P, st, lrec, p, choice):
    """position_value after a fire blessing of this choice, as modelled_value."""
    fire_blessing_effects(P, st, journal_of(lrec), p, choice, SRC_NONE)
    v = journal_value(P, st, lrec, p)
    undo(st, journal_of(lrec))
    return v


@njit_typed(f"boolean({T_STATE}, {T_STATE}, int64, int64)")
def fields_equal(st, look, start, count):
    """Whether count fields from start are the same in both states (one pass, no early exit: the
    ranges are short and a branch-free loop is faster)."""
    differ = 0
    for i in range(count):
        differ |= st[start + i] ^ look[start + i]
    return differ == 0


@njit_inline
def look_value(P, st, look, lrec, p, w):
    """position_value of the look-ahead `look`, a copy of `st` after one option: the tile and
    mission parts are computed again only if the option changed the fields they read."""
    base = scr_row(lrec, SCR_BASE)
    same_tiles = fields_equal(st, look, seat_at(p) + P_TILE, MASK_FIELDS)
    if same_tiles:
        unslid = base[BASE_UNSLID]
        held = base[BASE_HELD:BASE_HELD + 1].view(np.float64)[0]
    else:
        unslid, held = tile_terms(P, look, p, w)
    s0 = base[BASE_SHORT]
    s1 = base[BASE_SHORT + 1]
    s2 = base[BASE_SHORT + 2]
    for slot in range(3):
        m = look[seat_at(p) + P_MISSION + slot]
        same = m == st[seat_at(p) + P_MISSION + slot]
        for part in range(2):
            start = base[BASE_FIELDS + 4 * slot + 2 * part]
            same = same and start >= 0 and fields_equal(st, look, start, base[BASE_FIELDS + 4 * slot + 2 * part + 1])
        if not same:
            short = mission_shortfall(P, look, p, m) if m >= 0 else 0
            if slot == 0:
                s0 = short
            elif slot == 1:
                s1 = short
            else:
                s2 = short
    return position_sum(P, look, p, w, unslid, held, s0, s1, s2)


@njit_noalloc
def with_noise(v, w, rng):
    """A heuristic value plus the bot's noise (a draw from the game's stream when it has any)."""
    if w[W_NOISE] > 0:
        v += w[W_NOISE] * (rng_mod.uniform(rng) - 0.5)
    return v


@njit_inline
def judged(P, look, p, w, kind, rng):
    """The value a bot gives the look-ahead position: its heuristic (plus noise), or, for the
    random bot, a uniform draw from the game's stream."""
    if kind == KIND_RANDOM:
        return rng_mod.uniform(rng)
    return with_noise(position_value(P, look, p, w), w, rng)


@njit_noalloc
def clear_exchange_memo(lrec):
    memo = memo_of(lrec)
    for i in range(MEMO_SLOTS):
        memo[i] = 0
    memo[MEMO_USED] = 0


@njit_typed("int64(int64[::1])")
def exchange_outcome_key(opt):
    """What decides an Exchange turn's outcome for the player's own position, packed in one word
    (0: not an Exchange, or too large to pack): the pututu tiles, the card and how it is paid, the
    extra turn of Mama Quilia 05 or not. Not the die, the space nor the pips: the exchanges
    planned never cost more than the pips (plan_exchange), and the die itself lands on the action
    board and leaves the player's dice, which position_value does not read."""
    if opt[O_ACTION] != A_EXCHANGE or opt[O_PU1] >= 64 or opt[O_PU2] >= 64 or opt[O_CARD_ARG] != 0:
        return 0
    return 1 | (opt[O_PU1] << 1) | (opt[O_PU2] << 7) | ((opt[O_CARD] + 1) << 13) | (opt[O_MEDAL] << 19) | \
        ((1 if opt[O_DIE] < 0 else 0) << 21) | (opt[O_BLESS] << 22) | (opt[O_PLENTY] << 26) | (opt[O_DELIVERY] << 30) | \
        ((opt[O_CARD2] + 1) << 32) | (opt[O_MEDAL2] << 37) | ((opt[O_CARD3] + 1) << 38) | (opt[O_MEDAL3] << 43) | \
        ((opt[O_CARD4] + 1) << 44) | (opt[O_MEDAL4] << 49)


@njit_typed("int64(int64[::1])")
def exchange_counts_key(opt):
    """The exchange counts packed in one word (-1: too large to pack)."""
    key = 0
    for ex in range(N_EXCHANGES):
        if opt[O_EX + ex] < 0 or opt[O_EX + ex] >= 64:
            return -1
        key |= np.int64(opt[O_EX + ex]) << (6 * ex)
    return key


@njit_typed(f"boolean({T_STATE}, {T_STATE})")
def same_stream(st, look):
    """Whether the look-ahead drew nothing from its random stream (its outcome is then the same
    from every copy of the state, wherever the stream stands)."""
    for i in range(S_RNG, S_RNG + 2 * RNG_WORDS):
        if st[i] != look[i]:
            return False
    return True


@njit_noalloc
def outcome_value(P, st, look, lrec, llog, p, kind, opt):
    """position_value after the turn `opt`: from its modelled effects, or (KIND_LOOKAHEAD) played
    on a copy of the state. One compiled function for both (a level of its own for each, and a
    call site for each in choose_turn, cost compile time); the weights are the decision's, in the
    journal (effects.remember_weights). An Exchange turn's outcome is often reached again within a
    decision (the plans for different pips share their first steps): the look-ahead's memo keeps
    the value of each that drew no random number, and is cleared when a decision starts."""
    if kind != KIND_LOOKAHEAD:
        return modelled_value_by_kind(P, st, lrec, p, opt, kind)
    w = weights_of(journal_of(lrec))
    memo = memo_of(lrec)
    k0 = exchange_outcome_key(opt)
    k1 = exchange_counts_key(opt)
    slot = -1
    if k0 != 0 and k1 >= 0:
        slot = memo_slot(memo, k0, k1)
        if memo[slot] != 0:
            return memo_value(memo, slot)
    lrec[REC_COUNTS + COUNT_PLAYS] += 1
    copy_state(st, look)
    perform_turn(P, look, lrec, llog, p, w, opt)
    v = look_value(P, st, look, lrec, p, w)
    if same_stream(st, look):
        memo_store(memo, slot, k0, k1, v)
    return v


@njit_typed(f"float64({T_STATE}, {T_REC}, int64, int64, float64)")
def value_of_outcome(st, lrec, kind, card, pv):
    """turn_value for an outcome whose position value is pv (card: the turn's first card): plus
    the bot's noise and its liking for an extra turn (the random bot: a uniform draw). The
    weights are the decision's, in the journal (effects.remember_weights)."""
    lrec[REC_COUNTS + COUNT_OPTIONS] += 1
    if kind == KIND_RANDOM:
        return rng_mod.uniform(rng_of(st))
    w = weights_of(journal_of(lrec))
    v = with_noise(pv, w, rng_of(st))
    if card == C_EXTRA_TURN:
        v += w[W_EXTRA_TURN] * w[W_CARD_PREF + C_EXTRA_TURN]
    return v


@njit_noalloc
def move_destination_value(P, st, p, w, opt):
    """Mama Quilia 06's destination, per situation: on a space where the lower-die rule holds the
    moved die lowers what still fits there, so it keeps off it the dice still to be placed this
    round with at least its pips and fewer than the space's lowest: `block` per such die of
    another player, less `block` per die of the mover's own (the die of this turn aside). The
    victory-point space keeps nothing off."""
    dest = opt[O_CARD_ARG2]
    if is_vp_space(P, st, dest):
        return 0.0
    moved = st[S_SPACE_DICE + opt[O_CARD_ARG] * MAX_DICE_ON_SPACE + opt[O_MOVE_INDEX]] % 8
    low = st[S_SPACE_MIN + dest]
    v = 0.0
    for q in range(st[S_N_PLAYERS]):
        for d in range(3):
            pips = st[seat_at(q) + P_DICE + d]
            if pips <= 0 or (q == p and d == opt[O_DIE]):
                continue
            if moved <= pips < low:
                v += 1.0 if q != p else -1.0
    return w[W_BLOCK] * v


@njit_inline
def turn_value(P, st, look, lrec, llog, p, w, kind, opt):
    """judged() of the position after the turn `opt` (the random bot's uniform draw needs no
    look-ahead), plus the bot's liking for an extra turn and, for Mama Quilia 06, the value of
    where the die goes (move_destination_value)."""
    pv = outcome_value(P, st, look, lrec, llog, p, kind, opt) if kind != KIND_RANDOM else 0.0
    if kind != KIND_RANDOM and opt[O_CARD] == C_MOVE_DIE:
        pv += move_destination_value(P, st, p, w, opt)
    return value_of_outcome(st, lrec, kind, C_EXTRA_TURN if plays(opt, C_EXTRA_TURN) else opt[O_CARD], pv)


@njit_noalloc
def clear_option(opt):
    for i in range(opt.shape[0]):
        opt[i] = 0
    for slot in CARD_SLOTS:
        opt[slot] = -1
    opt[O_TARGET] = -1


@njit_noalloc
def keep_if_better(opt, best, v, best_v):
    if v > best_v:
        for i in range(opt.shape[0]):
            best[i] = opt[i]
        return v
    return best_v


@njit_noalloc
def clear_top_turns(rec):
    values = scr_row(rec, SCR_TOP_VALUE)
    for i in range(TOP_TURNS):
        values[i] = NO_TOP


@njit_noalloc
def record_top_turn(opt, v, rec):
    """Rank a phase-I turn among the TOP_TURNS best seen (scratch rows SCR_TOP.. of `rec`, best
    first; values in micro-VP in row SCR_TOP_VALUE): the search bot's candidate moves."""
    values = scr_row(rec, SCR_TOP_VALUE)
    micro = np.int64(max(min(v, 1e12), -1e12) * 1e6)
    if micro <= values[TOP_TURNS - 1]:
        return
    i = TOP_TURNS - 1
    while i > 0 and values[i - 1] < micro:
        values[i] = values[i - 1]
        row, above = scr_row(rec, SCR_TOP + i), scr_row(rec, SCR_TOP + i - 1)
        for k in range(N_O):
            row[k] = above[k]
        i -= 1
    values[i] = micro
    row = scr_row(rec, SCR_TOP + i)
    for k in range(N_O):
        row[k] = opt[k]


@njit_noalloc
def candidate_key(opt):
    """The (die, pips, space, action) of a phase-I turn, packed: what the pruned kind's second stage
    walks again with the cards of effects of their own (the die -1 of Mama Quilia 05's turn counts
    as 0)."""
    return (((opt[O_DIE] + 1) * 8 + opt[O_PIPS]) * MAX_SPACES + opt[O_SPACE]) * N_ACTIONS + opt[O_ACTION]


@njit_noalloc
def note_candidate(opt, v, rec):
    """Keep the turn's (die, pips, space, action) among the pruned kind's best CAND_K, best first,
    each at the value of its best turn seen (a key already kept is raised, not added twice)."""
    row = scr_row(rec, SCR_LIST2)
    values = row[CAND_VALUES:CAND_VALUES + CAND_ROOM].view(np.float64)
    key = candidate_key(opt)
    n = row[CAND_N]
    i = 0
    while i < n and row[CAND_KEYS + i] != key:
        i += 1
    if i == n:
        if n < row[CAND_K]:
            row[CAND_N] = n + 1
        elif n == 0 or v <= values[n - 1]:
            return
        else:
            i = n - 1
    elif v <= values[i]:
        return
    while i > 0 and values[i - 1] < v:
        row[CAND_KEYS + i] = row[CAND_KEYS + i - 1]
        values[i] = values[i - 1]
        i -= 1
    row[CAND_KEYS + i] = key
    values[i] = v


@njit_noalloc
def is_candidate(rec, opt):
    """Whether the pruned kind's second stage plays cards on this (die, pips, space, action)."""
    row = scr_row(rec, SCR_LIST2)
    if row[CAND_EVERY] != 0:
        return True
    key = candidate_key(opt)
    for i in range(row[CAND_N]):
        if row[CAND_KEYS + i] == key:
            return True
    return False


@njit_noalloc
def start_candidates(rec, w):
    """The pruned kind's first stage starts: no candidate yet, `candidates` (the bot's setting) to keep."""
    row = scr_row(rec, SCR_LIST2)
    k = np.int64(w[W_SEARCH_CANDIDATES])
    row[CAND_ON] = 1
    row[CAND_N] = 0
    row[CAND_K] = min(max(k, 1), CAND_ROOM)
    row[CAND_EVERY] = 1 if k > CAND_ROOM else 0


@njit_inline
def keep_turn_if_better(opt, best, v, best_v, rec):
    """keep_if_better for phase-I turns, also ranking the best few when the search bot asks
    (rec[REC_RANK_TURNS]: its root decision, not its rollouts nor any other bot), and the pruned
    kind's candidates in its first stage (note_candidate). Inlined into the enumeration: most
    options improve on nothing and need no call."""
    if rec[REC_RANK_TURNS] != 0:
        record_top_turn(opt, v, rec)
    cand = scr_row(rec, SCR_LIST2)
    if cand[CAND_ON] != 0 and (cand[CAND_N] < cand[CAND_K] or
                               v > cand[CAND_VALUES:CAND_VALUES + CAND_ROOM].view(np.float64)[cand[CAND_N] - 1]):
        note_candidate(opt, v, rec)  # a turn below a full list's last changes nothing (its key's value is higher)
    if v > best_v:
        for i in range(opt.shape[0]):
            best[i] = opt[i]
        return v
    return best_v


# ------------------------------------------------------------------------------ phase I

@njit_noalloc
def exchange_limit(P, st, p, opt, ex):
    """How many exchanges of this kind can do anything in the turn `opt`, when a count on the
    current position says so (-1 otherwise): a status exchange needs an unslid study tile, an
    offering one the supply, a quipu one a quipu on the mask board (rules.exchange_allowed), and
    no exchange done before them in do_exchange's order changes those counts. A turn with a card
    is left to the look-ahead (13 slides tiles up, a card's payment returns an offering)."""
    if opt[O_CARD] >= 0 or opt[O_CARD2] >= 0 or opt[O_CARD3] >= 0 or opt[O_CARD4] >= 0:
        return -1
    if ex == EX_STATUS:
        return count_unslid(P, st, p, STUDY)
    if ex == EX_OFFERING:
        return st[S_OFFERING_SUPPLY]
    if ex == EX_QUIPU:
        return st[seat_at(p) + P_QUIPU_MASK]
    return -1


@njit_inline
def plan_exchange_modelled(P, st, lrec, p, kind, opt, pips):
    """plan_exchange for a heuristic valuing modelled effects: the plan so far stays applied, and
    each candidate adds its one exchange on top (effects.exchange_step), is valued and taken back.
    An exchange that can do nothing leaves the plan's value. The fast kind walks the candidates
    lazily: each exchange's gain when last valued bounds its gain now (the gains shrink as a plan
    grows: a status step or a food is worth no more than the one before), so the candidates are
    tried from the largest bound down and a step stops at a bound that cannot beat the best gain
    found. Not exact where a gain grows (a mission one exchange short)."""
    journal = journal_of(lrec)
    memo = memo_of(lrec)
    for ex in range(N_EXCHANGES):
        opt[O_EX + ex] = 0
    pututu = pututu_spent(lrec, opt)
    count_modelled_turn(lrec, opt)
    apply_turn(P, st, journal, p, opt)
    current_jv = journal_value(P, st, lrec, p)
    current_pv = current_jv + pututu
    current = value_of_outcome(st, lrec, kind, opt[O_CARD], current_pv)
    k0 = effect_key(opt)
    budget = pips
    lazy = kind == KIND_FAST or kind == KIND_PRUNED
    gains = scr_row(lrec, SCR_BASE)[BASE_GAINS:BASE_GAINS + N_EXCHANGES].view(np.float64)
    for ex in range(N_EXCHANGES):
        gains[ex] = np.inf
    while True:
        best_ex = -1
        best_v = current
        best_pv = current_pv
        best_jv = current_jv
        mark = journal[J_N]
        groups = journal[J_GROUPS]
        tried = 0
        for pick in range(N_EXCHANGES):
            ex = pick
            if lazy:
                ex = -1
                bound = -np.inf
                for e in range(N_EXCHANGES):
                    if (tried >> e) & 1 == 0 and P[R_EXCHANGE + e] <= budget and gains[e] > bound:
                        bound = gains[e]
                        ex = e
                if ex < 0 or not current + bound > best_v:
                    break
                tried |= 1 << ex
            elif P[R_EXCHANGE + ex] > budget:
                continue
            opt[O_EX + ex] += 1
            k1 = exchange_counts_key(opt)
            slot = memo_slot(memo, k0, k1) if k0 != 0 and k1 >= 0 else -1
            if slot >= 0 and memo[slot] != 0:
                jv = memo_value(memo, slot)
                pv = jv + pututu
            else:
                jv = current_jv
                if exchange_step(P, st, journal, p, ex):
                    lrec[REC_COUNTS + COUNT_MODELLED] += 1
                    lrec[REC_COUNTS + COUNT_EXCHANGE_STEPS] += 1
                    jv = journal_value(P, st, lrec, p)
                    undo_to(st, journal, mark, groups)
                pv = jv + pututu
                memo_store(memo, slot, k0, k1, jv)
            v = value_of_outcome(st, lrec, kind, opt[O_CARD], pv)
            opt[O_EX + ex] -= 1
            gains[ex] = v - current
            if v > best_v:
                best_v = v
                best_ex = ex
                best_pv = pv
                best_jv = jv
        if best_ex < 0:
            break
        opt[O_EX + best_ex] += 1
        budget -= P[R_EXCHANGE + best_ex]
        exchange_step(P, st, journal, p, best_ex)
        current = best_v
        current_pv = best_pv
        current_jv = best_jv
    undo(st, journal)
    return current


@njit_inline
def plan_exchange(P, st, look, lrec, llog, p, w, kind, opt, pips):
    """Spend the exchange pips greedily: add the exchange that raises the value most, while any
    does. Returns the value of the plan (opt[O_EX..] holds it). An exchange beyond its limit
    (exchange_limit) does nothing: its outcome is the plan's own, valued without a look-ahead
    unless the plan takes god cards (a look-ahead turns up a random one)."""
    if kind != KIND_RANDOM and kind != KIND_LOOKAHEAD:
        return plan_exchange_modelled(P, st, lrec, p, kind, opt, pips)
    heuristic = kind != KIND_RANDOM
    for ex in range(N_EXCHANGES):
        opt[O_EX + ex] = 0
    current_pv = outcome_value(P, st, look, lrec, llog, p, kind, opt) if heuristic else 0.0
    current = value_of_outcome(st, lrec, kind, opt[O_CARD], current_pv)
    budget = pips
    while True:
        best_ex = -1
        best_v = current
        best_pv = current_pv
        for ex in range(N_EXCHANGES):
            if P[R_EXCHANGE + ex] > budget:
                continue
            opt[O_EX + ex] += 1
            pv = 0.0
            if heuristic:
                limit = exchange_limit(P, st, p, opt, ex)
                if 0 <= limit < opt[O_EX + ex] and opt[O_EX + EX_GOD_CARD] == 0:
                    pv = current_pv
                else:
                    pv = outcome_value(P, st, look, lrec, llog, p, kind, opt)
            v = value_of_outcome(st, lrec, kind, opt[O_CARD], pv)
            opt[O_EX + ex] -= 1
            if v > best_v:
                best_v = v
                best_ex = ex
                best_pv = pv
        if best_ex < 0:
            break
        opt[O_EX + best_ex] += 1
        budget -= P[R_EXCHANGE + best_ex]
        current = best_v
        current_pv = best_pv
    return current


@njit_typed("int64(int64[::1], int64)")
def spent_by(opt, source):
    """Offerings (source SRC_CARD) or medals (SRC_MEDAL) the cards of the turn `opt` spend."""
    medal = source == SRC_MEDAL
    n = 0
    for slot in CARD_SLOTS:
        if opt[slot] >= 0 and (opt[slot + 1] != 0) == medal:
            n += 1
    if opt[O_PLENTY] == source:
        n += 1
    if opt[O_DELIVERY] == source:
        n += 1
    return n


@njit_typed(f"int64({T_STATE}, int64, int64, int64[::1], int64)")
def second_payment(st, p, card, opt, source):
    """`source` if it can still pay for one more card in the turn `opt`, after what its cards
    spend (rules.payment for a turn's further cards), else SRC_NONE."""
    if plays(opt, card) or card_forbidden(st, p, card):
        return SRC_NONE
    if source == SRC_CARD:
        if st[seat_at(p) + P_HAND + card] > 0 and \
                st[seat_at(p) + P_OFFERINGS] - offerings_spent(st, opt) >= card_cost(st, card):
            return SRC_CARD
    elif st[seat_at(p) + P_MEDALS] - spent_by(opt, SRC_MEDAL) > 0 and st[S_GOD_UP + card // 3] == card and \
            not medal_on_god(opt, card // 3):
        return SRC_MEDAL
    return SRC_NONE


@njit_inline
def preferred_blessing(P, st, look, lrec, llog, p, w, kind):
    """The fire-blessing choice the bot would take right now (tried on the current position)."""
    best_b = 0
    best_v = NO_VALUE
    for b in range(4):
        if kind == KIND_RANDOM:
            v = rng_mod.uniform(rng_of(st))
        elif kind != KIND_LOOKAHEAD:
            v = with_noise(modelled_blessing_value(P, st, lrec, p, b), w, rng_of(st))
        else:
            copy_state(st, look)
            fire_blessing(P, look, lrec, llog, p, w, b, SRC_NONE)
            v = judged(P, look, p, w, kind, rng_of(st))
        if v > best_v:
            best_v = v
            best_b = b
    return best_b


@njit_noalloc
def preferred_modelled_blessing(P, st, lrec, p, w):
    """preferred_blessing for the modelled kinds, chosen by the pruned kind only when a turn ending
    in a fire blessing first needs it (most of its decisions have none). Its own function, not
    preferred_blessing: that one is inlined, and a second copy inside the enumeration would compile
    its look-ahead path (fire_blessing on a copy) again."""
    best_b = 0
    best_v = NO_VALUE
    for b in range(4):
        v = with_noise(modelled_blessing_value(P, st, lrec, p, b), w, rng_of(st))
        if v > best_v:
            best_v = v
            best_b = b
    return best_b


@njit_noalloc
def vp_space_of(P, st):
    """The victory-point action space, -1 if the board has none."""
    for s in range(MAX_SPACES):
        if space_actions(P, st[S_N_PLAYERS], s) != 0 and is_vp_space(P, st, s):
            return s
    return -1


ACTION_CARDS = (C_VIRTUAL_SIX, C_JUMP, C_PRIEST_RETURN, C_SLIDE_UP, C_SEARCH_DISCARD)
N_CARD_CHOICES = 1 + 2 * len(ACTION_CARDS)  # no card, or an action card paid from the hand or with a medal
# payable_cards' bits: first_card's choices on a die that fits (0 to N_CARD_CHOICES - 1), then each
# of these + way (0 from the hand, 1 with a medal)
PAY_IGNORE_LOWER = N_CARD_CHOICES  # Inti 07
PAY_MOVE_DIE = N_CARD_CHOICES + 2  # + way: Mama Quilia 06
PAY_BLESSING_PLENTY = N_CARD_CHOICES + 4  # + way: Viracocha 08
PAY_DELIVERY_VP = N_CARD_CHOICES + 6  # + way: Pacha Mama 10
# the pruned kind's first stage: no card, or the cards the fast kind prices apart (PLAIN_CARDS: 13, 07, 06)
PLAIN_PAYABLE = (1 | (3 << (1 + 2 * ACTION_CARDS.index(C_VIRTUAL_SIX))) | (3 << PAY_IGNORE_LOWER)
                 | (3 << PAY_MOVE_DIE))


@njit_noalloc
def payable_cards(st, p):
    """Bit set of the card payments (rules.payment) open to the player as a decision starts: a
    turn's cards only spend (second_payment), so a choice whose bit is clear is never payable in
    the decision and is skipped without a look (most decisions have no card to pay)."""
    bits = 1
    for way in range(2):
        src = SRC_CARD if way == 0 else SRC_MEDAL
        for k in range(len(ACTION_CARDS)):
            if payment(st, p, ACTION_CARDS[k], src) != SRC_NONE:
                bits |= 1 << (1 + 2 * k + way)
        if payment(st, p, C_IGNORE_LOWER, src) != SRC_NONE:
            bits |= 1 << (PAY_IGNORE_LOWER + way)
        if payment(st, p, C_MOVE_DIE, src) != SRC_NONE:
            bits |= 1 << (PAY_MOVE_DIE + way)
        if payment(st, p, C_BLESSING_PLENTY, src) != SRC_NONE:
            bits |= 1 << (PAY_BLESSING_PLENTY + way)
        if payment(st, p, C_DELIVERY_VP, src) != SRC_NONE:
            bits |= 1 << (PAY_DELIVERY_VP + way)
    return bits


@njit_noalloc
def card_price(P, st, lrec, p, card, src):
    """What paying for `card` this way (effects.pay_card) changes the decision's position value by."""
    journal = journal_of(lrec)
    pay_card(st, journal, p, card, src)
    v = journal_value(P, st, lrec, p)
    undo(st, journal)
    return v - scr_row(lrec, SCR_BASE)[BASE_TOTAL:BASE_TOTAL + 1].view(np.float64)[0]


@njit_noalloc
def cheaper_payments(P, st, lrec, p, payable):
    """The fast kind's payable_cards: where a card can be paid both from the hand (the card and an
    offering) and with an Inti medal, only the way whose price (card_price) costs the bot less; its
    turns are then valued once, not once per way. Not exact: a turn's other effects may read what
    the payment spent (offerings, medals, cards)."""
    for bit in range(1, PAY_DELIVERY_VP + 2, 2):
        if (payable >> bit) & 3 != 3:
            continue
        card = payment_card(bit)
        if card_price(P, st, lrec, p, card, SRC_MEDAL) >= card_price(P, st, lrec, p, card, SRC_CARD):
            payable &= ~(1 << bit)
        else:
            payable &= ~(1 << (bit + 1))
    return payable


@njit_noalloc
def payment_card(bit):
    """The card whose payment from the hand is payable_cards' bit `bit`."""
    if bit < N_CARD_CHOICES:
        return ACTION_CARDS[(bit - 1) // 2]
    if bit == PAY_IGNORE_LOWER:
        return C_IGNORE_LOWER
    if bit == PAY_MOVE_DIE:
        return C_MOVE_DIE
    if bit == PAY_BLESSING_PLENTY:
        return C_BLESSING_PLENTY
    return C_DELIVERY_VP


@njit_noalloc
def action_card_choices(payable):
    """How many first_card (or second_card) choices of an action card to walk: up to the last
    payable one (1: no card only)."""
    n = 1
    for c in range(N_CARD_CHOICES):
        if (payable >> c) & 1:
            n = c + 1
    return n


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64, int64, int64, boolean)")
def card_changes_action(P, st, p, card, action, strength, extra):
    """Whether an action card (13, 14, 12, 02, 09) changes this action at this strength; a card
    that would change nothing is not offered."""
    if card == C_VIRTUAL_SIX:
        return strength < 6 and action != A_VP
    if card == C_JUMP:
        return action == A_TRAIL or action == A_BRIDGE
    if card == C_PRIEST_RETURN:
        return action == A_TEMPLE and st[S_TEMPLE + min(strength, N_TEMPLE) - 1] >= 0
    if card == C_SLIDE_UP:
        return action == A_EXCHANGE
    return (action == A_STUDY or action == A_FARM) and empty_spaces(P, st, p) >= 2 and \
        st[S_STUDY_DISCARD_N] + st[S_FARM_DISCARD_N] > 0


@njit_noalloc
def room_by_moving(st, space, pips):
    """Whether moving one die off `space` (Mama Quilia 06) can let a die of `pips` in: at most one
    die there has as few pips or fewer (first_card's test for each die moved)."""
    low = 0
    for o in range(st[S_SPACE_N + space]):
        if st[S_SPACE_DICE + space * MAX_DICE_ON_SPACE + o] % 8 <= pips:
            low += 1
    return low <= 1


@njit_inline
def first_card_choices(st, space, pips, extra, fits, payable):
    """How many first-card choices first_card enumerates on `space` (payable: payable_cards):
    Mama Quilia 06's moves only when the player can pay for it and a move can make room (there
    may be hundreds)."""
    if fits:
        return action_card_choices(payable)
    if extra:
        return 0
    if (payable >> PAY_MOVE_DIE) & 3 == 0 or not room_by_moving(st, space, pips):
        return 0 if (payable >> PAY_IGNORE_LOWER) & 3 == 0 else 2
    return 2 + 2 * st[S_SPACE_N + space] * (MAX_SPACES + 1)


@njit_inline
def first_card(P, st, p, opt, action, pips, extra, fits, payable, choice):
    """Put the turn's first card choice number `choice` into `opt` (space, die and pips set), or
    False when that choice cannot be played. A die that fits: no card, then each action card that
    changes the action (13, 14, 12, 02, 09), paid from the hand, then with a medal. A die that
    does not: Inti 07 (hand, medal), then Mama Quilia 06 (hand, medal): any one die of the space
    whose removal makes room, moved to any other space (the victory-point space first: the
    destination has no direct effect on the mover, so ties keep it there). Inlined, as is
    second_card: called for every action of every space a decision tries, a call each cost
    more than the old nested loops (measured)."""
    space = opt[O_SPACE]
    if fits:
        if choice == 0:
            opt[O_CARD] = -1
            opt[O_MEDAL] = 0
            return True
        card = ACTION_CARDS[(choice - 1) // 2]
        src = SRC_CARD if (choice - 1) % 2 == 0 else SRC_MEDAL
        if (payable >> choice) & 1 == 0 or not card_changes_action(P, st, p, card, action, pips, extra):
            return False
        opt[O_CARD] = card
        opt[O_MEDAL] = 1 if src == SRC_MEDAL else 0
        return True
    if choice < 2:
        src = SRC_CARD if choice == 0 else SRC_MEDAL
        if (payable >> (PAY_IGNORE_LOWER + choice)) & 1 == 0:
            return False
        opt[O_CARD] = C_IGNORE_LOWER
        opt[O_MEDAL] = 1 if src == SRC_MEDAL else 0
        return True
    k = st[S_SPACE_N + space]
    j = choice - 2
    way = j // (k * (MAX_SPACES + 1))
    src = SRC_CARD if way == 0 else SRC_MEDAL
    i = (j // (MAX_SPACES + 1)) % k
    r = j % (MAX_SPACES + 1)
    if (payable >> (PAY_MOVE_DIE + way)) & 1 == 0:
        return False
    others = 7
    for o in range(k):
        if o != i:
            others = min(others, st[S_SPACE_DICE + space * MAX_DICE_ON_SPACE + o] % 8)
    if pips >= others:
        return False
    dest = vp_space_of(P, st) if r == 0 else r - 1
    if dest < 0 or dest == space or space_actions(P, st[S_N_PLAYERS], dest) == 0 or \
            (r > 0 and is_vp_space(P, st, dest)):
        return False
    opt[O_CARD] = C_MOVE_DIE
    opt[O_MEDAL] = 1 if src == SRC_MEDAL else 0
    opt[O_CARD_ARG] = space
    opt[O_MOVE_INDEX] = i
    opt[O_CARD_ARG2] = dest
    return True


N_PAIR_CHOICES = 2 * 3 * 2  # after 07/06: 13 (hand, medal) and then 12, 02 or 09 (hand, medal)


@njit_noalloc
def second_card_choices(opt, payable):
    """A turn whose first card is 13, 07 or 06 may add a second action card (first_card's
    choices of an action card); after 07 or 06, also 13 and a third card (second_card's pairs,
    when 13 can be paid); any other turn plays only its first."""
    card = opt[O_CARD]
    if card == C_IGNORE_LOWER or card == C_MOVE_DIE:
        if (payable >> 1) & 3 != 0:
            return N_CARD_CHOICES + N_PAIR_CHOICES
        return action_card_choices(payable)
    return action_card_choices(payable) if card == C_VIRTUAL_SIX else 1


@njit_inline
def second_card(P, st, p, opt, action, pips, extra, payable, choice):
    """Put the turn's second card choice number `choice` into `opt`, or False when it cannot be
    played: none, or an action card that changes the action, each way it can still be paid (a
    turn may play several cards, each paid for; 13 with 14 is left out: a jump ignores the pips)."""
    if choice == 0:
        return True
    first = opt[O_CARD]
    if choice >= N_CARD_CHOICES:
        # after 07 or 06: 13 (way c % 2), then 12, 02 or 09 (ACTION_CARDS[2 + (c // 2) % 3], way
        # c // 6), each paid (issue 35: no limit of two action cards a turn)
        c = choice - N_CARD_CHOICES
        k = 2 + (c // 2) % 3
        src = SRC_CARD if c % 2 == 0 else SRC_MEDAL
        src3 = SRC_CARD if c // 6 == 0 else SRC_MEDAL
        card = ACTION_CARDS[k]
        if (payable >> (1 + c % 2)) & 1 == 0 or (payable >> (1 + 2 * k + c // 6)) & 1 == 0 or \
                not card_changes_action(P, st, p, C_VIRTUAL_SIX, action, pips, extra) or \
                not card_changes_action(P, st, p, card, action, 6, extra) or \
                second_payment(st, p, C_VIRTUAL_SIX, opt, src) == SRC_NONE:
            return False
        opt[O_CARD2] = C_VIRTUAL_SIX
        opt[O_MEDAL2] = 1 if src == SRC_MEDAL else 0
        if second_payment(st, p, card, opt, src3) == SRC_NONE:
            opt[O_CARD2] = -1
            opt[O_MEDAL2] = 0
            return False
        opt[O_CARD3] = card
        opt[O_MEDAL3] = 1 if src3 == SRC_MEDAL else 0
        return True
    card = ACTION_CARDS[(choice - 1) // 2]
    src = SRC_CARD if (choice - 1) % 2 == 0 else SRC_MEDAL
    strength = 6 if first == C_VIRTUAL_SIX else pips
    if (payable >> choice) & 1 == 0 or card == first or (card == C_JUMP and first == C_VIRTUAL_SIX) or \
            not card_changes_action(P, st, p, card, action, strength, extra) or \
            second_payment(st, p, card, opt, src) == SRC_NONE:
        return False
    opt[O_CARD2] = card
    opt[O_MEDAL2] = 1 if src == SRC_MEDAL else 0
    return True


@njit_noalloc
def decision_discard_tile(P, st, p, w, cache):
    """rules.best_discard_tile, chosen once per decision (it reads only the decision's position,
    which no option changes while the decision lasts): a decision may try 09 on dozens of turns."""
    if cache[DISCARD_SLOT] == 0:
        cache[DISCARD_SLOT] = best_discard_tile(P, st, p, w) + 2
    return cache[DISCARD_SLOT] - 2


@njit_noalloc
def reachable_places(P, st, p, way, strength, jump):
    """Bit t set when the chasqui can move to place t (rules.can_move) this way at this strength,
    and bit N_VILLAGES + 1 (computed, even when nothing is reachable): action_turns keeps it for
    the decision, whose turns are all valued on the decision's position."""
    places = 1 << (N_VILLAGES + 1)
    for t in range(N_VILLAGES + 1):
        if can_move(P, st, p, way, strength, t, jump):
            places |= 1 << t
    return places


@njit_inline
def action_turns(P, st, look, lrec, llog, p, w, kind, opt, best, best_v, action, strength, jump, payable, first_way):
    """Every target of one action at one strength (opt holds die, space and cards), each valued
    (turn_value, its one call site in the phase-I enumeration). A target may be taken a second
    way: a turn ending in a fire blessing with the blessing the bot prefers this turn (the four
    choices are compared again for the turn finally chosen, see choose_turn), then with Viracocha
    08 when the player can use it; a delivery to a village, then with Inti 10 on it. Exchanges
    are planned (plan_exchange), once per strength and turn when no card changes them. payable:
    payable_cards. first_way 1: only the targets' ways with a card (08, 10; the pruned kind's second
    stage, which valued the rest in its first)."""
    opt[O_ACTION] = action
    cache = scr_row(lrec, SCR_LIST)
    if action == A_EXCHANGE:
        if first_way > 0:
            return best_v
        slot = strength * 8
        if not plays(opt, C_SLIDE_UP) and cache[slot + 7] == 1:
            for ex in range(N_EXCHANGES):
                opt[O_EX + ex] = cache[slot + ex]
            v = turn_value(P, st, look, lrec, llog, p, w, kind, opt)
        else:
            v = plan_exchange(P, st, look, lrec, llog, p, w, kind, opt, strength)
            if not plays(opt, C_SLIDE_UP):
                for ex in range(N_EXCHANGES):
                    cache[slot + ex] = opt[O_EX + ex]
                cache[slot + 7] = 1
        best_v = keep_turn_if_better(opt, best, v, best_v, lrec)
        for ex in range(N_EXCHANGES):
            opt[O_EX + ex] = 0
        return best_v
    moving = action == A_TRAIL or action == A_BRIDGE
    tiles = action == A_STUDY or action == A_FARM
    targets = 1
    places = 0
    if moving:
        targets = N_VILLAGES + 1
        way = WAY_TRAIL if action == A_TRAIL else WAY_BRIDGE
        reach = REACH_SLOT + 7 * (2 * way + (1 if jump else 0)) + strength
        if cache[reach] == 0:
            cache[reach] = reachable_places(P, st, p, way, strength, jump)
        places = cache[reach]
    elif tiles:
        targets = min(strength, 6) if empty_spaces(P, st, p) > 0 else 0
    elif action == A_HEADDRESS:
        targets = min(strength, N_CIRCLETS)
    elif action == A_TEMPLE:
        targets = 1 if st[seat_at(p) + P_PRIESTS_HOME] > 0 else 0
    for t in range(targets):
        if moving:
            if (places >> t) & 1 == 0:
                continue
            opt[O_TARGET] = t
        elif tiles:
            if st[(S_STUDY_DISPLAY if action == A_STUDY else S_FARM_DISPLAY) + t] < 0:
                continue
            opt[O_TARGET] = t
        elif action == A_HEADDRESS:
            if not circlet_ready(st, p, t):
                continue
            opt[O_TARGET] = t
        blessing = ends_in_blessing(opt)
        for way in range(first_way, 3):
            # 0: no card; 1: the card from the hand and an offering; 2: an Inti medal on the
            # face-up card (both are options wherever both can pay, issue 35)
            src = SRC_CARD if way == 1 else SRC_MEDAL
            if way == 0:
                if blessing:
                    if cache[BLESSING_KNOWN] == 0:
                        cache[BLESSING_SLOT] = preferred_modelled_blessing(P, st, lrec, p, w)
                        cache[BLESSING_KNOWN] = 1
                    opt[O_BLESS] = cache[BLESSING_SLOT]
            elif blessing:
                if (payable >> (PAY_BLESSING_PLENTY + way - 1)) & 1 == 0:
                    continue
                opt[O_PLENTY] = SRC_NONE
                if second_payment(st, p, C_BLESSING_PLENTY, opt, src) == SRC_NONE:
                    continue
                opt[O_BLESS] = 0
                opt[O_PLENTY] = src
            elif moving:
                if st[seat_at(p) + P_DELIVERED + t] != 0:
                    break
                if (payable >> (PAY_DELIVERY_VP + way - 1)) & 1 == 0:
                    continue
                opt[O_DELIVERY] = SRC_NONE
                if second_payment(st, p, C_DELIVERY_VP, opt, src) == SRC_NONE:
                    continue
                opt[O_DELIVERY] = src
            else:
                break
            best_v = keep_turn_if_better(opt, best, turn_value(P, st, look, lrec, llog, p, w, kind, opt), best_v, lrec)
        opt[O_BLESS] = 0
        opt[O_PLENTY] = SRC_NONE
        opt[O_DELIVERY] = SRC_NONE
    opt[O_TARGET] = -1
    return best_v


@njit_inline
def stage_turns(P, st, look, lrec, llog, p, w, kind, opt, best, best_v, extra, stage, payable, cache):
    """choose_turn's enumeration, in loops (die, pips reached with pututu tiles, space, action, first
    card, second card, target), each turn valued by action_turns; its one call site. Stage 0 of the
    pruned kind values one move of Mama Quilia 06 per (die, pips, space, action), the first; stage
    1 (its second) walks only the candidates' (die, pips, space, action), and of those only the
    turns its first stage did not value."""
    n = st[S_N_PLAYERS]
    for d in range(3):
        rolled = st[seat_at(p) + P_DICE + d]
        if extra:
            if d > 0:
                break
            rolled = 1
        elif rolled == 0:
            continue
        seen = False
        for e in range(d):
            if st[seat_at(p) + P_DICE + e] == rolled and not extra:
                seen = True
        if seen:
            continue
        for pips in range(1, 7):
            if extra and pips != 1:
                continue
            if extra:
                n1, n2 = 0, 0
            else:
                n1, n2 = pututu_can_reach(st, p, rolled, pips)
                if n1 < 0:
                    continue
            clear_option(opt)
            opt[O_DIE] = -1 if extra else d
            opt[O_PIPS] = pips
            opt[O_PU1] = n1
            opt[O_PU2] = n2
            for space in range(MAX_SPACES):
                if space_actions(P, n, space) == 0:
                    continue
                opt[O_SPACE] = space
                if extra:
                    fits = st[S_SPACE_N + space] == 0 and not is_vp_space(P, st, space)
                else:
                    fits = die_fits(P, st, space, pips, False)
                firsts = first_card_choices(st, space, pips, extra, fits, payable)
                if firsts == 0:
                    continue
                actions = space_actions(P, n, space)
                for action in range(N_ACTIONS):
                    if (actions >> action) & 1 == 0:
                        continue
                    if stage == 1:
                        opt[O_ACTION] = action
                        if not is_candidate(lrec, opt):
                            continue
                    moved = False
                    for first in range(firsts):
                        if not first_card(P, st, p, opt, action, pips, extra, fits, payable, first):
                            continue
                        # the pruned kind's first stage: one move of Mama Quilia 06 stands for the
                        # others (they differ only by where the die goes, move_destination_value)
                        other_move = opt[O_CARD] == C_MOVE_DIE and moved
                        moved = moved or opt[O_CARD] == C_MOVE_DIE
                        seconds = second_card_choices(opt, payable)
                        if kind == KIND_PRUNED and stage == 0 and other_move:
                            seconds = 0
                        for second in range(seconds):
                            if not second_card(P, st, p, opt, action, pips, extra, payable, second):
                                continue
                            plain = not (other_move or plays(opt, C_JUMP) or plays(opt, C_PRIEST_RETURN) or
                                         plays(opt, C_SLIDE_UP) or plays(opt, C_SEARCH_DISCARD))
                            if plays(opt, C_SEARCH_DISCARD):
                                opt[O_DISCARD_POS] = decision_discard_tile(P, st, p, w, cache)
                            best_v = action_turns(P, st, look, lrec, llog, p, w, kind, opt, best, best_v, action,
                                                  6 if plays(opt, C_VIRTUAL_SIX) else pips, plays(opt, C_JUMP), payable,
                                                  1 if stage == 1 and plain else 0)
                            opt[O_DISCARD_POS] = 0
                            opt[O_CARD2] = -1
                            opt[O_MEDAL2] = 0
                            opt[O_CARD3] = -1
                            opt[O_MEDAL3] = 0
                        opt[O_CARD_ARG] = 0
                        opt[O_CARD_ARG2] = 0
                        opt[O_MOVE_INDEX] = 0
                    opt[O_CARD] = -1
                    opt[O_MEDAL] = 0
    return best_v


@njit_level(f"boolean({T_PARAMS}, {T_STATE}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64, int64[::1], int64[::1], boolean)")
def choose_turn(P, st, look, lrec, llog, p, w, kind, opt, best, extra):
    """Fill `best` with the bot's phase-I turn (extra: the 1-pip turn of Mama Quilia 05). Every
    turn is enumerated here, in loops (die, pips reached with pututu tiles, space, action, first
    card, second card, target): one compiled function over the valuation (outcome_value), since
    each compiled level re-optimises and re-emits everything under it (issue 13). What the
    decision cannot change is read once (payable_cards, reachable_places, room_by_moving), so a
    choice no rule allows is skipped without a look."""
    n = st[S_N_PLAYERS]
    best_v = NO_VALUE
    clear_option(best)
    cache = scr_row(lrec, SCR_LIST)
    for i in range(cache.shape[0]):
        cache[i] = 0
    clear_top_turns(lrec)
    lrec[REC_COUNTS + COUNT_DECISIONS] += 1
    if kind != KIND_RANDOM:  # the random bot values nothing (value_of_outcome draws)
        remember_weights(journal_of(lrec), w)
        clear_exchange_memo(lrec)
        remember_decision_base(P, st, p, w, lrec)
        open_choice_memo(lrec)
    if kind != KIND_PRUNED:
        cache[BLESSING_SLOT] = preferred_blessing(P, st, look, lrec, llog, p, w, kind)
        cache[BLESSING_KNOWN] = 1
    payable = payable_cards(st, p)
    if kind == KIND_FAST or kind == KIND_PRUNED:
        forget_card_prices(lrec)
        payable = cheaper_payments(P, st, lrec, p, payable)
    # The pruned kind walks the turns twice: first its plain turns (no card, or only those the fast
    # kind prices apart: 13, 07, 06), noting the best few (die, pips, space, action); then only
    # those again, with every card the decision can pay (the turns already valued skipped).
    stages = 2 if kind == KIND_PRUNED else 1
    if kind == KIND_PRUNED:
        start_candidates(lrec, w)
    else:
        scr_row(lrec, SCR_LIST2)[CAND_ON] = 0
    for stage in range(stages):
        stage_payable = payable
        if stages == 2 and stage == 0:
            stage_payable = payable & PLAIN_PAYABLE
        elif stages == 2:
            scr_row(lrec, SCR_LIST2)[CAND_ON] = 0
        best_v = stage_turns(P, st, look, lrec, llog, p, w, kind, opt, best, best_v, extra, stage, stage_payable, cache)
    # the turn chosen, again (one call site of the inlined valuation for all three, compile
    # time): its fire blessing's four choices; Mama Quilia 05 on top of it, as its first card or
    # after its action cards (the rulebook limits neither; issue 35); and a card the turn's own
    # medal may turn up (08, 09 or 05 after a medal-paid 07 or 06), used by a second medal if it
    # comes up: decided now from its direct effects, which do not depend on which card comes
    # up, only on whether it is this one (rules.follow_up; the turn with it against the turn)
    bless_again = best_v > NO_VALUE and ends_in_blessing(best) and best[O_PLENTY] == SRC_NONE
    chosen = best[O_BLESS]
    slot = -1
    bit = 0
    with_v = 0.0
    for cand in range(6 + 2 * len(FOLLOW_CARDS)):
        if cand < 4:
            if not bless_again:
                continue
            if cand == 0:
                for i in range(best.shape[0]):
                    opt[i] = best[i]
            if cand == chosen:
                continue
            opt[O_BLESS] = cand
        elif cand < 6:
            if cand == 4:
                slot = -1
                if not extra and free_card_slot(best) >= 0 and best_v > NO_VALUE:
                    for s in range(MAX_SPACES):
                        if space_actions(P, n, s) != 0 and s != best[O_SPACE] and st[S_SPACE_N + s] == 0 \
                                and not is_vp_space(P, st, s):
                            slot = 0
                    if slot == 0:
                        for i in range(best.shape[0]):
                            opt[i] = best[i]
                        slot = free_card_slot(opt)
            if slot < 0:
                continue
            opt[slot] = -1  # 05 from the hand, or with a medal on the face-up card
            opt[slot + 1] = 0
            src = second_payment(st, p, C_EXTRA_TURN, opt, SRC_CARD if cand == 4 else SRC_MEDAL)
            if src == SRC_NONE:
                continue
            opt[slot] = C_EXTRA_TURN
            opt[slot + 1] = 1 if src == SRC_MEDAL else 0
        elif (cand - 6) % 2 == 0:
            card = FOLLOW_CARDS[(cand - 6) // 2]
            bit = 0
            if best_v == NO_VALUE or st[seat_at(p) + P_MEDALS] <= spent_by(best, SRC_MEDAL):
                continue
            for i in range(best.shape[0]):
                opt[i] = best[i]
            if card == C_BLESSING_PLENTY:
                opt[O_BLESS] = 0
                opt[O_PLENTY] = SRC_MEDAL
            else:
                slot = free_card_slot(opt)
                if slot < 0 or (card == C_SEARCH_DISCARD and not card_changes_action(
                        P, st, p, card, opt[O_ACTION], opt[O_PIPS], extra)):
                    continue
                if card == C_EXTRA_TURN:
                    free = False
                    for s in range(MAX_SPACES):
                        if space_actions(P, n, s) != 0 and s != best[O_SPACE] and st[S_SPACE_N + s] == 0 \
                                and not is_vp_space(P, st, s):
                            free = True
                    if not free:
                        continue
                else:
                    opt[O_DISCARD_POS] = decision_discard_tile(P, st, p, w, cache)
                opt[slot] = card
                opt[slot + 1] = 1
            bit = follow_bit(best, card)
            if bit == 0:
                continue
        elif bit == 0:
            continue
        v = turn_value(P, st, look, lrec, llog, p, w, kind, best if cand >= 6 and (cand - 6) % 2 == 1 else opt)
        if cand < 6:
            best_v = keep_turn_if_better(opt, best, v, best_v, lrec)
        elif (cand - 6) % 2 == 0:
            with_v = v
        elif with_v > v:
            best[O_FOLLOW] |= bit
            best[O_DISCARD_POS] = opt[O_DISCARD_POS]
    if best[O_FOLLOW] != 0 and lrec[REC_RANK_TURNS] != 0:
        # the search bot's candidate that is this turn plays it with the plan too
        for r in range(TOP_TURNS):
            top = scr_row(lrec, SCR_TOP + r)
            same = True
            for f in range(N_O):
                if f != O_FOLLOW and f != O_DISCARD_POS and top[f] != best[f]:
                    same = False
            if same:
                top[O_FOLLOW] = best[O_FOLLOW]
                top[O_DISCARD_POS] = best[O_DISCARD_POS]
    journal_of(lrec)[J_MEMO_ON] = 0
    return best_v > NO_VALUE


# ------------------------------------------------------------------------------ phase II

@njit_inline
def use_value(P, st, look, lrec, llog, p, w, kind, use):
    """The value of the phase-II use `use` (tried on a copy of the state; the random bot: a
    uniform draw). Its one call site is in choose_use."""
    if kind == KIND_RANDOM:
        return rng_mod.uniform(rng_of(st))
    copy_state(st, look)
    use_ability(P, look, lrec, llog, p, w, use)
    return judged(P, look, p, w, kind, rng_of(st))


@njit_noalloc
def plenty_payment(st, p, use, source):
    """`source` if it can pay for Viracocha 08 on the phase-II use `use`, after what its cards
    spend, else SRC_NONE. A medal may follow a medal-paid 01/11/15 (another god's face-up card;
    nothing limits the medals a player spends, issue 35)."""
    paid = (card_cost(st, C_DOUBLE_PEOPLE) if use[U_DOUBLE] == SRC_CARD else 0) + \
        (card_cost(st, C_EXTRA_STUDY if use[U_KIND] == STUDY else C_EXTRA_FARM) if use[U_EXTRA] == SRC_CARD else 0)
    medals = (1 if use[U_DOUBLE] == SRC_MEDAL else 0) + (1 if use[U_EXTRA] == SRC_MEDAL else 0)
    if card_forbidden(st, p, C_BLESSING_PLENTY):
        return SRC_NONE
    if source == SRC_CARD:
        if st[seat_at(p) + P_HAND + C_BLESSING_PLENTY] > 0 and \
                st[seat_at(p) + P_OFFERINGS] - paid >= card_cost(st, C_BLESSING_PLENTY):
            return SRC_CARD
    elif st[seat_at(p) + P_MEDALS] > medals and st[S_GOD_UP + C_BLESSING_PLENTY // 3] == C_BLESSING_PLENTY:
        return SRC_MEDAL
    return SRC_NONE


@njit_level(f"boolean({T_PARAMS}, {T_STATE}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64, int64[::1], int64[::1])")
def choose_use(P, st, look, lrec, llog, p, w, kind, use, best):
    """The bot's next phase-II use (study or farm ability, or the extra one of card 11/15), or
    False to stop: using nothing more is always an option. Every use is enumerated here, in loops
    (tile kind, ability, with or without Mama Quilia 11's doubling, target, and for a use ending
    in a fire blessing its four choices, then Viracocha 08): one compiled function over the copy
    of the rules that values each (use_value)."""
    best_v = judged(P, st, p, w, kind, rng_of(st)) if kind != KIND_RANDOM else rng_mod.uniform(rng_of(st))
    pass_v = best_v
    for i in range(N_U):
        best[i] = 0
    best[U_ABILITY] = -1
    for tkind in range(2):
        used = st[seat_at(p) + P_USED_STUDY] if tkind == STUDY else st[seat_at(p) + P_USED_FARM]
        extra_src = SRC_NONE
        if used == USED_UP:
            continue
        if used >= 0 and payment(st, p, C_EXTRA_STUDY if tkind == STUDY else C_EXTRA_FARM, SRC_CARD) == SRC_NONE \
                and payment(st, p, C_EXTRA_STUDY if tkind == STUDY else C_EXTRA_FARM, SRC_MEDAL) == SRC_NONE:
            continue
        held = ability_bits(P, st, p, tkind)
        for choice in range(N_ABILITIES * (2 if used >= 0 else 1)):
            # after the regular use, the extra use of 11/15 paid from the hand (abilities 0-11)
            # or with a medal (12-23), each where it can pay (both ways are options, issue 35)
            if used >= 0:
                extra_src = payment(st, p, C_EXTRA_STUDY if tkind == STUDY else C_EXTRA_FARM,
                                    SRC_CARD if choice < N_ABILITIES else SRC_MEDAL)
                if extra_src == SRC_NONE:
                    continue
            ability = choice % N_ABILITIES
            if ability == used or (held >> ability) & 1 == 0:
                continue
            for i in range(N_U):
                use[i] = 0
            use[U_KIND] = tkind
            use[U_ABILITY] = ability
            use[U_TARGET] = -1
            use[U_EXTRA] = extra_src
            for doubled in range(3):
                if doubled >= 1:
                    # Iliapa 01 from the hand (1) or with a medal (2), with the regular use or the
                    # additional one of 11/15 (each paid: two offerings or two medals when both are)
                    if st[seat_at(p) + P_DOUBLE_PEOPLE] != 0:
                        break
                    src = payment(st, p, C_DOUBLE_PEOPLE, SRC_CARD if doubled == 1 else SRC_MEDAL)
                    if src == SRC_NONE or (src == extra_src and st[seat_at(p) + (
                            P_OFFERINGS if src == SRC_CARD else P_MEDALS)] < 2):
                        continue
                    use[U_DOUBLE] = src
                n = joint_count(P, st, p, tkind, ability, use[U_DOUBLE] != SRC_NONE or doubles_use(st, p, tkind))
                if n == 0:
                    continue
                amount = joint_amount(P, ability, n)
                moving = ability == AB_TRAIL or ability == AB_BRIDGE
                tiles = ability == AB_FARMING or ability == AB_STUDY
                targets = 1
                if moving:
                    targets = N_VILLAGES + 1
                elif ability == AB_CIRCLET:
                    targets = min(amount, N_CIRCLETS)
                elif tiles:
                    targets = min(amount, 6) if empty_spaces(P, st, p) > 0 else 0
                for t in range(targets):
                    blessing = False
                    if moving:
                        if not can_move(P, st, p, WAY_TRAIL if ability == AB_TRAIL else WAY_BRIDGE, amount, t, False):
                            continue
                        use[U_TARGET] = t
                        blessing = t == CUZCO
                    elif ability == AB_CIRCLET:
                        if not circlet_ready(st, p, t):
                            continue
                        use[U_TARGET] = t
                        blessing = True
                    elif tiles:
                        if st[(S_FARM_DISPLAY if ability == AB_FARMING else S_STUDY_DISPLAY) + t] < 0:
                            continue
                        use[U_TARGET] = t
                    for way in range(6 if blessing else 1):
                        if way < 4 and blessing:
                            use[U_BLESS] = way
                        elif way >= 4:
                            # Viracocha 08 from the hand (4) or with a medal (5)
                            use[U_BLESS] = 0
                            use[U_PLENTY] = SRC_NONE
                            src = plenty_payment(st, p, use, SRC_CARD if way == 4 else SRC_MEDAL)
                            if src == SRC_NONE:
                                continue
                            use[U_PLENTY] = src
                        best_v = keep_if_better(use, best, use_value(P, st, look, lrec, llog, p, w, kind, use), best_v)
                    use[U_BLESS] = 0
                    use[U_PLENTY] = SRC_NONE
                use[U_TARGET] = -1
    return best_v > pass_v and best[U_ABILITY] >= 0


# ------------------------------------------------------------------------------ phase III

@njit_inline
def choose_good(P, st, look, lrec, llog, p, w, kind):
    """Market index to buy (or -1) and whether Iliapa 03 doubles its VP. Inlined into phase III
    (its one call site), as are choose_palace and choose_last_missions: compiled as a level of
    its own, each would optimise and emit the valuation and the rules under it once more."""
    best_i = -1
    best_src = SRC_NONE
    best_v = judged(P, st, p, w, kind, rng_of(st))
    by_card = payment(st, p, C_DOUBLE_GOOD, SRC_CARD)
    by_medal = payment(st, p, C_DOUBLE_GOOD, SRC_MEDAL)
    for i in range(st[S_MARKET_ROW_SIZE]):
        t = st[S_MARKET + st[S_ROUND] * 5 + i]
        if t < 0 or st[seat_at(p) + P_FOOD] < good_field(P, t, GF_FOOD):
            continue
        # without Iliapa 03, with it from the hand, with it through a medal (each way it can be
        # paid is an option, issue 35)
        for way in range(3):
            src = SRC_NONE if way == 0 else (by_card if way == 1 else by_medal)
            if way > 0 and src == SRC_NONE:
                continue
            if kind == KIND_RANDOM:
                v = rng_mod.uniform(rng_of(st))
            else:
                copy_state(st, look)
                buy_good(P, look, lrec, llog, p, i, src)
                v = judged(P, look, p, w, kind, rng_of(st))
            if v > best_v:
                best_v = v
                best_i = i
                best_src = src
    return best_i, best_src


SHORT_BITS = 3  # a mission's shortfall capped at 6 (all that mission_term reads), packed per slot


@njit_noalloc
def packed_shortfalls(P, st, p):
    """The three mission slots' shortfalls, each capped at 6, SHORT_BITS bits a slot."""
    shorts = 0
    for slot in range(3):
        shorts |= min(slot_shortfall(P, st, p, slot), 6) << (SHORT_BITS * slot)
    return shorts


@njit_typed("int64(int64, int64)")
def unpacked_shortfall(shorts, slot):
    """One slot's shortfall from packed_shortfalls (one compiled version, whatever the caller's
    integer types)."""
    return (shorts >> (SHORT_BITS * slot)) & ((1 << SHORT_BITS) - 1)


@njit_noalloc
def settled_value(P, look, p, w, settled, paid, unslid, held, shorts):
    """position_value of `look`, the position after settling the mission in slot `settled`, from
    the tile terms and shortfalls of the position before: settling touches no people tile, and
    the other missions' requirements only when Mama Quilia 04 is `paid` (then they are counted
    again); the settled slot is empty."""
    if paid:
        shorts = packed_shortfalls(P, look, p)
    shorts &= ~(((1 << SHORT_BITS) - 1) << (SHORT_BITS * settled))
    return position_sum(P, look, p, w, unslid, held, unpacked_shortfall(shorts, 0), unpacked_shortfall(shorts, 1),
                        unpacked_shortfall(shorts, 2))


@njit_level(f"UniTuple(int64, 3)({T_PARAMS}, {T_STATE}, {T_STATE}, {T_REC}, {T_LOG}, int64, float64[::1], int64)")
def choose_mission(P, st, look, lrec, llog, p, w, kind):
    """(slot, outcome, card source): the mission completed (outcome 1, or 2 with Mama Quilia 04,
    paid from a hand copy or with a medal on the face-up card, as the bot prefers) or, if none
    can be, the one returned (outcome 0). Completing one is compulsory. The shortfalls and the
    tile terms are computed once (settled_value)."""
    best = (-1, 0, SRC_NONE)
    best_v = NO_VALUE
    shorts = packed_shortfalls(P, st, p)
    any_done = False
    for slot in range(3):
        any_done = any_done or (st[seat_at(p) + P_MISSION + slot] >= 0 and unpacked_shortfall(shorts, slot) == 0)
    unslid, held = (0, 0.0)
    if kind != KIND_RANDOM:
        unslid, held = tile_terms(P, st, p, w)
    for slot in range(3):
        m = st[seat_at(p) + P_MISSION + slot]
        if m < 0:
            continue
        short = unpacked_shortfall(shorts, slot)
        for choice in range(4):
            outcome = min(choice, 2)
            src = SRC_NONE
            if outcome == 1 and short != 0:
                continue
            if outcome == 2:
                src = payment(st, p, C_MISSION_DISCOUNT, SRC_CARD if choice == 2 else SRC_MEDAL)
                if short != 1 or src == SRC_NONE:
                    continue
            if outcome == 0 and any_done:
                continue
            if kind == KIND_RANDOM:
                v = rng_mod.uniform(rng_of(st))
            else:
                copy_state(st, look)
                settle_mission(P, look, lrec, llog, p, slot, outcome, src)
                v = with_noise(settled_value(P, look, p, w, slot, outcome == 2, unslid, held, shorts), w, rng_of(st))
            if v > best_v:
                best_v = v
                best = (slot, outcome, src)
    return best


@njit_inline
def choose_last_missions(P, st, look, lrec, llog, p, kind):
    """End of the Game: the plan (rules.settle_last_missions) for a player's last missions. The
    game ends with them, so a bot plays the plan worth the most at the end (VP, medals, the
    missions achievement); the random bot draws one. Without a Mama Quilia 04 to pay there is
    nothing to choose. Of plans that settle alike, only the first is played (rules.
    first_plan_of_its_kind): the others are worth the same, so it is chosen as before."""
    if payment(st, p, C_MISSION_DISCOUNT, SRC_CARD) == SRC_NONE and \
            payment(st, p, C_MISSION_DISCOUNT, SRC_MEDAL) == SRC_NONE:
        return 0
    if kind == KIND_RANDOM:
        return rng_mod.randint(rng_of(st), LAST_MISSION_PLANS)
    best = 0
    best_v = -(1 << 40)
    one_short = one_short_slots(P, st, p)
    if one_short == 0:
        return best
    for plan in range(LAST_MISSION_PLANS):
        if not first_plan_of_its_kind(plan, one_short):
            continue
        copy_state(st, look)
        settle_last_missions(P, look, lrec, llog, p, plan)
        v = end_value(P, look, p)
        if v > best_v:
            best_v = v
            best = plan
    return best


@njit_noalloc
def palace_value(P, st, p, w, m, unslid, held, shorts):
    """position_value after taking mission m from the palace (rules.take_palace_mission: the
    first empty mission slot, if any), valued in place: the palace display it leaves is not
    valued, and the other slots keep their shortfalls (shorts) and the tile terms theirs."""
    empty = -1
    for slot in range(3):
        if empty < 0 and st[seat_at(p) + P_MISSION + slot] < 0:
            empty = slot
    if empty < 0:
        return position_sum(P, st, p, w, unslid, held, unpacked_shortfall(shorts, 0), unpacked_shortfall(shorts, 1),
                            unpacked_shortfall(shorts, 2))
    st[seat_at(p) + P_MISSION + empty] = m
    shorts |= min(mission_shortfall(P, st, p, m), 6) << (SHORT_BITS * empty)
    v = position_sum(P, st, p, w, unslid, held, unpacked_shortfall(shorts, 0), unpacked_shortfall(shorts, 1),
                     unpacked_shortfall(shorts, 2))
    st[seat_at(p) + P_MISSION + empty] = -1
    return v


@njit_inline
def choose_palace(P, st, look, lrec, llog, p, w, kind):
    """The palace mission the bot takes (index), -1 if the palace is empty. A mission is valued
    in the bot's empty slot, not on a copy (palace_value)."""
    best_i = -1
    best_v = NO_VALUE
    shorts = 0
    unslid, held = (0, 0.0)
    if kind != KIND_RANDOM:
        shorts = packed_shortfalls(P, st, p)
        unslid, held = tile_terms(P, st, p, w)
    for i in range(st[S_PALACE_SIZE]):
        if st[S_PALACE + i] < 0:
            continue
        if kind == KIND_RANDOM:
            v = rng_mod.uniform(rng_of(st))
        else:
            v = with_noise(palace_value(P, st, p, w, st[S_PALACE + i], unslid, held, shorts), w, rng_of(st))
        if v > best_v:
            best_v = v
            best_i = i
    return best_i
