"""Cuzco: the choices the rulebook gives a player are the bot's (issue 14), each with its test.

Each test shows the engine leaving the choice to the bot: a bot whose values favour one option
takes it, and the option the engine used to fix for everybody is no longer forced.
"""
import numpy as np
import pytest

from cuzco_helpers import (
    CARD, MASKS, MISSION, MISSIONS, clear_hand, give_card, set_face_up, space_of, table, weights,
)
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S
from sim.games.cuzco.weights import W_ARM
from sim.games.cuzco import weights as WT
from cuzco_helpers import bots as B_bots
from cuzco_helpers import option as dict_option

SEAT = 0


def without_missions(st, seat=SEAT):
    """Return a seat's missions to the box, so no mission sways its choices."""
    for slot in range(3):
        if S.players(st)[seat, S.P_MISSION + slot] >= 0:
            S.players(st)[seat, S.P_MISSION + slot] = -1
            st[S.S_BOX_MISSIONS] += 1


def set_offerings(st, seat, n):
    """A seat holds n offerings, from or to the common supply."""
    move = n - S.players(st)[seat, S.P_OFFERINGS]
    S.players(st)[seat, S.P_OFFERINGS] += move
    st[S.S_OFFERING_SUPPLY] -= move


def face_up_everywhere(st, names):
    for name in names:
        set_face_up(st, name)


# ---------------------------------------------------------------- which face-up god card to take

def test_god_card_taken_is_the_one_the_bot_values_most_with_its_missions():
    """Fire blessing / exchange / people tile 07: "1 god card" - any of the five face-up cards.
    Without missions the bot takes the card it prefers; with mission M-33 (2 Mama Quilia cards in
    hand) one short, it takes the face-up Mama Quilia card instead, though it likes it less."""
    P, st, side = table()
    clear_hand(st, SEAT)
    without_missions(st)
    face_up_everywhere(st, ("double_people", "move_die", "ignore_lower", "delivery_vp", "jump"))
    w = weights("balanced")
    assert w[B.W_CARD_PREF + CARD["jump"]] > w[B.W_CARD_PREF + CARD["move_die"]]
    favourite = max(range(S.N_GODS), key=lambda g: w[B.W_CARD_PREF + st[S.S_GOD_UP + g]])
    assert R.god_pile_choice(P, st, SEAT, w) == favourite
    give_card(st, SEAT, "extra_turn")  # one Mama Quilia card in hand
    S.players(st)[SEAT, S.P_MISSION] = MISSION["m33"]
    st[S.S_BOX_MISSIONS] -= 1
    assert R.mission_shortfall(P, st, SEAT, MISSION["m33"]) == 1
    assert R.god_pile_choice(P, st, SEAT, w) == CARD["move_die"] // 3


def test_a_second_copy_of_a_card_is_worth_less():
    """The value of a card in hand falls for copies already held (position value: +30% each), so
    a bot holding the card it likes best takes its second favourite."""
    P, st, side = table()
    clear_hand(st, SEAT)
    without_missions(st)
    face_up_everywhere(st, ("double_people", "move_die", "ignore_lower", "delivery_vp", "jump"))
    w = weights("balanced")
    ranked = sorted(range(S.N_GODS), key=lambda g: -w[B.W_CARD_PREF + st[S.S_GOD_UP + g]])
    top, second = (int(st[S.S_GOD_UP + g]) for g in ranked[:2])
    if w[B.W_CARD_PREF + second] <= 0.3 * w[B.W_CARD_PREF + top]:
        pytest.skip("weights make a second copy still the best")
    give_card(st, SEAT, S.CARD_NAMES[top])
    assert R.god_pile_choice(P, st, SEAT, w) == ranked[1]


# ---------------------------------------------------------------- any-colour feathers and slots

def fresh_mask(st, seat=SEAT):
    """No feathers on the seat's mask board (returned to the supply)."""
    pl = S.players(st)
    for slot in range(S.N_SLOTS):
        pl[seat, S.P_SLOT + slot] = 0
    for c in range(S.N_COLOURS):
        st[S.S_FEATHER_SUPPLY + c] += pl[seat, S.P_FEATHERS + c]
        pl[seat, S.P_FEATHERS + c] = 0


def test_any_colour_feather_follows_the_feather_missions():
    """Tile 03 / the exchange: a feather "of any colour". With no mission the bot starts the pair
    of its cheapest circlet; with a mission asking for 3 feathers of another colour (M-01..M-04) on
    its mask board it takes that colour."""
    P, st, side = table()
    without_missions(st)
    fresh_mask(st)
    w = weights("balanced")
    mask = MASKS[S.players(st)[SEAT, S.P_MASK]]
    assert R.feather_colour_choice(P, st, SEAT, w) in (mask[0], mask[1])
    label, colour = next((label, int(MISSIONS[MISSION[label], S.MF_ARG1])) for label in ("m01", "m02", "m03", "m04")
                         if MISSIONS[MISSION[label], S.MF_ARG1] not in (mask[0], mask[1]))
    S.players(st)[SEAT, S.P_MISSION] = MISSION[label]
    st[S.S_BOX_MISSIONS] -= 1
    assert R.feather_colour_choice(P, st, SEAT, w) == colour


def test_feather_slot_is_the_bots_choice():
    """A feather may go in any free slot of its colour: the bot completes the pair it values most
    (the circlet of the most VP), not the cheapest; with no pair to complete, the cheapest."""
    P, st, side = table()
    without_missions(st)
    fresh_mask(st)
    pl = S.players(st)
    mask = MASKS[pl[SEAT, S.P_MASK]]
    colour = mask[0]
    slots = [s for s in range(S.N_SLOTS) if mask[s] == colour]
    assert len(slots) == 3
    w = weights("balanced")
    assert R.feather_slot_choice(P, st, SEAT, w, colour) == slots[0]
    for s in slots[:2]:  # the partners of the first two slots of this colour are filled
        partner = s ^ 1
        pl[SEAT, S.P_SLOT + partner] = 1
        pl[SEAT, S.P_FEATHERS + mask[partner]] += 1
        st[S.S_FEATHER_SUPPLY + mask[partner]] -= 1
    assert P[S.R_CIRCLET_VP + slots[1] // 2] > P[S.R_CIRCLET_VP + slots[0] // 2]
    assert R.feather_slot_choice(P, st, SEAT, w, colour) == slots[1]
    assert R.take_chosen_feather(P, st, *side, SEAT, w, colour)
    assert pl[SEAT, S.P_SLOT + slots[1]] == 1 and pl[SEAT, S.P_SLOT + slots[0]] == 0
    assert R.check_components(P, st) == 0


def test_feather_slot_starting_a_pair_is_valued_per_situation():
    """Where a feather goes is the player's ("place it in a matching color slot"): starting a pair
    is worth something only if the partner's colour can still come - with none of it left in the
    supply, the bot starts the next pair whose partner it can still get (README reading 5)."""
    P, st, side = table()
    without_missions(st)
    fresh_mask(st)
    pl = S.players(st)
    mask = MASKS[pl[SEAT, S.P_MASK]]
    colour = mask[0]
    slots = [s for s in range(S.N_SLOTS) if mask[s] == colour]
    w = weights("balanced")
    assert R.feather_slot_choice(P, st, SEAT, w, colour) == slots[0]
    gone = mask[slots[0] ^ 1]
    expected = next(s for s in slots if mask[s ^ 1] != gone)
    st[S.S_FEATHER_SUPPLY + gone] = 0
    assert R.feather_slot_choice(P, st, SEAT, w, colour) == expected


# ---------------------------------------------------------------- turning the overlay

@pytest.mark.parametrize("arm_weight, pips", [(-1.0, 2), (1.0, 6), (0.0, 2)])
def test_overlay_arm_turned_is_the_bots_choice(arm_weight, pips):
    """A chasqui back in Cuzco "may rotate the overlay in any way you want" before leaving: with a
    6 on the stone trail any trail arm (2, 4 or 6 pips) can be turned to the village; a bot
    weighing the way back cheap takes the 2-pip arm, one weighing it dear the 6-pip arm."""
    P, st, side = table()
    w = weights("balanced")
    w[W_ARM] = arm_weight
    S.players(st)[SEAT, S.P_LOC] = S.CUZCO
    S.players(st)[SEAT, S.P_MAY_ROTATE] = 1
    dest = 2
    R.move_chasqui(P, st, *side, SEAT, w, dest, S.WAY_TRAIL, 6, 0, R.SRC_NONE, R.SRC_NONE)
    arm = R.arm_to(P, st, dest)
    assert S.arm_field(P, arm, S.RF_KIND) == S.WAY_TRAIL
    assert S.arm_field(P, arm, S.RF_PIPS) == pips


@pytest.mark.parametrize("tiles, pips", [(0, 2), (2, 4), (3, 6)])
def test_overlay_arm_is_valued_per_situation(tiles, pips):
    """The arm turned to the village is the chasqui's way back to Cuzco; a bot values it by the
    chance of getting back across it (rules.arm_value): with no stone-trail tile the cheapest trail,
    with two (a 4-pip trail in phase II) the 4-pip arm is as sure and dearer to opponents' dice,
    with three (any trail) the 6-pip arm (a small positive `arm` weight breaks the tie)."""
    from cuzco_helpers import ABILITY, give_tile, make_room
    P, st, side = table()
    w = weights("balanced")
    w[W_ARM] = 0.1
    w[WT.W_CUZCO] = 1.0
    make_room(st, SEAT, 3)
    for _ in range(tiles):
        give_tile(P, st, side, SEAT, S.FARM, ABILITY["stone_trail"])
    S.players(st)[SEAT, S.P_LOC] = S.CUZCO
    S.players(st)[SEAT, S.P_MAY_ROTATE] = 1
    R.move_chasqui(P, st, *side, SEAT, w, 2, S.WAY_TRAIL, 6, 0, R.SRC_NONE, R.SRC_NONE)
    arm = R.arm_to(P, st, 2)
    assert S.arm_field(P, arm, S.RF_KIND) == S.WAY_TRAIL and S.arm_field(P, arm, S.RF_PIPS) == pips


def test_jump_from_cuzco_may_turn_any_arm():
    """Mama Sara 14 and Movement: a chasqui back in Cuzco "may rotate the overlay in any way you
    want" - a jump (made on the rope-bridge space) may leave any arm, a stone trail too, pointing at
    its village: a bot weighing the way back dear takes the 6-pip trail (README reading 23)."""
    from test_cuzco_gods import turn
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "jump")
    w = weights("balanced")
    w[W_ARM] = 1.0
    S.players(st)[SEAT, S.P_LOC] = S.CUZCO
    S.players(st)[SEAT, S.P_MAY_ROTATE] = 1
    R.perform_turn(P, st, *side, SEAT, w, dict_option(die=0, pips=1, space=space_of(st, "rope_bridge"),
                                                     action=S.A_BRIDGE, target=3, card=CARD["jump"]))
    arm = R.arm_to(P, st, 3)
    assert S.arm_field(P, arm, S.RF_KIND) == S.WAY_TRAIL and S.arm_field(P, arm, S.RF_PIPS) == 6
    assert S.players(st)[SEAT, S.P_LOC] == 3 and S.players(st)[SEAT, S.P_MAY_ROTATE] == 0


def test_jump_from_cuzco_to_an_outer_village_turns_the_overlay():
    """Mama Sara 14 from Cuzco to an outer village: the chasqui may still rotate the overlay as it
    leaves ("in any way you want"); the bot turns it so that the arm at the destination's inner
    neighbour is the way home it values most (O6's neighbour I6 gets the 1-pip bridge for a bot
    weighing the way back cheap)."""
    from cuzco_helpers import VILLAGE
    P, st, side = table()
    w = weights("balanced")
    w[W_ARM] = -1.0
    st[S.S_ROTATION] = 0
    S.players(st)[SEAT, S.P_LOC] = S.CUZCO
    S.players(st)[SEAT, S.P_MAY_ROTATE] = 1
    R.move_chasqui(P, st, *side, SEAT, w, VILLAGE["O6"], S.WAY_ANY, 6, 0, R.SRC_NONE, R.SRC_NONE)
    k = R.arm_to(P, st, VILLAGE["I6"])
    assert S.arm_field(P, k, S.RF_PIPS) == 1 and S.arm_field(P, k, S.RF_KIND) == S.WAY_BRIDGE
    assert S.players(st)[SEAT, S.P_MAY_ROTATE] == 0


# ---------------------------------------------------------------- paying for a card

def test_a_card_in_hand_and_face_up_may_be_paid_either_way():
    """Cost: a card from the hand and an offering, or (Inti medal) a medal and the face-up card.
    When both can pay, both are options: the random bot, uniform over the legal turns, uses each."""
    from test_cuzco_gods import random_turns
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "virtual_six")
    set_face_up(st, "virtual_six")
    S.players(st)[SEAT, S.P_MEDALS] = 1
    S.players(st)[SEAT, S.P_DICE:S.P_DICE + 3] = [2, 0, 0]
    assert R.payment(st, SEAT, CARD["virtual_six"], R.SRC_CARD) == R.SRC_CARD
    assert R.payment(st, SEAT, CARD["virtual_six"], R.SRC_MEDAL) == R.SRC_MEDAL
    turns = [t for t in random_turns(P, st, SEAT, 300) if t[R.O_CARD] == CARD["virtual_six"]]
    assert {int(t[R.O_MEDAL]) for t in turns} == {0, 1}


# ---------------------------------------------------------------- pututu tiles

def test_pututu_tiles_are_worth_nothing_after_the_last_placement():
    """Cuzco Module 1: "Any unused pututu tiles are worthless at the end of the game." A bot
    values a tile by its weight while it has a die left to place after the current one, and at
    nothing when placing its last die of the last round."""
    P, st, side = table()
    w = weights("balanced")
    st[S.S_PHASE] = 1
    S.players(st)[SEAT, S.P_DICE:S.P_DICE + 3] = [4, 0, 0]
    assert B.pututu_worth(P, st, SEAT, w, 1) == w[B.W_PUTUTU]
    st[S.S_ROUND] = P[S.R_ROUNDS] - 1
    assert B.pututu_worth(P, st, SEAT, w, 1) == 0.0
    assert B.pututu_worth(P, st, SEAT, w, 0) == w[B.W_PUTUTU]
    S.players(st)[SEAT, S.P_DICE:S.P_DICE + 3] = [4, 5, 0]
    assert B.pututu_worth(P, st, SEAT, w, 1) == w[B.W_PUTUTU]


# ---------------------------------------------------------------- several cards in one turn

def test_two_cards_in_one_turn_each_paid():
    """A turn may play several god cards, each paid for (the rulebook forbids nothing of the
    kind): Mama Sara 13 makes a 2 a virtual 6 on the temple, where Pacha Mama 12 returns the
    priest on step 6 to its owner instead of pushing it down; two offerings are spent."""
    from test_cuzco_gods import NO_BLESS_CARD, turn
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "virtual_six")
    give_card(st, SEAT, "priest_return")
    pl = S.players(st)
    set_offerings(st, SEAT, 2)
    top = S.N_TEMPLE - 1
    st[S.S_TEMPLE + top] = 1
    pl[1, S.P_PRIESTS_HOME] -= 1
    home = int(pl[1, S.P_PRIESTS_HOME])
    supply = int(st[S.S_OFFERING_SUPPLY])
    turn(P, st, side, SEAT, die=0, pips=2, space=space_of(st, "temple"), action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["virtual_six"], card2=CARD["priest_return"])
    assert st[S.S_TEMPLE + top] == SEAT
    assert st[S.S_TEMPLE + top - 1] != 1 and pl[1, S.P_PRIESTS_HOME] == home + 1
    assert pl[SEAT, S.P_OFFERINGS] == 1 and st[S.S_OFFERING_SUPPLY] == supply + 2 - 1  # the blessing's offering
    assert pl[SEAT, S.P_HAND + CARD["virtual_six"]] == 0 and pl[SEAT, S.P_HAND + CARD["priest_return"]] == 0
    assert R.check_components(P, st) == 0


def test_the_bots_offer_a_placement_card_with_an_action_card():
    """Viracocha 07 places a die that does not fit; Mama Sara 13 then makes it a 6: with both in
    hand and two offerings, the random bot (uniform over the legal turns) plays them together,
    and never two cards it cannot pay for."""
    from test_cuzco_gods import block_all_spaces_but, random_turns
    P, st, side = table()
    clear_hand(st, SEAT)
    give_card(st, SEAT, "ignore_lower")
    give_card(st, SEAT, "virtual_six")
    pl = S.players(st)
    pl[SEAT, S.P_MEDALS] = 0
    pl[SEAT, S.P_DICE:S.P_DICE + 3] = [3, 0, 0]
    block_all_spaces_but(st, (), seat=2)
    set_offerings(st, SEAT, 2)
    pairs = {(int(t[R.O_CARD]), int(t[R.O_CARD2])) for t in random_turns(P, st, SEAT, 300)}
    assert (CARD["ignore_lower"], CARD["virtual_six"]) in pairs
    set_offerings(st, SEAT, 1)
    pairs = {(int(t[R.O_CARD]), int(t[R.O_CARD2])) for t in random_turns(P, st, SEAT, 300)}
    assert all(second == -1 for _, second in pairs)


# ---------------------------------------------------------------- paying with the hand copy or a medal (issue 35)

def both_ways_open(st, names, medals=2, offerings=3):
    """SEAT holds one card of each name and a medal or two, and each is face up too."""
    clear_hand(st, SEAT)
    for name in names:
        give_card(st, SEAT, name)
        set_face_up(st, name)
    S.players(st)[SEAT, S.P_MEDALS] = medals
    set_offerings(st, SEAT, offerings)


@pytest.mark.parametrize("name, spaces", [("blessing_plenty", ("temple",)),
                                          ("delivery_vp", ("stone_trail", "rope_bridge")),
                                          ("extra_turn", ())])
def test_phase_one_further_card_may_be_paid_either_way(name, spaces):
    """Inti medal: "By spending 1 Inti medal, you may use the ability of 1 of the face up god
    cards ... In this case you do not spend an offering." Viracocha 08 on a turn's fire blessing,
    Pacha Mama 10 on its delivery and Mama Quilia 05 after it are paid from the hand or through
    the medal, both options when both can pay: the random bot, uniform over the legal turns, uses
    each (README reading 15)."""
    from test_cuzco_gods import block_all_spaces_but, random_turns
    P, st, side = table()
    # the other gods show cards of other phases, so the medal has nothing else to buy
    face_up_everywhere(st, ["double_people", "mission_discount", "double_good", "extra_study", "extra_farm"])
    both_ways_open(st, [name], medals=1)
    S.players(st)[SEAT, S.P_DICE:S.P_DICE + 3] = [4, 0, 0]
    if spaces:
        block_all_spaces_but(st, spaces)
    ways = set()
    for t in random_turns(P, st, SEAT, 200):
        if name == "blessing_plenty" and t[R.O_PLENTY] != R.SRC_NONE:
            ways.add(int(t[R.O_PLENTY]))
        elif name == "delivery_vp" and t[R.O_DELIVERY] != R.SRC_NONE:
            ways.add(int(t[R.O_DELIVERY]))
        elif name == "extra_turn" and t[R.O_CARD] == CARD["extra_turn"]:
            ways.add(R.SRC_MEDAL if t[R.O_MEDAL] else R.SRC_CARD)
    assert ways == {R.SRC_CARD, R.SRC_MEDAL}


def random_uses(P, st, n_draws):
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = B_bots(["random"] * n)
    out = []
    for _ in range(n_draws):
        u, best = np.zeros(R.N_U, np.int64), np.zeros(R.N_U, np.int64)
        if B.choose_use(P, st, look, *lside, SEAT, Wb[SEAT], kinds[SEAT], u, best):
            out.append(best.copy())
    return out


@pytest.mark.parametrize("name, field", [("double_people", "U_DOUBLE"), ("extra_study", "U_EXTRA"),
                                         ("extra_farm", "U_EXTRA")])
def test_phase_two_card_may_be_paid_either_way(name, field):
    """Inti medal (as above): Iliapa 01 and the extra use of Pacha Mama 11 / Mama Sara 15 in phase
    II are paid from the hand or through the medal, both options when both can pay."""
    from cuzco_helpers import ABILITY, give_tile, make_room
    P, st, side = table()
    both_ways_open(st, [name], medals=1)
    make_room(st, SEAT, 2)
    kind = S.FARM if name == "extra_farm" else S.STUDY
    give_tile(P, st, side, SEAT, kind, ABILITY["vp"])
    give_tile(P, st, side, SEAT, kind, ABILITY["offering"])
    if field == "U_EXTRA":
        S.players(st)[SEAT, S.P_USED_STUDY if kind == S.STUDY else S.P_USED_FARM] = ABILITY["offering"]
    ways = {int(u[getattr(R, field)]) for u in random_uses(P, st, 120)} - {R.SRC_NONE}
    assert ways == {R.SRC_CARD, R.SRC_MEDAL}


def test_phase_two_08_by_medal_after_a_medal_paid_01():
    """Inti medal: nothing limits the medals a player spends, one face-up card each: after Iliapa 01
    through a medal, Viracocha 08 (another god's face-up card) may take a second medal on the
    use's fire blessing (a circlet activated by study tile 09)."""
    from cuzco_helpers import ABILITY, give_tile, make_room
    P, st, side = table()
    both_ways_open(st, [], medals=2)
    set_face_up(st, "double_people")
    set_face_up(st, "blessing_plenty")
    make_room(st, SEAT, 1)
    give_tile(P, st, side, SEAT, S.STUDY, ABILITY["circlet"])
    pl = S.players(st)
    for slot in (0, 1):  # circlet 1 ready: both its feather slots filled
        if pl[SEAT, S.P_SLOT + slot] == 0:
            colour = MASKS[pl[SEAT, S.P_MASK], slot]
            pl[SEAT, S.P_SLOT + slot] = 1
            pl[SEAT, S.P_FEATHERS + colour] += 1
            st[S.S_FEATHER_SUPPLY + colour] -= 1
    uses = random_uses(P, st, 200)
    assert any(u[R.U_DOUBLE] == R.SRC_MEDAL and u[R.U_PLENTY] == R.SRC_MEDAL for u in uses)
    both = [u for u in uses if u[R.U_DOUBLE] == R.SRC_MEDAL and u[R.U_PLENTY] == R.SRC_MEDAL][0]
    R.use_ability(P, st, *side, SEAT, weights("balanced"), both)
    assert pl[SEAT, S.P_MEDALS] == 0
    assert R.check_components(P, st) == 0


def test_phase_three_03_may_be_paid_either_way_and_the_bot_weighs_them():
    """Iliapa 03 (phase III) from the hand or through the medal: both are options (the random bot
    uses each), and a heuristic bot weighs them: one that values a medal highly pays from the
    hand, one that values holding the card highly pays with the medal."""
    from cuzco_helpers import set_market
    P, st, side = table()
    both_ways_open(st, ["double_good"], medals=1)
    st[S.S_PHASE] = 3
    set_market(st, 0, "jewelry")
    S.players(st)[SEAT, S.P_FOOD] = 8
    st[S.S_FOOD_SUPPLY] -= 8
    without_missions(st)
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = B_bots(["random"] * n)
    ways = {B.choose_good(P, st, look, *lside, SEAT, Wb[SEAT], kinds[SEAT])[1] for _ in range(80)}
    assert {R.SRC_CARD, R.SRC_MEDAL} <= ways
    w = weights("balanced").copy()
    w[WT.W_MEDAL] = 50.0
    assert B.choose_good(P, st, look, *lside, SEAT, w, B.KIND_HEURISTIC) == (0, R.SRC_CARD)
    w[WT.W_MEDAL] = 0.0
    w[WT.W_CARD_PREF + CARD["double_good"]] = 50.0
    assert B.choose_good(P, st, look, *lside, SEAT, w, B.KIND_HEURISTIC) == (0, R.SRC_MEDAL)


# ---------------------------------------------------------------- which tile slides, which tile 09 takes (issue 35)

def mask_tiles(P, st, side, specs, seat=SEAT):
    """Put tiles (kind, ability name, value, slid) on a seat's empty mask board; mask indices."""
    from cuzco_helpers import ABILITY, give_tile, make_room
    pl = S.players(st)
    make_room(st, seat, len(specs))
    out = []
    for kind, name, value, slid in specs:
        t = give_tile(P, st, side, seat, kind, ABILITY[name], value=value)
        i = [k for k in range(12) if pl[seat, S.P_TILE + k] == t][0]
        pl[seat, S.P_SLID + i] = slid
        out.append(i)
    return out


@pytest.mark.parametrize("status, rnd, slid_value", [(14, 0, 1), (0, 5, 3)])
def test_exchange_slides_down_the_tile_the_bot_values(status, rnd, slid_value):
    """Action: Exchange - "slide down 1 of your study tiles" is the player's pick (README reading
    13): near the status track's end (space 14 of 15) a 3 and a 1 give the same one space, so the
    bot keeps the 3 for later; in the last round, with the track empty, it takes the 3 spaces."""
    P, st, side = table()
    without_missions(st)
    a, b = mask_tiles(P, st, side, [(S.STUDY, "vp", 3, 0), (S.STUDY, "food", 1, 0)])
    S.players(st)[SEAT, S.P_STATUS] = status
    st[S.S_ROUND] = rnd
    w = weights("balanced")
    assert R.slide_down(P, st, side[0], SEAT, w, S.STUDY, 1) == slid_value
    slid = a if slid_value == 3 else b
    assert S.players(st)[SEAT, S.P_SLID + slid] == 1


def test_02_slides_up_by_kind_and_missions():
    """Iliapa 02 - "slide up any 2 people tiles" is the player's pick: with mission 17 (3 slid
    study tiles) met, the bot slides up its slid farm tile, not the dearer study tiles, and
    leaves the study tiles down (sliding one up would break the mission; the card says "may")."""
    P, st, side = table()
    without_missions(st)
    idx = mask_tiles(P, st, side, [(S.STUDY, "vp", 3, 1), (S.STUDY, "food", 3, 1), (S.STUDY, "status", 2, 1),
                                   (S.FARM, "food", 1, 1)])
    S.players(st)[SEAT, S.P_MISSION] = MISSION["m17"]
    assert R.mission_shortfall(P, st, SEAT, MISSION["m17"]) == 0
    R.slide_up(P, st, side[0], SEAT, weights("balanced"), 2)
    assert [int(S.players(st)[SEAT, S.P_SLID + i]) for i in idx] == [1, 1, 1, 0]
    # without the mission, the two most valuable go up
    P, st, side = table()
    without_missions(st)
    idx = mask_tiles(P, st, side, [(S.STUDY, "vp", 3, 1), (S.STUDY, "food", 3, 1), (S.STUDY, "status", 2, 1),
                                   (S.FARM, "food", 1, 1)])
    R.slide_up(P, st, side[0], SEAT, weights("balanced"), 2)
    assert [int(S.players(st)[SEAT, S.P_SLID + i]) for i in idx] == [0, 0, 1, 1]


def test_09_discard_tile_follows_kind_and_missions():
    """Viracocha 09 - "you may search the discard pile for any people tile" is the player's pick:
    with mission 16 (3 farm tiles of different abilities) one short, the bot takes the farm tile
    that completes it over a study tile of an ability it likes as much; without the mission, the
    study tile (the first among equals)."""
    from cuzco_helpers import ABILITY, PEOPLE
    P, st, side = table()
    without_missions(st)
    mask_tiles(P, st, side, [(S.FARM, "vp", 1, 0), (S.FARM, "food", 1, 0)])
    study = next(t for t in range(PEOPLE.shape[0]) if PEOPLE[t, S.TF_KIND] == S.STUDY
                 and PEOPLE[t, S.TF_ABILITY] == ABILITY["circlet"] and PEOPLE[t, S.TF_VALUE] == 2)
    farm = next(t for t in range(PEOPLE.shape[0]) if PEOPLE[t, S.TF_KIND] == S.FARM
                and PEOPLE[t, S.TF_ABILITY] == ABILITY["circlet"] and PEOPLE[t, S.TF_VALUE] == 2)
    st[S.S_STUDY_DISCARD], st[S.S_STUDY_DISCARD_N] = study, 1
    st[S.S_FARM_DISCARD], st[S.S_FARM_DISCARD_N] = farm, 1
    w = weights("balanced")
    assert R.best_discard_tile(P, st, SEAT, w) == 0  # the study tile (study first in the list)
    S.players(st)[SEAT, S.P_MISSION] = MISSION["m16"]
    assert R.mission_shortfall(P, st, SEAT, MISSION["m16"]) == 1
    assert R.best_discard_tile(P, st, SEAT, w) == 1  # the farm tile


# ---------------------------------------------------------------- a third card, a second medal on one god (issue 35)

def on_top_of_pile(st, card_name):
    """Make a card with this ability the next card of its god's draw pile (its top, turned up next)."""
    card = CARD[card_name]
    god = card // 3
    base, n = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS, st[S.S_GOD_PILE_N + god]
    for i in range(n):
        if st[base + i] == card:
            st[base + i], st[base + n - 1] = st[base + n - 1], st[base + i]
            return
    raise LookupError(card_name)


def test_three_action_cards_in_one_turn_07_13_12():
    """Cost: "To use a god card, you have to spend 1 offering when playing it"; nothing limits the
    cards a turn plays, and each names its moment: 07 "You may place your die on an action space
    even if the number of its pips is equal or higher than those of any present dice", 13 "When
    placing your die on an action space, you may use it as if it had 6 pips", 12 "When placing a
    priest on an occupied temple step, return the priest to its owner instead of pushing him 1 step
    down". A 3 goes on the temple over a 1, counts as a 6, and sends the priest on step 6 home:
    three offerings spent (and 05 after the three, a fourth). The random bot (uniform over the
    legal turns) plays the three together with three offerings, never with two."""
    from test_cuzco_gods import NO_BLESS_CARD, block_all_spaces_but, random_turns, turn
    names = ("ignore_lower", "virtual_six", "priest_return")
    P, st, side = table()
    clear_hand(st, SEAT)
    for name in names + ("extra_turn",):
        give_card(st, SEAT, name)
    pl = S.players(st)
    pl[SEAT, S.P_MEDALS] = 0
    top = S.N_TEMPLE - 1
    st[S.S_TEMPLE + top] = 1
    pl[1, S.P_PRIESTS_HOME] -= 1
    block_all_spaces_but(st, ("study",), seat=2)
    set_offerings(st, SEAT, 4)
    before = (st.copy(), pl[1, S.P_PRIESTS_HOME])
    opt = turn(P, st, side, SEAT, die=0, pips=3, space=space_of(st, "temple"), action=S.A_TEMPLE, bless=NO_BLESS_CARD,
               card=CARD["ignore_lower"], card2=CARD["virtual_six"], card3=CARD["priest_return"],
               card4=CARD["extra_turn"])
    assert st[S.S_TEMPLE + top] == SEAT and pl[1, S.P_PRIESTS_HOME] == before[1] + 1
    assert all(pl[SEAT, S.P_HAND + CARD[name]] == 0 for name in names + ("extra_turn",))
    assert pl[SEAT, S.P_OFFERINGS] == 1  # four spent, one from the blessing
    assert R.plays(opt, CARD["extra_turn"]) and R.check_components(P, st) == 0
    st[:] = before[0]
    pl[SEAT, S.P_DICE:S.P_DICE + 3] = [3, 0, 0]
    block_all_spaces_but(st, (), seat=2)
    triple = (CARD["ignore_lower"], CARD["virtual_six"], CARD["priest_return"])
    played = {(int(t[R.O_CARD]), int(t[R.O_CARD2]), int(t[R.O_CARD3])) for t in random_turns(P, st, SEAT, 300)}
    assert triple in played
    set_offerings(st, SEAT, 2)
    played = {(int(t[R.O_CARD]), int(t[R.O_CARD2]), int(t[R.O_CARD3])) for t in random_turns(P, st, SEAT, 300)}
    assert all(third == -1 for _, _, third in played)


def follow_up_table(next_card):
    """SEAT can only reach the temple with Viracocha 07 (every space holds a 1), paid with one of
    its two medals (no offering); `next_card` is Viracocha's next card, turned up by that medal."""
    from test_cuzco_gods import block_all_spaces_but
    P, st, side = table()
    clear_hand(st, SEAT)
    without_missions(st)
    set_offerings(st, SEAT, 0)
    face_up_everywhere(st, ["double_people", "mission_discount", "ignore_lower", "extra_study", "extra_farm"])
    on_top_of_pile(st, next_card)
    pl = S.players(st)
    pl[SEAT, S.P_MEDALS] = 2
    pl[SEAT, S.P_DICE:S.P_DICE + 3] = [3, 0, 0]
    block_all_spaces_but(st, (), seat=2)
    return P, st, side


def test_a_second_medal_on_one_god_uses_the_card_the_first_turned_up():
    """Inti medal: "By spending 1 Inti medal, you may use the ability of 1 of the face up god
    cards. Place the used card on the discard pile, and remove the medal from the game." Nothing
    limits the medals a turn spends, so the card a medal turns up may be bought by a second medal
    when its moment comes: 07 by medal puts a die on the temple, Viracocha's next card, 08, comes
    up, and on the priest's fire blessing 08 ("you take 3 food and advance 3 spaces on the status
    track") is used by the second medal when the bot planned it; with another card turned up the
    plan does nothing. The bot plans it from 08's direct effects: a bot that values food and
    status takes it, one that does not keeps the medal (README reading 15)."""
    from test_cuzco_gods import NO_BLESS_CARD, turn
    for planned in (True, False):
        P, st, side = follow_up_table("blessing_plenty")
        pl = S.players(st)
        food, status = int(pl[SEAT, S.P_FOOD]), int(pl[SEAT, S.P_STATUS])
        turn(P, st, side, SEAT, die=0, pips=3, space=space_of(st, "temple"), action=S.A_TEMPLE, bless=NO_BLESS_CARD,
             card=CARD["ignore_lower"], medal=1, follow=R.FOLLOW_PLENTY if planned else 0)
        choice = side[0][S.REC_STATS + SEAT * S.N_STAT + S.STAT_CHOICE:][:S.N_CHOICE]
        if planned:
            assert pl[SEAT, S.P_MEDALS] == 0 and pl[SEAT, S.P_FOOD] == food + 3 and pl[SEAT, S.P_STATUS] == status + 3
            assert CARD["blessing_plenty"] in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]]
            assert choice[S.CH_FOLLOW_TAKEN] == 1 and choice[S.CH_FOLLOW_DECLINED] == 0
        else:
            assert pl[SEAT, S.P_MEDALS] == 1 and pl[SEAT, S.P_FOOD] == food + 1 and pl[SEAT, S.P_STATUS] == status
            assert st[S.S_GOD_UP + CARD["blessing_plenty"] // 3] == CARD["blessing_plenty"]
            assert choice[S.CH_FOLLOW_TAKEN] == 0 and choice[S.CH_FOLLOW_DECLINED] == 1
        assert R.check_components(P, st) == 0
    P, st, side = follow_up_table("search_discard")  # another card comes up: the plan does nothing
    turn(P, st, side, SEAT, die=0, pips=3, space=space_of(st, "temple"), action=S.A_TEMPLE, bless=NO_BLESS_CARD,
         card=CARD["ignore_lower"], medal=1, follow=R.FOLLOW_PLENTY)
    assert S.players(st)[SEAT, S.P_MEDALS] == 1 and R.check_components(P, st) == 0
    # the bot: the temple turn (priests weigh much here), and 08 planned or not by its weights
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, _ = B_bots(["balanced"] * n)
    for food_status, expect in ((3.0, R.FOLLOW_PLENTY), (0.0, 0)):
        P, st, side = follow_up_table("blessing_plenty")
        w = weights("balanced").copy()
        w[WT.W_PRIEST] = 20.0
        w[WT.W_MEDAL] = 0.0
        w[WT.W_FOOD] = w[WT.W_STATUS] = food_status
        opt, best = np.zeros(R.N_O, np.int64), np.zeros(R.N_O, np.int64)
        assert B.choose_turn(P, st, look, *lside, SEAT, w, kinds[SEAT], opt, best, False)
        assert best[R.O_CARD] == CARD["ignore_lower"] and best[R.O_MEDAL] == 1 and best[R.O_ACTION] == S.A_TEMPLE
        assert best[R.O_PLENTY] == R.SRC_NONE  # 08 was hidden when the turn was chosen
        assert best[R.O_FOLLOW] & R.FOLLOW_PLENTY == expect


def test_a_second_medal_on_mama_quilia_05_after_a_medal_paid_06():
    """Inti medal (as above) and 05: "After your turn, immediately play another turn": 06 by medal
    moves the die that blocks the temple, Mama Quilia's next card, 05, comes up, and after the
    turn the second medal buys it when the bot planned it: the turn as performed plays 05, so the
    extra turn follows (rounds)."""
    from test_cuzco_gods import NO_BLESS_CARD, turn
    P, st, side = follow_up_table("extra_turn")
    set_face_up(st, "move_die")
    on_top_of_pile(st, "extra_turn")
    temple = space_of(st, "temple")
    study = space_of(st, "study")
    st[S.S_SPACE_N + study] = 0  # an empty space for the extra turn
    R.recompute_space_min(st, study)
    opt = turn(P, st, side, SEAT, die=0, pips=3, space=temple, action=S.A_TEMPLE, bless=NO_BLESS_CARD,
               card=CARD["move_die"], medal=1, card_arg=temple, move_index=0, card_arg2=space_of(st, "exchange"),
               follow=R.FOLLOW_EXTRA)
    assert S.players(st)[SEAT, S.P_MEDALS] == 0 and R.plays(opt, CARD["extra_turn"])
    assert CARD["extra_turn"] in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]]
    assert R.check_components(P, st) == 0


def test_a_second_medal_on_viracocha_09_after_a_medal_paid_07():
    """Inti medal (as above) and 09: "When taking a people tile, you may search the discard pile
    for any people tile and place it on your mask board": 07 by medal puts a die on the study
    space, Viracocha's next card, 09, comes up, and the second medal buys it when the bot planned
    it: the board's tile and a discard tile (reading 27)."""
    from cuzco_helpers import make_room
    from test_cuzco_gods import turn
    P, st, side = follow_up_table("search_discard")
    R.refill_display(P, st, S.FARM)
    make_room(st, SEAT, 2)
    pl = S.players(st)
    tiles = int((pl[SEAT, S.P_TILE:S.P_TILE + 12] >= 0).sum())
    turn(P, st, side, SEAT, die=0, pips=3, space=space_of(st, "study"), action=S.A_STUDY, target=2,
         card=CARD["ignore_lower"], medal=1, discard_pos=0, follow=R.FOLLOW_SEARCH)
    assert int((pl[SEAT, S.P_TILE:S.P_TILE + 12] >= 0).sum()) == tiles + 2 and pl[SEAT, S.P_MEDALS] == 0
    assert CARD["search_discard"] in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]]
    assert R.check_components(P, st) == 0
