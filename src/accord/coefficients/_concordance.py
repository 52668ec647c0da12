r"""Kendall's coefficient of concordance W and Lin's concordance correlation coefficient.

Both read the units x coders matrix of numeric ratings, complete units only (those some coder left out
are dropped, counted and said in a warning, as R's irr does with ``na.omit``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.lazy import stats
from accord._shared.results import Coefficient
from accord.coefficients._rating_matrix import rating_matrix
from accord.data._annotations import Annotations, Layout

__all__ = ["CCCResult", "KendallWResult", "kendall_w", "lin_ccc"]


@dataclass(frozen=True)
class KendallWResult(Coefficient):
    """Kendall's W with its chi-square test.

    Attributes
    ----------
    w : float
        Kendall's coefficient of concordance, tie-corrected unless ``tie_correction`` is false; NaN when
        undefined.
    chi_square, df, p_value : float
        Friedman's statistic m (n - 1) W, its n - 1 degrees of freedom and upper-tail p-value.
    tie_correction : bool
    ties : float
        T = sum over coders and groups of tied ratings of (t^3 - t).
    n_units, n_coders : int
        n units ranked (complete units) and m coders.
    n_units_dropped : int
        Units some coder left unrated, left out.
    """

    _value_field: ClassVar[str] = "w"
    _coefficient_id: ClassVar[str] = "kendall_w"

    w: float
    chi_square: float
    df: int
    p_value: float
    tie_correction: bool
    ties: float
    n_units: int
    n_coders: int
    n_units_dropped: int = 0
    undefined_reason: str | None = None


def kendall_w(
    data: Annotations, *, tie_correction: bool = True, layout: Layout = "coders-by-units"
) -> KendallWResult:
    r"""Kendall & Babington Smith's (1939) coefficient of concordance W among m coders ranking n units.

    Parameters
    ----------
    data : Annotations or array-like
        Numeric ratings (scores or ranks); each coder's ratings are ranked over the units, ties at
        their mean rank.  Units not rated by every coder are left out (a warning says how many).
    tie_correction : bool
        Correct for ties (Kendall 1948; Siegel & Castellan 1988, 9.3); R's irr ``kendall`` has it as
        ``correct=TRUE`` (its default is FALSE).
    layout : {"coders-by-units", "units-by-coders"}

    Returns
    -------
    KendallWResult

    Notes
    -----
    With R_i the sum of unit i's ranks over the m coders, S = sum_i (R_i - mean R)^2 and T the tie
    term (t^3 - t summed over every coder's groups of t tied ratings):

    .. math:: W = \frac{12 S}{m^2 (n^3 - n) - m T}, \qquad \chi^2 = m (n - 1) W \sim \chi^2_{n-1}.

    chi^2 is Friedman's statistic with its tie correction (``scipy.stats.friedmanchisquare``).

    References
    ----------
    Kendall, M. G., & Babington Smith, B. (1939). The problem of m rankings. Annals of Mathematical
    Statistics 10(3), 275-287.
    Siegel, S., & Castellan, N. J. (1988). Nonparametric Statistics for the Behavioral Sciences,
    2nd ed., section 9.3.

    Examples
    --------
    >>> ranks = [[1, 2, 3, 4, 5], [2, 1, 3, 4, 5], [1, 3, 2, 5, 4]]  # three coders rank five units
    >>> res = kendall_w(ranks)
    >>> round(res.w, 4), round(res.chi_square, 3), res.df
    (0.8444, 10.133, 4)
    """
    if not isinstance(tie_correction, bool):
        raise AccordError(f"tie_correction must be True or False; got {tie_correction!r}")
    m_ = rating_matrix(data, name="kendall_w", layout=layout)
    x = m_.x
    n, m = x.shape
    ranks = stats.rankdata(x, axis=0)
    ties = 0.0
    for col in x.T:  # one pass per coder (m is small), tie groups by sorting
        _, t = np.unique(col, return_counts=True)
        ties += float((t.astype(float) ** 3 - t).sum())
    r = ranks.sum(axis=1)
    s = float(((r - r.mean()) ** 2).sum())
    den = m * m * (n**3 - n) - (m * ties if tie_correction else 0.0)
    reason = None
    if den <= 0 or n < 2:
        reason = "every coder gave every unit the same rating"
        warn_undefined("kendall_w", reason)
        w = math.nan
    else:
        w = 12.0 * s / den
    chi2 = m * (n - 1) * w
    p = float(stats.chi2.sf(chi2, n - 1)) if reason is None else math.nan
    return KendallWResult(w=w, chi_square=chi2, df=n - 1, p_value=p, tie_correction=tie_correction, ties=ties,
                          n_units=n, n_coders=m, n_units_dropped=m_.n_units_dropped, undefined_reason=reason)


@dataclass(frozen=True)
class CCCResult(Coefficient):
    """Lin's concordance correlation coefficient (and, for more coders, the overall CCC).

    Attributes
    ----------
    ccc : float
        rho_c; NaN when undefined.
    pearson_r : float
        Pearson's r (precision); two coders only, else NaN.
    bias_correction : float
        C_b = rho_c / r (accuracy); two coders only.
    location_shift, scale_shift : float
        u = (mean_1 - mean_2) / sqrt(s_1 s_2) and v = s_1 / s_2; two coders only.
    standard_error_z : float
        Lin's (1989) standard error of the z-transformed rho_c; two coders only, else NaN.
    coders : tuple
        The coders compared.
    n_units, n_coders, n_units_dropped : int
    """

    _value_field: ClassVar[str] = "ccc"
    _coefficient_id: ClassVar[str] = "lin_ccc"

    ccc: float
    pearson_r: float
    bias_correction: float
    location_shift: float
    scale_shift: float
    standard_error_z: float
    coders: tuple[Any, ...]
    n_units: int
    n_coders: int
    n_units_dropped: int = 0
    undefined_reason: str | None = None

    def _display_name(self) -> str:
        return "Lin's CCC" if self.n_coders <= 2 else "overall CCC"

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Lin's (1989) interval: tanh(atanh(rho_c) +/- z * standard_error_z); two coders only."""
        if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
            raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
        if math.isnan(self.standard_error_z):
            raise AccordError(
                "Lin's interval is for two coders with a defined rho_c below 1"
                + (f" ({self.undefined_reason})" if self.undefined_reason else f"; there are {self.n_coders}")
            )
        z = stats.norm.ppf(0.5 + confidence_level / 2)
        t = math.atanh(self.ccc)
        return (math.tanh(t - z * self.standard_error_z), math.tanh(t + z * self.standard_error_z))


def lin_ccc(
    data: Annotations, *, coders: tuple[Any, Any] | None = None, layout: Layout = "coders-by-units"
) -> CCCResult:
    r"""Lin's (1989) concordance correlation coefficient between two coders' numeric ratings.

    Parameters
    ----------
    data : Annotations or array-like
        Numeric ratings; units not rated by every coder compared are left out (a warning says how many).
        With more than two coders (and no *coders*), the overall CCC of all of them.
    coders : (a, b), optional
        The two coders to compare.
    layout : {"coders-by-units", "units-by-coders"}

    Returns
    -------
    CCCResult

    Notes
    -----
    With means mu_j, variances s_j^2 and covariance s_12 taken with divisor n (Lin 1989):

    .. math:: \rho_c = \frac{2 s_{12}}{s_1^2 + s_2^2 + (\mu_1 - \mu_2)^2}, \quad
              \sigma^2_Z = \frac{1}{n-2}\left[\frac{(1-r^2)\rho_c^2}{(1-\rho_c^2) r^2}
              + \frac{2\rho_c^3(1-\rho_c)u^2}{r(1-\rho_c^2)^2} - \frac{\rho_c^4 u^4}{2 r^2 (1-\rho_c^2)^2}\right]

    for Z = atanh(rho_c), u = (mu_1 - mu_2) / sqrt(s_1 s_2).  For m > 2 coders, the overall CCC
    2 sum_{j<l} s_jl / ((m - 1) sum_j s_j^2 + sum_{j<l} (mu_j - mu_l)^2) (Lin 1989, section 5; Barnhart,
    Haber & Song 2002), without an interval.

    References
    ----------
    Lin, L. I.-K. (1989). A concordance correlation coefficient to evaluate reproducibility.
    Biometrics 45(1), 255-268 (and the correction, Biometrics 56, 2000, 324-325).
    Barnhart, H. X., Haber, M., & Song, J. (2002). Overall concordance correlation coefficient for
    evaluating agreement among multiple observers. Biometrics 58(4), 1020-1027.

    Examples
    --------
    >>> res = lin_ccc([[1.0, 2.0, 3.0, 4.0, 5.0], [1.5, 2.0, 3.5, 4.0, 5.5]])
    >>> round(res.ccc, 4), round(res.pearson_r, 4)
    (0.9639, 0.9853)
    """
    m_ = rating_matrix(data, name="lin_ccc", layout=layout, coders=coders, min_units=3)
    x = m_.x
    n, m = x.shape
    mu = x.mean(axis=0)
    cov = np.cov(x, rowvar=False, bias=True)
    var = np.diag(cov)
    iu = np.triu_indices(m, 1)
    num = 2.0 * float(cov[iu].sum())
    den = (m - 1) * float(var.sum()) + float(((mu[:, None] - mu[None, :])[iu] ** 2).sum())
    reason = None
    nan = math.nan
    if den <= 0:
        reason = "every coder gave every unit the same rating"
        warn_undefined("lin_ccc", reason)
        return CCCResult(ccc=nan, pearson_r=nan, bias_correction=nan, location_shift=nan, scale_shift=nan,
                         standard_error_z=nan, coders=tuple(m_.coders.tolist()), n_units=n, n_coders=m,
                         n_units_dropped=m_.n_units_dropped, undefined_reason=reason)
    rho_c = num / den
    r = u = v = cb = se = nan
    if m == 2:
        s1, s2 = math.sqrt(var[0]), math.sqrt(var[1])
        r = float(cov[0, 1] / (s1 * s2)) if s1 > 0 and s2 > 0 else nan
        u = float((mu[0] - mu[1]) / math.sqrt(s1 * s2)) if s1 > 0 and s2 > 0 else nan
        v = s1 / s2 if s2 > 0 else nan
        cb = rho_c / r if r and not math.isnan(r) else nan
        if not math.isnan(r) and r != 0 and abs(rho_c) < 1:
            d = 1.0 - rho_c**2
            var_z = ((1 - r * r) * rho_c**2 / (d * r * r) + 2 * rho_c**3 * (1 - rho_c) * u * u / (r * d * d)
                     - rho_c**4 * u**4 / (2 * r * r * d * d)) / (n - 2)
            se = math.sqrt(var_z) if var_z >= 0 else nan
    return CCCResult(ccc=rho_c, pearson_r=r, bias_correction=cb, location_shift=u, scale_shift=v,
                     standard_error_z=se, coders=tuple(m_.coders.tolist()), n_units=n, n_coders=m,
                     n_units_dropped=m_.n_units_dropped, undefined_reason=reason)
