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

    def __init__(self, spans_at: list[list[Span]]) -> None:
        self.spans_at = spans_at
        self.document = [g[0].document for g in spans_at]
        # by identity first (the relations' arguments are most often the very spans held): no hashing of spans
        self._by_id = {id(s): p for p, g in enumerate(spans_at) for s in g}
        self._by_value: dict[Span, int] | None = None

    def of(self, span: Span) -> int:
        """The position of *span* (a span of the data, or one equal to it)."""
        p = self._by_id.get(id(span))
        if p is None:
            if self._by_value is None:
                self._by_value = {s: q for q, g in enumerate(self.spans_at) for s in g}
            p = self._by_value[span]
        return p

    def marked(self) -> set[tuple[str, int]]:
        """Every (coder, position) where the coder marked a span."""
        return {(s.coder, p) for p, g in enumerate(self.spans_at) for s in g}

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
        by_key: dict[tuple[object, ...], list[Span]] = {}
        for s in data.spans:  # identical spans of one coder share their key, hence their position
            by_key.setdefault((s.document, s.start, s.end, s.fragments, s.label if labels else ""), []).append(s)
        groups = [by_key[k] for k in sorted(by_key)]
    else:
        groups = _aligned(data, match, labels)
    return Alignment(groups)


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
