"""A vectorised simulator of the easy/hard generative model, and how often the bound holds.

:func:`simulate_annotations` draws annotations from the model (easy items
agreed, hard items coin flips at given category rates);
:func:`bound_coverage` measures over many simulated data sets how often the
noise bound gamma covers the true share of hard items among the agreed ones.

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.lazy import stats
from accord._shared.results import Result
from accord.noise._model import (
    _check_int,
    _check_open_unit,
    _t0_many,
    hard_agreement_probability,
)

__all__ = [
    "BoundCoverage",
    "SimulatedAnnotations",
    "bound_coverage",
    "simulate_annotations",
]


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
