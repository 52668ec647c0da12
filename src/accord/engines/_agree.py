"""The agreement of a file, as ``accord agree`` measures it: which reader, which engine, then every coefficient.

:func:`agree_file` decides how to read the input (a confusion matrix, an annotation tool's export, a plain
table in memory, or a Parquet/CSV file or glob through a lazy engine when the memory would not hold it),
reads it, and returns the :class:`~accord.coefficients.Agreement` of :func:`accord.coefficients.agree`
(computed from the lazy engine's reductions where one was used).  The command line reads its options into
this one call and prints the result.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, AccordWarning, Message, choice_error, for_cli
from accord.coefficients._agree import (
    Agreement,
    agree,
    bootstrap_intervals,
    check_agree_options,
    refuse_kappa,
)
from accord.coefficients._registry import KAPPAS, MEMORY_COEFFICIENTS

__all__ = ["agree_file", "lazy_engine"]

#: the suffixes of the tables accord.read reads without an importer
_TABLES = (".csv", ".tsv", ".tab", ".parquet", ".pq")


def agree_file(
    file: str | Path,
    coefficient: str = "alpha",
    distance: Any = None,
    *,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    layout: str | None = None,
    coders: list[str] | None = None,
    sep: str | None = None,
    importer: Any = None,
    confusion: bool = False,
    engine: str = "auto",
    memory_limit: str | None = None,
    temp_dir: Any = None,
    memory_share: float = 0.25,
    scheduler: str | None = None,
    spark_master: str | None = None,
    say: Callable[[str], None] | None = None,
    progress: bool = False,
    **options: Any,
) -> Agreement:
    """The agreement of the annotations in *file*, read and computed as ``accord agree`` does.

    Parameters
    ----------
    file : path
        A table (its columns and layout told from the file where not given), a folder of tables, an
        annotation tool's export, a confusion matrix (*confusion*), or a glob of Parquet/CSV files.
    coefficient, distance
        As :func:`accord.coefficients.agree` takes them; the distance defaults to nominal, or to the one that
        fits an export's values.
    unit, coder, value, layout, coders, sep
        The table's columns and layout, as :func:`accord.read` takes them.
    importer : ImportOptions, optional
        The annotation tool's importer and its options (:class:`accord.importers.ImportOptions`).
    confusion : bool
        *file* is a square confusion matrix of two coders' counts.
    engine : str
        ``auto``, ``memory``, ``duckdb``, ``polars``, ``dask`` or ``spark``; ``auto`` takes DuckDB for globs and
        for Parquet/CSV files larger than *memory_share* of the memory.
    memory_limit, temp_dir, scheduler, spark_master
        The lazy engine's settings (:func:`accord.engines.reduce`).
    say : callable, optional
        Called with each line to tell the user while reading (a format guessed).
    progress : bool
        Show progress on stderr (reading a large file, the bootstrap).
    **options
        Of :func:`accord.coefficients.agree`: ``order``, ``weights``, ``weight_scores``, ``n_categories``,
        ``icc_form``, ``bootstrap``, ``confidence``, ``rng``, ``diagnostics``.

    Returns
    -------
    Agreement
        With :attr:`~Agreement.imported` (an export's import), or :attr:`~Agreement.read_as` (what was read
        from a plain table), and the engine used.
    """
    from accord.importers._input import ImportOptions, headed_table

    file = Path(file)
    importer = importer or ImportOptions()
    check_agree_options(coefficient, weights=options.get("weights"), weight_scores=options.get("weight_scores",
                        "values"), bootstrap=options.get("bootstrap", 0))
    if confusion and (importer.given() or layout is not None):
        given = [*importer.given(), *(["--layout"] if layout is not None else [])]
        raise AccordError(f"confusion=True reads a square table of counts: not with {', '.join(given)}",
                          cli=f"--confusion reads a square table of counts: not with {', '.join(given)}")
    if layout is not None and layout not in ("long", "wide", "counts"):
        raise choice_error("layout", layout, ("long", "wide", "counts"))
    # a table with a tool's unmistakable header (an MTurk batch, INCEpTION's agreement export) is that tool's
    plain = not confusion and importer.tool is None and importer.sheet is None and headed_table(file) is None
    lazy = lazy_engine(file, engine, layout, memory_share, sep) if plain else None
    if lazy is not None:
        return _agree_lazy(file, lazy, coefficient, distance, importer=importer, unit=unit, coder=coder,
                           value=value, memory_limit=memory_limit, temp_dir=temp_dir, scheduler=scheduler,
                           spark_master=spark_master, progress=progress, **options)
    data, imported, default, categories = _read_in_memory(
        file, importer, confusion=confusion, unit=unit, coder=coder, value=value, layout=layout, coders=coders,
        sep=sep, say=say, progress=progress)
    res = agree(data, coefficient, distance, default_distance=default, categories=categories, progress=progress,
                source=data.source or str(file), **options)
    return replace(res, imported=imported, read_as=None if imported is not None or confusion else res.read_as)


def _read_in_memory(file: Path, importer: Any, *, confusion: bool, say: Any, progress: bool, **table: Any
                    ) -> tuple[Any, Any, str, Any]:
    """The annotations of *file* in memory, the import (an export's), the default distance and the categories'
    order (a confusion matrix's)."""
    if confusion:
        from accord.data._confusion import from_confusion, read_confusion
        from accord.data._confusion_records import _label

        frame = read_confusion(file)
        return from_confusion(frame, source=str(file)), None, "nominal", [_label(x) for x in frame.index]
    from accord.importers._input import read_annotations, suggest

    data, imported = read_annotations(file, importer, say=say, progress=progress, **table)
    if imported is None:
        return data, None, "nominal", None
    if imported.kind == "spans":
        held = "this export holds spans" if imported.field is None else f"field {imported.field!r} holds spans"
        raise AccordError(f"{file}: {held}; measure span agreement with accord.spans",
                          cli=f"{file}: {held}; measure span agreement with "
                          f"{suggest('spans', file, importer, tool=imported.tool)}")
    return data, imported, imported.default_distance, None


def _agree_lazy(file: Path, lazy: str, coefficient: str, distance: Any, *, importer: Any, unit: Any, coder: Any,
                value: Any, memory_limit: Any, temp_dir: Any, scheduler: Any, spark_master: Any, progress: bool,
                order: Any = None, weights: Any = None, weight_scores: str = "values", n_categories: Any = None,
                icc_form: Any = None, bootstrap: int = 0, confidence: float = 0.95, rng: Any = None,
                diagnostics: bool = False) -> Agreement:
    """:func:`accord.coefficients.agree` through a lazy engine's reductions of *file*."""
    from accord.coefficients._agree import _hint
    from accord.coefficients._registry import COEFFICIENTS as LAZY
    from accord.distances._ordered import ordered_distance
    from accord.engines._api import applicable, compute
    from accord.engines._reductions import reduce

    coefficient = check_agree_options(coefficient, weights=weights, weight_scores=weight_scores, bootstrap=bootstrap)
    if importer.given():
        flags = ", ".join(importer.given())
        raise AccordError(f"{flags} read an annotation tool's export (with tool=)",
                          cli=f"{flags} read an annotation tool's export (with --from)")
    if coefficient in MEMORY_COEFFICIENTS or weights is not None or n_categories is not None or icc_form is not None:
        raise AccordError(f"coefficient={coefficient!r}, weights, n_categories and icc_form are computed in memory: "
                          f"pass engine='memory' (the {lazy} engine computes {', '.join(LAZY)})",
                          cli=f"--coefficient {coefficient}, --weights, --categories and --icc-form are computed in "
                          f"memory: pass --engine memory (the {lazy} engine computes {', '.join(LAZY)})")
    read_as, sampled = None, False
    if unit is None or coder is None or value is None:
        from accord.data._read import columns_of

        read_as = columns_of(file, unit=unit, coder=coder, value=value)
        unit, coder, value, sampled = read_as.unit, read_as.coder, read_as.value, True
    red = reduce(str(file), engine=lazy, unit=unit, coder=coder, value=value, memory_limit=memory_limit,
                 temp_dir=temp_dir, scheduler=scheduler, spark_master=spark_master)
    dist = ordered_distance(distance or "nominal", order, red.values, source=red.source or str(file))
    if coefficient == "kappa":
        refuse_kappa([k for k in KAPPAS if k in applicable(red)])
    names = applicable(red) if coefficient == "all" else [coefficient]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        results = {name: compute(red, name, dist) for name in names}
    notes: list[Any] = [Message(str(w.message), cli=for_cli(w.message)) for w in caught
                        if issubclass(w.category, AccordWarning)]
    left_out = ({name: Message("is computed in memory only (engine='memory')",
                               cli="is computed in memory only (--engine memory)") for name in MEMORY_COEFFICIENTS}
                if coefficient == "all" else {})
    intervals, drawn = bootstrap_intervals(results, confidence=confidence, bootstrap=bootstrap, rng=rng,
                                           progress=progress, notes=notes)
    hint = None if distance is not None else _hint(results, red, dist)
    return Agreement(coefficient=coefficient, distance=dist, results=results, left_out=left_out, notes=tuple(notes),
                     confidence=confidence, bootstrap=bootstrap, seed=rng, intervals=intervals, bootstrapped=drawn,
                     scale_hint=hint, diagnostics=_lazy_diagnostics(red, dist) if diagnostics else None,
                     n_coders=red.n_coders, n_units=red.n_units, n_entries=red.n_entries, engine=red.engine,
                     memory_limit=getattr(red, "memory_limit", None), read_as=read_as, sampled=sampled,
                     source=red.source or str(file))


def _lazy_diagnostics(red: Any, distance: Any) -> dict[str, Any]:
    from accord.engines._coefficients import coder_left_out, pairwise_agreement, top_units

    diag = {"units": top_units(red, distance=distance, n=10),
            "pairs": pairwise_agreement(red, distance=distance).to_frame()}
    if red.n_coders >= 3:
        diag["left_out"] = coder_left_out(red, distance=distance).to_frame()
    return diag


def lazy_engine(file: Path, engine: str, layout: str | None, memory_share: float, sep: str | None = None
                ) -> str | None:
    """The lazy engine to read *file* with, or None for the in-memory reader."""
    from accord.engines._sources import ENGINES, choose_engine, expand

    if engine not in ENGINES:
        raise choice_error("engine", engine, ENGINES)
    if engine == "memory" or (engine == "auto" and (layout in ("wide", "counts") or sep is not None)):
        return None
    if layout in ("wide", "counts"):
        raise AccordError(f"layout={layout!r} needs engine='memory' (or 'auto'); got engine={engine!r}",
                          cli=f"--layout {layout} needs --engine memory (or auto); got --engine {engine}")
    if sep is not None:
        raise AccordError(f"sep is read by the memory engine (engine='memory' or 'auto'); got engine={engine!r}",
                          cli=f"--sep is read by the memory engine (--engine memory or auto); got --engine {engine}")
    if engine != "auto":
        return engine
    text = str(file)
    if not any(ch in text for ch in "*?["):
        if not file.exists():
            return None  # the in-memory reader says "no such file"
        if file.is_dir() or file.suffix.lower() not in _TABLES:
            return None  # JSONL, spreadsheets and exports (files or folders): the in-memory readers
    choice = choose_engine(expand(file), memory_share=memory_share)
    return None if choice == "memory" else choice
