"""What the commands that read an annotation tool's export share: the importer options (one definition, for
``accord import``, ``agree``, ``spans`` and ``report``), reading the export, suggested commands, the long table."""

from __future__ import annotations

import csv
import functools
import inspect
import io
import json
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from accord._shared.errors import AccordError, choice_error, for_cli, no_such_file
from accord.cli._common import echo

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

#: Suffixes ``accord agree`` reads as a plain table when no ``--from`` is given (``.xls`` to refuse it with what to
#: do, in :func:`accord.read`).
PLAIN_TABLES = (".csv", ".tsv", ".tab", ".txt", ".parquet", ".pq", ".xlsx", ".xlsm", ".ods", ".xls")
_JSONL = (".jsonl", ".ndjson", ".jsonlines")
#: Tools whose export is a plain table with a header no plain table has: ``accord agree`` guesses them
#: instead of reading the file as a plain table (which would take ``<no annotation>`` for a label, or an MTurk
#: batch's ``HITId`` column for nothing).
_HEADED_TABLES = ("inception-agreement", "mturk")

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


@dataclass(frozen=True)
class ImporterArgs:
    """The importer options a command was given (``--from``, ``--field``, ``--sheet``, ``--offsets``, ``--option``)."""

    tool: str | None = None
    field: str | None = None
    sheet: str | None = None
    offsets: str | None = None
    option: tuple[str, ...] = ()

    def given(self) -> list[str]:
        """The options given that only an export uses (all but ``--from``), as flags."""
        return [flag for flag, v in (("--field", self.field), ("--sheet", self.sheet), ("--offsets", self.offsets),
                                     ("--option", self.option)) if v]

    def flags(self, *, tool: str | None = None, field: str | None = None) -> list[str]:
        """The options as the user gave them, for a suggested command (*tool* and *field* when the user gave
        none: what the import read)."""
        out: list[str] = []
        for flag, v in (("--from", self.tool or tool), ("--field", self.field or field), ("--sheet", self.sheet),
                        ("--offsets", self.offsets)):
            if v:
                out += [flag, v]
        for pair in self.option:
            out += ["--option", pair]
        return out


F = TypeVar("F", bound=Callable[..., Any])


def importer_options(func: F) -> F:
    """Give the command *func* the importer options; it receives them as ``importer`` (an :class:`ImporterArgs`).

    The options are appended to the command's own (its signature is rewritten for Typer), so every command
    that reads an export offers the same options with the same help, defined once here.
    """
    sig = inspect.signature(func, eval_str=True)
    own = [p for name, p in sig.parameters.items() if name != "importer"]
    extra = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ann)
             for name, ann in _IMPORTER_OPTIONS.items()]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        values = {name: kwargs.pop(name, None) for name in _IMPORTER_OPTIONS}
        importer = ImporterArgs(tool=values["from_"], field=values["field"], sheet=values["sheet"],
                                offsets=values["offsets"], option=tuple(values["option"] or ()))
        return func(*args, importer=importer, **kwargs)

    wrapper.__signature__ = sig.replace(parameters=[*own, *extra])  # type: ignore[attr-defined]
    wrapper.__annotations__ = {**{p.name: p.annotation for p in own}, **_IMPORTER_OPTIONS,
                               "return": sig.return_annotation}
    del wrapper.__wrapped__  # Typer reads the signature above, not the wrapped function's
    return wrapper  # type: ignore[return-value]


def suggest(command: str, file: Path, importer: ImporterArgs, *, tool: str | None = None,
            field: str | None = None) -> str:
    """A command to run instead, keeping every importer option the user gave (quoted for the shell)."""
    return shlex.join(["accord", command, str(file), *importer.flags(tool=tool, field=field)])


def describe_field(imported: Any) -> str:
    """What an import read, for a message: ``spans of field 'ner'``, ``nominal values`` (never "None")."""
    what = "spans" if imported.kind == "spans" else f"{imported.kind} values"
    return what if imported.field is None else f"{what} of field {imported.field!r}"


def load_export(
    file: Path,
    importer: ImporterArgs,
    *,
    plain_fallback: bool,
    fits: str | None = None,
    spreadsheet_options: dict[str, Any] | None = None,
) -> Any:
    """Read *file* with the importer of ``importer.tool`` (guessed when None, the guess said on stderr).

    With *plain_fallback* (``accord agree``), a file with no ``--from`` that is a
    plain table (a :data:`PLAIN_TABLES` suffix whose header no tool of
    :data:`_HEADED_TABLES` has, or JSON lines no importer recognises), or a folder no importer recognises that
    holds tables, returns None: the caller reads it with :func:`accord.read`, as before ``--from`` existed.
    *fits* (``"categorical"``, ``"spans"``): without ``--field``, the only field of the export that fits the
    command is read, and the guess is said on stderr.
    """
    from accord.importers import GUESSED_FIELD, guess_tool, read_export

    tool = importer.tool
    guessed = tool is None
    if tool is None:
        suffix = file.suffix.lower()
        if plain_fallback and file.is_file() and suffix in PLAIN_TABLES:
            tool = headed_table(file)
            if tool is None:
                return None
        if not file.exists():
            raise no_such_file(file)
        if tool is None and plain_fallback and file.is_file() and suffix in _JSONL:
            try:
                tool = guess_tool(file)
            except AccordError:
                return None
        elif tool is None and plain_fallback and file.is_dir():
            try:
                tool = guess_tool(file)
            except AccordError:
                if holds_tables(file):
                    return None
                raise
        elif tool is None:
            tool = guess_tool(file)
        echo(f"accord: reading {file} with --from {tool} (guessed from the file; pass --from to choose)", err=True)
    options: dict[str, Any] = {}
    if importer.offsets is not None:
        if tool not in ("doccano", "argilla"):
            raise AccordError(f"--offsets applies to doccano and argilla exports; got --from {tool}")
        options["offsets"] = importer.offsets
    if importer.sheet is not None:
        if tool != "spreadsheet":
            raise AccordError(f"--sheet applies to spreadsheets (--from spreadsheet); got --from {tool}")
        options["sheet"] = importer.sheet
    if tool == "spreadsheet" and spreadsheet_options:
        options.update(spreadsheet_options)
    if importer.option:
        options.update(parse_options(list(importer.option), tool))
    imported = read_export(file, tool=tool, field=importer.field, fits=fits if importer.field is None else None,
                           **options)
    if guessed:  # the report says it, as read_export's own guess does
        import dataclasses

        note = f"format guessed from the file: {tool} (pass --from to choose)"
        imported = dataclasses.replace(imported, report=dataclasses.replace(
            imported.report, notes=(note, *imported.report.notes)))
    if importer.field is None and imported.field is not None:
        guess = next((n for n in imported.report.notes
                      if n.startswith(f"field {imported.field!r} {GUESSED_FIELD}: ")), None)
        if guess is not None:
            echo(f"accord: {for_cli(guess)}", err=True)
    return imported


def holds_tables(folder: Path) -> bool:
    """Whether *folder* holds plain tables (:data:`PLAIN_TABLES` or JSON lines files) at its top, and nothing of
    an export (a brat ``.ann``, a ``.json``, a ``.zip``: that folder's importer says what is wrong with it)."""
    try:
        suffixes = {f.suffix.lower() for f in folder.iterdir() if f.is_file() and not f.name.startswith(".")}
    except OSError:
        return False
    return bool(suffixes & {*PLAIN_TABLES, *_JSONL}) and not suffixes & {".ann", ".json", ".zip", ".xmi"}


def headed_table(file: Path) -> str | None:
    """The tool of :data:`_HEADED_TABLES` whose header the plain-table file *file* has, or None."""
    import importlib

    from accord.importers import TOOLS

    if not file.is_file() or file.suffix.lower() not in PLAIN_TABLES:
        return None
    with open(file, "rb") as fh:
        head = fh.read(65536).decode("utf-8", errors="replace")
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
        raise choice_error("tool", tool, TOOLS, flag="--from")
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
        except (ValueError, RecursionError):  # not JSON (or nested too deep, a number too long): the text
            out[name] = raw
    return out


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
