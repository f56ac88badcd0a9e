"""Hand-made Cuzco states for the rule tests (rulebook: shared/rules/cuzco.md).

`table()` is a game after setup (a fixed seed); tests then move components where they want them
through the named indices of sim/games/cuzco/state.py and call single rule functions.
Names (abilities, cards, actions, goods) are looked up, never hard-coded as numbers.
"""
from __future__ import annotations

import numpy as np

from sim.core import rng as rng_mod
from sim.games.cuzco import GAME, data
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

PARAMS = GAME.resolve_params(None)
ENGINE = PARAMS.engine
RULES, VILLAGES, ROADS, ARMS, SPACES, MASKS, GOODS, PEOPLE, JOINT, MISSIONS = S.param_tables(ENGINE)
VILLAGE = {name: i for i, name in enumerate(PARAMS.resolved["villages"]["names"])}
ACTION = {name: i for i, name in enumerate(S.ACTION_NAMES)}
ABILITY = {name: i for i, name in enumerate(S.ABILITY_NAMES)}
CARD = {name: i for i, name in enumerate(S.CARD_NAMES)}
GOOD = {name: i for i, name in enumerate(S.GOOD_NAMES)}
COLOUR = {name: i for i, name in enumerate(S.COLOUR_NAMES)}
MISSION = {label: i for i, label in enumerate(data.mission_labels(PARAMS.resolved))}


def engine(variant=None):
    return GAME.resolve_params(variant).engine


def weights(name="balanced"):
    """One bot's weight vector (float64)."""
    return GAME.bots()[name].weights.astype(np.float64)


def bots(names):
    """(kinds int8, weights float64[n, W]) for a line-up of bot names, one per seat."""
    return GAME.bot_arrays(list(names))


def table(n_players=4, seed=1, variant=None, P=None, W=None):
    """(P, st, side) of a game right after setup: the state array and side = (record, log), the
    replay log on. Rule functions take them as (P, st, *side, ...). W: the seats' weights for
    their setup choices (default: balanced at every seat)."""
    P = engine(variant) if P is None else P
    st = S.new_state(n_players, True)
    side = S.new_side(n_players, True)
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(seed), np.uint64(0))
    if W is None:
        W = np.ascontiguousarray(np.tile(weights("balanced"), (n_players, 1)))
    R.setup(P, st, *side, n_players, W)
    return P, st, side


def option(**fields):
    """A phase-I turn: option(die=0, pips=4, space=..., action=..., target=...), other fields 0,
    card, card2, card3 and card4 -1 (none). Keys are the O_* names in lower case without the prefix."""
    opt = np.zeros(R.N_O, np.int64)
    opt[R.O_CARD] = -1
    opt[R.O_CARD2] = -1
    opt[R.O_CARD3] = -1
    opt[R.O_CARD4] = -1
    opt[R.O_TARGET] = -1
    for key, value in fields.items():
        if key == "ex":
            for name, times in value.items():
                opt[R.O_EX + S.EXCHANGE_NAMES.index(name)] = times
        else:
            opt[getattr(R, f"O_{key.upper()}")] = value
    return opt


def use(**fields):
    """A phase-II use: use(kind=S.STUDY, ability=ABILITY['vp'], target=-1, ...)."""
    u = np.zeros(R.N_U, np.int64)
    u[R.U_TARGET] = -1
    for key, value in fields.items():
        u[getattr(R, f"U_{key.upper()}")] = value
    return u


def space_of(st, action_name):
    """Index of the action space holding an action on this table's player count."""
    n = st[S.S_N_PLAYERS]
    bit = 1 << ACTION[action_name]
    for s in range(S.MAX_SPACES):
        if SPACES[n, s] & bit:
            return s
    raise KeyError(action_name)


def give_tile(P, st, side, seat, kind, ability, value=None):
    """Put a people tile of this kind/ability (from anywhere in the game) on a seat's mask board,
    taking it out of the stack or display so components stay conserved. Returns the tile id."""
    for t in range(PEOPLE.shape[0]):
        if PEOPLE[t, S.TF_KIND] != kind or PEOPLE[t, S.TF_ABILITY] != ability:
            continue
        if value is not None and PEOPLE[t, S.TF_VALUE] != value:
            continue
        if remove_tile_from_supply(st, t):
            R.put_tile(P, st, *side, seat, t)
            return t
    raise LookupError("no such tile left in the supply")


def remove_tile_from_supply(st, t):
    g, board, decks = st, st, st
    for base in (S.S_STUDY_DISPLAY, S.S_FARM_DISPLAY):
        for i in range(6):
            if board[base + i] == t:
                board[base + i] = -1
                return True
    for base, counter in ((S.S_STUDY_STACK, S.S_STUDY_N), (S.S_FARM_STACK, S.S_FARM_N),
                          (S.S_STUDY_DISCARD, S.S_STUDY_DISCARD_N), (S.S_FARM_DISCARD, S.S_FARM_DISCARD_N)):
        n = g[counter]
        for i in range(n):
            if decks[base + i] == t:
                decks[base + i:base + n - 1] = decks[base + i + 1:base + n].copy()
                decks[base + n - 1] = -1
                g[counter] = n - 1
                return True
    return False


def give_card(st, seat, card_name):
    """Move one god card with this ability from its god's draw pile (or the discard) to a hand."""
    g, pl, decks = st, S.players(st), st
    card = CARD[card_name]
    god = card // 3
    n = g[S.S_GOD_PILE_N + god]
    base = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS
    for i in range(n):
        if decks[base + i] == card:
            decks[base + i:base + n - 1] = decks[base + i + 1:base + n].copy()
            decks[base + n - 1] = -1
            g[S.S_GOD_PILE_N + god] = n - 1
            pl[seat, S.P_HAND + card] += 1
            return
    m = g[S.S_GOD_DISCARD_N]
    for i in range(m):
        if decks[S.S_GOD_DISCARD + i] == card:
            decks[S.S_GOD_DISCARD + i:S.S_GOD_DISCARD + m - 1] = decks[S.S_GOD_DISCARD + i + 1:S.S_GOD_DISCARD + m].copy()
            decks[S.S_GOD_DISCARD + m - 1] = -1
            g[S.S_GOD_DISCARD_N] = m - 1
            pl[seat, S.P_HAND + card] += 1
            return
    raise LookupError(f"no {card_name} card left in the pile or discard")


def log_events(st, side, event=None):
    """The replay log rows so far (optionally only one event type)."""
    rows = side[1][: st[S.S_LOG_N]]
    if event is not None:
        rows = rows[rows[:, 0] == event]
    return rows


# ---- small builders for the setup / phase III / mission tests (components stay conserved)

def free_spaces(P, st, seat, k):
    """Move quipus from the mask board to the reserve space until `k` mask spaces are empty."""
    pl = S.players(st)
    while R.empty_spaces(P, st, seat) < k:
        assert pl[seat, S.P_QUIPU_MASK] > 0, "no quipu left to move"
        pl[seat, S.P_QUIPU_MASK] -= 1
        pl[seat, S.P_QUIPU_RESERVE] += 1


def clear_holdings(st, seat):
    """Return a seat's feathers, offerings, food and god cards to the supplies / discard pile and
    drop its Inti medals, so a test can build its holdings from nothing."""
    g, pl = st, S.players(st)
    for c in range(S.N_COLOURS):
        g[S.S_FEATHER_SUPPLY + c] += pl[seat, S.P_FEATHERS + c]
        pl[seat, S.P_FEATHERS + c] = 0
    pl[seat, S.P_SLOT:S.P_SLOT + S.N_SLOTS] = 0
    g[S.S_OFFERING_SUPPLY] += pl[seat, S.P_OFFERINGS]
    pl[seat, S.P_OFFERINGS] = 0
    g[S.S_FOOD_SUPPLY] += pl[seat, S.P_FOOD]
    pl[seat, S.P_FOOD] = 0
    for card in range(S.N_CARDS):
        for _ in range(pl[seat, S.P_HAND + card]):
            R.discard_god_card(st, card)
        pl[seat, S.P_HAND + card] = 0
    pl[seat, S.P_MEDALS] = 0


def give_feathers(P, st, side, seat, colour_name, n):
    """n feathers of a colour from the common supply into matching slots."""
    for _ in range(n):
        assert R.take_feather(P, st, *side, seat, COLOUR[colour_name]), colour_name


def give_good(st, seat, good_name):
    """A good of this type from the market onto a seat's mask board (as if bought)."""
    board, pl = st, S.players(st)
    t = GOOD[good_name]
    for i in range(30):
        if board[S.S_MARKET + i] == t:
            board[S.S_MARKET + i] = -1
            pl[seat, S.P_GOODS + t] += 1
            pl[seat, S.P_GOODS_BOUGHT] += 1
            return
    raise LookupError(f"no {good_name} left on the market")


def put_priest(st, seat, step):
    """One of the seat's priests onto temple step `step` (1..6), which must be free."""
    board, pl = st, S.players(st)
    assert board[S.S_TEMPLE + step - 1] < 0 and pl[seat, S.P_PRIESTS_HOME] > 0
    board[S.S_TEMPLE + step - 1] = seat
    pl[seat, S.P_PRIESTS_HOME] -= 1


def deliver(P, st, side, seat, village):
    """Deliver a quipu of the seat to a village (name or index), feather included."""
    v = VILLAGE[village] if isinstance(village, str) else int(village)
    assert R.deliver_quipu(P, st, *side, seat, v, weights(), R.SRC_NONE)
    return v


# ------------------------------------------------------------------ god-card / people-tile tests
def clone(arrays):
    """A deep copy of a state array (or side tuple), to try one choice without touching the original."""
    return arrays.copy() if isinstance(arrays, np.ndarray) else tuple(a.copy() for a in arrays)


def hand(st, seat):
    """{card name: count} of a seat's god cards."""
    row = S.players(st)[seat, S.P_HAND:S.P_HAND + S.N_CARDS]
    return {S.CARD_NAMES[c]: int(k) for c, k in enumerate(row) if k}


def clear_hand(st, seat):
    """Put every god card of a hand on the face-up discard pile (components stay conserved)."""
    g, pl, decks = st, S.players(st), st
    for c in range(S.N_CARDS):
        while pl[seat, S.P_HAND + c] > 0:
            pl[seat, S.P_HAND + c] -= 1
            decks[S.S_GOD_DISCARD + g[S.S_GOD_DISCARD_N]] = c
            g[S.S_GOD_DISCARD_N] += 1


def make_room(st, seat, n):
    """Move quipus from the mask board to the reserve until n mask spaces are empty."""
    pl = S.players(st)
    while RULES[S.R_MASK_SPACES] - pl[seat, S.P_QUIPU_MASK] - pl[seat, S.P_N_TILES] < n:
        pl[seat, S.P_QUIPU_MASK] -= 1
        pl[seat, S.P_QUIPU_RESERVE] += 1


def set_face_up(st, card_name):
    """Make a card with this ability the face-up card of its god, swapping it with the current
    face-up card (from the god's draw pile, else the discard pile)."""
    g, decks = st, st
    card = CARD[card_name]
    god = card // 3
    up = g[S.S_GOD_UP + god]
    if up == card:
        return
    base, n = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS, g[S.S_GOD_PILE_N + god]
    for i in range(n):
        if decks[base + i] == card:
            decks[base + i] = up
            g[S.S_GOD_UP + god] = card
            return
    for i in range(g[S.S_GOD_DISCARD_N]):
        if decks[S.S_GOD_DISCARD + i] == card:
            decks[S.S_GOD_DISCARD + i] = up
            g[S.S_GOD_UP + god] = card
            return
    raise LookupError(card_name)


def ready_circlet(st, seat, c):
    """Feathers (from the supply) on both slots of circlet c, so it can be activated."""
    g, pl = st, S.players(st)
    mask = MASKS[pl[seat, S.P_MASK]]
    for slot in (2 * c, 2 * c + 1):
        if pl[seat, S.P_SLOT + slot] == 0:
            colour = mask[slot]
            assert pl[seat, S.P_FEATHERS + colour] < RULES[S.R_FEATHER_CAP]
            pl[seat, S.P_SLOT + slot] = 1
            pl[seat, S.P_FEATHERS + colour] += 1
            g[S.S_FEATHER_SUPPLY + colour] -= 1


def feathers_to(P, st, side, seat, colour_name, n):
    """Take feathers of a colour from the supply until the seat holds n of them."""
    colour = COLOUR[colour_name]
    while S.players(st)[seat, S.P_FEATHERS + colour] < n:
        assert R.take_feather(P, st, *side, seat, colour)
    assert S.players(st)[seat, S.P_FEATHERS + colour] == n


def set_market(st, index, good_name):
    """Swap goods on the market so that this round's row holds `good_name` at `index`."""
    g, board = st, st
    cell = S.S_MARKET + g[S.S_ROUND] * 5 + index
    good = GOOD[good_name]
    if board[cell] == good:
        return
    for other in range(S.S_MARKET, S.S_MARKET + 30):
        if board[other] == good:
            board[other], board[cell] = board[cell], good
            return
    raise LookupError(good_name)


def assign_mission(st, seat, slot, label):
    """Put mission `label` (s01..s06, m01..m55) in a seat's mission slot by swapping it with the
    tile that lay there (from another mask, the palace, the pile or the box)."""
    g, pl, board, decks = st, S.players(st), st, st
    m = MISSION[label]
    old = int(pl[seat, S.P_MISSION + slot])
    if old == m:
        return
    pl[seat, S.P_MISSION + slot] = m
    for p in range(S.MAX_PLAYERS):
        for i in range(3):
            if (p, i) != (seat, slot) and pl[p, S.P_MISSION + i] == m:
                pl[p, S.P_MISSION + i] = old
                return
    for i in range(S.MAX_PLAYERS + 6):
        if board[S.S_PALACE + i] == m:
            board[S.S_PALACE + i] = old
            return
    for i in range(g[S.S_MISSION_N]):
        if decks[S.S_MISSION_PILE + i] == m:
            assert old >= 0
            decks[S.S_MISSION_PILE + i] = old
            return
    # it was in the box; the displaced tile takes its place there (box count unchanged)
    if old < 0:
        g[S.S_BOX_MISSIONS] -= 1


def lay_printed_feathers(st):
    """The villages' feathers as components.toml lists them (villages.feather), whatever order
    setup dealt the board pieces in."""
    st[S.S_VILLAGE_COLOUR:S.S_VILLAGE_COLOUR + S.N_VILLAGES] = VILLAGES[:, S.VF_COLOUR]


def last_missions(P, st, side, bot="balanced"):
    """End of the Game's last missions (rounds.last_missions) for every seat played by `bot`."""
    from sim.games.cuzco.rounds import last_missions as play_last_missions
    n = int(st[S.S_N_PLAYERS])
    kinds, _ = bots([bot] * n)
    play_last_missions(P, st, *side, S.new_state(n, False), *S.new_side(n, False), kinds)
