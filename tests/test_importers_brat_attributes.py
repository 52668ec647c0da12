"""brat's attribute (A, and the older M) and normalisation (N) lines, read onto their spans.

Files written by hand from the brat standoff format documentation (https://brat.nlplab.org/standoff.html,
brat v1.3): ``A<id> TAB <name> <target>`` (binary) or ``A<id> TAB <name> <target> <value>``; ``M<id>`` the
same in brat's earlier form; ``N<id> TAB Reference <target> <resource>:<id> TAB <text>``.
"""

from __future__ import annotations

import pytest

from accord import AccordError, AccordWarning
from accord.attributes import agreement
from accord.importers import read_export

TEXT = "No fever, mild cough, aspirin given.\n"


def _write(root, files):
    for name, content in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(TEXT, encoding="utf-8")
    return root


ALICE = (
    "T1\tSymptom 3 8\tfever\n"
    "T2\tSymptom 15 20\tcough\n"
    "T3\tDrug 22 29\taspirin\n"
    "A1\tNegated T1\n"
    "A2\tSeverity T2 mild\n"
    "N1\tReference T3 DrugBank:DB00945\taspirin\n"
    "N2\tReference T3 MeSH:D001241\tAspirin\n"
    "E1\tGive:T3\n"
    "A3\tNegated E1\n"
)
BOB = (
    "T1\tSymptom 3 8\tfever\n"
    "T2\tSymptom 15 20\tcough\n"
    "T3\tDrug 22 29\taspirin\n"
    "M1\tNegated T1\n"  # the earlier form of an attribute line
    "A2\tSeverity T2 moderate\n"
    "N1\tReference T3 DrugBank:DB00945\taspirin\n"
    "N2\tReference T3 DrugBank:DB00316\tacetaminophen\n"
)


def test_attributes_read_onto_spans(tmp_path):
    imp = read_export(_write(tmp_path, {"alice/d.ann": ALICE, "bob/d.ann": BOB}), tool="brat", attributes=True)
    by = {(s.coder, s.start): dict(s.attributes) for s in imp.spans.spans}
    assert by[("alice", 3)] == {"Negated": True} and by[("bob", 3)] == {"Negated": True}
    assert by[("alice", 15)] == {"Severity": "mild"} and by[("bob", 15)] == {"Severity": "moderate"}
    # the attribute of event E1 is its trigger's, T3 (brat standoff docs: "A1 TAB Negation E1")
    assert by[("alice", 22)] == {"N:DrugBank": "DB00945", "N:MeSH": "D001241", "Negated": True}
    assert by[("bob", 22)] == {"N:DrugBank": ("DB00945", "DB00316")}
    assert not any("attribute of" in r for r in imp.report.dropped_reasons())
    assert any("1 attribute of events read onto the events' triggers" in n for n in imp.report.notes)
    with pytest.warns(AccordWarning, match="alpha of attribute 'N:MeSH' is undefined"):
        res = agreement(imp.spans)  # only alice links to MeSH
    assert res.names == ("N:DrugBank", "N:MeSH", "Negated", "Severity")
    # measured on the drug span too (fever, cough, drug), where alice's event is negated and bob's span is not
    assert res["Negated"].n_units == 3 and res["Negated"].value_counts == {"false": 3, "true": 3}
    assert res["N:DrugBank"].kind == "set"
    assert res["Negated"].kind == "binary"


def test_attributes_counted_not_read_by_default(tmp_path):
    imp = read_export(_write(tmp_path, {"alice/d.ann": ALICE, "bob/d.ann": BOB}), tool="brat")
    assert all(not s.attributes for s in imp.spans.spans)
    reasons = imp.report.dropped_reasons()
    assert reasons["attribute (not compared)"] == 5
    assert reasons["normalisation (not compared)"] == 4


@pytest.mark.parametrize(("line", "message"), [
    ("A9\tNegated T7\n", r"line 4, annotation A9, field 'target': names the annotation T7, which the file does not"),
    ("A9\tNegated\n", r"line 4, annotation A9: an attribute line needs ID TAB NAME TARGET \[VALUE\]"),
    ("N9\tReference T1 DB00945\taspirin\n", r"annotation N9, field 'reference': the reference 'DB00945' is not"),
    ("A9\tSeverity T2 severe\n", "gives T2 the attribute Severity the value 'mild' on line 4 and the value 'severe'"),
])
def test_bad_attribute_lines_are_one_clear_error(tmp_path, line, message):
    text = "T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nT3\tDrug 22 29\taspirin\n" + line
    if "Severity T2 severe" in line:
        text = text.replace(line, "A2\tSeverity T2 mild\n" + line)
    root = _write(tmp_path, {"alice/d.ann": text, "bob/d.ann": ""})
    with pytest.raises(AccordError, match=message):
        read_export(root, tool="brat", attributes=True)


# brat's documented event attributes (standoff.html, "Attribute and modification annotations": ``A1 TAB
# Negation E1``, ``A2 TAB Confidence E2 L1``), on events written as the docs write them (``E1 TAB
# MERGE-ORG:T2 Org1:T1 Org2:T3``)
EVENT_TEXT = "Acme merged with Beta. Gamma hired Delta.\n"


def _events(root, files):
    for name, content in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(EVENT_TEXT, encoding="utf-8")
    return root


EV_A = ("T1\tOrg 0 4\tAcme\nT2\tMerge 5 11\tmerged\nT3\tOrg 17 21\tBeta\nT4\tHire 29 34\thired\n"
        "E1\tMerge:T2 Org1:T1 Org2:T3\nE2\tHire:T4\nA1\tNegation E1\nA2\tConfidence E2 L1\n")
EV_B = ("T1\tOrg 0 4\tAcme\nT2\tMerge 5 11\tmerged\nT3\tOrg 17 21\tBeta\nT4\tHire 29 34\thired\n"
        "E1\tMerge:T2 Org1:T1 Org2:T3\nE2\tHire:T4\nA2\tConfidence E2 L2\nR1\tSame Arg1:T1 Arg2:T3\n"
        "A3\tNegation R1\n")


def test_an_events_attributes_are_its_triggers(tmp_path):
    from accord.attributes import export_agreement

    root = _events(tmp_path, {"a/d.ann": EV_A, "b/d.ann": EV_B})
    imp = read_export(root, tool="brat", attributes=True)
    by = {(s.coder, s.label): dict(s.attributes) for s in imp.spans.spans}
    assert by[("a", "Merge")] == {"Negation": True} and by[("a", "Hire")] == {"Confidence": "L1"}
    assert by[("b", "Merge")] == {} and by[("b", "Hire")] == {"Confidence": "L2"}
    assert by[("a", "Org")] == by[("b", "Org")] == {}
    # the relation's attribute is still no span's: counted, said
    assert imp.report.dropped_reasons()["attribute of a relation (not compared)"] == 1
    assert any(n.startswith("3 attributes of events read onto the events' triggers") for n in imp.report.notes)
    res = export_agreement(root, tool="brat")
    assert res.names == ("Confidence", "Negation")
    assert res["Confidence"].n_units == 1 and res["Confidence"].value_counts == {"L1": 1, "L2": 1}
    assert res["Negation"].n_units == 1 and res["Negation"].value_counts == {"false": 1, "true": 1}
    # read with the relations too, the events' trigger spans carry the attributes the relations' arguments see
    both = read_export(root, tool="brat", attributes=True, relations=True)
    assert {dict(s.attributes).get("Negation") for s in both.spans.spans if s.label == "Merge"} == {True, None}


@pytest.mark.parametrize(("extra", "message"), [
    # two events on one trigger giving it two values of one attribute: one span holds one value
    ("E3\tMerge:T2 Org1:T3\nA3\tConfidence E1 L1\nA4\tConfidence E3 L3\n",
     r"line 11, annotation A4: gives E3's span \(also E1's\) the attribute Confidence the value 'L1' on line 10 "
     r"and the value 'L3' here"),
    ("E3\tMerge:T9\nA3\tNegation E3\n", r"line 9, annotation E3, field 'trigger': the trigger T9 of event E3 "
                                           r"\(whose attribute A3 is on line 10\) is not a text-bound annotation"),
    ("E3\tMerge\nA3\tNegation E3\n", r"line 9, annotation E3, field 'trigger': an event line needs ID TAB "
                                        r"TYPE:TRIGGER"),
])
def test_a_bad_event_attribute_is_one_clear_error(tmp_path, extra, message):
    root = _events(tmp_path, {"a/d.ann": EV_A + extra, "b/d.ann": EV_B})
    with pytest.raises(AccordError, match=message):
        read_export(root, tool="brat", attributes=True)
