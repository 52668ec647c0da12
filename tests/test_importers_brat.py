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
    with pytest.raises(AccordError,
                       match=r"brat export .*alice.d1\.ann, line 2, annotation T2, field 'text': its text 'Bobby'"):
        read_export(_write(tmp_path / "a", mismatch=True), tool="brat")
    with pytest.raises(AccordError,
                       match=r"line 3, annotation T3, field 'offsets': offsets .* outside the text of 'd1'"):
        read_export(_write(tmp_path / "b", outside=True), tool="brat")


def test_bad_line_missing_text_and_field(tmp_path):
    root = _write(tmp_path / "r")
    (root / "bob" / "d2.ann").write_text("X1\tnonsense\n")
    with pytest.raises(AccordError, match="line 1, field 'id': not a brat standoff line"):
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


def _one(tmp_path, ann: str | bytes, text: str = "New York\tcity, Zoë\x0cend\n"):
    """A one-annotator, one-document export: ``alice/d.ann`` with *ann* beside ``alice/d.txt`` holding *text*."""
    folder = tmp_path / "exp" / "alice"
    folder.mkdir(parents=True)
    f = folder / "d.ann"
    f.write_bytes(ann if isinstance(ann, bytes) else ann.encode("utf-8"))
    (folder / "d.txt").write_text(text, encoding="utf-8")
    return tmp_path / "exp"


@pytest.mark.parametrize(
    ("ann", "where", "message"),
    [
        ("T1\tLOC 0 3\tNew\nT2\tLOC 4 99\tYork\n", r"line 2, annotation T2, field 'offsets'", "outside the text"),
        ("T1\tLOC 5 3\t\n", r"line 1, annotation T1, field 'offsets'", "ends before it starts"),
        ("T1\tLOC 0 3\tNow\n", r"line 1, annotation T1, field 'text'", "its text 'Now' does not match .*'New'"),
        ("T1\tLOC 0 3;4 8\tNew Yolk\n", r"line 1, annotation T1, field 'text'", "does not match"),
        ("T1\tLOC 0 three\tNew\n", r"line 1, annotation T1, field 'offsets'", "cannot read the offsets"),
        ("T1\tLOC -1 3\tNew\n", r"line 1, annotation T1, field 'offsets'", "cannot read the offsets"),
        ("T1\tLOC 0 3;\tNew\n", r"line 1, annotation T1, field 'offsets'", "cannot read the offsets"),
        ("T1\tLOC\tNew\n", r"line 1, annotation T1, field 'offsets'", "no offsets"),
        ("T1\t 0 3\tNew\n", r"line 1, annotation T1, field 'type'", "no annotation type"),
        ("T1 LOC 0 3 New\n", r"line 1, annotation T1 LOC 0 3 New", "no tab after the id"),
        ("T1\tLOC 0 5;2 8\tNew Y New York\n", r"line 1, annotation T1, field 'offsets'", "overlap"),
        ("T1\tLOC 0 3\tNew\n\nT1\tLOC 4 8\tYork\n", r"line 3, annotation T1, field 'id'", "used twice .*line 1"),
        ("T1\tLOC 0 3\tNew\nX1\tnonsense\n", r"line 2, field 'id'", "not a brat standoff line"),
    ],
)
def test_each_bad_line_is_an_error_naming_file_line_annotation_and_field(tmp_path, ann, where, message):
    with pytest.raises(AccordError, match=rf"^brat export \S+d\.ann, {where}: .*{message}"):
        read_export(_one(tmp_path, ann), tool="brat")


def test_text_that_is_not_utf8_is_an_error_naming_the_file(tmp_path):
    with pytest.raises(AccordError, match=r"brat export \S+d\.ann, line 1: not UTF-8 text"):
        read_export(_one(tmp_path, "T1\tLOC 0 3\tNé\n".encode("latin-1")), tool="brat")
    root = _one(tmp_path / "b", "")
    (root / "alice" / "d.txt").write_bytes("Zo\xeb\n".encode("latin-1"))
    with pytest.raises(AccordError, match=r"brat export \S+d\.txt, line 1: not UTF-8 text"):
        read_export(root, tool="brat")


def test_lines_are_read_as_brat_reads_them(tmp_path):
    """brat (server/src/annotation.py) takes a span's text by its length, so a tab, form feed or U+2028 inside it
    is text, not a line or field break; whatever follows the text after whitespace is a tail brat keeps; a blank
    text is filled in; fragments written out of order are put in order; a byte-order mark is ignored."""
    text = "New York\tcity, Zoë\x0cend\u2028more\n"
    ann = (
        "\ufeffT1\tLOC 0 13\tNew York\tcity\n"  # a tab inside the span's text
        "T2\tLOC 15 22\tZoë\x0cend\n"  # a form feed inside it
        "T3\tLOC 19 27\tend\u2028more  \t# checked\n"  # U+2028 inside it, then a tail
        "T4\tORG 9 13;0 3\tcity New\n"  # fragments written in reverse order
        "T5\tORG 0 3\t\n"  # blank text: brat fills it in
        "T6\tORG 4 8\n"  # no text at all
    )
    imp = read_export(_one(tmp_path, ann, text), tool="brat")
    got = {(s.label, s.fragments) for s in imp.spans.spans}
    assert got == {("LOC", ((0, 13),)), ("LOC", ((15, 22),)), ("LOC", ((19, 27),)),
                   ("ORG", ((0, 3), (9, 13))), ("ORG", ((0, 3),)), ("ORG", ((4, 8),))}
    four = next(s for s in imp.spans.spans if len(s.fragments) == 2)
    assert (four.start, four.end) == (0, 13)
    assert imp.report.counts["alice"]["annotated"] == 1


def test_crlf_files_count_a_line_break_as_one_character(tmp_path):
    """brat opens files with universal newlines: offsets in a CRLF .txt count each line break once."""
    root = _one(tmp_path, "T1\tPER 6 9\tAnn\r\n", "hello\r\nAnn\r\n")
    (root / "alice" / "d.txt").write_bytes(b"hello\r\nAnn\r\n")
    imp = read_export(root, tool="brat")
    (span,) = imp.spans.spans
    assert imp.spans.texts["d"][span.start:span.end] == "Ann"
