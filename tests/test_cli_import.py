"""``accord import`` and ``accord agree --from``: exports to the long table, agreement straight from an export."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import accord
from accord.cli import app
from accord.importers import _labelstudio as labelstudio

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "importers"
LS = DATA / "labelstudio" / "export.json"


def test_import_writes_the_long_table_and_prints_the_report(tmp_path):
    out = tmp_path / "long.csv"
    res = runner.invoke(app, ["import", str(LS), "--from", "label-studio", "--field", "sentiment", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "1: 2 annotated, 1 empty, 0 skipped, 1 unassigned" in res.stderr
    assert "textarea 'comment'" in res.stderr
    table = pd.read_csv(out)
    assert list(table.columns) == ["unit", "coder", "value"]
    assert len(table) == 3
    # what accord agree reads back from the table equals what it reads from the export
    direct = labelstudio.read(LS, field="sentiment").to_frame().astype(str)
    assert sorted(map(tuple, direct.values)) == sorted(map(tuple, table.astype(str).values))
    assert accord.read(out).n_entries == 3


def test_import_sets_round_trip_through_json_lists(tmp_path):
    out = tmp_path / "topic.csv"
    res = runner.invoke(app, ["import", str(LS), "--field", "topic", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "guessed from the file" in res.stderr
    back = accord.read(out)
    assert frozenset({("Places", "City"), ("Feelings",)}) in set(back.values)
    assert frozenset() in set(back.values)


def test_import_spans_keeps_empty_documents(tmp_path):
    out = tmp_path / "spans.csv"
    res = runner.invoke(app, ["import", str(DATA / "prodigy" / "ner.jsonl"), "--from", "prodigy", "-o", str(out)])
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out, dtype={"document": str})
    assert list(table.columns) == ["document", "coder", "start", "end", "label", "text"]
    paris = table[(table.label == "LOC")]
    assert paris[["start", "end", "text"]].values.tolist() == [[17, 22, "Paris"]]
    empty = table[table.label.isna()]
    assert empty[["document", "coder"]].values.tolist() == [["12", "news-alex"]]


def test_import_refuses_to_overwrite_without_force_and_the_input_always(tmp_path):
    out = tmp_path / "long.csv"
    out.write_text("keep")
    res = runner.invoke(app, ["import", str(LS), "--field", "sentiment", "-o", str(out)])
    assert res.exit_code == 2 and "--force" in res.stderr and out.read_text() == "keep"
    res = runner.invoke(app, ["import", str(LS), "--field", "sentiment", "-o", str(out), "--force"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["import", str(LS), "--field", "sentiment", "-o", str(LS), "--force"])
    assert res.exit_code == 2 and "input" in res.stderr


def test_import_errors_are_one_line(tmp_path):
    res = runner.invoke(app, ["import", str(LS), "--from", "label-studio", "-o", str(tmp_path / "x.csv")])
    assert res.exit_code == 2
    assert res.stderr.startswith("accord: error: label-studio export") and "pass --field" in res.stderr
    assert len(res.stderr.splitlines()) == 1
    res = runner.invoke(app, ["import", str(LS), "--from", "excelsior", "-o", str(tmp_path / "x.csv")])
    assert res.exit_code == 2 and "--from must be one of" in res.stderr
    res = runner.invoke(app, ["import", str(LS), "--sheet", "1", "-o", str(tmp_path / "x.csv")])
    assert res.exit_code == 2 and "--sheet applies to spreadsheets" in res.stderr


def test_agree_from_an_export_uses_the_fitting_distance():
    res = runner.invoke(app, ["agree", str(LS), "--from", "label-studio", "--field", "quality", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["distance"] == "ordinal"
    assert out["import"]["report"]["counts"]["1"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    res = runner.invoke(app, ["agree", str(LS), "--field", "tags", "--distance", "jaccard", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["distance"] == "jaccard"
    assert "with --from label-studio (guessed" in res.stderr


def test_agree_prints_the_report_and_refuses_spans():
    res = runner.invoke(app, ["agree", str(DATA / "argilla" / "dataset"), "--field", "sentiment"])
    assert res.exit_code == 0, res.output
    assert "u-ana: 2 annotated, 0 empty, 1 skipped, 1 unassigned" in res.stderr
    res = runner.invoke(app, ["agree", str(DATA / "doccano" / "ner")])
    assert res.exit_code == 2 and "accord spans" in res.stderr


def test_from_is_a_no_op_for_plain_tables(tmp_path):
    f = tmp_path / "plain.jsonl"
    f.write_text("\n".join(json.dumps({"unit": u, "coder": c, "value": v})
                           for u, c, v in [(1, "a", "x"), (1, "b", "x"), (2, "a", "y"), (2, "b", "x")]))
    res = runner.invoke(app, ["agree", str(f), "--json"])
    assert res.exit_code == 0, res.output
    assert "guessed" not in res.stderr and "import" not in json.loads(res.stdout)
    csv = tmp_path / "plain.csv"
    csv.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n")
    a = json.loads(runner.invoke(app, ["agree", str(csv), "--json"]).stdout)
    b = json.loads(runner.invoke(app, ["agree", str(f), "--json"]).stdout)
    assert a["alpha"] == b["alpha"]
    res = runner.invoke(app, ["agree", str(csv), "--field", "x"])
    assert res.exit_code == 2 and "--value" in res.stderr


def test_agree_on_a_spreadsheet_directly_and_with_from(tmp_path):
    f = tmp_path / "round.xlsx"
    with pd.ExcelWriter(f) as w:
        pd.DataFrame({"x": [1]}).to_excel(w, sheet_name="notes", index=False)
        pd.DataFrame({"item": ["q1", "q2", "q3"], "ann": [1, 2, 3], "bob": [1, 2, 2]}).to_excel(
            w, sheet_name="scores", index=False)
    plain = runner.invoke(app, ["agree", str(f), "--sheet", "scores", "--layout", "wide", "--unit", "item",
                                "--distance", "interval", "--json"])
    assert plain.exit_code == 0, plain.output
    via = runner.invoke(app, ["agree", str(f), "--from", "spreadsheet", "--sheet", "1", "--layout", "wide",
                              "--unit", "item", "--distance", "interval", "--json"])
    assert via.exit_code == 0, via.output
    assert json.loads(plain.stdout)["alpha"] == pytest.approx(json.loads(via.stdout)["alpha"])
    assert "ann: 3 annotated" in via.stderr or json.loads(via.stdout)["import"]["report"]["counts"]["ann"][
        "annotated"] == 3


def test_import_offsets_option(tmp_path):
    out = tmp_path / "d.csv"
    res = runner.invoke(app, ["import", str(DATA / "doccano" / "ner"), "--from", "doccano", "--offsets",
                              "codepoints", "-o", str(out)])
    assert res.exit_code == 2 and "outside the text" in res.stderr and not out.exists()
    res = runner.invoke(app, ["import", str(LS), "--field", "ner", "--offsets", "codepoints", "-o", str(out)])
    assert res.exit_code == 2 and "--offsets applies to doccano and argilla" in res.stderr


@pytest.mark.parametrize("tool, export, field", [
    ("prodigy", DATA / "prodigy" / "ner.jsonl", None),
    ("label-studio", LS, "ner"),
    ("doccano", DATA / "doccano" / "ner", None),
    ("argilla", DATA / "argilla" / "dataset", "places"),
])
def test_imported_span_table_reads_back_as_the_same_spans(tmp_path, tool, export, field):
    from accord.importers import read_export
    from accord.spans._readers import read_spans

    out = tmp_path / "spans.csv"
    args = ["import", str(export), "--from", tool, "-o", str(out)] + (["--field", field] if field else [])
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    imp = read_export(export, tool=tool, field=field).spans
    back = read_spans(out, texts=dict(imp.texts))
    assert back.spans == imp.spans
    assert back.seen == imp.seen


def test_importer_options_from_the_command_line(tmp_path):
    ds = str(DATA / "argilla" / "dataset")
    res = runner.invoke(app, ["agree", ds, "--field", "sentiment", "--option", "drafts=true", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["import"]["report"]["counts"]["u-ana"]["annotated"] == 3
    out = tmp_path / "s.csv"
    res = runner.invoke(app, ["import", str(LS), "--field", "sentiment", "--option", "multiple=true", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert pd.read_csv(out)["value"].str.startswith("[").all()
    res = runner.invoke(app, ["agree", ds, "--field", "sentiment", "--option", "nope=1"])
    assert res.exit_code == 2 and "the argilla importer's options are" in res.stderr and "drafts" in res.stderr
    res = runner.invoke(app, ["agree", ds, "--field", "sentiment", "--option", "drafts"])
    assert res.exit_code == 2 and "NAME=VALUE" in res.stderr
