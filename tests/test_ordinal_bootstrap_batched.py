"""The bootstraps under the ordinal distance (a distance that depends on the marginals) compute a batch of resamples
by array arithmetic; every resampled coefficient must equal the per-resample path's, which prepares the distance
from each resample's marginals and recounts every unit (kept as the private reference), on the same draws.

Covered: alpha's unit bootstrap (Annotations, and a numpy matrix counted on the fused path), the signature-histogram
bootstrap, Light's kappa; missing values, ties in rank (numbers spelled two ways), an explicit order, the sparse
product, the fallback to the loop, and the batched distance itself against :meth:`Ordinal.prepare`.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import random_matrix
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord import Annotations
from accord.coefficients import _marginal_bootstrap
from accord.coefficients._alpha import _resample_alpha, _unit_weights
from accord.coefficients._cac import _pair_terms_by_preparing
from accord.coefficients._marginal_bootstrap import row_parts
from accord.coefficients._pairs import count_values, signature_counts
from accord.coefficients._signature_bootstrap import _alphas, _alphas_by_preparing, signature_bootstrap
from accord.distances import Ordinal

TOL = dict(rtol=1e-12, atol=1e-12)


def _spelled(m: np.ndarray) -> np.ndarray:
    """Codes 1..5 as text, code 2 written "2" or "02" (two values of one rank) and 4 written "4" or "4.0"."""
    out = np.empty(m.shape, dtype=object)
    for (i, j), x in np.ndenumerate(m):
        if np.isnan(x):
            out[i, j] = None
        elif x == 2:
            out[i, j] = "02" if (i + j) % 2 else "2"
        elif x == 4:
            out[i, j] = "4.0" if (i + j) % 3 == 0 else "4"
        else:
            out[i, j] = str(int(x))
    return out


def _labelled(m: np.ndarray) -> np.ndarray:
    names = np.array(["none", "low", "mid", "high", "top"], dtype=object)
    out = np.empty(m.shape, dtype=object)
    for (i, j), x in np.ndenumerate(m):
        out[i, j] = None if np.isnan(x) else names[int(x) - 1]
    return out


CASES = {
    "codes": (lambda m: m, Ordinal()),
    "matrix": (lambda m: m, Ordinal()),  # a numpy matrix of codes: the fused path's counts
    "spelled-ties": (_spelled, Ordinal()),
    "order": (_labelled, Ordinal(order=["none", "low", "mid", "high", "top"])),
    "order-shuffled": (lambda m: m, Ordinal(order=[3.0, 1.0, 5.0, 2.0, 4.0])),
}


def _data(case: str, m: np.ndarray):
    make, dist = CASES[case]
    cells = make(m)
    return (cells if case == "matrix" else Annotations.from_matrix(cells)), dist


# ------------------------------------------------------------------ the batched distance
@pytest.mark.parametrize("case", ["codes", "spelled-ties", "order"])
def test_batched_ordinal_rows_are_the_prepared_distance(rng, case):
    make, dist = CASES[case]
    data = Annotations.from_matrix(make(random_matrix(rng, 3, 40, 5, 0.1)))
    v = len(data.values)
    counts = rng.integers(0, 30, size=(12, v)).astype(float)
    counts[3] = 0.0  # an empty resample
    counts[4, ::2] = 0.0  # values no unit of the resample holds
    batch = dist.prepare_batch(data.values, counts)
    ii, jj = (x.ravel() for x in np.meshgrid(np.arange(v), np.arange(v), indexing="ij"))
    other = counts[::-1]
    cross = batch.cross_sum(counts, other)
    for r in range(len(counts)):
        prep = dist.prepare(data.values, counts[r])
        np.testing.assert_array_equal(batch.pairs(ii, jj)[r], prep.pairs(ii, jj))
        np.testing.assert_allclose(cross[r], prep.cross_sum(counts[r], other[r]), **TOL)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=4, max_size=4), min_size=1, max_size=6),
       st.permutations(list(range(4))))
def test_batched_ordinal_property(rows, perm):
    values = np.array(["a", "b", "c", "d"], dtype=object)
    dist = Ordinal(order=[values[k] for k in perm])
    counts = np.array(rows, dtype=float)
    batch = dist.prepare_batch(values, counts)
    ii, jj = (x.ravel() for x in np.meshgrid(np.arange(4), np.arange(4), indexing="ij"))
    for r in range(len(counts)):
        prep = dist.prepare(values, counts[r])
        np.testing.assert_array_equal(batch.pairs(ii, jj)[r], prep.pairs(ii, jj))
        np.testing.assert_allclose(batch.cross_sum(counts, counts)[r], prep.cross_sum(counts[r], counts[r]), **TOL)


# ------------------------------------------------------------------ alpha, unit bootstrap
@pytest.mark.parametrize("case", list(CASES))
def test_alpha_batch_equals_the_per_resample_path(rng, case):
    data, dist = _data(case, random_matrix(rng, 3, 80, 5, 0.15))
    res = accord.alpha(data, distance=dist)
    uc, values = res._counts.per_unit(), res._values
    parts = row_parts(uc, values, dist)
    assert parts is not None
    idx = rng.integers(0, uc.n_rows, size=(60, uc.n_rows))
    new = parts.alphas(_unit_weights(idx, uc.n_rows))
    old = [_resample_alpha(uc, values, dist, d.astype(float)) for d in idx]
    np.testing.assert_allclose(new, old, **TOL)
    np.testing.assert_allclose(parts.alphas(np.ones((1, uc.n_rows))), [res.alpha], **TOL)


def _without_batch(monkeypatch):
    monkeypatch.setattr(Ordinal, "prepare_batch", lambda self, values, counts: None)


@pytest.mark.parametrize("case", ["codes", "matrix", "spelled-ties", "order"])
@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_alpha_interval_is_the_per_resample_interval(rng, monkeypatch, case, method):
    data, dist = _data(case, random_matrix(rng, 3, 50, 5, 0.1))
    res = accord.alpha(data, distance=dist)
    new_dist = res.bootstrap_distribution(n_resamples=120, rng=4)
    new_ci = res.confidence_interval(n_resamples=120, rng=4, method=method)
    _without_batch(monkeypatch)
    np.testing.assert_allclose(new_dist, res.bootstrap_distribution(n_resamples=120, rng=4), **TOL)
    np.testing.assert_allclose(new_ci, res.confidence_interval(n_resamples=120, rng=4, method=method), **TOL)


def test_alpha_resamples_are_alpha_of_the_resampled_units(rng):
    """The batched ordinal resamples against alpha recomputed from the drawn units, drawn as scipy draws them."""
    m = random_matrix(rng, 3, 40, 5, 0.1)
    res = accord.alpha(m, distance="ordinal")
    boot = res.bootstrap_distribution(n_resamples=30, rng=7)
    pairable = np.flatnonzero((~np.isnan(m)).sum(axis=0) >= 2)
    draws = np.random.default_rng(7).integers(0, len(pairable), size=(30, len(pairable)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)
        expected = [accord.alpha(m[:, pairable[d]], distance="ordinal").alpha for d in draws]
    expected = np.array(expected)
    np.testing.assert_allclose(boot, expected[~np.isnan(expected)], **TOL)


def test_sparse_parts_and_small_batches_give_the_same_resamples(rng, monkeypatch):
    data = Annotations.from_matrix(_spelled(random_matrix(rng, 4, 70, 5, 0.2)))
    res = accord.alpha(data, distance="ordinal")
    want = res.bootstrap_distribution(n_resamples=50, rng=2)
    monkeypatch.setattr(_marginal_bootstrap, "_DENSE_CELLS", 0)
    monkeypatch.setattr(_marginal_bootstrap, "BATCH_CELLS", 500)  # a few resamples per batch
    parts = row_parts(res._counts.per_unit(), res._values, res._distance)
    assert parts is not None and not isinstance(parts.parts, np.ndarray) and parts.batch() < 50
    np.testing.assert_allclose(res.bootstrap_distribution(n_resamples=50, rng=2), want, **TOL)


def test_too_many_pairs_of_values_fall_back_to_the_loop(rng, monkeypatch):
    """Many distinct values all meeting one another: past MAX_PAIRS the per-resample loop runs, same numbers."""
    m = rng.normal(size=(3, 60)).round(2)
    res = accord.alpha(m, distance="ordinal")
    want = res.bootstrap_distribution(n_resamples=40, rng=5)
    monkeypatch.setattr(_marginal_bootstrap, "MAX_PAIRS", 10)
    assert row_parts(res._counts.per_unit(), res._values, res._distance) is None
    np.testing.assert_allclose(res.bootstrap_distribution(n_resamples=40, rng=5), want, **TOL)


def test_progress_is_reported_on_the_batched_path(rng):
    res = accord.alpha(random_matrix(rng, 3, 30, 5, 0.0), distance="ordinal")
    done: list[int] = []
    res._bootstrap(0.95, 25, "percentile", 1, progress=done.append)
    assert sum(done) == 25


# ------------------------------------------------------------------ alpha, signature histogram
@pytest.mark.parametrize("case", ["codes", "spelled-ties", "order", "order-shuffled"])
def test_signature_batch_equals_the_per_resample_path(rng, case):
    data, dist = _data(case, random_matrix(rng, 3, 200, 5, 0.15))
    sig = signature_counts(count_values(data))
    assert sig.n_rows < sig.n_pairable_units
    weight = sig.unit_weight
    draws = rng.multinomial(sig.n_pairable_units, weight / weight.sum(), size=80).astype(float)
    old = _alphas_by_preparing(sig, data.values, dist, draws)
    np.testing.assert_allclose(_alphas(sig, data.values, dist, draws), old, **TOL)
    np.testing.assert_allclose(_alphas(sig, data.values, dist, weight[None, :]),
                               [accord.alpha(data, distance=dist).alpha], **TOL)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_signature_interval_is_the_per_resample_interval(rng, monkeypatch, method):
    data, dist = _data("spelled-ties", random_matrix(rng, 3, 150, 5, 0.1))
    sig = signature_counts(count_values(data))
    kw = dict(confidence_level=0.9, n_resamples=150, method=method, rng=3)
    new = signature_bootstrap(sig, data.values, dist, **kw)
    _without_batch(monkeypatch)
    old = signature_bootstrap(sig, data.values, dist, **kw)
    np.testing.assert_allclose(new.confidence_interval, old.confidence_interval, **TOL)
    np.testing.assert_allclose(new.bootstrap_distribution, old.bootstrap_distribution, **TOL)


# ------------------------------------------------------------------ Light's kappa
@pytest.mark.parametrize("case", ["codes", "spelled-ties", "order"])
def test_light_kappa_batch_equals_the_per_resample_path(rng, monkeypatch, case):
    data, dist = _data(case, random_matrix(rng, 4, 90, 5, 0.05))  # units some coder skipped are left out
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)
        res = accord.light_kappa(data, distance=dist)
    assert res.n_units_dropped > 0
    new = res.bootstrap_distribution(n_resamples=150, rng=6)
    new_ci = res.confidence_interval(n_resamples=150, rng=6, method="BCa")
    _without_batch(monkeypatch)
    np.testing.assert_allclose(new, res.bootstrap_distribution(n_resamples=150, rng=6), **TOL)
    np.testing.assert_allclose(new_ci, res.confidence_interval(n_resamples=150, rng=6, method="BCa"), **TOL)


def test_light_kappa_pair_terms_of_the_loop_are_cohen_kappa_of_the_resample(rng):
    """The reference loop itself: one resample's D_o and D_e give Cohen's kappa of the drawn units."""
    m = random_matrix(rng, 2, 50, 5, 0.0)
    values = np.unique(m)
    codes = np.searchsorted(values, m).T
    draw = rng.integers(0, 50, size=(1, 50))
    xa, xb = codes[draw, 0], codes[draw, 1]
    ca = np.bincount(xa[0], minlength=len(values))[None, :].astype(float)
    cb = np.bincount(xb[0], minlength=len(values))[None, :].astype(float)
    d_o, d_e = _pair_terms_by_preparing(Ordinal(), values, xa, xb, ca, cb)
    want = accord.cohen_kappa(m[:, draw[0]], distance="ordinal").kappa
    np.testing.assert_allclose(1.0 - d_o / d_e, [want], **TOL)


@pytest.mark.parametrize("distance", ["nominal", "interval", "ordinal"])
def test_light_kappa_bca_is_scipy_bca_of_light_kappa_on_the_resampled_units(rng, distance):
    """BCa's jackknife hands the statistic samples of n - 1 units; the statistic took them as n (a reshape error
    on main).  Oracle: scipy.stats.bootstrap with Light's kappa recomputed on each resample's units."""
    from scipy import stats

    m = random_matrix(rng, 3, 24, 4, 0.0)
    res = accord.light_kappa(m, distance=distance)
    got = res.confidence_interval(n_resamples=60, rng=8, method="BCa")

    def kappa_of(idx):
        return accord.light_kappa(m[:, idx.astype(np.int64)], distance=distance).kappa

    want = stats.bootstrap((np.arange(24, dtype=float),), kappa_of, vectorized=False, n_resamples=60,
                           method="BCa", rng=np.random.default_rng(8)).confidence_interval
    np.testing.assert_allclose(got, tuple(want), **TOL)


def test_values_of_one_rank_are_one_point_of_the_scale():
    """"2" and "02" spell one number: alpha and Light's kappa must be what they are with one spelling throughout
    (main gave the tied values a distance from each other in the expected disagreement: 0.6925 against 0.6786)."""
    two = [["1", "2", "02", "3", "3", "4"], ["1", "02", "2", "3", "4", "4"], ["2", "2", "02", "1", "3", "4"]]
    one = [[x.lstrip("0") for x in row] for row in two]
    for coefficient in (accord.alpha, accord.light_kappa):
        got = coefficient(Annotations.from_matrix(two), distance="ordinal")
        want = coefficient(Annotations.from_matrix(one), distance="ordinal")
        np.testing.assert_allclose(got.value, want.value, **TOL)
    ordinal = accord.get_distance("ordinal")
    prep = ordinal.prepare(np.array(["2", "02", "3"], dtype=object), np.array([3.0, 1.0, 2.0]))
    np.testing.assert_allclose(prep.matrix(), (prep.embedding[:, None] - prep.embedding[None, :]) ** 2, atol=0)


def test_many_values_take_the_sparse_batched_path(rng):
    """300 distinct values: no values x values array; the parts are sparse, the resamples those of the loop."""
    base = rng.integers(0, 300, 400)
    m = np.stack([base, base + rng.integers(-3, 4, 400), rng.integers(0, 300, 400)]).astype(float)
    res = accord.alpha(Annotations.from_matrix(m), distance="ordinal")
    uc, values = res._counts.per_unit(), res._values
    parts = row_parts(uc, values, res._distance)
    assert parts is not None and not isinstance(parts.parts, np.ndarray) and uc.n_values > 250
    idx = rng.integers(0, uc.n_rows, size=(15, uc.n_rows))
    old = [_resample_alpha(uc, values, res._distance, d.astype(float)) for d in idx]
    np.testing.assert_allclose(parts.alphas(_unit_weights(idx, uc.n_rows)), old, **TOL)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.integers(3, 25), st.integers(2, 7), st.floats(0.0, 0.4), st.integers(0, 2**32 - 1),
       st.booleans())
def test_alpha_batch_property(coders, units, categories, missing, seed, as_matrix):
    """Any small matrix, on either counting path: each batched resample is the per-resample path's."""
    g = np.random.default_rng(seed)
    m = random_matrix(g, coders, units, categories, missing)
    if (~np.isnan(m)).sum(axis=0).max() < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", accord.AccordWarning)
        res = accord.alpha(m if as_matrix else Annotations.from_matrix(m), distance="ordinal")
    uc, values = res._counts.per_unit(), res._values
    parts = row_parts(uc, values, res._distance)
    idx = g.integers(0, uc.n_rows, size=(8, uc.n_rows))
    old = [_resample_alpha(uc, values, res._distance, d.astype(float)) for d in idx]
    np.testing.assert_allclose(parts.alphas(_unit_weights(idx, uc.n_rows)), old, **TOL)
