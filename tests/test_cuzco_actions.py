"""Cuzco, phase I: dice placement and the action spaces (rulebook "Phase I: Roll the Dice, Select
and Perform Actions", "The fire blessing", "The Action Spaces", "Cuzco Module 1 - The Pututus").

Every test builds a table after setup (cuzco_helpers.table), moves components where the rulebook
example has them, and calls single rule functions or `perform_turn` with a hand-made option.
"""
import numpy as np
import pytest

from cuzco_helpers import (
    ABILITY, ACTION, ARMS, COLOUR, PEOPLE, RULES, VILLAGE, VILLAGES, MASKS, SPACES, give_tile,
    log_events, option, space_of, table, weights,
)
from sim.core import rng as rng_mod
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

W = weights("balanced")
PUTUTU = {"pututu": {"enabled": True}}
BLESS_CARD_STATUS, BLESS_OFFERING_STATUS, BLESS_CARD_FOOD, BLESS_OFFERING_FOOD = 0, 1, 2, 3


# ------------------------------------------------------------------ small helpers
def turn(P, st, side, seat, **fields):
    """Place die 0 of `seat` (showing `pips`) and perform the turn described by `fields`."""
    pips = fields.setdefault("pips", 1)
    fields.setdefault("die", 0)
    if fields["die"] >= 0 and S.players(st)[seat, S.P_DICE + fields["die"]] == 0:
        S.players(st)[seat, S.P_DICE + fields["die"]] = pips
    R.perform_turn(P, st, *side, seat, W, option(**fields))


def hand_size(st, seat):
    return int(S.players(st)[seat, S.P_HAND:S.P_HAND + S.N_CARDS].sum())


def feathers(st, seat):
    return [int(x) for x in S.players(st)[seat, S.P_FEATHERS:S.P_FEATHERS + S.N_COLOURS]]


def fill_colour(P, st, side, seat, colour, n):
    """Give a seat feathers of one colour (through the rules) until it has n of them."""
    pl = S.players(st)
    while pl[seat, S.P_FEATHERS + colour] < n:
        assert R.take_feather(P, st, *side, seat, colour)


def put_feather(st, seat, slot):
    """A feather from the supply into one chosen mask slot (components conserved)."""
    g, pl = st, S.players(st)
    colour = MASKS[pl[seat, S.P_MASK], slot]
    assert pl[seat, S.P_SLOT + slot] == 0
    pl[seat, S.P_SLOT + slot] = 1
    pl[seat, S.P_FEATHERS + colour] += 1
    g[S.S_FEATHER_SUPPLY + colour] -= 1


def clear_feathers(st, seat):
    """Return the seat's feathers (the starting one) to the supply."""
    g, pl = st, S.players(st)
    for c in range(S.N_COLOURS):
        g[S.S_FEATHER_SUPPLY + c] += pl[seat, S.P_FEATHERS + c]
        pl[seat, S.P_FEATHERS + c] = 0
    pl[seat, S.P_SLOT:S.P_SLOT + S.N_SLOTS] = 0


def ready_circlet(st, seat, c):
    """Both feathers on circlet c (index c = the circlet with c + 1 pips)."""
    put_feather(st, seat, 2 * c)
    put_feather(st, seat, 2 * c + 1)


def quipus_to_reserve(st, seat, n):
    S.players(st)[seat, S.P_QUIPU_MASK] -= n
    S.players(st)[seat, S.P_QUIPU_RESERVE] += n


def inner_village_by_colour(st, colour):
    for v in range(6):
        if S.village_colour(st, v) == colour:
            return v
    raise LookupError(colour)


def components_ok(P, st):
    assert R.check_components(P, st) == 0


def test_inti_medals_are_never_created():
    """Components: 10 Inti medals, 6 stacked on the temple (Setup 9) and one for each player
    (Setup 15); a used one leaves the game. The components check reports a medal created, or a
    negative count, as code 16 (checked mode)."""
    P, st, _ = table(4)
    assert int(st[S.S_TEMPLE_MEDALS]) + sum(int(st[S.seat_at(p) + S.P_MEDALS]) for p in range(4)) == 10
    components_ok(P, st)
    st[S.seat_at(2) + S.P_MEDALS] -= 1  # used: out of the game
    components_ok(P, st)
    st[S.seat_at(1) + S.P_MEDALS] += 2
    assert R.check_components(P, st) == 16
    st[S.seat_at(1) + S.P_MEDALS] -= 2
    st[S.S_TEMPLE_MEDALS] = -1
    assert R.check_components(P, st) == 16


# ------------------------------------------------------------------ dice placement
def test_die_must_be_lower_than_every_die_on_the_space():
    """Phase I: Important / example: a 5 and a 3 already on the study space - Patricia could only
    place a 1 or a 2 there (not a 3, 4, 5 or 6)."""
    P, st, side = table(4)
    study = space_of(st, "study")
    for pips in range(1, 7):
        assert R.die_fits(P, st, study, pips, False)  # an empty space takes any die
    R.put_die(st, study, 1, 5)
    R.put_die(st, study, 2, 3)
    assert st[S.S_SPACE_MIN + study] == 3
    assert [bool(R.die_fits(P, st, study, pips, False)) for pips in range(1, 7)] == [
        True, True, False, False, False, False]
    # the other spaces are not affected
    farm = space_of(st, "farming")
    assert all(R.die_fits(P, st, farm, pips, False) for pips in range(1, 7))


def test_die_rule_counts_dice_of_every_colour_including_own():
    """Phase I: Important: "regardless of whom it belongs to" - the player's own die blocks too."""
    P, st, side = table(4)
    temple = space_of(st, "temple")
    turn(P, st, side, 0, pips=4, space=temple, action=ACTION["temple"])
    assert [bool(R.die_fits(P, st, temple, pips, False)) for pips in range(1, 7)] == [
        True, True, True, False, False, False]


def test_vp_space_always_accepts_a_die():
    """Action: Victory points: the pips are not relevant - the VP space takes any die, even below
    dice that are equal or lower."""
    P, st, side = table(4)
    vp = space_of(st, "victory_points")
    R.put_die(st, vp, 1, 1)
    R.put_die(st, vp, 2, 3)
    assert all(R.die_fits(P, st, vp, pips, False) for pips in range(1, 7))


@pytest.mark.parametrize("n_players,n_spaces", [(4, 8), (3, 7), (2, 6)])
def test_action_board_sides(n_players, n_spaces):
    """Setup 1 / Action: Movement, Action: Study or farming: with 3 players the two movement
    actions share one space; with 2 players study and farming share one as well."""
    P, st, side = table(n_players)
    assert int(np.count_nonzero(SPACES[n_players])) == n_spaces
    trail, bridge = space_of(st, "stone_trail"), space_of(st, "rope_bridge")
    study, farm = space_of(st, "study"), space_of(st, "farming")
    assert (trail == bridge) == (n_players <= 3)
    assert (study == farm) == (n_players == 2)
    for s in range(S.MAX_SPACES):
        n_actions = sum(bool(R.space_has_action(P, st, s, a)) for a in range(S.N_ACTIONS))
        double = s == trail and n_players <= 3 or s == study and n_players == 2
        assert n_actions == (0 if SPACES[n_players, s] == 0 else 2 if double else 1)


def test_three_players_double_space_performs_the_chosen_bridge():
    """Action: Movement - in a 2 or 3 player game, on the double-action space the player must
    choose one of the actions; the placing rules still apply to the whole space."""
    P, st, side = table(3)
    st[S.S_ROTATION] = 0  # arm k leads to inner village k
    space = space_of(st, "rope_bridge")
    assert space == space_of(st, "stone_trail")
    pl = S.players(st)
    # arm 1 is a rope bridge with 1 pip; the chasqui leaves Cuzco across it for I2
    turn(P, st, side, 0, pips=1, space=space, action=ACTION["rope_bridge"], target=VILLAGE["I2"])
    assert pl[0, S.P_LOC] == VILLAGE["I2"]
    moves = log_events(st, side, R.EV_MOVE)
    assert moves[-1].tolist()[1:5] == [0, S.CUZCO, VILLAGE["I2"], S.WAY_BRIDGE]
    k = R.arm_to(P, st, VILLAGE["I2"])
    assert ARMS[k, S.RF_KIND] == S.WAY_BRIDGE and ARMS[k, S.RF_PIPS] == 1
    # the die on the shared space now blocks both movement actions
    assert not R.die_fits(P, st, space, 1, False)
    components_ok(P, st)


def test_two_players_double_space_performs_the_chosen_farming():
    """Action: Study or farming - in a 2 player game study and farming share a double-action
    space: the chosen action (farming) is performed, the study display is untouched."""
    P, st, side = table(2)
    space = space_of(st, "farming")
    assert space == space_of(st, "study")
    board, pl = st, S.players(st)
    study_before = board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6].copy()
    tile = board[S.S_FARM_DISPLAY + 2]
    turn(P, st, side, 1, pips=3, space=space, action=ACTION["farming"], target=2)
    assert board[S.S_FARM_DISPLAY + 2] == -1
    assert tile in pl[1, S.P_TILE:S.P_TILE + 12]
    assert PEOPLE[tile, S.TF_KIND] == S.FARM
    assert (board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6] == study_before).all()
    assert [bool(R.die_fits(P, st, space, p, False)) for p in range(1, 7)] == [
        True, True, False, False, False, False]
    components_ok(P, st)


# ------------------------------------------------------------------ the fire blessing
@pytest.mark.parametrize("choice", [BLESS_CARD_STATUS, BLESS_OFFERING_STATUS, BLESS_CARD_FOOD,
                                    BLESS_OFFERING_FOOD])
def test_fire_blessing_four_choices(choice):
    """The fire blessing: 1 god card or an offering, and 1 status space or a food tile (Ulrich's
    example: a god card and a food tile)."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    p = 2
    up_before = g[S.S_GOD_UP:S.S_GOD_UP + S.N_GODS].copy()
    cards_before = pl[p, S.P_HAND:S.P_HAND + S.N_CARDS].copy()
    piles_before = int(g[S.S_GOD_PILE_N:S.S_GOD_PILE_N + S.N_GODS].sum())
    hand0, off0, status0, food0 = hand_size(st, p), pl[p, S.P_OFFERINGS], pl[p, S.P_STATUS], pl[p, S.P_FOOD]
    offer_supply, food_supply = g[S.S_OFFERING_SUPPLY], g[S.S_FOOD_SUPPLY]
    R.fire_blessing(P, st, *side, p, W, choice, R.SRC_NONE)
    card = choice & 1 == 0
    status = choice & 2 == 0
    assert hand_size(st, p) == hand0 + (1 if card else 0)
    assert pl[p, S.P_OFFERINGS] == off0 + (0 if card else 1)
    assert g[S.S_OFFERING_SUPPLY] == offer_supply - (0 if card else 1)
    assert pl[p, S.P_STATUS] == status0 + (1 if status else 0)
    assert pl[p, S.P_FOOD] == food0 + (0 if status else 1)
    assert g[S.S_FOOD_SUPPLY] == food_supply - (0 if status else 1)
    if card:
        diff = pl[p, S.P_HAND:S.P_HAND + S.N_CARDS] - cards_before
        (taken,) = np.nonzero(diff)
        assert len(taken) == 1 and diff[taken[0]] == 1
        assert taken[0] in up_before.tolist()  # one of the open cards of the display ...
        # ... and the next card of that god's pile is revealed
        assert int(g[S.S_GOD_PILE_N:S.S_GOD_PILE_N + S.N_GODS].sum()) == piles_before - 1
        assert (g[S.S_GOD_UP:S.S_GOD_UP + S.N_GODS] >= 0).all()
    else:
        assert (g[S.S_GOD_UP:S.S_GOD_UP + S.N_GODS] == up_before).all()
    assert S.stats(side[0])[p, S.STAT_BLESSINGS] == 1
    assert log_events(st, side, R.EV_BLESSING).shape[0] == 1
    components_ok(P, st)


# ------------------------------------------------------------------ movement
def test_movement_trail_versus_bridge_and_pips():
    """Action: Movement: only a stone trail (or a rope bridge) of the placed space's kind, with the
    same or fewer pips than the die, to an adjacent place."""
    P, st, side = table(4)
    pl = S.players(st)
    pl[0, S.P_LOC] = VILLAGE["I2"]
    # I1-I2 is a stone trail with 2 pips, I2-I3 a rope bridge with 3 pips (components.toml)
    assert not R.can_move(P, st, 0, S.WAY_TRAIL, 1, VILLAGE["I1"], False)
    assert R.can_move(P, st, 0, S.WAY_TRAIL, 2, VILLAGE["I1"], False)
    assert not R.can_move(P, st, 0, S.WAY_BRIDGE, 6, VILLAGE["I1"], False)
    assert not R.can_move(P, st, 0, S.WAY_BRIDGE, 2, VILLAGE["I3"], False)
    assert R.can_move(P, st, 0, S.WAY_BRIDGE, 3, VILLAGE["I3"], False)
    assert not R.can_move(P, st, 0, S.WAY_TRAIL, 6, VILLAGE["I3"], False)
    # not adjacent: I2 - I4
    assert not R.can_move(P, st, 0, S.WAY_TRAIL, 6, VILLAGE["I4"], False)
    assert not R.can_move(P, st, 0, S.WAY_BRIDGE, 6, VILLAGE["I4"], False)
    # through perform_turn: the bridge with 3 pips to I3
    bridge = space_of(st, "rope_bridge")
    turn(P, st, side, 0, pips=3, space=bridge, action=ACTION["rope_bridge"], target=VILLAGE["I3"])
    assert pl[0, S.P_LOC] == VILLAGE["I3"]


def test_movement_example_from_cuzco_with_a_four():
    """Action: Movement example: Frank's 4 on the stone trail space takes him from Cuzco across the
    overlay trail with 2 or 4 pips to an inner village - not the 6 trail, not a rope bridge, never
    straight to the outer circle. At the start nobody has returned to Cuzco, so the overlay stays
    as set up (README: rule readings)."""
    P, st, side = table(4)
    st[S.S_ROTATION] = 0
    # the reconstructed overlay has trails with 2, 4 and 6 pips and bridges with 1, 3 and 5
    trails = sorted(int(ARMS[k, S.RF_PIPS]) for k in range(6) if ARMS[k, S.RF_KIND] == S.WAY_TRAIL)
    bridges = sorted(int(ARMS[k, S.RF_PIPS]) for k in range(6) if ARMS[k, S.RF_KIND] == S.WAY_BRIDGE)
    assert trails == [2, 4, 6] and bridges == [1, 3, 5]
    frank = 3
    assert S.players(st)[frank, S.P_LOC] == S.CUZCO and S.players(st)[frank, S.P_MAY_ROTATE] == 0
    reachable = [v for v in range(12) if R.can_move(P, st, frank, S.WAY_TRAIL, 4, v, False)]
    # arm k leads to inner village k at rotation 0: trail 2 -> I1, trail 4 -> I3, trail 6 -> I5
    assert reachable == [VILLAGE["I1"], VILLAGE["I3"]]
    for v in range(6, 12):
        assert not R.can_move(P, st, frank, S.WAY_TRAIL, 6, v, False)
    # a 1 cannot use any stone trail of the overlay (the cheapest has 2 pips)
    assert not any(R.can_move(P, st, frank, S.WAY_TRAIL, 1, v, False) for v in range(12))
    trail = space_of(st, "stone_trail")
    turn(P, st, side, frank, pips=4, space=trail, action=ACTION["stone_trail"], target=VILLAGE["I3"])
    assert S.players(st)[frank, S.P_LOC] == VILLAGE["I3"]
    assert st[S.S_ROTATION] == 0  # not turned


def test_a_chasqui_back_in_cuzco_may_turn_the_overlay_when_leaving():
    """Action: Movement: a chasqui that returned to Cuzco may rotate the overlay before it next
    leaves; the arm used then leads to the village, and the way back is that same arm."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    g[S.S_ROTATION] = 0
    pl[0, S.P_LOC] = VILLAGE["I1"]
    R.move_chasqui(P, st, *side, 0, W, S.CUZCO, S.WAY_TRAIL, 2, 0, 0, 0)  # back home: a blessing
    assert pl[0, S.P_LOC] == S.CUZCO and pl[0, S.P_MAY_ROTATE] == 1
    dest = VILLAGE["I4"]
    assert ARMS[R.arm_to(P, st, dest), S.RF_KIND] == S.WAY_BRIDGE  # arm 3 (bridge 3) at rotation 0
    assert R.can_move(P, st, 0, S.WAY_TRAIL, 2, dest, False)  # by turning the overlay
    turn(P, st, side, 0, pips=2, space=space_of(st, "stone_trail"), action=ACTION["stone_trail"],
         target=dest)
    k = R.arm_to(P, st, dest)
    assert ARMS[k, S.RF_KIND] == S.WAY_TRAIL and ARMS[k, S.RF_PIPS] == 2
    assert g[S.S_ROTATION] == (dest - k) % 6
    assert pl[0, S.P_MAY_ROTATE] == 0
    # the way back across the same trail with 2 pips
    assert R.can_move(P, st, 0, S.WAY_TRAIL, 2, S.CUZCO, False)
    assert not R.can_move(P, st, 0, S.WAY_TRAIL, 1, S.CUZCO, False)
    assert not R.can_move(P, st, 0, S.WAY_BRIDGE, 6, S.CUZCO, False)
    # another chasqui still in Cuzco from the start cannot turn it: it must use the arms as they are
    assert not R.can_move(P, st, 1, S.WAY_TRAIL, 2, VILLAGE["I1"], False)
    # an outer village has no way to Cuzco
    S.players(st)[1, S.P_LOC] = VILLAGE["O1"]
    assert not R.can_move(P, st, 1, S.WAY_TRAIL, 6, S.CUZCO, False)
    assert not R.can_move(P, st, 1, S.WAY_BRIDGE, 6, S.CUZCO, False)


def test_delivery_takes_the_mask_quipu_then_the_reserve():
    """Action: Movement: the quipu comes from the mask board; only when the 10 spaces are empty is
    it taken from the reserve space. It goes on top of the village's pile."""
    P, st, side = table(4)
    pl, board = S.players(st), st
    quipus_to_reserve(st, 0, 9)  # mask 1, reserve 9
    pl[1, S.P_LOC] = VILLAGE["I2"]
    R.move_chasqui(P, st, *side, 1, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)  # seat 1 first
    pl[0, S.P_LOC] = VILLAGE["I2"]
    R.move_chasqui(P, st, *side, 0, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)
    assert (pl[0, S.P_QUIPU_MASK], pl[0, S.P_QUIPU_RESERVE], pl[0, S.P_QUIPU_DELIVERED]) == (0, 9, 1)
    i1 = VILLAGE["I1"]
    assert board[S.S_STACK_N + i1] == 2
    assert board[S.S_STACK + i1 * 4:S.S_STACK + i1 * 4 + 2].tolist() == [1, 0]  # seat 0 on top
    R.move_chasqui(P, st, *side, 0, W, VILLAGE["I6"], S.WAY_BRIDGE, 6, 0, 0, 0)
    assert (pl[0, S.P_QUIPU_MASK], pl[0, S.P_QUIPU_RESERVE], pl[0, S.P_QUIPU_DELIVERED]) == (0, 8, 2)
    assert pl[0, S.P_DELIVERED + i1] == 1 and pl[0, S.P_DELIVERED + VILLAGE["I6"]] == 1
    components_ok(P, st)


def test_delivery_gives_the_village_feather():
    """Action: Movement: after delivering, gain 1 feather of the colour depicted at the village."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    p = 0
    v = VILLAGE["O3"]
    colour = S.village_colour(st, v)
    before = feathers(st, p)
    supply = g[S.S_FEATHER_SUPPLY + colour]
    pl[p, S.P_LOC] = VILLAGE["O4"]  # O3-O4: rope bridge with 2 pips
    turn(P, st, side, p, pips=2, space=space_of(st, "rope_bridge"), action=ACTION["rope_bridge"],
         target=v)
    after = feathers(st, p)
    expected = list(before)
    expected[colour] += 1
    assert after == expected
    assert g[S.S_FEATHER_SUPPLY + colour] == supply - 1
    assert pl[p, S.P_QUIPU_MASK] == 9 and st[S.S_STACK_N + v] == 1
    assert log_events(st, side, R.EV_DELIVER)[-1].tolist()[1:4] == [p, v, colour]
    components_ok(P, st)


def test_one_quipu_per_player_per_village():
    """Action: Movement - Important: each village holds only 1 quipu of each player colour; coming
    back gives no second quipu and no feather."""
    P, st, side = table(4)
    g, pl, board = st, S.players(st), st
    p = 0
    pl[p, S.P_LOC] = VILLAGE["I2"]
    R.move_chasqui(P, st, *side, p, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)
    R.move_chasqui(P, st, *side, p, W, VILLAGE["I2"], S.WAY_TRAIL, 6, 0, 0, 0)
    fe = feathers(st, p)
    supply = g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4].copy()
    R.move_chasqui(P, st, *side, p, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)
    assert pl[p, S.P_LOC] == VILLAGE["I1"]
    assert (pl[p, S.P_QUIPU_MASK], pl[p, S.P_QUIPU_DELIVERED]) == (8, 2)
    assert board[S.S_STACK_N + VILLAGE["I1"]] == 1
    assert feathers(st, p) == fe
    assert (g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4] == supply).all()
    components_ok(P, st)


def test_feather_cap_still_delivers_the_quipu():
    """Action: Movement - Important: with 3 feathers of a colour no more of it are gained, but the
    quipu is still placed in a village bearing that colour."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    p = 1
    v = inner_village_by_colour(st, COLOUR["turquoise"])
    fill_colour(P, st, side, p, COLOUR["turquoise"], 3)
    supply = g[S.S_FEATHER_SUPPLY + COLOUR["turquoise"]]
    before = feathers(st, p)
    R.move_chasqui(P, st, *side, p, W, v, S.WAY_TRAIL, 6, 0, 0, 0)  # from Cuzco
    assert pl[p, S.P_LOC] == v and pl[p, S.P_DELIVERED + v] == 1
    assert pl[p, S.P_QUIPU_MASK] == 9 and st[S.S_STACK_N + v] == 1
    assert feathers(st, p) == before and before[COLOUR["turquoise"]] == 3
    assert g[S.S_FEATHER_SUPPLY + COLOUR["turquoise"]] == supply
    assert log_events(st, side, R.EV_DELIVER)[-1].tolist()[1:4] == [p, v, -1]
    components_ok(P, st)


def test_return_to_cuzco_gives_a_fire_blessing_and_no_quipu():
    """Action: Movement: a chasqui returning to Cuzco places no quipu but takes a fire blessing
    (here an offering and a food)."""
    P, st, side = table(4)
    g, pl, board = st, S.players(st), st
    p = 2
    g[S.S_ROTATION] = 0
    pl[p, S.P_LOC] = VILLAGE["I1"]  # arm 0: stone trail with 2 pips
    off, food, status = pl[p, S.P_OFFERINGS], pl[p, S.P_FOOD], pl[p, S.P_STATUS]
    stacks = board[S.S_STACK_N:S.S_STACK_N + 12].copy()
    turn(P, st, side, p, pips=2, space=space_of(st, "stone_trail"), action=ACTION["stone_trail"],
         target=S.CUZCO, bless=BLESS_OFFERING_FOOD)
    assert pl[p, S.P_LOC] == S.CUZCO
    assert (pl[p, S.P_QUIPU_MASK], pl[p, S.P_QUIPU_DELIVERED]) == (10, 0)
    assert (board[S.S_STACK_N:S.S_STACK_N + 12] == stacks).all()
    assert (pl[p, S.P_OFFERINGS], pl[p, S.P_FOOD], pl[p, S.P_STATUS]) == (off + 1, food + 1, status)
    assert S.stats(side[0])[p, S.STAT_BLESSINGS] == 1
    assert g[S.S_ROTATION] == 0
    components_ok(P, st)


# ------------------------------------------------------------------ study or farming
def test_study_farming_example_tiles_up_to_the_die():
    """Action: Study or farming example: Beate's 4 on farming takes a tile next to 4, 3, 2 or 1
    pips, not 5 or 6 (she takes the one next to 3)."""
    P, st, side = table(4)
    board = st
    full = board[S.S_FARM_DISPLAY:S.S_FARM_DISPLAY + 6].copy()
    for k in range(6):  # only the tile next to k + 1 pips is on display
        board[S.S_FARM_DISPLAY:S.S_FARM_DISPLAY + 6] = -1
        board[S.S_FARM_DISPLAY + k] = full[k]
        assert [bool(R.can_study_or_farm(P, st, 0, S.FARM, d)) for d in range(1, 7)] == [
            d >= k + 1 for d in range(1, 7)]
    board[S.S_FARM_DISPLAY:S.S_FARM_DISPLAY + 6] = full
    board[S.S_FARM_DISPLAY:S.S_FARM_DISPLAY + 4] = -1  # the tiles next to 1-4 are gone
    assert not R.action_possible(P, st, 0, S.A_FARM, 4, False)
    assert R.action_possible(P, st, 0, S.A_FARM, 5, False)
    board[S.S_FARM_DISPLAY:S.S_FARM_DISPLAY + 6] = full
    beate = 0
    turn(P, st, side, beate, pips=4, space=space_of(st, "farming"), action=ACTION["farming"], target=2)
    assert board[S.S_FARM_DISPLAY + 2] == -1
    assert full[2] in S.players(st)[beate, S.P_TILE:S.P_TILE + 12]
    assert S.players(st)[beate, S.P_N_TILES] == 1
    ev = log_events(st, side, R.EV_TILE)[-1].tolist()
    assert ev[1:4] == [beate, S.FARM, full[2]]
    components_ok(P, st)


def test_study_needs_an_empty_mask_space():
    """Action: Study or farming: a player with no empty space (no quipu, no people tile) on the
    mask board may not choose this action."""
    P, st, side = table(4)
    pl, board = S.players(st), st
    p = 0
    give_tile(P, st, side, p, S.STUDY, ABILITY["vp"])
    give_tile(P, st, side, p, S.FARM, ABILITY["vp"])
    assert R.empty_spaces(P, st, p) == 0
    assert not R.can_study_or_farm(P, st, p, S.STUDY, 6)
    assert not R.action_possible(P, st, p, S.A_STUDY, 6, False)
    display = board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6].copy()
    assert not R.take_display_tile(P, st, *side, p, S.STUDY, 0)
    assert (board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6] == display).all() and pl[p, S.P_N_TILES] == 2
    # a delivered quipu frees a space
    R.move_chasqui(P, st, *side, p, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)
    assert R.empty_spaces(P, st, p) == 1
    assert R.can_study_or_farm(P, st, p, S.STUDY, 1)
    assert R.take_display_tile(P, st, *side, p, S.STUDY, 0) and pl[p, S.P_N_TILES] == 3
    components_ok(P, st)


def test_display_is_not_refilled_during_the_round():
    """Action: Study or farming - Note: the column of tiles on the Cuzco board is not replenished
    until phase III."""
    P, st, side = table(4)
    g, board = st, st
    stack = g[S.S_STUDY_N]
    study = space_of(st, "study")
    turn(P, st, side, 0, pips=6, space=study, action=ACTION["study"], target=5)
    turn(P, st, side, 1, pips=2, space=study, action=ACTION["study"], target=1)
    assert board[S.S_STUDY_DISPLAY + 5] == -1 and board[S.S_STUDY_DISPLAY + 1] == -1
    assert int((board[S.S_STUDY_DISPLAY:S.S_STUDY_DISPLAY + 6] >= 0).sum()) == 4
    assert g[S.S_STUDY_N] == stack
    components_ok(P, st)


# ------------------------------------------------------------------ exchange
def test_exchange_example_patricia():
    """Action: Exchange example: Patricia's 5 - 2 pips slide down 2 study tiles worth 5 status
    (1 -> 6), 1 pip slides a farm tile worth 3 food, the last 2 pips buy 1 offering."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    patricia = 1
    quipus_to_reserve(st, patricia, 1)  # room for three tiles
    give_tile(P, st, side, patricia, S.STUDY, ABILITY["vp"], value=2)
    give_tile(P, st, side, patricia, S.STUDY, ABILITY["food"], value=3)
    give_tile(P, st, side, patricia, S.FARM, ABILITY["offering"], value=3)
    pl[patricia, S.P_STATUS] = 1
    vp, food, off = pl[patricia, S.P_VP], pl[patricia, S.P_FOOD], pl[patricia, S.P_OFFERINGS]
    food_supply, off_supply = g[S.S_FOOD_SUPPLY], g[S.S_OFFERING_SUPPLY]
    turn(P, st, side, patricia, pips=5, space=space_of(st, "exchange"), action=ACTION["exchange"],
         ex={"status": 2, "food": 1, "offering": 1})
    assert pl[patricia, S.P_STATUS] == 6
    assert pl[patricia, S.P_STATUS_SEQ] == g[S.S_STATUS_SEQ]  # on top of any markers there
    assert pl[patricia, S.P_FOOD] == food + 3 and g[S.S_FOOD_SUPPLY] == food_supply - 3
    assert pl[patricia, S.P_OFFERINGS] == off + 1 and g[S.S_OFFERING_SUPPLY] == off_supply - 1
    assert pl[patricia, S.P_VP] == vp
    slid = pl[patricia, S.P_SLID:S.P_SLID + 12]
    assert int(slid.sum()) == 3  # both study tiles and the farm tile
    rows = [r.tolist()[1:4] for r in log_events(st, side, R.EV_EXCHANGE)]
    assert rows == [[patricia, S.EX_STATUS, 2], [patricia, S.EX_FOOD, 1], [patricia, S.EX_OFFERING, 1]]
    components_ok(P, st)


@pytest.mark.parametrize("name,cost", [("status", 1), ("food", 1), ("vp", 1), ("offering", 2),
                                       ("god_card", 2), ("feather", 2), ("quipu_to_reserve", 2)])
def test_each_exchange_and_its_cost(name, cost):
    """Action: Exchange: university appointment, food and VP cost 1 pip each; offering, god card,
    feather and quipu to the reserve 2 pips each; the same exchange may be bought several times.
    A die of 3 buys three 1-pip exchanges or one 2-pip exchange."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    ex = S.EXCHANGE_NAMES.index(name)
    assert RULES[S.R_EXCHANGE + ex] == cost
    p = 3
    quipus_to_reserve(st, p, 1)
    if name == "status":
        for a in ("vp", "food", "quipu"):
            give_tile(P, st, side, p, S.STUDY, ABILITY[a], value=1)
    if name == "food":
        for a in ("vp", "food", "quipu"):
            give_tile(P, st, side, p, S.FARM, ABILITY[a], value=2)
    before = pl[p].copy()
    hand0 = hand_size(st, p)
    turn(P, st, side, p, pips=3, space=space_of(st, "exchange"), action=ACTION["exchange"],
         ex={name: 3})
    times = 3 // cost
    rows = [r.tolist()[1:4] for r in log_events(st, side, R.EV_EXCHANGE)]
    assert rows == [[p, ex, times]]
    after = pl[p]
    assert after[S.P_STATUS] - before[S.P_STATUS] == (3 if name == "status" else 0)
    assert after[S.P_FOOD] - before[S.P_FOOD] == (6 if name == "food" else 0)
    assert after[S.P_VP] - before[S.P_VP] == (3 if name == "vp" else 0)
    assert after[S.P_OFFERINGS] - before[S.P_OFFERINGS] == (1 if name == "offering" else 0)
    assert hand_size(st, p) - hand0 == (1 if name == "god_card" else 0)
    gained = int(after[S.P_FEATHERS:S.P_FEATHERS + 4].sum() - before[S.P_FEATHERS:S.P_FEATHERS + 4].sum())
    assert gained == (1 if name == "feather" else 0)
    moved = 1 if name == "quipu_to_reserve" else 0
    assert (after[S.P_QUIPU_MASK], after[S.P_QUIPU_RESERVE]) == (9 - moved, 1 + moved)
    components_ok(P, st)


def test_exchange_feather_not_of_a_colour_at_its_cap():
    """Action: Exchange: with 3 feathers of a colour the pips cannot buy a feather of that colour;
    with every colour at 3 no feather can be bought at all."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    p = 0
    for name in ("turquoise", "purple", "orange"):
        fill_colour(P, st, side, p, COLOUR[name], 3)
    pink = COLOUR["pink"]
    start_pink = pl[p, S.P_FEATHERS + pink]
    for name in ("turquoise", "purple", "orange"):
        assert not R.can_take_feather(P, st, p, COLOUR[name])
    R.do_exchange(P, st, *side, p, W, option(ex={"feather": 2})[R.O_EX:R.O_EX + S.N_EXCHANGES], 4)
    assert feathers(st, p) == [3, 3, 3, start_pink + 2]
    fill_colour(P, st, side, p, pink, 3)
    assert not R.exchange_allowed(P, st, p, S.EX_FEATHER)
    supply = g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4].copy()
    R.do_exchange(P, st, *side, p, W, option(ex={"feather": 1})[R.O_EX:R.O_EX + S.N_EXCHANGES], 2)
    assert feathers(st, p) == [3, 3, 3, 3]
    assert (g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4] == supply).all()
    components_ok(P, st)


def test_exchange_quipu_to_reserve_never_a_delivered_one():
    """Action: Exchange: 2 pips move 1 quipu from its mask space to the reserve (any number may be
    stored there); quipus already delivered to villages can never be reallocated."""
    P, st, side = table(4)
    pl, board = S.players(st), st
    p = 0
    turn(P, st, side, p, pips=6, space=space_of(st, "exchange"), action=ACTION["exchange"],
         ex={"quipu_to_reserve": 3})
    assert (pl[p, S.P_QUIPU_MASK], pl[p, S.P_QUIPU_RESERVE]) == (7, 3)
    assert R.empty_spaces(P, st, p) == 5
    quipus_to_reserve(st, p, 6)
    R.move_chasqui(P, st, *side, p, W, VILLAGE["I1"], S.WAY_TRAIL, 6, 0, 0, 0)  # the last mask quipu
    assert (pl[p, S.P_QUIPU_MASK], pl[p, S.P_QUIPU_RESERVE], pl[p, S.P_QUIPU_DELIVERED]) == (0, 9, 1)
    assert not R.exchange_allowed(P, st, p, S.EX_QUIPU)
    R.do_exchange(P, st, *side, p, W, option(ex={"quipu_to_reserve": 2})[R.O_EX:R.O_EX + S.N_EXCHANGES], 4)
    assert (pl[p, S.P_QUIPU_MASK], pl[p, S.P_QUIPU_RESERVE], pl[p, S.P_QUIPU_DELIVERED]) == (0, 9, 1)
    assert board[S.S_STACK_N + VILLAGE["I1"]] == 1
    components_ok(P, st)


# ------------------------------------------------------------------ temple
def test_temple_example_beate_pushes_the_chain_down():
    """Action: Temple example: Beate's 3 puts her priest on step 3; Patricia's (3) and Frank's (2)
    are pushed one step down and Ulrich's priest on step 1 is expelled back to his mask board.
    Placing the priest gives Beate a fire blessing."""
    P, st, side = table(4)
    board, pl = st, S.players(st)
    beate, patricia, frank, ulrich = 0, 1, 2, 3
    for step, seat in ((3, patricia), (2, frank), (1, ulrich)):
        board[S.S_TEMPLE + step - 1] = seat
        pl[seat, S.P_PRIESTS_HOME] -= 1
    status = pl[beate, S.P_STATUS]
    hand0 = hand_size(st, beate)
    turn(P, st, side, beate, pips=3, space=space_of(st, "temple"), action=ACTION["temple"],
         bless=BLESS_CARD_STATUS)
    assert board[S.S_TEMPLE:S.S_TEMPLE + 6].tolist() == [frank, patricia, beate, -1, -1, -1]
    assert [pl[s, S.P_PRIESTS_HOME] for s in (beate, patricia, frank, ulrich)] == [3, 3, 3, 4]
    assert log_events(st, side, R.EV_PRIEST)[-1].tolist()[1:4] == [beate, 3, ulrich]
    assert S.stats(side[0])[beate, S.STAT_BLESSINGS] == 1
    assert pl[beate, S.P_STATUS] == status + 1 and hand_size(st, beate) == hand0 + 1
    components_ok(P, st)


def test_temple_push_stops_at_an_empty_step():
    """Action: Temple: pushing repeats only until there is 1 priest per step - an empty step
    below ends the chain."""
    P, st, side = table(4)
    board, pl = st, S.players(st)
    for step, seat in ((5, 1), (3, 2)):
        board[S.S_TEMPLE + step - 1] = seat
        pl[seat, S.P_PRIESTS_HOME] -= 1
    turn(P, st, side, 0, pips=5, space=space_of(st, "temple"), action=ACTION["temple"])
    assert board[S.S_TEMPLE:S.S_TEMPLE + 6].tolist() == [-1, -1, 2, 1, 0, -1]
    assert log_events(st, side, R.EV_PRIEST)[-1].tolist()[1:4] == [0, 5, -1]
    assert [pl[s, S.P_PRIESTS_HOME] for s in range(4)] == [3, 3, 3, 4]
    components_ok(P, st)


@pytest.mark.parametrize("pips", [1, 6])
def test_temple_step_is_the_die(pips):
    """Action: Temple: the pips of the die determine the step (1..6); a priest needs to be on the
    mask board to be placed."""
    P, st, side = table(4)
    board, pl = st, S.players(st)
    turn(P, st, side, 2, pips=pips, space=space_of(st, "temple"), action=ACTION["temple"],
         bless=BLESS_OFFERING_FOOD)
    expected = [-1] * 6
    expected[pips - 1] = 2
    assert board[S.S_TEMPLE:S.S_TEMPLE + 6].tolist() == expected
    assert pl[2, S.P_PRIESTS_HOME] == 3
    pl[2, S.P_PRIESTS_HOME] = 0
    assert not R.action_possible(P, st, 2, S.A_TEMPLE, 6, False)


# ------------------------------------------------------------------ headdress
def test_headdress_example_patricia():
    """Action: Headdress example: Patricia's 4; her circlet with 3 pips has 2 feathers - she
    activates it in round 3 and gains 2 + 7 VP and a fire blessing."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    patricia = 1
    clear_feathers(st, patricia)
    ready_circlet(st, patricia, 2)
    g[S.S_ROUND] = 2
    vp, food, off = pl[patricia, S.P_VP], pl[patricia, S.P_FOOD], pl[patricia, S.P_OFFERINGS]
    assert R.can_headdress(st, patricia, 4)
    turn(P, st, side, patricia, pips=4, space=space_of(st, "headdress"), action=ACTION["headdress"],
         target=2, bless=BLESS_OFFERING_FOOD)
    assert pl[patricia, S.P_VP] == vp + 9
    assert S.stats(side[0])[patricia, S.STAT_VP + S.VP_HEADDRESS] == 9
    assert pl[patricia, S.P_CIRCLET:S.P_CIRCLET + 6].tolist() == [0, 0, 1, 0, 0, 0]
    assert (pl[patricia, S.P_FOOD], pl[patricia, S.P_OFFERINGS]) == (food + 1, off + 1)
    assert S.stats(side[0])[patricia, S.STAT_BLESSINGS] == 1
    assert log_events(st, side, R.EV_HEADDRESS)[-1].tolist()[1:4] == [patricia, 2, 9]
    # once activated it cannot be activated again
    assert not R.circlet_ready(st, patricia, 2)
    assert not R.can_headdress(st, patricia, 6)
    components_ok(P, st)


@pytest.mark.parametrize("rnd,expected", [(0, 10), (1, 10), (2, 7), (3, 7), (4, 4), (5, 4)])
def test_headdress_vp_by_round(rnd, expected):
    """Action: Headdress: rounds 1 & 2 => 10 VP, 3 & 4 => 7 VP, 5 & 6 => 4 VP, plus the VP on the
    circlet (2 on the one with 3 pips, as in the example)."""
    P, st, side = table(4)
    g, pl = st, S.players(st)
    clear_feathers(st, 0)
    ready_circlet(st, 0, 2)
    g[S.S_ROUND] = rnd
    vp = pl[0, S.P_VP]
    R.activate_circlet(P, st, *side, 0, W, 2, BLESS_CARD_STATUS, R.SRC_NONE)
    assert pl[0, S.P_VP] == vp + expected + 2


def test_headdress_needs_two_feathers():
    """Action: Headdress: a circlet tile can be activated only with 2 feathers assigned to it; with
    no eligible tile the action cannot be chosen."""
    P, st, side = table(4)
    clear_feathers(st, 0)
    put_feather(st, 0, 0)  # circlet 1: one feather
    put_feather(st, 0, 3)  # circlet 2: one feather
    assert not any(R.circlet_ready(st, 0, c) for c in range(6))
    assert not R.can_headdress(st, 0, 6)
    assert not R.action_possible(P, st, 0, S.A_HEADDRESS, 6, False)
    put_feather(st, 0, 1)
    assert R.circlet_ready(st, 0, 0)
    assert R.action_possible(P, st, 0, S.A_HEADDRESS, 1, False)
    components_ok(P, st)


def test_headdress_circlet_above_the_die_cannot_be_used():
    """Action: Headdress: only a circlet tile with the same or fewer pips than the die can be
    activated - a ready 5-pip circlet needs a 5 or a 6."""
    P, st, side = table(4)
    clear_feathers(st, 0)
    ready_circlet(st, 0, 4)
    assert [bool(R.can_headdress(st, 0, d)) for d in range(1, 7)] == [
        False, False, False, False, True, True]
    assert not R.action_possible(P, st, 0, S.A_HEADDRESS, 4, False)


# ------------------------------------------------------------------ victory points
@pytest.mark.parametrize("pips", [1, 3, 6])
def test_vp_space_example_ulrich(pips):
    """Action: Victory points example: Ulrich places his die on the VP space and earns 2 VP - the
    pips do not matter."""
    P, st, side = table(4)
    pl = S.players(st)
    ulrich = 3
    vp = pl[ulrich, S.P_VP]
    turn(P, st, side, ulrich, pips=pips, space=space_of(st, "victory_points"),
         action=ACTION["victory_points"])
    assert pl[ulrich, S.P_VP] == vp + 2
    assert S.stats(side[0])[ulrich, S.STAT_VP + S.VP_ACTION_SPACE] == 2


# ------------------------------------------------------------------ pututu module
def test_pututu_can_reach_beate_example_and_limits():
    """Cuzco Module 1 - Changes in game play: Beate's two +1/-1 tiles turn her 6 into a 4; a die
    never goes below 1 nor above 6 (a 1 is not changed into a 6)."""
    P, st, side = table(4, variant=PUTUTU)
    pl = S.players(st)
    beate = 0
    pl[beate, S.P_PUTUTU1] = 2
    assert R.pututu_can_reach(st, beate, 6, 4) == (2, 0)
    assert R.pututu_can_reach(st, beate, 6, 5) == (1, 0)
    assert R.pututu_can_reach(st, beate, 6, 3) == (-1, -1)
    assert R.pututu_can_reach(st, beate, 6, 7) == (-1, -1)
    assert R.pututu_can_reach(st, beate, 1, 0) == (-1, -1)
    assert R.pututu_can_reach(st, beate, 1, 6) == (-1, -1)  # no wrap-around
    assert R.pututu_can_reach(st, beate, 3, 3) == (0, 0)
    pl[beate, S.P_PUTUTU1] = 1
    assert R.pututu_can_reach(st, beate, 6, 4) == (-1, -1)
    pl[beate, S.P_PUTUTU1] = 0
    pl[beate, S.P_PUTUTU2] = 1
    assert R.pututu_can_reach(st, beate, 6, 4) == (0, 1)
    assert R.pututu_can_reach(st, beate, 2, 4) == (0, 1)
    assert R.pututu_can_reach(st, beate, 2, 0) == (-1, -1)
    pl[beate, S.P_PUTUTU1] = 1
    assert R.pututu_can_reach(st, beate, 6, 3) == (1, 1)


def test_pututu_spent_changes_the_placed_die():
    """Cuzco Module 1 example: a 5 already on farming; Beate returns two +1/-1 tiles to the supply,
    turns her 6 into a 4 (the die is rotated) and takes the farm tile on die space 4."""
    P, st, side = table(4, variant=PUTUTU)
    g, pl, board = st, S.players(st), st
    beate = 0
    farm = space_of(st, "farming")
    R.put_die(st, farm, 2, 5)
    g[S.S_PUTUTU1] -= 2
    pl[beate, S.P_PUTUTU1] = 2
    pl[beate, S.P_DICE:S.P_DICE + 3] = [6, 2, 2]
    assert not R.die_fits(P, st, farm, 6, False) and R.die_fits(P, st, farm, 4, False)
    tile = board[S.S_FARM_DISPLAY + 3]
    R.perform_turn(P, st, *side, beate, W, option(die=0, pips=4, pu1=2, space=farm,
                                                 action=ACTION["farming"], target=3))
    assert pl[beate, S.P_PUTUTU1] == 0 and g[S.S_PUTUTU1] == P[S.R_PUTUTU1] == 12
    assert pl[beate, S.P_DICE:S.P_DICE + 3].tolist() == [0, 2, 2]
    assert board[S.S_SPACE_MIN + farm] == 4
    dice = board[S.S_SPACE_DICE + farm * S.MAX_DICE_ON_SPACE:][:board[S.S_SPACE_N + farm]]
    assert sorted(dice.tolist()) == sorted([2 * 8 + 5, beate * 8 + 4])
    assert board[S.S_FARM_DISPLAY + 3] == -1 and tile in pl[beate, S.P_TILE:S.P_TILE + 12]
    assert S.stats(side[0])[beate, S.STAT_PUTUTU_SPENT1] == 2 and S.stats(side[0])[beate, S.STAT_PUTUTU_CHANGED] == 1
    place = log_events(st, side, R.EV_PLACE)[-1].tolist()
    assert place[1:7] == [beate, farm, ACTION["farming"], 4, 2, 4]
    components_ok(P, st)


def _seed_rolls(P, st, side, want):
    """Seed the game's stream so that roll_dice gives each seat dice of the wanted pattern
    ('none', 'double' or 'triple')."""
    def pattern(d):
        k = len(set(d))
        return "triple" if k == 1 else "double" if k == 2 else "none"

    n = st[S.S_N_PLAYERS]
    for seed in range(200000):
        trial = st.copy()
        rng_mod.seed_game_stream(S.rng_words(trial), np.uint64(seed), np.uint64(7))
        tside = tuple(a.copy() for a in side)
        R.roll_dice(P, trial, *tside)
        if all(pattern(S.players(trial)[p, S.P_DICE:S.P_DICE + 3].tolist()) == want[p] for p in range(n)):
            rng_mod.seed_game_stream(S.rng_words(st), np.uint64(seed), np.uint64(7))
            return
    raise AssertionError("no seed gives these rolls")


def test_pututu_doubles_and_triples_take_tiles():
    """Cuzco Module 1: a double takes 1 +1/-1 tile, a triple 1 +2/-2 tile, other rolls nothing."""
    P, st, side = table(3, variant=PUTUTU)
    g, pl = st, S.players(st)
    _seed_rolls(P, st, side, {0: "double", 1: "triple", 2: "none"})
    R.roll_dice(P, st, *side)
    assert [(pl[p, S.P_PUTUTU1], pl[p, S.P_PUTUTU2]) for p in range(3)] == [(1, 0), (0, 1), (0, 0)]
    assert (P[S.R_PUTUTU1], P[S.R_PUTUTU2]) == (12, 3)
    assert (g[S.S_PUTUTU1], g[S.S_PUTUTU2]) == (11, 2)
    components_ok(P, st)


def test_pututu_off_in_the_base_game():
    """Cuzco Module 1 is a module: without it a double takes nothing."""
    P, st, side = table(3)
    pl = S.players(st)
    _seed_rolls(P, st, side, {0: "double", 1: "triple", 2: "double"})
    R.roll_dice(P, st, *side)
    assert int(pl[:, S.P_PUTUTU1].sum() + pl[:, S.P_PUTUTU2].sum()) == 0


def test_pututu_shortage_reverse_player_order():
    """Cuzco Module 1 example: Ulrich and Beate both rolled a double but only 1 +1/-1 tile is left:
    Beate, further behind in player order, takes it; Frank's triple takes a +2/-2 tile."""
    P, st, side = table(4, variant=PUTUTU)
    g, pl = st, S.players(st)
    patricia, ulrich, beate, frank = (int(g[S.S_ORDER + pos]) for pos in range(4))
    _seed_rolls(P, st, side, {patricia: "none", ulrich: "double", beate: "double", frank: "triple"})
    # 11 of the 12 +1/-1 tiles are already with Patricia
    pl[patricia, S.P_PUTUTU1] = 11
    g[S.S_PUTUTU1] = 1
    R.roll_dice(P, st, *side)
    got = {name: (int(pl[p, S.P_PUTUTU1]), int(pl[p, S.P_PUTUTU2]))
           for name, p in (("patricia", patricia), ("ulrich", ulrich), ("beate", beate), ("frank", frank))}
    assert got == {"patricia": (11, 0), "ulrich": (0, 0), "beate": (1, 0), "frank": (0, 1)}
    assert (g[S.S_PUTUTU1], g[S.S_PUTUTU2], g[S.S_PUTUTU_SHORT]) == (0, 2, 1)
    components_ok(P, st)
