"""The turn-sequence track (rulebook: Rounds, Inca Phase, Sun Phase, Sapa Inca Phase, How Do I Win?)."""
from __future__ import annotations

import numpy as np
import pytest

from tahuantinsuyu_helpers import GAME, PARAMS, SUN, Table
from sim.games.tahuantinsuyu import rules as R
from sim.games.tahuantinsuyu import state as S


def _scores(t, *vps):
    for p, vp in enumerate(vps):
        R.add_vp(t.st, p, vp, S.P_VP_CONQUEST)


def test_the_track_printed_rounds_and_phases():
    """Rounds: 7 columns; round 1 Inca and two People phases; round 2 Inca, Sun, People, Sun, People,
    Sapa Inca; the last column has four People phases, an invasion tile beside each."""
    track = PARAMS.resolved["track"]
    assert len(track["phases"]) == 7
    assert track["phases"][0] == "IPP" and track["phases"][1] == "ISPSPX"
    assert track["phases"][-1].count("P") == track["invasion_tiles"] == 4
    assert sum(column.count("X") for column in track["phases"]) == 6
    assert track["era"] == [0, 1, 1, 1, 2, 2, 2]


def test_inca_phase_income_is_the_resources_row_plus_chips_plus_terraces():
    """Inca Phase: the Resources row of the column, the labour of the RI chips held, one a terrace."""
    t = Table(4)
    t.conquer(0, "C03")
    t.set_chip("C03", labour=2)
    t.set(0, S.P_CHIP_LABOUR, 2)
    R.build_terrace(t.P, t.st, t.log, 0, 0 + _region(t, "C03"))
    for p in range(4):
        t.set_labour(p, 0)
    t.st[S.S_ROUND] = 0
    R.inca_phase(t.P, t.st, t.log)
    row = int(t.P[S.RESOURCES_AT + 0])
    assert t.labour(0) == row + 2 + 1
    assert t.labour(1) == row
    t.check()


def _region(t, name):
    from tahuantinsuyu_helpers import REGION
    return REGION[name]


@pytest.mark.parametrize("n", [3, 4])
def test_support_transfers_by_era(n):
    """Inca Phase: early empire, most points gives 1 to fewest; middle/late, 2, and (4 players only)
    second gives 1 to third; pre-empire none."""
    late_second = [0, -1, 1, 2] if n == 4 else [0, 0, 2]
    for rnd, expected, transfers in ((0, [0] * n, 0), (1, [-1] + [0] * (n - 2) + [1], 1),
                                     (4, [-2] + late_second[1:], 2 if n == 4 else 1)):
        t = Table(n)
        _scores(t, *([10, 7, 4, 1][:n]))
        t.st[S.S_ROUND] = rnd
        R.inca_phase(t.P, t.st, t.log)
        row = int(t.P[S.RESOURCES_AT + rnd])
        assert [t.labour(p) - row for p in range(n)] == expected
        assert t.st[S.S_TRANSFERS] == transfers
        t.check()


def test_turn_sequence_cards_go_by_score_fewest_first_ties_to_the_earlier_arrival():
    """Sun Phase: the fewest points takes card 1, and so on; on a tie, the piece that reached the
    space first (innermost) is ahead."""
    t = Table(4)
    _scores(t, 3, 5, 5, 0)  # seat 1 reached 5 before seat 2
    R.deal_turn_cards(t.st, t.log)
    assert [t.at(p, S.P_CARD) for p in range(4)] == [2, 4, 3, 1]
    assert [int(x) for x in t.st[S.S_ORDER:S.S_ORDER + 4]] == [3, 0, 2, 1]


def test_sun_cards_go_face_down_into_free_gaps_between_neighbours_one_each():
    """Sun Phase: each in turn places a card between two neighbouring players where none lies yet,
    draws back to three; the cards are revealed together; each affects the two players beside it."""
    t = Table(4)
    n = R.list_sun_plays(t.P, t.st, 0)
    gaps = {b for _, b, _ in t.options(n)}
    assert gaps == {0, 1, 2, 3}
    kind = t.options(n)[0][0]
    R.play_sun_card(t.st, t.log, 0, kind, 2)
    R.draw_sun(t.st, t.stream, 0)
    assert sum(t.at(0, S.P_HAND + i) >= 0 for i in range(S.HAND)) == 3
    n = R.list_sun_plays(t.P, t.st, 1)
    assert 2 not in {b for _, b, _ in t.options(n)}
    assert t.at(2, S.P_ACTIVE + kind) == 0  # face down: no effect yet
    R.reveal_sun_cards(t.P, t.st, t.log)
    assert [t.at(p, S.P_ACTIVE + kind) for p in range(4)] == [0, 0, 1, 1]
    t.check()


def test_a_whole_sun_phase_fills_every_gap_once():
    t = Table(3)
    t.kinds[:] = S.KIND_RANDOM
    t.call(R.sun_phase)
    assert [int(t.st[S.S_GAP_N + g]) for g in range(3)] == [1, 1, 1]
    assert sum(t.at(p, S.P_ACTIVE + k) for p in range(3) for k in range(S.N_SUN)) == 6
    t.check()


def test_the_second_sun_phase_of_a_round_stacks_and_all_stay_active_until_the_sapa_inca():
    """Ambiguity 2: the second Sun phase lays its cards on the first ones; effects stack; the Sapa
    Inca discards them all. The other reading (a gap stays closed) offers no gap."""
    t = Table(4)
    t.kinds[:] = S.KIND_RANDOM
    t.call(R.sun_phase)
    t.call(R.sun_phase)
    assert [int(t.st[S.S_GAP_N + g]) for g in range(4)] == [2, 2, 2, 2]
    assert sum(t.at(p, S.P_ACTIVE + k) for p in range(4) for k in range(S.N_SUN)) == 16
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert sum(t.at(p, S.P_ACTIVE + k) for p in range(4) for k in range(S.N_SUN)) == 0
    assert int(t.st[S.S_DISCARD_N]) == 8
    t.check()
    closed = Table(4, variant={"rules": {"sun_cards_stack_in_a_gap": False}})
    closed.kinds[:] = S.KIND_RANDOM
    closed.call(R.sun_phase)
    assert R.list_sun_plays(closed.P, closed.st, 0) == 0


def test_the_draw_pile_is_the_discard_pile_reshuffled_when_empty():
    """Miscellaneous: when the Sun draw pile is used up, the discard pile is shuffled into a new one."""
    t = Table(4)
    n = int(t.st[S.S_DRAW_N])
    t.st[S.S_DISCARD:S.S_DISCARD + n] = t.st[S.S_DRAW:S.S_DRAW + n]
    t.st[S.S_DISCARD_N] = n
    t.st[S.S_DRAW_N] = 0
    t.st[S.S_DISCARD + n] = t.at(0, S.P_HAND)
    t.st[S.S_DISCARD_N] = n + 1
    t.set(0, S.P_HAND, -1)
    R.draw_sun(t.st, t.stream, 0)
    assert t.at(0, S.P_HAND) >= 0 and int(t.st[S.S_DRAW_N]) == n and int(t.st[S.S_DISCARD_N]) == 0
    t.check()


def test_sapa_inca_returns_labour_above_next_rounds_entitlement():
    """Sapa Inca Phase: labour above what the player would receive next round goes to the supply."""
    t = Table(4)
    t.st[S.S_ROUND] = 2
    t.set_labour(0, 30)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.labour(0) == int(t.P[S.RESOURCES_AT + 3])
    assert t.at(0, S.P_LAB_RETURNED) == 30 - int(t.P[S.RESOURCES_AT + 3])
    t.check()


def test_sapa_inca_scores_in_track_order_so_ties_keep_the_leader_ahead():
    """Sapa Inca Phase: players score in the order of the scoring track (the leader first): two
    players on one space scoring the same stay in order."""
    t = Table(4)
    _scores(t, 0, 4, 4, 0)
    for p in (1, 2):
        t.set(p, S.P_TERRACES, 0)
    t.st[S.S_TERRACE + 0] = 0
    # both score one terrace each
    t.set(1, S.P_TERRACES, 1)
    t.set(2, S.P_TERRACES, 1)
    t.st[S.S_TILES + S.T_TERRACE] -= 2
    t.st[S.S_TERRACE + _region(t, "C01")] = 1
    t.st[S.S_TERRACE + _region(t, "C02")] = 1
    assert R.ahead(t.st, 1, 2)
    R.sapa_inca_phase(t.P, t.st, t.log, 0)
    assert t.vp(1) == t.vp(2) == 5 and R.ahead(t.st, 1, 2)


def test_pizarro_ends_the_game_with_a_sapa_inca_after_his_people_phase():
    """How Do I Win?: after each People phase of the last column an invasion tile is turned; the
    black dot brings a Sapa Inca phase at once, then the game ends; the innermost piece wins ties."""
    P = PARAMS.engine
    kinds, W = GAME.bot_arrays(["random"] * 4)
    seen = set()
    for game in range(40):
        st, log = R.run_one(P, 4, kinds, W, np.uint64(2), np.uint64(game), True, False)
        assert st[S.S_ERROR] == 0
        assert st[S.S_PIZARRO_ROUND] == 7 and st[S.S_N_ROUNDS] == 7
        assert st[S.S_PIZARRO_PHASE] == st[S.S_PIZARRO] + 1
        assert st[S.S_PEOPLE_PHASES] == 2 + 2 * 5 + st[S.S_PIZARRO_PHASE]
        assert st[S.S_SAPA_INCAS] == 6
        seen.add(int(st[S.S_PIZARRO_PHASE]))
        ranks = sorted(int(st[S.seat_at(p) + S.P_RANK]) for p in range(4))
        assert ranks == [1, 2, 3, 4]
    assert seen == {1, 2, 3, 4}


def test_the_replay_tells_pizarro_and_the_final_ranking():
    bots = GAME.default_bots(4)
    lines = GAME.replay(PARAMS, 4, bots, np.arange(4), 1, 0)
    assert any("Pizarro arrives" in line for line in lines)
    assert sum("final: seat" in line for line in lines) == 4
    assert SUN  # the helpers' names load
