"""The report of an annotation tool's export: the kind's page, opened by what the import read.

:func:`accord.importers.read_export` returns an :class:`~accord.importers.Imported`: the annotations
(or spans) and an :class:`~accord.ImportReport`. Its page is the agreement (or span)
page of the data, with a first section saying what the export held: the four cell states per annotator,
every record dropped and why, and the importer's notes, so that what a number rests on is on the page.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from accord._shared.errors import AccordError
from accord.reporting._page import DataTable, Fact, Report, Section
from accord.reporting._words import plain

__all__ = ["accepts", "imported_report", "import_section"]


def accepts(obj: Any) -> bool:
    """Whether *obj* is an import (:class:`accord.importers.Imported`)."""
    from accord.importers import Imported

    return isinstance(obj, Imported)


def import_section(imported: Any) -> Section:
    """What the export held: cell states per annotator, records dropped with their reasons, the notes."""
    rep = imported.report
    states = ("annotated", "empty", "skipped", "unassigned")
    rows = tuple((coder, *(rep.counts[coder].get(s, 0) for s in states)) for coder in rep.coders)
    reasons = rep.dropped_reasons()
    tables = [DataTable(name="import_states", title="Cells per annotator", columns=("annotator", *states),
                        rows=rows, kinds=("text", "num", "num", "num", "num"),
                        caption="annotated: a value; empty: seen, nothing chosen; skipped: skipped or cancelled; "
                                "unassigned: never given to the annotator. Only annotated (and, for sets and "
                                "spans, empty) cells enter the coefficients.")]
    if reasons:
        tables.append(DataTable(name="import_dropped", title="Records not read, by reason",
                                columns=("reason", "records"), rows=tuple((plain(k), v) for k, v in reasons.items()),
                                kinds=("text", "num")))
    facts = (Fact("tool", imported.tool), Fact("field", imported.field or "the only one"),
             Fact("values read as", imported.kind),
             Fact("items", rep.n_items), Fact("annotators", len(rep.coders)),
             Fact("records not read", sum(reasons.values())))
    return Section(id="import", title=f"The export: what {imported.tool} wrote and what was read", facts=facts,
                   paragraphs=tuple(plain(n) for n in rep.notes), tables=tuple(tables))


def imported_report(imported: Any, *, title: str | None = None, distance: str | None = None,
                    **options: Any) -> Report:
    """The page of the data an import holds (agreement, or spans), with :func:`import_section` first."""
    if not accepts(imported):
        raise AccordError(f"data must be accord.importers.Imported; got {type(imported).__name__}")
    name = f"{imported.report.source} ({imported.tool}"
    name += f", field {imported.field})" if imported.field else ")"
    if imported.kind == "spans":
        from accord.reporting._spans import spans_report

        page = spans_report(imported.spans, title=title or f"Span agreement of {name}", **options)
    else:
        from accord.reporting._reliability import agreement_report

        page = agreement_report(imported.annotations, title=title or f"Reliability of {name}",
                                distance=distance or _chosen_default(imported), **options)
    return dataclasses.replace(page, sections=(import_section(imported), *page.sections))


def _chosen_default(imported: Any) -> str | None:
    """The export's own distance (ordinal for ratings, a set distance for sets), or None for nominal, the default
    chosen by nobody (the report then says when the values look like a scale)."""
    return None if imported.default_distance == "nominal" else imported.default_distance
