"""The alignment of relation arguments: which spans of different coders stand for the same argument.

Every span of every coder gets a *position* (an integer): spans at one position are the same argument
for the measures. Positions are numbered in the order of the text (document, then the first start and
end of their spans), so that a pair of positions has a first and a second argument.

- ``exact``: spans with the same offsets (every fragment) are at one position, whoever marked them;
- ``overlap``: spans that share a code point are aligned one to one, each coder's span to at most one
  span of each other coder, choosing the alignment that overlaps most (gamma's best alignment under the
  dissimilarity 1 - overlap / union, with spans that share nothing never aligned);
- ``gamma``: gamma's best alignment under its positional dissimilarity (Mathet et al. 2015), which may
  align spans that are near without overlapping.

With *labels* (the default) spans of different labels are never at one position; without, the labels
play no part. A span a coder marked twice is one argument of theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np

from accord.data._spans import Span, SpanAnnotations
from accord.spans._gamma.dissimilarity import Dissimilarity, PairFunction, PositionalDissimilarity

__all__ = ["MATCHES", "Alignment", "align_arguments"]

#: The ways of aligning the arguments.
MATCHES = ("exact", "overlap", "gamma")
_FAR = 1e9  # the dissimilarity of two spans that share nothing, under ``overlap``: never aligned


class _OverlapDissimilarity(Dissimilarity):
    """1 - overlap / union for spans that share a code point (0 for equal spans), far beyond any gain otherwise."""

    def __init__(self) -> None:
        self.delta_empty = 1.0
        self.categories = None

    def bind(self, categories: Sequence[str]) -> PairFunction:
        def f(s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
              c2: np.ndarray) -> np.ndarray:
            inter = np.minimum(e1, e2) - np.maximum(s1, s2)
            union = np.maximum(e1, e2) - np.minimum(s1, s2)
            same = (s1 == s2) & (e1 == e2)
            with np.errstate(divide="ignore", invalid="ignore"):
                d = 1.0 - inter / union
            return np.where(same, 0.0, np.where(inter > 0, d, _FAR))

        return f

    def reach(self, bound: float) -> float | None:
        # two spans that share a code point have |s1 - s2| + |e1 - e2| < l1 + l2
        return 1.0 if bound < _FAR else None

    def describe(self) -> str:
        return "overlap (1 - overlap / union)"


class Alignment:
    """The position of every span of every coder.

    Attributes
    ----------
    spans_at : list of list of Span
        The spans at each position, in position order (identical spans of one coder share one position).
    document : list of str
        Each position's document.
    """

    def __init__(self, spans_at: list[list[Span]], *, exact_labels: bool | None = None,
                 flat: tuple[list[Span], np.ndarray, list[str]] | None = None) -> None:
        self.spans_at = spans_at
        if flat is None:
            self._flat = list(chain.from_iterable(spans_at))
            self._flat_position = np.repeat(np.arange(len(spans_at), dtype=np.int64), list(map(len, spans_at)))
            self.document = [g[0].document for g in spans_at]
        else:  # the spans in position order, the position of each, each position's document
            self._flat, self._flat_position, self.document = flat
        # by identity first (the relations' arguments are most often the very spans held): no hashing of spans
        self._by_id = dict(zip(map(id, self._flat), self._flat_position.tolist(), strict=True))
        self._by_value: dict[Any, int] | None = None
        self._exact_labels = exact_labels  # with exact offsets, equal spans' position follows from their key

    def _key(self, s: Span) -> Any:
        if self._exact_labels is None:
            return s
        return (s.document, s.start, s.end, s.fragments, s.label if self._exact_labels else "")

    def of(self, span: Span) -> int:
        """The position of *span* (a span of the data, or one equal to it)."""
        p = self._by_id.get(id(span))
        if p is None:
            if self._by_value is None:
                if self._exact_labels is None:
                    self._by_value = dict(zip(self._flat, self._flat_position.tolist(), strict=True))
                else:
                    self._by_value = {self._key(g[0]): q for q, g in enumerate(self.spans_at)}
            p = self._by_value[self._key(span)]
        return p

    def positions(self, spans: Sequence[Span]) -> np.ndarray:
        """The position of each of *spans*, as an array (:meth:`of` for each)."""
        out = list(map(self._by_id.get, map(id, spans)))
        if None in out:
            out = [self.of(s) if p is None else p for p, s in zip(out, spans, strict=True)]
        return np.array(out, dtype=np.int64)

    def marked_matrix(self, coders: Sequence[str]) -> np.ndarray:
        """``m[c, p]``: whether ``coders[c]`` (who must name every coder of the spans) marked a span at p."""
        index = {c: k for k, c in enumerate(coders)}
        m = np.zeros((len(coders), len(self.spans_at)), dtype=bool)
        who = np.fromiter(map(index.__getitem__, map(attrgetter("coder"), self._flat)), dtype=np.int64,
                          count=len(self._flat))
        m[who, self._flat_position] = True
        return m

    def describe(self, p: int) -> str:
        """``[0, 5) 'PER'`` for the first span at *p*, as messages and tables show a position."""
        s = self.spans_at[p][0]
        return f"[{s.start}, {s.end}) {s.label!r}"


def _groups_gamma(spans: list[Span], annotators: list[str], dissimilarity: Dissimilarity,
                  document: str) -> list[list[Span]]:
    from accord.spans._gamma.alignment import best_alignment
    from accord.spans._gamma.model import Continuum

    coders = sorted({s.coder for s in spans})
    if len(coders) < 2 or len(annotators) < 2:
        return [[s] for s in spans]
    c = Continuum.from_arrays(document, annotators, [s.coder for s in spans], [s.start for s in spans],
                              [s.end for s in spans], ["x"] * len(spans), list(range(len(spans))))
    sol = best_alignment(c, dissimilarity, alignment="auto")
    out = []
    for row in sol.tuples:
        out.append([spans[int(c.unit_id[i])] for i in row if i >= 0])
    return out


def align_arguments(data: SpanAnnotations, *, match: str = "exact", labels: bool = True) -> Alignment:
    """Give every span of *data* its position (see the module); identical spans of one coder share one.

    Examples
    --------
    >>> sa = SpanAnnotations.from_spans([Span("d", 0, 5, "PER", "a"), Span("d", 1, 5, "PER", "b"),
    ...                                  Span("d", 9, 12, "ORG", "a")])
    >>> al = align_arguments(sa, match="overlap")
    >>> [[s.coder for s in g] for g in al.spans_at]
    [['a', 'b'], ['a']]
    >>> len(align_arguments(sa).spans_at)
    3
    """
    if match == "exact":
        return _exact(data.spans, labels)
    return Alignment(_aligned(data, match, labels))


def _ranks(keys: Sequence[Any]) -> np.ndarray:
    """The rank of each key among the distinct keys, in their sorted order."""
    table = {k: r for r, k in enumerate(sorted(set(keys)))}
    return np.fromiter(map(table.__getitem__, keys), dtype=np.int64, count=len(keys))


def _exact(spans: Sequence[Span], labels: bool) -> Alignment:
    """The spans grouped by (document, start, end, fragments, label), groups in the order of those keys and each
    group's spans in their order in *spans*: identical spans of one coder share their key, hence their position."""
    if not spans:
        return Alignment([], exact_labels=labels)
    n = len(spans)
    document, start, end, fragments, label = zip(*map(attrgetter("document", "start", "end", "fragments", "label"),
                                                       spans), strict=True)
    doc_rank = _ranks(document)
    cols = [_ranks(label) if labels else np.zeros(n, dtype=np.int64), _ranks(fragments),
            np.array(end, dtype=np.int64), np.array(start, dtype=np.int64), doc_rank]
    order = np.lexsort(cols)  # stable: a group keeps the spans' order
    ordered = np.stack([c[order] for c in cols])
    new = np.r_[True, (ordered[:, 1:] != ordered[:, :-1]).any(axis=0)]
    cuts = np.flatnonzero(new).tolist()
    in_order = list(map(spans.__getitem__, order.tolist()))
    groups = [in_order[lo:hi] for lo, hi in zip(cuts, [*cuts[1:], n], strict=True)]
    docs = sorted(set(document))
    return Alignment(groups, exact_labels=labels,
                     flat=(in_order, np.cumsum(new) - 1, [docs[k] for k in ordered[4, new].tolist()]))


def _aligned(data: SpanAnnotations, match: str, labels: bool) -> list[list[Span]]:
    """The groups of aligned spans under gamma's best alignment (``overlap`` or ``gamma``), in text order."""
    seen: dict[str, list[str]] = {}
    for d, c in data.seen:
        seen.setdefault(d, []).append(c)
    by_part: dict[tuple[str, ...], list[Span]] = {}
    for s in dict.fromkeys(data.spans):
        by_part.setdefault((s.document, s.label) if labels else (s.document,), []).append(s)
    dissimilarity: Dissimilarity = _OverlapDissimilarity() if match == "overlap" else PositionalDissimilarity()
    groups: list[list[Span]] = []
    for key in sorted(by_part):
        groups.extend(_groups_gamma(by_part[key], sorted(seen.get(key[0], ())), dissimilarity, key[0]))
    for g in groups:
        g.sort(key=lambda s: (s.coder, s.start, s.end, s.label))
    groups.sort(key=lambda g: (g[0].document, min(s.start for s in g), min(s.end for s in g),
                               min(s.label for s in g), g[0].coder))
    return groups
