"""Chachapoya stalemate: a game that stalls ends early with no winner (engine rule, not printed;
sim/games/chachapoya/README.md, rule reading 16).

The rulebook ends a game only when the treasure deck runs down to its last round ("Last Round and
the End of the Game") or when players are eliminated ("I. Checking"). A tracker pair puts the
offered cards back under the deck ("Tracker 2"), so a player who holds the whole adventurer deck
can cancel every bidding forever; rules.stalemate_rounds rounds in a row without a treasure
acquired end such a game as a stalemate.
"""
import numpy as np
import pytest

from chachapoya_helpers import NO_LOG, PARAMS, bots, collect, heuristic, make_state
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.games.chachapoya import GAME, data
from sim.games.chachapoya import rules as R
from sim.games.chachapoya import state as S

STALEMATE = S.END_REASON_NAMES.index("stalemate")
STALL_ROUNDS = PARAMS.resolved["rules"]["stalemate_rounds"]


def simulate(params, n_players, lineup, first, n_games, seed):
    names, idx = lineup_indices(lineup)
    return GAME.simulate(params, n_players, names, seat_bot_matrix(idx, first, n_games, True), seed, first,
                         n_games, True)


def only_trackers(**rules):
    """Every adventurer card a tracker: the only legal bid is a pair (Tracker 2), and every pair
    knocks out the other's ("Please note! ... all of them knock each other out"), so nothing is
    ever acquired, whatever the bots."""
    names = data.adventurer_names(PARAMS.resolved)
    adventurer = {a: {"count": 0} for a in names if a != "tracker"}
    adventurer["tracker"] = {"count": 50}
    return GAME.resolve_params({"adventurer": adventurer, "rules": rules}, "only_trackers")


def test_stalemate_is_appended_to_the_end_reasons():
    """The existing end-reason codes keep their numbers (datasets written before stay readable)."""
    assert S.END_REASON_NAMES[:5] == ("none", "deck_exhausted", "last_standing", "all_eliminated", "round_limit")
    assert S.END_STALEMATE == 5 and S.END_REASON_NAMES[S.END_STALEMATE] == "stalemate"


@pytest.mark.parametrize("lineup", [["random", "random"], ["balanced-tuned", "cautious-tuned"]])
def test_a_game_where_nothing_can_be_acquired_ends_as_a_stalemate(lineup):
    """Tracker 2: with only trackers, both players bid a pair every round and the pairs knock each
    other out; nobody ever acquires a treasure. The game ends after stalemate_rounds rounds, as a
    stalemate: winner_seat -1, nobody won, both players in play share rank 1."""
    res = simulate(only_trackers(), 2, lineup, 0, 20, 11)
    assert res.failures == []
    g, p = res.game_columns, res.player_columns
    assert (g["end_reason"] == STALEMATE).all()
    assert (g["n_rounds"] == STALL_ROUNDS).all()
    assert (g["rounds_without_winner"] == STALL_ROUNDS).all()
    assert (g["winner_seat"] == -1).all()
    assert not p["won"].any()
    assert (p["rank"] == 1).all()
    assert (g["treasure_deck_left"] == 30).all()  # 45 - 15 discarded for 2 players (Setup), none taken


def test_stalemate_rounds_is_the_rule_that_stops_it():
    """rules.stalemate_rounds is a designer's parameter: 20 stops the same games at round 20; with
    the rule out of reach the 400-round safety limit stops them (end reason round_limit) and the
    game is scored as a finished one, with a winner."""
    short = simulate(only_trackers(stalemate_rounds=20), 2, ["random", "random"], 0, 20, 11)
    assert (short.game_columns["end_reason"] == STALEMATE).all()
    assert (short.game_columns["n_rounds"] == 20).all()
    off = simulate(only_trackers(stalemate_rounds=10_000), 2, ["random", "random"], 0, 20, 11)
    assert (off.game_columns["end_reason"] == S.END_ROUND_LIMIT).all()
    assert (off.game_columns["n_rounds"] == 400).all()
    assert off.player_columns["won"].reshape(-1, 2).any(axis=1).all()


def test_the_measured_stalled_game_no_longer_stalls():
    """The measured case (2 players, default line-up, seed 7, seats rotated; game 7309 of the
    100,000-game run in the README): one player ended up holding the whole adventurer deck and
    cancelled every bidding with a tracker pair (Tracker 2) from round 37 on, drawing three each
    time, until the stalemate rule stopped it at round 86 with no winner. Since the pair's draw is
    the player's choice (issue 14) and the bots value a late pair without the cards they would
    not draw, the same game ends by the rules, as no game of that run stalls any more."""
    res = simulate(PARAMS, 2, data.default_lineup()[:2], 7309, 1, 7)
    g = res.game_columns
    assert g["end_reason"][0] in (S.END_DECK, S.END_LAST_STANDING)
    assert g["n_rounds"][0] < STALL_ROUNDS


def test_idle_rounds_count_and_reset():
    """A round in which a treasure is acquired (a bidding won: numbers, Mafia, Dictator, a tracker
    joker) resets the count; a tracker pair, a round nobody wins and a 2-player leader clash add one."""
    st = make_state(2)
    for outcome in (R.OUT_PAIR_CANCEL, R.OUT_NO_WINNER, R.OUT_CLASH):
        R.count_idle_round(st, outcome)
    assert st[S.S_IDLE_ROUNDS] == 3
    R.count_idle_round(st, R.OUT_WIN_ONE)
    assert st[S.S_IDLE_ROUNDS] == 0
    R.count_idle_round(st, R.OUT_NO_WINNER)
    R.count_idle_round(st, R.OUT_WIN_ALL)
    assert st[S.S_IDLE_ROUNDS] == 0


def test_close_round_declares_the_stalemate_at_the_limit_only():
    """The end of a round checks the count after the end-of-round draws (II. Three Cards Rule):
    one idle round short of the limit the game goes on; the next idle round ends it."""
    kinds, w = heuristic(2)
    st = make_state(2)
    st[S.S_ROUND] = 10
    st[S.S_IDLE_ROUNDS] = STALL_ROUNDS - 2
    R.close_round(PARAMS.engine, st, NO_LOG, kinds, w, np.int64(R.OUT_PAIR_CANCEL), False)
    assert st[S.S_END_REASON] == S.END_NONE and st[S.S_IDLE_ROUNDS] == STALL_ROUNDS - 1
    R.close_round(PARAMS.engine, st, NO_LOG, kinds, w, np.int64(R.OUT_NO_WINNER), False)
    assert st[S.S_END_REASON] == S.END_STALEMATE


def test_stalemate_scores_the_position_but_nobody_wins():
    """Scoring is computed as usual (the points columns describe the stalled position), but a
    stalemate has no winner: everyone in play shares rank 1, an eliminated player ranks below."""
    kinds, w = bots(["balanced"] * 3)
    st = make_state(3)
    pstat = S.players(st)
    collect(st, 0, blue_idol=2)
    collect(st, 1, gold=1)
    pstat[:, S.P_TOKEN] = 0
    pstat[2, S.P_ALIVE] = 0
    st[S.S_END_REASON] = S.END_STALEMATE
    R.final_scores(PARAMS.engine, st, NO_LOG, kinds, w)
    assert pstat[0, S.P_SCORE] == 15 and pstat[1, S.P_SCORE] == 1  # blue idol scale 7, 15; gold 1
    assert pstat[:, S.P_RANK].tolist() == [1, 1, 3]
    assert pstat[:, S.P_WON].tolist() == [0, 0, 0]
    assert st[S.S_WINNER] == -1


@pytest.mark.parametrize("value", [0, -3, 10_001, 2.5, "50"])
def test_stalemate_rounds_is_validated(value):
    """components.toml [rules] stalemate_rounds: a whole number from 1 to 10000, named when wrong."""
    with pytest.raises(UserError) as err:
        GAME.resolve_params({"rules": {"stalemate_rounds": value}}, "bad")
    assert "rules.stalemate_rounds" in str(err.value)


def test_stalemate_rounds_has_its_source():
    """Every rule number carries its provenance: this one is an engine rule, not printed."""
    source = data.default_components()["rules"]["source"]["stalemate_rounds"]
    assert source.startswith("engine rule, not printed")
