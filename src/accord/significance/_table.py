"""Reading the long table of scores a significance study takes.

One row per (system, document set, annotation) with a numeric score, from a
pandas or polars DataFrame (through narwhals): rows without a score or a key
are left out and listed as :class:`~accord.significance._results.Exclusion`,
systems scored in one annotation only are left out with a warning, and the
keys are coded as integers for the tests.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import narwhals as nw
import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.names import shown
from accord.significance._results import Exclusion


@dataclass(frozen=True)
class _Table:
    y: np.ndarray  # scores
    sys: np.ndarray  # system codes 0..k-1
    doc: np.ndarray  # docset codes
    ann: np.ndarray  # annotation codes 0..m-1
    systems: tuple[Hashable, ...]
    docsets: tuple[Hashable, ...]
    annotations: tuple[Hashable, ...]
    exclusions: tuple[Exclusion, ...]


def _factorize(values: np.ndarray) -> tuple[np.ndarray, tuple[Hashable, ...]]:
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:
        codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.intp), tuple(_py(u) for u in uniques)


def _recode(codes: np.ndarray, labels: tuple[Hashable, ...]) -> tuple[np.ndarray, tuple[Hashable, ...]]:
    """Drop the labels no code uses any more; keep the order of the rest."""
    used = np.flatnonzero(np.bincount(codes, minlength=len(labels)))
    remap = np.full(len(labels), -1, dtype=np.intp)
    remap[used] = np.arange(used.size)
    return remap[codes], tuple(labels[i] for i in used)


def _py(value: Any) -> Hashable:
    return value.item() if isinstance(value, np.generic) else value


def _read_table(
    scores: Any,
    *,
    system: str,
    docset: str,
    annotation: str | None,
    score: str,
) -> _Table:
    try:
        frame = nw.from_native(scores, eager_only=True)
    except TypeError:
        raise AccordError(
            f"scores must be a pandas or polars DataFrame (long table); got {type(scores).__name__}"
        ) from None
    if not isinstance(frame, nw.DataFrame):
        raise AccordError(f"scores must be a DataFrame, not a Series; got {type(scores).__name__}")
    names = {"system": system, "docset": docset, "score": score}
    if annotation is not None:
        names["annotation"] = annotation
    columns = list(frame.columns)
    for param, col in names.items():
        if col not in columns:
            raise AccordError(f"{param} column {col!r} is not in the table; columns are {columns!r}")
    n_rows = len(frame)
    raw_y = frame[score].to_numpy()
    try:
        y = np.asarray(pd.to_numeric(pd.Series(raw_y), errors="raise"), dtype=float)
    except (TypeError, ValueError):
        series = pd.to_numeric(pd.Series(raw_y), errors="coerce")
        bad = np.flatnonzero(series.isna().to_numpy() & pd.notna(pd.Series(raw_y)).to_numpy())
        first = bad[0] if bad.size else 0
        raise AccordError(f"score column {score!r} must be numeric; row {first} holds {shown(raw_y[first])}") from None
    keys = {p: frame[c].to_numpy() for p, c in names.items() if p != "score"}
    keep = np.isfinite(y)
    exclusions: list[Exclusion] = []
    if (~keep).any():
        exclusions.append(Exclusion("rows", f"{int((~keep).sum())} of {n_rows} rows have no finite score"))
    for p, arr in keys.items():
        missing = pd.isna(pd.Series(arr)).to_numpy() & keep
        if missing.any():
            exclusions.append(Exclusion("rows", f"{plural(int(missing.sum()), 'row')} have no {p} ({names[p]!r})"))
            keep &= ~missing
    y = y[keep]
    sys_codes, systems = _factorize(keys["system"][keep])
    doc_codes, docsets = _factorize(keys["docset"][keep])
    if annotation is None:
        ann_codes, annotations = np.zeros(y.size, dtype=np.intp), (None,)
    else:
        ann_codes, annotations = _factorize(keys["annotation"][keep])
        if len(annotations) != 2:
            head = (f"annotation column {annotation!r} must hold exactly two annotations to compare; it holds "
                    f"{len(annotations)}: {list(annotations)[:10]!r}")
            raise AccordError(f"{head} (pass annotation=None to study one)",
                              cli=f"{head} (omit --annotation to study one)")
    if y.size == 0:
        raise AccordError("scores has no row with a score; nothing to study")
    # one score per (system, docset, annotation)
    cell = (sys_codes * len(docsets) + doc_codes) * len(annotations) + ann_codes
    uniq, counts = np.unique(cell, return_counts=True)
    if (counts > 1).any():
        c = int(uniq[np.argmax(counts > 1)])
        a_code, rest = c % len(annotations), c // len(annotations)
        d_code, s_code = rest % len(docsets), rest // len(docsets)
        where = f"system {systems[s_code]!r}, docset {docsets[d_code]!r}"
        if annotation is not None:
            where += f", annotation {annotations[a_code]!r}"
        raise AccordError(f"{where} has {int(counts.max())} scores; one score per cell is expected")
    # systems scored in one annotation only are left out of everything
    if len(annotations) == 2:
        present = np.zeros((len(systems), 2), dtype=bool)
        present[sys_codes, ann_codes] = True
        lonely = np.flatnonzero(~present.all(axis=1))
        for s in lonely:
            only = annotations[int(np.flatnonzero(present[s])[0])]
            exclusions.append(Exclusion(f"system {systems[s]!r}", f"scored in annotation {only!r} only"))
        if lonely.size:
            warnings.warn(
                f"{plural(lonely.size, 'system')} scored in one annotation only left out: "
                + ", ".join(repr(systems[s]) for s in lonely[:10]) + (", ..." if lonely.size > 10 else ""),
                AccordWarning,
                stacklevel=3,
            )
            keep2 = present[sys_codes].all(axis=1)
            y, ann_codes = y[keep2], ann_codes[keep2]
            sys_codes, systems = _recode(sys_codes[keep2], systems)
            doc_codes, docsets = _recode(doc_codes[keep2], docsets)
    if len(systems) < 2:
        raise AccordError(
            f"system column {system!r} must give at least two systems scored in every annotation; "
            f"got {len(systems)}: {list(systems)!r}"
        )
    return _Table(y, sys_codes, doc_codes, ann_codes, systems, docsets, annotations, tuple(exclusions))
