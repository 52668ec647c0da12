"""Label Studio's per-region controls, read as the attributes of the span regions they answer about.

A control with ``perRegion="true"`` in the labelling config (Label Studio's documentation, "Per-region
labeling" of the ``Choices``, ``Rating``, ``Number``, ``TextArea`` tags) writes its answer as a result of its
own that carries the ``id`` of the region it is about. Read with ``attributes=True``, each span region takes
these answers as its attributes (:attr:`accord.spans.Span.attributes`): ``{control: value}``, a ``choices``
answer as its choice (a tuple when several are chosen), a ``rating`` or ``number`` as the number, a
``taxonomy`` answer as the tuple of its paths (``a/b``). A ``textarea`` is free text: counted, not read.

Not public: :func:`accord.importers.read_export` (``tool="label-studio", attributes=True``) is the API.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ATTRIBUTE_TYPES", "region_attributes"]

_VALUE_KEYS = {"choices": "choices", "rating": "rating", "number": "number", "taxonomy": "taxonomy"}
#: The per-region control types read as attributes (a textarea's free text is not).
ATTRIBUTE_TYPES = frozenset(_VALUE_KEYS)


def region_attributes(results: list[dict[str, Any]], span_ids: set[Any], label: Any) -> dict[Any, dict[str, Any]]:
    """``{region id: {control: value}}`` for the per-region answers among one annotation's *results*.

    *span_ids* are the ids of the span regions; *label* tidies a choice as the importer tidies labels.
    """
    out: dict[Any, dict[str, Any]] = {}
    for r in results:
        rid, kind = r.get("id"), r.get("type")
        key = _VALUE_KEYS.get(str(kind))
        if rid not in span_ids or key is None:
            continue
        raw = (r.get("value") or {}).get(key)
        if kind == "choices":
            chosen = tuple(str(label(c)) for c in raw or ())
            value: Any = chosen[0] if len(chosen) == 1 else (chosen or None)
        elif kind == "taxonomy":
            paths = tuple("/".join(map(str, p)) for p in raw or () if isinstance(p, list))
            value = paths or None
        else:
            value = raw
        if value is not None:
            out.setdefault(rid, {})[str(r.get("from_name"))] = value
    return out
