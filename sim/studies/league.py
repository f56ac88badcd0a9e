"""`sim league GAME`: self-play league tuning, generation after generation.

Each style was first tuned against the untuned styles (issue 14), not against each other, which
left the default line-ups uneven. A league tunes generation k+1 of every style against
generation k of all the styles (its own among them, so its tables hold mirror and mixed seats),
and keeps the new weights only if they beat generation k on held-out games:

- generation 0 is the line-up named by --from (default: the game's default line-up), one bot per
  style; each style's base bot (--styles, default: the names with "-tuned" / "-gN" taken off) is
  the heuristic whose weights are tuned;
- `sim tune` (sim/studies/tune.py) tunes each style from its generation-k weights against the pool
  of every style's generation k, then plays its held-out validation: the new weights and the
  generation-k weights on the same held-out games against the same pool;
- the new weights are kept, as the bot <style>-g<k+1>, when their held-out win rate beats the old
  weights' with a 95% interval of the difference above zero (the two Wilson intervals' standard
  errors combined, conservative for these paired games); otherwise the style stays at generation k;
- the league stops after --generations generations, or earlier at the first generation in which
  no style's gain is significant (its gain is inside its interval).

Every kept generation is written to the game's bots.tuned.toml with its provenance (a named bot: a
rung of `sim skill`), and the league's record (every style's gain per generation, kept or not) to
the game's tune_logs/league.json. --set-default makes the last generation the default line-up
(bots.toml [lineup] default).
"""
from __future__ import annotations

import json
import math
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.core.bots_file import GENERATION_NAME, base_style, generation_name
from sim.core.errors import UserError
from sim.core.stats import Z95



@dataclass
class LeagueSettings:
    start: list[str] | None = None    # generation 0, one bot per style (default: the default line-up)
    styles: list[str] | None = None   # each style's base heuristic bot (default: start's names, suffix off)
    generations: int = 3
    tune_generations: int = 8
    games: int = 400
    validation_games: int = 2000
    players: int | None = None
    seed: int = 0
    workers: int = 1
    state_dir: Path | None = None
    set_default: bool = False
    progress: bool = True
    command: str = ""
    sigma: float = 0.15  # CMA-ES's first step: small, the tunes start from tuned weights
    variants: list[str] | None = None  # variant files to tune for ("base" the base game; default: the base game)
    permute: bool = False  # each tune's line-ups in every seating order (sim tune --permute-seats)


@dataclass
class LeagueResult:
    generations: list[dict[str, Any]] = field(default_factory=list)
    final: list[str] = field(default_factory=list)
    stopped: str = ""


def gain_interval(new_wins: int, new_games: int, old_wins: int, old_games: int) -> tuple[float, float, float]:
    """(gain, low, high): the held-out win-rate difference new - old with a normal 95% interval."""
    p1, p2 = new_wins / new_games, old_wins / old_games
    se = math.sqrt(p1 * (1 - p1) / new_games + p2 * (1 - p2) / old_games)
    return p1 - p2, p1 - p2 - Z95 * se, p1 - p2 + Z95 * se


def _styles(game, start: list[str], styles: list[str] | None) -> list[str]:
    if styles is None:
        styles = [base_style(name) for name in start]
    if len(styles) != len(start):
        raise UserError(f"--styles names {len(styles)} bots but --from names {len(start)}")
    known = game.bots()
    for style in styles:
        if style not in known:
            raise UserError(f"unknown bot '{style}' for {game.name} (give each style's base bot with --styles)")
        if not game.weight_names(style):
            raise UserError(f"bot '{style}' of {game.name} has no weights to tune")
    return styles


def _variants(game, paths: list[str] | None):
    """The parameters each tune plays under: the base game, or every --variant (as `sim tune`)."""
    from sim.core.params import BASE_VARIANT
    from sim.core.sweep import resolve_with_overrides

    variants = [resolve_with_overrides(game, None if path == BASE_VARIANT else path, {}) for path in (paths or [None])]
    if len({v.variant_name for v in variants}) < len(variants):
        raise UserError("--variant: the same variant is named twice")
    return variants if len(variants) > 1 else variants[0]


def run_league(game, settings: LeagueSettings) -> LeagueResult:
    """Play the league (module docstring); returns its record, also written to tune_logs/league.json."""
    from sim.studies.tune import TuneSettings, tune, tuned_log_path, write_tuned_bot

    s = settings
    start = list(s.start) if s.start else list(game.default_bots(s.players or game.default_players))
    known = game.bots()
    for name in start:
        if name not in known:
            raise UserError(f"--from: unknown bot '{name}' for {game.name}")
    if len(set(start)) != len(start):
        raise UserError("--from names a bot twice (one bot per style)")
    styles = _styles(game, start, s.styles)
    for option, value in (("--generations", s.generations), ("--tune-generations", s.tune_generations),
                          ("--games", s.games), ("--validation-games", s.validation_games)):
        if value < 1:
            raise UserError(f"{option} must be at least 1 (got {value})")
    params = _variants(game, s.variants)
    state_dir = s.state_dir or Path("data") / "league" / game.name
    scratch = state_dir / "candidates.toml"
    current = dict(zip(styles, start))
    first_k = 1 + max((int(m["k"]) for name in start if (m := GENERATION_NAME.match(name))), default=0)
    record = LeagueResult()
    tuned_file = game.tuned_bots_path()
    started = time.perf_counter()
    for k in range(first_k, first_k + s.generations):
        pool = [current[style] for style in styles]
        entries = []
        for i, style in enumerate(styles):
            name = generation_name(style, k)
            if s.progress:
                print(f"league {game.name}: generation {k}, {style} from {current[style]} against "
                      f"{', '.join(pool)}", file=sys.stderr, flush=True)
            result = tune(game, params, TuneSettings(
                bot=style, pool=pool, start=current[style], players=s.players, games=s.games, sigma=s.sigma,
                generations=s.tune_generations, seed=s.seed * 1000 + k * 10 + i,
                validation_games=s.validation_games, state=state_dir / f"g{k}-{style}.state.pkl",
                out=scratch, resume=(state_dir / f"g{k}-{style}.state.pkl").exists(), workers=s.workers,
                progress=s.progress, command=s.command, name=name, permute=s.permute,
                description=f"{style}, league generation {k}: tuned by CMA-ES from {current[style]}"))
            new, old = result.validation, result.start_validation
            gain, low, high = gain_interval(new.wins, new.games, old.wins, old.games)
            kept = low > 0
            entries.append({"style": style, "from": current[style], "candidate": name, "kept": kept,
                            "held_out_win_rate": new.win_rate, "from_held_out_win_rate": old.win_rate,
                            "gain": gain, "gain_ci95": [low, high], "held_out_games": new.games,
                            "weights": result.weights})
            if kept:
                description = (f"{style}, league generation {k}: tuned against generation {k - 1} of every style "
                               f"({', '.join(pool)}); wins {new.win_rate:.1%} of held-out games where "
                               f"{current[style]} wins {old.win_rate:.1%}")
                write_tuned_bot(tuned_file, name, game.kind_name(style), description, result.weights,
                                {**result.provenance, "league_generation": k, "league_pool": pool,
                                 "league_gain": gain, "league_gain_ci95": [low, high]})
                log = tuned_log_path(scratch, name)
                if log.is_file():  # its learning curve, for the tuning page
                    shutil.copy(log, tuned_log_path(tuned_file, name))
        for entry in entries:
            if entry["kept"]:
                game = _with_tuned(game, entry["candidate"])
                current[entry["style"]] = entry["candidate"]
        record.generations.append({"generation": k, "pool": pool, "styles": entries})
        if s.progress:
            print(f"league {game.name}: generation {k} kept "
                  f"{sum(e['kept'] for e in entries)} of {len(entries)} styles", file=sys.stderr, flush=True)
        if not any(e["kept"] for e in entries):
            record.stopped = f"generation {k}: no style's gain is significant (each inside its interval)"
            break
    else:
        record.stopped = f"after {s.generations} generations (--generations)"
    record.final = [current[style] for style in styles]
    _write_record(game, record, s, time.perf_counter() - started)
    if s.set_default:
        set_default_lineup(game, record.final)
    return record


def _with_tuned(game, name: str):
    """The game with its tuned-bots file read again (the league just wrote `name` there)."""
    game.reload_bots()
    if name not in game.bots():
        raise UserError(f"{name} was written to {game.tuned_bots_path()} but the game does not list it")
    return game


def _write_record(game, record: LeagueResult, s: LeagueSettings, seconds: float) -> None:
    from sim.core.dataset import write_json_atomic

    path = game.tuned_bots_path().parent / "tune_logs" / "league.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    history = json.loads(path.read_text()) if path.is_file() else []
    history.append({"command": s.command, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "seconds": round(seconds, 1), "games_per_evaluation": s.games,
                    "tune_generations": s.tune_generations, "validation_games": s.validation_games,
                    "seating": "permuted" if s.permute else "rotated",
                    "seed": s.seed, "generations": record.generations, "final": record.final,
                    "stopped": record.stopped})
    write_json_atomic(history, path)


def set_default_lineup(game, names: list[str]) -> Path:
    """Rewrite bots.toml's `default = [...]` line of [lineup] to these bots (comments kept)."""
    path = game.tuned_bots_path().parent / "bots.toml"
    text = path.read_text()
    line = "default = [" + ", ".join(json.dumps(n) for n in names) + "]"
    updated, count = re.subn(r"(?m)^default\s*=\s*\[[^\]]*\]", line, text, count=1)
    if count != 1:
        raise UserError(f"{path}: no `default = [...]` line in [lineup] to rewrite")
    path.write_text(updated)
    return path


__all__ = ["LeagueSettings", "LeagueResult", "run_league", "gain_interval", "generation_name", "set_default_lineup"]
