"""Paradigmatic reliability: significance tests of scores beside agreement.

An agreement coefficient alone does not say whether annotations are reliable
enough for their use.  Passonneau (2006, section 3.1) calls the simultaneous
study of agreement and of significance tests on what the annotations are used
for a *paradigmatic reliability study*; Passonneau (2010, sections 4.2 and 5)
carries it out for pyramid scores: the scores that two independent annotations
give to the same peer systems on the same document sets are compared by

* a one-way ANOVA with the annotation as the factor (an *acceptance* test: a
  non-significant result means the score means do not differ),
* Pearson's correlation per peer between the two annotations' scores (a
  *rejection* test, Table 5),
* a one-way ANOVA with the peer system as the factor (Table 6) and Tukey's
  honest significant difference over systems, printed as the significantly
  distinct groups of peers (Tables 7-9), once per annotation,
* the comparison of the two rankings: of all pairs of systems, how many get a
  different verdict (section 5.2.1, "2 of 120 comparisons"),
* the power of the system ANOVA: how many document sets per peer a power and a
  significance level need (Table 10), with the convention of R's
  ``power.anova.test``.

Everything takes a long table of scores with one row per (system, document
set, annotation): :func:`significance_study` does the whole study in one call.
:func:`anova_power` and :func:`anova_sample_size` are the power computation on
its own, and :func:`tukey_hsd_value` the HSD threshold.

References
----------
Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
method for summary content evaluation. *Natural Language Engineering* 16(2),
107-131. doi:10.1017/S1351324909990305

Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI) for
semantic and pragmatic annotation. *Proceedings of LREC 2006*, section 3.1.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import narwhals as nw
import numpy as np
import pandas as pd

from accord._lazy import optimize, stats
from accord.errors import AccordError, AccordWarning, warn_undefined
from accord.results import Result

__all__ = [
    "AnnotationAnalysis",
    "AnovaPower",
    "Exclusion",
    "OneWayAnova",
    "PairVerdict",
    "PearsonCorrelation",
    "RankingComparison",
    "SignificanceStudy",
    "TukeyGroup",
    "TukeyHSD",
    "anova_power",
    "anova_sample_size",
    "significance_study",
    "tukey_hsd_value",
]

Verdict = Literal["first better", "second better", "not significant"]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Exclusion(Result):
    """Something left out of a study, and why."""

    what: str
    reason: str


@dataclass(frozen=True)
class OneWayAnova(Result):
    """A one-way analysis of variance of scores by one factor.

    ``statistic`` and ``pvalue`` come from :func:`scipy.stats.f_oneway`; the
    sums of squares are kept so that the mean square within groups (the MSE)
    can serve Tukey's HSD and the power analysis.
    """

    factor: str
    levels: tuple[Hashable, ...]
    n_per_level: tuple[int, ...]
    means: tuple[float, ...]
    statistic: float
    pvalue: float
    df_between: int
    df_within: int
    ss_between: float
    ss_within: float
    mean_square_between: float
    mean_square_within: float
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """The ANOVA table, laid out like ``statsmodels``' ``anova_lm`` (rows: factor, Residual)."""
        return pd.DataFrame(
            {
                "df": [float(self.df_between), float(self.df_within)],
                "sum_sq": [self.ss_between, self.ss_within],
                "mean_sq": [self.mean_square_between, self.mean_square_within],
                "F": [self.statistic, np.nan],
                "PR(>F)": [self.pvalue, np.nan],
            },
            index=[self.factor, "Residual"],
        )


@dataclass(frozen=True)
class PearsonCorrelation(Result):
    """Pearson's r between two annotations' scores, with its p-value and Fisher interval.

    ``ci_low``/``ci_high`` are the Fisher z interval at ``confidence_level``;
    :meth:`confidence_interval` gives it at any level.
    """

    label: Hashable
    r: float
    pvalue: float
    n: int
    confidence_level: float
    ci_low: float
    ci_high: float
    reason: str | None = None
    _scipy: Any = None

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Fisher z confidence interval of r (:meth:`scipy.stats.PearsonRResult.confidence_interval`)."""
        _check_fraction(confidence_level, "confidence_level")
        return _fisher_interval(self._scipy, self.n, confidence_level)


@dataclass(frozen=True)
class TukeyGroup(Result):
    """One row of Passonneau (2010) Tables 7-9: peers significantly better than other peers.

    ``systems`` all beat exactly the systems in ``better_than``; ``mean`` and
    ``better_than_mean`` are the mean of the respective systems' mean scores.
    """

    systems: tuple[Hashable, ...]
    mean: float
    better_than: tuple[Hashable, ...]
    better_than_mean: float


@dataclass(frozen=True, eq=False)
class TukeyHSD(Result):
    """Tukey's honest significant difference over systems (Tukey-Kramer when unbalanced).

    ``mean_differences[i, j]`` is mean(i) - mean(j) and ``pvalues[i, j]`` its
    adjusted p-value (as :func:`scipy.stats.tukey_hsd` gives it: the
    studentized range survival function of |difference| / SE with
    SE = sqrt(MSE / 2 (1 / n_i + 1 / n_j))), in the order of ``systems``.
    ``hsd`` is q(1 - alpha; k, df) * sqrt(MSE / n) with n the harmonic mean of
    the group sizes (exact when balanced).
    """

    systems: tuple[Hashable, ...]
    means: tuple[float, ...]
    n_per_system: tuple[int, ...]
    mean_differences: np.ndarray
    pvalues: np.ndarray
    alpha: float
    q_critical: float
    hsd: float
    df_within: int
    mean_square_within: float
    groups: tuple[TukeyGroup, ...]
    _standard_errors: np.ndarray | None = None

    def significant(self) -> np.ndarray:
        """Boolean matrix: the pair (i, j) differs at ``alpha``."""
        out = self.pvalues < self.alpha
        np.fill_diagonal(out, False)
        return out

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Simultaneous intervals of the mean differences, as (low, high) matrices."""
        level = _check_fraction(confidence_level, "confidence_level")
        q = _q_critical(len(self.systems), self.df_within, level)
        half = q * self._standard_errors
        return self.mean_differences - half, self.mean_differences + half

    def to_frame(self) -> pd.DataFrame:
        """One row per unordered pair (i < j): means, difference, adjusted p-value, verdict."""
        i, j = np.triu_indices(len(self.systems), k=1)
        return pd.DataFrame(
            {
                "system_1": [self.systems[a] for a in i],
                "system_2": [self.systems[b] for b in j],
                "mean_1": np.asarray(self.means)[i],
                "mean_2": np.asarray(self.means)[j],
                "meandiff": self.mean_differences[i, j],
                "pvalue": self.pvalues[i, j],
                "reject": self.pvalues[i, j] < self.alpha,
            }
        )


@dataclass(frozen=True)
class AnovaPower(Result):
    """Power of the one-way ANOVA over systems (Passonneau 2010, Table 10).

    ``n_required`` is the number of observations (document sets) per system
    that reach ``target_power`` at ``sig_level``, from R's ``power.anova.test``
    convention (fractional, as R reports it); ``power_observed`` is the power
    at the ``n`` observed per system.
    """

    groups: int
    n: float
    between_var: float
    within_var: float
    sig_level: float
    target_power: float
    n_required: float
    power_observed: float
    reason: str | None = None


@dataclass(frozen=True)
class AnnotationAnalysis(Result):
    """The functional assessment of one annotation: system ANOVA, Tukey's HSD, power."""

    annotation: Hashable
    system_anova: OneWayAnova
    tukey: TukeyHSD | None
    power: AnovaPower | None


@dataclass(frozen=True)
class PairVerdict(Result):
    """One pair of systems compared under two annotations.

    A verdict is ``"first better"``, ``"second better"`` or
    ``"not significant"`` (Tukey's HSD at the study's alpha).
    """

    first: Hashable
    second: Hashable
    mean_difference: tuple[float, float]
    pvalue: tuple[float, float]
    verdict: tuple[Verdict, Verdict]
    order_differs: bool


@dataclass(frozen=True)
class RankingComparison(Result):
    """How far two annotations rank the systems alike (Passonneau 2010, section 5.2.1).

    ``n_differ`` counts the pairs whose Tukey verdict differs (significant in
    one annotation and not the other, or significant in both in opposite
    directions): the paper's "2 of 120 comparisons".  ``n_order_differs``
    counts the pairs whose mean difference changes sign, significant or not.
    """

    annotations: tuple[Hashable, Hashable]
    n_pairs: int
    n_differ: int
    n_significance_differs: int
    n_opposite_significant: int
    n_order_differs: int
    fraction_differ: float
    kendall_tau: float
    kendall_pvalue: float
    differing_pairs: tuple[PairVerdict, ...]


@dataclass(frozen=True)
class SignificanceStudy(Result):
    """A paradigmatic reliability study of scores from one or two annotations.

    With two annotations: ``annotation_anova`` (annotation as factor),
    ``peer_correlations`` (per system, over the document sets scored in both),
    ``pooled_correlation`` (all paired scores), ``system_mean_correlation`` (the
    systems' mean scores), ``mean_difference`` and ``mean_absolute_difference``
    (first minus second annotation over paired scores) and
    ``ranking_comparison``.  With one or two: ``analyses``, one
    :class:`AnnotationAnalysis` per annotation.  ``exclusions`` lists rows and
    systems left out and why.
    """

    columns: dict[str, str | None]
    annotations: tuple[Hashable, ...]
    systems: tuple[Hashable, ...]
    n_docsets: int
    n_scores: int
    alpha: float
    annotation_anova: OneWayAnova | None
    analyses: tuple[AnnotationAnalysis, ...]
    peer_correlations: tuple[PearsonCorrelation, ...]
    pooled_correlation: PearsonCorrelation | None
    system_mean_correlation: PearsonCorrelation | None
    mean_difference: float
    mean_absolute_difference: float
    ranking_comparison: RankingComparison | None
    exclusions: tuple[Exclusion, ...]

    def analysis(self, annotation: Hashable) -> AnnotationAnalysis:
        """The :class:`AnnotationAnalysis` of one annotation label."""
        for a in self.analyses:
            if a.annotation == annotation:
                return a
        raise AccordError(f"annotation must be one of {list(self.annotations)!r}; got {annotation!r}")

    def to_frame(self) -> pd.DataFrame:
        """One row per system: mean score per annotation, and r, p, CI between annotations."""
        data: dict[str, Any] = {"system": list(self.systems)}
        for a in self.analyses:
            data[f"mean[{a.annotation}]"] = list(a.system_anova.means)
        if self.peer_correlations:
            data["r"] = [c.r for c in self.peer_correlations]
            data["pvalue"] = [c.pvalue for c in self.peer_correlations]
            data["ci_low"] = [c.ci_low for c in self.peer_correlations]
            data["ci_high"] = [c.ci_high for c in self.peer_correlations]
            data["n_paired"] = [c.n for c in self.peer_correlations]
        return pd.DataFrame(data)


# --------------------------------------------------------------------------- power


def _check_fraction(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a number strictly between 0 and 1; got {value!r}") from None
    if not 0.0 < v < 1.0:
        raise AccordError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return v


def _check_positive(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a positive number; got {value!r}") from None
    if not (math.isfinite(v) and v > 0.0):
        raise AccordError(f"{name} must be a positive finite number; got {value!r}")
    return v


def _check_groups(groups: Any) -> int:
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 2:
        raise AccordError(f"groups must be an integer of at least 2; got {groups!r}")
    return int(groups)


def _power(groups: int, n: float, ratio: float, sig_level: float) -> float:
    """R's ``power.anova.test`` body: noncentral F with lambda = (k - 1) n between/within."""
    df1 = groups - 1
    df2 = (n - 1.0) * groups
    lam = df1 * n * ratio
    crit = stats.f.isf(sig_level, df1, df2)
    return float(stats.ncf.sf(crit, df1, df2, lam))


def anova_power(*, groups: int, n: float, between_var: float, within_var: float, sig_level: float = 0.05) -> float:
    """Power of a balanced one-way ANOVA, as R's ``power.anova.test`` computes it.

    Parameters
    ----------
    groups : int
        Number of groups k (peer systems), at least 2.
    n : float
        Observations per group (document sets per system), greater than 1; may
        be fractional.
    between_var : float
        Variance of the group means (sample variance, denominator k - 1).
    within_var : float
        Error variance (mean square within groups).
    sig_level : float
        Significance level of the F test.

    Returns
    -------
    float
        The probability that the F test rejects at ``sig_level``.

    Notes
    -----
    With df1 = k - 1, df2 = (n - 1) k and noncentrality
    lambda = (k - 1) n between_var / within_var, the power is
    P(F'(df1, df2, lambda) > F_{1 - sig_level}(df1, df2)), with F' the
    noncentral F (:data:`scipy.stats.ncf`).  This is the body of R's
    ``power.anova.test`` (package stats), which Passonneau (2010) used for
    Table 10.

    References
    ----------
    Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
    method. *Natural Language Engineering* 16(2), section 5.2.2, Table 10.

    Examples
    --------
    Seed 002 Table 10, 2003 row (16 peers), at the paper's n = 3.45:

    >>> round(anova_power(groups=16, n=3.45, between_var=0.0393, within_var=0.0314, sig_level=0.01), 3)
    0.99
    """
    k = _check_groups(groups)
    nn = _check_positive(n, "n")
    if nn <= 1.0:
        raise AccordError(f"n must be greater than 1 (observations per group); got {n!r}")
    b = _check_positive(between_var, "between_var")
    w = _check_positive(within_var, "within_var")
    a = _check_fraction(sig_level, "sig_level")
    return _power(k, nn, b / w, a)


def anova_sample_size(
    *, groups: int, between_var: float, within_var: float, power: float, sig_level: float = 0.05
) -> float:
    """Observations per group a one-way ANOVA needs for a power (R's ``power.anova.test``).

    Parameters
    ----------
    groups : int
        Number of groups k (peer systems), at least 2.
    between_var : float
        Variance of the group means (denominator k - 1).
    within_var : float
        Error variance (mean square within groups).
    power : float
        Target power, greater than ``sig_level``.
    sig_level : float
        Significance level of the F test.

    Returns
    -------
    float
        The n > 1 at which :func:`anova_power` equals ``power``; fractional, as
        R reports it (round up for a number of document sets).

    Notes
    -----
    R solves ``power(n) = power`` with ``uniroot`` on [2, 1e5]; here
    :func:`scipy.optimize.brentq` finds the same root to machine precision, and
    looks below 2 when two observations per group already exceed the power
    (returning 1.0 when any n > 1 does).

    References
    ----------
    Passonneau, R. J. (2010). *Natural Language Engineering* 16(2), Table 10.

    Examples
    --------
    Seed 002 Table 10, 2003 row: 16 peers, power 0.99 at 0.01 needs 3.45 document sets per peer.

    >>> round(anova_sample_size(groups=16, between_var=0.0393, within_var=0.0314, power=0.99,
    ...                         sig_level=0.01), 2)
    3.45
    """
    k = _check_groups(groups)
    b = _check_positive(between_var, "between_var")
    w = _check_positive(within_var, "within_var")
    target = _check_fraction(power, "power")
    a = _check_fraction(sig_level, "sig_level")
    if target <= a:
        raise AccordError(f"power must exceed sig_level ({a!r}); got {power!r}")
    return _solve_n(k, b / w, target, a)


def _solve_n(k: int, ratio: float, target: float, sig_level: float) -> float:
    def f(n: float) -> float:
        return _power(k, n, ratio, sig_level) - target

    lo, hi = 2.0, 1e5
    if f(lo) > 0:
        lo, hi = 1.0 + 1e-9, 2.0
        if f(lo) > 0:  # any n > 1 reaches the power
            return 1.0
    if f(hi) < 0:
        raise AccordError(
            f"more than {hi:g} observations per group would be needed for power {target!r} "
            f"(between/within variance ratio {ratio!r} is too small)"
        )
    return float(optimize.brentq(f, lo, hi, xtol=1e-12, rtol=4 * np.finfo(float).eps))


def tukey_hsd_value(*, groups: int, n: float, within_var: float, df: float | None = None, alpha: float = 0.05) -> float:
    """Tukey's honest significant difference: q(1 - alpha; k, df) * sqrt(MSE / n).

    Parameters
    ----------
    groups : int
        Number of groups k.
    n : float
        Observations per group (the harmonic mean when unbalanced).
    within_var : float
        Mean square within groups (MSE).
    df : float, optional
        Error degrees of freedom; default k (n - 1), the balanced one-way design.
    alpha : float
        Family-wise significance level.

    Returns
    -------
    float
        The smallest difference of two group means that Tukey's test declares
        significant.

    Notes
    -----
    q is the upper alpha quantile of the studentized range distribution
    (:data:`scipy.stats.studentized_range`).

    Examples
    --------
    >>> round(tukey_hsd_value(groups=3, n=5, within_var=4.0, alpha=0.05), 4)
    3.3746
    """
    k = _check_groups(groups)
    nn = _check_positive(n, "n")
    w = _check_positive(within_var, "within_var")
    a = _check_fraction(alpha, "alpha")
    dfe = k * (nn - 1.0) if df is None else _check_positive(df, "df")
    if dfe <= 0:
        raise AccordError(f"df must be positive; n={n!r} gives no error degrees of freedom")
    return _q_critical(k, dfe, 1.0 - a) * math.sqrt(w / nn)


# --------------------------------------------------------------------------- input


@dataclass(frozen=True)
class _Table:
    y: np.ndarray  # scores
    sys: np.ndarray  # system codes 0..k-1
    doc: np.ndarray  # docset codes
    ann: np.ndarray  # annotation codes 0..m-1
    systems: tuple[Hashable, ...]
    docsets: tuple[Hashable, ...]
    annotations: tuple[Hashable, ...]
    exclusions: tuple[Exclusion, ...]


def _factorize(values: np.ndarray) -> tuple[np.ndarray, tuple[Hashable, ...]]:
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:
        codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.intp), tuple(_py(u) for u in uniques)


def _recode(codes: np.ndarray, labels: tuple[Hashable, ...]) -> tuple[np.ndarray, tuple[Hashable, ...]]:
    """Drop the labels no code uses any more; keep the order of the rest."""
    used = np.flatnonzero(np.bincount(codes, minlength=len(labels)))
    remap = np.full(len(labels), -1, dtype=np.intp)
    remap[used] = np.arange(used.size)
    return remap[codes], tuple(labels[i] for i in used)


def _py(value: Any) -> Hashable:
    return value.item() if isinstance(value, np.generic) else value


def _read_table(
    scores: Any,
    *,
    system: str,
    docset: str,
    annotation: str | None,
    score: str,
) -> _Table:
    try:
        frame = nw.from_native(scores, eager_only=True)
    except TypeError:
        raise AccordError(
            f"scores must be a pandas or polars DataFrame (long table); got {type(scores).__name__}"
        ) from None
    if not isinstance(frame, nw.DataFrame):
        raise AccordError(f"scores must be a DataFrame, not a Series; got {type(scores).__name__}")
    names = {"system": system, "docset": docset, "score": score}
    if annotation is not None:
        names["annotation"] = annotation
    columns = list(frame.columns)
    for param, col in names.items():
        if col not in columns:
            raise AccordError(f"{param} column {col!r} is not in the table; columns are {columns!r}")
    n_rows = len(frame)
    raw_y = frame[score].to_numpy()
    try:
        y = np.asarray(pd.to_numeric(pd.Series(raw_y), errors="raise"), dtype=float)
    except (TypeError, ValueError):
        series = pd.to_numeric(pd.Series(raw_y), errors="coerce")
        bad = np.flatnonzero(series.isna().to_numpy() & pd.notna(pd.Series(raw_y)).to_numpy())
        first = bad[0] if bad.size else 0
        raise AccordError(f"score column {score!r} must be numeric; row {first} holds {raw_y[first]!r}") from None
    keys = {p: frame[c].to_numpy() for p, c in names.items() if p != "score"}
    keep = np.isfinite(y)
    exclusions: list[Exclusion] = []
    if (~keep).any():
        exclusions.append(Exclusion("rows", f"{int((~keep).sum())} of {n_rows} rows have no finite score"))
    for p, arr in keys.items():
        missing = pd.isna(pd.Series(arr)).to_numpy() & keep
        if missing.any():
            exclusions.append(Exclusion("rows", f"{int(missing.sum())} rows have no {p} ({names[p]!r})"))
            keep &= ~missing
    y = y[keep]
    sys_codes, systems = _factorize(keys["system"][keep])
    doc_codes, docsets = _factorize(keys["docset"][keep])
    if annotation is None:
        ann_codes, annotations = np.zeros(y.size, dtype=np.intp), (None,)
    else:
        ann_codes, annotations = _factorize(keys["annotation"][keep])
        if len(annotations) != 2:
            raise AccordError(
                f"annotation column {annotation!r} must hold exactly two annotations to compare; it holds "
                f"{len(annotations)}: {list(annotations)[:10]!r} (pass annotation=None to study one)"
            )
    if y.size == 0:
        raise AccordError("scores has no row with a score; nothing to study")
    # one score per (system, docset, annotation)
    cell = (sys_codes * len(docsets) + doc_codes) * len(annotations) + ann_codes
    uniq, counts = np.unique(cell, return_counts=True)
    if (counts > 1).any():
        c = int(uniq[np.argmax(counts > 1)])
        a_code, rest = c % len(annotations), c // len(annotations)
        d_code, s_code = rest % len(docsets), rest // len(docsets)
        where = f"system {systems[s_code]!r}, docset {docsets[d_code]!r}"
        if annotation is not None:
            where += f", annotation {annotations[a_code]!r}"
        raise AccordError(f"{where} has {int(counts.max())} scores; one score per cell is expected")
    # systems scored in one annotation only are left out of everything
    if len(annotations) == 2:
        present = np.zeros((len(systems), 2), dtype=bool)
        present[sys_codes, ann_codes] = True
        lonely = np.flatnonzero(~present.all(axis=1))
        for s in lonely:
            only = annotations[int(np.flatnonzero(present[s])[0])]
            exclusions.append(Exclusion(f"system {systems[s]!r}", f"scored in annotation {only!r} only"))
        if lonely.size:
            warnings.warn(
                f"{lonely.size} system(s) scored in one annotation only were left out: "
                f"{[systems[s] for s in lonely][:10]!r}",
                AccordWarning,
                stacklevel=3,
            )
            keep2 = present[sys_codes].all(axis=1)
            y, ann_codes = y[keep2], ann_codes[keep2]
            sys_codes, systems = _recode(sys_codes[keep2], systems)
            doc_codes, docsets = _recode(doc_codes[keep2], docsets)
    if len(systems) < 2:
        raise AccordError(
            f"system column {system!r} must give at least two systems scored in every annotation; "
            f"got {len(systems)}: {list(systems)!r}"
        )
    return _Table(y, sys_codes, doc_codes, ann_codes, systems, docsets, annotations, tuple(exclusions))


# --------------------------------------------------------------------------- parts


def _split(y: np.ndarray, codes: np.ndarray, k: int) -> list[np.ndarray]:
    order = np.argsort(codes, kind="stable")
    bounds = np.cumsum(np.bincount(codes, minlength=k))[:-1]
    return np.split(y[order], bounds)


def _one_way_anova(y: np.ndarray, codes: np.ndarray, levels: tuple[Hashable, ...], factor: str) -> OneWayAnova:
    k = len(levels)
    n_i = np.bincount(codes, minlength=k)
    sums = np.bincount(codes, weights=y, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / n_i
    grand = y.mean()
    ss_between = float(np.sum(n_i * (means - grand) ** 2))
    ss_within = float(np.sum((y - means[codes]) ** 2))
    df_b, df_w = k - 1, int(y.size - k)
    ms_b = ss_between / df_b
    ms_w = ss_within / df_w if df_w > 0 else math.nan
    reason = None
    if df_w < 1:
        reason = f"no residual degrees of freedom: {y.size} scores in {k} {factor} groups"
    elif ss_within <= 64 * np.finfo(float).eps * float(np.sum(y * y)):
        reason = f"scores are constant within every {factor} group (no within-group variance)"
    if reason is not None:
        warn_undefined(f"the ANOVA with {factor} as factor", reason)
        f_stat = p = math.nan
    else:
        res = stats.f_oneway(*_split(y, codes, k))
        f_stat, p = float(res.statistic), float(res.pvalue)
    return OneWayAnova(
        factor=factor,
        levels=levels,
        n_per_level=tuple(int(v) for v in n_i),
        means=tuple(float(v) for v in means),
        statistic=f_stat,
        pvalue=p,
        df_between=df_b,
        df_within=df_w,
        ss_between=ss_between,
        ss_within=ss_within,
        mean_square_between=ms_b,
        mean_square_within=ms_w,
        reason=reason,
    )


def _tukey_groups(systems: tuple[Hashable, ...], means: np.ndarray, significant: np.ndarray) -> tuple[TukeyGroup, ...]:
    """Group systems by the set of systems they significantly beat (Tables 7-9)."""
    beats = significant & (means[:, None] > means[None, :])
    by_set: dict[tuple[int, ...], list[int]] = {}
    for i in np.argsort(-means, kind="stable"):
        won = tuple(int(j) for j in np.flatnonzero(beats[i])[np.argsort(-means[beats[i]], kind="stable")])
        if won:
            by_set.setdefault(won, []).append(int(i))
    rows = [
        TukeyGroup(
            systems=tuple(systems[i] for i in left),
            mean=float(means[left].mean()),
            better_than=tuple(systems[j] for j in right),
            better_than_mean=float(means[list(right)].mean()),
        )
        for right, left in by_set.items()
    ]
    rows.sort(key=lambda g: (-g.mean, -len(g.better_than)))
    return tuple(rows)


@functools.lru_cache(maxsize=256)
def _q_critical(k: int, df: float, level: float) -> float:
    """Upper quantile of the studentized range (a costly root search; cached)."""
    return float(stats.studentized_range.ppf(level, k, df))


def _tukey(
    y: np.ndarray, codes: np.ndarray, systems: tuple[Hashable, ...], anova: OneWayAnova, alpha: float
) -> TukeyHSD:
    """Tukey-Kramer comparisons, as :func:`scipy.stats.tukey_hsd` computes them.

    The studentized range survival function is evaluated once per unordered
    pair (it is the costly part: a numerical integral per value), not on the
    full k x k matrix as ``tukey_hsd`` does; the tests check the two agree.
    """
    k = len(systems)
    means = np.asarray(anova.means)
    n_i = np.asarray(anova.n_per_level, dtype=float)
    mse, df = anova.mean_square_within, anova.df_within
    diffs = means[:, None] - means[None, :]
    se = np.sqrt(mse / 2.0 * (1.0 / n_i[:, None] + 1.0 / n_i[None, :]))
    i, j = np.triu_indices(k, k=1)
    pvalues = np.ones((k, k))
    upper = stats.studentized_range.sf(np.abs(diffs[i, j]) / se[i, j], k, df)
    pvalues[i, j] = pvalues[j, i] = upper
    n_h = float(stats.hmean(n_i))
    q = _q_critical(k, df, 1.0 - alpha)
    hsd = q * math.sqrt(mse / n_h)
    sig = pvalues < alpha
    np.fill_diagonal(sig, False)
    return TukeyHSD(
        systems=systems,
        means=anova.means,
        n_per_system=anova.n_per_level,
        mean_differences=diffs,
        pvalues=pvalues,
        alpha=alpha,
        q_critical=q,
        hsd=hsd,
        df_within=df,
        mean_square_within=mse,
        groups=_tukey_groups(systems, means, sig),
        _standard_errors=se,
    )


def _study_power(anova: OneWayAnova, target: float, sig_level: float) -> AnovaPower:
    k = len(anova.levels)
    n_h = float(stats.hmean(np.asarray(anova.n_per_level, dtype=float)))
    between = float(np.var(np.asarray(anova.means), ddof=1))
    within = anova.mean_square_within
    reason = None
    n_req = p_obs = math.nan
    if anova.reason is not None:
        reason = anova.reason
    elif between <= 64 * np.finfo(float).eps * float(np.max(np.square(anova.means))):
        reason = "the system means are all equal (no between-group variance)"
    else:
        p_obs = _power(k, n_h, between / within, sig_level) if n_h > 1 else math.nan
        try:
            n_req = _solve_n(k, between / within, target, sig_level)
        except AccordError as exc:
            reason = str(exc)
    if reason is not None:
        warn_undefined("the sample size for the ANOVA power", reason)
    return AnovaPower(
        groups=k,
        n=n_h,
        between_var=between,
        within_var=within,
        sig_level=sig_level,
        target_power=target,
        n_required=n_req,
        power_observed=p_obs,
        reason=reason,
    )


def _fisher_interval(res: Any, n: int, confidence_level: float) -> tuple[float, float]:
    if res is None or n <= 3 or not math.isfinite(float(res.statistic)):
        return (math.nan, math.nan)
    ci = res.confidence_interval(confidence_level=confidence_level)
    return (float(ci.low), float(ci.high))


def _pearson(x: np.ndarray, y: np.ndarray, label: Hashable, confidence_level: float) -> PearsonCorrelation:
    n = int(x.size)
    reason = None
    if n < 3:
        reason = f"{n} paired scores; at least 3 are needed"
    elif np.ptp(x) == 0 or np.ptp(y) == 0:
        reason = "the scores of one annotation are constant"
    if reason is not None:
        return PearsonCorrelation(label, math.nan, math.nan, n, confidence_level, math.nan, math.nan, reason)
    res = stats.pearsonr(x, y)
    low, high = _fisher_interval(res, n, confidence_level)
    return PearsonCorrelation(label, float(res.statistic), float(res.pvalue), n, confidence_level, low, high, None, res)


def _verdict(diff: float, p: float, alpha: float) -> Verdict:
    if p < alpha:
        return "first better" if diff > 0 else "second better"
    return "not significant"


def _compare_rankings(a: TukeyHSD, b: TukeyHSD, annotations: tuple[Hashable, Hashable]) -> RankingComparison:
    k = len(a.systems)
    i, j = np.triu_indices(k, k=1)
    da, db = a.mean_differences[i, j], b.mean_differences[i, j]
    pa, pb = a.pvalues[i, j], b.pvalues[i, j]
    sa, sb = pa < a.alpha, pb < b.alpha
    va = np.where(sa, np.sign(da), 0)
    vb = np.where(sb, np.sign(db), 0)
    differ = va != vb
    order = np.sign(da) != np.sign(db)
    tau = stats.kendalltau(np.asarray(a.means), np.asarray(b.means))
    pairs = tuple(
        PairVerdict(
            first=a.systems[i[m]],
            second=a.systems[j[m]],
            mean_difference=(float(da[m]), float(db[m])),
            pvalue=(float(pa[m]), float(pb[m])),
            verdict=(_verdict(da[m], pa[m], a.alpha), _verdict(db[m], pb[m], b.alpha)),
            order_differs=bool(order[m]),
        )
        for m in np.flatnonzero(differ)
    )
    n_pairs = int(i.size)
    return RankingComparison(
        annotations=annotations,
        n_pairs=n_pairs,
        n_differ=int(differ.sum()),
        n_significance_differs=int((sa != sb).sum()),
        n_opposite_significant=int((sa & sb & (va != vb)).sum()),
        n_order_differs=int(order.sum()),
        fraction_differ=float(differ.sum() / n_pairs),
        kendall_tau=float(tau.statistic),
        kendall_pvalue=float(tau.pvalue),
        differing_pairs=pairs,
    )


# --------------------------------------------------------------------------- the study


def significance_study(
    scores: Any,
    *,
    system: str,
    docset: str,
    annotation: str | None,
    score: str,
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    power: float = 0.99,
    power_sig_level: float = 0.01,
) -> SignificanceStudy:
    """Significance tests of the scores two annotations give, beside their agreement.

    Parameters
    ----------
    scores : pandas.DataFrame or polars.DataFrame
        Long table, one row per (system, document set, annotation) with a
        numeric score.  Rows without a score are left out (see ``exclusions``).
    system, docset, annotation, score : str
        Column names.  ``annotation`` names a column with exactly two values
        (the two annotations compared), or is ``None`` for one annotation only
        (then only the per-annotation parts are computed).
    alpha : float
        Significance level of Tukey's HSD and of the verdicts compared between
        rankings.
    confidence_level : float
        Level of the Fisher intervals of the correlations (Table 5 uses 0.95).
    power, power_sig_level : float
        Target power and significance level of the sample-size computation
        (Table 10 uses 0.99 and 0.01).

    Returns
    -------
    SignificanceStudy
        The annotation ANOVA, per-peer, pooled and system-mean correlations,
        one :class:`AnnotationAnalysis` (system ANOVA, Tukey HSD, power) per
        annotation, the ranking comparison and the exclusions.

    Raises
    ------
    AccordError
        A column is missing, the score is not numeric, a (system, docset,
        annotation) cell has two scores, the annotation column does not hold
        exactly two values, or fewer than two systems are scored in both
        annotations.  A system scored in one annotation only is left out and
        listed in ``exclusions`` (with an :class:`~accord.AccordWarning`).

    Notes
    -----
    One-way ANOVA of scores y_ij in k groups: F = [SS_b / (k - 1)] / [SS_w / (N - k)]
    (:func:`scipy.stats.f_oneway`); MSE = SS_w / (N - k).  Pearson's r with
    the t-test p-value and the Fisher interval tanh(artanh r +- z / sqrt(n - 3))
    (:func:`scipy.stats.pearsonr`); per peer it pairs the document sets scored
    in both annotations.  Tukey's HSD (Tukey-Kramer when unbalanced,
    :func:`scipy.stats.tukey_hsd`); the printed HSD is
    q(1 - alpha; k, N - k) sqrt(MSE / n_h) with n_h the harmonic mean of the
    group sizes.  The groups of Tables 7-9 gather the systems that
    significantly beat the same set of systems.  Power: R's
    ``power.anova.test`` with between_var the variance of the system means
    (denominator k - 1) and within_var the MSE (:func:`anova_sample_size`).
    Two rankings differ on a pair when Tukey's verdict (first better, second
    better, not significant) differs.

    References
    ----------
    Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
    method for summary content evaluation. *Natural Language Engineering*
    16(2), sections 4.2 and 5, Tables 5-10. doi:10.1017/S1351324909990305

    Passonneau, R. J. (2006). Measuring agreement on set-valued items (MASI).
    *LREC 2006*, section 3.1 (paradigmatic reliability study).

    Examples
    --------
    Four peers of true quality 0.3-0.7 scored on 8 document sets, each score
    annotated twice with a small annotation noise:

    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> quality = {"p1": 0.3, "p2": 0.4, "p3": 0.6, "p4": 0.7}
    >>> true = {(p, d): q + rng.normal(0, 0.1) for p, q in quality.items() for d in range(8)}
    >>> df = pd.DataFrame([(p, d, a, t + rng.normal(0, 0.03)) for (p, d), t in true.items() for a in "AB"],
    ...                   columns=["peer", "docset", "annotator", "score"])
    >>> res = significance_study(df, system="peer", docset="docset", annotation="annotator", score="score")
    >>> round(res.annotation_anova.pvalue, 3)  # acceptance test: the annotations' means do not differ
    0.935
    >>> [round(c.r, 2) for c in res.peer_correlations]
    [0.93, 0.88, 0.75, 0.85]
    >>> res.analysis("A").tukey.groups[0].systems, res.analysis("A").tukey.groups[0].better_than
    (('p4', 'p3'), ('p1', 'p2'))
    >>> round(res.analysis("A").power.n_required, 2)  # document sets per peer for power .99 at .01
    3.33
    >>> res.ranking_comparison.n_differ, res.ranking_comparison.n_pairs
    (0, 6)
    """
    alpha = _check_fraction(alpha, "alpha")
    confidence_level = _check_fraction(confidence_level, "confidence_level")
    target = _check_fraction(power, "power")
    power_sig_level = _check_fraction(power_sig_level, "power_sig_level")
    if target <= power_sig_level:
        raise AccordError(f"power must exceed power_sig_level ({power_sig_level!r}); got {power!r}")
    for name, col in (("system", system), ("docset", docset), ("score", score)):
        if not isinstance(col, str):
            raise AccordError(f"{name} must be a column name (str); got {col!r}")
    if annotation is not None and not isinstance(annotation, str):
        raise AccordError(f"annotation must be a column name (str) or None; got {annotation!r}")
    t = _read_table(scores, system=system, docset=docset, annotation=annotation, score=score)

    k, n_docs = len(t.systems), len(t.docsets)
    analyses = []
    for a_code, a_label in enumerate(t.annotations):
        mask = t.ann == a_code
        anova = _one_way_anova(t.y[mask], t.sys[mask], t.systems, "system")
        tukey = pw = None
        if anova.reason is None:
            tukey = _tukey(t.y[mask], t.sys[mask], t.systems, anova, alpha)
            pw = _study_power(anova, target, power_sig_level)
        analyses.append(AnnotationAnalysis(a_label, anova, tukey, pw))

    annotation_anova = pooled = mean_corr = ranking = None
    peer_corrs: tuple[PearsonCorrelation, ...] = ()
    mean_diff = mean_abs = math.nan
    if len(t.annotations) == 2:
        annotation_anova = _one_way_anova(t.y, t.ann, t.annotations, "annotation")
        # paired matrix systems x docsets for each annotation (NaN where not scored)
        grid = np.full((2, k, n_docs), np.nan)
        grid[t.ann, t.sys, t.doc] = t.y
        paired = np.isfinite(grid).all(axis=0)
        first, second = grid[0], grid[1]
        undefined = []
        corrs = []
        for s in range(k):
            c = _pearson(first[s, paired[s]], second[s, paired[s]], t.systems[s], confidence_level)
            if c.reason is not None:
                undefined.append(f"{t.systems[s]!r} ({c.reason})")
            corrs.append(c)
        peer_corrs = tuple(corrs)
        if undefined:
            warn_undefined("Pearson's r for some systems", "; ".join(undefined[:5]))
        pooled = _pearson(first[paired], second[paired], "pooled", confidence_level)
        mean_corr = _pearson(
            np.asarray(analyses[0].system_anova.means),
            np.asarray(analyses[1].system_anova.means),
            "system means",
            confidence_level,
        )
        for c in (pooled, mean_corr):
            if c.reason is not None:
                warn_undefined(f"Pearson's r of the {c.label} scores", c.reason)
        if paired.any():
            d = first[paired] - second[paired]
            mean_diff, mean_abs = float(d.mean()), float(np.abs(d).mean())
        ta, tb = analyses[0].tukey, analyses[1].tukey
        if ta is not None and tb is not None:
            ranking = _compare_rankings(ta, tb, (t.annotations[0], t.annotations[1]))

    return SignificanceStudy(
        columns={"system": system, "docset": docset, "annotation": annotation, "score": score},
        annotations=t.annotations,
        systems=t.systems,
        n_docsets=n_docs,
        n_scores=int(t.y.size),
        alpha=alpha,
        annotation_anova=annotation_anova,
        analyses=tuple(analyses),
        peer_correlations=peer_corrs,
        pooled_correlation=pooled,
        system_mean_correlation=mean_corr,
        mean_difference=mean_diff,
        mean_absolute_difference=mean_abs,
        ranking_comparison=ranking,
        exclusions=t.exclusions,
    )
