"""Crowd CSV: MTurk batch results written by hand from the requester documentation's column layout
(``HITId``, ``AssignmentId``, ``WorkerId``, ``AssignmentStatus``, ``Input.*``, ``Answer.*``; Crowd HTML Elements
and radio groups as ``Answer.<name>.<option>`` booleans), and the generic one-judgment-per-row table."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import accord
from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, read_export

HEADER = "HITId,AssignmentId,WorkerId,AssignmentStatus,Input.text,Answer.sentiment,Answer.note\n"
ROWS = [
    "H1,A1,W1,Approved,\N{WAVING HAND SIGN} great,pos,",
    "H1,A2,W2,Approved,\N{WAVING HAND SIGN} great,pos,fine",
    "H2,A3,W1,Approved,meh,neg,",
    "H2,A4,W2,Rejected,meh,pos,",  # rejected: skipped
    "H3,A5,W1,Submitted,ok,,",  # submitted with no answer: empty
    "H3,A6,W3,Approved,ok,neg,",  # W3 never took H1 or H2: unassigned there
]


def _write(tmp_path, header=HEADER, rows=ROWS):
    f = tmp_path / "Batch_123_batch_results.csv"
    f.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    return f


def test_mturk_states_and_values(tmp_path):
    f = _write(tmp_path)
    assert guess_tool(f) == "mturk"
    imp = read_export(f, tool="mturk", field="sentiment")
    assert imp.kind == "nominal"
    assert imp.report.counts == {
        "W1": {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 0},
        "W2": {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 1},
        "W3": {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 2},
    }
    assert imp.report.dropped_reasons() == {"rejected assignment": 1}
    assert accord.percent_agreement(imp.annotations).percent_agreement == 1.0  # H1: pos/pos


def test_several_answers_need_field(tmp_path):
    with pytest.raises(AccordError, match=r"several answers \(note, sentiment\); pass field="):
        read_export(_write(tmp_path), tool="mturk")
    with pytest.raises(AccordError, match="no answer 'stars'"):
        read_export(_write(tmp_path), tool="mturk", field="stars")


def test_option_columns_single_and_multiple(tmp_path):
    header = "HITId,WorkerId,AssignmentStatus,Answer.topic.sport,Answer.topic.politics\n"
    single = ["H1,W1,Approved,true,false", "H1,W2,Approved,true,false", "H2,W1,Approved,false,true",
              "H2,W2,Approved,true,false"]
    imp = read_export(_write(tmp_path, header, single), tool="mturk")
    assert imp.kind == "nominal" and set(imp.annotations.values) == {"sport", "politics"}
    multi = [*single, "H3,W1,Approved,true,true", "H3,W2,Approved,false,false"]
    imp = read_export(_write(tmp_path, header, multi), tool="mturk")
    assert imp.kind == "set" and imp.report.counts["W2"]["empty"] == 1
    with pytest.raises(AccordError, match=r"line 2, field 'Answer.topic.sport': Answer.topic.sport holds 'maybe'"):
        read_export(_write(tmp_path, header, ["H1,W1,Approved,maybe,false"]), tool="mturk")


def test_unit_from_an_input_column(tmp_path):
    imp = read_export(_write(tmp_path), tool="mturk", field="sentiment", unit="Input.text")
    assert "meh" in set(imp.annotations.units)


def test_generic_csv(tmp_path):
    f = tmp_path / "judgments.csv"
    f.write_text("item,judge,label\nq1,a,yes\nq1,b,yes\nq2,a,no\nq2,b,\n")
    imp = read_export(f, tool="csv", unit="item", coder="judge", value="label")
    assert imp.report.counts["b"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}
    with pytest.raises(AccordError, match="csv export .*no column 'unit'"):
        read_export(f, tool="csv")


def test_another_tools_file_is_refused(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("[]")
    with pytest.raises(AccordError, match="mturk export .*HITId|mturk export"):
        read_export(f, tool="mturk")


def test_cli_agree_from_mturk(tmp_path):
    f = _write(tmp_path)
    out = CliRunner().invoke(app, ["agree", str(f), "--from", "mturk", "--field", "sentiment", "--json"])
    assert out.exit_code == 0, out.output
    rep = json.loads(out.stdout)
    assert rep["import"]["tool"] == "mturk" and "alpha" in out.stdout
    out = CliRunner().invoke(app, ["agree", str(f), "--from", "mturk"])
    assert out.exit_code == 2 and "several answers" in out.output


def _csv(tmp_path, header: list[str], rows: list[list[str]], name: str = "Batch_1_batch_results.csv"):
    """Written with the csv module, every field quoted, as the requester site writes the batch results."""
    import csv

    f = tmp_path / name
    with open(f, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_ALL)
        w.writerow(header)
        w.writerows(rows)
    return f


MT = ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "Input.text", "Answer.s"]


@pytest.mark.parametrize(
    ("header", "rows", "where", "message"),
    [
        (MT[:2] + MT[3:], [["H1", "A1", "Approved", "x", "a"]], "line 1, field 'WorkerId'", "no WorkerId column"),
        (MT[1:], [["A1", "W1", "Approved", "x", "a"]], "line 1, field 'HITId'", "no HITId column"),
        (MT, [["H1", "A1", "W1", "Approved", "x", "a"], ["H2", "A1", "W2", "Approved", "y", "b"]],
         "line 3, field 'AssignmentId'", "assignment A1 is listed twice"),
        (MT, [["H1", "A1", "W1", "Approved", "x", "a"], ["H1", "A2", "W1", "Approved", "x", "b"]],
         "line 3, field 'WorkerId'", "two assignments of HIT H1"),
        # the multi-line input pushes the next record's first line to line 5
        (MT, [["H1", "A1", "W1", "Approved", "one\ntwo, \"three\"\nfour", "a"], ["H2", "A2", "", "Approved", "y", "b"]],
         "line 5, field 'WorkerId'", "no WorkerId"),
        (MT, [["", "A1", "W1", "Approved", "x", "a"]], "line 2, field 'HITId'", "no HITId"),
        (MT, [["H1", "A1", "W1", "approved!", "x", "a"]], "line 2, field 'AssignmentStatus'", "not one of"),
        (MT, [["H1", "A1", "W1", "Approved", "x", "a", "extra"]], "line 2", "7 fields where the header has 6"),
        (MT, [["H1", "A1", "W1", "Rejected", "x", "a"], ["H2", "A2", "W1", "Approved", "y", ""]],
         "field 'Answer.s'", "no answer to 's' to compare"),
        ([*MT, "Answer.s.yes"], [["H1", "A1", "W1", "Approved", "x", "a", "true"]], "line 1, field 'Answer.s'",
         "both Answer.s and option columns"),
        (["HITId", "WorkerId", "WorkerId", "Answer.s"], [["H1", "W1", "W1", "a"]], "line 1, field 'WorkerId'",
         "names 'WorkerId' twice"),
    ],
)
def test_each_bad_record_is_an_error_naming_file_line_and_field(tmp_path, header, rows, where, message):
    with pytest.raises(AccordError, match=rf"^mturk export \S+\.csv, {where}: .*{message}"):
        read_export(_csv(tmp_path, header, rows), tool="mturk")


def test_unreadable_files_are_errors_naming_the_file(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(AccordError, match=r"mturk export \S+empty\.csv: empty file"):
        read_export(empty, tool="mturk")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("HITId,WorkerId,Answer.s\nH1,W1,caf\xe9\n".encode("latin-1"))
    with pytest.raises(AccordError, match=r"mturk export \S+latin\.csv, line 2: not UTF-8 text"):
        read_export(latin, tool="mturk")
    bad = tmp_path / "bad.csv"
    bad.write_text('HITId,WorkerId,Answer.s\nH1,W1,"open\n')
    with pytest.raises(AccordError, match=r"mturk export \S+bad\.csv, line 2: not a readable CSV"):
        read_export(bad, tool="mturk")


def test_a_worker_twice_on_one_input_is_dropped_when_the_unit_is_an_input(tmp_path):
    """Two HITs of one input (a batch posted again) may go to one worker: the first is kept, the second counted."""
    rows = [["H1", "A1", "W1", "Approved", "same", "a"], ["H2", "A2", "W1", "Approved", "same", "b"],
            ["H1", "A3", "W2", "Approved", "same", "a"]]
    imp = read_export(_csv(tmp_path, MT, rows), tool="mturk", unit="Input.text")
    assert imp.report.counts["W1"] == {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 0}
    assert [(d.line, d.coder) for d in imp.report.dropped] == [(3, "W1")]
    assert "second assignment" in imp.report.dropped[0].reason


@pytest.mark.parametrize(
    ("text", "kw", "where", "message"),
    [
        ("item,judge\nq1,a\n", {"unit": "item", "coder": "judge", "value": "label"}, "line 1, field 'label'",
         "no column 'label'"),
        ("unit,coder,value\nq1,a,yes\nq1,a,no\n", {}, "line 3, field 'coder'", "two judgments of unit q1"),
        ("unit,coder,value\nq1,,yes\n", {}, "line 2, field 'coder'", "the coder is empty"),
        ("unit,coder,value\n,a,yes\n", {}, "line 2, field 'unit'", "the unit is empty"),
        ("unit,coder,value\nq1,a,yes,oops\n", {}, "line 2", "4 fields where the header has 3"),
        ("unit,coder,value\nq1,a,\n", {}, "field 'value'", "no value to compare"),
    ],
)
def test_generic_errors_name_file_line_and_field(tmp_path, text, kw, where, message):
    f = tmp_path / "judgments.csv"
    f.write_text(text)
    with pytest.raises(AccordError, match=rf"^csv export \S+judgments\.csv, {where}: .*{message}"):
        read_export(f, tool="csv", **kw)


def test_crowd_classifier_label_column_is_the_answer(tmp_path):
    """crowd-classifier (the requester site's sentiment and categorisation templates) writes its category in
    one column, Answer.<name>.label; it was read as a true/false option column and refused."""
    header = ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus", "Input.text", "Answer.sentiment.label"]
    rows = [["H1", "A1", "W1", "Approved", "great", "Positive"], ["H1", "A2", "W2", "Approved", "great", "Positive"],
            ["H2", "A3", "W1", "Approved", "meh", "Neutral"], ["H2", "A4", "W2", "Submitted", "meh", ""]]
    imp = read_export(_csv(tmp_path, header, rows), tool="mturk")
    assert imp.field == "sentiment" and imp.kind == "nominal"
    assert sorted(imp.annotations.values) == ["Neutral", "Positive"]
    assert imp.report.counts["W2"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}
    assert imp.report.notes == ("unit: HITId, answer: Answer.sentiment.label",)


def test_records_stop_before_the_approve_and_reject_columns(tmp_path):
    """MTurk's downloaded batch results end the header with ``Approve`` and ``Reject`` (for the requester to
    mark and upload back) and its records leave both fields out: two fields fewer than the header.

    Shape from real batch results: github.com/abadias618/survey-cs6966 ``batch_results.csv`` (commit
    d763a94a4c20c6a1f7a7d7e94fa19ef6a25756f7: 38 header names, 36 fields a record) and
    github.com/xiaovictoria8/Monolingual-alignment-dataset ``batch_results.csv`` (commit
    114696e650ee6c225b13f621890054027cfcf6c0: 57 and 55). Written by hand here.
    """
    header = ('"HITId","HITTypeId","AssignmentId","WorkerId","AssignmentStatus","WorkTimeInSeconds",'
              '"Input.text","Answer.sentiment","Approve","Reject"\n')
    rows = ['"H1","T","A1","W1","Approved","31","a, b","pos"',
            '"H1","T","A2","W2","Submitted","12","a, b","neg"',
            '"H2","T","A3","W1","Approved","9","c","pos"']
    f = _write(tmp_path, header, rows)
    imported = read_export(f, tool="mturk", field="sentiment")
    assert imported.report.counts["W1"]["annotated"] == 2
    assert imported.report.counts["W2"]["unassigned"] == 1
    # a record short by other columns is still an error
    with pytest.raises(AccordError, match="line 2: 7 fields where the header has 10"):
        read_export(_write(tmp_path, header, ['"H1","T","A1","W1","Approved","31","a"']), tool="mturk",
                    field="sentiment")
