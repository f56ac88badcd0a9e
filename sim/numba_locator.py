"""The Numba cache locator of sim/numba_cache.py (imported by Numba, which it imports in turn)."""
from __future__ import annotations

import os

from numba.core.caching import UserProvidedCacheLocator

from sim.numba_cache import cache_base, group_folder, group_of


class GameCacheLocator(UserProvidedCacheLocator):
    """Caches a function of `sim` or of a game package under <base>/<game or core>-<hash of what it
    can call>/."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = cache_base() / group_folder(group_of(py_file))
        self._cache_path = os.path.join(str(folder), self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file) or group_of(py_file) is False:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self
