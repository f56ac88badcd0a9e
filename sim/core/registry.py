"""Discovery of game packages under `sim.games`, so the core never names a game.

Games are imported only when asked for: a broken or slow-to-import game must not stop
`sim run othergame` or an "unknown game" message.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import sim.games
from sim.core.errors import UserError
from sim.core.game import Game


def game_names() -> list[str]:
    """Names of the game packages, sorted, without importing them."""
    return sorted(info.name for info in pkgutil.iter_modules(sim.games.__path__) if info.ispkg)


def get_game(name: str) -> Game:
    """The `GAME` object of package sim.games.<name>."""
    known = game_names()
    if name not in known:
        raise UserError(f"unknown game '{name}' (known: {', '.join(known) or 'none'})")
    module_name = f"{sim.games.__name__}.{name}"
    if module_name not in sys.modules:
        _announce_compile(name)
    module = importlib.import_module(module_name)
    game = getattr(module, "GAME", None)
    if game is None:
        raise RuntimeError(f"game package {module.__name__} has no module attribute GAME")
    return game


def _announce_compile(name: str) -> None:
    """A game's import compiles most of its engine: say so first when its cache is missing (on a
    terminal only; sim.compile_notice)."""
    from sim.compile_notice import compile_notice

    for root in sim.games.__path__:
        if (Path(root) / name / "__init__.py").is_file():
            compile_notice(name, Path(root) / name)
            return


def all_games() -> list[Game]:
    """Every game, in name order (imports them all)."""
    return [get_game(name) for name in game_names()]
