"""Issue 29, what the mutation campaign still found after the first fixes: each defect on a file built here.

Repeated headers in the tables of ``accord multilabel``, ``significance`` and ``gold``; surrounding spaces and
integral ids written as ``"7"`` or ``7.0`` (Label Studio users, INCEpTION's Diagnosis markers, significance and
gold ids); a fully quoted Diagnosis header; a token line deleted from a coreference key in a document without
mentions; huge numbers (confusion counts, Prodigy token offsets, scores, CorefUD token ids); a lone surrogate
in a JSON-lines table; and three inputs that cost far more than their size (a sheet whose row numbers jump, an
Entity value of 140,000 characters, thousands of copies of one span).  The hangs run in a subprocess under a
generous time limit: the assertion is the outcome, not a timing.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app

runner = CliRunner()
SRC = str(Path(__file__).resolve().parent.parent / "src")


def _cli(*args: str):
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def _json(*args: str) -> dict:
    res = _cli(*args, "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _refused(*args: str) -> str:
    res = _cli(*args)
    assert res.exit_code == 2, res.output
    out = res.stderr
    assert out.startswith("accord: error:") and out.strip().count("\n") == 0, out
    return out


def _subprocess(code: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Python *code* in a fresh process under a generous time limit (a hang fails the test, not the suite)."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _accord(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _subprocess(f"import sys; sys.argv = ['accord', *{list(args)!r}]; from accord.cli import main; main()",
                       cwd)


# --- repeated headers: refused where the command reads the column ---------------------------------------------

def test_multilabel_refuses_a_repeated_item_column(tmp_path):
    f = tmp_path / "ml.csv"
    f.write_text("item,annotator,labels,item\nm1,A,a,m9\nm1,B,\"a,b\",m9\n")
    out = _refused("multilabel", f)
    assert "'item' 2 times (columns 1, 4)" in out


def test_multilabel_leaves_a_repeated_column_it_does_not_read(tmp_path):
    f = tmp_path / "ml.csv"
    f.write_text("item,annotator,labels,note,note\nm1,A,a,x,y\nm1,B,\"a,b\",x,y\nm2,A,b,,\nm2,B,b,,\n")
    _json("multilabel", f)


SCORES = "peer,docset,annotator,modified\n" + "".join(
    f"p{p},d{d},{a},{0.3 + 0.1 * p + 0.05 * d + (0.02 if a == 'B' else 0):.3f}\n"
    for p in range(1, 4) for d in range(1, 4) for a in "AB")
SIG = ("--system", "peer", "--docset", "docset", "--annotation", "annotator", "--score", "modified")


def test_significance_refuses_a_repeated_column_it_reads(tmp_path):
    f = tmp_path / "s.csv"
    lines = SCORES.splitlines()
    f.write_text("\n".join([lines[0] + ",peer"] + [x + ",p9" for x in lines[1:]]) + "\n")
    out = _refused("significance", f, *SIG)
    assert "'peer' 2 times" in out and "system column" in out


def test_significance_ids_lose_surrounding_spaces(tmp_path):
    f, g = tmp_path / "s.csv", tmp_path / "padded.csv"
    f.write_text(SCORES)
    lines = SCORES.splitlines()
    padded = [lines[0]]
    for k, line in enumerate(lines[1:]):
        p, d, a, s = line.split(",")
        padded.append(",".join([p + " " * (k % 2), "\t" * (k % 3 == 0) + d, [" ", "", "\t"][k % 3] + a, s]))
    g.write_text("\n".join(padded) + "\n")
    assert json.dumps(_json("significance", g, *SIG)).replace(str(g), "F") == \
        json.dumps(_json("significance", f, *SIG)).replace(str(f), "F")


@pytest.mark.parametrize("score", ["1" + "0" * 400, "1e400", "-1e400", "4" * 5000])
def test_significance_refuses_a_score_that_is_not_a_finite_number(tmp_path, score):
    f = tmp_path / "s.csv"
    lines = SCORES.splitlines()
    lines[2] = ",".join(lines[2].split(",")[:3] + [score])
    f.write_text("\n".join(lines) + "\n")
    out = _refused("significance", f, *SIG)
    assert "line 3" in out and "not a finite number" in out and len(out) < 400


GOLD = "item,annotator,label\n" + "".join(
    f"u{u:02d},ann{c},{lab}\n" for u, labs in enumerate(
        [("pos", "pos", "pos"), ("neg", "neg", "pos"), ("neu", "neu", "neu"), ("pos", "neg", "neu"),
         ("neg", "neg", "neg"), ("pos", "pos", "neu")], start=1) for c, lab in enumerate(labs, start=1))
GOLD_ARGS = ("--unit", "item", "--coder", "annotator", "--value", "label")


def test_gold_refuses_a_repeated_annotator_column(tmp_path):
    f = tmp_path / "g.csv"
    lines = GOLD.splitlines()
    f.write_text("\n".join([lines[0] + ",annotator"] + [x + ",ann9" for x in lines[1:]]) + "\n")
    out = _refused("gold", f, *GOLD_ARGS)
    assert "'annotator' 2 times (columns 2, 4)" in out and "as the coder" in out


def test_gold_ids_and_labels_lose_surrounding_spaces(tmp_path):
    f, g = tmp_path / "g.csv", tmp_path / "padded.csv"
    f.write_text(GOLD)
    lines = GOLD.splitlines()
    g.write_text("\n".join([lines[0]] + [",".join(
        [" " * (k % 2) + c + "\t" * (k % 3 == 1) for c in line.split(",")]) for k, line in enumerate(lines[1:])])
        + "\n")
    a, b = _json("gold", f, *GOLD_ARGS), _json("gold", g, *GOLD_ARGS)
    a.pop("file"), b.pop("file")
    assert a == b and a["n_annotators"] == 3 and a["n_items"] == 6


# --- INCEpTION's agreement Diagnosis ----------------------------------------------------------------------------

DIAG = ("Type,Collection,Document,Layer,Feature,Position,Flags,ann,bob\n"
        + "".join(f"SpanPosition,p,doc1.txt,webanno.custom.NE,value,{k}-{k + 2} [x],\"{flags}\",{a},{b}\n"
                  for k, (flags, a, b) in enumerate([
                      ("COMPLETE, USED", "PER", "PER"), ("DIFFERENCE, COMPLETE, USED", "LOC", "PER"),
                      ("INCOMPLETE_POSITION, USED", "PER", "<no annotation>"), ("COMPLETE, USED", "LOC", "LOC"),
                      ("DIFFERENCE, COMPLETE, USED", "<no label>", "LOC"), ("COMPLETE, USED", "ORG", "ORG")])))


def test_inception_diagnosis_markers_with_spaces_around_are_markers(tmp_path):
    f, g = tmp_path / "a-diff.csv", tmp_path / "b-diff.csv"
    f.write_text(DIAG)
    g.write_text(DIAG.replace(",<no annotation>", ", <no annotation>\t").replace(",<no label>", ",\t<no label> ")
                 .replace(",PER\n", ", PER \n"))
    a, b = _json("agree", f), _json("agree", g)
    assert a["value"] == b["value"] and a["n_units"] == b["n_units"]


def test_inception_diagnosis_with_every_field_quoted_is_still_guessed(tmp_path):
    import csv
    import io

    rows = list(csv.reader(io.StringIO(DIAG)))
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    f, g = tmp_path / "a-diff.csv", tmp_path / "q-diff.csv"
    f.write_text(DIAG)
    g.write_text(out.getvalue())
    assert _json("agree", g)["value"] == _json("agree", f)["value"]


# --- Label Studio: a user id written 7, 7.0 or "7" is one annotator ---------------------------------------------

def _ls(who1, who2, who3, who4):
    def task(tid, w1, w2, c1, c2):
        return {"id": tid, "data": {"text": "Fine."}, "annotations": [
            {"completed_by": w, "was_cancelled": False, "result": [
                {"id": f"r{tid}{k}", "from_name": "sentiment", "to_name": "text", "type": "choices",
                 "value": {"choices": [c]}}]} for k, (w, c) in enumerate([(w1, c1), (w2, c2)])]}
    return [task(1, who1, who2, "Positive", "Negative"), task(2, who3, who4, "Negative", "Negative"),
            task(3, who1, who2, "Positive", "Positive")]


@pytest.mark.parametrize("forms", [(7, 8, 7.0, "8"), ("7", 8.0, 7, 8), (7, {"id": 8.0, "email": "bo@x.org"},
                                                                        7.0, {"id": "8", "email": "bo@x.org"})])
def test_label_studio_integral_user_ids_in_any_form_are_one_annotator(tmp_path, forms):
    f, g = tmp_path / "a.json", tmp_path / "b.json"
    f.write_text(json.dumps(_ls(7, 8, 7, 8)))
    g.write_text(json.dumps(_ls(*forms)))
    a = _json("agree", f, "--from", "label-studio", "--field", "sentiment")
    b = _json("agree", g, "--from", "label-studio", "--field", "sentiment")
    assert b["n_coders"] == a["n_coders"] == 2 and b["value"] == a["value"]


def test_label_studio_an_annotator_given_by_id_here_and_by_object_there_is_one(tmp_path):
    g = tmp_path / "b.json"
    g.write_text(json.dumps(_ls(7, 8.0, 7, {"id": 8, "email": "bo@x.org"})))
    assert _json("agree", g, "--from", "label-studio", "--field", "sentiment")["n_coders"] == 2


# --- a coreference key missing a token line in a document without mentions ------------------------------------

def test_a_token_deleted_from_a_key_document_without_mentions_is_refused(tmp_path):
    doc0 = ("#begin document (s); part 000\ns 0 0 John NNP (1)\ns 0 1 saw VBD -\ns 0 2 him PRP (1)\n"
            "#end document\n")
    doc1 = "#begin document (s); part 001\ns 1 0 It PRP -\ns 1 1 rained VBD -\ns 1 2 . . -\n#end document\n"
    (tmp_path / "resp.conll").write_text(doc0 + doc1)
    (tmp_path / "key.conll").write_text(doc0 + doc1.replace("s 1 2 . . -\n", ""))
    out = _refused("coref", tmp_path / "resp.conll", "--key", tmp_path / "key.conll")
    assert "part 001" in out and "the end of the document" in out


# --- huge numbers -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("count", ["9223372036854775808", "99999999999999999999999", "1" + "0" * 400])
def test_a_confusion_count_past_what_can_be_held_is_refused(tmp_path, count):
    f = tmp_path / "c.csv"
    f.write_text(f",yes,no\nyes,{count},2\nno,3,4\n")
    out = _refused("agree", f, "--confusion")
    assert "row 'yes', column 'yes'" in out and "at most 100,000,000" in out


def test_confusion_counts_stay_exact(tmp_path):
    from accord.data._confusion import from_confusion

    data = from_confusion([[2**53 + 1 - 2**53, 2], [3, 4]])
    assert data.n_units == 10


def test_a_prodigy_token_offset_of_minus_1e400_is_refused(tmp_path):
    text = "Ann met Bo"
    task = {"text": text, "_input_hash": 1, "_task_hash": 2, "answer": "accept", "_view_id": "ner_manual",
            "_annotator_id": "s-al", "tokens": [{"text": "Ann", "start": 0, "end": 3, "id": 0},
                                                {"text": "met", "start": 4, "end": 7, "id": 1}],
            "spans": [{"start": 0, "end": 3, "label": "PER"}]}
    lines = [json.dumps(task), json.dumps({**task, "_annotator_id": "s-bo"})]
    lines[0] = lines[0].replace('"start": 4', '"start": -1e400')
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(AccordError, match="integer 'start' and 'end'"):
        from accord.importers import read_export

        read_export(f, tool="prodigy")


def test_a_corefud_token_id_of_5000_digits_is_refused_in_a_short_line(tmp_path):
    f = tmp_path / "u.conllu"
    f.write_text("# newdoc id = d1\n# sent_id = s1\n1\tJohn\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-person-1-)\n"
                 + "4" * 5000 + "\tran\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    out = _refused("coref", f, f)
    assert "cannot read the ID" in out and "5,000 characters" in out and len(out) < 300


# --- a lone surrogate in a JSON-lines table ----------------------------------------------------------------------

def test_a_lone_surrogate_in_a_jsonl_table_is_refused(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text('{"unit": "a", "coder": "x", "value": "p\\ud800"}\n{"unit": "a", "coder": "y", "value": "p"}\n')
    out = _refused("agree", f)
    assert "line 1" in out and "surrogate" in out


def test_a_surrogate_pair_in_a_jsonl_table_is_a_character(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text("".join(json.dumps({"unit": u, "coder": c, "value": "\U0001f600" if u == "a" else "n"}) + "\n"
                         for u in "ab" for c in "xy"))
    assert _json("agree", f)["value"] == 1.0


# --- inputs that cost far more than their size ------------------------------------------------------------------

def _xlsx_with_row(path: Path, row: str) -> None:
    """A one-sheet workbook (written with openpyxl) whose third row is numbered *row*, the rows after it following
    (their order kept)."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "long"
    for r in [("unit", "coder", "value"), ("q1", "ann", "yes"), ("q1", "bob", "yes"), ("q2", "ann", "no"),
              ("q2", "bob", "no")]:
        ws.append(r)
    tmp = path.with_suffix(".tmp.xlsx")
    wb.save(tmp)
    with zipfile.ZipFile(tmp) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = re.sub(rb'r="([A-Z]*)([3-5])"', lambda m: b'r="' + m.group(1) + str(
                    int(row) + int(m.group(2)) - 3).encode() + b'"', data)
            zout.writestr(item, data)
    tmp.unlink()


@pytest.mark.parametrize("row", ["30000000", "1" + "0" * 24])
def test_a_sheet_whose_row_numbers_jump_is_refused_before_it_is_read(tmp_path, row):
    _xlsx_with_row(tmp_path / "s.xlsx", row)
    res = _accord(tmp_path, "agree", "s.xlsx", "--json")
    assert res.returncode == 2, res.stderr[-2000:]
    assert "spans" in res.stderr and "empty cells" in res.stderr


def test_a_sheet_with_a_row_numbered_a_little_past_the_others_is_read(tmp_path):
    _xlsx_with_row(tmp_path / "s.xlsx", "40")
    assert _json("agree", tmp_path / "s.xlsx")["n_units"] == 2


def test_an_ods_row_repeated_thirty_million_times_is_refused(tmp_path):
    pytest.importorskip("odf")
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"><office:body>'
        '<office:spreadsheet><table:table table:name="s">'
        + "".join('<table:table-row{}>{}</table:table-row>'.format(
            ' table:number-rows-repeated="30000000"' if k == 2 else "",
            "".join(f'<table:table-cell office:value-type="string"><text:p>{c}</text:p></table:table-cell>'
                    for c in cells))
                  for k, cells in enumerate([("unit", "coder", "value"), ("q1", "ann", "yes"), ("q1", "bob", "yes")]))
        + "</table:table></office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    f = tmp_path / "s.ods"
    with zipfile.ZipFile(f, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", manifest)
    res = _accord(tmp_path, "agree", "s.ods", "--json")
    assert res.returncode == 2, res.stderr[-2000:]
    assert "30,000,002 rows" in res.stderr and "empty cells" in res.stderr


def test_a_corefud_entity_value_of_140000_characters_is_read_in_one_pass(tmp_path):
    value = "(e1-person-1-)" + "a" * 140_000 + "(" + "b" * 10
    (tmp_path / "u.conllu").write_text(
        "# newdoc id = d1\n# sent_id = s1\n1\tJohn\t_\t_\t_\t_\t_\t_\t_\tEntity=" + value + "\n"
        "2\tran\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    res = _accord(tmp_path, "coref", "u.conllu", "u.conllu")
    assert res.returncode == 2, res.stderr[-2000:]
    assert "cannot read Entity=" in res.stderr and "140,025 characters" in res.stderr
    assert len(res.stderr) < 600  # the value is quoted, cut: not the whole 140 KB


def test_corefud_entity_chunks_are_read_as_before():
    from accord.coref._corefud import _chunks

    assert _chunks("(e1-person-1-(e2-place-1-)e3)") == ["(e1-person-1-", "(e2-place-1-)", "e3)"]
    assert _chunks("(e1--1-)") == ["(e1--1-)"]
    for bad in ("e1", "((e1", "()", "(e1))", ")"):
        assert _chunks(bad) is None


def test_span_f1_on_thousands_of_copies_of_one_span_costs_their_number(tmp_path):
    code = (
        "from accord.spans import Span, SpanAnnotations, span_f1\n"
        "n = 30000\n"
        "sa = SpanAnnotations.from_spans([Span('d', 0, 5, 'PER', 'a')] * n + [Span('d', 0, 5, 'LOC', 'b')] * n\n"
        "                                + [Span('d', 2, 9, 'LOC', 'a')])\n"
        "r = span_f1(sa)\n"
        "kinds = sorted({d.kind for d in r.diagnosis})\n"
        "print(len(r.diagnosis), kinds, r.micro_f1)\n"
    )
    res = _subprocess(code, tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.split() == ["60001", "['boundary',", "'label']", "0.0"]
