"""``accord import``: an annotation tool's export as accord's canonical long table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from accord.cli._common import RAW_CSV_HELP, cli_errors, echo
from accord.cli._importing import ImporterArgs
from accord.cli._options import with_options

__all__ = ["import_export", "register"]

@with_options
def import_export(
    export: Annotated[Path, typer.Argument(help="The tool's export: a file, a folder or a zip.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="The long table to write (.csv, or .tsv).")],
    layout: Annotated[str | None, typer.Option(help="Spreadsheets: long or wide.  [default: long]")] = None,
    unit: Annotated[str | None, typer.Option(help="Spreadsheets: the unit column.  [default: unit]")] = None,
    coder: Annotated[str | None, typer.Option(help="Spreadsheets (long): the coder column.  [default: coder]")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the output file if it exists.")] = False,
    raw_csv: Annotated[bool, typer.Option("--raw-csv", help=RAW_CSV_HELP)] = False,
    importer: ImporterArgs = ImporterArgs(),
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
    from accord.importers._input import describe_field
    from accord.importers._long import write_long_table

    imported = write_long_table(export, output, importer, layout=layout, unit=unit, coder=coder, force=force,
                                raw=raw_csv, say=lambda line: echo(line, err=True))
    echo(imported.report.summary(cli=True), err=True)
    echo(f"wrote {output} ({describe_field(imported)})", err=True)


def register(app: typer.Typer) -> None:
    """Add ``import`` to *app*."""
    app.command("import")(cli_errors(import_export))
