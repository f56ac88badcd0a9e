"""Studies: the commands that play many runs and read them together, built on the core.

`balance` (which value of a rule makes a metric fair), `tune` (a bot's weights by CMA-ES),
`tournament` (every line-up of a list of bots, and the ladder of rungs), `robust` (the game under
each alternative table of its reconstructed numbers), `bench` and `scalebench` (speed and memory).
A study may import anything of `sim.core`; no module of `sim.core` imports a study
(tests/test_layering.py checks both that and that the core's own imports form no circle).
"""
