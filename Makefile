# Developer entry points. The venv is (re)installed only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: setup lab run report test bench bench-chachapoya bench-cuzco bench-machu_picchu bench-tahuantinsuyu bench-floors bench-compile bench-scale bench-bots clean

setup: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Python writes the bytecode of each module the first time a process imports it, so the installer
# does not compile every installed file (about 55 s of a fresh set-up, most of it for modules never
# imported; uv does not by default, pip is told `--no-compile`). PYTHONDONTWRITEBYTECODE (set on
# this machine) is dropped for every command the Makefile runs: with it, nothing would write the
# bytecode and every process would compile each module it imports again (7 s a `sim` command).
unexport PYTHONDONTWRITEBYTECODE

# uv installs the same packages from PyPI about twice as fast as pip (41 s against 79 s for this
# project from an empty cache on the 2-core machine); should uv itself fail to install or run, pip
# does the work.
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -q "uv>=0.13,<0.14" && $(VENV)/bin/python -m uv pip install --python $(VENV)/bin/python -e ".[test]" \
		|| $(VENV)/bin/python -m pip install --no-compile -e ".[test]"
	touch $(STAMP)

# JupyterLab on the notebooks (the optional extra `lab`, installed into .venv on first use; again
# when pyproject.toml changes). A notebook runs in notebooks/; its dataset paths (`dataset =
# "data/cuzco-base"`) are read from the repository's folder when they name nothing from there
# (sim.analysis.io.data_path). LAB_OPTIONS: more options for `jupyter lab` (say --no-browser).
LAB_STAMP := $(VENV)/.installed-lab
LAB_OPTIONS ?=

$(LAB_STAMP): $(STAMP)
	$(VENV)/bin/python -m uv pip install --python $(VENV)/bin/python -e ".[test,lab]" \
		|| $(VENV)/bin/python -m pip install --no-compile -e ".[test,lab]"
	touch $(LAB_STAMP)

# Jupyter refuses to run as root without --allow-root (containers, CI machines): given when root.
LAB_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(LAB_STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=notebooks $(LAB_ROOT) $(LAB_OPTIONS)

# The main job: Cuzco base and Cuzco with Pututu (4 players, same seed, seats rotated) into
# data/cuzco-base and data/cuzco-pututu, each other game's base game into data/<game>-base, each
# game's robustness run (a share of GAMES per table, see the games'
# robust.toml), then the HTML reports in reports/ (open reports/index.html, which opens with every
# game's headline verdicts). Datasets already there (complete, same configuration) are reused.
# Each of those datasets plays until the first player's and every bot's win-rate intervals are
# +-PRECISION percentage points, at most GAMES games (`make run PRECISION=0.25` for narrower ones,
# `make run PRECISION=0 GAMES=200000` for a fixed size).
GAMES ?= 200000
PRECISION ?= 0.5

run: $(STAMP)
	$(VENV)/bin/sim report --games $(GAMES) --precision $(PRECISION)

report: $(STAMP)
	$(VENV)/bin/sim report

# The engines (and the tests' toy game, Pig) are compiled first, one process per game side by side,
# into the shared Numba cache;
# then the tests run in two pytest-xdist workers that load them, a test file per worker (tests call
# engine functions directly, and each process compiles those calls once per file, not twice).
# pytest exits 5 when it collects no tests; any non-zero status fails the target.
test: $(STAMP)
	$(VENV)/bin/python -m sim.core.compile_engines --games-dir tests/toygame
	$(VENV)/bin/python -m pytest -q -n 2 --dist loadfile --durations=15

bench: bench-chachapoya bench-cuzco bench-machu_picchu bench-tahuantinsuyu

# Each game's default line-up, then its floor (the random line-up) the same hour: BENCHMARKS.md
# keeps one row per line-up in the game's table, with the default's cost over the floor.
bench-chachapoya: $(STAMP)
	$(VENV)/bin/python -m sim.studies.bench chachapoya --games 1000000 --players 4 --repeats 3
	$(VENV)/bin/python -m sim.studies.bench chachapoya --games 1000000 --players 4 --repeats 3 --bots random

# Issue 15's line: 1,000,000 four-player Machu Picchu games of the default line-up in under 60 s.
bench-machu_picchu: $(STAMP)
	$(VENV)/bin/python -m sim.studies.bench machu_picchu --games 1000000 --players 4 --repeats 3
	$(VENV)/bin/python -m sim.studies.bench machu_picchu --games 1000000 --players 4 --repeats 3 --bots random

# Issue 16's line: 1,000,000 four-player Tahuantinsuyu games of the default line-up in under 120 s.
bench-tahuantinsuyu: $(STAMP)
	$(VENV)/bin/python -m sim.studies.bench tahuantinsuyu --games 1000000 --players 4 --repeats 3
	$(VENV)/bin/python -m sim.studies.bench tahuantinsuyu --games 1000000 --players 4 --repeats 3 --bots random

# Cuzco's default line-up costs about 1 ms of CPU a game, so the benchmark plays 100,000 games
# (plain Python: 3 games); its floor the same size.
bench-cuzco: $(STAMP)
	$(VENV)/bin/python -m sim.studies.bench cuzco --games 100000 --players 4 --repeats 3 --nojit-games 3
	$(VENV)/bin/python -m sim.studies.bench cuzco --games 100000 --players 4 --repeats 3 --nojit-games 20 --bots random

# The floors alone (every game's random line-up): a default's row is read against the floor
# measured within the hour (BENCHMARKS.md).
bench-floors: $(STAMP)
	$(VENV)/bin/python -m sim.studies.bench cuzco --games 100000 --players 4 --repeats 3 --nojit-games 20 --bots random
	$(VENV)/bin/python -m sim.studies.bench chachapoya --games 1000000 --players 4 --repeats 3 --bots random
	$(VENV)/bin/python -m sim.studies.bench machu_picchu --games 1000000 --players 4 --repeats 3 --bots random
	$(VENV)/bin/python -m sim.studies.bench tahuantinsuyu --games 1000000 --players 4 --repeats 3 --bots random

# Issue 13's compile line: the Cuzco engine compiled from an empty Numba cache, one game of the
# default line-up (at most 90 s on the 2-core machine; a line-up with a search bot compiles the
# search kernel on first use), with the compile seconds of each function and the functions
# compiled in several versions.
bench-compile: $(STAMP)
	@dir=$$(mktemp -d) && NUMBA_CACHE_DIR=$$dir $(VENV)/bin/python -m sim.core.compile_engines --profile cuzco; status=$$?; rm -rf $$dir; exit $$status

# Issue 5's limits: peak memory of the whole process tree as the game count grows, and the Dask
# LocalCluster's throughput against the local backend. Long: about 15 minutes for Chachapoya and
# an hour per million Cuzco games per backend; CUZCO_GAMES sets the Cuzco size.
CUZCO_GAMES ?= 1000000

bench-scale: $(STAMP)
	$(VENV)/bin/python -m sim.studies.scalebench --repeats 1 -- run chachapoya --games 1000000 --players 4
	$(VENV)/bin/python -m sim.studies.scalebench --repeats 1 -- run chachapoya --games 10000000 --players 4
	$(VENV)/bin/python -m sim.studies.scalebench --repeats 3 --compare-backends -- run chachapoya --games 1000000 --players 4 --chunk-size 25000
	$(VENV)/bin/python -m sim.studies.scalebench --repeats 1 --compare-backends -- run cuzco --games $(CUZCO_GAMES) --players 4 --chunk-size 10000 --rotate-seats

# Issue 6's targets: the tuned Cuzco bot alone against three untuned heuristic bots and against three
# random bots, and the skill ladders up to the search bots (about 15 minutes on two cores, most of
# it the search rungs). Each run prints its win rates with 95% intervals.
BOTS_DIR ?= data/bench-bots

bench-bots: $(STAMP)
	rm -rf $(BOTS_DIR)
	$(VENV)/bin/sim run cuzco --bots temple-tuned,balanced,runner,market --rotate-seats --games 2000 --seed 1 --out $(BOTS_DIR)/tuned-vs-heuristics
	$(VENV)/bin/sim run cuzco --bots temple-tuned,random,random,random --rotate-seats --games 2000 --seed 1 --out $(BOTS_DIR)/tuned-vs-random
	$(VENV)/bin/sim ladder cuzco --rungs random,temple,temple-tuned --games 2000 --seed 1 --out $(BOTS_DIR)/ladder
	$(VENV)/bin/sim ladder cuzco --rungs temple-tuned,search --games 48 --seed 1 --out $(BOTS_DIR)/ladder-search
	$(VENV)/bin/sim ladder chachapoya --rungs random,greedy,greedy-tuned,search --games 2000 --seed 1 --out $(BOTS_DIR)/ladder-chachapoya

clean:
	rm -rf $(VENV) data
