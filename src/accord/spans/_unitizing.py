r"""Krippendorff's unitizing alpha (alpha_U) for a continuum with gaps.

Each coder cuts each document (the continuum) into units of a category and
the gaps between them.  For one category c, two coders' sections that overlap
disagree by (Krippendorff 2004, section 12.4; 1995)

- two units g, h: :math:`(b_g - b_h)^2 + (e_g - e_h)^2` (begins and ends);
- a unit g inside a gap h of the other coder: :math:`l_g^2`;
- otherwise (two gaps, or a unit only partly over a gap): 0,

which is the form DKPro Agreement implements
(``KrippendorffAlphaUnitizingAgreement``): observed disagreement averages
over coder pairs and positions, expected disagreement considers every
placement of every unit in every gap or against every other unit, and
:math:`\alpha_U = 1 - D_o / D_e` with both averaged over categories.

Documents are continua laid end to end: a gap never runs over a document
boundary, and the length L is the sum of the documents' lengths.  Only
documents every coder saw enter (a coder who did not see a document did not
unitize it); the others are counted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.results import Coefficient, Result
from accord.data._spans import SpanAnnotations

__all__ = ["CategoryUnitizing", "UnitizingAlphaResult", "unitizing_alpha"]


@dataclass(frozen=True)
class CategoryUnitizing(Result):
    """Unitizing alpha of one category.

    Attributes
    ----------
    label : str
    alpha : float
        1 - D_o / D_e; NaN when D_e is 0.
    observed_disagreement, expected_disagreement : float
    n_units : int
        Units of the category over all coders.
    """

    label: str
    alpha: float
    observed_disagreement: float
    expected_disagreement: float
    n_units: int


@dataclass(frozen=True, eq=False)
class _Parts:
    """Per-document sums of one category, for the document bootstrap."""

    observed: np.ndarray  # (docs,) sum over ordered coder pairs of the distances
    n_units: np.ndarray  # (docs,)
    cubic: np.ndarray  # (docs,) sum of (2 l^3 - 3 l^2 + l) / 3
    squares: np.ndarray  # (docs,) sum of l (l - 1)
    unit_len: np.ndarray  # lengths of the units
    unit_doc: np.ndarray
    gap_len: np.ndarray  # lengths of the gaps (all coders), sorted
    gap_doc: np.ndarray

    def placements(self, w: np.ndarray) -> float:
        """Sum over units g and gaps h with l_h >= l_g of w_d(g) w_d(h) l_g^2 (l_h - l_g + 1), in O(units + gaps).

        Gaps are sorted by length once; for a document weighting *w*, weighted
        suffix sums over the sorted gaps give each unit's placements.
        """
        g, gw = self.gap_len, w[self.gap_doc]  # gaps sorted by length
        s0 = np.concatenate([np.cumsum(gw[::-1])[::-1], [0.0]])
        s1 = np.concatenate([np.cumsum((gw * g)[::-1])[::-1], [0.0]])
        k = np.searchsorted(g, self.unit_len, side="left")
        lf = self.unit_len
        return float(w[self.unit_doc] @ (lf**2 * (s1[k] - (lf - 1.0) * s0[k])))


def _placements_each(unit_len: np.ndarray, gap_len: np.ndarray) -> np.ndarray:
    """For each unit, l^2 times the number of positions it fits in the gaps."""
    if len(gap_len) == 0 or len(unit_len) == 0:
        return np.zeros(len(unit_len))
    g = np.sort(gap_len.astype(float))
    suffix_sum = np.concatenate([np.cumsum(g[::-1])[::-1], [0.0]])
    k = np.searchsorted(g, unit_len, side="left")  # gaps with length >= l
    count = len(g) - k
    lf = unit_len.astype(float)
    return lf**2 * (suffix_sum[k] - (lf - 1.0) * count)


@dataclass(frozen=True)
class UnitizingAlphaResult(Coefficient):
    """Krippendorff's unitizing alpha, per category and overall.

    Attributes
    ----------
    alpha : float
        1 - D_o / D_e with D_o and D_e the means over categories; NaN when
        undefined (``undefined_reason``).
    observed_disagreement, expected_disagreement : float
    categories : tuple of CategoryUnitizing
    n_coders, n_documents : int
        Coders, and documents every coder saw (the continuum).
    continuum_length : int
        L, the summed length of those documents.
    n_documents_dropped : int
        Documents some coder did not see (left out).
    n_documents_without_text : int
        Documents whose text was not given: their length is taken as the
        end of their last span, so a trailing gap is not seen.
    n_empty_units_dropped : int
        Zero-length spans (or fragments), left out.
    """

    _value_field: ClassVar[str] = "alpha"
    _coefficient_id: ClassVar[str] = "unitizing_alpha"

    alpha: float
    observed_disagreement: float
    expected_disagreement: float
    categories: tuple[CategoryUnitizing, ...]
    n_coders: int
    n_documents: int
    continuum_length: int
    n_documents_dropped: int = 0
    n_documents_without_text: int = 0
    n_empty_units_dropped: int = 0
    undefined_reason: str | None = None
    _parts: tuple[_Parts, ...] | None = field(default=None, repr=False, compare=False)
    _doc_len: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per category and an ``"(all)"`` row."""
        rows = [c.to_dict() for c in self.categories]
        rows.append({
            "label": "(all)", "alpha": self.alpha, "observed_disagreement": self.observed_disagreement,
            "expected_disagreement": self.expected_disagreement,
            "n_units": sum(c.n_units for c in self.categories),
        })
        return pd.DataFrame(rows, columns=["label", "alpha", "observed_disagreement", "expected_disagreement",
                                           "n_units"])

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap interval for alpha_U, resampling documents.

        A document drawn k times counts k times in every sum: its length in
        L, its sections in D_o, its units and gaps in D_e (the placements of a
        unit of one document in a gap of another are weighted by both
        documents' weights), recomputed exactly from per-document parts.
        """
        from accord.spans._bootstrap import document_bootstrap

        if self._parts is None or self._doc_len is None:
            raise AccordError("this result carries no data to resample")
        if math.isnan(self.alpha):
            raise AccordError(f"unitizing alpha is undefined ({self.undefined_reason}); no confidence interval")
        n_docs = len(self._doc_len)
        doc_len = self._doc_len.astype(float)
        m = float(self.n_coders)
        parts = self._parts

        def statistic(w: np.ndarray) -> float:
            big_l = float(w @ doc_len)
            if big_l <= 1:
                return np.nan
            d_o = d_e = 0.0
            for p in parts:
                d_o += float(w @ p.observed) / (m * (m - 1.0) * big_l**2)
                n_c = float(w @ p.n_units)
                den = m * big_l * (m * big_l - 1.0) - float(w @ p.squares)
                if den > 0:
                    d_e += (2.0 / big_l) * ((n_c - 1.0) * float(w @ p.cubic) + p.placements(w)) / den
            return 1.0 - d_o / d_e if d_e > 0 else np.nan

        return document_bootstrap(
            n_docs, statistic, what="unitizing alpha", confidence_level=confidence_level,
            n_resamples=n_resamples, method=method, rng=rng,
        )


def _sections(
    starts: np.ndarray, ends: np.ndarray, doc_edges: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One coder's sections of the continuum: (section starts, is-unit flags); the last edge closes them."""
    bounds = np.unique(np.concatenate([doc_edges, starts, ends]))
    sec_start = bounds[:-1]
    is_unit = np.zeros(len(sec_start), dtype=bool)
    if len(starts):
        is_unit[np.searchsorted(sec_start, starts)] = True
    return sec_start, is_unit


def _pair_distance_by_doc(
    s1: np.ndarray, u1: np.ndarray, s2: np.ndarray, u2: np.ndarray, total: int, doc_edges: np.ndarray, n_docs: int
) -> np.ndarray:
    """Sum of section distances between two coders, per document."""
    e1 = np.append(s1[1:], total)
    e2 = np.append(s2[1:], total)
    x = np.union1d(s1, s2)
    g = np.searchsorted(s1, x, side="right") - 1
    h = np.searchsorted(s2, x, side="right") - 1
    b1, f1, b2, f2 = s1[g], e1[g], s2[h], e2[h]
    uu = u1[g] & u2[h]
    ug = u1[g] & ~u2[h] & (b2 <= b1) & (f1 <= f2)
    gu = ~u1[g] & u2[h] & (b1 <= b2) & (f2 <= f1)
    d = np.zeros(len(x))
    d[uu] = ((b1 - b2) ** 2 + (f1 - f2) ** 2)[uu].astype(float)
    d[ug] = ((f1 - b1) ** 2)[ug].astype(float)
    d[gu] = ((f2 - b2) ** 2)[gu].astype(float)
    doc = np.searchsorted(doc_edges, x, side="right") - 1
    return np.bincount(doc, weights=d, minlength=n_docs)


def unitizing_alpha(data: SpanAnnotations) -> UnitizingAlphaResult:
    r"""Krippendorff's alpha for unitizing a continuum with gaps (alpha_U), as DKPro Agreement computes it.

    Parameters
    ----------
    data : SpanAnnotations
        Spans of two or more coders; the labels are the categories.  Each
        fragment of a discontinuous span is a unit.  Units of one coder and
        one category must not overlap.

    Returns
    -------
    UnitizingAlphaResult

    Notes
    -----
    With m coders, a continuum of length L, and for category c the distances
    :math:`\delta^2_{gh}` of the module docstring summed over the sections g,
    h of every ordered pair of coders (i, j):

    .. math::

        D_{o,c} = \frac{\sum_{i \ne j} \sum_{g, h} \delta^2_{igjh}}{m(m-1)L^2},

    and, with :math:`N_c` the units of c over all coders, :math:`l_g` their
    lengths and the gaps h of every coder:

    .. math::

        D_{e,c} = \frac{2}{L}\,
        \frac{\sum_g \Big[(N_c - 1)\frac{2l_g^3 - 3l_g^2 + l_g}{3}
              + l_g^2 \sum_{h:\, l_h \ge l_g} (l_h - l_g + 1)\Big]}
             {mL(mL-1) - \sum_g l_g(l_g - 1)},

    :math:`\alpha_c = 1 - D_{o,c}/D_{e,c}` per category, and
    :math:`\alpha_U = 1 - \bar D_o / \bar D_e` with the means over categories.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data.
    Sociological Methodology 25, 47-76.
    Krippendorff, K. (2004). Content Analysis: An Introduction to Its
    Methodology, 2nd ed., section 12.4. Sage.
    Meyer, C. M., Mieskes, M., Stab, C., & Gurevych, I. (2014). DKPro
    Agreement: An open-source Java library for measuring inter-rater
    agreement. COLING 2014 demos.

    Examples
    --------
    Krippendorff's (2004, p. 254) worked example, as DKPro Agreement's tests
    build it (``Krippendorff2004Test``), with the continuum [150, 450) moved to
    start at 0.  Category c has alpha .7286, k 1, and the whole .8587 (DKPro
    computes 0.858665; its test accepts .8591 +/- .0005):

    >>> from accord.spans import Span, SpanAnnotations
    >>> units = [(75, 145, "c", "i"), (220, 250, "c", "i"), (70, 150, "c", "j"), (205, 225, "c", "j"),
    ...          (250, 270, "c", "j"), (30, 90, "k", "i"), (150, 200, "k", "i"), (30, 90, "k", "j"),
    ...          (150, 200, "k", "j")]
    >>> sa = SpanAnnotations.from_spans([Span("doc", s, e, lab, who) for s, e, lab, who in units],
    ...                                 texts={"doc": "x" * 300})
    >>> res = unitizing_alpha(sa)
    >>> round(res.alpha, 4), [round(c.alpha, 4) for c in res.categories]
    (0.8587, [0.7286, 1.0])
    """
    if not isinstance(data, SpanAnnotations):
        raise AccordError(f"data must be accord.spans.SpanAnnotations; got {type(data).__name__}")
    coders = data.coders
    m = len(coders)
    if m < 2:
        raise AccordError(f"{data.source or 'data'}: unitizing alpha needs at least two coders; found {m}")
    seen_by: dict[str, set[str]] = {}
    for d, c in data.seen:
        seen_by.setdefault(d, set()).add(c)
    docs = [d for d in data.documents if len(seen_by.get(d, ())) == m]
    n_dropped = len(data.documents) - len(docs)
    if not docs:
        raise AccordError(f"{data.source or 'data'}: no document was seen by every coder ({', '.join(coders)})")
    d_of = {d: i for i, d in enumerate(docs)}
    last_end: dict[str, int] = {}
    for s in data.spans:
        last_end[s.document] = max(last_end.get(s.document, 0), s.end)
    lengths = np.array([len(data.texts[d]) if d in data.texts else last_end.get(d, 0) for d in docs], dtype=np.int64)
    n_without_text = sum(d not in data.texts for d in docs)
    edges = np.concatenate([[0], np.cumsum(lengths)])
    total = int(edges[-1])
    if total == 0:
        raise AccordError(f"{data.source or 'data'}: the continuum is empty (the documents have no length)")
    labels = data.labels
    l_of = {lab: k for k, lab in enumerate(labels)}
    c_of = {c: k for k, c in enumerate(coders)}
    rows: list[tuple[int, int, int, int, int]] = []  # label, coder, start, end, doc (global offsets)
    n_empty = 0
    for s in data.spans:
        k = d_of.get(s.document)
        if k is None:
            continue
        for a, b in s.fragments:
            if b <= a:
                n_empty += 1
                continue
            rows.append((l_of[s.label], c_of[s.coder], int(edges[k]) + a, int(edges[k]) + b, k))
    arr = np.array(rows, dtype=np.int64).reshape(-1, 5)
    arr = arr[np.lexsort((arr[:, 2], arr[:, 1], arr[:, 0]))]
    # units of one coder and category must not overlap
    same = (arr[1:, 0] == arr[:-1, 0]) & (arr[1:, 1] == arr[:-1, 1]) & (arr[1:, 2] < arr[:-1, 3])
    if same.any():
        k = int(np.flatnonzero(same)[0])
        doc = docs[arr[k, 4]]
        off = int(edges[arr[k, 4]])
        raise AccordError(
            f"{data.source or 'data'}: unitizing alpha needs the units of one coder and category not to overlap; "
            f"coder {coders[arr[k, 1]]!r} has {labels[arr[k, 0]]!r} at [{arr[k, 2] - off}, {arr[k, 3] - off}) and "
            f"[{arr[k + 1, 2] - off}, {arr[k + 1, 3] - off}) in document {doc!r}"
        )
    n_docs = len(docs)
    cats: list[CategoryUnitizing] = []
    parts: list[_Parts] = []
    for ci, label in enumerate(labels):
        sel = arr[arr[:, 0] == ci]
        if len(sel) == 0:
            continue
        sections = []
        gap_len, gap_doc = [], []
        for r in range(m):
            u = sel[sel[:, 1] == r]
            s_start, is_unit = _sections(u[:, 2], u[:, 3], edges)
            sections.append((s_start, is_unit))
            s_end = np.append(s_start[1:], total)
            gap_len.append((s_end - s_start)[~is_unit])
            gap_doc.append(np.searchsorted(edges, s_start[~is_unit], side="right") - 1)
        observed = np.zeros(n_docs)
        for i in range(m):
            for j in range(i + 1, m):
                observed += 2.0 * _pair_distance_by_doc(*sections[i], *sections[j], total, edges, n_docs)
        ul = (sel[:, 3] - sel[:, 2]).astype(float)
        ud = sel[:, 4]
        gl = np.concatenate(gap_len).astype(float)
        gorder = np.argsort(gl, kind="stable")
        p = _Parts(
            observed=observed,
            n_units=np.bincount(ud, minlength=n_docs).astype(float),
            cubic=np.bincount(ud, weights=(2 * ul**3 - 3 * ul**2 + ul) / 3.0, minlength=n_docs),
            squares=np.bincount(ud, weights=ul * (ul - 1.0), minlength=n_docs),
            unit_len=ul,
            unit_doc=ud,
            gap_len=gl[gorder],
            gap_doc=np.concatenate(gap_doc)[gorder],
        )
        big_l = float(total)
        d_o = float(observed.sum()) / (m * (m - 1.0) * big_l**2)
        n_c = float(len(sel))
        num = (n_c - 1.0) * float(p.cubic.sum()) + float(_placements_each(ul, p.gap_len).sum())
        d_e = (2.0 / big_l) * num / (m * big_l * (m * big_l - 1.0) - float(p.squares.sum()))
        cats.append(CategoryUnitizing(label, 1.0 - d_o / d_e if d_e > 0 else math.nan, d_o, d_e, len(sel)))
        parts.append(p)
    if not cats:
        raise AccordError(f"{data.source or 'data'}: no unit of positive length to compare")
    d_o = float(np.mean([c.observed_disagreement for c in cats]))
    d_e = float(np.mean([c.expected_disagreement for c in cats]))
    reason = None
    if d_e > 0:
        value = 1.0 - d_o / d_e
    else:
        reason = "no expected disagreement"
        warn_undefined("unitizing alpha", reason)
        value = math.nan
    return UnitizingAlphaResult(
        alpha=value,
        observed_disagreement=d_o,
        expected_disagreement=d_e,
        categories=tuple(cats),
        n_coders=m,
        n_documents=n_docs,
        continuum_length=total,
        n_documents_dropped=n_dropped,
        n_documents_without_text=n_without_text,
        n_empty_units_dropped=n_empty,
        undefined_reason=reason,
        _parts=tuple(parts),
        _doc_len=lengths,
    )
