"""Bootstrap intervals for span statistics, resampling documents.

Spans, tokens and unitizing sections are not independent within a document,
so the unit of resampling is the document (as for coreference alpha): each
statistic keeps per-document sums, and a resample is a vector of document
weights (how often each document was drawn).  The drawing and the interval
are :func:`accord.coefficients._alpha.bootstrap_groups`, shared with alpha.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord.coefficients._alpha import bootstrap_groups, interval_over_defined

__all__ = ["document_bootstrap"]


def document_bootstrap(
    n_documents: int,
    statistic: Callable[[np.ndarray], float],
    *,
    what: str,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    method: str = "percentile",
    rng: Any = None,
) -> tuple[float, float]:
    """Interval for *statistic* over documents drawn with replacement.

    Parameters
    ----------
    n_documents : int
        Documents that can be drawn.
    statistic : callable
        Receives the weight of each document (how often it was drawn, as
        floats) and returns the statistic; NaN for an undefined resample.
    what : str
        Name of the statistic, for messages.
    confidence_level, n_resamples, method, rng
        As for :meth:`accord.AlphaResult.confidence_interval`.

    Returns
    -------
    (low, high) : tuple of float

    Notes
    -----
    Resamples on which the statistic is undefined (say, only documents with
    no span drawn) are left out of the percentile and basic intervals; BCa,
    which needs them all, raises instead.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> lo, hi = document_bootstrap(4, lambda w: float(w @ x / w.sum()), what="mean", rng=0)
    >>> 1.0 <= lo < hi <= 4.0
    True
    """
    if n_documents < 2:
        raise AccordError(
            f"a confidence interval for {what} resamples documents and needs at least two; the data have "
            f"{n_documents}"
        )
    full = statistic(np.ones(n_documents))
    if isinstance(full, float) and math.isnan(full):
        raise AccordError(f"{what} is undefined on the data; no confidence interval")

    def on_indices(idx: np.ndarray) -> float:
        return statistic(np.bincount(idx.astype(np.int64), minlength=n_documents).astype(float))

    res = bootstrap_groups(
        n_documents, on_indices, confidence_level=confidence_level, n_resamples=n_resamples, method=method, rng=rng
    )
    return interval_over_defined(res, full, confidence_level=confidence_level, method=method, what=what)
