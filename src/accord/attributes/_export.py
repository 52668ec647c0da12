"""Agreement on the attributes of a tool's export, read with its attributes.

Not public: :func:`accord.attributes.export_agreement` is the API.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError
from accord.attributes._agreement import agreement
from accord.attributes._align import Match
from accord.attributes._results import AttributesResult
from accord.data._spans import SpanAnnotations

__all__ = ["export_agreement"]


def export_agreement(
    path: str | Path | Sequence[str | Path],
    *,
    tool: str | None = None,
    field: str | None = None,
    match: Match = "exact",
    ignore_labels: bool = False,
    distances: Mapping[str, Any] | None = None,
    orders: Mapping[str, Sequence[Hashable]] | None = None,
    unset: str = "missing",
    **options: Any,
) -> AttributesResult:
    """Read a tool's export(s) with their attributes and measure agreement on each (what ``accord attributes`` runs).

    Parameters
    ----------
    path : str, Path, or a sequence of them
        The export (a brat folder of annotator folders, an INCEpTION / WebAnno project export...), or the
        canonical span table with an ``attributes`` column (:func:`accord.spans.read_spans`); or several, read
        as one project (one per coder, say: each coder's annotations of a document in one export only). A
        glob (``exports/*.json``) names the files it matches, sorted.
    tool : str, optional
        A key of :data:`accord.importers.TOOLS` whose importer reads attributes (``brat``, ``inception``,
        ``label-studio``); guessed from each file when omitted.
    field : str, optional
        The span layer whose attributes to compare (INCEpTION: ``NamedEntity|value`` reads the layer's
        other features as attributes).
    match, ignore_labels, distances, orders, unset
        As :func:`agreement`.
    **options
        Passed to the importer.

    Returns
    -------
    AttributesResult
        With ``reports``, each export's import report (none for a span table), and ``report``, the report
        when there is one export.

    Raises
    ------
    AccordError
        When the tool's importer reads no attributes, a glob matches nothing, one coder's annotations of a
        document are in two exports, or as :func:`agreement` and the importer.
    """
    paths = _paths(path)
    parts, reports = [], []
    for p in paths:
        spans, report = _read_one(p, tool, field, options)
        parts.append(spans)
        if report is not None:
            reports.append(report)
    data = parts[0] if len(parts) == 1 else SpanAnnotations.merged(parts, paths)
    result = agreement(data, match=match, ignore_labels=ignore_labels, distances=distances, orders=orders,
                       unset=unset)
    return dataclasses.replace(result, report=reports[0] if len(paths) == 1 and reports else None,
                               reports=tuple(reports))


def _paths(path: str | Path | Sequence[str | Path]) -> list[Path]:
    """The exports *path* names: each path as given, each glob as the files it matches (sorted)."""
    from accord._shared.globs import glob_files, is_glob

    given = [path] if isinstance(path, str | Path) else list(path)
    if not given:
        raise AccordError("path must name at least one export; got none", cli="name at least one export")
    out: list[Path] = []
    for g in given:
        if not isinstance(g, str | Path):
            raise AccordError(f"path must be a path, a glob or a sequence of them; got {type(g).__name__}")
        if is_glob(g):
            files = glob_files(g)
            if not files:
                raise AccordError(f"{g}: no file matches")
            out += files
        else:
            out.append(Path(g))
    twice = sorted({str(p) for p in out if out.count(p) > 1})
    if twice:
        raise AccordError(f"{twice[0]} is named twice; name each export once")
    return out


def _read_one(path: Path, tool: str | None, field: str | None, options: dict[str, Any]) -> tuple[Any, Any]:
    """One export's spans with their attributes, and its import report (None for a span table)."""
    from accord.importers import TOOLS, _module, guess_tool, read_export
    from accord.spans._readers import is_span_table, read_spans

    if tool is None and is_span_table(path):  # the canonical span table, with its attributes column
        if field is not None or options:
            raise AccordError(f"{path} is a span table, which has no fields or importer options; they read a "
                              "tool's export (tool=)", cli=f"{path} is a span table, which has no fields or importer "
                              "options; they read a tool's export (--from)")
        return read_spans(path), None
    if tool is None:
        tool = guess_tool(path)
    if "attributes" not in inspect.signature(_module(tool).read).parameters:
        able = [t for t in TOOLS if "attributes" in inspect.signature(_module(t).read).parameters]
        raise AccordError(f"tool {tool!r}: its importer reads no attributes of spans; the tools that do are "
                          f"{', '.join(able)}")
    imported = read_export(path, tool=tool, field=field, fits="spans" if field is None else None,
                           attributes=True, **options)
    if imported.spans is None:  # pragma: no cover - the importers that read attributes read spans
        raise AccordError(f"{tool} export {path}: no spans read")
    return imported.spans, imported.report
