"""The Inca Trail (rulebook section "Inca Trail"): steps, Granary, Llama Stable, summit and the
offering deck, and when the trail's rewards are taken."""
from __future__ import annotations

from machu_picchu_helpers import DISTRICT, KIND, Table
from sim.games.machu_picchu import bots as B
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S


def test_the_rulebook_wrap_18_plus_5_ends_on_3():
    """Inca Trail example: "a scout on space 18 moves forward 5 spaces and ends on space 3", after
    drawing 3 offering cards at the summit and putting 2 of the hand back under the deck."""
    t = Table(4)
    t.set(0, S.P_SCOUT, 18)
    hand, deck = t.at(0, S.P_HAND_N), int(t.st[S.S_DECK_SIZE])
    t.call(R.move_scout, 0, 5)
    assert t.at(0, S.P_SCOUT) == 3
    assert t.at(0, S.P_SUMMITS) == 1
    assert t.at(0, S.P_HAND_N) == hand + 1
    assert int(t.st[S.S_DECK_SIZE]) == deck - 1
    assert t.events(S.EV_SUMMIT) == [(0, 3, 2, 0, 0)]
    t.check()


def test_reaching_or_passing_the_granary_earns_3_corn_after_the_action():
    """Inca Trail: reaching or passing space 7 gives 3 corn, taken only after the action."""
    t = Table(4)
    t.set(1, S.P_SCOUT, 5)
    corn = t.goods(1, "corn")
    t.call(R.move_scout, 1, 3)
    assert t.at(1, S.P_SCOUT) == 8
    assert t.goods(1, "corn") == corn and t.at(1, S.P_PENDING_CORN) == 3
    R.pay_everyones_rewards(t.st, t.log, 0)
    assert t.goods(1, "corn") == corn + 3 and t.at(1, S.P_PENDING_CORN) == 0
    t.check()


def test_reaching_the_stable_earns_a_llama_and_passing_both_earns_both():
    """Inca Trail: space 13 (Llama Stable) gives 1 llama; a move from 6 to 14 passes both."""
    t = Table(4)
    t.set(2, S.P_SCOUT, 12)
    t.call(R.move_scout, 2, 1)
    assert (t.at(2, S.P_PENDING_CORN), t.at(2, S.P_PENDING_LLAMAS)) == (0, 1)
    t.set(3, S.P_SCOUT, 6)
    t.call(R.move_scout, 3, 8)
    assert t.at(3, S.P_SCOUT) == 14
    assert (t.at(3, S.P_PENDING_CORN), t.at(3, S.P_PENDING_LLAMAS)) == (3, 1)


def test_a_second_lap_passes_the_granary_again():
    """Inca Trail: the scout goes on from space 0 after the summit, so 18 + 10 reaches 8, past the Granary."""
    t = Table(4)
    t.set(0, S.P_SCOUT, 18)
    t.call(R.move_scout, 0, 10)
    assert t.at(0, S.P_SCOUT) == 8
    assert t.at(0, S.P_PENDING_CORN) == 3


def test_two_cards_left_draw_both_put_one_back():
    """Inca Trail: "If only 2 cards are left ... draws both ... returns only 1"."""
    t = Table(4)
    t.deck_down_to(2)
    hand = t.at(0, S.P_HAND_N)
    t.set(0, S.P_SCOUT, 19)
    t.call(R.move_scout, 0, 1)
    assert t.at(0, S.P_HAND_N) == hand + 1
    assert int(t.st[S.S_DECK_SIZE]) == 1
    assert int(t.st[S.S_END_PENDING]) == S.END_NONE
    t.check()


def test_the_last_card_is_taken_and_ends_the_game_after_the_action():
    """Inca Trail: with 1 card left the player takes it and returns none; Game End 2: the deck has
    run out, the game ends once that action is finished."""
    t = Table(4)
    t.deck_down_to(1)
    hand = t.at(0, S.P_HAND_N)
    t.set(0, S.P_SCOUT, 19)
    t.call(R.move_scout, 0, 1)
    assert t.at(0, S.P_HAND_N) == hand + 1
    assert int(t.st[S.S_DECK_SIZE]) == 0
    assert int(t.st[S.S_END_PENDING]) == S.END_DECK
    t.check()


def test_a_player_who_cannot_draw_gets_3_points_once():
    """Game End 2: "Any player who cannot get offering cards because the deck has run out gets 3
    points"; read as once per player (README), per summit with the switch off."""
    t = Table(4)
    t.deck_down_to(0)
    t.set(1, S.P_SCOUT, 19)
    t.call(R.move_scout, 1, 22)  # the summit twice in one move
    assert t.at(1, S.P_SUMMITS) == 2 and t.at(1, S.P_SCOUT) == 1
    assert t.at(1, S.P_COMPENSATION) == 3
    per_summit = Table(4, variant={"rules": {"compensation_once_per_player": False}})
    per_summit.deck_down_to(0)
    per_summit.set(1, S.P_SCOUT, 19)
    per_summit.call(R.move_scout, 1, 22)
    assert per_summit.at(1, S.P_COMPENSATION) == 6


def test_a_llama_from_the_stable_cannot_be_offered_in_the_same_action():
    """Inca Trail: "Llamas and corn earned on the Inca Trail are taken only after the player's action.
    So a player cannot immediately use a llama from the Inca Trail to make another offering." Seat 0
    enters the Puma Temple, its stone takes the scout from 12 past the Stable; seat 0 holds a Puma
    card but no llama during the offerings, and gets the llama when the action is over."""
    t = Table(4)
    t.st[S.S_DISTRICT + DISTRICT["puma_temple"]] = 1
    t.clear(0)
    t.give_priest(0, "puma")
    t.set(0, S.P_SCOUT, 12)
    t.call(R.move_prince, 0, DISTRICT["puma_temple"], 0)
    assert t.at(0, S.P_SCOUT) == 15  # 3 steps for the stone, no offering made
    assert t.goods(0, "llama") == 0 and t.at(0, S.P_PENDING_LLAMAS) == 1
    R.pay_everyones_rewards(t.st, t.log, 0)
    assert t.goods(0, "llama") == 1


def test_rewards_paid_at_the_end_of_every_action_by_default():
    """README ambiguity 8 ("some player"): the rewards are paid when the action ends, so they serve in
    any later action, another player's included; with rules.trail_rewards_wait_for_own_turn they wait
    for the earner's own next turn."""
    t = Table(4)
    t.set(2, S.P_SCOUT, 6)
    t.call(R.move_scout, 2, 1)
    t.set(0, S.P_PRINCE, DISTRICT["central_plaza"])
    t.call(R.take_action, 0)
    assert t.at(2, S.P_PENDING_CORN) == 0
    waiting = Table(4, variant={"rules": {"trail_rewards_wait_for_own_turn": True}})
    waiting.set(2, S.P_SCOUT, 6)
    waiting.call(R.move_scout, 2, 1)
    waiting.call(R.take_action, 0)
    assert waiting.at(2, S.P_PENDING_CORN) == 3
    corn = waiting.goods(2, "corn")
    R.pay_trail_rewards(waiting.st, waiting.log, 2)
    assert waiting.goods(2, "corn") == corn + 3


def test_the_scouts_start_on_slabs_1_to_n_in_turn_order():
    """Setup: "Choose any player to be the start player. Beginning with the start player and going
    clockwise, each player places 1 figure pawn (their scout) on the Inca Trail ... The start
    player's scout goes on stone slab no. 1 of the Inca Trail, the second player's scout on stone
    slab no. 2, and so on." The start player is drawn; start_order is each seat's position."""
    for n in (2, 3, 4, 5):
        for seed in range(4):
            t = Table(n, seed=seed)
            first = int(t.st[S.S_START])
            assert [t.at(p, S.P_START_ORDER) for p in range(n)] == [(p - first) % n for p in range(n)]
            assert [t.at(p, S.P_SCOUT) for p in range(n)] == [1 + (p - first) % n for p in range(n)]


def test_the_start_player_is_drawn_and_places_the_first_worker():
    """Setup: "Choose any player to be the start player" (README reading A: drawn, every seat alike)
    and "beginning with the start player and going clockwise, each player places 1 worker": over
    many games every seat starts, and the first worker logged is the start player's."""
    starts = []
    for seed in range(40):
        t = Table(4, seed=seed)
        starts.append(int(t.st[S.S_START]))
        first_worker = next(row for row in t.events(S.EV_WORKER))
        assert first_worker[0] == starts[-1]
    assert set(starts) == {0, 1, 2, 3}


def test_temple_stones_move_the_scout_3_each():
    """Temples: the first prince takes all the stones, 3 spaces per stone; the stones leave the temple."""
    t = Table(4)
    temple = DISTRICT["condor_temple"]
    t.st[S.S_DISTRICT + temple] = 2
    t.st[S.S_STONE_SUPPLY] -= 1
    t.set(1, S.P_SCOUT, 0)
    t.call(R.enter_temple, 1, temple)
    assert t.at(1, S.P_SCOUT) == 6
    assert int(t.st[S.S_DISTRICT + temple]) == 0
    t.check()
    t.call(R.enter_temple, 2, temple)  # a second entry the same day: nothing
    assert t.at(2, S.P_SCOUT) == 3


def test_each_llama_moves_by_the_smallest_number_uncovered():
    """Offerings at the Sun, Puma and Condor Temples: per llama, the smallest number uncovered by
    taking that kind's cards; the fewer cards remain, the fewer spaces."""
    t = Table(4)
    steps = t.P[S.PRIEST_AT + KIND["condor"] * S.N_PF + S.PF_STEPS:][:4]
    t.give_priest(0, "condor")
    assert R.llama_steps(t.P, t.st, KIND["condor"]) == steps[0]
    t.give_priest(1, "condor", 2)
    assert R.llama_steps(t.P, t.st, KIND["condor"]) == steps[2]
    assert steps[2] <= steps[0]
    t.clear(0)
    t.give(0, "llama", 1)
    t.set(0, S.P_SCOUT, 0)
    t.call(R.sacrifice_llamas, 0, KIND["condor"], 1)
    assert t.at(0, S.P_SCOUT) == steps[2]
    assert t.goods(0, "llama") == 0
    t.check()


def test_a_row_that_rises_still_moves_by_its_smallest_uncovered_number():
    """Offerings at the Sun, Puma and Condor Temples: "use the smallest of these numbers". The
    printed rows fall, so the last number uncovered is the smallest; a variant's row may rise
    somewhere (here 3, 5, 2, 4), and the smallest uncovered number still counts, for the engine and
    for the bots' valuation alike."""
    t = Table(4, variant={"priest": {"condor": {"steps": [3, 5, 2, 4]}}})
    condor = KIND["condor"]
    t.give_priest(0, "condor")
    assert R.llama_steps(t.P, t.st, condor) == 3
    assert S.smallest_uncovered(t.P, condor, 0) == 0
    assert [S.smallest_uncovered(t.P, condor, n) for n in range(1, 5)] == [3, 3, 2, 2]
    assert B.steps_if_taken(t.P, t.st, condor) == 3  # the second card uncovers 5: the 3 stays the smallest
    t.give_priest(1, "condor")
    assert R.llama_steps(t.P, t.st, condor) == 3
    assert B.steps_if_taken(t.P, t.st, condor) == 2
    t.clear(0)
    t.give(0, "llama", 2)
    t.set(0, S.P_SCOUT, 0)
    t.call(R.sacrifice_llamas, 0, condor, 2)
    assert t.at(0, S.P_SCOUT) == 6
    t.check()


def test_each_kind_uncovers_numbers_in_its_own_row_only():
    """Setup, README ambiguity 2 ("依太阳、美洲狮、兀鹰": laid out in that order, or sorted into three
    groups): either way each kind is its own row, so taking Puma cards leaves the Condor and Sun
    numbers where they were."""
    t = Table(4)
    for kind in ("sun", "puma", "condor"):
        t.give_priest(3, kind)
    before = {kind: R.llama_steps(t.P, t.st, KIND[kind]) for kind in ("sun", "condor")}
    t.give_priest(2, "puma", 3)
    assert {kind: R.llama_steps(t.P, t.st, KIND[kind]) for kind in ("sun", "condor")} == before
    puma = t.P[S.PRIEST_AT + KIND["puma"] * S.N_PF + S.PF_STEPS:][:5]
    assert R.llama_steps(t.P, t.st, KIND["puma"]) == puma[3]
