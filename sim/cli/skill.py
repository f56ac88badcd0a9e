"""`sim skill GAME`: the headline verdicts at every rung of play (sim/studies/skill.py); `sim search-map GAME`:
where the search bot leaves its heuristic's first choice (sim/studies/search_map.py)."""
from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from sim.core import registry
from sim.core.errors import UserError


def cmd_skill(args) -> None:
    from sim.analysis.skill import skill_summary_text
    from sim.studies.skill import SkillSettings, load_skill_spec, run_skill

    game = registry.get_game(args.game)
    spec = load_skill_spec(game)
    for flag, value in (("--games", args.games), ("--search-games", args.search_games), ("--players", args.players)):
        if value is not None and value < 1:
            raise UserError(f"{flag} must be positive (got {value})")
    if args.players is not None:
        params = game.resolve_params(None)
        if args.players not in game.allowed_players(params):
            raise UserError(f"{game.name} is played by {', '.join(map(str, game.allowed_players(params)))} "
                            f"players, not {args.players}")
    rungs = None if args.rungs is None else tuple(part.strip() for part in args.rungs.split(","))
    settings = SkillSettings(players=args.players, games=args.games, search_games=args.search_games, seed=args.seed,
                             workers=args.workers, out=Path(args.out) if args.out else None,
                             data=Path(args.data) if args.data else None, rungs=rungs,
                             effect=not args.no_effect, progress=not args.no_progress,
                             command=shlex.join(["sim"] + sys.argv[1:]))
    out = run_skill(game, settings, spec)
    print(f"evidence: {out}")
    print(skill_summary_text(out))


def add_skill_parser(commands) -> None:
    """Register `sim skill` on the CLI's subparsers object."""
    command = commands.add_parser(
        "skill", help="the headline verdicts at every level of play, each labelled by how it moves with skill",
        description="sim skill GAME: every rung of the game's skill.toml (weakest first: random, untuned, tuned, "
                    "league generations, search) plays a mirror line-up per bot (first player, seat imbalance, "
                    "score spread, winning margin, game length) and its mixed line-up (each style's win share), "
                    "the same seeds everywhere, seated as the skill.toml's `seating` says (rotated or every "
                    "ordering); each verdict is labelled holds at every level / grows with skill / shrinks with "
                    "skill / flips / unclear. Resumable: datasets already complete are reused (one played by a "
                    "bot redefined since, under the same name, is refused, naming the bot: remove it).")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--players", type=int, help="seats at every table (default: the skill.toml's)")
    command.add_argument("--games", type=int,
                         help="games per line-up at the heuristic rungs (default: the skill.toml's)")
    command.add_argument("--search-games", type=int,
                         help="games per line-up at the slow (search) rungs (default: the skill.toml's)")
    command.add_argument("--rungs", metavar="A,B,...", help="only these rungs (default: every rung)")
    command.add_argument("--seed", type=int, default=0, help="run seed shared by every line-up (default 0)")
    command.add_argument("--out", help="evidence folder (default data/skill-<game>-<P>p-s<seed>)")
    command.add_argument("--data", help="where the rungs' datasets go (default <out>/runs)")
    command.add_argument("--no-effect", action="store_true", help="skip the effect's second pass (Cuzco: Pututu)")
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="threads (default: all cores)")
    command.add_argument("--no-progress", action="store_true", help="no progress bar")
    command.set_defaults(handler=cmd_skill)


def cmd_search_map(args) -> None:
    from sim.analysis.skill import write_search_map_evidence
    from sim.studies.search_map import DEFAULT_GAMES, default_out, default_search_bot, run_search_map, search_map_text

    game = registry.get_game(args.game)
    bot = args.bot or default_search_bot(game)
    n_players = game.default_players if args.players is None else args.players
    n_games = DEFAULT_GAMES if args.games is None else args.games
    out = Path(args.out) if args.out else default_out(game.name, bot, n_players, n_games, args.seed)
    table = run_search_map(game, bot, n_players, n_games, args.seed, out, args.workers, progress=not args.no_progress)
    print(f"dataset: {out}")
    print(f"{game.name}: {bot} in every seat, {n_players} players, {n_games} games")
    print(search_map_text(table, game.search_value))
    if args.skill_evidence:
        command = shlex.join(["sim"] + sys.argv[1:])
        kept = write_search_map_evidence(table, args.skill_evidence, {
            "command": command, "game": game.name, "bot": bot, "players": n_players, "games": n_games,
            "seed": args.seed, "value": game.search_value})
        print(f"map kept beside the skill evidence: {kept}")


def add_search_map_parser(commands) -> None:
    """Register `sim search-map` on the CLI's subparsers object."""
    from sim.studies.search_map import DEFAULT_GAMES

    command = commands.add_parser(
        "search-map", help="where the search bot leaves its heuristic's first choice, by decision kind",
        description="sim search-map GAME: the search bot plays in every seat; each decision it searches is counted "
                    "by kind (what its heuristic chose first), with how often the search left that choice and the "
                    "rollout value it gained (biased upwards: compare kinds with each other). The map of where the "
                    "heuristics are weakest. Resumable: a complete dataset of the same run is reused.")
    command.add_argument("game", metavar="GAME")
    command.add_argument("--bot", help="the search bot (default: skill.toml's search rung's)")
    command.add_argument("--players", type=int, help="seats at the table (default: the game's)")
    command.add_argument("--games", type=int, help=f"games, a multiple of the player count (default {DEFAULT_GAMES})")
    command.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    command.add_argument("--out", help="dataset folder (default data/<game>-search-map-<bot>-<P>p-<G>g-s<seed>)")
    command.add_argument("--skill-evidence", metavar="DIR",
                         help="also keep the map in this skill evidence folder, for the skill page")
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="threads (default: all cores)")
    command.add_argument("--no-progress", action="store_true", help="no progress bar")
    command.set_defaults(handler=cmd_search_map)
