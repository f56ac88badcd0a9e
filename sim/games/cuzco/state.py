"""Layouts of Cuzco: a few flat typed arrays and the named indices into them.

Parameters (components.toml + a variant, packed by data.py) come as one flat int32 array `P`: the
rules array first (so an R_* index reads P itself, P[R_ROUNDS]), then header slots holding how many
rows the tables a variant can size have (H_*), then the component tables, each a block of rows at a
constant offset (*_AT) with room for the most rows a variant may have, read by name through the
small accessors below (village_field(P, v, VF_VP), mission_field(P, m, MF_KIND1), ...).
A game's state is one int32 array `st` (S_* slots: the game scalars, the random stream, a block of
P_* fields per seat, the board and the piles) - everything the rules read - and its record is one
int64 array `rec` (REC_*: STAT_* fields per seat, the dice placed, scratch rows) plus the replay
log, which only record what happened. A bot looks ahead by copying the state array into a spare
one (copy_state, one loop), so rules never read the record and never allocate.
"""
import numpy as np
from numba import njit

from sim.core.jit import njit_noalloc, njit_typed
from sim.core.search import STAT_WORDS
from sim.core.paramspec import Bool, Int, IntList, Ints, LengthOf, PerPlayerCount, RulesLayout

# Numba types of the parameter, state, record and log arrays (below), for functions compiled with
# one declared signature (sim.core.jit.njit_typed): whole, C-contiguous arrays.
T_PARAMS = "int32[::1]"
T_STATE = "int32[::1]"
T_REC = "int64[::1]"
T_LOG = "int32[:, ::1]"

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
VF_PIECE = 3  # the board piece carrying the village's feather (villages.feather_piece)
N_VF = 4

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
R_DEAL_PIECES = RULES.add(Bool("setup.deal_feather_pieces"))  # issue 14: after the layout issue 12 pinned
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
WAY_PIPS_AT = MISSIONS_AT + MAX_MISSIONS * N_MF  # + (a * N_VILLAGES + b) * 3 + WAY_*: fewest pips
CARDS_AT = WAY_PIPS_AT + N_VILLAGES * N_VILLAGES * 3  # of a way from a to b (99: none), from the roads
# + card * N_CF + CF_*: each god card's printed numbers ([gods.cards.NAME], issue 37)
CF_COPIES = 0  # cards of this ability in its god's pile (printed 4)
CF_OFFERINGS = 1  # offerings it costs to play (Layout of God Cards: Cost, printed 1)
N_CF = 2
MAX_CARD_OFFERINGS = 5
MAX_CARD_COPIES = 8  # a card doubled; its god's pile holds 3 abilities at most this many
FORBIDDEN_AT = CARDS_AT + N_CARDS * N_CF  # + seat: bitmask of the cards that seat may not take or play
N_PARAMS = FORBIDDEN_AT + MAX_PLAYERS


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def village_field(P, v, field):
    return P[VILLAGES_AT + v * N_VF + field]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def road_field(P, e, field):
    return P[ROADS_AT + e * N_RF + field]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def arm_field(P, k, field):
    return P[ARMS_AT + k * N_RF + field]


@njit_noalloc
def space_actions(P, n_players, space):
    """Bitmask of the actions on a space of the n-player action board (0: no such space)."""
    return P[SPACES_AT + n_players * MAX_SPACES + space]


@njit_noalloc
def mask_colour(P, mask, slot):
    return P[MASKS_AT + mask * N_SLOTS + slot]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def good_field(P, t, field):
    return P[GOODS_AT + t * N_GF + field]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
def tile_field(P, tile, field):
    return P[PEOPLE_AT + tile * N_TF + field]


@njit_noalloc
def joint_amount(P, ability, n):
    """What n identical tiles of an ability give when used jointly (n = 1..4)."""
    return P[JOINT_AT + ability * N_JOINT + n - 1]


@njit_typed(f"int64({T_PARAMS}, int64, int64)")
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

# ---- st[S_*]: the state array (int32), everything the rules read, at constant offsets; a bot's
# look-ahead copies it whole (copy_state). The game scalars, the random stream, one block of P_*
# fields per seat at S_PLAYERS + seat * N_P, then the board and the piles.
S_N_PLAYERS = 0
S_ROUND = 1  # 0-based
S_PHASE = 2
S_ROTATION = 3  # Cuzco overlay: arm k leads to inner village (k + rotation) % 6
S_TEMPLE_MEDALS = 4
S_PUTUTU1 = 5  # tiles left in the supply
S_PUTUTU2 = 6
S_STATUS_SEQ = 7  # arrival counter for stacking status markers
S_GOD_DISCARD_N = 8
S_STUDY_N = 9  # study stack size
S_FARM_N = 10
S_STUDY_DISCARD_N = 11
S_FARM_DISCARD_N = 12
S_MISSION_N = 13  # golden mission pile size
S_MARKET_ROW_SIZE = 14
S_PALACE_SIZE = 15
S_ERROR = 16
S_LOG_N = 17
S_WINNER = 18
S_TURNS = 19  # die placements in the game
S_BOX_GOODS = 20  # goods returned to the box (setup and round ends)
S_BOX_MISSIONS = 21
S_OFFERING_SUPPLY = 22  # offerings in the common supply
S_EXTRA_TURN = 23  # 1 while a Mama Quilia 05 extra turn is being played
S_PUTUTU_SHORT = 24  # qualified players who got no tile (supply ran out)
S_FOOD_SUPPLY = 25
S_SETUP_DONE = 26  # 1 once setup has turned up the god cards
S_FEATHER_SUPPLY = 27  # + colour
S_ORDER = S_FEATHER_SUPPLY + N_COLOURS  # + position: seat holding order token position+1
S_GOD_PILE_N = S_ORDER + MAX_PLAYERS  # + god: cards in that god's draw pile
S_GOD_UP = S_GOD_PILE_N + N_GODS  # + god: face-up card ability, -1 none
S_LOOKAHEAD = S_GOD_UP + N_GODS  # 1 in a bot's look-ahead copy: hidden piles are drawn at random
S_RNG = S_LOOKAHEAD + 1 + (S_LOOKAHEAD + 1) % 2  # + 0..7: the random stream's 4 uint64 words (rng_of)
RNG_WORDS = 4
S_PLAYERS = S_RNG + 2 * RNG_WORDS  # + seat * N_P + P_*

# ---- P_*: a seat's fields in its block of the state array (seat_at)
P_VP = 0
P_STATUS = 1  # status track space
P_STATUS_SEQ = 2  # higher = on top of the stack
P_LOC = 3  # village 0..11 or CUZCO
P_OFFERINGS = 4
P_FOOD = 5
P_MEDALS = 6
P_QUIPU_MASK = 7  # quipus on the 10 mask spaces
P_QUIPU_RESERVE = 8
P_QUIPU_DELIVERED = 9
P_PRIESTS_HOME = 10
P_PUTUTU1 = 11
P_PUTUTU2 = 12
P_MASK = 13  # mask board index
P_N_TILES = 14
P_MISSIONS_DONE = 15
P_GOODS_BOUGHT = 16
P_ORDER_POS = 17  # 0 = order token 1
P_DOUBLE_PEOPLE = 18  # 1 while Iliapa 01 doubles this phase II's uses
P_USED_STUDY = 19  # phase II: study ability used, -1 none yet
P_USED_FARM = 20
USED_UP = 99  # P_USED_*: the extra ability (cards 11/15) has been used too
P_MAY_ROTATE = 21  # 1 once the chasqui has returned to Cuzco: it may turn the overlay on leaving
P_DICE = 22  # + die: pips, 0 once placed
P_SLOT = P_DICE + 3  # + feather slot: 1 if a feather sits there
P_CIRCLET = P_SLOT + N_SLOTS  # + circlet: 1 if activated
P_FEATHERS = P_CIRCLET + N_CIRCLETS  # + colour: feathers of that colour
P_GOODS = P_FEATHERS + N_COLOURS  # + good type
P_HAND = P_GOODS + N_GOODS  # + card ability: cards in hand
P_MISSION = P_HAND + N_CARDS  # + 0..2: mission id on the mask board, -1 empty
P_TILE = P_MISSION + 3  # + 0..11: people tile id on the mask board, -1 empty
P_SLID = P_TILE + 12  # + 0..11: 1 if that tile is slid down
P_DELIVERED = P_SLID + 12  # + village: 1 if this player's quipu is there
P_DEALT = P_DELIVERED + N_VILLAGES  # + card ability: dealt face down at setup (hidden from the others)
P_FORBIDDEN = P_DEALT + N_CARDS  # bitmask of card abilities this seat may not take or play (sim value)
# + action * STAT_WORDS: the search bot's phase-I turns by the action of its heuristic's first turn
# (ACTION_NAMES), and how often and by how much the search left that turn (sim.core.search.record_choice;
# columns search_<action>_*)
P_SEARCH_STATS = P_FORBIDDEN + 1
N_P = P_SEARCH_STATS + N_ACTIONS * STAT_WORDS

# ---- the board (state slots after the players' blocks; -1 empty unless said otherwise)
S_STACK = S_PLAYERS + MAX_PLAYERS * N_P  # + village * 4 + depth: seat of the quipu, bottom first
S_STACK_N = S_STACK + N_VILLAGES * MAX_PLAYERS  # + village: quipus there
S_TEMPLE = S_STACK_N + N_VILLAGES  # + step (0 = step 1): seat, -1 none
S_SPACE_MIN = S_TEMPLE + N_TEMPLE  # + space: lowest pips on it, NO_DIE if empty
S_SPACE_N = S_SPACE_MIN + MAX_SPACES  # + space: dice on it
S_SPACE_DICE = S_SPACE_N + MAX_SPACES  # + space * 12 + i: seat * 8 + pips
S_STUDY_DISPLAY = S_SPACE_DICE + MAX_SPACES * MAX_DICE_ON_SPACE  # + pips - 1: tile id, -1 taken
S_FARM_DISPLAY = S_STUDY_DISPLAY + 6
S_PALACE = S_FARM_DISPLAY + 6  # + i: mission id, -1 taken
PALACE_SLOTS = MAX_PLAYERS + 6  # room for players + palace_extra (up to 4) missions
S_MARKET = S_PALACE + PALACE_SLOTS  # + round * 5 + i: good type, -1 none

# ---- the piles, as stacks (top at size - 1)
GOD_PILE_SLOTS = 3 * MAX_CARD_COPIES  # room in one god's draw pile
S_GOD_PILES = S_MARKET + 6 * 5  # + god * GOD_PILE_SLOTS + i
S_GOD_DISCARD = S_GOD_PILES + N_GODS * GOD_PILE_SLOTS  # + i: card ability (face-up discard pile)
S_STUDY_STACK = S_GOD_DISCARD + N_GODS * GOD_PILE_SLOTS
S_FARM_STACK = S_STUDY_STACK + 36
S_STUDY_DISCARD = S_FARM_STACK + 36
S_FARM_DISCARD = S_STUDY_DISCARD + 36
S_MISSION_PILE = S_FARM_DISCARD + 36
S_VILLAGE_COLOUR = S_MISSION_PILE + 64  # + village: its feather colour this game (Setup 1)
S_CARD_COST = S_VILLAGE_COLOUR + N_VILLAGES  # + card: offerings it costs to play (gods.cards.NAME.offerings)
N_STATE = S_CARD_COST + N_CARDS


@njit_typed(f"int64({T_STATE}, int64)")
def village_colour(st, v):
    """The colour of the feather at village v this game (the board pieces are dealt at setup)."""
    return st[S_VILLAGE_COLOUR + v]


# ---- rec[REC_*]: the record array (int64), what happened and the scratch rows; never read by the
# rules. One block of STAT_* fields per seat at REC_STATS + seat * N_STAT (what the analyses
# read), the dice placed, and the scratch rows bots and rules work in (nothing allocates in play).
STAT_CARD_GAINED = 0  # + ability
STAT_CARD_PLAYED = STAT_CARD_GAINED + N_CARDS  # + ability (with an offering)
STAT_CARD_MEDAL = STAT_CARD_PLAYED + N_CARDS  # + ability (through an Inti medal)
STAT_MISSION_DONE = STAT_CARD_MEDAL + N_CARDS  # + mission id
STAT_MISSION_FAILED = STAT_MISSION_DONE + MAX_MISSIONS  # + mission id
STAT_GOOD_BOUGHT = STAT_MISSION_FAILED + MAX_MISSIONS  # + good type
STAT_PEOPLE = STAT_GOOD_BOUGHT + N_GOODS  # + kind * 12 + ability: tiles gained
STAT_PUTUTU_GAINED1 = STAT_PEOPLE + 2 * N_ABILITIES
STAT_PUTUTU_GAINED2 = STAT_PUTUTU_GAINED1 + 1
STAT_PUTUTU_SPENT1 = STAT_PUTUTU_GAINED2 + 1
STAT_PUTUTU_SPENT2 = STAT_PUTUTU_SPENT1 + 1
STAT_PUTUTU_CHANGED = STAT_PUTUTU_SPENT2 + 1  # placements where a pututu tile changed the action
STAT_MEDALS_GAINED = STAT_PUTUTU_CHANGED + 1
STAT_BLESSINGS = STAT_MEDALS_GAINED + 1
STAT_HEADDRESSES = STAT_BLESSINGS + 1
STAT_VP = STAT_HEADDRESSES + 1  # + VP source
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
STAT_RANK = STAT_VP + N_VP_SOURCES
STAT_WON = STAT_RANK + 1
STAT_FINAL_ORDER = STAT_WON + 1
STAT_START_ORDER = STAT_FINAL_ORDER + 1
STAT_DOUBLES = STAT_START_ORDER + 1  # rolls showing exactly two equal dice
STAT_TRIPLES = STAT_DOUBLES + 1  # rolls showing three equal dice
STAT_CHOICE = STAT_TRIPLES + 1  # + CH_*: how often a player's choice took each alternative (issue 35; no column,
# read by `python -m sim.games.cuzco.choicecount`)
CH_SETUP_KEEP_FIRST = 0  # setup 15: two dealt cards of one colour, different abilities: the first kept
CH_SETUP_KEEP_SECOND = 1  # ... the second kept
CH_SETUP_SAME = 2  # ... the same ability twice (no choice)
CH_PAID_CARD = 3  # + card: paid from the hand when a medal on the face-up card could have paid too
CH_PAID_MEDAL = CH_PAID_CARD + N_CARDS  # + card: paid with a medal when the hand copy could have paid too
CH_ROTATION_KEPT = CH_PAID_MEDAL + N_CARDS  # a chasqui free to turn the overlay left it as it was
CH_ROTATION_TURNED = CH_ROTATION_KEPT + 1  # ... turned it
CH_ARM_BACK = CH_ROTATION_TURNED + 1  # + pips (0-6): the arm left pointing at the inner village reached
CH_JUMP_OUTER = CH_ARM_BACK + 7  # a Mama Sara 14 jump from Cuzco to an outer village, the overlay turned as chosen
CH_SLIDE_DOWN_DEAREST = CH_JUMP_OUTER + 1  # an exchange slid down the most valuable unslid tile of the kind
CH_SLIDE_DOWN_OTHER = CH_SLIDE_DOWN_DEAREST + 1  # ... another
CH_SLIDE_UP_DEAREST = CH_SLIDE_DOWN_OTHER + 1  # Iliapa 02 slid up the most valuable slid tile
CH_SLIDE_UP_OTHER = CH_SLIDE_UP_DEAREST + 1  # ... another
CH_SLIDE_UP_NONE = CH_SLIDE_UP_OTHER + 1  # ... left the slid tiles down
CH_DISCARD_TILE_STUDY = CH_SLIDE_UP_NONE + 1  # Viracocha 09 took a study tile from the discards
CH_DISCARD_TILE_FARM = CH_DISCARD_TILE_STUDY + 1  # ... a farm tile
CH_MOVE_DIE_TO_VP = CH_DISCARD_TILE_FARM + 1  # Mama Quilia 06 moved a die to the victory-point space
CH_MOVE_DIE_ELSEWHERE = CH_MOVE_DIE_TO_VP + 1  # ... to another action space
CH_FEATHER_SLOT_FIXED = CH_MOVE_DIE_ELSEWHERE + 1  # a feather went to the slot the fixed rule before issue 35 took
CH_FEATHER_SLOT_OTHER = CH_FEATHER_SLOT_FIXED + 1  # ... to another slot of its colour
CH_FOLLOW_TAKEN = CH_FEATHER_SLOT_OTHER + 1  # + k (08, 09, 05): a card this turn's medal turned up used by a second medal
CH_FOLLOW_DECLINED = CH_FOLLOW_TAKEN + 3  # + k: ... left (rules.follow_up)
CH_TURN_CARDS = CH_FOLLOW_DECLINED + 3  # + n (0-4): a phase-I turn played n cards in its card slots (08/10 aside)
N_CHOICE = CH_TURN_CARDS + 5
N_STAT = STAT_CHOICE + N_CHOICE
N_DSTAT_PIPS = 7  # dice placed per action: pips 1..6; pips 0 = extra turns of Mama Quilia 05

SCR_OPTION = 0  # scratch rows: the option being tried
SCR_BEST = 1  # the best option so far
SCR_LIST = 2  # a list (candidates, reachable villages, ...)
SCR_LIST2 = 3  # the game record's: phase II's best use; the look-ahead record's: the pruned kind's candidates
SCR_TMP = 4
TOP_TURNS = 8  # the search bot's candidates: a heuristic's best phase-I turns, best first
SCR_TOP = 5  # + rank: one of those turns (in a look-ahead record's scratch)
SCR_TOP_VALUE = SCR_TOP + TOP_TURNS  # [rank]: its heuristic value, in micro-VP
SCR_BASE = SCR_TOP_VALUE + 1  # a look-ahead's position value parts at the decision's start (bots)
N_SCR = SCR_BASE + 1
SCR_WIDTH = 96

REC_STATS = 0  # + seat * N_STAT + STAT_*
REC_DICE = REC_STATS + MAX_PLAYERS * N_STAT  # + action * N_DSTAT_PIPS + pips
REC_SCRATCH = REC_DICE + N_ACTIONS * N_DSTAT_PIPS  # + row * SCR_WIDTH + i (scr_row)
MEMO_SLOTS = 512  # a decision's outcomes (bots.outcome_value, bots.modelled_value): keys, second keys, values
MEMO_USED = 3 * MEMO_SLOTS  # + the number of slots in use
REC_MEMO = REC_SCRATCH + N_SCR * SCR_WIDTH
REC_COUNTS = REC_MEMO + MEMO_USED + 1  # + COUNT_*: a look-ahead record's running work counters
COUNT_DECISIONS = 0  # phase-I turns chosen
COUNT_OPTIONS = 1  # phase-I options valued
COUNT_PLAYS = 2  # of those, played on a copy of the state (KIND_LOOKAHEAD)
COUNT_MODELLED = 3  # of those, valued from their modelled effects (the others: a decision's memo)
COUNT_EXCHANGE_STEPS = 4  # of those, an exchange added to a plan (bots.plan_exchange_modelled)
COUNT_CARD_TURNS = 5  # of those, turns playing a card (the plan's start included, not its steps)
COUNT_BY_ACTION = 6  # + action: of those, turns of that action (the plan's start included, not its steps)
N_COUNTS = COUNT_BY_ACTION + N_ACTIONS
REC_RANK_TURNS = REC_COUNTS + N_COUNTS  # 1 while the search bot's root decision ranks its best turns
JOURNAL_ENTRIES = 256  # a heuristic's option applied in place (effects.py): (field, old value) pairs
JOURNAL_WEIGHTS = 64  # room for the deciding bot's weight vector (effects.J_WEIGHTS)
JOURNAL_HEADER = 7 + N_COLOURS + JOURNAL_WEIGHTS  # entries, groups touched, the decision's choice memo and weights (effects.J_*)
REC_JOURNAL = REC_RANK_TURNS + 1  # the header, then the pairs
N_REC = REC_JOURNAL + JOURNAL_HEADER + 2 * JOURNAL_ENTRIES

MASK_FIELDS = 24  # P_TILE and P_SLID, side by side: a seat's whole mask board
assert P_SLID == P_TILE + 12

# ---- log[i, :]: events for `sim replay` (a separate int32 array; one row when logging is off)
LOG_WIDTH = 7
LOG_CAPACITY = 8192


@njit(cache=True, _nrt=False, inline="always")
def rng_of(st):
    """The random stream inside the state array, as the uint64[4] sim.core.rng works on."""
    return st[S_RNG:S_RNG + 2 * RNG_WORDS].view(np.uint64)


@njit(cache=True, _nrt=False, inline="always")
def scr_row(rec, row):
    """A scratch row of the record array (int64[SCR_WIDTH])."""
    return rec[REC_SCRATCH + row * SCR_WIDTH:REC_SCRATCH + (row + 1) * SCR_WIDTH]


@njit(cache=True, _nrt=False, inline="always")
def memo_of(rec):
    """A look-ahead record's outcome memo (int64[MEMO_USED + 1], see bots.outcome_value)."""
    return rec[REC_MEMO:REC_COUNTS]


@njit(cache=True, _nrt=False, inline="always")
def journal_of(rec):
    """A heuristic's journal of the changes an option made in place (effects.py)."""
    return rec[REC_JOURNAL:N_REC]


@njit_typed("int64(int64)")
def seat_at(p):
    """Where seat p's P_* block starts in the state array."""
    return S_PLAYERS + p * N_P


@njit_typed(f"int64({T_STATE}, int64)")
def seat_in_order(st, pos):
    """The seat at position `pos` of the player order (an int64, like every seat argument)."""
    return st[S_ORDER + pos]


@njit_typed("int64(int64)")
def stats_at(p):
    """Where seat p's STAT_* block starts in the record array."""
    return REC_STATS + p * N_STAT


@njit(cache=True)
def new_state(n_players, logging):
    """A fresh state array for one game; setup() fills it."""
    st = np.zeros(N_STATE, np.int32)
    st[S_N_PLAYERS] = n_players
    st[S_STACK:] = -1  # the board and the piles start empty
    return st


@njit(cache=True)
def new_side(n_players, logging):
    """The record array and the log of one game (or of a look-ahead: logging off)."""
    rec = np.zeros(N_REC, np.int64)
    log = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int32)
    return rec, log


@njit_noalloc
def copy_state(src, dst):
    """Copy the state array `src` into `dst` (a bot's look-ahead buffer), marked as a look-ahead
    so that a card turned up from a hidden pile there is a random one of the pile, not the real
    next card (a bot must not learn the pile order by looking ahead)."""
    for k in range(N_STATE):
        dst[k] = src[k]
    dst[S_LOOKAHEAD] = 1


def players(st):
    """Python-side view of the players' blocks as a table [seat, P_*] (tests, replay, tools)."""
    return st[S_PLAYERS:S_PLAYERS + MAX_PLAYERS * N_P].reshape(MAX_PLAYERS, N_P)


def stats(rec):
    """Python-side view of the per-seat records as a table [seat, STAT_*]."""
    return rec[REC_STATS:REC_STATS + MAX_PLAYERS * N_STAT].reshape(MAX_PLAYERS, N_STAT)


def dice(rec):
    """Python-side view of the dice placed, [action, pips]."""
    return rec[REC_DICE:REC_DICE + N_ACTIONS * N_DSTAT_PIPS].reshape(N_ACTIONS, N_DSTAT_PIPS)


def scratch(rec):
    """Python-side view of the scratch rows, [row, i]."""
    return rec[REC_SCRATCH:REC_MEMO].reshape(N_SCR, SCR_WIDTH)


def rng_words(st):
    """Python-side view of the random stream (uint64[4])."""
    return st[S_RNG:S_RNG + 2 * RNG_WORDS].view(np.uint64)
