"""Cuzco's pruned bot kind (issue 38): the fast kind playing god cards of effects of their own only
on its best few plain turns, drawn from the same legal moves.

The rulebook sections cited are those whose choices the pruned kind walks in two stages: the
action phase (a die on an action space, its action and target) and the god cards played with it
("pay 1 offering ... or use an Inti medal", Addendum: The God Cards).
"""
import numpy as np

from cuzco_helpers import CARD, give_card, table, weights
from test_cuzco_games import simulate
from sim.games.cuzco import GAME
from sim.games.cuzco import bots as B
from sim.games.cuzco import game as cuzco_game
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S
from sim.games.cuzco import weights as WT

PRUNED = ["balanced-g2-pruned", "temple-g5-pruned", "runner-g3-pruned", "market-g3-pruned"]
FAST = ["balanced-g2-fast", "temple-g5-fast", "runner-g3-fast", "market-g3-fast"]
EVERY = B.CAND_ROOM + 1  # a `candidates` setting above the list's room: every (die, pips, space, action)
CARDS = ("jump", "priest_return", "virtual_six", "slide_up", "search_discard", "ignore_lower", "blessing_plenty")


def noiseless(name, candidates):
    w = weights(name).copy()
    w[WT.W_NOISE] = 0.0
    w[WT.W_SEARCH_CANDIDATES] = candidates
    return w


def decision_tables():
    """(P, st, seat) of phase-I decisions with god cards to play: seats with dice of every
    strength, a hand of action cards, offerings and a medal to pay them."""
    for seed in range(1, 9):
        P, st, side = table(4, seed=seed)
        p = st[S.S_ORDER]
        pl = S.players(st)
        pl[p, S.P_DICE:S.P_DICE + 3] = (1 + seed % 6, 1 + (seed * 5) % 6, 6 if seed % 2 else 3)
        for name in CARDS[seed % 3:seed % 3 + 4]:
            give_card(st, p, name)
        pl[p, S.P_OFFERINGS] = 4
        pl[p, S.P_MEDALS] = seed % 2
        yield P, st, p


def choose(P, st, p, w, kind):
    """choose_turn for seat p of the given kind: (best turn, the look-ahead record)."""
    n = st[S.S_N_PLAYERS]
    look, lside = S.new_state(n, False), S.new_side(n, False)
    opt, best = np.zeros(R.N_O, np.int64), np.zeros(R.N_O, np.int64)
    assert B.choose_turn(P, st.copy(), look, *lside, p, w, kind, opt, best, False)
    return best, lside[0]


def test_candidates_keep_the_best_few_once_each():
    """The first stage keeps the CAND_K best (die, pips, space, action) of the turns it values,
    best first, each once at the value of its best turn."""
    rec = S.new_side(4, False)[0]
    w = weights("balanced").copy()
    w[WT.W_SEARCH_CANDIDATES] = 2
    B.start_candidates(rec, w)
    row = S.scratch(rec)[S.SCR_LIST2]
    turns = [np.zeros(R.N_O, np.int64) for _ in range(3)]
    for i, turn in enumerate(turns):
        turn[R.O_DIE], turn[R.O_PIPS], turn[R.O_SPACE], turn[R.O_ACTION] = i, 2 + i, i, S.A_TEMPLE
    for turn, v in ((turns[0], 1.0), (turns[1], 3.0), (turns[0], 2.0), (turns[2], 1.5), (turns[0], 0.5)):
        B.note_candidate(turn, v, rec)
    keys = [B.candidate_key(turns[1]), B.candidate_key(turns[0])]
    assert row[B.CAND_N] == 2 and list(row[B.CAND_KEYS:B.CAND_KEYS + 2]) == keys
    assert list(row[B.CAND_VALUES:B.CAND_VALUES + 2].view(np.float64)) == [3.0, 2.0]
    assert B.is_candidate(rec, turns[0]) and B.is_candidate(rec, turns[1]) and not B.is_candidate(rec, turns[2])


def test_every_candidate_chooses_as_the_fast_kind():
    """With every (die, pips, space, action) a candidate, the two stages value the fast kind's
    turns, only in another order: the same turn is chosen (no noise, so no tie drawn apart)."""
    for P, st, p in decision_tables():
        w = noiseless("temple-g5-fast", EVERY)
        fast, _ = choose(P, st, p, w, B.KIND_FAST)
        pruned, _ = choose(P, st, p, w, B.KIND_PRUNED)
        assert (fast == pruned).all()


def test_the_fast_kinds_turn_is_kept_when_its_plain_turn_is_a_candidate():
    """Action phase and god cards: the pruned kind plays a card only on its best plain turns'
    (die, pips, space, action); when the fast kind's choice is on one of those, the pruned kind
    chooses it too, and a turn that plays a card of effects of its own is always on a candidate."""
    agreed = 0
    for P, st, p in decision_tables():
        for name in ("balanced-g2-fast", "temple-g5-fast", "runner-g3-fast", "market-g3-fast"):
            w = noiseless(name, 1)
            fast, _ = choose(P, st, p, w, B.KIND_FAST)
            pruned, lrec = choose(P, st, p, w, B.KIND_PRUNED)
            row = S.scratch(lrec)[S.SCR_LIST2]
            assert row[B.CAND_N] == 1 and row[B.CAND_ON] == 0
            if B.candidate_key(fast) == row[B.CAND_KEYS]:
                assert (fast == pruned).all()
                agreed += 1
            own = [c for c in ("jump", "priest_return", "slide_up", "search_discard") if R.plays(pruned, CARD[c])]
            assert not own or B.candidate_key(pruned) == row[B.CAND_KEYS]
    assert agreed >= 8


def play(kind_names, n_games, candidates=None):
    """Games of a line-up on one thread: (final states, per-game work counters)."""
    kinds, w = GAME.bot_arrays(kind_names)
    w = np.ascontiguousarray(w)
    if candidates is not None:
        w[:, WT.W_NOISE] = 0.0
        w[:, WT.W_SEARCH_CANDIDATES] = candidates
    engine = GAME.resolve_params(None).engine
    states, counts = [], np.zeros(S.N_COUNTS, np.int64)
    for i in range(n_games):
        arrays = cuzco_game.new_game_arrays(4, False)
        cuzco_game.play_one(engine, arrays, 4, kinds, w, np.uint64(38), np.uint64(i), False, None)
        states.append(arrays[0].copy())
        counts += arrays[4][S.REC_COUNTS:S.REC_COUNTS + S.N_COUNTS]
    return states, counts


def test_every_candidate_plays_the_fast_kinds_games():
    """Whole games: with every candidate and no noise the pruned line-up plays the fast one's games."""
    fast, _ = play(FAST, 6, candidates=EVERY)
    pruned, _ = play(PRUNED, 6, candidates=EVERY)
    for a, b in zip(fast, pruned):
        assert (a == b).all()


def test_pruned_kind_values_fewer_options():
    """The work counters: the pruned line-up (its bots' own `candidates`) values fewer phase-I
    options, models fewer turns and plays fewer card turns than the fast line-up."""
    _, fast = play(FAST, 12)
    _, pruned = play(PRUNED, 12)
    for count in (S.COUNT_OPTIONS, S.COUNT_MODELLED, S.COUNT_CARD_TURNS):
        assert pruned[count] < fast[count]
    assert pruned[S.COUNT_OPTIONS] < 0.85 * fast[S.COUNT_OPTIONS]


def test_pruned_bots_play_whole_checked_games():
    """Every section: the pruned kind chooses among the legal moves the shared enumeration lists,
    so its games keep every invariant (checked mode: nothing created or lost after every turn)."""
    res = simulate(4, PRUNED, 40, seed=38, checked=True)
    assert res.failures == []
    assert (res.player_columns["won"].reshape(-1, 4).sum(axis=1) == 1).all()
