"""Issue 6, tournaments: every line-up of P bots from a list, G games each with seats rotated, as one
resumable dataset; the payoff table, openskill ratings, the symmetric meta-game equilibrium, the
dominance verdict and the skill ladder read back from it. Small Chachapoya tournaments (seconds)."""
from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.dataset as pads
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.analysis import tournament as tour
from sim.cli import OneLineParser
from sim.cli.bots import add_tournament_parser
from sim.core import registry
from sim.core.errors import Interrupted, UserError
from sim.studies.tournament import lineup_count, lineup_label, lineups, plan_tournament, run_tournament

BOTS = ["random", "balanced", "greedy"]
GAMES = 120  # per line-up: a multiple of 4 (and 2, 3)


def cli(argv: list[str]) -> None:
    """`sim tournament ...` through the parser sim/cli/bots.py registers (as sim/cli wires it)."""
    parser = OneLineParser(prog="sim")
    commands = parser.add_subparsers(dest="command")
    add_tournament_parser(commands)
    args = parser.parse_args(argv)
    args.handler(args)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("tournament") / "t"
    cli(["tournament", "chachapoya", "--bots", ",".join(BOTS), "--games", str(GAMES), "--seed", "7",
         "--out", str(out), "--workers", "2", "--no-progress"])
    return out


def players_by_lineup(out: Path) -> pd.DataFrame:
    """The players table read independently of the analysis module: pyarrow's hive partitions."""
    table = pads.dataset(out / "players", format="parquet", partitioning="hive").to_table(
        columns=["lineup", "game_id", "seat", "bot", "won", "rank"])
    frame = table.to_pandas()
    frame["lineup"] = frame["lineup"].astype(str)
    frame["bot"] = frame["bot"].astype(str)
    return frame


# ------------------------------------------------------------------------------ line-ups
def test_lineups_are_every_multiset_once():
    three = lineups(BOTS, 4)
    assert len(three) == lineup_count(3, 4) == math.comb(6, 4) == 15
    assert len({tuple(sorted(x)) for x in three}) == 15
    assert ("random", "greedy", "greedy", "greedy") in three                # 1 vs 3
    assert ("random", "random", "balanced", "balanced") in three            # 2 vs 2
    assert ("greedy",) * 4 in three                                         # self-play
    assert len(lineups(["a", "b", "c", "d", "e", "f"], 4)) == lineup_count(6, 4) == 126
    assert len(lineups(["a", "b"], 2)) == 3 and len(lineups(["a", "b", "c"], 3)) == 10
    assert lineup_label(("a", "b", "b", "c")) == "a+b+b+c"
    assert lineup_label(("x+y", "b")) == "x%2By+b"


def test_dataset_has_every_lineup_times_g_games(played):
    manifest = json.loads((played / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["kind"] == "sweep"
    record = manifest["tournament"]
    assert record["bots"] == BOTS and record["players"] == 4 and record["games_per_lineup"] == GAMES
    assert record["lineups"] == [lineup_label(x) for x in lineups(BOTS, 4)]
    assert sorted(p.name for p in (played / "games").iterdir()) == sorted(f"lineup={x}" for x in record["lineups"])
    frame = players_by_lineup(played)
    for label in record["lineups"]:
        rows = frame[frame["lineup"] == label]
        assert len(rows) == GAMES * 4
        assert sorted(rows["game_id"].unique()) == list(range(GAMES))
        assert Counter(rows["bot"]) == {bot: GAMES * n for bot, n in Counter(label.split("+")).items()}
    games = pads.dataset(played / "games", format="parquet", partitioning="hive").to_table(
        columns=["lineup", "param.lineup", "game_id"]).to_pandas()
    assert len(games) == 15 * GAMES and (games["lineup"].astype(str) == games["param.lineup"].astype(str)).all()


def test_seats_are_permuted_evenly(played):
    frame = players_by_lineup(played)
    for label, rows in frame.groupby("lineup"):
        copies = Counter(label.split("+"))
        counts = pd.crosstab(rows["bot"], rows["seat"])
        for bot, n in copies.items():
            assert (counts.loc[bot] == n * GAMES // 4).all(), (label, bot)
    # cyclic rotation: game i seats lineup[(seat + i) % 4] in seat `seat`
    lineup = ["random", "balanced", "balanced", "greedy"]
    rows = frame[frame["lineup"] == "+".join(lineup)]
    expected = [lineup[(seat + game) % 4] for game, seat in zip(rows["game_id"], rows["seat"])]
    assert list(rows["bot"]) == expected
    games = pads.dataset(played / "games", format="parquet", partitioning="hive").to_table(
        columns=["seed"]).to_pandas()
    assert (games["seed"] == 7).all()  # one seed for every line-up


# -------------------------------------------------------------------------- payoff table
def test_payoff_table_recomputed_by_hand(played):
    payoff = tour.payoff_table(played).table
    frame = players_by_lineup(played)
    assert len(payoff) == sum(len(set(x)) for x in lineups(BOTS, 4))
    for row in payoff.itertuples():
        rows = frame[frame["lineup"] == row.lineup]
        mine = rows[rows["bot"] == row.bot]
        wins, seats = int(mine["won"].sum()), len(mine)
        assert (row.wins, row.seat_games, row.copies) == (wins, seats, row.lineup.split("+").count(row.bot))
        assert row.games == GAMES and row.win_rate == pytest.approx(wins / seats)
        low, high = proportion_confint(wins, seats, alpha=0.05, method="wilson")
        assert (row.ci_low, row.ci_high) == (pytest.approx(low), pytest.approx(high))
        assert row.fair_share == pytest.approx(rows["won"].sum() / len(rows))
    one = payoff[(payoff["lineup"] == "balanced+greedy+greedy+greedy") & (payoff["bot"] == "balanced")].iloc[0]
    m = tour.field_matrix(payoff)
    assert m.rate[1, 2] == pytest.approx(one.win_rate) and m.seat_games[1, 2] == GAMES
    assert m.seat_games[0, 0] == GAMES  # one seat of the self-play line-up
    with pytest.raises(UserError, match="unfiltered"):
        tour.field_matrix(pd.DataFrame(payoff.to_dict()))


# ------------------------------------------------------------------------------- ratings
def test_openskill_puts_stronger_bots_above_random(played):
    table = tour.ratings(played).table
    assert list(table["place"]) == [1, 2, 3] and table["bot"].iloc[-1] == "random"
    by_bot = table.set_index("bot")
    for strong in ("balanced", "greedy"):
        assert by_bot.loc[strong, "mu"] - 3 * by_bot.loc[strong, "sigma"] > by_bot.loc["random", "mu"]
        assert by_bot.loc[strong, "ci_low"] > by_bot.loc[strong, "field_fair_share"]
    assert by_bot.loc["random", "ci_high"] < by_bot.loc["random", "field_fair_share"]
    assert (table["ordinal"] == table["mu"] - 3 * table["sigma"]).all()
    # pooled win rate against the field, by hand: line-ups with another bot in them
    frame = players_by_lineup(played)
    mixed = frame[frame["lineup"].map(lambda x: len(set(x.split("+"))) > 1)]
    mine = mixed[mixed["bot"] == "random"]
    assert by_bot.loc["random", "field_win_rate"] == pytest.approx(mine["won"].mean())
    mixed_with_random = sum(1 for x in lineups(BOTS, 4) if "random" in x and len(set(x)) > 1)
    assert by_bot.loc["random", "games_rated"] == GAMES * mixed_with_random  # self-play is not rated
    # deterministic: the same numbers again, and only the first games when asked
    assert tour.ratings(played).table.equals(table)
    fewer = tour.ratings(played, games_per_lineup=8).table.set_index("bot")
    assert fewer.loc["random", "games_rated"] == 8 * mixed_with_random
    assert fewer.loc["random", "field_win_rate"] == by_bot.loc["random", "field_win_rate"]  # every game


def test_ratings_are_openskill_game_by_game_with_a_bots_seats_averaged(played):
    """The ratings by hand from the players table: line-ups with another bot in them, game 0 of every
    line-up then game 1, ...; each seat rated by openskill as a one-player team ranked by its rank, a
    bot with several seats in a game taking the mean of its seats' new mu and sigma."""
    from openskill.models import PlackettLuce

    frame = players_by_lineup(played)
    index = {label: i for i, label in enumerate(lineup_label(x) for x in lineups(BOTS, 4))}
    frame["lineup_index"] = frame["lineup"].map(index)
    frame = frame[frame["lineup"].map(lambda x: len(set(x.split("+"))) > 1)]
    frame = frame.sort_values(["game_id", "lineup_index", "seat"], kind="stable")
    model = PlackettLuce()
    mu = {bot: model.mu for bot in BOTS}
    sigma = {bot: model.sigma for bot in BOTS}
    for _, game in frame.groupby(["game_id", "lineup_index"], sort=False):
        seats = list(game["bot"].astype(str))
        new = model.rate([[model.rating(mu=mu[b], sigma=sigma[b])] for b in seats],
                         ranks=[float(r) for r in game["rank"]])
        for bot in set(seats):
            mine = [k for k, b in enumerate(seats) if b == bot]
            mu[bot] = sum(new[k][0].mu for k in mine) / len(mine)
            sigma[bot] = sum(new[k][0].sigma for k in mine) / len(mine)
    table = tour.ratings(played).table.set_index("bot")
    for bot in BOTS:
        assert table.loc[bot, "mu"] == pytest.approx(mu[bot], rel=1e-12)
        assert table.loc[bot, "sigma"] == pytest.approx(sigma[bot], rel=1e-12)


# ----------------------------------------------------------------------------- meta-game
def test_nash_on_a_dominant_strategy_matrix_is_pure():
    dominant = [[0.25, 0.40, 0.55], [0.10, 0.25, 0.30], [0.05, 0.20, 0.25]]
    equilibria, method = tour.symmetric_equilibria(dominant)
    assert method == "support enumeration" and len(equilibria) == 1
    np.testing.assert_allclose(equilibria[0], [1, 0, 0], atol=1e-12)


def test_nash_on_rock_paper_scissors_is_the_uniform_mix():
    rps = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]
    equilibria, _ = tour.symmetric_equilibria(rps)
    assert len(equilibria) == 1
    np.testing.assert_allclose(equilibria[0], [1 / 3] * 3, atol=1e-12)


def test_nash_finds_mixed_and_multiple_equilibria_and_survives_degenerate_games():
    hawk_dove = [[0.0, 3.0], [1.0, 2.0]]  # hawk against hawk 0, hawk against dove 3 ...: half hawks
    equilibria, _ = tour.symmetric_equilibria(hawk_dove)
    assert len(equilibria) == 1
    np.testing.assert_allclose(equilibria[0], [0.5, 0.5], atol=1e-12)
    coordination = [[1.0, 0.0], [0.0, 1.0]]
    found = tour.symmetric_equilibria(coordination)[0]
    assert len(found) == 3
    np.testing.assert_allclose(found[0], [0.5, 0.5])
    np.testing.assert_allclose(sorted(map(tuple, found[1:])), [(0, 1), (1, 0)])
    flat = np.full((3, 3), 0.25)  # every strategy alike: degenerate, every mix is an equilibrium
    found, _ = tour.symmetric_equilibria(flat)
    assert found and all(abs(x.sum() - 1) < 1e-12 and tour._equilibrium_regret(flat, x) < 1e-9 for x in found)
    with pytest.raises(UserError, match="square payoff matrix"):
        tour.symmetric_equilibria([[0.1, 0.2]])


def test_dominance_warning_fires_on_a_dominant_matrix_and_not_on_rps():
    bots = ["tuned", "balanced", "random"]
    dominant = np.array([[0.25, 0.40, 0.55], [0.10, 0.25, 0.30], [0.05, 0.20, 0.25]])
    verdict = tour.dominance_verdict(dominant, bots)
    assert verdict.dominant == "tuned" and verdict.level == "dominant"
    assert verdict.text.startswith("Warning: tuned dominates") and "vs balanced 40.0%" in verdict.text
    assert "vs random 55.0%" in verdict.text and "only equilibrium" in verdict.text
    rps = tour.dominance_verdict([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]], ["rock", "paper", "scissors"])
    assert rps.dominant is None and rps.level == "mixed" and not rps.text.startswith("Warning")
    assert "rock 0.33" in rps.text and "paper 0.33" in rps.text
    # with intervals, a lead inside the noise is not dominance, even when the equilibrium is pure
    low = dominant - np.array([[0, 0.2, 0], [0, 0, 0], [0, 0, 0]])
    unsure = tour.dominance_verdict(dominant, bots, low=low, high=dominant + 0.05)
    assert unsure.dominant is None and unsure.level == "pure" and "does not clearly beat every field" in unsure.text


def test_meta_game_of_the_tournament(played):
    payoff = tour.payoff_table(played).table
    result = tour.meta_game(payoff, bootstrap=20, seed=1)
    table = result.table
    assert result.figure is not None
    for _, group in table.groupby("equilibrium"):
        assert group["weight"].sum() == pytest.approx(1.0) and len(group) == 3
        assert group["full_game_regret"].iloc[0] >= -1e-12
    first = table[table["equilibrium"] == 1].set_index("bot")
    assert first.loc["random", "weight"] == 0 and not first.loc["random", "in_support"]
    assert first.loc["random", "support_share"] == 0
    m = tour.field_matrix(payoff)
    for j in range(3):  # a pure mixture: the P-player payoff is the field matrix's column
        np.testing.assert_allclose(tour.full_game_payoffs(payoff, np.eye(3)[j]), m.rate[:, j])
    np.testing.assert_allclose(first["payoff_vs_mix"].to_numpy(), m.rate @ first["weight"].to_numpy())
    dominance = tour.dominance(payoff)
    assert dominance.table.attrs["level"] in ("dominant", "pure", "strong", "mixed")
    assert dominance.table.set_index("bot").loc["random", "fields_beaten"] == 0


def test_skill_ladder_reads_both_head_to_head_line_ups(played):
    result = tour.skill_ladder(played, ["random", "balanced", "greedy"])
    table = result.table
    assert list(table["rung"]) == ["balanced", "greedy"] and list(table["below"]) == ["random", "balanced"]
    frame = players_by_lineup(played)
    first = table.iloc[0]
    up = frame[(frame["lineup"] == "random+random+random+balanced") & (frame["bot"] == "balanced")]
    down = frame[(frame["lineup"] == "random+balanced+balanced+balanced") & (frame["bot"] == "random")]
    assert first.rung_alone == pytest.approx(up["won"].mean()) and first.below_alone == pytest.approx(down["won"].mean())
    assert first.games == GAMES and bool(first.stronger)
    assert result.figure is not None
    with pytest.raises(UserError, match="did not play"):
        tour.skill_ladder(played, ["random", "cautious"])


def test_cli_prints_the_summary(played, capsys):
    text = tour.tournament_summary_text(played, ladder=["random", "balanced"])
    assert "3 bots (random, balanced, greedy), 4 players, 15 line-ups x 120 games" in text
    assert "over the first 120 games of each mixed line-up" in text
    assert "Symmetric equilibria" in text and "balanced over random:" in text
    assert text.splitlines()[-1].endswith("-> stronger")


# ------------------------------------------------------------------------ resume, input
def _sorted(out: Path, table: str) -> pd.DataFrame:
    frame = pads.dataset(out / table, format="parquet", partitioning="hive").to_table().to_pandas()
    frame["lineup"] = frame["lineup"].astype(str)
    keys = ["lineup", "game_id", "seat"] if table == "players" else ["lineup", "game_id"]
    return frame.sort_values(keys).reset_index(drop=True)


def test_resume_after_an_interrupted_tournament_gives_the_same_dataset(tmp_path, monkeypatch):
    import sim.core.backends as backends

    options = dict(n_players=2, n_games=60, seed=3, workers=1, chunk_size=20, progress=False)
    run_tournament("chachapoya", BOTS, tmp_path / "whole", **options)
    real, calls = backends.run_chunk, []

    def interrupt_after_four(game, job, task, *rest):
        if len(calls) == 4:
            raise KeyboardInterrupt
        calls.append(task.index)
        return real(game, job, task, *rest)

    monkeypatch.setattr(backends, "run_chunk", interrupt_after_four)
    with pytest.raises(Interrupted, match="80 of 360 games are kept"):
        run_tournament("chachapoya", BOTS, tmp_path / "cut", **options)
    monkeypatch.setattr(backends, "run_chunk", real)
    assert json.loads((tmp_path / "cut" / "manifest.json").read_text())["status"] == "running"
    with pytest.raises(UserError, match="different run"):
        run_tournament("chachapoya", ["random", "balanced"], tmp_path / "cut", resume=True,
                       **options)
    run_tournament("chachapoya", BOTS, tmp_path / "cut", resume=True, **options)
    for table in ("games", "players"):
        pd.testing.assert_frame_equal(_sorted(tmp_path / "cut", table), _sorted(tmp_path / "whole", table))
    assert tour.payoff_table(tmp_path / "cut").table.equals(tour.payoff_table(tmp_path / "whole").table)


@pytest.mark.parametrize("argv, message", [
    (["--bots", "random,zorro"], "unknown bot 'zorro' for chachapoya"),
    (["--bots", "random"], "a tournament needs at least two bots"),
    (["--bots", "random,random"], "lists random twice"),
    (["--bots", "random,,greedy"], "empty bot name"),
    (["--bots", "random,greedy", "--players", "5"], "played by 2, 3, 4 players, not 5"),
    (["--bots", "random,greedy", "--games", "10"], "multiple of the player count 4"),
    (["--bots", "random,greedy", "--games", "0"], "multiple of the player count 4"),
    (["--bots", "random,greedy", "--ladder", "random,cautious"], "--ladder names 'cautious'"),
    (["--bots", "random,greedy", "--ladder", "random"], "two or more distinct bots"),
    (["--bots", "random,greedy", "--param", "no.such=1"], "no.such"),
    ([], "the following arguments are required: --bots"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, argv, message):
    out = tmp_path / "t"
    with pytest.raises(UserError) as info:
        cli(["tournament", "chachapoya", "--out", str(out), "--no-progress", *argv])
    assert message in str(info.value) and "\n" not in str(info.value)
    assert not out.exists()


def test_a_run_is_not_a_tournament(tmp_path):
    from sim.core import runner
    from sim.core.lineup import lineup_indices

    game = registry.get_game("chachapoya")
    names, idx = lineup_indices(["random", "greedy"])
    runner.run(game, game.resolve_params({}, "base"), 2, names, idx, True, 4, 0, tmp_path / "r", 1, 4,
               progress=False)
    with pytest.raises(UserError, match="not a tournament dataset"):
        tour.payoff_table(tmp_path / "r")
    plan = plan_tournament(game, ["random", "greedy"], 2, 4, 0)
    assert [c.partition for c in plan.cells] == ["lineup=random+random", "lineup=random+greedy",
                                                "lineup=greedy+greedy"]
    assert plan.rotate and plan.manifest_extra["tournament"]["players"] == 2


# ------------------------------------------------------------------------------- report
def test_report_section_plays_the_tournament_and_renders(tmp_path):
    from sim.analysis import report
    from sim.games.cuzco.analysis.report import TOURNAMENT_SHARE

    games = TOURNAMENT_SHARE.games
    assert games(200_000) == 400 and games(20_000) == 40
    assert games(400) == 4 and games(20_000, players=3) == 39
    (spec,) = [s for s in report.default_specs(games=200_000, data_dir=tmp_path, seed=3) if s.name == "tournament_cuzco"]
    cuzco = spec.datasets["dataset"]
    assert (cuzco.game, cuzco.players, cuzco.games, cuzco.seed) == ("cuzco", 4, 400, 3)
    assert len(lineups(list(cuzco.bots), 4)) == 126 and spec.notebook == "tournament"

    data = report.TournamentDatasetSpec(tmp_path / "t", "chachapoya", tuple(BOTS), 40, 4, 5)
    small = report.ReportSpec("tournament", "tournament", "Tournament", "meta-game", {"dataset": data},
                              {"bootstrap": 5, "ladder": "random,balanced"})
    index = report.build_reports([small], tmp_path / "out", progress=False, jobs=1)
    assert tour.open_tournament(tmp_path / "t").games_per_lineup == 40
    page = (tmp_path / "out" / "tournament.html").read_text()
    assert "This report did not finish" not in page and page.count("data:image/png;base64") >= 4
    assert "Survivors in equilibrium" in page and "How to read the charts" in page
    assert "chachapoya tournament: 3 bots" in index.read_text()
    assert report.ensure_datasets([data], progress=False) == []  # complete: reused
    with pytest.raises(UserError, match="holds a tournament with seed = 5, not 6"):
        report.ensure_datasets([report.TournamentDatasetSpec(tmp_path / "t", "chachapoya", tuple(BOTS), 40, 4, 6)],
                               progress=False)
    with pytest.raises(UserError, match="holds a tournament with games = 40, not 80"):
        report.ensure_datasets([report.TournamentDatasetSpec(tmp_path / "t", "chachapoya", tuple(BOTS), 80, 4, 5)],
                               progress=False)
