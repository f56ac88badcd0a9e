"""The bots' commands: `sim tune`, `sim tournament` and `sim ladder`.

The work is in sim/core (tune.py: the optimiser; tournament.py: line-ups and the runs), the
summaries in sim/analysis/tournament.py; this module reads the options, calls them and prints.
"""
from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from sim.cli.options import add_execution_options, chunk_size, param_overrides
from sim.core import registry
from sim.core.errors import UserError


# ----------------------------------------------------------------------------------- sim tune
def cmd_tune(args) -> None:
    from sim.core.params import BASE_VARIANT
    from sim.core.sweep import resolve_with_overrides
    from sim.studies.tune import TuneSettings, tune

    game = registry.get_game(args.game)
    overrides = param_overrides(args.param)
    variants = [resolve_with_overrides(game, None if path == BASE_VARIANT else path, overrides)
                for path in (args.variant or [None])]
    if len({params.variant_name for params in variants}) < len(variants):
        raise UserError("--variant: the same variant is named twice")
    pool = None if args.pool is None else [name.strip() for name in args.pool.split(",")]
    settings = TuneSettings(bot=args.bot, pool=pool, start=args.start, players=args.players, games=args.games,
                            generations=args.generations, popsize=args.popsize, sigma=args.sigma, seed=args.seed,
                            optimizer=args.optimizer, validation_games=args.validation_games,
                            state=Path(args.state) if args.state else None, out=Path(args.out) if args.out else None,
                            resume=args.resume, workers=args.workers, progress=not args.no_progress,
                            command=shlex.join(["sim"] + (args.argv if args.argv is not None else sys.argv[1:])),
                            name=args.name, permute=args.permute_seats)
    result = tune(game, variants if len(variants) > 1 else variants[0], settings)
    lo, hi = result.validation.interval()
    base_lo, base_hi = result.base_validation.interval()
    print(f"{result.name} written to {result.out}")
    print(f"validation ({result.validation.games} held-out games): {result.name} wins "
          f"{result.validation.win_rate:.1%} [{lo:.1%}, {hi:.1%}], {settings.bot} wins "
          f"{result.base_validation.win_rate:.1%} [{base_lo:.1%}, {base_hi:.1%}]")
    if result.start_validation is not None:
        start_lo, start_hi = result.start_validation.interval()
        print(f"  the starting weights ({settings.start}) win {result.start_validation.win_rate:.1%} "
              f"[{start_lo:.1%}, {start_hi:.1%}] of the same games")
    from sim.core.stats import no_winner_note

    for evaluation, who in ((result.validation, result.name), (result.base_validation, settings.bot)):
        if evaluation.no_winner:
            print(f"  {who}: {no_winner_note(evaluation.no_winner)}")
    print(f"tuning took {result.provenance['wall_seconds']:.0f} s")


def add_tune_parser(commands) -> None:
    """Register `sim tune` on the CLI's subparsers object."""
    from sim.studies.tune import (DEFAULT_GAMES, DEFAULT_GENERATIONS, DEFAULT_SIGMA, DEFAULT_VALIDATION_GAMES,
                               OPTIMIZERS)

    tune_parser = commands.add_parser(
        "tune", help="tune a heuristic bot's weights by CMA-ES against a pool of bots",
        description="Optimise a heuristic bot's weights by play against a pool of the other bots (CMA-ES, "
                    "common seeds per generation, seats rotated) and write them, with their provenance, as "
                    "the bot <NAME>-tuned of the game's bots.tuned.toml. Resumable with --resume.")
    tune_parser.add_argument("game", metavar="GAME")
    tune_parser.add_argument("--bot", required=True, metavar="NAME", help="the heuristic bot to tune")
    tune_parser.add_argument("--pool", metavar="A,B,...",
                             help="opponents, drawn round-robin (default: the game's other heuristic bots)")
    tune_parser.add_argument("--start", metavar="NAME",
                             help="start from this bot's weights (a bot of the same kind, e.g. NAME-tuned to "
                                  "continue a tune on a new objective; default: the tuned bot's own)")
    tune_parser.add_argument("--players", type=int, help="number of players (default: the game's)")
    tune_parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                             help=f"games per evaluation of one weight vector (default {DEFAULT_GAMES})")
    tune_parser.add_argument("--generations", type=int, default=DEFAULT_GENERATIONS,
                             help=f"CMA-ES generations (default {DEFAULT_GENERATIONS}; a resumed tune may raise it)")
    tune_parser.add_argument("--popsize", type=int, help="candidates per generation (default: CMA-ES's, 4 + 3 ln d)")
    tune_parser.add_argument("--sigma", type=float, default=DEFAULT_SIGMA,
                             help=f"initial step, in log-factor units (default {DEFAULT_SIGMA})")
    tune_parser.add_argument("--seed", type=int, default=0, help="seed of the games and of CMA-ES (default 0)")
    tune_parser.add_argument("--optimizer", choices=OPTIMIZERS, default="cma", help="cma (NTBEA is not offered)")
    tune_parser.add_argument("--validation-games", type=int, default=DEFAULT_VALIDATION_GAMES,
                             help=f"held-out games measuring the result (default {DEFAULT_VALIDATION_GAMES})")
    tune_parser.add_argument("--variant", action="append", metavar="FILE",
                             help="variant TOML file to tune for; repeat it (use 'base' for the base game) to tune "
                                  "on several, each evaluation's games shared evenly among them")
    tune_parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter override")
    tune_parser.add_argument("--state", metavar="FILE",
                             help="optimiser state, saved every generation (default data/tune/<game>-<bot>-<P>p-s<seed>"
                                  ".state.pkl; its log beside it as .log.json)")
    tune_parser.add_argument("--resume", action="store_true", help="continue the tune saved in --state")
    tune_parser.add_argument("--out", metavar="FILE", help="TOML file to write the tuned bot into "
                                                           "(default sim/games/<game>/bots.tuned.toml)")
    tune_parser.add_argument("--permute-seats", action="store_true",
                             help="play each line-up of the schedule in every seating order (P! games a line-up) "
                                  "instead of its P rotations, so the candidate meets each opponent on either side "
                                  "equally often (where who sits before whom matters, e.g. Machu Picchu)")
    tune_parser.add_argument("--name", metavar="NAME",
                             help="the tuned bot's name (default <bot>-tuned; e.g. temple-g3 for a style's next "
                                  "generation tuned against a chosen line-up)")
    tune_parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                             help="Numba threads (default: all cores)")
    tune_parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    tune_parser.set_defaults(handler=cmd_tune, argv=None)


# ---------------------------------------------------------------------------------- sim league
def cmd_league(args) -> None:
    from sim.studies.league import LeagueSettings, run_league

    game = registry.get_game(args.game)

    def names(text: str | None) -> list[str] | None:
        return None if text is None else [part.strip() for part in text.split(",")]

    settings = LeagueSettings(start=names(args.start), styles=names(args.styles), generations=args.generations,
                              tune_generations=args.tune_generations, games=args.games,
                              validation_games=args.validation_games, players=args.players, seed=args.seed,
                              workers=args.workers, state_dir=Path(args.state_dir) if args.state_dir else None,
                              set_default=args.set_default, progress=not args.no_progress,
                              command=shlex.join(["sim"] + sys.argv[1:]), variants=args.variant,
                              sigma=args.sigma, permute=args.permute_seats)
    result = run_league(game, settings)
    for generation in result.generations:
        for e in generation["styles"]:
            lo, hi = e["gain_ci95"]
            print(f"generation {generation['generation']}: {e['candidate']:<28} held-out {e['held_out_win_rate']:.1%} "
                  f"vs {e['from']} {e['from_held_out_win_rate']:.1%}: gain {100 * e['gain']:+.1f} points "
                  f"[{100 * lo:+.1f}, {100 * hi:+.1f}] -> {'kept' if e['kept'] else 'not kept'}")
    print(f"stopped {result.stopped}; last generation: {', '.join(result.final)}"
          + (" (now the default line-up)" if args.set_default else ""))


def add_league_parser(commands) -> None:
    """Register `sim league` on the CLI's subparsers object."""
    command = commands.add_parser(
        "league", help="self-play league: tune each style against the last generation of every style",
        description="Generation k+1 of each style is tuned (sim tune) from its generation-k weights against "
                    "generation k of every style, and kept as <style>-g<k+1> (in bots.tuned.toml, with its "
                    "provenance) only if it beats generation k on held-out games (95% interval of the gain above "
                    "zero); the league stops at --generations or at the first generation that keeps no style. "
                    "Its record goes to the game's tune_logs/league.json.")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--from", dest="start", metavar="A,B,...",
                         help="generation 0, one bot per style (default: the game's default line-up)")
    command.add_argument("--styles", metavar="A,B,...",
                         help="each style's base heuristic bot (default: --from's names without -tuned / -gN)")
    command.add_argument("--generations", type=int, default=3, help="league generations at most (default 3)")
    command.add_argument("--tune-generations", type=int, default=8,
                         help="CMA-ES generations of each style's tune (default 8)")
    command.add_argument("--games", type=int, default=400, help="games per evaluation (default 400)")
    command.add_argument("--validation-games", type=int, default=2000,
                         help="held-out games deciding whether a generation is kept (default 2000)")
    command.add_argument("--players", type=int, help="number of players (default: the game's)")
    command.add_argument("--seed", type=int, default=0, help="seed of the league's tunes (default 0)")
    command.add_argument("--state-dir", metavar="DIR", help="tune states (default data/league/<game>); resumable")
    command.add_argument("--sigma", type=float, default=0.15,
                         help="each tune's initial step in log-factor units (default 0.15: a warm start)")
    command.add_argument("--variant", action="append", metavar="FILE",
                         help="tune for this variant; repeat it ('base' for the base game) to tune on several, as "
                              "sim tune does (default: the base game)")
    command.add_argument("--set-default", action="store_true",
                         help="make the last generation the default line-up (bots.toml [lineup] default)")
    command.add_argument("--permute-seats", action="store_true",
                         help="each tune's line-ups in every seating order, as sim tune --permute-seats (where who "
                              "sits before whom matters)")
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="Numba threads (default: all cores)")
    command.add_argument("--no-progress", action="store_true", help="no progress bars")
    command.set_defaults(handler=cmd_league)


# ------------------------------------------------------------------------- sim tournament, ladder
def _default_out(game_name: str, kind: str, bots: list[str], n_players: int, n_games: int, seed: int) -> Path:
    names = re.sub(r"[^A-Za-z0-9_.-]+", "-", "-".join(bots)).strip("-")
    return Path("data") / f"{game_name}-{kind}-{names}-{n_players}p-{n_games}g-s{seed}"


def _chunk_size(args, out: Path) -> int:
    from sim.studies.tournament import DEFAULT_CHUNK_SIZE

    return chunk_size(args, out, DEFAULT_CHUNK_SIZE)


def _parse_ladder(spec: str | None, bots: list[str]) -> list[str] | None:
    """--ladder: two or more distinct bots of the tournament, weakest first."""
    if spec is None:
        return None
    rungs = [part.strip() for part in spec.split(",")]
    for rung in rungs:
        if rung not in bots:
            raise UserError(f"--ladder names {rung!r}, which is not one of --bots ({', '.join(bots)})")
    if len(rungs) < 2 or len(set(rungs)) != len(rungs):
        raise UserError(f"--ladder '{spec}': give two or more distinct bots, weakest first")
    return rungs


def cmd_tournament(args) -> None:
    from sim.studies.tournament import parse_tournament_bots, run_tournament

    game = registry.get_game(args.game)
    bots = parse_tournament_bots(game, args.bots)
    overrides = param_overrides(args.param)
    n_players = game.default_players if args.players is None else args.players
    ladder = _parse_ladder(args.ladder, bots)
    out = Path(args.out) if args.out else _default_out(game.name, "tournament", bots, n_players, args.games, args.seed)
    run_tournament(game.name, bots, out, n_players, args.games, args.seed, args.workers, _chunk_size(args, out),
                   args.variant, overrides, args.checked, args.backend, args.scheduler, args.resume,
                   progress=not args.no_progress, permute=args.permute_seats)
    from sim.analysis.tournament import tournament_summary_text

    print(f"dataset: {out}")
    print(tournament_summary_text(out, ladder=ladder, progress=not args.no_progress))


def cmd_ladder(args) -> None:
    from sim.studies.tournament import parse_ladder_rungs, run_ladder

    game = registry.get_game(args.game)
    rungs = parse_ladder_rungs(game, args.rungs)
    overrides = param_overrides(args.param)
    n_players = game.default_players if args.players is None else args.players
    out = Path(args.out) if args.out else _default_out(game.name, "ladder", rungs, n_players, args.games, args.seed)
    run_ladder(game.name, rungs, out, n_players, args.games, args.seed, args.workers, _chunk_size(args, out),
               args.variant, overrides, args.checked, args.backend, args.scheduler, args.resume,
               progress=not args.no_progress, permute=args.permute_seats)
    from sim.analysis.tournament import ladder_summary_text

    print(f"dataset: {out}")
    print(ladder_summary_text(out))
    if args.skill_evidence:
        from sim.analysis.skill import write_ladder_evidence

        kept = write_ladder_evidence(out, args.skill_evidence, shlex.join(["sim", *args.argv]))
        print(f"ladder kept beside the skill evidence: {kept}")


def _add_lineup_options(command, default_out: str) -> None:
    """The options `sim tournament` and `sim ladder` share: table size, games per line-up, seed, data."""
    from sim.studies.tournament import DEFAULT_GAMES

    command.add_argument("--players", type=int, help="seats at every table (default: the game's)")
    command.add_argument("--games", type=int, default=DEFAULT_GAMES,
                         help=f"games per line-up, a multiple of the player count (of P! with --permute-seats) "
                              f"(default {DEFAULT_GAMES})")
    command.add_argument("--seed", type=int, default=0, help="run seed shared by every line-up (default 0)")
    command.add_argument("--variant", help="variant TOML file of the game")
    command.add_argument("--param", action="append", metavar="NAME=VALUE",
                         help="override one parameter of the game's data (repeatable)")
    command.add_argument("--out", help=f"output directory (default {default_out})")


def add_ladder_parser(commands) -> None:
    """Register `sim ladder` on the CLI's subparsers object."""
    command = commands.add_parser(
        "ladder", help="skill ladder: each bot head to head with the one below it (only those line-ups)",
        description="sim ladder GAME --rungs a,b,c: bots weakest first; for each adjacent pair the rung alone "
                    "against P-1 copies of the rung below and the rung below alone against P-1 copies of the "
                    "rung, G games each from the same seed with seats rotated (every ordering with "
                    "--permute-seats), into one dataset (a tournament "
                    "restricted to those line-ups); then each rung's win rates with 95% intervals and a "
                    "verdict. Far cheaper than a full tournament when a rung is slow (a search bot).")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--rungs", required=True, metavar="A,B,...",
                         help="comma list of two or more distinct bots, weakest first")
    _add_lineup_options(command, "data/<game>-ladder-<rungs>-<P>p-<G>g-s<seed>")
    command.add_argument("--skill-evidence", metavar="DIR",
                         help="also keep the ladder's table in this `sim skill` evidence folder (e.g. "
                              "sim/games/<game>/skill), where the skill page shows it")
    add_execution_options(command, rotate=False)  # a ladder rotates seats, or permutes them
    command.set_defaults(handler=cmd_ladder)


def add_tournament_parser(commands) -> None:
    """Register `sim tournament` on the CLI's subparsers object."""
    command = commands.add_parser(
        "tournament", help="round-robin of bot line-ups: payoff table, ratings, meta-game equilibrium",
        description="sim tournament GAME --bots a,b,c: every line-up of P bots drawn from the list (with "
                    "repetition: 1-vs-3, 2-vs-2, ...) plays G games from the same seed with seats rotated (every "
                    "ordering with --permute-seats), "
                    "into one dataset partitioned by line-up; then the payoff table, openskill ratings, the "
                    "equilibrium of the one-bot-against-a-field game and a dominance verdict.")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--bots", required=True, help="comma list of the distinct bots (at least two)")
    _add_lineup_options(command, "data/<game>-tournament-<bots>-<P>p-<G>g-s<seed>")
    command.add_argument("--ladder", metavar="A,B,...",
                         help="also print the skill ladder of these bots, weakest first (each must be in --bots)")
    add_execution_options(command, rotate=False)  # a tournament rotates seats, or permutes them
    command.set_defaults(handler=cmd_tournament)
