"""Reading relations from annotation tools' exports (the tools' own readers live in :mod:`accord.importers`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError
from accord.data._relations import RelationAnnotations

__all__ = ["RELATION_TOOLS", "agreement_of_exports", "read_relations"]

#: The importers that read relations (``--from`` names).
RELATION_TOOLS = ("brat", "doccano", "inception", "label-studio", "prodigy")


def read_relations(paths: str | Path | Sequence[str | Path], *, tool: str | None = None, field: str | None = None,
                   **options: Any) -> tuple[RelationAnnotations, list[Any]]:
    """Read the relations (and events) of one or more exports of a tool.

    Parameters
    ----------
    paths : path or sequence of paths
        The exports; several are read as one project (each document and coder in one export only).
    tool : str, optional
        One of :data:`RELATION_TOOLS`; guessed from each file when omitted.
    field : str, optional
        The span control or layer whose spans are the arguments, where the export has several.
    **options
        Passed to the tool's reader (``texts=`` for brat...).

    Returns
    -------
    (RelationAnnotations, list of ImportReport)
        The relations with every span, and each export's import report.

    Raises
    ------
    AccordError
        A tool that reads no relations, or the same coder's annotations of one document in two exports.
    """
    from accord.importers import guess_tool, read_export

    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = [Path(p) for p in paths]
    if not paths:
        raise AccordError("paths must name at least one export; got none")
    if tool is not None and tool not in RELATION_TOOLS:
        raise AccordError(f"tool must be one of {', '.join(RELATION_TOOLS)} (the importers that read relations); "
                          f"got {tool!r}", cli=f"--from must be one of {', '.join(RELATION_TOOLS)} (the importers "
                                               f"that read relations); got {tool!r}")
    parts: list[RelationAnnotations] = []
    reports = []
    for p in paths:
        t = tool
        if t is None:
            t = guess_tool(p)
            if t not in RELATION_TOOLS:
                raise AccordError(f"{p}: read as a {t} export, and the {t} importer reads no relations (those that "
                                  f"do: {', '.join(RELATION_TOOLS)})")
        if "texts" in options and t != "brat":
            raise AccordError(f"{p}: texts= is for brat exports (the folder of .txt files); a {t} export carries "
                              "its texts", cli=f"{p}: --texts is for brat exports (the folder of .txt files); a {t} "
                                               "export carries its texts")
        imp = read_export(p, tool=t, field=field, fits="spans", relations=True, **options)
        if imp.relations is None:  # pragma: no cover - an importer out of step with RELATION_TOOLS
            raise AccordError(f"{p}: the {t} importer returned no relations")
        parts.append(imp.relations)
        reports.append(imp.report)
    if len(parts) == 1:
        return parts[0], reports
    return _merge(parts, paths), reports


def _merge(parts: list[RelationAnnotations], paths: list[Path]) -> RelationAnnotations:
    from accord.data._spans import SpanAnnotations

    spans = SpanAnnotations.merged([part.spans for part in parts], paths)
    return RelationAnnotations.from_relations([r for part in parts for r in part.relations], spans=spans)


def agreement_of_exports(paths: str | Path | Sequence[str | Path], *, tool: str | None = None,
                         field: str | None = None, match: str = "exact", argument_labels: bool = True,
                         ignore_type: bool = False, unmarked: str = "missing", undirected: Sequence[str] = (),
                         bootstrap: int = 0, confidence: float = 0.95, rng: Any = None,
                         **options: Any) -> tuple[Any, list[Any]]:
    """:func:`read_relations` then :func:`~accord.relations.agreement`: what ``accord relations`` computes.

    The options are checked before any file is read; *bootstrap*, *confidence* and *rng* give alpha's interval
    (resampling documents) as :func:`~accord.relations.agreement` takes them.

    Returns
    -------
    (RelationAgreement, list of ImportReport)
    """
    from accord.relations._agreement import agreement, check_options

    check_options(match, argument_labels, ignore_type, unmarked, undirected, bootstrap=bootstrap,
                  confidence=confidence)
    data, reports = read_relations(paths, tool=tool, field=field, **options)
    res = agreement(data, match=match, argument_labels=argument_labels, ignore_type=ignore_type, unmarked=unmarked,
                    undirected=undirected, bootstrap=bootstrap, confidence=confidence, rng=rng)
    return res, reports
