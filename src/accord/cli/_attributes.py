"""``accord attributes``: agreement on each attribute or feature of a span layer of an export."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from accord.cli._common import cli_errors, console, echo, print_json

__all__ = ["attributes", "register"]


def _f(x: float) -> str:
    return "undefined" if math.isnan(x) else f"{x:.4f}"


def _pairs(given: list[str] | None, flag: str) -> dict[str, str]:
    from accord._shared.errors import AccordError

    out = {}
    for pair in given or ():
        name, eq, value = pair.partition("=")
        if not eq or not name or not value:
            raise AccordError(f"{flag} takes NAME=VALUE; got {pair!r}")
        out[name] = value
    return out


def attributes(
    export: Annotated[list[Path], typer.Argument(help="The tool's export (a brat folder, an INCEpTION project...), "
                                                      "or several (one per coder, or a quoted glob: 'exports/*.json'), "
                                                      "read as one project.")],
    from_: Annotated[str | None, typer.Option("--from", help="The tool that wrote it (guessed from each file when "
                                                             "omitted).")] = None,
    field: Annotated[str | None, typer.Option(help="The span layer whose attributes to compare (INCEpTION: "
                                                   "NamedEntity|value).")] = None,
    match: Annotated[str, typer.Option(help="How spans align: exact (offsets and label) or overlap.")] = "exact",
    ignore_labels: Annotated[bool, typer.Option("--ignore-labels", help="Align spans whatever their labels.")] = False,
    unset: Annotated[str, typer.Option(help="A valued attribute left unset on an aligned span: missing, or value "
                                            "(a value of its own).")] = "missing",
    ordinal: Annotated[list[str] | None, typer.Option(help="NAME=LOW,...,HIGH: the attribute is ordinal, with its "
                                                           "values in this order (repeatable).")] = None,
    distance: Annotated[list[str] | None, typer.Option(help="NAME=DISTANCE: the attribute's distance (nominal, "
                                                            "jaccard, masi-2006...; repeatable).")] = None,
    show: Annotated[int, typer.Option(help="Spans only one annotator marked to list (0: none).")] = 10,
    json_: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Agreement on each attribute or feature of a span layer, over the spans the annotators align on.

    Krippendorff's alpha per attribute (brat's A, M and N lines; INCEpTION's other features of a layer):
    nominal, binary (a brat attribute set or not: not set is false), ordinal with --ordinal, MASI for
    several values. Spans only one annotator marked are counted and listed, not scored.
    Examples: accord attributes round1/ --from brat; accord attributes project.zip --from inception --field
    'NamedEntity|value' --match overlap; accord attributes alice.json bob.json --from label-studio
    """
    from accord.attributes import export_agreement
    from accord.cli._render import print_table, table

    orders = {k: v.split(",") for k, v in _pairs(ordinal, "--ordinal").items()}
    res = export_agreement(export, tool=from_, field=field, match=match, ignore_labels=ignore_labels, unset=unset,
                           orders=orders, distances=_pairs(distance, "--distance"))
    if json_:
        print_json(res.to_dict())
        return
    for rep in res.reports:
        echo(rep.summary(cli=True), err=True)
    if not res.attributes:
        echo(f"no span of {', '.join(map(str, export))} carries an attribute (brat's A, M and N lines; the other "
             "features of an INCEpTION layer)")
        return
    numbers = ("alpha", "units", "pairable", "values", "unaligned")
    how = f"{match} match" + (", labels ignored" if ignore_labels else "")
    t = table(f"Attribute agreement over spans aligned by {how}", ("attribute", "kind", "distance", *numbers),
              numbers=numbers)
    for a in res.attributes:
        t.add_row(a.name, a.kind, a.distance, _f(a.alpha), str(a.n_units), str(a.n_pairable_units), str(a.n_values),
                  str(a.n_unaligned))
    print_table(t)
    lines: list[Any] = [f"{res.n_aligned} aligned spans; {len(res.unaligned)} marked by one annotator only "
                        "(listed, not scored)"]
    lines += [f"alpha of {a.name} undefined: {a.undefined_reason}" for a in res.attributes if a.undefined_reason]
    lines += [f"  {u.document} [{u.start}, {u.end}) {u.label} ({u.coder}): {u.reason}" for u in res.unaligned[:show]]
    console.print("\n".join(lines), highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``attributes`` to *app*."""
    app.command("attributes")(cli_errors(attributes))
