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
    assert rows["Knows"].kind == "relations" and rows["Knows"].counts == {"alice": 1, "bob": 1}
    assert rows["Knows"].command == "accord relations"  # CAS JSON relation layers are read (relations=True)
    assert rows["NamedEntity|value"].command == "accord spans --field 'NamedEntity|value'"
    assert rows["tags"].kind == "attribute" and rows["tags"].counts == {"alice": 1, "bob": 1}


# --- relation layers (relations=True): INCEpTION's relation layers in CAS JSON --------------------------------------
# A relation feature structure references its two annotations as the specification writes references,
# "@Governor": <%ID>, "@Dependent": <%ID>, with its own features beside them (a custom layer's "label"), its
# offsets those of the dependent; declared in %TYPES with Governor and Dependent ranges of the span layer.

REL_TYPES = {REL: {"%NAME": REL, "%SUPER_TYPE": "uima.tcas.Annotation",
                   "label": {"%NAME": "label", "%RANGE": "uima.cas.String"},
                   "Governor": {"%NAME": "Governor", "%RANGE": NE},
                   "Dependent": {"%NAME": "Dependent", "%RANGE": NE}}}


def _rel_cas(label_rel, *, extra=(), reverse=False):
    doc = json.loads(_cas("PER", None, []))
    doc["%TYPES"].update(REL_TYPES)
    knows = doc["%FEATURE_STRUCTURES"][6]
    if reverse:
        knows.update({"@Governor": 6, "@Dependent": 5, "begin": 3, "end": 6})
    if label_rel is not None:
        knows["label"] = label_rel
    for fs in extra:
        doc["%FEATURE_STRUCTURES"].append(fs)
        doc["%VIEWS"]["_InitialView"]["%MEMBERS"].append(fs["%ID"])
    return json.dumps(doc)


def _rel_export(tmp_path, alice, bob):
    target = tmp_path / "rels.zip"
    with zipfile.ZipFile(target, "w") as z:
        z.writestr("annotation/doc1.txt/alice.json", alice)
        z.writestr("annotation/doc1.txt/bob.json", bob)
    return target


def test_relations_from_cas_json(tmp_path):
    from accord.relations import agreement, read_relations

    # a relation of bob over two tokens (another layer's annotations): counted, not read
    over_tokens = {"%ID": 20, "%TYPE": REL, "@sofa": 1, "begin": 7, "end": 10, "@Governor": 2, "@Dependent": 3,
                   "label": "knows"}
    src = _rel_export(tmp_path, _rel_cas("knows"), _rel_cas("likes", extra=[over_tokens]))
    data, reports = read_relations(src, tool="inception", field="NamedEntity|value")
    got = sorted((r.coder, r.type, data.spans.texts["doc1.txt"][r.source.start:r.source.end],
                  data.spans.texts["doc1.txt"][r.target.start:r.target.end], r.source.label) for r in data.relations)
    # from the governor (Ann, id 5) to the dependent (Bob, id 6), offsets re-anchored from UTF-16
    assert got == [("alice", "knows", "Ann", "Bob", "PER"), ("bob", "likes", "Ann", "Bob", "PER")]
    assert reports[0].dropped_reasons() == {
        "relation over another span layer than the one read (not compared)": 1}
    assert not any("relation Knows" in n for n in reports[0].notes)  # read, not counted in the note
    res = agreement(data)
    assert res.pairs[0].untyped.f1 == 1.0 and res.pairs[0].typed.f1 == 0.0
    assert [u.reason for u in res.unmatched] == ["type", "type"]


def test_a_cas_relation_without_its_feature_is_typed_by_its_layer(tmp_path):
    from accord.relations import agreement, read_relations

    src = _rel_export(tmp_path, _rel_cas(None), _rel_cas("*", reverse=True))
    data, _ = read_relations(src, tool="inception", field="NamedEntity|value")
    assert {(r.coder, r.type) for r in data.relations} == {("alice", "Knows"), ("bob", "Knows")}
    assert [u.reason for u in agreement(data).unmatched] == ["direction", "direction"]


def test_a_cas_relation_naming_nothing_is_one_clear_error(tmp_path):
    from accord.relations import read_relations

    broken = json.loads(_rel_cas("knows"))
    broken["%FEATURE_STRUCTURES"][6]["@Dependent"] = 99
    src = _rel_export(tmp_path, json.dumps(broken), _rel_cas("knows"))
    with pytest.raises(AccordError, match=r"rels.zip, annotation/doc1.txt/alice: relation 7 \(webanno.custom.Knows\): "
                                          r"its Dependent 99 names no feature structure of the file"):
        read_relations(src, tool="inception", field="NamedEntity|value")
