"""``accord report`` says what it does with every option: one that the kind of page built does not take is
refused in one line (naming the option, the kinds that take it and the kind built), in the library
(:func:`accord.reporting.report_files`) so that Python refuses alike; an option left at its default is never
refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.datasets import dataset_path
from accord.reporting._files import KINDS_OF, OPTIONS, _flag

pytest.importorskip("jinja2")
runner = CliRunner()
LABELS = Path(__file__).parent.parent / "docs" / "examples" / "labels.csv"

#: a value of each option that some kinds only take, as Python passes it (the CLI: the flag, then str(value);
#: True: the switch alone)
VALUES: dict[str, object] = {
    "unit": "unit", "coder": "coder", "value": "value", "layout": "long", "table_sep": ",", "coders": "a,b",
    "distance": "ordinal", "coefficient": "alpha", "order": "a,b", "fmt": "csv", "key": LABELS,
    "missing_mentions": "error", "align": "words", "p": 0.5, "rule": "geometric", "tolerance": 0.2, "high": 0.7,
    "item": "item", "annotator": "annotator", "sep": ";", "convention": "paper", "start_regex": "^x",
    "texts": LABELS, "match": "overlap", "tokens": "export", "gamma": True, "gamma_alignment": "exact",
    "target_gamma": 0.1, "drop_incomplete": True, "epsilon": 0.1, "alpha": 0.1, "scoring": "accuracy",
    "min_items": 10, "position": "order", "verdict_refers_to": "position", "positions": "AB,BA", "run": "run",
    "positive": "pass", "mcnemar": "chi-square", "pass_rate_interval": "bootstrap", "power_tuned": True,
    "bootstrap": 10, "seed": 1, "confidence": 0.9,
}
#: how each kind is asked for, on the labels table (every refusal comes before the input is read as the kind)
KIND_ARGS = {"agree": [], "pyramid": ["--kind", "pyramid"], "models": ["--models", "coder1"]}


def _other_kind(option: str) -> str:
    """A kind that does not take *option*."""
    return next(k for k in ("agree", "pyramid", "models") if k not in KINDS_OF[option])


def _cli(value: object) -> list[str]:
    return [] if value is True else [str(value)]


def test_every_option_of_some_kinds_has_a_value_here() -> None:
    assert set(VALUES) == set(KINDS_OF)
    assert set(KINDS_OF) - {"bootstrap", "seed", "confidence"} == set(OPTIONS) - {"models", "judges"}


def test_the_command_passes_none_for_every_option_not_given() -> None:
    """Every option of a kind, on the command line, defaults to None (a switch to False): the library tells an
    option given from one left out, and decides the defaults."""
    import dataclasses

    from accord.cli._report import AgreeReportOptions, JudgeReportOptions, KindOptions

    fields = [f for g in (AgreeReportOptions, KindOptions, JudgeReportOptions) for f in dataclasses.fields(g)]
    assert {f.name for f in fields} == set(OPTIONS) | {"bootstrap", "seed", "confidence"}
    assert {f.name: f.default for f in fields if f.default not in (None, False)} == {}


@pytest.mark.parametrize("option", sorted(KINDS_OF))
def test_command_refuses_an_option_of_another_kind_in_one_line(tmp_path: Path, option: str) -> None:
    kind = _other_kind(option)
    out = tmp_path / "x.html"
    res = runner.invoke(app, ["report", str(LABELS), *KIND_ARGS[kind], _flag(option), *_cli(VALUES[option]),
                              "-o", str(out), "--quiet"])
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert line.startswith("accord: error: ") and "\n" not in line, line
    article = "an" if kind[0] in "aeiou" else "a"
    assert line.startswith(f"accord: error: {_flag(option)} is an option of "), line
    assert line.endswith(f"; this is {article} {kind} report"), line
    for taker in KINDS_OF[option]:  # each kind that takes it is named (bootstrap & co: all but models)
        assert taker in line or option in ("bootstrap", "seed", "confidence"), (taker, line)
    assert not out.exists()


@pytest.mark.parametrize("option", sorted(KINDS_OF))
def test_report_files_refuses_alike_in_python_words(tmp_path: Path, option: str) -> None:
    from accord.reporting import report_files

    kind = _other_kind(option)
    chosen = {"models": "coder1"} if kind == "models" else {"kind": kind} if kind != "agree" else {}
    with pytest.raises(AccordError, match=f"^{option} is an option of .*; this is an? {kind} report$"):
        report_files([LABELS], output=tmp_path / "x.html", **chosen, **{option: VALUES[option]})
    assert not (tmp_path / "x.html").exists()


def test_options_of_several_kinds_are_named_together(tmp_path: Path) -> None:
    res = runner.invoke(app, ["report", str(LABELS), "--rule", "pair", "--scoring", "accuracy", "--tokens",
                              "export", "-o", str(tmp_path / "x.html")])
    assert res.exit_code == 2
    assert res.stderr.strip() == ("accord: error: --rule is an option of multilabel reports, --tokens of spans "
                                  "reports and --scoring of the humans-and-models page (with --models); this is an "
                                  "agree report")


def test_options_left_at_their_default_are_never_refused(tmp_path: Path) -> None:
    """None (and False for a switch) is the default: what the command line passes for an option not given."""
    from accord.reporting import report_files

    defaults = {k: (False if v is False else None) for k, v in OPTIONS.items()}
    run = report_files([LABELS], output=tmp_path / "a.html", bootstrap=None, seed=None, confidence=None, **defaults)
    assert run.report.kind == "agreement"
    run = report_files([dataset_path("multilabel_example.csv")], output=tmp_path / "m.html", bootstrap=0,
                       **defaults)
    assert run.report.kind == "multilabel"
    # the values a kind takes, given, are kept
    run = report_files([dataset_path("multilabel_example.csv")], output=tmp_path / "g.html", bootstrap=0,
                       rule="geometric", p=0.6)
    assert run.report.kind == "multilabel"


def test_bootstrap_default_of_an_agree_page_is_1000(tmp_path: Path) -> None:
    res = runner.invoke(app, ["report", str(LABELS), "-o", str(tmp_path / "x.html"), "--seed", "1", "--quiet",
                              "--json"])
    assert res.exit_code == 0, res.output
    assert "1,000 resamples" in (tmp_path / "x.html").read_text(encoding="utf-8")
    assert json.loads(res.stdout)["kind"] == "agreement"


def test_table_columns_are_refused_for_an_export(tmp_path: Path) -> None:
    export = tmp_path / "export.json"
    export.write_text(json.dumps([
        {"id": i, "data": {"text": "t"}, "annotations": [
            {"completed_by": c, "result": [{"from_name": "mood", "to_name": "text", "type": "choices",
                                            "value": {"choices": [m]}}]} for c, m in zip((1, 2), moods, strict=True)]}
        for i, moods in enumerate([("up", "up"), ("down", "up"), ("down", "down")], 1)]), encoding="utf-8")
    for extra in ([], ["--field", "all"]):
        res = runner.invoke(app, ["report", str(export), "--from", "label-studio", *extra, "--unit", "id",
                                  "--coders", "a,b", "-o", str(tmp_path / "x.html")])
        assert res.exit_code == 2, res.output
        said = res.stderr.strip()  # the importer's words, or the report's where it looks first (--field all)
        assert said.startswith("accord: error: --unit and --coders name what to read in a plain table; this is ")
        assert said.endswith(" export, read by its importer (--from, --field)")
        assert "\n" not in said


def test_a_spreadsheet_export_reads_its_columns_as_accord_agree_does(tmp_path: Path) -> None:
    """The spreadsheet importer reads --layout, --unit, --coder and --coders (as accord agree passes them); the
    report passes them too, and refuses the columns it does not read (--value, --table-sep)."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("openpyxl")
    f = tmp_path / "wide.xlsx"
    pd.DataFrame({"item": ["q1", "q2", "q3", "q4"], "ann1": ["yes", "no", "no", "yes"],
                  "ann2": ["yes", "no", "yes", "yes"], "note": ["a", "b", "c", "d"]}).to_excel(f, index=False)
    args = [str(f), "--from", "spreadsheet", "--layout", "wide", "--unit", "item", "--coders", "ann1,ann2"]
    ref = json.loads(runner.invoke(app, ["agree", *args, "--json"]).stdout)
    res = runner.invoke(app, ["report", *args, "--bootstrap", "0", "-o", str(tmp_path / "w.html"), "--quiet",
                              "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["headline"]["alpha"]["alpha"] == ref["alpha"]
    res = runner.invoke(app, ["report", *args, "--value", "v", "-o", str(tmp_path / "v.html")])
    assert res.exit_code == 2
    assert res.stderr.startswith("accord: error: --value names what to read in a plain table; this is an agree "
                                 "report of an annotation tool's export")
