"""Do the headline verdicts hold under every plausible table of the reconstructed numbers?

A robustness dataset (`sim robust GAME`, sim/studies/robust.py) plays the base game and each
alternative table of the game's reconstructed numbers from the same seeds and seating, and,
when the game declares an effect (Cuzco: the Pututu module, `pututu.enabled`), each table with the
switch off and on. This module reads it and judges every headline verdict under every table:

- **first player** (`position`): the first player's win rate (Cuzco's turn order `start_order`,
  else seat 0) against the fair 1/N: "favoured" when its 95% Wilson interval lies above 1/N,
  "disfavoured" below, "fair" when it holds 1/N;
- **bot ranking** (`ranking`): the bots ordered by win rate over every seat (seats rotated or permuted); the
  verdict is the order of the pairs whose headline intervals are separate (bots the headline cannot
  tell apart may swap under a table without changing it);
- **strongest / weakest card** of each card group the game declares (`strongest`, `weakest`): the
  item with the highest / lowest win rate when held (17lands' GIH WR), among items held in at least
  MIN_CARD_GAMES player-games;
- **the effect on each measure** (`effect`): first-player advantage, mean score, score spread,
  winning margin, game length and each bot's win rate with the switch on minus off, paired on the
  common seeds (`sim.analysis.compare`): "raises" when the 95% interval of the difference lies above
  0, "lowers" below, "no clear change" when it holds 0.

The headline. A verdict is stated from the game's main datasets when `sim report` gives them (the
overview's dataset, and the comparison page's two datasets for the effect: far more games than a
robustness cell), else from the base table's cells. Under each table (the base table included)
the verdict then **holds** (the same state), is **unclear** (the table's interval does not decide:
a "favoured" first player whose interval holds 1/N there, a "fair" one that leans one way there
while the two intervals overlap, or a ranking or top card that changes only between items whose
intervals overlap) or **changes** (a clear other state: the opposite direction, an advantage whose
interval lies clear of a "fair" headline's, another top card with separate intervals).
A verdict holds under every reconstructed table when it holds under each alternative table (the
base table is shown as a check that the cells have games enough, but varies nothing); one that
changes under a table *depends on* its reconstructed number, one that is unclear there *may
depend on* it, and the report names the table and the number.

Many tables, one verdict. With ten tables, one of them would fall outside a 95% interval by chance
alone every other verdict. So the tables' intervals are simultaneous: each at 1 - 0.05/k for k
alternative tables (Bonferroni, `table_alpha`), and a verdict is said to change only when a table
clearly shows it; the headline keeps its 95% interval. For rankings and top cards "changes" asks
more still: intervals that do not overlap.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.analysis.io import Dataset, Result, open_dataset
from sim.core.dataset import read_manifest
from sim.core.errors import UserError
from sim.core.lineup import seating_words
from sim.core.robust import BASE_TABLE, MANIFEST_KEY
from sim.core.sweep import TABLE

ALPHA = 0.05
MIN_CARD_GAMES = 50  # an item held in fewer player-games is not ranked (its rate is mostly noise)
HOLDS, UNCLEAR, CHANGES = "holds", "unclear", "changes"
HEADLINE = "headline"
DIRECTIONS = {"position": ("favoured", "disfavoured", "fair"), "effect": ("raises", "lowers", "no clear change")}


# ----------------------------------------------------------------------------------- data
@dataclass
class Measurement:
    """A verdict read on one dataset: its state, the number behind it with its 95% interval, and for
    a ranking each item's (label, value, low, high)."""

    table: str
    state: str
    value: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")
    n: int = 0
    items: list[tuple[str, float, float, float]] = field(default_factory=list)
    detail: str = ""


@dataclass
class Verdict:
    """One headline verdict of a game, its headline measurement and its measurement and outcome
    under every table (the base table first)."""

    game: str
    players: int
    key: str  # stable id: "position", "ranking", "strongest:<group>", "weakest:<group>", "effect:<metric>"
    kind: str  # position, ranking, strongest, weakest, effect
    subject: str  # "the first player", "bot ranking", "the strongest god card", "the Pututu module: mean score"
    unit: str  # "proportion" or a unit of measure ("VP")
    headline: Measurement
    tables: list[Measurement] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)  # the reconstructed number each table varies

    def _alternatives(self) -> list[tuple[Measurement, str, str]]:
        """(measurement, outcome, number) of the alternative tables (the base table varies nothing)."""
        return [(m, o, n) for m, o, n in zip(self.tables, self.outcomes, self.numbers) if n]

    @property
    def judged(self) -> bool:
        return bool(self._alternatives())

    @property
    def holds(self) -> bool:
        """Holds under every alternative table."""
        return self.judged and all(o == HOLDS for _, o, _ in self._alternatives())

    def text(self) -> str:
        """The headline sentence: '<Game>, 4 players: the first player wins 29.3% [28.7, 30.0] ...'."""
        return f"{self.game.capitalize()}, {self.players} players: {_statement(self)}"

    def robustness(self) -> str:
        """'holds under every reconstructed table', or which tables change it or leave it unclear."""
        alternatives = self._alternatives()
        if not alternatives:
            return "no reconstructed tables checked"
        base = next((o for m, o, n in zip(self.tables, self.outcomes, self.numbers) if not n), HOLDS)
        caveat = ("" if base == HOLDS else
                  f" (the robustness run's own base table is {base} too: its games are too few to confirm it)")
        if self.holds:
            return "holds under every reconstructed table" + caveat
        parts = []
        for wanted, verb in ((CHANGES, "changes under"), (UNCLEAR, "unclear under")):
            found = [(m, n) for m, o, n in alternatives if o == wanted]
            if not found:
                continue
            names = "every table" if len(found) == len(alternatives) else ", ".join(m.table for m, _ in found)
            states = list(dict.fromkeys(m.state for m, _ in found))
            shown = f" ({' / '.join(states)})" if self.kind != "ranking" and len(states) <= 3 else ""
            parts.append(f"{verb} {names}{shown}")
        return "; ".join(parts) + caveat

    def depends_on(self) -> list[str]:
        """The reconstructed numbers under one of whose tables the verdict clearly changes."""
        return list(dict.fromkeys(n for _, o, n in self._alternatives() if o == CHANGES))

    def may_depend_on(self) -> list[str]:
        """The other reconstructed numbers under one of whose tables the verdict is unclear."""
        return list(dict.fromkeys(n for _, o, n in self._alternatives()
                                  if o == UNCLEAR and n not in self.depends_on()))

    def dependence(self) -> str:
        """'depends on: A; may depend on: B' ('' when the verdict holds under every table)."""
        parts = [f"{what}: {', '.join(numbers)}" for what, numbers in
                 (("depends on", self.depends_on()), ("may depend on", self.may_depend_on())) if numbers]
        return "; ".join(parts)


@dataclass
class Robustness:
    """Every verdict of one game under every table of a robustness dataset."""

    game: str
    players: int
    path: str  # the robustness dataset ("" when only headlines were computed)
    games_per_cell: int
    tables: list[dict[str, Any]]  # name, variant, number, reading (the base table first)
    effect: dict[str, Any] | None
    headline_source: str  # what the headlines were read on
    verdicts: list[Verdict]

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, default=float)

    @classmethod
    def from_json(cls, text: str) -> "Robustness":
        data = json.loads(text)
        verdicts = []
        for v in data.pop("verdicts"):
            headline = _measurement(v.pop("headline"))
            tables = [_measurement(m) for m in v.pop("tables")]
            verdicts.append(Verdict(headline=headline, tables=tables, **v))
        return cls(verdicts=verdicts, **data)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Robustness":
        try:
            return cls.from_json(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError, KeyError) as exc:
            raise UserError(f"{path}: not a robustness summary ({exc})") from None

    def dependent(self) -> list[Verdict]:
        """The verdicts that depend on a reconstructed number (some table changes them or leaves
        them unclear)."""
        return [v for v in self.verdicts if v.judged and not v.holds]


def _measurement(data: dict) -> Measurement:
    data = dict(data)
    data["items"] = [tuple(item) for item in data.get("items", [])]
    return Measurement(**data)


# ----------------------------------------------------------------------------- measuring
def table_alpha(n_tables: int, alpha: float = ALPHA) -> float:
    """The error rate of each table's intervals: alpha shared over the alternative tables (Bonferroni),
    so that the intervals hold together at 1 - alpha and a verdict is not said to change merely
    because one table of many fell outside by chance."""
    return alpha / max(1, n_tables)



def _direction(low: float, high: float, reference: float, names: tuple[str, str, str]) -> str:
    above, below, neither = names
    if low > reference:
        return above
    if high < reference:
        return below
    return neither


def _rates(table: pd.DataFrame, alpha: float) -> pd.DataFrame:
    """A win-rate table (wins, n) with its Wilson intervals at 1 - alpha."""
    from sim.core.stats import rate_ci

    table = table.copy()
    table["rate"], table["ci_low"], table["ci_high"] = rate_ci(table["wins"].to_numpy(float),
                                                               table["n"].to_numpy(float), "wilson", alpha)
    return table


def position_measure(ds: Dataset, table: str, by: str | None = None, alpha: float = ALPHA) -> Measurement:
    """The first player's win rate against the fair 1/N (by: start_order when recorded, else seat)."""
    from sim.analysis.winrates import seat_win_rates

    by = by or ("start_order" if "start_order" in ds.player_columns() else "seat")
    first = _rates(seat_win_rates(ds, by=by, figure=False).table, alpha).iloc[0]
    fair = 1 / ds.n_players
    state = _direction(first["ci_low"], first["ci_high"], fair, DIRECTIONS["position"])
    return Measurement(table, state, float(first["rate"]), float(first["ci_low"]), float(first["ci_high"]),
                       int(first["n"]), detail=by)


def ranking_measure(ds: Dataset, table: str, alpha: float = ALPHA) -> Measurement:
    """The bots by win rate over every seat, best first."""
    from sim.analysis.winrates import bot_win_rates

    rates = _rates(bot_win_rates(ds, figure=False).table, alpha).sort_values("rate", ascending=False, kind="stable")
    items = [(str(r["bot"]), float(r["rate"]), float(r["ci_low"]), float(r["ci_high"])) for _, r in rates.iterrows()]
    return Measurement(table, " > ".join(name for name, *_ in items), n=int(rates["n"].sum()), items=items)


def card_measures(ds: Dataset, table: str, min_games: int = MIN_CARD_GAMES,
                  alpha: float = ALPHA) -> dict[str, Measurement]:
    """Per card group, 'strongest:<group>' and 'weakest:<group>': the item with the highest and
    lowest win rate when held; items carries every ranked item of the group (best first)."""
    from sim.analysis.cards import card_strength

    try:
        strength = card_strength(ds, alpha=alpha, min_games=min_games, figure=False).table
    except UserError:
        return {}  # a game without card groups
    out = {}
    for group, rows in strength.groupby("group", sort=False):
        rows = rows[(rows["gih_games"].fillna(0) >= min_games) & rows["gih_wr"].notna()]
        rows = rows.sort_values("gih_wr", ascending=False, kind="stable")
        if len(rows) < 2:
            continue
        items = [(str(r["item"]), float(r["gih_wr"]), float(r["gih_lo"]), float(r["gih_hi"]))
                 for _, r in rows.iterrows()]
        for kind, item in (("strongest", items[0]), ("weakest", items[-1])):
            out[f"{kind}:{group}"] = Measurement(table, item[0], item[1], item[2], item[3],
                                                 int(rows["gih_games"].sum()), items=items)
    return out


EFFECT_GROUPS = ("bots", "scores", "game length")


def effect_measures(off: Dataset, on: Dataset, table: str, alpha: float = ALPHA) -> dict[str, tuple[Measurement, str]]:
    """The switch's effect on each measure, on minus off (paired when the datasets share seeds):
    {'effect:<metric>': (measurement, unit)} for the first-player advantage, the score measures,
    game length and each bot's win rate; a measure that cannot differ (a fixed round count) is
    left out."""
    from sim.analysis.compare import compare

    rows = compare(off, on, alpha=alpha, cards=False, figure=False).table
    out = {}
    for _, r in rows.iterrows():
        metric = str(r["metric"])
        wanted = metric.startswith("first-player advantage") or r["group"] in EFFECT_GROUPS
        if not wanted or str(r["test"]).startswith("none"):
            continue
        state = _direction(r["ci_low"], r["ci_high"], 0.0, DIRECTIONS["effect"])
        out[f"effect:{metric}"] = (Measurement(table, state, float(r["difference"]), float(r["ci_low"]),
                                               float(r["ci_high"]), int(r["n_b"]),
                                               detail=f"{_number(r['value_a'], r['unit'])} -> "
                                                      f"{_number(r['value_b'], r['unit'])}"),
                                   str(r["unit"]))
    return out


def measure_all(ds: Dataset, table: str, effect_on: Dataset | None = None,
                alpha: float = ALPHA) -> dict[str, tuple[str, str, Measurement]]:
    """Every verdict's measurement on one dataset, intervals at 1 - alpha: {key: (kind, unit, measurement)}."""
    out: dict[str, tuple[str, str, Measurement]] = {
        "position": ("position", "proportion", position_measure(ds, table, alpha=alpha)),
        "ranking": ("ranking", "proportion", ranking_measure(ds, table, alpha)),
    }
    for key, m in card_measures(ds, table, alpha=alpha).items():
        out[key] = (key.split(":")[0], "proportion", m)
    if effect_on is not None:
        for key, (m, unit) in effect_measures(ds, effect_on, table, alpha).items():
            out[key] = ("effect", unit, m)
    return out


# ------------------------------------------------------------------------------- judging
def outcome(kind: str, headline: Measurement, table: Measurement) -> str:
    """holds, unclear or changes: the verdict under one table against its headline (see the module
    docstring)."""
    if kind in DIRECTIONS:
        neither = DIRECTIONS[kind][2]
        if table.state == headline.state:
            return HOLDS
        if table.state == neither:
            return UNCLEAR
        if headline.state == neither:  # "fair" is no evidence of fairness: a change needs another value
            return CHANGES if table.low > headline.high or table.high < headline.low else UNCLEAR
        return CHANGES
    if kind == "ranking":
        if table.state == headline.state:
            return HOLDS
        where = {name: (low, high) for name, _, low, high in table.items}
        head = {name: (low, high) for name, _, low, high in headline.items}
        order = [name for name, *_ in headline.items if name in where]
        rank = {name: i for i, name in enumerate(name for name, *_ in table.items)}
        # only the pairs the headline orders clearly (separate intervals) make the verdict
        reversed_pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]
                          if rank[a] > rank[b] and head[a][0] > head[b][1]]
        if not reversed_pairs:
            return HOLDS
        separate = any(where[a][1] < where[b][0] for a, b in reversed_pairs)
        return CHANGES if separate else UNCLEAR
    if kind in ("strongest", "weakest"):
        if table.state == headline.state:
            return HOLDS
        where = {name: (low, high) for name, _, low, high in table.items}
        if headline.state not in where:
            return UNCLEAR  # not ranked there (too rarely held)
        low, high = where[headline.state]
        return UNCLEAR if (high >= table.low and low <= table.high) else CHANGES
    raise ValueError(f"unknown verdict kind {kind!r}")


def _subject(kind: str, key: str, effect_label: str) -> str:
    if kind == "position":
        return "the first player"
    if kind == "ranking":
        return "bot ranking"
    if kind in ("strongest", "weakest"):
        return f"the {kind} {key.split(':', 1)[1]} (win rate when held)"
    return f"{effect_label}: {key.split(':', 1)[1]}"


def judge(game: str, players: int, headline: dict[str, tuple[str, str, Measurement]],
          tables: Sequence[dict[str, tuple[str, str, Measurement]]], numbers: Sequence[str],
          effect_label: str = "the effect") -> list[Verdict]:
    """Verdicts from the headline measurements and each table's (in table order)."""
    verdicts = []
    for key, (kind, unit, head) in headline.items():
        v = Verdict(game, players, key, kind, _subject(kind, key, effect_label), unit, head)
        for measured, number in zip(tables, numbers):
            if key not in measured:
                continue
            m = measured[key][2]
            v.tables.append(m)
            v.outcomes.append(outcome(kind, head, m))
            v.numbers.append(number)
        verdicts.append(v)
    return verdicts


# ------------------------------------------------------------------------------ reading
def robust_record(path: str | Path) -> dict[str, Any]:
    """The `robust` record of a robustness dataset's manifest (a one-line error for another dataset)."""
    from sim.analysis.io import data_path

    path = data_path(path)
    manifest = read_manifest(path)
    record = manifest.get(MANIFEST_KEY)
    if not isinstance(record, dict) or manifest.get("kind") != "sweep":
        raise UserError(f"{path} is not a robustness dataset (made by sim robust)")
    return record


def _cell(path: Path, table: str, effect: dict | None, on: bool | None) -> Dataset:
    cell: dict[str, Any] = {TABLE: table}
    if effect is not None:
        cell[effect["param"]] = effect["on"] if on else effect["off"]
    return open_dataset(path, cell=cell)


WHAT_IF = "what-if"  # a table whose number starts so is a what-if of printed numbers, not a plausible reading


def is_what_if(table: dict[str, Any]) -> bool:
    """A what-if table (robust.toml `number = "what-if: ..."`) is played, to show what a verdict or an
    end condition hinges on, but no verdict is judged under it: it is not a plausible reading."""
    return str(table.get("number") or "").startswith(WHAT_IF)


def robustness(path: str | Path, headline: str | Path | None = None, headline_b: str | Path | None = None,
               progress=None) -> Robustness:
    """Every headline verdict of a robustness dataset's game under each of its tables.

    headline: a dataset of the game (the report's main dataset) to state the verdicts from, and
    headline_b the same game with the effect switched on (paired with headline); default: the base
    table's cells. progress: called with a line per table read."""
    from sim.analysis.io import data_path

    path = data_path(path)
    record = robust_record(path)
    effect = record.get("effect")
    label = effect["label"] if effect else "the effect"
    measured, numbers = [], []
    base = None
    judged = [t for t in record["tables"] if not is_what_if(t)]
    alpha = table_alpha(len(judged) - 1)
    for table in judged:
        if progress:
            progress(f"robustness: {record['game']} table {table['name']}")
        off = _cell(path, table["name"], effect, False)
        on = _cell(path, table["name"], effect, True) if effect else None
        measured.append(measure_all(off, table["name"], on, alpha))
        numbers.append(table["number"] or "")
        base = base or off
    if headline is not None:
        main = open_dataset(headline)
        if main.game != record["game"]:
            raise UserError(f"{headline} is a {main.game} dataset, not {record['game']}")
        head = measure_all(main, HEADLINE, open_dataset(headline_b) if (effect and headline_b) else None)
        if effect and headline_b is None:  # the effect's headline is the base table's
            base_effect = measure_all(base, HEADLINE, _cell(path, BASE_TABLE, effect, True))
            head.update({k: v for k, v in base_effect.items() if v[0] == "effect"})
        source = f"{main.label}" + (f" and {open_dataset(headline_b).label}" if effect and headline_b else "")
    else:
        head = measure_all(base, HEADLINE, _cell(path, BASE_TABLE, effect, True) if effect else None)
        source = f"the base table ({base.n_games:,} games" + (", effect off and on)" if effect else ")")
    return Robustness(record["game"], base.n_players, str(path), base.n_games, record["tables"], effect, source,
                      judge(record["game"], base.n_players, head, measured, numbers, label))


def headlines(path: str | Path, compare_to: str | Path | None = None, effect_label: str = "the effect") -> Robustness:
    """The headline verdicts of a game with no robustness dataset: stated, not judged."""
    main = open_dataset(path)
    head = measure_all(main, HEADLINE, open_dataset(compare_to) if compare_to else None)
    return Robustness(main.game, main.n_players, "", 0, [], None, main.label,
                      judge(main.game, main.n_players, head, [], [], effect_label))


# ------------------------------------------------------------------------------ showing
def _number(value: float, unit: str, signed: bool = False) -> str:
    if unit == "proportion":
        return f"{value * 100:+.1f} points" if signed else f"{value * 100:.1f}%"
    return f"{value:+.2f} {unit}" if signed else f"{value:.2f} {unit}"


def _interval(m: Measurement, unit: str, signed: bool = False) -> str:
    if unit == "proportion" and not signed:
        return f"{m.value * 100:.1f}% [{m.low * 100:.1f}, {m.high * 100:.1f}]"
    if unit == "proportion":
        return f"{m.value * 100:+.1f} points [{m.low * 100:+.1f}, {m.high * 100:+.1f}]"
    return f"{m.value:+.2f} [{m.low:+.2f}, {m.high:+.2f}] {unit}"


def measurement_text(v: Verdict, m: Measurement) -> str:
    """One measurement in words and numbers."""
    if v.kind == "ranking":  # ">" between bots whose intervals are separate, "~" where they overlap
        text = ""
        for i, (name, value, low, high) in enumerate(m.items):
            if i:
                text += " > " if m.items[i - 1][2] > high else " ~ "
            text += f"{name} {value * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"
        return text
    if v.kind in ("strongest", "weakest"):
        return f"{m.state} {_interval(m, 'proportion')}"
    return _interval(m, v.unit, signed=v.kind == "effect")


def _statement(v: Verdict) -> str:
    m = v.headline
    if v.kind == "position":
        return (f"the first player wins {_interval(m, 'proportion')} against a fair "
                f"{100 / v.players:.0f}%: {m.state}")
    if v.kind == "ranking":
        return f"bot ranking {measurement_text(v, m)} (~: intervals overlap)"
    if v.kind in ("strongest", "weakest"):
        return f"{v.subject} is {measurement_text(v, m)}"
    label, measure = v.subject.split(": ", 1)
    return f"{label} changes the {measure} by {measurement_text(v, m)}: {m.state}"


# The designer's question each verdict kind answers (the index's dashboard), and the state names.
QUESTIONS = {"position": "Is the game fair between seats?", "ranking": "Does one strategy (bot) dominate?",
             "strongest": "Which components are out of line?", "weakest": "Which components are out of line?",
             "effect": "What does the variant change?"}


def verdict_state(v: Verdict) -> str:
    """The verdict's state under the reconstructed numbers, in a word: 'holds' (under every table),
    'depends' (clearly changes under one), 'unclear' (a table's interval does not decide) or
    'not checked' (no robustness tables)."""
    if not v.judged:
        return "not checked"
    if v.holds:
        return "holds"
    return "depends" if v.depends_on() else "unclear"


def verdict_answer(v: Verdict) -> str:
    """The headline sentence without the game's name, in plain words for the index's dashboard: 'The
    first player wins 29.3% [28.7, 30.0] ...', 'The strongest god card ... is double people ...'."""
    text = _statement(v).replace("_", " ")
    return text[:1].upper() + text[1:]


def verdict_line(v: Verdict) -> str:
    """The index's line: the headline sentence, whether it holds under every table and, when it does
    not, the reconstructed numbers it depends on."""
    dependence = v.dependence()
    return f"{v.text()}; {v.robustness()}" + (f"; {dependence}" if dependence else "")


def verdict_table(rob: Robustness) -> pd.DataFrame:
    """One row per verdict and table (the headline first): state, value [low, high], outcome."""
    rows = []
    readings = {t["name"]: (t.get("number") or "", t.get("reading") or "") for t in rob.tables}
    for v in rob.verdicts:
        entries = [(v.headline, "")] + list(zip(v.tables, v.outcomes))
        for m, verdict_outcome in entries:
            number, reading = readings.get(m.table, ("", ""))
            rows.append({"verdict": v.subject, "table": m.table, "number": number, "state": m.state,
                         "measured": measurement_text(v, m), "value": m.value, "low": m.low, "high": m.high,
                         "outcome": verdict_outcome or "(headline)"})
    return pd.DataFrame(rows)


def summary_table(rob: Robustness) -> pd.DataFrame:
    """One row per verdict: its headline sentence, whether it holds under every table, and the
    reconstructed numbers it depends on."""
    return pd.DataFrame([{"verdict": v.text(), "holds under every table": "yes" if v.holds else
                          ("-" if not v.judged else "no"), "depends on": ", ".join(v.depends_on()),
                          "may depend on": ", ".join(v.may_depend_on()), "robustness": v.robustness()}
                         for v in rob.verdicts])


def tables_table(rob: Robustness) -> pd.DataFrame:
    """The tables played: name, the reconstructed number, the reading, the variant file."""
    return pd.DataFrame([{"table": t["name"], "number": t.get("number") or "-", "reading": t.get("reading", ""),
                          "variant file": t.get("variant") or "-"} for t in rob.tables])


def robustness_figure(rob: Robustness, kinds: Sequence[str] = ("position", "effect", "strongest", "weakest"),
                      max_panels: int = 24) -> Figure | None:
    """A panel per scalar verdict: its value and 95% interval under every table (the headline's
    interval shaded), markers coloured by outcome. Ranking verdicts are drawn by ranking_figure."""
    verdicts = [v for v in rob.verdicts if v.kind in kinds and v.tables][:max_panels]
    if not verdicts:
        return None
    cols = 2 if len(verdicts) > 1 else 1
    rows = -(-len(verdicts) // cols)
    height = 0.28 * (len(verdicts[0].tables) + 1) + 1.0
    figure = Figure(figsize=(11 if cols == 2 else 6.5, height * rows), layout="constrained")
    axes = np.atleast_1d(figure.subplots(rows, cols, squeeze=False)).ravel()
    colours = {HOLDS: "tab:green", UNCLEAR: "tab:orange", CHANGES: "tab:red"}
    for ax, v in zip(axes, verdicts):
        scale = 100 if v.unit == "proportion" else 1
        labels = [m.table for m in v.tables]
        ys = np.arange(len(labels))[::-1]
        if v.kind in ("strongest", "weakest"):  # the headline item's rate under each table
            values = []
            for m in v.tables:
                item = next((i for i in m.items if i[0] == v.headline.state), None)
                values.append(item[1:] if item else (np.nan, np.nan, np.nan))
            values = np.array(values, dtype=float)
        else:
            values = np.array([(m.value, m.low, m.high) for m in v.tables], dtype=float)
        h = v.headline
        ax.axvspan(h.low * scale, h.high * scale, color="0.85", zorder=0)
        if v.kind == "position":
            ax.axvline(100 / v.players, color="0.4", linestyle=":", linewidth=1)
        elif v.kind == "effect":
            ax.axvline(0, color="0.4", linestyle=":", linewidth=1)
        for y, (value, low, high), o in zip(ys, values * scale, v.outcomes):
            ax.errorbar([value], [y], xerr=[[value - low], [high - value]], fmt="o", color=colours[o], capsize=2,
                        markersize=4)
        ax.set_yticks(ys, labels, fontsize=7)
        title = v.subject if v.kind not in ("strongest", "weakest") else f"{v.subject}: {v.headline.state}"
        ax.set_title(title, fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
        ax.set_xlabel("percent" if v.kind != "effect" and scale == 100 else
                      ("points" if scale == 100 else v.unit), fontsize=7)
    for ax in axes[len(verdicts):]:
        ax.set_visible(False)
    figure.suptitle(f"{rob.game.capitalize()}: each verdict under every table (95% intervals; grey: the headline's "
                    f"interval; green holds, orange unclear, red changes)", fontsize=9)
    return figure


def ranking_figure(rob: Robustness) -> Figure | None:
    """Each bot's win rate with its interval under every table, bots side by side."""
    v = next((v for v in rob.verdicts if v.kind == "ranking" and v.tables), None)
    if v is None:
        return None
    bots = [name for name, *_ in v.headline.items]
    figure = Figure(figsize=(8, 0.3 * len(v.tables) * 1.2 + 1.4), layout="constrained")
    ax = figure.subplots()
    ys = np.arange(len(v.tables))[::-1]
    for k, bot in enumerate(bots):
        offset = (k - (len(bots) - 1) / 2) * 0.15
        values = np.array([next((i[1:] for i in m.items if i[0] == bot), (np.nan,) * 3) for m in v.tables]) * 100
        ax.errorbar(values[:, 0], ys + offset, xerr=[values[:, 0] - values[:, 1], values[:, 2] - values[:, 0]],
                    fmt="o", capsize=2, markersize=4, label=bot)
    ax.axvline(100 / v.players, color="0.4", linestyle=":", linewidth=1)
    ax.set_yticks(ys, [m.table for m in v.tables], fontsize=8)
    ax.set_xlabel("win rate, percent (95% interval)")
    ax.set_title(f"{rob.game.capitalize()}: each bot's win rate under every table", fontsize=9)
    ax.legend(fontsize=7, loc="best")
    return figure


def robustness_result(rob: Robustness) -> Result:
    """The verdict-by-table table and the figure of the scalar verdicts."""
    return Result(verdict_table(rob), robustness_figure(rob))


def _wider(m: Measurement, headline: Measurement) -> bool:
    try:
        return (m.high - m.low) > (headline.high - headline.low) + 1e-12
    except TypeError:  # a measurement without an interval (a ranking)
        return False


def robustness_text(rob: Robustness) -> str:
    """The verdicts in plain text: each headline with whether it holds, then its value under every table."""
    lines = [f"{rob.game}: {len(rob.tables)} tables, {rob.games_per_cell:,} games each"
             + (f", {rob.effect['param']} off and on" if rob.effect else "") + f"; headline from {rob.headline_source}",
             f"  (headline: 95% intervals; tables: simultaneous 95% intervals over the {len(rob.tables) - 1} "
             f"alternative tables)"]
    for t in rob.tables[1:]:
        lines.append(f"  table {t['name']}: {t['number']}: {t['reading']}")
    base = rob.tables[0]["name"] if rob.tables else None
    k = max(len(rob.tables) - 1, 1)
    for v in rob.verdicts:
        lines.append("")
        lines.append(verdict_line(v))
        for m, o in zip(v.tables, v.outcomes):
            line = f"  {m.table:<22} {o:<8} {measurement_text(v, m)}"
            if m.table == base and _wider(m, v.headline):
                same = "the same games as the headline, " if m.value == v.headline.value else ""
                line += (f"  ({same}a wider interval: the tables' intervals are simultaneous, each at "
                         f"{100 * (1 - table_alpha(k)):.1f}% over the {k} alternative tables, the headline's 95%)")
            lines.append(line)
    held = sum(v.holds for v in rob.verdicts)
    lines += ["", f"{held} of {len(rob.verdicts)} verdicts hold under every reconstructed table."]
    return "\n".join(lines)


def dependence_note(rob: Robustness, link: str = "") -> str:
    """The Markdown note a report page of the game opens with: which verdicts depend on a
    reconstructed number (or that none does)."""
    where = f" ([robustness page]({link}))" if link else ""
    judged = [v for v in rob.verdicts if v.judged]
    if not judged:
        return ""
    dependent = rob.dependent()
    head = (f"**Reconstructed numbers.** {len(judged) - len(dependent)} of {len(judged)} headline verdicts of "
            f"{rob.game.capitalize()} hold under every plausible table of the numbers we had to reconstruct"
            f"{where}.")
    if not dependent:
        return head + " None depends on a reconstructed number."
    # The list folds away (issue 37: pages open with their answers, caveats one click away).
    lines = [head, "", f"<details><summary>{len(dependent)} depend, or may depend, on a reconstructed number "
                       "(unclear: the table's interval does not decide): show them</summary>", ""]
    for v in dependent:
        lines.append(f"- {_statement(v)}: {v.robustness()} ({v.dependence()})")
    return "\n".join(lines + ["", "</details>"])


def robust_label(path: str | Path) -> str:
    """A robustness dataset in a line: game, tables, effect, games per cell, seed, seating."""
    record = robust_record(path)
    config = read_manifest(path)["config"]
    effect = f" x {record['effect']['param']} off/on" if record.get("effect") else ""
    permute = bool(config.get("permute_seats", False))
    return (f"{record['game']} robustness: {len(record['tables'])} tables{effect}, {config['games']:,} games each, "
            f"seed {config['seed']}, {seating_words(not permute, permute)}")
