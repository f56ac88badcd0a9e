"""The `sim` commands: run, sweep, robust, games, bots, replay, summary, compare, report; the bots'
commands (tune, tournament, ladder) are in sim/cli/bots.py, the balance search in sim/cli/balance.py.

Bad input of any kind ends with exactly one `error: ...` line on stderr and exit status 2, before
anything is written; an engine failure exits with status 1 and the replay command to debug it.
"""
from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import numba
import numpy as np

from sim.cli.options import (MAX_SEED, OneLineParser, add_execution_options, add_permute_option, chunk_size,
                             param_overrides, player_count)
from sim.core import registry
from sim.core.errors import EngineFailure, UserError
from sim.core.lineup import lineup_indices, parse_bots, seat_bot_matrix, seating_words
from sim.core.params import resolve_variant_file, strip_provenance
from sim.core.sweep import build_cells, parse_params, resolve_with_overrides

DEFAULT_GAMES = 100_000
ROBUST_GAMES = 20_000  # per table of `sim robust` (sim.core.robust.DEFAULT_GAMES)


def _default_out(game_name: str, variant: str, n_players: int, n_games: int, seed: int) -> Path:
    variant_slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", variant).strip("-") or "variant"
    return Path("data") / f"{game_name}-{variant_slug}-{n_players}p-{n_games}g-s{seed}"


def cmd_run(args) -> None:
    game = registry.get_game(args.game)
    overrides = param_overrides(args.param)
    params = resolve_with_overrides(game, args.variant, overrides)
    n_players = player_count(game, params, args.players)
    bot_names, lineup = lineup_indices(parse_bots(game, args.bots, n_players))
    out = Path(args.out) if args.out else _default_out(game.name, params.variant_name, n_players, args.games, args.seed)
    # Imported late: pandas and pyarrow cost seconds that bad input need not pay.
    from sim.core import runner
    from sim.core.summary import ChunkSums, format_summary, summarize

    sums = ChunkSums()
    finished = not args.resume and runner.is_finished_run(out)
    runner.run(game, params, n_players, bot_names, lineup, args.rotate_seats, args.games, args.seed, out,
               args.workers, chunk_size(args, out, resume=args.resume or finished), checked=args.checked, progress=not args.no_progress,
               variant_path=args.variant, resume=args.resume, backend=args.backend, scheduler=args.scheduler,
               overrides=overrides, on_tables=sums.add, grow=args.resume, permute=args.permute_seats)
    if finished:
        print(f"dataset: {out} (already there: this run, the same configuration, finished before; nothing was "
              f"played again; `sim summary {out}` prints this again, another --out plays a new run)")
    else:
        print(f"dataset: {out}")
    print(format_summary(summarize(out, known=sums)))


def cmd_sweep(args) -> None:
    game = registry.get_game(args.game)
    grid = parse_params(args.param, several=True)
    if not grid:
        raise UserError("sim sweep: give at least one --param NAME=V1,V2,...")
    cells = build_cells(game, args.variant, grid, args.players, args.bots)
    names = "-".join(re.sub(r"[^A-Za-z0-9_-]+", "-", name) for name in grid)
    out = Path(args.out) if args.out else Path("data") / f"{game.name}-sweep-{names}-{args.games}g-s{args.seed}"
    from sim.core import runner

    plan = runner.RunPlan(game=game, cells=cells, n_games=args.games, seed=args.seed, rotate=args.rotate_seats,
                          chunk_size=chunk_size(args, out), checked=args.checked, variant_path=args.variant,
                          grid=grid, bots_spec=args.bots, permute=args.permute_seats)
    if not args.resume:  # another finished run there: one error line, before the banner
        runner.check_same_finished_run(plan, out)
    if not args.no_progress:
        print(f"sweep: {len(cells)} cells x {args.games:,} games, the same seeds in every cell -> {out}",
              file=sys.stderr, flush=True)
    runner.run_plan(plan, out, args.workers, backend=args.backend, scheduler=args.scheduler, resume=args.resume,
                    progress=not args.no_progress)
    print(f"dataset: {out}")
    _print_sweep_tables(out)


def _print_sweep_tables(path) -> None:
    """Every cell side by side: by turn order (when the game records it), by seat, by bot."""
    from sim.analysis.io import open_dataset
    from sim.analysis.sweep import format_sweep_summary, sweep_summary

    if "start_order" in open_dataset(path, cell=0).player_columns():
        print(format_sweep_summary(sweep_summary(path, by="start_order")))
        print()
    print(format_sweep_summary(sweep_summary(path, by="seat")))
    print()
    print(format_sweep_summary(sweep_summary(path, by="bot")))


def cmd_robust(args) -> None:
    """`sim robust GAME`: the base game and each table of its reconstructed numbers (a sweep with
    common random numbers), then every headline verdict under every table."""
    from sim.studies.robust import DEFAULT_CHUNK_SIZE, game_robustness, run_robust

    game = registry.get_game(args.game)
    spec = game_robustness(game)
    out = Path(args.out) if args.out else Path("data") / f"{game.name}-robust-{args.games}g-s{args.seed}"
    run_robust(game, out, args.games, args.seed, args.players, args.bots, args.workers,
               chunk_size(args, out, DEFAULT_CHUNK_SIZE), args.checked, args.backend, args.scheduler, args.resume,
               not args.no_progress, spec, args.permute_seats)
    from sim.analysis.robust import robustness, robustness_text

    print(f"dataset: {out}")
    print(robustness_text(robustness(out)))


def cmd_games(args) -> None:
    rows = []
    for game in registry.all_games():
        counts = sorted(game.player_counts)
        players = f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1)) else ",".join(map(str, counts))
        rows.append((game.name, f"{players} players", game.description))
    width = max((len(name) for name, _, _ in rows), default=0)
    for name, players, description in rows:
        print(f"{name.ljust(width)}  {players:<12}  {description}")


def cmd_bots(args) -> None:
    game = registry.get_game(args.game)
    bots = game.bots()
    width = max((len(name) for name in bots), default=0)
    for name, spec in bots.items():
        print(f"{name.ljust(width)}  {spec.description}")
    print(f"default line-up for {game.default_players} players: {','.join(game.default_bots(game.default_players))}")


def cmd_params(args) -> None:
    """`sim params GAME [PREFIX] [--variant FILE] [--param NAME=VALUE]`: every key a variant can set,
    with its value (the variant's, when given), type, bounds where the game declares them, and source."""
    from sim.core.paramlist import parameter_rows, value_text
    from sim.core.summary import align_columns

    game = registry.get_game(args.game)
    params = resolve_with_overrides(game, args.variant, param_overrides(args.param))
    rows = parameter_rows(game, params.resolved)
    if args.prefix:
        prefix = args.prefix.rstrip(".")
        rows = [row for row in rows if row.key == prefix or row.key.startswith(prefix + ".")]
        if not rows:
            from sim.core.paramlist import all_keys
            from sim.core.params import did_you_mean

            keys = {key: None for key in all_keys(params.resolved)}
            raise UserError(f"{game.name}: no parameter key starts with '{prefix}'{did_you_mean(prefix, keys)}")
    counts = {}
    for row in rows:
        counts[row.source_kind or "no source"] = counts.get(row.source_kind or "no source", 0) + 1
    print(f"{game.name} (variant {params.variant_name}): {len(rows)} keys ("
          + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + "); set any of them in a variant file "
          "([table] key = value) or with --param KEY=VALUE")
    width = args.width
    table = [["key", "value", "type", "bounds", "source"]] + [
        [row.key, value_text(row.value), row.kind, row.bounds or "-",
         (row.source if len(row.source) <= width else row.source[: width - 3] + "...") or "-"] for row in rows]
    for line in align_columns(table, left_columns=5):
        print(line)


def _replay_from_manifest(args):
    from sim.core.dataset import read_manifest, require_config

    manifest = read_manifest(args.from_dir)
    config = require_config(manifest, args.from_dir, ("game", "games", "players", "bots", "seed", "rotate_seats",
                                                      "variant"))
    if not isinstance(manifest.get("params"), dict):
        raise UserError(f"{args.from_dir}: the manifest has no params table to replay from")
    game = registry.get_game(config["game"])
    try:
        params = game.resolve_params(strip_provenance(manifest["params"]), config["variant"])
    except UserError:
        if not config.get("variant_path"):
            raise
        params = resolve_variant_file(game, config["variant_path"])
    if not 0 <= args.game_index < config["games"]:
        raise UserError(f"--game-index must be between 0 and {config['games'] - 1} for {args.from_dir}")
    return (game, params, config["players"], config["bots"], config["seed"], config["rotate_seats"],
            config.get("permute_seats", False))


def _replay_from_args(args):
    if args.game is None:
        raise UserError("sim replay: give GAME (with --seed) or --from DIR")
    game = registry.get_game(args.game)
    overrides = param_overrides(args.param)
    params = resolve_with_overrides(game, args.variant, overrides)
    n_players = player_count(game, params, args.players)
    if not 0 <= args.seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {args.seed})")
    return (game, params, n_players, parse_bots(game, args.bots, n_players), args.seed, args.rotate_seats,
            args.permute_seats)


def cmd_replay(args) -> None:
    if not 0 <= args.game_index <= MAX_SEED:
        raise UserError(f"--game-index must be between 0 and 2**63-1 (got {args.game_index})")
    game, params, n_players, lineup_names, seed, rotate, permute = (
        _replay_from_manifest(args) if args.from_dir else _replay_from_args(args))
    bot_names, lineup = lineup_indices(lineup_names)
    row = seat_bot_matrix(lineup, args.game_index, 1, rotate, permute)[0]
    with np.errstate(over="ignore" if numba.config.DISABLE_JIT else "warn"):
        lines = game.replay(params, n_players, bot_names, row, seed, args.game_index)
    for line in lines:
        print(line)


def cmd_summary(args) -> None:
    from sim.core.dataset import is_sweep, read_manifest
    from sim.core.summary import format_summary, summarize

    if is_sweep(read_manifest(args.dir)) and args.cell is None:
        _print_sweep_tables(args.dir)
        return
    print(format_summary(summarize(args.dir, cell=args.cell)))


def _precision(points: float) -> float | None:
    """--precision POINTS as a rate (None for 0: a fixed size)."""
    if not points == points or points < 0 or points >= 50:
        raise UserError(f"--precision is in percentage points, between 0 and 50 (got {points})")
    return points / 100 if points else None


def cmd_report(args) -> None:
    from sim.analysis.report import build_reports

    index = build_reports(out_dir=args.out, games=args.games, data_dir=args.data, simulate=not args.no_simulate,
                          show_code=args.show_code, workers=args.workers, jobs=args.jobs,
                          progress=not args.no_progress, seed=args.seed, compile_first=True,
                          game=args.game, precision=_precision(args.precision))
    print(f"reports: {index}")


def cmd_compare(args) -> None:
    """`sim compare A B`: the comparison table; `sim compare --sprt ...`: the sequential test."""
    if args.sprt:
        _compare_sprt(args)
        return
    if args.a is None or args.b is None:
        raise UserError("sim compare: give two dataset directories A B (or --sprt with --game)")
    from sim.analysis.compare import compare, compare_summary_text

    result = compare(args.a, args.b, alpha=args.alpha, correction=args.correction, cards=not args.no_cards)
    print(compare_summary_text(result, all_cards=args.all_cards))
    if args.figure:
        result.figure.savefig(args.figure, dpi=120)
        print(f"figure: {args.figure}")


def _compare_sprt(args) -> None:
    if args.a is not None:
        raise UserError("sim compare --sprt plays its own games: give --game and --variant-b, not directories")
    missing = [flag for flag, value in (("--game", args.game), ("--variant-b", args.variant_b),
                                        ("--metric", args.metric), ("--margin", args.margin)) if value is None]
    if missing:
        raise UserError(f"sim compare --sprt needs {', '.join(missing)}")
    from sim.analysis.sprt import run_sprt, sprt_progress_line, sprt_summary_text

    result = run_sprt(args.game, args.variant_a, args.variant_b, args.metric, args.margin, alpha=args.alpha,
                      beta=args.beta, batch=args.batch, max_games=args.max_games, seed=args.seed,
                      players=args.players, bots=args.bots, margin0=args.margin0, permute=args.permute_seats,
                      progress=lambda row: print(sprt_progress_line(row), file=sys.stderr, flush=True),
                      on_start=lambda: print(f"sequential test, {seating_words(True, args.permute_seats)}: loading "
                                             f"the engine (compiled on first use, then cached)...",
                                             file=sys.stderr, flush=True))
    print(sprt_summary_text(result))
    if args.figure:
        result.figure.savefig(args.figure, dpi=120)
        print(f"figure: {args.figure}")


def _add_compare_parser(commands) -> None:
    compare = commands.add_parser(
        "compare", help="compare two datasets (or run a sequential test of a variant with --sprt)",
        description="sim compare A B: every metric of dataset B against A, with intervals, tests and "
                    "adjusted p-values (paired when both runs share seeds and seats). "
                    "sim compare --sprt --game G --variant-b F --metric M --margin X: play both variants "
                    "from the same seeds in batches until a GSPRT decides whether B - A >= X.")
    compare.add_argument("a", metavar="A", nargs="?", help="dataset directory of the reference")
    compare.add_argument("b", metavar="B", nargs="?", help="dataset directory of the variant")
    compare.add_argument("--alpha", type=float, default=0.05,
                         help="significance level (and 1 - confidence of the intervals; SPRT: false H1 rate)")
    compare.add_argument("--correction", choices=["holm", "bh"], default="holm",
                         help="multiple-comparison correction over all rows: Holm or Benjamini-Hochberg")
    compare.add_argument("--no-cards", action="store_true", help="leave out the card-strength rows")
    compare.add_argument("--all-cards", action="store_true", help="print every card row, not only significant ones")
    compare.add_argument("--figure", metavar="PNG", help="save the forest plot (or the SPRT's LLR path) here")
    compare.add_argument("--sprt", action="store_true", help="sequential test: play games until it decides")
    compare.add_argument("--game", help="--sprt: the game")
    compare.add_argument("--variant-a", metavar="FILE", help="--sprt: variant file of A (default: the base game)")
    compare.add_argument("--variant-b", metavar="FILE", help="--sprt: variant file of B")
    compare.add_argument("--metric", help="--sprt: first_player_win, score or bot_win:NAME (per-game B - A)")
    compare.add_argument("--margin", type=float,
                         help="--sprt: B - A under H1 (a proportion for win metrics, e.g. 0.02; VP for score)")
    compare.add_argument("--margin0", type=float, default=0.0, help="--sprt: B - A under H0 (default 0)")
    compare.add_argument("--beta", type=float, default=0.05, help="--sprt: false H0 rate (default 0.05)")
    compare.add_argument("--batch", type=int, default=2000, help="--sprt: games per batch (default 2000)")
    compare.add_argument("--max-games", type=int, default=200_000, help="--sprt: stop here (default 200000)")
    compare.add_argument("--seed", type=int, default=0, help="--sprt: run seed of both variants (default 0)")
    compare.add_argument("--players", type=int, help="--sprt: player count (default: the game's)")
    compare.add_argument("--bots", help="--sprt: comma list, one bot per seat (rotated every game, or permuted with "
                                        "--permute-seats)")
    add_permute_option(compare, " (--sprt)")
    compare.set_defaults(handler=cmd_compare)


def build_parser() -> OneLineParser:
    parser = OneLineParser(prog="sim", description="Monte-Carlo balance analysis for board games.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    run = commands.add_parser("run", help="simulate many games and write a Parquet dataset")
    run.add_argument("game", metavar="GAME")
    run.add_argument("--players", type=int, help="number of players (default: the game's)")
    run.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games to play (default {DEFAULT_GAMES})")
    run.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    run.add_argument("--bots", help="comma list, one bot per seat, or one name for every seat")
    run.add_argument("--variant", help="variant TOML file overriding default parameters")
    run.add_argument("--out", help="output directory (default data/<game>-<variant>-<P>p-<G>g-s<seed>)")
    add_execution_options(run)
    run.add_argument("--param", action="append", metavar="NAME=VALUE",
                     help="override one parameter of the game's data (repeatable), e.g. --param pututu.enabled=true")
    run.set_defaults(handler=cmd_run)

    sweep = commands.add_parser(
        "sweep", help="play every combination of parameter values as one partitioned dataset",
        description="sim sweep GAME --param NAME=V1,V2,... [--param ...] --games G: G games for every "
                    "combination of the values, each cell from the same seeds (common random numbers), into one "
                    "dataset partitioned by the parameters (games/NAME=V/...). NAME is a dotted key of the game's "
                    "data (see its components.toml) or `players`; values are TOML values.")
    sweep.add_argument("game", metavar="GAME")
    sweep.add_argument("--param", action="append", metavar="NAME=V1,V2,...", required=True,
                       help="a swept parameter and its values (repeatable; lists in brackets: [8,7,4],[10,7,4])")
    sweep.add_argument("--games", type=int, default=DEFAULT_GAMES, help=f"games per cell (default {DEFAULT_GAMES})")
    sweep.add_argument("--players", type=int, help="number of players of every cell (or sweep --param players=...)")
    sweep.add_argument("--seed", type=int, default=0, help="run seed shared by every cell (default 0)")
    sweep.add_argument("--bots", help="comma list, one bot per seat, or one name for every seat")
    sweep.add_argument("--variant", help="variant TOML file the sweep starts from")
    sweep.add_argument("--out", help="output directory (default data/<game>-sweep-<names>-<G>g-s<seed>)")
    add_execution_options(sweep)
    sweep.set_defaults(handler=cmd_sweep)

    robust = commands.add_parser(
        "robust", help="do the verdicts hold under every plausible table of the reconstructed numbers?",
        description="sim robust GAME [--games G]: the base game and each alternative table of the game's "
                    "reconstructed numbers (its robust.toml; variant files in variants/robust/), G games each from "
                    "the same seeds with seats rotated (or every seating order with --permute-seats; common "
                    "random numbers), as one dataset partitioned by table; then each headline verdict (first-player advantage, bot ranking, strongest and "
                    "weakest cards, a switch's effect on each measure) under every table, with the intervals "
                    "side by side, and whether it holds under every table.")
    robust.add_argument("game", metavar="GAME")
    robust.add_argument("--games", type=int, default=ROBUST_GAMES,
                        help=f"games per table (default {ROBUST_GAMES})")
    robust.add_argument("--players", type=int, help="number of players (default: the game's)")
    robust.add_argument("--seed", type=int, default=0, help="run seed shared by every table (default 0)")
    robust.add_argument("--bots", help="comma list, one bot per seat, or one name for every seat (seats rotated, "
                                       "or permuted with --permute-seats)")
    robust.add_argument("--out", help="output directory (default data/<game>-robust-<G>g-s<seed>)")
    add_execution_options(robust, rotate=False, permute_tail="")
    robust.set_defaults(handler=cmd_robust)

    games = commands.add_parser("games", help="list the games")
    games.set_defaults(handler=cmd_games)

    bots = commands.add_parser("bots", help="list the bots of a game")
    bots.add_argument("game", metavar="GAME")
    bots.set_defaults(handler=cmd_bots)

    params = commands.add_parser(
        "params", help="list a game's parameter keys: value, type, bounds and source",
        description="sim params GAME [PREFIX] [--variant FILE]: every key of the game's data a variant file or "
                    "--param can set, with its value (the variant's when given), type, bounds where the game "
                    "declares them, and its source: printed (in a rulebook), reconstructed or a reading.")
    params.add_argument("game", metavar="GAME")
    params.add_argument("prefix", metavar="PREFIX", nargs="?", help="only the keys under this one (e.g. rules)")
    params.add_argument("--variant", help="variant TOML file: show its values")
    params.add_argument("--param", action="append", metavar="NAME=VALUE", help="an override to show (repeatable)")
    params.add_argument("--width", type=int, default=90, help="shorten sources to this many characters (default 90)")
    params.set_defaults(handler=cmd_params)

    replay = commands.add_parser("replay", help="print one game turn by turn, reproduced from its seed")
    replay.add_argument("game", metavar="GAME", nargs="?")
    replay.add_argument("--from", dest="from_dir", metavar="DIR", help="take the configuration from a dataset")
    replay.add_argument("--game-index", type=int, required=True)
    replay.add_argument("--seed", type=int, default=0)
    replay.add_argument("--players", type=int)
    replay.add_argument("--bots")
    replay.add_argument("--variant")
    seating = replay.add_mutually_exclusive_group()
    seating.add_argument("--rotate-seats", action="store_true", help="the run rotated its seats")
    seating.add_argument("--permute-seats", action="store_true", help="the run permuted its seats")
    replay.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter override of the run")
    replay.set_defaults(handler=cmd_replay)

    summary = commands.add_parser("summary", help="print the summary of a dataset")
    summary.add_argument("dir", metavar="DIR")
    summary.add_argument("--cell", metavar="NAME=VALUE,...", help="one cell of a sweep (default: every cell, side by side)")
    summary.set_defaults(handler=cmd_summary)

    report = commands.add_parser("report", help="simulate what is missing, run the notebooks, write HTML reports")
    report.add_argument("--games", type=int,
                        help="at most this many games per dataset (default 200000); with --precision 0, exactly "
                             "this many")
    report.add_argument("--precision", type=float, default=0.5, metavar="POINTS",
                        help="play each game's datasets until the first player's and every bot's win-rate "
                             "intervals are +-POINTS percentage points or --games is reached (default 0.5; 0: "
                             "play --games games)")
    report.add_argument("--game", metavar="NAME", help="build this game's pages only (and an index of them)")
    report.add_argument("--out", default="reports", help="report folder (default reports)")
    report.add_argument("--data", default="data", help="dataset folder (default data)")
    report.add_argument("--seed", type=int, default=1, help="run seed of the simulated datasets (default 1)")
    report.add_argument("--no-simulate", action="store_true", help="use the datasets there are; simulate nothing")
    report.add_argument("--show-code", action="store_true", help="show the notebooks' code cells in the HTML")
    report.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="simulation threads (default: all cores)")
    report.add_argument("--jobs", type=int, help="notebooks executed at once (default: cores, at most 4)")
    report.add_argument("--no-progress", action="store_true", help="no progress bars")
    report.set_defaults(handler=cmd_report)

    _add_compare_parser(commands)
    from sim.cli import bots as bot_commands

    bot_commands.add_tune_parser(commands)
    bot_commands.add_tournament_parser(commands)
    bot_commands.add_ladder_parser(commands)
    bot_commands.add_league_parser(commands)
    from sim.cli.balance import add_balance_parser
    add_balance_parser(commands)
    from sim.cli.skill import add_search_map_parser, add_skill_parser
    add_skill_parser(commands)
    add_search_map_parser(commands)
    from sim.cli.value import add_value_parser
    add_value_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `sim` and `python -m sim`; returns 0 or raises SystemExit with the status."""
    previous = signal.signal(signal.SIGTERM, _terminate) if _main_thread() else None
    args = None
    try:
        args = build_parser().parse_args(argv)
        args.argv = list(argv) if argv is not None else sys.argv[1:]
        args.handler(args)
    except UserError as exc:
        message = " ".join(str(exc).split())
        game = getattr(args, "game", None)
        if isinstance(game, str) and game:  # "did you mean" names the listing of this game
            message = message.replace("sim params GAME", f"sim params {game}")
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2) from None
    except EngineFailure as exc:
        print(f"error: {' '.join(str(exc).split())}", file=sys.stderr)
        raise SystemExit(1) from None
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: silence the flush at exit instead of a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(1) from None
    except Exception as exc:
        if not type(exc).__module__.startswith("pyarrow"):
            raise
        # A damaged Parquet part (truncated, overwritten) found while reading a dataset.
        print(f"error: cannot read the dataset: {' '.join(str(exc).split())[:300]}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt as exc:
        detail = " ".join(str(exc).split()) or "interrupted; nothing was kept"
        print(f"error: {detail}", file=sys.stderr)
        raise SystemExit(130) from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return 0


def _terminate(signum, frame):
    """SIGTERM ends a run like Ctrl-C: finished chunks are kept for --resume."""
    raise KeyboardInterrupt


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
