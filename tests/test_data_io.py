"""Annotations constructors and accord.read: formats, missing values, duplicates, clear errors."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from accord import AccordError, Annotations, alpha
from accord.data._read import read

RECORDS = [("u1", "A", "x"), ("u1", "B", "x"), ("u2", "A", "y"), ("u2", "B", "z"), ("u3", "A", "x")]


def test_constructors_agree():
    df = pd.DataFrame(RECORDS, columns=["unit", "coder", "value"])
    from_tuples = Annotations.from_records(RECORDS)
    keys = ["unit", "coder", "value"]
    from_dicts = Annotations.from_records([dict(zip(keys, r, strict=True)) for r in RECORDS])
    from_pandas = Annotations.from_records(df)
    from_polars = Annotations.from_records(pl.from_pandas(df))
    from_lazy = Annotations.from_records(pl.from_pandas(df).lazy())
    from_matrix = Annotations.from_matrix([["x", "y", "x"], ["x", "z", None]], units=["u1", "u2", "u3"],
                                          coders=["A", "B"])
    ref = alpha(from_tuples).alpha
    for d in (from_dicts, from_pandas, from_polars, from_lazy, from_matrix):
        assert alpha(d).alpha == pytest.approx(ref, abs=1e-15)
        assert d.n_entries == 5


def test_units_by_coders_layout_and_dataframe_labels():
    df = pd.DataFrame({"A": [1, 2, 3], "B": [1, 2, 2]}, index=["u1", "u2", "u3"])
    d = Annotations.from_matrix(df, layout="units-by-coders")
    assert list(d.coders) == ["A", "B"] and list(d.units) == ["u1", "u2", "u3"]


def test_missing_values_of_every_kind_are_missing():
    d = Annotations.from_records(
        [("u1", "A", None), ("u1", "B", np.nan), ("u1", "C", pd.NA), ("u2", "A", 1), ("u2", "B", 2)]
    )
    assert d.n_missing == 3 and d.n_entries == 2
    assert d.values.dtype.kind == "i"


def test_duplicate_coder_unit_names_both_rows():
    recs = RECORDS + [("u1", "A", "w")]
    with pytest.raises(AccordError, match=r"coder 'A' gave two values to unit 'u1'.*row 1.*row 6"):
        Annotations.from_records(recs)
    first = Annotations.from_records(recs, duplicates="first")
    last = Annotations.from_records(recs, duplicates="last")
    assert first.to_frame().query("unit == 'u1' and coder == 'A'").value.item() == "x"
    assert last.to_frame().query("unit == 'u1' and coder == 'A'").value.item() == "w"
    with pytest.raises(AccordError, match="duplicates must be one of"):
        Annotations.from_records(recs, duplicates="sum")


def test_set_values_from_lists():
    d = Annotations.from_records([(1, "a", ["x", "y"]), (1, "b", ["y", "x"]), (2, "a", []), (2, "b", ["z"])])
    assert d.is_set_valued and len(d.values) == 3


@pytest.mark.parametrize("fmt", ["csv", "tsv", "jsonl", "parquet"])
def test_read_every_format_with_set_values(tmp_path, fmt):
    rows = [("u1", "A", ["x", "y"]), ("u1", "B", ["x"]), ("u2", "A", []), ("u2", "B", ["z"]),
            ("u3", "A", ["x"]), ("u3", "B", ["x"])]
    path = tmp_path / f"data.{fmt}"
    if fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        pd.DataFrame([(u, c, json.dumps(v)) for u, c, v in rows], columns=["item", "who", "labels"]).to_csv(
            path, sep=sep, index=False)
    elif fmt == "jsonl":
        path.write_text("\n".join(json.dumps({"item": u, "who": c, "labels": v}) for u, c, v in rows) + "\n")
    else:
        pd.DataFrame(rows, columns=["item", "who", "labels"]).to_parquet(path)
    d = read(path, unit="item", coder="who", value="labels")
    assert d.is_set_valued and d.n_entries == 6
    assert alpha(d, distance="jaccard").n_pairable == 6


def test_read_numbers_from_csv_are_numbers(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("unit,coder,value\n1,A,1\n1,B,2.5\n2,A,3\n2,B,\n")
    d = read(path)
    assert d.values.dtype.kind == "f" and d.n_missing == 1


@pytest.mark.parametrize(
    ("content", "kwargs", "message"),
    [
        ("", {}, "empty file"),
        ("unit,coder,value\n", {}, "no data rows"),
        ("unit,coder,label\n1,A,x\n", {"value": "value"}, "missing column 'value'"),
        ("unit,coder,value\n1,A,x\n1,A,y\n", {}, r"line 2\) and .* \(row 3|row 2.*row 3|line"),
        ("unit,coder,value\n1,A,x\n2,A,y\n", {}, "at least 2 coders"),
    ],
)
def test_read_errors_name_the_file(tmp_path, content, kwargs, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(AccordError, match=message):
        alpha(read(path, **kwargs))


def test_duplicate_in_file_names_file_lines(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("unit,coder,value\n1,A,x\n1,B,x\n1,A,y\n")
    with pytest.raises(AccordError, match=r"dup\.csv: coder 'A' gave two values to unit 1: 'x' \(row 2\) "
                                          r"and 'y' \(row 4\)"):
        read(path)


def test_bad_jsonl_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"unit": 1, "coder": "A", "value": 1}\n{oops\n')
    with pytest.raises(AccordError, match=r"bad\.jsonl, line 2: not valid JSON"):
        read(path)


def test_unknown_suffix_and_missing_file(tmp_path):
    with pytest.raises(AccordError, match="no such file"):
        read(tmp_path / "nope.csv")
    p = tmp_path / "x.dat"
    p.write_text("a")
    with pytest.raises(AccordError, match="cannot tell the format"):
        read(p)


def test_text_labels_that_look_like_numbers_are_never_merged(tmp_path):
    """"01" and "1" are different labels: a column becomes numeric only if every cell is a canonical number."""
    path = tmp_path / "labels.csv"
    path.write_text("unit,coder,value\n1,A,01\n1,B,1\n2,A,7\n2,B,7\n")
    d = read(path)
    assert sorted(d.values.tolist()) == ["01", "1", "7"]
    assert alpha(d).observed_disagreement > 0
    path.write_text("unit,coder,value\n1,A,1\n1,B,2\n2,A,3.5\n2,B,-0.5\n")
    assert read(path).values.dtype.kind == "f"


def test_distance_errors_name_the_file(tmp_path):
    path = tmp_path / "text.csv"
    path.write_text("unit,coder,value\n1,A,low\n1,B,high\n")
    with pytest.raises(AccordError, match=r"text\.csv: the interval distance needs the order of the text labels "
                                          r"\('high', 'low'\)"):
        alpha(read(path), distance="interval")


def test_wide_layout_equals_long(tmp_path):
    """One row per unit and a column per coder reads as the same data as the long layout."""
    from accord.datasets import load_krippendorff2011

    m = load_krippendorff2011().to_matrix()
    lines = ["item,A,B,C,D"] + [
        ",".join([f"u{u}"] + ["" if m[c, u] is None else str(m[c, u]) for c in range(4)]) for u in range(12)
    ]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join(lines) + "\n")
    wide = read(path, unit="item", layout="wide")
    assert (wide.n_units, wide.n_coders, wide.n_missing) == (12, 4, 7)
    assert round(alpha(wide).alpha, 3) == 0.743  # Krippendorff (2011), example C
    only_ab = read(path, unit="item", layout="wide", coders=["A", "B"])
    assert only_ab.n_coders == 2


def test_wide_layout_converts_all_coder_columns_together(tmp_path):
    """A coder column of numbers beside one with text labels must not split '1' into 1 and '1'."""
    path = tmp_path / "wide.csv"
    path.write_text("unit,A,B\n1,1,1\n2,2,x\n")
    d = read(path, layout="wide")
    assert sorted(map(str, d.values.tolist())) == ["1", "2", "x"] and len(d.values) == 3


@pytest.mark.parametrize(
    ("content", "kwargs", "message"),
    [
        ("item,A,B\n1,x,y\n", {"unit": "unit"}, "missing column 'unit'"),
        ("unit,A,B\n1,x,y\n", {"coders": ["A", "Z"]}, "missing coder column 'Z'"),
        ("unit,A,B\n1,x,y\n1,x,x\n", {}, r"unit '1' has two rows \(lines 2 and 3\)"),
        ("unit,A\n1,x\n", {"layout": "tall"}, "layout must be"),
    ],
)
def test_wide_layout_errors(tmp_path, content, kwargs, message):
    path = tmp_path / "w.csv"
    path.write_text(content)
    with pytest.raises(AccordError, match=message):
        read(path, **{"layout": "wide", **kwargs})


_cells = st.one_of(
    st.none(), st.just(float("nan")), st.sampled_from(["x", "y", "01", "1", " [\"a\", \"b\"] ", "[\"b\",\"a\"]", "[]",
                                                      "[1, [2, 3]]", "[not json", "[{\"k\": 1}]"]),
    st.integers(-2, 2), st.booleans(), st.floats(allow_nan=False, width=16),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
    st.lists(st.sampled_from(["a", "b"]), max_size=2).map(lambda v: np.array(v, dtype=object)),
    st.lists(st.lists(st.integers(0, 2), max_size=2), max_size=2),
)


@given(st.lists(_cells, min_size=1, max_size=30))
def test_parse_column_equals_parsing_each_cell(cells):
    """The value column is parsed once per distinct cell; the result is the cell-by-cell parse, kinds included
    (True stays apart from 1, a text "1" from the number)."""
    from accord.data._cells import _parse_cell, _parse_column

    col = pd.Series(cells, dtype=object)
    got, want = _parse_column(col).tolist(), col.map(_parse_cell).tolist()
    assert len(got) == len(want)
    def missing(x):
        return x is None or (isinstance(x, float) and x != x)

    for g, w in zip(got, want, strict=True):
        if missing(w):  # None or NaN alike (pandas' map turns None into NaN in a text result)
            assert missing(g)
            continue
        assert type(g) is type(w) and g == w


def test_a_wide_unit_twice_names_rows_of_parquet_and_lines_of_text(tmp_path):
    """A Parquet file has rows, not lines: the wide layout's duplicate unit names them as the file has them."""
    df = pd.DataFrame({"item": ["a", "a", "b"], "r1": [1, 2, 3], "r2": [1, 2, 3]})
    df.to_parquet(tmp_path / "w.parquet")
    with pytest.raises(AccordError, match=r"unit 'a' has two rows \(rows 1 and 2\)"):
        read(tmp_path / "w.parquet", unit="item", layout="wide")
    df.to_csv(tmp_path / "w.csv", index=False)
    with pytest.raises(AccordError, match=r"unit 'a' has two rows \(lines 2 and 3\)"):
        read(tmp_path / "w.csv", unit="item", layout="wide")
