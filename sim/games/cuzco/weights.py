"""The heuristic bots' weight vector: names and indices (values live in bots.toml).

A heuristic bot values a position as a weighted sum of features of its own seat (bots.py,
`position_value`); the same weights rank its small choices in the middle of an action
(which face-up god card to take, which feather colour, ...), so a bot's style is all data.
"""
from sim.core.paramspec import Float, Int
from .state import N_ABILITIES, N_CARDS, TOP_TURNS

SCALAR_WEIGHTS = (
    ("vp", "victory points already scored"),
    ("status", "per VP the status track will pay this round"),
    ("priest", "per VP a priest on the steps should still earn"),
    ("majority", "leading the priest race while Inti medals are left"),
    ("medal", "per Inti medal held"),
    ("offering", "per offering that can pay for a card in hand"),
    ("card", "per god card in hand (times its preference)"),
    ("food", "per food that can still buy goods"),
    ("good", "per good owned (towards the 6-goods achievement)"),
    ("feather", "per feather on the mask board"),
    ("pair", "per circlet ready to activate, per headdress VP it would pay"),
    ("circlet", "per activated circlet (towards the 6-circlet achievement)"),
    ("quipu", "per quipu delivered (towards the 10-quipu achievement)"),
    ("village", "per VP of a village where this seat's quipu is on top"),
    ("tile", "per people tile on the mask board, per round left"),
    ("unslid", "per status/food value of a tile not slid down, per round left"),
    ("empty", "per empty mask space, per round left"),
    ("mission_ready", "per mission on the mask board already met"),
    ("mission_gap", "per missing requirement unit of a mission on the mask board"),
    ("pututu", "per pututu tile held"),
    ("order", "per place ahead in player order"),
    ("cuzco", "chasqui in Cuzco (a fire blessing is a move away) or next to it"),
    ("noise", "random spread added to every option, in VP"),
    ("extra_turn", "playing Mama Quilia 05, in card preferences (its extra turn is not looked ahead)"),
    ("arm", "leaving Cuzco, per pip of the overlay arm turned to the destination (the way back to "
            "Cuzco from there): + the dearest arm that fits, - the cheapest"),
    ("block", "Mama Quilia 06's destination: per die still to be placed this round that the moved die keeps "
              "off its new space, another player's (+) or the bot's own (-)"),
    ("rival_priest", "per VP the other players' priests on the steps should still earn, subtracted "
                     "(a push out of the temple denies them)"),
    ("tie_lead", "winning the medal race by the tie rule (tied for most priests, the highest priest) "
                 "while Inti medals are left"),
    ("height", "per step above the lowest of each of its priests on the steps (pushes it survives)"),
)
W_VP, W_STATUS, W_PRIEST, W_MAJORITY, W_MEDAL, W_OFFERING, W_CARD, W_FOOD, W_GOOD, W_FEATHER, \
    W_PAIR, W_CIRCLET, W_QUIPU, W_VILLAGE, W_TILE, W_UNSLID, W_EMPTY, W_MISSION_READY, \
    W_MISSION_GAP, W_PUTUTU, W_ORDER, W_CUZCO, W_NOISE, W_EXTRA_TURN, W_ARM, W_BLOCK, W_RIVAL_PRIEST, \
    W_TIE_LEAD, W_HEIGHT = range(len(SCALAR_WEIGHTS))
EXTRA_COPY = 0.3  # a further copy of a god card held counts this fraction of its preference
W_CARD_PREF = len(SCALAR_WEIGHTS)  # + card ability: how much the bot likes holding that card
W_ABILITY_PREF = W_CARD_PREF + N_CARDS  # + people ability: value per round left of holding it
N_HEURISTIC_WEIGHTS = W_ABILITY_PREF + N_ABILITIES
# The search bot's budget (bots.toml [search], and a search bot's own table: sim/core/bots_file.py),
# its names and bounds. It ends every bot's vector, where search.py reads it, as search_<name>;
# heuristic bots ignore it and `sim tune` leaves it out.
SEARCH_BUDGET = (
    Int("candidates", 1, TOP_TURNS, doc="phase-I turns compared by rollouts: the heuristic's best few"),
    Int("rollouts", 0, 10_000, doc="determinised rollouts per candidate"),
    Float("confidence", 0.0, 10.0, doc="standard errors by which a candidate must beat the heuristic's first turn"),
    Int("rounds", 0, 10, doc="rounds a rollout plays after the current one before the heuristic values it "
                             "(as many as are left: to the end of the game)"),
)
SEARCH_SETTINGS = tuple((f"search_{setting.key}", setting.doc) for setting in SEARCH_BUDGET)
W_SEARCH_CANDIDATES = N_HEURISTIC_WEIGHTS
W_SEARCH_ROLLOUTS = N_HEURISTIC_WEIGHTS + 1
W_SEARCH_CONFIDENCE = N_HEURISTIC_WEIGHTS + 2
W_SEARCH_ROUNDS = N_HEURISTIC_WEIGHTS + 3
N_WEIGHTS = N_HEURISTIC_WEIGHTS + len(SEARCH_SETTINGS)
