"""Chachapoya bots: what they may see, the decisions they make, and how strong they are.

Rulebook sections: Gameplay (the three drawn cards are shown to everyone; only the start player
knows which of the two hidden ones is offered face down), Hidden Treasure Token B.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from sim.games.chachapoya import GAME, bots as B
from sim.games.chachapoya import state as S

from chachapoya_helpers import (
    A, ADVENTURER, ENGINE, T, bots, collect, hand, listed_bid, make_state, mid_game_states, set_offer,
)
from sim.games.chachapoya.cards import list_legal_bids

HEURISTICS = ["balanced", "cautious", "greedy", "bluffer"]


def _prepared_round(down, buried, knower):
    """Seat 1 to bid on a face-up gold with `down` face down and `buried` at the bottom."""
    st = make_state(4)
    for seat in range(4):
        hand(st, seat, number_3=2, number_9=2, number_11=1, number_17=1, tracker=1)
    collect(st, 1, blue_idol=1, yellow_idol=2)
    collect(st, 2, gold=2)
    set_offer(st, ["gold", down], face_up=True, knower=knower)
    st[S.S_BURIED] = T[buried]
    return st


def _bid(st, seat, bot):
    kinds, weights = bots([bot] * 4)
    rng_before = S.rng_words(st).copy()
    decision = B.choose_bid(ENGINE, st, seat, kinds[seat], weights[seat])
    S.rng_words(st)[:] = rng_before
    return tuple(int(x) for x in decision)


@pytest.mark.parametrize("bot", HEURISTICS)
def test_bidder_cannot_tell_face_down_from_buried_card(bot):
    """Gameplay: the others saw all three cards but not which hidden one is offered, so swapping
    the face-down card with the buried one must not change a non-start player's bid."""
    a = _bid(_prepared_round("blue_idol", "grim_warriors", knower=0), 1, bot)
    b = _bid(_prepared_round("grim_warriors", "blue_idol", knower=0), 1, bot)
    assert a == b


def test_start_player_uses_what_only_it_knows():
    """Gameplay: the start player knows the face-down card; a second blue idol (7 -> 15 points)
    is worth more to its holder than a Grim Warriors card, so it bids differently for them."""
    a = _bid(_prepared_round("blue_idol", "grim_warriors", knower=1), 1, "balanced")
    b = _bid(_prepared_round("grim_warriors", "blue_idol", knower=1), 1, "balanced")
    assert a != b


def test_gain_of_counts_scales_curse_and_elimination():
    """Scales, Curse and Checking as the bots value them: a second blue idol adds 8 points; a
    third yellow idol loses 10; a fourth eliminates (all points lost plus the weight)."""
    st = make_state(4)
    collect(st, 0, blue_idol=1, yellow_idol=2)
    w_elim = 15.0
    assert B.gain_of(ENGINE, st, 0, T["blue_idol"], -1, -1, w_elim, 0.0) == 8
    assert B.gain_of(ENGINE, st, 0, T["yellow_idol"], -1, -1, w_elim, 0.0) == -10
    assert B.gain_of(ENGINE, st, 0, T["yellow_idol"], T["yellow_idol"], -1, w_elim, 0.0) == -(7 + 10) - w_elim
    # A curse with a gold: the blue idol (card value 7) is the most valuable earlier card.
    assert B.gain_of(ENGINE, st, 0, T["curse"], T["gold"], -1, w_elim, 0.0) == 1 - 7


def test_heuristic_token_goes_where_it_scores_most():
    """Hidden Treasure B: one blue idol (7) with the token scores 15; three yellow idols would
    reach X. The heuristic places it on the blue idol."""
    st = make_state(4)
    collect(st, 0, blue_idol=1, yellow_idol=3)
    kinds, weights = bots(["balanced"] * 4)
    assert B.choose_token_place(ENGINE, st, 0, kinds[0], weights[0]) == T["blue_idol"]


def test_every_style_has_its_own_weights():
    """The heuristic styles differ only in data (bots.toml), and each differs from the others."""
    specs = GAME.bots()
    assert specs["random"].kind == B.BOT_RANDOM
    vectors = [tuple(specs[name].weights) for name in HEURISTICS]
    assert len(set(vectors)) == len(HEURISTICS)
    assert all(len(v) == B.N_WEIGHTS for v in vectors)


def _play(lineup, n_games, seed=11):
    bot_names = sorted(set(lineup))
    idx = np.array([bot_names.index(b) for b in lineup], np.int8)
    seat_bots = np.array([np.roll(idx, i) for i in range(n_games)], np.int8)
    result = GAME.simulate(GAME.resolve_params(None), len(lineup), bot_names, seat_bots, seed, 0, n_games)
    players = pd.DataFrame(result.player_columns)
    players["bot"] = np.array(bot_names)[seat_bots.reshape(-1)]
    return players


def test_heuristic_beats_three_random_bots():
    """A heuristic bot must be far above the 25% a random seat would win (measured ~70%)."""
    players = _play(["balanced", "random", "random", "random"], 600)
    assert players.loc[players.bot == "balanced", "won"].mean() > 0.5


def test_styles_behave_differently():
    """Greedy spends freely and wins more biddings than cautious, which guards its hand (measured
    over 100,000 games: 6.9 against 5.6 biddings won a game, sd 2)."""
    players = _play(HEURISTICS, 300)
    won = players.groupby("bot")["bids_won"].mean()
    assert won["greedy"] > won["cautious"] + 0.6


def test_heuristic_bid_is_the_listed_choice():
    """bots.heuristic_bid values the legal bids in one pass, with each number kind's win chances
    from one table, and reads the face-up card's gains from the bidding's table: the bid and the
    random stream after it must be those of listing and valuing every bid, for every style and
    for weights drawn at random (large noise, negative weights)."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    picker = np.random.default_rng(9)
    w_sets = [weights[s] for s in range(4)]
    for _ in range(6):
        w = weights[0] * picker.uniform(-1.0, 3.0, weights.shape[1])
        w[B.W_SIGMA] = abs(w[B.W_SIGMA]) + 0.5
        w_sets.append(w)
    checked = 0
    for st in mid_game_states(60, kinds, weights):
        for seat in range(4):
            if S.players(st)[seat, S.P_ALIVE] == 0:
                continue
            for w in w_sets:
                listed = st.copy()
                expected = listed_bid(listed, seat, w)
                for table in (False, True):
                    fused = st.copy()
                    if table:
                        B.up_card_gains(ENGINE, fused, kinds)
                    got = tuple(int(x) for x in B.heuristic_bid(ENGINE, fused, seat, w))
                    assert got == expected
                    assert (S.rng_words(fused) == S.rng_words(listed)).all()
                checked += 1
    assert checked > 500


def test_up_card_table_is_gain_of():
    """The bidding's table of the face-up card's gains gives gain_of's value for every seat."""
    kinds, weights = bots(["balanced-tuned", "cautious", "greedy-tuned", "bluffer"])
    checked = 0
    for st in mid_game_states(80, kinds, weights):
        if st[S.S_FACE_UP] == 0:
            continue
        B.up_card_gains(ENGINE, st, kinds)
        assert st[S.S_UP_GAINS_READY] == 1
        up = int(S.offer(st)[0])
        for seat in range(4):
            if S.players(st)[seat, S.P_ALIVE] == 0:
                continue
            for w_e, w_d in ((15.0, 0.3), (-2.5, -1.7), (0.0, 0.0)):
                assert B.up_card_gain(ENGINE, st, seat, up, w_e, w_d) == B.gain_of(ENGINE, st, seat, up, -1, -1, w_e, w_d)
                checked += 1
    assert checked > 100


def _utilities(st, seat, w):
    """bid_utilities of every legal bid of a seat, with the listed bids' kinds."""
    n = list_legal_bids(ENGINE, st, seat)
    utility = np.zeros(n)
    B.bid_utilities(ENGINE, st, seat, w, n, utility)
    return utility, S.options(st)[:n].copy()


def test_deny_values_what_taking_the_offer_keeps_from_the_leader():
    """Bidding: the winner takes the offer, so nobody else does; Tracker 2: a lone pair cancels
    it. With the deny weight d a bid that can win is worth its win chance times d times what the
    face-up card is worth to the leading other player (seat 2, 3 points for two gold, to whom a
    third gold adds 3; seats 0 and 3 hold nothing), and the pair d times that in full; the Spy
    (which never wins) is not moved."""
    st = _prepared_round("gold", "grim_warriors", knower=0)
    st[S.S_BURIED] = T["green_idol"]
    hand(st, 1, number_3=2, number_9=2, number_11=1, number_17=1, tracker=2, mafia=1, spy=1)
    _, weights = bots(["greedy-g3"] * 4)
    plain = weights[1].copy()
    denying = plain.copy()
    denying[B.W_DENY] = 2.0
    assert B.leader_gain(ENGINE, st, 1, plain) == 3.0
    _, _, _, mu, sigma = B.bid_context(ENGINE, st, 1, plain)
    before, options = _utilities(st, 1, plain)
    after, _ = _utilities(st, 1, denying)
    kinds = {i: name for name, i in A.items()}
    moved = {"number": 0, "tracker": 0, "mafia": 0, "spy": 0}
    for i, (kind, n, joker) in enumerate(options[:, [S.B_KIND, S.B_N, S.B_JOKER]]):
        name = kinds[int(kind)]
        if name.startswith("number"):
            chance = B.win_chance((n + joker) * ADVENTURER[kind, S.AF_VALUE], mu, sigma)
            assert after[i] - before[i] == pytest.approx(chance * 2.0 * 3.0)
            assert after[i] > before[i]
            name = "number"
        elif name == "tracker":
            assert after[i] - before[i] == pytest.approx(2.0 * 3.0)
        elif name == "mafia":
            assert after[i] - before[i] == pytest.approx(plain[B.W_LEADER_SUCCESS] * 2.0 * 3.0)
        else:
            assert name == "spy" and after[i] == before[i]
        moved[name] += 1
    assert moved["number"] > 5 and min(moved.values()) >= 1


def test_mu_hand_asks_more_strength_against_a_fuller_hand():
    """Setup (eight cards each) and Bidding (up to five cards of one hand): a fuller hand can bid
    stronger, and hand sizes are public. With mu_hand m the strength expected to win rises by m
    per card the fullest other hand holds beyond the starting eight, so every number bid's win
    chance, and its worth, falls; at m = 0 the hands are not read."""
    st = _prepared_round("gold", "blue_idol", knower=1)
    hand(st, 2, number_3=5, number_5=5, number_7=2)  # twelve cards: four beyond the starting eight
    _, weights = bots(["greedy-g3"] * 4)
    plain = weights[1].copy()
    wary = plain.copy()
    wary[B.W_MU_HAND] = 1.5
    mu_plain = B.bid_context(ENGINE, st, 1, plain)[3]
    mu_wary = B.bid_context(ENGINE, st, 1, wary)[3]
    assert B.fullest_other_hand(ENGINE, st, 1) == 12
    assert mu_wary - mu_plain == pytest.approx(1.5 * (12 - ENGINE[S.R_HAND_SIZE]))
    before, options = _utilities(st, 1, plain)
    after, _ = _utilities(st, 1, wary)
    numbers = [i for i, kind in enumerate(options[:, S.B_KIND]) if ADVENTURER[kind, S.AF_ROLE] == S.ROLE_NUMBER]
    assert len(numbers) > 5
    assert all(after[i] < before[i] for i in numbers)


def test_counted_hand_sizes_and_points_follow_the_rules():
    """Setup, Bidding, Tracker 2, Three Cards Rule and Checking change hands; only a bidding's
    winner's collection changes (Bidding, Curse, Checking). The hand sizes and points the bids read
    (known_hand_size, known_points), counted once and then kept by the rules, are at every bidding
    of the default line-up's games what counting the hand and summing the collection give."""
    kinds, weights = bots(["balanced-g4", "cautious-g5", "greedy-g7", "bluffer-g6"])
    counted_hands = counted_points = 0
    for st in mid_game_states(30, kinds, weights):
        for seat in range(4):
            if not S.players(st)[seat, S.P_ALIVE]:
                continue
            held = S.players(st)[seat, S.P_HAND_CARDS]
            if held != S.UNCOUNTED:
                counted_hands += 1
                assert held == S.hands(st)[seat].sum()
            points = S.players(st)[seat, S.P_POINTS]
            if points != S.UNCOUNTED:
                counted_points += 1
                assert points == B.seat_points(ENGINE, st, seat)
    assert counted_hands > 40 and counted_points > 20
