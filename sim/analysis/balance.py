"""Reading a balance search's evidence (`sim balance`, sim/studies/balance.py): the answer in words,
the candidates with their intervals, the chart, and the report page (notebooks/balance.ipynb).

The evidence directory holds manifest.json (the settings, the command, the result), batches.parquet
(one row per batch: the candidate's x and values, its first game and games, the metric's sums, the
candidate's metric and interval after the batch, its state) and candidates.parquet (one row per
candidate: x, values, games, metric, 95% interval, state, each turn position's win rate and mean
score).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.analysis.io import Result

STATE_COLOURS = {"inside": "tab:green", "below": "tab:blue", "above": "tab:red", "open": "tab:grey"}


def _pct(value: float, rate: bool) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{100 * value:.1f}%" if rate else f"{value:+.2f}"


def _interval(lo: float, hi: float, rate: bool) -> str:
    if rate:
        return f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"[{lo:+.2f}, {hi:+.2f}]"


def _is_rate(manifest: dict[str, Any]) -> bool:
    from sim.studies.balance import parse_metric

    return parse_metric(manifest["config"]["metric"]).is_rate


def _whole(value: Any) -> bool:
    if isinstance(value, list):
        return all(_whole(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def rules_of(config: dict[str, Any]) -> list[Any] | None:
    """The search's rules (sim.studies.balance.Rule) rebuilt from its evidence's configuration; None
    when they cannot be (an older format)."""
    from sim.studies.balance import Rule, _compile_expression

    try:
        rules = []
        for r in config["params"]:
            expressions = None
            if r.get("rule") is not None:
                expressions = [_compile_expression(part, "--rule") for part in r["rule"].strip().strip("[]").split(",")]
            rules.append(Rule(r["name"], r.get("index"), r.get("rule"), r["base"], expressions, bool(r["integer"])))
        return rules
    except Exception:  # noqa: BLE001 - a display aid only
        return None


def x_text(x: float, values: str, rules: list[Any] | None = None) -> str:
    """x as a designer reads it: a whole-number parameter set to x itself shows its value ("20", not
    "19.8"); x of a rule giving whole numbers, two decimals ("0.25"; the values say what was played);
    else three significant digits."""
    import json

    parsed = []
    for part in str(values).split("; "):
        name, _, text = part.partition("=")
        try:
            parsed.append(json.loads(text))
        except ValueError:
            return f"{x:.3g}"
    if parsed and all(_whole(v) for v in parsed):
        if len(parsed) == 1 and not isinstance(parsed[0], list) and abs(parsed[0] - x) <= 0.5:
            return str(parsed[0])
        if rules and all(rule.integer for rule in rules):
            # a whole x that plays the same values stands for them: x = -10, not -9.75
            for whole in sorted({math.floor(x), math.ceil(x)}, key=lambda n: abs(n - x)):
                try:
                    if [rule.value(float(whole)) for rule in rules] == parsed:
                        return str(int(whole))
                except Exception:  # noqa: BLE001 - a rule undefined there
                    continue
        return f"{x:.2f}".rstrip("0").rstrip(".")
    return f"{x:.3g}"


def state_label(state: str, lower: float, upper: float, target: float | None, tolerance: float | None) -> str:
    """A candidate's state in words: "above" or "below" (its interval excludes the target) says so
    when the interval still reaches into target +- tolerance, so a value near the band is not
    read as clearly out of it."""
    if target is None or tolerance is None or state not in ("above", "below"):
        return state
    if lower <= target + tolerance and upper >= target - tolerance:
        return f"{state} the target, interval overlaps the band"
    return f"{state} the band"


def balance_progress_line(row: dict[str, Any], rate: bool, target: float | None = None,
                          tolerance: float | None = None, rules: list[Any] | None = None) -> str:
    """One line per batch for the command line."""
    return (f"batch {row['step']}: x = {x_text(row['x'], row['values'], rules)}, {row['values']}: +{row['games']:,} games "
            f"({row['candidate_games']:,} in all): {_pct(row['metric'], rate)} "
            f"{_interval(row['lower'], row['upper'], rate)} -> "
            f"{state_label(row['state'], row['lower'], row['upper'], target, tolerance)}")


def read_balance(evidence: str | Path) -> tuple[dict[str, Any], pd.DataFrame, pd.DataFrame]:
    """(manifest, batches, candidates) of a balance search's evidence directory."""
    from sim.studies.balance import read_evidence

    return read_evidence(evidence)


def answer_text(manifest: dict[str, Any]) -> str:
    """The search's answer in one or two sentences."""
    config, result = manifest["config"], manifest.get("result") or {}
    rate = _is_rate(manifest)
    target, tolerance = config["target"], config["tolerance"]
    goal = (f"{manifest.get('metric_description', config['metric'])} within {_pct(target, rate)} +- "
            f"{100 * tolerance:.1f} points" if rate else
            f"{manifest.get('metric_description', config['metric'])} within {target:+g} +- {tolerance:g}")
    best = result.get("best")
    status = result.get("status", manifest.get("status", "running"))
    games = f"{result.get('games', 0):,} games over {result.get('candidates', 0)} candidates"
    if best is None:
        return f"No answer yet ({status}; {games})."
    values = ", ".join(f"{name} = {value}" for name, value in best["values"].items())
    measured = (f"{_pct(best['metric'], rate)} {_interval(best['lower'], best['upper'], rate)} (95% interval, "
                f"{best['games']:,} games")
    if best.get("paired") and best.get("paired_with"):
        reference = ", ".join(str(value) for value in best["paired_with"].values())
        measured += (f", paired with {reference} on their common games; its games alone: "
                     f"{_pct(best['own_metric'], rate)} {_interval(best['own_lower'], best['own_upper'], rate)}")
    measured += ")"
    if status == "found":
        return (f"**Found: {values}** gives {measured}, within the target ({goal}). Evidence: {games}.")
    return (f"**Not found ({status}):** {result.get('reason', '')}. Closest: {values}, {measured}; goal: {goal}. "
            f"Evidence: {games}.")


def candidates_result(evidence: str | Path) -> Result:
    """Every candidate, by x: values, games, metric with its 95% interval and state; and the chart."""
    manifest, batches, candidates = read_balance(evidence)
    table = candidates.sort_values("x").reset_index(drop=True) if len(candidates) else candidates
    table.attrs.update({"answer": answer_text(manifest), "status": (manifest.get("result") or {}).get("status")})
    return Result(table, balance_chart(manifest, candidates, batches))


def _fit_curve(manifest: dict[str, Any], candidates: pd.DataFrame, xs: np.ndarray) -> np.ndarray | None:
    """The fit the search steers by (weighted least squares of each candidate's estimate on x, on the
    logit scale for a rate, weights from its interval), over every candidate, at xs; None when it
    cannot be fitted."""
    import warnings

    import statsmodels.api as sm

    if len(candidates) < 2 or candidates["x"].nunique() < 2:
        return None
    rate = _is_rate(manifest)
    value = candidates["metric"].to_numpy(float)
    variance = ((candidates["upper"].to_numpy(float) - candidates["lower"].to_numpy(float)) / 3.92) ** 2
    if rate:
        p = np.clip(value, 1e-4, 1 - 1e-4)
        value, variance = np.log(p / (1 - p)), variance / (p * (1 - p)) ** 2
    ok = np.isfinite(value) & np.isfinite(variance) & (variance > 0)
    if ok.sum() < 2:
        return None
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            exog = sm.add_constant(candidates["x"].to_numpy(float)[ok], has_constant="add")
            b0, b1 = sm.WLS(value[ok], exog, weights=1 / variance[ok]).fit().params
    except Exception:
        return None
    line = b0 + b1 * xs
    return 1 / (1 + np.exp(-line)) if rate else line


def balance_chart(manifest: dict[str, Any], candidates: pd.DataFrame, batches: pd.DataFrame) -> Figure:
    """Left: each candidate's metric with its 95% interval against x, the target band and the fit,
    the answer ringed. Right: the search path, the candidate x of every batch and the games it cost."""
    config = manifest["config"]
    rate = _is_rate(manifest)
    scale = 100 if rate else 1
    target, tolerance = config["target"], config["tolerance"]
    fig = Figure(figsize=(11, 4.5), layout="constrained")
    ax, path = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    ax.axhspan(scale * (target - tolerance), scale * (target + tolerance), color="tab:green", alpha=0.12,
               label="target +- tolerance")
    ax.axhline(scale * target, color="tab:green", linestyle="--", linewidth=1)
    if len(candidates):
        xs = np.linspace(*config["range"], 200)
        curve = _fit_curve(manifest, candidates, xs)
        if curve is not None:
            ax.plot(xs, scale * curve, color="grey", linewidth=1, label="fit over the candidates")
        for state, group in candidates.groupby("state"):
            y = scale * group["metric"].to_numpy(float)
            err = np.vstack([y - scale * group["lower"].to_numpy(float), scale * group["upper"].to_numpy(float) - y])
            ax.errorbar(group["x"], y, yerr=err, fmt="o", markersize=4, capsize=2,
                        color=STATE_COLOURS.get(state, "black"), label=f"{state} (95% interval)")
        best = (manifest.get("result") or {}).get("best")
        if best is not None:
            ax.plot([best["x"]], [scale * best["metric"]], "o", markersize=13, markerfacecolor="none",
                    markeredgecolor="black", label="answer" if manifest["result"]["status"] == "found" else "closest")
            values = "; ".join(f"{name.split('.')[-1]} = {value}" for name, value in best["values"].items())
            ax.annotate(values, (best["x"], scale * best["metric"]), xytext=(12, 12), textcoords="offset points",
                        fontsize=8, arrowprops={"arrowstyle": "-", "color": "black", "linewidth": 0.6})
    ax.set_xlabel("x (" + "; ".join(manifest.get("rules", [])) + ")", fontsize=8)
    ax.set_ylabel(manifest.get("metric_description", config["metric"]) + (" (%)" if rate else ""))
    result = manifest.get("result") or {}
    ax.set_title(f"{config['game']}, {config['players']} players: {result.get('status', manifest.get('status'))} "
                 f"after {result.get('games', 0):,} games", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    if len(batches):
        steps = batches["step"].to_numpy()
        path.scatter(steps, batches["x"], s=8 + 60 * batches["games"] / batches["games"].max(),
                     c=[STATE_COLOURS.get(s, "black") for s in batches["state"]])
        path.plot(steps, batches["x"], color="grey", linewidth=0.6)
        twin = path.twinx()
        twin.step(steps, batches["games"].cumsum(), where="post", color="tab:purple", linewidth=1)
        twin.set_ylabel("games played so far", color="tab:purple")
    path.set_xlabel("batch")
    path.set_ylabel("candidate x (dot size: games in the batch)")
    path.set_title("the search path", fontsize=10)
    path.grid(alpha=0.3)
    return fig


def balance_summary_text(evidence: str | Path) -> str:
    """The answer, then one line per candidate (by x) and the cost."""
    manifest, _, candidates = read_balance(evidence)
    rate = _is_rate(manifest)
    lines = [answer_text(manifest).replace("**", "")]
    if len(candidates):
        width = max(len(v) for v in candidates["values"])
        lines.append("")
        target, tolerance = manifest["config"]["target"], manifest["config"]["tolerance"]
        rules = rules_of(manifest["config"])
        state_width = max(len(state_label(r.state, r.lower, r.upper, target, tolerance))
                          for r in candidates.itertuples())
        state_width = max(state_width, 7)
        lines.append(f"{'x':>8}  {'values'.ljust(width)}  {'games':>8}  {'metric':>7}  {'95% interval':<16} "
                     f"{'state':<{state_width}} own games alone")
        for r in candidates.sort_values("x").itertuples():
            own = (f"{_pct(r.own_metric, rate)} {_interval(r.own_lower, r.own_upper, rate)}"
                   if getattr(r, "paired", False) else "(the same)")
            label = state_label(r.state, r.lower, r.upper, target, tolerance)
            lines.append(f"{x_text(r.x, r.values, rules):>8}  {r.values.ljust(width)}  {r.games:8,}  "
                         f"{_pct(r.metric, rate):>7}  {_interval(r.lower, r.upper, rate):<16} {label:<{state_width}} {own}")
        lines.append("(metric and interval paired with the most-played candidate on their common games where that "
                     "is narrower)")
    lines.append("")
    seating = "seats permuted" if manifest["config"].get("permute_seats") else "seats rotated"
    lines.append(f"wall time {manifest.get('wall_seconds', 0):.0f} s; status {manifest.get('status')}; {seating}")
    return "\n".join(lines)


def balance_section(evidence: str | Path, name: str, title: str,
                    description: str = "What value of the rule would make the game fair, and with how much "
                                       "certainty: every candidate the search played, with its interval and "
                                       "games, and the value it found.", game: str = "") -> Any:
    """The report page (notebooks/balance.ipynb) of a balance search's evidence directory (a path
    relative to the repository root, or absolute); game: the game it is about (the index groups
    pages by game; the page checks the evidence is that game's). It simulates nothing: the search is
    run by `sim balance` (it takes minutes), and the page reads what it left."""
    from sim.analysis.report import ReportSection

    parameters = {"evidence": str(evidence), **({"game": game} if game else {})}
    return ReportSection(name, "balance", title, description, {}, parameters,
                         data_note=f"balance search: {evidence}")


__all__ = ["read_balance", "answer_text", "candidates_result", "balance_chart", "balance_summary_text",
           "balance_progress_line", "balance_section"]
