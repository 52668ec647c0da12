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
        (["--coefficient", "alpha", "--weights", "linear"], "--weights apply to cohen"),
        (["--coefficient", "cohen", "--weights", "cubic"], "weights must be one of"),
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
