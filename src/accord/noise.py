"""From annotator agreement to a noise model (Beigman Klebanov & Beigman 2009).

The model: every item is *easy* or *hard*.  All annotators agree on an easy item;
on a hard item each annotator independently flips a (possibly biased) coin, so a
hard item is agreed by chance with probability ``p``.  The ``d`` disagreed items
are therefore all hard, and some of the agreed items are hard too.  Given ``d``
disagreements among ``n`` items, equation 1 of the paper is the posterior tail
``P(X > t | A_d)`` of the number ``X`` of hard items; ``t_0`` is the smallest
``t`` with ``P(X > t | A_d) < 1 - confidence`` and ``gamma = (t_0 - d) / (n - d)``
bounds the share of hard (coin-flip) items among the agreed ones, the noise
level of a gold standard made of the agreed items.

This module holds the model itself: the bound (:func:`noise_bound`), its tail
(:func:`hard_items_tail`), its inverse (:func:`max_disagreements`), the chance
difference between two algorithms on a noisy gold standard
(:func:`chance_difference`), the Siegel & Castellan K of equation 2
(:func:`siegel_castellan_k`, :func:`expected_k`) with the noise it implies
(:func:`k_noise_estimate`), the effect of adding an annotator
(:func:`add_annotators`), and a vectorised simulator of the generative model
(:func:`simulate_annotations`, :func:`bound_coverage`).  Building a gold
standard from real annotations lives in :mod:`accord.gold`.

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from scipy.special import gammaln, logsumexp

from accord._lazy import stats
from accord.errors import AccordError, warn_undefined
from accord.results import Result

__all__ = [
    "AnnotatorProjection",
    "BoundCoverage",
    "ChanceDifference",
    "DisagreementTolerance",
    "KNoiseEstimate",
    "NoiseBound",
    "SiegelCastellanK",
    "SimulatedAnnotations",
    "add_annotators",
    "bound_coverage",
    "chance_difference",
    "expected_k",
    "hard_agreement_probability",
    "hard_items_tail",
    "k_noise_estimate",
    "max_disagreements",
    "noise_bound",
    "siegel_castellan_k",
    "simulate_annotations",
    "uniform_hard_agreement",
]

# Below this posterior mass inside [d, n] of the untruncated negative binomial, the
# closed form loses relative precision; the explicit log-space sum is used instead.
_TRUNCATION_FLOOR = 1e-3


# ----------------------------------------------------------------------------- validation


def _check_int(name: str, value: object, *, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise AccordError(f"{name} must be an integer, got {value!r}")
    v = int(value)
    if v < low or (high is not None and v > high):
        upper = "" if high is None else f" and at most {high}"
        raise AccordError(f"{name} must be at least {low}{upper}, got {v}")
    return v


def _check_open_unit(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise AccordError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
    v = float(value)
    if not (0.0 < v < 1.0):
        raise AccordError(f"{name} must be strictly between 0 and 1, got {v!r}")
    return v


def _check_prior(prior: object, n: int) -> np.ndarray | None:
    """Validate a prior over the number of hard items 0..n; return its log or None (uniform)."""
    if prior is None:
        return None
    arr = np.asarray(prior, dtype=float)
    if arr.ndim != 1 or arr.shape[0] != n + 1:
        raise AccordError(
            f"prior must be a 1-d vector of n + 1 = {n + 1} weights (for 0..n hard items), "
            f"got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or not arr.sum() > 0:
        raise AccordError("prior must hold finite non-negative weights with a positive sum")
    with np.errstate(divide="ignore"):
        return np.log(arr)


# ----------------------------------------------------------------------------- equation 1


def _explicit_log_tail(n: int, d: int, p: float, log_prior: np.ndarray | None) -> np.ndarray:
    """log P(X > t | A_d) for t = d..n by the explicit sums of equation 1, in log space."""
    i = np.arange(d, n + 1, dtype=np.float64)
    lw = gammaln(i + 1.0) - gammaln(d + 1.0) - gammaln(i - d + 1.0) + (i - d) * math.log(p)
    if log_prior is not None:
        lw = lw + log_prior[d:]
    rev = np.logaddexp.accumulate(lw[::-1])[::-1]  # log sum_{i >= t} w_i
    log_z = rev[0]
    if not np.isfinite(log_z):
        raise AccordError(f"prior gives probability 0 to every number of hard items >= d = {d}")
    out = np.empty_like(rev)
    out[:-1] = rev[1:] - log_z
    out[-1] = -np.inf
    return out


def _closed_form_ok(n: np.ndarray, d: np.ndarray, p: np.ndarray) -> np.ndarray:
    return stats.nbinom.cdf(n - d, d + 1, 1.0 - p) >= _TRUNCATION_FLOOR


def _t0_many(n: int, d: np.ndarray, p: np.ndarray | float, confidence: float) -> np.ndarray:
    """t_0 for the uniform prior, vectorised over d (and p).

    Under the uniform prior the posterior of ``X - d`` given ``A_d`` is the negative
    binomial NB(d + 1, 1 - p) truncated to 0..n - d, so t_0 - d is the smallest j with
    F(j) > confidence * F(n - d).
    """
    d = np.asarray(d, dtype=np.int64)
    p = np.broadcast_to(np.asarray(p, dtype=float), d.shape)
    t0 = np.empty(d.shape, dtype=np.int64)
    full = d >= n
    t0[full] = n
    rest = ~full
    if not rest.any():
        return t0
    dr, pr = d[rest], p[rest]
    top = n - dr
    r, q_nb = dr + 1, 1.0 - pr
    f_top = stats.nbinom.cdf(top, r, q_nb)
    ok = f_top >= _TRUNCATION_FLOOR
    q = confidence * f_top
    j = np.where(ok, stats.nbinom.ppf(q, r, q_nb), 0.0)
    j = np.where(np.isfinite(j), j, top).astype(np.int64)
    # Enforce the strict inequality of the definition exactly (ppf gives F(j) >= q).
    j = np.where(ok & (stats.nbinom.cdf(j, r, q_nb) <= q), j + 1, j)
    j = np.minimum(j, top)
    out = dr + j
    for idx in np.flatnonzero(~ok):  # heavily truncated posteriors: explicit sums
        lt = _explicit_log_tail(n, int(dr[idx]), float(pr[idx]), None)
        out[idx] = int(dr[idx]) + int(np.argmax(lt < math.log1p(-confidence)))
    t0[rest] = out
    return t0


def _t0(n: int, d: int, p: float, confidence: float, log_prior: np.ndarray | None) -> int:
    if log_prior is None:
        return int(_t0_many(n, np.array([d]), p, confidence)[0])
    lt = _explicit_log_tail(n, d, p, log_prior)
    return d + int(np.argmax(lt < math.log1p(-confidence)))


def _nb_logsf(j: np.ndarray, r: int, q_nb: float) -> np.ndarray:
    """log P(J > j) for J ~ NB(r, q_nb), precise on both sides of the median."""
    cdf = stats.nbinom.cdf(j, r, q_nb)
    with np.errstate(divide="ignore"):
        return np.where(cdf < 0.5, np.log1p(-cdf), np.log(stats.nbinom.sf(j, r, q_nb)))


def _log_tail(n: int, d: int, p: float, t: np.ndarray, log_prior: np.ndarray | None) -> np.ndarray:
    t = np.asarray(t, dtype=np.int64)
    out = np.where(t < d, 0.0, -np.inf)
    inside = (t >= d) & (t < n)
    if not inside.any():
        return out
    if log_prior is None and _closed_form_ok(np.array(n), np.array(d), np.array(p)):
        r, q_nb = d + 1, 1.0 - p
        j = t[inside] - d
        log_s_top = _nb_logsf(np.array([n - d]), r, q_nb)[0]
        log_s_j = _nb_logsf(j, r, q_nb)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_num = log_s_j + np.log1p(-np.exp(log_s_top - log_s_j))
        # Beyond double range (sf < 1e-308) sum the mass function directly, in log space; far in
        # the upper tail successive terms shrink geometrically, so 100,000 terms are plenty.
        for idx in np.flatnonzero(~np.isfinite(log_num)):
            terms = np.arange(j[idx] + 1, min(j[idx] + 100_000, n - d) + 1)
            log_num[idx] = logsumexp(stats.nbinom.logpmf(terms, r, q_nb)) if terms.size else -np.inf
        out[inside] = log_num - np.log1p(-math.exp(log_s_top))
    else:
        lt = _explicit_log_tail(n, d, p, log_prior)
        out[inside] = lt[t[inside] - d]
    return out


def hard_items_tail(
    n: int, d: int, p: float, t: int | np.ndarray, *, prior: np.ndarray | None = None, log: bool = False
) -> np.ndarray:
    """Posterior probability of more than ``t`` hard items given ``d`` disagreements (equation 1).

    Parameters
    ----------
    n : int
        Number of items.
    d : int
        Number of disagreed items, ``0 <= d <= n``.
    p : float
        Probability that the annotators agree on a hard item, in (0, 1).
    t : int or array of int
        Thresholds; any integers (values below ``d`` give 1, values ``>= n`` give 0).
    prior : array of n + 1 weights, optional
        Prior over the number of hard items 0..n; uniform when omitted (footnote 5).
    log : bool
        Return the natural log of the probability.

    Returns
    -------
    numpy.ndarray
        ``P(X > t | A_d)`` for every ``t``.

    Notes
    -----
    Equation 1 of Beigman Klebanov & Beigman (2009)::

        P(X > t | A_d) = sum_{i=t+1}^{n} C(i, d) p^(i-d) P(B_i) / sum_{i=d}^{n} C(i, d) p^(i-d) P(B_i)

    Under the uniform prior the weights ``C(i, d) p^(i-d)`` are, up to a constant, the
    negative binomial NB(d + 1, 1 - p) mass at ``i - d``, so the posterior of ``X - d``
    is that distribution truncated at ``n - d`` and the tail is computed in closed form
    with :data:`scipy.stats.nbinom` (constant time for any ``n``).  A custom prior uses
    the explicit sums with ``gammaln`` and ``logaddexp`` (linear time, no overflow).

    References
    ----------
    Beigman Klebanov & Beigman (2009), From annotator agreement to noise models,
    Computational Linguistics 35(4), section 2, equation 1.

    Examples
    --------
    >>> float(hard_items_tail(1000, 100, 0.5, 225)[0]) < 0.05 < float(hard_items_tail(1000, 100, 0.5, 224)[0])
    True
    """
    n = _check_int("n", n)
    d = _check_int("d", d, high=n)
    p = _check_open_unit("p", p)
    t_arr = np.atleast_1d(np.asarray(t))
    if not np.issubdtype(t_arr.dtype, np.integer):
        raise AccordError(f"t must be integer thresholds, got dtype {t_arr.dtype}")
    log_prior = _check_prior(prior, n)
    lt = _log_tail(n, d, p, t_arr, log_prior)
    return lt if log else np.exp(lt)


@dataclass(frozen=True)
class NoiseBound(Result):
    """The noise bound of the agreed items at a confidence (Beigman Klebanov & Beigman 2009, section 2).

    Attributes
    ----------
    n, d : int
        Items and disagreed items.
    p : float
        Chance agreement of the annotators on a hard item.
    confidence : float
        The paper's alpha.
    t0 : int
        Smallest ``t`` with ``P(X > t | A_d) < 1 - confidence``: at the confidence, at most
        ``t0`` items are hard.
    n_agreed : int
        ``n - d``, the size of the gold standard of agreed items.
    random_agreements : int
        ``t0 - d``: agreed items that may be coin flips.
    gamma : float
        ``(t0 - d) / (n - d)``, the noise bound of the agreed items; NaN when ``d = n``.
    prior : str
        ``"uniform"`` or ``"custom"``.
    reason : str or None
        Why ``gamma`` is undefined, if it is.
    """

    n: int
    d: int
    p: float
    confidence: float
    t0: int
    n_agreed: int
    random_agreements: int
    gamma: float
    prior: str = "uniform"
    reason: str | None = None
    _log_prior: np.ndarray | None = field(default=None, repr=False, compare=False)

    def tail_probability(self, t: int | np.ndarray) -> np.ndarray:
        """``P(X > t | A_d)`` of equation 1 for this ``n``, ``d``, ``p`` and prior."""
        t_arr = np.atleast_1d(np.asarray(t))
        if not np.issubdtype(t_arr.dtype, np.integer):
            raise AccordError(f"t must be integer thresholds, got dtype {t_arr.dtype}")
        return np.exp(_log_tail(self.n, self.d, self.p, t_arr, self._log_prior))


def _make_bound(n: int, d: int, p: float, confidence: float, log_prior: np.ndarray | None) -> NoiseBound:
    t0 = _t0(n, d, p, confidence, log_prior)
    reason = None
    if d == n:
        gamma = math.nan
        reason = "every item is disagreed, so there are no agreed items to make a gold standard of"
        warn_undefined("gamma", reason, stacklevel=4)
    else:
        gamma = (t0 - d) / (n - d)
    return NoiseBound(
        n=n,
        d=d,
        p=p,
        confidence=confidence,
        t0=t0,
        n_agreed=n - d,
        random_agreements=t0 - d,
        gamma=gamma,
        prior="uniform" if log_prior is None else "custom",
        reason=reason,
        _log_prior=log_prior,
    )


def noise_bound(
    n: int, d: int, p: float, *, confidence: float = 0.95, prior: np.ndarray | None = None
) -> NoiseBound:
    """Bound the noise of the agreed items: t_0 and gamma of Beigman Klebanov & Beigman (2009).

    Parameters
    ----------
    n : int
        Number of annotated items.
    d : int
        Number of items on which the annotators did not all agree, ``0 <= d <= n``.
    p : float
        Probability that all annotators agree on a hard item by chance, in (0, 1); see
        :func:`hard_agreement_probability` and :func:`uniform_hard_agreement`.
    confidence : float
        The confidence of the bound (the paper's alpha), in (0, 1).
    prior : array of n + 1 weights, optional
        Prior over the number of hard items 0..n.  Uniform by default, as the paper's
        footnote 5 (which states it for 1..n; including 0 only matters when ``d = 0``).

    Returns
    -------
    NoiseBound

    Notes
    -----
    ``t_0`` is the smallest integer with ``P(X > t_0 | A_d) < 1 - confidence``
    (equation 1, see :func:`hard_items_tail`) and ``gamma = (t_0 - d) / (n - d)``.
    With the paper's example (n = 1000, d = 100, p = 0.5) this gives ``t_0 - d = 125``
    coin-flip agreements, the paper's "up to 125", and gamma = 125 / 900 = 0.1389,
    which the paper prints truncated as 13.8%.

    References
    ----------
    Beigman Klebanov & Beigman (2009), Computational Linguistics 35(4), sections 2 and 3.1.

    Examples
    --------
    >>> b = noise_bound(1000, 100, 0.5)
    >>> b.random_agreements, round(b.gamma, 4)
    (125, 0.1389)
    """
    n = _check_int("n", n, low=1)
    d = _check_int("d", d, high=n)
    p = _check_open_unit("p", p)
    confidence = _check_open_unit("confidence", confidence)
    log_prior = _check_prior(prior, n)
    return _make_bound(n, d, p, confidence, log_prior)


# ----------------------------------------------------------------------------- chance agreement p


def hard_agreement_probability(rates: np.ndarray) -> float:
    """Chance that all annotators agree on a hard item, from their category rates (section 2, fn. 3).

    Parameters
    ----------
    rates : array of shape (k, m)
        Row j holds the probabilities with which annotator j uses each of the m
        categories on hard items (estimated, as footnote 3, by the share of the
        disagreed items annotator j put in each category).  Rows must sum to 1.

    Returns
    -------
    float
        ``p = sum_c prod_j rates[j, c]``.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 2 (definition of p) and footnote 3.

    Examples
    --------
    >>> hard_agreement_probability([[0.5, 0.5], [0.5, 0.5]])
    0.5
    """
    arr = np.asarray(rates, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.shape[1] < 1:
        raise AccordError(f"rates must be a (k annotators, m categories) matrix with k >= 2, got {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or not np.allclose(arr.sum(axis=1), 1.0):
        raise AccordError("rates must hold non-negative probabilities whose rows sum to 1")
    return float(arr.prod(axis=0).sum())


def uniform_hard_agreement(k: int, categories: int = 2) -> float:
    """``p`` for k annotators choosing uniformly among ``categories`` on hard items: ``m^(1-k)``.

    Examples
    --------
    >>> uniform_hard_agreement(2), uniform_hard_agreement(3), uniform_hard_agreement(5)
    (0.5, 0.25, 0.0625)
    """
    k = _check_int("k", k, low=2)
    m = _check_int("categories", categories, low=2)
    return float(m ** (1 - k))


# ----------------------------------------------------------------------------- inverse


@dataclass(frozen=True)
class DisagreementTolerance(Result):
    """The most disagreements that keep the agreed items below a noise target (section 3.1).

    Attributes
    ----------
    n : int
    p : float
    target_gamma : float
    confidence : float
    max_disagreements : int or None
        Largest ``d`` such that every ``d' <= d`` gives ``gamma <= target_gamma``; None when
        even ``d = 0`` exceeds the target.
    agreement : float
        ``(n - max_disagreements) / n``, the raw agreement at that point (NaN if None).
    bound : NoiseBound or None
        The bound at ``max_disagreements``.
    reason : str or None
    """

    n: int
    p: float
    target_gamma: float
    confidence: float
    max_disagreements: int | None
    agreement: float
    bound: NoiseBound | None
    reason: str | None = None


def max_disagreements(
    n: int,
    p: float,
    *,
    gamma: float = 0.05,
    confidence: float = 0.95,
    prior: np.ndarray | None = None,
) -> DisagreementTolerance:
    """The most disagreements ``n`` items can have for the agreed part to be noise-free to ``gamma``.

    Parameters
    ----------
    n : int
        Number of items.
    p : float
        Chance agreement on a hard item (for k annotators and m equiprobable categories
        ``m^(1-k)``, see :func:`uniform_hard_agreement`).
    gamma : float
        Target noise level of the agreed items, in (0, 1).
    confidence : float
        Confidence of the bound, in (0, 1).
    prior : array of n + 1 weights, optional
        Prior over the number of hard items (uniform by default).

    Returns
    -------
    DisagreementTolerance

    Notes
    -----
    The answer is the last ``d`` before the first ``d`` whose bound exceeds the target.
    Where the posterior is not truncated by ``n`` the bound is non-decreasing in ``d``
    (the negative binomial posterior grows stochastically with ``d`` while ``n - d``
    shrinks), so the first crossing is bracketed by doubling ``d`` and found by bisection;
    a window of the 256 smaller values of ``d`` is then checked exactly for an earlier
    crossing caused by integer rounding.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 3.1 ("Only 33 disagreements").

    Examples
    --------
    >>> max_disagreements(1000, 0.5).max_disagreements
    33
    """
    n = _check_int("n", n, low=2)
    p = _check_open_unit("p", p)
    target = _check_open_unit("gamma", gamma)
    confidence = _check_open_unit("confidence", confidence)
    log_prior = _check_prior(prior, n)

    def gammas(ds: np.ndarray) -> np.ndarray:
        if log_prior is None:
            t0 = _t0_many(n, ds, p, confidence)
        else:
            t0 = np.array([_t0(n, int(x), p, confidence, log_prior) for x in ds])
        return (t0 - ds) / (n - ds)

    def bad(x: int) -> bool:
        return bool(gammas(np.array([x]))[0] > target)

    if bad(0):
        reason = (
            f"even with no disagreement the bound at confidence {confidence} exceeds gamma = {target} "
            f"for n = {n} and p = {p}"
        )
        warn_undefined("max_disagreements", reason)
        return DisagreementTolerance(n, p, target, confidence, None, math.nan, None, reason)
    # Galloping search from d = 1 keeps the probes where the posterior is not truncated by n
    # (cheap closed form) for any realistic target, then bisection inside the bracket.
    lo, hi = 0, 1
    while hi < n - 1 and not bad(hi):
        lo, hi = hi, min(2 * hi, n - 1)
    if not bad(hi):
        lo = hi
    else:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if bad(mid):
                hi = mid
            else:
                lo = mid
    window = 256 if log_prior is None else 16
    while lo > 0:
        ds = np.arange(max(0, lo - window), lo + 1)
        over = np.flatnonzero(gammas(ds) > target)
        if over.size == 0:
            break
        lo = int(ds[over[0]]) - 1
    if lo < 0:  # pragma: no cover - bad(0) was checked
        lo = 0
    bound = _make_bound(n, lo, p, confidence, log_prior)
    return DisagreementTolerance(n, p, target, confidence, lo, (n - lo) / n, bound, None)


# ----------------------------------------------------------------------------- benchmarking (4.1)


@dataclass(frozen=True)
class ChanceDifference(Result):
    """How many more "correct" answers one algorithm may get than another by chance (section 4.1).

    Attributes
    ----------
    n_items : int
        ``L``, the size of the gold standard.
    n_noisy : int
        ``R``, the number of hard (coin-flip) items in it.
    confidence : float
    method : str
        ``"chebyshev"`` (the paper's bound), ``"normal"`` (footnote 9) or ``"exact"``.
    sigma : float
        ``sqrt(R / 2)``, the standard deviation of the difference S.
    multiplier : float
        The number of sigmas: ``1 / sqrt(1 - confidence)`` (Chebyshev), the normal
        quantile (normal), ``bound / sigma`` (exact).
    bound : float
        The chance difference: ``|S|`` exceeds it with probability at most ``1 - confidence``.
    fraction : float
        ``bound / L``.
    """

    n_items: int
    n_noisy: int
    confidence: float
    method: str
    sigma: float
    multiplier: float
    bound: float
    fraction: float


def chance_difference(
    n_items: int,
    n_noisy: int,
    *,
    confidence: float = 0.95,
    method: Literal["chebyshev", "normal", "exact"] = "chebyshev",
) -> ChanceDifference:
    """The difference in correct answers two equally good algorithms can show by chance.

    Parameters
    ----------
    n_items : int
        ``L``, the number of items in the gold standard (``>= 1``).
    n_noisy : int
        ``R <= L``, the number of noisy (hard) items in it, e.g. ``NoiseBound.random_agreements``.
    confidence : float
        Probability with which the chance difference stays within the bound.
    method : {"chebyshev", "normal", "exact"}
        Chebyshev's inequality (the paper's 4.5 sigma at 95%), the normal approximation
        (footnote 9, about 2 sigma), or the exact distribution of S.

    Returns
    -------
    ChanceDifference

    Notes
    -----
    On each hard item the two algorithms are "right" independently with probability
    1/2, so their difference is ``S = sum_{i=1}^{R} X_i`` with ``X_i`` in {-1, 0, 1} with
    probabilities 1/4, 1/2, 1/4: ``mu_S = 0``, ``sigma_S = sqrt(R / 2)``.  Chebyshev:
    ``P(|S| > k sigma) <= 1 / k^2``, so ``k = (1 - confidence)^(-1/2)``.  Normal:
    ``k = Phi^-1((1 + confidence) / 2)``.  Exact: ``S + R`` is Binomial(2R, 1/2), and the
    bound is the smallest integer ``s`` with ``P(|S| > s) <= 1 - confidence``.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 4.1 and footnote 9.

    Examples
    --------
    >>> c = chance_difference(900, 125)
    >>> round(c.bound, 2), round(c.fraction, 4)
    (35.36, 0.0393)
    """
    L = _check_int("n_items", n_items, low=1)
    R = _check_int("n_noisy", n_noisy, high=L)
    confidence = _check_open_unit("confidence", confidence)
    if method not in ("chebyshev", "normal", "exact"):
        raise AccordError(f"method must be one of 'chebyshev', 'normal', 'exact', got {method!r}")
    sigma = math.sqrt(R / 2.0)
    if method == "chebyshev":
        mult = 1.0 / math.sqrt(1.0 - confidence)
        bound = mult * sigma
    elif method == "normal":
        mult = float(stats.norm.ppf((1.0 + confidence) / 2.0))
        bound = mult * sigma
    else:
        if R == 0:
            bound = 0.0
        else:
            tail = (1.0 - confidence) / 2.0
            x = int(stats.binom.isf(tail, 2 * R, 0.5))
            # isf gives sf(x) <= tail up to rounding; make it exact and minimal.
            while x > R and stats.binom.sf(x - 1, 2 * R, 0.5) <= tail:
                x -= 1
            while stats.binom.sf(x, 2 * R, 0.5) > tail:
                x += 1
            bound = float(max(x - R, 0))
        mult = bound / sigma if sigma > 0 else math.nan
    return ChanceDifference(L, R, confidence, method, sigma, mult, bound, bound / L)


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
    from accord.distances import Nominal
    from accord.engine import UnitCounts, unit_disagreement_sums

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


# ----------------------------------------------------------------------------- adding annotators (5.3)


@dataclass(frozen=True)
class AnnotatorProjection(Result):
    """Expected agreement and noise with k and with k + 1 annotators (section 5.3).

    Attributes
    ----------
    n, easy : int
        Items and easy items (``h = n - easy`` hard ones).
    n_annotators : int
        ``k``, the current number of annotators.
    p_current, p_added : float
        Chance agreement on a hard item with k and with k + 1 annotators.
    expected_agreed_current, expected_agreed_added : float
        ``easy + p h``.
    likely_agreed_current, likely_agreed_added : int
        ``easy`` plus the mode of Binomial(h, p), the most likely number of agreed items.
    current, added : NoiseBound
        The bounds at the most likely number of agreed items.
    """

    n: int
    easy: int
    n_annotators: int
    p_current: float
    p_added: float
    expected_agreed_current: float
    expected_agreed_added: float
    likely_agreed_current: int
    likely_agreed_added: int
    current: NoiseBound
    added: NoiseBound


def add_annotators(
    n: int,
    easy: int,
    *,
    k: int,
    categories: int = 2,
    p_current: float | None = None,
    p_added: float | None = None,
    confidence: float = 0.95,
    prior: np.ndarray | None = None,
) -> AnnotatorProjection:
    """Project the agreed count and the noise bound when a (k + 1)-th annotator joins.

    Parameters
    ----------
    n : int
        Number of items.
    easy : int
        Number of easy items (for example ``round(K * n)``, section 3.3).
    k : int
        Current number of annotators (>= 2).
    categories : int
        Number of equiprobable categories, used for ``p`` when not given.
    p_current, p_added : float, optional
        Chance agreement with k and with k + 1 annotators; default ``m^(1-k)`` and ``m^(-k)``.
    confidence : float
    prior : array of n + 1 weights, optional

    Returns
    -------
    AnnotatorProjection

    Notes
    -----
    Under the model all annotators agree on the easy items and on a Binomial(h, p)
    number of the ``h = n - easy`` hard ones.  The most likely count is
    ``floor((h + 1) p)`` (the binomial mode), and the bound of :func:`noise_bound` is
    evaluated at the corresponding number of disagreements.

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 5.3.

    Examples
    --------
    >>> proj = add_annotators(1000, 800, k=2)
    >>> proj.likely_agreed_current, proj.likely_agreed_added
    (900, 850)
    """
    n = _check_int("n", n, low=1)
    easy = _check_int("easy", easy, high=n)
    k = _check_int("k", k, low=2)
    m = _check_int("categories", categories, low=2)
    pc = float(m ** (1 - k)) if p_current is None else _check_open_unit("p_current", p_current)
    pa = float(m ** (-k)) if p_added is None else _check_open_unit("p_added", p_added)
    confidence = _check_open_unit("confidence", confidence)
    log_prior = _check_prior(prior, n)
    h = n - easy

    def likely(p: float) -> int:
        return easy + min(h, int(math.floor((h + 1) * p)))

    lc, la = likely(pc), likely(pa)
    return AnnotatorProjection(
        n=n,
        easy=easy,
        n_annotators=k,
        p_current=pc,
        p_added=pa,
        expected_agreed_current=easy + pc * h,
        expected_agreed_added=easy + pa * h,
        likely_agreed_current=lc,
        likely_agreed_added=la,
        current=_make_bound(n, n - lc, pc, confidence, log_prior),
        added=_make_bound(n, n - la, pa, confidence, log_prior),
    )


# ----------------------------------------------------------------------------- simulation


def _check_rates(rates: object) -> np.ndarray:
    arr = np.asarray(rates, dtype=float)
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.shape[1] < 2:
        raise AccordError(
            f"rates must be a (k annotators, m categories) matrix with k >= 2 and m >= 2, got {arr.shape}"
        )
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or not np.allclose(arr.sum(axis=1), 1.0):
        raise AccordError("rates must hold non-negative probabilities whose rows sum to 1")
    return arr


def _draw_categories(rng: np.random.Generator, probs: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Categorical draws; ``probs`` has shape (..., m) broadcasting against ``shape``."""
    cum = np.cumsum(probs, axis=-1)
    u = rng.random(shape)
    out = (u[..., None] >= cum).sum(axis=-1)
    return np.minimum(out, probs.shape[-1] - 1)


@dataclass(frozen=True)
class SimulatedAnnotations(Result):
    """A data set drawn from the easy/hard model.

    Attributes
    ----------
    labels : numpy.ndarray of shape (n, k)
        Category index (0..m-1) given by each annotator to each item.
    hard : numpy.ndarray of bool, shape (n,)
        The latent type: True for hard items.
    rates : numpy.ndarray of shape (k, m)
        The annotators' category probabilities on hard items.
    p : float
        Chance agreement on a hard item implied by ``rates``.
    """

    labels: np.ndarray = field(compare=False)
    hard: np.ndarray = field(compare=False)
    rates: np.ndarray = field(compare=False)
    p: float

    @property
    def n_disagreed(self) -> int:
        """Items on which the annotators do not all agree."""
        return int(np.sum(np.any(self.labels != self.labels[:, :1], axis=1)))

    def to_frame(self) -> pd.DataFrame:
        """Long table with columns unit, coder, value (one row per annotation)."""
        n, k = self.labels.shape
        return pd.DataFrame(
            {
                "unit": np.repeat(np.arange(n), k),
                "coder": np.tile(np.arange(k), n),
                "value": self.labels.reshape(-1),
            }
        )


def simulate_annotations(
    n: int,
    *,
    n_hard: int,
    rates: np.ndarray,
    easy_probs: np.ndarray | None = None,
    rng: np.random.Generator | int | None = None,
) -> SimulatedAnnotations:
    """Draw one annotated data set from the generative model of section 2.

    Parameters
    ----------
    n : int
        Number of items.
    n_hard : int
        Number of hard items (chosen at random among the n).
    rates : array of shape (k, m)
        On a hard item annotator j picks category c with probability ``rates[j, c]``,
        independently of the others (per-annotator biases allowed).
    easy_probs : array of m probabilities, optional
        Distribution of the shared label of easy items; the mean of the rows of
        ``rates`` by default.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    SimulatedAnnotations

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 2.

    Examples
    --------
    >>> sim = simulate_annotations(10, n_hard=3, rates=[[0.5, 0.5], [0.5, 0.5]], rng=0)
    >>> sim.labels.shape, int(sim.hard.sum())
    ((10, 2), 3)
    """
    n = _check_int("n", n, low=1)
    n_hard = _check_int("n_hard", n_hard, high=n)
    r = _check_rates(rates)
    k, m = r.shape
    if easy_probs is None:
        e = r.mean(axis=0)
    else:
        e = np.asarray(easy_probs, dtype=float)
        if e.shape != (m,) or np.any(e < 0) or not np.isclose(e.sum(), 1.0):
            raise AccordError(f"easy_probs must be {m} probabilities summing to 1, got {easy_probs!r}")
    gen = np.random.default_rng(rng)
    hard = np.zeros(n, dtype=bool)
    hard[gen.choice(n, size=n_hard, replace=False)] = True
    labels = np.empty((n, k), dtype=np.int64)
    labels[hard] = _draw_categories(gen, r, (n_hard, k))
    labels[~hard] = _draw_categories(gen, e, (n - n_hard,))[:, None]
    return SimulatedAnnotations(labels=labels, hard=hard, rates=r, p=hard_agreement_probability(r))


@dataclass(frozen=True)
class BoundCoverage(Result):
    """How often the bound held over simulated data sets.

    Attributes
    ----------
    coverage : float
        Share of data sets (with a defined bound) whose true number of hard items is at
        most ``t0``, i.e. whose true noise is at most gamma.
    n_covered, n_datasets, n_undefined : int
        Covered data sets, data sets simulated, data sets without a defined bound (no
        disagreement or an estimated p of 0, only with ``estimate_p``).
    confidence : float
        The confidence the bound claims.
    standard_error : float
        Binomial standard error of ``coverage``.
    n : int
    p : float
        True chance agreement on hard items.
    n_hard : int or None
        Fixed number of hard items, or None when drawn from the uniform prior.
    estimate_p : bool
        Whether each data set used its own estimate of p (footnote 3) instead of the true p.
    """

    coverage: float
    n_covered: int
    n_datasets: int
    n_undefined: int
    confidence: float
    standard_error: float
    n: int
    p: float
    n_hard: int | None
    estimate_p: bool

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Clopper-Pearson interval for the true coverage."""
        cl = _check_open_unit("confidence_level", confidence_level)
        total = self.n_datasets - self.n_undefined
        if total == 0:
            return (math.nan, math.nan)
        ci = stats.binomtest(self.n_covered, total).proportion_ci(confidence_level=cl, method="exact")
        return (float(ci.low), float(ci.high))


def bound_coverage(
    n: int,
    *,
    rates: np.ndarray,
    n_datasets: int = 10_000,
    n_hard: int | None = None,
    confidence: float = 0.95,
    estimate_p: bool = False,
    rng: np.random.Generator | int | None = None,
) -> BoundCoverage:
    """Measure the coverage of the noise bound over data sets drawn from the model.

    Parameters
    ----------
    n : int
        Items per data set.
    rates : array of shape (k, m)
        Annotators' category probabilities on hard items (the true p follows).
    n_datasets : int
        Number of simulated data sets.
    n_hard : int, optional
        Fixed number of hard items.  By default each data set draws it from the uniform
        prior over 0..n, the prior the bound is computed under, so the coverage is at
        least ``confidence`` by construction (the bound is a posterior quantile); with a
        fixed ``n_hard`` the frequentist coverage for that value is measured.
    confidence : float
        Confidence of the bound.
    estimate_p : bool
        If True, simulate the full label matrices and use each data set's own estimate of
        p from the disagreed items (footnote 3) instead of the true p.
    rng : numpy.random.Generator, int or None

    Returns
    -------
    BoundCoverage

    Notes
    -----
    Vectorised over data sets: with the true p the number of disagreements of a data set
    with h hard items is Binomial(h, 1 - p); with ``estimate_p`` the label tensor
    (datasets, n, k) is drawn at once and the per-annotator category rates on the
    disagreed items are counted with array operations.

    Examples
    --------
    >>> cov = bound_coverage(200, rates=[[0.5, 0.5], [0.5, 0.5]], n_datasets=2000, rng=1)
    >>> cov.coverage >= 0.95
    True
    """
    n = _check_int("n", n, low=1)
    r = _check_rates(rates)
    B = _check_int("n_datasets", n_datasets, low=1)
    if n_hard is not None:
        n_hard = _check_int("n_hard", n_hard, high=n)
    confidence = _check_open_unit("confidence", confidence)
    gen = np.random.default_rng(rng)
    p_true = hard_agreement_probability(r)
    h = gen.integers(0, n + 1, size=B) if n_hard is None else np.full(B, n_hard)
    if not estimate_p:
        d = gen.binomial(h, 1.0 - p_true)
        p_used = np.full(B, p_true)
        defined = np.ones(B, dtype=bool)
    else:
        k, m = r.shape
        # labels of hard items; easy items never disagree and do not enter the rate estimate
        is_hard = np.arange(n)[None, :] < h[:, None]  # which items are hard is irrelevant
        labels = _draw_categories(gen, r, (B, n, k))  # (B, n, k)
        disagreed = is_hard & np.any(labels != labels[..., :1], axis=2)  # (B, n)
        d = disagreed.sum(axis=1)
        counts = np.stack(
            [np.sum((labels == c) & disagreed[..., None], axis=1) for c in range(m)], axis=-1
        )  # (B, k, m)
        with np.errstate(invalid="ignore", divide="ignore"):
            est = counts / d[:, None, None]
        p_used = np.prod(est, axis=1).sum(axis=1)
        defined = (d > 0) & (p_used > 0) & (p_used < 1)
    t0 = np.full(B, -1, dtype=np.int64)
    if defined.any():
        t0[defined] = _t0_many(n, d[defined], p_used[defined], confidence)
    covered = (h <= t0) & defined
    total = int(defined.sum())
    cov = covered.sum() / total if total else math.nan
    se = math.sqrt(cov * (1 - cov) / total) if total else math.nan
    return BoundCoverage(
        coverage=float(cov),
        n_covered=int(covered.sum()),
        n_datasets=B,
        n_undefined=B - total,
        confidence=confidence,
        standard_error=se,
        n=n,
        p=p_true,
        n_hard=n_hard,
        estimate_p=estimate_p,
    )
