"""Gold standard from real annotations and the ``accord gold`` / ``accord noise`` commands
(Beigman Klebanov & Beigman 2009, seed 001)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
import typer
from typer.testing import CliRunner

from accord._shared.errors import AccordError, AccordWarning
from accord.cli._noise import register
from accord.noise import (
    estimate_hard_agreement,
    gold_standard,
    noise_bound,
    read_long_table,
    siegel_castellan_k,
    simulate_annotations,
)


def _frame(rows):
    return pd.DataFrame(rows, columns=["unit", "coder", "value"])


def _paper_two_annotator_frame() -> pd.DataFrame:
    """Section 3.1's scenario as data: 1000 items, 900 agreed, 100 disagreed, categories equiprobable
    for both annotators on both parts."""
    rows = []
    for i in range(1000):
        if i < 900:
            a = b = "yes" if i % 2 else "no"
        else:
            a, b = ("yes", "no") if i % 2 else ("no", "yes")
        rows += [(f"i{i}", "A", a), (f"i{i}", "B", b)]
    return _frame(rows)


def test_section_3_1_from_data():
    """Beigman Klebanov & Beigman 2009, section 3.1, from annotations: p estimated as 0.5 (footnote 3),
    125 agreements may be coin flips, gamma 13.89% (printed truncated as 13.8%), kappa 0.8, a chance
    difference of 35 answers (section 4.1), at most 33 disagreements tolerable for 5% (section 3.1),
    and 11% noise read from kappa (section 3.3)."""
    g = gold_standard(_paper_two_annotator_frame())
    assert (g.n_items, g.n_disagreed, g.n_agreed, g.n_annotators) == (1000, 100, 900, 2)
    assert g.p == 0.5 and g.p_source == "estimated"
    np.testing.assert_allclose(g.hard_agreement.rates, 0.5)
    assert g.bound.random_agreements == 125
    assert g.gamma == pytest.approx(125 / 900)
    assert g.k.kappa == pytest.approx(0.8)
    assert math.floor(g.chance_difference.bound) == 35
    assert g.chance_difference.n_items == 900 and g.chance_difference.n_noisy == 125
    assert g.chance_difference_normal.multiplier == pytest.approx(1.96, abs=1e-3)
    assert g.tolerance.max_disagreements == 33
    assert round(100 * g.k_noise.noise) == 11
    gold = g.to_frame()
    assert len(gold) == 900 and list(gold.columns) == ["unit", "value"]
    assert set(gold["unit"]) == {f"i{i}" for i in range(900)}


def test_p_per_annotator_rates_footnote_3():
    """Footnote 3: P(X_ij = c | H) is the share of the disagreed items annotator j put in category c;
    p = sum over categories of the product over annotators (section 2), here for 3 annotators and 3
    categories."""
    rows = []
    labels = [("x", "x", "x"), ("x", "y", "z"), ("y", "y", "x"), ("z", "x", "x"), ("y", "z", "y")]
    for i, lab in enumerate(labels):
        rows += [(i, c, v) for c, v in zip("abc", lab, strict=True)]
    est = estimate_hard_agreement(_frame(rows))
    assert est.n_disagreed == 4
    assert est.coders == ["a", "b", "c"] and est.categories == ["x", "y", "z"]
    expected = np.array([[1, 2, 1], [1, 2, 1], [2, 1, 1]]) / 4  # x, y, z counts per annotator
    np.testing.assert_allclose(est.rates, expected)
    assert est.p == pytest.approx(np.prod(expected, axis=0).sum())
    assert est.to_frame().loc["c", "x"] == 0.5


def test_gold_on_simulated_data_recovers_the_model():
    """On data drawn from the model the agreed items contain the easy ones, and the true number of
    hard agreed items is within the bound."""
    sim = simulate_annotations(5000, n_hard=1000, rates=np.full((3, 2), 0.5), rng=4)
    g = gold_standard(sim.to_frame())
    assert g.p == pytest.approx(0.25, abs=0.03)
    hard_agreed = int(np.sum(sim.hard & np.all(sim.labels == sim.labels[:, :1], axis=1)))
    assert hard_agreed <= g.bound.random_agreements
    assert g.n_disagreed == sim.n_disagreed
    counts = np.stack([(sim.labels == c).sum(axis=1) for c in range(2)], axis=1)
    assert g.k.kappa == pytest.approx(siegel_castellan_k(counts).kappa)


def test_given_p_overrides_estimate():
    g = gold_standard(_paper_two_annotator_frame(), p=0.47)
    assert g.p == 0.47 and g.p_source == "given"
    assert g.bound.t0 == noise_bound(1000, 100, 0.47).t0


def test_no_disagreement_gamma_undefined_unless_p_given():
    rows = [(i, c, "x" if i % 2 else "y") for i in range(10) for c in "ab"]
    with pytest.warns(AccordWarning, match="p is undefined"):
        g = gold_standard(_frame(rows))
    assert math.isnan(g.p) and math.isnan(g.gamma) and g.reason and g.bound is None
    assert g.n_agreed == 10
    assert g.to_dict()["p"] is None
    g2 = gold_standard(_frame(rows), p=0.5)
    assert g2.gamma == noise_bound(10, 0, 0.5).gamma


def test_estimated_p_zero_is_undefined():
    """If on the disagreed items the annotators never share a category, the estimate of p is 0: the
    bound is undefined (NaN, warning, reason), not silently 0."""
    rows = [(0, "a", "x"), (0, "b", "x"), (1, "a", "x"), (1, "b", "y"), (2, "a", "x"), (2, "b", "y")]
    with pytest.warns(AccordWarning, match="gamma is undefined"):
        g = gold_standard(_frame(rows))
    assert g.p == 0 and math.isnan(g.gamma) and "give p" in g.reason


def test_all_disagreed():
    rows = [(0, "a", "x"), (0, "b", "y"), (1, "a", "y"), (1, "b", "x")]
    with pytest.warns(AccordWarning):
        g = gold_standard(_frame(rows))
    assert g.n_agreed == 0 and math.isnan(g.gamma) and g.chance_difference is None and g.k_noise is None
    assert len(g.to_frame()) == 0


def test_missing_values_are_absent_annotations_and_incomplete_items():
    rows = [(0, "a", "x"), (0, "b", "x"), (1, "a", "x"), (1, "b", None), (2, "a", "x"), (2, "b", "y")]
    with pytest.raises(AccordError, match=r"unit 1 has no value from coder\(s\) 'b'"):
        gold_standard(_frame(rows))
    with pytest.warns(AccordWarning, match="p is 0"):  # one disagreed item, x against y
        g = gold_standard(_frame(rows), incomplete="drop")
    assert g.n_items == 2 and g.n_dropped_incomplete == 1


def test_single_annotator_error():
    with pytest.raises(AccordError, match="at least two annotators, found 1"):
        gold_standard(_frame([(0, "a", "x"), (1, "a", "y")]))


def test_duplicate_annotation_error():
    with pytest.raises(AccordError, match="unit 0 has more than one value from coder 'a'"):
        gold_standard(_frame([(0, "a", "x"), (0, "a", "y"), (0, "b", "x")]))


def test_bad_options():
    df = _paper_two_annotator_frame()
    with pytest.raises(AccordError, match="confidence must be"):
        gold_standard(df, confidence=1.5)
    with pytest.raises(AccordError, match="p must be"):
        gold_standard(df, p=1.0)
    with pytest.raises(AccordError, match="incomplete must be"):
        gold_standard(df, incomplete="keep")  # type: ignore[arg-type]
    with pytest.raises(AccordError, match="missing column"):
        gold_standard(df, unit="item")
    with pytest.raises(AccordError, match="DataFrame"):
        gold_standard([(0, "a", "x")])


def test_accepts_annotations():
    """An accord.data._annotations.Annotations works as input too."""
    from accord.data._annotations import Annotations

    df = _paper_two_annotator_frame()
    data = Annotations.from_records(df)
    g = gold_standard(data)
    assert g.n_disagreed == 100 and g.bound.random_agreements == 125


# ------------------------------------------------------------------ reading files


def test_read_csv_and_tsv(tmp_path):
    df = _paper_two_annotator_frame().rename(columns={"unit": "item", "coder": "annotator", "value": "label"})
    csv = tmp_path / "a.csv"
    tsv = tmp_path / "a.tsv"
    df.to_csv(csv, index=False)
    df.to_csv(tsv, sep="\t", index=False)
    for path in (csv, tsv):
        got = read_long_table(path, unit="item", coder="annotator", value="label")
        assert list(got.columns) == ["unit", "coder", "value"] and len(got) == 2000
        assert gold_standard(got).bound.random_agreements == 125


def test_read_keeps_labels_as_text_and_empty_as_missing(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("unit,coder,value\n1,a,01\n1,b,01\n2,a,NA\n2,b,\n3,a,1\n3,b,01\n")
    with pytest.raises(AccordError, match="unit '?2'? has no value from coder"):
        gold_standard(read_long_table(path))
    with pytest.warns(AccordWarning, match="p is 0"):  # "1" and "01" differ: never the same category
        g = gold_standard(read_long_table(path), incomplete="drop")
    assert g.to_frame()["value"].tolist() == ["01"] and g.n_disagreed == 1


def test_read_errors_name_the_file_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("item,coder,value\n1,a,x\n")
    with pytest.raises(AccordError, match=r"bad.csv: missing column 'unit'"):
        read_long_table(path)
    with pytest.raises(AccordError, match="no such file"):
        read_long_table(tmp_path / "nope.csv")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(AccordError, match="empty"):
        read_long_table(empty)
    one = tmp_path / "one.csv"
    one.write_text("unit,coder,value\n1,a,x\n2,a,y\n")
    with pytest.raises(AccordError, match=r"one.csv.*at least two annotators"):
        gold_standard(read_long_table(one))


# ------------------------------------------------------------------ CLI


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    return app, CliRunner()


def test_cli_gold_writes_gold_and_reports(cli, tmp_path):
    app, runner = cli
    src = tmp_path / "ann.csv"
    _paper_two_annotator_frame().to_csv(src, index=False)
    out = tmp_path / "gold.csv"
    res = runner.invoke(app, ["gold", str(src), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "13.89%" in res.output and "125" in res.output and "33" in res.output
    gold = pd.read_csv(out)
    assert len(gold) == 900 and list(gold.columns) == ["unit", "value"]


def _one_error_line(res) -> str:
    """The CLI's refusal: exit status 2 and exactly one line on stderr."""
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("accord: error: "), res.stderr
    return lines[0]


def test_cli_gold_out_refuses_its_input_even_with_force(cli, tmp_path):
    app, runner = cli
    src = tmp_path / "ann.csv"
    _paper_two_annotator_frame().to_csv(src, index=False)
    before = src.read_bytes()
    for target in (src, tmp_path / "sub" / ".." / "ann.csv"):
        if target.parent.name == "..":
            (tmp_path / "sub").mkdir(exist_ok=True)
        for extra in ([], ["--force"]):
            line = _one_error_line(runner.invoke(app, ["gold", str(src), "--out", str(target), *extra]))
            assert "input of this command" in line
            assert src.read_bytes() == before
    link = tmp_path / "link.csv"
    link.symlink_to(src)
    line = _one_error_line(runner.invoke(app, ["gold", str(src), "--out", str(link), "--force"]))
    assert "input of this command" in line and src.read_bytes() == before


def test_cli_gold_out_replaces_an_existing_file_only_with_force(cli, tmp_path):
    app, runner = cli
    src = tmp_path / "ann.csv"
    _paper_two_annotator_frame().to_csv(src, index=False)
    out = tmp_path / "gold.csv"
    out.write_text("keep me\n")
    line = _one_error_line(runner.invoke(app, ["gold", str(src), "--out", str(out)]))
    assert "exists; pass --force" in line and str(out) in line
    assert out.read_text() == "keep me\n"
    res = runner.invoke(app, ["gold", str(src), "--out", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert len(pd.read_csv(out)) == 900
    # written through a temporary file in the same folder, renamed over the target: nothing left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.csv", "gold.csv"]


def test_cli_gold_json(cli, tmp_path):
    app, runner = cli
    src = tmp_path / "ann.tsv"
    _paper_two_annotator_frame().rename(columns={"coder": "who"}).to_csv(src, sep="\t", index=False)
    res = runner.invoke(app, ["gold", str(src), "--coder", "who", "--json", "--confidence", "0.95"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["n_disagreed"] == 100 and data["p"] == 0.5
    assert data["bound"]["random_agreements"] == 125
    assert data["tolerance"]["max_disagreements"] == 33
    assert data["out"] is None


def test_cli_gold_errors(cli, tmp_path):
    app, runner = cli
    one = tmp_path / "one.csv"
    one.write_text("unit,coder,value\n1,a,x\n2,a,y\n")
    res = runner.invoke(app, ["gold", str(one)])
    assert res.exit_code == 2 and "at least two annotators" in res.output
    res = runner.invoke(app, ["gold", str(tmp_path / "missing.csv")])
    assert res.exit_code == 2 and "no such file" in res.output
    res = runner.invoke(app, ["gold", str(one), "--unit", "item"])
    assert res.exit_code == 2 and "missing column" in res.output


def test_cli_noise(cli):
    """``accord noise --n 992 --d 121 --p 0.47``: Poesio & Vieira's 15% (section 3.1)."""
    app, runner = cli
    res = runner.invoke(app, ["noise", "--n", "992", "--d", "121", "--p", "0.47"])
    assert res.exit_code == 0, res.output
    assert "15.15%" in res.output
    res = runner.invoke(app, ["noise", "--n", "1000", "--d", "100", "--p", "0.5", "--json"])
    data = json.loads(res.stdout)
    assert data["bound"]["random_agreements"] == 125
    assert math.floor(data["chance_difference"]["bound"]) == 35
    assert data["tolerance"]["max_disagreements"] == 33


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--n", "100", "--d", "101", "--p", "0.5"], "d must be"),
        (["--n", "100", "--d", "10", "--p", "1.5"], "p must be strictly between 0 and 1"),
        (["--n", "100", "--d", "10", "--p", "0.5", "--confidence", "1"], "confidence must be"),
    ],
)
def test_cli_noise_bad_input(cli, args, match):
    app, runner = cli
    res = runner.invoke(app, ["noise", *args])
    assert res.exit_code == 2 and match in res.output
