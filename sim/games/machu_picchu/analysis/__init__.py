"""Machu Picchu's report pages: report.py holds the sections Machu Picchu asks `sim report` for
(`report_sections()`, the game's report hook)."""
from sim.games.machu_picchu.analysis.report import report_sections

__all__ = ["report_sections"]
