"""Pieces of a flat Monte-Carlo search bot that do not depend on the game: plain @njit functions.

A search bot (a game's kind "search") tries a few candidate choices at a decision by playing each
out from determinisations (copies of the game with what its seat cannot see dealt again), every
candidate of one rollout from the same copy and stream (common random numbers). What any game's
search needs besides its rules:

- `seed_search_stream`: the random stream of one rollout of one decision, derived from
  (run seed, game index, decision number, rollout) alone, never from the game's own stream, so
  a search neither reads nor advances the real game's randomness and a game's result still
  depends only on its configuration, seed and index;
- `top_candidates`: the indices of the heuristic's best few options, best first;
- `record_paired` and `pick_candidate`: each candidate's rollout values summed, with the squared
  differences from candidate 0 on the same rollout, and the choice that leaves candidate 0 (the
  heuristic's own) only for one whose mean is better by `confidence` standard errors of the paired
  difference; confidence 0 is the plain best total (ties to the lower index).

Both games' search bots (sim/games/*/search.py) are built on them; Cuzco keeps its own rollout
streams (search.rollout_stream), which its recorded games were played with.
"""
import numpy as np

from sim.core import rng as rng_mod
from sim.core.jit import njit_noalloc

SEARCH_SALT = np.uint64(0x5EA5C4B07D1CE5ED)  # keeps search streams apart from every game's stream
DECISION_STRIDE = np.uint64(0x9E3779B97F4A7C15)


@njit_noalloc
def seed_search_stream(rng, run_seed, game_index, decision, rollout):
    """Seed `rng` (a sim.core.rng state) with the stream of rollout `rollout` of decision number
    `decision` (0, 1, ... in the game's order) of game `game_index` of the run `run_seed`.

    Derived with the run's splitmix64 seeding from the salted run seed, never from the game's own
    stream; distinct (decision, rollout) pairs get unrelated streams.
    """
    rng_mod.seed_game_stream(rng, np.uint64(run_seed) ^ SEARCH_SALT, game_index)
    key = rng_mod.next_u64(rng) ^ (np.uint64(decision + 1) * DECISION_STRIDE)
    rng_mod.seed_game_stream(rng, key, np.uint64(rollout))


@njit_noalloc
def top_candidates(utility, n, k, order):
    """The indices of the k highest of utility[:n] into order[:k], best first (ties: lower index);
    returns min(k, n)."""
    k = min(k, n)
    for c in range(k):
        best = -1
        for i in range(n):
            taken = False
            for j in range(c):
                if order[j] == i:
                    taken = True
                    break
            if not taken and (best < 0 or utility[i] > utility[best]):
                best = i
        order[c] = best
    return k


@njit_noalloc
def record_paired(value, spread, c, v):
    """Add candidate c's rollout value v. value[c] sums the values; spread[c] sums the squared
    differences from candidate 0's value on the same rollout, so candidate 0 is recorded first in
    each rollout (spread[0] holds its value meanwhile). Zero both arrays before the first rollout."""
    value[c] += v
    if c == 0:
        spread[0] = v
    else:
        spread[c] += (v - spread[0]) ** 2


@njit_noalloc
def pick_candidate(value, spread, n, n_rollouts, confidence):
    """The candidate to play among n recorded over n_rollouts rollouts: 0 (the heuristic's first
    choice) unless another's mean beats it by `confidence` standard errors of the paired difference;
    of several, the one with the highest such lower bound (ties: the lower index).

    A plain best mean would follow the noise of a few rollouts away from a good heuristic choice
    as often as it finds a better one (the more candidates, the worse).
    """
    best = 0
    best_bound = 0.0
    for c in range(1, n):
        mean = (value[c] - value[0]) / n_rollouts
        var = max(spread[c] / n_rollouts - mean * mean, 0.0)
        bound = mean - confidence * np.sqrt(var / n_rollouts)
        if bound > best_bound:
            best_bound = bound
            best = c
    return best


# ------------------------------------------------------------------ where the search leaves its heuristic
# Each game keeps, per seat and per decision kind, three counters (a block of STAT_WORDS state words):
# decisions searched, decisions where the search left the heuristic's first choice, and the sum of
# the rollout-value gaps of those (the kept candidate's mean less the heuristic's first's, in
# millionths of the game's rollout value). They become the players-table columns named by
# search_choice_columns, which `sim search-map` reads: the map of where the heuristics are weakest.
STAT_SEARCHED = 0
STAT_LEFT = 1
STAT_GAP = 2
STAT_WORDS = 3
GAP_SCALE = 1_000_000.0  # the gap column's unit: millionths of a rollout value


@njit_noalloc
def record_choice(st, first, kind, value, n_rollouts, best):
    """Count one searched decision of kind `kind` into its block of a seat's counters, which start
    at st[first] (see above); `best` is pick_candidate's answer over `value` (the candidates'
    rollout sums)."""
    at = first + kind * STAT_WORDS
    st[at + STAT_SEARCHED] += 1
    if best != 0:
        st[at + STAT_LEFT] += 1
        st[at + STAT_GAP] += np.int64(np.round(GAP_SCALE * (value[best] - value[0]) / n_rollouts))


SEARCH_COLUMN = "search_"  # search_<kind>_searched, search_<kind>_left, search_<kind>_gap
STAT_SUFFIXES = ("searched", "left", "gap")


def search_choice_columns(first_field: int, kind_names: tuple[str, ...]) -> list[tuple[str, int, type]]:
    """Players-table columns (name, field, dtype) of the counters of each decision kind, whose blocks
    start at seat field `first_field` in kind order."""
    return [(f"{SEARCH_COLUMN}{kind}_{suffix}", first_field + k * STAT_WORDS + j,
             np.int64 if suffix == "gap" else np.int32)
            for k, kind in enumerate(kind_names) for j, suffix in enumerate(STAT_SUFFIXES)]
