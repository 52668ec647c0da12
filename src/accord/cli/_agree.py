"""``accord agree``: reliability of a file of annotations."""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from accord._shared.errors import AccordError, AccordWarning, choice_error, plural
from accord._shared.names import column
from accord.cli._common import cli_errors, console, echo, print_json, said
from accord.cli._importing import ImporterArgs, importer_options
from accord.cli._options import OrderOption, order_items, ordered_distance, parse_order
from accord.coefficients._diagnostics import coder_left_out, pairwise_agreement, unit_disagreement
from accord.coefficients._registry import (
    ALL_COEFFICIENTS,
    KAPPAS,
    MEMORY_COEFFICIENTS,
    kappas_that_apply,
    resolve,
    same_coefficients,
)
from accord.data._annotations import Annotations
from accord.data._read import read
from accord.distances import DISTANCE_NAMES, get_distance

__all__ = ["register"]

#: files larger than this (bytes) show a progress line while they are read (on a terminal, without --quiet)
_BIG_FILE = 64 * 2**20


def _value(res: Any) -> float:
    for name in ("alpha", "kappa", "percent_agreement", "ac", "w", "ccc"):
        if hasattr(res, name):
            return float(getattr(res, name))
    return math.nan


def _finite(x: Any) -> float | None:
    """*x* as a float when it is a finite number, else None."""
    try:
        f = float(x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def _print_inference(label: str, res: Any, interval: tuple[float, float] | None, confidence: float) -> None:
    """The large-sample standard error, interval and p-value of a result that has them, as Python gives them
    (Cohen's kappa: Fleiss, Cohen & Everitt 1969; Fleiss' kappa; Gwet's AC1/AC2; Conger...)."""
    se, p = _finite(getattr(res, "standard_error", None)), _finite(getattr(res, "p_value", None))
    if se is None and p is None:
        return
    said = [f"standard error {se:.4f}"] if se is not None else []
    if interval is not None:
        said.append(f"{confidence * 100:g}% interval [{interval[0]:.4f}, {interval[1]:.4f}]")
    if p is not None:
        said.append(f"p = {p:.4g} against no agreement beyond chance")
    console.print(f"{label}: {', '.join(said)}", highlight=False, soft_wrap=True)


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return "undefined" if math.isnan(x) else f"{x:.4f}"
    return str(x)


_NO_IMPORTER = ImporterArgs()


@importer_options
def agree(
    file: Annotated[
        Path,
        typer.Argument(help="A table of annotations (CSV, TSV, .txt, JSONL, Parquet, .xlsx, .ods; its columns and "
                       "layout told from the file unless given), a folder of such tables, an annotation tool's "
                       "export (see --from), or a glob of Parquet/CSV files (quote the glob) for a lazy engine."),
    ],
    unit: Annotated[str | None, typer.Option(help="Column holding the unit (item) id (default: told from the "
                                             "column names: unit, item, id, doc_id, question...).")] = None,
    coder: Annotated[str | None, typer.Option(help="Column holding the coder (annotator) id (default: told from "
                                              "the column names: coder, annotator, rater, worker...).")] = None,
    value: Annotated[
        str | None, typer.Option(help="Column holding the value; JSON lists for set values (default: told from the "
                                 "column names: value, label, score, rating, answer...).")
    ] = None,
    layout: Annotated[
        str | None, typer.Option(help="long: one row per (unit, coder, value); wide: one row per unit, a column per "
                                 "coder; counts: one row per unit, a column per category, each cell a count "
                                 "(default: told from the file).")
    ] = None,
    coders: Annotated[
        str | None, typer.Option(help="Wide layout: comma-separated coder columns (default: all but --unit).")
    ] = None,
    sep: Annotated[
        str | None, typer.Option(help="Text tables: the delimiter, one character or 'tab' (default: sniffed among "
                                 "comma, semicolon, tab and pipe).")
    ] = None,
    distance: Annotated[
        str | None,
        typer.Option(help=f"Distance between values: {', '.join(DISTANCE_NAMES)} (default: nominal, or the one "
                     "that fits an export's values: masi-2006 for sets, ordinal for ratings...)."),
    ] = None,
    weights: Annotated[
        str | None,
        typer.Option(help="Kappa weights by name for ordered categories (irrCAC's): linear, quadratic, ordinal, "
                     "radical, ratio, circular, bipolar, identity; for cohen, fleiss, gwet, conger, "
                     "brennan-prediger, light, and for alpha and scott as the distance 1 - w. Numeric values are "
                     "taken in numeric order."),
    ] = None,
    weight_scores: Annotated[
        str, typer.Option(help="What --weights measure distances on: values (numeric codes by their values, "
                          "irrCAC's) or ranks (the categories present one step apart, R irr's kappa2).")
    ] = "values",
    icc_form: Annotated[
        str | None, typer.Option(help="The ICC form reported as the ICC's value: McGraw & Wong's ICC(1), ICC(k), "
                                 "ICC(C,1), ICC(C,k), ICC(A,1), ICC(A,k) or Shrout & Fleiss' ICC(1,1) ... ICC(3,k) "
                                 "(default ICC(A,1)); every form is shown.")
    ] = None,
    categories: Annotated[
        str | None,
        typer.Option(help="bennett, brennan-prediger: the categories of the scale, comma-separated, or their "
                     "number (default: those observed)."),
    ] = None,
    coefficient: Annotated[
        str, typer.Option(help=f"One of {', '.join(ALL_COEFFICIENTS)}, or 'all' (those that apply, and what "
                          "is left out and why); the names people use work too (krippendorff, cohen-kappa, "
                          "fleiss-kappa, ac1, kendall, lin...), and 'kappa' lists the kappas that apply.")
    ] = "alpha",
    bootstrap: Annotated[
        int, typer.Option(help="Bootstrap resamples for the confidence intervals of alpha and Light's kappa (0: none).")
    ] = 0,
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None,
    confidence: Annotated[float, typer.Option(help="Confidence level of the interval.")] = 0.95,
    diagnostics: Annotated[
        bool, typer.Option("--diagnostics", help="Also show units, coder pairs and coders left out.")
    ] = False,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")] = False,
    confusion: Annotated[
        bool, typer.Option("--confusion", help="FILE is a confusion matrix of two coders: a square CSV table of "
                           "counts with a header row of categories and a first column of categories (rows: the "
                           "first coder); its order is the categories' order for --weights.")
    ] = False,
    engine: Annotated[
        str,
        typer.Option(help="auto, memory, duckdb, polars, dask or spark; auto: DuckDB for globs and for Parquet/CSV "
                     "files larger than --memory-share of memory, else memory."),
    ] = "auto",
    memory_limit: Annotated[
        str | None, typer.Option(help="DuckDB's memory limit (e.g. 2GB); past it DuckDB spills to --temp-dir.")
    ] = None,
    temp_dir: Annotated[
        Path | None, typer.Option(help="Where DuckDB spills (default: DuckDB's own, .tmp in the working directory).")
    ] = None,
    memory_share: Annotated[
        float, typer.Option(help="auto engine: use DuckDB when the estimated in-memory size passes this share.")
    ] = 0.25,
    scheduler: Annotated[
        str | None, typer.Option(help="Dask: address of the distributed scheduler (tcp://host:8786).")
    ] = None,
    spark_master: Annotated[
        str | None, typer.Option(help="Spark: master URL for a new session (default local[*]).")
    ] = None,
    order: OrderOption = None,
    importer: ImporterArgs = _NO_IMPORTER,
) -> None:
    """Agreement (Krippendorff's alpha, the kappa family) of annotations in a file.

    Examples: accord agree labels.csv --distance interval --bootstrap 1000 --seed 1;
    accord agree sheet.csv --layout wide --unit item --coefficient all;
    accord agree export.json --from label-studio --field sentiment
    """
    coefficient = resolve(coefficient)  # the names people type (krippendorff, cohen-kappa...) -> accord's
    if weight_scores not in ("values", "ranks"):
        raise choice_error("weight-scores", weight_scores, ("values", "ranks"))
    if weight_scores != "values" and weights is None:
        raise AccordError(f"--weight-scores {weight_scores} says how named weights space the categories: "
                          "pass it with --weights (linear, quadratic...)")
    # nominal by default says when the values look like a scale; weights are a scale chosen
    scale_chosen = distance is not None or weights is not None
    from accord.cli import _ratings

    from_, sheet = importer.tool, importer.sheet
    if confusion and (importer.given() or layout is not None):
        given = [*importer.given(), *(["--layout"] if layout is not None else [])]
        raise AccordError(f"--confusion reads a square table of counts: not with {', '.join(given)}")
    if bootstrap < 0:
        raise AccordError(f"--bootstrap must be >= 0; got {bootstrap}")
    if layout is not None and layout not in ("long", "wide", "counts"):
        raise choice_error("layout", layout, ("long", "wide", "counts"))
    coder_cols = [c.strip() for c in coders.split(",")] if coders else None
    from accord.cli._importing import headed_table

    # a table with a tool's unmistakable header (an MTurk batch, INCEpTION's agreement export) is that tool's
    headed = not confusion and from_ is None and sheet is None and headed_table(file) is not None
    lazy = (None if confusion or from_ is not None or sheet is not None or headed
            else _lazy_engine(file, engine, layout, memory_share, sep))
    imported = None
    read_line, read_as_said = None, None  # what accord.read read, said on stderr once the numbers stand
    caught: list[str] = []
    left_out: dict[str, str] = {}
    cat_order = None
    if lazy is None:
        if confusion:
            data, cat_order = _ratings.load_confusion(file)
            distance = distance or "nominal"
        elif from_ is not None or headed or file.suffix.lower() not in (".csv", ".tsv", ".tab", ".parquet", ".pq"):
            from dataclasses import replace

            from accord.cli._importing import load_export

            read_as = importer if importer.field is not None or value in (None, "value") else replace(importer,
                                                                                                     field=value)
            given = {"layout": layout, "unit": unit, "coder": coder, "coders": coder_cols}
            imported = load_export(
                file, read_as, plain_fallback=True, fits="categorical",
                spreadsheet_options={k: v for k, v in given.items() if v is not None},
            )
        if imported is None and not confusion:
            passed = [f for f in importer.given() if f in ("--offsets", "--option")]
            if passed:
                raise AccordError(f"{' and '.join(passed)} {'pass' if len(passed) > 1 else 'passes'} options to an "
                                  "annotation tool's importer (with --from)")
            if importer.field is not None:
                raise AccordError("--field reads a field of an annotation tool's export (with --from); for a "
                                  "table use --value")
            from accord._shared.progress import Progress

            big = file.is_file() and file.stat().st_size > _BIG_FILE
            with Progress(enabled=big and not quiet, total=1, label="accord agree") as prog:
                with prog.step(f"reading {file.name} ({file.stat().st_size / 2**20:.0f} MiB)" if big else "reading"):
                    data = read(file, unit=unit, coder=coder, value=value, layout=layout,  # type: ignore[arg-type]
                                coders=coder_cols, sheet=_sheet(sheet), sep=sep)
            read_line, read_as_said = f"accord: read {file} as {data.read_as}", data.read_as
            distance = distance or "nominal"
        elif imported is not None:
            if imported.kind == "spans":
                from accord.cli._importing import suggest

                held = "this export holds spans" if imported.field is None else f"field {imported.field!r} holds spans"
                raise AccordError(f"{file}: {held}; measure span agreement with "
                                  f"{suggest('spans', file, importer, tool=imported.tool)}")
            data = imported.annotations
            distance = distance or imported.default_distance
        if weights is not None and order is not None and cat_order is None:
            # --order with --weights: the categories' order for the kappa weights, not a distance's
            cat_order = order_items(parse_order(order) or [], data.values)
        else:
            # text labels under an ordered distance need --order: refused before anything is printed
            distance = ordered_distance(distance, order, data.values, source=data.source or str(file),
                                        set_valued=data.is_set_valued)
        if coefficient == "kappa":
            _which_kappa(kappas_that_apply(data, distance))
        if imported is not None and not json_out:
            echo(imported.report.summary(cli=True), err=True)
        results, left_out, caught = _ratings.compute_named(data, coefficient, distance, weights=weights,
                                                           n_categories=_ratings.scale_categories(categories, data),
                                                           categories=cat_order, weight_scores=weight_scores,
                                                           icc_form=icc_form)
        sizes = (data.n_coders, data.n_units, data.n_entries)
        source: Any = data
        engine_used = "memory"
    else:
        from accord import engines

        if importer.given():
            raise AccordError(f"{', '.join(importer.given())} read an annotation tool's export (with --from)")
        if (coefficient in MEMORY_COEFFICIENTS or weights is not None or categories is not None
                or icc_form is not None):
            raise AccordError(f"--coefficient {coefficient}, --weights, --categories and --icc-form are computed in "
                              "memory: "
                              f"pass --engine memory (the {lazy} engine computes {', '.join(engines.COEFFICIENTS)})")
        distance = distance or "nominal"
        if unit is None or coder is None or value is None:
            from accord.data._read import columns_of

            lazy_read = columns_of(file, unit=unit, coder=coder, value=value)
            unit, coder, value = lazy_read.unit, lazy_read.coder, lazy_read.value
            read_line, read_as_said = f"accord: read {file} as {lazy_read} (told from its first rows)", lazy_read
        red = engines.reduce(str(file), engine=lazy, unit=unit, coder=coder, value=value, memory_limit=memory_limit,
                             temp_dir=temp_dir, scheduler=scheduler, spark_master=spark_master)
        distance = ordered_distance(distance, order, red.values, source=red.source or str(file))
        if coefficient == "kappa":
            _which_kappa([k for k in KAPPAS if k in engines.applicable(red)])
        names = engines.applicable(red) if coefficient == "all" else [coefficient]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always", AccordWarning)
            results = {name: engines.compute(red, name, distance) for name in names}
            caught = [said(x.message) for x in w if issubclass(x.category, AccordWarning)]
        if coefficient == "all":
            left_out = {name: "is computed in memory only (--engine memory)" for name in MEMORY_COEFFICIENTS}
        sizes = (red.n_coders, red.n_units, red.n_entries)
        source = red
        engine_used = red.engine
    interval = None
    if bootstrap and "alpha" in results and not math.isnan(results["alpha"].alpha):
        from accord._shared.progress import Progress

        with Progress(enabled=not quiet, total=1, label="accord agree") as prog:
            with prog.step(f"bootstrap of alpha: {bootstrap} resamples of units"):
                interval = results["alpha"].confidence_interval(confidence, n_resamples=bootstrap, rng=seed)
    light_interval = None  # Light's kappa has no variance of its own: the same bootstrap of units as alpha's
    if bootstrap and "light" in results and not math.isnan(results["light"].kappa):
        try:
            light_interval = results["light"].confidence_interval(confidence, n_resamples=bootstrap, rng=seed)
        except AccordError as exc:
            caught.append(f"Light's kappa: no bootstrap interval ({exc.for_cli()})")
    from accord.coefficients._alpha import scale_hint

    # numbers read as nominal categories because no distance was chosen: alpha ordinal and interval beside
    counted = results.get("alpha") if getattr(results.get("alpha"), "_counts", None) is not None else source
    hint = None if scale_chosen else scale_hint(counted, distance=distance)
    diag = None
    if diagnostics:
        diag = _diagnostics(source, distance)
    if read_line is not None and not json_out:
        echo(read_line, err=True)
    if json_out:
        if len(results) == 1 and coefficient != "all":
            name, res = next(iter(results.items()))
            out: dict[str, Any] = _ratings.with_intervals(name, res, confidence)
        else:
            out = {k: _ratings.with_intervals(k, v, confidence) for k, v in results.items()}
        if coefficient == "all":
            out["left_out"] = left_out
        if light_interval is not None:
            light = out if len(results) == 1 and coefficient != "all" else out["light"]
            light.update(confidence_interval=list(light_interval), confidence_level=confidence,
                         bootstrap_resamples=bootstrap, bootstrap_seed=seed)
        if interval is not None:
            out["confidence_interval"] = list(interval)
            out["confidence_level"] = confidence
            out["bootstrap_resamples"] = bootstrap
            out["bootstrap_seed"] = seed
        if diag is not None:
            out["diagnostics"] = {k: v.to_dict("records") for k, v in diag.items()}
        if engine_used != "memory":
            out["engine"] = engine_used
            if getattr(source, "memory_limit", None):
                out["memory_limit"] = source.memory_limit
        if imported is not None:
            out["import"] = imported.to_dict()
        elif read_as_said is not None:
            out["read_as"] = read_as_said.to_dict()
        if getattr(distance, "order", None) is not None:
            out["order"] = list(distance.order)  # type: ignore[union-attr]
        if hint is not None:
            out["note"] = "; ".join(n for n in (out.get("note"), hint.message.cli) if n)
            out["scale_hint"] = hint.to_dict()
        print_json(out)
        return
    first = next(iter(results.values()), None)
    n_units = getattr(first, "n_units", None) or getattr(first, "n_pairable_units", "")
    via = "" if engine_used == "memory" else f", engine {engine_used}"
    if getattr(source, "memory_limit", None):
        via += f", memory limit {source.memory_limit}"
    if weights is not None:
        via += f", {weights} weights" + (" over ranks" if weight_scores == "ranks" else "")
    table = Table(title=f"Agreement in {file.name} ({plural(sizes[0], 'coder')}, {plural(sizes[1], 'unit')}, "
                  f"{plural(sizes[2], 'value')}, distance {get_distance(distance).name}{via})")
    table.add_column("coefficient")
    table.add_column("value", justify="right")
    table.add_column("observed", justify="right")
    table.add_column("expected", justify="right")
    table.add_column("units used", justify="right")
    intervals = {name: _ratings.interval_of(res, confidence) for name, res in results.items()}
    if interval is not None:
        intervals["alpha"] = interval  # the bootstrap's (how it was drawn: the line under the table)
    if light_interval is not None:
        intervals["light"] = light_interval
    if any(intervals.values()):
        table.add_column(f"{confidence * 100:g}% interval", justify="right")

    for name, res in results.items():
        if name == "icc":
            continue  # its own table of the ten forms
        obs = getattr(res, "observed_disagreement", None)
        exp = getattr(res, "expected_disagreement", None)
        used = getattr(res, "n_pairable_units", None) or getattr(res, "n_units", None) or n_units
        iv = intervals[name]
        table.add_row(_ratings.label(name, res), _fmt(_value(res)), _fmt(obs), _fmt(exp), str(used),
                      *([f"[{iv[0]:.4f}, {iv[1]:.4f}]" if iv else "-"] if any(intervals.values()) else []))
    if table.row_count:
        console.print(table)
    for name, res in results.items():
        if name not in ("kendall-w", "icc"):
            _print_inference(_ratings.label(name, res), res, intervals[name], confidence)
    for old, new in same_coefficients(results):
        console.print(f"{_ratings.label(old, results[old])} is {_ratings.label(new, results[new])} here: every coder "
                      "rated every unit (they differ only over missing ratings)", highlight=False, soft_wrap=True)
    _ratings.print_extra(results, left_out, confidence)
    if "alpha" in results:
        r = results["alpha"]
        console.print(
            f"pairable values n = {r.n_pairable}; units with a single value: "
            f"{r.n_units - r.n_pairable_units} ({plural(r.n_unpairable_values, 'value')} left out)"
        )
        if interval is not None:
            console.print(f"the {confidence * 100:g}% interval of alpha is a bootstrap's ({bootstrap} resamples of "
                          f"units, {_seed_words(seed)})", highlight=False, soft_wrap=True)
    if light_interval is not None:
        console.print(f"the {confidence * 100:g}% interval of Light's kappa is a bootstrap's ({bootstrap} resamples "
                      f"of the units every coder rated, {_seed_words(seed)})", highlight=False, soft_wrap=True)
    scale_note = getattr(results.get("alpha"), "note", None)
    notes = [*caught, *([said(scale_note)] if scale_note else []), *([hint.message.cli] if hint else [])]
    for msg in dict.fromkeys(notes):
        console.print(f"[yellow]note:[/yellow] {escape(str(msg))}", markup=True)
    if diag is not None:
        for title, frame in diag.items():
            t = Table(title={"units": "Units with most disagreement", "pairs": "Coder pairs",
                             "left_out": "Alpha with each coder left out"}[title])
            for col in frame.columns:
                t.add_column(column(str(col)))
            for row in frame.itertuples(index=False):
                t.add_row(*(_fmt(x) for x in row))
            console.print(t)


def _seed_words(seed: int | None) -> str:
    return "no seed" if seed is None else f"seed {seed}"


def _which_kappa(names: list[str]) -> None:
    """Refuse ``--coefficient kappa``, naming the kappas that apply to these data (names to type)."""
    from accord._shared.names import coefficient as name_of

    if not names:
        raise AccordError("--coefficient kappa: no kappa applies to these data; try --coefficient all")
    listed = "; ".join(f"{n}: {name_of(n)}" for n in names)
    raise AccordError(f"--coefficient kappa names no one coefficient; the {'kappa' if len(names) == 1 else 'kappas'} "
                      f"that apply to these data: {listed}. Pass one by its name (--coefficient {names[0]}), or "
                      "--coefficient all for every coefficient that applies")


def _lazy_engine(file: Path, engine: str, layout: str | None, memory_share: float, sep: str | None = None
                 ) -> str | None:
    """The lazy engine to read *file* with, or None for the in-memory reader."""
    from accord.engines._sources import ENGINES, choose_engine, expand

    if engine not in ENGINES:
        raise choice_error("engine", engine, ENGINES)
    if engine == "memory" or (engine == "auto" and (layout in ("wide", "counts") or sep is not None)):
        return None
    if layout in ("wide", "counts"):
        raise AccordError(f"--layout {layout} needs --engine memory (or auto); got --engine {engine}")
    if sep is not None:
        raise AccordError(f"--sep is read by the memory engine (--engine memory or auto); got --engine {engine}")
    if engine != "auto":
        return engine
    text = str(file)
    if not any(ch in text for ch in "*?["):
        if not file.exists():
            return None  # the in-memory reader says "no such file"
        if file.is_dir() or file.suffix.lower() not in (".parquet", ".pq", ".csv", ".tsv", ".tab"):
            return None  # JSONL, spreadsheets and exports (files or folders): the in-memory readers
    choice = choose_engine(expand(file), memory_share=memory_share)
    return None if choice == "memory" else choice


def _diagnostics(source: Any, distance: Any) -> dict[str, Any]:
    if isinstance(source, Annotations):
        diag = {
            "units": unit_disagreement(source, distance=distance).to_frame().head(10),
            "pairs": pairwise_agreement(source, distance=distance).to_frame(),
        }
        if source.n_coders >= 3:
            diag["left_out"] = coder_left_out(source, distance=distance).to_frame()
        return diag
    from accord import engines

    diag = {
        "units": engines.top_units(source, distance=distance, n=10),
        "pairs": engines.pairwise_agreement(source, distance=distance).to_frame(),
    }
    if source.n_coders >= 3:
        diag["left_out"] = engines.coder_left_out(source, distance=distance).to_frame()
    return diag


def _sheet(sheet: str | None) -> str | int:
    if sheet is None:
        return 0
    return int(sheet) if sheet.strip().isdigit() else sheet


def register(app: typer.Typer) -> None:
    """Add ``agree`` to *app*."""
    app.command("agree")(cli_errors(agree))
