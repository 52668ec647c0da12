"""INCEpTION / WebAnno TSV 3.3, written by hand from the format's description in INCEpTION's user guide
(appendix "WebAnno TSV 3.3": header lines, #Text= sentences, token lines with UTF-16 offsets, `_`, `*`,
multi-token ids `PER[3]` and stacked values `A|B`) in a project export's annotation/<document>/<user>.tsv."""

from __future__ import annotations

import json
import zipfile

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, read_export

HEADER = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n"
    "#T_SP=webanno.custom.Sentiment|polarity\n"
    "#T_RL=webanno.custom.Link|role|BT_de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity\n"
    "\n\n"
)
# "👋 Zoë Smith met Bob ." : the emoji is two UTF-16 code units, so Zoë starts at 3 (code point 2)
ALICE = HEADER + (
    "#Text=\N{WAVING HAND SIGN} Zoë Smith met Bob .\n"
    "1-1\t0-2\t\N{WAVING HAND SIGN}\t_\t_\t_\t_\n"
    "1-2\t3-6\tZoë\tPER[1]\tpos\t_\t_\n"
    "1-3\t7-12\tSmith\tPER[1]\t_\t_\t_\n"
    "1-4\t13-16\tmet\t_\t_\t_\t_\n"
    "1-5\t17-20\tBob\tPER|*[2]\t_\t_\t_\n"
    "1-6\t21-22\t.\t_\t_\t_\t_\n"
    "\n"
    "#Text=In New York .\n"
    "2-1\t23-25\tIn\t_\t_\t_\t_\n"
    "2-2\t26-29\tNew\tLOC[3]\t_\t_\t_\n"
    "2-3\t30-34\tYork\tLOC[3]\t_\t_\t_\n"
    "2-4\t35-36\t.\t_\t_\t_\t_\n"
)
BOB = ALICE.replace("LOC[3]", "GPE[3]").replace("PER|*[2]", "PER")
EMPTY = "".join(
    line if not line.startswith(("1-", "2-")) else "\t".join(line.split("\t")[:3] + ["_"] * 4) + "\n"
    for line in ALICE.splitlines(keepends=True)
)


def _export(tmp_path, *, zipped: bool = False):
    files = {
        "annotation/doc1.txt/alice.tsv": ALICE,
        "annotation/doc1.txt/bob.tsv": BOB,
        "annotation/doc1.txt/INITIAL_CAS.tsv": EMPTY,
        "annotation/doc2.txt/alice.tsv": EMPTY,  # alice opened doc2 and marked nothing; bob never got it
        "exportedproject.json": "{}",
    }
    if zipped:
        target = tmp_path / "project.zip"
        with zipfile.ZipFile(target, "w") as z:
            for name, content in files.items():
                z.writestr(name, content)
        return target
    root = tmp_path / "project"
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, encoding="utf-8")
    return root


@pytest.mark.parametrize("zipped", [False, True])
def test_spans_states_and_utf16(tmp_path, zipped):
    src = _export(tmp_path, zipped=zipped)
    assert guess_tool(src) == "inception"
    imp = read_export(src, tool="inception", field="NamedEntity")
    text = imp.spans.texts["doc1.txt"]
    got = {(s.coder, text[s.start : s.end], s.label) for s in imp.spans.spans}
    assert got == {
        ("alice", "Zoë Smith", "PER"), ("alice", "Bob", "PER"), ("alice", "Bob", "NamedEntity"),
        ("alice", "New York", "LOC"),
        ("bob", "Zoë Smith", "PER"), ("bob", "Bob", "PER"), ("bob", "New York", "GPE"),
    }
    assert imp.report.counts == {
        "alice": {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0},
        "bob": {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 1},
    }
    assert imp.report.dropped_reasons() == {"system user, not an annotator": 1}
    assert imp.spans.tokens["doc1.txt"][1] == (2, 5)  # Zoë, in code points


def test_several_layers_need_a_field_and_features_are_picked(tmp_path):
    src = _export(tmp_path)
    with pytest.raises(AccordError, match=r"several span layers/features .*NamedEntity\|value.*Sentiment\|polarity"):
        read_export(src, tool="inception")
    imp = read_export(src, tool="inception", field="Sentiment")
    assert [(s.coder, s.label) for s in imp.spans.spans] == [("alice", "pos"), ("bob", "pos")]
    with pytest.raises(AccordError, match="no span layer or feature 'Chunk'"):
        read_export(src, tool="inception", field="Chunk")


def test_not_a_webanno_file_is_named(tmp_path):
    root = tmp_path / "p"
    (root / "annotation" / "d").mkdir(parents=True)
    (root / "annotation" / "d" / "u.tsv").write_text("hello\tworld\n")
    with pytest.raises(AccordError, match=r"inception export .*annotation/d/u, line 1: not a WebAnno TSV 3.x file"):
        read_export(root, tool="inception")


def test_cli_spans_from_inception(tmp_path):
    src = _export(tmp_path, zipped=True)
    out = CliRunner().invoke(app, ["spans", str(src), "--from", "inception", "--field", "NamedEntity", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["n_spans"] == 7


# exportedproject.json as INCEpTION writes it (ExportedProject: "source_documents" with name/format/state,
# "annotation_documents" with name/user/state/annotatorState; AnnotationDocumentState NEW, IN_PROGRESS,
# FINISHED, IGNORE), written by hand with one annotation document per line.
PROJECT = """{
  "name" : "Émile's project",
  "slug" : "emiles-project",
  "mode" : "annotation",
  "source_documents" : [
    { "name" : "doc1.txt", "format" : "text", "state" : "ANNOTATION_IN_PROGRESS" },
    { "name" : "doc2.txt", "format" : "text", "state" : "ANNOTATION_IN_PROGRESS" },
    { "name" : "doc3.txt", "format" : "text", "state" : "NEW" },
    { "name" : "doc4.txt", "format" : "text", "state" : "ANNOTATION_FINISHED" }
  ],
  "annotation_documents" : [
    { "name" : "doc1.txt", "user" : "alice", "state" : "FINISHED", "annotatorState" : "FINISHED" },
    { "name" : "doc1.txt", "user" : "bob", "state" : "IN_PROGRESS" },
    { "name" : "doc1.txt", "user" : "CURATION_USER", "state" : "FINISHED" },
    { "name" : "doc2.txt", "user" : "alice", "state" : "FINISHED" },
    { "name" : "doc2.txt", "user" : "bob", "state" : "FINISHED" },
    { "name" : "doc3.txt", "user" : "alice", "state" : "IGNORE" },
    { "name" : "doc3.txt", "user" : "carol", "state" : "IGNORE" },
    { "name" : "doc4.txt", "user" : "bob", "state" : "NEW" },
    { "name" : "doc4.txt", "user" : "carol", "state" : "FINISHED", "annotatorState" : "IN_PROGRESS" }
  ],
  "version" : 1
}
"""


def _project(tmp_path, project=PROJECT, *, zipped=False):
    files = {
        "exportedproject.json": project,
        "annotation/doc1.txt/alice.tsv": ALICE,  # FINISHED, spans: annotated
        "annotation/doc1.txt/bob.tsv": BOB,  # IN_PROGRESS: read, said
        "annotation/doc1.txt/INITIAL_CAS.tsv": EMPTY,
        "annotation/doc2.txt/alice.tsv": EMPTY,  # FINISHED, no span: empty; bob FINISHED has no file
        "annotation/doc3.txt/carol.tsv": ALICE,  # IGNORE (locked), worked on before locking: skipped
        "annotation/doc4.txt/carol.tsv": EMPTY,  # FINISHED (annotator said IN_PROGRESS): empty
        "annotation/doc4.txt/dave.tsv": EMPTY,  # no annotation document: read from the file, said
    }
    root = tmp_path / ("project.zip" if zipped else "project")
    if zipped:
        with zipfile.ZipFile(root, "w") as z:
            for name, content in files.items():
                z.writestr(name, content)
        return root
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content, encoding="utf-8")
    return root


@pytest.mark.parametrize("zipped", [False, True])
def test_document_states_from_exportedproject(tmp_path, zipped):
    imp = read_export(_project(tmp_path, zipped=zipped), tool="inception", field="NamedEntity")
    assert imp.report.n_items == 4
    assert imp.report.counts == {
        "alice": {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 1},
        "bob": {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 3},
        "carol": {"annotated": 0, "empty": 1, "skipped": 1, "unassigned": 2},
        "dave": {"annotated": 0, "empty": 1, "skipped": 0, "unassigned": 3},
    }
    assert imp.report.dropped_reasons() == {
        "system user, not an annotator": 1,
        "state FINISHED in exportedproject.json but no annotation file: read as unassigned": 1,
    }
    (gone,) = [d for d in imp.report.dropped if d.coder == "bob"]
    assert (gone.record, gone.line) == ("doc2.txt/bob", 16)
    notes = "\n".join(imp.report.notes)
    assert "1 annotation document IN_PROGRESS read as they stand" in notes and "doc1.txt/bob" in notes
    assert "4 spans in locked (IGNORE) documents not read" in notes
    assert "1 file has no annotation document in exportedproject.json, read from the file: doc4.txt/dave" in notes
    assert "doc4.txt/carol: FINISHED (annotator: IN_PROGRESS)" in notes
    assert {s.document for s in imp.spans.spans} == {"doc1.txt"}  # carol's locked spans are not read
    assert ("doc2.txt", "alice") in imp.spans.seen and ("doc3.txt", "carol") not in imp.spans.seen


def test_in_progress_can_be_skipped(tmp_path):
    imp = read_export(_project(tmp_path), tool="inception", field="NamedEntity", in_progress="skip")
    assert imp.report.counts["bob"] == {"annotated": 0, "empty": 0, "skipped": 1, "unassigned": 3}
    assert {s.coder for s in imp.spans.spans} == {"alice"}
    with pytest.raises(AccordError, match="in_progress must be 'read' or 'skip'"):
        read_export(_project(tmp_path / "x"), tool="inception", field="NamedEntity", in_progress="maybe")


def test_without_exportedproject_the_files_are_the_states_and_it_is_said(tmp_path):
    root = _project(tmp_path)
    (root / "exportedproject.json").unlink()
    imp = read_export(root, tool="inception", field="NamedEntity")
    assert imp.report.counts["carol"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 2}
    assert any(n.startswith("no exportedproject.json: document states not read") for n in imp.report.notes)


def test_unknown_state_names_tool_file_line_and_field(tmp_path):
    bad = PROJECT.replace('"user" : "bob", "state" : "NEW"', '"user" : "bob", "state" : "DONE"')
    with pytest.raises(AccordError, match=r"inception export .*exportedproject\.json, line 19, field "
                       r"'annotation_documents\[7\]\.state': unknown annotation document state 'DONE'; "
                       r"INCEpTION writes NEW, IN_PROGRESS, FINISHED, IGNORE"):
        read_export(_project(tmp_path, bad), tool="inception", field="NamedEntity")
    bad = PROJECT.replace('"state" : "NEW" }', '"state" : "FRESH" }', 1)
    with pytest.raises(AccordError, match=r"line 8, field 'source_documents\[2\]\.state': unknown source document"):
        read_export(_project(tmp_path / "b", bad), tool="inception", field="NamedEntity")
    bad = PROJECT.replace('"name" : "doc2.txt", "user" : "alice", ', '"name" : "doc2.txt", ')
    with pytest.raises(AccordError, match=r"line 15, field 'annotation_documents\[3\]\.user': no user"):
        read_export(_project(tmp_path / "c", bad), tool="inception", field="NamedEntity")
    with pytest.raises(AccordError, match=r"exportedproject\.json, line 2: not valid JSON"):
        read_export(_project(tmp_path / "d", "{\n  oops\n}"), tool="inception", field="NamedEntity")


# Slot (link) features, in the shape INCEpTION writes them: a span feature named ROLE_<layer>:<feature>_<link
# type> is the roles' column and the next one the targets' (ids of the target annotations, ``1-2`` or
# ``1-3[4]``); a stacked host's items line up across the layer's columns. Shape from INCEpTION's TSV test
# suite, inception-project/inception (commit 55ba8ba6adf808116b518a227194694850b65259),
# inception/inception-io-webanno-tsv/src/test/resources/tsv3-suite/{testSimpleSlotFeature,
# testStackedComplexSlotFeatureWithoutSlotFillers,sampleSlotAnnotation2}/reference.tsv, and its reader
# (Tsv3XDeserializer: ROLE_ columns are SLOT_ROLE, the next SLOT_TARGET). Written by hand here.
SLOTS = (
    "#FORMAT=WebAnno TSV 3.3\n"
    "#T_SP=webanno.custom.Filler|\n"
    "#T_SP=webanno.custom.Event|ROLE_webanno.custom.Event:args_webanno.custom.EventArg|webanno.custom.Filler\n"
    "#T_SP=webanno.custom.Frame|ROLE_webanno.custom.Frame:args_webanno.custom.FrameArg|webanno.custom.Filler"
    "|name\n"
    "\n\n"
    "#Text=Ann met Bo there .\n"
    "1-1\t0-3\tAnn\t*[1]\t_\t_\t_\t_\t_\n"
    "1-2\t4-7\tmet\t_\tagent;theme\t1-1[1];1-3\t_[2]|_[3]\t*|*\tMeet[2]|Greet[3]\n"
    "1-3\t8-10\tBo\t*|*[1]\t_\t_\tagent[2]|_[3]\t1-1[1]|*\tMeet[2]|Greet[3]\n"
    "1-4\t11-16\tthere\t_\t_|_[4]\t*|*\t_\t_\t_\n"
    "1-5\t17-18\t.\t_\t_[4]\t*\t_\t_\t_\n"
)


def test_slot_feature_columns_are_not_labels(tmp_path):
    f = tmp_path / "doc.tsv"
    f.write_text(SLOTS, encoding="utf-8")

    def spans(field):
        return sorted((s.start, s.end, s.label) for s in read_export(f, tool="inception", field=field).spans.spans)

    # a layer with only slot features is read by its presence: the roles and targets are no label
    assert spans("Event") == [(4, 7, "Event"), (11, 16, "Event"), (11, 18, "Event")]
    # a layer with a slot feature and a plain one: the plain one is the field, the slot columns are not offered
    assert spans("Frame") == spans("Frame|name") == [(4, 10, "Greet"), (4, 10, "Meet")]
    with pytest.raises(AccordError, match=r"no span layer or feature 'ROLE_.*Filler\|, .*Event\|, .*Frame\|name$"):
        spans("ROLE_webanno.custom.Event:args_webanno.custom.EventArg")
    assert spans("Filler") == [(0, 10, "Filler"), (8, 10, "Filler")]


def test_escaped_values_and_sentence_text(tmp_path):
    """Feature values and ``#Text=`` lines are unescaped as INCEpTION's ``Escaping`` does: in a value ``\\t``
    and ``\\n`` are a tab and a line break and ``\\*`` the value ``*`` (a bare ``*`` is no value); in a text
    ``\\\\`` is one backslash (``\\\\n`` a backslash then n), ``\\r`` a carriage return.

    Shape from inception-project/inception (commit 55ba8ba6adf808116b518a227194694850b65259),
    inception/inception-io-webanno-tsv/src/test/resources/tsv3-suite/
    {testTokenBoundedSpanWithSpecialSymbolsValue,testTokenBoundedSpanWithAsteriskFeatureValue,
    testSentenceWithTab}/reference.tsv against their reference.xmi, and
    src/main/java/.../tsv/internal/tsv3x/Escaping.java. Written by hand here.
    """
    tsv = (
        "#FORMAT=WebAnno TSV 3.3\n"
        "#T_SP=webanno.custom.Span|value\n"
        "\n\n"
        "#Text=C:\\\\new\\tdir\n"
        "1-1\t0-6\tC:\\\\new\t\\*\n"
        "1-2\t7-10\tdir\ta\\tb\\nc\\;d\\_\n"
        "\n"
        "#Text=x\\ry .\n"
        "2-1\t11-12\tx\t*\n"
        "2-2\t13-14\ty\t_\n"
        "2-3\t15-16\t.\t\\\\*\n"
    )
    f = tmp_path / "doc.tsv"
    f.write_text(tsv, encoding="utf-8")
    sp = read_export(f, tool="inception", field="Span").spans
    text = sp.texts["doc"]
    assert text == "C:\\new\tdir x\ry ."
    got = sorted((text[s.start:s.end], s.label) for s in sp.spans)
    assert got == [(".", "\\*"), ("C:\\new", "*"), ("dir", "a\tb\nc;d_"), ("x", "Span")]
