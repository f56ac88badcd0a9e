"""Monte-Carlo balance analysis for board games."""

__version__ = "0.1.0"
