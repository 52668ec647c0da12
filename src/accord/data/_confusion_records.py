"""The long records of a confusion matrix: below :mod:`accord.data._annotations`, which builds
:meth:`~accord.Annotations.from_confusion` from them (:mod:`accord.data._confusion`, above data, reads the tables).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, plural
from accord._shared.names import shown

__all__ = ["confusion_records"]

#: The most units a confusion matrix may count: each count is a unit held in memory (two values and two coders).
_MAX_UNITS = 100_000_000


def _label(x: Any) -> Any:
    """A header cell as a number when it reads as one (so "1" in the header matches 1 in the first column)."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return int(x) if float(x).is_integer() else float(x)
    s = str(x).strip()
    try:
        return int(s)
    except ValueError:
        pass
    try:
        f = float(s)
    except ValueError:
        return s
    return int(f) if f.is_integer() else f


def confusion_records(
    table: Any,
    *,
    categories: Sequence[Hashable] | None = None,
    coders: tuple[Hashable, Hashable] = ("rows", "columns"),
    source: str | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The long records (unit, coder, value) of a confusion matrix, checked: one unit per counted pair.

    :meth:`accord.Annotations.from_confusion` builds the annotations from them.
    """
    where = source or "table"
    if not isinstance(coders, (tuple, list)) or len(coders) != 2 or coders[0] == coders[1]:
        raise AccordError(f"coders must name two different coders; got {coders!r}")
    if isinstance(table, pd.DataFrame):
        rows = [_label(x) for x in table.index]
        cols = [_label(x) for x in table.columns]
        if len(set(rows)) != len(rows) or len(set(cols)) != len(cols):
            which = "first column" if len(set(rows)) != len(rows) else "header"
            raise AccordError(f"{where}: a category repeats in the {which}")
        if set(rows) != set(cols):
            only_r = [c for c in rows if c not in cols]
            only_c = [c for c in cols if c not in rows]
            raise AccordError(
                f"{where}: the rows and the columns must name the same categories; rows only: {only_r!r}, "
                f"columns only: {only_c!r}"
            )
        frame = table.copy()
        frame.index, frame.columns = rows, cols
        frame = frame.loc[rows, rows]
        cats = rows
        raw = frame.to_numpy(dtype=object)
    else:
        raw = np.asarray(table, dtype=object)
        if raw.ndim != 2:
            raise AccordError(f"{where}: a confusion matrix is a square table of counts; got shape {raw.shape}")
        cats = list(range(raw.shape[0]))
    if raw.ndim != 2 or raw.shape[0] != raw.shape[1] or raw.shape[0] == 0:
        raise AccordError(f"{where}: a confusion matrix is a square table of counts; got shape {raw.shape}")
    if categories is not None:
        given = list(categories)
        if len(given) != raw.shape[0] or len(set(given)) != len(given):
            raise AccordError(f"categories must name the {plural(raw.shape[0], 'category')} once each; got {given!r}")
        if isinstance(table, pd.DataFrame):
            if set(given) != set(cats):
                raise AccordError(f"categories {given!r} are not the table's categories {cats!r}")
            order = [cats.index(c) for c in given]
            raw = raw[np.ix_(order, order)]
        cats = given
    counts = np.zeros(raw.shape, dtype=np.int64)
    total = 0
    for (i, j), x in np.ndenumerate(raw):
        if isinstance(x, str) and x.strip().isdigit() and len(x.strip()) <= 4000:
            x = int(x.strip())  # a count written as text, read exactly
        if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
            n: float = int(x)  # exactly: a count past 2**53 is not rounded
        else:
            try:
                n = float(x)
            except (TypeError, ValueError, OverflowError):
                n = float("nan")
        if not (n >= 0 and (isinstance(n, int) or float(n).is_integer())):
            raise AccordError(
                f"{where}: the count of row {cats[i]!r}, column {cats[j]!r} must be a non-negative integer; "
                f"got {shown(x)}"
            )
        total += int(n)
        if total > _MAX_UNITS:
            held = f"{int(n):,}" if int(n) < 10**24 else f"a count of {len(str(int(n)))} digits"
            raise AccordError(
                f"{where}: the table counts more than {_MAX_UNITS:,} units (row {cats[i]!r}, column {cats[j]!r} "
                f"holds {held}); a confusion matrix is read as one unit per count, and accord reads at most "
                f"{_MAX_UNITS:,}"
            )
        counts[i, j] = int(n)
    if total == 0:
        raise AccordError(f"{where}: the table counts no units")
    flat = counts.ravel()
    q = counts.shape[0]
    cell = np.repeat(np.arange(q * q), flat)
    first, second = cell // q, cell % q
    values = np.empty(q, dtype=object)
    values[:] = cats
    v = np.empty(2 * total, dtype=object)
    v[0::2], v[1::2] = values[first], values[second]
    units = np.repeat(np.arange(total), 2)
    who = np.empty(2 * total, dtype=object)
    who[0::2], who[1::2] = coders[0], coders[1]
    return units, who, v
