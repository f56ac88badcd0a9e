"""`sim value GAME --group G`: each card of a group valued by restricted play (sim/studies/value.py)."""
from __future__ import annotations

from pathlib import Path

from sim.cli.options import MAX_SEED, OneLineParser, add_permute_option, player_count
from sim.core import registry
from sim.core.errors import UserError


def cmd_value(args) -> None:
    from sim.core.lineup import lineup_indices, parse_bots, seating_words
    from sim.core.params import load_variant, resolve_variant_file
    from sim.studies.value import DEFAULT_GAMES, ValuePlan, find_group, format_table, run_value, write_table

    game = registry.get_game(args.game)
    group = find_group(game, args.group)
    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 1:
        raise UserError(f"--games must be at least 1 (got {games})")
    if not 0 <= args.seed <= MAX_SEED:
        raise UserError(f"--seed must be from 0 to {MAX_SEED} (got {args.seed})")
    if args.workers < 1:
        raise UserError(f"--workers must be at least 1 (got {args.workers})")
    params = resolve_variant_file(game, args.variant)
    name, variant = load_variant(args.variant) if args.variant else (params.variant_name, {})
    n_players = player_count(game, params, args.players)
    bot_names, lineup = lineup_indices(parse_bots(game, args.bots, n_players))
    items = tuple(i.strip() for i in args.items.split(",")) if args.items else ()
    plan = ValuePlan(game, group, variant, name, n_players, bot_names, lineup, games, args.seed, items,
                     args.permute_seats)
    out = Path(args.out) if args.out else (
        Path("data") / "value" / f"{game.name}-{group.name}-{name}-{n_players}p-{games}g-s{args.seed}.csv")
    if out.suffix not in (".csv", ".parquet"):
        raise UserError(f"--out {out}: give a .csv or .parquet file")
    print(f"value: {game.name}, group {group.name} ({len(plan.items)} item{'s' if len(plan.items) != 1 else ''}), {n_players} players, "
          f"{games:,} games per item and {games:,} unrestricted, "
          f"{seating_words(not args.permute_seats, args.permute_seats)}, the restricted seat going round "
          f"in blocks of {plan.block} games, seed {args.seed}", flush=True)
    table = run_value(plan, workers=args.workers, progress=not args.no_progress)
    write_table(table, out)
    for line in format_table(table):
        print(line)
    seconds = table.attrs["seconds"]
    played = games * (1 + len(plan.items))
    print(f"value = the restricted seat's win rate in the unrestricted games minus in the restricted ones "
          f"(win-rate points; 95% paired interval). {played:,} games in {seconds:.1f} s "
          f"({played / max(seconds, 1e-9):,.0f} games/s) -> {out}")


def add_value_parser(commands) -> OneLineParser:
    value = commands.add_parser(
        "value", help="each card of a group valued by restricted play (the win rate lost without it)",
        description="sim value GAME --group G: for each item of the card group, the same games (same seeds, "
                    "seats rotated, or permuted with --permute-seats) played with one seat forbidden to take or "
                    "play it, against the unrestricted games; the item's value is the win rate that seat loses, "
                    "with a paired 95% interval.")
    value.add_argument("game", metavar="GAME")
    value.add_argument("--group", required=True, help="the card group (e.g. gods for Cuzco)")
    value.add_argument("--items", metavar="A,B,...", help="only these items of the group (default: all)")
    value.add_argument("--players", type=int, help="number of players (default: the game's)")
    value.add_argument("--games", type=int, help="games per item (default 4000; the unrestricted games as many)")
    value.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    value.add_argument("--bots", help="comma list, one bot per seat, or one name for every seat (seats rotated, "
                                      "or permuted with --permute-seats)")
    add_permute_option(value)
    value.add_argument("--variant", help="variant TOML file the study plays (restricted and not)")
    value.add_argument("--workers", type=int, default=1, help="threads (default 1)")
    value.add_argument("--out", help="table file, .csv or .parquet (default data/value/GAME-GROUP-...csv)")
    value.add_argument("--no-progress", action="store_true", help="no progress bar")
    value.set_defaults(handler=cmd_value)
    return value
