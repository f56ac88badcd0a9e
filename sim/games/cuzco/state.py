"""State layout of one Cuzco game: a few typed int32 arrays and the named indices into them.

Parameters (components.toml + a variant, packed by data.py) come as one flat int32 array `P`: the
rules array first (so an R_* index reads P itself, P[R_ROUNDS]), then header slots holding how many
rows the tables a variant can size have (H_*), then the component tables, each a block of rows at a
constant offset (*_AT) with room for the most rows a variant may have, read by name through the
small accessors below (village_field(P, v, VF_VP), mission_field(P, m, MF_KIND1), ...).
A game's state is the tuple (g, pl, board, decks, rng) - everything the rules read - plus the
side arrays (stats, dstat, log, scratch) that only record what happened. A bot looks ahead by
copying the five state arrays into a spare tuple (see copy_state), so rules never read the side
arrays and never allocate.
"""
import numpy as np
from numba import njit

from sim.core.jit import njit_noalloc
from sim.core.paramspec import Bool, Int, IntList, Ints, LengthOf, PerPlayerCount, RulesLayout

MAX_PLAYERS = 4
N_VILLAGES = 12
CUZCO = 12  # chasqui location code for the capital (villages are 0..11)
N_COLOURS = 4
COLOUR_NAMES = ("turquoise", "purple", "orange", "pink")
N_CIRCLETS = 6
N_SLOTS = 12  # feather slots on a mask board, two per circlet
N_GOODS = 6
N_ABILITIES = 12  # people-tile abilities
N_GODS = 5
N_CARDS = 15  # god-card abilities, three per god
N_TEMPLE = 6
MAX_SPACES = 8  # action spaces on a side of the action board
MAX_DICE_ON_SPACE = 12
N_EXCHANGES = 7
NO_DIE = 7  # lowest-pips value of an empty action space

# ---- villages: VF_* fields of a village (P's villages table)
VF_COLOUR = 0
VF_VP = 1
VF_RING = 2  # 0 inner, 1 outer
N_VF = 3

# ---- roads and arms: RF_* fields of a way (arms use RF_KIND and RF_PIPS only)
RF_A = 0
RF_B = 1
RF_KIND = 2
RF_PIPS = 3
N_RF = 4
WAY_TRAIL = 0
WAY_BRIDGE = 1
WAY_ANY = 2  # a jump (Mama Sara 14) or a road of either kind

# ---- actions; space_actions(P, n_players, space) = bitmask of the actions on that space (0: no space)
A_TRAIL = 0
A_BRIDGE = 1
A_STUDY = 2
A_FARM = 3
A_EXCHANGE = 4
A_TEMPLE = 5
A_HEADDRESS = 6
A_VP = 7
N_ACTIONS = 8
ACTION_NAMES = ("stone_trail", "rope_bridge", "study", "farming", "exchange", "temple",
                "headdress", "victory_points")

# ---- goods: GF_* fields of a good type
GF_COUNT = 0
GF_FOOD = 1
GF_VP = 2
N_GF = 3
GOOD_NAMES = ("soup", "clothes", "bowl", "decanter", "tools", "jewelry")

# ---- people tiles: TF_* fields; tiles 0..35 study, 36..71 farm
TF_KIND = 0  # 0 study, 1 farm
TF_ABILITY = 1
TF_VALUE = 2  # status (study) or food (farm) when slid down
N_TF = 3
STUDY = 0
FARM = 1
AB_OFFERING = 0
AB_VP = 1
AB_FEATHER = 2
AB_TRAIL = 3
AB_STATUS = 4
AB_BRIDGE = 5
AB_GOD_CARD = 6
AB_QUIPU = 7
AB_CIRCLET = 8
AB_FOOD = 9
AB_FARMING = 10
AB_STUDY = 11
ABILITY_NAMES = ("offering", "vp", "feather", "stone_trail", "status", "rope_bridge", "god_card",
                 "quipu", "circlet", "food", "farming", "study")

# ---- god-card abilities (card number - 1); god = ability // 3
C_DOUBLE_PEOPLE = 0  # 01 phase II
C_SLIDE_UP = 1  # 02 phase I, exchange
C_DOUBLE_GOOD = 2  # 03 phase III
C_MISSION_DISCOUNT = 3  # 04 phase III / end
C_EXTRA_TURN = 4  # 05 phase I
C_MOVE_DIE = 5  # 06 phase I
C_IGNORE_LOWER = 6  # 07 phase I
C_BLESSING_PLENTY = 7  # 08 phase I/II
C_SEARCH_DISCARD = 8  # 09 phase I
C_DELIVERY_VP = 9  # 10 phase I
C_EXTRA_STUDY = 10  # 11 phase II
C_PRIEST_RETURN = 11  # 12 phase I
C_VIRTUAL_SIX = 12  # 13 phase I
C_JUMP = 13  # 14 phase I
C_EXTRA_FARM = 14  # 15 phase II
CARD_NAMES = ("double_people", "slide_up", "double_good", "mission_discount", "extra_turn",
              "move_die", "ignore_lower", "blessing_plenty", "search_discard", "delivery_vp",
              "extra_study", "priest_return", "virtual_six", "jump", "extra_farm")
GOD_NAMES = ("iliapa", "mama_quilia", "viracocha", "pacha_mama", "mama_sara")

# ---- missions: MF_* fields; the starting (grey) missions first, then the general (golden) ones
MF_STARTING = 0
MF_KIND1 = 1
MF_N1 = 2
MF_ARG1 = 3
MF_KIND2 = 4
MF_N2 = 5
MF_ARG2 = 6
N_MF = 7
MK_NONE = 0
MK_PRIESTS = 1
MK_FARM_TILES = 2
MK_STUDY_TILES = 3
MK_ORDER_TOKEN_ONE = 4
MK_GOODS = 5
MK_VILLAGES = 6
MK_FEATHERS_OF_COLOUR = 7
MK_FEATHER_COLOURS = 8
MK_FEATHERS = 9
MK_VILLAGES_OF_COLOUR = 10
MK_VILLAGES_WORTH = 11
MK_VILLAGE_VALUES = 12
MK_STUDY_ABILITIES = 13
MK_FARM_ABILITIES = 14
MK_STUDY_SLID = 15
MK_FARM_SLID = 16
MK_PEOPLE_SLID = 17
MK_GOD_COLOURS = 18
MK_GOD_SAME_COLOUR = 19
MK_GOODS_OF_TYPE = 20
MK_GOODS_TYPES = 21
MK_GODS_OF = 22
MK_FOOD = 23
MK_CIRCLETS = 24
MK_MEDALS = 25
MK_OFFERINGS = 26
MK_VILLAGES_IN_RING = 27
MK_PEOPLE_WITH_ABILITY = 28
MISSION_KIND_NAMES = (
    "none", "priests", "farm_tiles", "study_tiles", "order_token_one", "goods", "villages",
    "feathers_of_colour", "feather_colours", "feathers", "villages_of_colour", "villages_worth",
    "village_values", "study_abilities", "farm_abilities", "study_slid", "farm_slid",
    "people_slid", "god_colours", "god_same_colour", "goods_of_type", "goods_types", "gods_of",
    "food", "circlets", "medals", "offerings", "villages_in_ring", "people_with_ability",
)

# ---- rules (P[R_*]): every rule parameter of components.toml, declared once (sim/core/paramspec.py):
# its key, type and bounds. Each declaration takes the next slots of the array and returns the first
# one's index, so this order is the layout; data.py checks and packs the parameters from RULES.
N_ROUNDS = 6  # the market rows, headdress and priest tables are laid out for six rounds
MAX_STATUS = 40
EX_STATUS = 0
EX_FOOD = 1
EX_VP = 2
EX_OFFERING = 3
EX_GOD_CARD = 4
EX_FEATHER = 5
EX_QUIPU = 6
EXCHANGE_NAMES = ("status", "food", "vp", "offering", "god_card", "feather", "quipu_to_reserve")
RULES = RulesLayout()
R_ROUNDS = RULES.add(Int("rules.rounds", 1, N_ROUNDS))
R_DICE = RULES.add(Int("rules.dice", 3, 3))
R_PRIESTS = RULES.add(Int("rules.priests", 1, 6))
R_QUIPUS = RULES.add(Int("rules.quipus", 0, 12))
R_MASK_SPACES = RULES.add(Int("rules.mask_spaces", 1, 12))
R_FEATHER_CAP = RULES.add(Int("rules.feather_cap_per_colour", 0, 3))
R_VP_SPACE = RULES.add(Int("rules.vp_space", -100, 100))
R_MISSION_VP = RULES.add(Int("rules.mission_vp", -100, 100))
R_MISSION_VP_REDUCED = RULES.add(Int("rules.mission_vp_reduced", -100, 100))
R_MEDAL_END_VP = RULES.add(Int("rules.medal_end_vp", -100, 100))
R_BLESS_CARD = RULES.add(Int("rules.fire_blessing_card_or_offering", 0, 10))
R_BLESS_STATUS = RULES.add(Int("rules.fire_blessing_status_or_food", 0, 10))
R_PLENTY_FOOD = RULES.add(Int("rules.viracocha_blessing_food", 0, 10))
R_PLENTY_STATUS = RULES.add(Int("rules.viracocha_blessing_status", 0, 10))
R_ACH_FEATHERS = RULES.add(Int("rules.achievement_feathers_vp", -100, 100))
R_ACH_CIRCLETS = RULES.add(Int("rules.achievement_circlets_vp", -100, 100))
R_ACH_MISSIONS = RULES.add(Int("rules.achievement_missions_vp", -100, 100))
R_ACH_QUIPUS = RULES.add(Int("rules.achievement_quipus_vp", -100, 100))
R_ACH_PEOPLE = RULES.add(Int("rules.achievement_people_vp", -100, 100))
R_ACH_GOODS = RULES.add(Int("rules.achievement_goods_vp", -100, 100))
R_START_OFFERINGS = RULES.add(Int("setup.start_offerings", 0, 10))
R_START_MEDALS = RULES.add(Int("setup.start_medals", 0, 10))
R_TEMPLE_MEDALS = RULES.add(Int("setup.temple_medals", 0, 30))
R_PALACE_EXTRA = RULES.add(Int("setup.palace_extra", 0, 4))
R_GOLDEN_PER_PLAYER = RULES.add(Int("setup.golden_missions_per_player", 0, 2))
R_FEATHERS_PER_COLOUR = RULES.add(Int("setup.feathers_per_colour_per_player", 1, 10))
R_DISPLAY_TILES = RULES.add(Int("setup.display_tiles", 1, 6))
R_SMALL_MARKET_ROW = RULES.add(Int("setup.small_game_market_row", 0, 5))
R_PUTUTU = RULES.add(Bool("pututu.enabled"))
R_PUTUTU1 = RULES.add(Int("pututu.plus_minus_1", 0, 100))
R_PUTUTU2 = RULES.add(Int("pututu.plus_minus_2", 0, 100))
R_STATUS_LEN = RULES.add(LengthOf("rules.status_track_vp"))
R_GOD_COPIES = RULES.add(Int("gods.copies", 1, 4))
R_OFFERING_SUPPLY = RULES.add(Int("setup.offerings", 0, 1000))
R_FOOD_SUPPLY = RULES.add(Int("setup.food", 0, 1000))
R_EXCHANGE = RULES.add(Ints("exchange", EXCHANGE_NAMES, 1, 6))  # + exchange index: pips it costs
R_HEADDRESS_VP = RULES.add(IntList("rules.headdress_vp_by_round", N_ROUNDS, -100, 100))  # + round index
R_PRIEST_VP = RULES.add(IntList("rules.priest_vp_by_round", N_ROUNDS, -100, 100))  # + round index
R_CIRCLET_VP = RULES.add(IntList("rules.circlet_vp", N_CIRCLETS, -100, 100))  # + circlet index
R_START_VP = RULES.add(IntList("setup.start_vp_by_order_token", MAX_PLAYERS, -100, 100))  # + order position
# + n_players: cards taken from each pile for the deal; its keys are the allowed player counts
R_GOD_DEAL = RULES.add(PerPlayerCount("setup.god_deal_per_pile", MAX_PLAYERS, 0, 12))
R_STATUS_VP = RULES.add(IntList("rules.status_track_vp", (1, MAX_STATUS), -100, 100, unit="spaces"))  # + space
N_RULES = RULES.size

# ---- P: the rules (R_*, above), then the header slots, then the component tables (data.engine_arrays)
H_ROADS = N_RULES  # rows of the roads table in use (a variant lists 1 to MAX_ROADS ways)
H_MASKS = H_ROADS + 1  # mask boards (MAX_PLAYERS to MAX_MASKS)
H_MISSIONS = H_MASKS + 1  # missions, the starting ones first (MAX_PLAYERS + 1 to MAX_MISSIONS)
N_HEADER = 3
MAX_ROADS = 60
N_ARMS = 6
MAX_MASKS = 8
N_PEOPLE = 2 * 3 * N_ABILITIES  # tiles 0..35 study, 36..71 farm (three values per ability and kind)
N_JOINT = 4  # joint[ability, tiles used - 1]: the amount of 1..4 identical tiles used together
MAX_STARTING_MISSIONS = 6
MAX_MISSIONS = MAX_STARTING_MISSIONS + 55
VILLAGES_AT = H_ROADS + N_HEADER  # + village * N_VF + VF_*
ROADS_AT = VILLAGES_AT + N_VILLAGES * N_VF  # + road * N_RF + RF_*
ARMS_AT = ROADS_AT + MAX_ROADS * N_RF  # + arm * N_RF + RF_KIND / RF_PIPS
SPACES_AT = ARMS_AT + N_ARMS * N_RF  # + n_players * MAX_SPACES + space: bitmask of its actions
MASKS_AT = SPACES_AT + (MAX_PLAYERS + 1) * MAX_SPACES  # + mask * N_SLOTS + slot: feather colour
GOODS_AT = MASKS_AT + MAX_MASKS * N_SLOTS  # + good type * N_GF + GF_*
PEOPLE_AT = GOODS_AT + N_GOODS * N_GF  # + tile * N_TF + TF_*
JOINT_AT = PEOPLE_AT + N_PEOPLE * N_TF  # + ability * N_JOINT + tiles - 1
MISSIONS_AT = JOINT_AT + N_ABILITIES * N_JOINT  # + mission * N_MF + MF_*
N_PARAMS = MISSIONS_AT + MAX_MISSIONS * N_MF


@njit_noalloc
def village_field(P, v, field):
    return P[VILLAGES_AT + v * N_VF + field]


@njit_noalloc
def road_field(P, e, field):
    return P[ROADS_AT + e * N_RF + field]


@njit_noalloc
def arm_field(P, k, field):
    return P[ARMS_AT + k * N_RF + field]


@njit_noalloc
def space_actions(P, n_players, space):
    """Bitmask of the actions on a space of the n-player action board (0: no such space)."""
    return P[SPACES_AT + n_players * MAX_SPACES + space]


@njit_noalloc
def mask_colour(P, mask, slot):
    return P[MASKS_AT + mask * N_SLOTS + slot]


@njit_noalloc
def good_field(P, t, field):
    return P[GOODS_AT + t * N_GF + field]


@njit_noalloc
def tile_field(P, tile, field):
    return P[PEOPLE_AT + tile * N_TF + field]


@njit_noalloc
def joint_amount(P, ability, n):
    """What n identical tiles of an ability give when used jointly (n = 1..4)."""
    return P[JOINT_AT + ability * N_JOINT + n - 1]


@njit_noalloc
def mission_field(P, m, field):
    return P[MISSIONS_AT + m * N_MF + field]


def param_tables(P):
    """Python-side views of P's sections, shaped as tables (for tests, replay and tools):
    rules, villages, roads, arms, spaces, masks, goods, people, joint, missions."""
    def rows(at, n, width):
        return P[at:at + n * width].reshape(n, width)
    return (P[:N_RULES], rows(VILLAGES_AT, N_VILLAGES, N_VF), rows(ROADS_AT, int(P[H_ROADS]), N_RF),
            rows(ARMS_AT, N_ARMS, N_RF), rows(SPACES_AT, MAX_PLAYERS + 1, MAX_SPACES),
            rows(MASKS_AT, int(P[H_MASKS]), N_SLOTS), rows(GOODS_AT, N_GOODS, N_GF),
            rows(PEOPLE_AT, N_PEOPLE, N_TF), rows(JOINT_AT, N_ABILITIES, N_JOINT),
            rows(MISSIONS_AT, int(P[H_MISSIONS]), N_MF))

# ---- g[...]: game scalars
G_N_PLAYERS = 0
G_ROUND = 1  # 0-based
G_PHASE = 2
G_ROTATION = 3  # Cuzco overlay: arm k leads to inner village (k + rotation) % 6
G_TEMPLE_MEDALS = 4
G_PUTUTU1 = 5  # tiles left in the supply
G_PUTUTU2 = 6
G_STATUS_SEQ = 7  # arrival counter for stacking status markers
G_GOD_DISCARD_N = 8
G_STUDY_N = 9  # study stack size
G_FARM_N = 10
G_STUDY_DISCARD_N = 11
G_FARM_DISCARD_N = 12
G_MISSION_N = 13  # golden mission pile size
G_MARKET_ROW_SIZE = 14
G_PALACE_SIZE = 15
G_ERROR = 16
G_LOG_N = 17
G_WINNER = 18
G_TURNS = 19  # die placements in the game
G_BOX_GOODS = 20  # goods returned to the box (setup and round ends)
G_BOX_MISSIONS = 21
G_OFFERING_SUPPLY = 22  # offerings in the common supply
G_EXTRA_TURN = 23  # 1 while a Mama Quilia 05 extra turn is being played
G_PUTUTU_SHORT = 24  # qualified players who got no tile (supply ran out)
G_FOOD_SUPPLY = 25
G_SETUP_DONE = 26  # 1 once setup has turned up the god cards
G_FEATHER_SUPPLY = 27  # + colour
G_ORDER = G_FEATHER_SUPPLY + N_COLOURS  # + position: seat holding order token position+1
G_GOD_PILE_N = G_ORDER + MAX_PLAYERS  # + god: cards in that god's draw pile
G_GOD_UP = G_GOD_PILE_N + N_GODS  # + god: face-up card ability, -1 none
G_LOOKAHEAD = G_GOD_UP + N_GODS  # 1 in a bot's look-ahead copy: hidden piles are drawn at random
N_G = G_LOOKAHEAD + 1

# ---- pl[p, field]: per player
PL_VP = 0
PL_STATUS = 1  # status track space
PL_STATUS_SEQ = 2  # higher = on top of the stack
PL_LOC = 3  # village 0..11 or CUZCO
PL_OFFERINGS = 4
PL_FOOD = 5
PL_MEDALS = 6
PL_QUIPU_MASK = 7  # quipus on the 10 mask spaces
PL_QUIPU_RESERVE = 8
PL_QUIPU_DELIVERED = 9
PL_PRIESTS_HOME = 10
PL_PUTUTU1 = 11
PL_PUTUTU2 = 12
PL_MASK = 13  # mask board index
PL_N_TILES = 14
PL_MISSIONS_DONE = 15
PL_GOODS_BOUGHT = 16
PL_ORDER_POS = 17  # 0 = order token 1
PL_DOUBLE_PEOPLE = 18  # 1 while Iliapa 01 doubles this phase II's uses
PL_USED_STUDY = 19  # phase II: study ability used, -1 none yet
PL_USED_FARM = 20
USED_UP = 99  # PL_USED_*: the extra ability (cards 11/15) has been used too
PL_MAY_ROTATE = 21  # 1 once the chasqui has returned to Cuzco: it may turn the overlay on leaving
PL_DICE = 22  # + die: pips, 0 once placed
PL_SLOT = PL_DICE + 3  # + feather slot: 1 if a feather sits there
PL_CIRCLET = PL_SLOT + N_SLOTS  # + circlet: 1 if activated
PL_FEATHERS = PL_CIRCLET + N_CIRCLETS  # + colour: feathers of that colour
PL_GOODS = PL_FEATHERS + N_COLOURS  # + good type
PL_HAND = PL_GOODS + N_GOODS  # + card ability: cards in hand
PL_MISSION = PL_HAND + N_CARDS  # + 0..2: mission id on the mask board, -1 empty
PL_TILE = PL_MISSION + 3  # + 0..11: people tile id on the mask board, -1 empty
PL_SLID = PL_TILE + 12  # + 0..11: 1 if that tile is slid down
PL_DELIVERED = PL_SLID + 12  # + village: 1 if this player's quipu is there
PL_DEALT = PL_DELIVERED + N_VILLAGES  # + card ability: dealt face down at setup (hidden from the others)
N_PL = PL_DEALT + N_CARDS

# ---- board[...]
BD_STACK = 0  # + village * 4 + depth: seat of the quipu, bottom first, -1 none
BD_STACK_N = BD_STACK + N_VILLAGES * MAX_PLAYERS  # + village: quipus there
BD_TEMPLE = BD_STACK_N + N_VILLAGES  # + step (0 = step 1): seat, -1 none
BD_SPACE_MIN = BD_TEMPLE + N_TEMPLE  # + space: lowest pips on it, NO_DIE if empty
BD_SPACE_N = BD_SPACE_MIN + MAX_SPACES  # + space: dice on it
BD_SPACE_DICE = BD_SPACE_N + MAX_SPACES  # + space * 12 + i: seat * 8 + pips
BD_STUDY = BD_SPACE_DICE + MAX_SPACES * MAX_DICE_ON_SPACE  # + pips - 1: tile id, -1 taken
BD_FARM = BD_STUDY + 6
BD_PALACE = BD_FARM + 6  # + i: mission id, -1 taken
PALACE_SLOTS = MAX_PLAYERS + 6  # room for players + palace_extra (up to 4) missions
BD_MARKET = BD_PALACE + PALACE_SLOTS  # + round * 5 + i: good type, -1 none
N_BOARD = BD_MARKET + 6 * 5

# ---- decks[...]: piles as stacks (top at size - 1)
DK_GOD = 0  # + god * 12 + i
DK_GOD_DISCARD = DK_GOD + N_GODS * 12  # + i: card ability (face-up discard pile)
DK_STUDY = DK_GOD_DISCARD + N_GODS * 12
DK_FARM = DK_STUDY + 36
DK_STUDY_DISCARD = DK_FARM + 36
DK_FARM_DISCARD = DK_STUDY_DISCARD + 36
DK_MISSION = DK_FARM_DISCARD + 36
N_DECKS = DK_MISSION + 64

# ---- stats[p, field]: what the analyses read (never read by the rules)
ST_CARD_GAINED = 0  # + ability
ST_CARD_PLAYED = ST_CARD_GAINED + N_CARDS  # + ability (with an offering)
ST_CARD_MEDAL = ST_CARD_PLAYED + N_CARDS  # + ability (through an Inti medal)
ST_MISSION_DONE = ST_CARD_MEDAL + N_CARDS  # + mission id
ST_MISSION_FAILED = ST_MISSION_DONE + 61  # + mission id
ST_GOOD_BOUGHT = ST_MISSION_FAILED + 61  # + good type
ST_PEOPLE = ST_GOOD_BOUGHT + N_GOODS  # + kind * 12 + ability: tiles gained
ST_PUTUTU_GAINED1 = ST_PEOPLE + 2 * N_ABILITIES
ST_PUTUTU_GAINED2 = ST_PUTUTU_GAINED1 + 1
ST_PUTUTU_SPENT1 = ST_PUTUTU_GAINED2 + 1
ST_PUTUTU_SPENT2 = ST_PUTUTU_SPENT1 + 1
ST_PUTUTU_CHANGED = ST_PUTUTU_SPENT2 + 1  # placements where a pututu tile changed the action
ST_MEDALS_GAINED = ST_PUTUTU_CHANGED + 1
ST_BLESSINGS = ST_MEDALS_GAINED + 1
ST_HEADDRESSES = ST_BLESSINGS + 1
ST_VP = ST_HEADDRESSES + 1  # + VP source
VP_START = 0
VP_ACTION_SPACE = 1
VP_EXCHANGE = 2
VP_HEADDRESS = 3
VP_STATUS = 4
VP_PRIESTS = 5
VP_GOODS = 6
VP_MISSIONS = 7
VP_PEOPLE = 8
VP_DELIVERY = 9
VP_MEDALS = 10
VP_VILLAGES = 11
VP_ACHIEVEMENTS = 12
N_VP_SOURCES = 13
VP_SOURCE_NAMES = ("start", "vp_space", "exchange", "headdress", "status", "priests", "goods",
                   "missions", "people", "delivery", "medals", "villages", "achievements")
ST_RANK = ST_VP + N_VP_SOURCES
ST_WON = ST_RANK + 1
ST_FINAL_ORDER = ST_WON + 1
ST_START_ORDER = ST_FINAL_ORDER + 1
ST_DOUBLES = ST_START_ORDER + 1  # rolls showing exactly two equal dice
ST_TRIPLES = ST_DOUBLES + 1  # rolls showing three equal dice
N_ST = ST_TRIPLES + 1

# ---- dstat[action, pips]: dice placed (pips 1..6; pips 0 = extra turns of Mama Quilia 05)
N_DSTAT_PIPS = 7

# ---- scratch rows (int64) for bots and rules, so that nothing allocates during play
SCR_OPTION = 0  # the option being tried
SCR_BEST = 1  # the best option so far
SCR_LIST = 2  # a list (candidates, reachable villages, ...)
SCR_LIST2 = 3
SCR_TMP = 4
TOP_TURNS = 8  # the search bot's candidates: a heuristic's best phase-I turns, best first
SCR_TOP = 5  # + rank: one of those turns (in a look-ahead side's scratch)
SCR_TOP_VALUE = SCR_TOP + TOP_TURNS  # [rank]: its heuristic value, in micro-VP
N_SCR = SCR_TOP_VALUE + 1
SCR_WIDTH = 96

# ---- log[i, :]: events for `sim replay`
LOG_WIDTH = 7
LOG_CAPACITY = 8192


@njit(cache=True)
def new_state(n_players, logging):
    """Fresh arrays for one game; setup() fills them."""
    g = np.zeros(N_G, np.int32)
    g[G_N_PLAYERS] = n_players
    pl = np.zeros((MAX_PLAYERS, N_PL), np.int32)
    board = np.full(N_BOARD, -1, np.int32)
    decks = np.full(N_DECKS, -1, np.int32)
    rng = np.zeros(4, np.uint64)
    return (g, pl, board, decks, rng)


@njit(cache=True)
def new_side(n_players, logging):
    stats = np.zeros((MAX_PLAYERS, N_ST), np.int32)
    dstat = np.zeros((N_ACTIONS, N_DSTAT_PIPS), np.int32)
    log = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int32)
    scratch = np.zeros((N_SCR, SCR_WIDTH), np.int64)
    return (stats, dstat, log, scratch)


@njit_noalloc
def copy_state(src, dst):
    """Copy the five state arrays of `src` into `dst` (a bot's look-ahead buffer), marked as a
    look-ahead so that a card turned up from a hidden pile there is a random one of the pile,
    not the real next card (a bot must not learn the pile order by looking ahead)."""
    for k in range(src[0].shape[0]):
        dst[0][k] = src[0][k]
    a, b = src[1], dst[1]
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            b[i, k] = a[i, k]
    for k in range(src[2].shape[0]):
        dst[2][k] = src[2][k]
    for k in range(src[3].shape[0]):
        dst[3][k] = src[3][k]
    for k in range(4):
        dst[4][k] = src[4][k]
    dst[0][G_LOOKAHEAD] = 1
