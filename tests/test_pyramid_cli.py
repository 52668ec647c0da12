"""The ``accord pyramid`` sub-commands, through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from accord.cli._pyramid import register

DATA = Path(__file__).parent / "data" / "pyramid"
app = typer.Typer()
register(app)


@app.callback()
def _root() -> None:
    """Test root."""


runner = CliRunner()


def test_show_table_and_json():
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "defects.pyr")])
    assert r.exit_code == 0, r.output
    assert "duplicate-model-contributor" in r.output and "Tiers" in r.output
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "small.pyr"), "--json"])
    out = json.loads(r.stdout)
    assert out["n_models"] == 3 and out["weights"] == {"1": 3, "2": 2, "3": 1}
    assert out["validation"]["defects"][0]["kind"] == "label-newline"


def test_score_json_and_csv():
    args = [
        "pyramid",
        "score",
        str(DATA / "small.pyr"),
        str(DATA / "small_peer.pan"),
        str(DATA / "uid0_unmarked.pan"),
    ]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    scores = json.loads(r.stdout)["scores"]
    assert [s["raw"] for s in scores] == [5, 5] and scores[0]["max_original"] == 6
    r = runner.invoke(app, [*args, "--csv", "--convention", "nist-duc"])
    assert r.stdout.splitlines()[0].startswith("peer,raw")
    r = runner.invoke(app, [*args])
    assert "modified" in r.stdout


@pytest.mark.filterwarnings("ignore::accord.AccordWarning")
def test_agree_and_agree_peers():
    r = runner.invoke(app, ["pyramid", "agree", str(DATA / "small.pyr"), str(DATA / "defects.pyr"), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert set(out["alphas"]) == {"nominal", "jaccard", "masi-2006", "masi-2010"}
    r = runner.invoke(
        app, ["pyramid", "agree-peers", str(DATA / "small_peer.pan"), str(DATA / "uid0_unmarked.pan")]
    )
    assert r.exit_code == 0, r.output
    # Both annotators found SCUs 1 and 2 once: no variation, so alpha is undefined (not a crash).
    assert "Binary'" in r.stdout and "undefined" in r.stdout


def test_errors_are_one_line_exit_2():
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "bomb.pyr")])
    assert r.exit_code == 2 and "refused" in r.output
    r = runner.invoke(
        app,
        ["pyramid", "score", str(DATA / "small.pyr"), str(DATA / "small_peer.pan"), "--convention", "nope"],
    )
    assert r.exit_code == 2 and "convention" in r.output
    r = runner.invoke(app, ["pyramid", "show", str(DATA / "missing.pyr")])
    assert r.exit_code == 2
