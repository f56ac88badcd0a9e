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
    'balanced-tuned': (1, [0.8445, 5.723, 0.195, 0.03445, 0.2753, 7.456, 15.27, 3.043, 0.81, 0.9325, 2.397, 2.52, 0.5119, 0.04072, 1.104, 1.387, 0.08466, 0.3682, 1.0, 0.09734, 0.6599, 1.0, 3.0]),
    'cautious-tuned': (1, [1.477, 42.28, 0.135, 0.1987, 0.86, 9.449, 36.58, 16.94, 2.833, 2.65, 5.868, 1.713, 0.591, 0.3038, 0.526, 0.0, 0.1911, 1.015, 1.0, 0.268, 0.6108, 1.0, 3.0]),
    'greedy-tuned': (1, [1.959, 10.52, 0.1494, 0.04122, 0.2653, 8.118, 8.312, 7.689, 0.5267, 4.716, 6.562, 0.8326, 0.1527, 0.5316, 1.545, 0.0, 0.4076, 0.4755, 1.0, 0.6016, 0.7761, 1.0, 3.0]),
    'bluffer-tuned': (1, [1.739, 6.167, 0.417, 0.01385, 0.2238, 5.295, 13.75, 3.217, 0.2308, 0.7048, 2.009, 1.544, 0.4226, 3.744, 0.2352, 0.4529, 0.0, 1.953, 1.0, 0.2235, 0.4528, 1.0, 3.0]),
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
