"""The generic CSV importer's column-wise reading (``crowd._generic_plain``: pandas' C parser for files without
quotes, one call of the csv module for quoted files, numpy on the codes) against the reference loop
(``crowd._read_rows`` then ``crowd._generic``, the csv module record by record), and the long table ``accord
import`` writes (``long_table_text``, by distinct cells) against csv's writer row by row.

No timing here (the house has no timed tests): that both are linear is in benchmarks/bench_importers.py.  These
tests check that the fast paths give exactly what the straightforward code gives, on seeded random files of a
few thousand rows with every deviation the format allows (BOM, CRLF, tabs, blank records, records that stop
before MTurk's Approve / Reject columns, blank values, spaces kept around labels), and that on every file the
reference refuses the fast path steps aside so that the reference words the error.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord import AccordError
from accord.cli._importing import _cell, long_table_text
from accord.importers import Imported, read_export
from accord.importers import _crowd as crowd

DATA = Path(__file__).parent / "data" / "importers"
UNITS = ("q", "Q", "\u00e9t\u00e9", " spaced ", "a b", "\N{GRINNING FACE}", "0", "1.0")
CODERS = ("ann", "bob", " cy", "d\u00e9", "7")
VALUES = ("yes", "no", "maybe", " yes", "1", "1.0", "\u00e9", "", "  ", "\u00a0")  # the last three: empty


def _reference(path: Path, **columns: str | None) -> Imported:
    header, rows, repeated = crowd._read_rows("csv", path)
    return crowd._generic(path, header, rows, repeated, field=columns.get("field"), unit=columns.get("unit") or "unit",
                          coder=columns.get("coder") or "coder", value=columns.get("value") or "value")


def _same(fast: Imported, ref: Imported) -> None:
    assert (fast.tool, fast.field, fast.kind) == (ref.tool, ref.field, ref.kind)
    assert fast.report == ref.report
    a, b = fast.annotations, ref.annotations
    for name in ("unit_index", "coder_index", "value_index", "_row_numbers"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    for name in ("units", "coders", "values"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tolist() == y.tolist(), name
        assert [type(v) for v in x.tolist()] == [type(v) for v in y.tolist()], name
    assert (a.n_missing, a.source) == (b.n_missing, b.source)


def _random_table(rng: random.Random, n_units: int, *, review: bool) -> tuple[list[str], list[list[str]]]:
    header = ["note", "unit", "coder", "value"] + (["Approve", "Reject"] if review else [])
    rows = []
    for i in range(n_units):
        unit = f"{rng.choice(UNITS)}{i}"
        for c in rng.sample(CODERS, rng.randint(1, len(CODERS))):
            rows.append([f"n{rng.random():.3f}", unit, c, rng.choice(VALUES)] + (["", ""] if review else []))
    rng.shuffle(rows)
    return header, rows


def _write_plain(path: Path, header: list[str], rows: list[list[str]], rng: random.Random, *, sep: str,
                 newline: str, bom: bool, review: bool) -> None:
    """Plain text (no quotes), with blank records and review columns left out at random."""
    lines = [sep.join(header)]
    for row in rows:
        if rng.random() < 0.03:
            lines.append(rng.choice(["", "   ", sep * (len(header) - 1), f" {sep} ", "\u00a0"]))
        if review and rng.random() < 0.5:
            row = row[:-2]  # MTurk writes Approve and Reject in the header only
        lines.append(sep.join(row))
    text = newline.join(lines) + (newline if rng.random() < 0.8 else "")
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))


def _write_quoted(path: Path, header: list[str], rows: list[list[str]], rng: random.Random, *, sep: str,
                  newline: str, bom: bool, review: bool, quoting: int) -> None:
    """Through csv's writer (fields holding separators, quotes and line breaks), with blank records and review
    columns left out at random, as _write_plain."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf, delimiter=sep, lineterminator=newline, quoting=quoting)
    w.writerow(header)
    for row in rows:
        if rng.random() < 0.03:
            buf.write(rng.choice(["", "   ", sep * (len(header) - 1), '""' + sep + '" "']) + newline)
        row = list(row)
        if rng.random() < 0.2:
            row[0] = rng.choice(['a,b', 'say "hi"', "two\nlines", "cr\r\nlf", '"', "tab\tin", ""])
        if rng.random() < 0.05:
            row[3] = rng.choice(['x,"y"', "multi\nline value", '""'])
        w.writerow(row[:-2] if review and rng.random() < 0.5 else row)
    text = buf.getvalue()
    text = text if rng.random() < 0.8 else text[: -len(newline)]  # the last record's line end is optional
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode("utf-8"))


@pytest.mark.parametrize("quoting", ["none", "minimal", "all"])
@pytest.mark.parametrize("seed", range(8))
def test_column_reading_equals_the_reference_loop(tmp_path: Path, seed: int, quoting: str) -> None:
    rng = random.Random(seed)
    review = seed % 3 == 0
    header, rows = _random_table(rng, rng.choice((200, 1500)), review=review)
    sep = "\t" if seed % 4 == 1 else ","
    path = tmp_path / ("judgments.tsv" if sep == "\t" else "judgments.csv")
    kw = {"sep": sep, "newline": "\r\n" if seed % 2 else "\n", "bom": seed % 5 == 0, "review": review}
    if quoting == "none":
        _write_plain(path, header, rows, rng, **kw)
    else:
        _write_quoted(path, header, rows, rng, quoting=csv.QUOTE_ALL if quoting == "all" else csv.QUOTE_MINIMAL,
                      **kw)
        assert b'"' in path.read_bytes()
    assert crowd._generic_plain(path, field=None, unit="unit", coder="coder", value="value") is not None
    _same(crowd.read(path, tool="csv"), _reference(path))
    # other columns named: the note as the value, the field option overriding value=
    _same(crowd.read(path, tool="csv", value="note"), _reference(path, value="note"))
    _same(crowd.read(path, tool="csv", field="note", value="unit"), _reference(path, field="note", value="unit"))


def test_a_medium_file_with_many_units(tmp_path: Path) -> None:
    rng = random.Random(2026)
    lines = ["unit,coder,value"]
    for i in range(20_000):
        for c in ("a", "b", "c"):
            if rng.random() < 0.9:
                lines.append(f"u{rng.randrange(10**9)}-{i},{c},{rng.choice('ABCDE ')}")
    path = tmp_path / "judgments.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert crowd._generic_plain(path, field=None, unit="unit", coder="coder", value="value") is not None
    _same(crowd.read(path, tool="csv"), _reference(path))


csv_text = st.lists(st.sampled_from(['a', 'b', ' ', ',', '"', '\n', '\r\n', '\t', '\u00e9', '\u00a0']),
                    max_size=4).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(csv_text, st.sampled_from(CODERS[:3]), csv_text), min_size=1, max_size=12),
       st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]), st.booleans())
def test_any_quoted_file_reads_as_the_reference_reads_it(tmp_path_factory, rows, quoting, crlf) -> None:
    path = tmp_path_factory.mktemp("csv") / "judgments.csv"
    buf = io.StringIO(newline="")
    csv.writer(buf, quoting=quoting, lineterminator="\r\n" if crlf else "\n").writerows([["unit", "coder", "value"],
                                                                                          *map(list, rows)])
    path.write_bytes(buf.getvalue().encode("utf-8"))
    try:
        ref = _reference(path)
    except AccordError as exc:
        with pytest.raises(AccordError) as err:
            crowd.read(path, tool="csv")
        assert str(err.value) == str(exc)
        return
    _same(crowd.read(path, tool="csv"), ref)


REFUSED = {
    "duplicate": ("unit,coder,value\nq1,a,x\nq2,a,y\nq1,a,z\n", r"line 4, field 'coder': coder a has two judgments "
                  r"of unit q1 \(lines 2 and 4\)"),
    "empty unit": ("unit,coder,value\nq1,a,x\n ,b,y\n", r"line 3, field 'unit': the unit is empty"),
    "empty coder": ("unit,coder,value\nq1,a,x\nq1,\u00a0,y\n", r"line 3, field 'coder': the coder is empty"),
    "too many fields": ("unit,coder,value\nq1,a,x\nq1,b,y,z\n", r"line 3: 4 fields where the header has 3"),
    "too few fields": ("unit,coder,value\nq1,a,x\nq1,b\n", r"line 3: 2 fields where the header has 3"),
    "blank record too wide": ("unit,coder,value\nq1,a,x\n,,,,\nq1,b,y,z\n", r"line 4: 4 fields where"),
    "no value": ("unit,coder,value\nq1,a,\nq1,b, \n", r"no value to compare in column 'value'"),
    "no record": ("unit,coder,value\n", r"no value to compare"),
    "header only, no newline": ("unit,coder,value", r"no value to compare"),
    "empty header": ("\nq1,a,x\n", r"empty file: no header"),
    "header twice": ("unit,coder,value,unit\nq1,a,x,y\n", r"line 1, field 'unit': the header names 'unit' twice"),
    "missing column": ("item,coder,value\nq1,a,x\n", r"line 1, field 'unit': no column 'unit'"),
    "not UTF-8": (b"unit,coder,value\nq1,a,\xff\n", r"not UTF-8 text"),
    "lone CR": ("unit,coder,value\rq1,a,x\rq1,b,y\r", None),
    "quote inside a field": ('unit,coder,value\nq1,a,x"y\nq2,a,"z\nq1,b,w"\n', None),  # csv: text, not quoting
    "quote not closed": ('unit,coder,value\nq1,a,"x\n', r"not a readable CSV"),
    "text after a closing quote": ('unit,coder,value\nq1,a,"x"y\n', r"line 2: not a readable CSV"),
    "quoted, a duplicate": ('unit,coder,value\n"q1","a","x\ny"\n"q1","a","z"\n', r"line 4, field 'coder': coder a"),
    "quoted, too many fields": ('"unit","coder","value"\n"q1","a","x",""\n', r"line 2: 4 fields where"),
    "NUL": ("unit,coder,value\nq1,a,x\0\n", None),  # csv reads a NUL since Python 3.11; pandas may not
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_fast_path_leaves_every_other_file_to_the_reference(tmp_path: Path, case: str) -> None:
    content, message = REFUSED[case]
    path = tmp_path / "judgments.csv"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    assert crowd._generic_plain(path, field=None, unit="unit", coder="coder", value="value") is None
    if message is None:  # read by the reference: quotes inside fields, carriage returns
        _same(crowd.read(path, tool="csv"), _reference(path))
        return
    with pytest.raises(AccordError, match=message) as err:
        crowd.read(path, tool="csv")
    with pytest.raises(AccordError) as ref:
        _reference(path)
    assert str(err.value) == str(ref.value)


# --- the long table ----------------------------------------------------------------------------------------------

def _rows_reference(imported: Imported, sep: str) -> str:
    """``accord import``'s writing as it was: the frame row by row through csv's writer, each cell through _cell
    and the spreadsheet-formula rule (csv_cell)."""
    from accord._shared.sanitize import csv_row

    frame = imported.to_frame()
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow(csv_row(frame.columns))
    for row in frame.itertuples(index=False):
        w.writerow(csv_row([_cell(x) for x in row]))
    return buf.getvalue()


@pytest.mark.parametrize("sep", [",", "\t"])
@pytest.mark.parametrize("seed", range(4))
def test_long_table_equals_the_row_by_row_writer_on_generic_imports(tmp_path: Path, seed: int, sep: str) -> None:
    rng = random.Random(seed)
    header, rows = _random_table(rng, 300, review=False)
    for row in rows:  # cells csv must quote: separators, quotes, line ends
        if rng.random() < 0.2:
            row[3] = rng.choice(['a,b', 'say "hi"', "two\nlines", "tab\there", "cr\rhere", '"'])
    path = tmp_path / "judgments.csv"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows([header, *rows])
    imported = crowd.read(path, tool="csv")
    assert long_table_text(imported, sep=sep) == _rows_reference(imported, sep)


cells = st.one_of(
    st.text(max_size=6), st.integers(-3, 3), st.floats(allow_nan=False, width=16), st.booleans(),
    st.frozensets(st.one_of(st.text(max_size=3), st.integers(0, 3)), max_size=3),
)


@settings(max_examples=80)
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(CODERS), cells), min_size=1, max_size=60))
def test_long_table_equals_the_row_by_row_writer_on_any_values(records: list) -> None:
    from accord.data._annotations import Annotations
    from accord.importers._report import ImportReport

    seen, unique = set(), []
    for u, c, v in records:
        if (u, c) not in seen:
            seen.add((u, c))
            unique.append((f"u{u}" if u % 3 else u, c, v))  # units of two types: the table is not sortable
    try:
        data = Annotations.from_records(unique)
    except AccordError:  # labels the model refuses (a bool beside numbers, mixed sets...): nothing to write
        return
    report = ImportReport.from_cells("csv", "x.csv", items=[], cells=[])
    imported = Imported(tool="csv", field="value", kind="nominal", annotations=data, spans=None, report=report)
    for sep in (",", "\t"):
        assert long_table_text(imported, sep=sep) == _rows_reference(imported, sep)


@pytest.mark.parametrize(
    ("export", "tool", "field"),
    [
        ("prodigy/ner.jsonl", "prodigy", None),
        ("labelstudio/export.json", "label-studio", "topic"),
        ("labelstudio/export.json", "label-studio", "sentiment"),
    ],
)
def test_long_table_equals_the_row_by_row_writer_on_tool_exports(export: str, tool: str, field: str | None) -> None:
    imported = read_export(DATA / export, tool=tool, field=field)
    for sep in (",", "\t"):
        text = long_table_text(imported, sep=sep)
        assert text == _rows_reference(imported, sep)
        assert text.count("\n") == len(imported.to_frame()) + 1


def test_long_table_of_spans_with_missing_labels_and_offsets() -> None:
    from accord.importers._report import ImportReport
    from accord.spans import Span, SpanAnnotations

    spans = tuple(Span(document=f"d{i % 7}", coder=f"c{i % 3}", start=i, end=i + 2, label=["A", "B,C", 'q"'][i % 3])
                  for i in range(40))
    sa = SpanAnnotations(spans, texts={f"d{k}": "x,\n" * 20 for k in range(7)},
                         seen=frozenset((f"d{k}", f"c{j}") for k in range(9) for j in range(3)))
    imported = Imported(tool="brat", field=None, kind="spans", annotations=None, spans=sa,
                        report=ImportReport.from_cells("brat", "x", items=[], cells=[]))
    text = long_table_text(imported)
    assert text == _rows_reference(imported, ",")
    assert any(line.endswith(",,,,") for line in text.splitlines())  # documents seen and left unmarked
