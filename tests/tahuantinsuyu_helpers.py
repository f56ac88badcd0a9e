"""Hand-made Tahuantinsuyu states for the rule tests (rulebook: shared/rules/tahuantinsuyu.md).

`Table(n)` is a game right after setup (a fixed seed, random bots); tests move components through
the named indices of sim/games/tahuantinsuyu/state.py, labour always to or from the supply, so the
checked-mode invariants still hold, and call single rule functions. Regions, sites, road lines and
Sun cards are looked up by name.
"""
from __future__ import annotations

import numpy as np

from sim.games.tahuantinsuyu import GAME, data
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S

PARAMS = GAME.resolve_params(None)
REGION = {name: i for i, name in enumerate(data.region_names(PARAMS.resolved))}
SITE = {name: i for i, name in enumerate(data.site_names(PARAMS.resolved))}
SUN = {name: i for i, name in enumerate(S.SUN_NAMES)}
LINES = data.road_pairs(PARAMS.resolved)


def line(a, b):
    """The index of the road line between sites a and b (names)."""
    for e, pair in enumerate(LINES):
        if set(pair) == {a, b}:
            return e
    raise KeyError((a, b))


def engine(variant=None):
    return GAME.resolve_params(variant).engine


class Table:
    """One game after setup, with the arrays every rule function takes."""

    def __init__(self, n_players=4, seed=3, variant=None):
        self.P = engine(variant)
        self.n = n_players
        self.st, self.stream, self.log = R.new_game_arrays(True)
        self.kinds = np.zeros(n_players, np.int8)
        self.W = np.zeros((n_players, len(S.WEIGHT_NAMES)), np.float64)
        R.rng.seed_game_stream(self.stream, np.uint64(seed), np.uint64(0))
        R.setup(self.P, self.st, self.stream, self.log, self.kinds, self.W, n_players)

    # ---- reading
    def at(self, p, field):
        return int(self.st[S.seat_at(p) + field])

    def vp(self, p):
        return self.at(p, S.P_VP)

    def labour(self, p):
        return self.at(p, S.P_LABOUR)

    def reaches(self, p, site):
        return self.at(p, S.P_REACH + SITE[site]) == 1

    def owner(self, region):
        return int(self.st[S.S_OWNER + REGION[region]])

    def revealed(self, region):
        return int(self.st[S.S_REVEALED + REGION[region]]) == 1

    def options(self, n_options):
        rows = self.st[S.S_OPTIONS:S.S_OPTIONS + n_options * S.N_OPT].reshape(n_options, S.N_OPT)
        return [(int(a), int(b), int(c)) for a, b, c in rows]

    def turn_options(self, p):
        return self.options(R.list_turn(self.P, self.st, p))

    def road_options(self, p):
        return [a for a, _, _ in self.options(R.list_roads(self.P, self.st, p, False))]

    def events(self, ev):
        rows = self.log[:self.st[S.S_LOG_N]]
        return [tuple(int(x) for x in row[1:6]) for row in rows if row[0] == ev]

    # ---- moving components (labour through the supply)
    def set(self, p, field, value):
        self.st[S.seat_at(p) + field] = value

    def set_labour(self, p, n):
        R.pay_labour(self.st, p, self.labour(p))
        self.set(p, S.P_LAB_SPENT, 0)
        assert R.take_labour(self.st, p, n) == n

    def road(self, p, a, b):
        R.build_road(self.P, self.st, self.log, p, line(a, b), 1)

    def own(self, p, a, b):
        """The line a - b becomes seat p's without the road rules (a test set-up); the network is
        recomputed by the caller."""
        e = line(a, b)
        assert self.st[S.S_ROAD_OWNER + e] == -1
        self.st[S.S_ROAD_OWNER + e] = p
        for site in (a, b):
            self.st[S.S_FREE_LINES + SITE[site]] -= 1
        self.set(p, S.P_ROADS, self.at(p, S.P_ROADS) + 1)

    def conquer(self, p, region, resistance=None):
        """Seat p conquers the region (its chip revealed first), paying its cost."""
        r = REGION[region]
        self.st[S.S_REVEALED + r] = 1
        if resistance is not None:
            self.set_chip(region, resistance=resistance)
        self.set_labour(p, self.labour(p) + 20)
        R.conquer(self.P, self.st, self.log, p, r, 0)

    def set_chip(self, region, resistance=None, labour=None, vp=None):
        """Give the region's chip other values (through a private copy of the parameters)."""
        c = int(self.st[S.S_CHIP + REGION[region]])
        self.P = self.P.copy()
        for field, value in ((S.CH_RES, resistance), (S.CH_LABOUR, labour), (S.CH_VP, vp)):
            if value is not None:
                self.P[S.CHIP_AT + c * S.N_CH + field] = value

    def chip(self, region, field):
        return int(S.chip_field(self.P, int(self.st[S.S_CHIP + REGION[region]]), field))

    def sun(self, kind, gap):
        """A card of the kind from the draw pile (or a hand) face down into the gap, then revealed."""
        self.lay_sun(kind, gap)
        R.reveal_sun_cards(self.P, self.st, self.log)

    def lay_sun(self, kind, gap):
        k = SUN[kind]
        n = int(self.st[S.S_DRAW_N])
        pile = [int(x) for x in self.st[S.S_DRAW:S.S_DRAW + n]]
        if k in pile:
            pile.remove(k)
            self.st[S.S_DRAW:S.S_DRAW + n - 1] = pile
            self.st[S.S_DRAW_N] = n - 1
        else:
            for p in range(self.n):
                hand = [self.at(p, S.P_HAND + i) for i in range(S.HAND)]
                if k in hand:
                    self.set(p, S.P_HAND + hand.index(k), -1)
                    break
            else:
                raise AssertionError(f"no {kind} card left to lay")
        g = gap
        self.st[S.S_GAP + g * S.MAX_STACK + int(self.st[S.S_GAP_N + g])] = k
        self.st[S.S_GAP_N + g] += 1

    def check(self):
        R.check_invariants(self.P, self.st)
        assert int(self.st[S.S_ERROR]) == 0, S.ERROR_NAMES[int(self.st[S.S_ERROR])]

    def call(self, fn, *args):
        """A rule function taking (P, st, stream, log, kinds, W, ...)."""
        return fn(self.P, self.st, self.stream, self.log, self.kinds, self.W, *args)


def builder_bot(style="builder"):
    return GAME.bots()[style].weights.astype(np.float64)


def site_region(site):
    return PARAMS.resolved["site"][site]["region"]


def line_between(rx, ry):
    """A road line from a site of region rx to a site of region ry, as (site in rx, site in ry)."""
    for a, b in LINES:
        if site_region(a) == rx and site_region(b) == ry:
            return a, b
        if site_region(b) == rx and site_region(a) == ry:
            return b, a
    raise KeyError((rx, ry))


def sites_of(region, kind=None):
    return [s for s in SITE if site_region(s) == region and (kind is None or PARAMS.resolved["site"][s]["kind"] == kind)]


def connect(t, p, site):
    """Seat p's roads along the shortest free path from its network to the site (a test set-up: the
    territory rule is not asked)."""
    from collections import deque
    target = SITE[site]
    names = list(SITE)
    prev = {s: None for s in range(len(names)) if t.at(p, S.P_REACH + s)}
    queue = deque(prev)
    while queue:
        s = queue.popleft()
        if s == target:
            break
        for e, (a, b) in enumerate(LINES):
            if t.st[S.S_ROAD_OWNER + e] != -1:
                continue
            ia, ib = SITE[a], SITE[b]
            for x, y in ((ia, ib), (ib, ia)):
                if x == s and y not in prev:
                    prev[y] = (s, e)
                    queue.append(y)
    assert target in prev, f"no free path to {site}"
    s = target
    path = []
    while prev[s] is not None:
        s, e = prev[s]
        path.append(e)
    for e in reversed(path):
        R.build_road(t.P, t.st, t.log, p, e, 1)
    return len(path)
