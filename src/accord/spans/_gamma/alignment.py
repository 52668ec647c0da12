r"""The best alignment of a continuum: exact (a set-partitioning program solved by HiGHS through scipy's
bundled bindings, or :func:`scipy.optimize.linprog` and :func:`scipy.optimize.milp` where they are missing), or
windowed (an approximation, only when asked or past a stated limit).

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

**Exact.**  Candidates are the undominated unitary alignments
(:mod:`accord.spans._gamma.candidates`).  When they are few they are listed
whole and the linear relaxation over all of them is solved once: an integral
solution (the usual case) is the best alignment; otherwise, being optimal over
every candidate, it is a best partition of each component of units where its
columns are integral, and the integer program runs over the others.

When they are many the program is solved by column generation: the linear relaxation over
a first set of candidates gives dual values :math:`y_u` of the units; every
candidate of negative reduced cost :math:`C - \sum y_u` is then priced in
(listed by a search that never lists the others) and the relaxation solved again,
until none is left, so that the relaxation is optimal over all candidates.  When
its solution is integral it is the best alignment.  Otherwise an integer
solution of cost *U* over the columns at hand bounds the best one, and the
integer program is solved over every candidate whose reduced cost is at most
:math:`U - \sum y_u` (any partition costs :math:`\sum y_u` plus its columns'
reduced costs, so no other candidate can be in a best partition).  That program
separates into components of units linked by a candidate; where the
relaxation's columns are integral they already cost the component's dual sum,
a lower bound, so the integer program runs only on the fractional components, each
solved by a branch and bound over its relaxation (HiGHS' MIP solver past a node limit).

**Two annotators.**  A unitary alignment is then a pair (disorder *d*) or a
unit alone (:math:`\Delta_\varnothing`), so the best alignment is a least-cost
bipartite matching with pair costs :math:`d - 2\Delta_\varnothing`, solved exactly: when the two
annotators' units make a small table, by one :func:`scipy.optimize.linear_sum_assignment` over it;
otherwise a pair whose units have no other pair below :math:`2\Delta_\varnothing` is taken as it is and
the rest goes to :func:`scipy.sparse.csgraph.min_weight_full_bipartite_matching` (or the dense
assignment, when the rest is small).

**Windowed** (an approximation).  Like pygamma-agreement's fast alignment, the
units are taken in order of their start: the first *window* units per
annotator and as many after them are aligned exactly, the unitary alignments
lying wholly in the first part are kept, and the rest go back for the next
window.  Its disorder is never below the exact one.

The set-partitioning program lives in :mod:`accord.spans._gamma.partition`, the
matching of two annotators in :mod:`accord.spans._gamma.bipartite`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from accord._shared.errors import AccordError, AccordWarning
from accord.spans._gamma.bipartite import _matching
from accord.spans._gamma.candidates import CandidateLimit, grow, neighbours
from accord.spans._gamma.dissimilarity import Dissimilarity, PairFunction
from accord.spans._gamma.model import Continuum
from accord.spans._gamma.partition import (
    _PER_UNIT,
    _best_per_unit,
    _column_generation,
    _column_parts,
    _listed,
    _row_max,
    _row_units,
)

__all__ = ["ALIGNMENTS", "DEFAULT_MAX_CANDIDATES", "DEFAULT_WINDOW", "AlignmentSolution", "best_alignment"]

#: Ways of aligning: ``exact``, ``windowed`` (approximate), ``auto`` (exact unless past the limit).
ALIGNMENTS = ("exact", "windowed", "auto")
#: Partial candidates one step of the exact program may hold; past it the exact alignment is not practical.
DEFAULT_MAX_CANDIDATES = 5_000_000
#: Units per annotator in a window of the windowed alignment.
DEFAULT_WINDOW = 40

_LISTED = 20_000  # candidates listed whole and solved directly, by components, up to this many
_EXPLICIT = 1_500_000  # partial candidates listed whole (then priced by a product) up to this many a step
_Y0 = 1.0
_THETA0 = 0.0
_MATCHING = True  # two annotators: a least-cost bipartite matching instead of the set partition (same optimum)


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
        Candidate unitary alignments the program held explicitly (with column
        generation, those priced in; the others were proved useless without being listed).
    method : str
        ``"exact"`` or ``"windowed"`` (an approximation: its disorder is at least the exact one).
    window : int or None
        Units per annotator in a window, for ``"windowed"``.
    """

    tuples: np.ndarray
    disorders: np.ndarray
    total: float
    disorder: float
    n_candidates: int
    method: str = "exact"
    window: int | None = None

    @property
    def approximate(self) -> bool:
        """Whether the alignment is an approximation (windowed)."""
        return self.method != "exact"


def _exact(c: Continuum, f: PairFunction, delta_empty: float, reach: float | None,
           max_candidates: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(tuples, disorders, columns held) of an exact best alignment."""
    n = c.n_annotators
    p = n * (n - 1) // 2
    g = neighbours(c, f, delta_empty, reach)
    n_units = len(c)
    if n == 2 and _MATCHING:
        return _matching(g, n_units, delta_empty)
    try:
        tuples, cost = grow(c, g, delta_empty, max_rows=min(max_candidates, _EXPLICIT))
    except CandidateLimit:
        tuples = None
    if tuples is not None and len(tuples) <= _LISTED:
        d = cost / p
        pick = _listed(tuples, d, n_units, delta_empty)
        return tuples[pick], d[pick], len(tuples)
    # column generation: the cost unit is P * delta_empty for a unit alone
    scale = 1e3 / (p * delta_empty)
    units = np.arange(n_units, dtype=np.int64)
    st = np.full((n_units, n), -1, dtype=np.int64)
    st[units, c.annotator] = units
    singles = (st, np.full(n_units, p * delta_empty))
    if tuples is not None:  # every candidate listed: priced by a product with the dual values
        k = _row_units(tuples)
        indptr, indices = _column_parts(tuples)
        a_t = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(tuples), n_units))

        def price_listed(y: np.ndarray, theta: float) -> tuple[np.ndarray, np.ndarray]:
            keep = cost - a_t @ y <= theta
            return tuples[keep], cost[keep]

        first = _best_per_unit(tuples, np.where(k >= 2, cost / k, np.inf), _PER_UNIT)
        t, cst, held = _column_generation(price_listed, (tuples[first], cost[first]), singles, n_units, scale)
        return t, cst / p, held
    y0 = np.full(n_units, p * delta_empty * _Y0 / n)  # a unit's share in a unitary alignment of mean pair _Y0

    def price(y: np.ndarray, theta: float) -> tuple[np.ndarray, np.ndarray]:
        return grow(c, g, delta_empty, duals=y, theta=theta, max_rows=max_candidates)

    t, cst, held = _column_generation(price, price(y0, _THETA0 * delta_empty), singles, n_units, scale)
    return t, cst / p, held


def _windowed(c: Continuum, f: PairFunction, delta_empty: float, reach: float | None, window: int,
              max_candidates: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(tuples, disorders, columns held) of the windowed alignment."""
    n = c.n_annotators
    core = window * n
    remaining = np.ones(len(c), dtype=bool)
    by_start = np.argsort(c.start, kind="stable")
    out_t: list[np.ndarray] = []
    out_d: list[np.ndarray] = []
    held = 0
    while remaining.any():
        idx = by_start[remaining[by_start]]
        last = len(idx) <= 2 * core
        if last:
            sub, cut = np.sort(idx), np.inf
        else:
            cut = c.start[idx[core - 1]]
            sub = np.sort(idx[c.start[idx] <= c.start[idx[2 * core - 1]]])
        part = Continuum(document=c.document, annotators=c.annotators, categories=c.categories,
                         annotator=c.annotator[sub], start=c.start[sub], end=c.end[sub], category=c.category[sub],
                         unit_id=c.unit_id[sub])
        t, d, h = _exact(part, f, delta_empty, reach, max_candidates)
        held += h
        t = np.where(t >= 0, sub[np.maximum(t, 0)], -1)
        if not last:
            starts = np.where(t >= 0, c.start[np.maximum(t, 0)], np.nan)
            keep = np.nanmax(starts, axis=1) <= cut
            if not keep.any():
                keep = np.nanmin(starts, axis=1) <= cut
            t, d = t[keep], d[keep]
        out_t.append(t)
        out_d.append(d)
        remaining[t[t >= 0]] = False
    return np.concatenate(out_t), np.concatenate(out_d), held


def _check_options(alignment: str, window: object, max_candidates: object) -> None:
    if alignment not in ALIGNMENTS:
        raise AccordError(f"alignment must be one of {', '.join(ALIGNMENTS)}; got {alignment!r}",
                          cli=f"--gamma-alignment must be one of {', '.join(ALIGNMENTS)}; got {alignment!r}")
    if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
        raise AccordError(f"window must be a positive integer (units per annotator); got {window!r}",
                          cli=f"--gamma-window must be a positive integer (units per annotator); got {window!r}")
    if isinstance(max_candidates, bool) or not isinstance(max_candidates, (int, np.integer)) or max_candidates < 1:
        raise AccordError(f"max_candidates must be a positive integer; got {max_candidates!r}")


def align(c: Continuum, dissimilarity: Dissimilarity, alignment: str = "exact", window: int = DEFAULT_WINDOW,
          max_candidates: int = DEFAULT_MAX_CANDIDATES) -> tuple[AlignmentSolution, str | None]:
    """:func:`best_alignment` without its warning: (solution, why it is windowed when ``auto`` fell back)."""
    f = dissimilarity.bind(c.categories)
    n = c.n_annotators
    pairs_c = n * (n - 1) // 2
    reach = dissimilarity.reach((n - 1 + pairs_c) * dissimilarity.delta_empty)
    if len(c) == 0:
        return AlignmentSolution(np.zeros((0, n), np.int64), np.zeros(0), 0.0, float("nan"), 0, "exact"), None
    method = "windowed" if alignment == "windowed" else "exact"
    why = None
    if method == "exact":
        try:
            t, d, held = _exact(c, f, dissimilarity.delta_empty, reach, int(max_candidates))
        except CandidateLimit as e:
            if alignment == "exact":
                raise AccordError(
                    f"{e}; align it by windows (alignment='windowed' or 'auto'), an approximation, or split the "
                    "document into shorter continua",
                    cli=f"{e}; align it by windows (--gamma-alignment windowed or auto), an approximation, or "
                        "split the document into shorter continua") from None
            why = str(e)
            method = "windowed"
    if method == "windowed":
        t, d, held = _windowed(c, f, dissimilarity.delta_empty, reach, int(window), int(max_candidates))
    return _solution(c, t, d, held, method, int(window) if method == "windowed" else None), why


def _solution(c: Continuum, t: np.ndarray, d: np.ndarray, held: int, method: str,
              window: int | None) -> AlignmentSolution:
    """The solution of *c* from its unitary alignments (any order), checked to partition the units."""
    covered = t[t >= 0]
    if len(covered) != len(c) or np.any(np.bincount(covered, minlength=len(c)) != 1):
        raise AccordError(f"document {c.document!r}: the alignment program did not return a partition of the units")
    first = np.full(len(t), np.inf)  # each unitary alignment's first start
    for a in range(t.shape[1]):
        np.minimum(first, np.where(t[:, a] >= 0, c.start[t[:, a]], np.inf), out=first)
    order = np.lexsort((_row_max(t), first))
    t, d = t[order], d[order]
    total = float(np.sum(d))
    return AlignmentSolution(t, d, total, total / c.mean_units, held, method, window)


def best_alignment(c: Continuum, dissimilarity: Dissimilarity, *, alignment: str = "auto",
                   window: int = DEFAULT_WINDOW, max_candidates: int = DEFAULT_MAX_CANDIDATES) -> AlignmentSolution:
    r"""The best alignment of *c* under *dissimilarity*: exact, or windowed (an approximation) when asked.

    Parameters
    ----------
    c : Continuum
    dissimilarity : Dissimilarity
    alignment : {"auto", "exact", "windowed"}, default "auto"
        ``"exact"`` raises an error when a step of the exact program would
        hold more than *max_candidates* candidates; ``"auto"`` then falls back
        to the windowed alignment with an :class:`~accord.AccordWarning`;
        ``"windowed"`` always aligns by windows.  A windowed result says so
        (``method``, ``approximate``).
    window : int, default 40
        Units per annotator in a window.
    max_candidates : int, default 5,000,000
        The limit of the exact program (and of each window's).

    Returns
    -------
    AlignmentSolution

    Notes
    -----
    The disorder of a unitary alignment of *k* units among *n* annotators is
    :math:`\binom n2^{-1}(\sum_{u,v} d(u,v) + (\binom n2 - \binom k2)\Delta_\varnothing)`; the best alignment
    partitions the units into unitary alignments of least summed disorder (see the module).

    References
    ----------
    Mathet, Y., Widlöcher, A., & Métivier, J.-P. (2015). The unified and holistic method gamma (γ) for
    inter-annotator agreement measure and alignment. Computational Linguistics, 41(3), 437-479.

    Examples
    --------
    >>> from accord.spans._gamma.dissimilarity import CombinedDissimilarity
    >>> c = Continuum.from_arrays("d", ["A", "B"], ["A", "B"], [0, 1], [10, 9], ["x", "x"])
    >>> sol = best_alignment(c, CombinedDissimilarity())
    >>> sol.tuples.tolist(), round(sol.disorder, 6), sol.method
    ([[0, 1]], 0.012346, 'exact')
    """
    _check_options(alignment, window, max_candidates)
    sol, why = align(c, dissimilarity, alignment, window, max_candidates)
    if why:
        warnings.warn(f"{why}: aligned by windows of {window} units per annotator instead, an approximation "
                      "(its disorder is at least the exact one)", AccordWarning, stacklevel=2)
    return sol
