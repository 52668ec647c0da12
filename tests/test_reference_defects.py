"""The defects issue 30 found by running accord against the reference implementations, each pinned.

- Brennan-Prediger and Conger's kappa refused data whose value table holds a value no rating uses (a count
  table's zero column, the data after :meth:`Annotations.select_coders`).
- Cohen's kappa read a non-symmetric weight matrix one way for observed agreement and the other for chance
  agreement; Cohen (1968) lets weights have a direction (w[k, l]: the first coder's k against the second's
  l), and irrCAC's table functions (``irrCAC.table.CAC.cohen``) read it so.
- ``select_coders`` took only a boolean mask; ``cohen_kappa(..., categories=)`` checked the categories
  against every coder rather than the two compared.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import accord
from accord import AccordError, Annotations

irrcac_table = pytest.importorskip("irrCAC.table")
pytestmark = pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")


def _table_cac(table: np.ndarray, weights) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return irrcac_table.CAC(pd.DataFrame(table), weights=weights, digits=20)


# ------------------------------------------------------------------ unused values in the value table
@pytest.mark.parametrize("func", [accord.brennan_prediger, accord.conger_kappa])
def test_a_count_table_with_a_zero_column(func):
    with_zero = Annotations.from_counts([[3, 0, 0], [1, 2, 0], [0, 3, 0], [2, 1, 0]], categories=[1, 2, 3])
    without = Annotations.from_counts([[3, 0], [1, 2], [0, 3], [2, 1]], categories=[1, 2])
    assert func(with_zero).kappa == pytest.approx(func(without).kappa, abs=1e-15)
    # the zero column named as a category counts in q, as a category nobody chose
    assert func(with_zero, categories=[1, 2, 3]).n_categories == 3


@pytest.mark.parametrize("func", [accord.brennan_prediger, accord.conger_kappa])
def test_after_selecting_coders(func):
    data = Annotations.from_matrix([["a", "b", "a", "a"], ["a", "b", "b", "a"], ["c", "c", "c", "c"]])
    two = Annotations.from_matrix([["a", "b", "a", "a"], ["a", "b", "b", "a"]])
    got = func(data.select_coders([True, True, False]))
    assert got.kappa == pytest.approx(func(two).kappa, abs=1e-15)
    assert got.categories == ("a", "b")


# ------------------------------------------------------------------ directional weights (Cohen 1968)
def test_directional_weights_read_one_way_as_irrcac_table():
    rng = np.random.default_rng(7)
    for _ in range(20):
        q = int(rng.integers(2, 6))
        table = rng.integers(0, 9, size=(q, q))
        table[0, 0] += 1
        w = rng.random((q, q))
        np.fill_diagonal(w, 1.0)
        ref = _table_cac(table, w).cohen()["est"]
        got = accord.cohen_kappa(Annotations.from_confusion(table), weights=w, categories=list(range(q)))
        assert got.kappa == pytest.approx(ref["coefficient_value"], abs=1e-12)
        assert got.observed_agreement == pytest.approx(ref["pa"], abs=1e-12)
        assert got.expected_agreement == pytest.approx(ref["pe"], abs=1e-12)


def test_directional_weights_follow_the_coders_order():
    table = np.array([[5, 3, 0], [0, 4, 2], [1, 0, 6]])
    w = np.array([[1.0, 0.9, 0.0], [0.1, 1.0, 0.9], [0.0, 0.1, 1.0]])
    data = Annotations.from_confusion(table)
    forward = accord.cohen_kappa(data, weights=w, categories=[0, 1, 2])
    backward = accord.cohen_kappa(data, weights=w, categories=[0, 1, 2], coders=("columns", "rows"))
    transposed = accord.cohen_kappa(Annotations.from_confusion(table.T), weights=w, categories=[0, 1, 2])
    assert backward.kappa == pytest.approx(transposed.kappa, abs=1e-15)
    assert forward.kappa != pytest.approx(backward.kappa, abs=1e-6)
    # the chance and observed terms use the same reading: the symmetric part gives the mean of the two
    sym = accord.cohen_kappa(data, weights=(w + w.T) / 2, categories=[0, 1, 2])
    assert sym.observed_agreement == pytest.approx((forward.observed_agreement + backward.observed_agreement) / 2)


def test_symmetric_weights_unchanged():
    table = np.array([[5, 3, 0], [0, 4, 2], [1, 0, 6]])
    ref = _table_cac(table, "quadratic").cohen()["est"]
    got = accord.cohen_kappa(Annotations.from_confusion(table), weights="quadratic", categories=[0, 1, 2])
    assert got.kappa == pytest.approx(ref["coefficient_value"], abs=1e-12)
    assert got.standard_error == pytest.approx(ref["se"], abs=1e-12)


def test_from_confusion_keeps_the_rows_coder_first():
    data = Annotations.from_confusion([[3, 1], [0, 4]])
    assert data.coders.tolist() == ["rows", "columns"]


# ------------------------------------------------------------------ select_coders and categories=
def test_select_coders_by_names():
    data = Annotations.from_records([("u1", "ann", "a"), ("u1", "bob", "a"), ("u1", "cy", "b"),
                                     ("u2", "ann", "b"), ("u2", "bob", "b"), ("u2", "cy", "b")])
    by_name = data.select_coders(["ann", "cy"])
    by_mask = data.select_coders([True, False, True])
    assert by_name.to_matrix().tolist() == by_mask.to_matrix().tolist()
    assert by_name.n_entries == 4
    with pytest.raises(AccordError, match="'dan' is not a coder in the data; the coders are 'ann', 'bob', 'cy'"):
        data.select_coders(["ann", "dan"])
    with pytest.raises(AccordError, match="one entry per coder"):
        data.select_coders([True, False])
    numbered = Annotations.from_matrix([["a", "b"], ["a", "a"], ["b", "b"]])
    assert numbered.select_coders([0, 2]).n_entries == 4


def test_cohen_categories_checked_against_the_two_coders():
    data = Annotations.from_matrix([["lo", "hi", "lo", "mid"], ["lo", "hi", "hi", "mid"], ["x", "x", "x", "x"]])
    got = accord.cohen_kappa(data, coders=(0, 1), categories=["lo", "mid", "hi"], weights="linear")
    two = Annotations.from_matrix([["lo", "hi", "lo", "mid"], ["lo", "hi", "hi", "mid"]])
    assert got.kappa == pytest.approx(accord.cohen_kappa(two, categories=["lo", "mid", "hi"],
                                                         weights="linear").kappa)
    with pytest.raises(AccordError, match="the data hold the value 'hi', which is not among the categories"):
        accord.cohen_kappa(data, coders=(0, 1), categories=["lo", "mid"])


def test_gwet_q_counts_the_categories_observed():
    """gwet_ac1's docstring: "by default q is the number of values that occur"; a zero column and the values
    of coders left out by select_coders are not values that occur (they counted in q before)."""
    with_zero = Annotations.from_counts([[3, 0, 0], [1, 2, 0], [0, 3, 0], [2, 1, 0]], categories=[1, 2, 3])
    without = Annotations.from_counts([[3, 0], [1, 2], [0, 3], [2, 1]], categories=[1, 2])
    assert accord.gwet_ac1(with_zero).ac == pytest.approx(accord.gwet_ac1(without).ac, abs=1e-15)
    assert accord.gwet_ac1(with_zero, categories=[1, 2, 3]).categories == (1, 2, 3)
    data = Annotations.from_matrix([["a", "b", "a", "a"], ["a", "b", "b", "a"], ["c", "c", "c", "c"]])
    two = Annotations.from_matrix([["a", "b", "a", "a"], ["a", "b", "b", "a"]])
    assert accord.gwet_ac1(data.select_coders([0, 1])).ac == pytest.approx(accord.gwet_ac1(two).ac, abs=1e-15)


def test_fleiss_missing_gwet_equals_irrcac_documented_example():
    """irrCAC's ``raw`` module docstring: Fleiss' kappa of its raw_4raters data (Krippendorff 2011's example
    C) is 0.76117, se 0.15302, p_a 0.81818, p_e 0.23872."""
    data = accord.read("src/accord/datasets/krippendorff2011.csv")
    with pytest.raises(AccordError, match="needs every unit coded by the same number of coders"):
        accord.fleiss_kappa(data)
    res = accord.fleiss_kappa(data, missing="gwet")
    assert [round(x, 5) for x in (res.kappa, res.standard_error, res.observed_agreement, res.expected_agreement)] == [
        0.76117, 0.15302, 0.81818, 0.23872]


def test_masi_2006_is_nltk_by_version():
    """NLTK's masi_distance: exact thirds from NLTK 3.10 on (masi-2006), 0.67/0.33 before (masi-2006-rounded;
    NLTK's old doctest printed 0.665 for {1, 2} against {1, 2, 3, 4})."""
    nltk = pytest.importorskip("nltk")
    from nltk.metrics import masi_distance

    from accord.distances import get_distance

    version = tuple(int(x) for x in nltk.__version__.split(".")[:2])
    name = "masi-2006" if version >= (3, 10) else "masi-2006-rounded"
    dist = get_distance(name)
    pairs = [({1, 2}, {1, 2, 3, 4}), ({1}, {1, 2}), ({1, 2}, {2, 3}), ({1}, {2}), ({1, 2}, {1, 2})]
    for a, b in pairs:
        assert dist(frozenset(a), frozenset(b)) == pytest.approx(masi_distance(a, b), abs=1e-15)
    assert get_distance("masi-2006-rounded")(frozenset({1, 2}), frozenset({1, 2, 3, 4})) == pytest.approx(0.665)
