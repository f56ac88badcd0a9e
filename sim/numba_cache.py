"""Point Numba's on-disk cache at folders keyed by the compiled source of each game.

Numba's `cache=True` only notices edits to the file that defines a function, not to the files it
calls into: after editing bots.py, a cached rules kernel would still run the old bots. So a
compiled function of `sim` is cached in a folder named after a hash of every source file it can
call into: the game package it belongs to plus the game-agnostic compiled helpers (`sim/core`,
`sim/*.py`); a core function's folder hashes the core files only. An edit to a game's engine
recompiles that game alone, never another, and stale machine code can never run. The files that
count are those that mention njit, the files they import upper-case constants from (the layouts
whose values the machine code holds: state.py, weights.py) and paramspec.py, which lays out the
rules arrays; edits to other files (CLI, data loading, replay text) keep the cache.
A game package found on `sim.games.__path__` outside `sim` (the tests' toy game) is keyed the same way.

The folders live under NUMBA_CACHE_DIR when the user sets it, else under ~/.cache/sim-numba.
Other functions (a test's fake game module) are cached by Numba's own locators in `<base>/other`.
"""
from __future__ import annotations

import ast
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
LAYOUT_MODULE = "core/paramspec.py"  # lays out the games' rules arrays, so their R_* constants
_BASE_ENV = "SIM_NUMBA_CACHE_BASE"  # passed on to worker processes with the environment


def _compiled_sources(folder: Path, recursive: bool) -> list[Path]:
    paths = folder.rglob("*.py") if recursive else folder.glob("*.py")
    return sorted(p for p in paths if b"njit" in p.read_bytes())


def _module_file(base: Path, dotted: str) -> Path | None:
    target = base.joinpath(*dotted.split(".")) if dotted else base
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_files(path: Path) -> list[Path]:
    """Files of `sim` (or of the file's own package) from which `path` imports a constant
    (an upper-case name) at module level: their values are compiled into the machine code."""
    try:
        tree = ast.parse(path.read_bytes())
    except SyntaxError:
        return []
    found = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not any(a.name.isupper() for a in node.names):
            continue
        if node.level:
            base = path.parent.parents[node.level - 2] if node.level > 1 else path.parent
            module = node.module or ""
        elif (node.module or "").split(".")[0] == "sim":
            base, module = PACKAGE_DIR, (node.module or "").partition(".")[2]
        else:
            continue
        file = _module_file(base, module)
        if file is not None:
            found.append(file.resolve())
    return found


def _engine_sources(game_dir: Path | None) -> list[Path]:
    """The compiled files of the core (and of one game package) and every file of theirs they
    import at module level, transitively: the layouts (state.py, weights.py, paramspec.py) whose
    constants Numba compiles into the machine code count as much as the functions."""
    def ours(path: Path) -> bool:
        core = PACKAGE_DIR in path.parents and GAMES_DIR not in path.parents
        return core or (game_dir is not None and game_dir in path.parents)

    todo = [p.resolve() for p in _compiled_sources(PACKAGE_DIR, True)] + [PACKAGE_DIR / LAYOUT_MODULE]
    if game_dir is not None:
        todo += [p.resolve() for p in _compiled_sources(game_dir, True)]
    todo = [p for p in todo if ours(p)]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(f for f in _imported_files(path) if ours(f))
    return sorted(seen)


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256(sys.version.encode())
    for path in paths:
        digest.update(str(path.relative_to(PACKAGE_DIR) if PACKAGE_DIR in path.parents else path.name).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]




def source_fingerprint(package_dir: Path = PACKAGE_DIR) -> str:
    """Hash of every compiled source file of the package (a Dask worker must run the driver's code)."""
    return _digest(_compiled_sources(Path(package_dir).resolve(), True))


@functools.lru_cache(maxsize=None)
def group_folder(game_dir: Path | None) -> str:
    """Cache folder name for the core (None) or one game package's folder: `<name>-<hash>`."""
    game_dir = game_dir.resolve() if game_dir is not None else None
    return f"{game_dir.name if game_dir else 'core'}-{_digest(_engine_sources(game_dir))}"


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
