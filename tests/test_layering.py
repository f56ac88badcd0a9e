"""Layering: the game-agnostic core never imports the command line or the analysis layer
(command-line code lives in sim/cli, analyses in sim/analysis; both may use the core)."""
from __future__ import annotations

import ast
from pathlib import Path

import sim

SIM_DIR = Path(sim.__file__).resolve().parent
FORBIDDEN = ("sim.cli", "sim.analysis")


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
              and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
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
