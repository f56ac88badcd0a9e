"""`sim tune GAME --bot NAME` (sim/cli/bots.py): tune a heuristic bot's weights by CMA-ES, playing against a pool of bots.

Fitness of a weight vector: the candidate plays `games` games as one of P players against P-1 bots
of the pool. Line-ups come round-robin from the pool (block b of P games seats pool bots
b(P-1) .. b(P-1)+P-2, modulo the pool) and each block is played with the line-up rotated through
every seat, so every candidate meets every pool bot equally often in every seat. With --permute-seats
each block is P! games instead: the block's line-up in every ordering (sim.core.lineup.seat_orders),
so the candidate also sits just before and just after each opponent equally often; in a game where
who sits before whom matters (Machu Picchu: a bot moves by up to 9 points between cyclic orders of
one line-up) a rotated tune optimises against one seating of its opponents, not against them. The
game count is rounded up to whole cycles of that schedule. Every candidate of a generation plays the same games
(same run seed and game indices: common random numbers), and the run seed changes from one
generation to the next, so CMA-ES ranks candidates on equal terms without overfitting one set of deals.

The fitness is the candidate's win rate (the players table's `won`, as `sim summary` counts it:
a shared win counts as a win; a game without a winner, a stalemate, counts neither as a win nor as
a game played, and the provenance says how many there were when there were any). Among candidates with the same number of wins, the larger mean score
margin (own score minus the best opponent's) ranks higher: the margin enters as a term smaller than
half a game's worth of win rate, so it orders ties and never outweighs a win.

Search space: CMA-ES moves x in R^d, one coordinate per weight, bounded to [-ln F, ln F] (F = 10).
A weight w0 != 0 becomes w0 * exp(x): a multiplicative factor between 1/10 and 10 that keeps its
sign (a non-negative weight stays non-negative). A weight w0 == 0 becomes r * max(x, 0), with r the
median magnitude of the bot's non-zero weights: it can grow from zero but never turns negative.
The result is the distribution mean after the last generation, rounded to 4 significant digits,
then measured on the last generation's games (final fitness) and on fresh held-out games against
the same pool, beside the base bot on the same games (validation).

The optimiser state is pickled after every generation (written aside, then renamed), with a JSON log
of the generations; `--resume` continues it and gives the result an uninterrupted run gives. NTBEA
is not offered: --optimizer accepts only cma.
"""
from __future__ import annotations

import datetime as dt
import json
import math
import os
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numba
import numpy as np
from tqdm import tqdm

from sim.core.bots_file import TUNED_SUFFIX, tuned_from
from sim.core.dataset import write_bytes_atomic
from sim.core.errors import EngineFailure, Interrupted, UserError
from sim.core.game import Params
from sim.core.lineup import seating_words
from sim.core.params import strip_provenance
from sim.core.stats import has_winner, rate_ci

MAX_SEED = 2**63 - 1
OPTIMIZERS = ("cma",)
DEFAULT_GAMES = 400
DEFAULT_GENERATIONS = 30
DEFAULT_SIGMA = 0.3
DEFAULT_VALIDATION_GAMES = 2000
FACTOR_BOUND = 10.0  # a non-zero weight moves between w0 / 10 and w0 * 10
STATE_FORMAT = 1
# Seed streams derived from --seed: one per generation, the validation games, CMA-ES's sampling.
STREAM_GENERATION, STREAM_VALIDATION, STREAM_SAMPLING = 0, 1, 2


def derived_seed(seed: int, *key: int) -> int:
    """A run seed for one purpose (a generation, the validation games), a function of --seed alone."""
    state = np.random.SeedSequence(seed, spawn_key=key).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


class SeededNormal:
    """CMA-ES's N(0, 1) sampler from its own generator, so the pickled optimiser carries its randomness."""

    def __init__(self, seed: int):
        self.generator = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM_SAMPLING,)))

    def __call__(self, *shape: int) -> np.ndarray:
        return self.generator.standard_normal(shape)


class WeightSpace:
    """CMA-ES coordinates <-> engine weights (see the module docstring)."""

    def __init__(self, base: np.ndarray, factor: float = FACTOR_BOUND, tuned: int | None = None):
        """`tuned`: how many leading weights are searched (the rest, e.g. a search bot's budget,
        stay as in `base`)."""
        self.full = np.asarray(base, dtype=np.float64)
        self.base = self.full[:tuned] if tuned is not None else self.full
        self.bound = math.log(factor)
        nonzero = np.abs(self.base[self.base != 0])
        self.zero_scale = float(np.median(nonzero)) if nonzero.size else 1.0

    @property
    def dimension(self) -> int:
        return self.base.size

    def weights(self, x: np.ndarray) -> np.ndarray:
        x = np.clip(np.asarray(x, dtype=np.float64), -self.bound, self.bound)
        weights = self.full.copy()
        weights[:self.base.size] = np.where(self.base != 0, self.base * np.exp(x), self.zero_scale * np.maximum(x, 0.0))
        return weights

    def describe(self) -> str:
        return (f"w = w0 * exp(x) for w0 != 0 (factor within 1/{FACTOR_BOUND:g} .. {FACTOR_BOUND:g}, sign kept); "
                f"w = {self.zero_scale:.4g} * max(x, 0) for w0 == 0; x bounded to +-ln {FACTOR_BOUND:g}")


def rounded(weights: np.ndarray, digits: int = 4) -> np.ndarray:
    """Weights as written to the TOML file (so the measured bot is exactly the written one)."""
    return np.array([float(f"{w:.{digits}g}") for w in weights], np.float64)


def block_games(n_players: int, permute: bool = False) -> int:
    """Games of one line-up of the schedule: its P rotations, or with permute its P! orderings."""
    return math.factorial(n_players) if permute else n_players


def lineup_schedule(n_games: int, n_players: int, pool_size: int, permute: bool = False) -> np.ndarray:
    """int8 [n_games, P]: 0 is the candidate, j >= 1 is pool entry j-1 (see the module docstring);
    each block's line-up seated as `sim run` seats one (sim.core.lineup.seat_bot_matrix)."""
    from sim.core.lineup import seat_bot_matrix

    opponents = n_players - 1
    per_block = block_games(n_players, permute)
    rows = np.empty((n_games, n_players), np.int8)
    for first in range(0, n_games, per_block):
        block = first // per_block
        lineup = np.array([0] + [1 + (block * opponents + k) % pool_size for k in range(opponents)], np.int8)
        count = min(per_block, n_games - first)
        rows[first:first + count] = seat_bot_matrix(lineup, first, count, not permute, permute)
    return rows


def schedule_cycle(n_players: int, pool_size: int, permute: bool = False) -> int:
    """Games after which the schedule repeats: every pool bot met equally often in every seat (and
    with permute, in every ordering)."""
    return block_games(n_players, permute) * pool_size // math.gcd(pool_size, n_players - 1)


def games_per_evaluation(requested: int, n_players: int, pool_size: int, permute: bool = False) -> int:
    cycle = schedule_cycle(n_players, pool_size, permute)
    return -(-requested // cycle) * cycle


@dataclass(frozen=True)
class Evaluation:
    """A weight vector's games: wins and games counted for its win rate (games without a winner,
    `no_winner`, are left out of both; sim/core/stats.py), and its mean score margin over every game."""

    wins: int
    games: int
    mean_margin: float
    no_winner: int = 0

    @property
    def played(self) -> int:
        """Every game played, with a winner or without."""
        return self.games + self.no_winner

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def objective(self) -> float:
        """Win rate, ties ordered by mean margin (the margin term stays below half a game)."""
        return self.win_rate + (0.5 + math.atan(self.mean_margin) / math.pi) / (2 * max(self.games, 1))

    def interval(self) -> tuple[float, float]:
        _, lo, hi = rate_ci(self.wins, self.games, "wilson")
        return float(lo), float(hi)


def combined(evaluations: list[Evaluation]) -> Evaluation:
    """One evaluation of several sets of games (one per variant): wins and games added, margins weighted by games."""
    played = sum(e.played for e in evaluations)
    margin = sum(e.mean_margin * e.played for e in evaluations) / played if played else 0.0
    return Evaluation(wins=sum(e.wins for e in evaluations), games=sum(e.games for e in evaluations),
                      mean_margin=margin, no_winner=sum(e.no_winner for e in evaluations))


class Evaluator:
    """Plays a weight vector (seated as the candidate) against the pool on a given run seed.

    `params` is one variant or a list of them: with several, the candidate plays the same `n_games`
    schedule under each (same run seed) and the evaluation adds them up, so a bot tuned for a game
    with and without a module is judged on both.
    """

    def __init__(self, game: Any, params: Params | list[Params], n_players: int, bot: str, pool: list[str],
                 n_games: int, permute: bool = False):
        self.params_list = list(params) if isinstance(params, (list, tuple)) else [params]
        self.game, self.params, self.n_players, self.n_games = game, self.params_list[0], n_players, n_games
        self.kind = game.bots()[bot].kind
        self.candidate = f"{bot} (candidate)"
        distinct = list(dict.fromkeys(pool))
        self.bot_names = [self.candidate] + distinct
        schedule = lineup_schedule(n_games, n_players, len(pool), permute)
        to_name = np.array([0] + [1 + distinct.index(name) for name in pool], np.int8)
        self.seat_bots = to_name[schedule]
        self.candidate_seat = np.argmax(self.seat_bots == 0, axis=1)

    def warm_up(self, weights: np.ndarray) -> None:
        """Play one game so Numba compiles (or loads from its cache) before the clock and the bar start."""
        from sim.core.backends import simulate_chunk

        game = self.game.with_bot(self.candidate, weights, "tuning candidate", kind=self.kind)
        for params in self.params_list:
            simulate_chunk(game, params, self.n_players, self.bot_names, self.seat_bots[:1], 0, 0, 1, False)

    @property
    def games_played(self) -> int:
        """Games one evaluation plays, over every variant."""
        return self.n_games * len(self.params_list)

    def evaluate(self, weights: np.ndarray, run_seed: int) -> Evaluation:
        return combined([self.evaluate_variant(params, weights, run_seed) for params in self.params_list])

    def evaluate_variant(self, params: Params, weights: np.ndarray, run_seed: int) -> Evaluation:
        from sim.core.backends import simulate_chunk

        game = self.game.with_bot(self.candidate, weights, "tuning candidate", kind=self.kind)
        result = simulate_chunk(game, params, self.n_players, self.bot_names, self.seat_bots, run_seed,
                                0, self.n_games, False)
        if result.failures:
            index, message = min(result.failures)
            raise EngineFailure(f"engine failure in game {index} of run seed {run_seed} ({params.variant_name}) while tuning "
                                f"(candidate weights {np.array2string(np.asarray(weights), precision=4)}): "
                                f"{' '.join(str(message).split())}")
        games = np.arange(self.n_games)
        won = np.asarray(result.player_columns["won"]).reshape(self.n_games, self.n_players).astype(bool)
        wins = int(won[games, self.candidate_seat].sum())
        no_winner = int(np.count_nonzero(~has_winner(won)))
        margin = 0.0
        if "score" in result.player_columns:
            score = np.asarray(result.player_columns["score"], np.float64).reshape(self.n_games, self.n_players)
            own = score[games, self.candidate_seat]
            others = score.copy()
            others[games, self.candidate_seat] = -np.inf
            margin = float(np.mean(own - others.max(axis=1)))
        return Evaluation(wins=wins, games=self.n_games - no_winner, mean_margin=margin, no_winner=no_winner)


@dataclass
class TuneSettings:
    """What a tune is asked to do (the command line's options, resolved)."""

    bot: str
    pool: list[str] | None = None
    start: str | None = None  # a bot of the same kind whose weights the search starts from (default: `bot`'s)
    players: int | None = None
    games: int = DEFAULT_GAMES
    generations: int = DEFAULT_GENERATIONS
    popsize: int | None = None
    sigma: float = DEFAULT_SIGMA
    seed: int = 0
    optimizer: str = "cma"
    validation_games: int = DEFAULT_VALIDATION_GAMES
    state: Path | None = None
    out: Path | None = None
    resume: bool = False
    workers: int = os.cpu_count() or 1
    progress: bool = True
    command: str | None = None
    name: str | None = None  # the tuned bot's name (default <bot>-tuned; a league names its generations)
    permute: bool = False  # every ordering of each line-up (--permute-seats), not only its rotations
    description: str | None = None  # its description's opening (default "<bot> tuned by CMA-ES")


@dataclass
class TuneResult:
    name: str
    out: Path
    weights: dict[str, float]
    final: Evaluation
    validation: Evaluation
    base_validation: Evaluation
    log: list[dict[str, Any]]
    provenance: dict[str, Any]
    start_validation: Evaluation | None = None  # the --start bot on the same held-out games


def default_pool(game: Any, bot: str) -> list[str]:
    """The game's other bots of the tuned bot's kind (its heuristics), tuned ones (sim tune's and
    sim league's) left out."""
    others = [name for name in game.bots() if name != bot and tuned_from(name) is None]
    alike = [name for name in others if game.kind_name(name) == game.kind_name(bot)]
    return alike or others


def default_state_path(game_name: str, bot: str, n_players: int, seed: int) -> Path:
    return Path("data") / "tune" / f"{game_name}-{bot}-{n_players}p-s{seed}.state.pkl"


def tuned_log_path(out_path: Path, name: str) -> Path:
    """Where a finished tune keeps its per-generation log beside the tuned-bots file (committed with
    the weights, for the tuning report): tune_logs/<name>.log.json."""
    folder = Path(out_path).parent / "tune_logs"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{name}.log.json"


def log_path(state_path: Path) -> Path:
    return state_path.with_name(state_path.name.removesuffix(".pkl") + ".log.json")


def variant_label(variants: list[Params]) -> str:
    """The variant (or variants, joined by " + ") a tune plays."""
    return " + ".join(params.variant_name for params in variants)


def _check_settings(game: Any, variants: list[Params], s: TuneSettings) -> tuple[int, list[str]]:
    """(player count, pool) after every check a tune needs, before anything is played or written."""
    known = game.bots()
    if s.bot not in known:
        raise UserError(f"unknown bot '{s.bot}' for {game.name} (known: {', '.join(known)})")
    if not game.weight_names(s.bot):
        raise UserError(f"bot '{s.bot}' of {game.name} is of kind {game.kind_name(s.bot)}, which has no weights "
                        f"to tune (pick a heuristic bot)")
    if s.start is not None:
        if s.start not in known:
            raise UserError(f"--start: unknown bot '{s.start}' for {game.name} (known: {', '.join(known)})")
        if game.weight_names(s.start) != game.weight_names(s.bot):
            raise UserError(f"--start: bot '{s.start}' is not of the kind of '{s.bot}' (its weights differ)")
    pool = list(s.pool) if s.pool is not None else default_pool(game, s.bot)
    if not pool or any(not name for name in pool):
        raise UserError("--pool must name at least one bot, without empty names")
    for name in pool:
        if name not in known:
            raise UserError(f"--pool: unknown bot '{name}' for {game.name} (known: {', '.join(known)})")
    n_players = game.default_players if s.players is None else s.players
    for params in variants:
        allowed = tuple(game.allowed_players(params))
        if n_players not in allowed:
            raise UserError(f"{game.name} ({params.variant_name}) is played by {', '.join(map(str, allowed))} "
                            f"players, not {n_players}")
    for option, value, least in (("--games", s.games, 1), ("--generations", s.generations, 1),
                                 ("--validation-games", s.validation_games, 1), ("--workers", s.workers, 1)):
        if value < least:
            raise UserError(f"{option} must be at least {least} (got {value})")
    if s.popsize is not None and s.popsize < 2:
        raise UserError(f"--popsize must be at least 2 (got {s.popsize})")
    if not (math.isfinite(s.sigma) and 0 < s.sigma <= 2 * math.log(FACTOR_BOUND)):
        raise UserError(f"--sigma must be above 0 and at most {2 * math.log(FACTOR_BOUND):.2f} "
                        f"(a step in log-factor units; got {s.sigma})")
    if not 0 <= s.seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {s.seed})")
    if s.optimizer not in OPTIMIZERS:
        raise UserError(f"unknown optimizer '{s.optimizer}' (offered: {', '.join(OPTIMIZERS)}; NTBEA is not)")
    return n_players, pool


def _identity(game: Any, variants: list[Params], s: TuneSettings, n_players: int, pool: list[str], n_games: int,
              popsize: int, space: WeightSpace) -> dict[str, Any]:
    """What fixes a tune's result, bar the generation count (which a resumed tune may extend)."""
    return json.loads(json.dumps({
        "game": game.name, "bot": s.bot, "base_weights": [float(w) for w in space.base], "pool": pool,
        "players": n_players, "games": n_games, "popsize": popsize, "sigma": s.sigma, "seed": s.seed,
        "optimizer": s.optimizer, "variant": variant_label(variants),
        "params": (strip_provenance(variants[0].resolved) if len(variants) == 1
                   else [strip_provenance(params.resolved) for params in variants]),
        "search_space": space.describe(), "state_format": STATE_FORMAT,
        **({"seating": "permuted"} if s.permute else {}),
    }, default=str))


def _load_state(path: Path, identity: dict[str, Any], generations: int) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            state = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, ValueError) as exc:
        raise UserError(f"{path} is not a readable sim tune state ({' '.join(str(exc).split())[:120]})") from None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT or "identity" not in state:
        raise UserError(f"{path} is not a sim tune state file")
    stored = state["identity"]
    differing = [f"{key} {stored.get(key)!r} (requested {identity.get(key)!r})" if key not in ("params",
                 "base_weights") else f"the {key.replace('_', ' ')}"
                 for key in sorted(set(stored) | set(identity)) if stored.get(key) != identity.get(key)]
    if differing:
        raise UserError(f"{path} holds a different tune, not resumed: {'; '.join(differing)}")
    if state["generation"] > generations:
        raise UserError(f"{path} already holds {state['generation']} generations, more than --generations "
                        f"{generations}")
    return state


def _new_state(identity: dict[str, Any], space: WeightSpace, popsize: int, sigma: float, seed: int) -> dict[str, Any]:
    import cma

    bound = [[-space.bound] * space.dimension, [space.bound] * space.dimension]
    options = {"popsize": popsize, "bounds": bound, "randn": SeededNormal(seed), "seed": np.nan,
               "verbose": -9, "verb_log": 0, "verb_disp": 0}
    return {"format": STATE_FORMAT, "identity": identity, "generation": 0, "log": [], "wall_seconds": 0.0,
            "es": cma.CMAEvolutionStrategy(np.zeros(space.dimension), sigma, options),
            "cma_version": cma.__version__}


def _save_state(path: Path, state: dict[str, Any]) -> None:
    write_bytes_atomic(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), path)
    write_bytes_atomic((json.dumps(state["log"], indent=1) + "\n").encode(), log_path(path))


def _check_out_file(path: Path) -> None:
    if path.exists():
        import tomlkit

        try:
            tomlkit.parse(path.read_text())
        except (OSError, UnicodeDecodeError, tomlkit.exceptions.TOMLKitError) as exc:
            raise UserError(f"--out {path} exists but is not a readable TOML file "
                            f"({' '.join(str(exc).split())[:120]})") from None
    elif path.parent.exists() and not path.parent.is_dir():
        raise UserError(f"--out {path} is not a writable file path")


def tune(game: Any, params: Params | list[Params], settings: TuneSettings,
         on_evaluation: Callable[[int, int], None] | None = None) -> TuneResult:
    """Run (or resume) a tune and write the tuned bot to settings.out; see the module docstring.

    on_evaluation(generation, index) is called before each evaluation (tests interrupt a tune there).
    With several variants (`params` a list), each evaluation's games are shared evenly among them.
    """
    s = settings
    variants = list(params) if isinstance(params, (list, tuple)) else [params]
    n_players, pool = _check_settings(game, variants, s)
    base = game.bots()[s.bot]
    start = game.bots()[s.start] if s.start is not None else base
    names = game.weight_names(s.bot)
    space = WeightSpace(start.weights, tuned=len(names))
    n_games = games_per_evaluation(-(-s.games // len(variants)), n_players, len(pool), s.permute)
    popsize = s.popsize or 4 + int(3 * math.log(space.dimension))
    identity = _identity(game, variants, s, n_players, pool, n_games, popsize, space)
    state_path = Path(s.state) if s.state else default_state_path(game.name, s.bot, n_players, s.seed)
    out_path = Path(s.out) if s.out else game.tuned_bots_path()
    _check_out_file(out_path)
    if state_path.exists() and not s.resume:
        raise UserError(f"tune state {state_path} already exists (add --resume to continue it, or choose "
                        f"another --state)")
    if state_path.is_dir():
        raise UserError(f"--state {state_path} is a directory")
    try:
        state_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the folder of --state {state_path}: {exc.strerror or exc}") from None
    state = (_load_state(state_path, identity, s.generations) if state_path.exists()
             else _new_state(identity, space, popsize, s.sigma, s.seed))
    if n_games * len(variants) != s.games and s.progress:
        shared = f" ({n_games} under each of {variant_label(variants)})" if len(variants) > 1 else ""
        print(f"{n_games * len(variants)} games per evaluation{shared} (rounded up from {s.games}: whole rounds "
              f"of the {schedule_cycle(n_players, len(pool), s.permute)}-game line-up schedule)", file=sys.stderr,
              flush=True)
    evaluator = Evaluator(game, variants, n_players, s.bot, pool, n_games, s.permute)
    validation = Evaluator(game, variants, n_players, s.bot, pool,
                           games_per_evaluation(-(-s.validation_games // len(variants)), n_players, len(pool),
                                                s.permute), s.permute)
    es = state["es"]
    remaining = s.generations - state["generation"]
    total = (remaining * (popsize + 1) + 1) * evaluator.games_played + \
        (2 if s.start is None else 3) * validation.games_played
    previous_threads = numba.get_num_threads()
    numba.set_num_threads(min(s.workers, numba.config.NUMBA_NUM_THREADS))
    started = time.perf_counter()
    try:
        if s.progress:
            print("loading the engine (compiled on first use, then cached)...", file=sys.stderr, flush=True)
        evaluator.warm_up(start.weights)
        started = time.perf_counter()
        with tqdm(total=total, unit="games", unit_scale=True, disable=not s.progress, dynamic_ncols=True,
                  smoothing=0.1) as bar:
            def play(weights: np.ndarray, seed: int, judge: Evaluator = evaluator) -> Evaluation:
                result = judge.evaluate(weights, seed)
                bar.update(result.played)
                return result

            for generation in range(state["generation"], s.generations):
                gen_started = time.perf_counter()
                seed = derived_seed(s.seed, STREAM_GENERATION, generation)
                candidates = es.ask()
                results = []
                for index, x in enumerate(candidates):
                    if on_evaluation is not None:
                        on_evaluation(generation, index)
                    results.append(play(space.weights(x), seed))
                centre = play(space.weights(es.result.xfavorite), seed)
                es.tell(candidates, [-r.objective for r in results])
                best = max(results, key=lambda r: r.objective)
                entry = {"generation": generation, "seed": seed,
                         "best_win_rate": best.win_rate, "best_margin": best.mean_margin,
                         "mean_win_rate": float(np.mean([r.win_rate for r in results])),
                         "mean_margin": float(np.mean([r.mean_margin for r in results])),
                         "centre_win_rate": centre.win_rate, "centre_margin": centre.mean_margin,
                         "sigma": float(es.sigma), "games": (len(results) + 1) * evaluator.games_played,
                         "seconds": round(time.perf_counter() - gen_started, 3)}
                state["log"].append(entry)
                state["generation"] = generation + 1
                state["wall_seconds"] += time.perf_counter() - started
                started = time.perf_counter()
                _save_state(state_path, state)
                if s.progress:
                    bar.write(f"generation {generation + 1}/{s.generations}: best {best.win_rate:.1%}, "
                              f"mean {entry['mean_win_rate']:.1%}, centre {centre.win_rate:.1%}, "
                              f"sigma {es.sigma:.3f}")
            tuned = rounded(space.weights(es.result.xfavorite))
            final_seed = derived_seed(s.seed, STREAM_GENERATION, s.generations - 1)
            final = play(tuned, final_seed)
            validation_seed = derived_seed(s.seed, STREAM_VALIDATION)
            checked = play(tuned, validation_seed, validation)
            base_checked = play(base.weights, validation_seed, validation)
            start_checked = play(start.weights, validation_seed, validation) if s.start is not None else None
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; {state['generation']} of {s.generations} generations are saved in "
                          f"{state_path}: run the same command with --resume to continue") from None
    finally:
        numba.set_num_threads(previous_threads)
    wall = state["wall_seconds"] + time.perf_counter() - started
    name = s.name or s.bot + TUNED_SUFFIX
    weights = {key: float(value) for key, value in zip(names, tuned)}
    provenance = _provenance(game, variants, s, n_players, pool, evaluator.games_played, popsize, space, state, final, final_seed,
                             checked, base_checked, validation_seed, wall, start_checked)
    played = f"{n_players} players" + (f", {variant_label(variants)}" if len(variants) > 1 else "") + \
        (f", from {s.start}'s weights" if s.start is not None else "")
    description = (f"{s.description or s.bot + ' tuned by CMA-ES'} against {', '.join(pool)} ({played}): wins "
                   f"{checked.win_rate:.1%} of held-out games where {s.bot} wins {base_checked.win_rate:.1%}")
    write_tuned_bot(out_path, name, game.kind_name(s.bot), description, weights, provenance)
    write_bytes_atomic((json.dumps(state["log"], indent=1) + "\n").encode(), tuned_log_path(out_path, name))
    return TuneResult(name=name, out=out_path, weights=weights, final=final, validation=checked,
                      base_validation=base_checked, log=state["log"], provenance=provenance,
                      start_validation=start_checked)


def _provenance(game, variants, s, n_players, pool, n_games, popsize, space, state, final, final_seed, checked,
                base_checked, validation_seed, wall, start_checked=None) -> dict[str, Any]:
    from sim.core.runner import source_commit

    commit, dirty = source_commit()
    final_ci, valid_ci, base_ci = (tuple(round(x, 4) for x in e.interval()) for e in (final, checked, base_checked))
    provenance: dict[str, Any] = {
        "base_bot": s.bot, "game": game.name, "variant": variant_label(variants), "players": n_players,
        "pool": pool, "games_per_evaluation": n_games, "generations": s.generations, "popsize": popsize,
        "sigma0": s.sigma, "seed": s.seed, "optimizer": f"CMA-ES (cma {state.get('cma_version', '?')})",
        "search_space": space.describe(),
        "fitness": (f"win rate against the pool, {seating_words(not s.permute, s.permute)}, common seeds per "
                    f"generation; ties by score margin"),
        "final_win_rate": final.win_rate, "final_ci95": list(final_ci), "final_games": final.games,
        "final_seed": final_seed,
        "validation_win_rate": checked.win_rate, "validation_ci95": list(valid_ci),
        "validation_games": checked.games, "validation_seed": validation_seed,
        "base_validation_win_rate": base_checked.win_rate, "base_validation_ci95": list(base_ci),
        **({} if start_checked is None else {
            "start_bot": s.start, "start_validation_win_rate": start_checked.win_rate,
            "start_validation_ci95": [round(x, 4) for x in start_checked.interval()]}),
        "interval": "Wilson 95%",
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "wall_seconds": round(wall, 1),
    }
    for key, evaluation in (("final", final), ("validation", checked), ("base_validation", base_checked)):
        if evaluation.no_winner:  # left out of its win rate (sim/core/stats.py)
            provenance[f"{key}_no_winner_games"] = evaluation.no_winner
    if commit is not None:
        provenance["git_commit"] = commit
        provenance["git_dirty"] = bool(dirty)
    if s.command:
        provenance["command"] = s.command
    return provenance


def write_tuned_bot(path: Path, name: str, kind: str, description: str, weights: dict[str, float],
                    provenance: dict[str, Any]) -> None:
    """Add (or replace) [bots.<name>] in the tuned-bots TOML file, keeping its other entries and comments."""
    import tomlkit

    path = Path(path)
    if path.exists():
        document = tomlkit.parse(path.read_text())
    else:
        document = tomlkit.document()
        document.add(tomlkit.comment("Bots tuned by `sim tune` (weights found by self-play; see each provenance)."))
        document.add(tomlkit.comment("Merged over bots.toml by the game's load_bots(); edit freely: a weight left "
                                     "out takes the bots.toml [defaults] value."))
    if "bots" not in document:
        document.add("bots", tomlkit.table(is_super_table=True))
    entry = tomlkit.table()
    entry.add("kind", kind)
    entry.add("description", description)
    weight_table = tomlkit.table()
    for key, value in weights.items():
        weight_table.add(key, value)
    entry.add("weights", weight_table)
    provenance_table = tomlkit.table()
    for key, value in provenance.items():
        provenance_table.add(key, value)
    entry.add("provenance", provenance_table)
    document["bots"][name] = entry
    write_bytes_atomic(tomlkit.dumps(document).encode(), path)
