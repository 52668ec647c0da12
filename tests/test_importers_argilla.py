"""Argilla 2.x importer on hand-written exports in the documented record format.

Fixtures (tests/data/importers/argilla/) follow the Argilla 2.x SDK's export
(https://docs.argilla.io/latest/how_to_guides/import_export/): ``dataset/`` is what ``dataset.to_disk``
writes (settings.json with the question types, records.json with ``responses`` per question as
``{"value", "user_id", "status"}``), ``records_flat.jsonl`` the flattened records
(``<q>.responses``, ``<q>.responses.users``, ``<q>.responses.status``).  Record rec-1's text has an
emoji before the span "Lisboa": [7, 13) in UTF-16 code units, [6, 12) in Python.
"""

import json
from pathlib import Path

import pytest

from accord import AccordError
from accord.importers import _argilla as argilla
from accord.importers import guess_tool

DATA = Path(__file__).parent / "data" / "importers" / "argilla"
DS = DATA / "dataset"


def test_several_questions_need_a_field():
    with pytest.raises(AccordError, match="4 questions: places \\(span\\), quality \\(rating\\), sentiment "
                       "\\(label_selection\\), topics \\(multi_label_selection\\)"):
        argilla.read(DS)


def test_label_selection_with_submitted_discarded_draft():
    imp = argilla.read(DS, field="sentiment")
    assert imp.kind == "nominal"
    c = imp.report.counts
    assert c["u-ana"] == {"annotated": 2, "empty": 0, "skipped": 1, "unassigned": 1}
    assert c["u-ben"] == {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 2}
    assert imp.annotations.n_entries == 3
    assert any("draft" in n for n in imp.report.notes)
    reasons = imp.report.dropped_reasons()
    assert reasons == {"ranking question 'order': answers read only when named as the field": 1,
                       "text question 'comment': answers read only when named as the field": 1}
    with_drafts = argilla.read(DS, field="sentiment", drafts=True)
    assert with_drafts.report.counts["u-ana"]["annotated"] == 3


def test_multi_label_rating_and_unanswered_is_empty():
    topics = argilla.read(DS, field="topics")
    assert topics.kind == "set"
    assert topics.report.counts["u-ana"] == {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 1}
    assert frozenset({"travel", "food"}) in set(topics.annotations.values)
    q = argilla.read(DS, field="quality")
    assert q.kind == "ordinal" and q.default_distance == "ordinal"
    assert sorted(q.annotations.values.tolist()) == [2, 4, 5]


def test_span_question_reanchored():
    imp = argilla.read(DS, field="places")
    assert imp.kind == "spans"
    assert {(s.coder, s.start, s.end) for s in imp.spans.spans} == {("u-ana", 6, 12), ("u-ben", 6, 12)}
    assert imp.spans.texts["rec-1"][6:12] == "Lisboa"
    assert imp.report.counts["u-ana"] == {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 1}


def test_text_and_ranking_questions_are_read_when_named():
    """Issue 32: a text answer is free text, a ranking answer (here options in order) a tuple of tie groups."""
    from accord.distances import ranking

    comment = argilla.read(DS, field="comment")
    assert comment.kind == "text" and comment.annotations.values.tolist() == ["lovely"]
    order = argilla.read(DS, field="order")
    assert order.kind == "ranking" and order.annotations.values.tolist() == [ranking(["b", "a"])]


def test_records_json_alone_and_flattened_jsonl():
    alone = argilla.read(DS / "records.json", field="sentiment")
    assert alone.report.counts == argilla.read(DS, field="sentiment").report.counts
    assert any("no settings.json" in n for n in alone.report.notes)
    flat = argilla.read(DATA / "records_flat.jsonl", field="sentiment")
    assert flat.report.counts == alone.report.counts
    spans = argilla.read(DATA / "records_flat.jsonl", field="places")
    assert {(s.start, s.end) for s in spans.spans.spans} == {(6, 12)}


def test_argilla_1x_records_are_read_and_other_tools_refused(tmp_path):
    # Argilla 1.x FeedbackRecord: one response per user, its values per question (test_importers_real_exports_tools, 10)
    old = tmp_path / "v1.json"
    old.write_text(json.dumps([{"fields": {"text": "x"}, "responses": [
        {"user_id": "u", "values": {"label": {"value": "a"}}, "status": "submitted"}], "external_id": "e1"}]))
    imp = argilla.read(old)
    assert imp.field == "label" and imp.report.counts["u"]["annotated"] == 1
    other = tmp_path / "other.json"
    other.write_text(json.dumps([{"id": 1, "data": {"text": "x"}, "annotations": []}]))
    with pytest.raises(AccordError, match="argilla export .*record 1: not an Argilla 2.x export"):
        argilla.read(other)


def test_span_outside_the_text(tmp_path):
    rec = {"id": "r9", "fields": {"text": "short"}, "responses": {"places": [
        {"value": [{"label": "LOC", "start": 2, "end": 30}], "user_id": "u", "status": "submitted"}]}}
    f = tmp_path / "r.json"
    f.write_text(json.dumps([rec], indent=1))
    with pytest.raises(AccordError, match="line 2, record r9, annotator u, field 'places'.*outside the text"):
        argilla.read(f)


def test_guess():
    assert guess_tool(DS) == "argilla"
    assert guess_tool(DS / "records.json") == "argilla"
    assert guess_tool(DATA / "records_flat.jsonl") == "argilla"


def test_nested_export_without_response_status(tmp_path):
    """records.json as the Argilla 2.x SDK writes it: responses are ``{"value", "user_id"}``, no status.

    Shape from argilla-io/argilla argilla/src/argilla/records/_resource.py (commit
    0991739bc0b154953a8571a9e92ebc704efc4f7c, and the same in the argilla 2.8.0 release on PyPI):
    ``RecordResponses.to_dict`` keeps only the value and the user id, ``Record.to_dict`` adds the
    record's own ``status`` (pending / completed), and ``JsonIO.to_json`` (records/_io/_json.py,
    commit 1617a0f946c36738692b3cbbde690abdf48fc661) dumps that list, which ``dataset.to_disk``
    writes as records.json.  A discarded response without a value is written as ``"value": null``
    (``Response`` refuses a submitted one without a value).  Before, such a user read as *empty*
    (saw the record and chose nothing) and nothing said the statuses were missing.
    """
    ana, ben, cy = "00000000-0000-0000-0000-00000000000a", "00000000-0000-0000-0000-00000000000b", \
        "00000000-0000-0000-0000-00000000000c"
    recs = [
        {"id": "r1", "fields": {"text": "Sol."}, "metadata": {}, "suggestions": {}, "vectors": {},
         "status": "completed", "_server_id": None,
         "responses": {"sentiment": [{"value": "positive", "user_id": ana}, {"value": "positive", "user_id": ben}],
                       "topics": [{"value": ["weather"], "user_id": ana}]}},
        {"id": "r2", "fields": {"text": "Chuva."}, "metadata": {}, "suggestions": {}, "vectors": {},
         "status": "pending", "_server_id": None,
         "responses": {"sentiment": [{"value": "negative", "user_id": ana}, {"value": None, "user_id": cy}]}},
    ]
    f = tmp_path / "records.json"
    f.write_text(json.dumps(recs), encoding="utf-8")
    sent = argilla.read(f, field="sentiment")
    c = sent.report.counts
    assert c[ana] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 0}
    assert c[ben] == {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 1}
    assert c[cy] == {"annotated": 0, "empty": 0, "skipped": 1, "unassigned": 1}
    note = next(n for n in sent.report.notes if "carry no status" in n)
    assert "3 user-record responses with a value read as submitted, 1 without one" in note
    assert "flatten=True" in note
    # a user who answered another question of the record submitted it: an unanswered optional question is empty
    topics = argilla.read(f, field="topics")
    assert topics.report.counts[ben] == {"annotated": 0, "empty": 1, "skipped": 0, "unassigned": 1}
    assert topics.report.counts[cy] == {"annotated": 0, "empty": 0, "skipped": 1, "unassigned": 1}
    # a status, where a file has one, is still read (the flattened export writes it)
    recs[1]["responses"]["sentiment"][0]["status"] = "draft"
    f.write_text(json.dumps(recs), encoding="utf-8")
    assert argilla.read(f, field="sentiment").report.counts[ana]["skipped"] == 1
