"""brat standoff folders, written by hand from the format documentation (https://brat.nlplab.org/standoff.html).

``T`` lines are text-bound annotations (``ID TAB TYPE START END[;START END] TAB TEXT``, character offsets
into the ``.txt``); ``R``/``E``/``A``/``N``/``#`` lines are not spans.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, read_export

TEXT1 = "\N{WAVING HAND SIGN} Zoë Smith met Bob in New York.\n"  # an emoji before every span
TEXT2 = "Acme hired Ann.\n"


def _span(text: str, piece: str) -> tuple[int, int]:
    start = text.index(piece)
    return start, start + len(piece)


def _write(root, *, mismatch: bool = False, outside: bool = False):
    zoe, bob, ny = _span(TEXT1, "Zoë Smith"), _span(TEXT1, "Bob"), _span(TEXT1, "New York")
    new, york = _span(TEXT1, "New"), _span(TEXT1, "York")
    files = {
        "alice/d1.ann": (
            f"T1\tPER {zoe[0]} {zoe[1]}\tZoë Smith\n"
            f"T2\tPER {bob[0]} {bob[1]}\t{'Bobby' if mismatch else 'Bob'}\n"
            f"T3\tLOC {ny[0]} {ny[1] + (100 if outside else 0)}\tNew York\n"
            "R1\tMeets Arg1:T1 Arg2:T2\n"
            "A1\tNegated T2\n"
            "#1\tAnnotatorNotes T1\tcheck the surname\n"
        ),
        "bob/d1.ann": (
            f"T1\tPER {zoe[0]} {zoe[1]}\tZoë Smith\n"
            f"T2\tLOC {new[0]} {new[1]};{york[0]} {york[1]}\tNew York\n"  # discontinuous, same covered text
        ),
        "alice/d2.ann": "",  # seen, nothing marked
        "bob/d2.ann": "T1\tORG 0 4\tAcme\n",
        # carol saw only d1 (d2 is unassigned for her) and marked nothing there
        "carol/d1.ann": "",
    }
    for name, content in files.items():
        f = root / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(content, encoding="utf-8")
        f.with_suffix(".txt").write_text(TEXT1 if f.stem == "d1" else TEXT2, encoding="utf-8")
    return root


def test_spans_states_and_drops(tmp_path):
    imp = read_export(_write(tmp_path / "round1"), tool="brat")
    assert imp.kind == "spans" and imp.field is None
    spans = {(s.coder, s.document, s.label, s.fragments) for s in imp.spans.spans}
    zoe = _span(TEXT1, "Zoë Smith")
    assert ("alice", "d1", "PER", (zoe,)) in spans
    assert ("bob", "d1", "LOC", (_span(TEXT1, "New"), _span(TEXT1, "York"))) in spans
    assert len(spans) == 6
    assert TEXT1[zoe[0] : zoe[1]] == "Zoë Smith" and zoe[0] == 2  # code points: the emoji counts one
    assert imp.report.counts == {
        "alice": {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0},
        "bob": {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 0},
        "carol": {"annotated": 0, "empty": 1, "skipped": 0, "unassigned": 1},
    }
    assert imp.report.dropped_reasons() == {
        "relation (not compared)": 1,
        "attribute (not compared)": 1,
        "note (not compared)": 1,
    }
    assert ("d2", "carol") not in imp.spans.seen and ("d1", "carol") in imp.spans.seen


def test_the_folder_is_recognised(tmp_path):
    assert guess_tool(_write(tmp_path / "r")) == "brat"


def test_text_mismatch_and_offsets_outside_are_named(tmp_path):
    with pytest.raises(AccordError, match=r"brat export .*alice.d1\.ann, line 2, annotation T2: its text 'Bobby'"):
        read_export(_write(tmp_path / "a", mismatch=True), tool="brat")
    with pytest.raises(AccordError, match=r"line 3, annotation T3: offsets .* outside the text of 'd1'"):
        read_export(_write(tmp_path / "b", outside=True), tool="brat")


def test_bad_line_missing_text_and_field(tmp_path):
    root = _write(tmp_path / "r")
    (root / "bob" / "d2.ann").write_text("X1\tnonsense\n")
    with pytest.raises(AccordError, match="line 1: not a brat standoff line"):
        read_export(root, tool="brat")
    (root / "bob" / "d2.ann").write_text("")
    (root / "bob" / "d2.txt").unlink()
    with pytest.raises(AccordError, match="no text"):
        read_export(root, tool="brat")
    with pytest.raises(AccordError, match="one field"):
        read_export(_write(tmp_path / "s"), tool="brat", field="PER")


def test_another_tools_export_is_refused(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("[]")
    with pytest.raises(AccordError, match="brat export"):
        read_export(f, tool="brat")


def test_cli_spans_and_import(tmp_path):
    root = _write(tmp_path / "round1")
    out = CliRunner().invoke(app, ["spans", str(root), "--from", "brat", "--json", "--match", "overlap"])
    assert out.exit_code == 0, out.output
    rep = json.loads(out.stdout)
    assert rep["n_documents"] == 2 and set(rep["coders"]) == {"alice", "bob", "carol"}
    target = tmp_path / "spans.csv"
    out = CliRunner().invoke(app, ["import", str(root), "--from", "brat", "-o", str(target)])
    assert out.exit_code == 0, out.output
    assert "Zoë Smith" in target.read_text(encoding="utf-8")
