"""Coefficients for numeric ratings: intraclass correlations, Kendall's W, Lin's CCC.

Oracles: Shrout & Fleiss' (1979) worked example; pingouin's ``intraclass_corr`` for the six forms it
has (on random data, with and without missing ratings); statsmodels' two-way ANOVA for the mean squares;
scipy's Friedman test for W; Lin's (1989) formulas written out directly for the CCC.
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
from accord.coefficients._icc import ICCResult, _interval
from accord.rating_coefficients import icc, icc_table, kendall_w, lin_ccc

# Shrout & Fleiss (1979), Table 2: four judges rate six targets (one row per target).
SF = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], dtype=float)


# ------------------------------------------------------------------ ICC: published numbers
def test_shrout_fleiss_1979_table_2():
    """Shrout & Fleiss (1979): the data of their Table 2; the paper's analysis of variance of it (between targets
    BMS 11.24, within targets WMS 6.26, between judges JMS 32.49, residual EMS 1.02) and its six intraclass
    correlations, printed to two decimals: ICC(1,1) .17, ICC(2,1) .29, ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62,
    ICC(3,4) .91."""
    table = icc_table(SF, layout="units-by-coders")
    assert (round(table.ms_rows, 2), round(table.ms_within, 2), round(table.ms_columns, 2),
            round(table.ms_error, 2)) == (11.24, 6.26, 32.49, 1.02)
    published = {"ICC(1,1)": 0.17, "ICC(2,1)": 0.29, "ICC(3,1)": 0.71, "ICC(1,k)": 0.44, "ICC(2,k)": 0.62,
                 "ICC(3,k)": 0.91}
    for name, value in published.items():
        assert round(table[name].icc, 2) == value, name
    # both names reach the same form
    assert table["ICC(2,1)"] is table["ICC(A,1)"] and table["ICC(3,k)"].form == "ICC(C,k)"
    assert table["ICC(3,1)"].model == "two-way mixed" and table["ICC(1,1)"].model == "one-way random"
    assert table["ICC(2,1)"].name == "ICC(A,1), two-way random, absolute agreement, single (Shrout & Fleiss ICC(2,1))"


def test_consistency_interval_from_published_mean_squares():
    """McGraw & Wong's (1996, Table 7) exact-F interval of ICC(C,1) and ICC(C,k) from mean squares: the example
    of statpsych's ``ci.icc`` help page (MSR 48.2, MSE 11.3, 5 raters, 30 subjects) prints ICC(C,1) .3951 with
    95% interval [.2311, .5853] and ICC(C,5) .7656 with [.6005, .8759]."""
    def form(unit: str) -> ICCResult:
        msr, mse, k = 48.2, 11.3, 5
        value = (msr - mse) / (msr + (k - 1) * mse) if unit == "single" else (msr - mse) / msr
        return ICCResult(form="ICC(C,1)", model="two-way random", type="consistency", unit=unit,
                         shrout_fleiss=None, icc=value, f_statistic=msr / mse, df1=29, df2=116, p_value=0.0,
                         null_value=0.0, ms_rows=msr, ms_columns=math.nan, ms_error=mse, ms_within=math.nan,
                         n_units=30, n_coders=k)
    single, average = form("single"), form("average")
    assert round(single.icc, 4) == 0.3951 and round(average.icc, 4) == 0.7656
    assert [round(b, 4) for b in _interval(single, 0.05)] == [0.2311, 0.5853]
    assert [round(b, 4) for b in _interval(average, 0.05)] == [0.6005, 0.8759]


def test_mcgraw_wong_1996_what_can_be_reproduced():
    """McGraw & Wong (1996) and its correction (Psychological Methods 1(4), 390) give the ten forms' estimates
    (Tables 4-6), confidence intervals (Table 7) and F tests of rho = rho_0 (Table 8) as formulas in the mean
    squares; their text is not among this project's papers and no stored copy of it could be read here, so
    no table of theirs with a data set, mean squares and intervals is reproduced.  The one numeric
    illustration of theirs that secondary sources quote is the documentation of R's ``rel::icc``: for the
    paired scores (2, 4), (4, 6), (6, 8) "ICC equals 1.00 ... for consistency, but only 0.67 for absolute
    agreement".  (A MATLAB port, robertpetermatthew/f_ICC, attributes a ten-pair data set to "McGraw Table 6";
    that attribution could not be checked against the paper, so it is not used.)  The formulas themselves
    are checked against printed output below and in the other tests of this file."""
    pairs = icc_table([[2, 4], [4, 6], [6, 8]], layout="units-by-coders")
    assert round(pairs["ICC(C,1)"].icc, 2) == 1.00
    assert round(pairs["ICC(A,1)"].icc, 2) == 0.67


def test_one_way_and_absolute_agreement_as_stata_prints_them():
    """Stata's ``icc`` implements Shrout & Fleiss (1979) and McGraw & Wong (1996) (StataCorp on Statalist,
    2012-05, msg01195) and its feature page (stata.com/features/overview/intraclass-correlation-coefficients)
    prints, for the ratings of Shrout & Fleiss' Table 2 (``webuse judges``: 6 targets, 4 judges):

    - one-way random: Individual .1657418 [-.1329323, .7225601], Average .4427971 [-.8844422, .9124154],
      "F test that ICC=0.00: F(5.0, 18.0) = 1.79 Prob > F = 0.165";
    - two-way random, absolute agreement: Individual .2897638, lower bound .0187865 (McGraw & Wong's Table 7
      interval with Satterthwaite's degrees of freedom).

    The NAG Library's g04ga example (the same data, one-way model) prints .17 [-.13, .72], F 1.79 on 5 and 18
    degrees of freedom, p .165."""
    table = icc_table(SF, layout="units-by-coders")
    one, avg = table["ICC(1)"], table["ICC(k)"]
    assert round(one.icc, 7) == 0.1657418 and round(avg.icc, 7) == 0.4427971
    assert [round(b, 7) for b in one.confidence_interval(0.95)] == [-0.1329323, 0.7225601]
    assert [round(b, 7) for b in avg.confidence_interval(0.95)] == [-0.8844422, 0.9124154]
    assert (one.df1, one.df2, round(one.f_statistic, 2), round(one.p_value, 3)) == (5.0, 18.0, 1.79, 0.165)
    agreement = table["ICC(A,1)"]
    assert round(agreement.icc, 7) == 0.2897638
    assert round(agreement.confidence_interval(0.95)[0], 7) == 0.0187865


def _mcgraw_wong_tables_7_8(msr: float, msc: float, mse: float, n: int, k: int, r0: float,
                            alpha: float) -> dict[str, tuple[float, float, float, float]]:
    """McGraw & Wong's (1996) Tables 7 and 8 for the two absolute-agreement forms, written out term by term:
    (F, df2 of the test of rho = r0, lower bound, upper bound).

    Table 8: F = MSR / (a MSC + b MSE) on n - 1 and v degrees of freedom with a = k r0 / (n (1 - r0)),
    b = 1 + k r0 (n - 1) / (n (1 - r0)) for ICC(A,1) and c = r0 / (n (1 - r0)), d = 1 + r0 (n - 1) / (n (1 - r0))
    for ICC(A,k); v = (a MSC + b MSE)^2 / ((a MSC)^2 / (k - 1) + (b MSE)^2 / ((n - 1)(k - 1))).  Table 7: the
    same v with a and b at the estimate of ICC(A,1) (for ICC(A,k): c, d at the estimate of ICC(A,k), which is
    the same v), F* and F_* the upper alpha/2 points of F(n - 1, v) and F(v, n - 1), and
    ICC(A,1) in [n (MSR - F* MSE) / (F* (k MSC + (kn - k - n) MSE) + n MSR),
                 n (F_* MSR - MSE) / (k MSC + (kn - k - n) MSE + n F_* MSR)],
    ICC(A,k) in [n (MSR - F* MSE) / (F* (MSC - MSE) + n MSR), n (F_* MSR - MSE) / (MSC - MSE + n F_* MSR)].

    irrNA's ``icc_corr`` documentation (the corrected ``irr::icc``) says the same of v: the test's a and b are at
    r0, the interval's at the estimate, and irr 0.84.1 mixed the two.
    """
    from scipy.stats import f as fdist

    def v_of(p: float, q: float) -> float:
        return (p * msc + q * mse) ** 2 / ((p * msc) ** 2 / (k - 1) + (q * mse) ** 2 / ((n - 1) * (k - 1)))

    out = {}
    rho1 = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
    rhok = (msr - mse) / (msr + (msc - mse) / n)
    for form, m, rho in (("ICC(A,1)", k, rho1), ("ICC(A,k)", 1, rhok)):
        a0, b0 = m * r0 / (n * (1 - r0)), 1 + m * r0 * (n - 1) / (n * (1 - r0))
        f_test = msr / (a0 * msc + b0 * mse)
        df2 = v_of(a0, b0)
        a, b = m * rho / (n * (1 - rho)), 1 + m * rho * (n - 1) / (n * (1 - rho))
        v = v_of(a, b)
        f_lo, f_hi = fdist.ppf(1 - alpha / 2, n - 1, v), fdist.ppf(1 - alpha / 2, v, n - 1)
        if form == "ICC(A,1)":
            lo = n * (msr - f_lo * mse) / (f_lo * (k * msc + (k * n - k - n) * mse) + n * msr)
            hi = n * (f_hi * msr - mse) / (k * msc + (k * n - k - n) * mse + n * f_hi * msr)
        else:
            lo = n * (msr - f_lo * mse) / (f_lo * (msc - mse) + n * msr)
            hi = n * (f_hi * msr - mse) / (msc - mse + n * f_hi * msr)
        out[form] = (f_test, df2, lo, hi)
    return out


@pytest.mark.parametrize("r0", [0.0, 0.1, 0.3, 0.6])
def test_absolute_agreement_tests_and_intervals_follow_mcgraw_wong_tables_7_and_8(r0):
    """The Satterthwaite forms (ICC(A,1), ICC(A,k)) against Tables 7-8 written out (see the helper), on Shrout &
    Fleiss' Table 2 and on random data, for null values 0 (where v = (n - 1)(k - 1), Shrout & Fleiss' test)
    and above."""
    from scipy.stats import f as fdist

    rng = np.random.default_rng(30)
    for x in [SF] + [_random_ratings(rng) for _ in range(10)]:
        n, k = x.shape
        table = icc_table(x, null_value=r0, layout="units-by-coders")
        ref = _mcgraw_wong_tables_7_8(table.ms_rows, table.ms_columns, table.ms_error, n, k, r0, 0.10)
        for form, (f_test, df2, lo, hi) in ref.items():
            ours = table[form]
            assert ours.f_statistic == pytest.approx(f_test, rel=1e-12)
            assert ours.df2 == pytest.approx(df2, rel=1e-12)
            if r0 == 0:
                assert ours.df2 == (n - 1) * (k - 1)
            assert ours.confidence_interval(0.90) == pytest.approx((lo, hi), rel=1e-10, abs=1e-12)
            assert ours.p_value == pytest.approx(fdist.sf(f_test, n - 1, df2), rel=1e-10, abs=1e-300)


# ------------------------------------------------------------------ ICC: pingouin and statsmodels on random data
_PINGOUIN = {"ICC(1,1)": ("ICC(1)", "one-way random"), "ICC(1,k)": ("ICC(k)", "one-way random"),
             "ICC(A,1)": ("ICC(A,1)", "two-way random"), "ICC(A,k)": ("ICC(A,k)", "two-way random"),
             "ICC(C,1)": ("ICC(C,1)", "two-way mixed"), "ICC(C,k)": ("ICC(C,k)", "two-way mixed")}


def _pingouin(x: np.ndarray, nan_policy: str = "raise") -> pd.DataFrame:
    pingouin = pytest.importorskip("pingouin")
    n, k = x.shape
    long = pd.DataFrame({"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n), "y": x.ravel()})
    saved = dict(pingouin.options)
    pingouin.options["round.column.CI95"] = None  # pingouin rounds its intervals to 2 decimals by default
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return pingouin.intraclass_corr(long, targets="t", raters="r", ratings="y",
                                            nan_policy=nan_policy).set_index("Type")
    finally:
        pingouin.options.clear()
        pingouin.options.update(saved)


def _random_ratings(rng: np.random.Generator) -> np.ndarray:
    n, k = int(rng.integers(4, 30)), int(rng.integers(2, 6))
    truth = rng.normal(0, rng.uniform(0.5, 3), size=(n, 1))
    bias = rng.normal(0, rng.uniform(0, 2), size=(1, k))
    return np.round(truth + bias + rng.normal(0, 1, size=(n, k)), 1) + 5


def _same_form(ours, theirs) -> None:
    assert ours.icc == pytest.approx(theirs["ICC"], abs=1e-10)
    assert ours.f_statistic == pytest.approx(theirs["F"], rel=1e-10)
    assert (ours.df1, ours.df2) == (theirs["df1"], theirs["df2"])
    assert ours.p_value == pytest.approx(theirs["pval"], abs=1e-12)
    assert ours.confidence_interval(0.95) == pytest.approx(tuple(theirs["CI95"]), abs=1e-10)


def test_six_forms_equal_pingouin_on_random_data():
    rng = np.random.default_rng(1979)
    for _ in range(25):
        x = _random_ratings(rng)
        ref = _pingouin(x)
        table = icc_table(x, layout="units-by-coders")
        for name, (form, model) in _PINGOUIN.items():
            ours = next(r for r in table.forms if r.form == form and r.model == model)
            _same_form(ours, ref.loc[name])
        # McGraw & Wong's other four forms: the same numbers under the other two-way model
        for r in table.forms:
            twin = next(t for t in table.forms if t.form == r.form and t.model != r.model) \
                if r.model != "one-way random" else r
            assert (r.icc, r.f_statistic, r.df2) == (twin.icc, twin.f_statistic, twin.df2)
            if not math.isnan(r.icc):
                assert r.confidence_interval(0.9) == twin.confidence_interval(0.9)


def test_mean_squares_equal_statsmodels_two_way_anova():
    smf = pytest.importorskip("statsmodels.formula.api")
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(5)
    for _ in range(5):
        x = _random_ratings(rng)
        n, k = x.shape
        long = pd.DataFrame({"t": np.repeat(np.arange(n), k), "r": np.tile(np.arange(k), n), "y": x.ravel()})
        aov = anova_lm(smf.ols("y ~ C(t) + C(r)", data=long).fit())
        table = icc_table(x, layout="units-by-coders")
        assert table.ms_rows == pytest.approx(aov.loc["C(t)", "mean_sq"], rel=1e-10)
        assert table.ms_columns == pytest.approx(aov.loc["C(r)", "mean_sq"], rel=1e-10)
        assert table.ms_error == pytest.approx(aov.loc["Residual", "mean_sq"], rel=1e-10)
        one_way = anova_lm(smf.ols("y ~ C(t)", data=long).fit())
        assert table.ms_within == pytest.approx(one_way.loc["Residual", "mean_sq"], rel=1e-10)


def test_missing_ratings_drop_the_unit_counted_and_said_as_pingouin_omits():
    rng = np.random.default_rng(7)
    x = _random_ratings(rng)
    x[[1, 4], [0, 1]] = np.nan
    ref = _pingouin(x, nan_policy="omit")
    with pytest.warns(AccordWarning, match="2 of .* units are not rated by all"):
        table = icc_table(x, layout="units-by-coders")
    assert table.n_units_dropped == 2 and table.n_units == x.shape[0] - 2
    assert all(r.n_units_dropped == 2 for r in table.forms)
    _same_form(table["ICC(2,1)"], ref.loc["ICC(A,1)"])
    # a unit nobody rated is not a dropped unit
    y = np.vstack([_random_ratings(rng)[:5, :3], [np.nan] * 3])
    with warnings.catch_warnings():
        warnings.simplefilter("error", AccordWarning)
        assert icc_table(y, layout="units-by-coders").n_units_dropped == 0


def test_f_test_of_a_null_value_is_dual_to_the_interval():
    """McGraw & Wong (1996), Tables 7-8: for the exact-F forms, testing rho_0 = the lower 95% bound gives p = .025."""
    x = SF
    for name in ("ICC(1)", "ICC(k)", "ICC(3,1)", "ICC(3,k)"):
        lo, _ = icc(x, name, layout="units-by-coders").confidence_interval(0.95)
        if lo >= 0:
            assert icc(x, name, null_value=lo, layout="units-by-coders").p_value == pytest.approx(0.025, abs=1e-9)
    r = icc(x, "ICC(2,1)", null_value=0.1, layout="units-by-coders")
    assert r.f_statistic < icc(x, "ICC(2,1)", layout="units-by-coders").f_statistic and r.df2 != 15.0


def test_names_models_and_errors():
    assert icc(SF, "ICC(A,1)", model="two-way mixed", layout="units-by-coders").shrout_fleiss is None
    assert icc(SF, "icc2k", layout="units-by-coders").form == "ICC(A,k)"
    with pytest.raises(AccordError, match="form must be one of"):
        icc(SF, "ICC(4,1)", layout="units-by-coders")
    with pytest.raises(AccordError, match="under the two-way mixed model"):
        icc(SF, "ICC(3,1)", model="two-way random", layout="units-by-coders")
    with pytest.raises(AccordError, match="one-way random model's"):
        icc(SF, "ICC(1)", model="two-way mixed", layout="units-by-coders")
    with pytest.raises(AccordError, match="null_value must be a number in"):
        icc(SF, null_value=1.0, layout="units-by-coders")
    with pytest.raises(AccordError, match="needs numeric ratings"):
        icc_table([["a", "b", "c"], ["a", "b", "b"]])
    with pytest.raises(AccordError, match="2 or more units rated by all"), pytest.warns(AccordWarning):
        icc_table([[1, 2, None], [1, None, 3]])
    with pytest.warns(AccordWarning, match="icc is undefined"):
        flat = icc_table([[3, 3, 3], [3, 3, 3]])
    assert math.isnan(flat["ICC(2,1)"].icc)
    with pytest.raises(AccordError, match="undefined here"):
        flat["ICC(2,1)"].confidence_interval()
    frame = icc_table(SF, layout="units-by-coders").to_frame()
    assert len(frame) == 10 and set(frame["shrout_fleiss"]) >= {"ICC(2,1)", ""}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 10), st.floats(-50, 50))
def test_icc_does_not_change_under_a_change_of_scale(seed, scale, shift):
    x = _random_ratings(np.random.default_rng(seed))
    a = icc_table(x, layout="units-by-coders")
    b = icc_table(x * scale + shift, layout="units-by-coders")
    for ra, rb in zip(a.forms, b.forms, strict=True):
        assert rb.icc == pytest.approx(ra.icc, abs=1e-9)


# ------------------------------------------------------------------ Kendall's W
def _direct_w(x: np.ndarray, correct: bool) -> float:
    from scipy.stats import rankdata

    n, m = x.shape
    ranks = np.column_stack([rankdata(x[:, j]) for j in range(m)])
    r = ranks.sum(axis=1)
    s = ((r - r.mean()) ** 2).sum()
    t = 0.0
    if correct:
        for j in range(m):
            _, counts = np.unique(x[:, j], return_counts=True)
            t += sum(c**3 - c for c in counts)
    return 12 * s / (m**2 * (n**3 - n) - m * t)


def test_kendall_w_equals_friedman_and_a_direct_computation():
    """W = Friedman's chi-square / (m (n - 1)), both with the tie correction (scipy.stats.friedmanchisquare)."""
    from scipy.stats import chi2, friedmanchisquare

    rng = np.random.default_rng(1939)
    for _ in range(30):
        n, m = int(rng.integers(3, 25)), int(rng.integers(2, 7))
        x = rng.integers(1, 6, size=(n, m)).astype(float) + rng.integers(0, 3, size=(n, 1))
        res = kendall_w(x, layout="units-by-coders")
        stat, p = friedmanchisquare(*x)  # one sample per unit, the coders as blocks
        assert res.w == pytest.approx(stat / (m * (n - 1)), rel=1e-10)
        assert res.chi_square == pytest.approx(stat, rel=1e-10) and res.p_value == pytest.approx(p, rel=1e-9)
        assert res.w == pytest.approx(_direct_w(x, True), rel=1e-12)
        plain = kendall_w(x, tie_correction=False, layout="units-by-coders")
        assert plain.w == pytest.approx(_direct_w(x, False), rel=1e-12)
        assert plain.p_value == pytest.approx(chi2.sf(m * (n - 1) * plain.w, n - 1), rel=1e-12)


def test_kendall_w_perfect_agreement_missing_and_errors():
    assert kendall_w([[1, 2, 3, 4], [10, 20, 30, 40]]).w == pytest.approx(1.0)
    with pytest.warns(AccordWarning, match="1 of 4 units"):
        res = kendall_w([[1, 2, 3, 4], [1, 2, None, 4]])
    assert res.n_units == 3 and res.n_units_dropped == 1
    with pytest.warns(AccordWarning, match="kendall_w is undefined"):
        assert math.isnan(kendall_w([[2, 2, 2], [2, 2, 2]]).w)
    with pytest.raises(AccordError, match="tie_correction must be"):
        kendall_w([[1, 2], [1, 2]], tie_correction=1)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_kendall_w_depends_on_ranks_only(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(8, 3))
    assert kendall_w(np.exp(x), layout="units-by-coders").w == pytest.approx(kendall_w(x, layout="units-by-coders").w)


# ------------------------------------------------------------------ Lin's CCC
def _lin(x: list[float], y: list[float]) -> tuple[float, float]:
    """Lin (1989), written out term by term: rho_c and the standard error of its z-transform."""
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    sx2 = sum((a - mx) ** 2 for a in x) / n
    sy2 = sum((b - my) ** 2 for b in y) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True)) / n
    rc = 2 * sxy / (sx2 + sy2 + (mx - my) ** 2)
    r = sxy / math.sqrt(sx2 * sy2)
    u = (mx - my) / (sx2 * sy2) ** 0.25
    var_z = ((1 - r**2) * rc**2 / ((1 - rc**2) * r**2) + 2 * rc**3 * (1 - rc) * u**2 / (r * (1 - rc**2) ** 2)
             - rc**4 * u**4 / (2 * r**2 * (1 - rc**2) ** 2)) / (n - 2)
    return rc, math.sqrt(var_z)


def test_lin_ccc_equals_lins_formulas_on_random_data():
    rng = np.random.default_rng(1989)
    for _ in range(25):
        n = int(rng.integers(5, 60))
        x = rng.normal(10, 2, size=n)
        y = x * rng.uniform(0.7, 1.3) + rng.normal(rng.uniform(-1, 1), rng.uniform(0.2, 2), size=n)
        res = lin_ccc([x, y])
        rc, se = _lin(list(x), list(y))
        assert res.ccc == pytest.approx(rc, abs=1e-12) and res.standard_error_z == pytest.approx(se, rel=1e-10)
        assert res.pearson_r == pytest.approx(np.corrcoef(x, y)[0, 1], abs=1e-12)
        assert res.bias_correction == pytest.approx(rc / res.pearson_r, rel=1e-12)
        lo, hi = res.confidence_interval(0.95)
        assert (lo, hi) == pytest.approx((math.tanh(math.atanh(rc) - 1.959963984540054 * se),
                                          math.tanh(math.atanh(rc) + 1.959963984540054 * se)), abs=1e-12)
        assert abs(res.ccc) <= abs(res.pearson_r) + 1e-12


def test_overall_ccc_of_several_coders():
    """The overall CCC (Barnhart, Haber & Song 2002) is the average of the pairwise CCCs weighted by their
    denominators; with two coders it is Lin's."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(20, 4)) + rng.normal(size=(20, 1)) * 2
    res = lin_ccc(x, layout="units-by-coders")
    nums, dens = [], []
    for i in range(4):
        for j in range(i + 1, 4):
            a, b = x[:, i], x[:, j]
            dens.append(a.var() + b.var() + (a.mean() - b.mean()) ** 2)
            nums.append(2 * np.cov(a, b, bias=True)[0, 1])
    assert res.ccc == pytest.approx(sum(nums) / sum(dens), rel=1e-12)
    with pytest.raises(AccordError, match="for two coders"):
        res.confidence_interval()
    pair = lin_ccc(x, coders=(0, 2), layout="units-by-coders")
    assert pair.coders == (0, 2) and pair.ccc == pytest.approx(_lin(list(x[:, 0]), list(x[:, 2]))[0])
    with pytest.raises(AccordError, match="not a coder"):
        lin_ccc(x, coders=(0, 9), layout="units-by-coders")


def test_the_top_level_api_and_annotations_input():
    recs = [(u, c, float(v)) for u, row in enumerate(SF) for c, v in zip("ABCD", row, strict=True)]
    data = Annotations.from_records(recs)
    assert accord.icc(data, "ICC(2,1)").icc == pytest.approx(icc(SF, "ICC(2,1)", layout="units-by-coders").icc)
    assert accord.kendall_w(data).n_coders == 4 and accord.lin_ccc(data).n_coders == 4
    assert "forms" in accord.icc_table(data).to_dict()
