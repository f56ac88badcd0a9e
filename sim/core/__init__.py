"""The contract and the runner, game-agnostic: seeding, parameters, registry, line-ups, runner,
backends, dataset writing.

Nothing in this package imports a particular game; games plug in through `sim.core.game.Game`. The
studies that play many runs (balance, tune, tournament, robust, bench) live in `sim.studies`, the
analyses in `sim.analysis`, the command line in `sim.cli`: all of them use the core, and the core
imports none of them (tests/test_layering.py).
"""
