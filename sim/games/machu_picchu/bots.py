"""Machu Picchu bots: every decision the rulebook gives a player, asked with its options listed.

The rules list a decision's options in the state (st[S_OPTIONS + i * N_OPT + O_*], meaning by
decision code in state.py DEC_*) and call `choose`, which returns the index of the option taken.

- The random-legal bot (kind `random`) takes any listed option with equal chance: the floor every
  other bot must beat.
- The heuristic (kind `heuristic`; a `search` bot plays it at every decision it does not search,
  search.py) values each option by its direct effects on its own holdings
  (delta features, never a copy of the state played forward) in points, through its weight vector
  (WEIGHT_NAMES), and takes the best; ties go to the first listed. Styles are weight vectors in
  bots.toml.
- The fast kind (kind `fast`) is the heuristic without the plan: goods are worth what they are
  held for, none gathered for a purchase (no plan table, no plan change per good), whatever its
  `plan` weight. The plan was about 40% of a heuristic game's time and, measured on the tuned
  styles, won nothing (benchmarks/HISTORY.md, Machu Picchu, sixth session); the default line-up plays it.

Values, in points: a good is worth its weight, less for each one already held (saturation); a
trail step its weight; a worker or priest/virgin card a base value plus what the offering cards in
hand score for it, plus what it yields in the days left; an offering card what it scores now and
its gold.
"""
import numpy as np

from sim.core import rng
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed

from .state import (
    CF_GOLD, CF_ICONS, CORN, DEC_ACTION, DEC_CLOCK_GOODS, DEC_CLOCK_WORKER, DEC_LLAMA_OFFERING,
    DEC_MAIN_OFFERING, DEC_MOON_TILE, DEC_MOON_USE, DEC_PALACE, DEC_PRICE_NUDGE, DEC_PRIESTS, DEC_PRODUCE,
    DEC_START_WORKER, DEC_SUMMIT_RETURN, DEC_TRADE, DEC_VIRGINS, DEC_WATCHMAN, D_CENTRAL_PLAZA,
    D_HOUSE_OF_PRIESTS, D_HOUSE_OF_VIRGINS, D_MAIN_TEMPLE, D_ROYAL_PALACE, D_WATCHMANS_HUT, FIRST_TEMPLE,
    ICON_KIND, KIND_CHAIN, KIND_FAST, KIND_RANDOM, K_CONDOR, K_PUMA, K_SUN, LLAMA, MF_GOOD, MF_STEPS, MOON_CORN, MOON_GOOD,
    MOON_STEPS, N_GOODS, N_KINDS, N_OPT, N_PF, N_PRODUCTION, O_A, O_B, PF_COST, PF_COUNT, PRIEST_AT,
    P_FREE_WORKERS, P_GOODS, P_PRIESTS, P_WORKERS, R_CLOCK_STEPS, R_CORN_AS_GOOD, R_CORN_YIELD,
    R_LAST_DAY, R_MAIN_STEPS, R_MOONS_TO_END_DAY, R_MOON_CORN, R_MOON_GOOD_COST, R_PRODUCTION_COST,
    R_STONE_STEPS, R_SUMMIT_DRAW, STAY, S_DAY, S_DISTRICT, S_MARKET, S_MOONS_TAKEN, S_OPTIONS, S_SUPPLY,
    S_CLOCK_GOOD, S_CLOCK_REWARD, S_GOOD_BASE, S_PULL, S_GAIN, S_GAIN_SET, S_PLAN_BEST, S_PLAN_GOODS, S_PLAN_MISS, S_PLAN_N_NEED, S_PLAN_NEEDER, S_PLAN_N_LOSE, S_PLAN_LOSER, S_PLAN_WITHOUT, S_PLAN_REACH, S_SEAT_NET,
    S_ICON_HIT, S_ICON_SET, S_TARGET_COST, S_TAKEN, S_VALUE_SET, S_KEEP_OWNER, S_KEEP_HOLD, S_KEEP_PLAN, S_SEAT_KEY, N_SEAT_KEY, SK_VALID, SK_PRINT, SK_DAY, SK_TAKEN, SK_VISITED, SK_ICONS, SK_OWN, S_SEAT_VALUE_SET, S_SEAT_VALUE, N_POWERS, S_SEAT_POWERS, S_WEIGHTS_PRINT, N_ICONS, P_ICONS, MEMO_CHANGE, N_CHANGES, S_VISITED, T_PARAMS, T_STATE, T_STREAM, WCOST_AT, W_CARD_GOLD, W_CARD_ICON, W_CLOCK,
    W_FUTURE, W_GOODS, W_JUMP, W_LAPS, W_MOON, W_NOISE, W_OFFER_USES, W_PLAN, W_PLAZA, W_PRIEST, W_PRIEST_ICON,
    W_GOODS_END, W_LLAMA_OFFER, W_PULL, W_YIELD_STEPS, W_KEEP, W_DENY, W_GIFT, W_TRAIL_END, W_MOON_BEST, S_MOON_HOLDER, S_N_MOON, P_SCOUT, R_SUMMIT, R_GRANARY, R_STABLE, R_GRANARY_POINTS, R_GRANARY_GOLD,
    R_STABLE_POINTS, R_STABLE_GOLD, NOWHERE, P_PRINCE, S_N_PLAYERS, adjacent, W_PURSUIT, W_SATURATION, W_STEP, W_SUN, W_WORKER, W_WORKER_ICON, H_N_CARDS, N_TARGETS, card_field, cards_showing,
    icons_held, moon_field, priest_field, seat_at, smallest_uncovered,
    trade_allowed, trade_price,
)

NO_VALUE = -1e18


@njit_typed(f"float64({T_STATE}, int64)")
def real_at(st, i):
    """A float64 kept by its bits in the state's work rows."""
    return np.int64(st[i]).view(np.float64)


@njit_typed(f"void({T_STATE}, int64, float64)")
def put_real(st, i, value):
    st[i] = np.float64(value).view(np.int64)


@njit_typed(f"int64({T_STATE}, int64, int64)")
def held(st, p, g):
    return st[seat_at(p) + P_GOODS + g]


@njit_typed("float64(float64[::1], float64, int64, int64)")
def units_value(w, base, have, change):
    """good_value of any number of units but one."""
    total = 0.0
    if change >= 0:
        for i in range(change):
            total += base / (1.0 + w[W_SATURATION] * (have + i))
    else:
        for i in range(-change):
            total -= base / (1.0 + w[W_SATURATION] * max(0, have - 1 - i))
    return total


@njit_inline
def good_value(P, st, w, p, g, change):
    """Points of `change` units of good g (negative: given up) for a holder of the current stock:
    the unit's worth this decision (good_bases) and each unit beyond those held worth a little less
    (saturation). A single unit (most gains) is
    worked out in place: this is copied into its callers, the rest is units_value."""
    base = real_at(st, S_GOOD_BASE + g)
    have = held(st, p, g)
    if change == 1:
        return base / (1.0 + w[W_SATURATION] * have)
    if change == -1:
        return -base / (1.0 + w[W_SATURATION] * max(0, have - 1))
    return units_value(w, base, have, change)


@njit_typed(f"int64({T_PARAMS}, int64)")
def unit_of(P, g):
    return P[R_CORN_AS_GOOD] if g == CORN else 1


@njit_noalloc
def days_left(P, st):
    return max(0, P[R_LAST_DAY] - st[S_DAY])


@njit_noalloc
def trail_end_bonus(P, w, space):
    """Scoring and Gold: a scout on the Granary's spaces (7-12) scores its point and gold, on the
    Llama Stable's (13-19) the Stable's, at the offering cards' weights per point and per gold."""
    if space >= P[R_STABLE]:
        return w[W_CARD_ICON] * P[R_STABLE_POINTS] + w[W_CARD_GOLD] * P[R_STABLE_GOLD]
    if space >= P[R_GRANARY]:
        return w[W_CARD_ICON] * P[R_GRANARY_POINTS] + w[W_CARD_GOLD] * P[R_GRANARY_GOLD]
    return 0.0


@njit_noalloc
def summit_gold(P):
    """The gold a summit's draw brings, expected: the most gold among R_SUMMIT_DRAW cards drawn from
    the whole deck (P(most <= g) = C(cards with <= g, k) / C(cards, k))."""
    n = P[H_N_CARDS]
    k = P[R_SUMMIT_DRAW]
    top = 0
    for c in range(n):
        top = max(top, card_field(P, c, CF_GOLD))
    expected = 0.0
    below = 0.0
    for g in range(top + 1):
        at_most = 0
        for c in range(n):
            if card_field(P, c, CF_GOLD) <= g:
                at_most += 1
        share = 1.0
        for i in range(k):
            share *= max(0, at_most - i) / max(1, n - i)
        expected += g * (share - below)
        below = share
    return expected


@njit_noalloc
def end_steps(P, st, w, p, steps):
    """On the last day (Final Day: no day follows) steps also change where the scout ends: `trail_end`
    times the Granary or Stable bonus they reach, or lose by passing the summit (Inca Trail: the scout
    goes on from space 0; Scoring, Gold) for the gold of the summit's cards (summit_gold), beside the
    steps' own worth. 0 on the other days."""
    if w[W_TRAIL_END] == 0.0 or steps <= 0 or days_left(P, st) > 0:
        return 0.0
    space = st[seat_at(p) + P_SCOUT]
    to = space + steps
    worth = -trail_end_bonus(P, w, space)
    if to >= P[R_SUMMIT]:
        to = min(to - P[R_SUMMIT], P[R_SUMMIT] - 1)
        worth += w[W_CARD_GOLD] * summit_gold(P)
    return w[W_TRAIL_END] * (worth + trail_end_bonus(P, w, to))


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, int64)")
def summit_hit(P, st, icon):
    """The chance that a summit's draw shows the icon: it reads only P, so it is worked out once a game."""
    if st[S_ICON_SET] & (1 << icon):
        return real_at(st, S_ICON_HIT + icon)
    miss = (1.0 - cards_showing(P, icon) / max(1, P[H_N_CARDS])) ** P[R_SUMMIT_DRAW]
    put_real(st, S_ICON_HIT + icon, 1.0 - miss)
    st[S_ICON_SET] |= 1 << icon
    return 1.0 - miss


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def expected_icons(P, st, w, p, icon):
    """Icons of one kind on the cards held, and those the player can still expect: `laps` summits per
    day left, each drawing 3 cards of which the player keeps one showing the icon when any does (the
    deck's share of cards showing it)."""
    return icons_held(P, st, p, icon) + w[W_LAPS] * days_left(P, st) * summit_hit(P, st, icon)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64)")
def llama_offer_worth(P, st, w, p):
    """A llama offered with seat p's priest/virgin cards: `llama_offer` times the steps it buys at the
    best temple of a kind p holds (the smallest number uncovered in its row); 0 without a card."""
    at = seat_at(p)
    best = 0
    for k in range(N_KINDS):
        if st[at + P_PRIESTS + k] > 0:
            best = max(best, smallest_uncovered(P, k, st[S_TAKEN + k]))
    return w[W_LLAMA_OFFER] * w[W_STEP] * best


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def worker_worth(P, st, w, p, d):
    """A worker on production district d: its base value, the points the icons held and expected
    give it, and what it produces in the days left (a llama at least its offering worth while the
    player holds a priest/virgin card, llama_offer_worth; any day's good, 3 corn counting as one,
    at least `yield_steps` times the steps it buys at the Main Temple, where every good ends unless
    it pays for something)."""
    offered = w[W_YIELD_STEPS] * w[W_STEP] * P[R_MAIN_STEPS]
    if d == CORN:
        yield_value = max(P[R_CORN_YIELD] * w[W_GOODS + CORN], offered)
    else:
        unit = max(w[W_GOODS + d], offered)
        if d == LLAMA:
            unit = max(unit, llama_offer_worth(P, st, w, p))
        yield_value = max(0.0, unit - P[R_PRODUCTION_COST] * w[W_GOODS + CORN])
    return (w[W_WORKER] + w[W_WORKER_ICON] * expected_icons(P, st, w, p, d)
            + w[W_FUTURE] * days_left(P, st) * yield_value)


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def steps_if_taken(P, st, k):
    """The number a llama of kind k is worth once one more card of the kind is taken."""
    return smallest_uncovered(P, k, min(st[S_TAKEN + k] + 1, priest_field(P, k, PF_COUNT)))


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def temple_openings(P, st, k):
    """The first entries of kind k's temple still to come: one a day left, and today's if nobody
    entered it yet (every holder offers at each, whoever enters)."""
    return days_left(P, st) + (1 - st[S_VISITED + FIRST_TEMPLE + k])


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def priest_worth(P, st, w, p, k):
    """A priest/virgin card of kind k: base value, the points the icons held and expected give it,
    and a llama offering (its steps less the llama) at each opening of its temple still to come."""
    per_offering = w[W_STEP] * steps_if_taken(P, st, k) - w[W_GOODS + LLAMA]
    return (w[W_PRIEST] + w[W_PRIEST_ICON] * expected_icons(P, st, w, p, ICON_KIND + k)
            + w[W_OFFER_USES] * temple_openings(P, st, k) * max(0.0, per_offering))


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def work_out_target(P, st, w, p, t):
    """target_value when it is not kept yet."""
    value = priest_worth(P, st, w, p, t) if t < N_KINDS else worker_worth(P, st, w, p, t - N_KINDS)
    put_real(st, S_SEAT_VALUE + p * N_TARGETS + t, value)
    st[S_SEAT_VALUE_SET + p] |= 1 << t
    return value


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def target_value(P, st, w, p, t):
    """A priest/virgin card of kind t (t < N_KINDS) or a worker on district t - N_KINDS, before its
    cost: kept for the seat while what it reads is unchanged (begin_decision's seat key). Small, so
    the kept read is copied into the callers."""
    if st[S_SEAT_VALUE_SET + p] & (1 << t):
        return real_at(st, S_SEAT_VALUE + p * N_TARGETS + t)
    return work_out_target(P, st, w, p, t)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def worker_value(P, st, w, p, d):
    return target_value(P, st, w, p, N_KINDS + d)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def priest_value(P, st, w, p, k):
    return target_value(P, st, w, p, k)


# ------------------------------------------------------------------ the plan: goods gathered for a purchase
@njit_noalloc
def target_cost_at(t):
    """Where target t's cost lies in P: a priest/virgin kind (t < N_KINDS), then a worker per district."""
    if t < N_KINDS:
        return PRIEST_AT + t * N_PF + PF_COST
    return WCOST_AT + (t - N_KINDS) * N_GOODS


@njit_typed(f"int64({T_PARAMS}, int64, int64, int64)")
def units_short(P, need, have, g):
    """Units of good g missing (3 corn count as one)."""
    if have >= need:
        return 0
    unit = unit_of(P, g)
    if unit == 1:
        return need - have
    return (need - have + unit - 1) // unit


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def target_missing(P, st, p, t):
    """Goods (3 corn count as one) seat p still lacks to pay target t; -1 when t cannot be had at all
    (no card of the kind left, or no worker left to place)."""
    if t < N_KINDS:
        if st[S_TAKEN + t] >= priest_field(P, t, PF_COUNT):
            return -1
    elif st[seat_at(p) + P_FREE_WORKERS] == 0:
        return -1
    cost_at = target_cost_at(t)
    missing = 0
    for g in range(N_GOODS):
        missing += units_short(P, P[cost_at + g], held(st, p, g), g)
    return missing


@njit_typed(f"float64({T_STATE}, float64[::1], int64, float64, int64)")
def reach(st, w, p, net, missing):
    """A target's value within reach: its net value, discounted by `pursuit` per good missing (the
    seat's powers of it kept with its seat key)."""
    if missing < N_POWERS:
        return net * real_at(st, S_SEAT_POWERS + p * N_POWERS + missing)
    return net * min(w[W_PURSUIT], 0.95) ** missing


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def work_out_net(P, st, w, p, t):
    """target_net when it is not kept yet."""
    cost_at = target_cost_at(t)
    value = target_value(P, st, w, p, t)
    for g in range(N_GOODS):
        value -= w[W_GOODS + g] * P[cost_at + g]
    net = int(max(0.0, value) * 1000.0) / 1000.0
    put_real(st, S_SEAT_NET + p * N_TARGETS + t, net)
    st[S_SEAT_VALUE_SET + p] |= 1 << (N_TARGETS + t)
    return net


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def target_net(P, st, w, p, t):
    """Target t's value less the base value of its cost, in points (rounded down to thousandths; 0
    when it is worth no more than its cost): kept with the seat's target values (the kept read is
    copied into the callers)."""
    if st[S_SEAT_VALUE_SET + p] & (1 << (N_TARGETS + t)):
        return real_at(st, S_SEAT_NET + p * N_TARGETS + t)
    return work_out_net(P, st, w, p, t)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, float64[::1], int64)")
def add_pulls(P, st, w, p):
    """The plan in one table (the fast kind's): each good a purchase worth more than its cost needs (a
    priest/virgin card of a kind with one left, a worker while p has one) is worth `pull` times the
    best such purchase's net value per good it still lacks (plus one), held or gained alike, so the
    goods of a card or worker within reach are kept for it and gathered. Worked out once a decision,
    from the seat's kept target values."""
    for g in range(N_GOODS):
        put_real(st, S_PULL + g, 0.0)
    for t in range(N_TARGETS):
        missing = target_missing(P, st, p, t)
        if missing < 0:
            continue
        net = target_net(P, st, w, p, t)
        if net == 0.0:
            continue
        cost_at = target_cost_at(t)
        share = net / (missing + 1)
        for g in range(N_GOODS):
            if P[cost_at + g] > 0 and share > real_at(st, S_PULL + g):
                put_real(st, S_PULL + g, share)
    for g in range(N_GOODS):
        put_real(st, S_GOOD_BASE + g, real_at(st, S_GOOD_BASE + g) + w[W_PULL] * real_at(st, S_PULL + g))


@njit_noalloc
def prepare_plan(P, st, w, p):
    """The plan table of seat p's decision (S_PLAN_*): each priest/virgin kind with a card left and
    each worker p still has, worth more than its cost (target_net): the goods missing to pay for it
    and its value within reach; the best of those, and for each good the best of the targets not
    needing it and two lists of those needing it: the ones a gain of it can lift above the best (net
    value above it) and the ones a loss of it can lower the plan by (within reach above the best of
    the targets not needing it). A target left out of a list cannot change plan_change's maximum
    (its value within reach moves towards its net value with a gain and away with a loss, pursuit >=
    0), so the lists keep plan_change exact. Read by plan_change for every option."""
    goods_needed = 0
    best = 0.0
    live = 0
    for g in range(N_GOODS):
        st[S_PLAN_N_NEED + g] = 0
        st[S_PLAN_N_LOSE + g] = 0
        put_real(st, S_PLAN_WITHOUT + g, 0.0)
    for t in range(N_TARGETS):
        missing = target_missing(P, st, p, t)
        if missing < 0:
            continue
        net = target_net(P, st, w, p, t)
        if net == 0.0:  # out of reach: plan_change never reads its rows
            continue
        cost_at = target_cost_at(t)
        st[S_PLAN_MISS + t] = missing
        now = reach(st, w, p, net, missing)
        best = max(best, now)
        put_real(st, S_PLAN_REACH + t, now)
        live |= 1 << t
        for g in range(N_GOODS):
            if P[cost_at + g] > 0:
                goods_needed |= 1 << g
            else:
                put_real(st, S_PLAN_WITHOUT + g, max(real_at(st, S_PLAN_WITHOUT + g), now))
    prune = w[W_PURSUIT] >= 0.0
    for t in range(N_TARGETS):
        if live & (1 << t) == 0:
            continue
        cost_at = target_cost_at(t)
        net = real_at(st, S_SEAT_NET + p * N_TARGETS + t)
        now = real_at(st, S_PLAN_REACH + t)
        for g in range(N_GOODS):
            if P[cost_at + g] > 0:
                if not prune or net > best:
                    st[S_PLAN_NEEDER + g * N_TARGETS + st[S_PLAN_N_NEED + g]] = t
                    st[S_PLAN_N_NEED + g] += 1
                if not prune or now > real_at(st, S_PLAN_WITHOUT + g):
                    st[S_PLAN_LOSER + g * N_TARGETS + st[S_PLAN_N_LOSE + g]] = t
                    st[S_PLAN_N_LOSE + g] += 1
    st[S_PLAN_GOODS] = goods_needed
    put_real(st, S_PLAN_BEST, best)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64, int64)")
def plan_change(P, st, w, p, g, change):
    """What `change` units of good g do to the best purchase within reach (prepare_plan's table):
    goods that bring a priest/virgin card or a worker closer gain, goods it needs lose; weight plan.
    Only the targets of the table's list for a gain or a loss of g are valued again; the rest is
    the best now (a gain) or the best of the targets not needing g (a loss)."""
    if w[W_PLAN] == 0.0 or change == 0 or st[S_PLAN_GOODS] & (1 << g) == 0:
        return 0.0
    have = held(st, p, g)
    if change > 0:
        after = real_at(st, S_PLAN_BEST)
        n, list_at = st[S_PLAN_N_NEED + g], S_PLAN_NEEDER + g * N_TARGETS
    else:
        after = real_at(st, S_PLAN_WITHOUT + g)
        n, list_at = st[S_PLAN_N_LOSE + g], S_PLAN_LOSER + g * N_TARGETS
    for i in range(n):
        t = st[list_at + i]
        need = P[target_cost_at(t) + g]
        missing = (st[S_PLAN_MISS + t] - units_short(P, need, have, g)
                   + units_short(P, need, max(0, have + change), g))
        after = max(after, reach(st, w, p, real_at(st, S_SEAT_NET + p * N_TARGETS + t), missing))
    return w[W_PLAN] * (after - real_at(st, S_PLAN_BEST))


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64, int64)")
def work_out_gain(P, st, w, p, g, change):
    """gain_value when it is not kept yet: worked out, and kept when the change is within the rows."""
    value = good_value(P, st, w, p, g, change) + plan_change(P, st, w, p, g, change)
    k = change + MEMO_CHANGE
    if 0 <= k < N_CHANGES:
        put_real(st, S_GAIN + g * N_CHANGES + k, value)
        st[S_GAIN_SET + g] |= 1 << k
    return value


@njit_inline
def gain_value(P, st, w, p, g, change):
    """`change` units of good g gained (or given up, negative): their worth held, and what they do to
    the purchase the player gathers goods for. Worked out once a decision for each (good, change):
    the options of an action share most of them (a district's goods, a trade, the clock's reward).
    Copied into each caller (a call per gain was a seventh of a game); the rest is work_out_gain. With no
    good in the plan (the fast kind, or no target in reach) a gain is its worth held alone, worked
    out directly (a division for a unit): cheaper than keeping it."""
    if st[S_PLAN_GOODS] == 0:
        return good_value(P, st, w, p, g, change)
    k = change + MEMO_CHANGE
    if 0 <= k < N_CHANGES and st[S_GAIN_SET + g] & (1 << k):
        return real_at(st, S_GAIN + g * N_CHANGES + k)
    return work_out_gain(P, st, w, p, g, change)


@njit_noalloc
def cost_value(P, st, w, p, cost_at, stride):
    """Points given up paying the goods at P[cost_at + g * stride]."""
    total = 0.0
    for g in range(N_GOODS):
        n = P[cost_at + g * stride]
        if n > 0:
            total -= good_value(P, st, w, p, g, -n)
    return total


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def target_cost_value(P, st, w, p, t):
    """Points given up paying target t's cost (cost_value), once a decision."""
    bit = 1 << (N_TARGETS + 1 + t)
    if st[S_VALUE_SET] & bit:
        return real_at(st, S_TARGET_COST + t)
    value = cost_value(P, st, w, p, target_cost_at(t), 1)
    put_real(st, S_TARGET_COST + t, value)
    st[S_VALUE_SET] |= bit
    return value


@njit_noalloc
def affordable(P, st, p, cost_at, stride):
    for g in range(N_GOODS):
        if held(st, p, g) < P[cost_at + g * stride]:
            return False
    return True


@njit_typed(f"void({T_PARAMS}, {T_STATE}, float64[::1], int64)")
def keep_payable(P, st, w, p):
    """Each good of a purchase seat p can pay now or after one more good (a priest/virgin card of a
    kind with one left, a worker while p has one) worth more than its cost is worth at least `keep`
    times that purchase's net value per unit of its cost (halved when a good is still missing): the
    goods in hand for a card or a worker are not offered at the Main Temple or sold before the visit
    that buys it. Nothing is gathered for a purchase two goods away or more (unlike pull, which holds
    every good a worker needs while workers are left). The purchases' own costs are valued first,
    at the goods' worth without it, so paying one is still worth its net value."""
    payable = 0
    for t in range(N_TARGETS):
        missing = target_missing(P, st, p, t)
        if 0 <= missing <= 1 and target_net(P, st, w, p, t) > 0.0:
            payable |= 1 << t
            target_cost_value(P, st, w, p, t)
    for t in range(N_TARGETS):
        if payable & (1 << t) == 0:
            continue
        cost_at = target_cost_at(t)
        units = 0
        for g in range(N_GOODS):
            units += P[cost_at + g]
        share = w[W_KEEP] * target_net(P, st, w, p, t) / (max(1, units) * (1 + target_missing(P, st, p, t)))
        for g in range(N_GOODS):
            if P[cost_at + g] > 0 and share > real_at(st, S_GOOD_BASE + g):
                put_real(st, S_GOOD_BASE + g, share)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, float64[::1], int64)")
def good_bases(P, st, w, p):
    """Each good's unit worth to seat p this decision (S_GOOD_BASE, read by good_value): its weight,
    fading to `goods_end` of it over the last two days (goods score nothing at the end: what they
    buy is valued where it is bought, a worker, a card, steps at the Main Temple or the Sun Clock);
    a llama held with a priest/virgin card whose temple still opens at least `llama_offer` times the
    steps it buys there (the best such temple), whatever the day; and, with `pull`, what a good is
    worth to the purchase it is gathered for (add_pulls)."""
    dl = days_left(P, st)
    fade = w[W_GOODS_END] + (1.0 - w[W_GOODS_END]) * min(1.0, dl / 2.0)
    for g in range(N_GOODS):
        put_real(st, S_GOOD_BASE + g, w[W_GOODS + g] * fade)
    at = seat_at(p)
    offer = 0.0
    for k in range(N_KINDS):
        if st[at + P_PRIESTS + k] > 0 and temple_openings(P, st, k) > 0:
            offer = max(offer, w[W_LLAMA_OFFER] * w[W_STEP] * smallest_uncovered(P, k, st[S_TAKEN + k]))
    if offer > real_at(st, S_GOOD_BASE + LLAMA):
        put_real(st, S_GOOD_BASE + LLAMA, offer)
    if w[W_PULL] != 0.0:
        add_pulls(P, st, w, p)
    if w[W_KEEP] != 0.0:
        keep_payable(P, st, w, p)


@njit_noalloc
def card_value(P, st, w, p, c):
    """An offering card: what its icons score on the player's workers and cards now, and its gold."""
    at = seat_at(p)
    points = 0
    for g in range(N_PRODUCTION):
        points += card_field(P, c, CF_ICONS + g) * st[at + P_WORKERS + g]
    for k in range(N_KINDS):
        points += card_field(P, c, CF_ICONS + ICON_KIND + k) * st[at + P_PRIESTS + k]
    return w[W_CARD_ICON] * points + w[W_CARD_GOLD] * card_field(P, c, CF_GOLD)


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64, int64)")
def moon_use_value(P, st, w, p, t, use):
    if use == MOON_STEPS:
        value = w[W_STEP] * moon_field(P, t, MF_STEPS)
        if w[W_TRAIL_END] != 0.0:
            value += end_steps(P, st, w, p, moon_field(P, t, MF_STEPS))
        return value
    if use == MOON_GOOD:
        return (gain_value(P, st, w, p, moon_field(P, t, MF_GOOD), 1)
                + gain_value(P, st, w, p, CORN, -P[R_MOON_GOOD_COST]))
    return gain_value(P, st, w, p, CORN, P[R_MOON_CORN])


@njit_noalloc
def best_moon_use(P, st, w, p, t):
    best = moon_use_value(P, st, w, p, t, MOON_STEPS)
    best = max(best, moon_use_value(P, st, w, p, t, MOON_CORN))
    if held(st, p, CORN) >= P[R_MOON_GOOD_COST]:
        best = max(best, moon_use_value(P, st, w, p, t, MOON_GOOD))
    return best


@njit_noalloc
def offer_mask_value(P, st, w, p, mask):
    """Main Temple: the steps of the kinds offered against the goods given."""
    total = 0.0
    kinds = 0
    for g in range(N_GOODS):
        if mask & (1 << g):
            total += w[W_STEP] * P[R_MAIN_STEPS] + gain_value(P, st, w, p, g, -unit_of(P, g))
            kinds += 1
    if w[W_TRAIL_END] != 0.0:
        total += end_steps(P, st, w, p, kinds * P[R_MAIN_STEPS])
    return total


@njit_noalloc
def best_main_offering(P, st, w, p):
    """The Main Temple's offering: each kind worth offering on its own (with trail_end, the last
    day's end_steps of the whole offering counted once)."""
    if w[W_TRAIL_END] == 0.0:
        total = 0.0
        for g in range(N_GOODS):
            if held(st, p, g) >= unit_of(P, g):
                total += max(0.0, offer_mask_value(P, st, w, p, 1 << g))
        return total
    total = 0.0
    kinds = 0
    for g in range(N_GOODS):
        if held(st, p, g) >= unit_of(P, g):
            one = offer_mask_value(P, st, w, p, 1 << g) - end_steps(P, st, w, p, P[R_MAIN_STEPS])
            if one > 0.0:
                total += one
                kinds += 1
    return total + end_steps(P, st, w, p, kinds * P[R_MAIN_STEPS])


@njit_noalloc
def clock_goods_value(P, st, w, p, mask):
    total = 0.0
    for g in range(N_GOODS):
        if mask & (1 << g):
            total += gain_value(P, st, w, p, g, unit_of(P, g))
    return total


@njit_noalloc
def best_clock_reward(P, st, w, p):
    """The 3 most valuable kinds of good and the 3 steps a Sun Clock worker brings (once a decision;
    each good in the supply valued once, then the best three taken in turn, ties to the first)."""
    if st[S_VALUE_SET] & (1 << N_TARGETS):
        return real_at(st, S_CLOCK_REWARD)
    for g in range(N_GOODS):
        if st[S_SUPPLY + g] > 0:
            put_real(st, S_CLOCK_GOOD + g, gain_value(P, st, w, p, g, unit_of(P, g)))
    total = 0.0
    used = 0
    for _ in range(3):
        best, best_g = NO_VALUE, -1
        for g in range(N_GOODS):
            if used & (1 << g) or st[S_SUPPLY + g] == 0:
                continue
            value = real_at(st, S_CLOCK_GOOD + g)
            if value > best:
                best, best_g = value, g
        if best_g >= 0:
            used |= 1 << best_g
            total += best
    steps = w[W_STEP] * P[R_CLOCK_STEPS]
    if w[W_TRAIL_END] != 0.0:
        steps += end_steps(P, st, w, p, P[R_CLOCK_STEPS])
    total += steps
    put_real(st, S_CLOCK_REWARD, total)
    st[S_VALUE_SET] |= 1 << N_TARGETS
    return total


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def hire_value(P, st, w, p, d):
    """A worker on production district d, less its cost; -1 when it cannot be had."""
    cost_at = WCOST_AT + d * N_GOODS
    if st[seat_at(p) + P_FREE_WORKERS] == 0 or not affordable(P, st, p, cost_at, 1):
        return -1.0
    return worker_value(P, st, w, p, d) + target_cost_value(P, st, w, p, N_KINDS + d)


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64)")
def can_buy_card(P, st, p, k):
    """Seat p can pay a card of kind k and one is left."""
    return (st[S_TAKEN + k] < priest_field(P, k, PF_COUNT)
            and affordable(P, st, p, PRIEST_AT + k * N_PF + PF_COST, 1))


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64)")
def priest_purchase_value(P, st, w, p, k):
    """A card of kind k, less its cost; -1 when it cannot be had."""
    if not can_buy_card(P, st, p, k):
        return -1.0
    return priest_value(P, st, w, p, k) + target_cost_value(P, st, w, p, k)


@njit_noalloc
def production_value(P, st, w, p, d):
    """First entry of production district d: the goods lying there and the own workers' output."""
    lying = st[S_DISTRICT + d]
    workers = st[seat_at(p) + P_WORKERS + d]
    if d == CORN:
        return gain_value(P, st, w, p, CORN, lying + workers * P[R_CORN_YIELD])
    paid = min(workers, held(st, p, CORN) // max(1, P[R_PRODUCTION_COST]))
    gain = gain_value(P, st, w, p, d, lying + paid) + gain_value(P, st, w, p, CORN, -paid * P[R_PRODUCTION_COST])
    return max(gain_value(P, st, w, p, d, lying), gain)


@njit_noalloc
def temple_value(P, st, w, p, d):
    """First entry of temple d: the stones' steps and the own offering."""
    value = w[W_STEP] * P[R_STONE_STEPS] * st[S_DISTRICT + d]
    stone_steps = P[R_STONE_STEPS] * st[S_DISTRICT + d]
    if w[W_TRAIL_END] != 0.0:
        value += end_steps(P, st, w, p, stone_steps)
    if d == D_MAIN_TEMPLE:
        return value + best_main_offering(P, st, w, p)
    k = d - FIRST_TEMPLE
    cards = st[seat_at(p) + P_PRIESTS + k]
    if cards > 0:
        step = smallest_uncovered(P, k, st[S_TAKEN + k])
        per_llama = w[W_STEP] * step + gain_value(P, st, w, p, LLAMA, -1)
        value += max(0.0, per_llama) * min(cards, held(st, p, LLAMA))
        if per_llama > 0.0 and w[W_TRAIL_END] != 0.0:
            offered = step * min(cards, held(st, p, LLAMA))
            value += end_steps(P, st, w, p, stone_steps + offered) - end_steps(P, st, w, p, stone_steps)
    return value


@njit_inline
def trade_value(P, st, w, p, g, direction, price):
    """What one purchase (+1) or sale (-1) of good g at `price` corn is worth to seat p."""
    if direction > 0:
        return gain_value(P, st, w, p, g, 1) + gain_value(P, st, w, p, CORN, -price)
    return gain_value(P, st, w, p, CORN, price) + gain_value(P, st, w, p, g, -1)


@njit_noalloc
def best_trade_value(P, st, w, p):
    """The best single purchase or sale at the Central Plaza, or 0."""
    best = 0.0
    for g in range(LLAMA, N_GOODS):
        count = st[S_MARKET + g]
        price = trade_price(P, g, 1, count)
        if held(st, p, CORN) >= price:
            best = max(best, trade_value(P, st, w, p, g, 1, price))
        if held(st, p, g) > 0:
            best = max(best, trade_value(P, st, w, p, g, -1, trade_price(P, g, -1, count)))
    return best


@njit_inline
def district_value(P, st, w, p, d):
    """What entering district d is worth to seat p, from the action's best direct effect (copied
    into action_value, its one caller: a call level per option cost about a tenth of a game)."""
    if d < N_PRODUCTION:
        return production_value(P, st, w, p, d) if st[S_VISITED + d] == 0 else 0.0
    if d <= D_MAIN_TEMPLE:
        return temple_value(P, st, w, p, d) if st[S_VISITED + d] == 0 else 0.0
    if d == D_WATCHMANS_HUT:
        return max(0.0, hire_value(P, st, w, p, 0)) + max(0.0, hire_value(P, st, w, p, 1))
    if d == D_ROYAL_PALACE:
        total = 0.0
        for e in range(2, N_PRODUCTION):
            total += max(0.0, hire_value(P, st, w, p, e))
        return total
    if d == D_HOUSE_OF_PRIESTS:
        return max(0.0, max(priest_purchase_value(P, st, w, p, K_PUMA), priest_purchase_value(P, st, w, p, K_CONDOR)))
    if d == D_HOUSE_OF_VIRGINS:
        return max(0.0, priest_purchase_value(P, st, w, p, K_SUN))
    if d == D_CENTRAL_PLAZA:
        return w[W_PLAZA] + best_trade_value(P, st, w, p)
    cheapest = -NO_VALUE
    for e in range(N_PRODUCTION):
        if st[seat_at(p) + P_WORKERS + e] > 0:
            cheapest = min(cheapest, worker_value(P, st, w, p, e))
    if cheapest == -NO_VALUE:
        return 0.0
    return max(0.0, w[W_CLOCK] + best_clock_reward(P, st, w, p) - cheapest)


@njit_noalloc
def clock_value(P, st, w, p, d):
    """A worker from district d to the Sun Clock: its reward, less the worker (re-hired after the
    night, or kept there for good on the last day)."""
    return w[W_CLOCK] + best_clock_reward(P, st, w, p) - worker_value(P, st, w, p, d)


@njit_noalloc
def stay_value(P, st, w, p):
    """Staying: a moon tile (used at once on the last day), the sun tile if it is the day's last. With
    `moon_best`, that share of the tile's flat worth is instead the best use of the best tile still
    beside the moon (End of a Day: the player takes 1 moon tile, their pick; Night Phase: Moon Tiles)."""
    value = w[W_MOON]
    if st[S_MOONS_TAKEN] == P[R_MOONS_TO_END_DAY] - 1:
        value += w[W_SUN]
    if w[W_MOON_BEST] != 0.0:
        best = 0.0
        for t in range(st[S_N_MOON]):
            if st[S_MOON_HOLDER + t] == -1:
                best = max(best, best_moon_use(P, st, w, p, t))
        value += w[W_MOON_BEST] * (best - w[W_MOON])
    return value


@njit_noalloc
def lying_worth(P, st, w, d):
    """What the first entry of production district or temple d takes for its entrant alone (Production
    Areas, Temples: "its player takes all the goods / temple stones"): the goods or stones lying
    there at the weights' worth, whoever takes them (no holdings read); 0 once entered today."""
    if st[S_VISITED + d]:
        return 0.0
    if d < N_PRODUCTION:
        return w[W_GOODS + d] * st[S_DISTRICT + d]
    return w[W_STEP] * P[R_STONE_STEPS] * st[S_DISTRICT + d]


@njit_noalloc
def reaches_free(P, st, q, d):
    """Seat q's prince may enter district d on its next action without a llama (Game Flow)."""
    here = st[seat_at(q) + P_PRINCE]
    return here == NOWHERE or (here != d and adjacent(P, here, d) != 0)


@njit_noalloc
def denial_value(P, st, w, p, d):
    """Taking district d's goods or stones first, as the next player in turn order sees it: their best
    first entry reachable free, less their best once d's is gone (Game Flow: players act clockwise,
    so the player before another takes what the next one wanted). 0 when d is not their best."""
    if d > D_MAIN_TEMPLE or lying_worth(P, st, w, d) == 0.0:
        return 0.0
    q = (p + 1) % st[S_N_PLAYERS]
    if not reaches_free(P, st, q, d):
        return 0.0
    best, best_other = 0.0, 0.0
    for e in range(D_MAIN_TEMPLE + 1):
        if reaches_free(P, st, q, e):
            worth = lying_worth(P, st, w, e)
            best = max(best, worth)
            if e != d:
                best_other = max(best_other, worth)
    return best - best_other


@njit_noalloc
def gift_value(P, st, w, p, d):
    """What seat p's first entry of d lets every other player do there, at p's weights: their workers'
    production (Production Areas: "every worker in that area may also produce") or their offerings
    (Temples: "players take turns making offerings", the first time only); 0 once entered today."""
    if d > D_MAIN_TEMPLE or st[S_VISITED + d]:
        return 0.0
    n = st[S_N_PLAYERS]
    total = 0.0
    for i in range(1, n):
        at = seat_at((p + i) % n)
        if d < N_PRODUCTION:
            workers = st[at + P_WORKERS + d]
            if d == CORN:
                total += workers * P[R_CORN_YIELD] * w[W_GOODS + CORN]
            else:
                paid = min(workers, st[at + P_GOODS + CORN] // max(1, P[R_PRODUCTION_COST]))
                total += paid * max(0.0, w[W_GOODS + d] - P[R_PRODUCTION_COST] * w[W_GOODS + CORN])
        elif d == D_MAIN_TEMPLE:
            for g in range(N_GOODS):
                if st[at + P_GOODS + g] >= unit_of(P, g):
                    total += max(0.0, w[W_STEP] * P[R_MAIN_STEPS] - w[W_GOODS + g] * unit_of(P, g))
        else:
            k = d - FIRST_TEMPLE
            offered = min(st[at + P_PRIESTS + k], st[at + P_GOODS + LLAMA])
            total += offered * max(0.0, w[W_STEP] * smallest_uncovered(P, k, st[S_TAKEN + k]) - w[W_GOODS + LLAMA])
    return total


@njit_inline
def action_value(P, st, w, p, i):
    """Option i of an action decision: its district's value, less the llama of a jump; or staying.
    With `deny`, a first entry is also worth what it takes from the next player (denial_value); with
    `gift`, it costs what it lets the others produce or offer (gift_value).
    Copied into option_value, so into choose: an action's options (a third of the decisions, most of
    the options) are valued in choose's loop with no call level between."""
    a = st[S_OPTIONS + i * N_OPT + O_A]
    if a == STAY:
        return stay_value(P, st, w, p)
    jump = 0.0
    if st[S_OPTIONS + i * N_OPT + O_B]:
        jump = gain_value(P, st, w, p, LLAMA, -1) - w[W_JUMP]
    value = district_value(P, st, w, p, a) + jump
    if w[W_DENY] != 0.0:
        value += w[W_DENY] * denial_value(P, st, w, p, a)
    if w[W_GIFT] != 0.0:
        value -= w[W_GIFT] * gift_value(P, st, w, p, a)
    return value


@njit_inline
def best_trade(P, st, w, p, g, count, supply):
    """The better of buying and selling one good of kind g (0: neither is possible, or worth it) at
    a column holding `count` goods with `supply` more in the general supply."""
    best = 0.0
    for direction in (1, -1):
        if trade_allowed(P, st, p, g, direction, count, supply):
            best = max(best, trade_value(P, st, w, p, g, direction, trade_price(P, g, direction, count)))
    return best


@njit_noalloc
def nudge_value(P, st, w, p, g, direction):
    """Central Plaza's price nudge (README ambiguity 7): one good of kind g into its column (+1) or
    out of it (-1), valued by its direct effect, the best single trade of that good it leaves seat p
    against the best before (each trade after it is then asked and valued on its own)."""
    count = st[S_MARKET + g]
    supply = st[S_SUPPLY + g]
    return (best_trade(P, st, w, p, g, count + direction, supply - direction)
            - best_trade(P, st, w, p, g, count, supply))


@njit_inline
def option_value(P, st, w, p, decision, i):
    """The heuristic's value of option i of `decision` for seat p (copied into choose and
    option_values: a call level per option is a tenth of a game's time)."""
    if decision == DEC_ACTION:
        return action_value(P, st, w, p, i)
    a = st[S_OPTIONS + i * N_OPT + O_A]
    b = st[S_OPTIONS + i * N_OPT + O_B]
    if decision == DEC_START_WORKER:
        return worker_value(P, st, w, p, a)
    if decision == DEC_MOON_TILE:
        return best_moon_use(P, st, w, p, a)
    if decision == DEC_MOON_USE:
        return moon_use_value(P, st, w, p, a, b)
    if decision == DEC_PRODUCE:
        return gain_value(P, st, w, p, b, a) + gain_value(P, st, w, p, CORN, -a * P[R_PRODUCTION_COST])
    if decision == DEC_LLAMA_OFFERING:
        k = b - FIRST_TEMPLE
        step = smallest_uncovered(P, k, st[S_TAKEN + k])
        value = a * w[W_STEP] * step + gain_value(P, st, w, p, LLAMA, -a)
        if w[W_TRAIL_END] != 0.0:
            value += end_steps(P, st, w, p, a * step)
        return value
    if decision == DEC_MAIN_OFFERING:
        return offer_mask_value(P, st, w, p, a)
    if decision == DEC_WATCHMAN or decision == DEC_PALACE:
        total = 0.0
        for d in range(N_PRODUCTION):
            if a & (1 << d):
                total += worker_value(P, st, w, p, d) + target_cost_value(P, st, w, p, N_KINDS + d)
        return total
    if decision == DEC_PRIESTS or decision == DEC_VIRGINS:
        if a < 0:
            return 0.0
        return priest_value(P, st, w, p, a) + target_cost_value(P, st, w, p, a)
    if decision == DEC_PRICE_NUDGE:
        return 0.0 if a < 0 else nudge_value(P, st, w, p, a, b)
    if decision == DEC_TRADE:
        if a < 0:
            return 0.0
        return trade_value(P, st, w, p, a, b, trade_price(P, a, b, st[S_MARKET + a]))
    if decision == DEC_CLOCK_WORKER:
        return 0.0 if a < 0 else clock_value(P, st, w, p, a)
    if decision == DEC_CLOCK_GOODS:
        return clock_goods_value(P, st, w, p, a)
    if decision == DEC_SUMMIT_RETURN:
        return -card_value(P, st, w, p, a)
    return 0.0


@njit_noalloc
def values_goods(decision):
    """Whether the options of `decision` are valued through gain_value (which reads the plan table);
    a worker hired, a card bought, a card put back or a price nudge is valued without it."""
    return not (decision == DEC_START_WORKER or decision == DEC_WATCHMAN or decision == DEC_PALACE
                or decision == DEC_PRIESTS or decision == DEC_VIRGINS or decision == DEC_PRICE_NUDGE
                or decision == DEC_SUMMIT_RETURN)


@njit_typed("int64(float64[::1])")
def weights_print(w):
    """A fingerprint of a weight vector (its values' bits mixed), so a seat's kept values are never
    read with other weights (a search rollout plays every seat with the search bot's)."""
    h = np.int64(len(w))
    for j in range(len(w)):
        h = ((h << 7) | ((h >> 57) & 0x7F)) ^ np.float64(w[j]).view(np.int64)
    return h


@njit_typed(f"void({T_STATE}, int64, float64[::1])")
def put_weights_print(st, p, w):
    """Seat p's weights fingerprint (S_WEIGHTS_PRINT) set once, when the weights it decides with are
    put in the state (setup, a search rollout's line-up), so no decision works it out again. A caller
    that has seat p decide on this state with other weights calls it first."""
    st[S_WEIGHTS_PRINT + p] = weights_print(w)


@njit_noalloc
def put_line_up_prints(st, W):
    """put_weights_print for every seat of the line-up W (a row of weights a seat)."""
    for p in range(W.shape[0]):
        put_weights_print(st, p, W[p])


@njit_typed(f"bool({T_PARAMS}, {T_STATE}, float64[::1], int64)")
def refresh_seat_key(P, st, w, p):
    """Seat p's key (S_SEAT_KEY) made current. When it changed, its kept target values are dropped:
    every one when its weights, the day, a goods icon, its own cards or the cards taken of a kind it
    holds changed (a worker's value reads those: a Llama's Meadow worker's llamas are offered), else
    only the priest/virgin cards' (the cards taken, the temples entered and the kind icons are read
    by those alone); its powers of `pursuit` are made again when its weights changed. Whether it
    changed."""
    key = S_SEAT_KEY + p * N_SEAT_KEY
    at = seat_at(p)
    fingerprint = st[S_WEIGHTS_PRINT + p]
    workers_same = st[key + SK_VALID] == 1 and st[key + SK_PRINT] == fingerprint and st[key + SK_DAY] == st[S_DAY]
    if workers_same:
        for icon in range(ICON_KIND):
            if st[key + SK_ICONS + icon] != st[at + P_ICONS + icon]:
                workers_same = False
        for k in range(N_KINDS):
            own = st[at + P_PRIESTS + k]
            if st[key + SK_OWN + k] != own or (own > 0 and st[key + SK_TAKEN + k] != st[S_TAKEN + k]):
                workers_same = False
    priests_same = workers_same
    if priests_same:
        for k in range(N_KINDS):
            if (st[key + SK_TAKEN + k] != st[S_TAKEN + k] or st[key + SK_VISITED + k] != st[S_VISITED + FIRST_TEMPLE + k]
                    or st[key + SK_ICONS + ICON_KIND + k] != st[at + P_ICONS + ICON_KIND + k]):
                priests_same = False
    if priests_same:
        return False
    if st[key + SK_VALID] == 0 or st[key + SK_PRINT] != fingerprint:
        base = min(w[W_PURSUIT], 0.95)
        for m in range(N_POWERS):
            put_real(st, S_SEAT_POWERS + p * N_POWERS + m, base ** m)
    st[key + SK_VALID] = 1
    st[key + SK_PRINT] = fingerprint
    st[key + SK_DAY] = st[S_DAY]
    for k in range(N_KINDS):
        st[key + SK_TAKEN + k] = st[S_TAKEN + k]
        st[key + SK_VISITED + k] = st[S_VISITED + FIRST_TEMPLE + k]
    for icon in range(N_ICONS):
        st[key + SK_ICONS + icon] = st[at + P_ICONS + icon]
    for k in range(N_KINDS):
        st[key + SK_OWN + k] = st[at + P_PRIESTS + k]
    if workers_same:
        for k in range(N_KINDS):
            st[S_SEAT_VALUE_SET + p] &= ~((1 << k) | (1 << (N_TARGETS + k)))
    else:
        st[S_SEAT_VALUE_SET + p] = 0
    return True


@njit_typed(f"void({T_PARAMS}, {T_STATE}, float64[::1], int64, int64, int64)")
def begin_decision(P, st, w, p, decision, planning):
    """A decision's work rows: kept from the previous decision when it was seat p's, planning or not
    alike, on the same goods, unplaced workers and seat key (every kept value reads only those), else
    started empty; the Sun Clock's reward (it reads the supply) is always worked out again. The plan
    table is made when the options are valued through goods, the kept rows have none and the seat
    plans (`planning`, 0 for the fast kind, and a `plan` weight); else it is left empty, so
    plan_change is 0 for every good."""
    at = seat_at(p)
    owner = p + 1 if planning else -(p + 1)
    keep = not refresh_seat_key(P, st, w, p) and st[S_KEEP_OWNER] == owner
    if keep:
        for g in range(N_GOODS):
            if st[S_KEEP_HOLD + g] != st[at + P_GOODS + g]:
                keep = False
        if st[S_KEEP_HOLD + N_GOODS] != st[at + P_FREE_WORKERS]:
            keep = False
    if keep:
        st[S_VALUE_SET] &= ~(1 << N_TARGETS)
    else:
        for g in range(N_GOODS):
            st[S_GAIN_SET + g] = 0
            st[S_KEEP_HOLD + g] = st[at + P_GOODS + g]
        st[S_KEEP_HOLD + N_GOODS] = st[at + P_FREE_WORKERS]
        st[S_VALUE_SET] = 0
        st[S_KEEP_OWNER] = owner
        st[S_KEEP_PLAN] = 0
        good_bases(P, st, w, p)
    if st[S_KEEP_PLAN] == 0 and values_goods(decision):
        if planning and w[W_PLAN] != 0.0:
            prepare_plan(P, st, w, p)
        else:
            st[S_PLAN_GOODS] = 0
        st[S_KEEP_PLAN] = 1


# ------------------------------------------------------------------ the scripted chain (kind `chain`)
CHAIN_FIRST = 1000.0  # a chain bonus outweighs any heuristic value, so the script decides where it has a say


@njit_noalloc
def chain_holds_card(st, p):
    at = seat_at(p)
    for k in range(N_KINDS):
        if st[at + P_PRIESTS + k] > 0:
            return True
    return False


@njit_noalloc
def can_hire(P, st, p, d):
    """Seat p has a worker left and can pay one on production district d."""
    return st[seat_at(p) + P_FREE_WORKERS] > 0 and affordable(P, st, p, WCOST_AT + d * N_GOODS, 1)


@njit_noalloc
def chain_target(P, st, p):
    """The chain's next card: of the kinds with a card left, the one with the fewest goods missing
    (ties to the dearer kind, Sun first); -1 when every card is taken."""
    best_k, best_missing = -1, 1 << 30
    for k in range(N_KINDS):
        missing = target_missing(P, st, p, k)
        if 0 <= missing < best_missing:
            best_k, best_missing = k, missing
    return best_k


@njit_noalloc
def chain_short(P, st, p, target, g):
    """Whether the chain's next card needs more of good g than seat p holds."""
    if target < 0:
        return False
    return held(st, p, g) < P[PRIEST_AT + target * N_PF + PF_COST + g]


@njit_noalloc
def chain_llamas_short(st, p):
    """Fewer llamas than own priest/virgin cards: an offering would be lost at a temple's opening (the
    Llama's Meadow is then worth a visit, and a worker there a trip to the Watchman's Hut)."""
    at = seat_at(p)
    cards = 0
    for k in range(N_KINDS):
        cards += st[at + P_PRIESTS + k]
    return cards > 0 and held(st, p, LLAMA) < cards


@njit_noalloc
def chain_keeps(P, st, p, target, g):
    """Whether giving up one good g breaks the chain: a llama while p holds a card, or a good the
    next card needs that p does not hold beyond its cost."""
    if g == LLAMA and chain_holds_card(st, p):
        return True
    if target < 0:
        return False
    need = P[PRIEST_AT + target * N_PF + PF_COST + g]
    return need > 0 and held(st, p, g) <= need


@njit_noalloc
def chain_action(P, st, p, target, d, jumped):
    """An action for the chain: first a temple of an own card not entered today while p holds a
    llama (every holder offers), then a house where p can buy a card, then a district that brings a
    good the next card lacks (its production, or a purchase at the Central Plaza), or llamas for the
    cards held (the Llama's Meadow, a worker there); never a llama jump while p holds a card (the
    prince walks)."""
    at = seat_at(p)
    bonus = 0.0
    if jumped and chain_holds_card(st, p):
        bonus -= 4.0 * CHAIN_FIRST
    if FIRST_TEMPLE <= d < D_MAIN_TEMPLE:
        k = d - FIRST_TEMPLE
        if st[S_VISITED + d] == 0 and st[at + P_PRIESTS + k] > 0 and held(st, p, LLAMA) > 0:
            bonus += 3.0 * CHAIN_FIRST
    elif d == D_HOUSE_OF_VIRGINS:
        if can_buy_card(P, st, p, K_SUN):
            bonus += 2.0 * CHAIN_FIRST
    elif d == D_HOUSE_OF_PRIESTS:
        if can_buy_card(P, st, p, K_PUMA) or can_buy_card(P, st, p, K_CONDOR):
            bonus += 2.0 * CHAIN_FIRST
    elif d == D_WATCHMANS_HUT:
        if chain_holds_card(st, p) and can_hire(P, st, p, LLAMA):
            bonus += 1.5 * CHAIN_FIRST
    elif d < N_PRODUCTION:
        if st[S_VISITED + d] == 0 and (chain_short(P, st, p, target, d)
                                       or (d == LLAMA and chain_llamas_short(st, p))):
            bonus += CHAIN_FIRST
    elif d == D_CENTRAL_PLAZA:
        for g in range(LLAMA, N_GOODS):
            if chain_short(P, st, p, target, g) and held(st, p, CORN) >= trade_price(P, g, 1, st[S_MARKET + g]):
                bonus += CHAIN_FIRST
                break
    return bonus


@njit_noalloc
def chain_bonus(P, st, p, decision, i, target):
    """What the scripted chain adds to option i's heuristic value (0 where the script has no say):
    buy a card whenever possible, offer every llama the cards allow, keep llamas and the next card's
    goods, gather what the next card lacks."""
    a = st[S_OPTIONS + i * N_OPT + O_A]
    b = st[S_OPTIONS + i * N_OPT + O_B]
    if decision == DEC_ACTION:
        return 0.0 if a == STAY else chain_action(P, st, p, target, a, b)
    if decision == DEC_LLAMA_OFFERING:
        return CHAIN_FIRST * a
    if decision == DEC_WATCHMAN:
        return CHAIN_FIRST if a & (1 << LLAMA) and chain_holds_card(st, p) else 0.0
    if decision == DEC_PRIESTS or decision == DEC_VIRGINS:
        return 0.0 if a < 0 else CHAIN_FIRST + steps_if_taken(P, st, a)
    if decision == DEC_MAIN_OFFERING:
        bonus = 0.0
        for g in range(N_GOODS):
            if a & (1 << g) and chain_keeps(P, st, p, target, g):
                bonus -= CHAIN_FIRST
        return bonus
    if decision == DEC_TRADE:
        if a < 0:
            return 0.0
        if b > 0:
            return CHAIN_FIRST if chain_short(P, st, p, target, a) else 0.0
        return -CHAIN_FIRST if chain_keeps(P, st, p, target, a) else 0.0
    if decision == DEC_MOON_USE:
        if b == MOON_GOOD and chain_short(P, st, p, target, moon_field(P, a, MF_GOOD)):
            return CHAIN_FIRST
        return 0.0
    if decision == DEC_CLOCK_GOODS:
        bonus = 0.0
        for g in range(N_GOODS):
            if a & (1 << g) and (chain_short(P, st, p, target, g) or (g == LLAMA and chain_llamas_short(st, p))):
                bonus += CHAIN_FIRST
        return bonus
    return 0.0


@njit_noalloc
def option_values(P, st, w, p, decision, n_options, out):
    """The heuristic's value of each listed option, without noise, into out[:n_options] (the search
    bot ranks its candidates by them)."""
    begin_decision(P, st, w, p, decision, 1)
    for i in range(n_options):
        out[i] = option_value(P, st, w, p, decision, i)


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, int64, float64[::1], int64, int64, int64)")
def choose(P, st, stream, kind, weights, p, decision, n_options):
    """The index of the option seat p takes among the n_options the rules listed for `decision`."""
    if kind == KIND_RANDOM:
        return rng.randint(stream, n_options)
    if n_options == 1:
        return 0
    begin_decision(P, st, weights, p, decision, 0 if kind == KIND_FAST or kind == KIND_CHAIN else 1)
    target = chain_target(P, st, p) if kind == KIND_CHAIN else -1
    best, best_i = NO_VALUE, 0
    for i in range(n_options):
        value = option_value(P, st, weights, p, decision, i)
        if kind == KIND_CHAIN:
            value += chain_bonus(P, st, p, decision, i, target)
        if weights[W_NOISE] > 0.0:
            value += weights[W_NOISE] * rng.uniform(stream)
        if value > best:
            best, best_i = value, i
    return best_i
