"""The reductions every coefficient needs, computed where the data live (narwhals lazy queries).

Every coefficient of accord's alpha and kappa families is a function of a
few additive reductions of the long data (unit, coder, value), each small
whatever the number of rows:

- the **signature histogram**: units with the same value-count vector
  (n_uv for every value v) are exchangeable, so the engine groups the units by
  that vector and counts them.  The vector is packed into 64-bit integers
  inside the engine: each row carries w(v) = B^pos(v) for its value (B = the
  number of coders + 1, so a count never carries into the next digit; values
  split into chunks of 62 / log2(B) digits), and a unit's key is the sum of
  its rows' w (one integer per chunk).  One grouped sum per unit, one count per
  key: no string, no list, no join.  Decoding the digits locally gives an
  exact weighted :class:`~accord.coefficients._pairs.UnitCounts` (``weight`` = units per
  signature), which the in-memory coefficient code reads as it is.
- **per-coder value counts** (coder x value): multi-kappa's chance term and
  the units each coder coded;
- **pair contingency tables** (coder a's value x coder b's value over the units
  both coded; a self-join on the unit), on demand: Cohen's kappa, Scott's pi
  and the coder-pair diagnostics;
- the **coder-signature table** (coder, value, signature) -> units, on demand:
  the signature of every unit without one coder's value, for alpha with each
  coder left out.

Validation comes first and is cheap: the schema (columns present, types
the engine can group), then missing units or coders (one null count), then a
duplicate (coder, unit) detected in the signature pass itself (each row also
carries 2^code(coder); a unit whose sum has fewer bits set than it has rows
repeats a coder -- up to 62 coders; past that a distinct count per unit) and
named by a grouped count.
"""


from __future__ import annotations

import os
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, choice_error
from accord.engines._domain import value_domain
from accord.engines._reduced import (
    Reductions,
    _check_schema,
    _intern_labels,
    _nw,
    _raise_duplicate,
    _to_numpy,
    assemble,
    check_rows,
    keyed_frame,
    long_frame,
)
from accord.engines._sources import ENGINES, expand, open_files

__all__ = ["Reductions", "reduce", "reduce_frame"]


def reduce(
    source: Any,
    *,
    engine: str = "auto",
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    memory_limit: str | None = None,
    temp_dir: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    spark_master: str | None = None,
    memory_share: float = 0.25,
    threads: int | None = None,
) -> Reductions:
    """The reductions of *source*: a path, a glob or a directory of Parquet/CSV files, or a lazy frame.

    Parameters
    ----------
    source : str, path, DuckDB relation, Polars LazyFrame/DataFrame, Dask or PySpark DataFrame
        Long records, one row per (unit, coder, value).
    engine : {"auto", "duckdb", "polars", "dask", "spark"}
        For files: which engine reads them (``auto``: DuckDB).  A frame is
        reduced by the engine that holds it.
    memory_limit, temp_dir : DuckDB's memory limit (``"2GB"``; by default what the data need, at most a quarter
        of the machine's memory: :func:`~accord.engines._sources.default_memory_limit`) and spill directory.
    threads : int, optional
        DuckDB: the threads it runs on (default: DuckDB's, one per core).  Polars reads its own from
        ``POLARS_MAX_THREADS``, set before Polars is imported.
    scheduler : str, optional
        Dask: the address of a distributed scheduler (``tcp://host:8786``).
    spark_master : str, optional
        Spark: the master URL for a new session (default: the active session).

    Examples
    --------
    >>> import duckdb
    >>> rel = duckdb.sql("SELECT * FROM (VALUES (1, 'a', 'x'), (1, 'b', 'x'), (2, 'a', 'y'), (2, 'b', 'x'))"
    ...                  " t(unit, coder, value)")
    >>> reduce(rel).signatures.n_rows
    2
    """
    if engine not in ENGINES:
        raise choice_error("engine", engine, ENGINES)
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise AccordError(f"threads must be a whole number of 1 or more; got {threads!r}")
    if threads is not None and (not isinstance(source, (str, os.PathLike)) or engine not in ("auto", "duckdb")):
        raise AccordError("threads sets DuckDB's threads when accord opens the files (engine 'duckdb' or 'auto'); "
                          "a frame keeps its own engine's settings (Polars: POLARS_MAX_THREADS)")
    if not isinstance(source, (str, os.PathLike)):
        return reduce_frame(source, unit=unit, coder=coder, value=value)
    files = expand(source)
    if engine in ("auto", "memory"):
        if engine == "memory":
            raise AccordError("the memory engine reads with accord.read; use accord.read(path) and accord.alpha")
        engine = "duckdb"
    native = open_files(files, engine, source=str(source), columns=(unit, coder, value), memory_limit=memory_limit,
                        temp_dir=temp_dir, scheduler=scheduler, spark_master=spark_master, threads=threads)
    try:
        return reduce_frame(native, unit=unit, coder=coder, value=value, source=str(source),
                            csv_text=files[0].suffix.lower() not in (".parquet", ".pq"))
    except AccordError:
        raise
    except Exception as exc:
        if type(exc).__module__.split(".")[0].lstrip("_") not in ("duckdb", "polars", "pyspark", "py4j"):
            raise
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        memory = "memory" in first.lower()
        raise AccordError(
            f"{source}: the {engine} engine failed: {first}"
            + ("; raise memory_limit= or point temp_dir= at a disk with room to spill" if memory else ""),
            cli=f"{source}: the {engine} engine failed: {first}"
            + ("; raise --memory-limit or point --temp-dir at a disk with room to spill" if memory else "")) from None


def reduce_frame(
    native: Any,
    *,
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    source: str | None = None,
    csv_text: bool = False,
) -> Reductions:
    """Compute the reductions of a lazy or eager frame of long records (any narwhals backend).

    Parameters
    ----------
    native : DuckDB relation, Polars LazyFrame or DataFrame, Dask DataFrame, PySpark DataFrame, ...
        One row per (unit, coder, value); a missing value is a null (or NaN).
    unit, coder, value : str
        Column names.
    source : str, optional
        Name for messages (the file or glob read).
    csv_text : bool
        The value column is CSV text: read it by :func:`accord.read`'s rule (a column of canonical numbers
        becomes numbers, JSON lists become sets, other text stays text; leading spaces are skipped).

    Returns
    -------
    Reductions

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b", "a", "b"], "value": ["x", "x", "x", "y"]})
    >>> reduce_frame(lf)
    Reductions(polars: 2 units, 2 coders, 4 values, 2 distinct values, 2 signatures)
    """
    nw = _nw()
    try:
        frame = nw.from_native(native)
    except TypeError:
        raise AccordError(
            f"data must be a DuckDB relation, a Polars, Dask, PySpark or pandas DataFrame; got {type(native).__name__}"
        ) from None
    if isinstance(frame, nw.DataFrame):
        frame = frame.lazy()
    engine = str(frame.implementation).split(".")[-1].lower()
    source = source or f"the {engine} data"
    schema = _check_schema(frame, source, unit, coder, value)
    if engine == "duckdb":
        from accord.engines._duckdb import memory_limit, reduce_duckdb

        red = reduce_duckdb(frame, schema, unit=unit, coder=coder, value=value, source=source, csv_text=csv_text)
        if red is None:
            red = _reduce_generic(frame, schema, unit=unit, coder=coder, value=value, source=source,
                                  csv_text=csv_text, engine=engine)
        red.memory_limit = memory_limit(frame)
        return red
    if engine == "polars":
        from accord.engines._polars import reduce_polars

        red = reduce_polars(frame, schema, unit=unit, coder=coder, value=value, source=source, csv_text=csv_text)
        if red is not None:
            return red
    return _reduce_generic(frame, schema, unit=unit, coder=coder, value=value, source=source, csv_text=csv_text,
                           engine=engine)


def _reduce_generic(frame: Any, schema: Any, *, unit: str, coder: str, value: str, source: str, csv_text: bool,
                    engine: str) -> Reductions:
    """The reductions in narwhals, for every engine."""
    nw = _nw()
    vexpr = nw.col(value)
    missing_expr = vexpr.is_null()
    if schema[value].is_float():
        missing_expr = missing_expr | vexpr.is_nan()
    meta = frame.select(
        nw.len().alias("rows"),
        nw.col(unit).null_count().alias("unit_nulls"),
        nw.col(coder).null_count().alias("coder_nulls"),
        missing_expr.cast(nw.Int64).sum().alias("missing"),
    ).collect()
    n_rows = int(_to_numpy(meta, "rows")[0])
    check_rows(n_rows, {what: int(_to_numpy(meta, f"{what}_nulls")[0]) for what in ("unit", "coder")},
               source=source, unit=unit, coder=coder)
    n_missing = int(_to_numpy(meta, "missing")[0] or 0)
    f = long_frame(frame, schema, unit=unit, coder=coder, value=value)
    f, values, frame_values = value_domain(f, schema[value], source=source, column=value, csv_text=csv_text)
    coders = _intern_labels(_to_numpy(f.select("__coder").unique().collect(), "__coder").tolist(), "coder")
    f, keys, base, digits = keyed_frame(f, values, frame_values, coders, source=source)
    if len(coders) <= 62:
        # each row carries 2^code(coder); a unit has no duplicate coder iff the sum has m bits set (a repeated
        # power of two carries and loses a bit): a plain sum, much cheaper than a distinct count per unit
        bits = {c: int(2**i) for i, c in enumerate(coders.tolist())}
        per_unit = f.with_columns(nw.col("__coder").replace_strict(bits, default=0, return_dtype=nw.Int64)
                                  .alias("__b")).group_by("__unit").agg(
            *[nw.col(k).sum().alias(k) for k in keys], nw.len().alias("__m"), nw.col("__b").sum().alias("__b"),
        )
        popcount = sum(((nw.col("__b") // int(2**i)) % 2 for i in range(len(coders))), nw.lit(0))
        per_unit = per_unit.with_columns(popcount.alias("__c"))
    else:
        per_unit = f.group_by("__unit").agg(
            *[nw.col(k).sum().alias(k) for k in keys],
            nw.len().alias("__m"),
            nw.col("__coder").n_unique().alias("__c"),
        )
    sig = (
        per_unit.with_columns((nw.col("__m") != nw.col("__c")).alias("__dup"))
        .group_by(*keys, "__m", "__dup")
        .agg(nw.len().alias("__n"))
        .collect()
    )
    if _to_numpy(sig, "__dup").astype(bool).any():
        _raise_duplicate(f, source, unit, coder, values, frame_values)
    return assemble(
        [_to_numpy(sig, k).astype(np.int64) for k in keys], _to_numpy(sig, "__m").astype(np.int64),
        _to_numpy(sig, "__n").astype(float), f=f, keys=keys, base=base, digits=digits, values=values,
        frame_values=frame_values, coders=coders, n_rows=n_rows, n_missing=n_missing, source=source, engine=engine,
    )

