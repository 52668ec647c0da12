"""Label Studio's JSON-MIN export: one row per annotation, the control types read from the values' shape.

The writer (``convert_to_json_min`` of Label Studio's converter, https://labelstud.io/guide/export#JSON-MIN)
copies the task data, sets ``id``, adds one key per control holding the regions' values without their type (a
single choice or a one-line text bare, several choices ``{"choices": [...]}``, ``[{"rating": 4}]``...), then
``annotator`` and the annotation's metadata.  Cancelled annotations are left out.

The CSV export (``convert_to_csv``) writes the same rows as a table: one column per key, sorted by name,
a value that is not text as its JSON (``[{"rating": 4}]``; a single choice or a one-line text bare), a
missing key as an empty cell; :func:`csv_rows` makes them the JSON-MIN rows again.

Not public: :func:`accord.importers._labelstudio.read` reads this export.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from accord._shared.errors import plural, words
from accord.importers import AmbiguousField, Imported
from accord.importers._common import (
    Cells,
    TextCheck,
    Tidy,
    check,
    coder_name,
    fail,
    opt,
    place,
    quote,
)
from accord.importers._labelstudio_common import (
    BUCKETS_NOTE,
    TOOL,
    VALUE,
    region_span,
    span_notes,
    spans_result,
)
from accord.importers._offsets import Utf16Index

__all__ = ["csv_rows", "is_csv_export", "read_min"]

#: A JSON-MIN control's shape (:func:`_min_kind`) -> the kind of its values.
_MIN_KINDS = {"choices": "nominal", "choices-multi": "set", "taxonomy": "set", "rating": "ordinal",
              "number": "interval", "labels": "spans", "textarea": "text", "ranker": "ranking", "ranker-buckets": "set",
              "pairwise": "nominal"}
#: Controls read only when named (``field=``), as in the JSON export -> what they hold, as a reason says it.
_NAMED_ONLY = {"textarea": "free text", "ranker": "a ranking", "ranker-buckets": "items sorted into buckets",
               "pairwise": "a preference"}
_MIN_META = {
    "id", "annotator", "annotation_id", "created_at", "updated_at", "lead_time", "drafts", "predictions",
    "agreement", "total_annotations", "cancelled_annotations", "total_predictions", "annotations_ids",
    "annotations_results", "file_upload", "storage_filename", "inner_id", "project", "updated_by", "comment_count",
    "unresolved_comment_count", "last_comment_updated_at", "meta",
}



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
    of ``{"start", "end", "text", "labels"}``, a Ranker ``[{"ranker": {list: [ids]}}]`` (with buckets, one
    key per bucket and ``_`` for the items left in the list), a Pairwise choice ``[{"selected": "left"}]``,
    a textarea of several lines ``{"text": [...]}`` (one line bare).
    """
    shapes = set()
    rankers: set[str] = set()  # the keys of the Ranker values: one List's name, or buckets
    for v in values:
        regions = _regions(v)
        if regions is not None:
            keys = set().union(*(r.keys() for r in regions))
            if "ranker" in keys:
                shapes.add("ranker")
                for r in regions:
                    ranked = r.get("ranker")
                    rankers.update(ranked if isinstance(ranked, dict) else ["?"])
            elif "selected" in keys:
                shapes.add("pairwise")
            elif {"start", "end"} <= keys:
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
    if shapes == {"ranker"}:  # one List's name throughout is a ranking; several keys, or "_", are buckets
        return "ranker" if len(rankers) == 1 and "_" not in rankers else "ranker-buckets"
    if shapes == {"choices", "textarea"}:  # a textarea writes one line bare and several as {"text": [...]}
        return "textarea"
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


def read_min(path: Path, records: list[tuple[int, int, Any]], *, field: str | None, text_key: str | None,
             multiple: bool | None, kind: str | None, form: str = "JSON-MIN") -> Imported:
    """The rows of a JSON-MIN export (*form* ``CSV``: of the CSV export, :func:`csv_rows`) read as *field*."""
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
        candidates = [k for k, t in controls.items() if t not in ("other", "mixed", *_NAMED_ONLY)]
        if not candidates:
            raise fail(TOOL, path, words(f"no control to compare in this {form} export (keys that are the same for "
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
        raise fail(TOOL, path, f"cannot read the values of {quote(name)} as choices, taxonomy, rating, number, "
                   "labels, textarea, ranker or pairwise",
                   field=name)
    vkind = _MIN_KINDS[ctype]
    if multiple is not None and ctype.startswith("choices"):
        vkind = "set" if multiple else "nominal"
    if kind is not None and vkind != "spans":
        vkind = kind
    cells = Cells(TOOL, str(path), tidy=tidy)
    cells.notes.append(words(f"{form} export: control {quote(name)} read as {vkind} ({form} does not give control "
                             "types; pass ", opt("kind"), " or ", opt("multiple"), " to change)"))
    if ctype == "ranker-buckets":
        cells.notes.append(BUCKETS_NOTE.format(name=quote(name)))
    cells.notes.append(f"{form} leaves cancelled annotations out: they count as unassigned here (the JSON export "
                       "tells them apart as skipped)")
    others = sorted(k for k, t in controls.items() if k != name and t not in ("other", "mixed", *_NAMED_ONLY))
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
            for k, t in controls.items():  # the controls not read, by what they hold (as the JSON export says)
                if k == name or rec.get(k) in (None, [], ""):
                    continue
                if t in _NAMED_ONLY:
                    shown = "ranker" if t.startswith("ranker") else t
                    cells.drop(task, f"{shown} {quote(k)}: {_NAMED_ONLY[t]}, read only when named as the field",
                               line=line, coder=coder)
                elif t in ("other", "mixed"):
                    cells.drop(task, f"control {quote(k)}: values of no shape accord reads (choices, taxonomy, "
                               "rating, number, labels, textarea, ranker, pairwise), not read", line=line, coder=coder)
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
                    s, e, labels, fb = region_span(path, text, region, index=index, check=texts_check,
                                                   label=tidy.label, kw=kw)
                    fallbacks += fb
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
    span_notes(cells, fallbacks, texts_check, repeats)
    if vkind == "spans":
        return spans_result(path, cells, name, spans, texts)
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
    if ctype in ("ranker", "ranker-buckets", "pairwise"):
        from accord.importers._answers import label_studio_value

        if regions is None:
            raise fail(TOOL, path, f"expected [{{{quote(ctype.split('-')[0])}: ...}}]; got {quote(v)}", **kw)
        return label_studio_value(path, ctype, [{"value": r} for r in regions], kw)
    for i, r in enumerate(regions or []):
        for key, expected in VALUE.items():
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


#: The keys a JSON-MIN value's regions hold, by control (what :func:`_min_kind` reads): a CSV cell holding the JSON
#: of a list of such objects is a control's value; any other text (the task data's lists too) is kept as text.
_REGION_KEYS = {"start", "choices", "taxonomy", "rating", "number", "text", "ranker", "selected"}
#: The columns the CSV writer always writes (label_studio_converter's csv2: annotator, annotation_id...) and "id".
_CSV_NEEDS = {"id", "annotator", "annotation_id"}


def is_csv_export(path: Path, head: str) -> bool:
    """A CSV (or TSV) whose header names ``id``, ``annotator`` and ``annotation_id``: Label Studio's CSV export."""
    if path.is_dir() or path.suffix.lower() not in (".csv", ".tsv"):
        return False
    first = head.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    try:
        header = next(csv.reader([first], delimiter=_delimiter(first)), [])
    except csv.Error:
        return False
    return _CSV_NEEDS <= {h.strip() for h in header}


def _delimiter(header: str) -> str:
    """The TSV export is the CSV writer's with a tab for the comma (its file may still be named ``.csv``)."""
    return "\t" if "\t" in header else ","


def csv_rows(path: Path, text: str) -> list[tuple[int, int, Any]]:
    """The rows of Label Studio's CSV export as JSON-MIN rows ``(index, line, row)``: an empty cell is a key the
    annotation has not, a cell holding the JSON of a control's regions is those regions, a number column of the
    annotation (``annotation_id``, ``lead_time``) is left as text (only messages show it)."""
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text.split("\n", 1)[0]))
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise fail(TOOL, path, "empty file") from None
    except csv.Error as exc:
        raise fail(TOOL, path, f"not a CSV file ({exc})", line=1) from None
    out: list[tuple[int, int, Any]] = []
    try:
        for i, cells in enumerate(reader, start=1):
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise fail(TOOL, path, f"the row has {plural(len(cells), 'cell')}, the header "
                           f"{plural(len(header), 'column')}", line=line)
            row: dict[str, Any] = {}
            for key, cell in zip(header, cells, strict=True):
                if cell == "":
                    continue
                row[key] = _csv_value(cell) if key not in ("id", "annotator") else cell
            out.append((i, line, row))
    except csv.Error as exc:
        raise fail(TOOL, path, f"not a CSV file ({exc})", line=reader.line_num) from None
    return out


def _csv_value(cell: str) -> Any:
    """A cell as the JSON-MIN value it was written from: the JSON of a control's regions, else the text."""
    head = cell.lstrip()[:1]
    if head not in ("[", "{"):
        return cell
    try:
        value = json.loads(cell)
    except ValueError:
        return cell
    regions = [value] if isinstance(value, dict) else value
    if isinstance(regions, list) and regions and all(isinstance(r, dict) and r.keys() & _REGION_KEYS
                                                     for r in regions):
        return value
    return cell
