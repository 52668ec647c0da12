r"""Best alignments of many small continua at once: a corpus's documents, and each chance sample's.

A document of ten units is cheap to align and dear to set up: the exact
alignment of one (:mod:`accord.spans._gamma.alignment`) costs about a
millisecond whatever its size, in some five hundred numpy calls and a linear
program, and gamma aligns every document once more for each of its 30 or more
chance samples.  So documents with the same annotators are aligned together,
a *batch* at a time: their units make one program in which pairs are priced
within a document only, so that no candidate unitary alignment mixes two
documents.  The program then separates by document and its optimum is every
document's best alignment: the disorders are those of aligning each document
alone, and so are the alignments, but for which of several equally good ones
is returned.

A document is aligned alone when it is large (it pays its own set-up), when
the alignment asked is windowed, when its dissimilarity is not one of
accord's (a user's may read the categories of the whole continuum), or when
its batch would hold more candidates than the listed program takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from accord._shared.errors import AccordError
from accord.spans._gamma.alignment import (
    _EXPLICIT,
    _LISTED,
    _MATCHING,
    DEFAULT_MAX_CANDIDATES,
    DEFAULT_WINDOW,
    AlignmentSolution,
    align,
)
from accord.spans._gamma.bipartite import _matching
from accord.spans._gamma.candidates import CandidateLimit, Neighbours, grow, neighbours
from accord.spans._gamma.dissimilarity import (
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Dissimilarity,
    PairFunction,
    PositionalDissimilarity,
)
from accord.spans._gamma.model import Continuum
from accord.spans._gamma.partition import _listed, _row_max

__all__ = ["align_many", "batches"]

_BATCH_DOC = 150  # a document of more units is aligned alone
_BATCH_UNITS = {2: 1000, 3: 800, 4: 300}  # units in a batch, by number of annotators
_BATCH_UNITS_MANY = 200  # from five annotators on (their candidates grow fastest)


@dataclass(frozen=True, eq=False)
class _Batch(Continuum):
    """The units of several continua with the same annotators, as one (sorted by annotator, document, unit)."""

    doc: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # per unit, its continuum in parts
    local: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # per unit, its index there
    parts: tuple[Continuum, ...] = ()

    def describe_unit(self, i: int) -> str:
        return self.parts[int(self.doc[i])].describe_unit(int(self.local[i]))


def _merge(cs: Sequence[Continuum]) -> _Batch:
    cats = tuple(sorted({x for c in cs for x in c.categories}))
    code = {x: i for i, x in enumerate(cats)}
    sizes = np.array([len(c) for c in cs], dtype=np.int64)
    doc = np.repeat(np.arange(len(cs), dtype=np.int64), sizes)
    local = np.concatenate([np.arange(len(c), dtype=np.int64) for c in cs])
    ann = np.concatenate([c.annotator for c in cs])
    cat = np.concatenate([np.array([code[x] for x in c.categories], dtype=np.int64)[c.category] for c in cs])
    order = np.lexsort((local, doc, ann))
    return _Batch(document=", ".join(c.document for c in cs), annotators=cs[0].annotators, categories=cats,
                  annotator=ann[order], start=np.concatenate([c.start for c in cs])[order],
                  end=np.concatenate([c.end for c in cs])[order], category=cat[order],
                  unit_id=np.concatenate([c.unit_id for c in cs])[order], doc=doc[order], local=local[order],
                  parts=tuple(cs))


def _neighbours(m: _Batch, f: PairFunction, delta_empty: float, reach: float | None) -> Neighbours:
    """:func:`~accord.spans._gamma.candidates.neighbours` within each document of the batch.

    A unit's window among another annotator's units is cut to its own
    document's; the positional window is searched on positions shifted apart
    by document, widened a little for the rounding of the shift (a wider window
    prices more pairs, the dominance bound leaving out the same ones).
    """
    k = len(m.parts)
    bounds = np.searchsorted(m.annotator * k + m.doc, np.arange(m.n_annotators * k + 1))  # annotator a, doc j: a*k+j
    windowed = reach is not None and np.isfinite(reach) and len(m) > 0
    if windowed:
        lo0 = float(m.start.min())
        span = float(m.end.max()) - lo0 + 1.0
        key = (m.start - lo0) + m.doc * span  # increasing within an annotator
        slack = 1e-9 * (k * span + 1.0)

    def windows(la: int, ha: int, lb: int, hb: int) -> tuple[np.ndarray, np.ndarray]:
        b = int(m.annotator[lb])
        da = m.doc[la:ha]
        lo, hi = bounds[b * k + da], bounds[b * k + da + 1]
        if windowed:
            half = reach * ((m.end[la:ha] - m.start[la:ha]) + float((m.end[lb:hb] - m.start[lb:hb]).max())) + slack
            ka, kb = key[la:ha], key[lb:hb]
            lo = np.maximum(np.searchsorted(kb, ka - half, side="left") + lb, lo)
            hi = np.maximum(np.minimum(np.searchsorted(kb, ka + half, side="right") + lb, hi), lo)
        return lo, hi

    return neighbours(m, f, delta_empty, reach, windows)


def _solve(m: _Batch, dissimilarity: Dissimilarity, max_candidates: int) -> list[AlignmentSolution] | None:
    """Each document's exact best alignment, or None when the batch holds too many candidates for one program."""
    f = dissimilarity.bind(m.categories)
    n, k, n_units = m.n_annotators, len(m.parts), len(m)
    p = n * (n - 1) // 2
    de = dissimilarity.delta_empty
    g = _neighbours(m, f, de, dissimilarity.reach((n - 1 + p) * de))
    if n == 2 and _MATCHING:
        t, d, _ = _matching(g, n_units, de)
        ok = g.dist < 2 * de
        held = np.bincount(m.doc[g.keys[ok] // g.big], minlength=k) + np.bincount(m.doc, minlength=k)
    else:
        tuples, cost = grow(m, g, de, max_rows=min(max_candidates, _EXPLICIT))
        if len(tuples) > _LISTED:
            return None
        dis = cost / p
        pick = _listed(tuples, dis, n_units, de)
        t, d = tuples[pick], dis[pick]
        held = np.bincount(m.doc[_row_max(tuples)], minlength=k)
    # each document's unitary alignments in the order align gives them: by first start, then last unit (the
    # batch keeps each document's units in their order, so its indices order them as the document's do)
    covered = t[t >= 0]
    if len(covered) != n_units or np.any(np.bincount(covered, minlength=n_units) != 1):
        raise AccordError(f"documents {m.document}: the alignment program did not return a partition of the units")
    last = _row_max(t)
    first = np.full(len(t), np.inf)
    for a in range(n):
        np.minimum(first, np.where(t[:, a] >= 0, m.start[t[:, a]], np.inf), out=first)
    which = m.doc[last]
    order = np.lexsort((last, first, which))
    t, d, which = t[order], d[order], which[order]
    cut = np.searchsorted(which, np.arange(k + 1))
    t = np.where(t >= 0, m.local[np.maximum(t, 0)], -1)
    out = []
    for j, c in enumerate(m.parts):
        dj = d[cut[j]:cut[j + 1]]
        total = float(np.sum(dj))
        out.append(AlignmentSolution(t[cut[j]:cut[j + 1]], dj, total, total / c.mean_units, int(held[j])))
    return out


def _names_only(d: Dissimilarity) -> bool:
    """Whether *d*'s pair function reads each category by its name alone (accord's dissimilarities do)."""
    if isinstance(d, CombinedDissimilarity):
        return type(d) is CombinedDissimilarity and _names_only(d.positional) and _names_only(d.categorical)
    return type(d) in (PositionalDissimilarity, CategoricalDissimilarity)


def batches(conts: Sequence[Continuum], dissimilarity: Dissimilarity, alignment: str = "exact") -> list[list[int]]:
    """The continua's indices grouped as :func:`align_many` aligns them: batches, and continua alone (one index)."""
    out: list[list[int]] = []
    groups: dict[tuple[str, ...], list[int]] = {}
    together = alignment != "windowed" and _names_only(dissimilarity)
    for i, c in enumerate(conts):
        if together and 0 < len(c) <= _BATCH_DOC:
            groups.setdefault(c.annotators, []).append(i)
        else:
            out.append([i])
    for anns, idx in groups.items():
        cap = _BATCH_UNITS.get(len(anns), _BATCH_UNITS_MANY)
        batch: list[int] = []
        size = 0
        for i in idx:
            if batch and size + len(conts[i]) > cap:
                out.append(batch)
                batch, size = [], 0
            batch.append(i)
            size += len(conts[i])
        out.append(batch)
    return out


def align_many(conts: Sequence[Continuum], dissimilarity: Dissimilarity, alignment: str = "exact",
               window: int = DEFAULT_WINDOW, max_candidates: int = DEFAULT_MAX_CANDIDATES,
               ) -> list[tuple[AlignmentSolution, str | None]]:
    """:func:`~accord.spans._gamma.alignment.align` for each continuum, small ones in batches (see the module).

    Returns (solution, why it is windowed) per continuum, in order.

    Examples
    --------
    >>> from accord.spans._gamma.dissimilarity import CombinedDissimilarity
    >>> cs = [Continuum.from_arrays(f"d{i}", ["A", "B"], ["A", "B"], [0, i], [10, 9], ["x", "x"]) for i in (1, 2)]
    >>> [round(s.total, 6) for s, _ in align_many(cs, CombinedDissimilarity())]
    [0.012346, 0.031142]
    """
    out: list[tuple[AlignmentSolution, str | None] | None] = [None] * len(conts)
    for batch in batches(conts, dissimilarity, alignment):
        sols = None
        if len(batch) > 1:
            try:
                sols = _solve(_merge([conts[i] for i in batch]), dissimilarity, int(max_candidates))
            except CandidateLimit:
                sols = None
        if sols is None:
            for i in batch:
                out[i] = align(conts[i], dissimilarity, alignment, window, max_candidates)
        else:
            for i, s in zip(batch, sols, strict=True):
                out[i] = (s, None)
    return out  # type: ignore[return-value]
