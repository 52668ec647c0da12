"""Gwet's AC1 and AC2: irrCAC as the oracle on random data, Gwet's printed examples, edge cases."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from accord import AccordError, Annotations
from accord.coefficients._gwet import gwet_ac1, gwet_ac2

irrcac_raw = pytest.importorskip("irrCAC.raw")


def _irrcac(matrix_units_by_coders: np.ndarray, weights, categories=None) -> dict:
    import pandas as pd

    if categories is None:
        # irrCAC finds the categories with ``ratings.stack().unique()``; from pandas 3 on, ``stack`` keeps
        # NaN, so missing ratings would become a category of their own.  Passing the observed categories
        # gives what irrCAC computes on pandas 2.
        m = np.asarray(matrix_units_by_coders, dtype=float)
        categories = sorted(np.unique(m[~np.isnan(m)]).tolist())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # irrCAC's own SettingWithCopyWarning
        cac = irrcac_raw.CAC(pd.DataFrame(matrix_units_by_coders), weights=weights, categories=categories, digits=20)
        return cac.gwet()["est"]


def _random(rng: np.random.Generator) -> np.ndarray:
    n, r, q = rng.integers(4, 40), rng.integers(2, 6), rng.integers(2, 6)
    m = rng.integers(1, q + 1, size=(n, r)).astype(float)
    m[rng.random((n, r)) < 0.3] = np.nan
    m[0, :2] = 1.0  # at least one subject rated twice
    return m


@pytest.mark.parametrize(
    ("weights", "distance"), [("identity", "nominal"), ("quadratic", "interval"), ("ratio", "ratio")]
)
def test_equals_irrcac_on_random_data_with_missing_ratings(weights, distance):
    rng = np.random.default_rng(2008)
    for _ in range(25):
        m = _random(rng)
        est = _irrcac(m, weights)
        res = gwet_ac2(Annotations.from_matrix(m.T), distance=distance)
        assert res.ac == pytest.approx(est["coefficient_value"], abs=1e-9)
        assert res.observed_agreement == pytest.approx(est["pa"], abs=1e-9)
        assert res.chance_agreement == pytest.approx(est["pe"], abs=1e-9)
        assert res.standard_error == pytest.approx(est["se"], abs=1e-9)
        assert res.p_value == pytest.approx(est["p_value"], abs=1e-9)
        lo, hi = res.confidence_interval(0.95)
        ref_lo, ref_hi = est["confidence_interval"]  # irrCAC caps the upper end at 1; accord cuts the lower at -1 too
        assert (lo, hi) == pytest.approx((max(-1.0, ref_lo), ref_hi), abs=1e-9)


def test_custom_weights_and_unused_categories_equal_irrcac():
    rng = np.random.default_rng(14)
    cats = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # 6 never occurs below
    w = np.clip(1 - np.abs(np.subtract.outer(np.arange(6), np.arange(6))) / 3.0, 0, 1)
    for _ in range(10):
        m = rng.integers(1, 6, size=(30, 3)).astype(float)
        m[rng.random(m.shape) < 0.2] = np.nan
        est = _irrcac(m, w, categories=cats)
        res = gwet_ac2(Annotations.from_matrix(m.T), weights=w, categories=cats)
        assert res.ac == pytest.approx(est["coefficient_value"], abs=1e-9)
        assert res.standard_error == pytest.approx(est["se"], abs=1e-9)
        est1 = _irrcac(m, "identity", categories=cats)
        res1 = gwet_ac1(Annotations.from_matrix(m.T), categories=cats)
        assert res1.ac == pytest.approx(est1["coefficient_value"], abs=1e-9)
        assert res1.chance_agreement == pytest.approx(est1["pe"], abs=1e-9)


def test_gwet_2014_four_raters_twelve_subjects():
    """Gwet (2014), Handbook of Inter-Rater Reliability, 4th ed.: 4 raters, 12 subjects, 5 categories, missing
    ratings (the ``cac.raw4raters`` data of Gwet's irrCAC package).  AC1 = 0.7754, p_a = 0.8182, p_e = 0.1903,
    standard error 0.1429, 95% interval (0.461, 1)."""
    nan = math.nan
    raters = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, nan],
        [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, 3],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
    ]
    res = gwet_ac1(Annotations.from_matrix(raters))
    assert res.n_units == 12 and res.n_pairable_units == 11
    assert res.ac == pytest.approx(0.7754, abs=5e-5)
    assert res.observed_agreement == pytest.approx(0.8182, abs=5e-5)
    assert res.chance_agreement == pytest.approx(0.1903, abs=5e-5)
    assert res.standard_error == pytest.approx(0.1429, abs=5e-5)
    lo, hi = res.confidence_interval()
    assert lo == pytest.approx(0.461, abs=5e-4) and hi == 1.0


def test_gwet_2014_two_abstractors_contingency_table():
    """Gwet (2014): 100 pregnant women classified by two abstractors (Ectopic, AIU, NIU); Gwet's irrCAC vignette
    ("Calculating Chance-corrected Agreement Coefficients", gwet.ac1.table) prints AC1 = 0.8493305 with standard
    error 0.04321747.

    AC1 is reproduced to the printed digits.  The printed standard error is the contingency-table form, whose
    variance divides by n^2; the raw-ratings form used here (and by irrCAC's raw functions) divides by n(n - 1),
    so ours is larger by sqrt(n / (n - 1)) exactly, which the test checks instead of bending the code.
    """
    table = [[13, 0, 0], [0, 20, 7], [0, 4, 56]]
    cats = ["Ectopic", "AIU", "NIU"]
    recs, u = [], 0
    for i in range(3):
        for j in range(3):
            for _ in range(table[i][j]):
                recs += [(u, "A", cats[i]), (u, "B", cats[j])]
                u += 1
    res = gwet_ac1(Annotations.from_records(recs))
    assert res.ac == pytest.approx(0.8493305, abs=5e-8)
    assert res.standard_error * math.sqrt(99 / 100) == pytest.approx(0.04321747, abs=5e-9)


def test_perfect_agreement_and_label_invariance():
    d = Annotations.from_matrix([["a", "b", "c", "a"], ["a", "b", "c", "a"], [None, "b", "c", "a"]])
    assert gwet_ac1(d).ac == pytest.approx(1.0)
    m = [["a", "b", "b", "a"], ["a", "a", "b", "b"]]
    renamed = [[{"a": "x", "b": "y"}[v] for v in row] for row in m]
    assert gwet_ac1(Annotations.from_matrix(m)).ac == pytest.approx(gwet_ac1(Annotations.from_matrix(renamed)).ac)


def test_ac2_with_nominal_distance_is_ac1():
    rng = np.random.default_rng(3)
    m = _random(rng)
    d = Annotations.from_matrix(m.T)
    assert gwet_ac2(d).ac == pytest.approx(gwet_ac1(d).ac, abs=1e-15)


def test_set_values_through_a_set_distance():
    d = Annotations.from_matrix([[{"a"}, {"a", "b"}, {"c"}], [{"a"}, {"b"}, {"c"}], [{"a", "b"}, {"b"}, {"c"}]])
    res = gwet_ac2(d, distance="masi-2006")
    assert res.coefficient == "ac2" and -1 <= res.ac <= 1
    assert np.allclose(np.diag(res.weights), 1.0)


def test_single_category_is_undefined_with_reason():
    d = Annotations.from_matrix([["a", "a"], ["a", "a"]])
    with pytest.warns(Warning, match="chance agreement is 1"):
        res = gwet_ac1(d)
    assert math.isnan(res.ac) and "single category" in res.undefined_reason
    with pytest.raises(AccordError, match="undefined"):
        res.confidence_interval()


def test_bad_input_is_named():
    d = Annotations.from_matrix([["a", "b"], ["a", "a"]])
    with pytest.raises(AccordError, match="categories: the data hold the value 'b'"):
        gwet_ac1(d, categories=["a", "c"])
    with pytest.raises(AccordError, match="weights must be a 2 x 2 matrix"):
        gwet_ac2(d, weights=np.eye(3))
    with pytest.raises(AccordError, match="either distance or weights"):
        gwet_ac2(d, weights=np.eye(2), distance="interval")
    with pytest.raises(AccordError, match="population_size"):
        gwet_ac1(d, population_size=-1)
    with pytest.raises(AccordError, match="no pairable unit"):
        gwet_ac1(Annotations.from_records([(1, "a", "x"), (2, "b", "y")]))


def test_finite_population_correction_shrinks_the_error():
    rng = np.random.default_rng(5)
    m = _random(rng)
    d = Annotations.from_matrix(m.T)
    inf = gwet_ac1(d)
    fin = gwet_ac1(d, population_size=2 * inf.n_units)
    assert fin.ac == inf.ac
    assert fin.standard_error == pytest.approx(inf.standard_error * math.sqrt(0.5))
    est = _irrcac(m, "identity")
    assert inf.standard_error == pytest.approx(est["se"], abs=1e-9)


def test_cli_gwet(tmp_path):
    from typer.testing import CliRunner

    from accord.cli import app

    f = tmp_path / "a.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n3,a,y\n3,b,y\n")
    out = CliRunner().invoke(app, ["agree", str(f), "--coefficient", "gwet", "--json"])
    assert out.exit_code == 0, out.output
    assert '"ac"' in out.output


def test_interval_stays_in_the_range_and_needs_two_subjects():
    """Few subjects: AC +/- t * se reaches below -1 and is cut there; one subject rated twice has no interval."""
    from accord._shared.errors import AccordError

    two = gwet_ac1(Annotations.from_records([("u1", "a", "x"), ("u1", "b", "x"), ("u2", "a", "y"),
                                             ("u2", "b", "x"), ("u3", "a", "y")]))
    assert two.n_pairable_units == 2 and two.ac - 12 * two.standard_error < -1
    lo, hi = two.confidence_interval()
    assert lo == -1.0 and hi == 1.0
    one = gwet_ac1(Annotations.from_records([("u1", "a", "x"), ("u1", "b", "y"), ("u2", "a", "y")]))
    with pytest.raises(AccordError, match="at least two subjects rated twice"):
        one.confidence_interval()
