"""The search bot (kind "search"): flat Monte-Carlo over determinisations, for phase-I turns.

At each of its phase-I turns the bot takes its heuristic's best few turns (bots.record_top_turn)
and plays each of them out `search_rollouts` times, through the rest of the round and
`search_rounds` more (to the end of the game when no more are left). Every rollout starts
from a determinisation: a copy of the game as the bot may believe it to be, with what it cannot
see re-dealt - the other players' face-down starting god cards (swapped among them and with the
god piles, colour by colour, so no card is created or lost), the order of every face-down pile
(shuffled anew) and all future dice (the copy gets a random
stream of its own, never the game's). All candidates of one rollout share its determinisation and
its stream (common random numbers), so they are compared on the same luck. Every seat of a
rollout is played by the bot's own heuristic weights, as the fast kind (bots.KIND_FAST: fewer
options valued per decision, so a rollout costs less): it does not know its opponents' styles.
A rollout that reaches the end is worth the bot's VP margin over the best opponent, plus
WIN_BONUS for a win; one cut short is valued at the start of the next round (its dice rolled) by
the heuristic's own reading of the position, bots.position_value with the bot's weights: the bot's
value minus the best opponent's (cut_rollout_value). The
bot plays the candidate with the best total, or with `confidence` above 0, leaves the heuristic's
first turn only for one better by that many standard errors (sim.core.search.pick_candidate).
Phase II and III choices are the heuristic's.
"""
import numpy as np
from numba import njit

from sim.core import rng as rng_mod
from sim.core.jit import njit_inline, njit_noalloc
from sim.core.search import SEARCH_SALT, pick_candidate, record_choice, record_paired
from .bots import KIND_FAST, KIND_HEURISTIC, NO_TOP, choose_turn, position_value
from .rules import N_O, O_ACTION, perform_turn
from .rounds import NO_STOP, PHASE_I, check, finish_turn, play_from, start_round
from .state import (
    GOD_PILE_SLOTS, R_ROUNDS, S_ERROR, S_ROUND, S_FARM_STACK, S_GOD_PILES, S_MISSION_PILE, S_STUDY_STACK, S_FARM_N, S_GOD_PILE_N, S_MISSION_N, S_N_PLAYERS, S_STUDY_N,
    S_TURNS, S_WINNER, MAX_PLAYERS, N_CARDS, N_GODS, P_DEALT,
    P_HAND, P_SEARCH_STATS, P_VP, REC_RANK_TURNS, SCR_BEST, SCR_OPTION, SCR_TOP, SCR_TOP_VALUE, TOP_TURNS, copy_state, new_side,
    new_state,
    RNG_WORDS, STAT_RANK, STAT_WON, stats_at, rng_of, scr_row, seat_at,
)
from .weights import N_WEIGHTS, W_SEARCH_CANDIDATES, W_SEARCH_CONFIDENCE, W_SEARCH_ROLLOUTS, W_SEARCH_ROUNDS

WIN_BONUS = 10.0  # VP a rollout's win is worth on top of the margin
MAX_HIDDEN = 2 * MAX_PLAYERS  # face-down starting cards: two per player
VIEW_STREAM = (1 << 19) - 1  # rollout_stream index of the view the candidates are ranked in


@njit(cache=True)
def new_search_buffers(n_players):
    """Arrays a search reuses at every decision (nothing allocates during play)."""
    rrec, rlog = new_side(n_players, False)
    return (new_state(n_players, False), new_state(n_players, False), rrec, rlog,
            np.zeros((TOP_TURNS, N_O), np.int64), np.zeros((2, TOP_TURNS), np.float64),
            np.zeros((2, MAX_HIDDEN), np.int64), np.zeros(4, np.uint64),
            np.zeros(MAX_PLAYERS, np.int8), np.zeros((MAX_PLAYERS, N_WEIGHTS), np.float64))


@njit_noalloc
def hidden_cards(st, o, card):
    """Cards of this ability in o's hand that nobody else has seen: the dealt ones still held
    (every god card gained later is taken face up, from the display or the discard pile)."""
    return min(st[seat_at(o) + P_HAND + card], st[seat_at(o) + P_DEALT + card])


@njit_noalloc
def conceal(rng, decks, base, n):
    """Forget a face-down pile's order: sort it, then shuffle it with the searcher's own stream
    (the result depends on the pile's contents only, never on the real order)."""
    for i in range(base + 1, base + n):
        x = decks[i]
        j = i - 1
        while j >= base and decks[j] > x:
            decks[j + 1] = decks[j]
            j -= 1
        decks[j + 1] = x
    rng_mod.shuffle(rng, decks[base:base + n], n)


@njit_noalloc
def determinise(src, dst, p, rng, hidden):
    """dst = src as seat p may believe it: a random stream of its own, every face-down pile
    shuffled anew, and the opponents' hidden cards dealt out again among them, each swapped with a random card of its god's pile or
    kept (the piles' sizes and colours are public, so a card keeps its colour)."""
    copy_state(src, dst)
    stream = rng_of(dst)
    for k in range(RNG_WORDS):  # a stream of the searcher's own, never the game's
        stream[k] = rng_mod.next_u64(rng)
    n = dst[S_N_PLAYERS]
    owners, cards = hidden[0], hidden[1]
    m = 0
    for o in range(n):
        if o == p:
            continue
        for c in range(N_CARDS):
            k = hidden_cards(dst, o, c)
            dst[seat_at(o) + P_HAND + c] -= k
            dst[seat_at(o) + P_DEALT + c] -= k
            for _ in range(k):
                owners[m] = o
                cards[m] = c
                m += 1
    for god in range(N_GODS):
        conceal(rng, dst, S_GOD_PILES + god * GOD_PILE_SLOTS, dst[S_GOD_PILE_N + god])
    conceal(rng, dst, S_STUDY_STACK, dst[S_STUDY_N])
    conceal(rng, dst, S_FARM_STACK, dst[S_FARM_N])
    conceal(rng, dst, S_MISSION_PILE, dst[S_MISSION_N])
    rng_mod.shuffle(rng, cards, m)
    for i in range(m):
        card = cards[i]
        god = card // 3
        size = dst[S_GOD_PILE_N + god]
        j = rng_mod.randint(rng, size + 1)
        if j < size:
            swapped = dst[S_GOD_PILES + god * GOD_PILE_SLOTS + j]
            dst[S_GOD_PILES + god * GOD_PILE_SLOTS + j] = card
            card = swapped
        dst[seat_at(owners[i]) + P_HAND + card] += 1
        dst[seat_at(owners[i]) + P_DEALT + card] += 1


@njit_noalloc
def rollout_value(st, p):
    """The bot's VP margin over the best opponent at the end, plus WIN_BONUS if it won."""
    best_other = -1_000_000
    for o in range(st[S_N_PLAYERS]):
        if o != p and st[seat_at(o) + P_VP] > best_other:
            best_other = st[seat_at(o) + P_VP]
    value = np.float64(st[seat_at(p) + P_VP] - best_other)
    if st[S_WINNER] == p:
        value += WIN_BONUS
    return value


@njit_noalloc
def forget_ranks(rec, n):
    """Clear the ranks and wins of a record the rollouts reuse: rules.final_scoring ranks only the
    seats not ranked yet, so a record kept from an earlier rollout would keep that rollout's winner
    (before issue 38 every rollout of a game after its first did so, and the win bonus, the same
    for every candidate, decided nothing)."""
    for o in range(n):
        rec[stats_at(o) + STAT_RANK] = 0
        rec[stats_at(o) + STAT_WON] = 0


@njit_noalloc
def cut_rollout_value(P, st, p, w):
    """A rollout cut short: the heuristic's reading of seat p's position (bots.position_value with
    the bot's weights w: VP, status, priests and the medal race, medals, cards and offerings, food,
    goods, feathers and circlets, quipus, villages, people tiles and mask spaces per round left,
    missions in progress, pututu tiles, order, the chasqui's place) minus the best opponent's,
    read with the same weights."""
    best_other = -1e300
    for o in range(st[S_N_PLAYERS]):
        if o != p:
            best_other = max(best_other, position_value(P, st, o, w))
    return position_value(P, st, p, w) - best_other


@njit_noalloc
def rollout_stop(P, st, w):
    """play_from's stop_after for a rollout from the current round: the round `search_rounds`
    after it, or NO_STOP (to the end of the game) when that is the last round or later."""
    last = st[S_ROUND] + np.int64(w[W_SEARCH_ROUNDS])
    return NO_STOP if last >= P[R_ROUNDS] - 1 else last


@njit_noalloc
def play_rollout(P, rs, rrec, rlog, look, lrec, llog, rkinds, rW, p, w, turn, stop_after):
    """A rollout after its candidate turn, from phase-I turn `turn`: to the end of the game
    (stop_after NO_STOP), valued by rollout_value; or cut short after round stop_after, the next
    round started (its dice rolled: the position a bot values at the start of a round) and valued
    by cut_rollout_value. Returns the value to seat p. Compiled lazily, like all of the search: a
    kernel without a search seat compiles none of it."""
    forget_ranks(rrec, rs[S_N_PLAYERS])
    play_from(P, rs, rrec, rlog, look, lrec, llog, rkinds, rW, False, turn, PHASE_I, stop_after)
    if stop_after == NO_STOP or rs[S_ERROR] != 0:
        return rollout_value(rs, p)
    start_round(P, rs, rrec, rlog, stop_after + 1)
    return cut_rollout_value(P, rs, p, w)


@njit_noalloc
def rollout_stream(rng, run_seed, game_index, decision, r):
    """The random stream of rollout r of the game's decision-th die placement (not the game's)."""
    salted = np.uint64(run_seed) ^ SEARCH_SALT ^ (np.uint64(decision) << np.uint64(20)) ^ np.uint64(r)
    rng_mod.seed_game_stream(rng, salted, game_index)


@njit_noalloc
def heuristic_candidates(lrec, w, candidates):
    """Copy the heuristic's best turns (recorded by its last choose_turn) into `candidates`."""
    limit = min(TOP_TURNS, max(1, np.int64(w[W_SEARCH_CANDIDATES])))
    values = scr_row(lrec, SCR_TOP_VALUE)
    k = 0
    for i in range(limit):
        if values[i] == NO_TOP:
            break
        top = scr_row(lrec, SCR_TOP + i)
        for f in range(N_O):
            candidates[i, f] = top[f]
        k += 1
    return k


@njit_noalloc
def search_turn(P, st, rec, log, look, lrec, llog, p, w, turn, buffers, run_seed, game_index, chosen):
    """Fill `chosen` with seat p's phase-I turn number `turn` (see the module docstring); False
    when there is no legal turn. Compiled as a function of its own (not inlined into the search
    kernel) so that the engine's cache holds it for the tests that search one decision."""
    root, rs, rrec, rlog, candidates, sums, hidden, rng, rkinds, rW = buffers
    totals, spread = sums[0], sums[1]
    n = st[S_N_PLAYERS]
    rkinds[p] = KIND_HEURISTIC
    heuristic = rkinds[p]  # int8 like the engine's kinds, so the bots compile once
    for s in range(n):  # rollouts: every seat the fast kind with p's weights
        rkinds[s] = KIND_FAST
        for k in range(w.shape[0]):
            rW[s, k] = w[k]
    rollouts = np.int64(w[W_SEARCH_ROLLOUTS])
    if rollouts <= 0:
        return choose_turn(P, st, look, lrec, llog, p, w, heuristic, scr_row(rec, SCR_OPTION), chosen, False)
    decision = st[S_TURNS]
    # The candidates come from a determinisation too, so that not even the heuristic's look-ahead
    # (a copy of the state, random stream included) depends on the game's hidden order or stream.
    rollout_stream(rng, run_seed, game_index, decision, VIEW_STREAM)
    determinise(st, root, p, rng, hidden)
    lrec[REC_RANK_TURNS] = 1
    found = choose_turn(P, root, look, lrec, llog, p, w, heuristic, scr_row(rec, SCR_OPTION), chosen, False)
    lrec[REC_RANK_TURNS] = 0
    if not found:
        return False
    n_candidates = heuristic_candidates(lrec, w, candidates)
    if n_candidates <= 1:
        return True
    for i in range(n_candidates):
        totals[i] = 0.0
        spread[i] = 0.0
    stop_after = rollout_stop(P, st, w)
    for r in range(rollouts):
        rollout_stream(rng, run_seed, game_index, decision, 2 * r)
        determinise(st, root, p, rng, hidden)
        for i in range(n_candidates):
            copy_state(root, rs)
            rollout_stream(rng_of(rs), run_seed, game_index, decision, 2 * r + 1)
            perform_turn(P, rs, rrec, rlog, p, w, candidates[i])
            finish_turn(P, rs, rrec, rlog, look, lrec, llog, p, w, heuristic, candidates[i])
            record_paired(totals, spread, i, play_rollout(P, rs, rrec, rlog, look, lrec, llog, rkinds, rW, p, w,
                                                          turn + 1, stop_after))
    best = pick_candidate(totals, spread, n_candidates, rollouts, w[W_SEARCH_CONFIDENCE])
    record_choice(st, seat_at(p) + P_SEARCH_STATS, candidates[0, O_ACTION], totals, rollouts, best)
    for f in range(N_O):
        chosen[f] = candidates[best, f]
    return True


@njit_inline
def search_player_turn(P, st, rec, log, look, lrec, llog, p, w, turn, buffers, run_seed, game_index, checked):
    """A search seat's phase-I turn, played in the real game (its extra turn is the heuristic's)."""
    chosen = scr_row(rec, SCR_BEST)
    if not search_turn(P, st, rec, log, look, lrec, llog, p, w, turn, buffers, run_seed, game_index, chosen):
        return False
    perform_turn(P, st, rec, log, p, w, chosen)
    finish_turn(P, st, rec, log, look, lrec, llog, p, w, buffers[8][p], chosen)  # buffers[8]: int8 kinds
    check(P, st, checked)
    return True
