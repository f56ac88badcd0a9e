"""Layouts of Tahuantinsuyu: the parameter array, the state array, and the named indices into them.

The parameters (components.toml + a variant, packed by data.py) are one flat int64 array `P`:
  P[R_*]                              the rules (RULES below, each key declared once), then tables
                                      at constant offsets read through the accessors below:
  region_field(P, r, RG_*)            region r's suyu, start flag, least player count, ring
  site_field(P, s, SF_*)              site s's region (-1: Cuzco), kind, temple bonus, pilgrimage
  road_field(P, e, RF_*)              road line e's two sites and whether it is a royal (dash-dot) line
  P[NB_AT + r * MAX_NB + i]           region r's neighbours (count at RG_N_NB)
  P[RL_AT + r * MAX_RL + i]           the road lines with an end in region r, each once (count at RG_N_LINES)
  P[WP_AT + s * MAX_WP + i]           the sites a Wilderness Road may join to site s (count at WP_N_AT + s)
  P[XY_AT + s * 2 + 0/1]              site s's point on the reconstructed drawing (x1000)
  P[INC_AT + s * MAX_INC + i]         the road lines touching site s (count at SF_N_INC)
  P[INC_END_AT + s * MAX_INC + i]     the other end of each of them
  chip_field(P, c, CH_*)              RI chip c's resistance, labour and VP
  sun_field(P, k, SU_*)               Sun card kind k's count and printed number
  P[PHASE_AT + round * MAX_PHASES + i] the turn-sequence track: phase codes PH_* of each round
A game's state is one flat int64 array `st`:
  st[S_*]                             the game scalars and the board (regions, sites, road lines,
                                      Sun cards between the players, the draw and discard piles)
  st[seat_at(p) + P_*]                seat p's fields (labour, VP, hand, network, records)
  st[S_OPTIONS + i * N_OPT + O_*]     the options of the decision a bot is asked (rules list them)
Seat p plays suyu p (SUYU_NAMES order); seats sit round the table in that order, and gap g lies
between seats g and g + 1 (mod n).
"""
from sim.core.jit import njit_typed
from sim.core.search import STAT_WORDS
from sim.core.paramspec import Bool, Int, RulesLayout

T_PARAMS = "int64[::1]"
T_STATE = "int64[::1]"
T_STREAM = "uint64[::1]"
T_KINDS = "int8[::1]"
T_WEIGHTS = "float64[:, ::1]"
T_LOG = "int64[:, ::1]"

MAX_PLAYERS = 4
MIN_PLAYERS = 3

SUYU_NAMES = ("chinchaysuyu", "antisuyu", "collasuyu", "cuntisuyu")
N_SUYU = 4

# ---- map bounds
MAX_REGIONS = 56  # 4 + 45 on the map; region r is bit r of the int64 region masks (S_UNOWNED, P_*_MASK)
MAX_SITES = 128
MAX_ROADS = 256
MAX_NB = 12  # neighbours of a region
MAX_RL = 48  # road lines with an end in a region
MAX_INC = 12  # road lines at a site
MAX_CHIPS = 64
MAX_ROUNDS = 10
MAX_PHASES = 12
MAX_WILD = 64  # Wilderness Roads built in a game (engine bound; at most 22 seen in 4,000 default games)
MAX_STACK = 8  # Sun cards in one gap before a Sapa Inca clears them
HAND = 3
assert MAX_REGIONS <= 63  # a region mask's bits stay below the int64 sign bit (board.bit_index)

# ---- site kinds
SK_CUZCO = 0
SK_HUACA = 1
SK_CITY = 2
SK_GARRISON = 3
SK_SIGNIFICANT = 4
SITE_KIND_NAMES = ("cuzco", "huaca", "city", "garrison", "significant_city")
PILGRIMAGE_NAMES = ("none", "great", "annual", "local")

# ---- buildings on a site (bits of st[S_BUILDING + s])
B_CITY = 1
B_GARRISON = 2
B_TEMPLE = 4

# ---- building tiles (supply st[S_TILES + t])
T_CITY = 0
T_GARRISON = 1
T_TEMPLE = 2
T_TERRACE = 3
N_TILES = 4
TILE_NAMES = ("city", "garrison", "temple", "terrace")

# ---- phases of the turn-sequence track
PH_NONE = 0
PH_INCA = 1
PH_SUN = 2
PH_PEOPLE = 3
PH_SAPA_INCA = 4
PHASE_NAMES = ("none", "inca", "sun", "people", "sapa_inca")

# ---- Sun cards: kinds in the rulebook's list order
SUN_NAMES = ("annual_pilgrimage", "harsh_weather", "resistance", "building_project", "key_outpost",
             "rural_unrest", "el_nino_flooding", "local_pilgrimage", "solar_eclipse", "epidemic",
             "military_superiority", "stores_stop_famine", "expert_surveyors", "popular_support",
             "urban_renewal", "extra_roadcrew", "rapid_expansion", "wilderness_road", "great_pilgrimage",
             "religious_fervor", "workers_press_on")
N_SUN = 21
C_ANNUAL = 0
C_HARSH = 1
C_RESISTANCE = 2
C_BUILDING_PROJECT = 3
C_KEY_OUTPOST = 4
C_RURAL_UNREST = 5
C_EL_NINO = 6
C_LOCAL = 7
C_ECLIPSE = 8
C_EPIDEMIC = 9
C_MILITARY = 10
C_STORES = 11
C_SURVEYORS = 12
C_POPULAR = 13
C_URBAN = 14
C_ROADCREW = 15
C_RAPID = 16
C_WILDERNESS = 17
C_GREAT = 18
C_FERVOR = 19
C_PRESS_ON = 20
MAX_DECK = 64
# pilgrimage group g (1 great, 2 annual, 3 local) is opened by card kind PILGRIM_CARD[g]
PG_NONE = 0
PG_GREAT = 1
PG_ANNUAL = 2
PG_LOCAL = 3

# ---- P[R_*]: components.toml's rule parameters, declared once (type, bounds); data.py packs them.
RULES = RulesLayout()
R_CITY_COST = RULES.add(Int("buildings.city_cost", 0, 50))
R_CITY_VP = RULES.add(Int("buildings.city_vp", 0, 50))
R_CITY_SI = RULES.add(Int("buildings.city_sapa_inca_vp", 0, 50))
R_TEMPLE_COST = RULES.add(Int("buildings.temple_cost", 0, 50))
R_TEMPLE_VP = RULES.add(Int("buildings.temple_vp", 0, 50))
R_TEMPLE_SI = RULES.add(Int("buildings.temple_sapa_inca_vp", 0, 50))
R_GARRISON_COST = RULES.add(Int("buildings.garrison_cost", 0, 50))
R_GARRISON_VP = RULES.add(Int("buildings.garrison_vp", 0, 50))
R_GARRISON_SI = RULES.add(Int("buildings.garrison_sapa_inca_vp", 0, 50))
R_TERRACE_COST = RULES.add(Int("buildings.terrace_cost", 0, 50))
R_TERRACE_VP = RULES.add(Int("buildings.terrace_vp", 0, 50))
R_TERRACE_SI = RULES.add(Int("buildings.terrace_sapa_inca_vp", 0, 50))
R_TERRACE_LABOUR = RULES.add(Int("buildings.terrace_labour", 0, 50))
R_EXTRA_ROAD_COST = RULES.add(Int("buildings.extra_road_cost", 0, 50))
R_FREE_ROADS = RULES.add(Int("rules.free_roads", 0, 10))
R_LABOUR = RULES.add(Int("supply.labour", 1, 1000))
R_TILES = RULES.size
for _tile in TILE_NAMES:
    RULES.add(Int(f"supply.{_tile}s", 0, 200))
R_SUN_HAND = RULES.add(Int("rules.sun_hand", 1, HAND))
R_TRANSFER_EARLY = RULES.add(Int("rules.transfer_early_leader", 0, 20))
R_TRANSFER_LATE = RULES.add(Int("rules.transfer_late_leader", 0, 20))
R_TRANSFER_SECOND = RULES.add(Int("rules.transfer_late_second", 0, 20))
R_TRANSFER_SECOND_MIN = RULES.add(Int("rules.transfer_second_min_players", 2, 10))
R_TRANSFERS = RULES.add(Bool("rules.support_transfers"))
R_TERRACE_AT_SI = RULES.add(Bool("rules.terrace_labour_at_sapa_inca"))
R_CONQUER_HIDDEN = RULES.add(Bool("rules.conquer_face_down_chips"))
R_UNREST_ANY_OWNER = RULES.add(Bool("rules.rural_unrest_spares_any_conquered_region"))
R_STACK_SUN = RULES.add(Bool("rules.sun_cards_stack_in_a_gap"))
R_WILD_NEIGHBOURS = RULES.add(Bool("rules.wilderness_road_neighbouring_regions_only"))
R_WILD_SLOT = RULES.add(Bool("rules.wilderness_road_takes_a_road_slot"))
R_REACH_LINES = RULES.add(Bool("rules.conquest_reach_across_dashed_lines"))
R_ANY_TERRITORY = RULES.add(Bool("rules.road_end_in_anyones_conquered_territory"))
N_RULES = RULES.size

# ---- the tables after the rules (data.engine_arrays writes them)
H_N_REGIONS = N_RULES
H_N_SITES = N_RULES + 1
H_N_ROADS = N_RULES + 2
H_N_CHIPS = N_RULES + 3
H_N_ROUNDS = N_RULES + 4
H_INVASION = N_RULES + 5  # invasion tiles (beside the last round's People phases)
H_CHIP_MEAN_RES = N_RULES + 6  # x100: the chips' mean resistance, labour, VP (bots value face-down chips)
H_CHIP_MEAN_LAB = N_RULES + 7
H_CHIP_MEAN_VP = N_RULES + 8
H_DECK = N_RULES + 9  # Sun cards in the deck
RG_SUYU = 0
RG_START = 1
RG_PLAYERS = 2
RG_RING = 3
RG_N_NB = 4
RG_N_LINES = 5
N_RG = 6
REGION_AT = N_RULES + 16
SF_REGION = 0
SF_KIND = 1
SF_BONUS = 2
SF_PILGRIM = 3
SF_N_INC = 4
N_SF = 5
SITE_AT = REGION_AT + MAX_REGIONS * N_RG
RF_A = 0
RF_B = 1
RF_ROYAL = 2
RF_REGION_A = 3  # the regions of the two ends (-1: Cuzco)
RF_REGION_B = 4
N_RF = 5
ROAD_AT = SITE_AT + MAX_SITES * N_SF
NB_AT = ROAD_AT + MAX_ROADS * N_RF
INC_AT = NB_AT + MAX_REGIONS * MAX_NB
CH_RES = 0
CH_LABOUR = 1
CH_VP = 2
N_CH = 3
INC_END_AT = INC_AT + MAX_SITES * MAX_INC
CHIP_AT = INC_END_AT + MAX_SITES * MAX_INC
SU_COUNT = 0
SU_VALUE = 1
N_SU = 2
SUN_AT = CHIP_AT + MAX_CHIPS * N_CH
RESOURCES_AT = SUN_AT + N_SUN * N_SU  # + round
ERA_AT = RESOURCES_AT + MAX_ROUNDS  # + round: 0 pre-empire, 1 early, 2 middle/late
PHASE_AT = ERA_AT + MAX_ROUNDS  # + round * MAX_PHASES + i
SI_LEFT_AT = PHASE_AT + MAX_ROUNDS * MAX_PHASES  # + round * MAX_PHASES + i: Sapa Inca phases from there on
RL_AT = SI_LEFT_AT + MAX_ROUNDS * MAX_PHASES  # + region * MAX_RL + i
MAX_WP = 16  # Wilderness Road partners of a site (map.wilderness_pairs)
WP_N_AT = RL_AT + MAX_REGIONS * MAX_RL  # + site: its Wilderness Road partners (map.wilderness_pairs)
WP_AT = WP_N_AT + MAX_SITES  # + site * MAX_WP + i: each partner
XY_AT = WP_AT + MAX_SITES * MAX_WP  # + site * 2: the site's point (map.xy, x1000 as integers)
N_PARAMS = XY_AT + MAX_SITES * 2


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def region_field(P, r, f):
    return P[REGION_AT + r * N_RG + f]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def site_field(P, s, f):
    return P[SITE_AT + s * N_SF + f]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def road_field(P, e, f):
    return P[ROAD_AT + e * N_RF + f]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def neighbour(P, r, i):
    return P[NB_AT + r * MAX_NB + i]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def incident(P, s, i):
    return P[INC_AT + s * MAX_INC + i]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def incident_end(P, s, i):
    return P[INC_END_AT + s * MAX_INC + i]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def chip_field(P, c, f):
    return P[CHIP_AT + c * N_CH + f]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def sun_field(P, k, f):
    return P[SUN_AT + k * N_SU + f]


# ---- st[S_*]: the game scalars
S_N_PLAYERS = 0
S_ROUND = 1  # 0-based round (column of the turn-sequence track)
S_PHASE = 2  # index of the phase within the round
S_N_ROUNDS = 3  # rounds begun
S_PIZARRO = 4  # the People phase of the last round beside the black-dot tile (0-based)
S_PIZARRO_ROUND = 5  # the round Pizarro arrived in (1-based; 0 not yet)
S_PIZARRO_PHASE = 6  # the People phase of that round he arrived after (1-based)
S_WINNER = 7
S_ERROR = 8
S_LOG_N = 9
S_ACTIONS = 10
S_STAMP = 11  # arrival counter of the scoring track (a piece moved later sits outside)
S_LABOUR = 12  # labour units in the supply
S_DRAW_N = 13
S_DISCARD_N = 14
S_TRANSFERS = 15  # catch-up transfers made (each giver counts one)
S_LEAD_CHANGES = 16
S_LEADER = 17
S_WILD_N = 18
S_PEOPLE_DONE = 19  # People phases played in the current round
S_SAPA_INCAS = 20
S_ENDED = 21
S_PEOPLE_PHASES = 22  # People phases played in the game
S_N_REGIONS = 23
S_N_SITES = 24
S_N_ROADS = 25
S_N_CHIPS = 26
S_BOX_CHIPS = 27  # RI chips left in the box (more chips than regions on this map: the 3-player overlay's)
S_TILES = 28  # + tile kind: tiles in the supply
S_ORDER = S_TILES + N_TILES  # + i: the seat holding Turn Sequence card i + 1 (card 1 plays first)
S_OWNER = S_ORDER + MAX_PLAYERS  # + region: -2 not on this map, -1 unconquered, else the seat
S_CHIP = S_OWNER + MAX_REGIONS  # + region: its RI chip (-1 none: a starting region)
S_REVEALED = S_CHIP + MAX_REGIONS  # + region: 1 when its chip lies face up
S_TERRACE = S_REVEALED + MAX_REGIONS  # + region: 1 when a terrace was built for it
S_BUILDING = S_TERRACE + MAX_REGIONS  # + site: B_* bits
S_GARRISON_ROUND = S_BUILDING + MAX_SITES  # + site: the round its garrison was built
S_ROAD_OWNER = S_GARRISON_ROUND + MAX_SITES  # + road line: -2 not on this map, -1 free, else the seat
S_WILD = S_ROAD_OWNER + MAX_ROADS  # + i * 3: a Wilderness Road's two cities and its builder
S_WILD_AT = S_WILD + MAX_WILD * 3  # + site: Wilderness Roads ending at the site
S_GAP_N = S_WILD_AT + MAX_SITES  # + gap: Sun cards in the gap this round
S_GAP_SHOWN = S_GAP_N + MAX_PLAYERS  # + gap: of them, face up
S_GAP = S_GAP_SHOWN + MAX_PLAYERS  # + gap * MAX_STACK + i: card kinds
S_DRAW = S_GAP + MAX_PLAYERS * MAX_STACK  # + i: the draw pile, top last
S_DISCARD = S_DRAW + MAX_DECK  # + i
S_FREE_LINES = S_DISCARD + MAX_DECK  # + site: free dashed lines at the site (scans skip the full ones)
S_OPTIONS = S_FREE_LINES + MAX_SITES  # + i * N_OPT + O_*
O_A = 0
O_B = 1
O_C = 2
N_OPT = 3
MAX_OPTIONS = 1024  # at least the stop, every road line and every pair of city sites (data.validate): no list is cut
S_SCRATCH = S_OPTIONS + MAX_OPTIONS * N_OPT  # BFS queue; rules.list_turn's four lists of sites
S_UNOWNED = S_SCRATCH + 4 * MAX_SITES  # bit r: region r is unconquered (cleared at its conquest; list_turn's conquests)
S_PLACES = S_UNOWNED + 1  # + place: the seat in that place on the scoring track (rules.rank_seats)
S_TURN = S_PLACES + MAX_PLAYERS  # rules.people_from: + 1 as a People phase turn starts and again as it ends (odd: in a turn)
S_PLAYERS = S_TURN + 1

# ---- P_*: a seat's fields
P_LABOUR = 0
P_VP = 1
P_STAMP = 2  # when the piece last moved (smaller: reached its space first, innermost)
P_CARD = 3  # Turn Sequence card number (1 plays first)
P_RANK = 4
P_WON = 5
P_HAND = 6  # + i: Sun card kinds in hand (-1 empty)
P_ACTIVE = P_HAND + HAND  # + kind: face-up Sun cards of the kind beside the seat
P_N_CHIPS = P_ACTIVE + N_SUN
P_CHIP_LABOUR = P_N_CHIPS + 1  # labour of the RI chips held
P_TERRACES = P_CHIP_LABOUR + 1
P_ROADS = P_TERRACES + 1  # road lines owned (royal line included)
# per People phase
P_ROAD_DONE = P_ROADS + 1
P_BUILD_DONE = P_ROAD_DONE + 1
P_PILGRIM_DONE = P_BUILD_DONE + 1
P_RAPID_USED = P_PILGRIM_DONE + 1
P_WILD_USED = P_RAPID_USED + 1
P_BUILT_ROAD = P_WILD_USED + 1  # Solar Eclipse: a road was built this People phase
P_BUILT_TEMPLE = P_BUILT_ROAD + 1
# records (players table)
P_VP_CONQUEST = P_BUILT_TEMPLE + 1
P_VP_CITY = P_VP_CONQUEST + 1  # immediate
P_VP_CITY_SI = P_VP_CITY + 1
P_VP_TEMPLE = P_VP_CITY_SI + 1
P_VP_TEMPLE_BONUS = P_VP_TEMPLE + 1  # significant-site bonus
P_VP_TEMPLE_SI = P_VP_TEMPLE_BONUS + 1
P_VP_GARRISON = P_VP_TEMPLE_SI + 1
P_VP_GARRISON_SI = P_VP_GARRISON + 1
P_VP_TERRACE = P_VP_GARRISON_SI + 1
P_VP_TERRACE_SI = P_VP_TERRACE + 1
P_VP_PILGRIM = P_VP_TERRACE_SI + 1
P_VP_CARDS = P_VP_PILGRIM + 1  # Stores Stop Famine and Urban Renewal bonuses
P_LAB_ROW = P_VP_CARDS + 1  # labour received: resources row, RI chips, terraces, Popular Support
P_LAB_CHIPS = P_LAB_ROW + 1
P_LAB_TERRACES = P_LAB_CHIPS + 1
P_LAB_CARDS = P_LAB_TERRACES + 1
P_LAB_GIVEN = P_LAB_CARDS + 1  # catch-up transfers given and received
P_LAB_TAKEN = P_LAB_GIVEN + 1
P_LAB_RETURNED = P_LAB_TAKEN + 1  # excess returned at a Sapa Inca
P_LAB_SPENT = P_LAB_RETURNED + 1
P_LAB_SHORT = P_LAB_SPENT + 1  # income the empty supply could not pay
P_CONQUERED = P_LAB_SHORT + 1  # + suyu: regions conquered there
P_BUILT = P_CONQUERED + N_SUYU  # + tile kind: tiles built (Key Outpost cities included)
P_OUTPOSTS = P_BUILT + N_TILES
P_PILGRIMAGES = P_OUTPOSTS + 1
P_ROADS_BUILT = P_PILGRIMAGES + 1
P_ROADS_LOST = P_ROADS_BUILT + 1
P_WILD_BUILT = P_ROADS_LOST + 1
P_SUN_PLAYED = P_WILD_BUILT + 1  # + kind
P_SUN_SUFFERED = P_SUN_PLAYED + N_SUN  # + kind: cards of the kind that lay beside the seat
P_SUN_HELD = P_SUN_SUFFERED + N_SUN  # + kind: cards of the kind that entered the hand
P_FIRST_CARD = P_SUN_HELD + N_SUN  # the Turn Sequence card dealt at setup, as a position: 0 first
P_LEAD_ROUNDS = P_FIRST_CARD + 1  # Sapa Inca phases ended in the lead
P_REACH = P_LEAD_ROUNDS + 1  # + site: 1 when the seat's network joins it to Cuzco
P_REGION_NEAR = P_REACH + MAX_SITES  # + region: the network's sites in the region or a neighbouring one
P_N_REACHED = P_REGION_NEAR + MAX_REGIONS  # the sites of the network as a list (the options loop over it)
P_REACHED = P_N_REACHED + 1  # + i
P_NEAR_MASK = P_REACHED + MAX_SITES  # bit r: P_REGION_NEAR[r] > 0 (set as sites are reached)
P_OWN_MASK = P_NEAR_MASK + 1  # bit r: the seat conquered region r
P_UNREST_ROADS = P_OWN_MASK + 1  # its lines with an end in an unconquered region (Rural Unrest's toll now)
P_RES1_CHIPS = P_UNREST_ROADS + 1  # its conquered chips of resistance 1 (Popular Support's labour)
P_N_BUILD_SITES = P_RES1_CHIPS + 1  # of the reached sites, the city, significant and garrison sites ...
P_BUILD_SITES = P_N_BUILD_SITES + 1  # + i: ... in the order reached (the building options loop over them)
P_LINES_OK = P_BUILD_SITES + MAX_SITES  # 1: P_LINES is what board.scan_roads would list on the board now
P_N_LINES = P_LINES_OK + 1  # the road lines the seat may build ...
P_LINES = P_N_LINES + 1  # + i * 2: ... each line and the site it reaches, in the options' order
P_LINES_VER = P_LINES + MAX_ROADS * 2  # + 1 whenever P_LINES change
P_BEST_TURN = P_LINES_VER + 1  # bots.best_road_value: S_TURN when it valued the lines ...
P_BEST_VER = P_BEST_TURN + 1  # ... P_LINES_VER then ...
P_BEST_I = P_BEST_VER + 1  # ... and the best line's index (-1: none)
# + kind * STAT_WORDS: the search bot's People-phase actions by the action its heuristic chose first
# (kind = ACT_*), and how often and by how much the search left it (sim.core.search.record_choice;
# columns search_<kind>_*)
P_SEARCH_STATS = P_BEST_I + 1
SEARCH_KIND_NAMES = ("end_turn", "roads", "city", "temple", "garrison", "terrace", "extra_road", "conquer",
                     "pilgrimage", "key_outpost", "rapid_expansion")
N_P = P_SEARCH_STATS + len(SEARCH_KIND_NAMES) * STAT_WORDS
N_STATE = S_PLAYERS + MAX_PLAYERS * N_P


@njit_typed("int64(int64)")
def seat_at(p):
    return S_PLAYERS + p * N_P


# ---- st[S_ERROR]
ERR_NONE = 0
ERR_LABOUR = 1
ERR_TILES = 2
ERR_CHIPS = 3
ERR_CARDS = 4
ERR_ROADS = 5
ERR_NEGATIVE = 6
ERR_BAD_CHOICE = 7
ERR_VP = 8
ERR_REACH = 9
ERROR_NAMES = ("none", "labour created or lost", "building tiles created or lost", "RI chips created or lost",
               "Sun cards created or lost", "a road off the dashed lines or owned twice", "negative count",
               "a bot chose an option that was not offered", "VP by source do not add up",
               "the road network is not what the roads join")

# ---- end reasons (games table end_reason)
END_PIZARRO = 0
END_REASON_NAMES = ("pizarro",)

# ---- decisions
DEC_SUN_CARD = 0  # a: card kind, b: gap
DEC_TURN = 1  # a: ACT_*, b: target (site, region), c: pilgrimage: the action it replaces
DEC_ROAD = 2  # a: road line (or -1 stop), b: the site the line reaches (c = 0) or a Wilderness Road's second city
DEC_MORE_GARRISON = 3  # a: site, -1 none (Building Project)
DEC_MORE_TERRACE = 4  # a: region, -1 none (Expert Surveyors)
N_DECISIONS = 5
DECISION_NAMES = ("sun_card", "turn", "road", "more_garrison", "more_terrace")
ACT_END = 0
ACT_ROADS = 1
ACT_CITY = 2
ACT_TEMPLE = 3
ACT_GARRISON = 4
ACT_TERRACE = 5
ACT_EXTRA_ROAD = 6
ACT_CONQUER = 7
ACT_PILGRIMAGE = 8
ACT_KEY_OUTPOST = 9
ACT_RAPID = 10
ACTION_NAMES = ("end", "roads", "city", "temple", "garrison", "terrace", "extra_road", "conquer", "pilgrimage",
                "key_outpost", "rapid_expansion")
REPLACES_ROADS = 0
REPLACES_BUILDING = 1

# ---- bots
KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_SEARCH = 2  # flat Monte-Carlo over the heuristic's best People-phase actions (search.py); the heuristic elsewhere
BOT_KIND_NAMES = ("random", "heuristic", "search")
WEIGHT_NAMES = (
    "labour",  # points of a labour unit spent
    "vp",  # points of a VP scored now
    "future",  # points of a VP expected at each later Sapa Inca (times the Sapa Incas left)
    "rival_share",  # points lost for each VP a building gives another connected player at a Sapa Inca
    "labour_income",  # points of a labour unit a round from chips and terraces (times the rounds left)
    "territory",  # a conquered region for roads and buildings beyond its VP
    "reach_building",  # a road that joins a built city/temple/garrison: times its Sapa Inca VP left
    "reach_site",  # a road that reaches an empty city or garrison site in conquered land
    "reach_region",  # a road into an unconquered region that can then be conquered
    "reach_pilgrim",  # a road that reaches a significant city
    "road",  # any road, beyond its features (network growth)
    "sun_self",  # a Sun card's value to its player when it lies beside it (times its benefit)
    "sun_rival",  # a Sun card's value beside a rival (times its benefit, subtracted)
    "road_loss",  # a road lost to Rural Unrest
    "pilgrim",  # a pilgrimage beyond its VP (the action it costs)
    "noise",
    *(f"sun_{name}" for name in SUN_NAMES),  # each Sun card kind's benefit to a player beside it
    "unrest_risk",  # the share of a road's value Rural Unrest puts at risk (an end in unconquered land); per road
                    # a conquest makes safe, points added to it
    "territory_fade",  # the share of the territory weight gone by the last round (a share of it a round played)
    "rival_near",  # a building a rival's network is one road from: points per its Sapa Inca VP and phase left, a rival
    "pilgrim_ready",  # a pilgrimage card beside a player whose network joins a temple of its cities: points per VP
)
W_LABOUR = 0
W_VP = 1
W_FUTURE = 2
W_RIVAL_SHARE = 3
W_LABOUR_INCOME = 4
W_TERRITORY = 5
W_REACH_BUILDING = 6
W_REACH_SITE = 7
W_REACH_REGION = 8
W_REACH_PILGRIM = 9
W_ROAD = 10
W_SUN_SELF = 11
W_SUN_RIVAL = 12
W_ROAD_LOSS = 13
W_PILGRIM = 14
W_NOISE = 15
W_SUN = 16  # + kind
W_UNREST_RISK = W_SUN + N_SUN
W_TERRITORY_FADE = W_UNREST_RISK + 1
W_RIVAL_NEAR = W_UNREST_RISK + 2
W_PILGRIM_READY = W_UNREST_RISK + 3

# ---- the replay log: rows (event, a, b, c, d, e, f)
LOG_WIDTH = 7
LOG_CAPACITY = 20_000
EV_ROUND = 0  # round (1-based)
EV_PHASE = 1  # phase code
EV_INCOME = 2  # seat, row, chips, terraces, received
EV_TRANSFER = 3  # giver, taker, labour
EV_CARDS = 4  # seat, Turn Sequence card
EV_SUN_PLAY = 5  # seat, kind, gap
EV_SUN_REVEAL = 6  # gap, kind
EV_UNREST = 7  # seat, roads destroyed
EV_POPULAR = 8  # seat, labour
EV_ROAD = 9  # seat, road line, free (1) or paid (0)
EV_WILD = 10  # seat, city, city
EV_BUILD = 11  # seat, tile kind, site or region, labour, VP
EV_CONQUER = 12  # seat, region, labour, VP
EV_PILGRIM = 13  # seat, site, VP
EV_OUTPOST = 14  # seat, site, labour, VP
EV_SCORE = 15  # seat, VP at the Sapa Inca, labour returned
EV_PIZARRO = 16  # round, People phase
EV_FINAL = 17  # seat, VP, rank
EV_PASS = 18  # seat
