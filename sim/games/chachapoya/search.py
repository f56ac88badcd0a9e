"""The search bot: flat Monte-Carlo over determinisations, a reference stronger than the heuristics.

At each searched decision of its seat (its bids, the offers it arranges as start player, and the
card it takes when it may take only one) the bot lists its options (the heuristic's best few bids,
or offers), and for each of R rollout indices it makes one *determinisation*: a copy of the state
in which everything its seat cannot see is dealt again at random, consistently with what it has
seen. Every option is then played to the end of the game from that same copy (common random
numbers), every seat played by the heuristic with the search bot's own weights (it does not know
the others' styles), and scored as a win (1, shared wins split) plus a small score-margin
tie-break. The option with the best mean is played; ties go to the heuristic's order.

Hidden information (rulebook: Setup, Gameplay, Bidding, Last Round, Elimination):
- the other players' hands (their sizes are public), the adventurer deck and the cards an
  eliminated player put on the discard pile unseen (state adhidden) are pooled and dealt again;
  the rest of the discard pile was played face up and stays;
- the treasure deck, the treasures boxed unseen at Setup and, in the last round, the face-down
  cards nobody has seen are pooled and dealt again. During a bidding the card the start player
  buried this round stays at the bottom; a seat that is not the start player knows only that it
  and the face-down card are the two it saw drawn, so they are swapped with probability 1/2.
  Older cards put back under the deck are forgotten (pooled): losing knowledge, never gaining it;
- the copy's random stream is reseeded from (run seed, game index, decision number, rollout), so
  no rollout reads the real game's future, and a game's result depends only on (configuration,
  seed, game index).

Rollouts run rules.play_round with heuristic kinds only (a search kind plays as the heuristic in
bots.py), so the rules never call back into this module: no import cycle, no recursion.
"""
import numpy as np
from numba import njit

from sim.core import rng as rng_mod
from sim.core.jit import njit_noalloc
from sim.core.search import pick_candidate, record_paired, seed_search_stream, top_candidates
from . import bots
from . import rules as R
from .cards import hand_size, list_legal_bids
from .state import (
    B_KIND, SCR_UNSEEN, S_ADECK_SIZE, S_BURIED, S_FACE_UP, S_KNOWER, S_N_OFFER, S_N_PLAYERS, S_START,
    S_TDECK_HEAD, S_TDECK_SIZE, N_B, P_ALIVE, P_SCORE, P_WON, SCR_DRAWN, ADHIDDEN_AT, TF_COUNT,
    AF_COUNT, new_state,
    H_ADVENTURERS, H_TREASURES, af, tf,
)

# Per-seat settings row (bots.toml: [search] and a search bot's table), float64
CFG_ROLLOUTS = 0  # determinisations per searched decision; every candidate is played from each
CFG_CANDIDATES = 1  # options tried: the heuristic's best few bids or offers (a take has two)
CFG_MARGIN = 2  # rollout value per point of score margin over the best other player (tie-break)
CFG_CONFIDENCE = 3  # z: leave the heuristic's first choice only if an option beats it by z standard errors
CFG_HORIZON = 4  # search only once the treasure deck holds at most this many cards (public count)
CFG_ROLLOUT_NOISE = 5  # the heuristic's noise weight inside rollouts (every seat)
N_CFG = 6

CANDIDATE_STREAM = 1 << 30  # the rollout index of the stream the candidates are ranked with

# the search context (new_search_context), by position
CX_DET, CX_SIM, CX_POOL, CX_UTILITY, CX_VALUE, CX_SPREAD, CX_ORDER, CX_CANDS, CX_CHOSEN, CX_ROLL_CHOSEN, \
    CX_KINDS, CX_W, CX_COUNTER = range(13)


@njit(cache=True)
def new_search_context(params, n_players, n_weights):
    """Work space of one game's searches, allocated once per game (the rollouts allocate nothing).

    Two scratch states (the determinisation and the rollout played from it), a card pool, the
    options' utilities, the candidates' values, order and bids, the chosen-bids arrays, the rollout line-up (every
    seat heuristic) and the decision counter that keys each search's random streams.
    """
    n_cards = 0
    for t in range(params[H_TREASURES]):
        n_cards += tf(params, t, TF_COUNT)
    for a in range(params[H_ADVENTURERS]):
        n_cards += af(params, a, AF_COUNT)
    det = new_state(params, n_players, False)
    sim = new_state(params, n_players, False)
    n_options = det[14].shape[0]
    return (det, sim, np.zeros(n_cards + 1, np.int8), np.zeros(n_options, np.float64),
            np.zeros(n_options, np.float64), np.zeros(n_options, np.float64), np.zeros(n_options, np.int64), np.zeros((n_options, N_B), np.int16),
            np.full((n_players, N_B), R.ASK_BOT, np.int16), np.full((n_players, N_B), R.ASK_BOT, np.int16),
            np.full(n_players, bots.BOT_HEURISTIC, np.int8), np.zeros((n_players, n_weights), np.float64),
            np.zeros(1, np.int64))


# ------------------------------------------------------------------ copies and streams
@njit_noalloc
def copy_state(src, dst):
    """Copy a game state into another of the same shape (the event log excepted: copies keep none)."""
    copy_1d(src[0], dst[0])
    copy_2d(src[1], dst[1])
    copy_2d(src[2], dst[2])
    copy_1d(src[3], dst[3])
    copy_1d(src[4], dst[4])
    copy_1d(src[5], dst[5])
    copy_2d(src[6], dst[6])
    copy_1d(src[7], dst[7])
    copy_2d(src[8], dst[8])
    copy_2d(src[9], dst[9])
    copy_3d(src[10], dst[10])
    copy_3d(src[11], dst[11])
    copy_1d(src[12], dst[12])
    copy_2d(src[14], dst[14])
    copy_2d(src[15], dst[15])
    copy_2d(src[16], dst[16])
    copy_1d(src[ADHIDDEN_AT], dst[ADHIDDEN_AT])


@njit_noalloc
def copy_1d(src, dst):
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit_noalloc
def copy_2d(src, dst):
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit_noalloc
def copy_3d(src, dst):
    for i in range(src.shape[0]):
        copy_2d(src[i], dst[i])


# ------------------------------------------------------------------ determinisation
@njit_noalloc
def determinise(params, state, seat, pool, keep_bottom):
    """Deal again, in place, everything `seat` cannot see (see the module docstring).

    Counts stay: every other hand keeps its size, the deck and the unseen discards theirs, the
    box and the offer theirs; no card is created or lost. `keep_bottom` (during a bidding) keeps
    this round's buried card at the bottom of the treasure deck. Uses the state's own stream.
    """
    deal_adventurers(params, state, seat, pool)
    deal_treasures(params, state, seat, pool, keep_bottom)


@njit_noalloc
def deal_adventurers(params, state, seat, pool):
    """The others' hands, the adventurer deck and the unseen discards, pooled and dealt again."""
    n_a = params[H_ADVENTURERS]
    g, hands, adeck, adiscard, rng = state[0], state[1], state[4], state[5], state[12]
    adhidden = state[ADHIDDEN_AT]
    n_players = g[S_N_PLAYERS]
    counts = state[15][SCR_UNSEEN, :n_a]
    for a in range(n_a):
        counts[a] = adhidden[a]
        for p in range(n_players):
            if p != seat:
                counts[a] += hands[p, a]
    for i in range(g[S_ADECK_SIZE]):
        counts[adeck[i]] += 1
    n_hidden = 0
    for a in range(n_a):
        n_hidden += adhidden[a]
        adiscard[a] -= adhidden[a]
        adhidden[a] = 0
    k = lay_out_pool(counts, pool)
    rng_mod.shuffle(rng, pool, k)
    k = 0
    for p in range(n_players):
        if p == seat:
            continue
        size = hand_size(hands, p)
        for a in range(n_a):
            hands[p, a] = 0
        for _ in range(size):
            hands[p, pool[k]] += 1
            k += 1
    for _ in range(n_hidden):
        adiscard[pool[k]] += 1
        adhidden[pool[k]] += 1
        k += 1
    for i in range(g[S_ADECK_SIZE]):
        adeck[i] = pool[k]
        k += 1


@njit_noalloc
def lay_out_pool(counts, pool):
    """counts[kind] cards of each kind into pool, kind by kind; returns how many.

    Built from counts, never from where the cards lie, so the shuffled deal depends only on what
    the seat may know, not on the real game's hidden order.
    """
    k = 0
    for kind in range(counts.shape[0]):
        for _ in range(counts[kind]):
            pool[k] = kind
            k += 1
    return k


@njit_noalloc
def deal_treasures(params, state, seat, pool, keep_bottom):
    """The treasure deck, the boxed treasures and unseen face-down offers, pooled and dealt again."""
    n_t = params[H_TREASURES]
    g, tdeck, tout, offer, rng = state[0], state[3], state[6], state[7], state[12]
    n_deck = g[S_TDECK_SIZE]
    head, length = g[S_TDECK_HEAD], tdeck.shape[0]
    fixed_bottom = keep_bottom and g[S_FACE_UP] == 1 and g[S_BURIED] >= 0 and n_deck > 0
    n_free = n_deck - 1 if fixed_bottom else n_deck
    unseen_offer = g[S_FACE_UP] == 0  # the last round's cards, face down for everyone
    counts = state[15][SCR_UNSEEN, :n_t]
    n_box = 0
    for t in range(n_t):
        counts[t] = tout[0, t]
        n_box += tout[0, t]
        tout[0, t] = 0
    for i in range(n_free):
        counts[tdeck[(head + i) % length]] += 1
    if unseen_offer:
        for i in range(g[S_N_OFFER]):
            counts[offer[i]] += 1
    k = lay_out_pool(counts, pool)
    rng_mod.shuffle(rng, pool, k)
    k = 0
    for i in range(n_free):
        tdeck[(head + i) % length] = pool[k]
        k += 1
    for _ in range(n_box):
        tout[0, pool[k]] += 1
        k += 1
    if unseen_offer:
        for i in range(g[S_N_OFFER]):
            offer[i] = pool[k]
            k += 1
    if fixed_bottom and g[S_KNOWER] != seat and g[S_N_OFFER] >= 2:
        # the two cards this seat saw drawn and not shown: which is offered is a coin toss
        bottom = (head + n_deck - 1) % length
        low, high = min(tdeck[bottom], offer[1]), max(tdeck[bottom], offer[1])
        flip = rng_mod.randint(rng, 2) == 1
        offer[1] = high if flip else low
        tdeck[bottom] = low if flip else high
        g[S_BURIED] = tdeck[bottom]


# ------------------------------------------------------------------ rollouts
@njit_noalloc
def finish_game(params, state, kinds, w):
    """Heuristic play from the end of a round to the final scores."""
    while R.game_goes_on(state):
        R.play_round(params, state, kinds, w, False)
    R.final_scores(params, state, kinds, w)


@njit_noalloc
def finish_round_from_bids(params, state, kinds, w, chosen):
    """From the bidding on (chosen: any bids already decided), then the rest of the game."""
    R.collect_bids_chosen(params, state, kinds, w, chosen)
    outcome, winner = R.reveal_bids(params, state, False)
    R.settle_bidding(params, state, kinds, w, outcome, winner)
    R.close_round(params, state, kinds, w, outcome, False)
    finish_game(params, state, kinds, w)


@njit_noalloc
def rollout_value(state, seat, margin_weight):
    """1 for a win (split between shared winners) plus margin_weight per point over the best other.

    The margin separates options that win equally often (and is less noisy than the win itself);
    a small weight keeps it from trading a win for points.
    """
    g, pstat = state[0], state[9]
    n_players = g[S_N_PLAYERS]
    n_top = 0
    best_other = -1_000_000
    for p in range(n_players):
        n_top += pstat[p, P_WON]
        if p != seat and pstat[p, P_SCORE] > best_other:
            best_other = pstat[p, P_SCORE]
    value = margin_weight * (pstat[seat, P_SCORE] - best_other)
    if pstat[seat, P_WON] == 1:
        value += 1.0 / n_top
    return value


@njit_noalloc
def searching(state, cfg):
    """Whether this decision is searched: rollouts are set and the game is within the horizon.

    Late decisions are the cheap ones to play out (few rounds left) and the ones whose outcome
    the rollouts measure best; early ones are left to the heuristic.
    """
    return cfg[CFG_ROLLOUTS] > 0 and state[0][S_TDECK_SIZE] <= cfg[CFG_HORIZON]


@njit_noalloc
def choose_candidate(value, spread, n, cfg):
    """sim.core.search.pick_candidate with this bot's budget: the heuristic's first choice (0)
    unless another's mean beats it by `confidence` standard errors of the paired difference."""
    return pick_candidate(value, spread, n, cfg[CFG_ROLLOUTS], cfg[CFG_CONFIDENCE])


@njit_noalloc
def prepare_rollouts(state, ctx, seat, w_seat, cfg, run_seed, game_index):
    """Next decision number; the rollout line-up (every seat the heuristic with my weights, its
    noise set to rollout_noise); the candidate-ranking copy in ctx's rollout state, on its own
    stream."""
    sim, w_roll, counter = ctx[CX_SIM], ctx[CX_W], ctx[CX_COUNTER]
    decision = counter[0]
    counter[0] += 1
    for p in range(w_roll.shape[0]):
        for j in range(w_roll.shape[1]):
            w_roll[p, j] = w_seat[j]
        w_roll[p, bots.W_NOISE] = cfg[CFG_ROLLOUT_NOISE]
    copy_state(state, sim)
    seed_search_stream(sim[12], run_seed, game_index, decision, CANDIDATE_STREAM)
    return decision


@njit_noalloc
def determinisation(params, state, ctx, seat, run_seed, game_index, decision, rollout, keep_bottom):
    """Rollout `rollout`'s determinisation, in ctx's determinisation state."""
    det = ctx[CX_DET]
    copy_state(state, det)
    seed_search_stream(det[12], run_seed, game_index, decision, rollout)
    determinise(params, det, seat, ctx[CX_POOL], keep_bottom)
    return det


# ------------------------------------------------------------------ the searched decisions
@njit_noalloc
def search_bid(params, state, seat, w_seat, cfg, run_seed, game_index, ctx):
    """Bidding: the heuristic's best `candidates` legal bids, each played out `rollouts` times.

    Returns (kind, n, joker, joker_kind) like bots.choose_bid; kind -1 if there is no legal bid.
    Called before anyone bids: bids are laid face down, so the seat sees nothing more at its turn.
    """
    sim, utility, value, order, cands = ctx[CX_SIM], ctx[CX_UTILITY], ctx[CX_VALUE], ctx[CX_ORDER], ctx[CX_CANDS]
    spread = ctx[CX_SPREAD]
    decision = prepare_rollouts(state, ctx, seat, w_seat, cfg, run_seed, game_index)
    n_opts = list_legal_bids(params, sim[1][seat], sim[14])
    if n_opts == 0:
        return -1, 0, 0, -1
    bots.bid_utilities(params, sim, seat, w_seat, n_opts, utility)
    n_cand = top_candidates(utility, n_opts, int(cfg[CFG_CANDIDATES]), order)
    for c in range(n_cand):
        copy_1d(sim[14][order[c]], cands[c])
    best = 0
    if n_cand > 1 and searching(state, cfg):
        chosen = ctx[CX_ROLL_CHOSEN]
        for c in range(n_cand):
            value[c] = 0.0
            spread[c] = 0.0
        for r in range(int(cfg[CFG_ROLLOUTS])):
            det = determinisation(params, state, ctx, seat, run_seed, game_index, decision, r, True)
            for c in range(n_cand):
                copy_state(det, sim)
                for p in range(chosen.shape[0]):
                    chosen[p, B_KIND] = R.ASK_BOT
                copy_1d(cands[c], chosen[seat])
                finish_round_from_bids(params, sim, ctx[CX_KINDS], ctx[CX_W], chosen)
                record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
        best = choose_candidate(value, spread, n_cand, cfg)
    return cands[best, 0], cands[best, 1], cands[best, 2], cands[best, 3]


@njit_noalloc
def search_offer(params, state, seat, w_seat, cfg, run_seed, game_index, ctx):
    """Start player: the heuristic's best `candidates` of the six arrangements of the three drawn
    cards (scratch row SCR_DRAWN), each played out `rollouts` times. Returns (bottom, face-up)."""
    sim, utility, value, order, spread = ctx[CX_SIM], ctx[CX_UTILITY], ctx[CX_VALUE], ctx[CX_ORDER], ctx[CX_SPREAD]
    decision = prepare_rollouts(state, ctx, seat, w_seat, cfg, run_seed, game_index)
    bots.offer_utilities(params, sim, seat, w_seat, sim[15][SCR_DRAWN, :3], utility)
    n_cand = top_candidates(utility, 6, int(cfg[CFG_CANDIDATES]), order)
    best = 0
    if n_cand > 1 and searching(state, cfg):
        chosen = ctx[CX_ROLL_CHOSEN]
        for c in range(n_cand):
            value[c] = 0.0
            spread[c] = 0.0
        for r in range(int(cfg[CFG_ROLLOUTS])):
            det = determinisation(params, state, ctx, seat, run_seed, game_index, decision, r, False)
            for c in range(n_cand):
                copy_state(det, sim)
                bottom, up = bots.offer_choice(order[c])
                R.arrange_offer(params, sim, bottom, up)
                for p in range(chosen.shape[0]):
                    chosen[p, B_KIND] = R.ASK_BOT
                finish_round_from_bids(params, sim, ctx[CX_KINDS], ctx[CX_W], chosen)
                record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
        best = choose_candidate(value, spread, n_cand, cfg)
    return bots.offer_choice(order[best])


@njit_noalloc
def search_take(params, state, seat, w_seat, cfg, run_seed, game_index, outcome, ctx):
    """A winner who may take one of the two offered cards: both played out `rollouts` times
    (the heuristic's preference first). The last round's cards are alike to everyone: no search."""
    sim, value, spread = ctx[CX_SIM], ctx[CX_VALUE], ctx[CX_SPREAD]
    decision = prepare_rollouts(state, ctx, seat, w_seat, cfg, run_seed, game_index)
    first = bots.choose_take(params, sim, seat, bots.BOT_HEURISTIC, w_seat)
    if state[0][S_FACE_UP] == 0 or state[0][S_N_OFFER] != 2 or cfg[CFG_CANDIDATES] < 2 \
            or not searching(state, cfg):
        return first
    for c in range(2):
        value[c] = 0.0
        spread[c] = 0.0
    for r in range(int(cfg[CFG_ROLLOUTS])):
        det = determinisation(params, state, ctx, seat, run_seed, game_index, decision, r, True)
        for c in range(2):
            copy_state(det, sim)
            R.carry_out_bidding(params, sim, outcome, seat, first if c == 0 else 1 - first)
            R.close_round(params, sim, ctx[CX_KINDS], ctx[CX_W], outcome, False)
            finish_game(params, sim, ctx[CX_KINDS], ctx[CX_W])
            record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
    return first if choose_candidate(value, spread, 2, cfg) == 0 else 1 - first


# ------------------------------------------------------------------ the real game
@njit_noalloc
def play_round_search(params, state, kinds, w, cfg, run_seed, game_index, ctx, checked):
    """rules.play_round with the search seats' bids, offers and takes decided by search."""
    g, pstat = state[0], state[9]
    n_players = g[S_N_PLAYERS]
    if R.open_round(state):
        if R.draw_offer(params, state):
            start = g[S_START]
            if kinds[start] == bots.BOT_SEARCH:
                bottom, up = search_offer(params, state, start, w[start], cfg[start], run_seed, game_index, ctx)
            else:
                bottom, up = bots.choose_offer(params, state, start, kinds[start], w[start],
                                               state[15][SCR_DRAWN, :3])
            R.arrange_offer(params, state, bottom, up)
    chosen = ctx[CX_CHOSEN]
    for i in range(n_players):
        seat = (g[S_START] + i) % n_players
        chosen[seat, B_KIND] = R.ASK_BOT
        if kinds[seat] == bots.BOT_SEARCH and pstat[seat, P_ALIVE] == 1:
            kind, n, joker, joker_kind = search_bid(params, state, seat, w[seat], cfg[seat], run_seed,
                                                    game_index, ctx)
            chosen[seat, 0] = kind
            chosen[seat, 1] = n
            chosen[seat, 2] = joker
            chosen[seat, 3] = joker_kind
    R.collect_bids_chosen(params, state, kinds, w, chosen)
    outcome, winner = R.reveal_bids(params, state, checked)
    if outcome == R.OUT_WIN_ONE and kinds[winner] == bots.BOT_SEARCH:
        pick = search_take(params, state, winner, w[winner], cfg[winner], run_seed, game_index, outcome, ctx)
        R.carry_out_bidding(params, state, outcome, winner, pick)
    else:
        R.settle_bidding(params, state, kinds, w, outcome, winner)
    R.close_round(params, state, kinds, w, outcome, checked)


@njit(cache=True)
def play_game_search(params, state, n_players, kinds, w, cfg, run_seed, game_index, checked):
    """rules.play_game for a line-up with search seats (cfg: their budgets, one row per seat)."""
    ctx = new_search_context(params, n_players, w.shape[1])
    R.start_game(params, state, n_players, run_seed, game_index, checked)
    while R.game_goes_on(state):
        play_round_search(params, state, kinds, w, cfg, run_seed, game_index, ctx, checked)
    R.end_game(params, state, kinds, w, checked)
