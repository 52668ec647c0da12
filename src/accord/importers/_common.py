"""What the JSON-based importers share: reading JSON / JSONL with record positions, errors that name
the tool, file, record, line and field, cell bookkeeping, span checks and building the result.

Not public: each tool's module is the API.
"""

from __future__ import annotations

import functools
import gc
import json
import math
import re
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from accord.errors import AccordError
from accord.importers import Imported, ValueKind
from accord.importers.offsets import Utf16Index
from accord.importers.report import CellState, DroppedRecord, ImportReport

__all__ = [
    "Cells",
    "fail",
    "gc_paused",
    "iter_json_records",
    "iter_jsonl",
    "reanchor_span",
]


F = TypeVar("F", bound=Callable[..., Any])


def gc_paused(func: F) -> F:
    """Run *func* with the cyclic garbage collector paused (restored after, even on error).

    An export becomes millions of small dicts and lists at once; each allocation
    burst sets off a collection that walks every object already built, which made
    reading a 100,000-task Label Studio export four times slower.  Parsed JSON has
    no reference cycles, so pausing the collector while an importer runs loses
    nothing; reference counting still frees memory as usual.
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if was_enabled:
                gc.enable()

    return wrapper  # type: ignore[return-value]


def fail(
    tool: str,
    source: str | Path,
    message: str,
    *,
    record: Any = None,
    line: int | None = None,
    field: str | None = None,
    coder: Any = None,
) -> AccordError:
    """An :class:`AccordError` naming the tool, the file, the record, its line, the field and the coder."""
    where = [f"{tool} export {source}"]
    if line is not None:
        where.append(f"line {line}")
    if record is not None:
        where.append(f"record {record}")
    if coder is not None:
        where.append(f"annotator {coder}")
    if field is not None:
        where.append(f"field {field!r}")
    return AccordError(f"{', '.join(where)}: {message}")


def _json_error(tool: str, source: str | Path, exc: json.JSONDecodeError, line: int | None = None) -> AccordError:
    return fail(tool, source, f"not valid JSON ({exc.msg}, column {exc.colno})", line=line or exc.lineno)


def load_json(tool: str, path: Path, stream: IO[str] | None = None) -> Any:
    """The whole file as one JSON document."""
    try:
        if stream is not None:
            return json.load(stream)
        with open(path, encoding="utf-8-sig") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise _json_error(tool, path, exc) from None
    except UnicodeDecodeError as exc:
        raise fail(tool, path, f"not UTF-8 text ({exc.reason})") from None


def read_text(tool: str, source: str | Path, data: bytes | None = None) -> str:
    """The text of the file *source* (or of its bytes *data*: a member of a zip), UTF-8 with an optional byte
    order mark; anything else is an :class:`AccordError` naming the tool and the file."""
    try:
        return (Path(source).read_bytes() if data is None else data).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(tool, source, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


_WS = re.compile(r"[ \t\n\r]*")


def iter_json_records(tool: str, path: Path, text: str | None = None) -> Iterator[tuple[int, int, Any]]:
    """``(index, line, record)`` for each element of a top-level JSON array (index 1-based).

    The array is decoded element by element (``JSONDecoder.raw_decode``), so each
    record's line is known without a second pass over the text; a top-level
    object is one record.
    """
    if text is None:
        if path.is_dir():
            raise fail(tool, path, "is a folder; this tool's export is one JSON file (is it another tool's export? "
                       "choose it with --from)")
        text = read_text(tool, path)
    decoder = json.JSONDecoder()
    i = _WS.match(text, 0).end()  # type: ignore[union-attr]
    if i < len(text) and text[i] == "\ufeff":
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
    if i >= len(text):
        raise fail(tool, path, "empty file")
    try:
        if text[i] != "[":
            obj, end = decoder.raw_decode(text, i)
            rest = _WS.match(text, end).end()  # type: ignore[union-attr]
            if rest < len(text):
                if isinstance(obj, dict) and text[rest] == "{":
                    raise fail(tool, path, "the file holds JSON lines (one object per line), not the JSON array "
                               "this tool's export is; is it another tool's export? (choose it with --from)",
                               line=text.count("\n", 0, rest) + 1)
                raise json.JSONDecodeError("Extra data", text, rest)
            if not isinstance(obj, dict):
                raise fail(tool, path, f"expected a JSON array of records, found a JSON {type(obj).__name__}")
            yield 1, text.count("\n", 0, i) + 1, obj
            return
        i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        line, last, index = 1, 0, 0
        if i < len(text) and text[i] == "]":
            return
        while True:
            obj, end = decoder.raw_decode(text, i)
            line += text.count("\n", last, i)
            last = i
            index += 1
            yield index, line, obj
            i = _WS.match(text, end).end()  # type: ignore[union-attr]
            if i >= len(text):
                raise json.JSONDecodeError("Expecting ',' delimiter", text, i)
            if text[i] == "]":
                break
            if text[i] != ",":
                raise json.JSONDecodeError("Expecting ',' delimiter", text, i)
            i = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        end = _WS.match(text, i + 1).end()  # type: ignore[union-attr]
        if end < len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    except json.JSONDecodeError as exc:
        raise _json_error(tool, path, exc) from None


def iter_jsonl(tool: str, path: Path, lines: Iterable[str] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, object)`` for each non-blank line of a JSONL file."""
    fh = None
    if lines is None:
        if path.is_dir():
            raise fail(tool, path, "is a folder; this tool's export is one JSON lines file (is it another tool's "
                       "export? choose it with --from)")
        fh = open(path, encoding="utf-8-sig")  # noqa: SIM115
        lines = fh
    try:
        for i, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                if raw.lstrip().startswith("["):
                    raise fail(tool, path, "the file is a JSON array, not the JSON lines (one object per line) "
                               "this tool's export is; is it another tool's export? (choose it with --from)",
                               line=i) from None
                raise fail(tool, path, f"not valid JSON ({exc.msg})", line=i) from None
            if isinstance(obj, list):
                raise fail(tool, path, "the file is a JSON array, not the JSON lines (one object per line) this "
                           "tool's export is; is it another tool's export? (choose it with --from)", line=i)
            if not isinstance(obj, dict):
                raise fail(tool, path, f"each line must be a JSON object, found a {type(obj).__name__}", line=i)
            yield i, obj
    except UnicodeDecodeError as exc:
        raise fail(tool, path, f"not UTF-8 text ({exc.reason})") from None
    finally:
        if fh is not None:
            fh.close()


def reanchor_span(
    tool: str,
    source: str | Path,
    text: str,
    start: Any,
    end: Any,
    *,
    covered: str | None,
    utf16: bool,
    index: Utf16Index | None = None,
    record: Any = None,
    line: int | None = None,
    field: str | None = None,
    coder: Any = None,
) -> tuple[int, int, bool]:
    """Check a span's offsets against its document and return code-point ``(start, end, fell_back)``.

    *utf16*: the tool counts UTF-16 code units (JavaScript); the offsets are
    re-anchored to code points.  When the export also gives the covered text and
    it matches the code-point reading but not the UTF-16 one, the code-point
    reading is used and ``fell_back`` is true (the caller says so in a note).
    Offsets outside the text, splitting a character, or a covered text that
    matches no reading are an :class:`AccordError`.
    """
    kw = {"record": record, "line": line, "field": field, "coder": coder}
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        raise fail(tool, source, f"span offsets must be integers; got start={start!r}, end={end!r}", **kw)
    if start < 0 or end < start:
        raise fail(tool, source, f"span offsets [{start}, {end}) are not a stretch of text", **kw)
    if not utf16:
        if end > len(text):
            raise fail(tool, source, f"span [{start}, {end}) lies outside the text ({len(text)} characters)", **kw)
        if covered is not None and text[start:end] != covered:
            raise fail(
                tool, source, f"span [{start}, {end}) covers {text[start:end]!r} in the document but the export "
                f"gives its text as {covered!r}", **kw,
            )
        return start, end, False
    ix = index if index is not None else Utf16Index(text)
    s, e = ix.to_codepoint(start), ix.to_codepoint(end)
    ok16 = s is not None and e is not None
    if ok16 and (covered is None or text[s:e] == covered):
        return s, e, False  # type: ignore[return-value]
    if covered is not None and end <= len(text) and text[start:end] == covered:
        return start, end, True
    if not ok16:
        if max(start, end) > ix.utf16_length:
            raise fail(
                tool, source, f"span [{start}, {end}) lies outside the text ({ix.utf16_length} UTF-16 code units)",
                **kw,
            )
        raise fail(tool, source, f"span [{start}, {end}) splits a character (UTF-16 surrogate pair)", **kw)
    raise fail(
        tool, source, f"span [{start}, {end}) (UTF-16) covers {text[s:e]!r} in the document but the export gives "
        f"its text as {covered!r}", **kw,
    )


@dataclass
class Cells:
    """Bookkeeping shared by the importers: items, cell states, values, drops, notes."""

    tool: str
    source: str
    items: list[Hashable] = field(default_factory=list)
    cells: dict[tuple[Hashable, str], CellState] = field(default_factory=dict)
    values: list[tuple[Hashable, str, Any]] = field(default_factory=list)
    rows: list[int] = field(default_factory=list)
    dropped: list[DroppedRecord] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    coders: set[str] = field(default_factory=set)
    _item_set: set[Hashable] = field(default_factory=set)

    def item(self, item: Hashable) -> None:
        """Record an item of the export (whether or not anyone annotated it)."""
        if item not in self._item_set:
            self._item_set.add(item)
            self.items.append(item)

    def has(self, item: Hashable, coder: str) -> bool:
        return (item, coder) in self.cells

    def cell(self, item: Hashable, coder: str, state: CellState, value: Any = None, *, line: int | None = None) -> None:
        """Set one cell; ``annotated`` and ``empty`` cells of set/span kinds may carry a value.

        A number that is not finite (NaN, Infinity: Python's JSON reads both) is no answer agreement can use:
        the cell is read as skipped and the record counted as dropped with that reason, never annotated.
        """
        if state == "annotated" and isinstance(value, float) and not math.isfinite(value):
            self.drop(item, f"the answer {value!r} is not a finite number (read as skipped)", line=line, coder=coder)
            state, value = "skipped", None
        self.item(item)
        self.coders.add(coder)
        self.cells[(item, coder)] = state
        if state != "skipped" and value is not None:
            self.values.append((item, coder, value))
            self.rows.append(line or 0)

    def drop(self, record: Any, reason: str, *, line: int | None = None, coder: Any = None) -> None:
        self.dropped.append(DroppedRecord(str(record), reason, line, None if coder is None else str(coder)))

    def report(self) -> ImportReport:
        return ImportReport.from_cells(
            self.tool,
            self.source,
            items=self.items,
            cells=((i, c, s) for (i, c), s in self.cells.items()),
            coders=self.coders,
            dropped=self.dropped,
            notes=self.notes,
        )

    def annotations(self) -> Any:
        from accord.data import Annotations

        if not self.values:
            raise AccordError(f"{self.tool} export {self.source}: no annotated values to compare")
        return Annotations.from_records(self.values, source=self.source, row_numbers=self.rows or None)

    def imported(self, field_name: str | None, kind: ValueKind) -> Imported:
        if kind == "nominal":
            answers = [v for _, _, v in self.values if isinstance(v, str)]
            distinct = len(set(answers))
            if len(answers) >= 10 and distinct > len(answers) / 2:
                self.notes.append(
                    f"{field_name or 'the field'!r}: {distinct} distinct values in {len(answers)} answers look like "
                    "free text, not categories (some exports write a one-line text answer as they write a label: "
                    "Label Studio's JSON-MIN, doccano's sequence-to-sequence projects); agreement on free text "
                    "compares strings exactly"
                )
        return Imported(
            tool=self.tool, field=field_name, kind=kind, annotations=self.annotations(), spans=None,
            report=self.report(),
        )


def coder_name(value: Any) -> str | None:
    """An annotator's name from an id, a string or an object with ``email`` / ``username`` / ``id``."""
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        for key in ("email", "username", "name", "id"):
            if value.get(key) not in (None, ""):
                return str(value[key])
        return None
    return str(value)
