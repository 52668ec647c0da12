r"""One pooled chance distribution: Scott's pi and Fleiss' kappa (Siegel & Castellan's K), with Bennett's S
(uniform chance) and the multi-kappa (one distribution per coder, averaged over coder pairs) beside them.

The observed term is the pair engine's, as for alpha and Cohen's kappa (:mod:`accord.coefficients._kappa`
holds the results and the shared steps); only the chance term differs (Artstein & Poesio 2008, sections 2-3).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any, Literal

import numpy as np

from accord._shared.errors import AccordError, plural, warn_undefined
from accord._shared.lazy import stats
from accord.coefficients._alpha import check_annotations
from accord.coefficients._kappa import (
    KappaResult,
    _coder_marginals,
    _complete,
    _delta_max,
    _directional,
    _distance_or_weights,
    _finish,
    _first_second,
    _observed_counts,
    _pair_table,
    _replace,
    _two_coders,
)
from accord.coefficients._pairs import UnitCounts, count_values
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, get_distance
from accord.distances._scalar import _PreparedNominal

__all__ = ["bennett_s", "fleiss_kappa", "multi_kappa", "scott_pi", "siegel_castellan_k"]


def scott_pi(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    coders: tuple[Any, Any] | None = None,
    layout: Layout = "coders-by-units",
) -> KappaResult:
    r"""Scott's (1955) pi for two coders: chance from one pooled distribution.

    Parameters
    ----------
    data : Annotations or array-like
        Two coders (or more, with *coders* naming two); units not coded by both are left out.
    distance : str, Distance or callable
        How values differ (default nominal).
    weights : str or array-like, optional
        Instead of a distance, agreement weights by name or as a q x q matrix, as :func:`cohen_kappa`
        takes them (delta = 1 - w; irrCAC's ``scott`` with the same weights).  A matrix with a direction
        is read as :func:`cohen_kappa` reads it: w[k, l] is the first coder's k against the second's l.
    categories : sequence, optional
        The categories in order, for named weights over text labels.
    weight_scores : {"values", "ranks"}, keyword-only
        What named weights measure distances on.  ``"values"`` (default, irrCAC's): numeric codes by
        their values (codes 1, 2, 5: 5 is three steps from 2), since the codes are the scale the user
        chose.  ``"ranks"``: the categories one step apart, those some rating uses (or *categories*,
        in their order), R irr's ``kappa2(weight="equal" | "squared")`` convention
        (:func:`accord.kappa_weights`).
    coders : (a, b), optional
        The two coders to compare (the first is the rows of directional weights).
    layout : {"coders-by-units", "units-by-coders"}

    Notes
    -----
    .. math:: D_e = \sum_{b,c} p_b p_c \delta(b, c), \quad p_b = n_b / n

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    >>> round(scott_pi(d).kappa, 4)
    0.4667
    """
    data = as_annotations(data, layout=layout)
    sub, dropped = _two_coders(data, coders, "scott_pi")
    sub, dist = _distance_or_weights(sub, distance, weights, categories, "scott_pi", weight_scores)
    return _scott_from_counts(count_values(sub), sub.values, dist, dropped=dropped, source=sub.source,
                              table=_pair_table(sub, _first_second(sub, coders)))


def _scott_from_counts(
    uc: UnitCounts, values: np.ndarray, dist: Distance, *, dropped: int, source: str | None,
    table: np.ndarray | None = None,
) -> KappaResult:
    d_o, n, uc, prepared = _observed_counts(uc, values, dist, source)
    delta = _directional(prepared) if table is not None else None
    if delta is not None and table is not None:  # weights with a direction, read as Cohen's kappa reads them
        d_o = float((table * delta).sum() / table.sum())
    p = uc.marginals() / n
    d_e = prepared.cross_sum(p, p)
    dmax = _delta_max(prepared, p > 0)
    return _finish("scott_pi", d_o, d_e, dmax, dist, n_units=uc.n_pairable_units, n_coders=2,
                   n_units_dropped=dropped)


def fleiss_kappa(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    missing: Literal["error", "gwet"] = "error",
    population_size: float = math.inf,
    layout: Layout = "coders-by-units",
) -> KappaResult:
    r"""Fleiss' (1971) kappa, Siegel & Castellan's K: Scott's pi for any number of coders.

    Every unit must hold the same number m of values (complete data; use
    :func:`accord.alpha` otherwise), unless ``missing="gwet"``.  ``weights`` (a name, as irrCAC's, or
    a q x q matrix), ``categories`` and ``weight_scores`` are those of :func:`cohen_kappa`;
    with weights, chance agreement is sum_kl w_kl p_k p_l (Gwet 2014, 2.4).

    ``missing="gwet"`` is Gwet's (2014, chapter 2) extension to missing ratings, irrCAC's ``fleiss``:
    p_a averaged over the subjects rated at least twice, each subject's agreement among its own raters;
    p_e = sum_kl w_kl pi_k pi_l with pi_k the mean over subjects of each category's share of the
    subject's ratings; the standard error is Gwet's linearised one (Student's t with n - 1 degrees of
    freedom, finite-population correction 1 - n / *population_size*), in ``standard_error``.  On complete
    data the value is the default's.  The default refuses missing ratings because Fleiss (1971) defined
    the coefficient, and its null-hypothesis standard error (Fleiss, Nee & Landis 1979), for a fixed
    number of ratings per subject; Krippendorff's alpha is the coefficient built for missing values.

    Notes
    -----
    Beigman Klebanov & Beigman (2009), equation 2: with N items, m annotators,
    n_ik the number of annotators who put item i in category k and
    p_k = sum_i n_ik / (N m),

    .. math::

        P(A) = \frac{1}{N m (m-1)} \sum_i \sum_k n_{ik}(n_{ik}-1), \quad
        P(E) = \sum_k p_k^2, \quad K = \frac{P(A) - P(E)}{1 - P(E)}.

    ``standard_error_null`` is Fleiss, Nee & Landis (1979), for nominal data.

    References
    ----------
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    Psychological Bulletin 76(5), 378-382.
    Siegel, S., & Castellan, N. J. (1988). Nonparametric Statistics for the
    Behavioral Sciences, 2nd ed.
    Fleiss, J. L., Nee, J. C. M., & Landis, J. R. (1979). Large sample variance of
    kappa in the case of different sets of raters. Psychological Bulletin 86(5).

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b"], ["a", "b", "b"], ["a", "b", "b"]])
    >>> round(fleiss_kappa(d).kappa, 4)
    0.55
    """
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    if missing not in ("error", "gwet"):
        raise AccordError(f"missing must be 'error' or 'gwet'; got {missing!r}")
    if missing == "error" and population_size != math.inf:
        raise AccordError("population_size applies with missing='gwet' (Gwet's variance)")
    data, dist = _distance_or_weights(data, distance, weights, categories, "fleiss_kappa",
                                      weight_scores)
    if missing == "gwet":
        return _fleiss_gwet(data, dist, user_weights=weights is not None and not (
            isinstance(weights, str) and weights == "identity"), population_size=population_size)
    m = _complete(data, "fleiss_kappa")
    return _fleiss_from_counts(count_values(data), data.values, dist, m=m, n_coders=data.n_coders,
                               source=data.source)


def _fleiss_gwet(data: Annotations, dist: Distance, *, user_weights: bool, population_size: float) -> KappaResult:
    """Fleiss' kappa with Gwet's (2014) missing-data extension and variance (irrCAC's ``fleiss``), for
    :func:`accord.fleiss_kappa`'s ``missing="gwet"``: the observed side is Brennan-Prediger's and Conger's."""
    from accord.coefficients._gwet import _subject_agreement  # kappa builds on gwet here (the layers of docs/design.md)

    if not (isinstance(population_size, (int, float)) and population_size > 0):
        raise AccordError(f"population_size must be a positive number (or math.inf); got {population_size!r}")
    uc = count_values(data, min_values=1)
    if population_size < uc.n_pairable_units:
        raise AccordError(f"population_size ({population_size}) is smaller than the number of rated subjects")
    sa = _subject_agreement(uc, data.values, dist, user_weights=user_weights, source=data.source)
    w, n = sa.w, sa.n
    pi = uc.marginals(unit_weights=1.0 / sa.r_i) / n
    pe = float(pi @ w @ pi)
    common = dict(coefficient="fleiss_kappa", observed_agreement=sa.pa, expected_agreement=pe,
                  observed_disagreement=1.0 - sa.pa, expected_disagreement=1.0 - pe, distance=dist.name,
                  n_units=n, n_coders=int(len(np.unique(data.coder_index))), _df=float(n - 1))
    if pe >= 1.0 - 1e-15:
        reason = "chance agreement is 1 (a single category)"
        warn_undefined("fleiss_kappa", reason, stacklevel=4)
        return KappaResult(kappa=math.nan, undefined_reason=reason, **common)  # type: ignore[arg-type]
    kappa = (sa.pa - pe) / (1.0 - pe)
    k_i = (n / sa.n2) * (sa.pa_i - pe * sa.pairable) / (1.0 - pe)
    pi_w = (w @ pi + w.T @ pi) / 2.0
    pe_i = np.bincount(uc.unit, weights=uc.count * pi_w[uc.value], minlength=uc.n_rows) / sa.r_i
    k_star = k_i - 2.0 * (1.0 - kappa) * (pe_i - pe) / (1.0 - pe)
    f = n / population_size
    var = (1.0 - f) / (n * (n - 1.0)) * float((sa.uw * (k_star - kappa) ** 2).sum()) if n > 1 else math.nan
    se = math.sqrt(var) if var >= 0 else math.nan
    p_value = float(2 * stats.t.sf(abs(kappa) / se, n - 1)) if se > 0 else math.nan
    return KappaResult(kappa=kappa, standard_error=se, p_value=p_value, **common)  # type: ignore[arg-type]


def _fleiss_from_counts(
    uc: UnitCounts, values: np.ndarray, dist: Distance, *, m: int, n_coders: int, source: str | None
) -> KappaResult:
    d_o, n, uc, prepared = _observed_counts(uc, values, dist, source)
    p = uc.marginals() / n
    d_e = prepared.cross_sum(p, p)
    dmax = _delta_max(prepared, p > 0)
    res = _finish("fleiss_kappa", d_o, d_e, dmax, dist, n_units=uc.n_pairable_units, n_coders=n_coders)
    if math.isnan(res.kappa) or not isinstance(prepared, _PreparedNominal):
        return res
    pq = p * (1 - p)
    s = pq.sum()
    var0 = 2.0 / (uc.n_pairable_units * m * (m - 1)) * (s**2 - (pq * (1 - 2 * p)).sum()) / s**2
    se0 = math.sqrt(max(var0, 0.0))
    p_value = float(2 * stats.norm.sf(abs(res.kappa) / se0)) if se0 > 0 else math.nan
    return _replace(res, standard_error_null=se0, p_value=p_value)


siegel_castellan_k = fleiss_kappa


def multi_kappa(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> KappaResult:
    r"""Artstein & Poesio's multi-kappa: Cohen's kappa for any number of coders.

    Chance agreement uses each coder's own distribution, averaged over all
    pairs of coders (Davies & Fleiss 1982; Artstein & Poesio 2008, section
    2.5).  Every coder must code every unit.

    Notes
    -----
    .. math:: D_e = \binom{c}{2}^{-1} \sum_{i<j} \sum_{b,c} p_i(b)\,p_j(c)\,\delta(b, c)

    References
    ----------
    Artstein, R., & Poesio, M. (2008). Inter-coder agreement for computational
    linguistics. Computational Linguistics 34(4), 555-596.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    >>> round(multi_kappa(d).kappa, 4)
    0.5
    """
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    dist = get_distance(distance)
    m = _complete(data, "multi_kappa")
    present = np.unique(data.coder_index)
    if m != len(present):
        raise AccordError(
            f"multi_kappa needs every coder to code every unit ({plural(len(present), 'coder')}, "
            f"{plural(m, 'value')} per unit)"
        )
    return _multi_from_counts(count_values(data), data.values, dist, _coder_marginals(data)[present],
                              source=data.source)


def _multi_from_counts(
    uc: UnitCounts, values: np.ndarray, dist: Distance, coder_marginals: np.ndarray, *, source: str | None
) -> KappaResult:
    """multi-kappa from the counts and each coder's value counts (one row per coder with values)."""
    d_o, n, uc, prepared = _observed_counts(uc, values, dist, source)
    present = np.arange(len(coder_marginals))
    pc = coder_marginals / coder_marginals.sum(axis=1, keepdims=True)
    total, pairs = 0.0, 0
    for i in range(len(present)):
        for j in range(i + 1, len(present)):
            total += prepared.cross_sum(pc[i], pc[j])
            pairs += 1
    d_e = total / pairs
    dmax = _delta_max(prepared, pc.sum(axis=0) > 0)
    return _finish("multi_kappa", d_o, d_e, dmax, dist, n_units=uc.n_pairable_units, n_coders=len(present))


def bennett_s(
    data: Annotations,
    *,
    n_categories: int | None = None,
    distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> KappaResult:
    r"""Bennett, Alpert & Goldstein's (1954) S: chance is uniform over the categories.

    Parameters
    ----------
    n_categories : int, optional
        q, the number of categories coders could choose from; default: the
        number of distinct values observed.  Only with the nominal distance.

    Notes
    -----
    Nominal: A_e = 1/q.  Other distances: D_e is the mean of delta over all
    ordered pairs of the observed values.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"]])
    >>> bennett_s(d).kappa
    0.5
    """
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    dist = get_distance(distance)
    return _bennett_from_counts(count_values(data), data.values, dist, n_categories=n_categories,
                                n_coders=data.n_coders, source=data.source)


def _bennett_from_counts(
    uc: UnitCounts, values: np.ndarray, dist: Distance, *, n_categories: int | None, n_coders: int,
    source: str | None,
) -> KappaResult:
    d_o, n, uc, prepared = _observed_counts(uc, values, dist, source)
    observed = uc.marginals() > 0
    q_obs = int(observed.sum())
    if n_categories is not None:
        if not isinstance(n_categories, (int, np.integer)) or n_categories < q_obs:
            raise AccordError(
                f"n_categories must be an integer >= the {plural(q_obs, 'category')} observed; got {n_categories!r}"
            )
        if not isinstance(prepared, _PreparedNominal):
            raise AccordError("n_categories applies to the nominal distance only")
        q = int(n_categories)
        d_e = 1.0 - 1.0 / q
    else:
        u = observed / q_obs
        d_e = prepared.cross_sum(u, u)
    dmax = _delta_max(prepared, observed)
    return _finish("bennett_s", d_o, d_e, dmax, dist, n_units=uc.n_pairable_units, n_coders=n_coders)
