"""Fast paths of the pair engine against the general computation (issue 10, parts 3-5).

- the ordinal distance's cross sum through mid-point cumulative counts (O(V) after the sort) against
  the blocked sum over the whole V x V domain;
- the fused path (:func:`accord.coefficients._pairs.count_matrix`: counts per unit straight from a numeric matrix of
  small integer codes) against the general path through :class:`accord.Annotations`.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError, Annotations, alpha
from accord.coefficients._pairs import (
    HISTOGRAM_MAX_KEYS,
    count_matrix,
    count_values,
    histogram_matrix,
    unit_disagreement_sums,
)
from accord.distances import Ordinal, PreparedDistance


@settings(max_examples=60)
@given(
    st.integers(min_value=1, max_value=300),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_ordinal_cross_sum_equals_the_blocked_domain_sum(v: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = np.sort(rng.choice(10 * v + 10, size=v, replace=False)).astype(float)
    counts = rng.integers(0, 30, size=v).astype(float)
    prepared = Ordinal().prepare(values, counts)
    a, b = rng.random(v) * 10, rng.random(v) * 10
    for x, y in ((counts, counts), (a, b), (counts, b)):
        fast = prepared.cross_sum(x, y)
        slow = PreparedDistance.cross_sum(prepared, x, y)
        assert fast == pytest.approx(slow, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_ordinal_alpha_on_many_distinct_values_equals_the_general_path(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m = rng.integers(0, 3000, size=(3, 1500)).astype(float)
    m[1] = np.where(rng.random(1500) < 0.6, m[0], m[1])
    m[rng.random(m.shape) < 0.1] = np.nan
    data = Annotations.from_matrix(m)
    res = alpha(data, distance="ordinal")
    uc = count_values(data)
    marg = uc.marginals()
    prepared = Ordinal().prepare(data.values, marg)
    n = uc.n
    d_o = float(unit_disagreement_sums(uc, prepared) @ (1.0 / (uc.m - 1.0))) / n
    d_e = PreparedDistance.cross_sum(prepared, marg, marg) / (n * (n - 1.0))
    assert res.expected_disagreement == pytest.approx(d_e, rel=1e-12)
    assert res.alpha == pytest.approx(1.0 - d_o / d_e, abs=1e-12)


DISTANCES = ["nominal", "interval", "ordinal", "ratio", lambda a, b: abs(a - b) ** 0.5]


def _general(m: np.ndarray, distance, layout: str = "coders-by-units"):
    data = Annotations.from_matrix(m, layout=layout)
    assert count_matrix(data) is None  # Annotations never take the fused path
    return alpha(data, distance=distance)


def _same(fused, general) -> None:
    for key, value in general.to_dict().items():
        got = fused.to_dict()[key]
        if isinstance(value, float) and not math.isnan(value):
            assert got == pytest.approx(value, rel=1e-12, abs=1e-12), key
        else:
            assert got == value or (got != got and value != value), key


@pytest.mark.filterwarnings("ignore:alpha is undefined")
@settings(max_examples=80)
@given(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=1, max_value=40),
    st.integers(min_value=1, max_value=12),
    st.floats(min_value=0.0, max_value=0.6),
    st.integers(min_value=-5, max_value=5),
    st.sampled_from(range(len(DISTANCES))),
    st.sampled_from(["float", "int"]),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_fused_path_equals_the_annotations_path(coders, units, span, missing, low, which, dtype, seed):
    rng = np.random.default_rng(seed)
    distance = DISTANCES[which]
    m = rng.integers(low, low + span, size=(coders, units)).astype(float)
    agree = rng.random(m.shape) < 0.5
    m[agree] = np.broadcast_to(m[0], m.shape)[agree]
    if dtype == "float":
        m[rng.random(m.shape) < missing] = np.nan
        m[:2, 0] = low  # at least two coders with values
    else:
        m = m.astype(np.int64)
    if distance == "ratio":
        m = m - low  # non-negative
    fused_counts = count_matrix(m)
    assert fused_counts is not None
    try:
        general = _general(m, distance)
    except AccordError as exc:  # e.g. no pairable unit: the fused path says the same
        with pytest.raises(AccordError, match=str(exc)[:30]):
            alpha(m, distance=distance)
        return
    _same(alpha(m, distance=distance), general)
    _same(alpha(m.T, distance=distance, layout="units-by-coders"), general)


def test_fused_counts_equal_the_general_counts():
    rng = np.random.default_rng(7)
    m = rng.integers(1, 8, size=(4, 300)).astype(float)
    m[rng.random(m.shape) < 0.4] = np.nan
    m[:, 5] = np.nan
    m[0, 6] = 20.0  # a value only in an unpairable unit stays in the value table
    m[1:, 6] = np.nan
    uc, values = count_matrix(m)
    data = Annotations.from_matrix(m)
    ref = count_values(data)
    assert np.array_equal(values, data.values)
    for name in ("unit", "value", "count", "unit_ids", "m"):
        assert np.array_equal(getattr(uc, name), getattr(ref, name)), name
    assert (uc.n_units, uc.n_values, uc.n_unpairable_values) == (ref.n_units, ref.n_values, ref.n_unpairable_values)
    assert np.array_equal(uc.marginals(), ref.marginals())
    w = rng.random(uc.n_pairable_units)
    assert np.allclose(uc.marginals(w), ref.marginals(w), rtol=1e-13)
    assert (uc.coincidences() != ref.coincidences()).nnz == 0


@pytest.mark.parametrize(
    "matrix",
    [
        np.array([[1.5, 2.0], [1.0, 2.0]]),  # not integers
        np.array([[0.0, 1000.0], [0.0, 1000.0]]),  # a wide range
        np.array([[1, 2], [1, 2]], dtype=bool),
        np.array([["a", "b"], ["a", "b"]]),
        [[1, 2], [1, 2]],  # not a numpy array
        np.array([[1.0, 2.0], [np.nan, np.nan]]),  # one coder with values
        np.full((2, 3), np.nan),
        np.array([[1.0, np.inf], [1.0, 2.0]]),
    ],
)
def test_fused_path_declines_what_it_does_not_cover(matrix):
    assert count_matrix(matrix) is None


def test_fused_path_errors_and_results_match_the_general_path():
    m = np.array([[1.0, 2.0, np.nan], [np.nan, np.nan, 3.0]])  # no pairable unit
    with pytest.raises(AccordError, match="no pairable unit"):
        alpha(m)
    with pytest.raises(AccordError, match="one coder|at least 2 coders"):
        alpha(np.array([[1.0, 2.0], [np.nan, np.nan]]))
    with pytest.raises(AccordError, match="layout"):
        alpha(np.array([[1.0, 2.0], [1.0, 2.0]]), layout="sideways")
    same = np.array([[1.0, 1.0], [1.0, 1.0]])
    with pytest.warns(Warning):
        res = alpha(same)
    assert math.isnan(res.alpha) and "every pairable value is the same" in res.undefined_reason


@pytest.mark.parametrize("distance", ["nominal", "interval", "ordinal"])
def test_fused_bootstrap_equals_the_general_bootstrap(distance):
    rng = np.random.default_rng(3)
    m = rng.integers(1, 5, size=(3, 60)).astype(float)
    m[1] = np.where(rng.random(60) < 0.6, m[0], m[1])
    m[rng.random(m.shape) < 0.1] = np.nan
    fused = alpha(m, distance=distance).confidence_interval(n_resamples=200, rng=5)
    general = _general(m, distance).confidence_interval(n_resamples=200, rng=5)
    assert fused == pytest.approx(general, abs=1e-12)


@pytest.mark.filterwarnings("ignore:alpha is undefined")
@settings(max_examples=80)
@given(
    st.integers(min_value=2, max_value=5),
    st.integers(min_value=1, max_value=60),
    st.integers(min_value=1, max_value=6),
    st.floats(min_value=0.0, max_value=0.7),
    st.integers(min_value=-5, max_value=5),
    st.sampled_from(["float", "int8", "uint64"]),
    st.sampled_from(["coders-by-units", "units-by-coders"]),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_histogram_of_code_rows_gives_the_fused_table(coders, units, span, missing, low, dtype, layout, seed):
    """The histogram path (one weighted row per distinct row of codes) against the table of the fused path."""
    rng = np.random.default_rng(seed)
    m = rng.integers(low, low + span, size=(coders, units)).astype(float)
    agree = rng.random(m.shape) < 0.5
    m[agree] = np.broadcast_to(m[0], m.shape)[agree]
    if dtype == "float":
        m[rng.random(m.shape) < missing] = np.nan
    else:
        m = (m - low if dtype == "uint64" else m).astype(dtype)
    x = m if layout == "coders-by-units" else m.T
    hist, table = histogram_matrix(x, layout=layout), count_matrix(x, layout=layout)
    assert (hist is None) == (table is None)
    if hist is None:
        return
    (uc, values), (ref, ref_values) = hist, table
    assert uc.weight is not None and ref.weight is None
    assert np.array_equal(values, ref_values) and values.dtype == ref_values.dtype
    for name in ("n", "n_pairable_units", "n_units", "n_values", "n_unpairable_values"):
        assert getattr(uc, name) == getattr(ref, name), name
    assert np.array_equal(uc.marginals(), ref.marginals())
    units = uc.per_unit()
    assert units is uc.per_unit()  # built once
    for name in ("unit_ids", "m", "table"):
        assert np.array_equal(getattr(units, name), getattr(ref, name)), name
    assert units.table.dtype == ref.table.dtype
    if uc.n_pairable_units:
        nominal = alpha(x, layout=layout)
        assert nominal._counts.weight is not None  # alpha took the histogram
        assert nominal.alpha == pytest.approx(_general(m, "nominal").alpha, rel=1e-12, abs=1e-12) or (
            math.isnan(nominal.alpha))


@pytest.mark.parametrize(
    "matrix",
    [
        np.array([[-3.0, 2.0**-60], [1.0, 1.0]]),  # a fraction lost in the sum with the lowest value
        np.array([[1.0, 2.0 + 2.0**-40, np.nan], [1.0, 2.0, 3.0]]),
        np.array([[2.0**52, 2.0**52 + 1.0], [2.0**52, 2.0**52]]),  # past the integers of a float's code sums
    ],
)
def test_histogram_path_declines_values_it_cannot_count_exactly(matrix):
    assert histogram_matrix(matrix) is None
    res = alpha(matrix)
    assert res._counts.weight is None  # the table or the general path
    assert res.alpha == _general(matrix, "nominal").alpha or math.isnan(res.alpha)


def test_many_possible_code_rows_take_the_table():
    rng = np.random.default_rng(11)
    m = rng.integers(1, 13, size=(6, 400)).astype(float)  # 14 ** 6 possible rows of codes
    assert 14**6 > HISTOGRAM_MAX_KEYS and histogram_matrix(m) is None
    res = alpha(m)
    assert res._counts.table is not None
    assert res.alpha == pytest.approx(_general(m, "nominal").alpha, rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_histogram_bootstrap_draws_units(method):
    """A histogram's interval resamples units (its rows built on demand), as the table's did, draw for draw."""
    rng = np.random.default_rng(4)
    m = rng.integers(1, 6, size=(3, 80)).astype(float)
    m[1] = np.where(rng.random(80) < 0.6, m[0], m[1])
    m[rng.random(m.shape) < 0.1] = np.nan
    res = alpha(m)
    assert res._counts.weight is not None
    got = res.confidence_interval(n_resamples=300, method=method, rng=9)
    assert got == _general(m, "nominal").confidence_interval(n_resamples=300, method=method, rng=9)
