from sim.studies import bench


def _figures(seconds: float, games: int = 200) -> dict:
    return {"games": games, "seconds": [seconds, seconds * 1.1, seconds * 0.9], "peak_rss_mb": 100.0}


def test_measure_gives_a_row_of_medians(with_fake_game):
    engine = bench.measure(bench.ENGINE, "dicey", 3, 200, 2, 2, 50, warmup=True)
    end_to_end = bench.measure(bench.END_TO_END, "dicey", 3, 200, 2, 2, 50, warmup=True)
    assert len(engine["seconds"]) == 2 and engine["peak_rss_mb"] > 0
    row = bench.figures_row("python -m sim.studies.bench dicey", "random", 3, _figures(2.0), _figures(1.0),
                            _figures(10.0, games=20))
    assert row["end to end s"] == "2.000" and row["games/s"] == "100" and row["engine alone s"] == "1.000"
    assert row["JIT speed-up"] == "100x" and row["games"] == "200" and set(row) == set(bench.COLUMNS)


def test_a_line_up_has_one_row_in_its_games_table_against_the_floor_of_the_hour(tmp_path):
    """BENCHMARKS.md holds the current figures: a new measurement replaces its line-up's row (a new
    default line-up replaces the old default's), other games and notes outside the marks stay, and
    the cost over the floor is given as measured the same hour only when it was."""
    out = tmp_path / "BENCHMARKS.md"
    row = lambda lineup, seconds, when: {**bench.figures_row("cmd", lineup, 4, _figures(seconds), _figures(seconds),
                                                              _figures(seconds)), "measured": when}
    bench.record(out, "dicey", row("random", 1.0, "2026-12-07 10:00 UTC"), "m")
    bench.record(out, "dicey", row("default (a, b)", 3.0, "2026-12-07 10:30 UTC"), "m")
    bench.record(out, "other", row("random", 5.0, "2026-12-07 10:40 UTC"), "m")
    text = out.read_text()
    assert text.startswith("# Benchmarks") and text.count("## dicey") == 1 and "## other" in text
    default_line = next(line for line in text.splitlines() if line.startswith("| default (a, b) |"))
    assert "| 3.00x |" in default_line
    out.write_text(out.read_text() + "\nA designer's note.\n")
    bench.record(out, "dicey", row("default (c, d)", 2.0, "2026-12-07 13:00 UTC"), "m")
    text = out.read_text()
    assert "| default (a, b) |" not in text and "A designer's note." in text
    default_line = next(line for line in text.splitlines() if line.startswith("| default (c, d) |"))
    assert "| 2.00x (floor of 2026-12-07) |" in default_line
    assert [line.split(" | ")[0] for line in text.splitlines() if line.startswith("| ") and "| line-up |" not in line
            ] == ["| random", "| default (c, d)", "| random"]  # dicey's floor first, then other's


def test_a_named_line_up_is_measured_and_recorded(with_fake_game, tmp_path, monkeypatch):
    """--bots plays the named line-up in every measurement (each subprocess is told it) and the
    section says which line-up it was; without it, the game's default, named as such."""
    import pytest

    from sim.core.errors import UserError

    game, params, bot_names, lineup = bench._setup("dicey", 3, "greedy,random,greedy")
    assert bot_names == ["greedy", "random"] and lineup.tolist() == [0, 1, 0]
    assert bench._setup("dicey", 3)[2] == ["random"]

    asked = []

    def in_process(kind, args, n_games, repeats, warmup, env=None):
        asked.append(args.bots)
        return bench.measure(kind, args.game, args.players, n_games, repeats, args.workers, args.chunk_size,
                             warmup, bots=args.bots)

    monkeypatch.setattr(bench, "_measure_in_subprocess", in_process)
    out = tmp_path / "bench.md"
    common = ["dicey", "--players", "3", "--games", "40", "--repeats", "1", "--nojit-games", "4", "--chunk-size", "20",
              "--output", str(out)]
    assert bench.main([*common, "--bots", "greedy"]) == 0
    assert asked == ["greedy"] * 3
    assert "\n| greedy | 3 | 40 |" in out.read_text()
    assert bench.main(common) == 0
    assert "\n| default (random, random, random) | 3 | 40 |" in out.read_text()

    before = out.read_text()
    with pytest.raises(UserError, match="unknown bot 'nosuch' for dicey"):
        bench.main([*common, "--bots", "nosuch"])
    assert out.read_text() == before
