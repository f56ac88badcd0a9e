"""The Cuzco search bot (search.py): its determinisations hide exactly what its seat cannot see and
conserve every component, its decisions never read the game's future, and whole games with a
search seat keep every invariant. Its strength is measured in benchmarks/HISTORY.md (too slow for here)."""
import numpy as np
import numba
import pytest

from sim.core import rng as rng_mod
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.studies.tune import default_pool
from sim.games.cuzco import GAME
from sim.games.cuzco import state as S
from sim.games.cuzco.bots import KIND_FAST, KIND_HEURISTIC, KIND_SEARCH, NO_TOP, choose_turn
from sim.games.cuzco.rounds import NO_STOP, PHASE_I, PHASE_ONE_DONE, play_from, start_round
from sim.games.cuzco.rules import N_O, check_components, setup
from sim.games.cuzco.search import (WIN_BONUS, cut_rollout_value, determinise, new_search_buffers, play_rollout,
                                    rollout_stop, search_turn)
from sim.games.cuzco.weights import (N_HEURISTIC_WEIGHTS, W_GOOD, W_MEDAL, W_SEARCH_CANDIDATES, W_SEARCH_ROLLOUTS,
                                     W_SEARCH_ROUNDS, W_VP)

PARAMS = GAME.resolve_params(None)
P = PARAMS.engine
N = 4
SEARCHER = np.int64(1)  # the engine's types (a seat read as int64, int8 kinds), so calls from
HEURISTIC = np.int8(KIND_HEURISTIC)  # here load its compiled functions from the cache


def search_weights(candidates, rollouts, rounds=None):
    w = GAME.bots()["search"].weights.copy()
    w[W_SEARCH_CANDIDATES] = candidates
    w[W_SEARCH_ROLLOUTS] = rollouts
    if rounds is not None:
        w[W_SEARCH_ROUNDS] = rounds
    return w


def decision_state(seed, rounds_before=2):
    """A real 4-player game stopped at the search seat's first phase-I turn of a later round."""
    W = np.tile(search_weights(4, 2), (N, 1))
    heuristic = np.full(N, KIND_HEURISTIC, np.int8)
    kinds = heuristic.copy()
    kinds[SEARCHER] = KIND_SEARCH
    st, side = S.new_state(N, False), S.new_side(N, False)
    look, lside = S.new_state(N, False), S.new_side(N, False)
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(seed), np.uint64(0))
    setup(P, st, *side, N, W)
    start_round(P, st, *side, 0)
    if rounds_before > 0:  # the rounds before, each played to its end by the heuristic
        assert play_from(P, st, *side, look, *lside, heuristic, W, True, 0, PHASE_I, rounds_before - 1) == PHASE_ONE_DONE
        assert st[S.S_ROUND] == rounds_before - 1 and st[S.S_ERROR] == 0
        start_round(P, st, *side, rounds_before)
    turn = play_from(P, st, *side, look, *lside, kinds, W, True, 0, PHASE_I, NO_STOP)
    assert turn != PHASE_ONE_DONE and st[S.S_ERROR] == 0
    assert st[S.S_ORDER + turn % N] == SEARCHER
    return st, side, look, lside, W, turn


def hidden(pl, o):
    return np.minimum(pl[o, S.P_HAND:S.P_HAND + S.N_CARDS], pl[o, S.P_DEALT:S.P_DEALT + S.N_CARDS])


def pile(st, base, size_field):
    return np.sort(st[base:base + st[size_field]])


PILES = [(S.S_STUDY_STACK, S.S_STUDY_N), (S.S_FARM_STACK, S.S_FARM_N), (S.S_MISSION_PILE, S.S_MISSION_N)]


@pytest.mark.parametrize("seed", [3, 4])
def test_determinisation_redeals_only_what_the_seat_cannot_see(seed):
    """Setup 15 deals two god cards face down; every later card is taken face up. A determinisation
    keeps the seat's own hand, every public card and every count, and re-deals the rest."""
    st, *_ = decision_state(seed)
    g, pl = st, S.players(st)
    dst = S.new_state(N, False)
    work = np.zeros((2, 2 * S.MAX_PLAYERS), np.int64)
    rng = np.zeros(4, np.uint64)
    opponent_hands = set()
    for k in range(40):
        rng_mod.seed_game_stream(rng, np.uint64(99), np.uint64(k))
        determinise(st, dst, SEARCHER, rng, work)
        assert check_components(P, dst) == 0  # no god card (or anything else) created or lost
        np.testing.assert_array_equal(S.players(dst)[SEARCHER], pl[SEARCHER])
        for o in range(N):
            hand = slice(S.P_HAND, S.P_HAND + S.N_CARDS)
            public = pl[o, hand] - hidden(pl, o)
            assert (S.players(dst)[o, hand] >= public).all()
            assert S.players(dst)[o, hand].sum() == pl[o, hand].sum()
        others = [c for c in range(S.N_P) if not (S.P_HAND <= c < S.P_HAND + S.N_CARDS
                                                   or S.P_DEALT <= c < S.P_DEALT + S.N_CARDS)]
        np.testing.assert_array_equal(S.players(dst)[:, others], pl[:, others])
        np.testing.assert_array_equal(dst[S.S_STACK:S.S_GOD_PILES], st[S.S_STACK:S.S_GOD_PILES])  # the board is public
        for god in range(S.N_GODS):
            size = g[S.S_GOD_PILE_N + god]
            assert dst[S.S_GOD_PILE_N + god] == size
            assert (dst[S.S_GOD_PILES + god * S.GOD_PILE_SLOTS:S.S_GOD_PILES + god * S.GOD_PILE_SLOTS + size] // 3 == god).all()  # colours are public
        for base, size in PILES:
            np.testing.assert_array_equal(pile(dst, base, size), pile(st, base, size))
        opponent_hands.add(tuple(S.players(dst)[[o for o in range(N) if o != SEARCHER], S.P_HAND:S.P_HAND + S.N_CARDS].ravel()))
    if sum(hidden(pl, o).sum() for o in range(N) if o != SEARCHER) > 0:
        assert len(opponent_hands) > 1  # the hidden cards really are re-dealt


def shuffled_future(st, seed):
    """The same game with another future: other dice to come, other face-down pile orders."""
    other = st.copy()
    rng_mod.seed_game_stream(S.rng_words(other), np.uint64(seed), np.uint64(7))
    g, decks = other, other
    gen = np.random.default_rng(seed)
    for god in range(S.N_GODS):
        base = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS
        gen.shuffle(decks[base:base + g[S.S_GOD_PILE_N + god]])
    for base, size in PILES:
        gen.shuffle(decks[base:base + g[size]])
    return other


def test_the_search_never_reads_the_real_future():
    """Two games alike in everything the seat can know but with different dice to come and
    different pile orders: the same determinisations, so the same decision."""
    st, side, look, lside, W, turn = decision_state(5)
    other = shuffled_future(st, 123)
    assert not np.array_equal(S.rng_words(other), S.rng_words(st))
    dst_a, dst_b = S.new_state(N, False), S.new_state(N, False)
    work = np.zeros((2, 2 * S.MAX_PLAYERS), np.int64)
    for k in range(5):
        rng_a, rng_b = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
        rng_mod.seed_game_stream(rng_a, np.uint64(1), np.uint64(k))
        rng_b[:] = rng_a
        determinise(st, dst_a, SEARCHER, rng_a, work)
        determinise(other, dst_b, SEARCHER, rng_b, work)
        np.testing.assert_array_equal(dst_a, dst_b)  # the random stream too
    w = search_weights(4, 3)
    chosen = []
    for state in (st, other):
        pick = np.zeros(S.SCR_WIDTH, np.int64)
        assert search_turn(P, state, *side, look, *lside, SEARCHER, w, turn, new_search_buffers(N),
                           np.uint64(77), np.uint64(0), pick)
        chosen.append(pick[:N_O].copy())
    np.testing.assert_array_equal(chosen[0], chosen[1])


def test_rollouts_are_played_by_the_fast_kind():
    """Issue 38: every seat of a rollout plays the searcher's weights as the fast kind (fewer
    options valued per decision), while the candidates stay the heuristic's."""
    st, side, look, lside, W, turn = decision_state(7)
    buffers = new_search_buffers(N)
    pick = np.zeros(S.SCR_WIDTH, np.int64)
    assert search_turn(P, st, *side, look, *lside, SEARCHER, search_weights(3, 1), turn, buffers,
                       np.uint64(77), np.uint64(0), pick)
    rollout_kinds = buffers[8]
    assert (rollout_kinds[:N] == KIND_FAST).all()


def test_candidates_are_the_heuristics_best_turns_in_order():
    st, side, look, lside, W, turn = decision_state(6)
    best = np.zeros(S.SCR_WIDTH, np.int64)
    lside[0][S.REC_RANK_TURNS] = 1  # as search_turn asks at its root decision
    assert choose_turn(P, st, look, *lside, SEARCHER, W[SEARCHER], HEURISTIC, S.scratch(side[0])[S.SCR_OPTION], best, False)
    values = S.scratch(lside[0])[S.SCR_TOP_VALUE, :S.TOP_TURNS]
    ranked = values[values != NO_TOP]
    assert len(ranked) >= 2 and (np.diff(ranked) <= 0).all()
    np.testing.assert_array_equal(S.scratch(lside[0])[S.SCR_TOP, :N_O], best[:N_O])
    rows = {tuple(S.scratch(lside[0])[S.SCR_TOP + i, :N_O]) for i in range(len(ranked))}
    assert len(rows) == len(ranked)  # distinct turns


def play(bot_weights, lineup, n_games, seed=31, first=0, checked=True):
    game = GAME
    for name, (weights, kind) in bot_weights.items():
        game = game.with_bot(name, weights, name, kind=kind)
    names, idx = lineup_indices(lineup)
    seat_bots = seat_bot_matrix(idx, first, n_games, True)
    return game.simulate(PARAMS, N, names, seat_bots, seed, first, n_games, checked)


def test_a_search_bot_without_rollouts_plays_as_its_heuristic():
    """search_rollouts = 0: the heuristic's own choice, so the games equal the policy's games."""
    search_kind = GAME.bots()["search"].kind
    policy = GAME.bots()["search"].weights.copy()
    plain = play({"mirror": (policy, KIND_HEURISTIC)}, ["mirror", "balanced", "runner", "market"], 6)
    searched = play({"mirror": (search_weights(4, 0), search_kind)}, ["mirror", "balanced", "runner", "market"], 6)
    for name in plain.player_columns:
        np.testing.assert_array_equal(plain.player_columns[name], searched.player_columns[name], err_msg=name)


def test_games_with_search_seats_keep_every_invariant_and_are_deterministic():
    """Checked mode after every turn; game i is the same whatever the threads or the chunk."""
    quick = {"quick": (search_weights(3, 2), GAME.bots()["search"].kind)}
    lineup = ["quick", "temple", "quick", "balanced"]
    previous = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        whole = play(quick, lineup, 4)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        tail = play(quick, lineup, 2, first=2)
    finally:
        numba.set_num_threads(previous)
    assert whole.failures == [] and tail.failures == []
    assert (whole.player_columns["won"].reshape(-1, N).sum(axis=1) == 1).all()
    for name in whole.player_columns:
        np.testing.assert_array_equal(whole.player_columns[name][2 * N:], tail.player_columns[name], err_msg=name)


def test_the_search_bot_is_data():
    """bots.toml: the search bot borrows its policy's heuristic weights and adds its budget; tuning
    sees only heuristic weights, and a tune's default pool holds only bots of the tuned kind."""
    bots = GAME.bots()
    search = bots["search"]
    policy = GAME.data.load_toml(GAME.data.BOTS_FILE)["bots"]["search"]["policy"][0]
    assert policy == "temple-tuned"
    np.testing.assert_array_equal(search.weights[:N_HEURISTIC_WEIGHTS], bots[policy].weights[:N_HEURISTIC_WEIGHTS])
    assert search.weights[W_SEARCH_ROLLOUTS] >= 1 and search.weights[W_SEARCH_CANDIDATES] >= 2
    assert len(GAME.weight_names("temple")) == N_HEURISTIC_WEIGHTS
    assert GAME.weight_names("search")[-4:] == ("search_candidates", "search_rollouts", "search_confidence", "search_rounds")
    budget = GAME.data.load_toml(GAME.data.BOTS_FILE)["search"]
    assert search.weights[W_SEARCH_ROUNDS] == budget["rounds"]
    pool = default_pool(GAME, "balanced")
    assert "search" not in pool and "random" not in pool and "temple" in pool


ROUNDS = P[S.R_ROUNDS]
FAST = np.full(N, KIND_FAST, np.int8)


def rollout_from(st, side, look, lside, W, w, turn):
    """play_rollout from the decision's phase-I turn on a copy of the state (every seat the fast
    kind, as in the search): the copy, the stop it used and the value it returned."""
    rs = st.copy()
    rs[S.S_LOOKAHEAD] = 1  # as copy_state marks the search's copies
    rside = S.new_side(N, False)
    stop = rollout_stop(P, st, w)
    value = play_rollout(P, rs, *rside, look, *lside, FAST, W, SEARCHER, w, turn, stop)
    return rs, stop, value


@pytest.mark.parametrize("rounds", [0, 1, 2])
def test_a_cut_rollout_stops_after_its_rounds(rounds):
    """search_rounds r: a rollout plays the rest of the current round (phase III included) and r
    more, then the next round is rolled (rulebook, Phase I: every player rolls 3 dice) and no die
    of it placed, where the heuristic values the position (Gameplay: six rounds)."""
    st, side, look, lside, W, turn = decision_state(8, rounds_before=1)
    w = search_weights(4, 2, rounds)
    rs, stop, value = rollout_from(st, side, look, lside, W, w, turn)
    assert stop == 1 + rounds
    assert rs[S.S_ERROR] == 0
    assert rs[S.S_ROUND] == stop + 1 and rs[S.S_PHASE] == 1
    assert (rs[S.S_SPACE_N:S.S_SPACE_N + S.MAX_SPACES] == 0).all()  # no die placed yet
    assert all(S.players(rs)[o, S.P_DICE:S.P_DICE + 3].min() >= 1 for o in range(N))
    assert value == cut_rollout_value(P, rs, SEARCHER, w)


def test_rounds_past_the_last_round_play_rollouts_to_the_end():
    """From the third round of six, search_rounds 3 or more reaches round 6 (the last): the rollout is
    played to the End of the Game exactly as before the cut existed (play_from to its end), and
    valued by its VP margin plus the win bonus; search_rounds 2 still stops a round earlier."""
    st, side, look, lside, W, turn = decision_state(9, rounds_before=2)
    assert rollout_stop(P, st, search_weights(4, 2, ROUNDS - 4)) == ROUNDS - 2
    full = st.copy()
    full[S.S_LOOKAHEAD] = 1
    assert play_from(P, full, *S.new_side(N, False), look, *lside, FAST, W, False, turn, PHASE_I, NO_STOP) == PHASE_ONE_DONE
    for rounds in (ROUNDS - 3, 10):
        rs, stop, value = rollout_from(st, side, look, lside, W, search_weights(4, 2, rounds), turn)
        assert stop == NO_STOP
        np.testing.assert_array_equal(rs, full)
        pl = S.players(rs)
        margin = pl[SEARCHER, S.P_VP] - max(pl[o, S.P_VP] for o in range(N) if o != SEARCHER)
        assert value == margin + (WIN_BONUS if rs[S.S_WINNER] == SEARCHER else 0.0)


def test_enough_rounds_searches_as_full_rollouts():
    """Every search_rounds that reaches the last round gives the same rollouts, so the same totals
    and the same choice (the search of before the cut)."""
    st, side, look, lside, W, turn = decision_state(5, rounds_before=1)
    results = []
    for rounds in (ROUNDS - 2, 10):
        buffers = new_search_buffers(N)
        pick = np.zeros(S.SCR_WIDTH, np.int64)
        assert search_turn(P, st, *side, look, *lside, SEARCHER, search_weights(3, 2, rounds), turn, buffers,
                           np.uint64(77), np.uint64(0), pick)
        results.append((pick[:N_O].copy(), buffers[5].copy()))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_a_cut_rollout_is_valued_by_the_heuristics_margin():
    """cut_rollout_value: bots.position_value of the searcher with its own weights minus the best
    opponent's with the same weights; each feature moves it by its weight (VP by `vp`, an Inti
    medal by `medal`, a good by `good`), and only the best opponent counts."""
    st, side, look, lside, W, turn = decision_state(10, rounds_before=1)
    w = search_weights(4, 2, 0)
    built, _, _ = rollout_from(st, side, look, lside, W, w, turn)
    leader = (SEARCHER + 1) % N
    other = (SEARCHER + 2) % N
    S.players(built)[leader, S.P_VP] += 100  # the best opponent by far
    S.players(built)[SEARCHER, S.P_MISSION:S.P_MISSION + 3] = -1  # no mission reads the goods or medals
    base = cut_rollout_value(P, built, SEARCHER, w)

    def value_after(seat, field, amount):
        changed = built.copy()
        S.players(changed)[seat, field] += amount
        return cut_rollout_value(P, changed, SEARCHER, w)

    assert value_after(SEARCHER, S.P_VP, 3) == pytest.approx(base + 3 * w[W_VP])
    assert value_after(SEARCHER, S.P_MEDALS, 1) == pytest.approx(base + w[W_MEDAL])
    assert value_after(SEARCHER, S.P_GOODS, 2) == pytest.approx(base + 2 * w[W_GOOD])
    assert value_after(leader, S.P_VP, 5) == pytest.approx(base - 5 * w[W_VP])
    assert value_after(other, S.P_VP, 5) == base
    assert value_after(other, S.P_MEDALS, 1) == base


def test_rollouts_sharing_a_record_each_score_their_own_winner():
    """End of the Game: most VP wins, ties to the player further ahead in player order. The
    rollouts of a game reuse one record, and rules.final_scoring ranks only unranked seats: each
    rollout's winner (and so its win bonus) must still be its own, not an earlier rollout's."""
    st, side, look, lside, W, turn = decision_state(8, rounds_before=3)
    w = search_weights(4, 2, 10)
    rside = S.new_side(N, False)
    winners = set()
    for k in range(8):
        rs = st.copy()
        rs[S.S_LOOKAHEAD] = 1
        rng_mod.seed_game_stream(S.rng_words(rs), np.uint64(k), np.uint64(3))
        value = play_rollout(P, rs, *rside, look, *lside, FAST, W, SEARCHER, w, turn, NO_STOP)
        pl = S.players(rs)
        order = [int(rs[S.S_ORDER + i]) for i in range(N)]
        winner = max(order, key=lambda s: (pl[s, S.P_VP], -order.index(s)))
        assert rs[S.S_WINNER] == winner
        margin = pl[SEARCHER, S.P_VP] - max(pl[o, S.P_VP] for o in range(N) if o != SEARCHER)
        assert value == margin + (WIN_BONUS if winner == SEARCHER else 0.0)
        winners.add(winner)
    assert len(winners) > 1  # a stale winner would have been caught
