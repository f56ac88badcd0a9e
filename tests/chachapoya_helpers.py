"""Hand-made Chachapoya states for the rule tests (rulebook: shared/rules/chachapoya.md).

Kinds and treasure types are looked up by name (components.toml order), never hard-coded.
A "table" state puts every card in its deck; tests then move cards where they want them.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng as rng_mod
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import bots as bots_mod
from sim.games.chachapoya.cards import list_legal_bids
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


NO_LOG = S.new_log(False)  # the log of a state made with logging off


def make_state(n_players=4, engine=ENGINE, seed=7):
    """A fresh state as setup leaves it, but with nothing dealt or discarded.

    Every treasure sits in the treasure deck (in type order) and every adventurer in the
    adventurer deck, so a test can take the cards it needs; the RNG stream is seeded.
    """
    st = S.new_state(engine, n_players)
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(seed), np.uint64(0))
    treasure, _, adventurer, rules = S.param_tables(engine)
    tdeck = [t for t in range(treasure.shape[0]) for _ in range(treasure[t, S.TF_COUNT])]
    set_tdeck(st, tdeck)
    adeck = [a for a in range(adventurer.shape[0]) for _ in range(adventurer[a, S.AF_COUNT])]
    set_adeck(st, adeck)
    players = S.players(st)
    players[:, S.P_ALIVE] = 1
    players[:, S.P_TOKEN] = rules[S.R_TOKENS]
    players[:, S.P_TOKEN_SCORED_ON] = -1
    st[S.S_START] = 0
    st[S.S_KNOWER] = -1
    st[S.S_WINNER] = -1
    st[S.S_INITIAL_TDECK] = len(tdeck)
    return st


def set_tdeck(st, cards):
    """Treasure deck top first (cards[0] is drawn next)."""
    tdeck = S.tdeck(st)
    tdeck[:] = -1
    tdeck[: len(cards)] = cards
    st[S.S_TDECK_HEAD] = 0
    st[S.S_TDECK_SIZE] = len(cards)


def tdeck_list(st):
    """Treasure deck top first."""
    tdeck = S.tdeck(st)
    return [int(tdeck[(st[S.S_TDECK_HEAD] + i) % tdeck.shape[0]]) for i in range(st[S.S_TDECK_SIZE])]


def set_adeck(st, cards_top_first):
    """Adventurer deck, top first (the first element is drawn first)."""
    adeck = S.adeck(st)
    adeck[:] = -1
    stack = list(reversed(list(cards_top_first)))  # stack: top at size - 1
    adeck[: len(stack)] = stack
    st[S.S_ADECK_SIZE] = len(stack)


def hand(st, seat, **counts):
    """Set a hand exactly: hand(st, 0, number_9=2, tracker=1)."""
    hands = S.hands(st)
    hands[seat, :] = 0
    for name, n in counts.items():
        hands[seat, A[name]] = n


def hand_dict(st, seat):
    return {name: int(S.hands(st)[seat, i]) for name, i in A.items() if S.hands(st)[seat, i]}


def collect(st, seat, **counts):
    """Set a collection exactly: collect(st, 1, blue_idol=2)."""
    collected = S.collections(st)
    collected[seat, :] = 0
    for name, n in counts.items():
        collected[seat, T[name]] = n


def collection(st, seat):
    return {name: int(S.collections(st)[seat, i]) for name, i in T.items() if S.collections(st)[seat, i]}


def set_offer(st, cards, face_up=True, knower=0, last_round=False):
    offer = S.offer(st)
    offer[:] = -1
    offer[: len(cards)] = [T[c] if isinstance(c, str) else c for c in cards]
    st[S.S_N_OFFER] = len(cards)
    st[S.S_FACE_UP] = 1 if face_up else 0
    st[S.S_KNOWER] = knower
    st[S.S_LAST_ROUND] = 1 if last_round else 0


def bids_array(n_players, spec):
    """spec: {seat: (kind name, n) or (kind name, n, 'joker')}; other seats do not bid."""
    bids = np.full((n_players, S.N_B), -1, np.int64)
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


def set_unresolved(st, seats):
    """Mark the seats whose leader did not resolve, as decide_bidding does (scratch row SCR_UNRESOLVED)."""
    row = S.scratch(st)[S.SCR_UNRESOLVED]
    row[:] = 0
    row[list(seats)] = 1


def count_adventurers(st):
    """Every adventurer card wherever it is (hands, bids, discard, deck), by kind."""
    bids = S.bids(st)
    n = S.hands(st).sum(axis=0) + S.adiscard(st)
    for a in S.adeck(st)[: st[S.S_ADECK_SIZE]]:
        n[a] += 1
    for s in range(bids.shape[0]):
        if bids[s, S.B_KIND] >= 0:
            n[bids[s, S.B_KIND]] += bids[s, S.B_N]
            if bids[s, S.B_JOKER] == 1:
                n[bids[s, S.B_JOKER_KIND]] += 1
    return n


def count_treasures(st):
    """Every treasure card wherever it is (collections, deck, offer, box), by type."""
    n = S.collections(st).sum(axis=0) + S.boxed(st) + S.gone(st)
    for t in tdeck_list(st):
        n[t] += 1
    for i in range(st[S.S_N_OFFER]):
        n[S.offer(st)[i]] += 1
    return n


def listed_bid(st, seat, w):
    """choose_bid as first written: list every legal bid, value the list (bid_utilities), add
    each bid's noise draw in list order and keep the first best. Advances st's stream."""
    n = list_legal_bids(ENGINE, st, seat)
    if n == 0:
        return (-1, 0, 0, -1)
    utility = np.zeros(n)
    bots_mod.bid_utilities(ENGINE, st, seat, w, n, utility)
    best, best_u = 0, -1e300
    for i in range(n):
        u = utility[i] + w[bots_mod.W_NOISE] * (rng_mod.uniform(S.rng_words(st)) - 0.5)
        if u > best_u:
            best, best_u = i, u
    return tuple(int(x) for x in S.options(st)[best])


def mid_game_states(n_games, kinds, weights):
    """States at the start of a bidding (offer laid out), after a random number of rounds."""
    picker = np.random.default_rng(5)
    for g in range(n_games):
        st = S.new_state(ENGINE, 4)
        R.start_game(ENGINE, st, NO_LOG, np.uint64(3), np.uint64(g), False)
        for _ in range(int(picker.integers(0, 40))):
            if not R.game_goes_on(st):
                break
            R.play_round(ENGINE, st, NO_LOG, kinds, weights, False)
        if R.game_goes_on(st):
            if R.open_round(st, NO_LOG):
                R.prepare_offer(ENGINE, st, NO_LOG, kinds, weights)
            yield st


def chosen_bid(st, seat, w, kind):
    """The bid (kind, count, joker) a bot of `kind` with weights w makes for seat on a copy of st."""
    return tuple(int(x) for x in bots_mod.choose_bid(ENGINE, st.copy(), seat, kind, w))


def weight_sets(weights, seed):
    """Every line-up bot's weights and six drawn at random (large noise, negative weights)."""
    picker = np.random.default_rng(seed)
    sets = [weights[s] for s in range(4)]
    for _ in range(6):
        w = weights[0] * picker.uniform(-1.0, 3.0, weights.shape[1])
        w[bots_mod.W_SIGMA] = abs(w[bots_mod.W_SIGMA]) + 0.5
        sets.append(w)
    return sets
