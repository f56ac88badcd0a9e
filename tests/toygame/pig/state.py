"""Pig's layouts: the rules array (each parameter declared once) and one int32 state array read by name."""
from sim.core.paramspec import Int, RulesLayout

MAX_PLAYERS = 6

# ---- rules[R_*]: components.toml, validated and packed by these declarations (data.py)
RULES = RulesLayout()
R_TARGET = RULES.add(Int("rules.target", 1, 10_000))
R_SIDES = RULES.add(Int("rules.sides", 2, 100))
R_BUST_FACE = RULES.add(Int("rules.bust_face", 1, 100))
R_ROUND_LIMIT = RULES.add(Int("rules.round_limit", 1, 10_000))

# ---- state[S_*]: game scalars, then one block of P_* fields per seat at S_PLAYERS + seat * N_P
S_N_PLAYERS = 0
S_ROUND = 1  # rounds started
S_WINNER = 2  # seat, -1 none
S_END_REASON = 3
S_ERROR = 4
S_LOG_N = 5
S_PLAYERS = 6
P_SCORE = 0
P_RANK = 1
P_ROLLS = 2
P_BUSTS = 3
P_BANKED = 4  # sum of every turn total banked: equals P_SCORE (the checked-mode invariant)
N_P = 5
N_STATE = S_PLAYERS + MAX_PLAYERS * N_P

END_TARGET = 0
END_ROUND_LIMIT = 1
END_REASON_NAMES = ("target_reached", "round_limit")
ERROR_NAMES = {1: "score differs from the points banked"}

# ---- bots: kinds and weights
KIND_RANDOM = 0
KIND_HEURISTIC = 1
BOT_KIND_NAMES = ("random", "heuristic")
WEIGHT_NAMES = ("hold_at", "chase", "finish")
W_HOLD_AT = 0
W_CHASE = 1
W_FINISH = 2

# ---- log rows for `sim replay`: (event, seat, a, b)
LOG_WIDTH = 4
LOG_CAPACITY = 4096
EV_ROUND = 0
EV_ROLL = 1  # seat, roll, turn total after it
EV_BUST = 2  # seat, turn total lost
EV_HOLD = 3  # seat, turn total, score after
EV_FINAL = 4  # seat, score, rank
