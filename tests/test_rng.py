"""sim.core.rng.draw_to_front: a sample drawn to the front of a pool, the pool kept."""
from collections import Counter

import numpy as np

from sim.core import rng


def test_draw_to_front_keeps_the_pool_and_draws_each_item_as_often():
    """Over many draws of 3 from 8 items every item lands in the front 3/8 of the time, and the
    array always holds the same items (a draw, never a copy or a loss)."""
    state = np.zeros(rng.STATE_WORDS, np.uint64)
    rng.seed_game_stream(state, 11, 0)
    items = np.arange(8, dtype=np.int64)
    fronts = Counter()
    draws = 8000
    for _ in range(draws):
        rng.draw_to_front(state, items, 3, 8)
        assert sorted(items) == list(range(8))
        assert len(set(items[:3])) == 3
        fronts.update(items[:3].tolist())
    for item in range(8):
        assert abs(fronts[item] / draws - 3 / 8) < 0.03, (item, fronts[item])


def test_draw_to_front_of_nothing_leaves_the_array_and_the_stream():
    state = np.zeros(rng.STATE_WORDS, np.uint64)
    rng.seed_game_stream(state, 5, 2)
    before = state.copy()
    items = np.array([4, 2, 9], np.int32)
    rng.draw_to_front(state, items, 0, 3)
    assert items.tolist() == [4, 2, 9] and (state == before).all()
