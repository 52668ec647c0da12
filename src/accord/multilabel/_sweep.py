"""The sweep of ``K'`` over a grid of ``p`` and the paper's four classes of items (its section 6).

:func:`augmented_kappa_sweep` computes ``K'`` and each item's agreement for
every ``p`` of a grid; :func:`classify_items` sorts the items into constant
high, constant low, better at ``p = 1`` and better at ``p = 0.5``.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.names import shown
from accord._shared.results import Result
from accord.multilabel._kappa import _kappa_from, _pair_core, _pairs, _validate
from accord.multilabel._model import MultiLabelData
from accord.multilabel._weights import WeightRule, _matrices, _rule_name

__all__ = [
    "ITEM_CLASSES",
    "AugmentedKappaSweep",
    "ItemClasses",
    "augmented_kappa_sweep",
    "classify_items",
]


#: The paper's four classes of items (section 6), in its order: Class 1 constant
#: high, Class 2 constant low, Class 3 better at p = 1, Class 4 better at p = 0.5.
ITEM_CLASSES: tuple[str, ...] = ("constant_high", "constant_low", "better_at_p1", "better_at_p05")

_DEFAULT_GRID = np.linspace(0.5, 1.0, 11)


# ==================================================================== sweep
@dataclass(frozen=True)
class AugmentedKappaSweep(Result):
    """``K'`` and per-item agreement over a grid of primary weights ``p``.

    Attributes
    ----------
    grid : numpy.ndarray
        The values of p (G of them, increasing).
    kappa : numpy.ndarray
        ``K'`` at each p (mean over pairs with more than two annotators).
    observed_agreement, expected_agreement : numpy.ndarray
        ``p(A)``, ``p(E)`` at each p (means over pairs).
    pair_names : tuple of (hashable, hashable)
    pair_kappa : numpy.ndarray
        Pairs x G.
    items : tuple
    item_agreement : numpy.ndarray
        Items x G: ``sum_y M_A[x, y] M_B[x, y]`` averaged over the pairs that
        labelled the item (NaN for unpaired items).
    item_kappa : numpy.ndarray
        Items x G: per-item kappa ``(agreement_x - p(E)) / (1 - p(E))`` with the
        pair's corpus ``p(E)`` at that p, averaged over pairs.  With two
        annotators and no missing cells its mean over items is ``K'``.
    rule : str
    n_items_unpaired : int
    unpaired_items : tuple
    """

    grid: np.ndarray
    kappa: np.ndarray
    observed_agreement: np.ndarray
    expected_agreement: np.ndarray
    pair_names: tuple[tuple[Hashable, Hashable], ...]
    pair_kappa: np.ndarray
    items: tuple[Hashable, ...]
    item_agreement: np.ndarray
    item_kappa: np.ndarray
    rule: str
    n_items_unpaired: int
    unpaired_items: tuple[Hashable, ...]

    def to_frame(self, which: Literal["kappa", "items"] = "kappa") -> pd.DataFrame:
        """``"kappa"``: one row per p (K', p(A), p(E), and each pair); ``"items"``: long per-item scores."""
        if which == "kappa":
            frame = pd.DataFrame(
                {
                    "p": self.grid,
                    "kappa": self.kappa,
                    "observed_agreement": self.observed_agreement,
                    "expected_agreement": self.expected_agreement,
                }
            )
            for (a, b), row in zip(self.pair_names, self.pair_kappa, strict=True):
                frame[f"kappa[{a}-{b}]"] = row
            return frame
        if which == "items":
            n, g = self.item_kappa.shape
            return pd.DataFrame(
                {
                    "item": np.repeat(np.asarray(self.items, dtype=object), g),
                    "p": np.tile(self.grid, n),
                    "agreement": self.item_agreement.ravel(),
                    "kappa": self.item_kappa.ravel(),
                }
            )
        raise AccordError(f"which must be 'kappa' or 'items'; got {which!r}")

    def classify(self, *, tolerance: float = 0.1, high: float = 0.6,
                 scale: Literal["kappa", "agreement"] = "kappa") -> ItemClasses:
        """The paper's four classes of items; see :func:`classify_items`."""
        return classify_items(self, tolerance=tolerance, high=high, scale=scale)


def _check_grid(grid: Any) -> np.ndarray:
    if grid is None:
        return _DEFAULT_GRID.copy()
    try:
        g = np.asarray(grid, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AccordError(f"grid must be numbers in [0.5, 1]; got {grid!r}") from None
    if g.size == 0:
        raise AccordError("grid must hold at least one value of p")
    bad = g[~((g >= 0.5) & (g <= 1.0))]
    if bad.size:
        raise AccordError(f"grid values must be in [0.5, 1]; got {shown(bad[0])}")
    return np.unique(g)


def augmented_kappa_sweep(
    data: MultiLabelData, *, grid: Sequence[float] | np.ndarray | None = None, rule: WeightRule = "pair"
) -> AugmentedKappaSweep:
    """``K'`` and per-item agreement over a grid of p (Rosenberg & Binkowski 2004, section 6).

    Parameters
    ----------
    data : MultiLabelData
    grid : sequence of float, optional
        Values of p in [0.5, 1]; default 0.5, 0.55, ..., 1.0.  Sorted and made
        unique.
    rule : str or callable
        Weighting rule.

    Returns
    -------
    AugmentedKappaSweep

    Notes
    -----
    The paper examines "the average kappa statistic for each message
    individually at different p values" without defining a per-message kappa.
    Here the item score is ``(a_x - p(E)) / (1 - p(E))`` with ``a_x =
    sum_y M_A[x, y] M_B[x, y]`` and the pair's corpus ``p(E)``, averaged over
    the pairs that labelled the item: the mean of these scores over the items
    of a pair is exactly that pair's ``K'``.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> sweep = augmented_kappa_sweep(data, grid=[0.5, 1.0])
    >>> sweep.kappa.round(4)
    array([0.4   , 0.5556])
    """
    g = _check_grid(grid)
    _validate(data, rule)
    pairs = _pairs(data.n_annotators)
    n_g, n_p, n_i = len(g), len(pairs), data.n_items
    pair_k = np.full((n_p, n_g), np.nan)
    pa_all = np.full((n_p, n_g), np.nan)
    pe_all = np.full((n_p, n_g), np.nan)
    item_ag = np.full((n_i, n_g), np.nan)
    item_k = np.full((n_i, n_g), np.nan)
    lab = data.labelled
    for j, p in enumerate(g):  # loop over the grid, vectorised over items
        n, pa, pe, agree, shared = _pair_core(_matrices(data, float(p), rule), lab, pairs)
        kap = _kappa_from(pa, pe)
        pair_k[:, j], pa_all[:, j], pe_all[:, j] = kap, pa, pe
        with np.errstate(divide="ignore", invalid="ignore"):
            ik = (agree - pe[:, None]) / (1 - pe[:, None])
        ik[~np.isfinite(kap)] = np.nan
        n_shared = shared.sum(axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            item_ag[:, j] = np.where(n_shared > 0, np.nanmean(agree, axis=0), np.nan)
            item_k[:, j] = np.nanmean(ik, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = np.nanmean(pair_k, axis=0)
        pa_mean = np.nanmean(pa_all, axis=0)
        pe_mean = np.nanmean(pe_all, axis=0)
    if np.isnan(kappa).any():
        warn_undefined("K'", f"no pair of annotators has a defined K' at p = {g[np.isnan(kappa)].tolist()}")
    unpaired = data.unpaired_items
    return AugmentedKappaSweep(
        grid=g,
        kappa=kappa,
        observed_agreement=pa_mean,
        expected_agreement=pe_mean,
        pair_names=tuple((data.annotators[a], data.annotators[b]) for a, b in pairs),
        pair_kappa=pair_k,
        items=data.items,
        item_agreement=item_ag,
        item_kappa=item_k,
        rule=_rule_name(rule),
        n_items_unpaired=len(unpaired),
        unpaired_items=unpaired,
    )


# ================================================================== classes
@dataclass(frozen=True)
class ItemClasses(Result):
    """The four classes of items of Rosenberg & Binkowski (2004, section 6).

    Attributes
    ----------
    items : tuple
    classes : tuple of str or None
        Per item one of :data:`ITEM_CLASSES` (``"constant_high"`` = the paper's
        Class 1, ``"constant_low"`` = Class 2, ``"better_at_p1"`` = Class 3,
        ``"better_at_p05"`` = Class 4); None for an item no pair labelled.
    counts : dict
        Items per class, plus ``"unpaired"``.
    tolerance : float
        An item is "nearly constant" when ``|s(1) - s(0.5)| <= tolerance``.
    high : float
        A nearly constant item is high when its mean score over the grid is
        ``>= high``.
    scale : str
        ``"kappa"`` (per-item kappa) or ``"agreement"`` (per-item p(A)).
    grid : numpy.ndarray
    score_at_p05, score_at_p1, mean_score : numpy.ndarray
        Per-item scores at p = 0.5, at p = 1, and their mean over the grid.
    class_curves : dict
        Per class, the mean item score at each p of the grid (for plotting).
    """

    items: tuple[Hashable, ...]
    classes: tuple[str | None, ...]
    counts: dict[str, int]
    tolerance: float
    high: float
    scale: str
    grid: np.ndarray
    score_at_p05: np.ndarray
    score_at_p1: np.ndarray
    mean_score: np.ndarray
    class_curves: dict[str, np.ndarray]

    def to_frame(self) -> pd.DataFrame:
        """One row per item: class and scores."""
        return pd.DataFrame(
            {
                "item": list(self.items),
                "class": list(self.classes),
                "score_at_p05": self.score_at_p05,
                "score_at_p1": self.score_at_p1,
                "mean_score": self.mean_score,
            }
        )

    def items_in(self, name: str) -> tuple[Hashable, ...]:
        """The items of one class."""
        if name not in ITEM_CLASSES:
            raise AccordError(f"class must be one of {ITEM_CLASSES!r}; got {name!r}")
        return tuple(i for i, c in zip(self.items, self.classes, strict=True) if c == name)


def classify_items(
    sweep: AugmentedKappaSweep,
    *,
    tolerance: float = 0.1,
    high: float = 0.6,
    scale: Literal["kappa", "agreement"] = "kappa",
) -> ItemClasses:
    """Sort items into the paper's four classes by how their agreement moves with p.

    Parameters
    ----------
    sweep : AugmentedKappaSweep
        From :func:`augmented_kappa_sweep`; its grid must contain 0.5 and 1.
    tolerance : float
        Largest ``|s(1) - s(0.5)|`` of a "nearly constant" item (``>= 0``).
    high : float
        Smallest mean score (over the grid) of a "constant high" item.
    scale : {"kappa", "agreement"}
        Per-item kappa (default; the paper's "kappa statistic for each message")
        or per-item observed agreement ``sum_y M_A[x, y] M_B[x, y]``.

    Returns
    -------
    ItemClasses

    Notes
    -----
    With ``s(p)`` the item's score and ``d = s(1) - s(0.5)``: ``|d| <=
    tolerance`` is nearly constant, high (Class 1) when the mean of ``s`` over
    the grid is ``>= high``, else low (Class 2); otherwise ``d > 0`` is Class 3
    (better at p = 1: agreement on the primary, not on the secondary) and
    ``d < 0`` is Class 4 (better at p = 0.5: primary and secondary swapped).
    The paper names the classes but gives no thresholds; these are choices.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q", "q,a", "s", "a,q"], "B": ["q", "q", "a", "q,a"]})
    >>> classify_items(augmented_kappa_sweep(data)).classes
    ('constant_high', 'better_at_p1', 'constant_low', 'better_at_p05')
    """
    if not isinstance(sweep, AugmentedKappaSweep):
        raise AccordError(f"sweep must be an AugmentedKappaSweep; got {type(sweep).__name__}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise AccordError(f"tolerance must be a number >= 0; got {tolerance!r}")
    if not (isinstance(high, int | float) and math.isfinite(high)):
        raise AccordError(f"high must be a finite number; got {high!r}")
    if scale not in ("kappa", "agreement"):
        raise AccordError(f"scale must be 'kappa' or 'agreement'; got {scale!r}")
    g = sweep.grid
    lo, hi = np.flatnonzero(np.isclose(g, 0.5)), np.flatnonzero(np.isclose(g, 1.0))
    if not lo.size or not hi.size:
        raise AccordError(f"the sweep's grid must contain 0.5 and 1 to classify items; got {g.tolist()}")
    scores = sweep.item_kappa if scale == "kappa" else sweep.item_agreement
    s05, s1 = scores[:, lo[0]], scores[:, hi[0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(scores, axis=1)
    d = s1 - s05
    paired = np.isfinite(d)
    constant = paired & (np.abs(d) <= tolerance)
    codes = np.full(len(d), -1)
    codes[constant & (mean >= high)] = 0
    codes[constant & (mean < high)] = 1
    codes[paired & ~constant & (d > 0)] = 2
    codes[paired & ~constant & (d < 0)] = 3
    names = np.array((*ITEM_CLASSES, None), dtype=object)
    classes = tuple(names[codes])
    counts = {name: int((codes == k).sum()) for k, name in enumerate(ITEM_CLASSES)}
    counts["unpaired"] = int((codes == -1).sum())
    curves = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k, name in enumerate(ITEM_CLASSES):
            sel = codes == k
            curves[name] = np.nanmean(scores[sel], axis=0) if sel.any() else np.full(len(g), np.nan)
    return ItemClasses(
        items=sweep.items,
        classes=classes,
        counts=counts,
        tolerance=float(tolerance),
        high=float(high),
        scale=scale,
        grid=g,
        score_at_p05=s05,
        score_at_p1=s1,
        mean_score=mean,
        class_curves=curves,
    )
