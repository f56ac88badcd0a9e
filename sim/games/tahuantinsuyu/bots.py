"""Tahuantinsuyu bots: every decision the rulebook gives a player, asked with its options listed.

The rules list a decision's options in the state (st[S_OPTIONS + i * N_OPT + O_*], meaning by
decision code in state.py DEC_*) and call `choose`, which returns the index of the option taken.

- The random-legal bot (kind `random`) takes any listed option with equal chance.
- The heuristic (kind `heuristic`) values each option by its direct effects (delta features on
  the graph: the sites and regions a road adds to the network, the VP a building scores now and at
  the Sapa Inca phases left, less what it gives rivals joined to it, more for rivals one road from
  it (rival_near), a chip's VP and labour, the territory fading by the round (territory_fade), a
  pilgrimage card by who beside it could go now (pilgrim_ready), the labour paid), never by playing
  a copy of the state forward, through its weight vector (WEIGHT_NAMES); the best is taken. Styles
  are weight vectors in bots.toml.
"""
from sim.core import rng
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed

from .board import (
    active, city_cost, connected_players, conquest_cost, free_roads, garrison_cost, has, n_reached, pilgrim_card, pilgrim_group,
    reached_site, reaches,
    line_of, line_reach, n_lines, sapa_incas_left, temple_cost, touches,
)
from .state import (
    T_PARAMS, T_STATE, T_STREAM,
    HAND, P_BEST_I, P_BEST_TURN, P_BEST_VER, P_HAND, P_LINES_VER, P_RES1_CHIPS, S_TURN, P_UNREST_ROADS, seat_at,
    ACT_CITY, ACT_CONQUER, ACT_EXTRA_ROAD, ACT_GARRISON, ACT_KEY_OUTPOST, ACT_PILGRIMAGE, ACT_RAPID,
    ACT_ROADS, ACT_TEMPLE, ACT_TERRACE, B_CITY, B_GARRISON, B_TEMPLE, CH_LABOUR, CH_VP, C_KEY_OUTPOST,
    C_POPULAR, C_PRESS_ON, C_RAPID, C_RURAL_UNREST, C_STORES, C_URBAN, DEC_MORE_GARRISON,
    DEC_ROAD, DEC_SUN_CARD, DEC_TURN, H_N_ROUNDS, KIND_RANDOM, N_OPT, O_A, O_B, O_C,
    R_CITY_COST, R_CITY_SI, R_CITY_VP, R_EXTRA_ROAD_COST, R_GARRISON_SI, R_GARRISON_VP, R_TEMPLE_SI,
    R_TEMPLE_VP, R_TERRACE_COST, R_TERRACE_LABOUR, R_TERRACE_SI, R_TERRACE_VP, SF_BONUS, SF_KIND, SF_PILGRIM,
    SF_REGION, SK_CITY, SK_GARRISON, SK_SIGNIFICANT, SU_VALUE, S_BUILDING, S_CHIP, S_N_PLAYERS,
    S_OPTIONS, S_OWNER, S_ROUND, W_FUTURE, W_LABOUR, W_LABOUR_INCOME, W_NOISE, W_PILGRIM,
    W_REACH_BUILDING, W_REACH_PILGRIM, W_REACH_REGION, W_REACH_SITE, W_RIVAL_SHARE, W_ROAD, W_ROAD_LOSS, W_SUN,
    W_SUN_RIVAL, W_SUN_SELF, W_TERRITORY, W_UNREST_RISK, W_VP, chip_field, site_field, sun_field,
    W_TERRITORY_FADE, W_RIVAL_NEAR, W_PILGRIM_READY, SF_N_INC, incident_end,
    MAX_RL, RF_REGION_A, RF_ROYAL, RG_N_LINES, RL_AT, region_field, R_UNREST_ANY_OWNER, S_ROAD_OWNER, road_field,
)

NO_VALUE = -1e18


@njit_typed(f"int64({T_STATE}, int64, int64)")
def opt(st, i, field):
    return st[S_OPTIONS + i * N_OPT + field]


@njit_noalloc
def rounds_left(P, st):
    """Inca phases still to come (labour income a chip or terrace will pay)."""
    return P[H_N_ROUNDS] - 1 - st[S_ROUND]


@njit_inline
def rivals_near(P, st, p, s):
    """Rivals one road from site s: their network does not reach s but reaches a site a dashed line
    joins to it (Building a Road: one road joins them to s and its Sapa Inca VP)."""
    n = 0
    for q in range(st[S_N_PLAYERS]):
        if q == p or reaches(st, q, s):
            continue
        for i in range(site_field(P, s, SF_N_INC)):
            if reaches(st, q, incident_end(P, s, i)):
                n += 1
                break
    return n


@njit_inline
def building_value(P, st, w, p, s, sapa_inca_vp, now_vp, cost, w_future_left, w_rival_left, w_near_left):
    """A building on site s: VP now, its Sapa Inca VP to the builder at the phases left, less what
    it gives the rivals already joined to it, plus `rival_near` for each rival one road from it,
    less the labour (w_future_left, w_rival_left, w_near_left: the weights times the Sapa Inca
    phases left, once a decision; rivals_near is not read when w_near_left is 0)."""
    others = connected_players(st, s) - (1 if reaches(st, p, s) else 0)
    value = (w[W_VP] * now_vp + w_future_left * sapa_inca_vp
             - w_rival_left * sapa_inca_vp * others - w[W_LABOUR] * cost)
    if w_near_left != 0.0:
        value += w_near_left * sapa_inca_vp * rivals_near(P, st, p, s)
    return value


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


@njit_inline
def new_site_value(P, st, w, p, t, left):
    """What reaching site t adds: its buildings' Sapa Inca VP for the phases left (`left`), an empty
    city or garrison site in conquered land, an unconquered region newly in reach, a significant city."""
    value = w[W_ROAD]
    if reaches(st, p, t):
        return value - 0.5
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


@njit_inline
def exposed(P, st, p, r):
    """Region r is land whose roads Rural Unrest destroys for seat p: conquered by nobody (or, with
    rules.rural_unrest_spares_any_conquered_region false, not the seat's)."""
    return r >= 0 and (st[S_OWNER + r] == -1 if P[R_UNREST_ANY_OWNER] != 0 else st[S_OWNER + r] != p)


@njit_inline
def unrest_risk(P, st, p, e):
    """Line e, built by seat p, would run through land Rural Unrest destroys roads in (1 or 0)."""
    return 1.0 if exposed(P, st, p, road_field(P, e, RF_REGION_A)) or exposed(
        P, st, p, road_field(P, e, RF_REGION_A + 1)) else 0.0


@njit_inline
def at_risk(P, st, w, p, e, value):
    """A road's value with Rural Unrest's risk priced: a line through land where Rural Unrest destroys
    roads keeps 1 - unrest_risk of a positive value (its expected worth; a free road still beats none)."""
    if value > 0.0 and unrest_risk(P, st, p, e) > 0.0:
        return value * (1.0 - w[W_UNREST_RISK])
    return value


@njit_inline
def roads_secured(P, st, p, r):
    """The seat's roads that conquering region r takes out of Rural Unrest's reach (an end in r, the
    other end in r or in land already safe)."""
    n = 0
    for i in range(region_field(P, r, RG_N_LINES)):
        e = P[RL_AT + r * MAX_RL + i]
        if st[S_ROAD_OWNER + e] != p or road_field(P, e, RF_ROYAL) != 0:
            continue
        safe = True
        for end in range(2):
            x = road_field(P, e, RF_REGION_A + end)
            if x != r and exposed(P, st, p, x):
                safe = False
        if safe:
            n += 1
    return n


@njit_noalloc
def best_road_value(P, st, w, p, left):
    """The best road's value now, over the seat's road lines (board.scan_roads, kept current).
    Within the seat's turn (S_TURN odd) the lines' values change only with the lines themselves
    (its roads and conquests; its buildings stand on sites it reaches, which no line's value reads
    but as reached): while P_LINES_VER stays, the best line found is valued alone."""
    n = n_lines(P, st, p)
    at = seat_at(p)
    turn = st[S_TURN]
    if turn % 2 == 1 and st[at + P_BEST_TURN] == turn and st[at + P_BEST_VER] == st[at + P_LINES_VER]:
        i = st[at + P_BEST_I]
        return at_risk(P, st, w, p, line_of(st, p, i), new_site_value(P, st, w, p, line_reach(st, p, i), left)
                       ) if i >= 0 else 0.0
    best, best_i = NO_VALUE, -1
    for i in range(n):
        v = at_risk(P, st, w, p, line_of(st, p, i), new_site_value(P, st, w, p, line_reach(st, p, i), left))
        if v > best:
            best, best_i = v, i
    st[at + P_BEST_TURN] = turn
    st[at + P_BEST_VER] = st[at + P_LINES_VER]
    st[at + P_BEST_I] = best_i
    return best if best > NO_VALUE else 0.0


@njit_inline
def territory_left(P, st, w):
    """The share of a region's worth as territory still to use: roads and buildings on it pay at the
    Sapa Inca phases to come (How Do I Win?: the game ends with Pizarro), so with `territory_fade`
    it falls by that share from the first round to the last (1 when the weight is 0)."""
    return 1.0 - w[W_TERRITORY_FADE] * st[S_ROUND] / (P[H_N_ROUNDS] - 1)


@njit_inline
def conquest_value(P, st, w, p, r, extra, w_income_left):
    """A region: its chip's VP, its labour a round for the rounds left (w_income_left: the weight
    times them), the territory (less the share `territory_fade` takes by the last round), less the
    resistance paid."""
    c = st[S_CHIP + r]
    return (w[W_VP] * chip_field(P, c, CH_VP) + w_income_left * chip_field(P, c, CH_LABOUR)
            + w[W_TERRITORY] * territory_left(P, st, w) - w[W_LABOUR] * conquest_cost(P, st, p, r, extra)
            + w[W_UNREST_RISK] * roads_secured(P, st, p, r))


@njit_noalloc
def terrace_value(P, st, w, left):
    return (w[W_VP] * P[R_TERRACE_VP] + w[W_FUTURE] * left * P[R_TERRACE_SI]
            + w[W_LABOUR_INCOME] * rounds_left(P, st) * P[R_TERRACE_LABOUR] - w[W_LABOUR] * P[R_TERRACE_COST])


@njit_noalloc
def garrison_now(P, st, p):
    """A garrison's VP now: Stores Stop Famine adds to it."""
    return P[R_GARRISON_VP] + active(st, p, C_STORES) * sun_field(P, C_STORES, SU_VALUE)


@njit_inline
def noisy(stream, w, value):
    """The style's noise: a uniform draw for every option valued (the draws stay in option order)."""
    if w[W_NOISE] > 0.0:
        value += w[W_NOISE] * rng.uniform(stream)
    return value


@njit_inline
def turn_terms(P, st, w, p):
    """What every DEC_TURN option's value shares, read once a decision: the best road, the weights
    times the Sapa Inca phases and rounds left, a city's VP now and its cost."""
    left = sapa_incas_left(P, st)
    return (left, best_road_value(P, st, w, p, left), w[W_FUTURE] * left, w[W_RIVAL_SHARE] * left,
            w[W_RIVAL_NEAR] * left, w[W_LABOUR_INCOME] * rounds_left(P, st),
            P[R_CITY_VP] + active(st, p, C_URBAN) * sun_field(P, C_URBAN, SU_VALUE), city_cost(P, st, p))


@njit_inline
def turn_value(P, st, w, p, i, terms):
    """DEC_TURN option i by its direct effects (terms: turn_terms)."""
    left, best_road, w_future_left, w_rival_left, w_near_left, w_income_left, city_now, cost_city = terms
    act = opt(st, i, O_A)
    target = opt(st, i, O_B)
    value = 0.0
    if act == ACT_ROADS:
        value = best_road * free_roads(P, st, p)
    elif act == ACT_EXTRA_ROAD:
        n = 1 + active(st, p, C_PRESS_ON) * sun_field(P, C_PRESS_ON, SU_VALUE)
        value = best_road * n - w[W_LABOUR] * P[R_EXTRA_ROAD_COST]
    elif act == ACT_CITY:
        value = building_value(P, st, w, p, target, P[R_CITY_SI], city_now, cost_city, w_future_left, w_rival_left,
                               w_near_left)
    elif act == ACT_TEMPLE:
        bonus = site_field(P, target, SF_BONUS) if has(st, target, B_CITY) else 0
        pilgrim = w[W_REACH_PILGRIM] if site_field(P, target, SF_PILGRIM) != 0 else 0.0
        value = building_value(P, st, w, p, target, P[R_TEMPLE_SI], P[R_TEMPLE_VP] + bonus, temple_cost(P, st, p),
                               w_future_left, w_rival_left, w_near_left) + pilgrim
    elif act == ACT_GARRISON:
        value = building_value(P, st, w, p, target, P[R_GARRISON_SI], garrison_now(P, st, p), garrison_cost(P, st, p),
                               w_future_left, w_rival_left, w_near_left)
    elif act == ACT_TERRACE:
        value = terrace_value(P, st, w, left)
    elif act == ACT_CONQUER:
        value = conquest_value(P, st, w, p, target, 0, w_income_left)
    elif act == ACT_RAPID:
        value = conquest_value(P, st, w, p, target, sun_field(P, C_RAPID, SU_VALUE), w_income_left)
    elif act == ACT_KEY_OUTPOST:
        cost = sun_field(P, C_KEY_OUTPOST, SU_VALUE) + cost_city - P[R_CITY_COST]
        value = building_value(P, st, w, p, target, P[R_CITY_SI] - P[R_GARRISON_SI], city_now, cost, w_future_left,
                               w_rival_left, w_near_left)
    elif act == ACT_PILGRIMAGE:
        vp = sun_field(P, pilgrim_card(site_field(P, target, SF_PILGRIM)), SU_VALUE)
        value = w[W_VP] * vp - w[W_PILGRIM] - (0.5 * best_road if opt(st, i, O_C) == 0 else 0.0)
    return value


@njit_inline
def choose_turn(P, st, stream, w, p, n_options):
    """DEC_TURN: each option by turn_value, the noise drawn in option order; the best is taken."""
    terms = turn_terms(P, st, w, p)
    best, best_i = NO_VALUE, 0
    for i in range(n_options):
        value = noisy(stream, w, turn_value(P, st, w, p, i, terms))
        if value > best:
            best, best_i = value, i
    return best_i


@njit_noalloc
def turn_values(P, st, w, p, n_options, out):
    """The heuristic's value of each listed DEC_TURN option, without noise, into out[:n_options]
    (the search bot's candidates: sim.core.search.top_candidates)."""
    terms = turn_terms(P, st, w, p)
    for i in range(n_options):
        out[i] = turn_value(P, st, w, p, i, terms)


@njit_inline
def choose_road(P, st, stream, w, p, n_options):
    """DEC_ROAD: each road (a line or a Wilderness Road) by the site it reaches (option b); stop 0."""
    left = sapa_incas_left(P, st)
    best, best_i = NO_VALUE, 0
    for i in range(n_options):
        value = 0.0 if opt(st, i, O_A) < 0 else new_site_value(P, st, w, p, opt(st, i, O_B), left)
        if opt(st, i, O_A) >= 0 and opt(st, i, O_C) == 0:  # a dashed line Rural Unrest could destroy
            value = at_risk(P, st, w, p, opt(st, i, O_A), value)
        value = noisy(stream, w, value)
        if value > best:
            best, best_i = value, i
    return best_i


@njit_noalloc
def seat_counts(P, st, p):
    """For the Sun card decision: each seat's roads Rural Unrest would destroy now and its
    resistance-1 chips (Popular Support), 8 bits each, 16 bits a seat; 0 when the hand holds
    neither card. The rules keep both counts current (P_UNREST_ROADS, P_RES1_CHIPS)."""
    at = seat_at(p)
    needed = False
    for i in range(HAND):
        kind = st[at + P_HAND + i]
        if kind == C_RURAL_UNREST or kind == C_POPULAR:
            needed = True
    if not needed:
        return 0
    packed = 0
    for q in range(st[S_N_PLAYERS]):
        packed += (min(st[seat_at(q) + P_UNREST_ROADS], 255) << (16 * q)
                   | min(st[seat_at(q) + P_RES1_CHIPS], 255) << (16 * q + 8))
    return packed


@njit_noalloc
def pilgrim_grounds(P, st, w):
    """For the Sun card decision, the pilgrimage groups each seat could go on now, a bit per group
    (4 bits a seat): its network joins a temple in one of the group's significant cities (Great,
    Annual, Local Pilgrimage). 0 when the weight pilgrim_ready is 0."""
    if w[W_PILGRIM_READY] == 0.0:
        return 0
    packed = 0
    for q in range(st[S_N_PLAYERS]):
        for i in range(n_reached(st, q)):
            s = reached_site(st, q, i)
            group = site_field(P, s, SF_PILGRIM)
            if group != 0 and st[S_BUILDING + s] & B_TEMPLE:
                packed |= 1 << (4 * q + group)
    return packed


@njit_noalloc
def sun_value(P, st, w, p, kind, g, counts, grounds):
    """A Sun card in gap g: its benefit to each player beside it, counted for the player and against
    a rival; Rural Unrest and Popular Support by what they do now (counts: seat_counts), a pilgrimage
    card more by its VP for a player who could go now (grounds: pilgrim_grounds)."""
    n = st[S_N_PLAYERS]
    total = 0.0
    group = pilgrim_group(kind) if grounds != 0 else 0
    for side in range(2):
        q = (g + side) % n
        benefit = w[W_SUN + kind]
        if kind == C_RURAL_UNREST:
            benefit = -w[W_ROAD_LOSS] * ((counts >> (16 * q)) & 255)
        elif kind == C_POPULAR:
            benefit = w[W_LABOUR] * ((counts >> (16 * q + 8)) & 255) * sun_field(P, C_POPULAR, SU_VALUE)
        elif group != 0 and (grounds >> (4 * q + group)) & 1:
            benefit += w[W_PILGRIM_READY] * sun_field(P, kind, SU_VALUE)
        total += benefit * (w[W_SUN_SELF] if q == p else -w[W_SUN_RIVAL])
    return total


@njit_noalloc
def other_value(P, st, w, p, decision, i, counts, grounds):
    """The value of option i of a Sun card, Building Project or Expert Surveyors decision."""
    a = opt(st, i, O_A)
    if decision == DEC_SUN_CARD:
        return sun_value(P, st, w, p, a, opt(st, i, O_B), counts, grounds)
    if a < 0:
        return 0.0
    left = sapa_incas_left(P, st)
    if decision == DEC_MORE_GARRISON:
        return building_value(P, st, w, p, a, P[R_GARRISON_SI], garrison_now(P, st, p), garrison_cost(P, st, p),
                              w[W_FUTURE] * left, w[W_RIVAL_SHARE] * left, w[W_RIVAL_NEAR] * left)
    return terrace_value(P, st, w, left)


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, int8, float64[::1], int64, int64, int64)")
def choose(P, st, stream, kind, weights, p, decision, n_options):
    """The index of the option seat p takes among the n_options the rules listed for `decision`."""
    if kind == KIND_RANDOM:
        return rng.randint(stream, n_options)
    if n_options == 1:
        return 0
    if decision == DEC_TURN:
        return choose_turn(P, st, stream, weights, p, n_options)
    if decision == DEC_ROAD:
        return choose_road(P, st, stream, weights, p, n_options)
    counts = seat_counts(P, st, p) if decision == DEC_SUN_CARD else 0
    grounds = pilgrim_grounds(P, st, weights) if decision == DEC_SUN_CARD else 0
    best, best_i = NO_VALUE, 0
    for i in range(n_options):
        value = noisy(stream, weights, other_value(P, st, weights, p, decision, i, counts, grounds))
        if value > best:
            best, best_i = value, i
    return best_i
