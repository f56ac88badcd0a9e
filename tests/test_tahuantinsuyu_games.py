"""Whole games (issue 16): checked mode over thousands of random games for 3 and 4 players (labour,
tiles, chips and Sun cards conserved; roads only along the dashed lines; VP by source adding up; the
network what the roads join), and the columns the analyses read."""
from __future__ import annotations

import numpy as np
import pytest

from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.tahuantinsuyu import GAME

PARAMS = GAME.resolve_params(None)


def _run(lineup, n_games, seed=11, variant=None):
    params = GAME.resolve_params(variant) if variant else PARAMS
    names, idx = lineup_indices(lineup)
    return GAME.simulate(params, len(lineup), names, seat_bot_matrix(idx, 0, n_games, True), seed, 0, n_games, True)


@pytest.mark.parametrize("n", [3, 4])
def test_thousands_of_random_games_in_checked_mode(n):
    res = _run(["random"] * n, 2000)
    assert res.failures == []
    g, pl = res.game_columns, res.player_columns
    assert (g["n_rounds"] == 7).all() and (g["pizarro_round"] == 7).all()
    assert set(np.unique(g["pizarro_people_phase"])) == {1, 2, 3, 4}
    assert (g["sapa_inca_phases"] == 6).all()
    assert pl["won"].sum() == 2000


def test_start_order_is_the_first_turn_position_0_first():
    """The analyses read `start_order` as the turn-order position, 0 for the first player (as Cuzco
    records it; card_strength refused the 1-based card numbers): each game's seats hold 0..n-1."""
    for n in (3, 4):
        so = np.asarray(_run(["random"] * n, 40).player_columns["start_order"]).reshape(40, n)
        assert (np.sort(so, axis=1) == np.arange(n)).all()


def test_the_default_line_up_in_checked_mode_for_3_and_4_players():
    for n in (3, 4):
        res = _run(GAME.default_bots(n), 300)
        assert res.failures == []


def test_vp_by_source_add_up_to_the_score():
    pl = _run(GAME.default_bots(4), 200).player_columns
    sources = [c for c in pl if c.startswith("vp_")]
    assert (sum(pl[c].astype(int) for c in sources) == pl["score"]).all()


def test_without_the_transfers_variant_no_labour_changes_hands():
    res = _run(GAME.default_bots(4), 100, variant={"rules": {"transfer_early_leader": 0, "transfer_late_leader": 0,
                                                            "transfer_late_second": 0}})
    assert (res.game_columns["catch_up_transfers"] == 0).all()
    assert (res.player_columns["labour_given"] == 0).all()


def test_every_robustness_table_plays_checked_games_for_3_and_4_players():
    """Each alternative reading and map of robust.toml (Wilderness Road, conquest reach, the road's end,
    the corridor map, the 3-player overlay, ...) is a variant file the engine plays in checked mode."""
    import tomllib
    from pathlib import Path
    from sim.core.params import load_variant
    root = Path(__file__).resolve().parents[1]
    tables = tomllib.loads((root / "sim/games/tahuantinsuyu/robust.toml").read_text())["tables"]
    assert len(tables) >= 9
    for table in tables:
        _, variant = load_variant(root / table["variant"])
        for n in (3, 4):
            res = _run(GAME.default_bots(n), 30, variant=variant)
            assert res.failures == [], table["variant"]
