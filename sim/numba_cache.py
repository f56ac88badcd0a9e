"""Point Numba's on-disk cache at folders keyed by the compiled source of each game.

Numba's `cache=True` only notices edits to the file that defines a function, not to the files it
calls into: after editing bots.py, a cached rules kernel would still run the old bots. So a
compiled function of `sim` is cached in a folder named after a hash of every source file it can
call into: the game package it belongs to plus the game-agnostic compiled helpers (`sim/core`,
`sim/*.py`); a core function's folder hashes the core files only. An edit to a game's engine
recompiles that game alone, never another, and stale machine code can never run. Only files that
mention njit count: edits to pure-Python files (CLI, data loading, replay text) keep the cache.
A game package found on `sim.games.__path__` outside `sim` (the tests' toy game) is keyed the same way.

The folders live under NUMBA_CACHE_DIR when the user sets it, else under ~/.cache/sim-numba.
Other functions (a test's fake game module) are cached by Numba's own locators in `<base>/other`.
"""
from __future__ import annotations

import functools
import hashlib
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
GAMES_DIR = PACKAGE_DIR / "games"
LOCATOR = "sim.numba_locator.GameCacheLocator"
NUMBA_LOCATORS = ("UserProvidedCacheLocator", "InTreeCacheLocator", "UserWideCacheLocator",
                  "IPythonCacheLocator", "ZipCacheLocator")
_BASE_ENV = "SIM_NUMBA_CACHE_BASE"  # passed on to worker processes with the environment


def _compiled_sources(folder: Path, recursive: bool) -> list[Path]:
    paths = folder.rglob("*.py") if recursive else folder.glob("*.py")
    return sorted(p for p in paths if b"njit" in p.read_bytes())


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256(sys.version.encode())
    for path in paths:
        digest.update(str(path.relative_to(PACKAGE_DIR) if PACKAGE_DIR in path.parents else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _core_sources() -> list[Path]:
    return [p for p in _compiled_sources(PACKAGE_DIR, True) if GAMES_DIR not in p.parents]


def source_fingerprint(package_dir: Path = PACKAGE_DIR) -> str:
    """Hash of every compiled source file of the package (a Dask worker must run the driver's code)."""
    return _digest(_compiled_sources(Path(package_dir).resolve(), True))


@functools.lru_cache(maxsize=None)
def group_folder(game_dir: Path | None) -> str:
    """Cache folder name for the core (None) or one game package's folder: `<name>-<hash>`."""
    sources = _core_sources()
    if game_dir is not None:
        sources += _compiled_sources(game_dir, True)
    return f"{game_dir.name if game_dir else 'core'}-{_digest(sources)}"


def _game_roots() -> list[Path]:
    """Folders holding game packages: sim/games, and any a test adds to sim.games.__path__."""
    games = sys.modules.get("sim.games")
    extra = [Path(p).resolve() for p in getattr(games, "__path__", [])]
    return [GAMES_DIR, *(p for p in extra if p != GAMES_DIR)]


def group_of(py_file: str) -> Path | None | bool:
    """The game package folder a source file belongs to, None for the rest of `sim`, False for a
    file outside both."""
    path = Path(py_file).resolve()
    for root in _game_roots():
        if root in path.parents:
            return root / path.relative_to(root).parts[0]
    return None if PACKAGE_DIR in path.parents else False


def cache_base() -> Path:
    return Path(os.environ[_BASE_ENV])


def configure() -> None:
    """Install the locator (before Numba reads its configuration, or directly if it already has)."""
    base = os.environ.get(_BASE_ENV) or os.environ.get("NUMBA_CACHE_DIR") or str(
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sim-numba")
    os.environ[_BASE_ENV] = base
    other = str(Path(base) / "other")
    locators = ",".join((LOCATOR, *NUMBA_LOCATORS))
    if "numba" in sys.modules:
        from numba.core import config

        config.CACHE_DIR = other
        config.CACHE_LOCATOR_CLASSES = locators
    os.environ["NUMBA_CACHE_DIR"] = other
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = locators
