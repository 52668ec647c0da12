"""INCEpTION / WebAnno TSV 3.3: the other features of a span layer read as the spans' attributes.

Written by hand from the format's description in INCEpTION's user guide (appendix "WebAnno TSV 3.3"):
``#T_SP=<layer>|<feature>|<feature>`` gives one column per feature; every annotation of the layer on a token
has one stacked item in each of the layer's columns, ``*`` when that feature has no value, with the
multi-token id ``[n]``; the named-entity layer's ``identifier`` feature holds a knowledge-base IRI.
"""

from __future__ import annotations

from accord.attributes import agreement
from accord.importers import read_export

HEADER = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
    "#T_RL=webanno.custom.Link|role|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n"
    "\n\n"
)
Q = "http://www.wikidata.org/entity/"


def _tsv(ids):
    smith, bob, paris = ids
    return HEADER + (
        "#Text=Ann Smith met Bob in Paris .\n"
        f"1-1\t0-3\tAnn\t{smith}[1]\tPER[1]\t_\t_\n"
        f"1-2\t4-9\tSmith\t{smith}[1]\tPER[1]\t_\t_\n"
        "1-3\t10-13\tmet\t_\t_\t_\t_\n"
        f"1-4\t14-17\tBob\t{bob}\tPER\tknows\t1-1[1_0]\n"
        "1-5\t18-20\tin\t_\t_\t_\t_\n"
        f"1-6\t21-26\tParis\t{paris}|*\tLOC|GPE\t_\t_\n"
        "1-7\t27-28\t.\t_\t_\t_\t_\n"
    )


def _export(tmp_path):
    files = {
        "annotation/doc1.txt/alice.tsv": _tsv((f"{Q}Q1", "*", f"{Q}Q90")),
        "annotation/doc1.txt/bob.tsv": _tsv((f"{Q}Q1", f"{Q}Q7", f"{Q}Q91")),
    }
    root = tmp_path / "project"
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, encoding="utf-8")
    return root


def test_other_features_read_as_attributes(tmp_path):
    imp = read_export(_export(tmp_path), tool="inception", field="NamedEntity|value", attributes=True)
    text = imp.spans.texts["doc1.txt"]
    got = {(s.coder, text[s.start:s.end], s.label): dict(s.attributes) for s in imp.spans.spans}
    assert got[("alice", "Ann Smith", "PER")] == {"identifier": f"{Q}Q1"}
    assert got[("alice", "Bob", "PER")] == {}  # "*": the feature has no value
    assert got[("bob", "Bob", "PER")] == {"identifier": f"{Q}Q7"}
    assert got[("alice", "Paris", "LOC")] == {"identifier": f"{Q}Q90"}
    assert got[("alice", "Paris", "GPE")] == {}
    res = agreement(imp.spans)
    ident = res["identifier"]
    # aligned: Ann Smith (Q1, Q1), Bob (-, Q7: one value, not pairable), Paris LOC (Q90, Q91), Paris GPE (none)
    assert ident.n_units == 3 and ident.n_pairable_units == 2
    assert ident.value_counts[f"{Q}Q1"] == 2


def test_other_features_counted_when_not_read(tmp_path):
    imp = read_export(_export(tmp_path), tool="inception", field="NamedEntity|value")
    assert all(not s.attributes for s in imp.spans.spans)
    assert any("identifier" in n and "attributes=True" in n for n in imp.report.notes)


def test_relation_layers_are_counted_once_as_dropped_records(tmp_path):
    """One relation in each annotator's file: counted one by one as dropped (relations=True reads them), and not
    again in the note of the parts not read."""
    imp = read_export(_export(tmp_path), tool="inception", field="NamedEntity|value")
    assert sum("relation" in d.reason for d in imp.report.dropped) == 2
    assert not any("relation Link" in n for n in imp.report.notes)
