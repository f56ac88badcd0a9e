"""Hand-made Machu Picchu states for the rule tests (rulebook: shared/rules/machu-picchu.en.md).

`Table(n)` is a game after setup (a fixed seed, random bots); tests move components where they want
them through the named indices of sim/games/machu_picchu/state.py, always to or from the general
supply (`give`, `clear`) so the checked-mode invariants still hold, and call single rule functions.
Districts, goods, kinds and cards are looked up by name, never hard-coded as numbers.
"""
from __future__ import annotations

import numpy as np

from sim.games.machu_picchu import GAME, data
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S

PARAMS = GAME.resolve_params(None)
DISTRICT = {name: i for i, name in enumerate(S.DISTRICT_NAMES)}
GOOD = {name: i for i, name in enumerate(S.GOOD_NAMES)}
KIND = {name: i for i, name in enumerate(S.KIND_NAMES)}
CARD = {name: i for i, name in enumerate(data.card_names(PARAMS.resolved))}
MOON = {name: i for i, name in enumerate(data.moon_names(PARAMS.resolved))}


def random_game_logged(P, n, seed, game_index):
    """(final state, log) of a game of n random bots with its invariants checked, played by the batch
    kernel (game.play_one_logged) that `make test` compiled."""
    from sim.games.machu_picchu.game import play_one_logged
    from sim.games.machu_picchu.search import N_CFG
    return play_one_logged(P, n, np.arange(n), np.zeros(n, np.int8), np.zeros((n, 0)), np.zeros((n, N_CFG)), seed,
                           game_index, checked=True)


def engine(variant=None):
    return GAME.resolve_params(variant).engine


class Table:
    """One game after setup, with the arrays every rule function takes."""

    def __init__(self, n_players=4, seed=3, variant=None):
        self.P = engine(variant)
        self.n = n_players
        self.st, self.stream, self.log = R.new_game_arrays(True)
        self.kinds = np.zeros(n_players, np.int8)
        self.W = np.zeros((n_players, 0), np.float64)
        R.rng.seed_game_stream(self.stream, np.uint64(seed), np.uint64(0))
        R.setup(self.P, self.st, self.stream, self.log, self.kinds, self.W, n_players)

    # ---- reading
    def at(self, p, field):
        return int(self.st[S.seat_at(p) + field])

    def goods(self, p, name):
        return self.at(p, S.P_GOODS + GOOD[name])

    def supply(self, name):
        return int(self.st[S.S_SUPPLY + GOOD[name]])

    def options(self, n_options):
        """The options a rule listed, as (a, b) pairs."""
        rows = self.st[S.S_OPTIONS:S.S_OPTIONS + n_options * S.N_OPT].reshape(n_options, S.N_OPT)
        return [(int(a), int(b)) for a, b, _ in rows]

    def events(self, ev):
        """Rows (a, b, c, d, e) of the log for event `ev`."""
        rows = self.log[:self.st[S.S_LOG_N]]
        return [tuple(int(x) for x in row[1:6]) for row in rows if row[0] == ev]

    # ---- moving components (always through the supply, so nothing is created or lost)
    def set(self, p, field, value):
        self.st[S.seat_at(p) + field] = value

    def give(self, p, name, n):
        assert R.take_from_supply(self.st, p, GOOD[name], n) == n

    def clear(self, p):
        """Seat p's goods all back to the supply."""
        for g in range(S.N_GOODS):
            R.pay_to_supply(self.st, p, g, self.at(p, S.P_GOODS + g))

    def set_goods(self, p, **counts):
        self.clear(p)
        for name, n in counts.items():
            self.give(p, name, n)

    def move_worker(self, p, district, n=1):
        """n of seat p's unplaced workers onto a production district."""
        self.set(p, S.P_FREE_WORKERS, self.at(p, S.P_FREE_WORKERS) - n)
        self.set(p, S.P_WORKERS + DISTRICT[district], self.at(p, S.P_WORKERS + DISTRICT[district]) + n)

    def unplace_workers(self, p):
        """Every worker of seat p back off the board (the one placed at setup included)."""
        for d in range(S.N_PRODUCTION):
            self.set(p, S.P_FREE_WORKERS, self.at(p, S.P_FREE_WORKERS) + self.at(p, S.P_WORKERS + d))
            self.set(p, S.P_WORKERS + d, 0)

    def take_card(self, p, name):
        """Offering card `name` from the deck into seat p's hand (the deck keeps its order otherwise)."""
        card = CARD[name]
        size, head, total = int(self.st[S.S_DECK_SIZE]), int(self.st[S.S_DECK_HEAD]), int(self.st[S.S_N_CARDS])
        order = [int(self.st[S.S_DECK + (head + i) % total]) for i in range(size)]
        order.remove(card)
        self.st[S.S_DECK_HEAD] = 0
        self.st[S.S_DECK_SIZE] = len(order)
        self.st[S.S_DECK:S.S_DECK + len(order)] = order
        R.add_to_hand(self.P, self.st, p, card)

    def empty_hand(self, p):
        for card in range(int(self.st[S.S_N_CARDS])):
            if self.at(p, S.P_HAND + card):
                R.return_card(self.P, self.st, p, card)

    def deck_down_to(self, size):
        """Leave `size` cards in the deck, the others drawn into the last seat's hand."""
        while int(self.st[S.S_DECK_SIZE]) > size:
            R.add_to_hand(self.P, self.st, self.n - 1, R.draw_offering(self.st))

    def check(self):
        """The checked-mode invariants hold (no component created or lost)."""
        R.check_invariants(self.P, self.st)
        assert int(self.st[S.S_ERROR]) == 0, S.ERROR_NAMES[int(self.st[S.S_ERROR])]

    def give_priest(self, p, kind, n=1):
        """n cards of a priest/virgin kind to seat p, from the left of its row (unpaid)."""
        k = KIND[kind]
        self.st[S.S_TAKEN + k] += n
        self.st[S.S_PRIESTS_LEFT] -= n
        self.set(p, S.P_PRIESTS + k, self.at(p, S.P_PRIESTS + k) + n)

    # ---- calling rules
    def call(self, fn, *args):
        """A rule function taking (P, st, stream, log, kinds, W, ...)."""
        return fn(self.P, self.st, self.stream, self.log, self.kinds, self.W, *args)
