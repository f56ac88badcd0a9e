# Developer entry points. The venv is (re)installed only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: setup run test bench clean

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

bench: $(STAMP)
	$(VENV)/bin/python -m sim.core.bench chachapoya --games 1000000 --players 4 --repeats 3

clean:
	rm -rf $(VENV) data
