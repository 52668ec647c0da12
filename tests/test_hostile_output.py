"""What accord writes and prints when the input is hostile or broken (issue 18).

Non-finite and huge numbers, CSV cells a spreadsheet would run as formulas, control characters and
bidirectional overrides in names, outputs inside an input folder, through a symbolic link, and temporary
files a killed write left behind.  Each case ends in a one-line error or an outcome the command says.

The Label Studio exports here are written by hand after the JSON export format documented at
https://labelstud.io/guide/export.html (``annotations[].result[]`` regions, a ``number`` control's value
``{"number": x}``, ``completed_by`` as a user object with ``email``); Python's JSON reader, and so any
tool written in Python, reads and writes the tokens ``NaN`` and ``Infinity``.  The brat folder follows
https://brat.nlplab.org/standoff.html.  The spreadsheet rule is OWASP's, "CSV Injection",
https://owasp.org/www-community/attacks/CSV_Injection.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import subprocess
import sys
import time
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import accord
from accord._shared.output import STALE_TEMP_SECONDS, atomic_output, write_output
from accord._shared.sanitize import csv_cell, isolate_html, terminal_safe
from accord.cli import app

runner = CliRunner()
SRC = str(Path(accord.__file__).resolve().parents[1])

# ---------------------------------------------------------------------------------------------- helpers


def _one_error_line(res) -> str:
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accord: error: "), res.stderr
    return lines[0]


def _exact_alpha(matrix: list[list[float | None]], distance: str) -> float:
    """Krippendorff's alpha in exact rational arithmetic on the floats as they are (Fraction(x) is exact):
    D_o = 1/n sum_u 1/(m_u - 1) sum_{i != j in u} delta, D_e = 1/(n (n - 1)) sum_{i != j} delta."""

    def delta(a: Fraction, b: Fraction) -> Fraction:
        if distance == "interval":
            return (a - b) ** 2
        return Fraction(0) if a + b == 0 else ((a - b) / (a + b)) ** 2

    units = [[Fraction(row[u]) for row in matrix if row[u] is not None] for u in range(len(matrix[0]))]
    units = [u for u in units if len(u) >= 2]
    pooled = [x for u in units for x in u]
    n = len(pooled)
    d_o = sum(sum(delta(a, b) for i, a in enumerate(u) for j, b in enumerate(u) if i != j) / (len(u) - 1)
              for u in units) / n
    d_e = sum(delta(a, b) for i, a in enumerate(pooled) for j, b in enumerate(pooled) if i != j) / (n * (n - 1))
    return float(1 - d_o / d_e)


HUGE = [[1e308, 0.8e308, 1.5e308, -1.7e308, None, 1.2e308],
        [1e308, 0.9e308, 1.4e308, -1.6e308, 1.75e308, 1.1e308],
        [0.95e308, None, 1.45e308, -1.65e308, 1.7e308, 1.3e308]]
TINY = [[None if x is None else x / 1e308 * 1e-318 for x in row] for row in HUGE]  # subnormals (below 2.2e-308)


def _matrix(rows: list[list[float | None]]) -> np.ndarray:
    return np.array([[np.nan if x is None else x for x in r] for r in rows], dtype=float)


def _ls_task(task: int, answers: dict[str, object]) -> dict:
    return {"id": task, "data": {"text": f"task {task}"}, "annotations": [
        {"id": task * 10 + k, "completed_by": {"id": k + 1, "email": who}, "was_cancelled": False,
         "result": [{"id": f"r{task}{k}", "from_name": "score", "to_name": "text", "type": "number",
                     "value": {"number": x}}]}
        for k, (who, x) in enumerate(answers.items())]}


def _write_ls(path: Path, tasks: list[dict]) -> Path:
    path.write_text(json.dumps(tasks), encoding="utf-8")  # json.dumps writes NaN and Infinity as Python reads them
    return path


# --------------------------------------------------------------------------- non-finite and huge numbers


@pytest.mark.filterwarnings("error::RuntimeWarning")
@pytest.mark.parametrize("rows", [HUGE, TINY], ids=["1e308", "subnormal"])
@pytest.mark.parametrize("distance", ["interval", "ratio"])
def test_alpha_on_huge_and_tiny_values_equals_the_exact_rescaled_truth(rows, distance):
    data, huge = _matrix(rows), rows is HUGE
    if distance == "ratio":
        data = np.abs(data)
        rows = [[None if x is None else abs(x) for x in r] for r in rows]
    res = accord.alpha(data, distance=distance)
    assert res.alpha == pytest.approx(_exact_alpha(rows, distance), rel=1e-12)
    assert math.isfinite(res.observed_disagreement) and math.isfinite(res.expected_disagreement)
    if distance == "interval":  # the disagreements are in rescaled units, and the result says so
        assert res.note is not None and ("divided by 2^" in res.note or "multiplied by 2^" in res.note)
    else:  # the ratio distance does not change with the scale: nothing to say
        assert res.note is None
    if huge:  # the same data divided by 2^1000 (exactly) gives the same alpha at an ordinary scale, and no note
        plain = accord.alpha(np.ldexp(data, -1000), distance=distance)
        assert plain.note is None and plain.alpha == pytest.approx(res.alpha, rel=1e-12)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_every_coefficient_and_diagnostic_on_1e308_values_is_finite_and_scale_free():
    big, small = _matrix(HUGE), _matrix(HUGE) / 1e307
    for fn, key in ((lambda d: accord.gwet_ac2(d, distance="interval"), "ac"),
                    (lambda d: accord.weighted_kappa(d[:2], distance="interval"), "kappa"),
                    (lambda d: accord.alpha(d, distance="ordinal"), "alpha")):
        a, b = getattr(fn(big), key), getattr(fn(small), key)
        assert math.isfinite(a) and a == pytest.approx(b, rel=1e-9)
    lo, hi = accord.gwet_ac2(big, distance="interval").confidence_interval()
    assert math.isfinite(lo) and math.isfinite(hi)
    frame = accord.unit_disagreement(accord.as_annotations(big), distance="interval").to_frame()
    assert np.isfinite(frame.select_dtypes("number").to_numpy(dtype=float)).all()
    boot = accord.alpha(big, distance="interval").confidence_interval(n_resamples=200, rng=1)
    assert all(math.isfinite(x) for x in boot)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_cli_agree_on_1e308_values_gives_alpha_and_says_it_rescaled(tmp_path):
    f = tmp_path / "big.csv"
    lines = ["unit,coder,value"]
    for c, row in enumerate(HUGE):
        lines += [f"u{u},c{c},{x:f}" for u, x in enumerate(row) if x is not None]  # plain digits: read as numbers
    f.write_text("\n".join(lines) + "\n")
    res = runner.invoke(app, ["agree", str(f), "--distance", "interval", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["alpha"] == pytest.approx(_exact_alpha(HUGE, "interval"), rel=1e-12)
    assert "divided by 2^1024" in out["note"]
    res = runner.invoke(app, ["agree", str(f), "--distance", "interval", "--coefficient", "all", "--diagnostics"])
    assert res.exit_code == 0, res.output
    assert "note: the values reach" in " ".join(res.stdout.split()) and "RuntimeWarning" not in res.stderr
    assert "undefined" not in res.stdout and "inf" not in res.stdout.replace("Krippendorff", "")


def test_infinite_values_are_an_error_naming_unit_and_coder(tmp_path):
    with pytest.raises(accord.AccordError, match=r"coder 'bob' gave unit 'u2' the value inf, which is not a finite"):
        accord.Annotations.from_records([("u1", "ann", 1.0), ("u1", "bob", 2.0), ("u2", "ann", 1.0),
                                         ("u2", "bob", math.inf)])
    with pytest.raises(accord.AccordError, match=r"coder 'b' gave unit 1 the value -inf"):
        accord.Annotations.from_matrix([[1.0, 2.0], [1.0, -math.inf]], coders=["a", "b"])
    f = tmp_path / "inf.jsonl"
    f.write_text('{"unit": 1, "coder": "a", "value": 1.5}\n{"unit": 1, "coder": "b", "value": Infinity}\n')
    line = _one_error_line(runner.invoke(app, ["agree", str(f), "--distance", "interval"]))
    assert "line 2: coder 'b' gave unit 1 the value inf, which is not a finite number" in line


def test_nan_in_a_label_studio_number_answer_is_counted_and_said_never_annotated(tmp_path):
    export = _write_ls(tmp_path / "export.json", [
        _ls_task(1, {"ann@x.org": math.nan, "bob@x.org": 2}),
        _ls_task(2, {"ann@x.org": 3, "bob@x.org": 3.5}),
        _ls_task(3, {"ann@x.org": 4, "bob@x.org": 5}),
    ])
    imp = accord.read_export(export, tool="label-studio", field="score")
    counts = imp.report.counts["ann@x.org"]
    assert counts["annotated"] == 2 and counts["skipped"] == 1  # not "annotated" and then dropped
    assert imp.annotations.n_entries == 5
    assert any("nan is not a finite number (read as skipped)" in d.reason and d.coder == "ann@x.org"
               for d in imp.report.dropped)
    res = runner.invoke(app, ["agree", str(export), "--from", "label-studio", "--field", "score"])
    assert res.exit_code == 0, res.output
    assert "ann@x.org: 2 annotated, 0 empty, 1 skipped" in res.stderr
    assert "dropped 1 record: the answer nan is not a finite number (read as skipped)" in res.stderr


def test_infinity_in_an_export_never_reaches_the_import_csv(tmp_path):
    export = _write_ls(tmp_path / "export.json", [
        _ls_task(1, {"ann@x.org": math.inf, "bob@x.org": 2}),
        _ls_task(2, {"ann@x.org": 3, "bob@x.org": -math.inf}),
        _ls_task(3, {"ann@x.org": 4, "bob@x.org": 5}),
    ])
    out = tmp_path / "long.csv"
    res = runner.invoke(app, ["import", str(export), "--from", "label-studio", "-o", str(out)])
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert "inf" not in text.lower()
    assert sorted(text.splitlines()[1:]) == ["1,bob@x.org,2", "2,ann@x.org,3", "3,ann@x.org,4", "3,bob@x.org,5"]
    assert "dropped 1 record: the answer inf is not a finite number (read as skipped)" in res.stderr
    assert "dropped 1 record: the answer -inf is not a finite number (read as skipped)" in res.stderr


def test_gwet_ac2_is_finite_or_undefined_with_the_reason():
    q = 3  # every weight 1: chance agreement is 1, computed as 1.0000000000000002 (it gave AC = -inf or nonsense)
    m = np.array([list(range(q)) * 2, list(range(q)) + list(range(1, q)) + [0]], dtype=float)
    with pytest.warns(accord.AccordWarning, match="chance agreement is 1"):
        res = accord.gwet_ac2(m, weights=np.ones((q, q)))
    assert math.isnan(res.ac) and "would divide by zero or by rounding error" in res.undefined_reason
    with pytest.raises(accord.AccordError, match="undefined here"):
        res.confidence_interval()
    one = accord.gwet_ac2(np.array([[1.0], [2.0]]), distance="interval")
    with pytest.raises(accord.AccordError, match="ac2's interval needs at least two subjects"):
        one.confidence_interval()  # one subject rated twice: no (nan, 1.0) interval


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_report_of_1e308_values_shows_finite_coefficients_and_the_rescaling(tmp_path):
    pytest.importorskip("altair")
    data = accord.as_annotations(_matrix(HUGE))
    out = accord.report(data, tmp_path / "r.html", distance="interval", coefficients="all", bootstrap=50, seed=1)
    html = out.read_text()
    main = html[html.index("<main>"):html.index("</main>")]
    assert "divided by 2^1024" in main
    for key in ("alpha", "gwet"):
        value = main.split(f'data-key="{key}" data-value="')[1].split('"')[0]
        assert math.isfinite(float(value))
    assert "-inf" not in main and ">inf<" not in main


# ------------------------------------------------------------------------------------- formula cells


def test_csv_cell_follows_owasp_and_keeps_plain_numbers():
    for bad in ("=1+2", "+ve", "-", "--", "@SUM(A1)", "\tx", "\rx", "\nx", "-1+2", "-inf", "=HYPERLINK(\"x\")"):
        assert csv_cell(bad) == "'" + bad
    for fine in ("-1.5", "+3", "-2e-3", ".5", "0", "a=b", "alice@example.org", "", " =x"):
        assert csv_cell(fine) == fine
    assert csv_cell(-2) == -2 and csv_cell(None) is None and csv_cell(1.5) == 1.5


def _choice_task(task: object, answers: dict[str, str]) -> dict:
    return {"id": task, "data": {"text": "x"}, "annotations": [
        {"id": k, "completed_by": {"id": k + 1, "email": who},
         "result": [{"id": f"r{k}", "from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": [v]}}]}
        for k, (who, v) in enumerate(answers.items())]}


def test_import_csv_guards_formula_cells_and_raw_csv_writes_them_as_they_are(tmp_path):
    export = _write_ls(tmp_path / "export.json", [  # a hostile export: task ids, e-mails and choices as formulas
        _choice_task("=HYPERLINK(\"http://x\")", {"@bob": "+ve", "ann": "+ve"}),
        _choice_task("u2", {"@bob": "-", "ann": "-1.5"}),
        _choice_task("-3", {"@bob": "=1+2", "ann": "=1+2"}),
    ])
    out = tmp_path / "long.csv"
    res = runner.invoke(app, ["import", str(export), "--from", "label-studio", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO(out.read_text())))
    cells = [c for row in rows for c in row]
    for guarded in ("'=HYPERLINK(\"http://x\")", "'@bob", "'+ve", "'-", "'=1+2"):
        assert guarded in cells, (guarded, rows)
    assert "-1.5" in cells and "-3" in cells  # plain numbers stay numbers
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    raw = tmp_path / "raw.csv"
    assert runner.invoke(app, ["import", str(export), "--from", "label-studio", "-o", str(raw),
                               "--raw-csv"]).exit_code == 0
    raw_cells = [c for row in csv.reader(io.StringIO(raw.read_text())) for c in row]
    assert "@bob" in raw_cells and "=1+2" in raw_cells and "'@bob" not in raw_cells


def _brat(root: Path) -> Path:
    text = "=cmd|' /C calc'!A0 met @Bob in +Paris.\n"
    for who, ann in {"alice": "T1\t@LOC 0 18\t=cmd|' /C calc'!A0\nT2\tPER 23 27\t@Bob\n",
                     "bob": "T1\tLOC 31 37\t+Paris\n"}.items():
        (root / who).mkdir(parents=True)
        (root / who / "d1.ann").write_text(ann, encoding="utf-8")
        (root / who / "d1.txt").write_text(text, encoding="utf-8")
    return root


def test_spans_import_csv_guards_labels_and_document_text(tmp_path):
    export = _brat(tmp_path / "brat")
    out = tmp_path / "spans.csv"
    res = runner.invoke(app, ["import", str(export), "--from", "brat", "-o", str(out)])
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert {r["label"] for r in rows} == {"'@LOC", "PER", "LOC"}
    assert {r["text"] for r in rows} == {"'=cmd|' /C calc'!A0", "'@Bob", "'+Paris"}
    assert all(r["start"].isdigit() for r in rows)


def test_gold_out_guards_formula_cells(tmp_path):
    src = tmp_path / "ann.csv"
    src.write_text("unit,coder,value\n=SUM(A1),a,@x\n=SUM(A1),b,@x\nu2,a,-\nu2,b,-\nu3,a,ok\nu3,b,no\n"
                   "u4,a,-1.5\nu4,b,-1.5\n")
    out = tmp_path / "gold.csv"
    res = runner.invoke(app, ["gold", str(src), "--out", str(out), "--p", "0.5"])
    assert res.exit_code == 0, res.output
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert sorted(map(tuple, rows[1:])) == sorted([("'=SUM(A1)", "'@x"), ("u2", "'-"), ("u4", "-1.5")])
    raw = tmp_path / "raw.csv"
    assert runner.invoke(app, ["gold", str(src), "--out", str(raw), "--p", "0.5", "--raw-csv"]).exit_code == 0
    assert ["=SUM(A1)", "@x"] in list(csv.reader(io.StringIO(raw.read_text())))


def test_pyramid_score_csv_guards_a_peer_named_like_a_formula(tmp_path, monkeypatch):
    data = Path(__file__).parent / "data" / "pyramid"
    (tmp_path / "=1+2.pan").write_bytes((data / "small_peer.pan").read_bytes())
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["pyramid", "score", str(data / "small.pyr"), "=1+2.pan", "--csv"])
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[1].startswith("'=1+2.pan,")
    res = runner.invoke(app, ["pyramid", "score", str(data / "small.pyr"), "=1+2.pan", "--csv", "--raw-csv"])
    assert res.stdout.splitlines()[1].startswith("=1+2.pan,")


def _formula_table(path: Path) -> Path:
    path.write_text("unit,coder,value\n=HYPERLINK(1),ann,+\n=HYPERLINK(1),bob,-\n=HYPERLINK(1),cy,+\n"
                    "@u2,ann,=1+2\n@u2,bob,=1+2\n@u2,cy,-\n-3,ann,+\n-3,bob,-\n-3,cy,-\n")
    return path


def test_report_export_js_applies_the_python_rule():
    from importlib import resources

    js = resources.files("accord.reporting").joinpath("templates", "report.js").read_text(encoding="utf-8")
    start = js.index("var FORMULA_START = /") + len("var FORMULA_START = /")
    assert js[start:js.index("/;", start)] == "^[=+\\-@\\t\\r\\n]"
    assert 'document.body.getAttribute("data-raw-csv") === "1"' in js
    assert "var s = typeof v === \"string\" ? spreadsheetSafe(v) : String(v);" in js


@pytest.fixture(scope="module")
def browser():
    from _browser import launch

    yield from launch()


@pytest.mark.parametrize("raw", [False, True], ids=["guarded", "raw-csv"])
def test_report_export_csv_in_the_browser(browser, tmp_path, raw):
    pytest.importorskip("altair")
    from _browser import OpenedPage

    src = _formula_table(tmp_path / "labels.csv")
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(src), "-o", str(out), "--bootstrap", "0", "--quiet",
                              *(["--raw-csv"] if raw else [])])
    assert res.exit_code == 0, res.output
    page = OpenedPage(browser, out)
    try:
        with page.page.expect_download() as dl:
            page.page.click("#table-adjudication .table-csv")
        text = open(dl.value.path(), encoding="utf-8").read()
    finally:
        page.close()
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    # the same rule as the Python writers: formula cells guarded, the plain number -3 kept
    expected = {c: (c if raw else csv_cell(c)) for c in ("=HYPERLINK(1)", "@u2", "-3")}
    assert all(v in cells for v in expected.values()), (expected, text)
    assert raw == any(c.startswith(("=", "@")) for c in cells)


# --------------------------------------------------------------------- control characters and bidi

EVIL_EMAIL = "ann\x1b]0;pwned\x07\x1b[2K\ralpha = 0.99 (reliable)\x1b[8m@x.org"
RLO_NAME = "cy\u202e 123 alpha"


def test_terminal_safe_escapes_controls_and_names_bidi():
    assert terminal_safe(EVIL_EMAIL) == "ann\\x1b]0;pwned\\x07\\x1b[2K\\x0dalpha = 0.99 (reliable)\\x1b[8m@x.org"
    assert terminal_safe(RLO_NAME) == "cy<U+202E> 123 alpha"
    assert terminal_safe("a\u2066b\u2069\u200f\u061c\x85\x7f\u2028") == \
        "a<U+2066>b<U+2069><U+200F><U+061C>\\x85\\x7f\\u2028"
    assert terminal_safe("two\nlines\tand a tab") == "two\nlines\tand a tab"


def test_escape_sequences_in_an_email_do_not_reach_the_terminal_in_the_import_report(tmp_path):
    export = _write_ls(tmp_path / "export.json", [
        _ls_task(1, {EVIL_EMAIL: 1, "bob@x.org": 2}), _ls_task(2, {EVIL_EMAIL: 3, "bob@x.org": 3})])
    res = runner.invoke(app, ["import", str(export), "--from", "label-studio", "-o", str(tmp_path / "o.csv")])
    assert res.exit_code == 0, res.output
    assert not any(c in res.stderr for c in "\x1b\x07\r")
    assert "ann\\x1b]0;pwned\\x07\\x1b[2K\\x0dalpha = 0.99 (reliable)\\x1b[8m@x.org: 2 annotated" in res.stderr


def test_escapes_rlo_and_markup_in_coder_names_through_agree(tmp_path):
    f = tmp_path / "ann.csv"
    evil = EVIL_EMAIL.replace("\r", "")  # a CSV cell may hold anything but its own line break
    names = [evil, RLO_NAME, "[/bold]", "[link=http://x]y[/link]"]
    rows = [f'u{u},"{n}",{"ab"[(u + k) % 2]}' for u in range(4) for k, n in enumerate(names)]
    f.write_text("unit,coder,value\n" + "\n".join(rows) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["agree", str(f), "--diagnostics", "--coefficient", "all"])
    assert res.exit_code == 0, res.output  # "[/bold]" was a rich MarkupError traceback
    flat = "".join(res.stdout.split())
    assert "\x1b" not in res.stdout and "\u202e" not in res.stdout
    assert "<U+202E>" in flat and "\\x1b]0;pwned" in flat and "[/bold]" in flat and "[link=http://x]" in flat
    f.write_text(f'unit,coder,value\nu1,"{RLO_NAME}",a\nu1,"{RLO_NAME}",b\n', encoding="utf-8")
    line = _one_error_line(runner.invoke(app, ["agree", str(f)]))
    assert "\u202e" not in line and "gave two values to unit 'u1'" in line  # the name as repr writes it: \u202e


def test_the_report_isolates_bidi_controls_in_bdi(tmp_path):
    pytest.importorskip("altair")
    assert str(isolate_html(f"least: {RLO_NAME} and <b>")) == "least: <bdi>cy\u202e</bdi> 123 alpha and &lt;b&gt;"
    f = tmp_path / "ann.csv"
    rows = [f'u{u},"{n}",{"abc"[(u * (k + 1)) % 3]}' for u in range(6) for k, n in enumerate(["ann", "bob", RLO_NAME])]
    f.write_text("unit,coder,value\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert runner.invoke(app, ["report", str(f), "-o", str(out), "--bootstrap", "0", "--quiet"]).exit_code == 0
    html = out.read_text(encoding="utf-8")
    import re

    body = re.sub(r"<script.*?</script>", "", html[html.index("<main>"):html.index("</main>")], flags=re.S)
    assert "\u202e" in body  # the name is shown...
    assert body.count("\u202e") == body.count("\u202e</bdi>")  # ... each override ended by its own <bdi>


# ------------------------------------------------------------------------------------------ outputs


def test_force_never_writes_inside_an_input_folder(tmp_path):
    export = _brat(tmp_path / "brat")
    target = export / "alice" / "d1.ann"
    before = target.read_bytes()
    line = _one_error_line(runner.invoke(app, ["import", str(export), "--from", "brat", "-o", str(target),
                                               "--force"]))
    assert f"refusing to write {target}: it lies inside {export}, a folder this command reads" in line
    assert target.read_bytes() == before
    line = _one_error_line(runner.invoke(app, ["import", str(export), "--from", "brat", "-o",
                                               str(export / "new.csv")]))
    assert "a folder this command reads" in line and not (export / "new.csv").exists()
    # a report written over one of the documents of --texts
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "d1.txt").write_text("Zoe met Bob.\n")
    spans = tmp_path / "spans.csv"
    spans.write_text("document,coder,start,end,label\nd1,a,0,3,PER\nd1,b,0,3,PER\n")
    line = _one_error_line(runner.invoke(app, ["report", str(spans), "--kind", "spans", "--texts", str(docs),
                                               "-o", str(docs / "d1.txt"), "--force"]))
    assert f"it lies inside {docs}, a folder this command reads" in line
    assert (docs / "d1.txt").read_text() == "Zoe met Bob.\n"


def test_a_symlinked_output_is_replaced_beside_the_link_never_written_through(tmp_path, monkeypatch):
    src = tmp_path / "ann.csv"
    src.write_text("unit,coder,value\nu1,a,x\nu1,b,x\nu2,a,y\nu2,b,z\n")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    target = b / "shared.csv"
    target.write_text("theirs\n")
    link = a / "gold.csv"
    link.symlink_to(target)
    line = _one_error_line(runner.invoke(app, ["gold", str(src), "--out", str(link), "--p", "0.5"]))
    assert "exists; pass --force" in line
    renames = []
    real_replace = os.replace

    def replace(s, d):
        renames.append((Path(s), Path(d)))
        real_replace(s, d)

    monkeypatch.setattr(os, "replace", replace)
    res = runner.invoke(app, ["gold", str(src), "--out", str(link), "--p", "0.5", "--force"])
    assert res.exit_code == 0, res.output
    # one rename inside the link's own folder: it never crosses filesystems ("Invalid cross-device link")
    assert [(s.parent, d) for s, d in renames] == [(a.resolve(), a.resolve() / "gold.csv")]
    assert not link.is_symlink() and link.read_text().startswith("unit,value\nu1,x")
    assert target.read_text() == "theirs\n"  # the file the link pointed to is untouched
    assert sorted(p.name for p in a.iterdir()) == ["gold.csv"] and sorted(p.name for p in b.iterdir()) == [
        "shared.csv"]
    dangling = a / "dangling.csv"
    dangling.symlink_to(b / "nowhere.csv")
    line = _one_error_line(runner.invoke(app, ["gold", str(src), "--out", str(dangling), "--p", "0.5"]))
    assert "exists; pass --force" in line and not (b / "nowhere.csv").exists()


def test_a_temp_file_of_a_killed_write_is_cleaned_by_the_next_write(tmp_path):
    out = tmp_path / "out.csv"
    killed = ("import os, sys\nfrom accord._shared.output import atomic_output\n"
              "cm = atomic_output(sys.argv[1]); tmp = cm.__enter__(); tmp.write_text('half'); os._exit(9)\n")
    proc = subprocess.run([sys.executable, "-c", killed, str(out)], env={**os.environ, "PYTHONPATH": SRC},
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    left = [p for p in tmp_path.iterdir() if p.name.startswith(".out.csv.accord-") and p.name.endswith(".tmp")]
    assert len(left) == 1 and not out.exists()
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(left[0], (old, old))
    legacy = tmp_path / ".out.csv.k3j_a9zq.tmp"  # the naming of earlier versions
    fresh = tmp_path / ".out.csv.accord-abcdefgh.tmp"  # a write under way
    other = tmp_path / ".out.csv.notours.tmp"  # not accord's pattern
    mine_dir = tmp_path / ".out.csv.accord-dir45678.tmp"  # a folder, not a file
    for p in (legacy, fresh, other):
        p.write_text("x")
    mine_dir.mkdir()
    for p in (legacy, other, mine_dir):
        os.utime(p, (old, old))
    write_output(out, "done")
    assert out.read_text() == "done"
    assert not left[0].exists() and not legacy.exists()
    assert fresh.exists() and other.exists() and mine_dir.is_dir()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with atomic_output(tmp_path / "b.csv") as tmp:  # no temp of another output is touched
            tmp.write_text("b")
    assert fresh.exists() and (tmp_path / "b.csv").read_text() == "b"
