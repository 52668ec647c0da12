"""Relations of the JSON exports: Label Studio ``relation`` results, Prodigy and doccano ``relations``.

**Label Studio** (JSON export; https://labelstud.io/guide/task_format, and the ``Relations`` and
``Relation`` tags, https://labelstud.io/tags/relations): a relation is a result of an annotation beside its
regions, ``{"from_id", "to_id", "type": "relation", "direction", "labels"}``. ``from_id`` and ``to_id`` are
the ``id`` of two regions of the same annotation; ``direction`` is ``right`` (from ``from_id`` to ``to_id``,
the default), ``left`` (the other way) or ``bi`` (both ways: an undirected relation); ``labels`` lists the
relation's labels (several with ``<Relations choice="multiple">``: one relation each; none: the relation is
typed ``(unlabelled)``).

**Prodigy** (``rel.manual``, https://prodi.gy/docs/api-interfaces#relations, and the saved task shown on
Prodigy's support forum, "confusion about structure of relations jsonl format"): a task's ``relations``
list holds ``{"head", "child", "head_span", "child_span", "label"}``; ``head`` and ``child`` are token
indices, ``head_span`` and ``child_span`` the spans they belong to (``start``, ``end``, ``token_start``,
``token_end``, ``label``). The relation goes from head to child. Without ``head_span``/``child_span``, the
argument is the task's span holding that token, or the token itself (labelled ``(token)``).

**doccano** (the JSONL export of a sequence-labelling project with relations, doccano 1.6 and later: the
``relation_extraction`` example of doccano's ``data_export`` pipeline, and doccano's documentation, "Export
dataset"): an example's ``entities`` are ``{"id", "label", "start_offset", "end_offset"}`` and its
``relations`` ``{"id", "from_id", "to_id", "type"}``, ``from_id`` and ``to_id`` naming entities of the same
line; the relation goes from ``from_id`` to ``to_id`` and its type is its label.

A region, entity or token id that names nothing of the annotation is an error naming the file, the record, the
annotator and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord._shared.tool_errors import fail, quote
from accord.data._relations import Relation
from accord.data._spans import Span

__all__ = ["UNLABELLED", "doccano_relations", "labelstudio_relations", "prodigy_relations"]

#: The type of a relation its tool gives no label.
UNLABELLED = "(unlabelled)"
_TOKEN = "(token)"
_DIRECTIONS = ("right", "left", "bi")


def labelstudio_relations(path: Path, results: list[dict[str, Any]], regions: dict[Any, tuple[int, int, str]],
                          doc: str, coder: str, cells: Any, *, task: Any, line: int) -> list[Relation]:
    """The relations among one Label Studio annotation's *results*.

    *regions* maps the region ids of the span control read to ``(start, end, label)``; a relation between
    regions of another control is dropped (counted in *cells*), one naming no region of the annotation is an
    error.
    """
    ids = {r.get("id") for r in results if r.get("type") != "relation" and r.get("id") is not None}
    out = []
    for r in results:
        if r.get("type") != "relation":
            continue
        kw = {"record": task, "line": line, "coder": coder}
        ends = []
        for key in ("from_id", "to_id"):
            rid = r.get(key)
            if rid is None or rid not in ids:
                raise fail("label-studio", path, f"a relation's {key} {quote(rid)} names no region of the "
                           "annotation", field=key, **kw)
            ends.append(rid)
        if ends[0] not in regions or ends[1] not in regions:
            cells.drop(task, "relation between regions of another control than the spans read (not compared)",
                       line=line, coder=coder)
            continue
        direction = r.get("direction", "right")
        if direction not in _DIRECTIONS:
            raise fail("label-studio", path, f"a relation's direction must be right, left or bi; got "
                       f"{quote(direction)}", field="direction", **kw)
        labels = r.get("labels") or []
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise fail("label-studio", path, f"a relation's labels must be a list of texts; got {quote(labels)}",
                       field="labels", **kw)
        src, tgt = ends if direction != "left" else ends[::-1]
        a, b = (Span(doc, regions[k][0], regions[k][1], regions[k][2], coder) for k in (src, tgt))
        for lab in dict.fromkeys(x.strip() for x in labels if x.strip()) or [UNLABELLED]:
            out.append(Relation(doc, coder, lab, a, b, directed=direction != "bi", id=f"{src}->{tgt}"))
    return out


def _prodigy_end(path: Path, t: dict[str, Any], rel: dict[str, Any], end: str, doc: str, coder: str,
                 tokens: list[tuple[int, int]] | None, kw: dict[str, Any]) -> Span:
    span = rel.get(f"{end}_span")
    if isinstance(span, dict):
        s, e = span.get("start"), span.get("end")
        if not (isinstance(s, int) and isinstance(e, int) and 0 <= s <= e <= len(t["text"])):
            raise fail("prodigy", path, f"a relation's {end}_span needs integer start and end within the text; got "
                       f"{quote(span)}", field=f"relations.{end}_span", **kw)
        label = str(span.get("label") or "").strip()  # as the task's spans are read: without surrounding spaces
        return Span(doc, s, e, label or _TOKEN, coder)
    k = rel.get(end)
    if not isinstance(k, int) or tokens is None or not 0 <= k < len(tokens):
        raise fail("prodigy", path, f"a relation's {end} {quote(k)} names no token of the task (and it has no "
                   f"{end}_span)", field=f"relations.{end}", **kw)
    for sp in t.get("spans") or []:
        ts, te = sp.get("token_start"), sp.get("token_end")
        if isinstance(ts, int) and isinstance(te, int) and ts <= k <= te < len(tokens):
            s, e = sp.get("start"), sp.get("end")  # null when the span gives its tokens only
            return Span(doc, s if isinstance(s, int) else tokens[ts][0], e if isinstance(e, int) else tokens[te][1],
                        str(sp.get("label") or _TOKEN).strip(), coder)
    return Span(doc, tokens[k][0], tokens[k][1], _TOKEN, coder)


def prodigy_relations(path: Path, t: dict[str, Any], doc: str, coder: str, tokens: list[tuple[int, int]] | None,
                      *, line: int) -> list[Relation]:
    """The relations of one Prodigy task (from head to child)."""
    rels = t.get("relations") or []
    kw = {"record": doc, "line": line, "coder": coder}
    if not isinstance(rels, list):
        raise fail("prodigy", path, f"'relations' must be a list; got {quote(rels)}", field="relations", **kw)
    out = []
    for rel in rels:
        if not isinstance(rel, dict):
            raise fail("prodigy", path, f"each relation must be an object; got {quote(rel)}", field="relations", **kw)
        label = rel.get("label")
        head = _prodigy_end(path, t, rel, "head", doc, coder, tokens, kw)
        child = _prodigy_end(path, t, rel, "child", doc, coder, tokens, kw)
        out.append(Relation(doc, coder, str(label).strip() if label and str(label).strip() else UNLABELLED, head,
                            child, id=f"{rel.get('head')}->{rel.get('child')}"))
    return out


def doccano_relations(path: Path, rels: Any, entities: dict[Any, Span], doc: str, coder: str, *,
                      line: int) -> list[Relation]:
    """The relations of one doccano example (from ``from_id`` to ``to_id``); *entities* maps the example's entity
    ids to their spans."""
    kw = {"record": doc, "line": line, "coder": coder}
    if not isinstance(rels, list):
        raise fail("doccano", path, f"'relations' must be a list; got {quote(rels)}", field="relations", **kw)
    out = []
    for i, rel in enumerate(rels):
        if not isinstance(rel, dict):
            raise fail("doccano", path, f"each relation must be an object; got {quote(rel)}", field="relations",
                       **kw)
        ends = []
        for key in ("from_id", "to_id"):
            eid = rel.get(key)
            if isinstance(eid, bool) or not isinstance(eid, (int, str)) or eid not in entities:
                raise fail("doccano", path, f"a relation's {key} {quote(eid)} names no entity of the example",
                           field=f"relations[{i}].{key}", **kw)
            ends.append(entities[eid])
        label = rel.get("type")
        label = str(label).strip() if label is not None and str(label).strip() else UNLABELLED
        out.append(Relation(doc, coder, label, ends[0], ends[1], id=str(rel.get("id", i))))
    return out
