"""Reports: the notebooks run headless on the small datasets and render to HTML with an index;
the notebooks are stored without outputs; missing datasets are simulated, wrong ones refused."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import nbformat
import pytest

from sim.analysis import report
from sim.analysis.io import open_dataset
from sim.analysis.report import (DatasetSpec, ReportSpec, TournamentDatasetSpec, build_reports, default_specs,
                                 ensure_datasets)
from sim.core import registry
from sim.studies.robust import run_robust
from sim.studies.tournament import run_tournament
from sim.analysis.winrates import seat_win_rates
from sim.cli import main
from sim.core.errors import UserError
from test_ladder import dicey3  # noqa: F401  (the fake game with a third bot, a module fixture)

NOTEBOOKS = {"win_rates", "dice_odds", "card_strength", "variant_comparison", "overview", "tournament", "ladder",
             "tuning", "robust", "balance", "skill"}
BOT_NOTEBOOKS = {"ladder", "tuning"}  # executed by the `built_bots` fixture, on fake-game ladders and a tuned file
BALANCE_NOTEBOOKS = {"balance"}  # executed by tests/test_balance.py, on a fake-game search's evidence
SKILL_NOTEBOOKS = {"skill"}  # executed by tests/test_skill.py, on a small `sim skill` evidence


def notebook_cells(path: Path):
    return nbformat.read(path, as_version=4).cells


# ------------------------------------------------------------------ notebooks as stored
def test_notebooks_are_stored_without_outputs_and_take_parameters():
    paths = sorted(report.NOTEBOOKS_DIR.glob("*.ipynb"))
    assert {p.stem for p in paths} == NOTEBOOKS
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        code = [c for c in nb.cells if c.cell_type == "code"]
        for cell in code:
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name} has outputs"
        tagged = [c for c in code if "parameters" in c.metadata.get("tags", [])]
        assert len(tagged) == 1, path.name
        if path.stem == "tuning":  # reads the game's tuned bots, no dataset
            assert re.search(r'^game = "cuzco"', tagged[0].source, re.M), path.name
        elif path.stem == "balance":  # reads a `sim balance` evidence directory
            assert re.search(r'^evidence = ""', tagged[0].source, re.M), path.name
        elif path.stem == "skill":  # reads a committed `sim skill` evidence folder
            assert re.search(r'^evidence = "sim/games/cuzco/skill"', tagged[0].source, re.M), path.name
        else:
            assert re.search(r'^dataset = "data/(cuzco|chachapoya)-(base|tournament|ladder|robust)"', tagged[0].source,
                             re.M), path.name
        assert nb.cells[0].cell_type == "markdown" and nb.cells[0].source.startswith("# ")
        assert sum(c.cell_type == "markdown" for c in nb.cells) >= 4, f"{path.name}: explain the charts"



def test_every_notebook_says_how_to_point_it_at_another_dataset():
    """Issue 37, wall 6: each notebook's first cell names its parameters cell's variable and the
    `sim` command (with --out) that makes such a dataset; `make lab` installs the optional extra
    `lab` (JupyterLab, pinned below the next major) into .venv on first use and opens the notebooks."""
    import tomllib

    for path in sorted(report.NOTEBOOKS_DIR.glob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        intro = cells[0].source
        assert "**On another dataset.**" in intro and "make lab" in intro, path.name
        cell = next(c for c in cells if "parameters" in c.metadata.get("tags", []))
        first = re.findall(r"^(\w+)\s*=", cell.source, re.M)[0]
        assert f"Set `{first}`" in intro and f"-p {first} VALUE" in intro, path.name
        command = re.findall(r"`(sim \w+ [^`]*)`", intro)
        assert command and (any("--out" in c for c in command) or path.stem == "tuning"), path.name
    extras = tomllib.loads((report.REPO_ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(re.fullmatch(r"jupyterlab>=4\.\d+,<5", req) for req in extras["lab"])
    makefile = (report.REPO_ROOT / "Makefile").read_text()
    assert re.search(r"^lab: \$\(LAB_STAMP\)\n\t\$\(VENV\)/bin/jupyter lab --notebook-dir=notebooks", makefile, re.M)
    assert '-e ".[test,lab]"' in makefile


def test_a_notebook_in_notebooks_reads_repository_paths(tmp_path, monkeypatch):
    """A notebook opened by `make lab` runs in notebooks/: its `dataset = "data/..."` is read from
    the repository's folder when it names nothing from there; a path that exists here wins."""
    from sim.analysis.io import data_path

    monkeypatch.chdir(report.NOTEBOOKS_DIR)
    assert data_path("notebooks") == report.REPO_ROOT / "notebooks"
    assert data_path("nosuch-dir") == Path("nosuch-dir")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notebooks").mkdir()
    assert data_path("notebooks") == Path("notebooks")
    assert data_path(tmp_path) == tmp_path


def test_papermill_reads_every_parameter_the_notebooks_declare():
    """papermill parses a parameters cell line by line; a line it cannot read (a second `=` in its
    comment) is left out, and passing that parameter then prints "Passed unknown parameter" under
    every report of `make run`."""
    import papermill

    for path in sorted(report.NOTEBOOKS_DIR.glob("*.ipynb")):
        cell = next(c for c in nbformat.read(path, as_version=4).cells if "parameters" in c.metadata.get("tags", []))
        declared = set(re.findall(r"^(\w+)\s*=", cell.source, re.M))
        assert declared and declared <= set(papermill.inspect_notebook(str(path))), path.name

def _skill_page(game: str) -> list[str]:
    """The skill page comes last, and only for a game whose `sim skill` evidence is committed."""
    from sim.core import registry

    return [f"skill_{game}"] if report.skill_evidence(registry.get_game(game)) else []


CHACHAPOYA_PAGES = ["overview_chachapoya", "win_rates_chachapoya", "card_strength_chachapoya", "robust_chachapoya",
                    *_skill_page("chachapoya")]


def test_default_specs_are_the_main_job():
    everything = default_specs()
    assert [s.name for s in everything if report.spec_game(s) == "chachapoya"] == CHACHAPOYA_PAGES
    cuzco_specs = [s for s in everything if report.spec_game(s) == "cuzco"]
    tournament, ladder, tuning, *specs, balance, league_balance, default_balance, robust = cuzco_specs[
        :len(cuzco_specs) - len(_skill_page("cuzco"))]
    for page in (balance, league_balance, default_balance):  # the answer at three rungs: tuned, league, default
        assert page.notebook == "balance" and not page.datasets and page.parameters["game"] == "cuzco"
        assert (report.REPO_ROOT / page.parameters["evidence"] / "manifest.json").is_file()
    assert len({p.parameters["evidence"] for p in (balance, league_balance, default_balance)}) == 3
    assert robust.notebook == "robust" and robust.datasets["dataset"].games == 4000  # 1 in 50, at most 20,000
    assert [s.name for s in specs] == ["overview_cuzco", "win_rates", "dice_odds", "card_strength",
                                      "variant_comparison"]
    assert tournament.notebook == "tournament" and tournament.datasets["dataset"].games == 400
    assert ladder.notebook == "ladder" and tuning.notebook == "tuning"
    assert specs[0].notebook == "overview" and specs[0].parameters["game"] == "cuzco"
    base, pututu = specs[2].datasets["dataset"], specs[2].datasets["pututu"]
    assert (base.path, pututu.path) == (Path("data/cuzco-base"), Path("data/cuzco-pututu"))
    assert base.games == pututu.games == 200_000 and base.seed == pututu.seed == 1
    assert base.players == pututu.players == 4 and base.rotate_seats and pututu.rotate_seats
    assert base.variant is None and pututu.variant_file().is_file()
    assert specs[-1].datasets == {"dataset": base, "compare_to": pututu}
    assert all(s.datasets["dataset"] == base for s in specs)
    assert {s.notebook for s in specs} <= NOTEBOOKS
    small = next(s for s in default_specs(games=500, data_dir="elsewhere", seed=3) if s.name == "overview_cuzco")
    small = small.datasets["dataset"]
    assert (small.path, small.games, small.seed) == (Path("elsewhere/cuzco-base"), 500, 3)


def test_kernel_runs_this_interpreter():
    from jupyter_client.kernelspec import KernelSpecManager

    name = report.kernel_name()
    assert report._runs_current_python(KernelSpecManager().get_kernel_spec(name).argv)
    assert not report._runs_current_python(["/opt/elsewhere/bin/python3.1", "-m", "ipykernel_launcher"])


# ------------------------------------------------------------------ every report, built once
@pytest.fixture(scope="module")
def built(cuzco_small, cuzco_small_pututu, chachapoya_small, tmp_path_factory):
    """The default reports on the small Cuzco datasets (the tournament on a small Chachapoya one) plus the
    Chachapoya overview."""
    small = {"cuzco-base": cuzco_small, "cuzco-pututu": cuzco_small_pututu}
    defaults = default_specs(games=400, seed=11)
    specs = [dataclasses.replace(s, datasets={k: dataclasses.replace(d, path=small[d.path.name])
                                             for k, d in s.datasets.items()})
             for s in defaults if s.notebook not in {"tournament", "robust"} | BOT_NOTEBOOKS | BALANCE_NOTEBOOKS | SKILL_NOTEBOOKS
             and report.spec_game(s) == "cuzco"]
    # The Cuzco tournament's notebook, on a small Chachapoya tournament (the same code, seconds to play).
    (tournament,) = [s for s in defaults if s.notebook == "tournament"]
    path = tmp_path_factory.mktemp("tournament") / "chachapoya-tournament"
    run_tournament("chachapoya", ["random", "greedy", "balanced"], path, 4, 400, 11, progress=False)
    data = TournamentDatasetSpec(path, "chachapoya", ("random", "greedy", "balanced"), 400, 4, 11)
    specs.append(dataclasses.replace(tournament, datasets={"dataset": data}))
    chachapoya = DatasetSpec(chachapoya_small, "chachapoya", 2000, seed=11)
    specs.append(ReportSpec("overview_chachapoya", "overview", "Chachapoya overview",  # the same notebook
                            "Chachapoya in short.", {"dataset": chachapoya}))
    # The robustness page, on a small Chachapoya robustness run (400 games per table; its headlines
    # from the Chachapoya dataset above).
    (robust,) = [s for s in defaults if s.name == "robust_chachapoya"]
    path = tmp_path_factory.mktemp("robust") / "chachapoya-robust"
    run_robust(registry.get_game("chachapoya"), path, 400, 11, progress=False)
    specs.append(dataclasses.replace(robust, datasets={"dataset": report.RobustDatasetSpec(path, "chachapoya", 400,
                                                                                            11)}))
    out = tmp_path_factory.mktemp("reports")
    index = build_reports(specs, out, simulate=False, progress=False, jobs=2)
    return specs, out, index


def test_every_notebook_runs_headless_and_renders_html(built):
    specs, out, index = built
    assert {s.notebook for s in specs} == NOTEBOOKS - BOT_NOTEBOOKS - BALANCE_NOTEBOOKS - SKILL_NOTEBOOKS
    for spec in specs:
        executed = nbformat.read(out / "notebooks" / f"{spec.name}.ipynb", as_version=4)
        errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        assert errors == [], spec.name
        page = (out / f"{spec.name}.html").read_text()
        assert f"<title>{spec.title}</title>" in page
        assert page.count("data:image/png;base64") >= 2, f"{spec.name}: charts embedded"
        assert "open_dataset(" not in page, "code cells are hidden from designers"
        assert "How to read the chart" in page


def test_a_page_renders_the_same_from_a_threads_kept_exporter():
    """render_html keeps one exporter per thread and code setting: the second page is the first's
    to the byte, code cells stay hidden unless asked for, and the title is the page's own."""
    import threading

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Heading"),
                                         nbformat.v4.new_code_cell("secret_code = 1")])
    first = report.render_html(nb, "First")
    assert report.render_html(nb, "First") == first and "<title>First</title>" in first
    assert "secret_code" not in first and "secret_code" in report.render_html(nb, "First", show_code=True)
    assert "<title>Second</title>" in report.render_html(nb, "Second")
    kept = report._html_exporter(False)
    assert report._html_exporter(False) is kept and report._html_exporter(True) is not kept
    other = []
    thread = threading.Thread(target=lambda: other.append(report._html_exporter(False)))
    thread.start()
    thread.join()
    assert other[0] is not kept


def test_index_links_every_report_with_its_data(built):
    specs, out, index = built
    assert index == out / "index.html"
    page = index.read_text()
    assert re.findall(r'<a href="([^"]+)">', page.split("<table>")[1]) == [f"{s.name}.html" for s in specs]
    rows = page.split("<tr>")[2:]
    assert len(rows) == len(specs)
    for row, spec in zip(rows, specs):
        assert spec.description in row
        assert ("2,000 games" if spec.name == "overview_chachapoya" else "400 games") in row
        assert "seed 11" in row
    names = [s.name for s in specs]
    assert "against: cuzco (pututu), 4 players, 400 games" in rows[names.index("variant_comparison")]
    assert "with Pututu: cuzco (pututu), 4 players, 400 games" in rows[2]
    assert "failed" not in "".join(rows)


def test_index_opens_with_every_games_headline_verdicts(built):
    """Issue 14: the index opens with one line per verdict of each game (Chachapoya judged under its
    robustness tables, Cuzco stated only: its robustness page is not in this build), linking the
    evidence; each Chachapoya page opens with the verdicts that depend on a reconstructed number."""
    specs, out, index = built
    head = index.read_text().split("<table>")[0]
    assert head.index("<h2>Headline verdicts</h2>") < head.index("<h3>Cuzco</h3>") < head.index("<h3>Chachapoya</h3>")
    lines = re.findall(r'<span class="line">(.*?)</span>', head)
    assert any(re.match(r"Cuzco, 4 players: the first player wins \d+\.\d% \[[\d.]+, [\d.]+\] against a fair 25%: "
                        r"(favoured|fair|disfavoured); no reconstructed tables checked", line) for line in lines)
    chachapoya = [line for line in lines if line.startswith("Chachapoya, 4 players: ")]
    assert len(chachapoya) >= 4 and all("reconstructed table" in line or "under " in line for line in chachapoya)
    # Issue 37, wall 8: a dashboard: per verdict the designer's question, the answer, the state coloured
    # (holds / depends / unclear / not checked), the detail folded away.
    rows = re.findall(r'<tr class="([a-z-]+)"><td>([^<]+)</td><td>([^<]+)</td><td><details><summary>'
                      r'<span class="state ([a-z-]+)">([a-z ]+)</span>', head)
    assert len(rows) == len(lines)
    assert all(css == badge == state.replace(" ", "-") for css, _, _, badge, state in rows)
    assert {state for *_, state in rows} <= {"holds", "depends", "unclear", "not checked"}
    assert ("not-checked", "Is the game fair between seats?") in {(r[0], r[1]) for r in rows}  # Cuzco: no robustness page
    assert any(r[1] == "Is the game fair between seats?" and r[2].startswith("The first player wins") for r in rows)
    assert not [r[2] for r in rows if "_" in r[2]]  # plain names: "double people", not double_people
    assert {r[4] for r in rows if r[0] != "not-checked"} - {"not checked"}  # Chachapoya's are judged
    assert ".state.holds { background:" in index.read_text() and ".state.depends { background:" in index.read_text()
    assert '<a href="robust_chachapoya.html">under every table</a>' in head
    assert '<a href="card_strength.html">evidence</a>' in head  # a Cuzco card verdict's page
    verdicts = json.loads((out / "verdicts" / "chachapoya.json").read_text())
    assert [t["name"] for t in verdicts["tables"]][:2] == ["base", "trackers-6"]
    page = (out / "overview_chachapoya.html").read_text()
    assert "Reconstructed numbers." in page and "robust_chachapoya.html" in page
    # the list of dependent verdicts, when there is one, folds away (issue 37, wall 8)
    assert page.count("<details>") >= 1 and "How to read the charts</b> (click to open)</summary>" in page
    assert page.index("The answers in short") < page.index("Reconstructed numbers.")  # answers first
    assert "Reconstructed numbers." not in (out / "overview_cuzco.html").read_text()
    robust = _markdown_outputs(out / "notebooks" / "robust_chachapoya.ipynb")
    assert "verdicts hold under every table." in robust and "Chachapoya, 4 players: the first player wins" in robust


def _markdown_outputs(path: Path) -> str:
    return "\n".join(o["data"]["text/markdown"] for c in notebook_cells(path) if c.cell_type == "code"
                     for o in c.outputs if "text/markdown" in o.get("data", {}))


def test_overview_headline_quotes_the_analysis_numbers(built, cuzco_small, chachapoya_small):
    _, out, _ = built
    for name, path, by in (("overview_cuzco", cuzco_small, "start_order"),
                           ("overview_chachapoya", chachapoya_small, "seat")):
        first = seat_win_rates(open_dataset(path), by=by).table.set_index(by).loc[0]
        text = _markdown_outputs(out / "notebooks" / f"{name}.ipynb")
        label = "turn position" if by == "start_order" else "seat"
        assert (f"**First player** ({label} 0) wins {100 * first['rate']:.1f}% of games "
                f"[{100 * first['ci_low']:.1f}%, {100 * first['ci_high']:.1f}%]") in text
        assert f"{open_dataset(path).n_games:,} games, seed 11" in text
        # one notebook: the game's name and its own sections come from the game (Cuzco's hook adds its dice)
        assert f"## {name.removeprefix('overview_').capitalize()}" in text
        assert ("## Dice" in text and "a double or triple with three dice" in text) == (name == "overview_cuzco")
        assert ("Cuzco deals the turn order at random" in text) == (name == "overview_cuzco")
        assert ("from each seat (seat 0 starts)" in text) == (name == "overview_chachapoya")


def test_mission_ids_are_shown_with_what_they_ask_for(built, cuzco_small):
    """Issue 37, wall 8: Cuzco's missions have numbers, not names (the addendum lists S-01..S-06 and
    01..55); the card tables show each id with its requirements, read from the dataset's parameters
    (components.toml [missions]: general[0] = [["feathers_of_colour", 3, 2]])."""
    from sim.analysis.cards import card_summary, item_names

    ds = open_dataset(cuzco_small)
    names = item_names(ds)["mission"]
    assert names["m01"] == "3 feathers of colour (orange)"
    assert names["s01"] == "1 priests + 1 farm tiles"
    assert names["m12"] == "3 villages worth 3 VP"
    assert card_summary(ds).table.attrs["item_names"]["mission"] == names
    shown = report.named_items(card_summary(ds).table, {"mission": names})
    missions = shown[shown["group"] == "mission"]["item"]
    assert len(missions) and all(re.fullmatch(r"[sm]\d\d: .+", item) for item in missions)
    summary = card_summary(ds)
    (axis,) = [a for a in summary.figure.axes if a.get_title(loc="left") == "mission"]
    assert all(re.fullmatch(r"[sm]\d\d: .+", t.get_text().removesuffix(" *")) for t in axis.get_yticklabels())
    _, out, _ = built
    assert re.search(r">m\d\d: \d+ [a-z]", (out / "card_strength.html").read_text())


def test_reports_received_their_datasets(built, cuzco_small, cuzco_small_pututu):
    _, out, _ = built
    cells = notebook_cells(out / "notebooks" / "variant_comparison.ipynb")
    injected = next(c for c in cells if "injected-parameters" in c.metadata.get("tags", []))
    assert f'dataset = "{cuzco_small.resolve()}"' in injected.source
    assert f'compare_to = "{cuzco_small_pututu.resolve()}"' in injected.source


# ------------------------------------------------------------------ failures and code toggle
def _tiny_notebook(path: Path, body: str) -> Path:
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('dataset = "nowhere"')
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# Tiny"), params, nbformat.v4.new_code_cell(body)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_failing_notebook_still_gets_a_page_and_a_one_line_error(tmp_path, cuzco_small):
    good = _tiny_notebook(tmp_path / "good.ipynb", "print(sum(range(10)))")
    bad = _tiny_notebook(tmp_path / "bad.ipynb", "raise ValueError(f'boom {6 * 7}')")
    data = DatasetSpec(cuzco_small, "cuzco", 400, seed=11)
    specs = [ReportSpec("good", str(good), "Good", "fine", {"dataset": data}),
             ReportSpec("bad", str(bad), "Bad", "breaks", {"dataset": data})]
    with pytest.raises(UserError, match=r"^1 of 2 reports failed; bad: ValueError: boom 42 \(see .*bad.html\)$"):
        build_reports(specs, tmp_path / "out", simulate=False, progress=False, show_code=True, jobs=1)
    assert "boom 42" in (tmp_path / "out" / "bad.html").read_text()
    good_page = (tmp_path / "out" / "good.html").read_text()
    assert "jp-InputArea" in good_page and "range" in good_page  # show_code: the code is there
    executed = notebook_cells(tmp_path / "out" / "notebooks" / "good.ipynb")
    assert [o["text"] for c in executed if c.cell_type == "code" for o in c.outputs] == ["45\n"]
    index = (tmp_path / "out" / "index.html").read_text()
    assert 'class="failed">failed: ValueError: boom 42' in index and index.count("failed:") == 1



def test_a_jobs_kernel_serves_the_next_notebook_with_a_clean_namespace(tmp_path, cuzco_small):
    """One job's notebooks share a kernel (a module imported by one is still loaded in the next)
    but not its variables, and a notebook's cells are numbered from 1 as in a fresh kernel."""
    first = _tiny_notebook(tmp_path / "first.ipynb", "import json\njson.sim_marker = 1\nleft_behind = 2")
    second = _tiny_notebook(tmp_path / "second.ipynb", "import json\nprint(hasattr(json, 'sim_marker'), 'left_behind' in dir())")
    data = DatasetSpec(cuzco_small, "cuzco", 400, seed=11)
    specs = [ReportSpec(path.stem, str(path), path.stem, "", {"dataset": data}) for path in (first, second)]
    build_reports(specs, tmp_path / "out", simulate=False, progress=False, jobs=1)
    cells = [c for c in notebook_cells(tmp_path / "out" / "notebooks" / "second.ipynb") if c.cell_type == "code"]
    assert [o["text"] for c in cells for o in c.outputs] == ["True False\n"]
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))


def test_notebooks_change_no_module_settings():
    """A kept kernel carries module state from one notebook to the next (WarmKernel): no notebook
    may change matplotlib's or pandas' settings or numpy's global random state (each says
    `%matplotlib inline`, the same every time)."""
    for path in sorted(report.NOTEBOOKS_DIR.glob("*.ipynb")):
        source = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert not re.search(r"rcParams|rcdefaults|\brc\(|style\.use|set_option|np\.random\.seed|%matplotlib (?!inline\b)", source), path.name

def test_timed_out_notebook_is_reported(tmp_path, cuzco_small):
    slow = _tiny_notebook(tmp_path / "slow.ipynb", "import time\ntime.sleep(60)")
    spec = ReportSpec("slow", str(slow), "Slow", "sleeps", {"dataset": DatasetSpec(cuzco_small, "cuzco", 400, seed=11)})
    with pytest.raises(UserError, match=r"^1 of 1 reports failed; slow: .*(Timeout|timed out)"):
        build_reports([spec], tmp_path / "out", simulate=False, progress=False, timeout=2)
    page = (tmp_path / "out" / "slow.html").read_text()
    assert "This report did not finish" in page


def test_the_notebook_after_a_timeout_gets_a_new_kernel(tmp_path, cuzco_small):
    slow = _tiny_notebook(tmp_path / "slow.ipynb", "import time\ntime.sleep(60)")
    after = _tiny_notebook(tmp_path / "after.ipynb", "print(6 * 7)")
    data = DatasetSpec(cuzco_small, "cuzco", 400, seed=11)
    specs = [ReportSpec(path.stem, str(path), path.stem, "", {"dataset": data}) for path in (slow, after)]
    with pytest.raises(UserError, match=r"^1 of 2 reports failed; slow: "):
        build_reports(specs, tmp_path / "out", simulate=False, progress=False, timeout=2, jobs=1)
    cells = notebook_cells(tmp_path / "out" / "notebooks" / "after.ipynb")
    assert [o["text"] for c in cells if c.cell_type == "code" for o in c.outputs] == ["42\n"]


def test_duplicate_report_names_are_refused(tmp_path, cuzco_small):
    data = DatasetSpec(cuzco_small, "cuzco", 400, seed=11)
    spec = ReportSpec("same", "win_rates", "A", "a", {"dataset": data})
    with pytest.raises(UserError, match="share a name: same"):
        build_reports([spec, spec], tmp_path, simulate=False, progress=False)


# ------------------------------------------------------------------ datasets: simulate or refuse
def test_missing_datasets_are_simulated_once_and_checked(tmp_path, with_fake_game):
    spec = DatasetSpec(tmp_path / "d", "dicey", games=30, players=3, seed=5)
    assert ensure_datasets([spec, spec], progress=False) == [spec]
    manifest = json.loads((tmp_path / "d" / "manifest.json").read_text())
    assert manifest["config"]["games"] == 30 and manifest["config"]["seed"] == 5
    assert manifest["config"]["rotate_seats"] is True
    assert open_dataset(tmp_path / "d").n_games == 30
    assert ensure_datasets([spec], progress=False) == []  # complete: reused

    with pytest.raises(UserError, match=r"holds a run with games = 30, not 31"):
        ensure_datasets([dataclasses.replace(spec, games=31)], progress=False)
    assert ensure_datasets([dataclasses.replace(spec, games=31)], check_size=False, progress=False) == []
    with pytest.raises(UserError, match=r"holds a run with seed = 5, not 6"):
        ensure_datasets([dataclasses.replace(spec, seed=6)], check_size=False, progress=False)


def test_partial_run_is_redone_but_foreign_folder_kept(tmp_path, with_fake_game):
    partial = tmp_path / "partial"
    (partial / "games").mkdir(parents=True)
    (partial / "players").mkdir()
    spec = DatasetSpec(partial, "dicey", games=12, players=2, seed=1)
    assert report.dataset_status(partial) == "incomplete"
    assert ensure_datasets([spec], progress=False) == [spec]
    assert report.dataset_status(partial) == "complete" and open_dataset(partial).n_games == 12

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="exists but is not a complete dataset"):
        ensure_datasets([DatasetSpec(foreign, "dicey", games=12, players=2)], progress=False)
    assert (foreign / "notes.txt").read_text() == "mine"

    with pytest.raises(UserError, match="holds no complete dataset; run without --no-simulate"):
        ensure_datasets([DatasetSpec(tmp_path / "none", "dicey", 5, 2)], simulate=False, progress=False)
    assert not (tmp_path / "none").exists()


def test_cli_report_errors_are_one_line(tmp_path, capsys):
    for argv, fragment in ((["--no-simulate"], "chachapoya-base holds no complete dataset"),  # games in name order
                           (["--games", "0"], "--games must be at least 1 (got 0)")):
        with pytest.raises(SystemExit) as info:
            main(["report", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "r"), "--no-progress", *argv])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: ") and fragment in err
    assert not (tmp_path / "r").exists() and not (tmp_path / "data").exists()


def test_tables_show_plain_column_names_and_ranges_read_plainly():
    """Issue 37, wall 8: tables show "95% low", not `ci_low`; "6.00 rounds (from 6 to 6)" reads "6 rounds
    in every game"."""
    import pandas as pd

    table = pd.DataFrame({"start_order": [0], "rate": [0.3], "ci_low": [0.2], "ci_high": [0.4], "gih_wr": [0.3],
                          "gih_lo": [0.2], "iwd": [0.01], "iwd_hi": [0.02], "end_reason": ["x"]})
    assert list(report.plain_columns(table).columns) == [
        "turn position", "win rate", "95% low", "95% high", "win rate when held (GIH WR)",
        "win rate when held (GIH WR): 95% low", "played - held unplayed (IWD)", "played - held unplayed (IWD): 95% high",
        "end reason"]
    assert list(table.columns)[:3] == ["start_order", "rate", "ci_low"]  # the table itself is left as it was
    clash = pd.DataFrame({"ci_low": [1], "ci_lo": [2]})
    assert list(report.plain_columns(clash).columns) == ["ci_low", "ci_lo"]
    assert report.range_text(6.0, 6, 6, "rounds") == "6 rounds in every game"
    assert report.range_text(6.4213, 5, 8, "rounds") == "6.42 rounds a game on average (from 5 to 8)"
    assert report.range_text(7.0, 5, 8, "rounds") == "7 rounds a game on average (from 5 to 8)"


def test_report_of_one_game(tmp_path, capsys):
    """Issue 37, wall 8: `sim report --game NAME` builds that game's pages only; an unknown game is
    one line, exit 2, before anything is written."""
    assert [s.name for s in default_specs(game="chachapoya")] == CHACHAPOYA_PAGES
    assert {report.spec_game(s) for s in default_specs(game="cuzco")} == {"cuzco"}
    for argv, fragment in ((["--game", "nosuch"], "unknown game 'nosuch' (known: "),
                           (["--game", "chachapoya", "--no-simulate"], "chachapoya-base holds no complete dataset")):
        with pytest.raises(SystemExit) as info:
            main(["report", "--data", str(tmp_path / "data"), "--out", str(tmp_path / "r"), "--no-progress", *argv])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: ") and fragment in err, err
    assert not (tmp_path / "r").exists() and not (tmp_path / "data").exists()


# ------------------------------------------------------------------ the bots' report sections
def test_ladder_and_tuning_specs():
    from sim.games.cuzco.analysis import report as cuzco

    specs = {s.name: s for s in default_specs()}
    ladder, tuning = specs["ladder_cuzco"], specs["tuning_cuzco"]
    heuristic, search = ladder.datasets["dataset"], ladder.datasets["search"]
    assert heuristic.rungs + search.rungs[1:] == ("random", "temple", "temple-tuned", "search")
    assert (heuristic.games, search.games) == (2000, 40) and heuristic.players == search.players == 4
    assert heuristic.path == Path("data/cuzco-ladder") and search.path == Path("data/cuzco-ladder-search")
    assert "the search rung plays 40 games per line-up (seconds a game), the others 2,000." in ladder.description
    ladder_games, search_games = cuzco.LADDER_SHARE.games, cuzco.SEARCH_LADDER_SHARE.games
    assert (ladder_games(20_000), search_games(20_000)) == (200, 4)
    assert (ladder_games(400), search_games(400)) == (4, 4)
    assert ladder_games(20_000, players=3) == 198 and search_games(10**9) == 40
    assert cuzco.TOURNAMENT_SHARE.games(20_000) == 40 and cuzco.TOURNAMENT_SHARE.games(10**9) == 400
    assert tuning.datasets == {} and tuning.parameters == {"game": "cuzco"} and "bots.tuned.toml" in tuning.data_note


# The main job's pages before the report hook (issue 12): names, notebooks, titles, descriptions and
# datasets, to check the pages the hook yields are the same.
OLD_PAGES = [
    ("tournament_cuzco", "Cuzco bots and the meta-game",
     "How strong each bot is (openskill ratings, win rate against the field), which strategies survive in "
     "equilibrium, whether one dominates, and the skill ladder."),
    ("ladder_cuzco", "Cuzco skill ladder",
     "Is each bot stronger than the one below it (random < temple < temple-tuned < search)? Head-to-head win "
     "rates with intervals, seats rotated, the same seeds; the search rung plays 40 games per line-up (seconds a "
     "game), the others 2,000."),
    ("tuning_cuzco", "Cuzco tuned bots",
     "What tuning did to each bot: provenance, held-out win rate against its base bot, the learning curve and how "
     "far each weight moved."),
    ("overview_cuzco", "Cuzco overview",
     "The headline answers for Cuzco: seat balance, bots, scores, game length, dice and the strongest cards."),
    ("win_rates", "Win rates and balance",
     "Who wins: by seat and turn order, by bot, seat x bot; balance measures, score margins, game length, how "
     "games end."),
    ("dice_odds", "Dice odds",
     "Exact dice probabilities next to the simulated frequencies: doubles and triples, where a die can still be "
     "placed, where dice go, what the Pututu tiles change."),
    ("card_strength", "Card strength",
     "Which god cards, people, missions and goods win games: win rate when held, when played, improvement when "
     "played, and a seat- and bot-controlled estimate."),
    ("variant_comparison", "Base game vs Pututu module",
     "What the Pututu module changes: seat balance, scores, game length, bots and cards, each difference with an "
     "interval, on the same seeds."),
]


def test_the_report_hook_gives_the_same_pages_as_before():
    specs = [s for s in default_specs(games=50_000, data_dir="d", seed=7)
             if report.spec_game(s) == "cuzco" and s.notebook not in ("robust", "balance", "skill")]
    assert [(s.name, s.title, s.description) for s in specs] == [
        (name, title, description.replace("40 games", "8 games").replace("2,000", "500"))
        for name, title, description in OLD_PAGES]
    data = {name: {key: ds for key, ds in s.datasets.items()} for name, s in ((s.name, s) for s in specs)}
    base = DatasetSpec(Path("d/cuzco-base"), "cuzco", 50_000, 4, 7)
    pututu = DatasetSpec(Path("d/cuzco-pututu"), "cuzco", 50_000, 4, 7, "variants/cuzco-pututu.toml")
    assert data["dice_odds"] == {"dataset": base, "pututu": pututu} and data["win_rates"] == {"dataset": base}
    assert data["variant_comparison"] == {"dataset": base, "compare_to": pututu}
    assert data["tournament_cuzco"]["dataset"] == TournamentDatasetSpec(
        Path("d/cuzco-tournament"), "cuzco", ("random", "temple", "balanced-tuned", "temple-tuned", "runner-tuned",
                                              "market-tuned"), 100, 4, 7)
    assert data["ladder_cuzco"]["search"] == report.LadderDatasetSpec(Path("d/cuzco-ladder-search"), "cuzco",
                                                                      ("temple-tuned", "search"), 8, 4, 7)
    dice = next(s for s in specs if s.name == "dice_odds")
    assert dice.labels == {"pututu": "with Pututu"}
    overview = next(s for s in specs if s.name == "overview_cuzco")
    assert overview.parameters == {"game": "cuzco", "by": "start_order",
                                   "position_note": "Cuzco deals the turn order at random every game",
                                   "sections": "sim.games.cuzco.analysis:overview_sections"}


class _Hooked:
    """A game object with a report hook (the contract's report_sections) and no robustness tables."""

    name = "hooked"

    def __init__(self, sections):
        self.sections = sections

    def report_sections(self):
        return self.sections

    def robustness(self):
        return None


def test_every_game_is_asked_for_its_sections(monkeypatch):
    from sim.core import registry

    data = report.RunData("hooked-base", "hooked", players=3)
    section = report.ReportSection("hooked_page", "win_rates", "Hooked", "{dataset.games:,} games of {dataset.game}",
                                   {"dataset": data}, {"method": "beta"})
    fixed = ReportSpec("fixed", "win_rates", "Fixed", "a concrete page", {})
    games = [_Hooked((section, fixed)), _Hooked(())]
    monkeypatch.setattr(registry, "all_games", lambda: games)
    specs = default_specs(games=1234, data_dir="x", seed=5)
    assert [s.name for s in specs] == ["hooked_page", "fixed"]
    assert specs[0].description == "1,234 games of hooked" and specs[0].parameters == {"method": "beta"}
    assert specs[0].datasets == {"dataset": DatasetSpec(Path("x/hooked-base"), "hooked", 1234, 3, 5)}
    assert specs[1] is fixed
    # a game that declares no sections (the contract's default) and has no analysis package: none
    assert report.game_sections(_Hooked(())) == ()


def test_cuzco_sections_come_from_its_analysis_package():
    from sim.core import registry
    from sim.games.cuzco import analysis

    cuzco = registry.get_game("cuzco")
    assert [s.name for s in report.game_sections(cuzco)] == [s.name for s in analysis.report_sections()] + [
        "robust_cuzco"] + _skill_page("cuzco")
    from sim.games.chachapoya import analysis as chachapoya

    assert [s.name for s in report.game_sections(registry.get_game("chachapoya"))] == [
        s.name for s in chachapoya.report_sections()] + ["robust_chachapoya"] + _skill_page("chachapoya")
    assert report.overview_parameters("chachapoya") == {"game": "chachapoya", "by": "seat"}
    assert report.overview_parameters("nosuchgame") == {}
    assert report.overview_parameters("cuzco")["by"] == "start_order"


def test_overview_setup_from_the_hook_or_the_dataset(tmp_path):
    from test_analysis_stalemate import stalemate_dataset

    ds = stalemate_dataset(tmp_path / "d")  # game "handmade": no hook, a start_order column
    view = report.overview_setup(ds)
    assert (view.game, view.title, view.by) == ("handmade", "Handmade", "start_order")
    assert view.position_text == "turn-order position (0 = first player)" and view.extra_sections(ds) == []
    seat = report.overview_setup(ds, by="seat", position_note="the oldest player starts")
    assert seat.position_text == "seat (seat 0 starts; the oldest player starts)"
    hooked = report.overview_setup(ds, sections="test_analysis_report:_two_sections")
    assert [s.title for s in hooked.extra_sections(ds)] == ["A", "B"]
    with pytest.raises(UserError, match="is a handmade dataset, not cuzco"):
        report.overview_setup(ds, game="cuzco")
    with pytest.raises(UserError, match="no function 'nowhere:nothing'"):
        report.overview_setup(ds, sections="nowhere:nothing")


def _two_sections(ds):
    return [report.OverviewSection("A", "first"), report.OverviewSection("B", "second")]


TUNED_TOML = '''
[bots.temple-tuned]
kind = "heuristic"
description = "temple tuned (a test file)"

[bots.temple-tuned.weights]
vp = 2.0
feather = 0.08
quipu = 1.0

[bots.temple-tuned.provenance]
base_bot = "temple"
game = "cuzco"
players = 4
pool = ["balanced", "runner"]
games_per_evaluation = 40
generations = 3
popsize = 6
validation_win_rate = 0.4
validation_ci95 = [0.35, 0.45]
validation_games = 400
base_validation_win_rate = 0.3
base_validation_ci95 = [0.26, 0.34]
wall_seconds = 120.0
git_commit = "0123456789abcdef"
command = "sim tune cuzco --bot temple --generations 3"
'''


@pytest.fixture(scope="module")
def built_bots(dicey3, tmp_path_factory):
    """The ladder report on two small fake-game ladders (simulated by build_reports, as the main job's
    are), the tuning report on a temporary tuned file with a log, and again without the logs folder."""
    root = tmp_path_factory.mktemp("bots")
    tuned = root / "tuned" / "bots.tuned.toml"
    tuned.parent.mkdir()
    tuned.write_text(TUNED_TOML)
    (tuned.parent / "tune_logs").mkdir()
    log = [{"generation": g, "seed": g, "best_win_rate": 0.3 + 0.05 * g, "best_margin": 0.0,
            "mean_win_rate": 0.2 + 0.04 * g, "mean_margin": -1.0, "centre_win_rate": 0.25 + 0.05 * g,
            "centre_margin": -0.5, "sigma": 0.3, "games": 240, "seconds": 1.5} for g in range(3)]
    (tuned.parent / "tune_logs" / "temple-tuned.log.json").write_text(json.dumps(log))
    defaults = {s.name: s for s in default_specs()}
    ladder, tuning = defaults["ladder_cuzco"], defaults["tuning_cuzco"]
    lower = report.LadderDatasetSpec(root / "lower", dicey3, ("random", "greedy"), 120, 4, 11)
    upper = report.LadderDatasetSpec(root / "upper", dicey3, ("greedy", "lucky"), 20, 4, 11)
    specs = [dataclasses.replace(ladder, datasets={"dataset": lower, "search": upper}),
             dataclasses.replace(tuning, parameters={"game": "cuzco", "tuned_file": str(tuned)}),
             dataclasses.replace(tuning, name="tuning_nologs",
                                 parameters={"game": "cuzco", "tuned_file": str(tuned), "logs_dir": str(root / "none")})]
    out = root / "reports"
    index = build_reports(specs, out, progress=False, jobs=2)
    return specs, out, index, (lower, upper)


def test_ladder_and_tuning_notebooks_run_and_render(built_bots):
    specs, out, index, _ = built_bots
    for spec in specs:
        executed = nbformat.read(out / "notebooks" / f"{spec.name}.ipynb", as_version=4)
        errors = [o for c in executed.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
        assert errors == [], spec.name
        page = (out / f"{spec.name}.html").read_text()
        assert "How to read the chart" in page and "This report did not finish" not in page
    ladder = _markdown_outputs(out / "notebooks" / "ladder_cuzco.ipynb")
    assert "The ladder random < greedy < lucky holds at" in ladder
    assert "**greedy is stronger than random.**" in ladder and "(20 games per table.)" in ladder
    assert (out / "ladder_cuzco.html").read_text().count("data:image/png;base64") >= 1
    tuning = _markdown_outputs(out / "notebooks" / "tuning_cuzco.ipynb")
    assert "**temple-tuned** is clearly stronger than **temple**" in tuning and "40.0% [35.0%, 45.0%]" in tuning
    assert "3 generations; the last one's centre won 35.0%" in tuning
    assert "Grew most: vp (x2)" in tuning and "Shrank most: feather (x0.1)" in tuning
    assert (out / "tuning_cuzco.html").read_text().count("data:image/png;base64") >= 3
    nologs = _markdown_outputs(out / "notebooks" / "tuning_nologs.ipynb")
    assert "No tuning logs" in nologs and "does not exist" in nologs and "Grew most" in nologs
    page = index.read_text()
    assert "search rung: dicey3 skill ladder: greedy &lt; lucky, 4 players, 2 line-ups x 20 games" in page
    assert "tuned bots: sim/games/cuzco/bots.tuned.toml and tune_logs/" in page


def test_ladder_datasets_are_reused_and_checked(built_bots, dicey3):
    _, _, _, (lower, upper) = built_bots
    assert report.ensure_datasets([lower, upper], progress=False) == []  # complete: reused
    from sim.analysis.tournament import open_tournament

    assert open_tournament(lower.path).ladder == ["random", "greedy"] and open_tournament(upper.path).games_per_lineup == 20
    with pytest.raises(UserError, match=r"holds a skill ladder with bots = \('random', 'greedy'\), not \('random', 'lucky'\)"):
        report.ensure_datasets([dataclasses.replace(lower, rungs=("random", "lucky"))], progress=False)
    with pytest.raises(UserError, match="holds a skill ladder with games = 20, not 40"):
        report.ensure_datasets([dataclasses.replace(upper, games=40)], progress=False)
    # a full tournament of the same bots is not the ladder the report wants
    with pytest.raises(UserError, match=r"holds a tournament with ladder = \('random', 'greedy'\), not None"):
        report.ensure_datasets([TournamentDatasetSpec(lower.path, dicey3, ("random", "greedy"), 120, 4, 11)],
                               progress=False)


def test_every_page_loads_in_a_real_browser(built):
    """Issue 37: headless Chromium opens the index and every page: each loads with its title, every
    image decodes, every link to another file of the report resolves, and the console shows no
    error."""
    from urllib.parse import urlparse

    from browser import BROKEN_IMAGES, LINKS, chromium

    _, out, index = built
    pages = [index, *sorted(p for p in out.glob("*.html") if p != index)]
    assert len(pages) > 5
    with chromium() as driver:
        for page in pages:
            driver.get(page.resolve().as_uri())
            assert driver.title, page.name
            assert driver.execute_script(BROKEN_IMAGES) == [], page.name
            for href in driver.execute_script(LINKS):
                target = urlparse(href)
                if target.scheme or href.startswith("#"):
                    continue
                assert (page.parent / target.path).exists(), f"{page.name} links {href}"
            errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            assert errors == [], f"{page.name}: {errors}"
