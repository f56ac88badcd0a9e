"""Tahuantinsuyu bots: every decision the rulebook gives a player, asked with its options listed.

The rules list a decision's options in the state (st[S_OPTIONS + i * N_OPT + O_*], meaning by
decision code in state.py DEC_*) and call `choose`, which returns the index of the option taken.

- The random-legal bot (kind `random`) takes any listed option with equal chance.
- The heuristic (kind `heuristic`) values each option by its direct effects (delta features on
  the graph: the sites and regions a road adds to the network, the VP a building scores now and at
  the Sapa Inca phases left, less what it gives rivals joined to it, a chip's VP and labour, the
  labour paid), never by playing a copy of the state forward, through its weight vector
  (WEIGHT_NAMES); the best is taken. Styles are weight vectors in bots.toml.
"""
from sim.core import rng
from sim.core.jit import njit_noalloc, njit_typed

from .board import (
    active, city_cost, connected_players, conquest_cost, free_roads, garrison_cost, has, pilgrim_card, reaches,
    n_lines_at, n_reached, own_territory, reached_site, road_candidate, sapa_incas_left, temple_cost, touches,
)
from .state import (
    T_PARAMS, T_STATE, incident, HAND, P_HAND, S_FREE_LINES, seat_at,
    ACT_CITY, ACT_CONQUER, ACT_END, ACT_EXTRA_ROAD, ACT_GARRISON, ACT_KEY_OUTPOST, ACT_PILGRIMAGE, ACT_RAPID,
    ACT_ROADS, ACT_TEMPLE, ACT_TERRACE, B_CITY, B_GARRISON, B_TEMPLE, CH_LABOUR, CH_RES, CH_VP, C_KEY_OUTPOST,
    C_POPULAR, C_PRESS_ON, C_RAPID, C_RURAL_UNREST, C_STORES, C_URBAN, DEC_MORE_GARRISON, DEC_MORE_TERRACE,
    DEC_ROAD, DEC_SUN_CARD, DEC_TURN, H_N_ROUNDS, KIND_RANDOM, N_OPT, O_A, O_B, O_C, RF_A, RF_B, RF_ROYAL,
    RG_START, R_CITY_COST, R_CITY_SI, R_CITY_VP, R_EXTRA_ROAD_COST, R_GARRISON_SI, R_GARRISON_VP, R_TEMPLE_SI,
    R_TEMPLE_VP, R_TERRACE_COST, R_TERRACE_LABOUR, R_TERRACE_SI, R_TERRACE_VP, SF_BONUS, SF_KIND, SF_PILGRIM,
    SF_REGION, SK_CITY, SK_GARRISON, SK_SIGNIFICANT, SU_VALUE, S_BUILDING, S_CHIP, S_N_PLAYERS, S_N_REGIONS,
    S_N_ROADS, S_OPTIONS, S_OWNER, S_ROAD_OWNER, S_ROUND, W_FUTURE, W_LABOUR, W_LABOUR_INCOME, W_NOISE, W_PILGRIM,
    W_REACH_BUILDING, W_REACH_PILGRIM, W_REACH_REGION, W_REACH_SITE, W_RIVAL_SHARE, W_ROAD, W_ROAD_LOSS, W_SUN,
    W_SUN_RIVAL, W_SUN_SELF, W_TERRITORY, W_VP, chip_field, region_field, road_field, site_field, sun_field,
)

NO_VALUE = -1e18


@njit_typed(f"int64({T_STATE}, int64, int64)")
def opt(st, i, field):
    return st[S_OPTIONS + i * N_OPT + field]


@njit_noalloc
def rounds_left(P, st):
    """Inca phases still to come (labour income a chip or terrace will pay)."""
    return P[H_N_ROUNDS] - 1 - st[S_ROUND]


@njit_noalloc
def building_value(P, st, w, p, s, sapa_inca_vp, now_vp, cost):
    """A building on site s: VP now, its Sapa Inca VP to the builder at the phases left, less what
    it gives the rivals already joined to it, less the labour."""
    left = sapa_incas_left(P, st)
    others = connected_players(st, s) - (1 if reaches(st, p, s) else 0)
    return (w[W_VP] * now_vp + w[W_FUTURE] * left * sapa_inca_vp
            - w[W_RIVAL_SHARE] * left * sapa_inca_vp * others - w[W_LABOUR] * cost)


@njit_noalloc
def site_si_vp(P, st, s):
    b = st[S_BUILDING + s]
    vp = 0
    if b & B_CITY:
        vp += P[R_CITY_SI]
    if b & B_TEMPLE:
        vp += P[R_TEMPLE_SI]
    if b & B_GARRISON:
        vp += P[R_GARRISON_SI]
    return vp


@njit_noalloc
def new_site_value(P, st, w, p, t):
    """What reaching site t adds: its buildings' Sapa Inca VP for the phases left, an empty city or
    garrison site in conquered land, an unconquered region newly in reach, a significant city."""
    value = w[W_ROAD]
    if reaches(st, p, t):
        return value - 0.5
    left = sapa_incas_left(P, st)
    value += w[W_REACH_BUILDING] * site_si_vp(P, st, t) * left
    r = site_field(P, t, SF_REGION)
    kind = site_field(P, t, SF_KIND)
    if st[S_BUILDING + t] == 0 and (kind == SK_CITY or kind == SK_SIGNIFICANT or kind == SK_GARRISON):
        if r >= 0 and st[S_OWNER + r] >= 0:
            value += w[W_REACH_SITE]
    if r >= 0 and st[S_OWNER + r] == -1 and not touches(P, st, p, r):
        value += w[W_REACH_REGION]
    if site_field(P, t, SF_PILGRIM) != 0:
        value += w[W_REACH_PILGRIM]
    return value


@njit_noalloc
def road_value(P, st, w, p, e):
    a = road_field(P, e, RF_A)
    b = road_field(P, e, RF_B)
    return new_site_value(P, st, w, p, b if reaches(st, p, a) else a)


@njit_noalloc
def best_road_value(P, st, w, p):
    best = NO_VALUE
    for i in range(n_reached(st, p)):
        s = reached_site(st, p, i)
        if st[S_FREE_LINES + s] == 0:
            continue
        own_s = own_territory(P, st, p, s)
        for j in range(n_lines_at(P, s)):
            e = incident(P, s, j)
            if road_candidate(P, st, p, s, own_s, e):
                v = road_value(P, st, w, p, e)
                if v > best:
                    best = v
    return best if best > NO_VALUE else 0.0


@njit_typed(f"float64({T_PARAMS}, {T_STATE}, float64[::1], int64, int64, int64)")
def conquest_value(P, st, w, p, r, extra):
    c = st[S_CHIP + r]
    return (w[W_VP] * chip_field(P, c, CH_VP) + w[W_LABOUR_INCOME] * rounds_left(P, st) * chip_field(P, c, CH_LABOUR)
            + w[W_TERRITORY] - w[W_LABOUR] * conquest_cost(P, st, p, r, extra))


@njit_noalloc
def terrace_value(P, st, w, p):
    left = sapa_incas_left(P, st)
    return (w[W_VP] * P[R_TERRACE_VP] + w[W_FUTURE] * left * P[R_TERRACE_SI]
            + w[W_LABOUR_INCOME] * rounds_left(P, st) * P[R_TERRACE_LABOUR] - w[W_LABOUR] * P[R_TERRACE_COST])


@njit_noalloc
def garrison_value(P, st, w, p, s):
    now = P[R_GARRISON_VP] + active(st, p, C_STORES) * sun_field(P, C_STORES, SU_VALUE)
    return building_value(P, st, w, p, s, P[R_GARRISON_SI], now, garrison_cost(P, st, p))


@njit_noalloc
def turn_value(P, st, w, p, act, target, extra, best_road):
    if act == ACT_END:
        return 0.0
    if act == ACT_ROADS:
        return best_road * free_roads(P, st, p)
    if act == ACT_EXTRA_ROAD:
        n = 1 + active(st, p, C_PRESS_ON) * sun_field(P, C_PRESS_ON, SU_VALUE)
        return best_road * n - w[W_LABOUR] * P[R_EXTRA_ROAD_COST]
    city_now = P[R_CITY_VP] + active(st, p, C_URBAN) * sun_field(P, C_URBAN, SU_VALUE)
    if act == ACT_CITY:
        return building_value(P, st, w, p, target, P[R_CITY_SI], city_now, city_cost(P, st, p))
    if act == ACT_TEMPLE:
        bonus = site_field(P, target, SF_BONUS) if has(st, target, B_CITY) else 0
        pilgrim = w[W_REACH_PILGRIM] if site_field(P, target, SF_PILGRIM) != 0 else 0.0
        return building_value(P, st, w, p, target, P[R_TEMPLE_SI], P[R_TEMPLE_VP] + bonus,
                              temple_cost(P, st, p)) + pilgrim
    if act == ACT_GARRISON:
        return garrison_value(P, st, w, p, target)
    if act == ACT_TERRACE:
        return terrace_value(P, st, w, p)
    if act == ACT_CONQUER:
        return conquest_value(P, st, w, p, target, 0)
    if act == ACT_RAPID:
        return conquest_value(P, st, w, p, target, sun_field(P, C_RAPID, SU_VALUE))
    if act == ACT_KEY_OUTPOST:
        cost = sun_field(P, C_KEY_OUTPOST, SU_VALUE) + city_cost(P, st, p) - P[R_CITY_COST]
        return building_value(P, st, w, p, target, P[R_CITY_SI] - P[R_GARRISON_SI], city_now, cost)
    if act == ACT_PILGRIMAGE:
        group = site_field(P, target, SF_PILGRIM)
        vp = sun_field(P, pilgrim_card(group), SU_VALUE)
        return w[W_VP] * vp - w[W_PILGRIM] - (0.5 * best_road if extra == 0 else 0.0)
    return 0.0


@njit_noalloc
def roads_lost(P, st):
    """Roads Rural Unrest would take from each seat now, in one pass over the lines: 8 bits a seat
    at bit 16 * seat (a seat holds at most the map's 172 lines)."""
    packed = 0
    n = st[S_N_PLAYERS]
    for e in range(st[S_N_ROADS]):
        q = st[S_ROAD_OWNER + e]
        if q < 0 or q >= n or road_field(P, e, RF_ROYAL):
            continue
        for end in range(2):
            r = site_field(P, road_field(P, e, RF_A + end), SF_REGION)
            if r >= 0 and st[S_OWNER + r] < 0:
                packed += 1 << (16 * q)
                break
    return packed


@njit_noalloc
def res1_chips(P, st):
    """Each seat's resistance-1 chips (Popular Support), in one pass over the regions: 8 bits a seat
    at bit 16 * seat + 8 (at most the 45 chips)."""
    packed = 0
    n = st[S_N_PLAYERS]
    for r in range(st[S_N_REGIONS]):
        q = st[S_OWNER + r]
        if 0 <= q < n and region_field(P, r, RG_START) == 0 and chip_field(P, st[S_CHIP + r], CH_RES) == 1:
            packed += 1 << (16 * q + 8)
    return packed


@njit_noalloc
def seat_counts(P, st, p):
    """For the Sun card decision, once: each seat's roads Rural Unrest would destroy now and its
    resistance-1 chips (Popular Support), 8 bits each, 16 bits a seat; 0 when the hand holds
    neither card."""
    at = seat_at(p)
    needed = False
    for i in range(HAND):
        kind = st[at + P_HAND + i]
        if kind == C_RURAL_UNREST or kind == C_POPULAR:
            needed = True
    if not needed:
        return 0
    return roads_lost(P, st) | res1_chips(P, st)


@njit_noalloc
def sun_value(P, st, w, p, kind, g, counts):
    """A Sun card in gap g: its benefit to each player beside it, counted for the player and against
    a rival; Rural Unrest and Popular Support by what they do now (counts: seat_counts)."""
    n = st[S_N_PLAYERS]
    total = 0.0
    for side in range(2):
        q = (g + side) % n
        benefit = w[W_SUN + kind]
        if kind == C_RURAL_UNREST:
            benefit = -w[W_ROAD_LOSS] * ((counts >> (16 * q)) & 255)
        elif kind == C_POPULAR:
            benefit = w[W_LABOUR] * ((counts >> (16 * q + 8)) & 255) * sun_field(P, C_POPULAR, SU_VALUE)
        total += benefit * (w[W_SUN_SELF] if q == p else -w[W_SUN_RIVAL])
    return total


@njit_noalloc
def option_value(P, st, w, p, decision, i, best_road, counts):
    """The value of option i; best_road: the best road's value now (DEC_TURN), counts: seat_counts
    (DEC_SUN_CARD), each computed once a decision."""
    a = opt(st, i, O_A)
    if decision == DEC_TURN:
        return turn_value(P, st, w, p, a, opt(st, i, O_B), opt(st, i, O_C), best_road)
    if decision == DEC_ROAD:
        if a < 0:
            return 0.0
        if opt(st, i, O_C) == 1:
            return new_site_value(P, st, w, p, opt(st, i, O_B))
        return road_value(P, st, w, p, a)
    if decision == DEC_SUN_CARD:
        return sun_value(P, st, w, p, a, opt(st, i, O_B), counts)
    if decision == DEC_MORE_GARRISON:
        return 0.0 if a < 0 else garrison_value(P, st, w, p, a)
    if decision == DEC_MORE_TERRACE:
        return 0.0 if a < 0 else terrace_value(P, st, w, p)
    return 0.0


@njit_noalloc
def choose(P, st, stream, kind, weights, p, decision, n_options):
    """The index of the option seat p takes among the n_options the rules listed for `decision`."""
    if kind == KIND_RANDOM:
        return rng.randint(stream, n_options)
    if n_options == 1:
        return 0
    best, best_i = NO_VALUE, 0
    best_road = best_road_value(P, st, weights, p) if decision == DEC_TURN else 0.0
    counts = seat_counts(P, st, p) if decision == DEC_SUN_CARD else 0
    for i in range(n_options):
        value = option_value(P, st, weights, p, decision, i, best_road, counts)
        if weights[W_NOISE] > 0.0:
            value += weights[W_NOISE] * rng.uniform(stream)
        if value > best:
            best, best_i = value, i
    return best_i
