"""The canonical long span table, and document texts, read into :class:`SpanAnnotations`.

The canonical table has one row per span (CSV with a header, TSV, or JSON
Lines with one object per line):

==============  ===========================================================
column          meaning
==============  ===========================================================
``document``    the document id (required)
``coder``       the annotator (required)
``start``       first code point of the span, counting from 0 (Python
                ``str`` offsets, not bytes nor UTF-16 units)
``end``         one past the last code point (half-open ``[start, end)``)
``label``       the span's label
``fragments``   optional: ``"0 5;10 15"`` for a discontinuous span (start
                and end are then the first start and the last end)
``text``        optional: the covered text, checked against the document
                text when that is known
``attributes``  optional: the span's attributes, a JSON object
                ``{"name": value}`` (a list for several values), as
                ``accord import`` writes them (:mod:`accord.attributes`)
==============  ===========================================================

Document and coder ids are names: they lose surrounding spaces and an integral number its ``.0`` (``" d1"`` is
``d1``, ``1.0`` is ``1``); labels lose surrounding spaces.  Offsets and texts are never touched.  The file is
UTF-8 (a leading byte-order mark is dropped; other bytes are an error naming the line), and a cell may be as
long as the file.

A row whose ``start``, ``end`` and ``label`` are all empty (``null`` in JSON)
says the coder saw the document and marked nothing in it; a document with no
row for a coder was not seen by that coder (missing, not "no span").  This is
also the layout :meth:`SpanAnnotations.to_frame` writes.

Texts come from a folder of ``<document>.txt`` files (UTF-8, read as they are:
a ``"\r\n"`` stays two code points, as annotation tools count it; a leading
byte-order mark is dropped) or from a CSV / JSON Lines file with ``document``
and ``text`` columns.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from accord._shared.decode import json_text, read_utf8
from accord._shared.errors import AccordError, no_such_file, plural
from accord._shared.ids import canonical_id, clean_label
from accord.data._spans import Span, SpanAnnotations

__all__ = ["SPAN_COLUMNS", "export_spans", "is_span_table", "read_span_input", "read_spans", "read_texts"]

SPAN_COLUMNS = ("document", "coder", "start", "end", "label")


def _rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, row) for a CSV, TSV or JSON Lines file."""
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson", ".json"):
        with io.StringIO(read_utf8(path)[0], newline=None) as fh:
            for i, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                obj = json_text(line, f"{path}:{i}", invalid="not a JSON object ({msg}); JSON Lines expected")
                if not isinstance(obj, dict):
                    raise AccordError(f"{path}:{i}: expected a JSON object, got {type(obj).__name__}")
                yield i, obj
        return
    if suffix not in (".csv", ".tsv", ".txt"):
        raise AccordError(f"{path}: unknown span table format {suffix!r}; use .csv, .tsv or .jsonl")
    reader = _csv_rows(path, "\t" if suffix == ".tsv" else ",")
    header = next(reader)
    missing = [c for c in SPAN_COLUMNS if c not in header]
    if missing:
        raise AccordError(
            f"{path}:1: the header lacks column(s) {', '.join(missing)}; a span table has "
            f"{', '.join(SPAN_COLUMNS)} [, fragments, text]"
        )
    yield from reader  # type: ignore[misc]


def _csv_rows(path: Path, delimiter: str) -> Iterator[Any]:
    """The header's names, then (line number, row) of each row of a CSV or TSV file.

    The whole file is decoded first (bad bytes an error naming the line); a cell may be as long as the file
    (the csv module's limit of 131,072 characters a field is raised for this read, then restored)."""
    text = read_utf8(path)[0]
    with io.StringIO(text, newline="") as fh, _field_limit(len(text) + 1):
        reader = csv.DictReader(fh, delimiter=delimiter)
        try:
            names = [c.strip() for c in (reader.fieldnames or [])]
            for c in (*SPAN_COLUMNS, "fragments", "text", "attributes"):  # the columns read; others may repeat
                if names.count(c) > 1:
                    raise AccordError(f"{path}:1: the header names column {c!r} {names.count(c)} times; which one "
                                      "is meant?")
            reader.fieldnames = names
            yield names
            prev = 1
            for row in reader:
                yield prev + 1, row
                prev = reader.line_num
        except csv.Error as exc:
            raise AccordError(f"{path}:{reader.line_num}: cannot read as CSV ({exc})") from None


@contextlib.contextmanager
def _field_limit(n: int) -> Iterator[None]:
    old = csv.field_size_limit()
    csv.field_size_limit(max(old, min(n, sys.maxsize)))
    try:
        yield
    finally:
        csv.field_size_limit(old)


def _empty(x: Any) -> bool:
    return x is None or (isinstance(x, str) and x.strip() == "") or (isinstance(x, float) and x != x)


def _offset(x: Any, name: str, where: str) -> int:
    try:
        if isinstance(x, bool):
            raise ValueError
        v = int(x) if not isinstance(x, str) else int(x.strip())
    except (TypeError, ValueError):
        raise AccordError(f"{where}: {name} must be a non-negative integer; got {x!r}") from None
    if v < 0:
        raise AccordError(f"{where}: {name} must be a non-negative integer; got {v}")
    return v


def _attributes(x: Any, where: str) -> dict[str, Any]:
    """The ``attributes`` cell: a JSON object (text in CSV, an object in JSON Lines); lists become tuples."""
    if isinstance(x, str):
        try:
            x = json.loads(x)
        except ValueError:
            x = None
    def plain(v: Any) -> bool:
        return v is None or isinstance(v, (str, int, float, bool))

    if not isinstance(x, dict) or not all(plain(v) or (isinstance(v, list) and all(map(plain, v)))
                                          for v in x.values()):
        raise AccordError(f"{where}: the attributes field must be a JSON object of names and values, such as "
                          '{"Negated": true, "kb": ["Q1", "Q2"]}')
    return {str(k): tuple(v) if isinstance(v, list) else v for k, v in x.items()}


def _fragments(x: Any, where: str) -> tuple[tuple[int, int], ...]:
    frags = []
    for part in str(x).split(";"):
        bits = part.split()
        if len(bits) != 2:
            raise AccordError(f"{where}: fragments must look like '0 5;10 15'; got {x!r}")
        a, b = _offset(bits[0], "a fragment start", where), _offset(bits[1], "a fragment end", where)
        if b < a:
            raise AccordError(f"{where}: fragment [{a}, {b}) ends before it starts")
        frags.append((a, b))
    return tuple(sorted(frags))


def read_texts(path: str | os.PathLike[str]) -> dict[str, str]:
    """Document texts from a folder of ``<document>.txt`` files or a document/text CSV or JSON Lines file."""
    p = Path(path)
    if not p.exists():
        raise no_such_file(p, param="texts")
    if p.is_dir():
        # bytes decoded as they are: no newline translation (offsets count "\r\n" as two code points)
        return {f.stem: read_utf8(f)[0] for f in sorted(p.glob("*.txt"))}
    texts: dict[str, str] = {}
    for line, row in _rows_texts(p):
        doc, text = row.get("document"), row.get("text")
        if _empty(doc) or text is None:
            raise AccordError(f"{p}:{line}: a texts file needs the document and text fields")
        texts[str(canonical_id(doc))] = str(text)
    return texts


def _rows_texts(p: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    if p.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        yield from _rows(p)
        return
    reader = _csv_rows(p, "\t" if p.suffix.lower() == ".tsv" else ",")
    next(reader)
    yield from reader  # type: ignore[misc]


def read_spans(path: str | os.PathLike[str], *, texts: dict[str, str] | None = None) -> SpanAnnotations:
    """Read the canonical long span table (see the module docstring).

    Parameters
    ----------
    path : str or path-like
        A ``.csv``, ``.tsv`` or ``.jsonl`` file.
    texts : dict, optional
        Document texts (:func:`read_texts`); offsets and ``text`` columns are
        checked against them.

    Returns
    -------
    SpanAnnotations

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "spans.csv").write_text(
    ...     "document,coder,start,end,label\\nd1,ann1,0,5,PER\\nd1,ann2,0,5,PER\\nd2,ann2,,,\\n")
    >>> sa = read_spans(d / "spans.csv")
    >>> len(sa.spans), sorted(sa.seen)
    (2, [('d1', 'ann1'), ('d1', 'ann2'), ('d2', 'ann2')])
    """
    p = Path(path)
    if not p.exists():
        raise no_such_file(p)
    texts = dict(texts or {})
    spans: list[Span] = []
    seen: set[tuple[str, str]] = set()
    for line, row in _rows(p):
        where = f"{p}:{line}"
        for col in ("document", "coder"):
            if _empty(row.get(col)):
                raise AccordError(f"{where}: the {col} field is missing or empty")
        doc, coder = str(canonical_id(row["document"])), str(canonical_id(row["coder"]))
        seen.add((doc, coder))
        parts = [row.get(c) for c in ("start", "end", "label")]
        if all(_empty(x) for x in parts):
            continue
        for c, x in zip(("start", "end", "label"), parts, strict=True):
            if _empty(x):
                raise AccordError(
                    f"{where}: the {c} field is empty; a span needs start, end and label (leave all three "
                    "empty for a document the coder saw and marked nothing in)"
                )
        start, end = _offset(row["start"], "start", where), _offset(row["end"], "end", where)
        if end < start:
            raise AccordError(f"{where}: end {end} is before start {start}")
        frags = _fragments(row["fragments"], where) if not _empty(row.get("fragments")) else ()
        if frags and (frags[0][0] != start or frags[-1][1] != end):
            raise AccordError(f"{where}: fragments {row['fragments']!r} do not run from start {start} to end {end}")
        given = None if _empty(row.get("text")) else str(row["text"])
        doc_text = texts.get(doc)
        if doc_text is not None:
            if end > len(doc_text):
                raise AccordError(
                    f"{where}: span [{start}, {end}) of coder {coder!r} runs past the end of document {doc!r} "
                    f"({plural(len(doc_text), 'character')})"
                )
            covered = "".join(doc_text[a:b] for a, b in (frags or ((start, end),)))
            if given is not None and given != covered and given != doc_text[start:end]:
                raise AccordError(
                    f"{where}: the text field {given!r} does not match document {doc!r} at [{start}, {end}), "
                    f"which reads {covered!r} (offsets count code points)"
                )
        attrs = _attributes(row["attributes"], where) if not _empty(row.get("attributes")) else {}
        spans.append(Span(doc, start, end, clean_label(str(row["label"])), coder, fragments=frags, text=given,
                          attributes=attrs))
    if not seen:
        raise AccordError(f"{p}: no rows")
    return SpanAnnotations.from_spans(spans, texts=texts, seen=seen, source=str(p))


def _looks_canonical(path: Path) -> bool:
    """Whether *path* starts like the canonical span table (else it is a tool's export to guess)."""
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        first = next((line for line in fh if line.strip()), "")
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        try:
            obj = json.loads(first)
        except (ValueError, RecursionError):  # not JSON, nested too deep, a number too long
            return False
        return isinstance(obj, dict) and "document" in obj and "coder" in obj
    sep = "\t" if path.suffix.lower() == ".tsv" else ","
    header = [c.strip().strip('"') for c in first.rstrip("\r\n").split(sep)]
    return all(c in header for c in SPAN_COLUMNS)


def is_span_table(path: str | os.PathLike[str]) -> bool:
    """Whether *path* is read as the canonical span table (a file starting like one, or no file at all, which
    :func:`read_spans` reports) rather than as a tool's export (a folder, a zip, JSON a tool wrote...)."""
    path = Path(path)
    if not path.exists():
        return True
    return path.is_file() and _looks_canonical(path)


def export_spans(imported: Any, path: str | os.PathLike[str], texts: dict[str, str] | None = None) -> Any:
    """The import *imported* of *path* with *texts* added to (and overriding) the document texts it carries.

    Raises
    ------
    AccordError
        When the import's field holds values, not spans.
    """
    import dataclasses

    if imported.spans is None:
        what = "this export" if imported.field is None else f"field {imported.field!r} of this {imported.tool} export"
        head = f"{path}: {what} holds {imported.kind} values, not spans"
        raise AccordError(f"{head}; use accord.read_export and accord.alpha for it, or pick a span field with field=",
                          cli=f"{head}; use accord agree for it, or pick a span field with --field")
    if not texts:
        return imported
    data = imported.spans
    data = SpanAnnotations.from_spans(
        data.spans, texts={**data.texts, **texts}, seen=data.seen, tokens=data.tokens, source=data.source
    )
    return dataclasses.replace(imported, spans=data)


def read_span_input(
    path: str | os.PathLike[str],
    *,
    tool: str | None = None,
    field: str | None = None,
    texts: str | os.PathLike[str] | None = None,
    **options: Any,
) -> tuple[SpanAnnotations, Any]:
    """Spans from the canonical span table or from an annotation tool's export, as ``accord spans`` reads them.

    Parameters
    ----------
    path : path-like
        The canonical span table (see the module's documentation), or a tool's export.
    tool : str, optional
        The tool that wrote *path* (:func:`accord.importers.read_export`'s names); guessed when *path* is not
        a span table.
    field : str, optional
        The export's span control or layer; when omitted and the export holds several fields, the only one
        holding spans is read (said in the report's notes).
    texts : path-like, optional
        Document texts (:func:`read_texts`), added to (and overriding) those an export carries.
    **options
        The importer's options (:func:`accord.importers.read_export`).

    Returns
    -------
    (SpanAnnotations, ImportReport or None)
        The spans, and the import's report when *path* is an export.
    """
    path = Path(path)
    text_map = read_texts(texts) if texts is not None else None
    if tool is None and is_span_table(path):
        if field is not None or options:
            given = ", ".join((["field"] if field is not None else []) + sorted(options))
            flags = ", ".join((["--field"] if field is not None else []) + [f"--option {k}" for k in sorted(options)])
            tail = f"{path} is a span table, which has no fields or importer options; they read a tool's export"
            raise AccordError(f"{given}: {tail} (tool=)", cli=f"{flags}: {tail} (--from)")
        return read_spans(path, texts=text_map), None
    from accord.importers import read_export

    # tool None: guessed, the guess in the report's notes
    imported = read_export(path, tool=tool, field=field, fits="spans" if field is None else None, **options)
    imported = export_spans(imported, path, text_map)
    return imported.spans, imported.report
