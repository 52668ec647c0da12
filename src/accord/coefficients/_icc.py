r"""Intraclass correlations: McGraw & Wong's (1996) ten forms, Shrout & Fleiss' (1979) six among them.

n units (targets) are rated by k coders (judges); the two-way ANOVA of the n x k matrix gives the mean
squares for rows (units) MSR, columns (coders) MSC, error MSE and, pooling coders and error, within
units MSW.  McGraw & Wong (1996, Tables 4-6) define ten coefficients by the model, the type of
agreement and the unit of analysis; Shrout & Fleiss (1979) named six of them:

================  ===============  ====================  ============  ==========================================
McGraw & Wong     model            type                  S&F           estimate
================  ===============  ====================  ============  ==========================================
ICC(1)            one-way random   absolute agreement    ICC(1,1)      (MSR - MSW) / (MSR + (k-1) MSW)
ICC(k)            one-way random   absolute agreement    ICC(1,k)      (MSR - MSW) / MSR
ICC(C,1)          two-way random   consistency           -             (MSR - MSE) / (MSR + (k-1) MSE)
ICC(C,k)          two-way random   consistency           -             (MSR - MSE) / MSR
ICC(A,1)          two-way random   absolute agreement    ICC(2,1)      (MSR - MSE) / (MSR + (k-1) MSE
                                                                       + k (MSC - MSE) / n)
ICC(A,k)          two-way random   absolute agreement    ICC(2,k)      (MSR - MSE) / (MSR + (MSC - MSE) / n)
ICC(C,1)          two-way mixed    consistency           ICC(3,1)      as ICC(C,1) two-way random
ICC(C,k)          two-way mixed    consistency           ICC(3,k)      as ICC(C,k) two-way random
ICC(A,1)          two-way mixed    absolute agreement    -             as ICC(A,1) two-way random
ICC(A,k)          two-way mixed    absolute agreement    -             as ICC(A,k) two-way random
================  ===============  ====================  ============  ==========================================

The two-way random and mixed models give the same numbers (McGraw & Wong 1996, Tables 4 and 5); they
differ in what the coefficient generalises to (any coders like these, or these coders).  The F tests
of rho = rho_0 and the confidence intervals are McGraw & Wong's Tables 7 and 8 (Shrout & Fleiss' for
rho_0 = 0): exact F for the one-way and consistency forms, Satterthwaite's degrees of freedom for
absolute agreement.

Missing ratings: these ANOVA forms need every unit rated by every coder; units a coder left out are
dropped, counted (``n_units_dropped``) and said in an :class:`~accord.AccordWarning` (listwise deletion,
as R's irr and psych and pingouin do).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Coefficient
from accord.coefficients._rating_matrix import rating_matrix
from accord.data._annotations import Annotations, Layout

__all__ = ["ICC_FORMS", "ICCResult", "ICCTable", "icc", "icc_table"]

#: The ten forms: (McGraw & Wong name, model, type, unit, Shrout & Fleiss name or None).
ICC_FORMS: tuple[tuple[str, str, str, str, str | None], ...] = (
    ("ICC(1)", "one-way random", "absolute agreement", "single", "ICC(1,1)"),
    ("ICC(k)", "one-way random", "absolute agreement", "average", "ICC(1,k)"),
    ("ICC(C,1)", "two-way random", "consistency", "single", None),
    ("ICC(C,k)", "two-way random", "consistency", "average", None),
    ("ICC(A,1)", "two-way random", "absolute agreement", "single", "ICC(2,1)"),
    ("ICC(A,k)", "two-way random", "absolute agreement", "average", "ICC(2,k)"),
    ("ICC(C,1)", "two-way mixed", "consistency", "single", "ICC(3,1)"),
    ("ICC(C,k)", "two-way mixed", "consistency", "average", "ICC(3,k)"),
    ("ICC(A,1)", "two-way mixed", "absolute agreement", "single", None),
    ("ICC(A,k)", "two-way mixed", "absolute agreement", "average", None),
)
_MODELS = ("one-way random", "two-way random", "two-way mixed")
#: Shrout & Fleiss' names (and psych's ICC1 ... ICC3k) -> (McGraw & Wong name, model).
_SF = {
    "ICC(1,1)": ("ICC(1)", "one-way random"), "ICC(1,K)": ("ICC(k)", "one-way random"),
    "ICC(2,1)": ("ICC(A,1)", "two-way random"), "ICC(2,K)": ("ICC(A,k)", "two-way random"),
    "ICC(3,1)": ("ICC(C,1)", "two-way mixed"), "ICC(3,K)": ("ICC(C,k)", "two-way mixed"),
    "ICC1": ("ICC(1)", "one-way random"), "ICC1K": ("ICC(k)", "one-way random"),
    "ICC2": ("ICC(A,1)", "two-way random"), "ICC2K": ("ICC(A,k)", "two-way random"),
    "ICC3": ("ICC(C,1)", "two-way mixed"), "ICC3K": ("ICC(C,k)", "two-way mixed"),
}
_MW = {"ICC(1)": "ICC(1)", "ICC(K)": "ICC(k)", "ICC(C,1)": "ICC(C,1)", "ICC(C,K)": "ICC(C,k)",
       "ICC(A,1)": "ICC(A,1)", "ICC(A,K)": "ICC(A,k)"}


@dataclass(frozen=True)
class ICCResult(Coefficient):
    """One intraclass correlation, with its F test and its confidence interval.

    Attributes
    ----------
    form : str
        McGraw & Wong's name: ``"ICC(1)"``, ``"ICC(k)"``, ``"ICC(C,1)"``, ``"ICC(C,k)"``, ``"ICC(A,1)"``,
        ``"ICC(A,k)"``.
    model : {"one-way random", "two-way random", "two-way mixed"}
    type : {"absolute agreement", "consistency"}
    unit : {"single", "average"}
        The reliability of one coder's rating, or of the mean of the k coders' ratings.
    shrout_fleiss : str or None
        Shrout & Fleiss' name (``"ICC(2,1)"``...), for the six forms they have.
    icc : float
        The estimate; NaN when undefined.
    f_statistic, df1, df2, p_value : float
        The F test of rho = ``null_value`` against rho > ``null_value`` (McGraw & Wong 1996, Table 8);
        df2 is Satterthwaite's for absolute agreement with a null value above 0.
    null_value : float
    ms_rows, ms_columns, ms_error, ms_within : float
        The ANOVA's mean squares: units, coders, residual, and within units (coders and residual pooled).
    n_units, n_coders : int
        n complete units and k coders.
    n_units_dropped : int
        Units some coder left unrated, left out.
    """

    _value_field: ClassVar[str] = "icc"
    _coefficient_id: ClassVar[str] = "icc"

    form: str
    model: str
    type: str
    unit: str
    shrout_fleiss: str | None
    icc: float
    f_statistic: float
    df1: float
    df2: float
    p_value: float
    null_value: float
    ms_rows: float
    ms_columns: float
    ms_error: float
    ms_within: float
    n_units: int
    n_coders: int
    n_units_dropped: int = 0
    undefined_reason: str | None = None

    @property
    def name(self) -> str:
        """Both names: ``"ICC(A,1), two-way random, absolute agreement, single (Shrout & Fleiss ICC(2,1))"``."""
        sf = f" (Shrout & Fleiss {self.shrout_fleiss})" if self.shrout_fleiss else ""
        return f"{self.form}, {self.model}, {self.type}, {self.unit}{sf}"

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """McGraw & Wong's (1996, Table 7) interval: exact F, Satterthwaite's F for absolute agreement.

        For the average-measure forms of absolute agreement the bounds are the Spearman-Brown transforms
        k L / (1 + (k - 1) L) of the single-measure bounds, which is McGraw & Wong's expression with the
        same degrees of freedom v.
        """
        if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.icc):
            raise AccordError(f"{self.form} is undefined here ({self.undefined_reason}); no interval")
        return _interval(self, 1.0 - confidence_level)


def _interval(r: ICCResult, alpha: float) -> tuple[float, float]:
    n, k = r.n_units, r.n_coders
    msr, msc, mse, msw = r.ms_rows, r.ms_columns, r.ms_error, r.ms_within
    single = r.unit == "single"
    with np.errstate(divide="ignore", invalid="ignore"):
        if r.model == "one-way random" or r.type == "consistency":
            f0, df2 = (msr / msw, n * (k - 1)) if r.model == "one-way random" else (msr / mse, (n - 1) * (k - 1))
            fl = f0 / stats.f.ppf(1 - alpha / 2, n - 1, df2)
            fu = f0 * stats.f.ppf(1 - alpha / 2, df2, n - 1)
            if single:
                return float((fl - 1) / (fl + k - 1)), float((fu - 1) / (fu + k - 1))
            return float(1 - 1 / fl), float(1 - 1 / fu)
        rho = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)  # ICC(A,1), whichever unit
        a = k * rho / (n * (1 - rho))
        b = 1 + k * rho * (n - 1) / (n * (1 - rho))
        v = (a * msc + b * mse) ** 2 / ((a * msc) ** 2 / (k - 1) + (b * mse) ** 2 / ((n - 1) * (k - 1)))
        f_lo = stats.f.ppf(1 - alpha / 2, n - 1, v)
        f_hi = stats.f.ppf(1 - alpha / 2, v, n - 1)
        lo = n * (msr - f_lo * mse) / (f_lo * (k * msc + (k * n - k - n) * mse) + n * msr)
        hi = n * (f_hi * msr - mse) / (k * msc + (k * n - k - n) * mse + n * f_hi * msr)
        if not single:
            lo, hi = k * lo / (1 + (k - 1) * lo), k * hi / (1 + (k - 1) * hi)
        return float(lo), float(hi)


@dataclass(frozen=True)
class ICCTable(Coefficient):
    """The ten intraclass correlations of one data set (McGraw & Wong 1996), with the ANOVA behind them.

    Attributes
    ----------
    forms : tuple of ICCResult
        In the order of :data:`ICC_FORMS`.
    form : str
        The form ``value`` reports (default ``"ICC(A,1)"``, :func:`icc`'s): the one asked for.
    ms_rows, ms_columns, ms_error, ms_within : float
    n_units, n_coders, n_units_dropped : int
    """

    _coefficient_id: ClassVar[str] = "icc"

    forms: tuple[ICCResult, ...]
    ms_rows: float
    ms_columns: float
    ms_error: float
    ms_within: float
    n_units: int
    n_coders: int
    n_units_dropped: int = 0
    form: str = "ICC(A,1)"

    @property
    def value(self) -> float:
        """The ICC of the form ``form`` (the one :func:`icc` gives by default, absolute agreement of single
        ratings, unless the table was made for another); each form has its own in ``forms``."""
        return self[self.form].icc

    @property
    def p_value(self) -> float:
        """The p-value of the F test of ``form``."""
        return self[self.form].p_value

    def __getitem__(self, name: str) -> ICCResult:
        """A form by either name: ``table["ICC(2,1)"]``, ``table["ICC(A,1)"]`` (two-way random)."""
        form, model = _resolve(name, None)
        for r in self.forms:
            if r.form == form and r.model == model:
                return r
        raise KeyError(name)  # pragma: no cover - _resolve only returns known forms

    def to_frame(self, confidence_level: float = 0.95) -> pd.DataFrame:
        """One row per form: both names, the estimate, the F test and the confidence interval."""
        rows = []
        for r in self.forms:
            lo, hi = r.confidence_interval(confidence_level) if not math.isnan(r.icc) else (math.nan, math.nan)
            rows.append({"form": r.form, "model": r.model, "type": r.type, "unit": r.unit,
                         "shrout_fleiss": r.shrout_fleiss or "", "icc": r.icc, "F": r.f_statistic, "df1": r.df1,
                         "df2": r.df2, "p_value": r.p_value, "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows)


def _resolve(form: str, model: str | None) -> tuple[str, str]:
    """(McGraw & Wong name, model) from either name and an optional model."""
    if not isinstance(form, str):
        raise AccordError(f"form must be an ICC name such as 'ICC(A,1)' or 'ICC(2,1)'; got {form!r}")
    if model is not None and model not in _MODELS:
        raise AccordError(f"model must be one of {', '.join(map(repr, _MODELS))}; got {model!r}")
    key = form.replace(" ", "").upper()
    if key in _SF:
        mw, implied = _SF[key]
        if model is not None and model != implied:
            raise AccordError(f"{form} is Shrout & Fleiss' {mw} under the {implied} model; got model={model!r}")
        return mw, implied
    if key in _MW:
        mw = _MW[key]
        one_way = mw in ("ICC(1)", "ICC(k)")
        if one_way and model not in (None, "one-way random"):
            raise AccordError(f"{mw} is the one-way random model's; got model={model!r}")
        if not one_way and model == "one-way random":
            raise AccordError(f"{mw} is a two-way form: model must be 'two-way random' or 'two-way mixed'")
        return mw, "one-way random" if one_way else (model or "two-way random")
    names = [f[0] for f in ICC_FORMS[:6]] + [f[4] for f in ICC_FORMS if f[4]]
    raise AccordError(f"form must be one of {', '.join(dict.fromkeys(names))}; got {form!r}")


def _anova(x: np.ndarray) -> tuple[float, float, float, float]:
    """MSR, MSC, MSE, MSW of the two-way ANOVA without replication of the n x k matrix *x*."""
    n, k = x.shape
    grand = x.mean()
    ssr = k * float(((x.mean(axis=1) - grand) ** 2).sum())
    ssc = n * float(((x.mean(axis=0) - grand) ** 2).sum())
    sst = float(((x - grand) ** 2).sum())
    sse = max(sst - ssr - ssc, 0.0)
    return ssr / (n - 1), ssc / (k - 1), sse / ((n - 1) * (k - 1)), (sst - ssr) / (n * (k - 1))


def _form(
    spec: tuple[str, str, str, str, str | None], ms: tuple[float, float, float, float], n: int, k: int,
    null_value: float, dropped: int,
) -> ICCResult:
    form, model, type_, unit, sf = spec
    msr, msc, mse, msw = ms
    single = unit == "single"
    r0 = null_value
    with np.errstate(divide="ignore", invalid="ignore"):
        if model == "one-way random" or type_ == "consistency":
            err, df2 = (msw, float(n * (k - 1))) if model == "one-way random" else (mse, float((n - 1) * (k - 1)))
            den = msr + (k - 1) * err if single else msr
            value = (msr - err) / den if den > 0 else math.nan
            f = (msr / err) * ((1 - r0) / (1 + (k - 1) * r0) if single else (1 - r0)) if err > 0 else math.inf
        else:
            den = msr + (k - 1) * mse + k * (msc - mse) / n if single else msr + (msc - mse) / n
            value = (msr - mse) / den if den > 0 else math.nan
            c = (k if single else 1) * r0 / (n * (1 - r0))
            d = 1 + (k if single else 1) * r0 * (n - 1) / (n * (1 - r0))
            scale = c * msc + d * mse
            f = msr / scale if scale > 0 else math.inf
            if r0 == 0:
                df2 = float((n - 1) * (k - 1))
            else:
                df2 = scale**2 / ((c * msc) ** 2 / (k - 1) + (d * mse) ** 2 / ((n - 1) * (k - 1)))
    reason = None
    if math.isnan(value):
        reason = "no variance between or within units (every rating is the same)"
    p = float(stats.f.sf(f, n - 1, df2)) if math.isfinite(f) else 0.0
    return ICCResult(form=form, model=model, type=type_, unit=unit, shrout_fleiss=sf, icc=float(value),
                     f_statistic=float(f), df1=float(n - 1), df2=float(df2), p_value=p if reason is None else math.nan,
                     null_value=float(r0), ms_rows=msr, ms_columns=msc, ms_error=mse, ms_within=msw, n_units=n,
                     n_coders=k, n_units_dropped=dropped, undefined_reason=reason)


def _check_null(null_value: Any) -> float:
    if isinstance(null_value, bool) or not isinstance(null_value, (int, float)) or not 0 <= null_value < 1:
        raise AccordError(f"null_value must be a number in [0, 1); got {null_value!r}")
    return float(null_value)


def icc_table(
    data: Annotations, *, form: str = "ICC(A,1)", null_value: float = 0.0, layout: Layout = "coders-by-units"
) -> ICCTable:
    r"""All ten intraclass correlations of McGraw & Wong (1996), Shrout & Fleiss' (1979) six among them.

    Parameters
    ----------
    data : Annotations or array-like
        Numeric ratings; units not rated by every coder are left out, counted and said (a warning).
    form : str
        The form the table's ``value`` reports, named either way (default ``"ICC(A,1)"``, as :func:`icc`);
        every form is in ``forms`` whichever it is.
    null_value : float
        rho_0 of the F tests (default 0).
    layout : {"coders-by-units", "units-by-coders"}
        Orientation of *data* when it is a matrix (``"units-by-coders"`` is R's and pingouin's wide form).

    Returns
    -------
    ICCTable

    Notes
    -----
    With x_ij the rating of unit i by coder j, the two-way ANOVA without replication gives
    MSR = k sum_i (xbar_i. - xbar)^2 / (n - 1), MSC = n sum_j (xbar_.j - xbar)^2 / (k - 1),
    MSE = SSE / ((n - 1)(k - 1)) and MSW = (SSC + SSE) / (n (k - 1)); the estimates, tests and
    intervals of each form are in the module's table and :meth:`ICCResult.confidence_interval`.

    References
    ----------
    Shrout, P. E., & Fleiss, J. L. (1979). Intraclass correlations: uses in assessing rater reliability.
    Psychological Bulletin 86(2), 420-428.
    McGraw, K. O., & Wong, S. P. (1996). Forming inferences about some intraclass correlation
    coefficients. Psychological Methods 1(1), 30-46.

    Examples
    --------
    Shrout & Fleiss' (1979) Table 2, six targets rated by four judges (one row per target):

    >>> sf = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> table = icc_table(sf, layout="units-by-coders")
    >>> [round(table[name].icc, 2) for name in ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)",
    ...                                         "ICC(3,k)")]
    [0.17, 0.29, 0.71, 0.44, 0.62, 0.91]
    """
    null_value = _check_null(null_value)
    _resolve(form, None)
    m = rating_matrix(data, name="icc", layout=layout)
    n, k = m.x.shape
    ms = _anova(m.x)
    forms = tuple(_form(spec, ms, n, k, null_value, m.n_units_dropped) for spec in ICC_FORMS)
    if math.isnan(forms[0].icc):
        warn_undefined("icc", forms[0].undefined_reason or "", stacklevel=3)
    return ICCTable(forms=forms, ms_rows=ms[0], ms_columns=ms[1], ms_error=ms[2], ms_within=ms[3], n_units=n,
                    n_coders=k, n_units_dropped=m.n_units_dropped, form=form)


def icc(
    data: Annotations,
    form: str = "ICC(A,1)",
    *,
    model: str | None = None,
    null_value: float = 0.0,
    layout: Layout = "coders-by-units",
) -> ICCResult:
    """One intraclass correlation, named either way: ``"ICC(A,1)"`` (McGraw & Wong) or ``"ICC(2,1)"`` (Shrout & Fleiss).

    Parameters
    ----------
    data : Annotations or array-like
        Numeric ratings (see :func:`icc_table`).
    form : str
        McGraw & Wong's ``ICC(1)``, ``ICC(k)``, ``ICC(C,1)``, ``ICC(C,k)``, ``ICC(A,1)``, ``ICC(A,k)``, or
        Shrout & Fleiss' ``ICC(1,1)``, ``ICC(1,k)``, ``ICC(2,1)``, ``ICC(2,k)``, ``ICC(3,1)``, ``ICC(3,k)``
        (also psych's ``ICC1`` ... ``ICC3k``).  Default: absolute agreement of single ratings.
    model : {"two-way random", "two-way mixed", "one-way random"}, optional
        For McGraw & Wong's two-way forms (default two-way random; the numbers are the same, the
        inference is to other coders or to these); implied by Shrout & Fleiss' names.
    null_value : float
        rho_0 of the F test.
    layout : {"coders-by-units", "units-by-coders"}

    Returns
    -------
    ICCResult

    Examples
    --------
    >>> sf = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    >>> r = icc(sf, "ICC(3,1)", layout="units-by-coders")
    >>> r.form, r.model, round(r.icc, 4), round(r.f_statistic, 2), r.df1, r.df2
    ('ICC(C,1)', 'two-way mixed', 0.7148, 11.03, 5.0, 15.0)
    >>> [round(b, 3) for b in r.confidence_interval()]
    [0.342, 0.946]
    """
    mw, model_ = _resolve(form, model)
    table = icc_table(data, form=form, null_value=null_value, layout=layout)
    return next(r for r in table.forms if r.form == mw and r.model == model_)
