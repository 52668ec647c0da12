"""``accord import``: an annotation tool's export as accord's canonical long table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from accord.cli._common import RAW_CSV_HELP, cli_errors, echo

__all__ = ["import_export", "register"]


def import_export(
    export: Annotated[Path, typer.Argument(help="The tool's export: a file, a folder or a zip.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The long table to write (.csv, or .tsv).")],
    from_: Annotated[
        str | None,
        typer.Option("--from", help="The tool that wrote the export (label-studio, prodigy, doccano, argilla, "
                     "spreadsheet...); guessed from the file when omitted."),
    ] = None,
    field: Annotated[
        str | None, typer.Option(help="The control, question or field to read when the export has several.")
    ] = None,
    sheet: Annotated[str | None, typer.Option(help="Spreadsheets: the sheet, by name or 0-based index.")] = None,
    layout: Annotated[str, typer.Option(help="Spreadsheets: long or wide.")] = "long",
    unit: Annotated[str, typer.Option(help="Spreadsheets: the unit column.")] = "unit",
    coder: Annotated[str, typer.Option(help="Spreadsheets (long): the coder column.")] = "coder",
    offsets: Annotated[
        str | None,
        typer.Option(help="doccano, Argilla: how span offsets count characters, utf16 (the browser's, default) or "
                     "codepoints."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(help="An importer's option as NAME=VALUE (repeatable), e.g. multiple=true, drafts=true, "
                     "text_key=title, kind=ordinal; see docs/importers.md."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")] = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help=RAW_CSV_HELP)] = False,
) -> None:
    """Turn an annotation tool's export into accord's long table (unit, coder, value; or spans).

    Values are written one row per (unit, coder) as unit,coder,value (sets as JSON lists); spans one row
    per span as document,coder,start,end,label,text, with a row with blank offsets for each document a
    coder saw and marked nothing in.  What was read, in which state, and what was dropped is printed on
    stderr.  A cell beginning with =, +, -, @ (a spreadsheet formula) is written with a leading ' (not a
    plain number such as -1.5); --raw-csv writes it as it is.
    Examples: accord import export.json --from label-studio --field sentiment -o long.csv;
    accord import project.zip --from doccano -o spans.csv
    """
    from accord.cli._importing import load_export, long_table_text
    from accord.output import check_output, write_output

    check_output(output, force=force, inputs=[export])
    imported = load_export(
        export, tool=from_, field=field, sheet=sheet, plain_fallback=False,
        spreadsheet_options={"layout": layout, "unit": unit, "coder": coder},
        options={} if offsets is None else {"offsets": offsets},
        extra=option,
    )
    sep = "\t" if output.suffix.lower() in (".tsv", ".tab") else ","
    write_output(output, long_table_text(imported, sep=sep, raw=raw_csv), force=force, inputs=[export])
    echo(imported.report.summary(), err=True)
    what = "spans" if imported.kind == "spans" else f"{imported.kind} values"
    echo(f"wrote {output} ({what} of field {imported.field!r})", err=True)


def register(app: typer.Typer) -> None:
    """Add ``import`` to *app*."""
    app.command("import")(cli_errors(import_export))
