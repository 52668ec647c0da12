"""``accord layers`` and :func:`accord.importers.layers`: every layer or control of an export, each annotator's
count, and what accord measures on it (issue 32, "Whole projects").

The exports are those the importers' own tests write by hand from each tool's documented format (brat's
standoff format, INCEpTION's WebAnno TSV 3.3 appendix, Label Studio's and Argilla's exports in
docs/examples/importers).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import app
from accord.importers import layers

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples" / "importers"
TEXT = "No fever, mild cough, aspirin given.\n"


def _quiet(call, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call(*args, **kwargs)


def _brat(root):
    files = {
        "alice/d.ann": ("T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nA1\tNegated T1\nA2\tSeverity T2 mild\n"
                        "R1\tCause Arg1:T1 Arg2:T2\n#1\tAnnotatorNotes T1\tcheck\n"),
        "bob/d.ann": "T1\tSymptom 3 8\tfever\nN1\tReference T1 UMLS:C0015967\tFever\n",
    }
    for name, content in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(TEXT, encoding="utf-8")
    return root


def test_brat_lists_spans_attributes_and_what_is_set_aside(tmp_path):
    found = layers(_brat(tmp_path), tool="brat")
    rows = {x.name: x for x in found.layers}
    assert found.coders == ("alice", "bob")
    assert rows["text-bound (T)"].counts == {"alice": 2, "bob": 1}
    assert rows["text-bound (T)"].command == "accord spans"
    assert rows["Negated"].kind == "attribute" and rows["Negated"].counts == {"alice": 1, "bob": 0}
    assert rows["Negated"].function == "accord.attributes.agreement"
    assert rows["N:UMLS"].counts == {"alice": 0, "bob": 1}
    assert rows["notes (#)"].counts == {"alice": 1} and rows["notes (#)"].command is None
    assert "set aside" in rows["notes (#)"].reason
    assert rows["relations (R)"].counts == {"alice": 1}


def test_inception_lists_span_fields_and_the_layers_it_does_not_read():
    found = _quiet(layers, EXAMPLES / "project.zip", tool="inception")
    rows = {x.name: x for x in found.layers}
    assert rows["NamedEntity|value"].counts == {"alice": 4, "bob": 3, "carol": 0, "dave": 0}
    assert rows["NamedEntity|value"].command == "accord spans --field 'NamedEntity|value'"
    # a relation layer is accord relations' (TSV and UIMA CAS JSON), over the span layer it links
    assert rows["Link"].kind == "relations" and rows["Link"].command == "accord relations"
    assert rows["Link"].function == "accord.relations" and rows["Link"].reason is None


def test_label_studio_lists_every_control():
    found = _quiet(layers, EXAMPLES / "export.json")
    rows = {x.name: x for x in found.layers}
    assert found.tool == "label-studio"
    assert rows["sentiment"].kind == "nominal" and rows["sentiment"].command == "accord agree --field sentiment"
    assert rows["ner"].kind == "spans"
    # a textarea is set aside, or, where the importer reads free text when named, a field of its own
    comment = rows.get("comment") or rows["textarea 'comment'"]
    assert (comment.kind == "set aside" and "free text" in comment.reason) or (
        comment.kind == "text" and comment.command == "accord agree --field comment")


def test_argilla_lists_text_and_ranking_questions():
    found = _quiet(layers, EXAMPLES / "dataset")
    rows = {x.name: x for x in found.layers}
    assert found.tool == "argilla"
    # set aside, or, where the importer reads rankings when named, a field of its own
    order = rows.get("order") or rows["ranking question 'order'"]
    assert order.counts == {"u-ana": 1} or order.counts == {"u-ana": 1, "u-ben": 0}
    assert order.kind == "set aside" or order.command == "accord agree --field order"
    assert rows["topics"].kind == "set"


@pytest.mark.parametrize("name", ["choice.jsonl", "doccano.zip"])
def test_prodigy_and_doccano(name):
    found = _quiet(layers, EXAMPLES / name)
    assert found.layers and all(x.command for x in found.layers)


def test_command_table_and_json(tmp_path):
    root = _brat(tmp_path)
    out = CliRunner().invoke(app, ["layers", str(root), "--from", "brat", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [x["name"] for x in data["layers"]][:2] == ["text-bound (T)", "N:UMLS"]
    out = CliRunner().invoke(app, ["layers", str(root), "--from", "brat"])
    assert out.exit_code == 0 and "accord attributes" in out.stdout
    out = CliRunner().invoke(app, ["layers", str(tmp_path / "none"), "--from", "brat"])
    assert out.exit_code == 2 and "no such file" in out.output
