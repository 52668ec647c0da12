"""INCEpTION's UIMA CAS JSON annotation files, written by hand from the UIMA JSON CAS draft specification
(Apache UIMA, uima-uimaj-io-jsoncas, SPECIFICATION.adoc: %TYPES, %FEATURE_STRUCTURES with %ID and %TYPE,
``@`` references, arrays' %ELEMENTS, %VIEWS with %SOFA and %MEMBERS) and the DKPro Core types INCEpTION uses
(Token, Sentence, NamedEntity with value and identifier); offsets count UTF-16 code units, as Java does."""

from __future__ import annotations

import json
import zipfile

import pytest

from accord import AccordError, AccordWarning
from accord.attributes import agreement
from accord.importers import guess_tool, read_export

NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
REL = "webanno.custom.Knows"
TEXT = "\N{WAVING HAND SIGN} Ann met Bob."  # the emoji is two UTF-16 code units: Ann starts at 3


def _cas(value_bob, kb_bob, tags_ann):
    fs = [
        {"%ID": 1, "%TYPE": "uima.cas.Sofa", "sofaNum": 1, "sofaID": "_InitialView", "mimeType": "text",
         "sofaString": TEXT},
        {"%ID": 2, "%TYPE": TOKEN, "@sofa": 1, "begin": 3, "end": 6},
        {"%ID": 3, "%TYPE": TOKEN, "@sofa": 1, "begin": 7, "end": 10},
        {"%ID": 4, "%TYPE": TOKEN, "@sofa": 1, "begin": 11, "end": 14},
        {"%ID": 5, "%TYPE": NE, "@sofa": 1, "begin": 3, "end": 6, "value": "PER",
         "identifier": "http://www.wikidata.org/entity/Q1", "@tags": 9},
        {"%ID": 6, "%TYPE": NE, "@sofa": 1, "begin": 11, "end": 14, "value": value_bob,
         **({"identifier": kb_bob} if kb_bob else {})},
        {"%ID": 7, "%TYPE": REL, "@sofa": 1, "begin": 11, "end": 14, "@Governor": 5, "@Dependent": 6},
        {"%ID": 8, "%TYPE": "uima.tcas.DocumentAnnotation", "@sofa": 1, "begin": 0, "end": 15, "language": "en"},
        {"%ID": 9, "%TYPE": "uima.cas.StringArray", "%ELEMENTS": tags_ann},
    ]
    return json.dumps({
        "%TYPES": {NE: {"%NAME": NE, "%SUPER_TYPE": "uima.tcas.Annotation",
                        "value": {"%NAME": "value", "%RANGE": "uima.cas.String"},
                        "identifier": {"%NAME": "identifier", "%RANGE": "uima.cas.String"},
                        "tags": {"%NAME": "tags", "%RANGE": "uima.cas.StringArray"}}},
        "%FEATURE_STRUCTURES": fs,
        "%VIEWS": {"_InitialView": {"%SOFA": 1, "%MEMBERS": [2, 3, 4, 5, 6, 7, 8]}},
    })


def _export(tmp_path):
    target = tmp_path / "project.zip"
    with zipfile.ZipFile(target, "w") as z:
        z.writestr("annotation/doc1.txt/alice.json", _cas("PER", "http://www.wikidata.org/entity/Q2", ["a", "b"]))
        z.writestr("annotation/doc1.txt/bob.json", _cas("ORG", None, ["a"]))
    return target


def test_spans_and_features_from_cas_json(tmp_path):
    src = _export(tmp_path)
    assert guess_tool(src) == "inception"
    imp = read_export(src, tool="inception", field="NamedEntity|value", attributes=True)
    text = imp.spans.texts["doc1.txt"]
    assert text == TEXT
    got = {(s.coder, text[s.start:s.end], s.label): dict(s.attributes) for s in imp.spans.spans}
    assert got[("alice", "Ann", "PER")] == {"identifier": "http://www.wikidata.org/entity/Q1", "tags": ("a", "b")}
    assert got[("bob", "Bob", "ORG")] == {}
    assert got[("alice", "Bob", "PER")] == {"identifier": "http://www.wikidata.org/entity/Q2"}
    assert imp.spans.tokens["doc1.txt"] == ((2, 5), (6, 9), (10, 13))  # code points
    with pytest.warns(AccordWarning, match="alpha of attribute 'identifier' is undefined"):
        res = agreement(imp.spans)  # the one aligned span: Q1 for both
    assert res["tags"].kind == "set"  # a string array is a multi-valued feature
    assert res.n_aligned == 1  # Ann; Bob is PER for alice and ORG for bob


def test_the_relation_layer_is_not_a_span_field(tmp_path):
    with pytest.raises(AccordError, match="several span layers/features") as err:
        read_export(_export(tmp_path), tool="inception")
    assert "Knows" not in str(err.value) and "NamedEntity|tags" in str(err.value)
    imp = read_export(_export(tmp_path), tool="inception", field="NamedEntity|value")
    assert any("relation Knows (2)" in n for n in imp.report.notes)  # one in each annotator's file


def test_a_single_cas_json_file(tmp_path):
    f = tmp_path / "alice.json"
    f.write_text(_cas("PER", None, []), encoding="utf-8")
    imp = read_export(f, tool="inception", field="NamedEntity|identifier")
    assert sorted(s.label for s in imp.spans.spans) == ["NamedEntity", "http://www.wikidata.org/entity/Q1"]


def test_a_cas_without_text_is_one_clear_error(tmp_path):
    f = tmp_path / "alice.json"
    f.write_text(json.dumps({"%FEATURE_STRUCTURES": [], "%VIEWS": {}}), encoding="utf-8")
    with pytest.raises(AccordError, match="no text: the _InitialView has no Sofa"):
        read_export(f, tool="inception")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["%FEATURE_STRUCTURES"][4].update({"begin": 9, "end": 2}), "has begin 9 and end 2"),
    (lambda d: d["%FEATURE_STRUCTURES"][4].update({"value": {"x": 1}}), "feature 'value' holds a JSON dict"),
    (lambda d: d["%FEATURE_STRUCTURES"][4].update({"%ID": [5]}), r"has no %ID \(an integer\)"),
    (lambda d: d["%VIEWS"]["_InitialView"].update({"%SOFA": [1], "%MEMBERS": [[2], "x", 5]}), None),
])
def test_damaged_cas_json_is_one_clear_error_or_read(tmp_path, change, message):
    doc = json.loads(_cas("PER", None, ["a"]))
    change(doc)
    f = tmp_path / "alice.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    if message is None:
        assert read_export(f, tool="inception", field="NamedEntity|value").spans.spans
        return
    with pytest.raises(AccordError, match=message):
        read_export(f, tool="inception", field="NamedEntity|value")


def test_layers_lists_the_relation_layer(tmp_path):
    from accord.importers import layers

    found = layers(_export(tmp_path), tool="inception")
    rows = {x.name: x for x in found.layers}
    assert rows["Knows"].kind == "relation" and rows["Knows"].counts == {"alice": 1, "bob": 1}
    assert rows["NamedEntity|value"].command == "accord spans --field 'NamedEntity|value'"
    assert rows["tags"].kind == "attribute" and rows["tags"].counts == {"alice": 1, "bob": 1}
