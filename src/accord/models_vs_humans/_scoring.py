"""The alignment scores of the alternative annotator test: how well one annotation represents other humans'.

For an item i, a candidate annotation a (the model's, or the left-out human's) and the annotations R of
the remaining humans on i, the paper's scores (Calderon, Reichart & Dror 2025, section 3) are

- ``accuracy`` (categorical labels): the share of R equal to a;
- ``neg_rmse`` (numeric ratings): -sqrt(mean over r in R of (a - r)^2);
- ``jaccard`` (label sets): the mean over R of the Jaccard similarity |a & r| / |a | r| (two empty sets: 1),
  the paper's SIM score with the set similarity;
- ``rank`` (rankings): ``neg_rmse`` over ranks: each coder's ratings ranked over the test's items (average
  ranks for ties, lowest rating rank 1), the paper's answer to "what if I care about ranking rather than
  exact scores?";
- a callable ``f(a, R) -> float`` (higher is better), called with the annotations as Python values.

Only the comparison of the model's score with the human's matters (who is at least as good), and both are
means over the same R; so the built-in scores compare sums over R (counts of equal labels, sums of squared
errors, sums of similarities), with numpy over the items and no loop over them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown

__all__ = ["SCORINGS", "Scorer", "auto_scoring", "jaccard_similarity", "make_scorer"]

#: The names ``scoring=`` accepts, besides a callable.
SCORINGS = ("auto", "accuracy", "neg_rmse", "jaccard", "rank")


def jaccard_similarity(a: frozenset[Any], b: frozenset[Any]) -> float:
    """|a & b| / |a | b|, and 1 for two empty sets.

    Examples
    --------
    >>> jaccard_similarity(frozenset("ab"), frozenset("bc"))
    0.3333333333333333
    >>> jaccard_similarity(frozenset(), frozenset())
    1.0
    """
    union = len(a | b)
    return 1.0 if union == 0 else len(a & b) / union


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def auto_scoring(values: np.ndarray, is_set_valued: bool) -> str:
    """The score ``scoring="auto"`` picks: ``jaccard`` for sets, ``neg_rmse`` for numbers, else ``accuracy``."""
    if is_set_valued:
        return "jaccard"
    if values.dtype.kind in "iuf" or (len(values) and all(_is_number(v) for v in values.tolist())):
        return "neg_rmse"
    return "accuracy"


class Scorer:
    """Who is at least as good, model or left-out human, item by item, for one model against the humans.

    Built once per model over the items the model annotated and at least two humans did: *codes* is the
    items x humans matrix of value codes (-1 where a human gave none), *model* the model's value codes.
    :meth:`indicators` gives, for one left-out human, the items it annotated and the two indicators of the
    paper: ``W_f`` (the model's score >= the human's) and ``W_h`` (the human's >= the model's).
    """

    def __init__(self, scoring: str | Callable[..., Any], codes: np.ndarray, model: np.ndarray,
                 values: np.ndarray) -> None:
        self.scoring = scoring
        self.codes = codes
        self.model = model
        self.values = values
        self.present = codes >= 0
        if callable(scoring):
            return
        if scoring == "accuracy":
            self._counts = _ValueCounts(codes, len(values))
        elif scoring in ("neg_rmse", "rank"):
            table = _numeric_table(values, scoring)
            x = np.where(self.present, table[np.maximum(codes, 0)], np.nan)
            f = table[model]
            if scoring == "rank":
                x, f = _ranks(x), _ranks(f[:, None])[:, 0]
            self._x, self._f = x, f
        elif scoring == "jaccard":
            self._sim = _PairSimilarity(np.column_stack([codes, model]), values)

    def indicators(self, j: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(items, W_f, W_h)`` for left-out human column *j*: item rows it annotated, boolean indicators."""
        rows = np.flatnonzero(self.present[:, j])
        if callable(self.scoring):
            return (rows, *self._callable(j, rows))
        if self.scoring == "accuracy":
            c, f = self.codes[rows], self.model[rows]
            own = c[:, j]
            # remaining humans equal to the model's label, and to the left-out human's (less the human itself)
            agree_f = self._counts.lookup(rows, f) - (own == f)
            agree_h = self._counts.lookup(rows, own) - 1
            return rows, agree_f >= agree_h, agree_h >= agree_f
        if self.scoring in ("neg_rmse", "rank"):
            x = self._x[rows].copy()
            own = x[:, j].copy()
            x[:, j] = np.nan
            sse_f = np.nansum((x - self._f[rows, None]) ** 2, axis=1)
            sse_h = np.nansum((x - own[:, None]) ** 2, axis=1)
            return rows, sse_f <= sse_h, sse_h <= sse_f
        # jaccard: sums of similarities to the remaining humans
        c = self.codes[rows]
        others = c.copy()
        others[:, j] = -1
        sim_f = self._sim.sum_to(self.model[rows], others)
        sim_h = self._sim.sum_to(c[:, j], others)
        return rows, sim_f >= sim_h, sim_h >= sim_f

    def _callable(self, j: int, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        func = self.scoring
        vals = self.values.tolist()
        w_f = np.zeros(len(rows), dtype=bool)
        w_h = np.zeros(len(rows), dtype=bool)
        for n, i in enumerate(rows.tolist()):
            row = self.codes[i]
            rest = [vals[k] for col, k in enumerate(row.tolist()) if k >= 0 and col != j]
            s_f = _score(func, vals[int(self.model[i])], rest)
            s_h = _score(func, vals[int(row[j])], rest)
            w_f[n], w_h[n] = s_f >= s_h, s_h >= s_f
        return w_f, w_h


def _score(func: Callable[..., Any], value: Any, rest: list[Any]) -> float:
    out = func(value, rest)
    if not _is_number(out) or math.isnan(float(out)):
        name = getattr(func, "__name__", type(func).__name__)
        raise AccordError(f"scoring: the function {name} must return a number (higher: the annotation represents "
                          f"the others better); for {value!r} against {rest!r} it returned {out!r}")
    return float(out)


def make_scorer(scoring: str | Callable[..., Any], codes: np.ndarray, model: np.ndarray,
                values: np.ndarray) -> Scorer:
    """The :class:`Scorer` of *scoring* (a name of :data:`SCORINGS` but ``auto``, or a callable)."""
    return Scorer(scoring, codes, model, values)


def _numeric_table(values: np.ndarray, scoring: str) -> np.ndarray:
    if values.dtype.kind in "iuf":
        return values.astype(float)
    bad = [v for v in values.tolist() if not _is_number(v)]
    if bad:
        raise AccordError(f"scoring={scoring!r} compares numbers; the data hold {len(bad)} values that are not "
                          f"numbers, e.g. {shown(bad[0])} (use scoring='accuracy' for categories, 'jaccard' for "
                          "sets)",
                          cli=f"--scoring {scoring} compares numbers; the data hold {len(bad)} values that are not "
                              f"numbers, e.g. {shown(bad[0])} (use --scoring accuracy for categories, jaccard for "
                              "sets)")
    return np.asarray(values.tolist(), dtype=float)


def _ranks(x: np.ndarray) -> np.ndarray:
    """Each column ranked over its present (non-NaN) entries, average ranks for ties; NaN stays NaN."""
    from scipy.stats import rankdata

    return rankdata(x, axis=0, nan_policy="omit")


class _ValueCounts:
    """How many humans gave value v on item i, for any (i, v), from one sorted table of (item, value) keys."""

    def __init__(self, codes: np.ndarray, n_values: int) -> None:
        rows, cols = np.nonzero(codes >= 0)
        self.v = max(n_values, 1)
        keys, counts = np.unique(rows * self.v + codes[rows, cols], return_counts=True)
        self.keys, self.counts = keys, counts

    def lookup(self, rows: np.ndarray, values: np.ndarray) -> np.ndarray:
        if not len(self.keys):
            return np.zeros(len(rows), dtype=np.int64)
        key = rows * self.v + values
        pos = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        hit = (self.keys[pos] == key) & (values >= 0)
        return np.where(hit, self.counts[pos], 0)


class _PairSimilarity:
    """Jaccard similarities of the value pairs that meet on an item, each distinct pair computed once."""

    def __init__(self, codes: np.ndarray, values: np.ndarray) -> None:
        bad = [v for v in values.tolist() if not isinstance(v, frozenset)]
        if bad:
            raise AccordError(f"scoring='jaccard' compares label sets; the data hold {len(bad)} values that are not "
                              f"sets, e.g. {shown(bad[0])} (use scoring='accuracy' for single labels)",
                              cli=f"--scoring jaccard compares label sets; the data hold {len(bad)} values that are "
                                  f"not sets, e.g. {shown(bad[0])} (use --scoring accuracy for single labels)")
        self.v = max(len(values), 1)
        keys = []
        for a in range(codes.shape[1]):
            for b in range(codes.shape[1]):
                ok = (codes[:, a] >= 0) & (codes[:, b] >= 0)
                keys.append(codes[ok, a] * self.v + codes[ok, b])
        self.keys = np.unique(np.concatenate(keys)) if keys else np.zeros(0, dtype=np.int64)
        vals = values.tolist()
        self.sims = np.array([jaccard_similarity(vals[k // self.v], vals[k % self.v]) for k in self.keys.tolist()],
                             dtype=float)

    def sum_to(self, a: np.ndarray, others: np.ndarray) -> np.ndarray:
        """For each row, the sum of similarities of *a* to the row's present entries of *others*."""
        total = np.zeros(len(a))
        for col in range(others.shape[1]):
            b = others[:, col]
            ok = b >= 0
            key = a[ok] * self.v + b[ok]
            total[ok] += self.sims[np.searchsorted(self.keys, key)]
        return total
