"""The mutations of ``tests/_mutation.py`` (issue 29): functions of a file's bytes and a :class:`random.Random`.

Each returns the mutated bytes and a few words saying what changed, or raises :class:`NotApplicable` when it has
nothing to change in that file.  Damaging ones (byte flips, truncation, deleted, duplicated or repeated lines,
swapped JSON value types, huge numbers, a long cell, unicode traps, zip members) come first; then the
meaning-preserving ones (line endings, JSON layout, row order, CSV quoting, spaces around ids and labels, ids as
text, zip recompression, spreadsheet and Parquet rewrites); then the damage no reader can take whole (a document
cut short, a CoNLL token line deleted, a column read repeated under its header).  The catalogue, the fixtures and
the runner are ``tests/_mutation.py``'s.
"""

from __future__ import annotations

import io
import json
import random
import re
import zipfile
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _mutation import Target

# --- mutations of bytes -----------------------------------------------------------------------------------


class NotApplicable(Exception):
    """The mutation has nothing to change in this file (a JSON mutation on a CSV...)."""


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def flip_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if not data:
        raise NotApplicable
    b = bytearray(data)
    n = rng.randint(1, 8)
    for _ in range(n):
        i = rng.randrange(len(b))
        b[i] ^= rng.randint(1, 255)
    return bytes(b), f"{n} byte(s) flipped"


def truncate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if len(data) < 2:
        raise NotApplicable
    n = rng.randrange(1, len(data))
    return data[:n], f"truncated at byte {n} of {len(data)}"


def delete_line(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    lines = _lines(data)
    if len(lines) < 2:
        raise NotApplicable
    i = rng.randrange(len(lines))
    return b"".join(lines[:i] + lines[i + 1:]), f"line {i + 1} deleted"


def duplicate_line(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    lines = _lines(data)
    if not lines:
        raise NotApplicable
    i = rng.randrange(len(lines))
    line = lines[i] if lines[i].endswith(b"\n") else lines[i] + b"\n"
    return b"".join(lines[:i] + [line] + lines[i:]), f"line {i + 1} duplicated"


_NUMBER = re.compile(rb"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
HUGE = (b"1" + b"0" * 400, b"1e309", b"-1e400", b"99999999999999999999999", b"9223372036854775808", b"1e-400",
        b"nan", b"inf", b"4" * 5000)


def huge_number(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    spots = list(_NUMBER.finditer(data))
    big = rng.choice(HUGE)
    if not spots:
        raise NotApplicable
    m = rng.choice(spots)
    return data[:m.start()] + big + data[m.end():], f"number at byte {m.start()} replaced by {big[:24].decode()}"


def long_cell(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A cell of 140,000 characters (past the csv module's default field limit) inside a random line."""
    lines = _lines(data)
    if len(lines) < 2:
        raise NotApplicable
    i = rng.randrange(1, len(lines))
    ln = lines[i]
    j = rng.randrange(len(ln.rstrip(b"\r\n")) + 1)
    return b"".join(lines[:i] + [ln[:j] + b"x" * 140_000 + ln[j:]] + lines[i + 1:]), f"140,000 x in line {i + 1}"


def inflate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A block of 1 to 8 consecutive lines (or two such blocks) repeated until the file has 100 to 900 KB (under
    1 MB: the 5 s bound holds)."""
    lines = _lines(data)
    if len(lines) < 2:
        raise NotApplicable
    goal = rng.randint(100_000, 900_000)
    blocks = sorted(rng.sample(range(len(lines)), k=2 if rng.random() < 0.5 else 1), reverse=True)
    what = []
    for i in blocks:  # from the end, so that the first block's index holds
        block = b"".join(lines[i:i + rng.randint(1, 8)])
        if not block.endswith(b"\n"):
            block += b"\n"
        k = max(1, (goal - len(data)) // len(blocks) // len(block))
        lines = lines[:i] + [block * k] + lines[i:]
        what.append(f"lines {i + 1}.. ({len(block)} bytes) x {k:,}")
    new = b"".join(lines)
    return new, f"{'; '.join(what)} ({len(new):,} bytes)"


#: (name, bytes) inserted at a random place, or (name, None) for a whole-file transform.
TRAPS: tuple[tuple[str, bytes | None], ...] = (
    ("BOM at start", None), ("UTF-16 whole file", None), ("latin-1 byte", b"\xe9"), ("NUL", b"\x00"),
    ("RTL mark", "\u200f".encode()), ("RTL override", "\u202e".encode()),
    ("lone surrogate (UTF-8 encoded)", b"\xed\xa0\x80"), ("lone surrogate escape", b"\\ud800"),
    ("invalid UTF-8", b"\xff\xfe\xc3"), ("zero-width space", "\u200b".encode()), ("CR alone", b"\r"),
)


def unicode_trap(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    name, ins = rng.choice(TRAPS)
    if name == "BOM at start":
        return b"\xef\xbb\xbf" + data, name
    if name == "UTF-16 whole file":
        try:
            return data.decode("utf-8").encode("utf-16"), name
        except UnicodeDecodeError:
            raise NotApplicable from None
    assert ins is not None
    i = rng.randrange(len(data) + 1)
    return data[:i] + ins + data[i:], f"{name} at byte {i}"


def _json_docs(data: bytes) -> tuple[str, list[Any]]:
    """The JSON document of *data* ("json", [doc]) or its JSON lines ("jsonl", [docs]); NotApplicable else."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise NotApplicable from None
    try:
        return "json", [json.loads(text)]
    except ValueError:
        pass
    try:
        docs = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    except ValueError:
        raise NotApplicable from None
    if not docs:
        raise NotApplicable
    return "jsonl", docs


def _dump_docs(form: str, docs: list[Any], **kw: Any) -> bytes:
    if form == "json":
        return (json.dumps(docs[0], **kw) + "\n").encode("utf-8")
    kw.pop("indent", None)
    return "".join(json.dumps(d, **kw) + "\n" for d in docs).encode("utf-8")


def _slots(obj: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) below *obj*, containers included (the root excluded)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,), v
            yield from _slots(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield path + (i,), v
            yield from _slots(v, path + (i,))


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


_SWAPS: tuple[tuple[str, Callable[[random.Random], Any]], ...] = (
    ("list", lambda r: [r.choice([1, "a", None])]), ("empty list", lambda r: []), ("object", lambda r: {"x": 1}),
    ("empty object", lambda r: {}), ("true", lambda r: True), ("false", lambda r: False),
    ("number", lambda r: r.choice([0, -1, 1.5, 7])), ("huge number", lambda r: 10**30),
    ("string", lambda r: r.choice(["", "x", "1"])), ("null", lambda r: None),
)


def swap_json_type(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A value at a random key (or list position) replaced by one of another JSON type."""
    form, docs = _json_docs(data)
    di = rng.randrange(len(docs))
    slots = [p for p, _ in _slots(docs[di])]
    if not slots:
        raise NotApplicable
    # half the time, a value under a dict key (the schema's fields); otherwise any slot
    keyed = [p for p in slots if isinstance(p[-1], str)]
    path = rng.choice(keyed if keyed and rng.random() < 0.7 else slots)
    name, make = rng.choice(_SWAPS)
    _set(docs[di], path, make(rng))
    where = "/".join(str(p) for p in path)
    line = f"line {di + 1} " if form == "jsonl" else ""
    return _dump_docs(form, docs, ensure_ascii=False), f"{line}{where} -> {name}"


def drop_json_key(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    form, docs = _json_docs(data)
    di = rng.randrange(len(docs))
    keyed = [p for p, _ in _slots(docs[di]) if isinstance(p[-1], str)]
    if not keyed:
        raise NotApplicable
    path = rng.choice(keyed)
    obj = docs[di]
    for p in path[:-1]:
        obj = obj[p]
    del obj[path[-1]]
    return _dump_docs(form, docs, ensure_ascii=False), f"key {'/'.join(str(p) for p in path)} deleted"


# --- zips -------------------------------------------------------------------------------------------------


def _is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04"


def _members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i, z.read(i)) for i in z.infolist()]


def _rezip(members: list[tuple[zipfile.ZipInfo, bytes]], *, level: int | None = None,
           stored: bool = False) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info, content in members:
            new = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            new.external_attr = info.external_attr
            if stored or info.filename == "mimetype":  # ODF: mimetype first and stored
                new.compress_type = zipfile.ZIP_STORED
                z.writestr(new, content)
            else:
                new.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(new, content, compresslevel=level)
    return out.getvalue()


def zip_member(inner: Callable[[bytes, random.Random], tuple[bytes, str]]) -> Callable[..., tuple[bytes, str]]:
    """A mutation of one member's content, the zip written again."""

    def mutate(data: bytes, rng: random.Random) -> tuple[bytes, str]:
        if not _is_zip(data):
            raise NotApplicable
        members = _members(data)
        files = [k for k, (i, _) in enumerate(members) if not i.is_dir() and i.filename != "mimetype"]
        if not files:
            raise NotApplicable
        k = rng.choice(files)
        info, content = members[k]
        new, what = inner(content, rng)
        members[k] = (info, new)
        return _rezip(members), f"member {info.filename}: {what}"

    mutate.__name__ = f"zip_member_{inner.__name__}"
    return mutate


def zip_structure(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A member deleted, duplicated under its own name, or renamed; or the compressed bytes of one corrupted."""
    if not _is_zip(data):
        raise NotApplicable
    members = _members(data)
    k = rng.randrange(len(members))
    info, content = members[k]
    how = rng.choice(["delete", "duplicate", "rename", "corrupt"])
    if how == "delete":
        return _rezip(members[:k] + members[k + 1:]), f"member {info.filename} deleted"
    if how == "duplicate":
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile's "Duplicate name"
            return _rezip(members[:k + 1] + [(info, content + b"\n")] + members[k + 1:]), (
                f"member {info.filename} duplicated")
    if how == "rename":
        ren = zipfile.ZipInfo(info.filename + rng.choice(["~", ".bak", "/x", " "]), date_time=info.date_time)
        return _rezip(members[:k] + [(ren, content)] + members[k + 1:]), f"member {info.filename} renamed"
    # corrupt the compressed data of member k: flip bytes between its local header and the next
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        zi = z.infolist()[k]
    start = zi.header_offset + 30 + len(zi.filename.encode()) + len(zi.extra)
    if zi.compress_size == 0:
        raise NotApplicable
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        b[start + rng.randrange(zi.compress_size)] ^= rng.randint(1, 255)
    return bytes(b), f"compressed data of member {info.filename} corrupted"


# --- meaning-preserving ------------------------------------------------------------------------------------


def line_endings(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if b"\n" not in data:
        raise NotApplicable
    if b"\r\n" in data:
        return data.replace(b"\r\n", b"\n"), "CRLF -> LF"
    return data.replace(b"\n", b"\r\n"), "LF -> CRLF"


def _shuffle_keys(obj: Any, rng: random.Random) -> Any:
    if isinstance(obj, dict):
        items = list(obj.items())
        rng.shuffle(items)
        return {k: _shuffle_keys(v, rng) for k, v in items}
    if isinstance(obj, list):
        return [_shuffle_keys(v, rng) for v in obj]
    return obj


def json_reformat(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """The same JSON written again: another indentation, key order, separators and escaping."""
    form, docs = _json_docs(data)
    docs = [_shuffle_keys(d, rng) for d in docs]
    indent = rng.choice([None, 0, 1, 2, 4, "\t"])
    ascii_ = rng.random() < 0.5
    seps = rng.choice([(",", ":"), (", ", ": "), (" , ", " : ")])
    return _dump_docs(form, docs, indent=indent, ensure_ascii=ascii_, separators=seps), (
        f"keys shuffled, indent={indent!r}, ensure_ascii={ascii_}, separators={seps}")


def _csv_dialect(text: str, name: str) -> str:
    head = text.splitlines()[0]
    return "\t" if name.endswith((".tsv", ".tab")) or ("\t" in head and "," not in head) else ","


def _read_csv(data: bytes, name: str) -> tuple[list[list[str]], str, bool]:
    import csv

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotApplicable from None
    bom = text.startswith("\ufeff")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise NotApplicable
    delim = _csv_dialect(text, name)
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delim))
    return rows, delim, bom


def _write_csv(rows: list[list[str]], delim: str, bom: bool, quote_all: bool = False) -> bytes:
    import csv

    out = io.StringIO(newline="")
    w = csv.writer(out, delimiter=delim, lineterminator="\n", quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    w.writerows(rows)
    return (("\ufeff" if bom else "") + out.getvalue()).encode("utf-8")


def _is_table(name: str, data: bytes) -> bool:
    """A CSV or TSV table (a WebAnno TSV 3 file, ``#FORMAT=WebAnno TSV 3...``, is not one: its lines are text)."""
    return name.endswith(".csv") or (name.endswith(".tsv") and not data.lstrip(b"\xef\xbb\xbf").startswith(b"#FORMAT="))


def row_order(data: bytes, rng: random.Random, *, name: str = "") -> tuple[bytes, str]:
    """Rows of a table (header kept first), lines of JSON lines or of a brat .ann, records of a JSON list, shuffled."""
    if _is_table(name, data):
        rows, delim, bom = _read_csv(data, name)
        if len(rows) < 3:
            raise NotApplicable
        body = rows[1:]
        rng.shuffle(body)
        return _write_csv([rows[0]] + body, delim, bom), "data rows shuffled"
    if name.endswith((".jsonl", ".ann")):
        lines = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in _lines(data) if ln.strip()]
        if len(lines) < 2:
            raise NotApplicable
        rng.shuffle(lines)
        return b"".join(lines), "lines shuffled"
    if name.endswith(".json"):
        form, docs = _json_docs(data)
        if form != "json" or not isinstance(docs[0], list) or len(docs[0]) < 2:
            raise NotApplicable
        recs = list(docs[0])
        rng.shuffle(recs)
        return _dump_docs("json", [recs], indent=1, ensure_ascii=False), "records shuffled"
    raise NotApplicable


def csv_requote(data: bytes, rng: random.Random, *, name: str = "") -> tuple[bytes, str]:
    """The same table with every cell quoted (or minimal quoting)."""
    if not _is_table(name, data):
        raise NotApplicable
    rows, delim, bom = _read_csv(data, name)
    quote_all = rng.random() < 0.7
    return _write_csv(rows, delim, bom, quote_all), f"written again, quote_all={quote_all}"


def _spaces(rng: random.Random) -> tuple[str, str]:
    return rng.choice([(" ", ""), ("", " "), (" ", " "), ("  ", " "), ("\t", ""), (" ", "\t")])


def pad_cells(data: bytes, rng: random.Random, *, name: str = "", target: Target | None = None) -> tuple[bytes, str]:
    """Surrounding spaces added to the id and label cells (and id headers) of a table, or to the id and label
    strings of a JSON export."""
    assert target is not None
    if _is_table(name, data):
        if not (target.cols or target.header):
            raise NotApplicable
        rows, delim, bom = _read_csv(data, name)
        head = rows[0]
        idx = [i for i, h in enumerate(head) if h in target.cols]
        n = 0
        for r in rows[1:]:
            for i in idx:
                if i < len(r) and r[i].strip() and r[i] == r[i].strip() and rng.random() < 0.6:
                    lo, hi = _spaces(rng) if delim == "," else (" ", " ")
                    r[i] = lo + r[i] + hi
                    n += 1
        for i, h in enumerate(head):
            if h in target.header and rng.random() < 0.6:
                head[i] = " " + h + " "
                n += 1
        if not n:
            raise NotApplicable
        return _write_csv(rows, delim, bom), f"{n} id/label cells padded with spaces"
    if name.endswith((".json", ".jsonl")):
        form, docs = _json_docs(data)
        n = 0

        def pad(obj: Any, under: bool) -> Any:
            nonlocal n
            if isinstance(obj, dict):
                return {k: pad(v, k in target.keys) for k, v in obj.items()}
            if isinstance(obj, list):
                return [pad(v, under) for v in obj]
            if under and isinstance(obj, str) and obj.strip() and obj == obj.strip() and rng.random() < 0.6:
                n += 1
                lo, hi = _spaces(rng)
                return lo + obj + hi
            return obj

        docs = [pad(d, False) for d in docs]
        if not n:
            raise NotApplicable
        return _dump_docs(form, docs, ensure_ascii=False, indent=1 if form == "json" else None), (
            f"{n} id/label strings padded with spaces")
    raise NotApplicable


#: keys of a JSON export whose integral numbers are ids (of a unit, task, document or annotator).
JSON_ID_KEYS = frozenset({"id", "completed_by", "task", "_input_hash", "_task_hash", "user", "annotator", "unit",
                          "coder", "doc_key", "user_id"})


def id_form(data: bytes, rng: random.Random, *, name: str = "", target: Target | None = None) -> tuple[bytes, str]:
    """Integral ids of a JSON export written in another form, 7 as "7" or 7.0: ids are names, one canonical form
    (issue 29)."""
    if not name.endswith((".json", ".jsonl")):
        raise NotApplicable
    form, docs = _json_docs(data)
    n = 0

    def swap(obj: Any) -> Any:
        nonlocal n
        if isinstance(obj, dict):
            out = {}
            for k, v in obj.items():
                if k in JSON_ID_KEYS and isinstance(v, int) and not isinstance(v, bool) and rng.random() < 0.6:
                    n += 1
                    out[k] = str(v) if rng.random() < 0.5 else float(v)
                else:
                    out[k] = swap(v)
            return out
        if isinstance(obj, list):
            return [swap(v) for v in obj]
        return obj

    docs = [swap(d) for d in docs]
    if not n:
        raise NotApplicable
    return _dump_docs(form, docs, ensure_ascii=False, indent=1 if form == "json" else None), (
        f"{n} integral ids written as text or as x.0")


def repeat_header(data: bytes, rng: random.Random, *, name: str = "", target: Target | None = None) -> tuple[
        bytes, str]:
    """A column appended under the name of a column the command reads (an id, coder or value column), holding
    another column's cells: pandas would read it as ``NAME.1`` or ignore it."""
    assert target is not None
    used = set(target.cols) | set(target.header)
    if name.endswith(".xlsx"):
        import openpyxl

        wb = openpyxl.load_workbook(io.BytesIO(data))
        if not target.sheet:
            raise NotApplicable
        ws = wb[target.sheet]
        head = [c.value for c in next(ws.iter_rows(max_row=1))]
        names = [h for h in head if h in used]
        if not names:
            raise NotApplicable
        h = rng.choice(names)
        src = rng.randrange(len(head)) + 1
        col = ws.max_column + 1
        ws.cell(row=1, column=col, value=h)
        for r in range(2, ws.max_row + 1):
            ws.cell(row=r, column=col, value=ws.cell(row=r, column=src).value)
        out = io.BytesIO()
        wb.save(out)
        return out.getvalue(), f"column {h!r} repeated (cells of column {src})"
    if not _is_table(name, data):
        raise NotApplicable
    rows, delim, bom = _read_csv(data, name)
    names = [h for h in rows[0] if h in used]
    if not names:
        raise NotApplicable
    h = rng.choice(names)
    src = rng.randrange(len(rows[0]))
    rows = [rows[0] + [h]] + [r + [r[src] if src < len(r) else ""] for r in rows[1:]]
    return _write_csv(rows, delim, bom), f"column {h!r} repeated (cells of column {src + 1})"


def recompress(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    if not _is_zip(data):
        raise NotApplicable
    stored = rng.random() < 0.25
    level = None if stored else rng.choice([0, 1, 3, 6, 9])
    return _rezip(_members(data), level=level, stored=stored), ("stored" if stored else f"deflate level {level}")


# --- spreadsheets and Parquet: meaning-preserving rewrites through their libraries ---------------------------


def pad_xlsx(data: bytes, rng: random.Random, *, target: Target) -> tuple[bytes, str]:
    import openpyxl

    wb = openpyxl.load_workbook(io.BytesIO(data))
    ws = wb[target.sheet] if target.sheet and not target.sheet.isdigit() else wb.worksheets[int(target.sheet or 1) - 1]
    rows = list(ws.iter_rows())
    head = [c.value for c in rows[0]]
    n = 0
    for r in rows[1:]:
        for c, h in zip(r, head, strict=False):
            if h in target.cols and isinstance(c.value, str) and c.value.strip() and rng.random() < 0.6:
                lo, hi = _spaces(rng)
                c.value = lo + c.value + hi
                n += 1
    for c in rows[0]:
        if c.value in target.header and rng.random() < 0.6:
            c.value = " " + c.value + " "
            n += 1
    if not n:
        raise NotApplicable
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue(), f"{n} id/label cells padded with spaces (openpyxl)"


_ODS_CELL = re.compile(r'office:string-value="([^"]*)"><text:p>([^<]*)</text:p>')


def pad_ods(data: bytes, rng: random.Random, *, target: Target) -> tuple[bytes, str]:
    """Spaces around the string cells of every row but each table's first, written as LibreOffice does
    (the attribute keeps them, the paragraph holds them as ``<text:s/>``)."""
    members = _members(data)
    k = next(i for i, (m, _) in enumerate(members) if m.filename == "content.xml")
    xml = members[k][1].decode("utf-8")
    n = 0
    parts = re.split(r"(<table:table-row>.*?</table:table-row>)", xml, flags=re.S)
    first = True
    for j, part in enumerate(parts):
        if part.startswith("<table:table"):
            if part.startswith("<table:table-row") and first:
                first = False
                continue

            def sub(m: re.Match[str]) -> str:
                nonlocal n
                if not m.group(1).strip() or rng.random() >= 0.6:
                    return m.group(0)
                n += 1
                return f'office:string-value=" {m.group(1)} "><text:p><text:s/>{m.group(2)}<text:s/></text:p>'

            parts[j] = _ODS_CELL.sub(sub, part)
        elif "<table:table " in part:
            first = True
    if not n:
        raise NotApplicable
    members[k] = (members[k][0], "".join(parts).encode("utf-8"))
    return _rezip(members), f"{n} string cells padded with spaces"


def parquet_rewrite(data: bytes, rng: random.Random, *, target: Target, pad: bool = False) -> tuple[bytes, str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(data))
    what = []
    if pad:
        cols = {}
        n = 0
        for name in table.column_names:
            col = table.column(name).to_pylist()
            if name in target.cols and pa.types.is_string(table.schema.field(name).type):
                new = []
                for v in col:
                    if isinstance(v, str) and v.strip() and rng.random() < 0.6:
                        lo, hi = _spaces(rng)
                        v = lo + v + hi
                        n += 1
                    new.append(v)
                col = new
            cols[name] = pa.array(col, type=table.schema.field(name).type)
        if not n:
            raise NotApplicable
        table = pa.table(cols)
        what.append(f"{n} id/label cells padded with spaces")
    else:
        order = list(range(table.num_rows))
        rng.shuffle(order)
        table = table.take(pa.array(order))
        what.append("rows shuffled")
    comp = rng.choice(["snappy", "gzip", "zstd", "none"])
    out = io.BytesIO()
    pq.write_table(table, out, compression=comp, row_group_size=rng.choice([1, 3, 1000]))
    return out.getvalue(), ", ".join(what) + f", written with compression={comp}"


# --- damage that cannot be read as it stands (a success is a silent partial read) ---------------------------

#: members of a spreadsheet that hold its cells.
_CELL_MEMBERS = re.compile(r"^(content\.xml|xl/worksheets/[^/]+\.xml|xl/sharedStrings\.xml|xl/workbook\.xml)$")


def _cut(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """*data* cut inside its last non-blank byte's reach: what is left cannot be the whole document."""
    end = len(data.rstrip())
    if end < 2:
        raise NotApplicable
    n = rng.randrange(1, end)
    return data[:n], f"truncated at byte {n} of {len(data)}"


def truncate_structured(data: bytes, rng: random.Random, *, name: str = "", target: Target | None = None) -> tuple[
        bytes, str]:
    """A JSON document, a DUCView XML file, or the XML part of a spreadsheet that holds the cells read, truncated."""
    if name.endswith((".xlsx", ".ods")):
        members = _members(data)
        parts = target.parts if target is not None else ()
        ks = [k for k, (i, _) in enumerate(members)
              if (i.filename in parts if parts else _CELL_MEMBERS.match(i.filename))]
        if not ks:
            raise NotApplicable
        k = rng.choice(ks)
        new, what = _cut(members[k][1], rng)
        members[k] = (members[k][0], new)
        return _rezip(members), f"member {members[k][0].filename}: {what}"
    if name.endswith((".pyr", ".pan")):
        return _cut(data, rng)
    if name.endswith(".json"):
        form, _ = _json_docs(data)
        if form == "json":
            return _cut(data, rng)
    raise NotApplicable


def drop_token(data: bytes, rng: random.Random, *, name: str = "", target: Target | None = None) -> tuple[
        bytes, str]:
    """One token line outside every mention deleted from a CoNLL or CoNLL-U file (the files no longer align)."""
    if not name.endswith((".conll", ".conllu")):
        raise NotApplicable
    lines = _lines(data)
    spots = []
    for i, ln in enumerate(lines):
        text = ln.decode("utf-8", "replace").rstrip("\r\n")
        if not text.strip() or text.startswith("#"):
            continue
        cols = text.split("\t") if name.endswith(".conllu") else text.split()
        if name.endswith(".conllu"):
            if len(cols) == 10 and cols[0].isdigit() and "Entity=" not in cols[9]:
                spots.append(i)
        elif cols and cols[-1] in ("-", "_"):
            spots.append(i)
    if not spots:
        raise NotApplicable
    i = rng.choice(spots)
    return b"".join(lines[:i] + lines[i + 1:]), f"token line {i + 1} (in no mention) deleted"
