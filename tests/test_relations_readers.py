"""Relations read from the tools' exports, on files written here by hand from each tool's documented schema:

- brat: the standoff format (https://brat.nlplab.org/standoff.html, brat v1.3): ``R1 TAB Origin Arg1:T3 Arg2:T4``
  and ``E1 TAB MERGE-ORG:T2 Org1:T1 Org2:T3`` (its examples, on its example sentence), repeated roles
  numbered (brat's event-annotation tutorial: "Theme2", "Theme3");
- Label Studio: the JSON export (https://labelstud.io/guide/task_format) with the results of the
  ``Relations`` tag (https://labelstud.io/tags/relations): ``{"from_id", "to_id", "type": "relation",
  "direction": "right" | "left" | "bi", "labels": [...]}`` beside the ``labels`` regions they join;
- INCEpTION / WebAnno: WebAnno TSV 3.3 (INCEpTION user guide, appendix "WebAnno TSV 3.3"): a relation layer
  ``#T_RL=<layer>|<feature>|BT_<span layer>`` written on the first token of the dependent span, its last
  column the governor's token address with ``[governor id_dependent id]`` (0: a span without an id);
- Prodigy: ``rel.manual`` tasks (https://prodi.gy/docs/api-interfaces#relations): ``relations`` of
  ``{"head", "child", "head_span", "child_span", "label"}``, head and child token indices.

Without relations asked for, every relation is counted in the import report.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from accord import AccordError, AccordWarning
from accord.importers import read_export
from accord.relations import agreement, read_relations

TEXT = "Sony formed a joint venture with Ericsson, a mobile phone company based in Sweden.\n"


def _brat(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "round1"
    for coder, ann in files.items():
        (root / coder).mkdir(parents=True)
        (root / coder / "d1.txt").write_text(TEXT, encoding="utf-8")
        (root / coder / "d1.ann").write_text(ann, encoding="utf-8")
    return root


ALICE = ("T1\tOrganization 0 4\tSony\n"
         "T2\tMERGE-ORG 14 27\tjoint venture\n"
         "T3\tOrganization 33 41\tEricsson\n"
         "T4\tCountry 75 81\tSweden\n"
         "R1\tOrigin Arg1:T3 Arg2:T4\n"
         "E1\tMERGE-ORG:T2 Org1:T1 Org2:T3\n"
         "A1\tNegation E1\n")
BOB = ("T1\tOrganization 0 4\tSony\n"
       "T2\tMERGE-ORG 14 27\tjoint venture\n"
       "T3\tOrganization 33 41\tEricsson\n"
       "T4\tCountry 75 81\tSweden\n"
       "R1\tOrigin Arg2:T4 Arg1:T3\t\n"  # arguments written the other way round; a trailing tab
       "E1\tMERGE-ORG:T2 Org1:T1\n")


def test_brat_relations_and_events(tmp_path):
    root = _brat(tmp_path, {"alice": ALICE, "bob": BOB})
    data, reports = read_relations(root, tool="brat")
    got = sorted((r.coder, r.id, r.type, r.source.start, r.target.start, r.event) for r in data.relations)
    assert got == [("alice", "E1:Org1", "Org", 14, 0, "E1"), ("alice", "E1:Org2", "Org", 14, 33, "E1"),
                   ("alice", "R1", "Origin", 33, 75, None),
                   ("bob", "E1:Org1", "Org", 14, 0, "E1"), ("bob", "R1", "Origin", 33, 75, None)]
    assert any("3 event roles read without their number" in n for n in reports[0].notes)
    assert reports[0].dropped_reasons() == {"attribute (not compared)": 1}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        res = agreement(data)
    # alice 3 relations, bob 2, 2 matched: F1 = 4 / 5
    assert res.f1 == pytest.approx(0.8)
    assert [(u.coder, u.relation, u.reason) for u in res.unmatched] == [("alice", "E1:Org2", "absent")]


def test_brat_relations_counted_when_not_asked_for(tmp_path):
    root = _brat(tmp_path, {"alice": ALICE, "bob": BOB})
    report = read_export(root, tool="brat").report
    assert report.dropped_reasons() == {"relation (not compared)": 2, "event (not compared)": 2,
                                        "attribute (not compared)": 1}


def test_brat_event_as_an_argument_stands_for_its_trigger(tmp_path):
    ann = ("T1\tOrganization 0 4\tSony\nT2\tMERGE-ORG 14 27\tjoint venture\nT3\tOrganization 33 41\tEricsson\n"
           "T4\tReport 5 11\tformed\nE1\tMERGE-ORG:T2 Org1:T1\nE2\tReport:T4 Theme:E1\n")
    data, _ = read_relations(_brat(tmp_path, {"alice": ann, "bob": ann}), tool="brat")
    theme = [r for r in data.relations if r.event == "E2"]
    assert [(r.type, r.source.label, r.target.label) for r in theme] == [("Theme", "Report", "MERGE-ORG")] * 2


@pytest.mark.parametrize(("line", "message"), [
    ("R1\tOrigin Arg1:T3 Arg2:T9\n", r"line 5, annotation R1, field 'Arg2': its argument T9 names no text-bound"),
    ("R1\tOrigin Arg1:T3\n", r"annotation R1, field 'arguments': a relation has two arguments .* found 1"),
    ("E1\tMERGE-ORG:T9 Org1:T1\n", r"annotation E1, field 'trigger': its trigger T9 is not a text-bound"),
    ("E1\tMERGE-ORG:T2 Org1 T1\n", r"annotation E1, field 'arguments': cannot read the argument 'Org1'"),
    ("R1\t\n", r"annotation R1, field 'type': no annotation after the id"),
])
def test_brat_bad_relation_lines(tmp_path, line, message):
    ann = "T1\tOrganization 0 4\tSony\nT2\tMERGE-ORG 14 27\tjoint venture\nT3\tOrganization 33 41\tEricsson\n" \
          "T4\tCountry 75 81\tSweden\n" + line
    root = _brat(tmp_path, {"alice": ann, "bob": ALICE})
    with pytest.raises(AccordError, match=message):
        read_relations(root, tool="brat")
    read_export(root, tool="brat")  # not asked for: counted, not read


LS_TEXT = "Alice works for Acme in Paris."


def _ls(tmp_path: Path, annotations: list[dict]) -> Path:
    f = tmp_path / "export.json"
    f.write_text(json.dumps([{"id": 7, "data": {"text": LS_TEXT}, "annotations": annotations}]), encoding="utf-8")
    return f


def _region(rid: str, s: int, e: int, label: str) -> dict:
    return {"id": rid, "from_name": "ner", "to_name": "text", "type": "labels",
            "value": {"start": s, "end": e, "text": LS_TEXT[s:e], "labels": [label]}}


def _ls_rel(f: str, t: str, direction: str, labels: list[str]) -> dict:
    return {"from_id": f, "to_id": t, "type": "relation", "direction": direction, "labels": labels}


def test_label_studio_relations(tmp_path):
    ann1 = {"id": 1, "completed_by": 1, "was_cancelled": False, "result": [
        _region("a1", 0, 5, "PER"), _region("a2", 16, 20, "ORG"), _region("a3", 24, 29, "LOC"),
        _ls_rel("a1", "a2", "right", ["works_for"]), _ls_rel("a2", "a3", "right", ["located_in"])]}
    ann2 = {"id": 2, "completed_by": 2, "was_cancelled": False, "result": [
        _region("b1", 0, 5, "PER"), _region("b2", 16, 20, "ORG"), _region("b3", 24, 29, "LOC"),
        _ls_rel("b2", "b1", "left", ["works_for"]), _ls_rel("b1", "b3", "bi", [])]}
    path = _ls(tmp_path, [ann1, ann2])
    data, _ = read_relations(path, tool="label-studio")
    got = sorted((r.coder, r.type, r.source.start, r.target.start, r.directed) for r in data.relations)
    assert got == [("1", "located_in", 16, 24, True), ("1", "works_for", 0, 16, True),
                   ("2", "(unlabelled)", 0, 24, False), ("2", "works_for", 0, 16, True)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        assert agreement(data).f1 == 0.5
    assert read_export(path, tool="label-studio").report.dropped_reasons() == {
        "relation between regions (not compared; relations=True reads it)": 4}


def test_label_studio_dangling_region(tmp_path):
    ann = {"id": 1, "completed_by": 1, "was_cancelled": False, "result": [
        _region("a1", 0, 5, "PER"), _ls_rel("a1", "zz", "right", ["works_for"])]}
    with pytest.raises(AccordError, match=r"record 7, annotator 1, field 'to_id': a relation's to_id 'zz' names no "
                                          "region"):
        read_relations(_ls(tmp_path, [ann]), tool="label-studio")
    ann["result"][1] = _ls_rel("a1", "a1", "up", ["x"])
    with pytest.raises(AccordError, match="direction must be right, left or bi; got 'up'"):
        read_relations(_ls(tmp_path, [ann]), tool="label-studio")


TOKENS = [{"text": "Alice", "start": 0, "end": 5, "id": 0, "ws": True},
          {"text": "works", "start": 6, "end": 11, "id": 1, "ws": True},
          {"text": "for", "start": 12, "end": 15, "id": 2, "ws": True},
          {"text": "Acme", "start": 16, "end": 20, "id": 3, "ws": False},
          {"text": ".", "start": 20, "end": 21, "id": 4, "ws": False}]
PER = {"start": 0, "end": 5, "token_start": 0, "token_end": 0, "label": "PER"}
ORG = {"start": 16, "end": 20, "token_start": 3, "token_end": 3, "label": "ORG"}


def _prodigy(tmp_path: Path, rels: dict[str, list[dict]]) -> Path:
    tasks = [{"text": "Alice works for Acme.", "_input_hash": 11, "_task_hash": 22, "tokens": TOKENS,
              "spans": [PER, ORG], "relations": r, "answer": "accept", "_view_id": "relations",
              "_annotator_id": f"rel-{who}", "_session_id": f"rel-{who}"} for who, r in rels.items()]
    f = tmp_path / "db.jsonl"
    f.write_text("\n".join(json.dumps(t) for t in tasks) + "\n", encoding="utf-8")
    return f


def test_prodigy_relations(tmp_path):
    full = {"head": 0, "child": 3, "head_span": PER, "child_span": ORG, "label": "WORKS_FOR"}
    bare = {"head": 0, "child": 3, "label": "WORKS_FOR"}  # no spans given: the tokens' spans
    path = _prodigy(tmp_path, {"al": [full], "bo": [bare]})
    data, _ = read_relations(path, tool="prodigy")
    assert sorted((r.coder, r.type, r.source.label, r.target.label) for r in data.relations) == [
        ("rel-al", "WORKS_FOR", "PER", "ORG"), ("rel-bo", "WORKS_FOR", "PER", "ORG")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        assert agreement(data).f1 == 1.0


def test_prodigy_relations_are_counted_when_not_read(tmp_path):
    """Before, Prodigy's relations vanished without a word (issue 32)."""
    full = {"head": 0, "child": 3, "head_span": PER, "child_span": ORG, "label": "WORKS_FOR"}
    path = _prodigy(tmp_path, {"al": [full, {**full, "label": "X"}], "bo": [full]})
    assert read_export(path, tool="prodigy").report.dropped_reasons() == {
        "relation (not compared; relations=True reads it)": 3}


def test_prodigy_bad_token(tmp_path):
    path = _prodigy(tmp_path, {"al": [{"head": 0, "child": 9, "label": "X"}], "bo": []})
    with pytest.raises(AccordError, match=r"annotator rel-al, field 'relations.child': a relation's child 9 names no "
                                          "token"):
        read_relations(path, tool="prodigy")


INC_HEAD = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
            "#T_RL=webanno.custom.Rel|label|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n\n\n"
            "#Text=Alice works for Acme Corp .\n")


def _tsv(alice_rel: tuple[str, str], acme_rel: tuple[str, str]) -> str:
    rows = [("1-1", "0-5", "Alice", "PER", *alice_rel), ("1-2", "6-11", "works", "_", "_", "_"),
            ("1-3", "12-15", "for", "_", "_", "_"), ("1-4", "16-20", "Acme", "ORG[1]", *acme_rel),
            ("1-5", "21-25", "Corp", "ORG[1]", "_", "_"), ("1-6", "26-27", ".", "_", "_", "_")]
    return INC_HEAD + "".join("\t".join(r) + "\n" for r in rows)


def test_inception_relation_layer(tmp_path):
    doc = tmp_path / "export" / "annotation" / "doc1"
    doc.mkdir(parents=True)
    # alice: Alice (governor, single token, id 0) -> Acme Corp (dependent, id 1), on Acme's first token
    (doc / "alice.tsv").write_text(_tsv(("_", "_"), ("works_for", "1-1[0_1]")), encoding="utf-8")
    # bob: Acme Corp (governor, id 1) -> Alice, on Alice's token
    (doc / "bob.tsv").write_text(_tsv(("employs", "1-4[1_0]"), ("_", "_")), encoding="utf-8")
    data, _ = read_relations(tmp_path / "export", tool="inception")
    assert sorted((r.coder, r.type, (r.source.start, r.source.end), (r.target.start, r.target.end))
                  for r in data.relations) == [("alice", "works_for", (0, 5), (16, 25)),
                                               ("bob", "employs", (16, 25), (0, 5))]
    report = read_export(tmp_path / "export", tool="inception").report
    assert report.dropped_reasons() == {"relation (not compared; relations=True reads it)": 2}
    # a relation layer over another span layer is counted, not read
    other = INC_HEAD.replace("#T_RL=", "#T_SP=webanno.custom.Other|value\n#T_RL=").replace(
        "BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity", "BT_webanno.custom.Other")
    rows = _tsv(("_", "_"), ("works_for", "1-1[0_1]")).splitlines()[6:]
    (doc / "carol.tsv").write_text(other + "".join("\t".join([*r.split("\t")[:4], "_", *r.split("\t")[4:]]) + "\n"
                                                   for r in rows), encoding="utf-8")
    _, reports = read_relations(tmp_path / "export", tool="inception")
    assert reports[0].dropped_reasons() == {"relation over another span layer than the one read (not compared)": 1}
    (doc / "carol.tsv").unlink()
    (doc / "bob.tsv").write_text(_tsv(("employs", "1-4[7_0]"), ("_", "_")), encoding="utf-8")
    with pytest.raises(AccordError, match="bob, line 7: relation layer webanno.custom.Rel: its governor id 7 names no"):
        read_relations(tmp_path / "export", tool="inception")


def test_a_tool_without_relations_is_refused(tmp_path):
    with pytest.raises(AccordError, match="tool must be one of brat, doccano, inception, label-studio, prodigy"):
        read_relations(tmp_path, tool="argilla")


def test_several_exports_read_as_one_project(tmp_path):
    """One Label Studio export per annotator: read together; the same annotator's document twice is refused."""
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    ann = [_region("r1", 0, 5, "PER"), _region("r2", 16, 20, "ORG"), _ls_rel("r1", "r2", "right", ["works_for"])]
    _ls(one, [{"id": 1, "completed_by": 1, "was_cancelled": False, "result": ann}])
    _ls(two, [{"id": 2, "completed_by": 2, "was_cancelled": False, "result": ann}])
    data, reports = read_relations([one / "export.json", two / "export.json"], tool="label-studio")
    assert data.coders == ("1", "2") and len(reports) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        assert agreement(data).f1 == 1.0
    with pytest.raises(AccordError, match="coder '1' annotated document '7' here and in"):
        read_relations([one / "export.json", one / "export.json"], tool="label-studio")
