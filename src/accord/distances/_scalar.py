"""Scalar distances: nominal, interval, ratio and Krippendorff's ordinal.

Each :class:`~accord.Distance` here prepares a
:class:`~accord.distances._base.PreparedDistance` with numpy pair arithmetic
and, for nominal, interval and ordinal, a closed-form expected sum (ordinal as
the interval distance on mid-point cumulative counts).
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.distances._base import Distance, PreparedBatch, PreparedDistance


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


def text_labels(values: np.ndarray) -> list[str]:
    """The values of *values* that are text (``str``), in the table's order."""
    if values.dtype.kind in "US":
        return [str(v) for v in values.tolist()]
    if values.dtype != object:
        return []
    return [v for v in values.tolist() if isinstance(v, str)]


#: a number written as text, as tools export it: "4", "-1", "2.5", "1e3" (not "nan", "inf" or "1,5")
_NUMBER = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*")


def number_labels(values: np.ndarray) -> np.ndarray | None:
    """The numbers behind *values* when every one is a number or a text label that spells one, else None.

    A rating stored as text (an MTurk answer ``"4"``, a spreadsheet column of digits read as text) is the
    number it spells: the ordinal, interval and ratio distances take ``"10"`` after ``"9"`` with no order
    given.  Any other text label (``"high"``), a boolean or a set gives None.

    Examples
    --------
    >>> number_labels(np.array(["1", "10", "9"], dtype=object))
    array([ 1., 10.,  9.])
    >>> number_labels(np.array(["1", "high"], dtype=object)) is None
    True
    """
    vals = values.tolist()
    if values.dtype.kind in "iuf":
        return values.astype(float)
    out = []
    for v in vals:
        if isinstance(v, str):
            if not _NUMBER.fullmatch(v):
                return None
            out.append(float(v))
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
            out.append(float(v))
        else:
            return None
    x = np.array(out, dtype=float)
    return x if np.isfinite(x).all() else None


def _preview(labels: Sequence[Any], limit: int = 5) -> str:
    from accord._shared.names import shown_list

    return shown_list(labels, limit)


def refuse_unordered_text(name: str, labels: Sequence[str], *, how: str,
                          cli_how: str = '--order "lowest,...,highest"') -> AccordError:
    """The error for text labels under an ordered distance without an order; *how* says how to give one
    (*cli_how* on the command line)."""
    head = (f"the {name} distance needs the order of the text labels ({_preview(sorted(labels))}): their alphabetical "
            "order is not a scale; give them lowest to highest with ")
    return AccordError(head + how, cli=head + cli_how)


def _python_how(cls: str, name: str) -> str:
    return f"order=[...]: distance=accord.{cls}(order=[...]) or accord.get_distance({name!r}, order=[...])"


def check_order(order: Sequence[Hashable], name: str = "order") -> list[Hashable]:
    """*order* as a list: not empty, no value twice, hashable values (one validation step)."""
    if isinstance(order, (str, bytes)) or not isinstance(order, Iterable):
        raise AccordError(f"{name} must be a sequence of the values from lowest to highest; got {order!r}")
    items = list(order)
    if not items:
        raise AccordError(f"{name} must list the values from lowest to highest; got an empty {name}")
    try:
        seen: dict[Hashable, int] = {}
        for v in items:
            seen[v] = seen.get(v, 0) + 1
    except TypeError:
        raise AccordError(f"{name} must hold hashable values; got {order!r}") from None
    twice = [v for v, c in seen.items() if c > 1]
    if twice:
        raise AccordError(f"{name} must name each value once; {_preview(twice)} appear more than once")
    return items


def positions(values: np.ndarray, order: Sequence[Hashable], name: str) -> np.ndarray:
    """The position (0, 1, ...) of each value of *values* in *order*; every value not in it is named."""
    pos = {v: k for k, v in enumerate(order)}
    vals = values.tolist()
    outside = [v for v in vals if v not in pos]
    if outside:
        raise AccordError(
            f"{name} distance: {'a value is' if len(outside) == 1 else f'{len(outside)} values are'} not in the "
            f"given order ({_preview(list(order), 20)}): {_preview(outside)}"
        )
    return np.array([pos[v] for v in vals], dtype=np.int64)


class _OrderedScale(Distance):
    """A scalar distance that can take the order of text labels (``order=``)."""

    def __init__(self, order: Sequence[Hashable] | None = None) -> None:
        self.order = None if order is None else check_order(order)
        self._cached: tuple[np.ndarray, np.ndarray] | None = None

    def _positions(self, values: np.ndarray) -> np.ndarray:
        assert self.order is not None
        cached = self._cached
        if cached is not None and cached[0] is values:  # the bootstrap prepares the same table again and again
            return cached[1]
        pos = positions(values, self.order, self.name)
        self._cached = (values, pos)
        return pos

    def _numeric(self, values: np.ndarray) -> np.ndarray:
        """The numbers behind *values*: their positions in the order, or the values themselves."""
        if self.order is not None:
            return self._positions(values).astype(float)
        if values.dtype.kind in "biuf":
            return values.astype(float)
        text = text_labels(values)
        spelled = number_labels(values) if text else None
        if spelled is not None:  # "1".."5", ratings stored as text: the numbers they spell
            return spelled
        if text:
            raise refuse_unordered_text(self.name, text, how=_python_how(type(self).__name__, self.name))
        for v in values.tolist():
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                from accord._shared.names import shown

                kind = "a set" if isinstance(v, (frozenset, set)) else f"a {type(v).__name__}"
                raise AccordError(
                    f"the {self.name} distance needs numeric values; got {shown(v)} ({kind}); "
                    "use 'nominal', or a set distance for sets"
                )
        try:
            return values.astype(float)
        except OverflowError:
            big = max((v for v in values.tolist() if isinstance(v, int)), key=abs)
            raise AccordError(
                f"the {self.name} distance needs numbers a float holds; got an integer of {len(str(abs(big)))} "
                f"digits ({str(big)[:12]}...), past 1.8e308; use 'nominal'"
            ) from None

    def __repr__(self) -> str:
        return f"<distance {self.name}>" if self.order is None else f"<distance {self.name}, order {self.order!r}>"


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


class Interval(_OrderedScale):
    """Interval distance (b - c)^2 (Krippendorff 1980).

    Parameters
    ----------
    order : sequence, optional
        Text labels from lowest to highest; the labels are then taken as the
        equally spaced numbers 0, 1, 2, ...  Needed for text labels (refused
        without it); numbers need none.

    Examples
    --------
    >>> Interval()(1, 4)
    9.0
    """

    name = "interval"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedInterval(values, counts, self._numeric(values))


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


class Ratio(_OrderedScale):
    """Ratio distance ((b - c) / (b + c))^2 for non-negative values (Krippendorff 1980).

    Parameters
    ----------
    order : sequence, optional
        Text labels from lowest to highest, taken as 0, 1, 2, ... (the first
        label is the zero).  Needed for text labels; numbers need none.

    Examples
    --------
    >>> Ratio()(1, 3)
    0.25
    """

    name = "ratio"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        x = self._numeric(values)
        if (x < 0).any():
            from accord._shared.names import shown

            raise AccordError(f"the ratio distance needs non-negative values; got {shown(values[x < 0][0])}")
        return _PreparedRatio(values, counts, x)


def _cumulative_by_rank(counts: np.ndarray, rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cum, pooled) over the last axis of *counts* (one row of marginals, or one per resample): cum[..., r] the
    counts of the values ranked below r, pooled[..., v] the count of value v's rank.

    Values of one rank (``"2"`` and ``"02"``, which spell one number) are one point of the scale: their counts
    are pooled, so the distance is what it is with one spelling throughout (a value's own count here gave
    tied values a distance from each other in the expected disagreement, and a different alpha).
    """
    by_rank = np.zeros(counts.shape[:-1] + (int(rank.max()) + 1 if len(rank) else 0,))
    np.add.at(by_rank, (..., rank), counts)
    cum = np.concatenate([np.zeros(counts.shape[:-1] + (1,)), np.cumsum(by_rank, axis=-1)], axis=-1)
    return cum, by_rank[..., rank]


def _ordinal_pairs(cum: np.ndarray, pooled: np.ndarray, rank: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """delta(values[i], values[j]) = (sum_{g=b..c} n_g - (n_b + n_c) / 2)^2 over the last axis of *cum* and
    *pooled* (n_g the counts of the ranks b..c; 0 between values of the same rank)."""
    ri, rj = rank[i], rank[j]
    lo, hi = np.minimum(ri, rj), np.maximum(ri, rj)
    span = cum[..., hi + 1] - cum[..., lo]
    d = (span - (pooled[..., i] + pooled[..., j]) / 2.0) ** 2
    return np.where(ri == rj, 0.0, d)


class _PreparedOrdinal(PreparedDistance):
    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, rank: np.ndarray) -> None:
        self.values, self.counts = values, np.asarray(counts, dtype=float)
        # cumulative counts in rank order: cum[r] = sum of counts of ranks < r
        self.cum, self.pooled = _cumulative_by_rank(self.counts, rank)
        self.rank = rank
        # mid-point cumulative counts: delta(i, j) = (mid[i] - mid[j])^2 (see cross_sum)
        self.mid = self.cum[rank] + self.pooled / 2.0 if len(rank) else np.zeros(0)
        self.embedding = self.mid

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return _ordinal_pairs(self.cum, self.pooled, self.rank, i, j)

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


class _PreparedOrdinalBatch(PreparedBatch):
    """:class:`_PreparedOrdinal` under one row of marginal counts per resample: the same formulas over the last
    axis, so row r is ``_PreparedOrdinal(values, counts[r], rank)`` (the bootstraps' batched path)."""

    def __init__(self, values: np.ndarray, counts: np.ndarray, rank: np.ndarray) -> None:
        self.values, self.counts = values, np.asarray(counts, dtype=float)
        self.cum, self.pooled = _cumulative_by_rank(self.counts, rank)
        self.rank = rank
        self.mid = self.cum[:, rank] + self.pooled / 2.0

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return _ordinal_pairs(self.cum, self.pooled, self.rank, np.asarray(i), np.asarray(j))

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The closed form of :meth:`_PreparedOrdinal.cross_sum`, row by row (centred for accuracy)."""
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        sa, sb = a.sum(axis=1), b.sum(axis=1)
        tot = sa + sb
        centre = np.einsum("rv,rv->r", a + b, self.mid) / np.where(tot == 0, 1.0, tot)
        x = self.mid - centre[:, None]
        ax, bx = np.einsum("rv,rv->r", a, x), np.einsum("rv,rv->r", b, x)
        x2 = x * x
        out = sa * np.einsum("rv,rv->r", b, x2) + sb * np.einsum("rv,rv->r", a, x2) - 2.0 * ax * bx
        return np.where(tot == 0, 0.0, out)


class Ordinal(_OrderedScale):
    """Krippendorff's ordinal distance, from the marginal frequencies.

    delta(b, c) = (sum_{g=b}^{c} n_g - (n_b + n_c) / 2)^2, where n_g are the
    pooled counts of the pairable values ranked b..c (Krippendorff 2004, 2011).
    It is not a difference of ranks: it depends on how often the values in
    between were used.  Values of one rank (text spelling one number two
    ways, ``"2"`` and ``"02"``) are one point of the scale, their counts pooled.

    Parameters
    ----------
    order : sequence, optional
        The values from lowest to highest.  Needed for text labels, whose
        alphabetical order is not a scale (refused without it); numbers are
        ranked by their natural order when no order is given.

    Examples
    --------
    >>> d = Ordinal(order=["low", "mid", "high"])
    >>> d
    <distance ordinal, order ['low', 'mid', 'high']>
    >>> from accord import Annotations, alpha
    >>> data = Annotations.from_matrix([["low", "mid", "high", "mid"], ["low", "high", "high", "mid"]])
    >>> round(alpha(data, distance=d).alpha, 4)
    0.79
    """

    name = "ordinal"
    depends_on_marginals = True

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedOrdinal(values, counts, self._rank(values))

    def prepare_batch(self, values: np.ndarray, counts: np.ndarray) -> PreparedBatch:
        """One row of marginal *counts* per resample (resamples x V): the bootstraps' batched path."""
        return _PreparedOrdinalBatch(values, counts, self._rank(values))

    def _rank(self, values: np.ndarray) -> np.ndarray:
        """The rank of each value (tied values share one): its position in ``order``, the number a text label
        spells, or the natural order of numbers; refuses what has no order."""
        if self.order is not None:
            return self._positions(values)
        text = text_labels(values)
        spelled = number_labels(values) if text else None
        if spelled is not None:  # "1".."5": ranked by the numbers they spell ("10" after "9"), ties shared
            return np.unique(spelled, return_inverse=True)[1].astype(np.int64)
        if text:
            raise refuse_unordered_text(self.name, text, how=_python_how("Ordinal", self.name))
        if values.dtype == object:
            kinds = {type(v) for v in values.tolist()}
            if not kinds <= {int, float}:
                found = f"(types found: {', '.join(sorted(k.__name__ for k in kinds))})"
                raise AccordError(f"ordinal distance: values of mixed or unordered types; give order=[...] {found}",
                                  cli=f'ordinal distance: values of mixed or unordered types; give --order '
                                      f'"lowest,...,highest" {found}')
        order_idx = np.argsort(values, kind="stable")
        rank = np.empty(len(values), dtype=np.int64)
        rank[order_idx] = np.arange(len(values))
        return rank
