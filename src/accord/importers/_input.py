"""How an input is read: an annotation tool's export (its tool named or guessed) or a plain table.

What ``accord agree``, ``alt-test``, ``spans``, ``report`` and ``import`` decide about their input, here so
that the Python API decides the same: :class:`ImportOptions` holds the importer options of a run (the tool,
the field, the sheet, the offsets, the importer's own options), :func:`load_export` reads an export with
them (or says that a file is a plain table to read with :func:`accord.read`), and :func:`read_annotations`
reads any input of values (a table or an export) as the agreement commands read it in memory.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, choice_error, for_cli, no_such_file

__all__ = ["PLAIN_TABLES", "ImportOptions", "describe_field", "headed_table", "holds_tables", "load_export",
           "parse_options", "read_annotations", "reusing_reads", "suggest", "tool_options"]

#: Suffixes read as a plain table when no tool is named (``.xls`` to refuse it with what to do, in
#: :func:`accord.read`).
PLAIN_TABLES = (".csv", ".tsv", ".tab", ".txt", ".parquet", ".pq", ".xlsx", ".xlsm", ".ods", ".xls")
_JSONL = (".jsonl", ".ndjson", ".jsonlines")
#: Tools whose export is a plain table with a header no plain table has: guessed instead of reading the file
#: as a plain table (which would take ``<no annotation>`` for a label, or an MTurk batch's ``HITId`` column
#: for nothing, or Label Studio's CSV export's JSON cells for labels).
_HEADED_TABLES = ("inception-agreement", "mturk", "label-studio")
#: the tables read by accord.read, not by an importer, when no tool is named
_TABLES = (".csv", ".tsv", ".tab", ".parquet", ".pq")
#: tables larger than this (bytes) show a progress line while they are read (with progress)
_BIG_FILE = 64 * 2**20
#: the imports of an export's fields already read, which :func:`load_export` returns instead of reading the
#: export again (:func:`reusing_reads`): (file, tool, the importer's options, {field: import})
_REUSED: ContextVar[tuple[Path, str, dict[str, Any], dict[str | None, Any]] | None] = ContextVar("_REUSED",
                                                                                               default=None)


@contextmanager
def reusing_reads(file: Path, tool: str, options: dict[str, Any], reads: dict[str | None, Any]) -> Iterator[None]:
    """Within the block, :func:`load_export` of *file* with *tool*, the importer options *options* and a field of
    *reads* (None: no field) returns that import instead of reading the export again (``--field all``: the
    imports :func:`accord.importers._layers.layers_and_reads` made, one read per field)."""
    token = _REUSED.set((Path(file), tool, dict(options), dict(reads)))
    try:
        yield
    finally:
        _REUSED.reset(token)


def _reused(file: Path, tool: str, field: str | None, options: dict[str, Any]) -> Any:
    """The import of *field* made already with the same file, tool and options (:func:`reusing_reads`), or None."""
    held = _REUSED.get()
    if held is None or held[0] != Path(file) or held[1] != tool or held[2] != options:
        return None
    return held[3].get(field)


@dataclass(frozen=True)
class ImportOptions:
    """The importer options of a run: the tool (``--from``), ``--field``, ``--sheet``, ``--offsets``, ``--option``."""

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

    def refuse_for_table(self) -> None:
        """Refuse the options that only an export reads, for an input read as a plain table."""
        passed = [f for f in self.given() if f in ("--offsets", "--option")]
        if passed:
            verb = "pass" if len(passed) > 1 else "passes"
            raise AccordError(f"{' and '.join(passed)} {verb} options to an annotation tool's importer (with --from)")
        if self.field is not None:
            raise AccordError("field reads a field of an annotation tool's export (with tool=); for a table use value=",
                              cli="--field reads a field of an annotation tool's export (with --from); for a table "
                              "use --value")

    def sheet_index(self) -> str | int:
        """The sheet to read, by name or 0-based index (default the first)."""
        if self.sheet is None:
            return 0
        return int(self.sheet) if self.sheet.strip().isdigit() else self.sheet


def suggest(command: str, file: Path, importer: ImportOptions, *, tool: str | None = None,
            field: str | None = None) -> str:
    """A command to run instead, keeping every importer option the user gave (quoted for the shell)."""
    return shlex.join(["accord", command, str(file), *importer.flags(tool=tool, field=field)])


def describe_field(imported: Any) -> str:
    """What an import read, for a message: ``spans of field 'ner'``, ``nominal values`` (never "None")."""
    what = "spans" if imported.kind == "spans" else f"{imported.kind} values"
    return what if imported.field is None else f"{what} of field {imported.field!r}"


def load_export(
    file: Path,
    importer: ImportOptions,
    *,
    plain_fallback: bool,
    fits: str | None = None,
    spreadsheet_options: dict[str, Any] | None = None,
    say: Callable[[str], None] | None = None,
) -> Any:
    """Read *file* with the importer of ``importer.tool`` (guessed when None, the guess said through *say*).

    With *plain_fallback* (``accord agree``), a file with no tool named that is a plain table (a
    :data:`PLAIN_TABLES` suffix whose header no tool of :data:`_HEADED_TABLES` has, or JSON lines no importer
    recognises), or a folder no importer recognises that holds tables, returns None: the caller reads it with
    :func:`accord.read`.  *fits* (``"categorical"``, ``"spans"``): without a field, the only field of the export
    that fits is read, and the guess is said.
    """
    from accord.importers import GUESSED_FIELD, guess_tool, read_export

    tell = say or (lambda line: None)
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
        tell(f"accord: reading {file} with --from {tool} (guessed from the file; pass --from to choose)")
    options = tool_options(tool, importer, spreadsheet_options)
    imported = None if guessed else _reused(file, tool, importer.field, options)
    if imported is None:
        imported = read_export(file, tool=tool, field=importer.field, fits=fits if importer.field is None else None,
                               **options)
    if guessed:  # the report says it, as read_export's own guess does
        note = f"format guessed from the file: {tool} (pass --from to choose)"
        imported = replace(imported, report=replace(imported.report, notes=(note, *imported.report.notes)))
    if importer.field is None and imported.field is not None:
        guess = next((n for n in imported.report.notes
                      if n.startswith(f"field {imported.field!r} {GUESSED_FIELD}: ")), None)
        if guess is not None:
            tell(f"accord: {for_cli(guess)}")
    return imported


def tool_options(tool: str, importer: ImportOptions, spreadsheet_options: dict[str, Any] | None = None
                 ) -> dict[str, Any]:
    """The keyword options of *tool*'s importer from *importer* (``--offsets``, ``--sheet``, ``--option``),
    each refused for a tool that does not take it."""
    options: dict[str, Any] = {}
    if importer.offsets is not None:
        if tool not in ("doccano", "argilla"):
            raise AccordError(f"offsets applies to doccano and argilla exports; got tool={tool!r}",
                              cli=f"--offsets applies to doccano and argilla exports; got --from {tool}")
        options["offsets"] = importer.offsets
    if importer.sheet is not None:
        if tool != "spreadsheet":
            raise AccordError(f"sheet applies to spreadsheets (tool='spreadsheet'); got tool={tool!r}",
                              cli=f"--sheet applies to spreadsheets (--from spreadsheet); got --from {tool}")
        options["sheet"] = importer.sheet
    if tool == "spreadsheet" and spreadsheet_options:
        options.update(spreadsheet_options)
    elif spreadsheet_options:  # a plain table's columns: the export's importer would read past them
        refuse_table_columns(tool, list(spreadsheet_options))
    if importer.option:
        options.update(parse_options(list(importer.option), tool))
    return options


def refuse_table_columns(tool: str, names: list[str]) -> None:
    """Refuse the columns of a plain table (*names*: ``unit``, ``coder``, ``layout``, ``coders``, ``sep``) given
    for an export of *tool*, which its importer reads by the tool's own fields."""
    flags = [f"--{n}" for n in names]
    said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    said_cli = flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"
    verb = "names" if len(names) == 1 else "name"
    raise AccordError(f"{said} {verb} what to read in a plain table; this is a {tool} export, read by its "
                      "importer (tool, field)",
                      cli=f"{said_cli} {verb} what to read in a plain table; this is a {tool} export, read by its "
                      "importer (--from, --field)")


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


def read_annotations(
    file: Path, importer: ImportOptions | None = None, *, unit: str | None = None, coder: str | None = None,
    value: str | None = None, layout: str | None = None, coders: list[str] | None = None, sep: str | None = None,
    layouts: tuple[str, ...] = ("long", "wide", "counts"), say: Callable[[str], None] | None = None,
    progress: bool = False,
) -> tuple[Any, Any]:
    """The annotations of *file* as the agreement commands read it in memory: a plain table (its columns and
    layout told from the file where not given, :func:`accord.read`), or an annotation tool's export (the
    tool named, or guessed for JSON, zips and tables with a tool's header).

    Returns ``(annotations, import)``: the import None for a plain table (whose ``read_as`` says what was
    read); an import of spans has no annotations (the caller refuses it).  With *progress*, a table larger
    than 64 MiB shows a progress line while it is read.
    """
    from accord._shared.progress import Progress
    from accord.data._read import read

    importer = importer or ImportOptions()
    if layout is not None and layout not in layouts:
        raise choice_error("layout", layout, layouts)
    headed = importer.tool is None and importer.sheet is None and headed_table(file) is not None
    if importer.tool is not None or headed or file.suffix.lower() not in _TABLES:
        read_as = importer if importer.field is not None or value in (None, "value") else replace(importer,
                                                                                                 field=value)
        given = {"layout": layout, "unit": unit, "coder": coder, "coders": coders}
        imported = load_export(file, read_as, plain_fallback=True, fits="categorical", say=say,
                               spreadsheet_options={k: v for k, v in given.items() if v is not None})
        if imported is not None:
            if sep is not None:
                refuse_table_columns(imported.tool, ["sep"])
            return imported.annotations, imported
    importer.refuse_for_table()
    big = progress and file.is_file() and file.stat().st_size > _BIG_FILE
    with Progress(enabled=big, total=1, label="accord agree") as prog:
        with prog.step(f"reading {file.name} ({file.stat().st_size / 2**20:.0f} MiB)" if big else "reading"):
            data = read(file, unit=unit, coder=coder, value=value, layout=layout,  # type: ignore[arg-type]
                        coders=coders, sheet=importer.sheet_index(), sep=sep)
    return data, None
