"""Reading datasets for analysis: only the named columns, the manifest, clear errors."""
import pytest

from sim.analysis.io import open_dataset
from sim.core.errors import UserError


def test_open_dataset_reads_manifest_and_named_columns(cuzco_small, cuzco_small_pututu):
    d = open_dataset(cuzco_small)
    assert (d.game, d.n_players, d.variant, d.n_games) == ("cuzco", 4, "base", 400)
    players = d.players(["game_id", "seat", "won"])
    assert list(players.columns) == ["game_id", "seat", "won"]
    assert len(players) == 1600 and players.won.sum() == 400
    assert open_dataset(cuzco_small_pututu).variant == "pututu"
    assert "cuzco (base), 4 players, 400 games" == d.label


def test_batches_cover_the_table(chachapoya_small):
    d = open_dataset(chachapoya_small)
    rows = sum(len(b) for b in d.batches("players", ["won"], batch_rows=1000))
    assert rows == 4 * d.n_games


def test_bad_paths_and_columns_are_one_line_errors(tmp_path, cuzco_small):
    with pytest.raises(UserError, match="not a dataset directory"):
        open_dataset(tmp_path)
    with pytest.raises(UserError, match="no column 'nope'"):
        open_dataset(cuzco_small).players(["nope"])
