"""Cuzco's god cards as data (issue 37): each card's copies and its printed cost are parameters a
variant sets ([gods.cards.NAME] copies / offerings), rulebook "Layout and Explanation of God
Cards" (60 cards, each ability on 4; Cost: 1 offering)."""
from collections import Counter

import pytest

from cuzco_helpers import CARD, clear_hand, engine, give_card, table
from sim.cli.commands import main
from sim.core.errors import UserError
from sim.core.params import resolve_variant_file
from sim.core.runner import run_chunk_in_memory
from sim.games.cuzco import GAME
from sim.games.cuzco import rules as R
from sim.games.cuzco import state as S

DOUBLED = "variants/cuzco-double-people-doubled.toml"
DEARER = "variants/cuzco-double-people-dearer.toml"


def every_card(st):
    """Counter of card abilities over the piles, the display, the discard pile and every hand."""
    n = st[S.S_N_PLAYERS]
    seen = Counter()
    for god in range(S.N_GODS):
        base = S.S_GOD_PILES + god * S.GOD_PILE_SLOTS
        seen.update(int(c) for c in st[base:base + st[S.S_GOD_PILE_N + god]])
        if st[S.S_GOD_UP + god] >= 0:
            seen[int(st[S.S_GOD_UP + god])] += 1
    seen.update(int(c) for c in st[S.S_GOD_DISCARD:S.S_GOD_DISCARD + st[S.S_GOD_DISCARD_N]])
    for p in range(n):
        for c in range(S.N_CARDS):
            seen[c] += int(S.players(st)[p, S.P_HAND + c])
    return seen


def test_printed_deck_is_four_of_each_card():
    """Layout of God Cards: 60 god cards, 12 of each god, each ability on 4 cards."""
    P, st, _ = table(4, 3)
    assert every_card(st) == Counter({c: 4 for c in range(S.N_CARDS)})
    assert R.check_components(P, st) == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_variant_file_doubles_double_people(seed):
    """The variant file alone (variants/cuzco-double-people-doubled.toml) puts 8 double_people
    cards in the game: Iliapa's pile holds 16 cards, every other card stays at 4."""
    params = resolve_variant_file(GAME, DOUBLED)
    assert params.resolved["gods"]["cards"]["double_people"]["copies"] == 8
    P, st, _ = table(4, seed, P=params.engine)
    counts = every_card(st)
    assert counts[CARD["double_people"]] == 8
    assert all(counts[c] == 4 for c in range(S.N_CARDS) if c != CARD["double_people"])
    assert R.check_components(P, st) == 0


def test_doubled_variant_runs_from_the_file_alone(tmp_path):
    """`sim run cuzco --variant FILE` plays the doubled game (a few games, components checked)."""
    main(["run", "cuzco", "--variant", DOUBLED, "--games", "4", "--workers", "1", "--checked", "--no-progress",
          "--out", str(tmp_path / "run")])
    assert (tmp_path / "run" / "manifest.json").exists()


def test_removed_card_never_appears():
    """copies = 0 removes a card: it is in no pile or hand at setup, and across a few whole games no
    player gains or plays it (the others' cards are as printed)."""
    params = GAME.resolve_params({"gods": {"cards": {"jump": {"copies": 0}}}}, "no jump")
    for seed in (1, 2):
        P, st, _ = table(4, seed, P=params.engine)
        assert every_card(st)[CARD["jump"]] == 0
        assert R.check_components(P, st) == 0
    from sim.core.lineup import lineup_indices, seat_bot_matrix
    bot_names, lineup = lineup_indices(GAME.default_bots(4))
    _, players = run_chunk_in_memory(GAME, params, 4, bot_names, seat_bot_matrix(lineup, 0, 6, True), 11, 0, 6,
                                     checked=True)
    assert players[["card_gained_jump", "card_played_jump", "card_medal_jump"]].to_numpy().sum() == 0
    assert players["card_gained_virtual_six"].sum() > 0


def test_dearer_card_costs_its_offerings():
    """[gods.cards.double_people] offerings = 2 (variants/cuzco-double-people-dearer.toml): playing it
    from the hand needs and spends 2 offerings (Cost, printed 1), back to the common supply;
    another card still costs 1."""
    params = resolve_variant_file(GAME, DEARER)
    P, st, side = table(4, 1, P=params.engine)
    pl = S.players(st)
    clear_hand(st, 0)
    give_card(st, 0, "double_people")
    give_card(st, 0, "jump")
    pl[0, S.P_MEDALS] = 0
    move = 1 - pl[0, S.P_OFFERINGS]
    pl[0, S.P_OFFERINGS] += move
    st[S.S_OFFERING_SUPPLY] -= move
    assert R.card_cost(st, CARD["double_people"]) == 2 and R.card_cost(st, CARD["jump"]) == 1
    assert R.payment(st, 0, CARD["double_people"], R.SRC_CARD) == R.SRC_NONE
    assert R.payment(st, 0, CARD["jump"], R.SRC_CARD) == R.SRC_CARD
    pl[0, S.P_OFFERINGS] += 1
    st[S.S_OFFERING_SUPPLY] -= 1
    supply = st[S.S_OFFERING_SUPPLY]
    assert R.payment(st, 0, CARD["double_people"], R.SRC_CARD) == R.SRC_CARD
    R.play_card(st, *side, 0, CARD["double_people"], R.SRC_CARD)
    assert pl[0, S.P_OFFERINGS] == 0 and st[S.S_OFFERING_SUPPLY] == supply + 2
    assert R.check_components(P, st) == 0


def test_printed_cost_is_read_from_params():
    """Every card's cost comes from gods.cards.NAME.offerings (printed 1)."""
    P, st, _ = table(4, 1, P=engine({"gods": {"cards": {"jump": {"offerings": 3}}}}))
    assert [R.card_cost(st, c) for c in range(S.N_CARDS)] == [3 if c == CARD["jump"] else 1
                                                               for c in range(S.N_CARDS)]


@pytest.mark.parametrize("variant, message", [
    ({"gods": {"cards": {"jump": {"copies": 9}}}}, "gods.cards.jump.copies must be a whole number from 0 to 8 (got 9)"),
    ({"gods": {"cards": {"jump": {"offerings": -1}}}}, "gods.cards.jump.offerings must be a whole number from 0 to 5"),
    ({"gods": {"forbidden_by_seat": [["thunder"], [], [], []]}}, "gods.forbidden_by_seat must be one of"),
    ({"gods": {"forbidden_by_seat": [[], []]}}, "gods.forbidden_by_seat must list 4 lists of card names"),
    ({"gods": {"cards": {name: {"copies": 0} for name in S.CARD_NAMES}}}, "gods.cards leave 0 cards to deal"),
])
def test_bad_card_data_names_the_key(variant, message):
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.resolve_params(variant, "v")


def test_unknown_card_gets_did_you_mean():
    with pytest.raises(UserError, match="did you mean 'gods.cards.double_people'"):
        GAME.resolve_params({"gods": {"cards": {"double_peeple": {"copies": 2}}}}, "v")


def test_sim_params_lists_the_card_keys(capsys):
    main(["params", "cuzco", "gods.cards"])
    out = capsys.readouterr().out
    for name in S.CARD_NAMES:
        assert f"gods.cards.{name}.copies" in out and f"gods.cards.{name}.offerings" in out
    assert "0 to 8" in out and "printed (Layout of God Cards" in out
