"""INCEpTION's agreement Diagnosis export (``<project>-diff.csv``), written by hand from the format read in
INCEpTION's source (AgreementServiceImpl.configurationSetsWithItemsToCsv: RFC 4180 CSV, header Type,
Collection, Document, Layer, Feature, Position, Flags and one column per annotator; cells a label,
``<no annotation>``, ``<no label>``, or a STACKED annotator's labels joined by ", ")."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, read_export

NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
DIFF = "\r\n".join([
    "Type,Collection,Document,Layer,Feature,Position,Flags,Ana Lúcia,bob,carla",
    f'SpanPosition,proj1,doc1.txt,{NE},value,0-4 [Zoë],"COMPLETE, USED",PER,PER,PER',
    f'SpanPosition,proj1,doc1.txt,{NE},value,"9-18 [Paris, TX]","DIFFERENCE, COMPLETE, USED",LOC,GPE,Région',
    f'SpanPosition,proj1,doc1.txt,{NE},value,23-26 [Bob],"INCOMPLETE_POSITION, USED",PER,<no annotation>,<no label>',
    f'SpanPosition,proj1,doc1.txt,{NE},value,"30-42 [the ""Ritz""]",STACKED,"LOC, ORG",LOC,<no annotation>',
    f"SpanPosition,proj1,doc2.txt,{NE},value,0-3 [Ana],INCOMPLETE_POSITION,PER,,<no annotation>",
    f'SpanPosition,proj1,doc2.txt,{NE},value,8-12 [Lima],"DIFFERENCE, COMPLETE, USED","LOC ""city""",LOC,LOC',
]) + "\r\n"


def _write(tmp_path, text=DIFF, name="emiles-project-diff.csv"):
    f = tmp_path / name
    f.write_bytes(text.encode("utf-8"))
    return f


def _values(imp):
    a = imp.annotations
    return {(str(a.units[u]), str(a.coders[k])): a.values[v]
            for u, k, v in zip(a.unit_index, a.coder_index, a.value_index, strict=True)}


def test_positions_become_units_and_annotators_coders(tmp_path):
    f = _write(tmp_path)
    assert guess_tool(f) == "inception-agreement"
    imp = read_export(f, tool="inception-agreement")
    assert (imp.kind, imp.field) == ("nominal", f"{NE}|value")
    assert imp.report.n_items == 5
    assert imp.report.counts == {
        "Ana Lúcia": {"annotated": 5, "empty": 0, "skipped": 0, "unassigned": 0},
        "bob": {"annotated": 4, "empty": 1, "skipped": 0, "unassigned": 0},
        "carla": {"annotated": 4, "empty": 1, "skipped": 0, "unassigned": 0},
    }
    got = _values(imp)
    assert got[("doc1.txt: 9-18 [Paris, TX]", "carla")] == "Région"
    assert got[("doc2.txt: 8-12 [Lima]", "Ana Lúcia")] == 'LOC "city"'
    assert got[("doc1.txt: 23-26 [Bob]", "carla")] == "<no label>"
    assert got[("doc2.txt: 0-3 [Ana]", "bob")] == "<no label>"  # the blank cell: an empty label
    assert ("doc1.txt: 23-26 [Bob]", "bob") not in got  # <no annotation>: empty, no value
    (stacked,) = imp.report.dropped
    assert (stacked.record, stacked.line) == ('doc1.txt: 30-42 [the "Ritz"]', 5)
    assert stacked.reason.startswith("stacked")
    notes = "\n".join(imp.report.notes)
    assert "1 position INCEpTION did not use" in notes and "1 blank cell read as <no label>" in notes


def test_used_only_leaves_out_what_inception_left_out(tmp_path):
    imp = read_export(_write(tmp_path), tool="inception-agreement", used_only=True)
    assert imp.report.n_items == 4
    assert imp.report.dropped_reasons()["not used by INCEpTION's calculation (incomplete, excluded by its "
                                        "settings)"] == 1


def test_a_quoted_newline_keeps_line_numbers(tmp_path):
    text = DIFF.replace("9-18 [Paris, TX]", "9-18 [Paris,\nTX]").replace("STACKED,", "STACKED, BOGUS,", 1)
    with pytest.raises(AccordError, match=r"inception-agreement export .*, line 6, record .*, field 'Flags': "
                       r"unknown flag 'BOGUS'"):
        read_export(_write(tmp_path, text.replace('STACKED, BOGUS,', '"STACKED, BOGUS",')),
                    tool="inception-agreement")


@pytest.mark.parametrize(("text", "message"), [
    (DIFF.replace(",Flags,", ",Tags,", 1), r", line 1, field 'Flags': no column 'Flags'"),
    ("HITId,AssignmentId,WorkerId,AssignmentStatus,Input.text,Answer.sentiment\r\nH1,A1,W1,Approved,great,pos\r\n",
     r", line 1, field 'Type': no column 'Type'.*another tool's CSV"),
    (DIFF.replace(",PER,PER,PER", ",PER,PER"), r", line 2, field 'carla': 9 fields where the header has 10"),
    (DIFF + "Unexpected error during export, see log for details.", r", line 8: INCEpTION wrote 'Unexpected error"),
])
def test_bad_input_names_tool_file_line_and_field(tmp_path, text, message):
    f = _write(tmp_path, text)
    with pytest.raises(AccordError, match=r"inception-agreement export .*-diff\.csv" + message):
        read_export(f, tool="inception-agreement")


def test_a_field_picks_the_layer(tmp_path):
    assert read_export(_write(tmp_path), tool="inception-agreement", field="NamedEntity").field == f"{NE}|value"
    with pytest.raises(AccordError, match="no layer or feature 'Chunk'"):
        read_export(_write(tmp_path), tool="inception-agreement", field="Chunk")


def test_cli_agree_from_inception_agreement(tmp_path):
    f = _write(tmp_path)
    out = CliRunner().invoke(app, ["agree", str(f), "--from", "inception-agreement", "--json"])
    assert out.exit_code == 0, out.output
    rep = json.loads(out.stdout)
    assert rep["import"]["tool"] == "inception-agreement" and rep["import"]["report"]["n_items"] == 5
    assert "alpha" in out.stdout
    guessed = CliRunner().invoke(app, ["agree", str(f), "--json"])  # a .csv with this header is not a plain table
    assert guessed.exit_code == 0, guessed.output
    assert json.loads(guessed.stdout)["import"]["tool"] == "inception-agreement"
    big = CliRunner().invoke(app, ["agree", str(f), "--json", "--memory-share", "1e-9"])  # past the auto engine's
    assert big.exit_code == 0, big.output  # threshold: still this importer, not DuckDB reading a plain table
    assert json.loads(big.stdout)["import"]["tool"] == "inception-agreement"
    used = CliRunner().invoke(app, ["agree", str(f), "--from", "inception-agreement", "--option", "used_only=true",
                                    "--json"])
    assert used.exit_code == 0, used.output
    assert json.loads(used.stdout)["import"]["report"]["n_items"] == 4
