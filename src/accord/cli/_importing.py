"""What the commands that read an annotation tool's export share: the importer options (one option group, for
``accord import``, ``agree``, ``alt-test``, ``spans`` and ``report``) and the long table.  Reading the export
and what it decides is the library's (:mod:`accord.importers._input`)."""

from __future__ import annotations

import csv
import inspect
import io
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from accord.cli._common import echo
from accord.cli._options import OptionGroup, with_options
from accord.importers._input import (
    PLAIN_TABLES,
    ImportOptions,
    describe_field,
    headed_table,
    parse_options,
    suggest,
)
from accord.importers._input import load_export as _load_export

__all__ = [
    "PLAIN_TABLES",
    "ImporterArgs",
    "describe_field",
    "headed_table",
    "importer_options",
    "load_export",
    "long_table_text",
    "parse_options",
    "suggest",
]

# ---------------------------------------------------------------------------------------------------------------
# The importer options: one block, added to a command by @importer_options (other shared options go beside it).
_IMPORTER_OPTIONS: dict[str, Any] = {
    "from_": Annotated[
        str | None,
        typer.Option("--from", help="The annotation tool that wrote the input: label-studio, prodigy, inception, "
                     "inception-agreement, doccano, brat, argilla, mturk, csv, spreadsheet (guessed for .json, "
                     ".zip, folders, JSON lines a tool wrote and tables with a tool's own header, such as an MTurk "
                     "batch or INCEpTION's agreement CSV; other plain tables are read as tables)."),
    ],
    "field": Annotated[
        str | None,
        typer.Option("--field", help="With an export: the control, question, answer, layer or column to read "
                     "(its short name or its column's); guessed when only one fits the command."),
    ],
    "sheet": Annotated[
        str | None, typer.Option("--sheet", help="Spreadsheets: the sheet, by name or 0-based index (default the "
                                 "first).")
    ],
    "offsets": Annotated[
        str | None,
        typer.Option("--offsets", help="doccano, Argilla: how span offsets count characters, utf16 (the browser's, "
                     "default) or codepoints."),
    ],
    "option": Annotated[
        list[str] | None,
        typer.Option("--option", help="With an export: an importer's option as NAME=VALUE (repeatable), e.g. "
                     "multiple=true, drafts=true, text_key=title, in_progress=skip; see docs/importers.md."),
    ],
}


class ImporterArgs(ImportOptions, OptionGroup):
    """The importer options a command was given (``--from``, ``--field``, ``--sheet``, ``--offsets``, ``--option``):
    the option group of every command that reads an export (:func:`accord.cli._options.with_options`)."""

    @classmethod
    def parameters(cls) -> list[inspect.Parameter]:
        return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ann)
                for name, ann in _IMPORTER_OPTIONS.items()]

    @classmethod
    def from_options(cls, values: dict[str, Any]) -> ImporterArgs:
        return cls(tool=values.get("from_"), field=values.get("field"), sheet=values.get("sheet"),
                   offsets=values.get("offsets"), option=tuple(values.get("option") or ()))


F = TypeVar("F", bound=Callable[..., Any])


def importer_options(func: F) -> F:
    """Give the command *func* the importer options (its parameter ``importer: ImporterArgs``):
    :func:`~accord.cli._options.with_options`."""
    return with_options(func)


def load_export(file: Path, importer: ImportOptions, **kwargs: Any) -> Any:
    """:func:`accord.importers._input.load_export`, its guesses said on stderr."""
    kwargs.setdefault("say", lambda line: echo(line, err=True))
    return _load_export(file, importer, **kwargs)


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
