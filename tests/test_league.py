"""`sim league` (sim/studies/league.py): generation k+1 of each style tuned against generation k of
every style, kept only when it beats generation k on held-out games (issue 36, item 2)."""
from __future__ import annotations

import json
import shutil

import pytest

from sim.core import registry
from sim.studies import league
from sim.studies.league import LeagueSettings, gain_interval, run_league, set_default_lineup


def test_the_gain_interval_is_the_difference_of_two_rates():
    gain, low, high = gain_interval(600, 2000, 500, 2000)
    assert gain == pytest.approx(0.05)
    assert low > 0 and high < 0.1 and (high - low) / 2 == pytest.approx(1.96 * (0.3 * 0.7 / 2000 + 0.25 * 0.75 / 2000) ** 0.5,
                                                                         rel=1e-3)
    assert gain_interval(510, 2000, 500, 2000)[1] < 0  # five more wins in 2,000 games: not significant


@pytest.fixture
def chachapoya_copy(tmp_path, monkeypatch):
    """Chachapoya with its bot files copied to tmp_path (the league writes there, not in the repository)."""
    game = registry.get_game("chachapoya")
    data = game.data
    for name in ("BOTS_FILE", "TUNED_BOTS_FILE"):
        copy = tmp_path / getattr(data, name).name
        shutil.copy(getattr(data, name), copy)
        monkeypatch.setattr(data, name, copy)
    game.reload_bots()
    yield game
    monkeypatch.undo()
    game.reload_bots()


TUNED = ["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-tuned"]  # generation 0 of every style


def _settings(tmp_path, **extra) -> LeagueSettings:
    return LeagueSettings(generations=2, tune_generations=1, games=24, validation_games=48, workers=1,
                          state_dir=tmp_path / "states", progress=False, start=TUNED, **extra)


def test_a_kept_generation_is_a_named_bot_and_the_next_one_plays_against_it(chachapoya_copy, tmp_path, monkeypatch):
    kept = {"bluffer"}
    real = league.gain_interval
    calls = []

    def decided(*counts):
        calls.append(counts)
        style = ["balanced", "cautious", "greedy", "bluffer"][(len(calls) - 1) % 4]
        return (0.05, 0.01, 0.09) if style in kept else real(*counts)[:1] + (-0.1, 0.1)

    monkeypatch.setattr(league, "gain_interval", decided)
    result = run_league(chachapoya_copy, _settings(tmp_path, set_default=True))
    first, second = result.generations
    assert [e["kept"] for e in first["styles"]] == [False, False, False, True]
    assert "bluffer-g1" in chachapoya_copy.bots()
    assert second["pool"] == ["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-g1"]
    assert result.final == ["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-g2"]
    assert chachapoya_copy.default_bots(4) == result.final
    record = json.loads((tmp_path / "tune_logs" / "league.json").read_text())[-1]
    assert record["final"] == result.final and len(record["generations"]) == 2


def test_the_league_stops_when_no_style_gains(chachapoya_copy, tmp_path, monkeypatch):
    monkeypatch.setattr(league, "gain_interval", lambda *counts: (0.0, -0.1, 0.1))
    result = run_league(chachapoya_copy, _settings(tmp_path))
    assert len(result.generations) == 1 and "no style's gain is significant" in result.stopped
    assert result.final == ["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-tuned"]


def test_set_default_lineup_keeps_the_comments(chachapoya_copy):
    path = set_default_lineup(chachapoya_copy, ["balanced", "cautious", "greedy", "bluffer"])
    text = path.read_text()
    assert 'default = ["balanced", "cautious", "greedy", "bluffer"]' in text and text.startswith("#")


def test_bad_styles_are_one_line_errors(capsys):
    from sim.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["league", "chachapoya", "--styles", "random,random,random,random"])
    assert exit_.value.code == 2 and "has no weights to tune" in capsys.readouterr().err


def test_a_generation_falls_back_along_the_names_it_was_tuned_from():
    """A designer who removes bots.tuned.toml keeps a working line-up: balanced-g3 falls back to the
    nearest of balanced-g2, balanced-g1, balanced-tuned, balanced that still exists."""
    from sim.core.bots_file import nearest_known, tuned_from

    assert [tuned_from(n) for n in ("balanced-g3", "balanced-g1", "balanced-tuned", "balanced")] == [
        "balanced-g2", "balanced-tuned", "balanced", None]
    assert tuned_from("temple-priest-chain-g12") == "temple-priest-chain-g11"
    assert nearest_known("balanced-g3", {"balanced-g1", "balanced"}) == "balanced-g1"
    assert nearest_known("balanced-g3", {"balanced"}) == "balanced"
    assert nearest_known("nobody-g2", {"balanced"}) == "nobody-g2"
