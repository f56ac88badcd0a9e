"""Reading a `sim skill` evidence folder (sim/studies/skill.py): every verdict at every rung with
its interval and its label, as text, tables, charts and the report page (notebooks/skill.ipynb).
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.analysis.io import Result

LABEL_COLOURS = {"holds at every level": "tab:green", "grows with skill": "tab:red",
                 "shrinks with skill": "tab:blue", "flips": "tab:purple", "unclear": "tab:grey"}


def read_skill(evidence: str | Path) -> tuple[dict[str, Any], pd.DataFrame, pd.DataFrame]:
    from sim.analysis.io import data_path
    from sim.studies.skill import read_evidence

    return read_evidence(data_path(evidence))


def _unit(verdict: str) -> str:
    from sim.studies.skill import EFFECT_PREFIX, VERDICTS

    return VERDICTS[verdict.removeprefix(EFFECT_PREFIX)][2]


def value_text(value: float, low: float, high: float, unit: str, signed: bool = False) -> str:
    if value is None or math.isnan(value):
        return "n/a"
    if unit == "rate":
        sign = "+" if signed else ""
        return f"{100 * value:{sign}.1f}% [{100 * low:{sign}.1f}, {100 * high:{sign}.1f}]"
    sign = "+" if signed else ""
    return f"{value:{sign}.2f} [{low:{sign}.2f}, {high:{sign}.2f}]"


def verdict_title(verdict: str, item: str = "", effect_label: str | None = None) -> str:
    from sim.studies.skill import EFFECT_PREFIX, VERDICTS

    base = verdict.removeprefix(EFFECT_PREFIX)
    title = VERDICTS[base][0]
    if item and base == "style_share":
        title = f"{item}'s win share"
    elif item and base == "position":
        title = f"turn position {int(item) + 1}"
    if verdict.startswith(EFFECT_PREFIX):
        title = f"{effect_label or 'effect'}: change in {title}"
    return title


def verdict_meaning(verdict: str) -> str:
    """What a verdict measures, in a sentence."""
    from sim.studies.skill import EFFECT_PREFIX, VERDICTS

    return VERDICTS[verdict.removeprefix(EFFECT_PREFIX)][1]


def skill_table(evidence: str | Path) -> Result:
    """One row per labelled verdict: its value at each rung (weakest first) and its label."""
    manifest, verdicts, labels = read_skill(evidence)
    rungs = manifest["rungs"]
    effect = (manifest["spec"].get("effect") or {}).get("label")
    base = verdicts[verdicts["variant"] == "base"]
    rows = []
    for _, lab in labels.iterrows():
        row: dict[str, Any] = {"verdict": verdict_title(lab["verdict"], lab["item"], effect),
                               "key": lab["verdict"], "item": lab["item"]}
        mine = base[(base["verdict"] == lab["verdict"]) & (base["item"] == lab["item"])]
        for rung in rungs:
            found = mine[mine["rung"] == rung]
            row[rung] = ("" if found.empty else
                         value_text(*found.iloc[0][["value", "low", "high"]], _unit(lab["verdict"]),
                                    signed=lab["verdict"].startswith("effect:")))
        row["label"] = lab["label"]
        row["why"] = lab["why"]
        row["measures"] = verdict_meaning(lab["verdict"])
        rows.append(row)
    return Result(pd.DataFrame(rows), None)


def verdict_figure(evidence: str | Path, verdict: str, item: str | None = None) -> Figure:
    """A verdict against the rungs with 95% error bars (one line per item: positions, styles),
    its reference dashed."""
    manifest, verdicts, labels = read_skill(evidence)
    rungs = manifest["rungs"]
    effect = (manifest["spec"].get("effect") or {}).get("label")
    rows = verdicts[(verdicts["variant"] == "base") & (verdicts["verdict"] == verdict)]
    if item is not None:
        rows = rows[rows["item"] == item]
    fig = Figure(figsize=(7, 3.6))
    ax = fig.subplots()
    rate = _unit(verdict) == "rate"
    scale = 100 if rate else 1
    items = list(dict.fromkeys(rows["item"]))
    for k, it in enumerate(items):
        mine = rows[rows["item"] == it].set_index("rung").reindex(rungs)
        x = np.arange(len(rungs)) + (k - (len(items) - 1) / 2) * 0.06
        y = mine["value"].to_numpy(float) * scale
        err = np.vstack([y - mine["low"].to_numpy(float) * scale, mine["high"].to_numpy(float) * scale - y])
        label = it if it else None
        if verdict == "position" and it:
            label = f"position {int(it) + 1}"
        lab = labels[(labels["verdict"] == verdict) & (labels["item"] == it)]
        if not lab.empty and label:
            label += f" ({lab.iloc[0]['label']})"
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label)
    reference = rows["reference"].dropna()
    if len(reference):
        ax.axhline(float(reference.iloc[0]) * scale, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(np.arange(len(rungs)), rungs)
    ax.set_xlabel("rung, weakest first")
    ax.set_ylabel("%" if rate else _unit(verdict))
    title = verdict_title(verdict, item or "", effect)
    lab = labels[(labels["verdict"] == verdict) & (labels["item"] == (item or ""))]
    if not lab.empty:
        title += f": {lab.iloc[0]['label']}"
    ax.set_title(title, fontsize=10)
    if any(items):
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def label_of(evidence: str | Path, verdict: str, item: str = "") -> str | None:
    """A verdict's label, or None when the evidence has none for it."""
    _, _, labels = read_skill(evidence)
    found = labels[(labels["verdict"] == verdict) & (labels["item"] == item)]
    return None if found.empty else str(found.iloc[0]["label"])


def skill_summary_text(evidence: str | Path) -> str:
    """The evidence in plain text: each labelled verdict at every rung, weakest first, then its label."""
    manifest, verdicts, labels = read_skill(evidence)
    table = skill_table(evidence).table
    lines = [f"{manifest['game']}, {manifest['players']} players, seed {manifest['seed']}: "
             f"{' < '.join(manifest['rungs'])} ({manifest['seconds']:.0f} s)"]
    from sim.core.summary import align_columns

    rows = [["verdict", *manifest["rungs"], "label"]]
    for _, row in table.iterrows():
        rows.append([row["verdict"], *[row[r] for r in manifest["rungs"]], row["label"]])
    lines += align_columns(rows, left_columns=1)
    seating = manifest.get("spec", {}).get("seating", "rotated")
    lines.append("(mirror line-ups: the same bot in every seat, pooled over the rung's bots; win shares: the rung's "
                 f"mixed line-up, seats {seating}; 95% intervals)")
    lines.append("labels: holds at every level / grows with skill / shrinks with skill / flips / unclear "
                 "(sim/studies/skill.py says how each is decided)")
    return "\n".join(lines)


LADDER_TABLE = "ladder.parquet"  # in a skill evidence folder: `sim ladder --skill-evidence DIR`'s table
LADDER_MANIFEST = "ladder.json"


def write_ladder_evidence(ladder_dataset: str | Path, evidence: str | Path, command: str) -> Path:
    """Keep a `sim ladder` result beside a game's skill evidence (the table of each rung head to head
    with the rung below, and the command), so the skill page says where a rung does not beat the one
    below without the ladder's dataset."""
    from sim.analysis.tournament import open_tournament, skill_ladder

    t = open_tournament(ladder_dataset)
    rungs = list(t.ladder or t.bots)
    table = skill_ladder(t, rungs).table
    return _keep_beside(evidence, table, {"command": command, "rungs": rungs, "players": t.n_players,
                                          "games_per_lineup": int(table["games"].min())},
                        LADDER_TABLE, LADDER_MANIFEST)


def _keep_beside(evidence: str | Path, table: pd.DataFrame, record: dict[str, Any], table_name: str,
                 record_name: str) -> Path:
    """Write a study's table and its record into a skill evidence folder; the table's path."""
    from sim.core.dataset import write_json_atomic

    folder = Path(evidence)
    folder.mkdir(parents=True, exist_ok=True)
    table.to_parquet(folder / table_name, index=False)
    write_json_atomic(record, folder / record_name)
    return folder / table_name


def _kept_beside(evidence: str | Path, table_name: str,
                 record_name: str) -> tuple[dict[str, Any], pd.DataFrame] | None:
    """A study's (record, table) kept in a skill evidence folder, None when it holds none."""
    import json

    from sim.analysis.io import data_path

    folder = data_path(evidence)
    if not (folder / table_name).is_file() or not (folder / record_name).is_file():
        return None
    return json.loads((folder / record_name).read_text()), pd.read_parquet(folder / table_name)


def read_ladder_evidence(evidence: str | Path) -> tuple[dict[str, Any], pd.DataFrame] | None:
    """The ladder kept beside the skill evidence (manifest, table), None when there is none."""
    return _kept_beside(evidence, LADDER_TABLE, LADDER_MANIFEST)


def ladder_evidence_result(evidence: str | Path) -> Result | None:
    """The ladder's chart and table for the skill page, with one verdict sentence per rung."""
    from sim.analysis.tournament import _ladder_figure, ladder_verdicts

    found = read_ladder_evidence(evidence)
    if found is None:
        return None
    manifest, table = found
    shown = table.copy()
    shown["verdict"] = ladder_verdicts(table, manifest["players"])
    shown.attrs["command"] = manifest["command"]
    return Result(shown, _ladder_figure(table, manifest["players"]))


SEARCH_MAP_TABLE = "search_map.parquet"  # in a skill evidence folder: `sim search-map --skill-evidence DIR`'s table
SEARCH_MAP_MANIFEST = "search_map.json"


def write_search_map_evidence(table: pd.DataFrame, evidence: str | Path, record: dict[str, Any]) -> Path:
    """Keep a `sim search-map` table beside a game's skill evidence, with its run's record (command, bot,
    players, games, seed, the rollout value's unit), so the skill page shows it without the dataset."""
    return _keep_beside(evidence, table, record, SEARCH_MAP_TABLE, SEARCH_MAP_MANIFEST)


def read_search_map_evidence(evidence: str | Path) -> tuple[dict[str, Any], pd.DataFrame] | None:
    """The search map kept beside the skill evidence (record, table), None when there is none."""
    return _kept_beside(evidence, SEARCH_MAP_TABLE, SEARCH_MAP_MANIFEST)


def search_map_result(evidence: str | Path) -> Result | None:
    """The skill page's "where our bots are weakest": per decision kind, how often the search left its
    heuristic's first choice (bars, 95% intervals) and the kind's share of all the value the search
    gained (labels); the table in the page's words, its record in attrs. None when no map is kept."""
    import matplotlib.pyplot as plt

    found = read_search_map_evidence(evidence)
    if found is None:
        return None
    record, table = found
    shown = pd.DataFrame({
        "decision (the heuristic's first choice)": table["kind"].str.replace("_", " "),
        "searched": table["searched"],
        "search left it": [value_text(r.left_rate, r.left_low, r.left_high, "rate") for r in table.itertuples()],
        "gain when it left": [f"{r.gap_when_left:+.3f} [{r.gap_when_left_low:+.3f}, {r.gap_when_left_high:+.3f}]"
                              for r in table.itertuples()],
        "gain per decision": [f"{r.gap_per_decision:+.3f}" for r in table.itertuples()],
        "share of all gain": [f"{100 * r.share_of_value:.1f}%" for r in table.itertuples()],
    })
    shown.attrs.update(record)
    order = table.iloc[::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(order) + 1.4))
    rate = 100 * order["left_rate"].to_numpy()
    err = np.vstack([rate - 100 * order["left_low"].fillna(order["left_rate"]).to_numpy(),
                     100 * order["left_high"].fillna(order["left_rate"]).to_numpy() - rate])
    ax.barh(order["kind"].str.replace("_", " "), rate, xerr=err, color="tab:orange", capsize=3)
    for y, r in enumerate(order.itertuples()):
        ax.annotate(f"{100 * r.share_of_value:.0f}% of the gain", (100 * r.left_high if r.left_high == r.left_high
                    else 100 * r.left_rate, y), xytext=(4, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_xlabel("decisions where the search left the heuristic's first choice (%)")
    ax.set_xlim(0, 115)
    ax.set_title(f"{record['game']}: {record['bot']} in every seat, {record['games']:,} games")
    fig.tight_layout()
    plt.close(fig)
    return Result(shown, fig)


def skill_section(evidence: str | Path, game: str, name: str | None = None):
    """The skill page (notebooks/skill.ipynb) of a committed `sim skill` evidence folder; it
    simulates nothing."""
    from sim.analysis.report import ReportSection

    return ReportSection(name or f"skill_{game}", "skill", f"{game.capitalize()}: verdicts at every level of play",
                         "Do the headline verdicts hold as play gets stronger? Each verdict at every rung (random, "
                         "untuned, tuned, league, search) with its interval and its label.", {},
                         {"evidence": str(evidence), "game": game}, data_note=f"skill evidence: {evidence}")


__all__ = ["read_skill", "write_ladder_evidence", "read_ladder_evidence", "ladder_evidence_result", "skill_table",
           "write_search_map_evidence", "read_search_map_evidence", "search_map_result",
           "verdict_figure", "label_of", "skill_summary_text", "skill_section", "verdict_title", "value_text"]
