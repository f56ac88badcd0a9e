"""The bots' look-ahead shortcuts change no choice (issue 13): a requirement reads only the fields
it declares, look_value equals position_value on any look-ahead, and an exchange beyond its limit
leaves the position as it was. (tests/test_cuzco_reference.py pins whole games of the lookahead
kind: the run lookahead-4p.)"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cuzco_helpers import ABILITY, ACTION, MISSIONS, PEOPLE, give_tile, option, space_of, table, weights
from sim.core.params import load_variant
from sim.games.cuzco import GAME
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

SEAT = 1
VARIANTS = Path(__file__).resolve().parents[1] / "variants"
N_PLAYERS = 4


def seat_field(field, i=0):
    return S.S_PLAYERS + SEAT * S.N_P + field + i


def perturb(st, rng):
    """Change one thing of the seat's holdings or the temple to another legal value."""
    pl = S.players(st)[SEAT]
    what = rng.integers(14)
    if what == 0:
        tiled = [i for i in range(12) if pl[S.P_TILE + i] >= 0]
        if tiled:
            i = tiled[rng.integers(len(tiled))]
            pl[S.P_SLID + i] ^= 1
    elif what == 1:
        i = rng.integers(12)
        pl[S.P_TILE + i] = -1 if pl[S.P_TILE + i] >= 0 and rng.random() < 0.3 else rng.integers(PEOPLE.shape[0])
        pl[S.P_N_TILES] = int((pl[S.P_TILE:S.P_TILE + 12] >= 0).sum())
    elif what == 2:
        c = rng.integers(S.N_COLOURS)
        pl[S.P_FEATHERS + c] = rng.integers(4)
    elif what == 3:
        pl[S.P_GOODS + rng.integers(S.N_GOODS)] += 1
    elif what == 4:
        pl[S.P_HAND + rng.integers(S.N_CARDS)] += 1
    elif what == 5:
        pl[S.P_DELIVERED + rng.integers(S.N_VILLAGES)] ^= 1
    elif what == 6:
        pl[S.P_QUIPU_DELIVERED] += 1
    elif what == 7:
        pl[S.P_FOOD] += 1 + rng.integers(3)
    elif what == 8:
        pl[S.P_MEDALS] += 1
    elif what == 9:
        pl[S.P_OFFERINGS] += 1
    elif what == 10:
        pl[S.P_CIRCLET + rng.integers(S.N_CIRCLETS)] ^= 1
    elif what == 11:
        pl[S.P_ORDER_POS] = rng.integers(N_PLAYERS)
    elif what == 12:
        st[S.S_TEMPLE + rng.integers(S.N_TEMPLE)] = rng.integers(-1, N_PLAYERS)
    else:
        pl[S.P_VP] += 1
        pl[S.P_LOC] = rng.integers(S.N_VILLAGES + 1)


def holdings(seed):
    """A table with the seat's holdings shuffled by a few dozen changes, and three missions."""
    P, st, side = table(N_PLAYERS, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(40):
        perturb(st, rng)
    for slot in range(3):
        st[seat_field(S.P_MISSION, slot)] = rng.integers(MISSIONS.shape[0])
    return P, st, side, rng


@pytest.mark.parametrize("kind", range(1, S.MK_PEOPLE_WITH_ABILITY + 1))
def test_a_requirement_reads_only_the_fields_it_declares(kind):
    """Addendum: The Missions of the Sapa Inca - each requirement kind counts one thing; a change
    anywhere outside the fields requirement_fields names never changes how much a player has."""
    start, count = R.requirement_fields(SEAT, kind)
    assert start >= 0
    declared = set(range(start, start + count))
    checked = 0
    for seed in range(6):
        P, st, side, rng = holdings(seed)
        for arg in range(3):
            have = R.requirement_have(P, st, SEAT, kind, arg)
            for _ in range(30):
                other = st.copy()
                perturb(other, rng)
                touched = set(np.flatnonzero(other != st).tolist())
                if touched and not touched & declared:
                    checked += 1
                    assert R.requirement_have(P, other, SEAT, kind, arg) == have
    assert checked > 100


def test_look_value_is_position_value():
    """The decision's remembered tile and mission parts are reused only when nothing they read
    changed: on every look-ahead the value is exactly position_value's."""
    lrec = S.new_side(N_PLAYERS, False)[0]
    reused = recomputed = 0
    tiles = slice(seat_field(S.P_TILE), seat_field(S.P_TILE) + S.MASK_FIELDS)
    for seed in range(8):
        P, st, side, rng = holdings(100 + seed)
        for style in ("balanced", "temple", "runner", "market"):
            w = weights(style)
            B.remember_decision_base(P, st, SEAT, w, lrec)
            for _ in range(40):
                look = st.copy()
                for _ in range(rng.integers(1, 3)):
                    perturb(look, rng)
                if rng.random() < 0.2:
                    look[seat_field(S.P_MISSION, rng.integers(3))] = rng.integers(-1, MISSIONS.shape[0])
                same = np.array_equal(look[tiles], st[tiles])
                reused += same
                recomputed += not same
                assert B.look_value(P, st, look, lrec, SEAT, w) == B.position_value(P, look, SEAT, w)
    assert reused > 100 and recomputed > 100


@pytest.mark.parametrize("name", ["status", "offering", "quipu_to_reserve"])
def test_an_exchange_beyond_its_limit_does_nothing(name):
    """Action: Exchange - a status exchange needs an unslid study tile, an offering one the
    supply, a quipu one a quipu on the mask board: exchange_limit counts them on the position
    before the turn, and one more exchange than that leaves every field as it was."""
    P, st, side = table(N_PLAYERS, seed=3)
    pl = S.players(st)
    ex = S.EXCHANGE_NAMES.index(name)
    pl[SEAT, S.P_QUIPU_MASK] -= 2
    pl[SEAT, S.P_QUIPU_RESERVE] += 2
    limit = 2
    if name == "status":
        for a in ("vp", "food"):
            give_tile(P, st, side, SEAT, S.STUDY, ABILITY[a], value=1)
    elif name == "offering":
        st[S.S_OFFERING_SUPPLY] = limit
    else:
        pl[SEAT, S.P_QUIPU_MASK] = limit
    pl[SEAT, S.P_DICE] = 6
    after = []
    for times in (limit, limit + 1):
        opt = option(die=0, pips=6, space=space_of(st, "exchange"), action=ACTION["exchange"], ex={name: times})
        if times == limit:
            assert B.exchange_limit(P, st, SEAT, opt, ex) == limit
        look = st.copy()
        look_side = S.new_side(N_PLAYERS, False)
        R.perform_turn(P, look, *look_side, SEAT, weights(), opt)
        after.append(look)
    assert np.array_equal(after[0], after[1])
    with_card = option(die=0, pips=6, space=space_of(st, "exchange"), action=ACTION["exchange"], card=0)
    assert B.exchange_limit(P, st, SEAT, with_card, ex) == -1


@pytest.mark.parametrize("variant_file", [None, "cuzco-pututu.toml"])
def test_the_way_table_is_the_roads_table(variant_file):
    """The Road System: road_between reads a table data.py derives from the roads (fewest pips of
    a trail, of a bridge, of either, in both directions); it equals a scan of the roads."""
    variant = None if variant_file is None else load_variant(VARIANTS / variant_file)[1]
    P = GAME.resolve_params(variant).engine
    roads = S.param_tables(P)[2]
    for a in range(S.N_VILLAGES):
        for b in range(S.N_VILLAGES):
            for kind in (S.WAY_TRAIL, S.WAY_BRIDGE, S.WAY_ANY):
                pips = [r[S.RF_PIPS] for r in roads if {int(r[S.RF_A]), int(r[S.RF_B])} == {a, b} and a != b
                        and (kind == S.WAY_ANY or r[S.RF_KIND] == kind)]
                assert R.road_between(P, a, b, kind) == min(pips, default=99)
