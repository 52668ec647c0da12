"""Significance tests of a file of scores, as ``accord significance`` runs them: read, check, test."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.ids import held_column
from accord.data._columns import refuse_repeated
from accord.data._read import FileFormat, read_table
from accord.importers._common import quote

__all__ = ["read_scores", "significance_file"]


def significance_file(path: str | Path, *, system: str, docset: str, score: str, annotation: str | None = None,
                      format: FileFormat = "auto", **options: Any) -> Any:
    """:func:`significance_study` of the scores in *path* (long format: CSV, TSV, JSONL or Parquet, read by
    :func:`read_scores`); a refusal of the study names the file.  *options* as :func:`significance_study`
    takes them."""
    from accord.significance._study import significance_study

    df = read_scores(Path(path), format, {"system": system, "docset": docset, "annotation": annotation}, score)
    try:
        return significance_study(df, system=system, docset=docset, annotation=annotation, score=score, **options)
    except AccordError as exc:
        raise AccordError(f"{path}: {exc}", cli=f"{path}: {exc.for_cli()}") from None


def read_scores(path: Path, fmt: FileFormat, columns: dict[str, str | None], score: str) -> pd.DataFrame:
    """The scores of *path* with the columns named by *columns* (option -> column) and *score*: ids as names,
    scores as finite numbers (a cell that is not one refused with its line)."""
    df, lines = read_table(path, format=fmt)
    for option, col in (columns | {"score": score}).items():
        if col is not None and col not in df.columns:
            raise AccordError(
                f"{path}: no column {col!r} (given as --{option}); columns are {list(df.columns)!r}"
            )
    refuse_repeated(df, str(path), {f"{option} column": col for option, col in (columns | {"score": score}).items()})
    for col in columns.values():
        if col is not None:  # ids are names: " A", "A" and "A " are one annotation, 1 and "1" one system
            df[col] = held_column(df[col].to_numpy(dtype=object))[0]
    values = np.array([_finite(x) for x in df[score].tolist()], dtype=float)
    bad = np.flatnonzero(np.isnan(values) & df[score].notna().to_numpy())
    if bad.size:
        i = int(bad[0])
        raise AccordError(f"{path}, line {lines[i]}: score column {score!r} holds {quote(str(df[score].iloc[i]))}, "
                          "not a finite number")
    df[score] = values
    return df


def _finite(x: Any) -> float:
    """A score cell as a float; NaN when it is not a finite number (text, 1e400, an integer of 400 digits)."""
    try:
        f = float(x)
    except (TypeError, ValueError, OverflowError):
        return math.nan
    return f if math.isfinite(f) else math.nan


