"""Each district's action (rulebook sections "Game Flow", "Production Areas", "Temples", "Watchman's
Hut and Royal Palace", "Priests' Area and Virgins' Area", "Central Plaza", "Sun Clock")."""
from __future__ import annotations

from machu_picchu_helpers import DISTRICT, GOOD, KIND, PARAMS, Table
from sim.games.machu_picchu import rules as R
from sim.games.machu_picchu import state as S


def _mask(*names):
    return sum(1 << GOOD[name] for name in names)


def _district_mask(*names):
    return sum(1 << DISTRICT[name] for name in names)


# ------------------------------------------------------------------ movement
def test_the_first_action_goes_anywhere_free_and_cannot_stay():
    """Game Flow: "On the first action of the game, a player may place their prince in any area"."""
    t = Table(4)
    n = R.list_moves(t.P, t.st, 0)
    assert t.options(n) == [(d, 0) for d in range(S.N_DISTRICTS)]


def test_a_prince_moves_to_a_neighbour_free_or_anywhere_else_for_a_llama():
    """Game Flow: adjacent districts free; any other district (not its own) for 1 llama; or stay."""
    t = Table(4)
    here = DISTRICT["house_of_priests"]
    t.set(0, S.P_PRINCE, here)
    neighbours = [d for d in range(S.N_DISTRICTS) if R.adjacent(t.P, here, d)]
    t.set_goods(0, corn=3)
    assert t.options(R.list_moves(t.P, t.st, 0)) == [(d, 0) for d in neighbours] + [(S.STAY, 0)]
    t.give(0, "llama", 1)
    options = t.options(R.list_moves(t.P, t.st, 0))
    assert len(options) == S.N_DISTRICTS  # 14 other districts and staying
    assert (here, 0) not in options and (here, 1) not in options
    assert all(jump == (0 if d in neighbours or d == S.STAY else 1) for d, jump in options)
    t.call(R.move_prince, 0, DISTRICT["sun_clock"], 1)
    assert t.goods(0, "llama") == 0 and t.at(0, S.P_PRINCE) == DISTRICT["sun_clock"]
    t.check()


# ------------------------------------------------------------------ production
def test_corn_terraces_first_entry_takes_the_corn_and_every_worker_makes_3():
    """Corn Terraces: the first prince takes all the corn there, and every player gets 3 corn for each
    own worker there; later entries the same day do nothing."""
    t = Table(4)
    for p in range(4):
        t.unplace_workers(p)
    t.move_worker(1, "corn_terraces", 2)
    t.move_worker(2, "corn_terraces", 1)
    corn = [t.goods(p, "corn") for p in range(4)]
    lying = int(t.st[S.S_DISTRICT + DISTRICT["corn_terraces"]])
    assert lying == 3
    t.call(R.enter_production, 0, DISTRICT["corn_terraces"])
    assert [t.goods(p, "corn") - corn[p] for p in range(4)] == [3, 6, 3, 0]
    t.check()
    t.call(R.enter_production, 3, DISTRICT["corn_terraces"])
    assert [t.goods(p, "corn") - corn[p] for p in range(4)] == [3, 6, 3, 0]


def test_other_production_costs_1_corn_per_good_at_the_owners_choice():
    """Llama's Meadow, ...: each worker may produce 1 good for 1 corn; a player choosing not to pay
    produces nothing. With 3 workers and 2 corn the choices are 0, 1 or 2."""
    t = Table(4)
    t.unplace_workers(1)
    t.move_worker(1, "llamas_meadow", 3)
    t.set_goods(1, corn=2)
    n = R.list_production(t.P, t.st, 1, DISTRICT["llamas_meadow"])
    assert [a for a, _ in t.options(n)] == [0, 1, 2]
    R.produce_goods(t.P, t.st, t.log, 1, DISTRICT["llamas_meadow"], 2)
    assert (t.goods(1, "corn"), t.goods(1, "llama")) == (0, 2)
    t.check()


def test_each_production_district_takes_its_own_good():
    """Production Areas: the first prince takes all the goods lying there, by type."""
    for name, good in (("llamas_meadow", "llama"), ("coca_plantation", "coca"), ("potters_quarter", "pottery"),
                       ("weavers_quarter", "cloth")):
        t = Table(4)
        for p in range(4):
            t.unplace_workers(p)
        before = t.goods(0, good)
        t.call(R.enter_production, 0, DISTRICT[name])
        assert t.goods(0, good) == before + 1
        assert int(t.st[S.S_DISTRICT + DISTRICT[name]]) == 0
        t.check()


# ------------------------------------------------------------------ temples
def test_llama_offerings_need_a_card_of_the_temple_one_llama_per_card():
    """Offerings at the Sun, Puma and Condor Temples: only with that temple's cards, 1 llama per card."""
    t = Table(4)
    t.give_priest(0, "sun", 2)
    t.set_goods(0, llama=5)
    assert [a for a, _ in t.options(R.list_llama_offerings(t.st, 0, KIND["sun"]))] == [0, 1, 2]
    t.set_goods(0, llama=1)
    assert [a for a, _ in t.options(R.list_llama_offerings(t.st, 0, KIND["sun"]))] == [0, 1]
    t.set_goods(1, llama=3)
    before = t.at(1, S.P_SCOUT)
    t.call(R.offer_llamas, 1, KIND["sun"])  # no Sun card: no offering, no question
    assert t.goods(1, "llama") == 3 and t.at(1, S.P_SCOUT) == before


def test_every_player_offers_in_turn_order_from_the_taker():
    """Temples: "Beginning with the player who took the temple stones and going clockwise, players take
    turns making offerings" (at the Main Temple everyone may offer)."""
    t = Table(4)
    for p in range(4):
        t.set_goods(p, llama=1, coca=1)
    t.call(R.enter_temple, 2, DISTRICT["main_temple"])
    offers = [row[0] for row in t.events(S.EV_OFFER)]
    assert offers == sorted(offers, key=lambda p: (p - 2) % 4)


def test_main_temple_offers_different_goods_2_steps_each_at_most_10():
    """Offerings at the Main Temple: different goods (3 corn count as one), 2 spaces each, at most 10."""
    t = Table(4)
    t.set_goods(0, corn=3, llama=1)
    masks = sorted(a for a, _ in t.options(R.list_main_offerings(t.P, t.st, 0)))
    assert masks == sorted([0, _mask("corn"), _mask("llama"), _mask("corn", "llama")])
    t.set_goods(0, corn=2, llama=1)
    assert sorted(a for a, _ in t.options(R.list_main_offerings(t.P, t.st, 0))) == [0, _mask("llama")]
    t.set_goods(0, corn=3, llama=2, coca=1, pottery=1, cloth=1)
    t.set(0, S.P_SCOUT, 0)
    t.call(R.offer_goods, 0, _mask("corn", "llama", "coca", "pottery", "cloth"))
    assert t.at(0, S.P_SCOUT) == 10
    assert [t.goods(0, g) for g in ("corn", "llama", "coca", "pottery", "cloth")] == [0, 1, 0, 0, 0]
    t.check()


# ------------------------------------------------------------------ Watchman's Hut and Royal Palace
def test_watchmans_hut_places_a_corn_farmer_and_a_llama_herder_at_their_costs():
    """Watchman's Hut: 1 llama + 1 pottery for the Corn Terraces, 3 corn + 1 coca for the Llama's
    Meadow; both at once, at most 1 each."""
    t = Table(4)
    allowed = _district_mask("corn_terraces", "llamas_meadow")
    t.set_goods(0, corn=3, llama=1, coca=1, pottery=1)
    options = sorted(a for a, _ in t.options(R.list_worker_placements(t.P, t.st, 0, allowed)))
    assert options == [0, _district_mask("corn_terraces"), _district_mask("llamas_meadow"), allowed]
    t.set_goods(0, llama=1, pottery=1)
    options = sorted(a for a, _ in t.options(R.list_worker_placements(t.P, t.st, 0, allowed)))
    assert options == [0, _district_mask("corn_terraces")]
    t.set_goods(0, corn=3, llama=1, coca=1, pottery=1)
    workers = t.at(0, S.P_FREE_WORKERS)
    R.hire_workers(t.P, t.st, t.log, 0, allowed)
    assert t.at(0, S.P_FREE_WORKERS) == workers - 2
    assert all(t.goods(0, g) == 0 for g in GOOD)
    t.check()


def test_a_worker_costs_exactly_the_printed_goods():
    """Watchman's Hut and Royal Palace costs, each worker alone."""
    costs = {"corn_terraces": {"llama": 1, "pottery": 1}, "llamas_meadow": {"corn": 3, "coca": 1},
             "coca_plantation": {"pottery": 1, "cloth": 1}, "potters_quarter": {"coca": 1, "cloth": 1},
             "weavers_quarter": {"coca": 1, "pottery": 1}}
    for district, cost in costs.items():
        t = Table(4)
        t.unplace_workers(0)
        t.set_goods(0, **cost)
        R.hire_workers(t.P, t.st, t.log, 0, _district_mask(district))
        assert all(t.goods(0, g) == 0 for g in GOOD)
        assert t.at(0, S.P_WORKERS + DISTRICT[district]) == 1
        short = dict(cost)
        short[next(iter(short))] -= 1
        t.set_goods(0, **short)
        assert not R.workers_affordable(t.P, t.st, 0, _district_mask(district))


def test_royal_palace_places_up_to_one_worker_on_each_of_three_districts():
    """Royal Palace: any of the three at the same time, at most 1 each; no more workers than unplaced."""
    t = Table(4)
    allowed = _district_mask("coca_plantation", "potters_quarter", "weavers_quarter")
    t.set_goods(0, coca=2, pottery=2, cloth=2)
    assert len(t.options(R.list_worker_placements(t.P, t.st, 0, allowed))) == 8
    t.set(0, S.P_FREE_WORKERS, 1)
    t.set(0, S.P_WORKERS + DISTRICT["corn_terraces"], PARAMS.resolved["setup"]["workers_per_player"]["4"] - 1)
    for d in range(S.N_PRODUCTION):
        if d != DISTRICT["corn_terraces"]:
            t.set(0, S.P_WORKERS + d, 0)
    assert len(t.options(R.list_worker_placements(t.P, t.st, 0, allowed))) == 4  # none, or one of three
    t.check()


# ------------------------------------------------------------------ Houses of Priests and Virgins
def test_house_of_priests_sells_one_condor_or_one_puma_card():
    """House of Priests: 1 cloth + 1 coca + 1 pottery for a Condor priest, 2 cloth + 1 coca + 1 pottery
    for a Puma priest; only one of the two."""
    t = Table(4)
    t.set_goods(0, cloth=2, coca=1, pottery=1)
    assert t.options(R.list_priest_purchases(t.P, t.st, 0, KIND["puma"], KIND["condor"])) == [
        (-1, 0), (KIND["puma"], 0), (KIND["condor"], 0)]
    t.set_goods(0, cloth=1, coca=1, pottery=1)
    assert t.options(R.list_priest_purchases(t.P, t.st, 0, KIND["puma"], KIND["condor"])) == [
        (-1, 0), (KIND["condor"], 0)]
    R.take_priest_card(t.P, t.st, t.log, 0, KIND["condor"])
    assert all(t.goods(0, g) == 0 for g in GOOD)
    assert t.at(0, S.P_PRIESTS + KIND["condor"]) == 1
    assert int(t.st[S.S_TAKEN + KIND["condor"]]) == 1  # the leftmost card
    t.check()


def test_house_of_virgins_sells_a_sun_card_until_the_row_is_empty():
    """House of Virgins: 3 cloth + 1 coca + 1 pottery; once all 6 are taken, none can be had."""
    t = Table(4)
    t.set_goods(0, cloth=3, coca=1, pottery=1)
    assert t.options(R.list_priest_purchases(t.P, t.st, 0, KIND["sun"], KIND["sun"])) == [(-1, 0), (KIND["sun"], 0)]
    t.give_priest(1, "sun", 6)
    assert t.options(R.list_priest_purchases(t.P, t.st, 0, KIND["sun"], KIND["sun"])) == [(-1, 0)]


def test_the_last_of_the_15_cards_ends_the_game_after_the_action():
    """Game End 1: all 15 priest and virgin cards taken; the game ends once that action is finished,
    scored without gold multipliers."""
    t = Table(4)
    t.give_priest(1, "sun", 6)
    t.give_priest(2, "puma", 5)
    t.give_priest(3, "condor", 3)
    t.set_goods(0, cloth=1, coca=1, pottery=1)
    assert int(t.st[S.S_END_PENDING]) == S.END_NONE
    R.take_priest_card(t.P, t.st, t.log, 0, KIND["condor"])
    assert int(t.st[S.S_END_PENDING]) == S.END_PRIESTS
    t.check()
    R.finish_game(t.P, t.st, t.log)
    assert int(t.st[S.S_END_REASON]) == S.END_PRIESTS
    assert all(t.at(p, S.P_MULTIPLIER) == 1 for p in range(4))


# ------------------------------------------------------------------ Central Plaza
def test_market_prices_after_setup_buy_at_5_sell_at_4():
    """Central Plaza and Setup: goods on 6 and 5; a purchase takes the bottom good and pays the number
    uncovered (5); a sale fills the next space from the top and is paid the number covered."""
    t = Table(4)
    column = PARAMS.resolved["market"]["llama"]
    llama = GOOD["llama"]
    assert int(t.st[S.S_MARKET + llama]) == 2 and column[:2] == [6, 5]
    assert R.buy_price(t.P, t.st, llama) == column[1]
    assert R.sell_price(t.P, t.st, llama) == column[2]
    t.set_goods(0, corn=10)
    R.trade(t.P, t.st, t.log, 0, llama, 1)
    assert (t.goods(0, "corn"), t.goods(0, "llama")) == (10 - column[1], 1)
    assert R.buy_price(t.P, t.st, llama) == column[0]
    R.trade(t.P, t.st, t.log, 0, llama, -1)
    assert t.goods(0, "corn") == 10 - column[1] + column[1]
    t.check()


def test_an_empty_column_sells_from_the_supply_at_6_and_a_full_one_buys_at_3():
    """Central Plaza: an empty column: from the supply for 6 corn; a full column: to the supply for 3."""
    t = Table(4)
    coca = GOOD["coca"]
    t.set_goods(0, corn=20, coca=4)
    R.trade(t.P, t.st, t.log, 0, coca, 1)
    R.trade(t.P, t.st, t.log, 0, coca, 1)
    assert int(t.st[S.S_MARKET + coca]) == 0
    supply = t.supply("coca")
    corn = t.goods(0, "corn")
    R.trade(t.P, t.st, t.log, 0, coca, 1)
    assert t.goods(0, "corn") == corn - 6 and t.supply("coca") == supply - 1
    for _ in range(4):
        R.trade(t.P, t.st, t.log, 0, coca, -1)
    assert int(t.st[S.S_MARKET + coca]) == 4
    corn, supply = t.goods(0, "corn"), t.supply("coca")
    R.trade(t.P, t.st, t.log, 0, coca, -1)
    assert t.goods(0, "corn") == corn + 3 and t.supply("coca") == supply + 1
    t.check()


def test_any_number_of_trades_and_one_price_nudge():
    """Central Plaza: buying and selling go on while the player likes (stop is always an option); before
    them one good may be added to or removed from a column (README ambiguity 7)."""
    t = Table(4)
    t.set_goods(0, corn=30, cloth=2)
    options = t.options(R.list_trades(t.P, t.st, 0))
    assert options[0] == (-1, 0)
    assert (GOOD["cloth"], -1) in options and (GOOD["llama"], 1) in options and (GOOD["llama"], -1) not in options
    nudges = t.options(R.list_price_nudges(t.P, t.st))
    assert len(nudges) == 1 + 2 * 4
    R.shift_market(t.st, t.log, 0, GOOD["pottery"], -1)
    assert R.buy_price(t.P, t.st, GOOD["pottery"]) == PARAMS.resolved["market"]["pottery"][0]
    t.check()


# ------------------------------------------------------------------ Sun Clock
def test_sun_clock_worker_returns_at_night_with_3_different_goods_and_3_steps():
    """Sun Clock: a worker moves from a production district; at night it comes back with 3 different
    goods (3 corn counting as one) and 3 steps of the scout."""
    t = Table(4)
    t.unplace_workers(0)
    t.move_worker(0, "coca_plantation")
    t.set(0, S.P_SCOUT, 0)
    t.call(R.send_worker_to_clock, 0, DISTRICT["coca_plantation"])
    assert (t.at(0, S.P_CLOCK_WORKERS), t.at(0, S.P_WORKERS + DISTRICT["coca_plantation"])) == (1, 0)
    before = [t.goods(0, g) for g in GOOD]
    free = t.at(0, S.P_FREE_WORKERS)
    t.st[S.S_SUN_HOLDER] = 0
    t.call(R.play_night, 1)
    gained = [t.goods(0, g) - b for g, b in zip(GOOD, before)]
    assert sum(1 for x in gained if x > 0) == 3
    assert all(x in (0, 1) for x in gained[1:]) and gained[0] in (0, 3)
    assert t.at(0, S.P_SCOUT) == 3
    assert (t.at(0, S.P_CLOCK_WORKERS), t.at(0, S.P_FREE_WORKERS)) == (0, free + 1)


def test_on_day_9_the_sun_clock_pays_at_once_and_the_worker_stays():
    """Final Day: the Sun Clock action gives its goods and steps immediately; the worker stays."""
    t = Table(4)
    t.st[S.S_DAY] = 9
    t.unplace_workers(0)
    t.move_worker(0, "corn_terraces")
    t.set(0, S.P_SCOUT, 0)
    t.call(R.send_worker_to_clock, 0, DISTRICT["corn_terraces"])
    assert (t.at(0, S.P_CLOCK_STAYING), t.at(0, S.P_CLOCK_WORKERS)) == (1, 0)
    assert t.at(0, S.P_SCOUT) == 3
    assert len(t.events(S.EV_CLOCK_GOODS)) == 1
    t.check()


def test_every_district_action_keeps_the_components():
    """Each district's action, taken by a random bot from a rich hand, creates and loses nothing."""
    for d in range(S.N_DISTRICTS):
        for seed in range(5):
            t = Table(4, seed=seed)
            t.set_goods(0, corn=9, llama=3, coca=3, pottery=3, cloth=3)
            t.give_priest(0, "sun")
            t.give_priest(0, "puma")
            t.give_priest(0, "condor")
            t.call(R.move_prince, 0, d, 0)
            t.check()
            assert int(t.st[S.S_VISITED + d]) == (1 if d <= DISTRICT["main_temple"] else 0)
