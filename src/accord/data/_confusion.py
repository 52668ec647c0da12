"""Two coders' judgments given as a confusion matrix (a square table of counts).

Cell (i, j) counts the units the first coder (rows) put in category i and the second (columns) in j,
as in Cohen (1960) and Fleiss, Cohen & Everitt (1969).  :func:`from_confusion` turns the
table into :class:`~accord.Annotations` with one unit per counted judgment pair, so every two-coder
coefficient (Cohen's kappa, weighted or not, with its standard errors; Scott's pi; Gwet; alpha...)
works on it unchanged.  :func:`read_confusion` reads one from a CSV file: a header row of categories and
a first column of categories.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from accord._shared.errors import AccordError, no_such_file
from accord.data._annotations import Annotations

__all__ = ["from_confusion", "read_confusion"]


def from_confusion(
    table: Any,
    *,
    categories: Sequence[Hashable] | None = None,
    coders: tuple[Hashable, Hashable] = ("rows", "columns"),
    source: str | None = None,
) -> Annotations:
    """Two coders' annotations from their confusion matrix; see :meth:`accord.Annotations.from_confusion`."""
    return Annotations.from_confusion(table, categories=categories, coders=coders, source=source)


def read_confusion(path: str | Path) -> pd.DataFrame:
    """Read a confusion matrix from a CSV file: a header row of categories, a first column of categories.

    The header's first cell (over the row labels) may hold anything, e.g. ``A \\ B``.  Counts must be
    non-negative integers; :func:`from_confusion` says which cell is not.
    """
    path = Path(path)
    if not path.is_file():
        raise no_such_file(path)
    try:
        frame = pd.read_csv(path, index_col=0, dtype=str, keep_default_na=False, skipinitialspace=True)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise AccordError(f"{path}: not a CSV table of counts: {str(exc).splitlines()[0]}") from None
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise AccordError(f"{path}: no counts (a header row of categories and one row per category expected)")
    return frame
