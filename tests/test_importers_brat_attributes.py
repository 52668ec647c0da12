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
    assert by[("alice", 22)] == {"N:DrugBank": "DB00945", "N:MeSH": "D001241"}
    assert by[("bob", 22)] == {"N:DrugBank": ("DB00945", "DB00316")}
    # the attribute of an event is not a span's: counted as dropped, with the event itself
    reasons = imp.report.dropped_reasons()
    assert any("attribute of an event or relation" in r for r in reasons)
    with pytest.warns(AccordWarning, match="alpha of attribute 'N:MeSH' is undefined"):
        res = agreement(imp.spans)  # only alice links to MeSH
    assert res.names == ("N:DrugBank", "N:MeSH", "Negated", "Severity")
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
