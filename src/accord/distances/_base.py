"""The distance interfaces: what a distance is and what the engine asks of it.

:class:`Distance` is the abstract metric (named, prepared once per value
domain), :class:`PreparedDistance` the metric bound to a domain and its
marginal counts (``pairs``, ``cross_sum``, ``matrix``), and
:class:`DistanceFunction` the protocol of a plain callable ``f(a, b)``.
``DENSE_LIMIT`` bounds the domains on which dense V x V paths are used.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Protocol, runtime_checkable

import numpy as np

from accord._shared.errors import AccordError

#: Above this many distinct values the dense V x V paths are not used.
DENSE_LIMIT = 2048
_BLOCK = 1 << 22  # matrix cells evaluated per block in blocked dense sums


@runtime_checkable
class DistanceFunction(Protocol):
    """A user distance: ``f(a, b) -> float`` with ``f(a, a) == 0``, symmetric, non-negative."""

    def __call__(self, a: Any, b: Any, /) -> float: ...


class PreparedDistance(ABC):
    """A distance bound to one value domain and its pooled marginal counts."""

    values: np.ndarray
    counts: np.ndarray
    #: True when pairs() is cheap numpy arithmetic, so a dense V x V lookup table pays off on small domains.
    dense_ok: bool = False
    #: Points x on a line with delta(i, j) = (x[i] - x[j])^2 when the distance has that form (interval, and
    #: ordinal on mid-point cumulative counts), else None; sums of delta over counts then have closed forms.
    embedding: np.ndarray | None = None
    #: What a user should know about how the distance was computed on this domain (the interval distance on
    #: huge or tiny magnitudes is computed on rescaled values), or None.
    note: str | None = None

    @abstractmethod
    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """delta(values[i], values[j]) elementwise for code arrays *i*, *j*."""

    def matrix(self) -> np.ndarray:
        """The dense V x V matrix of delta (small domains only)."""
        v = len(self.values)
        if v > DENSE_LIMIT * 4:
            raise AccordError(f"a dense {v} x {v} distance matrix is too large; use pairs() or cross_sum()")
        ii, jj = np.meshgrid(np.arange(v), np.arange(v), indexing="ij")
        return self.pairs(ii.ravel(), jj.ravel()).reshape(v, v)

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        """Sum over ordered pairs (v, w), v != w, of a[v] b[w] delta(v, w).

        The default evaluates delta blockwise over the whole domain: O(V^2) time,
        O(block) memory.  Subclasses override it with closed forms or sparse paths.
        """
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        rows = np.flatnonzero(a)
        cols = np.flatnonzero(b)
        if len(rows) == 0 or len(cols) == 0:
            return 0.0
        step = max(1, _BLOCK // len(cols))
        total = 0.0
        for start in range(0, len(rows), step):
            r = rows[start : start + step]
            ii = np.repeat(r, len(cols))
            jj = np.tile(cols, len(r))
            d = self.pairs(ii, jj).reshape(len(r), len(cols))
            total += float(a[r] @ d @ b[cols])
        return total


class PreparedBatch(ABC):
    """A distance bound to one value domain under many marginal counts at once: one row per bootstrap resample.

    What a distance that depends on the marginals (:attr:`Distance.depends_on_marginals`) gives
    :meth:`Distance.prepare_batch`, so that a bootstrap computes every resample of a batch by array arithmetic
    instead of preparing the distance resample by resample.  Row r must equal
    ``distance.prepare(values, counts[r])``.
    """

    values: np.ndarray
    #: (resamples, V) marginal counts, one row per resample
    counts: np.ndarray

    @abstractmethod
    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """(resamples, len(i)): delta(values[i], values[j]) under each row's counts."""

    @abstractmethod
    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(resamples,): for each row r, the sum over ordered pairs (v, w), v != w, of a[r, v] b[r, w] delta_r(v, w)."""


class Distance(ABC):
    """A distance between coding values; subclass it for a new metric.

    Attributes
    ----------
    name : str
        The name shown in results and accepted by :func:`get_distance`.
    depends_on_marginals : bool
        True when delta depends on the pooled value counts (ordinal): each
        bootstrap resample then has its own distance, from
        :meth:`prepare_batch` a batch at a time, or re-prepared resample by
        resample when the distance has no batched form.
    """

    name: str = "distance"
    depends_on_marginals: bool = False

    @abstractmethod
    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        """Bind to a value domain; raise :class:`AccordError` if the values do not suit."""

    def prepare_batch(self, values: np.ndarray, counts: np.ndarray) -> PreparedBatch | None:
        """Bind to a value domain under each row of *counts* (resamples x V) at once, or None (the default) when
        the distance has no batched form: a bootstrap then prepares it resample by resample.  Only a distance
        that depends on the marginals needs one (the others are prepared once)."""
        return None

    def check_data(self, data: Any) -> None:
        """Check the values of *data* (:class:`~accord.Annotations`) before they are compared, naming the unit
        and the coder of a fault; the rank distances check that coders rank the same items.  Default: nothing
        (:meth:`prepare` checks the values themselves)."""
        return None

    def __call__(self, a: Any, b: Any) -> float:
        """delta(a, b) for two single values (convenience; slow)."""
        if a == b:
            return 0.0
        vals = np.empty(2, dtype=object) if not _both_numeric(a, b) else np.array([a, b], dtype=float)
        if vals.dtype == object:
            vals[0], vals[1] = a, b
        prepared = self.prepare(vals, np.ones(2))
        return float(prepared.pairs(np.array([0]), np.array([1]))[0])

    def __repr__(self) -> str:
        return f"<distance {self.name}>"

    def __str__(self) -> str:
        return self.name


def value_place(data: Any, code: int) -> str:
    """``"FILE: unit U, coder C"``: where the first cell holding value *code* of *data* (Annotations) is."""
    from accord._shared.names import shown

    k = int(np.flatnonzero(data.value_index == code)[0])
    where = f"{data.source}: " if data.source else ""
    return f"{where}unit {shown(data.units[data.unit_index[k]])}, coder {shown(data.coders[data.coder_index[k]])}"


def check_each_value(data: Any, check: Any) -> None:
    """Run ``check(value)`` on each distinct value of *data*; an :class:`AccordError` names the first cell."""
    for code, v in enumerate(data.values.tolist()):
        try:
            check(v)
        except AccordError as exc:
            raise AccordError(f"{value_place(data, code)}: {exc}") from None


def _both_numeric(a: Any, b: Any) -> bool:
    return all(
        isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) for x in (a, b)
    )
