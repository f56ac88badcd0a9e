"""Games without a winner (a stalemate: no players row with `won`) are left out of every win rate,
and each win-rate table or text says how many were left out.

Hand-made datasets whose answers are known; then the fake game's tournament, sweep and sequential
test with some games' winners erased from their Parquet parts (or from the engine's output).
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.analysis import compare as cmp
from sim.analysis import io
from sim.analysis import winrates as wr
from sim.analysis.io import open_dataset
from sim.analysis.report import dataset_note
from sim.core.dataset import dictionary_column
from sim.core.stats import has_winner, no_winner_note

N = 4
NOTE_2 = "2 games without a winner (stalemate) are left out of win rates"


def write_dataset(path: Path, players: dict, games: dict, seed: int = 1, parts: int = 2) -> io.Dataset:
    """A run directory like `sim run` writes (games split over `parts` parts, each game's rows with it)."""
    (path / "games").mkdir(parents=True)
    (path / "players").mkdir()
    n_games = len(games["game_id"])
    bounds = np.linspace(0, n_games, parts + 1).astype(int)

    def table(columns, lo, hi):
        return pa.table({name: dictionary_column(np.asarray(values)[lo:hi], ["a", "b"]) if name == "bot"
                         else pa.array(np.asarray(values)[lo:hi]) for name, values in columns.items()})

    for k in range(parts):
        lo, hi = bounds[k], bounds[k + 1]
        pq.write_table(table(games, lo, hi), path / "games" / f"part-{k:05d}.parquet")
        pq.write_table(table(players, lo * N, hi * N), path / "players" / f"part-{k:05d}.parquet")
    manifest = {"status": "complete", "config": {"game": "handmade", "players": N, "variant": "base", "seed": seed,
                                                 "bots": ["a", "b", "a", "b"], "rotate_seats": False}}
    (path / "manifest.json").write_text(json.dumps(manifest))
    return open_dataset(path)


def stalemate_dataset(path: Path, winners=(0, 0, 0, 1, 1, 2, 3, 0, -1, -1), seed: int = 1) -> io.Dataset:
    """One game per entry of `winners`: that seat wins it alone, -1 = nobody wins (a stalemate).
    Bots 'a' in even seats, 'b' in odd ones; start_order = (seat + game) % 4; a card column
    `card_x` held by seat 0 in every game."""
    winners = np.asarray(winners)
    n_games = len(winners)
    game_id = np.repeat(np.arange(n_games), N)
    seat = np.tile(np.arange(N), n_games)
    won = seat == np.repeat(winners, N)
    players = {"game_id": game_id, "seat": seat.astype(np.int8), "bot": (seat % 2).astype(np.int8),
               "score": np.where(won, 10, 5).astype(np.int16), "rank": np.where(won, 1, 2).astype(np.int8),
               "won": won, "start_order": ((seat + game_id) % N).astype(np.int8),
               "card_x": (seat == 0).astype(np.int8)}
    games = {"game_id": np.arange(n_games), "n_rounds": np.full(n_games, 6, dtype=np.int16),
             "winner_seat": winners.astype(np.int8)}
    return write_dataset(path, players, games, seed)


# ------------------------------------------------------------------------------ the shared helpers
def test_note_and_winner_mask():
    assert no_winner_note(0) == "" and no_winner_note(-3) == ""
    assert no_winner_note(1) == "1 game without a winner (stalemate) is left out of win rates"
    assert no_winner_note(2) == NOTE_2
    assert no_winner_note(12345).startswith("12,345 games without a winner")
    assert has_winner([[True, False], [False, False], [True, True]]).tolist() == [True, False, True]


def test_the_dataset_finds_its_games_without_a_winner(tmp_path, monkeypatch):
    ds = stalemate_dataset(tmp_path / "d")
    assert ds.no_winner_ids.tolist() == [8, 9] and ds.no_winner_games == 2
    # record batches of 3 rows split every game: the scan still finds exactly the two
    monkeypatch.setattr(io, "SCAN_ROWS", 3)
    again = open_dataset(ds.path)
    assert again.no_winner_ids.tolist() == [8, 9]
    rows = pd.concat(again.win_batches(["game_id", "won"], batch_rows=5))
    assert sorted(set(rows["game_id"])) == list(range(8)) and len(rows) == 8 * N
    assert again.win_players(["seat"]).shape == (8 * N, 1)
    assert NOTE_2[1:] in dataset_note(again)

    decided = stalemate_dataset(tmp_path / "e", winners=(0, 1, 2, 3))
    assert decided.no_winner_games == 0 and "stalemate" not in dataset_note(decided)
    assert decided.win_players(["seat"]).equals(decided.players(["seat"]))


# ------------------------------------------------------------------------------ win rates
def test_win_rates_count_only_games_with_a_winner(tmp_path):
    ds = stalemate_dataset(tmp_path / "d")
    seats = wr.seat_win_rates(ds)
    t = seats.table
    assert t["n"].tolist() == [8] * 4 and t["wins"].tolist() == [4, 2, 1, 1]
    assert t["expected"].tolist() == pytest.approx([0.25] * 4)  # the fair share stays 1 in N
    lo, hi = proportion_confint(4, 8, method="wilson")
    assert (t.ci_low[0], t.ci_high[0]) == pytest.approx((lo, hi))
    assert t.attrs["no_winner_games"] == 2 and NOTE_2 in seats.figure.axes[0].get_title()

    bots = wr.bot_win_rates(ds).table
    assert bots["n"].tolist() == [16, 16] and bots["wins"].tolist() == [5, 3]
    grid = wr.seat_bot_win_rates(ds).table
    assert grid["n"].tolist() == [8] * 4 and grid.attrs["no_winner_games"] == 2
    by_order = wr.seat_win_rates(ds, by="start_order").table
    assert by_order["n"].tolist() == [8] * 4 and by_order["wins"].sum() == 8

    test = wr.seat_balance_test(ds).table.iloc[0]
    assert (test.n_games, test.wins) == (8, 8)
    balance = wr.balance_measures(ds).table
    assert set(balance["n_games"]) == {8}
    first = balance[balance["measure"] == "first_player_advantage"].iloc[0]
    assert first["value"] == pytest.approx(4 / 8 - 0.25)
    # the paired gap of the balance interval is over the 8 decided games only
    lo_gap, hi_gap = wr._paired_gap_ci(wr._win_patterns(ds, "seat"), 0, 3)
    assert sum(wr._win_patterns(ds, "seat").values()) == 8

    # scores, margins, lengths and endings still count every game
    assert wr.score_distribution(ds, by=None).table["n"].iloc[0] == 10 * N
    margins = wr.margin_distribution(ds).table.iloc[0]
    assert (margins["games"], margins["no_winner"]) == (8, 2)
    assert wr.game_length(ds).table["n"].iloc[0] == 10


def test_a_dataset_without_stalemates_is_unchanged(tmp_path):
    """Same games, the two stalemates replaced: every table equals the one computed the old way."""
    ds = stalemate_dataset(tmp_path / "d", winners=(0, 0, 0, 1, 1, 2, 3, 0, 2, 3))
    t = wr.seat_win_rates(ds).table
    assert t["n"].tolist() == [10] * 4 and t.attrs["no_winner_games"] == 0
    assert "stalemate" not in wr.seat_win_rates(ds).figure.axes[0].get_title()


# ------------------------------------------------------------------------------ comparisons
def test_compare_leaves_out_games_without_a_winner(tmp_path):
    a = stalemate_dataset(tmp_path / "a")                                            # games 8, 9 stalemates
    b = stalemate_dataset(tmp_path / "b", winners=(0, 1, 2, 3, 0, 1, 2, -1, 0, 1))  # game 7
    paired = cmp.compare(a, b, cards=False)
    assert paired.table.attrs["paired"] and (paired.table.attrs["no_winner_a"], paired.table.attrs["no_winner_b"]) == (2, 1)
    first = paired.table[paired.table["metric"].str.startswith("win rate, start_order 0")].iloc[0]
    assert (first["n_a"], first["n_b"]) == (7, 7)  # paired: games 7, 8 and 9 out of both
    text = cmp.compare_summary_text(paired)
    assert f"A: {NOTE_2}" in text and "B: 1 game without a winner" in text and "left out of the other's too" in text

    unpaired_b = stalemate_dataset(tmp_path / "b2", winners=(0, 1, 2, 3, 0, 1, 2, -1, 0, 1), seed=2)
    unpaired = cmp.compare(a, unpaired_b, cards=False)
    assert not unpaired.table.attrs["paired"]
    first = unpaired.table[unpaired.table["metric"].str.startswith("win rate, start_order 0")].iloc[0]
    assert (first["n_a"], first["n_b"]) == (8, 9)
    assert "other's too" not in cmp.compare_summary_text(unpaired)
    # the card counts (GIH WR) skip them too: seat 0 holds card_x in every game
    held, wins = cmp._held_counts(a, ["card_x"])
    assert (held.tolist(), wins.tolist()) == ([8], [4])

    clean = stalemate_dataset(tmp_path / "c", winners=(0, 1, 2, 3))
    assert "stalemate" not in cmp.compare_summary_text(cmp.compare(clean, clean, cards=False))


# ------------------------------------------------------------------------------ the fake game
def erase_winners(root: Path, partition: str, game_ids) -> None:
    """Clear `won` for these games in the players parts under players/<partition> (a stalemate)."""
    for part in sorted((root / "players" / partition).glob("*.parquet")):
        table = pq.read_table(part)
        gone = pc.is_in(table["game_id"], value_set=pa.array(list(game_ids), pa.int64()))
        won = pc.and_(table["won"], pc.invert(gone))
        table = table.set_column(table.schema.get_field_index("won"), "won", won)
        pq.write_table(table, part)


def test_tournament_and_ladder_leave_them_out(tmp_path, with_fake_game):
    from sim.analysis import tournament as tour
    from sim.studies.tournament import run_tournament

    out = tmp_path / "t"
    run_tournament("dicey", ["random", "greedy"], out, 2, 20, 3, workers=1, progress=False)
    before = tour.payoff_table(out).table
    erase_winners(out, "lineup=random+greedy", [0, 1, 2])
    after = tour.payoff_table(out)
    mixed = after.table[after.table["lineup"] == "random+greedy"]
    assert mixed["seat_games"].tolist() == [17, 17] and mixed["games"].tolist() == [17, 17]
    assert mixed["fair_share"].iloc[0] == pytest.approx(mixed["wins"].sum() / 34)
    assert after.table.attrs["no_winner_games"] == 3
    untouched = before[before["lineup"] != "random+greedy"].reset_index(drop=True)
    pd.testing.assert_frame_equal(after.table[after.table["lineup"] != "random+greedy"].reset_index(drop=True),
                                  untouched)
    rates = tour.ratings(out).table.set_index("bot")
    assert rates["field_seat_games"].tolist() == [17, 17]
    assert "(3 games without a winner (stalemate) are left out of win rates.)" in tour.tournament_summary_text(out)
    assert "stalemate" in tour.ladder_summary_text(out, ["random", "greedy"])


def test_sweep_summary_says_so_per_cell(tmp_path, with_fake_game, capsys):
    from sim.analysis.sweep import format_sweep_summary, sweep_summary
    from sim.cli import main

    out = tmp_path / "s"
    main(["sweep", "dicey", "--param", "players=2,3", "--games", "12", "--out", str(out), "--no-progress"])
    erase_winners(out, "players=3", [4, 5])
    result = sweep_summary(out, by="seat")
    table = result.table
    assert table[table["cell"] == "players=3"]["n"].tolist() == [10, 10, 10]
    assert table[table["cell"] == "players=2"]["n"].tolist() == [12, 12]
    assert table.attrs["no_winner_games"] == {"players=2": 0, "players=3": 2}
    text = format_sweep_summary(result)
    assert text.endswith(f"players=3: {NOTE_2}") and "players=2: " not in text


def _stalemates_every_fifth_game(monkeypatch):
    """The engine's games 0, 5, 10, ... end without a winner (won cleared), as a stalemate would."""
    from sim.core import runner

    real = runner.simulate_chunk

    def simulate(game, params, n_players, bot_names, seat_bots, seed, first, count, checked):
        result = real(game, params, n_players, bot_names, seat_bots, seed, first, count, checked)
        won = np.asarray(result.player_columns["won"]).reshape(count, n_players).copy()
        won[(np.arange(first, first + count) % 5) == 0] = False
        result.player_columns["won"] = won.ravel()
        return result

    monkeypatch.setattr(runner, "simulate_chunk", simulate)


def test_sequential_test_skips_pairs_without_a_winner(with_fake_game, monkeypatch):
    from sim.analysis.sprt import run_sprt, sprt_summary_text

    _stalemates_every_fifth_game(monkeypatch)
    result = run_sprt("dicey", None, {"rounds": 6}, "first_player_win", 0.5, batch=50, max_games=100, players=2)
    attrs = result.table.attrs
    assert attrs["no_winner_games"] == attrs["games"] // 5
    assert "are left out of win rates" in sprt_summary_text(result)
    score = run_sprt("dicey", None, {"rounds": 6}, "score", 5.0, batch=50, max_games=100, players=2)
    assert score.table.attrs["no_winner_games"] == 0 and "stalemate" not in sprt_summary_text(score)


# ------------------------------------------------------------------------------ the run summary
def test_the_run_summary_leaves_them_out_of_win_rates(tmp_path):
    from sim.core.summary import format_summary, summarize

    ds = stalemate_dataset(tmp_path / "d")
    summary = summarize(ds.path)
    assert summary.n_games == 10 and summary.no_win_games == 2
    assert summary.by_seat["n"].tolist() == [8] * 4 and summary.by_seat["wins"].tolist() == [4, 2, 1, 1]
    assert summary.by_bot["n"].sum() == 8 * N
    assert NOTE_2 in format_summary(summary)
