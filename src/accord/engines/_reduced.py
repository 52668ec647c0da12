"""The shared parts of the reductions: the :class:`Reductions` result, the schema checks and the signature keys.

Below :mod:`accord.engines._reductions` (the narwhals passes) and :mod:`accord.engines._duckdb` (the SQL
passes), which both build on them: neither imports the other's helpers, so the two paths form no cycle.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, missing_column_error, plural
from accord.coefficients._pairs import UnitCounts

__all__ = [
    "MAX_KEY_CHUNKS",
    "Reductions",
    "assemble",
    "check_rows",
    "key_layout",
    "keyed_frame",
    "long_frame",
    "vexpr_replace",
]

#: Above this many 64-bit key columns the signature keys are not packed; the (unit, value) counts are fetched.
MAX_KEY_CHUNKS = 32


def _nw() -> Any:
    import narwhals as nw

    return nw


def _to_numpy(frame: Any, column: str) -> np.ndarray:
    return np.asarray(frame[column].to_numpy())


def _intern_labels(labels: list[Any], what: str) -> np.ndarray:
    """The label table in accord's interned order (numbers and strings sorted), as the in-memory reader has it."""
    from accord.data._codes import _intern

    arr = np.asarray(labels) if labels and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                for x in labels) else np.asarray(labels, dtype=object)
    if arr.dtype == object:
        arr = np.empty(len(labels), dtype=object)
        arr[:] = labels
    _, table = _intern(arr, what)
    return table


def _positions(table: np.ndarray, labels: np.ndarray) -> np.ndarray:
    import pandas as pd

    idx = pd.Index(table).get_indexer(pd.Index(labels))
    return np.asarray(idx, dtype=np.int64)


class Reductions:
    """The small reductions of one data set, and the lazy frame they came from (for the on-demand tables).

    Attributes
    ----------
    values : ndarray
        The distinct values, in accord's interned order.
    coders : ndarray
        The coders with at least one value.
    signatures : UnitCounts
        The signature histogram of every unit with at least one value
        (``weight``: units per signature).
    coder_values : ndarray
        coders x values: how many values each coder gave of each value (one grouped count, run when first
        read: alpha does not need it).
    n_rows : int
        Rows read (missing values included).
    n_missing : int
        Rows whose value is missing (counted, not used).
    source : str
        What was read, for messages.
    engine : str
        The engine that computed the reductions (duckdb, polars, dask, pyspark, ...).
    memory_limit : str or None
        DuckDB: the memory limit it ran under, as DuckDB states it (``"1.1 GiB"``); None on other engines.
    """

    def __init__(self, *, values: np.ndarray, coders: np.ndarray, signatures: UnitCounts,
                 coder_values: np.ndarray | None, n_rows: int, n_missing: int, source: str, engine: str,
                 _frame: Any = None, _keys: list[str] | None = None, _frame_values: Any = None) -> None:
        self.values, self.coders, self.signatures = values, coders, signatures
        self._coder_values = coder_values
        self.n_rows, self.n_missing, self.source, self.engine = n_rows, n_missing, source, engine
        # the lazy frame the on-demand tables query, its key columns, and the value column's labels inside the
        # engine aligned with ``values`` (set bitmasks, or codes of recoded text)
        self._frame, self._keys, self._frame_values = _frame, list(_keys or []), _frame_values
        self._cache: dict[str, Any] = {}
        #: DuckDB: the memory limit the engine ran under, as DuckDB states it (``"1.1 GiB"``); None elsewhere
        self.memory_limit: str | None = None

    @property
    def coder_values(self) -> np.ndarray:
        """coders x values: how many values each coder gave of each value."""
        if self._coder_values is None:
            nw = _nw()
            cv = self._frame.group_by("__coder", "__value").agg(nw.len().alias("__n")).collect()
            table = np.zeros((len(self.coders), len(self.values)))
            np.add.at(
                table,
                (_positions(self.coders, _to_numpy(cv, "__coder")),
                 _positions(self._frame_values, _to_numpy(cv, "__value"))),
                _to_numpy(cv, "__n").astype(float),
            )
            self._coder_values = table
        return self._coder_values

    # ------------------------------------------------------------ sizes
    @property
    def n_units(self) -> int:
        """Units holding at least one value."""
        return self.signatures.n_pairable_units

    @property
    def n_coders(self) -> int:
        return len(self.coders)

    @property
    def n_entries(self) -> int:
        """Values (non-missing cells)."""
        return int(round(self.signatures.n))

    def pairable(self) -> UnitCounts:
        """The signatures of the pairable units (two values or more), as alpha and the kappa family read them."""
        if "pairable" not in self._cache:
            self._cache["pairable"] = self.signatures.select(self.signatures.m >= 2)
        return self._cache["pairable"]

    def __repr__(self) -> str:
        return (
            f"Reductions({self.engine}: {plural(self.n_units, 'unit')}, {plural(self.n_coders, 'coder')}, "
            f"{plural(self.n_entries, 'value')}, "
            f"{len(self.values)} distinct values, {self.signatures.n_rows} signatures)"
        )

    # ---------------------------------------------------- on-demand tables
    def pair_tables(self) -> dict[tuple[int, int], np.ndarray]:
        """For each pair of coder codes (a < b), the V x V table of a's value by b's value over units both coded."""
        if "pairs" not in self._cache:
            self._cache["pairs"] = self._compute_pair_tables()
        return self._cache["pairs"]

    def pair_table(self, a: int, b: int) -> np.ndarray:
        """The V x V contingency table of coders *a* and *b* (codes), rows a's values."""
        lo, hi = (a, b) if a < b else (b, a)
        table = self.pair_tables().get((lo, hi))
        v = len(self.values)
        if table is None:
            table = np.zeros((v, v))
        return table if a < b else table.T

    def _compute_pair_tables(self) -> dict[tuple[int, int], np.ndarray]:
        nw = _nw()
        f = self._frame.select("__unit", "__coder", "__value")
        right = f.select(
            nw.col("__unit"), nw.col("__coder").alias("__coder_b"), nw.col("__value").alias("__value_b")
        )
        joined = f.join(right, on="__unit", how="inner").filter(nw.col("__coder") != nw.col("__coder_b"))
        res = joined.group_by("__coder", "__coder_b", "__value", "__value_b").agg(nw.len().alias("__n")).collect()
        ca = _positions(self.coders, _to_numpy(res, "__coder"))
        cb = _positions(self.coders, _to_numpy(res, "__coder_b"))
        va = _positions(self._frame_values, _to_numpy(res, "__value"))
        vb = _positions(self._frame_values, _to_numpy(res, "__value_b"))
        n = _to_numpy(res, "__n").astype(float)
        keep = ca < cb
        v = len(self.values)
        out: dict[tuple[int, int], np.ndarray] = {}
        for a, b, x, y, k in zip(ca[keep], cb[keep], va[keep], vb[keep], n[keep], strict=True):
            table = out.setdefault((int(a), int(b)), np.zeros((v, v)))
            table[x, y] += k
        return out

    def unit_frame(self, rows: np.ndarray, limit: int) -> Any:
        """Up to *limit* units whose signature is among *rows* (signature rows, best first): a pandas frame.

        Column ``__rank`` is the position in *rows* of the unit's signature; units come in that order.
        """
        import pandas as pd

        nw = _nw()
        index = self._cache["signature_index"]
        rank = None
        for pos, r in reversed(list(enumerate(rows))):
            key_vals = index[int(r)]
            term = nw.col("__m") == int(key_vals[-1])
            for i, k in enumerate(self._keys):
                term = term & (nw.col(k) == int(key_vals[i]))
            rank = nw.when(term).then(nw.lit(pos)).otherwise(nw.lit(-1) if rank is None else rank)
        per_unit = self._frame.group_by("__unit").agg(*[nw.col(k).sum().alias(k) for k in self._keys],
                                                      nw.len().alias("__m"))
        hit = per_unit.with_columns(rank.alias("__rank")).filter(nw.col("__rank") >= 0).select("__unit", "__rank")
        res = hit.sort("__rank").head(limit).collect()
        return pd.DataFrame({"__unit": _to_numpy(res, "__unit"), "__rank": _to_numpy(res, "__rank")})

    def coder_signature_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(coder code, value code, signature row, units) for every coder's value in every signature."""
        if "coder_sig" not in self._cache:
            nw = _nw()
            f = self._frame
            windows = [nw.col(k).sum().over("__unit").alias(k) for k in self._keys]
            g = f.with_columns(*windows, nw.len().over("__unit").alias("__m"))
            res = g.group_by("__coder", "__value", *self._keys, "__m").agg(nw.len().alias("__n")).collect()
            rows = self._signature_rows(
                [_to_numpy(res, k).astype(np.int64) for k in self._keys], _to_numpy(res, "__m").astype(np.int64)
            )
            self._cache["coder_sig"] = (
                _positions(self.coders, _to_numpy(res, "__coder")),
                _positions(self._frame_values, _to_numpy(res, "__value")),
                rows,
                _to_numpy(res, "__n").astype(float),
            )
        return self._cache["coder_sig"]

    def _signature_rows(self, keys: list[np.ndarray], m: np.ndarray) -> np.ndarray:
        import pandas as pd

        table = self._cache["signature_index"]
        idx = table.get_indexer(pd.MultiIndex.from_arrays([*keys, m]))
        if (idx < 0).any():  # pragma: no cover - the data changed between two queries
            raise AccordError(f"{self.source}: the data changed while being read (a unit signature is new)")
        return np.asarray(idx, dtype=np.int64)


def _check_schema(frame: Any, source: str, unit: str, coder: str, value: str) -> Any:
    """Columns present and of a type the engine can group: the same AccordError as the in-memory reader."""
    schema = frame.collect_schema()
    columns = list(schema.names())
    for col, param in ((unit, "unit"), (coder, "coder"), (value, "value")):
        if col not in columns:
            raise missing_column_error(source, col, columns, param=param)
    for col, what in ((unit, "unit"), (coder, "coder"), (value, "value")):
        dtype = schema[col]
        if what == "value" and _is_set_dtype(dtype):
            continue
        if dtype.is_nested():
            hint = "; set values are a list of numbers or strings" if what == "value" else ""
            raise AccordError(
                f"{source}: column {col!r} (the {what}) has type {dtype}, which the lazy engines cannot group{hint}"
            )
    return schema


def _is_set_dtype(dtype: Any) -> bool:
    """A list (or fixed-size array) of scalars: set values."""
    nw = _nw()
    if not isinstance(dtype, (nw.List, nw.Array)):
        return False
    return not dtype.inner.is_nested()


def check_rows(n_rows: int, nulls: dict[str, int], *, source: str, unit: str, coder: str) -> None:
    """Refuse no rows, and a missing unit or coder (*nulls*: rows whose unit or coder is null)."""
    if n_rows == 0:
        raise AccordError(f"{source}: no rows")
    for col, what in ((unit, "unit"), (coder, "coder")):
        if nulls[what]:
            raise AccordError(f"{source}: column {col!r}: the {what} is missing in {plural(nulls[what], 'row')}")


def long_frame(frame: Any, schema: Any, *, unit: str, coder: str, value: str) -> Any:
    """*frame*'s rows with a value, as ``__unit``, ``__coder``, ``__value`` (lazy)."""
    nw = _nw()
    vexpr = nw.col(value)
    missing_expr = vexpr.is_null()
    if schema[value].is_float():
        missing_expr = missing_expr | vexpr.is_nan()
    return frame.filter(~missing_expr).select(
        nw.col(unit).alias("__unit"), nw.col(coder).alias("__coder"), vexpr.alias("__value")
    )


def key_layout(n_values: int, n_coders: int, source: str) -> tuple[int, int, int]:
    """(base, digits per key, keys): how the signature of a unit packs into 64-bit keys."""
    base = n_coders + 1  # a unit holds at most one value per coder: no digit reaches the base
    digits = max(1, int(62 // math.log2(base)))
    n_chunks = -(-n_values // digits)
    if n_chunks > MAX_KEY_CHUNKS:
        raise AccordError(
            f"{source}: {n_values} distinct values with {plural(n_coders, 'coder')} need {n_chunks} "
            "64-bit key columns "
            f"(more than {MAX_KEY_CHUNKS}); use the memory engine"
        )
    return base, digits, n_chunks


def keyed_frame(
    f: Any, values: np.ndarray, frame_values: np.ndarray, coders: np.ndarray, *, source: str
) -> tuple[Any, list[str], int, int]:
    """*f* with its rows' key columns ``__k0``... (lazy): (frame, key names, base, digits)."""
    nw = _nw()
    if len(values) == 0:
        raise AccordError(f"{source}: no values to compare (every cell is missing)")
    base, digits, n_chunks = key_layout(len(values), len(coders), source)
    keys = [f"__k{j}" for j in range(n_chunks)]
    value_list = frame_values.tolist()
    key_exprs = []
    for j, k in enumerate(keys):
        chunk = value_list[j * digits : (j + 1) * digits]
        mapping = {v: int(base**i) for i, v in enumerate(chunk)}
        key_exprs.append(vexpr_replace(nw.col("__value"), mapping).alias(k))
    return f.with_columns(*key_exprs), keys, base, digits


def assemble(
    key_arrays: list[np.ndarray], m: np.ndarray, weight: np.ndarray, *, f: Any, keys: list[str], base: int,
    digits: int, values: np.ndarray, frame_values: np.ndarray, coders: np.ndarray, n_rows: int, n_missing: int,
    source: str, engine: str, coder_values: np.ndarray | None = None,
) -> Reductions:
    """The :class:`Reductions` of a signature histogram (keys, m, units per signature), in one order whatever the
    engine: sorted by m, then by the keys (the same bootstrap for one seed)."""
    import pandas as pd

    order = np.lexsort((*key_arrays[::-1], m))
    key_arrays, m, weight = [k[order] for k in key_arrays], m[order], weight[order]
    signatures = _decode(key_arrays, m, weight, base=base, digits=digits, n_values=len(values))
    red = Reductions(
        values=values,
        coders=coders,
        signatures=signatures,
        coder_values=coder_values,  # type: ignore[arg-type]  # None: counted on first use
        n_rows=n_rows,
        n_missing=n_missing,
        source=source,
        engine=engine,
        _frame=f,
        _keys=keys,
        _frame_values=frame_values,
    )
    red._cache["signature_index"] = pd.MultiIndex.from_arrays([*key_arrays, m])
    return red


def vexpr_replace(expr: Any, mapping: dict[Any, int]) -> Any:
    """w(value): the value's power of the base in this chunk, 0 for values of other chunks."""
    nw = _nw()
    return expr.replace_strict(mapping, default=0, return_dtype=nw.Int64)


def _decode(
    keys: list[np.ndarray], m: np.ndarray, weight: np.ndarray, *, base: int, digits: int, n_values: int
) -> UnitCounts:
    """The signature keys back to (signature, value, count) entries: the digits of each key in the base."""
    s = len(m)
    rows, vals, counts = [], [], []
    for j, key in enumerate(keys):
        rest = key.copy()
        for i in range(digits):
            code = j * digits + i
            if code >= n_values:
                break
            digit = rest % base
            rest //= base
            nz = np.flatnonzero(digit)
            rows.append(nz)
            vals.append(np.full(len(nz), code, dtype=np.int64))
            counts.append(digit[nz].astype(float))
    row = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    order = np.argsort(row, kind="stable")
    return UnitCounts(
        unit=row[order].astype(np.int64),
        value=np.concatenate(vals)[order] if vals else np.zeros(0, dtype=np.int64),
        count=np.concatenate(counts)[order] if counts else np.zeros(0),
        unit_ids=np.arange(s, dtype=np.int64),
        m=m.astype(float),
        n_values=n_values,
        n_units=int(round(float(weight.sum()))),
        n_unpairable_values=0,
        weight=weight,
    )


def _raise_duplicate(
    f: Any, source: str, unit: str, coder: str, values: np.ndarray, frame_values: np.ndarray
) -> None:
    """Name one (coder, unit) with two values, found by a grouped count."""
    nw = _nw()
    hit = (
        f.group_by("__unit", "__coder")
        .agg(nw.len().alias("__n"))
        .filter(nw.col("__n") > 1)
        .head(1)
        .collect()
    )
    u = _to_numpy(hit, "__unit")[0]
    c = _to_numpy(hit, "__coder")[0]
    u = u.item() if isinstance(u, np.generic) else u
    c = c.item() if isinstance(c, np.generic) else c
    vals = _to_numpy(
        f.filter((nw.col("__unit") == u) & (nw.col("__coder") == c)).select("__value").head(2).collect(), "__value"
    )
    from accord._shared.names import shown as _shown

    shown = " and ".join(map(_shown, values[_positions(frame_values, vals)].tolist()))
    head = f"{source}: coder {c!r} gave two values to unit {u!r} ({unit!r} / {coder!r} columns): {shown}"
    raise AccordError(f"{head}; pass duplicates='first' or 'last' to the memory engine to keep one",
                      cli=f"{head}; a coder gives a unit one value: keep one of them in the file")
