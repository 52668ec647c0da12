"""Values as :class:`~accord.Annotations` holds them: missing cells, normalised values (lists and sets as
frozensets, numpy scalars as Python ones) and their integer codes (distinct values in a stable order)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError


def _is_missing(x: Any) -> bool:
    if x is None or x is pd.NA or x is pd.NaT:
        return True
    if isinstance(x, float | np.floating):
        return bool(np.isnan(x))
    return False


def _normalise_value(x: Any) -> Any:
    """Lists and sets become frozensets; numpy scalars become Python scalars."""
    if isinstance(x, (list, set, np.ndarray)):
        return frozenset(_normalise_value(v) for v in x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _is_bool(x: Any) -> bool:
    return isinstance(x, bool | np.bool_)


def _factorize(obj: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``pandas.factorize`` that keeps booleans apart from the numbers equal to them.

    ``True == 1 == 1.0`` and their hashes agree, so ``pandas.factorize`` gives them
    one code; a boolean annotation is not the number 1, so cells holding a bool
    get codes of their own.  Only the cells whose value equals 0 or 1 are looked at.
    """
    codes, uniques = pd.factorize(obj, sort=False, use_na_sentinel=True)
    uniques = np.asarray(uniques, dtype=object)
    # the labels equal to 0 or 1 (a hashed lookup over the distinct labels), then the exact test on those few
    candidates = np.flatnonzero(pd.Index(uniques, dtype=object).isin([0, 1]))
    suspect = [
        int(i)
        for i in candidates
        if (_is_bool(u := uniques[i]) or isinstance(u, int | float | np.number)) and not isinstance(u, complex)
        and u in (0, 1)
    ]
    if not suspect:
        return codes, uniques
    cells = np.flatnonzero(np.isin(codes, suspect))
    is_bool = np.fromiter((_is_bool(x) for x in obj[cells]), dtype=bool, count=len(cells))
    extra: list[Any] = []
    for code in suspect:
        mine = codes[cells] == code
        bools, others = cells[mine & is_bool], cells[mine & ~is_bool]
        if len(bools) and len(others):
            uniques[code] = obj[others[0]]
            codes[bools] = len(uniques) + len(extra)
            extra.append(bool(obj[bools[0]]))
        elif len(bools):
            uniques[code] = bool(obj[bools[0]])
    if extra:
        tail = np.empty(len(extra), dtype=object)
        tail[:] = extra
        uniques = np.concatenate([uniques, tail])
    return codes, uniques


def _intern(labels: np.ndarray, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 and the table of distinct labels, sorted when the labels allow it."""
    if labels.dtype.kind in "biuf":
        uniques, codes = np.unique(labels, return_inverse=True)
        return codes.astype(np.int64).reshape(-1), uniques
    try:
        codes, uniques = _factorize(labels)
    except TypeError as exc:
        raise AccordError(f"{what} labels must be hashable: {exc}") from None
    kinds = {type(u) for u in uniques}
    sortable = kinds <= {str} or (kinds and all(issubclass(k, (int, float)) for k in kinds) and bool not in kinds)
    sortable = sortable or kinds == {bool}
    if sortable and len(uniques) > 1:
        order = np.argsort(uniques, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        codes = rank[codes]
        uniques = uniques[order]
    return codes.astype(np.int64), uniques


def _as_value_array(values: Sequence[Any] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (values as array, mask of missing) with set-like cells made frozensets.

    Object cells are interned first (``pandas.factorize``) so that each distinct
    value is normalised and checked once; unhashable cells (lists) fall back to
    a per-cell pass.  An all-number object column becomes a numeric array.
    """
    arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
    if arr.dtype.kind in "biu":
        return arr, np.zeros(len(arr), dtype=bool)
    if arr.dtype.kind == "f":
        return arr, np.isnan(arr)
    if arr.dtype.kind in "US":
        return arr.astype(object), np.zeros(len(arr), dtype=bool)
    obj = np.empty(len(values), dtype=object)
    obj[:] = list(values)
    try:
        codes, uniques = _factorize(obj)
    except TypeError:  # unhashable cells (lists): element by element
        obj[:] = [_normalise_value(v) for v in obj]
        missing = np.fromiter((_is_missing(v) for v in obj), dtype=bool, count=len(obj))
        distinct = obj[~missing]
    else:
        norm = np.empty(len(uniques) + 1, dtype=object)
        norm[:-1] = [_normalise_value(v) for v in uniques]  # norm[-1] stays None for code -1
        bad = np.fromiter((_is_missing(v) for v in norm), dtype=bool, count=len(norm))
        bad[-1] = True
        obj, missing = norm[codes], bad[codes]
        distinct = norm[:-1][~bad[:-1]]
    if len(distinct) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in distinct):
        present = obj[~missing]
        try:
            if all(isinstance(v, int) for v in distinct):
                out = np.zeros(len(obj), dtype=np.int64)
                out[~missing] = present.astype(np.int64)
                return out, missing
            num = np.full(len(obj), np.nan)
            num[~missing] = present.astype(float)
            return num, missing
        except OverflowError:  # an integer past int64 (or float64) stays a Python int: exact, compared as given
            pass
    return obj, missing


def _label_key(x: Any) -> Any:
    try:
        hash(x)
    except TypeError:
        raise AccordError(f"unit and coder labels must be hashable; got {x!r}") from None
    return x


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def _not_finite(values: np.ndarray) -> np.ndarray:
    """Which entries are infinite numbers (NaN is not looked for: it marks a missing cell)."""
    if values.dtype.kind == "f":
        return np.isinf(values)
    if values.dtype == object:
        return np.fromiter(
            (isinstance(v, float | np.floating) and bool(np.isinf(v)) for v in values), dtype=bool, count=len(values)
        )
    return np.zeros(len(values), dtype=bool)


def _object_array(items: list[Any]) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _value_column(series: pd.Series) -> np.ndarray:
    if series.dtype.kind in "biuf":
        return series.to_numpy()
    if pd.api.types.is_bool_dtype(series.dtype):
        return series.to_numpy(dtype=object)
    return _object_array(series.tolist())

