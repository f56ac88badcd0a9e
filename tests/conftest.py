"""Shared fixtures: the fake dice game, registered as a game package so registry and CLI see it."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS_DIR))

import fakegame  # noqa: E402


@pytest.fixture
def game():
    return fakegame.GAME


@pytest.fixture
def fake_games_path(tmp_path):
    """A directory holding a `dicey` package that re-exports the fake game."""
    package = tmp_path / "games_ext" / "dicey"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("from fakegame import GAME\n")
    return package.parent


@pytest.fixture
def with_fake_game(monkeypatch, fake_games_path):
    """Make `dicey` discoverable by the real registry (sim.games.__path__ extended)."""
    import sim.games

    monkeypatch.setattr(sim.games, "__path__", [*sim.games.__path__, str(fake_games_path)])
    yield
    sys.modules.pop("sim.games.dicey", None)
