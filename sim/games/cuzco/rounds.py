"""Cuzco's round sequence (phases I-III, the end), resumable from any phase-I turn.

The real game (game.py) and the search bot's rollouts (search.py) both play rounds through these
functions, so a rollout continues a game exactly as the engine would. Phase I can start from any
(pass, position) and stops before a search-bot seat's turn, handing the decision back to the caller;
a rollout's seats are all heuristic, so there it never stops.
"""
from sim.core.jit import njit_noalloc
from .bots import KIND_SEARCH, choose_good, choose_mission, choose_palace, choose_turn, choose_use
from .rules import (
    O_CARD, SRC_NONE, U_EXTRA, U_KIND, buy_good, card_source, check_components, end_of_round,
    final_scoring, log_event, mission_shortfall, perform_turn, roll_dice, score_priests,
    score_status_and_reorder, settle_mission, take_palace_mission, use_ability, EV_ROUND,
)
from .state import (
    C_EXTRA_TURN, C_MISSION_DISCOUNT, G_ERROR, G_N_PLAYERS, G_ORDER, G_PHASE, G_ROUND, PL_DICE,
    PL_DOUBLE_PEOPLE, PL_MISSION, PL_USED_FARM, PL_USED_STUDY, R_ROUNDS, SCR_BEST, SCR_LIST, SCR_LIST2,
    SCR_OPTION, STUDY, USED_UP,
)

ERROR_NO_TURN = 100  # g[G_ERROR] when a bot finds no legal turn (codes 1-15: check_components)
PHASE_ONE_DONE = -1  # phase_one_from: every die of the round is placed
TURNS_PER_ROUND = 3  # each player places three dice


@njit_noalloc
def check(P, st, checked):
    if checked and st[0][G_ERROR] == 0:
        st[0][G_ERROR] = check_components(P, st)
    return st[0][G_ERROR] != 0


@njit_noalloc
def has_dice(pl, p):
    return pl[p, PL_DICE] != 0 or pl[p, PL_DICE + 1] != 0 or pl[p, PL_DICE + 2] != 0


@njit_noalloc
def heuristic_turn(P, st, side, look, lside, p, w, kind, checked):
    """One phase-I turn chosen by a heuristic (or random) bot, with the extra turn of Mama Quilia 05."""
    g = st[0]
    scratch = side[3]
    opt = scratch[SCR_OPTION]
    best = scratch[SCR_BEST]
    if not choose_turn(P, st, look, lside, p, w, kind, opt, best, False):
        g[G_ERROR] = ERROR_NO_TURN
        return
    perform_turn(P, st, side, p, w, best)
    finish_turn(P, st, side, look, lside, p, w, kind, best)
    check(P, st, checked)


@njit_noalloc
def finish_turn(P, st, side, look, lside, p, w, kind, done):
    """After a turn `done` that played Mama Quilia 05: the bot's 1-pip extra turn."""
    if done[O_CARD] == C_EXTRA_TURN:
        scratch = side[3]
        extra = scratch[SCR_BEST]  # may be `done` itself: its card was read above
        if choose_turn(P, st, look, lside, p, w, kind, scratch[SCR_OPTION], extra, True):
            perform_turn(P, st, side, p, w, extra)


@njit_noalloc
def phase_one_from(P, st, side, look, lside, kinds, W, checked, turn):
    """Phase I from turn number `turn` (pass * players + position; 0 after the roll): one die per
    player per turn in player order. Returns the turn number at which a search-bot seat is to
    move (its turn not played), or PHASE_ONE_DONE."""
    g, pl = st[0], st[1]
    n = g[G_N_PLAYERS]
    g[G_PHASE] = 1
    for t in range(turn, TURNS_PER_ROUND * n):
        p = g[G_ORDER + t % n]
        if not has_dice(pl, p):
            continue
        if kinds[p] == KIND_SEARCH:
            return t
        heuristic_turn(P, st, side, look, lside, p, W[p], kinds[p], checked)
        if g[G_ERROR] != 0:
            return PHASE_ONE_DONE
    return PHASE_ONE_DONE


@njit_noalloc
def phase_two(P, st, side, look, lside, kinds, W, checked):
    """Phase II: in player order, one study and one farm ability each (and the extra ones of
    Pacha Mama 11 / Mama Sara 15), in the order the player likes."""
    g, pl = st[0], st[1]
    scratch = side[3]
    use = scratch[SCR_LIST]
    best = scratch[SCR_LIST2]
    n = g[G_N_PLAYERS]
    g[G_PHASE] = 2
    for pos in range(n):
        p = g[G_ORDER + pos]
        pl[p, PL_USED_STUDY] = -1
        pl[p, PL_USED_FARM] = -1
        pl[p, PL_DOUBLE_PEOPLE] = 0
        for _ in range(4):
            if not choose_use(P, st, look, lside, p, W[p], kinds[p], use, best):
                break
            use_ability(P, st, side, p, W[p], best)
            if best[U_EXTRA] != SRC_NONE:
                if best[U_KIND] == STUDY:
                    pl[p, PL_USED_STUDY] = USED_UP
                else:
                    pl[p, PL_USED_FARM] = USED_UP
            if check(P, st, checked):
                return
        pl[p, PL_USED_STUDY] = -1
        pl[p, PL_USED_FARM] = -1
        pl[p, PL_DOUBLE_PEOPLE] = 0


@njit_noalloc
def phase_three(P, st, side, look, lside, kinds, W, checked):
    """Phase III: status and player order, priests, market, missions, end of round."""
    g = st[0]
    n = g[G_N_PLAYERS]
    g[G_PHASE] = 3
    score_status_and_reorder(P, st, side)
    score_priests(P, st, side)
    for pos in range(n):
        p = g[G_ORDER + pos]
        i, src = choose_good(P, st, look, lside, p, W[p], kinds[p])
        if i >= 0:
            buy_good(P, st, side, p, i, src)
    for pos in range(n):
        p = g[G_ORDER + pos]
        slot, outcome, src = choose_mission(P, st, look, lside, p, W[p], kinds[p])
        if slot >= 0:
            settle_mission(P, st, side, p, slot, outcome, src)
        i = choose_palace(P, st, look, lside, p, W[p], kinds[p])
        if i >= 0:
            take_palace_mission(st, side, p, i)
    check(P, st, checked)
    if g[G_ROUND] < P[R_ROUNDS] - 1:
        end_of_round(P, st, side)


@njit_noalloc
def last_missions(P, st, side):
    """End of the Game: every player completes what they can of their three remaining missions,
    Mama Quilia 04 covering one missing requirement per card."""
    g, pl = st[0], st[1]
    n = g[G_N_PLAYERS]
    for pos in range(n):
        p = g[G_ORDER + pos]
        for slot in range(3):
            m = pl[p, PL_MISSION + slot]
            if m < 0:
                continue
            short = mission_shortfall(P, st, p, m)
            if short == 0:
                settle_mission(P, st, side, p, slot, 1, SRC_NONE)
            elif short == 1 and card_source(st, p, C_MISSION_DISCOUNT) != SRC_NONE:
                settle_mission(P, st, side, p, slot, 2, card_source(st, p, C_MISSION_DISCOUNT))
            else:
                settle_mission(P, st, side, p, slot, 0, SRC_NONE)


@njit_noalloc
def start_round(P, st, side, rnd):
    g = st[0]
    g[G_ROUND] = rnd
    log_event(g, side[2], EV_ROUND, rnd + 1)
    g[G_PHASE] = 1
    roll_dice(P, st, side)


@njit_noalloc
def finish_round(P, st, side, look, lside, kinds, W, checked):
    """Phases II and III of the current round, after phase I."""
    phase_two(P, st, side, look, lside, kinds, W, checked)
    if st[0][G_ERROR] != 0:
        return
    phase_three(P, st, side, look, lside, kinds, W, checked)


@njit_noalloc
def end_game(P, st, side, checked):
    last_missions(P, st, side)
    final_scoring(P, st, side)
    check(P, st, checked)


@njit_noalloc
def play_out(P, st, side, look, lside, kinds, W, turn):
    """A rollout: the rest of the game from phase-I turn `turn` of the current round, every seat
    played by its (heuristic) kind."""
    g = st[0]
    phase_one_from(P, st, side, look, lside, kinds, W, False, turn)
    if g[G_ERROR] != 0:
        return
    finish_round(P, st, side, look, lside, kinds, W, False)
    for rnd in range(g[G_ROUND] + 1, P[R_ROUNDS]):
        if g[G_ERROR] != 0:
            return
        start_round(P, st, side, rnd)
        phase_one_from(P, st, side, look, lside, kinds, W, False, 0)
        if g[G_ERROR] != 0:
            return
        finish_round(P, st, side, look, lside, kinds, W, False)
    if g[G_ERROR] == 0:
        end_game(P, st, side, False)
