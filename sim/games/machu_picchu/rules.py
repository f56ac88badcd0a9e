"""Machu Picchu's forward model: setup, days and nights, the fifteen districts, the Inca Trail, the
three end conditions and the final scoring. Section names in the docstrings are the rulebook's
(../shared/rules/machu-picchu.en.md); README.md gives the reading chosen where it is ambiguous.

Every choice a player has goes through `ask`: the rules list the legal options in the state and the
seat's bot (bots.choose) picks one. Functions take the parameter array P, the state st, the random
stream, the log, and the seats' bot kinds and weights (kinds, W) when they may ask a bot.
"""
import numpy as np
from numba import njit

from sim.core import rng
from sim.core.eventlog import append_event
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed

from .bots import choose, put_line_up_prints
from .state import (
    T_KINDS, T_LOG, T_PARAMS, T_STATE, T_STREAM, T_WEIGHTS,
    CORN, DEC_ACTION, DEC_CLOCK_GOODS, DEC_CLOCK_WORKER, DEC_LLAMA_OFFERING,
    DEC_MAIN_OFFERING, DEC_MOON_TILE, DEC_MOON_USE, DEC_PALACE, DEC_PRICE_NUDGE, DEC_PRIESTS, DEC_PRODUCE,
    DEC_START_WORKER, DEC_SUMMIT_RETURN, DEC_TRADE, DEC_VIRGINS, DEC_WATCHMAN, D_CENTRAL_PLAZA,
    D_COCA_PLANTATION, D_CORN_TERRACES, D_HOUSE_OF_PRIESTS, D_HOUSE_OF_VIRGINS, D_LLAMAS_MEADOW, D_MAIN_TEMPLE,
    D_POTTERS_QUARTER, D_ROYAL_PALACE, D_WATCHMANS_HUT, D_WEAVERS_QUARTER, END_ACTION_LIMIT, END_DECK,
    END_NONE, END_PRIESTS, END_SPANISH, ERR_BAD_CHOICE, ERR_CARDS, ERR_CORN, ERR_GOODS, ERR_MOON, ERR_NEGATIVE,
    ERR_NONE, ERR_PRIESTS, ERR_STONES, ERR_WORKERS, EV_CLOCK, EV_CLOCK_GOODS, EV_DAY, EV_DAY_CORN, EV_END,
    EV_FINAL, EV_MOON, EV_MOON_USE, EV_MOVE, EV_NUDGE, EV_OFFER, EV_PRIEST, EV_PRODUCE, EV_REWARD, EV_SCOUT,
    EV_SUMMIT, EV_SUN, EV_TAKE, EV_TRADE, EV_WORKER, FIRST_TEMPLE, H_N_CARDS, H_N_MOON, ICON_KIND, K_CONDOR,
    K_PUMA, K_SUN, LLAMA, LOG_CAPACITY, LOG_WIDTH, MF_GOOD, MF_STEPS, MOON_GOOD, MOON_STEPS, NOWHERE,
    N_DISTRICTS, N_GOODS, N_KINDS, N_OPT, N_PRODUCTION, N_STATE, O_A, O_B, O_C, PF_COST, PF_COUNT,
    P_ACTIONS, P_CLOCK_STAYING, P_CLOCK_WORKERS, P_COMPENSATION, P_DENIED, P_FREE_WORKERS, P_GOLD, P_GOODS,
    P_GOODS_VALUE, P_HAND, P_HAND_N, P_HELD, P_JUMPS, P_MOONS, P_MOON_KIND, P_MULTIPLIER, P_PENDING_CORN,
    P_PENDING_LLAMAS, P_PRIESTS, P_PRINCE, P_RANK, P_SCORE, P_SCORE_PRIESTS, P_SCORE_TRAIL, P_SCORE_WORKERS,
    P_LLAMAS_OFFERED, P_MAIN_OFFERED, P_SCOUT, P_START_ORDER, P_STEPS, P_SUMMITS, P_TRADES, P_WON, P_WORKERS, R_ACTION_LIMIT, R_CARDS_DEALT,
    R_CLOCK_GOODS, R_CLOCK_STEPS, R_COMPENSATE_ONCE, R_COMPENSATION, R_CORN_AS_GOOD, R_CORN_CAP, R_CORN_YIELD,
    R_DAY_CORN_TO_LAST, R_FIRST_MULTIPLIER, R_FIRST_SCOUT, R_GOODS_CAP, R_GRANARY, R_GRANARY_CORN,
    R_GRANARY_GOLD, R_GRANARY_POINTS, R_JUMP_COST, R_LAST_DAY, R_MAIN_STEPS, R_MARKET_SETUP,
    R_MOONS_TO_END_DAY, R_MOON_CORN, R_MOON_GOOD_COST, R_PRICE_NUDGE, R_PRODUCTION_COST, R_RESTOCK_CORN,
    R_RESTOCK_GOODS, R_RESTOCK_STONES, R_REWARDS_WAIT, R_SECOND_MULTIPLIER, R_STABLE,
    R_STABLE_GOLD, R_STABLE_LLAMAS, R_STABLE_POINTS, R_START_DAY, R_START_GOODS, R_STONES, R_STONE_CAP,
    R_STONE_STEPS, R_SUMMIT, R_SUMMIT_DRAW, R_SUMMIT_RETURN, R_SUPPLY, R_TIME_CORN, R_TRADE_LIMIT, R_WORKERS,
    STAY, S_ACTIONS, S_ACTOR, S_DAY, S_DAYS_PLAYED, S_DECK, S_DECK_HEAD, S_DECK_SIZE, S_DISTRICT,
    S_END_PENDING, S_END_REASON, S_ERROR, S_EXTRA_LEFT, S_LOG_N, S_MARKET, S_MOONS_TAKEN, S_MOON_HOLDER,
    S_N_CARDS, S_N_MOON, S_N_PLAYERS, S_OPTIONS, S_PRIESTS_LEFT, S_START, S_STONE_SUPPLY, S_SUN_HOLDER,
    S_SUPPLY, S_TAKEN, S_TIME_CORN, S_VISITED, S_WINNER, adjacent, card_field, market_length,
    moon_field, priest_field, seat_at, smallest_uncovered, trade_allowed, trade_price, worker_cost, icons_held,
    gold_held, count_icons,
    CF_ICONS, N_ICONS, P_ICONS,
)


# ------------------------------------------------------------------ small helpers
@njit_typed(f"void({T_STATE}, {T_LOG}, int64, int64, int64, int64, int64, int64)")
def log_event(st, log, ev, a, b, c, d, e):
    append_event(st, S_LOG_N, log, ev, a, b, c, d, e, 0)


@njit_noalloc
def n_players(st):
    return st[S_N_PLAYERS]


@njit_noalloc
def popcount(bits):
    count = 0
    while bits:
        count += bits & 1
        bits >>= 1
    return count


@njit_typed(f"void({T_STATE}, int64, int64, int64)")
def put_option(st, i, a, b):
    st[S_OPTIONS + i * N_OPT + O_A] = a
    st[S_OPTIONS + i * N_OPT + O_B] = b
    st[S_OPTIONS + i * N_OPT + O_C] = 0


@njit_noalloc
def option_a(st, i):
    return st[S_OPTIONS + i * N_OPT + O_A]


@njit_noalloc
def option_b(st, i):
    return st[S_OPTIONS + i * N_OPT + O_B]


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def ask(P, st, stream, kinds, W, p, decision, n_options):
    """Seat p's bot picks one of the n_options listed; a pick outside the list is an engine error
    (the first option is taken so the game can stop cleanly)."""
    picked = choose(P, st, stream, kinds[p], W[p], p, decision, n_options)
    if picked < 0 or picked >= n_options:
        st[S_ERROR] = ERR_BAD_CHOICE
        return 0
    return picked


@njit_typed(f"int64({T_STATE}, int64, int64)")
def goods(st, p, g):
    return st[seat_at(p) + P_GOODS + g]


@njit_typed(f"int64({T_STATE}, int64, int64, int64)")
def take_from_supply(st, p, g, n):
    """Seat p takes n of good g from the general supply, or what is left of it (the components are
    the limit); returns the number taken."""
    taken = min(n, st[S_SUPPLY + g])
    st[S_SUPPLY + g] -= taken
    st[seat_at(p) + P_GOODS + g] += taken
    return taken


@njit_typed(f"void({T_STATE}, int64, int64, int64)")
def pay_to_supply(st, p, g, n):
    st[seat_at(p) + P_GOODS + g] -= n
    st[S_SUPPLY + g] += n


@njit_noalloc
def good_unit(P, g):
    """How much of good g makes one "kind of good": 3 corn, or 1 of the others (Main Temple, Sun Clock)."""
    return P[R_CORN_AS_GOOD] if g == CORN else 1


# ------------------------------------------------------------------ the offering deck
@njit_noalloc
def draw_offering(st):
    """The top card of the offering deck (a queue over S_N_CARDS slots)."""
    card = st[S_DECK + st[S_DECK_HEAD]]
    st[S_DECK_HEAD] = (st[S_DECK_HEAD] + 1) % st[S_N_CARDS]
    st[S_DECK_SIZE] -= 1
    return card


@njit_noalloc
def put_under_deck(st, card):
    st[S_DECK + (st[S_DECK_HEAD] + st[S_DECK_SIZE]) % st[S_N_CARDS]] = card
    st[S_DECK_SIZE] += 1


@njit_noalloc
def add_to_hand(P, st, p, card):
    at = seat_at(p)
    st[at + P_HAND + card] = 1
    st[at + P_HELD + card] += 1
    st[at + P_HAND_N] += 1
    for icon in range(N_ICONS):
        st[at + P_ICONS + icon] += card_field(P, card, CF_ICONS + icon)


@njit_noalloc
def remove_from_hand(P, st, p, card):
    at = seat_at(p)
    st[at + P_HAND + card] = 0
    st[at + P_HAND_N] -= 1
    for icon in range(N_ICONS):
        st[at + P_ICONS + icon] -= card_field(P, card, CF_ICONS + icon)


# ------------------------------------------------------------------ the Inca Trail
@njit_noalloc
def list_hand(st, p):
    """The offering cards in seat p's hand, as options."""
    at = seat_at(p)
    n_options = 0
    for card in range(st[S_N_CARDS]):
        if st[at + P_HAND + card] == 1:
            put_option(st, n_options, card, 0)
            n_options += 1
    return n_options


@njit_noalloc
def return_card(P, st, p, card):
    """Inca Trail: a card of the hand goes back under the offering deck."""
    remove_from_hand(P, st, p, card)
    put_under_deck(st, card)


@njit_inline
def reach_summit(P, st, stream, log, kinds, W, p):
    """Inca Trail: draw 3 offering cards into the hand and put 2 of the whole hand under the deck;
    with 2 left draw both and put back 1, with 1 left take it. Taking the last card ends the game
    after the action (Game End 2); a player reaching the summit on an empty deck is compensated."""
    at = seat_at(p)
    st[at + P_SUMMITS] += 1
    drawn = min(P[R_SUMMIT_DRAW], st[S_DECK_SIZE])
    if drawn == 0:
        st[at + P_DENIED] += 1
        if P[R_COMPENSATE_ONCE] == 0 or st[at + P_DENIED] == 1:
            st[at + P_COMPENSATION] += P[R_COMPENSATION]
        log_event(st, log, EV_SUMMIT, p, 0, 0, 0, 0)
        return
    for _ in range(drawn):
        add_to_hand(P, st, p, draw_offering(st))
    returned = max(0, drawn - (P[R_SUMMIT_DRAW] - P[R_SUMMIT_RETURN]))
    for _ in range(returned):
        n_options = list_hand(st, p)
        return_card(P, st, p, option_a(st, ask(P, st, stream, kinds, W, p, DEC_SUMMIT_RETURN, n_options)))
    log_event(st, log, EV_SUMMIT, p, drawn, returned, 0, 0)
    if st[S_DECK_SIZE] == 0 and st[S_END_PENDING] == END_NONE:
        st[S_END_PENDING] = END_DECK


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64)")
def move_scout(P, st, stream, log, kinds, W, p, steps):
    """Inca Trail: step by step; reaching or passing the Granary (7) and the Llama Stable (13) earns
    3 corn and 1 llama, paid after the action (pay_trail_rewards); reaching the summit (20) draws
    cards at once and the scout goes on from space 0 (18 + 5 ends on 3)."""
    if steps <= 0:
        return
    at = seat_at(p)
    start = st[at + P_SCOUT]
    space = start
    for _ in range(steps):
        space += 1
        if space == P[R_GRANARY]:
            st[at + P_PENDING_CORN] += P[R_GRANARY_CORN]
        if space == P[R_STABLE]:
            st[at + P_PENDING_LLAMAS] += P[R_STABLE_LLAMAS]
        if space >= P[R_SUMMIT]:
            st[at + P_SCOUT] = space
            reach_summit(P, st, stream, log, kinds, W, p)
            space = 0
    st[at + P_SCOUT] = space
    st[at + P_STEPS] += steps
    log_event(st, log, EV_SCOUT, p, start, steps, space, 0)


@njit_noalloc
def pay_trail_rewards(st, log, p):
    """Inca Trail: the corn and llamas earned are taken only after the action."""
    at = seat_at(p)
    if st[at + P_PENDING_CORN] == 0 and st[at + P_PENDING_LLAMAS] == 0:
        return
    corn = take_from_supply(st, p, CORN, st[at + P_PENDING_CORN])
    llamas = take_from_supply(st, p, LLAMA, st[at + P_PENDING_LLAMAS])
    st[at + P_PENDING_CORN] = 0
    st[at + P_PENDING_LLAMAS] = 0
    log_event(st, log, EV_REWARD, p, corn, llamas, 0, 0)


@njit_noalloc
def pay_everyones_rewards(st, log, first):
    n = n_players(st)
    for i in range(n):
        pay_trail_rewards(st, log, (first + i) % n)


# ------------------------------------------------------------------ choices of goods
@njit_noalloc
def affordable_mask(P, st, p, mask):
    """Seat p holds one unit of every kind of good in `mask` (3 corn for corn)."""
    for g in range(N_GOODS):
        if mask & (1 << g) and goods(st, p, g) < good_unit(P, g):
            return False
    return True


@njit_noalloc
def list_clock_goods(P, st):
    """Sun Clock: every choice of 3 different kinds of good (3 corn for corn), fewer only when the
    supply has run out of kinds."""
    available = 0
    for g in range(N_GOODS):
        if st[S_SUPPLY + g] > 0:
            available += 1
    wanted = min(P[R_CLOCK_GOODS], available)
    n_options = 0
    for mask in range(1 << N_GOODS):
        if popcount(mask) != wanted:
            continue
        ok = True
        for g in range(N_GOODS):
            if mask & (1 << g) and st[S_SUPPLY + g] == 0:
                ok = False
        if ok:
            put_option(st, n_options, mask, 0)
            n_options += 1
    return n_options


@njit_noalloc
def take_goods(P, st, log, p, mask):
    """One unit of each kind of good in `mask` from the supply (3 corn for corn)."""
    for g in range(N_GOODS):
        if mask & (1 << g):
            take_from_supply(st, p, g, good_unit(P, g))
    log_event(st, log, EV_CLOCK_GOODS, p, mask, 0, 0, 0)


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64)")
def sun_clock_reward(P, st, stream, log, kinds, W, p):
    """Sun Clock: per worker, 3 different goods and 3 steps of the scout."""
    n_options = list_clock_goods(P, st)
    take_goods(P, st, log, p, option_a(st, ask(P, st, stream, kinds, W, p, DEC_CLOCK_GOODS, n_options)))
    move_scout(P, st, stream, log, kinds, W, p, P[R_CLOCK_STEPS])


# ------------------------------------------------------------------ moon tiles
@njit_noalloc
def moon_use_legal(P, st, p, t, use):
    if use == MOON_GOOD:
        return goods(st, p, CORN) >= P[R_MOON_GOOD_COST] and st[S_SUPPLY + moon_field(P, t, MF_GOOD)] > 0
    return True


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def use_moon_tile(P, st, stream, log, kinds, W, p, t, use):
    """Night Phase, Moon Tiles: move the scout 2 or 3 steps, or pay 1 corn for the good shown, or
    take 3 corn."""
    if use == MOON_STEPS:
        move_scout(P, st, stream, log, kinds, W, p, moon_field(P, t, MF_STEPS))
    elif use == MOON_GOOD:
        pay_to_supply(st, p, CORN, P[R_MOON_GOOD_COST])
        take_from_supply(st, p, moon_field(P, t, MF_GOOD), 1)
    else:
        take_from_supply(st, p, CORN, P[R_MOON_CORN])
    log_event(st, log, EV_MOON_USE, p, t, use, 0, 0)


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def list_moon_uses(P, st, p, tile):
    """The uses of seat p's moon tiles (only `tile`, or every tile held when it is -1)."""
    n_options = 0
    for t in range(st[S_N_MOON]):
        if st[S_MOON_HOLDER + t] != p or (tile >= 0 and t != tile):
            continue
        for use in range(3):
            if moon_use_legal(P, st, p, t, use):
                put_option(st, n_options, t, use)
                n_options += 1
    return n_options


@njit_inline
def use_held_moon_tiles(P, st, stream, log, kinds, W, p):
    """Night Phase, Moon Tiles: the holder uses each tile in the order they choose (corn from one
    tile may pay for another's good), then the tiles go back beside the moon."""
    while True:
        n_options = list_moon_uses(P, st, p, -1)
        if n_options == 0:
            return
        picked = ask(P, st, stream, kinds, W, p, DEC_MOON_USE, n_options)
        t = option_a(st, picked)
        use_moon_tile(P, st, stream, log, kinds, W, p, t, option_b(st, picked))
        st[S_MOON_HOLDER + t] = -1
        st[S_MOONS_TAKEN] -= 1


@njit_noalloc
def list_moon_tiles(st):
    """The moon tiles still beside the moon."""
    n_options = 0
    for t in range(st[S_N_MOON]):
        if st[S_MOON_HOLDER + t] == -1:
            put_option(st, n_options, t, 0)
            n_options += 1
    return n_options


@njit_noalloc
def hold_moon_tile(st, log, p, t):
    st[S_MOON_HOLDER + t] = p
    st[S_MOONS_TAKEN] += 1
    at = seat_at(p)
    st[at + P_MOONS] += 1
    st[at + P_MOON_KIND + t] += 1
    log_event(st, log, EV_MOON, p, t, st[S_MOONS_TAKEN], 0, 0)


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64)")
def take_moon_tile(P, st, stream, log, kinds, W, p):
    """Game Flow: the prince stays and the player takes a moon tile (their choice of those left). On
    the last day its benefit is used at once and the tile is kept (Final Day)."""
    n_options = list_moon_tiles(st)
    if n_options == 0:
        return
    t = option_a(st, ask(P, st, stream, kinds, W, p, DEC_MOON_TILE, n_options))
    hold_moon_tile(st, log, p, t)
    if st[S_DAY] >= P[R_LAST_DAY]:
        n_options = list_moon_uses(P, st, p, t)
        use = option_b(st, ask(P, st, stream, kinds, W, p, DEC_MOON_USE, n_options))
        use_moon_tile(P, st, stream, log, kinds, W, p, t, use)


# ------------------------------------------------------------------ production districts
@njit_noalloc
def list_production(P, st, q, d):
    """Production Areas: how many of seat q's workers on district d may produce (0 up to all of
    them, as far as q's corn pays and the supply lasts); the Corn Terraces' workers need no choice."""
    most = min(st[seat_at(q) + P_WORKERS + d], st[S_SUPPLY + d])
    if P[R_PRODUCTION_COST] > 0:
        most = min(most, goods(st, q, CORN) // P[R_PRODUCTION_COST])
    for n in range(most + 1):
        put_option(st, n, n, d)
    return most + 1


@njit_noalloc
def produce_goods(P, st, log, q, d, made):
    """Production Areas: `made` of district d's good for 1 corn each."""
    pay_to_supply(st, q, CORN, made * P[R_PRODUCTION_COST])
    made = take_from_supply(st, q, d, made)
    log_event(st, log, EV_PRODUCE, q, d, d, made, 0)


@njit_noalloc
def produce_corn(P, st, log, q):
    """Corn Terraces: every own worker there produces 3 corn."""
    made = take_from_supply(st, q, CORN, st[seat_at(q) + P_WORKERS + CORN] * P[R_CORN_YIELD])
    log_event(st, log, EV_PRODUCE, q, CORN, CORN, made, 0)


@njit_inline
def produce(P, st, stream, log, kinds, W, q, d):
    """Production Areas: seat q's workers on district d produce: 3 corn each on the Corn Terraces;
    elsewhere 1 good each for 1 corn, as many as q chooses to pay for."""
    if st[seat_at(q) + P_WORKERS + d] == 0:
        return
    if d == CORN:
        produce_corn(P, st, log, q)
    else:
        n_options = list_production(P, st, q, d)
        produce_goods(P, st, log, q, d, ask(P, st, stream, kinds, W, q, DEC_PRODUCE, n_options))


@njit_noalloc
def enter_production(P, st, stream, log, kinds, W, p, d):
    """Production Areas: the first prince to enter each day takes all the goods there, and every
    worker there produces, seat by seat from the taker; later entries do nothing."""
    if st[S_VISITED + d]:
        return
    st[S_VISITED + d] = 1
    amount = st[S_DISTRICT + d]
    st[S_DISTRICT + d] = 0
    st[seat_at(p) + P_GOODS + d] += amount
    log_event(st, log, EV_TAKE, p, d, amount, 0, 0)
    n = n_players(st)
    for i in range(n):
        produce(P, st, stream, log, kinds, W, (p + i) % n, d)


# ------------------------------------------------------------------ temples
@njit_noalloc
def llama_steps(P, st, k):
    """Offerings: the smallest number uncovered in kind k's row."""
    return smallest_uncovered(P, k, st[S_TAKEN + k])


@njit_noalloc
def list_llama_offerings(st, q, k):
    """Offerings: 0 up to 1 llama per own card of kind k, as far as q's llamas go."""
    most = min(st[seat_at(q) + P_PRIESTS + k], goods(st, q, LLAMA))
    for n in range(most + 1):
        put_option(st, n, n, FIRST_TEMPLE + k)
    return most + 1


@njit_inline
def sacrifice_llamas(P, st, stream, log, kinds, W, q, k, llamas):
    """Offerings at the Sun, Puma and Condor Temples: each llama moves the scout by the smallest
    number uncovered in kind k's row."""
    if llamas == 0:
        return
    pay_to_supply(st, q, LLAMA, llamas)
    st[seat_at(q) + P_LLAMAS_OFFERED] += llamas
    steps = llamas * llama_steps(P, st, k)
    log_event(st, log, EV_OFFER, q, FIRST_TEMPLE + k, llamas, steps, 0)
    move_scout(P, st, stream, log, kinds, W, q, steps)


@njit_noalloc
def offer_llamas(P, st, stream, log, kinds, W, q, k):
    """Offerings at the Sun, Puma and Condor Temples: only a holder of the temple's cards offers."""
    if st[seat_at(q) + P_PRIESTS + k] == 0:
        return
    n_options = list_llama_offerings(st, q, k)
    sacrifice_llamas(P, st, stream, log, kinds, W, q, k, ask(P, st, stream, kinds, W, q, DEC_LLAMA_OFFERING,
                                                              n_options))


@njit_noalloc
def list_main_offerings(P, st, q):
    """Offerings at the Main Temple: every set of different kinds of good seat q can pay."""
    n_options = 0
    for mask in range(1 << N_GOODS):
        if affordable_mask(P, st, q, mask):
            put_option(st, n_options, mask, 0)
            n_options += 1
    return n_options


@njit_noalloc
def offer_goods(P, st, stream, log, kinds, W, q, mask):
    """Offerings at the Main Temple: 2 steps per kind of good offered (3 corn for corn)."""
    if mask == 0:
        return
    for g in range(N_GOODS):
        if mask & (1 << g):
            pay_to_supply(st, q, g, good_unit(P, g))
    steps = popcount(mask) * P[R_MAIN_STEPS]
    st[seat_at(q) + P_MAIN_OFFERED] += popcount(mask)
    log_event(st, log, EV_OFFER, q, D_MAIN_TEMPLE, mask, steps, 0)
    move_scout(P, st, stream, log, kinds, W, q, steps)


@njit_inline
def offer_at_main_temple(P, st, stream, log, kinds, W, q):
    n_options = list_main_offerings(P, st, q)
    offer_goods(P, st, stream, log, kinds, W, q,
                option_a(st, ask(P, st, stream, kinds, W, q, DEC_MAIN_OFFERING, n_options)))


@njit_noalloc
def enter_temple(P, st, stream, log, kinds, W, p, d):
    """Temples: the first prince to enter each day takes the temple stones (3 steps each); then,
    from the taker round the table, every player may make offerings. Later entries do nothing."""
    if st[S_VISITED + d]:
        return
    st[S_VISITED + d] = 1
    stones = st[S_DISTRICT + d]
    st[S_DISTRICT + d] = 0
    st[S_STONE_SUPPLY] += stones
    log_event(st, log, EV_TAKE, p, d, stones, 0, 0)
    move_scout(P, st, stream, log, kinds, W, p, stones * P[R_STONE_STEPS])
    n = n_players(st)
    for i in range(n):
        q = (p + i) % n
        if d == D_MAIN_TEMPLE:
            offer_at_main_temple(P, st, stream, log, kinds, W, q)
        else:
            offer_llamas(P, st, stream, log, kinds, W, q, d - FIRST_TEMPLE)


# ------------------------------------------------------------------ Watchman's Hut and Royal Palace
@njit_noalloc
def workers_affordable(P, st, p, mask):
    """Seat p can pay every worker of `mask` (bits over the production districts) and has them."""
    if popcount(mask) > st[seat_at(p) + P_FREE_WORKERS]:
        return False
    for g in range(N_GOODS):
        need = 0
        for d in range(N_PRODUCTION):
            if mask & (1 << d):
                need += worker_cost(P, d, g)
        if need > goods(st, p, g):
            return False
    return True


@njit_noalloc
def list_worker_placements(P, st, p, allowed):
    """Watchman's Hut / Royal Palace: every set of at most 1 worker on each district the building
    staffs (bits of `allowed`) that seat p can pay for and still has workers for; none included."""
    n_options = 0
    for mask in range(1 << N_PRODUCTION):
        if mask & ~allowed == 0 and workers_affordable(P, st, p, mask):
            put_option(st, n_options, mask, 0)
            n_options += 1
    return n_options


@njit_noalloc
def hire_workers(P, st, log, p, mask):
    """Pay each worker's cost and place it on its production district."""
    at = seat_at(p)
    for d in range(N_PRODUCTION):
        if mask & (1 << d):
            for g in range(N_GOODS):
                pay_to_supply(st, p, g, worker_cost(P, d, g))
            st[at + P_FREE_WORKERS] -= 1
            st[at + P_WORKERS + d] += 1
            log_event(st, log, EV_WORKER, p, d, 0, 0, 0)


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def place_workers(P, st, stream, log, kinds, W, p, allowed, decision):
    n_options = list_worker_placements(P, st, p, allowed)
    hire_workers(P, st, log, p, option_a(st, ask(P, st, stream, kinds, W, p, decision, n_options)))


# ------------------------------------------------------------------ Houses of Priests and Virgins
@njit_noalloc
def can_buy_priest(P, st, p, k):
    if st[S_TAKEN + k] >= priest_field(P, k, PF_COUNT):
        return False
    for g in range(N_GOODS):
        if goods(st, p, g) < priest_field(P, k, PF_COST + g):
            return False
    return True


@njit_noalloc
def list_priest_purchases(P, st, p, first_kind, last_kind):
    """House of Priests (Puma or Condor) / House of Virgins (Sun): none, or a kind whose row still
    holds a card and whose cost seat p can pay."""
    put_option(st, 0, -1, 0)
    n_options = 1
    for k in range(first_kind, last_kind + 1):
        if can_buy_priest(P, st, p, k):
            put_option(st, n_options, k, 0)
            n_options += 1
    return n_options


@njit_noalloc
def take_priest_card(P, st, log, p, k):
    """Pay the printed cost and take the leftmost card of kind k; the last of the 15 cards ends the
    game after the action (Game End 1)."""
    for g in range(N_GOODS):
        pay_to_supply(st, p, g, priest_field(P, k, PF_COST + g))
    st[S_TAKEN + k] += 1
    st[seat_at(p) + P_PRIESTS + k] += 1
    st[S_PRIESTS_LEFT] -= 1
    log_event(st, log, EV_PRIEST, p, k, 0, 0, 0)
    if st[S_PRIESTS_LEFT] == 0 and st[S_END_PENDING] == END_NONE:
        st[S_END_PENDING] = END_PRIESTS


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64, int64)")
def buy_priest(P, st, stream, log, kinds, W, p, first_kind, last_kind, decision):
    """House of Priests / House of Virgins: one card per visit, or none."""
    n_options = list_priest_purchases(P, st, p, first_kind, last_kind)
    k = option_a(st, ask(P, st, stream, kinds, W, p, decision, n_options))
    if k >= 0:
        take_priest_card(P, st, log, p, k)


# ------------------------------------------------------------------ Central Plaza
@njit_noalloc
def buy_price(P, st, g):
    """Central Plaza: what buying one good g costs at the market as it stands (trade_price)."""
    return trade_price(P, g, 1, st[S_MARKET + g])


@njit_noalloc
def sell_price(P, st, g):
    """Central Plaza: what selling one good g pays at the market as it stands (trade_price)."""
    return trade_price(P, g, -1, st[S_MARKET + g])


@njit_noalloc
def can_buy(P, st, p, g):
    return trade_allowed(P, st, p, g, 1, st[S_MARKET + g], st[S_SUPPLY + g])


@njit_noalloc
def can_sell(P, st, p, g):
    return trade_allowed(P, st, p, g, -1, st[S_MARKET + g], st[S_SUPPLY + g])


@njit_noalloc
def trade(P, st, log, p, g, direction):
    """One purchase (direction +1) or sale (-1) of good g at the market's price."""
    at = seat_at(p)
    if direction > 0:
        price = buy_price(P, st, g)
        if st[S_MARKET + g] > 0:
            st[S_MARKET + g] -= 1
            st[at + P_GOODS + g] += 1
        else:
            take_from_supply(st, p, g, 1)
        pay_to_supply(st, p, CORN, price)
    else:
        price = sell_price(P, st, g)
        st[at + P_GOODS + g] -= 1
        if st[S_MARKET + g] < market_length(P, g):
            st[S_MARKET + g] += 1
        else:
            st[S_SUPPLY + g] += 1
        take_from_supply(st, p, CORN, price)
    st[at + P_TRADES] += 1
    log_event(st, log, EV_TRADE, p, g, direction, price, 0)


@njit_noalloc
def list_price_nudges(P, st):
    """Central Plaza: none, or one good added to a column that is not full (from the supply) or
    removed from one that is not empty (README ambiguity 7)."""
    put_option(st, 0, -1, 0)
    n_options = 1
    for g in range(LLAMA, N_GOODS):
        if st[S_MARKET + g] < market_length(P, g) and st[S_SUPPLY + g] > 0:
            put_option(st, n_options, g, 1)
            n_options += 1
        if st[S_MARKET + g] > 0:
            put_option(st, n_options, g, -1)
            n_options += 1
    return n_options


@njit_noalloc
def shift_market(st, log, p, g, direction):
    """One good of kind g moves from the supply into its market column (+1) or back (-1)."""
    st[S_MARKET + g] += direction
    st[S_SUPPLY + g] -= direction
    log_event(st, log, EV_NUDGE, p, g, direction, 0, 0)


@njit_noalloc
def list_trades(P, st, p):
    """Central Plaza: stop, or buy or sell one good of a kind seat p can trade now."""
    put_option(st, 0, -1, 0)
    n_options = 1
    for g in range(LLAMA, N_GOODS):
        if can_buy(P, st, p, g):
            put_option(st, n_options, g, 1)
            n_options += 1
        if can_sell(P, st, p, g):
            put_option(st, n_options, g, -1)
            n_options += 1
    return n_options


@njit_inline
def visit_plaza(P, st, stream, log, kinds, W, p):
    """Central Plaza: the price nudge, then buy (bottom up) and sell (top down) any number of goods
    for corn, with the 6-corn and 3-corn fall-backs of an empty or full column."""
    if P[R_PRICE_NUDGE]:
        picked = ask(P, st, stream, kinds, W, p, DEC_PRICE_NUDGE, list_price_nudges(P, st))
        if option_a(st, picked) >= 0:
            shift_market(st, log, p, option_a(st, picked), option_b(st, picked))
    for _ in range(P[R_TRADE_LIMIT]):
        picked = ask(P, st, stream, kinds, W, p, DEC_TRADE, list_trades(P, st, p))
        g = option_a(st, picked)
        if g < 0:
            return
        trade(P, st, log, p, g, option_b(st, picked))


# ------------------------------------------------------------------ Sun Clock
@njit_noalloc
def list_clock_workers(st, p):
    """Sun Clock: none, or a production district holding one of seat p's workers."""
    at = seat_at(p)
    put_option(st, 0, -1, 0)
    n_options = 1
    for d in range(N_PRODUCTION):
        if st[at + P_WORKERS + d] > 0:
            put_option(st, n_options, d, 0)
            n_options += 1
    return n_options


@njit_noalloc
def send_worker_to_clock(P, st, stream, log, kinds, W, p, d):
    """Sun Clock: the worker leaves district d. It returns at night with its reward; on the last day
    the reward comes at once and the worker stays to the end (Final Day)."""
    at = seat_at(p)
    st[at + P_WORKERS + d] -= 1
    log_event(st, log, EV_CLOCK, p, d, 0, 0, 0)
    if st[S_DAY] >= P[R_LAST_DAY]:
        st[at + P_CLOCK_STAYING] += 1
        sun_clock_reward(P, st, stream, log, kinds, W, p)
    else:
        st[at + P_CLOCK_WORKERS] += 1


@njit_inline
def visit_sun_clock(P, st, stream, log, kinds, W, p):
    """Sun Clock: move 1 own worker from a production district to the Sun Clock, or none."""
    d = option_a(st, ask(P, st, stream, kinds, W, p, DEC_CLOCK_WORKER, list_clock_workers(st, p)))
    if d >= 0:
        send_worker_to_clock(P, st, stream, log, kinds, W, p, d)


# ------------------------------------------------------------------ an action
@njit_inline
def district_action(P, st, stream, log, kinds, W, p, d):
    """The action of the district the prince entered."""
    if d < N_PRODUCTION:
        enter_production(P, st, stream, log, kinds, W, p, d)
    elif d <= D_MAIN_TEMPLE:
        enter_temple(P, st, stream, log, kinds, W, p, d)
    elif d == D_WATCHMANS_HUT:
        place_workers(P, st, stream, log, kinds, W, p, (1 << D_CORN_TERRACES) | (1 << D_LLAMAS_MEADOW),
                      DEC_WATCHMAN)
    elif d == D_ROYAL_PALACE:
        place_workers(P, st, stream, log, kinds, W, p,
                      (1 << D_COCA_PLANTATION) | (1 << D_POTTERS_QUARTER) | (1 << D_WEAVERS_QUARTER), DEC_PALACE)
    elif d == D_HOUSE_OF_PRIESTS:
        buy_priest(P, st, stream, log, kinds, W, p, K_PUMA, K_CONDOR, DEC_PRIESTS)
    elif d == D_HOUSE_OF_VIRGINS:
        buy_priest(P, st, stream, log, kinds, W, p, K_SUN, K_SUN, DEC_VIRGINS)
    elif d == D_CENTRAL_PLAZA:
        visit_plaza(P, st, stream, log, kinds, W, p)
    else:
        visit_sun_clock(P, st, stream, log, kinds, W, p)


@njit_noalloc
def list_moves(P, st, p):
    """Game Flow: the first action places the prince anywhere; later it enters an adjacent district
    free, any other district for 1 llama, never its own; or it stays and takes a moon tile."""
    at = seat_at(p)
    here = st[at + P_PRINCE]
    n_options = 0
    for d in range(N_DISTRICTS):
        if here == NOWHERE or (d != here and adjacent(P, here, d)):
            put_option(st, n_options, d, 0)
            n_options += 1
        elif d != here and goods(st, p, LLAMA) >= P[R_JUMP_COST]:
            put_option(st, n_options, d, 1)
            n_options += 1
    if here != NOWHERE:
        put_option(st, n_options, STAY, 0)
        n_options += 1
    return n_options


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def move_prince(P, st, stream, log, kinds, W, p, d, jumped):
    """Game Flow: the prince enters district d (paying the llama for a jump) and its action follows."""
    at = seat_at(p)
    if jumped:
        pay_to_supply(st, p, LLAMA, P[R_JUMP_COST])
        st[at + P_JUMPS] += 1
    st[at + P_PRINCE] = d
    log_event(st, log, EV_MOVE, p, d, jumped, 0, 0)
    district_action(P, st, stream, log, kinds, W, p, d)


@njit_inline
def begin_action(P, st, log, p):
    """Game Flow: seat p's action starts (with README ambiguity 8's switch on, the trail rewards
    earned since its last turn are paid first)."""
    at = seat_at(p)
    if P[R_REWARDS_WAIT]:
        pay_trail_rewards(st, log, p)
    st[S_ACTOR] = p
    st[S_ACTIONS] += 1
    st[at + P_ACTIONS] += 1


@njit_inline
def carry_out(P, st, stream, log, kinds, W, p, picked):
    """Option `picked` of list_moves: stay for a moon tile or enter a district; then the trail
    rewards the action earned anyone (Inca Trail)."""
    d = option_a(st, picked)
    if d == STAY:
        take_moon_tile(P, st, stream, log, kinds, W, p)
    else:
        move_prince(P, st, stream, log, kinds, W, p, d, option_b(st, picked))
    if P[R_REWARDS_WAIT] == 0:
        pay_everyones_rewards(st, log, p)


@njit_inline
def take_action(P, st, stream, log, kinds, W, p):
    """Game Flow: one action of seat p, its bot choosing among the moves listed."""
    begin_action(P, st, log, p)
    picked = ask(P, st, stream, kinds, W, p, DEC_ACTION, list_moves(P, st, p))
    carry_out(P, st, stream, log, kinds, W, p, picked)


# ------------------------------------------------------------------ days and nights
@njit_noalloc
def restock(P, st):
    """Night Phase, New Goods (and Setup): 1 good (3 corn) on each production district and 1 stone
    on each temple, up to 2 goods, 6 corn or 2 stones lying there."""
    for d in range(N_PRODUCTION):
        if d == CORN:
            add, cap = P[R_RESTOCK_CORN], P[R_CORN_CAP]
        else:
            add, cap = P[R_RESTOCK_GOODS], P[R_GOODS_CAP]
        n = min(add, max(0, cap - st[S_DISTRICT + d]), st[S_SUPPLY + d])
        st[S_DISTRICT + d] += n
        st[S_SUPPLY + d] -= n
    for d in range(FIRST_TEMPLE, D_MAIN_TEMPLE + 1):
        n = min(P[R_RESTOCK_STONES], max(0, P[R_STONE_CAP] - st[S_DISTRICT + d]), st[S_STONE_SUPPLY])
        st[S_DISTRICT + d] += n
        st[S_STONE_SUPPLY] -= n


@njit_noalloc
def take_time_corn(P, st, log, p):
    """End of a Day: the last player to act takes the corn above the time marker (README ambiguity
    4; with the switch off the corn goes back to the supply)."""
    corn = min(P[R_TIME_CORN], st[S_TIME_CORN])
    st[S_TIME_CORN] -= corn
    if P[R_DAY_CORN_TO_LAST]:
        st[seat_at(p) + P_GOODS + CORN] += corn
    else:
        st[S_SUPPLY + CORN] += corn
    log_event(st, log, EV_DAY_CORN, p, corn, 0, 0, 0)


@njit_level(f"void({T_PARAMS}, {T_STATE})")
def check_invariants(P, st):
    """Components are neither created nor lost: goods, corn, workers, offering and priest cards,
    temple stones and moon tiles; no count below zero."""
    n = n_players(st)
    for g in range(N_GOODS):
        total = st[S_SUPPLY + g] + st[S_DISTRICT + g]
        if g == CORN:
            total += st[S_TIME_CORN]
        else:
            total += st[S_MARKET + g]
            if st[S_MARKET + g] < 0 or st[S_MARKET + g] > market_length(P, g):
                st[S_ERROR] = ERR_NEGATIVE
        if st[S_SUPPLY + g] < 0 or st[S_DISTRICT + g] < 0:
            st[S_ERROR] = ERR_NEGATIVE
        for p in range(n):
            held = st[seat_at(p) + P_GOODS + g]
            if held < 0:
                st[S_ERROR] = ERR_NEGATIVE
            total += held
        if total != P[R_SUPPLY + g]:
            st[S_ERROR] = ERR_CORN if g == CORN else ERR_GOODS
    cards_held = 0
    for p in range(n):
        at = seat_at(p)
        workers = st[at + P_FREE_WORKERS] + st[at + P_CLOCK_WORKERS] + st[at + P_CLOCK_STAYING]
        for d in range(N_PRODUCTION):
            workers += st[at + P_WORKERS + d]
            if st[at + P_WORKERS + d] < 0:
                st[S_ERROR] = ERR_NEGATIVE
        if workers != P[R_WORKERS + n] or st[at + P_FREE_WORKERS] < 0:
            st[S_ERROR] = ERR_WORKERS
        in_hand = 0
        for c in range(st[S_N_CARDS]):
            in_hand += st[at + P_HAND + c]
        if in_hand != st[at + P_HAND_N]:
            st[S_ERROR] = ERR_CARDS
        for icon in range(N_ICONS):
            if st[at + P_ICONS + icon] != count_icons(P, st, p, icon):
                st[S_ERROR] = ERR_CARDS
        cards_held += in_hand
    if cards_held + st[S_DECK_SIZE] != st[S_N_CARDS]:
        st[S_ERROR] = ERR_CARDS
    priests_taken = 0
    for k in range(N_KINDS):
        held = 0
        for p in range(n):
            held += st[seat_at(p) + P_PRIESTS + k]
        if held != st[S_TAKEN + k] or held > priest_field(P, k, PF_COUNT):
            st[S_ERROR] = ERR_PRIESTS
        priests_taken += held
    if priests_taken + st[S_PRIESTS_LEFT] != (priest_field(P, K_SUN, PF_COUNT) + priest_field(P, K_PUMA, PF_COUNT)
                                              + priest_field(P, K_CONDOR, PF_COUNT)):
        st[S_ERROR] = ERR_PRIESTS
    stones = st[S_STONE_SUPPLY]
    for d in range(FIRST_TEMPLE, D_MAIN_TEMPLE + 1):
        stones += st[S_DISTRICT + d]
    if stones != P[R_STONES]:
        st[S_ERROR] = ERR_STONES
    held_tiles = 0
    for t in range(st[S_N_MOON]):
        if st[S_MOON_HOLDER + t] >= 0:
            held_tiles += 1
    if held_tiles != st[S_MOONS_TAKEN]:
        st[S_ERROR] = ERR_MOON


@njit_inline
def begin_day(st, log):
    """Game Flow: a new day, no district entered and no moon tile taken yet."""
    st[S_MOONS_TAKEN] = 0
    st[S_SUN_HOLDER] = -1
    st[S_EXTRA_LEFT] = 0
    for d in range(N_DISTRICTS):
        st[S_VISITED + d] = 0
    log_event(st, log, EV_DAY, st[S_DAY], st[S_START], 0, 0, 0)


DAY_GOES_ON = 0
DAY_OVER = 1
DAY_STOPPED = 2  # an end condition was met (or an engine error): the game ends after the action


@njit_noalloc
def after_action(P, st, log, p, checked):
    """End of a Day, after seat p's action: the 3rd moon tile gives its taker the sun tile, then
    every other player acts once more and the last takes the time-track corn. Returns DAY_GOES_ON,
    DAY_OVER or DAY_STOPPED."""
    if checked:
        check_invariants(P, st)
    if st[S_ERROR] != ERR_NONE or st[S_END_PENDING] != END_NONE:
        return DAY_STOPPED
    if st[S_ACTIONS] >= P[R_ACTION_LIMIT]:
        st[S_END_PENDING] = END_ACTION_LIMIT
        return DAY_STOPPED
    if st[S_SUN_HOLDER] < 0:
        if st[S_MOONS_TAKEN] >= P[R_MOONS_TO_END_DAY]:
            st[S_SUN_HOLDER] = p
            st[S_EXTRA_LEFT] = n_players(st) - 1
            log_event(st, log, EV_SUN, p, 0, 0, 0, 0)
    else:
        st[S_EXTRA_LEFT] -= 1
    if st[S_SUN_HOLDER] >= 0 and st[S_EXTRA_LEFT] == 0:
        take_time_corn(P, st, log, p)
        return DAY_OVER
    return DAY_GOES_ON


@njit_inline
def play_day_from(P, st, stream, log, kinds, W, p, checked):
    """Game Flow: actions round the table from seat p until the day is over or the game stops."""
    while True:
        take_action(P, st, stream, log, kinds, W, p)
        if after_action(P, st, log, p, checked) != DAY_GOES_ON:
            return
        p = (p + 1) % n_players(st)


@njit_inline
def play_day(P, st, stream, log, kinds, W, checked):
    """Game Flow and End of a Day: actions round the table from the start player until the day's
    last action; returns early when an end condition is met (it ends the game after the action)."""
    begin_day(st, log)
    play_day_from(P, st, stream, log, kinds, W, st[S_START], checked)


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, boolean)")
def play_night(P, st, stream, log, kinds, W, checked):
    """Night Phase: moon tiles used, Sun Clock workers return with their reward, new goods and
    stones, the time marker moves on and the sun-tile holder starts the new day. Players act in turn
    order from the new start player; each one's step counts as their action for the trail rewards
    and the end conditions."""
    n = n_players(st)
    first = st[S_SUN_HOLDER]
    for i in range(n):
        p = (first + i) % n
        use_held_moon_tiles(P, st, stream, log, kinds, W, p)
        if P[R_REWARDS_WAIT] == 0:
            pay_trail_rewards(st, log, p)
        if st[S_END_PENDING] != END_NONE or st[S_ERROR] != ERR_NONE:
            return
    for i in range(n):
        p = (first + i) % n
        at = seat_at(p)
        while st[at + P_CLOCK_WORKERS] > 0:
            st[at + P_CLOCK_WORKERS] -= 1
            st[at + P_FREE_WORKERS] += 1
            sun_clock_reward(P, st, stream, log, kinds, W, p)
        if P[R_REWARDS_WAIT] == 0:
            pay_trail_rewards(st, log, p)
        if st[S_END_PENDING] != END_NONE or st[S_ERROR] != ERR_NONE:
            return
    restock(P, st)
    st[S_DAY] += 1
    st[S_START] = first
    st[S_SUN_HOLDER] = -1
    if checked:
        check_invariants(P, st)


# ------------------------------------------------------------------ setup
@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64)")
def setup(P, st, stream, log, kinds, W, n):
    """Setup: each seat's weights fingerprint (bots.put_line_up_prints), supply, market (6 and 5
    covered), the shuffled offering deck, the start player drawn ("choose any player"), 1 card dealt
    each, the time marker and its corn, each player's goods, workers and scout (start player on slab
    1, the next clockwise on 2, ...), one starting worker each in turn order from the start player,
    then the first day's stones and goods."""
    st[S_N_PLAYERS] = n
    put_line_up_prints(st, W)
    st[S_WINNER] = -1
    st[S_SUN_HOLDER] = -1
    st[S_N_CARDS] = P[H_N_CARDS]
    st[S_N_MOON] = P[H_N_MOON]
    for g in range(N_GOODS):
        st[S_SUPPLY + g] = P[R_SUPPLY + g]
    st[S_STONE_SUPPLY] = P[R_STONES]
    priests = 0
    for k in range(N_KINDS):
        priests += priest_field(P, k, PF_COUNT)
    st[S_PRIESTS_LEFT] = priests
    for g in range(LLAMA, N_GOODS):
        n_market = min(P[R_MARKET_SETUP], market_length(P, g), st[S_SUPPLY + g])
        st[S_MARKET + g] = n_market
        st[S_SUPPLY + g] -= n_market
    for t in range(st[S_N_MOON]):
        st[S_MOON_HOLDER + t] = -1
    for c in range(st[S_N_CARDS]):
        st[S_DECK + c] = c
    rng.shuffle(stream, st[S_DECK:S_DECK + st[S_N_CARDS]], st[S_N_CARDS])
    first = rng.randint(stream, n)  # "choose any player to be the start player"
    st[S_START] = first
    st[S_DECK_HEAD] = 0
    st[S_DECK_SIZE] = st[S_N_CARDS]
    st[S_DAY] = P[R_START_DAY + n]
    days = max(0, P[R_LAST_DAY] - st[S_DAY] + 1)
    corn = min(days * P[R_TIME_CORN], st[S_SUPPLY + CORN])
    st[S_TIME_CORN] = corn
    st[S_SUPPLY + CORN] -= corn
    for p in range(n):
        at = seat_at(p)
        for _ in range(min(P[R_CARDS_DEALT], st[S_DECK_SIZE])):
            add_to_hand(P, st, p, draw_offering(st))
        for g in range(N_GOODS):
            take_from_supply(st, p, g, P[R_START_GOODS + g])
        st[at + P_FREE_WORKERS] = P[R_WORKERS + n]
        st[at + P_PRINCE] = NOWHERE
        st[at + P_START_ORDER] = (p - first + n) % n
        st[at + P_SCOUT] = P[R_FIRST_SCOUT] + st[at + P_START_ORDER]
    for i in range(n):
        p = (first + i) % n
        at = seat_at(p)
        if st[at + P_FREE_WORKERS] == 0:
            continue
        for d in range(N_PRODUCTION):
            put_option(st, d, d, 0)
        d = option_a(st, ask(P, st, stream, kinds, W, p, DEC_START_WORKER, N_PRODUCTION))
        st[at + P_FREE_WORKERS] -= 1
        st[at + P_WORKERS + d] += 1
        log_event(st, log, EV_WORKER, p, d, 0, 0, 0)
    restock(P, st)


# ------------------------------------------------------------------ the end
@njit_noalloc
def trail_bonus(P, st, p, granary_value, stable_value):
    """Scoring / Gold: a scout on spaces 7-12 earns the Granary's bonus, on 13-19 the Stable's."""
    space = st[seat_at(p) + P_SCOUT]
    if space >= P[R_STABLE]:
        return stable_value
    if space >= P[R_GRANARY]:
        return granary_value
    return 0


@njit_noalloc
def score_player(P, st, p):
    """Scoring: each goods icon scores per own worker in that production district, each temple icon
    per own card of that kind; the trail bonus and any compensation are added."""
    at = seat_at(p)
    from_workers = 0
    for g in range(N_GOODS):
        from_workers += icons_held(P, st, p, g) * st[at + P_WORKERS + g]
    from_priests = 0
    for k in range(N_KINDS):
        from_priests += icons_held(P, st, p, ICON_KIND + k) * st[at + P_PRIESTS + k]
    from_trail = trail_bonus(P, st, p, P[R_GRANARY_POINTS], P[R_STABLE_POINTS])
    st[at + P_SCORE_WORKERS] = from_workers
    st[at + P_SCORE_PRIESTS] = from_priests
    st[at + P_SCORE_TRAIL] = from_trail
    st[at + P_GOLD] = gold_held(P, st, p) + trail_bonus(P, st, p, P[R_GRANARY_GOLD], P[R_STABLE_GOLD])
    st[at + P_MULTIPLIER] = 1
    st[at + P_SCORE] = from_workers + from_priests + from_trail + st[at + P_COMPENSATION]
    value = goods(st, p, CORN) // P[R_CORN_AS_GOOD]
    for g in range(LLAMA, N_GOODS):
        value += goods(st, p, g)
    st[at + P_GOODS_VALUE] = value


@njit_noalloc
def apply_gold_multipliers(P, st):
    """Gold: on the Spanish arrival the most gold triples its points, the second-most doubles them;
    tied players share the multiplier, and the next amount after a tie for most is still second."""
    n = n_players(st)
    most = -1
    for p in range(n):
        most = max(most, st[seat_at(p) + P_GOLD])
    second = -1
    for p in range(n):
        gold = st[seat_at(p) + P_GOLD]
        if gold < most:
            second = max(second, gold)
    for p in range(n):
        at = seat_at(p)
        if st[at + P_GOLD] == most:
            st[at + P_MULTIPLIER] = P[R_FIRST_MULTIPLIER]
        elif st[at + P_GOLD] == second:
            st[at + P_MULTIPLIER] = P[R_SECOND_MULTIPLIER]
        else:
            st[at + P_MULTIPLIER] = 1
        st[at + P_SCORE] *= st[at + P_MULTIPLIER]


@njit_noalloc
def rank_players(st, has_result):
    """Winning: most points; on a tie more goods (3 corn = 1 good); players still tied share."""
    n = n_players(st)
    for p in range(n):
        at = seat_at(p)
        better = 0
        for q in range(n):
            bq = seat_at(q)
            if st[bq + P_SCORE] > st[at + P_SCORE] or (
                    st[bq + P_SCORE] == st[at + P_SCORE] and st[bq + P_GOODS_VALUE] > st[at + P_GOODS_VALUE]):
                better += 1
        st[at + P_RANK] = better + 1
    winners = 0
    for p in range(n):
        if st[seat_at(p) + P_RANK] == 1:
            winners += 1
            st[S_WINNER] = p
    for p in range(n):
        st[seat_at(p) + P_WON] = 1 if has_result and st[seat_at(p) + P_RANK] == 1 else 0
    if winners != 1 or not has_result:
        st[S_WINNER] = -1


@njit_noalloc
def finish_game(P, st, log):
    """Game End, Scoring, Gold and Winning, for the end condition met."""
    n = n_players(st)
    reason = st[S_END_PENDING]
    st[S_END_REASON] = reason
    pay_everyones_rewards(st, log, st[S_ACTOR])
    for p in range(n):
        score_player(P, st, p)
    if reason == END_SPANISH:
        apply_gold_multipliers(P, st)
    rank_players(st, reason != END_ACTION_LIMIT)
    log_event(st, log, EV_END, reason, 0, 0, 0, 0)
    for p in range(n):
        at = seat_at(p)
        log_event(st, log, EV_FINAL, p, st[at + P_SCORE], st[at + P_RANK], st[at + P_GOLD], st[at + P_MULTIPLIER])


# ------------------------------------------------------------------ checked mode


# ------------------------------------------------------------------ a whole game
@njit_inline
def end_of_day(P, st, stream, log, kinds, W, checked):
    """After a day: the Spanish arrive after day 9 (Game End 3); otherwise the night. Whether the
    game goes on with a new day (no end condition met, no engine error)."""
    st[S_DAYS_PLAYED] += 1
    if st[S_ERROR] != ERR_NONE or st[S_END_PENDING] != END_NONE:
        return False
    if st[S_DAY] >= P[R_LAST_DAY]:
        st[S_END_PENDING] = END_SPANISH
        return False
    play_night(P, st, stream, log, kinds, W, checked)
    return st[S_END_PENDING] == END_NONE and st[S_ERROR] == ERR_NONE


@njit_inline
def end_game(P, st, log, checked):
    """Game End: the final scoring, unless an engine error stopped the game."""
    if st[S_ERROR] == ERR_NONE:
        finish_game(P, st, log)
        if checked:
            check_invariants(P, st)


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, uint64, uint64, boolean)")
def play_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked):
    """One game from its seed: setup, days and nights until an end condition, the final scoring."""
    rng.seed_game_stream(stream, run_seed, game_index)
    setup(P, st, stream, log, kinds, W, n)
    if checked:
        check_invariants(P, st)
    while st[S_ERROR] == ERR_NONE:
        play_day(P, st, stream, log, kinds, W, checked)
        if not end_of_day(P, st, stream, log, kinds, W, checked):
            break
    end_game(P, st, log, checked)


@njit(cache=True)
def new_game_arrays(logging):
    st = np.zeros(N_STATE, np.int64)
    stream = np.zeros(rng.STATE_WORDS, np.uint64)
    log = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int64)
    return st, stream, log
