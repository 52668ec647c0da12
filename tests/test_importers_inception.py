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
