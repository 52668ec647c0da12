"""Where the disagreement is: per unit, per pair of coders, per coder left out.

These tell an annotation lead what to fix: the units that carry most of the
observed disagreement, the coder pairs that agree least, and the coder whose
removal changes alpha most.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.results import Result
from accord.coefficients._alpha import alpha, check_annotations
from accord.coefficients._pairs import count_values, unit_disagreement_sums
from accord.data._annotations import Annotations, Layout, as_annotations
from accord.distances import Distance, DistanceFunction, get_distance

__all__ = [
    "CoderLeftOut",
    "CoderPairs",
    "UnitDisagreement",
    "coder_left_out",
    "pairwise_agreement",
    "unit_disagreement",
]


@dataclass(frozen=True)
class UnitDisagreement(Result):
    """Observed disagreement of each pairable unit.

    Attributes
    ----------
    units : ndarray
        Unit labels (pairable units only).
    n_values : ndarray
        m_u, values in each unit.
    disagreement : ndarray
        Mean distance over the ordered pairs of values in the unit,
        sum_{b,c} n_ub n_uc delta / (m_u (m_u - 1)); 0 when all agree.
    share : ndarray
        Each unit's share of the total observed disagreement D_o (sums to 1
        unless there is no disagreement).
    distance : str
    """

    units: np.ndarray
    n_values: np.ndarray
    disagreement: np.ndarray
    share: np.ndarray
    distance: str

    def to_frame(self) -> pd.DataFrame:
        """One row per unit, most disagreement first."""
        df = pd.DataFrame(
            {
                "unit": self.units,
                "n_values": self.n_values,
                "disagreement": self.disagreement,
                "share": self.share,
            }
        )
        return df.sort_values("disagreement", ascending=False, kind="stable").reset_index(drop=True)


def unit_disagreement(
    data: Annotations, *, distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> UnitDisagreement:
    """Observed disagreement within each unit.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b"], ["a", "b", "b"]], units=["u1", "u2", "u3"])
    >>> unit_disagreement(d).to_frame().to_dict("records")[0]
    {'unit': 'u2', 'n_values': 2, 'disagreement': 1.0, 'share': 1.0}
    """
    data = as_annotations(data, layout=layout)
    data = check_annotations(data)
    dist = get_distance(distance)
    uc = count_values(data)
    if uc.n_pairable_units == 0:
        raise AccordError(f"{data.source or 'data'}: no unit holds two or more values (no pairable unit)")
    prepared = dist.prepare(data.values, uc.marginals())
    sums = unit_disagreement_sums(uc, prepared)
    per_unit = sums / (uc.m * (uc.m - 1.0))
    contrib = sums / (uc.m - 1.0)
    total = contrib.sum()
    share = contrib / total if total > 0 else np.zeros_like(contrib)
    return UnitDisagreement(
        units=data.units[uc.unit_ids],
        n_values=uc.m.astype(np.int64),
        disagreement=per_unit,
        share=share,
        distance=dist.name,
    )


@dataclass(frozen=True)
class CoderPairs(Result):
    """Agreement of every pair of coders on the units both coded.

    Attributes
    ----------
    coders : ndarray
        Coder labels, the order of the matrices.
    alpha : ndarray
        Symmetric matrix of alpha for each pair (NaN on the diagonal and where
        undefined).
    percent_agreement : ndarray
        Share of shared units on which the pair gave the same value.
    n_shared_units : ndarray
        Units coded by both.
    distance : str
    """

    coders: np.ndarray
    alpha: np.ndarray
    percent_agreement: np.ndarray
    n_shared_units: np.ndarray
    distance: str

    def to_frame(self) -> pd.DataFrame:
        """One row per pair of coders."""
        rows = []
        for i in range(len(self.coders)):
            for j in range(i + 1, len(self.coders)):
                rows.append(
                    {
                        "coder_a": self.coders[i],
                        "coder_b": self.coders[j],
                        "alpha": self.alpha[i, j],
                        "percent_agreement": self.percent_agreement[i, j],
                        "n_shared_units": int(self.n_shared_units[i, j]),
                    }
                )
        return pd.DataFrame(rows)


def pairwise_agreement(
    data: Annotations, *, distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> CoderPairs:
    """Alpha and percent agreement for each pair of coders.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b"], ["a", "a", "b"], ["b", "a", "a"]],
    ...                             coders=["x", "y", "z"])
    >>> float(pairwise_agreement(d).percent_agreement[0, 1])
    1.0
    """
    data = as_annotations(data, layout=layout)
    import warnings

    data = check_annotations(data)
    dist = get_distance(distance)
    c = data.n_coders
    a = np.full((c, c), np.nan)
    pa = np.full((c, c), np.nan)
    shared = np.zeros((c, c), dtype=np.int64)
    # values per (coder, unit) as a dense lookup of value codes (-1 missing)
    grid = np.full((c, data.n_units), -1, dtype=np.int64)
    grid[data.coder_index, data.unit_index] = data.value_index
    for i in range(c):
        for j in range(i + 1, c):
            both = (grid[i] >= 0) & (grid[j] >= 0)
            k = int(both.sum())
            shared[i, j] = shared[j, i] = k
            if k == 0:
                continue
            pa[i, j] = pa[j, i] = float(np.mean(grid[i, both] == grid[j, both]))
            keep = np.zeros(c, dtype=bool)
            keep[[i, j]] = True
            sub = data.select_coders(keep)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a[i, j] = a[j, i] = alpha(sub, distance=dist).alpha
    return CoderPairs(coders=data.coders, alpha=a, percent_agreement=pa, n_shared_units=shared,
                      distance=dist.name)


@dataclass(frozen=True)
class CoderLeftOut(Result):
    """Alpha with each coder left out, beside alpha with all coders.

    Attributes
    ----------
    coders : ndarray
    alpha_all : float
    alpha_without : ndarray
        alpha_without[i] is alpha computed without coder i.
    change : ndarray
        alpha_without - alpha_all: positive where dropping the coder raises
        agreement.
    distance : str
    """

    coders: np.ndarray
    alpha_all: float
    alpha_without: np.ndarray
    change: np.ndarray
    distance: str

    def to_frame(self) -> pd.DataFrame:
        """One row per coder, the largest gain from dropping them first."""
        df = pd.DataFrame(
            {"coder": self.coders, "alpha_without": self.alpha_without, "change": self.change}
        )
        return df.sort_values("change", ascending=False, kind="stable").reset_index(drop=True)


def coder_left_out(
    data: Annotations, *, distance: str | Distance | DistanceFunction = "nominal",
    layout: Layout = "coders-by-units",
) -> CoderLeftOut:
    """Alpha recomputed with each coder left out in turn.

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b"], ["a", "a", "b"], ["b", "a", "a"]],
    ...                             coders=["x", "y", "z"])
    >>> coder_left_out(d).to_frame().iloc[0]["coder"]
    'z'
    """
    data = as_annotations(data, layout=layout)
    import warnings

    data = check_annotations(data, min_coders=3)
    dist = get_distance(distance)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        full = alpha(data, distance=dist).alpha
        out = np.full(data.n_coders, np.nan)
        for i in range(data.n_coders):
            keep = np.ones(data.n_coders, dtype=bool)
            keep[i] = False
            sub = data.select_coders(keep)
            if sub.n_entries and len(np.unique(sub.coder_index)) >= 2:
                out[i] = alpha(sub, distance=dist).alpha
    return CoderLeftOut(coders=data.coders, alpha_all=full, alpha_without=out, change=out - full,
                        distance=dist.name)
