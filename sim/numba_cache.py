"""Point Numba's on-disk cache at a folder keyed by the package's source.

Numba's `cache=True` only notices edits to the file that defines a function, not to the files it
calls into: after editing bots.py, a cached rules kernel would still run the old bots. Keying the
cache folder by a hash of every source file that holds compiled code (any file mentioning njit)
makes any such edit start a fresh cache, so stale machine code can never run; edits to pure-Python
files (CLI, data loading, replay text) keep the cache. A NUMBA_CACHE_DIR set by the user is respected as it is.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path


def source_fingerprint(package_dir: Path) -> str:
    digest = hashlib.sha256(f"{sys.version}".encode())
    for path in sorted(package_dir.rglob("*.py")):
        if b"njit" not in path.read_bytes():
            continue
        digest.update(str(path.relative_to(package_dir)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sim-numba"
    cache_dir = str(base / source_fingerprint(Path(__file__).parent))
    if "numba" in sys.modules:  # already configured from the environment: set it directly
        from numba.core import config

        config.CACHE_DIR = cache_dir
    else:  # read by Numba when it is first imported (also by worker processes we start)
        os.environ["NUMBA_CACHE_DIR"] = cache_dir
