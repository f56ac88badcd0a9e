"""Which bot sits in which seat of which game.

A line-up is one bot name per seat. Seat rotation lets a 1-vs-3 comparison separate "this bot is
strong" from "this seat is strong": game i shifts the line-up by i seats, a function of the game
index alone so any chunking or worker count gives the same seating.
"""
from __future__ import annotations

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


def seat_bot_matrix(lineup_idx: np.ndarray, first_game: int, n_games: int, rotate: bool) -> np.ndarray:
    """int8 [n_games, n_players]: bot index per seat for games first_game .. first_game+n_games-1.

    Without rotation every game uses the line-up order; with rotation game i seats
    lineup[(s + i) % P] in seat s.
    """
    lineup_idx = np.asarray(lineup_idx, dtype=np.int8)
    n_players = lineup_idx.shape[0]
    if not rotate:
        return np.tile(lineup_idx, (n_games, 1))
    games = np.arange(first_game, first_game + n_games, dtype=np.int64)
    positions = (np.arange(n_players, dtype=np.int64)[None, :] + games[:, None]) % n_players
    return lineup_idx[positions]
