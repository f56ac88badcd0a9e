"""Days and nights (rulebook sections "Game Flow", "End of a Day", "Night Phase", "Final Day (Day 9)",
"Game End")."""
from __future__ import annotations

import pytest

from machu_picchu_helpers import DISTRICT, MOON, PARAMS, Table, engine, random_game_logged
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S


def _full_game(n, seed, variant=None):
    P = engine(variant)
    return random_game_logged(P, n, seed, 0)


def _actions(log, n_rows):
    """(row, seat, kind) of every action in a log: a move or a stay (moon tile)."""
    return [(i, int(log[i, 1]), int(log[i, 0])) for i in range(n_rows) if log[i, 0] in (S.EV_MOVE, S.EV_MOON)]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_third_moon_tile_takes_the_sun_then_everyone_else_acts_once(n):
    """End of a Day: the taker of the 3rd moon tile takes the sun tile and starts the next day; every
    other player takes one more action in turn, and the last of them takes the time track's corn."""
    for seed in range(3):
        st, log = _full_game(n, seed)
        assert int(st[S.S_ERROR]) == 0
        rows = log[:st[S.S_LOG_N]]
        suns = [i for i in range(len(rows)) if rows[i, 0] == S.EV_SUN]
        assert len(suns) == int(st[S.S_DAYS_PLAYED])
        for i in suns:
            taker = int(rows[i, 1])
            before = [r for r in range(i) if rows[r, 0] == S.EV_MOON]
            assert int(rows[before[-1], 1]) == taker and int(rows[before[-1], 3]) == 3
            corn = next(r for r in range(i, len(rows)) if rows[r, 0] == S.EV_DAY_CORN)
            after = [seat for r, seat, _ in _actions(rows, len(rows)) if i < r < corn]
            assert after == [(taker + k) % n for k in range(1, n)]
            assert int(rows[corn, 1]) == (taker - 1) % n
            nxt = [r for r in range(corn, len(rows)) if rows[r, 0] == S.EV_DAY]
            if nxt:
                assert int(rows[nxt[0], 2]) == taker


@pytest.mark.parametrize("n,days", [(2, 9), (3, 8), (4, 7), (5, 7)])
def test_the_spanish_arrive_after_day_9(n, days):
    """Setup: the time marker starts on day 1 / 2 / 3 for 2 / 3 / 4-5 players; Game End 3: the game ends
    after day 9 when neither other condition came first (random bots never buy all 15 cards)."""
    st, _ = _full_game(n, 11)
    assert int(st[S.S_END_REASON]) == S.END_SPANISH
    assert int(st[S.S_DAYS_PLAYED]) == days and int(st[S.S_DAY]) == 9


def test_the_time_track_corn_goes_to_the_last_player_or_back_to_the_supply():
    """End of a Day, README ambiguity 4: the last player to act takes the 1 corn above the time marker;
    rules.day_end_corn_to_last_player = false returns it to the supply instead."""
    t = Table(4)
    track = int(t.st[S.S_TIME_CORN])
    assert track == 9 - 3 + 1
    corn = t.goods(2, "corn")
    R.take_time_corn(t.P, t.st, t.log, 2)
    assert t.goods(2, "corn") == corn + 1 and int(t.st[S.S_TIME_CORN]) == track - 1
    t.check()
    off = Table(4, variant={"rules": {"day_end_corn_to_last_player": False}})
    corn, supply = off.goods(2, "corn"), off.supply("corn")
    R.take_time_corn(off.P, off.st, off.log, 2)
    assert off.goods(2, "corn") == corn and off.supply("corn") == supply + 1
    off.check()


def test_restock_adds_one_good_three_corn_one_stone_up_to_the_caps():
    """Night Phase, New Goods (README ambiguity 6, the '9x' districts): 1 good on each production area
    (3 corn on the terraces), 1 stone on each temple; at most 2 goods, 6 corn, 2 stones lying there."""
    t = Table(4)
    for name, before, after in (("llamas_meadow", 0, 1), ("coca_plantation", 1, 2), ("weavers_quarter", 2, 2),
                                ("corn_terraces", 3, 6), ("corn_terraces", 5, 6), ("corn_terraces", 6, 6)):
        d = DISTRICT[name]
        t.st[S.S_SUPPLY + d] += int(t.st[S.S_DISTRICT + d]) - before
        t.st[S.S_DISTRICT + d] = before
        R.restock(t.P, t.st)
        assert int(t.st[S.S_DISTRICT + d]) == after, name
    for name in ("sun_temple", "puma_temple", "condor_temple", "main_temple"):
        R.restock(t.P, t.st)
        assert int(t.st[S.S_DISTRICT + DISTRICT[name]]) == 2
    assert int(t.st[S.S_STONE_SUPPLY]) == 0
    t.check()


def test_moon_tile_uses_steps_a_good_for_1_corn_or_3_corn():
    """Night Phase, Moon Tiles: move the scout 2 or 3 steps, or pay 1 corn for the good shown, or take
    3 corn, whose corn may pay for another tile's good."""
    t = Table(4)
    t.clear(0)
    t.set(0, S.P_SCOUT, 0)
    first, second = MOON["m1"], MOON["m5"]
    R.hold_moon_tile(t.st, t.log, 0, first)
    R.hold_moon_tile(t.st, t.log, 0, second)
    options = t.options(R.list_moon_uses(t.P, t.st, 0, -1))
    assert sorted(options) == sorted([(first, S.MOON_STEPS), (first, S.MOON_CORN), (second, S.MOON_STEPS),
                                      (second, S.MOON_CORN)])
    t.call(R.use_moon_tile, 0, second, S.MOON_CORN)
    assert t.goods(0, "corn") == 3
    assert (first, S.MOON_GOOD) in t.options(R.list_moon_uses(t.P, t.st, 0, first))
    good = PARAMS.resolved["moon"]["m1"]["good"]
    t.call(R.use_moon_tile, 0, first, S.MOON_GOOD)
    assert t.goods(0, "corn") == 2 and t.goods(0, good) == 1
    t.call(R.use_moon_tile, 0, first, S.MOON_STEPS)
    assert t.at(0, S.P_SCOUT) == PARAMS.resolved["moon"]["m1"]["steps"]


def test_moon_tiles_show_2_or_3_steps():
    """README ambiguity 5: '23步' read as 2 or 3 steps; 7 tiles."""
    tiles = {name: tile for name, tile in PARAMS.resolved["moon"].items() if name != "source"}
    assert len(tiles) == 7
    assert {tile["steps"] for tile in tiles.values()} == {2, 3}


def test_night_uses_every_moon_tile_and_gives_them_back():
    """Night Phase: the holders use their tiles, then all 7 go back beside the moon; the sun-tile
    holder starts the next day, with the time marker one day on."""
    t = Table(4)
    for p, tile in ((0, "m1"), (2, "m2"), (2, "m3")):
        R.hold_moon_tile(t.st, t.log, p, MOON[tile])
    t.st[S.S_SUN_HOLDER] = 2
    day = int(t.st[S.S_DAY])
    t.call(R.play_night, 1)
    assert all(int(t.st[S.S_MOON_HOLDER + m]) == -1 for m in range(7))
    assert [row[0] for row in t.events(S.EV_MOON_USE)] == [2, 2, 0]
    assert int(t.st[S.S_START]) == 2 and int(t.st[S.S_DAY]) == day + 1
    t.check()


def test_on_day_9_a_moon_tile_is_used_at_once():
    """Final Day: "a player who takes a moon tile uses its benefit immediately" and keeps the tile."""
    t = Table(4)
    t.st[S.S_DAY] = 9
    t.set(1, S.P_PRINCE, DISTRICT["central_plaza"])
    t.call(R.take_moon_tile, 1)
    assert len(t.events(S.EV_MOON_USE)) == 1
    held = [m for m in range(7) if int(t.st[S.S_MOON_HOLDER + m]) == 1]
    assert len(held) == 1
    t.check()


def test_the_game_ends_after_the_action_that_took_the_last_offering_card():
    """Game End 2: with one card left and every scout one step from the summit, the day stops right
    after the action that took it: no later action is logged."""
    t = Table(4, seed=5)
    t.deck_down_to(1)
    for p in range(4):
        t.set(p, S.P_SCOUT, 19)
    t.call(R.play_day, 1)
    assert int(t.st[S.S_END_PENDING]) == S.END_DECK
    rows = t.log[:t.st[S.S_LOG_N]]
    last_draw = max(i for i in range(len(rows)) if rows[i, 0] == S.EV_SUMMIT and rows[i, 2] == 1)
    assert not any(rows[i, 0] in (S.EV_MOVE, S.EV_MOON) for i in range(last_draw + 1, len(rows)))
    R.finish_game(t.P, t.st, t.log)
    assert int(t.st[S.S_END_REASON]) == S.END_DECK
    t.check()


def test_a_game_never_goes_past_day_9_even_with_an_earlier_start():
    """Final Day: there is no night after day 9; each tile taken that day is used once, at once (a
    night would use the kept tiles a second time)."""
    st, log = _full_game(2, 4)
    rows = log[:st[S.S_LOG_N]]
    days = [int(r[1]) for r in rows if r[0] == S.EV_DAY]
    assert days == list(range(1, 10))
    last_day = max(i for i in range(len(rows)) if rows[i, 0] == S.EV_DAY)
    taken = [i for i in range(last_day, len(rows)) if rows[i, 0] == S.EV_MOON]
    used = [i for i in range(last_day, len(rows)) if rows[i, 0] == S.EV_MOON_USE]
    assert len(taken) >= 3 and len(used) == len(taken)
    for take, use in zip(taken, used):
        assert take < use and not any(rows[i, 0] in (S.EV_MOVE, S.EV_MOON) for i in range(take + 1, use))
