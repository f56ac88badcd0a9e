"""Issue 36's heuristic terms (bots.py): `moon_best`, `gift`, `trail_end` and `deny`, each a direct
effect valued once per decision. Each is 0 in bots.toml [defaults], so every older bot plays the same
games (README "Issue 36: new terms"); here each is shown on a built state to change the choice the
way its rule says, and to leave it alone at 0."""
from __future__ import annotations

import numpy as np

from machu_picchu_helpers import DISTRICT, KIND, Table
from sim.games.machu_picchu import GAME
from sim.games.machu_picchu import bots as B
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S

TEMPLES = ("sun_temple", "puma_temple", "condor_temple", "main_temple")


def _weights(**terms):
    """trail-runner-chain-g1's weights with nothing but the district's direct effect left in an action
    (no flat moon or sun worth, no plaza bonus, no noise), and the terms given."""
    w = GAME.bots()["trail-runner-chain-g1"].weights.astype(np.float64).copy()
    for name in ("moon", "sun", "plaza", "noise", "clock"):
        w[S.WEIGHT_NAMES.index(name)] = 0.0
    for name, value in terms.items():
        w[S.WEIGHT_NAMES.index(name)] = value
    return w


def _quiet_table(stones=None):
    """Day begun, seat 0 holding nothing and with no worker out; every production district already
    entered today and the temples holding only the `stones` given, so an action is worth only what
    a test puts on the board."""
    t = Table(4)
    R.begin_day(t.st, t.log)
    t.set_goods(0)
    t.unplace_workers(0)
    for d in range(S.N_PRODUCTION):
        t.st[S.S_VISITED + d] = 1
    for name in TEMPLES:
        t.st[S.S_DISTRICT + DISTRICT[name]] = (stones or {}).get(name, 0)
    return t


def _choice(t, w):
    """The district seat 0's action takes (STAY for a moon tile), with its values."""
    B.put_weights_print(t.st, 0, w)
    n_options = R.list_moves(t.P, t.st, 0)
    out = np.zeros(n_options, np.float64)
    B.option_values(t.P, t.st, w, 0, S.DEC_ACTION, n_options, out)
    i = B.choose(t.P, t.st, t.stream, S.KIND_FAST, w, 0, S.DEC_ACTION, n_options)
    return t.options(n_options)[i][0], dict(zip((a for a, _ in t.options(n_options)), out))


def test_moon_best_values_staying_by_the_best_tile_still_beside_the_moon():
    """End of a Day: "When a prince stays in its area, its player takes 1 moon tile"; Night Phase,
    Moon Tiles: its holder moves the scout its steps (or takes its good or 3 corn). With `moon_best` 1
    staying is worth the best use of the best tile left, so a bot for which no move is worth anything
    stays; the tile's worth follows the tiles left. moon_best 0 keeps the flat moon weight."""
    t = _quiet_table()
    t.set(0, S.P_PRINCE, DISTRICT["central_plaza"])
    assert _choice(t, _weights())[0] != S.STAY  # every option 0: the first listed, a move
    choice, values = _choice(t, _weights(moon_best=1.0))
    assert choice == S.STAY
    w = _weights(moon_best=1.0)
    B.begin_decision(t.P, t.st, w, 0, S.DEC_ACTION, 0)
    tiles = range(int(t.st[S.S_N_MOON]))
    assert values[S.STAY] == max(B.best_moon_use(t.P, t.st, w, 0, m) for m in tiles)
    for m in tiles:  # the best tiles taken: staying brings less
        if B.best_moon_use(t.P, t.st, w, 0, m) == values[S.STAY]:
            t.st[S.S_MOON_HOLDER + m] = 3
    assert _choice(t, w)[1][S.STAY] < values[S.STAY]
    assert _choice(t, _weights())[1][S.STAY] == 0.0


def test_gift_counts_the_offerings_a_first_temple_entry_lets_the_others_make():
    """Temples: the first prince in takes the stones, then "players take turns making offerings"; Sun,
    Puma and Condor: each card holder pays 1 llama a card for the row's steps. Two temples with one
    stone each are worth the same to a player with no card; with `gift` the one where another player
    holds 2 Sun cards and 2 llamas costs what they gain (2 x (step x the row's number - a llama)), so
    the bot enters the other. gift 0 takes the first listed, the Sun Temple."""
    t = _quiet_table({"sun_temple": 1, "puma_temple": 1})
    t.give_priest(1, "sun", 2)
    t.set_goods(1, llama=2)
    sun, puma = DISTRICT["sun_temple"], DISTRICT["puma_temple"]
    choice, values = _choice(t, _weights())
    assert choice == sun and values[sun] == values[puma]
    w = _weights(gift=1.0)
    choice, values = _choice(t, w)
    steps = S.smallest_uncovered(t.P, KIND["sun"], int(t.st[S.S_TAKEN + KIND["sun"]]))
    lost = 2 * (w[S.W_STEP] * steps - w[S.W_GOODS + S.LLAMA])
    assert lost > 0
    assert choice == puma and abs(values[puma] - values[sun] - lost) < 1e-9


def test_trail_end_keeps_the_stable_on_the_last_day_rather_than_pass_the_summit():
    """Final Day: no night follows day 9; Scoring and Gold: a scout on the Llama Stable's spaces (13-19)
    scores 2 points and 2 gold; Inca Trail: the summit draws cards and the scout goes on from 0. On
    the last day, a scout on 15 taking 2 stones (6 steps) passes the summit and loses the Stable for a
    summit's card; 1 stone (3 steps) stays on it. With trail_end 5 (points and gold worth 1 each, a
    step 0.5) the bot takes the single stone; trail_end 0 takes the 6 steps, and so does trail_end 5
    on any other day."""
    t = _quiet_table({"sun_temple": 1, "puma_temple": 2})
    t.set(0, S.P_SCOUT, 15)
    t.st[S.S_DAY] = t.P[S.R_LAST_DAY]
    sun, puma = DISTRICT["sun_temple"], DISTRICT["puma_temple"]
    flat = dict(step=0.5, card_icon=1.0, card_gold=1.0)
    assert _choice(t, _weights(**flat))[0] == puma
    assert B.summit_gold(t.P) < 4  # a summit's best of 3 cards: less gold and points than the Stable's
    assert _choice(t, _weights(trail_end=5.0, **flat))[0] == sun
    t.st[S.S_DAY] = t.P[S.R_LAST_DAY] - 1
    assert _choice(t, _weights(trail_end=5.0, **flat))[0] == puma


def test_summit_gold_is_the_expected_most_gold_of_a_summits_draw():
    """Inca Trail: a summit draws 3 offering cards; summit_gold is the expected largest gold among 3
    cards drawn from the whole deck, worked out here by counting every draw."""
    from itertools import combinations
    P = Table(4).P
    golds = [int(S.card_field(P, c, S.CF_GOLD)) for c in range(int(P[S.H_N_CARDS]))]
    draws = list(combinations(golds, int(P[S.R_SUMMIT_DRAW])))
    assert abs(B.summit_gold(P) - sum(max(d) for d in draws) / len(draws)) < 1e-9


def test_deny_takes_the_stones_the_next_player_can_reach():
    """Game Flow: players act clockwise, a prince enters an adjacent area free; Temples: the first
    prince in takes the stones. Two temples with 2 stones each are worth the same to seat 0; with
    `deny` the one seat 1's prince reaches free (the other it cannot) is worth also what seat 1 would
    lose, so seat 0 takes it. deny 0 takes the first listed, and ignores where seat 1 stands."""
    t = _quiet_table({"sun_temple": 2, "puma_temple": 2})
    sun, puma = DISTRICT["sun_temple"], DISTRICT["puma_temple"]
    near_puma = next(d for d in range(S.N_DISTRICTS) if d != puma and d != sun
                     and S.adjacent(t.P, d, puma) and not S.adjacent(t.P, d, sun))
    t.set(1, S.P_PRINCE, near_puma)
    choice, values = _choice(t, _weights())
    assert choice == sun and values[sun] == values[puma]
    w = _weights(deny=1.0)
    choice, values = _choice(t, w)
    stones = w[S.W_STEP] * t.P[S.R_STONE_STEPS] * 2
    assert choice == puma and abs(values[puma] - values[sun] - stones) < 1e-9
    t.set(1, S.P_PRINCE, S.NOWHERE)  # seat 1 reaches both: taking either leaves it the other
    assert _choice(t, w)[1][puma] == _choice(t, w)[1][sun]
