"""Power and sample size of a one-way ANOVA, and Tukey's HSD threshold.

:func:`anova_power` and :func:`anova_sample_size` follow R's
``power.anova.test`` (Passonneau 2010, Table 10); :func:`tukey_hsd_value` is
the honest significant difference q(1 - alpha; k, df) sqrt(MSE / n).  The
argument checks and the cached studentized range quantile here serve the
whole :mod:`accord.significance` package.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.lazy import optimize, stats


def _check_fraction(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a number strictly between 0 and 1; got {value!r}") from None
    if not 0.0 < v < 1.0:
        raise AccordError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return v


def _check_positive(value: Any, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a positive number; got {value!r}") from None
    if not (math.isfinite(v) and v > 0.0):
        raise AccordError(f"{name} must be a positive finite number; got {value!r}")
    return v


def _check_groups(groups: Any) -> int:
    if isinstance(groups, bool) or not isinstance(groups, (int, np.integer)) or groups < 2:
        raise AccordError(f"groups must be an integer of at least 2; got {groups!r}")
    return int(groups)


def _power(groups: int, n: float, ratio: float, sig_level: float) -> float:
    """R's ``power.anova.test`` body: noncentral F with lambda = (k - 1) n between/within."""
    df1 = groups - 1
    df2 = (n - 1.0) * groups
    lam = df1 * n * ratio
    crit = stats.f.isf(sig_level, df1, df2)
    return float(stats.ncf.sf(crit, df1, df2, lam))


def anova_power(*, groups: int, n: float, between_var: float, within_var: float, sig_level: float = 0.05) -> float:
    """Power of a balanced one-way ANOVA, as R's ``power.anova.test`` computes it.

    Parameters
    ----------
    groups : int
        Number of groups k (peer systems), at least 2.
    n : float
        Observations per group (document sets per system), greater than 1; may
        be fractional.
    between_var : float
        Variance of the group means (sample variance, denominator k - 1).
    within_var : float
        Error variance (mean square within groups).
    sig_level : float
        Significance level of the F test.

    Returns
    -------
    float
        The probability that the F test rejects at ``sig_level``.

    Notes
    -----
    With df1 = k - 1, df2 = (n - 1) k and noncentrality
    lambda = (k - 1) n between_var / within_var, the power is
    P(F'(df1, df2, lambda) > F_{1 - sig_level}(df1, df2)), with F' the
    noncentral F (:data:`scipy.stats.ncf`).  This is the body of R's
    ``power.anova.test`` (package stats), which Passonneau (2010) used for
    Table 10.

    References
    ----------
    Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
    method. *Natural Language Engineering* 16(2), section 5.2.2, Table 10.

    Examples
    --------
    Seed 002 Table 10, 2003 row (16 peers), at the paper's n = 3.45:

    >>> round(anova_power(groups=16, n=3.45, between_var=0.0393, within_var=0.0314, sig_level=0.01), 3)
    0.99
    """
    k = _check_groups(groups)
    nn = _check_positive(n, "n")
    if nn <= 1.0:
        raise AccordError(f"n must be greater than 1 (observations per group); got {n!r}")
    b = _check_positive(between_var, "between_var")
    w = _check_positive(within_var, "within_var")
    a = _check_fraction(sig_level, "sig_level")
    return _power(k, nn, b / w, a)


def anova_sample_size(
    *, groups: int, between_var: float, within_var: float, power: float, sig_level: float = 0.05
) -> float:
    """Observations per group a one-way ANOVA needs for a power (R's ``power.anova.test``).

    Parameters
    ----------
    groups : int
        Number of groups k (peer systems), at least 2.
    between_var : float
        Variance of the group means (denominator k - 1).
    within_var : float
        Error variance (mean square within groups).
    power : float
        Target power, greater than ``sig_level``.
    sig_level : float
        Significance level of the F test.

    Returns
    -------
    float
        The n > 1 at which :func:`anova_power` equals ``power``; fractional, as
        R reports it (round up for a number of document sets).

    Notes
    -----
    R solves ``power(n) = power`` with ``uniroot`` on [2, 1e5]; here
    :func:`scipy.optimize.brentq` finds the same root to machine precision, and
    looks below 2 when two observations per group already exceed the power
    (returning 1.0 when any n > 1 does).

    References
    ----------
    Passonneau, R. J. (2010). *Natural Language Engineering* 16(2), Table 10.

    Examples
    --------
    Seed 002 Table 10, 2003 row: 16 peers, power 0.99 at 0.01 needs 3.45 document sets per peer.

    >>> round(anova_sample_size(groups=16, between_var=0.0393, within_var=0.0314, power=0.99,
    ...                         sig_level=0.01), 2)
    3.45
    """
    k = _check_groups(groups)
    b = _check_positive(between_var, "between_var")
    w = _check_positive(within_var, "within_var")
    target = _check_fraction(power, "power")
    a = _check_fraction(sig_level, "sig_level")
    if target <= a:
        raise AccordError(f"power must exceed sig_level ({a!r}); got {power!r}")
    return _solve_n(k, b / w, target, a)


def _solve_n(k: int, ratio: float, target: float, sig_level: float) -> float:
    def f(n: float) -> float:
        return _power(k, n, ratio, sig_level) - target

    lo, hi = 2.0, 1e5
    if f(lo) > 0:
        lo, hi = 1.0 + 1e-9, 2.0
        if f(lo) > 0:  # any n > 1 reaches the power
            return 1.0
    if f(hi) < 0:
        raise AccordError(
            f"more than {hi:g} observations per group would be needed for power {target!r} "
            f"(between/within variance ratio {ratio!r} is too small)"
        )
    return float(optimize.brentq(f, lo, hi, xtol=1e-12, rtol=4 * np.finfo(float).eps))


def tukey_hsd_value(*, groups: int, n: float, within_var: float, df: float | None = None, alpha: float = 0.05) -> float:
    """Tukey's honest significant difference: q(1 - alpha; k, df) * sqrt(MSE / n).

    Parameters
    ----------
    groups : int
        Number of groups k.
    n : float
        Observations per group (the harmonic mean when unbalanced).
    within_var : float
        Mean square within groups (MSE).
    df : float, optional
        Error degrees of freedom; default k (n - 1), the balanced one-way design.
    alpha : float
        Family-wise significance level.

    Returns
    -------
    float
        The smallest difference of two group means that Tukey's test declares
        significant.

    Notes
    -----
    q is the upper alpha quantile of the studentized range distribution
    (:data:`scipy.stats.studentized_range`).

    Examples
    --------
    >>> round(tukey_hsd_value(groups=3, n=5, within_var=4.0, alpha=0.05), 4)
    3.3746
    """
    k = _check_groups(groups)
    nn = _check_positive(n, "n")
    w = _check_positive(within_var, "within_var")
    a = _check_fraction(alpha, "alpha")
    dfe = k * (nn - 1.0) if df is None else _check_positive(df, "df")
    if dfe <= 0:
        raise AccordError(f"df must be positive; n={n!r} gives no error degrees of freedom")
    return _q_critical(k, dfe, 1.0 - a) * math.sqrt(w / nn)


@functools.lru_cache(maxsize=256)
def _q_critical(k: int, df: float, level: float) -> float:
    """Upper quantile of the studentized range (a costly root search; cached)."""
    return float(stats.studentized_range.ppf(level, k, df))
