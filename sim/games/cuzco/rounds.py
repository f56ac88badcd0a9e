"""Cuzco's round sequence (phases I-III, the end), resumable from any phase-I turn.

The real game (game.py) and the search bot's rollouts (search.py) both play rounds through these
functions, so a rollout continues a game exactly as the engine would. Phase I can start from any
(pass, position) and stops before a search-bot seat's turn, handing the decision back to the caller;
a rollout's seats are all heuristic, so there it never stops.

The phases under play_from are inlined into it (`njit_inline`): it calls the bots and rules
directly, with no level of compiled wrappers between, each of which would re-optimise the whole
game under it (issue 13). play_from itself is compiled once, for one declared signature, and every
engine plays its rounds through it: the batch kernels (heuristic and search), the search's
rollouts, the replay and the tests that play rounds or one phase III of a set-up state. The search
kernel and the replay then link the rounds from the cache instead of typing them again.
"""
from sim.core.jit import njit_inline, njit_level, njit_noalloc, njit_typed
from .bots import (KIND_SEARCH, choose_good, choose_last_missions, choose_mission, choose_palace, choose_turn,
                   choose_use)
from .rules import (
    SRC_NONE, U_EXTRA, U_KIND, buy_good, plays, check_components, end_of_round,
    final_scoring, log_event, perform_turn, roll_dice, score_priests,
    score_status_and_reorder, settle_last_missions, settle_mission, take_palace_mission, use_ability, EV_ROUND,
)
from .state import (
    C_EXTRA_TURN, S_ERROR, S_N_PLAYERS, S_PHASE, S_ROUND, P_DICE,
    P_DOUBLE_PEOPLE, P_USED_FARM, P_USED_STUDY, R_ROUNDS, SCR_BEST, SCR_LIST, SCR_LIST2,
    SCR_OPTION, STUDY, USED_UP,
    T_LOG, T_PARAMS, T_REC, T_STATE, scr_row, seat_at, seat_in_order,
)

ERROR_NO_TURN = 100  # st[S_ERROR] when a bot finds no legal turn (codes 1-16: check_components)
PHASE_ONE_DONE = -1  # phase_one_from: every die of the round is placed
PHASE_I, PHASE_II, PHASE_III = 1, 2, 3  # play_from's `phase`: where in the round it starts
NO_STOP = -1  # play_from's `stop_after` for a game played to its end
TURNS_PER_ROUND = 3  # each player places three dice


@njit_noalloc
def check(P, st, checked):
    if checked and st[S_ERROR] == 0:
        st[S_ERROR] = check_components(P, st)
    return st[S_ERROR] != 0


@njit_noalloc
def has_dice(st, p):
    return st[seat_at(p) + P_DICE] != 0 or st[seat_at(p) + P_DICE + 1] != 0 or st[seat_at(p) + P_DICE + 2] != 0


@njit_inline
def finish_turn(P, st, rec, log, look, lrec, llog, p, w, kind, done):
    """After a turn `done` that played Mama Quilia 05: the bot's 1-pip extra turn."""
    if plays(done, C_EXTRA_TURN):
        extra = scr_row(rec, SCR_BEST)  # may be `done` itself: its card was read above
        if choose_turn(P, st, look, lrec, llog, p, w, kind, scr_row(rec, SCR_OPTION), extra, True):
            perform_turn(P, st, rec, log, p, w, extra)


@njit_inline
def phase_one_from(P, st, rec, log, look, lrec, llog, kinds, W, checked, turn):
    """Phase I from turn number `turn` (pass * players + position; 0 after the roll): one die per
    player per turn in player order. Returns the turn number at which a search-bot seat is to
    move (its turn not played), or PHASE_ONE_DONE."""
    n = st[S_N_PLAYERS]
    st[S_PHASE] = 1
    for t in range(turn, TURNS_PER_ROUND * n):
        p = seat_in_order(st, t % n)
        if not has_dice(st, p):
            continue
        if kinds[p] == KIND_SEARCH:
            return t
        w = W[p]
        opt = scr_row(rec, SCR_OPTION)
        best = scr_row(rec, SCR_BEST)
        if not choose_turn(P, st, look, lrec, llog, p, w, kinds[p], opt, best, False):
            st[S_ERROR] = ERROR_NO_TURN
            return PHASE_ONE_DONE
        perform_turn(P, st, rec, log, p, w, best)
        # finish_turn, written out: one call level less to compile over the whole turn
        if plays(best, C_EXTRA_TURN) and choose_turn(P, st, look, lrec, llog, p, w, kinds[p], opt, best, True):
            perform_turn(P, st, rec, log, p, w, best)
        if check(P, st, checked):
            return PHASE_ONE_DONE
    return PHASE_ONE_DONE


@njit_inline
def phase_two(P, st, rec, log, look, lrec, llog, kinds, W, checked):
    """Phase II: in player order, one study and one farm ability each (and the extra ones of
    Pacha Mama 11 / Mama Sara 15), in the order the player likes."""
    use = scr_row(rec, SCR_LIST)
    best = scr_row(rec, SCR_LIST2)
    n = st[S_N_PLAYERS]
    st[S_PHASE] = 2
    for pos in range(n):
        p = seat_in_order(st, pos)
        st[seat_at(p) + P_USED_STUDY] = -1
        st[seat_at(p) + P_USED_FARM] = -1
        st[seat_at(p) + P_DOUBLE_PEOPLE] = 0
        for _ in range(4):
            if not choose_use(P, st, look, lrec, llog, p, W[p], kinds[p], use, best):
                break
            use_ability(P, st, rec, log, p, W[p], best)
            if best[U_EXTRA] != SRC_NONE:
                if best[U_KIND] == STUDY:
                    st[seat_at(p) + P_USED_STUDY] = USED_UP
                else:
                    st[seat_at(p) + P_USED_FARM] = USED_UP
            if check(P, st, checked):
                return
        st[seat_at(p) + P_USED_STUDY] = -1
        st[seat_at(p) + P_USED_FARM] = -1
        st[seat_at(p) + P_DOUBLE_PEOPLE] = 0


@njit_inline
def phase_three(P, st, rec, log, look, lrec, llog, kinds, W, checked):
    """Phase III: status and player order, priests, market, missions, end of round."""
    n = st[S_N_PLAYERS]
    st[S_PHASE] = 3
    score_status_and_reorder(P, st, rec, log)
    score_priests(P, st, rec, log)
    for pos in range(n):
        p = seat_in_order(st, pos)
        i, src = choose_good(P, st, look, lrec, llog, p, W[p], kinds[p])
        if i >= 0:
            buy_good(P, st, rec, log, p, i, src)
    for pos in range(n):
        p = seat_in_order(st, pos)
        slot, outcome, src = choose_mission(P, st, look, lrec, llog, p, W[p], kinds[p])
        if slot >= 0:
            settle_mission(P, st, rec, log, p, slot, outcome, src)
        i = choose_palace(P, st, look, lrec, llog, p, W[p], kinds[p])
        if i >= 0:
            take_palace_mission(st, rec, log, p, i)
    check(P, st, checked)
    if st[S_ROUND] < P[R_ROUNDS] - 1:
        end_of_round(P, st, rec, log)


@njit_inline
def last_missions(P, st, rec, log, look, lrec, llog, kinds):
    """End of the Game: every player, in player order, completes the missions met, then those Mama
    Quilia 04 covers as the bot plans (bots.choose_last_missions), and returns the rest."""
    n = st[S_N_PLAYERS]
    for pos in range(n):
        p = seat_in_order(st, pos)
        plan = choose_last_missions(P, st, look, lrec, llog, p, kinds[p])
        settle_last_missions(P, st, rec, log, p, plan)


@njit_typed(f"void({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, int64)")
def start_round(P, st, rec, log, rnd):
    st[S_ROUND] = rnd
    log_event(st, log, EV_ROUND, rnd + 1, 0, 0, 0, 0, 0)
    st[S_PHASE] = 1
    roll_dice(P, st, rec, log)


@njit_inline
def end_game(P, st, rec, log, look, lrec, llog, kinds, checked):
    last_missions(P, st, rec, log, look, lrec, llog, kinds)
    final_scoring(P, st, rec, log)
    check(P, st, checked)


@njit_level(f"int64({T_PARAMS}, {T_STATE}, {T_REC}, {T_LOG}, {T_STATE}, {T_REC}, {T_LOG}, int8[::1], "
            "float64[:, ::1], boolean, int64, int64, int64)")
def play_from(P, st, rec, log, look, lrec, llog, kinds, W, checked, turn, phase, stop_after):
    """The rest of the game from phase `phase` (PHASE_I: from phase-I turn `turn`) of the current
    round: a whole game after setup and the first roll, or a search bot's rollout. Stops after
    phase III of round `stop_after` (NO_STOP: plays the End of the Game). Returns PHASE_ONE_DONE,
    or the turn number at which a search-bot seat is to move (its turn not played; never in a
    rollout). One compiled level that every engine links (see the module docstring)."""
    rnd = st[S_ROUND]
    while True:
        if phase == PHASE_I:
            t = phase_one_from(P, st, rec, log, look, lrec, llog, kinds, W, checked, turn)
            if t != PHASE_ONE_DONE or st[S_ERROR] != 0:
                return t
        if phase != PHASE_III:
            phase_two(P, st, rec, log, look, lrec, llog, kinds, W, checked)
            if st[S_ERROR] != 0:
                return PHASE_ONE_DONE
        phase_three(P, st, rec, log, look, lrec, llog, kinds, W, checked)
        if rnd == stop_after:
            return PHASE_ONE_DONE
        rnd += 1
        if rnd >= P[R_ROUNDS] or st[S_ERROR] != 0:
            break
        start_round(P, st, rec, log, rnd)
        turn = 0
        phase = PHASE_I
    if st[S_ERROR] == 0:
        end_game(P, st, rec, log, look, lrec, llog, kinds, checked)
    return PHASE_ONE_DONE
