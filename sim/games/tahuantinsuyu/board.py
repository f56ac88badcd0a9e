"""Tahuantinsuyu's board queries, shared by the rules and the bots: costs with the Sun cards beside a
player, who may build a road on a line, which sites a network reaches, which regions it touches.
Nothing here changes the state (rules.py does)."""
from sim.core.jit import njit_inline, njit_noalloc, njit_typed

from .state import (
    T_PARAMS, T_STATE, S_FREE_LINES, P_LINES, P_LINES_OK, P_LINES_VER, P_N_LINES, incident, incident_end, SI_LEFT_AT, P_N_REACHED, P_REACHED, SF_N_INC, C_EL_NINO, C_ECLIPSE, C_EPIDEMIC, C_HARSH, C_MILITARY, C_RESISTANCE, C_ROADCREW,
    C_ANNUAL, C_GREAT, C_LOCAL, PG_ANNUAL, PG_GREAT, PG_LOCAL, CH_RES, MAX_PHASES, P_ACTIVE, P_BUILT_ROAD, P_BUILT_TEMPLE,
    P_REACH, P_REGION_NEAR, RF_A, RF_B, RF_ROYAL, R_ANY_TERRITORY, R_CITY_COST, R_FREE_ROADS, R_GARRISON_COST,
    R_TEMPLE_COST, SF_REGION, S_BUILDING, S_CHIP, S_N_PLAYERS, S_OWNER, S_PHASE, S_REVEALED, S_ROAD_OWNER, S_ROUND,
    SU_VALUE, chip_field, road_field, seat_at, site_field, sun_field,
)


DEBRUIJN = 0x03F79D71B4CB0A89
DEBRUIJN_BIT = [0] * 64
for _bit in range(64):
    DEBRUIJN_BIT[(((1 << _bit) * DEBRUIJN) % (1 << 64)) >> 58] = _bit
DEBRUIJN_BIT = tuple(DEBRUIJN_BIT)
assert sorted(DEBRUIJN_BIT) == list(range(64))


@njit_typed("int64(int64)")
def bit_index(low):
    """The index of the one set bit of `low` (a power of two below 2**63): a de Bruijn multiply, so the
    region masks' candidates are visited in index order without a loop over every region."""
    return DEBRUIJN_BIT[((low * DEBRUIJN) >> 58) & 63]


@njit_typed(f"int64({T_STATE}, int64, int64)")
def active(st, p, kind):
    """Face-up Sun cards of a kind beside seat p (their effects stack)."""
    return st[seat_at(p) + P_ACTIVE + kind]


@njit_typed(f"boolean({T_STATE}, int64, int64)")
def reaches(st, p, s):
    return st[seat_at(p) + P_REACH + s] != 0


@njit_noalloc
def own_territory(P, st, p, s):
    """Site s lies in a region seat p controls (its starting region or one it conquered)."""
    r = site_field(P, s, SF_REGION)
    return r >= 0 and st[S_OWNER + r] == p


@njit_noalloc
def conquered(P, st, s):
    """Site s lies in a region somebody controls (Cuzco lies in none)."""
    r = site_field(P, s, SF_REGION)
    return r >= 0 and st[S_OWNER + r] >= 0


@njit_noalloc
def road_territory(P, st, p, s):
    """Building a Road: "at least one of the two points being connected must lie in territory you
    have already conquered": site s lies in the seat's own territory, or (switch
    rules.road_end_in_anyones_conquered_territory) in a region anyone controls."""
    if P[R_ANY_TERRITORY]:
        return conquered(P, st, s)
    return own_territory(P, st, p, s)


@njit_noalloc
def eclipse_forbids_roads(st, p):
    """Solar Eclipse: a player who built a temple this People phase builds no road."""
    return active(st, p, C_ECLIPSE) > 0 and st[seat_at(p) + P_BUILT_TEMPLE] != 0


@njit_noalloc
def eclipse_forbids_temple(st, p):
    return active(st, p, C_ECLIPSE) > 0 and st[seat_at(p) + P_BUILT_ROAD] != 0


@njit_noalloc
def free_roads(P, st, p):
    """Roads of the road-building action: two, one more per Extra Roadcrew, one fewer per El Nino
    Flooding but never fewer than one."""
    n = P[R_FREE_ROADS] + active(st, p, C_ROADCREW) * sun_field(P, C_ROADCREW, SU_VALUE)
    floods = active(st, p, C_EL_NINO)
    if floods > 0:
        n = max(1, n - floods * sun_field(P, C_EL_NINO, SU_VALUE))
    return n


@njit_noalloc
def city_cost(P, st, p):
    return P[R_CITY_COST] + active(st, p, C_EPIDEMIC) * sun_field(P, C_EPIDEMIC, SU_VALUE)


@njit_noalloc
def temple_cost(P, st, p):
    return P[R_TEMPLE_COST]


@njit_noalloc
def garrison_cost(P, st, p):
    return P[R_GARRISON_COST] + active(st, p, C_HARSH) * sun_field(P, C_HARSH, SU_VALUE)


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64, int64, int64)")
def conquest_cost(P, st, p, r, extra):
    """Conquering a Region: the chip's resistance, one more per Resistance card, one fewer per
    Military Superiority (never below nothing), plus `extra` (Rapid Expansion)."""
    c = st[S_CHIP + r]
    cost = (chip_field(P, c, CH_RES) + active(st, p, C_RESISTANCE) * sun_field(P, C_RESISTANCE, SU_VALUE)
            - active(st, p, C_MILITARY) * sun_field(P, C_MILITARY, SU_VALUE))
    return max(0, cost) + extra


@njit_noalloc
def touches(P, st, p, r):
    """The seat's network leads into region r or borders it (reaches a site of r or of a neighbour:
    mark_reached counts them, the neighbour lists being symmetric)."""
    return st[seat_at(p) + P_REGION_NEAR + r] > 0


@njit_noalloc
def conquerable(P, st, p, r, face_down_ok):
    return st[S_OWNER + r] == -1 and (face_down_ok or st[S_REVEALED + r] != 0) and touches(P, st, p, r)


@njit_noalloc
def sapa_incas_left(P, st):
    """Sapa Inca phases still to come this game, the current one included (the last round's counted
    once, whenever Pizarro comes): a table data.py computes from the track."""
    return P[SI_LEFT_AT + st[S_ROUND] * MAX_PHASES + st[S_PHASE]]


@njit_noalloc
def connected_players(st, s):
    """Players whose network joins site s to Cuzco."""
    count = 0
    for q in range(st[S_N_PLAYERS]):
        if reaches(st, q, s):
            count += 1
    return count


@njit_typed(f"boolean({T_STATE}, int64, int64)")
def has(st, s, bit):
    return (st[S_BUILDING + s] & bit) != 0


@njit_noalloc
def pilgrim_card(group):
    """The Sun card that opens a pilgrimage to a significant city of the group."""
    if group == PG_GREAT:
        return C_GREAT
    if group == PG_ANNUAL:
        return C_ANNUAL
    return C_LOCAL


@njit_noalloc
def pilgrim_group(kind):
    """The group of significant cities whose pilgrimage the Sun card `kind` opens (pilgrim_card's
    inverse; 0: not a pilgrimage card)."""
    for group in range(PG_GREAT, PG_LOCAL + 1):
        if pilgrim_card(group) == kind:
            return group
    return 0


@njit_noalloc
def n_reached(st, p):
    """How many sites the seat's network joins to Cuzco (reached_site lists them)."""
    return st[seat_at(p) + P_N_REACHED]


@njit_noalloc
def reached_site(st, p, i):
    return st[seat_at(p) + P_REACHED + i]


@njit_noalloc
def n_lines_at(P, s):
    return site_field(P, s, SF_N_INC)


@njit_noalloc
def line_target(P, st, p, s, own_s, j):
    """Building a Road: a free dashed line joined to the own network (which reaches Cuzco), with at
    least one end in the player's territory. Line e at the reached site s (own_s: s lies in the
    seat's territory, read once a site) is counted once (from its smaller end when both ends are
    reached). j: the line's slot at s. Returns the line's other end, -1 when the line is no candidate."""
    e = incident(P, s, j)
    if st[S_ROAD_OWNER + e] != -1 or road_field(P, e, RF_ROYAL):
        return -1
    other = incident_end(P, s, j)
    if not (own_s or road_territory(P, st, p, other)):
        return -1
    if not reaches(st, p, other) or s < other:
        return other
    return -1


@njit_inline
def scan_site_lines(P, st, p, s, n):
    """The lines at the reached site s, appended to the seat's P_LINES after the n there; the new count."""
    if st[S_FREE_LINES + s] == 0:
        return n
    at = seat_at(p) + P_LINES
    own_s = road_territory(P, st, p, s)
    for j in range(n_lines_at(P, s)):
        t = line_target(P, st, p, s, own_s, j)
        if t >= 0:
            st[at + 2 * n] = incident(P, s, j)
            st[at + 2 * n + 1] = t
            n += 1
    return n


@njit_typed(f"int64({T_PARAMS}, {T_STATE}, int64)")
def scan_roads(P, st, p):
    """The dashed lines seat p may build now, in the road options' order (the network's sites in
    the order reached, each site's lines), each with the site it reaches, into the seat's P_LINES,
    which the rules then keep current (grow_lines, drop_line) until a conquest, Rural Unrest or a
    network recomputed marks them out of date (P_LINES_OK)."""
    n = 0
    for i in range(n_reached(st, p)):
        n = scan_site_lines(P, st, p, reached_site(st, p, i), n)
    at = seat_at(p)
    st[at + P_N_LINES] = n
    st[at + P_LINES_OK] = 1
    st[at + P_LINES_VER] += 1
    return n


@njit_noalloc
def n_lines(P, st, p):
    """How many lines seat p may build now (its P_LINES, scanned when out of date)."""
    at = seat_at(p)
    return st[at + P_N_LINES] if st[at + P_LINES_OK] != 0 else scan_roads(P, st, p)


@njit_noalloc
def line_of(st, p, i):
    return st[seat_at(p) + P_LINES + 2 * i]


@njit_noalloc
def line_reach(st, p, i):
    """The site the seat's i-th line reaches."""
    return st[seat_at(p) + P_LINES + 2 * i + 1]


@njit_typed(f"void({T_PARAMS}, {T_STATE}, int64, int64, int64)")
def grow_lines(P, st, p, e, first_new):
    """Seat p's P_LINES kept current after it built line e (-1: a Wilderness Road) and its network
    grew by the sites reached from index first_new on, without scanning again: e goes; a line to a
    newly reached site stays only if counted from its smaller end; the new sites' lines follow, in
    the order reached (what scan_roads would list: no territory and no other line changed)."""
    at = seat_at(p)
    base = at + P_LINES
    n = 0
    for i in range(st[at + P_N_LINES]):
        line = st[base + 2 * i]
        t = st[base + 2 * i + 1]
        if line == e:
            continue
        x = road_field(P, line, RF_A) + road_field(P, line, RF_B) - t
        if reaches(st, p, t) and t < x:
            continue
        st[base + 2 * n] = line
        st[base + 2 * n + 1] = t
        n += 1
    for i in range(first_new, n_reached(st, p)):
        n = scan_site_lines(P, st, p, reached_site(st, p, i), n)
    st[at + P_N_LINES] = n
    st[at + P_LINES_VER] += 1


@njit_noalloc
def drop_line(P, st, p, e):
    """Line e was built by another seat than p: it leaves p's P_LINES (nothing else changes there);
    only a seat whose network reaches one of its ends can have listed it."""
    at = seat_at(p)
    if st[at + P_LINES_OK] == 0 or not (reaches(st, p, road_field(P, e, RF_A)) or reaches(st, p, road_field(P, e, RF_B))):
        return
    base = at + P_LINES
    n = 0
    for i in range(st[at + P_N_LINES]):
        line = st[base + 2 * i]
        if line == e:
            continue
        st[base + 2 * n] = line
        st[base + 2 * n + 1] = st[base + 2 * i + 1]
        n += 1
    st[at + P_N_LINES] = n
    st[at + P_LINES_VER] += 1


@njit_noalloc
def scanned_roads(st, p):
    """The seat's P_LINES are current (the rules and the bots scan again otherwise)."""
    return st[seat_at(p) + P_LINES_OK] != 0
