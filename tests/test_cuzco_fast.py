"""Cuzco's fast bot kind (issue 38): fewer phase-I options valued, drawn from the same legal moves.

The rulebook sections cited are those whose choices the fast kind values differently: Movement
(a stone trail and a rope bridge reach a village alike), the god cards' payment ("pay 1 offering
... or use an Inti medal", Addendum: The God Cards) and Exchange.
"""
import numpy as np

from cuzco_helpers import CARD, clear_hand, give_card, option, set_face_up, table, weights
from test_cuzco_games import simulate
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S
from sim.games.cuzco import weights as WT
from sim.games.cuzco.effects import remember_weights

SEAT = 0
FAST = ["balanced-tuned-fast", "temple-tuned-fast", "runner-tuned-fast", "market-tuned-fast"]


def test_a_trail_and_a_bridge_to_one_place_share_one_valuation():
    """Movement: the chasqui reaches the village by a stone trail or a rope bridge, and what the
    move does to the player (the village's quipu and feather, or Cuzco's blessing) is the same:
    both moves share one valuation (bots.effect_key), another place does not."""
    trail = option(die=0, pips=3, space=0, action=S.A_TRAIL, target=4)
    bridge = option(die=1, pips=5, space=1, action=S.A_BRIDGE, target=4)
    elsewhere = option(die=1, pips=5, space=1, action=S.A_BRIDGE, target=5)
    assert B.effect_key(trail) == B.effect_key(bridge) != 0
    assert B.effect_key(bridge) != B.effect_key(elsewhere)


def decision_start(P, st, w):
    """The look-ahead record of a heuristic decision just started for SEAT (choose_turn's first
    steps: the weights, the decision's value table)."""
    lrec = S.new_side(st[S.S_N_PLAYERS], False)[0]
    remember_weights(lrec[S.REC_JOURNAL:S.N_REC], w)
    B.remember_decision_base(P, st, SEAT, w, lrec)
    return lrec


def test_fast_kind_pays_a_card_the_way_that_costs_it_less():
    """God cards: a card is paid with the card and an offering, or with an Inti medal on the
    face-up card. Where both can pay, the fast kind values the turns of the cheaper way only: a bot
    that values medals highly pays from the hand, one that values the card highly pays by medal."""
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "jump")
    set_face_up(st, "jump")
    S.players(st)[SEAT, S.P_MEDALS] = 1
    assert S.players(st)[SEAT, S.P_OFFERINGS] > 0
    payable = B.payable_cards(st, SEAT)
    k = B.ACTION_CARDS.index(CARD["jump"])
    hand, medal = 1 << (1 + 2 * k), 1 << (2 + 2 * k)
    assert payable & hand and payable & medal
    for weight, name, keeps in ((WT.W_MEDAL, "medal", hand), (WT.W_CARD_PREF + CARD["jump"], "card", medal)):
        w = weights("balanced").copy()
        w[weight] = 40.0
        lrec = decision_start(P, st, w)
        fast = B.cheaper_payments(P, st, lrec, SEAT, payable)
        assert fast & (hand | medal) == keeps, name
        assert fast | hand | medal == payable | hand | medal  # every other payment stays open


def test_fast_kind_prices_a_plain_card_apart():
    """Inti 07 (place a die over a lower one) changes nothing but where the die may go, so the
    fast kind values a turn playing it as the turn without it plus the card's price on the
    decision's position (bots.strip_plain_cards); 14 (a jump) changes the move and stays in."""
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "ignore_lower")
    w = weights("balanced")
    lrec = decision_start(P, st, w)
    B.forget_card_prices(lrec)
    with_card = option(die=0, pips=2, space=0, action=S.A_VP, card=CARD["ignore_lower"])
    price = B.strip_plain_cards(P, st, lrec, SEAT, with_card)
    assert with_card[R.O_CARD] == -1  # taken out: the turn left is the plain one
    assert price == B.card_price(P, st, lrec, SEAT, CARD["ignore_lower"], R.SRC_CARD) < 0
    jump = option(die=0, pips=2, space=0, action=S.A_TRAIL, target=3, card=CARD["jump"])
    assert B.strip_plain_cards(P, st, lrec, SEAT, jump) == 0.0 and jump[R.O_CARD] == CARD["jump"]


def test_fast_bots_play_whole_checked_games():
    """Every section: the fast kind chooses among the legal moves the shared enumeration lists,
    so its games keep every invariant (checked mode: nothing created or lost after every turn)."""
    res = simulate(4, FAST, 40, seed=38, checked=True)
    assert res.failures == []
    assert (res.player_columns["won"].reshape(-1, 4).sum(axis=1) == 1).all()
