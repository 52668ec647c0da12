"""Krippendorff's alpha: published values, the krippendorff package and NLTK as oracles, properties."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from conftest import random_matrix
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import AccordError, AccordWarning, Annotations, alpha
from accord.datasets import load_krippendorff2011

TABLE2 = [  # Passonneau (2004), Table 2: class indices, rows RA.1..RA.3, columns A..L
    [1, 2, 4, 1, 2, 2, 6, 4, 6, 6, 2],
    [1, 2, 5, 1, 2, 2, 7, 9, 10, 7, 2],
    [1, 2, 3, 1, 2, 2, 8, 3, 3, 3, 2],
]


def test_passonneau2004_table2_nominal_is_49_over_109():
    """Passonneau (2004), section 3.1: nominal alpha on Table 2 is .45, exactly 1 - 60/109 = 49/109."""
    res = alpha(Annotations.from_matrix(TABLE2))
    assert res.alpha == pytest.approx(float(Fraction(49, 109)), abs=1e-15)
    assert round(res.alpha, 2) == 0.45
    assert (res.n_units, res.n_coders, res.n_pairable) == (11, 3, 33)


@pytest.mark.parametrize(
    ("level", "printed"),
    [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849), ("ratio", 0.797)],
)
def test_krippendorff2011_example_c(level, printed):
    """Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, example C (4 observers, 12 units)."""
    res = alpha(load_krippendorff2011(), distance=level)
    assert round(res.alpha, 3) == printed
    assert res.n_pairable == 40 and res.n_unpairable_values == 1


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize("seed", range(6))
def test_matches_krippendorff_package(level, seed):
    rng = np.random.default_rng(seed)
    m = random_matrix(rng, coders=int(rng.integers(2, 6)), units=int(rng.integers(5, 60)),
                      categories=int(rng.integers(2, 8)), missing=0.25)
    ours = alpha(Annotations.from_matrix(m), distance=level).alpha
    theirs = krippendorff.alpha(reliability_data=m, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 5), st.integers(3, 30), st.integers(2, 6), st.floats(0, 0.4), st.integers(0, 2**32 - 1),
    st.sampled_from(["nominal", "ordinal", "interval", "ratio"]),
)
def test_matches_krippendorff_package_property(coders, units, cats, missing, seed, level):
    m = random_matrix(np.random.default_rng(seed), coders, units, cats, missing)
    if np.sum(np.sum(~np.isnan(m), axis=0) >= 2) == 0:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ours = alpha(Annotations.from_matrix(m), distance=level)
        except AccordError:
            return
        try:
            theirs = krippendorff.alpha(reliability_data=m, level_of_measurement=level)
        except ValueError as exc:  # the package raises where alpha is undefined (one value only)
            assert "more than one value" in str(exc)
            assert math.isnan(ours.alpha) and "no expected disagreement" in ours.undefined_reason
            return
    if math.isnan(ours.alpha):
        assert np.isnan(theirs)
    else:
        assert ours.alpha == pytest.approx(theirs, abs=1e-12)


def test_matches_nltk_nominal_and_interval(rng):
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import binary_distance, interval_distance

    m = random_matrix(rng, 4, 40, 5, 0.2)
    records = [(f"c{c}", f"u{u}", int(m[c, u])) for c in range(4) for u in range(40) if not np.isnan(m[c, u])]
    data = Annotations.from_records([(u, c, v) for c, u, v in records])
    for dist, nd in (("nominal", binary_distance), ("interval", interval_distance)):
        task = AnnotationTask(data=records, distance=nd)
        assert alpha(data, distance=dist).alpha == pytest.approx(task.alpha(), abs=1e-12)


def test_perfect_agreement_is_one(rng):
    m = np.tile(rng.integers(0, 5, 30), (3, 1)).astype(float)
    m[0, :5] = np.nan
    for level in ("nominal", "ordinal", "interval", "ratio"):
        assert alpha(Annotations.from_matrix(m), distance=level).alpha == 1.0


def test_invariant_to_unit_coder_and_label_permutations(rng):
    m = random_matrix(rng, 4, 50, 5, 0.2)
    base = Annotations.from_matrix(m)
    perm_u = rng.permutation(50)
    perm_c = rng.permutation(4)
    shuffled = Annotations.from_matrix(m[perm_c][:, perm_u])
    assert alpha(shuffled).alpha == pytest.approx(alpha(base).alpha, abs=1e-13)
    assert alpha(shuffled, distance="interval").alpha == pytest.approx(
        alpha(base, distance="interval").alpha, abs=1e-13
    )
    # nominal alpha does not depend on what the labels are called: strings vs integers
    names = {float(k): f"label-{int(k) * 7 % 11}" for k in np.unique(m[~np.isnan(m)])}
    relabelled = np.vectorize(lambda x: None if np.isnan(x) else names[x], otypes=[object])(m)
    assert alpha(Annotations.from_matrix(relabelled)).alpha == pytest.approx(alpha(base).alpha, abs=1e-13)


def test_interval_invariant_to_affine_rescaling(rng):
    m = random_matrix(rng, 3, 40, 6, 0.1)
    a = alpha(Annotations.from_matrix(m), distance="interval").alpha
    b = alpha(Annotations.from_matrix(3.5 * m - 10), distance="interval").alpha
    assert a == pytest.approx(b, abs=1e-12)


def test_user_callable_distance_equals_builtin(rng):
    m = random_matrix(rng, 3, 30, 5, 0.2)
    data = Annotations.from_matrix(m)
    custom = accord.make_distance(lambda a, b: (a - b) ** 2, name="squared")
    expected = alpha(data, distance="interval").alpha
    assert alpha(data, distance=custom).alpha == pytest.approx(expected, abs=1e-12)
    assert alpha(data, distance=custom).distance == "squared"


def test_ordinal_with_explicit_order_on_strings():
    levels = ["low", "mid", "high"]
    m = [[0, 1, 2, 2, 1, 0, 1], [0, 1, 2, 1, 1, 0, 2], [1, 1, 2, 2, 1, 0, 1]]
    as_text = [[levels[x] for x in row] for row in m]
    a = alpha(Annotations.from_matrix(as_text), distance=accord.Ordinal(order=levels)).alpha
    assert a == pytest.approx(alpha(Annotations.from_matrix(m), distance="ordinal").alpha, abs=1e-13)


def test_no_expected_disagreement_is_undefined_with_reason():
    data = Annotations.from_matrix([["a", "a", "a"], ["a", "a", None]])
    with pytest.warns(AccordWarning, match="alpha is undefined"):
        res = alpha(data)
    assert math.isnan(res.alpha)
    assert "no expected disagreement" in res.undefined_reason
    assert res.to_dict()["alpha"] is None


def test_unpairable_units_are_counted_not_lost():
    data = Annotations.from_matrix([[1, 2, 3, None], [1, 2, None, None], [1, 3, None, 4]])
    res = alpha(data)
    assert res.n_units == 4 and res.n_pairable_units == 2
    assert res.n_unpairable_values == 2 and res.n_pairable == 6


@pytest.mark.parametrize(
    ("matrix", "distance", "message"),
    [
        ([[1, 2, 3]], "nominal", "at least 2 coders"),
        ([[1, None], [None, 2]], "nominal", "no pairable unit"),
        ([["a", "b"], ["a", "a"]], "interval", r"order of the text labels \('a', 'b'\).*order=\["),
        ([[1, -2], [1, 1]], "ratio", "non-negative"),
        ([[1, 2], [1, 1]], "masi", "ambiguous"),
        ([[1, 2], [1, 1]], "cosine", "distance must be one of"),
        ([[1, 2], [1, 1]], "jaccard", "set values"),
    ],
)
def test_bad_input_raises_accord_error(matrix, distance, message):
    with pytest.raises(AccordError, match=message):
        alpha(Annotations.from_matrix(matrix), distance=distance)


def test_accord_error_is_a_value_error():
    assert issubclass(AccordError, ValueError)
    with pytest.raises(ValueError):
        alpha("not data")


def test_bootstrap_interval_is_seeded_and_brackets_alpha(rng):
    m = random_matrix(rng, 3, 80, 4, 0.1)
    res = alpha(Annotations.from_matrix(m), distance="interval")
    lo, hi = res.confidence_interval(0.95, n_resamples=300, rng=7)
    assert (lo, hi) == res.confidence_interval(0.95, n_resamples=300, rng=7)
    assert lo < res.alpha < hi
    lo90, hi90 = res.confidence_interval(0.90, n_resamples=300, rng=7)
    assert lo <= lo90 and hi90 <= hi
    # ordinal re-derives its metric on each resample and still works
    o = alpha(Annotations.from_matrix(m), distance="ordinal")
    olo, ohi = o.confidence_interval(n_resamples=100, rng=1)
    assert olo < o.alpha < ohi


def test_bootstrap_bad_options():
    res = alpha(load_krippendorff2011())
    with pytest.raises(AccordError, match="confidence_level"):
        res.confidence_interval(1.5)
    with pytest.raises(AccordError, match="method"):
        res.confidence_interval(method="magic")


def test_to_dict_is_plain_json():
    import json

    d = alpha(load_krippendorff2011()).to_dict()
    json.dumps(d, allow_nan=False)
    assert set(d) >= {"alpha", "observed_disagreement", "expected_disagreement", "n_units", "n_pairable",
                      "distance"}
    assert isinstance(d["n_units"], int) and d["distance"] == "nominal"


def test_bootstrap_drops_resamples_where_alpha_is_undefined():
    # two agreeing units of one value and one unit of another: a resample drawing only the first kind
    # has no expected disagreement (alpha undefined); the interval is over the defined resamples
    d = Annotations.from_matrix([["a", "a", "b"], ["a", "a", "b"]])
    res = alpha(d)
    lo, hi = res.confidence_interval(n_resamples=400, rng=0)
    assert lo == lo and hi == hi and lo <= res.alpha <= hi
    dist = res.bootstrap_distribution(n_resamples=400, rng=0)
    assert len(dist) < 400 and not np.isnan(dist).any()
    with pytest.raises(AccordError, match="BCa needs every resample defined"):
        res.confidence_interval(n_resamples=400, method="BCa", rng=0)
