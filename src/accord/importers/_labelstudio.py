"""Label Studio: the JSON, JSON-MIN and CSV (or TSV) exports of a project.

Schema followed: Label Studio 1.x "JSON" export, one task per element of a JSON
array, each with ``id``, ``data`` and ``annotations``; every annotation has
``completed_by`` (a user id, or an object with ``id`` and ``email``),
``was_cancelled`` and a ``result`` list of regions ``{"from_name", "to_name",
"type", "value"}`` (https://labelstud.io/guide/task_format and
https://labelstud.io/guide/export#Label-Studio-JSON-format-of-annotated-tasks).
The "JSON-MIN" export (https://labelstud.io/guide/export#JSON-MIN) has one
object per annotation with the task ``id``, the task data, ``annotator``,
``annotation_id`` and one key per control holding the regions' values without
their type (a single choice as the bare string, several as
``{"choices": [...]}``, ``[{"rating": 4}]``, ``[{"number": 2.5}]``,
``[{"taxonomy": [[...]]}]``, spans as ``{"start", "end", "text", "labels"}``),
so the control types are read from the values' shape (``kind=`` and
``multiple=`` correct a wrong reading); JSON-MIN leaves cancelled annotations
out, so they count as unassigned there.  The "CSV" and "TSV" exports
(https://labelstud.io/guide/export#CSV) write the JSON-MIN rows as a table,
one column per key (the header names ``id``, ``annotator`` and
``annotation_id``), a value that is not text as its JSON: they are read as
JSON-MIN rows (:mod:`accord.importers._labelstudio_min`).  A target
storage's files (one per annotation, its task nested, or one per task) are
read as the tasks of a JSON export, a folder of them or one alone
(:mod:`accord.importers._labelstudio_storage`).

Controls read (the ``type`` of a region):

``choices``
    a single choice is a nominal value; when some annotation holds several
    choices (``choice="multiple"``) every value is a set (``multiple=`` forces
    either reading);
``taxonomy``
    a set of paths, each path a tuple of the names from the root;
``rating``, ``number``
    ordinal and interval values;
``labels``
    spans of the text (:class:`~accord.SpanAnnotations`); the
    ``start``/``end`` offsets count UTF-16 code units (Label Studio runs in the
    browser) and are re-anchored to Python code points, and each region's
    ``text`` is checked against the document;
``textarea``, ``ranker``, ``pairwise``
    read only when named (``field=``): a textarea's lines (``value.text``)
    joined as one text, a Ranker's item ids (``value.ranker``) as a ranking,
    a Pairwise choice (``value.selected``: left, right) as ``first`` or
    ``second`` (:mod:`accord.importers._answers`); otherwise each region is
    counted as a dropped record ("read only when named").  A Ranker with
    ``Bucket`` tags sorts items into groups with no order among them
    (https://labelstud.io/tags/ranker): its answer is read as the set of
    ``(bucket, item id)`` pairs placed, compared as sets are (the items left
    in the list, ``_``, are placed nowhere and left out).

A control with ``perRegion`` answers about one span and its regions carry
that span's region ``id``: it is not a value of the task, so it is not
compared (refused when named; counted when a control mixes both).

Cell states: an annotation with ``was_cancelled`` is *skipped*; an annotation
with no region of the chosen control is *empty* (the empty set for sets, no
span for labels); a task without an annotation of an annotator is
*unassigned*.  Predictions are not annotations and are not read (counted in a
note).  Label Studio before 1.0 wrote ``completions`` instead of
``annotations``: such a file is refused with a message saying so.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord._shared.ids import canonical_id
from accord.importers import AmbiguousField, Imported
from accord.importers._common import (
    Cells,
    TextCheck,
    Tidy,
    check,
    coder_name,
    fail,
    gc_paused,
    iter_json_records,
    opt,
    quote,
    read_text,
)
from accord.importers._json_relations import labelstudio_relations
from accord.importers._labelstudio_common import (
    BUCKETS_NOTE,
    TOOL,
    VALUE,
    region_span,
    span_notes,
    spans_result,
)
from accord.importers._labelstudio_min import csv_rows, is_csv_export, read_min
from accord.importers._labelstudio_regions import ATTRIBUTE_TYPES, region_attributes
from accord.importers._labelstudio_storage import (
    is_storage_object,
    looks_like_storage,
    single_annotation,
    storage_tasks,
)
from accord.importers._offsets import Utf16Index

__all__ = ["read", "sniff"]

COMPARED = {"choices": "nominal", "taxonomy": "set", "rating": "ordinal", "number": "interval", "labels": "spans"}
#: Controls read only when named (``field=``), never guessed: free text, a ranking (Ranker), a pairwise preference
#: (``first`` or ``second``) -> the kind of their values (:mod:`accord.importers._answers` reads them).
NAMED_ONLY = {"textarea": "text", "ranker": "ranking", "pairwise": "nominal"}
_SPAN_TYPES = {"labels", "hypertextlabels", "paragraphlabels", "rectanglelabels", "polygonlabels", "ellipselabels",
               "keypointlabels", "brushlabels", "timeserieslabels"}


def sniff(path: Path, head: str) -> bool:
    """A JSON array whose tasks hold ``annotations`` with ``completed_by``, or JSON-MIN rows with ``annotator``;
    the CSV export; or a target storage's files: a folder of them, or one (a task, or an annotation with its
    ``task``: :mod:`accord.importers._labelstudio_storage`)."""
    if path.is_dir():
        return looks_like_storage(path)
    if is_csv_export(path, head):
        return True
    h = head.lstrip().lstrip("\ufeff").lstrip()
    full = '"annotations"' in head and ('"completed_by"' in head or '"from_name"' in head)
    if h.startswith("{"):
        return full or ('"task"' in head and '"result"' in head and '"completed_by"' in head)
    if not h.startswith("["):
        return False
    minimal = '"annotator"' in head and '"annotation_id"' in head
    return full or minimal


@gc_paused
def read(
    path: str | Path,
    *,
    field: str | None = None,
    text_key: str | None = None,
    multiple: bool | None = None,
    kind: str | None = None,
    predictions: bool = False,
    relations: bool = False,
    attributes: bool = False,
) -> Imported:
    """Read a Label Studio JSON, JSON-MIN or CSV export.

    Parameters
    ----------
    path : str or Path
        The export (``.json``).
    field : str, optional
        The control (``from_name``) to read; needed when the export has several
        comparable controls (the error lists them).
    text_key : str, optional
        The key of the task data holding the text the ``labels`` spans point
        into (default: the control's ``to_name`` when it is a data key, else
        ``text``, else the only text value of the data).
    multiple : bool, optional
        Read ``choices`` as sets (True) or single values (False); default: sets
        when some annotation holds several choices.
    kind : {"nominal", "set", "ordinal", "interval", "text"}, optional
        JSON-MIN only (it does not say a control's type): how to read the
        control's values when the guess from their shape is wrong (``"text"``:
        free text, which JSON-MIN writes bare when it is one line).
    predictions : bool, optional
        JSON export only: also read each task's predictions (a model's
        pre-annotations) as the annotations of a coder named by the
        prediction's ``model_version`` (``prediction`` when it has none), to
        compare the model with the annotators (``accord alt-test --models``).
        Off by default: predictions are counted in a note and not read.
    relations : bool, optional
        JSON export only: also read the relations between the regions of the span control
        (:mod:`accord.importers._json_relations`; ``kind="relations"``); otherwise each is counted as dropped.
    attributes : bool, optional
        JSON export only: read the per-region controls' answers as the attributes of the span regions they
        are about (:mod:`accord.importers._labelstudio_regions`), for :func:`accord.attributes.agreement`;
        by default they are named in a note, not read.

    Returns
    -------
    Imported

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> task = {"id": 1, "data": {"text": "ok"}, "annotations": [
    ...     {"completed_by": 7, "was_cancelled": False, "result": [
    ...         {"from_name": "sentiment", "to_name": "text", "type": "choices",
    ...          "value": {"choices": ["Positive"]}}]}]}
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "export.json"
    >>> _ = f.write_text(json.dumps([task]))
    >>> imp = read(f)
    >>> imp.field, imp.kind, imp.report.counts["7"]["annotated"]
    ('sentiment', 'nominal', 1)
    """
    path = Path(path)
    if kind is not None and kind not in ("nominal", "set", "ordinal", "interval", "text"):
        raise AccordError(f"kind must be one of nominal, set, ordinal, interval, text; got {quote(kind)}")
    notes: list[str] = []
    if path.is_dir():  # a target storage: one file per annotation or per task
        records, notes = storage_tasks(path)
    elif path.suffix.lower() in (".csv", ".tsv") and path.is_file():  # the CSV export: JSON-MIN rows as a table
        records = csv_rows(path, read_text(TOOL, path))
    else:
        records = list(iter_json_records(TOOL, path))
        if len(records) == 1 and is_storage_object(records[0][2]):  # one annotation file of a target storage
            records = [(1, records[0][1], single_annotation(path, records[0][2]))]
    if not records:
        raise fail(TOOL, path, "the export holds no tasks")
    first = next((r for _, _, r in records if isinstance(r, dict)), None)
    if first is None:
        raise fail(TOOL, path, "expected an array of task objects", record=1, line=records[0][1])
    for idx, line, rec in records:
        if not isinstance(rec, dict):
            raise fail(TOOL, path, f"expected a task object, found a {type(rec).__name__}", record=idx, line=line)
        if "completions" in rec and "annotations" not in rec:
            raise fail(
                TOOL, path, "this export has 'completions' (Label Studio before 1.0); export the project again from "
                "Label Studio 1.x, which writes 'annotations'", record=rec.get("id", idx), line=line,
            )
        _validate(path, idx, line, rec)
    if any("annotations" in r for _, _, r in records):
        return _read_json(path, records, field=field, text_key=text_key, multiple=multiple, predictions=predictions,
                          relations=relations, attributes=attributes, notes=notes)
    if relations:
        raise fail(TOOL, path, "relations=True reads the relations of a JSON export; a JSON-MIN export holds none")
    if predictions:
        raise fail(TOOL, path, "predictions=True reads the predictions of a JSON export; a JSON-MIN export holds "
                   "none")
    if any("annotator" in r or "annotation_id" in r for _, _, r in records):
        return read_min(path, records, field=field, text_key=text_key, multiple=multiple, kind=kind,
                        form="CSV" if path.suffix.lower() in (".csv", ".tsv") else "JSON-MIN")
    raise fail(
        TOOL, path, "not a Label Studio export: tasks have neither 'annotations' (JSON export) nor 'annotator' "
        "(JSON-MIN export)", record=first.get("id", 1), line=records[0][1],
    )


# ----------------------------------------------------------------------------------------------- validation

#: The JSON types of what a task (JSON export) or a row (JSON-MIN) gives, as Label Studio writes them (null
#: allowed): https://labelstud.io/guide/task_format and https://labelstud.io/guide/export.
_TASK = {"data": "object", "annotations": "list of object", "predictions": "list of object", "drafts": "list"}
_ANNOTATION = {"completed_by": "id|object", "was_cancelled": "boolean", "result": "list"}
_REGION = {"from_name": "text", "to_name": "text", "type": "text", "id": "id", "value": "object"}
_MIN_ROW = {"annotator": "id|object", "annotation_id": "id", "was_cancelled": "boolean"}


def _validate(path: Path, idx: int, line: int, rec: dict[str, Any]) -> None:
    """Check the JSON types of a task (or a JSON-MIN row) against Label Studio's export format, before any is
    read: an error names the file, the line, the task and the field, what was expected and what was found."""
    where: dict[str, Any] = {"record": idx, "line": line}
    if "id" in rec:
        check(TOOL, path, rec["id"], "id", field="id", **where)
        where["record"] = rec["id"]
    for key, expected in _TASK.items():
        check(TOOL, path, rec.get(key), expected, field=key, null=True, **where)
    for key, expected in _MIN_ROW.items():
        check(TOOL, path, rec.get(key), expected, field=key, null=True, **where)
    for kind in ("annotations", "predictions"):
        for a, ann in enumerate(rec.get(kind) or []):
            at = f"{kind}[{a}]"
            for key, expected in _ANNOTATION.items():
                check(TOOL, path, ann.get(key), expected, field=f"{at}.{key}", null=True, **where)
            for r, region in enumerate(ann.get("result") or []):
                here = f"{at}.result[{r}]"
                check(TOOL, path, region, "object", field=here, **where)
                for key, expected in _REGION.items():
                    check(TOOL, path, region.get(key), expected, field=f"{here}.{key}", null=True, **where)
                value = region.get("value") or {}
                for key, expected in VALUE.items():
                    check(TOOL, path, value.get(key), expected, field=f"{here}.value.{key}", null=True, **where)


# ----------------------------------------------------------------------------------------------- JSON export


def _pick_field(path: Path, types: dict[str, Counter[str]], field: str | None,
                per_region: set[str] = frozenset()) -> tuple[str, str]:  # type: ignore[assignment]
    """The control to read and its type (perRegion controls, about one span each, are not candidates)."""
    def describe(names: list[str]) -> str:
        return ", ".join(f"{n} ({'/'.join(sorted(types[n]))}{', per-region' if n in per_region else ''})"
                         for n in names)

    if field is not None:
        if field not in types:
            raise fail(TOOL, path, f"no control named {quote(field)}; the export has "
                       f"{describe(sorted(types)) or 'none'}", field=field)
        kinds = set(types[field])
        if len(kinds) > 1:
            raise fail(TOOL, path, f"control {quote(field)} has regions of several types: {', '.join(sorted(kinds))}",
                       field=field)
        ctype = kinds.pop()
        if field in per_region:
            raise fail(TOOL, path, f"control {quote(field)} is per-region: each answer is about one span, not the "
                       "task, and is not compared", field=field)
        if ctype in NAMED_ONLY:
            return field, ctype
        if ctype not in COMPARED:
            raise fail(TOOL, path, f"control {quote(field)} has type {quote(ctype)}, which accord does not read (it "
                       f"reads {', '.join(COMPARED)})", field=field)
        return field, ctype
    candidates = [n for n in sorted(types) if _comparable(types[n]) and n not in per_region]
    if not candidates:
        raise fail(TOOL, path, "no control accord can compare (choices, taxonomy, rating, number, labels); the "
                   f"export has {describe(sorted(types)) or 'no annotated region'}")
    if len(candidates) > 1:
        raise AmbiguousField(
            fail(TOOL, path, words(f"the export has {plural(len(candidates), 'control')}: {describe(candidates)}; "
                                   "pass ", opt("field"), " to choose one")),
            {n: COMPARED[next(iter(types[n]))] for n in candidates},
        )
    name = candidates[0]
    return name, next(iter(types[name]))


def _comparable(c: Counter[str]) -> bool:
    return len(c) == 1 and next(iter(c)) in COMPARED


def _text_of(path: Path, data: dict[str, Any], text_key: str | None, to_name: str | None, task: Any, line: int) -> str:
    if text_key is not None:
        if not isinstance(data.get(text_key), str):
            raise fail(TOOL, path, f"the task data has no text under {quote(text_key)} (keys: "
                       f"{', '.join(map(str, data))})",
                       record=task, line=line)
        return data[text_key]
    for key in (to_name, "text"):
        if key is not None and isinstance(data.get(key), str):
            return data[key]
    texts = [k for k, v in data.items() if isinstance(v, str)]
    if len(texts) == 1:
        return data[texts[0]]
    raise fail(TOOL, path, words("cannot tell which task data key holds the text the spans point into (keys: "
                                 f"{', '.join(map(str, data))}); pass ", opt("text_key")), record=task, line=line)


def _read_json(path: Path, records: list[tuple[int, Any, Any]], *, field: str | None, text_key: str | None,
               multiple: bool | None, predictions: bool = False, relations: bool = False,
               attributes: bool = False, notes: list[str] | None = None) -> Imported:
    from accord.data._spans import Span

    types: dict[str, Counter[str]] = defaultdict(Counter)
    n_pred = n_drafts = 0
    emails: dict[str, str] = {}  # user id -> email, where some annotation gives completed_by as an object
    n_regions: Counter[str] = Counter()
    n_per_region: Counter[str] = Counter()  # regions that answer about one span (perRegion), sharing its id
    bucketed: set[str] = set()  # Ranker controls with buckets
    for idx, line, rec in records:
        anns = rec.get("annotations") or []
        if not isinstance(anns, list):
            raise fail(TOOL, path, "'annotations' must be a list", record=rec.get("id", idx), line=line)
        n_pred += len(rec.get("predictions") or [])
        n_drafts += len(rec.get("drafts") or []) if isinstance(rec.get("drafts"), list) else 0
        for ann in anns:
            if not isinstance(ann, dict):
                raise fail(TOOL, path, "each annotation must be an object", record=rec.get("id", idx), line=line)
            who = ann.get("completed_by")
            if isinstance(who, dict) and who.get("id") is not None and who.get("email"):
                emails[str(canonical_id(who["id"]))] = str(who["email"])
            regions = [r for r in ann.get("result") or [] if isinstance(r, dict) and "from_name" in r]
            span_ids = {r.get("id") for r in regions if r.get("type") in _SPAN_TYPES and r.get("id")}
            for r in regions:
                types[str(r["from_name"])][str(r.get("type"))] += 1
                if r.get("type") == "ranker" and _bucketed(r):
                    bucketed.add(str(r["from_name"]))
                if r.get("type") not in _SPAN_TYPES:
                    n_regions[str(r["from_name"])] += 1
                    n_per_region[str(r["from_name"])] += r.get("id") in span_ids
    per_region = {n for n, k in n_per_region.items() if k and k == n_regions[n]}
    name, ctype = _pick_field(path, types, field, per_region)
    vkind = COMPARED.get(ctype) or NAMED_ONLY[ctype]
    if relations and vkind != "spans":
        raise fail(TOOL, path, f"relations join spans; control {quote(name)} is {ctype}, not a labels control (pass "
                   "the labels control as field)", field=name)
    if ctype == "choices":
        if multiple is None:
            multiple = any(
                isinstance(r.get("value"), dict) and len(r["value"].get("choices") or []) > 1
                for _, _, rec in records for ann in rec.get("annotations") or [] for r in ann.get("result") or []
                if isinstance(r, dict) and r.get("from_name") == name
            )
        vkind = "set" if multiple else "nominal"
    buckets = ctype == "ranker" and name in bucketed
    if buckets:
        ctype, vkind = "ranker-buckets", "set"
    cells = Cells(TOOL, str(path))
    cells.notes.extend(notes or ())
    if buckets:
        cells.notes.append(BUCKETS_NOTE.format(name=quote(name)))
    others = sorted(n for n in types if n != name and _comparable(types[n]) and n not in per_region)
    if others:
        cells.notes.append(words(f"read control {quote(name)} ({_shown(ctype)}); not read: {', '.join(others)} (pass ",
                                 opt("field"), " to choose)"))
    if per_region:
        # read as attributes: the per-region choices, rating, number and taxonomy (a textarea is free text)
        as_attrs = {n for n in per_region if set(types[n]) <= ATTRIBUTE_TYPES} if attributes and vkind == "spans" \
            else set()
        if as_attrs:
            cells.notes.append(f"per-region controls (answers about one span) read as the spans' attributes: "
                               f"{', '.join(sorted(as_attrs))}")
        if per_region - as_attrs:
            cells.notes.append(f"per-region controls (answers about one span) not compared: "
                               f"{', '.join(sorted(per_region - as_attrs))}")
    if n_pred and predictions:
        versions = sorted({_prediction_coder(p) for _, _, rec in records for p in rec.get("predictions") or []
                           if isinstance(p, dict)})
        cells.notes.append(f"{plural(n_pred, 'model prediction')} read as the annotations of "
                           f"{plural(len(versions), 'coder')} named by their model_version: "
                           f"{', '.join(map(quote, versions))}")
    elif n_pred:
        cells.notes.append(words(f"{plural(n_pred, 'model prediction')} not read (not annotations; ",
                                 opt("predictions", True), " reads them as coders)"))
    if n_drafts:
        cells.notes.append(f"{plural(n_drafts, 'draft')} (work not submitted) not read (not annotations)")
    if ctype == "choices" and multiple:
        cells.notes.append(f"choices of {quote(name)} read as sets (some annotation holds several choices)")
    spans: list[Any] = []
    texts: dict[str, str] = {}
    fallbacks = 0
    texts_check = TextCheck()
    tidy = cells.tidy
    repeats: list[str] = []  # task/annotator of each region repeating another of its annotation
    rels: list[Any] = []
    for idx, line, rec in records:
        if "id" not in rec:
            raise fail(TOOL, path, "the task has no 'id'", record=idx, line=line)
        task = tidy.id(rec["id"])
        doc = str(task)
        cells.item(task if vkind != "spans" else doc)
        data = rec.get("data") or {}
        index = None
        entries = list(rec.get("annotations") or [])
        if predictions:  # a model's pre-annotations, each read as the annotation of a coder named for the model
            entries += [{**p, "completed_by": _prediction_coder(p)} for p in rec.get("predictions") or []
                        if isinstance(p, dict)]
        for ann in entries:
            coder = coder_name(ann.get("completed_by"))
            if coder is None:
                raise fail(TOOL, path, "an annotation has no 'completed_by'", record=task, line=line)
            coder = tidy.id(coder)
            coder = tidy.id(emails[coder]) if coder in emails else coder  # a user given by id here, by object there
            unit: Hashable = doc if vkind == "spans" else task
            results = [r for r in ann.get("result") or [] if isinstance(r, dict)]
            for r in results:
                other, rtype = r.get("from_name") != name, r.get("type")
                if rtype == "relation":
                    if not relations:
                        cells.drop(task, "relation between regions (not compared; relations=True reads it)",
                                   line=line, coder=coder)
                elif other and (rtype in NAMED_ONLY or rtype not in COMPARED):
                    cells.drop(task, _set_aside(rtype, r.get("from_name"), per_region, bucketed), line=line,
                               coder=coder)
            if cells.has(unit, coder):
                cells.drop(task, "second annotation of the same annotator on the task (the first is kept)",
                           line=line, coder=coder)
                continue
            if ann.get("was_cancelled"):
                cells.cell(unit, coder, "skipped", line=line)
                continue
            mine = [r for r in results if r.get("from_name") == name]
            if vkind != "spans":
                # a perRegion control answers about one span region and shares that region's id: not a task value
                span_ids = {r.get("id") for r in results if r.get("type") in _SPAN_TYPES and r.get("id")}
                for _ in (r for r in mine if r.get("id") in span_ids):
                    cells.drop(task, f"per-region {ctype} {quote(name)} (about one span, not the task) is not compared",
                               line=line, coder=coder)
                mine = [r for r in mine if r.get("id") not in span_ids]
            kw = {"record": task, "line": line, "field": name, "coder": coder}
            if vkind == "spans":
                found = []
                regions: dict[Any, tuple[int, int, str]] = {}
                keys: set[tuple[int, int, str]] = set()
                extra = region_attributes(results, {r.get("id") for r in mine if r.get("id")}, tidy.label) \
                    if attributes else {}
                for r in mine:
                    v = r.get("value") or {}
                    text = _text_of(path, data, text_key, r.get("to_name"), task, line)
                    texts[doc] = text
                    if index is None or index.text != text:
                        index = Utf16Index(text)
                    s, e, labels, fb = region_span(path, text, v, index=index, check=texts_check, label=tidy.label,
                                                   kw=kw)
                    fallbacks += fb
                    for lab in labels:
                        if (s, e, lab) in keys:
                            repeats.append(f"{task}/{coder}")
                            continue
                        keys.add((s, e, lab))
                        found.append((s, e, lab, v.get("text"), extra.get(r.get("id"), {})))
                    regions[r.get("id")] = (s, e, labels[0])
                if not found and doc not in texts and isinstance(data, dict):
                    try:
                        texts[doc] = _text_of(path, data, text_key, None, task, line)
                    except AccordError:
                        pass
                for s, e, lab, t, attrs in found:
                    spans.append(Span(doc, s, e, lab, coder, text=t, attributes=attrs))
                if relations:
                    rels += labelstudio_relations(path, results, regions, doc, coder, cells, task=task, line=line)
                cells.cell(unit, coder, "annotated" if found else "empty", line=line)
                continue
            if not mine:
                cells.cell(unit, coder, "empty", frozenset() if vkind == "set" else None, line=line)
                continue
            value = _value(path, ctype, mine, bool(multiple), kw, tidy)
            empty = value == frozenset() or value is None
            cells.cell(unit, coder, "empty" if empty else "annotated", value, line=line)
    span_notes(cells, fallbacks, texts_check, repeats)
    if relations:
        from accord.data._relations import RelationAnnotations

        imp = spans_result(path, cells, name, spans, texts)
        return dataclasses.replace(imp, kind="relations", relations=RelationAnnotations.from_relations(
            rels, spans=imp.spans))
    if vkind == "spans":
        return spans_result(path, cells, name, spans, texts)
    return cells.imported(name, vkind)  # type: ignore[arg-type]


def _shown(ctype: str) -> str:
    """A control type as messages name it."""
    return "ranker with buckets" if ctype == "ranker-buckets" else ctype


def _bucketed(region: dict[str, Any]) -> bool:
    """Whether a Ranker's region sorts items into buckets: its ``value.ranker`` maps names other than the List it
    ranks (``to_name``) to item ids, or holds ``_``, the items left in the list (https://labelstud.io/tags/ranker)."""
    ranked = region["value"].get("ranker") if isinstance(region.get("value"), dict) else None
    return isinstance(ranked, dict) and ("_" in ranked or any(k != region.get("to_name") for k in ranked))


def _set_aside(rtype: Any, control: Any, per_region: set[str], bucketed: set[str]) -> str:
    """Why a region of a control other than the one read is set aside: the words name the control first
    (``textarea 'comment': ...``), so that :func:`accord.importers.layers` can read it as a field of its own."""
    if control in per_region:
        return f"per-region {rtype} {quote(control)}: about one span, not the task: not compared"
    if rtype in NAMED_ONLY:
        holds = "items sorted into buckets" if control in bucketed else _NAMED_AS[rtype]
        return f"{rtype} {quote(control)}: {holds}, read only when named as the field"
    return f"region of type {quote(rtype)} ({quote(control)}) is not read"


#: What a control read only when named holds, as the reason it is set aside says it.
_NAMED_AS = {"textarea": "free text", "ranker": "a ranking", "pairwise": "a preference"}


def _prediction_coder(pred: dict[str, Any]) -> str:
    """The coder a prediction is read as: its ``model_version``, else ``prediction``."""
    version = pred.get("model_version")
    return str(version) if version not in (None, "") else "prediction"


def _value(path: Path, ctype: str, regions: list[dict[str, Any]], multiple: bool, kw: dict[str, Any],
           tidy: Tidy) -> Any:
    if ctype in NAMED_ONLY or ctype == "ranker-buckets":
        from accord.importers._answers import label_studio_value

        return label_studio_value(path, ctype, regions, kw)
    vals = [r.get("value") or {} for r in regions]
    if ctype == "choices":
        chosen = [str(tidy.label(c)) for v in vals for c in (v.get("choices") or [])]
        if multiple:
            return frozenset(chosen)
        if len(set(chosen)) > 1:
            raise fail(TOOL, path, words(f"several choices {chosen} for a single-choice control; pass ",
                                         opt("multiple", True), " to read sets"), **kw)
        return chosen[0] if chosen else None
    if ctype == "taxonomy":
        return frozenset(tuple(str(tidy.label(x)) for x in p) if isinstance(p, list) else (str(tidy.label(p)),)
                         for v in vals for p in (v.get("taxonomy") or []))
    key = ctype
    nums = [v.get(key) for v in vals if v.get(key) is not None]
    if len(set(nums)) > 1:
        raise fail(TOOL, path, f"several {ctype} values {nums} in one annotation", **kw)
    if not nums:
        return None
    x = nums[0]
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise fail(TOOL, path, f"a {ctype} value must be a number; got {quote(x)}", **kw)
    return x
