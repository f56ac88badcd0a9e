"""Cuzco god cards (rulebook "Layout and Explanation of God Cards" - cost, time of usage, Inti
medal - and "Addendum: The God Cards" 01-15): every card's effect, its price of one offering (or
an Inti medal on a face-up card), the face-up discard pile and the god draw piles."""
import numpy as np
import pytest

from cuzco_helpers import (
    ABILITY, CARD, MISSION, VILLAGE, bots, clear_hand, clone, feathers_to, last_missions,
    give_card, give_tile, hand, log_events, make_room, option, set_face_up, set_market, space_of,
    table, use, weights,
)
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

W = weights("balanced")
NO_BLESS_CARD = 3  # fire blessing choice: an offering (not a god card) and a food (not status)


# ------------------------------------------------------------------ helpers
def snap(st, seat):
    g, pl = st, S.players(st)
    return dict(off=int(pl[seat, S.P_OFFERINGS]), supply=int(g[S.S_OFFERING_SUPPLY]),
                hand=pl[seat, S.P_HAND:S.P_HAND + S.N_CARDS].copy(),
                disc=int(g[S.S_GOD_DISCARD_N]), medals=int(pl[seat, S.P_MEDALS]),
                temple_medals=int(g[S.S_TEMPLE_MEDALS]))


def assert_paid(st, seat, before, card_name, offerings_gained=0):
    """Layout - Cost: one offering back to the supply, the card on the face-up discard pile."""
    g, pl, decks = st, S.players(st), st
    card = CARD[card_name]
    assert pl[seat, S.P_OFFERINGS] == before["off"] - 1 + offerings_gained
    assert g[S.S_OFFERING_SUPPLY] == before["supply"] + 1 - offerings_gained
    assert pl[seat, S.P_HAND + card] == before["hand"][card] - 1
    assert g[S.S_GOD_DISCARD_N] == before["disc"] + 1
    assert decks[S.S_GOD_DISCARD + before["disc"]] == card
    assert pl[seat, S.P_MEDALS] == before["medals"]


def seat_with(card_name, seat=0, offerings=None):
    """A fresh table; `seat` holds only this card (and its 2 starting offerings)."""
    P, st, side = table()
    clear_hand(st, seat)
    give_card(st, seat, card_name)
    if offerings is not None:
        move = offerings - S.players(st)[seat, S.P_OFFERINGS]
        S.players(st)[seat, S.P_OFFERINGS] += move
        st[S.S_OFFERING_SUPPLY] -= move
    return P, st, side


def turn(P, st, side, seat, **fields):
    """Perform one phase-I turn; the die used gets the turn's pips first."""
    opt = option(**fields)
    if opt[R.O_DIE] >= 0:
        S.players(st)[seat, S.P_DICE + opt[R.O_DIE]] = opt[R.O_PIPS]
    R.perform_turn(P, st, *side, seat, W, opt)
    return opt


def random_turns(P, st, seat, n_draws, extra=False):
    """The turns a random bot picks in n_draws tries: it picks uniformly among the enumerated
    legal options, so this samples what the engine considers legal."""
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = bots(["random"] * n)
    out = []
    for _ in range(n_draws):
        opt = np.zeros(R.N_O, np.int64)
        best = np.zeros(R.N_O, np.int64)
        if B.choose_turn(P, st, look, *lside, seat, Wb[seat], kinds[seat], opt, best, extra):
            out.append(best.copy())
    return out


def block_all_spaces_but(st, free, seat=1):
    """A die with 1 pip (nothing fits below it) on every action space except `free` and VP."""
    for name in ("stone_trail", "rope_bridge", "study", "farming", "exchange", "temple",
                 "headdress"):
        s = space_of(st, name)
        if name not in free and st[S.S_SPACE_N + s] == 0:
            R.put_die(st, s, seat, 1)


# ------------------------------------------------------------------ cost and card_source
@pytest.mark.parametrize("card_name", S.CARD_NAMES)
def test_card_costs_one_offering_and_goes_to_face_up_discard(card_name):
    """Layout and Explanation of God Cards - Cost (1 offering): playing a card spends an offering
    (back to the common supply) and puts the card on the face-up discard pile."""
    P, st, side = seat_with(card_name)
    S.players(st)[0, S.P_MEDALS] = 0
    assert R.card_source(st, 0, CARD[card_name]) == R.SRC_CARD
    before = snap(st, 0)
    R.play_card(st, *side, 0, CARD[card_name], R.SRC_CARD)
    assert_paid(st, 0, before, card_name)
    assert S.players(st)[0, S.P_OFFERINGS] == 1 and st[S.S_OFFERING_SUPPLY] == 30 - 4 * 2 + 1
    assert S.stats(side[0])[0, S.STAT_CARD_PLAYED + CARD[card_name]] == 1
    assert R.check_components(P, st) == 0


@pytest.mark.parametrize("card_name", S.CARD_NAMES)
def test_no_offering_card_cannot_be_used(card_name):
    """Layout - Cost: "If you own no offerings, you cannot play a god card." A medal only helps
    for the face-up card of that god (Inti medal)."""
    P, st, side = seat_with(card_name, offerings=0)
    card = CARD[card_name]
    S.players(st)[0, S.P_MEDALS] = 0
    assert R.card_source(st, 0, card) == R.SRC_NONE
    S.players(st)[0, S.P_MEDALS] = 1
    if st[S.S_GOD_UP + card // 3] == card:  # make the face-up card of that god another one
        other = card // 3 * 3 + (card + 1) % 3
        set_face_up(st, S.CARD_NAMES[other])
    assert R.card_source(st, 0, card) == R.SRC_NONE
    S.players(st)[0, S.P_OFFERINGS] = 1
    st[S.S_OFFERING_SUPPLY] -= 1
    assert R.card_source(st, 0, card) == R.SRC_CARD


def test_inti_medal_plays_face_up_card_franks_example():
    """Inti medal, Frank's example: he spends a medal to use the face-up yellow (Mama Sara) card
    without an offering; the card goes to the discard pile, the medal leaves the game (not back
    to the temple) and the next Mama Sara card is revealed. Card 14: jump to any village."""
    P, st, side = table()
    g, pl, decks = st, S.players(st), st
    clear_hand(st, 0)
    pl[0, S.P_OFFERINGS] = 0
    g[S.S_OFFERING_SUPPLY] += 2
    set_face_up(st, "jump")
    sara = CARD["jump"] // 3
    pile_n = int(g[S.S_GOD_PILE_N + sara])
    next_card = int(decks[S.S_GOD_PILES + sara * S.GOD_PILE_SLOTS + pile_n - 1])
    assert R.card_source(st, 0, CARD["jump"]) == R.SRC_MEDAL
    before = snap(st, 0)
    o6 = VILLAGE["O6"]
    turn(P, st, side, 0, die=0, pips=1, space=space_of(st, "stone_trail"),
         action=S.A_TRAIL, target=o6, card=CARD["jump"], medal=1)
    assert pl[0, S.P_LOC] == o6 and pl[0, S.P_DELIVERED + o6] == 1
    assert pl[0, S.P_MEDALS] == 0 and g[S.S_TEMPLE_MEDALS] == before["temple_medals"]
    assert pl[0, S.P_OFFERINGS] == 0 and g[S.S_OFFERING_SUPPLY] == before["supply"]
    assert hand(st, 0) == {}
    assert g[S.S_GOD_DISCARD_N] == before["disc"] + 1
    assert decks[S.S_GOD_DISCARD + before["disc"]] == CARD["jump"]
    assert g[S.S_GOD_UP + sara] == next_card and g[S.S_GOD_PILE_N + sara] == pile_n - 1
    assert S.stats(side[0])[0, S.STAT_CARD_MEDAL + CARD["jump"]] == 1
    assert R.check_components(P, st) == 0


def test_inti_medal_only_for_a_face_up_card():
    """Inti medal: "use the ability of 1 of the face up god cards" - not of a card still hidden in
    a pile, and a medal is needed."""
    P, st, side = table()
    clear_hand(st, 0)
    set_face_up(st, "virtual_six")
    assert R.card_source(st, 0, CARD["virtual_six"]) == R.SRC_MEDAL
    assert R.card_source(st, 0, CARD["jump"]) == R.SRC_NONE
    S.players(st)[0, S.P_MEDALS] = 0
    assert R.card_source(st, 0, CARD["virtual_six"]) == R.SRC_NONE


# ------------------------------------------------------------------ god piles
def test_taking_a_card_reveals_the_next_one():
    """Action: Exchange - Take 1 god card: take an open card, "Reveal the next god card from that
    pile, immediately" (rules.take_god_card)."""
    P, st, side = table()
    g, decks = st, st
    god = 2
    up = int(g[S.S_GOD_UP + god])
    n = int(g[S.S_GOD_PILE_N + god])
    top = int(decks[S.S_GOD_PILES + god * S.GOD_PILE_SLOTS + n - 1])
    before = S.players(st)[3, S.P_HAND + up]
    assert R.take_god_card(st, *side, 3, god) == up
    assert S.players(st)[3, S.P_HAND + up] == before + 1
    assert g[S.S_GOD_UP + god] == top and g[S.S_GOD_PILE_N + god] == n - 1
    assert R.check_components(P, st) == 0


def test_exhausted_pile_is_rebuilt_from_that_gods_discards():
    """Layout and Explanation of God Cards: "Any time a draw pile of a certain god is exhausted,
    search the discard pile for cards of such god. Mix them well, and place them as the new draw
    pile." Cards of the other gods stay on the discard pile (rules.reveal_god)."""
    P, st, side = table()
    g, decks = st, st
    god = 0  # Iliapa
    n = int(g[S.S_GOD_PILE_N + god])
    for i in range(n):  # every Iliapa card of the pile goes to the discard pile
        decks[S.S_GOD_DISCARD + g[S.S_GOD_DISCARD_N]] = decks[S.S_GOD_PILES + god * S.GOD_PILE_SLOTS + i]
        decks[S.S_GOD_PILES + god * S.GOD_PILE_SLOTS + i] = -1
        g[S.S_GOD_DISCARD_N] += 1
    g[S.S_GOD_PILE_N + god] = 0
    disc = [int(c) for c in decks[S.S_GOD_DISCARD:S.S_GOD_DISCARD + g[S.S_GOD_DISCARD_N]]]
    iliapa = sorted(c for c in disc if c // 3 == god)
    others = [c for c in disc if c // 3 != god]
    assert len(iliapa) >= n >= 2  # (the setup reserve on the discard pile may hold some too)
    R.take_god_card(st, *side, 1, god)
    new_up = int(g[S.S_GOD_UP + god])
    assert new_up // 3 == god
    base = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS
    pile = sorted(int(c) for c in decks[base:base + g[S.S_GOD_PILE_N + god]])
    assert sorted(pile + [new_up]) == iliapa
    assert g[S.S_GOD_PILE_N + god] == len(iliapa) - 1
    left = decks[S.S_GOD_DISCARD:S.S_GOD_DISCARD + g[S.S_GOD_DISCARD_N]]
    assert [int(c) for c in left] == others
    assert R.check_components(P, st) == 0
    # nothing of that god left anywhere to rebuild from: the display space stays empty
    for _ in range(len(iliapa)):
        R.take_god_card(st, *side, 1, god)
    assert g[S.S_GOD_UP + god] == -1 and g[S.S_GOD_PILE_N + god] == 0
    assert R.check_components(P, st) == 0
    # ... until a card of that god is played again: "any time" the pile is exhausted, the
    # discard is searched, so the card comes straight back face up (README: rule readings)
    S.players(st)[1, S.P_OFFERINGS] = max(1, S.players(st)[1, S.P_OFFERINGS])
    card = iliapa[0]
    R.play_card(st, *side, 1, card, R.SRC_CARD)
    assert g[S.S_GOD_UP + god] == card and g[S.S_GOD_PILE_N + god] == 0
    assert R.check_components(P, st) == 0


def test_pile_is_rebuilt_as_soon_as_it_is_exhausted():
    """Layout and Explanation of God Cards: "Any time a draw pile of a certain god is exhausted,
    search the discard pile for cards of such god. Mix them well, and place them as the new draw
    pile." When the last card of the pile is turned up, the god's discards become the new pile at
    once; a card of that god discarded afterwards waits on the discard pile (README reading 12)."""
    P, st, side = table()
    god = 2  # Viracocha
    base = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS
    n = int(st[S.S_GOD_PILE_N + god])
    # all but one card of the pile onto the discard pile
    moved = []
    for i in range(1, n):
        card = int(st[base + i])
        st[S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]] = card
        st[S.S_GOD_DISCARD_N] += 1
        st[base + i] = -1
        moved.append(card)
    st[S.S_GOD_PILE_N + god] = 1
    last = int(st[base])
    discard_god = sorted(int(c) for c in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]]
                         if c // 3 == god)
    R.take_god_card(st, *side, 0, god)  # turns up the pile's last card: the pile is exhausted
    assert st[S.S_GOD_UP + god] == last
    pile = sorted(int(c) for c in st[base:base + st[S.S_GOD_PILE_N + god]])
    assert pile == discard_god  # rebuilt at once, not when the next card must be turned up
    assert all(c // 3 != god for c in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]])
    # a card of that god played now goes onto the discard pile, not into the new draw pile
    clear_hand(st, 1)
    give_card(st, 1, "search_discard")
    S.players(st)[1, S.P_OFFERINGS] = max(1, S.players(st)[1, S.P_OFFERINGS])
    size = int(st[S.S_GOD_PILE_N + god])
    R.play_card(st, *side, 1, CARD["search_discard"], R.SRC_CARD)
    assert st[S.S_GOD_PILE_N + god] == size
    assert st[S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N] - 1] == CARD["search_discard"]
    assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ Iliapa 01-03
def test_01_study_tile_01_one_tile_gives_two_offerings():
    """Card 01, example 1: study tile 01 (1 offering) used twice = 2 offerings; the card costs one
    offering of its own (2 - 1 + 2 = 3)."""
    P, st, side = seat_with("double_people")
    give_tile(P, st, side, 0, S.STUDY, ABILITY["offering"])
    before = snap(st, 0)
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["offering"],
                                         double=R.SRC_CARD))
    assert_paid(st, 0, before, "double_people", offerings_gained=2)
    assert S.players(st)[0, S.P_OFFERINGS] == 3
    assert R.check_components(P, st) == 0


def test_01_two_study_tiles_01_give_three_offerings():
    """Card 01, example 1: with another study tile 01 "you get 3 offerings, since you can only
    double the ability of one single study tile"."""
    P, st, side = seat_with("double_people")
    give_tile(P, st, side, 0, S.STUDY, ABILITY["offering"])
    give_tile(P, st, side, 0, S.STUDY, ABILITY["offering"])
    before = snap(st, 0)
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["offering"],
                                         double=R.SRC_CARD))
    assert_paid(st, 0, before, "double_people", offerings_gained=3)
    assert S.players(st)[0, S.P_OFFERINGS] == 4


def trail_destinations(P, st, side, seat, u):
    """Villages (or Cuzco) a phase-II movement use reaches: every target tried on a copy."""
    out = set()
    here = S.players(st)[seat, S.P_LOC]
    for dest in range(S.N_VILLAGES + 1):
        st2, side2 = clone(st), clone(side)
        v = u.copy()
        v[R.U_TARGET] = dest
        R.use_ability(P, st2, *side2, seat, W, v)
        if S.players(st2)[seat, S.P_LOC] != here:
            assert S.players(st2)[seat, S.P_LOC] == dest
            out.add(dest)
    return out


@pytest.mark.parametrize("n_tiles, expected", [(1, {"I2"}), (2, {"I2", "O6"})])
def test_01_farm_tile_04_trail_up_to_four_then_any(n_tiles, expected):
    """Card 01, example 2: farming tile 04 (stone trail 2): with one tile "you can use the stone
    trail with 1-4 pips (instead of 1-2), if you have two tiles you can use any stone trail".
    From O1 the trails are O1-I2 (4 pips) and O1-O6 (6 pips)."""
    P, st, side = seat_with("double_people")
    for _ in range(n_tiles):
        give_tile(P, st, side, 0, S.FARM, ABILITY["stone_trail"])
    S.players(st)[0, S.P_LOC] = VILLAGE["O1"]
    plain = use(kind=S.FARM, ability=ABILITY["stone_trail"])
    without = {"I2"} if n_tiles == 2 else set()
    assert trail_destinations(P, st, side, 0, plain) == {VILLAGE[v] for v in without}
    doubled = use(kind=S.FARM, ability=ABILITY["stone_trail"], double=R.SRC_CARD)
    assert trail_destinations(P, st, side, 0, doubled) == {VILLAGE[v] for v in expected}
    before = snap(st, 0)
    far = VILLAGE["O6"] if n_tiles == 2 else VILLAGE["I2"]
    doubled[R.U_TARGET] = far
    R.use_ability(P, st, *side, 0, W, doubled)
    assert S.players(st)[0, S.P_LOC] == far
    assert_paid(st, 0, before, "double_people")


def test_01_one_card_doubles_one_study_and_one_farm_tile():
    """Card 01: "use the abilities of 1 study and 1 farming tile twice" - one card covers this
    phase II's study use and its farm use."""
    P, st, side = seat_with("double_people")
    give_tile(P, st, side, 0, S.STUDY, ABILITY["vp"])
    give_tile(P, st, side, 0, S.FARM, ABILITY["food"])
    vp, food = S.players(st)[0, S.P_VP], S.players(st)[0, S.P_FOOD]
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["vp"], double=R.SRC_CARD))
    R.use_ability(P, st, *side, 0, W, use(kind=S.FARM, ability=ABILITY["food"]))
    assert S.players(st)[0, S.P_VP] == vp + 4
    assert S.players(st)[0, S.P_FOOD] == food + 2
    assert S.players(st)[0, S.P_OFFERINGS] == 1 and hand(st, 0) == {}


def test_01_may_double_the_additional_use_of_11():
    """Card 01 doubles "1 study and 1 farming tile": the study tile may be the additional one of
    card 11 when the regular study use was not doubled (the card played with the additional use:
    one VP tile gives 4 VP), but one card never doubles two study uses (README reading 7)."""
    P, st, side = seat_with("double_people", offerings=3)
    give_card(st, 0, "extra_study")
    S.players(st)[0, S.P_MEDALS] = 0
    make_room(st, 0, 2)
    give_tile(P, st, side, 0, S.STUDY, ABILITY["vp"])
    give_tile(P, st, side, 0, S.STUDY, ABILITY["offering"])
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["offering"]))  # regular, not doubled
    from test_cuzco_choices import random_uses
    assert any(u[R.U_EXTRA] != R.SRC_NONE and u[R.U_DOUBLE] != R.SRC_NONE for u in random_uses(P, st, 60))
    vp = S.players(st)[0, S.P_VP]
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["vp"], extra=R.SRC_CARD,
                                         double=R.SRC_CARD))
    assert S.players(st)[0, S.P_VP] == vp + 4
    assert hand(st, 0) == {} and R.check_components(P, st) == 0
    # doubled regular use: the additional use is not doubled again
    P, st, side = seat_with("double_people", offerings=3)
    give_card(st, 0, "extra_study")
    make_room(st, 0, 2)
    give_tile(P, st, side, 0, S.STUDY, ABILITY["vp"])
    give_tile(P, st, side, 0, S.STUDY, ABILITY["offering"])
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["offering"], double=R.SRC_CARD))
    vp = S.players(st)[0, S.P_VP]
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["vp"], extra=R.SRC_CARD))
    assert S.players(st)[0, S.P_VP] == vp + 2


def test_02_slide_up_two_tiles_before_exchange():
    """Card 02: "Before using the exchange action, you may slide up any 2 people tiles"; they can
    then be slid down again by the exchange (university appointment: 2 pips, status 3 + 2)."""
    P, st, side = seat_with("slide_up")
    make_room(st, 0, 2)
    for value in (3, 2):
        give_tile(P, st, side, 0, S.STUDY, ABILITY["vp"], value=value)
    assert R.slide_down(P, st, side[0], 0, W, S.STUDY, 2) == 5  # an earlier exchange slid both down
    base = S.players(st)[0, S.P_STATUS]
    assert R.exchange_allowed(P, st, 0, S.EX_STATUS) is False
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=2, space=space_of(st, "exchange"), action=S.A_EXCHANGE,
         card=CARD["slide_up"], ex={"status": 2})
    assert S.players(st)[0, S.P_STATUS] == base + 5
    assert list(S.players(st)[0, S.P_SLID:S.P_SLID + 2]) == [1, 1]
    assert_paid(st, 0, before, "slide_up")


def test_02_slid_up_tiles_need_not_be_used():
    """Card 02: "You do not have to use these 2 tiles during your action" - an exchange for VP
    leaves both tiles slid up."""
    P, st, side = seat_with("slide_up")
    make_room(st, 0, 3)
    for value in (1, 2, 3):
        give_tile(P, st, side, 0, S.FARM, ABILITY["food"], value=value)
    R.slide_down(P, st, side[0], 0, W, S.FARM, 3)
    vp = S.players(st)[0, S.P_VP]
    turn(P, st, side, 0, die=0, pips=3, space=space_of(st, "exchange"), action=S.A_EXCHANGE,
         card=CARD["slide_up"], ex={"vp": 3})
    assert S.players(st)[0, S.P_VP] == vp + 3
    slid = sorted(int(S.players(st)[0, S.P_SLID + i]) for i in range(3))
    assert slid == [0, 0, 1]  # any 2 slid up (the bot's choice: its two most valuable, here)
    assert S.players(st)[0, S.P_OFFERINGS] == 1


def test_03_jewelry_bought_twice_the_vp():
    """Card 03 example: "You buy the jewelry good and gain immediately 9 victory points + another
    9 victory points because of this card, 18 VP in total." (Phase III 3: paid in food.)"""
    P, st, side = seat_with("double_good")
    set_market(st, 0, "jewelry")
    R.gain_food(st, 0, 6)
    plain_st, plain_side = clone(st), clone(side)
    vp = S.players(st)[0, S.P_VP]
    assert R.buy_good(P, plain_st, *plain_side, 0, 0, R.SRC_NONE)
    assert S.players(plain_st)[0, S.P_VP] == vp + 9
    before = snap(st, 0)
    assert R.buy_good(P, st, *side, 0, 0, R.SRC_CARD)
    assert S.players(st)[0, S.P_VP] == vp + 18
    assert S.players(st)[0, S.P_FOOD] == 0 and S.players(st)[0, S.P_GOODS + 5] == 1
    assert_paid(st, 0, before, "double_good")
    assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ Mama Quilia 04-06
def test_04_mission_with_one_feather_missing_gives_4vp():
    """Card 04 example: 2 of the 3 orange feathers of the feather mission (general 01) - with the
    card the mission is completed, "gaining only 4 (instead of 6) victory points"."""
    P, st, side = seat_with("mission_discount")
    feathers_to(P, st, side, 0, "orange", 2)
    m = MISSION["m01"]
    S.players(st)[0, S.P_MISSION + 1] = m
    assert R.mission_shortfall(P, st, 0, m) == 1
    vp = S.players(st)[0, S.P_VP]
    before = snap(st, 0)
    R.settle_mission(P, st, *side, 0, 1, 2, R.SRC_CARD)
    assert S.players(st)[0, S.P_VP] == vp + 4
    assert S.players(st)[0, S.P_MISSIONS_DONE] == 1 and S.players(st)[0, S.P_MISSION + 1] == -1
    assert_paid(st, 0, before, "mission_discount")
    assert log_events(st, side, R.EV_MISSION)[-1, 1:4].tolist() == [0, m, 2]


def test_04_starting_mission_with_one_requirement_missing():
    """Card 04 ("complete 1 mission tile with 1 less requirement"), on S-01 (a priest on the
    temple and a farm tile): no farm tile, but a priest - one requirement missing, 4 VP."""
    P, st, side = seat_with("mission_discount")
    st[S.S_TEMPLE + 2] = 0
    S.players(st)[0, S.P_PRIESTS_HOME] -= 1
    m = MISSION["s01"]
    S.players(st)[0, S.P_MISSION] = m
    assert R.mission_shortfall(P, st, 0, m) == 1
    vp = S.players(st)[0, S.P_VP]
    R.settle_mission(P, st, *side, 0, 0, 2, R.SRC_CARD)
    assert S.players(st)[0, S.P_VP] == vp + 4


@pytest.mark.parametrize("cards, vp_gained, done", [(2, 6 + 4 + 4, 3), (1, 6 + 4, 2)])
def test_04_at_the_end_each_card_one_mission(cards, vp_gained, done):
    """Card 04: "You may also use these cards at the end of the game, with each card affecting a
    single mission tile." End of the Game: the 3 remaining missions (game.last_missions)."""
    P, st, side = table()
    clear_hand(st, 0)
    S.players(st)[0, S.P_MEDALS] = 0
    for _ in range(cards):
        give_card(st, 0, "mission_discount")
    feathers_to(P, st, side, 0, "orange", 2)
    feathers_to(P, st, side, 0, "pink", 2)
    R.gain_food(st, 0, 5)
    S.players(st)[0, S.P_MISSION:S.P_MISSION + 3] = [MISSION["m01"], MISSION["m03"], MISSION["m38"]]
    vp = S.players(st)[0, S.P_VP]
    last_missions(P, st, side)
    assert S.players(st)[0, S.P_VP] == vp + vp_gained
    assert S.players(st)[0, S.P_MISSIONS_DONE] == done
    assert hand(st, 0) == {} and S.players(st)[0, S.P_OFFERINGS] == 2 - cards


def test_04_does_not_cover_two_missing_requirements():
    """Card 04 covers exactly 1 missing requirement: with 1 of 3 orange feathers the bot never
    completes the mission with the card (it must return a mission)."""
    P, st, side = seat_with("mission_discount")
    feathers_to(P, st, side, 0, "orange", 1)
    S.players(st)[0, S.P_MEDALS] = 0
    S.players(st)[0, S.P_MISSION:S.P_MISSION + 3] = [MISSION["m01"], MISSION["m02"], MISSION["m03"]]
    for m in (MISSION["m01"], MISSION["m02"], MISSION["m03"]):
        assert R.mission_shortfall(P, st, 0, m) >= 2
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = bots(["random"] * n)
    for _ in range(20):
        slot, outcome, src = B.choose_mission(P, st, look, *lside, 0, Wb[0], kinds[0])
        assert outcome == 0


def test_05_extra_one_pip_turn_without_a_die():
    """Card 05: "After your turn, immediately play another turn, as if you would place a die with
    1 pip (do not place a die)" - here the temple: a priest on step 1, no die on the space."""
    P, st, side = seat_with("extra_turn")
    vp = S.players(st)[0, S.P_VP]
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=4, space=space_of(st, "victory_points"),
         action=S.A_VP, card=CARD["extra_turn"])
    assert S.players(st)[0, S.P_VP] == vp + 2
    assert_paid(st, 0, before, "extra_turn")
    temple = space_of(st, "temple")
    dice = S.players(st)[0, S.P_DICE:S.P_DICE + 3].copy()
    turn(P, st, side, 0, die=-1, pips=1, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD)
    assert st[S.S_TEMPLE + 0] == 0
    assert st[S.S_SPACE_N + temple] == 0 and st[S.S_SPACE_MIN + temple] == S.NO_DIE
    assert (S.players(st)[0, S.P_DICE:S.P_DICE + 3] == dice).all()
    assert len(log_events(st, side, R.EV_EXTRA_TURN)) == 1


def test_05_extra_turn_only_on_an_empty_space_never_vp():
    """Card 05: "You may use any action space that does not contain any die, with the exception of
    'Action Victory Points'." Only the VP space free: no extra turn; temple free too: the temple,
    with 1 pip."""
    P, st, side = seat_with("extra_turn")
    block_all_spaces_but(st, ())
    assert random_turns(P, st, 0, 10, extra=True) == []
    P, st, side = seat_with("extra_turn")
    block_all_spaces_but(st, ("temple",))
    picks = random_turns(P, st, 0, 20, extra=True)
    assert len(picks) == 20
    for opt in picks:
        assert opt[R.O_SPACE] == space_of(st, "temple") and opt[R.O_DIE] == -1
        assert opt[R.O_PIPS] == 1


def test_05_extra_turn_may_play_13():
    """Card 05's extra turn is a turn "as if you would place a die with 1 pip", and card 13 lets a
    placed die be used "as if it had 6 pips": the rulebook does not forbid 13 on that turn, so it
    is offered (the random bot plays it) and the priest goes to step 6 (README reading 10)."""
    P, st, side = seat_with("virtual_six")
    block_all_spaces_but(st, ("temple",))
    picks = random_turns(P, st, 0, 40, extra=True)
    assert any(opt[R.O_CARD] == CARD["virtual_six"] for opt in picks)
    turn(P, st, side, 0, die=-1, pips=1, space=space_of(st, "temple"), action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["virtual_six"])
    assert st[S.S_TEMPLE + S.N_TEMPLE - 1] == 0
    assert R.check_components(P, st) == 0


def test_05_with_another_card_in_the_same_turn():
    """Card 05 ("After your turn, immediately play another turn") is not limited to a turn that
    plays no other card: with 13 and 05 in hand the bots' options include a turn playing both
    (13 first, 05 second), each paid; the extra turn follows it (README reading 15)."""
    P, st, side = seat_with("virtual_six", offerings=3)
    give_card(st, 0, "extra_turn")
    S.players(st)[0, S.P_MEDALS] = 0
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [2, 0, 0]
    picks = random_turns(P, st, 0, 200)
    both = [opt for opt in picks if opt[R.O_CARD] == CARD["virtual_six"] and opt[R.O_CARD2] == CARD["extra_turn"]]
    assert both
    before = snap(st, 0)
    opt = both[0]
    R.perform_turn(P, st, *side, 0, W, opt)
    assert S.players(st)[0, S.P_OFFERINGS] <= before["off"] - 2 + 1  # two cards paid (a blessing may add one)
    assert hand(st, 0).get("virtual_six", 0) == 0 and hand(st, 0).get("extra_turn", 0) == 0
    assert R.plays(opt, CARD["extra_turn"])
    assert R.check_components(P, st) == 0


def test_06_reallocate_any_die_ignoring_placement_rules():
    """Card 06: "Reallocate any 1 die, regardless of its color, to another action space before you
    perform your turn ... you can ignore the placement rules" - another player's 4 goes onto a
    space holding a 3, freeing the temple for this player's 5 (step 5)."""
    P, st, side = seat_with("move_die")
    temple, exchange = space_of(st, "temple"), space_of(st, "exchange")
    R.put_die(st, temple, 1, 4)
    R.put_die(st, exchange, 2, 3)
    assert not R.die_fits(P, st, temple, 5, False)
    assert not R.die_fits(P, st, exchange, 4, False)
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=5, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["move_die"], card_arg=temple, card_arg2=exchange)
    board = st
    dice_on_exchange = sorted(int(board[S.S_SPACE_DICE + exchange * S.MAX_DICE_ON_SPACE + i])
                              for i in range(board[S.S_SPACE_N + exchange]))
    assert dice_on_exchange == sorted([2 * 8 + 3, 1 * 8 + 4])  # (seat 2, 3 pips), (seat 1, 4 pips)
    assert board[S.S_SPACE_MIN + exchange] == 3
    assert board[S.S_SPACE_N + temple] == 1 and board[S.S_SPACE_MIN + temple] == 5
    assert board[S.S_TEMPLE + 4] == 0
    assert_paid(st, 0, before, "move_die", offerings_gained=1)
    assert log_events(st, side, R.EV_MOVE_DIE)[-1, 1:6].tolist() == [0, temple, exchange, 4, 0]


def test_06_the_example_a_6_onto_a_space_with_a_3():
    """Card 06: "You can ignore the placement rules to reallocate the die. For example you can place
    a 6 on a space with a 3" - seat 1's 6 leaves the temple for the exchange space holding seat 2's
    3, and this player's own 6 then takes the temple."""
    P, st, side = seat_with("move_die")
    temple, exchange = space_of(st, "temple"), space_of(st, "exchange")
    R.put_die(st, temple, 1, 6)
    R.put_die(st, exchange, 2, 3)
    assert not R.die_fits(P, st, temple, 6, False) and not R.die_fits(P, st, exchange, 6, False)
    turn(P, st, side, 0, die=0, pips=6, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["move_die"], card_arg=temple, card_arg2=exchange)
    dice_on_exchange = sorted(int(st[S.S_SPACE_DICE + exchange * S.MAX_DICE_ON_SPACE + i])
                              for i in range(st[S.S_SPACE_N + exchange]))
    assert dice_on_exchange == sorted([2 * 8 + 3, 1 * 8 + 6])
    assert st[S.S_SPACE_N + temple] == 1 and st[S.S_SPACE_MIN + temple] == 6


def test_06_moves_any_die_not_only_the_lowest():
    """Card 06: "Reallocate any 1 die, regardless of its color" - the 5 of seat 2 leaves the
    temple space, where seat 1's 3 stays, for the exchange space."""
    P, st, side = seat_with("move_die")
    temple, exchange = space_of(st, "temple"), space_of(st, "exchange")
    R.put_die(st, temple, 1, 3)
    R.put_die(st, temple, 2, 5)
    turn(P, st, side, 0, die=0, pips=2, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["move_die"], card_arg=temple, move_index=1, card_arg2=exchange)
    on_temple = sorted(int(st[S.S_SPACE_DICE + temple * S.MAX_DICE_ON_SPACE + i]) for i in range(st[S.S_SPACE_N + temple]))
    assert on_temple == sorted([1 * 8 + 3, 0 * 8 + 2])
    assert st[S.S_SPACE_N + exchange] == 1 and st[S.S_SPACE_DICE + exchange * S.MAX_DICE_ON_SPACE] == 2 * 8 + 5


def test_06_the_bot_chooses_the_die_and_its_destination():
    """Card 06 is the player's choice of die and destination: with a 3 (seat 1) and a 4 (seat 2)
    on the temple space and every other space blocked, a 3 fits there only once the 3 leaves
    (moving the 4 would not make room); the random bot, which picks uniformly among the legal
    turns, moves that die to the victory-point space and to other action spaces (it may also free
    another space by moving its blocking die)."""
    P, st, side = seat_with("move_die")
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [3, 0, 0]
    block_all_spaces_but(st, ("temple",), seat=3)
    temple = space_of(st, "temple")
    R.put_die(st, temple, 1, 3)
    R.put_die(st, temple, 2, 4)
    moves = [t for t in random_turns(P, st, 0, 300) if t[R.O_CARD] == CARD["move_die"] and t[R.O_SPACE] == temple]
    assert moves
    assert {(int(t[R.O_CARD_ARG]), int(t[R.O_MOVE_INDEX])) for t in moves} == {(temple, 0)}
    destinations = {int(t[R.O_CARD_ARG2]) for t in moves}
    assert space_of(st, "victory_points") in destinations and len(destinations) >= 3



def test_06_destination_is_valued_per_situation():
    """Card 06's destination is the player's: a bot values where the die goes by the dice still to
    be placed this round that it keeps off that space (the lower-die rule, Phase I: "only if the
    number of its pips is less than the lowest number of pips of any other die on that space") -
    another player's 5 and 4 kept off an empty headdress space by the moved 3 count for it, the
    victory-point space keeps nothing off (README reading 9)."""
    P, st, side = seat_with("move_die")
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [3, 0, 0]
    S.players(st)[1, S.P_DICE:S.P_DICE + 3] = [5, 4, 0]
    block_all_spaces_but(st, ("temple", "headdress"), seat=3)
    temple = space_of(st, "temple")
    R.put_die(st, temple, 1, 3)
    w = weights("balanced")
    base = dict(die=0, pips=3, space=temple, action=S.A_TEMPLE, card=CARD["move_die"], card_arg=temple, move_index=0)
    to_vp = option(card_arg2=space_of(st, "victory_points"), **base)
    to_headdress = option(card_arg2=space_of(st, "headdress"), **base)
    to_blocked = option(card_arg2=space_of(st, "exchange"), **base)
    assert B.move_destination_value(P, st, 0, w, to_vp) == 0.0
    assert B.move_destination_value(P, st, 0, w, to_blocked) == 0.0  # a 1 there already keeps them off
    assert B.move_destination_value(P, st, 0, w, to_headdress) == pytest.approx(2 * w[B.W_BLOCK])
    S.players(st)[0, S.P_DICE + 1] = 6  # a die of its own it would keep off too
    assert B.move_destination_value(P, st, 0, w, to_headdress) == pytest.approx(1 * w[B.W_BLOCK])


# ------------------------------------------------------------------ Viracocha 07-09
@pytest.mark.parametrize("pips", [3, 5])
def test_07_ignore_the_lower_die_rule(pips):
    """Card 07: "You may place your die on an action space even if the number of its pips is equal
    or higher than those of any present dice." A 3 or a 5 onto a temple holding a 3."""
    P, st, side = seat_with("ignore_lower")
    temple = space_of(st, "temple")
    R.put_die(st, temple, 1, 3)
    assert not R.die_fits(P, st, temple, pips, False)
    assert R.die_fits(P, st, temple, pips, True)
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=pips, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["ignore_lower"])
    assert st[S.S_TEMPLE + pips - 1] == 0
    assert st[S.S_SPACE_N + temple] == 2 and st[S.S_SPACE_MIN + temple] == 3
    assert_paid(st, 0, before, "ignore_lower", offerings_gained=1)


def test_08_blessing_gives_three_food_and_three_status_only():
    """Card 08 (phase I): "When taking a fire blessing, you take 3 food and advance 3 spaces on
    the status track ... no other benefits from the regular fire blessing" (no god card, no
    offering)."""
    P, st, side = seat_with("blessing_plenty")
    food, status = S.players(st)[0, S.P_FOOD], S.players(st)[0, S.P_STATUS]
    gained = S.stats(side[0])[0, S.STAT_CARD_GAINED:S.STAT_CARD_GAINED + S.N_CARDS].sum()
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=2, space=space_of(st, "temple"), action=S.A_TEMPLE,
         plenty=R.SRC_CARD)
    assert S.players(st)[0, S.P_FOOD] == food + 3 and S.players(st)[0, S.P_STATUS] == status + 3
    assert_paid(st, 0, before, "blessing_plenty")
    assert hand(st, 0) == {}
    assert S.stats(side[0])[0, S.STAT_CARD_GAINED:S.STAT_CARD_GAINED + S.N_CARDS].sum() == gained
    assert R.check_components(P, st) == 0


def test_08_blessing_plenty_in_phase_two():
    """Card 08 (usage phase I/II): a phase-II stone trail (study tile 04) back to Cuzco takes the
    fire blessing as 3 food and 3 status."""
    P, st, side = seat_with("blessing_plenty")
    give_tile(P, st, side, 0, S.STUDY, ABILITY["stone_trail"])
    S.players(st)[0, S.P_LOC] = VILLAGE["I1"]
    st[S.S_ROTATION] = 0  # arm 0 (stone trail, 2 pips) leads to I1
    food, status = S.players(st)[0, S.P_FOOD], S.players(st)[0, S.P_STATUS]
    before = snap(st, 0)
    R.use_ability(P, st, *side, 0, W, use(kind=S.STUDY, ability=ABILITY["stone_trail"],
                                         target=S.CUZCO, plenty=R.SRC_CARD))
    assert S.players(st)[0, S.P_LOC] == S.CUZCO
    assert S.players(st)[0, S.P_FOOD] == food + 3 and S.players(st)[0, S.P_STATUS] == status + 3
    assert_paid(st, 0, before, "blessing_plenty")


def test_09_take_a_tile_from_the_people_discard_too():
    """Card 09: "When taking a people tile, you may search the discard pile for any people tile
    and place it on your mask board" in addition to the tile from the Cuzco board (here a study
    tile from the board and a farm tile from the discard: colours may differ)."""
    P, st, side = seat_with("search_discard")
    R.refill_display(P, st, S.STUDY)
    R.refill_display(P, st, S.FARM)
    g, decks = st, st
    assert g[S.S_STUDY_DISCARD_N] == 6 and g[S.S_FARM_DISCARD_N] == 6
    board_tile = int(st[S.S_STUDY_DISPLAY + 3])
    wanted = int(decks[S.S_FARM_DISCARD + 1])
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=4, space=space_of(st, "study"), action=S.A_STUDY, target=3,
         card=CARD["search_discard"], discard_pos=6 + 1)
    tiles = sorted(int(t) for t in S.players(st)[0, S.P_TILE:S.P_TILE + 12] if t >= 0)
    assert tiles == sorted([board_tile, wanted])
    assert g[S.S_FARM_DISCARD_N] == 5 and g[S.S_STUDY_DISCARD_N] == 6
    assert wanted not in decks[S.S_FARM_DISCARD:S.S_FARM_DISCARD + 5]
    assert_paid(st, 0, before, "search_discard")
    assert R.check_components(P, st) == 0


def test_09_not_playable_with_an_empty_discard_pile():
    """Card 09: "If there is no tile at the discard pile, you cannot play this card." The legal
    turns (sampled by the random bot) offer card 09 only once the discard pile holds tiles."""
    P, st, side = seat_with("search_discard")
    S.players(st)[0, S.P_MEDALS] = 0
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [4, 0, 0]
    block_all_spaces_but(st, ("study",))
    assert st[S.S_STUDY_DISCARD_N] + st[S.S_FARM_DISCARD_N] == 0
    picks = random_turns(P, st, 0, 60)
    assert picks and all(o[R.O_CARD] != CARD["search_discard"] for o in picks)
    R.refill_display(P, st, S.FARM)
    picks = random_turns(P, st, 0, 60)
    assert any(o[R.O_CARD] == CARD["search_discard"] for o in picks)


# ------------------------------------------------------------------ Pacha Mama 10-12
def test_10_delivery_gains_the_imprinted_vp():
    """Card 10: "When delivering a quipu to a village, gain the imprinted VP immediately" (I4
    shows 3 VP); without the card the village VP only count at the end."""
    P, st, side = seat_with("delivery_vp")
    i4 = VILLAGE["I4"]
    st[S.S_ROTATION] = 3  # overlay arm 0 (stone trail, 2 pips) leads to I4
    plain_st, plain_side = clone(st), clone(side)
    vp = S.players(st)[0, S.P_VP]
    fields = dict(die=0, pips=2, space=space_of(st, "stone_trail"), action=S.A_TRAIL, target=i4)
    turn(P, plain_st, plain_side, 0, **fields)
    assert S.players(plain_st)[0, S.P_VP] == vp
    before = snap(st, 0)
    turn(P, st, side, 0, delivery=R.SRC_CARD, **fields)
    assert S.players(st)[0, S.P_LOC] == i4 and S.players(st)[0, S.P_DELIVERED + i4] == 1
    assert S.players(st)[0, S.P_VP] == vp + 3
    assert S.stats(side[0])[0, S.STAT_VP + S.VP_DELIVERY] == 3
    assert_paid(st, 0, before, "delivery_vp")


@pytest.mark.parametrize("card_name, kind", [("extra_study", S.STUDY), ("extra_farm", S.FARM)])
def test_11_15_one_additional_different_tile(card_name, kind):
    """Cards 11 (study) / 15 (farm): "Use 1 additional and different study [farming] tile of
    yours. It must have a different ability." With two identical additional tiles they are used
    as 1 joint usage (2 VP tiles x2 = 4 VP)."""
    P, st, side = seat_with(card_name)
    make_room(st, 0, 3)
    give_tile(P, st, side, 0, kind, ABILITY["food"])
    give_tile(P, st, side, 0, kind, ABILITY["vp"])
    give_tile(P, st, side, 0, kind, ABILITY["vp"])
    food, vp = S.players(st)[0, S.P_FOOD], S.players(st)[0, S.P_VP]
    R.use_ability(P, st, *side, 0, W, use(kind=kind, ability=ABILITY["food"]))
    before = snap(st, 0)
    R.use_ability(P, st, *side, 0, W, use(kind=kind, ability=ABILITY["vp"], extra=R.SRC_CARD))
    assert S.players(st)[0, S.P_FOOD] == food + 1 and S.players(st)[0, S.P_VP] == vp + 4
    assert_paid(st, 0, before, card_name)
    used = S.P_USED_STUDY if kind == S.STUDY else S.P_USED_FARM
    assert S.players(st)[0, used] == ABILITY["food"]


@pytest.mark.parametrize("card_name, kind", [("extra_study", S.STUDY), ("extra_farm", S.FARM)])
def test_11_15_additional_ability_must_differ(card_name, kind):
    """Cards 11 / 15: the additional tile "must have a different ability" - after the food tile
    was used, the bot's legal uses never repeat food, and never use the card on the other kind."""
    P, st, side = seat_with(card_name)
    S.players(st)[0, S.P_MEDALS] = 0
    make_room(st, 0, 2)
    give_tile(P, st, side, 0, kind, ABILITY["food"])
    give_tile(P, st, side, 0, kind, ABILITY["vp"])
    used = S.P_USED_STUDY if kind == S.STUDY else S.P_USED_FARM
    S.players(st)[0, used] = ABILITY["food"]
    S.players(st)[0, S.P_USED_FARM if kind == S.STUDY else S.P_USED_STUDY] = 99
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = bots(["random"] * n)
    seen = set()
    for _ in range(40):
        u, best = np.zeros(R.N_U, np.int64), np.zeros(R.N_U, np.int64)
        if B.choose_use(P, st, look, *lside, 0, Wb[0], kinds[0], u, best):
            seen.add((int(best[R.U_KIND]), int(best[R.U_ABILITY]), int(best[R.U_EXTRA])))
    assert seen == {(kind, ABILITY["vp"], R.SRC_CARD)}


def test_12_priest_returned_to_owner_instead_of_pushed():
    """Card 12: "When placing a priest on an occupied temple step, return the priest to its owner
    instead of pushing him 1 step down" - the priests below stay where they are (Action: Temple
    would push the chain down and expel the one on step 1)."""
    P, st, side = seat_with("priest_return")
    board, pl = st, S.players(st)
    for step, seat in ((3, 1), (2, 2), (1, 3)):
        board[S.S_TEMPLE + step - 1] = seat
        pl[seat, S.P_PRIESTS_HOME] -= 1
    fields = dict(die=0, pips=3, space=space_of(st, "temple"), action=S.A_TEMPLE,
                  bless=NO_BLESS_CARD)
    plain_st, plain_side = clone(st), clone(side)
    turn(P, plain_st, plain_side, 0, **fields)
    assert plain_st[S.S_TEMPLE:S.S_TEMPLE + 3].tolist() == [2, 1, 0]
    assert S.players(plain_st)[3, S.P_PRIESTS_HOME] == 4
    before = snap(st, 0)
    turn(P, st, side, 0, card=CARD["priest_return"], **fields)
    assert board[S.S_TEMPLE:S.S_TEMPLE + 3].tolist() == [3, 2, 0]
    assert pl[1, S.P_PRIESTS_HOME] == 4 and pl[2, S.P_PRIESTS_HOME] == 3
    assert pl[3, S.P_PRIESTS_HOME] == 3 and pl[0, S.P_PRIESTS_HOME] == 3
    assert_paid(st, 0, before, "priest_return", offerings_gained=1)
    assert R.check_components(P, st) == 0


# ------------------------------------------------------------------ Mama Sara 13-15
def test_13_virtual_six_after_a_normal_placement():
    """Card 13 example: "You can place the dice-2 only on action spaces where there are dice 3-6.
    Then, you can use it as if it was a 6." Do not rotate the die: the space's lowest die is 2,
    and the study tile beside 6 pips is taken."""
    P, st, side = seat_with("virtual_six")
    study = space_of(st, "study")
    R.put_die(st, study, 1, 3)
    assert R.die_fits(P, st, study, 2, False)
    tile = int(st[S.S_STUDY_DISPLAY + 5])
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=2, space=study, action=S.A_STUDY, target=5,
         card=CARD["virtual_six"])
    assert S.players(st)[0, S.P_TILE] == tile and st[S.S_STUDY_DISPLAY + 5] == -1
    assert st[S.S_SPACE_MIN + study] == 2
    assert log_events(st, side, R.EV_PLACE)[-1, 1:7].tolist() == [0, study, S.A_STUDY, 2, 0, 6]
    assert_paid(st, 0, before, "virtual_six")


@pytest.mark.parametrize("lowest, allowed", [(3, True), (2, False)])
def test_13_placement_rule_still_applies(lowest, allowed):
    """Card 13 note: "You first have to place the die according to the placement rules" - a 2
    cannot go where a 2 lies, so the legal turns never use card 13 there."""
    P, st, side = seat_with("virtual_six")
    S.players(st)[0, S.P_MEDALS] = 0
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [2, 0, 0]
    block_all_spaces_but(st, ("study",))
    R.put_die(st, space_of(st, "study"), 1, lowest)
    picks = random_turns(P, st, 0, 60)
    on_study = [o for o in picks if o[R.O_SPACE] == space_of(st, "study")]
    assert bool(on_study) == allowed
    with_13 = [o for o in on_study if o[R.O_CARD] == CARD["virtual_six"]]
    assert bool(with_13) == allowed
    if allowed:
        assert {int(o[R.O_TARGET]) for o in with_13} <= set(range(6))


def test_14_jump_to_any_village():
    """Card 14: "your chasqui may 'jump' to any village of your choice, regardless of the number
    of pips and whether it is a stone trail or rope bridge" - from Cuzco with a 1 straight to the
    outer village O6 (not adjacent)."""
    P, st, side = seat_with("jump")
    o6 = VILLAGE["O6"]
    assert not R.can_move(P, st, 0, S.WAY_TRAIL, 1, o6, False)
    assert all(R.can_move(P, st, 0, S.WAY_TRAIL, 1, v, True) for v in range(S.N_VILLAGES))
    quipus = S.players(st)[0, S.P_QUIPU_MASK]
    colour = S.village_colour(st, o6)  # this game's feather at O6 (the pieces are dealt)
    held = S.players(st)[0, S.P_FEATHERS + colour]
    before = snap(st, 0)
    turn(P, st, side, 0, die=0, pips=1, space=space_of(st, "stone_trail"), action=S.A_TRAIL,
         target=o6, card=CARD["jump"])
    assert S.players(st)[0, S.P_LOC] == o6 and S.players(st)[0, S.P_DELIVERED + o6] == 1
    assert S.players(st)[0, S.P_QUIPU_MASK] == quipus - 1
    assert S.players(st)[0, S.P_FEATHERS + colour] == held + 1
    assert_paid(st, 0, before, "jump")
    assert R.check_components(P, st) == 0


def test_phase_one_turns_use_only_phase_one_cards():
    """Time of usage (phase I, II, III, end of the game): "Each god card can only be played and
    used during its designated phase". Holding all 15 cards, the legal phase-I turns (sampled by
    the random bot) only ever play 02, 05, 06, 07, 09, 12, 13, 14 (08 and 10 ride on a blessing
    or a delivery) - never 01, 03, 04, 11 or 15."""
    P, st, side = table()
    clear_hand(st, 0)
    for name in S.CARD_NAMES:
        give_card(st, 0, name)
    S.players(st)[0, S.P_MEDALS] = 0
    R.gain_offerings(st, 0, 4)
    R.refill_display(P, st, S.STUDY)  # a people discard pile, so that 09 can be played
    S.players(st)[0, S.P_DICE:S.P_DICE + 3] = [2, 4, 6]
    R.put_die(st, space_of(st, "temple"), 1, 2)  # 07 / 06 get a space their die does not fit
    played = {int(o[R.O_CARD]) for o in random_turns(P, st, 0, 25)}
    phase_one = {CARD[c] for c in ("slide_up", "extra_turn", "move_die", "ignore_lower",
                                   "search_discard", "priest_return", "virtual_six", "jump")}
    assert played <= phase_one | {-1}
    assert len(played & phase_one) >= 4
