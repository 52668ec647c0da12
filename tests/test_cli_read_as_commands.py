"""Issue 28's leftovers: ``accord alt-test`` reads tables as ``accord agree`` does (columns and layout told from
the file, said on stderr and in the JSON's ``read_as``), and ``accord report`` reads a folder of tables as one
table for the agreement report while folders of coreference files stay coreference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import accord
from accord.cli import app
from accord.cli._report import detect_kind
from accord.models_vs_humans import alt_test

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
BLOCK = ["aaba", "abaa", "baaa", "aaaa"]  # h1, h2, h3, llm per item: each human departs once per block


def _long(tmp_path: Path, header: str = "item,annotator,label,comment", sep: str = ",") -> Path:
    lines = [header.replace(",", sep)]
    for b in range(10):
        for k, row in enumerate(BLOCK):
            for coder, v in zip(["h1", "h2", "h3", "llm"], row, strict=True):
                lines.append(sep.join([f"u{4 * b + k:03d}", coder, v, "seen"]))
    path = tmp_path / "labels.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def _wide(tmp_path: Path) -> Path:
    lines = ["item,h1,h2,h3,llm"]
    for b in range(10):
        for k, row in enumerate(BLOCK):
            lines.append(",".join([f"u{4 * b + k:03d}", *row]))
    path = tmp_path / "sheet.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_alt_test_tells_the_columns_and_says_so(tmp_path):
    path = _long(tmp_path)
    named = accord.read(path, unit="item", coder="annotator", value="label")
    ref = json.loads(json.dumps(alt_test(named, models="llm").to_dict()))
    res = runner.invoke(app, ["alt-test", str(path), "--models", "llm", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["alt_test"] == ref
    assert out["read_as"]["layout"] == "long" and out["read_as"]["unit"] == "item"
    assert out["read_as"]["text"] == "long: unit=item, coder=annotator, value=label (1 column left alone: comment)"
    res = runner.invoke(app, ["alt-test", str(path), "--models", "llm"])
    assert res.exit_code == 0, res.output
    assert (f"accord: read {path} as long: unit=item, coder=annotator, value=label (1 column left alone: comment)"
            in res.stderr)
    assert "llm passes" in res.stdout


def test_alt_test_wide_sheet_and_semicolons_with_no_flags(tmp_path):
    path = _wide(tmp_path)
    res = runner.invoke(app, ["alt-test", str(path), "--models", "llm", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["read_as"]["layout"] == "wide" and out["read_as"]["coders"] == ["h1", "h2", "h3", "llm"]
    long_path = _long(tmp_path, sep=";")
    semi = json.loads(runner.invoke(app, ["alt-test", str(long_path), "--models", "llm", "--json"]).stdout)
    assert semi["read_as"]["sep"] == ";"
    assert out["alt_test"]["tests"] == semi["alt_test"]["tests"]


def test_alt_test_explicit_options_still_work(tmp_path):
    path = _long(tmp_path, header="u,c,v,comment")
    args = ["alt-test", str(path), "--models", "llm", "--unit", "u", "--coder", "c", "--value", "v", "--layout",
            "long", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["read_as"]["inferred"] == ["sep"]
    assert out["alt_test"] == json.loads(json.dumps(alt_test(accord.read(path, unit="u", coder="c", value="v"),
                                                             models="llm").to_dict()))
    res = runner.invoke(app, ["alt-test", str(path), "--models", "llm", "--layout", "counts"])
    assert res.exit_code == 2
    assert "--layout must be one of long, wide; got 'counts'" in res.stderr


def test_alt_test_refuses_columns_it_cannot_tell_in_one_message(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("a,b,c\nx,y,z\n")
    res = runner.invoke(app, ["alt-test", str(path), "--models", "llm"])
    assert res.exit_code == 2
    err = " ".join(res.stderr.split())
    assert err.startswith("accord: error:") and "cannot tell which column is which" in err
    assert "--unit" in err and "--coder" in err and "--value" in err


def _tables(folder: Path) -> Path:
    folder.mkdir()
    (folder / "part1.csv").write_text("item,annotator,label\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n")
    (folder / "part2.csv").write_text("item,annotator,label\n3,a,y\n3,b,y\n4,a,x\n4,b,x\n")
    return folder


def test_report_reads_a_folder_of_tables_as_one_table(tmp_path, monkeypatch):
    folder = _tables(tmp_path / "batches")
    assert detect_kind([folder]) == "agree"
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["report", str(folder), "--bootstrap", "0", "-q", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["kind"] == "agreement" and Path(out["output"]).name == "batches.html"
    assert out["headline"]["alpha"]["value"] == accord.alpha(accord.read(folder)).value
    assert out["read_as"]["files"] == ["part1.csv", "part2.csv"]
    res = runner.invoke(app, ["report", str(folder), "--bootstrap", "0", "-q", "--force"])
    assert res.exit_code == 0, res.output
    assert (f"accord: read {folder} as long: unit=item, coder=annotator, value=label (2 files: part1.csv, "
            "part2.csv)") in " ".join(res.stderr.split())


def test_folders_of_coreference_files_stay_coreference(tmp_path):
    brat = ROOT / "docs" / "examples" / "coreference" / "annA"
    assert detect_kind([brat]) == "coref"
    conll = tmp_path / "conll"
    conll.mkdir()
    (conll / "a.conll").write_text("#begin document (d); part 000\nd 0 0 A - (1)\n#end document\n")
    (conll / "notes.txt").write_text("read me\n")
    assert detect_kind([conll]) == "coref"
    tables = tmp_path / "coref_tables"
    tables.mkdir()
    (tables / "a.csv").write_text("document,mention,chain\nd,A,1\n")
    assert detect_kind([tables]) == "coref"
    jsonl = tmp_path / "jsonl"
    jsonl.mkdir()
    (jsonl / "a.jsonl").write_text('{"doc_key": "d", "clusters": [[[0, 0]]]}\n')
    assert detect_kind([jsonl]) == "coref"
    (tmp_path / "empty").mkdir()
    assert detect_kind([tmp_path / "empty"]) == "coref"  # nothing to read as a table: the coreference readers say


@pytest.mark.parametrize("name", ["annA"])
def test_report_on_a_brat_folder_still_measures_coreference(tmp_path, name):
    root = ROOT / "docs" / "examples" / "coreference"
    out = tmp_path / "coref.html"
    res = runner.invoke(app, ["report", str(root / "annA"), str(root / "annB"), "-o", str(out), "--bootstrap", "0",
                              "-q", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["kind"] == "coreference"
