"""Game packages. Each subpackage exposes `GAME` (see sim.core.game.Game); the registry finds them
here by iterating this package's path, so adding a game needs no change to the core."""
