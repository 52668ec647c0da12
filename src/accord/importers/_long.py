"""An import as accord's canonical long table (unit, coder, value; or spans), the text ``accord import`` writes.

:func:`long_table_text` writes the table of an import as CSV or TSV; :func:`write_long_table` reads an
annotation tool's export and writes that table to a file, refusing before any work to write over an input or
an existing file (without *force*).
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["long_table_text", "write_long_table"]


def write_long_table(export: Path, output: Path, importer: Any = None, *, layout: str | None = None,
                     unit: str | None = None, coder: str | None = None, force: bool = False, raw: bool = False,
                     say: Callable[[str], None] | None = None) -> Any:
    """Read *export* with its importer (*importer*, an :class:`~accord.importers._input.ImportOptions`; the tool
    guessed when none is named) and write its long table to *output* (CSV, or TSV by suffix); return the import.

    *layout*, *unit* and *coder* read a spreadsheet (None: the spreadsheet importer's long, unit and coder),
    and are refused for another tool's export; *raw* writes every cell as it is (no leading ``'`` before a
    cell a spreadsheet would run as a formula).
    """
    from accord._shared.output import check_output, write_output
    from accord.importers._input import ImportOptions, load_export

    check_output(output, force=force, inputs=[export])
    imported = load_export(export, importer or ImportOptions(), plain_fallback=False, say=say,
                           spreadsheet_options={k: v for k, v in (("layout", layout), ("unit", unit),
                                                                  ("coder", coder)) if v is not None})
    sep = "\t" if output.suffix.lower() in (".tsv", ".tab") else ","
    write_output(output, long_table_text(imported, sep=sep, raw=raw), force=force, inputs=[export])
    return imported


def _plain(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
    if isinstance(x, frozenset):  # a tie group of a ranking (a tuple of frozensets): a JSON list, sorted
        return sorted((_plain(v) for v in x), key=lambda v: json.dumps(v, ensure_ascii=False))
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):
        return x.item()
    return x


def _cell(x: Any) -> str:
    if x is None or type(x).__name__ == "NAType" or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, frozenset):
        items = [_plain(v) for v in x]
        return json.dumps(sorted(items, key=lambda v: json.dumps(v, ensure_ascii=False)), ensure_ascii=False)
    x = _plain(x)
    return json.dumps(x, ensure_ascii=False) if isinstance(x, list) else str(x)


def _field(text: str, sep: str) -> str:
    """*text* as :mod:`csv`'s writer writes it as one field of a row of several (quoted when it must be)."""
    if sep not in text and '"' not in text and "\n" not in text and "\r" not in text:
        return text
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\n").writerow([text, ""])
    return buf.getvalue()[:-2]  # less the empty second field's separator and the line end


def _coded(column: Any) -> tuple[Any, Any]:
    """``(table, codes)`` with ``table[codes]`` the cells of the pandas Series *column*, as its rows give them.

    Columns of strings or integers are coded by ``pandas.factorize`` (missing cells get the code -1, i.e. the
    table's last entry, one of them); any other column (floats, where 0.0 and -0.0 are one key; objects, where
    ``1 == 1.0 == True``) is its own table, so that every cell is written as itself.
    """
    import numpy as np
    import pandas as pd

    dtype = column.dtype
    if isinstance(dtype, pd.StringDtype) or dtype.kind in "iu" or (
        dtype.kind == "O" and pd.api.types.infer_dtype(column, skipna=True) in ("string", "empty")
    ):
        codes, uniques = pd.factorize(column)
        table = list(uniques)
        missing = np.flatnonzero(codes < 0)
        if len(missing):
            table.append(column.iloc[int(missing[0])])
        return table, codes
    return list(column), np.arange(len(column))


def long_table_text(imported: Any, *, sep: str = ",", raw: bool = False) -> str:
    """The canonical long table of an import as CSV (or TSV) text; sets as JSON lists.

    A cell a spreadsheet would run as a formula gets a leading ``'``
    (:func:`accord._shared.sanitize.csv_cell`) unless *raw*.

    What :mod:`csv`'s writer makes of ``imported.to_frame()`` row by row, each cell through :func:`_cell`; but
    :func:`_cell` and the quoting run once per distinct cell (an entry of a table of the
    :class:`~accord.Annotations`, or a column's distinct strings and integers), the cells are spread to the
    rows by numpy indexing and the rows joined in one pass, so that millions of rows take seconds.
    """
    import numpy as np
    import pandas as pd

    from accord._shared.sanitize import csv_cell, csv_row

    data = imported.annotations
    if imported.spans is None and data is not None:
        # the frame's columns are the tables indexed by the codes: each table cell is written once
        columns = ["unit", "coder", "value"]
        coded = [(t.tolist() if t.dtype.kind in "biufO" else list(pd.Series(t)), i) for t, i in
                 ((data.units, data.unit_index), (data.coders, data.coder_index), (data.values, data.value_index))]
    else:
        frame = imported.to_frame()
        columns = list(frame.columns)
        coded = [_coded(frame[c]) for c in columns]
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\n").writerow(csv_row(columns, raw=raw))
    n_rows = len(coded[0][1]) if coded else 0
    if not n_rows:
        return buf.getvalue()
    cells = []
    for table, codes in coded:
        texts = np.empty(len(table), dtype=object)
        texts[:] = [_field(_cell(x) if raw else csv_cell(_cell(x)), sep) for x in table]
        cells.append(texts[codes].tolist())
    if len(cells) == 1:  # one field alone on a row: csv quotes it when it is empty
        buf.writelines(f"{x or chr(34) * 2}\n" for x in cells[0])
        return buf.getvalue()
    buf.write("\n".join(map(sep.join, zip(*cells, strict=True))))
    buf.write("\n")
    return buf.getvalue()
