"""Cells and header rows of a table, read by one rule wherever a table is read.

The rule of :func:`accord.read`: a text column whose every cell spells a canonical number becomes numbers,
JSON lists become frozensets (set values), other text stays text; a header row gets unique names.  Below
:mod:`accord.data._read` and :mod:`accord.data._columns`, and used as well by the spreadsheet importer and the lazy
engines' value domain, so that none of them imports the reader itself.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd

__all__: list[str] = []


def _parse_cell(x: Any) -> Any:
    """JSON lists in text cells become frozensets; other text is kept."""
    if isinstance(x, str):
        s = x.strip()
        if s.startswith("[") and s.endswith("]"):
            try:
                parsed = json.loads(s)
            except (ValueError, RecursionError):  # not JSON (or nested too deep, a number too long): text
                return x
            if isinstance(parsed, list):
                return frozenset(_hashable(v) for v in parsed)
    if isinstance(x, (list, tuple, np.ndarray)):
        return frozenset(_hashable(v) for v in x)
    return x


def _parse_column(col: pd.Series) -> pd.Series:
    """:func:`_parse_cell` over a column, once per distinct cell.

    Text cells are factorized as they are; list or array cells (Parquet lists, JSON lines) by the tuple of
    their elements. Where the cells mix other kinds (numbers, booleans: ``True`` and ``1`` hash alike) or
    are nested, every cell is parsed on its own.
    """
    arr = col.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(arr, skipna=True)
    if kind == "string":
        keys = arr
    elif kind == "mixed":
        seq = (list, tuple, np.ndarray)
        if not all(isinstance(x, seq) or x is None or (isinstance(x, float) and x != x) for x in arr):
            return col.map(_parse_cell)
        keys = np.empty(len(arr), dtype=object)
        keys[:] = [tuple(x) if isinstance(x, seq) else x for x in arr]
    else:
        return col.map(_parse_cell)
    try:
        codes, uniques = pd.factorize(keys, use_na_sentinel=True)
    except TypeError:  # nested lists: unhashable tuples
        return col.map(_parse_cell)
    parsed = np.empty(len(uniques) + 1, dtype=object)
    parsed[:-1] = [_parse_cell(list(u) if isinstance(u, tuple) else u) for u in uniques]
    out = parsed[codes]
    missing = codes < 0
    out[missing] = arr[missing]  # missing cells as they were (None, NaN)
    return pd.Series(out, index=col.index, dtype=object)


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, tuple, np.ndarray)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, np.generic):
        return v.item()
    return v


def _header(raw: list[Any]) -> tuple[list[str], dict[str, str], int]:
    """Unique column names for a header row as the file gives it, each name's header text, and the count of
    names stripped of surrounding spaces.  An empty name is ``Unnamed: i`` (as pandas names it); a repeated
    name gets ``.1``, ``.2``... (as pandas renames it), mapped back to the name in the file."""
    names: list[str] = []
    original: dict[str, str] = {}
    stripped = 0
    for i, cell in enumerate(raw):
        text = "" if cell is None or (isinstance(cell, float) and cell != cell) else str(cell)
        if isinstance(cell, float) and cell.is_integer():
            text = str(int(cell))
        text = text.lstrip("\ufeff")
        if text.strip() != text:
            stripped += 1
            text = text.strip()
        name = text or f"Unnamed: {i}"
        unique, k = name, 0
        while unique in original:
            k += 1
            unique = f"{name}.{k}"
        names.append(unique)
        original[unique] = name
    return names, original, stripped


def _number(s: str) -> int | float | None:
    """The number a text cell spells in canonical form, or None ("01", "1e3", "nan" are not numbers here)."""
    t = s.strip()
    try:
        i = int(t)
    except ValueError:
        pass
    else:
        return i if str(i) == t.lstrip("+") else None
    try:
        f = float(t)
    except ValueError:
        return None
    if not np.isfinite(f) or "e" in t.lower() or t.startswith(("0", "-0")) and not t.startswith(("0.", "-0.")):
        return None
    return f


def _convert_column(col: pd.Series) -> pd.Series:
    """Text columns: JSON lists become frozensets; a column whose every cell is a number becomes numbers.

    Conversion is all or nothing per column, and only for canonical spellings, so labels such as
    "01" and "1" are never merged and a column never mixes numbers with text.
    """
    present = col.dropna()
    if present.empty:
        return col
    texts = present.astype(str)
    if texts.str.strip().str.startswith("[").any():
        return _parse_column(col)
    numbers = [_number(t) for t in texts.tolist()]
    if all(n is not None for n in numbers):
        out = pd.Series([None] * len(col), index=col.index, dtype=object)
        out[present.index] = numbers
        return out
    return col
