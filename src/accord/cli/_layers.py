"""``accord layers``: every layer or control of an export, each annotator's count, and what accord measures."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from accord.cli._common import cli_errors, print_json

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
    from accord.importers import layers as export_layers

    found = export_layers(export, tool=from_)
    if json_:
        print_json(found.to_dict())
        return
    _render(found)


def _render(found: Any) -> None:
    """One row per layer: its kind, each annotator's count (a column each, or one column of them all when
    they would not fit 80 columns), and what measures it."""
    from accord.cli._render import print_table, table

    apart = len(found.coders) <= 5 and sum(len(c) + 3 for c in found.coders) <= 36
    counts = found.coders if apart else ("annotations by annotator",)
    t = table(f"{found.tool} export {found.source}: {len(found.layers)} layers",
              ("layer", "kind", *counts, "measured by (or why not)"), numbers=found.coders if apart else ())
    for x in found.layers:
        name = f"{x.parent}: {x.name}" if x.parent else x.name
        n = [str(x.counts.get(c, 0)) for c in found.coders]
        together = "\n".join(f"{c}: {k}" for c, k in zip(found.coders, n, strict=True))
        t.add_row(name, x.kind, *(n if apart else [together]), x.command or f"nothing: {x.reason}")
    print_table(t)

def register(app: typer.Typer) -> None:
    """Add ``layers`` to *app*."""
    app.command("layers")(cli_errors(layers))
