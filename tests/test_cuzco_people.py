"""Cuzco people tiles in phase II (rulebook "Phase II: Studies and Farming" and "Addendum: The
People Study and Farm Tiles" 01-12): every ability with 1, 2 and 3 identical tiles of a kind,
the caps, study and farm tiles never combined, slid-down tiles, and Patricia's example."""
import numpy as np
import pytest

from cuzco_helpers import (
    ABILITY, COLOUR, JOINT, VILLAGE, bots, clear_hand, clone, feathers_to, give_tile,
    log_events, make_room, ready_circlet, table, use, weights,
)
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

W = weights("balanced")
KINDS = pytest.mark.parametrize("kind", [S.STUDY, S.FARM], ids=["study", "farm"])
N_TILES = pytest.mark.parametrize("n", [1, 2, 3])


def with_tiles(kind, ability_name, n, seat=0):
    """A fresh table where `seat` has n identical tiles (kind, ability) on its mask board."""
    P, st, side = table()
    make_room(st, seat, n + 1)
    for _ in range(n):
        give_tile(P, st, side, seat, kind, ABILITY[ability_name])
    return P, st, side


def run(P, st, side, kind, ability_name, seat=0, **fields):
    R.use_ability(P, st, *side, seat, W, use(kind=kind, ability=ABILITY[ability_name], **fields))


def destinations(P, st, side, kind, ability_name, seat=0):
    """Where a movement use can take the chasqui: every target tried on a copy of the state."""
    out = set()
    here = S.players(st)[seat, S.P_LOC]
    for dest in range(S.N_VILLAGES + 1):
        st2, side2 = clone(st), clone(side)
        run(P, st2, side2, kind, ability_name, seat, target=dest, bless=3)
        if S.players(st2)[seat, S.P_LOC] != here:
            assert S.players(st2)[seat, S.P_LOC] == dest
            out.add(dest)
    return out


def names(places):
    labels = [*(f"I{i}" for i in range(1, 7)), *(f"O{i}" for i in range(1, 7)), "Cuzco"]
    return {labels[p] for p in places}


def test_joint_use_table_matches_the_addendum():
    """Addendum: The People Study and Farm Tiles - what 1, 2 and 3 identical tiles give (offering
    1/2/3, VP 2/4/6, feather 1/2/3, trail 2/4/any, status 1/2/3, bridge 2/4/any, god card 1/2/3,
    quipu 1/2/3, circlet die 3/6/useless, food 1/2/3, farming die 3/6/useless, study die
    3/6/useless)."""
    expected = {"offering": [1, 2, 3], "vp": [2, 4, 6], "feather": [1, 2, 3],
                "stone_trail": [2, 4, 6], "status": [1, 2, 3], "rope_bridge": [2, 4, 6],
                "god_card": [1, 2, 3], "quipu": [1, 2, 3], "circlet": [3, 6, 6],
                "food": [1, 2, 3], "farming": [3, 6, 6], "study": [3, 6, 6]}
    for name, row in expected.items():
        assert JOINT[ABILITY[name], :3].tolist() == row, name


# ------------------------------------------------------------------ 01-12, one by one
@KINDS
@N_TILES
def test_01_offering(kind, n):
    """People tile 01: take 1 offering; 2 or 3 identical tiles (farming or study) take 2 or 3."""
    P, st, side = with_tiles(kind, "offering", n)
    off, supply = S.players(st)[0, S.P_OFFERINGS], st[S.S_OFFERING_SUPPLY]
    run(P, st, side, kind, "offering")
    assert S.players(st)[0, S.P_OFFERINGS] == off + n
    assert st[S.S_OFFERING_SUPPLY] == supply - n
    assert log_events(st, side, R.EV_USE)[-1, 1:5].tolist() == [0, kind, ABILITY["offering"], n]


@KINDS
@N_TILES
def test_02_victory_points(kind, n):
    """People tile 02: advance 2 spaces on the VP track; 2 or 3 identical tiles 4 or 6."""
    P, st, side = with_tiles(kind, "vp", n)
    vp = S.players(st)[0, S.P_VP]
    run(P, st, side, kind, "vp")
    assert S.players(st)[0, S.P_VP] == vp + [2, 4, 6][n - 1]
    assert S.stats(side[0])[0, S.STAT_VP + S.VP_PEOPLE] == [2, 4, 6][n - 1]


@KINDS
@N_TILES
def test_03_feather(kind, n):
    """People tile 03: 1 feather of your choice from the supply into a matching slot; 2 or 3
    identical tiles take 2 or 3 feathers, of the same or different colours."""
    P, st, side = with_tiles(kind, "feather", n)
    pl, g = S.players(st), st
    held = pl[0, S.P_FEATHERS:S.P_FEATHERS + 4].sum()
    supply = g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4].sum()
    run(P, st, side, kind, "feather")
    assert pl[0, S.P_FEATHERS:S.P_FEATHERS + 4].sum() == held + n
    assert pl[0, S.P_SLOT:S.P_SLOT + S.N_SLOTS].sum() == held + n
    assert g[S.S_FEATHER_SUPPLY:S.S_FEATHER_SUPPLY + 4].sum() == supply - n
    assert R.check_components(P, st) == 0


@KINDS
def test_03_feather_respects_three_per_colour(kind):
    """People tile 03, Important: "you may never have more than 3 feathers of the same color!"
    With 3 turquoise, 3 purple, 3 orange and 1 pink, three feather tiles bring only 2 (pink)."""
    P, st, side = with_tiles(kind, "feather", 3)
    for colour in ("turquoise", "purple", "orange"):
        feathers_to(P, st, side, 0, colour, 3)
    feathers_to(P, st, side, 0, "pink", 1)
    pink_supply = st[S.S_FEATHER_SUPPLY + COLOUR["pink"]]
    run(P, st, side, kind, "feather")
    assert S.players(st)[0, S.P_FEATHERS:S.P_FEATHERS + 4].tolist() == [3, 3, 3, 3]
    assert st[S.S_FEATHER_SUPPLY + COLOUR["pink"]] == pink_supply - 2
    assert R.check_components(P, st) == 0


@KINDS
@pytest.mark.parametrize("n, reach", [(1, {"Cuzco"}), (2, {"Cuzco", "I5"}),
                                      (3, {"Cuzco", "I5", "O5", "O6"})])
def test_04_stone_trail(kind, n, reach):
    """People tile 04: move as with a 2 on the stone trail space (trails of 1-2 pips); 2 identical
    tiles trails of 1-4 pips; 3 any trail. From I6: Cuzco arm 2, I5 3, O5 5, O6 6 pips (the rope
    bridge I6-I1, 2 pips, is never a stone trail)."""
    P, st, side = with_tiles(kind, "stone_trail", n)
    S.players(st)[0, S.P_LOC] = VILLAGE["I6"]
    st[S.S_ROTATION] = 5  # overlay arm 0 (stone trail, 2 pips) leads to I6
    assert names(destinations(P, st, side, kind, "stone_trail")) == reach
    quipus = S.players(st)[0, S.P_QUIPU_DELIVERED]
    run(P, st, side, kind, "stone_trail", target=VILLAGE["I5"])
    moved = n >= 2
    assert S.players(st)[0, S.P_LOC] == (VILLAGE["I5"] if moved else VILLAGE["I6"])
    assert S.players(st)[0, S.P_QUIPU_DELIVERED] == quipus + moved


@KINDS
@N_TILES
def test_05_status(kind, n):
    """People tile 05: advance 1 space on the status track; 2 or 3 identical tiles 2 or 3."""
    P, st, side = with_tiles(kind, "status", n)
    status = S.players(st)[0, S.P_STATUS]
    run(P, st, side, kind, "status")
    assert S.players(st)[0, S.P_STATUS] == status + n


@KINDS
@pytest.mark.parametrize("n, reach", [(1, {"Cuzco"}), (2, {"Cuzco", "I4"}),
                                      (3, {"Cuzco", "I4", "O5"})])
def test_06_rope_bridge(kind, n, reach):
    """People tile 06: as 04 but across rope bridges (2 pips; 1-4 with two tiles; any with three).
    From I5: Cuzco arm 1, I4 4, O5 6 pips (the stone trail I5-I6 is never a bridge)."""
    P, st, side = with_tiles(kind, "rope_bridge", n)
    S.players(st)[0, S.P_LOC] = VILLAGE["I5"]
    st[S.S_ROTATION] = 3  # overlay arm 1 (rope bridge, 1 pip) leads to I5
    assert names(destinations(P, st, side, kind, "rope_bridge")) == reach


@KINDS
@N_TILES
def test_07_god_card(kind, n):
    """People tile 07: take 1 god card from any of the 5 piles; 2 or 3 identical tiles 2 or 3
    cards. Each face-up card taken is replaced by the next of its pile."""
    P, st, side = with_tiles(kind, "god_card", n)
    g, pl = st, S.players(st)
    in_hand = pl[0, S.P_HAND:S.P_HAND + S.N_CARDS].sum()
    piles = g[S.S_GOD_PILE_N:S.S_GOD_PILE_N + S.N_GODS].sum()
    run(P, st, side, kind, "god_card")
    assert pl[0, S.P_HAND:S.P_HAND + S.N_CARDS].sum() == in_hand + n
    assert g[S.S_GOD_PILE_N:S.S_GOD_PILE_N + S.N_GODS].sum() == piles - n
    assert (g[S.S_GOD_UP:S.S_GOD_UP + S.N_GODS] >= 0).all()
    assert R.check_components(P, st) == 0


@KINDS
@N_TILES
def test_08_quipu(kind, n):
    """People tile 08: move 1 quipu from the mask board to the reserve space; 2 or 3 identical
    tiles move 2 or 3."""
    P, st, side = with_tiles(kind, "quipu", n)
    mask, reserve = S.players(st)[0, S.P_QUIPU_MASK], S.players(st)[0, S.P_QUIPU_RESERVE]
    run(P, st, side, kind, "quipu")
    assert S.players(st)[0, S.P_QUIPU_MASK] == mask - n
    assert S.players(st)[0, S.P_QUIPU_RESERVE] == reserve + n
    assert R.check_components(P, st) == 0


@KINDS
@pytest.mark.parametrize("n, activated", [(1, {3}), (2, {3, 4, 6}), (3, {3, 4, 6})])
def test_09_circlet(kind, n, activated):
    """People tile 09: activate a circlet as with a 3 on the headdress space (circlets of 1-3
    pips); 2 identical tiles as with a 6; "A third identical tile ... is useless"."""
    P, st, side = with_tiles(kind, "circlet", n)
    for c in (2, 3, 5):  # the circlets with 3, 4 and 6 pips get both their feathers
        ready_circlet(st, 0, c)
    got = set()
    for c in (2, 3, 5):
        st2, side2 = clone(st), clone(side)
        run(P, st2, side2, kind, "circlet", target=c, bless=3)
        if S.players(st2)[0, S.P_CIRCLET + c]:
            got.add(c + 1)
    assert got == activated


@pytest.mark.parametrize("rnd, vp", [(0, 10 + 2), (2, 7 + 2)])
def test_09_circlet_is_a_headdress_activation(rnd, vp):
    """People tile 09 "as if you had placed a die with 3 pips on the headdress action space":
    round VP (10 in rounds 1-2, 7 in rounds 3-4), the tile's VP (2 for the 3-pip circlet, Action:
    Headdress example) and a fire blessing (here an offering and a food)."""
    P, st, side = with_tiles(S.STUDY, "circlet", 1)
    st[S.S_ROUND] = rnd
    ready_circlet(st, 0, 2)
    vp0, off, food = S.players(st)[0, S.P_VP], S.players(st)[0, S.P_OFFERINGS], S.players(st)[0, S.P_FOOD]
    run(P, st, side, S.STUDY, "circlet", target=2, bless=3)
    assert S.players(st)[0, S.P_CIRCLET + 2] == 1
    assert S.players(st)[0, S.P_VP] == vp0 + vp
    assert S.players(st)[0, S.P_OFFERINGS] == off + 1 and S.players(st)[0, S.P_FOOD] == food + 1


@KINDS
@N_TILES
def test_10_food(kind, n):
    """People tile 10: take 1 food from the supply; 2 or 3 identical tiles 2 or 3 food."""
    P, st, side = with_tiles(kind, "food", n)
    food, supply = S.players(st)[0, S.P_FOOD], st[S.S_FOOD_SUPPLY]
    run(P, st, side, kind, "food")
    assert S.players(st)[0, S.P_FOOD] == food + n
    assert st[S.S_FOOD_SUPPLY] == supply - n


def fill_display(st, column):
    """Lay a tile from the stack on every empty display space of a column (give_tile may have
    taken one from there)."""
    g, board, decks = st, st, st
    stack, counter = (S.S_STUDY_STACK, S.S_STUDY_N) if column == S.S_STUDY_DISPLAY else (S.S_FARM_STACK, S.S_FARM_N)
    for i in range(6):
        if board[column + i] < 0:
            n = g[counter]
            board[column + i] = decks[stack + n - 1]
            decks[stack + n - 1] = -1
            g[counter] = n - 1


def display_takes(P, st, side, kind, ability_name, column):
    """Display positions (pips - 1) a farming/study use can take a tile from."""
    fill_display(st, column)
    got = set()
    for i in range(6):
        st2, side2 = clone(st), clone(side)
        tile = st2[column + i]
        assert tile >= 0
        run(P, st2, side2, kind, ability_name, target=i)
        if st2[column + i] == -1:
            assert tile in S.players(st2)[0, S.P_TILE:S.P_TILE + 12]
            assert S.players(st2)[0, S.P_N_TILES] == S.players(st)[0, S.P_N_TILES] + 1
            got.add(i + 1)
    return got


@KINDS
@pytest.mark.parametrize("n, pips", [(1, {1, 2, 3}), (2, {1, 2, 3, 4, 5, 6}),
                                     (3, {1, 2, 3, 4, 5, 6})])
def test_11_farming(kind, n, pips):
    """People tile 11: take 1 farm tile from the Cuzco board as with a 3 on the farming space; 2
    identical tiles as with a 6; a third tile is useless (still one tile, still up to 6)."""
    P, st, side = with_tiles(kind, "farming", n)
    assert display_takes(P, st, side, kind, "farming", S.S_FARM_DISPLAY) == pips


@KINDS
@pytest.mark.parametrize("n, pips", [(1, {1, 2, 3}), (2, {1, 2, 3, 4, 5, 6}),
                                     (3, {1, 2, 3, 4, 5, 6})])
def test_12_study(kind, n, pips):
    """People tile 12: as 11, but a study tile from the study column of the Cuzco board."""
    P, st, side = with_tiles(kind, "study", n)
    assert display_takes(P, st, side, kind, "study", S.S_STUDY_DISPLAY) == pips


def test_12_study_needs_an_empty_space():
    """Action: Study or farming - the tile goes onto an empty mask space; with none, nothing is
    taken."""
    P, st, side = table()
    give_tile(P, st, side, 0, S.STUDY, ABILITY["study"])
    give_tile(P, st, side, 0, S.FARM, ABILITY["vp"])
    assert R.empty_spaces(P, st, 0) == 0
    run(P, st, side, S.STUDY, "study", target=0)
    assert st[S.S_STUDY_DISPLAY] >= 0 and S.players(st)[0, S.P_N_TILES] == 2


# ------------------------------------------------------------------ joint use rules
@pytest.mark.parametrize("ability_name, field, per_tile", [
    ("vp", S.P_VP, 2), ("food", S.P_FOOD, 1), ("status", S.P_STATUS, 1),
])
def test_study_and_farm_tiles_are_not_combined(ability_name, field, per_tile):
    """Phase II, Important: "You may not combine farming and study tiles with identical abilities
    for a joint usage." 1 study + 2 farm tiles: the study use counts 1 tile, the farm use 2."""
    P, st, side = table()
    make_room(st, 0, 3)
    give_tile(P, st, side, 0, S.STUDY, ABILITY[ability_name])
    give_tile(P, st, side, 0, S.FARM, ABILITY[ability_name])
    give_tile(P, st, side, 0, S.FARM, ABILITY[ability_name])
    base = S.players(st)[0, field]
    run(P, st, side, S.STUDY, ability_name)
    assert S.players(st)[0, field] == base + per_tile
    run(P, st, side, S.FARM, ability_name)
    assert S.players(st)[0, field] == base + 3 * per_tile


def test_patricias_phase_two_example():
    """Phase II example: Patricia uses 2 identical study tiles (stone trail, one slid down) "as a
    movement 4 on a stone trail (she cannot use two times the 2 ...)" and 3 identical farm tiles
    (food, two slid down): "She earns 3 food tiles"."""
    P, st, side = table()
    make_room(st, 0, 5)
    for _ in range(2):
        give_tile(P, st, side, 0, S.STUDY, ABILITY["stone_trail"])
    for _ in range(3):
        give_tile(P, st, side, 0, S.FARM, ABILITY["food"])
    R.slide_down(P, st, side[0], 0, W, S.STUDY, 1)
    R.slide_down(P, st, side[0], 0, W, S.FARM, 2)
    assert S.players(st)[0, S.P_SLID:S.P_SLID + 12].sum() == 3
    S.players(st)[0, S.P_LOC] = VILLAGE["O1"]  # trails from O1: I2 with 4 pips, O6 with 6
    food = S.players(st)[0, S.P_FOOD]
    moves = len(log_events(st, side, R.EV_MOVE))
    run(P, st, side, S.STUDY, "stone_trail", target=VILLAGE["I2"])
    run(P, st, side, S.FARM, "food")
    assert S.players(st)[0, S.P_LOC] == VILLAGE["I2"]
    assert len(log_events(st, side, R.EV_MOVE)) == moves + 1
    assert S.players(st)[0, S.P_FOOD] == food + 3
    used = log_events(st, side, R.EV_USE)[-2:, 1:5].tolist()
    assert used == [[0, S.STUDY, ABILITY["stone_trail"], 2], [0, S.FARM, ABILITY["food"], 3]]


@pytest.mark.parametrize("slid_tiles", [1, 2])
def test_slid_down_tiles_still_work(slid_tiles):
    """Phase II: "It does not matter where the tiles are on the mask board, whether they have been
    slid down or not" - slid-down status tiles (university appointment) still count jointly."""
    P, st, side = with_tiles(S.STUDY, "status", 2)
    R.slide_down(P, st, side[0], 0, W, S.STUDY, slid_tiles)
    assert S.players(st)[0, S.P_SLID:S.P_SLID + 12].sum() == slid_tiles
    status = S.players(st)[0, S.P_STATUS]
    run(P, st, side, S.STUDY, "status")
    assert S.players(st)[0, S.P_STATUS] == status + 2


def test_one_study_and_one_farm_ability_per_phase():
    """Phase II: "players may use exactly 1 ability of their study tiles and 1 ability of their
    farm tiles" - once both are used (and no card 11/15 is held), no further use is legal."""
    P, st, side = table()
    clear_hand(st, 0)
    S.players(st)[0, S.P_MEDALS] = 0
    make_room(st, 0, 4)
    for kind in (S.STUDY, S.FARM):
        give_tile(P, st, side, 0, kind, ABILITY["vp"])
        give_tile(P, st, side, 0, kind, ABILITY["food"])
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = bots(["random"] * n)

    def legal_uses(tries=40):
        seen = set()
        for _ in range(tries):
            u, best = np.zeros(R.N_U, np.int64), np.zeros(R.N_U, np.int64)
            if B.choose_use(P, st, look, *lside, 0, Wb[0], kinds[0], u, best):
                seen.add((int(best[R.U_KIND]), int(best[R.U_ABILITY])))
        return seen

    assert legal_uses() == {(k, ABILITY[a]) for k in (S.STUDY, S.FARM) for a in ("vp", "food")}
    run(P, st, side, S.STUDY, "vp")
    assert legal_uses() == {(S.FARM, ABILITY["vp"]), (S.FARM, ABILITY["food"])}
    run(P, st, side, S.FARM, "food")
    assert legal_uses() == set()


def test_the_tile_count_is_the_tiles_on_the_mask():
    """P_N_TILES counts the people tiles on a mask board (rules.count_tiles stops after that many):
    after whole games of the default line-up every seat's count is its tiles, and there are some."""
    from sim.core import registry
    from sim.core.lineup import lineup_indices
    from sim.core.params import resolve_variant_file
    from sim.games.cuzco import game as G
    game = registry.get_game("cuzco")
    names, lineup = lineup_indices(list(game.default_bots(4)))
    kinds, weights_ = game.bot_arrays(names)
    engine = resolve_variant_file(game, None).engine
    tiles = 0
    for i in range(5):
        arrays = G.new_game_arrays(4, False)
        G.play_one(engine, arrays, 4, kinds[np.array(lineup)], weights_[np.array(lineup)], np.uint64(3), np.uint64(i),
                   False, None)
        pl = S.players(arrays[0])
        for seat in range(4):
            on_mask = int((pl[seat, S.P_TILE:S.P_TILE + 12] >= 0).sum())
            assert pl[seat, S.P_N_TILES] == on_mask
            tiles += on_mask
    assert tiles > 20
