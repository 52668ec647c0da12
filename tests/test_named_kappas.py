"""Kappa weights by name, Brennan-Prediger, Conger's and Light's kappa, Cohen's kappa from a confusion matrix.

Oracles: irrCAC (``irrCAC.raw.CAC``, ``irrCAC.table.CAC``, ``irrCAC.weights.Weights``) on random data with
missing ratings, for every named weight; scikit-learn's ``cohen_kappa_score``; statsmodels' ``cohens_kappa``
for the standard errors of a contingency table.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import AccordError, AccordWarning, Annotations
from accord.coefficients._weights import WEIGHT_NAMES, kappa_weights

irrcac_raw = pytest.importorskip("irrCAC.raw")
pytestmark = pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0")  # irrCAC's own call of .all(1)


def _cac(m: np.ndarray, weights, categories) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return irrcac_raw.CAC(pd.DataFrame(m), weights=weights, categories=categories, digits=20)


def _random(rng: np.random.Generator, *, missing: bool) -> tuple[np.ndarray, list[float]]:
    """Subjects x raters ratings on q numeric categories, unevenly spaced (weights read the values)."""
    n, r, q = int(rng.integers(5, 40)), int(rng.integers(2, 6)), int(rng.integers(2, 6))
    cats = np.sort(rng.choice(np.arange(1, 12), size=q, replace=False)).astype(float)
    m = cats[rng.integers(0, q, size=(n, r))]
    if missing:
        m[rng.random((n, r)) < 0.25] = np.nan
        m[0, :2] = cats[0]  # a subject rated twice
        for j in range(r):  # every rater rated someone (irrCAC divides by each rater's count)
            if np.isnan(m[:, j]).all():
                m[1, j] = cats[-1]
    observed = sorted(np.unique(m[~np.isnan(m)]).tolist())  # irrCAC's categories on pandas 2 (see test_gwet.py)
    return m, observed


# ------------------------------------------------------------------ the weights themselves
def test_named_weights_equal_irrcac():
    from irrCAC.weights import Weights

    for cats in ([1, 2, 3], [1.0, 2.0, 5.0, 9.0], [2, 3, 4, 5, 6, 7], ["lo", "mid", "hi", "top"]):
        for name in WEIGHT_NAMES:
            if name == "ratio" and not isinstance(cats[0], float | int):
                continue  # irrCAC takes ranks 1..q for labels; ratio of ranks is allowed too
            np.testing.assert_allclose(kappa_weights(name, cats), Weights(list(cats))[name], atol=1e-15)


def test_weights_refuse_what_they_cannot_place():
    with pytest.raises(AccordError, match="weights must be one of"):
        kappa_weights("cubic", [1, 2])
    with pytest.raises(AccordError, match="ratio weights need positive categories"):
        kappa_weights("ratio", [0, 1, 2])
    data = Annotations.from_matrix([["low", "high", "mid"], ["low", "mid", "mid"]])
    with pytest.raises(AccordError, match="need the order of the categories"):
        accord.cohen_kappa(data, weights="linear")
    ordered = accord.cohen_kappa(data, weights="linear", categories=["low", "mid", "high"])
    coded = accord.cohen_kappa(Annotations.from_matrix([[1, 3, 2], [1, 2, 2]]), weights="linear")
    assert ordered.kappa == pytest.approx(coded.kappa)
    with pytest.raises(AccordError, match="either distance or weights"):
        accord.cohen_kappa(data, weights="linear", distance="interval", categories=["low", "mid", "high"])
    with pytest.raises(AccordError, match="must be a 3 x 3 matrix"):
        accord.fleiss_kappa(data, weights=np.eye(2), categories=["low", "mid", "high"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-20, 40), min_size=2, max_size=7, unique=True), st.sampled_from(WEIGHT_NAMES))
def test_weights_are_agreement_weights(values, name):
    if name == "ratio":
        values = [abs(v) + 1 for v in values]
        if len(set(values)) < len(values):
            return
    w = kappa_weights(name, values)
    assert np.allclose(np.diag(w), 1) and np.allclose(w, w.T) and (w >= -1e-12).all() and (w <= 1 + 1e-12).all()


# ------------------------------------------------------------------ weighted coefficients against irrCAC
@pytest.mark.parametrize("name", WEIGHT_NAMES)
def test_weighted_coefficients_equal_irrcac_with_missing_ratings(name):
    """Brennan-Prediger, Conger's kappa and Gwet's AC2 under each named weight: coefficient, p_a, p_e, standard
    error and interval equal irrCAC's to 1e-9, missing ratings included."""
    rng = np.random.default_rng(sum(map(ord, name)))
    for i in range(12):
        m, cats = _random(rng, missing=i % 3 != 0)
        cac = _cac(m, name, cats)
        data = Annotations.from_matrix(m.T)
        for ours, est in (
            (accord.brennan_prediger(data, weights=name), cac.bp()["est"]),
            (accord.conger_kappa(data, weights=name), cac.conger()["est"]),
        ):
            assert ours.kappa == pytest.approx(est["coefficient_value"], abs=1e-9)
            assert ours.observed_agreement == pytest.approx(est["pa"], abs=1e-9)
            assert ours.expected_agreement == pytest.approx(est["pe"], abs=1e-9)
            assert ours.standard_error == pytest.approx(est["se"], abs=1e-9)
            assert ours.confidence_interval(0.95) == pytest.approx(est["confidence_interval"], abs=1e-9)
        # irrCAC's conger p-value is two-sided; its bp p-value omits the factor 2 (irrCAC/raw.py, CAC.bp)
        assert accord.conger_kappa(data, weights=name).p_value == pytest.approx(cac.conger()["est"]["p_value"],
                                                                                abs=1e-9)
        assert accord.brennan_prediger(data, weights=name).p_value == pytest.approx(
            2 * cac.bp()["est"]["p_value"], abs=1e-9)
        ac2 = accord.gwet_ac2(data, weights=name)
        est = cac.gwet()["est"]
        assert ac2.ac == pytest.approx(est["coefficient_value"], abs=1e-9)
        assert ac2.standard_error == pytest.approx(est["se"], abs=1e-9)


@pytest.mark.parametrize("name", WEIGHT_NAMES)
def test_weighted_fleiss_and_cohen_equal_irrcac_on_complete_data(name):
    rng = np.random.default_rng(7 + len(name))
    for _ in range(12):
        m, cats = _random(rng, missing=False)
        cac = _cac(m, name, cats)
        data = Annotations.from_matrix(m.T)
        fleiss = accord.fleiss_kappa(data, weights=name)
        assert fleiss.kappa == pytest.approx(cac.fleiss()["est"]["coefficient_value"], abs=1e-9)
        two = Annotations.from_matrix(m[:, :2].T)
        cats2 = sorted(np.unique(m[:, :2]).tolist())
        # Conger's kappa of two raters is Cohen's (Conger 1980)
        assert accord.cohen_kappa(two, weights=name).kappa == pytest.approx(
            _cac(m[:, :2], name, cats2).conger()["est"]["coefficient_value"], abs=1e-9)


def test_unused_categories_change_the_weights_as_in_irrcac():
    rng = np.random.default_rng(11)
    m = rng.choice([1.0, 2.0, 3.0], size=(30, 3))
    cats = [1.0, 2.0, 3.0, 4.0, 5.0]
    data = Annotations.from_matrix(m.T)
    for name in ("linear", "quadratic", "ordinal"):
        cac = _cac(m, name, cats)
        assert accord.conger_kappa(data, weights=name, categories=cats).kappa == pytest.approx(
            cac.conger()["est"]["coefficient_value"], abs=1e-9)
        assert accord.brennan_prediger(data, weights=name, categories=cats).kappa == pytest.approx(
            cac.bp()["est"]["coefficient_value"], abs=1e-9)
        assert accord.fleiss_kappa(data, weights=name, categories=cats).kappa == pytest.approx(
            cac.fleiss()["est"]["coefficient_value"], abs=1e-9)


# ------------------------------------------------------------------ the names and the old coefficients
def test_conger_is_multi_kappa_and_brennan_prediger_is_bennett_on_complete_data():
    rng = np.random.default_rng(1980)
    for _ in range(10):
        m = rng.integers(1, 5, size=(4, 25))
        data = Annotations.from_matrix(m)
        for distance in ("nominal", "interval"):
            assert accord.conger_kappa(data, distance=distance).kappa == pytest.approx(
                accord.multi_kappa(data, distance=distance).kappa, abs=1e-12)
        assert accord.brennan_prediger(data).kappa == pytest.approx(accord.bennett_s(data).kappa, abs=1e-12)
        q = len(np.unique(m)) + 2
        assert accord.brennan_prediger(data, n_categories=q).kappa == pytest.approx(
            accord.bennett_s(data, n_categories=q).kappa, abs=1e-12)


def test_brennan_prediger_number_of_categories():
    data = Annotations.from_matrix([[1, 2, 3, 3], [1, 3, 3, 2]])
    res = accord.brennan_prediger(data, n_categories=5)
    assert res.expected_agreement == pytest.approx(1 / 5) and res.n_categories == 5
    assert accord.brennan_prediger(data).n_categories == 3
    with pytest.raises(AccordError, match="n_categories must be an integer >= the 3"):
        accord.brennan_prediger(data, n_categories=2)
    with pytest.raises(AccordError, match="pass categories"):
        accord.brennan_prediger(data, n_categories=5, weights="linear")
    cac = _cac(np.array([[1, 1], [2, 3], [3, 3], [3, 2]], dtype=float), "identity", [1, 2, 3, 4, 5])
    assert res.kappa == pytest.approx(cac.bp()["est"]["coefficient_value"], abs=1e-12)


def test_light_kappa_is_the_mean_of_pairwise_cohen_kappas():
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(1971)
    for _ in range(15):
        c, n = int(rng.integers(3, 6)), int(rng.integers(8, 40))
        m = rng.integers(0, 4, size=(c, n))
        res = accord.light_kappa(m)
        pairs = [cohen_kappa_score(m[i], m[j]) for i in range(c) for j in range(i + 1, c)]
        assert res.kappa == pytest.approx(np.mean(pairs), abs=1e-12)
        assert [p.kappa for p in res.pairs] == pytest.approx(pairs, abs=1e-12)
        weighted = accord.light_kappa(m, weights="quadratic")
        assert weighted.kappa == pytest.approx(np.mean(
            [cohen_kappa_score(m[i], m[j], weights="quadratic", labels=np.unique(m)) for i in range(c)
             for j in range(i + 1, c)]), abs=1e-12)
    assert len(res.to_frame()) == len(pairs)


def test_light_kappa_uses_the_units_every_coder_rated():
    m = np.array([[1, 2, 1, 2, 1, np.nan], [1, 2, 2, 2, 1, 2], [1, 1, 1, 2, np.nan, 1]])
    with pytest.warns(AccordWarning, match="2 unit"):
        res = accord.light_kappa(m)
    assert res.n_units == 4 and res.n_units_dropped == 2
    assert res.kappa == pytest.approx(accord.light_kappa(m[:, :4]).kappa)
    with pytest.raises(AccordError, match="at least 2 coders"):
        accord.light_kappa([[1, 2, 3]])


@pytest.mark.parametrize("how", [{"distance": "nominal"}, {"distance": "interval"}, {"distance": "ordinal"},
                                 {"weights": "quadratic"}])
def test_light_kappa_bootstrap_recomputes_light_kappa_on_each_resample(how):
    """The interval of Light's kappa: the nonparametric bootstrap over units (Efron & Tibshirani 1993), as alpha's.
    Oracle: scipy's bootstrap with the same draws (same seed, one resample at a time) and, as statistic,
    accord.light_kappa itself on the resampled units written out as a coders x units matrix (every pair's Cohen's
    kappa recomputed, chance term included), against the vectorised statistic of the result."""
    from accord.coefficients._alpha import bootstrap_groups

    rng = np.random.default_rng(1971)
    truth = rng.integers(0, 4, size=25)
    m = np.array([np.where(rng.random(25) < 0.7, truth, rng.integers(0, 4, size=25)) for _ in range(3)]) + 1
    m = m.astype(object)
    m[1, 3] = None  # a unit not rated by every coder: left out of the estimate and of the resamples
    with pytest.warns(AccordWarning, match="1 unit is not rated"):
        res = accord.light_kappa(m, **how)
    complete = np.delete(m, 3, axis=1)

    def light(idx: np.ndarray) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)
            k = accord.light_kappa(complete[:, idx.astype(int)].astype(float), **how).kappa
        return k

    ref = bootstrap_groups(res.n_units, light, confidence_level=0.9, n_resamples=60, method="percentile", rng=5)
    ours = res._bootstrap(0.9, 60, "percentile", 5)
    assert np.asarray(ours.bootstrap_distribution) == pytest.approx(np.asarray(ref.bootstrap_distribution),
                                                                     abs=1e-12, nan_ok=True)
    lo, hi = res.confidence_interval(0.9, n_resamples=60, rng=5)
    assert (lo, hi) == pytest.approx(tuple(np.percentile(ref.bootstrap_distribution, [5, 95])), abs=1e-12)
    assert lo <= res.kappa <= hi
    assert res.confidence_interval(0.9, n_resamples=60, rng=5) == (lo, hi)  # a seed gives the same interval
    assert len(res.bootstrap_distribution(n_resamples=30, rng=1)) <= 30
    assert "_matrix" not in res.to_dict()


def test_light_kappa_interval_refusals():
    flat = np.array([["a", "a", "a"], ["a", "a", "a"], ["a", "a", "a"]])
    with pytest.warns(AccordWarning, match="undefined"):
        res = accord.light_kappa(flat)
    with pytest.raises(AccordError, match="undefined"):
        res.confidence_interval()
    with pytest.warns(AccordWarning, match="1 unit is not rated"):
        one = accord.light_kappa([["a", "x"], ["b", None], ["c", "x"]])  # one complete unit, every kappa 0
    assert one.kappa == 0 and one.n_units == 1
    with pytest.raises(AccordError, match="at least two units"):
        one.confidence_interval()
    with pytest.raises(AccordError, match="confidence_level"):
        accord.light_kappa([["a", "b", "a"], ["a", "b", "b"], ["b", "b", "a"]]).confidence_interval(1.5)


def test_conger_with_missing_raters_and_errors():
    data = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "b", "b", None]])
    res = accord.conger_kappa(data)
    assert res.n_coders == 3 and res.n_units == 4 and res.coefficient == "conger_kappa"
    assert set(res.to_dict()) >= {"kappa", "standard_error", "weights", "categories"}
    with pytest.raises(AccordError, match="at least 2 coders"):
        accord.conger_kappa([[1, 2, 3]])
    with pytest.raises(AccordError, match="population_size"):
        accord.conger_kappa(data, population_size=2)


# ------------------------------------------------------------------ confusion matrices
def _expand(table: np.ndarray) -> tuple[list[int], list[int]]:
    a, b = [], []
    for (i, j), c in np.ndenumerate(table):
        a += [i + 1] * int(c)
        b += [j + 1] * int(c)
    return a, b


def test_cohen_from_a_confusion_matrix_equals_sklearn_and_statsmodels():
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import cohens_kappa

    rng = np.random.default_rng(1960)
    for _ in range(15):
        q = int(rng.integers(2, 6))
        table = rng.integers(0, 12, size=(q, q)) + np.diag(rng.integers(5, 25, size=q))
        data = Annotations.from_confusion(table, categories=list(range(1, q + 1)))
        a, b = _expand(table)
        for weights, sk in ((None, None), ("linear", "linear"), ("quadratic", "quadratic")):
            res = accord.cohen_kappa(data, weights=weights)
            assert res.kappa == pytest.approx(cohen_kappa_score(a, b, weights=sk), abs=1e-12)
            sm = cohens_kappa(table, wt=sk or None)
            assert res.standard_error == pytest.approx(sm["std_kappa"], rel=1e-9)
            assert res.standard_error_null == pytest.approx(sm["std_kappa0"], rel=1e-9)


def test_confusion_weights_equal_irrcac_table_cohen():
    from irrCAC.table import CAC

    rng = np.random.default_rng(3)
    for name in WEIGHT_NAMES:
        q = 4
        table = rng.integers(1, 10, size=(q, q)) + np.diag([10, 12, 8, 9])
        data = Annotations.from_confusion(table, categories=[1, 2, 3, 4])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est = CAC(pd.DataFrame(table), weights=name, digits=20).cohen()["est"]
        assert accord.cohen_kappa(data, weights=name).kappa == pytest.approx(est["coefficient_value"], abs=1e-9)


def test_confusion_frames_labels_and_errors():
    frame = pd.DataFrame([[3, 1, 0], [2, 5, 1], [0, 1, 4]], index=["low", "mid", "high"],
                         columns=["high", "low", "mid"]).loc[:, ["high", "low", "mid"]]
    frame.iloc[:, :] = [[0, 3, 1], [1, 2, 5], [4, 0, 1]]  # the same counts, columns in another order
    data = Annotations.from_confusion(frame)
    same = Annotations.from_confusion([[3, 1, 0], [2, 5, 1], [0, 1, 4]], categories=["low", "mid", "high"])
    assert accord.cohen_kappa(data).kappa == pytest.approx(accord.cohen_kappa(same).kappa)
    assert data.n_units == 17 and set(data.coders.tolist()) == {"rows", "columns"}
    numeric_header = pd.DataFrame([[4, 1], [2, 3]], index=[1, 2], columns=["1", "2"])
    assert Annotations.from_confusion(numeric_header).values.tolist() == [1, 2]
    with pytest.raises(AccordError, match="same categories"):
        Annotations.from_confusion(pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["a", "c"]))
    with pytest.raises(AccordError, match="square table"):
        Annotations.from_confusion([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(AccordError, match="row 0, column 1 must be a non-negative integer; got -1"):
        Annotations.from_confusion([[1, -1], [0, 2]])
    with pytest.raises(AccordError, match="non-negative integer; got 1.5"):
        Annotations.from_confusion([[1, 1.5], [0, 2]])
    with pytest.raises(AccordError, match="counts no units"):
        Annotations.from_confusion([[0, 0], [0, 0]])
    with pytest.raises(AccordError, match="two different coders"):
        Annotations.from_confusion([[1, 0], [0, 1]], coders=("a", "a"))
    assert not math.isnan(accord.cohen_kappa(Annotations.from_confusion([[5, 1], [2, 6]])).kappa)
