"""``accord gold`` and ``accord noise``: gold standards and the annotation noise model.

Beigman Klebanov & Beigman (2009), From annotator agreement to noise models.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.output import atomic_output, check_output
from accord._shared.sanitize import csv_cell
from accord.cli._common import RAW_CSV_HELP, cli_errors, console, print_json, said, warn
from accord.cli._render import print_table
from accord.cli._render import table as make_table
from accord.noise import ChanceDifference, DisagreementTolerance, NoiseBound
from accord.noise._study import gold_standard_file, noise_model

__all__ = ["register"]


def _pct(x: float) -> str:
    return "undefined" if x is None or not math.isfinite(x) else f"{100 * x:.2f}%"


def _num(x: float) -> str:
    return "undefined" if x is None or not math.isfinite(x) else f"{x:.4g}"


@contextmanager
def _undefined() -> Iterator[list[str]]:
    """The AccordWarnings (an undefined gamma, K or tolerance) raised inside, collected in the command line's
    words to be said once with the table."""
    said_: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        yield said_
    for w in caught:
        if issubclass(w.category, AccordWarning):
            said_.append(said(w.message))
        else:  # another library's: as the command line prints every warning
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def _say_notes(reasons: list[Any], caught: list[str], *, json_out: bool) -> None:
    """Each reason a result gives (a note below the table), then each warning that no reason already says;
    with --json, the warnings alone, on stderr (the reasons are in the JSON)."""
    reasons = [str(r) for r in reasons if r]
    extra = list(dict.fromkeys(c for c in caught if not any(r in c for r in reasons)))
    if json_out:
        for text in dict.fromkeys(c for c in caught):
            warn(text)
        return
    for text in [*dict.fromkeys(reasons), *extra]:
        console.print(f"[yellow]note:[/yellow] {escape(text)}", markup=True)


def _model_rows(
    table: Any,
    bound: NoiseBound | None,
    cd: ChanceDifference | None,
    cdn: ChanceDifference | None,
    tol: DisagreementTolerance | None,
    target: float,
) -> None:
    if bound is not None:
        conf = f"{100 * bound.confidence:g}%"
        table.add_row(f"hard items at most (t0, {conf})", str(bound.t0))
        table.add_row("agreed items that may be coin flips", str(bound.random_agreements))
        table.add_row(f"noise bound gamma ({conf})", _pct(bound.gamma))
    if cd is not None:
        table.add_row(
            "chance difference, Chebyshev",
            f"{cd.bound:.1f} items ({_pct(cd.fraction)} of {cd.n_items})",
        )
    if cdn is not None:
        table.add_row("chance difference, normal approx.", f"{cdn.bound:.1f} items ({_pct(cdn.fraction)})")
    if tol is not None:
        most = "none" if tol.max_disagreements is None else str(tol.max_disagreements)
        table.add_row(f"most disagreements for gamma <= {_pct(target)}", most)


def _gold(
    file: Annotated[
        Path, typer.Argument(help="Long table (CSV, or TSV by suffix .tsv): one row per annotation.")
    ],
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Write the gold items (unit, value) to this CSV/TSV (never over the input)."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --out file.")] = False,
    confidence: Annotated[float, typer.Option(help="Confidence of the noise bound.")] = 0.95,
    target_gamma: Annotated[
        float, typer.Option("--target-gamma", help="Noise target for the tolerable disagreements.")
    ] = 0.05,
    p: Annotated[
        float | None, typer.Option("--p", help="Chance agreement on hard items (estimated when omitted).")
    ] = None,
    unit: Annotated[str, typer.Option(help="Column of the item.")] = "unit",
    coder: Annotated[str, typer.Option(help="Column of the annotator.")] = "coder",
    value: Annotated[str, typer.Option(help="Column of the label.")] = "value",
    drop_incomplete: Annotated[
        bool, typer.Option("--drop-incomplete", help="Leave out items not labelled by every annotator.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help=RAW_CSV_HELP)] = False,
) -> None:
    """Keep the items all annotators agree on and bound their noise (Beigman Klebanov & Beigman 2009)."""
    if out is not None:  # refuse before any work: the input itself, or an existing file without --force
        check_output(out, force=force, inputs=[file])
    with _undefined() as caught:
        res = gold_standard_file(file, unit=unit, coder=coder, value=value, confidence=confidence,
                                 target_gamma=target_gamma, p=p, incomplete="drop" if drop_incomplete else "error")
    if out is not None:
        _write_gold(res, out, file, force=force, raw_csv=raw_csv)
    if json_out:
        data = res.to_dict()
        data["file"] = str(file)
        data["out"] = None if out is None else str(out)
        print_json(data)
        _say_notes([], caught, json_out=True)
        return
    _print_gold(res, file)
    _say_notes([res.reason], caught, json_out=False)
    if out is not None:
        console.print(f"wrote {plural(res.n_agreed, 'gold item')} to {out}")


def _write_gold(res: Any, out: Path, file: Path, *, force: bool, raw_csv: bool) -> None:
    """The gold items (unit, value) as CSV or TSV (by suffix), written atomically."""
    sep = "\t" if out.suffix.lower() in (".tsv", ".tab") else ","
    try:
        frame = res.to_frame()
        with atomic_output(out, force=force, inputs=[file]) as tmp:
            (frame if raw_csv else frame.map(csv_cell)).to_csv(tmp, sep=sep, index=False)
    except OSError as exc:
        raise AccordError(f"file '{out}': cannot write: {exc.strerror or exc}") from None


def _print_gold(res: Any, file: Path) -> None:
    """The gold standard's table."""
    table = make_table(f"Gold standard from {file}", ("quantity", "value"), numbers=("value",), show_header=False)
    table.add_row("items (n)", str(res.n_items))
    if res.n_dropped_incomplete:
        table.add_row("incomplete items left out", str(res.n_dropped_incomplete))
    table.add_row("annotators (k)", str(res.n_annotators))
    table.add_row("categories (m)", str(res.n_categories))
    table.add_row("disagreed (d)", str(res.n_disagreed))
    table.add_row("agreed (gold standard)", str(res.n_agreed))
    table.add_row(f"p ({res.p_source})", _num(res.p))
    _model_rows(
        table, res.bound, res.chance_difference, res.chance_difference_normal, res.tolerance, res.target_gamma
    )
    table.add_row("K (Siegel & Castellan)", _num(res.k.kappa))
    if res.k_noise is not None:
        table.add_row("noise implied by K", _pct(res.k_noise.noise))
    print_table(table)


def _noise(
    n: Annotated[int, typer.Option("--n", help="Number of items.")],
    d: Annotated[int, typer.Option("--d", help="Number of disagreed items.")],
    p: Annotated[float, typer.Option("--p", help="Chance agreement of the annotators on a hard item.")],
    confidence: Annotated[float, typer.Option(help="Confidence of the noise bound.")] = 0.95,
    target_gamma: Annotated[
        float, typer.Option("--target-gamma", help="Noise target for the tolerable disagreements.")
    ] = 0.05,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
) -> None:
    """Noise bound of the agreed items for n items, d disagreements and chance agreement p."""
    with _undefined() as caught:
        model = noise_model(n, d, p, confidence=confidence, target_gamma=target_gamma)
    bound = model.bound
    if json_out:
        print_json(model)
        _say_notes([], caught, json_out=True)
        return
    table = make_table(f"Noise model: n = {n}, d = {d}, p = {p:g}", ("quantity", "value"), numbers=("value",),
                       show_header=False)
    table.add_row("agreed items", str(bound.n_agreed))
    _model_rows(table, bound, model.chance_difference, model.chance_difference_normal, model.tolerance,
                target_gamma)
    print_table(table)
    _say_notes([bound.reason], caught, json_out=False)


def register(app: typer.Typer) -> None:
    """Add ``gold`` and ``noise`` to the ``accord`` app."""
    app.command("gold")(cli_errors(_gold))
    app.command("noise")(cli_errors(_noise))
