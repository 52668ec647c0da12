"""Scalar distances: nominal, interval, ratio and Krippendorff's ordinal.

Each :class:`~accord.distances.base.Distance` here prepares a
:class:`~accord.distances.base.PreparedDistance` with numpy pair arithmetic
and, for nominal, interval and ordinal, a closed-form expected sum (ordinal as
the interval distance on mid-point cumulative counts).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

import numpy as np

from accord.distances.base import Distance, PreparedDistance
from accord.errors import AccordError


class _PreparedNominal(PreparedDistance):
    def __init__(self, values: np.ndarray, counts: np.ndarray) -> None:
        self.values, self.counts = values, counts

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return (np.asarray(i) != np.asarray(j)).astype(float)

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        return float(a.sum() * b.sum() - a @ b)


class Nominal(Distance):
    """Nominal distance: 0 for equal values, 1 otherwise (Krippendorff 1980).

    Examples
    --------
    >>> Nominal()("a", "b"), Nominal()("a", "a")
    (1.0, 0.0)
    """

    name = "nominal"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedNominal(values, counts)


#: Values whose largest magnitude lies outside [2**-SAFE_EXPONENT, 2**SAFE_EXPONENT] are rescaled by a power
#: of two before any arithmetic: their squares, and sums of n^2 of them, would overflow or underflow a float.
SAFE_EXPONENT = 256


def _rescaled(x: np.ndarray) -> tuple[np.ndarray, int]:
    """(x / 2**k, k): k = 0 for magnitudes a float squares safely, else the largest magnitude made [0.5, 1).

    Dividing by a power of two is exact (``numpy.ldexp``), and the interval and
    ratio distances are scale-free in alpha: the interval distance scales every
    disagreement by 4**-k, which cancels in D_o / D_e; the ratio distance does
    not change at all.
    """
    if len(x) == 0:
        return x, 0
    top = float(np.max(np.abs(x)))
    if top == 0.0 or 2.0**-SAFE_EXPONENT <= top <= 2.0**SAFE_EXPONENT:
        return x, 0
    k = math.frexp(top)[1]
    return np.ldexp(x, -k), k


def _numeric(values: np.ndarray, name: str) -> np.ndarray:
    if values.dtype.kind in "biuf":
        return values.astype(float)
    for v in values.tolist():
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise AccordError(
                f"the {name} distance needs numeric values; got {v!r} ({type(v).__name__}); "
                "use 'nominal', or 'ordinal' with an order"
            )
    try:
        return values.astype(float)
    except OverflowError:
        big = max((v for v in values.tolist() if isinstance(v, int)), key=abs)
        raise AccordError(
            f"the {name} distance needs numbers a float holds; got an integer of {len(str(abs(big)))} digits "
            f"({str(big)[:12]}...), past 1.8e308; use 'nominal'"
        ) from None


class _PreparedInterval(PreparedDistance):
    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, x: np.ndarray) -> None:
        top = float(np.max(np.abs(x))) if len(x) else 0.0
        x, k = _rescaled(x)
        self.values, self.counts, self.x = values, counts, x
        self.embedding = x
        #: the distances are (x_i - x_j)^2 / 4**scale_exponent
        self.scale_exponent = k
        if k:
            why, how = ("overflow", f"divided by 2^{k}") if k > 0 else ("underflow", f"multiplied by 2^{-k}")
            self.note = (
                f"the values reach {top:.3g} in magnitude, whose squared differences {why} a float: the interval "
                f"distance was computed on the values {how} (alpha does not depend on the scale; the observed and "
                "expected disagreements are in those units)"
            )

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return (self.x[i] - self.x[j]) ** 2

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        # sum a_v b_w (x_v - x_w)^2 = A sum b x^2 + B sum a x^2 - 2 (sum a x)(sum b x), centred for accuracy
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        tot = a.sum() + b.sum()
        centre = ((a + b) @ self.x) / tot if tot else 0.0
        x = self.x - centre
        return float(a.sum() * (b @ x**2) + b.sum() * (a @ x**2) - 2.0 * (a @ x) * (b @ x))


class Interval(Distance):
    """Interval distance (b - c)^2 (Krippendorff 1980).

    Examples
    --------
    >>> Interval()(1, 4)
    9.0
    """

    name = "interval"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedInterval(values, counts, _numeric(values, self.name))


class _PreparedRatio(PreparedDistance):
    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, x: np.ndarray) -> None:
        # ((b - c) / (b + c))^2 does not change when both are divided by 2^k; b + c must not overflow
        self.values, self.counts, self.x = values, counts, _rescaled(x)[0]

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        s = self.x[i] + self.x[j]
        d = self.x[i] - self.x[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(s == 0, 0.0, (d / np.where(s == 0, 1.0, s)) ** 2)
        return out


class Ratio(Distance):
    """Ratio distance ((b - c) / (b + c))^2 for non-negative values (Krippendorff 1980).

    Examples
    --------
    >>> Ratio()(1, 3)
    0.25
    """

    name = "ratio"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        x = _numeric(values, self.name)
        if (x < 0).any():
            raise AccordError(f"the ratio distance needs non-negative values; got {x[x < 0][0]!r}")
        return _PreparedRatio(values, counts, x)


class _PreparedOrdinal(PreparedDistance):
    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, rank: np.ndarray) -> None:
        self.values, self.counts = values, np.asarray(counts, dtype=float)
        # cumulative counts in rank order: cum[r] = sum of counts of ranks < r
        order = np.argsort(rank, kind="stable")
        by_rank = np.zeros(int(rank.max()) + 1 if len(rank) else 0)
        np.add.at(by_rank, rank, self.counts)
        self.cum = np.concatenate([[0.0], np.cumsum(by_rank)])
        self.rank = rank
        self._order = order
        # mid-point cumulative counts: delta(i, j) = (mid[i] - mid[j])^2 (see cross_sum)
        self.mid = self.cum[rank] + self.counts / 2.0 if len(rank) else np.zeros(0)
        self.embedding = self.mid

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        ri, rj = self.rank[i], self.rank[j]
        lo, hi = np.minimum(ri, rj), np.maximum(ri, rj)
        span = self.cum[hi + 1] - self.cum[lo]
        d = (span - (self.counts[i] + self.counts[j]) / 2.0) ** 2
        return np.where(ri == rj, 0.0, d)

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        """Sum over ordered pairs of a[v] b[w] delta(v, w) in O(V) after the rank sort, no V x V matrix.

        For ranks i < j, sum_{g=i..j} n_g - (n_i + n_j)/2 = P_j - P_i with P_k = sum_{g<k} n_g + n_k/2,
        the mid-point cumulative count; so the ordinal distance is the interval distance on P, and its
        cross sum has the interval closed form (centred for accuracy).
        """
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        tot = a.sum() + b.sum()
        if tot == 0:
            return 0.0
        x = self.mid - ((a + b) @ self.mid) / tot
        return float(a.sum() * (b @ x**2) + b.sum() * (a @ x**2) - 2.0 * (a @ x) * (b @ x))


class Ordinal(Distance):
    """Krippendorff's ordinal distance, from the marginal frequencies.

    delta(b, c) = (sum_{g=b}^{c} n_g - (n_b + n_c) / 2)^2, where n_g are the
    pooled counts of the pairable values ranked b..c (Krippendorff 2004, 2011).
    It is not a difference of ranks: it depends on how often the values in
    between were used.

    Parameters
    ----------
    order : sequence, optional
        The values from lowest to highest.  Default: the natural order of the
        values (numbers, or strings alphabetically).

    Examples
    --------
    >>> d = Ordinal(order=["low", "mid", "high"])
    >>> d
    <distance ordinal>
    """

    name = "ordinal"
    depends_on_marginals = True

    def __init__(self, order: Sequence[Hashable] | None = None) -> None:
        self.order = None if order is None else list(order)

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        if self.order is not None:
            pos = {v: k for k, v in enumerate(self.order)}
            try:
                rank = np.array([pos[v] for v in values.tolist()], dtype=np.int64)
            except KeyError as exc:
                raise AccordError(
                    f"ordinal distance: value {exc.args[0]!r} is not in the given order {self.order!r}"
                ) from None
        else:
            if values.dtype == object:
                kinds = {type(v) for v in values.tolist()}
                if not (kinds <= {str} or kinds <= {int, float}):
                    raise AccordError(
                        "ordinal distance: values of mixed or unordered types; give order=[...] "
                        f"(types found: {', '.join(sorted(k.__name__ for k in kinds))})"
                    )
            order_idx = np.argsort(values, kind="stable")
            rank = np.empty(len(values), dtype=np.int64)
            rank[order_idx] = np.arange(len(values))
        return _PreparedOrdinal(values, counts, rank)
