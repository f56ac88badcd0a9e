"""Command line: `sim run|sweep|robust|games|bots|replay|summary|compare|report|tune|tournament|ladder|balance|skill|search-map`.

commands.py holds the parser and the data commands, bots.py the bots' commands (tune, tournament,
ladder), balance.py the balance search, options.py what they share. Command-line code lives here and nowhere else: sim/core and
sim/analysis never import this package (tests/test_layering.py checks sim/core).
"""
from sim.cli.commands import DEFAULT_GAMES, build_parser, main
from sim.cli.options import DEFAULT_CHUNK_SIZE, MAX_SEED, OneLineParser, add_execution_options

__all__ = ["main", "build_parser", "OneLineParser", "add_execution_options", "DEFAULT_GAMES", "DEFAULT_CHUNK_SIZE",
           "MAX_SEED"]
