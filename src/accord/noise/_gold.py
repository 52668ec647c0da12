"""A gold standard from real annotations, with its noise level (Beigman Klebanov & Beigman 2009).

:func:`gold_standard` keeps the items on which all annotators agree, estimates
the chance agreement ``p`` of the annotators on hard items from the disagreed
ones (footnote 3 of the paper), and reports the noise bound gamma of the kept
items at a confidence, the chance difference between two algorithms on a gold
standard of that size (section 4.1), the most disagreements that would have
been tolerable for a target noise level (section 3.1), and Siegel & Castellan's
K (equation 2) with the noise it implies (section 3.3).

Input is a long table with one row per annotation: unit (item), coder
(annotator), value (label).  :func:`read_long_table` reads one from CSV or TSV.

References
----------
Beigman Klebanov, B. and Beigman, E. (2009). From annotator agreement to noise
models. *Computational Linguistics* 35(4): 495-503.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural, warn_undefined
from accord._shared.results import Result
from accord.noise._comparison import ChanceDifference, chance_difference
from accord.noise._kappa import KNoiseEstimate, SiegelCastellanK, k_noise_estimate, siegel_castellan_k
from accord.noise._model import DisagreementTolerance, NoiseBound, _check_open_unit, _make_bound, max_disagreements

__all__ = [
    "GoldStandard",
    "HardAgreementEstimate",
    "estimate_hard_agreement",
    "gold_standard",
    "read_long_table",
]


def read_long_table(
    path: str | Path, *, unit: str = "unit", coder: str = "coder", value: str = "value"
) -> pd.DataFrame:
    """Read a long annotation table (one row per annotation) from CSV or TSV.

    Parameters
    ----------
    path : str or Path
        A CSV, TSV, JSONL or Parquet file (by suffix); an empty value cell is a
        missing annotation.
    unit, coder, value : str
        Column names of the item, the annotator and the label.

    Returns
    -------
    pandas.DataFrame
        With columns ``unit``, ``coder``, ``value`` (renamed from the given names).

    Notes
    -----
    Reads through :func:`accord.data._read.read_table`, so CSV, TSV, JSONL and Parquet
    all work; numeric-looking labels become numbers, which does not change
    which items agree.
    """
    from accord._shared.ids import clean_labels, held_column
    from accord.data._columns import refuse_repeated
    from accord.data._read import read_table

    df, _ = read_table(path)
    missing = [c for c in (unit, coder, value) if c not in df.columns]
    if missing:
        head = (f"{path}: missing column{'s' if len(missing) > 1 else ''} {', '.join(repr(c) for c in missing)}; "
                f"found {', '.join(repr(c) for c in df.columns)}")
        raise AccordError(f"{head} (name the columns with unit=, coder=, value=)",
                          cli=f"{head} (name the columns with --unit, --coder, --value)")
    refuse_repeated(df, str(path), {"unit": unit, "coder": coder, "value": value})
    out = df[[unit, coder, value]].copy()
    out.columns = ["unit", "coder", "value"]
    # ids are names and labels lose surrounding whitespace, as every reader gives them (accord._shared.ids)
    out["unit"] = held_column(out["unit"].to_numpy(dtype=object))[0]
    out["coder"] = held_column(out["coder"].to_numpy(dtype=object))[0]
    out["value"] = clean_labels(out["value"].to_numpy(dtype=object))[0]
    out.attrs["source"] = str(path)
    return out


@dataclass(frozen=True)
class HardAgreementEstimate(Result):
    """Chance agreement on hard items estimated from the disagreed items (footnote 3).

    Attributes
    ----------
    p : float
        ``sum_c prod_j rates[j, c]``; NaN when there is no disagreed item.
    n_disagreed : int
    coders : list
    categories : list
    rates : numpy.ndarray of shape (k, m)
        ``rates[j, c]``: share of the disagreed items annotator j put in category c.
    reason : str or None
    """

    p: float
    n_disagreed: int
    coders: list[Any]
    categories: list[Any]
    rates: np.ndarray = field(compare=False)
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """The rates as a coders x categories table."""
        return pd.DataFrame(self.rates, index=pd.Index(self.coders, name="coder"), columns=self.categories)


@dataclass(frozen=True)
class _Table:
    """Complete items x annotators label codes."""

    codes: np.ndarray  # (n, k) int, category codes
    units: np.ndarray
    coders: np.ndarray
    categories: np.ndarray
    n_dropped: int
    source: str


def _where(data: Any) -> str:
    src = getattr(data, "attrs", {}).get("source") if isinstance(data, pd.DataFrame) else None
    return f"file '{src}'" if src else "data"


def _lab(x: Any) -> str:
    """repr of a label, numpy scalars shown as Python ones."""
    return repr(x.item() if isinstance(x, np.generic) else x)


def _factorize(col: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes and labels, sorted when the labels can be ordered."""
    try:
        codes, labels = pd.factorize(col, sort=True)
    except TypeError:
        codes, labels = pd.factorize(col, sort=False)
    return codes, np.asarray(labels)


def _as_table(data: Any, unit: str, coder: str, value: str, incomplete: Literal["error", "drop"]) -> _Table:
    if hasattr(data, "unit_index") and hasattr(data, "to_frame"):  # accord.data._annotations.Annotations
        src = getattr(data, "source", None)
        data = data.to_frame()
        if src:
            data.attrs["source"] = src
        unit, coder, value = "unit", "coder", "value"
    if not isinstance(data, pd.DataFrame):
        raise AccordError(
            f"data must be a pandas DataFrame with columns unit, coder, value (or Annotations), "
            f"got {type(data).__name__}"
        )
    where = _where(data)
    missing = [c for c in (unit, coder, value) if c not in data.columns]
    if missing:
        raise AccordError(
            f"{where}: missing column(s) {', '.join(repr(c) for c in missing)}; "
            f"found {', '.join(repr(str(c)) for c in data.columns)}"
        )
    if incomplete not in ("error", "drop"):
        raise AccordError(f"incomplete must be 'error' or 'drop', got {incomplete!r}")
    df = data[[unit, coder, value]]
    for col, what in ((unit, "unit"), (coder, "coder")):
        bad = df[col].isna().to_numpy()
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise AccordError(f"{where}: row {row + 1} has no {what} (column {col!r})")
    df = df[df[value].notna().to_numpy()]
    if len(df) == 0:
        raise AccordError(f"{where}: no annotations")
    u_codes, u_labels = pd.factorize(df[unit], sort=False)
    c_codes, c_labels = _factorize(df[coder])
    v_codes, v_labels = _factorize(df[value])
    n, k = len(u_labels), len(c_labels)
    if k < 2:
        raise AccordError(
            f"{where}: a gold standard needs at least two annotators, found {k} ({_lab(c_labels[0])})"
        )
    flat = u_codes.astype(np.int64) * k + c_codes
    seen = np.bincount(flat, minlength=n * k)
    if np.any(seen > 1):
        cell = int(np.flatnonzero(seen > 1)[0])
        raise AccordError(
            f"{where}: unit {_lab(u_labels[cell // k])} has more than one value "
            f"from coder {_lab(c_labels[cell % k])}"
        )
    codes = np.full(n * k, -1, dtype=np.int64)
    codes[flat] = v_codes
    codes = codes.reshape(n, k)
    holes = np.any(codes < 0, axis=1)
    n_dropped = int(holes.sum())
    if n_dropped:
        if incomplete == "error":
            first = int(np.flatnonzero(holes)[0])
            lacking = [c_labels[j] for j in np.flatnonzero(codes[first] < 0)]
            raise AccordError(
                f"{where}: unit {_lab(u_labels[first])} has no value from coder(s) "
                f"{', '.join(_lab(c) for c in lacking)} ({plural(n_dropped, 'incomplete unit')}); the model needs "
                f"every annotator on every item (use incomplete='drop' to leave them out)",
                cli=f"{where}: unit {_lab(u_labels[first])} has no value from coder(s) "
                f"{', '.join(_lab(c) for c in lacking)} ({plural(n_dropped, 'incomplete unit')}); the model needs "
                f"every annotator on every item (use --drop-incomplete to leave them out)"
            )
        codes = codes[~holes]
        u_labels = np.asarray(u_labels)[~holes]
        if len(codes) == 0:
            raise AccordError(f"{where}: no unit is labelled by every annotator")
    return _Table(codes, np.asarray(u_labels), np.asarray(c_labels), np.asarray(v_labels), n_dropped, where)


def _rates(codes: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Disagreed mask and the (k, m) category rates on the disagreed items."""
    disagreed = np.any(codes != codes[:, :1], axis=1)
    sub = codes[disagreed]
    d, k = sub.shape
    if d == 0:
        return disagreed, np.full((k, m), np.nan)
    counts = np.zeros((k, m))
    np.add.at(counts, (np.broadcast_to(np.arange(k), sub.shape), sub), 1.0)
    return disagreed, counts / d


def _estimate(table: _Table, *, warn: bool = True) -> tuple[HardAgreementEstimate, np.ndarray]:
    m = len(table.categories)
    disagreed, rates = _rates(table.codes, m)
    d = int(disagreed.sum())
    reason = None
    if d == 0:
        p = math.nan
        reason = "no item is disagreed, so the annotators' behaviour on hard items cannot be estimated"
        if warn:
            warn_undefined("p", reason, stacklevel=4)
    else:
        p = float(rates.prod(axis=0).sum())
    est = HardAgreementEstimate(
        p=p,
        n_disagreed=d,
        coders=table.coders.tolist(),
        categories=table.categories.tolist(),
        rates=rates,
        reason=reason,
    )
    return est, disagreed


def estimate_hard_agreement(
    data: pd.DataFrame | Any,
    *,
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    incomplete: Literal["error", "drop"] = "error",
) -> HardAgreementEstimate:
    """Estimate p, the chance that all annotators agree on a hard item (footnote 3).

    Parameters
    ----------
    data : pandas.DataFrame or accord.data._annotations.Annotations
        Long table, one row per annotation.
    unit, coder, value : str
        Column names.
    incomplete : {"error", "drop"}
        What to do with items some annotator did not label.

    Returns
    -------
    HardAgreementEstimate

    Notes
    -----
    ``rates[j, c]`` is the share of the disagreed items annotator j put in category c,
    and ``p = sum_c prod_j rates[j, c]``.  Conditioning on disagreement biases the
    rates towards disagreeing: with two annotators and two categories the two rates of
    a category sum to 1, so this estimate is never above 0.5 although two annotators
    sharing a bias agree by chance with probability above 0.5 (see docs/noise.md).

    References
    ----------
    Beigman Klebanov & Beigman (2009), section 2 and footnote 3.

    Examples
    --------
    >>> df = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3], "coder": ["a", "b"] * 3,
    ...                    "value": ["x", "x", "x", "y", "y", "x"]})
    >>> estimate_hard_agreement(df).p
    0.5
    """
    table = _as_table(data, unit, coder, value, incomplete)
    return _estimate(table)[0]


@dataclass(frozen=True)
class GoldStandard(Result):
    """The agreed items as a gold standard, with its noise level (Beigman Klebanov & Beigman 2009).

    Attributes
    ----------
    n_items : int
        Items labelled by every annotator (the model's n).
    n_annotators, n_categories : int
    n_disagreed, n_agreed : int
        The model's d and the gold standard's size n - d.
    n_dropped_incomplete : int
        Items left out because some annotator did not label them.
    p : float
        Chance agreement on hard items used for the bound.
    p_source : str
        ``"estimated"`` (footnote 3) or ``"given"``.
    hard_agreement : HardAgreementEstimate
        The per-annotator category rates on the disagreed items.
    confidence : float
    gamma : float
        Noise bound of the gold standard at the confidence; NaN when undefined.
    bound : NoiseBound or None
    chance_difference : ChanceDifference or None
        Chebyshev chance difference between two algorithms on this gold standard
        (``L = n_agreed``, ``R = bound.random_agreements``).
    chance_difference_normal : ChanceDifference or None
        The same with the normal approximation (footnote 9).
    target_gamma : float
    tolerance : DisagreementTolerance or None
        The most disagreements n items could have had for gamma <= target_gamma.
    k : SiegelCastellanK
        K of equation 2 over all complete items.
    k_noise : KNoiseEstimate or None
        Noise of the gold standard implied by reading K as the share of easy items.
    reason : str or None
        Why the bound is undefined, if it is.
    """

    n_items: int
    n_annotators: int
    n_categories: int
    n_disagreed: int
    n_agreed: int
    n_dropped_incomplete: int
    p: float
    p_source: str
    hard_agreement: HardAgreementEstimate
    confidence: float
    gamma: float
    bound: NoiseBound | None
    chance_difference: ChanceDifference | None
    chance_difference_normal: ChanceDifference | None
    target_gamma: float
    tolerance: DisagreementTolerance | None
    k: SiegelCastellanK
    k_noise: KNoiseEstimate | None
    reason: str | None = None
    _units: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False, compare=False)
    _labels: np.ndarray = field(default_factory=lambda: np.empty(0), repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """The gold standard: one row per agreed item, columns unit and value."""
        return pd.DataFrame({"unit": self._units, "value": self._labels})


def gold_standard(
    data: pd.DataFrame | Any,
    *,
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    confidence: float = 0.95,
    target_gamma: float = 0.05,
    p: float | None = None,
    incomplete: Literal["error", "drop"] = "error",
) -> GoldStandard:
    """Build a gold standard of the all-agreed items and bound its noise.

    Parameters
    ----------
    data : pandas.DataFrame or accord.data._annotations.Annotations
        Long table, one row per annotation (missing values are absent annotations).
    unit, coder, value : str
        Column names of item, annotator and label.
    confidence : float
        Confidence of the noise bound (the paper's alpha), in (0, 1).
    target_gamma : float
        Noise level for the "tolerable disagreements" figure, in (0, 1).
    p : float, optional
        Chance agreement on a hard item; estimated from the disagreed items when omitted.
    incomplete : {"error", "drop"}
        Items not labelled by every annotator raise an error, or are left out and counted.

    Returns
    -------
    GoldStandard
        ``to_frame()`` gives the gold items and labels.

    Notes
    -----
    n is the number of complete items, d the number on which not every annotator gives
    the same label; the bound is :func:`accord.noise.noise_bound` with a uniform prior.
    The bound is undefined (NaN, with a warning and a ``reason``) when p cannot be
    estimated (no disagreement) or is estimated as 0 (the annotators never share a
    category on the disagreed items), and when every item is disagreed.

    References
    ----------
    Beigman Klebanov & Beigman (2009), sections 2, 3.1, 3.3 and 4.1.

    Examples
    --------
    >>> df = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3, 4, 4], "coder": ["a", "b"] * 4,
    ...                    "value": ["x", "x", "x", "y", "y", "x", "y", "y"]})
    >>> g = gold_standard(df)
    >>> g.n_agreed, g.n_disagreed, g.p
    (2, 2, 0.5)
    >>> g.to_frame()
       unit value
    0     1     x
    1     4     y
    """
    confidence = _check_open_unit("confidence", confidence)
    target = _check_open_unit("target_gamma", target_gamma)
    given_p = None if p is None else _check_open_unit("p", p)
    table = _as_table(data, unit, coder, value, incomplete)
    est, disagreed = _estimate(table, warn=given_p is None)
    n, k = table.codes.shape
    m = len(table.categories)
    d = int(disagreed.sum())

    counts = np.zeros((n, m), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(n), k), table.codes.reshape(-1)), 1)
    kres = siegel_castellan_k(counts)

    p_used = est.p if given_p is None else given_p
    reason = None
    if given_p is None and d > 0 and p_used == 0.0:
        reason = (
            "the estimated chance agreement p is 0 (on the disagreed items the annotators never use "
            "the same category), so the model cannot bound the noise; give p explicitly"
        )
        warn_undefined("gamma", reason)
    elif given_p is None and d == 0:
        reason = est.reason
    bound = tol = cd = cdn = None
    gamma = math.nan
    if reason is None:
        bound = _make_bound(n, d, p_used, confidence, None)
        gamma = bound.gamma
        reason = bound.reason
        if d < n:
            cd = chance_difference(n - d, bound.random_agreements, confidence=confidence)
            cdn = chance_difference(n - d, bound.random_agreements, confidence=confidence, method="normal")
        if n >= 2:
            with warnings.catch_warnings():  # an unreachable target is recorded in tolerance.reason
                warnings.simplefilter("ignore", AccordWarning)
                tol = max_disagreements(n, p_used, gamma=target, confidence=confidence)
    knoise = None
    if d < n and math.isfinite(kres.kappa):
        knoise = k_noise_estimate(kres.kappa, n, n - d)

    agreed = ~disagreed
    return GoldStandard(
        n_items=n,
        n_annotators=k,
        n_categories=m,
        n_disagreed=d,
        n_agreed=n - d,
        n_dropped_incomplete=table.n_dropped,
        p=float(p_used),
        p_source="estimated" if given_p is None else "given",
        hard_agreement=est,
        confidence=confidence,
        gamma=gamma,
        bound=bound,
        chance_difference=cd,
        chance_difference_normal=cdn,
        target_gamma=target,
        tolerance=tol,
        k=kres,
        k_noise=knoise,
        reason=reason,
        _units=table.units[agreed],
        _labels=table.categories[table.codes[agreed, 0]],
    )
