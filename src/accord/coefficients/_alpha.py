"""Krippendorff's alpha with any distance and missing data.

alpha = 1 - D_o / D_e, with D_o and D_e counted by the pair engine
(:mod:`accord.coefficients._pairs`); see :func:`alpha` for the formulas.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, Message, plural, warn_undefined, words
from accord._shared.lazy import stats
from accord._shared.names import shown_list
from accord._shared.results import Coefficient, Result
from accord.coefficients._marginal_bootstrap import row_parts
from accord.coefficients._pairs import UnitCounts, count_values, fused_counts, observed_sum, unit_disagreement_sums
from accord.coefficients._signature_bootstrap import signature_bootstrap
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, get_distance

__all__ = [
    "AlphaResult",
    "ScaleHint",
    "alpha",
    "alpha_from_counts",
    "bootstrap_groups",
    "check_annotations",
    "interval_over_defined",
    "scale_hint",
]

BootstrapMethod = Literal["percentile", "basic", "BCa"]


def check_annotations(data: Any, *, min_coders: int = 2, what: str = "data") -> Annotations:
    """Validate *data* (:class:`Annotations` or a coders x units matrix) with at least *min_coders* coders."""
    data = as_annotations(data, what=what)
    if data.n_entries == 0:
        raise AccordError(f"{data.source or what}: no values to compare (every cell is missing)")
    present = np.flatnonzero(np.bincount(data.coder_index, minlength=data.n_coders))
    if len(present) < min_coders:
        raise AccordError(
            f"{data.source or what}: agreement needs at least {min_coders} coders with values; "
            f"found {len(present)} ({shown_list(data.coders[present].tolist())})"
        )
    return data


def bootstrap_groups(
    n_groups: int,
    statistic: Any,
    *,
    confidence_level: float,
    n_resamples: int,
    method: str,
    rng: Any,
    vectorized: bool = False,
    batch: int | None = None,
) -> Any:
    """Validate the options and run :func:`scipy.stats.bootstrap` over *n_groups* resampled groups.

    *statistic* receives the drawn group indices (floats) and returns the
    coefficient; the groups are units for alpha and documents for coreference
    alpha.  One validation step for every bootstrap interval in accord.
    With *vectorized*, *statistic* also takes ``(resamples, n_groups)`` arrays
    (and ``axis=-1``); *batch* resamples are drawn at a time (the draws are
    the same as without batches, so the interval does not change).
    """
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise AccordError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    if method not in ("percentile", "basic", "BCa"):
        raise AccordError(f"method must be 'percentile', 'basic' or 'BCa'; got {method!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return stats.bootstrap(
            (np.arange(n_groups, dtype=float),),
            statistic,
            vectorized=vectorized,
            batch=batch,
            n_resamples=int(n_resamples),
            confidence_level=float(confidence_level),
            method=method,
            rng=np.random.default_rng(rng),
        )


def interval_over_defined(
    res: Any, estimate: float, *, confidence_level: float, method: str, what: str
) -> tuple[float, float]:
    """The interval of a :func:`bootstrap_groups` result, leaving out resamples where the statistic is undefined.

    :func:`scipy.stats.bootstrap` returns NaN bounds as soon as one resample is
    NaN (a resample with no expected disagreement); the percentile and basic
    intervals are taken over the defined resamples instead, and BCa, which needs
    them all, is refused by name.
    """
    lo, hi = res.confidence_interval
    dist = np.asarray(res.bootstrap_distribution, dtype=float)
    undefined = int(np.isnan(dist).sum())
    if undefined and method in ("percentile", "basic"):
        if undefined == len(dist):
            raise AccordError(f"{what} is undefined on every bootstrap resample; no confidence interval")
        tail = (1.0 - float(confidence_level)) / 2.0
        q_lo, q_hi = np.nanpercentile(dist, [100 * tail, 100 * (1 - tail)])
        lo, hi = (q_lo, q_hi) if method == "percentile" else (2 * estimate - q_hi, 2 * estimate - q_lo)
    elif undefined:
        raise AccordError(
            f"{what} is undefined on {undefined} of {len(dist)} bootstrap resamples; BCa needs every resample "
            "defined: use method 'percentile' or 'basic'"
        )
    return float(lo), float(hi)


@dataclass(frozen=True)
class AlphaResult(Coefficient):
    """Krippendorff's alpha and the counts it came from.

    Attributes
    ----------
    alpha : float
        1 - D_o / D_e; NaN when undefined (see ``undefined_reason``).
    observed_disagreement, expected_disagreement : float
        D_o and D_e.
    distance : str
        Name of the distance used.
    n_units, n_pairable_units : int
        All units, and those holding at least two values.
    n_coders : int
        Coders in the data.
    n_pairable : int
        n, the number of pairable values.
    n_unpairable_values : int
        Values in units that hold a single value (they cannot be paired and do
        not enter alpha).
    n_distinct_values : int
        Distinct values among the pairable ones.
    undefined_reason : str or None
        Why alpha is NaN, when it is.
    note : str or None
        How the distance was computed when it matters to reading D_o and D_e:
        interval values too large or too small to square in floating point are
        divided by a power of two first (alpha does not change; D_o and D_e are
        in the divided units).
    """

    _value_field: ClassVar[str] = "alpha"
    _coefficient_id: ClassVar[str] = "alpha"

    alpha: float
    observed_disagreement: float
    expected_disagreement: float
    distance: str
    n_units: int
    n_pairable_units: int
    n_coders: int
    n_pairable: int
    n_unpairable_values: int
    n_distinct_values: int
    undefined_reason: str | None = None
    note: str | None = None
    _counts: UnitCounts | None = field(default=None, repr=False, compare=False)
    _distance: Distance | None = field(default=None, repr=False, compare=False)
    _values: np.ndarray | None = field(default=None, repr=False, compare=False)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: BootstrapMethod = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap confidence interval for alpha, resampling units.

        Pairable units are drawn with replacement (each keeps all its values),
        alpha is recomputed on each resample (observed *and* expected
        disagreement, so the chance term varies too), and the interval is taken
        from the bootstrap distribution by :func:`scipy.stats.bootstrap`
        (``method`` ``"percentile"``, ``"basic"`` or ``"BCa"``; BCa adds a
        jackknife of one alpha per unit).  Resamples whose alpha is undefined
        (all values equal) are dropped; see :meth:`bootstrap_distribution`.

        Parameters
        ----------
        confidence_level : float
            In (0, 1).
        n_resamples : int
            Number of bootstrap resamples.
        method : {"percentile", "basic", "BCa"}
        rng : numpy.random.Generator, int or None
            Seed or generator, for reproducible intervals.

        Returns
        -------
        (low, high) : tuple of float

        Notes
        -----
        This is the nonparametric unit bootstrap (Efron & Tibshirani 1993).  It
        differs from Hayes & Krippendorff's (2007) bootstrap, which resamples
        pairs of values under a fixed expected disagreement.
        """
        res = self._bootstrap(confidence_level, n_resamples, method, rng)
        return interval_over_defined(res, self.alpha, confidence_level=confidence_level, method=method, what="alpha")

    def bootstrap_distribution(
        self, *, n_resamples: int = 1000, rng: np.random.Generator | int | None = None
    ) -> np.ndarray:
        """The bootstrap alphas behind :meth:`confidence_interval` (method percentile), undefined ones dropped."""
        dist = np.asarray(self._bootstrap(0.95, n_resamples, "percentile", rng).bootstrap_distribution, dtype=float)
        return dist[~np.isnan(dist)]

    def _bootstrap(
        self, confidence_level: float, n_resamples: int, method: str, rng: Any, progress: Any = None
    ) -> Any:
        """The :func:`scipy.stats.bootstrap` result; *progress*, if given, is called with the number of
        resamples done after each batch (every distance with a batched path; the report's progress bar)."""
        if self._counts is None or self._distance is None or self._values is None:
            raise AccordError("this result carries no data to resample")
        if math.isnan(self.alpha):
            raise AccordError(f"alpha is undefined ({self.undefined_reason}); no confidence interval")
        uc, dist, values = self._counts.per_unit(), self._distance, self._values  # units, as the bootstrap draws them
        p = uc.n_pairable_units
        if p < 2:
            raise AccordError("a bootstrap interval needs at least two pairable units")
        if uc.weight is not None:  # a signature histogram: multinomial weights over the signatures
            return signature_bootstrap(
                uc, values, dist, confidence_level=confidence_level, n_resamples=n_resamples, method=method, rng=rng
            )
        prepared = dist.prepare(values, uc.marginals())
        fixed = not dist.depends_on_marginals
        d_u = unit_disagreement_sums(uc, prepared) / (uc.m - 1.0) if fixed else None

        def statistic(idx: np.ndarray) -> float:
            if not fixed:
                return _resample_alpha(uc, values, dist, idx)
            w = np.bincount(idx.astype(np.int64), minlength=p).astype(float)
            marg = uc.marginals(w)
            n = float(w @ uc.m)
            d_o = float(w @ d_u) / n
            d_e = prepared.cross_sum(marg, marg) / (n * (n - 1.0))
            return 1.0 - d_o / d_e if d_e > 0 else np.nan

        if not fixed:
            by_rows = row_parts(uc, values, dist)
            if by_rows is None:  # no batched form of the distance, or too many pairs of values: resample by resample
                return bootstrap_groups(
                    p, statistic, confidence_level=confidence_level, n_resamples=n_resamples, method=method, rng=rng
                )

            def statistic_marginal(idx: np.ndarray, axis: int = -1) -> Any:
                # a batch of resamples, each with its own distance from its own marginals (ordinal): unit weights W
                # by one bincount, n, the marginals and the coincidences by one product, delta_r by array arithmetic
                idx = np.asarray(idx)
                if idx.ndim == 1:
                    return statistic(idx)
                out = by_rows.alphas(_unit_weights(idx, p))
                if progress is not None:
                    progress(len(out))
                return out.reshape(idx.shape[:-1])

            return bootstrap_groups(
                p, statistic_marginal, confidence_level=confidence_level, n_resamples=n_resamples, method=method,
                rng=rng, vectorized=True, batch=max(1, min(int(n_resamples), by_rows.batch())),
            )
        n_values = len(uc.marginals())
        dense = p * (n_values + 2) <= 25_000_000
        # per pairable unit: m_u, its disagreement, its value counts; W @ this gives n, D_o n and the marginals
        parts = (np.column_stack([uc.m, d_u, uc.matrix().toarray()]) if dense
                 else np.column_stack([uc.m, d_u]))
        counts_t = None if dense else uc.matrix().T.tocsr()

        def statistic_many(idx: np.ndarray, axis: int = -1) -> Any:
            # the same statistic over a batch of resamples at once: unit weights W (batch x units) by one bincount,
            # n, D_o and the marginals by one matrix product; only D_e is taken resample by resample
            idx = np.asarray(idx)
            if idx.ndim == 1:
                return statistic(idx)
            w = _unit_weights(idx, p)
            b = w.shape[0]
            prod = w @ parts
            n = prod[:, 0]
            d_o = prod[:, 1] / n
            marg = prod[:, 2:] if dense else np.asarray(counts_t @ w.T).T
            d_e = np.array([prepared.cross_sum(marg[k], marg[k]) for k in range(b)]) / (n * (n - 1.0))
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)
            if progress is not None:
                progress(b)
            return out.reshape(idx.shape[:-1])

        return bootstrap_groups(
            p, statistic_many, confidence_level=confidence_level, n_resamples=n_resamples, method=method, rng=rng,
            vectorized=True, batch=max(1, min(int(n_resamples), 4_000_000 // max(p, 1))),
        )

    def to_frame(self) -> pd.DataFrame:
        """One-row DataFrame of the public fields."""
        return pd.DataFrame([self.to_dict()])


def _unit_weights(idx: np.ndarray, p: int) -> np.ndarray:
    """How often each of the *p* units is drawn in each resample of *idx* (..., p): one bincount, (resamples, p)."""
    flat = idx.reshape(-1, idx.shape[-1]).astype(np.int64)
    b = flat.shape[0]
    return np.bincount((flat + p * np.arange(b)[:, None]).ravel(), minlength=b * p).reshape(b, p).astype(float)


def _resample_alpha(uc: UnitCounts, values: np.ndarray, dist: Distance, idx: np.ndarray) -> float:
    """Alpha of one resample (*idx*, the drawn units) with the distance prepared from the resample's own marginals
    and every unit's disagreement recounted: the per-resample path, for distances without a batched form (and the
    reference the batched one is tested against)."""
    w = np.bincount(idx.astype(np.int64), minlength=uc.n_rows).astype(float)
    marg = uc.marginals(w)
    n = float(w @ uc.m)
    prep = dist.prepare(values, marg)
    d_o = float(w @ (unit_disagreement_sums(uc, prep) / (uc.m - 1.0))) / n
    d_e = prep.cross_sum(marg, marg) / (n * (n - 1.0))
    return 1.0 - d_o / d_e if d_e > 0 else np.nan


def alpha_from_counts(
    uc: UnitCounts,
    values: np.ndarray,
    distance: Distance,
    *,
    n_coders: int,
) -> AlphaResult:
    """Alpha from already counted data (the engine's :class:`~accord.coefficients._pairs.UnitCounts`)."""
    n = uc.n
    marg = uc.marginals()
    base: dict[str, Any] = dict(
        distance=distance.name,
        n_units=uc.n_units,
        n_pairable_units=uc.n_pairable_units,
        n_coders=n_coders,
        n_pairable=int(n),
        n_unpairable_values=uc.n_unpairable_values,
        n_distinct_values=int(np.count_nonzero(marg)),
        _counts=uc,
        _distance=distance,
        _values=values,
    )
    if uc.n_pairable_units == 0:
        raise AccordError(
            f"no pairable unit: none of the {plural(uc.n_units, 'unit')} holds two or more values, so there is "
            "nothing to compare"
        )
    prepared = distance.prepare(values, marg)
    d_o = observed_sum(uc, prepared) / n
    d_e = prepared.cross_sum(marg, marg) / (n * (n - 1.0))
    reason = None
    if d_e <= 0:
        reason = (
            "no expected disagreement: every pairable value is the same"
            if np.count_nonzero(marg) <= 1
            else "no expected disagreement: the distance is 0 between every pair of values"
        )
        warn_undefined("alpha", reason)
        value = math.nan
    else:
        value = 1.0 - d_o / d_e
    return AlphaResult(
        alpha=value,
        observed_disagreement=d_o,
        expected_disagreement=d_e,
        undefined_reason=reason,
        note=prepared.note,
        **base,
    )


def alpha(
    data: Annotations,
    *,
    distance: str | Distance | DistanceFunction = "nominal",
    weights: Any = None,
    categories: Sequence[Hashable] | None = None,
    weight_scores: str = "values",
    layout: Layout = "coders-by-units",
) -> AlphaResult:
    r"""Krippendorff's alpha for reliability data with any distance and missing values.

    Parameters
    ----------
    data : Annotations or array-like
        Reliability data; units with fewer than two values are counted and
        left out of the computation.  A numpy matrix whose values are small
        integer codes (NaN for missing) is counted straight from the matrix
        (:func:`accord.coefficients._pairs.fused_counts`), with the same result.
    distance : str, Distance or callable
        ``"nominal"`` (default), ``"ordinal"``, ``"interval"``, ``"ratio"``,
        ``"jaccard"``, ``"dice"``, ``"masi-2006"``, ``"masi-2010"``,
        ``"set-relation"``, a :class:`~accord.distances.Distance`, or a callable
        ``f(a, b) -> float``.
    weights : str or array-like, optional
        Instead of a distance, agreement weights as the kappas take them (a name of
        :func:`accord.kappa_weights`, as irrCAC defines them, or a q x q matrix over *categories*): the
        distance is delta = 1 - w, so that weighted alpha is the one irrCAC's ``krippendorff`` computes
        with the same weights.  Default: none (the distance says how values differ).
    categories : sequence, optional
        With *weights*: the categories in order (named weights over text labels need it; categories
        nobody chose change the named weights of the others).
    weight_scores : {"values", "ranks"}, keyword-only
        What named weights measure distances on.  ``"values"`` (default, irrCAC's): numeric codes by
        their values (codes 1, 2, 5: 5 is three steps from 2), since the codes are the scale the user
        chose.  ``"ranks"``: the categories one step apart, those some rating uses (or *categories*,
        in their order), R irr's ``kappa2(weight="equal" | "squared")`` convention
        (:func:`accord.kappa_weights`).
    layout : {"coders-by-units", "units-by-coders"}, keyword-only
        Orientation of *data* when it is a matrix (see :func:`accord.as_annotations`);
        ``"units-by-coders"`` is irrCAC's and R's.

    Returns
    -------
    AlphaResult
        With ``alpha`` NaN (and an :class:`~accord.AccordWarning`) when there is
        no expected disagreement.

    Notes
    -----
    With m_u the number of values in unit u (pairable when m_u >= 2), n their
    total over pairable units, n_uv the count of value v in unit u and n_v its
    total:

    .. math::

        D_o = \frac{1}{n}\sum_u \frac{1}{m_u - 1}\sum_{b, c} n_{ub} n_{uc}\,\delta(b, c),
        \qquad
        D_e = \frac{1}{n(n-1)}\sum_{b, c} n_b n_c\,\delta(b, c),
        \qquad
        \alpha = 1 - \frac{D_o}{D_e}.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.
    Passonneau, R. J. (2004). Computing Reliability for Coreference Annotation.
    LREC 2004, section 3.2.

    Examples
    --------
    Passonneau (2004), Table 2: 11 noun phrases, 3 coders, values are
    equivalence-class indices; nominal alpha is .45 (exactly 49/109).

    >>> table2 = [[1, 2, 4, 1, 2, 2, 6, 4, 6, 6, 2],
    ...           [1, 2, 5, 1, 2, 2, 7, 9, 10, 7, 2],
    ...           [1, 2, 3, 1, 2, 2, 8, 3, 3, 3, 2]]
    >>> round(alpha(Annotations.from_matrix(table2)).alpha, 6)
    0.449541
    """
    if weights is not None or categories is not None or weight_scores != "values":
        return _weighted_alpha(data, distance=distance, weights=weights, categories=categories, layout=layout,
                               weight_scores=weight_scores)
    dist = get_distance(distance)
    fused = fused_counts(data, layout=layout)  # a numeric matrix of small integer codes: counted in one pass
    if fused is not None:
        uc, values = fused
        shape = np.shape(data)
        n_coders = shape[0] if layout == "coders-by-units" else shape[1]
        return alpha_from_counts(uc, values, dist, n_coders=n_coders)
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    uc = count_values(data)
    try:
        dist.check_data(data)
        return alpha_from_counts(uc, data.values, dist, n_coders=data.n_coders)
    except AccordError as exc:
        if data.source and not str(exc).startswith(data.source):
            raise AccordError(words(f"{data.source}: ", exc)) from None
        raise


def _weighted_alpha(
    data: Any, *, distance: Any, weights: Any, categories: Sequence[Hashable] | None, layout: Layout,
    weight_scores: str = "values",
) -> AlphaResult:
    """Alpha with the distance 1 - w of agreement *weights* over *categories* (one validation step)."""
    from accord.coefficients._weights import check_weight_scores, resolve_weights

    check_weight_scores(weight_scores, weights)
    if weights is None:
        raise AccordError("alpha: categories apply with weights (the categories' order for named weights); "
                          "pass weights=..., or leave categories out")
    if not (isinstance(distance, str) and distance == "nominal"):
        raise AccordError("alpha: pass either distance or weights, not both")
    data = check_annotations(as_annotations(data, layout=layout))
    data, dist = resolve_weights(data, weights, categories, scores=weight_scores)
    return alpha_from_counts(count_values(data), data.values, dist, n_coders=data.n_coders)


def _number_words(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _alpha_words(x: float) -> str:
    return "undefined" if math.isnan(x) else f"{x:.4f}"


@dataclass(frozen=True)
class ScaleHint(Result):
    """Numbers read as nominal categories, and alpha with the ordered distances beside the nominal one.

    :func:`scale_hint` gives it; ``accord agree``, its JSON ``note`` and the report say :attr:`message`.

    Attributes
    ----------
    nominal, ordinal, interval : float
        Alpha with each distance (NaN where undefined).
    n_numbers : int
        The distinct numbers among the values.
    low, high : float
        The smallest and largest of them.
    as_text : bool
        Whether the numbers are written as text (``"4"``), as tools' exports often hold ratings.
    """

    nominal: float
    ordinal: float
    interval: float
    n_numbers: int
    low: float
    high: float
    as_text: bool = False

    def _said(self, flag: str) -> str:
        what = (f"{self.n_numbers} numbers from {_number_words(self.low)} to {_number_words(self.high)}"
                + (", written as text" if self.as_text else ""))
        ordinal, interval = flag.format("ordinal"), flag.format("interval")
        return (f"the values look like a scale ({what}) and were read as unordered categories (the nominal "
                f"distance, the default): alpha is {_alpha_words(self.nominal)} nominal, "
                f"{_alpha_words(self.ordinal)} ordinal, {_alpha_words(self.interval)} interval; for ordered "
                f"ratings pass {ordinal} (or {interval} for equally spaced ones)")

    @property
    def message(self) -> Message:
        """What to say, in the Python API's words (``distance="ordinal"``) and the command line's
        (``--distance ordinal``, :attr:`Message.cli <accord._shared.errors.Message>`)."""
        return Message(self._said('distance="{}"'), cli=self._said("--distance {}"))


def scale_hint(data: Any, *, distance: str | Distance | DistanceFunction = "nominal") -> ScaleHint | None:
    """Whether values read under the nominal distance look like a scale, with alpha under the ordered ones.

    The distance is the user's decision (Krippendorff 2011: the metric follows the level of measurement), so
    accord keeps the nominal default; but ratings 1 to 5 read as nominal categories give a much lower alpha
    than the ordinal or interval distance, and nothing else would say so.  The hint applies when *distance* is
    nominal and the values are numbers (text that spells a number, ``"4"``, counts) with three or more distinct
    ones; two values (0/1, yes/no codes) are categories under any distance.

    Parameters
    ----------
    data : Annotations, array-like, AlphaResult or lazy reductions
        The annotations (as :func:`alpha` takes them), the result of :func:`alpha` on them (its counts are
        used again), or the reductions of a lazy engine (:mod:`accord.engines`).
    distance : str, Distance or callable, keyword-only
        The distance the coefficients were computed with; any but nominal gives None.

    Returns
    -------
    ScaleHint or None
        Alpha nominal, ordinal and interval, and :attr:`ScaleHint.message`; None when the hint does not apply
        (or when alpha is undefined under both ordered distances).

    Examples
    --------
    >>> hint = scale_hint([[1, 2, 3, 4, 5, 2], [1, 3, 3, 5, 4, 2]])
    >>> round(hint.nominal, 4), round(hint.ordinal, 4), round(hint.interval, 4)
    (0.4211, 0.8867, 0.8685)
    >>> print(hint.message.cli)  # doctest: +NORMALIZE_WHITESPACE
    the values look like a scale (5 numbers from 1 to 5) and were read as unordered categories (the nominal
    distance, the default): alpha is 0.4211 nominal, 0.8867 ordinal, 0.8685 interval; for ordered ratings
    pass --distance ordinal (or --distance interval for equally spaced ones)
    >>> scale_hint([[0, 1, 1], [0, 1, 0]]) is None  # two values: categories
    True
    """
    from accord.distances._scalar import number_labels

    if get_distance(distance).name != "nominal":
        return None
    def numbers_of(values: np.ndarray) -> np.ndarray | None:
        numbers = None if values.dtype.kind == "b" else number_labels(values)
        return numbers if numbers is not None and len(np.unique(numbers)) >= 3 else None

    if isinstance(data, AlphaResult) and data._counts is not None and data._values is not None:
        uc, values, n_coders = data._counts, data._values, data.n_coders  # the counts alpha was computed from
        numbers = numbers_of(values)
    elif hasattr(data, "signatures"):  # a lazy engine's reductions: the same counts
        uc, values, n_coders = data.signatures, np.asarray(data.values), int(data.n_coders)
        numbers = numbers_of(values)
    else:
        fused = fused_counts(data)
        if fused is not None:
            uc, values = fused
            n_coders = int(np.shape(data)[0])
            numbers = numbers_of(values)
        else:
            ann = check_annotations(data)
            numbers = None if ann.is_set_valued else numbers_of(ann.values)
            if numbers is None:  # decided on the distinct values, before any counting
                return None
            uc, values, n_coders = count_values(ann), ann.values, ann.n_coders
    if numbers is None or uc.n_pairable_units == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        found = {name: alpha_from_counts(uc, values, get_distance(name), n_coders=n_coders).alpha
                 for name in ("nominal", "ordinal", "interval")}
    if math.isnan(found["ordinal"]) and math.isnan(found["interval"]):
        return None
    return ScaleHint(nominal=found["nominal"], ordinal=found["ordinal"], interval=found["interval"],
                     n_numbers=len(np.unique(numbers)), low=float(numbers.min()), high=float(numbers.max()),
                     as_text=values.dtype.kind in "US" or (values.dtype == object and any(
                         isinstance(v, str) for v in values.tolist())))
