"""Chachapoya (rulebook: ../shared/rules/chachapoya.md): components, state, rules, bots."""
from .game import Chachapoya

GAME = Chachapoya()
