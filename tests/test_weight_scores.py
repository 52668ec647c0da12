"""Issue 30's leftovers: named weights over ranks (R irr's convention), --weights on alpha and Scott's pi, and the
ICC form asked for on the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

import accord
from accord.cli import app
from accord.coefficients._registry import WEIGHTED, compute

runner = CliRunner()

# two raters on numeric codes 1..5 where nobody chose 4
R1 = [1, 2, 3, 5, 5, 2, 1, 3]
R2 = [1, 3, 3, 5, 3, 2, 2, 5]


def _irr_kappa2(r1: list[int], r2: list[int], power: int) -> float:
    """R irr's kappa2(weight = "equal" (power 1) | "squared" (power 2)) derived by hand: the categories present,
    sorted, are indexed 1..nc and weighted 1 - (|i - j| / (nc - 1))^power whatever their values."""
    levels = sorted(set(r1) | set(r2))
    nc, n = len(levels), len(r1)
    idx = {v: i for i, v in enumerate(levels)}
    w = [[1 - Fraction(abs(i - j), nc - 1) ** power for j in range(nc)] for i in range(nc)]
    p_o = sum(w[idx[a]][idx[b]] for a, b in zip(r1, r2, strict=True)) / n
    m1 = [Fraction(sum(idx[a] == i for a in r1), n) for i in range(nc)]
    m2 = [Fraction(sum(idx[b] == j for b in r2), n) for j in range(nc)]
    p_e = sum(m1[i] * m2[j] * w[i][j] for i in range(nc) for j in range(nc))
    return float((p_o - p_e) / (1 - p_e))


@pytest.mark.parametrize(("weights", "power"), [("linear", 1), ("quadratic", 2)])
def test_ranks_reproduce_irr_kappa2_on_codes_with_an_unused_code(weights, power):
    data = accord.as_annotations([R1, R2])
    expected = _irr_kappa2(R1, R2, power)
    got = accord.cohen_kappa(data, weights=weights, weight_scores="ranks").kappa
    assert got == pytest.approx(expected, abs=1e-12)
    # the default keeps the codes' values: 5 is two steps from 3, and the value differs
    assert accord.cohen_kappa(data, weights=weights).kappa != pytest.approx(expected, abs=1e-6)
    # the same weights as kappa_weights over the categories present with scores="ranks"
    matrix = accord.kappa_weights(weights, [1, 2, 3, 5], scores="ranks")
    assert accord.cohen_kappa(data, weights=matrix).kappa == pytest.approx(expected, abs=1e-12)


def test_ranks_reach_every_coefficient_with_named_weights():
    data = accord.as_annotations([R1, R2])
    ranks = accord.kappa_weights("linear", [1, 2, 3, 5], scores="ranks")
    for func in (accord.alpha, accord.scott_pi, accord.fleiss_kappa, accord.gwet_ac2, accord.conger_kappa,
                 accord.brennan_prediger, accord.light_kappa, accord.weighted_kappa):
        got = func(data, weights="linear", weight_scores="ranks").value
        assert got == pytest.approx(func(data, weights=ranks).value, abs=1e-12), func.__name__


def test_ranks_over_categories_given_and_over_the_two_coders_compared():
    data = accord.as_annotations([R1, R2, [1, 4, 3, 5, 4, 2, 1, 3]])  # the third coder uses 4
    pair = accord.cohen_kappa(data, coders=(0, 1), weights="linear", weight_scores="ranks").kappa
    assert pair == pytest.approx(_irr_kappa2(R1, R2, 1), abs=1e-12)
    full = accord.cohen_kappa(accord.as_annotations([R1, R2]), weights="linear", weight_scores="ranks",
                              categories=[1, 2, 3, 4, 5]).kappa  # the scale given: 4 counts as a step
    assert full == pytest.approx(accord.cohen_kappa(accord.as_annotations([R1, R2]), weights="linear").kappa)
    # digit strings are ranked by their numbers, not as text ("10" after "9")
    text = accord.as_annotations([[str(x * 5) for x in R1], [str(x * 5) for x in R2]])
    assert accord.cohen_kappa(text, weights="linear", weight_scores="ranks").kappa == pytest.approx(pair)


def test_weight_scores_messages():
    data = accord.as_annotations([R1, R2])
    with pytest.raises(accord.AccordError, match=r"^weight_scores must be 'values' or 'ranks'; got 'rank'$"):
        accord.cohen_kappa(data, weights="linear", weight_scores="rank")
    with pytest.raises(accord.AccordError, match=r"applies to named weights .*; no weights were given$"):
        accord.alpha(data, weight_scores="ranks")
    with pytest.raises(accord.AccordError, match=r"; the weights given are a matrix$"):
        accord.gwet_ac2(data, weights=accord.kappa_weights("linear", [1, 2, 3, 5]), weight_scores="ranks")


def test_library_registry_gives_weights_to_alpha_and_scott():
    assert {"alpha", "scott"} <= set(WEIGHTED)
    data = accord.as_annotations([R1, R2])
    assert compute(data, "alpha", weights="quadratic").value == accord.alpha(data, weights="quadratic").value
    assert compute(data, "scott", weights="quadratic").value == accord.scott_pi(data, weights="quadratic").value
    assert (compute(data, "scott", weights="linear", weight_scores="ranks").value
            == accord.scott_pi(data, weights="linear", weight_scores="ranks").value)


@pytest.fixture
def pairs_csv(tmp_path):
    path = tmp_path / "pairs.csv"
    rows = ["item,annotator,score"] + [f"u{i},a,{a}" for i, a in enumerate(R1)] + [
        f"u{i},b,{b}" for i, b in enumerate(R2)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


def _json(*args: str) -> dict:
    res = runner.invoke(app, ["agree", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


@pytest.mark.parametrize(("name", "func"), [("alpha", accord.alpha), ("scott", accord.scott_pi)])
def test_cli_weights_reach_alpha_and_scott(pairs_csv, name, func):
    data = accord.read(pairs_csv)
    out = _json(pairs_csv, "--coefficient", name, "--weights", "quadratic")
    assert out["value"] == pytest.approx(func(data, weights="quadratic").value, abs=1e-12)
    ranks = _json(pairs_csv, "--coefficient", name, "--weights", "linear", "--weight-scores", "ranks")
    assert ranks["value"] == pytest.approx(func(data, weights="linear", weight_scores="ranks").value, abs=1e-12)
    every = _json(pairs_csv, "--coefficient", "all", "--weights", "quadratic")
    assert every[name]["value"] == pytest.approx(out["value"], abs=1e-12)


def test_cli_weight_scores_ranks_is_irr_kappa2(pairs_csv):
    out = _json(pairs_csv, "--coefficient", "cohen", "--weights", "linear", "--weight-scores", "ranks")
    assert out["value"] == pytest.approx(_irr_kappa2(R1, R2, 1), abs=1e-12)
    res = runner.invoke(app, ["agree", pairs_csv, "--coefficient", "cohen", "--weights", "linear",
                              "--weight-scores", "ranks"])
    assert res.exit_code == 0 and "linear weights over ranks" in " ".join(res.stdout.split())
    assert "look like a scale" not in res.stdout  # the weights are the scale chosen


def test_cli_weight_scores_messages(pairs_csv):
    res = runner.invoke(app, ["agree", pairs_csv, "--coefficient", "cohen", "--weight-scores", "ranks"])
    assert res.exit_code == 2
    assert ("--weight-scores ranks says how named weights space the categories: pass it with --weights "
            "(linear, quadratic...)") in res.output
    res = runner.invoke(app, ["agree", pairs_csv, "--coefficient", "cohen", "--weights", "linear",
                              "--weight-scores", "rank"])
    assert res.exit_code == 2 and "--weight-scores must be one of values, ranks; got 'rank'" in res.output


WIDE = ("--layout", "wide", "--unit", "target")
SF_CSV = "target,J1,J2,J3,J4\nS1,9,2,5,8\nS2,6,1,3,2\nS3,8,4,6,8\nS4,7,1,2,6\nS5,10,5,6,9\nS6,6,2,4,7\n"


@pytest.fixture
def sf(tmp_path):
    path = tmp_path / "sf.csv"
    path.write_text(SF_CSV)
    return str(path)


@pytest.mark.parametrize(("typed", "form", "model", "shown"), [
    ("ICC(3,1)", "ICC(C,1)", "two-way mixed", "ICC(3,1)"),
    ("icc(c,k)", "ICC(C,k)", "two-way random", "ICC(C,k)"),
    ("ICC1", "ICC(1)", "one-way random", "ICC(1,1)"),
    ("ICC(A,1)", "ICC(A,1)", "two-way random", "ICC(A,1)"),
])
def test_cli_icc_form_is_the_value(sf, typed, form, model, shown, monkeypatch):
    from accord.cli._common import console

    monkeypatch.setattr(console, "_width", 200)  # one table row per line
    data = accord.read(sf, layout="wide", unit="target")
    out = _json(sf, *WIDE, "--coefficient", "icc", "--icc-form", typed)
    assert out["form"] == shown
    assert out["value"] == pytest.approx(accord.icc(data, typed).icc, abs=1e-12)
    chosen = [f for f in out["forms"] if (f["form"], f["model"]) == (form, model)]
    assert out["value"] == chosen[0]["value"]
    assert all(f["value"] == f["icc"] for f in out["forms"])  # each form keeps its own value
    res = runner.invoke(app, ["agree", sf, *WIDE, "--coefficient", "icc", "--icc-form", typed])
    assert res.exit_code == 0, res.output
    marked = [line for line in res.stdout.splitlines() if line.startswith("│") and "*" in line]
    assert len(marked) == 1 and f"{form} *" in marked[0]
    assert ("mixed" in marked[0]) == (model == "two-way mixed") and ("one-way" in marked[0]) == (model[0] == "o")
    assert f"* the ICC's value: {form}, {model}" in res.stdout


def test_cli_icc_form_default_and_with_all(sf):
    assert _json(sf, *WIDE, "--coefficient", "icc")["form"] == "ICC(A,1)"
    out = _json(sf, *WIDE, "--coefficient", "all", "--distance", "interval", "--icc-form", "ICC(2,k)")
    assert out["icc"]["form"] == "ICC(2,k)"
    data = accord.read(sf, layout="wide", unit="target")
    assert out["icc"]["value"] == pytest.approx(accord.icc(data, "ICC(2,k)").icc, abs=1e-12)


def test_cli_icc_form_messages(sf):
    res = runner.invoke(app, ["agree", sf, *WIDE, "--coefficient", "icc", "--icc-form", "ICC(4,1)"])
    assert res.exit_code == 2
    assert ("--icc-form must be one of ICC(1), ICC(k), ICC(C,1), ICC(C,k), ICC(A,1), ICC(A,k), ICC(1,1), "
            "ICC(1,k), ICC(2,1), ICC(2,k), ICC(3,1), ICC(3,k) (McGraw & Wong's or Shrout & Fleiss' names); "
            "got 'ICC(4,1)'") in " ".join(res.output.split())
    res = runner.invoke(app, ["agree", sf, *WIDE, "--coefficient", "alpha", "--icc-form", "ICC(3,1)"])
    assert res.exit_code == 2
    assert "--icc-form chooses the form of the ICC (--coefficient icc or all); not of --coefficient alpha" in \
        " ".join(res.output.split())
