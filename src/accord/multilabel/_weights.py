"""Weights of divided selections and the annotation matrices ``M_A`` (the paper's Tables 2 and 3).

An annotation becomes one divided selection: a single label weighs 1, a
primary ``p`` and a secondary ``1 - p``.  Lists of three or more labels need a
stated rule (``"pair"``, ``"geometric"``, ``"primary-rest"`` or a callable), see
:mod:`accord.multilabel`.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, plural
from accord._shared.results import Result
from accord.multilabel._model import MultiLabelData

__all__ = [
    "AnnotationMatrix",
    "RuleName",
    "WeightRule",
    "annotation_matrix",
]


RuleName = Literal["pair", "geometric", "primary-rest"]
WeightRule = RuleName | Callable[[int, float], Sequence[float]]
_RULES = ("pair", "geometric", "primary-rest")


# ======================================================= weights and matrices
def _check_p(p: Any, name: str = "p") -> float:
    if isinstance(p, bool | np.bool_):
        raise AccordError(f"{name} must be a number in [0.5, 1]; got {p!r}")
    try:
        f = float(p)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a number in [0.5, 1]; got {p!r}") from None
    if not (0.5 <= f <= 1.0):
        raise AccordError(f"{name} must be in [0.5, 1] (the weight of the primary label); got {p!r}")
    return f


def _rule_name(rule: WeightRule) -> str:
    return rule if isinstance(rule, str) else getattr(rule, "__name__", repr(rule))


def _check_rule(rule: Any, data: MultiLabelData) -> None:
    if callable(rule):
        return
    if rule not in _RULES:
        raise AccordError(f"rule must be one of {', '.join(map(repr, _RULES))} or a callable; got {rule!r}")
    if rule == "pair" and data.max_labels > 2:
        a, i = np.argwhere(data._lengths > 2)[0]
        raise AccordError(
            f"annotator {data.annotators[a]!r} gave item {data.items[i]!r} "
            f"{plural(int(data._lengths[a, i]), 'label')}; "
            "the paper's rule='pair' weighs at most a primary and a secondary; state a rule for longer lists "
            "(rule='geometric', 'primary-rest' or a callable)",
            cli=f"annotator {data.annotators[a]!r} gave item {data.items[i]!r} "
            f"{plural(int(data._lengths[a, i]), 'label')}; the paper's --rule pair weighs at most a primary and a "
            "secondary; state a rule for longer lists (--rule geometric or primary-rest)"
        )


def _weight_table(rule: WeightRule, p: float, max_len: int) -> np.ndarray:
    """T[k, r]: weight of the label of rank r (1-based) in a list of k labels; T[k, 0] = 0."""
    table = np.zeros((max_len + 1, max_len + 1))
    for k in range(1, max_len + 1):  # loop over list lengths, not items
        if k == 1:
            w = np.ones(1)
        elif rule == "pair" or rule == "primary-rest":
            w = np.full(k, (1 - p) / (k - 1))
            w[0] = p
        elif rule == "geometric":
            w = p * (1 - p) ** np.arange(k)
            w[-1] = (1 - p) ** (k - 1)
        else:
            try:
                w = np.asarray(rule(k, p), dtype=float)  # type: ignore[operator]
            except Exception as exc:  # a user callable may fail in any way
                raise AccordError(f"rule {_rule_name(rule)!r} failed for k={k}, p={p}: {exc}") from None
            if w.shape != (k,) or not np.all(np.isfinite(w)) or (w < 0).any() or abs(w.sum() - 1) > 1e-9:
                raise AccordError(
                    f"rule must return {k} non-negative weights summing to 1 for k={k}, p={p}; "
                    f"got {w.tolist()}"
                )
        table[k, 1 : k + 1] = w
    return table


def _matrices(data: MultiLabelData, p: float, rule: WeightRule) -> np.ndarray:
    """All annotation matrices M (annotators x items x categories) at one p."""
    table = _weight_table(rule, p, max(data.max_labels, 1))
    return table[data._lengths[..., None], data._ranks]


@dataclass(frozen=True)
class AnnotationMatrix(Result):
    """One annotator's annotation matrix ``M_A`` and label frequencies (Rosenberg & Binkowski 2004, 5.1-5.2).

    Attributes
    ----------
    annotator : hashable
    p : float
        Weight of a primary label.
    rule : str
        Weighting rule for lists of labels.
    items : tuple
        The items the annotator labelled (the rows; N of them).
    categories : tuple
        The columns.
    matrix : numpy.ndarray
        N x M weights (1 single label, p primary, 1 - p secondary, 0 otherwise).
    column_totals : numpy.ndarray
        Column sums of ``matrix`` (the "Total" row of the paper's Table 2).
    frequencies : numpy.ndarray
        ``Freq_A = column_totals / N`` (the paper's Table 3).
    n_items : int
    """

    annotator: Hashable
    p: float
    rule: str
    items: tuple[Hashable, ...]
    categories: tuple[Hashable, ...]
    matrix: np.ndarray
    column_totals: np.ndarray
    frequencies: np.ndarray
    n_items: int

    def to_frame(self) -> pd.DataFrame:
        """The matrix with a ``Total`` row, as the paper's Table 2."""
        frame = pd.DataFrame(self.matrix, index=list(self.items), columns=list(self.categories))
        frame.loc["Total"] = self.column_totals
        return frame


def annotation_matrix(
    data: MultiLabelData, annotator: Hashable, *, p: float, rule: WeightRule = "pair"
) -> AnnotationMatrix:
    """The annotation matrix ``M_A`` of one annotator at weight *p*.

    Parameters
    ----------
    data : MultiLabelData
    annotator : hashable
        One of ``data.annotators``.
    p : float
        Weight of the primary label, ``0.5 <= p <= 1``.
    rule : {"pair", "geometric", "primary-rest"} or callable
        Weighting rule (see the module docstring).

    Returns
    -------
    AnnotationMatrix

    Notes
    -----
    ``M_A[x, y] = 1`` if A marked only label y for item x, ``p`` if y is A's
    primary label, ``1 - p`` if it is the secondary, 0 otherwise; rows are the
    N items A labelled.  ``Freq_A[y] = sum_x M_A[x, y] / N``.

    References
    ----------
    Rosenberg & Binkowski (2004), sections 5.1-5.2, Tables 1-3.

    Examples
    --------
    >>> data = MultiLabelData.from_dict(
    ...     {"A": {"Msg1": "a,b", "Msg2": "b,a", "Msg3": "b", "Msg4": "c", "Msg5": "c,b"}},
    ...     categories=["a", "b", "c", "d"],
    ... )
    >>> m = annotation_matrix(data, "A", p=0.6)
    >>> m.column_totals
    array([1. , 2.4, 1.6, 0. ])
    >>> m.frequencies
    array([0.2 , 0.48, 0.32, 0.  ])
    """
    if not isinstance(data, MultiLabelData):
        raise AccordError(f"data must be MultiLabelData; got {type(data).__name__}")
    if annotator not in data.annotators:
        raise AccordError(f"annotator must be one of {list(data.annotators)!r}; got {annotator!r}")
    pf = _check_p(p)
    _check_rule(rule, data)
    a = data.annotators.index(annotator)
    rows = data.labelled[a]
    m = _matrices(data, pf, rule)[a][rows]
    n = int(rows.sum())
    totals = m.sum(axis=0)
    return AnnotationMatrix(
        annotator=annotator,
        p=pf,
        rule=_rule_name(rule),
        items=tuple(np.asarray(data.items, dtype=object)[rows]),
        categories=data.categories,
        matrix=m,
        column_totals=totals,
        frequencies=totals / n if n else np.full(len(totals), np.nan),
        n_items=n,
    )
