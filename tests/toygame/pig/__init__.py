"""Pig, a toy dice game written only against the game contract (docs/adding-a-game.md).

On a turn a player rolls a die as often as they like, adding each roll to the turn total; a roll
of the bust face loses the turn total, holding banks it. The first to bank the target wins. It is
registered only in tests (tests/conftest.py), where the contract suite and every command run on it.
"""
from .game import Pig

GAME = Pig()
