"""irrCAC as the oracle on random data of every shape, for every coefficient irrCAC has (issue 30).

Shapes: 2 to 6 raters, 2 to 8 categories on unevenly spaced numeric codes, missing ratings, categories
nobody chose (zero columns of the count table, named in ``categories``), and weights: identity, every
named scheme, a random symmetric matrix and a random directional one.  Where accord's default differs from
irrCAC's convention the option that reproduces irrCAC is passed, by name:

- Fleiss' kappa with missing ratings: ``missing="gwet"`` (irrCAC's ``raw.CAC.fleiss``);
- the standard errors of AC1/AC2 and Brennan-Prediger from a contingency table: ``variance="table"``
  (irrCAC's ``table.CAC``);
- named weights on a contingency table: irrCAC's ``table.CAC`` scores the categories 1..q, which is
  accord on the categories 1..q (or ``kappa_weights(..., scores="ranks")``).

irrCAC finds the categories with ``ratings.stack().unique()``, which keeps NaN from pandas 3 on; every
call here names the categories, as irrCAC's documentation advises when some are unused.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import accord
from accord import Annotations
from accord.coefficients._weights import WEIGHT_NAMES, kappa_weights

irrcac_raw = pytest.importorskip("irrCAC.raw")
irrcac_table = pytest.importorskip("irrCAC.table")
pytestmark = [pytest.mark.filterwarnings("ignore:Starting with pandas version 4.0"),
              pytest.mark.filterwarnings("ignore::accord.AccordWarning")]

SEEDS = range(24)
WEIGHTINGS = ("identity", *[w for w in WEIGHT_NAMES if w != "identity"], "symmetric", "directional")


def _weights(rng: np.random.Generator, kind: str, cats: list[float]) -> object:
    """The weights for both libraries: a name, or a q x q matrix (1 on the diagonal)."""
    if kind not in ("symmetric", "directional"):
        return kind
    q = len(cats)
    w = rng.random((q, q))
    if kind == "symmetric":
        w = (w + w.T) / 2
    np.fill_diagonal(w, 1.0)
    return w


def _raw_case(seed: int) -> tuple[np.ndarray, list[float], np.random.Generator]:
    """Subjects x raters ratings with missing cells, and the categories (some of them never used)."""
    rng = np.random.default_rng(seed)
    n, r, q = int(rng.integers(6, 30)), int(rng.integers(2, 7)), int(rng.integers(2, 9))
    cats = np.sort(rng.choice(np.arange(1, 15), size=q, replace=False)).astype(float)
    used = cats if q == 2 else cats[np.sort(rng.choice(q, size=int(rng.integers(2, q + 1)), replace=False))]
    m = used[rng.integers(0, len(used), size=(n, r))]
    agree = rng.random((n, r)) < 0.4
    m[agree] = np.broadcast_to(m[:, :1], m.shape)[agree]
    m[rng.random((n, r)) < 0.2] = np.nan
    m[0, :2] = used[0]  # a subject rated twice
    m[1, :2] = used[1]  # and a second category
    for j in range(r):  # every rater rated someone (irrCAC divides by each rater's count)
        if np.isnan(m[:, j]).all():
            m[2, j] = used[-1]
    return m, cats.tolist(), rng


def _raw(m: np.ndarray, weights: object, cats: list[float]) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return irrcac_raw.CAC(pd.DataFrame(m), weights=weights, categories=cats, digits=20)


def _est(cac: object, method: str) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(cac, method)()["est"]


def _close(got: float, want: float, tol: float = 1e-9) -> None:
    want = float(np.asarray(want).ravel()[0])
    if math.isnan(want):
        assert math.isnan(got)
    else:
        assert got == pytest.approx(want, abs=tol)


def _kw(weights: object, cats: list[float]) -> dict:
    return {"weights": None if isinstance(weights, str) and weights == "identity" else weights, "categories": cats}


# ------------------------------------------------------------------ raw ratings
@pytest.mark.parametrize("kind", WEIGHTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_raw_ratings_equal_irrcac(seed, kind):
    m, cats, rng = _raw_case(seed)
    if kind == "ratio" and min(cats) <= 0:
        pytest.skip("ratio weights need positive categories")
    weights = _weights(rng, kind, cats)
    cac = _raw(m, weights, cats)
    kw = _kw(weights, cats)
    sym = not (isinstance(weights, np.ndarray) and not np.allclose(weights, weights.T))

    ref = _est(cac, "gwet")
    got = accord.gwet_ac2(m, weights=weights, categories=cats, layout="units-by-coders")
    _close(got.value, ref["coefficient_value"])
    _close(got.observed_agreement, ref["pa"])
    _close(got.expected_agreement, ref["pe"])
    _close(got.standard_error, ref["se"])

    ref = _est(cac, "bp")
    got = accord.brennan_prediger(m, layout="units-by-coders", **kw)
    _close(got.value, ref["coefficient_value"])
    _close(got.expected_agreement, ref["pe"])
    _close(got.standard_error, ref["se"])

    ref = _est(cac, "conger")
    got = accord.conger_kappa(m, layout="units-by-coders", **kw)
    _close(got.value, ref["coefficient_value"])
    _close(got.expected_agreement, ref["pe"])
    if sym:  # irrCAC's linearisation of a directional matrix reads it one way per rater; accord symmetrises
        _close(got.standard_error, ref["se"])

    ref = _est(cac, "fleiss")
    got = accord.fleiss_kappa(m, missing="gwet", layout="units-by-coders", **kw)
    _close(got.value, ref["coefficient_value"])
    _close(got.observed_agreement, ref["pa"])
    _close(got.expected_agreement, ref["pe"])
    _close(got.standard_error, ref["se"])
    _close(got.p_value, ref["p_value"])

    ref = _est(cac, "krippendorff")
    got = accord.alpha(m, weights=weights, categories=cats, layout="units-by-coders")
    _close(got.value, ref["coefficient_value"])


def test_fleiss_missing_gwet_is_the_default_on_complete_data():
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        m = rng.integers(1, 5, size=(int(rng.integers(5, 30)), int(rng.integers(2, 7)))).astype(float)
        plain = accord.fleiss_kappa(m, layout="units-by-coders")
        gwet = accord.fleiss_kappa(m, missing="gwet", layout="units-by-coders")
        _close(gwet.kappa, plain.kappa, 1e-12)
        _close(gwet.expected_agreement, plain.expected_agreement, 1e-12)


# ------------------------------------------------------------------ two raters' contingency table
def _table_case(seed: int) -> tuple[np.ndarray, np.random.Generator]:
    rng = np.random.default_rng(1000 + seed)
    q = int(rng.integers(2, 9))
    t = rng.integers(0, 8, size=(q, q))
    t[np.diag_indices(q)] += rng.integers(0, 10, size=q)
    if q > 2 and rng.random() < 0.5:  # a category nobody chose: a zero row and column
        k = int(rng.integers(0, q))
        t[k, :] = 0
        t[:, k] = 0
    t[0, 0] += 1
    t[-1, 0] += 1
    return t, rng


@pytest.mark.parametrize("kind", WEIGHTINGS)
@pytest.mark.parametrize("seed", SEEDS)
def test_contingency_tables_equal_irrcac(seed, kind):
    t, rng = _table_case(seed)
    q = len(t)
    cats = list(range(1, q + 1))  # irrCAC's table functions score the categories 1..q
    weights = _weights(rng, kind, cats)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cac = irrcac_table.CAC(pd.DataFrame(t), weights=weights, digits=20)
    data = Annotations.from_confusion(t, categories=cats)
    kw = _kw(weights, cats)
    sym = not (isinstance(weights, np.ndarray) and not np.allclose(weights, weights.T))

    ref = _est(cac, "cohen")
    got = accord.cohen_kappa(data, **kw)
    _close(got.value, ref["coefficient_value"])
    _close(got.observed_agreement, ref["pa"])
    _close(got.expected_agreement, ref["pe"])
    if sym:  # irrCAC's variance reads a directional matrix's row means transposed
        _close(got.standard_error, ref["se"])

    ref = _est(cac, "scott")
    got = accord.scott_pi(data, **kw)
    _close(got.value, ref["coefficient_value"])

    if isinstance(weights, str) and weights == "identity":
        ref = _est(cac, "pa2")
        _close(accord.percent_agreement(data).value, ref["coefficient_value"])

    if not sym:
        # AC2, Brennan-Prediger and alpha are coefficients of any number of raters, with no first rater: they
        # read a directional matrix by its symmetric part, as irrCAC's raw-data functions do (its table
        # functions read it one way for these too); the symmetric part gives irrCAC's table values
        weights = (weights + weights.T) / 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cac = irrcac_table.CAC(pd.DataFrame(t), weights=weights, digits=20)
        kw = _kw(weights, cats)

    ref = _est(cac, "gwet")
    got = accord.gwet_ac2(data, weights=weights, categories=cats, variance="table")
    _close(got.value, ref["coefficient_value"])
    _close(got.expected_agreement, ref["pe"])
    _close(got.standard_error, ref["se"])

    ref = _est(cac, "bp")
    got = accord.brennan_prediger(data, variance="table", **kw)
    _close(got.value, ref["coefficient_value"])
    _close(got.standard_error, ref["se"])

    ref = _est(cac, "krippendorff")
    got = accord.alpha(data, weights=weights, categories=cats)
    _close(got.value, ref["coefficient_value"])


def test_table_variance_is_the_subjects_variance_times_n_minus_1_over_n():
    t, _ = _table_case(3)
    data = Annotations.from_confusion(t)
    n = t.sum()
    for func in (accord.gwet_ac1, accord.brennan_prediger):
        a, b = func(data), func(data, variance="table")
        assert a.value == b.value
        assert b.standard_error**2 == pytest.approx(a.standard_error**2 * (n - 1) / n)
    with pytest.raises(accord.AccordError, match="variance must be 'subjects' or 'table'; got 'n2'"):
        accord.gwet_ac1(data, variance="n2")


def test_rank_scores_are_r_irr_weights():
    # R irr's kappa2(weight = "equal") on codes 1, 2, 5: the levels present, one step apart
    data = Annotations.from_matrix([[1, 2, 5, 5, 2, 1], [1, 5, 5, 2, 2, 2]])
    cats = [1, 2, 5]
    by_rank = accord.cohen_kappa(data, weights=kappa_weights("linear", cats, scores="ranks"), categories=cats)
    coded = accord.cohen_kappa(Annotations.from_matrix([[1, 2, 3, 3, 2, 1], [1, 3, 3, 2, 2, 2]]), weights="linear")
    assert by_rank.kappa == pytest.approx(coded.kappa)
    assert by_rank.kappa != pytest.approx(accord.cohen_kappa(data, weights="linear").kappa)
