"""One entry point: read a path, a glob or a frame with the engine asked for, and compute coefficients."""

from __future__ import annotations

import os
from typing import Any

from accord.coefficients import COEFFICIENTS, applicable_to, compute_with
from accord.engines.reductions import Reductions, reduce_frame
from accord.engines.sources import ENGINES, expand, open_files
from accord.errors import AccordError, choice_error

__all__ = ["COEFFICIENTS", "agree", "applicable", "compute", "reduce"]


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
        of the machine's memory: :func:`~accord.engines.sources.default_memory_limit`) and spill directory.
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


def compute(red: Reductions, coefficient: str, distance: Any = "nominal") -> Any:
    """One coefficient by its name (:data:`accord.coefficients.COEFFICIENTS`), from the reductions."""
    from accord.engines import coefficients

    return compute_with(coefficients, red, coefficient, distance)


def applicable(red: Reductions) -> list[str]:
    """The coefficients that apply to the data (as ``accord agree --coefficient all`` chooses them)."""
    return applicable_to(red.n_coders, red.signatures.m)


def agree(
    source: Any,
    *,
    coefficients: str | tuple[str, ...] | list[str] = ("alpha",),
    distance: Any = "nominal",
    engine: str = "auto",
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    memory_limit: str | None = None,
    temp_dir: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
    spark_master: str | None = None,
) -> dict[str, Any]:
    """Coefficients of *source* (files, a glob or a lazy frame), each from the same reductions.

    Parameters
    ----------
    coefficients : "all", a name, or names
        Among ``alpha``, ``percent``, ``cohen``, ``scott``, ``fleiss``,
        ``multi-kappa``, ``bennett``, ``gwet``; ``"all"``: those that apply.
    Other parameters as in :func:`reduce`.

    Returns
    -------
    dict
        Coefficient name -> result object (the in-memory result classes).

    Examples
    --------
    >>> import polars as pl
    >>> lf = pl.LazyFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["a", "b"] * 3, "value": [1, 1, 2, 2, 1, 2]})
    >>> res = agree(lf, coefficients=("alpha", "cohen"))
    >>> round(res["alpha"].alpha, 4), round(res["cohen"].kappa, 4)
    (0.4444, 0.4)
    """
    red = source if isinstance(source, Reductions) else reduce(
        source, engine=engine, unit=unit, coder=coder, value=value, memory_limit=memory_limit, temp_dir=temp_dir,
        scheduler=scheduler, spark_master=spark_master,
    )
    if coefficients == "all":
        names = applicable(red)
    elif isinstance(coefficients, str):
        names = [coefficients]
    else:
        names = list(coefficients)
    for name in names:
        if name not in COEFFICIENTS:
            raise AccordError(f"coefficients must be among {', '.join(COEFFICIENTS)} or 'all'; got {name!r}")
    return {name: compute(red, name, distance) for name in names}
