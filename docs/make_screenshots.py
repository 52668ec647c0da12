"""Screenshots of every kind of report for docs/report.md, 1280 and 390 px wide.

Run from the repository's root: ``python docs/make_screenshots.py`` (needs the ``report`` extra, playwright and
Chromium at /usr/bin/chromium; pngquant, where installed, makes the files smaller).  Each page is built from the
bundled data (or the test data of the kinds that bundle none) and shot with its title, its headline and the
sections that show the kind best; the other sections are hidden for the shot, so the images stay small.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

# kind -> the sections shown below the headline
SECTIONS = {"agreement": ("fix",), "coreference": ("fix", "chains"), "multilabel": ("multilabel",),
            "gold": ("gold",), "pyramid": ("pyramid", "peers"), "spans": ("f1", "fix"), "import": ("import",),
            "models": ("per-human",)}
MAX_HEIGHT = {1280: 2400, 390: 3600}


def pages(folder: Path) -> dict[str, Path]:
    """One page of each kind, built as the tests build them."""
    from test_report_kinds import SPANS, TEXTS

    from accord.importers import read_export
    from accord.pyramid import read_peer_annotation, read_pyramid
    from accord.reporting import build_report
    from accord.reporting._demo import demo_pages
    from accord.spans._readers import read_span_input

    demo = {p.stem: p for p in demo_pages(folder / "demo", force=True)}
    out = {"agreement": demo["krippendorff2011"], "coreference": demo["passonneau2004-coreference"],
           "multilabel": demo["multilabel-example"], "gold": demo["multilabel-example-gold"]}
    data = Path("tests") / "data"
    pyr = read_pyramid(data / "pyramid" / "small.pyr")
    out["pyramid"] = build_report((pyr, [read_peer_annotation(data / "pyramid" / "small_peer.pan")]),
                                  title="A small pyramid and one peer").save(folder / "pyramid.html", force=True)
    (folder / "docs").mkdir(exist_ok=True)
    for doc, text in TEXTS.items():
        (folder / "docs" / f"{doc}.txt").write_text(text, encoding="utf-8")
    (folder / "spans.csv").write_text(SPANS, encoding="utf-8")
    spans, _ = read_span_input(folder / "spans.csv", texts=folder / "docs")
    out["spans"] = build_report(spans, bootstrap=200, seed=1, title="Span agreement of two coders on two documents"
                                ).save(folder / "spans.html", force=True)
    export = read_export(data / "importers" / "labelstudio" / "export_min.json", tool="label-studio",
                         field="sentiment")
    out["import"] = build_report(export, bootstrap=200, seed=1).save(folder / "import.html", force=True)
    from accord import read

    reviews = read(Path("docs") / "examples" / "reviews-with-models.csv", unit="item", layout="wide")
    out["models"] = build_report(reviews, kind="models", models="gpt-4o,small-llm").save(folder / "models.html",
                                                                                          force=True)
    return out


def main(target: Path) -> None:
    import os

    from playwright.sync_api import sync_playwright

    os.chdir(ROOT)  # the pages name their inputs as given: tests/data/...

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for kind, path in pages(Path(tmp)).items():
            for width in (1280, 390):
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(path.resolve().as_uri())
                page.wait_for_function("() => [...document.querySelectorAll('div.chart')].every("
                                       "e => e.dataset.rendered === '1')", timeout=60000)
                keep = ["headline", *SECTIONS[kind]]
                page.evaluate("keep => document.querySelectorAll('main > section, footer').forEach("
                              "s => { if (!keep.includes(s.id)) { s.style.display = 'none'; } })", keep)
                page.wait_for_timeout(500)  # charts follow their boxes
                height = min(page.evaluate("() => document.documentElement.scrollHeight"), MAX_HEIGHT[width])
                out = target / f"report-{kind}-{width}.png"
                page.screenshot(path=str(out), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
                if shutil.which("pngquant"):
                    subprocess.run(["pngquant", "--force", "--skip-if-larger", "--output", str(out), "64", str(out)],
                                   check=False)
                print(f"wrote {out} ({width} x {height}, {out.stat().st_size // 1000} kB)")
                page.close()
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT / "docs")
