"""Spreadsheets (.xlsx through openpyxl, .ods through odfpy) in the long and wide layouts.

The workbooks are written here with pandas ``to_excel`` from data defined in the test.
"""

import pandas as pd
import pytest

import accord
from accord import AccordError
from accord.importers import _spreadsheet as spreadsheet
from accord.importers import guess_tool, read_export

LONG = pd.DataFrame(
    {
        "unit": ["q1", "q1", "q2", "q2", "q3", "q4"],
        "coder": ["ann", "bob", "ann", "bob", "ann", "bob"],
        "label": ["yes", "yes", "no", None, "yes", "no"],
    }
)
WIDE = pd.DataFrame({"item": ["q1", "q2", "q3"], "ann": ["yes", "no", None], "bob": ["yes", "yes", "no"]})


@pytest.fixture(params=["xlsx", "ods"])
def book(request, tmp_path):
    f = tmp_path / f"round.{request.param}"
    engine = "openpyxl" if request.param == "xlsx" else "odf"
    with pd.ExcelWriter(f, engine=engine) as w:
        WIDE.to_excel(w, sheet_name="wide", index=False)
        LONG.to_excel(w, sheet_name="long", index=False)
    return f


def test_long_sheet_by_name_with_empty_and_unassigned(book):
    imp = spreadsheet.read(book, sheet="long", field="label")
    assert imp.kind == "nominal" and imp.field == "label"
    c = imp.report.counts
    assert c["ann"] == {"annotated": 3, "empty": 0, "skipped": 0, "unassigned": 1}
    assert c["bob"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert imp.annotations.n_entries == 5
    assert "sheet 'long'" in imp.report.notes[0]


def test_wide_sheet_by_index(book):
    imp = spreadsheet.read(book, sheet="0", layout="wide", unit="item")
    assert imp.report.counts["ann"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 1}
    direct = accord.read(book, unit="item", layout="wide")
    assert direct.n_entries == imp.annotations.n_entries == 5
    assert accord.alpha(direct).alpha == pytest.approx(accord.alpha(imp.annotations).alpha)


def test_set_values_and_empty_sets(tmp_path):
    f = tmp_path / "sets.xlsx"
    pd.DataFrame({"unit": [1, 1, 2, 2], "coder": ["a", "b", "a", "b"],
                  "value": ['["x", "y 😀"]', '["x"]', "[]", '["y 😀"]']}).to_excel(f, index=False)
    imp = spreadsheet.read(f)
    assert imp.kind == "set" and imp.default_distance == "masi-2006"
    assert imp.report.counts["a"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}
    assert frozenset({"x", "y \N{GRINNING FACE}"}) in set(imp.annotations.values)


def test_missing_sheet_and_bad_index_list_the_sheets(book):
    with pytest.raises(AccordError, match="no sheet named 'nope'; the sheets are 'wide', 'long'"):
        spreadsheet.read(book, sheet="nope")
    with pytest.raises(AccordError, match="sheet 5 is out of range: the file has 2 sheets"):
        accord.read(book, sheet=5)


def test_missing_column_is_named(book):
    with pytest.raises(AccordError, match="value"):
        spreadsheet.read(book, sheet="long")


def test_missing_extra_names_it(book, monkeypatch):
    def no_engine(*a, **k):
        raise ImportError("No module named 'openpyxl'")

    monkeypatch.setattr(pd, "ExcelFile", no_engine)
    with pytest.raises(AccordError, match=r"accord\[excel\]"):
        spreadsheet.read(book)


def test_not_a_spreadsheet(tmp_path):
    f = tmp_path / "fake.xlsx"
    f.write_text("unit,coder,value\n")
    with pytest.raises(AccordError, match="cannot read as a spreadsheet"):
        accord.read(f)


def test_guess_and_read_export(book):
    assert guess_tool(book) == "spreadsheet"
    imp = read_export(book, sheet="long", field="label")
    assert imp.tool == "spreadsheet"
