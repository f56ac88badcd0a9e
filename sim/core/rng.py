"""Per-game random streams: xoshiro256** seeded by splitmix64 from (run seed, game index).

Game i of a run always gets the same stream, whatever the chunking, worker count or backend,
because its generator state is derived from (run_seed, i) alone and kept in a small explicit
array (Numba's global np.random is not reproducible per thread inside prange).

State: a uint64 array of length 4. All functions are Numba-compiled; under NUMBA_DISABLE_JIT=1
they run as plain Python on NumPy scalars (callers wrap that in np.errstate(over="ignore")).
"""
import numpy as np

from .jit import njit_noalloc, njit_typed

STATE_WORDS = 4

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_GAME_STRIDE = np.uint64(0xD1B54A32D192ED03)


@njit_noalloc
def _splitmix64(x):
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit_noalloc
def seed_game_stream(state, run_seed, game_index):
    """Fill `state` with the stream of game `game_index` of the run seeded by `run_seed`."""
    x = _splitmix64(np.uint64(run_seed)) ^ (np.uint64(game_index) * _GAME_STRIDE)
    for k in range(STATE_WORDS):
        x = _splitmix64(x + np.uint64(k + 1))
        state[k] = x
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN


# Declared signatures: callers pass int32 or int64 counts, literal constants (randint(rng, 6)) and
# int32 or int64 arrays; without them Numba compiles a version per combination (11 for these three).
@njit_typed("uint64(uint64, int64)")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit_noalloc
def next_u64(state):
    """xoshiro256** step."""
    result = _rotl(state[1] * np.uint64(5), 7) * np.uint64(9)
    t = state[1] << np.uint64(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit_typed("int64(uint64[::1], int64)")
def randint(state, n):
    """Uniform integer in [0, n) for n >= 1 (multiply-shift on the top 32 bits; bias < 2^-32 * n)."""
    top = next_u64(state) >> np.uint64(32)
    return np.int64((top * np.uint64(n)) >> np.uint64(32))


@njit_noalloc
def uniform(state):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit_typed(["void(uint64[::1], int32[::1], int64)", "void(uint64[::1], int64[::1], int64)"])
def shuffle(state, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit_typed(["void(uint64[::1], int32[::1], int64, int64)", "void(uint64[::1], int64[::1], int64, int64)"])
def draw_to_front(state, arr, m, n):
    """Make arr[:m] a uniform random draw of m of arr[:n]'s items, without replacement, in place
    (the first m steps of a Fisher-Yates shuffle run from the front; the rest of arr[:n] keeps
    the others): a sample of a pool without shuffling all of it."""
    for i in range(m):
        j = i + randint(state, n - i)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
