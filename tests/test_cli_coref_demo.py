"""accord coref and accord demo from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import app

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "coref"


def test_coref_csv_reproduces_passonneau2004_both_conventions():
    """Passonneau (2004) Table 1 as a long CSV, J/RA.2 NIL read as missing unless coded as a singleton."""
    res = runner.invoke(app, ["coref", str(DATA / "passonneau2004_table1.csv"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out["alpha"]) == {"nominal", "set-relation"}
    assert set(out["alpha"]["nominal"]) == {"classes", "classes-less-unit"}
    assert len(out["pairwise"]) == 3


def test_coref_conll_with_key_gives_the_five_scores():
    res = runner.invoke(app, ["coref", str(DATA / "ann1.conll"), str(DATA / "ann2.conll"), "--key",
                              str(DATA / "ann1.conll"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert set(out["scores"]) == {"ann1", "ann2"}
    assert out["scores"]["ann1"]["muc"]["f1"] == 1.0
    assert {"muc", "b_cubed", "ceaf_m", "ceaf_e", "blanc", "lea", "conll_f1"} <= set(out["scores"]["ann2"])


def test_coref_table_output():
    res = runner.invoke(app, ["coref", str(DATA / "ann1.jsonl"), str(DATA / "ann2.jsonl"), "--distance",
                              "masi-2010"])
    assert res.exit_code == 0, res.output
    assert "masi-2010" in res.stdout and "Coder pairs" in res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["coref", "nope.conll"], "nope.conll"),
        (["coref", str(DATA / "ann1.conll"), "--distance", "interval"], "--distance must be one of"),
    ],
)
def test_coref_errors_exit_2(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_demo_prints_the_papers_numbers():
    res = runner.invoke(app, ["demo"])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert "0.4495" in text and "0.7422" in text  # Passonneau (2004) Table 2: .45 and .74
    assert "0.7434" in text and "0.8491" in text  # Krippendorff (2011): .743 nominal, .849 interval


def test_coref_bootstrap_over_documents(tmp_path):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    rows = []
    for d in range(8):
        base = rng.integers(0, 4, 12)
        for c in ("a", "b"):
            chains = np.where(rng.random(12) < 0.3, rng.integers(0, 12, 12), base)
            rows += [(f"d{d}", m, c, int(chains[m])) for m in range(12)]
    path = tmp_path / "chains.csv"
    pd.DataFrame(rows, columns=["document", "mention", "coder", "chain"]).to_csv(path, index=False)
    res = runner.invoke(app, ["coref", str(path), "--bootstrap", "200", "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    ci = json.loads(res.stdout)["confidence_intervals"]
    assert ci["resampled"] == "documents" and ci["set-relation"][0] < ci["set-relation"][1]
