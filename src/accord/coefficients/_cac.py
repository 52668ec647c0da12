r"""Chance-corrected agreement by their authors' names: Brennan-Prediger, Conger's kappa, Light's kappa.

Brennan & Prediger (1981) and Conger (1980) share the observed agreement of Gwet's framework (Gwet
2014, chapter 2; irrCAC's ``bp`` and ``conger``): each subject's (weighted) agreement among its raters,
averaged over the subjects rated at least twice, so missing ratings are allowed.  Only chance agreement
differs:

=====================  =====================================================================
coefficient            chance agreement p_e
=====================  =====================================================================
Brennan-Prediger       sum_kl w_kl / q^2: every one of the q categories equally likely
Conger's kappa         sum_kl w_kl (pbar_k pbar_l - s2_kl / r): the mean over pairs of raters
                       of each pair's Cohen chance agreement, p_gk being rater g's share of
                       category k over the subjects g rated
=====================  =====================================================================

On complete data with nominal weights Brennan-Prediger is :func:`accord.bennett_s` and Conger's kappa
:func:`accord.multi_kappa` (Davies & Fleiss 1982; Artstein & Poesio's multi-kappa): those two weight
each unit by its number of values, these average over subjects as irrCAC does, which differs only when
ratings are missing.  Light's (1971) kappa is the mean of Cohen's kappa over all pairs of coders, on
the units every coder rated (as R's irr ``kappam.light``), with a bootstrap interval over those units.

All three count pairs with the one engine (:mod:`accord.coefficients._pairs`).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Coefficient
from accord.coefficients._alpha import check_annotations
from accord.coefficients._gwet import _subject_agreement, _variance_divisor, check_variance
from accord.coefficients._kappa import KappaResult, _coder_marginals, cohen_kappa
from accord.coefficients._pairs import count_values
from accord.coefficients._weights import check_weight_scores, on_categories, resolve_weights, used_values
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, get_distance

__all__ = ["ChanceCorrectedResult", "LightKappaResult", "brennan_prediger", "conger_kappa", "light_kappa"]


@dataclass(frozen=True)
class ChanceCorrectedResult(Coefficient):
    """Brennan-Prediger's coefficient or Conger's kappa, with Gwet's (2014) variance.

    Attributes
    ----------
    coefficient : {"brennan_prediger", "conger_kappa"}
    kappa : float
        (p_a - p_e) / (1 - p_e); NaN when undefined.
    observed_agreement : float
        p_a, the (weighted) agreement averaged over subjects rated at least twice.
    expected_agreement : float
        p_e, chance agreement.
    standard_error : float
        Gwet's linearised standard error, conditional on the raters, with the finite-population
        correction 1 - n / N (irrCAC's).
    p_value : float
        Two-sided p-value of kappa = 0 from Student's t with n - 1 degrees of freedom.
    distance : str
        ``"nominal"``, a distance's name, or the weights' (``"linear weights"``...).
    weights : numpy.ndarray
        The q x q agreement weights, over ``categories``.
    categories : tuple
        The categories, in the order of ``weights``.
    n_categories : int
        q, the number of categories chance agreement counts.
    n_units, n_pairable_units, n_coders : int
        Subjects rated at least once (n), at least twice, and the raters.
    population_size : float
        N, the number of subjects in the population (infinite by default).
    undefined_reason : str or None
    """

    _value_field: ClassVar[str] = "kappa"
    _z_error: ClassVar[str | None] = "standard_error"

    coefficient: str
    kappa: float
    observed_agreement: float
    expected_agreement: float
    standard_error: float
    p_value: float
    distance: str
    weights: np.ndarray
    categories: tuple[Any, ...]
    n_categories: int
    n_units: int
    n_pairable_units: int
    n_coders: int
    population_size: float = math.inf
    undefined_reason: str | None = None

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Student-t interval kappa +/- t(n - 1) * standard_error, its upper end capped at 1 (Gwet 2014, 5.3)."""
        if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.kappa) or math.isnan(self.standard_error):
            raise AccordError(f"{self.coefficient} has no interval here ({self.undefined_reason or 'one subject'})")
        t = stats.t.ppf(0.5 + confidence_level / 2, self.n_units - 1)
        return (self.kappa - t * self.standard_error, min(1.0, self.kappa + t * self.standard_error))


def _prepare(
    data: Any, *, distance: Any, weights: Any, categories: Sequence[Hashable] | None, population_size: float,
    layout: Layout, name: str, weight_scores: str = "values",
) -> tuple[Annotations, Distance, bool]:
    """One validation step: the data over its categories (the observed ones by default) and the distance."""
    data = check_annotations(as_annotations(data, layout=layout))
    check_weight_scores(weight_scores, weights)
    if not (isinstance(population_size, (int, float)) and population_size > 0):
        raise AccordError(f"population_size must be a positive number (or math.inf); got {population_size!r}")
    if categories is None:  # the categories some rating uses, in the value table's order (a count table's zero
        data = used_values(data)  # column and the values of coders left out are not observed categories)
    if weights is not None:
        if not (isinstance(distance, str) and distance == "nominal"):
            raise AccordError(f"{name}: pass either distance or weights, not both")
        data, dist = resolve_weights(data, weights, categories, scores=weight_scores)
    else:
        data, dist = on_categories(data, categories), get_distance(distance)
    rated = np.count_nonzero(np.bincount(data.unit_index, minlength=data.n_units))
    if population_size < rated:
        raise AccordError(f"population_size ({population_size}) is smaller than the number of rated subjects")
    return data, dist, weights is not None


def _finish(
    name: str, pa: float, pe: float, terms: np.ndarray | None, sa: Any, dist: Distance, values: np.ndarray,
    *, q: int, n_coders: int, population_size: float, variance: str = "subjects",
) -> ChanceCorrectedResult:
    """kappa, and Gwet's variance (1 - f) / (n (n - 1)) sum_i (kappa*_i - kappa)^2 from the subject terms."""
    common = dict(
        coefficient=name, observed_agreement=pa, expected_agreement=pe, distance=dist.name, weights=sa.w,
        categories=tuple(values.tolist()), n_categories=q, n_units=sa.n, n_pairable_units=sa.n2,
        n_coders=n_coders, population_size=float(population_size),
    )
    if pe >= 1.0 - 1e-15:
        reason = "chance agreement is 1 (a single category)"
        warn_undefined(name, reason, stacklevel=4)
        return ChanceCorrectedResult(kappa=math.nan, standard_error=math.nan, p_value=math.nan,
                                     undefined_reason=reason, **common)
    kappa = (pa - pe) / (1.0 - pe)
    n = sa.n
    k_i = (n / sa.n2) * (sa.pa_i - pe * sa.pairable) / (1.0 - pe)
    if terms is not None:  # Conger: the subject's share of chance agreement moves with it
        k_i = k_i - 2.0 * (1.0 - kappa) * (terms - pe) / (1.0 - pe)
    f = n / population_size
    var = (1.0 - f) / _variance_divisor(n, variance) * float((sa.uw * (k_i - kappa) ** 2).sum()) if n > 1 else math.nan
    se = math.sqrt(var) if var >= 0 else math.nan
    p_value = float(2 * stats.t.sf(abs(kappa) / se, n - 1)) if se > 0 else math.nan
    return ChanceCorrectedResult(kappa=kappa, standard_error=se, p_value=p_value, **common)


def brennan_prediger(
    data: Annotations,
    *,
    weights: Any = None,
    distance: str | Distance | DistanceFunction = "nominal",
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    n_categories: int | None = None,
    population_size: float = math.inf,
    variance: str = "subjects",
    layout: Layout = "coders-by-units",
) -> ChanceCorrectedResult:
    r"""Brennan & Prediger's (1981) coefficient: chance is uniform over the q categories.

    Parameters
    ----------
    data : Annotations or array-like
        Any number of raters; missing ratings allowed.
    weights : str or array-like, optional
        Named weights (``"linear"``, ``"quadratic"``, ... as irrCAC: :func:`accord.kappa_weights`) or
        a q x q agreement-weight matrix over *categories*.
    distance : str, Distance or callable
        Instead of weights, w = 1 - delta / max delta over the categories.
    categories : sequence, optional
        Every category a rater could choose, in order; categories nobody chose count in q.
    weight_scores : {"values", "ranks"}, keyword-only
        What named weights measure distances on.  ``"values"`` (default, irrCAC's): numeric codes by
        their values (codes 1, 2, 5: 5 is three steps from 2), since the codes are the scale the user
        chose.  ``"ranks"``: the categories one step apart, those some rating uses (or *categories*,
        in their order), R irr's ``kappa2(weight="equal" | "squared")`` convention
        (:func:`accord.kappa_weights`).
    n_categories : int, optional
        q without naming the categories (unweighted only); default: the categories given, else those
        observed.
    population_size : float
        N, for the finite-population correction of the variance.
    variance : {"subjects", "table"}
        The divisor of the variance, as :func:`accord.gwet_ac1`'s: ``"subjects"`` (default) n (n - 1),
        the raw-ratings form; ``"table"`` n^2, the contingency-table form of irrCAC's ``table.CAC.bp``.
    layout : {"coders-by-units", "units-by-coders"}
        Orientation of *data* when it is a matrix.

    Returns
    -------
    ChanceCorrectedResult

    Notes
    -----
    With r_ik the raters who put subject i in category k, r_i = sum_k r_ik, n' the subjects rated at
    least twice and T_w = sum_kl w_kl:

    .. math::

        p_a = \frac{1}{n'} \sum_{i: r_i \ge 2} \sum_k \frac{r_{ik}(r^\star_{ik} - 1)}{r_i(r_i - 1)},
        \quad p_e = \frac{T_w}{q^2}, \quad BP = \frac{p_a - p_e}{1 - p_e}.

    Unweighted, p_e = 1/q: Bennett, Alpert & Goldstein's S (:func:`accord.bennett_s`), which equals it
    on complete data.  The standard error is Gwet's (2014, 5.3) and irrCAC's ``bp``.

    References
    ----------
    Brennan, R. L., & Prediger, D. J. (1981). Coefficient kappa: some uses, misuses, and alternatives.
    Educational and Psychological Measurement 41, 687-699.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapters 2-5.

    Examples
    --------
    >>> d = Annotations.from_matrix([[1, 2, 3, 3], [1, 3, 3, 2]])
    >>> round(brennan_prediger(d).kappa, 4)
    0.25
    >>> round(brennan_prediger(d, n_categories=5).kappa, 4)
    0.375
    >>> round(brennan_prediger(d, weights="quadratic").kappa, 4)
    0.625
    """
    check_variance(variance)
    data, dist, user_weights = _prepare(data, distance=distance, weights=weights, categories=categories,
                                        population_size=population_size, layout=layout, name="brennan_prediger",
                                        weight_scores=weight_scores)
    q = len(data.values)
    if n_categories is not None:
        if not isinstance(n_categories, (int, np.integer)) or isinstance(n_categories, bool) or n_categories < q:
            raise AccordError(
                f"n_categories must be an integer >= the {plural(q, 'category')} "
                f"{'given' if categories else 'observed'}; "
                f"got {n_categories!r}"
            )
        unweighted = (weights is None and dist.name == "nominal") or (
            isinstance(weights, str) and weights == "identity")
        if not unweighted:
            raise AccordError("n_categories counts unnamed categories, which weights cannot place: with weights "
                              "or a distance, pass categories=[...] instead",
                              cli="--categories counts unnamed categories, which --weights cannot place: give the "
                                  "categories lowest to highest with --order instead")
    uc = count_values(data, min_values=1)
    sa = _subject_agreement(uc, data.values, dist, user_weights=user_weights, source=data.source)
    q_all = int(n_categories) if n_categories is not None else q
    t_w = float(sa.w.sum()) + (q_all - q)  # unnamed extra categories: identity weights
    pe = t_w / q_all**2 if q_all >= 2 else 1.0
    return _finish("brennan_prediger", sa.pa, pe, None, sa, dist, data.values, q=q_all, n_coders=_n_coders(data),
                   population_size=population_size, variance=variance)


def _n_coders(data: Annotations) -> int:
    return int(len(np.unique(data.coder_index)))


def conger_kappa(
    data: Annotations,
    *,
    weights: Any = None,
    distance: str | Distance | DistanceFunction = "nominal",
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    population_size: float = math.inf,
    layout: Layout = "coders-by-units",
) -> ChanceCorrectedResult:
    r"""Conger's (1980) kappa: Cohen's kappa for any number of raters, missing ratings allowed.

    Parameters
    ----------
    data : Annotations or array-like
        Two or more raters; missing ratings allowed (as irrCAC's ``conger``).
    weights, weight_scores, distance, categories, population_size, layout
        As :func:`brennan_prediger`.

    Returns
    -------
    ChanceCorrectedResult

    Notes
    -----
    p_a as :func:`brennan_prediger`.  With r raters, p_gk rater g's share of category k over the n_g
    subjects g rated, pbar_k their mean over raters and s2_kl = (sum_g p_gk p_gl - r pbar_k pbar_l) /
    (r - 1) (Gwet 2014, equation 2.9):

    .. math:: p_e = \sum_{kl} w_{kl} \left(\bar p_k \bar p_l - \frac{s^2_{kl}}{r}\right)
              = \frac{1}{r(r-1)} \sum_{g \ne h} \sum_{kl} w_{kl} p_{gk} p_{hl},

    the mean of the pairs of raters' Cohen chance agreements.  On complete data this is
    :func:`accord.multi_kappa` (Davies & Fleiss 1982) and, for two raters, Cohen's kappa.  The standard
    error is Gwet's linearisation as irrCAC computes it, with each subject's share of p_e.

    References
    ----------
    Conger, A. J. (1980). Integration and generalization of kappas for multiple raters.
    Psychological Bulletin 88(2), 322-328.
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapters 2 and 5.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "b", "b", None]])
    >>> round(conger_kappa(d).kappa, 4)
    0.6471
    """
    data, dist, user_weights = _prepare(data, distance=distance, weights=weights, categories=categories,
                                        population_size=population_size, layout=layout, name="conger_kappa",
                                        weight_scores=weight_scores)
    present = np.unique(data.coder_index)
    r = len(present)
    if r < 2:
        raise AccordError(f"conger_kappa needs two or more raters; the data have {r}")
    uc = count_values(data, min_values=1)
    sa = _subject_agreement(uc, data.values, dist, user_weights=user_weights, source=data.source)
    w = sa.w
    counts = _coder_marginals(data)[present]  # r x q
    n_g = counts.sum(axis=1)
    p = counts / n_g[:, None]
    pbar = p.mean(axis=0)
    pe = float((r * r * (pbar @ w @ pbar) - np.einsum("gk,kl,gl->", p, w, p)) / (r * (r - 1)))
    # each subject's chance agreement, linearised (irrCAC's lambda_ig, summed over the raters)
    c = r * pbar[None, :] - p  # sum of the other raters' shares
    a = c @ w
    b = (a * p).sum(axis=1)
    coder_row = np.full(data.n_coders, -1, dtype=np.int64)
    coder_row[present] = np.arange(r)
    g = coder_row[data.coder_index]
    row_of = np.full(data.n_units, -1, dtype=np.int64)
    row_of[uc.unit_ids] = np.arange(len(uc.unit_ids))
    contrib = (sa.n / n_g[g]) * (a[g, data.value_index] - b[g])
    pe_i = (b.sum() + np.bincount(row_of[data.unit_index], weights=contrib, minlength=uc.n_rows)) / (r * (r - 1))
    return _finish("conger_kappa", sa.pa, pe, pe_i, sa, dist, data.values, q=len(data.values), n_coders=r,
                   population_size=population_size)


@dataclass(frozen=True)
class LightKappaResult(Coefficient):
    """Light's (1971) kappa: the mean of Cohen's kappa over every pair of coders.

    Attributes
    ----------
    kappa : float
        The mean of the pairwise kappas; NaN when one of them is undefined.
    pairs : tuple of KappaResult
        Cohen's (weighted) kappa of each pair, in the order of ``coder_pairs``.
    coder_pairs : tuple of (coder, coder)
    distance : str
    n_units : int
        Units every coder rated (the ones used).
    n_units_dropped : int
        Units some but not all coders rated, left out (as irr's ``kappam.light``).
    n_coders : int
    undefined_reason : str or None
    """

    _value_field: ClassVar[str] = "kappa"
    _coefficient_id: ClassVar[str] = "light_kappa"

    kappa: float
    pairs: tuple[KappaResult, ...]
    coder_pairs: tuple[tuple[Any, Any], ...]
    distance: str
    n_units: int
    n_units_dropped: int
    n_coders: int
    undefined_reason: str | None = None
    #: the units used, one row each: the value index each coder gave (the bootstrap's data)
    _matrix: np.ndarray | None = field(default=None, repr=False, compare=False)
    _values: np.ndarray | None = field(default=None, repr=False, compare=False)
    _distance: Distance | None = field(default=None, repr=False, compare=False)

    def confidence_interval(
        self, confidence_level: float = 0.95, *, n_resamples: int = 1000, method: str = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap confidence interval, resampling units (Light's kappa has no large-sample variance of its own).

        The units every coder rated are drawn with replacement, each keeping all its ratings, and every pair's
        Cohen's kappa is recomputed on the resample (observed *and* chance agreement), their mean being the
        resample's Light's kappa; the interval is taken from that distribution by :func:`scipy.stats.bootstrap`
        as for alpha (``method`` ``"percentile"``, ``"basic"`` or ``"BCa"``).  Resamples on which a pair's kappa
        is undefined (the pair's chance disagreement is 0) are left out of the percentile and basic intervals.

        Parameters
        ----------
        confidence_level : float
            In (0, 1).
        n_resamples : int
        method : {"percentile", "basic", "BCa"}
        rng : numpy.random.Generator, int or None
            Seed or generator, for reproducible intervals.

        Returns
        -------
        (low, high) : tuple of float

        Notes
        -----
        The nonparametric bootstrap over units (Efron & Tibshirani 1993), as :meth:`accord.AlphaResult.
        confidence_interval`; irr's ``kappam.light`` prints a z test, not an interval.
        """
        from accord.coefficients._alpha import interval_over_defined

        res = self._bootstrap(confidence_level, n_resamples, method, rng)
        return interval_over_defined(res, self.kappa, confidence_level=confidence_level, method=method,
                                     what="Light's kappa")

    def bootstrap_distribution(self, *, n_resamples: int = 1000,
                               rng: np.random.Generator | int | None = None) -> np.ndarray:
        """The bootstrap Light's kappas behind :meth:`confidence_interval` (percentile), undefined ones dropped."""
        dist = np.asarray(self._bootstrap(0.95, n_resamples, "percentile", rng).bootstrap_distribution, dtype=float)
        return dist[~np.isnan(dist)]

    def _bootstrap(self, confidence_level: float, n_resamples: int, method: str, rng: Any) -> Any:
        from accord.coefficients._alpha import bootstrap_groups

        if self._matrix is None or self._values is None or self._distance is None:
            raise AccordError("this result carries no data to resample")
        if math.isnan(self.kappa):
            raise AccordError(f"Light's kappa is undefined ({self.undefined_reason}); no confidence interval")
        m, values, dist = self._matrix, self._values, self._distance
        n, v = m.shape[0], len(values)
        if n < 2:
            raise AccordError("a bootstrap interval needs at least two units rated by every coder")
        pairs = [(a, b) for a in range(m.shape[1]) for b in range(a + 1, m.shape[1])]
        pooled = np.bincount(m.ravel(), minlength=v).astype(float)
        fixed = None if dist.depends_on_marginals else _delta_matrix(dist, values, pooled)
        # a distance over each pair's pooled marginals (ordinal) with a batched form: a batch of resamples by array
        # arithmetic, the pair's joint counts over the (x_a, x_b) combinations its units hold; no V x V array
        batched = fixed is None and dist.prepare_batch(values, pooled[None, :]) is not None
        combos: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        if batched:
            for a, b in pairs:
                keys, code = np.unique(m[:, a] * np.int64(v) + m[:, b], return_inverse=True)
                combos[a, b] = (keys // v, keys % v, code.reshape(-1))

        def statistic(idx: np.ndarray, axis: int = -1) -> Any:
            # idx: (resamples, n) unit draws; one Cohen's kappa per pair and resample, by bincounts over the values
            # (BCa's jackknife passes samples of n - 1 units: the sizes are those of the sample, not n)
            idx = np.asarray(idx, dtype=np.int64)
            flat = idx.reshape(-1, idx.shape[-1])
            r, size = flat.shape
            offset = v * np.arange(r)[:, None]
            total = np.zeros(r)
            for a, b in pairs:
                xa, xb = m[flat, a], m[flat, b]
                ca = np.bincount((xa + offset).ravel(), minlength=r * v).reshape(r, v).astype(float)
                cb = np.bincount((xb + offset).ravel(), minlength=r * v).reshape(r, v).astype(float)
                if fixed is not None:
                    d_o = fixed[xa, xb].mean(axis=1)
                    d_e = np.einsum("rx,xy,ry->r", ca, fixed, cb) / size**2
                elif batched:
                    prep = dist.prepare_batch(values, ca + cb)
                    assert prep is not None
                    va, vb, code = combos[a, b]
                    k = len(va)
                    joint = np.bincount((code[flat] + k * np.arange(r)[:, None]).ravel(), minlength=r * k)
                    d_o = np.einsum("rk,rk->r", joint.reshape(r, k).astype(float), prep.pairs(va, vb)) / size
                    d_e = prep.cross_sum(ca, cb) / size**2
                else:  # no batched form of the distance: prepared resample by resample
                    d_o, d_e = _pair_terms_by_preparing(dist, values, xa, xb, ca, cb)
                with np.errstate(divide="ignore", invalid="ignore"):
                    total += np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)
            out = total / len(pairs)
            return out.reshape(idx.shape[:-1]) if idx.ndim > 1 else float(out[0])

        per_resample = n + 6 * v if batched else n  # the draws, and the marginals and deltas of each resample
        return bootstrap_groups(n, statistic, confidence_level=confidence_level, n_resamples=n_resamples,
                                method=method, rng=rng, vectorized=True,
                                batch=max(1, min(int(n_resamples), 2_000_000 // max(per_resample, 1))))

    def to_frame(self) -> pd.DataFrame:
        """One row per pair of coders: their Cohen's kappa and its large-sample standard error."""
        return pd.DataFrame({
            "coder_a": [a for a, _ in self.coder_pairs],
            "coder_b": [b for _, b in self.coder_pairs],
            "kappa": [p.kappa for p in self.pairs],
            "standard_error": [p.standard_error for p in self.pairs],
        })


def _delta_matrix(dist: Distance, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The V x V matrix of *dist* prepared from the marginal *counts*."""
    v = len(values)
    ii, jj = np.meshgrid(np.arange(v), np.arange(v), indexing="ij")
    return dist.prepare(values, counts).pairs(ii.ravel(), jj.ravel()).reshape(v, v)


def _pair_terms_by_preparing(dist: Distance, values: np.ndarray, xa: np.ndarray, xb: np.ndarray, ca: np.ndarray,
                             cb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D_o, D_e) of one pair of coders on each resample (rows of the codes *xa*, *xb* and their counts *ca*,
    *cb*), the distance prepared from each resample's pooled marginals in turn: the path of distances without a
    batched form, and the reference the batched one is tested against."""
    r, n = xa.shape
    d_o, d_e = np.empty(r), np.empty(r)
    for k in range(r):
        dk = _delta_matrix(dist, values, ca[k] + cb[k])
        d_o[k] = dk[xa[k], xb[k]].mean()
        d_e[k] = ca[k] @ dk @ cb[k] / n**2
    return d_o, d_e


def light_kappa(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    layout: Layout = "coders-by-units",
) -> LightKappaResult:
    r"""Light's (1971) kappa: Cohen's kappa averaged over all pairs of coders.

    Parameters
    ----------
    data : Annotations or array-like
        Two or more coders.  Units not rated by every coder are left out, counted and said (a warning),
        as R's irr ``kappam.light`` does (``na.omit``).
    distance, weights, categories, weight_scores : optional
        As :func:`accord.cohen_kappa`: each pair's kappa is then weighted.
    layout : {"coders-by-units", "units-by-coders"}

    Returns
    -------
    LightKappaResult

    Notes
    -----
    .. math:: \kappa_{Light} = \binom{c}{2}^{-1} \sum_{a<b} \kappa_{ab}

    Light's kappa has no large-sample variance of its own (irr prints a z test whose variance is not Light's):
    :meth:`LightKappaResult.confidence_interval` is the bootstrap of the units every coder rated; the pairs
    keep their own standard errors, and Conger's kappa has an analytic variance.

    References
    ----------
    Light, R. J. (1971). Measures of response agreement for qualitative data: some generalizations and
    alternatives. Psychological Bulletin 76(5), 365-377.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "b"], ["a", "b", "b", "b"], ["a", "a", "b", "a"]])
    >>> res = light_kappa(d)
    >>> [round(p.kappa, 4) for p in res.pairs], round(res.kappa, 4)
    ([0.5, 0.5, 0.2], 0.4)
    """
    data = check_annotations(as_annotations(data, layout=layout))
    check_weight_scores(weight_scores, weights)
    if weights is not None:
        if not (isinstance(distance, str) and distance == "nominal"):
            raise AccordError("light_kappa: pass either distance or weights, not both")
        data, dist = resolve_weights(data, weights, categories, scores=weight_scores)
    else:
        data, dist = on_categories(data, categories), get_distance(distance)
    present = np.unique(data.coder_index)
    c = len(present)
    if c < 2:
        raise AccordError(f"light_kappa needs two or more coders; the data have {c}")
    per_unit = np.bincount(data.unit_index, minlength=data.n_units)
    complete = per_unit == c
    dropped = int(np.count_nonzero((per_unit > 0) & ~complete))
    if not complete.any():
        raise AccordError(f"{data.source or 'data'}: no unit was rated by all {c} coders (Light's kappa uses the "
                          "units every coder rated)")
    if dropped:
        warnings.warn(f"light_kappa: {plural(dropped, 'unit is', 'units are')} not rated by all {c} coders and "
                      "left out (complete units "
                      "only, as irr's kappam.light)", AccordWarning, stacklevel=2)
    keep = complete[data.unit_index]
    sub = Annotations(unit_index=data.unit_index[keep], coder_index=data.coder_index[keep],
                      value_index=data.value_index[keep], units=data.units, coders=data.coders, values=data.values,
                      n_missing=data.n_missing, source=data.source)
    labels = data.coders[present].tolist()
    coder_pairs = tuple((labels[i], labels[j]) for i in range(c) for j in range(i + 1, c))
    pairs = tuple(cohen_kappa(sub, distance=dist, coders=pair) for pair in coder_pairs)
    values = np.array([p.kappa for p in pairs])
    reason = None
    if np.isnan(values).any():
        bad = coder_pairs[int(np.flatnonzero(np.isnan(values))[0])]
        reason = f"Cohen's kappa of coders {bad[0]!r} and {bad[1]!r} is undefined"
        warn_undefined("light_kappa", reason)
    col = np.full(data.n_coders, -1, dtype=np.int64)
    col[present] = np.arange(c)
    matrix = np.zeros((data.n_units, c), dtype=np.int64)
    matrix[sub.unit_index, col[sub.coder_index]] = sub.value_index
    return LightKappaResult(
        kappa=float(values.mean()) if reason is None else math.nan, pairs=pairs, coder_pairs=coder_pairs,
        distance=dist.name, n_units=int(complete.sum()), n_units_dropped=dropped, n_coders=c,
        undefined_reason=reason, _matrix=matrix[complete], _values=data.values, _distance=dist,
    )
