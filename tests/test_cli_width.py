"""Every command's terminal output reads whole in a terminal of 80 columns (and degrades without cutting a number).

Each command that prints a table runs on the bundled datasets, the docs' examples or a small fixture, with the
terminal's width forced through ``COLUMNS`` (the consoles of :mod:`accord.cli._common` read it at each print).
At 80 and 120 columns no table cell or header is cut with an ellipsis and no line of stdout is wider than the
terminal; at 60 a label or header may wrap, but no number is cut. Stderr (import reports, notes, warnings) is
one line per message by design, so only its ellipses are checked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord.cli import COMMANDS, app

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "docs" / "examples"
DATASETS = ROOT / "src" / "accord" / "datasets"
PYR = ROOT / "tests" / "data" / "pyramid"
COREF = ROOT / "tests" / "data" / "coref"

# the brat files of tests/test_cli_attributes.py (three attributes: A, M and N lines), with longer names
ATTRIBUTES = {
    "alice/d.ann": ("T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nT3\tDrug 22 29\taspirin\nA1\tNegated T1\n"
                    "A2\tSeverity T2 mild\nN1\tReference T3 DrugBank:DB00945\taspirin\n"),
    "bob/d.ann": ("T1\tSymptom 3 8\tfever\nT2\tSymptom 15 20\tcough\nT3\tDrug 22 29\taspirin\nA1\tNegated T1\n"
                  "A2\tSeverity T2 moderate\nN1\tReference T3 DrugBank:DB00316\tacetaminophen\nT4\tSymptom 0 2\tNo\n"),
}
ATTRIBUTES_TEXT = "No fever, mild cough, aspirin given.\n"
# relations whose types and annotators have long names (user text: it folds, it is never cut)
LONG_TEXT = "Sony formed a joint venture with Ericsson, a mobile phone company based in Sweden.\n"
LONG_SPANS = "T1\tOrganization 0 4\tSony\nT2\tOrganization 33 41\tEricsson\nT3\tCountry 75 81\tSweden\n"
LONG_RELATIONS = {
    "annotator-with-a-rather-long-name": "R1\tJoint_venture_partner_of_the_organization Arg1:T1 Arg2:T2\n"
                                         "R2\tHeadquartered_in_country Arg1:T2 Arg2:T3\n",
    "second-annotator-with-a-long-name": "R1\tJoint_venture_partner_of_the_organization Arg1:T2 Arg2:T1\n",
}


def _cases(tmp: Path) -> dict[str, list[str]]:
    """Command id -> its arguments (the first word is the command's name in :data:`accord.cli.COMMANDS`)."""
    judge = ["judge", str(DATASETS / "judge_pairs.csv"), "--judges", "gpt-a,gpt-b", "--position", "order",
             "--verdict-refers-to", "position", "--run", "run", "--max-rows", "3"]
    return {
        "agree": ["agree", str(EX / "ratings.csv"), "--distance", "ordinal", "--quiet"],
        "agree-all": ["agree", str(EX / "ratings.csv"), "--coefficient", "all", "--quiet"],
        "agree-icc": ["agree", str(EX / "ratings.csv"), "--distance", "interval", "--coefficient", "all", "--quiet"],
        "agree-diagnostics": ["agree", str(DATASETS / "krippendorff2011.csv"), "--diagnostics", "--quiet"],
        "agree-bootstrap": ["agree", str(EX / "ratings.csv"), "--distance", "ordinal", "--bootstrap", "50",
                            "--seed", "1", "--quiet"],
        "agree-field-all": ["agree", str(EX / "importers" / "project.json"), "--from", "label-studio",
                            "--field", "all"],
        "spans": ["spans", str(EX / "spans" / "spans.csv"), "--texts", str(EX / "spans" / "docs"), "--match",
                  "overlap", "--quiet"],
        "spans-bootstrap": ["spans", str(EX / "spans" / "spans.csv"), "--bootstrap", "50", "--seed", "1", "--quiet"],
        "relations": ["relations", str(EX / "relations" / "round1"), "--from", "brat", "--show", "4"],
        "relations-overlap": ["relations", str(EX / "relations" / "round1"), "--from", "brat", "--match", "overlap",
                              "--ignore-type", "--undirected", "Partner", "--bootstrap", "50", "--seed", "1"],
        "relations-long-names": ["relations", str(tmp / "long"), "--from", "brat"],
        "attributes": ["attributes", str(tmp / "attributes"), "--from", "brat"],
        "judge": judge,
        "judge-pass-fail": ["judge", str(DATASETS / "judge_passfail.csv"), "--judges", "gpt-a", "--max-rows", "3"],
        "layers": ["layers", str(EX / "importers" / "project.zip"), "--from", "inception"],
        "layers-brat": ["layers", str(EX / "importers" / "round1"), "--from", "brat"],
        "alt-test": ["alt-test", str(EX / "reviews-with-models.csv"), "--models", "gpt-4o,small-llm",
                     "--epsilon", "0.2"],
        "alt-test-guidance": ["alt-test", str(EX / "reviews-with-models.csv"), "--models", "gpt-4o,small-llm",
                              "--guidance", "--sim-sizes", "30,50,100", "--seed", "1", "--max-rows", "0"],
        "coref": ["coref", str(EX / "coreference" / "ann1.conll"), str(EX / "coreference" / "ann2.conll"),
                  "--key", str(EX / "coreference" / "gold.conll")],
        "coref-csv": ["coref", str(COREF / "passonneau2004_table1.csv")],
        "multilabel": ["multilabel", str(DATASETS / "multilabel_example.csv"), "--classes", "--sharpen"],
        "multilabel-sweep": ["multilabel", str(DATASETS / "multilabel_example.csv"), "--sweep", "--ci",
                             "--n-resamples", "100", "--seed", "1"],
        "pyramid-show": ["pyramid", "show", str(PYR / "duc07.pyr"), "--peer", str(PYR / "duc07_peer1.pan")],
        "pyramid-score": ["pyramid", "score", str(PYR / "duc07.pyr"), str(PYR / "duc07_peer1.pan"),
                          str(PYR / "duc07_peer2.pan"), "--convention", "nist-duc"],
        "pyramid-agree": ["pyramid", "agree", str(PYR / "duc07.pyr"), str(PYR / "small.pyr")],
        "pyramid-agree-peers": ["pyramid", "agree-peers", str(PYR / "small_peer.pan"),
                                str(PYR / "uid0_unmarked.pan")],
        "noise": ["noise", "--n", "1000", "--d", "100", "--p", "0.5"],
        "gold": ["gold", str(EX / "labels.csv"), "--out", str(tmp / "gold.csv"), "--force"],
        "significance": ["significance", str(EX / "scores.csv"), "--system", "peer", "--docset", "docset",
                         "--annotation", "annotator", "--score", "modified"],
        "import": ["import", str(EX / "importers" / "export.json"), "--from", "label-studio", "--field",
                   "sentiment", "-o", str(tmp / "long.csv"), "--force"],
        "report": ["report", str(EX / "labels.csv"), "--bootstrap", "0", "--quiet", "-o", str(tmp / "r.html"),
                   "--force"],
        "demo": ["demo"],
    }


@pytest.fixture(scope="module")
def tmp(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("width")
    for name, content in ATTRIBUTES.items():
        f = root / "attributes" / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(ATTRIBUTES_TEXT, encoding="utf-8")
    for coder, lines in LONG_RELATIONS.items():
        (root / "long" / coder).mkdir(parents=True)
        (root / "long" / coder / "d1.txt").write_text(LONG_TEXT, encoding="utf-8")
        (root / "long" / coder / "d1.ann").write_text(LONG_SPANS + lines, encoding="utf-8")
    return root


CASE_IDS = list(_cases(Path("tmp")))
runner = CliRunner()

#: an ellipsis that cuts a number (``0.66…``, ``[0.4…``) or the word undefined (``undefi…``)
_CUT_NUMBER = re.compile(r"(?:[-\d.,\[(]\d*|\bu|\bun|\bund\w*)…")


def _run(tmp: Path, case: str, width: int):
    res = runner.invoke(app, _cases(tmp)[case], env={"COLUMNS": str(width), "NO_COLOR": "1"})
    assert res.exit_code == 0, (res.stdout, res.stderr, res.exception)
    return res


def test_every_command_is_run():
    names = {args[0] for args in _cases(Path("tmp")).values()}
    assert set(COMMANDS) - names <= {"import", "report"} | names
    assert set(COMMANDS) - {"import", "report"} <= names


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("case", CASE_IDS)
def test_nothing_cut(tmp, case, width):
    res = _run(tmp, case, width)
    cut = [line for line in res.stdout.splitlines() if "…" in line]
    assert not cut, f"{case} at {width} columns cuts:\n" + "\n".join(cut) + "\n\n" + res.stdout
    assert "…" not in res.stderr, res.stderr
    long = [line for line in res.stdout.splitlines() if len(line) > width]
    assert not long, f"{case} at {width} columns: lines wider than the terminal:\n" + "\n".join(long)


@pytest.mark.parametrize("case", CASE_IDS)
def test_no_number_cut_at_60(tmp, case):
    res = _run(tmp, case, 60)
    cut = [line for line in res.stdout.splitlines() if _CUT_NUMBER.search(line)]
    assert not cut, f"{case} at 60 columns cuts a number:\n" + "\n".join(cut) + "\n\n" + res.stdout
    long = [line for line in res.stdout.splitlines() if len(line) > 60]
    assert not long, f"{case} at 60 columns: lines wider than the terminal:\n" + "\n".join(long)


def test_optional_columns_show_where_they_fit_and_are_said_where_they_do_not() -> None:
    """Precision and recall beside F1 where the terminal has room; where it has not, they are dropped, the
    numbers that stay are whole, and the caption says where to find the others."""
    from rich.console import Console

    from accord.cli._render import print_table, table

    def printed(width: int) -> str:
        out = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        scores = ("precision", "recall", "F1")
        t = table("scores", ("coder a", "coder b", *scores), numbers=scores, optional=scores[:2], caption="a note")
        t.add_row("an annotator with a long name", "another annotator, long too", "0.4000", "0.5000", "0.4444")
        print_table(t, out=out)
        return out.export_text()

    wide, narrow = printed(200), printed(60)
    assert "precision" in wide and "0.4000" in wide and "wider terminal" not in wide
    assert "precision" not in narrow.split("a note")[0] and "0.4000" not in narrow and "0.4444" in narrow
    assert "precision and recall: in a wider terminal, or --json" in " ".join(narrow.split())
