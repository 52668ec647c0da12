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

__all__ = ["alpha_statistic", "document_interval"]


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


def document_interval(candidates: Any, document_of_candidate: np.ndarray, n_documents: int, *,
                      confidence_level: float, n_resamples: int, method: str, rng: Any) -> tuple[float, float]:
    """The bootstrap interval of relation alpha over *n_documents* documents drawn with replacement."""
    from accord.spans._bootstrap import document_bootstrap

    return document_bootstrap(n_documents, alpha_statistic(candidates, document_of_candidate, n_documents),
                              what="relation alpha", confidence_level=confidence_level, n_resamples=n_resamples,
                              method=method, rng=rng)
