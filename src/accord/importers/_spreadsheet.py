"""Spreadsheets: ``.xlsx`` (Excel, Office Open XML) and ``.ods`` (OpenDocument) in accord's two layouts.

Formats followed: Office Open XML SpreadsheetML (ECMA-376, read through
openpyxl) and OpenDocument Spreadsheet 1.2 (OASIS, read through odfpy), with
pandas' ``read_excel`` (https://pandas.pydata.org/docs/reference/api/pandas.read_excel.html).
``.xlsx`` reads in the base install (openpyxl); ``.ods`` needs the ``accord[excel]``
extra (odfpy).  The first row of the sheet holds the
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

Formulas.  A spreadsheet keeps beside each formula the value it last computed; programs that write
workbooks without computing them (openpyxl, most scripts) leave that value out (``<f>`` with an empty or
no ``<v>`` in SpreadsheetML, ECMA-376 Part 1 section 18.3.1.4; ``table:formula`` without
``office:value-type`` in OpenDocument 1.2 section 19.642).  Such a cell would read as blank, that is as
"seen, nothing chosen"; it is refused (``formulas="refuse"``, the default: the error names the sheet and
the cells) unless ``formulas="missing"`` reads it as missing (the cell is *unassigned*, not *empty*, and
a note names the cells).  Opening and saving the file in Excel or LibreOffice stores the values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, Message, plural, words
from accord.data._sheets import read_sheet
from accord.importers import Imported
from accord.importers._report import ImportReport

__all__ = ["read", "read_sheet", "sniff"]

TOOL = "spreadsheet"


def sniff(path: Path, head: str) -> bool:
    """An ``.xlsx`` / ``.xlsm`` / ``.ods`` file."""
    return path.is_file() and path.suffix.lower() in (".xlsx", ".xlsm", ".ods")


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
    formulas: str = "refuse",
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
    formulas : {"refuse", "missing"}
        A formula cell that holds no computed value: an error naming the cells (default), or read as
        missing (*unassigned*, not *empty*), counted in a note naming the cells.

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
    from accord.data._cells import _convert_column
    from accord.data._read import read as read_annotations

    path = Path(path)
    if layout not in ("long", "wide"):
        raise AccordError(f"layout must be 'long' or 'wide'; got {layout!r}")
    if kind is not None and kind not in ("nominal", "set", "ordinal", "interval"):
        raise AccordError(f"kind must be one of nominal, set, ordinal, interval; got {kind!r}")
    if layout == "wide" and field is not None:
        raise AccordError("field names the value column of the long layout; the wide layout has one column per "
                          "coder (use coders=)", cli="--field names the value column of the long layout; the wide "
                          "layout has one column per coder (use --coders)")
    value = field or "value"
    fmt = "ods" if path.suffix.lower() == ".ods" else "xlsx"
    data = read_annotations(path, unit=unit, coder=coder, value=value, layout=layout,  # type: ignore[arg-type]
                            coders=coders, format=fmt, sheet=sheet, formulas=formulas)  # type: ignore[arg-type]
    # the states: from the interned data, plus the long layout's blank value cells
    units = data.units[data.unit_index]
    coders_of = data.coders[data.coder_index]
    vals = data.values[data.value_index]
    cells = [(_py(u), str(c), "empty" if v == frozenset() else "annotated")
             for u, c, v in zip(units, coders_of, vals, strict=True)]
    df, lines = read_sheet(path, sheet=sheet, formulas=formulas)
    name = df.attrs["sheet"]
    uncached = df.attrs["uncached"]
    unknown = np.zeros(len(df), dtype=bool)  # long layout: rows whose value is a formula with no computed value
    if layout == "long" and value in df.columns:
        unknown = np.isin(lines, [r for r, col, _ in uncached if col == value])
    items = [_py(u) for u in data.units]
    if unit in df.columns:
        unit_col = _convert_column(df[unit].astype(object))
        items += [_py(u) for u in unit_col]
        if layout == "long" and value in df.columns and coder in df.columns:
            known = {(u, c) for u, c, _ in cells}
            blank = df[value].isna().to_numpy() & ~unknown
            for u, c in zip(unit_col[blank], df[coder][blank], strict=True):
                if (_py(u), str(c)) not in known:
                    cells.append((_py(u), str(c), "empty"))
                    known.add((_py(u), str(c)))
    all_coders = [str(c) for c in data.coders]
    if unknown.any() and coder in df.columns:  # an annotator whose only value is an uncomputed formula is one
        all_coders += sorted({str(c) for c in df[coder][unknown]} - set(all_coders))
    if kind is None:
        kind = "set" if data.is_set_valued else "nominal"
    said = f"sheet {name!r}, {layout} layout; values read as {kind} (pass "
    notes = [Message(f"{said}kind= to change)", cli=f"{said}--distance to change)")]
    if uncached:
        refs = [ref for _, _, ref in uncached]
        notes.append(words(f"{plural(len(refs), 'formula cell')} of sheet {name!r} with no computed value read as "
                           "missing (", Message("formulas='missing'", cli="--option formulas=missing"),
                           f"; a value cell counts as unassigned): {', '.join(refs[:8])}"
                           + (f" and {len(refs) - 8} more" if len(refs) > 8 else "")))
    report = ImportReport.from_cells(TOOL, str(path), items=items, cells=cells, coders=all_coders, notes=notes)
    return Imported(tool=TOOL, field=value if layout == "long" else None, kind=kind,  # type: ignore[arg-type]
                    annotations=data, spans=None, report=report)


def _py(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x
