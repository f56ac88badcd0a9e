"""Layering: the game-agnostic core never imports the command line, the analysis layer or a study
(command-line code lives in sim/cli, analyses in sim/analysis, the studies that play many runs in
sim/studies; all may use the core), and the core's own modules import one another without a circle."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import sim

SIM_DIR = Path(sim.__file__).resolve().parent
FORBIDDEN = ("sim.cli", "sim.analysis")
STUDIES = "sim.studies"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, top level or inside a function;
    relative imports resolved against the file's package."""
    package = ".".join(path.relative_to(SIM_DIR.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            # `from sim import cli` / `from .. import analysis`
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__",
                                                                                 "run_module")
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def offending(path: Path) -> list[str]:
    return [f"{path.relative_to(SIM_DIR.parent)}:{line} imports {module}" for line, module in imported_modules(path)
            if any(module == name or module.startswith(name + ".") for name in FORBIDDEN)]


def test_core_imports_neither_cli_nor_analysis():
    files = sorted((SIM_DIR / "core").glob("*.py"))
    assert files, "sim/core has no modules?"
    problems = [problem for path in files for problem in offending(path)]
    assert problems == [], "sim/core must not import sim.cli or sim.analysis:\n" + "\n".join(problems)


def test_the_scan_sees_every_form_of_import(tmp_path, monkeypatch):
    """The checker itself: top-level, local, relative and importlib imports are all caught."""
    core = tmp_path / "sim" / "core"
    core.mkdir(parents=True)
    bad = core / "bad.py"
    bad.write_text("import os\n"
                   "from sim.analysis.stats import rate_ci\n"
                   "def f():\n    import sim.cli\n"
                   "from .. import analysis\n"
                   "from ..cli.options import OneLineParser\n"
                   "import importlib\nimportlib.import_module('sim.analysis.report')\n"
                   "from sim.core import runner\n")
    monkeypatch.setattr(__import__(__name__), "SIM_DIR", tmp_path / "sim")
    lines = [int(problem.split(":")[1].split()[0]) for problem in offending(bad)]
    assert sorted(set(lines)) == [2, 4, 5, 6, 8]


def _main_guard_lines(path: Path) -> set[int]:
    """Lines of a command shim's `if __name__ == "__main__":` block: a module whose body is only a
    docstring and that block (sim/core/bench.py keeps `python -m sim.core.bench` working). Importing
    such a module runs none of them; any other module gets no exemption."""
    body = ast.parse(path.read_text(), filename=str(path)).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.If) or ast.unparse(body[0].test) not in (
            "__name__ == '__main__'", "'__main__' == __name__"):
        return set()
    return set(range(body[0].lineno, body[0].end_lineno + 1))


def study_imports(path: Path) -> list[str]:
    guarded = _main_guard_lines(path)
    return [f"{path.relative_to(SIM_DIR.parent)}:{line} imports {module}" for line, module in imported_modules(path)
            if (module == STUDIES or module.startswith(STUDIES + ".")) and line not in guarded]


def core_graph(core: Path) -> dict[str, set[str]]:
    """Module name -> the other modules of sim/core it imports (top level or inside a function)."""
    names = {p.stem for p in core.glob("*.py")}
    graph = {}
    for path in sorted(core.glob("*.py")):
        deps = set()
        for _, module in imported_modules(path):
            parts = module.split(".")
            if parts[:2] == ["sim", "core"] and len(parts) > 2 and parts[2] in names and parts[2] != path.stem:
                deps.add(parts[2])
        graph[path.stem] = deps
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as [a, b, ..., a], or None (depth-first search, white/grey/black)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return stack[stack.index(dep):] + [dep]
            if dep not in state and (cycle := visit(dep)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_core_imports_no_study():
    """The contract and the runner stay below the studies (issue 36, item 6): no module of sim/core
    imports sim.studies, at the top or inside a function; only a command shim's __main__ block may
    run one."""
    files = sorted((SIM_DIR / "core").glob("*.py"))
    problems = [problem for path in files for problem in study_imports(path)]
    assert problems == [], "sim/core must not import a study (sim/studies):\n" + "\n".join(problems)


def test_core_modules_import_one_another_without_a_circle():
    """Issue 36's "done when": no import circle among the files of sim/core (function-level imports
    count: they are circles Python only defers)."""
    graph = core_graph(SIM_DIR / "core")
    assert {"game", "runner", "backends", "robust"} <= set(graph)
    cycle = find_cycle(graph)
    assert cycle is None, "import circle in sim/core: " + " -> ".join(f"core/{name}.py" for name in cycle)


def test_importing_every_core_module_loads_no_study():
    """The same at run time, in a fresh interpreter: the whole core imported, no sim.studies module."""
    modules = [f"sim.core.{p.stem}" for p in sorted((SIM_DIR / "core").glob("*.py")) if p.stem != "__init__"]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m == 'sim.studies' or m.startswith('sim.studies.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=SIM_DIR.parent).stdout
    assert out.strip() == "[]", out


def test_the_study_and_circle_checks_catch_what_they_should(tmp_path, monkeypatch):
    """The checkers themselves: a study imported inside a function is caught, a shim's __main__
    block is not (but the same block beside other code is), and a circle closed by a function-level
    import is found."""
    core = tmp_path / "sim" / "core"
    core.mkdir(parents=True)
    monkeypatch.setattr(__import__(__name__), "SIM_DIR", tmp_path / "sim")
    (core / "a.py").write_text("from sim.core import b\ndef f():\n    from sim.studies.tune import tune\n")
    (core / "b.py").write_text("import os\ndef g():\n    from sim.core.c import x\n")
    (core / "c.py").write_text("from .a import f\n")
    (core / "d.py").write_text("from sim.core import c\n")
    shim = '"""Shim."""\n\nif __name__ == "__main__":\n    import runpy\n\n    runpy.run_module("sim.studies.bench")\n'
    (core / "shim.py").write_text(shim)
    (core / "notshim.py").write_text("X = 1\n" + shim)
    assert "sim/core/a.py:3 imports sim.studies.tune" in study_imports(core / "a.py")
    assert study_imports(core / "shim.py") == []
    assert study_imports(core / "notshim.py") == ["sim/core/notshim.py:7 imports sim.studies.bench"]
    cycle = find_cycle(core_graph(core))
    assert cycle is not None and cycle[0] == cycle[-1] and set(cycle) == {"a", "b", "c"}
    (core / "b.py").write_text("import os\n")
    assert find_cycle(core_graph(core)) is None
