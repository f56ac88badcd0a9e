"""The search bot (kind "search"): flat Monte-Carlo over determinisations at its People-phase actions.

At each action of its People-phase turn (the road-building action, a building action, a pilgrimage,
Rapid Expansion's conquest, or ending the turn: rules.list_turn) the bot takes the heuristic's best
few options (bots.turn_values, sim.core.search.top_candidates) and, for each of `rollouts`
determinisations, plays every candidate on from the same copy and the same random stream (common
random numbers). Every seat of a rollout is the heuristic with the search bot's own weights (it
does not know its opponents' styles) and noise `rollout_noise`. A rollout runs through the rest of
the current round and `rounds` more (rules.play_from, the loop the real game plays), then is cut
short and valued by the heuristic's reading of the position (position_value: VP, the Sapa Inca VP
its network scores at each phase left, labour held); a rollout that reaches the end is valued by
the result. The value is 1 for leading (a win) plus `margin` per point over the best other player;
the bot leaves the heuristic's first choice only for a candidate whose mean beats it by `confidence`
standard errors of the paired difference (sim.core.search.pick_candidate). Every other decision
(Sun cards, each road, Building Project, Expert Surveyors) is the heuristic's.

Hidden information (rulebook: Setup, "RI chips face down"; Sun Phase, cards played face down and
drawn from a pile; the invasion tiles face down beside the last column): every face-down RI chip
(on an unrevealed region or in the box) is pooled and dealt again to the unrevealed regions, the
other players' Sun hands and the draw pile are pooled and dealt again (each hand keeping its slots),
and Pizarro's People phase is drawn again among those not yet passed.

Each rollout's stream is seeded by sim.core.search.seed_search_stream from (run seed, game index,
decision number, rollout), never from the game's own stream, so a search neither reads nor advances
the real game's randomness and a game still depends only on its configuration, seed and index.
"""
import numpy as np
from numba import njit

from sim.core import rng
from sim.core.jit import njit_noalloc
from sim.core.search import pick_candidate, record_choice, record_paired, seed_search_stream, top_candidates
from . import bots
from . import rules as R
from .state import (
    B_CITY, B_GARRISON, B_TEMPLE, DEC_TURN, ERR_NONE, HAND, H_INVASION, H_N_ROUNDS, KIND_HEURISTIC, KIND_SEARCH,
    MAX_CHIPS, MAX_DECK, MAX_OPTIONS, MAX_PHASES, MAX_PLAYERS, N_STATE, P_BUILD_SITES, P_HAND, P_LABOUR,
    P_N_BUILD_SITES, P_TERRACES, P_VP, P_WON, R_CITY_SI, R_GARRISON_SI, R_TEMPLE_SI, R_TERRACE_SI, SI_LEFT_AT,
    S_BUILDING, S_CHIP, S_DRAW, S_DRAW_N, S_ERROR, S_N_CHIPS, S_N_PLAYERS, S_N_REGIONS, S_OWNER, S_PEOPLE_DONE,
    S_ACTIONS, S_PIZARRO, S_REVEALED, S_ROUND, W_NOISE, O_A, P_SEARCH_STATS, seat_at,
)

# A search bot's budget row (bots.toml [search] and its own table; data.SEARCH_BUDGET), float64
CFG_ROLLOUTS = 0  # determinisations per searched action; every candidate is played from each
CFG_CANDIDATES = 1  # options tried: the heuristic's best few
CFG_MARGIN = 2  # rollout value per point over the best other player
CFG_CONFIDENCE = 3  # z: leave the heuristic's first choice only for one better by z standard errors
CFG_ROUNDS = 4  # rounds a rollout plays after the current one before it is valued (7: to the end)
CFG_ROLLOUT_NOISE = 5  # the heuristic's noise weight inside rollouts (every seat)
CFG_LABOUR_VP = 6  # position_value: VP a labour unit held is worth when a rollout is cut short
N_CFG = 7

UNCHECKED = np.bool_(False)  # rollouts run without the checked mode's invariant checks

# the search context (new_search_context), by position
CX_DET, CX_SIM, CX_DET_STREAM, CX_SIM_STREAM, CX_NO_LOG, CX_POOL, CX_UTILITY, CX_VALUE, CX_SPREAD, CX_ORDER, \
    CX_KINDS, CX_W, CX_COUNTER = range(13)


@njit(cache=True)
def new_search_context(n_players, n_weights):
    """Work space of one game's searches, allocated once per game (the rollouts allocate nothing):
    the determinisation and rollout states and streams, a log with logging off, a pool for the
    face-down pieces, the candidates' utilities, values, spreads and order, the rollout line-up
    (every seat the heuristic) and the decision counter that keys each search's streams."""
    return (np.zeros(N_STATE, np.int64), np.zeros(N_STATE, np.int64), np.zeros(rng.STATE_WORDS, np.uint64),
            np.zeros(rng.STATE_WORDS, np.uint64), np.zeros((1, 7), np.int64),
            np.zeros(max(MAX_CHIPS, MAX_DECK + MAX_PLAYERS * HAND), np.int64), np.zeros(MAX_OPTIONS, np.float64),
            np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.float64), np.zeros(MAX_OPTIONS, np.int64),
            np.full(n_players, KIND_HEURISTIC, np.int8), np.zeros((n_players, n_weights), np.float64),
            np.zeros(1, np.int64))


@njit_noalloc
def copy_into(src, dst):
    """dst[:] = src, element by element (the compiled code allocates nothing)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


# ------------------------------------------------------------------ determinisation
@njit_noalloc
def deal_chips_again(st, stream, pool):
    """The face-down RI chips (on unrevealed regions and in the box) pooled, shuffled and dealt back
    to the unrevealed regions."""
    n_chips = st[S_N_CHIPS]
    for c in range(n_chips):
        pool[c] = 1
    for r in range(st[S_N_REGIONS]):
        c = st[S_CHIP + r]
        if c >= 0 and (st[S_REVEALED + r] == 1 or st[S_OWNER + r] != -1):
            pool[c] = 0  # face up: not dealt again
    k = 0
    for c in range(n_chips):
        if pool[c] == 1:
            pool[k] = c
            k += 1
    rng.shuffle(stream, pool, k)
    k = 0
    for r in range(st[S_N_REGIONS]):
        if st[S_CHIP + r] >= 0 and st[S_REVEALED + r] == 0 and st[S_OWNER + r] == -1:
            st[S_CHIP + r] = pool[k]
            k += 1


@njit_noalloc
def deal_sun_cards_again(st, stream, seat, pool):
    """The other players' Sun hands and the draw pile pooled, shuffled and dealt back, each hand
    slot and the pile keeping their count."""
    k = 0
    for q in range(st[S_N_PLAYERS]):
        if q != seat:
            for i in range(HAND):
                if st[seat_at(q) + P_HAND + i] >= 0:
                    pool[k] = st[seat_at(q) + P_HAND + i]
                    k += 1
    for i in range(st[S_DRAW_N]):
        pool[k] = st[S_DRAW + i]
        k += 1
    rng.shuffle(stream, pool, k)
    k = 0
    for q in range(st[S_N_PLAYERS]):
        if q != seat:
            for i in range(HAND):
                if st[seat_at(q) + P_HAND + i] >= 0:
                    st[seat_at(q) + P_HAND + i] = pool[k]
                    k += 1
    for i in range(st[S_DRAW_N]):
        st[S_DRAW + i] = pool[k]
        k += 1


@njit_noalloc
def determinise(P, st, stream, seat, pool):
    """Deal again, in place, what seat `seat` cannot see (module docstring)."""
    deal_chips_again(st, stream, pool)
    deal_sun_cards_again(st, stream, seat, pool)
    if st[S_ROUND] == P[H_N_ROUNDS] - 1:  # Pizarro has not come after the People phases played
        st[S_PIZARRO] = st[S_PEOPLE_DONE] + rng.randint(stream, max(P[H_INVASION] - st[S_PEOPLE_DONE], 1))
    else:
        st[S_PIZARRO] = rng.randint(stream, P[H_INVASION])


# ------------------------------------------------------------------ valuing a rollout
@njit_noalloc
def standing_sapa_inca_vp(P, st, p):
    """What seat p would score at a Sapa Inca phase now (rules.sapa_inca_vp, without scoring it)."""
    vp = st[seat_at(p) + P_TERRACES] * P[R_TERRACE_SI]
    for k in range(st[seat_at(p) + P_N_BUILD_SITES]):
        b = st[S_BUILDING + st[seat_at(p) + P_BUILD_SITES + k]]
        if b & B_CITY:
            vp += P[R_CITY_SI]
        if b & B_TEMPLE:
            vp += P[R_TEMPLE_SI]
        if b & B_GARRISON:
            vp += P[R_GARRISON_SI]
    return vp


@njit_noalloc
def position_value(P, st, p, labour_vp):
    """The heuristic's reading of seat p's position after a round: its VP, its network's Sapa Inca VP
    at each phase still to come, and its labour."""
    nxt = st[S_ROUND] + 1
    left = P[SI_LEFT_AT + nxt * MAX_PHASES] if nxt < P[H_N_ROUNDS] else 0
    at = seat_at(p)
    return st[at + P_VP] + left * standing_sapa_inca_vp(P, st, p) + labour_vp * st[at + P_LABOUR]


@njit_noalloc
def rollout_value(P, st, seat, finished, cfg):
    """1 for a win (for the lead on position_value when cut short) plus margin per point over the
    best other player."""
    n = st[S_N_PLAYERS]
    best_other = -1e18
    for q in range(n):
        if q != seat:
            v = st[seat_at(q) + P_VP] if finished else position_value(P, st, q, cfg[CFG_LABOUR_VP])
            best_other = max(best_other, v)
    own = st[seat_at(seat) + P_VP] if finished else position_value(P, st, seat, cfg[CFG_LABOUR_VP])
    won = st[seat_at(seat) + P_WON] == 1 if finished else own > best_other
    return cfg[CFG_MARGIN] * (own - best_other) + (1.0 if won else 0.0)


# ------------------------------------------------------------------ the search
@njit_noalloc
def searching(cfg, n_options):
    return cfg[CFG_ROLLOUTS] > 0 and cfg[CFG_CANDIDATES] > 1 and n_options > 1


@njit_noalloc
def rollout_line_up(ctx, w_seat, cfg):
    """Every seat of a rollout: the heuristic with the search bot's weights, noise rollout_noise."""
    w_roll = ctx[CX_W]
    for q in range(w_roll.shape[0]):
        for j in range(w_roll.shape[1]):
            w_roll[q, j] = w_seat[j]
        w_roll[q, W_NOISE] = cfg[CFG_ROLLOUT_NOISE]


@njit_noalloc
def search_choice(P, st, seat, n_options, w_seat, cfg, stop, run_seed, game_index, ctx):
    """The DEC_TURN option seat `seat` takes among the n_options listed at the play_from stop
    `stop`: the heuristic's best `candidates`, each played on from `rollouts` determinisations."""
    det, sim, det_stream, sim_stream = ctx[CX_DET], ctx[CX_SIM], ctx[CX_DET_STREAM], ctx[CX_SIM_STREAM]
    utility, value, spread, order = ctx[CX_UTILITY], ctx[CX_VALUE], ctx[CX_SPREAD], ctx[CX_ORDER]
    kinds, w_roll, no_log, counter = ctx[CX_KINDS], ctx[CX_W], ctx[CX_NO_LOG], ctx[CX_COUNTER]
    decision = counter[0]
    counter[0] += 1
    copy_into(st, sim)  # ranked on a copy: the road valuation caches its best line in the state
    bots.turn_values(P, sim, w_seat, seat, n_options, utility)
    n_cand = top_candidates(utility, n_options, int(cfg[CFG_CANDIDATES]), order)
    if n_cand <= 1:
        return order[0]
    rollout_line_up(ctx, w_seat, cfg)
    cut_after = st[S_ROUND] + int(cfg[CFG_ROUNDS])
    for c in range(n_cand):
        value[c] = 0.0
        spread[c] = 0.0
    for r in range(int(cfg[CFG_ROLLOUTS])):
        copy_into(st, det)
        seed_search_stream(det_stream, run_seed, game_index, decision, r)
        determinise(P, det, det_stream, seat, ctx[CX_POOL])
        for c in range(n_cand):
            copy_into(det, sim)
            copy_into(det_stream, sim_stream)
            resume = R.carry_out_choice(P, sim, sim_stream, no_log, kinds, w_roll, seat, order[c], stop)
            end = R.play_from(P, sim, sim_stream, no_log, kinds, w_roll, UNCHECKED, resume, cut_after)
            record_paired(value, spread, c, rollout_value(P, sim, seat, end == R.GAME_OVER, cfg))
    best = pick_candidate(value, spread, n_cand, cfg[CFG_ROLLOUTS], cfg[CFG_CONFIDENCE])
    kind = R.option(st, order[0], O_A)  # the action the heuristic chose first (state.SEARCH_KIND_NAMES)
    record_choice(st, seat_at(seat) + P_SEARCH_STATS, kind, value, cfg[CFG_ROLLOUTS], best)
    return order[best]


# ------------------------------------------------------------------ the real game
@njit(cache=True)
def play_game_search(P, st, stream, log, kinds, W, cfg, n, run_seed, game_index, checked):
    """rules.play_game for a line-up with search seats (cfg: their budgets, one row per seat):
    rules.play_from stops at each People-phase action of a search seat, which search_choice decides."""
    ctx = new_search_context(n, W.shape[1])
    if not R.start_game(P, st, stream, log, kinds, W, n, run_seed, game_index, checked):
        if st[S_ERROR] == ERR_NONE:
            R.finish_game(P, st, log)
        return
    resume = R.NEW_ROUND
    while True:
        stop = R.play_from(P, st, stream, log, kinds, W, checked, resume, R.NO_CUT)
        if stop < 0:
            return
        p = R.seat_to_choose(st, stop)
        n_options = R.list_turn(P, st, p)
        if kinds[p] == KIND_SEARCH and searching(cfg[p], n_options):
            st[S_ACTIONS] += 1
            picked = search_choice(P, st, p, n_options, W[p], cfg[p], stop, run_seed, game_index, ctx)
        else:
            picked = R.ask(P, st, stream, kinds, W, p, DEC_TURN, n_options)
        resume = R.carry_out_choice(P, st, stream, log, kinds, W, p, picked, stop)
