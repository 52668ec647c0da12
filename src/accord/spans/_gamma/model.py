"""The continuum gamma reads: per document, the units (annotator, start, end, category) of every annotator who saw it.

:func:`continua` builds them from a :class:`~accord.spans.SpanAnnotations`
(what every span importer and the canonical span table give), a pandas frame
or a list of records with columns ``annotator`` (or ``coder``), ``start``,
``end``, ``category`` (or ``label``) and optionally ``document``; positions are
floats, so time-coded segments (seconds) work as character offsets do.

An annotator who saw a document and marked nothing in it is part of that
document's continuum (they count in the mean number of units per annotator);
an annotator who never saw a document is not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown
from accord.data._spans import SpanAnnotations

__all__ = ["Continuum", "continua"]


@dataclass(frozen=True, eq=False)
class Continuum:
    """The units of one document.

    Attributes
    ----------
    document : str
    annotators : tuple of str
        Everyone who saw the document, sorted (some may have no unit).
    categories : tuple of str
        The categories of its units, sorted.
    annotator, category : ndarray of int
        Per unit, codes into ``annotators`` and ``categories``.
    start, end : ndarray of float
    unit_id : ndarray of int
        Per unit, its position in the input (row or span number), for messages and the alignment frame.

    Units are sorted by annotator, start, end, category.
    """

    document: str
    annotators: tuple[str, ...]
    categories: tuple[str, ...]
    annotator: np.ndarray
    start: np.ndarray
    end: np.ndarray
    category: np.ndarray
    unit_id: np.ndarray

    def __len__(self) -> int:
        return len(self.start)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @cached_property
    def offsets(self) -> np.ndarray:
        """The units of annotator a are ``offsets[a]:offsets[a + 1]`` (units are sorted by annotator)."""
        return np.searchsorted(self.annotator, np.arange(len(self.annotators) + 1), side="left").astype(np.int64)

    @property
    def mean_units(self) -> float:
        """Mean number of units per annotator (annotators without a unit count)."""
        return len(self.start) / len(self.annotators)

    def describe_unit(self, i: int) -> str:
        """``document 'd', annotator 'A', unit 3 [0, 5) 'PER'`` for messages."""
        return (f"document {self.document!r}, annotator {self.annotators[self.annotator[i]]!r}, unit "
                f"{int(self.unit_id[i])} [{self.start[i]:g}, {self.end[i]:g}) {self.categories[self.category[i]]!r}")

    @classmethod
    def from_arrays(cls, document: str, annotators: Sequence[str], annotator: Sequence[str], start: Any, end: Any,
                    category: Sequence[str], unit_id: Any = None) -> Continuum:
        """Build and check one continuum from parallel columns (annotator and category as strings).

        Examples
        --------
        >>> c = Continuum.from_arrays("d", ["A", "B"], ["A", "B"], [0, 1], [5, 5], ["x", "x"])
        >>> c.mean_units, c.annotators
        (1.0, ('A', 'B'))
        """
        anns = tuple(sorted({str(a) for a in annotators} | {str(a) for a in annotator}))
        start = np.asarray(start, dtype=float).reshape(-1)
        end = np.asarray(end, dtype=float).reshape(-1)
        n = len(start)
        ids = np.arange(n, dtype=np.int64) if unit_id is None else np.asarray(unit_id, dtype=np.int64)
        annotator = [str(a) for a in annotator]
        category = [str(c) for c in category]
        if not (len(end) == len(annotator) == len(category) == len(ids) == n):
            raise AccordError(f"document {document!r}: the unit columns have different lengths")
        for i in range(n):
            s, e = start[i], end[i]
            if not (math.isfinite(s) and math.isfinite(e)) or e < s:
                what = "a position that is not a finite number" if not (math.isfinite(s) and math.isfinite(e)) \
                    else "end < start"
                raise AccordError(
                    f"document {document!r}, annotator {annotator[i]!r}, unit {int(ids[i])} "
                    f"({category[i]!r}, start={shown(s)}, end={shown(e)}): {what}"
                )
        if len(anns) < 2:
            who = f"only annotator {anns[0]!r}" if anns else "no annotator"
            raise AccordError(f"document {document!r} has {who}; gamma needs at least two annotators per document")
        cats = tuple(sorted(set(category)))
        a_of = {a: i for i, a in enumerate(anns)}
        c_of = {c: i for i, c in enumerate(cats)}
        a_code = np.fromiter((a_of[a] for a in annotator), dtype=np.int64, count=n)
        c_code = np.fromiter((c_of[c] for c in category), dtype=np.int64, count=n)
        order = np.lexsort((c_code, end, start, a_code))
        return cls(document=str(document), annotators=anns, categories=cats, annotator=a_code[order],
                   start=start[order], end=end[order], category=c_code[order], unit_id=ids[order])


_ANN = ("annotator", "coder")
_CAT = ("category", "label")


def _pick(columns: Iterable[str], names: tuple[str, ...], what: str) -> str:
    cols = list(columns)
    for n in names:
        if n in cols:
            return n
    raise AccordError(f"the unit table has no {what} column (one of {', '.join(names)}); it has {', '.join(cols)}")


def continua(
    data: Any, *, annotators: Mapping[str, Iterable[str]] | Iterable[str] | None = None
) -> tuple[Continuum, ...]:
    """The continua (one per document) of span annotations or a unit table.

    Parameters
    ----------
    data : SpanAnnotations, pandas.DataFrame, or sequence of mappings
        A unit table has ``annotator`` (or ``coder``), ``start``, ``end``,
        ``category`` (or ``label``) and optionally ``document`` (one continuum
        when absent).  Positions are numbers (offsets or seconds).
    annotators : iterable of str, or mapping document -> iterable of str, optional
        For a unit table: who saw each document (or every document) besides
        those with a unit there; an annotator who marked nothing is part of the
        continuum only when named here.  SpanAnnotations carry this themselves
        (``seen``).

    Returns
    -------
    tuple of Continuum
        In document order.  A discontinuous span counts as the stretch from
        its first start to its last end.

    Examples
    --------
    >>> cs = continua([{"annotator": "A", "start": 0, "end": 5, "category": "x"},
    ...                {"annotator": "B", "start": 1, "end": 5, "category": "x"}], annotators=["A", "B", "C"])
    >>> [(c.document, c.annotators, len(c)) for c in cs]
    [('(continuum)', ('A', 'B', 'C'), 2)]
    """
    if isinstance(data, Continuum):
        return (data,)
    if isinstance(data, (list, tuple)) and data and all(isinstance(c, Continuum) for c in data):
        return tuple(data)
    if isinstance(data, SpanAnnotations):
        if annotators is not None:
            raise AccordError("annotators= is for unit tables; SpanAnnotations say who saw what in `seen`")
        seen: dict[str, set[str]] = {}
        for d, c in data.seen:
            seen.setdefault(d, set()).add(c)
        rows: dict[str, list[tuple[str, float, float, str, int]]] = {d: [] for d in seen}
        for i, s in enumerate(data.spans):
            rows.setdefault(s.document, []).append((s.coder, float(s.start), float(s.end), s.label, i))
        out = []
        for d in sorted(rows):
            r = rows[d]
            out.append(Continuum.from_arrays(
                d, sorted(seen.get(d, ())), [x[0] for x in r], [x[1] for x in r], [x[2] for x in r],
                [x[3] for x in r], [x[4] for x in r]))
        return tuple(out)
    import pandas as pd

    if isinstance(data, pd.DataFrame):
        frame = data
    else:
        try:
            frame = pd.DataFrame(list(data))
        except (TypeError, ValueError):
            raise AccordError(f"gamma reads SpanAnnotations, a DataFrame or a list of unit records; got "
                              f"{type(data).__name__}") from None
    if frame.empty and annotators is None:
        raise AccordError("the unit table is empty and names no annotator")
    a_col = _pick(frame.columns, _ANN, "annotator") if not frame.empty else "annotator"
    c_col = _pick(frame.columns, _CAT, "category") if not frame.empty else "category"
    if not frame.empty:
        for col in ("start", "end"):
            if col not in frame.columns:
                raise AccordError(f"the unit table has no {col!r} column; it has {', '.join(map(str, frame.columns))}")
    has_doc = "document" in frame.columns
    docs = (sorted({str(d) for d in frame["document"]}) if has_doc else ["(continuum)"])
    if isinstance(annotators, Mapping):
        docs = sorted(set(docs) | {str(d) for d in annotators})
    out = []
    for d in docs:
        sub = frame[frame["document"].astype(str) == d] if has_doc else frame
        if isinstance(annotators, Mapping):
            extra = [str(a) for a in annotators.get(d, ())]
        else:
            extra = [str(a) for a in (annotators or ())]
        if sub.empty:
            out.append(Continuum.from_arrays(d, extra, [], [], [], [], []))
            continue
        try:
            start = pd.to_numeric(sub["start"]).to_numpy(dtype=float)
            end = pd.to_numeric(sub["end"]).to_numpy(dtype=float)
        except (TypeError, ValueError):
            for i, (s, e) in enumerate(zip(sub["start"], sub["end"], strict=True)):
                for v in (s, e):
                    try:
                        float(v)
                    except (TypeError, ValueError):
                        raise AccordError(
                            f"document {d!r}, annotator {shown(sub[a_col].iloc[i])}, unit {int(sub.index[i])}: "
                            f"position {v!r} is not a number"
                        ) from None
            raise
        out.append(Continuum.from_arrays(d, extra, sub[a_col].astype(str).tolist(), start, end,
                                         sub[c_col].astype(str).tolist(), np.asarray(sub.index, dtype=np.int64)))
    return tuple(out)
