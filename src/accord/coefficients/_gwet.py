r"""Gwet's AC1 and AC2: chance agreement from the propensity to rate at random.

Gwet (2008) models chance agreement as the probability that two raters agree
by guessing on a hard-to-rate subject; the resulting coefficient is far less
sensitive than kappa to skewed category prevalence (the "kappa paradoxes").
AC1 is the nominal form; AC2 weights partial agreement (Gwet 2014, chapter 3)
and handles any number of raters with missing ratings.

Both count pairs of values within subjects through the one pair engine
(:mod:`accord.coefficients._pairs`), as every coefficient in accord does; only the chance
term is Gwet's own.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Coefficient
from accord.coefficients._alpha import check_annotations
from accord.coefficients._pairs import UnitCounts, count_values, unit_disagreement_sums
from accord.coefficients._weights import (
    PreparedMatrix,
    WeightsDistance,
    category_codes,
    check_weight_scores,
    on_categories,
    used_values,
    weights_matrix,
)
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, PreparedDistance, get_distance

__all__ = ["GwetResult", "gwet_ac1", "gwet_ac2"]


@dataclass(frozen=True)
class GwetResult(Coefficient):
    """Gwet's AC1 (nominal) or AC2 (weighted) with its variance.

    Attributes
    ----------
    coefficient : {"ac1", "ac2"}
        Which coefficient.
    ac : float
        The coefficient, (p_a - p_e) / (1 - p_e); NaN when undefined.
    observed_agreement : float
        p_a, the (weighted) agreement averaged over subjects rated at least twice.
    chance_agreement : float
        p_e, Gwet's chance agreement.
    standard_error : float
        Square root of Gwet's (2008) variance, conditional on the raters, with
        the finite-population correction 1 - n / N.
    p_value : float
        Two-sided p-value of AC = 0 from Student's t with n - 1 degrees of freedom.
    distance : str
        The distance behind the weights (``"nominal"`` for AC1).
    weights : numpy.ndarray
        The q x q agreement weights w_kl used, over ``categories``.
    categories : tuple
        The q categories, in the order of ``weights``.
    n_units : int
        Subjects rated at least once (n).
    n_pairable_units : int
        Subjects rated at least twice (n'), over which p_a is averaged.
    n_coders : int
    population_size : float
        N, the number of subjects in the population (infinite by default).
    undefined_reason : str or None
    """

    _value_field: ClassVar[str] = "ac"
    _aliases: ClassVar[Mapping[str, str]] = {"expected_agreement": "chance_agreement"}
    _z_error: ClassVar[str | None] = "standard_error"

    coefficient: str
    ac: float
    observed_agreement: float
    chance_agreement: float
    standard_error: float
    p_value: float
    distance: str
    weights: np.ndarray
    categories: tuple[Any, ...]
    n_units: int
    n_pairable_units: int
    n_coders: int
    population_size: float = math.inf
    undefined_reason: str | None = None

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Student-t interval AC +/- t(n - 1) * standard_error, cut to [-1, 1].

        The upper end is capped at 1 as Gwet (2014, 5.3) does; the lower end is cut at -1 likewise: the
        variance is a large-sample approximation, and with few subjects the interval reaches past the
        range the coefficient is reported on.  A true value lies in the range, so cutting the interval
        there loses no coverage.  With fewer than two subjects rated twice or more there is no interval:
        the agreement of one subject says nothing of its spread between subjects.

        Raises
        ------
        AccordError
            When the coefficient is undefined, fewer than two subjects are rated twice or more, or for a
            confidence level outside (0, 1).
        """
        if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.ac):
            raise AccordError(f"{self.coefficient} is undefined here ({self.undefined_reason}); no interval")
        if self.n_pairable_units < 2:
            raise AccordError(
                f"{self.coefficient}'s interval needs at least two subjects rated twice or more; there is "
                f"{self.n_pairable_units}, whose agreement says nothing of its spread between subjects"
            )
        if not math.isfinite(self.standard_error):
            raise AccordError(f"the standard error of {self.coefficient} is undefined (it needs two or more subjects); "
                              "no interval")
        t = stats.t.ppf(0.5 + confidence_level / 2, self.n_units - 1)
        return (max(-1.0, self.ac - t * self.standard_error), min(1.0, self.ac + t * self.standard_error))


#: 1 - p_e below this is chance agreement 1 up to rounding: AC would be rounding error over rounding error.
_PE_TOLERANCE = 1e-12

_WeightsDistance = WeightsDistance
_PreparedMatrix = PreparedMatrix
_on_categories = on_categories
_category_codes = category_codes


def _gwet_distance(
    name: str, distance: str | Distance | DistanceFunction, weights: Any, values: np.ndarray, *, ordered: bool = True,
    weight_scores: str = "values",
) -> Distance:
    """The distance of AC1/AC2: *distance*, or user agreement *weights* over the categories *values*, checked."""
    if weights is None:
        return get_distance(distance)
    if name == "ac1":
        raise AccordError("gwet_ac1 is the unweighted coefficient; pass weights to gwet_ac2")
    if distance != "nominal":
        raise AccordError("pass either distance or weights to gwet_ac2, not both")
    w, label = weights_matrix(weights, values, ordered=ordered, scores=weight_scores)
    return WeightsDistance(w, label)


def _gwet(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction,
    weights: Any,
    categories: Sequence[Hashable] | None,
    population_size: float,
    name: str,
    variance: str = "subjects",
    weight_scores: str = "values",
) -> GwetResult:
    # one validation step
    data = check_annotations(data)
    check_variance(variance)
    check_weight_scores(weight_scores, weights)
    if not (isinstance(population_size, (int, float)) and population_size > 0):
        raise AccordError(f"population_size must be a positive number (or math.inf); got {population_size!r}")
    # without categories, q counts the values some rating uses: a count table's zero column and the values of
    # coders left out by select_coders are not observed categories (name them in categories= to count them)
    data = _on_categories(data, categories) if categories is not None else used_values(data)
    dist = _gwet_distance(name, distance, weights, data.values, ordered=categories is not None,
                          weight_scores=weight_scores)
    if data.n_units and population_size < np.count_nonzero(np.bincount(data.unit_index, minlength=data.n_units)):
        raise AccordError(f"population_size ({population_size}) is smaller than the number of rated subjects")

    # the pair engine: value counts per subject, every subject rated at least once
    uc = count_values(data, min_values=1)
    return _gwet_from_counts(
        uc, data.values, dist, user_weights=weights is not None, population_size=population_size, name=name,
        variance=variance,
        n_coders=data.n_coders, source=data.source,
    )


@dataclass(frozen=True)
class _SubjectAgreement:
    """The observed side shared by Gwet's family (AC1/AC2, Brennan-Prediger, Conger, Fleiss as irrCAC has them)."""

    w: np.ndarray  # q x q agreement weights
    prepared: PreparedDistance
    pa_i: np.ndarray  # each subject's agreement (0 for subjects rated once)
    pa: float  # averaged over the n2 subjects rated at least twice
    n: int  # subjects rated at least once
    n2: int  # subjects rated at least twice
    pairable: np.ndarray
    uw: np.ndarray  # row weights (signature histogram) or ones
    r_i: np.ndarray  # ratings per subject


def _subject_agreement(
    uc: UnitCounts, values: np.ndarray, dist: Distance, *, user_weights: bool, source: str | None
) -> _SubjectAgreement:
    """p_a = (1/n2) sum over subjects rated twice or more of sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)) (Gwet 2014,
    equation 2.13 with weights), from the pair engine's disagreement sums, and the weights w = 1 - delta / max delta."""
    q = len(values)
    pairable = uc.m >= 2
    uw = uc.unit_weight
    n = uc.n_pairable_units  # rated at least once
    n2 = int(round(float(uw[pairable].sum())))
    if n2 == 0:
        raise AccordError(f"{source or 'data'}: no subject was rated by two or more coders (no pairable unit)")
    r_i = uc.m
    prepared = dist.prepare(values, uc.marginals())
    delta = _delta_matrix(prepared, q)
    # agreement weights w = 1 - delta / delta_max (a user's weights: delta = 1 - w, delta_max = 1)
    dmax = 1.0 if user_weights else float(delta.max()) if q >= 2 else 0.0
    w = 1.0 - delta / dmax if dmax > 0 else np.ones((q, q))
    # observed agreement per subject: 1 - (sum over ordered pairs of delta) / (delta_max r_i (r_i - 1))
    s_i = unit_disagreement_sums(uc, prepared) / (dmax if dmax > 0 else 1.0)
    den = np.where(pairable, r_i * (r_i - 1.0), 1.0)
    pa_i = np.where(pairable, 1.0 - s_i / den, 0.0)
    pa = float((pa_i * uw).sum() / n2)
    return _SubjectAgreement(w=w, prepared=prepared, pa_i=pa_i, pa=pa, n=n, n2=n2, pairable=pairable, uw=uw, r_i=r_i)


def _gwet_from_counts(
    uc: UnitCounts,
    values: np.ndarray,
    dist: Distance,
    *,
    user_weights: bool,
    population_size: float,
    name: str,
    n_coders: int,
    source: str | None,
    variance: str = "subjects",
) -> GwetResult:
    """AC1/AC2 from the value counts of every subject rated at least once (or their signature histogram)."""
    q = len(values)
    sa = _subject_agreement(uc, values, dist, user_weights=user_weights, source=source)
    w, pa_i, pa, n, n2, pairable, uw, r_i = sa.w, sa.pa_i, sa.pa, sa.n, sa.n2, sa.pairable, sa.uw, sa.r_i
    # pi_k: the average over subjects of each category's share of the subject's ratings
    pi = uc.marginals(unit_weights=1.0 / r_i) / n
    t_w = float(w.sum())
    pe = t_w * float((pi * (1.0 - pi)).sum()) / (q * (q - 1)) if q >= 2 else 1.0
    coefficient = name
    reason = None
    if pe >= 1.0 or 1.0 - pe < _PE_TOLERANCE or not math.isfinite(pe):
        reason = ("chance agreement is 1 (a single category)" if q < 2 else
                  f"chance agreement is 1 (p_e = {pe!r}{'' if pe == 1.0 else ', 1 up to rounding'}): AC = (p_a - p_e) "
                  "/ (1 - p_e) would divide by zero or by rounding error (the weights count every pair of categories, "
                  "or nearly every, as agreement)")
        warn_undefined(coefficient, reason, stacklevel=4)
        return GwetResult(
            coefficient=coefficient, ac=math.nan, observed_agreement=pa, chance_agreement=pe,
            standard_error=math.nan, p_value=math.nan, distance=dist.name, weights=w,
            categories=tuple(values.tolist()), n_units=n, n_pairable_units=n2,
            n_coders=n_coders, population_size=float(population_size), undefined_reason=reason,
        )
    ac = (pa - pe) / (1.0 - pe)
    # Gwet (2008), equations 29-30 / Gwet (2014), section 5.3: linearised subject-level terms
    ac_i = (n / n2) * (pa_i - pe * pairable) / (1.0 - pe)
    one_minus_pi = 1.0 - pi
    pe_i = (t_w / (q * (q - 1))) * np.bincount(
        uc.unit, weights=uc.count * one_minus_pi[uc.value], minlength=uc.n_rows
    ) / r_i
    ac_star = ac_i - 2.0 * (1.0 - ac) * (pe_i - pe) / (1.0 - pe)
    f = n / population_size
    var = (1.0 - f) / _variance_divisor(n, variance) * float((uw * (ac_star - ac) ** 2).sum()) if n > 1 else math.nan
    se = math.sqrt(var) if var >= 0 else math.nan
    p_value = float(2 * stats.t.sf(abs(ac) / se, n - 1)) if se > 0 else math.nan
    return GwetResult(
        coefficient=coefficient,
        ac=ac,
        observed_agreement=pa,
        chance_agreement=pe,
        standard_error=se,
        p_value=p_value,
        distance=dist.name,
        weights=w,
        categories=tuple(values.tolist()),
        n_units=n,
        n_pairable_units=n2,
        n_coders=n_coders,
        population_size=float(population_size),
    )


#: the two forms of Gwet's variance: over the subjects' terms, and of a contingency table
VARIANCES = ("subjects", "table")


def check_variance(variance: Any) -> None:
    """One validation of ``variance=``."""
    if not isinstance(variance, str) or variance not in VARIANCES:
        raise AccordError(f"variance must be 'subjects' or 'table'; got {variance!r}")


def _variance_divisor(n: int, variance: str) -> float:
    return n * float(n) if variance == "table" else n * (n - 1.0)


def _delta_matrix(prepared: PreparedDistance, q: int) -> np.ndarray:
    """delta over every pair of the q categories (q is small: these are categories)."""
    if q == 0:
        return np.zeros((0, 0))
    ii, jj = np.meshgrid(np.arange(q), np.arange(q), indexing="ij")
    return np.asarray(prepared.pairs(ii.ravel(), jj.ravel()), dtype=float).reshape(q, q)


def gwet_ac1(
    data: Annotations,
    *,
    categories: Sequence[Hashable] | None = None,
    population_size: float = math.inf,
    variance: str = "subjects",
    layout: Layout = "coders-by-units",
) -> GwetResult:
    r"""Gwet's (2008) first-order agreement coefficient AC1, for nominal data.

    Parameters
    ----------
    data : Annotations or array-like
        Any number of raters; missing ratings allowed.
    categories : sequence, optional
        Every category a rater could choose.  Categories nobody chose still
        count in q and so change p_e; by default q is the number of values
        that occur.
    population_size : float, keyword-only
        N, the number of subjects in the population, for the finite-population
        correction of the variance (default infinite).
    variance : {"subjects", "table"}, keyword-only
        The divisor of the variance: ``"subjects"`` (default) n (n - 1), Gwet's (2008) form for raw
        ratings and irrCAC's raw-data functions; ``"table"`` n^2, the contingency-table form (Gwet 2014,
        chapter 5; irrCAC's ``table.CAC``).  The default is the sample variance of the subjects' terms;
        the two differ by the factor (n - 1) / n.
    layout : {"coders-by-units", "units-by-coders"}, keyword-only
        Orientation of *data* when it is a matrix (see :func:`accord.as_annotations`);
        ``"units-by-coders"`` is irrCAC's and R's.

    Returns
    -------
    GwetResult

    Notes
    -----
    With r_ik the number of raters who put subject i in category k,
    r_i = sum_k r_ik, n the subjects rated at least once and n' those rated at
    least twice, q categories and weights w_kl (identity for AC1):

    .. math::

        p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k
              \frac{r_{ik} (r^\star_{ik} - 1)}{r_i (r_i - 1)}, \quad
        r^\star_{ik} = \sum_l w_{kl} r_{il},

        \pi_k = \frac{1}{n} \sum_i \frac{r_{ik}}{r_i}, \quad
        p_e = \frac{T_w}{q (q - 1)} \sum_k \pi_k (1 - \pi_k), \quad
        AC = \frac{p_a - p_e}{1 - p_e},

    with T_w = sum_kl w_kl (T_w = q for AC1).  The variance is Gwet's (2008)
    linearisation, conditional on the raters:
    v = (1 - n/N) / (n (n - 1)) sum_i (AC*_i - AC)^2, with
    AC*_i = AC_i - 2 (1 - AC) (p_e|i - p_e) / (1 - p_e),
    AC_i = (n / n') (p_a|i - p_e [r_i >= 2]) / (1 - p_e) and
    p_e|i = T_w / (q (q - 1)) sum_k r_ik (1 - pi_k) / r_i.

    The observed term is the pair engine's: sum_k r_ik (r*_ik - 1) equals
    r_i (r_i - 1) less the sum over ordered pairs of ratings of
    delta / delta_max, with w = 1 - delta / delta_max.

    References
    ----------
    Gwet, K. L. (2008). Computing inter-rater reliability and its variance in the
    presence of high agreement. British Journal of Mathematical and Statistical
    Psychology 61, 29-48.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced
    Analytics, chapters 2-5.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "a"], ["a", "a", "b", "b"]])
    >>> round(gwet_ac1(d).ac, 6)
    0.529412
    """
    data = as_annotations(data, layout=layout)
    return _gwet(
        data, distance="nominal", weights=None, categories=categories,
        population_size=population_size, name="ac1", variance=variance,
    )


def gwet_ac2(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    population_size: float = math.inf,
    variance: str = "subjects",
    layout: Layout = "coders-by-units",
) -> GwetResult:
    r"""Gwet's AC2: AC1 with partial agreement, weighted by a distance or a weight matrix.

    Parameters
    ----------
    data : Annotations or array-like
        Any number of raters; missing ratings allowed.
    distance : str, Distance or callable, keyword-only
        The weights are w_kl = 1 - delta(k, l) / max delta over the categories:
        ``"interval"`` gives Gwet's quadratic weights, ``"ratio"`` his ratio
        weights; set distances (``"masi-2006"``, ...) work on set values.
        ``"nominal"`` gives AC1.
    weights : str or array-like, keyword-only
        Instead of a distance, named weights (``"linear"``, ``"quadratic"``,
        ``"ordinal"``, ``"radical"``, ``"ratio"``, ``"circular"``, ``"bipolar"``,
        ``"identity"``, as irrCAC defines them: :func:`accord.kappa_weights`) or
        the q x q agreement weights themselves (1 on the diagonal), over
        *categories* (or over the sorted values that occur; named weights over
        text labels need *categories* for their order).
    categories : sequence, optional
        Every category a rater could choose (see :func:`gwet_ac1`).
    weight_scores : {"values", "ranks"}, keyword-only
        What named weights measure distances on.  ``"values"`` (default, irrCAC's): numeric codes by
        their values (codes 1, 2, 5: 5 is three steps from 2), since the codes are the scale the user
        chose.  ``"ranks"``: the categories one step apart, those some rating uses (or *categories*,
        in their order), R irr's ``kappa2(weight="equal" | "squared")`` convention
        (:func:`accord.kappa_weights`).
    population_size : float, keyword-only
        N, for the finite-population correction (default infinite).
    variance : {"subjects", "table"}, keyword-only
        The divisor of the variance, as :func:`gwet_ac1`'s.
    layout : {"coders-by-units", "units-by-coders"}, keyword-only
        Orientation of *data* when it is a matrix (see :func:`accord.as_annotations`);
        ``"units-by-coders"`` is irrCAC's and R's.

    Returns
    -------
    GwetResult

    Notes
    -----
    The formulas are those of :func:`gwet_ac1` with general weights
    (Gwet 2014, section 3.4).

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapter 3.

    Examples
    --------
    >>> d = Annotations.from_matrix([[1, 2, 3, 3], [1, 3, 3, 2]])
    >>> round(gwet_ac2(d, distance="interval").ac, 6)
    0.666667
    >>> round(gwet_ac2(d, weights="linear").ac, 6)
    0.478261
    """
    data = as_annotations(data, layout=layout)
    return _gwet(
        data, distance=distance, weights=weights, categories=categories,
        population_size=population_size, name="ac2", variance=variance, weight_scores=weight_scores,
    )
