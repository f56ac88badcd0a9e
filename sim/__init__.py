"""Monte-Carlo balance analysis for board games."""

from .numba_cache import configure as _configure_numba_cache

__version__ = "0.1.0"

_configure_numba_cache()
