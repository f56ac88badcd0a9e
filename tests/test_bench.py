from sim.core import bench


def test_measure_and_markdown_section(with_fake_game):
    engine = bench.measure(bench.ENGINE, "dicey", 3, 200, 2, 2, 50, warmup=True)
    end_to_end = bench.measure(bench.END_TO_END, "dicey", 3, 200, 2, 2, 50, warmup=True)
    assert len(engine["seconds"]) == 2 and engine["peak_rss_mb"] > 0
    section = bench.format_section("python -m sim.core.bench dicey", "dicey", 3, 2, 50, end_to_end, engine, engine)
    assert section.startswith("## ") and "| engine alone, NUMBA_DISABLE_JIT=1 | 200 |" in section
    assert "JIT speed-up" in section and "nproc" in section
