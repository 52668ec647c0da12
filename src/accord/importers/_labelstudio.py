"""Label Studio: the JSON and JSON-MIN exports of a project.

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
out, so they count as unassigned there.

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
    read only when named (``field=``; JSON export): a textarea's lines
    (``value.text``) joined as one text, a Ranker's item ids
    (``value.ranker``, without buckets) as a ranking, a Pairwise choice
    (``value.selected``: left, right) as ``first`` or ``second``
    (:mod:`accord.importers._answers`); otherwise each region is counted as a
    dropped record.

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
    place,
    quote,
    reanchor_span,
)
from accord.importers._json_relations import labelstudio_relations
from accord.importers._labelstudio_regions import region_attributes
from accord.importers._offsets import Utf16Index

__all__ = ["read", "sniff"]

TOOL = "label-studio"
COMPARED = {"choices": "nominal", "taxonomy": "set", "rating": "ordinal", "number": "interval", "labels": "spans"}
#: Controls read only when named (``field=``), never guessed: free text, a ranking (Ranker), a pairwise preference
#: (``first`` or ``second``) -> the kind of their values (:mod:`accord.importers._answers` reads them).
NAMED_ONLY = {"textarea": "text", "ranker": "ranking", "pairwise": "nominal"}
NOT_COMPARED = {"textarea"}
_SPAN_TYPES = {"labels", "hypertextlabels", "paragraphlabels", "rectanglelabels", "polygonlabels", "ellipselabels",
               "keypointlabels", "brushlabels", "timeserieslabels"}
#: A JSON-MIN control's shape (:func:`_min_kind`) -> the kind of its values.
_MIN_KINDS = {"choices": "nominal", "choices-multi": "set", "taxonomy": "set", "rating": "ordinal",
              "number": "interval", "labels": "spans", "textarea": "text"}
_MIN_META = {
    "id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "drafts", "predictions",
    "agreement", "total_annotations", "cancelled_annotations", "total_predictions", "annotations_ids",
    "annotations_results", "file_upload", "storage_filename", "inner_id", "project", "updated_by", "comment_count",
    "unresolved_comment_count", "last_comment_updated_at", "meta",
}


def sniff(path: Path, head: str) -> bool:
    """A JSON array whose tasks hold ``annotations`` with ``completed_by``, or JSON-MIN rows with ``annotator``."""
    h = head.lstrip()
    if not h.startswith("["):
        return False
    full = '"annotations"' in head and ('"completed_by"' in head or '"from_name"' in head)
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
    """Read a Label Studio JSON or JSON-MIN export.

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
    records = list(iter_json_records(TOOL, path))
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
                          relations=relations, attributes=attributes)
    if relations:
        raise fail(TOOL, path, "relations=True reads the relations of a JSON export; a JSON-MIN export holds none")
    if predictions:
        raise fail(TOOL, path, "predictions=True reads the predictions of a JSON export; a JSON-MIN export holds "
                   "none")
    if any("annotator" in r or "annotation_id" in r for _, _, r in records):
        return _read_min(path, records, field=field, text_key=text_key, multiple=multiple, kind=kind)
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
#: A region's value, per key (``choices``, ``labels``...: https://labelstud.io/tags/).
_VALUE = {"choices": "list of label", "labels": "list of label", "taxonomy": "list of list|label",
          "rating": "number", "number": "number", "start": "integer", "end": "integer"}
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
                for key, expected in _VALUE.items():
                    check(TOOL, path, value.get(key), expected, field=f"{here}.value.{key}", null=True, **where)


# ----------------------------------------------------------------------------------------------- JSON export


def _pick_field(path: Path, types: dict[str, Counter[str]], field: str | None,
                per_region: set[str] = frozenset()) -> tuple[str, str]:  # type: ignore[assignment]
    """The control to read and its type (perRegion controls, about one span each, are not candidates)."""
    def describe(names: list[str]) -> str:
        return ", ".join(f"{n} ({'/'.join(sorted(types[n]))})" for n in names)

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


def _read_json(path: Path, records: list[tuple[int, int, Any]], *, field: str | None, text_key: str | None,
               multiple: bool | None, predictions: bool = False, relations: bool = False,
               attributes: bool = False) -> Imported:
    from accord.data._spans import Span

    types: dict[str, Counter[str]] = defaultdict(Counter)
    n_pred = n_drafts = 0
    emails: dict[str, str] = {}  # user id -> email, where some annotation gives completed_by as an object
    n_regions: Counter[str] = Counter()
    n_per_region: Counter[str] = Counter()  # regions that answer about one span (perRegion), sharing its id
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
    cells = Cells(TOOL, str(path))
    others = sorted(n for n in types if n != name and _comparable(types[n]) and n not in per_region)
    if others:
        cells.notes.append(words(f"read control {quote(name)} ({ctype}); not read: {', '.join(others)} (pass ",
                                 opt("field"), " to choose)"))
    if per_region:
        names = ", ".join(sorted(per_region))
        read_as = "read as the spans' attributes" if attributes and vkind == "spans" else "not compared"
        cells.notes.append(f"per-region controls (answers about one span) {read_as}: {names}")
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
                if r.get("type") in NOT_COMPARED and r.get("from_name") != name:
                    cells.drop(task, f"{r.get('type')} {quote(r.get('from_name'))}: free text is counted, not compared",
                               line=line, coder=coder)
                elif r.get("type") == "relation":
                    if not relations:
                        cells.drop(task, "relation between regions (not compared; relations=True reads it)",
                                   line=line, coder=coder)
                elif r.get("type") not in COMPARED and r.get("from_name") != name:
                    cells.drop(task, f"region of type {quote(r.get('type'))} ({quote(r.get('from_name'))}) is not read",
                               line=line, coder=coder)
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
                    s, e, fb = reanchor_span(TOOL, path, text, v.get("start"), v.get("end"), covered=v.get("text"),
                                             utf16=True, index=index, check=texts_check, **kw)
                    fallbacks += fb
                    labels = [str(tidy.label(x)) for x in v.get("labels") or []]
                    if not labels:
                        raise fail(TOOL, path, "a labels region has no label", **kw)
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
    _span_notes(cells, fallbacks, texts_check, repeats)
    if relations:
        from accord.data._relations import RelationAnnotations

        imp = _spans_result(path, cells, name, spans, texts)
        return dataclasses.replace(imp, kind="relations", relations=RelationAnnotations.from_relations(
            rels, spans=imp.spans))
    if vkind == "spans":
        return _spans_result(path, cells, name, spans, texts)
    return cells.imported(name, vkind)  # type: ignore[arg-type]


def _prediction_coder(pred: dict[str, Any]) -> str:
    """The coder a prediction is read as: its ``model_version``, else ``prediction``."""
    version = pred.get("model_version")
    return str(version) if version not in (None, "") else "prediction"


def _span_notes(cells: Cells, fallbacks: int, check: TextCheck, repeats: list[str]) -> None:
    """The notes on what reading the spans accepted: code-point offsets, whitespace-only text differences,
    regions repeating another of the same annotation."""
    if fallbacks:
        cells.notes.append(f"{plural(fallbacks, 'span')} matched their text only as code points (not UTF-16) "
                           "and were read so")
    note = check.note()
    if note:
        cells.notes.append(note)
    if repeats:
        where = ", ".join(dict.fromkeys(repeats[:5])) + (f" and {len(repeats) - 5} more" if len(repeats) > 5 else "")
        cells.notes.append(f"{plural(len(repeats), 'region repeats', 'regions repeat')} another region of the "
                           "same annotation (same offsets, "
                           f"same label), read once (task/annotator: {where})")


def _value(path: Path, ctype: str, regions: list[dict[str, Any]], multiple: bool, kw: dict[str, Any],
           tidy: Tidy) -> Any:
    if ctype in NAMED_ONLY:
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


def _spans_result(path: Path, cells: Cells, name: str, spans: list[Any], texts: dict[str, str]) -> Imported:
    from accord.data._spans import SpanAnnotations

    seen = [(str(i), c) for (i, c), s in cells.cells.items() if s in ("annotated", "empty")]
    sa = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, source=str(path))
    return Imported(tool=cells.tool, field=name, kind="spans", annotations=None, spans=sa, report=cells.report())


# ----------------------------------------------------------------------------------------------- JSON-MIN export


def _regions(v: Any) -> list[dict[str, Any]] | None:
    """A JSON-MIN value as its list of regions (``{"choices": [...]}``, ``{"rating": 4}``...), or None."""
    if isinstance(v, dict):
        return [v]
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        return v
    return None


def _min_kind(values: list[Any]) -> str:
    """The control type a JSON-MIN key's values look like.

    Label Studio's JSON-MIN writer keeps a region's value without its type: a
    single choice (or a one-line text) becomes the bare string, several choices
    ``{"choices": [...]}``, a rating ``[{"rating": 4}]``, a number
    ``[{"number": 2.5}]``, a taxonomy ``[{"taxonomy": [[...]]}]``, spans a list
    of ``{"start", "end", "text", "labels"}``.
    """
    shapes = set()
    for v in values:
        regions = _regions(v)
        if regions is not None:
            keys = set().union(*(r.keys() for r in regions))
            if {"start", "end"} <= keys:
                shapes.add("labels")
            elif "choices" in keys:
                shapes.add("choices-multi")
            elif "taxonomy" in keys:
                shapes.add("taxonomy")
            elif "rating" in keys:
                shapes.add("rating")
            elif "number" in keys:
                shapes.add("number")
            elif "text" in keys:
                shapes.add("textarea")
            else:
                shapes.add("other")
        elif isinstance(v, list) and not v:
            continue
        elif isinstance(v, bool):
            shapes.add("other")
        elif isinstance(v, int):
            shapes.add("rating")
        elif isinstance(v, float):
            shapes.add("number")
        elif isinstance(v, str):
            shapes.add("choices")
        else:
            shapes.add("other")
    if shapes <= {"rating", "number"} and "number" in shapes:
        return "number"
    if shapes <= {"choices", "choices-multi"} and shapes:
        return "choices-multi" if "choices-multi" in shapes else "choices"
    if not shapes:
        return "other"
    return shapes.pop() if len(shapes) == 1 else "mixed"


def _min_key_order(records: list[tuple[int, int, Any]]) -> set[str] | None:
    """The control keys when every annotated row has its keys in the JSON-MIN writer's order, else None.

    The writer copies the task data, sets ``id``, adds the controls, then ``annotator`` and the annotation's
    metadata; the controls are the keys between ``id`` and ``annotator``.  A row where a key known as a
    control elsewhere comes before ``id`` (a file edited by hand, or a writer that orders keys otherwise)
    makes the order uninformative, as does a key after ``annotator`` other than the annotation's metadata.
    """
    controls: set[str] = set()
    before: set[str] = set()
    seen = False
    for _, _, rec in records:
        if rec.get("annotator") is None:
            continue
        keys = list(rec)
        if "id" not in keys or "annotator" not in keys or keys.index("id") > keys.index("annotator"):
            return None
        i, j = keys.index("id"), keys.index("annotator")
        if any(k not in _MIN_META for k in keys[j + 1 :]):
            return None  # keys after "annotator" other than the annotation's metadata: not the writer's order
        before.update(keys[:i])
        controls.update(k for k in keys[i + 1 : j] if k not in _MIN_META)
        seen = True
    if not seen or controls & before:
        return None
    return controls


def _read_min(path: Path, records: list[tuple[int, int, Any]], *, field: str | None, text_key: str | None,
              multiple: bool | None, kind: str | None) -> Imported:
    by_task: dict[Any, list[tuple[int, dict[str, Any]]]] = defaultdict(list)
    keys: set[str] = set()
    tidy = Tidy()
    for idx, line, rec in records:
        if "id" not in rec:
            raise fail(TOOL, path, "the row has no task 'id'", record=idx, line=line)
        by_task[tidy.id(rec["id"])].append((line, rec))
        if rec.get("annotator") is not None:
            keys.update(k for k in rec if k not in _MIN_META)
    # Label Studio's JSON-MIN writer (label_studio_sdk.converter: convert_to_json_min) starts each row with the
    # task data, then sets "id", then one key per control, then "annotator": where every annotated row is in that
    # order, a key before "id" is task data and a key between "id" and "annotator" a control, whatever its values
    ordered = _min_key_order(records)
    # else a key is task data when it is text, present in every annotated row of its task and equal across them
    controls: dict[str, str] = {}
    data_keys: list[str] = []
    for k in sorted(keys):
        if ordered is not None:
            if k in ordered:
                controls[k] = _min_kind([r[k] for rows in by_task.values() for _, r in rows
                                         if r.get("annotator") is not None and k in r])
            else:
                data_keys.append(k)
            continue
        vals: list[Any] = []
        varies = False
        for rows in by_task.values():
            annotated = [r for _, r in rows if r.get("annotator") is not None]
            present = [r[k] for r in annotated if k in r]
            vals.extend(present)
            if present and (len(present) != len(annotated) or any(p != present[0] for p in present)):
                varies = True
        if not varies and all(isinstance(v, str) for v in vals):
            data_keys.append(k)
        else:
            controls[k] = _min_kind(vals)
    if field is not None:
        if field not in keys:
            raise fail(TOOL, path, f"no control named {quote(field)}; the rows have keys {', '.join(sorted(keys))}",
                       field=field)
        name = field
        if name not in controls:
            vals = [r[name] for rows in by_task.values() for _, r in rows if name in r]
            controls[name] = _min_kind(vals)
            data_keys.remove(name)
    else:
        candidates = [k for k, t in controls.items() if t not in ("other", "mixed", "textarea")]
        if not candidates:
            raise fail(TOOL, path, words("no control to compare in this JSON-MIN export (keys that are the same for "
                                         "every annotator of a task are read as task data: "
                                         f"{', '.join(data_keys) or 'none'}); pass ", opt("field")))
        if len(candidates) > 1:
            raise AmbiguousField(
                fail(TOOL, path, words(f"the export has {plural(len(candidates), 'control')}: "
                                       f"{', '.join(f'{k} ({controls[k]})' for k in candidates)}; pass ", opt("field"),
                                       " to choose one")),
                {k: _MIN_KINDS[controls[k]] for k in candidates},
            )
        name = candidates[0]
    ctype = controls[name]
    if ctype in ("other", "mixed"):
        raise fail(TOOL, path, f"cannot read the values of {quote(name)} as choices, taxonomy, rating, number or "
                   "labels",
                   field=name)
    vkind = _MIN_KINDS[ctype]
    if multiple is not None and ctype.startswith("choices"):
        vkind = "set" if multiple else "nominal"
    if kind is not None and vkind != "spans":
        vkind = kind
    cells = Cells(TOOL, str(path), tidy=tidy)
    cells.notes.append(words(f"JSON-MIN export: control {quote(name)} read as {vkind} (JSON-MIN does not give control "
                             "types; pass ", opt("kind"), " or ", opt("multiple"), " to change)"))
    cells.notes.append("JSON-MIN leaves cancelled annotations out: they count as unassigned here (the JSON export "
                       "tells them apart as skipped)")
    others = sorted(k for k, t in controls.items() if k != name and t not in ("other", "mixed", "textarea"))
    if others:
        cells.notes.append(words(f"not read: {', '.join(others)} (pass ", opt("field"), " to choose)"))
    spans: list[Any] = []
    texts: dict[str, str] = {}
    fallbacks = 0
    texts_check = TextCheck()
    repeats: list[str] = []
    from accord.data._spans import Span

    for task, rows in by_task.items():
        doc = str(task)
        unit: Hashable = doc if vkind == "spans" else task
        cells.item(unit)
        for line, rec in rows:
            coder = coder_name(rec.get("annotator"))
            if coder is None:
                continue  # a task nobody annotated
            coder = tidy.id(coder)
            if cells.has(unit, coder):
                cells.drop(task, "second annotation of the same annotator on the task (the first is kept)",
                           line=line, coder=coder)
                continue
            if rec.get("was_cancelled"):
                cells.cell(unit, coder, "skipped", line=line)
                continue
            kw = {"record": task, "line": line, "field": name, "coder": coder}
            for k, t in controls.items():
                if t == "textarea" and rec.get(k) is not None and k != name:
                    cells.drop(task, f"textarea {quote(k)}: free text is counted, not compared", line=line, coder=coder)
            v = rec.get(name)
            if vkind == "spans":
                text = _min_text(path, rec, data_keys, text_key, task, line)
                texts[doc] = text
                index = Utf16Index(text)
                found: set[tuple[int, int, str]] = set()
                check(TOOL, path, v, "list of object", field=name, null=True, **place(kw))
                for r_i, region in enumerate(v or []):
                    check(TOOL, path, region.get("labels"), "list of label", field=f"{name}[{r_i}].labels",
                          null=True, **place(kw))
                    s, e, fb = reanchor_span(TOOL, path, text, region.get("start"), region.get("end"),
                                             covered=region.get("text"), utf16=True, index=index,
                                             check=texts_check, **kw)
                    fallbacks += fb
                    labels = [str(tidy.label(x)) for x in region.get("labels") or []]
                    if not labels:
                        raise fail(TOOL, path, "a labels region has no label", **kw)
                    for lab in labels:
                        if (s, e, lab) in found:
                            repeats.append(f"{task}/{coder}")
                            continue
                        found.add((s, e, lab))
                        spans.append(Span(doc, s, e, lab, coder, text=region.get("text")))
                cells.cell(unit, coder, "annotated" if found else "empty", line=line)
                continue
            value = _min_value(path, v, ctype, vkind, kw, tidy)
            if value is None or value == frozenset():
                cells.cell(unit, coder, "empty", frozenset() if vkind == "set" else None, line=line)
            else:
                cells.cell(unit, coder, "annotated", value, line=line)
    _span_notes(cells, fallbacks, texts_check, repeats)
    if vkind == "spans":
        return _spans_result(path, cells, name, spans, texts)
    return cells.imported(name, vkind)  # type: ignore[arg-type]


def _min_text(path: Path, rec: dict[str, Any], data_keys: list[str], text_key: str | None, task: Any,
              line: int) -> str:
    if text_key is not None:
        if not isinstance(rec.get(text_key), str):
            raise fail(TOOL, path, f"the row has no text under {quote(text_key)}", record=task, line=line)
        return rec[text_key]
    if isinstance(rec.get("text"), str):
        return rec["text"]
    present = [k for k in data_keys if isinstance(rec.get(k), str)]
    if len(present) == 1:
        return rec[present[0]]
    raise fail(TOOL, path, words(f"cannot tell which key holds the text the spans point into ({', '.join(present)}); "
                                 "pass ", opt("text_key")), record=task, line=line)


def _min_value(path: Path, v: Any, ctype: str, vkind: str, kw: dict[str, Any], tidy: Tidy) -> Any:
    if v is None:
        return None
    if vkind == "text":
        from accord.importers._answers import label_studio_min_text

        return label_studio_min_text(path, v, kw)
    regions = _regions(v)
    for i, r in enumerate(regions or []):
        for key, expected in _VALUE.items():
            check(TOOL, path, r.get(key), expected, field=f"{kw['field']}[{i}].{key}", null=True, **place(kw))
    if ctype.startswith("choices"):
        chosen = ([tidy.label(v)] if isinstance(v, str) else
                  [str(tidy.label(c)) for r in regions or [] for c in (r.get("choices") or [])])
        if regions is None and not isinstance(v, str):
            raise fail(TOOL, path, f"expected a choice or {{'choices': [...]}}; got {quote(v)}", **kw)
        if vkind == "set":
            return frozenset(chosen)
        if len(set(chosen)) > 1:
            raise fail(TOOL, path, words(f"several choices {chosen} for a single-choice control; pass ",
                                         opt("multiple", True)), **kw)
        return chosen[0] if chosen else None
    if ctype == "taxonomy":
        if regions is None:
            raise fail(TOOL, path, f"expected [{{'taxonomy': [[...]]}}]; got {quote(v)}", **kw)
        return frozenset(tuple(str(tidy.label(x)) for x in p) if isinstance(p, list) else (str(tidy.label(p)),)
                         for r in regions for p in (r.get("taxonomy") or []))
    nums = [r.get(ctype) for r in regions] if regions is not None else [v]
    nums = [x for x in nums if x is not None]
    if len(set(nums)) > 1:
        raise fail(TOOL, path, f"several {ctype} values {nums} in one annotation", **kw)
    if not nums:
        return None
    x = nums[0]
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise fail(TOOL, path, f"a {ctype} value must be a number; got {quote(x)}", **kw)
    if vkind == "set":
        return frozenset([x])
    return x
