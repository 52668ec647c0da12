"""Siegel & Castellan's K (equation 2 of the paper) and the noise level it implies (section 3.3).

:func:`siegel_castellan_k` computes K from an items x categories count table,
:func:`expected_k` the K the noise model expects for ``d`` disagreements, and
:func:`k_noise_estimate` the share of hard items a K implies.

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.results import Result
from accord.noise._model import (
    _check_int,
)

__all__ = [
    "KNoiseEstimate",
    "SiegelCastellanK",
    "expected_k",
    "k_noise_estimate",
    "siegel_castellan_k",
]


# ----------------------------------------------------------------------------- K (equation 2)


@dataclass(frozen=True)
class SiegelCastellanK(Result):
    """Siegel & Castellan's K (equation 2 of the paper; Fleiss' kappa).

    Attributes
    ----------
    kappa : float
        ``(P_A - P_E) / (1 - P_E)``; NaN when ``P_E = 1``.
    observed_agreement : float
        ``P_A``.
    expected_agreement : float
        ``P_E``.
    n_items, n_annotators, n_categories : int
    reason : str or None
    """

    kappa: float
    observed_agreement: float
    expected_agreement: float
    n_items: int
    n_annotators: int
    n_categories: int
    reason: str | None = None


def _k_from_parts(pa: float, pe: float, n: int, k: int, m: int) -> SiegelCastellanK:
    if pe >= 1.0:
        reason = "all annotations fall in one category, so the expected agreement P_E is 1"
        warn_undefined("K", reason, stacklevel=4)
        return SiegelCastellanK(math.nan, pa, pe, n, k, m, reason)
    return SiegelCastellanK((pa - pe) / (1.0 - pe), pa, pe, n, k, m, None)


def siegel_castellan_k(counts: np.ndarray) -> SiegelCastellanK:
    """Siegel & Castellan's K from an items x categories count matrix (equation 2).

    Parameters
    ----------
    counts : array of shape (n, m)
        ``counts[i, j]`` is the number of annotators who put item i in category j
        (``a_ij``); every row sums to the same number k >= 2 of annotators.

    Returns
    -------
    SiegelCastellanK

    Notes
    -----
    Equation 2 of Beigman Klebanov & Beigman (2009)::

        P_E = sum_j p_j^2,  p_j = sum_i a_ij / (n k)
        P_A = (1/n) sum_i P_A_i,  P_A_i = sum_j C(a_ij, 2) / C(k, 2)
        K = (P_A - P_E) / (1 - P_E)

    This is Fleiss' (1971) kappa.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 3.3, equation 2; Siegel & Castellan (1988).

    Examples
    --------
    >>> round(siegel_castellan_k([[2, 0], [0, 2], [1, 1], [2, 0]]).kappa, 4)
    0.4667
    """
    a = np.asarray(counts)
    if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 1:
        raise AccordError(f"counts must be an (items, categories) matrix, got shape {a.shape}")
    if not np.issubdtype(a.dtype, np.integer):
        if not np.all(np.isfinite(a)) or np.any(a != np.round(a)):
            raise AccordError("counts must be non-negative integers")
        a = a.astype(np.int64)
    if np.any(a < 0):
        raise AccordError("counts must be non-negative integers")
    rows = a.sum(axis=1)
    k = int(rows[0])
    if np.any(rows != k):
        bad = int(np.flatnonzero(rows != k)[0])
        raise AccordError(
            f"every item needs the same number of annotators: item 0 has {k}, item {bad} has {int(rows[bad])}"
        )
    if k < 2:
        raise AccordError(f"K needs at least two annotators per item, got {k}")
    n, m = a.shape
    # the pair engine: observed agreement from pairs within items, chance from the pooled distribution
    from accord.coefficients._pairs import UnitCounts, unit_disagreement_sums
    from accord.distances import Nominal

    uc = UnitCounts.from_table(a)
    pj = uc.marginals() / uc.n
    prepared = Nominal().prepare(np.arange(m), uc.marginals())
    pa = 1.0 - float(unit_disagreement_sums(uc, prepared) @ (1.0 / (uc.m - 1.0))) / uc.n
    pe = 1.0 - prepared.cross_sum(pj, pj)
    return _k_from_parts(pa, pe, n, k, m)


def expected_k(n: int, d: int, *, k: int, category_probs: np.ndarray | None = None) -> SiegelCastellanK:
    """The K (equation 2) the model expects when ``d`` of ``n`` items are disagreed.

    Parameters
    ----------
    n, d : int
        Items and disagreed items.
    k : int
        Number of annotators.
    category_probs : array of m probabilities, optional
        The category distribution, the same on easy and hard items and for every
        annotator (the assumptions of section 3.3); uniform over two categories by default.

    Returns
    -------
    SiegelCastellanK
        With the expected ``P_A`` and ``P_E``.

    Notes
    -----
    With ``q = sum_j q_j^2`` (two annotators agree by chance) and ``s = sum_j q_j^k`` (all
    agree by chance), a disagreed hard item has expected pairwise agreement
    ``(q - s) / (1 - s)``, so ``P_A = (n - d + d (q - s) / (1 - s)) / n`` and ``P_E = q``.
    For five annotators and two equiprobable categories the disagreements split 3-2 twice
    as often as 4-1 (footnote 6), the paper's "most likely" mix.

    References
    ----------
    Beigman Klebanov & Beigman (2009), sections 3.2 and 3.3.

    Examples
    --------
    >>> round(expected_k(1000, 340, k=5).kappa, 3)
    0.637
    """
    n = _check_int("n", n, low=1)
    d = _check_int("d", d, high=n)
    k = _check_int("k", k, low=2)
    q_arr = np.asarray([0.5, 0.5] if category_probs is None else category_probs, dtype=float)
    if q_arr.ndim != 1 or q_arr.size < 2 or np.any(q_arr < 0) or not np.isclose(q_arr.sum(), 1.0):
        raise AccordError("category_probs must be a vector of at least two probabilities summing to 1")
    q = float(np.sum(q_arr**2))
    s = float(np.sum(q_arr**k))
    disagreed_pa = (q - s) / (1.0 - s) if s < 1.0 else 0.0
    pa = (n - d + d * disagreed_pa) / n
    return _k_from_parts(pa, q, n, k, q_arr.size)


@dataclass(frozen=True)
class KNoiseEstimate(Result):
    """Point estimate of the noise of the agreed items implied by K (section 3.3).

    Attributes
    ----------
    kappa : float
    n : int
    n_agreed : int
    easy : float
        ``kappa * n``, the estimated number of easy items.
    noise : float
        ``(n_agreed - easy) / n_agreed``; negative when K implies more easy items than
        agreed ones (the model then contradicts the data; the value is reported as is).
    """

    kappa: float
    n: int
    n_agreed: int
    easy: float
    noise: float


def k_noise_estimate(kappa: float, n: int, n_agreed: int) -> KNoiseEstimate:
    """The noise of the agreed items implied by reading K as the proportion of easy items.

    Notes
    -----
    Under the model K estimates ``e / (e + h)``; easy items are a subset of the agreed
    ones, so ``noise = (n_agreed - K n) / n_agreed``.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 3.3.

    Examples
    --------
    >>> round(k_noise_estimate(0.8, 1000, 900).noise, 3)
    0.111
    """
    if isinstance(kappa, bool) or not isinstance(kappa, numbers.Real) or not math.isfinite(kappa):
        raise AccordError(f"kappa must be a finite number, got {kappa!r}")
    n = _check_int("n", n, low=1)
    n_agreed = _check_int("n_agreed", n_agreed, low=1, high=n)
    easy = float(kappa) * n
    return KNoiseEstimate(float(kappa), n, n_agreed, easy, (n_agreed - easy) / n_agreed)
