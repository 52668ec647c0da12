"""Distances from Python callables: :class:`FunctionDistance` and :func:`make_distance`.

A callable ``f(a, b) -> float`` is evaluated once per distinct pair of values
needed, in Python, and checked to return a finite number >= 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown
from accord.distances._base import Distance, DistanceFunction, PreparedDistance


class _PreparedFunction(PreparedDistance):
    def __init__(self, func: Callable[[Any, Any], float], values: np.ndarray, counts: np.ndarray,
                 name: str) -> None:
        self.func, self.values, self.counts, self.name = func, values, counts, name
        self._vals = values.tolist()

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        vals = self._vals
        out = np.empty(len(i))
        for n, (a, b) in enumerate(zip(np.asarray(i).tolist(), np.asarray(j).tolist(), strict=True)):
            if a == b:
                out[n] = 0.0
                continue
            d = self.func(vals[a], vals[b])
            if not isinstance(d, (int, float, np.integer, np.floating)) or not math.isfinite(d) or d < 0:
                raise AccordError(
                    f"distance {self.name!r} returned {shown(d)} for ({shown(vals[a])}, {shown(vals[b])}); "
                    "a distance must be a finite number >= 0"
                )
            out[n] = d
        return out


@dataclass(frozen=True, repr=False)
class FunctionDistance(Distance):
    """A distance from a Python callable ``f(a, b) -> float``.

    Evaluated once per distinct pair of values that is needed, in Python: fine
    for domains of a few thousand values.  The function must be symmetric,
    non-negative and zero on equal values.
    """

    func: Callable[[Any, Any], float]
    name: str = "custom"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedFunction(self.func, values, counts, self.name)


def make_distance(func: DistanceFunction, *, name: str | None = None) -> FunctionDistance:
    """Wrap a callable ``f(a, b) -> float`` as a :class:`Distance`.

    Examples
    --------
    >>> d = make_distance(lambda a, b: abs(a - b), name="absolute")
    >>> d(2, 5)
    3.0
    """
    if not callable(func):
        raise AccordError(f"distance must be a name, a Distance or a callable; got {func!r}")
    return FunctionDistance(func, name or getattr(func, "__name__", "custom"))
