"""Issue 28: never a silent wrong scale, and the words a person reads.

Ratings read under the default nominal distance say that they look like a scale, with alpha under the ordinal
and interval distances beside the nominal one and the flag to pass (``accord agree``, its JSON ``note``, the
report); digit strings are the numbers they spell under an ordered distance; messages show values as a person
writes them (no numpy reprs); ``--coefficient`` takes the names people type; ``accord report`` without ``-o``
writes STEM.html in the current folder; notebooks show an empty field as a dash.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

import accord
from accord._shared.errors import AccordError
from accord.cli import app
from accord.coefficients._alpha import scale_hint

runner = CliRunner()

# two coders, seven units, ratings 1 to 5: nominal alpha is far below the ordered ones
RATINGS = [(1, "a", 1), (1, "b", 2), (2, "a", 3), (2, "b", 3), (3, "a", 5), (3, "b", 4), (4, "a", 2), (4, "b", 2),
           (5, "a", 4), (5, "b", 5), (6, "a", 1), (6, "b", 1), (7, "a", 3), (7, "b", 2)]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def ratings_csv(tmp_path: Path) -> Path:
    path = tmp_path / "ratings.csv"
    path.write_text("unit,coder,value\n" + "".join(f"{u},{c},{v}\n" for u, c, v in RATINGS))
    return path


@pytest.fixture
def ratings_text(tmp_path: Path) -> Path:
    """The same ratings as an export writes them: each answer a string ("4")."""
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps({"unit": str(u), "coder": c, "value": str(v)}) + "\n" for u, c, v in RATINGS))
    return path


def _data(as_text: bool = False) -> accord.Annotations:
    return accord.Annotations.from_records(
        [{"unit": u, "coder": c, "value": str(v) if as_text else v} for u, c, v in RATINGS])


def _expected(data: accord.Annotations) -> dict[str, float]:
    return {d: accord.alpha(data, distance=d).alpha for d in ("nominal", "ordinal", "interval")}


# ------------------------------------------------------------------------------------------- the scale hint
@pytest.mark.parametrize("as_text", [False, True])
def test_library_hint_gives_the_alphas_of_the_ordered_distances(as_text):
    data = _data(as_text)
    hint = scale_hint(data)
    want = _expected(_data())  # digit strings: the same numbers as the numbers they spell
    assert (hint.nominal, hint.ordinal, hint.interval) == (want["nominal"], want["ordinal"], want["interval"])
    assert hint.ordinal > hint.nominal + 0.3 and hint.as_text is as_text
    assert "--distance ordinal" in hint.message.cli and "--distance interval" in hint.message.cli
    assert 'distance="ordinal"' in hint.message and "--distance" not in str(hint.message)
    assert scale_hint(data, distance="ordinal") is None  # a distance other than nominal: nothing to say
    assert scale_hint(accord.alpha(data)) == hint  # from the counts of alpha's result, the same


def test_no_hint_for_two_values_text_labels_or_sets():
    two = accord.Annotations.from_matrix([[0, 1, 1, 0], [0, 1, 0, 0]])
    assert scale_hint(two) is None
    labels = accord.Annotations.from_matrix([["x", "y", "z", "x"], ["x", "z", "z", "y"]])
    assert scale_hint(labels) is None
    sets = accord.Annotations.from_matrix([[frozenset({1}), frozenset({2}), frozenset({3})],
                                           [frozenset({1}), frozenset({3}), frozenset({3})]])
    assert scale_hint(sets) is None


@pytest.mark.parametrize("fixture", ["ratings_csv", "ratings_text"])
def test_agree_says_the_values_look_like_a_scale(fixture, request):
    path = request.getfixturevalue(fixture)
    want = _expected(_data())
    res = runner.invoke(app, ["agree", str(path)])
    assert res.exit_code == 0, res.output
    said = _flat(res.stdout)
    assert "note: the values look like a scale (5 numbers from 1 to 5" in said
    assert (f"alpha is {want['nominal']:.4f} nominal, {want['ordinal']:.4f} ordinal, {want['interval']:.4f} "
            "interval; for ordered ratings pass --distance ordinal (or --distance interval") in said
    out = json.loads(runner.invoke(app, ["agree", str(path), "--json"]).stdout)
    assert out["alpha"] == want["nominal"] and "--distance ordinal" in out["note"]
    assert out["scale_hint"]["ordinal"] == want["ordinal"] and out["scale_hint"]["interval"] == want["interval"]
    every = json.loads(runner.invoke(app, ["agree", str(path), "--json", "--coefficient", "all"]).stdout)
    assert "look like a scale" in every["note"] and "alpha" in every and "cohen" in every


def test_no_hint_when_the_distance_is_chosen_or_the_values_are_two(ratings_csv, tmp_path):
    for distance in ("nominal", "ordinal"):
        res = runner.invoke(app, ["agree", str(ratings_csv), "--distance", distance])
        assert res.exit_code == 0 and "look like a scale" not in res.stdout
        assert "scale_hint" not in json.loads(runner.invoke(app, ["agree", str(ratings_csv), "--distance",
                                                                    distance, "--json"]).stdout)
    binary = tmp_path / "binary.csv"
    binary.write_text("unit,coder,value\n1,a,0\n1,b,1\n2,a,1\n2,b,1\n3,a,0\n3,b,0\n")
    res = runner.invoke(app, ["agree", str(binary)])
    assert res.exit_code == 0 and "look like a scale" not in res.stdout
    assert json.loads(runner.invoke(app, ["agree", str(binary), "--json"]).stdout)["note"] is None


def test_lazy_engine_says_the_scale_too(ratings_csv):
    pytest.importorskip("duckdb")
    want = _expected(_data())
    out = json.loads(runner.invoke(app, ["agree", str(ratings_csv), "--engine", "duckdb", "--json"]).stdout)
    assert out["engine"] == "duckdb" and out["scale_hint"]["ordinal"] == pytest.approx(want["ordinal"], abs=1e-12)
    res = runner.invoke(app, ["agree", str(ratings_csv), "--engine", "duckdb", "--coefficient", "kappa"])
    assert res.exit_code == 2 and "cohen: Cohen's kappa" in _flat(res.output)


def test_report_notes_say_the_scale(ratings_csv):
    from accord.reporting import build_report

    want = _expected(_data())
    rep = build_report(accord.read(ratings_csv), bootstrap=0)
    said = next(n for n in rep.headline_notes if "look like a scale" in n)
    assert f"{want['ordinal']:.3f} ordinal" in said and f"{want['interval']:.3f} interval" in said
    assert "--distance ordinal" in said and rep.summary["scale_hint"]["ordinal"] == want["ordinal"]
    chosen = build_report(accord.read(ratings_csv), bootstrap=0, distance="nominal")
    assert not any("look like a scale" in n for n in chosen.headline_notes)


# ------------------------------------------------------------------------------------ digit strings as numbers
def test_digit_strings_are_the_numbers_they_spell_under_ordered_distances():
    text = accord.Annotations.from_matrix([["1", "2", "9", "10", "3"], ["1", "3", "10", "10", "2"]])
    nums = accord.Annotations.from_matrix([[1, 2, 9, 10, 3], [1, 3, 10, 10, 2]])
    for d in ("ordinal", "interval", "ratio"):
        assert accord.alpha(text, distance=d).alpha == pytest.approx(accord.alpha(nums, distance=d).alpha, abs=1e-12)
    # "10" after "9", not between "1" and "2" as text sorts
    alpha_sorted_as_text = accord.alpha(text, distance=accord.get_distance(
        "ordinal", order=sorted(["1", "2", "3", "9", "10"]))).alpha
    assert accord.alpha(text, distance="ordinal").alpha != pytest.approx(alpha_sorted_as_text)
    words = accord.Annotations.from_matrix([["1", "low", "high"], ["1", "high", "high"]])
    with pytest.raises(AccordError, match="needs the order of the text labels"):
        accord.alpha(words, distance="ordinal")


def test_cli_digit_strings_need_no_order(ratings_text, tmp_path):
    res = runner.invoke(app, ["agree", str(ratings_text), "--distance", "ordinal", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["alpha"] == accord.alpha(_data(), distance="ordinal").alpha
    words = tmp_path / "words.jsonl"
    words.write_text("".join(json.dumps({"unit": u, "coder": c, "value": v}) + "\n"
                             for u, c, v in [(1, "a", "low"), (1, "b", "high"), (2, "a", "high"), (2, "b", "high")]))
    res = runner.invoke(app, ["agree", str(words), "--distance", "ordinal"])
    assert res.exit_code == 2 and "--order" in res.output


# ------------------------------------------------------------------------------------------------ the words
def test_duplicate_row_says_the_values_as_written():
    frame = pd.DataFrame({"unit": [1, 1, 2], "coder": ["a", "a", "b"], "value": [4.0, 5.5, 3.0]})
    with pytest.raises(AccordError) as err:
        accord.Annotations.from_records(frame)
    assert "coder 'a' gave two values to unit 1: 4 (row 1) and 5.5 (row 2)" in str(err.value)
    assert "np." not in str(err.value) and "float64" not in str(err.value)
    sets = [{"unit": 1, "coder": "a", "value": frozenset({"x"})}, {"unit": 1, "coder": "a", "value": frozenset({"y"})}]
    with pytest.raises(AccordError) as err:
        accord.Annotations.from_records(sets)
    assert "{'x'} (row 1) and {'y'} (row 2)" in str(err.value) and "frozenset" not in str(err.value)


def test_cli_duplicate_row_has_no_numpy_repr(tmp_path):
    path = tmp_path / "dup.csv"
    path.write_text("unit,coder,value\n1,a,4.0\n1,a,5\n2,b,3\n")
    res = runner.invoke(app, ["agree", str(path), "--engine", "memory"])
    assert res.exit_code == 2 and "np.float64" not in res.output and "np.int64" not in res.output
    assert "gave two values to unit 1: 4 (row 2) and 5 (row 3)" in _flat(res.output)


def test_distance_messages_show_values_plainly():
    with pytest.raises(AccordError, match=r"non-negative values; got -1$"):
        accord.alpha(np.array([[-1.0, 2, 3], [1, 2, 3]]), distance="ratio")
    sets = accord.Annotations.from_matrix([[frozenset({"x"}), frozenset({"y"})], [frozenset({"x"}), frozenset({"x"})]])
    with pytest.raises(AccordError, match=r"got \{'x'\} \(a set\)"):
        accord.alpha(sets, distance="interval")


def test_bootstrap_interval_sits_in_the_table(ratings_csv):
    args = ["agree", str(ratings_csv), "--distance", "ordinal", "--bootstrap", "200", "--seed", "1"]
    out = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    lo, hi = out["confidence_interval"]
    res = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    row = next((line for line in res.stdout.splitlines() if "Krippendorff's alpha" in line), res.stdout)
    assert f"[{lo:.4f}, {hi:.4f}]" in row  # in the interval column, not "-"
    assert "the 95% interval of alpha is a bootstrap's (200 resamples of units, seed 1)" in _flat(res.stdout)


@pytest.mark.parametrize("typed", ["krippendorff", "kripp", "Krippendorff's alpha", "krippendorff-alpha"])
def test_coefficient_takes_the_names_people_type(ratings_csv, typed):
    res = runner.invoke(app, ["agree", str(ratings_csv), "--coefficient", typed, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["alpha"] == accord.alpha(_data()).alpha


@pytest.mark.parametrize(("typed", "key"), [("cohen-kappa", "kappa"), ("fleiss", "kappa"), ("ac1", "ac"),
                                            ("percent-agreement", "percent_agreement")])
def test_coefficient_aliases_keep_the_json_keys(ratings_csv, typed, key):
    res = runner.invoke(app, ["agree", str(ratings_csv), "--coefficient", typed, "--json"])
    assert res.exit_code == 0, res.output
    assert key in json.loads(res.stdout)


def test_kappa_alone_lists_the_kappas_that_apply(ratings_csv):
    res = runner.invoke(app, ["agree", str(ratings_csv), "--coefficient", "kappa"])
    said = _flat(res.output)
    assert res.exit_code == 2 and "--coefficient kappa names no one coefficient" in said
    assert "cohen: Cohen's kappa" in said and "fleiss: Fleiss' kappa" in said and "--coefficient all" in said
    assert "light" not in said  # Light's kappa needs three coders: it does not apply here
    res = runner.invoke(app, ["agree", str(ratings_csv), "--coefficient", "kapa"])
    assert res.exit_code == 2 and "did you mean 'kappa'?" in res.output


def test_report_without_output_writes_stem_html_here(ratings_csv, tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    res = runner.invoke(app, ["report", str(ratings_csv), "--bootstrap", "0", "-q"])
    assert res.exit_code == 0, res.output
    assert "wrote ratings.html" in res.stdout and (here / "ratings.html").is_file()
    assert not (ratings_csv.parent / "ratings.html").exists()
    assert "look like a scale" in (here / "ratings.html").read_text()  # no --distance: the page says the scale
    before = (here / "ratings.html").stat().st_mtime_ns
    res = runner.invoke(app, ["report", str(ratings_csv), "--bootstrap", "0", "-q"])
    assert res.exit_code == 2 and "ratings.html exists" in res.output
    assert "--force" in res.output and "-o PATH" in res.output
    assert (here / "ratings.html").stat().st_mtime_ns == before
    res = runner.invoke(app, ["report", str(ratings_csv), "--bootstrap", "0", "-q", "--force"])
    assert res.exit_code == 0, res.output


def test_report_without_output_never_writes_inside_an_input_folder(tmp_path, monkeypatch):
    folder = tmp_path / "conll"
    folder.mkdir()
    monkeypatch.chdir(folder)
    res = runner.invoke(app, ["report", ".", "-q"])
    assert res.exit_code == 2 and "-o PATH" in res.output
    assert os.listdir(folder) == []


# ---------------------------------------------------------------------------------------------- notebooks
def test_notebook_view_shows_empty_fields_as_a_dash():
    res = accord.alpha(accord.Annotations.from_matrix([[1, 2, 3], [1, 2, 2]]))
    view = res._repr_html_()
    assert "undefined</td>" not in view  # no undefined_reason: a dash, not "undefined"
    assert ">undefined_reason</th><td" in view and view.count(">-</td>") >= 2
    with pytest.warns(accord.AccordWarning):
        same = accord.alpha(accord.Annotations.from_matrix([[1, 1, 1], [1, 1, 1]]))
    view = same._repr_html_()
    assert ">undefined</td>" in view and "no expected disagreement" in view  # alpha NaN is undefined


def test_report_coefficients_take_the_names_people_type(ratings_csv, tmp_path):
    from accord.reporting._agreement import agreement_parts

    parts = agreement_parts(accord.read(ratings_csv), coefficients="krippendorff, cohen-kappa", bootstrap=0)
    assert list(parts.summary)[:2] == ["alpha", "cohen"]  # today's keys
    res = runner.invoke(app, ["report", str(ratings_csv), "-o", str(tmp_path / "k.html"), "--coefficient", "kappa",
                              "-q"])
    assert res.exit_code == 2 and "--coefficient kappa names no one coefficient" in _flat(res.output)
    assert "cohen, fleiss" in res.output and not (tmp_path / "k.html").exists()


def test_ratings_written_as_text_get_the_coefficients_of_numeric_ratings(ratings_text):
    text, nums = _data(as_text=True), _data()
    assert accord.icc(text).icc == accord.icc(nums).icc
    assert accord.kendall_w(text).w == accord.kendall_w(nums).w and accord.lin_ccc(text).ccc == accord.lin_ccc(nums).ccc
    out = json.loads(runner.invoke(app, ["agree", str(ratings_text), "--distance", "interval", "--coefficient", "all",
                                         "--json"]).stdout)
    assert {"icc", "kendall-w", "ccc"} <= set(out) and "icc" not in out["left_out"]
    words = accord.Annotations.from_matrix([["1", "low", "high"], ["1", "high", "high"]])
    with pytest.raises(AccordError, match=r"needs numeric ratings; the values of the data are labels \('1', 'high'"):
        accord.icc(words)


def test_named_weights_score_ratings_written_as_text_by_their_numbers():
    text = accord.Annotations.from_matrix([["1", "2", "3", "10"], ["1", "3", "3", "9"]])
    nums = accord.Annotations.from_matrix([[1, 2, 3, 10], [1, 3, 3, 9]])
    for w in ("linear", "quadratic", "ordinal"):
        assert accord.cohen_kappa(text, weights=w).kappa == pytest.approx(accord.cohen_kappa(nums, weights=w).kappa)
    with pytest.raises(AccordError, match=r"the values are labels \('high', 'low'\)"):
        accord.cohen_kappa(accord.Annotations.from_matrix([["low", "high"], ["low", "low"]]), weights="linear")
