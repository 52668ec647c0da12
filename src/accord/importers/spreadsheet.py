"""Spreadsheets: ``.xlsx`` (Excel, Office Open XML) and ``.ods`` (OpenDocument) in accord's two layouts.

Formats followed: Office Open XML SpreadsheetML (ECMA-376, read through
openpyxl) and OpenDocument Spreadsheet 1.2 (OASIS, read through odfpy), with
pandas' ``read_excel`` (https://pandas.pydata.org/docs/reference/api/pandas.read_excel.html).
Both need the ``accord[excel]`` extra.  The first row of the sheet holds the
column names; the layouts are those of :func:`accord.read`:

long
    one row per (unit, coder, value); *field* (``--field``) names the value
    column (default ``value``);
wide
    one row per unit, one column per coder.

Cell states: in the long layout a row whose value cell is blank is *empty*
(the coder had the unit and gave nothing; ``[]`` is the empty set), a
(unit, coder) with no row is *unassigned*; in the wide layout a blank cell
cannot be told from a cell never assigned and is *unassigned*.  Spreadsheets
have no skip.  The sheet is chosen by name or 0-based index (``sheet=``,
``--sheet``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from accord.errors import AccordError
from accord.importers import Imported
from accord.importers.report import ImportReport

__all__ = ["read", "read_sheet", "sniff"]

TOOL = "spreadsheet"
_EXTRA = "reading spreadsheets needs the excel extra: pip install 'accord[excel]'"


def sniff(path: Path, head: str) -> bool:
    """An ``.xlsx`` / ``.xlsm`` / ``.ods`` file."""
    return path.is_file() and path.suffix.lower() in (".xlsx", ".xlsm", ".ods")


def _sheet_arg(sheet: str | int) -> str | int:
    """A sheet index given as text on the command line ("2") becomes the number."""
    if isinstance(sheet, str) and sheet.strip().isdigit():
        return int(sheet)
    return sheet


def read_sheet(path: str | Path, *, sheet: str | int = 0, engine: str | None = None) -> tuple[Any, np.ndarray]:
    """One sheet as a DataFrame of Python values (blank cells missing) and the row number of each row.

    Parameters
    ----------
    path : str or Path
        The ``.xlsx`` or ``.ods`` file.
    sheet : str or int
        The sheet's name, or its 0-based index.
    engine : {"openpyxl", "odf"}, optional
        Default from the suffix.

    Raises
    ------
    AccordError
        When the extra is not installed, the sheet does not exist (listing the
        sheets), or the sheet is empty.
    """
    import pandas as pd

    p = Path(path)
    if engine is None:
        engine = "odf" if p.suffix.lower() == ".ods" else "openpyxl"
    sheet = _sheet_arg(sheet)
    try:
        book = pd.ExcelFile(p, engine=engine)
    except ImportError:
        raise AccordError(_EXTRA) from None
    except Exception as exc:  # zipfile.BadZipFile, odf errors, ValueError: not a spreadsheet
        raise AccordError(f"{p}: cannot read as a spreadsheet ({type(exc).__name__}: {exc})") from None
    with book:
        names = list(book.sheet_names)
        if isinstance(sheet, int):
            if not 0 <= sheet < len(names):
                raise AccordError(f"{p}: --sheet {sheet} is out of range: the file has {len(names)} sheet(s) "
                                  f"({', '.join(map(repr, names))}; 0 is the first)")
            name = names[sheet]
        else:
            if sheet not in names:
                raise AccordError(f"{p}: no sheet named {sheet!r}; the sheets are {', '.join(map(repr, names))}")
            name = sheet
        df = pd.read_excel(book, sheet_name=name, dtype=object, keep_default_na=False, na_values=[""])
    df.columns = [str(c) for c in df.columns]
    lines = np.arange(len(df)) + 2  # header on row 1
    blank = df.isna().all(axis=1).to_numpy() if len(df.columns) else np.ones(len(df), dtype=bool)
    df, lines = df[~blank].reset_index(drop=True), lines[~blank]
    if len(df) == 0:
        raise AccordError(f"{p}: sheet {name!r} has no data rows")
    df = df.map(lambda x: x.item() if isinstance(x, np.generic) else x)
    df.attrs["sheet"] = name
    return df, lines


def read(
    path: str | Path,
    *,
    field: str | None = None,
    sheet: str | int = 0,
    layout: str = "long",
    unit: str = "unit",
    coder: str = "coder",
    coders: list[str] | None = None,
    kind: str | None = None,
) -> Imported:
    """Read a spreadsheet in the long or wide layout, with the report of cell states.

    Parameters
    ----------
    path : str or Path
        ``.xlsx`` or ``.ods``.
    field : str, optional
        Long layout: the value column (default ``value``).
    sheet : str or int
        The sheet's name or 0-based index (default the first).
    layout : {"long", "wide"}
    unit, coder : str
        Column names (the wide layout uses *unit* only).
    coders : list of str, optional
        Wide layout: the coder columns (default all but *unit*).
    kind : {"nominal", "set", "ordinal", "interval"}, optional
        What the values are (it chooses the default distance); default ``set``
        when every value is a set, else ``nominal``.

    Returns
    -------
    Imported

    Examples
    --------
    >>> import tempfile, pathlib, pandas as pd
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "labels.xlsx"
    >>> pd.DataFrame({"item": ["q1", "q2"], "ann1": ["yes", "no"], "ann2": ["yes", None]}).to_excel(
    ...     f, sheet_name="round 1", index=False)
    >>> imp = read(f, sheet="round 1", layout="wide", unit="item")
    >>> imp.report.counts["ann2"]
    {'annotated': 1, 'empty': 0, 'skipped': 0, 'unassigned': 1}
    """
    from accord.io import _convert_column
    from accord.io import read as read_annotations

    path = Path(path)
    if layout not in ("long", "wide"):
        raise AccordError(f"layout must be 'long' or 'wide'; got {layout!r}")
    if kind is not None and kind not in ("nominal", "set", "ordinal", "interval"):
        raise AccordError(f"kind must be one of nominal, set, ordinal, interval; got {kind!r}")
    if layout == "wide" and field is not None:
        raise AccordError("--field names the value column of the long layout; the wide layout has one column per "
                          "coder (use --coders)")
    value = field or "value"
    fmt = "ods" if path.suffix.lower() == ".ods" else "xlsx"
    data = read_annotations(path, unit=unit, coder=coder, value=value, layout=layout,  # type: ignore[arg-type]
                            coders=coders, format=fmt, sheet=sheet)  # type: ignore[arg-type]
    # the states: from the interned data, plus the long layout's blank value cells
    units = data.units[data.unit_index]
    coders_of = data.coders[data.coder_index]
    vals = data.values[data.value_index]
    cells = [(_py(u), str(c), "empty" if v == frozenset() else "annotated")
             for u, c, v in zip(units, coders_of, vals, strict=True)]
    df, _ = read_sheet(path, sheet=sheet)
    name = df.attrs["sheet"]
    items = [_py(u) for u in data.units]
    if unit in df.columns:
        unit_col = _convert_column(df[unit].astype(object))
        items += [_py(u) for u in unit_col]
        if layout == "long" and value in df.columns and coder in df.columns:
            known = {(u, c) for u, c, _ in cells}
            for u, c in zip(unit_col[df[value].isna()], df[coder][df[value].isna()], strict=True):
                if (_py(u), str(c)) not in known:
                    cells.append((_py(u), str(c), "empty"))
                    known.add((_py(u), str(c)))
    all_coders = [str(c) for c in data.coders]
    if kind is None:
        kind = "set" if data.is_set_valued else "nominal"
    report = ImportReport.from_cells(
        TOOL, str(path), items=items, cells=cells, coders=all_coders,
        notes=(f"sheet {name!r}, {layout} layout; values read as {kind} (pass kind= or --distance to change)",),
    )
    return Imported(tool=TOOL, field=value if layout == "long" else None, kind=kind,  # type: ignore[arg-type]
                    annotations=data, spans=None, report=report)


def _py(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x
