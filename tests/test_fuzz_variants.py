"""Hostile variant files (issue 5): every mutated parameter is refused before anything runs, with
one `error:` line naming the key, or it is a valid variant whose games play to the end.

The properties take a game's resolved defaults, change one leaf (or a few leaves within their
documented ranges) to a hypothesis-drawn value, and write the result as a variant file.
"""
from __future__ import annotations

import math
import tempfile
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from fuzz_helpers import (
    FUZZ, assert_user_error, dataset_is_complete, dotted, dumps, leaves, names_key, nest, run_cli, scalars,
    text, toml_value, wrong_values,
)
from sim.core import registry
from sim.core.errors import UserError
from sim.core.lineup import lineup_indices, seat_bot_matrix
from sim.core.params import format_key, merge_variant, resolve_variant_file, strip_provenance

GAMES = tuple(registry.game_names())  # every registered game is fuzzed
# Per game: the extra `sim run` options (Cuzco games are slow enough to check every step of two)
# and the checked games played at each player count for a valid variant.
RUN_EXTRA = {"cuzco": ["--checked"]}
VALID_GAMES = {"cuzco": 1}


def _defaults(name: str) -> dict:
    return strip_provenance(registry.get_game(name).resolve_params(None).resolved)


DEFAULTS = {name: _defaults(name) for name in GAMES}
LEAVES = {name: leaves(DEFAULTS[name]) for name in GAMES}


@st.composite
def one_leaf_mutation(draw, game_name: str):
    """(dotted path, variant dict) with one leaf of the defaults replaced by a hostile value."""
    path, default = draw(st.sampled_from(LEAVES[game_name]))
    value = draw(wrong_values(default))
    assume(not _same(value, default))
    return dotted(path), nest(path, value)


def _same(a, b) -> bool:
    return type(a) is type(b) and (a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)))


def _write(directory: Path, variant: dict, name: str = "mutant.toml") -> Path:
    path = directory / name
    path.write_text(dumps(variant), encoding="utf-8")
    return path


def _check_resolution(game, path: Path, key: str):
    """resolve_variant_file(path): Params, or a one-line UserError naming the file and the key."""
    try:
        return resolve_variant_file(game, path)
    except UserError as exc:
        message = str(exc)
        assert "\n" not in message, message
        assert str(path) in message, message
        assert names_key(message, key), (key, message)
        return None


# ------------------------------------------------------------------ the TOML writer itself
@FUZZ
@given(doc=st.recursive(
    st.dictionaries(text(0, 6), scalars, max_size=3),
    lambda inner: st.dictionaries(text(0, 6), st.one_of(inner, st.lists(scalars, max_size=3)), max_size=3),
    max_leaves=8))
def test_toml_writer_round_trips(doc):
    """The helper writes what tomllib reads back (NaN aside, which never equals itself)."""
    def norm(value):
        if isinstance(value, float) and math.isnan(value):
            return "NaN"
        if isinstance(value, dict):
            return {k: norm(v) for k, v in value.items()}
        if isinstance(value, list):
            return [norm(v) for v in value]
        return value

    assert norm(tomllib.loads(dumps(doc))) == norm(doc)


# ------------------------------------------------------------------ validation (fast, many examples)
@pytest.mark.parametrize("game_name", GAMES)
@settings(FUZZ, max_examples=300)
@given(data=st.data())
def test_one_mutated_leaf_is_refused_naming_the_key_or_valid(game_name, data):
    """One hostile leaf: a UserError naming the file and the key, or valid engine parameters."""
    key, variant = data.draw(one_leaf_mutation(game_name))
    game = registry.get_game(game_name)
    with tempfile.TemporaryDirectory() as tmp:
        params = _check_resolution(game, _write(Path(tmp), variant), key)
    event("valid" if params is not None else "refused")
    if params is not None:
        _assert_engine_ready(game, params)


def _assert_engine_ready(game, params) -> None:
    """Valid parameters give engine arrays of machine integers and at least one player count."""
    assert game.allowed_players(params)
    for array in params.engine if isinstance(params.engine, tuple) else (params.engine,):
        if isinstance(array, np.ndarray):
            assert array.dtype.kind in "iub", array.dtype


@pytest.mark.parametrize("game_name", GAMES)
@settings(FUZZ, max_examples=60)
@given(data=st.data())
def test_unknown_keys_are_named(game_name, data):
    """A key the defaults do not have, at the top or inside any table, is named in full."""
    tables = [()] + sorted({path[:i] for path, _ in LEAVES[game_name] for i in range(1, len(path))})
    prefix = data.draw(st.sampled_from(tables), label="table")
    key = data.draw(text(1, 12).filter(lambda k: k.strip() and "." not in k), label="key")
    table = DEFAULTS[game_name]
    for part in prefix:
        table = table[part]
    assume(key not in table and not (prefix == () and key == "name"))
    value = data.draw(scalars, label="value")
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), nest((*prefix, key), value))
        with pytest.raises(UserError) as info:
            resolve_variant_file(registry.get_game(game_name), path)
    assert f"unknown parameter '{'.'.join(map(format_key, (*prefix, key)))}'" in str(info.value)
    assert "\n" not in str(info.value)


@settings(FUZZ, max_examples=80)
@given(value=st.one_of(st.integers(min_value=2**63), st.integers(max_value=-(2**63) - 1),
                       st.sampled_from([math.nan, math.inf, -math.inf])),
       where=st.sampled_from(["rounds", "dice.bonus", "seat_bonus", "seat_bonus.nested"]))
def test_numbers_no_engine_can_hold_are_refused(game, value, where):
    """Beyond int64 or not finite, wherever it sits (a scalar, a float, inside a list): refused by
    the generic merge, naming the key (the fake game has a float parameter, dice.bonus)."""
    defaults = strip_provenance(game.resolve_params(None).resolved)
    if where == "seat_bonus":
        variant = {"seat_bonus": [0, value, 0, 0]}
    elif where == "seat_bonus.nested":
        variant = {"seat_bonus": [[value]]}
    else:
        variant = nest(tuple(where.split(".")), value)
    with pytest.raises(UserError) as info:
        merge_variant(defaults, variant, "variant file v.toml")
    message = str(info.value)
    assert "\n" not in message and len(message) < 300, message
    assert names_key(message, where.split(".nested")[0]), message


# ------------------------------------------------------------------ sim run end to end
def _run_property(capsys, game_name: str, key: str, variant: dict, extra: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        variant_file = _write(Path(tmp), variant)
        out = Path(tmp) / "out"
        status, stdout, err = run_cli(capsys, ["run", game_name, "--variant", str(variant_file), "--games", "2",
                                               "--out", str(out), "--no-progress", "--chunk-size", "2",
                                               "--workers", "1", *extra])
        event(f"exit {status}")
        if status == 0:
            assert err == "", err
            assert dataset_is_complete(out, 2)
            assert f"dataset: {out}" in stdout
        else:
            line = assert_user_error(status, err, str(variant_file))
            assert names_key(line, key), (key, line)
            assert not out.exists()


@pytest.mark.parametrize("game_name", GAMES)
@settings(FUZZ, max_examples=30)
@given(data=st.data())
def test_sim_run_with_a_mutated_variant(capsys, game_name, data):
    _run_property(capsys, game_name, *data.draw(one_leaf_mutation(game_name)), RUN_EXTRA.get(game_name, []))


@pytest.mark.parametrize("game_name", GAMES)
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_param_override_with_a_mutated_leaf(capsys, game_name, data):
    """`sim run GAME --param KEY=VALUE --games 0`: the override is checked like a variant file (its
    error names the key); a valid one ends at the --games check. Nothing is written either way."""
    key, variant = data.draw(one_leaf_mutation(game_name))
    path = key.split(".")
    value = variant
    for part in path:
        value = value[part]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        status, stdout, err = run_cli(capsys, ["run", game_name, "--param", f"{key}={toml_value(value)}", "--games", "0",
                                               "--out", str(out), "--no-progress"])
        line = assert_user_error(status, err)
        assert not out.exists()
    assert "--games must be at least 1" in line or names_key(line, key), (key, line)


# ------------------------------------------------------------------ valid variants play to the end
def _in_range_values(default):
    """Values near the default's scale, mostly inside the documented ranges."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        return st.one_of(st.integers(-2, 12), st.integers(0, 120), st.just(default))
    if isinstance(default, list) and default and all(isinstance(v, int) and not isinstance(v, bool)
                                                     for v in default):
        return st.lists(st.integers(0, 20), min_size=len(default), max_size=len(default))
    return st.just(default)


@st.composite
def valid_variant(draw, game_name: str):
    """A variant changing up to four leaves to plausible values that pass validation."""
    game = registry.get_game(game_name)
    chosen = draw(st.lists(st.sampled_from(LEAVES[game_name]), min_size=1, max_size=4,
                           unique_by=lambda leaf: leaf[0]))
    variant: dict = {}
    for path, default in chosen:
        table = variant
        for part in path[:-1]:
            table = table.setdefault(part, {})
        table[path[-1]] = draw(_in_range_values(default))
    try:
        params = game.resolve_params(variant, "fuzz")
    except UserError:
        assume(False)
    return variant, params


def _play_every_player_count(game_name: str, params, n_games: int) -> None:
    game = registry.get_game(game_name)
    for n_players in game.allowed_players(params):
        names, idx = lineup_indices(game.default_bots(n_players))
        for rotate in (False, True):
            result = game.simulate(params, n_players, names, seat_bot_matrix(idx, 0, n_games, rotate), 5, 0,
                                   n_games, checked=True)
            assert not result.failures, (n_players, result.failures[:3])


@pytest.mark.parametrize("game_name", GAMES)
@settings(FUZZ, max_examples=40)
@given(data=st.data())
def test_valid_variants_play_checked_games(game_name, data):
    """Whatever passes validation plays checked games at every player count without an error."""
    _play_every_player_count(game_name, data.draw(valid_variant(game_name))[1], VALID_GAMES.get(game_name, 6))


def test_chachapoya_counters_do_not_wrap_in_long_games():
    """A valid variant with many trackers: 2-player games run to the round limit, and the
    per-player counts (tracker pair cancels, cards played) must stay non-negative."""
    game = registry.get_game("chachapoya")
    params = game.resolve_params({"adventurer": {"tracker": {"count": 100}}}, "trackers")
    names, idx = lineup_indices(game.default_bots(2))
    result = game.simulate(params, 2, names, seat_bot_matrix(idx, 0, 100, True), 3, 0, 100)
    for column in ("tracker_pair_cancels", "played_tracker", "bids_won", "cards_drawn"):
        assert result.player_columns[column].min() >= 0, column


# ------------------------------------------------------------------ named cases, for the record
NAMED_BAD = [
    ("chachapoya", {"setup": {"hand_size": 30}}, "setup.hand_size"),  # 4 x 30 > the 50 adventurer cards
    ("chachapoya", {"setup": {"treasure_discard": {"2": 44}}}, "setup.treasure_discard.2"),  # > the 45 treasures
    ("chachapoya", {"treasure": {"gold": {"count": -1}}}, "treasure.gold.count"),
    ("chachapoya", {"adventurer": {"mafia": {"count": 10**6}}}, "adventurer.mafia.count"),
    ("chachapoya", {"setup": {"hand_size": True}}, "setup.hand_size"),
    ("chachapoya", {"setup": {"hand_size": "8"}}, "setup.hand_size"),
    ("chachapoya", {"treasure": {"gold": {"scale": {"a": 1}}}}, "treasure.gold.scale"),
    ("chachapoya", {"treasure": {"gold": {"scale": [1, 2.5]}}}, "treasure.gold.scale"),
    ("chachapoya", {"treasure": {"gold": {"scale": []}}}, "treasure.gold.scale"),
    ("chachapoya", {"treasure": {"gold": {"card_value": 2**31}}}, "treasure.gold.card_value"),  # was OverflowError
    ("chachapoya", {"rules": {"unresolved_leader_last_round": -(2**40)}}, "rules.unresolved_leader_last_round"),
    ("chachapoya", {"rules": {"round_limit": 2**64}}, "rules.round_limit"),
    ("chachapoya", {"rules": {"round_limit": math.nan}}, "rules.round_limit"),
    ("chachapoya", {"adventurer": {"tracker": {"count": 100, "hand_penalty": -100},
                                   "mafia": {"count": 100, "hand_penalty": -100}}}, "adventurer"),
    ("cuzco", {"rules": {"priests": 0}}, "rules.priests"),
    ("cuzco", {"rules": {"rounds": -6}}, "rules.rounds"),
    ("cuzco", {"rules": {"headdress_vp_by_round": [10, 10, 7]}}, "rules.headdress_vp_by_round"),
    ("cuzco", {"rules": {"headdress_vp_by_round": [10, 10, 7, 7, 4, 4, 1]}}, "rules.headdress_vp_by_round"),
    ("cuzco", {"rules": {"status_track_vp": list(range(41))}}, "rules.status_track_vp"),
    ("cuzco", {"rules": {"status_track_vp": [0, "1"]}}, "rules.status_track_vp[1]"),
    ("cuzco", {"setup": {"god_deal_per_pile": {"4": 0}}}, "setup.god_deal_per_pile.4"),
    ("cuzco", {"goods": {"soup": {"count": 30}}}, "goods"),  # more goods than market spaces
    ("cuzco", {"missions": {"general": [[["feathers_of_colour", 3, 7]]]}}, "missions.general"),  # no colour 7
    ("cuzco", {"missions": {"general": [[["goods_of_type", 2, 6]]]}}, "missions.general"),  # no good 6
    ("cuzco", {"missions": {"starting": [[["priests", 1, 0]]]}}, "missions.starting"),  # fewer than 4
    ("cuzco", {"roads": {"ways": {"a": 1}}}, "roads.ways"),
    ("cuzco", {"pututu": {"enabled": 1}}, "pututu.enabled"),
    ("cuzco", {"masks": {"feathers": [["pink"] * 12] * 3}}, "masks.feathers"),
]


@pytest.mark.parametrize("game_name, variant, key", NAMED_BAD, ids=[f"{g}:{k}" for g, _, k in NAMED_BAD])
def test_named_bad_values(capsys, game_name, variant, key):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        status, _, err = run_cli(capsys, ["run", game_name, "--variant", str(_write(Path(tmp), variant)),
                                          "--games", "2", "--out", str(out), "--no-progress"])
        line = assert_user_error(status, err, "mutant.toml")
        assert names_key(line, key), (key, line)
        assert not out.exists()
