"""The augmented kappa ``K'`` for one ``p`` and its bootstrap confidence interval.

:func:`augmented_kappa` computes observed and expected agreement of Cohen's
kappa from the weighted annotation matrices (the paper's section 5) for every
pair of annotators and averages ``K'`` over the pairs;
:func:`bootstrap_augmented_kappa` resamples items for a confidence interval.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Coefficient, Result
from accord.multilabel._model import MultiLabelData
from accord.multilabel._weights import WeightRule, _check_p, _check_rule, _matrices, _rule_name

__all__ = [
    "AugmentedKappaInterval",
    "AugmentedKappaResult",
    "PairAugmentedKappa",
    "augmented_kappa",
    "bootstrap_augmented_kappa",
]


# ================================================================ the kappa
@dataclass(frozen=True)
class PairAugmentedKappa(Result):
    """``K'`` of one pair of annotators on the items both labelled.

    Attributes
    ----------
    annotator_a, annotator_b : hashable
    kappa : float
        ``K' = (p(A) - p(E)) / (1 - p(E))``; NaN when undefined.
    observed_agreement : float
        ``p(A)``.
    expected_agreement : float
        ``p(E)``.
    n_items : int
        Items labelled by both.
    reason : str or None
        Why ``kappa`` is undefined.
    """

    annotator_a: Hashable
    annotator_b: Hashable
    kappa: float
    observed_agreement: float
    expected_agreement: float
    n_items: int
    reason: str | None = None


@dataclass(frozen=True)
class AugmentedKappaResult(Coefficient):
    """Augmented kappa ``K'`` at one primary weight ``p`` (Rosenberg & Binkowski 2004).

    Attributes
    ----------
    kappa : float
        ``K'`` for two annotators; with more, the mean of the pairwise ``K'``
        over the pairs where it is defined (the paper's "average kappa across
        the three annotators").
    p : float
    rule : str
    observed_agreement, expected_agreement : float
        ``p(A)`` and ``p(E)`` (means over pairs with more than two annotators;
        ``kappa`` is the mean of the pairwise kappas, not computed from these).
    pairs : tuple of PairAugmentedKappa
        The pairwise table (see :meth:`to_frame`).
    n_items : int
        Items labelled by at least two annotators.
    n_annotators, n_categories : int
    n_items_unpaired : int
        Items labelled by fewer than two annotators: they enter no pair.
    unpaired_items : tuple
    n_pairs_undefined : int
        Pairs whose ``K'`` is undefined and left out of the mean.
    reason : str or None
        Why ``kappa`` is NaN, or which pairs were left out.
    """

    _value_field: ClassVar[str] = "kappa"
    _coefficient_id: ClassVar[str] = "augmented_kappa"

    kappa: float
    p: float
    rule: str
    observed_agreement: float
    expected_agreement: float
    pairs: tuple[PairAugmentedKappa, ...]
    n_items: int
    n_annotators: int
    n_categories: int
    n_items_unpaired: int
    unpaired_items: tuple[Hashable, ...]
    n_pairs_undefined: int
    reason: str | None = None
    _data: MultiLabelData | None = field(default=None, repr=False, compare=False)
    _rule: Any = field(default="pair", repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """The pairwise table: one row per pair of annotators."""
        return pd.DataFrame([pair.to_dict() for pair in self.pairs])

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 2000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap interval for ``kappa``, resampling items (see :func:`bootstrap_augmented_kappa`)."""
        if self._data is None:  # pragma: no cover - results are built by augmented_kappa
            raise AccordError("this result does not carry its data; call bootstrap_augmented_kappa")
        ci = bootstrap_augmented_kappa(
            self._data, p=self.p, rule=self._rule, confidence_level=confidence_level,
            n_resamples=n_resamples, method=method, rng=rng,
        )
        return ci.low, ci.high


def _pairs(n: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(n), 2))


def _pair_core(
    m: np.ndarray, lab: np.ndarray, pairs: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per pair: n, p(A), p(E); per pair and item: agreement sum_y M_a M_b (NaN where not shared).

    Returns n (P,), pa (P,), pe (P,), agree (P, N), shared (P, N).
    """
    n_pairs, n_items = len(pairs), m.shape[1]
    n = np.zeros(n_pairs)
    pa = np.full(n_pairs, np.nan)
    pe = np.full(n_pairs, np.nan)
    agree = np.full((n_pairs, n_items), np.nan)
    shared = np.zeros((n_pairs, n_items), dtype=bool)
    for k, (a, b) in enumerate(pairs):  # loop over annotator pairs, vectorised over items
        mask = lab[a] & lab[b]
        shared[k] = mask
        cnt = int(mask.sum())
        n[k] = cnt
        if cnt == 0:
            continue
        ag = np.einsum("ic,ic->i", m[a], m[b])
        agree[k, mask] = ag[mask]
        pa[k] = ag[mask].sum() / cnt
        fa = m[a][mask].sum(axis=0) / cnt
        fb = m[b][mask].sum(axis=0) / cnt
        pe[k] = float(fa @ fb)
    return n, pa, pe, agree, shared


def _kappa_from(pa: np.ndarray, pe: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (pa - pe) / (1 - pe)
    return np.where(np.isclose(pe, 1.0, rtol=0, atol=1e-12), np.nan, k)


def _pair_reason(n: float, pe: float) -> str | None:
    if n == 0:
        return "no items labelled by both annotators"
    if np.isclose(pe, 1.0, rtol=0, atol=1e-12):
        return "expected agreement p(E) = 1: both annotators gave every item the same single label"
    return None


def _validate(data: Any, rule: Any) -> None:
    if not isinstance(data, MultiLabelData):
        raise AccordError(
            f"data must be MultiLabelData (see MultiLabelData.from_records / read_multilabel); "
            f"got {type(data).__name__}"
        )
    if data.n_annotators < 2:
        raise AccordError(
            f"data must have at least two annotators for agreement; got {data.n_annotators} "
            f"({list(data.annotators)!r})"
        )
    _check_rule(rule, data)


def augmented_kappa(data: MultiLabelData, *, p: float, rule: WeightRule = "pair") -> AugmentedKappaResult:
    """Augmented kappa ``K'`` for items with primary and secondary labels.

    Parameters
    ----------
    data : MultiLabelData
        Two or more annotators.
    p : float
        Weight of the primary label, ``0.5 <= p <= 1`` (the paper's p; a
        secondary weighs ``1 - p``, a single label 1).  ``p = 1`` ignores
        secondary labels: ``K'`` is then Cohen's kappa on the primaries.
    rule : {"pair", "geometric", "primary-rest"} or callable
        Weighting rule for lists of labels (see the module docstring); the
        default is the paper's and rejects three or more labels.

    Returns
    -------
    AugmentedKappaResult
        ``kappa`` (the mean over annotator pairs with more than two
        annotators), ``p(A)``, ``p(E)`` and the pairwise table.

    Notes
    -----
    For annotators A and B and the N items both labelled, with annotation
    matrices ``M_A``, ``M_B`` (N x M):

    .. math::

        p(A) = \\frac{1}{N} \\sum_{x, y} M_A[x, y] M_B[x, y], \\qquad
        p(E) = \\sum_y Freq_A[y] Freq_B[y], \\qquad
        Freq_A[y] = \\frac{1}{N} \\sum_x M_A[x, y],

        K' = \\frac{p(A) - p(E)}{1 - p(E)}.

    Items labelled by one annotator only enter no pair; they are counted in
    ``n_items_unpaired``.  ``K'`` is undefined (NaN, with a warning and a
    ``reason``) when ``p(E) = 1`` or the pair shares no item.

    References
    ----------
    Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
    determine interannotator reliability for multiply labeled data points.
    HLT-NAACL 2004, section 5.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> round(augmented_kappa(data, p=1.0).kappa, 4)
    0.5556
    >>> round(augmented_kappa(data, p=0.5).kappa, 4)
    0.4
    """
    pf = _check_p(p)
    _validate(data, rule)
    m = _matrices(data, pf, rule)
    pairs = _pairs(data.n_annotators)
    n, pa, pe, _, _ = _pair_core(m, data.labelled, pairs)
    kap = _kappa_from(pa, pe)
    table = tuple(
        PairAugmentedKappa(
            annotator_a=data.annotators[a],
            annotator_b=data.annotators[b],
            kappa=float(kap[k]),
            observed_agreement=float(pa[k]),
            expected_agreement=float(pe[k]),
            n_items=int(n[k]),
            reason=_pair_reason(n[k], pe[k]),
        )
        for k, (a, b) in enumerate(pairs)
    )
    undefined = [t for t in table if t.reason is not None]
    defined = np.isfinite(kap)
    reason = None
    if not defined.any():
        reason = "; ".join(sorted({t.reason for t in undefined if t.reason})) or "no pair is defined"
        warn_undefined("K'", reason)
        value = math.nan
    else:
        value = float(kap[defined].mean())
        if undefined:
            reason = "left out of the mean: " + "; ".join(
                f"{t.annotator_a!r}-{t.annotator_b!r} ({t.reason})" for t in undefined
            )
            warnings.warn(f"K' averages {int(defined.sum())} of {plural(len(table), 'pair')}; {reason}",
                          AccordWarning, stacklevel=2)
    unpaired = data.unpaired_items
    return AugmentedKappaResult(
        kappa=value,
        p=pf,
        rule=_rule_name(rule),
        observed_agreement=float(np.nanmean(pa)) if np.isfinite(pa).any() else math.nan,
        expected_agreement=float(np.nanmean(pe)) if np.isfinite(pe).any() else math.nan,
        pairs=table,
        n_items=data.n_items - len(unpaired),
        n_annotators=data.n_annotators,
        n_categories=data.n_categories,
        n_items_unpaired=len(unpaired),
        unpaired_items=unpaired,
        n_pairs_undefined=len(undefined),
        reason=reason,
        _data=data,
        _rule=rule,
    )


# ================================================================ bootstrap
@dataclass(frozen=True)
class AugmentedKappaInterval(Result):
    """Bootstrap confidence interval for ``K'`` (items resampled with replacement).

    Attributes
    ----------
    kappa : float
        The estimate on the full data.
    low, high : float
        Interval bounds.
    confidence_level : float
    method : str
        ``scipy.stats.bootstrap`` method.
    n_resamples : int
    standard_error : float
        Standard deviation of the bootstrap distribution.
    p : float
    rule : str
    n_items : int
        Items resampled (those labelled by at least two annotators).
    reason : str or None
    bootstrap_distribution : ndarray
        The ``n_resamples`` replicates of ``K'`` (NaN where a replicate is undefined; empty when no
        bootstrap ran); not in :meth:`to_dict`.
    """

    kappa: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    standard_error: float
    p: float
    rule: str
    n_items: int
    reason: str | None = None
    _distribution: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False, compare=False)

    @property
    def bootstrap_distribution(self) -> np.ndarray:
        """The bootstrap replicates of ``K'``."""
        return self._distribution

    def confidence_interval(self) -> tuple[float, float]:
        """``(low, high)``."""
        return self.low, self.high


def _resampled_kappa(
    m: np.ndarray, lab: np.ndarray, pairs: list[tuple[int, int]]
) -> Callable[..., np.ndarray]:
    """A vectorised statistic for scipy.stats.bootstrap: K' (mean over pairs) of resampled item indices."""
    n_items = m.shape[1]
    per_pair = []
    for a, b in pairs:
        mask = (lab[a] & lab[b]).astype(float)
        ag = np.einsum("ic,ic->i", m[a], m[b]) * mask
        per_pair.append((mask, ag, m[a] * mask[:, None], m[b] * mask[:, None]))

    def statistic(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        idx = np.moveaxis(np.asarray(idx), axis, -1)
        lead = idx.shape[:-1]
        flat = idx.reshape(-1, idx.shape[-1]).astype(np.int64)
        b = flat.shape[0]
        offsets = (np.arange(b) * n_items)[:, None]
        counts = np.bincount((flat + offsets).ravel(), minlength=b * n_items)
        counts = counts.reshape(b, n_items).astype(float)
        kappas = np.empty((len(per_pair), b))
        for k, (mask, ag, ma, mb) in enumerate(per_pair):
            nk = counts @ mask
            with np.errstate(divide="ignore", invalid="ignore"):
                pa = (counts @ ag) / nk
                pe = np.einsum("bc,bc->b", counts @ ma, counts @ mb) / nk**2
            kappas[k] = _kappa_from(pa, pe)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = np.nanmean(kappas, axis=0)
        return out.reshape(lead)

    return statistic


def bootstrap_augmented_kappa(
    data: MultiLabelData,
    *,
    p: float,
    rule: WeightRule = "pair",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
    rng: np.random.Generator | int | None = None,
) -> AugmentedKappaInterval:
    """Bootstrap confidence interval for ``K'``, resampling items.

    Items labelled by at least two annotators are drawn with replacement; each
    replicate recomputes ``p(A)``, ``p(E)`` and ``K'`` of every pair on the
    drawn items (an item drawn twice counts twice) and averages over pairs as
    :func:`augmented_kappa` does.  The interval is computed by
    :func:`scipy.stats.bootstrap`.

    Parameters
    ----------
    data : MultiLabelData
    p : float
        Weight of the primary label in [0.5, 1].
    rule : str or callable
        Weighting rule.
    confidence_level : float
        In (0, 1).
    n_resamples : int
        Number of bootstrap replicates (at least 2).
    method : {"percentile", "basic", "BCa"}
        Interval method of :func:`scipy.stats.bootstrap`.
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    AugmentedKappaInterval

    Examples
    --------
    >>> data = MultiLabelData.from_dict(
    ...     {"A": ["q,a", "q", "s", "a,q"] * 5, "B": ["q", "q,a", "s", "q,a"] * 5})
    >>> ci = bootstrap_augmented_kappa(data, p=0.6, n_resamples=200, rng=1)
    >>> bool(ci.low <= ci.kappa <= ci.high)
    True
    """
    pf = _check_p(p)
    _validate(data, rule)
    if not (isinstance(confidence_level, float | int) and 0 < confidence_level < 1):
        raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if not isinstance(n_resamples, int | np.integer) or n_resamples < 2:
        raise AccordError(f"n_resamples must be an integer >= 2; got {n_resamples!r}")
    if method not in ("percentile", "basic", "BCa"):
        raise AccordError(f"method must be 'percentile', 'basic' or 'BCa'; got {method!r}")
    gen = np.random.default_rng(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        point = augmented_kappa(data, p=pf, rule=rule)
    keep = data.annotators_per_item >= 2
    n_items = int(keep.sum())
    common = dict(
        kappa=point.kappa, confidence_level=float(confidence_level), method=method,
        n_resamples=int(n_resamples), p=pf, rule=_rule_name(rule), n_items=n_items,
    )
    if not np.isfinite(point.kappa) or n_items < 2:
        reason = point.reason if not np.isfinite(point.kappa) else "fewer than two items to resample"
        warn_undefined("the bootstrap interval of K'", reason)
        return AugmentedKappaInterval(low=math.nan, high=math.nan, standard_error=math.nan, reason=reason,
                                      **common)
    m = _matrices(data, pf, rule)[:, keep]
    lab = data.labelled[:, keep]
    statistic = _resampled_kappa(m, lab, _pairs(data.n_annotators))
    batch = max(1, int(4_000_000 // max(n_items, 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.bootstrap(
            (np.arange(n_items),), statistic, vectorized=True, n_resamples=int(n_resamples),
            confidence_level=float(confidence_level), method=method, rng=gen, batch=batch,
        )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    reason = None
    if not (np.isfinite(low) and np.isfinite(high)):
        reason = "some bootstrap replicates have undefined K' (p(E) = 1 on the drawn items)"
        warn_undefined("the bootstrap interval of K'", reason)
    return AugmentedKappaInterval(
        low=low, high=high, standard_error=float(res.standard_error), reason=reason, **common,
        _distribution=np.asarray(res.bootstrap_distribution, dtype=float),
    )
