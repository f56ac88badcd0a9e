"""Card strength after 17lands' definitions, adapted to these games.

Each game declares its card families as `card_groups` (sim.core.game.CardGroup): column prefixes
of the players table, one column per item (card kind, tile ability, mission, good). For every
item and every player-game (one row of the players table):

- held: the `held` column(s) > 0 (Cuzco god cards: gained, the two dealt at setup included;
  Chachapoya adventurers: in the opening hand; missions: drawn, i.e. completed + failed > 0);
- played: the `played` columns summed > 0, whether or not the player held the item (a Cuzco god
  ability used through an Inti medal on the face-up card counts as played); for groups with a
  `failed` prefix (missions) "played" means completed (the `held` column > 0);
- kept: the `kept` column > 0 (Chachapoya: left in hand at the end).

The rates, each with its count of player-games, wins and a 95% interval:

- GIH WR: win rate of the player-games that held the item ("in opening hand WR" for Chachapoya);
- not-held WR: of those that did not hold it;
- held-delta: GIH WR - not-held WR (what 17lands calls IWD, "improvement when drawn", with
  "not held" in place of "not seen");
- held-not-played WR: held, never played (missions: held, failed);
- played WR: played (missions: completed);
- IWD (as issue 4 defines it): played WR - held-not-played WR, the improvement when played;
- completion rate (missions): completed / held.

Differences get Newcombe's hybrid-score interval (statsmodels confint_proportions_2indep), single
rates the chosen proportion_confint method. Items are ranked by GIH WR within their group; an item
is flagged an outlier when an exact binomial test of its GIH wins against the group mean (the
unweighted mean of the group's GIH WRs) is significant after Holm's correction (or BH's, by
option) within the group.

Cuzco's Inti medals are added as a group "inti medal" when the columns exist: held =
`medals_gained` > 0 (a medal won at the temple), played = any `card_medal_*` > 0.

These are associations, not causes: strong players gain and play more cards. The causal answer is
`sim value GAME --group G` (sim/studies/value.py): a card's *value* is the win rate a seat loses
when it is forbidden the card, in the same games. When such a table exists for the dataset's game,
player count and variant (found in data/value/ and in the dataset folder's `value/`, or passed as
`value=`), card_strength adds it beside the held win rate: value, value_lo, value_hi, value_games
(the table with the most games wins a tie), and the chart's labels carry it. The logistic
regression (card_strength_logit) controls for seat, bot and turn order, not for skill within a
game. Players of one game are not independent (one winner per game); intervals treat them as if
they were, as 17lands does. Games no player won (a stalemate) are left out of every rate and fit
(`table.attrs["no_winner_games"]` says how many).

Every reader streams only the columns it needs in batches, so 10-million-game datasets fit.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
from scipy.stats import binomtest
from statsmodels.stats.proportion import confint_proportions_2indep

from sim.analysis.io import Dataset, Result
from sim.core.errors import UserError
from sim.core.registry import get_game
from sim.core.stats import adjust_p_values, interval_method, rate_ci

INTI_MEDAL = "inti medal"
CORRECTIONS = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg", "bh": "Benjamini-Hochberg",
               "bonferroni": "Bonferroni"}
RATES = ("gih", "not_held", "held_not_played", "played", "kept")


@dataclass
class ItemSpec:
    """One item of one group: which columns say held / played / kept (each summed, then > 0)."""

    group: str
    item: str
    held: list[str]
    played: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    held_as: str = "held"
    played_as: str = "played"
    completion: bool = False  # missions: played = completed, report completed / held

    @property
    def columns(self) -> list[str]:
        return [*self.held, *self.played, *self.kept]


# ------------------------------------------------------------------------------------ items
def _held_label(prefix: str, has_failed: bool) -> str:
    if has_failed:
        return f"drawn ({prefix}* or failed > 0)"
    if prefix.startswith("opening"):
        return f"in opening hand ({prefix}* > 0)"
    if "gained" in prefix:
        return f"gained ({prefix}* > 0)"
    return f"held ({prefix}* > 0)"


def item_specs(ds: Dataset, group: str | list[str] | None = None) -> list[ItemSpec]:
    """Every item of the game's card groups present in the players table (or of the named groups).

    Items are the column suffixes after a group's `held` prefix (and its `failed` prefix).
    """
    columns = ds.player_columns()
    present = set(columns)
    specs: list[ItemSpec] = []
    for g in getattr(get_game(ds.game), "card_groups", ()):
        prefixes = [g.held] + ([g.failed] if g.failed else [])
        items: list[str] = []
        for prefix in prefixes:
            for c in columns:
                if c.startswith(prefix) and len(c) > len(prefix) and c[len(prefix):] not in items:
                    items.append(c[len(prefix):])
        for item in items:
            held = [p + item for p in prefixes if p + item in present]
            if g.failed:
                done = [g.held + item] if g.held + item in present else []
                specs.append(ItemSpec(g.name, item, held, played=done, held_as=_held_label(g.held, True),
                                      played_as="completed", completion=True))
            else:
                played = [p + item for p in g.played if p + item in present]
                kept = [g.kept + item] if g.kept and g.kept + item in present else []
                specs.append(ItemSpec(g.name, item, held, played, kept, held_as=_held_label(g.held, False)))
    medal_uses = [c for c in columns if c.startswith("card_medal_")]
    if "medals_gained" in present and medal_uses:
        specs.append(ItemSpec(INTI_MEDAL, "medal", ["medals_gained"], medal_uses,
                              held_as="won at the temple (medals_gained > 0)",
                              played_as="used on a god card (card_medal_* > 0)"))
    if group is not None:
        wanted = [group] if isinstance(group, str) else list(group)
        known = list(dict.fromkeys(s.group for s in specs))
        for w in wanted:
            if w not in known:
                raise UserError(f"{ds.game} has no card group {w!r} in this dataset "
                                f"(known: {', '.join(known) or 'none'})")
        specs = [s for s in specs if s.group in wanted]
    if not specs:
        raise UserError(f"{ds.path}: no card-group columns in the players table of {ds.game}")
    return specs


def _any(arrays: dict[str, np.ndarray], cols: list[str]) -> np.ndarray:
    """Summed columns > 0, as a bool array (arrays: column name -> values of one batch)."""
    if len(cols) == 1:
        return arrays[cols[0]] > 0
    total = arrays[cols[0]].astype(np.int64)
    for c in cols[1:]:
        total += arrays[c]
    return total > 0


def _mask_matrix(arrays: dict[str, np.ndarray], cols: list[list[str]], n_rows: int) -> np.ndarray:
    """(items, rows) bool: per item its columns summed > 0 (all False for an item without columns)."""
    out = np.zeros((len(cols), n_rows), dtype=bool)
    for i, c in enumerate(cols):
        if c:
            out[i] = _any(arrays, c)
    return out


def _row_counts(m: np.ndarray) -> np.ndarray:
    """True values per row of a 2-D bool array (one count_nonzero per row beats axis=1 by 10x)."""
    return np.fromiter((np.count_nonzero(r) for r in m), dtype=np.int64, count=len(m))


def _arrays(frame: pd.DataFrame, columns: list[str]) -> dict[str, np.ndarray]:
    return {c: frame[c].to_numpy() for c in columns}


def _won(frame: pd.DataFrame) -> np.ndarray:
    return frame["won"].to_numpy(dtype=bool)


# ------------------------------------------------------------------------------------ intervals
def _correction(correction: str) -> tuple[str, str]:
    key = correction.lower()
    if key not in CORRECTIONS:
        raise UserError(f"unknown multiple-comparison correction {correction!r} (known: holm, fdr_bh, bonferroni)")
    return ("fdr_bh" if key == "bh" else key), CORRECTIONS[key]


def diff_ci(wins1, games1, wins2, games2, alpha: float = 0.05):
    """rate1 - rate2 with Newcombe's hybrid-score interval (NaN where either has no games)."""
    w1, n1, w2, n2 = (np.asarray(a, dtype=float) for a in (wins1, games1, wins2, games2))
    ok = (n1 > 0) & (n2 > 0)
    diff = np.full(w1.shape, np.nan)
    lo = np.full(w1.shape, np.nan)
    hi = np.full(w1.shape, np.nan)
    if ok.any():
        diff[ok] = w1[ok] / n1[ok] - w2[ok] / n2[ok]
        lo[ok], hi[ok] = confint_proportions_2indep(w1[ok], n1[ok], w2[ok], n2[ok], method="newcomb",
                                                    compare="diff", alpha=alpha)
    return diff, lo, hi


# ------------------------------------------------------------------------------------ counting
def _count(ds: Dataset, specs: list[ItemSpec], batch_rows: int = 1_000_000) -> pd.DataFrame:
    """Per item: player-games and wins when held, played, held-not-played, kept, completed."""
    columns = list(dict.fromkeys(["won", *(c for s in specs for c in s.columns)]))
    keys = ("gih", "played", "held_not_played", "kept")
    n = {k: np.zeros(len(specs), np.int64) for k in keys}
    w = {k: np.zeros(len(specs), np.int64) for k in keys}
    done = np.zeros(len(specs), np.int64)
    rows = 0
    wins = 0
    held_cols = [sp.held for sp in specs]
    played_cols = [sp.played for sp in specs]
    kept_cols = [sp.kept for sp in specs]
    completion = np.array([sp.completion for sp in specs])
    for frame in ds.win_batches(columns, batch_rows):
        won = _won(frame)
        arrays = _arrays(frame, columns[1:])
        rows += len(frame)
        wins += np.count_nonzero(won)
        held = _mask_matrix(arrays, held_cols, len(frame))
        played = _mask_matrix(arrays, played_cols, len(frame))
        masks = {"gih": held, "played": played, "held_not_played": held & ~played,
                 "kept": _mask_matrix(arrays, kept_cols, len(frame))}
        for k, m in masks.items():
            n[k] += _row_counts(m)
            w[k] += _row_counts(m & won)
        done += np.where(completion, _row_counts(held & played), 0)
    if rows == 0:
        raise UserError(f"{ds.path}: the players table is empty")
    out = pd.DataFrame({
        "group": [s.group for s in specs],
        "item": [s.item for s in specs],
        "held_as": [s.held_as for s in specs],
        "played_as": [s.played_as if s.played else "" for s in specs],
        "rows": rows,
    })
    has = {"gih": [True] * len(specs), "played": [bool(s.played) for s in specs],
           "held_not_played": [bool(s.played) for s in specs], "kept": [bool(s.kept) for s in specs]}
    for k in keys:
        out[f"{k}_games"] = _counts(n[k], has[k])
        out[f"{k}_wins"] = _counts(w[k], has[k])
    out["not_held_games"] = rows - out["gih_games"]
    out["not_held_wins"] = wins - out["gih_wins"]
    out["completed"] = _counts(done, [s.completion for s in specs])
    return out


def _counts(values: np.ndarray, have: list[bool]) -> pd.Series:
    """Integer counts, <NA> where the group does not record that kind of count."""
    return pd.Series(pd.array([int(v) if h else None for v, h in zip(values, have)], dtype="Int64"))


def _as_float(series: pd.Series) -> np.ndarray:
    return series.astype("Float64").to_numpy(dtype=float, na_value=np.nan)


# ------------------------------------------------------------------------------------ card strength
VALUE_COLUMNS = ["value", "value_lo", "value_hi", "value_games"]
VALUE_DIR = Path("data") / "value"


def value_tables(ds: Dataset) -> list[Path]:
    """The `sim value` tables there are for this dataset's game (data/value/, DATASET/../value/)."""
    found: list[Path] = []
    for folder in dict.fromkeys([VALUE_DIR, Path(ds.path).parent / "value"]):
        if folder.is_dir():
            found += sorted(p for p in folder.iterdir() if p.suffix in (".csv", ".parquet"))
    return found


def value_evidence(ds: Dataset, value: "str | Path | pd.DataFrame | None" = "auto") -> pd.DataFrame | None:
    """The causal values (sim value) that fit the dataset, one row per (card-strength group, item),
    or None. `value`: a table or its file, "auto" to look for one (value_tables), None for none.
    A table fits when its game, players, variant and line-up (when it records one) are the
    dataset's, and, for a mixed line-up, its seating too (a table without `permute_seats`, like a
    dataset without it in its manifest, rotated its seats): who sits before whom moves a mixed
    line-up's results. Of several rows for an item, the one with the most games."""
    from sim.studies.value import read_table

    if value is None:
        return None
    if isinstance(value, pd.DataFrame):
        tables = [value]
    elif isinstance(value, (str, Path)) and str(value) != "auto":
        tables = [read_table(value)]
    else:
        tables = []
        for path in value_tables(ds):
            try:
                tables.append(read_table(path))
            except UserError:
                continue
    rows = []
    bots = ds.config.get("bots") or []
    lineup = ",".join(bots)
    permuted = bool(ds.config.get("permute_seats", False))
    for t in tables:
        keep = pd.Series(True, index=t.index)
        for column, wanted in (("game", ds.game), ("players", ds.n_players), ("variant", ds.variant),
                               ("bots", lineup)):
            if column in t.columns and (column != "bots" or lineup):
                keep &= t[column].astype(str) == str(wanted)
        if len(set(bots)) > 1:
            seating = t["permute_seats"].astype(bool) if "permute_seats" in t.columns else False
            keep &= seating == permuted
        rows.append(t[keep])
    if not rows or all(r.empty for r in rows):
        return None
    table = pd.concat(rows, ignore_index=True)
    groups = {g.name: g.held for g in getattr(get_game(ds.game), "value_groups", ())}
    strength_groups = {g.held: g.name for g in getattr(get_game(ds.game), "card_groups", ())}
    table["group"] = [strength_groups.get(groups.get(g, ""), g) for g in table["group"]]
    table = table.rename(columns={"games": "value_games"})
    table = table.sort_values("value_games", ascending=False, kind="stable").drop_duplicates(["group", "item"])
    return table[["group", "item", *VALUE_COLUMNS]].reset_index(drop=True)


def _with_value(t: pd.DataFrame, evidence: pd.DataFrame | None) -> pd.DataFrame:
    if evidence is None:
        return t
    return t.merge(evidence, on=["group", "item"], how="left")


def card_strength(ds: Dataset, group: str | list[str] | None = None, method: str = "wilson",
                  alpha: float = 0.05, correction: str = "holm", min_games: int = 20, figure: bool = True,
                  value: "str | Path | pd.DataFrame | None" = "auto") -> Result:
    """Win rates held / not held / held-not-played / played / kept, IWD, completion; ranked, outliers flagged.

    One row per item (see the module docstring for the definitions). Columns: group, item,
    held_as, played_as, rows (player-games read), then for each rate r in gih, not_held,
    held_not_played, played, kept: r_games, r_wins, r_wr, r_lo, r_hi (NaN when the group does not
    record it); held_delta (+ _lo/_hi) = GIH WR - not-held WR; iwd (+ _lo/_hi) = played WR -
    held-not-played WR; completed, completion_rate (+ _lo/_hi) for missions; rank (1 = highest
    GIH WR in its group); group_mean (unweighted mean GIH WR of the group's items), gih_z (GIH WR
    minus group mean in binomial standard errors), gih_p (exact binomial test against the group
    mean), gih_p_adj (corrected within the group), outlier ("high", "low" or ""). Items with fewer
    than `min_games` GIH games are ranked but not tested. method: proportion_confint method
    ("wilson", "beta" = Clopper-Pearson, ...); correction: "holm" or "fdr_bh". figure=False: the table
    alone (Result.figure None), for callers that read only the numbers, such as the verdicts (the
    figure is a quarter of their time). value: the causal values to add (value_evidence; "auto"
    looks for a `sim value` table of this game, players and variant): columns value, value_lo,
    value_hi, value_games after the GIH columns, where the evidence exists.
    """
    interval_method(method)
    corr_key, corr_name = _correction(correction)
    specs = item_specs(ds, group)
    t = _count(ds, specs)
    for r in RATES:
        rate, lo, hi = rate_ci(_as_float(t[f"{r}_wins"]), _as_float(t[f"{r}_games"]), method, alpha)
        t[f"{r}_wr"], t[f"{r}_lo"], t[f"{r}_hi"] = rate, lo, hi
    for name, (a, b) in {"held_delta": ("gih", "not_held"), "iwd": ("played", "held_not_played")}.items():
        d, lo, hi = diff_ci(_as_float(t[f"{a}_wins"]), _as_float(t[f"{a}_games"]),
                            _as_float(t[f"{b}_wins"]), _as_float(t[f"{b}_games"]), alpha)
        t[name], t[f"{name}_lo"], t[f"{name}_hi"] = d, lo, hi
    rate, lo, hi = rate_ci(_as_float(t["completed"]), np.where(t["completed"].isna(), 0, _as_float(t["gih_games"])),
                           method, alpha)
    t["completion_rate"], t["completion_lo"], t["completion_hi"] = rate, lo, hi

    t["rank"] = t.groupby("group", sort=False)["gih_wr"].rank(ascending=False, method="min").astype("Int64")
    t["group_mean"] = t.groupby("group", sort=False)["gih_wr"].transform("mean")
    games = _as_float(t["gih_games"])
    wins = _as_float(t["gih_wins"])
    m = t["group_mean"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        t["gih_z"] = (t["gih_wr"] - m) / np.sqrt(m * (1 - m) / games)
    p = np.full(len(t), np.nan)
    testable = (games >= max(min_games, 1)) & (m > 0) & (m < 1)
    for i in np.flatnonzero(testable):
        p[i] = binomtest(int(wins[i]), int(games[i]), float(m[i])).pvalue
    p_adj = np.full(len(t), np.nan)
    for _, idx in t.groupby("group", sort=False).indices.items():
        idx = np.asarray(idx)
        idx = idx[~np.isnan(p[idx])]
        if len(idx):
            p_adj[idx] = adjust_p_values(p[idx], alpha, corr_key)[1]
    t["gih_p"], t["gih_p_adj"] = p, p_adj
    flagged = np.nan_to_num(p_adj, nan=1.0) < alpha
    t["outlier"] = np.where(flagged & (t["gih_wr"] > m), "high", np.where(flagged, "low", ""))
    order = ["group", "item", "rank", "held_as", "played_as", "rows"]
    for r in RATES:
        order += [f"{r}_games", f"{r}_wins", f"{r}_wr", f"{r}_lo", f"{r}_hi"]
    order += ["held_delta", "held_delta_lo", "held_delta_hi", "iwd", "iwd_lo", "iwd_hi", "completed",
              "completion_rate", "completion_lo", "completion_hi", "group_mean", "gih_z", "gih_p",
              "gih_p_adj", "outlier"]
    t = t[order]
    evidence = value_evidence(ds, value)
    t = _with_value(t, evidence)
    if evidence is not None:
        at = order.index("gih_hi") + 1
        t = t[order[:at] + VALUE_COLUMNS + order[at:]]
    position = {g: i for i, g in enumerate(dict.fromkeys(t["group"]))}
    t = (t.assign(_g=t["group"].map(position)).sort_values(["_g", "rank"], kind="stable", na_position="last")
         .drop(columns="_g").reset_index(drop=True))
    t.attrs.update({
        "dataset": ds.label, "ci_method": method, "alpha": alpha,
        "outlier_test": (f"exact binomial test of GIH wins against the group mean GIH WR, "
                         f"{corr_name}-corrected within each group, alpha {alpha}; items with "
                         f"fewer than {min_games} GIH games not tested"),
        "difference_ci": "Newcombe hybrid score (statsmodels confint_proportions_2indep)",
        "no_winner_games": ds.no_winner_games,
        "item_names": item_names(ds),
    })
    return Result(t, _strength_figure(t, ds, method, corr_name, alpha) if figure else None)


def _strength_figure(t: pd.DataFrame, ds: Dataset, method: str, corr_name: str, alpha: float) -> Figure:
    groups = list(dict.fromkeys(t["group"]))
    sizes = [max(int((t["group"] == g).sum()), 2) for g in groups]
    fig = Figure(figsize=(8.5, 1.6 + 0.22 * sum(sizes) + 0.9 * len(groups)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False, gridspec_kw={"height_ratios": sizes})[:, 0]
    base = 1.0 / ds.n_players
    for ax, g in zip(axes, groups):
        d = t[t["group"] == g].sort_values("gih_wr", na_position="first")
        y = np.arange(len(d))
        colours = np.where(d["outlier"] == "high", "tab:green", np.where(d["outlier"] == "low", "tab:red", "tab:blue"))
        err = np.clip(np.vstack([d["gih_wr"] - d["gih_lo"], d["gih_hi"] - d["gih_wr"]]), 0, None)  # a Wilson bound may sit 1e-17 past a rate of 0
        for c in dict.fromkeys(colours):
            sel = colours == c
            ax.errorbar(d["gih_wr"][sel], y[sel], xerr=err[:, sel], fmt="o", color=c, ms=4, capsize=2, lw=1)
        ax.plot(d["not_held_wr"], y, "x", color="0.55", ms=4)
        mean = d["group_mean"].iloc[0]
        ax.axvline(mean, color="0.3", ls="--", lw=1)
        ax.axvline(base, color="0.7", ls=":", lw=1)
        ax.set_yticks(y)
        names = t.attrs.get("item_names", {}).get(g, {})
        values = d["value"] if "value" in d.columns else pd.Series(np.nan, index=d.index)
        ax.set_yticklabels([(f"{_named(i, names)}  (n={int(n):,})" if pd.notna(n) else _named(i, names))
                            + (f"  value {100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" if pd.notna(v) else "")
                            for i, n, v, lo, hi in zip(d["item"], d["gih_games"], values,
                                                       d.get("value_lo", values), d.get("value_hi", values))],
                           fontsize=7)
        ax.set_title(f"{g}: win rate when {d['held_as'].iloc[0]}", fontsize=9, loc="left")
        ax.set_xlabel("win rate (share of player-games won)")
        ax.grid(axis="x", alpha=0.3)
    handles = [
        Line2D([], [], marker="o", color="tab:blue", ls="", label=f"GIH WR with {1 - alpha:.0%} CI"),
        Line2D([], [], marker="o", color="tab:green", ls="", label="outlier, above group mean"),
        Line2D([], [], marker="o", color="tab:red", ls="", label="outlier, below group mean"),
        Line2D([], [], marker="x", color="0.55", ls="", label="win rate when not held"),
        Line2D([], [], color="0.3", ls="--", label="group mean GIH WR"),
        Line2D([], [], color="0.7", ls=":", label=f"1 / players = {base:.2f}"),
    ]
    fig.legend(handles=handles, loc="outside lower center", ncol=3, fontsize=7, frameon=False)
    if "value" in t.columns and t["value"].notna().any():
        handles.append(Line2D([], [], ls="", label="value: win-rate points a seat loses without the card "
                                                   "(sim value, paired 95% CI)"))
    fig.suptitle(f"Card strength: win rate when held (GIH WR), {ds.label}\n"
                 f"{method} {1 - alpha:.0%} intervals; outliers: exact binomial test vs group mean, "
                 f"{corr_name}-corrected within group, alpha {alpha}", fontsize=9)
    return fig


# ------------------------------------------------------------------------------------ logistic regression
def _covariates(ds: Dataset) -> list[str]:
    present = set(ds.player_columns())
    if "won" not in present:
        raise UserError(f"{ds.path}: the players table has no column 'won'")
    return [c for c in ("seat", "bot", "start_order") if c in present]


def card_strength_logit(ds: Dataset, group: str | list[str] | None = None, max_rows: int | None = 2_000_000,
                        seed: int = 0, alpha: float = 0.05, correction: str = "holm",
                        batch_rows: int = 1_000_000) -> Result:
    """Per item: logistic regression won ~ held + C(seat) + C(bot) (+ C(start_order) when recorded).

    The covariates and `held` are all categorical, so the rows collapse exactly into cells
    (held x seat x bot x start order) with games and wins per cell; a binomial GLM on the cells
    (statsmodels, logit link) gives the same estimates as a Logit on the rows, in milliseconds
    whatever the dataset size. `max_rows` (None = all) caps the player rows used: when the table is
    larger, whole games are drawn at random (seeded) with probability max_rows / rows, so the rows
    used are close to max_rows; they are reported in `rows_used`.

    Columns: group, item, held_as, rows_used, held_games, held_wins, coef (log-odds of winning,
    held vs not),
    coef_lo, coef_hi, se, odds_ratio, or_lo, or_hi, p_value, p_adj (within the group, `correction`),
    significant, covariates (those kept; one identical to another or constant is dropped), note
    (why an item was skipped: no variation, confounded with the covariates, perfect separation).
    """
    corr_key, corr_name = _correction(correction)
    specs = item_specs(ds, group)
    covs = _covariates(ds)
    nplayers = ds.n_players
    item_cols = list(dict.fromkeys(c for s in specs for c in s.held))
    read = list(dict.fromkeys(["game_id", "won", *covs, *item_cols]))
    total = ds.n_games * nplayers
    p_keep = 1.0 if (max_rows is None or total <= max_rows) else max_rows / total
    rng = np.random.default_rng(seed)
    # games drawn once, by game id (0 .. n_games-1 in a run): whole games in or out
    keep_game = rng.random(ds.n_games) < p_keep if p_keep < 1.0 else None

    n_bot_cap = 256
    n_seat = max(nplayers, 1)
    n_so = n_seat if "start_order" in covs else 1
    n_cells = n_seat * n_so * n_bot_cap
    cell_games = np.zeros(n_cells, np.int64)   # player rows per cell
    cell_wins = np.zeros(n_cells, np.int64)
    held_games = np.zeros((len(specs), n_cells), np.int64)  # of which the item was held
    held_wins = np.zeros((len(specs), n_cells), np.int64)
    bot_ids: dict[str, int] = {}
    used = 0
    for frame in ds.win_batches(read, batch_rows):
        rows = np.arange(len(frame))
        if keep_game is not None:
            gid = frame["game_id"].to_numpy(np.int64)
            if gid.min() < 0 or gid.max() >= len(keep_game):
                raise UserError(f"{ds.path}: game_id outside 0..{len(keep_game) - 1}; use max_rows=None")
            rows = np.flatnonzero(keep_game[gid])
        if not len(rows):
            continue
        used += len(rows)
        seat = frame["seat"].to_numpy(np.int64)[rows] if "seat" in covs else np.zeros(len(rows), np.int64)
        so = (frame["start_order"].to_numpy(np.int64)[rows] if "start_order" in covs
              else np.zeros(len(rows), np.int64))
        if seat.min() < 0 or seat.max() >= n_seat or so.min() < 0 or so.max() >= n_seat:
            raise UserError(f"{ds.path}: seat or start_order outside 0..{n_seat - 1} "
                            f"(manifest says {nplayers} players)")
        if "bot" in covs:
            bot = frame["bot"].astype("category")
            lut = np.array([bot_ids.setdefault(str(b), len(bot_ids)) for b in bot.cat.categories], np.int64)
            if len(bot_ids) > n_bot_cap:
                raise UserError(f"{ds.path}: more than {n_bot_cap} bots")
            code = bot.cat.codes.to_numpy()[rows]
            if (code < 0).any():
                raise UserError(f"{ds.path}: the bot column has missing values")
            botc = lut[code]
        else:
            botc = np.zeros(len(rows), np.int64)
        cell = (seat * n_so + so) * n_bot_cap + botc
        won = _won(frame)[rows]
        cell_games += np.bincount(cell, minlength=n_cells)
        cell_wins += np.bincount(cell[won], minlength=n_cells)
        # rows sorted by cell, then per cell one count over its slice (all items at once)
        order = np.argsort(cell, kind="stable")
        sorted_cells = cell[order]
        starts = np.flatnonzero(np.r_[True, sorted_cells[1:] != sorted_cells[:-1]])
        ends = np.r_[starts[1:], len(cell)]
        take = rows[order]
        arrays = {c: a[take] for c, a in _arrays(frame, item_cols).items()}
        held = _mask_matrix(arrays, [sp.held for sp in specs], len(take))
        held_won = held & won[order]
        for c, a, b in zip(sorted_cells[starts], starts, ends):
            held_games[:, c] += _row_counts(held[:, a:b])
            held_wins[:, c] += _row_counts(held_won[:, a:b])
    if used == 0:
        raise UserError(f"{ds.path}: no player rows to fit")

    bots = sorted(bot_ids, key=bot_ids.get)
    present = np.flatnonzero(cell_games)
    X_cov, cov_names = _covariate_design(present, covs, n_so, n_bot_cap, bots)
    fits = []
    for i, s in enumerate(specs):
        hg, hw = held_games[i, present], held_wins[i, present]
        fits.append(_fit_item(s, X_cov, cov_names, cell_games[present] - hg, cell_wins[present] - hw, hg, hw,
                              used, alpha))
    t = pd.DataFrame(fits)
    p_adj = np.full(len(t), np.nan)
    for _, idx in t.groupby("group", sort=False).indices.items():
        idx = np.asarray(idx)
        idx = idx[~t["p_value"].iloc[idx].isna().to_numpy()]
        if len(idx):
            p_adj[idx] = adjust_p_values(t["p_value"].to_numpy()[idx], alpha, corr_key)[1]
    t.insert(t.columns.get_loc("p_value") + 1, "p_adj", p_adj)
    t.insert(t.columns.get_loc("p_adj") + 1, "significant", np.nan_to_num(p_adj, nan=1.0) < alpha)
    t.attrs.update({
        "dataset": ds.label, "rows_used": used, "rows_total": total, "alpha": alpha,
        "model": ("binomial GLM, logit link, on held x " + " x ".join(covs)
                  + " cells (the same fit as a row-level Logit)"),
        "correction": f"{corr_name} within each group",
        "skipped": {f"{r['group']}/{r['item']}": r["note"] for r in fits if pd.isna(r["coef"])},
        "no_winner_games": ds.no_winner_games,
        "item_names": item_names(ds),
    })
    return Result(t, _logit_figure(t, ds, used, alpha))


def _covariate_design(cells: np.ndarray, covs: list[str], n_so: int, n_bot_cap: int,
                      bots: list[str]) -> tuple[np.ndarray, list[str]]:
    """Intercept + dummies (first level dropped) for the present cells, without redundant columns.

    A dummy that adds nothing (a constant, or start order identical to seat) is dropped, so the
    design keeps full rank; the names say which remain.
    """
    levels = {
        "seat": cells // (n_so * n_bot_cap),
        "start_order": (cells // n_bot_cap) % n_so,
        "bot": cells % n_bot_cap,
    }
    columns = [np.ones(len(cells))]
    names = ["const"]
    for c in covs:
        values = levels[c]
        for v in np.unique(values)[1:]:
            columns.append((values == v).astype(float))
            names.append(f"{c}={bots[v] if c == 'bot' else v}")
    kept: list[int] = []
    for j in range(len(columns)):
        if np.linalg.matrix_rank(np.column_stack([columns[k] for k in kept + [j]])) == len(kept) + 1:
            kept.append(j)
    return np.column_stack([columns[k] for k in kept]), [names[k] for k in kept]


def _fit_item(s: ItemSpec, X_cov: np.ndarray, cov_names: list[str], n0: np.ndarray, w0: np.ndarray,
              n1: np.ndarray, w1: np.ndarray, used: int, alpha: float) -> dict:
    """Binomial GLM (logit link) of wins on covariates + held, on the cells (held 0: n0/w0, 1: n1/w1)."""
    import statsmodels.api as sm

    nh, hw, nw = int(n1.sum()), int(w1.sum()), int(w0.sum())
    row = {"group": s.group, "item": s.item, "held_as": s.held_as, "rows_used": used, "held_games": nh,
           "held_wins": hw, "coef": np.nan, "coef_lo": np.nan, "coef_hi": np.nan, "se": np.nan,
           "odds_ratio": np.nan, "or_lo": np.nan, "or_hi": np.nan, "p_value": np.nan,
           "covariates": ", ".join(dict.fromkeys(n.split("=")[0] for n in cov_names[1:])), "note": ""}
    if nh == 0 or nh == used:
        row["note"] = f"skipped: no variation ({'nobody' if nh == 0 else 'every player'} held it)"
        return row
    if hw in (0, nh):
        row["note"] = f"skipped: perfect separation (all {nh:,} holders {'won' if hw == nh else 'lost'})"
        return row
    if nw in (0, used - nh):
        row["note"] = f"skipped: perfect separation (all {used - nh:,} non-holders {'won' if nw else 'lost'})"
        return row
    m0, m1 = n0 > 0, n1 > 0
    X = np.vstack([np.column_stack([X_cov[m0], np.zeros(m0.sum())]), np.column_stack([X_cov[m1], np.ones(m1.sum())])])
    n = np.r_[n0[m0], n1[m1]].astype(float)
    w = np.r_[w0[m0], w1[m1]].astype(float)
    if np.linalg.matrix_rank(X) < X.shape[1]:
        row["note"] = "skipped: held is confounded with the covariates (e.g. only one bot ever held it)"
        return row
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            fit = sm.GLM(np.column_stack([w, n - w]), X, family=sm.families.Binomial()).fit()
        except Exception as exc:  # a singular or diverging fit: report it, do not stop the table
            row["note"] = f"skipped: fit failed ({type(exc).__name__}: {exc})".splitlines()[0]
            return row
    lo, hi = fit.conf_int(alpha=alpha)[-1]
    row.update(coef=float(fit.params[-1]), se=float(fit.bse[-1]), coef_lo=float(lo), coef_hi=float(hi),
               p_value=float(fit.pvalues[-1]))
    row.update(odds_ratio=float(np.exp(row["coef"])), or_lo=float(np.exp(lo)), or_hi=float(np.exp(hi)))
    notes = sorted({type(c.message).__name__ for c in caught
                    if "Separation" in type(c.message).__name__ or "Convergence" in type(c.message).__name__})
    if notes:
        row["note"] = "warning: " + ", ".join(notes)
    return row


def _logit_figure(t: pd.DataFrame, ds: Dataset, used: int, alpha: float) -> Figure:
    groups = list(dict.fromkeys(t["group"]))
    sizes = [max(int((t["group"] == g).sum()), 2) for g in groups]
    fig = Figure(figsize=(8.5, 1.6 + 0.22 * sum(sizes) + 0.9 * len(groups)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False, gridspec_kw={"height_ratios": sizes})[:, 0]
    for ax, g in zip(axes, groups):
        d = t[t["group"] == g].sort_values("odds_ratio", na_position="first")
        y = np.arange(len(d))
        fitted = d["odds_ratio"].notna().to_numpy()
        colours = np.where(d["significant"], "tab:purple", "tab:blue")
        err = np.vstack([d["odds_ratio"] - d["or_lo"], d["or_hi"] - d["odds_ratio"]])
        for c in dict.fromkeys(colours[fitted]):
            sel = fitted & (colours == c)
            ax.errorbar(d["odds_ratio"][sel], y[sel], xerr=err[:, sel], fmt="o", color=c, ms=4, capsize=2, lw=1)
        ax.axvline(1.0, color="0.3", ls="--", lw=1)
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 1.5, 2.0, 3.0, 5.0, 7.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_yticks(y)
        ax.set_yticklabels([i if f else f"{i} (skipped)" for i, f in zip(d["item"], fitted)], fontsize=7)
        ax.set_title(f"{g}: odds ratio of winning when {d['held_as'].iloc[0]}", fontsize=9, loc="left")
        ax.set_xlabel("odds ratio (log scale; 1 = no effect)")
        ax.grid(axis="x", alpha=0.3)
    used_covs = next((c for c in t["covariates"] if c), "nothing")
    fig.suptitle(f"Card strength controlled for {used_covs} (logistic regression), {ds.label}\n"
                 f"{used:,} player rows; {1 - alpha:.0%} intervals; purple: significant after "
                 f"{t.attrs.get('correction', 'correction')}, alpha {alpha}", fontsize=9)
    return fig


# ------------------------------------------------------------------------------------ summary
def item_names(ds: Dataset) -> dict[str, dict[str, str]]:
    """Names the game gives its items where an item is a bare id (Cuzco's missions: `m05`), as
    {group: {item: name}}: the game's `analysis.names.item_names(ds)`, {} for a game without one."""
    import importlib

    try:
        module = importlib.import_module(f"sim.games.{ds.game}.analysis.names")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"sim.games.{ds.game}.analysis"):
            return {}
        raise
    return module.item_names(ds)


def _named(item: str, names: dict[str, str]) -> str:
    """A chart's label of an item: 'm05: 4 feather colours' where the game names it (item_names)."""
    return f"{item}: {names[item]}" if item in names else item


def card_summary(ds: Dataset, n: int = 3, strength: Result | pd.DataFrame | None = None,
                 method: str = "wilson", min_games: int = 20) -> Result:
    """The `n` strongest and weakest items per group by GIH WR, for the report.

    Pass a card_strength result as `strength` to avoid recomputing it. Items with fewer than
    `min_games` GIH games are left out. Columns: group, end ("top"/"bottom"), rank, item,
    gih_games, gih_wr, gih_lo, gih_hi, held_delta, iwd, outlier (and the causal value columns when
    card_strength found them).
    """
    if n < 1:
        raise UserError(f"card_summary: n must be at least 1 (got {n})")
    table = strength.table if isinstance(strength, Result) else strength
    if table is None:
        table = card_strength(ds, method=method, min_games=min_games).table
    cols = ["group", "end", "rank", "item", "gih_games", "gih_wr", "gih_lo", "gih_hi", "held_delta", "iwd",
            "outlier"] + [c for c in VALUE_COLUMNS if c in table.columns]
    out = []
    for g, d in table.groupby("group", sort=False):
        d = d[(d["gih_games"].fillna(0) >= min_games) & d["gih_wr"].notna()]
        d = d.sort_values("gih_wr", ascending=False, kind="stable")
        if d.empty:
            continue
        k = min(n, len(d))
        out.append(d.head(k).assign(end="top"))
        rest = min(n, len(d) - k)
        if rest:
            out.append(d.tail(rest).iloc[::-1].assign(end="bottom"))
    summary = (pd.concat(out, ignore_index=True)[cols] if out else pd.DataFrame(columns=cols))
    summary.attrs.update({"dataset": ds.label, "min_games": min_games, "item_names": item_names(ds)})
    return Result(summary, _summary_figure(summary, ds) if len(summary) else None)


def _summary_figure(s: pd.DataFrame, ds: Dataset) -> Figure:
    groups = list(dict.fromkeys(s["group"]))
    sizes = [max(int((s["group"] == g).sum()), 2) for g in groups]
    fig = Figure(figsize=(8, 1.4 + 0.3 * sum(sizes) + 0.7 * len(groups)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False, gridspec_kw={"height_ratios": sizes})[:, 0]
    for ax, g in zip(axes, groups):
        d = s[s["group"] == g].sort_values("gih_wr")
        y = np.arange(len(d))
        colours = np.where(d["end"] == "top", "tab:green", "tab:red")
        err = np.clip(np.vstack([d["gih_wr"] - d["gih_lo"], d["gih_hi"] - d["gih_wr"]]), 0, None)  # a Wilson bound may sit 1e-17 past a rate of 0
        for c in dict.fromkeys(colours):
            sel = colours == c
            ax.errorbar(d["gih_wr"][sel], y[sel], xerr=err[:, sel], fmt="o", color=c, ms=5, capsize=2, lw=1)
        ax.axvline(1.0 / ds.n_players, color="0.6", ls=":", lw=1)
        ax.set_yticks(y)
        names = s.attrs.get("item_names", {}).get(g, {})
        ax.set_yticklabels([f"{_named(i, names)}{' *' if o else ''}" for i, o in zip(d["item"], d["outlier"])],
                           fontsize=8)
        ax.set_title(g, fontsize=9, loc="left")
        ax.set_xlabel("win rate when held (GIH WR)")
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Strongest (green) and weakest (red) items per group, {ds.label}\n"
                 f"95% intervals; * = outlier vs group mean; dotted: 1 / players", fontsize=9)
    return fig
