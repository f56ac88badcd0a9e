"""State layout of one Chachapoya game: a few typed arrays and the named indices into them.

The parameters (from components.toml + a variant) are one flat int32 array, `params`:
  params[R_*]                                      the rules (RULES below), then a header of the
                                                   tables' sizes and places (params[H_*])
  tf(params, t, TF_*)                              treasure type t's fields, from TREASURE_AT
  af(params, a, AF_*)                              adventurer kind a's fields, from params[H_ADVENTURER_AT]
  cards.scale_points(params, t, n)                 points for n cards of type t, from params[H_SCALE_AT]
The state of one game is a tuple of arrays (see `new_state`), passed whole to the rule functions.
"""
import numpy as np
from numba import njit

from sim.core.jit import njit_noalloc

from sim.core.paramspec import Bool, Const, Int, PerPlayerCount, RulesLayout

MAX_PLAYERS = 6
MAX_TREASURE_CARDS = 127 * 4  # the most treasure cards a game may hold (data.validate)

# ---- tf(params, t, field)
TF_COUNT = 0
TF_VALUE = 1  # upper-left card value (what a Curse takes)
TF_EFFECT = 2
TF_EFFECT_AMOUNT = 3
TF_TOKEN_OK = 4
N_TF = 5

EFFECT_NONE = 0
EFFECT_DRAW = 1
EFFECT_CURSE = 2
EFFECT_NAMES = ("none", "draw", "curse")

# scale[t, n] = points for holding n cards of type t; SCALE_X eliminates.
SCALE_X = -1_000_000

# ---- af(params, a, field)
AF_COUNT = 0
AF_VALUE = 1
AF_MAX = 2
AF_ROLE = 3
AF_PENALTY = 4
N_AF = 5

ROLE_NUMBER = 0
ROLE_TRACKER = 1
ROLE_MAFIA = 2
ROLE_DICTATOR = 3
ROLE_SPY = 4
ROLE_NAMES = ("number", "tracker", "mafia", "dictator", "spy")

# ---- params[R_*]: components.toml's rule parameters, each declared once (type, bounds); the
# declaration order lays out the array (sim/core/paramspec.py). data.py checks and packs them.
RULES = RulesLayout()
R_HAND_SIZE = RULES.add(Int("setup.hand_size", 1, 30))
R_TOKENS = RULES.add(Int("setup.hidden_tokens_per_player", 0, 5))
R_OFFER_DRAW = RULES.add(Const(3, "Gameplay: three drawn, one to the bottom, one face up, one face down"))
R_BID_MIN = RULES.add(Int("rules.bid_min_cards", 1, 10))
R_BID_MAX = RULES.add(Int("rules.bid_max_cards", 1, 10))
R_ROUND_DRAW = RULES.add(Int("rules.round_draw", 0, 20))
R_MIN_HAND = RULES.add(Int("rules.minimum_hand", 0, 30))
R_TOKEN_REFILL_TO = RULES.add(Int("rules.token_refill_to", 0, 30))
R_LAST_ROUND_DECK = RULES.add(Int("rules.last_round_deck", 2, 3))
R_PAIR_DRAW = RULES.add(Int("rules.tracker_pair_draw", 0, 20))
R_UNRESOLVED_LEADER = RULES.add(Int("rules.unresolved_leader_last_round", -100, 100))
R_CLASH_REBID = RULES.add(Bool("rules.two_player_leader_clash_rebid"))
R_ROUND_LIMIT = RULES.add(Int("rules.round_limit", 1, 10_000))
R_STALEMATE_ROUNDS = RULES.add(Int("rules.stalemate_rounds", 1, 10_000))
# params[R_DISCARD_BASE + n] = treasures discarded unseen with n players; its keys are the player counts
R_DISCARD_BASE = RULES.add(PerPlayerCount("setup.treasure_discard", MAX_PLAYERS, 0, MAX_TREASURE_CARDS))
N_RULES = RULES.size
# ---- params[H_*] after the rules: a header of the tables' sizes and places (data.engine_arrays
# writes them), then treasure[T, N_TF] at TREASURE_AT, adventurer[A, N_AF] and scale[T, width], row by row.
H_TREASURES = N_RULES  # treasure types
H_ADVENTURERS = N_RULES + 1  # adventurer kinds
H_SCALE_WIDTH = N_RULES + 2  # entries of a scale row (scale[t, 0] = 0: no card)
H_ADVENTURER_AT = N_RULES + 3
H_SCALE_AT = N_RULES + 4
TREASURE_AT = N_RULES + 5


@njit_noalloc
def tf(params, t, field):
    """Treasure type t's field TF_*."""
    return params[TREASURE_AT + t * N_TF + field]


@njit_noalloc
def af(params, a, field):
    """Adventurer kind a's field AF_*."""
    return params[params[H_ADVENTURER_AT] + a * N_AF + field]


def param_tables(params):
    """Python-side views of the packed parameter array's tables (for tests and tools), as
    data.engine_tables makes them: treasure[T, TF_*], scale[T, n cards], adventurer[A, AF_*], rules."""
    n_t, n_a, width = int(params[H_TREASURES]), int(params[H_ADVENTURERS]), int(params[H_SCALE_WIDTH])
    treasure = params[TREASURE_AT:TREASURE_AT + n_t * N_TF].reshape(n_t, N_TF)
    adventurer = params[params[H_ADVENTURER_AT]:params[H_ADVENTURER_AT] + n_a * N_AF].reshape(n_a, N_AF)
    scale = params[params[H_SCALE_AT]:params[H_SCALE_AT] + n_t * width].reshape(n_t, width)
    return treasure, scale, adventurer, params[:N_RULES]


# ---- g[S_*]: the game scalars (S_: a state slot, as in docs/adding-a-game.md)
S_ROUND = 0
S_START = 1  # start player of the current round
S_TDECK_HEAD = 2  # treasure deck: circular queue, top at head
S_TDECK_SIZE = 3
S_ADECK_SIZE = 4  # adventurer deck: stack, top at size - 1
S_N_OFFER = 5  # treasure cards on the table
S_FACE_UP = 6  # 1 if offer[0] is face up (normal round), 0 in the last round
S_KNOWER = 7  # seat that knows the face-down card (-1: nobody)
S_LAST_ROUND = 8
S_END_REASON = 9
S_WINNER = 10
S_ERROR = 11  # 0, or an ERR_* code (see error_name)
S_LOG_N = 12
S_N_PLAYERS = 13
S_INITIAL_TDECK = 14
S_NO_WINNER_ROUNDS = 15
S_PAIR_CANCELS = 16
S_LEADER_CLASHES = 17
S_REBID = 18  # 1 when the 2-player leader clash keeps the offer for another bidding
S_BURIED = 19  # the drawn card the start player put to the bottom (public: one of two), -1 none
S_IDLE_ROUNDS = 20  # rounds in a row in which nobody acquired a treasure (stalemate rule)
N_S = 21

END_NONE = 0
END_DECK = 1  # the last round was played
END_LAST_STANDING = 2  # one player left in play
END_ALL_ELIMINATED = 3
END_ROUND_LIMIT = 4
END_STALEMATE = 5  # rules.stalemate_rounds rounds in a row without a treasure acquired: no winner
END_REASON_NAMES = ("none", "deck_exhausted", "last_standing", "all_eliminated", "round_limit", "stalemate")

# ---- g[S_ERROR]: what broke (an invariant in checked mode, or a bot's illegal bid)
ERR_NONE = 0
ERR_ADVENTURERS = 1
ERR_TREASURES = 2
ERR_TOKENS = 3
ERR_NEGATIVE = 4
ERR_ILLEGAL_BID = 100  # + the seat whose bot chose it
ERROR_NAMES = ("none", "adventurer cards created or lost", "treasure cards created or lost",
               "hidden-treasure tokens created or lost", "negative card count in a hand or collection")


def error_name(code: int) -> str:
    """The readable name of a g[S_ERROR] code, for the failure message of a run."""
    if code >= ERR_ILLEGAL_BID:
        return f"illegal bid chosen by seat {code - ERR_ILLEGAL_BID}"
    if 0 <= code < len(ERROR_NAMES):
        return ERROR_NAMES[code]
    return f"unknown error code {code}"

# ---- bids[p, field]
B_KIND = 0  # adventurer kind, -1 = no bid
B_N = 1  # cards of that kind (for a tracker pair: 2 trackers)
B_JOKER = 2  # 1 if one tracker joins as a joker
B_JOKER_KIND = 3  # the tracker kind used as the joker
N_B = 4

# ---- pstat[p, field]: per-player scalars and counters
P_ALIVE = 0
P_TOKEN = 1  # hidden-treasure tokens in hand
P_ELIMINATION = 2  # ELIM_* code
P_ELIM_ROUND = 3
P_BIDS_WON = 4
P_TOKEN_REFILL = 5  # tokens used to refill the hand
P_TOKEN_SCORED_ON = 6  # treasure type the token joined at scoring, -1 none
P_UNRESOLVED_LEADERS = 7  # leaders played in the last round that did not resolve
P_VP_UNRESOLVED = 8
P_VP_HAND = 9
P_SCORE = 10
P_RANK = 11
P_WON = 12
P_LOST_TO_CURSE = 13
P_PAIR_CANCELS = 14
P_CARDS_DRAWN = 15
N_P = 16

ELIM_NONE = 0
ELIM_IN_PLAY = 1  # an X reached by bidding
ELIM_AT_SCORING = 2  # an X reached by the hidden-treasure token at the end
ELIMINATION_NAMES = ("none", "in_play", "at_scoring")

# ---- kstat[p, row, a] and tstat[p, row, t]
K_OPENING = 0
K_PLAYED = 1
K_END = 2
N_K = 3
T_GOT = 0  # acquired by bidding
T_LOST = 1  # lost to a curse
T_VP = 2  # points at the end (token included)
N_T = 3

# ---- scratch[row, :] and fscratch[row, :]: per-game work space, so that no rule or bot
# allocates during play (see sim/core/jit.py); each user slices the row to the length it needs.
SCR_DRAWN = 0  # the start player's three drawn cards
SCR_EARLIER = 1  # a collection before this bidding's cards (Curse)
SCR_TAKEN = 2  # cards a winner takes
SCR_UNRESOLVED = 3  # leaders that did not resolve, per seat
SCR_COUNTS = 4  # a collection with the hidden-treasure token added
SCR_UNSEEN = 5  # treasure cards a bot has not seen, per type
SCR_POOL = 6  # those cards one by one (last-round sampling)
SCR_STRENGTH = 7  # each seat's bid strength (-1: not a number bid)
N_SCR = 8
FSCR_KEEP = 0  # a bot's cost of spending each adventurer kind
FSCR_PUBLIC = 1  # what each drawn card is worth to the others
FSCR_UTILITY = 2  # a bot's utility of each legal bid or offer (the search ranks its candidates by it)
N_FSCR = 3

# ---- position of the arrays in the state tuple that are not unpacked by position everywhere
ADHIDDEN_AT = 17  # adhidden[a]: cards of kind a in the discard pile that nobody saw (eliminated hands)

# ---- log[i, :]: events for `sim replay` (only written when logging is on)
LOG_WIDTH = 7
LOG_CAPACITY = 4096


@njit(cache=True)
def new_state(params, n_players, logging):
    n_t = np.int64(params[H_TREASURES])
    n_a = np.int64(params[H_ADVENTURERS])
    n_treasures = 0
    for t in range(n_t):
        n_treasures += tf(params, t, TF_COUNT)
    n_adventurers = 0
    for a in range(n_a):
        n_adventurers += af(params, a, AF_COUNT)
    g = np.zeros(N_S, np.int64)
    g[S_N_PLAYERS] = n_players
    hands = np.zeros((n_players, n_a), np.int16)
    collected = np.zeros((n_players, n_t), np.int16)
    tdeck = np.full(max(n_treasures, 1), -1, np.int8)
    adeck = np.full(max(n_adventurers, 1), -1, np.int8)
    adiscard = np.zeros(n_a, np.int16)
    tout = np.zeros((2, n_t), np.int16)
    offer = np.full(max(params[R_OFFER_DRAW], params[R_LAST_ROUND_DECK]) + 1, -1, np.int8)
    bids = np.full((n_players, N_B), -1, np.int16)
    pstat = np.zeros((n_players, N_P), np.int32)
    kstat = np.zeros((n_players, N_K, n_a), np.int16)
    tstat = np.zeros((n_players, N_T, n_t), np.int16)
    rng = np.zeros(4, np.uint64)
    log = np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int32)
    options = np.zeros((4 * n_a * params[R_BID_MAX] + 8, N_B), np.int16)
    width = max(n_treasures, n_t, n_a, n_players, offer.shape[0], 3) + 1
    scratch = np.zeros((N_SCR, width), np.int64)
    fscratch = np.zeros((N_FSCR, max(width, options.shape[0])), np.float64)
    adhidden = np.zeros(n_a, np.int16)
    return (g, hands, collected, tdeck, adeck, adiscard, tout, offer, bids, pstat, kstat, tstat,
            rng, log, options, scratch, fscratch, adhidden)
