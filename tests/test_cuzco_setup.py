"""Cuzco rulebook "Setup" (steps 1-15) for 2, 3 and 4 players, over many seeds."""
from collections import Counter

import numpy as np
import pytest

from cuzco_helpers import GOODS, MASKS, MISSIONS, PEOPLE, VILLAGES, table, weights
from sim.games.cuzco import weights as WT
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

SEEDS = range(1, 41)
PLAYER_COUNTS = (2, 3, 4)
PRINTED_GOODS = {"soup": 7, "clothes": 6, "bowl": 5, "decanter": 5, "tools": 4, "jewelry": 3}


def tables(n):
    for seed in SEEDS:
        yield seed, table(n, seed)


def market_rows(st):
    board = st
    return [[int(board[S.S_MARKET + r * 5 + i]) for i in range(5)] for r in range(6)]


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_market_rows(n):
    """Setup 10: all 30 goods dealt face up to the 30 market spaces with 4 players; with 2 or 3
    one of each type is removed and only 4 goods lie in each row, the (leftmost) 4-player space
    empty - the same space in every row."""
    for seed, (P, st, side) in tables(n):
        rows = market_rows(st)
        counts = Counter(t for row in rows for t in row if t >= 0)
        if n == 4:
            assert all(len([t for t in row if t >= 0]) == 5 for row in rows), seed
            want = PRINTED_GOODS
            assert st[S.S_BOX_GOODS] == 0
        else:
            assert all(len([t for t in row if t >= 0]) == 4 for row in rows), seed
            empty = {tuple(i for i, t in enumerate(row) if t < 0) for row in rows}
            assert len(empty) == 1 and len(next(iter(empty))) == 1, (seed, rows)
            want = {k: v - 1 for k, v in PRINTED_GOODS.items()}
            assert st[S.S_BOX_GOODS] == 6
        assert {S.GOOD_NAMES[t]: c for t, c in counts.items()} == want, seed
        assert sum(counts.values()) == (30 if n == 4 else 24)
        assert st[S.S_MARKET_ROW_SIZE] == (5 if n == 4 else 4)
        assert R.check_components(P, st) == 0


def test_printed_goods_counts_match_components():
    """Components: 30 goods - 7 soup, 6 clothes, 5 bowls, 5 decanters, 4 tools, 3 jewelry."""
    assert {S.GOOD_NAMES[t]: int(GOODS[t, S.GF_COUNT]) for t in range(S.N_GOODS)} == PRINTED_GOODS


def test_market_is_shuffled():
    """Setup 10: goods are shuffled face down and dealt randomly - the first row differs between
    seeds."""
    firsts = {tuple(market_rows(table(4, seed)[1])[0]) for seed in SEEDS}
    assert len(firsts) > 20


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_palace_and_missions(n):
    """Setup 11 and 15: players + 2 golden missions face up in the palace; each player 1 grey
    start mission (unused grey ones to the box) and 2 golden ones from the piles; no mission tile
    is in two places."""
    for seed, (P, st, side) in tables(n):
        g, pl, board, decks = st, S.players(st), st, st
        palace = [int(board[S.S_PALACE + i]) for i in range(S.MAX_PLAYERS + 6)]
        shown = [m for m in palace if m >= 0]
        assert len(shown) == n + 2 and g[S.S_PALACE_SIZE] == n + 2, seed
        assert palace[:n + 2] == shown
        assert all(MISSIONS[m, S.MF_STARTING] == 0 for m in shown)
        held = []
        greys = []
        for p in range(n):
            ms = [int(pl[p, S.P_MISSION + i]) for i in range(3)]
            assert all(m >= 0 for m in ms), seed
            assert sum(MISSIONS[m, S.MF_STARTING] for m in ms) == 1, (seed, p, ms)
            greys += [m for m in ms if MISSIONS[m, S.MF_STARTING]]
            held += ms
        assert len(set(greys)) == n
        assert g[S.S_MISSION_N] == 55 - (n + 2) - 2 * n
        pile = [int(decks[S.S_MISSION_PILE + i]) for i in range(g[S.S_MISSION_N])]
        everything = pile + shown + held
        assert len(everything) == len(set(everything))
        assert set(everything) >= set(range(6, 61))
        assert g[S.S_BOX_MISSIONS] == 6 - n
        for p in range(n, S.MAX_PLAYERS):
            assert all(pl[p, S.P_MISSION + i] == -1 for i in range(3))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_display_temple_round(n):
    """Setup 7, 9, 12: 6 study and 6 farm tiles face up (one per pip space), the rest stacked;
    6 Inti medals on the temple, every temple step empty; round I."""
    for seed, (P, st, side) in tables(n):
        g, board = st, st
        study = [int(board[S.S_STUDY_DISPLAY + i]) for i in range(6)]
        farm = [int(board[S.S_FARM_DISPLAY + i]) for i in range(6)]
        assert all(t >= 0 and PEOPLE[t, S.TF_KIND] == S.STUDY for t in study), seed
        assert all(t >= 0 and PEOPLE[t, S.TF_KIND] == S.FARM for t in farm), seed
        assert len(set(study + farm)) == 12
        assert g[S.S_STUDY_N] == 30 and g[S.S_FARM_N] == 30
        assert g[S.S_STUDY_DISCARD_N] == 0 and g[S.S_FARM_DISCARD_N] == 0
        assert g[S.S_TEMPLE_MEDALS] == 6
        assert all(board[S.S_TEMPLE + s] == -1 for s in range(6))
        assert g[S.S_ROUND] == 0


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_order_tokens_vp_and_status_stack(n):
    """Setup 15: order tokens 1..n dealt at random; scoring markers on 0/1/2/3 VP for tokens
    1/2/3/4; status markers all on space 0, stacked in player order with token 1 on top."""
    first_seats = set()
    for seed, (P, st, side) in tables(n):
        g, pl = st, S.players(st)
        order = [int(g[S.S_ORDER + pos]) for pos in range(n)]
        assert sorted(order) == list(range(n)), seed
        first_seats.add(order[0])
        for pos, p in enumerate(order):
            assert pl[p, S.P_ORDER_POS] == pos
            assert pl[p, S.P_VP] == (0, 1, 2, 3)[pos], (seed, pos)
            assert pl[p, S.P_STATUS] == 0
        seqs = [int(pl[p, S.P_STATUS_SEQ]) for p in order]
        assert seqs == sorted(seqs, reverse=True) and len(set(seqs)) == n, (seed, seqs)
    assert first_seats == set(range(n))  # dealt at random


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_player_components(n):
    """Setup 13-15: a different mask board each; 1 starting feather each, all of different
    colours, in a matching slot; 2 offerings; 1 Inti medal; 4 priests and 10 quipus on the mask;
    chasqui in Cuzco; no food, goods or tiles. Feather supply: 3 per colour per player."""
    colours_seen = set()
    for seed, (P, st, side) in tables(n):
        g, pl = st, S.players(st)
        masks = [int(pl[p, S.P_MASK]) for p in range(n)]
        assert len(set(masks)) == n
        colours = []
        for p in range(n):
            feathers = [int(pl[p, S.P_FEATHERS + c]) for c in range(S.N_COLOURS)]
            assert sum(feathers) == 1, (seed, p)
            colour = feathers.index(1)
            colours.append(colour)
            slots = [s for s in range(S.N_SLOTS) if pl[p, S.P_SLOT + s]]
            assert len(slots) == 1 and MASKS[pl[p, S.P_MASK], slots[0]] == colour
            assert pl[p, S.P_OFFERINGS] == 2
            assert pl[p, S.P_MEDALS] == 1
            assert pl[p, S.P_PRIESTS_HOME] == 4
            assert pl[p, S.P_QUIPU_MASK] == 10 and pl[p, S.P_QUIPU_RESERVE] == 0
            assert pl[p, S.P_QUIPU_DELIVERED] == 0
            assert pl[p, S.P_LOC] == S.CUZCO
            assert pl[p, S.P_FOOD] == 0 and pl[p, S.P_N_TILES] == 0
            assert sum(pl[p, S.P_GOODS + t] for t in range(S.N_GOODS)) == 0
            assert all(pl[p, S.P_CIRCLET + c] == 0 for c in range(S.N_CIRCLETS))
        assert len(set(colours)) == n, (seed, colours)
        colours_seen.update(colours)
        for c in range(S.N_COLOURS):
            assert g[S.S_FEATHER_SUPPLY + c] == 3 * n - colours.count(c)
        assert g[S.S_OFFERING_SUPPLY] == 30 - 2 * n
        assert g[S.S_FOOD_SUPPLY] == 36
        assert all(st[S.S_STACK_N + v] == 0 for v in range(S.N_VILLAGES))
        assert R.check_components(P, st) == 0
    assert colours_seen == set(range(S.N_COLOURS))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_god_cards_dealt(n):
    """Setup 6 and 15: 2 god cards each, of different colours (gods). 3-4 players: 2 cards from
    each of the 5 piles are mixed, the rest of them goes face up onto the discard pile. 2 players:
    1 card from each pile, the one left over is the reserve on the discard pile. Then the top
    card of each pile is revealed."""
    per_pile = 1 if n == 2 else 2
    for seed, (P, st, side) in tables(n):
        g, pl, decks = st, S.players(st), st
        dealt = Counter()
        for p in range(n):
            hand = [c for c in range(S.N_CARDS) for _ in range(pl[p, S.P_HAND + c])]
            assert len(hand) == 2, (seed, p, hand)
            assert hand[0] // 3 != hand[1] // 3, (seed, p, hand)
            dealt.update(c // 3 for c in hand)
        discard = [int(decks[S.S_GOD_DISCARD + i]) for i in range(g[S.S_GOD_DISCARD_N])]
        assert len(discard) == 5 * per_pile - 2 * n, seed
        dealt.update(c // 3 for c in discard)
        assert dealt == Counter({god: per_pile for god in range(S.N_GODS)}), seed
        for god in range(S.N_GODS):
            up = g[S.S_GOD_UP + god]
            assert up >= 0 and up // 3 == god
            assert g[S.S_GOD_PILE_N + god] == 12 - per_pile - 1
        for p in range(n, S.MAX_PLAYERS):
            assert pl[p, S.P_HAND:S.P_HAND + S.N_CARDS].sum() == 0
        assert R.check_components(P, st) == 0


def test_two_player_reserve_is_one_card():
    """Setup 15 (2 players): "The last remaining card will be kept as the reserve" - exactly one
    card, placed face up on the discard pile."""
    for seed in SEEDS:
        P, st, side = table(2, seed)
        assert st[S.S_GOD_DISCARD_N] == 1


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_setup_is_a_function_of_the_seed(n):
    """Setup is random but reproducible: the same seed gives the same table."""
    a = table(n, 7)[1]
    b = table(n, 7)[1]
    assert np.array_equal(a, b)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_overlay_starts_at_a_random_rotation(n):
    """Setup 1: the overlay is imposed so that each trail leads to a village, "regardless of its
    imprinted die": any of the six rotations, chosen at random (not always the same one)."""
    rotations = Counter(int(st[S.S_ROTATION]) for _, (P, st, side) in tables(n))
    assert set(rotations) == set(range(6)), rotations
    assert max(rotations.values()) <= 15, rotations


def test_feather_pieces_are_dealt():
    """Setup 1: the triangles and frame pieces are assembled "alternating ones with feathers with
    those without": which feather piece lies where is not fixed, so the villages' feather colours
    differ from game to game; each piece keeps its feathers together, every colour stays on three
    villages, and the inner villages keep the inner pieces' colours."""
    P = table(4, 1)[0]
    pieces = VILLAGES[:, S.VF_PIECE]
    printed = VILLAGES[:, S.VF_COLOUR]
    layouts = set()
    for seed, (P, st, side) in tables(4):
        colours = st[S.S_VILLAGE_COLOUR:S.S_VILLAGE_COLOUR + S.N_VILLAGES]
        layouts.add(tuple(colours))
        assert sorted(colours[:6]) == sorted(printed[:6]) and sorted(colours[6:]) == sorted(printed[6:])
        for q in set(pieces.tolist()):
            on_q = colours[pieces == q].tolist()
            assert any(on_q == printed[pieces == r].tolist() for r in set(pieces.tolist())), (seed, q)
    assert len(layouts) == 6  # 3! triangle orders x 2 frame orders; two triangles carry the same colours


def test_feather_pieces_as_printed_when_not_dealt():
    """setup.deal_feather_pieces = false lays the feathers as villages.feather lists them."""
    P, st, side = table(4, 3, variant={"setup": {"deal_feather_pieces": False}})
    assert st[S.S_VILLAGE_COLOUR:S.S_VILLAGE_COLOUR + S.N_VILLAGES].tolist() == VILLAGES[:, S.VF_COLOUR].tolist()


def test_duplicate_colour_the_player_discards_and_redraws_from_the_reserve():
    """Setup 15: "Randomly deal to each player 2 of these cards face down, keep the remaining as a
    reserve pile. If a player receives 2 cards of identical color, they must discard one of
    these. Then, the player draws a card from the reserve pile, and shuffle the discarded card
    back on that pile." Which card goes is the player's (its bot's card preference); the new card
    comes from the reserve, so the other players' cards stay as dealt (README reading 26)."""
    P, st, side = table(4, 3)
    rec = side[0]
    order = [int(st[S.S_ORDER + i]) for i in range(4)]
    W = np.ascontiguousarray(np.tile(weights("balanced"), (4, 1)))
    first = order[0]
    # the first player in order is dealt Iliapa 01 and 02; it likes 02 far more
    W[first, WT.W_CARD_PREF + 0] = 0.1
    W[first, WT.W_CARD_PREF + 1] = 5.0
    held = np.full(S.SCR_WIDTH, -1, np.int64)
    dealt = {first: (0, 1)}
    others = [(4, 7), (10, 13), (3, 6)]  # different colours each
    for p, pair in zip([q for q in order if q != first], others):
        dealt[p] = pair
    for p, (a, b) in dealt.items():
        held[2 * p], held[2 * p + 1] = a, b
    res = np.full(S.SCR_WIDTH, -1, np.int64)
    res[0], res[1] = 9, 12  # the reserve: Viracocha 09 below, Pacha Mama 12 on top
    before = rec[S.REC_STATS + first * S.N_STAT + S.STAT_CHOICE + S.CH_SETUP_KEEP_SECOND]
    R.redeal_duplicate_colours(st, rec, W, held, res, 2, 4)
    assert held[2 * first + 1] == 1  # kept the card it values more
    assert held[2 * first] == 12  # the reserve's top card
    assert sorted(res[:2]) == [0, 9]  # the discarded card shuffled back into the reserve
    for p, (a, b) in dealt.items():
        if p != first:
            assert (held[2 * p], held[2 * p + 1]) == (a, b)  # not redealt from the others' cards
    assert rec[S.REC_STATS + first * S.N_STAT + S.STAT_CHOICE + S.CH_SETUP_KEEP_SECOND] == before + 1
    # the other preference: it keeps 01 and discards 02
    W[first, WT.W_CARD_PREF + 0], W[first, WT.W_CARD_PREF + 1] = 5.0, 0.1
    held[2 * first], held[2 * first + 1] = 0, 1
    res[0], res[1] = 9, 12
    R.redeal_duplicate_colours(st, rec, W, held, res, 2, 4)
    assert held[2 * first] == 0 and held[2 * first + 1] == 12 and sorted(res[:2]) == [1, 9]


def test_duplicate_colour_redraws_until_the_colours_differ():
    """Setup 15: "Repeat this process until each player has 2 cards of different colors": the
    card discarded may be drawn again; over many deals every pair ends with two colours and the
    reserve keeps its size."""
    P, st, side = table(3, 5)
    W = np.ascontiguousarray(np.tile(weights("balanced"), (3, 1)))
    for trial in range(200):
        held = np.full(S.SCR_WIDTH, -1, np.int64)
        res = np.full(S.SCR_WIDTH, -1, np.int64)
        for p in range(3):
            held[2 * p], held[2 * p + 1] = 3 * p, 3 * p + 1  # every player a pair of one god
        res[:4] = [2, 5, 9, 12]
        R.redeal_duplicate_colours(st, side[0], W, held, res, 4, 3)
        cards = sorted(list(held[:6]) + list(res[:4]))
        assert cards == sorted([0, 1, 3, 4, 6, 7, 2, 5, 9, 12])
        for p in range(3):
            assert held[2 * p] // 3 != held[2 * p + 1] // 3, (trial, held[:6])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_starting_feather_slot_is_the_bots_choice(seed):
    """Setup 15: "Each player places their feather in one matching color slot" - the slot is the
    player's: the one its bot values (rules.feather_slot_choice, README reading 5), not a fixed
    slot."""
    P, st, side = table(4, seed)
    pl = S.players(st)
    for p in range(4):
        slots = [s for s in range(12) if pl[p, S.P_SLOT + s]]
        assert len(slots) == 1
        colour = [c for c in range(S.N_COLOURS) if pl[p, S.P_FEATHERS + c]][0]
        fresh = table(4, seed)[1]
        # the same seat before its feather: the slot the rule chooses on that position
        S.players(fresh)[p, S.P_SLOT:S.P_SLOT + 12] = 0
        S.players(fresh)[p, S.P_FEATHERS + colour] = 0
        W = weights("balanced")
        assert R.feather_slot_choice(P, fresh, p, W, colour) == slots[0]
