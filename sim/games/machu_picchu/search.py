"""The search bot (kind "search"): flat Monte-Carlo over determinisations at each of its actions.

At each action of its seat (Game Flow: the district its prince enters, or staying for a moon tile)
within the horizon, the bot takes the heuristic's best few moves as candidates and, for each of R
rollout indices, makes one *determinisation*: a copy of the state in which everything its seat
cannot see is dealt again at random. Every candidate is then played to the end of the game from
that same copy and the same random stream (common random numbers), every seat played by the
heuristic with the search bot's own weights (it does not know the others' styles), and scored as a
win (1, shared wins split) plus `margin` per point of score over the best other player. It leaves
the heuristic's first choice only for a candidate whose mean beats it by `confidence` standard
errors of the paired difference (sim.core.search.pick_candidate). Every other decision (the
district's choices, the night, the summit) is the heuristic's.

Hidden information (rulebook: Inca Trail, "What a player's offering cards show is secret, but the
number of offering cards each player holds must be public"): the other players' hands and the
offering deck are pooled and dealt again, each hand keeping its size and the deck its size. The
cards the seat itself put under the deck are forgotten (pooled): losing knowledge, never gaining
it. The moon tiles lie face up beside the moon and the priest/virgin rows, goods, workers and
market are public, so nothing else is dealt.

Each rollout's stream is seeded by sim.core.search.seed_search_stream from (run seed, game index,
decision number, rollout), never from the game's own stream, so a search neither reads nor advances
the real game's randomness and a game still depends only on its configuration, seed and index.
Rollouts run the rules with heuristic kinds only, so the rules never call back into this module.
"""
import numpy as np
from numba import njit

from sim.core import rng
from sim.core.jit import njit_noalloc
from sim.core.search import pick_candidate, record_choice, record_paired, seed_search_stream, top_candidates
from . import bots
from . import rules as R
from .state import (
    DEC_ACTION, ERR_NONE, KIND_HEURISTIC, KIND_SEARCH, MAX_CARDS, MAX_OPTIONS, MAX_PLAYERS, N_STATE, P_HAND,
    P_HAND_N, P_SCORE, P_WON, R_LAST_DAY, S_DAY, S_DECK, S_DECK_HEAD, S_DECK_SIZE, S_ERROR, S_N_CARDS,
    S_N_PLAYERS, S_START, W_NOISE, P_SEARCH_STATS, SEARCH_KIND_OF_DISTRICT, SEARCH_KIND_STAY, STAY, seat_at,
)

# A search bot's budget row (bots.toml [search] and its own table; data.SEARCH_BUDGET), float64
CFG_ROLLOUTS = 0  # determinisations per searched action; every candidate is played from each
CFG_CANDIDATES = 1  # moves tried: the heuristic's best few
CFG_MARGIN = 2  # rollout value per point of score over the best other player (tie-break)
CFG_CONFIDENCE = 3  # z: leave the heuristic's first choice only for a move better by z standard errors
CFG_HORIZON = 4  # search only when at most this many days are left after today (0: the last day only)
CFG_ROLLOUT_NOISE = 5  # the heuristic's noise weight inside rollouts (every seat)
N_CFG = 6

UNCHECKED = np.bool_(False)  # rollouts run without the checked mode's invariant checks
NO_TILE = np.int64(-1)

# the search context (new_search_context), by position
CX_DET, CX_SIM, CX_DET_STREAM, CX_SIM_STREAM, CX_NO_LOG, CX_POOL, CX_SIZES, CX_UTILITY, CX_VALUE, CX_SPREAD, \
    CX_ORDER, CX_KINDS, CX_W, CX_COUNTER = range(14)


@njit(cache=True)
def new_search_context(n_players, n_weights):
    """Work space of one game's searches, allocated once per game (the rollouts allocate nothing):
    the determinisation and rollout states and streams, a log with logging off, the card pool and
    hand sizes, the candidates' utilities, values, spreads and order, the rollout line-up (every
    seat the heuristic) and the decision counter that keys each search's streams."""
    return (np.zeros(N_STATE, np.int64), np.zeros(N_STATE, np.int64), np.zeros(rng.STATE_WORDS, np.uint64),
            np.zeros(rng.STATE_WORDS, np.uint64), np.zeros((1, 7), np.int64), np.zeros(MAX_CARDS, np.int64),
            np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.float64),
            np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.int64),
            np.full(n_players, KIND_HEURISTIC, np.int8), np.zeros((n_players, n_weights), np.float64),
            np.zeros(1, np.int64))


@njit_noalloc
def copy_into(src, dst):
    """dst[:] = src, element by element (the compiled code allocates nothing)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


# ------------------------------------------------------------------ determinisation
@njit_noalloc
def determinise(P, st, stream, seat, pool, sizes):
    """Deal again, in place, the other players' hands and the offering deck (module docstring): the
    cards are pooled by id (never by where they lay), shuffled with `stream` and dealt back, each
    hand keeping its size, the deck its size; the icons kept with each hand follow."""
    n = st[S_N_PLAYERS]
    k = 0
    for q in range(n):
        sizes[q] = st[seat_at(q) + P_HAND_N]
        if q == seat:
            continue
        for c in range(st[S_N_CARDS]):
            if st[seat_at(q) + P_HAND + c] == 1:
                R.remove_from_hand(P, st, q, c)
    in_deck = st[S_DECK_SIZE]
    for c in range(st[S_N_CARDS]):
        if st[seat_at(seat) + P_HAND + c] == 0:
            pool[k] = c
            k += 1
    rng.shuffle(stream, pool, k)
    k = 0
    for q in range(n):
        if q == seat:
            continue
        for _ in range(sizes[q]):
            R.add_to_hand(P, st, q, pool[k])
            k += 1
    st[S_DECK_HEAD] = 0
    for i in range(in_deck):
        st[S_DECK + i] = pool[k]
        k += 1


# ------------------------------------------------------------------ rollouts
@njit_noalloc
def finish_from_action(P, st, stream, log, kinds, W, p):
    """The rest of the game after seat p's action was carried out: the day's remaining actions,
    then the nights and days up to an end condition, and the final scoring."""
    status = R.after_action(P, st, log, p, UNCHECKED)
    if status == R.DAY_GOES_ON:
        R.play_day_from(P, st, stream, log, kinds, W, (p + 1) % st[S_N_PLAYERS], UNCHECKED)
    going_on = R.end_of_day(P, st, stream, log, kinds, W, UNCHECKED)
    while going_on:
        R.play_day(P, st, stream, log, kinds, W, UNCHECKED)
        going_on = R.end_of_day(P, st, stream, log, kinds, W, UNCHECKED)
    R.end_game(P, st, log, UNCHECKED)


@njit_noalloc
def rollout_value(st, seat, margin_weight):
    """1 for a win (split between shared winners) plus margin_weight per point over the best other."""
    n_top = 0
    best_other = -1_000_000
    for p in range(st[S_N_PLAYERS]):
        n_top += st[seat_at(p) + P_WON]
        if p != seat and st[seat_at(p) + P_SCORE] > best_other:
            best_other = st[seat_at(p) + P_SCORE]
    value = margin_weight * (st[seat_at(seat) + P_SCORE] - best_other)
    if st[seat_at(seat) + P_WON] == 1:
        value += 1.0 / n_top
    return value


@njit_noalloc
def searching(P, st, cfg):
    """Whether this action is searched: rollouts are set and at most `horizon` days are left after
    today (late actions are the cheap ones to play out and the ones the rollouts measure best)."""
    return cfg[CFG_ROLLOUTS] > 0 and cfg[CFG_CANDIDATES] > 1 and P[R_LAST_DAY] - st[S_DAY] <= cfg[CFG_HORIZON]


@njit_noalloc
def rollout_line_up(ctx, w_seat, cfg):
    """Every seat of a rollout: the heuristic with the search bot's weights, noise rollout_noise."""
    w_roll = ctx[CX_W]
    for q in range(w_roll.shape[0]):
        for j in range(w_roll.shape[1]):
            w_roll[q, j] = w_seat[j]
        w_roll[q, W_NOISE] = cfg[CFG_ROLLOUT_NOISE]


@njit_noalloc
def search_action(P, st, seat, n_options, w_seat, cfg, run_seed, game_index, ctx):
    """The move seat `seat` makes among the n_options listed (rules.list_moves): the heuristic's
    best `candidates`, each played out from `rollouts` determinisations; the index of the one kept."""
    det, sim, det_stream, sim_stream = ctx[CX_DET], ctx[CX_SIM], ctx[CX_DET_STREAM], ctx[CX_SIM_STREAM]
    utility, value, spread, order = ctx[CX_UTILITY], ctx[CX_VALUE], ctx[CX_SPREAD], ctx[CX_ORDER]
    kinds, w_roll, no_log, counter = ctx[CX_KINDS], ctx[CX_W], ctx[CX_NO_LOG], ctx[CX_COUNTER]
    decision = counter[0]
    counter[0] += 1
    copy_into(st, sim)  # the candidates are ranked on a copy: the plan table is work space of the state
    bots.option_values(P, sim, w_seat, seat, DEC_ACTION, n_options, utility)
    n_cand = top_candidates(utility, n_options, int(cfg[CFG_CANDIDATES]), order)
    rollout_line_up(ctx, w_seat, cfg)
    for c in range(n_cand):
        value[c] = 0.0
        spread[c] = 0.0
    for r in range(int(cfg[CFG_ROLLOUTS])):
        copy_into(st, det)
        seed_search_stream(det_stream, run_seed, game_index, decision, r)
        determinise(P, det, det_stream, seat, ctx[CX_POOL], ctx[CX_SIZES])
        bots.put_line_up_prints(det, w_roll)
        for c in range(n_cand):
            copy_into(det, sim)
            copy_into(det_stream, sim_stream)
            R.carry_out(P, sim, sim_stream, no_log, kinds, w_roll, seat, order[c])
            finish_from_action(P, sim, sim_stream, no_log, kinds, w_roll, seat)
            record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
    best = pick_candidate(value, spread, n_cand, cfg[CFG_ROLLOUTS], cfg[CFG_CONFIDENCE])
    record_choice(st, seat_at(seat) + P_SEARCH_STATS, search_kind(st, order[0]), value, cfg[CFG_ROLLOUTS], best)
    return order[best]


@njit_noalloc
def search_kind(st, option):
    """The decision kind a searched action is counted under: what the listed move `option` does
    (state.SEARCH_KIND_NAMES), read from the district it enters."""
    district = R.option_a(st, option)
    return SEARCH_KIND_STAY if district == STAY else SEARCH_KIND_OF_DISTRICT[district]


# ------------------------------------------------------------------ the real game
@njit_noalloc
def take_action_search(P, st, stream, log, kinds, W, cfg, p, run_seed, game_index, ctx):
    """rules.take_action, the move of a search seat within its horizon decided by search_action."""
    R.begin_action(P, st, log, p)
    n_options = R.list_moves(P, st, p)
    if kinds[p] == KIND_SEARCH and n_options > 1 and searching(P, st, cfg[p]):
        picked = search_action(P, st, p, n_options, W[p], cfg[p], run_seed, game_index, ctx)
    else:
        picked = R.ask(P, st, stream, kinds, W, p, DEC_ACTION, n_options)
    R.carry_out(P, st, stream, log, kinds, W, p, picked)


@njit_noalloc
def play_day_search(P, st, stream, log, kinds, W, cfg, run_seed, game_index, ctx, checked):
    """rules.play_day with the search seats' moves searched."""
    R.begin_day(st, log)
    p = st[S_START]
    while True:
        take_action_search(P, st, stream, log, kinds, W, cfg, p, run_seed, game_index, ctx)
        if R.after_action(P, st, log, p, checked) != R.DAY_GOES_ON:
            return
        p = (p + 1) % st[S_N_PLAYERS]


@njit(cache=True)
def play_game_search(P, st, stream, log, kinds, W, cfg, n, run_seed, game_index, checked):
    """rules.play_game for a line-up with search seats (cfg: their budgets, one row per seat)."""
    ctx = new_search_context(n, W.shape[1])
    rng.seed_game_stream(stream, run_seed, game_index)
    R.setup(P, st, stream, log, kinds, W, n)
    if checked:
        R.check_invariants(P, st)
    while st[S_ERROR] == ERR_NONE:
        play_day_search(P, st, stream, log, kinds, W, cfg, run_seed, game_index, ctx, checked)
        if not R.end_of_day(P, st, stream, log, kinds, W, checked):
            break
    R.end_game(P, st, log, checked)
