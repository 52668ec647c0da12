"""``accord relations``: tables, JSON with per-pair F1 and alpha, one line and status 2 on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import app

runner = CliRunner()
TEXT = "Sony formed a joint venture with Ericsson, a mobile phone company based in Sweden.\n"
SPANS = "T1\tOrganization 0 4\tSony\nT2\tOrganization 33 41\tEricsson\nT3\tCountry 75 81\tSweden\n"


def _brat(tmp_path: Path, relations: dict[str, str]) -> Path:
    root = tmp_path / "round1"
    for coder, lines in relations.items():
        (root / coder).mkdir(parents=True)
        (root / coder / "d1.txt").write_text(TEXT, encoding="utf-8")
        (root / coder / "d1.ann").write_text(SPANS + lines, encoding="utf-8")
    return root


def test_json_gives_per_pair_f1_and_alpha(tmp_path):
    root = _brat(tmp_path, {"alice": "R1\tPartner Arg1:T1 Arg2:T2\nR2\tOrigin Arg1:T2 Arg2:T3\n",
                            "bob": "R1\tPartner Arg1:T2 Arg2:T1\nR2\tOrigin Arg1:T2 Arg2:T3\n"})
    res = runner.invoke(app, ["relations", str(root), "--from", "brat", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    pair = out["pairs"][0]
    assert (pair["coder_a"], pair["coder_b"], pair["typed"]["f1"], pair["untyped"]["f1"]) == ("alice", "bob", 0.5, 1.0)
    # candidates: Sony-Ericsson (Partner vs Partner reversed), Ericsson-Sweden (Origin twice): alpha 0 by hand
    # (values P, Origin, Pr, Origin: D_o = 2/4, D_e = (2*1*1 + 2*1*2 + 2*1*2) / 12 = 10/12; 1 - 0.5/0.8333 = 0.4)
    assert out["alpha"] == pytest.approx(0.4)
    assert out["import_reports"][0]["tool"] == "brat"
    assert {u["reason"] for u in out["unmatched"]} == {"direction"}


def test_undirected_option(tmp_path):
    root = _brat(tmp_path, {"alice": "R1\tPartner Arg1:T1 Arg2:T2\n", "bob": "R1\tPartner Arg1:T2 Arg2:T1\n"})
    res = runner.invoke(app, ["relations", str(root), "--undirected", "Partner", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["f1"] == 1.0


def test_tables(tmp_path):
    root = _brat(tmp_path, {"alice": "R1\tPartner Arg1:T1 Arg2:T2\n", "bob": "R1\tOrigin Arg1:T1 Arg2:T2\n"})
    res = runner.invoke(app, ["relations", str(root), "--match", "overlap", "--ignore-type"])
    assert res.exit_code == 0, res.output
    flat = " ".join(res.stdout.split())
    assert "overlap argument match" in flat and "Cohen's kappa" in flat and "Unmatched relations (2" in flat


def test_bad_input_is_one_line(tmp_path):
    root = _brat(tmp_path, {"alice": "R1\tPartner Arg1:T1 Arg2:T7\n", "bob": ""})
    res = runner.invoke(app, ["relations", str(root), "--from", "brat"])
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "its argument T7 names no text-bound annotation" in res.stderr
    res = runner.invoke(app, ["relations", str(root), "--match", "fuzzy"])
    assert res.exit_code == 2 and "match" in res.stderr
    res = runner.invoke(app, ["relations", str(root), "--from", "argilla"])
    assert res.exit_code == 2 and "--from must be one of brat, doccano, inception, label-studio, prodigy" in res.stderr
