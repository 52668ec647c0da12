"""The bootstrap without the rows: resample the signature histogram with multinomial weights.

Units with the same value-count vector (the same *signature*) are
exchangeable in alpha: drawing P units with replacement from P units is the
same, in distribution, as drawing the number of units of each signature from
the multinomial distribution with P trials and probabilities w_s / P (w_s the
units of signature s).  So a resample costs O(S) for S signatures, whatever the
number of units, and needs no row of the data.

The intervals are those of :func:`scipy.stats.bootstrap` (``percentile``,
``basic``, ``BCa``); BCa's jackknife leaves out one unit of each signature in
turn (every unit of a signature gives the same jackknife value, weighted by
w_s).

References
----------
Efron, B., & Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
Chapman & Hall, chapters 13-14 (percentile, BCa).
"""

from __future__ import annotations

import warnings
from types import SimpleNamespace
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.coefficients._marginal_bootstrap import row_parts
from accord.coefficients._pairs import UnitCounts, unit_disagreement_sums
from accord.distances import DENSE_LIMIT, Distance
from accord.distances._scalar import _PreparedNominal

__all__ = ["signature_bootstrap", "signature_resample_alphas"]

_CELLS = 1 << 23  # weight-matrix cells handled per block


def _alphas(uc: UnitCounts, values: np.ndarray, dist: Distance, weights: np.ndarray) -> np.ndarray:
    """Alpha for each row of *weights* (resamples x signatures): units of each signature drawn."""
    s = uc.n_rows
    fixed = not dist.depends_on_marginals
    prepared = dist.prepare(values, uc.marginals())
    if not fixed:  # ordinal: the distance moves with the marginals of each resample
        by_rows = row_parts(uc, values, dist)
        if by_rows is None:  # no batched form of the distance, or too many pairs of values: resample by resample
            return _alphas_by_preparing(uc, values, dist, weights)
        step = by_rows.batch()
        return np.concatenate([by_rows.alphas(weights[start : start + step])
                               for start in range(0, len(weights), step)]) if len(weights) else np.empty(0)
    n_sv = _signature_values(uc)
    du = unit_disagreement_sums(uc, prepared) / (uc.m - 1.0)
    nominal = isinstance(prepared, _PreparedNominal)
    dense = not nominal and prepared.dense_ok and uc.n_values <= DENSE_LIMIT
    delta = prepared.matrix() if dense else None
    out = np.empty(len(weights))
    step = max(1, _CELLS // max(s, uc.n_values, 1))
    for start in range(0, len(weights), step):
        w = weights[start : start + step]
        n = w @ uc.m
        marg = w @ n_sv
        d_o_sum = w @ du
        if nominal:
            cross = n**2 - (marg**2).sum(axis=1)
        elif dense:
            cross = np.einsum("bv,vw,bw->b", marg, delta, marg)
        else:
            cross = np.array([prepared.cross_sum(a, a) for a in marg])
        with np.errstate(divide="ignore", invalid="ignore"):
            d_o = d_o_sum / n
            d_e = cross / (n * (n - 1.0))
            out[start : start + step] = np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)
    return out


def _signature_values(uc: UnitCounts) -> np.ndarray:
    """The signatures x values counts, dense."""
    n_sv = np.zeros((uc.n_rows, uc.n_values))
    np.add.at(n_sv, (uc.unit, uc.value), uc.count)
    return n_sv


def _alphas_by_preparing(uc: UnitCounts, values: np.ndarray, dist: Distance, weights: np.ndarray) -> np.ndarray:
    """:func:`_alphas` for a distance that depends on the marginals, resample by resample: the distance prepared
    from each resample's marginals and every signature's disagreement recounted (distances without a batched
    form, too many pairs of values for a batch; and the reference the batched path is tested against)."""
    n_sv = _signature_values(uc)
    out = np.empty(len(weights))
    for i, wi in enumerate(weights):
        a = wi @ n_sv
        n = float(wi @ uc.m)
        prep = dist.prepare(values, a)
        d_o_sum = float(wi @ (unit_disagreement_sums(uc, prep) / (uc.m - 1.0)))
        cross = prep.cross_sum(a, a)
        with np.errstate(divide="ignore", invalid="ignore"):
            d_o = d_o_sum / n
            d_e = cross / (n * (n - 1.0))
            out[i] = 1.0 - d_o / d_e if d_e > 0 else np.nan
    return out


def signature_resample_alphas(
    uc: UnitCounts, values: np.ndarray, dist: Distance, *, n_resamples: int, rng: Any = None
) -> np.ndarray:
    """Alphas of *n_resamples* bootstrap resamples of the units, drawn as multinomial signature counts.

    Examples
    --------
    >>> from accord.coefficients._pairs import UnitCounts, signature_counts
    >>> from accord.distances import get_distance
    >>> uc = signature_counts(UnitCounts.from_table([[2, 0], [1, 1], [0, 2], [2, 0]]))
    >>> a = signature_resample_alphas(uc, np.array(["x", "y"]), get_distance("nominal"), n_resamples=5, rng=1)
    >>> a.shape
    (5,)
    """
    weight = uc.unit_weight
    p = int(round(float(weight.sum())))
    gen = np.random.default_rng(rng)
    draws = gen.multinomial(p, weight / weight.sum(), size=int(n_resamples)).astype(float)
    return _alphas(uc, values, dist, draws)


def signature_bootstrap(
    uc: UnitCounts,
    values: np.ndarray,
    dist: Distance,
    *,
    confidence_level: float,
    n_resamples: int,
    method: str,
    rng: Any,
) -> SimpleNamespace:
    """Bootstrap interval of alpha over a signature histogram, shaped like scipy's ``BootstrapResult``."""
    from scipy.special import ndtr, ndtri

    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise AccordError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    if method not in ("percentile", "basic", "BCa"):
        raise AccordError(f"method must be 'percentile', 'basic' or 'BCa'; got {method!r}")
    weight = uc.unit_weight
    theta_hat = float(_alphas(uc, values, dist, weight[None, :])[0])
    boot = signature_resample_alphas(uc, values, dist, n_resamples=n_resamples, rng=rng)
    kept = boot[~np.isnan(boot)]
    tail = (1.0 - confidence_level) / 2.0
    if len(kept) == 0:
        return SimpleNamespace(confidence_interval=(np.nan, np.nan), bootstrap_distribution=boot)
    lo_q, hi_q = tail, 1.0 - tail
    if method == "BCa":
        z0 = ndtri(((kept < theta_hat).sum() + (kept <= theta_hat).sum()) / (2.0 * len(kept)))
        # jackknife: leave one unit of each signature out (weight w_s - 1), each counted w_s times
        jack_w = np.repeat(weight[None, :], uc.n_rows, axis=0) - np.eye(uc.n_rows)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            theta_j = _alphas(uc, values, dist, jack_w)
            mean = float(weight @ theta_j) / float(weight.sum())
            diff = mean - theta_j
            num = float(weight @ diff**3)
            den = 6.0 * float(weight @ diff**2) ** 1.5
            a = num / den if den > 0 else 0.0
            z_lo, z_hi = ndtri(tail), ndtri(1.0 - tail)
            lo_q = float(ndtr(z0 + (z0 + z_lo) / (1.0 - a * (z0 + z_lo))))
            hi_q = float(ndtr(z0 + (z0 + z_hi) / (1.0 - a * (z0 + z_hi))))
    lo, hi = np.percentile(kept, [100 * lo_q, 100 * hi_q])
    if method == "basic":
        lo, hi = 2 * theta_hat - hi, 2 * theta_hat - lo
    return SimpleNamespace(confidence_interval=(float(lo), float(hi)), bootstrap_distribution=boot)
