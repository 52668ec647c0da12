"""Prodigy: the JSONL that ``prodigy db-out DATASET`` writes.

Schema followed: Prodigy 1.x annotation tasks as stored in the database and
written by ``db-out`` (https://prodi.gy/docs/api-interfaces and
https://prodi.gy/docs/recipes#db-out): one JSON object per line with the
``text``, the ``_input_hash`` (the input: the unit or document), the
``_task_hash``, the ``answer`` (``accept``, ``reject`` or ``ignore``), the
``_view_id`` (the interface), the ``_annotator_id`` of the multi-user session
(older versions: only ``_session_id``), and per interface:

``choice``
    ``options`` (``{"id", "text"}``) and ``accept``, the ids chosen: a single
    choice is a nominal value, several (``choice_style: "multiple"``) a set;
``ner_manual`` / ``spans_manual``
    ``tokens`` (``{"text", "start", "end", "id"}``) and ``spans``
    (``{"start", "end", "label", "token_start", "token_end"}``, token ends
    inclusive); offsets are Python code points (Prodigy is Python/spaCy), so no
    re-anchoring; the export's tokens become
    :attr:`~accord.SpanAnnotations.tokens`; a span's ``text``, where it has
    one, is checked against the document, except when its offsets are its
    tokens' (a pre-annotated span corrected in the manual interface keeps its
    input's ``text``): then the offsets are read, counted in a note;
binary interfaces (``classification``, ``ner``, ``text``...)
    the ``answer`` itself is the value (``accept`` / ``reject``), as Prodigy's
    own ``metric.iaa.binary`` reads it (https://prodi.gy/docs/metrics).

Fields (``field=``): ``accept``, ``spans`` or ``answer``; an export with
several (interfaces mixed in one dataset, or ``blocks`` tasks holding both
choices and spans) is an error listing them.

A folder of ``.jsonl`` files is read as one export: the usual layout when
each annotator has a dataset of their own (``prodigy db-out ner_alice >
alice.jsonl``). A task with neither ``_annotator_id`` nor ``_session_id``
(a single-user dataset) is then the annotator named by its file's stem
(counted in a note); in a single file such a task is an error, as nobody
can tell who answered.

A dataset saved by the ``review`` recipe holds the reviewer's answer per
input, with the annotators' answers it was made from under ``versions``
(https://prodi.gy/docs/recipes#review): the reviewer's answer is read, the
versions are not (counted in a note).

Cell states: ``ignore`` is *skipped*; in the manual interfaces (choice and
spans) a ``reject`` flags the task rather than giving a value, so it is
*skipped* too (counted in a note); an accepted task with nothing chosen or no
span is *empty*; an input without a task of an annotator is *unassigned*.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord.importers import AmbiguousField, Imported
from accord.importers._common import (
    Cells,
    Tidy,
    check,
    fail,
    folder_entries,
    gc_paused,
    iter_jsonl,
    json_type,
    opt,
    quote,
    reanchor_span,
    symlink_note,
)
from accord.importers._json_relations import prodigy_relations

__all__ = ["read", "sniff"]

TOOL = "prodigy"
FIELDS = ("accept", "spans", "answer")
_SPAN_VIEWS = {"ner_manual", "spans_manual", "span_manual", "pos_manual", "blocks", "relations"}
_BINARY_VIEWS = {"classification", "ner", "binary", "text", "image", "html", "pos", "dep"}


def sniff(path: Path, head: str) -> bool:
    """JSON lines carrying ``_input_hash`` and ``answer``, or a folder of such files."""
    if path.is_dir():
        files = folder_entries(path, "*.jsonl", follow_symlinks=False)
        return bool(files) and all(_looks_like(_head(f)) for f in files)
    return _looks_like(head)


def _head(f: Path) -> str:
    with open(f, "rb") as fh:
        return fh.read(4096).removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


def _looks_like(head: str) -> bool:
    return head.lstrip().startswith("{") and '"_input_hash"' in head and '"answer"' in head


def _tasks(path: Path, follow_symlinks: bool = False, skipped: list[Path] | None = None,
           ) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The tasks of the file, or of every ``.jsonl`` file of the folder; a task of a folder's file carries the
    file (``_accord_file``), and the file's stem as annotator when it names none.  Also: how many took a stem."""
    if not path.is_dir():
        return list(iter_jsonl(TOOL, path)), 0
    files = folder_entries(path, "*.jsonl", follow_symlinks=follow_symlinks, skipped=skipped)
    if not files:
        raise fail(TOOL, path, words("the folder holds no .jsonl file (one prodigy db-out per annotator)", *(
            (f"; {plural(len(skipped), 'symbolic link')} not followed (pass ", opt("follow_symlinks", True),
             " to read them)") if skipped else ())))
    tasks, named = [], 0
    for f in files:
        for line, t in iter_jsonl(TOOL, f):
            t["_accord_file"] = f
            if _coder(t) is None:
                t["_accord_annotator"] = f.stem
                named += 1
            tasks.append((line, t))
    return tasks, named


def _src(path: Path, t: dict[str, Any]) -> Path:
    """The file a task came from (a folder's file), for messages."""
    return t.get("_accord_file", path)


def _fields_of(task: dict[str, Any]) -> tuple[str, ...]:
    """The fields a task answers: ``accept``, ``spans`` (a ``blocks`` task may answer both), else ``answer``."""
    view = task.get("_view_id")
    out = []
    if "options" in task or "accept" in task:
        out.append("accept")
    # a task without _view_id (older Prodigy) with a top-level label and no tokens is a binary question about
    # that label (textcat.teach writes "spans": [] beside it), not a span annotation
    binary_label = view is None and "label" in task and not task.get("tokens")
    if isinstance(task.get("spans"), list) and (
        view in _SPAN_VIEWS or (not out and view not in _BINARY_VIEWS and view != "choice" and not binary_label)
    ):
        out.append("spans")
    return tuple(out) or ("answer",)


@gc_paused
def read(path: str | Path, *, field: str | None = None, multiple: bool | None = None,
         follow_symlinks: bool = False, relations: bool = False) -> Imported:
    """Read a Prodigy ``db-out`` JSONL export.

    Parameters
    ----------
    path : str or Path
        The ``.jsonl`` file.
    field : {"accept", "spans", "answer"} or str, optional
        Which answers to read when the export mixes interfaces; any other
        name is the task key holding typed text (the ``text_input``
        interface's ``field_id``, ``user_input`` by default), read as free
        text.
    multiple : bool, optional
        Read ``accept`` as sets (True) or single values (False); default: sets
        when some task has several choices or ``choice_style: "multiple"``.
    follow_symlinks : bool
        A folder: read its files that are symbolic links (default: left out, and counted in a note).
    relations : bool
        Also read the ``relations`` of the span tasks (``rel.manual``; :mod:`accord.importers._json_relations`,
        ``kind="relations"``); otherwise each relation is counted as dropped.

    Returns
    -------
    Imported

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rows = [{"text": "hi", "_input_hash": 1, "_task_hash": 2, "answer": a, "_view_id": "classification",
    ...          "label": "GREETING", "_annotator_id": f"greet-{who}"}
    ...         for who, a in [("al", "accept"), ("bo", "reject")]]
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "db.jsonl"
    >>> _ = f.write_text("\\n".join(map(json.dumps, rows)))
    >>> imp = read(f)
    >>> imp.field, sorted(imp.annotations.values)
    ('answer', ['accept', 'reject'])
    """
    path = Path(path)
    skipped: list[Path] = []
    tasks, named = _tasks(path, follow_symlinks, skipped)
    if not tasks:
        raise fail(TOOL, path, "the export holds no tasks")
    tidy = Tidy()
    for line, t in tasks:
        _validate(path, line, t, tidy)
    if field is not None and field not in FIELDS and not any(isinstance(t.get(field), str) for _, t in tasks):
        raise fail(TOOL, path, f"field must be one of {', '.join(FIELDS)}, or the task key holding typed text "
                   f"(text_input's field_id, default user_input); got {quote(field)}", field=field)
    found = Counter(f for _, t in tasks for f in _fields_of(t))
    if field is None:
        if len(found) > 1:
            mix = ", ".join(f"{k} ({plural(n, 'task')})" for k, n in sorted(found.items()))
            raise AmbiguousField(fail(TOOL, path, words(f"the export mixes {mix}; pass ", opt("field"),
                                                        " to choose one")),
                                 {k: "spans" if k == "spans" else "nominal" for k in sorted(found)})
        field = next(iter(found))
    cells = Cells(TOOL, str(path), tidy=tidy)
    note = symlink_note(path, skipped)
    if note:
        cells.notes.append(note)
    if named:
        cells.notes.append(f"{plural(named, 'task names', 'tasks name')} no annotator (neither _annotator_id "
                           "nor _session_id): each is the "
                           "annotator of its file's name")
    reviewed = sum(isinstance(t.get("versions"), list) for _, t in tasks)
    if reviewed:  # https://prodi.gy/docs/recipes#review: each version an answer, with the sessions that gave it
        cells.notes.append(f"{plural(reviewed, 'task')} from Prodigy's review interface: read as the reviewer's "
                           "answer; the annotators' versions it holds ('versions', each with its 'sessions') are not "
                           "read (read the annotators' own datasets to compare them)")
    if field not in FIELDS:
        return _read_text(path, cells, field, tasks)
    chosen = [(line, t) for line, t in tasks if field in _fields_of(t)]
    for line, t in tasks:
        if field not in _fields_of(t):
            other = ", ".join(map(repr, _fields_of(t)))
            cells.drop(t["_input_hash"], f"a task of another interface (its answers are in field {other})",
                       line=line, coder=_coder(t))
    if not chosen:
        raise fail(TOOL, path, f"no task has answers in field {quote(field)}; the export has "
                   f"{', '.join(sorted(found))}", field=field)
    if relations and field != "spans":
        raise fail(TOOL, path, f"relations join spans; the tasks read answer {quote(field)}, not spans", field=field)
    if not relations:  # counted, never dropped unsaid
        for line, t in tasks:
            for _ in t.get("relations") or () if isinstance(t.get("relations"), list) else ():
                cells.drop(t["_input_hash"], "relation (not compared; relations=True reads it)", line=line,
                           coder=_coder(t))
    if field == "spans":
        return _read_spans(path, cells, chosen, tasks, relations=relations)
    kind = "nominal"
    if field == "accept":
        if multiple is None:
            multiple = any(len(t.get("accept") or []) > 1 or (t.get("config") or {}).get("choice_style") == "multiple"
                           for _, t in chosen)
        kind = "set" if multiple else "nominal"
        if multiple:
            cells.notes.append("choices read as sets (choice_style multiple, or some task has several)")
    labels = {t.get("label") for _, t in chosen}
    by_label = field == "answer" and len(labels) > 1
    if by_label:
        cells.notes.append("binary tasks ask about several labels: each (input, label) is a unit")
    if field == "answer" and any(isinstance(t.get("user_input"), str) for _, t in chosen):
        cells.notes.append(words("the tasks hold typed text (text_input's user_input), not read: pass ",
                                 opt("field", "user_input"), " to compare it"))
    rejected = 0
    for _, t in tasks:
        cells.item(_unit(t, by_label) if field in _fields_of(t) else t["_input_hash"])
    for line, t in chosen:
        coder = _coder(t, path, line)
        unit = _unit(t, by_label)
        if cells.has(unit, coder):
            cells.drop(t["_input_hash"], "second answer of the same annotator to the input (the first is kept)",
                       line=line, coder=coder)
            continue
        answer = t["answer"]
        if answer == "ignore":
            cells.cell(unit, coder, "skipped", line=line)
            continue
        if field == "answer":
            cells.cell(unit, coder, "annotated", answer, line=line)
            continue
        if answer == "reject":
            rejected += 1
            cells.cell(unit, coder, "skipped", line=line)
            continue
        chosen_ids = t.get("accept") or []
        if not isinstance(chosen_ids, list):
            raise fail(TOOL, _src(path, t), f"'accept' must be a list of option ids; got {quote(chosen_ids)}",
                       record=t["_input_hash"], line=line, field=field, coder=coder)
        if not chosen_ids:
            cells.cell(unit, coder, "empty", frozenset() if multiple else None, line=line)
        elif multiple:
            cells.cell(unit, coder, "annotated", frozenset(map(_hashable, chosen_ids)), line=line)
        else:
            if len(chosen_ids) > 1:
                raise fail(TOOL, _src(path, t), words(f"several choices {chosen_ids} where single choices were asked; "
                                                      "pass ", opt("multiple", True)),
                           record=t["_input_hash"], line=line, field=field, coder=coder)
            cells.cell(unit, coder, "annotated", _hashable(chosen_ids[0]), line=line)
    if rejected:
        cells.notes.append(f"{plural(rejected, 'rejected task')} of a manual interface read as skipped")
    return cells.imported(field, kind)  # type: ignore[arg-type]


#: The keys of a task :func:`_validate` checks, and their JSON types as Prodigy writes them (null allowed).
_TASK = {"_task_hash": "id", "_view_id": "text", "text": "text", "label": "label", "accept": "list of id",
         "options": "list of object", "spans": "list of object", "tokens": "list of object", "config": "object"}
_SPAN = {"start": "integer", "end": "integer", "token_start": "integer", "token_end": "integer", "text": "text"}


def _validate(path: Path, line: int, t: dict[str, Any], tidy: Tidy) -> None:
    """Check the JSON types of what a task gives against Prodigy's task format; make its input hash, annotator
    and labels ids and labels in their one form (:mod:`accord._shared.ids`)."""
    src = _src(path, t)
    if "_input_hash" not in t:
        raise fail(TOOL, src, "not a Prodigy db-out export: the task has no '_input_hash'", line=line)
    check(TOOL, src, t["_input_hash"], "id", field="_input_hash", line=line)
    t["_input_hash"] = tidy.id(t["_input_hash"])
    where = {"record": t["_input_hash"], "line": line}
    if t.get("answer") not in ("accept", "reject", "ignore"):
        raise fail(TOOL, src, f"'answer' must be accept, reject or ignore; found {json_type(t.get('answer'))}",
                   **where)
    for key in ("_annotator_id", "_session_id"):
        if t.get(key) is not None:
            t[key] = tidy.id(check(TOOL, src, t[key], "id", field=key, **where))
    for key, expected in _TASK.items():
        check(TOOL, src, t.get(key), expected, field=key, null=True, **where)
    if isinstance(t.get("label"), str):
        t["label"] = tidy.label(t["label"])
    if t.get("accept"):
        t["accept"] = [tidy.label(x) for x in t["accept"]]
    for i, sp in enumerate(t.get("spans") or []):
        for key, expected in _SPAN.items():
            check(TOOL, src, sp.get(key), expected, field=f"spans[{i}].{key}", null=True, **where)
        if "label" in sp:
            sp["label"] = tidy.label(check(TOOL, src, sp["label"], "label", field=f"spans[{i}].label", **where))


def _hashable(x: Any) -> Hashable:
    return x if isinstance(x, (str, int, float, bool)) else str(x)


def _unit(t: dict[str, Any], by_label: bool) -> Hashable:
    return f"{t['_input_hash']}:{t.get('label')}" if by_label else t["_input_hash"]


def _coder(t: dict[str, Any], path: Path | None = None, line: int | None = None) -> str | None:
    for key in ("_annotator_id", "_session_id", "_accord_annotator"):
        if t.get(key) not in (None, ""):
            return str(t[key])
    if path is not None:
        raise fail(TOOL, _src(path, t), "the task has neither '_annotator_id' nor '_session_id': cannot tell who "
                   "answered (export each annotator's dataset to a file of its own and read the folder of files: the "
                   "file's name is the annotator)", record=t.get("_input_hash"), line=line)
    return None


def _read_spans(path: Path, cells: Cells, chosen: list[tuple[int, dict[str, Any]]],
                tasks: list[tuple[int, dict[str, Any]]], *, relations: bool = False) -> Imported:
    from accord.data._spans import Span, SpanAnnotations

    spans: list[Span] = []
    texts: dict[str, str] = {}
    tokens: dict[str, tuple[tuple[int, int], ...]] = {}
    rejected = 0
    stale: list[str] = []  # spans whose "text" is not the document's at their token-checked offsets
    rels: list[Any] = []
    for _, t in tasks:
        cells.item(str(t["_input_hash"]))
    for line, t in chosen:
        coder = _coder(t, path, line)
        doc = str(t["_input_hash"])
        text = t.get("text")
        if not isinstance(text, str):
            raise fail(TOOL, _src(path, t), "a span task has no 'text'", record=doc, line=line, coder=coder)
        if doc in texts and texts[doc] != text:
            raise fail(TOOL, _src(path, t), "two tasks with the same '_input_hash' have different texts", record=doc,
                       line=line, coder=coder)
        texts[doc] = text
        toks = t.get("tokens")
        tok_offsets: list[tuple[int, int]] | None = None
        if isinstance(toks, list) and toks:
            try:
                tok_offsets = [(int(k["start"]), int(k["end"])) for k in toks]
            except (KeyError, TypeError, ValueError, OverflowError):  # -1e400: an infinity
                raise fail(TOOL, _src(path, t), "each token needs integer 'start' and 'end'", record=doc, line=line,
                           coder=coder) from None
            for s, e in tok_offsets:
                if not 0 <= s <= e <= len(text):
                    raise fail(TOOL, _src(path, t), f"token [{s}, {e}) lies outside the text "
                                                    f"({plural(len(text), 'character')})",
                               record=doc, line=line, coder=coder)
            tokens.setdefault(doc, tuple(tok_offsets))
        if cells.has(doc, coder):  # type: ignore[arg-type]
            cells.drop(doc, "second answer of the same annotator to the input (the first is kept)", line=line,
                       coder=coder)
            continue
        if t["answer"] == "ignore":
            cells.cell(doc, coder, "skipped", line=line)  # type: ignore[arg-type]
            continue
        if t["answer"] == "reject":
            rejected += 1
            cells.cell(doc, coder, "skipped", line=line)  # type: ignore[arg-type]
            continue
        mine = []
        for sp in t.get("spans") or []:
            kw = {"record": doc, "line": line, "field": "spans", "coder": coder}
            if not isinstance(sp, dict) or "label" not in sp:
                raise fail(TOOL, _src(path, t), f"a span needs a 'label'; got {quote(sp)}", **kw)
            start, end = sp.get("start"), sp.get("end")
            ts, te = sp.get("token_start"), sp.get("token_end")
            covered = sp.get("text")
            if ts is not None and te is not None and tok_offsets is not None:
                if not (isinstance(ts, int) and isinstance(te, int) and 0 <= ts <= te < len(tok_offsets)):
                    raise fail(TOOL, _src(path, t),
                               f"token offsets [{ts}, {te}] lie outside the {plural(len(tok_offsets), 'token')}", **kw)
                if start is None and end is None:
                    start, end = tok_offsets[ts][0], tok_offsets[te][1]
                elif (start, end) != (tok_offsets[ts][0], tok_offsets[te][1]):
                    raise fail(TOOL, _src(path, t), f"character offsets [{start}, {end}) disagree with token offsets "
                               f"[{ts}, {te}] ({tok_offsets[ts][0]}-{tok_offsets[te][1]})", **kw)
                elif isinstance(covered, str) and isinstance(start, int) and isinstance(end, int) \
                        and 0 <= start <= end <= len(text) and text[start:end] != covered:
                    # offsets and tokens agree, the "text" key does not: a stale text kept from the input (a
                    # model's pre-annotation, then snapped to the tokens in the manual interface), not the span
                    stale.append(f"{quote(covered)} for {quote(text[start:end])}")
                    covered = None
            s, e, _ = reanchor_span(TOOL, path, text, start, end, covered=covered, utf16=False, **kw)
            mine.append(Span(doc, s, e, str(sp["label"]), coder, text=text[s:e]))  # type: ignore[arg-type]
        spans.extend(mine)
        if relations:
            rels += prodigy_relations(_src(path, t), t, doc, coder, tok_offsets, line=line)  # type: ignore[arg-type]
        cells.cell(doc, coder, "annotated" if mine else "empty", line=line)  # type: ignore[arg-type]
    if rejected:
        cells.notes.append(f"{plural(rejected, 'rejected task')} of a manual interface read as skipped")
    if stale:
        cells.notes.append(f"{plural(len(stale), 'span')} whose 'text' is not the document's at offsets their "
                           f"tokens confirm read by the offsets and tokens, as Prodigy shows them (e.g. "
                           f"{', '.join(stale[:3])})")
    seen = [(str(i), c) for (i, c), s in cells.cells.items() if s in ("annotated", "empty")]
    try:
        sa = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, tokens=tokens or None, source=str(path))
    except AccordError as exc:
        raise fail(TOOL, path, str(exc)) from None
    if relations:
        from accord.data._relations import RelationAnnotations

        return Imported(tool=TOOL, field="spans", kind="relations", annotations=None, spans=sa, report=cells.report(),
                        relations=RelationAnnotations.from_relations(rels, spans=sa))
    return Imported(tool=TOOL, field="spans", kind="spans", annotations=None, spans=sa, report=cells.report())


def _read_text(path: Path, cells: Cells, field: str, tasks: list[tuple[int, dict[str, Any]]]) -> Imported:
    """Typed text: the ``text_input`` interface stores the text under its ``field_id`` key of the task
    (https://prodi.gy/docs/api-interfaces#text_input); a task without it, or with blank text, is *empty*."""
    from accord.importers._answers import text_answer

    rejected = 0
    for _, t in tasks:
        cells.item(t["_input_hash"])
    for line, t in tasks:
        coder = _coder(t, path, line)
        unit = t["_input_hash"]
        if cells.has(unit, coder):
            cells.drop(unit, "second answer of the same annotator to the input (the first is kept)", line=line,
                       coder=coder)
            continue
        if t["answer"] in ("ignore", "reject"):
            rejected += t["answer"] == "reject"
            cells.cell(unit, coder, "skipped", line=line)
            continue
        text = text_answer(TOOL, _src(path, t), t.get(field), {"record": unit, "line": line, "field": field,
                                                                "coder": coder})
        cells.cell(unit, coder, "empty" if text is None else "annotated", text, line=line)
    if rejected:
        cells.notes.append(f"{plural(rejected, 'rejected task')} read as skipped (a reject flags the task)")
    return cells.imported(field, "text")
