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
  eliminated player put on the discard pile unseen (state S_ADHIDDEN_AT) are pooled and dealt again;
  the rest of the discard pile was played face up and stays;
- the treasure deck, the treasures boxed unseen at Setup and, in the last round, the face-down
  cards nobody has seen are pooled and dealt again. During a bidding the card the start player
  buried this round stays at the bottom; a seat that is not the start player knows only that it
  and the face-down card are the two it saw drawn, so they are swapped with probability 1/2;
- with `memory = 1` (the table's memory, noted by remember_* from what every seat sees) the cards
  seen going under a deck stay out of the pool: a rebuilt adventurer deck is dealt from the cards
  seen on the discard pile it was rebuilt from, and the cards put back under the treasure deck
  keep their places (shuffled within their round for every seat but its start player); only
  Setup's treasure cards still at the top are pooled with the box. With `memory = 0` they are
  pooled: losing knowledge, never gaining it;
- the copy's random stream is reseeded from (run seed, game index, decision number, rollout), so
  no rollout reads the real game's future, and a game's result depends only on (configuration,
  seed, game index).

Rollouts run rules.play_round with heuristic kinds only (a search kind plays as the heuristic in
bots.py), so the rules never call back into this module: no import cycle, no recursion.

Compile structure (issue 13): the searched decisions and the rollouts' orchestration are inlined
into play_game_search (each is called from one or two places), and they call the rules' round
and its steps compiled once (rules.round_level, reveal_level, close_level). Each compiled level
re-emits the machine code of everything it calls, and each inlined copy is typed again: as levels
of their own, with the round's steps inlined into them, these functions re-typed and re-emitted
the round several times over.
"""
import numpy as np
from numba import njit

from sim.core import rng as rng_mod
from sim.core.jit import njit_inline, njit_noalloc
from sim.core.search import pick_candidate, record_choice, record_paired, seed_search_stream, top_candidates
from . import bots
from . import rules as R
from .cards import hand_size, list_legal_bids
from .state import (
    B_KIND, N_B, P_ALIVE, P_SEARCH_STATS, SEARCH_BID, SEARCH_OFFER, SEARCH_TAKE, P_SCORE, P_WON, S_ADECK_AT, S_ADECK_SIZE, S_ADHIDDEN_AT, S_ADISCARD_AT,
    S_BOXED_AT, S_BURIED, S_FACE_UP, S_KNOWER, S_N_ADVENTURERS, S_N_OFFER, S_N_PLAYERS, S_N_TREASURES,
    S_OFFER_AT, S_OPTIONS_LEN, S_START, S_TDECK_AT, S_TDECK_LEN, S_TDECK_SIZE, SCR_UNSEEN, TF_COUNT, AF_COUNT,
    H_ADVENTURERS, H_TREASURES, LOGGING_OFF, af, copy_state, hand_at, new_log, new_state, option_at, rng_of, scratch_at,
    seat_at, tdeck_slot, tf,
)

# Per-seat settings row (bots.toml: [search] and a search bot's table), float64
CFG_ROLLOUTS = 0  # determinisations per searched decision; every candidate is played from each
CFG_CANDIDATES = 1  # options tried: the heuristic's best few bids or offers (a take has two)
CFG_MARGIN = 2  # rollout value per point of score margin over the best other player (tie-break)
CFG_CONFIDENCE = 3  # z: leave the heuristic's first choice only if an option beats it by z standard errors
CFG_HORIZON = 4  # search only once the treasure deck holds at most this many cards (public count)
CFG_ROLLOUT_NOISE = 5  # the heuristic's noise weight inside rollouts (every seat)
CFG_MEMORY = 6  # 1: determinisations keep what the table has seen go under the decks (remember_* below)
N_CFG = 7

# Flags and counts passed to compiled functions are np.int64 / np.bool_ values, never literals:
# Numba compiles a function again for each literal argument (see state.py).
UNCHECKED = np.bool_(False)  # rollouts run without the checked mode's invariant checks
DURING_BIDDING = np.bool_(True)  # determinise: this round's buried card stays at the bottom
BEFORE_BIDDING = np.bool_(False)
AFTER_REVEAL = np.bool_(True)  # remember_pile: note the discard pile
AFTER_ROUND = np.bool_(False)  # remember_pile: was it shuffled into the deck?
TAKE_OPTIONS = np.int64(2)  # a winner who takes one card chooses between the two offered
CANDIDATE_STREAM = np.int64(1 << 30)  # the rollout index of the stream the candidates are ranked with

# the search context (new_search_context), by position
CX_DET, CX_SIM, CX_NO_LOG, CX_POOL, CX_UTILITY, CX_VALUE, CX_SPREAD, CX_ORDER, CX_CANDS, CX_CHOSEN, \
    CX_ROLL_CHOSEN, CX_KINDS, CX_W, CX_COUNTER, CX_MEMORY = range(15)

# The table's memory (CX_MEMORY, one int64 array a game; every seat saw the same): by position,
# whether the adventurer deck has been rebuilt from the discard pile; the pile's size after this
# round's reveal; the treasure deck's cards from Setup still at its top (never seen); of the last
# round's face-down cards, how many were such; the treasure deck's size after this round's draw;
# this round's start player; the rounds played. Then (memory_at): per adventurer kind, the deck's
# cards when it was rebuilt, and the pile after this round's reveal; per treasure deck position,
# the round in which its card went back under, and that round's start player.
MEM_REBUILT, MEM_PILE_SIZE, MEM_SETUP_LEFT, MEM_UNSEEN_OFFER, MEM_DRAWN_SIZE, MEM_START, MEM_ROUND, MEM_FIXED = range(8)
MEM_REBUILT_AT, MEM_PILE_AT, MEM_GROUP_AT, MEM_KNOWER_AT = range(4)


@njit(cache=True)
def new_search_context(params, n_players, n_weights):
    """Work space of one game's searches, allocated once per game (the rollouts allocate nothing).

    Two scratch states (the determinisation and the rollout played from it), their log (logging
    off: a rollout never writes into the game's replay log), a card pool (room for two lists of
    every card), the options' utilities, the candidates' values, order and bids, the chosen-bids
    arrays, the rollout line-up (every seat heuristic), the decision counter that keys each
    search's random streams, and the table's memory.
    """
    n_cards = 0
    for t in range(np.int64(params[H_TREASURES])):
        n_cards += tf(params, t, TF_COUNT)
    for a in range(np.int64(params[H_ADVENTURERS])):
        n_cards += af(params, a, AF_COUNT)
    det = new_state(params, n_players)
    sim = new_state(params, n_players)
    n_options = det[S_OPTIONS_LEN]
    memory = np.zeros(MEM_FIXED + 2 * det[S_N_ADVENTURERS] + 2 * det[S_TDECK_LEN], np.int64)
    return (det, sim, new_log(LOGGING_OFF), np.zeros(2 * n_cards + 2, np.int64), np.zeros(n_options, np.float64),
            np.zeros(n_options, np.float64), np.zeros(n_options, np.float64), np.zeros(n_options, np.int64),
            np.zeros((n_options, N_B), np.int64),
            np.full((n_players, N_B), R.ASK_BOT, np.int64), np.full((n_players, N_B), R.ASK_BOT, np.int64),
            np.full(n_players, bots.BOT_HEURISTIC, np.int8), np.zeros((n_players, n_weights), np.float64),
            np.zeros(1, np.int64), memory)


# ------------------------------------------------------------------ determinisation
@njit_noalloc
def determinise(st, seat, pool, keep_bottom, memory, remember):
    """Deal again, in place, everything `seat` cannot see (see the module docstring).

    Counts stay: every other hand keeps its size, the deck and the unseen discards theirs, the
    box and the offer theirs; no card is created or lost. `keep_bottom` (during a bidding) keeps
    this round's buried card at the bottom of the treasure deck. With `remember`, the table's
    `memory` (remember_* below) says which cards were seen going under the decks: those are dealt
    as seen. Uses the state's own stream.
    """
    deal_adventurers(st, seat, pool, memory, remember)
    deal_treasures(st, seat, pool, keep_bottom, memory, remember)


@njit_noalloc
def deal_adventurers(st, seat, pool, memory, remember):
    """The others' hands, the adventurer deck and the unseen discards, pooled and dealt again.

    With `remember`, once the deck has been rebuilt from the discard pile (rules.reshuffle_adventurers)
    every card it holds was seen on that pile: the deck is dealt first from those cards still
    unseen (a random draw of them), the hands and the unseen discards from the rest. A card nobody
    has played since the rebuild (a leader kept in hand) is then never dealt into the deck.
    """
    n_a = st[S_N_ADVENTURERS]
    deck, discard, hidden = st[S_ADECK_AT], st[S_ADISCARD_AT], st[S_ADHIDDEN_AT]
    n_players = st[S_N_PLAYERS]
    counts = scratch_at(st, SCR_UNSEEN)
    for a in range(n_a):
        st[counts + a] = st[hidden + a]
        for p in range(n_players):
            if p != seat:
                st[counts + a] += st[hand_at(st, p) + a]
    for i in range(st[S_ADECK_SIZE]):
        st[counts + st[deck + i]] += 1
    n_hidden = 0
    for a in range(n_a):
        n_hidden += st[hidden + a]
        st[discard + a] -= st[hidden + a]
        st[hidden + a] = 0
    n_deck = st[S_ADECK_SIZE]
    from_pile = 0
    seen = pool[pool.shape[0] // 2:]
    if remember and memory[MEM_REBUILT] == 1:
        k = 0
        rebuilt = memory_at(st, MEM_REBUILT_AT)
        for a in range(n_a):
            for _ in range(min(memory[rebuilt + a], st[counts + a])):
                seen[k] = a
                k += 1
        from_pile = min(k, n_deck)
        rng_mod.draw_to_front(rng_of(st), seen, from_pile, k)  # a random from_pile of them
        for i in range(from_pile):
            st[counts + seen[i]] -= 1
    k = lay_out_pool(st, counts, n_a, pool)
    rng_mod.shuffle(rng_of(st), pool, k)
    k = 0
    for p in range(n_players):
        if p == seat:
            continue
        size = hand_size(st, p)
        hand = hand_at(st, p)
        for a in range(n_a):
            st[hand + a] = 0
        for _ in range(size):
            st[hand + pool[k]] += 1
            k += 1
    for _ in range(n_hidden):
        st[discard + pool[k]] += 1
        st[hidden + pool[k]] += 1
        k += 1
    for i in range(from_pile):
        st[deck + i] = seen[i]
    for i in range(from_pile, n_deck):
        st[deck + i] = pool[k]
        k += 1
    if 0 < from_pile < n_deck:
        rng_mod.shuffle(rng_of(st), st[deck:deck + n_deck], n_deck)


@njit_noalloc
def lay_out_pool(st, counts, n_kinds, pool):
    """st[counts + kind] cards of each kind into pool, kind by kind; returns how many.

    Built from counts, never from where the cards lie, so the shuffled deal depends only on what
    the seat may know, not on the real game's hidden order.
    """
    k = 0
    for kind in range(n_kinds):
        for _ in range(st[counts + kind]):
            pool[k] = kind
            k += 1
    return k


@njit_noalloc
def deal_treasures(st, seat, pool, keep_bottom, memory, remember):
    """The treasure deck, the boxed treasures and unseen face-down offers, pooled and dealt again.

    With `remember`, only the cards nobody has seen are pooled: the box, the deck's cards from
    Setup still at its top, and of the last round's face-down cards those drawn from them. Every
    card put back under the deck was seen drawn (Gameplay: the three drawn cards are shown) and
    what went back in a round is public (the cards taken are laid face up), so those keep their
    places; their order within their round is known only to its start player (shuffled for the others).
    """
    n_t = st[S_N_TREASURES]
    boxed, offer = st[S_BOXED_AT], st[S_OFFER_AT]
    n_deck = st[S_TDECK_SIZE]
    fixed_bottom = keep_bottom and st[S_FACE_UP] == 1 and st[S_BURIED] >= 0 and n_deck > 0
    n_under = n_deck - 1 if fixed_bottom else n_deck  # the deck above this round's buried card
    n_free = min(memory[MEM_SETUP_LEFT], n_under) if remember else n_under
    unseen_offer = st[S_FACE_UP] == 0  # the last round's cards, face down for everyone
    n_unseen_offer = min(memory[MEM_UNSEEN_OFFER], st[S_N_OFFER]) if remember else st[S_N_OFFER]
    counts = scratch_at(st, SCR_UNSEEN)
    n_box = 0
    for t in range(n_t):
        st[counts + t] = st[boxed + t]
        n_box += st[boxed + t]
        st[boxed + t] = 0
    for i in range(n_free):
        st[counts + st[tdeck_slot(st, i)]] += 1
    if unseen_offer:
        for i in range(n_unseen_offer):
            st[counts + st[offer + i]] += 1
    k = lay_out_pool(st, counts, n_t, pool)
    rng = rng_of(st)
    rng_mod.shuffle(rng, pool, k)
    k = 0
    for i in range(n_free):
        st[tdeck_slot(st, i)] = pool[k]
        k += 1
    for _ in range(n_box):
        st[boxed + pool[k]] += 1
        k += 1
    if unseen_offer:
        for i in range(n_unseen_offer):
            st[offer + i] = pool[k]
            k += 1
    if remember:
        shuffle_returns(st, seat, n_free, n_under, memory, pool)
    if fixed_bottom and st[S_KNOWER] != seat and st[S_N_OFFER] >= 2:
        # the two cards this seat saw drawn and not shown: which is offered is a coin toss
        bottom = tdeck_slot(st, n_deck - 1)
        low, high = min(st[bottom], st[offer + 1]), max(st[bottom], st[offer + 1])
        flip = rng_mod.randint(rng, bots.COIN) == 1
        st[offer + 1] = high if flip else low
        st[bottom] = low if flip else high
        st[S_BURIED] = st[bottom]


# ------------------------------------------------------------------ the table's memory
@njit_noalloc
def memory_at(st, part):
    """Where a per-kind or per-position part (MEM_*_AT) of the table's memory starts."""
    n_a, n_slots = st[S_N_ADVENTURERS], st[S_TDECK_LEN]
    if part == MEM_REBUILT_AT:
        return MEM_FIXED
    if part == MEM_PILE_AT:
        return MEM_FIXED + n_a
    if part == MEM_GROUP_AT:
        return MEM_FIXED + 2 * n_a
    return MEM_FIXED + 2 * n_a + n_slots


@njit_noalloc
def remember_setup(st, memory):
    """At Setup every card of the treasure deck is unseen."""
    memory[MEM_SETUP_LEFT] = st[S_TDECK_SIZE]


@njit_noalloc
def remember_draw(st, memory, size_before):
    """After a round's draw (or a two-player rebid's no draw): cards come off the top, so Setup's
    unseen cards go first; in the last round those among the face-down cards stay unseen."""
    drawn = size_before - st[S_TDECK_SIZE]
    from_setup = min(memory[MEM_SETUP_LEFT], drawn)
    memory[MEM_SETUP_LEFT] -= from_setup
    memory[MEM_UNSEEN_OFFER] = from_setup if st[S_FACE_UP] == 0 else 0
    memory[MEM_DRAWN_SIZE] = st[S_TDECK_SIZE]
    memory[MEM_START] = st[S_START]
    memory[MEM_ROUND] += 1


@njit_noalloc
def remember_pile(st, memory, after_reveal):
    """After the reveal (every bid is on the pile, and no draw has come yet): note the discard
    pile. After the round: a pile that shrank was shuffled into the adventurer deck (nothing else
    takes cards off it), so the deck's cards are the pile's as noted (its seen part)."""
    n_a = st[S_N_ADVENTURERS]
    discard, hidden = st[S_ADISCARD_AT], st[S_ADHIDDEN_AT]
    pile, rebuilt = memory_at(st, MEM_PILE_AT), memory_at(st, MEM_REBUILT_AT)
    size = 0
    for a in range(n_a):
        size += st[discard + a]
    if after_reveal:
        memory[MEM_PILE_SIZE] = size
        for a in range(n_a):
            memory[pile + a] = st[discard + a] - st[hidden + a]
    elif size < memory[MEM_PILE_SIZE]:
        memory[MEM_REBUILT] = 1
        for a in range(n_a):
            memory[rebuilt + a] = memory[pile + a]


@njit_noalloc
def remember_returns(st, memory):
    """After the round: the cards it put under the treasure deck (below where its draw left the
    deck) are marked with the round and its start player (who alone knows which was buried)."""
    group, knower = memory_at(st, MEM_GROUP_AT), memory_at(st, MEM_KNOWER_AT)
    for i in range(memory[MEM_DRAWN_SIZE], st[S_TDECK_SIZE]):
        at = tdeck_slot(st, i) - st[S_TDECK_AT]
        memory[group + at] = memory[MEM_ROUND]
        memory[knower + at] = memory[MEM_START]


@njit_noalloc
def shuffle_returns(st, seat, lo, hi, memory, pool):
    """The cards each round put under the deck (deck places lo..hi-1, round after round) shuffled
    among themselves, unless `seat` was that round's start player."""
    group, knower, base = memory_at(st, MEM_GROUP_AT), memory_at(st, MEM_KNOWER_AT), st[S_TDECK_AT]
    i = lo
    while i < hi:
        round_of = memory[group + tdeck_slot(st, i) - base]
        j = i
        while j < hi and memory[group + tdeck_slot(st, j) - base] == round_of:
            j += 1
        if memory[knower + tdeck_slot(st, i) - base] != seat and j - i > 1:
            for m in range(i, j):
                pool[m - i] = st[tdeck_slot(st, m)]
            rng_mod.shuffle(rng_of(st), pool, j - i)
            for m in range(i, j):
                st[tdeck_slot(st, m)] = pool[m - i]
        i = j


# ------------------------------------------------------------------ rollouts
@njit_inline
def finish_game(params, st, log, kinds, w):
    """Heuristic play from the end of a round to the final scores."""
    while R.game_goes_on(st):
        R.round_level(params, st, log, kinds, w, UNCHECKED)
    R.final_scores(params, st, log, kinds, w)


@njit_inline
def finish_round_from_bids(params, st, log, kinds, w, chosen):
    """From the bidding on (chosen: any bids already decided), then the rest of the game."""
    R.collect_bids_chosen(params, st, log, kinds, w, chosen)
    outcome, winner = R.reveal_level(params, st, log, UNCHECKED)
    R.settle_bidding(params, st, log, kinds, w, outcome, winner)
    R.close_level(params, st, log, kinds, w, outcome, UNCHECKED)
    finish_game(params, st, log, kinds, w)


@njit_noalloc
def rollout_value(st, seat, margin_weight):
    """1 for a win (split between shared winners) plus margin_weight per point over the best other.

    The margin separates options that win equally often (and is less noisy than the win itself);
    a small weight keeps it from trading a win for points.
    """
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
def searching(st, cfg):
    """Whether this decision is searched: rollouts are set and the game is within the horizon.

    Late decisions are the cheap ones to play out (few rounds left) and the ones whose outcome
    the rollouts measure best; early ones are left to the heuristic.
    """
    return cfg[CFG_ROLLOUTS] > 0 and st[S_TDECK_SIZE] <= cfg[CFG_HORIZON]


@njit_noalloc
def choose_candidate(st, seat, kind, value, spread, n, cfg):
    """sim.core.search.pick_candidate with this bot's budget: the heuristic's first choice (0)
    unless another's mean beats it by `confidence` standard errors of the paired difference;
    counted in the seat's search record under decision kind `kind` (state.SEARCH_KIND_NAMES)."""
    best = pick_candidate(value, spread, n, cfg[CFG_ROLLOUTS], cfg[CFG_CONFIDENCE])
    record_choice(st, seat_at(seat) + P_SEARCH_STATS, kind, value, cfg[CFG_ROLLOUTS], best)
    return best


@njit_noalloc
def prepare_rollouts(st, ctx, w_seat, cfg, run_seed, game_index):
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
    copy_state(st, sim)
    seed_search_stream(rng_of(sim), run_seed, game_index, decision, CANDIDATE_STREAM)
    return decision


@njit_noalloc
def determinisation(st, ctx, seat, cfg, run_seed, game_index, decision, rollout, keep_bottom):
    """Rollout `rollout`'s determinisation, into ctx's determinisation state."""
    det = ctx[CX_DET]
    copy_state(st, det)
    seed_search_stream(rng_of(det), run_seed, game_index, decision, rollout)
    determinise(det, seat, ctx[CX_POOL], keep_bottom, ctx[CX_MEMORY], cfg[CFG_MEMORY] == 1)


@njit_noalloc
def ask_bots(chosen):
    """No bid decided yet: every seat's bot decides at its turn (rules.collect_bids_chosen)."""
    for p in range(chosen.shape[0]):
        chosen[p, B_KIND] = R.ASK_BOT


# ------------------------------------------------------------------ the searched decisions
@njit_inline
def search_bid(params, st, seat, w_seat, cfg, run_seed, game_index, ctx):
    """Bidding: the heuristic's best `candidates` legal bids, each played out `rollouts` times.

    Returns (kind, n, joker, joker_kind) like bots.choose_bid; kind -1 if there is no legal bid.
    Called before anyone bids: bids are laid face down, so the seat sees nothing more at its turn.
    """
    det, sim, utility, value, order, cands = (ctx[CX_DET], ctx[CX_SIM], ctx[CX_UTILITY], ctx[CX_VALUE],
                                              ctx[CX_ORDER], ctx[CX_CANDS])
    spread = ctx[CX_SPREAD]
    no_log = ctx[CX_NO_LOG]
    decision = prepare_rollouts(st, ctx, w_seat, cfg, run_seed, game_index)
    n_opts = list_legal_bids(params, sim, seat)
    if n_opts == 0:
        return -1, 0, 0, -1
    bots.bid_utilities(params, sim, seat, w_seat, n_opts, utility)
    n_cand = top_candidates(utility, n_opts, int(cfg[CFG_CANDIDATES]), order)
    for c in range(n_cand):
        at = option_at(sim, order[c])
        for f in range(N_B):
            cands[c, f] = sim[at + f]
    best = 0
    if n_cand > 1 and searching(st, cfg):
        chosen = ctx[CX_ROLL_CHOSEN]
        for c in range(n_cand):
            value[c] = 0.0
            spread[c] = 0.0
        for r in range(int(cfg[CFG_ROLLOUTS])):
            determinisation(st, ctx, seat, cfg, run_seed, game_index, decision, r, DURING_BIDDING)
            for c in range(n_cand):
                copy_state(det, sim)
                ask_bots(chosen)
                for f in range(N_B):
                    chosen[seat, f] = cands[c, f]
                finish_round_from_bids(params, sim, no_log, ctx[CX_KINDS], ctx[CX_W], chosen)
                record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
        best = choose_candidate(st, seat, SEARCH_BID, value, spread, n_cand, cfg)
    return cands[best, 0], cands[best, 1], cands[best, 2], cands[best, 3]


@njit_inline
def search_offer(params, st, seat, w_seat, cfg, run_seed, game_index, ctx):
    """Start player: the heuristic's best `candidates` of the six arrangements of the three drawn
    cards (scratch row SCR_DRAWN), each played out `rollouts` times. Returns (bottom, face-up)."""
    det, sim, utility, value, order, spread = (ctx[CX_DET], ctx[CX_SIM], ctx[CX_UTILITY], ctx[CX_VALUE],
                                               ctx[CX_ORDER], ctx[CX_SPREAD])
    no_log = ctx[CX_NO_LOG]
    decision = prepare_rollouts(st, ctx, w_seat, cfg, run_seed, game_index)
    bots.offer_utilities(params, sim, seat, w_seat, utility)
    n_cand = top_candidates(utility, bots.ARRANGEMENTS, int(cfg[CFG_CANDIDATES]), order)
    best = 0
    if n_cand > 1 and searching(st, cfg):
        chosen = ctx[CX_ROLL_CHOSEN]
        for c in range(n_cand):
            value[c] = 0.0
            spread[c] = 0.0
        for r in range(int(cfg[CFG_ROLLOUTS])):
            determinisation(st, ctx, seat, cfg, run_seed, game_index, decision, r, BEFORE_BIDDING)
            for c in range(n_cand):
                copy_state(det, sim)
                bottom, up = bots.offer_choice(order[c])
                R.arrange_offer(sim, no_log, bottom, up)
                ask_bots(chosen)
                finish_round_from_bids(params, sim, no_log, ctx[CX_KINDS], ctx[CX_W], chosen)
                record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
        best = choose_candidate(st, seat, SEARCH_OFFER, value, spread, n_cand, cfg)
    return bots.offer_choice(order[best])


@njit_inline
def search_take(params, st, seat, w_seat, cfg, run_seed, game_index, outcome, ctx):
    """A winner who may take one of the two offered cards: both played out `rollouts` times
    (the heuristic's preference first). The last round's cards are alike to everyone: no search."""
    det, sim, value, spread = ctx[CX_DET], ctx[CX_SIM], ctx[CX_VALUE], ctx[CX_SPREAD]
    no_log = ctx[CX_NO_LOG]
    decision = prepare_rollouts(st, ctx, w_seat, cfg, run_seed, game_index)
    first = bots.choose_take(params, sim, seat, ctx[CX_KINDS][seat], w_seat)  # the heuristic's choice
    if st[S_FACE_UP] == 0 or st[S_N_OFFER] != 2 or cfg[CFG_CANDIDATES] < 2 or not searching(st, cfg):
        return first
    for c in range(TAKE_OPTIONS):
        value[c] = 0.0
        spread[c] = 0.0
    for r in range(int(cfg[CFG_ROLLOUTS])):
        determinisation(st, ctx, seat, cfg, run_seed, game_index, decision, r, DURING_BIDDING)
        for c in range(TAKE_OPTIONS):
            copy_state(det, sim)
            R.carry_out_bidding(params, sim, no_log, outcome, seat, first if c == 0 else 1 - first)
            R.close_level(params, sim, no_log, ctx[CX_KINDS], ctx[CX_W], outcome, UNCHECKED)
            finish_game(params, sim, no_log, ctx[CX_KINDS], ctx[CX_W])
            record_paired(value, spread, c, rollout_value(sim, seat, cfg[CFG_MARGIN]))
    return first if choose_candidate(st, seat, SEARCH_TAKE, value, spread, TAKE_OPTIONS, cfg) == 0 else 1 - first


# ------------------------------------------------------------------ the real game
@njit_inline
def play_round_search(params, st, log, kinds, w, cfg, run_seed, game_index, ctx, checked):
    """rules.play_round with the search seats' bids, offers and takes decided by search."""
    n_players = st[S_N_PLAYERS]
    memory = ctx[CX_MEMORY]
    size_before = st[S_TDECK_SIZE]
    if R.open_round(st, log):
        offered = R.draw_offer(params, st, log)
        remember_draw(st, memory, size_before)
        if offered:
            start = st[S_START]
            if kinds[start] == bots.BOT_SEARCH:
                bottom, up = search_offer(params, st, start, w[start], cfg[start], run_seed, game_index, ctx)
            else:
                bottom, up = bots.choose_offer(params, st, start, kinds[start], w[start])
            R.arrange_offer(st, log, bottom, up)
    else:
        remember_draw(st, memory, size_before)  # a two-player rebid: the same offer, nothing drawn
    chosen = ctx[CX_CHOSEN]
    for i in range(n_players):
        seat = (st[S_START] + i) % n_players
        chosen[seat, B_KIND] = R.ASK_BOT
        if kinds[seat] == bots.BOT_SEARCH and st[seat_at(seat) + P_ALIVE] == 1:
            kind, n, joker, joker_kind = search_bid(params, st, seat, w[seat], cfg[seat], run_seed, game_index,
                                                    ctx)
            chosen[seat, 0] = kind
            chosen[seat, 1] = n
            chosen[seat, 2] = joker
            chosen[seat, 3] = joker_kind
    R.collect_bids_chosen(params, st, log, kinds, w, chosen)
    outcome, winner = R.reveal_level(params, st, log, checked)
    remember_pile(st, memory, AFTER_REVEAL)
    if outcome == R.OUT_WIN_ONE and kinds[winner] == bots.BOT_SEARCH:
        pick = search_take(params, st, winner, w[winner], cfg[winner], run_seed, game_index, outcome, ctx)
        R.carry_out_bidding(params, st, log, outcome, winner, pick)
    else:
        R.settle_bidding(params, st, log, kinds, w, outcome, winner)
    R.close_level(params, st, log, kinds, w, outcome, checked)
    remember_pile(st, memory, AFTER_ROUND)
    remember_returns(st, memory)


@njit(cache=True)
def play_game_search(params, st, log, kinds, w, cfg, run_seed, game_index, checked):
    """rules.play_game for a line-up with search seats (cfg: their budgets, one row per seat)."""
    ctx = new_search_context(params, st[S_N_PLAYERS], w.shape[1])
    R.start_game(params, st, log, run_seed, game_index, checked)
    remember_setup(st, ctx[CX_MEMORY])
    while R.game_goes_on(st):
        play_round_search(params, st, log, kinds, w, cfg, run_seed, game_index, ctx, checked)
    R.end_game(params, st, log, kinds, w, checked)
