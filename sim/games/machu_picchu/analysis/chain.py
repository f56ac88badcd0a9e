"""Issue 34's experiment: is the priest-and-offering chain weak under the reconstructed numbers, or
do the heuristics not see it?

The rulebook's summary of the game is a chain: workers make goods, goods buy priest/virgin cards,
the cards let a player offer llamas at their temples, offerings move the scout, the summit gives
offering cards and only offering cards score. `chain` (bots.toml, kind `chain` in bots.py) is a
scripted bot committed to it: it buys a card whenever it can, gathers the goods of the next one,
keeps its llamas and offers every llama its cards allow, and plays the fast heuristic elsewhere.
Played alone against three bots of a line-up (seats rotated, the same games for every table) under
the base numbers and under every reading of `robust.toml`, its win share says whether the chain
pays: well above a fair share, the heuristics are short-sighted; well below under every table, the
reconstruction makes it weak.

    python -m sim.games.machu_picchu.analysis.chain --games 4000 --seed 3

prints, for each table, the lone bot's win share with its 95% interval and what each side does a
player-game (cards bought, llamas offered at the three temples, workers left unplaced, score), and
how the games ended; `--lineup A,B,C,D` does the same for any line-up (issue 34's figures), and
`--findings` prints the README's findings of the default line-up at 2-5 players.
"""
from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from sim.core.lineup import lineup_indices, seat_bot_matrix, seating_words
from sim.core.params import load_variant, repo_file
from sim.core.stats import rate_ci
from sim.games.machu_picchu import GAME
from sim.games.machu_picchu.state import END_REASON_NAMES


def play(bots: list[str], games: int, seed: int, variant: str | None = None,
         permute: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games table, players table with a `bot` column) of `games` games of the line-up `bots`
    (one name a seat), seats rotated (permute: every seating order, sim.core.lineup.seat_orders), in
    this process."""
    if variant:
        name, overrides = load_variant(repo_file(variant))
        params = GAME.resolve_params(overrides, name)
    else:
        params = GAME.resolve_params(None)
    names, lineup = lineup_indices(bots)
    seats = seat_bot_matrix(lineup, 0, games, not permute, permute)
    result = GAME.simulate(params, len(bots), names, seats, seed, 0, games)
    game_df = pd.DataFrame(result.game_columns)
    players = pd.DataFrame(result.player_columns)
    players["bot"] = [names[i] for i in seats.reshape(-1)]
    players["cards_bought"] = players[[c for c in players if c.startswith("priests_")]].sum(axis=1)
    players["goods_left"] = players[[c for c in players if c.endswith("_end") and c != "corn_end"]].sum(axis=1) + (
        players["corn_end"] // 3)
    return game_df, players


def line_up_table(players: pd.DataFrame) -> pd.DataFrame:
    """Per bot: its share of the seats that won (a shared win counts for each winner) with its 95%
    interval, and what it does a player-game (goods left: held at the end, 3 corn counting as one)."""
    rows = []
    for bot, part in players.groupby("bot", sort=False):
        wins = int(part["won"].sum())
        _, lo, hi = rate_ci(wins, len(part))
        rows.append({"bot": bot, "seats": len(part), "win %": 100 * wins / len(part), "lo": 100 * lo, "hi": 100 * hi,
                     "cards": part["cards_bought"].mean(), "llamas offered": part["llamas_offered"].mean(),
                     "main kinds": part["main_offered"].mean(), "unplaced": part["workers_unplaced"].mean(),
                     "laps": part["trail_laps"].mean(), "steps": part["trail_steps"].mean(),
                     "moons": part["moon_tiles"].mean(), "goods left": part["goods_left"].mean(),
                     "score": part["score"].mean()})
    return pd.DataFrame(rows)


def end_shares(games: pd.DataFrame) -> dict[str, float]:
    counts = games["end_reason"].value_counts(normalize=True)
    return {END_REASON_NAMES[int(k)]: 100 * v for k, v in counts.items()}


def tables() -> list[tuple[str, str | None]]:
    """The base game and every robustness table of robust.toml, as (name, variant file)."""
    spec = GAME.robustness()
    return [(t.name, t.variant) for t in spec.tables]


def lone_against(lone: str, pool: list[str], games: int, seed: int,
                 variant: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """`lone` alone against three bots of the pool: with a pool of four, one line-up leaving out each
    in turn (games / 4 each, seats rotated), pooled."""
    if len(pool) == 3:
        return play([lone, *pool], games, seed, variant)
    parts = [play([lone, *(b for j, b in enumerate(pool) if j != i)], games // len(pool), seed + i, variant)
             for i in range(len(pool))]
    return pd.concat([g for g, _ in parts], ignore_index=True), pd.concat([p for _, p in parts], ignore_index=True)


def line_up_figures(games: pd.DataFrame, players: pd.DataFrame) -> str:
    """Issue 34's figures of a line-up: per player-game cards bought, llamas offered at the three
    temples, workers left unplaced; how the games end; the winner's score."""
    per = players[["cards_bought", "llamas_offered", "workers_unplaced", "score"]].mean()
    ends = ", ".join(f"{k} {v:.1f}%" for k, v in end_shares(games).items())
    return (f"per player-game: {per['cards_bought']:.2f} cards bought, {per['llamas_offered']:.2f} llamas offered, "
            f"{per['workers_unplaced']:.2f} workers unplaced, score {per['score']:.1f} (winner "
            f"{players.loc[players['won'], 'score'].mean():.1f}); ends: {ends}")


def findings(games: int, seed: int) -> None:
    """The README's findings of the default line-up at 2-5 players: the winner's score, win shares by
    turn-order position (start_order) and by seat, and (4 players) the offering cards kept with the
    highest and lowest win rates."""
    for n in (2, 3, 4, 5):
        bots = GAME.default_bots(n)
        game_df, players = play(bots, games, seed)
        players["seat"] = np.tile(np.arange(n), len(game_df))
        print(f"{n} players ({', '.join(bots)}): winner's score {players.loc[players['won'], 'score'].mean():.1f}; "
              "ends: " + ", ".join(f"{k} {v:.1f}%" for k, v in end_shares(game_df).items()))
        for column in ("start_order", "seat"):
            wins = players.groupby(column)["won"].agg(["sum", "size"])
            rate, lo, hi = rate_ci(wins["sum"].values, wins["size"].values)
            print(f"  by {column}: " + " / ".join(f"{100 * r:.1f} [{100 * a:.1f}, {100 * b:.1f}]"
                                               for r, a, b in zip(rate, lo, hi)))
        if n == 4:
            kept = {c[len("offering_kept_"):]: players.loc[players[c] > 0, "won"]
                    for c in players if c.startswith("offering_kept_")}
            order = sorted((k for k in kept if len(kept[k])), key=lambda k: kept[k].mean())
            print("  kept, win rate (players): " + ", ".join(
                f"{k} {100 * kept[k].mean():.1f}% ({len(kept[k])})" for k in order[:3] + order[-3:]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--lone", default="chain", help="the bot played alone against three of --against")
    ap.add_argument("--against", default=None, help="comma list of three bots, or four (each left out in turn); "
                    "default: the default line-up")
    ap.add_argument("--lineup", default=None, help="instead: play this line-up (comma list, one bot a seat) and "
                    "print what each bot does")
    ap.add_argument("--base-only", action="store_true", help="the base game only, not every robustness table")
    ap.add_argument("--permute-seats", action="store_true", help="with --lineup: every seating order of the line-up "
                    "(who sits before whom moves a bot by up to 9 points here), not only its rotations")
    ap.add_argument("--findings", action="store_true", help="instead: the README's findings of the default "
                    "line-up at 2-5 players")
    args = ap.parse_args(argv)
    if args.findings:
        findings(args.games, args.seed)
        return
    pd.set_option("display.width", 200)
    for name, variant in tables()[:1] if args.base_only else tables():
        if args.lineup:
            games, players = play(args.lineup.split(","), args.games, args.seed, variant, args.permute_seats)
            print(f"== {name}: {args.lineup} ({len(games)} games, seed {args.seed}, "
                  f"{seating_words(not args.permute_seats, args.permute_seats)})")
        else:
            pool = args.against.split(",") if args.against else GAME.default_bots(4)
            games, players = lone_against(args.lone, pool, args.games, args.seed, variant)
            print(f"== {name}: {args.lone} alone against three of {', '.join(pool)} ({len(games)} games, seed "
                  f"{args.seed}, seats rotated)")
        print(line_up_table(players).round(2).to_string(index=False))
        print(line_up_figures(games, players))


if __name__ == "__main__":
    main()
