"""The units x coders matrix of numeric ratings that ICC, Kendall's W and Lin's CCC work on."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.names import shown_list
from accord.coefficients._alpha import check_annotations
from accord.data._annotations import Layout, as_annotations
from accord.distances._scalar import _rescaled, number_labels

__all__ = ["RatingMatrix", "rating_matrix"]


@dataclass(frozen=True)
class RatingMatrix:
    """Complete cases: one row per unit every coder rated, one column per coder (numbers)."""

    x: np.ndarray
    units: np.ndarray
    coders: np.ndarray
    n_units_dropped: int
    source: str | None


def rating_matrix(
    data: Any, *, name: str, layout: Layout = "coders-by-units", coders: tuple[Any, ...] | None = None,
    min_units: int = 2, min_coders: int = 2,
) -> RatingMatrix:
    """The complete units x coders matrix of *data*'s numeric ratings; units some coder left out are dropped.

    The classical ANOVA and rank forms need every unit rated by every coder: units missing a rating are
    left out (listwise deletion, as R's irr and psych and pingouin's ``nan_policy="omit"`` do), counted in
    ``n_units_dropped`` and said in an :class:`~accord.AccordWarning`.  Coders who rated nothing are not
    coders of the study and are not counted.
    """
    data = check_annotations(as_annotations(data, layout=layout))
    numbers = number_labels(data.values)  # numbers, or ratings written as text ("4"): the numbers they spell
    if numbers is None:
        raise AccordError(f"{name} needs numeric ratings; the values of {data.source or 'the data'} are labels "
                          f"({shown_list(data.values.tolist(), 4)})")
    present = np.unique(data.coder_index)
    if coders is not None:
        labels = data.coders.tolist()
        missing = [c for c in coders if c not in labels]
        if missing:
            raise AccordError(f"coders: {missing[0]!r} is not a coder in the data; coders are {labels!r}")
        if len(set(coders)) != len(coders):
            raise AccordError(f"coders must name different coders; got {coders!r}")
        present = np.array([labels.index(c) for c in coders], dtype=np.int64)
    k = len(present)
    if k < min_coders:
        raise AccordError(f"{name} needs {min_coders} or more coders with ratings; the data have {k}")
    col = np.full(data.n_coders, -1, dtype=np.int64)
    col[present] = np.arange(k)
    keep = col[data.coder_index] >= 0
    x = np.full((data.n_units, k), np.nan)
    x[data.unit_index[keep], col[data.coder_index[keep]]] = numbers[data.value_index[keep]]
    rated = ~np.isnan(x).all(axis=1)
    complete = ~np.isnan(x).any(axis=1)
    dropped = int(np.count_nonzero(rated & ~complete))
    if dropped:
        warnings.warn(
            f"{name}: {dropped} of {int(rated.sum())} units {'is' if dropped == 1 else 'are'} not rated by all "
            f"{k} coders and left out "
            "(complete units only, as R's irr and psych and pingouin use them)", AccordWarning, stacklevel=3,
        )
    n = int(complete.sum())
    if n < min_units:
        raise AccordError(f"{name} needs {min_units} or more units rated by all {plural(k, 'coder')}; "
                          f"{data.source or 'the data'} have {n}")
    x, exponent = _rescaled(x[complete])
    if exponent:
        how = "divided" if exponent > 0 else "multiplied"
        warnings.warn(
            f"{name}: the ratings reach 2^{exponent - 1} or more in magnitude, too large or small to square in a "
            f"float: they were {how} by 2^{abs(exponent)} first (the coefficient does not depend on the scale; "
            "its mean squares are in those units)", AccordWarning, stacklevel=3,
        )
    return RatingMatrix(x=x, units=data.units[complete], coders=data.coders[present],
                        n_units_dropped=dropped, source=data.source)


