"""What ``accord import`` and ``accord agree --from`` share: reading a tool's export, writing the long table."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import typer

from accord.errors import AccordError

__all__ = ["PLAIN_TABLES", "headed_table", "load_export", "long_table_text", "parse_options"]

#: Suffixes ``accord agree`` reads as a plain table when no ``--from`` is given.
PLAIN_TABLES = (".csv", ".tsv", ".tab", ".parquet", ".pq", ".xlsx", ".xlsm", ".ods")
_JSONL = (".jsonl", ".ndjson", ".jsonlines")
#: Tools whose export is a plain table with a header no plain table has: ``accord agree`` guesses them
#: instead of reading the file as a plain table (which would take ``<no annotation>`` for a label).
_HEADED_TABLES = ("inception-agreement",)


def load_export(
    file: Path,
    *,
    tool: str | None,
    field: str | None,
    sheet: str | None,
    plain_fallback: bool,
    spreadsheet_options: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    extra: list[str] | None = None,
) -> Any:
    """Read *file* with the importer of *tool* (guessed when None, the guess said on stderr).

    With *plain_fallback* (``accord agree``), a file with no ``--from`` that is a
    plain table (a :data:`PLAIN_TABLES` suffix whose header no tool of
    :data:`_HEADED_TABLES` has, or JSON lines no importer recognises) returns
    None: the caller reads it with :func:`accord.read`, as before ``--from`` existed.
    """
    from accord.importers import guess_tool, read_export

    if tool is None:
        suffix = file.suffix.lower()
        if plain_fallback and file.is_file() and suffix in PLAIN_TABLES:
            tool = headed_table(file)
            if tool is None:
                return None
        if not file.exists():
            raise AccordError(f"{file}: no such file or folder")
        if tool is None and plain_fallback and file.is_file() and suffix in _JSONL:
            try:
                tool = guess_tool(file)
            except AccordError:
                return None
        elif tool is None:
            tool = guess_tool(file)
        typer.echo(f"accord: reading {file} with --from {tool} (guessed from the file; pass --from to choose)",
                   err=True)
    options = dict(options or {})
    if "offsets" in options and tool not in ("doccano", "argilla"):
        raise AccordError(f"--offsets applies to doccano and argilla exports; got --from {tool}")
    if sheet is not None:
        if tool != "spreadsheet":
            raise AccordError(f"--sheet applies to spreadsheets (--from spreadsheet); got --from {tool}")
        options["sheet"] = sheet
    if tool == "spreadsheet" and spreadsheet_options:
        options.update(spreadsheet_options)
    if extra:
        options.update(parse_options(extra, tool))
    return read_export(file, tool=tool, field=field, **options)


def headed_table(file: Path) -> str | None:
    """The tool of :data:`_HEADED_TABLES` whose header the plain-table file *file* has, or None."""
    import importlib

    from accord.importers import TOOLS

    if not file.is_file() or file.suffix.lower() not in PLAIN_TABLES:
        return None
    with open(file, "rb") as fh:
        head = fh.read(4096).decode("utf-8", errors="replace")
    for tool in _HEADED_TABLES:
        if importlib.import_module(f"accord.importers.{TOOLS[tool]}").sniff(file, head):
            return tool
    return None


def parse_options(pairs: list[str], tool: str) -> dict[str, Any]:
    """``--option NAME=VALUE`` pairs for the importer of *tool*, checked against its ``read`` signature.

    VALUE is read as JSON when it is JSON (``true``, ``3``, ``"x"``), else kept as text.
    """
    import importlib
    import inspect

    from accord.importers import TOOLS

    if tool not in TOOLS:
        raise AccordError(f"--from must be one of {', '.join(TOOLS)}; got {tool!r}")
    try:
        read = importlib.import_module(f"accord.importers.{TOOLS[tool]}").read
    except ModuleNotFoundError:
        raise AccordError(f"the {tool} importer is not available in this version of accord") from None
    allowed = [n for n, p in inspect.signature(read).parameters.items()
               if p.kind is inspect.Parameter.KEYWORD_ONLY and n != "field"]
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise AccordError(f"--option must be NAME=VALUE; got {pair!r}")
        if name not in allowed:
            raise AccordError(f"--option {name}: the {tool} importer's options are {', '.join(allowed) or 'none'}")
        try:
            out[name] = json.loads(raw)
        except json.JSONDecodeError:
            out[name] = raw
    return out


def _plain(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_plain(v) for v in x]
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
    return str(x)


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


def long_table_text(imported: Any, *, sep: str = ",") -> str:
    """The canonical long table of an import as CSV (or TSV) text; sets as JSON lists.

    What :mod:`csv`'s writer makes of ``imported.to_frame()`` row by row, each cell through :func:`_cell`; but
    :func:`_cell` and the quoting run once per distinct cell (an entry of a table of the
    :class:`~accord.data.Annotations`, or a column's distinct strings and integers), the cells are spread to the
    rows by numpy indexing and the rows joined in one pass, so that millions of rows take seconds.
    """
    import numpy as np
    import pandas as pd

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
    csv.writer(buf, delimiter=sep, lineterminator="\n").writerow(columns)
    n_rows = len(coded[0][1]) if coded else 0
    if not n_rows:
        return buf.getvalue()
    cells = []
    for table, codes in coded:
        texts = np.empty(len(table), dtype=object)
        texts[:] = [_field(_cell(x), sep) for x in table]
        cells.append(texts[codes].tolist())
    if len(cells) == 1:  # one field alone on a row: csv quotes it when it is empty
        buf.writelines(f"{x or chr(34) * 2}\n" for x in cells[0])
        return buf.getvalue()
    buf.write("\n".join(map(sep.join, zip(*cells, strict=True))))
    buf.write("\n")
    return buf.getvalue()
