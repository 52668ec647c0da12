"""What the terminal shows speaks the user's language, not accord's internal names (issue 19).

Every command runs on the files of docs/examples (as README.md and docs/*.md run them) and what it prints,
stdout and stderr, is searched for accord's own identifiers (``cohen_kappa``, ``b_cubed``, ``n_shared_units``:
:mod:`accord._shared.names` gives their display names, which the report uses too), a raw ``None`` or ``nan``, and
Python's warning format (``report.py:113: AccordWarning: ...`` and the source line under it).  A warning
reaches the terminal as one line, ``accord: warning: MESSAGE``, once per run.  ``--json`` keeps its
machine keys, so it is not searched.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import accord.cli as cli
from accord._shared.names import COLUMNS, COREF_METRICS, ESTIMATORS, ITEM_CLASSES
from accord.cli import _common, app

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "docs" / "examples"
runner = CliRunner()

#: accord's own names that a reader should never see: the estimators', the coreference scores', the
#: diagnostics' columns, the item classes, and a few result fields once printed as they are
INTERNAL = sorted({*ESTIMATORS, *COREF_METRICS, *COLUMNS, *ITEM_CLASSES, "conll_f1", "delta_empty", "x_a",
                   "X_a", "n_pses", "undefined_reason", "coder_left_out", "unit_disagreement"})
_INTERNAL = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, INTERNAL)) + r")(?![\w/-])")
_RAW = re.compile(r"\b(None|nan|NaN)\b")
_PYTHON_WARNING = re.compile(r"\.py:\d+: \w*Warning:|Warning: .*\n {2}\S")


def _ex(path: str) -> str:
    return str(EX / path)


#: (id, argv): each command on the bundled examples, with the options that print the most
COMMANDS = [
    ("agree-all-diagnostics", ["agree", _ex("labels.csv"), "--coefficient", "all", "--diagnostics"]),
    ("agree-wide-all", ["agree", _ex("sheet.csv"), "--layout", "wide", "--unit", "item", "--coefficient", "all",
                        "--diagnostics"]),
    ("agree-ratings-all", ["agree", _ex("ratings.csv"), "--unit", "item", "--coder", "rater", "--value", "score",
                           "--distance", "interval", "--coefficient", "all"]),
    ("agree-weights", ["agree", _ex("ratings.csv"), "--unit", "item", "--coder", "rater", "--value", "score",
                       "--coefficient", "all", "--weights", "quadratic"]),
    ("agree-sets", ["agree", _ex("sets.csv"), "--distance", "masi-2006", "--coefficient", "all", "--diagnostics"]),
    ("agree-undefined", ["agree", _ex("importers/export.json"), "--from", "label-studio", "--field", "sentiment",
                         "--coefficient", "all", "--diagnostics"]),
    ("agree-engine", ["agree", _ex("engines/data/*.parquet"), "--coefficient", "all", "--diagnostics"]),
    ("agree-cohen-three-coders", ["agree", _ex("labels.csv"), "--coefficient", "cohen"]),
    ("spans-overlap", ["spans", _ex("spans/spans.csv"), "--texts", _ex("spans/docs"), "--match", "overlap",
                       "--bootstrap", "50", "--seed", "1"]),
    ("spans-gamma", ["spans", _ex("spans/spans.csv"), "--texts", _ex("spans/docs"), "--gamma", "--seed", "1",
                     "--gamma-precision", "0.1"]),
    ("spans-brat", ["spans", _ex("importers/round1"), "--from", "brat"]),
    ("spans-inception", ["spans", _ex("importers/project.zip"), "--from", "inception", "--field", "NamedEntity"]),
    ("layers-label-studio", ["layers", _ex("importers/export.json")]),
    ("layers-inception", ["layers", _ex("importers/project.zip"), "--from", "inception"]),
    ("attributes-brat", ["attributes", _ex("importers/round1"), "--from", "brat"]),
    ("coref-key", ["coref", _ex("coreference/ann1.conll"), _ex("coreference/ann2.conll"), "--key",
                   _ex("coreference/gold.conll")]),
    ("coref-one-response", ["coref", _ex("coreference/ann2.conll"), "--key", _ex("coreference/gold.conll")]),
    ("coref-corefud", ["coref", _ex("coreference/ann1.conllu"), _ex("coreference/ann2.conllu")]),
    ("multilabel", ["multilabel", str(ROOT / "src/accord/datasets/multilabel_example.csv"), "--sweep",
                    "--classes"]),
    ("pyramid-score", ["pyramid", "score", _ex("pyramid/small.pyr"), _ex("pyramid/small_peer.pan")]),
    ("pyramid-show", ["pyramid", "show", _ex("pyramid/small.pyr")]),
    ("pyramid-show-defects", ["pyramid", "show", str(ROOT / "tests/data/pyramid/defects.pyr")]),
    ("noise", ["noise", "--n", "1000", "--d", "100", "--p", "0.5"]),
    ("noise-undefined", ["noise", "--n", "10", "--d", "10", "--p", "0.5"]),
    ("significance", ["significance", _ex("scores.csv"), "--system", "peer", "--docset", "docset", "--annotation",
                      "annotator", "--score", "modified"]),
    ("alt-test", ["alt-test", _ex("reviews-with-models.csv"), "--unit", "item", "--layout", "wide", "--models",
                  "gpt-4o,small-llm", "--epsilon", "0.2"]),
    ("judge-pairs", ["judge", str(ROOT / "src/accord/datasets/judge_pairs.csv"), "--judges", "gpt-a,gpt-b",
                     "--position", "order", "--verdict-refers-to", "position", "--run", "run"]),
    ("judge-pass-fail", ["judge", str(ROOT / "src/accord/datasets/judge_passfail.csv"), "--judges", "gpt-a"]),
    ("demo", ["demo"]),
]


@pytest.fixture
def as_main(monkeypatch):
    """The warnings as :func:`accord.cli.main` installs them (the runner calls the app, not ``main``)."""
    monkeypatch.setattr(warnings, "showwarning", cli._show_warning)
    monkeypatch.setattr(_common, "_warned", set())
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        yield


def _printed(argv: list[str], tmp_path: Path | None = None) -> tuple[int, str]:
    argv = [str(tmp_path / a[4:]) if tmp_path is not None and a.startswith("TMP/") else a for a in argv]
    if any("*" in a for a in argv):  # a glob, as the shell hands it over quoted
        argv = [a.replace(str(EX), os.path.relpath(EX, ROOT)) if "*" in a else a for a in argv]
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        res = runner.invoke(app, argv, env={"COLUMNS": "200", "NO_COLOR": "1"})
    finally:
        os.chdir(cwd)
    return res.exit_code, res.stdout + res.stderr


def _check(text: str) -> None:
    flat = " ".join(text.split())
    assert not _INTERNAL.findall(flat), (_INTERNAL.findall(flat), text)
    assert not _RAW.findall(flat), (_RAW.findall(flat), text)
    assert not _PYTHON_WARNING.search(text), text
    warned = [line for line in text.splitlines() if line.startswith("accord: warning:")]
    assert len(warned) == len(set(warned)), warned


@pytest.mark.parametrize(("argv"), [c[1] for c in COMMANDS], ids=[c[0] for c in COMMANDS])
def test_terminal_says_no_internal_names(argv: list[str], as_main) -> None:
    code, text = _printed(argv)
    assert code in (0, 2), text  # 2: a one-line error, which is checked too
    _check(text)


@pytest.mark.parametrize("argv", [
    ["gold", _ex("labels.csv"), "--out", "TMP/gold.csv"],
    ["import", _ex("importers/export.json"), "--from", "label-studio", "--field", "sentiment", "-o", "TMP/l.csv"],
    ["import", _ex("importers/project.zip"), "--from", "inception", "--field", "NamedEntity", "-o", "TMP/s.csv"],
    ["report", _ex("coreference/ann1.conll"), _ex("coreference/ann2.conll"), "--key",
     _ex("coreference/gold.conll"), "-o", "TMP/coref.html"],
], ids=["gold", "import", "import-spans", "report-coref"])
def test_commands_that_write_say_no_internal_names(argv: list[str], tmp_path, as_main) -> None:
    code, text = _printed(argv, tmp_path)
    assert code == 0, text
    _check(text)


def test_coreference_metrics_by_their_names(as_main) -> None:
    """The rows the report names MUC, B³, CEAF-m, CEAF-e, BLANC, LEA and CoNLL F1, and not muc, b_cubed..."""
    _, text = _printed(["coref", _ex("coreference/ann2.conll"), "--key", _ex("coreference/gold.conll")])
    flat = " ".join(text.split())
    for name in (*COREF_METRICS.values(), "CoNLL F1"):
        assert name in flat


def test_agree_names_what_it_leaves_out_and_its_columns(as_main) -> None:
    _, text = _printed(["agree", _ex("sheet.csv"), "--layout", "wide", "--unit", "item", "--coefficient", "all",
                        "--diagnostics"])
    flat = " ".join(text.split())
    assert "left out: Cohen's kappa needs exactly two coders" in flat
    assert "note: Light's kappa: 2 units are not rated by all 3 coders" in flat
    assert "note: Bennett's S: q = 2, the categories observed" in flat
    assert "coder a" in flat and "shared units" in flat and "alpha without" in flat


def test_a_warning_is_one_line_once_without_a_source_path() -> None:
    """The brief's example: the key leaves a response document out, for each of two coders; said once."""
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "PYTHONWARNINGS": "always"}
    proc = subprocess.run([sys.executable, "-m", "accord", "coref", _ex("coreference/ann1.conll"),
                           _ex("coreference/ann2.conll"), "--key", _ex("coreference/gold.conll")],
                          capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "accord: warning: 1 response document is ignored (not in the key), e.g. '(story); part 001' (the "
        "CoNLL-2012 reference scorer scores the key's documents)"]
    assert "MUC" in proc.stdout and "b_cubed" not in proc.stdout


def test_another_library_warning_keeps_its_text_without_a_source_line(capsys) -> None:
    _common._warned.clear()
    cli._show_warning(RuntimeWarning("invalid value encountered in divide"), RuntimeWarning, "/x/numpy/a.py", 3,
                      line="    y = a / b")
    cli._show_warning(RuntimeWarning("invalid value encountered in divide"), RuntimeWarning, "/x/numpy/a.py", 3)
    cli._show_warning(UserWarning("two\nlines"), UserWarning, "/x/y.py", 1)
    err = capsys.readouterr().err
    assert err.splitlines() == ["accord: warning: RuntimeWarning: invalid value encountered in divide",
                                "accord: warning: UserWarning: two lines"]


def test_an_accord_warning_in_cli_words_and_reader_names(capsys) -> None:
    from accord._shared.errors import AccordWarning, Message

    _common._warned.clear()
    w = AccordWarning(Message("kendall_w is undefined: pass order= to rank", cli="kendall_w is undefined: pass "
                                                                                  "--order to rank"))
    cli._show_warning(w, AccordWarning, "/src/accord/ratings/concordance.py", 114)
    assert capsys.readouterr().err == "accord: warning: Kendall's W is undefined: pass --order to rank\n"


def test_a_quoted_name_of_the_users_is_kept() -> None:
    from accord._shared.names import spoken

    assert spoken("column 'ac1' of ac1") == "column 'ac1' of Gwet's AC1"
    assert spoken("Cohen's kappa and scott_pi, coder 'lin_ccc'") == "Cohen's kappa and Scott's pi, coder 'lin_ccc'"
