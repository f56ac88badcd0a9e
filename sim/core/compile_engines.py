"""Compile (or load from the cache) every game's engine, one process per engine, side by side.

`make test` runs this before pytest: the first game of each engine costs minutes of Numba
compilation on one core, so compiling the engines in parallel processes, into the shared on-disk
cache, saves wall time, and the test workers then load them instead of each compiling its own.
A game's engines are its default line-up, for a game with a bot named "search" a line-up with
that bot (its kernel compiles apart from the heuristic-only one, so the tests that play a search
bot load it too), and its replay (a game played with its log on, `sim replay`: another kernel).
One process compiles one game's engines in that order, each loading what the previous ones put
in the cache; the games go side by side.

    python -m sim.core.compile_engines [--workers N] [--games-dir DIR ...]
    NUMBA_CACHE_DIR=<empty dir> python -m sim.core.compile_engines --profile cuzco

`--profile GAME` compiles one engine in this process and prints where the compile time went:
the exclusive seconds of each compiled function (its own compile, without the functions it
compiled first) and the functions compiled in more than one version (issue 13).
"""
from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


SEARCH_BOT = "search"
DEFAULT, SEARCH, REPLAY = "default", "search", "replay"


def engines_of(bot_names) -> tuple[str, ...]:
    """A game's engines in the order they compile, from the names of its bots."""
    return (DEFAULT, SEARCH, REPLAY) if SEARCH_BOT in bot_names else (DEFAULT, REPLAY)


def add_games_dirs(games_dirs: list[str]) -> None:
    """Let the registry find the game packages in these folders too (as the tests' toy game is
    found: sim.games.__path__ extended)."""
    import sim.games

    sim.games.__path__ = [*sim.games.__path__, *(str(Path(d).resolve()) for d in games_dirs
                                                  if str(Path(d).resolve()) not in sim.games.__path__)]


def compile_game(game_name: str, games_dirs: tuple[str, ...] = (),
                 engines: tuple[str, ...] | None = None) -> list[tuple[str, float]]:
    """Import a game (its functions with declared signatures compile then) and compile each of its
    engines in turn (None: all of them, engines_of; (): none, the import alone): (step, seconds)
    each. The game is imported here, in the worker process, not by the parent: imports compile, and
    the parent would do every game's one after another."""
    from sim.core import registry

    add_games_dirs(list(games_dirs))

    started = time.perf_counter()
    bots = registry.get_game(game_name).bots()
    timings = [("import", time.perf_counter() - started)]
    return timings + [(engine, compile_engine(game_name, engine)[1])
                      for engine in (engines_of(bots) if engines is None else engines)]


def compile_side_by_side(plan: dict[str, tuple[str, ...] | None], workers: int, games_dirs: tuple[str, ...] = (),
                         on_ready=None, start_method: str | None = None) -> None:
    """Compile (or load) each game's engines of `plan` (game -> engines, None: all), one process per
    game, at most `workers` at a time; on_ready(game, timings) as each game finishes, in plan order."""
    import multiprocessing

    games = list(plan)
    context = multiprocessing.get_context(start_method) if start_method else None
    with ProcessPoolExecutor(max_workers=max(1, min(workers, len(games))), mp_context=context) as pool:
        for name, timings in zip(games, pool.map(compile_game, games, [games_dirs] * len(games),
                                                 [plan[name] for name in games])):
            if on_ready is not None:
                on_ready(name, timings)


def uncached_games() -> list[str]:
    """sim's games with nothing in the Numba cache for their current source (no cache folder for
    it, sim.numba_cache): importing one compiles its levels, a minute or more of one core."""
    import sim.games
    from sim import numba_cache
    from sim.core import registry

    games_dir = Path(sim.games.__file__).resolve().parent
    return [name for name in registry.game_names() if (games_dir / name).is_dir()
            and not (numba_cache.cache_base() / numba_cache.group_folder(games_dir / name)).is_dir()]


def ready_line(name: str, timings: list[tuple[str, float]]) -> str:
    """One line: a game's engines ready, in how many seconds, by step."""
    return (f"{name}: engines ready in {sum(seconds for _, seconds in timings):.0f} s (" +
            ", ".join(f"{engine} {seconds:.0f} s" for engine, seconds in timings) + ")")


def compile_engine(game_name: str, engine: str = DEFAULT) -> tuple[str, float]:
    """Play one game of `game_name` with its default line-up (SEARCH: the search bot in the first
    seat; REPLAY: replayed with its log on); the seconds it took (importing `sim` points Numba at
    the shared cache)."""
    import numpy as np

    from sim.core import registry
    from sim.core.lineup import lineup_indices, seat_bot_matrix

    started = time.perf_counter()
    game = registry.get_game(game_name)
    params = game.resolve_params(None)
    bots = list(game.default_bots(game.default_players))
    if engine == SEARCH:
        bots[0] = SEARCH_BOT
    names, idx = lineup_indices(bots)
    seat_bots = seat_bot_matrix(idx, 0, 1, True).astype(np.int8)
    if engine == REPLAY:
        list(game.replay(params, game.default_players, names, seat_bots[0], 0, 0))
    else:
        game.simulate(params, game.default_players, names, seat_bots, 0, 0, 1, False)
    return game_name, time.perf_counter() - started


def compile_profile(game_name: str, top: int = 25) -> list[str]:
    """compile_engine(game_name) with Numba's compile events recorded: report lines, the total
    first, then the `top` functions by exclusive compile seconds, then every function of `sim`
    compiled in more than one version, with its signatures."""
    import sys

    from numba.core import event
    from numba.core.registry import CPUDispatcher

    exclusive: dict[str, float] = {}
    versions: dict[str, int] = {}
    stack: list[list[float]] = []

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            started, children = stack.pop()
            seconds = time.perf_counter() - started
            func = ev.data["dispatcher"].py_func
            name = f"{func.__module__.rsplit('.', 1)[-1]}.{func.__name__}"
            exclusive[name] = exclusive.get(name, 0.0) + seconds - children
            versions[name] = versions.get(name, 0) + 1
            if stack:
                stack[-1][1] += seconds

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        _, seconds = compile_engine(game_name)
    finally:
        event.unregister("numba:compile", listener)
    lines = [f"{game_name}: {seconds:.1f} s, {sum(versions.values())} compiled versions of {len(versions)} functions",
             "exclusive compile seconds (versions):"]
    for name, sec in sorted(exclusive.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {sec:7.1f}  {name} ({versions[name]})")
    for module_name, module in sorted(sys.modules.items()):
        if not module_name.startswith("sim"):
            continue
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.__module__ == module_name and len(value.signatures) > 1:
                lines.append(f"{module_name}.{name}: {len(value.signatures)} versions")
                lines.extend(f"    {sig}" for sig in value.signatures)
    return lines


def compile_order(games_dirs: list[str]) -> list[str]:
    """The games to compile, by name (importing a game compiles, so the workers do it): sim's own
    first (minutes each), then those found in games_dirs (seconds), which fill the gap a worker
    leaves while the other finishes its longer game."""
    from sim.core import registry

    own = registry.game_names()
    add_games_dirs(games_dirs)
    return own + [name for name in registry.game_names() if name not in own]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.core.compile_engines", description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
    parser.add_argument("--profile", metavar="GAME", help="compile one game's engine here and print where the time went")
    parser.add_argument("--games-dir", action="append", default=[], metavar="DIR",
                        help="also compile the game packages in DIR (make test: the tests' toy game), after sim's own")
    args = parser.parse_args(argv)
    if args.profile:
        print("\n".join(compile_profile(args.profile)))
        return 0
    compile_side_by_side(dict.fromkeys(compile_order(args.games_dir)), args.workers, tuple(args.games_dir),
                         on_ready=lambda name, timings: print(ready_line(name, timings), flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
