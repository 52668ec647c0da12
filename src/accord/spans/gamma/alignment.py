r"""The best alignment of a continuum, exact: candidate unitary alignments pruned by :math:`\Delta_\varnothing`,
then a set-partitioning program solved by HiGHS (:func:`scipy.optimize.milp`).

A unitary alignment takes at most one unit of each of the *n* annotators (the
others contribute the empty unit).  Its disorder is the mean over the
:math:`\binom{n}{2}` annotator pairs of the pair's dissimilarity, a pair with
an empty unit costing :math:`\Delta_\varnothing` (Mathet et al. 2015, section 4.3):

.. math:: \delta(\breve a) = \binom{n}{2}^{-1}\Big(\sum_{u, v \in \breve a} d(u, v)
          + \big(\tbinom{n}{2} - \tbinom{k}{2}\big)\Delta_\varnothing\Big)

with *k* the number of real units.  A unit alone costs :math:`\Delta_\varnothing`.
The best alignment partitions the units into unitary alignments of least total
disorder; the continuum's disorder is that total over the mean number of units
per annotator.

Pruning (exact).  A unitary alignment is never in a best alignment when taking
one unit *u* out of it and leaving *u* alone costs strictly less, that is when

.. math:: \sum_{v \in \breve a,\, v \ne u} d(u, v) > \big(k - 1 + \tbinom{n}{2}\big)\Delta_\varnothing,

nor when it costs more than all its units left alone (:math:`\delta > k\Delta_\varnothing`,
the bound of section 5.1.1).  So two units more than
:math:`(n - 1 + \binom{n}{2})\Delta_\varnothing` apart never share one: only pairs
within that reach are priced (found by a sorted sweep when the dissimilarity
gives a positional reach), and candidates are grown annotator by annotator
from them, every partial candidate whose running sums pass the bound being
dropped.  What remains is solved as a set partition, one component of units
that share candidates at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from accord.errors import AccordError
from accord.spans.gamma.dissimilarity import Dissimilarity, PairFunction
from accord.spans.gamma.model import Continuum

__all__ = ["AlignmentSolution", "best_alignment", "candidate_alignments"]

_REL = 1e-12  # relative slack on pruning bounds (never drops a tie)
_MAX_CANDIDATES = 20_000_000


@dataclass(frozen=True, eq=False)
class AlignmentSolution:
    """A partition of a continuum's units into unitary alignments.

    Attributes
    ----------
    tuples : ndarray of int, shape (m, n)
        Row = unitary alignment, column = annotator, value = unit index into
        the continuum's arrays, -1 for the empty unit.
    disorders : ndarray of float, shape (m,)
        Each unitary alignment's disorder.
    total : float
        Sum of ``disorders``.
    disorder : float
        ``total`` over the mean number of units per annotator (NaN with no unit).
    n_candidates : int
        Candidate unitary alignments the program chose among.
    """

    tuples: np.ndarray
    disorders: np.ndarray
    total: float
    disorder: float
    n_candidates: int


def _pairs_between(c: Continuum, a: int, b: int, f: PairFunction, reach: float | None, bound: float,
                   offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global (i, j, d) for units i of annotator a, j of annotator b (a < b) with d(i, j) <= bound."""
    la, ha, lb, hb = offsets[a], offsets[a + 1], offsets[b], offsets[b + 1]
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    if ha == la or hb == lb:
        return empty
    sa, ea, sb, eb = c.start[la:ha], c.end[la:ha], c.start[lb:hb], c.end[lb:hb]
    if reach is not None and math.isfinite(reach):
        lmax = float((eb - sb).max())
        half = reach * ((ea - sa) + lmax)
        lo = np.searchsorted(sb, sa - half, side="left")  # sb sorted (units sorted by start within annotator)
        hi = np.searchsorted(sb, sa + half, side="right")
        counts = hi - lo
        total = int(counts.sum())
        if total == 0:
            return empty
        ii = np.repeat(np.arange(ha - la, dtype=np.int64), counts)
        jj = np.repeat(lo, counts) + (np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts))
    else:
        ii, jj = np.divmod(np.arange((ha - la) * (hb - lb), dtype=np.int64), hb - lb)
    gi, gj = ii + la, jj + lb
    d = np.asarray(f(c.start[gi], c.end[gi], c.category[gi], c.start[gj], c.end[gj], c.category[gj]), dtype=float)
    if d.shape != gi.shape:
        raise AccordError(f"the dissimilarity returned shape {d.shape} for {len(gi)} pairs")
    if np.any(np.isnan(d)) or np.any(d < 0):
        k = int(np.flatnonzero(np.isnan(d) | (d < 0))[0])
        raise AccordError(
            f"the dissimilarity of {c.describe_unit(int(gi[k]))} and {c.describe_unit(int(gj[k]))} is {d[k]!r}; "
            "a dissimilarity must be a non-negative number"
        )
    keep = d <= bound * (1 + _REL)
    return gi[keep], gj[keep], d[keep]


def candidate_alignments(c: Continuum, f: PairFunction, delta_empty: float,
                         reach: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Every unitary alignment that can be in a best alignment, with its disorder.

    Returns ``(tuples, disorders)``: tuples of shape (m, n) (unit index or -1),
    every unit alone among them.
    """
    n = c.n_annotators
    n_units = len(c)
    pairs_c = n * (n - 1) // 2
    de = delta_empty
    bmax = (n - 1 + pairs_c) * de
    offsets = np.searchsorted(c.annotator, np.arange(n + 1), side="left").astype(np.int64)
    r = None if reach is None else reach
    gi_l, gj_l, d_l = [], [], []
    for a in range(n):
        for b in range(a + 1, n):
            gi, gj, d = _pairs_between(c, a, b, f, r, bmax, offsets)
            gi_l.append(gi)
            gj_l.append(gj)
            d_l.append(d)
    gi = np.concatenate(gi_l) if gi_l else np.zeros(0, np.int64)
    gj = np.concatenate(gj_l) if gj_l else np.zeros(0, np.int64)
    dd = np.concatenate(d_l) if d_l else np.zeros(0)
    big = np.int64(max(n_units, 1))
    keys = gi * big + gj
    order = np.argsort(keys, kind="stable")
    keys, dd, gj_sorted = keys[order], dd[order], gj[order]
    limit = bmax * (1 + _REL)

    # partial tuples
    tup = np.full((1, n), -1, dtype=np.int64)
    sums = np.zeros((1, n))
    ptot = np.zeros(1)
    anchor = np.full(1, -1, dtype=np.int64)
    for j in range(n):
        lo_j, hi_j = offsets[j], offsets[j + 1]
        parts_t, parts_s, parts_p, parts_a = [tup], [sums], [ptot], [anchor]
        if hi_j > lo_j:
            # (a) the all-empty partial tuple takes each unit of j alone
            none = np.flatnonzero(anchor < 0)
            if len(none):
                units = np.arange(lo_j, hi_j, dtype=np.int64)
                t = np.repeat(tup[none], len(units), axis=0)
                t[:, j] = np.tile(units, len(none))
                parts_t.append(t)
                parts_s.append(np.zeros((len(t), n)))
                parts_p.append(np.zeros(len(t)))
                parts_a.append(t[:, j].copy())
            # (b) tuples with an anchor extend by the anchor's neighbours in j
            has = np.flatnonzero(anchor >= 0)
            if len(has):
                anc = anchor[has]
                lo = np.searchsorted(keys, anc * big + lo_j, side="left")
                hi = np.searchsorted(keys, anc * big + hi_j, side="left")
                counts = hi - lo
                total = int(counts.sum())
                if total:
                    if total > _MAX_CANDIDATES:
                        raise AccordError(
                            f"document {c.document!r}: more than {_MAX_CANDIDATES:,} candidate unitary alignments; "
                            "the exact alignment is not practical here; split the document into shorter continua"
                        )
                    rows = np.repeat(has, counts)
                    e_idx = np.repeat(lo, counts) + (np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts))
                    w = gj_sorted[e_idx]
                    t = tup[rows].copy()
                    s = sums[rows].copy()
                    p = ptot[rows].copy()
                    ok = np.ones(total, dtype=bool)
                    for b in range(j):
                        x = t[:, b]
                        real = x >= 0
                        if not real.any():
                            continue
                        q = np.where(real, x * big + w, -1)
                        k = np.searchsorted(keys, q)
                        k_c = np.minimum(k, max(len(keys) - 1, 0))
                        found = real & (k < len(keys)) & (keys[k_c] == q) if len(keys) else np.zeros_like(real)
                        ok &= ~real | found
                        dv = np.where(found, dd[k_c] if len(keys) else 0.0, 0.0)
                        s[:, b] += dv
                        s[:, j] += dv
                        p += dv
                    t[:, j] = w
                    ok &= np.all(s <= limit, axis=1)
                    parts_t.append(t[ok])
                    parts_s.append(s[ok])
                    parts_p.append(p[ok])
                    parts_a.append(anchor[rows][ok])
        tup = np.concatenate(parts_t)
        sums = np.concatenate(parts_s)
        ptot = np.concatenate(parts_p)
        anchor = np.concatenate(parts_a)
        if len(tup) > _MAX_CANDIDATES:
            raise AccordError(
                f"document {c.document!r}: more than {_MAX_CANDIDATES:,} candidate unitary alignments; "
                "the exact alignment is not practical here; split the document into shorter continua"
            )
    real = tup >= 0
    k = real.sum(axis=1)
    keep = k > 0
    cost_sum = ptot + (pairs_c - k * (k - 1) / 2.0) * de
    keep &= cost_sum <= k * pairs_c * de * (1 + _REL)
    keep &= np.all(~real | (sums <= ((k - 1 + pairs_c) * de * (1 + _REL))[:, None]), axis=1)
    return tup[keep], cost_sum[keep] / pairs_c


def _solve_partition(tuples: np.ndarray, costs: np.ndarray, n_units: int, delta_empty: float) -> np.ndarray:
    """Indices of the candidates forming the partition of least total cost (exact)."""
    from scipy.sparse.csgraph import connected_components

    m, n = tuples.shape
    k = (tuples >= 0).sum(axis=1)
    chosen: list[np.ndarray] = []
    multi = np.flatnonzero(k >= 2)
    if len(multi) == 0:
        return np.flatnonzero(k == 1)
    # unit graph: units sharing a candidate
    rr, cc = np.nonzero(tuples[multi] >= 0)
    units = tuples[multi][rr, cc]
    first = np.full(len(multi), -1, dtype=np.int64)
    first[rr[::-1]] = units[::-1]
    g = sp.coo_matrix((np.ones(len(units)), (first[rr], units)), shape=(n_units, n_units))
    n_comp, label = connected_components(g, directed=False)
    cand_rr, cand_cc = np.nonzero(tuples >= 0)
    cand_comp = np.empty(m, dtype=np.int64)
    cand_comp[cand_rr] = label[tuples[cand_rr, cand_cc]]
    comp_size = np.bincount(label, minlength=n_comp)
    lone = comp_size[cand_comp] == 1
    chosen.append(np.flatnonzero(lone))  # a unit that shares no candidate stays alone
    rest = np.flatnonzero(~lone)
    if len(rest) == 0:
        return np.concatenate(chosen)
    # components with a single multi-unit candidate: it is kept only when cheaper than its units alone
    comp_multi = np.bincount(cand_comp[multi], minlength=n_comp)
    simple_c = (comp_multi == 1) & (comp_size >= 2)
    in_simple = simple_c[cand_comp[rest]]
    if in_simple.any():
        srest = rest[in_simple]
        smulti = srest[k[srest] >= 2]
        take = costs[smulti] <= k[smulti] * delta_empty  # against its units alone (delta each)
        chosen.append(smulti[take])
        taken_comp = np.zeros(n_comp, dtype=bool)
        taken_comp[cand_comp[smulti[take]]] = True
        singles = srest[k[srest] == 1]
        chosen.append(singles[~taken_comp[cand_comp[singles]]])
        rest = rest[~in_simple]
    if len(rest) == 0:
        return np.concatenate(chosen)
    chosen.append(rest[_partition_program(tuples[rest], costs[rest], n_units, delta_empty)])
    return np.concatenate(chosen)


def _partition_program(sub: np.ndarray, c: np.ndarray, n_units: int, delta_empty: float) -> np.ndarray:
    """Exact set partition of the units in *sub*'s candidates.

    The linear relaxation is solved first (HiGHS dual simplex); when its
    optimum is integral it is the best partition.  Otherwise an integer
    solution over the columns of least reduced cost gives an upper bound U,
    and the integer program is solved over every column whose reduced cost is
    at most U - L (L the relaxation's optimum): no other column can be in an
    optimal partition, since any partition costs L plus its columns' reduced costs.
    """
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    m = len(sub)
    r2, c2 = np.nonzero(sub >= 0)
    used = np.unique(sub[r2, c2])
    row_of = np.full(n_units, -1, dtype=np.int64)
    row_of[used] = np.arange(len(used))
    rows = np.where(sub >= 0, row_of[np.maximum(sub, 0)], -1)
    a = sp.csc_matrix((np.ones(len(r2)), (rows[r2, c2], r2)), shape=(len(used), m))
    scale = 1e4 / max(float(c.max()), 1e-300)  # HiGHS' absolute tolerances, relative to costs of ~1e4
    cs = c * scale
    res = linprog(cs, A_eq=a, b_eq=np.ones(len(used)), bounds=(0, None), method="highs-ds")
    if res.status != 0:
        raise AccordError(f"the alignment's linear program failed ({res.message})")
    x = res.x
    if np.all((x < 1e-9) | (x > 1 - 1e-9)):
        return np.flatnonzero(x > 0.5)
    y = res.eqlin.marginals
    rc = cs - np.where(rows >= 0, y[np.maximum(rows, 0)], 0.0).sum(axis=1)
    lower = float(res.fun)
    opts = {"mip_rel_gap": 0.0}
    k = (sub >= 0).sum(axis=1)
    first = np.flatnonzero((rc <= 1e-6) | (k == 1))
    res_u = milp(cs[first], integrality=np.ones(len(first)), bounds=Bounds(0, 1),
                 constraints=LinearConstraint(a[:, first], 1, 1), options=opts)
    if res_u.x is None:
        raise AccordError(f"the alignment program found no solution ({res_u.message})")
    cand = np.flatnonzero(rc <= (float(res_u.fun) - lower) + 1e-6)
    if np.isin(cand, first).all():
        return first[res_u.x > 0.5]
    res_f = milp(cs[cand], integrality=np.ones(len(cand)), bounds=Bounds(0, 1),
                 constraints=LinearConstraint(a[:, cand], 1, 1), options=opts)
    if res_f.x is None:
        raise AccordError(f"the alignment program found no solution ({res_f.message})")
    return cand[res_f.x > 0.5]


def best_alignment(c: Continuum, dissimilarity: Dissimilarity) -> AlignmentSolution:
    """The best alignment of *c* under *dissimilarity*, exactly.

    Examples
    --------
    >>> from accord.spans.gamma.dissimilarity import CombinedDissimilarity
    >>> c = Continuum.from_arrays("d", ["A", "B"], ["A", "B"], [0, 1], [10, 9], ["x", "x"])
    >>> sol = best_alignment(c, CombinedDissimilarity())
    >>> sol.tuples.tolist(), round(sol.disorder, 6)
    ([[0, 1]], 0.012346)
    """
    f = dissimilarity.bind(c.categories)
    n = c.n_annotators
    pairs_c = n * (n - 1) // 2
    bmax = (n - 1 + pairs_c) * dissimilarity.delta_empty
    reach = dissimilarity.reach(bmax)
    if len(c) == 0:
        return AlignmentSolution(np.zeros((0, n), np.int64), np.zeros(0), 0.0, float("nan"), 0)
    tuples, costs = candidate_alignments(c, f, dissimilarity.delta_empty, reach)
    pick = _solve_partition(tuples, costs, len(c), dissimilarity.delta_empty)
    t, d = tuples[pick], costs[pick]
    covered = np.sort(t[t >= 0])
    if len(covered) != len(c) or np.any(covered != np.arange(len(c))):
        raise AccordError(f"document {c.document!r}: the alignment program did not return a partition of the units")
    order = np.lexsort((t.max(axis=1), np.where(t >= 0, c.start[np.maximum(t, 0)], np.inf).min(axis=1)))
    t, d = t[order], d[order]
    total = float(np.sum(d))
    return AlignmentSolution(t, d, total, total / c.mean_units, len(tuples))
