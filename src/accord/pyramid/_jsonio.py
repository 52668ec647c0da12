"""A plain JSON form of pyramids and peer annotations (schema: ``pyramid.schema.json``).

A pyramid::

    {"format": "accord-pyramid", "version": 1, "name": "...", "text": "...",
     "start_regex": null, "models": [{"name": "model 1", "start": 0, "end": 120}, ...],
     "scus": [{"id": 1, "label": "...", "contributors": [{"label": "...", "spans": [[s, e], ...]}]}]}

A peer annotation::

    {"format": "accord-peer-annotation", "version": 1, "name": "...", "text": "...",
     "pses": [{"scu_id": 3, "label": "...", "spans": [[s, e]]}, ...], "pyramid": {...} | null}

Offsets are 0-based, end-exclusive character offsets into ``text``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from accord._shared.decode import read_utf8
from accord._shared.errors import AccordError
from accord._shared.output import write_output
from accord.pyramid._model import PSE, SCU, Contributor, ModelSummary, PeerAnnotation, Pyramid, Span

__all__ = [
    "SCHEMA_PATH",
    "load_schema",
    "peer_annotation_from_json",
    "peer_annotation_to_json",
    "pyramid_from_json",
    "pyramid_to_json",
    "read_json",
    "write_json",
]

#: The JSON Schema (draft 2020-12) of both forms.
SCHEMA_PATH = Path(__file__).with_name("pyramid.schema.json")


def load_schema() -> dict[str, Any]:
    """The JSON Schema describing the two forms."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _spans(spans: Any) -> list[list[int]]:
    return [[int(s.start), int(s.end)] for s in spans]


def pyramid_to_json(pyramid: Pyramid) -> dict[str, Any]:
    """The JSON form of a pyramid (a dict ready for :func:`json.dumps`).

    Examples
    --------
    >>> p = Pyramid.from_models(["a b", "a c"], [{"id": 1, "label": "a", "contributors": [
    ...     {"model": 0, "parts": ["a"]}, {"model": 1, "parts": ["a"]}]}])
    >>> pyramid_from_json(pyramid_to_json(p)) == p
    True
    """
    return {
        "format": "accord-pyramid",
        "version": 1,
        "name": pyramid.name,
        "text": pyramid.text,
        "start_regex": pyramid.start_regex,
        "models": [{"name": m.name, "start": m.start, "end": m.end} for m in pyramid.models],
        "scus": [
            {"id": s.id, "label": s.label,
             "contributors": [{"label": c.label, "spans": _spans(c.spans)} for c in s.contributors]}
            for s in pyramid.scus
        ],
    }


def _need(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise AccordError(f"{where}: missing key {key!r}")
    return d[key]


def _span_list(v: Any, where: str) -> tuple[Span, ...]:
    try:
        return tuple(Span(int(s), int(e)) for s, e in v)
    except (TypeError, ValueError):
        raise AccordError(f"{where}: 'spans' must be a list of [start, end] pairs, got {v!r}") from None


def pyramid_from_json(data: dict[str, Any]) -> Pyramid:
    """Build a pyramid from its JSON form."""
    if _need(data, "format", "pyramid JSON") != "accord-pyramid":
        raise AccordError(f"pyramid JSON: 'format' must be 'accord-pyramid', got {data.get('format')!r}")
    models = tuple(
        ModelSummary(i, int(_need(m, "start", f"models[{i}]")), int(_need(m, "end", f"models[{i}]")),
                     name=m.get("name", ""))
        for i, m in enumerate(_need(data, "models", "pyramid JSON"))
    )
    scus = []
    for k, s in enumerate(_need(data, "scus", "pyramid JSON")):
        sid = _need(s, "id", f"scus[{k}]")
        contribs = tuple(
            Contributor(_span_list(_need(c, "spans", f"SCU {sid}"), f"SCU {sid}"), label=c.get("label", ""))
            for c in _need(s, "contributors", f"SCU {sid}")
        )
        scus.append(SCU(int(sid), s.get("label", ""), contribs))
    return Pyramid(text=_need(data, "text", "pyramid JSON"), models=models, scus=tuple(scus),
                   start_regex=data.get("start_regex"), name=data.get("name", ""))


def peer_annotation_to_json(peer: PeerAnnotation, *, include_pyramid: bool = True) -> dict[str, Any]:
    """The JSON form of a peer annotation (its pyramid embedded unless told otherwise)."""
    return {
        "format": "accord-peer-annotation",
        "version": 1,
        "name": peer.name,
        "text": peer.text,
        "pses": [{"scu_id": p.scu_id, "label": p.label, "spans": _spans(p.spans)} for p in peer.pses],
        "pyramid": pyramid_to_json(peer.pyramid) if include_pyramid and peer.pyramid is not None else None,
    }


def peer_annotation_from_json(data: dict[str, Any]) -> PeerAnnotation:
    """Build a peer annotation from its JSON form."""
    if _need(data, "format", "peer JSON") != "accord-peer-annotation":
        raise AccordError(
            f"peer JSON: 'format' must be 'accord-peer-annotation', got {data.get('format')!r}"
        )
    pses = tuple(
        PSE(int(_need(p, "scu_id", f"pses[{i}]")), _span_list(_need(p, "spans", f"pses[{i}]"), f"pses[{i}]"),
            label=p.get("label", ""))
        for i, p in enumerate(_need(data, "pses", "peer JSON"))
    )
    pyr = data.get("pyramid")
    return PeerAnnotation(text=_need(data, "text", "peer JSON"), pses=pses,
                          pyramid=pyramid_from_json(pyr) if pyr else None, name=data.get("name", ""))


def write_json(
    obj: Pyramid | PeerAnnotation, path: str | os.PathLike[str] | None = None, *, force: bool = False
) -> str:
    """Serialise a pyramid or peer annotation; returns the JSON text (and writes *path*).

    The file is written atomically (:func:`accord._shared.output.write_output`); an
    existing file is replaced only with ``force=True``.
    """
    if isinstance(obj, Pyramid):
        data = pyramid_to_json(obj)
    elif isinstance(obj, PeerAnnotation):
        data = peer_annotation_to_json(obj)
    else:
        raise AccordError(f"obj: must be a Pyramid or PeerAnnotation, got {type(obj).__name__}")
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if path is not None:
        write_output(path, text, force=force)
    return text


def read_json(source: str | os.PathLike[str]) -> Pyramid | PeerAnnotation:
    """Read either JSON form (from a path or a JSON string)."""
    if isinstance(source, str) and source.lstrip().startswith("{"):
        text, name = source, "<string>"
    else:
        name = str(source)
        text = read_utf8(source)[0]  # a byte-order mark dropped; bad bytes an error naming the line
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AccordError(f"file {name}: not valid JSON: {exc}") from None
    except (RecursionError, ValueError):
        raise AccordError(f"file {name}: JSON nested too deeply, or a number of more digits than Python "
                          "reads") from None
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == "accord-pyramid":
        return pyramid_from_json(data)
    if fmt == "accord-peer-annotation":
        return peer_annotation_from_json(data)
    raise AccordError(
        f"file {name}: 'format' must be 'accord-pyramid' or 'accord-peer-annotation', got {fmt!r}"
    )
