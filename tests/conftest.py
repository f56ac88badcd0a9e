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


# ------------------------------------------------------------------ small datasets for analysis
def _small_run(tmp_path_factory, name, game_name, n_players, n_games, seed, variant=None):
    """A real `sim run` dataset, made once per test session (the analysis tests read it)."""
    from sim.core import registry, runner
    from sim.core.lineup import lineup_indices

    game = registry.get_game(game_name)
    params = game.resolve_params(variant, "pututu" if variant else "base")
    names, idx = lineup_indices(game.default_bots(n_players))
    out = tmp_path_factory.mktemp("datasets") / name
    runner.run(game, params, n_players, names, idx, True, n_games, seed, out, 2, 1000, progress=False)
    return out


@pytest.fixture(scope="session")
def cuzco_small(tmp_path_factory):
    """400 four-player Cuzco games, default line-up, seats rotated, seed 11."""
    return _small_run(tmp_path_factory, "cuzco-base", "cuzco", 4, 400, 11)


@pytest.fixture(scope="session")
def cuzco_small_pututu(tmp_path_factory):
    """The same 400 games' seeds with the Pututu module (common random numbers)."""
    return _small_run(tmp_path_factory, "cuzco-pututu", "cuzco", 4, 400, 11, {"pututu": {"enabled": True}})


@pytest.fixture(scope="session")
def chachapoya_small(tmp_path_factory):
    """2,000 four-player Chachapoya games, default line-up, seats rotated, seed 11."""
    return _small_run(tmp_path_factory, "chachapoya-base", "chachapoya", 4, 2000, 11)
