r"""Candidate unitary alignments of a continuum, listed whole or priced against the dual values of a program.

A unitary alignment :math:`\breve a` holds at most one unit of each of the *n*
annotators.  In *cost units* (the disorder times :math:`P = \binom{n}{2}`) it costs

.. math:: C(\breve a) = \sum_{u, v \in \breve a} d(u, v) + \Big(P - \tbinom{k}{2}\Big)\Delta_\varnothing

with *k* its real units; a unit alone costs :math:`P\Delta_\varnothing`.

**Dominance (exact).**  Splitting :math:`\breve a` into parts changes the cost by
the dissimilarities across the parts less :math:`((m - 1)P + \text{pairs across})\Delta_\varnothing`,
so :math:`\breve a` is never in a best alignment when taking one unit *u* out
and leaving it alone costs strictly less,

.. math:: \sum_{v \in \breve a,\, v \ne u} d(u, v) > (k - 1 + P)\Delta_\varnothing,

nor when it costs more than its units alone (:math:`C > kP\Delta_\varnothing`).  Two units
more than :math:`(n - 1 + P)\Delta_\varnothing` apart therefore never share one: only the
pairs within that reach are priced (a sorted sweep when the dissimilarity
gives a positional reach), and every candidate grows from its first unit (the
*anchor*) through the anchor's neighbours, annotator by annotator.

**Pricing (exact).**  Given dual values :math:`y_u` of the units (from a linear
program over some of the candidates), the reduced cost of a candidate is
:math:`\bar c(\breve a) = C(\breve a) - \sum_{u \in \breve a} y_u`.  :func:`grow` with
``duals`` lists only the candidates with :math:`\bar c \le \theta`, pruning a partial
candidate *S* (units of the first annotators) as soon as a lower bound of the
reduced cost of every completion exceeds :math:`\theta`:

.. math:: \bar c(S \cup R) \ge \sum_{u, v \in S} d - \sum_{u \in S} y_u
          + \min_{r} \Big[\Big(P - \tbinom{|S| + r}{2}\Big)\Delta_\varnothing + \sum_{r \text{ smallest}} m_b\Big],
          \qquad m_b = \min_{w} \Big(\sum_{u \in S} d(u, w) - y_w\Big)

over the anchor's neighbours *w* in each later annotator *b* (the pairs inside
*R* are dropped, being :math:`\ge 0`).  This keeps the pricing of a dense continuum
local: a partial candidate that mixes far units is cut at its second unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown
from accord.spans._gamma.dissimilarity import PairFunction
from accord.spans._gamma.model import Continuum

__all__ = ["CandidateLimit", "Neighbours", "grow", "neighbours"]

_REL = 1e-12  # relative slack on dominance bounds (never drops a tie)


class CandidateLimit(AccordError):
    """More partial candidates than the limit allows: the exact program is not practical on this continuum."""


@dataclass(frozen=True, eq=False)
class Neighbours:
    """The priced pairs (i, j, d) of units of different annotators, i's annotator before j's, sorted by (i, j).

    Attributes
    ----------
    keys : ndarray of int
        ``i * big + j``, sorted.
    other, dist : ndarray
        j and d(i, j) in key order.
    offsets : ndarray of int
        Units of annotator a are ``offsets[a]:offsets[a + 1]``.
    big : int
    limit : float
        The dominance bound on a unit's summed dissimilarities, :math:`(n - 1 + P)\\Delta_\\varnothing`, slackened.
    """

    keys: np.ndarray
    other: np.ndarray
    dist: np.ndarray
    offsets: np.ndarray
    big: int
    limit: float

    @cached_property
    def _starts(self) -> np.ndarray:
        """``[i, b]``: where unit i's neighbours in annotator b start among the keys (b = n: where they end)."""
        q = np.arange(int(self.offsets[-1]), dtype=np.int64)[:, None] * self.big + self.offsets[None, :]
        return np.searchsorted(self.keys, q, side="left")

    def ranges(self, anchors: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
        """For each anchor, the slice of its neighbours in annotator *b*."""
        starts = self._starts
        return starts[anchors, b], starts[anchors, b + 1]

    def lookup(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """d(i, j) for aligned unit indices, i's annotator before j's: the priced value, or +inf for a pair
        left out (its dissimilarity exceeds ``limit``, so no undominated candidate holds it)."""
        q = i * self.big + j
        if len(self.keys) == 0:
            return np.full(len(q), np.inf)
        at = np.searchsorted(self.keys, q)
        np.minimum(at, len(self.keys) - 1, out=at)
        return np.where(self.keys[at] == q, self.dist[at], np.inf)


def _check(c: Continuum, d: np.ndarray, gi: np.ndarray, gj: np.ndarray) -> np.ndarray:
    d = np.asarray(d, dtype=float)
    if d.shape != gi.shape:
        raise AccordError(f"the dissimilarity returned shape {d.shape} for {len(gi)} pairs")
    bad = np.isnan(d) | (d < 0)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise AccordError(
            f"the dissimilarity of {c.describe_unit(int(gi[k]))} and {c.describe_unit(int(gj[k]))} is {shown(d[k])}; "
            "a dissimilarity must be a non-negative number"
        )
    return d


def pair_d(c: Continuum, f: PairFunction, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """d(i, j) for aligned arrays of unit indices, checked."""
    if len(i) == 0:
        return np.zeros(0)
    return _check(c, f(c.start[i], c.end[i], c.category[i], c.start[j], c.end[j], c.category[j]), i, j)


def _expand(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(row, index) for every index in ``lo[row]:hi[row]``, rows in order."""
    counts = hi - lo
    total = int(counts.sum())
    rows = np.repeat(np.arange(len(lo), dtype=np.int64), counts)
    idx = np.repeat(lo - (np.cumsum(counts) - counts), counts) + np.arange(total, dtype=np.int64)
    return rows, idx


Windows = Callable[[int, int, int, int], tuple[np.ndarray, np.ndarray]]


def neighbours(c: Continuum, f: PairFunction, delta_empty: float, reach: float | None,
               windows: Windows | None = None) -> Neighbours:
    """Every pair of units of different annotators within the dominance reach, with its dissimilarity.

    *windows* ``(la, ha, lb, hb)`` gives, for each unit ``la..ha - 1`` of one annotator, the slice ``lo:hi`` of a
    later annotator's units ``lb..hb - 1`` to price with it; by default those within *reach* (every unit when
    the dissimilarity gives none).  A wider window prices more pairs, never others: the bound leaves out the same.
    """
    n = c.n_annotators
    p = n * (n - 1) // 2
    limit = (n - 1 + p) * delta_empty * (1 + _REL)
    offsets = c.offsets
    if windows is None:
        windows = _reach_windows(c, reach)
    rows_l, lo_l, hi_l = [], [], []  # per unit i and later annotator b, the slice of b's units to price with i
    for a in range(n):
        la, ha = offsets[a], offsets[a + 1]
        for b in range(a + 1, n):
            lb, hb = offsets[b], offsets[b + 1]
            if ha == la or hb == lb:
                continue
            rows_l.append(np.arange(la, ha, dtype=np.int64))
            lo, hi = windows(la, ha, lb, hb)
            lo_l.append(lo)
            hi_l.append(hi)
    return _priced(c, f, rows_l, lo_l, hi_l, offsets, limit)


def _reach_windows(c: Continuum, reach: float | None) -> Windows:
    """The units of b within *reach* of each unit of a (by start: units are sorted by start within annotator)."""
    if reach is None or not math.isfinite(reach):
        return lambda la, ha, lb, hb: (np.full(ha - la, lb, dtype=np.int64), np.full(ha - la, hb, dtype=np.int64))

    def windows(la: int, ha: int, lb: int, hb: int) -> tuple[np.ndarray, np.ndarray]:
        sa, ea, sb, eb = c.start[la:ha], c.end[la:ha], c.start[lb:hb], c.end[lb:hb]
        half = reach * ((ea - sa) + float((eb - sb).max()))
        return np.searchsorted(sb, sa - half, side="left") + lb, np.searchsorted(sb, sa + half, side="right") + lb

    return windows


def _priced(c: Continuum, f: PairFunction, rows_l: list[np.ndarray], lo_l: list[np.ndarray], hi_l: list[np.ndarray],
           offsets: np.ndarray, limit: float) -> Neighbours:
    """The pairs (i, b) for every ``i`` of ``rows_l[k]`` and ``b`` in ``lo_l[k][i]:hi_l[k][i]`` (one list entry per
    annotator pair, in annotator order), priced, those above *limit* left out."""
    big = max(len(c), 1)
    if not rows_l:
        return Neighbours(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), offsets, big, limit)
    if len(rows_l) == 1:
        r, gj = _expand(lo_l[0], hi_l[0])
        gi = rows_l[0][r]
    else:
        r, gj = _expand(np.concatenate(lo_l), np.concatenate(hi_l))
        gi = np.concatenate(rows_l)[r]
    d = pair_d(c, f, gi, gj)
    keep = d <= limit
    gi, gj, d = gi[keep], gj[keep], d[keep]
    keys = gi * big + gj
    if len(rows_l) > 1:  # a unit's pairs with two later annotators interleave: sort by (i, j)
        order = np.argsort(keys, kind="stable")
        keys, gj, d = keys[order], gj[order], d[order]
    return Neighbours(keys, gj, d, offsets, big, limit)


def _lower_bound(g: Neighbours, annotator: np.ndarray, tup: np.ndarray, k: np.ndarray, base: np.ndarray,
                 anchor: np.ndarray, duals: np.ndarray, j: int, p: int, de: float) -> np.ndarray:
    """A lower bound of the reduced cost of every completion of each partial candidate (annotators 0..j set;
    *tup* holds a row per annotator, *k* the units of each)."""
    n = tup.shape[0]
    future = list(range(j + 1, n))
    best = base + (p - k * (k - 1) / 2.0) * de
    if not future or tup.shape[1] == 0:
        return best
    m = np.full((tup.shape[1], len(future)), np.inf)
    a_col = annotator[anchor]
    for fi, b in enumerate(future):
        lo, hi = g.ranges(anchor, b)
        rows, e = _expand(lo, hi)
        if len(rows) == 0:
            continue
        w = g.other[e]
        h = g.dist[e] - duals[w]
        for a in range(j + 1):
            x = tup[a, rows]
            sel = np.flatnonzero((x >= 0) & (a_col[rows] != a))
            if len(sel):
                h[sel] += g.lookup(x[sel], w[sel])
        counts = hi - lo
        has = np.flatnonzero(counts)
        starts = np.cumsum(counts[has]) - counts[has]
        m[has, fi] = np.minimum.reduceat(h, starts)
    m.sort(axis=1)
    cs = np.cumsum(m, axis=1)
    for r in range(1, len(future) + 1):
        kr = k + r
        best = np.minimum(best, base + (p - kr * (kr - 1) / 2.0) * de + cs[:, r - 1])
    return best


def grow(c: Continuum, g: Neighbours, delta_empty: float, *, duals: np.ndarray | None = None,
         theta: float = 0.0, max_rows: int = 20_000_000) -> tuple[np.ndarray, np.ndarray]:
    """The undominated candidates of *c* (with *duals*: those of reduced cost at most *theta*).

    Returns ``(tuples, costs)``: tuples of shape (m, n), a unit index per
    annotator or -1, and each candidate's cost in cost units (disorder times
    P).  Every candidate has at least one unit; the units alone are among them
    (unless their reduced cost exceeds *theta*).  Pair dissimilarities are read
    from *g*'s priced pairs, never computed again.  Raises :class:`CandidateLimit`
    when a stage would hold more than *max_rows* partial candidates.
    """
    n = c.n_annotators
    p = n * (n - 1) // 2
    de = delta_empty
    off = g.offsets
    lim = g.limit
    ann = c.annotator
    # partial candidates, a column each: tup[a] the unit of annotator a (-1: none), sums[a] that unit's summed
    # dissimilarity to the others, k the units, ptot the summed dissimilarities, ysum the summed duals
    tup = np.zeros((n, 0), dtype=np.int64)
    sums = np.zeros((n, 0))
    k = np.zeros(0, dtype=np.int64)
    ptot = np.zeros(0)
    ysum = np.zeros(0)
    anchor = np.zeros(0, dtype=np.int64)

    def too_many(count: int) -> None:
        if count > max_rows:
            raise CandidateLimit(
                f"document {c.document!r}: more than {max_rows:,} candidate unitary alignments at one step; "
                "the exact alignment is not practical here"
            )

    for j in range(n):
        lo_j, hi_j = off[j], off[j + 1]
        parts = [(tup, sums, k, ptot, ysum, anchor)]
        if hi_j > lo_j and len(anchor):
            lo, hi = g.ranges(anchor, j)
            rows, e = _expand(lo, hi)
            if len(rows):
                too_many(len(rows) + len(anchor))
                w = g.other[e]
                d0 = g.dist[e]
                t = tup[:, rows]
                s = sums[:, rows]
                pt = ptot[rows] + d0
                ys = ysum[rows] + (duals[w] if duals is not None else 0.0)
                an = anchor[rows]
                a_col = ann[an]
                s[a_col, np.arange(len(rows))] += d0
                s[j] = d0
                ok = np.ones(len(rows), dtype=bool)
                for b in range(j):
                    x = t[b]
                    sel = np.flatnonzero((x >= 0) & (a_col != b))
                    if len(sel) == 0:
                        continue
                    dv = g.lookup(x[sel], w[sel])
                    ok[sel[dv > lim]] = False
                    s[b, sel] += dv
                    s[j, sel] += dv
                    pt[sel] += dv
                t[j] = w
                for b in range(j + 1):
                    ok &= s[b] <= lim
                parts.append((t[:, ok], s[:, ok], k[rows][ok] + 1, pt[ok], ys[ok], an[ok]))
        if hi_j > lo_j:
            units = np.arange(lo_j, hi_j, dtype=np.int64)
            t = np.full((n, len(units)), -1, dtype=np.int64)
            t[j] = units
            parts.append((t, np.zeros((n, len(units))), np.ones(len(units), dtype=np.int64), np.zeros(len(units)),
                          duals[units] if duals is not None else np.zeros(len(units)), units))
        parts = [q for q in parts if len(q[5])]
        if len(parts) == 1:
            tup, sums, k, ptot, ysum, anchor = parts[0]
        elif parts:
            tup = np.concatenate([q[0] for q in parts], axis=1)
            sums = np.concatenate([q[1] for q in parts], axis=1)
            k = np.concatenate([q[2] for q in parts])
            ptot = np.concatenate([q[3] for q in parts])
            ysum = np.concatenate([q[4] for q in parts])
            anchor = np.concatenate([q[5] for q in parts])
        if duals is not None and len(anchor):
            lb = _lower_bound(g, ann, tup, k, ptot - ysum, anchor, duals, j, p, de)
            keep = lb <= theta
            tup, sums = tup[:, keep], sums[:, keep]
            k, ptot, ysum, anchor = k[keep], ptot[keep], ysum[keep], anchor[keep]
        too_many(len(anchor))
    cost = ptot + (p - k * (k - 1) / 2.0) * de
    keep = cost <= k * p * de * (1 + _REL)
    lim_k = (k - 1 + p) * de * (1 + _REL)
    for b in range(n):
        keep &= (tup[b] < 0) | (sums[b] <= lim_k)
    if duals is not None:
        keep &= cost - ysum <= theta
    return np.ascontiguousarray(tup[:, keep].T), cost[keep]
