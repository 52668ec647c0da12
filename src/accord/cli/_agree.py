"""``accord agree``: reliability of a file of annotations.

The command reads its options, makes one call (:func:`accord.engines.agree_file`: which reader, which
engine, which coefficients, their intervals and notes) and prints the :class:`~accord.coefficients.Agreement`
it returns, as tables or as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from accord._shared.errors import plural
from accord._shared.names import column
from accord.cli._common import cli_errors, console, echo, print_json, said
from accord.cli._importing import ImporterArgs
from accord.cli._options import OptionGroup, OrderOption, TableOptions, with_options
from accord.cli._render import finite, fmt, label, print_extra, print_table, table, value_of
from accord.coefficients._registry import ALL_COEFFICIENTS, same_coefficients
from accord.distances import DISTANCE_NAMES

__all__ = ["register"]


@dataclass(frozen=True)
class CoefficientOptions(OptionGroup):
    """Which coefficients, with which distance or weights, and their intervals."""

    distance: Annotated[str | None, typer.Option(
        help=f"Distance between values: {', '.join(DISTANCE_NAMES)} (default: nominal, or the one that fits an "
             "export's values: masi-2006 for sets, ordinal for ratings...).")] = None
    weights: Annotated[str | None, typer.Option(
        help="Kappa weights by name for ordered categories (irrCAC's): linear, quadratic, ordinal, radical, ratio, "
             "circular, bipolar, identity; for cohen, fleiss, gwet, conger, brennan-prediger, light, and for alpha "
             "and scott as the distance 1 - w. Numeric values are taken in numeric order.")] = None
    weight_scores: Annotated[str, typer.Option(
        help="What --weights measure distances on: values (numeric codes by their values, irrCAC's) or ranks (the "
             "categories present one step apart, R irr's kappa2).")] = "values"
    icc_form: Annotated[str | None, typer.Option(
        help="The ICC form reported as the ICC's value: McGraw & Wong's ICC(1), ICC(k), ICC(C,1), ICC(C,k), "
             "ICC(A,1), ICC(A,k) or Shrout & Fleiss' ICC(1,1) ... ICC(3,k) (default ICC(A,1)); every form is "
             "shown.")] = None
    categories: Annotated[str | None, typer.Option(
        help="bennett, brennan-prediger: the categories of the scale, comma-separated, or their number (default: "
             "those observed).")] = None
    coefficient: Annotated[str, typer.Option(
        help=f"One of {', '.join(ALL_COEFFICIENTS)}, or 'all' (those that apply, and what is left out and why); the "
             "names people use work too (krippendorff, cohen-kappa, fleiss-kappa, ac1, kendall, lin...), and "
             "'kappa' lists the kappas that apply.")] = "alpha"
    bootstrap: Annotated[int, typer.Option(
        help="Bootstrap resamples for the confidence intervals of alpha and Light's kappa (0: none).")] = 0
    seed: Annotated[int | None, typer.Option(help="Seed for the bootstrap.")] = None
    confidence: Annotated[float, typer.Option(help="Confidence level of the interval.")] = 0.95

    def agree_options(self) -> dict[str, Any]:
        """The options as :func:`accord.coefficients.agree` takes them (*categories*: q or the scale's)."""
        return {"coefficient": self.coefficient, "distance": self.distance, "weights": self.weights,
                "weight_scores": self.weight_scores, "icc_form": self.icc_form, "n_categories": self.categories,
                "bootstrap": self.bootstrap, "rng": self.seed, "confidence": self.confidence}


@dataclass(frozen=True)
class EngineOptions(OptionGroup):
    """Where the data are reduced: in memory, or by a lazy engine."""

    engine: Annotated[str, typer.Option(
        help="auto, memory, duckdb, polars, dask or spark; auto: DuckDB for globs and for Parquet/CSV files larger "
             "than --memory-share of memory, else memory.")] = "auto"
    memory_limit: Annotated[str | None, typer.Option(
        help="DuckDB's memory limit (e.g. 2GB); past it DuckDB spills to --temp-dir.")] = None
    temp_dir: Annotated[Path | None, typer.Option(
        help="Where DuckDB spills (default: DuckDB's own, .tmp in the working directory).")] = None
    memory_share: Annotated[float, typer.Option(
        help="auto engine: use DuckDB when the estimated in-memory size passes this share.")] = 0.25
    scheduler: Annotated[str | None, typer.Option(
        help="Dask: address of the distributed scheduler (tcp://host:8786).")] = None
    spark_master: Annotated[str | None, typer.Option(
        help="Spark: master URL for a new session (default local[*]).")] = None

    def engine_options(self) -> dict[str, Any]:
        return {"engine": self.engine, "memory_limit": self.memory_limit, "temp_dir": self.temp_dir,
                "memory_share": self.memory_share, "scheduler": self.scheduler, "spark_master": self.spark_master}


@with_options
def agree(
    file: Annotated[Path, typer.Argument(
        help="A table of annotations (CSV, TSV, .txt, JSONL, Parquet, .xlsx, .ods; its columns and layout told "
             "from the file unless given), a folder of such tables, an annotation tool's export (see --from), or "
             "a glob of Parquet/CSV files (quote the glob) for a lazy engine.")],
    table: TableOptions = TableOptions(),
    chosen: CoefficientOptions = CoefficientOptions(),
    diagnostics: Annotated[bool, typer.Option("--diagnostics", help="Also show units, coder pairs and coders left "
                                                                    "out.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar on stderr.")] = False,
    confusion: Annotated[bool, typer.Option(
        "--confusion", help="FILE is a confusion matrix of two coders: a square CSV table of counts with a header "
        "row of categories and a first column of categories (rows: the first coder); its order is the categories' "
        "order for --weights.")] = False,
    engine: EngineOptions = EngineOptions(),
    order: OrderOption = None,
    importer: ImporterArgs = ImporterArgs(),
) -> None:
    """Agreement (Krippendorff's alpha, the kappa family) of annotations in a file.

    Examples: accord agree labels.csv --distance interval --bootstrap 1000 --seed 1;
    accord agree sheet.csv --layout wide --unit item --coefficient all;
    accord agree export.json --from label-studio --field sentiment;
    accord agree export.json --from label-studio --field all
    """
    from accord.engines._agree import agree_file
    from accord.engines._fields import ALL_FIELDS, agree_fields

    given = {**chosen.agree_options(), **table.read_options(), **engine.engine_options(), "importer": importer,
             "confusion": confusion, "order": order, "diagnostics": diagnostics,
             "say": lambda line: echo(line, err=True), "progress": not quiet}
    if importer.field == ALL_FIELDS:  # every field of the export, each with its default distance
        print_by_field(agree_fields(file, **given), file, json_out=json_out)
        return
    res = agree_file(file, **given)
    if res.imported is not None and not json_out:
        echo(res.imported.report.summary(cli=True), err=True)
    if res.read_as is not None and not json_out:
        echo(f"accord: read {file} as {res.read_as}" + (" (told from its first rows)" if res.sampled else ""),
             err=True)
    if json_out:
        out = res.to_dict()
        if "left_out" in out:  # each reason in the command line's words
            out["left_out"] = {name: said(why) for name, why in res.left_out.items()}
        print_json(out)
        return
    print_agreement(res, file)


def print_agreement(res: Any, file: Path) -> None:
    """The table of coefficients, the lines under it (inference, left out, bootstraps, notes), diagnostics."""
    coefficients = _table(res, file)
    if coefficients.row_count:
        print_table(coefficients)
    for name, r in res.results.items():
        if name not in ("kendall-w", "icc"):
            _print_inference(label(name, r), r, res.intervals[name], res.confidence)
    for old, new in same_coefficients(res.results):
        console.print(f"{label(old, res.results[old])} is {label(new, res.results[new])} here: every coder rated "
                      "every unit (they differ only over missing ratings)", highlight=False)
    print_extra(res.results, res.left_out, res.confidence)
    _print_counts(res)
    scale_note = getattr(res.results.get("alpha"), "note", None)
    notes = [*map(said, res.notes), *([said(scale_note)] if scale_note else []),
             *([res.scale_hint.message.cli] if res.scale_hint else [])]
    for msg in dict.fromkeys(notes):
        console.print(f"[yellow]note:[/yellow] {escape(str(msg))}", markup=True)
    for title, frame in (res.diagnostics or {}).items():
        headers = [column(str(col)) for col in frame.columns]
        t = table({"units": "Units with most disagreement", "pairs": "Coder pairs",
                   "left_out": "Alpha with each coder left out"}[title], headers,
                  numbers=[h for h, col in zip(headers, frame.columns, strict=True) if frame[col].dtype.kind in "iuf"])
        for row in frame.itertuples(index=False):
            t.add_row(*(fmt(x) for x in row))
        print_table(t)


def print_by_field(res: Any, file: Path, *, json_out: bool) -> None:
    """``--field all``: one table of every field's coefficients, each field's notes, and the parts not measured
    with their reasons (or all of it as JSON)."""
    if json_out:
        out = res.to_dict()
        for entry, agreement in zip(out["fields"][:len(res.fields)], res.fields.values(), strict=True):
            if "left_out" in entry["agreement"]:
                entry["agreement"]["left_out"] = {k: said(v) for k, v in agreement.left_out.items()}
        for entry, part in zip(out["fields"][len(res.fields):], res.not_measured, strict=True):
            entry["reason"] = said(part.reason)
        print_json(out)
        return
    told: set[str] = set()  # the import reports: the first field's whole, then what each other field adds
    for n, (name, agreement) in enumerate(res.fields.items()):
        for line in agreement.imported.report.summary(cli=True).splitlines():
            if line not in told and not (line.startswith("  note: read ") and "; not read: " in line):
                told.add(line)
                echo(f"  {name}: {line.strip()}" if n else line, err=True)
    frame = res.to_frame()
    measured = frame[frame["coefficient"].notna()]
    level = f"{next(iter(res.fields.values())).confidence * 100:g}% interval"
    shown = measured["low"].notna().any()
    numbers = ("value", "observed", "expected", "units used", *([level] if shown else []))
    t = table(f"Agreement in {file.name} by field ({res.tool})", ("field", "distance", "coefficient", *numbers),
              numbers=numbers)
    for row in measured.itertuples(index=False):
        agreement = res.fields[row.field]
        t.add_row(row.field, agreement.distance.name, label(row.coefficient, agreement.results[row.coefficient]),
                  fmt(row.value), fmt(row.observed), fmt(row.expected), str(row.units_used),
                  *([f"[{row.low:.4f}, {row.high:.4f}]" if row.low == row.low else "-"] if shown else []))
    if t.row_count:
        print_table(t)
    for name, agreement in res.fields.items():
        for coef, why in agreement.left_out.items():
            console.print(f"{name}: left out: {label(coef, None)} {said(why)}", highlight=False)
        for msg in dict.fromkeys(map(said, agreement.notes)):
            console.print(f"{name}: note: {msg}", highlight=False)
    for part in res.not_measured:
        console.print(f"not measured: {part.field} ({part.kind}): {said(part.reason)}", highlight=False)


def _table(res: Any, file: Path) -> Table:
    """The coefficients' table (the ICC has its own)."""
    via = "" if res.engine == "memory" else f", engine {res.engine}"
    if res.memory_limit:
        via += f", memory limit {res.memory_limit}"
    if res.weights is not None:
        via += f", {res.weights} weights" + (" over ranks" if res.weight_scores == "ranks" else "")
    shown = any(res.intervals.values())
    level = f"{res.confidence * 100:g}% interval"
    numbers = ("value", "observed", "expected", "units used", *([level] if shown else []))
    table_ = table(f"Agreement in {file.name} ({plural(res.n_coders, 'coder')}, {plural(res.n_units, 'unit')}, "
                   f"{plural(res.n_entries, 'value')}, distance {res.distance.name}{via})", ("coefficient", *numbers),
                   numbers=numbers)
    first = next(iter(res.results.values()), None)
    n_units = getattr(first, "n_units", None) or getattr(first, "n_pairable_units", "")
    for name, r in res.results.items():
        if name == "icc":
            continue  # its own table of the ten forms
        used = getattr(r, "n_pairable_units", None) or getattr(r, "n_units", None) or n_units
        iv = res.intervals[name]
        table_.add_row(label(name, r), fmt(value_of(r)), fmt(getattr(r, "observed_disagreement", None)),
                      fmt(getattr(r, "expected_disagreement", None)), str(used),
                       *([f"[{iv[0]:.4f}, {iv[1]:.4f}]" if iv else "-"] if shown else []))
    return table_


def _print_counts(res: Any) -> None:
    """Alpha's pairable values, and how each bootstrap interval was drawn."""
    level, seed = f"{res.confidence * 100:g}%", "no seed" if res.seed is None else f"seed {res.seed}"
    if "alpha" in res.results:
        r = res.results["alpha"]
        console.print(f"pairable values n = {r.n_pairable}; units with a single value: "
                      f"{r.n_units - r.n_pairable_units} ({plural(r.n_unpairable_values, 'value')} left out)")
        if "alpha" in res.bootstrapped:
            console.print(f"the {level} interval of alpha is a bootstrap's ({res.bootstrap} resamples of units, "
                          f"{seed})", highlight=False)
    if "light" in res.bootstrapped:
        console.print(f"the {level} interval of Light's kappa is a bootstrap's ({res.bootstrap} resamples of the "
                      f"units every coder rated, {seed})", highlight=False)


def _print_inference(name: str, res: Any, interval: tuple[float, float] | None, confidence: float) -> None:
    """The large-sample standard error, interval and p-value of a result that has them, as Python gives them
    (Cohen's kappa: Fleiss, Cohen & Everitt 1969; Fleiss' kappa; Gwet's AC1/AC2; Conger...)."""
    se, p = finite(getattr(res, "standard_error", None)), finite(getattr(res, "p_value", None))
    if se is None and p is None:
        return
    parts = [f"standard error {se:.4f}"] if se is not None else []
    if interval is not None:
        parts.append(f"{confidence * 100:g}% interval [{interval[0]:.4f}, {interval[1]:.4f}]")
    if p is not None:
        parts.append(f"p = {p:.4g} against no agreement beyond chance")
    console.print(f"{name}: {', '.join(parts)}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``agree`` to *app*."""
    app.command("agree")(cli_errors(agree))
