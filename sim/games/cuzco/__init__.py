"""Cuzco (Queen Games 2023) with its Pututu module."""
from .game import Cuzco

GAME = Cuzco()
