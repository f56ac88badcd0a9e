"""Which bot sits in which seat of which game.

A line-up is one bot name per seat. Seat rotation lets a 1-vs-3 comparison separate "this bot is
strong" from "this seat is strong": game i shifts the line-up by i seats. Rotation keeps the line-up's
cyclic order (who sits just before whom), and in some games that order moves win rates by several
points (Machu Picchu); seat permutation seats every ordering in turn. Both are functions of the game
index alone, so any chunking or worker count gives the same seating.
"""
from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from sim.core.errors import UserError
from sim.core.game import Game


def parse_bots(game: Game, spec: str | None, n_players: int) -> list[str]:
    """One bot name per seat from a comma list (a single name fills every seat; None: the default)."""
    if spec is None:
        names = list(game.default_bots(n_players))
    else:
        names = [part.strip() for part in spec.split(",")]
        if any(not name for name in names):
            raise UserError(f"--bots '{spec}': empty bot name in the comma list")
        if len(names) == 1:
            names = names * n_players
    known = game.bots()
    for name in names:
        if name not in known:
            raise UserError(f"unknown bot '{name}' for {game.name} (known: {', '.join(sorted(known))})")
    if len(names) != n_players:
        raise UserError(f"--bots names {len(names)} bots but the game has {n_players} players "
                        f"(give one name for all seats or exactly {n_players})")
    return names


def lineup_indices(lineup: list[str]) -> tuple[list[str], np.ndarray]:
    """(distinct bot names in first-seat order, int8 index into them per seat).

    The engine receives the distinct names plus indices, as the Game contract describes.
    """
    bot_names = list(dict.fromkeys(lineup))
    return bot_names, np.array([bot_names.index(name) for name in lineup], dtype=np.int8)


@functools.lru_cache(maxsize=None)
def seat_orders(n_players: int) -> np.ndarray:
    """int64 [P!, P], read-only: row k lists the line-up positions seated in seats 0..P-1 by
    permutation k. Rows come in blocks of P: block b is cyclic order b (line-up position 0, then
    positions 1..P-1 in itertools.permutations order) and its P rotations, row k seating
    order[(s + k) % P] in seat s as --rotate-seats does. So every P consecutive rows from a multiple
    of P put each position in every seat once, every P! rows are every ordering once, and the first
    P rows are the rotation's."""
    cyclic = np.array([(0, *rest) for rest in itertools.permutations(range(1, n_players))], dtype=np.int64)
    shift = (np.arange(n_players)[:, None] + np.arange(n_players)[None, :]) % n_players  # [rotation, seat]
    orders = cyclic[:, shift].reshape(math.factorial(n_players), n_players)
    orders.setflags(write=False)
    return orders


def seat_bot_matrix(lineup_idx: np.ndarray, first_game: int, n_games: int, rotate: bool,
                    permute: bool = False) -> np.ndarray:
    """int8 [n_games, n_players]: bot index per seat for games first_game .. first_game+n_games-1.

    Fixed: every game uses the line-up order; rotate: game i seats lineup[(s + i) % P] in seat s;
    permute: game i seats lineup[seat_orders(P)[i % P!][s]], every ordering once per P! games (it
    rotates too: pass rotate or permute, not both).
    """
    check_seating(rotate, permute)
    lineup_idx = np.asarray(lineup_idx, dtype=np.int8)
    n_players = lineup_idx.shape[0]
    games = np.arange(first_game, first_game + n_games, dtype=np.int64)
    if permute:
        orders = seat_orders(n_players)
        return lineup_idx[orders[games % len(orders)]]
    if not rotate:
        return np.tile(lineup_idx, (n_games, 1))
    positions = (np.arange(n_players, dtype=np.int64)[None, :] + games[:, None]) % n_players
    return lineup_idx[positions]


def check_seating(rotate: bool, permute: bool) -> None:
    """A one-line UserError for both seatings at once: permutation already rotates every order."""
    if rotate and permute:
        raise UserError("--rotate-seats and --permute-seats exclude each other (--permute-seats rotates too)")


def seating_words(rotate: bool, permute: bool) -> str:
    """How a run seats its line-up, for headers: "seats permuted", "seats rotated" or "seats fixed"."""
    return "seats permuted" if permute else "seats rotated" if rotate else "seats fixed"
