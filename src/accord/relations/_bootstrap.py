"""The bootstrap interval of relation alpha, resampling documents.

The candidate argument pairs of one document share their spans (an argument takes part in several candidates),
so they are not independent draws: the unit of resampling is the document, as for span F1, token alpha and
unitizing alpha (:mod:`accord.spans._bootstrap`).  Nominal alpha's observed disagreement and value marginals
are summed per document once; a resample reweights them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["alpha_statistic", "document_interval", "kappa_statistic"]


def alpha_statistic(candidates: Any, document_of_candidate: np.ndarray, n_documents: int
                    ) -> Callable[[np.ndarray], float]:
    """Nominal alpha over *candidates* (:class:`~accord.Annotations`, unit = candidate number) as a function of
    the weight of each document (how often a resample drew it); NaN where it is undefined."""
    from accord.coefficients._pairs import count_values, unit_disagreement_sums
    from accord.distances import get_distance

    uc = count_values(candidates)
    prepared = get_distance("nominal").prepare(candidates.values, uc.marginals())
    doc_u = document_of_candidate[np.asarray(candidates.units, dtype=np.int64)[uc.unit_ids]]
    obs = np.bincount(doc_u, weights=unit_disagreement_sums(uc, prepared) / (uc.m - 1.0), minlength=n_documents)
    n_d = np.bincount(doc_u, weights=uc.m, minlength=n_documents)
    v = uc.n_values
    marg = np.bincount(doc_u[uc.unit] * v + uc.value, weights=uc.count,
                       minlength=n_documents * v).reshape(n_documents, v)

    def statistic(w: np.ndarray) -> float:
        n = float(w @ n_d)
        if n < 2:
            return np.nan
        m = w @ marg
        d_e = prepared.cross_sum(m, m) / (n * (n - 1.0))
        return 1.0 - (float(w @ obs) / n) / d_e if d_e > 0 else np.nan

    return statistic


def kappa_statistic(candidates: Any, document_of_candidate: np.ndarray, n_documents: int
                    ) -> Callable[[np.ndarray], float]:
    """Cohen's kappa over *candidates* (two coders; the candidates both gave a value) as a function of the weight
    of each document; NaN where it is undefined (no candidate drawn, or no expected disagreement).

    Per document, the candidates both coders valued, those they agree on, and each coder's count of each value
    are summed once; a resample's kappa is ``1 - (1 - p_o) / (1 - sum_v p_a(v) p_b(v))`` over the weighted sums.
    """
    u, c, v = candidates.unit_index, candidates.coder_index, candidates.value_index
    n_values = len(candidates.values)
    # entries are sorted by unit then coder: a unit both coders valued is two consecutive entries
    both = np.flatnonzero((u[1:] == u[:-1]) & (c[1:] != c[:-1])) if len(u) else np.zeros(0, dtype=np.int64)
    va, vb = v[both], v[both + 1]
    doc = document_of_candidate[np.asarray(candidates.units, dtype=np.int64)[u[both]]]
    n_d = np.bincount(doc, minlength=n_documents).astype(float)
    agree = np.bincount(doc, weights=(va == vb).astype(float), minlength=n_documents)
    marg_a = np.bincount(doc * n_values + va, minlength=n_documents * n_values).reshape(n_documents, n_values)
    marg_b = np.bincount(doc * n_values + vb, minlength=n_documents * n_values).reshape(n_documents, n_values)

    def statistic(w: np.ndarray) -> float:
        n = float(w @ n_d)
        if n <= 0:
            return np.nan
        d_e = 1.0 - float((w @ marg_a) @ (w @ marg_b)) / (n * n)
        return 1.0 - (1.0 - float(w @ agree) / n) / d_e if d_e > 0 else np.nan

    return statistic


def document_interval(candidates: Any, document_of_candidate: np.ndarray, n_documents: int, *,
                      confidence_level: float, n_resamples: int, method: str, rng: Any,
                      coefficient: str = "alpha") -> tuple[float, float]:
    """The bootstrap interval of relation alpha (or Cohen's kappa, *coefficient* ``"kappa"``) over *n_documents*
    documents drawn with replacement."""
    from accord.spans._bootstrap import document_bootstrap

    make = kappa_statistic if coefficient == "kappa" else alpha_statistic
    what = "relation kappa" if coefficient == "kappa" else "relation alpha"
    return document_bootstrap(n_documents, make(candidates, document_of_candidate, n_documents),
                              what=what, confidence_level=confidence_level, n_resamples=n_resamples,
                              method=method, rng=rng)
