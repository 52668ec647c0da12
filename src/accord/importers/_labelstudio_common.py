"""What Label Studio's JSON and JSON-MIN readers share: the tool's name, the JSON types of a region's value, the
notes on spans and the spans' result.

Not public: :func:`accord.importers.read_export` (``tool="label-studio"``) is the API.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord._shared.errors import plural
from accord.importers import Imported
from accord.importers._common import Cells, TextCheck, fail, reanchor_span

__all__ = ["BUCKETS_NOTE", "TOOL", "VALUE", "region_span", "span_notes", "spans_result"]

TOOL = "label-studio"
#: The note on a Ranker with buckets (:func:`accord.importers._answers.label_studio_buckets`).
BUCKETS_NOTE = ("Ranker {name} sorts items into buckets: each answer read as the set of (bucket, item) pairs "
                "placed (buckets have no order; the items left in the list are placed nowhere)")
#: A region's value, per key (``choices``, ``labels``...: https://labelstud.io/tags/).
VALUE = {"choices": "list of label", "labels": "list of label", "taxonomy": "list of list|label",
          "rating": "number", "number": "number", "start": "integer", "end": "integer"}

def region_span(path: Path, text: str, region: Any, *, index: Any, check: TextCheck, label: Any, kw: dict[str, Any]
                ) -> tuple[int, int, list[str], int]:
    """A labels region's offsets re-anchored in *text* (UTF-16, as Label Studio counts), its labels (*label*
    tidies each; a region with none is refused) and the re-anchorings it took: ``(start, end, labels, fallbacks)``.
    *region* is the region's value (JSON) or the JSON-MIN region object; *kw* places it in messages."""
    s, e, fb = reanchor_span(TOOL, path, text, region.get("start"), region.get("end"), covered=region.get("text"),
                             utf16=True, index=index, check=check, **kw)
    labels = [str(label(x)) for x in region.get("labels") or []]
    if not labels:
        raise fail(TOOL, path, "a labels region has no label", **kw)
    return s, e, labels, fb


def span_notes(cells: Cells, fallbacks: int, check: TextCheck, repeats: list[str]) -> None:
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


def spans_result(path: Path, cells: Cells, name: str, spans: list[Any], texts: dict[str, str]) -> Imported:
    from accord.data._spans import SpanAnnotations

    seen = [(str(i), c) for (i, c), s in cells.cells.items() if s in ("annotated", "empty")]
    sa = SpanAnnotations.from_spans(spans, texts=texts, seen=seen, source=str(path))
    return Imported(tool=cells.tool, field=name, kind="spans", annotations=None, spans=sa, report=cells.report())
