"""``accord agree --json``: every coefficient carries ``coefficient`` and ``value`` (issue 30), and
``--categories`` takes the categories as well as their number."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import accord
from accord.cli import app

runner = CliRunner()

SF_CSV = "target,J1,J2,J3,J4\nS1,9,2,5,8\nS2,6,1,3,2\nS3,8,4,6,8\nS4,7,1,2,6\nS5,10,5,6,9\nS6,6,2,4,7\n"


def _json(*args: str) -> dict:
    res = runner.invoke(app, ["agree", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.fixture
def sf(tmp_path):
    path = tmp_path / "sf.csv"
    path.write_text(SF_CSV)
    return str(path)


def test_every_coefficient_has_coefficient_and_value(sf):
    out = _json(sf, "--layout", "wide", "--unit", "target", "--coefficient", "all", "--distance", "interval")
    from accord.coefficients._registry import ALL_COEFFICIENTS

    results = {k: v for k, v in out.items() if k in ALL_COEFFICIENTS}  # beside them: left_out, read_as, ...
    assert len(results) >= 10
    for name, d in results.items():
        assert isinstance(d["coefficient"], str), name
        assert isinstance(d["value"], float), name
    icc = results["icc"]
    assert icc["form"] == "ICC(A,1)"
    by_form = {f["form"] + " " + f["model"]: f for f in icc["forms"]}
    assert icc["value"] == by_form["ICC(A,1) two-way random"]["value"]
    assert all(f["coefficient"] == "icc" and "value" in f for f in icc["forms"])


@pytest.mark.parametrize("coefficient", ["alpha", "cohen", "gwet", "percent", "kendall-w", "ccc", "icc"])
def test_one_coefficient_has_coefficient_and_value(sf, coefficient):
    out = _json(sf, "--layout", "wide", "--unit", "target", "--coders", "J1,J3", "--coefficient", coefficient,
                "--distance", "interval")
    assert isinstance(out["coefficient"], str) and isinstance(out["value"], float)


def test_categories_by_label(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("unit,coder,value\n" + "".join(
        f"{u},{c},{v}\n" for u, row in enumerate([["lo", "lo", "hi"], ["hi", "hi", "hi"], ["mid", "mid", "lo"]])
        for c, v in zip("abc", row, strict=True)))
    data = accord.read(path)
    by_label = _json(str(path), "--coefficient", "brennan-prediger", "--categories", "lo,mid,hi,top")
    by_number = _json(str(path), "--coefficient", "brennan-prediger", "--categories", "4")
    assert by_label["value"] == by_number["value"] == pytest.approx(accord.brennan_prediger(data, n_categories=4).kappa)
    res = runner.invoke(app, ["agree", str(path), "--coefficient", "brennan-prediger", "--categories", "lo,hi"])
    assert res.exit_code == 2
    assert "the data hold the value mid, which is not among the categories lo, hi" in res.output
