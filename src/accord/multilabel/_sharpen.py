"""Sharpening, the paper's future work: iterated annotator and item weights.

:func:`sharpen` alternates between weighting annotators by their agreement
with the others and items by how much their annotators agree, and returns the
weighted label of each item.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning
from accord._shared.results import Result
from accord.multilabel._kappa import _kappa_from, _validate
from accord.multilabel._model import MultiLabelData
from accord.multilabel._weights import WeightRule, _check_p, _matrices, _rule_name

__all__ = [
    "SharpenedLabels",
    "sharpen",
]


# =============================================================== sharpening
@dataclass(frozen=True)
class SharpenedLabels(Result):
    """Per-item labels from iterated annotator and item weights ("sharpening").

    Attributes
    ----------
    annotators : tuple
    annotator_weights : numpy.ndarray
        Final weights, ``max(kappa, 0)`` scaled so the largest is 1.
    annotator_kappa : numpy.ndarray
        Each annotator's item-weighted ``K'`` against the weighted group
        without them, at the last iteration.
    items : tuple
    item_weights : numpy.ndarray
        How well the weighted group agrees on each item, in [0, 1] (1: all
        weight on one label).
    item_labels : tuple
        The label with the most weight in the weighted group (None for an
        item nobody labelled).
    item_confidence : numpy.ndarray
        That label's share of the weight, in (0, 1].
    item_tied : numpy.ndarray of bool
        Another label has the same share (the first category in order is
        reported).
    label_distribution : numpy.ndarray
        Items x categories: the weighted group's label distribution.
    categories : tuple
    p : float
    rule : str
    item_measure : str
    n_iterations : int
    converged : bool
    reason : str or None
    """

    annotators: tuple[Hashable, ...]
    annotator_weights: np.ndarray
    annotator_kappa: np.ndarray
    items: tuple[Hashable, ...]
    item_weights: np.ndarray
    item_labels: tuple[Hashable | None, ...]
    item_confidence: np.ndarray
    item_tied: np.ndarray
    label_distribution: np.ndarray
    categories: tuple[Hashable, ...]
    p: float
    rule: str
    item_measure: str
    n_iterations: int
    converged: bool
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per item: label, confidence, weight, tie flag."""
        return pd.DataFrame(
            {
                "item": list(self.items),
                "label": list(self.item_labels),
                "confidence": self.item_confidence,
                "item_weight": self.item_weights,
                "tied": self.item_tied,
            }
        )


def _group(m: np.ndarray, lab: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted sum of annotation rows per item (N x C) and the total weight per item (N,)."""
    lw = lab * w[:, None]
    return np.einsum("an,anc->nc", lw, m), lw.sum(axis=0)


def _item_agreement(
    m: np.ndarray, lab: np.ndarray, w: np.ndarray, measure: str
) -> tuple[np.ndarray, np.ndarray]:
    s, tot = _group(m, lab, w)
    with np.errstate(divide="ignore", invalid="ignore"):
        dist = s / tot[:, None]
    dist[tot <= 0] = np.nan
    c = m.shape[2]
    if measure == "entropy":
        with np.errstate(divide="ignore", invalid="ignore"):
            h = -np.nansum(np.where(dist > 0, dist * np.log(dist), 0.0), axis=1)
        v = 1.0 - h / math.log(c) if c > 1 else np.ones(len(h))
    else:
        # weighted variance of the annotators' rows around the group row: sum_a w_a |m_a|^2 / W - |G|^2
        sq = np.einsum("an,anc,anc->n", lab * w[:, None], m, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = 1.0 - (sq / tot - np.einsum("nc,nc->n", dist, dist))
    v = np.where(tot > 0, np.clip(v, 0.0, 1.0), np.nan)
    return v, dist


def _annotator_kappa(m: np.ndarray, lab: np.ndarray, w: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Each annotator's item-weighted K' against the weighted group of the others."""
    s, tot = _group(m, lab, w)
    lw = lab * w[:, None]
    rest = tot[None, :] - lw  # A x N
    with np.errstate(divide="ignore", invalid="ignore"):
        g = (s[None] - lw[..., None] * m) / rest[..., None]  # A x N x C
    use = lab & (rest > 1e-12) & np.isfinite(v)[None, :]
    iv = np.where(use, np.nan_to_num(v)[None, :], 0.0)  # item weights where usable
    g = np.where(use[..., None], g, 0.0)
    tw = iv.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = np.einsum("an,anc,anc->a", iv, m, g) / tw
        fa = np.einsum("an,anc->ac", iv, m) / tw[:, None]
        fg = np.einsum("an,anc->ac", iv, g) / tw[:, None]
        pe = np.einsum("ac,ac->a", fa, fg)
    k = _kappa_from(pa, pe)
    return np.where(tw > 0, k, np.nan)


def sharpen(
    data: MultiLabelData,
    *,
    p: float,
    rule: WeightRule = "pair",
    item_measure: Literal["entropy", "variance"] = "entropy",
    tol: float = 1e-6,
    max_iter: int = 100,
) -> SharpenedLabels:
    """Iterate annotator and item weights to a weighted label per item ("sharpening").

    Rosenberg & Binkowski (2004, section 8) sketch it as future work:
    annotators ranked by how well they agree with the group (kappa), items by
    how well the group agrees on them (variance or ``-p ln p``), each ranking
    used to weight the other, alternating until the weights barely change.

    Parameters
    ----------
    data : MultiLabelData
        Two or more annotators (with two, both always get the same weight).
    p : float
        Weight of the primary label in [0.5, 1].
    rule : str or callable
        Weighting rule.
    item_measure : {"entropy", "variance"}
        How item weights measure group agreement.
    tol : float
        Stop when no weight moves by more than *tol*.
    max_iter : int
        Upper bound on iterations; not converging is reported (``converged``,
        ``reason``) and warned about.

    Returns
    -------
    SharpenedLabels

    Notes
    -----
    The paper leaves every detail open; the choices made here:

    1. Start with all annotator weights ``w_a = 1`` and item weights ``v_x = 1``.
    2. Group distribution of item x: ``G_x = sum_a w_a M_a[x] / sum_a w_a`` over
       the annotators who labelled x (``M_a`` at the given p).
    3. Item weight from ``G_x``: ``1 - H(G_x) / ln M`` (entropy, M categories)
       or ``1 - (sum_a w_a |M_a[x]|^2 / sum_a w_a - |G_x|^2)`` (weighted variance
       of the annotators' rows); both are 1 when all weight is on one label.
    4. Annotator kappa: ``K'`` between ``M_a`` and the weighted group without a,
       ``G_{-a}``, with every sum over items weighted by ``v_x`` (items where a
       or every other weighted annotator is missing are left out).
    5. ``w_a = max(kappa_a, 0)``, scaled so the largest is 1: annotators no
       better than chance get no say.  If every weight would be 0 the iteration
       stops (``reason`` says so) with the previous weights.
    6. Repeat 2-5 until no weight moves by more than *tol*.

    The label of item x is ``argmax_y G_x[y]`` and its confidence ``G_x[y]``.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({
    ...     "A": ["q", "a", "s", "q,a", "s"],
    ...     "B": ["q", "a", "s", "q", "s,q"],
    ...     "C": ["a", "s", "q", "a", "q"]})
    >>> res = sharpen(data, p=0.6)
    >>> res.annotator_weights.round(2)
    array([1., 1., 0.])
    >>> res.item_labels
    ('q', 'a', 's', 'q', 's')
    """
    pf = _check_p(p)
    _validate(data, rule)
    if item_measure not in ("entropy", "variance"):
        raise AccordError(f"item_measure must be 'entropy' or 'variance'; got {item_measure!r}")
    if not (isinstance(tol, int | float) and tol > 0):
        raise AccordError(f"tol must be a positive number; got {tol!r}")
    if not (isinstance(max_iter, int | np.integer) and max_iter >= 1):
        raise AccordError(f"max_iter must be an integer >= 1; got {max_iter!r}")
    m = _matrices(data, pf, rule)
    lab = data.labelled
    w = np.ones(data.n_annotators)
    v, dist = _item_agreement(m, lab, w, item_measure)
    kap = np.full(data.n_annotators, np.nan)
    converged, reason, n_iter = False, None, 0
    for it in range(1, max_iter + 1):  # iterations, each vectorised over items
        n_iter = it
        kap = _annotator_kappa(m, lab, w, v)
        new_w = np.clip(np.nan_to_num(kap, nan=0.0), 0.0, None)
        if new_w.max() <= 0:
            reason = (
                "no annotator agrees with the weighted group better than chance; weights left as they were"
            )
            break
        new_w = new_w / new_w.max()
        new_v, new_dist = _item_agreement(m, lab, new_w, item_measure)
        change = max(float(np.max(np.abs(new_w - w))), float(np.nanmax(np.abs(new_v - v), initial=0.0)))
        w, v, dist = new_w, new_v, new_dist
        if change <= tol:
            converged = True
            break
    if not converged and reason is None:
        reason = f"weights still moving after max_iter={max_iter} iterations"
    if reason is not None:
        warnings.warn(f"sharpening: {reason}", AccordWarning, stacklevel=2)
    has = np.isfinite(dist).all(axis=1)
    filled = np.where(has[:, None], dist, -1.0)
    best = filled.argmax(axis=1)
    conf = np.where(has, filled[np.arange(len(best)), best], np.nan)
    tied = has & ((np.abs(filled - conf[:, None]) <= 1e-12).sum(axis=1) > 1)
    cats = np.asarray(data.categories, dtype=object)
    labels = tuple(cats[b] if h else None for b, h in zip(best, has, strict=True))
    return SharpenedLabels(
        annotators=data.annotators,
        annotator_weights=w,
        annotator_kappa=kap,
        items=data.items,
        item_weights=v,
        item_labels=labels,
        item_confidence=conf,
        item_tied=tied,
        label_distribution=dist,
        categories=data.categories,
        p=pf,
        rule=_rule_name(rule),
        item_measure=item_measure,
        n_iterations=n_iter,
        converged=converged,
        reason=reason,
    )
