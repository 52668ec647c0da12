"""``accord judge``: one library call (:func:`accord.judge_audit`), then the tables or the JSON."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from accord.cli import app
from accord.datasets import dataset_path
from accord.models_vs_humans import judge_audit

runner = CliRunner()
PAIRS = dataset_path("judge_pairs.csv")
PASSFAIL = dataset_path("judge_passfail.csv")


def _run(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def test_json_equals_the_python_api() -> None:
    out = json.loads(_run("judge", str(PAIRS), "--judges", "gpt-a,gpt-b", "--position", "order",
                          "--verdict-refers-to", "position", "--run", "run", "--seed", "3", "--json"))
    ref = judge_audit(PAIRS, judges="gpt-a,gpt-b", position="order", verdict_refers_to="position", run="run",
                      rng=3)
    assert out == json.loads(json.dumps(ref.to_dict()))
    assert [a["judge"] for a in out["audits"]] == ["gpt-a", "gpt-b"]


def test_judges_side_by_side_and_each_check() -> None:
    out = _run("judge", str(PAIRS), "--judges", "gpt-*", "--position", "order", "--verdict-refers-to",
               "position", "--run", "run", "--max-rows", "3")
    assert "gpt-a" in out and "gpt-b" in out
    for words in ("Position consistency", "biased toward first", "McNemar (exact)", "repeatability over 2 runs",
                  "Agreement with the humans", "human majority", "the ceiling", "alt-test"):
        assert words in " ".join(out.split()), words
    assert "pass rate: undefined: the verdicts are not binary" in out


def test_pass_rate_and_options() -> None:
    out = _run("judge", str(PASSFAIL), "--judges", "gpt-a", "--pass-rate-interval", "bootstrap", "--n-boot", "200",
               "--seed", "1", "--power-tuned", "--mcnemar", "chi-square")
    assert "Rogan-Gladen" in out and "(bootstrap;" in out and "PPI++" in out
    assert "position consistency: undefined: no position column" in out


def test_alt_test_options_reach_the_test() -> None:
    out = json.loads(_run("judge", str(PASSFAIL), "--judges", "gpt-a", "--epsilon", "0.3", "--alpha", "0.1",
                          "--min-items", "20", "--json"))
    assert (out["epsilon"], out["alt_test_alpha"], out["min_items"]) == (0.3, 0.1, 20)
    assert len(out["audits"][0]["alt_test"]["comparisons"]) == 3


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    for args, words in [
        (["--judges", "gpt-z", "--run", "run", "--position", "order", "--verdict-refers-to", "option"],
         "--judges names 'gpt-z', which no coder matches"),
        (["--judges", "gpt-a", "--position", "order"], "--verdict-refers-to position or option"),
        (["--judges", "gpt-a", "--position", "order", "--verdict-refers-to", "slot"],
         "--verdict-refers-to must be one of position, option"),
        (["--judges", "gpt-a", "--position", "order", "--verdict-refers-to", "position"],
         "judges unit 'q01' twice in order 'AB' (lines 2 and 82); name the column of the run (--run)"),
    ]:
        res = runner.invoke(app, ["judge", str(PAIRS), *args])
        assert res.exit_code == 2, res.output
        said = " ".join(res.output.split())
        assert said.startswith("accord: error:") and words in said, res.output
        assert "Traceback" not in res.output


def test_without_order_and_run_it_reads_what_alt_test_reads(tmp_path: Path) -> None:
    f = tmp_path / "wide.csv"
    rows = ["item,ann,bob,cai,llm"] + [f"i{k},{v},{v},{w},{v}" for k, (v, w) in
                                       enumerate([("pass", "pass"), ("fail", "fail"), ("pass", "fail")] * 12)]
    f.write_text("\n".join(rows) + "\n")
    out = json.loads(_run("judge", str(f), "--judges", "llm", "--layout", "wide", "--unit", "item", "--json"))
    audit = out["audits"][0]
    assert audit["humans"]["with_majority"]["accuracy"]["estimate"] == 1.0
    assert audit["alt_test"] is not None
    res = runner.invoke(app, ["judge", str(f), "--judges", "llm", "--position", "order", "--verdict-refers-to",
                              "option", "--from", "label-studio"])
    assert res.exit_code == 2 and "--position and --run name columns of a long table" in res.output
