"""Point Numba's on-disk cache at folders keyed by the compiled source of each game.

Numba's `cache=True` only notices edits to the file that defines a function, not to the files it
calls into: after editing bots.py, a cached rules kernel would still run the old bots. So a
compiled function of `sim` is cached in a folder named after a hash of every source file it can
call into: the game package it belongs to plus the game-agnostic compiled helpers (`sim/core`,
`sim/*.py`); a core function's folder hashes the core files only. An edit to a game's engine
recompiles that game alone, never another, and stale machine code can never run. Only files that
mention njit count: edits to pure-Python files (CLI, data loading, replay text) keep the cache.

The folders live under NUMBA_CACHE_DIR when the user sets it, else under ~/.cache/sim-numba.
Functions outside `sim` (a test's fake game) are cached by Numba's own locators in
`<base>/other`.
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
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _core_sources() -> list[Path]:
    return [p for p in _compiled_sources(PACKAGE_DIR, True) if GAMES_DIR not in p.parents]


def source_fingerprint(package_dir: Path = PACKAGE_DIR) -> str:
    """Hash of every compiled source file of the package (a Dask worker must run the driver's code)."""
    return _digest(_compiled_sources(Path(package_dir).resolve(), True))


@functools.lru_cache(maxsize=None)
def group_folder(game: str | None) -> str:
    """Cache folder name for the core (game None) or one game package: `<group>-<hash>`."""
    sources = _core_sources()
    if game is not None:
        sources += _compiled_sources(GAMES_DIR / game, True)
    return f"{game or 'core'}-{_digest(sources)}"


def group_of(py_file: str) -> str | None | bool:
    """The game a source file belongs to, None for the core, False for a file outside `sim`."""
    path = Path(py_file).resolve()
    if PACKAGE_DIR not in path.parents:
        return False
    if GAMES_DIR in path.parents:
        return path.relative_to(GAMES_DIR).parts[0]
    return None


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
