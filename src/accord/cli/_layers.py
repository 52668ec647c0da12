"""``accord layers``: every layer or control of an export, each annotator's count, and what accord measures."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from accord.cli._common import cli_errors, console, print_json

__all__ = ["layers", "register"]


def layers(
    export: Annotated[Path, typer.Argument(help="The tool's export: a file, a folder or a zip.")],
    from_: Annotated[str | None, typer.Option("--from", help="The tool that wrote it (guessed when omitted).")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Every layer or control of an export: each annotator's count, and what accord measures on it.

    Each layer, control, question or attribute the importer finds, with each annotator's count, and the
    command that measures agreement on it, or why none does (a part the importer counts and sets aside).
    Examples: accord layers round1/ --from brat; accord layers project.zip --from inception --json
    """
    from rich.table import Table

    from accord.importers import layers as export_layers

    found = export_layers(export, tool=from_)
    if json_:
        print_json(found.to_dict())
        return
    table = Table(title=f"{found.tool} export {found.source}: {len(found.layers)} layers")
    for col in ("layer", "kind", *found.coders, "measured by (or why not)"):
        table.add_column(col, justify="right" if col in found.coders else "left")
    for x in found.layers:
        name = f"{x.parent}: {x.name}" if x.parent else x.name
        table.add_row(name, x.kind, *(str(x.counts.get(c, 0)) for c in found.coders),
                      x.command or f"nothing: {x.reason}")
    console.print(table)


def register(app: typer.Typer) -> None:
    """Add ``layers`` to *app*."""
    app.command("layers")(cli_errors(layers))
