"""The report of every field of an export (``accord report FILE --from TOOL --field all``).

Each field ``accord agree`` measures gets the page ``accord report --field NAME`` would write, its sections
titled with the field's name; every other part of the export (spans, attributes, relations, a field that
cannot be measured) is listed in a last section with its reason and the command that measures it.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, for_cli
from accord.reporting._page import DataTable, HeadlineNumber, Report, Section

__all__ = ["fields_report"]


def fields_report(
    path: str | Path,
    importer: Any,
    *,
    title: str | None = None,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> Report:
    """One page for every field of an export: each measured field's sections, then the parts not measured.

    Parameters
    ----------
    path : path
        The export file or folder.
    importer : ImportOptions
        The tool (guessed when None) and its options; its ``field`` is ignored.
    title : str, optional
        The page's title.
    say : callable, optional
        Called with each line to tell the user (a tool guessed).
    **options
        Of :func:`accord.reporting.imported_report`: ``coefficients``, ``bootstrap``, ``seed``, ``confidence``,
        ``max_rows``, ``progress`` (each field on its own default distance).

    Returns
    -------
    Report
    """
    from accord.importers import guess_tool
    from accord.importers._input import reusing_reads, tool_options
    from accord.importers._layers import layers_and_reads

    path = Path(path)
    tool = importer.tool
    if tool is None:
        tool = guess_tool(path)
        if say is not None:
            say(f"accord: reading {path} with --from {tool} (guessed from the file; pass --from to choose)")
    read_with = tool_options(tool, importer)
    found, reads = layers_and_reads(path, tool=tool, **read_with)
    with reusing_reads(path, tool, read_with, reads):  # each field read once, by layers, not again for its page
        return _page(path, tool, found, importer, title, options)


def _page(path: Path, tool: str, found: Any, importer: Any, title: str | None, options: dict[str, Any]) -> Report:
    """The page of every field of *found*."""
    from accord.importers._input import load_export
    from accord.reporting._imported import imported_report

    headline: list[HeadlineNumber] = []
    sections: list[Section] = []
    summary: dict[str, Any] = {}
    left: list[tuple[str, str, str, str]] = []
    for layer in found.layers:
        words = shlex.split(layer.command or "")
        elsewhere = shlex.join(["accord", words[1], str(path), "--from", tool, *words[2:]]) if words else ""
        if words[:2] != ["accord", "agree"]:
            why = layer.reason or (f"{layer.kind} of {layer.parent!r}" if layer.parent else f"holds {layer.kind}")
            left.append((layer.name, layer.kind, why, elsewhere))
            continue
        name = words[words.index("--field") + 1] if "--field" in words else None
        try:
            imported = load_export(path, dataclasses.replace(importer, tool=tool, field=name), plain_fallback=False)
            page = imported_report(imported, **options)
        except AccordError as exc:  # this field only: listed with the others not measured
            left.append((layer.name, layer.kind, for_cli(exc), elsewhere))
            continue
        shown = name or layer.name
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", shown).strip("-") or "field"
        headline += [dataclasses.replace(h, key=f"{slug}-{h.key}", label=f"{shown}: {h.label}") for h in page.headline]
        field_sections = [_prefixed(s, shown, slug) for s in page.sections]
        if field_sections and page.headline_notes:  # the field's distance and warnings, said in its first section
            first = field_sections[0]
            field_sections[0] = dataclasses.replace(first, notes=(*page.headline_notes, *first.notes))
        sections += field_sections
        summary[shown] = page.summary
    sections.append(Section(
        id="not-measured", title="Not measured here",
        paragraphs=("Parts of the export that accord agree does not measure, with the reason and the command that "
                    "measures each." if left else "Every field of the export is measured above.",),
        tables=(DataTable(name="not-measured", title="Not measured here", columns=("field", "kind", "reason",
                                                                                 "command"),
                          rows=tuple(left), kinds=("text", "text", "text", "text")),) if left else ()))
    return Report(title=title or f"Reliability of {path} ({tool}, every field)", kind="agreement",
                  headline=tuple(headline), sections=tuple(sections),
                  subtitle=f"{len(summary)} fields measured, {len(left)} not measured",
                  summary={"fields": summary, "not_measured": [dict(zip(("field", "kind", "reason", "command"), x,
                                                                        strict=True)) for x in left]})


def _prefixed(section: Section, name: str, slug: str) -> Section:
    """*section* of field *name*'s page, its id, title, charts and tables named for the field."""
    return dataclasses.replace(
        section, id=f"{slug}-{section.id}", title=f"{name}: {section.title}",
        charts=tuple(dataclasses.replace(c, name=f"{slug}-{c.name}") for c in section.charts),
        tables=tuple(dataclasses.replace(t, name=f"{slug}-{t.name}") for t in section.tables))
