import pytest

from sim.core.errors import UserError
from sim.core.params import load_toml, load_variant, merge_variant, resolve_variant_file, strip_provenance

DEFAULTS = {
    "rounds": 5,
    "rate": 0.5,
    "fast": False,
    "label": "x",
    "costs": [1.0, 2.0],
    "treasure": {"gold": {"value": 3, "source": {"page": "rulebook p.4"}}},
}


def test_merge_overrides_nested_value_and_leaves_defaults_untouched():
    merged = merge_variant(DEFAULTS, {"treasure": {"gold": {"value": 4}}}, "variant file v.toml")
    assert merged["treasure"]["gold"]["value"] == 4
    assert DEFAULTS["treasure"]["gold"]["value"] == 3
    assert merged["treasure"]["gold"]["source"] == {"page": "rulebook p.4"}


def test_int_accepted_for_float_and_lists_replaced_wholesale():
    merged = merge_variant(DEFAULTS, {"rate": 1, "costs": [5, 6, 7]}, "v")
    assert merged["rate"] == 1.0 and isinstance(merged["rate"], float)
    assert merged["costs"] == [5.0, 6.0, 7.0]


def test_unknown_key_is_named_with_its_full_path():
    with pytest.raises(UserError, match=r"^variant file v.toml: unknown parameter 'treasure.gold.valeu'; did you mean 'treasure.gold.value'\? "):
        merge_variant(DEFAULTS, {"treasure": {"gold": {"valeu": 4}}}, "variant file v.toml")


@pytest.mark.parametrize("key, value", [
    ("rounds", 2.5), ("rounds", True), ("fast", 1), ("label", 3), ("costs", "a"), ("treasure", 1),
])
def test_type_mismatch_names_the_key(key, value):
    with pytest.raises(UserError, match=f"parameter '{key}' must be"):
        merge_variant(DEFAULTS, {key: value}, "v")


def test_list_element_type_is_checked():
    with pytest.raises(UserError, match=r"'costs\[1\]' must be a float"):
        merge_variant(DEFAULTS, {"costs": [1.0, "two"]}, "v")


def test_source_tables_cannot_be_overridden():
    with pytest.raises(UserError, match="'treasure.gold.source'"):
        merge_variant(DEFAULTS, {"treasure": {"gold": {"source": {"page": "mine"}}}}, "v")


def test_strip_provenance_removes_source_tables():
    assert "source" not in strip_provenance(DEFAULTS)["treasure"]["gold"]


def test_broken_toml_is_one_line_naming_file_and_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("rounds = 3\nrate = = 2\n")
    with pytest.raises(UserError) as info:
        load_toml(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message and "line 2" in message


def test_missing_file(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        load_toml(tmp_path / "absent.toml")


def test_variant_name_defaults_to_stem_and_is_stripped(tmp_path):
    path = tmp_path / "cheap-gold.toml"
    path.write_text("rounds = 3\n")
    assert load_variant(path) == ("cheap-gold", {"rounds": 3})
    path.write_text('name = "Cheap gold"\nrounds = 3\n')
    assert load_variant(path) == ("Cheap gold", {"rounds": 3})


def test_resolve_variant_file_names_the_file(tmp_path, game):
    path = tmp_path / "v.toml"
    path.write_text("[dice]\nsidez = 4\n")
    with pytest.raises(UserError, match=f"^variant file {path}: unknown parameter 'dice.sidez'; did you mean 'dice.sides'\\? "):
        resolve_variant_file(game, path)
    path.write_text("[dice]\nsides = 1\n")
    with pytest.raises(UserError, match=f"^variant file {path}: .*dice.sides must be at least 2"):
        resolve_variant_file(game, path)
    path.write_text("rounds = 2\n")
    params = resolve_variant_file(game, path)
    assert params.variant_name == "v" and params.resolved["rounds"] == 2


def test_unknown_key_far_from_every_key_gets_no_suggestion():
    """Issue 37, wall 3: a suggestion only when a key is close (difflib); the listing is named either way."""
    with pytest.raises(UserError, match=r"unknown parameter 'zzzzzz' \(sim params GAME lists every key\)$"):
        merge_variant(DEFAULTS, {"zzzzzz": 4}, "v")
