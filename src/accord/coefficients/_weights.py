r"""Kappa weights by name for ordered categories, as Gwet (2014) and irrCAC define them.

A weighted agreement coefficient gives partial credit w_kl in [0, 1] when one rater says category k and
another l (w_kk = 1).  Gwet's Handbook (2014, section 3.4) and his irrCAC package name eight schemes;
accord computes them from the same definitions (irrCAC's ``weights.Weights``, read in
``irrCAC/weights.py``), over the categories' numeric values when they are numbers and over their ranks
1..q in the given order otherwise:

============  ==========================================================================================
name          w_kl, with x the category scores, x_min, x_max their range, r their ranks 1..q
============  ==========================================================================================
identity      1 if k = l else 0 (unweighted)
linear        1 - |x_k - x_l| / (x_max - x_min)
quadratic     1 - (x_k - x_l)^2 / (x_max - x_min)^2
ordinal       1 - d_kl / max d, with m = |r_k - r_l| + 1 and d_kl = m (m - 1) / 2
radical       1 - sqrt|x_k - x_l| / sqrt(x_max - x_min)
ratio         1 - ((x_k - x_l) / (x_k + x_l))^2 / ((x_max - x_min) / (x_max + x_min))^2 (positive x)
circular      1 - d_kl / max d, with d_kl = sin^2(pi (x_k - x_l) / (x_max - x_min + 1))
bipolar       1 - d_kl / max d, with d_kl = (x_k - x_l)^2 / ((x_k + x_l - 2 x_min)(2 x_max - x_k - x_l)),
              k != l
============  ==========================================================================================

The coefficients that take ``weights=`` (Cohen's weighted kappa, Fleiss' kappa, Gwet's AC2,
Brennan-Prediger, Conger's kappa, Light's kappa) turn them into the disagreement 1 - w_kl and count pairs
with the one engine (:mod:`accord.coefficients._pairs`), as with any distance.

References
----------
Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics, section 3.4.
Gwet, K. L. irrCAC (R) and its Python port by A. Fergadis, ``irrCAC.weights.Weights``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, plural
from accord._shared.names import shown, shown_list
from accord.data._annotations import Annotations
from accord.distances import Distance, PreparedDistance

__all__ = ["WEIGHT_NAMES", "WEIGHT_SCORES", "kappa_weights"]

#: The named weights, as irrCAC spells them.
WEIGHT_NAMES = ("identity", "linear", "quadratic", "ordinal", "radical", "ratio", "circular", "bipolar")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


def kappa_weights(name: str, categories: Sequence[Hashable], *, scores: str = "values") -> np.ndarray:
    """The q x q agreement weights *name* over *categories*, as irrCAC computes them.

    Parameters
    ----------
    name : str
        One of :data:`WEIGHT_NAMES`.
    categories : sequence
        The q categories.  Numbers are used as scores; any other labels are taken in the order
        given, as the scores 1..q.
    scores : {"values", "ranks"}, keyword-only
        What the weights measure distances on.  ``"values"`` (default, irrCAC's): numeric categories by
        their values (codes 1, 2, 5 are 3 apart from 2 to 5), labels by their ranks.  ``"ranks"``: every
        category by its rank 1..q in *categories* (codes 1, 2, 5 are one step apart), which is R irr's
        ``kappa2(weight = "equal" | "squared")``: it indexes the categories present, whatever their
        values.  The default keeps the scale the codes are on; pass the categories present (or the
        scale's) with ``"ranks"`` to reproduce irr.

    Returns
    -------
    numpy.ndarray
        w[k, l], the credit when one rater chose ``categories[k]`` and the other ``categories[l]``.

    Examples
    --------
    >>> kappa_weights("linear", [1, 2, 3])
    array([[1. , 0.5, 0. ],
           [0.5, 1. , 0.5],
           [0. , 0.5, 1. ]])
    >>> kappa_weights("quadratic", ["low", "mid", "high"])[0]
    array([1.  , 0.75, 0.  ])
    >>> kappa_weights("linear", [1, 2, 5])[0], kappa_weights("linear", [1, 2, 5], scores="ranks")[0]
    (array([1.  , 0.75, 0.  ]), array([1. , 0.5, 0. ]))
    """
    if scores not in ("values", "ranks"):
        raise AccordError(f"scores must be 'values' or 'ranks'; got {scores!r}")
    if name not in WEIGHT_NAMES:
        raise AccordError(f"weights must be one of {', '.join(WEIGHT_NAMES)} (or a q x q matrix); got {name!r}")
    cats = list(categories)
    q = len(cats)
    if q == 0:
        raise AccordError("weights need at least one category")
    if len(set(cats)) != q:
        raise AccordError(f"categories must not repeat a category; got {shown_list(cats, 12)}")
    if name == "identity" or q == 1:
        return np.eye(q)
    numeric = scores == "values" and all(_is_number(c) for c in cats)
    x = np.asarray(cats, dtype=float) if numeric else np.arange(1.0, q + 1.0)
    lo, hi = float(x.min()), float(x.max())
    diff = x[:, None] - x[None, :]
    if name == "linear":
        return 1.0 - np.abs(diff) / (hi - lo)
    if name == "quadratic":
        return 1.0 - (diff / (hi - lo)) ** 2
    if name == "radical":
        return 1.0 - np.sqrt(np.abs(diff)) / np.sqrt(hi - lo)
    if name == "ratio":
        if lo <= 0:
            raise AccordError(f"ratio weights need positive categories; the smallest is {lo:g}")
        summ = x[:, None] + x[None, :]
        return 1.0 - (diff / summ) ** 2 / ((hi - lo) / (hi + lo)) ** 2
    if name == "ordinal":
        rank = np.argsort(np.argsort(x, kind="stable"), kind="stable").astype(float)
        m = np.abs(rank[:, None] - rank[None, :]) + 1.0
        d = m * (m - 1.0) / 2.0
    elif name == "circular":
        d = np.sin(np.pi * diff / (hi - lo + 1.0)) ** 2
    else:  # bipolar
        num = diff**2
        den = (x[:, None] + x[None, :] - 2.0 * lo) * (2.0 * hi - x[:, None] - x[None, :])
        off = ~np.eye(q, dtype=bool)
        d = np.zeros((q, q))
        d[off] = num[off] / den[off]
    return 1.0 - d / d.max()


class WeightsDistance(Distance):
    """Disagreement 1 - w_kl from agreement weights over the categories (the value table, in order)."""

    def __init__(self, weights: np.ndarray, name: str = "custom weights") -> None:
        self.weights = np.asarray(weights, dtype=float)
        self._delta = 1.0 - self.weights
        self.name = name

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        if len(values) != len(self._delta):
            raise AccordError(f"{self.name}: {len(self._delta)} x {len(self._delta)} weights for "
                              f"{plural(len(values), 'value')}")
        return PreparedMatrix(self._delta)


class PreparedMatrix(PreparedDistance):
    """A distance given as a V x V matrix over the value table."""

    dense_ok = True

    def __init__(self, delta: np.ndarray) -> None:
        self._delta = delta
        self.values = np.arange(len(delta))
        self.counts = np.zeros(len(delta))

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return self._delta[i, j]

    def matrix(self) -> np.ndarray:
        return self._delta

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        return float(np.asarray(a, dtype=float) @ self._delta @ np.asarray(b, dtype=float))


def category_codes(values: np.ndarray, categories: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """The code of each value in the category list, and the category list as the new value table."""
    cats = list(categories)
    if len(set(cats)) != len(cats):
        raise AccordError(f"categories must not repeat a category; got {shown_list(cats, 12)}")
    where = {c: i for i, c in enumerate(cats)}
    try:
        remap = np.array([where[v] for v in values.tolist()], dtype=np.int64)
    except KeyError as exc:
        raise AccordError(
            f"categories: the data hold the value {shown(exc.args[0])}, which is not among the categories "
            f"{shown_list(cats, 12)}"
        ) from None
    table = np.array(cats) if all(isinstance(c, (int, float, str)) for c in cats) else np.array(cats, dtype=object)
    if table.dtype.kind not in "biufUO":
        table = np.array(cats, dtype=object)
    return remap, table


def used_values(data: Annotations) -> Annotations:
    """*data* over the values some rating uses, in the value table's order.

    A value table can hold values no rating uses: a count table's zero column
    (:meth:`Annotations.from_counts`), or the values of coders left out by
    :meth:`Annotations.select_coders`.  They are not data: they are dropped here, so that the categories a
    coefficient calls "observed" are the ones observed.
    """
    used = np.flatnonzero(np.bincount(data.value_index, minlength=len(data.values)))
    if len(used) == len(data.values):
        return data
    remap = np.full(len(data.values), -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    return Annotations(
        unit_index=data.unit_index,
        coder_index=data.coder_index,
        value_index=remap[data.value_index],
        units=data.units,
        coders=data.coders,
        values=data.values[used],
        n_missing=data.n_missing,
        source=data.source,
        _row_numbers=data._row_numbers,
    )


def on_categories(data: Annotations, categories: Sequence[Hashable] | None) -> Annotations:
    """Re-express *data* over the full category list (unused categories count in q).

    Every value a rating uses must be a category; values in the value table that no rating uses (a count
    table's zero column, the values of coders left out) are not checked: they are not data.
    """
    if categories is None:
        return data
    data = used_values(data)
    remap, values = category_codes(data.values, categories)
    return Annotations(
        unit_index=data.unit_index,
        coder_index=data.coder_index,
        value_index=remap[data.value_index],
        units=data.units,
        coders=data.coders,
        values=values,
        n_missing=data.n_missing,
        source=data.source,
    )


#: What named weights measure distances on (``weight_scores=``): the numeric values, or the ranks.
WEIGHT_SCORES = ("values", "ranks")


def check_weight_scores(weight_scores: Any, weights: Any) -> str:
    """*weight_scores* checked: one of :data:`WEIGHT_SCORES`, and ``"ranks"`` only with named weights."""
    if not isinstance(weight_scores, str) or weight_scores not in WEIGHT_SCORES:
        raise AccordError(f"weight_scores must be 'values' or 'ranks'; got {shown(weight_scores)}",
                          cli=f"--weight-scores must be values or ranks; got {shown(weight_scores)}")
    if weight_scores == "ranks" and not isinstance(weights, str):
        raise AccordError("weight_scores='ranks' applies to named weights (weights='linear', ...); "
                          + ("no weights were given" if weights is None else "the weights given are a matrix"),
                          cli="--weight-scores ranks applies to named weights (--weights linear, ...)")
    return weight_scores


def weights_matrix(
    weights: Any, values: np.ndarray, *, ordered: bool, scores: str = "values"
) -> tuple[np.ndarray, str]:
    """Agreement weights over the value table *values*: a name of :data:`WEIGHT_NAMES` or a q x q matrix, checked.

    *ordered* says the value table is an order the user gave (``categories=``); without it, named weights
    other than identity need numbers, since text labels carry no order of their own.  *scores* ``"ranks"``
    (named weights only) spaces the categories evenly: by their order when *ordered*, else by their numeric
    order (R irr's ``kappa2`` convention over the categories present).
    """
    q = len(values)
    if scores == "ranks" and isinstance(weights, str) and weights in WEIGHT_NAMES:
        cats = values.tolist()
        if not ordered:
            from accord.distances._scalar import number_labels

            numbers = cats if all(_is_number(c) for c in cats) else number_labels(values)
            if numbers is not None and weights != "identity":
                nums = np.asarray(numbers, dtype=float)
                if len(set(nums.tolist())) == q:  # each category's rank 1..q by its number
                    ranks = np.argsort(np.argsort(nums, kind="stable"), kind="stable") + 1.0
                    return kappa_weights(weights, ranks.tolist()), f"{weights} weights (ranks)"
            else:
                return weights_matrix(weights, values, ordered=False)  # labels: refused as without ranks
        return kappa_weights(weights, cats, scores="ranks"), f"{weights} weights (ranks)"
    if isinstance(weights, str):
        if weights not in WEIGHT_NAMES:
            raise AccordError(f"weights must be one of {', '.join(WEIGHT_NAMES)} or a q x q matrix; got {weights!r}")
        cats = values.tolist()
        if not ordered and not all(_is_number(c) for c in cats):
            from accord.distances._scalar import number_labels

            spelled = number_labels(values)  # ratings written as text ("4"): scored by the numbers they spell
            if spelled is not None and len(set(spelled.tolist())) == q:
                cats = spelled.tolist()
        if weights != "identity" and not ordered and not all(_is_number(c) for c in cats):
            listed = shown_list(cats, 6)
            head = f"weights={weights!r} need the order of the categories, and the values are labels ({listed}): "
            raise AccordError(head + "pass categories=[...] in their order",
                              cli=f"--weights {weights} needs the order of the categories, and the values are labels "
                                  f"({listed}): give them lowest to highest with --order \"lowest,...,highest\"")
        return kappa_weights(weights, cats), f"{weights} weights"
    w = np.asarray(weights, dtype=float)
    if w.shape != (q, q):
        raise AccordError(
            f"weights must be a {q} x {q} matrix over the categories {shown_list(values.tolist(), 12)}; got shape "
            f"{w.shape}"
        )
    if not np.allclose(np.diag(w), 1.0) or (w < 0).any() or (w > 1).any():
        raise AccordError("weights must be agreement weights: 1 on the diagonal, between 0 and 1 elsewhere")
    return w, "custom weights"


def resolve_weights(
    data: Annotations, weights: Any, categories: Sequence[Hashable] | None, *, scores: str = "values"
) -> tuple[Annotations, WeightsDistance]:
    """*data* over *categories* (when given) and the distance 1 - w of *weights* over its value table.

    With *scores* ``"ranks"`` and no *categories*, the categories are those some rating uses (R irr's levels
    of the ratings), each one step from the next.
    """
    if scores == "ranks" and categories is None:
        data = used_values(data)
    data = on_categories(data, categories)
    w, name = weights_matrix(weights, data.values, ordered=categories is not None, scores=scores)
    return data, WeightsDistance(w, name)
