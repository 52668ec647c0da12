"""Crowd CSV: Amazon Mechanical Turk batch results, and any one-judgment-per-row table.

**MTurk** (tool ``mturk``): the batch results CSV the requester site downloads ("Download CSV" of a batch;
documented at https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ and in the requester UI help,
"Reviewing results"), one row per assignment, with ``HITId``, ``AssignmentId``, ``WorkerId``,
``AssignmentStatus`` (``Submitted``, ``Approved``, ``Rejected``), one ``Input.<name>`` column per template
variable and one ``Answer.<name>`` column per form field. Crowd HTML Elements and radio / checkbox groups
write one boolean column per option, ``Answer.<name>.<option>``: the option(s) marked true are the answer
(several marked in some row make the field set-valued). A ``crowd-classifier`` writes its category in one
column, ``Answer.<name>.label``: that column is the answer. The header ends with ``Approve`` and ``Reject``,
columns for the requester to mark and upload back, which the records leave out: they read as empty.

- The unit is ``HITId`` or an input column (``unit="Input.id"``), the coder ``WorkerId``; ``field`` names
  the answer (``sentiment`` for ``Answer.sentiment`` or ``Answer.sentiment.*``); several answers without
  ``field`` is an error listing them.
- ``Rejected`` assignments are *skipped* (counted, not compared); an empty answer is *empty*; a HIT a worker
  did not take is *unassigned*.
- The file is read with :mod:`csv` (quoted fields may hold commas, doubled quotes and newlines), so every
  error names the line where the record starts. An ``AssignmentStatus`` other than ``Submitted``,
  ``Approved``, ``Rejected``, an assignment listed twice, a worker with two assignments of one HIT (MTurk
  never gives one), a record whose field count differs from the header's, an empty ``HITId`` or ``WorkerId``
  and an option cell that is not true or false are :class:`~accord.AccordError` naming the file, the line
  and the field. With ``unit=Input.<name>``, a worker's second assignment to the same input (a batch posted
  again) is dropped and counted; the first is kept.

**Generic** (tool ``csv``): one judgment per row, the columns named by ``unit=``, ``coder=`` and
``value=`` (defaults ``unit``, ``coder``, ``value``); an empty value is *empty*; a coder with two judgments
of one unit, an empty unit or coder and a missing column are errors naming the line and the column.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord.importers import AmbiguousField, Imported
from accord.importers._common import Tidy, bad_bytes, opt, quote
from accord.importers._report import DroppedRecord, ImportReport

__all__ = ["read", "sniff"]

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}


def sniff(path: Path, head: str) -> bool:
    """An MTurk batch results CSV: its header (quoted or not) names ``HITId``, ``AssignmentId``, ``WorkerId``
    and at least one ``Answer.<name>`` column, as the requester site's "Download CSV" writes it."""
    if path.is_dir() or path.suffix.lower() not in {".csv", ".tsv", ".txt", ""}:
        return False
    first = head.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r") if head else ""
    try:
        header = next(csv.reader([first], delimiter="\t" if path.suffix.lower() == ".tsv" else ","), [])
    except csv.Error:
        return False
    names = {h.strip() for h in header}
    return {"HITId", "AssignmentId", "WorkerId"} <= names and any(n.startswith("Answer.") for n in names)


def _fail(tool: str, path: Path, message: str, line: int | None = None, field: str | None = None) -> AccordError:
    where = f"{tool} export {path}" + (f", line {line}" if line else "") + (f", field {quote(field)}" if field else "")
    return AccordError(words(f"{where}: ", message))


_STATUSES = ("Submitted", "Approved", "Rejected")
#: The columns MTurk's batch results CSV ends its header with, for the requester to mark and upload back;
#: its records stop before them (a record has two fields fewer than the header).
_REVIEW_COLUMNS = {"Approve", "Reject"}


def _read_rows(tool: str, path: Path) -> tuple[list[str], list[tuple[int, dict[str, str]]], dict[str, int]]:
    """The header and ``(line, row)`` for each record, *line* the file line where the record starts.

    Read with :mod:`csv` (RFC 4180 quoting: a quoted field may hold commas, doubled quotes and
    newlines), so a record's line stays right after fields that span several lines.  Blank lines
    are skipped; a record whose number of fields differs from the header's is an error, except one that
    stops before the header's last columns ``Approve`` and ``Reject`` (MTurk writes them in the header
    only, for the requester to fill in): those read as empty.
    """
    if path.is_dir() or not path.exists():
        raise _fail(tool, path, "expected a CSV file")
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    rows: list[tuple[int, dict[str, str]]] = []
    line = 1
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, delimiter=delimiter, strict=True)
            header = next(reader, None)
            if not header or not any(h.strip() for h in header):
                raise _fail(tool, path, "empty file: no header")
            header = [h.strip() for h in header]
            repeated = _repeats(header)
            first = [header.index(name) for name in header] if repeated else None
            line = reader.line_num + 1
            for record in reader:
                start, line = line, reader.line_num + 1
                if not any(f.strip() for f in record):
                    continue
                if len(record) < len(header) and set(header[len(record):]) <= _REVIEW_COLUMNS:
                    record = record + [""] * (len(header) - len(record))  # MTurk leaves Approve, Reject out
                if len(record) != len(header):
                    raise _fail(tool, path, f"{plural(len(record), 'field')} where the header has {len(header)}", start)
                if first is not None:  # a repeated column: the first of its name is the one read
                    record = [record[k] for k in first]
                rows.append((start, dict(zip(header, record, strict=True))))
    except csv.Error as exc:
        raise _fail(tool, path, f"not a readable CSV ({exc})", line) from None
    except UnicodeDecodeError as exc:
        raise bad_bytes(tool, path, exc) from None
    return header, rows, repeated


def _repeats(header: list[str]) -> dict[str, int]:
    """The names the header gives more than once, and how many times."""
    seen: dict[str, int] = {}
    for name in header:
        seen[name] = seen.get(name, 0) + 1
    return {name: n for name, n in seen.items() if n > 1}


def _check_repeats(tool: str, path: Path, repeated: dict[str, int], used: list[str]) -> str | None:
    """A repeated column accord reads is an error naming it (which of the two holds the answer?); a repeated
    column it does not read is left alone, and the report's note says so."""
    for name in used:
        if name in repeated:
            raise _fail(tool, path, f"the header names {quote(name)} {_times(repeated[name])}, a column accord reads: "
                        "which one holds the data?", 1, name)
    if not repeated:
        return None
    shown = ", ".join(f"{quote(n)} ({_times(k)})" for n, k in sorted(repeated.items()))
    return f"{plural(len(repeated), 'column name')} repeated in the header, columns not read, left alone: {shown}"


def _times(n: int) -> str:
    return "twice" if n == 2 else f"{n} times"


def read(
    path: str | Path,
    *,
    field: str | None = None,
    tool: str | None = None,
    unit: str | None = None,
    coder: str | None = None,
    value: str | None = None,
) -> Imported:
    """Read an MTurk batch results CSV, or a generic one-judgment-per-row CSV (``unit=``, ``coder=``, ``value=``).

    Parameters
    ----------
    path : str or Path
        The CSV file (``.tsv``: tab-separated).
    field : str, optional
        MTurk: the answer to read (``sentiment`` for ``Answer.sentiment`` or
        ``Answer.sentiment.*``), needed when there are several.  Generic: the
        value column (overrides *value*).
    tool : {"mturk", "csv"}, optional
        Which layout; guessed from the header (``HITId`` and ``WorkerId``: MTurk) when omitted.
    unit : str, optional
        The unit column: ``HITId`` by default for MTurk (or an ``Input.*``
        column), ``unit`` for the generic table.
    coder, value : str, optional
        The generic table's coder and value columns (defaults ``coder``, ``value``).

    Returns
    -------
    Imported
        ``kind="nominal"`` (or ``"set"`` for checkbox groups with several options marked).

    Raises
    ------
    AccordError
        Naming the tool, the file, the line and the field: a missing column, a
        record with a missing unit or worker, an unknown ``AssignmentStatus``, an
        option cell that is not true or false, an assignment listed twice, a worker
        with two assignments of one HIT (generic: a coder with two values for one
        unit), no value to compare.
    """
    path = Path(path)
    head = path.read_text(encoding="utf-8-sig", errors="replace")[:65536] if path.is_file() else ""
    is_mturk = sniff(path, head) if tool is None else tool == "mturk"
    name = "mturk" if is_mturk else "csv"
    if not is_mturk:
        columns = dict(field=field, unit=unit or "unit", coder=coder or "coder", value=value or "value")
        fast = _generic_plain(path, **columns)
        if fast is not None:
            return fast
        header, rows, repeated = _read_rows(name, path)
        return _generic(path, header, rows, repeated, **columns)
    header, rows, repeated = _read_rows(name, path)
    return _mturk(path, header, rows, repeated, field=field, unit=unit)


def _mturk(path: Path, header: list[str], rows: list[tuple[int, dict[str, str]]], repeated: dict[str, int], *,
           field: str | None, unit: str | None) -> Imported:
    from accord.data._annotations import Annotations

    for col in ("HITId", "WorkerId"):
        if col not in header:
            raise _fail("mturk", path, f"no {col} column: not an MTurk batch results file", 1, col)
    unit_col = unit or "HITId"
    if unit_col not in header:
        raise _fail("mturk", path, f"no unit column {quote(unit_col)}; columns are {', '.join(header)}", 1, unit_col)
    answers: dict[str, list[str]] = {}
    for col in header:
        if col.startswith("Answer."):
            rest = col[len("Answer."):]
            base, _, option = rest.partition(".")
            answers.setdefault(base, []).append(option)
    if not answers:
        raise _fail("mturk", path, "no Answer.* column", 1)
    if field is None:
        if len(answers) > 1:
            raise AmbiguousField(
                _fail("mturk", path, words(f"several answers ({', '.join(sorted(answers))}); pass ", opt("field"),
                                           " to pick one")),
                {a: "nominal" for a in sorted(answers)},
            )
        field = next(iter(answers))
    field = _answer_name(path, field, answers)
    options = [o for o in answers[field] if o]
    answer_cols = [f"Answer.{field}" + (f".{o}" if o else "") for o in answers[field]]
    repeat_note = _check_repeats("mturk", path, repeated, ["HITId", "WorkerId", "AssignmentId", "AssignmentStatus",
                                                            unit_col, *answer_cols])
    if options and "" in answers[field]:
        raise _fail("mturk", path, f"both Answer.{field} and option columns Answer.{field}.*: which is the answer?",
                    1, f"Answer.{field}")
    value_col = f"Answer.{field}"
    if options == ["label"] and any(r[f"{value_col}.label"].strip().lower() not in _TRUE | _FALSE for _, r in rows):
        # crowd-classifier writes {"<name>": {"label": "<category>"}}: one column holding the category
        value_col, options = f"{value_col}.label", []
    records: list[tuple[str, str, Any]] = []
    lines: list[int] = []
    cells: list[tuple[str, str, str]] = []
    items: dict[str, None] = {}  # insertion-ordered; a list's `in` made this loop quadratic in the rows
    dropped: list[DroppedRecord] = []
    by_assignment: dict[str, int] = {}
    by_cell: dict[tuple[str, str], int] = {}
    multiple = False
    tidy = Tidy()
    for line, row in rows:
        u, w = tidy.id(row[unit_col]), tidy.id(row["WorkerId"])
        if not u:
            raise _fail("mturk", path, f"an assignment with no {unit_col}", line, unit_col)
        if not w:
            raise _fail("mturk", path, "an assignment with no WorkerId", line, "WorkerId")
        status = row.get("AssignmentStatus", "Submitted")
        if status not in _STATUSES:
            raise _fail("mturk", path, f"AssignmentStatus {quote(status)} is not one of {', '.join(_STATUSES)}", line,
                        "AssignmentStatus")
        aid = row.get("AssignmentId", "")
        if aid:
            if aid in by_assignment:
                raise _fail("mturk", path, f"assignment {aid} is listed twice (lines {by_assignment[aid]} and "
                            f"{line}): are two downloads of the batch joined?", line, "AssignmentId")
            by_assignment[aid] = line
        if (u, w) in by_cell:
            if unit_col == "HITId":
                raise _fail("mturk", path, f"worker {w} has two assignments of HIT {u} (lines {by_cell[u, w]} and "
                            f"{line}); MTurk gives a worker one assignment per HIT", line, "WorkerId")
            dropped.append(DroppedRecord(aid or u, f"second assignment of the same worker to the same {unit_col} "
                                         "(the first is kept)", line, w))
            continue
        by_cell[u, w] = line
        items.setdefault(u)
        if status == "Rejected":
            cells.append((u, w, "skipped"))
            dropped.append(DroppedRecord(aid or u, "rejected assignment", line, w))
            continue
        if options:
            chosen = []
            for o in options:
                col = f"Answer.{field}.{o}"
                cell = row[col].strip().lower()
                if cell in _TRUE:
                    chosen.append(o)
                elif cell not in _FALSE:
                    raise _fail("mturk", path, f"{col} holds {quote(row[col])}, not true or false", line, col)
            multiple = multiple or len(chosen) > 1
            answer: Any = chosen
        else:
            answer = tidy.label(row[value_col])
            answer = [answer] if answer else []
        if not answer:
            cells.append((u, w, "empty"))
            continue
        cells.append((u, w, "annotated"))
        records.append((u, w, answer))
        lines.append(line)
    kind = "set" if multiple else "nominal"
    values = [(u, w, frozenset(a) if multiple else a[0]) for u, w, a in records]
    if not values:
        raise _fail("mturk", path, f"no answer to {quote(field)} to compare", field=f"Answer.{field}")
    data = Annotations.from_records(values, source=str(path), row_numbers=lines)
    note = f"unit: {unit_col}, answer: {value_col}" + (".*" if options else "")
    notes = (note,) if repeat_note is None else (note, repeat_note)
    report = ImportReport.from_cells("mturk", str(path), items=items, cells=cells, dropped=dropped, notes=notes,
                                     stripped=tidy.stripped)
    return Imported(tool="mturk", field=field, kind=kind, annotations=data, spans=None, report=report)


def _answer_name(path: Path, field: str, answers: dict[str, list[str]]) -> str:
    """The answer *field* names: its short name (``sentiment``) or its column's (``Answer.sentiment``, the
    crowd-classifier's ``Answer.sentiment.label``); an option column is not an answer of its own."""
    if field in answers:
        return field
    rest = field[len("Answer."):] if field.startswith("Answer.") else None
    if rest is not None:
        if rest in answers:
            return rest
        base, _, option = rest.partition(".")
        if base in answers and option == "label" and answers[base] == ["label"]:
            return base
        if base in answers and option in answers[base]:
            columns = ", ".join(f"Answer.{base}.{o}" for o in answers[base])
            raise _fail("mturk", path, words(f"column {quote(field)} is one option of the answer {quote(base)} (one "
                                             f"column per option: {columns}); pass ", opt("field", base),
                                             " to read the answer"), 1, field)
    raise _fail("mturk", path, f"no answer {quote(field)}; answers are {', '.join(sorted(answers))} (columns "
                f"{', '.join(sorted(_columns_of(answers)))})")


def _columns_of(answers: dict[str, list[str]]) -> list[str]:
    return [f"Answer.{a}" + (f".{o}" if o else "") for a, opts in answers.items() for o in opts]


def _generic(path: Path, header: list[str], rows: list[tuple[int, dict[str, str]]], repeated: dict[str, int], *,
             field: str | None, unit: str, coder: str, value: str) -> Imported:
    from accord.data._annotations import Annotations

    if field is not None:
        value = field
    missing = [c for c in (unit, coder, value) if c not in header]
    if missing:
        raise _fail("csv", path, words(f"no column {quote(missing[0])} (pass ", opt("unit"), ", ", opt("coder"), ", ",
                                       opt("value"), f"); columns are {', '.join(header)}"), 1, missing[0])
    repeat_note = _check_repeats("csv", path, repeated, [unit, coder, value])
    tidy = Tidy()
    cells: list[tuple[str, str, str]] = []
    values: list[tuple[str, str, str]] = []
    lines: list[int] = []
    items: dict[str, None] = {}  # insertion-ordered; a list's `in` made this loop quadratic in the rows
    by_cell: dict[tuple[str, str], int] = {}
    for line, row in rows:
        u, c, v = tidy.id(row[unit]), tidy.id(row[coder]), tidy.label(row[value])
        for col, x in ((unit, u), (coder, c)):
            if not x:
                raise _fail("csv", path, f"the {'unit' if col == unit else 'coder'} is empty", line, col)
        if (u, c) in by_cell:
            raise _fail("csv", path, f"coder {c} has two judgments of unit {u} (lines {by_cell[u, c]} and {line})",
                        line, coder)
        by_cell[u, c] = line
        items.setdefault(u)
        if v:
            cells.append((u, c, "annotated"))
            values.append((u, c, v))
            lines.append(line)
        else:
            cells.append((u, c, "empty"))
    if not values:
        raise _fail("csv", path, f"no value to compare in column {quote(value)}", field=value)
    data = Annotations.from_records(values, source=str(path), row_numbers=lines)
    report = ImportReport.from_cells("csv", str(path), items=items, cells=cells,
                                     notes=() if repeat_note is None else (repeat_note,), stripped=tidy.stripped)
    return Imported(tool="csv", field=value, kind="nominal", annotations=data, spans=None, report=report)




def _blank(labels: Any) -> Any:
    """For each of the distinct strings *labels*: whether it is empty once stripped."""
    import numpy as np

    return np.array([not x.strip() for x in labels], dtype=bool)


class _Table:
    """A CSV file read by columns: the header, and per record its line, its number of fields and its cells."""

    def __init__(self, header: list[str], lines: Any, fields: Any, column: Any, records_at: Any) -> None:
        self.header = header  # stripped, as _read_rows strips it
        self.lines = lines  # int64: the file line where each record (after the header) starts
        self.fields = fields  # int64: how many fields each record has (0 for an empty line)
        self.column = column  # k -> object array of column k's cells ("" past a record's end)
        self.records_at = records_at  # int array -> the fields of those records, as lists


def _plain_table(data: bytes, sep: str) -> _Table | None:
    """A file with no quote character: one record per line, parsed by pandas' C parser."""
    import csv
    import io

    import numpy as np
    import pandas as pd

    end = data.find(b"\n")
    if end <= 0:
        return None  # no header line, or no record after it: the loop says which
    try:
        header = [h.strip() for h in data[:end].removesuffix(b"\r").decode("utf-8").split(sep)]
    except UnicodeDecodeError:
        return None
    width = len(header)
    body = data[end + 1:]
    raw = np.frombuffer(body, dtype=np.uint8)
    newlines = np.flatnonzero(raw == ord("\n"))
    n_lines = len(newlines) + (1 if body and not body.endswith(b"\n") else 0)
    if not n_lines:
        return None
    # fields per line: one more than the delimiters on it
    fields = np.bincount(np.searchsorted(newlines, np.flatnonzero(raw == ord(sep))), minlength=n_lines) + 1
    del raw, newlines
    if int(fields.max()) > width:
        return None
    try:
        frame = pd.read_csv(
            io.BytesIO(body), sep=sep, header=None, names=list(range(width)), dtype=object, na_filter=False,
            quoting=csv.QUOTE_NONE, skip_blank_lines=False, encoding="utf-8", engine="c",
        )
    except (UnicodeDecodeError, ValueError):  # pandas' ParserError is a ValueError
        return None
    if len(frame) != n_lines:
        return None
    return _Table(header, np.arange(2, n_lines + 2, dtype=np.int64), fields,
                  lambda k: frame[k].to_numpy(dtype=object),
                  lambda rows: [list(r) for r in frame.iloc[rows].itertuples(index=False)])


def _quoted_table(data: bytes, sep: str) -> _Table | None:
    """A file with quoted fields, parsed by pandas' C parser; each record's line and fields found from the quotes.

    In RFC 4180 quoting (a quote opens a field, closes it, or is doubled inside it), a newline ends a record
    and a separator ends a field when an even number of quotes precede it.  Any quote elsewhere (``a"b``, which
    csv reads as text; ``"a"b``, which it refuses) makes that count meaningless: such a file returns None and
    goes to the loop, which reads it with csv and counts lines as it goes.
    """
    import csv
    import io

    import numpy as np
    import pandas as pd

    raw = np.frombuffer(data, dtype=np.uint8)
    quotes = np.flatnonzero(raw == ord('"'))
    if len(quotes) % 2:
        return None
    # the 1st, 3rd... quote opens a field (after a separator, a newline or the start) or doubles the one before;
    # the 2nd, 4th... closes it (before a separator, a line end or the end) or is doubled by the one after
    padded = np.concatenate([[ord("\n")], raw, [ord("\n")]])  # the start and the end read as line ends
    opens, closes = quotes[0::2], quotes[1::2]
    before, after = padded[opens], padded[closes + 2]
    doubled = closes[:-1] + 1 == opens[1:]
    ok_open = (before == ord(sep)) | (before == ord("\n"))
    ok_open[1:] |= doubled
    ok_close = (after == ord(sep)) | (after == ord("\n")) | (after == ord("\r"))
    ok_close[:-1] |= doubled
    del padded
    if not (ok_open.all() and ok_close.all()):
        return None
    newlines = np.flatnonzero(raw == ord("\n"))
    ends = newlines[np.searchsorted(quotes, newlines) % 2 == 0]  # newlines outside quoted fields
    starts = np.r_[0, ends + 1]
    starts = starts[starts < len(raw)]
    if len(starts) < 2:
        return None  # no record after the header: the loop says so
    try:
        first = next(csv.reader(io.StringIO(data[: ends[0] + 1].decode("utf-8"), newline=""), delimiter=sep,
                                strict=True), [])
    except (UnicodeDecodeError, csv.Error):
        return None
    header = [h.strip() for h in first]
    width = len(header)
    seps = np.flatnonzero(raw == ord(sep))
    seps = seps[np.searchsorted(quotes, seps) % 2 == 0]  # separators outside quoted fields
    n = len(starts) - 1
    fields = np.bincount(np.searchsorted(starts, seps, side="right") - 1, minlength=n + 1)[1:] + 1
    if not width or int(fields.max()) > width:
        return None
    try:
        frame = pd.read_csv(
            io.BytesIO(data[ends[0] + 1:]), sep=sep, header=None, names=list(range(width)), dtype=object,
            na_filter=False, quoting=csv.QUOTE_MINIMAL, doublequote=True, skip_blank_lines=False, encoding="utf-8",
            engine="c",
        )
    except (UnicodeDecodeError, ValueError):  # pandas' ParserError is a ValueError
        return None
    if len(frame) != n:
        return None
    lines = np.searchsorted(newlines, starts[1:]).astype(np.int64) + 1  # 1 + the newlines before the record
    return _Table(header, lines, fields, lambda k: frame[k].to_numpy(dtype=object),
                  lambda rows: [list(r) for r in frame.iloc[rows].itertuples(index=False)])


def _tidy_codes(codes: Any, uniques: Any) -> tuple[Any, Any, int]:
    """A column's codes and distinct labels (``pandas.factorize``) with each label stripped of surrounding
    whitespace (labels that become equal share one code), and how many cells changed."""
    import numpy as np
    import pandas as pd

    raw = [str(x) for x in uniques]
    stripped = [x.strip() for x in raw]
    changed = np.array([a != b for a, b in zip(raw, stripped, strict=True)], dtype=bool)
    if not changed.any():
        return codes, np.asarray(raw, dtype=object), 0
    merge, distinct = pd.factorize(np.asarray(stripped, dtype=object))
    return merge[codes], np.asarray(distinct, dtype=object), int(np.count_nonzero(changed[codes]))


def _generic_plain(path: Path, *, field: str | None, unit: str, coder: str, value: str) -> Imported | None:
    """The generic table read by columns, or None when the file is not one this reading takes.

    Taken: UTF-8 with no NUL byte and no carriage return outside CRLF, either with no quote character (each
    line one record, parsed by pandas' C parser) or with RFC 4180 quoting (parsed by :mod:`csv` in one call,
    each record's line found from the quotes).  For anything else, and for any file the reference loop
    (:func:`_read_rows` then :func:`_generic`) would refuse, this returns None and the caller runs that loop,
    which words every error (with its file, line and field).  On the files it reads, the result equals the
    loop's (``tests/test_importers_crowd_plain.py``).  Each column is coded once (``pandas.factorize``) and
    every check runs on the distinct strings or on the codes: no Python step per row.
    """
    import numpy as np
    import pandas as pd

    from accord.data._annotations import Annotations

    if field is not None:
        value = field
    if not path.is_file():
        return None
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\0" in data or data.count(b"\r") != data.count(b"\r\n"):
        return None
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    table = _quoted_table(data, sep) if b'"' in data else _plain_table(data, sep)
    del data
    if table is None:
        return None
    header, width = table.header, len(table.header)
    if not any(header) or len(set(header)) != width or any(c not in header for c in (unit, coder, value)):
        return None
    fields, lines = table.fields, table.lines
    ucol, ccol, vcol = (table.column(header.index(c)) for c in (unit, coder, value))
    ucodes, units, n_units_stripped = _tidy_codes(*pd.factorize(ucol))
    no_unit = _blank(units)[ucodes]
    if no_unit.any():
        # a record whose every field is blank is skipped, as the loop skips it; its unit is blank
        maybe = np.flatnonzero(no_unit)
        blank = np.zeros(len(ucol), dtype=bool)
        blank[maybe] = [not any(x.strip() for x in row) for row in table.records_at(maybe)]
        keep = ~blank
        if no_unit[keep].any():
            return None  # an empty unit: the loop names the first one's line
        fields, lines, ucol, ccol, vcol = fields[keep], lines[keep], ucol[keep], ccol[keep], vcol[keep]
        ucodes, units, n_units_stripped = _tidy_codes(*pd.factorize(ucol))
    del table
    # MTurk leaves the header's last columns Approve and Reject out of its records: those read as empty
    short_ok = np.array([k == width or set(header[k:]) <= _REVIEW_COLUMNS for k in range(width + 1)])
    if not short_ok[fields].all():
        return None
    ccodes, coders, n_coders_stripped = _tidy_codes(*pd.factorize(ccol))
    if _blank(coders).any():
        return None  # an empty coder: the loop names the first one's line
    if pd.Index(ucodes.astype(np.int64) * len(coders) + ccodes).has_duplicates:
        return None  # a coder with two judgments of one unit: the loop names both lines
    vcodes, values, n_values_stripped = _tidy_codes(*pd.factorize(vcol))
    given = ~_blank(values)[vcodes]
    if not given.any():
        return None
    annotations = Annotations._from_codes(
        ucodes[given], np.asarray(units, dtype=object), ccodes[given], np.asarray(coders, dtype=object),
        vcodes[given], np.asarray(values, dtype=object), source=str(path), row_numbers=lines[given],
    )
    annotated = np.bincount(ccodes[given], minlength=len(coders))
    empty = np.bincount(ccodes[~given], minlength=len(coders))
    counts = {
        str(name): {"annotated": int(annotated[k]), "empty": int(empty[k]), "skipped": 0,
                    "unassigned": len(units) - int(annotated[k] + empty[k])}
        for k, name in sorted(enumerate(coders.tolist()), key=lambda kn: str(kn[1]))
    }
    stripped = n_units_stripped + n_coders_stripped + n_values_stripped
    report = ImportReport(tool="csv", source=str(path), n_items=len(units), counts=counts, stripped=stripped)
    return Imported(tool="csv", field=value, kind="nominal", annotations=annotations, spans=None, report=report)
