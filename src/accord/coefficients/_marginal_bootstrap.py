"""Bootstrap resamples under a distance that depends on the marginals (the ordinal one), a batch at a time.

Krippendorff's ordinal distance changes with the pooled value counts, so each
resample has its own delta_r.  Preparing it resample by resample and recounting
every unit's disagreement costs a Python loop per resample; instead, with unit
weights W (resamples x rows, a row being a unit or a signature):

- n_r = W @ m and the marginals n_r(v) = W @ N (N the rows x values counts);
- the coincidences C_r(b, c) = W @ Q, Q[u, (b, c)] = n_ub n_uc / (m_u - 1) over the
  distinct pairs b < c of values that share a row (delta(v, v) = 0, and delta is
  symmetric, so the other cells add nothing or repeat these);
- D_o = 2 sum_{b<c} C_r(b, c) delta_r(b, c) / n_r and
  D_e = sum_{b != c} n_r(b) n_r(c) delta_r(b, c) / (n_r (n_r - 1)),

with delta_r from :meth:`accord.distances.Distance.prepare_batch` (for ordinal,
the cumulative counts of each resample's marginals in rank order), so the
distance is never re-implemented here.  One matrix product gives n, the
marginals and C for the whole batch; no array is values x values.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from accord.coefficients._pairs import UnitCounts, within_unit_pairs
from accord.distances._base import Distance

__all__ = ["BATCH_CELLS", "MAX_PAIRS", "RowParts", "batch_size", "row_parts"]

#: Cells (resamples x columns) of the arrays one batch holds: the unit weights, the products and the deltas.
BATCH_CELLS = 1 << 22
#: Above this many distinct pairs of values sharing a unit, a batch of one resample would not fit the budget:
#: the bootstraps then prepare the distance resample by resample, as before (issue: large value domains).
MAX_PAIRS = BATCH_CELLS // 4
#: The parts are kept dense up to this many cells (rows x columns) when at least a quarter filled, else sparse.
_DENSE_CELLS = 25_000_000


class RowParts:
    """Per row (unit or signature): m_u, its value counts and its coincidence weights over the pairs of values.

    ``alphas(w)`` gives alpha under *dist* for each row of unit weights *w*
    (resamples x rows), each resample's distance prepared from its own marginals.
    """

    def __init__(self, uc: UnitCounts, values: np.ndarray, dist: Distance, b: np.ndarray, c: np.ndarray,
                 parts: np.ndarray | sp.csr_matrix) -> None:
        self.values, self.dist, self.b, self.c, self.parts = values, dist, b, c, parts
        self.n_values = uc.n_values
        self.n_rows = uc.n_rows

    @property
    def n_pairs(self) -> int:
        return len(self.b)

    def batch(self) -> int:
        """Resamples per batch that keep the arrays within :data:`BATCH_CELLS`."""
        return batch_size(self.n_rows, self.n_values, self.n_pairs)

    def alphas(self, w: np.ndarray) -> np.ndarray:
        """Alpha for each row of *w* (resamples x rows of unit weights); NaN where D_e is 0."""
        w = np.asarray(w, dtype=float)
        prod = w @ self.parts if isinstance(self.parts, np.ndarray) else np.asarray(self.parts.T @ w.T).T
        v = self.n_values
        n, marg, coinc = prod[:, 0], prod[:, 1 : 1 + v], prod[:, 1 + v :]
        prep = self.dist.prepare_batch(self.values, marg)
        assert prep is not None  # row_parts checked it
        d_o_sum = 2.0 * np.einsum("rk,rk->r", coinc, prep.pairs(self.b, self.c)) if self.n_pairs else np.zeros(len(w))
        cross = prep.cross_sum(marg, marg)
        with np.errstate(divide="ignore", invalid="ignore"):
            d_o = d_o_sum / n
            d_e = cross / (n * (n - 1.0))
            return np.where(d_e > 0, 1.0 - d_o / d_e, np.nan)


def batch_size(n_rows: int, n_values: int, n_pairs: int) -> int:
    """Resamples per batch: each holds its unit weights, its marginals (and their cumulative counts) and its
    coincidences and deltas over the pairs."""
    return max(1, BATCH_CELLS // max(n_rows + 4 * n_values + 3 * n_pairs, 1))


def row_parts(uc: UnitCounts, values: np.ndarray, dist: Distance) -> RowParts | None:
    """The parts of the batched bootstrap of *uc* (one row per unit or signature, weights ignored), or None when
    it does not apply: *dist* has no batched form, or the pairs of values sharing a row exceed :data:`MAX_PAIRS`
    (say 1,000 distinct values all meeting each other; the caller's per-resample loop then runs)."""
    if dist.prepare_batch(values, uc.marginals()[None, :]) is None:
        return None
    left, right = within_unit_pairs(uc)
    value, count, unit = uc.value, uc.count, uc.unit
    keep = value[left] < value[right]
    left, right = left[keep], right[keep]
    v = np.int64(uc.n_values)
    pair_keys, inverse = np.unique(value[left] * v + value[right], return_inverse=True)
    if len(pair_keys) > MAX_PAIRS:
        return None
    k = len(pair_keys)
    p = uc.n_rows
    rows = unit[left]
    q = count[left] * count[right] / (uc.m - 1.0)[rows]
    cols = 1 + uc.n_values + k
    parts = sp.csr_matrix(
        (np.concatenate([uc.m, count, q]),
         (np.concatenate([np.arange(p), unit, rows]),
          np.concatenate([np.zeros(p, dtype=np.int64), 1 + value, 1 + uc.n_values + inverse.reshape(-1)]))),
        shape=(p, cols),
    )
    # dense when small and at least a quarter filled (few values: W @ parts is then one BLAS product), else sparse
    dense = p * cols <= _DENSE_CELLS and 4 * parts.nnz >= p * cols
    return RowParts(uc, values, dist, pair_keys // v, pair_keys % v, parts.toarray() if dense else parts.tocsr())
