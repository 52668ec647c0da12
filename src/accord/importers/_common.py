"""What the JSON-based importers share: reading JSON / JSONL with record positions, errors that name
the tool, file, record, line and field, cell bookkeeping, span checks and building the result.

Not public: each tool's module is the API.
"""

from __future__ import annotations

import functools
import gc
import json
import math
import os
import re
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from accord._shared.errors import AccordError, Message, no_such_file, plural, words
from accord._shared.ids import canonical_id, clean_label
from accord._shared.tool_errors import fail, quote
from accord.importers import Imported, ValueKind
from accord.importers._offsets import Utf16Index
from accord.importers._report import CellState, DroppedRecord, ImportReport

__all__ = [
    "Cells",
    "TextCheck",
    "Tidy",
    "bad_bytes",
    "check",
    "fail",
    "folder_entries",
    "gc_paused",
    "iter_json_records",
    "iter_jsonl",
    "json_type",
    "place",
    "quote",
    "json_loads",
    "opt",
    "reanchor_span",
    "symlink_note",
    "walk_files",
]

#: The importer arguments the command line gives by a flag of their own; every other is ``--option NAME=VALUE``.
OPTION_FLAGS = {"tool": "--from", "field": "--field", "sheet": "--sheet", "offsets": "--offsets"}
_NO_VALUE = object()


def opt(name: str, value: Any = _NO_VALUE) -> Message:
    """An importer argument as a message names it: ``field=`` or ``offsets='codepoints'`` in Python, ``--field``
    or ``--offsets codepoints`` on the command line, ``--option follow_symlinks=true`` for an option without a
    flag of its own.

    Examples
    --------
    >>> m = opt("follow_symlinks", True)
    >>> str(m), m.cli
    ('follow_symlinks=True', '--option follow_symlinks=true')
    >>> m = opt("field")
    >>> str(m), m.cli
    ('field=', '--field')
    """
    if value is _NO_VALUE:
        api = f"{name}="
        cli = OPTION_FLAGS.get(name) or f"--option {name}=..."
    else:
        api = f"{name}={value!r}"
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        cli = f"{OPTION_FLAGS[name]} {shown}" if name in OPTION_FLAGS else f"--option {name}={shown}"
    return Message(api, cli=cli)


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


def _json_error(tool: str, source: str | Path, exc: json.JSONDecodeError, line: int | None = None) -> AccordError:
    return fail(tool, source, f"not valid JSON ({exc.msg}, column {exc.colno})", line=line or exc.lineno)


def bad_bytes(tool: str, source: str | Path, exc: UnicodeDecodeError, data: bytes | None = None) -> AccordError:
    """The error for bytes that are not UTF-8: the file, the line (counted in *data*, else in the file) and the
    byte."""
    line = None
    if data is None:
        try:
            data = Path(source).read_bytes()
        except OSError:
            data = None
        if data is not None:
            if data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as found:
                exc = found
            else:
                data = None
    if data is not None and exc.object is not None and len(exc.object) == len(data):
        line = data.count(b"\n", 0, exc.start) + 1
    at = f" at byte {exc.start}" if line is None else ""
    return fail(tool, source, f"not UTF-8 text ({exc.reason}{at}); save the file as UTF-8", line=line)


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
        raise bad_bytes(tool, path, exc) from None
    except (RecursionError, ValueError) as exc:
        raise json_trouble(tool, path, exc) from None


def read_text(tool: str, source: str | Path, data: bytes | None = None) -> str:
    """The text of the file *source* (or of its bytes *data*: a member of a zip), UTF-8 with an optional byte
    order mark; anything else is an :class:`AccordError` naming the tool and the file."""
    try:
        raw = Path(source).read_bytes() if data is None else data
    except FileNotFoundError:
        raise no_such_file(source) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise bad_bytes(tool, source, exc, raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw) from None


# --- JSON that Python cannot hold: nesting past the recursion limit, integers past the digit limit ----------

def _int_digits_limit() -> int:
    return sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0


def json_trouble(tool: str, source: str | Path, exc: BaseException, *, text: str | None = None, start: int = 0,
                 line: int | None = None, first_line: int = 1) -> AccordError:
    """The :class:`AccordError` for JSON Python's decoder gave up on: nested too deep (``RecursionError``) or an
    integer of more digits than Python converts (``ValueError``); *text* (from *start*, on line *first_line*)
    locates the number and its line when *line* is not known."""
    if isinstance(exc, RecursionError):
        return fail(tool, source, "JSON nested too deeply to read (more levels of arrays and objects than Python's "
                    f"recursion limit, {sys.getrecursionlimit()}); no annotation tool writes that", line=line)
    limit = _int_digits_limit()
    m = re.search(r"value has (\d+) digits", str(exc))
    digits = f"{int(m.group(1)):,} digits" if m else f"more than {limit:,} digits"
    if text is not None and limit:
        found = re.compile(r"\d{" + str(limit + 1) + ",}").search(text, start)
        if found is not None:
            digits = f"{found.end() - found.start():,} digits"
            if line is None:
                line = first_line + text.count("\n", start, found.start())
    return fail(tool, source, f"a number of {digits}, more than the {limit:,} Python reads; no annotation tool "
                "writes that", line=line)


def json_loads(tool: str, source: str | Path, text: str, *, line: int | None = None) -> Any:
    """``json.loads`` with every failure an :class:`AccordError` naming the tool, the file and the line."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(tool, source, exc, line=None if line is None else line + exc.lineno - 1) from None
    except (RecursionError, ValueError) as exc:
        raise json_trouble(tool, source, exc, text=text, line=None, first_line=line or 1) from None


# --- folders: symbolic links inside an export are not followed unless asked ------------------------------

def folder_entries(folder: Path, pattern: str = "*", *, follow_symlinks: bool, skipped: list[Path] | None = None,
                   dirs: bool = False) -> list[Path]:
    """The regular files (or, *dirs*, the folders) of *folder* matching *pattern*, sorted.

    A symbolic link is left out (and appended to *skipped*) unless *follow_symlinks*: a link inside an export
    could pull any file of the machine into a table or a report meant for sharing.
    """
    out = []
    for p in sorted(folder.glob(pattern)):
        if p.is_symlink() and not follow_symlinks:
            if skipped is not None and (p.is_dir() if dirs else p.is_file()):
                skipped.append(p)
            continue
        if p.is_dir() if dirs else p.is_file():
            out.append(p)
    return out


def walk_files(folder: Path, *, follow_symlinks: bool, skipped: list[Path] | None = None) -> list[Path]:
    """Every regular file under *folder*, sorted; symbolic links (files and folders) are left out and appended to
    *skipped* unless *follow_symlinks* (then each real folder is entered once, so a link loop ends)."""
    out: list[Path] = []
    seen: set[str] = set()
    for root, dirnames, filenames in os.walk(folder, followlinks=follow_symlinks):
        real = os.path.realpath(root)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        keep = []
        for d in sorted(dirnames):
            p = Path(root, d)
            if p.is_symlink() and not follow_symlinks:
                if skipped is not None:
                    skipped.append(p)
            else:
                keep.append(d)
        dirnames[:] = keep
        for f in filenames:
            p = Path(root, f)
            if p.is_symlink() and not follow_symlinks:
                if skipped is not None and p.exists():
                    skipped.append(p)
            elif p.is_file():
                out.append(p)
    return sorted(out)


def symlink_note(folder: Path, skipped: list[Path]) -> Message | None:
    """The report's note on the symbolic links :func:`folder_entries` / :func:`walk_files` left out."""
    if not skipped:
        return None
    names = sorted(p.relative_to(folder).as_posix() if p.is_relative_to(folder) else str(p) for p in skipped)
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return words(f"{plural(len(names), 'symbolic link')} inside the export folder not followed ({shown}): a link can "
                 "pull in a file from outside the export; pass ", opt("follow_symlinks", True), " to read them")


def symlink_refused(tool: str, path: Path) -> AccordError:
    """The error for a file the export needs that is a symbolic link."""
    return fail(tool, path, words("is a symbolic link, not followed inside an export folder (it can pull in a file "
                                  "from outside the export); pass ", opt("follow_symlinks", True), " to read it"))


_WS = re.compile(r"[ \t\n\r]*")


def iter_json_records(tool: str, path: Path, text: str | None = None) -> Iterator[tuple[int, int, Any]]:
    """``(index, line, record)`` for each element of a top-level JSON array (index 1-based).

    The array is decoded element by element (``JSONDecoder.raw_decode``), so each
    record's line is known without a second pass over the text; a top-level
    object is one record.
    """
    if text is None:
        if path.is_dir():
            raise fail(tool, path, words("is a folder; this tool's export is one JSON file (is it another tool's "
                                         "export? choose it with ", opt("tool"), ")"))
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
                    raise fail(tool, path, words("the file holds JSON lines (one object per line), not the JSON "
                                                 "array this tool's export is; is it another tool's export? (choose "
                                                 "it with ", opt("tool"), ")"),
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
    except (RecursionError, ValueError) as exc:
        if isinstance(exc, AccordError):
            raise
        at = text.count("\n", 0, i) + 1
        raise json_trouble(tool, path, exc, text=text, start=i, first_line=at,
                           line=at if isinstance(exc, RecursionError) else None) from None


def iter_jsonl(tool: str, path: Path, lines: Iterable[str] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, object)`` for each non-blank line of a JSONL file."""
    fh = None
    if lines is None:
        if path.is_dir():
            raise fail(tool, path, words("is a folder; this tool's export is one JSON lines file (is it another "
                                         "tool's export? choose it with ", opt("tool"), ")"))
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
                    raise fail(tool, path, words("the file is a JSON array, not the JSON lines (one object per line) "
                                                 "this tool's export is; is it another tool's export? (choose it "
                                                 "with ", opt("tool"), ")"),
                               line=i) from None
                raise fail(tool, path, f"not valid JSON ({exc.msg})", line=i) from None
            except (RecursionError, ValueError) as exc:
                raise json_trouble(tool, path, exc, line=i) from None
            if isinstance(obj, list):
                raise fail(tool, path, words("the file is a JSON array, not the JSON lines (one object per line) this "
                                             "tool's export is; is it another tool's export? (choose it with ",
                                             opt("tool"), ")"), line=i)
            if not isinstance(obj, dict):
                raise fail(tool, path, f"each line must be a JSON object, found a {type(obj).__name__}", line=i)
            yield i, obj
    except UnicodeDecodeError as exc:
        raise bad_bytes(tool, path, exc) from None
    finally:
        if fh is not None:
            fh.close()


# --- JSON value types: each importer's validation layer checks what it reads against the tool's schema ------

def json_type(value: Any) -> str:
    """A JSON value as a message says what was found.

    >>> json_type(True), json_type(None), json_type(1.5), json_type("x"), json_type([1, 2]), json_type({"a": 1})
    ('true', 'null', 'the number 1.5', "the text 'x'", 'a list (2 items)', 'an object (keys: a)')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {_short(value)}"
    if isinstance(value, str):
        return f"the text {quote(value)}"
    if isinstance(value, list):
        return f"a list ({plural(len(value), 'item')})"
    if isinstance(value, dict):
        keys = ", ".join(map(str, list(value)[:5])) + (", ..." if len(value) > 5 else "")
        return f"an object (keys: {keys})" if value else "an empty object"
    return type(value).__name__


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


#: The JSON types :func:`check` knows: a test and the words a message uses for it.
JSON_TYPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "text": (lambda x: isinstance(x, str), "text"),
    "number": (_is_number, "a number"),
    "integer": (lambda x: isinstance(x, int) and not isinstance(x, bool), "an integer"),
    "boolean": (lambda x: isinstance(x, bool), "true or false"),
    "list": (lambda x: isinstance(x, list), "a list"),
    "object": (lambda x: isinstance(x, dict), "an object"),
    "id": (lambda x: isinstance(x, str) or _is_number(x), "an id (text or a number)"),
    "label": (lambda x: isinstance(x, str) or _is_number(x), "a label (text or a number)"),
}


#: The items of a list, as a message says them (``a list of ids (text or numbers)``).
_ITEMS = {"text": "text", "number": "numbers", "integer": "integers", "boolean": "true or false", "list": "lists",
          "object": "objects", "id": "ids (text or numbers)", "label": "labels (text or numbers)"}


def check(tool: str, source: str | Path, value: Any, expected: str, *, field: str, null: bool = False,
          record: Any = None, line: int | None = None, coder: Any = None) -> Any:
    """*value*, when its JSON type is *expected*; else the :class:`AccordError` naming the tool, the file, the
    line, the record and the field, what was expected and what was found.

    *expected* is a name of :data:`JSON_TYPES`, several joined by ``|`` (``"text|list"``), or ``"list of X"``
    (a list whose every item is an X, the item named ``field[i]``).  *null*: a JSON null (or an absent key,
    read as None) passes too.

    Examples
    --------
    >>> check("prodigy", "db.jsonl", ["a"], "list of text", field="accept")
    ['a']
    >>> check("prodigy", "db.jsonl", True, "list of text", field="accept", line=3)
    Traceback (most recent call last):
    ...
    accord.AccordError: prodigy export db.jsonl, line 3, field 'accept': expected a list of text, found true
    """
    if value is None and null:
        return value
    outer, _, inner = expected.partition(" of ")
    names = outer.split("|")
    if not any(JSON_TYPES[n][0](value) for n in names):
        said = " or ".join(JSON_TYPES[n][1] for n in names)
        if inner:
            said += " of " + " or ".join(_ITEMS[n] for n in inner.split("|"))
        raise fail(tool, source, f"expected {said}, found {json_type(value)}",
                   record=record, line=line, field=field, coder=coder)
    if inner and isinstance(value, list):
        for i, item in enumerate(value):
            check(tool, source, item, inner, field=f"{field}[{i}]", record=record, line=line, coder=coder)
    return value


def place(kw: dict[str, Any]) -> dict[str, Any]:
    """The place a message names (record, line, annotator), without the field: for :func:`check` on a part
    of the field."""
    return {k: v for k, v in kw.items() if k != "field"}


_check_json = check  # for reanchor_span, whose parameter ``check`` is a TextCheck


@dataclass
class Tidy:
    """Ids and category labels in the one form every reader gives them (:mod:`accord._shared.ids`), counting the
    values whose surrounding whitespace was removed, for the import report."""

    stripped: int = 0

    def id(self, x: Any) -> Any:
        """*x* as an id: text without surrounding whitespace, an integral number as its digits."""
        y = canonical_id(x)
        if isinstance(x, str) and y != x:
            self.stripped += 1
        return y

    def label(self, x: Any) -> Any:
        """*x* as a category label: text without surrounding whitespace (a number unchanged)."""
        if isinstance(x, str):
            y = x.strip()
            self.stripped += y != x
            return y
        return clean_label(x)


def _short(x: Any) -> str:
    """A value for a message: a number of more than 24 digits shortened (``123456789012... (400 digits)``)."""
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) >= 10**24:
        digits = len(str(abs(x)))
        return f"{str(x)[:12]}... ({plural(digits, 'digit')})"
    text = repr(x)
    return text if len(text) <= 80 else text[:77] + "..."


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
    check: TextCheck | None = None,
) -> tuple[int, int, bool]:
    """Check a span's offsets against its document and return code-point ``(start, end, fell_back)``.

    *utf16*: the tool counts UTF-16 code units (JavaScript); the offsets are
    re-anchored to code points.  When the export also gives the covered text and
    it matches the code-point reading but not the UTF-16 one, the code-point
    reading is used and ``fell_back`` is true (the caller says so in a note).
    Offsets outside the text, splitting a character, or a covered text that
    matches no reading are an :class:`AccordError`.

    *check*: a covered text that differs from the document's only in whitespace (leading or trailing
    whitespace, or a run of whitespace written as one space, as Label Studio's browser selection gives it)
    is accepted, the offsets kept, and counted in *check*; without *check* it is an error too.
    """
    kw = {"record": record, "line": line, "field": field, "coder": coder}
    _check_json(tool, source, covered, "text", null=True, field=f"{field}.text" if field else "text",
                record=record, line=line, coder=coder)
    if not isinstance(start, int) or not isinstance(end, int) or isinstance(start, bool) or isinstance(end, bool):
        raise fail(tool, source, f"span offsets must be integers; got start={_short(start)}, end={_short(end)}",
                   **kw)
    if start < 0 or end < start:
        raise fail(tool, source, f"span offsets [{_short(start)}, {_short(end)}) are not a stretch of text", **kw)
    if max(abs(start), abs(end)) >= 2**62:  # past any text, and past what the offset index holds
        raise fail(tool, source, f"span [{_short(start)}, {_short(end)}) lies outside the text ({len(text)} "
                   "characters)", **kw)
    if not utf16:
        if end > len(text):
            raise fail(tool, source, f"span [{start}, {end}) lies outside the text "
                                     f"({plural(len(text), 'character')})", **kw)
        if covered is not None and text[start:end] != covered:
            if check is not None and check.same_but_whitespace(text[start:end], covered):
                return start, end, False
            raise fail(
                tool, source, f"span [{start}, {end}) covers {quote(text[start:end])} in the document but the export "
                f"gives its text as {quote(covered)}", **kw,
            )
        return start, end, False
    ix = index if index is not None else Utf16Index(text)
    s, e = ix.to_codepoint(start), ix.to_codepoint(end)
    ok16 = s is not None and e is not None
    if ok16 and (covered is None or text[s:e] == covered):
        return s, e, False  # type: ignore[return-value]
    if covered is not None and end <= len(text) and text[start:end] == covered:
        return start, end, True
    if check is not None and covered is not None:
        if ok16 and check.same_but_whitespace(text[s:e], covered):
            return s, e, False  # type: ignore[return-value]
        if end <= len(text) and check.same_but_whitespace(text[start:end], covered):
            return start, end, True
    if not ok16:
        if max(start, end) > ix.utf16_length:
            raise fail(
                tool, source, f"span [{start}, {end}) lies outside the text ({ix.utf16_length} UTF-16 code units)",
                **kw,
            )
        raise fail(tool, source, f"span [{start}, {end}) splits a character (UTF-16 surrogate pair)", **kw)
    raise fail(
        tool, source, f"span [{start}, {end}) (UTF-16) covers {quote(text[s:e])} in the document but the export "
        f"gives its text as {quote(covered)}", **kw,
    )


_SPACE = re.compile(r"\s+")


@dataclass
class TextCheck:
    """Span texts that differ from the document only in whitespace, accepted by :func:`reanchor_span` and
    counted here for the import report.

    Label Studio's region ``text`` is the browser's selection: it may carry a space before or after the
    offsets' stretch, and writes a run of spaces as one (https://github.com/HumanSignal/label-studio/issues/3078:
    ``"Berlin,  Germany"`` at the offsets, ``"Berlin, Germany"`` as the text); the offsets are the span.
    """

    whitespace: int = 0
    examples: list[str] = field(default_factory=list)

    def same_but_whitespace(self, document: str, covered: str) -> bool:
        """Whether *covered* is *document* but for whitespace; counted when it is."""
        if _SPACE.sub(" ", document).strip() != _SPACE.sub(" ", covered).strip():
            return False
        self.whitespace += 1
        if len(self.examples) < 3:
            self.examples.append(f"{quote(covered)} for {quote(document)}")
        return True

    def note(self) -> str | None:
        """The report's note, or None when every text matched exactly."""
        if not self.whitespace:
            return None
        return (f"{plural(self.whitespace, 'span')} whose text differs from the document's only in whitespace "
                "(leading or "
                f"trailing spaces, a run of spaces written as one) were read at their offsets, e.g. "
                f"{'; '.join(self.examples)}")


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
    tidy: Tidy = field(default_factory=Tidy)
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
            stripped=self.tidy.stripped,
        )

    def annotations(self) -> Any:
        from accord.data._annotations import Annotations

        if not self.values:
            raise AccordError(f"{self.tool} export {self.source}: no annotated values to compare")
        return Annotations.from_records(self.values, source=self.source, row_numbers=self.rows or None)

    def imported(self, field_name: str | None, kind: ValueKind) -> Imported:
        if kind == "nominal":
            answers = [v for _, _, v in self.values if isinstance(v, str)]
            distinct = len(set(answers))
            if len(answers) >= 10 and distinct > len(answers) / 2:
                self.notes.append(
                    f"{field_name or 'the field'!r}: {distinct} distinct values in "
                    f"{plural(len(answers), 'answer')} look like "
                    "free text, not categories (some exports write a one-line text answer as they write a label: "
                    "Label Studio's JSON-MIN, doccano's sequence-to-sequence projects); agreement on free text "
                    "compares strings exactly"
                )
        return Imported(
            tool=self.tool, field=field_name, kind=kind, annotations=self.annotations(), spans=None,
            report=self.report(),
        )


def coder_name(value: Any) -> str | None:
    """An annotator's name from an id, a string or an object with ``email`` / ``username`` / ``id``; a number as
    its canonical id (:func:`accord._shared.ids.canonical_id`: ``7``, ``7.0`` and ``"7"`` are one user), text as it is
    (the caller's :class:`Tidy` strips and counts it)."""
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        for key in ("email", "username", "name", "id"):
            if value.get(key) not in (None, ""):
                return _user(value[key])
        return None
    return _user(value)


def _user(value: Any) -> str:
    return value if isinstance(value, str) else str(canonical_id(value))
