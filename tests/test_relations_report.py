"""The relation report: alpha and F1 at the top, the F1 table, the unmatched relations with reasons, the
candidate pairs (accord.report of RelationAnnotations or of a RelationAgreement)."""

from __future__ import annotations

import warnings

import pytest

from accord import AccordError, AccordWarning
from accord.relations import Relation, RelationAnnotations, agreement
from accord.reporting import build_report, report
from accord.spans import Span


def _data() -> RelationAnnotations:
    def rel(c: str, t: str, a: tuple[int, int], b: tuple[int, int]) -> Relation:
        return Relation("d", c, t, Span("d", *a, "E", c), Span("d", *b, "E", c), id=f"{c}-{t}")

    return RelationAnnotations.from_relations(
        [rel("a", "T", (0, 4), (10, 14)), rel("b", "T", (10, 14), (0, 4)), rel("a", "S", (10, 14), (20, 24)),
         rel("b", "S", (10, 14), (20, 24))])


def test_report_of_relations(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        rep = build_report(_data(), undirected=["T"])
    assert rep.kind == "relations"
    assert [h.key for h in rep.headline] == ["alpha", "f1", "f1_untyped"]
    assert rep.headline[1].value == 1.0  # T undirected: both relations match
    assert [s.id for s in rep.sections] == ["relations", "unmatched_relations", "candidate_pairs"]
    res = agreement(_data())
    page = build_report(res)
    unmatched = page.sections[1].tables[0]
    assert {row[7] for row in unmatched.rows} == {"direction"}
    path = report(res, tmp_path / "rel.html")
    html = path.read_text(encoding="utf-8")
    assert "Unmatched relations and why" in html and "Candidate argument pairs" in html


def test_report_refuses_bad_rows():
    with pytest.raises(AccordError, match="max_rows must be a whole number"):
        build_report(_data(), max_rows=0)


def test_report_of_an_import_with_relations(tmp_path):
    from accord.importers import read_export

    root = tmp_path / "round1"
    for coder, rel in (("a", "R1\tPartner Arg1:T1 Arg2:T2\n"), ("b", "R1\tPartner Arg1:T2 Arg2:T1\n")):
        (root / coder).mkdir(parents=True)
        (root / coder / "d.txt").write_text("Sony and Ericsson", encoding="utf-8")
        (root / coder / "d.ann").write_text("T1\tORG 0 4\tSony\nT2\tORG 9 17\tEricsson\n" + rel, encoding="utf-8")
    imp = read_export(root, tool="brat", relations=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        rep = build_report(imp, undirected=["Partner"])
    assert rep.kind == "relations" and rep.headline[1].value == 1.0


def test_accord_report_kind_relations(tmp_path):
    """accord report EXPORT --kind relations --from brat: the relations page of a brat project."""
    import json

    from typer.testing import CliRunner

    from accord.cli import app

    root = tmp_path / "round1"
    for coder, rel in (("a", "R1\tPartner Arg1:T1 Arg2:T2\n"), ("b", "R1\tOrigin Arg1:T1 Arg2:T2\n")):
        (root / coder).mkdir(parents=True)
        (root / coder / "d.txt").write_text("Sony and Ericsson", encoding="utf-8")
        (root / coder / "d.ann").write_text("T1\tORG 0 4\tSony\nT2\tORG 9 17\tEricsson\n" + rel, encoding="utf-8")
    out = tmp_path / "rel.html"
    res = CliRunner().invoke(app, ["report", str(root), "--kind", "relations", "--from", "brat", "-o", str(out),
                                   "--json", "--quiet"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["kind"] == "relations"
    assert "Unmatched relations and why" in out.read_text(encoding="utf-8")
