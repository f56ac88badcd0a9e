"""Analysis of the datasets `sim run` writes: tidy tables and matplotlib figures.

Every analysis function takes a `Dataset` (io.open_dataset) and returns a `Result` (table, figure).
Modules: io (reading, only the columns needed), winrates (seats, bots, balance, scores, length),
dice (Cuzco dice odds), cards (card strength), compare (two datasets; SPRT), report (notebooks to
HTML).
"""
