"""Chachapoya's layouts pinned: the packed parameter arrays of the default components, every bot's
weights and search budget, as they were before the parameters and bots were declared once
(sim/core/paramspec.py, sim/core/bots_file.py). A change to any of them changes every game. The
last two weights (deny, mu_hand) came later at 0, which plays as before they existed."""
import numpy as np

from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import state as S

TREASURE = [[8, 5, 0, 0, 1], [5, 7, 0, 0, 1], [8, 3, 0, 0, 1], [8, 2, 0, 0, 1], [8, 1, 0, 0, 1], [5, 0, 1, 3, 1], [3, 0, 2, 1, 0]]
SCALE = [[0, 5, 10, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 7, 15, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 3, 6, 10, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 2, 5, 7, 10, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 1, 3, 6, 10, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 0, -5, -10, -15, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 0, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000]]
ADVENTURER = [[8, 3, 5, 0, 0], [7, 5, 4, 0, 0], [7, 7, 4, 0, 0], [6, 9, 3, 0, 0], [5, 11, 3, 0, 0], [4, 17, 2, 0, 0], [2, 31, 1, 0, 0], [8, 0, 2, 1, -1], [1, 0, 1, 2, -3], [1, 0, 1, 3, -3], [1, 0, 1, 4, -3]]
RULES = [8, 1, 3, 1, 5, 1, 3, 8, 3, 3, -5, 1, 400, 50, 0, 0, 15, 10, 5, 0, 0]
WEIGHTS = {
    'random': (0, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 1.0, 0.3, 1.0, 1.0, 3.0, 0.0, 0.0]),
    'balanced': (1, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 1.0, 0.3, 1.0, 1.0, 3.0, 0.0, 0.0]),
    'cautious': (1, [1.0, 30.0, 0.3, 0.2, 0.8, 3.0, 8.0, 20.0, 1.2, 3.0, 6.0, 0.8, 0.9, 0.15, 0.9, 0.0, 0.5, 0.2, 1.5, 0.3, 1.0, 1.0, 3.0, 0.0, 0.0]),
    'greedy': (1, [1.4, 8.0, 0.3, 0.06, 0.2, 3.0, 3.0, 14.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 0.6, 0.3, 1.0, 1.0, 3.0, 0.0, 0.0]),
    'bluffer': (1, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.8, 0.5, 0.6, 0.35, 0.0, 1.5, 1.0, 0.3, 0.6, 1.0, 3.0, 0.0, 0.0]),
    'search': (2, [6.924, 10.71, 0.6697, 0.01213, 0.2701, 7.737, 81.73, 30.83, 0.1873, 1.354, 11.51, 3.958, 0.9012, 13.95, 1.288, 0.04996, 0.0, 0.1665, 0.3393, 0.2659, 1.277, 6.557, 26.08, 0.0, 0.625]),
    'balanced-tuned': (1, [2.469, 19.3, 0.3993, 0.08357, 0.423, 2.797, 13.1, 5.239, 0.8487, 1.147, 3.041, 1.228, 0.7598, 0.1941, 0.9518, 0.06196, 0.5303, 0.316, 0.4636, 0.4103, 1.88, 0.5887, 6.166, 0.0, 0.0]),
    'cautious-tuned': (1, [1.838, 30.34, 1.416, 0.03827, 1.044, 3.624, 18.18, 20.42, 2.499, 1.39, 11.47, 1.116, 0.7644, 0.627, 2.474, 0.05133, 0.6938, 0.1953, 1.063, 0.3238, 1.537, 1.52, 3.687, 0.0, 0.0]),
    'greedy-tuned': (1, [2.596, 5.338, 0.2461, 0.03051, 0.1091, 2.172, 9.166, 14.79, 1.048, 0.3924, 19.33, 1.184, 0.7849, 0.03194, 0.4864, 0.0, 0.5726, 0.2796, 0.1022, 0.2288, 0.4032, 1.632, 7.194, 0.0, 0.0]),
    'bluffer-tuned': (1, [2.845, 2.367, 0.5168, 0.02832, 1.449, 3.294, 51.96, 7.154, 0.3064, 1.019, 11.84, 3.063, 0.4774, 4.717, 1.638, 0.4552, 0.0, 1.018, 0.7443, 1.043, 0.1615, 3.629, 10.01, 0.0, 0.0]),
}
BUDGET_NAMES = ['random', 'balanced', 'cautious', 'greedy', 'bluffer', 'search', 'balanced-tuned', 'cautious-tuned', 'greedy-tuned', 'bluffer-tuned', 'not-in-the-files']
BUDGETS = [[96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 4.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3, 1.0]]


def test_default_components_pack_as_before():
    engine = GAME.resolve_params(None).engine
    assert engine.dtype == np.int32 and engine.ndim == 1
    treasure, scale, adventurer, rules = S.param_tables(engine)
    for got, want in ((treasure, TREASURE), (scale, SCALE), (adventurer, ADVENTURER), (rules, RULES)):
        assert got.dtype == np.int32
        assert got.tolist() == want


def test_every_bot_has_its_weights_as_before():
    bots = GAME.bots()
    # the pinned bots in their order; bots added since (a league's generations) come after them
    assert [name for name in bots if name in WEIGHTS] == list(WEIGHTS)
    for name, (kind, weights) in WEIGHTS.items():
        assert bots[name].kind == kind, name
        assert bots[name].weights.dtype == np.float64
        assert bots[name].weights.tolist() == weights, name


def test_every_bot_has_its_search_budget_as_before():
    budgets = data.search_budgets(BUDGET_NAMES)
    assert budgets.dtype == np.float64
    assert budgets.tolist() == BUDGETS
