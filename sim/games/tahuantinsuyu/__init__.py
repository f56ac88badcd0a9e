"""Tahuantinsuyu (issue 16): Alan Ernstein, Hangman Games 2004 (Inca Empire, 2010), 3-4 players."""
from .game import Tahuantinsuyu

GAME = Tahuantinsuyu()
