"""Choosing an engine and opening the data lazily: files and globs, or a frame the caller already has.

- ``duckdb`` (the embedded default for large files): a DuckDB relation over
  ``read_parquet`` / ``read_csv`` of every file the glob matches, on a
  connection with ``memory_limit`` and ``temp_directory`` set so that large
  groupings spill to disk instead of failing;
- ``polars``: ``scan_parquet`` / ``scan_csv`` (a LazyFrame; the grouped queries
  run on Polars' streaming engine where it applies);
- ``dask``: ``dask.dataframe.read_parquet`` / ``read_csv``, computed on the
  cluster at ``scheduler`` when given (a ``distributed.Client``), else on the
  current default scheduler;
- ``spark``: ``spark.read.parquet`` / ``csv`` on the active SparkSession, or one
  built for ``spark_master``;
- ``memory``: :func:`accord.read` and the in-memory engine.

``auto`` picks ``memory`` for one file whose estimated in-memory size is
below ``memory_share`` of the machine's memory, and ``duckdb`` otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, choice_error, install_hint
from accord._shared.globs import _FORMATS, expand

__all__ = ["ENGINES", "choose_engine", "default_memory_limit", "expand", "open_files", "total_memory"]

ENGINES = ("auto", "memory", "duckdb", "polars", "dask", "spark")
#: In-memory size of the memory engine per byte on disk (pandas objects, the interned codes, the counts):
#: measured on the benchmark's 20M-row file (47 MiB Parquet, 4.9 GiB peak in memory; see BENCHMARKS.md).
EXPANSION = {"parquet": 100.0, "csv": 20.0, "tsv": 20.0}
#: Seconds to wait for a Dask scheduler (``scheduler=``, ``--scheduler``) to answer before giving up (a reachable
#: one answers in milliseconds; with the imports, `accord agree --engine dask` then ends within about 10 s).
SCHEDULER_TIMEOUT = 5.0


def dask_client(distributed: Any, address: str, *, timeout: float | None = None) -> Any:
    """A ``distributed.Client`` of the scheduler at *address*, or an AccordError within *timeout* seconds
    (:data:`SCHEDULER_TIMEOUT`, 5 s) when it cannot be reached, without distributed's own log lines."""
    import logging

    wait = SCHEDULER_TIMEOUT if timeout is None else timeout
    loggers = [logging.getLogger(n) for n in ("distributed", "distributed.client", "distributed.core",
                                              "distributed.comm", "tornado", "asyncio")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        return distributed.Client(address, timeout=f"{wait:g}s")
    except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError; a bad address a ValueError
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        said = f" {address}: cannot reach the Dask scheduler within {wait:g} s ({first})"
        raise AccordError(f"scheduler{said}", cli=f"--scheduler{said}") from None
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _format(files: list[Path], source: str) -> str:
    kinds = {_FORMATS.get(f.suffix.lower()) for f in files}
    if None in kinds:
        bad = next(f for f in files if f.suffix.lower() not in _FORMATS)
        raise AccordError(f"{bad}: the lazy engines read Parquet, CSV or TSV (.parquet, .csv, .tsv); "
                          f"got {bad.suffix!r}")
    if len(kinds) != 1:
        raise AccordError(f"{source}: the files mix formats ({', '.join(sorted(k for k in kinds if k))})")
    return kinds.pop()  # type: ignore[return-value]


def total_memory() -> int:
    """Bytes of physical memory (0 when unknown)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 0


#: Bytes a row may take in DuckDB's per-unit table when every row is a unit of its own (keys, counts, hash entry).
BYTES_PER_ROW = 64
#: The smallest default memory limit (bytes): small data need no less to run without spilling.
MIN_MEMORY_LIMIT = 512 * 2**20


def default_memory_limit(rows: int, memory: int | None = None) -> int:
    """DuckDB's memory limit (bytes) when none is given: what *rows* rows may need, at least
    :data:`MIN_MEMORY_LIMIT`, and at most a quarter of the machine's *memory* (DuckDB's own default is 80%).

    Past the limit DuckDB spills to its temporary directory instead of growing: a 20M-row file of 5M units
    peaks at about 0.8 GB in all (measured in BENCHMARKS.md, section 9), where 80% of a 24 GiB machine would
    let it take far more than it needs.

    >>> default_memory_limit(1_000, memory=16 * 2**30) // 2**20, default_memory_limit(10**9, memory=16 * 2**30) // 2**30
    (512, 4)
    """
    memory = total_memory() if memory is None else memory
    need = max(MIN_MEMORY_LIMIT, BYTES_PER_ROW * int(rows))
    return min(need, max(MIN_MEMORY_LIMIT // 2, memory // 4)) if memory else need


def _row_estimate(con: Any, files: list[Path], fmt: str) -> int:
    """Rows in *files*: Parquet's own count (its footers), or one row per 8 bytes of text."""
    if fmt == "parquet":
        try:
            return int(con.execute(f"SELECT sum(num_rows) FROM parquet_file_metadata({_quote_list(files)})")
                       .fetchone()[0] or 0)
        except Exception:  # an unreadable footer is reported when the file is read
            pass
    return sum(f.stat().st_size for f in files) // 8


def choose_engine(files: list[Path], *, memory_share: float = 0.25) -> str:
    """``memory`` for one file whose estimated in-memory size fits *memory_share* of memory, else ``duckdb``."""
    if not 0 < memory_share <= 1:
        raise AccordError(f"memory_share must be in (0, 1]; got {memory_share!r}")
    if len(files) > 1:
        return "duckdb"
    fmt = _FORMATS.get(files[0].suffix.lower(), "csv")
    need = files[0].stat().st_size * EXPANSION.get(fmt, 3.0)
    mem = total_memory()
    return "duckdb" if mem and need > memory_share * mem else "memory"


def _import(name: str, extra: str) -> Any:
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise AccordError(f"this engine needs {name}: {install_hint(extra)}") from None


def duckdb_connection(*, memory_limit: str | None = None, temp_dir: str | os.PathLike[str] | None = None,
                      threads: int | None = None) -> Any:
    """A DuckDB connection that spills to *temp_dir* past *memory_limit* (e.g. ``"2GB"``; the files' readers set
    :func:`default_memory_limit` when none is given)."""
    duckdb = _import("duckdb", "duckdb")
    con = duckdb.connect(":memory:")
    try:
        if memory_limit:
            con.execute(f"SET memory_limit = '{_size(memory_limit)}'")
        if temp_dir:
            Path(temp_dir).mkdir(parents=True, exist_ok=True)
            con.execute("SET temp_directory = ?", [str(temp_dir)])
        if threads:
            con.execute(f"SET threads = {int(threads)}")
        con.execute("SET preserve_insertion_order = false")
        con.execute("SET enable_progress_bar = false")
    except duckdb.Error as exc:
        raise AccordError(f"memory_limit / temp_dir: DuckDB refused the setting: {exc}",
                          cli=f"--memory-limit / --temp-dir: DuckDB refused the setting: {exc}") from None
    return con


def _size(text: str) -> str:
    t = str(text).strip().replace(" ", "")
    import re

    if not re.fullmatch(r"\d+(\.\d+)?([KMGT]i?B|B)?", t, flags=re.IGNORECASE):
        raise AccordError(f"memory_limit must be a size such as 2GB or 500MB; got {text!r}")
    return t


def _quote_list(files: list[Path]) -> str:
    return "[" + ", ".join("'" + str(f).replace("'", "''") + "'" for f in files) + "]"


def open_files(
    files: list[Path],
    engine: str,
    *,
    source: str,
    columns: tuple[str, str, str],
    memory_limit: str | None = None,
    temp_dir: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    spark_master: str | None = None,
    threads: int | None = None,
) -> Any:
    """A lazy native frame over *files* for *engine*; each file's schema is checked first when there are several."""
    fmt = _format(files, source)
    if len(files) > 1:
        first = None
        for f in files:  # schemas only (Parquet footers, CSV headers): cheap, and names the file at fault
            native = _open(engine, [f], fmt, memory_limit=memory_limit, temp_dir=temp_dir, scheduler=scheduler,
                           spark_master=spark_master, value=columns[2])
            schema = _schema_of(native, str(f), columns)
            if first is None:
                first = (f, schema)
            else:
                for col in columns:
                    if schema[col] != first[1][col]:
                        raise AccordError(
                            f"{f}: column {col!r} has type {schema[col]}, but {first[1][col]} in {first[0]}"
                        )
    return _open(engine, files, fmt, memory_limit=memory_limit, temp_dir=temp_dir, scheduler=scheduler,
                 spark_master=spark_master, value=columns[2], threads=threads)


def _schema_of(native: Any, source: str, columns: tuple[str, str, str]) -> Any:
    import narwhals as nw

    from accord.engines._reduced import _check_schema

    frame = nw.from_native(native)
    return _check_schema(frame, source, *columns)


def _open(engine: str, files: list[Path], fmt: str, *, memory_limit: str | None, temp_dir: Any,
          scheduler: str | None, spark_master: str | None, value: str | None = None, threads: int | None = None) -> Any:
    """A lazy frame over *files*.  In CSV the *value* column is read as text, as :func:`accord.read` reads it
    (accord's own rule then makes canonical numbers numbers; see :mod:`accord.engines._domain`), and only an
    empty cell is missing."""
    names = [str(f) for f in files]
    sep = "\t" if fmt == "tsv" else ","
    if engine == "duckdb":
        con = duckdb_connection(memory_limit=memory_limit, temp_dir=temp_dir, threads=threads)
        if not memory_limit:
            con.execute(f"SET memory_limit = '{default_memory_limit(_row_estimate(con, files, fmt)) // 2**20}MiB'")
        try:
            if fmt == "parquet":
                return con.sql(f"SELECT * FROM read_parquet({_quote_list(files)})")
            sql = f"read_csv({_quote_list(files)}, header = true, delim = '{sep}'"
            rel = con.sql(f"SELECT * FROM {sql})")
            if value in rel.columns:
                quoted = "'" + value.replace("'", "''") + "'"
                rel = con.sql(f"SELECT * FROM {sql}, types = {{{quoted}: 'VARCHAR'}})")
            return rel
        except Exception as exc:  # duckdb.Error subclasses
            raise AccordError(f"{names[0]}: DuckDB cannot read it: {str(exc).splitlines()[0]}") from None
    if engine == "polars":
        pl = _import("polars", "polars")
        if fmt == "parquet":
            return pl.scan_parquet(names)
        lf = pl.scan_csv(names, separator=sep)
        if value in lf.collect_schema().names():
            lf = pl.scan_csv(names, separator=sep, schema_overrides={value: pl.String})
        return lf
    if engine == "dask":
        dd = _import("dask.dataframe", "dask")
        if scheduler:
            distributed = _import("distributed", "dask")
            try:
                current = distributed.get_client()
            except ValueError:
                current = None
            if current is None or current.scheduler.address != scheduler:
                dask_client(distributed, scheduler)  # becomes the default scheduler of dask.compute
        if fmt == "parquet":
            # pyarrow types keep a list column a list (set values); numpy ones would make it an object column
            return dd.read_parquet(names, dtype_backend="pyarrow")
        return dd.read_csv(names, sep=sep, dtype={value: "string"} if value else None, keep_default_na=False,
                           na_values=[""])
    if engine == "spark":
        spark = spark_session(spark_master)
        if fmt == "parquet":
            return spark.read.parquet(*names)
        sdf = spark.read.csv(names, header=True, inferSchema=True, sep=sep, escape='"')
        if value in sdf.columns:
            from pyspark.sql.types import StringType, StructField, StructType

            schema = StructType([StructField(f.name, StringType() if f.name == value else f.dataType, True)
                                 for f in sdf.schema.fields])
            sdf = spark.read.csv(names, header=True, schema=schema, sep=sep, escape='"')
        return sdf
    raise choice_error("engine", engine, ENGINES)


def spark_session(master: str | None = None) -> Any:
    """The active SparkSession, or a new one for *master* (``local[2]``, ``spark://host:7077``)."""
    _import("pyspark", "spark")
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active
    builder = SparkSession.builder.appName("accord").config("spark.ui.enabled", "false")
    master = master or "local[*]"
    if master.startswith("local"):  # the reductions are small: a few shuffle partitions, not Spark's 200
        builder = builder.config("spark.sql.shuffle.partitions", "8")
    return builder.master(master).getOrCreate()
