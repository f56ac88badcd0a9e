"""Hand-made Chachapoya states for the rule tests (rulebook: shared/rules/chachapoya.md).

Kinds and treasure types are looked up by name (components.toml order), never hard-coded.
A "table" state puts every card in its deck; tests then move cards where they want them.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng as rng_mod
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S

PARAMS = GAME.resolve_params(None)
ENGINE = PARAMS.engine
TREASURE, SCALE, ADVENTURER, RULES = S.param_tables(ENGINE)  # views of the packed array
T = {name: i for i, name in enumerate(data.treasure_names(PARAMS.resolved))}
A = {name: i for i, name in enumerate(data.adventurer_names(PARAMS.resolved))}
N_T = len(T)
N_A = len(A)


def bots(names):
    """(bot_kind, bot_w) arrays for a line-up of bot names, one per seat."""
    return GAME.bot_arrays(list(names))


def heuristic(n):
    return bots(["balanced"] * n)


def random_bots(n):
    return bots(["random"] * n)


def make_state(n_players=4, engine=ENGINE, seed=7, logging=False):
    """A fresh state as setup leaves it, but with nothing dealt or discarded.

    Every treasure sits in the treasure deck (in type order) and every adventurer in the
    adventurer deck, so a test can take the cards it needs; the RNG stream is seeded.
    """
    st = S.new_state(engine, n_players, logging)
    g, pstat = st[0], st[9]
    rng_mod.seed_game_stream(st[12], np.uint64(seed), np.uint64(0))
    treasure, _, adventurer, rules = S.param_tables(engine)
    tdeck = [t for t in range(treasure.shape[0]) for _ in range(treasure[t, S.TF_COUNT])]
    set_tdeck(st, tdeck)
    adeck = [a for a in range(adventurer.shape[0]) for _ in range(adventurer[a, S.AF_COUNT])]
    set_adeck(st, adeck)
    for p in range(n_players):
        pstat[p, S.P_ALIVE] = 1
        pstat[p, S.P_TOKEN] = rules[S.R_TOKENS]
        pstat[p, S.P_TOKEN_SCORED_ON] = -1
    g[S.S_START] = 0
    g[S.S_KNOWER] = -1
    g[S.S_WINNER] = -1
    g[S.S_INITIAL_TDECK] = len(tdeck)
    return st


def set_tdeck(st, cards):
    """Treasure deck top first (cards[0] is drawn next)."""
    g, tdeck = st[0], st[3]
    tdeck[:] = -1
    tdeck[: len(cards)] = cards
    g[S.S_TDECK_HEAD] = 0
    g[S.S_TDECK_SIZE] = len(cards)


def tdeck_list(st):
    """Treasure deck top first."""
    g, tdeck = st[0], st[3]
    return [int(tdeck[(g[S.S_TDECK_HEAD] + i) % tdeck.shape[0]]) for i in range(g[S.S_TDECK_SIZE])]


def set_adeck(st, cards_top_first):
    """Adventurer deck, top first (the first element is drawn first)."""
    g, adeck = st[0], st[4]
    adeck[:] = -1
    stack = list(reversed(list(cards_top_first)))  # stack: top at size - 1
    adeck[: len(stack)] = stack
    g[S.S_ADECK_SIZE] = len(stack)


def hand(st, seat, **counts):
    """Set a hand exactly: hand(st, 0, number_9=2, tracker=1)."""
    hands = st[1]
    hands[seat, :] = 0
    for name, n in counts.items():
        hands[seat, A[name]] = n


def hand_dict(st, seat):
    return {name: int(st[1][seat, i]) for name, i in A.items() if st[1][seat, i]}


def collect(st, seat, **counts):
    """Set a collection exactly: collect(st, 1, blue_idol=2)."""
    collected = st[2]
    collected[seat, :] = 0
    for name, n in counts.items():
        collected[seat, T[name]] = n


def collection(st, seat):
    return {name: int(st[2][seat, i]) for name, i in T.items() if st[2][seat, i]}


def set_offer(st, cards, face_up=True, knower=0, last_round=False):
    g, offer = st[0], st[7]
    offer[:] = -1
    offer[: len(cards)] = [T[c] if isinstance(c, str) else c for c in cards]
    g[S.S_N_OFFER] = len(cards)
    g[S.S_FACE_UP] = 1 if face_up else 0
    g[S.S_KNOWER] = knower
    g[S.S_LAST_ROUND] = 1 if last_round else 0


def bids_array(n_players, spec):
    """spec: {seat: (kind name, n) or (kind name, n, 'joker')}; other seats do not bid."""
    bids = np.full((n_players, S.N_B), -1, np.int16)
    for seat, b in spec.items():
        kind, n = b[0], b[1]
        joker = len(b) > 2 and b[2] == "joker"
        bids[seat, S.B_KIND] = A[kind]
        bids[seat, S.B_N] = n
        bids[seat, S.B_JOKER] = 1 if joker else 0
        bids[seat, S.B_JOKER_KIND] = A["tracker"] if joker else -1
    return bids


def resolve(n_players, spec, start=0, engine=ENGINE):
    """resolve_bidding on a bid spec: (outcome, winner seat, set of unresolved-leader seats)."""
    unresolved = np.zeros(n_players, np.bool_)
    outcome, seat = R.resolve_bidding(engine, bids_array(n_players, spec), np.int64(start),
                                      np.int64(n_players), unresolved)
    return int(outcome), int(seat), {int(s) for s in np.flatnonzero(unresolved)}


def count_adventurers(st):
    """Every adventurer card wherever it is (hands, bids, discard, deck), by kind."""
    g, hands, adeck, adiscard, bids = st[0], st[1], st[4], st[5], st[8]
    n = hands.sum(axis=0).astype(np.int64) + adiscard
    for a in adeck[: g[S.S_ADECK_SIZE]]:
        n[a] += 1
    for s in range(bids.shape[0]):
        if bids[s, S.B_KIND] >= 0:
            n[bids[s, S.B_KIND]] += bids[s, S.B_N]
            if bids[s, S.B_JOKER] == 1:
                n[bids[s, S.B_JOKER_KIND]] += 1
    return n


def count_treasures(st):
    """Every treasure card wherever it is (collections, deck, offer, box), by type."""
    g, collected, tout, offer = st[0], st[2], st[6], st[7]
    n = collected.sum(axis=0).astype(np.int64) + tout[0] + tout[1]
    for t in tdeck_list(st):
        n[t] += 1
    for i in range(g[S.S_N_OFFER]):
        n[offer[i]] += 1
    return n
