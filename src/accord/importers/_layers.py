"""Every layer or control of an export, each annotator's count, and what accord measures on it.

Not public: :func:`accord.importers.layers` is the API.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import shlex
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, no_such_file, plural
from accord._shared.results import Result

__all__ = ["ExportLayer", "ExportLayers", "layers", "layers_and_reads"]

#: a dropped record's reason that names a control: ``textarea 'comment': ...``, ``ranking question 'order': ...``
_NAMED = re.compile(r"^[\w -]+ '([^']+)': ")
#: brat's lines that are not spans, by the reason its importer drops them with
_BRAT = {"relation": "relations (R)", "event": "events (E)", "note": "notes (#)", "equivalence": "equivalences (*)",
         "attribute": "attributes (A, M)", "normalisation": "normalisations (N)",
         "attribute of a relation": "attributes of relations",
         "attribute of an annotation that is not a span": "attributes of annotations that are not spans"}


@dataclass(frozen=True)
class ExportLayer(Result):
    """One layer, control, question or attribute of an export.

    Attributes
    ----------
    name : str
        As the export names it (a control, a question, ``layer|feature``, a brat attribute...).
    kind : str
        ``spans``, ``nominal``, ``set``, ``ordinal``, ``interval`` (a field accord reads), ``text`` (free
        text), ``attribute`` (of the spans of *parent*), ``relation``, ``chain``, ``slot feature``
        (INCEpTION's layers the span reader does not read), or ``set aside`` (a part the importer counts and
        sets aside).
    counts : dict of str to int
        Per annotator: the spans, the answered items, the attribute values or the records set aside.
    command : str or None
        The command that measures agreement on it (``accord spans --field ner``...).
    function : str or None
        The Python function that does (``accord.spans.span_f1``...).
    reason : str or None
        Why accord measures nothing on it, when it does not.
    parent : str or None
        For an attribute, the span field it belongs to.
    """

    name: str
    kind: str
    counts: dict[str, int]
    command: str | None
    function: str | None
    reason: str | None = None
    parent: str | None = None

    @property
    def total(self) -> int:
        """The count over annotators."""
        return sum(self.counts.values())


@dataclass(frozen=True)
class ExportLayers(Result):
    """What :func:`layers` found in an export.

    Attributes
    ----------
    tool, source : str
        The importer and the file or folder read.
    coders : tuple of str
        The annotators.
    layers : tuple of ExportLayer
        Every layer, control or attribute, those accord measures first.
    """

    tool: str
    source: str
    coders: tuple[str, ...]
    layers: tuple[ExportLayer, ...]

    def to_frame(self) -> Any:
        """One row per layer: name, kind, parent, one column per annotator, command, function, reason."""
        import pandas as pd

        rows = [{"layer": x.name, "kind": x.kind, "parent": x.parent, **{c: x.counts.get(c, 0) for c in self.coders},
                 "command": x.command, "function": x.function, "reason": x.reason} for x in self.layers]
        return pd.DataFrame(rows, columns=["layer", "kind", "parent", *self.coders, "command", "function", "reason"])


def _is_layer(reason: str) -> bool:
    """Whether a dropped record's reason sets aside a part of the scheme (not a duplicate or a damaged record)."""
    return any(w in reason for w in ("not compared", "not read", "read only when named"))


def _dropped_measure(reason: str) -> tuple[str | None, str | None]:
    """The command and function that measure a part the field's importer sets aside, where there are."""
    if reason.startswith(("relation", "event")) and importlib.util.find_spec("accord.relations") is not None:
        return "accord relations", "accord.relations"
    return None, None


def _field_layer(imported: Any, name: str, several: bool) -> ExportLayer:
    from accord.importers import FITS

    kind = imported.kind
    flag = f" --field {shlex.quote(name)}" if several else ""
    if kind == "spans":
        counts = Counter(s.coder for s in imported.spans.spans)
        return ExportLayer(name, kind, {c: counts.get(c, 0) for c in imported.spans.coders}, f"accord spans{flag}",
                           "accord.spans.span_statistics")
    counts_ = {c: n["annotated"] for c, n in imported.report.counts.items()}
    if kind in FITS["categorical"]:  # what accord agree reads
        return ExportLayer(name, kind, counts_, f"accord agree{flag}", "accord.alpha")
    return ExportLayer(name, kind, counts_, None, None, "free text: counted, not compared")


def _attribute_layers(imported: Any, name: str, several: bool) -> list[ExportLayer]:
    if imported.spans is None:
        return []
    per: dict[str, Counter[str]] = {}
    for s in imported.spans.spans:
        for attr, value in s.attributes.items():
            if value is not None:
                per.setdefault(attr, Counter())[s.coder] += 1
    coders = imported.spans.coders
    command = f"accord attributes{f' --field {shlex.quote(name)}' if several else ''}"
    return [ExportLayer(attr, "attribute", {c: n.get(c, 0) for c in coders}, command, "accord.attributes.agreement",
                        parent=name)
            for attr, n in sorted(per.items())]


def layers(path: str | Path, *, tool: str | None = None, **options: Any) -> ExportLayers:
    """List every layer, control or attribute of an export, each annotator's count, and what accord measures.

    Each field the importer can read (a span layer, a control, a question) is read in turn; the attributes
    of span layers are read where the importer has them (brat's ``A``, ``M`` and ``N`` lines, INCEpTION's
    other features of a layer); every part the importer counts and sets aside (brat's relations, Label
    Studio's ``textarea``, Argilla's ``ranking`` answers...) is listed with its reason.

    Parameters
    ----------
    path : str or Path
        The export file or folder.
    tool : str, optional
        A key of :data:`accord.importers.TOOLS`; guessed when omitted.
    **options
        Passed to the importer.

    Returns
    -------
    ExportLayers

    Raises
    ------
    AccordError
        When the export cannot be read at all (the importer's own message).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> files = [("alice", "T1\\tDrug 0 7\\taspirin\\nA1\\tNegated T1\\n"), ("bob", "T1\\tDrug 0 7\\taspirin\\n")]
    >>> for coder, ann in files:
    ...     _ = (root / coder).mkdir()
    ...     _ = (root / coder / "d1.txt").write_text("aspirin helps")
    ...     _ = (root / coder / "d1.ann").write_text(ann)
    >>> found = layers(root, tool="brat")
    >>> [(x.name, x.kind, x.counts) for x in found.layers]
    [('text-bound (T)', 'spans', {'alice': 1, 'bob': 1}), ('Negated', 'attribute', {'alice': 1, 'bob': 0})]
    """
    return layers_and_reads(path, tool=tool, **options)[0]


def layers_and_reads(path: str | Path, *, tool: str | None = None, **options: Any) -> tuple[ExportLayers,
                                                                                           dict[str | None, Any]]:
    """:func:`layers`, and the import of each field it read whose values are not spans, by the ``field`` it was
    read with (None: the export's one field, read without one), for a caller that measures every field to
    reuse instead of reading the export again (:func:`accord.importers._input.reusing_reads`).  Spans are left
    out: :func:`layers` reads them with their attributes, which a reader of the field does not ask for."""
    from accord.importers import AmbiguousField, _module, guess_tool, read_export

    path = Path(path)
    if not path.exists():
        raise no_such_file(path)
    if tool is None:
        tool = guess_tool(path)
    if "attributes" in inspect.signature(_module(tool).read).parameters:
        options = {**options, "attributes": True}
    reads: list[tuple[str, Any]] = []
    failed: list[ExportLayer] = []
    kept: dict[str | None, Any] = {}  # by the field read with
    try:
        first = read_export(path, tool=tool, **options)
        reads.append((first.field or _default_name(first), first))
        kept[None] = first
    except AmbiguousField as exc:
        for name, kind in exc.candidates.items():
            try:
                kept[name] = read_export(path, tool=tool, field=name, **options)
                reads.append((name, kept[name]))
            except AccordError as err:
                failed.append(ExportLayer(name, kind, {}, None, None, str(err)))
    out: list[ExportLayer] = []
    coders: set[str] = set()
    attributed: set[str] = set()
    for name, imported in reads:
        if tool == "inception":  # the layer's short name, which --field takes: NamedEntity|value
            layer, _, feature = name.partition("|")
            name = f"{layer.rsplit('.', 1)[-1]}|{feature}"
        coders.update(imported.report.coders)
        out.append(_field_layer(imported, name, len(reads) > 1))
        layer = name.split("|")[0] if tool == "inception" else name
        if layer not in attributed:  # INCEpTION: a layer's other features, listed once (under its first field)
            attributed.add(layer)
            out.extend(_attribute_layers(imported, name, len(reads) > 1))
    out.extend(failed)
    if tool == "inception":
        out.extend(_inception_other_layers(path, options.get("follow_symlinks", False)))
    if reads:
        aside: dict[str, Counter[str]] = {}
        for d in reads[0][1].report.dropped:
            if _is_layer(d.reason):
                aside.setdefault(d.reason, Counter())[d.coder or "(no annotator)"] += 1
        named: set[str] = {name for name, _ in reads}
        for reason, n in aside.items():
            control = _NAMED.match(reason)
            if control is not None and control[1] not in named:  # a control read only when named: try it
                named.add(control[1])
                try:
                    imported = read_export(path, tool=tool, field=control[1], **options)
                except AccordError:
                    pass
                else:
                    kept[control[1]] = imported
                    out.append(_field_layer(imported, control[1], True))
                    continue
            command, function = _dropped_measure(reason)
            short = reason.split(" (")[0].split(":")[0]
            # a part another command reads (relations, events) is that command's kind; else it is set aside
            kind = "relations" if command == "accord relations" else "set aside"
            out.append(ExportLayer(_BRAT.get(short, short) if tool == "brat" else short, kind,
                                   dict(sorted(n.items())), command, function,
                                   None if command else f"{plural(sum(n.values()), 'record')} set aside: {reason}"))
    found = ExportLayers(tool=tool, source=str(path), coders=tuple(sorted(coders)), layers=tuple(out))
    return found, {field: imp for field, imp in kept.items() if imp.kind != "spans"}


def _default_name(imported: Any) -> str:
    """The name of the one field of an export that has no field names (brat's text-bound annotations)."""
    return "text-bound (T)" if imported.tool == "brat" else "(the export's one field)"


def _inception_other_layers(path: Path, follow_symlinks: bool) -> list[ExportLayer]:
    """The relation and chain layers and the slot features of INCEpTION's TSV files, which the span reader does
    not read: each annotator's stacked items on token rows (:mod:`accord.importers._inception_layers`)."""
    from accord.importers._inception import _SYSTEM_USERS, _files
    from accord.importers._inception_cas import is_cas_json, parse_cas
    from accord.importers._inception_layers import WHY, unread_layers

    if path.is_file() and not path.suffix == ".zip":
        return []
    counts: dict[tuple[str, str], Counter[str]] = {}
    for _, user, content in _files(path, follow_symlinks):
        if user in _SYSTEM_USERS:
            continue
        if is_cas_json(content):
            try:
                found = parse_cas(content, user, None, lambda where, message: AccordError(message), None)[4]
            except AccordError:  # a damaged file: reading the export says so
                continue
        else:
            found = unread_layers(content)
        for key, n in found.items():
            counts.setdefault(key, Counter())[user] += n
    # a relation layer is read by accord relations (over the span layer it links, named with --field)
    return [ExportLayer(name, "relations", dict(sorted(n.items())), *_dropped_measure("relation"), None)
            if kind == "relation" else
            ExportLayer(name, kind, dict(sorted(n.items())), None, None, f"{WHY[kind]}; counted as its items")
            for (name, kind), n in counts.items()]
