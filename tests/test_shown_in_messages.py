"""Values, units and coders of the user's in messages are shown as a person reads them, never as numpy reprs
(``np.int64(1)``, ``np.float64(6.0)``): issue 28's words, for the messages that could still show one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import accord


def test_wide_layout_duplicate_unit_from_a_typed_column(tmp_path):
    path = tmp_path / "sheet.parquet"
    pd.DataFrame({"unit": [1, 1, 2], "a": ["x", "x", "y"], "b": ["y", "x", "y"]}).to_parquet(path)
    with pytest.raises(accord.AccordError) as err:
        accord.read(path, layout="wide", unit="unit")
    assert "unit 1 has two rows" in str(err.value) and "np." not in str(err.value)
    path = tmp_path / "floats.parquet"
    pd.DataFrame({"unit": [1.5, 1.5, 2.0], "a": ["x", "x", "y"], "b": ["y", "x", "y"]}).to_parquet(path)
    with pytest.raises(accord.AccordError, match=r"unit 1\.5 has two rows"):
        accord.read(path, layout="wide", unit="unit")


@pytest.mark.parametrize("cats", [np.array([1, 2]), np.array([1.0, 2.0])])
def test_categories_as_a_numpy_array(cats):
    data = accord.as_annotations([[1, 2, 3], [1, 2, 3]])
    msg = "categories: the data hold the value 3, which is not among the categories 1, 2"
    with pytest.raises(accord.AccordError) as err:
        accord.fleiss_kappa(data, categories=cats)
    assert str(err.value) == msg
    with pytest.raises(accord.AccordError) as err:
        accord.cohen_kappa(data, weights="linear", categories=cats)
    assert str(err.value) == msg
    with pytest.raises(accord.AccordError, match=r"^categories must not repeat a category; got 1, 1$"):
        accord.kappa_weights("linear", np.array([1, 1]))


def test_gamma_unit_positions():
    from accord.spans import Continuum

    with pytest.raises(accord.AccordError) as err:
        Continuum.from_arrays("d", ["A", "B"], ["A", "B"], [0, 6], [5, 5], ["x", "x"])
    assert str(err.value) == "document 'd', annotator 'B', unit 1 ('x', start=6, end=5): end < start"


def test_unit_of_an_incomplete_fleiss_table_with_numpy_units():
    data = accord.Annotations.from_records(
        pd.DataFrame({"unit": np.array([1.5, 1.5, 2.5, 2.5, 3.5]), "coder": list("ababa"), "value": [1, 1, 2, 1, 1]}),
        unit="unit", coder="coder", value="value")
    with pytest.raises(accord.AccordError, match=r"unit '3\.5' has 1 value, others up to 2"):
        accord.fleiss_kappa(data)
