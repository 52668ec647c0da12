"""The pass rate a judge's verdicts imply, corrected by the items people labelled too.

A judge labels many items and people a subset of them.  The judge's raw rate is biased by its errors; two
corrections use the subset:

- :func:`rogan_gladen`: the judge's rate corrected by its sensitivity and specificity on the subset (Rogan &
  Gladen 1978), with the delta-method interval over the three estimated proportions or a bootstrap one;
- :func:`ppi_mean`: the prediction-powered estimate of the mean (Angelopoulos et al. 2023), the judge's mean
  on the unlabelled items corrected by its mean error on the labelled ones, classic or power-tuned (PPI++,
  Angelopoulos, Duchi & Zrnic 2023).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.models_vs_humans._proportions import check_level, z_value

__all__ = ["PPIEstimate", "RoganGladen", "ppi_mean", "rogan_gladen"]


@dataclass(frozen=True)
class PPIEstimate(Result):
    """The prediction-powered estimate of a mean.

    Attributes
    ----------
    estimate : float
    ci_low, ci_high : float
        The normal interval at the level asked for.
    standard_error : float
    lam : float
        The power-tuning weight lambda: 1 for the classic estimator; the estimated optimum, clipped to
        [0, 1], for PPI++.
    power_tuned : bool
    n_labeled, n_unlabeled : int
        Items with a human label (and the judge's), and items with the judge's label only.
    undefined_reason : str or None
    """

    estimate: float
    ci_low: float
    ci_high: float
    standard_error: float
    lam: float
    power_tuned: bool
    n_labeled: int
    n_unlabeled: int
    undefined_reason: str | None = None


def _undefined_ppi(reason: str, n: int, big_n: int, power_tuned: bool) -> PPIEstimate:
    nan = math.nan
    return PPIEstimate(nan, nan, nan, nan, nan, power_tuned, n, big_n, reason)


def ppi_mean(y: Any, yhat: Any, yhat_unlabeled: Any, *, power_tuned: bool = False,
             confidence_level: float = 0.95) -> PPIEstimate:
    r"""The prediction-powered estimate of the mean of *y*, with its interval.

    Parameters
    ----------
    y : array-like of float
        The human labels of the labelled items (1 for a pass, 0 for a fail; or scores).
    yhat : array-like of float
        The judge's labels of the same items, in the same order.
    yhat_unlabeled : array-like of float
        The judge's labels of the items no human labelled.
    power_tuned : bool, keyword-only
        PPI++: weight the judge's labels by the estimated optimal lambda (clipped to [0, 1]) instead of 1.
    confidence_level : float, keyword-only

    Returns
    -------
    PPIEstimate
        Undefined (with its reason) with fewer than two labelled items or no unlabelled one.

    Notes
    -----
    With n labelled items :math:`(Y_i, \hat Y_i)` and N unlabelled :math:`\tilde Y_j`:

    .. math::

        \hat\theta_\lambda = \frac{1}{N}\sum_j \lambda\tilde Y_j + \frac{1}{n}\sum_i (Y_i - \lambda\hat Y_i),
        \quad \widehat{se}^2 = \frac{\hat\sigma^2(\lambda\tilde Y)}{N} + \frac{\hat\sigma^2(Y - \lambda\hat Y)}{n},

    the variances with divisor n (N), and the interval :math:`\hat\theta \pm z\,\widehat{se}`.  The classic
    estimator has :math:`\lambda = 1`; PPI++ takes
    :math:`\hat\lambda = \widehat{\mathrm{Cov}}(Y, \hat Y) / ((1 + n/N)\,\widehat{\mathrm{Var}}(\hat Y))`,
    the covariance over the labelled items (divisor n), the variance over all the judge's labels (divisor
    n + N - 1), clipped to [0, 1] (the choice of the authors' package ``ppi-python``, which this equals).
    When the judge's labels are constant lambda does not change the estimate; it is then 1.

    References
    ----------
    Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I., & Zrnic, T. (2023). Prediction-powered
    inference. *Science* 382(6671), 669-674 (the mean: section "Mean estimation").
    Angelopoulos, A. N., Duchi, J. C., & Zrnic, T. (2023). PPI++: Efficient prediction-powered inference.
    arXiv:2311.01453, example 2.1 and section 6 (the optimal lambda).

    Examples
    --------
    >>> r = ppi_mean([1, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 1, 1, 0])
    >>> round(r.estimate, 4), r.lam
    (0.9167, 1.0)
    """
    level = check_level(confidence_level)
    y_arr = np.asarray(y, dtype=float).reshape(-1)
    f_lab = np.asarray(yhat, dtype=float).reshape(-1)
    f_unl = np.asarray(yhat_unlabeled, dtype=float).reshape(-1)
    if len(y_arr) != len(f_lab):
        raise AccordError(f"y and yhat must be as long; got {len(y_arr)} and {len(f_lab)}")
    n, big_n = len(y_arr), len(f_unl)
    if n < 2:
        return _undefined_ppi(f"{n} item{'s' if n != 1 else ''} labelled by people and the judge; the estimate "
                              "needs two or more", n, big_n, power_tuned)
    if big_n == 0:
        return _undefined_ppi("no item is labelled by the judge alone: the mean of the human labels is the "
                              "estimate, and the judge adds nothing to it", n, big_n, power_tuned)
    lam = 1.0
    if power_tuned:
        pooled = np.concatenate([f_lab, f_unl])
        var = float(np.var(pooled, ddof=1))
        if var > 0:
            cov = float(np.mean((y_arr - y_arr.mean()) * (f_lab - f_lab.mean())))
            lam = min(1.0, max(0.0, cov / ((1.0 + n / big_n) * var)))
    estimate = float(np.mean(lam * f_unl) + np.mean(y_arr - lam * f_lab))
    se = math.sqrt(float(np.var(lam * f_unl)) / big_n + float(np.var(y_arr - lam * f_lab)) / n)
    half = z_value(level) * se
    return PPIEstimate(estimate, estimate - half, estimate + half, se, lam, power_tuned, n, big_n)


@dataclass(frozen=True)
class RoganGladen(Result):
    """The judge's pass rate corrected by its sensitivity and specificity (Rogan & Gladen 1978).

    Attributes
    ----------
    estimate : float
        The corrected rate, truncated to [0, 1] as Rogan and Gladen advise.
    unclipped : float
        The estimate before truncation (outside [0, 1] when the judge's rate is below 1 - specificity or
        above sensitivity).
    ci_low, ci_high : float
        The interval, within [0, 1].
    standard_error : float
        The delta-method standard error (NaN for the bootstrap).
    method : str
        ``delta`` or ``bootstrap``.
    judge_rate, sensitivity, specificity : float
        The three estimated proportions.
    n_judged, n_positive, n_negative : int
        The items the judge's rate is over, and the human-labelled positives and negatives.
    n_boot_dropped : int
        Bootstrap draws left out because sensitivity + specificity <= 1 in them.
    undefined_reason : str or None
    """

    estimate: float
    unclipped: float
    ci_low: float
    ci_high: float
    standard_error: float
    method: str
    judge_rate: float
    sensitivity: float
    specificity: float
    n_judged: int
    n_positive: int
    n_negative: int
    n_boot_dropped: int = 0
    undefined_reason: str | None = None


def rogan_gladen(judge_positive: int, n_judged: int, true_positive: int, n_positive: int, true_negative: int,
                 n_negative: int, *, confidence_level: float = 0.95, n_boot: int | None = None,
                 rng: Any = None) -> RoganGladen:
    r"""The Rogan-Gladen estimate of a prevalence from an imperfect judge, with its interval.

    Parameters
    ----------
    judge_positive, n_judged : int
        The items the judge passes, of the items it judged.
    true_positive, n_positive : int
        Of the items people pass, those the judge passes too.
    true_negative, n_negative : int
        Of the items people fail, those the judge fails too.
    confidence_level : float, keyword-only
    n_boot : int, optional, keyword-only
        A percentile bootstrap interval over this many draws instead of the delta method: each draw resamples
        the judged items and the two human-labelled groups (each count binomial at its observed rate).
    rng : int, numpy.random.Generator or None, keyword-only
        The bootstrap's randomness.

    Returns
    -------
    RoganGladen
        Undefined (with its reason) when a group is empty or the judge is no better than chance on the
        labelled items (sensitivity + specificity <= 1).

    Notes
    -----
    With the judge's rate q, sensitivity Se and specificity Sp, and J = Se + Sp - 1:

    .. math::

        \hat\pi = \frac{q + Sp - 1}{J}, \qquad
        \widehat{\mathrm{Var}}(\hat\pi) = \frac{1}{J^2}\left[\frac{q(1-q)}{n_q}
            + \hat\pi^2\frac{Se(1-Se)}{n_+} + (1-\hat\pi)^2\frac{Sp(1-Sp)}{n_-}\right],

    the delta method over the three proportions taken as independent (the partial derivatives of
    :math:`\hat\pi` are 1/J, :math:`-\hat\pi/J` and :math:`(1-\hat\pi)/J`); the interval
    :math:`\hat\pi \pm z\sqrt{\widehat{\mathrm{Var}}}`, truncated to [0, 1].

    References
    ----------
    Rogan, W. J., & Gladen, B. (1978). Estimating prevalence from the results of a screening test.
    *American Journal of Epidemiology* 107(1), 71-76.

    Examples
    --------
    >>> r = rogan_gladen(60, 100, 18, 20, 16, 20)
    >>> round(r.estimate, 4), round(r.sensitivity, 2), round(r.specificity, 2)
    (0.5714, 0.9, 0.8)
    """
    level = check_level(confidence_level)
    nan = math.nan
    q = judge_positive / n_judged if n_judged else nan
    se = true_positive / n_positive if n_positive else nan
    sp = true_negative / n_negative if n_negative else nan

    def undefined(reason: str) -> RoganGladen:
        return RoganGladen(nan, nan, nan, nan, nan, "bootstrap" if n_boot else "delta", q, se, sp, n_judged,
                           n_positive, n_negative, 0, reason)

    if n_judged == 0:
        return undefined("the judge judged no item")
    if n_positive == 0 or n_negative == 0:
        which = "passed" if n_positive == 0 else "failed"
        return undefined(f"people {which} none of the items they labelled, so the judge's "
                         f"{'sensitivity' if n_positive == 0 else 'specificity'} is unknown")
    j = se + sp - 1.0
    if j <= 0:
        return undefined(f"the judge is no better than chance on the items people labelled (sensitivity "
                         f"{se:.3f} + specificity {sp:.3f} - 1 = {j:.3f}, not above 0)")
    pi = (q + sp - 1.0) / j
    clipped = min(1.0, max(0.0, pi))
    if n_boot:
        if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
            raise AccordError(f"n_boot must be a positive integer; got {n_boot!r}")
        gen = np.random.default_rng(rng)
        qb = gen.binomial(n_judged, q, n_boot) / n_judged
        seb = gen.binomial(n_positive, se, n_boot) / n_positive
        spb = gen.binomial(n_negative, sp, n_boot) / n_negative
        jb = seb + spb - 1.0
        ok = jb > 0
        pib = np.clip((qb[ok] + spb[ok] - 1.0) / jb[ok], 0.0, 1.0)
        tail = (1.0 - level) / 2.0
        low, high = (np.quantile(pib, [tail, 1.0 - tail]).tolist() if len(pib) else (nan, nan))
        return RoganGladen(clipped, pi, float(low), float(high), nan, "bootstrap", q, se, sp, n_judged,
                           n_positive, n_negative, int((~ok).sum()))
    var = (q * (1 - q) / n_judged + pi * pi * se * (1 - se) / n_positive
           + (1 - pi) ** 2 * sp * (1 - sp) / n_negative) / (j * j)
    sd = math.sqrt(var)
    half = z_value(level) * sd
    return RoganGladen(clipped, pi, max(0.0, pi - half), min(1.0, pi + half), sd, "delta", q, se, sp, n_judged,
                       n_positive, n_negative)
