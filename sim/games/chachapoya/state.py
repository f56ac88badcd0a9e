"""Layouts of Chachapoya: the parameter array, the state array, and the named indices into them.

The parameters (from components.toml + a variant) are one flat int32 array, `params`:
  params[R_*]                                      the rules (RULES below), then a header of the
                                                   tables' sizes and places (params[H_*])
  tf(params, t, TF_*)                              treasure type t's fields, from TREASURE_AT
  af(params, a, AF_*)                              adventurer kind a's fields, from params[H_ADVENTURER_AT]
  cards.scale_points(params, t, n)                 points for n cards of type t, from params[H_SCALE_AT]
A game's state is one flat int64 array `st`, everything the rules and the bots read or write:
  st[S_*]                                          the game scalars, then a header saying where each
                                                   sized section starts (st[S_*_AT]: the sections'
                                                   lengths follow the parameter tables' sizes)
  st[S_RNG:S_RNG + 4]                              the game's random stream (rng_of)
  st[seat_at(p) + P_*]                             seat p's fields; its bid at seat_at(p) + P_BID + B_*
  st[hand_at(st, p) + a], st[collection_at(st, p) + t]   a seat's hand and collection
  st[kind_stat_at(st, p, K_*) + a], st[treasure_stat_at(st, p, T_*) + t]   a seat's records
  st[S_TDECK_AT], st[S_ADECK_AT], ...              the decks, piles, offer and the legal-bid list
  st[scratch_at(st, SCR_*) + i], fscratch(st, FSCR_*)[i]   work rows (the float rows hold float64 bits)
It is int64 so that every value read from it has one type. Numba compiles a function once per
type of its arguments and once per literal int among them, so the field, row and code numbers
passed to compiled functions (TF_*, AF_*, K_*, T_*, SCR_*, ELIM_*, NO_CARD, ...) are np.int64
values: every call passes int64, and each function is compiled once. The replay log is a
separate int32 array (new_log; one row when logging is off). A look-ahead copies the state array
whole (copy_state, one loop). Tests and tools read the sections as tables through the views at
the end of this module (players, hands, collections, ...).
"""
import numpy as np
from numba import njit

from sim.core.jit import njit_noalloc
from sim.core.search import STAT_WORDS

from sim.core.paramspec import Bool, Const, Int, PerPlayerCount, RulesLayout

# Numba types of the arrays, for the levels' declared signatures (sim.core.jit.njit_level: a level
# compiles at import for these types; T_* names the treasure record rows here, hence TYPE_*).
TYPE_PARAMS = "int32[::1]"
TYPE_STATE = "int64[::1]"
TYPE_LOG = "int32[:, ::1]"
TYPE_KINDS = "int8[::1]"
TYPE_WEIGHTS = "float64[:, ::1]"
TYPE_SEAT_WEIGHTS = "float64[::1]"  # one seat's row of the weights

MAX_PLAYERS = 6
MAX_TREASURE_CARDS = 127 * 4  # the most treasure cards a game may hold (data.validate)

NO_CARD = np.int64(-1)  # no card, kind or seat, where a function takes one

# ---- tf(params, t, field)
TF_COUNT = np.int64(0)
TF_VALUE = np.int64(1)  # upper-left card value (what a Curse takes)
TF_EFFECT = np.int64(2)
TF_EFFECT_AMOUNT = np.int64(3)
TF_TOKEN_OK = np.int64(4)
N_TF = 5

EFFECT_NONE = 0
EFFECT_DRAW = 1
EFFECT_CURSE = 2
EFFECT_NAMES = ("none", "draw", "curse")

# scale[t, n] = points for holding n cards of type t; SCALE_X eliminates.
SCALE_X = -1_000_000

# ---- af(params, a, field)
AF_COUNT = np.int64(0)
AF_VALUE = np.int64(1)
AF_MAX = np.int64(2)
AF_ROLE = np.int64(3)
AF_PENALTY = np.int64(4)
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


# ---- st[S_*]: the game scalars (S_: a state slot, as in docs/adding-a-game.md)
S_ROUND = 0
S_START = 1  # start player of the current round
S_TDECK_HEAD = 2  # treasure deck: circular queue, top at head
S_TDECK_SIZE = 3
S_ADECK_SIZE = 4  # adventurer deck: stack, top at size - 1
S_N_OFFER = 5  # treasure cards on the table
S_FACE_UP = 6  # 1 if the offer's first card is face up (normal round), 0 in the last round
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
S_N_TREASURES = 21  # treasure types (params[H_TREASURES], here so the state alone sizes its loops)
S_N_ADVENTURERS = 22  # adventurer kinds
# ---- where the sized sections start (new_state lays them out from the parameter tables' sizes)
S_HANDS_AT = 23  # + seat * kinds + kind: cards in hand
S_COLLECTED_AT = 24  # + seat * types + type: treasures collected
S_TDECK_AT = 25  # + position: treasure type, -1 empty (a circular queue of S_TDECK_LEN positions)
S_TDECK_LEN = 26
S_ADECK_AT = 27  # + position: adventurer kind, -1 empty (a stack)
S_ADISCARD_AT = 28  # + kind: cards on the adventurer discard pile
S_ADHIDDEN_AT = 29  # + kind: of those, the cards nobody saw (eliminated hands; search.py)
S_BOXED_AT = 30  # + type: treasures discarded unseen at Setup
S_GONE_AT = 31  # + type: treasures that left the game in public (eliminations, curses)
S_OFFER_AT = 32  # + i: treasure type on the table, -1 none
S_OFFER_LEN = 33
S_OPTIONS_AT = 34  # + i * N_B + B_*: the legal bids a bot chooses from (cards.list_legal_bids)
S_KIND_STATS_AT = 35  # + (seat * N_K + K_*) * kinds + kind (kind_stat_at)
S_TREASURE_STATS_AT = 36  # + (seat * N_T + T_*) * types + type (treasure_stat_at)
S_SCRATCH_AT = 37  # + SCR_* * width + i (scratch_at)
S_SCRATCH_WIDTH = 38
S_FSCRATCH_AT = 39  # + FSCR_* * width + i: float64 bits (fscratch)
S_FSCRATCH_WIDTH = 40
S_OPTIONS_LEN = 41  # legal bids the list has room for
S_UP_GAINS_READY = 42  # 1 while a bidding's table of what the face-up card adds to each seat holds (SCR_UP_GAIN)
S_RNG = 43  # + 0..3: the random stream's uint64 words (rng_of)
RNG_WORDS = 4
S_PLAYERS = S_RNG + RNG_WORDS  # + seat * N_P + P_* (seat_at), room for MAX_PLAYERS seats; then the sections

END_NONE = 0
END_DECK = 1  # the last round was played
END_LAST_STANDING = 2  # one player left in play
END_ALL_ELIMINATED = 3
END_ROUND_LIMIT = 4
END_STALEMATE = 5  # rules.stalemate_rounds rounds in a row without a treasure acquired: no winner
END_REASON_NAMES = ("none", "deck_exhausted", "last_standing", "all_eliminated", "round_limit", "stalemate")

# ---- st[S_ERROR]: what broke (an invariant in checked mode, or a bot's illegal bid)
ERR_NONE = 0
ERR_ADVENTURERS = 1
ERR_TREASURES = 2
ERR_TOKENS = 3
ERR_NEGATIVE = 4
ERR_ILLEGAL_BID = 100  # + the seat whose bot chose it
ERROR_NAMES = ("none", "adventurer cards created or lost", "treasure cards created or lost",
               "hidden-treasure tokens created or lost", "negative card count in a hand or collection")


def error_name(code: int) -> str:
    """The readable name of a st[S_ERROR] code, for the failure message of a run."""
    if code >= ERR_ILLEGAL_BID:
        return f"illegal bid chosen by seat {code - ERR_ILLEGAL_BID}"
    if 0 <= code < len(ERROR_NAMES):
        return ERROR_NAMES[code]
    return f"unknown error code {code}"

# ---- B_*: the fields of a bid, at seat_at(p) + P_BID for a seat's bid on the table, and at
# S_OPTIONS_AT + i * N_B for a legal bid a bot may choose
B_KIND = 0  # adventurer kind, -1 = no bid
B_N = 1  # cards of that kind (for a tracker pair: 2 trackers)
B_JOKER = 2  # 1 if one tracker joins as a joker
B_JOKER_KIND = 3  # the tracker kind used as the joker
N_B = 4

# ---- P_*: a seat's fields in its block of the state array (seat_at)
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
P_PAIR_DECLINED = 16  # tracker-pair draws the player declined (Tracker 2: "can immediately draw three")
P_HAND_CARDS = 17  # cards in hand, UNCOUNTED until first counted (cards.known_hand_size); the rules keep it up to date
P_POINTS = 18  # the collection's points, UNCOUNTED until a bot sums them (bots.known_points) and again when the collection changes
P_BID = 19  # + B_*: the seat's bid on the table
# + kind * STAT_WORDS: the search bot's searched decisions of each kind (SEARCH_KIND_NAMES) and how
# often and by how much the search left the heuristic's first choice (sim.core.search.record_choice;
# columns search_<kind>_*)
P_SEARCH_STATS = P_BID + N_B
SEARCH_BID, SEARCH_OFFER, SEARCH_TAKE = 0, 1, 2
SEARCH_KIND_NAMES = ("bid", "offer", "take")
N_P = P_SEARCH_STATS + len(SEARCH_KIND_NAMES) * STAT_WORDS

# P_HAND_CARDS and P_POINTS before a bot has counted them (a fresh state, or a collection changed
# since): the bids of a round read the other seats' hand sizes and points without summing them again
UNCOUNTED = np.int64(-(1 << 62))

ELIM_NONE = np.int64(0)
ELIM_IN_PLAY = np.int64(1)  # an X reached by bidding
ELIM_AT_SCORING = np.int64(2)  # an X reached by the hidden-treasure token at the end
ELIMINATION_NAMES = ("none", "in_play", "at_scoring")

# ---- a seat's records, rows of kind_stat_at(st, p, K_*) + a and treasure_stat_at(st, p, T_*) + t
K_OPENING = np.int64(0)
K_PLAYED = np.int64(1)
K_END = np.int64(2)
N_K = 3
T_GOT = np.int64(0)  # acquired by bidding
T_LOST = np.int64(1)  # lost to a curse
T_VP = np.int64(2)  # points at the end (token included)
N_T = 3

# ---- scratch rows (scratch_at) and float scratch rows (fscratch): per-game work space in the
# state array, so that no rule or bot allocates during play (see sim/core/jit.py).
SCR_DRAWN = np.int64(0)  # the start player's three drawn cards
SCR_EARLIER = np.int64(1)  # a collection before this bidding's cards (Curse)
SCR_TAKEN = np.int64(2)  # cards a winner takes
SCR_UNRESOLVED = np.int64(3)  # leaders that did not resolve, per seat
SCR_COUNTS = np.int64(4)  # a collection with the hidden-treasure token added
SCR_UNSEEN = np.int64(5)  # treasure cards a bot has not seen, per type
SCR_POOL = np.int64(6)  # those cards one by one (last-round sampling)
SCR_STRENGTH = np.int64(7)  # each seat's bid strength (-1: not a number bid)
SCR_UP_GAIN = np.int64(8)  # during a bidding, per seat: what the face-up card adds (bots.up_card_gains)
N_SCR = 9
FSCR_KEEP = np.int64(0)  # a bot's cost of spending each adventurer kind
FSCR_PUBLIC = np.int64(1)  # what each drawn card is worth to the others
FSCR_UTILITY = np.int64(2)  # a bot's utility of each legal bid or offer (the search ranks its candidates by it)
FSCR_CHANCE = np.int64(3)  # a bid decision's win chance of each count of one number kind (bots.win_chances)
N_FSCR = 4

# ---- log[i, :]: events for `sim replay` (only written when logging is on)
LOG_WIDTH = 7
LOG_CAPACITY = 4096


# the sized sections, in layout order after the seats' blocks
SECTIONS = (S_HANDS_AT, S_COLLECTED_AT, S_TDECK_AT, S_ADECK_AT, S_ADISCARD_AT, S_ADHIDDEN_AT, S_BOXED_AT, S_GONE_AT,
            S_OFFER_AT, S_OPTIONS_AT, S_KIND_STATS_AT, S_TREASURE_STATS_AT, S_SCRATCH_AT, S_FSCRATCH_AT)


@njit(cache=True)
def new_state(params, n_players):
    """A fresh state array for one game (setup() deals it), its sections laid out after the seats'
    blocks in SECTIONS order, each as long as the parameter tables ask."""
    n_t = np.int64(params[H_TREASURES])
    n_a = np.int64(params[H_ADVENTURERS])
    n_treasures = 0
    for t in range(n_t):
        n_treasures += tf(params, t, TF_COUNT)
    n_adventurers = 0
    for a in range(n_a):
        n_adventurers += af(params, a, AF_COUNT)
    tdeck_len = max(n_treasures, 1)
    offer_len = max(params[R_OFFER_DRAW], params[R_LAST_ROUND_DECK]) + 1
    n_options = 4 * n_a * params[R_BID_MAX] + 8
    width = max(n_treasures, n_t, n_a, 3 * n_players, offer_len, 3) + 1
    fwidth = max(width, n_options)
    words = np.array([  # each section's length, in SECTIONS order
        n_players * n_a, n_players * n_t, tdeck_len, max(n_adventurers, 1), n_a, n_a, n_t, n_t, offer_len,
        n_options * N_B, n_players * N_K * n_a, n_players * N_T * n_t, N_SCR * width, N_FSCR * fwidth], np.int64)
    at = S_PLAYERS + MAX_PLAYERS * N_P
    st = np.zeros(at + words.sum(), np.int64)
    for i in range(len(SECTIONS)):
        st[SECTIONS[i]] = at
        at += words[i]
    st[S_N_PLAYERS] = n_players
    st[S_N_TREASURES] = n_t
    st[S_N_ADVENTURERS] = n_a
    st[S_TDECK_LEN] = tdeck_len
    st[S_OFFER_LEN] = offer_len
    st[S_OPTIONS_LEN] = n_options
    st[S_SCRATCH_WIDTH] = width
    st[S_FSCRATCH_WIDTH] = fwidth
    for p in range(n_players):
        for f in range(N_B):
            st[seat_at(p) + P_BID + f] = -1
        st[seat_at(p) + P_HAND_CARDS] = UNCOUNTED
        st[seat_at(p) + P_POINTS] = UNCOUNTED
    st[st[S_TDECK_AT]:st[S_TDECK_AT] + tdeck_len] = -1
    st[st[S_ADECK_AT]:st[S_ADISCARD_AT]] = -1
    st[st[S_OFFER_AT]:st[S_OFFER_AT] + offer_len] = -1
    return st


LOGGING_OFF = np.bool_(False)  # new_log(LOGGING_OFF) in compiled code: a boolean, as from Python


@njit(cache=True)
def new_log(logging):
    """The replay log of one game: LOG_CAPACITY rows with logging on, one row (logging off) otherwise.
    A log with logging off is never written, so one can serve any number of games and look-aheads."""
    return np.zeros((LOG_CAPACITY if logging else 1, LOG_WIDTH), np.int32)


@njit_noalloc
def copy_state(src, dst):
    """Copy a state array into another of the same layout (a search's determinisation or rollout)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit_noalloc
def reset_state(fresh, st):
    """Start a new game in `st` from a fresh state of the same layout (new_state): every word is
    copied except the legal-bid list and the float scratch rows, which every game writes before
    it reads them (about 60% of the array)."""
    for k in range(st[S_OPTIONS_AT]):
        st[k] = fresh[k]
    for k in range(fresh[S_KIND_STATS_AT], fresh[S_FSCRATCH_AT]):
        st[k] = fresh[k]


# ---- where things are in the state array
@njit_noalloc
def seat_at(p):
    """Where seat p's P_* block starts."""
    return S_PLAYERS + p * N_P


@njit_noalloc
def bid_at(p):
    """Where seat p's bid on the table (B_* fields) starts."""
    return S_PLAYERS + p * N_P + P_BID


@njit_noalloc
def option_at(st, i):
    """Where the i-th legal bid of the list (B_* fields) starts."""
    return st[S_OPTIONS_AT] + i * N_B


@njit_noalloc
def hand_at(st, p):
    """Where seat p's hand starts: st[hand_at(st, p) + kind] cards of each kind."""
    return st[S_HANDS_AT] + p * st[S_N_ADVENTURERS]


@njit_noalloc
def collection_at(st, p):
    """Where seat p's collection starts: st[collection_at(st, p) + type] treasures of each type."""
    return st[S_COLLECTED_AT] + p * st[S_N_TREASURES]


@njit_noalloc
def tdeck_slot(st, i):
    """Where the treasure deck's i-th card from the top lies (the deck is a circular queue)."""
    return st[S_TDECK_AT] + (st[S_TDECK_HEAD] + i) % st[S_TDECK_LEN]


@njit_noalloc
def kind_stat_at(st, p, row):
    """Where seat p's K_* record row (one entry per adventurer kind) starts."""
    return st[S_KIND_STATS_AT] + (p * N_K + row) * st[S_N_ADVENTURERS]


@njit_noalloc
def treasure_stat_at(st, p, row):
    """Where seat p's T_* record row (one entry per treasure type) starts."""
    return st[S_TREASURE_STATS_AT] + (p * N_T + row) * st[S_N_TREASURES]


@njit_noalloc
def scratch_at(st, row):
    """Where scratch row SCR_* starts."""
    return st[S_SCRATCH_AT] + row * st[S_SCRATCH_WIDTH]


@njit(cache=True, _nrt=False, inline="always")
def fscratch(st, row):
    """Float scratch row FSCR_*, as float64 (its words of the state array viewed as floats)."""
    at = st[S_FSCRATCH_AT] + row * st[S_FSCRATCH_WIDTH]
    return st[at:at + st[S_FSCRATCH_WIDTH]].view(np.float64)


@njit(cache=True, _nrt=False, inline="always")
def rng_of(st):
    """The random stream inside the state array, as the uint64[4] sim.core.rng works on."""
    return st[S_RNG:S_RNG + RNG_WORDS].view(np.uint64)


# ---- Python-side views of the sections as tables (tests, replay, tools); writable
def _rows(st, at_slot, n_rows, width):
    at = int(st[at_slot])
    return st[at:at + n_rows * width].reshape(n_rows, width)


def players(st):
    """[seat, P_*] (bids included, at P_BID + B_*)."""
    n = int(st[S_N_PLAYERS])
    return st[S_PLAYERS:S_PLAYERS + n * N_P].reshape(n, N_P)


def bids(st):
    """[seat, B_*]: the bids on the table."""
    return players(st)[:, P_BID:P_BID + N_B]


def hands(st):
    """[seat, kind]."""
    return _rows(st, S_HANDS_AT, int(st[S_N_PLAYERS]), int(st[S_N_ADVENTURERS]))


def collections(st):
    """[seat, type]."""
    return _rows(st, S_COLLECTED_AT, int(st[S_N_PLAYERS]), int(st[S_N_TREASURES]))


def kind_stats(st):
    """[seat, K_*, kind]."""
    n_a = int(st[S_N_ADVENTURERS])
    return _rows(st, S_KIND_STATS_AT, int(st[S_N_PLAYERS]) * N_K, n_a).reshape(-1, N_K, n_a)


def treasure_stats(st):
    """[seat, T_*, type]."""
    n_t = int(st[S_N_TREASURES])
    return _rows(st, S_TREASURE_STATS_AT, int(st[S_N_PLAYERS]) * N_T, n_t).reshape(-1, N_T, n_t)


def _section(st, at_slot, length):
    at = int(st[at_slot])
    return st[at:at + int(length)]


def tdeck(st):
    """Every position of the treasure deck's circular queue (top at st[S_TDECK_HEAD])."""
    return _section(st, S_TDECK_AT, st[S_TDECK_LEN])


def adeck(st):
    """The adventurer deck's positions, bottom first (top at st[S_ADECK_SIZE] - 1)."""
    return _section(st, S_ADECK_AT, st[S_ADISCARD_AT] - st[S_ADECK_AT])


def adiscard(st):
    return _section(st, S_ADISCARD_AT, st[S_N_ADVENTURERS])


def adhidden(st):
    return _section(st, S_ADHIDDEN_AT, st[S_N_ADVENTURERS])


def boxed(st):
    return _section(st, S_BOXED_AT, st[S_N_TREASURES])


def gone(st):
    return _section(st, S_GONE_AT, st[S_N_TREASURES])


def offer(st):
    return _section(st, S_OFFER_AT, st[S_OFFER_LEN])


def options(st):
    """[i, B_*]: the legal-bid list."""
    return _rows(st, S_OPTIONS_AT, int(st[S_OPTIONS_LEN]), N_B)


def scratch(st):
    """[SCR_*, i]."""
    return _rows(st, S_SCRATCH_AT, N_SCR, int(st[S_SCRATCH_WIDTH]))


def rng_words(st):
    """The random stream (uint64[4])."""
    return st[S_RNG:S_RNG + RNG_WORDS].view(np.uint64)
