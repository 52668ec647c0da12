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

__all__ = ["export_agreement"]


def export_agreement(
    path: str | Path,
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
    """Read a tool's export with its attributes and measure agreement on each (what ``accord attributes`` runs).

    Parameters
    ----------
    path : str or Path
        The export (a brat folder of annotator folders, an INCEpTION / WebAnno project export...), or the
        canonical span table with an ``attributes`` column (:func:`accord.spans.read_spans`).
    tool : str, optional
        A key of :data:`accord.importers.TOOLS` whose importer reads attributes (``brat``, ``inception``,
        ``label-studio``); guessed when omitted.
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
        With ``report``, the import report (None for a span table).

    Raises
    ------
    AccordError
        When the tool's importer reads no attributes, or as :func:`agreement` and the importer.
    """
    from accord.importers import TOOLS, _module, guess_tool, read_export
    from accord.spans._readers import is_span_table, read_spans

    if tool is None and is_span_table(Path(path)):  # the canonical span table, with its attributes column
        if field is not None or options:
            raise AccordError(f"{path} is a span table, which has no fields or importer options; they read a "
                              "tool's export (tool=)", cli=f"{path} is a span table, which has no fields or importer "
                              "options; they read a tool's export (--from)")
        return agreement(read_spans(path), match=match, ignore_labels=ignore_labels, distances=distances,
                         orders=orders, unset=unset)
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
    result = agreement(imported.spans, match=match, ignore_labels=ignore_labels, distances=distances,
                       orders=orders, unset=unset)
    return dataclasses.replace(result, report=imported.report)
