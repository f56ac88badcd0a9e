"""Layouts of Machu Picchu: the parameter array, the state array, and the named indices into them.

The parameters (components.toml + a variant, packed by data.py) are one flat int64 array `P`:
  P[R_*]                            the rules (RULES below, each key declared once), then fixed-size
                                    tables at constant offsets, read through the accessors below:
  P[H_N_MOON], P[H_N_CARDS]         how many moon tiles and offering cards the variant has
  adjacent(P, a, b)                 1 when districts a and b border each other
  worker_cost(P, d, g)              good g paid for a worker on production district d
  priest_field(P, k, PF_*)          priest/virgin kind k's count, cost and the numbers under its cards
  moon_field(P, t, MF_*)            moon tile t's steps and good
  card_field(P, c, CF_*)            offering card c's icons (CF_ICONS + icon) and gold
  market_value(P, g, space)         the number printed on market column g, top space 0
A game's state is one flat int64 array `st`:
  st[S_*]                           the game scalars and the board (supply, market, districts,
                                    the priest rows, moon tiles, the offering deck as a queue)
  st[seat_at(p) + P_*]              seat p's fields (goods, prince, scout, workers, cards, records)
  st[S_OPTIONS + i * N_OPT + O_*]   the options of the decision a bot is asked (rules list them)
Everything is int64, so each compiled function sees one type. The random stream is a separate
uint64 array (sim.core.rng) and the replay log a separate int64 array (one row when logging is off).
"""
from sim.core.jit import njit_inline, njit_noalloc, njit_typed
from sim.core.search import STAT_WORDS
from sim.core.paramspec import Bool, Int, IntList, LengthOf, PerPlayerCount, RulesLayout

# Numba types of the arrays, for the helpers compiled with one declared signature
# (sim.core.jit.njit_typed): called with literal codes, they would otherwise compile a version each.
T_PARAMS = "int64[::1]"
T_STATE = "int64[::1]"
T_STREAM = "uint64[::1]"
T_KINDS = "int8[::1]"
T_WEIGHTS = "float64[:, ::1]"
T_LOG = "int64[:, ::1]"

MAX_PLAYERS = 5
MIN_PLAYERS = 2

# ---- goods: one index everywhere (a player's goods, the supply, districts' production)
CORN = 0
LLAMA = 1
COCA = 2
POTTERY = 3
CLOTH = 4
N_GOODS = 5
GOOD_NAMES = ("corn", "llama", "coca", "pottery", "cloth")

# ---- districts: production districts share their good's index
D_CORN_TERRACES = 0
D_LLAMAS_MEADOW = 1
D_COCA_PLANTATION = 2
D_POTTERS_QUARTER = 3
D_WEAVERS_QUARTER = 4
D_SUN_TEMPLE = 5
D_PUMA_TEMPLE = 6
D_CONDOR_TEMPLE = 7
D_MAIN_TEMPLE = 8
D_WATCHMANS_HUT = 9
D_ROYAL_PALACE = 10
D_HOUSE_OF_PRIESTS = 11
D_HOUSE_OF_VIRGINS = 12
D_CENTRAL_PLAZA = 13
D_SUN_CLOCK = 14
N_DISTRICTS = 15
N_PRODUCTION = 5
FIRST_TEMPLE = 5
DISTRICT_NAMES = ("corn_terraces", "llamas_meadow", "coca_plantation", "potters_quarter", "weavers_quarter",
                  "sun_temple", "puma_temple", "condor_temple", "main_temple",
                  "watchmans_hut", "royal_palace", "house_of_priests", "house_of_virgins", "central_plaza",
                  "sun_clock")
NOWHERE = -1  # a prince not yet on the board

# ---- priest and virgin kinds: kind k serves temple FIRST_TEMPLE + k
K_SUN = 0
K_PUMA = 1
K_CONDOR = 2
N_KINDS = 3
KIND_NAMES = ("sun", "puma", "condor")
MAX_PER_KIND = 10

# ---- offering-card icons: the five goods (workers in that production district), then the kinds
ICON_KIND = N_GOODS  # icon ICON_KIND + k scores kind k's cards
N_ICONS = N_GOODS + N_KINDS
ICON_NAMES = GOOD_NAMES + KIND_NAMES

MAX_MOON = 10
MAX_CARDS = 40
MAX_MARKET = 8

# ---- P[R_*]: components.toml's rule parameters, declared once (type, bounds); data.py packs them.
RULES = RulesLayout()
R_WORKERS = RULES.add(PerPlayerCount("setup.workers_per_player", MAX_PLAYERS, 1, 30))
R_START_DAY = RULES.add(PerPlayerCount("setup.start_day", MAX_PLAYERS, 1, 30))
R_START_GOODS = RULES.size
for _good in GOOD_NAMES:
    RULES.add(Int(f"setup.start_{_good}", 0, 30))
R_CARDS_DEALT = RULES.add(Int("setup.offering_cards_dealt", 0, 5))
R_MARKET_SETUP = RULES.add(Int("setup.market_goods_at_setup", 0, MAX_MARKET))
R_FIRST_SCOUT = RULES.add(Int("setup.first_scout_space", 0, 20))
R_SUPPLY = RULES.size
for _good in GOOD_NAMES:
    RULES.add(Int(f"supply.{_good}", 0, 1000))
R_STONES = RULES.add(Int("supply.temple_stones", 0, 100))
R_LAST_DAY = RULES.add(Int("rules.last_day", 1, 30))
R_MOONS_TO_END_DAY = RULES.add(Int("rules.moon_tiles_to_end_day", 1, MAX_MOON))
R_TIME_CORN = RULES.add(Int("rules.time_track_corn_per_day", 0, 30))
R_RESTOCK_GOODS = RULES.add(Int("rules.restock_goods", 0, 30))
R_RESTOCK_CORN = RULES.add(Int("rules.restock_corn", 0, 30))
R_RESTOCK_STONES = RULES.add(Int("rules.restock_stones", 0, 30))
R_GOODS_CAP = RULES.add(Int("rules.district_goods_cap", 0, 30))
R_CORN_CAP = RULES.add(Int("rules.district_corn_cap", 0, 90))
R_STONE_CAP = RULES.add(Int("rules.temple_stone_cap", 0, 30))
R_CORN_YIELD = RULES.add(Int("rules.corn_worker_yield", 0, 30))
R_PRODUCTION_COST = RULES.add(Int("rules.production_cost_corn", 0, 30))
R_STONE_STEPS = RULES.add(Int("rules.stone_steps", 0, 30))
R_MAIN_STEPS = RULES.add(Int("rules.main_temple_steps_per_good", 0, 30))
R_CORN_AS_GOOD = RULES.add(Int("rules.corn_as_good", 1, 30))
R_CLOCK_STEPS = RULES.add(Int("rules.sun_clock_steps", 0, 30))
R_CLOCK_GOODS = RULES.add(Int("rules.sun_clock_goods", 0, N_GOODS))
R_MOON_GOOD_COST = RULES.add(Int("rules.moon_good_cost_corn", 0, 30))
R_MOON_CORN = RULES.add(Int("rules.moon_corn", 0, 30))
R_JUMP_COST = RULES.add(Int("rules.llama_jump_cost", 0, 30))
R_SUMMIT = RULES.add(Int("rules.summit_space", 2, 200))
R_GRANARY = RULES.add(Int("rules.granary_space", 1, 199))
R_GRANARY_CORN = RULES.add(Int("rules.granary_corn", 0, 30))
R_STABLE = RULES.add(Int("rules.stable_space", 1, 199))
R_STABLE_LLAMAS = RULES.add(Int("rules.stable_llamas", 0, 30))
R_SUMMIT_DRAW = RULES.add(Int("rules.summit_draw", 1, 10))
R_SUMMIT_RETURN = RULES.add(Int("rules.summit_return", 0, 9))
R_COMPENSATION = RULES.add(Int("rules.deck_out_compensation", 0, 100))
R_GRANARY_POINTS = RULES.add(Int("rules.granary_points", 0, 100))
R_GRANARY_GOLD = RULES.add(Int("rules.granary_gold", 0, 100))
R_STABLE_POINTS = RULES.add(Int("rules.stable_points", 0, 100))
R_STABLE_GOLD = RULES.add(Int("rules.stable_gold", 0, 100))
R_FIRST_MULTIPLIER = RULES.add(Int("rules.most_gold_multiplier", 1, 10))
R_SECOND_MULTIPLIER = RULES.add(Int("rules.second_gold_multiplier", 1, 10))
R_BUY_FALLBACK = RULES.add(Int("rules.market_buy_from_supply", 0, 100))
R_SELL_FALLBACK = RULES.add(Int("rules.market_sell_to_supply", 0, 100))
R_DAY_CORN_TO_LAST = RULES.add(Bool("rules.day_end_corn_to_last_player"))
R_REWARDS_WAIT = RULES.add(Bool("rules.trail_rewards_wait_for_own_turn"))
R_PRICE_NUDGE = RULES.add(Bool("rules.plaza_price_nudge"))
R_COMPENSATE_ONCE = RULES.add(Bool("rules.compensation_once_per_player"))
R_TRADE_LIMIT = RULES.add(Int("rules.plaza_trade_limit", 1, 1000))
R_ACTION_LIMIT = RULES.add(Int("rules.action_limit", 10, 1_000_000))
R_MARKET = RULES.size  # + (good - 1) * (MAX_MARKET + 1): the column's length, then its values
for _good in GOOD_NAMES[1:]:
    RULES.add(LengthOf(f"market.{_good}"))
    RULES.add(IntList(f"market.{_good}", (1, MAX_MARKET), 0, 100, unit="spaces"))
N_RULES = RULES.size
MARKET_STRIDE = MAX_MARKET + 1

# ---- the tables after the rules (data.engine_arrays writes them)
H_N_MOON = N_RULES
H_N_CARDS = N_RULES + 1
ADJ_AT = N_RULES + 2  # + a * N_DISTRICTS + b
WCOST_AT = ADJ_AT + N_DISTRICTS * N_DISTRICTS  # + d * N_GOODS + g
PF_COUNT = 0
PF_COST = 1  # + good
PF_STEPS = PF_COST + N_GOODS  # + card index, leftmost first
N_PF = PF_STEPS + MAX_PER_KIND
PRIEST_AT = WCOST_AT + N_PRODUCTION * N_GOODS  # + k * N_PF + PF_*
MF_STEPS = 0
MF_GOOD = 1
N_MF = 2
MOON_AT = PRIEST_AT + N_KINDS * N_PF  # + t * N_MF + MF_*
CF_ICONS = 0  # + icon
CF_GOLD = N_ICONS
N_CF = N_ICONS + 1
CARD_AT = MOON_AT + MAX_MOON * N_MF  # + c * N_CF + CF_*
ICON_CARDS_AT = CARD_AT + MAX_CARDS * N_CF  # + icon: offering cards showing the icon
N_PARAMS = ICON_CARDS_AT + N_ICONS


@njit_noalloc
def adjacent(P, a, b):
    return P[ADJ_AT + a * N_DISTRICTS + b]


@njit_noalloc
def worker_cost(P, d, g):
    return P[WCOST_AT + d * N_GOODS + g]


@njit_typed("int64(int64[::1], int64, int64)")
def priest_field(P, k, field):
    return P[PRIEST_AT + k * N_PF + field]


@njit_typed("int64(int64[::1], int64, int64)")
def smallest_uncovered(P, k, taken):
    """Offerings at the Sun, Puma and Condor Temples: a llama moves the scout by the smallest of
    the numbers uncovered in kind k's row once `taken` of its cards are taken, leftmost first
    (0 while none is). The printed rows fall from left to right, so it is the last one uncovered;
    a variant's row that rises somewhere keeps its smallest."""
    least = 0
    for i in range(taken):
        step = priest_field(P, k, PF_STEPS + i)
        if i == 0 or step < least:
            least = step
    return least


@njit_typed("int64(int64[::1], int64, int64)")
def moon_field(P, t, field):
    return P[MOON_AT + t * N_MF + field]


@njit_typed("int64(int64[::1], int64, int64)")
def card_field(P, c, field):
    return P[CARD_AT + c * N_CF + field]


@njit_typed("int64(int64[::1], int64)")
def cards_showing(P, icon):
    return P[ICON_CARDS_AT + icon]


@njit_noalloc
def market_length(P, g):
    return P[R_MARKET + (g - 1) * MARKET_STRIDE]


@njit_noalloc
def market_value(P, g, space):
    return P[R_MARKET + (g - 1) * MARKET_STRIDE + 1 + space]


# ---- st[S_*]: the game scalars
S_N_PLAYERS = 0
S_DAY = 1  # the time marker
S_DAYS_PLAYED = 2
S_START = 3  # start player of the day
S_MOONS_TAKEN = 4  # moon tiles taken today and not yet given back at night
S_SUN_HOLDER = 5  # seat holding the sun tile, -1 while it lies on the board
S_EXTRA_LEFT = 6  # actions still to take after the sun tile was taken
S_END_PENDING = 7  # END_* code of a condition met during the current action, 0 none
S_END_REASON = 8
S_WINNER = 9
S_ERROR = 10
S_LOG_N = 11
S_ACTIONS = 12
S_DECK_HEAD = 13  # the offering deck: a queue of S_N_CARDS slots, top at the head
S_DECK_SIZE = 14
S_N_CARDS = 15
S_N_MOON = 16
S_TIME_CORN = 17  # corn on the time track
S_STONE_SUPPLY = 18
S_ACTOR = 19  # the seat whose action is being carried out (trail rewards wait for its end)
S_PRIESTS_LEFT = 20  # priest and virgin cards still on the board
S_SUPPLY = 21  # + good: the general supply
S_MARKET = S_SUPPLY + N_GOODS  # + good: goods in that market column (index 0, corn, unused)
S_DISTRICT = S_MARKET + N_GOODS  # + district: goods, corn or temple stones lying on it
S_VISITED = S_DISTRICT + N_DISTRICTS  # + district: 1 once a prince entered it today
S_TAKEN = S_VISITED + N_DISTRICTS  # + kind: priest/virgin cards of the kind taken
S_MOON_HOLDER = S_TAKEN + N_KINDS  # + tile: the holder's seat, -1 on the board
S_DECK = S_MOON_HOLDER + MAX_MOON  # + slot: offering card id
S_OPTIONS = S_DECK + MAX_CARDS  # + i * N_OPT + O_*: a decision's options
O_A = 0
O_B = 1
O_C = 2
N_OPT = 3
MAX_OPTIONS = 64
S_SCRATCH = S_OPTIONS + MAX_OPTIONS * N_OPT  # work rows of a decision: the heuristic's tables (bots.py)
N_TARGETS = N_KINDS + N_PRODUCTION  # what goods are gathered for: a priest/virgin card of each kind, a worker
S_PLAN_MISS = S_SCRATCH  # + target: goods still missing to pay it (3 corn count as one)
S_PLAN_GOODS = S_PLAN_MISS + N_TARGETS  # bits of the goods some target in reach needs
S_PLAN_N_NEED = S_PLAN_GOODS + 1  # + good: targets in reach that need it and a gain of it can raise the plan by
S_PLAN_NEEDER = S_PLAN_N_NEED + N_GOODS  # + good * N_TARGETS + i: the i-th of them
S_PLAN_N_LOSE = S_PLAN_NEEDER + N_GOODS * N_TARGETS  # + good: those of them a loss of the good can lower the plan by
S_PLAN_LOSER = S_PLAN_N_LOSE + N_GOODS  # + good * N_TARGETS + i: the i-th of those
# The rows below hold float64 values by their bits (bots.real_at / put_real), each valid for one
# decision (or the next ones of the same seat on the same holdings, S_KEEP_*): a value is worked out
# the first time an option needs it and read back by the others.
S_PLAN_REACH = S_PLAN_LOSER + N_GOODS * N_TARGETS  # + target: its net value within reach now (0 out of reach)
S_PLAN_BEST = S_PLAN_REACH + N_TARGETS  # the best target's value within reach now
S_PLAN_WITHOUT = S_PLAN_BEST + 1  # + good: the best within reach now of the targets not needing it
MEMO_CHANGE = 15  # a gain of -15 .. +15 units of a good is kept; larger ones are worked out each time
N_CHANGES = 2 * MEMO_CHANGE + 1
S_GAIN_SET = S_PLAN_WITHOUT + N_GOODS  # + good: bit change + MEMO_CHANGE set once that gain's value is kept
S_GAIN = S_GAIN_SET + N_GOODS  # + good * N_CHANGES + change + MEMO_CHANGE: the gain's value
S_VALUE_SET = S_GAIN + N_GOODS * N_CHANGES  # bit N_TARGETS: the Sun Clock's reward kept; then the costs
S_CLOCK_REWARD = S_VALUE_SET + 1  # the best Sun Clock reward
S_CLOCK_GOOD = S_CLOCK_REWARD + 1  # + good: what its unit from the Sun Clock is worth (while the reward is worked out)
S_TARGET_COST = S_CLOCK_GOOD + N_GOODS  # + target: the points its cost gives up (bit N_TARGETS + 1 + target of S_VALUE_SET)
S_ICON_SET = S_TARGET_COST + N_TARGETS  # bit icon: S_ICON_HIT kept (for the whole game: it reads P only)
S_ICON_HIT = S_ICON_SET + 1  # + icon: the chance a summit's draw shows the icon
# Kept from one decision to the next (bots.begin_decision): the rows above while the same seat decides
# again on the same holdings and target values, and each seat's target values while what they read is
# unchanged. A seat's key holds everything its target values read: a fingerprint of its weights, the day,
# the cards taken of each kind, the temples entered today, the icons of its hand, its own cards.
S_GOOD_BASE = S_ICON_HIT + N_ICONS  # + good: a unit's worth to the deciding seat before saturation (bots.good_bases)
S_PULL = S_GOOD_BASE + N_GOODS  # + good: the best net value per good lacking of a purchase needing it (bots.add_pulls)
S_KEEP_OWNER = S_PULL + N_GOODS  # seat + 1 the decision rows were worked out for (0: none)
S_KEEP_HOLD = S_KEEP_OWNER + 1  # + good: the owner's goods then; + N_GOODS: its unplaced workers
S_KEEP_PLAN = S_KEEP_HOLD + N_GOODS + 1  # 1 once the owner's plan table is made
SK_VALID, SK_PRINT, SK_DAY, SK_TAKEN = 0, 1, 2, 3  # a seat key's words; SK_TAKEN + kind
SK_VISITED = SK_TAKEN + N_KINDS  # + kind: its temple entered today
SK_ICONS = SK_VISITED + N_KINDS  # + icon
SK_OWN = SK_ICONS + N_ICONS  # + kind: the seat's own priest/virgin cards (a Llama's Meadow worker's llamas read them)
N_SEAT_KEY = SK_OWN + N_KINDS
S_SEAT_KEY = S_KEEP_PLAN + 1  # + seat * N_SEAT_KEY + SK_*
S_SEAT_VALUE_SET = S_SEAT_KEY + MAX_PLAYERS * N_SEAT_KEY  # + seat: bit t once target t's value is kept, bit N_TARGETS + t its net
S_SEAT_VALUE = S_SEAT_VALUE_SET + MAX_PLAYERS  # + seat * N_TARGETS + t: the target's value (float bits)
S_SEAT_NET = S_SEAT_VALUE + MAX_PLAYERS * N_TARGETS  # + seat * N_TARGETS + t: the target's value less its cost, in points (0: out of reach)
N_POWERS = 16  # pursuit ** m kept for m < N_POWERS (a target's goods missing; more are worked out)
S_SEAT_POWERS = S_SEAT_NET + MAX_PLAYERS * N_TARGETS  # + seat * N_POWERS + m (float bits)
S_WEIGHTS_PRINT = S_SEAT_POWERS + MAX_PLAYERS * N_POWERS  # + seat: its weights' fingerprint (bots.put_weights_print)
N_SCRATCH = S_WEIGHTS_PRINT + MAX_PLAYERS - S_SCRATCH
S_PLAYERS = S_SCRATCH + N_SCRATCH  # + seat * N_P + P_*

# ---- P_*: a seat's fields
P_GOODS = 0  # + good
P_PRINCE = P_GOODS + N_GOODS  # district, NOWHERE before the first action
P_SCOUT = P_PRINCE + 1  # Inca Trail space
P_SUMMITS = P_SCOUT + 1  # summits reached (laps)
P_FREE_WORKERS = P_SUMMITS + 1  # workers not on the board
P_WORKERS = P_FREE_WORKERS + 1  # + production district: own workers there
P_CLOCK_WORKERS = P_WORKERS + N_PRODUCTION  # on the Sun Clock, returning at night
P_CLOCK_STAYING = P_CLOCK_WORKERS + 1  # put on the Sun Clock on the last day: stay to the end
P_PRIESTS = P_CLOCK_STAYING + 1  # + kind: priest/virgin cards held
P_HAND_N = P_PRIESTS + N_KINDS
P_PENDING_CORN = P_HAND_N + 1  # trail rewards waiting for the end of the action
P_PENDING_LLAMAS = P_PENDING_CORN + 1
P_COMPENSATION = P_PENDING_LLAMAS + 1  # points for summits reached on an empty deck
P_DENIED = P_COMPENSATION + 1  # summits reached on an empty deck
P_SCORE = P_DENIED + 1
P_RANK = P_SCORE + 1
P_WON = P_RANK + 1
P_GOLD = P_WON + 1
P_MULTIPLIER = P_GOLD + 1
P_SCORE_WORKERS = P_MULTIPLIER + 1  # points before the multiplier, by source
P_SCORE_PRIESTS = P_SCORE_WORKERS + 1
P_SCORE_TRAIL = P_SCORE_PRIESTS + 1
P_GOODS_VALUE = P_SCORE_TRAIL + 1  # the tie-break: goods, every 3 corn one good
P_ACTIONS = P_GOODS_VALUE + 1
P_JUMPS = P_ACTIONS + 1  # llamas paid to move anywhere
P_MOONS = P_JUMPS + 1  # moon tiles taken
P_STEPS = P_MOONS + 1  # trail steps moved
P_TRADES = P_STEPS + 1  # goods bought or sold at the Central Plaza
P_LLAMAS_OFFERED = P_TRADES + 1  # llamas offered at the Sun, Puma and Condor Temples
P_MAIN_OFFERED = P_LLAMAS_OFFERED + 1  # kinds of good offered at the Main Temple
P_START_ORDER = P_MAIN_OFFERED + 1  # turn-order position at the start: 0 for the start player, 1 for the next clockwise, ...
P_MOON_KIND = P_START_ORDER + 1  # + tile: times each moon tile was taken
P_ICONS = P_MOON_KIND + MAX_MOON  # + icon: icons on the cards in hand (kept with the hand; checked mode recounts)
P_HAND = P_ICONS + N_ICONS  # + card: 1 while the card is in the hand
P_HELD = P_HAND + MAX_CARDS  # + card: times the card entered the hand
# + kind * STAT_WORDS: the search bot's decisions by what its heuristic chose first, and how often and
# by how much the search left that choice (sim.core.search.record_choice; columns search_<kind>_*)
P_SEARCH_STATS = P_HELD + MAX_CARDS
SEARCH_KIND_NAMES = ("production", "llama_temple", "main_temple", "hire_worker", "buy_card", "central_plaza",
                     "sun_clock", "moon_tile")
SEARCH_KIND_OF_DISTRICT = (0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4, 5, 6)  # by district; staying: moon_tile
SEARCH_KIND_STAY = 7
N_P = P_SEARCH_STATS + len(SEARCH_KIND_NAMES) * STAT_WORDS
N_STATE = S_PLAYERS + MAX_PLAYERS * N_P


@njit_noalloc
def seat_at(p):
    return S_PLAYERS + p * N_P


@njit_typed("int64(int64[::1], int64[::1], int64, int64)")
def icons_held(P, st, p, icon):
    """Icons of one kind on the left of the seat's offering cards (kept up to date with the hand)."""
    return st[seat_at(p) + P_ICONS + icon]


@njit_noalloc
def count_icons(P, st, p, icon):
    """The same, counted card by card (checked mode compares the two)."""
    at = seat_at(p)
    total = 0
    for c in range(st[S_N_CARDS]):
        if st[at + P_HAND + c]:
            total += card_field(P, c, CF_ICONS + icon)
    return total


@njit_noalloc
def gold_held(P, st, p):
    at = seat_at(p)
    total = 0
    for c in range(st[S_N_CARDS]):
        if st[at + P_HAND + c]:
            total += card_field(P, c, CF_GOLD)
    return total



@njit_inline
def trade_price(P, g, direction, count):
    """Central Plaza: the corn one purchase (direction +1) of good g costs, or one sale (-1) pays,
    at a column holding `count` goods: the number uncovered by taking the bottom good, 6 from the
    supply when the column is empty; the number a sold good covers, filling the column from the
    top, 3 when it is full. Copied into its callers, as the two lines it replaced were: the bots
    value a trade for every Central Plaza option."""
    if direction > 0:
        return market_value(P, g, count - 1) if count > 0 else P[R_BUY_FALLBACK]
    return market_value(P, g, count) if count < market_length(P, g) else P[R_SELL_FALLBACK]


@njit_typed(f"boolean({T_PARAMS}, {T_STATE}, int64, int64, int64, int64, int64)")
def trade_allowed(P, st, p, g, direction, count, supply):
    """Central Plaza: whether seat p can buy (+1) or sell (-1) one good g at a column holding
    `count` goods, with `supply` more in the general supply (the rules ask it of the market as it
    stands; the bots also of the market after a price nudge)."""
    if direction > 0:
        return (count > 0 or supply > 0) and st[seat_at(p) + P_GOODS + CORN] >= trade_price(P, g, 1, count)
    return st[seat_at(p) + P_GOODS + g] > 0 and st[S_SUPPLY + CORN] >= trade_price(P, g, -1, count)


# ---- end reasons (games table `end_reason`)
END_NONE = 0
END_PRIESTS = 1  # condition 1: the last priest or virgin card was taken
END_DECK = 2  # condition 2: the offering deck ran out
END_SPANISH = 3  # condition 3: day 9 was played
END_ACTION_LIMIT = 4  # engine bound: no result
END_REASON_NAMES = ("none", "priests_taken", "deck_exhausted", "spanish_arrival", "action_limit")

# ---- st[S_ERROR]: what broke (checked mode, or a bot choosing no listed option)
ERR_NONE = 0
ERR_GOODS = 1
ERR_CORN = 2
ERR_WORKERS = 3
ERR_CARDS = 4
ERR_PRIESTS = 5
ERR_STONES = 6
ERR_MOON = 7
ERR_NEGATIVE = 8
ERR_BAD_CHOICE = 9
ERROR_NAMES = ("none", "goods created or lost", "corn created or lost", "workers created or lost",
               "offering cards created or lost", "priest/virgin cards created or lost",
               "temple stones created or lost", "moon tiles created or lost", "negative count",
               "a bot chose an option that was not offered")

# ---- decisions: the rules list the options (O_A, O_B, O_C of each) and ask the seat's bot
DEC_START_WORKER = 0  # a: production district
DEC_ACTION = 1  # a: district or STAY, b: 1 when it costs the llama jump
DEC_MOON_TILE = 2  # a: tile
DEC_PRODUCE = 3  # a: workers that produce (district in b)
DEC_LLAMA_OFFERING = 4  # a: llamas offered (temple in b)
DEC_MAIN_OFFERING = 5  # a: bitmask of the kinds of good offered
DEC_WATCHMAN = 6  # a: bitmask over the production districts of workers placed
DEC_PALACE = 7  # a: as DEC_WATCHMAN
DEC_PRIESTS = 8  # a: kind bought, -1 none
DEC_VIRGINS = 9  # a: kind bought, -1 none
DEC_PRICE_NUDGE = 10  # a: good, b: +1 adds one to the market, -1 removes one; a = -1 none
DEC_TRADE = 11  # a: good, b: +1 buy, -1 sell; a = -1 stop trading
DEC_CLOCK_WORKER = 12  # a: production district the worker leaves, -1 none
DEC_CLOCK_GOODS = 13  # a: bitmask of the kinds of good taken
DEC_MOON_USE = 14  # a: tile, b: MOON_STEPS / MOON_GOOD / MOON_CORN
DEC_SUMMIT_RETURN = 15  # a: card put back under the deck
N_DECISIONS = 16
DECISION_NAMES = ("start_worker", "action", "moon_tile", "produce", "llama_offering", "main_offering",
                  "watchman", "palace", "priests", "virgins", "price_nudge", "trade", "clock_worker",
                  "clock_goods", "moon_use", "summit_return")
STAY = -1  # DEC_ACTION: stay and take a moon tile
MOON_STEPS = 0
MOON_GOOD = 1
MOON_CORN = 2

# ---- bots: kinds, and the heuristic's weights (bots.py), in vector order
KIND_RANDOM = 0
KIND_HEURISTIC = 1
KIND_SEARCH = 2  # flat Monte-Carlo over the heuristic's best actions (search.py); the heuristic elsewhere
KIND_FAST = 3  # the heuristic without the plan (bots.py): goods worth what they are held for, no purchase gathered for
KIND_CHAIN = 4  # the scripted chain (bots.py): the fast heuristic committed to cards, llamas and offerings
BOT_KIND_NAMES = ("random", "heuristic", "search", "fast", "chain")
WEIGHT_NAMES = (
    "corn", "llama", "coca", "pottery", "cloth",  # points of a good held (per unit, before saturation)
    "saturation",  # each unit already held divides the next one's value by (1 + saturation * held)
    "step",  # points of a step of the scout
    "worker", "worker_icon", "future",  # a worker: base, per icon of its district in hand, per day of output
    "priest", "priest_icon", "offer_uses",  # a priest/virgin card: base, per icon, llama offerings expected
    "card_icon", "card_gold",  # an offering card: per point it scores now, per gold
    "moon", "sun",  # staying: a moon tile, and the sun tile (start player) with the day's last tile
    "jump",  # the bother of a llama jump beyond the llama
    "plaza",  # a visit to the Central Plaza beyond its best trade
    "clock",  # a worker sent to the Sun Clock beyond its reward
    "noise",  # random spread added to each option's value (0: none)
    "laps",  # summits the player expects per day left (the offering cards still to come)
    "plan", "pursuit",  # goods that bring a priest/virgin card or worker within reach: weight, discount per good missing
    "goods_end",  # the share of a good's worth left on the last day (full two days before it, halfway between)
    "llama_offer",  # a llama held with a priest/virgin card: this times the steps it buys at the card's temple
    "pull",  # a good a worthwhile purchase needs: this times the purchase's net value per good it still lacks
    "yield_steps",  # a worker's daily good: at least this times the steps it buys at the Main Temple (less its corn)
    "keep",  # a good of a purchase the player can pay now: at least this times the purchase's net value per good of its cost
    "deny",  # a first entry: this times what taking its goods or stones first costs the next player (their best first entry left)
    "gift",  # a first entry: this times what it lets the other players produce or offer there (a cost)
    "trail_end",  # last day: steps are also worth this times the Granary/Stable bonus they gain or lose
    "moon_best",  # staying: this share of the moon weight is instead the best use of the best tile beside the moon
)
W_GOODS = 0  # + good
W_SATURATION = 5
W_STEP = 6
W_WORKER = 7
W_WORKER_ICON = 8
W_FUTURE = 9
W_PRIEST = 10
W_PRIEST_ICON = 11
W_OFFER_USES = 12
W_CARD_ICON = 13
W_CARD_GOLD = 14
W_MOON = 15
W_SUN = 16
W_JUMP = 17
W_PLAZA = 18
W_CLOCK = 19
W_NOISE = 20
W_LAPS = 21
W_PLAN = 22
W_PURSUIT = 23
W_GOODS_END = 24
W_LLAMA_OFFER = 25
W_PULL = 26
W_YIELD_STEPS = 27
W_KEEP = 28
W_DENY = 29
W_GIFT = 30
W_TRAIL_END = 31
W_MOON_BEST = 32

# ---- the replay log: rows (event, a, b, c, d, e, f)
LOG_WIDTH = 7
LOG_CAPACITY = 20_000
EV_DAY = 0  # day, start player
EV_MOVE = 1  # seat, district, jumped
EV_MOON = 2  # seat, tile, moon tiles taken today
EV_SUN = 3  # seat
EV_TAKE = 4  # seat, district, amount taken (goods, corn or stones)
EV_PRODUCE = 5  # seat, district, good, amount
EV_OFFER = 6  # seat, temple, llamas (or the main temple's bitmask), steps
EV_WORKER = 7  # seat, district
EV_PRIEST = 8  # seat, kind
EV_TRADE = 9  # seat, good, +1 buy / -1 sell, corn
EV_NUDGE = 10  # seat, good, +1 / -1
EV_CLOCK = 11  # seat, from district
EV_SCOUT = 12  # seat, from space, steps, to space
EV_SUMMIT = 13  # seat, cards drawn, cards returned
EV_REWARD = 14  # seat, corn, llamas
EV_MOON_USE = 15  # seat, tile, use
EV_CLOCK_GOODS = 16  # seat, bitmask
EV_DAY_CORN = 17  # seat, corn
EV_END = 18  # reason
EV_FINAL = 19  # seat, score, rank, gold, multiplier
