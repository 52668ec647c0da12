"""Comparing two algorithms on a noisy gold standard (section 4.1 of the paper).

:func:`chance_difference` gives the difference in accuracy that two algorithms
could show by chance on the hard items of a gold standard of a given size and
noise level.

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from accord._shared.errors import AccordError
from accord._shared.lazy import stats
from accord._shared.results import Result
from accord.noise._model import (
    _check_int,
    _check_open_unit,
)

__all__ = [
    "ChanceDifference",
    "chance_difference",
]


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
