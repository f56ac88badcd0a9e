"""Cuzco's own analyses and report pages.

- dice.py: the dice odds (exact probabilities by enumeration next to the simulated frequencies;
  the Pututu tiles);
- report.py: the report sections Cuzco asks `sim report` for (`report_sections()`, the game's
  report hook: the main job's pages) and what Cuzco adds to the shared overview notebook
  (`overview_sections`, its dice).
"""
from sim.games.cuzco.analysis.report import overview_sections, report_sections

__all__ = ["report_sections", "overview_sections"]
