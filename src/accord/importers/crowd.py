"""Crowd CSV: Amazon Mechanical Turk batch results, and any one-judgment-per-row table.

**MTurk** (tool ``mturk``): the batch results CSV the requester site downloads ("Download CSV" of a batch;
documented at https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ and in the requester UI help,
"Reviewing results"), one row per assignment, with ``HITId``, ``AssignmentId``, ``WorkerId``,
``AssignmentStatus`` (``Submitted``, ``Approved``, ``Rejected``), one ``Input.<name>`` column per template
variable and one ``Answer.<name>`` column per form field. Crowd HTML Elements and radio / checkbox groups
write one boolean column per option, ``Answer.<name>.<option>``: the option(s) marked true are the answer
(several marked in some row make the field set-valued).

- The unit is ``HITId`` or an input column (``unit="Input.id"``), the coder ``WorkerId``; ``field`` names
  the answer (``sentiment`` for ``Answer.sentiment`` or ``Answer.sentiment.*``); several answers without
  ``field`` is an error listing them.
- ``Rejected`` assignments are *skipped* (counted, not compared); an empty answer is *empty*; a HIT a worker
  did not take is *unassigned*.

**Generic** (tool ``csv``): one judgment per row, the columns named by ``unit=``, ``coder=`` and
``value=`` (defaults ``unit``, ``coder``, ``value``); an empty value is *empty*.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.errors import AccordError
from accord.importers import Imported
from accord.importers.report import DroppedRecord, ImportReport

__all__ = ["read", "sniff"]

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off", ""}


def sniff(path: Path, head: str) -> bool:
    """An MTurk batch results CSV: its header names ``HITId`` and ``WorkerId``."""
    if path.is_dir() or path.suffix.lower() not in {".csv", ".tsv", ".txt", ""}:
        return False
    first = head.splitlines()[0] if head else ""
    return "HITId" in first and "WorkerId" in first


def _fail(tool: str, path: Path, message: str, line: int | None = None) -> AccordError:
    return AccordError(f"{tool} export {path}" + (f", line {line}" if line else "") + f": {message}")


def _read_frame(tool: str, path: Path) -> Any:
    import pandas as pd

    if path.is_dir() or not path.exists():
        raise _fail(tool, path, "expected a CSV file")
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    try:
        return pd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except (ValueError, UnicodeDecodeError) as exc:
        raise _fail(tool, path, f"not a readable CSV ({exc})") from None


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

    Returns
    -------
    Imported
        ``kind="nominal"`` (or ``"set"`` for checkbox groups with several options marked).
    """
    path = Path(path)
    head = path.read_text(encoding="utf-8-sig", errors="replace")[:65536] if path.is_file() else ""
    is_mturk = sniff(path, head) if tool is None else tool == "mturk"
    name = "mturk" if is_mturk else "csv"
    frame = _read_frame(name, path)
    if is_mturk:
        return _mturk(path, frame, field=field, unit=unit)
    return _generic(path, frame, field=field, unit=unit or "unit", coder=coder or "coder", value=value or "value")


def _mturk(path: Path, frame: Any, *, field: str | None, unit: str | None) -> Imported:
    from accord.data import Annotations

    for col in ("HITId", "WorkerId"):
        if col not in frame.columns:
            raise _fail("mturk", path, f"no {col} column: not an MTurk batch results file")
    unit_col = unit or "HITId"
    if unit_col not in frame.columns:
        raise _fail("mturk", path, f"no unit column {unit_col!r}; columns are {', '.join(frame.columns)}")
    answers: dict[str, list[str]] = {}
    for col in frame.columns:
        if col.startswith("Answer."):
            rest = col[len("Answer."):]
            base, _, option = rest.partition(".")
            answers.setdefault(base, []).append(option)
    if not answers:
        raise _fail("mturk", path, "no Answer.* column")
    if field is None:
        if len(answers) > 1:
            raise _fail("mturk", path, f"several answers ({', '.join(sorted(answers))}); pass --field to pick one")
        field = next(iter(answers))
    if field not in answers:
        raise _fail("mturk", path, f"no answer {field!r}; answers are {', '.join(sorted(answers))}")
    options = [o for o in answers[field] if o]
    records: list[tuple[str, str, Any]] = []
    rows: list[int] = []
    cells: list[tuple[str, str, str]] = []
    dropped: list[DroppedRecord] = []
    multiple = False
    for i, row in enumerate(frame.to_dict("records")):
        line = i + 2  # the header is line 1
        u, w = row[unit_col], row["WorkerId"]
        if not w:
            raise _fail("mturk", path, "an assignment with no WorkerId", line)
        if row.get("AssignmentStatus", "") == "Rejected":
            cells.append((u, w, "skipped"))
            dropped.append(DroppedRecord(row.get("AssignmentId", u), "rejected assignment", line, w))
            continue
        if options:
            chosen = []
            for o in options:
                cell = str(row[f"Answer.{field}.{o}"]).strip().lower()
                if cell in _TRUE:
                    chosen.append(o)
                elif cell not in _FALSE:
                    raise _fail("mturk", path, f"Answer.{field}.{o} holds {row[f'Answer.{field}.{o}']!r}, "
                                "not true or false", line)
            multiple = multiple or len(chosen) > 1
            answer: Any = chosen
        else:
            answer = str(row[f"Answer.{field}"]).strip()
            answer = [answer] if answer else []
        if not answer:
            cells.append((u, w, "empty"))
            continue
        cells.append((u, w, "annotated"))
        records.append((u, w, answer))
        rows.append(line)
    kind = "set" if multiple else "nominal"
    values = [(u, w, frozenset(a) if multiple else a[0]) for u, w, a in records]
    if not values:
        raise _fail("mturk", path, f"no answer to {field!r} to compare")
    data = Annotations.from_records(values, source=str(path), row_numbers=rows)
    report = ImportReport.from_cells("mturk", str(path), items=frame[unit_col].tolist(), cells=cells,
                                     dropped=dropped, notes=(f"unit: {unit_col}, answer: Answer.{field}",))
    return Imported(tool="mturk", field=field, kind=kind, annotations=data, spans=None, report=report)


def _generic(path: Path, frame: Any, *, field: str | None, unit: str, coder: str, value: str) -> Imported:
    from accord.data import Annotations

    if field is not None:
        value = field
    missing = [c for c in (unit, coder, value) if c not in frame.columns]
    if missing:
        raise _fail("csv", path, f"no column {missing[0]!r} (pass unit=, coder=, value=); columns are "
                    f"{', '.join(frame.columns)}")
    cells: list[tuple[str, str, str]] = []
    values: list[tuple[str, str, str]] = []
    rows: list[int] = []
    for i, (u, c, v) in enumerate(zip(frame[unit], frame[coder], frame[value], strict=True)):
        if not u or not c:
            raise _fail("csv", path, f"the {'unit' if not u else 'coder'} is empty", i + 2)
        if v.strip():
            cells.append((u, c, "annotated"))
            values.append((u, c, v))
            rows.append(i + 2)
        else:
            cells.append((u, c, "empty"))
    data = Annotations.from_records(values, source=str(path), row_numbers=rows)
    report = ImportReport.from_cells("csv", str(path), items=frame[unit].tolist(), cells=cells)
    return Imported(tool="csv", field=value, kind="nominal", annotations=data, spans=None, report=report)
