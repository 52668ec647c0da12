"""The reductions of a DuckDB relation in plain SQL: the passes the engine itself allows.

The generic reductions (:func:`accord.engines._reductions.reduce_frame`) are written once in narwhals for every
engine.  On DuckDB two of narwhals' translations cost many times the work the engine needs: ``unique`` is a
window of row numbers, and ``replace_strict`` a list search and a map lookup on every row.  So a DuckDB relation
of scalar values is reduced here in three queries, none of which re-reads a column it has no use for:

1. one aggregate: the rows, the rows without a unit or a coder, the missing values and, for an integer value
   column, the smallest and largest value (DuckDB answers it from Parquet statistics);
2. the distinct coders, and, unless the values are a small range of integers, the distinct values;
3. the signature histogram: per unit, the sum of ``2^(b * position(value))`` in 64-bit keys (``b`` bits a
   digit, enough for a count of every coder; positions in the range of the integer values or in the table of
   distinct values) and the row count, then one count per key.  The unit's distinct coders are the bits set in
   its sum of ``2^index(coder)`` (a coder counted twice carries and leaves fewer bits than the unit has rows):
   with one key and few enough coders, in the low bits of the same sum; otherwise as the bits of a bitwise or.

The keys are decoded here and packed again as the generic path packs them (base: coders + 1), so that both
give the same :class:`~accord.engines.Reductions`, signature for signature and in the same order,
and the on-demand tables (pair tables, coder signatures) keep querying the relation through narwhals.  The
coder x value counts, which alpha does not read, are counted when first read.  Set values (list columns) take
the generic path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.engines._packed import coder_bits_below, repacked
from accord.engines._reduced import MAX_KEY_CHUNKS, Reductions, _intern_labels, _nw, check_rows, long_frame

__all__ = ["memory_limit", "reduce_duckdb"]

_INT64 = 2**63 - 1


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(x: Any) -> str:
    """*x* as a DuckDB literal of its own type (strings, integers, floats, booleans)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return f"CAST('{x!r}' AS DOUBLE)"
    if isinstance(x, str):
        return "'" + x.replace("'", "''") + "'"
    raise TypeError(type(x).__name__)


def _values_table(pairs: list[tuple[Any, int]], names: tuple[str, str]) -> str:
    rows = ", ".join(f"({_literal(a)}, {int(b)})" for a, b in pairs)
    return f"(VALUES {rows}) AS {names[0]}({names[1]}, __code)"


def memory_limit(frame: Any) -> str | None:
    """The memory limit of the connection that holds the narwhals frame *frame*, as DuckDB states it."""
    try:
        rows = _nw().to_native(frame).query("__accord", "SELECT current_setting('memory_limit')").fetchall()
    except Exception:  # a relation that cannot be queried again: the limit is not known
        return None
    return str(rows[0][0]) if rows else None


def reduce_duckdb(
    frame: Any, schema: Any, *, unit: str, coder: str, value: str, source: str, csv_text: bool = False
) -> Reductions | None:
    """The reductions of the narwhals frame *frame* over a DuckDB relation, or None where the generic path
    must run (set values, coders or values of a type without a plain literal, a duplicate to name).
    """
    nw = _nw()
    vtype, ctype = schema[value], schema[coder]
    if not (ctype.is_integer() or ctype == nw.String):
        return None
    if not (vtype.is_integer() or vtype.is_float() or vtype == nw.String or vtype == nw.Boolean):
        return None
    rel = nw.to_native(frame)

    def query(sql: str) -> list[tuple[Any, ...]]:
        return rel.query("__accord", sql).fetchall()

    u, c, v = _ident(unit), _ident(coder), _ident(value)
    present = f"{v} IS NOT NULL" + (f" AND NOT isnan({v})" if vtype.is_float() else "")
    minmax = f", min({v}), max({v})" if vtype.is_integer() else ""
    meta = query(f"SELECT count(*), count(*) - count({u}), count(*) - count({c}), "
                 f"count(*) FILTER (WHERE NOT ({present})){minmax} FROM __accord")[0]
    n_rows, n_missing = int(meta[0]), int(meta[3])
    check_rows(n_rows, {"unit": int(meta[1]), "coder": int(meta[2])}, source=source, unit=unit, coder=coder)
    keep = f" WHERE {present}" if n_missing else ""  # no filter to run on every row when no value is missing
    raw_coders = [r[0] for r in query(f"SELECT DISTINCT {c} FROM __accord{keep}")]
    if not raw_coders:
        raise AccordError(f"{source}: no values to compare (every cell is missing)")
    coders = _intern_labels(raw_coders, "coder")
    bits = max(1, len(coders).bit_length())  # a digit counts up to one value per coder
    per_key = 62 // bits
    f = long_frame(frame, schema, unit=unit, coder=coder, value=value)
    value_join = ""
    if vtype.is_integer() and meta[4] is not None and -_INT64 <= meta[4] and meta[5] <= _INT64 \
            and meta[5] - meta[4] < per_key * MAX_KEY_CHUNKS:
        low = int(meta[4])
        n_positions = int(meta[5]) - low + 1
        as_int = v if vtype == nw.Int64 else f"CAST({v} AS BIGINT)"
        position = as_int if low == 0 else f"({as_int} - ({low}))"
        values = frame_values = None
    else:
        from accord.engines._domain import scalar_domain

        raw = [r[0] for r in query(f"SELECT DISTINCT {v} FROM __accord{keep}")]
        f, values, frame_values, codes = scalar_domain(f, raw, source=source, column=value, csv_text=csv_text)
        n_positions = len(values)
        if -(-n_positions // per_key) > MAX_KEY_CHUNKS:
            return None  # the generic path says how many key columns the values need
        value_join = f" JOIN {_values_table(list(zip(raw, codes.tolist(), strict=True)), ('__vm', '__raw'))}" \
                     f" ON {v} = __vm.__raw"
        position = "__vm.__code"
    n_keys = -(-n_positions // per_key)
    if n_keys == 1:
        key_sums = [f"sum(1::BIGINT << ({bits} * __p)) AS __k0"]
    else:
        key_sums = [f"sum(CASE WHEN __p // {per_key} = {j} THEN 1::BIGINT << ({bits} * (__p % {per_key})) "
                    f"ELSE 0 END) AS __k{j}" for j in range(n_keys)]
    slots = len(coders)  # with one key, the coders' bits below the values' digits: one sum per unit
    if n_keys == 1 and slots + bits * n_positions <= 62:
        index_of = [(x, i) for i, x in enumerate(coders.tolist())]
        coder_join = f" JOIN {_values_table(index_of, ('__cm', '__c'))} ON {c} = __cm.__c"
        term = f"(1::BIGINT << __cm.__code) + (1::BIGINT << ({slots} + {bits} * {position}))"
        sig = query(
            f"WITH r AS (SELECT {u} AS __u, {term} AS __t FROM __accord{value_join}{coder_join}{keep}), "
            f"per_unit AS (SELECT sum(__t) AS __k, count(*) AS __m FROM r GROUP BY __u) "
            f"SELECT __k, __m, count(*) FROM per_unit GROUP BY ALL"
        )
        if any(row[0] >= 1 << 62 for row in sig):  # (DuckDB sums without wrapping) only a repeated coder's carries
            return None
        cols = [np.asarray(col, dtype=np.int64) for col in zip(*sig, strict=True)]
        one_key = coder_bits_below(*cols, slots)  # a value was given (checked above): at least one row
        if one_key is None:
            return None  # a coder gave a unit two values: the generic path names them
        key_arrays, m, weight = one_key
    else:
        if len(coders) <= 62:
            bit_of = [(x, 1 << i) for i, x in enumerate(coders.tolist())]
            coder_join = f" JOIN {_values_table(bit_of, ('__cm', '__c'))} ON {c} = __cm.__c"
            coder_bit, distinct = ", __cm.__code AS __b", "bit_count(bit_or(__b))"  # the distinct coders of a unit
        else:
            coder_join, coder_bit, distinct = "", f", {c} AS __c", "count(DISTINCT __c)"
        keys = [f"__k{j}" for j in range(n_keys)]
        sig = query(
            f"WITH r AS (SELECT {u} AS __u, {position} AS __p{coder_bit} FROM __accord{value_join}{coder_join}{keep}), "
            f"per_unit AS (SELECT {', '.join(key_sums)}, count(*) AS __m, {distinct} AS __d FROM r GROUP BY __u) "
            f"SELECT {', '.join(keys)}, __m, __d, count(*) FROM per_unit GROUP BY ALL"
        )
        if any(row[n_keys] != row[n_keys + 1] for row in sig):
            return None  # a coder gave a unit two values (fewer distinct coders than rows): the generic path names them
        cols = list(zip(*sig, strict=True))
        key_arrays = [np.asarray(cols[j], dtype=np.int64) for j in range(n_keys)]
        m = np.asarray(cols[n_keys], dtype=np.int64)
        weight = np.asarray(cols[n_keys + 2], dtype=float)
    return repacked(key_arrays, m, weight, bits=bits, per_key=per_key, n_positions=n_positions,
                    low=low if values is None else None, values=values, frame_values=frame_values, f=f,
                    coders=coders, n_rows=n_rows, n_missing=n_missing, source=source, engine="duckdb")
