"""The Numba cache key (sim/numba_cache.py): one folder per game, keyed by what its machine code holds."""
from sim import numba_cache


def _names(game):
    folder = None if game is None else numba_cache.GAMES_DIR / game
    return {str(p.relative_to(numba_cache.PACKAGE_DIR)) for p in numba_cache._engine_sources(folder)}


def test_a_game_is_keyed_by_its_compiled_files_and_the_layouts_they_read():
    cuzco = _names("cuzco")
    assert {"games/cuzco/rules.py", "games/cuzco/state.py", "games/cuzco/weights.py", "core/paramspec.py",
            "core/rng.py"} <= cuzco
    assert "games/cuzco/replay.py" not in cuzco and "games/cuzco/data.py" not in cuzco
    assert not any(name.startswith("games/chachapoya") for name in cuzco)


def test_an_edit_to_one_game_leaves_the_other_games_folder(monkeypatch, tmp_path):
    before = {game: numba_cache.group_folder(numba_cache.GAMES_DIR / game) for game in ("cuzco", "chachapoya")}
    numba_cache.group_folder.cache_clear()
    real = numba_cache._digest

    def edited(paths):  # as if chachapoya's rules.py had changed
        return real(paths) + ("x" if any(p.name == "rules.py" and "chachapoya" in str(p) for p in paths) else "")

    monkeypatch.setattr(numba_cache, "_digest", edited)
    try:
        assert numba_cache.group_folder(numba_cache.GAMES_DIR / "cuzco") == before["cuzco"]
        assert numba_cache.group_folder(numba_cache.GAMES_DIR / "chachapoya") != before["chachapoya"]
    finally:
        numba_cache.group_folder.cache_clear()


def test_only_engine_code_keys_the_cache():
    """A file of `sim` outside the games counts when it mentions njit (sim.numba_cache): the core's
    compiled modules and what they import. The word "njit" in a docstring of the analysis layer, the CLI
    or the runner would make every edit there recompile every game's engine (a draft of report.py
    once did), so the core's key is exactly these files."""
    assert _names(None) == {"core/eventlog.py", "core/jit.py", "core/params.py", "core/paramspec.py", "core/rng.py",
                            "core/search.py", "numba_cache.py"}
