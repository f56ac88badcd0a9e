"""`sim value` (sim/studies/value.py) and the restriction it plays: a card forbidden to one seat
(Cuzco's gods.forbidden_by_seat) is never taken or played by that seat, while the others may."""
import numpy as np
import pandas as pd
import pytest

from cuzco_helpers import CARD, bots, clear_hand, give_card, set_face_up, table, weights
from sim.cli.commands import main
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.core.runner import run_chunk_in_memory
from sim.games.cuzco import GAME, data
from sim.games.cuzco import bots as B
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S
from sim.games.cuzco import weights as WT
from sim.studies.value import COLUMNS, read_table, restricted_runs, seat_block

CARD_COLUMNS = ("card_gained_", "card_played_", "card_medal_")


def forbidden_engine(seat, *cards):
    return GAME.resolve_params(data.forbid_variant(seat, list(cards)), "forbidden").engine


def test_restricted_seat_goes_round_the_table():
    """Game g restricts seat (g // block) % players: every seat as often, whatever the slicing."""
    block = seat_block(40, 4)
    assert block == 10
    seats = [s for s, first, n in restricted_runs(0, 40, 4, block) for _ in range(n)]
    assert [seats.count(s) for s in range(4)] == [10] * 4
    sliced = [s for a in range(0, 40, 7) for s, _, n in restricted_runs(a, min(7, 40 - a), 4, block) for _ in range(n)]
    assert sliced == seats
    assert seat_block(100_000, 4) == 100


def test_forbidden_card_is_never_dealt_to_the_seat():
    """Setup 15 deals two cards of different colours; a seat forbidden a card it would be dealt gets
    the reserve's next card instead (still two colours), and the other seats' deal is unchanged."""
    swapped = 0
    for seed in range(1, 30):
        _, base, _ = table(4, seed)
        dealt = [c for c in range(S.N_CARDS) if S.players(base)[0, S.P_DEALT + c]]
        card = dealt[0]
        P, st, _ = table(4, seed, P=forbidden_engine(0, S.CARD_NAMES[card]))
        hand = [c for c in range(S.N_CARDS) for _ in range(S.players(st)[0, S.P_HAND + c])]
        assert card not in hand and len(hand) == 2
        kept = dealt[1] if len(dealt) > 1 else dealt[0]
        reserve = [int(c) for c in base[S.S_GOD_DISCARD:S.S_GOD_DISCARD + base[S.S_GOD_DISCARD_N]]]
        if any(c != card and c // 3 != kept // 3 for c in reserve):  # a card of another colour to swap in
            assert hand[0] // 3 != hand[1] // 3, (seed, hand, reserve)
        assert np.array_equal(S.players(st)[1:4, S.P_HAND:S.P_HAND + S.N_CARDS],
                              S.players(base)[1:4, S.P_HAND:S.P_HAND + S.N_CARDS])
        assert R.check_components(P, st) == 0
        swapped += 1
    assert swapped > 20


def test_forbidden_card_cannot_be_paid_for_nor_taken():
    """A forbidden card in hand or face up (medal) cannot be paid for by that seat, the exchange and
    the fire blessing take another face-up card; another seat is unaffected."""
    P, st, side = table(4, 2, P=forbidden_engine(0, "jump"))
    for seat in (0, 1):
        clear_hand(st, seat)
        give_card(st, seat, "jump")
        S.players(st)[seat, S.P_MEDALS] = 1
    set_face_up(st, "jump")
    assert R.payment(st, 0, CARD["jump"], R.SRC_CARD) == R.SRC_NONE
    assert R.payment(st, 0, CARD["jump"], R.SRC_MEDAL) == R.SRC_NONE
    assert R.payment(st, 1, CARD["jump"], R.SRC_CARD) == R.SRC_CARD
    assert R.payment(st, 1, CARD["jump"], R.SRC_MEDAL) == R.SRC_MEDAL
    w = weights("balanced").copy()
    w[WT.W_CARD_PREF + CARD["jump"]] = 1e6  # the seat would take jump above all
    assert st[S.S_GOD_UP + R.god_pile_choice(P, st, 1, w)] == CARD["jump"]
    assert st[S.S_GOD_UP + R.god_pile_choice(P, st, 0, w)] != CARD["jump"]
    for god in range(S.N_GODS):  # only jump face up: seat 0 has nothing to take
        if god != CARD["jump"] // 3:
            st[S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]] = st[S.S_GOD_UP + god]
            st[S.S_GOD_DISCARD_N] += 1
            st[S.S_GOD_UP + god] = -1
    assert not R.exchange_allowed(P, st, 0, S.EX_GOD_CARD) and R.exchange_allowed(P, st, 1, S.EX_GOD_CARD)


def test_legal_turns_never_play_the_forbidden_card():
    """The enumerated phase-I turns (a random bot samples them) never play the forbidden card for
    the restricted seat, and do for another seat holding it."""
    P, st, side = table(4, 4, P=forbidden_engine(0, "jump"))
    for seat in (0, 1):
        clear_hand(st, seat)
        give_card(st, seat, "jump")
        S.players(st)[seat, S.P_DICE:S.P_DICE + 3] = (1, 2, 3)
    n = 4
    look, lside = S.new_state(n, False), S.new_side(n, False)
    kinds, Wb = bots(["random"] * n)
    played = {0: 0, 1: 0}
    for seat in (0, 1):
        for _ in range(300):
            opt = np.zeros(R.N_O, np.int64)
            best = np.zeros(R.N_O, np.int64)
            if B.choose_turn(P, st, look, *lside, seat, Wb[seat], kinds[seat], opt, best, False):
                played[seat] += int(R.plays(best, CARD["jump"]))
    assert played[0] == 0 and played[1] > 0


def test_forbidden_seat_never_takes_or_plays_it_in_whole_games():
    """A few whole games (default line-up, seats rotated): seat 2 forbidden double_people never gains
    or plays it; the other seats do."""
    params = GAME.resolve_params(data.forbid_variant(2, ["double_people"]), "forbidden")
    bot_names, lineup = lineup_indices(GAME.default_bots(4))
    _, players = run_chunk_in_memory(GAME, params, 4, bot_names, seat_bot_matrix(lineup, 0, 12, True), 5, 0, 12,
                                     checked=True)
    took = players[[p + "double_people" for p in CARD_COLUMNS]].sum(axis=1)
    assert took[players["seat"] == 2].sum() == 0
    assert took[players["seat"] != 2].sum() > 0


def run_value(tmp_path, name):
    out = tmp_path / name
    main(["value", "cuzco", "--group", "gods", "--games", "8", "--items", "double_people,jump", "--seed", "3",
          "--workers", "1", "--no-progress", "--out", str(out)])
    return pd.read_csv(out)


def test_sim_value_table_and_determinism(tmp_path, capsys):
    a = run_value(tmp_path, "a.csv")
    b = run_value(tmp_path, "b.csv")
    assert list(a.columns) == COLUMNS
    assert sorted(a["item"]) == ["double_people", "jump"]
    assert (a["restricted_took"] == 0).all() and (a["games"] <= 8).all()
    assert ((a["value_lo"] <= a["value"]) & (a["value"] <= a["value_hi"])).all()
    assert np.allclose(a["value"], a["base_wr"] - a["restricted_wr"])
    assert list(a["rank"]) == sorted(a["rank"])
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))
    out = capsys.readouterr().out
    assert "value (win-rate points lost without it)" in out and "win rate when held" in out


@pytest.mark.parametrize("args, message", [
    (["--group", "cards"], "cuzco has no card group 'cards' to value (known: gods)"),
    (["--group", "gods", "--items", "thunder"], "no item 'thunder'"),
    (["--group", "gods", "--games", "0"], "--games must be at least 1"),
    (["--group", "gods", "--out", "x.txt"], "give a .csv or .parquet file"),
    (["--group", "gods", "--players", "7"], "is played by 2, 3, 4 players, not 7"),
    (["--group", "gods", "--workers", "0"], "--workers must be at least 1"),
])
def test_sim_value_bad_input_is_one_line_exit_2(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["value", "cuzco", *args, "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error:") and message in err


def test_sim_value_unknown_game_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["value", "nogame", "--group", "gods"])
    assert exc.value.code == 2


# ------------------------------------------------------------------------------ --permute-seats
@pytest.fixture
def dicey_group(monkeypatch, with_fake_game):
    """The fake dice game with one card group: its item `bonus` forbidden costs the seat 3 points."""
    import fakegame
    from sim.core.params import ForbidGroup

    group = ForbidGroup("dice", ("bonus",), lambda seat, items: {"seat_bonus": [-3 * (s == seat) for s in range(4)]})
    monkeypatch.setattr(fakegame.FakeGame, "value_groups", (group,), raising=False)


def dicey_value(tmp_path, capsys, bots, *extra):
    out = tmp_path / f"{bots}{''.join(extra)}.csv"
    main(["value", "dicey", "--group", "dice", "--players", "4", "--bots", bots, "--games", "48", "--seed", "3",
          "--workers", "1", "--no-progress", "--out", str(out), *extra])
    return pd.read_csv(out).drop(columns="seconds"), capsys.readouterr().out


def test_sim_value_permute_seats_moves_only_a_mixed_line_ups_seats(dicey_group, tmp_path, capsys):
    """Permuted seats play other games than rotated ones for a mixed line-up (g,r,g,r is seated too),
    the same games for a mirror line-up; the table records the seating."""
    mixed = "greedy,greedy,random,random"
    rotated, printed = dicey_value(tmp_path, capsys, mixed)
    assert "seats rotated" in printed and not rotated["permute_seats"].any()
    permuted, printed = dicey_value(tmp_path, capsys, mixed, "--permute-seats")
    assert "48 games per item and 48 unrestricted, seats permuted" in printed and permuted["permute_seats"].all()
    outcome = ["base_wr", "restricted_wr", "changed_games"]
    assert not permuted[outcome].equals(rotated[outcome])
    mirror = [dicey_value(tmp_path, capsys, "random", *extra)[0] for extra in ((), ("--permute-seats",))]
    pd.testing.assert_frame_equal(mirror[0].drop(columns="permute_seats"), mirror[1].drop(columns="permute_seats"))
    assert mirror[0]["value"].iloc[0] > 0  # the bonus is worth something: the restriction was played
    older = tmp_path / "older.csv"  # a table from before the column still reads
    rotated.drop(columns="permute_seats").to_csv(older, index=False)
    assert "permute_seats" not in read_table(older).columns
