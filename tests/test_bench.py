from sim.core import bench


def test_measure_and_markdown_section(with_fake_game):
    engine = bench.measure(bench.ENGINE, "dicey", 3, 200, 2, 2, 50, warmup=True)
    end_to_end = bench.measure(bench.END_TO_END, "dicey", 3, 200, 2, 2, 50, warmup=True)
    assert len(engine["seconds"]) == 2 and engine["peak_rss_mb"] > 0
    section = bench.format_section("python -m sim.core.bench dicey", "dicey", 3, 2, 50, end_to_end, engine, engine)
    assert section.startswith("## ") and "| engine alone, NUMBA_DISABLE_JIT=1 | 200 |" in section
    assert "JIT speed-up" in section and "nproc" in section


def test_a_section_is_appended_after_a_blank_line(tmp_path):
    """A new file gets a title; a section goes after a blank line whatever ends the file (a
    hand-written paragraph without its last newline included), so its heading starts a block."""
    section = "## 2026-12-03 12:00 UTC: dicey, 3 players\n\n| a |\n"
    new = tmp_path / "new.md"
    bench.append_section(new, section)
    assert new.read_text() == "# Benchmarks\n\nAppended by `make bench` (python -m sim.core.bench).\n\n" + section + "\n"
    for ending in ("notes", "notes\n", "notes\n\n"):
        path = tmp_path / "old.md"
        path.write_text(ending)
        bench.append_section(path, section)
        assert path.read_text() == "notes\n\n" + section + "\n", repr(ending)
