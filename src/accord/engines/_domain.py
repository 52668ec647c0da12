"""The value column's domain on a lazy engine: scalars, set values (list columns) and JSON-list text.

The reductions need every distinct value once, locally, in accord's interned
order, and a label for it inside the engine that the grouped queries can
match.  Three kinds of value column:

- **scalars** (numbers, strings, booleans): the distinct values are fetched
  and interned as the in-memory reader interns them; the engine's labels are
  the values themselves;
- **lists** (a Parquet list column, a Polars ``List``, a DuckDB ``VARCHAR[]``,
  a Spark ``array``, a pyarrow-backed Dask list): set values, as the in-memory
  engine reads a list cell (a frozenset; order and repeats do not count, an
  empty list is the empty set).  The elements that occur are fetched (one
  ``explode`` and ``unique``), then each row's set becomes a bitmask inside the
  engine (``sum(contains(e) * 2^i)``: one integer per row, no string, no
  join), and the distinct bitmasks are fetched and decoded locally.  Up to
  :data:`MAX_SET_ELEMENTS` distinct elements (one 64-bit mask);
- **text holding JSON lists** (a CSV column ``["x", "y"]``, as
  :func:`accord.read` reads it): the distinct texts are parsed locally by the
  same rule as :func:`accord.read` (a text that is not a JSON list stays a
  string), interned, and the column is recoded in the engine to the value's
  code, so that two spellings of one set (``["x","y"]``, ``["y", "x"]``) are
  one value;
- **CSV text** (the lazy sources read a CSV value column as text): the
  distinct texts go through :func:`accord.read`'s CSV rule, so a column of
  canonical numbers becomes numbers while ``01`` next to ``1`` keeps the
  column text, as in memory (an engine's own type detection would merge them),
  and the column is recoded when a value changed.

Set values are ordered by size, then by their sorted elements, so every
engine (and the memory engine's :func:`~accord.engines.reduce`) interns them
in the same order whatever order the rows come in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord._shared.errors import AccordError

__all__ = ["MAX_SET_ELEMENTS", "scalar_domain", "value_domain"]

#: Distinct set elements one 64-bit bitmask holds (the sign bit is not used).
MAX_SET_ELEMENTS = 62


def _nw() -> Any:
    import narwhals as nw

    return nw


def _to_list(frame: Any, column: str) -> list[Any]:
    return np.asarray(frame[column].to_numpy(), dtype=object).tolist()


def _set_key(s: frozenset) -> tuple[int, list[tuple[str, str]]]:
    return len(s), sorted((type(x).__name__, repr(x)) for x in s)


def _table(labels: list[Any], what: str) -> np.ndarray:
    """accord's interned order for *labels* (distinct); sets by size then elements."""
    from accord.data._codes import _intern

    if labels and all(isinstance(x, frozenset) for x in labels):
        arr = np.empty(len(labels), dtype=object)
        arr[:] = sorted(labels, key=_set_key)
        return arr
    if labels and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in labels):
        arr = np.asarray(labels)
    else:
        arr = np.empty(len(labels), dtype=object)
        arr[:] = labels
    _, table = _intern(arr, what)
    return table


def value_domain(
    f: Any, dtype: Any, *, source: str, column: str, csv_text: bool = False
) -> tuple[Any, np.ndarray, np.ndarray]:
    """(frame, values, frame labels): the frame with ``__value`` as the engine will group it.

    Parameters
    ----------
    f : narwhals LazyFrame
        Columns ``__unit``, ``__coder``, ``__value``; missing values already removed.
    dtype : narwhals dtype
        The value column's type in the source.
    source, column : str
        For messages.
    csv_text : bool
        The column is CSV text: :func:`accord.read`'s rule for a CSV column applies (canonical numbers,
        JSON lists, leading spaces skipped).

    Returns
    -------
    frame : narwhals LazyFrame
        *f*, with ``__value`` replaced by a set's bitmask or a recoded text's code where needed.
    values : ndarray
        The distinct values, in accord's interned order.
    frame_labels : ndarray
        ``__value``'s label in the engine for each entry of *values*.
    """
    from accord.engines._reduced import _is_set_dtype

    if _is_set_dtype(dtype):
        return _set_domain(f, source=source, column=column)
    # a sample first: a pandas-backed engine (Dask) hashing an object column of arrays fails only after a
    # quadratic search for the unique cells (minutes at 100,000 rows)
    if any(isinstance(x, (list, tuple, np.ndarray)) for x in _to_list(f.select("__value").head(1000).collect(),
                                                                          "__value")):
        raise _objects_error(source, column)
    try:
        raw = _to_list(f.select("__value").unique().collect(), "__value")
    except TypeError as exc:  # pandas-backed engines (Dask) cannot hash a list cell
        if "unhashable" in str(exc):
            raise _objects_error(source, column) from None
        raise
    return scalar_domain(f, raw, source=source, column=column, csv_text=csv_text)[:3]


def _objects_error(source: str, column: str) -> AccordError:
    return AccordError(
        f"{source}: column {column!r} holds Python lists or arrays in an object column; the lazy engines read set "
        "values from a list column (Parquet list, a pyarrow list type) or from JSON-list text"
    )


def scalar_domain(
    f: Any, raw: list[Any], *, source: str, column: str, csv_text: bool = False
) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`value_domain` of a scalar column whose distinct values *raw* (missing ones left out) were fetched,
    and each raw value's code (its position in the values).

    The values are read by :func:`accord.read`'s rule (CSV text, JSON-list text); where a value changes the
    frame's ``__value`` is recoded (lazily: nothing runs here).
    """
    if any(isinstance(x, (list, tuple, np.ndarray)) for x in raw):
        raise _objects_error(source, column)
    text = all(isinstance(x, str) for x in raw)
    if csv_text and text:
        import pandas as pd

        from accord.data._cells import _convert_column

        col = pd.Series([x.lstrip(" ") for x in raw], dtype=object)  # read_csv's skipinitialspace
        parsed = _convert_column(col).tolist()
    elif any(isinstance(x, str) and x.strip().startswith("[") for x in raw):
        from accord.data._cells import _parse_cell

        parsed = [_parse_cell(x) for x in raw]
    else:
        parsed = raw
    infinite = [x for x in parsed if isinstance(x, (float, np.floating)) and np.isinf(x)]
    if infinite:
        raise AccordError(
            f"{source}: column {column!r} holds the value {float(infinite[0])!r}, which is not a finite number; "
            "agreement needs finite values (leave the cell empty for a missing one)"
        )
    if all(type(p) is type(r) and p == r for p, r in zip(parsed, raw, strict=True)):
        values = _table(raw, "value")
        position = {(type(v), v): i for i, v in enumerate(values.tolist())}
        codes = np.asarray([position[(type(r), r)] for r in raw], dtype=np.int64)
        return f, values, values, codes
    return _recoded(f, raw, parsed)


def _recoded(f: Any, raw: list[Any], parsed: list[Any]) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray]:
    """Text read as other values (numbers, sets): the engine's column recoded to the values' codes."""
    nw = _nw()
    distinct = list(dict.fromkeys(parsed))
    kinds = {isinstance(x, frozenset) for x in distinct}
    if len(kinds) == 2:
        sets = _table([x for x in distinct if isinstance(x, frozenset)], "value").tolist()
        rest = _table([x for x in distinct if not isinstance(x, frozenset)], "value").tolist()
        table = np.empty(len(sets) + len(rest), dtype=object)
        table[:] = rest + sets
    else:
        table = _table(distinct, "value")
    code = {v: i for i, v in enumerate(table.tolist())}
    mapping = {r: code[p] for r, p in zip(raw, parsed, strict=True)}
    f = f.with_columns(nw.col("__value").replace_strict(mapping, default=-1, return_dtype=nw.Int64).alias("__value"))
    return f, table, np.arange(len(table), dtype=np.int64), np.asarray([mapping[r] for r in raw], dtype=np.int64)


def _set_elements(f: Any, source: str) -> list[Any]:
    """The distinct elements of the set values (an explode; Dask's own where narwhals has none)."""
    nw = _nw()
    elements = f.select("__value").filter(nw.col("__value").list.len() > 0)
    try:
        res = _to_list(elements.explode("__value").unique().collect(), "__value")
    except NotImplementedError:  # narwhals has no LazyFrame.explode for Dask: the Series' own
        native = nw.to_native(elements)
        res = np.asarray(native["__value"].explode().unique().compute(), dtype=object).tolist()
    out = []
    for x in res:
        if x is None or (isinstance(x, float) and np.isnan(x)):
            raise AccordError(f"{source}: a set value holds a missing element (null); remove it or drop the row")
        out.append(x.item() if isinstance(x, np.generic) else x)
    return out


def _set_domain(f: Any, *, source: str, column: str) -> tuple[Any, np.ndarray, np.ndarray]:
    nw = _nw()
    elements = _table(_set_elements(f, source), "set element").tolist()
    if len(elements) > MAX_SET_ELEMENTS:
        head = (f"{source}: column {column!r}: the set values hold {len(elements)} distinct elements, more than the "
                f"{MAX_SET_ELEMENTS} a lazy engine packs into one 64-bit mask")
        raise AccordError(f"{head}; read the file with accord.read and compute in memory",
                          cli=f"{head}; use --engine memory")
    mask = nw.lit(0, dtype=nw.Int64)
    for i, e in enumerate(elements):
        mask = mask + nw.col("__value").list.contains(e).cast(nw.Int64) * int(2**i)
    f = f.with_columns(mask.alias("__value"))
    masks = [int(m) for m in _to_list(f.select("__value").unique().collect(), "__value")]
    sets = {m: frozenset(e for i, e in enumerate(elements) if m >> i & 1) for m in masks}
    table = _table(list(sets.values()), "value")
    by_set = {s: m for m, s in sets.items()}
    labels = np.asarray([by_set[s] for s in table.tolist()], dtype=np.int64)
    return f, table, labels
