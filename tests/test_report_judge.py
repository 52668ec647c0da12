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


# ------------------------------------------------- accord report takes accord judge's options and its defaults


def _invoke(*args: str) -> str:
    from typer.testing import CliRunner

    from accord.cli import app

    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def _text(page: str) -> str:
    """The page's text as its tables hold it (the data travel as JSON in the page)."""
    import html
    import json
    import re

    blobs = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page, flags=re.S)
    return " ".join(json.dumps(json.loads(html.unescape(b)), ensure_ascii=False) for b in blobs) + page


def test_report_takes_mcnemar_pass_rate_interval_and_power_tuned_as_judge_does(tmp_path: Path) -> None:
    import json

    from accord.reporting import report_files

    f = str(dataset_path("judge_passfail.csv"))
    opts = ["--mcnemar", "chi-square", "--pass-rate-interval", "bootstrap", "--power-tuned", "--seed", "5"]
    ref = json.loads(_invoke("judge", f, "--judges", "gpt-a", *opts, "--json"))["audits"][0]["pass_rate"]
    rg, ppi = ref["rogan_gladen"], ref["ppi"]
    assert rg["method"] == "bootstrap" and ppi["power_tuned"] is True
    out = tmp_path / "p.html"
    _invoke("report", f, "--judges", "gpt-a", *opts, "-o", str(out), "--quiet")
    page = _text(out.read_text(encoding="utf-8"))
    assert f"Rogan-Gladen {rg['estimate']:.3f} [{rg['ci_low']:.3f}, {rg['ci_high']:.3f}] (bootstrap)" in page
    assert f"prediction-powered (PPI++) {ppi['estimate']:.3f} [{ppi['ci_low']:.3f}, {ppi['ci_high']:.3f}]" in page
    # the command's one library call: the page's numbers are the terminal's, to the last digit
    run = report_files([Path(f)], output=tmp_path / "q.html", judges="gpt-a", mcnemar="chi-square",
                       pass_rate_interval="bootstrap", power_tuned=True, seed=5)
    row = run.report.sections[3].tables[0].rows[0]
    assert row[2:8] == (rg["estimate"], rg["ci_low"], rg["ci_high"], ppi["estimate"], ppi["ci_low"], ppi["ci_high"])
    # without them, the delta interval and plain PPI, as accord judge's defaults
    plain = report_files([Path(f)], output=tmp_path / "r.html", judges="gpt-a", seed=5)
    assert plain.report.sections[3].tables[0].rows[0][2:8] != row[2:8]


def test_report_mcnemar_chi_square_is_judges(tmp_path: Path) -> None:
    import json

    args = [str(dataset_path("judge_pairs.csv")), *PAIRS_ARGS, "--mcnemar", "chi-square", "--seed", "2"]
    ref = json.loads(_invoke("judge", *args, "--json"))["audits"]
    out = tmp_path / "m.html"
    _invoke("report", *args, "-o", str(out), "--quiet")
    page = _text(out.read_text(encoding="utf-8"))
    for a in ref:
        m = a["position"]["mcnemar"]
        assert m["method"] == "chi-square with continuity correction"
        assert f"(McNemar, {m['method']}: p = {m['p_value']:.3g})" in page


def test_report_and_judge_give_the_same_intervals_with_their_defaults(tmp_path: Path) -> None:
    """One default of bootstrap draws for the judge audit (judge_audit's, 2000): the page of accord report and
    the terminal of accord judge show the same intervals for the same seed."""
    import json

    args = [str(dataset_path("judge_pairs.csv")), *PAIRS_ARGS, "--seed", "1"]
    ref = json.loads(_invoke("judge", *args, "--json"))["audits"]
    out = tmp_path / "d.html"
    _invoke("report", *args, "-o", str(out), "--quiet")
    page = _text(out.read_text(encoding="utf-8"))
    for a in ref:
        r, h = a["repeatability"], a["humans"]
        assert f"alpha across 2 runs {r['alpha']:.3f} [{r['alpha_ci_low']:.3f}, {r['alpha_ci_high']:.3f}]" in page
        assert f"alpha {h['humans_alpha']:.3f} [{h['humans_alpha_ci_low']:.3f}, {h['humans_alpha_ci_high']:.3f}]" \
            in page
    # 1000 draws (the other pages' default) give another interval: the test tells the two defaults apart
    other = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                        verdict_refers_to="position", run="run", rng=1, n_boot=1000)["gpt-a"].repeatability
    assert f"[{other.alpha_ci_low:.3f}, {other.alpha_ci_high:.3f}]" not in page


def test_the_draws_of_the_intervals_are_said(tmp_path: Path) -> None:
    """The audit keeps the bootstrap draws of its alpha intervals: in the result and its JSON, on the page's
    caption and on the terminal, so a reader can tell 1,000 draws from 2,000."""
    from typer.testing import CliRunner

    from accord.cli import app
    from accord.reporting import build_report

    res = judge_audit(dataset_path("judge_pairs.csv"), judges="gpt-a,gpt-b", position="order",
                      verdict_refers_to="position", run="run", n_boot=500, rng=1)
    assert res.n_boot == 500 and res.to_dict()["n_boot"] == 500
    assert build_report(res).sections[0].tables[0].caption.endswith("the bootstrap's for alpha (500 draws).")
    out = CliRunner().invoke(app, ["judge", str(dataset_path("judge_pairs.csv")), "--judges", "gpt-a,gpt-b",
                                   "--position", "order", "--verdict-refers-to", "position", "--run", "run",
                                   "--n-boot", "700", "--seed", "1"], env={"COLUMNS": "120"})
    assert out.exit_code == 0, out.output
    assert "(700 draws)" in out.stdout
