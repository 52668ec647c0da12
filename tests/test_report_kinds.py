"""Each kind of report: its headline numbers equal the numbers of the kind's own command (--json), its sections,
and what the report CLI refuses.  Span fixture written by hand from the canonical span table of
accord.spans._readers (document, coder, start, end, label, text)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import app
from accord.datasets import dataset_path

pytest.importorskip("altair")
runner = CliRunner()
DATA = Path(__file__).parent / "data"
COREF = str(dataset_path("passonneau2004_coref.csv"))
MULTI = str(dataset_path("multilabel_example.csv"))
TEXTS = {"d1": "Zoë met Ólafur in Reykjavík.", "d2": "Ann saw New York and Bob"}
SPANS = """document,coder,start,end,label
d1,ann1,0,3,PER
d1,ann1,8,14,PER
d1,ann2,8,14,PER
d1,ann2,18,27,LOC
d2,ann1,0,3,PER
d2,ann1,8,16,LOC
d2,ann2,0,3,PER
d2,ann2,12,16,LOC
d2,ann2,21,24,PER
"""


def _run(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def _cards(html: str) -> dict[str, float | None]:
    out = {}
    for key, value in re.findall(r'data-key="([^"]+)" data-value="([^"]*)"', html):
        out[key] = float(value) if value else None
    return out


def _report(tmp_path: Path, *args: str) -> tuple[str, dict]:
    out = tmp_path / "r.html"
    doc = json.loads(_run("report", *args, "-o", str(out), "--quiet", "--json"))
    return out.read_text(encoding="utf-8"), doc


def test_coref_report_equals_coref_json(tmp_path):
    html, doc = _report(tmp_path, COREF, "--format", "csv", "--kind", "coref", "--bootstrap", "0")
    ref = json.loads(_run("coref", COREF, "--format", "csv", "--json"))
    cards = _cards(html)
    assert cards["alpha_nominal"] == ref["alpha"]["nominal"]["classes"]["alpha"]
    assert cards["alpha_set-relation"] == ref["alpha"]["set-relation"]["classes-less-unit"]["alpha"]
    assert doc["kind"] == "coreference"
    for section in ("coref", "documents", "scores", "chains", "who", "fix"):
        assert f'id="{section}"' in html
    assert "Split and merged chains" in html and "CEAF-m" in html and "B³" in html  # the scores by their names
    assert "b_cubed" not in html.split('<script type="application/json" id="chart-specs">')[0]


def test_multilabel_report_equals_multilabel_json(tmp_path):
    html, doc = _report(tmp_path, MULTI, "--bootstrap", "100", "--seed", "4")  # detected by its labels column
    ref = json.loads(_run("multilabel", MULTI, "--json", "--ci", "--n-resamples", "100", "--seed", "4"))
    cards = _cards(html)
    assert doc["kind"] == "multilabel"
    assert cards["kappa"] == ref["augmented_kappa"]["kappa"]
    assert cards["masi_alpha"] == ref["masi_alpha"]["alpha"]
    assert doc["headline"]["confidence_interval"] == [ref["confidence_interval"]["low"],
                                                      ref["confidence_interval"]["high"]]
    assert "kappa_against_p" in html and "Items by class" in html
    assert "Bootstrap distribution of K&#39;" in html or "Bootstrap distribution of K'" in html


def test_gold_report_equals_gold_json(tmp_path):
    src = tmp_path / "gold.csv"
    import numpy as np

    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, 80)
    hard = rng.random(80) < 0.25
    rows = ["unit,coder,value"] + [f"u{u},{c},{rng.integers(0, 3) if hard[u] else truth[u]}"
                                   for u in range(80) for c in "abc"]
    src.write_text("\n".join(rows) + "\n")
    html, doc = _report(tmp_path, str(src), "--kind", "gold", "--bootstrap", "0")
    ref = json.loads(_run("gold", str(src), "--json"))
    cards = _cards(html)
    assert cards["gamma"] == ref["gamma"] and cards["k"] == ref["k"]["kappa"]
    assert "gamma_against_d" in html and "Comparing systems on this gold standard" in html


def test_pyramid_report_equals_pyramid_score_json(tmp_path):
    pyr, peer = str(DATA / "pyramid" / "small.pyr"), str(DATA / "pyramid" / "small_peer.pan")
    html, doc = _report(tmp_path, pyr, peer)
    ref = json.loads(_run("pyramid", "score", pyr, peer, "--json"))
    cards = _cards(html)
    assert doc["kind"] == "pyramid"
    assert cards["modified"] == ref["scores"][0]["modified"] and cards["original"] == ref["scores"][0]["original"]
    assert "Tiers of the pyramid" in html


def test_spans_report_equals_spans_json(tmp_path):
    (tmp_path / "docs").mkdir()
    for d, t in TEXTS.items():
        (tmp_path / "docs" / f"{d}.txt").write_text(t, encoding="utf-8")
    src = tmp_path / "spans.csv"
    src.write_text(SPANS, encoding="utf-8")
    args = (str(src), "--texts", str(tmp_path / "docs"), "--bootstrap", "50", "--seed", "2")
    html, doc = _report(tmp_path, *args, "--kind", "spans")
    ref = json.loads(_run("spans", *args, "--json"))
    cards = _cards(html)
    assert cards["micro_f1"] == ref["f1"]["micro_f1"]
    assert cards["token_alpha"] == ref["token_agreement"]["alpha"]["alpha"]
    assert cards["unitizing_alpha"] == ref["unitizing_alpha"]["alpha"]
    assert "⟦Reykjavík⟧" in html  # an unmatched span shown in its text


def test_spans_report_with_gamma_draws_each_alignment(tmp_path):
    (tmp_path / "docs").mkdir()
    for d, t in TEXTS.items():
        (tmp_path / "docs" / f"{d}.txt").write_text(t, encoding="utf-8")
    src = tmp_path / "spans.csv"
    src.write_text(SPANS, encoding="utf-8")
    args = (str(src), "--texts", str(tmp_path / "docs"), "--bootstrap", "0", "--seed", "4")
    html, doc = _report(tmp_path, *args, "--kind", "spans", "--gamma")
    ref = json.loads(_run("spans", *args, "--gamma", "--json", "-q"))["gamma"]
    assert _cards(html)["gamma"] == ref["gamma"]
    assert doc["headline"]["gamma"]["gamma"] == ref["gamma"]
    assert "Gamma: the best alignment" in html and "Best alignment of d1" in html and "Best alignment of d2" in html
    every = json.loads(re.search(r'<script type="application/json" id="chart-specs">(.*?)</script>', html).group(1))
    specs = [v for k, v in every.items() if k.startswith("gamma_alignment_")]
    assert len(specs) == 2
    units = [v for s in specs for ds in s["datasets"].values() for v in ds if "partners" in v]
    assert len(units) == 9  # every span of both documents is a bar
    alone = [u for u in units if not u["aligned"]]
    assert {u["text"] for u in alone} >= {"Zoë", "Reykjavík", "Bob"}  # left alone, drawn in their words
    assert all(u["partners"] == "nobody (left alone)" for u in alone)
    links = [v for s in specs for ds in s["datasets"].values() for v in ds if "middle" in v]
    assert len(links) == 6  # three pairs joined: Ólafur, Ann, New York / York
    res = runner.invoke(app, ["report", str(src), "--kind", "spans", "--gamma", "--gamma-alignment", "fast",
                              "-o", str(tmp_path / "x.html")])
    assert res.exit_code == 2 and "--gamma-alignment must be one of exact, windowed, auto" in res.stderr
    res = runner.invoke(app, ["report", COREF, "--format", "csv", "--kind", "coref", "--gamma",
                              "-o", str(tmp_path / "y.html")])
    assert res.exit_code == 2 and "--gamma is an option of spans reports; this is a coref report" in res.stderr


def test_spans_report_at_another_confidence_equals_spans_json(tmp_path):
    (tmp_path / "docs").mkdir()
    for d, t in TEXTS.items():
        (tmp_path / "docs" / f"{d}.txt").write_text(t, encoding="utf-8")
    src = tmp_path / "spans.csv"
    src.write_text(SPANS, encoding="utf-8")
    args = (str(src), "--texts", str(tmp_path / "docs"), "--bootstrap", "60", "--seed", "3", "--confidence", "0.8")
    html, doc = _report(tmp_path, *args, "--kind", "spans")
    ref = json.loads(_run("spans", *args, "--json"))
    assert ref["confidence_intervals"]["confidence_level"] == 0.8
    assert doc["headline"]["confidence_intervals"]["span micro F1"] == ref["confidence_intervals"]["span micro F1"]
    assert "80% bootstrap interval" in html and "95% bootstrap interval" not in html


def test_reports_do_not_import_the_cli(tmp_path):
    """The report is a library feature: building an agreement and a span page never imports accord.cli."""
    import subprocess
    import sys

    src = tmp_path / "spans.csv"
    src.write_text(SPANS, encoding="utf-8")
    code = (
        "import sys\n"
        "import accord\n"
        "from accord.datasets import load_krippendorff2011\n"
        "from accord.reporting import build_report\n"
        "from accord.spans._readers import read_span_input\n"
        "build_report(load_krippendorff2011(), bootstrap=20, seed=1)\n"
        "build_report(read_span_input(sys.argv[1])[0], bootstrap=0)\n"
        "cli = sorted(m for m in sys.modules if m.startswith('accord.cli'))\n"
        "assert not cli, cli\n"
    )
    res = subprocess.run([sys.executable, "-c", code, str(src)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


IMPORTS = Path(__file__).parent / "data" / "importers"


def test_an_exports_page_opens_with_what_the_import_read(tmp_path):
    """accord report EXPORT --from TOOL: the agreement page of the import (numbers as accord agree --from) with
    the cell states per annotator and the records not read first."""
    src = str(IMPORTS / "labelstudio" / "export_min.json")
    args = (src, "--from", "label-studio", "--field", "sentiment", "--bootstrap", "50", "--seed", "2")
    html, doc = _report(tmp_path, *args)
    ref = json.loads(_run("agree", *args[:5], "--coefficient", "all", "--json"))
    assert doc["kind"] == "agreement"
    assert _cards(html)["alpha"] == ref["alpha"]["alpha"]
    assert "what label-studio wrote and what was read" in html
    assert "import_states" in html and "al@example.org" in html
    assert "textarea &#39;comment&#39;: free text, read only when named as the field" in html or \
        "textarea 'comment': free text, read only when named as the field" in html


def test_an_exports_page_is_guessed_and_spans_get_the_span_page(tmp_path):
    src = str(IMPORTS / "labelstudio" / "export_min.json")
    html, doc = _report(tmp_path, src, "--field", "ner", "--bootstrap", "0")  # the tool guessed from the file
    assert doc["kind"] == "spans" and "what label-studio wrote" in html
    out = tmp_path / "x.html"
    res = runner.invoke(app, ["report", src, "--field", "ner", "--kind", "agree", "-o", str(out)])
    assert res.exit_code == 2 and "holds spans of field 'ner', which get a spans report" in res.stderr


def test_an_exports_page_takes_importer_options(tmp_path):
    src = str(IMPORTS / "labelstudio" / "export_min.json")
    html, doc = _report(tmp_path, src, "--field", "sentiment", "--option", "multiple=true", "--bootstrap", "0",
                        "--force")
    assert "control &#39;sentiment&#39; read as set" in html or "control 'sentiment' read as set" in html
    table = str(dataset_path("krippendorff2011.csv"))
    res = runner.invoke(app, ["report", table, "--option", "multiple=true", "-o", str(tmp_path / "k.html")])
    assert res.exit_code == 2 and "--option passes options" in res.stderr


def test_report_of_an_import_from_python(tmp_path):
    import accord

    imp = accord.read_export(IMPORTS / "labelstudio" / "export_min.json", tool="label-studio", field="sentiment")
    out = accord.report(imp, tmp_path / "r.html", bootstrap=0)
    page = out.read_text(encoding="utf-8")
    assert "Reliability of" in page and "what label-studio wrote" in page


def test_demo_writes_one_page_per_dataset_and_prints_paths(tmp_path):
    out = _run("demo", "--report", str(tmp_path / "pages"), "--quiet")
    paths = [line.removeprefix("wrote ") for line in out.splitlines()]
    assert len(paths) == 4 and all(Path(p).is_file() for p in paths)
    res = runner.invoke(app, ["demo", "--report", str(tmp_path / "pages"), "--quiet"])
    assert res.exit_code == 2 and "--force" in res.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "coref", "--format", "csv", "--missing-mentions", "sometimes"], "missing_mentions"),
        (["--kind", "multilabel", "--p", "0.2"], "p"),
        (["--kind", "gold", "--target-gamma", "2"], "target_gamma"),
        (["--kind", "spans", "--match", "fuzzy"], "match"),
    ],
)
def test_kind_options_refused_before_writing(tmp_path, args, message):
    src = tmp_path / "in.csv"
    src.write_text("document,mention,coder,chain\nd,m1,a,1\nd,m1,b,1\n" if "coref" in args else
                   open(MULTI).read() if "multilabel" in args else
                   "unit,coder,value\nu1,a,x\nu1,b,x\n" if "gold" in args else SPANS)
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(src), "-o", str(out), "--quiet", *args])
    assert res.exit_code == 2, res.output
    assert message in res.stderr and not out.exists()


def test_results_and_objects_from_python(tmp_path):
    import pandas as pd

    import accord
    from accord.coref import example_passonneau2004
    from accord.multilabel import load_multilabel_example
    from accord.pyramid import read_peer_annotation, read_pyramid, score_peers
    from accord.reporting import build_report

    df = pd.DataFrame({"unit": [1, 1, 2, 2, 3, 3, 4, 4], "coder": ["a", "b"] * 4,
                       "value": ["x", "x", "x", "y", "y", "x", "y", "y"]})
    gold = accord.gold_standard(df)
    rep = build_report(gold)
    assert rep.kind == "gold" and rep.headline[0].key == "gamma" and rep.headline[0].value == gold.gamma
    assert [s.id for s in rep.sections] == ["gold"]
    pyr = read_pyramid(DATA / "pyramid" / "small.pyr")
    peer = read_peer_annotation(DATA / "pyramid" / "small_peer.pan")
    assert build_report(score_peers([peer], pyr)).kind == "pyramid"
    assert build_report((pyr, [peer])).sections[0].id == "pyramid"
    assert build_report(example_passonneau2004(), bootstrap=0).kind == "coreference"
    assert build_report(load_multilabel_example(), bootstrap=0).kind == "multilabel"
    assert build_report(df, kind="gold", bootstrap=0).kind == "gold"
    out = accord.report(gold, tmp_path / "gold.html")
    assert 'data-key="gamma"' in out.read_text(encoding="utf-8")


def _coref_docs(tmp_path: Path) -> Path:
    """Four documents of six mentions, three coders who split or merge a chain here and there."""
    rows = ["document,mention,coder,chain"]
    chains = {"a": [1, 1, 2, 2, 3, 3], "b": [1, 1, 2, 3, 3, 3], "c": [1, 2, 2, 2, 3, 3]}
    for d in range(4):
        for coder, ch in chains.items():
            shift = d % 3
            for m in range(6):
                rows.append(f"doc{d},m{m},{coder},{ch[(m + shift) % 6] if coder != 'a' or d else ch[m]}")
    src = tmp_path / "coref.csv"
    src.write_text("\n".join(rows) + "\n")
    return src


def test_coref_intervals_over_documents_equal_coref_json(tmp_path):
    src = str(_coref_docs(tmp_path))
    html, doc = _report(tmp_path, src, "--kind", "coref", "--format", "csv", "--bootstrap", "100", "--seed", "1")
    ref = json.loads(_run("coref", src, "--format", "csv", "--bootstrap", "100", "--seed", "1", "--json"))
    for dist in ("nominal", "set-relation"):
        assert doc["headline"]["confidence_intervals"][dist] == ref["confidence_intervals"][dist]
    assert '"bootstrap_set-relation"' in html and 'id="documents"' in html


def test_multilabel_adjudication_list_shows_the_primary_label_first():
    from accord.multilabel import load_multilabel_example
    from accord.reporting import build_report

    data = load_multilabel_example()
    rep = build_report(data, bootstrap=0)
    table = next(t for s in rep.sections for t in s.tables if t.name == "adjudication")
    frame = data.to_frame()
    coders = table.columns[5:]
    for row in table.rows[:10]:
        for coder, cell in zip(coders, row[5:], strict=True):
            labels = frame[(frame["item"] == row[1]) & (frame["annotator"] == coder)].sort_values("rank")["label"]
            assert cell == (" > ".join(labels) if len(labels) else None)
