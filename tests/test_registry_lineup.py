import numpy as np
import pytest

from sim.core import registry
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices, parse_bots, seat_bot_matrix


def test_unknown_game_lists_known_games(with_fake_game):
    with pytest.raises(UserError, match=r"unknown game 'nosuchgame' \(known: .*dicey"):
        registry.get_game("nosuchgame")


def test_discovers_fake_game(with_fake_game):
    assert "dicey" in registry.game_names()
    assert registry.get_game("dicey").name == "dicey"
    assert "dicey" in [g.name for g in registry.all_games()]


def test_parse_bots(game):
    assert parse_bots(game, None, 3) == ["random"] * 3
    assert parse_bots(game, "greedy", 3) == ["greedy"] * 3
    assert parse_bots(game, "greedy, random,greedy", 3) == ["greedy", "random", "greedy"]


@pytest.mark.parametrize("spec, match", [
    ("nobot", r"unknown bot 'nobot' for dicey \(known: greedy, random\)"),
    ("random,greedy", "names 2 bots but the game has 3 players"),
    ("random,,greedy", "empty bot name"),
])
def test_parse_bots_errors(game, spec, match):
    with pytest.raises(UserError, match=match):
        parse_bots(game, spec, 3)


def test_lineup_indices():
    names, idx = lineup_indices(["b", "a", "b", "c"])
    assert names == ["b", "a", "c"]
    assert idx.dtype == np.int8 and idx.tolist() == [0, 1, 0, 2]


def test_seat_bot_matrix_without_rotation():
    m = seat_bot_matrix(np.array([0, 1, 2], dtype=np.int8), 10, 4, rotate=False)
    assert m.dtype == np.int8 and m.shape == (4, 3)
    assert (m == [0, 1, 2]).all()


def test_seat_bot_matrix_rotation_depends_on_game_index_only():
    lineup = np.array([5, 6, 7, 8], dtype=np.int8)
    whole = seat_bot_matrix(lineup, 0, 10, rotate=True)
    assert whole[0].tolist() == [5, 6, 7, 8]
    assert whole[1].tolist() == [6, 7, 8, 5]
    assert whole[6].tolist() == [7, 8, 5, 6]
    pieces = np.vstack([seat_bot_matrix(lineup, 0, 3, True), seat_bot_matrix(lineup, 3, 7, True)])
    assert (pieces == whole).all() and whole.dtype == np.int8
