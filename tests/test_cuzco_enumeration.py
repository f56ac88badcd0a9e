"""The phase-I enumeration's per-decision tables agree with the rules they stand for (issue 13):
`bots.payable_cards` with rules.payment, `bots.reachable_places` with rules.can_move, and
`bots.room_by_moving` with first_card's test of each die Mama Quilia 06 may move (Phase I -
Actions; the god cards). A choice is skipped only where the rules refuse it, so the bots choose as
before; tests/test_cuzco_reference.py pins whole games."""
from __future__ import annotations

import numpy as np

from test_cuzco_effects import positions
from test_cuzco_lookahead import SEAT
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

WAYS = (R.SRC_CARD, R.SRC_MEDAL)
OTHER_CARDS = ((B.PAY_IGNORE_LOWER, S.C_IGNORE_LOWER), (B.PAY_MOVE_DIE, S.C_MOVE_DIE),
               (B.PAY_BLESSING_PLENTY, S.C_BLESSING_PLENTY), (B.PAY_DELIVERY_VP, S.C_DELIVERY_VP))


def test_payable_cards_are_the_payments_the_rules_allow():
    payable = refused = 0
    for P, st, rng in positions():
        for medals in (0, 1):
            S.players(st)[SEAT][S.P_MEDALS] = medals
            bits = B.payable_cards(st, SEAT)
            assert bits & 1, "no card is always a choice"
            paid = [(1 + 2 * k, card) for k, card in enumerate(B.ACTION_CARDS)] + list(OTHER_CARDS)
            for bit, card in paid:
                for way, src in enumerate(WAYS):
                    can = R.payment(st, SEAT, card, src) != R.SRC_NONE
                    assert bool((bits >> (bit + way)) & 1) == can, (card, src)
                    payable += can
                    refused += not can
    assert payable > 20 and refused > 20


def test_reachable_places_are_the_moves_the_rules_allow():
    reached = 0
    for P, st, rng in positions():
        S.players(st)[SEAT][S.P_LOC] = rng.integers(S.N_VILLAGES + 1)
        for way in (S.WAY_TRAIL, S.WAY_BRIDGE):
            for strength in range(1, 7):
                for jump in (False, True):
                    places = B.reachable_places(P, st, SEAT, way, strength, jump)
                    assert places >> (S.N_VILLAGES + 1) == 1, "marked as computed, nothing above"
                    for t in range(S.N_VILLAGES + 1):
                        can = R.can_move(P, st, SEAT, way, strength, t, jump)
                        assert bool((places >> t) & 1) == can, (way, strength, jump, t)
                        reached += can
    assert reached > 100


def test_room_by_moving_is_some_die_whose_move_makes_room():
    rng = np.random.default_rng(5)
    P, st, _ = next(positions())
    space = 2
    rooms = 0
    for _ in range(300):
        k = rng.integers(1, 5)  # a space without dice fits every die: no move asked
        dice = rng.integers(1, 7, k)
        st[S.S_SPACE_N + space] = k
        for i, pips in enumerate(dice):
            st[S.S_SPACE_DICE + space * S.MAX_DICE_ON_SPACE + i] = rng.integers(4) * 8 + pips
        for pips in range(1, 7):
            room = any(all(dice[o] > pips for o in range(k) if o != i) for i in range(k))
            assert B.room_by_moving(st, space, pips) == room, (list(dice), pips)
            rooms += room
    assert rooms > 50
