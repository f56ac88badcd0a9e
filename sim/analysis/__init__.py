"""Analysis of the datasets `sim run` writes: tidy tables and matplotlib figures.

Every analysis function takes a `Dataset` (io.open_dataset) and returns a `Result` (table, figure).
Modules: io (reading, only the columns needed), winrates (seats, bots, balance, scores, length),
cards (card strength), compare (two datasets), sprt (sequential test of a variant), sweep (the
cells of a sweep), tournament (tournaments, skill ladders, tuned bots), report (notebooks to HTML;
the report sections every game asks for). These modules know no game by name: an analysis of one
game lives in its folder (Cuzco's dice odds: sim/games/cuzco/analysis/dice.py).
"""
