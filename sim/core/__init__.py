"""Game-agnostic machinery: seeding, parameters, registry, runner, dataset writing, CLI support.

Nothing in this package imports a particular game; games plug in through `sim.core.game.Game`.
"""
