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
    with pytest.raises(AccordError, match=r"several answers \(note, sentiment\); pass --field"):
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
    with pytest.raises(AccordError, match=r"line 2: Answer.topic.sport holds 'maybe'"):
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
