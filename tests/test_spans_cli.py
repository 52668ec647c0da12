"""The span table reader and ``accord spans``: tables, JSON, --from through the importers registry, bad input."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import Imported, ImportReport
from accord.spans import Span, SpanAnnotations
from accord.spans._readers import read_spans, read_texts

runner = CliRunner()

TEXTS = {"d1": "👋🏽 Zoë met Ólafur in Reykjavík.", "d2": "Ann saw New York and Bob"}
CSV = """document,coder,start,end,label,text
d1,ann1,3,6,PER,Zoë
d1,ann1,11,17,PER,Ólafur
d1,ann2,11,17,PER,
d1,ann2,21,30,LOC,Reykjavík
d2,ann1,0,3,PER,Ann
d2,ann1,8,16,LOC,New York
d2,ann2,0,3,PER,
d2,ann2,12,16,LOC,York
d2,ann2,21,24,PER,Bob
d3,ann2,,,,
"""


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "docs").mkdir()
    for d, t in TEXTS.items():
        (tmp_path / "docs" / f"{d}.txt").write_text(t, encoding="utf-8")
    (tmp_path / "spans.csv").write_text(CSV, encoding="utf-8")
    return tmp_path


def test_read_spans_csv_and_jsonl(files):
    sa = read_spans(files / "spans.csv", texts=read_texts(files / "docs"))
    assert len(sa.spans) == 9 and ("d3", "ann2") in sa.seen and ("d3", "ann1") not in sa.seen
    zoe = next(s for s in sa.spans if s.start == 3)
    assert TEXTS["d1"][zoe.start:zoe.end] == "Zoë"
    lines = [json.dumps(r) for r in sa.to_frame().drop(columns="fragments").to_dict("records")]
    (files / "spans.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    again = read_spans(files / "spans.jsonl", texts=dict(TEXTS))
    assert again.spans == sa.spans
    (files / "texts.jsonl").write_text("\n".join(json.dumps({"document": d, "text": t}) for d, t in TEXTS.items()))
    assert read_texts(files / "texts.jsonl") == TEXTS


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("d1,ann1,3,x,PER,", r"bad.csv:2: end must be a non-negative integer; got 'x'"),
        ("d1,ann1,3,,PER,", r"bad.csv:2: the end field is empty"),
        (",ann1,3,6,PER,", r"bad.csv:2: the document field is missing or empty"),
        ("d1,ann1,6,3,PER,", r"bad.csv:2: end 3 is before start 6"),
        ("d1,ann1,3,6,PER,Zoe", r"bad.csv:2: the text field 'Zoe' does not match document 'd1' at \[3, 6\)"),
        ("d1,ann1,30,40,PER,", r"bad.csv:2: span \[30, 40\) of coder 'ann1' runs past the end of document 'd1'"),
    ],
)
def test_read_spans_bad_rows(files, row, message):
    (files / "bad.csv").write_text("document,coder,start,end,label,text\n" + row + "\n", encoding="utf-8")
    with pytest.raises(AccordError, match=message):
        read_spans(files / "bad.csv", texts=dict(TEXTS))


def test_texts_keep_windows_newlines(tmp_path):
    (tmp_path / "d.txt").write_bytes("\ufeffone\r\ntwo".encode())
    assert read_texts(tmp_path) == {"d": "one\r\ntwo"}


def test_missing_column_is_named(files):
    (files / "bad.csv").write_text("document,coder,begin,end,label\n", encoding="utf-8")
    with pytest.raises(AccordError, match="lacks column\\(s\\) start"):
        read_spans(files / "bad.csv")


def test_cli_tables(files):
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--texts", str(files / "docs")])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert "span F1 per coder pair, exact match" in text
    assert "token agreement (whitespace tokens, label values, 12 tokens in 2 documents" in text
    assert "unitizing alpha (Krippendorff)" in text and "1 document not seen by every coder left out" in text
    assert "Reykjavík" in text


def test_cli_json_and_bootstrap(files):
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--texts", str(files / "docs"), "--match",
                              "overlap", "--bootstrap", "50", "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["f1"]["match"] == "overlap"
    assert out["f1"]["pairs"][0]["micro"]["true_positives"] == 3
    assert out["token_agreement"]["alpha"]["alpha"] is not None
    assert out["unitizing_alpha"]["n_documents"] == 2 and out["unitizing_alpha"]["n_documents_dropped"] == 1
    lo, hi = out["confidence_intervals"]["span micro F1"]
    assert lo <= hi
    assert out["confidence_intervals"]["resampled"] == "documents"


def test_cli_ignore_labels(files):
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--ignore-labels", "--json"])
    assert res.exit_code == 0, res.output
    f1 = json.loads(res.stdout)["f1"]
    assert f1["ignore_labels"] is True
    assert [s["label"] for s in f1["pairs"][0]["labels"]] == ["(span)"]


def test_cli_without_texts_reports_token_agreement_undefined(files):
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert "has no text to tokenise" in out["token_agreement"]["undefined_reason"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--match", "fuzzy"], "--match must be one of exact, overlap; got 'fuzzy'"),
        (["--tokens", "export"], "--tokens export:"),
        (["--from", "excelsior"], "--from must be one of label-studio"),
        (["--field", "ner"], "--field 'ner':"),
        (["--scheme", "iob"], "--scheme must be one of label, bio; got 'iob'"),
    ],
)
def test_cli_bad_options_exit_2(files, args, message):
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), *args])
    assert res.exit_code == 2
    assert message in res.output


def _fake_importer(monkeypatch, kind="spans"):
    """A stand-in tool module for the registry (the real importers are tested with their own modules)."""
    data = SpanAnnotations.from_spans(
        [Span("t1", 0, 3, "PER", "u1"), Span("t1", 0, 3, "PER", "u2"), Span("t1", 8, 16, "LOC", "u2")],
        texts={"t1": TEXTS["d2"]},
        seen=[("t1", "u1"), ("t1", "u2")],
    )
    report = ImportReport.from_cells("brat", "export", items=["t1"], cells=[("t1", "u1", "annotated"),
                                                                            ("t1", "u2", "annotated")])

    def read(path, *, field=None, **options):
        return Imported("brat", field or "entities", kind, None, data if kind == "spans" else None, report)

    module = types.SimpleNamespace(read=read, sniff=lambda path, head: True)
    monkeypatch.setitem(sys.modules, "accord.importers._brat", module)


def test_cli_from_goes_through_the_registry(files, monkeypatch):
    _fake_importer(monkeypatch)
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--from", "brat", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["import_report"]["tool"] == "brat"
    assert out["coders"] == ["u1", "u2"]
    assert out["f1"]["pairs"][0]["micro"]["f1"] == pytest.approx(2 / 3)


def test_cli_from_with_a_field_that_is_not_spans(files, monkeypatch):
    _fake_importer(monkeypatch, kind="nominal")
    res = runner.invoke(app, ["spans", str(files / "spans.csv"), "--from", "brat"])
    assert res.exit_code == 2
    assert "holds nominal values, not spans" in res.output


IMPORTERS = Path(__file__).parent / "data" / "importers"


def test_cli_from_label_studio_export():
    # the importers' own hand-written Label Studio export (tests/data/importers/labelstudio, see its test module)
    res = runner.invoke(app, ["spans", str(IMPORTERS / "labelstudio" / "export.json"), "--from", "label-studio",
                              "--field", "ner", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["import_report"]["tool"] == "label-studio"
    assert out["f1"]["pairs"][0]["micro"]["f1"] == pytest.approx(2 / 3)
    assert out["unitizing_alpha"]["n_documents_dropped"] == 2


def test_cli_guesses_the_tool_when_input_is_not_a_span_table():
    res = runner.invoke(app, ["spans", str(IMPORTERS / "prodigy" / "ner.jsonl"), "--tokens", "export"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert "Format guessed from the file: prodigy" in text or "format guessed from the file: prodigy" in text
    assert "token agreement (export tokens" in text
    bio = runner.invoke(app, ["spans", str(IMPORTERS / "prodigy" / "ner.jsonl"), "--tokens", "export", "--scheme",
                              "bio", "--json"])
    assert bio.exit_code == 0, bio.output
    assert json.loads(bio.stdout)["token_agreement"]["scheme"] == "bio"


def test_the_worked_example_of_docs_spans_md(files):
    (files / "docs" / "d3.txt").write_text("It rained.", encoding="utf-8")
    (files / "example.csv").write_text(CSV.replace("d3,ann2,,,,\n", "d3,ann1,,,,\nd3,ann2,,,,\n"), encoding="utf-8")
    res = runner.invoke(app, ["spans", str(files / "example.csv"), "--texts", str(files / "docs"), "--match",
                              "overlap", "--bootstrap", "1000", "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    micro = out["f1"]["pairs"][0]["micro"]
    assert (micro["precision"], micro["recall"], micro["f1"]) == pytest.approx((0.6, 0.75, 2 / 3))
    assert out["token_agreement"]["n_tokens"] == 14
    assert round(out["token_agreement"]["alpha"]["alpha"], 4) == 0.4706
    assert round(out["token_agreement"]["kappa"]["kappa"], 4) == 0.4510
    assert round(out["unitizing_alpha"]["alpha"], 4) == 0.2109
    assert out["unitizing_alpha"]["continuum_length"] == 65
    ci = out["confidence_intervals"]
    assert [round(x, 2) for x in ci["span micro F1"]] == [0.5, 0.8]
    assert [round(x, 2) for x in ci["token alpha"]] == [0.33, 0.59]
    assert [round(x, 2) for x in ci["unitizing alpha"]] == [-0.16, 0.51]


def test_accord_import_writes_the_span_table_accord_spans_reads(tmp_path):
    export = str(IMPORTERS / "labelstudio" / "export.json")
    out = tmp_path / "spans.csv"
    res = runner.invoke(app, ["import", export, "--from", "label-studio", "--field", "ner", "-o", str(out)])
    assert res.exit_code == 0, res.output
    via_table = runner.invoke(app, ["spans", str(out), "--json"])
    via_from = runner.invoke(app, ["spans", export, "--from", "label-studio", "--field", "ner", "--json"])
    assert via_table.exit_code == 0 and via_from.exit_code == 0, via_table.output + via_from.output
    assert json.loads(via_table.stdout)["f1"] == json.loads(via_from.stdout)["f1"]
