"""The heuristic's model of a phase-I turn (sim/games/cuzco/effects.py) against the rules: for
every kind of turn, in many positions, the modelled effects leave the player's own position
(everything position_value reads) exactly as rules.perform_turn leaves it, but for the hidden god
card turned up to replace a card taken; the journal values the turn as position_value does, and
undoing it restores the state bit for bit. (Rulebook sections: Phase I - Actions, the Fire
Blessing, the Action Exchange, the Temple, the Headdress.)"""
from __future__ import annotations

import numpy as np
import pytest

from cuzco_helpers import ACTION, make_room, option, weights
from test_cuzco_lookahead import N_PLAYERS, SEAT, holdings, seat_field
from sim.games.cuzco import bots as B
from sim.games.cuzco import effects as E
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

SEAT_FIELDS = [(S.P_VP, 1), (S.P_STATUS, 1), (S.P_FOOD, 1), (S.P_OFFERINGS, 1), (S.P_MEDALS, 1),
               (S.P_HAND, S.N_CARDS), (S.P_FEATHERS, S.N_COLOURS), (S.P_SLOT, S.N_SLOTS),
               (S.P_CIRCLET, S.N_CIRCLETS), (S.P_TILE, 12), (S.P_SLID, 12), (S.P_N_TILES, 1),
               (S.P_QUIPU_MASK, 1), (S.P_QUIPU_DELIVERED, 1), (S.P_DELIVERED, S.N_VILLAGES), (S.P_LOC, 1),
               (S.P_PUTUTU1, 1), (S.P_PUTUTU2, 1), (S.P_GOODS, S.N_GOODS), (S.P_MISSION, 3)]
HIDDEN = {S.P_HAND, S.P_OFFERINGS}  # what a turned-up god card can change


def valued_fields(st, hidden_too=True):
    """The fields position_value reads for SEAT, and the temple and village stacks."""
    parts = [st[seat_field(f):seat_field(f) + n] for f, n in SEAT_FIELDS if hidden_too or f not in HIDDEN]
    parts += [st[S.S_TEMPLE:S.S_TEMPLE + S.N_TEMPLE], st[S.S_STACK_N:S.S_STACK_N + S.N_VILLAGES]]
    return np.concatenate(parts)


def with_card(opt, st, card):
    """The turn played with a god card from the hand (paid with an offering), else via a medal on
    the face-up card; None if the player has neither."""
    src = R.card_source(st, SEAT, card)
    if src == R.SRC_NONE:
        return None
    out = opt.copy()
    out[R.O_CARD] = card
    out[R.O_MEDAL] = 1 if src == R.SRC_MEDAL else 0
    return out


def with_second_card(opt, st, card):
    """The turn `opt` (with a first card) playing a second card too, paid as the bots can still
    pay it (bots.second_payment, the hand first); None if it cannot be paid."""
    if opt is None:
        return None
    for src in (R.SRC_CARD, R.SRC_MEDAL):
        if B.second_payment(st, SEAT, card, opt, src) != R.SRC_NONE:
            out = opt.copy()
            out[R.O_CARD2] = card
            out[R.O_MEDAL2] = 1 if src == R.SRC_MEDAL else 0
            return out
    return None


def turn_options(P, st, rng):
    """Legal phase-I turns of every action for SEAT's dice (the space is immaterial here), with
    fire blessings, Viracocha 08, Pacha Mama 10, the cards that change an action's effects, and
    pututu tiles."""
    pl = S.players(st)[SEAT]
    out = []
    for d in range(3):
        pips = int(pl[S.P_DICE + d])
        pu = {"pu1": 1, "pips": pips + 1} if d == 1 and pips < 6 and pl[S.P_PUTUTU1] > 0 else {"pips": pips}
        strength = pu["pips"]
        for action in range(S.N_ACTIONS):
            base = option(die=d, action=action, **pu)
            blesses = []
            if action in (S.A_TRAIL, S.A_BRIDGE):
                way = S.WAY_TRAIL if action == S.A_TRAIL else S.WAY_BRIDGE
                for dest in range(S.N_VILLAGES + 1):
                    if R.can_move(P, st, SEAT, way, strength, dest, False):
                        opt = base.copy()
                        opt[R.O_TARGET] = dest
                        if dest == S.CUZCO:
                            blesses.append(opt)
                        else:
                            out.append(opt)
                            src = R.card_source(st, SEAT, S.C_DELIVERY_VP)
                            if src != R.SRC_NONE and pl[S.P_DELIVERED + dest] == 0:
                                o = opt.copy()
                                o[R.O_DELIVERY] = src
                                out.append(o)
                jump = with_card(base, st, S.C_JUMP)
                if jump is not None:
                    jump[R.O_TARGET] = int(rng.integers(S.N_VILLAGES))
                    if jump[R.O_TARGET] != pl[S.P_LOC]:
                        out.append(jump)
            elif action in (S.A_STUDY, S.A_FARM):
                display = S.S_STUDY_DISPLAY if action == S.A_STUDY else S.S_FARM_DISPLAY
                if R.empty_spaces(P, st, SEAT) > 0:
                    for i in range(min(strength, 6)):
                        if st[display + i] >= 0:
                            opt = base.copy()
                            opt[R.O_TARGET] = i
                            out.append(opt)
                            search = with_card(opt, st, S.C_SEARCH_DISCARD)
                            if search is not None and R.empty_spaces(P, st, SEAT) >= 2 \
                                    and st[S.S_STUDY_DISCARD_N] + st[S.S_FARM_DISCARD_N] > 0:
                                search[R.O_DISCARD_POS] = R.best_discard_tile(P, st, SEAT, weights())
                                out.append(search)
            elif action == S.A_EXCHANGE:
                for _ in range(4):
                    opt = base.copy()
                    budget = strength
                    while budget > 0:
                        ex = int(rng.integers(S.N_EXCHANGES))
                        cost = int(P[S.R_EXCHANGE + ex])
                        if cost > budget:
                            break
                        opt[R.O_EX + ex] += 1
                        budget -= cost
                    out.append(opt)
                    for card in (S.C_SLIDE_UP, S.C_VIRTUAL_SIX):
                        carded = with_card(opt, st, card)
                        if carded is not None:
                            out.append(carded)
                    both = with_second_card(with_card(opt, st, S.C_VIRTUAL_SIX), st, S.C_SLIDE_UP)
                    if both is not None:
                        out.append(both)
            elif action == S.A_TEMPLE:
                if pl[S.P_PRIESTS_HOME] > 0:
                    blesses.append(base)
                    step = min(strength, S.N_TEMPLE) - 1
                    if st[S.S_TEMPLE + step] >= 0:
                        carded = with_card(base, st, S.C_PRIEST_RETURN)
                        if carded is not None:
                            blesses.append(carded)
                    if st[S.S_TEMPLE + S.N_TEMPLE - 1] >= 0 and strength < 6:
                        both = with_second_card(with_card(base, st, S.C_VIRTUAL_SIX), st, S.C_PRIEST_RETURN)
                        if both is not None:
                            blesses.append(both)
            elif action == S.A_HEADDRESS:
                for c in range(min(strength, S.N_CIRCLETS)):
                    if R.circlet_ready(st, SEAT, c):
                        opt = base.copy()
                        opt[R.O_TARGET] = c
                        blesses.append(opt)
            else:
                out.append(base)
            for opt in blesses:
                for bless in range(4):
                    o = opt.copy()
                    o[R.O_BLESS] = bless
                    out.append(o)
                src = R.card_source(st, SEAT, S.C_BLESSING_PLENTY)
                if src != R.SRC_NONE and opt[R.O_CARD] != S.C_BLESSING_PLENTY:
                    o = opt.copy()
                    o[R.O_PLENTY] = src
                    out.append(o)
    return out


def positions():
    """Mid-game-like positions: shuffled holdings, rolled dice, a few cards, tiles and pututu."""
    for seed in range(40):
        P, st, side, rng = holdings(300 + seed)
        pl = S.players(st)[SEAT]
        pl[S.P_DICE:S.P_DICE + 3] = rng.integers(1, 7, 3)
        pl[S.P_PUTUTU1] = rng.integers(0, 3)
        pl[S.P_PUTUTU2] = rng.integers(0, 2)
        pl[S.P_OFFERINGS] = rng.integers(0, 4)
        pl[S.P_MEDALS] = rng.integers(0, 2)
        pl[S.P_PRIESTS_HOME] = rng.integers(0, 3)
        for card in rng.choice(S.N_CARDS, 5, replace=False):
            pl[S.P_HAND + card] += 1
        for slot in range(S.N_SLOTS):
            pl[S.P_SLOT + slot] = rng.random() < 0.4
        for i in range(12):
            if pl[S.P_TILE + i] >= 0:
                pl[S.P_SLID + i] = rng.random() < 0.3
        st[S.S_STUDY_DISCARD] = st[S.S_STUDY_DISPLAY + 5] if st[S.S_STUDY_DISPLAY + 5] >= 0 else 0
        st[S.S_STUDY_DISCARD_N] = 1
        if seed % 2 == 0:
            make_room(st, SEAT, 2)  # room for Viracocha 09's second tile
        yield P, st, rng


def test_the_model_leaves_the_position_the_rules_leave():
    w = weights()
    turned_up = exact = 0
    kinds = set()
    journal = np.zeros(S.JOURNAL_HEADER + 2 * S.JOURNAL_ENTRIES, np.int64)
    E.remember_weights(journal, w)
    for P, st, rng in positions():
        for opt in turn_options(P, st, rng):
            look = st.copy()
            R.perform_turn(P, look, *S.new_side(N_PLAYERS, False), SEAT, w, opt)
            model = st.copy()
            E.apply_turn(P, model, journal, SEAT, opt)
            E.spend_pututu(model, journal, SEAT, opt)
            assert journal[E.J_N] <= S.JOURNAL_ENTRIES
            journal[:E.J_WEIGHTS] = 0
            kinds.add((int(opt[R.O_ACTION]), int(opt[R.O_CARD]), int(opt[R.O_PLENTY] != 0),
                       int(opt[R.O_DELIVERY] != 0)))
            piles = slice(S.S_GOD_PILE_N, S.S_GOD_PILE_N + S.N_GODS)
            if np.array_equal(look[piles], st[piles]):  # no card turned up
                exact += 1
                assert np.array_equal(valued_fields(model), valued_fields(look)), opt
                assert B.position_value(P, model, SEAT, w) == B.position_value(P, look, SEAT, w)
            else:
                turned_up += 1
                assert np.array_equal(valued_fields(model, False), valued_fields(look, False)), opt
    assert exact > 1500 and turned_up > 50
    for action in range(S.N_ACTIONS):
        assert any(k[0] == action for k in kinds)
    for card in (S.C_SLIDE_UP, S.C_VIRTUAL_SIX, S.C_SEARCH_DISCARD, S.C_PRIEST_RETURN, S.C_JUMP):
        assert any(k[1] == card for k in kinds), card
    assert any(k[2] for k in kinds) and any(k[3] for k in kinds)


@pytest.mark.parametrize("style", ["balanced", "temple", "runner", "market"])
def test_the_journal_values_the_turn_and_undoes_it(style):
    """journal_value re-values only the groups a turn touched (and missions reading them): it
    equals position_value of the changed state; undo puts every field back."""
    w = weights(style)
    lrec = S.new_side(N_PLAYERS, False)[0]
    journal = lrec[S.REC_JOURNAL:S.N_REC]
    E.remember_weights(journal, w)
    checked = 0
    for P, st, rng in positions():
        before = st.copy()
        B.remember_decision_base(P, st, SEAT, w, lrec)
        assert B.journal_value(P, st, lrec, SEAT) == pytest.approx(B.position_value(P, st, SEAT, w), abs=1e-9)
        for opt in turn_options(P, st, rng):
            E.apply_turn(P, st, journal, SEAT, opt)
            assert B.journal_value(P, st, lrec, SEAT) == pytest.approx(B.position_value(P, st, SEAT, w), abs=1e-9)
            E.undo(st, journal)
            assert np.array_equal(st, before)
            checked += 1
    assert checked > 1500


def test_the_choice_memo_changes_no_choice():
    """A decision's memo of the god-card and feather choices (bots.open_choice_memo) holds a choice
    only while a turn has touched nothing it reads: every turn leaves the modelled position that
    the same turn leaves with every choice made afresh (a journal without the memo)."""
    w = weights()
    lrec = S.new_side(N_PLAYERS, False)[0]
    journal = lrec[S.REC_JOURNAL:S.N_REC]
    afresh = np.zeros_like(journal)
    E.remember_weights(journal, w)
    E.remember_weights(afresh, w)
    checked = 0
    for P, st, rng in positions():
        B.remember_decision_base(P, st, SEAT, w, lrec)
        B.open_choice_memo(lrec)
        for opt in turn_options(P, st, rng):
            E.apply_turn(P, st, journal, SEAT, opt)
            memo_model = st.copy()
            E.undo(st, journal)
            E.apply_turn(P, st, afresh, SEAT, opt)
            assert np.array_equal(st, memo_model), opt
            E.undo(st, afresh)
            checked += 1
    assert checked > 1500 and journal[E.J_MEMO_ON] == 1 and journal[E.J_GOD_CHOICE] != E.CHOICE_UNKNOWN


def test_equal_effects_share_one_valuation():
    """A decision values a turn's effects once: another die or pututu tile to the same action and
    target reuses it, the tiles spent valued apart (linear in the pututu weight)."""
    P, st, rng = next(positions())
    w = weights()
    lrec = S.new_side(N_PLAYERS, False)[0]
    S.players(st)[SEAT, S.P_PUTUTU1] = 2
    B.clear_exchange_memo(lrec)
    E.remember_weights(lrec[S.REC_JOURNAL:S.N_REC], w)
    B.remember_decision_base(P, st, SEAT, w, lrec)
    opt = option(die=0, pips=3, action=ACTION["victory_points"])
    plain = B.modelled_value(P, st, lrec, SEAT, opt)
    opt[R.O_DIE], opt[R.O_PU1] = 1, 1
    tiled = B.modelled_value(P, st, lrec, SEAT, opt)
    assert lrec[S.REC_COUNTS + S.COUNT_MODELLED] == 1
    assert tiled == pytest.approx(plain - w[B.W_PUTUTU])
    assert plain == pytest.approx(B.position_value(P, st, SEAT, w) + w[B.W_VP] * P[S.R_VP_SPACE])


def test_every_heuristic_has_a_lookahead_twin():
    """NAME-lookahead: the same weights, played as the kind lookahead (the strength comparisons of
    benchmarks/HISTORY.md); a twin is never a tune's pool member."""
    from sim.games.cuzco import GAME
    from sim.studies.tune import default_pool
    specs = GAME.bots()
    heuristics = [n for n, s in specs.items() if s.kind == B.KIND_HEURISTIC]
    assert len(heuristics) >= 5
    for name in heuristics:
        twin = specs[f"{name}-lookahead"]
        assert twin.kind == B.KIND_LOOKAHEAD and np.array_equal(twin.weights, specs[name].weights)
    assert not any(n.endswith("-lookahead") for n in default_pool(GAME, "balanced"))
