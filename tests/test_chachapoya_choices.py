"""Chachapoya: the choices the rulebook leaves to the player are the bots' choices (issue 14).

Rulebook sections: Hidden Treasure Token A ("they can discard their Hidden Treasure token ... to
fill their adventurer cards in hand up to eight cards") against B (an unused token joins a
sequence at scoring), and Tracker 2 ("the player playing the Tracker card can immediately draw
three adventurer cards"). Each choice: the rules allow both answers, and the heuristic makes it
from the option's value, with its weights as data (bots.toml: refill_card, token_keep,
token_base; draw_card for the pair's draw).
"""
import numpy as np

from chachapoya_helpers import (
    A, ENGINE, NO_LOG, T, bots, collect, hand, hand_dict, make_state, resolve, set_adeck, set_offer, set_tdeck,
)
from sim.games.chachapoya import bots as B
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S


def _weights(n, **changes):
    """balanced bots for n seats, with some weights changed (by name) for every seat."""
    kinds, w = bots(["balanced"] * n)
    w = w.copy()
    for name, value in changes.items():
        w[:, B.WEIGHT_NAMES.index(name)] = value
    return kinds, w


# ------------------------------------------------------------------ Hidden Treasure A against B
def _refill_state(left=1.0, seed=7):
    """Two players at the end of a round: seat 0's hand will be 3 cards after the draws (one
    drawn, then filled to three); `left` of the treasure deck still to come."""
    st = make_state(2, seed=seed)
    initial = st[S.S_INITIAL_TDECK]
    set_tdeck(st, [T["gold"]] * max(int(round(initial * left)), 4))
    hand(st, 0, number_3=1)
    hand(st, 1, number_3=7)
    set_adeck(st, [A["number_5"]] * 30)
    return st


def _refilled(st, kinds, w):
    R.end_of_round_draws(ENGINE, st, NO_LOG, kinds, w)
    return int(S.players(st)[0, S.P_TOKEN_REFILL]) == 1


def test_refill_when_the_cards_are_worth_more_than_the_token():
    """Hidden Treasure A: early in the game, a hand of three and a token that adds nothing yet:
    five cards at refill_card 1 (5) beat keeping the token (token_base 3), so balanced refills to
    eight; the token leaves the game."""
    st = _refill_state()
    kinds, w = bots(["balanced"] * 2)
    refill, keep = B.refill_worth(ENGINE, st, 0, w[0], np.int64(3))
    assert refill > keep
    assert _refilled(st, kinds, w)
    assert S.hands(st)[0].sum() == 8 and S.players(st)[0, S.P_TOKEN] == 0


def test_keep_the_token_that_would_score_more():
    """Hidden Treasure B: one blue idol with the token scores 15 instead of 7: keeping it (3 + 8)
    beats the same five cards, so the same bot keeps its token."""
    st = _refill_state()
    collect(st, 0, blue_idol=1)
    kinds, w = bots(["balanced"] * 2)
    assert B.token_worth(ENGINE, st, 0, w[0]) == 8
    assert not _refilled(st, kinds, w)
    assert S.hands(st)[0].sum() == 3 and S.players(st)[0, S.P_TOKEN] == 1


def _liability(left):
    st = _refill_state(left=left)
    collect(st, 0, blue_idol=2)
    hand(st, 0, number_3=6)  # 7 after the draw: one card to gain
    return st


def test_a_token_that_would_reach_an_x_is_spent_late():
    """Hidden Treasure B (Scoring example, Lucy): an unused token must join a sequence, so with two
    blue idols only (a third is X) it would eliminate its owner at scoring. Late in the game the
    bot refills with it even with seven cards in hand; early on it keeps it (token_base: a better
    sequence may yet come)."""
    kinds, w = bots(["balanced"] * 2)
    st = _liability(0.2)
    assert B.token_worth(ENGINE, st, 0, w[0]) == -15 - w[0, B.W_ELIMINATION]
    assert _refilled(st, kinds, w)
    assert S.hands(st)[0].sum() == 8
    assert not _refilled(_liability(1.0), kinds, w)


def test_refill_follows_the_weights():
    """The choice is the weights' (data): with the state of the first test, a bot that values the
    token more (token_base 10) keeps it, one that values cards more (refill_card 3) refills even
    with a blue idol to put the token on; the rules allow both (the random bot does either)."""
    st = _refill_state()
    assert not _refilled(st, *_weights(2, token_base=10.0))
    st = _refill_state()
    collect(st, 0, blue_idol=1)
    assert _refilled(st, *_weights(2, refill_card=3.0))
    outcomes = set()
    for seed in range(12):
        st = _refill_state(seed=seed)
        outcomes.add(_refilled(st, *bots(["random"] * 2)))
    assert outcomes == {True, False}


def test_refill_is_worth_less_as_the_game_ends():
    """Hidden Treasure A: cards drawn late are seldom played and may cost their hand penalty
    (Scoring: -1 a Tracker, -3 a Leader): the same hand and token refill early, not late."""
    kinds, w = bots(["balanced"] * 2)
    early, _ = B.refill_worth(ENGINE, _refill_state(1.0), 0, w[0], np.int64(3))
    late, _ = B.refill_worth(ENGINE, _refill_state(0.1), 0, w[0], np.int64(3))
    assert late < early
    assert _refilled(_refill_state(1.0), kinds, w)
    assert not _refilled(_refill_state(0.1), kinds, w)


def test_token_refill_is_refill_worths_choice():
    """choose_token_refill declines without counting the unseen cards when the refill could not
    beat the token even at the highest hand penalty: its answer is refill_worth's on either side
    of that bound, also with a positive penalty in the data (a mean the bound must still cover)."""
    kinds, w = bots(["balanced"] * 2)
    positive = ENGINE.copy()
    S.param_tables(positive)[2][A["number_5"], S.AF_PENALTY] = 6
    answers = set()
    for engine in (ENGINE, positive):
        for left in (1.0, 0.5, 0.1):
            st = _refill_state(left)
            for held in range(1, 8):
                for base in np.linspace(0.0, 8.0, 33):
                    w0 = w[0].copy()
                    w0[B.W_TOKEN_BASE] = base
                    refill, keep = B.refill_worth(engine, st, 0, w0, np.int64(held))
                    chosen = bool(B.choose_token_refill(engine, st, 0, kinds[0], w0, np.int64(held)))
                    assert chosen == (refill > keep), (left, held, base)
                    answers.add((engine is positive, chosen))
    assert answers == {(False, False), (False, True), (True, False), (True, True)}


# ------------------------------------------------------------------ Tracker 2: the pair's draw
def _pair_cancel(last_round=False, left=0.95, **changes):
    """Seat 1's tracker pair cancels a 3-player bidding (`left` of the treasure deck to come);
    returns the state after settlement."""
    st = make_state(3)
    initial = st[S.S_INITIAL_TDECK]
    set_tdeck(st, [T["gold"]] * (3 if last_round else int(round(initial * left))))
    set_offer(st, ["blue_idol", "curse"], knower=0, last_round=last_round)
    set_adeck(st, [A["number_3"]] * 20)
    hand(st, 1)
    outcome, seat, _ = resolve(3, {0: ("number_9", 1), 1: ("tracker", 2), 2: ("number_5", 1)})
    assert outcome == R.OUT_PAIR_CANCEL and seat == 1
    R.settle_bidding(ENGINE, st, NO_LOG, *_weights(3, **changes), np.int64(outcome), np.int64(seat))
    return st


def test_pair_player_draws_three_early():
    """Tracker 2: "can immediately draw three": early in the game the cards are worth drawing."""
    st = _pair_cancel()
    assert hand_dict(st, 1) == {"number_3": 3}
    assert S.players(st)[1, S.P_PAIR_DECLINED] == 0


def test_pair_player_declines_the_draw_in_the_last_round():
    """Tracker 2 + Last Round: after the last round's bidding the game is scored, so cards drawn
    then are never played and a Tracker or Leader among them costs its hand penalty (Scoring):
    the heuristic declines them, and the pair's bid is valued without them."""
    st = _pair_cancel(last_round=True)
    assert hand_dict(st, 1) == {}
    assert S.players(st)[1, S.P_PAIR_DECLINED] == 1
    assert B.pair_draw_worth(ENGINE, st, 1, _weights(3)[1][1]) < 0


def test_pair_draw_follows_the_weights():
    """The draw's value is draw_card per card (data): half-way through the game a bot that values
    a card at 5 draws and one that values it at 0 declines; the random bot does either."""
    assert hand_dict(_pair_cancel(left=0.5, draw_card=5.0), 1) == {"number_3": 3}
    assert hand_dict(_pair_cancel(left=0.5, draw_card=0.0), 1) == {}
    st = _pair_cancel(left=0.5)
    kinds, w = bots(["random"] * 3)
    draws = {bool(B.choose_pair_draw(ENGINE, st, 1, kinds[1], w[1])) for _ in range(12)}
    assert draws == {True, False}


def test_unseen_penalty_counts_what_the_seat_has_not_seen():
    """Scoring (-1 a Tracker, -3 a Leader): the mean penalty of the cards a seat has not seen is
    the printed set's (8 trackers and 3 leaders in 50 cards: -17/50) less its own hand and the
    cards played face up to the discard pile."""
    st = make_state(3)
    assert B.unseen_penalty(ENGINE, st, 0) == -17 / 50
    hand(st, 0, tracker=2, mafia=1)
    S.adiscard(st)[A["spy"]] = 1
    assert B.unseen_penalty(ENGINE, st, 0) == -(17 - 2 - 3 - 3) / 46


def _pair_utility(last_round, draw_card):
    """The heuristic's utility (bots.bid_utilities) of bidding seat 0's tracker pair."""
    from sim.games.chachapoya.cards import list_legal_bids
    st = make_state(3)
    hand(st, 0, tracker=2, number_9=1)
    if last_round:
        set_tdeck(st, [])
        set_offer(st, ["gold", "red_idol"], face_up=False, knower=-1, last_round=True)
    else:
        set_offer(st, ["gold", "red_idol"], knower=1)
        st[S.S_BURIED] = T["green_idol"]
    n = list_legal_bids(ENGINE, st, 0)
    utility = np.zeros(n)
    B.bid_utilities(ENGINE, st, 0, _weights(3, draw_card=draw_card)[1][0], n, utility)
    options = S.options(st)[:n]
    (pair,) = [i for i in range(n) if options[i, S.B_KIND] == A["tracker"] and options[i, S.B_N] == 2]
    return utility[pair]


def test_pair_bid_is_valued_with_the_draw_it_would_make():
    """Tracker 2 + Last Round: early on, a pair's bid is worth its three cards at draw_card each
    (0.3 more per card with draw_card 0.3 than with 0); in the last round the bot would decline
    them, so draw_card does not change the pair's worth there."""
    early = _pair_utility(False, 0.3) - _pair_utility(False, 0.0)
    assert abs(early - 3 * 0.3) < 1e-9
    assert _pair_utility(True, 0.3) == _pair_utility(True, 0.0)
