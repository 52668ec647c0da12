"""Label Studio importer on hand-written exports in the documented schema.

Fixtures (tests/data/importers/labelstudio/) follow https://labelstud.io/guide/task_format (JSON export:
tasks with ``annotations``, ``completed_by``, ``was_cancelled``, ``result`` regions) and
https://labelstud.io/guide/export#JSON-MIN (one row per annotation).  Task 101's text has an emoji
before the span "Paris": Label Studio counts UTF-16 code units, so "Paris" is [10, 15) in the export and
[9, 14) in Python.
"""

import json
from pathlib import Path

import pytest

from accord import AccordError, alpha
from accord.importers import _labelstudio as ls
from accord.importers import guess_tool, read_export

DATA = Path(__file__).parent / "data" / "importers" / "labelstudio"
FULL = DATA / "export.json"
MIN = DATA / "export_min.json"


def test_several_controls_without_field_is_an_error_listing_them():
    with pytest.raises(AccordError, match="label-studio export .*7? ?controls?.*ner \\(labels\\).*sentiment") as e:
        ls.read(FULL)
    msg = str(e.value)
    for name in ("sentiment", "tags", "topic", "quality", "score", "ner"):
        assert name in msg
    assert "comment" not in msg.split("controls:")[1].split(";")[0]  # textarea is not a candidate


def test_single_choice_is_nominal_with_the_four_states():
    imp = ls.read(FULL, field="sentiment")
    assert imp.kind == "nominal" and imp.default_distance == "nominal"
    c = imp.report.counts
    assert c["1"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert c["bo@example.org"] == {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 2}
    assert imp.report.n_items == 4
    assert imp.annotations.n_entries == 3
    assert sorted(map(str, imp.annotations.values)) == ["Negative", "Positive"]
    # the textarea regions are counted, never silently dropped
    assert imp.report.dropped_reasons() == {"textarea 'comment': free text, read only when named as the field": 2}
    assert any("prediction" in n for n in imp.report.notes)


def test_multiple_choices_are_sets_and_empty_is_the_empty_set():
    imp = ls.read(FULL, field="tags")
    assert imp.kind == "set" and imp.default_distance == "masi-2006"
    vals = set(imp.annotations.values)
    assert frozenset({"travel", "food"}) in vals and frozenset() in vals
    assert imp.report.counts["1"]["empty"] == 1
    single = ls.read(FULL, field="sentiment", multiple=True)
    assert all(isinstance(v, frozenset) for v in single.annotations.values)


def test_taxonomy_paths_are_a_set_of_tuples():
    imp = ls.read(FULL, field="topic")
    assert imp.kind == "set"
    assert frozenset({("Places", "City"), ("Feelings",)}) in set(imp.annotations.values)


def test_rating_is_ordinal_and_number_interval():
    r = ls.read(FULL, field="quality")
    assert r.kind == "ordinal" and sorted(r.annotations.values.tolist()) == [2, 4, 5]
    n = ls.read(FULL, field="score")
    assert n.kind == "interval" and n.default_distance == "interval"
    assert sorted(n.annotations.values.tolist()) == [1, 2.5, 3]
    assert alpha(n.annotations, distance="interval").n_pairable == 2


def test_labels_are_spans_reanchored_from_utf16():
    imp = ls.read(FULL, field="ner")
    assert imp.kind == "spans" and imp.annotations is None
    sa = imp.spans
    paris = [s for s in sa.spans if s.label == "LOC"]
    assert {(s.start, s.end) for s in paris} == {(9, 14)}
    assert sa.texts["101"][9:14] == "Paris"
    assert ("103", "1") in sa.seen and ("102", "1") in sa.seen  # seen, nothing marked
    assert ("102", "bo@example.org") not in sa.seen  # cancelled
    c = imp.report.counts
    assert c["1"] == {"annotated": 1, "empty": 2, "skipped": 0, "unassigned": 1}
    assert c["bo@example.org"] == {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 2}


def test_textarea_field_is_read_when_named():
    """Issue 32: free text is read when its control is named (never guessed), the lines of a region joined."""
    imp = ls.read(FULL, field="comment")
    assert imp.kind == "text" and imp.default_distance == "levenshtein"
    assert sorted(imp.annotations.values.tolist()) == ["lovely", "sad"]


def test_unknown_field_lists_the_controls():
    with pytest.raises(AccordError, match="no control named 'nope'.*sentiment"):
        ls.read(FULL, field="nope")


def test_json_min_export():
    """Shapes of Label Studio's JSON-MIN writer: a single choice bare, several as {"choices"}, ratings,
    numbers and taxonomies as [{"rating": 4}], [{"number": 2.5}], [{"taxonomy": [...]}]."""
    imp = ls.read(MIN, field="sentiment")
    assert imp.kind == "nominal"
    assert imp.report.counts["al@example.org"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 1}
    assert any("cancelled" in n for n in imp.report.notes)
    assert imp.report.dropped_reasons() == {"textarea 'comment': free text, read only when named as the field": 1}
    tags = ls.read(MIN, field="tags")
    assert tags.kind == "set"
    assert frozenset({"travel"}) in set(tags.annotations.values)  # a bare single choice of a multiple control
    assert tags.report.counts["bo@example.org"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 1}
    q = ls.read(MIN, field="quality")
    assert q.kind == "ordinal" and sorted(q.annotations.values.tolist()) == [2, 3, 4, 5]
    n = ls.read(MIN, field="score")
    assert n.kind == "interval" and sorted(n.annotations.values.tolist()) == [1, 2.5, 3]
    t = ls.read(MIN, field="topic")
    assert t.kind == "set" and frozenset({("Places", "City"), ("Feelings",)}) in set(t.annotations.values)
    ner = ls.read(MIN, field="ner")
    assert {(s.start, s.end, s.label) for s in ner.spans.spans} == {(9, 14, "LOC"), (0, 1, "PER")}
    assert ner.report.counts["al@example.org"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 1}
    with pytest.raises(AccordError, match="controls: .*ner.*sentiment"):
        ls.read(MIN)
    assert ls.read(MIN, field="comment").kind == "text"  # named, free text is read (issue 32)


def _min_row(task, text, annotator, annotation, **controls):
    """A JSON-MIN row in the key order of Label Studio's writer (label_studio_sdk/converter/converter.py,
    convert_to_json_min, label-studio-sdk 2.1.2): the task data, "id", the controls, "annotator", then the
    annotation's metadata."""
    row = {"text": text, "id": task}
    row.update(controls)
    row.update({"annotator": annotator, "annotation_id": annotation, "created_at": "2024-05-01T10:00:00Z",
                "updated_at": "2024-05-01T10:00:00Z", "lead_time": 1.5})
    return row


def test_json_min_in_the_writers_key_order_finds_controls_every_annotator_agreed_on(tmp_path):
    """A single-choice control on which both annotators agreed on every task is as constant per task as the task
    data; the writer's key order (data, id, controls, annotator) still tells it from the data."""
    rows = []
    for i in range(12):
        text = f"task {i} \N{GRINNING FACE}"
        for k, who in enumerate(("al@example.org", "bo@example.org")):
            rows.append(_min_row(100 + i, text, who, 2 * i + k, sentiment="Positive" if i % 3 else "Negative",
                                 comment=f"note {i}-{k}"))
    f = _write(tmp_path, rows)
    with pytest.raises(AccordError, match="controls: comment .*sentiment"):
        ls.read(f)  # two candidates: the one-line text area is written as a bare string, like a choice
    imp = ls.read(f, field="sentiment")
    assert imp.kind == "nominal" and imp.annotations.n_units == 12
    assert imp.report.counts["al@example.org"]["annotated"] == 12
    free = ls.read(f, field="comment")
    assert any("look like free text" in n for n in free.report.notes)


def _write(tmp_path, tasks):
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks, indent=1))
    return f


def _task(value, text="I \N{GRINNING FACE} love Paris."):
    return [{"id": 7, "data": {"text": text}, "annotations": [{"completed_by": 3, "result": [
        {"from_name": "ner", "to_name": "text", "type": "labels", "value": value}]}]}]


def test_span_text_that_does_not_match_the_document_is_an_error(tmp_path):
    f = _write(tmp_path, _task({"start": 10, "end": 15, "text": "Rome", "labels": ["LOC"]}))
    with pytest.raises(AccordError, match="label-studio export .*line 2, record 7, annotator 3, field 'ner'.*'Rome'"):
        ls.read(f)


def test_offsets_outside_the_text_are_an_error(tmp_path):
    f = _write(tmp_path, _task({"start": 10, "end": 40, "labels": ["LOC"]}))
    with pytest.raises(AccordError, match="record 7.*outside the text"):
        ls.read(f)


def test_code_point_offsets_are_read_when_only_they_match_the_text(tmp_path):
    f = _write(tmp_path, _task({"start": 9, "end": 14, "text": "Paris", "labels": ["LOC"]}))
    imp = ls.read(f)
    assert (imp.spans.spans[0].start, imp.spans.spans[0].end) == (9, 14)
    assert any("code points" in n for n in imp.report.notes)


def test_old_completions_export_is_refused(tmp_path):
    f = _write(tmp_path, [{"id": 1, "data": {"text": "x"}, "completions": [{"result": []}]}])
    with pytest.raises(AccordError, match="completions.*before 1.0"):
        ls.read(f)


def test_another_tools_export_is_refused(tmp_path):
    f = _write(tmp_path, [{"text": "x", "_input_hash": 1, "answer": "accept"}])
    with pytest.raises(AccordError, match="not a Label Studio export"):
        ls.read(f)


def test_guess_and_read_export():
    assert guess_tool(FULL) == "label-studio"
    assert guess_tool(MIN) == "label-studio"
    imp = read_export(FULL, field="sentiment")
    assert imp.tool == "label-studio"
    assert any("guessed" in n for n in imp.report.notes)


def test_completed_by_as_id_and_as_object_is_one_annotator(tmp_path):
    region = {"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": ["a"]}}
    f = _write(tmp_path, [
        {"id": 1, "data": {"text": "x"}, "annotations": [{"completed_by": 5, "result": [region]}]},
        {"id": 2, "data": {"text": "y"}, "annotations": [
            {"completed_by": {"id": 5, "email": "cy@example.org"}, "result": [region]}]},
    ])
    imp = ls.read(f)
    assert imp.report.coders == ("cy@example.org",)
    assert imp.report.counts["cy@example.org"]["annotated"] == 2


def test_per_region_choices_are_counted_not_read_as_task_values(tmp_path):
    """A perRegion Choices answers about one span and carries that region's id (Label Studio's result format)."""
    f = _write(tmp_path, [{"id": 1, "data": {"text": "Ann met Bo."}, "annotations": [{"completed_by": 1, "result": [
        {"id": "r1", "from_name": "ner", "to_name": "text", "type": "labels",
         "value": {"start": 0, "end": 3, "text": "Ann", "labels": ["PER"]}},
        {"id": "r1", "from_name": "certainty", "to_name": "text", "type": "choices",
         "value": {"start": 0, "end": 3, "text": "Ann", "choices": ["sure"]}},
        {"id": "t1", "from_name": "topic", "to_name": "text", "type": "choices", "value": {"choices": ["meeting"]}},
    ]}]}])
    with pytest.raises(AccordError, match="'certainty' is per-region"):
        ls.read(f, field="certainty")
    with pytest.raises(AccordError, match="2 controls: ner \\(labels\\), topic \\(choices\\)"):
        ls.read(f)
    imp = ls.read(f, field="topic")
    assert imp.annotations.n_entries == 1
    assert any("per-region controls (answers about one span) not compared: certainty" in n for n in imp.report.notes)


def test_drafts_are_said_not_read(tmp_path):
    region = {"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": ["a"]}}
    f = _write(tmp_path, [{"id": 1, "data": {"text": "x"}, "drafts": [{"result": [region]}],
                           "annotations": [{"completed_by": 5, "result": [region]}]}])
    assert any("1 draft " in n for n in ls.read(f).report.notes)
