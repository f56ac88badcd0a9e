"""The line-by-line review of rules.py against the rulebook (issue 15): the behaviours the review
checked that no other test pinned down, each citing its section of shared/rules/machu-picchu.en.md."""
from __future__ import annotations

from machu_picchu_helpers import MOON, Table
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S


def _hand(t, p):
    return {c for c in range(int(t.st[S.S_N_CARDS])) if t.at(p, S.P_HAND + c)}


def test_the_cards_put_back_at_the_summit_come_from_the_whole_hand():
    """Inca Trail: the player "adds these cards to the offering cards already in their hand, looks
    through all of them, and then chooses 2 of them to put back": a card held before the summit may
    go back under the deck. Random choices over a few seeds put the old card back at least once; the
    hand always grows by one and the two returned cards lie at the bottom of the deck."""
    returned_old = 0
    for seed in range(12):
        t = Table(4, seed=seed)
        before = _hand(t, 0)
        t.set(0, S.P_SCOUT, 19)
        t.call(R.move_scout, 0, 1)
        after = _hand(t, 0)
        assert len(after) == len(before) + 1
        size, head, total = int(t.st[S.S_DECK_SIZE]), int(t.st[S.S_DECK_HEAD]), int(t.st[S.S_N_CARDS])
        bottom = {int(t.st[S.S_DECK + (head + size - 1 - i) % total]) for i in range(2)}
        assert bottom.isdisjoint(after)
        returned_old += len(before - after)
        t.check()
    assert returned_old > 0


def test_a_summit_reached_at_night_that_takes_the_last_card_stops_the_night():
    """Game End 2 ("the game ends immediately once the player who took the last offering card has
    finished their action") with README reading E (a night step is the player's action): a moon tile's
    steps take the last card; the Sun Clock workers are not paid, nothing is restocked and the time
    marker stays."""
    t = Table(4)
    t.deck_down_to(1)
    t.set(1, S.P_SCOUT, 19)
    R.hold_moon_tile(t.st, t.log, 1, MOON["m1"])
    t.set(2, S.P_FREE_WORKERS, t.at(2, S.P_FREE_WORKERS) - 1)
    t.set(2, S.P_CLOCK_WORKERS, 1)
    t.st[S.S_SUN_HOLDER] = 1
    t.kinds[:] = S.KIND_HEURISTIC
    t.W = R.np.zeros((4, len(S.WEIGHT_NAMES)), R.np.float64)
    t.W[:, S.W_STEP] = 1.0  # steps are all any seat values: the tile moves the scout
    day = int(t.st[S.S_DAY])
    t.call(R.play_night, 1)
    assert int(t.st[S.S_END_PENDING]) == S.END_DECK and int(t.st[S.S_DECK_SIZE]) == 0
    assert t.at(2, S.P_CLOCK_WORKERS) == 1 and t.events(S.EV_CLOCK_GOODS) == []
    assert int(t.st[S.S_DAY]) == day
