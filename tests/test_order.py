"""The order of ordered text labels (issue 18): ``order=`` in Python, ``--order`` on the command line.

Ordinal, interval and ratio alpha on text labels used to rank the labels alphabetically, without a word.
They now take the order of the labels, and refuse text labels without one.  The expected numbers come
from the ``krippendorff`` package (Castro 2017) on the integer codes the order gives the labels.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import krippendorff
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import accord
from accord._shared.errors import AccordError
from accord.cli import app
from accord.cli._options import parse_order

runner = CliRunner()

SCALE = ["Very Easy", "Easy", "Neutral", "Difficult", "Very Difficult"]
ORDER = ",".join(SCALE)
# three coders rate ten questions on the five-point scale (codes into SCALE; None: not rated)
CODES = {
    "A": [0, 1, 2, 3, 4, 1, 2, 0, 3, None],
    "B": [1, 1, 2, 4, 4, 0, 3, 0, 2, 3],
    "C": [0, 2, 1, 3, 3, 1, 2, 1, None, 4],
}


def _matrix(codes: dict[str, list[int | None]]) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in codes.values()], dtype=float)


def _oracle(level: str, *, order: list[str] = SCALE) -> float:
    """krippendorff's alpha on the positions of the labels in *order* (the codes a user would type in)."""
    pos = {label: k for k, label in enumerate(order)}
    m = _matrix({c: [None if v is None else pos[SCALE[v]] for v in row] for c, row in CODES.items()})
    return float(krippendorff.alpha(m, level_of_measurement=level))


def _frame() -> pd.DataFrame:
    rows = [{"unit": f"q{u + 1}", "coder": c, "value": SCALE[v]}
            for c, row in CODES.items() for u, v in enumerate(row) if v is not None]
    return pd.DataFrame(rows)


@pytest.fixture()
def five(tmp_path: Path) -> Path:
    path = tmp_path / "difficulty.csv"
    _frame().to_csv(path, index=False)
    return path


def _data() -> accord.Annotations:
    df = _frame()
    return accord.Annotations.from_records(df, unit="unit", coder="coder", value="value")


# ------------------------------------------------------------------------------------------------- Python
@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_order_gives_the_alpha_of_the_codes(level: str) -> None:
    res = accord.alpha(_data(), distance=accord.get_distance(level, order=SCALE))
    assert res.alpha == pytest.approx(_oracle(level), abs=1e-12)
    assert res.distance == level


def test_the_five_point_scale_is_not_alphabetical() -> None:
    """What alphabetical ranking gave (silently) is far from the alpha of the scale."""
    right = accord.alpha(_data(), distance=accord.Ordinal(order=SCALE)).alpha
    alphabetical = accord.alpha(_data(), distance=accord.Ordinal(order=sorted(SCALE))).alpha
    assert right == pytest.approx(_oracle("ordinal"), abs=1e-12)
    assert alphabetical == pytest.approx(_oracle("ordinal", order=sorted(SCALE)), abs=1e-12)
    assert right > 0.8 and alphabetical < 0


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_text_labels_without_an_order_are_refused(level: str) -> None:
    with pytest.raises(AccordError, match=r"needs the order of the text labels \('Difficult', 'Easy', 'Neutral'"
                                          r".*alphabetical order is not a scale.*order=\[\.\.\.\]"):
        accord.alpha(_data(), distance=level)


def test_kappa_and_gwet_refuse_the_same_way() -> None:
    with pytest.raises(AccordError, match="order="):
        accord.fleiss_kappa(accord.Annotations.from_matrix([["Easy", "Hard"], ["Easy", "Easy"]]),
                            distance="ordinal")
    with pytest.raises(AccordError, match="order="):
        accord.gwet_ac2(_data(), distance="interval")


def test_labels_outside_the_order_are_named() -> None:
    with pytest.raises(AccordError, match=r"2 values are not in the given order.*'Difficult', 'Very Difficult'"):
        accord.alpha(_data(), distance=accord.Ordinal(order=["Very Easy", "Easy", "Neutral"]))


def test_numbers_need_no_order() -> None:
    m = _matrix(CODES)
    for level in ("ordinal", "interval", "ratio"):
        got = accord.alpha(accord.Annotations.from_matrix(m), distance=level).alpha
        assert got == pytest.approx(float(krippendorff.alpha(m, level_of_measurement=level)), abs=1e-12)


def test_an_order_of_numbers_is_their_order() -> None:
    m = _matrix(CODES)
    data = accord.Annotations.from_matrix(m)
    same = accord.alpha(data, distance=accord.get_distance("ordinal", order=[0, 1, 2, 3, 4])).alpha
    assert same == pytest.approx(accord.alpha(data, distance="ordinal").alpha, abs=1e-12)


def test_order_is_refused_where_it_does_not_apply() -> None:
    with pytest.raises(AccordError, match="order applies to the ordinal, interval and ratio distances; got "
                                          "distance 'nominal'"):
        accord.get_distance("nominal", order=SCALE)
    with pytest.raises(AccordError, match="each value once"):
        accord.Ordinal(order=["a", "b", "a"])
    with pytest.raises(AccordError, match="empty order"):
        accord.get_distance("interval", order=[])
    with pytest.raises(AccordError, match="sequence"):
        accord.Ordinal(order="abc")


def test_bootstrap_with_an_order_reuses_the_positions() -> None:
    res = accord.alpha(_data(), distance=accord.Ordinal(order=SCALE))
    lo, hi = res.confidence_interval(n_resamples=200, rng=1)
    assert lo <= res.alpha <= hi


# ---------------------------------------------------------------------------------------------- the CLI
def _err(res) -> str:  # type: ignore[no-untyped-def]
    lines = res.stderr.strip().splitlines()
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("accord: error:"), res.output
    return lines[0]


def test_parse_order() -> None:
    assert parse_order(ORDER) == SCALE
    assert parse_order(' "a, b" , c') == ["a, b", "c"]
    for bad in ("", "a,,b", "a,b,a"):
        with pytest.raises(AccordError, match="--order"):
            parse_order(bad)


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_agree_with_order(five: Path, level: str, engine: str) -> None:
    if engine == "duckdb":
        pytest.importorskip("duckdb")
    res = runner.invoke(app, ["agree", str(five), "--distance", level, "--order", ORDER, "--engine", engine,
                              "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["alpha"] == pytest.approx(_oracle(level), abs=1e-12)
    assert out["order"] == SCALE


@pytest.mark.parametrize("level", ["ordinal", "interval", "ratio"])
def test_agree_refuses_text_labels_without_order(five: Path, level: str) -> None:
    err = _err(runner.invoke(app, ["agree", str(five), "--distance", level]))
    assert f"the {level} distance needs the order of the text labels" in err and "--order" in err
    assert "order=" not in err  # the command line's way, not Python's


def test_agree_names_the_labels_outside_the_order(five: Path) -> None:
    err = _err(runner.invoke(app, ["agree", str(five), "--distance", "ordinal", "--order", "Very Easy,Easy,Neutral"]))
    assert "2 labels of the data are not in --order: 'Difficult', 'Very Difficult'" in err


def test_agree_refuses_order_with_nominal(five: Path) -> None:
    err = _err(runner.invoke(app, ["agree", str(five), "--order", ORDER]))
    assert "--order" in err and "nominal" in err


def test_agree_on_numbers_with_and_without_order(tmp_path: Path) -> None:
    path = tmp_path / "codes.csv"
    df = _frame()
    df["value"] = df["value"].map({label: k + 1 for k, label in enumerate(SCALE)})
    df.to_csv(path, index=False)
    plain = runner.invoke(app, ["agree", str(path), "--distance", "ordinal", "--json"])
    given = runner.invoke(app, ["agree", str(path), "--distance", "ordinal", "--order", "1,2,3,4,5", "--json"])
    assert plain.exit_code == 0 and given.exit_code == 0, plain.output + given.output
    assert json.loads(plain.stdout)["alpha"] == pytest.approx(_oracle("ordinal"), abs=1e-12)
    assert json.loads(given.stdout)["alpha"] == pytest.approx(_oracle("ordinal"), abs=1e-12)
    err = _err(runner.invoke(app, ["agree", str(path), "--distance", "ordinal", "--order", "1,2,3,4"]))
    assert "a label of the data is not in --order: 5" in err


def test_agree_on_a_spreadsheet_export_read_as_ordinal(tmp_path: Path) -> None:
    """An export whose values the importer reads as ordinal (kind=ordinal) meets the same rule."""
    f = tmp_path / "ratings.xlsx"
    _frame().to_excel(f, index=False)
    base = ["agree", str(f), "--from", "spreadsheet", "--option", "kind=ordinal"]
    err = _err(runner.invoke(app, base))
    assert "needs the order of the text labels" in err and "--order" in err
    res = runner.invoke(app, [*base, "--order", ORDER, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["alpha"] == pytest.approx(_oracle("ordinal"), abs=1e-12)


def test_report_with_order(five: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    res = runner.invoke(app, ["report", str(five), "-o", str(out), "--distance", "ordinal", "--order", ORDER,
                              "--bootstrap", "0", "--quiet", "--json"])
    assert res.exit_code == 0, res.output
    head = json.loads(res.stdout)["headline"]
    assert head["alpha"]["alpha"] == pytest.approx(_oracle("ordinal"), abs=1e-12)
    page = out.read_text(encoding="utf-8")
    assert "Very Easy &lt; Easy &lt; Neutral &lt; Difficult &lt; Very Difficult" in page
    # the other levels of measurement, with the same order
    assert f"interval {_oracle('interval'):.3f}" in page


def test_report_refuses_without_order_and_writes_nothing(five: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    err = _err(runner.invoke(app, ["report", str(five), "-o", str(out), "--distance", "interval", "--quiet"]))
    assert "--order" in err and not out.exists()


def test_report_of_an_export_with_order(tmp_path: Path) -> None:
    f = tmp_path / "ratings.xlsx"
    _frame().to_excel(f, index=False)
    out = tmp_path / "r.html"
    base = ["report", str(f), "--from", "spreadsheet", "--option", "kind=ordinal", "-o", str(out), "--bootstrap",
            "0", "--quiet"]
    assert "--order" in _err(runner.invoke(app, base))
    res = runner.invoke(app, [*base, "--order", ORDER, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["headline"]["alpha"]["alpha"] == pytest.approx(_oracle("ordinal"), abs=1e-12)


def test_report_refuses_order_for_other_kinds(tmp_path: Path) -> None:
    spans = tmp_path / "spans.csv"
    spans.write_text("document,coder,start,end,label\nd1,a,0,3,X\nd1,b,0,3,X\n")
    err = _err(runner.invoke(app, ["report", str(spans), "--kind", "spans", "-o", str(tmp_path / "s.html"),
                                   "--order", "X,Y", "--quiet"]))
    assert "--order" in err and "spans report" in err


def test_nan_free_json(five: Path) -> None:
    res = runner.invoke(app, ["agree", str(five), "--distance", "ordinal", "--order", ORDER, "--coefficient", "all",
                              "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert not math.isnan(out["alpha"]["alpha"]) and out["order"] == SCALE
