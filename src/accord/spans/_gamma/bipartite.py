r"""The exact alignment of two annotators: a least-cost bipartite matching (see :mod:`accord.spans._gamma.alignment`).

With two annotators a unitary alignment is a pair or a unit alone, so the set
partition is a matching, solved by scipy: :func:`scipy.optimize.linear_sum_assignment`
over a small table, :func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching`
otherwise.  Internal to the alignment: nothing here is public.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from accord.spans._gamma.candidates import Neighbours

__all__: list[str] = []

_DENSE = 90_000  # the matching's rest solved as a dense assignment up to this many entries (rows x columns)


def _pairs(ri: np.ndarray, ci: np.ndarray, w: np.ndarray, na: int, nb: int) -> np.ndarray:
    """The edges (indices) of a matching of least summed weight *w* (every weight negative) among the edges
    ``(ri, ci)`` of a bipartite graph of *na* rows and *nb* columns, edges sorted by (row, column)."""
    if na * nb <= _DENSE:
        # a full assignment of the smaller side over weights 0 off the edges: any matching extends to one at the
        # same cost, so its negative entries are a least-cost matching (scipy's dense solver, no sparse checks)
        from scipy.optimize import linear_sum_assignment

        m = np.zeros((na, nb))
        m[ri, ci] = w
        r, col = linear_sum_assignment(m)
        real = m[r, col] < 0
        at = np.full((na, nb), -1, dtype=np.int64)
        at[ri, ci] = np.arange(len(ri))
        return at[r[real], col[real]]
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    # each row matched to a column or to a private stand-in for staying unmatched (cost 0); every full
    # matching has as many edges, so the costs are shifted by a constant to make them positive as LAPJVsp needs
    shift = 1.0 - float(w.min())
    indptr = np.zeros(na + 1, dtype=np.int64)
    np.cumsum(np.bincount(ri, minlength=na) + 1, out=indptr[1:])
    indices = np.empty(indptr[-1], dtype=np.int64)
    data = np.empty(indptr[-1])
    stand = indptr[1:] - 1  # each row's last entry is its stand-in
    edge = np.ones(indptr[-1], dtype=bool)
    edge[stand] = False
    indices[edge], data[edge] = ci, w + shift
    indices[stand], data[stand] = nb + np.arange(na), shift
    r, col = min_weight_full_bipartite_matching(sp.csr_matrix((data, indices, indptr), shape=(na, nb + na)))
    real = col < nb
    return np.searchsorted(ri * nb + ci, r[real] * nb + col[real])


def _matching(g: Neighbours, n_units: int, delta_empty: float) -> tuple[np.ndarray, np.ndarray, int]:
    r"""(tuples, disorders, pairs held) of the best alignment of two annotators' units, as a matching.

    With two annotators a unitary alignment is a pair (disorder *d*) or a unit alone (:math:`\Delta_\varnothing`),
    so the best alignment pairs units to minimise :math:`\sum_{pairs} (d - 2\Delta_\varnothing)` over the pairs of
    :math:`d < 2\Delta_\varnothing`: a least-cost bipartite matching, exact.  When the table of the two annotators'
    units is small (at most ``_DENSE`` entries) one dense assignment solves it.  Otherwise a pair whose two units
    have no other such pair is taken as it is, and the rest is solved by scipy (a dense assignment when small,
    LAPJVsp otherwise).
    """
    ok = g.dist < 2 * delta_empty  # a pair at 2 delta_empty ties with its units alone
    n_a = int(g.offsets[1])
    if n_a * (n_units - n_a) <= _DENSE:  # small: one dense assignment of every unit, no pass before it
        from scipy.optimize import linear_sum_assignment

        full = np.full((n_a, n_units - n_a), 2 * delta_empty)  # a pair left out ties with its units alone
        full[g.keys // g.big, g.other - n_a] = g.dist
        w = np.minimum(full - 2 * delta_empty, 0.0)  # d - 2 delta_empty below 2 delta_empty, else 0
        r, col = linear_sum_assignment(w)
        hit = w[r, col] < 0
        r, col = r[hit], col[hit]
        return _pairs_and_alone(r, col + n_a, full[r, col], n_units, n_a, delta_empty, int(np.count_nonzero(ok)))
    ia, jb, dist = g.keys[ok] // g.big, g.other[ok], g.dist[ok]
    deg = np.bincount(ia, minlength=n_units) + np.bincount(jb, minlength=n_units)
    simple = (deg[ia] == 1) & (deg[jb] == 1)
    take = simple
    if not simple.all():
        rest = np.flatnonzero(~simple)
        ra, rb = ia[rest], jb[rest]
        on = np.zeros(n_units, dtype=bool)  # the rest's units, numbered in order on each side
        on[ra] = on[rb] = True
        num = np.cumsum(on) - 1
        na = int(num[n_a - 1]) + 1 if n_a > 0 else 0
        e = _pairs(num[ra], num[rb] - na, dist[rest] - 2 * delta_empty, na, int(num[-1]) + 1 - na)
        take = simple.copy()
        take[rest[e]] = True
    return _pairs_and_alone(ia[take], jb[take], dist[take], n_units, n_a, delta_empty, len(ia))


def _pairs_and_alone(pa: np.ndarray, pb: np.ndarray, d_pair: np.ndarray, n_units: int, n_a: int,
                     delta_empty: float, n_pairs: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(tuples, disorders, pairs held) of two annotators' alignment: the pairs (pa, pb), then every other unit
    alone (the first annotator's units are ``0 .. n_a - 1``)."""
    alone = np.ones(n_units, dtype=bool)
    alone[pa] = alone[pb] = False
    u = np.flatnonzero(alone)
    m = len(pa)
    t = np.full((m + len(u), 2), -1, dtype=np.int64)
    t[:m, 0], t[:m, 1] = pa, pb
    t[np.arange(m, len(t)), (u >= n_a).astype(np.int64)] = u
    d = np.empty(len(t))
    d[:m], d[m:] = d_pair, delta_empty
    return t, d, int(n_pairs) + n_units
