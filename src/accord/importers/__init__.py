"""Importers: annotation tools' exports, as the tools write them, into accord's models.

One module per tool.  Each module defines

``read(path, *, field=None, **options) -> Imported``
    read the export (a file or a folder) and return the annotations with an
    :class:`ImportReport` counting the four cell states per annotator and every
    record dropped;
``sniff(path, head) -> bool``
    whether a file (``head``: its first 64 KiB, as text; empty for a folder)
    looks like this tool's export, for :func:`guess_tool`.

:func:`read_export` is the entry point the CLI (``--from``) uses.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from accord._shared.errors import AccordError, Message, choice_error, for_cli, no_such_file, plural, words
from accord.importers._input import ImportOptions, read_annotations
from accord.importers._report import CELL_STATES, CellState, DroppedRecord, ImportReport

if TYPE_CHECKING:
    from accord.data._annotations import Annotations
    from accord.data._relations import RelationAnnotations
    from accord.data._spans import SpanAnnotations

__all__ = [
    "CELL_STATES",
    "TOOLS",
    "AmbiguousField",
    "CellState",
    "DroppedRecord",
    "ImportOptions",
    "ImportReport",
    "ExportLayer",
    "ExportLayers",
    "Imported",
    "guess_tool",
    "layers",
    "read_annotations",
    "read_export",
]
_LAYERS = ("ExportLayer", "ExportLayers", "layers")


def __getattr__(name: str) -> Any:
    """:func:`layers` and its results, imported on first use (accord.importers._layers)."""
    if name in _LAYERS:
        from accord.importers import _layers

        return getattr(_layers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: ``--from`` name -> module of :mod:`accord.importers` implementing it.
TOOLS: Mapping[str, str] = {
    "label-studio": "_labelstudio",
    "prodigy": "_prodigy",
    "inception": "_inception",
    "inception-agreement": "_inception_agreement",
    "doccano": "_doccano",
    "brat": "_brat",
    "argilla": "_argilla",
    "mturk": "_crowd",
    "csv": "_crowd",
    "spreadsheet": "_spreadsheet",
}

ValueKind = Literal["nominal", "set", "ordinal", "interval", "spans", "text", "ranking", "relations"]

#: What a command can read (``fits=`` of :func:`read_export`): ``"categorical"`` (``accord agree``: values a
#: distance compares) or ``"spans"`` (``accord spans``).
FITS: Mapping[str, frozenset[str]] = {
    "categorical": frozenset({"nominal", "set", "ordinal", "interval", "text", "ranking"}),
    "spans": frozenset({"spans"}),
}


#: What the report's note on a field chosen by *fits* says after the field (the CLI repeats the note on stderr).
GUESSED_FIELD = "guessed"


class AmbiguousField(AccordError):
    """An export holds several fields an importer can read and no ``field`` was given.

    Attributes
    ----------
    candidates : dict of str to str
        Each readable field and the kind of its values (``nominal``, ``set``, ``ordinal``, ``interval``,
        ``spans``), in the export's order.
    """

    def __init__(self, message: str, candidates: Mapping[str, str]) -> None:
        super().__init__(str(message), cli=for_cli(message))  # an AccordError or a Message keeps its CLI words
        self.candidates = dict(candidates)


@dataclass(frozen=True)
class Imported:
    """What an importer read: the annotations of one field, and the report.

    Attributes
    ----------
    tool : str
        The importer (a key of :data:`TOOLS`).
    field : str or None
        The control / question / layer the values come from.
    kind : {"nominal", "set", "ordinal", "interval", "spans", "text", "ranking"}
        What the values are; it chooses the default distance (free text: levenshtein; rankings, tuples of tie
        groups: kendall).
    annotations : Annotations or None
        Unit x coder values (classification, ratings, sets) when *kind* is not spans.
    spans : SpanAnnotations or None
        Spans when *kind* is ``"spans"``.
    report : ImportReport
        The four cell states per annotator and every record dropped.
    relations : RelationAnnotations or None
        Relations and events between the spans when *kind* is ``"relations"`` (read with ``relations=True``).
    """

    tool: str
    field: str | None
    kind: ValueKind
    annotations: Annotations | None
    spans: SpanAnnotations | None
    report: ImportReport
    relations: RelationAnnotations | None = None

    @property
    def default_distance(self) -> str:
        """The distance that fits *kind* (nominal, masi-2006 for sets, ordinal, interval, levenshtein, kendall)."""
        return {"set": "masi-2006", "ordinal": "ordinal", "interval": "interval", "text": "levenshtein",
                "ranking": "kendall"}.get(self.kind, "nominal")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the report, the field and kind; not the data)."""
        return {"tool": self.tool, "field": self.field, "kind": self.kind, "report": self.report.to_dict()}

    def to_frame(self) -> Any:
        """The canonical long table as a pandas DataFrame (what ``accord import`` writes).

        Values: one row per (unit, coder) value, columns ``unit, coder, value``
        (sets stay frozensets).  Spans: one row per span, columns ``document,
        coder, start, end, label, text`` (``text`` is the covered text; a
        ``fragments`` column ``"s e;s e"`` is added when a span is
        discontinuous; an ``attributes`` column, ``{"name": value}`` as JSON, when spans carry
        attributes), plus one row with blank ``start, end, label`` for each
        document a coder saw and marked nothing in, so that a coder's empty
        documents stay apart from documents never assigned.
        """
        import pandas as pd

        if self.spans is not None:
            import json

            from accord._shared.results import jsonable

            sa = self.spans
            rows: list[dict[str, Any]] = []
            marked = {(s.document, s.coder) for s in sa.spans}
            discontinuous = any(len(s.fragments) > 1 for s in sa.spans)
            attributed = any(s.attributes for s in sa.spans)
            for s in sa.spans:
                text = sa.texts.get(s.document)
                covered = "".join(text[a:b] for a, b in s.fragments) if text is not None else s.text
                row = {"document": s.document, "coder": s.coder, "start": s.start, "end": s.end, "label": s.label,
                       "text": covered}
                if discontinuous:
                    row["fragments"] = ";".join(f"{a} {b}" for a, b in s.fragments)
                if attributed:
                    row["attributes"] = json.dumps(jsonable(s.attributes), ensure_ascii=False, sort_keys=True)
                rows.append(row)
            for doc, coder in sorted(sa.seen - marked):
                rows.append({"document": doc, "coder": coder, "start": None, "end": None, "label": None,
                             "text": None})
            cols = (["document", "coder", "start", "end", "label", "text"] + (["fragments"] if discontinuous else [])
                    + (["attributes"] if attributed else []))
            frame = pd.DataFrame(rows, columns=cols)
            frame = frame.sort_values(["document", "coder", "start"], kind="stable", na_position="first")
            frame[["start", "end"]] = frame[["start", "end"]].astype("Int64")
            return frame.reset_index(drop=True)
        data = self.annotations
        if data is None:
            return pd.DataFrame(columns=["unit", "coder", "value"])
        return pd.DataFrame(
            {
                "unit": data.units[data.unit_index],
                "coder": data.coders[data.coder_index],
                "value": data.values[data.value_index],
            }
        )


def _module(tool: str) -> Any:
    if tool not in TOOLS:
        raise choice_error("tool", tool, TOOLS, flag="--from")
    try:
        return importlib.import_module(f"accord.importers.{TOOLS[tool]}")
    except ModuleNotFoundError as exc:
        if exc.name == f"accord.importers.{TOOLS[tool]}":
            raise AccordError(f"the {tool} importer is not available in this version of accord") from None
        raise


def _head(path: Path) -> str:
    if path.is_dir():
        return ""
    with open(path, "rb") as fh:
        return fh.read(65536).removeprefix(BOM).decode("utf-8", errors="replace")


#: The UTF-8 byte order mark, which Windows tools (Notepad, Excel's "CSV UTF-8") write at a file's start.
BOM = b"\xef\xbb\xbf"
#: Files of a folder export the importers read past a byte order mark in (as the tools that write them do).
_BOM_READ_PAST = {".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".ann"}


def _bom_note(path: Path) -> str | None:
    """The report's note on the files of the export that begin with a byte order mark (read past it)."""
    if path.is_dir():
        from accord.importers._common import walk_files

        files = walk_files(path, follow_symlinks=False)[:100_000]
    else:
        files = [path]
    marked = []
    for f in files:
        if path.is_dir() and f.suffix.lower() not in _BOM_READ_PAST:
            continue  # a brat .txt keeps its mark: it is a character of the text, which offsets count
        try:
            with open(f, "rb") as fh:
                if fh.read(3) == BOM:
                    marked.append(f)
        except OSError:
            continue
    if not marked:
        return None
    if not path.is_dir():
        return "the file begins with a UTF-8 byte order mark (read past it)"
    names = ", ".join(f.relative_to(path).as_posix() for f in marked[:3]) + (", ..." if len(marked) > 3 else "")
    return f"{plural(len(marked), 'file begins', 'files begin')} with a UTF-8 byte order mark (read past it): {names}"


def guess_tool(path: str | Path) -> str:
    """Guess which tool wrote *path* from its name and content.

    Returns
    -------
    str
        A key of :data:`TOOLS`.

    Raises
    ------
    AccordError
        When no importer recognises the file, or several do (naming them).
    """
    path = Path(path)
    if not path.exists():
        raise no_such_file(path)
    head = _head(path)
    found: list[str] = []
    for tool in TOOLS:
        try:
            mod = _module(tool)
        except AccordError:
            continue
        if tool in found or TOOLS[tool] in {TOOLS[t] for t in found}:
            continue
        if mod.sniff(path, head):
            found.append(tool)
    if len(found) == 1:
        return found[0]
    if not found:
        from accord._shared.zips import ZipArchive, is_zip

        if is_zip(path):  # a zip no tool claims: a damaged one is said as such
            try:
                ZipArchive("zip", path).close()
            except AccordError as exc:
                raise AccordError(f"{path}: {str(exc).split(': ', 1)[1]}") from None
        head = f"{path}: cannot tell which tool wrote this export; pass "
        raise AccordError(f"{head}tool= ({', '.join(TOOLS)})", cli=f"{head}--from ({', '.join(TOOLS)})")
    head = f"{path}: this export could come from {' or '.join(found)}; pass "
    raise AccordError(f"{head}tool= to choose", cli=f"{head}--from to choose")


def read_export(
    path: str | Path,
    *,
    tool: str | None = None,
    field: str | None = None,
    fits: str | None = None,
    **options: Any,
) -> Imported:
    """Read an annotation tool's export.

    Parameters
    ----------
    path : str or Path
        The export file or folder.
    tool : str, optional
        A key of :data:`TOOLS`; guessed from the file when omitted (the guess is
        recorded in the report's notes).
    field : str, optional
        The control, question or layer to read when the export holds several.
    fits : {"categorical", "spans"}, optional
        What the caller can use: when *field* is not given and the export holds several fields, the one
        field whose values fit is read (said in the report's notes); several or none that fit is an error
        naming them.  ``accord agree`` passes ``"categorical"``, ``accord spans`` ``"spans"``.
    **options
        Passed to the tool's ``read`` (for example ``sheet=`` for spreadsheets).

    Returns
    -------
    Imported
    """
    path = Path(path)
    if fits is not None and fits not in FITS:
        raise AccordError(f"fits must be one of {', '.join(FITS)}; got {fits!r}")
    if not path.exists():
        raise no_such_file(path)
    guessed = tool is None
    if tool is None:
        tool = guess_tool(path)
    if TOOLS.get(tool) == "_crowd":  # one module reads two tools: say which
        options = {**options, "tool": tool}
    def _read(chosen: str | None) -> Any:
        try:
            return _module(tool).read(path, field=chosen, **options)
        except RecursionError:  # a value nested past the recursion limit, met beyond the JSON decoder
            raise AccordError(f"{tool} export {path}: a value nests lists or objects more deeply than Python's "
                              "recursion limit allows; no annotation tool writes that") from None
        except ValueError as exc:
            if isinstance(exc, AccordError) or "integer string conversion" not in str(exc):
                raise
            raise AccordError(f"{tool} export {path}: a number of more digits than Python reads "
                              f"({sys.get_int_max_str_digits():,}); no annotation tool writes that") from None

    notes: list[str] = []
    try:
        result = _read(field)
    except AmbiguousField as exc:
        if fits is None:
            raise
        fitting = [name for name, kind in exc.candidates.items() if kind in FITS[fits]]
        if len(fitting) != 1:
            what = "span values" if fits == "spans" else "categorical values, not spans"
            raise AccordError(words(exc, f" ({len(fitting) or 'none'} of them hold {what}"
                                    + (f": {', '.join(fitting)})" if fitting else ")"))) from None
        field = fitting[0]
        result = _read(field)
        what = "span" if fits == "spans" else "categorical"
        others = ", ".join(f"{n} ({k})" for n, k in exc.candidates.items() if n != field)
        head = f"field {field!r} {GUESSED_FIELD}: the only {what} field of the export (the others: {others}; pass "
        notes.append(Message(f"{head}field= to choose)", cli=f"{head}--field to choose)"))
    bom = _bom_note(path)
    if bom:
        notes.append(bom)
    if guessed:
        notes.insert(0, Message(f"format guessed from the file: {tool} (pass tool= to choose)",
                                cli=f"format guessed from the file: {tool} (pass --from to choose)"))
    if notes:
        report = result.report
        result = dataclasses.replace(result, report=dataclasses.replace(report, notes=(*notes, *report.notes)))
    return result
