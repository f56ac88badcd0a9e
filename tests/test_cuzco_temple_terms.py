"""Cuzco: the heuristic's temple terms beyond its own priests' VP (issue 36, temple-g5).

Each term is a weight that is 0 in bots.toml [defaults], so every bot without it plays as before;
here it is set on a built position and must move the position's value by the weight, in the
direction the rule gives.
"""
import pytest

from cuzco_helpers import table, weights
from sim.games.cuzco import bots as B
from sim.games.cuzco import state as S

SEAT, RIVAL = 0, 1


def temple_position(steps_by_seat):
    """A table right after setup with the temple steps (0 = the lowest) held as given."""
    P, st, side = table()
    st[S.S_TEMPLE:S.S_TEMPLE + S.N_TEMPLE] = -1
    for seat, steps in steps_by_seat.items():
        for step in steps:
            st[S.S_TEMPLE + step] = seat
    return P, st


def value_change(P, st, weight, amount):
    """position_value with the weight set to amount, less with it 0."""
    w = weights("temple")
    w[weight] = 0.0
    before = B.position_value(P, st, SEAT, w)
    w[weight] = amount
    return B.position_value(P, st, SEAT, w) - before


def test_winning_the_medal_race_by_the_tie_rule_is_worth_tie_lead():
    """Phase III 2: "If several players are tied for the most priests, the tied player whose priest
    is highest on the steps receives the medal." One priest each: the bot's on step 4 above the
    rival's on step 2 wins the medal (the tie_lead weight); below it, nothing."""
    P, st = temple_position({SEAT: [3], RIVAL: [1]})
    assert st[S.S_TEMPLE_MEDALS] > 0
    assert value_change(P, st, B.W_TIE_LEAD, 2.5) == pytest.approx(2.5, abs=1e-9)
    P, st = temple_position({SEAT: [1], RIVAL: [3]})
    assert value_change(P, st, B.W_TIE_LEAD, 2.5) == pytest.approx(0.0, abs=1e-9)
    P, st = temple_position({SEAT: [3, 4], RIVAL: [1]})  # a clear lead is the majority weight's
    assert value_change(P, st, B.W_TIE_LEAD, 2.5) == pytest.approx(0.0, abs=1e-9)


def test_a_rivals_priest_costs_the_vp_it_will_still_earn():
    """Phase III 2: each priest on the steps scores its owner 1/2/3 VP a round; Action: Temple: a
    priest pushed off the lowest step is expelled. Each rival priest costs rival_priest per VP it
    still earns, so pushing one out raises the value by that much."""
    P, st = temple_position({SEAT: [2], RIVAL: [0, 4]})
    per_priest = sum(P[S.R_PRIEST_VP + r] for r in range(st[S.S_ROUND], P[S.R_ROUNDS]))
    assert per_priest > 0
    assert value_change(P, st, B.W_RIVAL_PRIEST, 0.5) == pytest.approx(-0.5 * 2 * per_priest, abs=1e-9)
    P, st = temple_position({SEAT: [2], RIVAL: [4]})  # the lower one expelled
    assert value_change(P, st, B.W_RIVAL_PRIEST, 0.5) == pytest.approx(-0.5 * per_priest, abs=1e-9)


def test_a_higher_priest_is_worth_height_per_step():
    """Action: Temple: each priest placed below pushes the priests down one step, and one pushed
    off the lowest step is expelled: a priest on step s (0 = the lowest) survives s pushes."""
    P, st = temple_position({SEAT: [1, 4], RIVAL: [0]})
    assert value_change(P, st, B.W_HEIGHT, 0.5) == pytest.approx(0.5 * (1 + 4), abs=1e-9)
