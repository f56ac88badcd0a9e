"""A card's value and held win rate as `sim balance` metrics, and the card-strength table's causal
value column (issue 37)."""
import json

import numpy as np
import pandas as pd
import pytest

from sim.analysis.cards import card_strength, value_evidence
from sim.analysis.io import open_dataset
from sim.cli.commands import main
from sim.core.errors import UserError
from sim.studies import balance as B


def test_card_metrics_parse_and_describe():
    m = B.parse_metric("card_value:double_people")
    assert (m.kind, m.item, m.is_rate) == ("card_value", "double_people", False)
    assert "value of double_people" in m.describe()
    m = B.parse_metric("card_held_win:jump")
    assert (m.kind, m.item, m.is_rate) == ("card_held_win", "jump", True)
    for bad in ("card_value", "card_value:", "card_held_win"):
        with pytest.raises(UserError, match="unknown metric"):
            B.parse_metric(bad)
    with pytest.raises(UserError, match="cuzco has no card 'thunder'"):
        B.card_group("cuzco", "thunder")


def test_held_win_per_game():
    """The share of a game's holders who won; a game counts when someone held it and someone won."""
    won = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0]], bool)
    held = np.array([[1, 1, 0], [1, 0, 0], [1, 0, 0], [0, 0, 0]], bool)
    value, counts = B.held_win(won, held)
    assert value.tolist() == [0.5, 0.0, 0.0, 0.0] and counts.tolist() == [True, True, False, False]


def test_balance_searches_a_cards_cost_by_its_value(tmp_path, capsys):
    """`sim balance cuzco --param gods.cards.double_people.offerings --metric card_value:double_people`
    plays (a tiny budget: the plumbing, not an answer) and records per-game values in -1..1."""
    out = tmp_path / "ev"
    main(["balance", "cuzco", "--param", "gods.cards.double_people.offerings", "--range", "1,3", "--metric",
          "card_value:double_people", "--target", "0", "--tolerance", "0.05", "--batch", "10", "--games", "40",
          "--players", "4", "--workers", "1", "--no-progress", "--out", str(out)])
    manifest, batches, candidates = B.read_evidence(out)
    assert "card_value:double_people" in json.dumps(manifest)
    games = pd.read_parquet(out / "games")
    assert set(np.unique(games["value"])) <= {-1.0, 0.0, 1.0} and len(games) == batches["games"].sum()
    assert batches["games"].sum() >= 20


def test_balance_bad_card_is_one_line_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["balance", "cuzco", "--param", "gods.cards.jump.offerings", "--range", "1,3", "--metric",
              "card_value:thunder", "--target", "0", "--out", str(tmp_path / "ev")])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "has no card 'thunder'" in err and not (tmp_path / "ev").exists()


def test_card_strength_shows_the_causal_value_when_a_table_fits(tmp_path):
    """A `sim value` table of the dataset's game, players and variant in the dataset folder's value/
    puts value, value_lo, value_hi and value_games beside the GIH WR of those cards."""
    run = tmp_path / "runs" / "cuzco"
    main(["run", "cuzco", "--games", "6", "--workers", "1", "--no-progress", "--out", str(run)])
    (tmp_path / "runs" / "value").mkdir()
    table = pd.DataFrame({"group": ["gods", "gods"], "item": ["double_people", "jump"], "value": [0.03, -0.01],
                          "value_lo": [0.01, -0.02], "value_hi": [0.05, 0.0], "games": [400, 400],
                          "game": "cuzco", "variant": "base", "players": 4})
    table.to_csv(tmp_path / "runs" / "value" / "cuzco-gods.csv", index=False)
    table.assign(players=3, value=0.5).to_csv(tmp_path / "runs" / "value" / "cuzco-gods-3p.csv", index=False)
    ds = open_dataset(run)
    t = card_strength(ds, group="god card", figure=False).table.set_index("item")
    assert t.loc["double_people", "value"] == 0.03 and t.loc["jump", "value_hi"] == 0.0
    assert t.loc["double_people", "value_games"] == 400 and np.isnan(t.loc["slide_up", "value"])
    assert list(t.columns).index("value") == list(t.columns).index("gih_hi") + 1
    assert "value" not in card_strength(ds, group="god card", figure=False, value=None).table.columns
    figure = card_strength(ds, group="god card").figure
    labels = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert any(label.startswith("double_people") and "value +3.0 [+1.0, +5.0]" in label for label in labels)
    assert value_evidence(ds, table.assign(variant="pututu")) is None
    assert value_evidence(ds, table.assign(bots="random,random,random,random")) is None
    lineup = ",".join(ds.config["bots"])
    assert value_evidence(ds, table.assign(bots=lineup))["value"].tolist() == [0.03, -0.01]
    # a mixed line-up's seating must match too: this run rotated its seats
    assert len(set(ds.config["bots"])) > 1 and not ds.config.get("permute_seats", False)
    assert value_evidence(ds, table.assign(bots=lineup, permute_seats=True)) is None
    assert value_evidence(ds, table.assign(bots=lineup, permute_seats=False))["value"].tolist() == [0.03, -0.01]
