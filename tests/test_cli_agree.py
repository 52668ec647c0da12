"""The accord agree command: tables, JSON, exit status 2 with one line on bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from accord.cli import app
from accord.datasets import dataset_path

runner = CliRunner()
KRIPP = str(dataset_path("krippendorff2011.csv"))


def test_json_has_result_fields():
    res = runner.invoke(app, ["agree", KRIPP, "--distance", "interval", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert round(out["alpha"], 3) == 0.849
    assert {"observed_disagreement", "expected_disagreement", "n_units", "n_pairable"} <= set(out)


def test_all_coefficients_and_bootstrap():
    res = runner.invoke(app, ["agree", KRIPP, "--coefficient", "all", "--bootstrap", "50", "--seed", "3",
                              "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert {"alpha", "percent", "bennett"} <= set(out)
    lo, hi = out["confidence_interval"]
    assert lo <= out["alpha"]["alpha"] <= hi


def test_confidence_level_is_printed_as_given():
    """97.5% is not rounded to 98% in what the command prints (nor in the report, which shares the wording)."""
    res = runner.invoke(app, ["agree", KRIPP, "--bootstrap", "50", "--seed", "3", "--confidence", "0.975"])
    assert res.exit_code == 0, res.output
    assert "97.5% interval of alpha is a bootstrap's" in " ".join(res.stdout.split())


def test_table_output_and_diagnostics():
    res = runner.invoke(app, ["agree", KRIPP, "--diagnostics"])
    assert res.exit_code == 0, res.output
    assert "Krippendorff's alpha" in res.stdout and "0.7434" in res.stdout
    assert "Alpha with each coder left out" in res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["agree", "missing.csv"], "no such file"),
        (["agree", KRIPP, "--unit", "item"], "missing column 'item'"),
        (["agree", KRIPP, "--distance", "masi"], "ambiguous"),
        (["agree", KRIPP, "--coefficient", "kappa9"], "--coefficient must be one of"),
    ],
)
def test_errors_exit_2_with_one_line(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and message in err[0] and err[0].startswith("accord: error:")


def test_help_explains_itself():
    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0 and "agree" in res.stdout
    res = runner.invoke(app, ["agree", "--help"])
    assert res.exit_code == 0 and "--distance" in res.stdout


def test_wide_layout_from_the_command_line(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("item,ann1,ann2,ann3\nq1,yes,yes,yes\nq2,no,no,yes\nq3,no,no,no\nq4,yes,no,yes\n")
    res = runner.invoke(app, ["agree", str(path), "--layout", "wide", "--unit", "item", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["n_units"] == 4 and out["n_coders"] == 3
