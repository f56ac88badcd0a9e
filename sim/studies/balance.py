"""`sim balance` (sim/cli/balance.py): which value of a rule parameter makes a metric fair?

A designer who has learnt that the first player wins 28-29% of 4-player Cuzco games asks the next
question: what would fix it, and with how much certainty? `search` answers it for one number x,
between LO and HI (`--range`), that drives one or more parameters of the game's data:

- `--param NAME` alone: the parameter is x itself (a number);
- `--param NAME[i]`: element i of a list parameter is x, the other elements keep their value
  (element-wise);
- `--param NAME --rule "0,x,2x,3x"`: the list is written by a rule of x, one expression per element
  (numbers, x, + - * /, parentheses, "2x" for 2*x), e.g. a spacing of the starting VP by turn order.

Several `--param` options (each with its own `--rule`, paired in order) move together with the one
x: one target fixes one number. A parameter whose value is whole numbers gets whole numbers (each
element rounded half up), so a rule such as 0,x,2x,3x visits [0,1,2,3], [0,1,3,4], [0,2,3,5], ...
as x grows; distinct values are distinct candidates, and x values giving the same values are the
same candidate.

Metrics (per game, from the engine's player columns; a position is the turn order when the game
records a `start_order` column, else the seat):

- `first_player_win`: whether the player at position 0 won (a shared win counts; a game without a
  winner counts neither way); a rate, with a Wilson interval;
- `position_win:K`: the same for position K; `seat_win:K`: for seat K (the seat column);
- `score_gap`: the first player's score minus the mean of the others' (a mean, with a t interval);
  `score_gap:K` for position K;
- `card_held_win:ITEM`: the win rate of the players who held card ITEM (one of the game's
  `value_groups`, e.g. Cuzco's god card double_people), per game the share of its holders who won,
  counting the games where someone held it and someone won (a rate);
- `card_value:ITEM`: the card's causal value as `sim value` measures it (sim/studies/value.py): each
  game is played again with one seat forbidden the card (the seat going round the table in blocks
  of value.MAX_BLOCK games), and the metric is that seat's win in the unrestricted game minus in
  the restricted one (a mean of -1/0/1, with a t interval; "what cost makes this card worth 0?").
  It plays every game twice.

The search is stochastic root finding on a metric assumed monotone in x (either direction), played
in batches where they are informative:

1. both ends, LO and HI, play `batch` games (their direction shows which way x moves the metric);
2. a candidate is *inside* when its 95% interval lies within target +- tolerance (found once it
   stays inside after a confirming batch that doubles its games: two looks in a row), *below* or
   *above* when its interval excludes the target, else *open*; an open candidate plays again, each
   batch as many games as its interval needs (estimated from its current value) but at most as
   many as it has played (so its games at most double: few looks at the data), unless the fit (3)
   puts an untried value clearly nearer the target (by a quarter of the tolerance);
3. a resolved candidate narrows the bracket (the nearest below and above candidates); the next
   candidate is the root of a fit over every candidate inside the bracket (weighted least squares
   of the metric, on the logit scale for a rate, on x, each candidate weighted by the precision of
   its estimate; statsmodels), clipped into the bracket; when that value was already resolved, or
   the fit fails, the untried value nearest to it inside the bracket (bisection when there is
   nothing better); when no untried value is left, the candidates whose interval still meets the
   band play on, nearest the target first;
4. it ends when a candidate is inside (found), when both ends lie on the same side of the target
   (out of range), when no untried value is left between a below and an above candidate (the
   target falls between two neighbouring values: none is within tolerance), or when `--games` (the
   budget) or `--time-limit` is spent (the closest candidate is reported).

Every candidate plays games 0, 1, 2, ... of the same run seed, seats rotated or, with
--permute-seats, in every seating order in turn (the same deals, shuffles, dice and seats: common
random numbers), so candidates differ by their parameters only. The
estimates use it: a candidate's metric and interval are paired with the most-played candidate (the
reference) on their shared games, a control variate (`paired_estimate`): its own mean minus beta
times how far the reference's mean on those games lies from the reference's mean on all its games.
Without it, a run of games that happens to favour the first player makes every new candidate look
low on its first batch alike (seen on Cuzco: four candidates 1-3 points low on games 0-999), and a
candidate may be accepted or rejected on that shared luck. The paired interval is used when it is
narrower than the candidate's own (Wilson for a rate, t for a mean), which the evidence records
(`paired`, and the own interval beside it).

The next step is a function of the evidence alone, so the search is resumable: the evidence
dataset (`--out`: manifest.json, batches.parquet and candidates.parquet, replaced atomically after
every batch, and games/part-NNNNN.parquet, each batch's per-game metric and whether the game
counts, written before batches.parquet names the batch) is the state, and `--resume` replays the
plan from it and continues; a search killed mid-batch loses that batch only, played again
identically. The interval is checked after every batch of a candidate (a handful of looks, since
games at most double), and a candidate is found only when it is inside on two looks in a row,
which keeps the optimism of looking more than once on the stated 95% small. Under `--time-limit`
a batch is also cut to what the time left allows at the last batch's speed (so such a search's
batches depend on the machine's speed; its evidence stays valid).
"""
from __future__ import annotations

import ast
import datetime as dt
import json
import math
import operator
import re
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numba
import numpy as np

from sim.core.errors import EngineFailure, Interrupted, UserError
from sim.core.stats import Z95, rate_ci

MAX_SEED = 2**63 - 1
FORMAT = 1
MANIFEST = "manifest.json"
BATCHES = "batches.parquet"
GAMES = "games"  # one part per batch: each game's metric and whether it counts
CANDIDATES = "candidates.parquet"
DEFAULT_BATCH = 1000
DEFAULT_BUDGET = 400_000
ENGINE_CHUNK = 10_000  # games per engine call (bounds memory; the data do not depend on it)
INSIDE, BELOW, ABOVE, OPEN = "inside", "below", "above", "open"
FOUND, OUT_OF_RANGE, BETWEEN, BUDGET, TIME, RUNNING = (
    "found", "out of range", "between values", "budget spent", "time limit", "running")
RATE_METRICS = ("first_player_win", "position_win", "seat_win", "card_held_win")
CARD_METRICS = ("card_held_win", "card_value")
METRIC_HELP = ("first_player_win, position_win:K, seat_win:K, score_gap, score_gap:K, card_held_win:CARD or "
               "card_value:CARD")
# Settings that do not change the evidence: a resumed search may change them.
EXECUTION_KEYS = ("games", "time_limit", "workers")


# ------------------------------------------------------------------------------- the metric
@dataclass(frozen=True)
class Metric:
    """What is measured per game: kind (first_player_win, position_win, seat_win, score_gap) and
    the position or seat it is about."""

    name: str
    kind: str
    index: int
    item: str = ""  # the card of a card metric

    @property
    def is_rate(self) -> bool:
        return self.kind in RATE_METRICS

    def describe(self) -> str:
        if self.kind == "card_held_win":
            return f"win rate of the players holding {self.item}"
        if self.kind == "card_value":
            return f"value of {self.item} (win rate a seat loses without it)"
        if self.kind == "first_player_win":
            return "first player's win rate"
        if self.kind == "position_win":
            return f"win rate of turn position {self.index}"
        if self.kind == "seat_win":
            return f"win rate of seat {self.index}"
        who = "first player" if self.index == 0 else f"turn position {self.index}"
        return f"score gap ({who} minus the others' mean)"


def parse_metric(text: str | None) -> Metric:
    name = (text or "").strip()
    kind, _, index_text = name.partition(":")
    if kind == "first_player_win" and not index_text:
        return Metric(name, kind, 0)
    if kind == "score_gap" and not index_text:
        return Metric(name, kind, 0)
    if kind in ("position_win", "seat_win", "score_gap") and index_text.strip().isdigit():
        return Metric(name, kind, int(index_text))
    if kind in CARD_METRICS and index_text.strip():
        return Metric(name, kind, 0, index_text.strip())
    raise UserError(f"unknown metric {name!r} (use {METRIC_HELP})")


def card_group(game_name: str, item: str):
    """The game's value group (sim.core.params.ForbidGroup) holding this card; a one-line error
    naming the known cards otherwise."""
    from sim.core.registry import get_game

    groups = getattr(get_game(game_name), "value_groups", ())
    for g in groups:
        if item in g.items:
            return g
    known = ", ".join(i for g in groups for i in g.items) or "none: the game declares no value_groups"
    raise UserError(f"--metric: {game_name} has no card {item!r} (known: {known})")


def held_win(won: np.ndarray, held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """card_held_win per game: the share of the card's holders who won; counts when one held it and one won."""
    holders = held.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(holders > 0, (held & won).sum(axis=1) / np.maximum(holders, 1), 0.0)
    return value.astype(np.float64), (holders > 0) & won.any(axis=1)


def game_metrics(metric: Metric, won: np.ndarray, score: np.ndarray, position: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(value per game, whether the game counts) from [games, seats] arrays.

    position: each player's turn position (start_order, or the seat). A rate counts the games with
    a winner; a score gap counts every game.
    """
    n_games, n_players = won.shape
    if metric.kind == "seat_win":
        return won[:, metric.index].astype(np.float64), won.any(axis=1)
    at = position == metric.index
    if metric.kind in ("first_player_win", "position_win"):
        return (won & at).any(axis=1).astype(np.float64), won.any(axis=1)
    own = (score * at).sum(axis=1).astype(np.float64)
    others = (score.sum(axis=1) - own) / max(n_players - 1, 1)
    return own - others, np.ones(n_games, dtype=bool)


def dotted(nested: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"gods": {"forbidden_by_seat": v}} -> {"gods.forbidden_by_seat": v}: variant overrides as --param names."""
    out: dict[str, Any] = {}
    for key, value in nested.items():
        if isinstance(value, dict):
            out.update(dotted(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


# ------------------------------------------------------------------------------- the rule
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _compile_expression(text: str, where: str) -> ast.expr:
    source = re.sub(r"(\d(?:\.\d*)?|\))\s*(?=[x(])", r"\1*", text.strip())
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError:
        raise UserError(f"{where}: {text.strip()!r} is not an expression of x "
                        f"(numbers, x, + - * /, parentheses)") from None
    for node in ast.walk(tree):
        ok = (isinstance(node, (ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load))
              or (isinstance(node, ast.Constant) and type(node.value) in (int, float))
              or (isinstance(node, ast.Name) and node.id == "x"))
        if isinstance(node, ast.BinOp) and type(node.op) not in _BINARY:
            ok = False
        if isinstance(node, ast.UnaryOp) and not isinstance(node.op, (ast.USub, ast.UAdd)):
            ok = False
        if not ok:
            raise UserError(f"{where}: {text.strip()!r} is not an expression of x "
                            f"(numbers, x, + - * /, parentheses)")
    return tree


def _evaluate(node: ast.expr, x: float) -> float:
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        return x
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand, x)
        return -value if isinstance(node.op, ast.USub) else value
    left, right = _evaluate(node.left, x), _evaluate(node.right, x)
    if isinstance(node.op, ast.Div) and right == 0:
        return math.nan
    return _BINARY[type(node.op)](left, right)


def round_half_up(value: float) -> int:
    return int(math.floor(value + 0.5))


@dataclass
class Rule:
    """How x sets one parameter: the parameter itself, one of its elements, or a rule per element."""

    name: str                    # dotted key of the game's data
    index: int | None            # element-wise: NAME[i]
    text: str | None             # the --rule, as given
    base: Any                    # the parameter's value before the search (the variant's, or the game's)
    expressions: list[ast.expr] | None = None
    integer: bool = False

    @property
    def label(self) -> str:
        if self.text is not None:
            return f"{self.name} = [{self.text.strip().strip('[]')}]"
        return f"{self.name}[{self.index}] = x" if self.index is not None else f"{self.name} = x"

    def value(self, x: float) -> Any:
        def number(v: float) -> int | float:
            if not math.isfinite(v):
                raise UserError(f"--rule for {self.name} gives {v} at x = {x:g}")
            return round_half_up(v) if self.integer else float(f"{v:.6g}")

        if self.expressions is not None:
            return [number(_evaluate(e, x)) for e in self.expressions]
        if self.index is not None:
            out = list(self.base)
            out[self.index] = number(x)
            return out
        return number(x)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _lookup(tree: dict[str, Any], name: str) -> Any:
    from sim.core.params import did_you_mean

    node: Any = tree
    done = ""
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            hint = did_you_mean(part, node, done) if isinstance(node, dict) else ""
            raise UserError(f"--param {name}: unknown parameter '{name}' (a dotted key of the game's data){hint}")
        node = node[part]
        done += f"{part}."
    return node


def parse_rules(names: list[str], rules: list[str] | None, resolved: dict[str, Any]) -> list[Rule]:
    """One Rule per --param, paired in order with the --rule options (fewer rules than params:
    the remaining params take x directly)."""
    rules = list(rules or [])
    if not names:
        raise UserError("sim balance: give the searched parameter with --param NAME")
    if len(rules) > len(names):
        raise UserError(f"{len(rules)} --rule options for {len(names)} --param: give at most one rule per "
                        f"parameter, in the same order")
    out, seen = [], set()
    for position, spec in enumerate(names):
        spec = spec.strip()
        match = re.fullmatch(r"([A-Za-z0-9_.\-]+?)(?:\[(\d+)\])?", spec)
        if not match or match.group(1).startswith(".") or match.group(1).endswith(".") or ".." in match.group(1):
            raise UserError(f"--param {spec!r}: expected NAME or NAME[i] (a dotted key of the game's data; "
                            f"no '=VALUE': the search chooses the value)")
        name, index = match.group(1), None if match.group(2) is None else int(match.group(2))
        if name in seen:
            raise UserError(f"--param {name} is given twice")
        seen.add(name)
        base = _lookup(resolved, name)
        text = rules[position] if position < len(rules) else None
        where = f"--param {spec}"
        if text is not None:
            if index is not None:
                raise UserError(f"{where}: give either an element NAME[i] or a --rule, not both")
            if not isinstance(base, list) or not base or not all(_is_number(v) for v in base):
                raise UserError(f"{where}: a --rule writes a list of numbers, but {name} is {base!r}")
            parts = [p for p in text.strip().strip("[]").split(",")]
            if len(parts) != len(base):
                raise UserError(f"--rule {text!r} gives {len(parts)} values but {name} has {len(base)} "
                                f"(now {base})")
            rule = Rule(name, None, text, base, [_compile_expression(p, f"--rule {text!r}") for p in parts],
                        all(isinstance(v, int) for v in base))
        elif index is not None:
            if not isinstance(base, list) or not all(_is_number(v) for v in base):
                raise UserError(f"{where}: {name} is not a list of numbers (it is {base!r})")
            if index >= len(base):
                raise UserError(f"{where}: {name} has {len(base)} elements (indices 0 to {len(base) - 1})")
            rule = Rule(name, index, None, base, None, isinstance(base[index], int))
        else:
            if isinstance(base, list):
                raise UserError(f"{where}: {name} is a list ({base}); search one element with {name}[i] or "
                                f"write it as a rule of x with --rule, e.g. --rule \"{','.join(['x'] * len(base))}\"")
            if not _is_number(base):
                raise UserError(f"{where}: {name} is not a number (it is {base!r})")
            rule = Rule(name, None, None, base, None, isinstance(base, int))
        out.append(rule)
    return out


def values_text(values: dict[str, Any]) -> str:
    """A candidate's parameter values in one line (its identity)."""
    return "; ".join(f"{name}={json.dumps(value, separators=(',', ':'))}" for name, value in values.items())


# ----------------------------------------------------------------------------- the evidence
@dataclass
class Candidate:
    """One distinct set of parameter values and what its games showed so far."""

    x: float
    values: dict[str, Any]
    games: int = 0          # games played (its game indices are 0 .. games-1)
    counted: int = 0        # games counting for the metric (a rate leaves out games without a winner)
    total: float = 0.0      # sum of the metric
    total_sq: float = 0.0   # sum of its squares
    wins_by_position: list[int] = field(default_factory=list)
    score_by_position: list[float] = field(default_factory=list)
    first_step: int = 0
    parts: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # per batch: value, counted
    _joined: tuple[int, np.ndarray, np.ndarray] | None = None

    @property
    def key(self) -> str:
        return values_text(self.values)

    def per_game(self) -> tuple[np.ndarray, np.ndarray]:
        """(metric, counted) of games 0 .. games-1, in game order."""
        if self._joined is None or self._joined[0] != len(self.parts):
            if self.parts:
                value = np.concatenate([p[0] for p in self.parts])
                counted = np.concatenate([p[1] for p in self.parts])
            else:
                value, counted = np.zeros(0), np.zeros(0, dtype=bool)
            self._joined = (len(self.parts), value, counted)
        return self._joined[1], self._joined[2]

    def plain(self, rate: bool, alpha: float = 0.05) -> tuple[float, float, float, float]:
        """(metric, lower, upper, variance of the metric) from its own games: a Wilson interval for a
        rate, a t interval for a mean; NaN without games."""
        if self.counted == 0:
            return math.nan, math.nan, math.nan, math.nan
        mean = self.total / self.counted
        if rate:
            value, lo, hi = rate_ci(round(self.total), self.counted, "wilson", alpha)
            return float(value), float(lo), float(hi), max(mean * (1 - mean), 0.25 / self.counted) / self.counted
        from scipy import stats

        if self.counted < 2:
            return mean, -math.inf, math.inf, math.inf
        var = max(self.total_sq / self.counted - mean * mean, 0.0) * self.counted / (self.counted - 1)
        half = float(stats.t.ppf(1 - alpha / 2, self.counted - 1)) * math.sqrt(var / self.counted)
        return mean, mean - half, mean + half, var / self.counted


def paired_estimate(own: tuple[np.ndarray, np.ndarray], ref: tuple[np.ndarray, np.ndarray]
                    ) -> tuple[float, float] | None:
    """(metric, variance) of a candidate from its games 0..n-1 and a reference candidate's games
    0..N-1 (N > n), the same games under other rules (common random numbers): the control-variate
    estimate  own_mean - beta * (ref_mean on games 0..n-1 - ref_mean on all its games), beta the
    regression slope of own on ref over the shared games. It removes the luck of the shared games
    that the reference's longer run has averaged out. None when it cannot be formed."""
    x_all, x_ok = own
    y_all, y_ok = ref
    n = len(x_all)
    shared = x_ok & y_ok[:n]
    rest = y_ok[n:]
    x, y, y_rest = x_all[shared], y_all[:n][shared], y_all[n:][rest]
    k, m = len(x), len(y_rest)
    if k < 30 or m < 30:
        return None
    var_y = float(y.var(ddof=1))
    if var_y <= 0:
        return None
    cov = float(np.cov(x, y, ddof=1)[0, 1])
    beta = cov / var_y
    share = m / (k + m)
    value = float(x.mean() - beta * share * (y.mean() - y_rest.mean()))
    var_x = float(x.var(ddof=1))
    variance = ((var_x - 2 * beta * share * cov + (beta * share) ** 2 * var_y) / k
                + (beta * share) ** 2 * float(y_rest.var(ddof=1)) / m)
    return value, max(variance, 1e-12)


@dataclass(frozen=True)
class Plan:
    """The next step: play `games` games of the candidate at x (first game: its games so far), or
    stop with a status."""

    status: str
    x: float | None = None
    games: int = 0
    reason: str = ""


@dataclass
class Settings:
    """A search's settings (the command line's options, resolved)."""

    game: str
    rules: list[Rule]
    lo: float
    hi: float
    metric: Metric
    target: float
    tolerance: float
    players: int
    bots: list[str]
    seed: int = 0
    batch: int = DEFAULT_BATCH
    budget: int = DEFAULT_BUDGET
    time_limit: float | None = None
    workers: int = 1
    variant: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    command: str | None = None
    permute: bool = False  # every seating order of the line-up in turn (--permute-seats), not only its rotations

    def identity(self) -> dict[str, Any]:
        """What fixes the evidence (bar the budget, time limit and workers)."""
        return json.loads(json.dumps({
            "format": FORMAT, "game": self.game, "players": self.players, "bots": self.bots, "seed": self.seed,
            "rotate_seats": not self.permute, "permute_seats": self.permute, "variant": self.variant,
            "overrides": self.overrides,
            "params": [{"name": r.name, "index": r.index, "rule": r.text, "base": r.base, "integer": r.integer}
                       for r in self.rules],
            "range": [self.lo, self.hi], "metric": self.metric.name, "target": self.target,
            "tolerance": self.tolerance, "batch": self.batch,
        }, default=str))


def check_settings(s: Settings) -> None:
    """Every numeric check, before anything is played or written."""
    for label, value in (("--range", s.lo), ("--range", s.hi), ("--target", s.target), ("--tolerance", s.tolerance)):
        if not math.isfinite(value):
            raise UserError(f"{label} must be a finite number (got {value})")
    if not s.lo < s.hi:
        raise UserError(f"--range LO,HI needs LO < HI (got {s.lo:g},{s.hi:g})")
    if s.tolerance <= 0:
        raise UserError(f"--tolerance must be above 0 (got {s.tolerance:g})")
    if s.metric.is_rate and not 0 < s.target < 1:
        raise UserError(f"--target of a win rate is a proportion between 0 and 1 (got {s.target:g}; "
                        f"25% is 0.25)")
    if s.metric.is_rate and s.tolerance >= 0.5:
        raise UserError(f"--tolerance of a win rate is a proportion (0.01 = 1 point; got {s.tolerance:g})")
    if s.metric.kind in CARD_METRICS:
        card_group(s.game, s.metric.item)
    elif s.metric.kind != "first_player_win" and s.metric.index >= s.players:
        raise UserError(f"--metric {s.metric.name}: {s.players} players have positions 0 to {s.players - 1}")
    if s.batch < 10:
        raise UserError(f"--batch must be at least 10 (got {s.batch})")
    if s.budget < 2 * s.batch:
        raise UserError(f"--games (the budget, {s.budget}) must be at least two batches ({2 * s.batch}): "
                        f"both ends of the range play one")
    if s.time_limit is not None and not s.time_limit > 0:
        raise UserError(f"--time-limit must be above 0 seconds (got {s.time_limit:g})")
    if s.workers < 1:
        raise UserError(f"--workers must be at least 1 (got {s.workers})")
    if not 0 <= s.seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1 (got {s.seed})")


class Evidence:
    """Every batch played so far (the dataset's rows) and the candidates they add up to."""

    def __init__(self, settings: Settings):
        self.s = settings
        self.rows: list[dict[str, Any]] = []
        self.candidates: dict[str, Candidate] = {}
        self._cache: dict[tuple[str, int], tuple[float, float, float, bool, float]] = {}

    # --- candidates
    def values(self, x: float) -> dict[str, Any]:
        return {rule.name: rule.value(x) for rule in self.s.rules}

    def candidate(self, x: float) -> Candidate:
        """The candidate x gives (a known one when its values were seen before)."""
        values = self.values(x)
        key = values_text(values)
        if key not in self.candidates:
            self.candidates[key] = Candidate(x=self.canonical(x), values=values, first_step=len(self.rows) + 1,
                                             wins_by_position=[0] * self.s.players,
                                             score_by_position=[0.0] * self.s.players)
        return self.candidates[key]

    def canonical(self, x: float) -> float:
        """The x that stands for x's values: the middle of the run of x (on a fixed grid of the
        range) giving the same values, so a rounded rule's candidate sits at the centre of its
        values' stretch for the fit; x itself when it is alone there."""
        grid = np.linspace(self.s.lo, self.s.hi, 4001)
        key = values_text(self.values(x))
        i = int(np.argmin(np.abs(grid - x)))
        same = lambda j: values_text(self.values(float(grid[j]))) == key  # noqa: E731
        if not same(i):
            return float(x)
        a, b = i, i
        while a > 0 and same(a - 1):
            a -= 1
        while b < len(grid) - 1 and same(b + 1):
            b += 1
        middle = float((grid[a] + grid[b]) / 2)
        return middle if values_text(self.values(middle)) == key else float(x)

    def add(self, row: dict[str, Any], value: np.ndarray, counted: np.ndarray) -> None:
        """One batch: its sums (row) and each game's metric and whether it counts."""
        c = self.candidate(row["x"])
        c.games += row["games"]
        c.counted += row["counted"]
        c.total += row["total"]
        c.total_sq += row["total_sq"]
        c.wins_by_position = [a + b for a, b in zip(c.wins_by_position, row["wins_by_position"])]
        c.score_by_position = [a + b for a, b in zip(c.score_by_position, row["score_by_position"])]
        c.parts.append((np.asarray(value, np.float64), np.asarray(counted, bool)))
        self.rows.append(row)
        metric, lo, hi = self.estimate(c)
        row.update({"step": len(self.rows), "values": c.key, "candidate_games": c.games, "metric": metric,
                    "lower": lo, "upper": hi, "paired": self.estimate_kind(c), "state": self.state(c)})

    def reference(self) -> Candidate | None:
        """The candidate with the most games (the first such): the others are paired with it."""
        played = [c for c in self.candidates.values() if c.games > 0]
        return max(played, key=lambda c: (c.games, -c.first_step), default=None)

    def _estimate(self, c: Candidate) -> tuple[float, float, float, bool, float]:
        key = (c.key, len(self.rows))
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        rate = self.s.metric.is_rate
        value, lo, hi, variance = c.plain(rate)
        paired = False
        ref = self.reference()
        if ref is not None and ref is not c and ref.games > c.games and c.games > 0:
            found = paired_estimate(c.per_game(), ref.per_game())
            if found is not None and found[1] < variance:
                value, half = found[0], Z95 * math.sqrt(found[1])
                lo, hi = value - half, value + half
                if rate:
                    lo, hi = max(lo, 0.0), min(hi, 1.0)
                paired, variance = True, found[1]
        self._cache[key] = (value, lo, hi, paired, variance)
        return self._cache[key]

    def estimate(self, c: Candidate) -> tuple[float, float, float]:
        """(metric, lower, upper) of a candidate: paired with the reference candidate on their shared
        games (paired_estimate) when that narrows the interval, else from its own games alone."""
        return self._estimate(c)[:3]

    def estimate_kind(self, c: Candidate) -> bool:
        """Whether the candidate's estimate is paired with the reference."""
        return self._estimate(c)[3]

    @property
    def games(self) -> int:
        return sum(c.games for c in self.candidates.values())

    def state(self, c: Candidate) -> str:
        value, lo, hi = self.estimate(c)
        if math.isnan(value):
            return OPEN
        t, e = self.s.target, self.s.tolerance
        if lo >= t - e and hi <= t + e:
            return INSIDE
        if hi < t:
            return BELOW
        if lo > t:
            return ABOVE
        return OPEN

    def may_be_inside(self, c: Candidate) -> bool:
        """Whether the candidate's interval still meets target +- tolerance."""
        _, lo, hi = self.estimate(c)
        return not (math.isnan(lo) or lo > self.s.target + self.s.tolerance or hi < self.s.target - self.s.tolerance)

    def played(self) -> list[Candidate]:
        return sorted((c for c in self.candidates.values() if c.games > 0), key=lambda c: c.x)

    def closest(self) -> Candidate | None:
        """The candidate whose metric is nearest the target (ties: more games)."""
        played = [c for c in self.played() if c.counted]
        if not played:
            return None
        return min(played, key=lambda c: (abs(self.estimate(c)[0] - self.s.target), -c.games))

    # --- the plan
    def direction(self) -> int:
        """+1 if the metric grows with x, -1 if it falls (from the two ends), 0 if unknown yet."""
        lo, hi = self.candidate_if_played(self.s.lo), self.candidate_if_played(self.s.hi)
        if lo is None or hi is None:
            return 0
        a, b = self.estimate(lo)[0], self.estimate(hi)[0]
        return 0 if a == b or math.isnan(a) or math.isnan(b) else (1 if b > a else -1)

    def candidate_if_played(self, x: float) -> Candidate | None:
        c = self.candidates.get(values_text(self.values(x)))
        return c if c is not None and c.games > 0 else None

    def next_games(self, c: Candidate) -> int:
        """Games for a candidate's next batch: what its interval needs to lie within the tolerance
        (or, while it is open, to exclude the target), from the variance of its estimate now,
        between one batch and as many as it has played (its games at most double)."""
        value, _, _, _, variance = self._estimate(c)
        gap = abs(value - self.s.target)
        need = math.inf
        if math.isfinite(variance) and variance > 0 and c.counted > 0:
            # per game: the larger of the paired and the own variance (a paired interval narrows
            # with the reference's games too, so its own games alone would underestimate the need)
            per_game = max(variance, c.plain(self.s.metric.is_rate)[3]) * c.counted
            z = 1.96
            if gap < self.s.tolerance:
                need = min(need, per_game * (z / (self.s.tolerance - gap)) ** 2)
            if gap > 0 and self.state(c) == OPEN:  # or until it excludes the target
                need = min(need, per_game * (z / gap) ** 2)
        more = math.ceil(need * 1.1) - c.counted if math.isfinite(need) else c.games
        return int(min(max(more, self.s.batch), max(c.games, self.s.batch)))

    def plan(self) -> Plan:
        s = self.s
        for x in (s.lo, s.hi):
            if self.candidate_if_played(x) is None:
                return Plan(RUNNING, x, s.batch)
        for c in self.played():
            if self.state(c) == INSIDE:
                looks = [row["state"] for row in self.rows if row["values"] == c.key]
                if looks[-2:] == [INSIDE, INSIDE]:
                    return Plan(FOUND, c.x, reason=f"{c.key} is within {s.target:g} +- {s.tolerance:g} on two "
                                                   f"looks in a row")
                return Plan(RUNNING, c.x, max(c.games, s.batch))  # confirm it on as many new games
        direction = self.direction() or 1
        states = {c.key: self.state(c) for c in self.played()}
        low_side, high_side = (BELOW, ABOVE) if direction > 0 else (ABOVE, BELOW)
        ends = [self.candidate_if_played(s.lo), self.candidate_if_played(s.hi)]
        if all(states[c.key] == low_side for c in ends) or all(states[c.key] == high_side for c in ends):
            side = "below" if states[ends[0].key] == BELOW else "above"
            (a, a_lo, a_hi), (b, b_lo, b_hi) = self.estimate(ends[0]), self.estimate(ends[1])
            band = 2 * s.tolerance
            if max(a_lo, b_lo) <= min(a_hi, b_hi) or abs(b - a) < band:
                # the ends cannot be told apart, or differ by less than the band's width: x barely
                # moves the metric, and a wider range is no answer unless the metric moves far beyond it
                return Plan(OUT_OF_RANGE, reason=(
                    f"the metric is {side} {s.target:g} at both ends of the range and barely moves across it "
                    f"({a:.4g} at x = {s.lo:g}, {b:.4g} at x = {s.hi:g}, a change of {b - a:+.3g} against a target "
                    f"band {band:g} wide): this parameter hardly moves the metric; try another parameter (a much "
                    f"wider --range helps only if its effect grows far beyond this range)"))
            return Plan(OUT_OF_RANGE, reason=f"the metric is {side} {s.target:g} at both ends of the range: "
                                             f"widen --range (the metric is assumed monotone in x)")
        # The bracket: between the nearest resolved candidates on either side of the target.
        left = [c for c in self.played() if states[c.key] == low_side]
        right = [c for c in self.played() if states[c.key] == high_side]
        xl = max((c.x for c in left), default=s.lo)
        xr = min((c.x for c in right), default=s.hi)
        if xl > xr:  # a non-monotone stretch: the evidence contradicts the assumption; search the whole range
            xl, xr = s.lo, s.hi
        fit = self.fit(xl, xr)
        root = self.root(fit)
        x = self.pick(root if root is not None else (xl + xr) / 2, xl, xr, states)
        # An open candidate played last keeps playing until it is resolved, unless the fit over
        # every candidate (which pools their games) puts another value clearly nearer the target.
        if self.rows:
            last = self.candidates[self.rows[-1]["values"]]
            if states[last.key] == OPEN and xl <= last.x <= xr:
                if x is None or fit is None or values_text(self.values(x)) == last.key:
                    return Plan(RUNNING, last.x, self.next_games(last))
                gain = (abs(self.predict(fit, last.x) - s.target)
                        - abs(self.predict(fit, self.canonical(x)) - s.target))
                if gain <= s.tolerance / 4:
                    return Plan(RUNNING, last.x, self.next_games(last))
        if x is None:
            # No untried value is left in the bracket: play on the candidates that may still be
            # within tolerance (their interval meets the band), nearest the target first.
            hopeful = [c for c in self.played() if xl <= c.x <= xr and self.may_be_inside(c)]
            if hopeful:
                best = min(hopeful, key=lambda c: abs(self.estimate(c)[0] - s.target))
                return Plan(RUNNING, best.x, self.next_games(best))
            a = max(left, key=lambda c: c.x, default=None)
            b = min(right, key=lambda c: c.x, default=None)
            names = " and ".join(c.key for c in (a, b) if c is not None)
            return Plan(BETWEEN, reason=f"no value of the rule lies between {names}: the target falls between "
                                        f"these neighbouring values and neither is within tolerance")
        c = self.candidate_if_played(x)
        return Plan(RUNNING, x, self.next_games(c) if c is not None else s.batch)

    def pick(self, x: float, xl: float, xr: float, states: dict[str, str]) -> float | None:
        """x (clipped into [xl, xr]) if its values are untried or still open; else the untried value
        nearest to it strictly inside the bracket; None when there is none."""
        x = min(max(x, xl), xr)
        if states.get(values_text(self.values(x)), OPEN) == OPEN:  # untried, or played and still open
            return x
        grid = np.linspace(xl, xr, 2001)[1:-1]
        resolved = {k for k, v in states.items() if v != OPEN}
        order = np.argsort(np.abs(grid - x), kind="stable")
        for i in order:
            k = values_text(self.values(float(grid[i])))
            if k not in resolved:
                return float(grid[i])
        return None

    def fit(self, xl: float, xr: float) -> tuple[float, float] | None:
        """(intercept, slope) of the metric on x (on the logit scale for a rate) over the candidates
        in [xl, xr], by least squares weighted by the precision of each candidate's estimate
        (statsmodels WLS); None when there are fewer than two of them or the fit fails."""
        points = []
        for c in self.played():
            if xl <= c.x <= xr and c.counted > 0:
                value, _, _, _, variance = self._estimate(c)
                if self.s.metric.is_rate:
                    p = min(max(value, 0.5 / c.counted), 1 - 0.5 / c.counted)
                    value, variance = math.log(p / (1 - p)), variance / (p * (1 - p)) ** 2
                if math.isfinite(value) and math.isfinite(variance) and variance > 0:
                    points.append((c.x, value, 1 / variance))
        if len({x for x, _, _ in points}) < 2:
            return None
        import statsmodels.api as sm

        xs, ys, weights = (np.array(column) for column in zip(*points))
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")  # two points fit exactly
                b0, b1 = sm.WLS(ys, sm.add_constant(xs, has_constant="add"), weights=weights).fit().params
        except Exception:  # a singular fit: bisect instead
            return None
        if not (math.isfinite(b0) and math.isfinite(b1)) or abs(b1) < 1e-12:
            return None
        return float(b0), float(b1)

    def predict(self, fit: tuple[float, float], x: float) -> float:
        line = fit[0] + fit[1] * x
        return 1 / (1 + math.exp(-max(min(line, 700), -700))) if self.s.metric.is_rate else line

    def root(self, fit: tuple[float, float] | None) -> float | None:
        """Where the fit meets the target."""
        if fit is None:
            return None
        link = math.log(self.s.target / (1 - self.s.target)) if self.s.metric.is_rate else self.s.target
        root = (link - fit[0]) / fit[1]
        return float(root) if math.isfinite(root) else None


# ------------------------------------------------------------------------------ playing games
class Player:
    """Plays batches of a candidate's games in this process (Numba threads)."""

    def __init__(self, game: Any, settings: Settings):
        from sim.core.lineup import lineup_indices

        self.game, self.s = game, settings
        self.bot_names, self.lineup = lineup_indices(settings.bots)

    def seat_bots(self, first: int, count: int) -> np.ndarray:
        """The bot in each seat of games first .. first+count-1: rotated, or every order in turn."""
        from sim.core.lineup import seat_bot_matrix

        return seat_bot_matrix(self.lineup, first, count, not self.s.permute, self.s.permute)

    def params(self, values: dict[str, Any]):
        from sim.core.sweep import resolve_with_overrides

        overrides = dict(self.s.overrides)
        overrides.update(values)
        return resolve_with_overrides(self.game, self.s.variant, overrides)

    def card_value(self, values: dict[str, Any], won: np.ndarray, first: int, count: int
                   ) -> tuple[np.ndarray, np.ndarray]:
        """card_value per game of games first .. first+count-1: the restricted seat's win in the
        unrestricted game (`won`) minus in the game played again with that seat forbidden the card
        (sim/studies/value.py's seat blocks); counts when both games have a winner."""
        from sim.core.backends import simulate_chunk
        from sim.studies.value import MAX_BLOCK, restricted_runs

        group = card_group(self.s.game, self.s.metric.item)
        p = self.s.players
        value = np.zeros(count)
        counts = np.zeros(count, dtype=bool)
        for seat, start, games in restricted_runs(first, count, p, MAX_BLOCK):
            forbid = dotted(group.forbid(seat, [self.s.metric.item]))
            params = self.params({**values, **forbid})
            seat_bots = self.seat_bots(start, games)
            result = simulate_chunk(self.game, params, p, self.bot_names, seat_bots, self.s.seed, start, games, False)
            if result.failures:
                index, message = min(result.failures)
                raise EngineFailure(f"engine failure in game {index} of run seed {self.s.seed} "
                                    f"({values_text(values)}, {self.s.metric.item} forbidden to seat {seat}): "
                                    f"{' '.join(str(message).split())}")
            restricted = np.asarray(result.player_columns["won"]).reshape(games, p).astype(bool)
            rows = slice(start - first, start - first + games)
            value[rows] = won[rows, seat].astype(np.float64) - restricted[:, seat]
            counts[rows] = won[rows].any(axis=1) & restricted.any(axis=1)
        return value, counts

    def play(self, values: dict[str, Any], first_game: int, n_games: int,
             on_games: Callable[[int], None] | None = None) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
        """(sums, each game's metric, whether each game counts) of games first_game ..
        first_game+n_games-1 of the candidate."""
        from sim.core.backends import simulate_chunk

        params = self.params(values)
        p = self.s.players
        out = {"games": 0, "counted": 0, "total": 0.0, "total_sq": 0.0, "wins_by_position": [0] * p,
               "score_by_position": [0.0] * p}
        slice_size = min(ENGINE_CHUNK, self.game.engine_slice(self.bot_names) or ENGINE_CHUNK)
        values_out, counted_out = [], []
        for first in range(first_game, first_game + n_games, slice_size):
            count = min(slice_size, first_game + n_games - first)
            seat_bots = self.seat_bots(first, count)
            result = simulate_chunk(self.game, params, p, self.bot_names, seat_bots, self.s.seed, first, count, False)
            if result.failures:
                index, message = min(result.failures)
                raise EngineFailure(f"engine failure in game {index} of run seed {self.s.seed} "
                                    f"({values_text(values)}): {' '.join(str(message).split())}")
            cols = result.player_columns
            won = np.asarray(cols["won"]).reshape(count, p).astype(bool)
            score = np.asarray(cols["score"]).reshape(count, p).astype(np.float64)
            position = (np.asarray(cols["start_order"]).reshape(count, p) if "start_order" in cols
                        else np.tile(np.arange(p), (count, 1)))
            if self.s.metric.kind == "card_held_win":
                group = card_group(self.s.game, self.s.metric.item)
                value, counts = held_win(won, np.asarray(cols[group.held + self.s.metric.item]).reshape(count, p) > 0)
            elif self.s.metric.kind == "card_value":
                value, counts = self.card_value(values, won, first, count)
            else:
                value, counts = game_metrics(self.s.metric, won, score, position)
            values_out.append(value)
            counted_out.append(counts)
            out["games"] += count
            out["counted"] += int(counts.sum())
            out["total"] += float(value[counts].sum())
            out["total_sq"] += float((value[counts] ** 2).sum())
            for k in range(p):
                at = position == k
                out["wins_by_position"][k] += int((won & at).sum())
                out["score_by_position"][k] += float((score * at).sum())
            if on_games is not None:
                on_games(count)
        return out, np.concatenate(values_out), np.concatenate(counted_out)


# ------------------------------------------------------------------------------ the dataset
def _rows_table(rows: list[dict[str, Any]]):
    import pyarrow as pa

    columns = ["step", "x", "values", "first_game", "games", "counted", "total", "total_sq", "wins_by_position",
               "score_by_position", "candidate_games", "metric", "lower", "upper", "paired", "state", "seconds"]
    return pa.table({name: [row.get(name) for row in rows] for name in columns})


def candidates_table(evidence: Evidence):
    """One row per candidate: x, its values, games, metric and interval, state, and each
    position's win rate and mean score."""
    import pandas as pd

    rate = evidence.s.metric.is_rate
    rows = []
    for c in evidence.played():
        value, lo, hi = evidence.estimate(c)
        own, own_lo, own_hi, _ = c.plain(rate)
        decided = c.counted if rate else None
        row = {"x": c.x, "values": c.key, "games": c.games, "counted": c.counted, "metric": value, "lower": lo,
               "upper": hi, "paired": evidence.estimate_kind(c), "own_metric": own, "own_lower": own_lo,
               "own_upper": own_hi, "state": evidence.state(c), "first_step": c.first_step}
        for name, v in c.values.items():
            row[f"param.{name}"] = json.dumps(v, separators=(",", ":"))
        for k in range(evidence.s.players):
            row[f"win_rate_position_{k}"] = (c.wins_by_position[k] / decided) if decided else (
                c.wins_by_position[k] / c.games if c.games else math.nan)
            row[f"mean_score_position_{k}"] = c.score_by_position[k] / c.games if c.games else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


def _save(out: Path, manifest: dict[str, Any], evidence: Evidence) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from sim.core.dataset import write_json_atomic, write_table_atomic

    if evidence.rows:  # the last batch's games first: batches.parquet is what makes a batch count
        step = evidence.rows[-1]["step"]
        value, counted = evidence.candidates[evidence.rows[-1]["values"]].parts[-1]
        first = evidence.rows[-1]["first_game"]
        (out / GAMES).mkdir(exist_ok=True)
        write_table_atomic(pa.table({"game": pa.array(np.arange(first, first + len(value), dtype=np.int64)),
                                     "value": pa.array(value), "counted": pa.array(counted)}),
                           out / GAMES / f"part-{step:05d}.parquet")
    write_table_atomic(_rows_table(evidence.rows), out / BATCHES)
    table = candidates_table(evidence)
    if len(table):
        write_table_atomic(pa.Table.from_pandas(table, preserve_index=False), out / CANDIDATES)
    else:
        pq.write_table(pa.table({"x": pa.array([], pa.float64())}), out / CANDIDATES)
    write_json_atomic(manifest, out / MANIFEST)


def _load(out: Path, settings: Settings) -> tuple[dict[str, Any], Evidence]:
    import pyarrow.parquet as pq

    from sim.core.runner import LATER_KEYS  # a search from before permute_seats was rotated

    try:
        manifest = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        raise UserError(f"{out} exists but holds no balance search to resume (no readable {MANIFEST}); "
                        f"remove it or choose another --out") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "balance":
        raise UserError(f"{out} holds no balance search to resume; remove it or choose another --out")
    stored, wanted = {**LATER_KEYS, **manifest.get("config", {})}, settings.identity()
    differences = [f"{key} {stored.get(key)!r} (requested {wanted.get(key)!r})"
                   for key in sorted(set(stored) | set(wanted))
                   if key not in EXECUTION_KEYS and stored.get(key) != wanted.get(key)]
    if differences:
        raise UserError(f"{out} holds a different balance search, not resumed: {'; '.join(differences)}")
    evidence = Evidence(settings)
    if (out / BATCHES).exists():
        for row in pq.read_table(out / BATCHES).to_pylist():
            try:
                games = pq.read_table(out / GAMES / f"part-{row['step']:05d}.parquet")
            except (OSError, ValueError) as exc:
                raise UserError(f"{out}: the games of batch {row['step']} cannot be read "
                                f"({' '.join(str(exc).split())[:120]}); the evidence is damaged") from None
            evidence.add({key: row[key] for key in ("x", "first_game", "games", "counted", "total", "total_sq",
                                                    "wins_by_position", "score_by_position", "seconds")},
                         games.column("value").to_numpy(), games.column("counted").to_numpy(zero_copy_only=False))
    return manifest, evidence


def read_evidence(out: str | Path) -> tuple[dict[str, Any], Any, Any]:
    """(manifest, batches, candidates) of a balance search's dataset, as pandas DataFrames."""
    import pandas as pd

    out = Path(out)
    try:
        manifest = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        raise UserError(f"{out} holds no balance search (no readable {MANIFEST})") from None
    if not isinstance(manifest, dict) or manifest.get("kind") != "balance":
        raise UserError(f"{out} holds no balance search (its manifest is not a sim balance one)")
    batches = pd.read_parquet(out / BATCHES) if (out / BATCHES).exists() else pd.DataFrame()
    candidates = pd.read_parquet(out / CANDIDATES) if (out / CANDIDATES).exists() else pd.DataFrame()
    return manifest, batches, candidates


# ------------------------------------------------------------------------------ the search
@dataclass
class SearchResult:
    status: str
    reason: str
    best: dict[str, Any] | None
    games: int
    seconds: float
    out: Path
    evidence: Evidence


def _result_record(evidence: Evidence, plan: Plan) -> dict[str, Any]:
    s = evidence.s
    chosen = evidence.candidate_if_played(plan.x) if plan.status == FOUND else evidence.closest()
    best = None
    if chosen is not None:
        value, lo, hi = evidence.estimate(chosen)
        own, own_lo, own_hi, _ = chosen.plain(s.metric.is_rate)
        ref = evidence.reference()
        best = {"x": chosen.x, "values": chosen.values, "games": chosen.games, "metric": value, "lower": lo,
                "upper": hi, "state": evidence.state(chosen), "paired": evidence.estimate_kind(chosen),
                "paired_with": ref.values if evidence.estimate_kind(chosen) and ref is not None else None,
                "own_metric": own, "own_lower": own_lo, "own_upper": own_hi}
    return {"status": plan.status, "reason": plan.reason, "best": best, "games": evidence.games,
            "candidates": len(evidence.played())}


def search(game: Any, settings: Settings, out: str | Path, resume: bool = False,
           progress: Callable[[dict[str, Any]], None] | None = None,
           on_start: Callable[[], None] | None = None) -> SearchResult:
    """Run (or resume) a balance search into `out`; see the module docstring.

    progress(row) is called after every batch with the batch's evidence row.
    """
    import sim
    from sim.core.runner import source_commit

    check_settings(settings)
    out = Path(out)
    if "\0" in str(out) or not str(out).strip():
        raise UserError(f"--out {str(out)!r} is not a usable directory name")
    player = Player(game, settings)
    for x in (settings.lo, settings.hi):  # every value of the range's ends must be a valid parameter
        player.params(Evidence(settings).values(x))
    if out.exists() and not resume:
        raise UserError(f"output directory {out} already exists (add --resume to continue the search in it, "
                        f"or choose another --out)")
    if out.exists():
        if not out.is_dir():
            raise UserError(f"{out} is not a directory")
        manifest, evidence = _load(out, settings)
    else:
        commit, dirty = source_commit()
        manifest = {"kind": "balance", "format": FORMAT, "status": RUNNING,
                    "created": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                    "sim_version": sim.__version__, "git_commit": commit, "git_dirty": dirty,
                    "command": settings.command, "config": settings.identity(),
                    "execution": {"games": settings.budget, "time_limit": settings.time_limit,
                                  "workers": settings.workers},
                    "metric_description": settings.metric.describe(),
                    "rules": [rule.label for rule in settings.rules], "wall_seconds": 0.0}
        evidence = Evidence(settings)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.mkdir()
            _save(out, manifest, evidence)
        except OSError as exc:
            raise UserError(f"cannot create the output directory {out}: {exc.strerror or exc}") from None
    manifest["execution"] = {"games": settings.budget, "time_limit": settings.time_limit,
                             "workers": settings.workers}
    if on_start is not None:
        on_start()
    previous_threads = numba.get_num_threads()
    numba.set_num_threads(min(settings.workers, numba.config.NUMBA_NUM_THREADS))
    started = time.perf_counter()
    wall_before = float(manifest.get("wall_seconds", 0.0))
    rate: float | None = None  # games per second of the last batch (sizes batches under --time-limit)
    created = not evidence.rows
    try:
        while True:
            plan = evidence.plan()
            if plan.status != RUNNING:
                break
            remaining = settings.budget - evidence.games
            if remaining < min(plan.games, settings.batch):
                plan = Plan(BUDGET, reason=f"the budget of {settings.budget:,} games is spent")
                break
            elapsed = time.perf_counter() - started
            if settings.time_limit is not None and rate is not None and elapsed >= settings.time_limit:
                plan = Plan(TIME, reason=f"the time limit of {settings.time_limit:g} s is reached "
                                         f"(--resume continues)")
                break
            c = evidence.candidate(plan.x)
            n_games = min(plan.games, remaining)
            if settings.time_limit is not None and rate:  # a batch that fits in the time left
                n_games = min(n_games, max(settings.batch, int((settings.time_limit - elapsed) * rate)))
            batch_started = time.perf_counter()
            stats, values, counted = player.play(c.values, c.games, n_games)
            seconds = time.perf_counter() - batch_started
            rate = n_games / seconds if seconds > 0 else None
            stats.update({"x": c.x, "first_game": c.games, "seconds": round(seconds, 3)})
            evidence.add(stats, values, counted)
            manifest["wall_seconds"] = round(wall_before + time.perf_counter() - started, 3)
            _save(out, manifest, evidence)
            if progress is not None:
                progress(evidence.rows[-1])
    except KeyboardInterrupt:
        raise Interrupted(f"interrupted; {len(evidence.rows)} batches are saved in {out}: run the same command "
                          f"with --resume to continue") from None
    except EngineFailure:
        if created and not evidence.rows:  # a new search that played nothing leaves nothing behind
            import shutil

            shutil.rmtree(out, ignore_errors=True)
        raise
    finally:
        numba.set_num_threads(previous_threads)
    manifest["wall_seconds"] = round(wall_before + time.perf_counter() - started, 3)
    manifest["result"] = _result_record(evidence, plan)
    manifest["status"] = "complete" if plan.status in (FOUND, OUT_OF_RANGE, BETWEEN) else "stopped"
    _save(out, manifest, evidence)
    return SearchResult(plan.status, plan.reason, manifest["result"]["best"], evidence.games,
                        manifest["wall_seconds"], out, evidence)


__all__ = ["search", "Settings", "Evidence", "Rule", "Metric", "parse_metric", "parse_rules", "game_metrics",
           "read_evidence", "candidates_table", "SearchResult", "FOUND", "OUT_OF_RANGE", "BETWEEN", "BUDGET",
           "TIME", "DEFAULT_BATCH", "DEFAULT_BUDGET", "METRIC_HELP"]
