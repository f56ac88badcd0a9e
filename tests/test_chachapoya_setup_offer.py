"""Chachapoya rulebook sections "Setup", "Gameplay" and "Last Round and the End of the Game"."""
import numpy as np
import pytest

from chachapoya_helpers import (
    ADVENTURER, ENGINE, NO_LOG, T, TREASURE, count_adventurers, count_treasures, heuristic, make_state,
    random_bots, set_tdeck, tdeck_list,
)
from sim.core import rng as rng_mod
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S

N_TREASURES = int(TREASURE[:, S.TF_COUNT].sum())
N_ADVENTURERS = int(ADVENTURER[:, S.AF_COUNT].sum())


def fresh_setup(n_players, seed):
    st = S.new_state(ENGINE, n_players)
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(seed), np.uint64(3))
    R.setup(ENGINE, st, NO_LOG)
    return st


def test_component_totals_match_rulebook_content():
    """Content: 95 cards, 45 treasure cards and 50 adventurer cards; three Leader cards."""
    assert N_TREASURES == 45
    assert N_ADVENTURERS == 50
    leaders = [a for a in range(ADVENTURER.shape[0]) if ADVENTURER[a, S.AF_ROLE] >= S.ROLE_MAFIA]
    assert ADVENTURER[leaders, S.AF_COUNT].sum() == 3


@pytest.mark.parametrize("n_players,discarded", [(2, 15), (3, 10), (4, 5)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_discards_unseen_deals_eight_and_one_token(n_players, discarded, seed):
    """Setup: discard 15/10/5 treasures unseen (2/3/4 players); eight cards and a Hidden Treasure
    token each; the starting player is seat 0."""
    st = fresh_setup(n_players, seed)
    pstat = S.players(st)
    assert S.boxed(st).sum() == discarded  # put back in the box unseen
    assert S.gone(st).sum() == 0
    assert st[S.S_TDECK_SIZE] == N_TREASURES - discarded == st[S.S_INITIAL_TDECK]
    assert (S.hands(st).sum(axis=1) == 8).all()
    assert st[S.S_ADECK_SIZE] == N_ADVENTURERS - 8 * n_players
    assert (pstat[:, S.P_TOKEN] == 1).all() and (pstat[:, S.P_ALIVE] == 1).all()
    assert st[S.S_START] == 0
    assert st[S.S_KNOWER] == -1 and st[S.S_N_OFFER] == 0 and st[S.S_LAST_ROUND] == 0
    # every card is somewhere exactly once
    assert (count_treasures(st) == TREASURE[:, S.TF_COUNT]).all()
    assert (count_adventurers(st) == ADVENTURER[:, S.AF_COUNT]).all()


def test_setup_discard_is_random_by_seed():
    """Setup: the discarded treasures are random cards (shuffled deck), not a fixed set."""
    outs = {tuple(S.boxed(fresh_setup(4, seed))) for seed in range(12)}
    assert len(outs) > 1


@pytest.mark.parametrize("bot", ["random", "balanced"])
@pytest.mark.parametrize("start", [0, 2])
def test_offer_three_drawn_one_bottom_one_up_one_down(bot, start):
    """Gameplay: the start player draws three, puts one face down at the bottom of the treasure
    deck, offers one face up and one face down; only the start player knows the face-down card."""
    from chachapoya_helpers import bots
    st = make_state(4)
    rest = [T["gold"]] * 6
    drawn = [T["yellow_idol"], T["blue_idol"], T["grim_warriors"]]
    set_tdeck(st, drawn + rest)
    st[S.S_START] = start
    kinds, w = bots([bot] * 4)
    R.prepare_offer(ENGINE, st, NO_LOG, kinds, w)
    offer = S.offer(st)
    assert st[S.S_N_OFFER] == 2 and st[S.S_FACE_UP] == 1 and st[S.S_LAST_ROUND] == 0
    assert st[S.S_KNOWER] == start
    deck = tdeck_list(st)
    assert len(deck) == 9 - 2
    assert deck[:6] == rest  # the untouched rest stays on top
    bottomed = deck[-1]
    assert sorted([int(offer[0]), int(offer[1]), bottomed]) == sorted(drawn)
    assert offer[2] == -1


@pytest.mark.parametrize("n_left", [2, 3])
def test_last_round_offers_all_remaining_face_down(n_left):
    """Last Round: with two or three cards left they are offered face down without looking;
    the start player does not choose and nobody knows them."""
    st = make_state(3)
    cards = [T["red_idol"], T["curse"], T["gold"]][:n_left]
    set_tdeck(st, cards)
    st[S.S_START] = 1
    R.prepare_offer(ENGINE, st, NO_LOG, *random_bots(3))
    assert st[S.S_LAST_ROUND] == 1
    assert st[S.S_FACE_UP] == 0 and st[S.S_KNOWER] == -1
    assert st[S.S_N_OFFER] == n_left
    assert list(S.offer(st)[:n_left]) == cards
    assert st[S.S_TDECK_SIZE] == 0


def test_four_cards_left_is_still_a_normal_round():
    """Last Round applies only with two or three cards; four cards make a normal offer."""
    st = make_state(3)
    set_tdeck(st, [T["red_idol"], T["curse"], T["gold"], T["blue_idol"]])
    R.prepare_offer(ENGINE, st, NO_LOG, *heuristic(3))
    assert st[S.S_LAST_ROUND] == 0 and st[S.S_N_OFFER] == 2 and st[S.S_FACE_UP] == 1
    assert st[S.S_TDECK_SIZE] == 2  # so the next round is the last, with two cards


@pytest.mark.parametrize("n_left", [2, 3])
def test_last_round_winner_takes_all(n_left):
    """Last Round: the winner of the bidding acquires all of the (two or) three cards at once,
    and the game ends after that bidding."""
    st = make_state(3)
    cards = ["red_idol", "gold", "green_idol"][:n_left]
    set_tdeck(st, [T[c] for c in cards])
    R.prepare_offer(ENGINE, st, NO_LOG, *random_bots(3))
    spec = {0: ("number_5", 1), 1: ("number_17", 1), 2: ("number_9", 1)}
    from chachapoya_helpers import resolve, collection
    outcome, seat, _ = resolve(3, spec, start=0)
    assert (outcome, seat) == (R.OUT_WIN_ALL, 1)
    R.settle_bidding(ENGINE, st, NO_LOG, *random_bots(3), np.int64(outcome), np.int64(seat))
    assert collection(st, 1) == {c: 1 for c in cards}
    assert st[S.S_N_OFFER] == 0 and st[S.S_TDECK_SIZE] == 0


def test_first_round_of_a_game_is_started_by_seat_zero():
    """Setup/Gameplay: the starting player (seat 0) opens round 1 and the next round passes left."""
    st, log = S.new_state(ENGINE, 4), S.new_log(True)
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(5), np.uint64(3))
    R.setup(ENGINE, st, log)
    kinds, w = heuristic(4)
    R.play_round(ENGINE, st, log, kinds, w, True)
    log = log[: st[S.S_LOG_N]]
    rounds = [row for row in log if row[0] == R.EV_ROUND]
    assert rounds[0][1] == 1 and rounds[0][2] == 0  # round 1, start player seat 0
    offers = [row for row in log if row[0] == R.EV_OFFER_DRAWN]
    assert offers[0][1] == 0
    assert st[S.S_START] == 1
    assert st[S.S_ERROR] == 0
