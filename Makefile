# Developer entry points. The venv is (re)installed only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: setup run test bench bench-chachapoya bench-cuzco clean

setup: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/python -m pip install -e ".[test]"
	touch $(STAMP)

run: $(STAMP)
	rm -rf data/chachapoya-main
	$(VENV)/bin/sim run chachapoya --players 4 --games 1000000 --rotate-seats --out data/chachapoya-main

# pytest exits 5 when it collects no tests; any non-zero status fails the target.
test: $(STAMP)
	$(VENV)/bin/python -m pytest -q

bench: bench-chachapoya bench-cuzco

bench-chachapoya: $(STAMP)
	$(VENV)/bin/python -m sim.core.bench chachapoya --games 1000000 --players 4 --repeats 3

# Cuzco's heuristic bots look ahead over every legal option: about 3 ms a game per core, so the
# benchmark plays 20,000 games (plain Python: 3 games).
bench-cuzco: $(STAMP)
	$(VENV)/bin/python -m sim.core.bench cuzco --games 20000 --players 4 --repeats 3 --nojit-games 3

clean:
	rm -rf $(VENV) data
