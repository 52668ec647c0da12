"""One sheet of an ``.xlsx`` or ``.ods`` file as a table: what :func:`accord.read` and the spreadsheet importer
(:mod:`accord.importers._spreadsheet`, which describes the formats and the formula cells) both read.

In the reading layer, below ``data._read``: the zip checks come first (``_shared.zips``), then pandas'
``read_excel`` through openpyxl or odfpy, then the header row by ``data._cells``' rule.
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, install_hint, plural
from accord._shared.zips import ZipArchive, check_zip_container
from accord.data._cells import _header

__all__ = ["FORMULAS", "read_sheet", "uncached_formulas"]

_TOOL = "spreadsheet"  # the name errors give (the importer's)
_EXTRA = "reading .ods spreadsheets needs the excel extra (odfpy): " + install_hint("excel")
FORMULAS = ("refuse", "missing")
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_OFFREL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_HAS_FORMULA = re.compile(rb"<(?:\w+:)?f[\s/>]|table:formula=")


def _sheet_arg(sheet: str | int) -> str | int:
    """A sheet index given as text on the command line ("2") becomes the number."""
    if isinstance(sheet, str) and sheet.strip().isdigit():
        return int(sheet)
    return sheet


def _column_letters(n: int) -> str:
    out = ""
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(65 + r) + out
    return out


def _column_number(ref: str) -> tuple[int, int]:
    """``"C12"`` -> ``(3, 12)`` (1-based column, row)."""
    m = re.fullmatch(r"([A-Z]+)(\d+)", ref)
    if m is None:
        return 0, 0
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 64
    return col, int(m.group(2))


def _mentions_formulas(z: ZipArchive, part: str) -> bool:
    """Whether the part's XML has a formula at all (a byte search, cheaper than parsing)."""
    tail = b""
    with z.open(part) as fh:
        while chunk := fh.read(2**20):
            if _HAS_FORMULA.search(tail + chunk):
                return True
            tail = chunk[-32:]
    return False


def _xlsx_sheet_part(z: ZipArchive, name: str) -> str | None:
    """The zip member holding the worksheet *name* (from ``xl/workbook.xml`` and its relationships)."""
    from defusedxml import ElementTree

    names = set(z.names())
    if "xl/workbook.xml" not in names or "xl/_rels/workbook.xml.rels" not in names:
        return None
    book = ElementTree.fromstring(z.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
    rid = next((s.get(f"{_OFFREL}id") for s in book.iter(f"{_MAIN}sheet") if s.get("name") == name), None)
    target = next((r.get("Target") for r in rels.iter(f"{_RELS}Relationship") if r.get("Id") == rid), None)
    if not target:
        return None
    part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    return part if part in names else None


def uncached_formulas(path: Path, sheet: str, engine: str) -> list[tuple[int, int]]:
    """``(row, column)`` (1-based) of each formula cell of *sheet* that holds no computed value."""
    from defusedxml import ElementTree

    out: list[tuple[int, int]] = []
    with ZipArchive(_TOOL, path) as z:
        if engine == "odf":
            if "content.xml" not in z.names() or not _mentions_formulas(z, "content.xml"):
                return out
            inside, row, col = False, 0, 0
            with z.open("content.xml") as fh:
                for event, el in ElementTree.iterparse(fh, events=("start", "end")):
                    tag = el.tag
                    if tag == f"{_TABLE}table":
                        inside = event == "start" and el.get(f"{_TABLE}name") == sheet
                        if event == "end" and el.get(f"{_TABLE}name") == sheet:
                            break
                    elif not inside:
                        if event == "end":
                            el.clear()
                    elif tag == f"{_TABLE}table-row":
                        if event == "start":
                            row, col = row + 1, 0
                        else:
                            row += int(el.get(f"{_TABLE}number-rows-repeated", "1")) - 1
                            el.clear()
                    elif tag in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell") and event == "end":
                        repeat = int(el.get(f"{_TABLE}number-columns-repeated", "1"))
                        if el.get(f"{_TABLE}formula") is not None and el.get(f"{_OFFICE}value-type") is None:
                            out.extend((row, col + k + 1) for k in range(min(repeat, 1000)))
                        col += repeat
            return out
        part = _xlsx_sheet_part(z, sheet)
        if part is None or not _mentions_formulas(z, part):
            return out
        with z.open(part) as fh:
            for _, el in ElementTree.iterparse(fh, events=("end",)):
                if el.tag != f"{_MAIN}c":
                    if el.tag == f"{_MAIN}row":
                        el.clear()
                    continue
                if el.find(f"{_MAIN}f") is not None:
                    v = el.find(f"{_MAIN}v")
                    # an empty <v> is the empty text only in a cell of type str; openpyxl writes <v/> for "not computed"
                    if v is None or (not v.text and el.get("t") != "str"):
                        col, row = _column_number(el.get("r", ""))
                        out.append((row, col))
    return out


#: Cells a sheet may span beyond twenty per cell it writes: past this, the readers would fill in empty cells by the
#: million (a row numbered 30,000,000, a cell repeated a billion times), a hang on a file of a few kilobytes.
_MAX_PADDED = 1_000_000


def _count(text: str | None, default: int = 1) -> int:
    try:
        return int(text) if text else default
    except ValueError:  # left for the reader's own error
        return default


def _extent(z: ZipArchive, sheet: str, engine: str) -> tuple[int, int, int]:
    """The rows and columns *sheet* spans as the readers lay it out (row and cell numbers, repeats), and the cell
    elements its XML holds."""
    from defusedxml import ElementTree

    rows = cols = elements = 0
    if engine == "odf":
        if "content.xml" not in z.names():
            return 0, 0, 0
        inside, pos = False, 0
        with z.open("content.xml") as fh:
            for event, el in ElementTree.iterparse(fh, events=("start", "end")):
                tag = el.tag
                if tag == f"{_TABLE}table":
                    if el.get(f"{_TABLE}name") == sheet:
                        inside = event == "start"
                        if not inside:
                            break
                elif not inside:
                    if event == "end":
                        el.clear()
                elif tag == f"{_TABLE}table-row" and event == "end":
                    col = filled = 0
                    for cell in el:
                        if cell.tag in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                            elements += 1
                            col += _count(cell.get(f"{_TABLE}number-columns-repeated"))
                            if cell.get(f"{_OFFICE}value-type") is not None or len(cell):
                                filled = col
                    repeat = _count(el.get(f"{_TABLE}number-rows-repeated"))
                    if filled:
                        rows, cols = pos + repeat, max(cols, filled)
                    pos += repeat
                    el.clear()
        return rows, cols, elements
    part = _xlsx_sheet_part(z, sheet)
    if part is None:
        return 0, 0, 0
    row = col = 0
    with z.open(part) as fh:
        for event, el in ElementTree.iterparse(fh, events=("start", "end")):
            tag = el.tag.rpartition("}")[2]
            if event == "end":
                if tag == "row":
                    el.clear()
                continue
            if tag == "row":
                row, col = _count(el.get("r"), row + 1), 0
                rows = max(rows, row)
            elif tag == "c":
                elements += 1
                ref = el.get("r")
                try:
                    c, r = _column_number(ref) if ref else (col + 1, row)
                except ValueError:
                    c, r = col + 1, row
                col = c
                rows, cols = max(rows, r), max(cols, c)
    return rows, cols, elements


def _big(n: int) -> str:
    return f"{n:,}" if n < 10**15 else "more than 10^15"


def _check_extent(path: Path, sheet: str, engine: str) -> None:
    """Refuse a sheet that spans far more cells than it writes (see :data:`_MAX_PADDED`), before it is read."""
    with ZipArchive(_TOOL, path) as z:
        try:
            rows, cols, elements = _extent(z, sheet, engine)
        except AccordError:
            raise
        except Exception:  # malformed XML: the reader's own error names it
            return
    if rows * cols > max(_MAX_PADDED, 20 * elements):
        raise AccordError(f"{path}: sheet {sheet!r} spans {_big(rows)} rows by {_big(cols)} columns but writes only "
                          f"{plural(elements, 'cell')}: reading it would fill in that many empty cells (a row or "
                          "cell numbered far past the others, or repeated far more often than a sheet holds); is the "
                          "file damaged? Delete the empty rows and columns and save it again")


def _check_parsed(path: Path, said: io.StringIO) -> None:
    """Refuse a spreadsheet whose XML odfpy could not parse (it says so on stdout and reads on, in part)."""
    text = said.getvalue()
    if "SAX FAILED TO PARSE" in text:
        raise AccordError(f"{path}: cannot read as a spreadsheet: its XML is damaged (a part of the file cannot be "
                          "parsed, so only some rows would be read); open and save it again, or export it as .xlsx "
                          "or CSV")


def _refs(cells: list[tuple[int, int]]) -> str:
    shown = ", ".join(f"{_column_letters(c)}{r}" for r, c in cells[:8])
    return shown + (f" and {len(cells) - 8} more" if len(cells) > 8 else "")


def read_sheet(path: str | Path, *, sheet: str | int = 0, engine: str | None = None,
               formulas: str = "refuse") -> tuple[Any, np.ndarray]:
    """One sheet as a DataFrame of Python values (blank cells missing) and the row number of each row.

    Parameters
    ----------
    path : str or Path
        The ``.xlsx`` or ``.ods`` file.
    sheet : str or int
        The sheet's name, or its 0-based index.
    engine : {"openpyxl", "odf"}, optional
        Default from the suffix.
    formulas : {"refuse", "missing"}
        A formula cell that holds no computed value (see the module's description): an error naming the
        cells (default), or read as missing (the cells are in ``df.attrs["uncached"]``).

    Raises
    ------
    AccordError
        When the extra is not installed, the file is not a readable spreadsheet (a damaged zip, members past
        the limits of :class:`accord._shared.zips.ZipArchive`, malformed XML), the sheet does not exist
        (listing the sheets), the sheet is empty, or formulas hold no value.
    """
    import pandas as pd

    p = Path(path)
    if formulas not in FORMULAS:
        raise AccordError(f"formulas must be one of {', '.join(FORMULAS)}; got {formulas!r}")
    if engine is None:
        engine = "odf" if p.suffix.lower() == ".ods" else "openpyxl"
    sheet = _sheet_arg(sheet)
    if zipfile.is_zipfile(p):  # openpyxl and odfpy inflate whole members: the sizes are checked first
        check_zip_container(_TOOL, p)
    said = io.StringIO()
    # odfpy prints a part it cannot parse (a damaged content.xml) on stdout, whole, and reads on: nothing of it may
    # reach stdout (it would break --json), and what it says makes the file unreadable
    with contextlib.redirect_stdout(said):
        try:
            book = pd.ExcelFile(p, engine=engine)
        except ImportError:
            raise AccordError(_EXTRA if engine == "odf" else
                              "reading .xlsx spreadsheets needs openpyxl: " + install_hint("excel")) from None
        except Exception as exc:  # zipfile.BadZipFile, odf errors, ValueError, XML ParseError: not a spreadsheet
            raise AccordError(f"{p}: cannot read as a spreadsheet ({type(exc).__name__}: "
                              f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
        with book:
            _check_parsed(p, said)
            names = list(book.sheet_names)
            if isinstance(sheet, int):
                if not 0 <= sheet < len(names):
                    tail = (f" {sheet} is out of range: the file has {plural(len(names), 'sheet')} "
                            f"({', '.join(map(repr, names))}; 0 is the first)")
                    raise AccordError(f"{p}: sheet{tail}", cli=f"{p}: --sheet{tail}")
                name = names[sheet]
            else:
                if sheet not in names:
                    raise AccordError(f"{p}: no sheet named {sheet!r}; the sheets are {', '.join(map(repr, names))}")
                name = sheet
            if zipfile.is_zipfile(p):
                _check_extent(p, name, engine)
            try:
                df = pd.read_excel(book, sheet_name=name, header=None, dtype=object, keep_default_na=False,
                                   na_values=[""])
            except Exception as exc:  # malformed sheet XML, a value openpyxl / odfpy cannot convert
                raise AccordError(f"{p}: cannot read sheet {name!r} ({type(exc).__name__}: "
                                  f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
            _check_parsed(p, said)
    try:
        uncached = uncached_formulas(p, name, engine)
    except AccordError:
        raise
    except Exception as exc:  # defusedxml refusing entities, malformed XML
        raise AccordError(f"{p}: cannot read sheet {name!r} ({type(exc).__name__}: "
                          f"{str(exc).splitlines()[0] if str(exc) else ''})") from None
    if uncached and formulas == "refuse":
        head = (f"{p}: sheet {name!r}: {plural(len(uncached), 'formula cell holds', 'formula cells hold')} no "
                f"computed value ({_refs(uncached)}); the file was saved by a program that does not compute formulas "
                "(openpyxl, a script): open and save it in Excel or LibreOffice, or read them as missing with ")
        raise AccordError(head + "formulas='missing'", cli=head + "--from spreadsheet --option formulas=missing")
    if len(df) == 0:
        raise AccordError(f"{p}: sheet {name!r} has no data rows")
    columns, raw, stripped = _header([x.item() if isinstance(x, np.generic) else x for x in df.iloc[0].tolist()])
    df = df.iloc[1:].reset_index(drop=True)
    df.columns = columns
    lines = np.arange(len(df)) + 2  # header on row 1
    blank = df.isna().all(axis=1).to_numpy() if len(df.columns) else np.ones(len(df), dtype=bool)
    df, lines = df[~blank].reset_index(drop=True), lines[~blank]
    if len(df) == 0:
        raise AccordError(f"{p}: sheet {name!r} has no data rows")
    df = df.map(lambda x: x.item() if isinstance(x, np.generic) else x)
    df.attrs["sheet"] = name
    df.attrs["raw"], df.attrs["stripped"] = raw, stripped  # each column's name in the header; names stripped
    # (line, column name, cell reference) of each formula cell read as missing
    df.attrs["uncached"] = [(r, str(df.columns[c - 1]) if 0 < c <= len(df.columns) else None,
                             f"{_column_letters(c)}{r}") for r, c in uncached]
    return df, lines
