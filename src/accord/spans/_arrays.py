"""Span annotations as numpy arrays, and the interval-overlap join the span statistics share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from accord.data._spans import SpanAnnotations

__all__ = ["SpanArrays", "fragments_overlap", "overlap_pairs", "span_arrays"]


@dataclass(frozen=True, eq=False)
class SpanArrays:
    """The spans of a :class:`SpanAnnotations` as parallel arrays of codes.

    ``document``, ``coder``, ``label`` index into ``documents``, ``coders``,
    ``labels`` (the sorted tables of the annotations); ``multi`` marks
    discontinuous spans (more than one fragment).
    """

    document: np.ndarray
    coder: np.ndarray
    label: np.ndarray
    start: np.ndarray
    end: np.ndarray
    multi: np.ndarray
    documents: tuple[str, ...]
    coders: tuple[str, ...]
    labels: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.start)


def span_arrays(data: SpanAnnotations) -> SpanArrays:
    """Intern documents, coders and labels of *data* into integer codes (one pass over the spans)."""
    documents, coders, labels = data.documents, data.coders, data.labels
    d_of = {d: i for i, d in enumerate(documents)}
    c_of = {c: i for i, c in enumerate(coders)}
    l_of = {lab: i for i, lab in enumerate(labels)}
    spans = data.spans
    n = len(spans)
    return SpanArrays(
        document=np.fromiter((d_of[s.document] for s in spans), dtype=np.int64, count=n),
        coder=np.fromiter((c_of[s.coder] for s in spans), dtype=np.int64, count=n),
        label=np.fromiter((l_of[s.label] for s in spans), dtype=np.int64, count=n),
        start=np.fromiter((s.start for s in spans), dtype=np.int64, count=n),
        end=np.fromiter((s.end for s in spans), dtype=np.int64, count=n),
        multi=np.fromiter((len(s.fragments) > 1 for s in spans), dtype=bool, count=n),
        documents=documents,
        coders=coders,
        labels=labels,
    )


def fragments_overlap(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> bool:
    """Whether two fragment lists share a code point."""
    return any(s1 < e2 and s2 < e1 for s1, e1 in a for s2, e2 in b)


def overlap_pairs(
    key_a: np.ndarray,
    start_a: np.ndarray,
    end_a: np.ndarray,
    key_b: np.ndarray,
    start_b: np.ndarray,
    end_b: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Every (i, j) with ``key_a[i] == key_b[j]`` whose intervals share a point.

    Intervals are half-open ``[start, end)``; two overlap when
    ``start_a < end_b`` and ``start_b < end_a`` (an empty interval overlaps
    nothing).  Sort-and-search: the *b* intervals are sorted by (key, start)
    and each *a* interval looks only at those starting less than the longest
    *b* interval before it, so the cost is the output size plus
    O((A + B) log B), with no A x B table.
    """
    if len(start_a) == 0 or len(start_b) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    big = np.int64(max(int(end_a.max()), int(end_b.max())) + 2)
    comp_b = key_b.astype(np.int64) * big + start_b
    order = np.argsort(comp_b, kind="stable")
    comp_sorted = comp_b[order]
    maxlen = int((end_b - start_b).max())
    base = key_a.astype(np.int64) * big
    lo = np.searchsorted(comp_sorted, base + np.maximum(start_a - maxlen + 1, 0), side="left")
    hi = np.searchsorted(comp_sorted, base + np.maximum(end_a - 1, -1), side="right")
    counts = np.maximum(hi - lo, 0)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ia = np.repeat(np.arange(len(start_a), dtype=np.int64), counts)
    offs = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    jb = order[np.repeat(lo, counts) + offs]
    keep = (key_a[ia] == key_b[jb]) & (start_a[ia] < end_b[jb]) & (start_b[jb] < end_a[ia])
    return ia[keep], jb[keep]
