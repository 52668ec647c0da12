"""Ids are names (issue 29): unit and coder ids compare as text after one canonical form, and category labels
lose surrounding whitespace, in Annotations and in every table reader built on it."""

from __future__ import annotations

import json

import numpy as np
import pytest

import accord
from accord import AccordError, Annotations


def test_one_unit_whatever_the_json_type():
    data = Annotations.from_records([(1, "a", "x"), ("1", "b", "x"), (1.0, "c", "y"), (2, "a", "y")])
    assert data.n_units == 2
    assert data.units.tolist() == [1, 2]  # integral ids are shown as integers, without a .0


def test_surrounding_whitespace_of_ids_and_labels_is_not_a_new_coder_unit_or_label():
    data = Annotations.from_records([("u1", "ann1", "pos"), ("u1 ", " ann2", "pos "), (" u1", "ann1 ", "neg")],
                                    duplicates="last")
    assert data.units.tolist() == ["u1"]
    assert sorted(data.coders.tolist()) == ["ann1", "ann2"]
    assert sorted(data.values.tolist()) == ["neg", "pos"]


def test_internal_whitespace_is_kept():
    data = Annotations.from_records([("u 1", "ann 1", "very good"), ("u 1", "ann 2", "very  good")])
    assert data.units.tolist() == ["u 1"]
    assert sorted(data.values.tolist()) == ["very  good", "very good"]


def test_text_ids_that_are_not_integers_stay_text():
    data = Annotations.from_records([("007", "a", "x"), ("7", "a", "y"), (2.5, "a", "z")])
    assert sorted(data.units.tolist()) == ["007", "2.5", "7"]


def test_set_values_lose_surrounding_whitespace_of_their_elements():
    data = Annotations.from_records([("u1", "a", [" x", "y "]), ("u1", "b", ["x", "y"])])
    assert data.values.tolist() == [frozenset({"x", "y"})]


def test_unhashable_coder_names_the_file_and_line():
    with pytest.raises(AccordError, match=r"f\.jsonl, line 2: .*coder"):
        Annotations.from_records([("u1", "a", "x"), ("u1", {"k": 1}, "y")], source="f.jsonl", row_numbers=[1, 2])


def test_jsonl_table_one_unit_for_1_and_string_1(tmp_path):
    f = tmp_path / "t.jsonl"
    rows = [{"unit": 1, "coder": "a", "value": "x"}, {"unit": "1", "coder": "b", "value": "x"},
            {"unit": 2.0, "coder": "a", "value": "y"}, {"unit": " 2 ", "coder": "b", "value": "y"}]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    data = accord.read(f)
    assert data.n_units == 2
    assert data.units.tolist() == [1, 2]


def test_csv_trailing_space_is_not_a_new_coder(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("unit,coder,value\nu1,ann1,pos\nu1,ann2 ,pos \nu2,ann1 ,neg\nu2, ann2,neg\n")
    data = accord.read(f)
    assert sorted(data.coders.tolist()) == ["ann1", "ann2"]
    assert sorted(data.values.tolist()) == ["neg", "pos"]
    assert data.n_units == 2


def test_numeric_ids_stay_numbers_and_sort_as_numbers():
    data = Annotations.from_records([(10, "a", "x"), (2, "a", "y"), (np.int64(1), "a", "z")])
    assert data.units.tolist() == [1, 2, 10]


def test_tuple_ids_are_one_id_each():
    data = Annotations.from_records([((1, 2), "a", "x"), ((3, 4), "a", "y"), ((1, 2), "b", "x")])
    assert data.n_units == 2


def test_an_id_that_is_an_object_is_said_as_json(tmp_path):
    f = tmp_path / "d.jsonl"
    f.write_text('{"unit": 1, "coder": "a", "value": "x"}\n{"unit": 1, "coder": {"n": 1}, "value": "x"}\n')
    with pytest.raises(AccordError, match=r'd\.jsonl, line 2: the coder \{"n": 1\} is not a name'):
        accord.read(f)


def test_map_values_keeps_a_matrix_s_labels_as_given():
    data = Annotations.from_matrix([["x", "y"], ["x", None]], units=[" a", "b"], coders=["1", 2.0])
    mapped = data.map_values(str.upper)
    assert mapped.units.tolist() == [" a", "b"] and mapped.coders.tolist() == ["1", 2.0]
    assert mapped.to_matrix().tolist() == [["X", "Y"], ["X", None]]
