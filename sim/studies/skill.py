"""`sim skill GAME`: the headline verdicts measured at every rung of play, weakest first.

A verdict is only as good as the players that produced it, so each headline is measured again at
every level of play the game has (its skill.toml: random, the untuned styles, the tuned styles,
each league generation, the search bot) and labelled by how it moves with skill.

Each rung is one tournament dataset (sim/studies/tournament.py: the same seeds in every line-up,
seats rotated, or with skill.toml's `seating = "permuted"` every seating order of a rung's mixed
line-up, for a game where who sits before whom matters) holding
- a mirror line-up per bot of the rung (the same bot in every seat): the seat verdicts (first
  player, seat imbalance), score spread, winning margin and game length, pooled over the rung's
  bots, so they describe the seats at that level of play, not which bot sat where;
- the mixed line-up of the rung's bots (when it has two or more): each style's win share.
A game whose skill.toml names an effect (Cuzco: the Pututu module) plays every rung again with
the effect on, on the same seeds, and each verdict's change is a verdict of its own.

The evidence directory (--out) holds manifest.json (settings, command, timing, the rungs and their
datasets), verdicts.parquet (one row per rung x verdict x item: value and 95% interval) and
labels.parquet (one row per verdict x item: its label and why). `sim/analysis/skill.py` reads it;
the report page reads the committed copy in sim/games/<game>/skill/, so `make run` does not
recompute it.

Labels (decided per verdict and item over the rungs, weakest first):
- flips: one rung's interval lies above the reference (fair share, or no change) and another's
  below it;
- grows with skill / shrinks with skill: the weighted least-squares slope of the verdict's
  distance from its reference (of the value itself, for a verdict without one) against the rung's
  place in the order (0, 1, 2, ...; weights 1/se^2, variances taken as known) has a 95% interval
  above / below zero;
- holds at every level: no significant slope, and every rung says the same thing (all above, all
  below, or all inside the reference's interval; for a verdict without a reference, every rung's
  interval shares a common value);
- unclear: none of these (rungs disagree without a significant trend, usually too few games).
"""
from __future__ import annotations

import json
import math
import os
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from sim.core.errors import UserError
from sim.core.game import Game
from sim.core.stats import Z95

SKILL_FILE = "skill.toml"
SEATINGS = ("rotated", "permuted")
EVIDENCE_FORMAT = 1
BOOTSTRAP = 400  # resamples of games for the seat imbalance's interval

# verdict -> (short name, what it measures, unit, reference: "fair" = 1/P, None = no reference)
VERDICTS: dict[str, tuple[str, str, str, str | None]] = {
    "first_player": ("first player", "the first player's win rate (mirror line-ups)", "rate", "fair"),
    "seat_imbalance": ("seat imbalance", "root-mean-square distance of the turn positions' win rates from the fair "
                       "share, sampling noise removed (mirror line-ups)", "rate", None),
    "position": ("turn position", "win rate by turn position (mirror line-ups)", "rate", "fair"),
    "score_spread": ("score spread", "standard deviation of the scores within a game (mirror line-ups)", "points",
                     None),
    "margin": ("winning margin", "the winner's score minus the runner-up's (mirror line-ups)", "points", None),
    "length": ("game length", "rounds a game lasts (mirror line-ups)", "rounds", None),
    "style_share": ("win share", "each style's win share in the rung's mixed line-up", "rate", "fair"),
}
LABELLED = ("first_player", "seat_imbalance", "score_spread", "margin", "length", "style_share")
EFFECT_PREFIX = "effect:"  # an effect's verdicts: "effect:first_player", ... (reference 0)


# ---------------------------------------------------------------------------------- the spec
@dataclass(frozen=True)
class Rung:
    """One level of play: its bots (one mirror line-up each, plus their mixed line-up), the styles
    they play (to follow a style from rung to rung), its games per line-up when not the default."""

    name: str
    bots: tuple[str, ...]
    styles: tuple[str, ...]
    description: str = ""
    games: int | None = None  # games per line-up; None: the spec's (or --games)
    slow: bool = False        # a search rung: --search-games sets its games


@dataclass(frozen=True)
class SkillEffect:
    label: str
    param: str
    off: Any
    on: Any


@dataclass(frozen=True)
class SkillSpec:
    game: str
    players: int
    games: int
    rungs: tuple[Rung, ...]
    effect: SkillEffect | None = None
    source: str = ""
    seating: str = "rotated"  # or "permuted": a mixed line-up in every seating order (skill.toml `seating`)

    def record(self) -> dict[str, Any]:
        return {"players": self.players, "games": self.games, "rungs": [asdict(r) for r in self.rungs],
                "effect": None if self.effect is None else asdict(self.effect), "source": self.source,
                "seating": self.seating}

    def permutes(self, rung: Rung) -> bool:
        """Whether the rung's datasets seat every ordering: only a rung with a mixed line-up (a
        mirror line-up is the same table in every order)."""
        return self.seating == "permuted" and len(rung.bots) > 1


def game_folder(game: Game) -> Path:
    """The game's package folder (its data files live there)."""
    return Path(sys.modules[type(game).__module__].__file__).resolve().parent


def skill_file(game: Game) -> Path:
    return game_folder(game) / SKILL_FILE


def load_skill_spec(game: Game, path: str | Path | None = None) -> SkillSpec:
    """The game's skill.toml; every key checked, errors name the file and the key."""
    from sim.core.params import load_toml

    path = Path(path) if path is not None else skill_file(game)
    if not path.is_file():
        raise UserError(f"{game.name} declares no skill rungs (no {path.name} in its folder)")
    data = load_toml(path)
    where = str(path)

    def check_keys(entry: dict, known: set[str], at: str) -> None:
        stray = sorted(set(entry) - known)
        if stray:
            raise UserError(f"{at}: unknown key '{stray[0]}' (known: {', '.join(sorted(known))})")

    def whole(value: Any, at: str, low: int = 1) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise UserError(f"{at} must be a whole number of at least {low}, not {value!r}")
        return value

    check_keys(data, {"players", "games", "rungs", "effect", "seating"}, where)
    seating = data.get("seating", "rotated")
    if seating not in SEATINGS:
        raise UserError(f"{where}: seating must be one of {', '.join(SEATINGS)}, not {seating!r}")
    players = whole(data.get("players", game.default_players), f"{where}: players", 2)
    games = whole(data.get("games", 8000), f"{where}: games", players)
    known_bots = game.bots()
    entries = data.get("rungs")
    if not isinstance(entries, list) or len(entries) < 2:
        raise UserError(f"{where}: give at least two [[rungs]], weakest first")
    rungs = []
    for i, entry in enumerate(entries):
        at = f"{where}: rungs[{i}]"
        if not isinstance(entry, dict):
            raise UserError(f"{at} must be a table")
        check_keys(entry, {"name", "bots", "styles", "description", "games", "slow"}, at)
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise UserError(f"{at}: give the rung a name")
        bots = entry.get("bots")
        if not isinstance(bots, list) or not bots or not all(isinstance(b, str) for b in bots):
            raise UserError(f"{at} ({name}): bots must be a list of bot names")
        for bot in bots:
            if bot not in known_bots:
                raise UserError(f"{at} ({name}): unknown bot '{bot}' for {game.name}")
        if len(set(bots)) != len(bots):
            raise UserError(f"{at} ({name}): a bot is listed twice")
        styles = entry.get("styles", bots)
        if not isinstance(styles, list) or len(styles) != len(bots):
            raise UserError(f"{at} ({name}): styles must name one style per bot ({len(bots)})")
        rung_games = entry.get("games")
        if rung_games is not None:
            rung_games = whole(rung_games, f"{at} ({name}): games", players)
        rungs.append(Rung(name, tuple(bots), tuple(str(s) for s in styles), str(entry.get("description", "")),
                          rung_games, bool(entry.get("slow", False))))
    if len({r.name for r in rungs}) != len(rungs):
        raise UserError(f"{where}: two rungs share a name")
    effect = None
    if "effect" in data:
        entry = data["effect"]
        if not isinstance(entry, dict):
            raise UserError(f"{where}: [effect] must be a table")
        check_keys(entry, {"label", "param", "off", "on"}, f"{where}: [effect]")
        for key in ("label", "param"):
            if not isinstance(entry.get(key), str):
                raise UserError(f"{where}: [effect] {key} must be text")
        effect = SkillEffect(entry["label"], entry["param"], entry.get("off", False), entry.get("on", True))
    return SkillSpec(game.name, players, games, tuple(rungs), effect, str(path), seating)


def rung_lineups(rung: Rung, n_players: int) -> list[tuple[str, ...]]:
    """Every bot's mirror line-up, then (two or more bots) the mixed line-up: the rung's bots round
    the table, repeated when it has fewer than n_players."""
    out = [tuple([bot] * n_players) for bot in rung.bots]
    if len(rung.bots) > 1:
        out.append(tuple(rung.bots[i % len(rung.bots)] for i in range(n_players)))
    return out


def mirror_label(bot: str, n_players: int) -> str:
    from sim.studies.tournament import lineup_label

    return lineup_label([bot] * n_players)


# ------------------------------------------------------------------------------ the verdicts
def _rate_row(wins: float, n: int) -> tuple[float, float, float]:
    from sim.core.stats import rate_ci

    rate, low, high = rate_ci(wins, n)
    return float(rate), float(low), float(high)


def _mean_row(values: np.ndarray) -> tuple[float, float, float]:
    values = np.asarray(values, dtype=np.float64)
    if len(values) == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def seat_imbalance(wins: np.ndarray) -> float:
    """Root-mean-square distance of the turn positions' win rates from the fair share (their mean),
    with the sampling noise taken out: E[sum (r_p - 1/P)^2] = sum (pi_p - 1/P)^2 + sum pi_p (1 - pi_p) / n
    for one winner a game, so the excess over the noise term estimates the seats' real spread.
    wins: [games, P] win indicators of decided games."""
    n, n_players = wins.shape
    if n < 2:
        return math.nan
    rates = wins.mean(axis=0)
    excess = np.sum((rates - rates.mean()) ** 2) - np.sum(rates * (1 - rates)) / (n - 1)
    return math.sqrt(max(excess, 0.0) / n_players)


def _imbalance_row(wins: np.ndarray, seed: int) -> tuple[float, float, float]:
    value = seat_imbalance(wins)
    if math.isnan(value):
        return value, math.nan, math.nan
    rng = np.random.default_rng(seed)
    n = len(wins)
    boot = np.array([seat_imbalance(wins[rng.integers(0, n, n)]) for _ in range(BOOTSTRAP)])
    low, high = np.quantile(boot, [0.025, 0.975])
    return value, float(min(low, value)), float(max(high, value))


def mirror_verdicts(players: pd.DataFrame, games: pd.DataFrame, n_players: int, seed: int = 0) -> list[dict]:
    """The seat, score and length verdicts of a rung's mirror games (players rows keyed by `game`,
    a line-up-unique game key; the turn position in `position`)."""
    rows: list[dict] = []
    decided_games = players.groupby("game", sort=False)["won"].transform("any")
    decided = players[decided_games.to_numpy()]
    n_decided = decided["game"].nunique()
    wins = np.zeros((n_decided, n_players))
    codes, _ = pd.factorize(decided["game"])
    wins[codes, decided["position"].to_numpy(np.int64)] = decided["won"].to_numpy(np.float64)
    # the fair share: a position's win rate if every position won equally often (1/P, a little more
    # in a game with shared wins)
    fair = float(wins.mean()) if n_decided else 1 / n_players
    for p in range(n_players):
        value, low, high = _rate_row(wins[:, p].sum(), n_decided)
        rows.append(dict(verdict="position", item=str(p), value=value, low=low, high=high, n=n_decided,
                         reference=fair))
        if p == 0:
            rows.append(dict(verdict="first_player", item="", value=value, low=low, high=high, n=n_decided,
                             reference=fair))
    value, low, high = _imbalance_row(wins, seed)
    rows.append(dict(verdict="seat_imbalance", item="", value=value, low=low, high=high, n=n_decided,
                     reference=math.nan))
    if "score" in players:
        scores = players[["game", "score"]].copy()
        scores["score"] = scores["score"].astype(np.float64)
        by_game = scores.groupby("game", sort=False)["score"]
        spread = by_game.std(ddof=0).to_numpy()
        ordered = np.sort(scores.pivot_table(index="game", columns=scores.groupby("game").cumcount(),
                                             values="score").to_numpy(), axis=1)
        margin = ordered[:, -1] - ordered[:, -2]
        for verdict, values in (("score_spread", spread), ("margin", margin)):
            value, low, high = _mean_row(values)
            rows.append(dict(verdict=verdict, item="", value=value, low=low, high=high, n=len(values),
                             reference=math.nan))
    if games is not None and "n_rounds" in games:
        value, low, high = _mean_row(games["n_rounds"].to_numpy(np.float64))
        rows.append(dict(verdict="length", item="", value=value, low=low, high=high, n=len(games),
                         reference=math.nan))
    return rows


def mixed_verdicts(players: pd.DataFrame, styles: dict[str, str], n_players: int) -> list[dict]:
    """Each style's win share in the rung's mixed line-up (decided games; a style seated twice
    counts both seats)."""
    decided = players[players.groupby("game", sort=False)["won"].transform("any").to_numpy()]
    fair = float(decided["won"].mean()) if len(decided) else 1 / n_players  # 1/P, more with shared wins
    rows = []
    for bot, style in styles.items():
        mine = decided[decided["bot"].astype(str) == bot]
        value, low, high = _rate_row(float(mine["won"].sum()), len(mine))
        rows.append(dict(verdict="style_share", item=style, value=value, low=low, high=high, n=len(mine),
                         reference=fair))
    return rows


def _read_lineup(path: Path, label: str) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """(players, games) of one line-up of a tournament dataset: the columns the verdicts read,
    `game` a key per game, `position` the turn position (start_order when recorded, else seat)."""
    from sim.analysis.io import open_dataset
    from sim.studies.tournament import LINEUP

    dataset = open_dataset(path, cell={LINEUP: label})
    names = dataset.player_columns()
    position = "start_order" if "start_order" in names else "seat"
    columns = ["game_id", "bot", "won", position] + (["score"] if "score" in names else [])
    players = dataset.players(list(dict.fromkeys(columns)))
    players["game"] = players["game_id"].astype(np.int64)
    players["position"] = players[position].astype(np.int64)
    games = dataset.games(["game_id", "n_rounds"]) if "n_rounds" in dataset.game_columns() else None
    return players, games


def rung_verdicts(path: Path, rung: Rung, n_players: int, seed: int = 0) -> list[dict]:
    """Every verdict of one rung's dataset (its mirror line-ups pooled, its mixed line-up)."""
    from sim.studies.tournament import lineup_label

    pooled_players, pooled_games = [], []
    for k, bot in enumerate(rung.bots):
        players, games = _read_lineup(path, mirror_label(bot, n_players))
        players["game"] += k * 10**9  # each mirror line-up replays game ids 0..G-1
        pooled_players.append(players)
        if games is not None:
            pooled_games.append(games)
    players = pd.concat(pooled_players, ignore_index=True)
    games = pd.concat(pooled_games, ignore_index=True) if pooled_games else None
    rows = mirror_verdicts(players, games, n_players, seed)
    lineups = rung_lineups(rung, n_players)
    if len(rung.bots) > 1:
        mixed, _ = _read_lineup(path, lineup_label(lineups[-1]))
        rows += mixed_verdicts(mixed, dict(zip(rung.bots, rung.styles)), n_players)
    return rows


def effect_rows(base: list[dict], with_effect: list[dict]) -> list[dict]:
    """Each verdict's change with the effect on (same seeds): the difference, its interval from the
    two intervals' standard errors (independent, so conservative under common random numbers)."""
    found = {(r["verdict"], r["item"]): r for r in with_effect}
    rows = []
    for r in base:
        other = found.get((r["verdict"], r["item"]))
        if other is None or r["verdict"] == "position":
            continue
        se = math.hypot((r["high"] - r["low"]) / (2 * Z95), (other["high"] - other["low"]) / (2 * Z95))
        diff = other["value"] - r["value"]
        rows.append(dict(verdict=EFFECT_PREFIX + r["verdict"], item=r["item"], value=diff, low=diff - Z95 * se,
                         high=diff + Z95 * se, n=min(r["n"], other["n"]), reference=0.0))
    return rows


# --------------------------------------------------------------------------------- labels
def _slope(x: np.ndarray, y: np.ndarray, se: np.ndarray) -> tuple[float, float, float]:
    """Weighted least-squares slope of y on x with known standard errors: (slope, low, high)."""
    import statsmodels.api as sm

    se = np.maximum(se, 1e-9)
    if len(x) < 2 or np.allclose(y, y[0]) and np.all(se <= 1e-9):
        return 0.0, 0.0, 0.0
    fit = sm.WLS(y, sm.add_constant(x), weights=1 / se**2).fit(cov_type="fixed scale")
    low, high = fit.conf_int()[1]
    return float(fit.params[1]), float(low), float(high)


def label_series(values: Sequence[float], lows: Sequence[float], highs: Sequence[float],
                 reference: float | None) -> tuple[str, str]:
    """(label, why) of one verdict over the rungs, weakest first (the module docstring's rules)."""
    v, lo, hi = (np.asarray(a, dtype=np.float64) for a in (values, lows, highs))
    keep = ~(np.isnan(v) | np.isnan(lo) | np.isnan(hi))
    x = np.arange(len(v), dtype=np.float64)[keep]
    v, lo, hi = v[keep], lo[keep], hi[keep]
    if len(v) < 2:
        return "unclear", "fewer than two rungs measured"
    se = (hi - lo) / (2 * Z95)
    if reference is not None and not math.isnan(reference):
        signs = np.where(lo > reference, 1, np.where(hi < reference, -1, 0))
        if (signs > 0).any() and (signs < 0).any():
            return "flips", "above the reference at one rung, below it at another"
        direction = 1.0 if np.sum((v - reference) / np.maximum(se, 1e-9) ** 2) >= 0 else -1.0
        slope, s_lo, s_hi = _slope(x, direction * (v - reference), se)
        what = "distance from the reference"
        agree = len(set(signs.tolist())) == 1
        side = {1: "above the reference", -1: "below the reference", 0: "inside the reference's interval"}
        same = f"{side[int(signs[0])]} at every rung" if agree else ""
    else:
        slope, s_lo, s_hi = _slope(x, v, se)
        what = "value"
        agree = bool(lo.max() <= hi.min())
        same = "every rung's interval shares a common value" if agree else ""
    trend = f"slope of the {what} per rung {slope:+.4g} [{s_lo:+.4g}, {s_hi:+.4g}]"
    if s_lo > 0:
        return "grows with skill", trend
    if s_hi < 0:
        return "shrinks with skill", trend
    if agree:
        return "holds at every level", f"{same}; {trend}"
    return "unclear", f"the rungs disagree without a significant trend; {trend}"


def label_table(verdicts: pd.DataFrame, rung_order: Sequence[str]) -> pd.DataFrame:
    """One label per verdict x item (the labelled verdicts and every effect) over the rungs."""
    rows = []
    order = {name: i for i, name in enumerate(rung_order)}
    wanted = verdicts[verdicts["verdict"].isin(LABELLED) | verdicts["verdict"].str.startswith(EFFECT_PREFIX)]
    for (verdict, item), group in wanted.groupby(["verdict", "item"], sort=False):
        group = group.sort_values("rung", key=lambda s: s.map(order))
        reference = group["reference"].iloc[0]
        label, why = label_series(group["value"], group["low"], group["high"],
                                  None if math.isnan(reference) else float(reference))
        rows.append(dict(verdict=verdict, item=item, label=label, why=why, rungs=len(group)))
    return pd.DataFrame(rows, columns=["verdict", "item", "label", "why", "rungs"])


# ------------------------------------------------------------------------------------ running
@dataclass
class SkillSettings:
    players: int | None = None
    games: int | None = None          # games per line-up at the heuristic rungs (default: skill.toml's)
    search_games: int | None = None   # games per line-up at the slow rungs (default: skill.toml's)
    seed: int = 0
    workers: int | None = None
    out: Path | None = None
    data: Path | None = None
    rungs: tuple[str, ...] | None = None  # only these rungs (default: all)
    effect: bool = True
    progress: bool = True
    command: str = ""
    chunk_size: int = 10_000


def default_out(game: str, players: int, seed: int) -> Path:
    return Path("data") / f"skill-{game}-{players}p-s{seed}"


def rung_games(spec: SkillSpec, rung: Rung, settings: SkillSettings, n_players: int) -> int:
    games = (settings.search_games if rung.slow and settings.search_games is not None
             else settings.games if not rung.slow and settings.games is not None
             else rung.games if rung.games is not None else spec.games)
    if games < n_players or games % n_players:
        raise UserError(f"rung {rung.name}: games per line-up must be a positive multiple of the player count "
                        f"{n_players} (got {games})")
    if spec.permutes(rung) and games % math.factorial(n_players):
        raise UserError(f"rung {rung.name}: with seating = \"permuted\" games per line-up must be a multiple of "
                        f"{math.factorial(n_players)} ({n_players}!, every ordering) (got {games})")
    return games


def effect_overrides(game: Game, effect: SkillEffect | None, with_effect: bool) -> dict[str, Any] | None:
    """A pass's parameter overrides: the effect's `on` value, or its `off` value unless that is the
    game's own (then none), so the base pass is the same run whether or not the effect is played
    (a `--no-effect` run's datasets are reused by a run with it, and the reverse)."""
    if effect is None:
        return None
    if with_effect:
        return {effect.param: effect.on}
    from sim.core.params import strip_provenance
    from sim.core.paramspec import lookup

    try:
        own = lookup(strip_provenance(game.resolve_params(None).resolved), effect.param)
    except (KeyError, TypeError):  # not a key of the game's data: the run's own check names it
        return {effect.param: effect.off}
    return None if own == effect.off else {effect.param: effect.off}


def run_skill(game: Game, settings: SkillSettings, spec: SkillSpec | None = None) -> Path:
    """Play (or reuse, or finish) every rung's datasets and write the evidence; returns its folder."""
    spec = spec or load_skill_spec(game)
    n_players = settings.players or spec.players
    rungs = list(spec.rungs)
    if settings.rungs:
        unknown = [r for r in settings.rungs if r not in {x.name for x in rungs}]
        if unknown:
            raise UserError(f"--rungs: unknown rung '{unknown[0]}' (known: {', '.join(r.name for r in rungs)})")
        rungs = [r for r in rungs if r.name in settings.rungs]
    out = settings.out or default_out(game.name, n_players, settings.seed)
    data = settings.data or out / "runs"
    sizes = {r.name: rung_games(spec, r, settings, n_players) for r in rungs}
    effect = spec.effect if settings.effect else None
    started = time.perf_counter()
    records, rows = [], []
    for i, rung in enumerate(rungs):
        lineups = rung_lineups(rung, n_players)
        for with_effect in ([False, True] if effect else [False]):
            folder = data / (rung.name + ("-" + _slug(effect.label) if with_effect else ""))
            overrides = effect_overrides(game, effect, with_effect)
            if settings.progress:
                print(f"skill {game.name}: rung {i + 1}/{len(rungs)} {rung.name}"
                      + (f" ({effect.label})" if with_effect else "")
                      + f", {len(lineups)} line-ups x {sizes[rung.name]:,} games", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            _play_rung(game, rung, lineups, folder, n_players, sizes[rung.name], settings, overrides,
                       spec.permutes(rung))
            seconds = _played_seconds(folder, time.perf_counter() - t0)
            found = rung_verdicts(folder, rung, n_players, settings.seed)
            for r in found:
                r.update(rung=rung.name, rung_index=i, variant=effect.label if with_effect else "base")
            rows += found
            records.append({"rung": rung.name, "variant": effect.label if with_effect else "base",
                            "dataset": str(folder), "games_per_lineup": sizes[rung.name],
                            "lineups": len(lineups), "seconds": round(seconds, 1)})
    verdicts = pd.DataFrame(rows)
    base = verdicts[verdicts["variant"] == "base"]
    if effect:
        extra = []
        for rung in rungs:
            b = base[base["rung"] == rung.name].to_dict("records")
            e = verdicts[(verdicts["variant"] == effect.label) & (verdicts["rung"] == rung.name)].to_dict("records")
            for r in effect_rows(b, e):
                r.update(rung=rung.name, rung_index=b[0]["rung_index"], variant="base")
                extra.append(r)
        verdicts = pd.concat([verdicts, pd.DataFrame(extra)], ignore_index=True)
    columns = ["rung", "rung_index", "variant", "verdict", "item", "value", "low", "high", "n", "reference"]
    verdicts = verdicts[columns]
    labels = label_table(verdicts[verdicts["variant"] == "base"], [r.name for r in rungs])
    write_evidence(out, game, spec, settings, n_players, rungs, records, verdicts, labels,
                   max(time.perf_counter() - started, sum(r["seconds"] for r in records)))
    return out


def _play_rung(game: Game, rung: Rung, lineups: list[tuple[str, ...]], folder: Path, n_players: int,
               n_games: int, settings: SkillSettings, overrides: dict | None, permute: bool = False) -> None:
    """One rung's line-ups as a tournament dataset (its cells, seating and manifest), played, finished
    or, when complete with the same configuration, reused; permute: every seating order."""
    from sim.core.runner import run_plan
    from sim.studies.tournament import plan_tournament

    plan = plan_tournament(game, list(rung.bots), n_players, n_games, settings.seed, settings.chunk_size, None,
                           overrides, lineup_list=lineups, permute=permute)
    run_plan(plan, folder, settings.workers or os.cpu_count() or 1, resume=True, progress=settings.progress)


def _played_seconds(folder: Path, fallback: float) -> float:
    """The seconds a rung's dataset took to play (its manifest's timings, so a reused dataset keeps
    them), else the time just spent."""
    from sim.core.dataset import read_manifest

    try:
        return float(read_manifest(folder)["timings"]["total_seconds"])
    except (UserError, KeyError, TypeError, ValueError):
        return fallback


def _slug(text: str) -> str:
    import re

    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def write_evidence(out: Path, game: Game, spec: SkillSpec, settings: SkillSettings, n_players: int,
                   rungs: list[Rung], records: list[dict], verdicts: pd.DataFrame, labels: pd.DataFrame,
                   seconds: float) -> None:
    from sim.core.runner import source_commit
    from sim.core.dataset import write_json_atomic

    out.mkdir(parents=True, exist_ok=True)
    verdicts.to_parquet(out / "verdicts.parquet", index=False)
    labels.to_parquet(out / "labels.parquet", index=False)
    commit, dirty = source_commit()
    manifest = {"format": EVIDENCE_FORMAT, "kind": "skill", "game": game.name, "players": n_players,
                "seed": settings.seed, "command": settings.command, "spec": spec.record(),
                "rungs": [r.name for r in rungs], "datasets": records, "seconds": round(seconds, 1),
                "git": commit, "git_dirty": dirty, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    write_json_atomic(manifest, out / "manifest.json")


def read_evidence(path: str | Path) -> tuple[dict[str, Any], pd.DataFrame, pd.DataFrame]:
    """(manifest, verdicts, labels) of a skill evidence folder; a one-line error if it is not one."""
    path = Path(path)
    manifest_path = path / "manifest.json"
    if not manifest_path.is_file():
        raise UserError(f"{path}: not a skill evidence folder (no manifest.json; made by `sim skill`)")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("kind") != "skill":
        raise UserError(f"{path}: manifest.json is not a `sim skill` evidence's")
    return manifest, pd.read_parquet(path / "verdicts.parquet"), pd.read_parquet(path / "labels.parquet")


__all__ = ["Rung", "SkillSpec", "SkillEffect", "SkillSettings", "load_skill_spec", "rung_lineups",
           "mirror_verdicts", "mixed_verdicts", "seat_imbalance", "label_series", "label_table", "run_skill",
           "read_evidence", "VERDICTS", "LABELLED", "EFFECT_PREFIX"]
