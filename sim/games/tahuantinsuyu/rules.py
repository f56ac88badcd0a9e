"""Tahuantinsuyu's forward model: setup, the turn-sequence track (Inca, Sun, People and Sapa Inca
phases), roads and their network, the seven building actions, conquering, the 21 Sun cards,
Pizarro and the final ranking. Section names in the docstrings are the rulebook's
(../shared/rules/tahuantinsuyu.md); README.md gives the reading chosen where it is ambiguous.

Every choice a player has goes through `ask`: the rules list the legal options in the state and the
seat's bot (bots.choose) picks one; a search seat's People-phase actions are the exception: the
round loop (play_from) stops there and search.play_game_search decides.
"""
import numpy as np
from numba import njit

from sim.core import rng
from sim.core.eventlog import append_event
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed

from .board import (
    active, bit_index, city_cost, conquerable, conquered, conquest_cost, eclipse_forbids_roads, eclipse_forbids_temple, free_roads,
    drop_line, garrison_cost, grow_lines, has, line_of, line_reach, n_lines, n_reached, pilgrim_card, reached_site,
    reaches, scan_roads, scanned_roads, temple_cost,
)
from .bots import choose
from .state import (
    T_KINDS, T_LOG, T_PARAMS, T_STATE, T_STREAM, T_WEIGHTS, ACT_CITY, ACT_CONQUER, ACT_END, ACT_EXTRA_ROAD,
    ACT_GARRISON, ACT_KEY_OUTPOST, ACT_PILGRIMAGE, ACT_RAPID, ACT_ROADS, ACT_TEMPLE, ACT_TERRACE, B_CITY,
    B_GARRISON, B_TEMPLE, CH_LABOUR, CH_RES, CH_VP, C_ANNUAL, C_BUILDING_PROJECT, C_FERVOR, C_GREAT, C_LOCAL, C_KEY_OUTPOST, C_POPULAR,
    C_PRESS_ON, C_RAPID, C_RURAL_UNREST, C_STORES, C_SURVEYORS, C_URBAN, C_WILDERNESS, DEC_MORE_GARRISON,
    DEC_MORE_TERRACE, DEC_ROAD, DEC_SUN_CARD, DEC_TURN, ERA_AT, ERR_BAD_CHOICE, ERR_CARDS, ERR_CHIPS, ERR_LABOUR,
    ERR_NEGATIVE, ERR_NONE, ERR_REACH, ERR_ROADS, ERR_TILES, ERR_VP, EV_BUILD, EV_CARDS, EV_CONQUER, EV_FINAL,
    EV_INCOME, EV_OUTPOST, EV_PASS, EV_PHASE, EV_PILGRIM, EV_PIZARRO, EV_POPULAR, EV_ROAD, EV_ROUND, EV_SCORE,
    EV_SUN_PLAY, EV_SUN_REVEAL, EV_TRANSFER, EV_UNREST, EV_WILD, HAND, H_DECK, H_INVASION, H_N_CHIPS, H_N_REGIONS,
    H_N_ROADS, H_N_ROUNDS, H_N_SITES, KIND_SEARCH, LOG_CAPACITY, LOG_WIDTH, MAX_OPTIONS, MAX_PHASES, MAX_SITES, MAX_STACK,
    MAX_WILD, N_OPT, N_STATE,
    N_SUN, N_TILES, O_A, O_B, O_C, PHASE_AT, PH_INCA, PH_PEOPLE, PH_SAPA_INCA, PH_SUN, P_ACTIVE, P_BUILD_DONE,
    P_BUILD_SITES, P_N_BUILD_SITES, P_NEAR_MASK, P_OWN_MASK,
    P_BUILT, P_BUILT_ROAD, P_BUILT_TEMPLE, P_CARD, P_CHIP_LABOUR, P_CONQUERED, P_FIRST_CARD, P_HAND, P_LABOUR,
    P_LAB_CARDS, P_LAB_CHIPS, P_LAB_GIVEN, P_LAB_RETURNED, P_LAB_ROW, P_LAB_SHORT, P_LAB_SPENT, P_LAB_TAKEN,
    P_LAB_TERRACES, P_LEAD_ROUNDS, P_N_CHIPS, P_OUTPOSTS, P_PILGRIMAGES, P_PILGRIM_DONE, P_RANK, P_RAPID_USED,
    P_LINES_OK, P_N_REACHED, P_REACH, P_REACHED, P_REGION_NEAR, P_RES1_CHIPS, P_UNREST_ROADS, P_ROADS, P_ROADS_BUILT, P_ROADS_LOST, P_ROAD_DONE, P_STAMP,
    P_SUN_HELD, P_SUN_PLAYED, P_SUN_SUFFERED, P_TERRACES, P_VP, P_VP_CARDS, P_VP_CITY, P_VP_CITY_SI, P_VP_CONQUEST,
    P_VP_GARRISON, P_VP_GARRISON_SI, P_VP_PILGRIM, P_VP_TEMPLE, P_VP_TEMPLE_BONUS, P_VP_TEMPLE_SI, P_VP_TERRACE,
    P_VP_TERRACE_SI, P_WILD_BUILT, P_WILD_USED, P_WON, REPLACES_BUILDING, REPLACES_ROADS, RESOURCES_AT, RF_A, RF_B,
    RF_REGION_A, RF_ROYAL, RG_N_LINES, RG_N_NB, RG_PLAYERS, RL_AT, MAX_RL, RG_START, RG_SUYU, R_CITY_COST, R_CITY_SI, R_CITY_VP, R_CONQUER_HIDDEN,
    R_EXTRA_ROAD_COST, R_GARRISON_SI, R_GARRISON_VP, R_LABOUR, R_STACK_SUN, R_SUN_HAND, R_TEMPLE_SI, R_TEMPLE_VP,
    R_TERRACE_AT_SI, R_TERRACE_COST, R_TERRACE_LABOUR, R_TERRACE_SI, R_TERRACE_VP, R_TILES, R_TRANSFER_EARLY,
    R_TRANSFER_LATE, R_TRANSFER_SECOND, R_TRANSFER_SECOND_MIN, R_TRANSFERS, R_UNREST_ANY_OWNER, R_WILD_NEIGHBOURS, R_WILD_SLOT, R_REACH_LINES, R_ANY_TERRITORY, MAX_WP, WP_AT, WP_N_AT, XY_AT, SF_BONUS,
    SF_KIND, SF_N_INC, SF_PILGRIM, SF_REGION, SK_CITY, SK_GARRISON, SK_SIGNIFICANT, SU_COUNT, SU_VALUE, S_ACTIONS,
    S_BOX_CHIPS, S_BUILDING, S_CHIP, S_DISCARD, S_DISCARD_N, S_DRAW, S_DRAW_N, S_ENDED, S_ERROR, S_FREE_LINES, S_GAP, S_GAP_N,
    S_GAP_SHOWN, S_GARRISON_ROUND, S_LABOUR, S_LEADER, S_LEAD_CHANGES, S_LOG_N, S_N_CHIPS, S_N_PLAYERS,
    S_N_REGIONS, S_N_ROADS, S_N_ROUNDS, S_N_SITES, S_OPTIONS, S_ORDER, S_OWNER, S_PEOPLE_DONE, S_PEOPLE_PHASES,
    S_PHASE, S_PIZARRO, S_PIZARRO_PHASE, S_PLACES, S_PIZARRO_ROUND, S_REVEALED, S_ROAD_OWNER, S_ROUND, S_SAPA_INCAS,
    S_SCRATCH, S_STAMP, S_TERRACE, S_TILES, S_TRANSFERS, S_TURN, S_UNOWNED, S_WILD, S_WILD_AT, S_WILD_N, S_WINNER, T_CITY, T_GARRISON, T_TEMPLE,
    T_TERRACE, chip_field, incident, incident_end, neighbour, region_field, road_field, seat_at, site_field, sun_field,
)

NEW_ROUND = -1  # play_from's `resume`: the current round from its start
ROUND_OVER = -1  # round_from: the round is over
GAME_OVER = -1  # play_from: the game is over (ranked)
CUT = -2  # play_from: a rollout cut short after round `cut_after`
NO_CUT = 1 << 30  # play_from's `cut_after` for a game played to its end
POS_STRIDE = 8  # resume_code: turn order positions 0..MAX_PLAYERS (one past the last: the phase's end)


# ------------------------------------------------------------------ small helpers
@njit_typed(f"void({T_STATE}, {T_LOG}, int64, int64, int64, int64, int64, int64)")
def log_event(st, log, ev, a, b, c, d, e):
    append_event(st, S_LOG_N, log, ev, a, b, c, d, e, 0)


@njit_typed(f"void({T_STATE}, int64, int64, int64, int64)")
def put_option(st, i, a, b, c):
    st[S_OPTIONS + i * N_OPT + O_A] = a
    st[S_OPTIONS + i * N_OPT + O_B] = b
    st[S_OPTIONS + i * N_OPT + O_C] = c


@njit_typed(f"int64({T_STATE}, int64, int64)")
def option(st, i, field):
    return st[S_OPTIONS + i * N_OPT + field]


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def ask(P, st, stream, kinds, W, p, decision, n_options):
    """Seat p's bot picks one of the n_options listed; a pick outside the list is an engine error."""
    st[S_ACTIONS] += 1
    picked = choose(P, st, stream, kinds[p], W[p], p, decision, n_options)
    if picked < 0 or picked >= n_options:
        st[S_ERROR] = ERR_BAD_CHOICE
        return 0
    return picked


@njit_noalloc
def n_players(st):
    return st[S_N_PLAYERS]


# ------------------------------------------------------------------ labour and the scoring track
@njit_noalloc
def take_labour(st, p, n):
    """Up to n labour units from the supply to seat p; returns how many the supply had."""
    got = min(max(n, 0), st[S_LABOUR])
    st[S_LABOUR] -= got
    st[seat_at(p) + P_LABOUR] += got
    return got


@njit_noalloc
def pay_labour(st, p, n):
    st[seat_at(p) + P_LABOUR] -= n
    st[S_LABOUR] += n
    st[seat_at(p) + P_LAB_SPENT] += n


@njit_typed(f"void({T_STATE}, int64, int64, int64)")
def add_vp(st, p, n, field):
    """Scoring: the piece moves n spaces; arriving later on a space puts it outside (behind)."""
    if n <= 0:
        return
    at = seat_at(p)
    st[at + P_VP] += n
    st[at + field] += n
    st[S_STAMP] += 1
    st[at + P_STAMP] = st[S_STAMP]


@njit_noalloc
def ahead(st, a, b):
    """Seat a is ahead of seat b on the scoring track: more VP, or the same space reached first."""
    va = st[seat_at(a) + P_VP]
    vb = st[seat_at(b) + P_VP]
    return va > vb or (va == vb and st[seat_at(a) + P_STAMP] < st[seat_at(b) + P_STAMP])


@njit_noalloc
def place_of(st, p):
    """0 for the leader, n - 1 for the last player."""
    k = 0
    for q in range(n_players(st)):
        if q != p and ahead(st, q, p):
            k += 1
    return k


@njit_typed(f"int64({T_STATE}, int64)")
def seat_in_place(st, k):
    for q in range(n_players(st)):
        if place_of(st, q) == k:
            return q
    return 0


@njit_noalloc
def rank_seats(st):
    """st[S_PLACES + k] = seat_in_place(st, k) for every place, in one pass (the phases read the
    order several times while no score moves)."""
    n = n_players(st)
    for k in range(n):
        st[S_PLACES + k] = -1
    for q in range(n):
        k = place_of(st, q)
        if st[S_PLACES + k] < 0:
            st[S_PLACES + k] = q
    for k in range(n):
        if st[S_PLACES + k] < 0:
            st[S_PLACES + k] = 0


# ------------------------------------------------------------------ the road network
@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64, int64)")
def mark_reached(P, st, p, s, queue_len):
    at = seat_at(p)
    st[at + P_REACH + s] = 1
    st[at + P_REACHED + st[at + P_N_REACHED]] = s
    st[at + P_N_REACHED] += 1
    kind = site_field(P, s, SF_KIND)
    if kind == SK_CITY or kind == SK_SIGNIFICANT or kind == SK_GARRISON or site_field(P, s, SF_PILGRIM) != 0:
        st[at + P_BUILD_SITES + st[at + P_N_BUILD_SITES]] = s
        st[at + P_N_BUILD_SITES] += 1
    r = site_field(P, s, SF_REGION)
    if r >= 0 and P[R_REACH_LINES]:  # the regions the site's dashed lines lead into (the stricter reading)
        near = 1 << r
        for i in range(site_field(P, s, SF_N_INC)):
            x = site_field(P, incident_end(P, s, i), SF_REGION)
            if x >= 0:
                near |= 1 << x
        m = near
        while m != 0:
            low = m & -m
            m ^= low
            st[at + P_REGION_NEAR + bit_index(low)] += 1
        st[at + P_NEAR_MASK] |= near
    elif r >= 0:  # the regions the network now leads into or borders (touches)
        st[at + P_REGION_NEAR + r] += 1
        near = 1 << r
        for i in range(region_field(P, r, RG_N_NB)):
            x = neighbour(P, r, i)
            st[at + P_REGION_NEAR + x] += 1
            near |= 1 << x
        st[at + P_NEAR_MASK] |= near
    st[S_SCRATCH + queue_len] = s
    return queue_len + 1


@njit_typed(f"void({T_PARAMS}, {T_STATE}, int64, int64)")
def spread_reach(P, st, p, start):
    """Every site the seat's roads join to `start` (already reached) is reached too."""
    head = 0
    tail = 0
    st[S_SCRATCH] = start
    tail = 1
    while head < tail:
        s = st[S_SCRATCH + head]
        head += 1
        for i in range(site_field(P, s, SF_N_INC)):
            e = incident(P, s, i)
            if st[S_ROAD_OWNER + e] != p:
                continue
            other = road_field(P, e, RF_B) if road_field(P, e, RF_A) == s else road_field(P, e, RF_A)
            if not reaches(st, p, other):
                tail = mark_reached(P, st, p, other, tail)
        if st[S_WILD_AT + s] == 0:
            continue
        for w in range(st[S_WILD_N]):
            if st[S_WILD + w * 3 + 2] != p:
                continue
            a = st[S_WILD + w * 3]
            b = st[S_WILD + w * 3 + 1]
            if a == s and not reaches(st, p, b):
                tail = mark_reached(P, st, p, b, tail)
            elif b == s and not reaches(st, p, a):
                tail = mark_reached(P, st, p, a, tail)


@njit_noalloc
def recompute_reach(P, st, p):
    """The seat's network from scratch: the sites its roads join to Cuzco (site 0)."""
    at = seat_at(p)
    for s in range(st[S_N_SITES]):
        st[at + P_REACH + s] = 0
    for r in range(st[S_N_REGIONS]):
        st[at + P_REGION_NEAR + r] = 0
    st[at + P_N_REACHED] = 0
    st[at + P_N_BUILD_SITES] = 0
    st[at + P_NEAR_MASK] = 0
    st[at + P_LINES_OK] = 0  # the sites may come in another order: the lines are scanned again
    mark_reached(P, st, p, 0, 0)
    spread_reach(P, st, p, 0)


@njit_noalloc
def reveal_region(st, r):
    if r >= 0 and st[S_OWNER + r] != -2:
        st[S_REVEALED + r] = 1


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64)")
def unconquered_end(P, st, e):
    """Line e has an end in an unconquered region: Rural Unrest would destroy it (the count
    bots.seat_counts reads, P_UNREST_ROADS)."""
    for end in range(2):
        r = road_field(P, e, RF_REGION_A + end)
        if r >= 0 and st[S_OWNER + r] < 0:
            return True
    return False


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_LOG}, int64, int64, int64)")
def build_road(P, st, log, p, e, free):
    """Building a Road: the line becomes the seat's; a chip face down in a region it leads into is
    turned face up; the network grows. The seats' road lines stay current (board.grow_lines and
    drop_line)."""
    first_new = n_reached(st, p)
    st[S_ROAD_OWNER + e] = p
    st[S_FREE_LINES + road_field(P, e, RF_A)] -= 1
    st[S_FREE_LINES + road_field(P, e, RF_B)] -= 1
    at = seat_at(p)
    st[at + P_ROADS] += 1
    st[at + P_ROADS_BUILT] += 1
    st[at + P_BUILT_ROAD] = 1
    if unconquered_end(P, st, e):
        st[at + P_UNREST_ROADS] += 1
    a = road_field(P, e, RF_A)
    b = road_field(P, e, RF_B)
    reveal_region(st, site_field(P, a, SF_REGION))
    reveal_region(st, site_field(P, b, SF_REGION))
    if reaches(st, p, a) and not reaches(st, p, b):
        mark_reached(P, st, p, b, 0)
        spread_reach(P, st, p, b)
    elif reaches(st, p, b) and not reaches(st, p, a):
        mark_reached(P, st, p, a, 0)
        spread_reach(P, st, p, a)
    for q in range(n_players(st)):
        if q == p:
            if scanned_roads(st, p):
                grow_lines(P, st, p, e, first_new)
        else:
            drop_line(P, st, q, e)
    log_event(st, log, EV_ROAD, p, e, free, 0, 0)


@njit_noalloc
def wild_joined(st, a, b):
    if st[S_WILD_AT + a] == 0 or st[S_WILD_AT + b] == 0:
        return False
    for w in range(st[S_WILD_N]):
        x = st[S_WILD + w * 3]
        y = st[S_WILD + w * 3 + 1]
        if (x == a and y == b) or (x == b and y == a):
            return True
    return False


@njit_noalloc
def wild_orient(P, a, b, c):
    ax = P[XY_AT + a * 2]
    ay = P[XY_AT + a * 2 + 1]
    v = (P[XY_AT + b * 2] - ax) * (P[XY_AT + c * 2 + 1] - ay) - (P[XY_AT + b * 2 + 1] - ay) * (P[XY_AT + c * 2] - ax)
    return 1 if v > 0 else (-1 if v < 0 else 0)


@njit_noalloc
def wild_between(P, a, b, c):
    """Site c lies on the segment ab (c already on its straight line)."""
    return (min(P[XY_AT + a * 2], P[XY_AT + b * 2]) <= P[XY_AT + c * 2] <= max(P[XY_AT + a * 2], P[XY_AT + b * 2])
            and min(P[XY_AT + a * 2 + 1], P[XY_AT + b * 2 + 1]) <= P[XY_AT + c * 2 + 1]
            <= max(P[XY_AT + a * 2 + 1], P[XY_AT + b * 2 + 1]))


@njit_noalloc
def wild_cross(P, a, b, c, d):
    """The straight roads ab and cd cross on the reconstructed drawing (map.xy; a shared end is no
    crossing: geometry.segments_cross)."""
    if a == c or a == d or b == c or b == d:
        return False
    o1 = wild_orient(P, a, b, c)
    o2 = wild_orient(P, a, b, d)
    o3 = wild_orient(P, c, d, a)
    o4 = wild_orient(P, c, d, b)
    if o1 != 0 and o2 != 0 and o3 != 0 and o4 != 0:
        return o1 != o2 and o3 != o4
    return ((o1 == 0 and wild_between(P, a, b, c)) or (o2 == 0 and wild_between(P, a, b, d))
            or (o3 == 0 and wild_between(P, c, d, a)) or (o4 == 0 and wild_between(P, c, d, b)))


@njit_noalloc
def wild_crosses_built(P, st, a, b):
    """Wilderness Road: "as long as it does not cross an existing road": the pairs of the map cross no
    dashed line, so only the Wilderness Roads already built are left to check."""
    for w in range(st[S_WILD_N]):
        if wild_cross(P, a, b, st[S_WILD + w * 3], st[S_WILD + w * 3 + 1]):
            return True
    return False


@njit_noalloc
def wild_pair(P, a, b):
    """a and b are a pair of map.wilderness_pairs."""
    for i in range(P[WP_N_AT + a]):
        if P[WP_AT + a * MAX_WP + i] == b:
            return True
    return False


@njit_noalloc
def wild_open(P, st, p, a, b):
    """Wilderness Road: two built cities, the first in the network and the second not yet, joined by
    no road; with the map's pairs (base), a pair of map.wilderness_pairs that crosses no Wilderness
    Road built; with the neighbouring-regions reading, in the same or neighbouring regions."""
    if not (has(st, a, B_CITY) and has(st, b, B_CITY)) or not reaches(st, p, a) or reaches(st, p, b):
        return False
    if wild_joined(st, a, b):
        return False
    if P[R_WILD_NEIGHBOURS]:
        ra = site_field(P, a, SF_REGION)
        rb = site_field(P, b, SF_REGION)
        if ra != rb:
            near = False
            for i in range(region_field(P, ra, RG_N_NB)):
                if neighbour(P, ra, i) == rb:
                    near = True
            if not near:
                return False
        return True
    return wild_pair(P, a, b) and not wild_crosses_built(P, st, a, b)


@njit_noalloc
def can_wild(st, p):
    return active(st, p, C_WILDERNESS) > st[seat_at(p) + P_WILD_USED] and st[S_WILD_N] < MAX_WILD


@njit_noalloc
def list_scanned_roads(P, st, p, with_stop):
    """DEC_ROAD options: each open dashed line (a = line, b = the site it reaches: the seat's lines,
    board.scan_roads), each Wilderness Road (a, b the two cities, c = 1) while the card allows one,
    and stop (a = -1) when with_stop."""
    n = 0
    if not eclipse_forbids_roads(st, p):
        for i in range(n_lines(P, st, p)):
            put_option(st, n, line_of(st, p, i), line_reach(st, p, i), 0)
            n += 1
        if can_wild(st, p):
            n = list_wild_roads(P, st, p, n)
    if with_stop:
        put_option(st, n, -1, -1, 0)
        n += 1
    return n


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64)")
def list_wild_roads(P, st, p, n):
    """The Wilderness Road options after the n listed: each city of the network (in the order
    reached) with each built city outside it that wild_open allows: with the map's pairs (base), its
    partners of map.wilderness_pairs; with the neighbouring-regions reading, each built city outside
    (in site order, gathered once into the scratch area) with the pairs too far apart skipped by a
    region mask, so of wild_open's checks only the road already there is left to ask."""
    if P[R_WILD_NEIGHBOURS] == 0:  # the map's pairs: each city of the network with its partners
        for i in range(n_reached(st, p)):
            a = reached_site(st, p, i)
            if not has(st, a, B_CITY):
                continue
            for j in range(P[WP_N_AT + a]):
                b = P[WP_AT + a * MAX_WP + j]
                if (has(st, b, B_CITY) and not reaches(st, p, b) and not wild_joined(st, a, b)
                        and not wild_crosses_built(P, st, a, b) and n < MAX_OPTIONS):
                    put_option(st, n, a, b, 1)
                    n += 1
        return n
    m = 0
    for b in range(st[S_N_SITES]):
        if (st[S_BUILDING + b] & B_CITY) != 0 and not reaches(st, p, b):
            st[S_SCRATCH + m] = b
            m += 1
    if m == 0:
        return n
    for i in range(n_reached(st, p)):
        a = reached_site(st, p, i)
        if not has(st, a, B_CITY):
            continue
        ra = site_field(P, a, SF_REGION)
        near = -1  # every region
        if ra >= 0:
            near = 1 << ra
            for j in range(region_field(P, ra, RG_N_NB)):
                near |= 1 << neighbour(P, ra, j)
        for k in range(m):
            b = st[S_SCRATCH + k]
            rb = site_field(P, b, SF_REGION)
            if rb >= 0 and (near >> rb) & 1 == 0:
                continue
            if not wild_joined(st, a, b) and n < MAX_OPTIONS:  # the rest of wild_open holds for these pairs
                put_option(st, n, a, b, 1)
                n += 1
    return n


@njit_noalloc
def list_roads(P, st, p, with_stop):
    """DEC_ROAD options on the board as it is now (the lines scanned again)."""
    scan_roads(P, st, p)
    return list_scanned_roads(P, st, p, with_stop)


@njit_noalloc
def build_wild(P, st, log, p, a, b):
    first_new = n_reached(st, p)
    w = st[S_WILD_N]
    st[S_WILD + w * 3] = a
    st[S_WILD + w * 3 + 1] = b
    st[S_WILD + w * 3 + 2] = p
    st[S_WILD_N] = w + 1
    st[S_WILD_AT + a] += 1
    st[S_WILD_AT + b] += 1
    at = seat_at(p)
    st[at + P_WILD_USED] += 1
    st[at + P_WILD_BUILT] += 1
    st[at + P_BUILT_ROAD] = 1
    mark_reached(P, st, p, b, 0)
    spread_reach(P, st, p, b)
    if scanned_roads(st, p):
        grow_lines(P, st, p, -1, first_new)
    log_event(st, log, EV_WILD, p, a, b, 0, 0)


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64, int64)")
def build_roads(P, st, stream, log, kinds, W, p, n_roads, first_required, free):
    """Up to n_roads roads, each a decision (stop allowed after the first when first_required). A
    Wilderness Road takes one of them only with rules.wilderness_road_takes_a_road_slot; otherwise it
    is built beside them ("During the People Phase, you may connect any two cities with a single
    road")."""
    built = 0
    k = 0
    while k < n_roads:
        with_stop = not (first_required != 0 and k == 0)
        n = list_scanned_roads(P, st, p, with_stop)
        if n == 0:
            break
        i = ask(P, st, stream, kinds, W, p, DEC_ROAD, n)
        a = option(st, i, O_A)
        if a < 0:
            break
        if option(st, i, O_C) == 1:
            build_wild(P, st, log, p, a, option(st, i, O_B))
            if P[R_WILD_SLOT]:
                k += 1
        else:
            build_road(P, st, log, p, a, free)
            k += 1
        built += 1
    return built


@njit_noalloc
def any_road(P, st, p):
    """A road can be built."""
    if eclipse_forbids_roads(st, p):
        return False
    if n_lines(P, st, p) > 0:
        return True
    if can_wild(st, p):
        for i in range(n_reached(st, p)):
            a = reached_site(st, p, i)
            if has(st, a, B_CITY):
                for b in range(st[S_N_SITES]):
                    if (st[S_BUILDING + b] & B_CITY) != 0 and not reaches(st, p, b) and wild_open(P, st, p, a, b):
                        return True
    return False


# ------------------------------------------------------------------ conquering
@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_LOG}, int64, int64, int64)")
def conquer(P, st, log, p, r, extra):
    """Conquering a Region: pay the resistance, take the chip, score its VP, reveal the neighbours."""
    cost = conquest_cost(P, st, p, r, extra)
    pay_labour(st, p, cost)
    st[S_OWNER + r] = p
    st[S_REVEALED + r] = 1
    c = st[S_CHIP + r]
    at = seat_at(p)
    st[S_UNOWNED] &= ~(1 << r)
    for i in range(region_field(P, r, RG_N_LINES)):  # its lines leave Rural Unrest's toll (unless the other
        e = P[RL_AT + r * MAX_RL + i]                 # end lies in unconquered land too)
        q = st[S_ROAD_OWNER + e]
        if q >= 0 and road_field(P, e, RF_ROYAL) == 0 and not unconquered_end(P, st, e):
            st[seat_at(q) + P_UNREST_ROADS] -= 1
    st[at + P_OWN_MASK] |= 1 << r
    st[at + P_LINES_OK] = 0  # its territory grew: the road lines are scanned again
    if P[R_ANY_TERRITORY]:  # anyone's conquered territory counts: every seat's lines are scanned again
        for q in range(n_players(st)):
            st[seat_at(q) + P_LINES_OK] = 0
    st[at + P_N_CHIPS] += 1
    if region_field(P, r, RG_START) == 0 and chip_field(P, c, CH_RES) == 1:
        st[at + P_RES1_CHIPS] += 1
    st[at + P_CHIP_LABOUR] += chip_field(P, c, CH_LABOUR)
    st[at + P_CONQUERED + region_field(P, r, RG_SUYU)] += 1
    add_vp(st, p, chip_field(P, c, CH_VP), P_VP_CONQUEST)
    for i in range(region_field(P, r, RG_N_NB)):
        reveal_region(st, neighbour(P, r, i))
    log_event(st, log, EV_CONQUER, p, r, cost, chip_field(P, c, CH_VP), 0)


# ------------------------------------------------------------------ buildings
@njit_noalloc
def city_ground(P, st, s, b):
    """Building a City: an empty city site (b: its buildings) in a conquered region."""
    kind = site_field(P, s, SF_KIND)
    return (kind == SK_CITY or kind == SK_SIGNIFICANT) and b == 0 and conquered(P, st, s)


@njit_noalloc
def garrison_ground(P, st, s, b):
    """Building a Garrison: an empty garrison site (b: its buildings) in a conquered region."""
    return site_field(P, s, SF_KIND) == SK_GARRISON and b == 0 and conquered(P, st, s)


@njit_noalloc
def garrison_site_open(P, st, p, s):
    return garrison_ground(P, st, s, st[S_BUILDING + s]) and reaches(st, p, s)


@njit_noalloc
def temple_ground(b, fervor):
    """Building a Temple: a built city without a temple (b: the site's buildings); with Religious
    Fervor (fervor) a garrison too."""
    if b & B_TEMPLE:
        return False
    return (b & B_CITY) != 0 or ((b & B_GARRISON) != 0 and fervor)


@njit_noalloc
def terrace_open(P, st, p, r):
    """Building a Terrace: a region the player conquered (its RI chip), one terrace a region."""
    return st[S_OWNER + r] == p and region_field(P, r, RG_START) == 0 and st[S_TERRACE + r] == 0


@njit_noalloc
def outpost_ground(st, s, b):
    """Key Outpost: a garrison (b: the site's buildings) built in an earlier round becomes a city."""
    return (b & B_GARRISON) != 0 and (b & B_CITY) == 0 and st[S_GARRISON_ROUND + s] < st[S_ROUND]


@njit_noalloc
def outpost_cost(P, st, p):
    """Key Outpost: four labour; the cards that change a city's cost (Epidemic) change it too."""
    return sun_field(P, C_KEY_OUTPOST, SU_VALUE) + city_cost(P, st, p) - P[R_CITY_COST]


@njit_noalloc
def city_vp(P, st, p):
    return P[R_CITY_VP] + active(st, p, C_URBAN) * sun_field(P, C_URBAN, SU_VALUE)


@njit_noalloc
def build_city(P, st, log, p, s):
    pay_labour(st, p, city_cost(P, st, p))
    st[S_BUILDING + s] |= B_CITY
    st[S_TILES + T_CITY] -= 1
    st[seat_at(p) + P_BUILT + T_CITY] += 1
    add_vp(st, p, P[R_CITY_VP], P_VP_CITY)
    add_vp(st, p, active(st, p, C_URBAN) * sun_field(P, C_URBAN, SU_VALUE), P_VP_CARDS)
    log_event(st, log, EV_BUILD, p, T_CITY, s, city_cost(P, st, p), city_vp(P, st, p))


@njit_noalloc
def key_outpost(P, st, log, p, s):
    """Key Outpost: the garrison tile goes back, a city tile takes its place; the VP of a city."""
    cost = outpost_cost(P, st, p)
    pay_labour(st, p, cost)
    st[S_BUILDING + s] = (st[S_BUILDING + s] & ~B_GARRISON) | B_CITY
    st[S_TILES + T_GARRISON] += 1
    st[S_TILES + T_CITY] -= 1
    at = seat_at(p)
    st[at + P_BUILT + T_CITY] += 1
    st[at + P_OUTPOSTS] += 1
    add_vp(st, p, P[R_CITY_VP], P_VP_CITY)
    add_vp(st, p, active(st, p, C_URBAN) * sun_field(P, C_URBAN, SU_VALUE), P_VP_CARDS)
    log_event(st, log, EV_OUTPOST, p, s, cost, city_vp(P, st, p), 0)


@njit_noalloc
def build_temple(P, st, log, p, s):
    """Building a Temple: 4 VP, and a significant city's bonus printed beside it."""
    pay_labour(st, p, temple_cost(P, st, p))
    st[S_BUILDING + s] |= B_TEMPLE
    st[S_TILES + T_TEMPLE] -= 1
    at = seat_at(p)
    st[at + P_BUILT + T_TEMPLE] += 1
    st[at + P_BUILT_TEMPLE] = 1
    add_vp(st, p, P[R_TEMPLE_VP], P_VP_TEMPLE)
    bonus = site_field(P, s, SF_BONUS) if (st[S_BUILDING + s] & B_CITY) != 0 else 0
    add_vp(st, p, bonus, P_VP_TEMPLE_BONUS)
    log_event(st, log, EV_BUILD, p, T_TEMPLE, s, temple_cost(P, st, p), P[R_TEMPLE_VP] + bonus)


@njit_noalloc
def build_garrison(P, st, log, p, s):
    cost = garrison_cost(P, st, p)
    pay_labour(st, p, cost)
    st[S_BUILDING + s] |= B_GARRISON
    st[S_GARRISON_ROUND + s] = st[S_ROUND]
    st[S_TILES + T_GARRISON] -= 1
    st[seat_at(p) + P_BUILT + T_GARRISON] += 1
    add_vp(st, p, P[R_GARRISON_VP], P_VP_GARRISON)
    bonus = active(st, p, C_STORES) * sun_field(P, C_STORES, SU_VALUE)
    add_vp(st, p, bonus, P_VP_CARDS)
    log_event(st, log, EV_BUILD, p, T_GARRISON, s, cost, P[R_GARRISON_VP] + bonus)


@njit_noalloc
def build_terrace(P, st, log, p, r):
    pay_labour(st, p, P[R_TERRACE_COST])
    st[S_TERRACE + r] = 1
    st[S_TILES + T_TERRACE] -= 1
    at = seat_at(p)
    st[at + P_TERRACES] += 1
    st[at + P_BUILT + T_TERRACE] += 1
    add_vp(st, p, P[R_TERRACE_VP], P_VP_TERRACE)
    log_event(st, log, EV_BUILD, p, T_TERRACE, r, P[R_TERRACE_COST], P[R_TERRACE_VP])


@njit_noalloc
def list_more_garrisons(P, st, p):
    n = 0
    if st[S_TILES + T_GARRISON] > 0 and st[seat_at(p) + P_LABOUR] >= garrison_cost(P, st, p):
        for s in range(st[S_N_SITES]):
            if garrison_site_open(P, st, p, s):
                put_option(st, n, s, 0, 0)
                n += 1
    put_option(st, n, -1, 0, 0)
    return n + 1


@njit_noalloc
def list_more_terraces(P, st, p):
    n = 0
    if st[S_TILES + T_TERRACE] > 0 and st[seat_at(p) + P_LABOUR] >= P[R_TERRACE_COST]:
        for r in range(st[S_N_REGIONS]):
            if terrace_open(P, st, p, r):
                put_option(st, n, r, 0, 0)
                n += 1
    put_option(st, n, -1, 0, 0)
    return n + 1


# ------------------------------------------------------------------ pilgrimages
@njit_noalloc
def pilgrimage_ground(P, st, p, s, b):
    """Great / Annual / Local Pilgrimage: the card beside the player names the significant city,
    whose temple (b: the site's buildings) the network joins; one pilgrimage a People phase (the
    caller asks)."""
    group = site_field(P, s, SF_PILGRIM)
    return group != 0 and (b & B_TEMPLE) != 0 and active(st, p, pilgrim_card(group)) > 0


@njit_noalloc
def pilgrim_cards(st, p):
    """Pilgrimage cards beside the seat (none: no pilgrimage to list)."""
    return active(st, p, C_GREAT) + active(st, p, C_ANNUAL) + active(st, p, C_LOCAL)


# ------------------------------------------------------------------ the People phase turn
@njit_level(f"int64({T_PARAMS}, {T_STATE}, int64)")
def list_turn(P, st, p):
    """DEC_TURN options: the road-building action, each building action (city, temple, garrison,
    terrace, additional road, conquest, Key Outpost), a pilgrimage in place of either action, Rapid
    Expansion's extra conquest, and ending the turn (the building action passed). The road lines
    are the seat's P_LINES (scanned when out of date)."""
    at = seat_at(p)
    labour = st[at + P_LABOUR]
    road_left = st[at + P_ROAD_DONE] == 0
    build_left = st[at + P_BUILD_DONE] == 0
    n = 0
    roads_possible = False
    if road_left or (build_left and labour >= P[R_EXTRA_ROAD_COST]):
        roads_possible = any_road(P, st, p)
    if road_left and roads_possible:
        put_option(st, n, ACT_ROADS, -1, 0)
        n += 1
    face_down_ok = P[R_CONQUER_HIDDEN] != 0
    # the building sites of the network in one pass (in the order reached): the cities listed at
    # once, the temples, garrisons, Key Outposts and pilgrimages gathered for their places below
    city_ok = build_left and st[S_TILES + T_CITY] > 0 and labour >= city_cost(P, st, p)
    temple_ok = (build_left and st[S_TILES + T_TEMPLE] > 0 and labour >= temple_cost(P, st, p)
                 and not eclipse_forbids_temple(st, p))
    garrison_ok = build_left and st[S_TILES + T_GARRISON] > 0 and labour >= garrison_cost(P, st, p)
    outpost_ok = (build_left and active(st, p, C_KEY_OUTPOST) > 0 and st[S_TILES + T_CITY] > 0
                  and labour >= outpost_cost(P, st, p))
    pilgrim_ok = (road_left or build_left) and st[at + P_PILGRIM_DONE] == 0 and pilgrim_cards(st, p) > 0
    fervor = active(st, p, C_FERVOR) > 0
    n_temples = 0
    n_garrisons = 0
    n_outposts = 0
    n_pilgrims = 0
    if city_ok or temple_ok or garrison_ok or outpost_ok or pilgrim_ok:
        for k in range(st[at + P_N_BUILD_SITES]):
            s = st[at + P_BUILD_SITES + k]
            b = st[S_BUILDING + s]
            if b == 0:
                if city_ok and city_ground(P, st, s, b):
                    put_option(st, n, ACT_CITY, s, 0)
                    n += 1
                elif garrison_ok and garrison_ground(P, st, s, b):
                    st[S_SCRATCH + MAX_SITES + n_garrisons] = s
                    n_garrisons += 1
                continue
            if temple_ok and temple_ground(b, fervor):
                st[S_SCRATCH + n_temples] = s
                n_temples += 1
            if outpost_ok and outpost_ground(st, s, b):
                st[S_SCRATCH + 2 * MAX_SITES + n_outposts] = s
                n_outposts += 1
            if pilgrim_ok and pilgrimage_ground(P, st, p, s, b):
                st[S_SCRATCH + 3 * MAX_SITES + n_pilgrims] = s
                n_pilgrims += 1
    for k in range(n_temples):
        put_option(st, n, ACT_TEMPLE, st[S_SCRATCH + k], 0)
        n += 1
    for k in range(n_garrisons):
        put_option(st, n, ACT_GARRISON, st[S_SCRATCH + MAX_SITES + k], 0)
        n += 1
    if build_left:
        if st[S_TILES + T_TERRACE] > 0 and labour >= P[R_TERRACE_COST]:
            m = st[at + P_OWN_MASK]  # the regions conquered, in index order
            while m != 0:
                low = m & -m
                m ^= low
                r = bit_index(low)
                if terrace_open(P, st, p, r):
                    put_option(st, n, ACT_TERRACE, r, 0)
                    n += 1
        if labour >= P[R_EXTRA_ROAD_COST] and roads_possible:
            put_option(st, n, ACT_EXTRA_ROAD, -1, 0)
            n += 1
        m = st[S_UNOWNED] & st[at + P_NEAR_MASK]  # unconquered regions the network touches, in index order
        while m != 0:
            low = m & -m
            m ^= low
            r = bit_index(low)
            if conquerable(P, st, p, r, face_down_ok) and labour >= conquest_cost(P, st, p, r, 0):
                put_option(st, n, ACT_CONQUER, r, 0)
                n += 1
    for k in range(n_outposts):
        put_option(st, n, ACT_KEY_OUTPOST, st[S_SCRATCH + 2 * MAX_SITES + k], 0)
        n += 1
    for k in range(n_pilgrims):
        s = st[S_SCRATCH + 3 * MAX_SITES + k]
        if road_left:
            put_option(st, n, ACT_PILGRIMAGE, s, REPLACES_ROADS)
            n += 1
        if build_left:
            put_option(st, n, ACT_PILGRIMAGE, s, REPLACES_BUILDING)
            n += 1
    if active(st, p, C_RAPID) > st[at + P_RAPID_USED]:
        m = st[S_UNOWNED] & st[at + P_NEAR_MASK]
        while m != 0:
            low = m & -m
            m ^= low
            r = bit_index(low)
            extra = sun_field(P, C_RAPID, SU_VALUE)
            if conquerable(P, st, p, r, face_down_ok) and labour >= conquest_cost(P, st, p, r, extra):
                put_option(st, n, ACT_RAPID, r, 0)
                n += 1
    put_option(st, n, ACT_END, -1, 0)
    return n + 1


@njit_inline
def do_action(P, st, stream, log, kinds, W, p, act, target, extra):
    """Carry out one DEC_TURN option."""
    at = seat_at(p)
    if act == ACT_ROADS:
        st[at + P_ROAD_DONE] = 1
        build_roads(P, st, stream, log, kinds, W, p, free_roads(P, st, p), 0, 1)
        return
    if act == ACT_PILGRIMAGE:
        if extra == REPLACES_ROADS:
            st[at + P_ROAD_DONE] = 1
        else:
            st[at + P_BUILD_DONE] = 1
        st[at + P_PILGRIM_DONE] = 1
        st[at + P_PILGRIMAGES] += 1
        vp = sun_field(P, pilgrim_card(site_field(P, target, SF_PILGRIM)), SU_VALUE)
        add_vp(st, p, vp, P_VP_PILGRIM)
        log_event(st, log, EV_PILGRIM, p, target, vp, 0, 0)
        return
    if act == ACT_RAPID:
        st[at + P_RAPID_USED] += 1
        conquer(P, st, log, p, target, sun_field(P, C_RAPID, SU_VALUE))
        return
    st[at + P_BUILD_DONE] = 1
    if act == ACT_CITY:
        build_city(P, st, log, p, target)
    elif act == ACT_TEMPLE:
        build_temple(P, st, log, p, target)
    elif act == ACT_GARRISON:
        build_garrison(P, st, log, p, target)
        for _ in range(active(st, p, C_BUILDING_PROJECT)):  # Building Project: another, paid
            n = list_more_garrisons(P, st, p)
            s = option(st, ask(P, st, stream, kinds, W, p, DEC_MORE_GARRISON, n), O_A)
            if s < 0:
                break
            build_garrison(P, st, log, p, s)
    elif act == ACT_TERRACE:
        build_terrace(P, st, log, p, target)
        for _ in range(active(st, p, C_SURVEYORS)):  # Expert Surveyors: another, paid
            n = list_more_terraces(P, st, p)
            r = option(st, ask(P, st, stream, kinds, W, p, DEC_MORE_TERRACE, n), O_A)
            if r < 0:
                break
            build_terrace(P, st, log, p, r)
    elif act == ACT_EXTRA_ROAD:
        pay_labour(st, p, P[R_EXTRA_ROAD_COST])
        # Workers Press On: a second road free, one more per card
        build_roads(P, st, stream, log, kinds, W, p, 1 + active(st, p, C_PRESS_ON) * sun_field(P, C_PRESS_ON,
                                                                                              SU_VALUE), 1, 0)
    elif act == ACT_CONQUER:
        conquer(P, st, log, p, target, 0)
    elif act == ACT_KEY_OUTPOST:
        key_outpost(P, st, log, p, target)


@njit_inline
def turn_from(P, st, stream, log, kinds, W, p):
    """People Phase: the road-building action and the building action, in the order the player
    likes (a pilgrimage may replace either), until the player ends the turn. S_TURN is odd while
    it lasts (only the seat's own actions change the board then: bots.best_road_value keeps its
    valuation of the road lines while they stay the same); the caller adds 1 as the turn starts.
    Returns True when a search seat is to choose its next action (its options listed, the turn
    going on; the caller decides and goes on with end_turn_with or do_action), else False."""
    for _ in range(16):
        if st[S_ERROR] != ERR_NONE:
            break
        n = list_turn(P, st, p)
        if n == 1:
            break
        if kinds[p] == KIND_SEARCH:
            return True
        i = ask(P, st, stream, kinds, W, p, DEC_TURN, n)
        act = option(st, i, O_A)
        if act == ACT_END:
            end_turn_with(st, log, p)
            return False
        do_action(P, st, stream, log, kinds, W, p, act, option(st, i, O_B), option(st, i, O_C))
    st[S_TURN] += 1
    return False


@njit_noalloc
def end_turn_with(st, log, p):
    """The player ends the turn (its building action passed if not taken)."""
    if st[seat_at(p) + P_BUILD_DONE] == 0:
        log_event(st, log, EV_PASS, p, 0, 0, 0, 0)
    st[S_TURN] += 1


@njit_noalloc
def start_people_phase(st):
    for p in range(n_players(st)):
        at = seat_at(p)
        st[at + P_ROAD_DONE] = 0
        st[at + P_BUILD_DONE] = 0
        st[at + P_PILGRIM_DONE] = 0
        st[at + P_RAPID_USED] = 0
        st[at + P_WILD_USED] = 0
        st[at + P_BUILT_ROAD] = 0
        st[at + P_BUILT_TEMPLE] = 0


@njit_inline
def people_from(P, st, stream, log, kinds, W, pos, in_turn):
    """The People phase from the turn at position `pos` of the turn order (`in_turn`: that turn
    already begun). Returns the position of a search seat that is to choose (rules.turn_from), or
    -1 when the phase is over."""
    for k in range(pos, n_players(st)):
        if not (in_turn and k == pos):
            st[S_TURN] += 1
        if turn_from(P, st, stream, log, kinds, W, st[S_ORDER + k]):
            return k
    st[S_PEOPLE_DONE] += 1
    st[S_PEOPLE_PHASES] += 1
    return -1


# ------------------------------------------------------------------ the Inca phase
@njit_noalloc
def entitlement(P, st, p, rnd):
    """Inca Phase: the Resources row of the round, the labour on the RI chips held, one a terrace
    (unless terraces pay at the Sapa Inca)."""
    at = seat_at(p)
    n = P[RESOURCES_AT + rnd] + st[at + P_CHIP_LABOUR]
    if not P[R_TERRACE_AT_SI]:
        n += st[at + P_TERRACES] * P[R_TERRACE_LABOUR]
    return n


@njit_noalloc
def transfer(st, log, giver, taker, amount):
    given = min(amount, st[seat_at(giver) + P_LABOUR])
    if given <= 0:
        return
    st[seat_at(giver) + P_LABOUR] -= given
    st[seat_at(taker) + P_LABOUR] += given
    st[seat_at(giver) + P_LAB_GIVEN] += given
    st[seat_at(taker) + P_LAB_TAKEN] += given
    st[S_TRANSFERS] += 1
    log_event(st, log, EV_TRANSFER, giver, taker, given, 0, 0)


@njit_inline
def inca_phase(P, st, log):
    """Inca Phase: income (the last player first while the supply lasts), then the support
    transfers of the era: the leader to the last player, and later second to third."""
    n = n_players(st)
    rnd = st[S_ROUND]
    rank_seats(st)  # income and transfers move no score
    for k in range(n - 1, -1, -1):
        p = st[S_PLACES + k]
        at = seat_at(p)
        row = P[RESOURCES_AT + rnd]
        chips = st[at + P_CHIP_LABOUR]
        terraces = 0 if P[R_TERRACE_AT_SI] else st[at + P_TERRACES] * P[R_TERRACE_LABOUR]
        got = take_labour(st, p, row + chips + terraces)
        st[at + P_LAB_SHORT] += row + chips + terraces - got
        paid_row = min(got, row)
        paid_chips = min(got - paid_row, chips)
        st[at + P_LAB_ROW] += paid_row
        st[at + P_LAB_CHIPS] += paid_chips
        st[at + P_LAB_TERRACES] += got - paid_row - paid_chips
        log_event(st, log, EV_INCOME, p, row, chips, terraces, got)
    era = P[ERA_AT + rnd] if P[R_TRANSFERS] else 0
    if era == 1:
        transfer(st, log, st[S_PLACES], st[S_PLACES + n - 1], P[R_TRANSFER_EARLY])
    elif era == 2:
        transfer(st, log, st[S_PLACES], st[S_PLACES + n - 1], P[R_TRANSFER_LATE])
        if n >= P[R_TRANSFER_SECOND_MIN]:
            transfer(st, log, st[S_PLACES + 1], st[S_PLACES + 2], P[R_TRANSFER_SECOND])


# ------------------------------------------------------------------ the Sun phase
@njit_noalloc
def deal_turn_cards(st, log):
    """Sun Phase: the fewest points takes Turn Sequence card 1, the next card 2, and so on."""
    n = n_players(st)
    rank_seats(st)
    for i in range(n):
        p = st[S_PLACES + n - 1 - i]
        st[S_ORDER + i] = p
        st[seat_at(p) + P_CARD] = i + 1
        log_event(st, log, EV_CARDS, p, i + 1, 0, 0, 0)


@njit_noalloc
def draw_sun(st, stream, p):
    """Draw a Sun card into an empty slot of the hand; an empty pile is the discard pile shuffled."""
    if st[S_DRAW_N] == 0 and st[S_DISCARD_N] > 0:
        for i in range(st[S_DISCARD_N]):
            st[S_DRAW + i] = st[S_DISCARD + i]
        st[S_DRAW_N] = st[S_DISCARD_N]
        st[S_DISCARD_N] = 0
        rng.shuffle(stream, st[S_DRAW:S_DRAW + st[S_DRAW_N]], st[S_DRAW_N])
    if st[S_DRAW_N] == 0:
        return
    at = seat_at(p)
    for i in range(HAND):
        if st[at + P_HAND + i] < 0:
            st[S_DRAW_N] -= 1
            kind = st[S_DRAW + st[S_DRAW_N]]
            st[at + P_HAND + i] = kind
            st[at + P_SUN_HELD + kind] += 1
            return


@njit_noalloc
def gap_free(P, st, g):
    """One card a gap this Sun phase (ambiguity 2: a later Sun phase of the round may lay its card
    on an earlier one; the other reading leaves a gap closed until the Sapa Inca)."""
    if P[R_STACK_SUN]:
        return st[S_GAP_N + g] == st[S_GAP_SHOWN + g] and st[S_GAP_N + g] < MAX_STACK
    return st[S_GAP_N + g] == 0


@njit_noalloc
def list_sun_plays(P, st, p):
    """DEC_SUN_CARD options: each kind in the hand (once) with each free gap."""
    n = 0
    at = seat_at(p)
    for i in range(HAND):
        kind = st[at + P_HAND + i]
        if kind < 0:
            continue
        seen = False
        for j in range(i):
            if st[at + P_HAND + j] == kind:
                seen = True
        if seen:
            continue
        for g in range(n_players(st)):
            if gap_free(P, st, g):
                put_option(st, n, kind, g, 0)
                n += 1
    return n


@njit_noalloc
def play_sun_card(st, log, p, kind, g):
    at = seat_at(p)
    for i in range(HAND):
        if st[at + P_HAND + i] == kind:
            st[at + P_HAND + i] = -1
            break
    st[S_GAP + g * MAX_STACK + st[S_GAP_N + g]] = kind
    st[S_GAP_N + g] += 1
    st[at + P_SUN_PLAYED + kind] += 1
    log_event(st, log, EV_SUN_PLAY, p, kind, g, 0, 0)


@njit_noalloc
def rural_unrest(P, st, log, q):
    """Rural Unrest: the seat's roads running (partly) through an unconquered region are destroyed;
    the network is what still joins Cuzco. With the any-owner reading the roads destroyed are the
    ones P_UNREST_ROADS counts: none counted, none to look for (the network is recomputed all the
    same: the order of its sites is the order of the options the seat is offered next)."""
    lost = 0
    any_owner = P[R_UNREST_ANY_OWNER] != 0
    n_roads = 0 if any_owner and st[seat_at(q) + P_UNREST_ROADS] == 0 else st[S_N_ROADS]
    for e in range(n_roads):
        if st[S_ROAD_OWNER + e] != q or road_field(P, e, RF_ROYAL):
            continue
        hit = False
        for end in range(2):
            r = site_field(P, road_field(P, e, RF_A + end), SF_REGION)
            if r >= 0 and (st[S_OWNER + r] < 0 if any_owner else st[S_OWNER + r] != q):
                hit = True
        if hit:
            st[S_ROAD_OWNER + e] = -1
            st[S_FREE_LINES + road_field(P, e, RF_A)] += 1
            st[S_FREE_LINES + road_field(P, e, RF_B)] += 1
            lost += 1
            for p in range(n_players(st)):  # a seat joined to the freed line may build it now
                if reaches(st, p, road_field(P, e, RF_A)) or reaches(st, p, road_field(P, e, RF_B)):
                    st[seat_at(p) + P_LINES_OK] = 0
    at = seat_at(q)
    st[at + P_ROADS] -= lost
    st[at + P_ROADS_LOST] += lost
    st[at + P_UNREST_ROADS] = 0  # every line into unconquered land was destroyed (either reading)
    recompute_reach(P, st, q)
    log_event(st, log, EV_UNREST, q, lost, 0, 0, 0)


@njit_noalloc
def popular_support(P, st, log, q):
    """Popular Support: one labour for every RI chip of resistance 1 the seat holds (conquer counts them)."""
    got = take_labour(st, q, st[seat_at(q) + P_RES1_CHIPS] * sun_field(P, C_POPULAR, SU_VALUE))
    st[seat_at(q) + P_LAB_CARDS] += got
    log_event(st, log, EV_POPULAR, q, got, 0, 0, 0)


@njit_inline
def reveal_sun_cards(P, st, log):
    """The cards are turned face up together; each affects the two players beside its gap; Rural
    Unrest and Popular Support act at once, the others while the card lies (until the Sapa Inca)."""
    n = n_players(st)
    for g in range(n):
        for i in range(st[S_GAP_SHOWN + g], st[S_GAP_N + g]):
            kind = st[S_GAP + g * MAX_STACK + i]
            log_event(st, log, EV_SUN_REVEAL, g, kind, 0, 0, 0)
            for side in range(2):
                q = (g + side) % n
                st[seat_at(q) + P_ACTIVE + kind] += 1
                st[seat_at(q) + P_SUN_SUFFERED + kind] += 1
    for g in range(n):
        for i in range(st[S_GAP_SHOWN + g], st[S_GAP_N + g]):
            kind = st[S_GAP + g * MAX_STACK + i]
            for side in range(2):
                q = (g + side) % n
                if kind == C_RURAL_UNREST:
                    rural_unrest(P, st, log, q)
                elif kind == C_POPULAR:
                    popular_support(P, st, log, q)
        st[S_GAP_SHOWN + g] = st[S_GAP_N + g]


@njit_inline
def sun_phase(P, st, stream, log, kinds, W):
    """Sun Phase: Turn Sequence cards by score; in turn each plays a Sun card face down into a free
    gap between two neighbours and draws one; then all are revealed."""
    deal_turn_cards(st, log)
    for i in range(n_players(st)):
        p = st[S_ORDER + i]
        n = list_sun_plays(P, st, p)
        if n == 0:
            continue
        k = ask(P, st, stream, kinds, W, p, DEC_SUN_CARD, n)
        play_sun_card(st, log, p, option(st, k, O_A), option(st, k, O_B))
        draw_sun(st, stream, p)
    reveal_sun_cards(P, st, log)


# ------------------------------------------------------------------ the Sapa Inca phase
@njit_noalloc
def sapa_inca_vp(P, st, p):
    """Scoring in the Sapa Inca Phase for one player: cities 3, temples 1, garrisons 2 for every one
    the network joins, 1 for each own terrace. Returns nothing; adds by source."""
    city = 0
    temple = 0
    garrison = 0
    at = seat_at(p)
    for k in range(st[at + P_N_BUILD_SITES]):  # the reached sites a building can stand on
        b = st[S_BUILDING + st[at + P_BUILD_SITES + k]]
        if b == 0:
            continue
        if b & B_CITY:
            city += P[R_CITY_SI]
        if b & B_TEMPLE:
            temple += P[R_TEMPLE_SI]
        if b & B_GARRISON:
            garrison += P[R_GARRISON_SI]
    terraces = st[at + P_TERRACES] * P[R_TERRACE_SI]
    add_vp(st, p, city, P_VP_CITY_SI)
    add_vp(st, p, temple, P_VP_TEMPLE_SI)
    add_vp(st, p, garrison, P_VP_GARRISON_SI)
    add_vp(st, p, terraces, P_VP_TERRACE_SI)
    return city + temple + garrison + terraces


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_LOG}, int64)")
def sapa_inca_phase(P, st, log, last):
    """Sapa Inca Phase: players score in track order (the leader first); the round's Sun cards are
    discarded; labour above next round's entitlement goes back to the supply."""
    n = n_players(st)
    rank_seats(st)
    for k in range(n):
        p = st[S_PLACES + k]
        vp = sapa_inca_vp(P, st, p)
        log_event(st, log, EV_SCORE, p, vp, 0, 0, 0)
    for g in range(n):
        for i in range(st[S_GAP_N + g]):
            st[S_DISCARD + st[S_DISCARD_N]] = st[S_GAP + g * MAX_STACK + i]
            st[S_DISCARD_N] += 1
        st[S_GAP_N + g] = 0
        st[S_GAP_SHOWN + g] = 0
    for p in range(n):
        at = seat_at(p)
        for kind in range(N_SUN):
            st[at + P_ACTIVE + kind] = 0
        if last == 0:
            excess = st[at + P_LABOUR] - entitlement(P, st, p, st[S_ROUND] + 1)
            if excess > 0:
                st[at + P_LABOUR] -= excess
                st[S_LABOUR] += excess
                st[at + P_LAB_RETURNED] += excess
                log_event(st, log, EV_SCORE, p, 0, excess, 0, 0)
        if P[R_TERRACE_AT_SI]:
            st[at + P_LAB_TERRACES] += take_labour(st, p, st[at + P_TERRACES] * P[R_TERRACE_LABOUR])
    leader = seat_in_place(st, 0)
    st[seat_at(leader) + P_LEAD_ROUNDS] += 1
    if st[S_SAPA_INCAS] > 0 and leader != st[S_LEADER]:
        st[S_LEAD_CHANGES] += 1
    st[S_LEADER] = leader
    st[S_SAPA_INCAS] += 1


# ------------------------------------------------------------------ setup
@njit_inline
def setup(P, st, stream, log, kinds, W, n):
    """Setup: the map for the player count (the 3-player overlay leaves regions out), the royal
    line of each player from Cuzco, RI chips face down (revealed beside the starting regions), three
    Sun cards each, the Building Cost / Turn Sequence cards shuffled, the invasion tiles shuffled."""
    st[S_N_PLAYERS] = n
    st[S_WINNER] = -1
    st[S_LEADER] = -1
    st[S_LABOUR] = P[R_LABOUR]
    for t in range(N_TILES):
        st[S_TILES + t] = P[R_TILES + t]
    n_regions = P[H_N_REGIONS]
    st[S_N_REGIONS] = n_regions
    st[S_N_SITES] = P[H_N_SITES]
    st[S_N_ROADS] = P[H_N_ROADS]
    st[S_N_CHIPS] = P[H_N_CHIPS]
    # chips in a random order; the first go to the regions in map order, the rest stay in the box
    for c in range(st[S_N_CHIPS]):
        st[S_SCRATCH + c] = c
    rng.shuffle(stream, st[S_SCRATCH:S_SCRATCH + st[S_N_CHIPS]], st[S_N_CHIPS])
    used = 0
    for r in range(n_regions):
        st[S_CHIP + r] = -1
        if region_field(P, r, RG_PLAYERS) > n:
            st[S_OWNER + r] = -2
        elif region_field(P, r, RG_START):
            st[S_OWNER + r] = region_field(P, r, RG_SUYU)
            st[S_REVEALED + r] = 1
        else:
            st[S_OWNER + r] = -1
            st[S_UNOWNED] |= 1 << r
            st[S_CHIP + r] = st[S_SCRATCH + used]
            used += 1
    st[S_BOX_CHIPS] = st[S_N_CHIPS] - used
    for r in range(n_regions):
        if st[S_OWNER + r] >= 0:
            for i in range(region_field(P, r, RG_N_NB)):
                reveal_region(st, neighbour(P, r, i))
    royal = 0
    for e in range(st[S_N_ROADS]):
        a = site_field(P, road_field(P, e, RF_A), SF_REGION)
        b = site_field(P, road_field(P, e, RF_B), SF_REGION)
        gone = (a >= 0 and st[S_OWNER + a] == -2) or (b >= 0 and st[S_OWNER + b] == -2)
        if road_field(P, e, RF_ROYAL):
            st[S_ROAD_OWNER + e] = royal if royal < n else -2
            if royal < n:
                st[seat_at(royal) + P_ROADS] += 1
            royal += 1
        else:
            st[S_ROAD_OWNER + e] = -2 if gone else -1
            if not gone:
                st[S_FREE_LINES + road_field(P, e, RF_A)] += 1
                st[S_FREE_LINES + road_field(P, e, RF_B)] += 1
    deck = 0
    for kind in range(N_SUN):
        for _ in range(sun_field(P, kind, SU_COUNT)):
            st[S_DRAW + deck] = kind
            deck += 1
    st[S_DRAW_N] = deck
    rng.shuffle(stream, st[S_DRAW:S_DRAW + deck], deck)
    for p in range(n):
        for i in range(HAND):
            st[seat_at(p) + P_HAND + i] = -1
        for _ in range(P[R_SUN_HAND]):
            draw_sun(st, stream, p)
    for i in range(n):
        st[S_ORDER + i] = i
    rng.shuffle(stream, st[S_ORDER:S_ORDER + n], n)
    for i in range(n):
        p = st[S_ORDER + i]
        at = seat_at(p)
        st[at + P_CARD] = i + 1
        st[at + P_FIRST_CARD] = i  # the first turn-order position, 0 first (card i + 1)
        st[at + P_STAMP] = n - i  # card 1 counts as the hindmost piece while all stand on the start
    st[S_STAMP] = n
    st[S_PIZARRO] = rng.randint(stream, P[H_INVASION])
    for p in range(n):
        recompute_reach(P, st, p)


# ------------------------------------------------------------------ the end
@njit_inline
def finish_game(P, st, log):
    """How Do I Win?: whoever is ahead on the scoring track; no ties (the inner piece is ahead)."""
    n = n_players(st)
    for p in range(n):
        at = seat_at(p)
        st[at + P_RANK] = place_of(st, p) + 1
        st[at + P_WON] = 1 if st[at + P_RANK] == 1 else 0
        if st[at + P_RANK] == 1:
            st[S_WINNER] = p
    st[S_ENDED] = 1
    for p in range(n):
        log_event(st, log, EV_FINAL, p, st[seat_at(p) + P_VP], st[seat_at(p) + P_RANK], 0, 0)


# ------------------------------------------------------------------ checked mode
@njit_level(f"void({T_PARAMS}, {T_STATE})")
def check_invariants(P, st):
    """Nothing created or lost: labour, building tiles, RI chips, Sun cards; roads only on the
    dashed lines (or the own royal line); VP by source add up; the network is what the roads join."""
    n = n_players(st)
    labour = st[S_LABOUR]
    if labour < 0:
        st[S_ERROR] = ERR_NEGATIVE
    for p in range(n):
        if st[seat_at(p) + P_LABOUR] < 0:
            st[S_ERROR] = ERR_NEGATIVE
        labour += st[seat_at(p) + P_LABOUR]
    if labour != P[R_LABOUR]:
        st[S_ERROR] = ERR_LABOUR
    placed_city = 0
    placed_garrison = 0
    placed_temple = 0
    for s in range(st[S_N_SITES]):
        b = st[S_BUILDING + s]
        placed_city += 1 if b & B_CITY else 0
        placed_garrison += 1 if b & B_GARRISON else 0
        placed_temple += 1 if b & B_TEMPLE else 0
    placed_terrace = 0
    chips_held = 0
    chips_on_map = 0
    for r in range(st[S_N_REGIONS]):
        placed_terrace += st[S_TERRACE + r]
        if st[S_CHIP + r] >= 0:
            chips_on_map += 1
            if st[S_OWNER + r] >= 0:
                chips_held += 1
    if (placed_city + st[S_TILES + T_CITY] != P[R_TILES + T_CITY]
            or placed_garrison + st[S_TILES + T_GARRISON] != P[R_TILES + T_GARRISON]
            or placed_temple + st[S_TILES + T_TEMPLE] != P[R_TILES + T_TEMPLE]
            or placed_terrace + st[S_TILES + T_TERRACE] != P[R_TILES + T_TERRACE]):
        st[S_ERROR] = ERR_TILES
    for t in range(N_TILES):
        if st[S_TILES + t] < 0:
            st[S_ERROR] = ERR_NEGATIVE
    held_total = 0
    terraces = 0
    for p in range(n):
        held_total += st[seat_at(p) + P_N_CHIPS]
        terraces += st[seat_at(p) + P_TERRACES]
    if held_total != chips_held or chips_on_map + st[S_BOX_CHIPS] != st[S_N_CHIPS] or terraces != placed_terrace:
        st[S_ERROR] = ERR_CHIPS
    cards = st[S_DRAW_N] + st[S_DISCARD_N]
    for g in range(n):
        cards += st[S_GAP_N + g]
    for p in range(n):
        for i in range(HAND):
            if st[seat_at(p) + P_HAND + i] >= 0:
                cards += 1
    if cards != P[H_DECK]:
        st[S_ERROR] = ERR_CARDS
    for p in range(n):
        at = seat_at(p)
        owned = 0
        unrest = 0
        for e in range(st[S_N_ROADS]):
            if st[S_ROAD_OWNER + e] == p:
                owned += 1
                if road_field(P, e, RF_ROYAL) and e != st[S_N_ROADS] - 4 + p:
                    st[S_ERROR] = ERR_ROADS
                if road_field(P, e, RF_ROYAL) == 0 and unconquered_end(P, st, e):
                    unrest += 1
        if owned != st[at + P_ROADS] or unrest != st[at + P_UNREST_ROADS]:
            st[S_ERROR] = ERR_ROADS
        res1 = 0
        for r in range(st[S_N_REGIONS]):
            if st[S_OWNER + r] == p and region_field(P, r, RG_START) == 0 and chip_field(P, st[S_CHIP + r], CH_RES) == 1:
                res1 += 1
        if res1 != st[at + P_RES1_CHIPS]:
            st[S_ERROR] = ERR_CHIPS
        by_source = 0
        for f in range(P_VP_CONQUEST, P_VP_CARDS + 1):
            by_source += st[at + f]
        if by_source != st[at + P_VP]:
            st[S_ERROR] = ERR_VP
        before = 0
        for s in range(st[S_N_SITES]):
            before += st[at + P_REACH + s]
        recompute_reach(P, st, p)
        after = 0
        for s in range(st[S_N_SITES]):
            after += st[at + P_REACH + s]
        if before != after:
            st[S_ERROR] = ERR_REACH
    for e in range(st[S_N_ROADS]):
        if st[S_ROAD_OWNER + e] >= n:
            st[S_ERROR] = ERR_ROADS
    for s in range(st[S_N_SITES]):
        ends = 0
        for w in range(st[S_WILD_N]):
            ends += (st[S_WILD + w * 3] == s) + (st[S_WILD + w * 3 + 1] == s)
        if ends != st[S_WILD_AT + s]:
            st[S_ERROR] = ERR_ROADS
        free = 0
        for j in range(site_field(P, s, SF_N_INC)):
            e = incident(P, s, j)
            if st[S_ROAD_OWNER + e] == -1 and road_field(P, e, RF_ROYAL) == 0:
                free += 1
        if free != st[S_FREE_LINES + s]:
            st[S_ERROR] = ERR_ROADS


# ------------------------------------------------------------------ a whole game, resumable
@njit_noalloc
def resume_code(phase, pos, in_turn):
    """Where play_from goes on inside the current round: phase index, turn order position, and
    whether that position's turn has begun."""
    return (phase * POS_STRIDE + pos) * 2 + (1 if in_turn else 0)


@njit_noalloc
def start_round(st, log, rnd):
    st[S_ROUND] = rnd
    st[S_N_ROUNDS] = rnd + 1
    st[S_PEOPLE_DONE] = 0
    log_event(st, log, EV_ROUND, rnd + 1, 0, 0, 0, 0)


@njit_inline
def round_from(P, st, stream, log, kinds, W, checked, resume):
    """The current round's column of the turn-sequence track from `resume` (NEW_ROUND: its start,
    start_round done; else a resume_code inside a People phase). In the last round the invasion
    tile beside each People phase is turned, and the black dot (Pizarro) brings the final Sapa Inca
    at once. Returns a resume_code where a search seat is to choose, or ROUND_OVER."""
    rnd = st[S_ROUND]
    last = rnd == P[H_N_ROUNDS] - 1
    first = 0 if resume == NEW_ROUND else resume // (2 * POS_STRIDE)
    for i in range(first, MAX_PHASES):
        code = P[PHASE_AT + rnd * MAX_PHASES + i]
        if code == 0 or st[S_ERROR] != ERR_NONE:
            break
        resuming = resume != NEW_ROUND and i == first
        if not resuming:
            st[S_PHASE] = i
            log_event(st, log, EV_PHASE, code, 0, 0, 0, 0)
        if code == PH_INCA:
            inca_phase(P, st, log)
        elif code == PH_SUN:
            sun_phase(P, st, stream, log, kinds, W)
        elif code == PH_PEOPLE:
            if not resuming:
                start_people_phase(st)
            pos = (resume // 2) % POS_STRIDE if resuming else 0
            stop = people_from(P, st, stream, log, kinds, W, pos, resuming and resume % 2 == 1)
            if stop >= 0:
                return resume_code(i, stop, True)
            if last and st[S_PEOPLE_DONE] - 1 == st[S_PIZARRO]:
                st[S_PIZARRO_ROUND] = rnd + 1
                st[S_PIZARRO_PHASE] = st[S_PEOPLE_DONE]
                log_event(st, log, EV_PIZARRO, rnd + 1, st[S_PEOPLE_DONE], 0, 0, 0)
                sapa_inca_phase(P, st, log, 1)
                return ROUND_OVER
        elif code == PH_SAPA_INCA:
            sapa_inca_phase(P, st, log, 1 if last else 0)
        if checked:
            check_invariants(P, st)
    return ROUND_OVER


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, boolean, int64, int64)")
def play_from(P, st, stream, log, kinds, W, checked, resume, cut_after):
    """The rest of the game from `resume` in the current round (NEW_ROUND: the round's start), then
    the later rounds and the ranking. Returns the resume_code where a search seat is to choose (the
    search decides, then calls again), GAME_OVER, or CUT when round `cut_after` is over and the game
    goes on (a search rollout cut short; NO_CUT plays to the end). The real game and every search
    rollout play through this one loop, compiled once."""
    while True:
        stop = round_from(P, st, stream, log, kinds, W, checked, resume)
        if stop != ROUND_OVER:
            return stop
        rnd = st[S_ROUND] + 1
        if rnd >= P[H_N_ROUNDS] or st[S_ERROR] != ERR_NONE or st[S_PIZARRO_ROUND] > 0:
            break
        if st[S_ROUND] >= cut_after:
            return CUT
        start_round(st, log, rnd)
        resume = NEW_ROUND
    if st[S_ERROR] == ERR_NONE:
        finish_game(P, st, log)
        if checked:
            check_invariants(P, st)
    return GAME_OVER


@njit_noalloc
def seat_to_choose(st, stop):
    """The seat a play_from stop waits for."""
    return st[S_ORDER + (stop // 2) % POS_STRIDE]


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, int64, int64)")
def carry_out_choice(P, st, stream, log, kinds, W, p, i, stop):
    """Seat p takes DEC_TURN option i (listed by list_turn) at the play_from stop `stop`; returns
    where play_from goes on: the same turn, or the next position once the turn is ended."""
    act = option(st, i, O_A)
    if act == ACT_END:
        end_turn_with(st, log, p)
        return resume_code(stop // (2 * POS_STRIDE), (stop // 2) % POS_STRIDE + 1, False)
    do_action(P, st, stream, log, kinds, W, p, act, option(st, i, O_B), option(st, i, O_C))
    return stop


@njit_inline
def start_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked):
    """Setup from the game's seed; True when the first round is to be played."""
    rng.seed_game_stream(stream, run_seed, game_index)
    setup(P, st, stream, log, kinds, W, n)
    if checked:
        check_invariants(P, st)
    if st[S_ERROR] != ERR_NONE or P[H_N_ROUNDS] == 0:
        return False
    start_round(st, log, 0)
    return True


@njit_level(f"void({T_PARAMS}, {T_STATE}, {T_STREAM}, {T_LOG}, {T_KINDS}, {T_WEIGHTS}, int64, uint64, uint64, boolean)")
def play_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked):
    """One game from its seed: setup, the rounds of the turn-sequence track, the ranking."""
    if start_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked):
        play_from(P, st, stream, log, kinds, W, checked, NEW_ROUND, NO_CUT)
    elif st[S_ERROR] == ERR_NONE:
        finish_game(P, st, log)
        if checked:
            check_invariants(P, st)


@njit(cache=True)
def new_game_arrays(logging):
    st = np.zeros(N_STATE, np.int64)
    stream = np.zeros(rng.STATE_WORDS, np.uint64)
    log = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int64)
    return st, stream, log


@njit(cache=True)
def run_one(P, n, kinds, W, run_seed, game_index, checked, logging):
    """One game's arrays, played (tests and replay; the batch kernel is play_games)."""
    st, stream, log = new_game_arrays(logging)
    play_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked)
    return st, log
