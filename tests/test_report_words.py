"""What a person reads: every kind of report, built from the bundled data (and the test data of the kinds that
bundle none), opened in headless Chromium at 1280 and 390 px, must read in the user's words.

Checked on the visible text (``document.body.innerText``) and the drawn charts: no "None", no
"undefined, undefined", no snake_case or Python names, no command-line hints, no internal mention ids or
offsets; an undefined value says why; every interval lies in [-1, 1]; count axes tick on integers; chart
labels and legends are neither cut nor overlapping and fit their box; heatmaps list coders in one order; at
390 px nothing overflows the page sideways (tables scroll inside their box).  Coreference pages name
mentions by their text, document and sentence; span pages show the covered text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _browser import OpenedPage, launch
from typer.testing import CliRunner

from accord.cli import app
from accord.datasets import dataset_path
from accord.reporting._agreement import SCALE_FLAGS

pytest.importorskip("altair")
runner = CliRunner()
DATA = Path(__file__).parent / "data"

# axis titles of counts: their ticks must be whole numbers
COUNT_AXES = {"values given", "resamples", "SCUs of this weight", "mentions", "disagreed items d"}
SNAKE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b")
CLI_HINT = re.compile(r"(?<![\w-])--[a-z]|\b[a-z][a-z_]*=(?![=\s])")
INTERNAL = [re.compile(p) for p in (r"\bNone\b", r"\bnan\b", r"\bNaN\b", r"undefined, undefined",
                                    r"\[\d+, \d+\)", r"\{\d+(, \d+)*\}", r"\{\}")]


def _cli(*args: str) -> None:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output


@pytest.fixture(scope="module")
def browser():
    yield from launch()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """name -> (page, the user's own words that may look like code: file names)."""
    from test_report_kinds import SPANS, TEXTS, _coref_docs

    from accord.cli._demo import demo_pages

    d = tmp_path_factory.mktemp("words")
    out: dict[str, tuple[Path, tuple[str, ...]]] = {}
    for p in demo_pages(d / "demo"):  # agreement, coreference, multi-label, gold: the bundled data
        out[p.stem] = (p, ())

    def page(name: str, *args: str, words: tuple[str, ...] = ()) -> None:
        _cli("report", *args, "-o", str(d / f"{name}.html"), "--quiet")
        out[name] = (d / f"{name}.html", words)

    kripp = str(dataset_path("krippendorff2011.csv"))
    page("agreement-unseeded", kripp, "--bootstrap", "100")
    # numeric ratings: the coefficients for ratings too (ICC forms, Kendall's W, Lin's CCC), units left out
    page("agreement-ratings", kripp, "--distance", "interval", "--bootstrap", "50", "--seed", "1")
    page("coref-bundled", str(dataset_path("passonneau2004_coref.csv")), "--format", "csv", "--kind", "coref",
         "--bootstrap", "50", words=("passonneau2004_coref",))
    page("coref-conll", str(DATA / "coref" / "ann1.conll"), str(DATA / "coref" / "ann2.conll"), "--bootstrap", "50")
    page("coref-no-text", str(_coref_docs(d)), "--kind", "coref", "--format", "csv", "--bootstrap", "50")
    page("multilabel-unseeded", str(dataset_path("multilabel_example.csv")), "--bootstrap", "50",
         words=("multilabel_example",))
    pyr = DATA / "pyramid"
    page("pyramid", str(pyr / "small.pyr"), str(pyr / "small_peer.pan"), words=("small_peer",))
    (d / "docs").mkdir()
    for doc, text in TEXTS.items():
        (d / "docs" / f"{doc}.txt").write_text(text, encoding="utf-8")
    (d / "spans.csv").write_text(SPANS, encoding="utf-8")
    page("spans", str(d / "spans.csv"), "--kind", "spans", "--texts", str(d / "docs"), "--bootstrap", "50")
    export = str(DATA / "importers" / "labelstudio" / "export_min.json")
    for field in ("sentiment", "ner"):
        page(f"import-{field}", export, "--from", "label-studio", "--field", field, "--bootstrap", "50",
             words=("export_min",))
    example = Path(__file__).parent.parent / "docs" / "examples" / "reviews-with-models.csv"
    page("models", str(example), "--unit", "item", "--layout", "wide", "--models", "gpt-4o,small-llm",
         words=("reviews-with-models",))
    tiny = d / "tiny.csv"  # two units coded twice: Gwet's large-sample interval leaves [-1, 1]
    tiny.write_text("unit,coder,value\nu1,a,x\nu1,b,x\nu2,a,y\nu2,b,x\nu3,a,y\n", encoding="utf-8")
    page("agreement-tiny", str(tiny), "--bootstrap", "50", "--seed", "1")
    same = d / "same.csv"  # one value everywhere: every coefficient undefined
    same.write_text("unit,coder,value\nu1,a,x\nu1,b,x\nu2,a,x\nu2,b,x\n", encoding="utf-8")
    page("agreement-undefined", str(same), "--bootstrap", "50", "--seed", "1")
    return out


_CHARTS_JS = r"""() => [...document.querySelectorAll('div.chart')].map(el => {
  const svg = el.querySelector('svg');
  const box = el.getBoundingClientRect(), s = svg ? svg.getBoundingClientRect() : box;
  const visible = t => t.getAttribute('opacity') !== '0' && getComputedStyle(t).opacity !== '0';
  const rect = t => { const r = t.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom, /rotate\(/.test(t.getAttribute('transform') || '') ? 1 : 0,
            parseFloat(getComputedStyle(t).fontSize)]; };
  const axes = [...el.querySelectorAll('g.role-axis')].map(a => ({
    aria: a.getAttribute('aria-label') || '',
    title: [...a.querySelectorAll('.role-axis-title text')].map(t => t.textContent).join(' '),
    labels: [...a.querySelectorAll('.role-axis-label text')].filter(visible).map(t => [t.textContent, rect(t)])}));
  const legends = [...el.querySelectorAll('g.role-legend')].map(l =>
    [...l.querySelectorAll('.role-legend-label text')].filter(visible).map(t => [t.textContent, rect(t)]));
  legends.push([...el.querySelectorAll('.role-title text, .role-legend-title text, .role-axis-title text')]
    .filter(visible).map(t => [t.textContent, rect(t)]));
  return {name: el.dataset.chart, box: [box.left, box.right], svg: [s.left, s.right], axes, legends};
})"""


def _overlap(a: list[float], b: list[float]) -> bool:
    """Boxes [left, top, right, bottom, rotated, font size] overlap; rotated labels (whose upright boxes always
    do) overlap when their anchors, at the boxes' right ends, are closer than a line of text."""
    if a[4] or b[4]:
        return abs(a[2] - b[2]) < 0.8 * a[5] and abs(a[1] - b[1]) < 0.8 * a[5]
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _defects(page: OpenedPage, words: tuple[str, ...], width: int) -> list[str]:
    out: list[str] = []
    text = page.page.evaluate("() => document.body.innerText")
    # the one command-line hint a page may carry: how to read numbers as a scale (issue 28 asks for the flag)
    for w in (*words, SCALE_FLAGS):
        text = text.replace(w, "")
    for pat in INTERNAL:
        out += [f"{width}px: {pat.pattern!r} in {m!r}" for m in _around(pat, text)]
    out += [f"{width}px: snake_case {m!r}" for m in _around(SNAKE, text)]
    out += [f"{width}px: command-line or Python hint {m!r}" for m in _around(CLI_HINT, text)]
    cards = page.page.evaluate(
        "() => [...document.querySelectorAll('.card[data-key]')].map(e => ({key: e.dataset.key,"
        " value: e.dataset.value, low: e.dataset.ciLow, high: e.dataset.ciHigh, text: e.innerText}))")
    for c in cards:
        if not c["value"] and "undefined:" not in c["text"] and "undefined because" not in c["text"]:
            out.append(f"card {c['key']} is undefined without saying why: {c['text']!r}")
        if c["low"] is not None:
            lo, hi = float(c["low"]), float(c["high"])
            if not (-1 <= lo <= hi <= 1):
                out.append(f"card {c['key']}: interval [{lo}, {hi}] leaves [-1, 1]")
    for ch in page.page.evaluate(_CHARTS_JS):
        name = ch["name"]
        if ch["svg"][1] > ch["box"][1] + 1 or ch["svg"][0] < ch["box"][0] - 1:
            out.append(f"{width}px: chart {name} is wider than its box ({ch['svg']} in {ch['box']})")
        groups = [ax["labels"] for ax in ch["axes"]] + ch["legends"]
        for labels in groups:
            for t, r in labels:
                if t.endswith("…"):
                    out.append(f"{width}px: chart {name}: label {t!r} is cut")
                if r[2] > ch["box"][1] + 1 or r[0] < ch["box"][0] - 1:
                    out.append(f"{width}px: chart {name}: label {t!r} lies outside the chart's box")
            for i, (t1, r1) in enumerate(labels):
                out += [f"{width}px: chart {name}: labels {t1!r} and {t2!r} overlap"
                        for t2, r2 in labels[i + 1:] if _overlap(r1, r2)]
        for ax in ch["axes"]:
            if ax["title"] in COUNT_AXES:
                bad = [t for t, _ in ax["labels"] if not re.fullmatch(r"\d+", t.replace(",", ""))]
                if bad:
                    out.append(f"chart {name}: count axis {ax['title']!r} ticks {bad}")
        if name == "coder_pairs":
            x = next((a for a in ch["axes"] if a["aria"].startswith("X")), None)
            y = next((a for a in ch["axes"] if a["aria"].startswith("Y")), None)
            if x and y and [t for t, _ in x["labels"]] != [t for t, _ in y["labels"]]:
                out.append(f"heatmap coder_pairs: x lists {[t for t, _ in x['labels']]}, "
                           f"y lists {[t for t, _ in y['labels']]}")
    if width < 500:
        wide = page.page.evaluate(
            "() => { const w = document.documentElement.clientWidth; const bad = [];"
            " if (document.documentElement.scrollWidth > w) bad.push('page ' + document.documentElement.scrollWidth);"
            " document.querySelectorAll('.table-scroll, .chart-figure, .card, .facts, .table-controls, p, h1, h2')"
            ".forEach(e => { const r = e.getBoundingClientRect(); if (r.right > w + 1) bad.push(e.className ||"
            " e.tagName); }); return bad; }")
        out += [f"{width}px: {w} overflows the screen" for w in wide]
    return out


def _around(pat: re.Pattern, text: str) -> list[str]:
    return [text[max(0, m.start() - 30):m.end() + 30].replace("\n", " ") for m in pat.finditer(text)]


NAMES = ["krippendorff2011", "agreement-unseeded", "agreement-ratings", "agreement-tiny", "agreement-undefined",
         "passonneau2004-coreference", "coref-bundled", "coref-conll", "coref-no-text", "multilabel-example",
         "multilabel-unseeded", "multilabel-example-gold", "pyramid", "spans", "import-sentiment", "import-ner",
         "models"]


@pytest.mark.parametrize("name", NAMES)
def test_every_kind_reads_in_the_users_words(browser, pages, name):
    path, words = pages[name]
    defects = []
    for width in (1280, 390):
        page = OpenedPage(browser, path, width=width)
        try:
            assert page.errors == [] and page.remote == []
            defects += _defects(page, words, width)
        finally:
            page.close()
    assert defects == [], "\n".join(dict.fromkeys(defects))


def _table(browser, path: Path, name: str) -> list[list[str]]:
    page = OpenedPage(browser, path)
    try:
        return page.page.evaluate(f"() => [...document.querySelectorAll('#table-{name} tr')].map("
                                  "r => [...r.children].map(c => c.textContent))")
    finally:
        page.close()


def test_coreference_mentions_are_their_text_where_they_sit(browser, pages):
    rows = _table(browser, pages["coref-bundled"][0], "adjudication")
    head, body = rows[0], rows[1:]
    assert body and head[1:4] == ["mention", "document", "sentence"]  # the bundled table's text and sentence
    texts = {tuple(r[1:4]) for r in body}
    assert ("they", "newswire", "4") in texts and ("Texas bankers", "newswire", "1") in texts, texts
    ra1 = head.index("RA.1")
    assert all(not re.search(r"\{|\b[A-L]\b", r[ra1]) for r in body), [r[ra1] for r in body]
    chains = _table(browser, pages["coref-bundled"][0], "chains")
    assert any("Gov. Price Daniel" in c or "Texas bankers" in c for r in chains[1:] for c in r), chains
    conll = _table(browser, pages["coref-conll"][0], "adjudication")
    assert "sentence" in conll[0] and any("John 's mother" in c for r in conll[1:] for c in r), conll
    no_text = _table(browser, pages["coref-no-text"][0], "adjudication")
    assert no_text[0][1:3] == ["mention", "document"]  # no sentence column where the input gives none
    assert all(re.fullmatch(r"mention m\d \(no text in the input\)", r[1]) for r in no_text[1:]), no_text


def test_spans_show_the_covered_text(browser, pages):
    rows = _table(browser, pages["spans"][0], "unmatched")
    span = rows[0].index("span")
    assert {r[span] for r in rows[1:]} >= {"Zoë", "New York", "York", "Reykjavík"}, rows
