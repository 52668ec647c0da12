"""The kappa family against scikit-learn and statsmodels, plus properties and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import random_matrix
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats import inter_rater as ir

from accord import AccordError, Annotations, make_distance
from accord.coefficients._fleiss import bennett_s, fleiss_kappa, multi_kappa, scott_pi, siegel_castellan_k
from accord.coefficients._kappa import cohen_kappa, percent_agreement, weighted_kappa


def two_coders(seed: int, n: int = 60, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, k, n))
    return a, b


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(5, 80), st.integers(2, 6))
def test_cohen_equals_sklearn(seed, n, k):
    a, b = two_coders(seed, n, k)
    if len(np.unique(np.r_[a, b])) < 2:
        return
    ours = cohen_kappa(Annotations.from_matrix([a, b])).kappa
    assert ours == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_weighted_kappa_equals_sklearn(seed):
    a, b = two_coders(seed, 80, 5)
    labels = np.unique(np.r_[a, b])
    pos = {v: i for i, v in enumerate(labels)}  # sklearn weighs label *positions*
    ai, bi = [pos[x] for x in a], [pos[x] for x in b]
    data = Annotations.from_matrix([ai, bi])
    quad = weighted_kappa(data, distance="interval").kappa
    lin = weighted_kappa(data, distance=make_distance(lambda x, y: abs(x - y), name="linear")).kappa
    assert quad == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"), abs=1e-12)
    assert lin == pytest.approx(cohen_kappa_score(a, b, weights="linear"), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_cohen_standard_errors_equal_statsmodels(seed):
    """Fleiss, Cohen & Everitt (1969) large-sample and null standard errors, as statsmodels computes them."""
    a, b = two_coders(seed, 70, 4)
    table, _ = ir.to_table(np.c_[a, b])
    sm = ir.cohens_kappa(table)
    ours = cohen_kappa(Annotations.from_matrix([a, b]))
    assert ours.standard_error == pytest.approx(sm.std_kappa, rel=1e-10)
    assert ours.standard_error_null == pytest.approx(sm.std_kappa0, rel=1e-10)
    smw = ir.cohens_kappa(table, wt="quadratic")
    w = cohen_kappa(Annotations.from_matrix([a, b]), distance="interval")
    if len(np.unique(np.r_[a, b])) == table.shape[0]:
        assert w.kappa == pytest.approx(smw.kappa, abs=1e-12)
        assert w.standard_error == pytest.approx(smw.std_kappa, rel=1e-10)
        assert w.standard_error_null == pytest.approx(smw.std_kappa0, rel=1e-10)
    lo, hi = ours.confidence_interval(0.95)
    assert lo < ours.kappa < hi


@pytest.mark.parametrize("seed", range(6))
def test_fleiss_equals_statsmodels_on_complete_data(seed):
    rng = np.random.default_rng(seed)
    m = random_matrix(rng, int(rng.integers(2, 7)), int(rng.integers(10, 60)), int(rng.integers(2, 6)), 0.0)
    table, _ = ir.aggregate_raters(m.T.astype(int))
    data = Annotations.from_matrix(m)
    assert fleiss_kappa(data).kappa == pytest.approx(ir.fleiss_kappa(table, method="fleiss"), abs=1e-12)
    # Bennett's S with the observed categories is Randolph's free-marginal kappa
    assert bennett_s(data).kappa == pytest.approx(ir.fleiss_kappa(table, method="randolph"), abs=1e-12)
    assert siegel_castellan_k is fleiss_kappa


def test_scott_pi_is_fleiss_for_two_coders_and_alpha_limit():
    a, b = two_coders(3, 200, 4)
    data = Annotations.from_matrix([a, b])
    assert scott_pi(data).kappa == pytest.approx(fleiss_kappa(data).kappa, abs=1e-12)


def test_multi_kappa_is_cohen_for_two_coders():
    a, b = two_coders(4, 90, 3)
    data = Annotations.from_matrix([a, b])
    assert multi_kappa(data).kappa == pytest.approx(cohen_kappa(data).kappa, abs=1e-12)


def test_multi_kappa_is_mean_of_pairwise_chance():
    """Artstein & Poesio (2008), section 2.5: A_e is the mean over coder pairs of sum_k P(k|c_i) P(k|c_j)."""
    rng = np.random.default_rng(9)
    m = random_matrix(rng, 4, 50, 3, 0.0).astype(int)
    data = Annotations.from_matrix(m)
    cats = np.unique(m)
    p = np.array([[np.mean(row == c) for c in cats] for row in m])
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    ae = np.mean([p[i] @ p[j] for i, j in pairs])
    ao = np.mean([np.mean(m[i] == m[j]) for i, j in pairs])
    assert multi_kappa(data).kappa == pytest.approx((ao - ae) / (1 - ae), abs=1e-12)


def test_fleiss_null_standard_error_formula():
    """Fleiss, Nee & Landis (1979): var0 = 2 / (N m (m-1)) * ((sum pq)^2 - sum pq(q-p)) / (sum pq)^2."""
    rng = np.random.default_rng(2)
    m = random_matrix(rng, 5, 40, 3, 0.0).astype(int)
    res = fleiss_kappa(Annotations.from_matrix(m))
    p = np.array([np.mean(m == c) for c in np.unique(m)])
    q = 1 - p
    var0 = 2 / (40 * 5 * 4) * ((p @ q) ** 2 - np.sum(p * q * (q - p))) / (p @ q) ** 2
    assert res.standard_error_null == pytest.approx(np.sqrt(var0), rel=1e-12)


def test_percent_agreement_two_coders_is_share_of_units():
    a, b = two_coders(5, 50, 3)
    res = percent_agreement(Annotations.from_matrix([a, b]))
    assert res.percent_agreement == pytest.approx(np.mean(a == b), abs=1e-12)


def test_bennett_with_given_categories():
    data = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    assert bennett_s(data, n_categories=4).kappa == pytest.approx((0.75 - 0.25) / 0.75)
    with pytest.raises(AccordError, match="n_categories"):
        bennett_s(data, n_categories=1)


def test_cohen_drops_units_not_coded_by_both_and_says_so():
    data = Annotations.from_matrix([["a", "b", "a", None], ["a", "b", None, "b"]])
    res = cohen_kappa(data)
    assert res.n_units == 2 and res.n_units_dropped == 2


def test_two_coder_coefficients_refuse_three_coders_without_choice():
    data = Annotations.from_matrix([["a", "b"], ["a", "b"], ["b", "b"]], coders=["x", "y", "z"])
    with pytest.raises(AccordError, match="two coders"):
        cohen_kappa(data)
    assert cohen_kappa(data, coders=("x", "y")).kappa == 1.0
    with pytest.raises(AccordError, match="not a coder"):
        cohen_kappa(data, coders=("x", "w"))


def test_fleiss_refuses_missing_data():
    data = Annotations.from_matrix([["a", "b", "a"], ["a", "b", None], ["a", "a", "b"]])
    with pytest.raises(AccordError, match="same number of coders"):
        fleiss_kappa(data)
