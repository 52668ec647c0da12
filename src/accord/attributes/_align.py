"""Aligning the spans of several annotators: groups of spans, at most one per annotator, that mark the same stretch.

Not public: :func:`accord.attributes.agreement` is the API.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from accord.data._spans import Span, SpanAnnotations
from accord.spans._arrays import fragments_overlap, overlap_pairs

__all__ = ["MATCHES", "Alignment", "align"]

Match = Literal["exact", "overlap"]
MATCHES: tuple[str, ...] = ("exact", "overlap")


@dataclass(frozen=True)
class Alignment:
    """Spans grouped across annotators.

    ``groups``: each a tuple of indices into ``spans`` (one span per annotator, at least two annotators);
    ``alone``: indices of spans no other annotator's span aligns with, each with its reason.
    """

    spans: tuple[Span, ...]
    groups: tuple[tuple[int, ...], ...]
    alone: tuple[tuple[int, str], ...]


UNSEEN = "no other annotator saw the document"
UNMATCHED = "no other annotator marked this span"


def _shared_documents(data: SpanAnnotations) -> set[str]:
    count: dict[str, int] = {}
    for doc, _ in data.seen:
        count[doc] = count.get(doc, 0) + 1
    return {d for d, n in count.items() if n >= 2}


def _written(s: Span) -> tuple[object, ...]:
    """A span's attributes as a sortable key (sets in order, so the key does not depend on hashing)."""
    return tuple(sorted((str(k), sorted(map(repr, v)) if isinstance(v, (set, frozenset)) else [repr(v)])
                        for k, v in s.attributes.items()))


def _tiebreaks(spans: Sequence[Span], live: list[int]) -> dict[int, tuple[object, ...]]:
    """A key per span that orders spans of one place whatever the annotators are called or the order they came
    in: the offsets and the label, then, for the copies one annotator made of one span, their attributes."""
    copies = Counter((spans[i].document, spans[i].fragments, spans[i].label, spans[i].coder) for i in live)
    out = {}
    for i in live:
        s = spans[i]
        twice = copies[(s.document, s.fragments, s.label, s.coder)] > 1
        out[i] = (s.start, s.end, s.fragments, s.label, _written(s) if twice else ())
    return out


def _common(a: tuple[tuple[int, int], ...], b: tuple[tuple[int, int], ...]) -> int:
    """Code points two fragment lists share."""
    return sum(max(0, min(e1, e2) - max(s1, s2)) for s1, e1 in a for s2, e2 in b)


def align(data: SpanAnnotations, *, match: Match = "exact", ignore_labels: bool = False) -> Alignment:
    """Group the spans of *data* across annotators (see :func:`accord.attributes.agreement` for the rules)."""
    spans = data.spans
    shared = _shared_documents(data)
    alone: list[tuple[int, str]] = []
    live = []
    for i, s in enumerate(spans):
        if s.document in shared:
            live.append(i)
        else:
            alone.append((i, UNSEEN))
    groups: list[tuple[int, ...]]
    if match == "exact":
        groups = _exact(spans, live, ignore_labels)
    else:
        groups = _overlap(spans, live, ignore_labels)
    grouped = {i for g in groups for i in g}
    alone.extend((i, UNMATCHED) for i in live if i not in grouped)
    alone.sort()
    groups.sort()
    return Alignment(spans=spans, groups=tuple(groups), alone=tuple(alone))


def _exact(spans: Sequence[Span], live: list[int], ignore_labels: bool) -> list[tuple[int, ...]]:
    """Same document, fragments (and label): the k-th copy of a span of one annotator with the k-th of another."""
    buckets: dict[tuple[object, ...], dict[str, list[int]]] = {}
    for i in live:
        s = spans[i]
        key = (s.document, s.fragments) if ignore_labels else (s.document, s.fragments, s.label)
        buckets.setdefault(key, {}).setdefault(s.coder, []).append(i)
    groups = []
    for by_coder in buckets.values():
        for v in by_coder.values():
            if len(v) > 1:  # copies of one span by one annotator: paired in the order of their attributes
                v.sort(key=lambda i: _written(spans[i]))
        depth = max(len(v) for v in by_coder.values())
        for k in range(depth):
            group = tuple(sorted(v[k] for v in by_coder.values() if k < len(v)))
            if len(group) >= 2:
                groups.append(group)
    return groups


def _overlap(spans: Sequence[Span], live: list[int], ignore_labels: bool) -> list[tuple[int, ...]]:
    """Overlapping spans of different annotators, joined greedily from the largest share of common code points.

    Candidate pairs come from the interval join :func:`accord.spans._arrays.overlap_pairs`; each is scored by
    the code points the two spans share over those either covers (their Jaccard overlap); pairs join in that
    order (ties by position, then by the spans' attributes, never by the annotators' names or the input's
    order), and two groups merge only when no annotator would hold two spans in the result.
    With two annotators this is the greedy one-to-one matching by overlap.
    """
    if not live:
        return []
    idx = np.asarray(live, dtype=np.int64)
    keys: dict[tuple[str, ...], int] = {}
    key = np.fromiter((keys.setdefault((spans[i].document,) if ignore_labels else (spans[i].document, spans[i].label),
                                       len(keys)) for i in live), dtype=np.int64, count=len(live))
    start = np.fromiter((spans[i].start for i in live), dtype=np.int64, count=len(live))
    end = np.fromiter((spans[i].end for i in live), dtype=np.int64, count=len(live))
    ea, eb = overlap_pairs(key, start, end, key, start, end)
    keep = ea < eb
    ea, eb = idx[ea[keep]], idx[eb[keep]]
    tie = _tiebreaks(spans, live)
    scored = []
    for a, b in zip(ea.tolist(), eb.tolist(), strict=True):
        sa, sb = spans[a], spans[b]
        if sa.coder == sb.coder:
            continue
        if len(sa.fragments) == 1 and len(sb.fragments) == 1:
            common = min(sa.end, sb.end) - max(sa.start, sb.start)  # the join found them overlapping
            union = max(sa.end, sb.end) - min(sa.start, sb.start)
        else:
            if not fragments_overlap(sa.fragments, sb.fragments):
                continue
            common = _common(sa.fragments, sb.fragments)
            union = sa.length + sb.length - common
        ta, tb = tie[a], tie[b]
        scored.append((-common / union, *((ta, tb) if ta <= tb else (tb, ta)), a, b))
    scored.sort(key=lambda t: t[:3])
    parent = {i: i for i in live}
    coders = {i: {spans[i].coder} for i in live}

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for *_, a, b in scored:
        ra, rb = root(a), root(b)
        if ra == rb or coders[ra] & coders[rb]:
            continue
        parent[rb] = ra
        coders[ra] |= coders.pop(rb)
    members: dict[int, list[int]] = {}
    for i in live:
        members.setdefault(root(i), []).append(i)
    return [tuple(sorted(m)) for m in members.values() if len(m) >= 2]
