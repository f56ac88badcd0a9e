"""What every `sim` command shares: the one-line parser, the execution options, small parsers."""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from sim.core.errors import UserError

MAX_SEED = 2**63 - 1  # seeds are stored as int64
DEFAULT_CHUNK_SIZE = 50_000


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors become a UserError, so they print as one line like any other."""

    def error(self, message):
        raise UserError(f"{self.prog}: {message}")


PERMUTE_HELP = ("seat {what}: games come in blocks of P (the player count), each block one cyclic order of the "
                "line-up (its first bot first, the others in itertools.permutations order) rotated one seat a "
                "game, so every P! consecutive games (24 at 4 players) seat each ordering once and every bot sits "
                "in every seat, and just before every other bot, equally often{tail}")


FACTORIAL_GAMES = "; --games then a multiple of P!"


def add_permute_option(command, tail: str = "") -> None:
    """--permute-seats for a command that rotates seats otherwise; tail: what it asks of --games."""
    command.add_argument("--permute-seats", action="store_true", help=PERMUTE_HELP.format(
        what="every ordering of each line-up, not only its cyclic rotations", tail=tail))


def add_execution_options(command, rotate: bool = True, permute: bool = True,
                          permute_tail: str = FACTORIAL_GAMES) -> None:
    """How a run executes (none of these change the data), plus --checked, --no-progress and, for
    commands that offer them, the seating options: --rotate-seats and --permute-seats (one or the
    other) for run and sweep; --permute-seats alone for tournament, ladder and robust, which rotate
    otherwise (permute_tail: what --permute-seats asks of --games)."""
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                         help="threads (local) or worker processes (dask LocalCluster) (default: all cores)")
    command.add_argument("--chunk-size", type=int, default=None,
                         help=f"games per part file and per task (default {DEFAULT_CHUNK_SIZE}; "
                              f"on --resume, the run's own)")
    command.add_argument("--backend", choices=["local", "dask"], default="local",
                         help="local: Numba threads in this process (default); dask: one task per chunk")
    command.add_argument("--scheduler", metavar="ADDRESS",
                         help="with --backend dask: an existing dask.distributed scheduler (e.g. tcp://host:8786); "
                              "default: a LocalCluster started for the run")
    command.add_argument("--resume", action="store_true",
                         help="finish an interrupted run in --out (the same configuration), or start it; "
                              "`sim run` also grows a finished run to a larger --games (the same games as a "
                              "run of that size)")
    seating = command.add_mutually_exclusive_group() if rotate and permute else command
    if rotate:
        seating.add_argument("--rotate-seats", action="store_true", help="shift the line-up by one seat each game")
    if permute and rotate:
        seating.add_argument("--permute-seats", action="store_true", help=PERMUTE_HELP.format(
            what="every ordering of the line-up in turn", tail="; it rotates too, so not with --rotate-seats"))
    elif permute:
        add_permute_option(seating, permute_tail)
    command.add_argument("--checked", action="store_true", help="verify game invariants after every step (slower)")
    command.add_argument("--no-progress", action="store_true", help="no progress bar")


def chunk_size(args, out: Path, default: int = DEFAULT_CHUNK_SIZE, resume: bool | None = None) -> int:
    """--chunk-size, or on --resume (or `resume`: a finished run asked for again) the run's own, or the default."""
    from sim.core.dataset import resume_chunk_size

    return resume_chunk_size(args.chunk_size, args.resume if resume is None else resume, out, default)


def param_overrides(specs: list[str] | None) -> dict[str, Any]:
    """--param NAME=VALUE options (one value each) as {name: value}."""
    from sim.core.sweep import parse_params

    return {name: values[0] for name, values in parse_params(specs, several=False).items()}


def player_count(game, params, requested: int | None) -> int:
    """--players, or the game's default; a one-line error when the parameters do not allow it."""
    n_players = game.default_players if requested is None else requested
    allowed = tuple(game.allowed_players(params))
    if n_players not in allowed:
        raise UserError(f"{game.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                        f"players, not {n_players}")
    return n_players
