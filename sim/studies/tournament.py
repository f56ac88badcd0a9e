"""Tournaments: every line-up of P bots drawn from a list, G games each, as one dataset.

A line-up is a multiset of P bots (bots may repeat: with bots a, b and 4 players the line-ups are
a+a+a+a, a+a+a+b, a+a+b+b, a+b+b+b and b+b+b+b), so the tournament holds every "one bot against a
field of another" and every mixed table. There are C(n + P - 1, P) of them: 126 for 6 bots at 4
players.

The tournament is a sweep whose cells are the line-ups (`sim.core.runner.RunPlan` with the grid
{"lineup": [...]}): one crash-safe, resumable, Dask-capable dataset whose cell parts sit under
`games/lineup=a+b+b+c/` and `players/lineup=a+b+b+c/`; the manifest keeps the kind "sweep" (every
sweep reader reads it, one line-up per cell) and adds a `tournament` entry with the bots, the
player count and the line-ups. Each game row also carries its line-up as `param.lineup`.

Seating. Every line-up plays games 0 .. G-1 from the same seed (common random numbers: game i of
every line-up starts from the same shuffle), with seats rotated cyclically: game i seats
line-up[(s + i) % P] in seat s. G must be a multiple of P, so each bot of a line-up sits in every
seat exactly G/P times per copy, and seat and turn-order advantages cancel out of every win rate
and every rating. Cyclic rotations, not all P! orderings: the order of bots around the table
stays the line-up's (a always sits just before b in a+b+c+c). Seat balance is what the payoff
table needs (a bot's win rate then measures the bot, not its chair), and all orderings would
demand G be a multiple of 24 at four players for a second-order effect (who plays right after
whom) that the tournament does not set out to measure by default. Measured on Chachapoya: the three
cyclic orders of random+greedy+greedy+balanced (20,000 games each, seats rotated) give every bot the
same win rate within 0.3 points, inside the noise. In Machu Picchu the order matters (a bot's win
rate moved 9 points between two cyclic orders of one line-up), so `--permute-seats` (permute=True)
seats every ordering instead (sim.core.lineup.seat_orders: each cyclic order rotated in turn), and G
must then be a multiple of P!.

Skill ladders (`sim ladder GAME --rungs a,b,c`). A ladder orders bots weakest first and asks of
each rung whether it beats the rung below head to head. It needs only two line-ups per adjacent
pair (below, rung): the rung alone with P-1 copies of the rung below, and the rung below alone
with P-1 copies of the rung (one line-up at two players, where both are the same table). A ladder
dataset is a tournament restricted to those line-ups (`plan_tournament(..., lineup_list=...)`):
the same cells, seeds and seating, so each of its line-ups holds exactly the rows the same line-up
of a full tournament of the rungs (listed in rung order, same seed and games) would hold; its
manifest's `tournament` record adds `"ladder": [rungs]`. That matters when a rung is slow: a
Cuzco search bot takes seconds a game, so the 35 line-ups of a four-bot tournament at four players
would cost hours where the ladder's six cost minutes.
"""
from __future__ import annotations

import itertools
import math
import os
import sys
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote

from sim.core import registry
from sim.core.errors import UserError
from sim.core.game import Game
from sim.core.lineup import seating_words
from sim.core.sweep import LINEUP, Cell, resolve_with_overrides

DEFAULT_GAMES = 1200  # per line-up: a multiple of 2, 3 and 4, so every player count rotates evenly
DEFAULT_CHUNK_SIZE = 50_000
MANIFEST_KEY = "tournament"

__all__ = ["lineups", "lineup_label", "ladder_lineups", "parse_tournament_bots", "parse_ladder_rungs",
           "plan_tournament", "run_tournament", "run_ladder", "lineup_count"]


def lineups(bots: list[str], n_players: int) -> list[tuple[str, ...]]:
    """Every multiset of n_players bots drawn from bots (with repetition), in the order of the list."""
    return list(itertools.combinations_with_replacement(bots, n_players))


def lineup_label(lineup: tuple[str, ...] | list[str]) -> str:
    """`a+b+b+c`: the line-up's cell name (bot names URI-escaped, so a `+` in a name stays unambiguous)."""
    return "+".join(quote(name, safe="._-") for name in lineup)


def ladder_lineups(rungs: list[str] | tuple[str, ...], n_players: int) -> list[tuple[str, ...]]:
    """The line-ups a skill ladder plays, pair by pair of adjacent rungs (below, rung): the rung alone
    with n_players-1 copies of the rung below, then the rung below alone with copies of the rung.
    Each line-up lists its bots in rung order, as a tournament of the rungs would (so its seating is
    that tournament's); a line-up met twice (both tables of a two-player pair) is played once."""
    order = {name: i for i, name in enumerate(rungs)}
    out: dict[tuple[str, ...], None] = {}
    for below, rung in zip(rungs, rungs[1:]):
        for alone, field in ((rung, below), (below, rung)):
            out[tuple(sorted([alone] + [field] * (n_players - 1), key=order.__getitem__))] = None
    return list(out)


def parse_tournament_bots(game: Game, spec: str | list[str] | None, flag: str = "--bots",
                          what: str = "a tournament") -> list[str]:
    """The distinct bots of a tournament (or the rungs of a ladder, with flag="--rungs") from a comma
    list: at least two, each known to the game."""
    if spec is None:
        raise UserError("sim tournament: give the bots with --bots a,b,c (at least two)" if flag == "--bots" else
                        f"give the bots with {flag} a,b,c (at least two)")
    names = [part.strip() for part in spec.split(",")] if isinstance(spec, str) else [str(n).strip() for n in spec]
    if any(not name for name in names):
        raise UserError(f"{flag} '{spec}': empty bot name in the comma list")
    known = game.bots()
    for name in names:
        if name not in known:
            raise UserError(f"unknown bot '{name}' for {game.name} (known: {', '.join(sorted(known))})")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        why = "line-ups repeat bots by themselves" if flag == "--bots" else "each rung is one step of the ladder"
        raise UserError(f"{flag} lists {repeated[0]} twice ({why})")
    if len(names) < 2:
        raise UserError(f"{what} needs at least two {'bots' if flag == '--bots' else 'rungs'} (got {names[0]})")
    return names


def parse_ladder_rungs(game: Game, spec: str | list[str] | None) -> list[str]:
    """The rungs of a skill ladder, weakest first: two or more distinct bots known to the game."""
    return parse_tournament_bots(game, spec, flag="--rungs", what="a skill ladder")


def plan_tournament(game: Game, bots: list[str], n_players: int | None, n_games: int, seed: int,
                    chunk_size: int = DEFAULT_CHUNK_SIZE, variant_path: str | None = None,
                    overrides: dict[str, Any] | None = None, checked: bool = False,
                    lineup_list: Sequence[Sequence[str]] | None = None, ladder: Sequence[str] | None = None,
                    permute: bool = False):
    """The RunPlan of a tournament: one cell per line-up, n_games each from `seed`, seats rotated
    (permute: every ordering of each line-up, sim.core.lineup.seat_orders).

    lineup_list: play only these line-ups (each n_players bots of `bots`, in their seating order),
    not every multiset; ladder: the rungs of a skill ladder, recorded in the manifest as "ladder"
    (with lineup_list None, the ladder's line-ups are played)."""
    from sim.core.runner import RunPlan

    overrides = dict(overrides or {})
    params = resolve_with_overrides(game, variant_path, overrides)
    n_players = game.default_players if n_players is None else n_players
    allowed = tuple(game.allowed_players(params))
    if n_players not in allowed:
        raise UserError(f"{game.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                        f"players, not {n_players}")
    if n_games < n_players or n_games % n_players:
        raise UserError(f"--games must be a positive multiple of the player count {n_players}, so every bot "
                        f"sits in every seat equally often (got {n_games})")
    orders = math.factorial(n_players)
    if permute and n_games % orders:
        raise UserError(f"--games must be a multiple of {orders} ({n_players}!) with --permute-seats, so every "
                        f"ordering of a line-up is played equally often (got {n_games})")
    if lineup_list is None:
        lineup_list = lineups(bots, n_players) if ladder is None else ladder_lineups(list(ladder), n_players)
    chosen = _check_lineups(lineup_list, bots, n_players)
    cells = [Cell(coords={LINEUP: lineup_label(lineup)}, params=params, n_players=n_players,
                  lineup_names=list(lineup), partition=f"{LINEUP}={lineup_label(lineup)}")
             for lineup in chosen]
    labels = [cell.coords[LINEUP] for cell in cells]
    seating = ("every ordering: game i seats lineup[seat_orders(players)[i % players!][seat]]" if permute else
               "cyclic rotation: game i seats lineup[(seat + i) % players]")
    record = {"bots": list(bots), "players": n_players, "games_per_lineup": n_games, "lineups": labels,
              "seating": seating}
    if ladder is not None:
        record["ladder"] = list(ladder)
    return RunPlan(game=game, cells=cells, n_games=n_games, seed=seed, rotate=not permute, chunk_size=chunk_size,
                   checked=checked, variant_path=variant_path, grid={LINEUP: labels}, overrides=overrides,
                   bots_spec=",".join(bots), manifest_extra={MANIFEST_KEY: record}, permute=permute)


def _check_lineups(lineup_list: Sequence[Sequence[str]], bots: list[str], n_players: int) -> list[tuple[str, ...]]:
    """An explicit line-up list: each of n_players bots of the tournament, no multiset twice."""
    chosen = [tuple(str(name) for name in lineup) for lineup in lineup_list]
    if not chosen:
        raise UserError("the tournament has no line-ups to play")
    seen: set[tuple[str, ...]] = set()
    for lineup in chosen:
        if len(lineup) != n_players:
            raise UserError(f"line-up {lineup_label(lineup)} has {len(lineup)} bots, not {n_players}")
        stray = [name for name in lineup if name not in bots]
        if stray:
            raise UserError(f"line-up {lineup_label(lineup)} names {stray[0]!r}, not one of the bots "
                            f"({', '.join(bots)})")
        key = tuple(sorted(lineup))
        if key in seen:
            raise UserError(f"line-up {lineup_label(lineup)} is listed twice")
        seen.add(key)
    return chosen


def run_tournament(game_name: str, bots: str | list[str], out_dir: str | Path, n_players: int | None = None,
                   n_games: int = DEFAULT_GAMES, seed: int = 0, workers: int | None = None,
                   chunk_size: int = DEFAULT_CHUNK_SIZE, variant_path: str | None = None,
                   overrides: dict[str, Any] | None = None, checked: bool = False, backend: str = "local",
                   scheduler: str | None = None, resume: bool = False, progress: bool = True,
                   lineup_list: Sequence[Sequence[str]] | None = None,
                   ladder: Sequence[str] | None = None, permute: bool = False) -> dict[str, Any]:
    """Play (or, with resume, finish) a tournament into out_dir; returns its manifest.

    lineup_list, ladder and permute as in plan_tournament: only some line-ups, or a skill ladder's;
    every ordering of each line-up rather than its rotations."""
    from sim.core.runner import run_plan

    game = registry.get_game(game_name)
    names = parse_tournament_bots(game, bots)
    plan = plan_tournament(game, names, n_players, n_games, seed, chunk_size, variant_path, overrides, checked,
                           lineup_list, ladder, permute)
    if progress:
        what = (f"skill ladder {' < '.join(ladder)}" if ladder is not None else f"tournament: {len(names)} bots")
        print(f"{what}, {len(plan.cells)} line-ups of {plan.cells[0].n_players} x "
              f"{n_games:,} games, {seating_words(not permute, permute)}, the same seeds in every "
              f"line-up -> {out_dir}",
              file=sys.stderr, flush=True)
    return run_plan(plan, out_dir, workers or os.cpu_count() or 1, backend=backend, scheduler=scheduler,
                    resume=resume, progress=progress)


def run_ladder(game_name: str, rungs: str | list[str], out_dir: str | Path, n_players: int | None = None,
               n_games: int = DEFAULT_GAMES, seed: int = 0, workers: int | None = None,
               chunk_size: int = DEFAULT_CHUNK_SIZE, variant_path: str | None = None,
               overrides: dict[str, Any] | None = None, checked: bool = False, backend: str = "local",
               scheduler: str | None = None, resume: bool = False, progress: bool = True,
               permute: bool = False) -> dict[str, Any]:
    """Play (or, with resume, finish) a skill ladder into out_dir: for each adjacent pair of rungs
    (weakest first) the rung alone against copies of the rung below and the reverse, n_games each
    (permute: every ordering of each line-up); returns its manifest."""
    names = parse_ladder_rungs(registry.get_game(game_name), rungs)
    return run_tournament(game_name, names, out_dir, n_players, n_games, seed, workers, chunk_size, variant_path,
                          overrides, checked, backend, scheduler, resume, progress, ladder=names, permute=permute)


def lineup_count(n_bots: int, n_players: int) -> int:
    """C(n + P - 1, P): how many line-ups a tournament of n bots at P players has."""
    return math.comb(n_bots + n_players - 1, n_players)
