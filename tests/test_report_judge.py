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


# ---------------------------------------------------------------- accord report --kind judge (issue 33)

PAIRS_ARGS = ["--judges", "gpt-a,gpt-b", "--position", "order", "--verdict-refers-to", "position", "--run", "run"]


def _cards(html: str) -> dict[str, str]:
    import re

    return dict(re.findall(r'data-key="([^"]+)" data-value="([^"]*)"', html))


def test_report_command_writes_the_judge_page_with_the_numbers_of_the_python_path(tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from accord._shared.results import jsonable
    from accord.cli import app
    from accord.reporting import build_report, report

    out = tmp_path / "judge.html"
    res = CliRunner().invoke(app, ["report", str(dataset_path("judge_pairs.csv")), *PAIRS_ARGS, "-o", str(out),
                                   "--seed", "3", "--bootstrap", "300", "--quiet", "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["kind"] == "judge" and doc["output"] == str(out)
    page = out.read_text(encoding="utf-8")
    for section in ("checks", "flips", "disagreements", "pass-rate"):
        assert f'id="{section}"' in page
    assert "The verdict of each check" in page
    # the Python path: judge_audit with the same draws, seed and level, then accord.report
    ref = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                      verdict_refers_to="position", run="run", n_boot=300, rng=3)
    ref_page = report(ref, tmp_path / "ref.html").read_text(encoding="utf-8")
    assert _cards(page) == _cards(ref_page) and len(_cards(page)) == 4
    assert doc["headline"] == json.loads(json.dumps(jsonable(build_report(ref).summary)))
    gpt_a = doc["headline"]["judges"][0]
    assert gpt_a["judge"] == "gpt-a" and gpt_a["position consistency"] == ref["gpt-a"].position.consistency.estimate
    # the bootstrap (alpha across runs) follows --seed and --bootstrap: the interval of another seed differs
    other = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                        verdict_refers_to="position", run="run", n_boot=300, rng=4)
    assert other["gpt-a"].repeatability.alpha_ci_low != ref["gpt-a"].repeatability.alpha_ci_low


def test_report_files_reads_judgments_as_judge_audit_file(tmp_path: Path) -> None:
    from accord.models_vs_humans import judge_audit_file
    from accord.reporting import report_files

    f = dataset_path("judge_passfail.csv")
    run = report_files([f], output=tmp_path / "p.html", judges="gpt-a", seed=1, bootstrap=200)
    assert run.report.kind == "judge" and run.output.exists()
    ref = judge_audit_file(f, judges="gpt-a", n_boot=200, rng=1)
    rows = run.report.sections[3].tables[0].rows
    rg = ref["gpt-a"].pass_rate.rogan_gladen
    assert rows[0][:5] == ("gpt-a", 0.59, rg.estimate, rg.ci_low, rg.ci_high)
    assert run.report.summary == {"judges": [ref["gpt-a"].summary()]}
    # positions as the command line gives them: the canonical order first, comma-separated
    swapped = report_files([dataset_path("judge_pairs.csv")], output=tmp_path / "s.html", kind="judge",
                           judges="gpt-a,gpt-b", position="order", verdict_refers_to="position", run="run",
                           positions="BA, AB", seed=1, bootstrap=50)
    ref = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                      verdict_refers_to="position", run="run", positions=("BA", "AB"), n_boot=50, rng=1)
    assert ref.positions == ("BA", "AB")
    assert swapped.report.summary == {"judges": [a.summary() for a in ref.audits]}


@pytest.mark.parametrize(("args", "message"), [
    (["--kind", "agree", "--judges", "gpt-a"], "--judges gives the judge-audit page; not with --kind agree"),
    (["--kind", "judge"], "--kind judge needs --judges (the coders that are LLM judges)"),
    (["--position", "order", "--run", "run"],
     "--position and --run are options of the judge audit (with --judges); this is an agree report"),
    (["--kind", "models", "--models", "gpt-a", "--verdict-refers-to", "position"],
     "--verdict-refers-to is an option of the judge audit (with --judges); this is a models report"),
    (["--judges", "gpt-a", "--models", "gpt-b"],
     "--judges gives the judge-audit page and --models the humans-and-models page; pass one"),
    (["--judges", "gpt-a", "--bootstrap", "0"], "--bootstrap must be a positive integer for a judge audit"),
    (["--judges", "gpt-z", *PAIRS_ARGS[2:]], "gpt-z"),
    (["--judges", "gpt-a", "--position", "order", "--verdict-refers-to", "position"],
     "name the column of the run (--run)"),
])
def test_report_command_refuses_judge_options_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from accord.cli import app

    out = tmp_path / "x.html"
    res = CliRunner().invoke(app, ["report", str(dataset_path("judge_pairs.csv")), *args, "-o", str(out), "--quiet"])
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert line.startswith("accord: error: ") and "\n" not in line and message in line, line
    assert not out.exists()


def test_report_files_refuses_judge_options_with_another_kind_in_python_words(tmp_path: Path) -> None:
    from accord import AccordError
    from accord.reporting import report_files

    with pytest.raises(AccordError, match="^run is an option of the judge audit \\(with judges\\); this is an agree"):
        report_files([dataset_path("judge_pairs.csv")], output=tmp_path / "x.html", run="run")
    with pytest.raises(AccordError, match="^judges gives the judge-audit page; not with kind='spans'"):
        report_files([dataset_path("judge_pairs.csv")], output=tmp_path / "x.html", kind="spans", judges="gpt-a")
