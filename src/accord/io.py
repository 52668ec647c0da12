"""Reading reliability data from files: CSV, TSV, JSONL, Parquet and spreadsheets (.xlsx, .ods).

Long format, one row per (unit, coder, value).  Set-valued cells are JSON lists
in CSV/TSV (``["a", "b"]``) and lists in JSONL and Parquet; they become
frozensets.  An empty cell is a missing value.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord.data import Annotations, DuplicatePolicy
from accord.errors import AccordError, no_such_file, plural

__all__ = ["FileFormat", "read", "read_table"]

FileFormat = Literal["auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"]
_FORMATS = ("auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods")
_SUFFIX = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".jsonl": "jsonl",
    ".jsonlines": "jsonl",
    ".ndjson": "jsonl",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".ods": "ods",
}


_TOO_DEEP = "{}: a cell nests lists more deeply than Python's recursion limit allows; set values are lists of labels"


def _format_of(path: Path, fmt: str) -> str:
    if fmt not in _FORMATS:
        raise AccordError(f"format must be one of {', '.join(_FORMATS)}; got {fmt!r}")
    if fmt != "auto":
        return fmt
    suffix = path.suffix.lower()
    if suffix not in _SUFFIX:
        head = (f"{path}: cannot tell the format from the suffix {suffix!r}: use a .csv, .tsv, .jsonl, .parquet, "
                ".xlsx or .ods file")
        raise AccordError(f"{head}, or pass format= (csv, tsv, jsonl, parquet, xlsx, ods)", cli=head)
    return _SUFFIX[suffix]


def _parse_cell(x: Any) -> Any:
    """JSON lists in text cells become frozensets; other text is kept."""
    if isinstance(x, str):
        s = x.strip()
        if s.startswith("[") and s.endswith("]"):
            try:
                parsed = json.loads(s)
            except (ValueError, RecursionError):  # not JSON (or nested too deep, a number too long): text
                return x
            if isinstance(parsed, list):
                return frozenset(_hashable(v) for v in parsed)
    if isinstance(x, (list, tuple, np.ndarray)):
        return frozenset(_hashable(v) for v in x)
    return x


def _parse_column(col: pd.Series) -> pd.Series:
    """:func:`_parse_cell` over a column, once per distinct cell.

    Text cells are factorized as they are; list or array cells (Parquet lists, JSON lines) by the tuple of
    their elements. Where the cells mix other kinds (numbers, booleans: ``True`` and ``1`` hash alike) or
    are nested, every cell is parsed on its own.
    """
    arr = col.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(arr, skipna=True)
    if kind == "string":
        keys = arr
    elif kind == "mixed":
        seq = (list, tuple, np.ndarray)
        if not all(isinstance(x, seq) or x is None or (isinstance(x, float) and x != x) for x in arr):
            return col.map(_parse_cell)
        keys = np.empty(len(arr), dtype=object)
        keys[:] = [tuple(x) if isinstance(x, seq) else x for x in arr]
    else:
        return col.map(_parse_cell)
    try:
        codes, uniques = pd.factorize(keys, use_na_sentinel=True)
    except TypeError:  # nested lists: unhashable tuples
        return col.map(_parse_cell)
    parsed = np.empty(len(uniques) + 1, dtype=object)
    parsed[:-1] = [_parse_cell(list(u) if isinstance(u, tuple) else u) for u in uniques]
    out = parsed[codes]
    missing = codes < 0
    out[missing] = arr[missing]  # missing cells as they were (None, NaN)
    return pd.Series(out, index=col.index, dtype=object)


def _hashable(v: Any) -> Any:
    if isinstance(v, (list, tuple, np.ndarray)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    if isinstance(v, np.generic):
        return v.item()
    return v


def read_table(
    path: str | os.PathLike[str], *, format: FileFormat = "auto", convert: bool = True, sheet: str | int = 0,
    formulas: str = "refuse",
) -> tuple[pd.DataFrame, np.ndarray]:
    """Read a file into a DataFrame and the line (or row) number of each row.

    Parameters
    ----------
    path : path-like
    format : {"auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"}
    convert : bool
        CSV/TSV and spreadsheets: turn JSON-list cells into frozensets and
        all-number columns into numbers (see :func:`_convert_column`); ``False``
        keeps every cell as text (empty cells are missing either way).
    sheet : str or int
        Spreadsheets only: the sheet's name or 0-based index.
    formulas : {"refuse", "missing"}
        Spreadsheets only: a formula cell that holds no computed value (a file written by openpyxl or a
        script) is an error naming the cells, or read as missing.

    Raises :class:`~accord.AccordError` for a missing, empty or unparsable file.
    Blank lines are skipped; line numbers count them.
    """
    p = _one_file(path)
    if not p.exists():
        raise no_such_file(p)
    if p.is_dir():
        raise AccordError(f"{p}: is a directory, not a file")
    fmt = _format_of(p, format)
    if p.stat().st_size == 0:
        raise AccordError(f"{p}: empty file")
    try:
        if fmt in ("csv", "tsv"):
            df = pd.read_csv(p, sep="," if fmt == "csv" else "\t", dtype=object, keep_default_na=False,
                             na_values=[""], skipinitialspace=True, skip_blank_lines=False)
            lines = np.arange(len(df)) + 2  # header on line 1
            blank = df.isna().all(axis=1).to_numpy()
            df, lines = df[~blank].reset_index(drop=True), lines[~blank]
            if convert:
                df = df.apply(_convert_column)
        elif fmt in ("xlsx", "ods"):
            from accord.importers.spreadsheet import read_sheet

            df, lines = read_sheet(p, sheet=sheet, engine="openpyxl" if fmt == "xlsx" else "odf", formulas=formulas)
            if convert:
                df = df.apply(_convert_column)
        elif fmt == "jsonl":
            rows, lines_l = [], []
            with p.open(encoding="utf-8") as fh:
                for i, line in enumerate(fh, start=1):
                    if not line.strip():
                        continue
                    try:
                        obj = json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise AccordError(f"{p}, line {i}: not valid JSON ({exc.msg})") from None
                    except (RecursionError, ValueError):
                        raise AccordError(f"{p}, line {i}: JSON nested too deeply, or a number of more digits "
                                          "than Python reads") from None
                    if not isinstance(obj, dict):
                        raise AccordError(f"{p}, line {i}: each line must be a JSON object")
                    rows.append(obj)
                    lines_l.append(i)
            df = pd.DataFrame(rows)
            lines = np.asarray(lines_l)
        else:
            try:
                df = pd.read_parquet(p)
            except ImportError:
                raise AccordError(
                    "reading Parquet needs pyarrow: pip install 'accord[parquet]'"
                ) from None
            lines = np.arange(len(df)) + 1
    except pd.errors.EmptyDataError:
        raise AccordError(f"{p}: empty file") from None
    except pd.errors.ParserError as exc:
        raise AccordError(f"{p}: cannot parse as {fmt}: {str(exc).splitlines()[0]}") from None
    except UnicodeDecodeError as exc:
        raise AccordError(f"{p}: not UTF-8 text ({exc.reason})") from None
    except RecursionError:
        raise AccordError(_TOO_DEEP.format(p)) from None
    if len(df) == 0:
        raise AccordError(f"{p}: no data rows")
    return df, lines


def _one_file(path: str | os.PathLike[str]) -> Path:
    """*path*, or the one file the glob *path* matches (the rules of :mod:`accord._glob`, as on every engine)."""
    from accord._glob import glob_files, is_glob

    if not is_glob(path):
        return Path(path)
    files = glob_files(path)
    if not files:
        raise AccordError(f"{path}: no file matches")
    if len(files) > 1:
        shown = ", ".join(map(str, files[:3])) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
        head = f"{path}: matches {plural(len(files), 'file')} ({shown})"
        raise AccordError(f"{head}; accord.read reads one file: read several with a lazy engine (accord.engines.agree)",
                          cli=f"{head}; the memory engine reads one file: read several with --engine duckdb")
    return files[0]


def _number(s: str) -> int | float | None:
    """The number a text cell spells in canonical form, or None ("01", "1e3", "nan" are not numbers here)."""
    t = s.strip()
    try:
        i = int(t)
    except ValueError:
        pass
    else:
        return i if str(i) == t.lstrip("+") else None
    try:
        f = float(t)
    except ValueError:
        return None
    if not np.isfinite(f) or "e" in t.lower() or t.startswith(("0", "-0")) and not t.startswith(("0.", "-0.")):
        return None
    return f


def _convert_column(col: pd.Series) -> pd.Series:
    """Text columns: JSON lists become frozensets; a column whose every cell is a number becomes numbers.

    Conversion is all or nothing per column, and only for canonical spellings, so labels such as
    "01" and "1" are never merged and a column never mixes numbers with text.
    """
    present = col.dropna()
    if present.empty:
        return col
    texts = present.astype(str)
    if texts.str.strip().str.startswith("[").any():
        return _parse_column(col)
    numbers = [_number(t) for t in texts.tolist()]
    if all(n is not None for n in numbers):
        out = pd.Series([None] * len(col), index=col.index, dtype=object)
        out[present.index] = numbers
        return out
    return col


def read(
    path: str | os.PathLike[str],
    *,
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    layout: Literal["long", "wide"] = "long",
    coders: Sequence[str] | None = None,
    format: FileFormat = "auto",
    duplicates: DuplicatePolicy = "error",
    sheet: str | int = 0,
    formulas: str = "refuse",
) -> Annotations:
    """Read reliability data from CSV, TSV, JSONL, Parquet or a spreadsheet (.xlsx, .ods).

    Parameters
    ----------
    path : path-like
        The file, or a glob that matches one file (``**`` as on every engine, see
        :func:`accord.engines.sources.expand`); its suffix chooses the format unless
        *format* is given.
    unit, coder, value : str
        Column names.  In the wide layout only *unit* is used.
    layout : {"long", "wide"}
        ``"long"``: one row per (unit, coder, value).  ``"wide"``: one row per
        unit, one column per coder (the spreadsheet layout); an empty cell is a
        missing value.
    coders : sequence of str, optional
        Wide layout: the coder columns (default: every column but *unit*).
    format : {"auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"}
    duplicates : {"error", "first", "last"}
        One coder giving two values to one unit: an error naming both lines
        (default), or keep the first or last.
    sheet : str or int
        Spreadsheets: the sheet to read, by name or 0-based index (default the
        first); needs the ``accord[excel]`` extra (openpyxl, odfpy).
    formulas : {"refuse", "missing"}
        Spreadsheets: a formula cell that holds no computed value (what openpyxl and
        other writers that do not compute formulas save) is an error naming the
        sheet and cells (default), or, with ``"missing"``, a missing value.

    Returns
    -------
    Annotations

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "labels.csv"
    >>> _ = f.write_text('unit,coder,value\\n1,A,"[""x"",""y""]"\\n1,B,"[""x""]"\\n')
    >>> read(f).values[0] == frozenset({"x", "y"})
    True
    >>> g = f.with_name("wide.csv")
    >>> _ = g.write_text("item,ann1,ann2\\nq1,yes,yes\\nq2,no,\\n")
    >>> read(g, unit="item", layout="wide")
    Annotations(2 units, 2 coders, 3 values, 2 distinct values, 1 missing)
    """
    if layout not in ("long", "wide"):
        raise AccordError(f"layout must be 'long' or 'wide'; got {layout!r}")
    path = _one_file(path)
    if layout == "wide":
        return _read_wide(path, unit=unit, coders=coders, format=format, sheet=sheet, formulas=formulas)
    df, lines = read_table(path, format=format, sheet=sheet, formulas=formulas)
    if format == "auto" or format in ("jsonl", "parquet"):
        for col in (value,):
            if col in df.columns and df[col].dtype == object:
                try:
                    df[col] = _parse_column(df[col])
                except RecursionError:
                    raise AccordError(_TOO_DEEP.format(path)) from None
    return Annotations.from_records(
        df, unit=unit, coder=coder, value=value, duplicates=duplicates, source=str(path), row_numbers=lines
    )


def _read_wide(
    path: str | os.PathLike[str], *, unit: str, coders: Sequence[str] | None, format: FileFormat, sheet: str | int = 0,
    formulas: str = "refuse",
) -> Annotations:
    """One row per unit, one column per coder: melt to long, converting all coder columns as one."""
    df, lines = read_table(path, format=format, convert=False, sheet=sheet, formulas=formulas)
    if unit not in df.columns:
        raise AccordError(
            f"{path}: missing column {unit!r} (the unit column of the wide layout); columns are "
            f"{', '.join(map(repr, map(str, df.columns)))}"
        )
    cols = [c for c in df.columns if c != unit] if coders is None else list(coders)
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise AccordError(
            f"{path}: missing coder column {missing[0]!r}; columns are {', '.join(map(repr, df.columns))}"
        )
    if len(cols) < 1:
        raise AccordError(f"{path}: the wide layout needs coder columns beside {unit!r}")
    dup = df[unit][df[unit].duplicated()]
    if len(dup):
        first = int(np.flatnonzero(df[unit].to_numpy() == dup.iloc[0])[0])
        second = int(np.flatnonzero(df[unit].to_numpy() == dup.iloc[0])[1])
        raise AccordError(
            f"{path}: unit {dup.iloc[0]!r} has two rows (lines {lines[first]} and {lines[second]}); the wide "
            "layout needs one row per unit"
        )
    n = len(df)
    values = pd.concat([df[c] for c in cols], ignore_index=True)
    if values.dtype == object:
        values = _convert_column(values)
    units = _convert_column(df[unit].astype(object)) if df[unit].dtype == object else df[unit]
    long = pd.DataFrame(
        {
            "unit": np.tile(units.to_numpy(dtype=object), len(cols)),
            "coder": np.repeat(np.asarray(cols, dtype=object), n),
            "value": values.to_numpy(dtype=object) if values.dtype == object else values.to_numpy(),
        }
    )
    return Annotations.from_records(long, source=str(path), row_numbers=np.tile(lines, len(cols)))
