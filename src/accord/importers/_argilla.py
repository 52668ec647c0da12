"""Argilla 2.x (and 1.x): a dataset's records with every user's responses to every question.

Schema followed: the Argilla 2.x Python SDK's record export
(https://docs.argilla.io/latest/how_to_guides/import_export/ and
https://docs.argilla.io/latest/reference/argilla/records/responses/):

``dataset.to_disk(folder)``
    a folder with ``settings.json`` (the questions, each with its
    ``settings.type``: ``label_selection``, ``multi_label_selection``,
    ``rating``, ``ranking``, ``span``, ``text``) and ``records.json``;
``dataset.records.to_json(file)`` / ``to_list(flatten=False)``
    a JSON array of records ``{"id", "status", "_server_id", "fields",
    "metadata", "suggestions", "vectors", "responses"}`` where ``responses``
    maps each question to a list of ``{"value", "user_id"}``: the SDK writes
    no response status here (``RecordResponses.to_dict`` in Argilla 2.0 to
    2.8), so see the cell states below; a ``status`` key, where a file has
    one, is read;
``to_list(flatten=True)`` / ``to_datasets()`` saved as JSON lines
    the same records flattened: the fields at the top, and per question
    ``<q>.responses``, ``<q>.responses.users``, ``<q>.responses.status``.

Argilla 1.x ``FeedbackDataset`` records are read too: the dataset format
(``format_as("datasets")``, which ``push_to_huggingface`` writes, saved as
JSON lines) has one column per question holding ``[{"user_id", "value",
"status"}]`` beside ``<q>-suggestion`` and ``<q>-suggestion-metadata``, a
ranking as ``{"value": [...], "rank": [...]}`` and spans as ``{"start":
[...], "end": [...], "label": [...], "text": [...]}`` (read as 2.x gives
them); a ``FeedbackRecord`` as a dict has ``responses``, a list of
``{"user_id", "values": {question: {"value"}}, "status"}``.

Without ``settings.json`` the question types are read from the values' shape
(a string is a label, a list of strings a multi-label set, an integer a rating,
a list of ``{"label", "start", "end"}`` spans) and the report says so.

Values: ``label_selection`` nominal, ``multi_label_selection`` a set,
``rating`` ordinal, ``span`` spans of the question's text field; ``text``
(free text) and ``ranking`` (a list of ``{"value", "rank"}``, equal ranks
tying, or of the options in order: a ranking of tie groups) are read only
when named (``field=``), and counted as dropped records otherwise.  Span offsets
come from the browser interface: they are read as UTF-16 code units and
re-anchored (``offsets="codepoints"`` reads them as they are); the export does
not repeat the covered text, so the report says which documents hold
characters where the two readings differ.

Cell states (per user and record): a ``submitted`` response is *annotated*
(*empty* when the user submitted the record without answering this question);
``discarded`` is *skipped*; a ``draft`` is not an answer yet and is *skipped*
too (counted in a note; ``drafts=True`` reads drafts as answers); a record
with no response of a user is *unassigned*.  Where the responses carry no
status (the nested export), a user whose responses on a record hold a value is
read as *submitted* (a draft or a discarded response holding a value cannot be
told apart, and a note says so) and one whose responses hold no value as
*skipped* (Argilla refuses a submitted response without a value).  Suggestions
are model output and are not read.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord.importers import AmbiguousField, Imported
from accord.importers._common import (
    Cells,
    Tidy,
    check,
    fail,
    gc_paused,
    iter_json_records,
    iter_jsonl,
    json_loads,
    opt,
    place,
    quote,
    read_text,
    reanchor_span,
    symlink_refused,
)
from accord.importers._offsets import Utf16Index

__all__ = ["read", "sniff"]

TOOL = "argilla"
KINDS = {"label_selection": "nominal", "multi_label_selection": "set", "rating": "ordinal", "span": "spans"}
#: Questions read only when named (``field=``), never guessed -> the kind of their answers (free text; a ranking,
#: tuples of tie groups: :mod:`accord.importers._answers`).
NAMED_ONLY = {"text": "text", "ranking": "ranking"}
NOT_COMPARED = {"text", "ranking"}
_STATES = {"submitted", "discarded", "draft"}
_RESERVED = {"id", "status", "_server_id", "inserted_at", "updated_at", "score", "external_id"}


def sniff(path: Path, head: str) -> bool:
    """A ``to_disk`` folder, or records carrying ``responses`` with ``user_id`` (or flattened ``.responses.users``,
    or Argilla 1.x's question columns beside their ``-suggestion`` columns)."""
    if path.is_dir():
        return (path / "records.json").is_file() and (path / "settings.json").is_file()
    return (('"responses"' in head and '"user_id"' in head and '"fields"' in head) or ".responses.users" in head
            or ('-suggestion"' in head and '"user_id"' in head and '"status"' in head))


@gc_paused
def read(
    path: str | Path,
    *,
    field: str | None = None,
    question_type: str | None = None,
    text_field: str | None = None,
    drafts: bool = False,
    offsets: str = "utf16",
    follow_symlinks: bool = False,
) -> Imported:
    """Read an Argilla 2.x export: a ``to_disk`` folder, a records JSON array or flattened JSON lines.

    Parameters
    ----------
    path : str or Path
        The folder ``dataset.to_disk`` wrote, or a ``.json`` / ``.jsonl`` of records.
    field : str, optional
        The question to read; needed when several can be compared.
    question_type : {"label_selection", "multi_label_selection", "rating", "span", "text", "ranking"}, optional
        The question's type when there is no ``settings.json`` and its values' shape misleads.
    text_field : str, optional
        The record field a span question points into (default: the question's
        ``field`` setting, else the only text field).
    drafts : bool
        Read draft responses as answers (default: skipped).
    offsets : {"utf16", "codepoints"}
        How span offsets count characters.
    follow_symlinks : bool
        A ``to_disk`` folder: read ``records.json`` and ``settings.json`` when they are symbolic links
        (default: an error, as a link inside an export can pull in any file of the machine).

    Returns
    -------
    Imported

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rec = {"id": "r1", "fields": {"text": "ok"}, "responses": {"label": [
    ...     {"value": "yes", "user_id": "u1", "status": "submitted"},
    ...     {"value": "no", "user_id": "u2", "status": "discarded"}]}}
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "records.json"
    >>> _ = f.write_text(json.dumps([rec]))
    >>> imp = read(f)
    >>> imp.report.counts["u2"]["skipped"], imp.annotations.n_entries
    (1, 1)
    """
    path = Path(path)
    if offsets not in ("utf16", "codepoints"):
        raise AccordError(f"offsets must be 'utf16' or 'codepoints'; got {quote(offsets)}")
    if question_type is not None and question_type not in (*KINDS, *NOT_COMPARED):
        raise AccordError(f"question_type must be one of {', '.join((*KINDS, *NOT_COMPARED))}; got "
                          f"{quote(question_type)}")
    settings: dict[str, dict[str, Any]] = {}
    source = path
    if path.is_dir():
        spath = path / "settings.json"
        source = path / "records.json"
        for f in (source, spath):
            if f.is_symlink() and not follow_symlinks:
                raise symlink_refused(TOOL, f)
        if not source.is_file():
            raise fail(TOOL, path, "the folder has no records.json (export it with dataset.to_disk)")
        if spath.is_file():
            settings = _questions(spath)
    if source.suffix.lower() in (".jsonl", ".ndjson"):
        raw = [(line, obj) for line, obj in iter_jsonl(TOOL, source)]
    else:
        raw = [(line, obj) for _, line, obj in iter_json_records(TOOL, source)]
    if not raw:
        raise fail(TOOL, source, "the export holds no record")
    tidy = Tidy()
    records = [_normalise(source, line, i, obj, tidy) for i, (line, obj) in enumerate(raw, start=1)]
    cells = Cells(TOOL, str(path), tidy=tidy)
    # question types
    qvalues: dict[str, list[Any]] = defaultdict(list)
    for r in records:
        for q, resps in r["responses"].items():
            qvalues[q].extend(v for _, v, _ in resps if v is not None)
    types: dict[str, str] = {}
    for q in sorted(set(qvalues) | set(settings)):
        t = (settings.get(q) or {}).get("type")
        types[q] = t if t else _shape(qvalues[q])
    if not settings:
        cells.notes.append("no settings.json: question types read from the values' shape ("
                           + ", ".join(f"{q}: {t}" for q, t in types.items()) + ")")
    if field is not None and field not in types and field.endswith(".responses") and field[:-10] in types:
        field = field[: -len(".responses")]  # the flattened export's column of the question
    if field is not None:
        if field not in types:
            raise fail(TOOL, source, f"no question named {quote(field)}; the export has "
                       f"{', '.join(f'{q} ({t})' for q, t in types.items()) or 'none'}", field=field)
        qtype = question_type or types[field]
    else:
        candidates = [q for q, t in types.items() if t in KINDS]
        if not candidates:
            raise fail(TOOL, source, "no question accord can compare (label_selection, multi_label_selection, "
                       f"rating, span); the export has {', '.join(f'{q} ({t})' for q, t in types.items()) or 'none'}")
        if len(candidates) > 1:
            raise AmbiguousField(
                fail(TOOL, source, words(f"the export has {plural(len(candidates), 'question')}: "
                                         f"{', '.join(f'{q} ({types[q]})' for q in candidates)}; pass ", opt("field"),
                                         " to choose one")),
                {q: KINDS[types[q]] for q in candidates},
            )
        field = candidates[0]
        qtype = question_type or types[field]
    if qtype not in KINDS and qtype not in NAMED_ONLY:
        raise fail(TOOL, source, f"cannot read question {quote(field)} of type {quote(qtype)}", field=field)
    kind = KINDS.get(qtype) or NAMED_ONLY[qtype]
    for q, t in types.items():
        if t in NOT_COMPARED and q != field:
            for r in records:
                for user, _, _ in r["responses"].get(q, []):
                    cells.drop(r["id"], f"{t} question {quote(q)}: answers read only when named as the field",
                               line=r["line"], coder=user)
    others = [q for q, t in types.items() if t in KINDS and q != field]
    if others:
        cells.notes.append(words(f"read question {quote(field)} ({qtype}); not read: {', '.join(others)} (pass ",
                                 opt("field"), ")"))
    n_drafts = 0
    n_unknown: Counter[str] = Counter()  # users on a record whose responses carry no status, by the reading made
    spans: list[Any] = []
    texts: dict[str, str] = {}
    astral: set[str] = set()
    span_field = text_field or (settings.get(field) or {}).get("field")
    from accord.data._spans import Span, SpanAnnotations

    for r in records:
        rid = r["id"]
        unit = str(rid) if kind == "spans" else rid
        cells.item(unit)
        # every user's status on the record: the status of their responses (all questions)
        status_of: dict[str, str | None] = dict(r["statuses"])
        has_value: set[str] = set()
        for resps in r["responses"].values():
            for user, v, st in resps:
                if status_of.get(user) is None:
                    status_of[user] = st
                if v is not None:
                    has_value.add(user)
        for user, st in status_of.items():
            if st is None:
                # the nested export writes no status: Argilla refuses a submitted response without a value, so
                # a user with no value on the record did not submit it; one with a value is read as submitted
                status_of[user] = "submitted" if user in has_value else "discarded"
                n_unknown["submitted" if user in has_value else "discarded"] += 1
        mine = {user: (v, st or status_of[user]) for user, v, st in r["responses"].get(field, [])}
        text = None
        index = None
        if kind == "spans":
            text = _span_text(source, r, span_field)
            texts[unit] = text
            index = Utf16Index(text) if offsets == "utf16" else None
            if index is not None and index.has_astral:
                astral.add(unit)
        for user in sorted(status_of):
            value, st = mine.get(user, (None, status_of[user]))
            kw = {"record": rid, "line": r["line"], "field": field, "coder": user}
            if st not in _STATES:
                raise fail(TOOL, source, f"response status must be submitted, discarded or draft; got {quote(st)}",
                           **kw)
            if st == "discarded" or (st == "draft" and not drafts):
                n_drafts += st == "draft"
                cells.cell(unit, user, "skipped", line=r["line"])
                continue
            if kind == "spans":
                found = []
                for sp in value or []:
                    if not isinstance(sp, dict) or "label" not in sp:
                        raise fail(TOOL, source, f"a span answer must be {{label, start, end}}; got {quote(sp)}", **kw)
                    s, e, _ = reanchor_span(TOOL, source, text or "", sp.get("start"), sp.get("end"), covered=None,
                                            utf16=offsets == "utf16", index=index, **kw)
                    check(TOOL, source, sp["label"], "label", field=f"{field}.label", **place(kw))
                    found.append(Span(unit, s, e, str(tidy.label(sp["label"])), user))
                spans.extend(found)
                cells.cell(unit, user, "annotated" if found else "empty", line=r["line"])
                continue
            if kind in NOT_COMPARED:
                from accord.importers._answers import argilla_ranking, text_answer

                got = text_answer(TOOL, source, value, kw) if kind == "text" else argilla_ranking(source, value, kw)
                cells.cell(unit, user, "annotated" if got is not None else "empty", got, line=r["line"])
            elif value is None or value == [] or value == "":
                cells.cell(unit, user, "empty", frozenset() if kind == "set" else None, line=r["line"])
            elif kind == "set":
                if not isinstance(value, list):
                    raise fail(TOOL, source, f"a multi_label_selection answer must be a list; got {quote(value)}", **kw)
                check(TOOL, source, value, "list of label", **kw)
                cells.cell(unit, user, "annotated", frozenset(str(tidy.label(x)) for x in value), line=r["line"])
            elif kind == "ordinal":
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise fail(TOOL, source, f"a rating answer must be a number; got {quote(value)}", **kw)
                cells.cell(unit, user, "annotated", value, line=r["line"])
            else:
                if isinstance(value, (list, dict)):
                    raise fail(TOOL, source, f"a label_selection answer must be one label; got {quote(value)}", **kw)
                check(TOOL, source, value, "label|boolean", **kw)
                cells.cell(unit, user, "annotated", tidy.label(value), line=r["line"])
    if n_drafts:
        cells.notes.append(words(f"{plural(n_drafts, 'draft response')} (not submitted) read as skipped; pass ",
                                 opt("drafts", True), " to read them as answers"))
    if n_unknown:
        cells.notes.append(
            f"the responses carry no status (Argilla's nested export, records.json of dataset.to_disk and "
            "records.to_json, does not write it): a draft or a discarded response holding a value cannot be told "
            f"from a submitted one; {plural(n_unknown['submitted'], 'user-record response')} with a value read as "
            f"submitted, {n_unknown['discarded']} without one (Argilla refuses a submitted response without a value) "
            "as skipped; records.to_list(flatten=True) writes <question>.responses.status and tells them apart")
    if astral:
        cells.notes.append(words(f"{plural(len(astral), 'record holds', 'records hold')} characters outside the Basic "
                                 "Multilingual Plane (emoji): span offsets were read as UTF-16 code units; pass ",
                                 opt("offsets", "codepoints"), " to read them as code points"))
    if kind == "spans":
        seen = [(str(i), c) for (i, c), s in cells.cells.items() if s in ("annotated", "empty")]
        sa = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, source=str(source))
        return Imported(tool=TOOL, field=field, kind="spans", annotations=None, spans=sa, report=cells.report())
    return cells.imported(field, kind)  # type: ignore[arg-type]


def _questions(spath: Path) -> dict[str, dict[str, Any]]:
    data = json_loads(TOOL, spath, read_text(TOOL, spath))
    if not isinstance(data, dict):
        raise fail(TOOL, spath, f"expected a JSON object (the dataset's settings), found a {type(data).__name__}")
    out: dict[str, dict[str, Any]] = {}
    check(TOOL, spath, data.get("questions"), "list of object", field="questions", null=True)
    for i, q in enumerate(data.get("questions") or []):
        check(TOOL, spath, q.get("name"), "text", field=f"questions[{i}].name", null=True)
        check(TOOL, spath, q.get("settings"), "object", field=f"questions[{i}].settings", null=True)
        for key in ("type", "field"):
            check(TOOL, spath, q.get(key), "text", field=f"questions[{i}].{key}", null=True)
            check(TOOL, spath, (q.get("settings") or {}).get(key), "text", field=f"questions[{i}].settings.{key}",
                  null=True)
        if "name" in q:
            st = q.get("settings") or {}
            out[str(q["name"])] = {"type": st.get("type") or q.get("type"), "field": st.get("field") or q.get("field")}
    return out


def _shape(values: list[Any]) -> str:
    shapes = Counter()
    for v in values:
        if isinstance(v, list) and v and all(isinstance(x, dict) and "start" in x for x in v):
            shapes["span"] += 1
        elif isinstance(v, list) and v and all(isinstance(x, dict) and "rank" in x for x in v):
            shapes["ranking"] += 1
        elif isinstance(v, list):
            shapes["multi_label_selection"] += 1
        elif isinstance(v, bool):
            shapes["unknown"] += 1
        elif isinstance(v, int):
            shapes["rating"] += 1
        elif isinstance(v, str):
            shapes["label_selection"] += 1
        else:
            shapes["unknown"] += 1
    if len(shapes) == 1:
        return next(iter(shapes))
    return "unknown" if shapes else "label_selection"


def _normalise(source: Path, line: int, index: int, rec: Any, tidy: Tidy) -> dict[str, Any]:
    """A record as the reader uses it, whether nested or flattened, its JSON types checked against Argilla's
    record format (https://docs.argilla.io/latest/reference/argilla/records/records/) and its id and users ids
    in their one form (:mod:`accord._shared.ids`)."""
    """One record as ``{"id", "line", "fields", "responses": {question: [(user, value, status)]}}``."""
    if not isinstance(rec, dict):
        raise fail(TOOL, source, f"expected a record object, found a {type(rec).__name__}", record=index, line=line)
    v1 = _v1_questions(rec)
    if v1:
        rec = _from_v1_columns(rec, v1)
    key = next((k for k in ("id", "_server_id", "external_id") if rec.get(k) is not None), None)
    if key is None:
        raise fail(TOOL, source, "the record has neither 'id' nor '_server_id'", record=index, line=line)
    rid = tidy.id(check(TOOL, source, rec[key], "id", field=key, record=index, line=line))
    where = {"record": rid, "line": line}
    for k, expected in (("status", "text"), ("fields", "object"), ("responses", "object|list of object")):
        check(TOOL, source, rec.get(k), expected, field=k, null=True, **where)
    responses: dict[str, list[tuple[str, Any, str]]] = {}
    statuses: dict[str, str | None] = {}  # Argilla 1.x: each user's status on the record, answered or not
    if isinstance(rec.get("responses"), list):  # Argilla 1.x: one response per user, its values per question
        fields = rec.get("fields") or {}
        for i, x in enumerate(rec["responses"]):
            at = f"responses[{i}]"
            if "user_id" not in x:
                raise fail(TOOL, source, f"{at} has no 'user_id'", record=rid, line=line)
            user = tidy.id(check(TOOL, source, x["user_id"], "id", field=f"{at}.user_id", **where))
            status = check(TOOL, source, x.get("status"), "text", field=f"{at}.status", null=True, **where)
            statuses[user] = status
            values = check(TOOL, source, x.get("values"), "object", field=f"{at}.values", null=True, **where) or {}
            for q, v in values.items():
                check(TOOL, source, v, "object", field=f"{at}.values.{q}", null=True, **where)
                responses.setdefault(str(q), []).append((user, _v1_value((v or {}).get("value")), status))
    elif isinstance(rec.get("responses"), dict):
        fields = rec.get("fields") or {}
        for q, resps in rec["responses"].items():
            out = []
            check(TOOL, source, resps, "list of object", field=f"responses.{q}", null=True, **where)
            for i, x in enumerate(resps or []):
                if "user_id" not in x:
                    raise fail(TOOL, source, f"a response of question {quote(q)} has no 'user_id'", record=rid,
                               line=line)
                at = f"responses.{q}[{i}]"
                user = tidy.id(check(TOOL, source, x["user_id"], "id", field=f"{at}.user_id", **where))
                status = check(TOOL, source, x.get("status"), "text", field=f"{at}.status", null=True, **where)
                out.append((user, x.get("value"), status))
            responses[str(q)] = out
    else:
        flat = [k[: -len(".responses")] for k in rec if k.endswith(".responses")]
        if not flat and "responses" not in rec:
            raise fail(TOOL, source, "not an Argilla 2.x export: the record has no 'responses' (nor flattened "
                       "'<question>.responses')", record=rid, line=line)
        for q in flat:
            vals = check(TOOL, source, rec.get(f"{q}.responses"), "list", field=f"{q}.responses", null=True,
                         **where) or []
            users = check(TOOL, source, rec.get(f"{q}.responses.users"), "list of id", field=f"{q}.responses.users",
                          null=True, **where) or []
            sts = check(TOOL, source, rec.get(f"{q}.responses.status"), "list", field=f"{q}.responses.status",
                        null=True, **where) or [None] * len(vals)
            for i, st in enumerate(sts):
                check(TOOL, source, st, "text", field=f"{q}.responses.status[{i}]", null=True, **where)
            if len(users) != len(vals) or len(sts) != len(vals):
                raise fail(TOOL, source, f"{q}.responses, {q}.responses.users and {q}.responses.status differ in "
                           "length", record=rid, line=line, field=q)
            responses[q] = [(tidy.id(u), v, s) for u, v, s in zip(users, vals, sts, strict=True)]
        fields = {k: v for k, v in rec.items() if isinstance(v, str) and k not in _RESERVED and "." not in k}
    return {"id": rid, "line": line, "fields": fields, "responses": responses, "statuses": statuses}


def _v1_questions(rec: dict[str, Any]) -> list[str]:
    """The questions of a record in Argilla 1.x's dataset format (``FeedbackDataset.format_as("datasets")``, which
    ``push_to_huggingface`` writes): one column per question holding ``[{"user_id", "value", "status"}]``, beside
    its ``<question>-suggestion`` and ``<question>-suggestion-metadata`` columns."""
    def answers(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(x, dict) and "user_id" in x and "status" in x for x in v)

    return [k for k, v in rec.items() if f"{k}-suggestion" in rec and answers(v)]


def _from_v1_columns(rec: dict[str, Any], questions: list[str]) -> dict[str, Any]:
    """An Argilla 1.x dataset-format record as the 2.x flattened one: ``<q>.responses``, ``.users``, ``.status``,
    the fields the other text columns (not the suggestions, ``external_id`` or the ``metadata`` JSON text)."""
    out: dict[str, Any] = {"external_id": rec.get("external_id")}
    for q in questions:
        resps = rec[q]
        out[f"{q}.responses"] = [_v1_value(x.get("value")) for x in resps]
        out[f"{q}.responses.users"] = [x.get("user_id") for x in resps]
        out[f"{q}.responses.status"] = [x.get("status") for x in resps]
    skip = {*questions, "external_id", "metadata", "vectors"}
    for k, v in rec.items():
        if k not in skip and not k.endswith(("-suggestion", "-suggestion-metadata")) and isinstance(v, str):
            out[k] = v
    return out


def _v1_value(value: Any) -> Any:
    """An Argilla 1.x answer as 2.x gives it: the dataset format stores a ranking as ``{"value": [...], "rank":
    [...]}`` and spans as ``{"start": [...], "end": [...], "label": [...], "text": [...]}`` (columns of a
    struct), 2.x as a list of ``{"value", "rank"}`` and of ``{"label", "start", "end"}``."""
    if isinstance(value, dict) and isinstance(value.get("value"), list) and isinstance(value.get("rank"), list) \
            and len(value["value"]) == len(value["rank"]):
        return [{"value": v, "rank": r} for v, r in zip(value["value"], value["rank"], strict=True)]
    cols = ("start", "end", "label")
    if isinstance(value, dict) and all(isinstance(value.get(c), list) for c in cols) \
            and len({len(value[c]) for c in cols}) == 1:
        return [{c: value[c][i] for c in cols} for i in range(len(value["start"]))]
    return value


def _span_text(source: Path, r: dict[str, Any], span_field: str | None) -> str:
    fields = r["fields"]
    if span_field is not None:
        if not isinstance(fields.get(span_field), str):
            raise fail(TOOL, source, f"the record has no text field {quote(span_field)} (fields: {', '.join(fields)})",
                       record=r["id"], line=r["line"])
        return fields[span_field]
    texts = [k for k, v in fields.items() if isinstance(v, str)]
    if len(texts) != 1:
        raise fail(TOOL, source, words(f"cannot tell which field the spans point into "
                                       f"({', '.join(texts) or 'no text'}); pass ", opt("text_field")),
                   record=r["id"], line=r["line"])
    return fields[texts[0]]
