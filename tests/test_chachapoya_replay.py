"""Chachapoya `sim replay`: the resolution events (tracker pairs knocked out, the leader that
resolves, tied bids knocked out) are logged and told readably (rulebook "Bidding", "Tracker",
"Leader Cards", "Russian Spy", "Tricky Play of Leader Cards"); logging never changes a game."""
import numpy as np
import pytest

from chachapoya_helpers import PARAMS, bids_array, make_state, set_offer
from sim.core import runner
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.chachapoya import GAME
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S
from sim.games.chachapoya.replay import event_lines

NAMES = ["john", "ann", "tim", "betty"]


def told(n_players, spec, start=0, logging=True):
    """Reveal the bids of spec ({seat: (kind, n[, "joker"])}) on a logging state; (outcome, seat,
    the lines told, the state)."""
    st, log = make_state(n_players), S.new_log(logging)
    st[S.S_START] = start
    set_offer(st, ["gold", "red_idol"], knower=start)
    S.bids(st)[:] = bids_array(n_players, spec)
    outcome, seat = R.reveal_bids(PARAMS.engine, st, log, False)
    return int(outcome), int(seat), event_lines(PARAMS, st, log, NAMES[:n_players]), st


def test_tied_bids_knocked_out_are_told():
    """Bidding example: John and Ann both play 2 x 9 (18) and knock each other out; Betty's 17
    wins over Tim's 7."""
    outcome, seat, lines, _ = told(4, {0: ("number_9", 2), 1: ("number_9", 2), 2: ("number_7", 1),
                                       3: ("number_17", 1)})
    assert (outcome, seat) == (R.OUT_WIN_ALL, 3)
    assert lines[-2:] == ["   2 bids of 18 tie and knock each other out", "   seat 3 (betty) wins the bidding"]


def test_every_tie_above_the_winner_is_told_and_ties_below_are_not():
    """III. When There Is a Tie: two levels of ties are knocked out above the winner (9 = 3 x 3 =
    1 x 9 counts as a tie across kinds); a tie below the winner changes nothing and is not told."""
    spec = {0: ("number_9", 2), 1: ("number_9", 2), 2: ("number_3", 3), 3: ("number_9", 1)}
    outcome, seat, lines, _ = told(4, spec)
    assert (outcome, seat) == (R.OUT_NO_WINNER, -1)
    assert "   2 bids of 18 tie and knock each other out" in lines
    assert "   2 bids of 9 tie and knock each other out" in lines
    spec = {0: ("number_17", 1), 1: ("number_3", 1), 2: ("number_3", 1)}
    outcome, seat, lines, _ = told(3, spec)
    assert (outcome, seat) == (R.OUT_WIN_ALL, 0)
    assert not any("tie" in line for line in lines)


def test_two_tracker_pairs_knocked_out_are_told():
    """Tracker 2, Please note: two pairs knock each other out, nobody draws three, and the next
    bid in line wins."""
    outcome, seat, lines, _ = told(3, {0: ("tracker", 2), 1: ("tracker", 2), 2: ("number_5", 1)})
    assert (outcome, seat) == (R.OUT_WIN_ALL, 2)
    assert "   2 tracker pairs knock each other out (nobody draws three); the other bids decide" in lines
    assert lines[-1] == "   seat 2 (tim) wins the bidding"


def test_a_single_tracker_pair_is_a_cancel_not_a_knock_out():
    """Tracker 2: exactly one pair cancels the bidding (told at settlement), no knock-out line; the
    leader it neutralises is told as not resolving."""
    outcome, seat, lines, _ = told(3, {0: ("tracker", 2), 1: ("mafia", 1), 2: ("number_5", 1)})
    assert (outcome, seat) == (R.OUT_PAIR_CANCEL, 0)
    assert lines == ["   seat 1 (ann)'s mafia does not resolve"]


def test_the_leader_that_resolves_is_told_after_the_ones_that_do_not():
    """Leader Cards: only the last leader in turn order resolves; the earlier one loses its power."""
    outcome, seat, lines, _ = told(4, {0: ("mafia", 1), 1: ("number_31", 1), 2: ("dictator", 1)})
    assert (outcome, seat) == (R.OUT_WIN_ONE, 2)
    assert lines == ["   seat 0 (john)'s mafia does not resolve", "   seat 2 (tim)'s dictator resolves",
                     "   seat 2 (tim) wins the bidding and takes one card"]


def test_spy_resolves_and_ties_at_the_lowest_are_told():
    """Russian Spy: the lowest bid wins; if two tie at the lowest, they knock each other out and
    the second lowest wins (Tricky Play: the Spy's player never wins)."""
    spec = {0: ("number_3", 1), 1: ("spy", 1), 2: ("number_3", 1), 3: ("number_7", 2)}
    outcome, seat, lines, _ = told(4, spec)
    assert (outcome, seat) == (R.OUT_WIN_ALL, 3)
    assert lines == ["   seat 1 (ann)'s spy resolves", "   2 bids of 3 tie and knock each other out",
                     "   seat 3 (betty) wins the bidding"]


def test_tricky_play_example_is_told():
    """Tricky Play of Leader Cards: Lucy 2 x 7, Betty the spy, John a 31: the spy resolves and
    Lucy, the lowest bid, wins; no tie."""
    outcome, seat, lines, _ = told(3, {0: ("number_7", 2), 1: ("spy", 1), 2: ("number_31", 1)})
    assert (outcome, seat) == (R.OUT_WIN_ALL, 0)
    assert lines == ["   seat 1 (ann)'s spy resolves", "   seat 0 (john) wins the bidding"]


def test_nothing_is_logged_with_logging_off():
    """A batch state (logging off) writes no event: the resolution log costs nothing in `sim run`."""
    *_, st = told(4, {0: ("number_9", 2), 1: ("number_9", 2), 2: ("mafia", 1)}, logging=False)
    assert st[S.S_LOG_N] == 0


@pytest.mark.parametrize("lineup", [["random"] * 4,
                                    ["balanced-tuned", "cautious-tuned", "greedy-tuned", "bluffer-tuned"]])
def test_replayed_games_tell_the_new_events_and_match_the_batch(lineup):
    """Whole games replayed with the log on: the three events appear over a hundred games (two
    pairs in one bidding in about 6% of random games, 20% of the tuned line-up's), and every
    replay ends with the batch's own end reason and scores, so logging changed nothing."""
    params = GAME.resolve_params(None)
    names, idx = lineup_indices(lineup)
    n_games, seed = 100, 5
    games, players = runner.run_chunk_in_memory(GAME, params, 4, names, seat_bot_matrix(idx, 0, n_games, True),
                                                seed, 0, n_games)
    seen = {"knock each other out (nobody": 0, "resolves": 0, "tie and knock": 0}
    for i in range(n_games):
        lines = GAME.replay(params, 4, names, seat_bot_matrix(idx, i, 1, True)[0], seed, i)
        for key in seen:
            seen[key] += sum(key in line for line in lines)
        end = games.loc[games.game_id == i, "end_reason"].item()
        assert lines[-1].startswith(f"-- game over: {end}")
        scores = [int(line.split(" scores ")[1].split(",")[0]) for line in lines if "   final: " in line]
        assert scores == players.loc[players.game_id == i].sort_values("seat")["score"].tolist()
    assert all(seen.values()), seen


def test_replay_of_a_stalemate_says_so():
    """A stalled game (README, rule reading 16) is told as a stalemate with no winner."""
    params = GAME.resolve_params({"adventurer": {"tracker": {"count": 50}, **{
        a: {"count": 0} for a in ("number_3", "number_5", "number_7", "number_9", "number_11", "number_17",
                                  "number_31", "mafia", "dictator", "spy")}}}, "only_trackers")
    names, idx = lineup_indices(["random", "random"])
    lines = GAME.replay(params, 2, names, seat_bot_matrix(idx, 0, 1, True)[0], 3, 0)
    n = params.resolved["rules"]["stalemate_rounds"]
    assert lines[-1] == f"-- game over: stalemate ({n} rounds in a row without a treasure acquired: no winner)"
    assert sum(line.startswith("-- round ") for line in lines) == n
    assert all(", rank 1" in line for line in lines if "final:" in line)
    assert np.sum(["2 tracker pairs knock each other out" in line for line in lines]) == n
