"""`make run` sized by precision (issue 37): a report's `sim run` datasets play until their headline
intervals are narrow enough, or a cap (sim.analysis.report.ensure_precision)."""
from __future__ import annotations

import json

import pytest

from sim.analysis import report
from sim.analysis.report import DatasetSpec, ensure_datasets, headline_half_width


@pytest.fixture
def small_steps(monkeypatch):
    monkeypatch.setattr(report, "PRECISION_START", 2000)
    monkeypatch.setattr(report, "SIMULATION_CHUNK", 1000)


def test_a_dataset_grows_until_its_headline_intervals_are_narrow_enough(small_steps, tmp_path):
    spec = DatasetSpec(tmp_path / "ds", "chachapoya", games=20000, players=4, seed=2, precision=0.015)
    assert ensure_datasets([spec], progress=False) == [spec]
    manifest = json.loads((tmp_path / "ds" / "manifest.json").read_text())
    games = manifest["config"]["games"]
    assert 2000 < games < 20000 and games % 1000 == 0 and manifest.get("grown")
    assert headline_half_width(tmp_path / "ds") <= 0.015
    # asked again: precise enough already, nothing is played
    assert ensure_datasets([spec], progress=False) == []


def test_the_cap_stops_a_dataset_that_is_not_yet_precise(small_steps, tmp_path):
    spec = DatasetSpec(tmp_path / "ds", "chachapoya", games=3000, players=4, seed=2, precision=0.001)
    ensure_datasets([spec], progress=False)
    assert json.loads((tmp_path / "ds" / "manifest.json").read_text())["config"]["games"] == 3000
    assert headline_half_width(tmp_path / "ds") > 0.001


def test_precision_is_given_in_points_and_checked(capsys):
    from sim.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["report", "--precision", "-1", "--no-simulate"])
    assert exit_.value.code == 2 and "--precision is in percentage points" in capsys.readouterr().err
