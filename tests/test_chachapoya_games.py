"""Chachapoya whole games: invariants in checked mode, card conservation, determinism across
threads and chunking, replay, and variants (rulebook: every section; components.toml)."""
import re

import numpy as np
import pandas as pd
import pytest

from determinism import assert_same_tables, tables_by_threads_and_chunks
from chachapoya_helpers import ADVENTURER, ENGINE, NO_LOG, TREASURE, bots, count_adventurers, count_treasures
from sim.core import runner
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S

LINEUPS = {
    2: ["random", "balanced"],
    3: ["random", "greedy", "cautious"],
    4: ["bluffer", "random", "balanced", "random"],
}


def simulate(n_players, lineup, n_games, seed=2024, first=0, checked=False, params=None, rotate=True):
    params = params or GAME.resolve_params(None)
    names, idx = lineup_indices(lineup)
    seat_bots = seat_bot_matrix(idx, first, n_games, rotate)
    return GAME.simulate(params, n_players, names, seat_bots, seed, first, n_games, checked)


# ------------------------------------------------------------------ invariants
@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("lineup_kind", ["random", "mixed"])
def test_checked_mode_reports_no_failures(n_players, lineup_kind):
    """Every card and token is somewhere exactly once after every step, all bids are legal, and
    every game ends by a rule (Setup .. Scoring), for random and heuristic bots."""
    lineup = ["random"] * n_players if lineup_kind == "random" else LINEUPS[n_players]
    res = simulate(n_players, lineup, 1500, seed=99 + n_players, checked=True)
    assert res.failures == []
    end = res.game_columns["end_reason"]
    assert set(np.unique(end)) <= {S.END_DECK, S.END_LAST_STANDING, S.END_ALL_ELIMINATED}
    rounds = res.game_columns["n_rounds"]
    assert rounds.min() >= 1 and rounds.max() < 400
    # Last Round: a game ended by the deck leaves at most the last round's unacquired cards
    # ("if not all of the cards would be acquired ... the game still ends")
    assert (res.game_columns["treasure_deck_left"][end == S.END_DECK] <= 3).all()
    score = res.player_columns["score"]
    elim = res.player_columns["eliminated"]
    assert (score[elim] == 0).all()
    won = res.player_columns["won"].reshape(-1, n_players)
    all_out = elim.reshape(-1, n_players).all(axis=1)
    assert (won.sum(axis=1)[~all_out] >= 1).all() and (won.sum(axis=1)[all_out] == 0).all()
    assert not (won & elim.reshape(-1, n_players)).any()  # an eliminated player cannot win
    # opening hands: eight cards each (Setup)
    opening = sum(res.player_columns[f"opening_{a}"].astype(int) for a in data.adventurer_names(
        GAME.resolve_params(None).resolved))
    assert (opening == 8).all()


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cards_conserved_in_final_state(n_players, seed):
    """Content: all 45 treasures and 50 adventurers are still accounted for after a whole game
    (decks, table, hands, collections, discard pile, box); tokens are placed, spent or kept."""
    kinds, w = bots(LINEUPS[n_players])
    st = S.new_state(ENGINE, n_players)
    R.play_game(ENGINE, st, NO_LOG, kinds, w, np.uint64(seed), np.uint64(seed * 7), True)
    assert st[S.S_ERROR] == 0
    assert st[S.S_END_REASON] != S.END_NONE
    assert (count_treasures(st) == TREASURE[:, S.TF_COUNT]).all()
    assert (count_adventurers(st) == ADVENTURER[:, S.AF_COUNT]).all()
    pstat = S.players(st)
    for s in range(n_players):
        if pstat[s, S.P_ALIVE]:
            used = pstat[s, S.P_TOKEN] + pstat[s, S.P_TOKEN_REFILL] + (pstat[s, S.P_TOKEN_SCORED_ON] >= 0)
            assert used == 1


def test_engine_errors_are_named_in_the_failure_message():
    """Content: an adventurer card created out of nothing (one in a hand before the deal) breaks
    the count at the first check, and the run's failure message names the broken invariant."""
    from sim.games.chachapoya.game import failure_messages
    kinds, w = bots(LINEUPS[2])
    st = S.new_state(ENGINE, 2)
    S.hands(st)[0, 0] = 1
    R.play_game(ENGINE, st, NO_LOG, kinds, w, np.uint64(1), np.uint64(0), True)
    assert st[S.S_ERROR] == S.ERR_ADVENTURERS
    errors = np.zeros(3, np.int64)
    errors[1] = st[S.S_ERROR]
    assert failure_messages(500, errors) == [(501, "engine error: adventurer cards created or lost")]


def test_an_illegal_bid_is_named_with_its_seat():
    """Bidding: a bid the hand cannot make is an engine error naming the seat, and no bid is laid."""
    from sim.games.chachapoya.game import failure_messages
    st = S.new_state(ENGINE, 3)
    nine = data.adventurer_names(GAME.resolve_params(None).resolved).index("number_9")
    R.lay_bid(ENGINE, st, NO_LOG, 2, nine, 2, 0, -1)  # an empty hand holds no number 9
    assert st[S.S_ERROR] == S.ERR_ILLEGAL_BID + 2 and S.bids(st)[2, S.B_KIND] == -1
    assert failure_messages(0, np.array([st[S.S_ERROR]])) == [(0, "engine error: illegal bid chosen by seat 2")]
    assert [S.error_name(c) for c in (S.ERR_TREASURES, S.ERR_TOKENS, S.ERR_NEGATIVE)] == [
        "treasure cards created or lost", "hidden-treasure tokens created or lost",
        "negative card count in a hand or collection"]


# ------------------------------------------------------------------ determinism
def test_same_seed_same_tables_across_threads_and_chunks():
    """Determinism: a seed gives identical tables with 1 or 2 Numba threads and any chunking."""
    params = GAME.resolve_params(None)
    n_games, seed = 60, 31337
    (g1, p1), (g2, p2) = tables_by_threads_and_chunks(GAME, params, 4, LINEUPS[4], n_games, seed, 7)
    assert_same_tables(g1, g2)
    assert_same_tables(p1, p2)
    assert g1["game_id"].tolist() == list(range(n_games))
    # a different seed gives different games
    names, idx = lineup_indices(LINEUPS[4])
    g3, _ = runner.run_chunk_in_memory(GAME, params, 4, names, seat_bot_matrix(idx, 0, n_games, True),
                                       seed + 1, 0, n_games)
    assert not g3["n_rounds"].equals(g1["n_rounds"])


def test_runner_output_identical_for_workers_and_chunk_sizes(tmp_path):
    """Determinism: `sim run` writes the same dataset for 1 or 2 workers and any chunk size."""
    params = GAME.resolve_params(None)
    names, idx = lineup_indices(LINEUPS[3])
    for out, workers, chunk in (("a", 1, 13), ("b", 2, 1000)):
        runner.run(GAME, params, 3, names, idx, True, 40, 5, tmp_path / out, workers, chunk, progress=False)
    for table in ("games", "players"):
        a = pd.read_parquet(tmp_path / "a" / table)
        b = pd.read_parquet(tmp_path / "b" / table)
        pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize("n_players,game_index", [(2, 3), (4, 17)])
def test_replay_reproduces_the_batch_scores(n_players, game_index):
    """Determinism: `sim replay` of game i reproduces the final scores of row i of the batch."""
    params = GAME.resolve_params(None)
    lineup = LINEUPS[n_players]
    names, idx = lineup_indices(lineup)
    seed = 777
    games, players = runner.run_chunk_in_memory(GAME, params, n_players, names,
                                                seat_bot_matrix(idx, 0, 20, True), seed, 0, 20)
    row = seat_bot_matrix(idx, game_index, 1, True)[0]
    lines = GAME.replay(params, n_players, names, row, seed, game_index)
    finals = {}
    for line in lines:
        m = re.search(r"final: seat (\d+) \(.*\) scores (-?\d+), rank (\d+)", line)
        if m:
            finals[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    assert sorted(finals) == list(range(n_players))
    batch = players[players.game_id == game_index].sort_values("seat")
    assert [finals[s][0] for s in range(n_players)] == batch["score"].tolist()
    assert [finals[s][1] for s in range(n_players)] == batch["rank"].tolist()
    n_rounds = games.loc[games.game_id == game_index, "n_rounds"].item()
    assert sum(1 for line in lines if line.startswith("-- round ")) == n_rounds


# ------------------------------------------------------------------ variants
def test_variant_gold_scale_changes_scores():
    """Variants: treasure.gold.scale overrides the printed scale used at scoring."""
    base = GAME.resolve_params(None)
    var = GAME.resolve_params({"treasure": {"gold": {"scale": [4, 8, 12, 16, 20]}}}, "gold")
    st = S.new_state(base.engine, 2)
    gold = data.treasure_names(base.resolved).index("gold")
    S.collections(st)[0, gold] = 5
    counts = S.collection_at(st, 0)
    from sim.games.chachapoya.cards import overflowed_type, points_of
    assert overflowed_type(base.engine, st, counts) == gold
    assert overflowed_type(var.engine, st, counts) == -1
    assert points_of(var.engine, st, counts, gold) == 20
    # whole games: gold points differ in distribution
    a = simulate(3, LINEUPS[3], 150, params=base)
    b = simulate(3, LINEUPS[3], 150, params=var)
    assert b.player_columns["vp_gold"].max() > 10 >= a.player_columns["vp_gold"].max()


def test_variant_hand_size_changes_setup():
    """Variants: setup.hand_size deals that many cards instead of eight."""
    var = GAME.resolve_params({"setup": {"hand_size": 5}}, "small")
    res = simulate(4, LINEUPS[4], 50, params=var, checked=True)
    assert res.failures == []
    names = data.adventurer_names(var.resolved)
    opening = sum(res.player_columns[f"opening_{a}"].astype(int) for a in names)
    assert (opening == 5).all()


def test_variant_treasure_discard_changes_deck():
    """Variants: setup.treasure_discard by player count sets the unseen discard."""
    var = GAME.resolve_params({"setup": {"treasure_discard": {"2": 25, "3": 10, "4": 5}}}, "short")
    st = S.new_state(var.engine, 2)
    from sim.core import rng as rng_mod
    rng_mod.seed_game_stream(S.rng_words(st), np.uint64(1), np.uint64(1))
    R.setup(var.engine, st, NO_LOG)
    assert st[S.S_TDECK_SIZE] == 20 and S.boxed(st).sum() == 25


@pytest.mark.parametrize("variant,key", [
    ({"treasure": {"gold": {"scal": [1]}}}, "treasure.gold.scal"),
    ({"setup": {"hand_sise": 5}}, "setup.hand_sise"),
    ({"rulez": {}}, "rulez"),
    ({"setup": {"hand_size": 0}}, "setup.hand_size"),
    ({"setup": {"hand_size": "8"}}, "setup.hand_size"),
    ({"treasure": {"gold": {"scale": [1, "Y"]}}}, "treasure.gold.scale"),
    ({"rules": {"last_round_deck": 5}}, "rules.last_round_deck"),
    ({"adventurer": {"number_9": {"max_per_bid": 0}}}, "adventurer.number_9.max_per_bid"),
    ({"treasure": {"gold": {"effect": "explode"}}}, "treasure.gold.effect"),
    ({"treasure": {"gold": {"count": 2000}}}, "treasure.gold.count"),
    ({"setup": {"treasure_discard": {"2": 44}}}, "setup.treasure_discard.2"),
])
def test_bad_variant_raises_user_error_naming_the_key(variant, key):
    """Variants: an unknown key or a bad value is a UserError that names the key."""
    with pytest.raises(UserError) as err:
        GAME.resolve_params(variant, "bad")
    assert key in str(err.value)


def test_variant_bid_max_cards_limits_bids():
    """Variants: rules.bid_max_cards replaces "between one and five" (Bidding)."""
    from sim.games.chachapoya.cards import is_legal_bid
    var = GAME.resolve_params({"rules": {"bid_max_cards": 3}}, "short_bids")
    three = data.adventurer_names(var.resolved).index("number_3")
    st = S.new_state(var.engine, 2)
    S.hands(st)[0, three] = 8
    assert is_legal_bid(var.engine, st, 0, three, 3, 0, -1)
    assert not is_legal_bid(var.engine, st, 0, three, 4, 0, -1)
    assert is_legal_bid(ENGINE, st, 0, three, 5, 0, -1)


def test_variant_bid_min_cards_is_honoured():
    """Variants: rules.bid_min_cards replaces "between one and five" (Bidding): with a minimum
    of two, a single number card is not a legal bid."""
    from sim.games.chachapoya.cards import is_legal_bid
    var = GAME.resolve_params({"rules": {"bid_min_cards": 2}}, "two_min")
    nine = data.adventurer_names(var.resolved).index("number_9")
    st = S.new_state(var.engine, 2)
    S.hands(st)[0, nine] = 3
    assert is_legal_bid(var.engine, st, 0, nine, 2, 0, -1)
    assert not is_legal_bid(var.engine, st, 0, nine, 1, 0, -1)
    from sim.games.chachapoya.cards import list_legal_bids
    k = list_legal_bids(var.engine, st, 0)
    options = S.options(st)
    assert k > 0 and all(options[i, S.B_N] + options[i, S.B_JOKER] >= 2 for i in range(k))


def test_variant_without_two_player_clash_resolves_last_leader():
    """Variants: two_player_leader_clash_rebid = false drops the 2 Player Variant exception, so
    the later leader resolves as with more players (Leader Cards)."""
    from chachapoya_helpers import resolve
    var = GAME.resolve_params({"rules": {"two_player_leader_clash_rebid": False}}, "no_clash")
    assert resolve(2, {0: ("mafia", 1), 1: ("dictator", 1)}, engine=var.engine) == (
        R.OUT_WIN_ONE, 1, {0})
    assert resolve(2, {0: ("mafia", 1), 1: ("dictator", 1)})[0] == R.OUT_CLASH


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_round_by_round_properties(n_players):
    """Round by round over whole games: start player in play (IV), every player in play holds at
    least three cards after the end-of-round draws (II), no player in play holds an X (I), the
    deck shrinks by two per normal round with a winner taking both (Gameplay), and the last round
    ends the game (Last Round)."""
    from sim.core import rng as rng_mod
    from sim.games.chachapoya.cards import overflowed_type
    kinds, w = bots((LINEUPS[n_players] * 2)[:n_players])
    for game in range(25):
        st = S.new_state(ENGINE, n_players)
        rng_mod.seed_game_stream(S.rng_words(st), np.uint64(4242), np.uint64(game))
        R.setup(ENGINE, st, NO_LOG)
        hands, pstat = S.hands(st), S.players(st)
        while st[S.S_END_REASON] == S.END_NONE:
            before = st[S.S_TDECK_SIZE]
            was_rebid = st[S.S_REBID]
            R.play_round(ENGINE, st, NO_LOG, kinds, w, True)
            assert st[S.S_ERROR] == 0
            if st[S.S_END_REASON] != S.END_NONE:
                break
            assert st[S.S_LAST_ROUND] == 0 or st[S.S_REBID] == 1
            assert pstat[st[S.S_START], S.P_ALIVE] == 1
            for s in range(n_players):
                if pstat[s, S.P_ALIVE]:
                    assert hands[s].sum() >= 3
                    assert overflowed_type(ENGINE, st, S.collection_at(st, s)) == -1
            if not was_rebid:
                assert st[S.S_TDECK_SIZE] in (before - 2, before - 1, before)  # 2 taken / 1 back / 2 back
        if st[S.S_END_REASON] == S.END_DECK:
            assert st[S.S_LAST_ROUND] == 1


@pytest.mark.parametrize("lineup", [["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-tuned"],
                                    ["random", "greedy", "bluffer", "random"]])
def test_games_never_read_the_sections_reset_state_leaves(lineup):
    """state.reset_state does not copy the legal-bid list nor the float scratch rows between games:
    a game writes them before it reads them, so junk left there by an earlier game changes nothing."""
    kinds, w = bots(lineup)
    fresh = S.new_state(ENGINE, len(lineup))
    for game_index in range(60):
        clean = fresh.copy()
        st = fresh.copy()
        st[st[S.S_OPTIONS_AT]:st[S.S_KIND_STATS_AT]] = 12345  # an earlier game's junk
        st[st[S.S_FSCRATCH_AT]:] = np.float64(-3.5e7).view(np.int64)
        S.reset_state(fresh, st)
        for state in (clean, st):
            R.play_game(ENGINE, state, NO_LOG, kinds, w, np.uint64(5), np.uint64(game_index), False)
        np.testing.assert_array_equal(st[:st[S.S_OPTIONS_AT]], clean[:clean[S.S_OPTIONS_AT]])
        np.testing.assert_array_equal(st[st[S.S_KIND_STATS_AT]:st[S.S_FSCRATCH_AT]],
                                      clean[clean[S.S_KIND_STATS_AT]:clean[S.S_FSCRATCH_AT]])
