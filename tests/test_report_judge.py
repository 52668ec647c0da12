"""The judge-audit report page: the verdict of each check, the flip lists, the disagreements with the human
majority, the corrected pass rate beside the raw one."""

from __future__ import annotations

from pathlib import Path

import pytest

from accord.datasets import dataset_path
from accord.models_vs_humans import judge_audit

pytest.importorskip("jinja2")


def test_page_of_a_pairwise_audit(tmp_path: Path) -> None:
    from accord.reporting import build_report, report

    res = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                      verdict_refers_to="position", run="run")
    rep = build_report(res)
    assert rep.kind == "judge"
    assert [s.id for s in rep.sections] == ["checks", "flips", "disagreements", "pass-rate"]
    checks = rep.sections[0].tables[0].rows
    by = {(r[0], r[1]): r for r in checks}
    assert by[("gpt-b", "position consistency")][3].startswith("position bias")
    assert by[("gpt-a", "alternative annotator test")][3] == "fails: keep the humans"
    n_flips = sum(len(a.position.flips) + len(a.repeatability.flips) for a in res.audits)
    assert len(rep.sections[1].tables[0].rows) == n_flips == 8 + 11 + 28 + 21
    n_dis = sum(len(a.disagreements) for a in res.audits)
    assert len(rep.sections[2].tables[0].rows) == n_dis > 0
    out = report(res, tmp_path / "judge.html")
    assert "The verdict of each check" in out.read_text(encoding="utf-8")


def test_page_of_a_pass_fail_audit_shows_the_corrected_rate() -> None:
    from accord.reporting import build_report

    res = judge_audit(dataset_path("judge_passfail.csv"), judges="gpt-a")
    rows = build_report(res).sections[3].tables[0].rows
    judge, raw, rg = rows[0][:3]
    assert judge == "gpt-a" and raw == pytest.approx(0.59)
    assert rg == pytest.approx(res["gpt-a"].pass_rate.rogan_gladen.estimate)
