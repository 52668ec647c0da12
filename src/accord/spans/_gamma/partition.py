r"""The set-partitioning program of the exact alignment: listed whole, by column generation, and its integer step.

The units are the rows, each candidate unitary alignment a column (``tuples``: a
unit index per annotator, -1 for the empty unit), and a best alignment picks
columns of least summed cost covering every unit once (see
:mod:`accord.spans._gamma.alignment` for the method).  The linear relaxation is
solved by HiGHS through scipy's bundled bindings; the integer program, component by
component, by a branch and bound over that relaxation, or by HiGHS' MIP solver
past its node limit.  Where those bindings are missing, by :func:`scipy.optimize.linprog`
and :func:`scipy.optimize.milp`.  Internal to the alignment: nothing here is public.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

from accord._shared.errors import AccordError

__all__: list[str] = []

_ROUNDS = 1000  # column generation rounds before giving up (never reached in practice)
_THETA_MIP = 0.02  # first reduced-cost threshold of the integer program, in units of a unit alone's cost
_PER_UNIT = 2  # columns priced in per unit and round, when more have a negative reduced cost
_NODES = 500  # linear programs a component's branch and bound may solve before HiGHS' MIP solver takes it over


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
    lower bound); each other component goes to :func:`_branch_and_bound`, and those it gives up on to HiGHS'
    MIP solver together (:func:`_mip`).
    """
    comp = _unit_components(tuples, n_units)
    lp = np.arange(len(lp_frac))
    bad = np.zeros(int(comp.max()) + 1 if len(comp) else 0, dtype=bool)
    bad[comp[lp[lp_frac]]] = True
    chosen = [lp[~lp_frac & ~bad[comp[lp]]]]
    sub = np.flatnonzero(bad[comp])
    order = sub[np.argsort(comp[sub], kind="stable")]  # the fractional components' columns, component by component
    cuts = np.flatnonzero(np.diff(comp[order])) + 1
    left = []  # components the branch and bound gave up on
    for cols in np.split(order, cuts) if len(order) else []:
        pick = _branch_and_bound(tuples[cols], costs[cols], scale)
        if pick is None:
            left.append(cols)
        else:
            chosen.append(cols[pick])
    if left:
        rest = np.concatenate(left)
        pick, _ = _mip(tuples[rest], costs[rest], n_units, scale)
        chosen.append(rest[pick])
    out = np.concatenate(chosen)
    return out, float(costs[out].sum())


def _branch_and_bound(tuples: np.ndarray, costs: np.ndarray, scale: float) -> np.ndarray | None:
    """The partition of least cost of one component's units among *tuples* (indices), exact; None when it would
    take more than ``_NODES`` linear programs (or scipy's HiGHS bindings are missing).

    Depth first over the linear relaxation, warm started by HiGHS from the last basis: a node whose relaxation
    is integral is a partition; otherwise it branches on the column nearest one half, fixed to 1 (first) and to
    0.  A node whose relaxation costs at least the best partition found (less a relative 1e-12) holds none
    better.  HiGHS' MIP solver takes about 30 ms on a component of 20 units and 800 candidates (five annotators),
    where this takes one to twenty relaxations of a fraction of a millisecond.
    """
    units, local = np.unique(tuples[tuples >= 0], return_inverse=True)
    t = np.full(tuples.shape, -1, dtype=np.int64)
    t[tuples >= 0] = local
    cost = costs * scale
    with _Relaxation(len(units), scale, np.arange(len(units))) as relax:
        h = relax.highs
        if h is None:  # pragma: no cover - another scipy layout: milp takes it
            return None
        relax.add(t, costs)
        optimal, infeasible = relax._core.HighsModelStatus.kOptimal, relax._core.HighsModelStatus.kInfeasible
        best, best_x = np.inf, None
        stack: list[tuple[tuple[int, int], ...]] = [()]  # each node's fixed columns (column, value)
        fixed: list[int] = []
        for _ in range(_NODES):
            if not stack:
                return None if best_x is None else np.flatnonzero(best_x > 0.5)
            fix = stack.pop()
            for j in fixed:
                h.changeColBounds(j, 0.0, np.inf)
            for j, v in fix:
                h.changeColBounds(j, float(v), np.inf if v else 0.0)
            fixed = [j for j, _ in fix]
            h.run()
            status = h.getModelStatus()
            if status == infeasible:
                continue
            if status != optimal:
                return None
            x = np.asarray(h.getSolution().col_value)
            z = float(cost @ x)
            if best_x is not None and z >= best - 1e-12 * abs(best):
                continue
            frac = np.flatnonzero((x > 1e-9) & (x < 1 - 1e-9))
            if len(frac) == 0:
                best, best_x = z, x
                continue
            j = int(frac[np.argmin(np.abs(x[frac] - 0.5))])
            stack.append((*fix, (j, 0)))
            stack.append((*fix, (j, 1)))
        return None if stack or best_x is None else np.flatnonzero(best_x > 0.5)


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
