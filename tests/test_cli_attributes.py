"""``accord attributes`` and :func:`accord.attributes.export_agreement` on a brat folder written by hand from
the brat standoff format documentation (https://brat.nlplab.org/standoff.html: ``T``, ``A`` and ``N`` lines)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.attributes import export_agreement
from accord.cli import app

TEXT = "No fever, mild cough, aspirin given.\n"
FILES = {
    "alice/d.ann": ("T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nT3\tDrug 22 29\taspirin\nA1\tNegated T1\n"
                    "A2\tSeverity T2 mild\nN1\tReference T3 DrugBank:DB00945\taspirin\n"),
    "bob/d.ann": ("T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nT3\tDrug 22 29\taspirin\nA1\tNegated T1\n"
                  "A2\tSeverity T2 moderate\nN1\tReference T3 DrugBank:DB00316\tacetaminophen\nT4\tSymptom 0 2\tNo\n"),
}


@pytest.fixture
def export(tmp_path):
    for name, content in FILES.items():
        f = tmp_path / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(TEXT, encoding="utf-8")
    return tmp_path


def test_export_agreement(export):
    res = export_agreement(export, tool="brat")
    assert res.names == ("N:DrugBank", "Negated", "Severity")
    # Negated on the aligned Symptom spans: fever (true, true), cough (false, false): perfect, alpha 1
    assert res["Negated"].alpha == 1.0 and res["Negated"].n_units == 2
    # one unit each with two different values: D_o = D_e = 1, alpha 0
    assert res["Severity"].alpha == 0.0 and res["N:DrugBank"].alpha == 0.0
    assert [(u.coder, u.start) for u in res.unaligned] == [("bob", 0)]
    assert res.report.tool == "brat"
    ordered = export_agreement(export, tool="brat", orders={"Severity": ["mild", "moderate", "severe"]})
    assert ordered["Severity"].kind == "ordinal"


def test_a_tool_without_attributes_is_refused(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text('{"text": "a", "label": ["x"]}\n', encoding="utf-8")
    with pytest.raises(AccordError, match="its importer reads no attributes of spans"):
        export_agreement(f, tool="doccano")


def test_command(export):
    out = CliRunner().invoke(app, ["attributes", str(export), "--from", "brat", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [a["name"] for a in data["attributes"]] == ["N:DrugBank", "Negated", "Severity"]
    assert data["n_unaligned"] == 1
    out = CliRunner().invoke(app, ["attributes", str(export), "--from", "brat", "--ordinal",
                                   "Severity=mild,moderate,severe"])
    assert out.exit_code == 0, out.output
    assert "ordinal" in out.stdout and "1 marked by one annotator only" in out.stdout
    out = CliRunner().invoke(app, ["attributes", str(export), "--from", "brat", "--ordinal", "Severity"])
    assert out.exit_code == 2 and "--ordinal takes NAME=VALUE" in out.output
    out = CliRunner().invoke(app, ["attributes", str(export), "--from", "brat", "--match", "gamma"])
    assert out.exit_code == 2 and "match must be one of" in out.output


def test_the_long_table_keeps_the_attributes(export, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "long.csv"
    res = CliRunner().invoke(app, ["import", str(export), "--from", "brat", "--option", "attributes=true", "-o",
                                   str(out)])
    assert res.exit_code == 0, res.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "document,coder,start,end,label,text,attributes"
    assert 'd,alice,3,8,Symptom,fever,"{""Negated"": true}"' in lines
    assert 'd,bob,0,2,Symptom,No,{}' in lines


def test_the_long_table_reads_back(export, tmp_path_factory):
    out = tmp_path_factory.mktemp("out") / "long.csv"
    CliRunner().invoke(app, ["import", str(export), "--from", "brat", "--option", "attributes=true", "-o", str(out)])
    again = export_agreement(out)
    first = export_agreement(export, tool="brat")
    assert again.report is None
    assert [(a.name, a.alpha, a.n_values) for a in again.attributes] == [
        (a.name, a.alpha, a.n_values) for a in first.attributes]


def test_a_bad_attributes_cell_is_one_clear_error(tmp_path):
    f = tmp_path / "spans.csv"
    f.write_text('document,coder,start,end,label,attributes\nd,a,0,2,X,"{""v"": {""x"": 1}}"\n', encoding="utf-8")
    with pytest.raises(AccordError, match=r"spans.csv:2: the attributes field must be a JSON object"):
        export_agreement(f)


# --- several exports, one per coder (or a glob), read as one project -----------------------------------------------

@pytest.fixture
def per_coder(tmp_path):
    """The same two annotators' brat annotations, each in an export (a brat folder) of their own."""
    for name, content in FILES.items():
        coder = name.split("/")[0]
        f = tmp_path / f"export_{coder}" / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(TEXT, encoding="utf-8")
    return tmp_path


def _numbers(res):
    return [(a.name, a.alpha, a.n_units, a.n_values, a.n_unaligned) for a in res.attributes]


def test_one_export_per_coder_is_the_whole_project(export, per_coder):
    whole = export_agreement(export, tool="brat")
    both = export_agreement([per_coder / "export_alice", per_coder / "export_bob"], tool="brat")
    assert _numbers(both) == _numbers(whole) and both.coders == ("alice", "bob")
    assert both.report is None and [r.tool for r in both.reports] == ["brat", "brat"]
    assert [(u.coder, u.start) for u in both.unaligned] == [("bob", 0)]
    d = both.to_dict()
    assert len(d["reports"]) == 2 and d["report"] is None


def test_a_glob_of_span_tables(export, tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("glob")
    out = tmp_path / "long.csv"
    CliRunner().invoke(app, ["import", str(export), "--from", "brat", "--option", "attributes=true", "-o", str(out)])
    head, *rows = out.read_text(encoding="utf-8").splitlines()
    (tmp_path / "tables").mkdir()
    for coder in ("alice", "bob"):
        (tmp_path / "tables" / f"{coder}.csv").write_text(
            "\n".join([head, *(r for r in rows if r.split(",")[1] == coder)]) + "\n", encoding="utf-8")
    res = export_agreement(str(tmp_path / "tables" / "*.csv"))
    assert _numbers(res) == _numbers(export_agreement(export, tool="brat")) and res.reports == ()
    with pytest.raises(AccordError, match=r"nothing\*.csv: no file matches"):
        export_agreement(str(tmp_path / "tables" / "nothing*.csv"))


def test_one_coders_document_in_two_exports_is_refused(per_coder):
    import shutil

    shutil.copytree(per_coder / "export_alice", per_coder / "again")
    with pytest.raises(AccordError, match=r"again: coder 'alice' annotated document 'd' here and in .*"
                                          r"export_alice; read each coder's annotations of a document from one"):
        export_agreement([per_coder / "export_alice", per_coder / "again"], tool="brat")
    with pytest.raises(AccordError, match="named twice"):
        export_agreement([per_coder / "export_alice", per_coder / "export_alice"], tool="brat")
    with pytest.raises(AccordError, match="at least one export"):
        export_agreement([], tool="brat")


def test_command_reads_several_exports(export, per_coder):
    out = CliRunner().invoke(app, ["attributes", str(per_coder / "export_alice"), str(per_coder / "export_bob"),
                                   "--from", "brat", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [a["name"] for a in data["attributes"]] == ["N:DrugBank", "Negated", "Severity"]
    assert len(data["reports"]) == 2 and data["n_unaligned"] == 1
    table = CliRunner().invoke(app, ["attributes", str(per_coder / "export_alice"), str(per_coder / "export_bob"),
                                     "--from", "brat"])
    assert table.exit_code == 0 and "1 marked by one annotator only" in table.stdout


def test_command_on_a_span_table(export, tmp_path_factory):
    """A span table has no import report: the command prints the table without one."""
    out = tmp_path_factory.mktemp("table") / "long.csv"
    CliRunner().invoke(app, ["import", str(export), "--from", "brat", "--option", "attributes=true", "-o", str(out)])
    res = CliRunner().invoke(app, ["attributes", str(out)])
    assert res.exit_code == 0, res.output
    assert "Negated" in res.stdout and "1 marked by one annotator only" in res.stdout
