"""Tahuantinsuyu's report pages: report.py holds the sections it asks `sim report` for
(`report_sections()`, the game's report hook)."""
from sim.games.tahuantinsuyu.analysis.report import report_sections

__all__ = ["report_sections"]
