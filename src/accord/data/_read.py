"""Reading reliability data from files: CSV, TSV, JSONL, Parquet and spreadsheets (.xlsx, .ods).

Long format, one row per (unit, coder, value).  Set-valued cells are JSON lists
in CSV/TSV (``["a", "b"]``) and lists in JSONL and Parquet; they become
frozensets.  An empty cell is a missing value.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.decode import json_text
from accord._shared.errors import AccordError, install_hint, no_such_file, plural
from accord.data._annotations import Annotations, DuplicatePolicy
from accord.data._cells import _convert_column, _header, _number, _parse_column
from accord.data._columns import ReadAs

__all__ = ["FileFormat", "ReadAs", "columns_of", "read", "read_table"]

FileFormat = Literal["auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"]
_FORMATS = ("auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods")
_SUFFIX = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": "csv",
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
    if suffix == ".xls":
        raise AccordError(f"{path}: an .xls file (the binary format of Excel 97-2003) is not read: save it as .xlsx "
                          "or CSV (File > Save As in Excel or LibreOffice) and read that")
    if suffix not in _SUFFIX:
        head = (f"{path}: cannot tell the format from the suffix {suffix!r}: use a .csv, .tsv, .jsonl, .parquet, "
                ".xlsx, .ods or .txt (a text table) file")
        raise AccordError(f"{head}, or pass format= (csv, tsv, jsonl, parquet, xlsx, ods)", cli=head)
    return _SUFFIX[suffix]


_SNIFF_BYTES = 2**16
#: The delimiters a text table is sniffed for, and what a message calls them.
SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}


def _separator(sep: str | None) -> str | None:
    """*sep* as one character (``"tab"`` and ``"\\t"`` are the tab), checked."""
    if sep is None:
        return None
    s = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}.get(sep, sep)
    if len(s) != 1 or s in "\"\r\n":
        raise AccordError(f"sep must be one character (',', ';', 'tab', '|'); got {sep!r}",
                          cli=f"--sep must be one character (',', ';', tab, '|'); got {sep!r}")
    return s


def _sniff(data: bytes, default: str, *, complete: bool) -> str:
    """The delimiter of a text table from its first bytes: the candidate whose header has most fields, when at
    least nine rows in ten have as many (ties to *default*, the suffix's)."""
    text = data.decode("utf-8", errors="replace")
    if not complete and "\n" in text:
        text = text[: text.rfind("\n")]
    best, best_key = default, (0.0, 0)
    for d in dict.fromkeys((default, *SEPARATORS)):
        try:
            rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=d) if any(x.strip() for x in r)]
        except csv.Error:
            continue
        rows = rows[:200]
        if not rows or len(rows[0]) < 2:
            continue
        n = len(rows[0])
        share = sum(len(r) == n for r in rows) / len(rows)
        if share >= 0.9 and (share, n) > best_key:
            best, best_key = d, (share, n)
    return best


def _text_table(p: Path, fmt: str, sep: str | None, nrows: int | None = None
                ) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any]]:
    with p.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    bom = head.startswith(codecs.BOM_UTF8)
    default = "\t" if fmt == "tsv" else ","
    used = sep if sep is not None else _sniff(head[3 if bom else 0:], default, complete=len(head) < _SNIFF_BYTES)
    df = pd.read_csv(p, sep=used, header=None, dtype=object, keep_default_na=False, na_values=[""],
                     skipinitialspace=True, skip_blank_lines=False, encoding="utf-8-sig", nrows=nrows)
    if len(df) == 0:
        raise pd.errors.EmptyDataError
    names, original, stripped = _header(df.iloc[0].tolist())
    df = df.iloc[1:].reset_index(drop=True)
    df.columns = names
    lines = np.arange(len(df)) + 2  # header on line 1
    blank = df.isna().all(axis=1).to_numpy()
    df, lines = df[~blank].reset_index(drop=True), lines[~blank]
    return df, lines, {"sep": used, "default_sep": default, "bom": bom, "raw": original, "stripped": stripped,
                       "inferred_sep": sep is None}


def read_table(
    path: str | os.PathLike[str], *, format: FileFormat = "auto", convert: bool = True, sheet: str | int = 0,
    formulas: str = "refuse", sep: str | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Read a file into a DataFrame and the line (or row) number of each row.

    Parameters
    ----------
    path : path-like
    format : {"auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"}
        ``"auto"``: from the suffix (``.txt`` is a text table).
    convert : bool
        CSV/TSV and spreadsheets: turn JSON-list cells into frozensets and
        all-number columns into numbers (see :func:`_convert_column`); ``False``
        keeps every cell as text (empty cells are missing either way).
    sheet : str or int
        Spreadsheets only: the sheet's name or 0-based index.
    formulas : {"refuse", "missing"}
        Spreadsheets only: a formula cell that holds no computed value (a file written by openpyxl or a
        script) is an error naming the cells, or read as missing.
    sep : str, optional
        Text tables only: the delimiter (one character; ``"tab"`` for the tab).  Default: sniffed from the
        first 64 KiB among comma, semicolon, tab and pipe.

    Raises :class:`~accord.AccordError` for a missing, empty or unparsable file.
    Blank lines are skipped; line numbers count them.  A UTF-8 byte-order mark is skipped; header names lose
    surrounding spaces.  ``df.attrs["read"]`` says how the file was read: the delimiter, the byte-order mark,
    each column's name in the header (a repeated name is renamed ``x.1``), the names stripped.
    """
    p = _one_file(path)
    if not p.exists():
        raise no_such_file(p)
    if p.is_dir():
        raise AccordError(f"{p}: is a directory, not a file")
    fmt = _format_of(p, format)
    sep = _separator(sep)
    if sep is not None and fmt not in ("csv", "tsv"):
        raise AccordError(f"{p}: sep applies to text tables (CSV, TSV, .txt); this is a {fmt} file",
                          cli=f"{p}: --sep applies to text tables (CSV, TSV, .txt); this is a {fmt} file")
    if p.stat().st_size == 0:
        raise AccordError(f"{p}: empty file")
    info: dict[str, Any] = {"sep": None, "bom": False, "raw": {}, "stripped": 0}
    try:
        if fmt in ("csv", "tsv"):
            df, lines, info = _text_table(p, fmt, sep)
            if convert:
                df = df.apply(_convert_column)
        elif fmt in ("xlsx", "ods"):
            from accord.data._sheets import read_sheet

            df, lines = read_sheet(p, sheet=sheet, engine="openpyxl" if fmt == "xlsx" else "odf", formulas=formulas)
            info.update(raw=df.attrs.get("raw", {}), stripped=df.attrs.get("stripped", 0))
            if convert:
                df = df.apply(_convert_column)
        elif fmt == "jsonl":
            df, lines, info["bom"], info["repeated_keys"] = _jsonl(p)
        else:
            try:
                df = pd.read_parquet(p)
            except ImportError:
                raise AccordError(f"reading Parquet needs pyarrow: {install_hint('parquet')}") from None
            except (AccordError, MemoryError):
                raise
            except Exception as exc:  # pyarrow's ArrowInvalid, OSError: a damaged or truncated file
                raise AccordError(f"{p}: cannot read as Parquet ({type(exc).__name__}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
            df.columns = [str(c) for c in df.columns]
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
    df.attrs["read"] = info
    return df, lines


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _jsonl(p: Path) -> tuple[pd.DataFrame, np.ndarray, bool, dict[str, int]]:
    """The records of a JSON-lines file, their line numbers, whether it began with a byte-order mark, and each key
    that a record gives twice (with the first such line: JSON keeps the last, silently)."""
    rows, lines_l = [], []
    bom = False
    repeated: dict[str, int] = {}
    twice: list[list[str]] = [[]]

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(items)
        # the outermost object is made last: what is left here after a line is its record's repeated keys
        twice[0] = [] if len(obj) == len(items) else [k for k in obj if sum(1 for x, _ in items if x == k) > 1]
        return obj

    decoder = json.JSONDecoder(object_pairs_hook=pairs)
    with p.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            if i == 1 and line.startswith("\ufeff"):
                bom, line = True, line[1:]
            if not line.strip():
                continue
            twice[0] = []
            obj = json_text(line, f"{p}, line {i}", decoder=decoder)
            if not isinstance(obj, dict):
                raise AccordError(f"{p}, line {i}: each line must be a JSON object")
            if _SURROGATE.search(line):  # an escaped half of a UTF-16 pair, alone: not a character
                try:
                    json.dumps(obj, ensure_ascii=False).encode("utf-8")
                except UnicodeEncodeError as exc:
                    raise AccordError(f"{p}, line {i}: a string holds a lone UTF-16 surrogate "
                                      f"({exc.object[exc.start]!r}), half of a pair: not a character; the file "
                                      "was damaged or cut in the middle of a character") from None
            for k in twice[0]:
                repeated.setdefault(str(k), i)
            rows.append(obj)
            lines_l.append(i)
    df = pd.DataFrame(rows)
    df.columns = [str(c) for c in df.columns]
    return df, np.asarray(lines_l), bom, repeated


def _one_file(path: str | os.PathLike[str]) -> Path:
    """*path*, or the one file the glob *path* matches (the rules of ``_shared.globs``, as on every engine)."""
    from accord._shared.globs import glob_files, is_glob

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


Layout = Literal["long", "wide", "counts"]
_LAYOUTS = ("long", "wide", "counts")


def read(
    path: str | os.PathLike[str],
    *,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
    layout: Layout | None = None,
    coders: Sequence[str] | None = None,
    format: FileFormat = "auto",
    duplicates: DuplicatePolicy = "error",
    sheet: str | int = 0,
    formulas: str = "refuse",
    sep: str | None = None,
) -> Annotations:
    """Read reliability data from CSV, TSV, JSONL, Parquet or a spreadsheet (.xlsx, .ods), or a folder of them.

    The columns and the layout not given are told from the file (:mod:`accord.data._columns`): the unit, coder
    and value columns by their names (``item``, ``annotator``, ``score``...: any case, any separator), long
    or wide by the content.  What was read is said on the result: ``read(...).read_as``
    (:class:`ReadAs`; ``str()`` of it is one sentence).  Whatever cannot be told apart is an
    error listing the columns and naming the arguments that settle it.

    Parameters
    ----------
    path : path-like
        The file, a glob that matches one file (``**`` as on every engine, see
        :func:`accord._shared.globs.expand`), or a folder of tables of one format with the same columns
        (read as one table; messages name each row's file and line).  The suffix chooses the format unless
        *format* is given; ``.txt`` is a text table.
    unit, coder, value : str, optional
        Column names; default: told from the names of the columns.  In the wide and counts layouts only
        *unit* is used.
    layout : {"long", "wide", "counts"}, optional
        ``"long"``: one row per (unit, coder, value).  ``"wide"``: one row per unit, one column per coder
        (the spreadsheet layout); an empty cell is a missing value.  ``"counts"``: one row per unit, one
        column per category, each cell the number of coders who chose it (see
        :meth:`Annotations.from_counts`; its coders are positions, not people).  Default: long when a column
        is named as the coder, wide when the first column holds one id per row and the others codes; a
        table of whole numbers of 0 or more is refused unless the layout is given, since it may be counts.
    coders : sequence of str, optional
        Wide layout: the coder columns; counts: the category columns (default: every column but *unit*).
    format : {"auto", "csv", "tsv", "jsonl", "parquet", "xlsx", "ods"}
    duplicates : {"error", "first", "last"}
        One coder giving two values to one unit: an error naming both lines
        (default), or keep the first or last.
    sheet : str or int
        Spreadsheets: the sheet to read, by name or 0-based index (default the
        first); ``.ods`` needs the ``accord[excel]`` extra (odfpy).
    formulas : {"refuse", "missing"}
        Spreadsheets: a formula cell that holds no computed value (what openpyxl and
        other writers that do not compute formulas save) is an error naming the
        sheet and cells (default), or, with ``"missing"``, a missing value.
    sep : str, optional
        Text tables: the delimiter (default: sniffed among comma, semicolon, tab and pipe).

    Returns
    -------
    Annotations
        With ``read_as`` saying the layout, the columns read and those left alone.

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
    >>> h = f.with_name("mine.csv")
    >>> _ = h.write_text("Item;Annotator;Score;comment\\nq1;ann;4;\\nq1;bob;5;sure\\n")
    >>> print(read(h).read_as)
    long: unit=Item, coder=Annotator, value=Score (1 column left alone: comment; separator semicolon)
    """
    from accord.data._columns import plan, refuse_repeated

    if layout is not None and layout not in _LAYOUTS:
        raise AccordError(f"layout must be one of long, wide, counts; got {layout!r}",
                          cli=f"--layout must be one of long, wide, counts; got {layout!r}")
    if Path(path).is_dir():
        df, lines, info, where = _folder(Path(path), format=format, sheet=sheet, formulas=formulas, sep=sep)
        path = Path(path)
    else:
        path = _one_file(path)
        df, lines = read_table(path, format=format, convert=False, sheet=sheet, formulas=formulas, sep=sep)
        info, where = df.attrs.get("read", {}), None
    fmt = _format_of(path, format) if not path.is_dir() else info.get("format", "csv")
    try:
        ra = plan(df, source=str(path), raw=info.get("raw", {}), unit=unit, coder=coder, value=value,
                  layout=layout, coders=coders)
    except RecursionError:
        raise AccordError(_TOO_DEEP.format(path)) from None
    twice = info.get("repeated_keys") or {}
    refuse_repeated(df, str(path), (("unit", ra.unit), ("coder", ra.coder), ("value", ra.value), *(
        ("column of a coder" if ra.layout == "wide" else "category", c) for c in ra.coders)), info=info)
    ra = replace(ra, repeated=(*ra.repeated, *twice), left_alone=tuple(c for c in ra.left_alone if c not in twice),
                 sep=info.get("sep"), default_sep=info.get("default_sep"),
                 bom=bool(info.get("bom")),
                 stripped=int(info.get("stripped", 0)), files=tuple(info.get("files", ())),
                 inferred=(*ra.inferred, *(("sep",) if info.get("inferred_sep") else ())))
    try:
        if ra.layout == "wide":
            data = _wide(df, lines, path, unit=ra.unit, cols=list(ra.coders))
        elif ra.layout == "counts":
            data = _counts(df, lines, path, unit=ra.unit, cols=list(ra.coders))
        else:
            data = _long(df, lines, path, fmt, ra, duplicates)
    except AccordError as exc:
        if where is None:
            raise
        raise _relocated(exc, str(path), where) from None
    object.__setattr__(data, "read_as", ra)
    return data


def _long(df: pd.DataFrame, lines: np.ndarray, path: Path, fmt: str, ra: ReadAs, duplicates: DuplicatePolicy
          ) -> Annotations:
    unit, coder, value = ra.unit, ra.coder, ra.value
    if fmt in ("csv", "tsv", "xlsx", "ods"):
        for col in dict.fromkeys((unit, coder, value)):
            if col in df.columns:
                try:
                    df[col] = _convert_column(df[col])
                except RecursionError:
                    raise AccordError(_TOO_DEEP.format(path)) from None
    if value in df.columns and df[value].dtype == object:
        try:
            df[value] = _parse_column(df[value])
        except RecursionError:
            raise AccordError(_TOO_DEEP.format(path)) from None
    return Annotations.from_records(
        df, unit=unit, coder=coder, value=value, duplicates=duplicates, source=str(path), row_numbers=lines
    )


def _wide(df: pd.DataFrame, lines: np.ndarray, path: Path, *, unit: str | None, cols: list[str]) -> Annotations:
    """One row per unit, one column per coder: melt to long, converting all coder columns as one."""
    if unit not in df.columns:
        raise AccordError(
            f"{path}: missing column {unit!r} (the unit column of the wide layout); columns are "
            f"{', '.join(map(repr, map(str, df.columns)))}"
        )
    missing = [c for c in cols if c not in df.columns]
    if missing:
        raise AccordError(
            f"{path}: missing coder column {missing[0]!r}; columns are {', '.join(map(repr, df.columns))}"
        )
    if len(cols) < 1:
        raise AccordError(f"{path}: the wide layout needs coder columns beside {unit!r}")
    _one_row_per_unit(df, lines, path, unit, "wide")
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


def _one_row_per_unit(df: pd.DataFrame, lines: np.ndarray, path: Path, unit: str, layout: str) -> None:
    dup = df[unit][df[unit].duplicated()]
    if len(dup):
        from accord._shared.names import shown

        first, second = np.flatnonzero(df[unit].to_numpy() == dup.iloc[0])[:2]
        # a text file's line numbers; a Parquet file or a sheet numbers its rows
        where = "rows" if Path(path).suffix.lower() in (".parquet", ".pq", ".xlsx", ".ods") else "lines"
        raise AccordError(
            f"{path}: unit {shown(dup.iloc[0])} has two rows ({where} {lines[first]} and {lines[second]}); the "
            f"{layout} layout needs one row per unit"
        )


def _counts(df: pd.DataFrame, lines: np.ndarray, path: Path, *, unit: str | None, cols: list[str]) -> Annotations:
    """One row per unit, one column per category, each cell a count: :meth:`Annotations.from_counts`."""
    if unit is not None and unit not in df.columns:
        raise AccordError(f"{path}: missing column {unit!r} (the unit column of the counts layout); columns are "
                          f"{', '.join(map(repr, map(str, df.columns)))}")
    if not cols:
        raise AccordError(f"{path}: the counts layout needs category columns beside {unit!r}")
    table = np.zeros((len(df), len(cols)), dtype=np.int64)
    for k, c in enumerate(cols):
        col = _convert_column(df[c].astype(object)) if df[c].dtype == object else df[c]
        for i, x in enumerate(col.tolist()):
            ok = isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) and x >= 0
            if not ok and isinstance(x, (float, np.floating)) and np.isfinite(x) and x >= 0 and float(x).is_integer():
                x, ok = int(x), True
            if not ok:
                shown = "an empty cell" if x is None or (isinstance(x, float) and x != x) else repr(_plain_cell(x))
                raise AccordError(f"{path}, line {lines[i]}, column {c!r}: a table of counts holds whole numbers of 0 "
                                  f"or more (write 0 for none); got {shown}")
            table[i, k] = int(x)
    numbers = [_number(str(c)) for c in cols]
    categories = numbers if all(n is not None for n in numbers) else list(cols)
    if unit is None:
        units: list[Any] = [int(x) for x in lines]
    else:
        _one_row_per_unit(df, lines, path, unit, "counts")
        units = (_convert_column(df[unit].astype(object)) if df[unit].dtype == object else df[unit]).tolist()
    data = Annotations.from_counts(table, categories=categories, units=units)
    return replace(data, source=str(path))


def _plain_cell(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


def _folder(folder: Path, *, format: FileFormat, sheet: str | int, formulas: str, sep: str | None
            ) -> tuple[pd.DataFrame, np.ndarray, dict[str, Any], list[tuple[str, int]]]:
    """The tables of *folder* (one format, the same columns) as one, with each row's (file, line)."""
    if not folder.exists():
        raise no_such_file(folder)
    files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    tables = [f for f in files if f.suffix.lower() in _SUFFIX or format != "auto"]
    if not tables:
        head = (f"{folder}: a folder with no table (.csv, .tsv, .txt, .jsonl, .parquet, .xlsx, .ods) in it; an "
                "annotation tool's export folder is read ")
        raise AccordError(head + "with accord.read_export", cli=head + "with --from (brat, argilla, inception...)")
    kinds: dict[str, list[Path]] = {}
    for f in tables:
        kinds.setdefault(_format_of(f, format), []).append(f)
    if len(kinds) > 1:
        said = ", ".join(f"{plural(len(v), k + ' file')}" for k, v in kinds.items())
        first = next(iter(kinds.values()))[0]
        raise AccordError(f"{folder}: the folder holds tables of several formats ({said}); a folder is read as "
                          f"one table of one format: move the others out, or read one file (accord agree {first})")
    frames, infos, where = [], [], []
    columns: list[str] | None = None
    for f in tables:
        df, lines = read_table(f, format=format, convert=False, sheet=sheet, formulas=formulas, sep=sep)
        info = df.attrs.get("read", {})
        if columns is None:
            columns, first_file = list(df.columns), f
        elif set(df.columns) != set(columns):
            raise AccordError(
                f"{folder}: the files do not have the same columns: {first_file.name} has "
                f"{', '.join(map(repr, columns))}; {f.name} has {', '.join(map(repr, map(str, df.columns)))}; a "
                f"folder is read as one table when every file has the same columns: make them so, or read the files "
                f"one by one (accord agree {first_file})")
        frames.append(df[columns])
        infos.append(info)
        where += [(f.name, int(x)) for x in lines]
    df = pd.concat(frames, ignore_index=True)
    lines = np.arange(len(df)) + 1
    first = infos[0]
    info = {**first, "bom": any(i.get("bom") for i in infos), "files": [f.name for f in tables],
            "format": _format_of(tables[0], format), "stripped": sum(i.get("stripped", 0) for i in infos)}
    return df, lines, info, where


def _relocated(exc: AccordError, folder: str, where: list[tuple[str, int]]) -> AccordError:
    """*exc* with the rows of a folder read as one table named by their file and line."""
    import re

    def fix(text: str) -> str:
        def at(m: re.Match[str]) -> str:
            k = int(m.group(2)) - 1
            if not 0 <= k < len(where):
                return m.group(0)
            name, line = where[k]
            return f"{name}, line {line}" if m.group(1) else f"{name}, line {line}"

        text = re.sub(re.escape(folder) + r", (line) (\d+)", lambda m: f"{folder}/{at(m)}", text)
        return re.sub(r"\((row) (\d+)\)", lambda m: f"({at(m)})", text)

    return AccordError(fix(str(exc)), cli=fix(exc.for_cli()))


def columns_of(
    path: str | os.PathLike[str], *, unit: str | None = None, coder: str | None = None, value: str | None = None,
    sep: str | None = None, rows: int = 2000,
) -> ReadAs:
    """The long layout's columns of a table too large to read whole (for the lazy engines), told from its first
    *rows* rows as :func:`read` tells them; a glob or folder by its first file.

    Returns
    -------
    ReadAs
    """
    from accord._shared.globs import expand
    from accord.data._columns import plan

    first = expand(path)[0]
    fmt = _format_of(first, "auto")
    info: dict[str, Any] = {}
    if fmt in ("csv", "tsv"):
        df, _, info = _text_table(first, fmt, _separator(sep), nrows=rows + 1)
    elif fmt == "parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise AccordError(f"reading Parquet needs pyarrow: {install_hint('parquet')}") from None
        try:
            batch = next(pq.ParquetFile(first).iter_batches(batch_size=rows), None)
        except Exception as exc:  # pyarrow's ArrowInvalid, OSError
            raise AccordError(f"{first}: cannot read as Parquet ({type(exc).__name__}: "
                              f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
        if batch is None:
            raise AccordError(f"{first}: no data rows")
        df = batch.to_pandas()
        df.columns = [str(c) for c in df.columns]
    else:
        df, _ = read_table(first, convert=False)
        info = df.attrs.get("read", {})
    ra = plan(df, source=str(path), raw=info.get("raw", {}), unit=unit, coder=coder, value=value, layout="long",
              coders=None)
    return replace(ra, sep=info.get("sep"), default_sep=info.get("default_sep"), bom=bool(info.get("bom")))
