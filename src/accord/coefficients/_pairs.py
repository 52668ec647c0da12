"""The pair engine: counts of values per unit, pairs within units, marginals.

Every agreement coefficient in accord reduces to counting pairs of values
within units (observed) and across the whole data (expected).  This module
does the counting once, vectorised, and hands the numbers to the statistics.

Notation (Krippendorff 2011): a unit u is *pairable* when it holds m_u >= 2
values; n = sum of m_u over pairable units; n_uv is how often value v occurs in
unit u; n_v = sum_u n_uv.  With a distance delta,

- observed: D_o = (1/n) sum_u 1/(m_u - 1) sum_{b,c} n_ub n_uc delta(b, c)
- expected: D_e = 1/(n(n - 1)) sum_{b,c} n_b n_c delta(b, c)

The sums over (b, c) run over ordered pairs of values; delta(b, b) = 0, so only
pairs of distinct values contribute.  The coincidence matrix
O = N^T diag(1/(m_u - 1)) N - diag(sum_u n_uv / (m_u - 1)) is available for
display; the statistics never need it whole.

Cost: O(E log E) to count (E = number of values), plus the number of pairs of
*distinct values* inside units (at most m_u^2 per unit) for a general
distance, or O(E) for nominal.  Nothing is V x V unless the distance asks
for it on a small domain.

The fused path (:func:`count_matrix`) counts a numeric coders x units matrix of
small integer codes straight into a dense values x units table (one comparison
pass per value and coder row, no long form, no sort); :class:`UnitCounts` then
holds that table, the disagreement sums use it directly (nominal, and the
squared differences of interval and ordinal, in closed form), and the sparse
entries are derived from it only when something asks for them.  With few coders
and few values (:func:`histogram_matrix`, which :func:`fused_counts` prefers),
each unit's row of codes is read as one number and the units are counted by it:
the sums then run over that histogram, and the table is built only for a unit
bootstrap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.lazy import sparse as sp
from accord.data._annotations import Annotations
from accord.distances import DENSE_LIMIT, PreparedDistance
from accord.distances._scalar import _PreparedNominal

__all__ = [
    "UnitCounts",
    "count_matrix",
    "count_values",
    "fused_counts",
    "histogram_matrix",
    "observed_sum",
    "signature_counts",
    "unit_disagreement_sums",
    "within_unit_pairs",
]

#: The fused path (:func:`count_matrix`) takes numeric matrices whose values are integers spanning at most this many.
FUSED_MAX_VALUES = 64
#: ... and at most this many coders (counts per unit fit in a byte).
FUSED_MAX_CODERS = 255
#: Distances with no closed form are summed pair of values by pair of values on the dense table up to this size.
FUSED_PAIR_LIMIT = 16
#: The histogram path (:func:`histogram_matrix`) takes matrices with at most this many possible rows of codes,
#: (values + 1) ** coders: 3 coders and up to 39 values, 4 and 15, 5 and 8, ...
HISTOGRAM_MAX_KEYS = 1 << 16
#: Units counted at a time by :func:`histogram_matrix` (its scratch arrays stay in the processor's cache).
_CHUNK = 1 << 16


@dataclass(frozen=True, eq=False, init=False)
class UnitCounts:
    """The units x values count matrix of the pairable units, sparse or (small domains) dense.

    Built by :func:`count_values` (from :class:`~accord.Annotations`), by
    :func:`count_matrix` (the fused path, straight from a numeric matrix) or by
    :meth:`from_table`.  The sparse entries (``unit``, ``value``, ``count``) are
    derived from the dense ``table`` on first use when only the table was counted.

    Attributes
    ----------
    unit : ndarray of int64
        For each entry, the row (0..P-1) of its pairable unit; entries are sorted by unit, then value.
    value : ndarray of int64
        For each entry, its value code (into ``data.values``).
    count : ndarray of float
        n_uv for each entry.
    unit_ids : ndarray of int64
        For each pairable unit, its index into ``data.units``.
    m : ndarray of float
        Number of values in each pairable unit (m_u >= 2).
    n_values : int
        Size V of the value table.
    n_units : int
        All units, pairable or not.
    n_unpairable_values : int
        Values lost in units with a single value.
    table : ndarray of uint8 or None
        The dense values x pairable-units counts (V x P) when the fused path counted them.
    weight : ndarray of float or None
        How many units each row stands for.  ``None`` (the default): one
        row per unit.  A *signature histogram* has one row per distinct
        value-count vector and the number of units sharing it as its weight
        (see :func:`signature_counts` and :mod:`accord.engines`); every sum over
        units is then weighted, and ``unit_ids`` index signatures, not units.
        :func:`histogram_matrix` gives one row per distinct row of codes (two
        rows may share a signature) and the units behind them on demand
        (:meth:`per_unit`).
    """

    unit_ids: np.ndarray
    m: np.ndarray
    n_values: int
    n_units: int
    n_unpairable_values: int
    table: np.ndarray | None
    weight: np.ndarray | None
    _entries: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(repr=False)
    _unit_rows: UnitCounts | Callable[[], UnitCounts] | None = field(repr=False)

    def __init__(
        self,
        *,
        unit_ids: np.ndarray,
        m: np.ndarray,
        n_values: int,
        n_units: int,
        n_unpairable_values: int,
        unit: np.ndarray | None = None,
        value: np.ndarray | None = None,
        count: np.ndarray | None = None,
        table: np.ndarray | None = None,
        weight: np.ndarray | None = None,
        per_unit: Callable[[], UnitCounts] | None = None,
    ) -> None:
        if table is None and (unit is None or value is None or count is None):
            raise AccordError("UnitCounts needs either the entries (unit, value, count) or the dense table")
        if table is not None and weight is not None:
            raise AccordError("UnitCounts: a dense table has one row per unit; weights go with the sparse entries")
        entries = None if unit is None or value is None or count is None else (unit, value, count)
        for name, val in (
            ("unit_ids", unit_ids), ("m", m), ("n_values", n_values), ("n_units", n_units),
            ("n_unpairable_values", n_unpairable_values), ("table", table), ("weight", weight), ("_entries", entries),
            ("_unit_rows", per_unit),
        ):
            object.__setattr__(self, name, val)

    def _sparse(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._entries is None:
            assert self.table is not None
            u, v = np.nonzero(self.table.T)  # unit-major: sorted by unit, then value
            entries = (u.astype(np.int64), v.astype(np.int64), self.table[v, u].astype(float))
            object.__setattr__(self, "_entries", entries)
            return entries
        return self._entries

    @property
    def unit(self) -> np.ndarray:
        return self._sparse()[0]

    def per_unit(self) -> UnitCounts:
        """The same counts with one row per pairable unit, as a unit bootstrap draws them.

        These counts themselves, unless they are a histogram that knows its units (:func:`histogram_matrix`):
        its unit rows are then built on first use, as :func:`count_matrix` counts them.  A signature histogram
        of an engine (:mod:`accord.engines`) keeps no units and is returned as it is.
        """
        units = self._unit_rows
        if units is None:
            return self
        if not isinstance(units, UnitCounts):
            units = units()
            object.__setattr__(self, "_unit_rows", units)
        return units

    @property
    def value(self) -> np.ndarray:
        return self._sparse()[1]

    @property
    def count(self) -> np.ndarray:
        return self._sparse()[2]

    @classmethod
    def from_table(cls, table: np.ndarray) -> UnitCounts:
        """From a units x values count table (Krippendorff's n_uv; Fleiss' and Siegel & Castellan's a_ij).

        For count data without coder identities, such as the hypothetical
        splits of Beigman Klebanov & Beigman (2009, section 3.3).

        Examples
        --------
        >>> UnitCounts.from_table([[2, 0], [1, 1], [0, 1]]).n
        4.0
        """
        a = np.asarray(table, dtype=float)
        m_all = a.sum(axis=1)
        pairable = m_all >= 2
        unit_ids = np.flatnonzero(pairable)
        u, v = np.nonzero(a[unit_ids])
        return cls(
            unit=u.astype(np.int64),
            value=v.astype(np.int64),
            count=a[unit_ids][u, v],
            unit_ids=unit_ids,
            m=m_all[unit_ids],
            n_values=a.shape[1],
            n_units=a.shape[0],
            n_unpairable_values=int(m_all[~pairable].sum()),
        )

    @property
    def n(self) -> float:
        """The number of pairable values."""
        if self.weight is None:
            return float(self.m.sum())
        return float(self.m @ self.weight)

    @property
    def n_pairable_units(self) -> int:
        """Units kept (those holding at least ``min_values`` values), counting a signature's weight."""
        if self.weight is None:
            return len(self.unit_ids)
        return int(round(float(self.weight.sum())))

    @property
    def n_rows(self) -> int:
        """Rows of the count matrix: units, or signatures when weighted."""
        return len(self.m)

    @property
    def unit_weight(self) -> np.ndarray:
        """The weight of each row (ones when each row is one unit)."""
        return np.ones(len(self.m)) if self.weight is None else self.weight

    def marginals(self, unit_weights: np.ndarray | None = None) -> np.ndarray:
        """n_v: pooled value counts over pairable units (optionally weighting units)."""
        if self.weight is not None:
            unit_weights = self.weight if unit_weights is None else unit_weights * self.weight
        if self.table is not None:
            if unit_weights is None:
                return self.table.sum(axis=1, dtype=np.int64).astype(float)
            w = np.asarray(unit_weights, dtype=float)
            return np.array([row @ w for row in self.table], dtype=float).reshape(self.n_values)
        w = self.count if unit_weights is None else self.count * unit_weights[self.unit]
        return np.bincount(self.value, weights=w, minlength=self.n_values)

    def select(self, rows: np.ndarray) -> UnitCounts:
        """The same counts restricted to the rows where the boolean mask *rows* is true."""
        rows = np.asarray(rows, dtype=bool)
        new_row = np.full(len(rows), -1, dtype=np.int64)
        new_row[rows] = np.arange(int(rows.sum()))
        keep = rows[self.unit]
        w = self.unit_weight
        return UnitCounts(
            unit=new_row[self.unit[keep]],
            value=self.value[keep],
            count=self.count[keep],
            unit_ids=self.unit_ids[rows],
            m=self.m[rows],
            n_values=self.n_values,
            n_units=self.n_units,
            n_unpairable_values=self.n_unpairable_values + int(round(float((self.m * w)[~rows].sum()))),
            weight=None if self.weight is None else self.weight[rows],
        )

    def matrix(self) -> sp.csr_matrix:
        """The pairable-units x values count matrix N as a sparse matrix."""
        return sp.csr_matrix(
            (self.count, (self.unit, self.value)), shape=(self.n_rows, self.n_values)
        )

    def coincidences(self) -> sp.csr_matrix:
        """Krippendorff's coincidence matrix O (values x values), sparse."""
        n = self.matrix()
        uw = self.unit_weight / (self.m - 1.0)
        w = sp.diags(uw)
        o = (n.T @ (w @ n)).tocsr()
        w_e = self.count * uw[self.unit]
        diag = np.bincount(self.value, weights=w_e, minlength=self.n_values)
        return (o - sp.diags(diag)).tocsr()


def count_values(data: Annotations, *, min_values: int = 2) -> UnitCounts:
    """Count each value in each unit and keep the units holding at least *min_values* values.

    The default keeps the pairable units (alpha and the kappa family);
    ``min_values=1`` keeps every coded unit (Gwet's chance term averages
    category shares over every rated subject).

    Examples
    --------
    >>> data = Annotations.from_records([(1, "a", "x"), (1, "b", "x"), (2, "a", "y")])
    >>> uc = count_values(data)
    >>> uc.n, uc.n_pairable_units, uc.n_unpairable_values
    (2.0, 1, 1)
    """
    v = len(data.values)
    u_all = data.unit_index
    m_all = np.bincount(u_all, minlength=data.n_units)
    # distinct (unit, value) entries with their counts
    if data.n_units * max(v, 1) <= max(4 * len(u_all), 1 << 16):  # dense enough for a counting array
        key = u_all * v + data.value_index
        flat = np.bincount(key, minlength=0)
        keys = np.flatnonzero(flat)
        counts = flat[keys]
    else:
        keys, counts = np.unique(u_all * v + data.value_index, return_counts=True)
    units = keys // max(v, 1) if v else keys
    values = keys - units * v if v else keys
    pairable_unit = m_all >= min_values
    keep = pairable_unit[units]
    unit_ids = np.flatnonzero(pairable_unit)
    row_of = np.full(data.n_units, -1, dtype=np.int64)
    row_of[unit_ids] = np.arange(len(unit_ids))
    return UnitCounts(
        unit=row_of[units[keep]],
        value=values[keep].astype(np.int64),
        count=counts[keep].astype(float),
        unit_ids=unit_ids,
        m=m_all[unit_ids].astype(float),
        n_values=v,
        n_units=data.n_units,
        n_unpairable_values=int(m_all[~pairable_unit].sum()),
    )


def _small_codes(matrix: Any, layout: str) -> tuple[np.ndarray, Any, Any] | None:
    """``(coders x units array, lowest value, highest value)`` of a numeric matrix that may hold small integer
    codes (finite, the lowest an integer, at most :data:`FUSED_MAX_VALUES` apart, two coders or more), else None.

    The fused paths' shared first look: one pass for each end of the range; whether every value is an integer is
    checked as the values are counted."""
    if not isinstance(matrix, np.ndarray) or matrix.ndim != 2 or matrix.dtype.kind not in "iuf" or matrix.size == 0:
        return None
    if layout not in ("coders-by-units", "units-by-coders"):
        return None
    arr = matrix if layout == "coders-by-units" else matrix.T
    if arr.shape[0] < 2 or arr.shape[0] > FUSED_MAX_CODERS:
        return None
    if arr.dtype.kind == "f":
        lo, hi = np.fmin.reduce(arr, axis=None), np.fmax.reduce(arr, axis=None)  # NaN only when all are missing
        if not (np.isfinite(lo) and np.isfinite(hi)) or lo != np.floor(lo):
            return None
    else:
        lo, hi = arr.min(), arr.max()
    if float(hi) - float(lo) >= FUSED_MAX_VALUES:
        return None
    return arr, lo, hi


def count_matrix(
    matrix: Any, *, layout: str = "coders-by-units", min_values: int = 2
) -> tuple[UnitCounts, np.ndarray] | None:
    """The fused path: count values per unit straight from a numeric reliability matrix.

    For a numpy array (coders x units, or units x coders with
    ``layout="units-by-coders"``; NaN for missing) whose values are integers
    spanning at most :data:`FUSED_MAX_VALUES` (a small integer domain, the usual
    coding scheme), the values x units table of counts is built with one
    comparison pass per (value, coder) row, no long (unit, coder, value) form and
    no sort in between.  Returns ``(counts, values)``, or None when the matrix is
    not of that kind (other dtypes, other values, fewer than two coders with
    values...), and the caller then takes the general path
    (:func:`~accord.as_annotations` and :func:`count_values`), which also
    validates and reports bad input.  Both paths give the same counts.

    Examples
    --------
    >>> uc, values = count_matrix(np.array([[1.0, 2.0, np.nan], [1.0, 3.0, 3.0]]))
    >>> values, uc.n, uc.n_pairable_units, uc.n_unpairable_values
    (array([1., 2., 3.]), 4.0, 2, 1)
    """
    codes = _small_codes(matrix, layout)
    return None if codes is None else _count_table(*codes, min_values=min_values)


def _count_table(arr: np.ndarray, lo: Any, hi: Any, *, min_values: int) -> tuple[UnitCounts, np.ndarray] | None:
    """:func:`count_matrix` on the range :func:`_small_codes` found."""
    n_coders, n_units = arr.shape
    if arr.dtype.kind == "f":
        missing = np.isnan(arr)
        if int(np.count_nonzero(~missing.all(axis=1))) < 2:
            return None
        m_all = n_coders - missing.sum(axis=0, dtype=np.int64)
    else:
        missing = None
        m_all = np.full(n_units, n_coders, dtype=np.int64)
    span = int(hi - lo) + 1
    pairable = m_all >= min_values
    unit_ids = np.flatnonzero(pairable)
    everything = len(unit_ids) == n_units
    rows = [np.ascontiguousarray(r) if everything else r[unit_ids] for r in arr]
    table = np.zeros((span, len(unit_ids)), dtype=np.uint8)
    for k in range(span):
        code = lo + k
        for r in rows:
            table[k] += r == code
    used = table.any(axis=1)
    counted = int(table.sum(dtype=np.int64))
    if not everything:  # the values of units too small to pair: checked and kept in the value table
        rest = arr[:, ~pairable]
        rest = rest[~np.isnan(rest)] if missing is not None else rest.ravel()
        codes = rest - lo
        if not np.array_equal(codes, np.floor(codes)):
            return None
        used[codes.astype(np.int64)] = True
        counted += len(rest)
    present = arr.size if missing is None else arr.size - int(np.count_nonzero(missing))
    if counted != present:  # some values are not integers
        return None
    values = (lo + np.arange(span)).astype(arr.dtype)[used]
    if not used.all():
        table = table[used]
    return (
        UnitCounts(
            unit_ids=unit_ids,
            m=m_all[unit_ids].astype(float),
            n_values=len(values),
            n_units=n_units,
            n_unpairable_values=int(m_all[~pairable].sum()),
            table=table,
        ),
        values,
    )


def histogram_matrix(
    matrix: Any, *, layout: str = "coders-by-units", min_values: int = 2
) -> tuple[UnitCounts, np.ndarray] | None:
    """The fused path for few coders and few values: count the units by their row of codes.

    Each unit's codes (0 for a missing cell, 1 + the value's offset from the
    lowest otherwise) are read as the digits of one number in base values + 1,
    and the units are counted by that number: one pass over each coder's row,
    a unit at a time only in the processor's cache, and a histogram of at most
    :data:`HISTOGRAM_MAX_KEYS` bins, whose rows of codes give the counts of
    each value.  Returns ``(counts, values)`` as :func:`count_matrix` does, but
    with one weighted row per distinct row of codes (``counts.weight``: how
    many units have it), so every sum over units is one over that histogram;
    ``counts.per_unit()`` builds the table :func:`count_matrix` gives, for a
    unit bootstrap.  None where :func:`count_matrix` declines, and when more
    rows of codes are possible than :data:`HISTOGRAM_MAX_KEYS`.

    Examples
    --------
    >>> uc, values = histogram_matrix(np.array([[1.0, 2.0, np.nan, 1.0], [1.0, 3.0, 3.0, 1.0]]))
    >>> values, uc.n, uc.n_pairable_units, uc.n_unpairable_values, uc.n_rows
    (array([1., 2., 3.]), 6.0, 3, 1, 2)
    >>> uc.per_unit().n_rows
    3
    """
    codes = _small_codes(matrix, layout)
    return None if codes is None or not _few_rows(*codes) else _histogram(*codes, min_values=min_values)


def fused_counts(
    matrix: Any, *, layout: str = "coders-by-units", min_values: int = 2
) -> tuple[UnitCounts, np.ndarray] | None:
    """Counts straight from a numeric matrix of small integer codes: :func:`histogram_matrix` where few rows of
    codes are possible, else :func:`count_matrix`; None where neither applies (the general path then runs).

    Examples
    --------
    >>> uc, values = fused_counts(np.array([[1.0, 2.0, np.nan], [1.0, 3.0, 3.0]]))
    >>> values, uc.n, uc.n_pairable_units, uc.n_unpairable_values
    (array([1., 2., 3.]), 4.0, 2, 1)
    """
    codes = _small_codes(matrix, layout)
    if codes is None:
        return None
    if _few_rows(*codes):
        return _histogram(*codes, min_values=min_values)
    return _count_table(*codes, min_values=min_values)


def _few_rows(arr: np.ndarray, lo: Any, hi: Any) -> bool:
    """Whether :func:`histogram_matrix` takes this range: few possible rows of codes, values exact in floats."""
    if (int(hi - lo) + 2) ** arr.shape[0] > HISTOGRAM_MAX_KEYS:
        return False
    return arr.dtype.kind != "f" or max(abs(float(lo)), abs(float(hi))) < 2.0**50


def _histogram(arr: np.ndarray, lo: Any, hi: Any, *, min_values: int) -> tuple[UnitCounts, np.ndarray] | None:
    """:func:`histogram_matrix` on the range :func:`_small_codes` found."""
    span = int(hi - lo) + 1
    n_coders, n_units = arr.shape
    base = span + 1
    n_keys = base**n_coders
    floating = arr.dtype.kind == "f"
    key, hist = _code_rows(arr, lo, base, n_keys)
    if key is None:
        return None  # some values are not integers
    rows = np.flatnonzero(hist)
    digits = rows // base ** np.arange(n_coders)[:, None] % base  # coders x distinct rows of codes; 0: missing
    present = digits > 0
    if floating and int(np.count_nonzero(present.any(axis=1))) < 2:
        return None  # fewer than two coders with values: the general path says so
    m_row = present.sum(axis=0)
    units_of_row = hist[rows]
    used = np.zeros(base, dtype=bool)
    used[digits[present]] = True
    used = used[1:]
    values = (lo + np.arange(span)).astype(arr.dtype)[used]
    value_of_code = np.cumsum(used) - 1  # code - 1 -> index into values
    pairable = m_row >= min_values
    p_rows = int(np.count_nonzero(pairable))
    n_values = len(values)
    row_of = np.broadcast_to(np.arange(p_rows), (n_coders, p_rows))
    pair_digits = digits[:, pairable]
    seen = pair_digits > 0
    flat = np.bincount(row_of[seen] * n_values + value_of_code[pair_digits[seen] - 1], minlength=p_rows * n_values)
    counts = flat.reshape(p_rows, n_values)
    unit, value = np.nonzero(counts)  # row-major: sorted by row, then value
    m = m_row[pairable].astype(float)
    n_unpairable = int(m_row[~pairable] @ units_of_row[~pairable])
    return (
        UnitCounts(
            unit=unit.astype(np.int64),
            value=value.astype(np.int64),
            count=counts[unit, value].astype(float),
            unit_ids=np.arange(p_rows, dtype=np.int64),
            m=m,
            n_values=n_values,
            n_units=n_units,
            n_unpairable_values=n_unpairable,
            weight=units_of_row[pairable].astype(float),
            per_unit=_UnitRows(key, rows, m_row, counts, pairable, n_units, n_unpairable, min_values),
        ),
        values,
    )


@dataclass(frozen=True, eq=False)
class _UnitRows:
    """The unit rows behind a histogram of rows of codes (:func:`histogram_matrix`), built when called: the table
    :func:`count_matrix` counts, for :meth:`UnitCounts.per_unit`."""

    key: np.ndarray  # each unit's row of codes, as one number
    rows: np.ndarray  # the numbers that occur
    m_row: np.ndarray  # the values in each
    counts: np.ndarray  # pairable rows x values: the count of each value
    pairable: np.ndarray  # which rows
    n_units: int
    n_unpairable_values: int
    min_values: int

    def __call__(self) -> UnitCounts:
        n_keys = int(self.rows[-1]) + 1
        row_m = np.zeros(n_keys, dtype=np.int64)
        row_m[self.rows] = self.m_row
        unit_m = row_m[self.key]
        unit_ids = np.flatnonzero(unit_m >= self.min_values)
        column = np.zeros(n_keys, dtype=np.intp)
        column[self.rows[self.pairable]] = np.arange(len(self.counts))
        table = np.ascontiguousarray(self.counts.T.astype(np.uint8)[:, column[self.key[unit_ids]]])
        return UnitCounts(unit_ids=unit_ids, m=unit_m[unit_ids].astype(float), n_values=self.counts.shape[1],
                          n_units=self.n_units, n_unpairable_values=self.n_unpairable_values, table=table)


def _code_rows(arr: np.ndarray, lo: Any, base: int, n_keys: int) -> tuple[np.ndarray | None, np.ndarray]:
    """Each unit's row of codes as one number (:func:`histogram_matrix`), and how many units have each; the
    numbers None when a value is not an integer."""
    n_coders, n_units = arr.shape
    key = np.empty(n_units, dtype=np.uint16 if n_keys <= 1 << 16 else np.intp)
    hist = np.zeros(n_keys, dtype=np.intp)
    chunk = min(_CHUNK, n_units)
    floating = arr.dtype.kind == "f"
    code, acc, part = np.empty(chunk), np.empty(chunk), np.empty(chunk, dtype=np.intp)
    odd = np.empty(chunk, dtype=bool)
    not_whole = np.zeros(n_coders, dtype=np.int64)  # per coder: cells whose floor differs (NaN, or not an integer)
    for start in range(0, n_units, chunk):
        stop = min(n_units, start + chunk)
        c, a, k, q = code[: stop - start], acc[: stop - start], part[: stop - start], odd[: stop - start]
        for i, row in enumerate(arr):
            cells = row[start:stop]
            if floating:
                np.floor(cells, out=c)
                np.not_equal(c, cells, out=q)
                not_whole[i] += np.count_nonzero(q)
                c -= lo - 1.0  # exact: integers below 2 ** 50
                np.fmax(c, 0.0, out=c)  # a missing cell (NaN): code 0
            else:
                np.subtract(cells, lo, out=c, casting="unsafe")  # 0..63 in the matrix's own type, then float
                c += 1.0
            if i == 0:
                a[...] = c
            else:
                c *= float(base**i)
                a += c
        np.copyto(k, a, casting="unsafe")
        hist += np.bincount(k, minlength=n_keys)
        key[start:stop] = k
    if floating:  # every cell that is not a whole number must be a missing one
        rows = np.flatnonzero(hist)
        missing = rows // base ** np.arange(n_coders)[:, None] % base == 0
        if not np.array_equal(missing @ hist[rows], not_whole):
            return None, hist
    return key, hist


def _dense_disagreement_sums(table: np.ndarray, m: np.ndarray, prepared: PreparedDistance) -> np.ndarray | None:
    """unit_disagreement_sums on the dense values x units table, or None when the distance has no cheap form."""
    if isinstance(prepared, _PreparedNominal):
        sq = np.zeros(table.shape[1], dtype=np.uint16)  # sum_v n_uv^2 <= m_u^2 <= 255^2
        for row in table:
            sq += np.square(row, dtype=np.uint16)
        return m**2 - sq
    x = prepared.embedding
    if x is not None:
        # sum_{b,c} n_b n_c (x_b - x_c)^2 = 2 (m sum_b n_b x_b^2 - (sum_b n_b x_b)^2); x shifted by one of its own
        # points (exact for integer and half-integer points, so equal values give exactly 0)
        x = np.asarray(x, dtype=float)
        x = x - x[len(x) // 2]
        s1 = np.zeros(table.shape[1])
        s2 = np.zeros(table.shape[1])
        for row, xv in zip(table, x, strict=True):
            if xv != 0.0:
                t = row * xv
                s1 += t
                s2 += t * xv
        return 2.0 * (m * s2 - s1 * s1)
    if prepared.dense_ok and len(table) <= FUSED_PAIR_LIMIT:
        d = prepared.matrix()
        out = np.zeros(table.shape[1])
        for b in range(len(table)):
            for c in range(b + 1, len(table)):
                if d[b, c] != 0.0:
                    out += (2.0 * d[b, c]) * (table[b] * table[c].astype(float))
        return out
    return None


def signature_counts(uc: UnitCounts) -> UnitCounts:
    """Collapse units with the same value-count vector into one weighted row (the signature histogram).

    Units with the same counts of each value are exchangeable in every
    coefficient of accord's alpha and kappa families, so the histogram of
    these *signatures* holds all the information of the units, at the size
    of the number of distinct signatures.

    Examples
    --------
    >>> uc = UnitCounts.from_table([[2, 0], [1, 1], [2, 0], [1, 1], [0, 2]])
    >>> sig = signature_counts(uc)
    >>> sig.n_rows, sig.n_pairable_units, sig.n == uc.n
    (3, 5, True)
    """
    if uc.n_rows == 0:
        return uc
    w = uc.unit_weight
    order = np.lexsort((uc.count, uc.value, uc.unit))
    unit, value, count = uc.unit[order], uc.value[order], uc.count[order]
    k = np.bincount(unit, minlength=uc.n_rows)
    width = int(k.max())
    # each row as a padded vector of (value, count) pairs, in value order
    pos = np.arange(len(unit)) - np.repeat(np.cumsum(k) - k, k)
    table = np.full((uc.n_rows, 2 * width), -1.0)
    table[unit, 2 * pos] = value
    table[unit, 2 * pos + 1] = count
    uniq, first, inverse = np.unique(table, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    weight = np.bincount(inverse, weights=w, minlength=len(uniq))
    keep = np.isin(unit, first)
    row = np.full(uc.n_rows, -1, dtype=np.int64)
    row[first] = np.arange(len(first))
    new_unit = row[unit[keep]]
    by_row = np.argsort(new_unit, kind="stable")  # entries grouped by row, as within_unit_pairs reads them
    return UnitCounts(
        unit=new_unit[by_row],
        value=value[keep][by_row],
        count=count[keep][by_row],
        unit_ids=np.arange(len(first), dtype=np.int64),
        m=uc.m[first],
        n_values=uc.n_values,
        n_units=uc.n_units,
        n_unpairable_values=uc.n_unpairable_values,
        weight=weight,
    )


def observed_sum(uc: UnitCounts, prepared: PreparedDistance) -> float:
    """Sum over units of 1/(m_u - 1) sum_{b,c} n_ub n_uc delta(b, c): n D_o, each unit by its weight."""
    per_unit = unit_disagreement_sums(uc, prepared) / (uc.m - 1.0)
    if uc.weight is None:
        return float(per_unit.sum())
    return float(per_unit @ uc.weight)


def within_unit_pairs(uc: UnitCounts) -> tuple[np.ndarray, np.ndarray]:
    """All ordered pairs (i, j), i != j, of entries that share a unit.

    Entries are distinct (unit, value) cells, so a unit with k distinct values
    yields k(k - 1) pairs.  Returned as index arrays into the entry arrays.
    """
    unit = uc.unit
    e = len(unit)
    if e == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    k = np.bincount(unit, minlength=uc.n_rows)
    start = np.concatenate([[0], np.cumsum(k)[:-1]])
    k_e = k[unit]
    left = np.repeat(np.arange(e, dtype=np.int64), k_e)
    offs = np.arange(len(left), dtype=np.int64) - np.repeat(np.cumsum(k_e) - k_e, k_e)
    right = start[unit][left] + offs
    keep = left != right
    return left[keep], right[keep]


def unit_disagreement_sums(uc: UnitCounts, prepared: PreparedDistance) -> np.ndarray:
    """For each pairable unit, sum over ordered value pairs of n_ub n_uc delta(b, c).

    delta is evaluated once per distinct pair of values that co-occur in a unit.
    Nominal takes the O(E) shortcut m_u^2 - sum_v n_uv^2.  With a signature
    histogram (``uc.weight``), one sum per signature.
    """
    p = uc.n_rows
    if uc.table is not None:
        dense = _dense_disagreement_sums(uc.table, uc.m, prepared)
        if dense is not None:
            return dense
    if isinstance(prepared, _PreparedNominal):
        sq = np.bincount(uc.unit, weights=uc.count**2, minlength=p)
        return uc.m**2 - sq
    left, right = within_unit_pairs(uc)
    if len(left) == 0:
        return np.zeros(p)
    b, c = uc.value[left], uc.value[right]
    if prepared.dense_ok and uc.n_values <= DENSE_LIMIT:
        delta = prepared.matrix()[b, c]  # a small lookup table beats sorting the pairs
    else:
        v = np.int64(uc.n_values)
        lo, hi = np.minimum(b, c), np.maximum(b, c)
        pair_keys, inverse = np.unique(lo * v + hi, return_inverse=True)
        delta = prepared.pairs(pair_keys // v, pair_keys % v)[inverse.reshape(-1)]
    w = uc.count[left] * uc.count[right] * delta
    return np.bincount(uc.unit[left], weights=w, minlength=p)
