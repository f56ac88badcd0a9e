"""`sim value GAME --group G`: what each card of a group is worth, by intervention (issue 37).

"Win rate when held" (the card-strength report) is confounded by who takes a card: strong
positions gain and play more cards. This study asks the causal question instead. For every item
of a card group, the same games (the same run seed and game indices, seats rotated, or with
--permute-seats every seating order in turn) are played twice: unrestricted, and with one seat
forbidden to take or play that item; the item's value is the restricted seat's win rate in the
unrestricted games minus its win rate in the restricted ones, the win-rate cost of losing the
card, with the paired interval of the per-game win indicator differences (paired t; McNemar's
test for the p-value, as `sim compare`).

The restricted seat goes round the table: game g restricts seat (g // block) % players, in blocks
of `block` consecutive games (`seat_block`), so every seat is the restricted one in turn and, with
seats rotated or permuted, every bot of the line-up too. The unrestricted games are played once
and shared by every item.

The restriction is data: the game declares its groups as `value_groups`
(sim.core.params.ForbidGroup): the items and the variant overrides that forbid items to a seat (a
parameter of the game's data that its rules and legal-option listing respect, e.g. Cuzco's
gods.forbidden_by_seat). Nothing here names a game.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numba
import numpy as np
import pandas as pd

from sim.core.errors import EngineFailure, UserError
from sim.core.game import Game, Params
from sim.core.params import ForbidGroup, merge_overrides

DEFAULT_GAMES = 4_000  # per item
MAX_BLOCK = 100  # consecutive games restricting one seat
ENGINE_SLICE = 2_000  # games per engine call (progress and memory; the data do not depend on it)
COLUMNS = ["group", "item", "rank", "value", "value_lo", "value_hi", "p_value", "test", "games", "base_wr",
           "restricted_wr", "changed_games", "held_wr", "held_lo", "held_hi", "held_games", "restricted_took",
           "seconds", "game", "variant", "players", "bots", "seed", "permute_seats"]


def value_groups(game: Game) -> tuple[ForbidGroup, ...]:
    return tuple(getattr(game, "value_groups", ()))


def find_group(game: Game, name: str) -> ForbidGroup:
    """The game's group of that name; a one-line error listing the known ones."""
    groups = value_groups(game)
    for g in groups:
        if g.name == name:
            return g
    known = ", ".join(g.name for g in groups) or "none: the game declares no value_groups"
    raise UserError(f"{game.name} has no card group {name!r} to value (known: {known})")


def seat_block(n_games: int, n_players: int) -> int:
    """Games in a row that restrict one seat: MAX_BLOCK, fewer when a run is too short for every
    seat to have a block of that size."""
    return max(1, min(MAX_BLOCK, math.ceil(n_games / n_players)))


def restricted_runs(first: int, count: int, n_players: int, block: int) -> Iterator[tuple[int, int, int]]:
    """(seat, first game, games) of the stretches of games first .. first+count-1 that restrict one
    seat (game g restricts seat (g // block) % n_players)."""
    g, end = first, first + count
    while g < end:
        stop = min(end, (g // block + 1) * block)
        yield (g // block) % n_players, g, stop - g
        g = stop


@dataclass
class Played:
    """Per game of a stretch: won [games, seats], and per item column prefix the counts [games, seats]."""

    won: np.ndarray
    counts: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class ValuePlan:
    """What a value study plays: the game with its base variant, a line-up (seats rotated, or with permute
    every seating order in turn), the group."""

    game: Game
    group: ForbidGroup
    variant: dict[str, Any]
    variant_name: str
    n_players: int
    bot_names: list[str]
    lineup: np.ndarray
    n_games: int
    seed: int
    items: tuple[str, ...] = ()
    permute: bool = False

    def __post_init__(self) -> None:
        self.items = tuple(self.items) or tuple(self.group.items)
        unknown = [i for i in self.items if i not in self.group.items]
        if unknown:
            raise UserError(f"{self.game.name} group {self.group.name!r} has no item {unknown[0]!r} "
                            f"(known: {', '.join(self.group.items)})")
        if self.n_games < 1:
            raise UserError(f"--games must be at least 1 (got {self.n_games})")
        self.block = seat_block(self.n_games, self.n_players)
        self.base_params = self.resolve({})

    @property
    def lineup_text(self) -> str:
        """The line-up, one bot per seat in seat order of game 0, comma-separated."""
        return ",".join(self.bot_names[i] for i in self.lineup)

    def resolve(self, extra: dict[str, Any]) -> Params:
        name = self.variant_name
        return self.game.resolve_params(merge_overrides(self.variant, extra) or None, name)

    def forbidden_params(self, seat: int, item: str) -> Params:
        return self.resolve(self.group.forbid(seat, [item]))

    def columns(self, item: str) -> list[str]:
        return [p + item for p in (self.group.held, *self.group.played) if p]

    def play(self, params: Params, first: int, count: int) -> Played:
        """Games first .. first+count-1 (seats rotated or permuted) under these parameters."""
        from sim.core.backends import simulate_chunk
        from sim.core.lineup import seat_bot_matrix

        n = self.n_players
        seat_bots = seat_bot_matrix(self.lineup, first, count, not self.permute, self.permute)
        result = simulate_chunk(self.game, params, n, self.bot_names, seat_bots, self.seed, first, count, False)
        if result.failures:
            index, message = min(result.failures)
            raise EngineFailure(f"engine failure in game {index} of run seed {self.seed} "
                                f"({params.variant_name}): {' '.join(str(message).split())}")
        cols = result.player_columns
        wanted = {c for item in self.items for c in self.columns(item) if c in cols}
        return Played(np.asarray(cols["won"]).reshape(count, n).astype(bool),
                      {c: np.asarray(cols[c]).reshape(count, n).astype(np.int64) for c in wanted})

    def slices(self) -> Iterator[tuple[int, int]]:
        for first in range(0, self.n_games, ENGINE_SLICE):
            yield first, min(ENGINE_SLICE, self.n_games - first)


def _concat(parts: list[Played]) -> Played:
    keys = parts[0].counts.keys()
    return Played(np.concatenate([p.won for p in parts]), {k: np.concatenate([p.counts[k] for p in parts]) for k in keys})


def restricted_seats(plan: ValuePlan) -> np.ndarray:
    """The seat each game restricts (game g: (g // block) % players)."""
    return (np.arange(plan.n_games) // plan.block) % plan.n_players


def play_item(plan: ValuePlan, item: str, on_games: Callable[[int], None] | None = None) -> Played:
    """Every game of the plan with its restricted seat forbidden `item` (one engine call per stretch
    of games restricting one seat, at most ENGINE_SLICE games each)."""
    params = [plan.forbidden_params(seat, item) for seat in range(plan.n_players)]
    parts = []
    for first, count in plan.slices():
        for seat, start, games in restricted_runs(first, count, plan.n_players, plan.block):
            parts.append(plan.play(params[seat], start, games))
        if on_games is not None:
            on_games(count)
    return _concat(parts)


def play_base(plan: ValuePlan, on_games: Callable[[int], None] | None = None) -> Played:
    parts = []
    for first, count in plan.slices():
        parts.append(plan.play(plan.base_params, first, count))
        if on_games is not None:
            on_games(count)
    return _concat(parts)


def item_row(plan: ValuePlan, item: str, base: Played, restricted: Played, seconds: float,
             level: float = 0.95) -> dict[str, Any]:
    """One item's row: its value (base minus restricted win rate of the restricted seat) with the
    paired interval, the games it changed, the held win rate of the unrestricted games, and how
    often the restricted seat took or played it (0 unless the restriction leaks)."""
    from sim.analysis.compare import paired_rate
    from sim.core.stats import rate_ci

    seats = restricted_seats(plan)
    rows = np.arange(plan.n_games)
    decided = base.won.any(axis=1) & restricted.won.any(axis=1)  # a stalemate in either: no pair
    won_base = base.won[rows, seats][decided].astype(np.int64)
    won_restricted = restricted.won[rows, seats][decided].astype(np.int64)
    ones = np.ones(len(won_base), np.int64)
    diff, ci, p, test = paired_rate(won_restricted, won_base, ones, level)
    columns = [c for c in plan.columns(item) if c in base.counts]
    held_col = plan.group.held + item
    held = base.counts[held_col] > 0 if held_col in base.counts else np.zeros_like(base.won)
    held &= base.won.any(axis=1)[:, None]
    held_games, held_wins = int(held.sum()), int((held & base.won).sum())
    held_wr, lo, hi = (float(x) for x in rate_ci(held_wins, held_games))
    took = sum(int(restricted.counts[c][rows, seats].sum()) for c in columns)
    return {"group": plan.group.name, "item": item, "value": float(diff), "value_lo": float(ci[0]),
            "value_hi": float(ci[1]), "p_value": float(p), "test": test, "games": int(decided.sum()),
            "base_wr": float(won_base.mean()) if len(won_base) else float("nan"),
            "restricted_wr": float(won_restricted.mean()) if len(won_base) else float("nan"),
            "changed_games": int(np.count_nonzero(won_base != won_restricted)),
            "held_wr": held_wr, "held_lo": float(lo), "held_hi": float(hi), "held_games": held_games,
            "restricted_took": took, "seconds": round(seconds, 2), "game": plan.game.name,
            "variant": plan.variant_name, "players": plan.n_players, "bots": plan.lineup_text, "seed": plan.seed,
            "permute_seats": plan.permute}


def run_value(plan: ValuePlan, workers: int = 1, progress: bool = True) -> pd.DataFrame:
    """Play the unrestricted games and each item's restricted ones; the table ranked by value (the
    most valuable card first). attrs: seconds (total) and base_seconds (the unrestricted games)."""
    from tqdm import tqdm

    total = plan.n_games * (1 + len(plan.items))
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(workers, numba.config.NUMBA_NUM_THREADS)))
    bar = tqdm(total=total, unit="game", desc=f"value {plan.game.name} {plan.group.name}", disable=not progress,
               dynamic_ncols=True)
    started = time.perf_counter()
    try:
        base = play_base(plan, bar.update)
        base_seconds = time.perf_counter() - started
        rows = []
        for item in plan.items:
            bar.set_postfix_str(item)
            t0 = time.perf_counter()
            restricted = play_item(plan, item, bar.update)
            rows.append(item_row(plan, item, base, restricted, time.perf_counter() - t0))
    finally:
        bar.close()
        numba.set_num_threads(previous)
    table = pd.DataFrame(rows)
    table["rank"] = table["value"].rank(ascending=False, method="min").astype("Int64")
    table = table.sort_values(["rank", "item"], kind="stable").reset_index(drop=True)[COLUMNS]
    table.attrs.update(seconds=time.perf_counter() - started, base_seconds=base_seconds)
    return table


def write_table(table: pd.DataFrame, out: str | Path) -> Path:
    """The table as CSV, or Parquet when the name ends in .parquet."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".parquet":
        table.to_parquet(out, index=False)
    else:
        table.to_csv(out, index=False)
    return out


def read_table(path: str | Path) -> pd.DataFrame:
    """A table `sim value` wrote (CSV or Parquet); a one-line error if it is not one."""
    path = Path(path)
    try:
        table = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except Exception as exc:  # noqa: BLE001 - any unreadable file is the user's input
        raise UserError(f"{path}: not a `sim value` table ({' '.join(str(exc).split())})") from None
    missing = [c for c in ("group", "item", "value", "value_lo", "value_hi", "games") if c not in table.columns]
    if missing:
        raise UserError(f"{path}: not a `sim value` table (no {', '.join(missing)} column)")
    return table


def format_table(table: pd.DataFrame) -> list[str]:
    """The printed table: rank, item, value with its interval (percentage points), p, the games it
    changed, the held win rate beside it."""
    from sim.core.summary import align_columns

    lines = [["rank", "card", "value (win-rate points lost without it)", "p", "games", "changed",
              "win rate when held", "restricted took"]]
    for r in table.itertuples():
        held = "-" if not np.isfinite(r.held_wr) else f"{r.held_wr:.1%} [{r.held_lo:.1%}, {r.held_hi:.1%}]"
        lines.append([str(r.rank), r.item, f"{100 * r.value:+.2f} [{100 * r.value_lo:+.2f}, {100 * r.value_hi:+.2f}]",
                      f"{r.p_value:.3g}", f"{r.games:,}", f"{r.changed_games:,}", held, str(r.restricted_took)])
    return align_columns(lines, left_columns=2)
