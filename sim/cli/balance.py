"""`sim balance`: which value of a rule parameter brings a metric to its target?

The search is in sim/studies/balance.py (candidates, batches, the fit, resuming), the summary and the
chart in sim/analysis/balance.py; this module reads the options, calls them and prints. Register it
with `add_balance_parser(commands)` on the CLI's subparsers object.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from sim.core import registry
from sim.core.errors import UserError


def _range(text: str) -> tuple[float, float]:
    parts = [part.strip() for part in str(text).split(",")]
    try:
        lo, hi = (float(part) for part in parts)
    except ValueError:
        raise UserError(f"--range {text!r}: expected LO,HI, two numbers (write --range=-5,5 when LO is "
                        f"negative)") from None
    return lo, hi


def _default_out(game: str, names: list[str], metric: str, players: int, seed: int) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(names) + "-" + metric).strip("-")
    return Path("data") / "balance" / f"{game}-{slug}-{players}p-s{seed}"


def cmd_balance(args) -> None:
    from sim.cli.options import param_overrides, player_count
    from sim.studies.balance import Settings, parse_metric, parse_rules
    from sim.core.lineup import parse_bots, seating_words
    from sim.core.params import strip_provenance
    from sim.core.sweep import resolve_with_overrides

    game = registry.get_game(args.game)
    metric = parse_metric(args.metric)
    lo, hi = _range(args.range)
    try:
        overrides = param_overrides(args.fix)
        params = resolve_with_overrides(game, args.variant, overrides)
    except UserError as exc:  # the shared parsers name the option --param; here it is --fix
        raise UserError(str(exc).replace("--param", "--fix")) from None
    rules = parse_rules(args.param, args.rule, strip_provenance(params.resolved))
    searched = {rule.name for rule in rules}
    both = sorted(searched & set(overrides))
    if both:
        raise UserError(f"--fix {both[0]}: that parameter is the one searched (--param)")
    n_players = player_count(game, params, args.players)
    bots = parse_bots(game, args.bots, n_players)
    out = Path(args.out) if args.out else _default_out(game.name, [rule.name for rule in rules], metric.name,
                                                       n_players, args.seed)
    argv = args.argv if getattr(args, "argv", None) is not None else sys.argv[1:]
    settings = Settings(game=game.name, rules=rules, lo=lo, hi=hi, metric=metric, target=args.target,
                        tolerance=args.tolerance, players=n_players, bots=bots, seed=args.seed, batch=args.batch,
                        budget=args.games, time_limit=args.time_limit, workers=args.workers, variant=args.variant,
                        overrides=overrides, command=shlex.join(["sim"] + list(argv)), permute=args.permute_seats)
    from sim.analysis.balance import balance_progress_line, balance_summary_text
    from sim.studies.balance import search

    def progress(row) -> None:
        print(balance_progress_line(row, metric.is_rate, args.target, args.tolerance, rules), file=sys.stderr,
              flush=True)

    def on_start() -> None:
        print(f"balance search: {', '.join(rule.label for rule in rules)}, x in [{lo:g}, {hi:g}], "
              f"{metric.describe()} -> {args.target:g} +- {args.tolerance:g}, {n_players} players, "
              f"{seating_words(not args.permute_seats, args.permute_seats)}, seed {args.seed} -> {out}\n"
              f"loading the engine (compiled on first use, then cached)...",
              file=sys.stderr, flush=True)

    quiet = args.no_progress
    search(game, settings, out, resume=args.resume, progress=None if quiet else progress,
           on_start=None if quiet else on_start)
    print(f"evidence: {out}")
    print(balance_summary_text(out))


def add_balance_parser(commands) -> None:
    """Register `sim balance` on the CLI's subparsers object."""
    from sim.cli.options import add_permute_option
    from sim.studies.balance import DEFAULT_BATCH, DEFAULT_BUDGET, METRIC_HELP

    command = commands.add_parser(
        "balance", help="search the value of a rule parameter that brings a metric to a target (e.g. a fair "
                        "first player)",
        description="sim balance GAME --param NAME --range LO,HI --metric M --target T [--tolerance E]: one "
                    "number x between LO and HI sets the parameter (the parameter itself, an element NAME[i], or "
                    "a list written by --rule, e.g. \"0,x,2x,3x\"); candidates play in batches from the same "
                    "seeds (common random numbers), the next one at the root of a fit of the metric on x, until "
                    "a candidate's 95%% interval lies within T +- E. The evidence (every batch, every candidate "
                    "with its interval and games) is a dataset in --out; --resume continues a stopped search.")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--param", action="append", metavar="NAME", required=True,
                         help="the searched parameter: a dotted key of the game's data, NAME[i] for one element "
                              "of a list; repeatable (each moves with the same x)")
    command.add_argument("--rule", action="append", metavar="EXPR",
                         help="the list a --param takes, one expression of x per element, e.g. \"0,x,2x,3x\" "
                              "(numbers, x, + - * /, parentheses; paired with the --param options in order; whole "
                              "numbers where the parameter has them, rounded half up)")
    command.add_argument("--range", required=True, metavar="LO,HI",
                         help="where x is searched (--range=-5,5 when LO is negative)")
    command.add_argument("--metric", default="first_player_win",
                         help=f"{METRIC_HELP} (default first_player_win: the win rate of turn position 0, "
                              f"start_order when the game records it, else seat 0)")
    command.add_argument("--target", type=float, required=True,
                         help="the metric's target (a proportion for a win rate: 0.25; VP for a score gap)")
    command.add_argument("--tolerance", type=float, default=0.01,
                         help="found when a candidate's 95%% interval lies within target +- this "
                              "(default 0.01: one point of win rate)")
    command.add_argument("--games", type=int, default=DEFAULT_BUDGET,
                         help=f"budget: games of every candidate together (default {DEFAULT_BUDGET:,})")
    command.add_argument("--batch", type=int, default=DEFAULT_BATCH,
                         help=f"games of a candidate's first batch; later batches grow with what its interval "
                              f"needs (default {DEFAULT_BATCH})")
    command.add_argument("--time-limit", type=float, metavar="SECONDS",
                         help="stop once this wall time has passed (batches are cut to fit it; at least one is "
                              "played; resumable with --resume)")
    command.add_argument("--players", type=int, help="number of players (default: the game's)")
    command.add_argument("--bots", help="comma list, one bot per seat, or one name for every seat (seats rotated, "
                                        "or permuted with --permute-seats)")
    add_permute_option(command)
    command.add_argument("--seed", type=int, default=0, help="run seed of every candidate's games (default 0)")
    command.add_argument("--variant", help="variant TOML file the search starts from")
    command.add_argument("--fix", action="append", metavar="NAME=VALUE",
                         help="override another parameter for every candidate (repeatable)")
    command.add_argument("--out", help="evidence directory (default data/balance/<game>-<param>-<metric>-<P>p-s<seed>)")
    command.add_argument("--resume", action="store_true",
                         help="continue the search in --out (same settings; --games, --time-limit and --workers "
                              "may change)")
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="Numba threads (default: all cores)")
    command.add_argument("--no-progress", action="store_true", help="no line per batch")
    command.set_defaults(handler=cmd_balance)


__all__ = ["add_balance_parser", "cmd_balance"]
