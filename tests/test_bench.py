from sim.studies import bench


def test_measure_and_markdown_section(with_fake_game):
    engine = bench.measure(bench.ENGINE, "dicey", 3, 200, 2, 2, 50, warmup=True)
    end_to_end = bench.measure(bench.END_TO_END, "dicey", 3, 200, 2, 2, 50, warmup=True)
    assert len(engine["seconds"]) == 2 and engine["peak_rss_mb"] > 0
    section = bench.format_section("python -m sim.studies.bench dicey", "dicey", 3, 2, 50, end_to_end, engine, engine)
    assert section.startswith("## ") and "| engine alone, NUMBA_DISABLE_JIT=1 | 200 |" in section
    assert "JIT speed-up" in section and "nproc" in section


def test_a_section_is_appended_after_a_blank_line(tmp_path):
    """A new file gets a title; a section goes after a blank line whatever ends the file (a
    hand-written paragraph without its last newline included), so its heading starts a block."""
    section = "## 2026-12-03 12:00 UTC: dicey, 3 players\n\n| a |\n"
    new = tmp_path / "new.md"
    bench.append_section(new, section)
    assert new.read_text() == "# Benchmarks\n\nAppended by `make bench` (python -m sim.studies.bench).\n\n" + section + "\n"
    for ending in ("notes", "notes\n", "notes\n\n"):
        path = tmp_path / "old.md"
        path.write_text(ending)
        bench.append_section(path, section)
        assert path.read_text() == "notes\n\n" + section + "\n", repr(ending)


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
    assert "- Line-up: greedy, greedy, greedy, seats rotated\n" in out.read_text()
    assert bench.main(common) == 0
    assert "- Line-up: the game's default (random, random, random), seats rotated\n" in out.read_text()

    before = out.read_text()
    with pytest.raises(UserError, match="unknown bot 'nosuch' for dicey"):
        bench.main([*common, "--bots", "nosuch"])
    assert out.read_text() == before
