"""doccano importer on hand-written JSONL exports in the documented schema.

Fixtures (tests/data/importers/doccano/) follow https://doccano.github.io/doccano/tutorial/#export-dataset:
one ``<username>.jsonl`` per annotator with ``id``, ``text`` and ``label`` (category names, or
``[start, end, label]`` spans); the zip doccano hands out is built here from those files.  The first
example has an emoji before both spans: doccano's browser offsets count UTF-16 code units ("Ana" is
[6, 9) in the file, [5, 8) in Python).  doccano has no skip, so no cell is skipped.
"""

import json
import zipfile
from pathlib import Path

import pytest

from accord import AccordError
from accord.importers import _doccano as doccano
from accord.importers import guess_tool

DATA = Path(__file__).parent / "data" / "importers" / "doccano"


@pytest.fixture
def ner_zip(tmp_path):
    z = tmp_path / "project.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in sorted((DATA / "ner").glob("*.jsonl")):
            zf.write(f, f.name)
    return z


def test_zip_of_per_user_span_files(ner_zip):
    imp = doccano.read(ner_zip)
    assert imp.kind == "spans" and imp.field == "label"
    sa = imp.spans
    assert {(s.document, s.coder, s.start, s.end, s.label) for s in sa.spans} == {
        ("1", "alice", 5, 8, "PER"), ("1", "alice", 14, 18, "LOC"), ("3", "alice", 0, 3, "PER"),
        ("1", "bob", 5, 8, "PER"), ("4", "bob", 5, 8, "PER"),
    }
    assert sa.texts["1"][14:18] == "Lima"
    c = imp.report.counts
    assert c["alice"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert c["bob"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert any("UTF-16" in n for n in imp.report.notes)


def test_folder_and_code_point_offsets():
    assert len(doccano.read(DATA / "ner").spans.spans) == 5
    # read as code points, "Lima" [15, 19) runs past the 18-character text: the wrong reading is caught
    with pytest.raises(AccordError, match="alice.jsonl, line 1, record 1, annotator alice.*outside the text"):
        doccano.read(DATA / "ner", offsets="codepoints")


def test_classification_folder():
    imp = doccano.read(DATA / "cls")
    assert imp.kind == "nominal"
    c = imp.report.counts
    assert c["alice"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert c["bob"] == {"annotated": 3, "empty": 0, "skipped": 0, "unassigned": 1}
    sets = doccano.read(DATA / "cls", multiple=True)
    assert sets.kind == "set" and frozenset() in set(sets.annotations.values)


def test_entities_with_relations_format(tmp_path):
    line = {"id": 5, "text": "\N{GRINNING FACE} Acme hired Zoë.", "relations": [],
            "entities": [{"id": 1, "label": "ORG", "start_offset": 3, "end_offset": 7},
                         {"id": 2, "label": "PER", "start_offset": 14, "end_offset": 17}]}
    (tmp_path / "carl.jsonl").write_text(json.dumps(line) + "\n")
    imp = doccano.read(tmp_path / "carl.jsonl")
    assert imp.field == "entities"
    assert [(s.start, s.end, s.label) for s in imp.spans.spans] == [(2, 6, "ORG"), (13, 16, "PER")]
    assert imp.spans.texts["5"][13:16] == "Zoë"


def test_old_format_with_user_ids():
    imp = doccano.read(DATA / "old.jsonl")
    assert imp.report.coders == ("1", "2")
    assert imp.report.counts["1"] == {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 1}
    assert imp.report.n_items == 2
    assert len(imp.spans.spans) == 3


def test_offsets_outside_the_text(tmp_path):
    f = tmp_path / "dan.jsonl"
    f.write_text('\n{"id": 9, "text": "short", "label": [[0, 40, "X"]]}\n')
    with pytest.raises(AccordError, match="doccano export .*dan.jsonl, line 2, record 9, annotator dan, field 'label'"
                       ".*outside the text"):
        doccano.read(f)


def test_another_tools_export(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text('{"_input_hash": 1, "answer": "accept"}\n')
    with pytest.raises(AccordError, match="not a doccano export line: no 'text'"):
        doccano.read(f)


def test_guess(ner_zip):
    assert guess_tool(ner_zip) == "doccano"
    assert guess_tool(DATA / "cls" / "alice.jsonl") == "doccano"


def test_collaborative_all_jsonl_is_refused(tmp_path):
    f = tmp_path / "all.jsonl"
    f.write_text('{"id": 1, "text": "x", "label": ["a"]}\n')
    with pytest.raises(AccordError, match="collaborative-annotation export"):
        doccano.read(f)


def test_intent_detection_cats_and_entities(tmp_path):
    """An intent-detection-and-slot-filling export: ``cats`` (the intents) beside ``entities`` (the slots).

    Shape from doccano/doccano backend/data_export/pipeline/factories.py (commit
    ab6b765ea326d07b2b806a4280cd097565e62321): ``mapper_intent_detection`` renames the categories
    column to ``cats`` and writes the spans as ``[start, end, label]`` under ``entities``; every line also
    has ``Comments`` (pipeline/comments.py) and the writer is pandas ``to_json(orient="records",
    lines=True)`` (pipeline/writers.py), which escapes "/" as "\\/".  Before, ``cats`` could not be
    chosen at all and the spans were read without a word about the intents.
    """
    lines = {
        "alice": ['{"id":7,"text":"Fly to Tacoma\\/WA","cats":["flight"],"entities":[[7,13,"City"]],"Comments":[]}',
                  '{"id":8,"text":"Airports in LA","cats":["airport"],"entities":[],"Comments":["unsure"]}'],
        "bob": ['{"id":7,"text":"Fly to Tacoma\\/WA","cats":["flight"],"entities":[[7,13,"City"]],"Comments":[]}',
                '{"id":8,"text":"Airports in LA","cats":[],"entities":[[12,14,"City"]],"Comments":[]}'],
    }
    for who, ls in lines.items():
        (tmp_path / f"{who}.jsonl").write_text("\n".join(ls) + "\n", encoding="utf-8")
    with pytest.raises(AccordError, match=r"cats \(categories\), entities \(spans\); pass field="):
        doccano.read(tmp_path)
    cats = doccano.read(tmp_path, field="cats")
    assert cats.kind == "nominal" and cats.field == "cats"
    assert cats.report.counts["alice"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 0}
    assert cats.report.counts["bob"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}
    slots = doccano.read(tmp_path, field="entities")
    assert {(s.document, s.coder, s.start, s.end, s.label) for s in slots.spans.spans} == {
        ("7", "alice", 7, 13, "City"), ("7", "bob", 7, 13, "City"), ("8", "bob", 12, 14, "City")}
    assert slots.spans.texts["7"] == "Fly to Tacoma/WA"
    with pytest.raises(AccordError, match="no example has the field 'label'"):
        doccano.read(tmp_path, field="label")


def test_free_text_answers_are_said_to_look_like_free_text(tmp_path):
    """doccano's sequence-to-sequence projects export the written answer under ``label``, shaped like category
    names (backend/data_export/pipeline: the same ``label`` list); many distinct answers are said to look like
    free text rather than compared silently as categories."""
    folder = tmp_path / "s2s"
    folder.mkdir()
    for user in ("alice", "bob"):
        lines = [json.dumps({"id": i, "text": f"Source sentence {i}.", "label": [f"{user} wrote translation {i}"]})
                 for i in range(8)]
        (folder / f"{user}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    imp = doccano.read(folder)
    assert imp.kind == "nominal"
    assert any("16 distinct values in 16 answers look like free text" in n for n in imp.report.notes)
    classes = doccano.read(DATA / "cls")
    assert not any("free text" in n for n in classes.report.notes)
