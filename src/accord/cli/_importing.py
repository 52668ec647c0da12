"""What ``accord import`` and ``accord agree --from`` share: reading a tool's export, writing the long table."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from accord.cli._common import echo
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
        echo(f"accord: reading {file} with --from {tool} (guessed from the file; pass --from to choose)", err=True)
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


def long_table_text(imported: Any, *, sep: str = ",", raw: bool = False) -> str:
    """The canonical long table of an import as CSV (or TSV) text; sets as JSON lists.

    A cell a spreadsheet would run as a formula gets a leading ``'``
    (:func:`accord.sanitize.csv_cell`) unless *raw*.
    """
    from accord.sanitize import csv_row

    frame = imported.to_frame()
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(csv_row(frame.columns, raw=raw))
    for row in frame.itertuples(index=False):
        w.writerow(csv_row((_cell(x) for x in row), raw=raw))
    return buf.getvalue()
