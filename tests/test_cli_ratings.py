"""accord agree with the coefficients for ratings, named weights, confusion matrices and --coefficient all."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import accord
from accord.cli import app

runner = CliRunner()

# Shrout & Fleiss (1979), Table 2, as a spreadsheet: one row per target, one column per judge.
SF_CSV = "target,J1,J2,J3,J4\nS1,9,2,5,8\nS2,6,1,3,2\nS3,8,4,6,8\nS4,7,1,2,6\nS5,10,5,6,9\nS6,6,2,4,7\n"
CONFUSION = "A \\ B,low,medium,high\nlow,20,5,1\nmedium,4,15,6\nhigh,0,3,12\n"


@pytest.fixture
def sf(tmp_path):
    path = tmp_path / "sf.csv"
    path.write_text(SF_CSV)
    return str(path)


@pytest.fixture
def confusion(tmp_path):
    path = tmp_path / "table.csv"
    path.write_text(CONFUSION)
    return str(path)


def _json(*args: str) -> dict:
    res = runner.invoke(app, ["agree", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_icc_table_json_and_text(sf):
    out = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "icc")
    forms = {(f["form"], f["model"]): f for f in out["forms"]}
    assert len(forms) == 10 and out["confidence_level"] == 0.95
    a1 = forms[("ICC(A,1)", "two-way random")]
    assert a1["shrout_fleiss"] == "ICC(2,1)" and round(a1["icc"], 2) == 0.29
    lo, hi = a1["confidence_interval"]
    assert lo < a1["icc"] < hi
    res = runner.invoke(app, ["agree", sf, "--layout", "wide", "--unit", "target", "--coefficient", "icc"])
    assert res.exit_code == 0 and "ICC(3,1)" in res.stdout and "Intraclass correlations of 6 units" in res.stdout


def test_all_lists_what_applies_and_says_what_it_left_out(sf):
    out = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "all", "--distance", "interval")
    assert {"icc", "kendall-w", "ccc", "light", "conger", "brennan-prediger", "alpha"} <= set(out)
    assert out["left_out"] == {"cohen": "needs exactly two coders; the data have 4",
                               "scott": "needs exactly two coders; the data have 4"}
    nominal = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "all")
    assert "icc" not in nominal and "distance is nominal" in nominal["left_out"]["icc"]
    res = runner.invoke(app, ["agree", sf, "--layout", "wide", "--unit", "target", "--coefficient", "all"])
    assert "left out: Lin's CCC is for interval or ratio ratings" in " ".join(res.stdout.split())
    assert "Brennan-Prediger: q = 10, the categories observed" in " ".join(res.stdout.split())


def test_kendall_w_and_ccc_from_the_command_line(sf):
    w = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "kendall-w")
    assert w["df"] == 5 and 0 < w["w"] <= 1 and w["tie_correction"] is True
    ccc = _json(sf, "--layout", "wide", "--unit", "target", "--coders", "J1,J3", "--coefficient", "ccc")
    assert ccc["n_coders"] == 2 and len(ccc["confidence_interval"]) == 2
    res = runner.invoke(app, ["agree", sf, "--layout", "wide", "--unit", "target", "--coefficient", "kendall-w"])
    assert "Kendall's W: chi-square(5)" in res.stdout


def test_confusion_matrix_with_named_weights(confusion):
    table = np.array([[20, 5, 1], [4, 15, 6], [0, 3, 12]])
    want = accord.cohen_kappa(accord.Annotations.from_confusion(table, categories=["low", "medium", "high"]),
                              weights="quadratic", categories=["low", "medium", "high"])
    out = _json(confusion, "--confusion", "--coefficient", "cohen", "--weights", "quadratic")
    assert out["kappa"] == pytest.approx(want.kappa, abs=1e-12)
    assert out["standard_error"] == pytest.approx(want.standard_error, abs=1e-12)
    assert out["distance"] == "quadratic weights" and out["n_units"] == 66
    plain = _json(confusion, "--confusion", "--coefficient", "all")
    assert "cohen" in plain and plain["left_out"]["icc"] == "needs numeric ratings; the values are labels"


def test_brennan_prediger_and_conger_by_name(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("unit,coder,value\n" + "".join(
        f"{u},{c},{v}\n" for u, row in enumerate([[1, 1, 2], [2, 2, 2], [3, 3, 1], [1, 2, 1], [3, 3, 3]])
        for c, v in zip("abc", row, strict=True)))
    data = accord.read(path)
    bp = _json(str(path), "--coefficient", "brennan-prediger", "--categories", "5")
    assert bp["n_categories"] == 5 and bp["kappa"] == pytest.approx(accord.brennan_prediger(data, n_categories=5).kappa)
    conger = _json(str(path), "--coefficient", "conger", "--weights", "linear")
    assert conger["kappa"] == pytest.approx(accord.conger_kappa(data, weights="linear").kappa)
    light = _json(str(path), "--coefficient", "light")
    assert light["kappa"] == pytest.approx(accord.light_kappa(data).kappa)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--coefficient", "percent", "--weights", "linear"], "--weights apply to alpha, scott, cohen"),
        (["--coefficient", "cohen", "--weights", "cubic"], "weights must be one of"),
        (["--coefficient", "alpha", "--weights", "linear"], "needs the order of the categories"),
        (["--coefficient", "fleiss", "--weights", "linear"], "needs the order of the categories"),
        (["--coefficient", "cohen", "--categories", "4"], "--categories is the number of categories"),
        (["--coefficient", "icc"], "icc needs numeric ratings"),
    ],
)
def test_errors_exit_2_with_one_line(tmp_path, extra, message):
    path = tmp_path / "labels.csv"
    path.write_text("unit,coder,value\n1,a,low\n1,b,high\n2,a,high\n2,b,high\n3,a,low\n3,b,low\n")
    res = runner.invoke(app, ["agree", str(path), *extra])
    assert res.exit_code == 2, res.output
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith("accord: error:")


def test_confusion_errors(tmp_path, confusion):
    bad = tmp_path / "bad.csv"
    bad.write_text("x,a,b\na,1,2\nc,3,4\n")
    res = runner.invoke(app, ["agree", str(bad), "--confusion"])
    assert res.exit_code == 2 and "must name the same categories" in res.stderr
    res = runner.invoke(app, ["agree", confusion, "--confusion", "--layout", "wide"])
    assert res.exit_code == 2 and "--confusion reads a square table" in res.stderr


def test_lazy_engines_say_the_ratings_coefficients_are_computed_in_memory(tmp_path):
    pytest.importorskip("duckdb")
    path = tmp_path / "r.csv"
    path.write_text("unit,coder,value\n1,a,1\n1,b,2\n2,a,2\n2,b,2\n3,a,3\n3,b,3\n")
    res = runner.invoke(app, ["agree", str(path), "--engine", "duckdb", "--coefficient", "icc"])
    assert res.exit_code == 2 and "pass --engine memory" in res.stderr
    out = json.loads(runner.invoke(app, ["agree", str(path), "--engine", "duckdb", "--coefficient", "all",
                                         "--json"]).stdout)
    assert out["left_out"]["icc"] == "is computed in memory only (--engine memory)"


def test_bundled_published_examples_give_their_printed_numbers():
    """shroutfleiss1979.csv (Shrout & Fleiss 1979, Table 2) and gwet2014_abstractors.csv (Gwet 2014; AC1 .8493305
    in irrCAC's vignette) as the docs use them."""
    from accord.datasets import dataset_path

    sf = _json(str(dataset_path("shroutfleiss1979.csv")), "--layout", "wide", "--unit", "target", "--coefficient",
               "icc")
    printed = {"ICC(1,1)": 0.17, "ICC(2,1)": 0.29, "ICC(3,1)": 0.71, "ICC(1,k)": 0.44, "ICC(2,k)": 0.62,
               "ICC(3,k)": 0.91}
    got = {f["shrout_fleiss"]: round(f["icc"], 2) for f in sf["forms"] if f["shrout_fleiss"]}
    assert got == printed
    ac1 = _json(str(dataset_path("gwet2014_abstractors.csv")), "--confusion", "--coefficient", "gwet")
    assert ac1["ac"] == pytest.approx(0.8493305, abs=5e-8) and ac1["n_units"] == 100


def test_the_report_and_agree_all_choose_alike(sf, tmp_path):
    """One rule (coefficients.choose) and one dispatch (compute_chosen) for ``accord agree --coefficient
    all`` and the agreement report: the same coefficients, the same numbers, the same ones left out."""
    from accord.coefficients._registry import applicable, choose
    from accord.reporting._agreement import agreement_parts

    data = accord.read(sf, layout="wide", unit="target")
    for distance in ("nominal", "interval"):
        out = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "all", "--distance", distance)
        names, left = choose(data, distance)
        shown = [k for k in out if k not in ("left_out", "confidence_level", "read_as")]
        assert names == applicable(data, distance) == shown
        parts = agreement_parts(data, distance=distance, bootstrap=0)
        # complete data: multi-kappa is Conger's kappa and Bennett's S is Brennan-Prediger, one card each pair
        twins = {"multi-kappa": "conger", "bennett": "brennan-prediger"}
        assert [h.key for h in parts.headline] == [n for n in names if n not in twins]
        assert list(parts.summary)[:len(names)] == names
        assert set(parts.summary.get("left_out", {})) == set(out["left_out"]) == set(left)
        cards = {h.key: h for h in parts.headline}
        assert cards["conger"].label == "Conger's kappa = multi-kappa"
        assert cards["brennan-prediger"].label == "Brennan-Prediger = Bennett's S"
        assert "Conger's kappa equals multi-kappa on these data" in " ".join(parts.notes)
        for name in names:
            if name in twins:
                assert out[name]["kappa"] == pytest.approx(cards[twins[name]].value, rel=1e-12)
                continue
            if name == "icc":
                assert cards[name].value == out["icc"]["forms"][4]["icc"]  # ICC(A,1), two-way random
            else:
                value = next(out[name][k] for k in ("alpha", "kappa", "percent_agreement", "ac", "w", "ccc")
                             if k in out[name])
                assert cards[name].value == pytest.approx(value, rel=1e-12), name
        said = " ".join(parts.notes)
        assert "Not computed: Cohen's kappa, which needs exactly two coders; the data have 4." in said
        if distance == "nominal":
            assert "Not computed: intraclass correlation, which is for interval or ratio ratings" in said
            assert "pass" not in said  # a page's reader has no argument to pass
            assert "icc" not in [s.id for s in parts.sections]
    # the numeric coefficients on the page: the ten forms in their section, intervals on the cards
    parts = agreement_parts(data, distance="interval", bootstrap=0)
    table = next(s for s in parts.sections if s.id == "icc").tables[0]
    ref = accord.icc_table(data)
    assert [r[0] for r in table.rows] == [f.form for f in ref.forms]
    assert [r[5] for r in table.rows] == [f.icc for f in ref.forms]
    assert [(r[10], r[11]) for r in table.rows] == [f.confidence_interval(0.95) for f in ref.forms]
    cards = {h.key: h for h in parts.headline}
    assert cards["icc"].interval == ref["ICC(A,1)"].confidence_interval(0.95)
    assert "McGraw & Wong (1996)" in cards["icc"].interval_note
    assert cards["conger"].interval is not None and "chi-square(5)" in cards["kendall-w"].words
    assert cards["ccc"].interval is None and "for two coders" in cards["ccc"].interval_note
    # and the page renders them
    accord.report(data, tmp_path / "r.html", distance="interval", bootstrap=0)
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'data-key="icc"' in html and 'id="icc"' in html and 'data-key="light"' in html


def test_light_kappa_interval_is_the_bootstrap_of_the_run(sf):
    """Light's kappa has no variance of its own: accord agree and the report give its bootstrap interval over the
    units every coder rated, with the run's resamples and seed (the same numbers as the Python result's)."""
    from accord.reporting._agreement import agreement_parts

    data = accord.read(sf, layout="wide", unit="target")
    ref = accord.light_kappa(data, distance="interval").confidence_interval(0.9, n_resamples=200, rng=3)
    args = (sf, "--layout", "wide", "--unit", "target", "--distance", "interval", "--confidence", "0.9")
    one = _json(*args, "--coefficient", "light", "--bootstrap", "200", "--seed", "3")
    assert one["confidence_interval"] == list(ref) and one["bootstrap_resamples"] == 200
    every = _json(*args, "--coefficient", "all", "--bootstrap", "200", "--seed", "3")
    assert every["light"]["confidence_interval"] == list(ref)
    assert "confidence_interval" not in _json(*args, "--coefficient", "light", "--bootstrap", "0")
    res = runner.invoke(app, ["agree", *args, "--coefficient", "light", "--bootstrap", "200", "--seed", "3"])
    assert res.exit_code == 0 and "90% interval of Light's kappa is a bootstrap's (200 resamples" in res.stdout
    # the interval itself sits in the table's interval column
    assert f"[{ref[0]:.4f}, {ref[1]:.4f}]" in " ".join(res.stdout.replace("│", " ").split()).replace("[ ", "[")
    card = next(h for h in agreement_parts(data, distance="interval", bootstrap=200, seed=3,
                                           confidence=0.9).headline if h.key == "light")
    assert card.interval == ref and "bootstrap interval: 200 resamples" in card.interval_note
    card = next(h for h in agreement_parts(data, distance="interval", bootstrap=0).headline if h.key == "light")
    assert card.interval is None and "turned off" in card.interval_note


def test_twin_cards_stay_apart_when_ratings_are_missing():
    """With a rating missing, multi-kappa is not defined (Conger's kappa takes the gap) and Bennett's S weights
    units by their values while Brennan-Prediger averages over units (Gwet 2014, ch. 2): the two differ and
    each keeps its own card."""
    from accord.reporting._agreement import agreement_parts

    data = accord.as_annotations([[1, 2, 2], [1, 1, 1], [2, 2, None], [3, 3, 2], [1, 3, 3], [2, 2, 2]])
    parts = agreement_parts(data, bootstrap=0)
    keys = [h.key for h in parts.headline]
    assert "conger" in keys and "multi-kappa" not in keys and "multi-kappa" in parts.summary.get("left_out", {})
    assert {"bennett", "brennan-prediger"} <= set(keys)
    labels = {h.key: h.label for h in parts.headline}
    assert labels["brennan-prediger"] == "Brennan-Prediger" and "equals" not in " ".join(parts.notes)
