"""What the Cuzco batch kernel compiles (issue 13: the cold compile).

Each compiled function re-optimises and re-emits the machine code of everything it calls, so the
kernel of a line-up without a search bot must not hold the search, the round sequence must be
one compiled level (play_from, which the search kernel and the replay link from the cache) with
its phases inlined rather than compiled as levels of their own, a bot's phase-I and phase-II
choices enumerated each in one function over the valuation, and the random-stream helpers
must compile once whatever the argument types their callers pass. Checked in a fresh process
(the engine loads from the cache `make test` fills; a cold cache compiles it, about 90 s).
"""
import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import json, sys
from numba.core.registry import CPUDispatcher
from sim.core.compile_engines import compile_engine
compile_engine("cuzco")
from sim.core import rng
from sim.games.cuzco import bots, effects, game, rounds, rules, search

def versions(mod):
    return {k: len(v.signatures) for k, v in vars(mod).items()
            if isinstance(v, CPUDispatcher) and v.__module__ == mod.__name__}

print(json.dumps({"rng": versions(rng), "rounds": versions(rounds), "search": versions(search),
                  "game": versions(game), "bots": versions(bots), "rules": versions(rules),
                  "effects": versions(effects)}))
"""


def test_default_kernel_compiles_no_search_and_no_round_wrappers():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["game"]["play_games"] == 1  # the heuristic-only kernel alone
    assert found["game"]["play_search_one"] == 0 and "run_one" not in found["game"]  # run_one: plain Python
    assert not any(found["search"].values()), found["search"]  # no search in a heuristic kernel
    for name in ("phase_one_from", "phase_two", "phase_three", "end_game", "last_missions"):
        assert found["rounds"][name] == 0, name  # inlined into play_from, not compiled as a level
    assert found["rounds"]["play_from"] == 1  # the rounds, compiled once: every engine links them
    assert found["rng"]["randint"] == 1 and found["rng"]["_rotl"] == 1
    assert found["rng"]["shuffle"] == 2  # int32 and int64 arrays, whatever the count's type
    # a bot's phase-I turn and phase-II use are each enumerated in one compiled function over the
    # valuation (choose_turn, choose_use), not in levels of try_* functions under it
    assert found["bots"]["choose_turn"] == 1 and "choose_use" in found["bots"]
    assert not [name for name in found["bots"] if name.startswith("try_")], found["bots"]
    for name in ("turn_value", "action_turns", "first_card", "second_card", "use_value", "choose_good",
                 "choose_palace", "choose_last_missions", "judged", "position_value", "group_term",
                 "slot_shortfall", "modelled_blessing_value"):
        assert found["bots"][name] == 0, name  # thin or single-call-site levels over the valuation, inlined
    for name in ("take_preferred_god_card", "deal_god_cards", "deal_feather_pieces"):
        assert found["rules"][name] == 0, name
    assert found["effects"]["exchange"] == 0


def test_profile_command_reports_the_engine():
    """`python -m sim.core.compile_engines --profile GAME` (make bench-compile, with an empty cache):
    the total first; from a warm cache nothing is compiled."""
    result = subprocess.run([sys.executable, "-m", "sim.core.compile_engines", "--profile", "cuzco"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("cuzco: ") and "compiled versions of" in lines[0]
    assert lines[1] == "exclusive compile seconds (versions):"


def test_make_test_compiles_every_engine_and_each_search_kernel():
    """compile_engines' jobs: one per game, its default line-up, then a line-up with the search bot
    for the games that have one, then its replay (separate kernels the tests would otherwise
    compile themselves), each loading what the one before put in the cache."""
    from sim.core.compile_engines import engines_of
    assert engines_of({"search": 1, "random": 1}) == ("default", "search", "replay")
    assert engines_of({"random": 1, "greedy": 2}) == ("default", "replay")


def test_make_test_compiles_the_toy_game_last(monkeypatch):
    """`compile_engines --games-dir tests/toygame` (make test) compiles the tests' toy game too, after
    the real games, so that its minute of compiling is not spent inside pytest."""
    import sim.games
    from pathlib import Path
    from sim.core.compile_engines import compile_order
    monkeypatch.setattr(sim.games, "__path__", list(sim.games.__path__))
    own = compile_order([])
    order = compile_order([str(Path(__file__).resolve().parent / "toygame")])
    assert "pig" not in own and order == own + ["pig"]


def test_compile_side_by_side_compiles_only_the_engines_asked_for():
    """compile_side_by_side (sim report's engines compiled ahead): the toy game's default engine in a
    spawned worker, and nothing else (no replay step), reported once."""
    from pathlib import Path
    from sim.core.compile_engines import compile_side_by_side, ready_line
    ready = []
    compile_side_by_side({"pig": ("default",)}, 2, (str(Path(__file__).resolve().parent / "toygame"),),
                         on_ready=lambda name, timings: ready.append((name, [step for step, _ in timings])),
                         start_method="spawn")
    assert ready == [("pig", ["import", "default"])]
    assert ready_line("pig", [("import", 1.2), ("default", 3.0)]) == "pig: engines ready in 4 s (import 1 s, default 3 s)"


def test_sim_report_compiles_the_engines_of_what_it_will_play(monkeypatch, tmp_path, capsys):
    """sim report (make run) first compiles, side by side, each game's default engine among the
    datasets still to play, and the search kernel for a ladder with the search bot; nothing when
    one engine is needed; a compile that fails ahead is left to the first use, with one line."""
    from sim.analysis import report
    from sim.core import compile_engines
    plans = []
    monkeypatch.setattr(compile_engines, "compile_side_by_side", lambda plan, *a, **k: plans.append(plan))
    specs = [report.DatasetSpec(tmp_path / "a", "chachapoya"), report.DatasetSpec(tmp_path / "b", "cuzco"),
             report.LadderDatasetSpec(tmp_path / "c", "cuzco", ("temple-tuned", "search"), 8),
             report.RobustDatasetSpec(tmp_path / "d", "machu_picchu", 8)]
    report._compile_engines_first(specs, progress=False)
    assert plans == [{"chachapoya": ("default",), "cuzco": ("default", "search"), "machu_picchu": ("default",)}]
    report._compile_engines_first(specs[:2] + specs[:1], progress=False)
    assert len(plans) == 2
    report._compile_engines_first(specs[1:2], progress=False)
    assert len(plans) == 2

    def fail(plan, *a, **k):
        raise RuntimeError("no such game")
    monkeypatch.setattr(compile_engines, "compile_side_by_side", fail)
    report._compile_engines_first(specs, progress=True)
    assert "engines not compiled ahead (RuntimeError: no such game)" in capsys.readouterr().err


def test_sim_report_imports_the_uncached_games_side_by_side_first(monkeypatch, tmp_path):
    """A game's import compiles its levels: `sim report` imports the games with nothing in the
    Numba cache one per spawned process, side by side, before it imports them itself to list the
    reports (import only: their engines compile later, _compile_engines_first); nothing when at
    most one game is uncached."""
    from sim import numba_cache
    from sim.analysis import report
    from sim.core import compile_engines, registry
    calls = []
    monkeypatch.setattr(compile_engines, "compile_side_by_side", lambda plan, *a, **k: calls.append(plan))
    monkeypatch.setenv("SIM_NUMBA_CACHE_BASE", str(tmp_path))
    assert compile_engines.uncached_games() == registry.game_names()
    report._import_games_first(progress=False)
    assert calls == [dict.fromkeys(registry.game_names(), ())]
    games_dir = Path(compile_engines.__file__).resolve().parents[1] / "games"
    for name in registry.game_names()[1:]:
        (tmp_path / numba_cache.group_folder(games_dir / name)).mkdir()
    assert compile_engines.uncached_games() == registry.game_names()[:1]
    report._import_games_first(progress=False)
    assert len(calls) == 1

    import pytest
    from sim.core.errors import UserError
    order = []
    monkeypatch.setattr(report, "_import_games_first", lambda progress: order.append("import"))
    monkeypatch.setattr(report, "default_specs", lambda *a, **k: order.append("specs") or [])
    for compile_first in (True, False):
        with pytest.raises(UserError, match="no reports to build"):
            report.build_reports(out_dir=tmp_path / "out", compile_first=compile_first, progress=False)
    assert order == ["import", "specs", "specs"]


def test_a_game_is_imported_alone_when_no_engine_is_asked_for():
    """compile_game with no engines (sim report's first step): the import, nothing played."""
    from sim.core.compile_engines import compile_side_by_side
    ready = []
    compile_side_by_side({"pig": ()}, 1, (str(Path(__file__).resolve().parent / "toygame"),),
                         on_ready=lambda name, timings: ready.append((name, [step for step, _ in timings])),
                         start_method="spawn")
    assert ready == [("pig", ["import"])]


LEVEL_MODULE = '''
from sim.core.jit import njit_level
from numba import njit

@njit_level("int64(int64[::1], int64)")
def level(a, k):
    total = 0
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise ValueError("negative")
        total += a[i] * k
    return total

@njit(cache=True)
def caller(a):
    return level(a, 2) + level(a, 3)
'''

LEVEL_PROBE = """
import json, os, sys
import numpy as np
from numba import njit
if len(sys.argv) > 2:  # compile something first: Numba's mangled names count what a process compiled
    njit(lambda x: x + 1)(1)
sys.path.insert(0, sys.argv[1])
import levelmod
out = {"sum": int(levelmod.caller(np.arange(4, dtype=np.int64)))}
try:
    levelmod.caller(np.array([1, -1], dtype=np.int64))
except ValueError as exc:
    out["raised"] = str(exc)
library = levelmod.caller.overloads[levelmod.caller.signatures[0]].library
ir = "" if not library._final_module else str(library._final_module)
out["level_declared_in_caller"] = any(line.startswith("declare") and "sim_level.levelmod.level" in line
                                      for line in ir.splitlines())
print(json.dumps(out))
"""


def test_a_level_is_called_by_its_symbol_fresh_and_from_the_cache(tmp_path):
    """njit_level: a caller does not hold the level's code (it calls the level's symbol), the call
    returns and raises as a linked one would, and a caller loaded from the on-disk cache in a new
    process finds the level, also when another process compiled the level's cache entry (under
    another of Numba's mangled names: two processes compiling one engine into one cache)."""
    (tmp_path / "levelmod.py").write_text(LEVEL_MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def probe(*extra):
        result = subprocess.run([sys.executable, "-c", LEVEL_PROBE, str(tmp_path), *extra], capture_output=True,
                                text=True, timeout=300, env=env)
        assert result.returncode == 0, result.stderr[-2000:]
        return json.loads(result.stdout.strip().splitlines()[-1])

    runs = [probe(), probe()]  # compiled, then loaded from the cache
    for entry in (tmp_path / "cache").rglob("levelmod.level-*"):
        entry.unlink()  # the level compiled again by a process whose names differ; the caller cached
    runs.append(probe("renamed"))
    for found in runs:
        assert found["sum"] == 30 and found["raised"] == "negative"
    assert runs[0]["level_declared_in_caller"]  # linked, it would be defined there (or inlined)
