"""The report as a person sees it: headless Chromium opens each page and checks what is drawn.

No console error, no network request (every request that is not a file, data or blob URL is
aborted and recorded), every chart drew marks, the headline numbers equal ``accord agree --json``'s,
the adjudication table sorts; each test saves screenshots (1280 and 390 px wide) under tmp_path.
"""

from __future__ import annotations

import json

import pytest
from _browser import OpenedPage, launch
from typer.testing import CliRunner

from accord.cli import app
from accord.coefficients._registry import ALL_COEFFICIENTS
from accord.datasets import dataset_path

pytest.importorskip("altair")
runner = CliRunner()
KRIPP = str(dataset_path("krippendorff2011.csv"))


@pytest.fixture(scope="module")
def browser():
    yield from launch()


def _cli(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def _check_page(page: OpenedPage) -> None:
    assert page.errors == []
    assert page.remote == []
    marks = page.marks()
    assert marks, "no chart on the page"
    assert all(n > 0 for n in marks.values()), marks


def test_agreement_page_matches_json_and_sorts(browser, tmp_path):
    out = tmp_path / "agree.html"
    _cli("report", KRIPP, "-o", str(out), "--bootstrap", "200", "--seed", "3", "--quiet")
    expected = json.loads(_cli("agree", KRIPP, "--coefficient", "all", "--bootstrap", "200", "--seed", "3", "--json"))
    page = OpenedPage(browser, out)
    try:
        _check_page(page)
        head = page.headline()
        # the same coefficients as accord agree --coefficient all (one rule: accord.coefficients._registry.choose)
        assert set(head) == {"alpha", "percent", "bennett", "gwet", "conger", "brennan-prediger", "light"}
        assert set(head) == set(expected) & set(ALL_COEFFICIENTS)  # beside them: left_out, read_as, notes...
        fields = {"alpha": "alpha", "percent": "percent_agreement", "bennett": "kappa", "gwet": "ac",
                  "conger": "kappa", "brennan-prediger": "kappa", "light": "kappa"}
        for key, field in fields.items():
            assert float(head[key]["value"]) == expected[key][field]
            assert head[key]["shown"] == f"{expected[key][field]:.3f}"
        assert [float(head["alpha"]["low"]), float(head["alpha"]["high"])] == expected["confidence_interval"]
        col = page.column("adjudication", 2)  # disagreement, ranked high to low
        assert [float(x) for x in col] == sorted((float(x) for x in col), reverse=True)
        page.page.click("#table-adjudication thead th:nth-child(3) button")  # first click: descending (numbers)
        page.page.click("#table-adjudication thead th:nth-child(3) button")  # second: ascending
        col = [float(x) for x in page.column("adjudication", 2)]
        assert col == sorted(col)
        assert page.page.get_attribute("#table-adjudication thead th:nth-child(3)", "aria-sort") == "ascending"
        page.page.fill("#table-adjudication .table-filter", "no such value")
        assert page.column("adjudication", 1) == []
        page.page.fill("#table-adjudication .table-filter", "")
        with page.page.expect_download() as dl:
            page.page.click("#table-adjudication .table-csv")
        csv_text = open(dl.value.path(), encoding="utf-8").read().splitlines()
        assert csv_text[0].startswith("rank,unit,disagreement")
        assert len(csv_text) == 1 + len(page.column("adjudication", 0))
        shots = page.screenshots(tmp_path, "agree")
        assert all(s.stat().st_size > 10_000 for s in shots)
    finally:
        page.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """One page of every kind: the demo's pages (agreement, coreference, multi-label, gold), a pyramid, spans."""
    from pathlib import Path

    from test_report_kinds import SPANS, TEXTS, _coref_docs

    from accord.cli._demo import demo_pages

    folder = tmp_path_factory.mktemp("pages")
    out = {p.stem: p for p in demo_pages(folder / "demo")}
    data = Path(__file__).parent / "data" / "pyramid"
    _cli("report", str(data / "small.pyr"), str(data / "small_peer.pan"), "-o", str(folder / "pyramid.html"))
    out["pyramid"] = folder / "pyramid.html"
    (folder / "docs").mkdir()
    for d, t in TEXTS.items():
        (folder / "docs" / f"{d}.txt").write_text(t, encoding="utf-8")
    (folder / "spans.csv").write_text(SPANS, encoding="utf-8")
    _cli("report", str(folder / "spans.csv"), "--kind", "spans", "--texts", str(folder / "docs"), "--bootstrap",
         "50", "--seed", "1", "--gamma", "-o", str(folder / "spans.html"))
    out["spans"] = folder / "spans.html"
    _cli("report", str(_coref_docs(folder)), "--kind", "coref", "--format", "csv", "--bootstrap", "100", "--seed", "1",
         "-o", str(folder / "coref-documents.html"))
    out["coref-documents"] = folder / "coref-documents.html"
    imports = Path(__file__).parent / "data" / "importers" / "labelstudio" / "export_min.json"
    for field in ("sentiment", "ner"):  # an export's page: the kind's page opened by the import's tables
        _cli("report", str(imports), "--from", "label-studio", "--field", field, "--bootstrap", "50", "--seed", "1",
             "-o", str(folder / f"import-{field}.html"))
        out[f"import-{field}"] = folder / f"import-{field}.html"
    example = Path(__file__).parent.parent / "docs" / "examples" / "reviews-with-models.csv"
    _cli("report", str(example), "--unit", "item", "--layout", "wide", "--models", "gpt-4o,small-llm", "-o",
         str(folder / "models.html"))
    out["models"] = folder / "models.html"
    return out


@pytest.mark.parametrize("name", ["passonneau2004-coreference", "coref-documents", "multilabel-example",
                                  "multilabel-example-gold", "pyramid", "spans", "import-sentiment", "import-ner",
                                  "models"])
def test_every_kind_draws_offline(browser, pages, tmp_path, name):
    page = OpenedPage(browser, pages[name])
    try:
        _check_page(page)
        assert page.headline()  # headline cards with their numbers
        tables = page.page.evaluate("() => [...document.querySelectorAll('div.datatable')].map("
                                    "d => d.querySelectorAll('thead th').length)")
        assert tables and all(n > 0 for n in tables)
        if name == "spans":  # gamma's alignments drawn: bars and the lines joining aligned units
            assert {"gamma_alignment_1", "gamma_alignment_2"} <= set(page.marks())
            assert "gamma" in page.headline()
        page.screenshots(tmp_path, name)
    finally:
        page.close()
