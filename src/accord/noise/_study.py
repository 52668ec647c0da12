"""The noise model of ``accord noise`` and the gold standard of a file (``accord gold``), one call each.

:func:`noise_model` gives the bound on the noise of the agreed items, the chance differences and the
tolerable disagreements for n items, d disagreements and chance agreement p; :func:`gold_standard_file`
reads a long table and builds its gold standard (:func:`gold_standard`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.results import Result

__all__ = ["NoiseModel", "gold_standard_file", "noise_model"]


@dataclass(frozen=True)
class NoiseModel(Result):
    """The noise model of n items with d disagreements (Beigman Klebanov & Beigman 2009).

    Attributes
    ----------
    bound : NoiseBound
        The bound on the hard items and on the noise of the agreed items.
    chance_difference, chance_difference_normal : ChanceDifference or None
        The agreed items that may be coin flips, by Chebyshev's inequality and the normal approximation
        (None when every item is disagreed).
    tolerance : DisagreementTolerance or None
        The most disagreements for the noise target (None for fewer than two items).
    """

    bound: Any
    chance_difference: Any = None
    chance_difference_normal: Any = None
    tolerance: Any = None


def noise_model(n: int, d: int, p: float, *, confidence: float = 0.95, target_gamma: float = 0.05) -> NoiseModel:
    """The noise bound of the agreed items of *n* items with *d* disagreed and chance agreement *p* on hard items,
    with the chance differences and the tolerable disagreements for the noise target *target_gamma*.

    Examples
    --------
    >>> m = noise_model(100, 5, 0.5)
    >>> m.bound.n_agreed, m.tolerance is not None
    (95, True)
    """
    from accord.noise._comparison import chance_difference
    from accord.noise._model import max_disagreements, noise_bound

    bound = noise_bound(n, d, p, confidence=confidence)
    cd = cdn = None
    if d < n:
        cd = chance_difference(n - d, bound.random_agreements, confidence=confidence)
        cdn = chance_difference(n - d, bound.random_agreements, confidence=confidence, method="normal")
    tol = max_disagreements(n, p, gamma=target_gamma, confidence=confidence) if n >= 2 else None
    return NoiseModel(bound=bound, chance_difference=cd, chance_difference_normal=cdn, tolerance=tol)


def gold_standard_file(path: str | Path, *, unit: str = "unit", coder: str = "coder", value: str = "value",
                       **options: Any) -> Any:
    """:func:`gold_standard` of the long table in *path* (:func:`read_long_table` with its *unit*, *coder* and
    *value* columns); *options* as :func:`gold_standard` takes them."""
    from accord.noise._gold import gold_standard, read_long_table

    return gold_standard(read_long_table(path, unit=unit, coder=coder, value=value), **options)
