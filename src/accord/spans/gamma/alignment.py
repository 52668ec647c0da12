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
(:mod:`accord.spans.gamma.candidates`).  When they are few they are listed
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
a lower bound, so the integer program runs only on the fractional components.

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
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from accord.errors import AccordError, AccordWarning
from accord.spans.gamma.candidates import CandidateLimit, Neighbours, grow, neighbours
from accord.spans.gamma.dissimilarity import Dissimilarity, PairFunction
from accord.spans.gamma.model import Continuum

__all__ = ["ALIGNMENTS", "DEFAULT_MAX_CANDIDATES", "DEFAULT_WINDOW", "AlignmentSolution", "best_alignment"]

#: Ways of aligning: ``exact``, ``windowed`` (approximate), ``auto`` (exact unless past the limit).
ALIGNMENTS = ("exact", "windowed", "auto")
#: Partial candidates one step of the exact program may hold; past it the exact alignment is not practical.
DEFAULT_MAX_CANDIDATES = 5_000_000
#: Units per annotator in a window of the windowed alignment.
DEFAULT_WINDOW = 40

_LISTED = 20_000  # candidates listed whole and solved directly, by components, up to this many
_EXPLICIT = 1_500_000  # partial candidates listed whole (then priced by a product) up to this many a step
_ROUNDS = 1000  # column generation rounds before giving up (never reached in practice)
_Y0 = 1.0
_THETA0 = 0.0
_THETA_MIP = 0.02  # first reduced-cost threshold of the integer program, in units of a unit alone's cost
_PER_UNIT = 2  # columns priced in per unit and round, when more have a negative reduced cost
_MATCHING = True  # two annotators: a least-cost bipartite matching instead of the set partition (same optimum)
_DENSE = 90_000  # the matching's rest solved as a dense assignment up to this many entries (rows x columns)


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


# -- the set partition ----------------------------------------------------------------------------------------


def _row_units(tuples: np.ndarray) -> np.ndarray:
    """The units of each row of *tuples* (entries >= 0).  Column by column: numpy reduces a short row slowly."""
    k = np.zeros(len(tuples), dtype=np.int64)
    for a in range(tuples.shape[1]):
        k += tuples[:, a] >= 0
    return k


def _row_max(tuples: np.ndarray) -> np.ndarray:
    """Each row's largest entry (a unit alone: its unit), column by column."""
    out = tuples[:, 0].copy()
    for a in range(1, tuples.shape[1]):
        np.maximum(out, tuples[:, a], out=out)
    return out


def _column_parts(tuples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indptr, indices) of the columns of *tuples* (a column per row, its units), built directly."""
    indptr = np.zeros(len(tuples) + 1, dtype=np.int64)
    np.cumsum(_row_units(tuples), out=indptr[1:])
    return indptr, tuples[tuples >= 0]


def _columns(tuples: np.ndarray, n_units: int) -> sp.csc_matrix:
    indptr, indices = _column_parts(tuples)
    return sp.csc_matrix((np.ones(len(indices)), indices, indptr), shape=(n_units, len(tuples)))


def _dual_sum(tuples: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.where(tuples >= 0, y[np.maximum(tuples, 0)], 0.0).sum(axis=1)


_SOLVERS = threading.local()  # HiGHS objects free for reuse in this thread (making one costs more than a small solve)


def _highs(core: object) -> object:
    """An empty HiGHS object with accord's options: one freed earlier in this thread, or a new one."""
    free = getattr(_SOLVERS, "free", None)
    if free:
        h = free.pop()
        h.clearModel()  # model, basis and solution go; the options stay
        return h
    h = core._Highs()  # type: ignore[attr-defined]
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")  # set partitions gain little from it; it slows small ones
    return h


class _Relaxation:
    """The linear relaxation of the set partition, columns added round by round.

    HiGHS through scipy's bundled bindings keeps its basis between rounds, so
    a round re-solves from the last optimum; where those bindings are missing
    (another scipy), each round is solved anew with :func:`scipy.optimize.linprog`.
    Use it in a ``with`` block: its HiGHS object then goes back for the next
    relaxation of this thread.
    """

    def __init__(self, n_units: int, scale: float, units: np.ndarray) -> None:
        self.n_units, self.scale = n_units, scale
        self.tuples = np.zeros((0, 0), dtype=np.int64)
        self.costs = np.zeros(0)
        try:
            from scipy.optimize._highspy import _core
        except ImportError:  # pragma: no cover - another scipy layout: cold solves
            self.highs = None
            return
        self._core = _core
        self.highs = _highs(_core)
        ones = np.zeros(n_units)
        ones[units] = 1.0  # the units of the program each in one column; the others in none
        self.rhs = ones  # the rows go to HiGHS with the first columns, in one call

    def __enter__(self) -> _Relaxation:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.highs is not None:
            free = getattr(_SOLVERS, "free", None)
            if free is None:
                free = _SOLVERS.free = []
            if len(free) < 4:  # more only when relaxations nest
                free.append(self.highs)
            self.highs = None

    def add(self, tuples: np.ndarray, costs: np.ndarray) -> None:
        if len(self.tuples) == 0:
            self.tuples = tuples
        else:
            self.tuples = np.concatenate([self.tuples, tuples])
        self.costs = np.concatenate([self.costs, costs])
        if self.highs is not None and len(tuples):
            m = len(tuples)
            indptr, indices = _column_parts(tuples)
            start, index = indptr[:-1].astype(np.int32), indices.astype(np.int32)
            if len(self.tuples) == m:  # the first columns: the whole model at once (a third of addRows + addCols)
                status = self.highs.passModel(m, self.n_units, len(indices), 1, 1, 0.0, costs * self.scale,
                                              np.zeros(m), np.full(m, np.inf), self.rhs, self.rhs, start, index,
                                              np.ones(len(indices)), np.zeros(m, dtype=np.int32))  # by column, min
                if status == self._core.HighsStatus.kError:
                    raise AccordError("the alignment's linear program was refused by HiGHS")
            else:
                self.highs.addCols(m, costs * self.scale, np.zeros(m), np.full(m, np.inf), len(indices), start, index,
                                   np.ones(len(indices)))

    def solve(self, duals: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """The relaxation's solution and the units' dual values (cost units; None unless *duals*)."""
        if self.highs is None:  # pragma: no cover
            return _lp(self.tuples, self.costs, self.n_units, self.scale)
        self.highs.run()
        status = self.highs.getModelStatus()
        if status != self._core.HighsModelStatus.kOptimal:
            raise AccordError(f"the alignment's linear program failed ({self.highs.modelStatusToString(status)})")
        if duals:
            sol = self.highs.getSolution()
            return np.asarray(sol.col_value), np.asarray(sol.row_dual) / self.scale
        # the primal solution alone from the optimal basis: its basic columns' values solve B x = rhs, every other
        # column is at its bound 0 (a fifth of the cost of getSolution, which copies four vectors into lists)
        _, basic = self.highs.getBasicVariables()
        _, value = self.highs.getBasisSolve(self.rhs)
        x = np.zeros(len(self.costs))
        col = basic >= 0  # a negative entry is a row's slack
        x[basic[col]] = value[col]
        return x, None


def _lp(tuples: np.ndarray, costs: np.ndarray, n_units: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The linear relaxation over *tuples* (which cover every unit): its solution and the units' dual values."""
    from scipy.optimize import linprog

    a = _columns(tuples, n_units)
    used = np.flatnonzero(np.diff(a.tocsr().indptr))
    res = linprog(costs * scale, A_eq=a[used], b_eq=np.ones(len(used)), bounds=(0, None), method="highs-ds")
    if res.status != 0:
        raise AccordError(f"the alignment's linear program failed ({res.message})")
    y = np.zeros(n_units)
    y[used] = np.asarray(res.eqlin.marginals) / scale
    return res.x, y


@contextlib.contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Standard output closed at the descriptor for the duration: HiGHS' MIP prints debugging lines with printf
    when its presolve fails on a solution (HiGHS 1.x), whatever its output options."""
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):  # no descriptor 1 (embedded interpreters): leave it
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _mip(tuples: np.ndarray, costs: np.ndarray, n_units: int, scale: float) -> tuple[np.ndarray, float]:
    """The partition of least cost among *tuples* (indices), and its cost: HiGHS' MIP solver, through scipy's
    bindings (:func:`scipy.optimize.milp` where they are missing)."""
    indptr, indices = _column_parts(tuples)
    ones = np.zeros(n_units)
    ones[indices] = 1.0  # each unit of a column in exactly one chosen column; the others in none
    message = ""
    for presolve in (True, False):  # HiGHS 1.x presolve has called a feasible set partition infeasible
        with _quiet_stdout():
            x, message = _mip_solve(indptr, indices, costs * scale, ones, presolve)
        if x is not None:
            pick = np.flatnonzero(x > 0.5)
            covered = tuples[pick][tuples[pick] >= 0]
            if np.array_equal(np.bincount(covered, minlength=n_units), ones):  # a partition of the units
                return pick, float(costs[pick].sum())
    raise AccordError(f"the alignment program found no solution ({message})")


def _mip_solve(indptr: np.ndarray, indices: np.ndarray, cost: np.ndarray, rhs: np.ndarray,
               presolve: bool) -> tuple[np.ndarray | None, str]:
    """The 0-1 solution of min cost x, A x = rhs (A's columns given by indptr, indices), or None, and why."""
    m, n_rows = len(cost), len(rhs)
    try:
        from scipy.optimize._highspy import _core
    except ImportError:  # pragma: no cover - another scipy layout
        from scipy.optimize import Bounds, LinearConstraint, milp

        a = sp.csc_matrix((np.ones(len(indices)), indices, indptr), shape=(n_rows, m))
        res = milp(cost, integrality=np.ones(m), bounds=Bounds(0, 1), constraints=LinearConstraint(a, rhs, rhs),
                   options={"mip_rel_gap": 0.0, "presolve": presolve})
        return res.x, str(res.message)
    h = _core._Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "on" if presolve else "off")
    h.setOptionValue("mip_rel_gap", 0.0)
    # the feasibility-jump heuristic (HiGHS 1.12) costs about 8 ms on any program, a tiny one included; the
    # branch and bound proves the optimum without it
    h.setOptionValue("mip_heuristic_run_feasibility_jump", False)
    h.addRows(n_rows, rhs, rhs, 0, np.zeros(n_rows, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0))
    h.addCols(m, cost, np.zeros(m), np.ones(m), len(indices), indptr[:-1].astype(np.int32),
              indices.astype(np.int32), np.ones(len(indices)))
    h.changeColsIntegrality(m, np.arange(m, dtype=np.int32), np.ones(m, dtype=np.uint8))
    h.run()
    status = h.getModelStatus()
    if status != _core.HighsModelStatus.kOptimal:
        return None, h.modelStatusToString(status)
    return np.asarray(h.getSolution().col_value), ""


def _row_keys(tuples: np.ndarray, base: int) -> np.ndarray | None:
    """An exact int64 key per row (entries -1 to base - 2), or None when base ** annotators overflows."""
    n = tuples.shape[1]
    if base**n >= 2**63:
        return None
    return (tuples + 1) @ np.array([base**j for j in range(n)], dtype=np.int64)


def _union(t1: np.ndarray, c1: np.ndarray, t2: np.ndarray, c2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t = np.concatenate([t1, t2])
    c = np.concatenate([c1, c2])
    keys = _row_keys(t, int(t.max()) + 2) if len(t) else None
    _, first = np.unique(t, axis=0, return_index=True) if keys is None else np.unique(keys, return_index=True)
    first.sort()
    return t[first], c[first]


def _best_per_unit(tuples: np.ndarray, red: np.ndarray, k: int) -> np.ndarray:
    """The columns among the *k* of least reduced cost of one of their units (partial pricing)."""
    r, col = np.nonzero(tuples >= 0)
    unit = tuples[r, col]
    rr = red[r].astype(float)
    n_units = int(unit.max()) + 1 if len(unit) else 0
    keep = np.zeros(len(tuples), dtype=bool)
    for _ in range(k):  # each pass takes, per unit, its column of least reduced cost not yet taken for it
        low = np.full(n_units, np.inf)
        np.minimum.at(low, unit, rr)
        hit = np.flatnonzero((rr == low[unit]) & np.isfinite(rr))
        if len(hit) == 0:
            break
        win = np.full(n_units, -1, dtype=np.int64)
        win[unit[hit]] = r[hit]
        keep[win[win >= 0]] = True
        rr = np.where(win[unit] == r, np.inf, rr)
    return np.flatnonzero(keep)


class _Held:
    """The columns of a program, to tell fresh ones: rows (units < *n_units*) as exact int64 keys
    (:func:`_row_keys`), or as bytes in a set when the keys would overflow."""

    def __init__(self, tuples: np.ndarray, n_units: int) -> None:
        self.base = n_units + 1
        self.exact = _row_keys(tuples[:0], self.base) is not None
        self.keys = np.zeros(0, dtype=np.int64)
        self.rows: set[bytes] = set()
        self.add(tuples)

    def fresh(self, tuples: np.ndarray) -> np.ndarray:
        if not self.exact:
            return np.array([r.tobytes() not in self.rows for r in tuples], dtype=bool)
        k = _row_keys(tuples, self.base)
        if len(self.keys) == 0:
            return np.ones(len(k), dtype=bool)
        at = np.minimum(np.searchsorted(self.keys, k), len(self.keys) - 1)  # self.keys is sorted
        return self.keys[at] != k

    def add(self, tuples: np.ndarray) -> None:
        if not self.exact:
            self.rows.update(r.tobytes() for r in tuples)
            return
        k = np.concatenate([self.keys, _row_keys(tuples, self.base)])
        k.sort()
        self.keys = k[np.r_[True, k[1:] != k[:-1]]]


def _column_generation(price: object, start: tuple[np.ndarray, np.ndarray], singles: tuple[np.ndarray, np.ndarray],
                       n_units: int, scale: float) -> tuple[np.ndarray, np.ndarray, int]:
    """The best partition, by column generation: ``price(y, theta)`` lists every candidate of reduced cost <= theta.

    Returns (tuples, costs, columns held).
    """
    tol = 1e-6 / scale  # ten times HiGHS' dual feasibility tolerance, in cost units
    with _Relaxation(n_units, scale, _row_max(singles[0])) as relax:
        relax.add(*_union(singles[0], singles[1], *start))
        seen = _Held(relax.tuples, n_units)
        for _ in range(_ROUNDS):
            x, y = relax.solve()
            nt, nc = price(y, -tol)  # type: ignore[operator]
            fresh = seen.fresh(nt)  # before the partial pricing, lest columns held crowd out the fresh ones
            if not fresh.any():
                break  # none left, or only columns held (the solver's tolerance): the relaxation is optimal
            nt, nc = nt[fresh], nc[fresh]
            if len(nt) > _PER_UNIT * n_units:
                keep = _best_per_unit(nt, nc - _dual_sum(nt, y), _PER_UNIT)
                nt, nc = nt[keep], nc[keep]
            seen.add(nt)
            relax.add(nt, nc)
        else:
            raise AccordError(f"the alignment's column generation did not converge in {_ROUNDS} rounds")
        rt, rc_ = relax.tuples, relax.costs
    if np.all((x < 1e-9) | (x > 1 - 1e-9)):
        pick = np.flatnonzero(x > 0.5)
        return rt[pick], rc_[pick], len(rt)
    # fractional: an integer solution over the columns of least reduced cost bounds the best partition (U); a
    # best partition costs the dual sum L plus its columns' reduced costs, so its columns have reduced costs of
    # at most U - L.  The integer program runs over the columns of reduced cost <= theta, theta growing, until
    # its optimum U' has U' - L <= theta: then no column left out can be in a better partition.  It is solved
    # one component of units at a time, and only where the relaxation is fractional (_split_mip).
    red = rc_ - _dual_sum(rt, y)
    k = _row_units(rt)
    on = np.flatnonzero(x > 1e-9)
    lp_t, lp_c, lp_frac = rt[on], rc_[on], x[on] < 1 - 1e-9
    first = np.flatnonzero(((red <= tol) | (k == 1)) & (x <= 1e-9))
    qt, qc = np.concatenate([lp_t, rt[first]]), np.concatenate([lp_c, rc_[first]])
    pick, upper = _split_mip(qt, qc, lp_frac, n_units, scale)
    best_t, best_c = qt[pick], qc[pick]
    lower = float(y.sum()) - n_units * tol  # every candidate's reduced cost is >= -tol
    held = len(rt)
    theta = _THETA_MIP * float(singles[1][0])
    while True:  # a partition cheaper than `upper` has columns of reduced cost below upper - lower
        theta = min(theta, upper - lower)
        qt, qc = price(y, theta + tol)  # type: ignore[operator]
        held = max(held, len(rt) + len(qt))
        qt, qc = _union(np.concatenate([lp_t, best_t]), np.concatenate([lp_c, best_c]), qt, qc)
        pick, u2 = _split_mip(qt, qc, lp_frac, n_units, scale)
        if u2 < upper:
            upper, best_t, best_c = u2, qt[pick], qc[pick]
        if upper - lower <= theta:
            break  # every such column was in this program: `upper` is the least cost
        theta *= 4
    return best_t, best_c, held


def _unit_components(tuples: np.ndarray, n_units: int) -> np.ndarray:
    """The component of each column: units are linked when a column holds both."""
    _, label = _linked(tuples, n_units)
    return label[n_units:]


def _linked(tuples: np.ndarray, n_units: int) -> tuple[int, np.ndarray]:
    """(components, label per node) of the graph of units and columns (nodes ``n_units + row``), a column linked
    to its units; every column holds a unit, so the labels of the units are ``0 .. components - 1``."""
    from scipy.sparse.csgraph import connected_components

    indptr, indices = _column_parts(tuples)
    size = n_units + len(tuples)
    g = sp.csr_matrix((np.ones(len(indices)), indices, np.concatenate([np.zeros(n_units, dtype=np.int64), indptr])),
                      shape=(size, size))
    return connected_components(g, directed=False)


def _split_mip(tuples: np.ndarray, costs: np.ndarray, lp_frac: np.ndarray, n_units: int,
               scale: float) -> tuple[np.ndarray, float]:
    """The partition of least cost among *tuples*, whose first ``len(lp_frac)`` rows are the relaxation's
    optimal columns (``lp_frac``: fractional ones), and its cost.

    The program separates into components of units linked by a column.  In a component where the relaxation's
    columns are all integral they are a best partition of its units (they cost the component's dual sum, a
    lower bound); the integer program runs over the other components only.
    """
    comp = _unit_components(tuples, n_units)
    lp = np.arange(len(lp_frac))
    bad = np.zeros(int(comp.max()) + 1 if len(comp) else 0, dtype=bool)
    bad[comp[lp[lp_frac]]] = True
    chosen = [lp[~lp_frac & ~bad[comp[lp]]]]
    sub = np.flatnonzero(bad[comp])
    if len(sub):
        pick, _ = _mip(tuples[sub], costs[sub], n_units, scale)
        chosen.append(sub[pick])
    out = np.concatenate(chosen)
    return out, float(costs[out].sum())


def _listed(tuples: np.ndarray, costs: np.ndarray, n_units: int, delta_empty: float) -> np.ndarray:
    """Indices of the candidates forming the partition of least total cost (exact), every candidate listed.

    *costs* are disorders.  A unit in no multi-unit candidate stays alone.  The
    relaxation over the other candidates is solved once: when its solution is
    integral it is a best partition.  Otherwise, every candidate being listed, it
    is optimal over all of them: in a component of units where its columns are
    integral they are a best partition of the component, and the integer program
    runs over the candidates of the other components (:func:`_split_mip`).
    """
    k = _row_units(tuples)
    multi = k >= 2
    mt = tuples[multi]
    shared = np.zeros(n_units, dtype=bool)
    shared[mt[mt >= 0]] = True
    top = _row_max(tuples)  # a single's unit
    lone = ~multi & ~shared[top]
    chosen = [np.flatnonzero(lone)]
    rest = np.flatnonzero(~lone)
    if len(rest) == 0:
        return chosen[0]
    sub_t, sub_c = tuples[rest], costs[rest]
    scale = 1e3 / delta_empty
    with _Relaxation(n_units, scale, top[rest][k[rest] == 1]) as relax:
        relax.add(sub_t, sub_c)
        x, _ = relax.solve(duals=False)
    frac = (x > 1e-9) & (x < 1 - 1e-9)
    if not frac.any():
        chosen.append(rest[np.flatnonzero(x > 0.5)])
        return np.concatenate(chosen)
    on = x > 1e-9
    order = np.concatenate([np.flatnonzero(on), np.flatnonzero(~on)])  # the relaxation's columns first
    pick, _ = _split_mip(sub_t[order], sub_c[order], frac[on], n_units, scale)
    chosen.append(rest[order[pick]])
    return np.concatenate(chosen)


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
    >>> from accord.spans.gamma.dissimilarity import CombinedDissimilarity
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
