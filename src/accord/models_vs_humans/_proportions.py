"""Proportions with their intervals, and McNemar's test: the small statistics the judge audit reports.

:func:`wilson_interval` is the score interval of Wilson (1927) for a binomial proportion, and
:func:`mcnemar_test` McNemar's (1947) test of two discordant counts, exact (the binomial test of the smaller
count) or the chi-square with Edwards' continuity correction; both equal statsmodels' ``proportion_confint``
(``method="wilson"``) and ``mcnemar``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from accord._shared.errors import AccordError
from accord._shared.results import Result

__all__ = ["McNemarTest", "Proportion", "check_level", "mcnemar_test", "proportion", "wilson_interval", "z_value"]


def check_level(confidence_level: object) -> float:
    """*confidence_level* as a float in (0, 1), or the error naming it."""
    if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float)) or not (
            0 < confidence_level < 1):
        raise AccordError(f"confidence_level must be a number in (0, 1); got {confidence_level!r}",
                          cli=f"--confidence must be a number in (0, 1); got {confidence_level!r}")
    return float(confidence_level)


def z_value(confidence_level: float) -> float:
    """The standard normal quantile of a two-sided interval at *confidence_level* (1.959964 at 0.95)."""
    from scipy.stats import norm

    return float(norm.ppf(1.0 - (1.0 - confidence_level) / 2.0))


def wilson_interval(count: int, n: int, *, confidence_level: float = 0.95) -> tuple[float, float]:
    r"""The Wilson score interval of the proportion *count* / *n*.

    Parameters
    ----------
    count, n : int
        Successes and trials, 0 <= count <= n.
    confidence_level : float, keyword-only
        The interval's level, in (0, 1).

    Returns
    -------
    (low, high) : tuple of float
        NaN, NaN when *n* is 0.

    Notes
    -----
    With :math:`\hat p = k / n` and z the normal quantile of the level,

    .. math:: \frac{\hat p + z^2/2n}{1 + z^2/n} \pm
              \frac{z}{1 + z^2/n}\sqrt{\frac{\hat p(1-\hat p)}{n} + \frac{z^2}{4n^2}}.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference. *JASA* 22,
    209-212.

    Examples
    --------
    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    if n == 0:
        return math.nan, math.nan
    z = z_value(check_level(confidence_level))
    p = count / n
    z2 = z * z
    denom = 1.0 + z2 / n
    center = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    # the bounds at count 0 and n are 0 and 1 exactly (the formula leaves a rounding error there)
    return (0.0 if count == 0 else center - half), (1.0 if count == n else center + half)


@dataclass(frozen=True)
class Proportion(Result):
    """A share with its Wilson interval.

    Attributes
    ----------
    count, n : int
        The items counted and the items they are counted among.
    estimate : float
        ``count / n`` (NaN when *n* is 0).
    ci_low, ci_high : float
        The Wilson interval (NaN when *n* is 0).
    """

    count: int
    n: int
    estimate: float
    ci_low: float
    ci_high: float

    def __str__(self) -> str:
        if self.n == 0:
            return "undefined (no items)"
        return f"{self.estimate:.3f} [{self.ci_low:.3f}, {self.ci_high:.3f}] ({self.count} of {self.n})"


def proportion(count: int, n: int, *, confidence_level: float = 0.95) -> Proportion:
    """*count* of *n* with its Wilson interval (:func:`wilson_interval`).

    Examples
    --------
    >>> print(proportion(8, 10))
    0.800 [0.490, 0.943] (8 of 10)
    """
    low, high = wilson_interval(count, n, confidence_level=confidence_level)
    return Proportion(count=int(count), n=int(n), estimate=count / n if n else math.nan, ci_low=low, ci_high=high)


@dataclass(frozen=True)
class McNemarTest(Result):
    """McNemar's test of two discordant counts.

    Attributes
    ----------
    count_first, count_second : int
        The two discordant counts (here: pairs that lean to the first position, to the second).
    statistic : float
        Exact: the smaller count; chi-square: :math:`(|b - c| - 1)^2 / (b + c)` (without the 1 when not
        corrected).
    p_value : float
        Two-sided (NaN when undefined).
    method : str
        ``exact`` (the binomial test) or ``chi-square`` (with or without ``continuity correction``).
    undefined_reason : str or None
    """

    count_first: int
    count_second: int
    statistic: float
    p_value: float
    method: str
    undefined_reason: str | None = None


def mcnemar_test(count_first: int, count_second: int, *, exact: bool = True, correction: bool = True
                 ) -> McNemarTest:
    r"""McNemar's test that two discordant counts b and c come from one rate (b = c in expectation).

    Parameters
    ----------
    count_first, count_second : int
        The discordant counts b and c.
    exact : bool, keyword-only
        The exact test (default): twice the binomial probability of at most min(b, c) successes in b + c
        trials at 1/2, at most 1.  Otherwise the chi-square with one degree of freedom.
    correction : bool, keyword-only
        The chi-square with Edwards' continuity correction (default): :math:`(|b - c| - 1)^2 / (b + c)`.

    Returns
    -------
    McNemarTest

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated proportions or
    percentages. *Psychometrika* 12(2), 153-157.  Edwards, A. L. (1948). Note on the "correction for
    continuity" in testing the significance of the difference between correlated proportions.
    *Psychometrika* 13(3), 185-187.

    Examples
    --------
    >>> round(mcnemar_test(9, 2).p_value, 4)
    0.0654
    >>> t = mcnemar_test(9, 2, exact=False)
    >>> round(t.statistic, 4), round(t.p_value, 4)
    (3.2727, 0.0704)
    """
    from scipy.stats import binom, chi2

    b, c = int(count_first), int(count_second)
    if exact:
        stat = float(min(b, c))
        return McNemarTest(b, c, stat, float(min(1.0, 2.0 * binom.cdf(stat, b + c, 0.5))), "exact")
    method = "chi-square with continuity correction" if correction else "chi-square"
    if b + c == 0:
        return McNemarTest(b, c, math.nan, math.nan, method,
                           "no discordant pairs: the chi-square statistic is 0 / 0")
    stat = (abs(b - c) - (1.0 if correction else 0.0)) ** 2 / (b + c)
    return McNemarTest(b, c, stat, float(chi2.sf(stat, 1)), method)
