"""Machu Picchu (issue 15): The Princes of Machu Picchu, Mac Gerdts, PD-Verlag 2008, 2-5 players."""
from .game import MachuPicchu

GAME = MachuPicchu()
