"""The easy/hard noise model: the bound gamma on hard items among the agreed ones.

The model: every item is *easy* or *hard*.  All annotators agree on an easy item;
on a hard item each annotator independently flips a (possibly biased) coin, so a
hard item is agreed by chance with probability ``p``.  The ``d`` disagreed items
are therefore all hard, and some of the agreed items are hard too.  Given ``d``
disagreements among ``n`` items, equation 1 of the paper is the posterior tail
``P(X > t | A_d)`` of the number ``X`` of hard items; ``t_0`` is the smallest
``t`` with ``P(X > t | A_d) < 1 - confidence`` and ``gamma = (t_0 - d) / (n - d)``
bounds the share of hard (coin-flip) items among the agreed ones, the noise
level of a gold standard made of the agreed items.

This module holds the bound (:func:`noise_bound`), its tail
(:func:`hard_items_tail`), its inverse (:func:`max_disagreements`), the chance
agreement ``p`` on hard items (:func:`hard_agreement_probability`,
:func:`uniform_hard_agreement`) and the effect of adding an annotator
(:func:`add_annotators`).

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy.special import gammaln, logsumexp

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Result

__all__ = [
    "AnnotatorProjection",
    "DisagreementTolerance",
    "NoiseBound",
    "add_annotators",
    "hard_agreement_probability",
    "hard_items_tail",
    "max_disagreements",
    "noise_bound",
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
