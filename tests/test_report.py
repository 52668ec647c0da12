"""accord report without a browser: the page's content, the Python API, output safety, bad input refused first."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

import accord
from accord._shared.errors import AccordError
from accord.cli import app
from accord.datasets import dataset_path, load_krippendorff2011
from accord.reporting import build_report

pytest.importorskip("altair")
runner = CliRunner()
KRIPP = str(dataset_path("krippendorff2011.csv"))


def _specs(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="chart-specs">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_page_is_self_contained(tmp_path):
    out = accord.report(load_krippendorff2011(), tmp_path / "r.html", bootstrap=100, seed=1)
    html = out.read_text(encoding="utf-8")
    # nothing fetched: no external script, stylesheet, image or font
    markup = re.sub(r"<script[^>]*>.*?</script>", "<script></script>", html, flags=re.S)
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", markup)
    assert "@import" not in html and "url(http" not in html
    assert "window.vegaEmbed" in html  # the inlined bundle
    specs = _specs(html)
    assert {"values_per_coder", "coder_pairs", "coder_left_out", "value_distribution", "per_category",
            "bootstrap"} <= set(specs)
    assert all("data" in s or "datasets" in s or "layer" in s for s in specs.values())
    for section in ("headline", "data", "who", "fix", "uncertainty"):
        assert f'id="{section}"' in html
    assert "@media print" in html
    assert "Krippendorff (2004)" in html


def test_headline_words_and_interval():
    rep = build_report(load_krippendorff2011(), bootstrap=100, seed=2)
    alpha = next(h for h in rep.headline if h.key == "alpha")
    assert round(alpha.value, 3) == 0.743
    assert alpha.level == "tentative" and "between .667 and .800" in alpha.words
    lo, hi = alpha.interval
    assert lo < alpha.value < hi
    assert rep.summary["confidence_interval"] == [lo, hi]
    # numbers read as nominal by default: the page says they look like a scale, with alpha under the ordered distances
    assert any("look like a scale" in n and "0.849 interval" in n and "--distance ordinal" in n
               for n in rep.headline_notes)
    chosen = build_report(load_krippendorff2011(), bootstrap=0, distance="nominal")  # chosen: for comparison only
    assert any("other distances" in n and "interval 0.849" in n for n in chosen.headline_notes)
    assert not any("look like a scale" in n for n in chosen.headline_notes)


def test_alpha_result_report(tmp_path):
    res = accord.alpha(load_krippendorff2011(), distance="interval")
    rep = build_report(res, bootstrap=50, seed=1)
    assert rep.headline[0].value == res.alpha and rep.headline[0].level == "good"
    assert [s.id for s in rep.sections] == ["data", "uncertainty"]


def test_adjudication_list_truncates_with_a_note():
    import numpy as np

    rng = np.random.default_rng(0)
    m = rng.integers(0, 3, size=(3, 400))
    rep = build_report(accord.Annotations.from_matrix(m), bootstrap=0, max_rows=25)
    table = next(t for s in rep.sections for t in s.tables if t.name == "adjudication")
    assert len(table.rows) == 25 and "Showing the 25" in table.note
    assert [r[0] for r in table.rows] == list(range(1, 26))
    dis = [r[2] for r in table.rows]
    assert dis == sorted(dis, reverse=True)


def test_bad_objects_and_options_are_refused():
    with pytest.raises(AccordError, match="result_or_data must be"):
        build_report([1, 2, 3])
    with pytest.raises(AccordError, match="bootstrap must be"):
        build_report(load_krippendorff2011(), bootstrap=-1)
    with pytest.raises(AccordError, match="kind must be one of"):
        build_report(load_krippendorff2011(), kind="pie")


def test_cli_writes_once_and_needs_force(tmp_path):
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", KRIPP, "-o", str(out), "--bootstrap", "50", "--seed", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    # --quiet: no progress bar; what was read is said (issue 28), and nothing else
    assert f"wrote {out}" in res.stdout and res.stderr == f"accord: read {KRIPP} as long: unit=unit, coder=coder, " \
        "value=value\n"
    first = out.read_bytes()
    res = runner.invoke(app, ["report", KRIPP, "-o", str(out), "--bootstrap", "0"])
    assert res.exit_code == 2 and "pass --force" in res.stderr
    assert out.read_bytes() == first
    res = runner.invoke(app, ["report", KRIPP, "-o", str(out), "--bootstrap", "0", "--force"])
    assert res.exit_code == 0 and out.read_bytes() != first


def test_cli_refuses_to_write_over_an_input(tmp_path):
    src = tmp_path / "in.csv"
    src.write_bytes(open(KRIPP, "rb").read())
    res = runner.invoke(app, ["report", str(src), "-o", str(src), "--force"])
    assert res.exit_code == 2 and "it is an input" in res.stderr
    assert src.read_bytes() == open(KRIPP, "rb").read()


@pytest.mark.parametrize(
    ("content", "args", "message"),
    [
        ("unit,coder,value\nu1,a,1\n", [], "at least 2 coders"),
        ("unit,coder,colour\nu1,a,1\n", [], "value"),
        ("unit,coder,value\nu1,a,1\nu1,b,2\n", ["--distance", "wobbly"], "wobbly"),
        ("unit,coder,value\nu1,a,1\nu1,b,2\n", ["--coefficient", "kappa-ish"], "kappa-ish"),
        ("unit,coder,value\nu1,a,1\nu1,b,2\n", ["--bootstrap", "-5"], "bootstrap"),
        ("unit,coder,value\nu1,a,1\nu1,b,2\n", ["--kind", "pie"], "--kind"),
    ],
)
def test_bad_input_is_refused_before_writing(tmp_path, content, args, message):
    src = tmp_path / "bad.csv"
    src.write_text(content)
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(src), "-o", str(out), "--quiet", *args])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("accord: error:") and message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.csv"]  # no temporary file left either


def test_missing_input_file(tmp_path):
    res = runner.invoke(app, ["report", str(tmp_path / "nope.csv"), "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 2 and "no such file or folder" in res.stderr


def test_figures_and_json(tmp_path):
    out = tmp_path / "r.html"
    figs = tmp_path / "figs"
    res = runner.invoke(app, ["report", KRIPP, "-o", str(out), "--bootstrap", "30", "--seed", "1", "--figures",
                              str(figs), "--json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["kind"] == "agreement" and round(doc["headline"]["alpha"]["alpha"], 3) == 0.743
    names = {p.name for p in figs.iterdir()}
    assert {"bootstrap.svg", "bootstrap.png", "bootstrap.pdf", "coder_pairs.svg"} <= names
    assert (figs / "bootstrap.svg").read_text().lstrip().startswith("<svg")
    assert (figs / "bootstrap.pdf").read_bytes()[:4] == b"%PDF"
    # the figures exist now: without --force the whole command refuses before writing the page again
    res = runner.invoke(app, ["report", KRIPP, "-o", str(tmp_path / "other.html"), "--bootstrap", "0", "--figures",
                              str(figs)])
    assert res.exit_code == 2 and "exists" in res.stderr
    assert not (tmp_path / "other.html").exists()


def test_progress_is_silent_off_a_terminal():
    from accord._shared.progress import Progress

    with Progress(enabled=True) as p:  # pytest's stderr is not a terminal
        assert p.enabled is False


def test_detect_kind(tmp_path):
    from pathlib import Path

    from accord.cli._report import detect_kind

    ml = tmp_path / "m.csv"
    ml.write_text("item,annotator,labels\n1,a,x\n")
    assert detect_kind([ml]) == "multilabel"
    assert detect_kind([Path(KRIPP)]) == "agree"
    assert detect_kind([Path("x.pyr")]) == "pyramid"
    assert detect_kind([Path("a.conll")]) == "coref"


def test_bench_report_runs(capsys):
    """The benchmark script runs end to end on a tiny size (its figures are in BENCHMARKS.md)."""
    import importlib.util
    import sys
    from pathlib import Path

    if not Path("/proc/self/status").exists():
        pytest.skip("the benchmark harness reads /proc (Linux)")
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_report.py"
    spec = importlib.util.spec_from_file_location("accord_benchmarks_bench_report", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    records = module.main(["--sizes", "300", "--bootstrap", "20", "--repeat", "1", "--quiet"])
    assert len(records) == 2 and not [r for r in records if "failed" in r]
    assert all(r["result"]["bytes"] < 5_000_000 and r["result"]["charts"] >= 5 for r in records)


def test_progress_shows_on_a_terminal(monkeypatch):
    import io
    import sys

    from accord._shared.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with Progress(enabled=True, total=2) as p:
        assert p.enabled
        with p.step("bootstrap: 10 resamples"):
            pass
        with p.step("writing the page"):
            pass
    assert "accord report" in err.getvalue()
    with Progress(enabled=False) as p:  # --quiet
        assert not p.enabled


def test_python_api_refuses_before_writing(tmp_path):
    out = tmp_path / "r.html"
    out.write_text("mine")
    with pytest.raises(AccordError, match="pass force=True"):
        accord.report(load_krippendorff2011(), out, bootstrap=0)
    assert out.read_text() == "mine"
    figs = tmp_path / "figs"
    figs.mkdir()
    (figs / "bootstrap.svg").write_text("mine")
    with pytest.raises(AccordError, match="exists"):
        accord.report(load_krippendorff2011(), tmp_path / "new.html", bootstrap=10, figures=figs)
    assert not (tmp_path / "new.html").exists() and (figs / "bootstrap.svg").read_text() == "mine"
