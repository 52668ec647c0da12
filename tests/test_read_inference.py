"""Issue 28 (read what people keep) and issue 29 (table readers): the files people keep, read with no flags.

Each file below is written here in a shape people keep (other column names, semicolons, a BOM and CRLF line
ends, extra columns, wide sheets, pandas index dumps, a crowd platform's TSV, JSON lines, .xlsx, a folder) from
one data set, and must give the alpha of the same data read with the columns named.  What cannot be told apart
(two candidates for a role, a missing role, counts or a wide sheet) is refused in one message naming every
column and every option; repeated headers, an .xls, a damaged .ods and a damaged Parquet file are refused
naming the file.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import accord
from accord import AccordError
from accord.cli import app
from accord.data._columns import role_of

runner = CliRunner()

# the data: 6 units, 3 coders, one missing cell
UNITS = ["q1", "q2", "q3", "q4", "q5", "q6"]
CODERS = ["ann", "bob", "cy"]
LABELS = {
    "ann": ["pos", "neg", "neg", "pos", "neu", "pos"],
    "bob": ["pos", "neg", "pos", "pos", "neu", None],
    "cy": ["pos", "neu", "neg", "pos", "neg", "pos"],
}
SCORES = {"ann": [4, 2, 2, 5, 3, 4], "bob": [5, 2, 3, 5, 3, None], "cy": [4, 1, 2, 4, 2, 5]}


def _long_rows(values: dict[str, list]) -> list[tuple[str, str, object]]:
    return [(u, c, values[c][i]) for i, u in enumerate(UNITS) for c in CODERS if values[c][i] is not None]


def _reference(tmp_path: Path, values: dict[str, list]) -> float:
    ref = tmp_path / "reference.csv"
    pd.DataFrame(_long_rows(values), columns=["unit", "coder", "value"]).to_csv(ref, index=False)
    return accord.alpha(accord.read(ref, unit="unit", coder="coder", value="value", layout="long")).alpha


def _long_frame(values: dict[str, list], names: tuple[str, str, str]) -> pd.DataFrame:
    return pd.DataFrame(_long_rows(values), columns=list(names))


def _wide_frame(values: dict[str, list]) -> pd.DataFrame:
    return pd.DataFrame({"item": UNITS, **{c: values[c] for c in CODERS}})


# ------------------------------------------------------------------------------------------- names and roles


@pytest.mark.parametrize(("name", "role"), [
    ("unit", "unit"), ("Item", "unit"), ("ITEM_ID", "unit"), ("doc", "unit"), ("document", "unit"),
    ("doc_id", "unit"), ("docId", "unit"), ("sentence_id", "unit"), ("Sentence ID", "unit"),
    ("question", "unit"), ("task", "unit"), ("text_id", "unit"), ("id", "unit"), ("HITId", "unit"),
    ("coder", "coder"), ("annotator", "coder"), ("Annotator", "coder"), ("rater", "coder"), ("user", "coder"),
    ("worker", "coder"), ("worker_id", "coder"), ("WorkerId", "coder"), ("judge", "coder"),
    ("annotator-id", "coder"), ("_annotator_id", "coder"), ("ASSIGNMENT:worker_id", "coder"),
    ("value", "value"), ("label", "value"), ("Label", "value"), ("score", "value"), ("rating", "value"),
    ("answer", "value"), ("tag", "value"), ("category", "value"), ("class", "value"), ("OUTPUT:result", "value"),
    ("GOLDEN:result", None), ("ann1", None), ("annotator_1", None), ("comment", None), ("text", None),
    ("timestamp", None), ("sentiment", None),
])
def test_role_of_each_name(name, role):
    assert role_of(name) == role


# ------------------------------------------------------------------- shapes people keep, read with no flags


def _write(tmp_path: Path, name: str, text: str, *, bom: bool = False, crlf: bool = False) -> Path:
    if crlf:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path


def _csv(frame: pd.DataFrame, sep: str = ",", index: bool = False) -> str:
    return frame.to_csv(sep=sep, index=index, lineterminator="\n")


def test_long_with_other_names_and_extra_columns(tmp_path):
    frame = _long_frame(LABELS, ("item", "annotator", "label"))
    frame["timestamp"] = range(len(frame))
    frame["comment"] = ["", "unsure"] * (len(frame) // 2) + [""] * (len(frame) % 2)
    path = _write(tmp_path, "mine.csv", _csv(frame))
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == ("long: unit=item, coder=annotator, value=label (2 columns left alone: timestamp, "
                                 "comment)")
    assert data.read_as.inferred == ("layout", "unit", "coder", "value", "sep")


def test_semicolons_bom_and_crlf(tmp_path):
    frame = _long_frame(SCORES, ("Item ID", "Annotator", "Score"))
    path = _write(tmp_path, "europe.csv", _csv(frame, sep=";"), bom=True, crlf=True)
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, SCORES))
    assert str(data.read_as) == ("long: unit=Item ID, coder=Annotator, value=Score (separator semicolon; a "
                                 "byte-order mark skipped)")
    assert data.read_as.bom and data.read_as.sep == ";" and "sep" in data.read_as.inferred


def test_pipe_and_camel_case(tmp_path):
    frame = _long_frame(LABELS, ("docId", "workerId", "tag"))
    path = _write(tmp_path, "pipes.csv", _csv(frame, sep="|"))
    assert accord.alpha(accord.read(path)).alpha == pytest.approx(_reference(tmp_path, LABELS))


def test_txt_table_is_a_table(tmp_path):
    frame = _long_frame(LABELS, ("sentence_id", "rater", "category"))
    path = _write(tmp_path, "labels.txt", _csv(frame, sep="\t"))
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert "separator tab" in str(data.read_as)


def test_sep_forces_the_delimiter(tmp_path):
    # a comma inside every value would fool nothing here; --sep is taken as given, and a wrong one says so
    frame = _long_frame(LABELS, ("item", "annotator", "label"))
    path = _write(tmp_path, "semi.csv", _csv(frame, sep=";"))
    assert accord.read(path, sep=";").read_as.sep == ";"
    assert "sep" not in accord.read(path, sep=";").read_as.inferred
    with pytest.raises(AccordError, match="cannot tell which column is which"):
        accord.read(path, sep=",")
    with pytest.raises(AccordError, match=r"sep must be one character \(',', ';', 'tab', '\|'\); got ';;'"):
        accord.read(path, sep=";;")


def test_wide_sheet_by_content(tmp_path):
    path = _write(tmp_path, "sheet.csv", _csv(_wide_frame(LABELS)))
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == "wide: unit=item, 3 coder columns: ann, bob, cy"
    assert data.read_as.inferred == ("layout", "unit", "coders", "sep")


def test_wide_sheet_with_a_comment_column_leaves_it_alone(tmp_path):
    frame = _wide_frame(LABELS)
    frame["notes"] = ["", "hard", "", "", "re-check", ""]
    path = _write(tmp_path, "sheet.csv", _csv(frame))
    data = accord.read(path)
    assert data.n_coders == 3 and "1 column left alone: notes" in str(data.read_as)


def test_pandas_index_dump_of_a_wide_sheet_is_the_unit(tmp_path):
    frame = pd.DataFrame({c: LABELS[c] for c in CODERS}, index=UNITS)
    path = _write(tmp_path, "dump.csv", _csv(frame, index=True))
    assert path.read_text().startswith(",ann,bob,cy")
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == "wide: unit='Unnamed: 0', 3 coder columns: ann, bob, cy"
    # the same dump read back and written again by pandas: "Unnamed: 0" as the header
    again = _write(tmp_path, "again.csv", _csv(pd.read_csv(path)))
    assert again.read_text().startswith("Unnamed: 0,")
    assert accord.alpha(accord.read(again)).alpha == pytest.approx(_reference(tmp_path, LABELS))


def test_pandas_index_dump_of_a_long_table_is_left_alone(tmp_path):
    path = _write(tmp_path, "long_dump.csv", _csv(_long_frame(LABELS, ("item", "annotator", "label")), index=True))
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == "long: unit=item, coder=annotator, value=label (1 column left alone: 'Unnamed: 0')"


def test_crowd_platform_tsv(tmp_path):
    """A Toloka-style assignments TSV: INPUT:, OUTPUT:, GOLDEN: and ASSIGNMENT: columns."""
    rows = []
    for i, u in enumerate(UNITS):
        for c in CODERS:
            if LABELS[c][i] is not None:
                rows.append({"INPUT:text": f"text of {u}", "OUTPUT:result": LABELS[c][i],
                             "GOLDEN:result": "pos" if u == "q1" else "", "HINT:text": "",
                             "ASSIGNMENT:link": f"https://example.org/{u}", "ASSIGNMENT:task_id": u,
                             "ASSIGNMENT:assignment_id": f"{u}-{c}", "ASSIGNMENT:worker_id": c,
                             "ASSIGNMENT:status": "APPROVED", "ASSIGNMENT:started": "2024-01-01T10:00:00"})
    path = _write(tmp_path, "assignments.tsv", _csv(pd.DataFrame(rows), sep="\t"))
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    ra = data.read_as
    assert (ra.unit, ra.coder, ra.value) == ("ASSIGNMENT:task_id", "ASSIGNMENT:worker_id", "OUTPUT:result")


def test_json_lines_with_a_bom(tmp_path):
    lines = [json.dumps({"doc_id": u, "user": c, "answer": v, "seconds": 3}) for u, c, v in _long_rows(LABELS)]
    path = _write(tmp_path, "labels.jsonl", "\n".join(lines) + "\n", bom=True)
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == ("long: unit=doc_id, coder=user, value=answer (1 column left alone: seconds; a "
                                 "byte-order mark skipped)")


@pytest.mark.parametrize("shape", ["long", "wide"])
def test_xlsx_with_no_flags(tmp_path, shape):
    path = tmp_path / f"{shape}.xlsx"
    frame = _long_frame(SCORES, ("Item", "Rater", "Rating")) if shape == "long" else _wide_frame(SCORES)
    frame.to_excel(path, index=False)
    data = accord.read(path)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, SCORES))
    assert data.read_as.layout == shape


def test_named_columns_read_as_before(tmp_path):
    """Explicit names keep working as they did; inference fills only the roles not given."""
    path = _write(tmp_path, "l.csv", _csv(_long_frame(LABELS, ("item", "who", "label"))))
    data = accord.read(path, coder="who")
    assert str(data.read_as) == "long: unit=item, coder=who, value=label"
    assert data.read_as.inferred == ("unit", "value", "sep")
    with pytest.raises(AccordError, match="missing column 'coder'"):
        accord.read(path, unit="item", coder="coder", value="label")


def test_accords_own_column_names_win_as_they_always_did(tmp_path):
    """A file that read before inference existed reads the same: ``value`` beside ``label`` is the value."""
    path = _write(tmp_path, "both.csv", "unit,coder,value,label,rater\nq1,a,x,p,r\nq1,b,x,q,r\nq2,a,y,p,r\n"
                  "q2,b,x,q,r\n")
    data = accord.read(path)
    assert (data.read_as.unit, data.read_as.coder, data.read_as.value) == ("unit", "coder", "value")
    assert data.read_as.left_alone == ("label", "rater")


def test_lazy_engine_reads_the_columns_it_is_told(tmp_path):
    pytest.importorskip("duckdb")
    parts = tmp_path / "parts"
    parts.mkdir()
    for name, rows in (("a.csv", slice(0, 8)), ("b.csv", slice(8, None))):
        _write(parts, name, _csv(_long_frame(LABELS, ("item", "annotator", "label")).iloc[rows]))
    glob = str(parts / "*.csv")
    res = runner.invoke(app, ["agree", glob, "--engine", "duckdb", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["alpha"] == pytest.approx(_reference(tmp_path, LABELS)) and out["read_as"]["coder"] == "annotator"
    res = runner.invoke(app, ["agree", glob, "--engine", "duckdb"])
    assert res.stderr.splitlines()[0] == (f"accord: read {glob} as long: unit=item, coder=annotator, value=label "
                                          "(told from its first rows)")


# ----------------------------------------------------------------------------------------------- refusals


def test_ambiguous_columns_are_refused_in_one_message(tmp_path):
    path = _write(tmp_path, "amb.csv", "item,annotator,user,label,score\nq1,a,b,x,1\n")
    with pytest.raises(AccordError) as err:
        accord.read(path)
    head = (f"{path}: cannot tell which column is which (2 columns could be the coder: 'annotator', 'user'; 2 "
            "columns could be the value: 'label', 'score'); the columns are 'item', 'annotator', 'user', 'label', "
            "'score': ")
    assert str(err.value) == head + (
        "name them with unit=, coder= and value= (long: one row per unit, coder and value), or pass layout='wide' "
        "(one row per unit, one column per coder; unit= names the unit column) or layout='counts' (one row per "
        "unit, one column per category, each cell a count)")
    assert err.value.for_cli() == head + (
        "name them with --unit, --coder and --value (long: one row per unit, coder and value), or pass --layout "
        "wide (one row per unit, one column per coder; --unit names the unit column) or --layout counts (one row "
        "per unit, one column per category, each cell a count)")


def test_a_missing_role_is_refused_naming_what_would_do(tmp_path):
    path = _write(tmp_path, "nocoder.csv", "item,who,label\nq1,a,x\nq1,b,y\n")
    with pytest.raises(AccordError, match=r"\(no column has a name of the coder such as coder, annotator, rater, "
                                          r"worker, user or judge\); the columns are 'item', 'who', 'label': name"):
        accord.read(path)
    path = _write(tmp_path, "novalue.csv", "item,annotator,sentiment,topic\nq1,a,x,t\nq1,b,y,t\n")
    with pytest.raises(AccordError, match=r"no column has a name of the value such as value, label, score, rating, "
                                          r"answer or category; 2 others could be: 'sentiment', 'topic'\)"):
        accord.read(path)
    # one column left over is the value (said)
    path = _write(tmp_path, "one.csv", "item,annotator,sentiment,comment\nq1,a,x,\nq1,b,y,ok\n")
    assert str(accord.read(path).read_as) == ("long: unit=item, coder=annotator, value=sentiment (1 column left "
                                              "alone: comment)")


def test_counts_or_wide_is_never_guessed(tmp_path):
    text = "item,pos,neg,neu\nq1,3,0,0\nq2,0,2,1\nq3,1,1,1\nq4,3,0,0\n"
    path = _write(tmp_path, "counts.csv", text)
    with pytest.raises(AccordError) as err:
        accord.read(path)
    assert err.value.for_cli() == (
        f"{path}: every cell beside the unit column 'item' is a whole number of 0 or more: the file may be a table "
        "of counts (one row per unit, one column per category) as easily as a wide sheet of numeric codes (one "
        "column per coder); say which with --layout counts or --layout wide")
    counts = accord.read(path, layout="counts")
    table = pd.DataFrame([[3, 0, 0], [0, 2, 1], [1, 1, 1], [3, 0, 0]], columns=["pos", "neg", "neu"],
                         index=["q1", "q2", "q3", "q4"])
    assert accord.alpha(counts).alpha == pytest.approx(accord.alpha(accord.Annotations.from_counts(table)).alpha)
    assert str(counts.read_as) == "counts: unit=item, 3 categories: pos, neg, neu"
    wide = accord.read(path, layout="wide")
    assert wide.n_coders == 3 and wide.read_as.layout == "wide"
    # a missing cell cannot be a count: a wide sheet of numeric codes
    assert accord.read(_write(tmp_path, "w.csv", "item,a,b\nq1,1,2\nq2,,2\nq3,2,2\n")).read_as.layout == "wide"
    bad = _write(tmp_path, "bad.csv", "item,pos,neg\nq1,3,\nq2,1,2\n")
    with pytest.raises(AccordError, match=r"bad\.csv, line 2, column 'neg': a table of counts holds whole numbers "
                                          r"of 0 or more \(write 0 for none\); got an empty cell"):
        accord.read(bad, layout="counts")


def test_xls_is_refused_with_what_to_do(tmp_path):
    path = tmp_path / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    message = (f"{path}: an .xls file (the binary format of Excel 97-2003) is not read: save it as .xlsx or CSV "
               "(File > Save As in Excel or LibreOffice) and read that")
    with pytest.raises(AccordError) as err:
        accord.read(path)
    assert str(err.value) == message
    res = runner.invoke(app, ["agree", str(path)])
    assert res.exit_code == 2 and res.stderr.strip() == f"accord: error: {message}"


# -------------------------------------------------------------------------------------------------- folders


def test_a_folder_of_tables_is_one_table(tmp_path):
    folder = tmp_path / "rounds"
    folder.mkdir()
    rows = _long_frame(LABELS, ("item", "annotator", "label"))
    _write(folder, "a.csv", _csv(rows.iloc[:8]))
    _write(folder, "b.csv", _csv(rows.iloc[8:][["label", "item", "annotator"]]))  # other column order
    (folder / "README.md").write_text("notes")
    data = accord.read(folder)
    assert accord.alpha(data).alpha == pytest.approx(_reference(tmp_path, LABELS))
    assert str(data.read_as) == "long: unit=item, coder=annotator, value=label (2 files: a.csv, b.csv)"
    res = runner.invoke(app, ["agree", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["read_as"]["files"] == ["a.csv", "b.csv"]


def test_a_folder_error_names_the_file_and_line(tmp_path):
    folder = tmp_path / "rounds"
    folder.mkdir()
    _write(folder, "a.csv", "item,annotator,label\nq1,ann,x\nq1,bob,x\n")
    _write(folder, "b.csv", "item,annotator,label\nq2,ann,y\nq1,ann,z\n")
    with pytest.raises(AccordError, match=r"coder 'ann' gave two values to unit 'q1': 'x' \(a\.csv, line 2\) and "
                                          r"'z' \(b\.csv, line 3\)"):
        accord.read(folder)
    _write(folder, "b.csv", "item,annotator,label\n,ann,y\n")
    with pytest.raises(AccordError, match=r"rounds/b\.csv, line 2: the unit is missing"):
        accord.read(folder)


def test_a_folder_that_cannot_be_one_table_says_what_to_type(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    _write(folder, "a.csv", "item,annotator,label\nq1,ann,x\n")
    _write(folder, "b.csv", "item,rater,label\nq1,bob,x\n")
    with pytest.raises(AccordError) as err:
        accord.read(folder)
    assert str(err.value) == (
        f"{folder}: the files do not have the same columns: a.csv has 'item', 'annotator', 'label'; b.csv has "
        "'item', 'rater', 'label'; a folder is read as one table when every file has the same columns: make them "
        f"so, or read the files one by one (accord agree {folder / 'a.csv'})")
    (folder / "b.csv").unlink()
    _write(folder, "c.jsonl", '{"item": "q1", "annotator": "bob", "label": "x"}\n')
    with pytest.raises(AccordError, match=r"the folder holds tables of several formats \(1 csv file, 1 jsonl "
                                          r"file\); .*read one file \(accord agree .*a\.csv\)"):
        accord.read(folder)
    empty = tmp_path / "empty"
    empty.mkdir()
    res = runner.invoke(app, ["agree", str(empty)])
    assert res.exit_code == 2 and "cannot tell which tool wrote this export" in res.stderr


# ------------------------------------------------------------------------------------ issue 29: repeated headers


@pytest.mark.parametrize("suffix", [".csv", ".xlsx", ".ods"])
def test_a_repeated_coder_column_of_a_wide_sheet_is_refused(tmp_path, suffix):
    rows = [["item", "ann1", "ann2", "ann1"], ["q1", "yes", "yes", "no"], ["q2", "no", "no", "no"],
            ["q3", "yes", "no", "yes"]]
    path = _table(tmp_path / f"wide{suffix}", rows)
    message = (f"{path}: the header names 'ann1' 2 times (columns 2, 4), and accord reads it as the column of a "
               "coder: keep one of them, or rename the others")
    with pytest.raises(AccordError) as err:
        accord.read(path)
    assert str(err.value) == message
    with pytest.raises(AccordError, match="reads it as the column of a coder"):
        accord.read(path, unit="item", layout="wide")


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_repeated_value_column_is_refused_and_an_unused_one_counted(tmp_path, suffix):
    rows = [["unit", "coder", "value", "value"], ["q1", "a", "x", "y"], ["q1", "b", "x", "x"]]
    path = _table(tmp_path / f"long{suffix}", rows)
    with pytest.raises(AccordError, match=r"the header names 'value' 2 times \(columns 3, 4\), and accord reads it "
                                          r"as the value"):
        accord.read(path)
    with pytest.raises(AccordError, match="reads it as the value"):
        accord.read(path, unit="unit", coder="coder", value="value")
    rows = [["unit", "coder", "value", "note", "note"], ["q1", "a", "x", "", "?"], ["q1", "b", "x", "ok", ""]]
    path = _table(tmp_path / f"notes{suffix}", rows)
    data = accord.read(path)
    assert data.read_as.repeated == ("note",)
    assert str(data.read_as) == "long: unit=unit, coder=coder, value=value (1 repeated column left alone: note)"


def test_a_json_lines_record_giving_a_key_twice(tmp_path):
    """JSON keeps the last of two equal keys, silently: refused when accord reads that key, else counted."""
    path = _write(tmp_path, "twice.jsonl", '{"unit": "q1", "coder": "a", "value": "x"}\n'
                  '{"unit": "q1", "coder": "b", "value": "x", "value": "y"}\n')
    with pytest.raises(AccordError) as err:
        accord.read(path)
    assert str(err.value) == (f"{path}, line 2: the record gives the key 'value' twice (JSON keeps the last, "
                              "silently), and accord reads it as the value: keep one")
    path = _write(tmp_path, "note.jsonl", '{"unit": "q1", "coder": "a", "value": "x", "note": 1, "note": 2}\n'
                  '{"unit": "q1", "coder": "b", "value": "x", "note": 3}\n')
    assert str(accord.read(path).read_as) == ("long: unit=unit, coder=coder, value=value (1 repeated column left "
                                              "alone: note)")


def test_header_names_are_stripped_and_counted(tmp_path):
    path = _write(tmp_path, "spaces.csv", " item , annotator,label \nq1,a,x\nq1,b,x\nq2,a,y\nq2,b,x\n")
    data = accord.read(path)
    assert (data.read_as.unit, data.read_as.value) == ("item", "label")
    assert "2 column names stripped of spaces" in str(data.read_as)


def _table(path: Path, rows: list[list[str]]) -> Path:
    if path.suffix == ".csv":
        path.write_text("\n".join(",".join(r) for r in rows) + "\n")
    else:
        frame = pd.DataFrame(rows[1:])
        with pd.ExcelWriter(path, engine="openpyxl" if path.suffix == ".xlsx" else "odf") as w:
            pd.DataFrame([rows[0]]).to_excel(w, index=False, header=False)
            frame.to_excel(w, index=False, header=False, startrow=1)
    return path


# ------------------------------------------------------------------------- issue 29: damaged .ods and Parquet


def test_a_damaged_ods_fails_loudly_and_prints_nothing(tmp_path, capfd):
    good = tmp_path / "good.ods"
    rows = [("unit", "coder", "value")] + [(u, c, LABELS[c][i]) for i, u in enumerate(UNITS) for c in CODERS
                                           if LABELS[c][i] is not None]
    _table(good, [list(r) for r in rows])
    assert accord.read(good).n_units == 6
    bad = tmp_path / "bad.ods"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bad, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "content.xml":
                data = data[: len(data) * 2 // 3]
            zout.writestr(item, data)
    capfd.readouterr()
    with pytest.raises(AccordError, match=r"bad\.ods: cannot read as a spreadsheet: its XML is damaged"):
        accord.read(bad)
    out = capfd.readouterr()
    assert out.out == "" and "SAX" not in out.err
    res = runner.invoke(app, ["agree", str(bad), "--json"])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith("accord: error: ") and "its XML is damaged" in res.stderr


def test_a_corrupt_parquet_file_is_refused_naming_it(tmp_path):
    pytest.importorskip("pyarrow")
    good = tmp_path / "good.parquet"
    _long_frame(LABELS, ("unit", "coder", "value")).to_parquet(good)
    assert accord.read(good).n_units == 6
    for name, cut in (("cut.parquet", lambda b: b[: len(b) // 2]), ("flipped.parquet", lambda b: b[:4] + b"\xff" *
                                                                     (len(b) - 8) + b[-4:])):
        bad = tmp_path / name
        bad.write_bytes(cut(good.read_bytes()))
        with pytest.raises(AccordError, match=rf"{name}: cannot read as Parquet \("):
            accord.read(bad)
        res = runner.invoke(app, ["agree", str(bad)])
        assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1 and name in res.stderr


# --------------------------------------------------------------------------------------------------- the CLI


def test_agree_says_what_it_read_and_json_has_it(tmp_path):
    frame = _long_frame(SCORES, ("item", "annotator", "score"))
    frame["ts"] = 1
    path = _write(tmp_path, "x.csv", _csv(frame))
    res = runner.invoke(app, ["agree", str(path)])
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines()[0] == (f"accord: read {path} as long: unit=item, coder=annotator, value=score (1 "
                                          "column left alone: ts)")
    res = runner.invoke(app, ["agree", str(path), "--json"])
    out = json.loads(res.stdout)
    assert out["read_as"]["layout"] == "long" and out["read_as"]["left_alone"] == ["ts"]
    assert out["alpha"] == pytest.approx(_reference(tmp_path, SCORES))
    assert res.stderr == ""


def test_agree_sep_and_layout_counts(tmp_path):
    path = _write(tmp_path, "counts.txt", "item\tpos\tneg\nq1\t3\t0\nq2\t1\t2\nq3\t0\t3\n")
    res = runner.invoke(app, ["agree", str(path)])
    assert res.exit_code == 2 and "--layout counts or --layout wide" in res.stderr
    res = runner.invoke(app, ["agree", str(path), "--layout", "counts", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["read_as"]["coders"] == ["pos", "neg"]
    semi = _write(tmp_path, "s.csv", "item;annotator;label\nq1;a;x\nq1;b;x\nq2;a;y\nq2;b;x\n")
    res = runner.invoke(app, ["agree", str(semi), "--sep", ";", "--json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["read_as"]["sep"] == ";"
    res = runner.invoke(app, ["agree", str(semi), "--layout", "tall"])
    assert res.exit_code == 2 and "--layout must be one of long, wide, counts; got 'tall'" in res.stderr


def test_report_reads_the_same_way(tmp_path):
    pytest.importorskip("jinja2")
    path = _write(tmp_path, "x.csv", _csv(_long_frame(SCORES, ("item", "annotator", "score"))), bom=True)
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(path), "-o", str(out), "--bootstrap", "0", "-q"])
    assert res.exit_code == 0, res.output
    assert f"accord: read {path} as long: unit=item, coder=annotator, value=score (a byte-order mark skipped)" in \
        res.stderr
    assert out.exists()


def test_tool_exports_still_go_to_their_importer(tmp_path):
    """An MTurk batch (a table with the tool's own header) is read by the MTurk importer, not by inference."""
    src = Path(__file__).resolve().parent.parent / "docs" / "examples" / "importers" / "Batch_123_batch_results.csv"
    if not src.exists():
        pytest.skip("the MTurk example is not in this checkout")
    f = tmp_path / "Batch_1.csv"
    shutil.copy(src, f)
    res = runner.invoke(app, ["agree", str(f), "--field", "sentiment"])
    assert res.exit_code == 0, res.output
    assert "with --from mturk" in res.stderr and f"accord: read {f} as" not in res.stderr


# ------------------------------------------------------------------------------------------------ property

_SYNONYMS = {"unit": ["item", "Item ID", "doc_id", "sentenceId", "question", "task"],
             "coder": ["annotator", "Rater", "worker_id", "user", "judge", "annotatorId"],
             "value": ["label", "Score", "rating", "answer", "category", "tag"]}


@pytest.mark.filterwarnings("ignore::accord.AccordWarning")  # a constant sample: alpha undefined on both sides
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(st.sampled_from(["u1", "u2", "u3", "u4"]), st.sampled_from(["a", "b", "c"]),
                               st.sampled_from(["x", "y", "z", "1", "2"])), min_size=4, max_size=20,
                     unique_by=lambda r: (r[0], r[1])),
       names=st.tuples(*(st.sampled_from(v) for v in _SYNONYMS.values())),
       sep=st.sampled_from([",", ";", "\t", "|"]), bom=st.booleans(), crlf=st.booleans(), extra=st.booleans())
def test_names_separators_bom_and_line_ends_never_change_the_number(tmp_path, rows, names, sep, bom, crlf, extra):
    frame = pd.DataFrame(rows, columns=list(names))
    if extra:
        frame.insert(1, "comment", "")
    reference = pd.DataFrame(rows, columns=["unit", "coder", "value"])
    try:
        expected = accord.alpha(accord.Annotations.from_records(reference)).alpha
    except AccordError:  # fewer than two coders with values, or nothing pairable
        return
    path = _write(tmp_path, "p.csv", _csv(frame, sep=sep), bom=bom, crlf=crlf)
    data = accord.read(path)
    assert (data.read_as.unit, data.read_as.coder, data.read_as.value) == names
    got = accord.alpha(data).alpha
    assert got == pytest.approx(expected, nan_ok=True)
