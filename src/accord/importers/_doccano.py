"""doccano: the JSONL (or JSON) export, one file per annotator, alone, in a folder or in the zip doccano gives.

Schema followed: doccano 1.x dataset export, "JSONL" format
(https://doccano.github.io/doccano/tutorial/#export-dataset and
https://doccano.github.io/doccano/faq/): with collaborative annotation off,
the download is a zip holding one ``<username>.jsonl`` per annotator; each
line is one example with its ``id``, ``text`` and that annotator's labels:

text classification
    ``"label": ["positive"]`` (a list of category names): one name is a nominal
    value, several (multi-label projects) a set;
sequence labeling
    ``"label": [[start, end, "ORG"], ...]``, or with relations
    ``"entities": [{"id", "label", "start_offset", "end_offset"}, ...]`` and
    ``"relations": [{"id", "from_id", "to_id", "type"}, ...]`` (read with
    ``relations=True``, else each counted as dropped);
intent detection and slot filling
    ``"cats": ["flight"]`` (the intents, read as categories) and
    ``"entities": [[start, end, "City"], ...]`` (the slots, spans): one is read
    at a time, chosen with ``field=``.

Every line also carries ``Comments`` (the annotator's comments on the
example, not read) and the example's metadata keys.  The "JSON" export
format writes the same examples as one array per annotator
(``<username>.json``); it is read the same way.

Before 1.2, doccano wrote one file for the whole project with an
``annotations`` list whose items carry the ``user`` id (``{"label",
"start_offset", "end_offset", "user"}`` for spans, ``{"label", "user"}`` for
categories); such a file is read too, one annotator per user id.

Offsets: doccano's annotation interface runs in the browser, so by default the
offsets are read as UTF-16 code units and re-anchored to code points
(``offsets="codepoints"`` reads them as they are); doccano's export does not
repeat a span's text, so the reading cannot be checked against it, and the
report says when a document holds characters on which the two readings differ.

Cell states: an example in an annotator's file with no label is *empty*; an
example absent from an annotator's file is *unassigned*; doccano has no skip
or cancel, so no cell is *skipped*.  doccano writes every example of the
project into every annotator's file unless "Export only approved documents" is
ticked (then a file holds the examples that annotator confirmed): export with
that option, or an example an annotator never opened reads as one they saw and
left empty (an annotator with no label on any example is named in a note).
With collaborative annotation on, doccano writes one ``all.jsonl``
holding everybody's labels merged, without who gave them; such a file is
refused (there is no annotator to compare).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord._shared.zips import ZipArchive, is_zip
from accord.importers import AmbiguousField, Imported
from accord.importers._common import (
    Cells,
    Tidy,
    check,
    fail,
    folder_entries,
    gc_paused,
    iter_json_records,
    iter_jsonl,
    json_type,
    opt,
    quote,
    read_text,
    reanchor_span,
    symlink_note,
)
from accord.importers._offsets import Utf16Index

__all__ = ["read", "sniff"]

TOOL = "doccano"


def sniff(path: Path, head: str) -> bool:
    """A zip of ``.jsonl`` files, a folder of them, or JSON lines with ``text`` and ``label`` / ``entities``
    (or the same of ``.json`` files, each one array: doccano's JSON export)."""
    if path.is_dir():
        files = folder_entries(path, "*.jsonl", follow_symlinks=False) or \
            folder_entries(path, "*.json", follow_symlinks=False)
        return bool(files) and all(_looks_like(_head(f)) for f in files)
    if is_zip(path):
        try:
            with ZipArchive(TOOL, path) as z:
                names = [n for n in z.names() if n.endswith(".jsonl")] or [n for n in z.names() if n.endswith(".json")]
                return bool(names) and _looks_like(z.head(names[0], 4096).decode("utf-8", errors="replace"))
        except AccordError:
            return False
    return _looks_like(head)


def _head(f: Path) -> str:
    with open(f, "rb") as fh:
        return fh.read(4096).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


def _looks_like(head: str) -> bool:
    """The first line is an example as doccano writes it: ``text`` and its labels in doccano's own shapes.

    doccano's JSONL export (``backend/data_export/pipeline`` of doccano 1.x: ``labels.py`` and the examples its
    ``catalog.py`` registers) writes ``label`` as a list of category names or of ``[start, end, label]``
    triples, ``entities`` as a list of triples or of ``{"id", "label", "start_offset", "end_offset"}``
    objects, ``cats`` as a list of names; before 1.2, ``annotations`` items with a ``user``.  A line whose
    ``label`` is one string (a span table's row) is not doccano's.
    """
    first = head.lstrip().lstrip("\ufeff").lstrip()
    try:
        if first.startswith("["):  # the JSON export: an array, its first example first
            obj, _ = json.JSONDecoder().raw_decode(first[1:].lstrip())
        else:
            obj = json.loads(first.split("\n", 1)[0])
    except (ValueError, RecursionError):  # not JSON, nested too deep, a number too long
        return False
    if not isinstance(obj, dict) or not isinstance(obj.get("text"), str):
        return False
    if any(k.startswith("_") or "." in k for k in obj):
        return False
    anns = obj.get("annotations")
    if "annotations" in obj:
        return (isinstance(anns, list) and all(isinstance(a, dict) and "user" in a for a in anns)
                and "data" not in obj)
    keys = [k for k in ("label", "entities", "cats") if k in obj]
    return bool(keys) and all(_doccano_labels(k, obj[k]) for k in keys)


def _is_triple(x: Any) -> bool:
    return (isinstance(x, list) and len(x) == 3 and all(isinstance(v, int) and not isinstance(v, bool) for v in x[:2])
            and isinstance(x[2], str))


def _doccano_labels(key: str, value: Any) -> bool:
    """Whether *value* has a shape doccano writes under *key*."""
    if not isinstance(value, list):
        return False
    if key == "cats":
        return all(isinstance(x, str) for x in value)
    if key == "entities":
        return all(_is_triple(x) or (isinstance(x, dict) and {"start_offset", "end_offset", "label"} <= x.keys())
                   for x in value)
    return all(isinstance(x, str) for x in value) or all(_is_triple(x) for x in value)


def _sources(path: Path, follow_symlinks: bool,
             skipped: list[Path]) -> Iterator[tuple[str | None, str, list[tuple[int, Any]]]]:
    """``(coder from the file name, file name for messages, (line, example) pairs)`` of each per-annotator file:
    doccano's JSONL export (``<username>.jsonl``), or its JSON export (``<username>.json``, one array)."""
    if path.is_dir():
        files = folder_entries(path, "*.jsonl", follow_symlinks=follow_symlinks, skipped=skipped) or \
            folder_entries(path, "*.json", follow_symlinks=follow_symlinks, skipped=skipped)
        if not files:
            raise fail(TOOL, path, words("the folder holds no .jsonl file", *(
                (f" but {plural(len(skipped), 'symbolic link')} to one, not followed (pass ",
                 opt("follow_symlinks", True), " to read them)") if skipped else ())))
        for f in files:
            yield f.stem, str(f), _examples(Path(f), read_text(TOOL, f))
        return
    if is_zip(path):
        with ZipArchive(TOOL, path) as z:
            names = sorted(n for n in z.names() if n.endswith(".jsonl")) or \
                sorted(n for n in z.names() if n.endswith(".json"))
            if not names:
                raise fail(TOOL, path, "the zip holds no .jsonl file (export the dataset as JSONL)")
            for n in names:
                yield Path(n).stem, f"{path}:{n}", _examples(Path(n), read_text(TOOL, f"{path}:{n}", z.read(n)),
                                                              f"{path}:{n}")
        return
    yield path.stem, str(path), _examples(path, read_text(TOOL, path))


def _examples(name: Path, text: str, where: str | None = None) -> list[tuple[int, Any]]:
    """The ``(line, example)`` pairs of one file: JSON lines, or (doccano's JSON export) one array."""
    source = Path(where) if where else name
    if name.suffix.lower() == ".json" and text.lstrip().lstrip("\ufeff").lstrip().startswith("["):
        return [(line, obj) for _, line, obj in iter_json_records(TOOL, source, text)]
    return list(iter_jsonl(TOOL, source, text.splitlines()))


@gc_paused
def read(path: str | Path, *, field: str | None = None, multiple: bool | None = None,
         offsets: str = "utf16", follow_symlinks: bool = False, relations: bool = False) -> Imported:
    """Read a doccano JSONL export: one annotator's file, a folder of them, or the zip.

    Parameters
    ----------
    path : str or Path
        A ``.jsonl`` file (its stem names the annotator), a folder of them, or
        doccano's ``.zip``.
    field : {"label", "entities", "cats"}, optional
        Which key to read when examples have several (an intent-detection
        export has ``cats``, the intents, and ``entities``, the slots).
    multiple : bool, optional
        Read categories as sets (True) or single values (False); default: sets
        when some example has several.
    offsets : {"utf16", "codepoints"}
        How the span offsets count characters (see the module docstring).
    follow_symlinks : bool
        Read the files of a folder that are symbolic links (default: left out, and counted in a note).
    relations : bool
        Also read the ``relations`` between the ``entities`` (:mod:`accord.importers._json_relations`;
        ``kind="relations"``); otherwise each relation is counted as dropped.

    Returns
    -------
    Imported

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for who, lab in [("ann", "pos"), ("bob", "neg")]:
    ...     _ = (d / f"{who}.jsonl").write_text(json.dumps({"id": 1, "text": "Fine.", "label": [lab]}) + "\\n")
    >>> imp = read(d)
    >>> imp.kind, imp.report.coders
    ('nominal', ('ann', 'bob'))
    """
    path = Path(path)
    if offsets not in ("utf16", "codepoints"):
        raise AccordError(f"offsets must be 'utf16' or 'codepoints'; got {quote(offsets)}")
    if field is not None and field not in ("label", "entities", "labels", "cats"):
        raise fail(TOOL, path, f"field must be 'label', 'entities' or 'cats'; got {quote(field)}", field=field)
    rows: list[tuple[str, str, int, dict[str, Any]]] = []  # coder, file, line, example
    file_coders: set[str] = set()  # an annotator whose file is empty is still an annotator (of nothing)
    skipped: list[Path] = []
    tidy = Tidy()
    for coder, fname, examples in _sources(path, follow_symlinks, skipped):
        coder = None if coder is None else tidy.id(coder)
        if coder == "all":
            raise fail(TOOL, fname, f"{Path(fname).name} is doccano's collaborative-annotation export: it merges every "
                       "annotator's labels without saying who gave them; export a project with collaborative "
                       "annotation off (one <username>.jsonl per annotator)")
        for line, obj in examples:
            if not isinstance(obj, dict):
                raise fail(TOOL, fname, f"each example must be a JSON object, found a {type(obj).__name__}",
                           line=line)
            _validate(fname, line, obj, tidy)
            if "annotations" in obj and isinstance(obj["annotations"], list) and "label" not in obj:
                rows.extend(_old_format(fname, line, obj))
                continue
            rows.append((coder or "", fname, line, obj))
            file_coders.add(coder or "")
        if not examples and coder:
            file_coders.add(coder)
    if not rows:
        raise fail(TOOL, path, "the export holds no example")
    for _, fname, line, obj in rows:
        if not isinstance(obj.get("text"), str):
            raise fail(TOOL, fname, "not a doccano export line: no 'text'", line=line, record=obj.get("id"))
        if not any(k in obj for k in ("label", "labels", "entities", "cats")):
            raise fail(TOOL, fname, "not a doccano export line: no 'label' or 'entities'", line=line,
                       record=obj.get("id"))
    key = field
    if key is None:
        present = {k for _, _, _, o in rows for k in ("label", "labels", "entities", "cats") if k in o}
        if "cats" in present and present - {"cats"}:
            # intent detection and slot filling: the intent categories beside the slot spans
            others = ", ".join(f"{k} (spans)" for k in sorted(present - {"cats"}))
            raise AmbiguousField(
                fail(TOOL, path, words(f"the export has {plural(len(present), 'field')}: cats (categories), "
                                       f"{others}; pass ", opt("field"), " to choose one")),
                {"cats": "nominal", **{k: "spans" for k in sorted(present - {"cats"})}},
            )
        key = ("entities" if "entities" in present else "label" if "label" in present
               else "cats" if "cats" in present else "labels")
    if not any(key in o for _, _, _, o in rows):
        raise fail(TOOL, path, f"no example has the field {quote(key)}", field=key)
    spans_mode = key == "entities" or any(
        isinstance(o.get(key), list) and any(isinstance(x, (list, dict)) for x in o[key]) for _, _, _, o in rows
    )
    cells = Cells(TOOL, str(path), tidy=tidy)
    cells.coders.update(file_coders)
    note = symlink_note(path, skipped)
    if note:
        cells.notes.append(note)
    ids = [o.get("id") for _, _, _, o in rows]
    by_text = any(i is None for i in ids)
    if by_text:
        cells.notes.append("examples without an 'id' are matched across annotators by their text")
    if relations and not spans_mode:
        raise fail(TOOL, path, f"relations join spans; field {quote(key)} holds categories, not spans", field=key)
    if spans_mode:
        return _read_spans(path, cells, rows, key, by_text, offsets, relations=relations)
    if multiple is None:
        multiple = any(len(o.get(key) or []) > 1 for _, _, _, o in rows)
    kind = "set" if multiple else "nominal"
    if multiple:
        cells.notes.append("categories read as sets (some example has several)")
    for coder, fname, line, o in rows:
        unit = _unit(o, by_text)
        cells.item(unit)
        if o.get("_nobody"):
            continue
        if cells.has(unit, coder):
            cells.drop(unit, "the example appears twice for the annotator (the first is kept)", line=line,
                       coder=coder)
            continue
        labs = o.get(key) or []
        if not isinstance(labs, list):
            raise fail(TOOL, fname, f"{quote(key)} must be a list of categories; got {quote(labs)}", line=line,
                       record=unit, field=key, coder=coder)
        labs = [str(x) for x in labs]
        if not labs:
            cells.cell(unit, coder, "empty", frozenset() if multiple else None, line=line)
        elif multiple:
            cells.cell(unit, coder, "annotated", frozenset(labs), line=line)
        else:
            cells.cell(unit, coder, "annotated", labs[0], line=line)
    _note_silent_members(cells)
    return cells.imported(key, kind)  # type: ignore[arg-type]


def _note_silent_members(cells: Cells) -> None:
    """Say which annotators left every example of their file without a label: doccano writes every example of
    the project into every member's file unless "Export only approved documents" is ticked, so a member who
    never annotated reads as one who saw every example and marked nothing (and is compared so)."""
    states: dict[str, set[str]] = {}
    for (_, coder), state in cells.cells.items():
        states.setdefault(str(coder), set()).add(state)
    silent = sorted(c for c, st in states.items() if st == {"empty"})
    if silent and len(silent) < len(states):
        cells.notes.append(f"{plural(len(silent), 'annotator')} with no label on any example of their file: "
                           f"{', '.join(silent)}; doccano writes every example into every member's file unless "
                           "'Export only approved documents' is ticked, so these may be members who never "
                           "annotated, here compared as having marked nothing")


#: What an example's keys hold, as doccano's JSONL export writes them (null allowed): see the module docstring.
_EXAMPLE = {"id": "id", "text": "text", "label": "list", "labels": "list", "cats": "list of label",
            "entities": "list of list|object", "annotations": "list of object", "relations": "list of object"}
_ENTITY = {"label": "label", "start_offset": "integer", "end_offset": "integer", "user": "id"}


def _validate(fname: str, line: int, obj: dict[str, Any], tidy: Tidy) -> None:
    """Check the JSON types of an example against doccano's export format; make its id, its users and its
    category and span labels ids and labels in their one form (:mod:`accord._shared.ids`)."""
    where: dict[str, Any] = {"line": line}
    for key, expected in _EXAMPLE.items():
        check(TOOL, fname, obj.get(key), expected, field=key, null=True, **where)
    if obj.get("id") is not None:
        obj["id"] = tidy.id(obj["id"])
        where["record"] = obj["id"]
    for key in ("label", "labels", "cats", "entities", "annotations"):
        items = obj.get(key)
        if not items:
            continue
        for i, item in enumerate(items):
            at = f"{key}[{i}]"
            if isinstance(item, dict):
                for k, expected in _ENTITY.items():
                    check(TOOL, fname, item.get(k), expected, field=f"{at}.{k}", null=True, **where)
                if item.get("label") is not None:
                    item["label"] = tidy.label(item["label"])
                if item.get("user") is not None:
                    item["user"] = tidy.id(item["user"])
            elif isinstance(item, list):
                if len(item) != 3:
                    raise fail(TOOL, fname, f"expected a span [start, end, label], found {json_type(item)}",
                               field=at, **where)
                check(TOOL, fname, item[0], "integer", field=f"{at}[0]", **where)
                check(TOOL, fname, item[1], "integer", field=f"{at}[1]", **where)
                check(TOOL, fname, item[2], "label", field=f"{at}[2]", **where)
                item[2] = tidy.label(item[2])
            else:
                items[i] = tidy.label(check(TOOL, fname, item, "label", field=at, **where))


def _unit(o: dict[str, Any], by_text: bool) -> Hashable:
    return o["text"] if by_text else o["id"]


def _old_format(fname: str, line: int, obj: dict[str, Any]) -> Iterator[tuple[str, str, int, dict[str, Any]]]:
    """doccano before 1.2: one line per example with every user's ``annotations``; split it per user."""
    per: dict[str, list[Any]] = {}
    for a in obj["annotations"]:
        if not isinstance(a, dict) or "user" not in a:
            raise fail(TOOL, fname, "an item of 'annotations' has no 'user'", line=line, record=obj.get("id"))
        if "start_offset" in a:
            per.setdefault(str(a["user"]), []).append([a["start_offset"], a["end_offset"], str(a["label"])])
        else:
            per.setdefault(str(a["user"]), []).append(str(a["label"]))
    if not per:
        # nobody labelled the example: it is an item, with no annotator
        yield "", fname, line, {**{k: v for k, v in obj.items() if k != "annotations"}, "label": [], "_nobody": True}
    for user, labs in per.items():
        yield user, fname, line, {**{k: v for k, v in obj.items() if k != "annotations"}, "label": labs}


def _read_spans(path: Path, cells: Cells, rows: list[tuple[str, str, int, dict[str, Any]]], key: str,
                by_text: bool, offsets: str, *, relations: bool = False) -> Imported:
    from accord.data._spans import Span, SpanAnnotations
    from accord.importers._json_relations import doccano_relations

    spans: list[Span] = []
    rels: list[Any] = []
    texts: dict[str, str] = {}
    astral: set[str] = set()
    for coder, fname, line, o in rows:
        doc = str(_unit(o, by_text))
        cells.item(doc)
        text = o["text"]
        if doc in texts and texts[doc] != text:
            raise fail(TOOL, fname, "two annotators' files give this example different texts", line=line, record=doc)
        texts[doc] = text
        if o.get("_nobody"):
            continue
        if cells.has(doc, coder):
            cells.drop(doc, "the example appears twice for the annotator (the first is kept)", line=line, coder=coder)
            continue
        index = Utf16Index(text) if offsets == "utf16" else None
        if index is not None and index.has_astral:
            astral.add(doc)
        mine = []
        ids: dict[Any, Span] = {}  # entity id -> its span, for the relations
        for item in o.get(key) or []:
            kw = {"record": doc, "line": line, "field": key, "coder": coder}
            if isinstance(item, dict):
                start, end, label = item.get("start_offset"), item.get("end_offset"), item.get("label")
            elif isinstance(item, list) and len(item) == 3:
                start, end, label = item
            else:
                raise fail(TOOL, fname, f"a span must be [start, end, label] or an entity object; got {quote(item)}",
                           **kw)
            s, e, _ = reanchor_span(TOOL, fname, text, start, end, covered=None, utf16=offsets == "utf16",
                                    index=index, **kw)
            mine.append(Span(doc, s, e, str(label), coder))
            if isinstance(item, dict) and item.get("id") is not None:
                ids[item["id"]] = mine[-1]
        spans.extend(mine)
        if relations:
            rels += doccano_relations(Path(fname), o.get("relations") or [], ids, doc, coder, line=line)
        else:  # counted, never dropped unsaid
            for _ in o.get("relations") or ():
                cells.drop(doc, "relation between entities (not compared; relations=True reads it)", line=line,
                           coder=coder)
        cells.cell(doc, coder, "annotated" if mine else "empty", line=line)
    if astral:
        cells.notes.append(words(f"{plural(len(astral), 'document holds', 'documents hold')} characters outside the "
                                 "Basic Multilingual Plane (emoji): span offsets were read as UTF-16 code units; pass ",
                                 opt("offsets", "codepoints"), " if your doccano counted code points"))
    _note_silent_members(cells)
    seen = [(str(i), c) for (i, c), s in cells.cells.items() if s in ("annotated", "empty")]
    sa = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, source=str(path))
    if relations:
        from accord.data._relations import RelationAnnotations

        return Imported(tool=TOOL, field=key, kind="relations", annotations=None, spans=sa, report=cells.report(),
                        relations=RelationAnnotations.from_relations(rels, spans=sa))
    return Imported(tool=TOOL, field=key, kind="spans", annotations=None, spans=sa, report=cells.report())
