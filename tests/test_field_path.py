"""problems.field_path: the field every stage (strict YAML, JSON Schema, cross-file rules) names in a problem."""

from sitegen.problems import field_path


def test_keys_join_with_dots_and_indexes_in_brackets():
    assert field_path(("results", 2, "value")) == "results[2].value"
    assert field_path(["pricing", "input_per_mtok"]) == "pricing.input_per_mtok"
    assert field_path((0, "id")) == "[0].id"
    assert field_path(()) == ""


def test_a_limit_cuts_a_long_path_to_that_many_characters():
    deep = ("a",) + (0,) * 30  # "a" then thirty "[0]": 91 characters
    assert field_path(deep) == "a" + "[0]" * 30
    assert field_path(deep, limit=60) == ("a" + "[0]" * 30)[:57] + "..."
    assert len(field_path(deep, limit=60)) == 60
    assert field_path(("results", 2), limit=60) == "results[2]"  # within the limit: unchanged
