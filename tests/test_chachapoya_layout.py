"""Chachapoya's layouts pinned: the packed parameter arrays of the default components, every bot's
weights and search budget, as they were before the parameters and bots were declared once
(sim/core/paramspec.py, sim/core/bots_file.py). A change to any of them changes every game."""
import numpy as np

from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import state as S

TREASURE = [[8, 5, 0, 0, 1], [5, 7, 0, 0, 1], [8, 3, 0, 0, 1], [8, 2, 0, 0, 1], [8, 1, 0, 0, 1], [5, 0, 1, 3, 1], [3, 0, 2, 1, 0]]
SCALE = [[0, 5, 10, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 7, 15, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 3, 6, 10, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 2, 5, 7, 10, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 1, 3, 6, 10, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 0, -5, -10, -15, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000], [0, 0, 0, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000, -1000000]]
ADVENTURER = [[8, 3, 5, 0, 0], [7, 5, 4, 0, 0], [7, 7, 4, 0, 0], [6, 9, 3, 0, 0], [5, 11, 3, 0, 0], [4, 17, 2, 0, 0], [2, 31, 1, 0, 0], [8, 0, 2, 1, -1], [1, 0, 1, 2, -3], [1, 0, 1, 3, -3], [1, 0, 1, 4, -3]]
RULES = [8, 1, 3, 1, 5, 1, 3, 8, 3, 3, -5, 1, 400, 50, 0, 0, 15, 10, 5, 0, 0]
WEIGHTS = {
    'random': (0, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 1.0, 0.3, 1.0, 1.0, 3.0]),
    'balanced': (1, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 1.0, 0.3, 1.0, 1.0, 3.0]),
    'cautious': (1, [1.0, 30.0, 0.3, 0.2, 0.8, 3.0, 8.0, 20.0, 1.2, 3.0, 6.0, 0.8, 0.9, 0.15, 0.9, 0.0, 0.5, 0.2, 1.5, 0.3, 1.0, 1.0, 3.0]),
    'greedy': (1, [1.4, 8.0, 0.3, 0.06, 0.2, 3.0, 3.0, 14.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 0.6, 0.3, 1.0, 1.0, 3.0]),
    'bluffer': (1, [1.0, 15.0, 0.3, 0.12, 0.5, 3.0, 6.0, 18.0, 1.2, 3.0, 6.0, 0.8, 0.8, 0.5, 0.6, 0.35, 0.0, 1.5, 1.0, 0.3, 0.6, 1.0, 3.0]),
    'search': (2, [1.4, 8.0, 0.3, 0.06, 0.2, 3.0, 3.0, 14.0, 1.2, 3.0, 6.0, 0.8, 0.6, 0.15, 0.6, 0.0, 0.0, 0.2, 0.6, 0.3, 1.0, 1.0, 3.0]),
    'balanced-tuned': (1, [7.531, 11.89, 0.1982, 0.01206, 0.1845, 0.7213, 50.67, 4.518, 0.2616, 1.003, 28.5, 2.103, 0.08345, 0.01546, 0.5954, 0.1763, 1.28, 0.3536, 0.3552, 0.7272, 1.668, 0.876, 3.468]),
    'cautious-tuned': (1, [3.977, 16.41, 0.8612, 0.03741, 0.5501, 9.182, 42.06, 24.64, 4.307, 2.277, 6.069, 0.6838, 2.282, 0.3323, 0.6894, 0.0, 0.4026, 0.05313, 1.279, 0.2323, 0.3732, 0.6754, 4.391]),
    'greedy-tuned': (1, [4.08, 4.221, 0.4307, 0.06622, 0.2341, 6.73, 2.708, 18.7, 0.5031, 1.216, 15.33, 0.7862, 0.4127, 0.0771, 0.1456, 0.05256, 0.05852, 0.1609, 0.5446, 0.2425, 1.525, 0.626, 2.108]),
    'bluffer-tuned': (1, [1.11, 20.02, 0.3976, 0.03375, 0.1563, 3.38, 14.05, 6.666, 0.4322, 1.137, 8.783, 2.422, 0.8797, 1.766, 0.3262, 0.4439, 0.0, 0.4218, 0.3084, 0.09388, 0.6243, 1.416, 5.212]),
}
BUDGET_NAMES = ['random', 'balanced', 'cautious', 'greedy', 'bluffer', 'search', 'balanced-tuned', 'cautious-tuned', 'greedy-tuned', 'bluffer-tuned', 'not-in-the-files']
BUDGETS = [[96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3], [96.0, 2.0, 0.05, 0.5, 12.0, 0.3]]


def test_default_components_pack_as_before():
    engine = GAME.resolve_params(None).engine
    assert engine.dtype == np.int32 and engine.ndim == 1
    treasure, scale, adventurer, rules = S.param_tables(engine)
    for got, want in ((treasure, TREASURE), (scale, SCALE), (adventurer, ADVENTURER), (rules, RULES)):
        assert got.dtype == np.int32
        assert got.tolist() == want


def test_every_bot_has_its_weights_as_before():
    bots = GAME.bots()
    assert list(bots) == list(WEIGHTS)
    for name, (kind, weights) in WEIGHTS.items():
        assert bots[name].kind == kind, name
        assert bots[name].weights.dtype == np.float64
        assert bots[name].weights.tolist() == weights, name


def test_every_bot_has_its_search_budget_as_before():
    budgets = data.search_budgets(BUDGET_NAMES)
    assert budgets.dtype == np.float64
    assert budgets.tolist() == BUDGETS
