"""Real exports of Label Studio, Argilla, Prodigy and doccano run through the importers: what they showed the
importers did wrong, each reproduced on a hand-written file of the same shape (the tools' documented schemas, cited
per section).  The real files: exports written by the tools themselves (Label Studio's converter writing JSON-MIN,
CSV and TSV from a JSON export; Argilla 1.29's and 2.8's SDK writers; doccano 1.8.4's export task on a project;
Prodigy db-out files committed by public projects); none is copied here.  Sections 1-8 are in
test_importers_real_exports.py."""

from __future__ import annotations

import json
import zipfile

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, layers, read_export

runner = CliRunner()

# The text and a labels region of a Label Studio JSON export (https://labelstud.io/guide/task_format), as in
# test_importers_real_exports.py section 2.
DEPUTY = "The deputy sheriff met the  county clerk."


def _region(start, end, text, label="ROLE", rid=None):
    return {"id": rid or f"r{start}", "from_name": "role", "to_name": "text", "type": "labels",
            "value": {"start": start, "end": end, "text": text, "labels": [label]}}


# ------------------------------------------------------------------------------------------------------------------
# 9. Label Studio: Ranker, Pairwise and TextArea as the JSON export and the JSON-MIN writer give them.
#
# A project with the "Text" + "Choices" + "TextArea" + "List"/"Ranker" (+ "Bucket") + "Pairwise" controls
# (https://labelstud.io/tags/ranker, /tags/pairwise, /tags/textarea), exported as JSON (a region per control,
# https://labelstud.io/guide/export#Label-Studio-JSON-format-of-annotated-tasks) and run through Label Studio's
# own JSON-MIN writer (label-studio-converter 0.0.59, Converter.convert_to_json_min): each control's regions are
# written without their type, a single choice and a one-line text bare, several lines as {"text": [...]}, a
# ranker as [{"ranker": {...}}], a pairwise choice as [{"selected": ...}].  The Ranker docs: with buckets "items
# ... can be moved to these buckets, and resulting groups will be exported as a dict { bucket-name-1: [array of
# ids in this bucket], ... }"; without a default bucket the items left in the list are kept under "_", "an
# internal value".  Buckets have no order among them: accord reads the set of (bucket, item) pairs placed.

def _rr(name, kind, value, rid):
    return {"id": rid, "from_name": name, "to_name": "results" if kind == "ranker" else "text", "type": kind,
            "origin": "manual", "value": value}


def _ls_answers(who, mood, lines, order, groups, side):
    result = [_rr("mood", "choices", {"choices": [mood]}, "m"), _rr("rank", "ranker", {"ranker": {"results": order}},
                                                                     "r"),
              _rr("bins", "ranker", {"ranker": groups}, "b"), _rr("pw", "pairwise", {"selected": side}, "p")]
    if lines:
        result.append(_rr("why", "textarea", {"text": lines}, "w"))
    return {"id": who * 10, "completed_by": {"id": who, "email": f"u{who}@example.org"}, "was_cancelled": False,
            "result": result}


def _ls_rank_tasks():
    items = [{"id": i, "title": i.upper()} for i in ("a", "b", "c")]
    return [
        {"id": 1, "data": {"text": "Ana works at Acme.", "items": items}, "annotations": [
            _ls_answers(1, "pos", ["fine", "really"], ["b", "a", "c"], {"relevant": ["a", "b"], "biased": ["c"]},
                        "left"),
            _ls_answers(2, "neg", ["meh"], ["a", "b", "c"], {"relevant": ["a"], "biased": ["b", "c"]}, "right")]},
        {"id": 2, "data": {"text": "Bob left.", "items": items}, "annotations": [
            _ls_answers(1, "neg", ["bad"], ["c", "b", "a"], {"relevant": ["c"], "_": ["a", "b"]}, "left"),
            _ls_answers(2, "neg", [], ["c", "a", "b"], {"relevant": ["c"], "_": ["a", "b"]}, "left")]},
    ]


def _json_min_rows(tasks):
    """What the JSON-MIN writer makes of the tasks above: data, id, the controls' values, annotator, metadata."""
    def bare(values):
        if len(values) == 1 and set(values[0]) == {"choices"} and len(values[0]["choices"]) == 1:
            return values[0]["choices"][0]
        if len(values) == 1 and set(values[0]) == {"text"}:
            return values[0]["text"][0] if len(values[0]["text"]) == 1 else values[0]
        return values

    rows = []
    for t in tasks:
        for a in t["annotations"]:
            row = {**t["data"], "id": t["id"]}
            for r in a["result"]:
                row[r["from_name"]] = bare([r["value"]])
            row.update({"annotator": a["completed_by"]["email"], "annotation_id": a["id"],
                        "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-01T00:00:00Z", "lead_time": 3.5})
            rows.append(row)
    return rows


@pytest.fixture(params=["json", "json-min"])
def ls_rank_export(tmp_path, request):
    tasks = _ls_rank_tasks()
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks if request.param == "json" else _json_min_rows(tasks), indent=2), encoding="utf-8")
    return f


def test_label_studio_ranker_with_buckets_is_read_as_the_items_placed(ls_rank_export):
    imp = read_export(ls_rank_export, tool="label-studio", field="bins")
    assert imp.kind == "set"
    got = {(u, c): v for u, c, v in imp.annotations.to_frame()[["unit", "coder", "value"]].itertuples(index=False)}
    assert got[1, "u1@example.org"] == frozenset({("relevant", "a"), ("relevant", "b"), ("biased", "c")})
    assert got[2, "u2@example.org"] == frozenset({("relevant", "c")})  # the items under "_" are placed nowhere
    assert any(n.startswith("Ranker 'bins' sorts items into buckets") for n in imp.report.notes)
    # MASI (the set default): unit 1 shares 2 of 4 pairs, neither a subset: d = 1 - 1/2 * 1/3; unit 2 agrees
    res = runner.invoke(app, ["agree", str(ls_rank_export), "--field", "bins", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    d = 1 - 0.5 / 3
    assert out["observed_disagreement"] == pytest.approx(2 * d / 4)
    # the pairs of the 4 sets: d between unit 1's two, 0 between unit 2's two, 1 for the 4 disjoint ones
    assert out["expected_disagreement"] == pytest.approx(2 * (d + 4) / 12)


def test_label_studio_ranker_pairwise_textarea_read_alike_from_json_and_json_min(ls_rank_export):
    rank = read_export(ls_rank_export, tool="label-studio", field="rank")
    assert rank.kind == "ranking" and rank.report.counts["u1@example.org"]["annotated"] == 2
    pw = read_export(ls_rank_export, tool="label-studio", field="pw")
    assert pw.kind == "nominal"
    assert sorted(pw.annotations.to_frame()["value"]) == ["first", "first", "first", "second"]
    why = read_export(ls_rank_export, tool="label-studio", field="why")  # one line bare, two as {"text": [...]}
    assert why.kind == "text" and sorted(why.annotations.to_frame()["value"]) == ["bad", "fine\nreally", "meh"]
    assert why.report.counts["u2@example.org"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}


def test_label_studio_controls_not_read_are_counted_and_only_when_named_is_true(ls_rank_export):
    imp = read_export(ls_rank_export, tool="label-studio")  # the one choices control is guessed
    assert imp.field == "mood"
    assert imp.report.dropped_reasons() == {
        "ranker 'rank': a ranking, read only when named as the field": 4,
        "ranker 'bins': items sorted into buckets, read only when named as the field": 4,
        "pairwise 'pw': a preference, read only when named as the field": 4,
        "textarea 'why': free text, read only when named as the field": 3,
    }
    # accord agree --field all then measures each of them as its own field, as the summary says
    res = runner.invoke(app, ["agree", str(ls_rank_export), "--field", "all", "--json"])
    assert res.exit_code == 0, res.output
    fields = {f["field"]: f for f in json.loads(res.stdout)["fields"]}
    assert {n for n, f in fields.items() if f["measured"]} == {"mood", "rank", "bins", "pw", "why"}
    assert "counted, not compared" not in res.stderr
    found = {x.name: x.kind for x in layers(ls_rank_export, tool="label-studio").layers}
    assert found == {"mood": "nominal", "rank": "ranking", "bins": "set", "pw": "nominal", "why": "text"}


def test_label_studio_json_min_control_of_no_known_shape_is_counted(tmp_path):
    rows = [{"text": "t", "id": 1, "mood": "pos", "odd": [{"points": [1, 2]}], "annotator": 1, "annotation_id": 1},
            {"text": "t", "id": 1, "mood": "neg", "odd": [{"points": [3]}], "annotator": 2, "annotation_id": 2}]
    f = tmp_path / "min.json"
    f.write_text(json.dumps(rows), encoding="utf-8")
    imp = read_export(f, tool="label-studio")
    assert imp.field == "mood"
    (reason,) = imp.report.dropped_reasons()
    assert reason.startswith("control 'odd': values of no shape accord reads") and \
        imp.report.dropped_reasons()[reason] == 2


# ------------------------------------------------------------------------------------------------------------------
# 10. Argilla 1.x: the dataset format of a FeedbackDataset (argilla 1.29, FeedbackDataset.format_as("datasets"),
# which push_to_huggingface uploads; saved here as JSON lines as datasets' to_json writes them).  One column per
# question holding [{"user_id", "value", "status"}], beside "<q>-suggestion" and "<q>-suggestion-metadata"; the
# record's "external_id" and "metadata" (a JSON text).  A ranking is stored as a struct of columns
# {"value": [...], "rank": [...]} and spans as {"start": [...], "end": [...], "label": [...], "text": [...]}.  The
# format keeps no response without a value: a user who discarded a record without answering is not in it.

def _v1_row(text, rid, answers):
    row = {"text": text}
    for q in ("mood", "tags", "stars", "order", "ents"):
        row[q] = [{"user_id": u, "value": v, "status": st} for u, (q2, v, st) in answers if q2 == q]
        row[f"{q}-suggestion"] = None
        row[f"{q}-suggestion-metadata"] = {"type": None, "score": None, "agent": None}
    row.update({"external_id": rid, "metadata": "{}"})
    return row


U1, U2 = "00000000-0000-0000-0000-000000000001", "00000000-0000-0000-0000-000000000002"


def _argilla_v1(tmp_path):
    rows = [
        _v1_row("Ana works at Acme.", "r1", [
            (U1, ("mood", "pos", "submitted")), (U1, ("tags", ["a", "b"], "submitted")),
            (U1, ("stars", 4, "submitted")),
            (U1, ("order", {"value": ["x", "y", "z"], "rank": [1, 2, 2]}, "submitted")),
            (U1, ("ents", {"start": [0], "end": [3], "label": ["PER"], "text": ["Ana"]}, "submitted")),
            (U2, ("mood", "neg", "submitted")), (U2, ("tags", ["a"], "submitted")), (U2, ("stars", 3, "submitted")),
            (U2, ("order", {"value": ["x", "y", "z"], "rank": [1, 2, 3]}, "submitted")),
            (U2, ("ents", {"start": [0, 13], "end": [3, 17], "label": ["PER", "ORG"], "text": ["Ana", "Acme"]},
                  "submitted"))]),
        _v1_row("Bob left.", "r2", [(U2, ("mood", "neg", "submitted")), (U2, ("stars", 2, "submitted"))]),
        _v1_row("Cy.", "r3", [(U1, ("mood", "pos", "draft"))]),
    ]
    f = tmp_path / "feedback.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f


def test_argilla_1x_dataset_format_is_read(tmp_path):
    f = _argilla_v1(tmp_path)
    assert guess_tool(f) == "argilla"
    mood = read_export(f, tool="argilla", field="mood")
    assert mood.kind == "nominal"
    assert mood.report.counts[U1] == {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 1}  # r3: a draft
    assert mood.report.counts[U2] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 1}
    assert mood.report.dropped_reasons() == {"ranking question 'order': answers read only when named as the field": 2}
    tags = read_export(f, tool="argilla", field="tags")
    assert tags.kind == "set" and frozenset({"a", "b"}) in set(tags.annotations.to_frame()["value"])
    order = read_export(f, tool="argilla", field="order")
    from accord.distances import ranking

    assert set(order.annotations.to_frame()["value"]) == {ranking({"x": 1, "y": 2, "z": 2}),
                                                          ranking(["x", "y", "z"])}
    ents = read_export(f, tool="argilla", field="ents")  # the text field is "text", not the external_id
    assert sorted((s.coder, s.start, s.end, s.label) for s in ents.spans.spans) == [
        (U1, 0, 3, "PER"), (U2, 0, 3, "PER"), (U2, 13, 17, "ORG")]
    res = runner.invoke(app, ["agree", str(f), "--field", "stars", "--json"])
    assert res.exit_code == 0, res.output
    # the two ratings of r1 pair; r2 has one rating, r3 a draft
    assert json.loads(res.stdout)["n_pairable"] == 2


def test_argilla_1x_record_dicts_keep_a_discard_without_values(tmp_path):
    # a FeedbackRecord as a dict: a discarded response may hold no values; the user is skipped, not unassigned
    f = tmp_path / "records.json"
    f.write_text(json.dumps([
        {"fields": {"text": "x"}, "external_id": "e1", "responses": [
            {"user_id": "u1", "values": {"mood": {"value": "a"}}, "status": "submitted"},
            {"user_id": "u2", "values": {}, "status": "discarded"}]},
        {"fields": {"text": "y"}, "external_id": "e2", "responses": [
            {"user_id": "u1", "values": {"mood": {"value": "b"}}, "status": "submitted"},
            {"user_id": "u2", "values": {"mood": {"value": "b"}}, "status": "submitted"}]}]), encoding="utf-8")
    imp = read_export(f, tool="argilla")
    assert imp.field == "mood"
    assert imp.report.counts["u2"] == {"annotated": 1, "empty": 0, "skipped": 1, "unassigned": 0}


# ------------------------------------------------------------------------------------------------------------------
# 11. doccano: a sequence-labelling project with relations.  Its JSONL export (doccano 1.6 and later; the
# relation_extraction example of doccano's data_export pipeline) writes per line the example's "entities"
# ({"id", "label", "start_offset", "end_offset"}) and "relations" ({"id", "from_id", "to_id", "type"}), one
# <username>.jsonl per annotator.  The relations were neither read nor counted.

FOUNDED = "Acme was founded in 1998 by Ana Lee and Bo Kim."


def _doccano_rel(tmp_path, per_user):
    folder = tmp_path / "dc"
    folder.mkdir()
    ents = [{"id": 1, "label": "ORG", "start_offset": 0, "end_offset": 4},
            {"id": 2, "label": "DATE", "start_offset": 20, "end_offset": 24},
            {"id": 3, "label": "PER", "start_offset": 28, "end_offset": 35},
            {"id": 4, "label": "PER", "start_offset": 40, "end_offset": 46}]
    for who, rels in per_user.items():
        line = {"id": 9, "text": FOUNDED, "entities": ents,
                "relations": [{"id": i, "from_id": a, "to_id": b, "type": t} for i, (a, b, t) in enumerate(rels)],
                "Comments": []}
        (folder / f"{who}.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    return folder


def test_doccano_relations_are_counted_then_read(tmp_path):
    folder = _doccano_rel(tmp_path, {"alice": [(1, 2, "foundedAt"), (1, 3, "foundedBy"), (1, 4, "foundedBy")],
                                     "bob": [(1, 2, "foundedAt"), (1, 3, "foundedBy")]})
    spans = read_export(folder, tool="doccano")
    assert spans.kind == "spans" and len(spans.spans.spans) == 8
    assert spans.report.dropped_reasons() == {"relation between entities (not compared; relations=True reads it)": 5}
    rels = read_export(folder, tool="doccano", relations=True)
    assert rels.kind == "relations"
    got = {(r.coder, r.type, r.source.start, r.target.start) for r in rels.relations.relations}
    assert got == {("alice", "foundedAt", 0, 20), ("alice", "foundedBy", 0, 28), ("alice", "foundedBy", 0, 40),
                   ("bob", "foundedAt", 0, 20), ("bob", "foundedBy", 0, 28)}
    res = runner.invoke(app, ["relations", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["f1"] == pytest.approx(2 * 2 / (3 + 2))  # bob's two are alice's; alice has one more
    assert out["n_relations"] == 5


def test_doccano_relation_naming_no_entity_is_refused(tmp_path):
    folder = _doccano_rel(tmp_path, {"alice": [(1, 7, "foundedBy")], "bob": []})
    with pytest.raises(AccordError, match=r"alice.jsonl, line 1, record 9, annotator alice, field 'relations\[0\]"
                                          r".to_id': a relation's to_id 7 names no entity"):
        read_export(folder, tool="doccano", relations=True)


# ------------------------------------------------------------------------------------------------------------------
# 12. Prodigy ner_manual: a span whose "text" is not the document's at its offsets, the offsets being its tokens'.
#
# Tasks pre-annotated by a model (a subword model's span "text": "Krí") and corrected in ner.manual keep the input
# span's keys: Prodigy snaps "start"/"end" to the tokens ("token_start", "token_end", inclusive) and writes the
# span back with its old "text" (https://prodi.gy/docs/api-interfaces#ner_manual: the span is {"start", "end",
# "token_start", "token_end", "label"}, other keys passed through).  Seen in a public Slovak NER project's db-out
# files (90 of 10,662 spans).  The offsets and the tokens agree: the span is what Prodigy shows.

def _pg_task(who, spans, text="Býval na Kríži a v Nitre ."):
    tokens, pos = [], 0
    for i, w in enumerate(text.split(" ")):
        tokens.append({"text": w, "start": pos, "end": pos + len(w), "id": i})
        pos += len(w) + 1
    return {"text": text, "_input_hash": 11, "_task_hash": 12, "tokens": tokens, "_view_id": "ner_manual",
            "spans": spans, "answer": "accept", "_session_id": None, "_annotator_id": who}


def test_prodigy_stale_span_text_is_read_by_its_token_checked_offsets(tmp_path):
    f = tmp_path / "ner.jsonl"
    rows = [_pg_task("ana", [{"text": "Krí", "start": 9, "end": 14, "token_start": 2, "token_end": 2,
                               "label": "LOC"}]),
            _pg_task("bo", [{"start": 9, "end": 14, "token_start": 2, "token_end": 2, "label": "LOC"},
                             {"start": 19, "end": 24, "token_start": 5, "token_end": 5, "label": "LOC"}])]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    imp = read_export(f, tool="prodigy")
    assert sorted((s.coder, s.start, s.end, s.text) for s in imp.spans.spans) == [
        ("ana", 9, 14, "Kríži"), ("bo", 9, 14, "Kríži"), ("bo", 19, 24, "Nitre")]
    assert any(n.startswith("1 span whose 'text' is not the document's") and "'Krí' for 'Kríži'" in n
               for n in imp.report.notes)
    # a text that differs where no token confirms the offsets is still refused
    rows[0]["spans"][0].pop("token_start")
    rows[0]["spans"][0].pop("token_end")
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(AccordError, match=r"span \[9, 14\) covers 'Kríži' in the document but the export gives its "
                                          r"text as 'Krí'"):
        read_export(f, tool="prodigy")


# ------------------------------------------------------------------------------------------------------------------
# 13. Label Studio: one task per file.  A target storage holds a file per task, "<task id>.json", the task object of
# the JSON export (https://labelstud.io/guide/export: "Cloud storage buckets contain one file per labeled task
# named task_id.json"; Label Studio's own tests keep such a previous export: one task object, its annotation's
# completed_by an object with id and email).  It was read with --from but not recognised.

def test_label_studio_one_task_object_is_recognised(tmp_path):
    task = {"id": 1234, "annotations": [{"id": 5678, "completed_by": {"id": 42, "email": "ann@example.org"},
                                         "result": [{"id": "x", "type": "choices", "value": {"choices": ["Cat"]},
                                                     "to_name": "image", "from_name": "label"}],
                                         "was_cancelled": False, "ground_truth": False}],
            "predictions": [], "data": {"image": "pets.jpg"}, "meta": {}, "project": 49}
    f = tmp_path / "1234.json"
    f.write_text("\ufeff" + json.dumps(task, indent=2), encoding="utf-8")
    assert guess_tool(f) == "label-studio"
    imp = read_export(f)
    assert imp.field == "label" and imp.report.counts["ann@example.org"]["annotated"] == 1


# ------------------------------------------------------------------------------------------------------------------
# 14. Label Studio's CSV and TSV exports (https://labelstud.io/guide/export#CSV; the writer is the converter's
# csv2.convert, label-studio-converter 0.0.59): the JSON-MIN rows as a table, the columns sorted by name, every
# value that is not text written as its JSON (the task data's lists too), a missing key as an empty cell, numbers
# unquoted (QUOTE_NONNUMERIC), lines ending in CRLF.  Label Studio 1.23's server (its export API, the SDK's converter)
# writes the TSV export with the same writer and a tab, and names the file .csv.  They were read as a plain table,
# or refused with --from label-studio.

def _ls_csv(rows, sep=","):
    import csv as csvmod
    import io

    keys = sorted({k for r in rows for k in r} | {"annotator", "annotation_id", "created_at", "updated_at",
                                                  "lead_time"})
    buf = io.StringIO()
    w = csvmod.DictWriter(buf, fieldnames=keys, quoting=csvmod.QUOTE_NONNUMERIC, delimiter=sep)  # CRLF
    w.writeheader()
    for r in rows:
        w.writerow({k: v if isinstance(v, (str, int, float)) else json.dumps(v) for k, v in r.items()})
    return buf.getvalue()


@pytest.mark.parametrize("sep,name", [(",", "export.csv"), ("\t", "export.tsv"), ("\t", "result.csv")])
def test_label_studio_csv_export_reads_as_json_min(tmp_path, sep, name):
    rows = _json_min_rows(_ls_rank_tasks())
    f = tmp_path / name
    f.write_text(_ls_csv(rows, sep), encoding="utf-8")
    assert guess_tool(f) == "label-studio"
    g = tmp_path / "min.json"
    g.write_text(json.dumps(rows), encoding="utf-8")
    for field in ("mood", "rank", "bins", "pw", "why"):
        a, b = read_export(f, field=field), read_export(g, field=field)
        assert a.kind == b.kind and a.report.counts == b.report.counts, field
        assert sorted(map(repr, a.annotations.to_frame()["value"])) == sorted(map(repr, b.annotations.to_frame()
                                                                                      ["value"])), field
    assert read_export(f).field == "mood"  # the items column (the task data's list, as JSON) is data, not a control
    res = runner.invoke(app, ["agree", str(f), "--field", "rank", "--json"])
    assert res.exit_code == 0, res.output
    assert any(n.startswith("CSV export: control 'rank' read as ranking") for n in
               json.loads(res.stdout)["import"]["report"]["notes"])


def test_label_studio_csv_spans_and_a_plain_table_stays_plain(tmp_path):
    rows = [{"text": DEPUTY, "id": 7, "role": [{"start": 4, "end": 18, "text": "deputy sheriff", "labels": ["ROLE"]}],
             "annotator": "a@x.org", "annotation_id": 1},
            {"text": DEPUTY, "id": 7, "role": [{"start": 4, "end": 10, "text": "deputy", "labels": ["ROLE"]}],
             "annotator": "b@x.org", "annotation_id": 2}]
    f = tmp_path / "export.csv"
    f.write_text(_ls_csv(rows), encoding="utf-8")
    imp = read_export(f)
    assert imp.kind == "spans" and {(s.coder, s.start, s.end) for s in imp.spans.spans} == {("a@x.org", 4, 18),
                                                                                            ("b@x.org", 4, 10)}
    plain = tmp_path / "plain.csv"
    plain.write_text("unit,annotator,value\n1,a,x\n1,b,y\n", encoding="utf-8")
    with pytest.raises(AccordError, match="cannot tell which tool"):
        guess_tool(plain)


# ------------------------------------------------------------------------------------------------------------------
# 15. Label Studio: an export whose only comparable control is per-region (a Repeater project of the SDK's tests:
# a rectangle region and a taxonomy result carrying the rectangle's id, https://labelstud.io/tags/taxonomy
# perRegion).  The refusal named the taxonomy among the controls as if it could be compared.

def test_label_studio_refusal_says_which_controls_are_per_region(tmp_path):
    box = {"x": 1, "y": 2, "width": 3, "height": 4, "rotation": 0}
    result = [{"id": "R1", "type": "rectanglelabels", "from_name": "box", "to_name": "img",
               "value": {**box, "rectanglelabels": ["Car"]}},
              {"id": "R1", "type": "taxonomy", "from_name": "kind", "to_name": "img",
               "value": {**box, "taxonomy": [["Vehicle", "Car"]]}}]
    f = tmp_path / "export.json"
    f.write_text(json.dumps([{"id": 1, "data": {"img": "a.jpg"}, "annotations": [
        {"id": 1, "completed_by": 1, "was_cancelled": False, "result": result}]}]), encoding="utf-8")
    with pytest.raises(AccordError, match=r"no control accord can compare .*the export has box \(rectanglelabels\), "
                                          r"kind \(taxonomy, per-region\)"):
        read_export(f, tool="label-studio")


# ------------------------------------------------------------------------------------------------------------------
# 16. doccano 1.8.4's export, run on a project (its data_export celery task, export_dataset): the zip holds one file
# per project member, admins included; every example goes into every member's file (unless "Export only approved
# documents"), the example's metadata keys at the top of each line, "Comments": [].  The JSON format writes each
# member's examples as one JSON array (<username>.json), which was not read.  A member who never annotated has
# every example with no label: read as having marked nothing, which was not said.

def _doccano_zip(tmp_path, ext):
    lines = {"alice": [["positive"], ["negative"], ["negative"]], "bob": [["positive"], ["positive"], []],
             "admin": [[], [], []]}
    texts = ["Acme was founded in 1998.", "Bob 😀 met Cy.", "Nothing here."]
    target = tmp_path / f"export_{ext}.zip"
    with zipfile.ZipFile(target, "w") as z:
        for who, labels in lines.items():
            rows = [{"id": 4 + i, "text": t, "src": i, "label": lab, "Comments": []}
                    for i, (t, lab) in enumerate(zip(texts, labels, strict=True))]
            body = (json.dumps(rows, ensure_ascii=False, separators=(",", ":")) if ext == "json" else
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
            z.writestr(f"{who}.{ext}", body)
    return target


@pytest.mark.parametrize("ext", ["jsonl", "json"])
def test_doccano_export_zip_as_doccano_writes_it(tmp_path, ext):
    f = _doccano_zip(tmp_path, ext)
    assert guess_tool(f) == "doccano"
    imp = read_export(f)
    assert imp.kind == "nominal" and imp.report.coders == ("admin", "alice", "bob")
    assert imp.report.counts["bob"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 0}
    (note,) = [n for n in imp.report.notes if "no label on any example" in n]
    assert note.startswith("1 annotator with no label on any example of their file: admin;")
    res = runner.invoke(app, ["agree", str(f), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    # alice and bob: positive/positive, negative/positive; the third has alice's answer alone
    assert out["n_pairable"] == 4 and out["alpha"] == pytest.approx(0.0)


# ------------------------------------------------------------------------------------------------------------------
# 17. Label Studio: a per-region TextArea beside a per-region Choices (https://labelstud.io/tags/textarea,
# perRegion: its result carries the id of the region it is about).  Read with attributes=True, the note said every
# per-region control was read as the spans' attributes, the text area too, which is counted and not read.

def test_label_studio_per_region_textarea_is_not_said_to_be_an_attribute(tmp_path):
    result = [_region(4, 18, "deputy sheriff", rid="s1"),
              {"id": "s1", "from_name": "sure", "to_name": "text", "type": "choices", "value": {"choices": ["yes"]}},
              {"id": "s1", "from_name": "why", "to_name": "text", "type": "textarea", "value": {"text": ["a title"]}}]
    f = tmp_path / "export.json"
    f.write_text(json.dumps([{"id": 7, "data": {"text": DEPUTY}, "annotations": [
        {"completed_by": 1, "was_cancelled": False, "result": result}]}]), encoding="utf-8")
    imp = read_export(f, tool="label-studio", attributes=True)
    assert imp.spans.spans[0].attributes == {"sure": "yes"}
    assert "per-region controls (answers about one span) read as the spans' attributes: sure" in imp.report.notes
    assert "per-region controls (answers about one span) not compared: why" in imp.report.notes
    assert imp.report.dropped_reasons() == {"per-region textarea 'why': about one span, not the task: not compared": 1}


# ------------------------------------------------------------------------------------------------------------------
# 18. Prodigy: a dataset saved by the review recipe (https://prodi.gy/docs/recipes#review): one task per input with
# the reviewer's answer and "versions", the annotators' answers it was made from, each with the "sessions" that gave
# it.  No real review dataset was found; the shape is the documentation's.  The versions were dropped unsaid.

def test_prodigy_review_dataset_says_the_versions_are_not_read(tmp_path):
    def task(h, reviewer, accept, versions):
        return {"text": f"t{h}", "_input_hash": h, "_task_hash": h + 100, "_view_id": "choice", "answer": "accept",
                "options": [{"id": "A", "text": "A"}, {"id": "B", "text": "B"}], "accept": accept,
                "_annotator_id": reviewer, "_session_id": reviewer,
                "versions": [{"accept": a, "answer": "accept", "sessions": s, "default": i == 0}
                             for i, (a, s) in enumerate(versions)]}
    rows = [task(1, "rev-ann", ["A"], [(["A"], ["ds-al", "ds-bo"])]),
            task(2, "rev-ann", ["B"], [(["A"], ["ds-al"]), (["B"], ["ds-bo"])]),
            task(1, "rev-cy", ["A"], [(["A"], ["ds-al", "ds-bo"])])]
    f = tmp_path / "review.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    imp = read_export(f, tool="prodigy")
    assert imp.report.coders == ("rev-ann", "rev-cy")
    assert any(n.startswith("3 tasks from Prodigy's review interface: read as the reviewer's answer") for n in
               imp.report.notes)


# ------------------------------------------------------------------------------------------------------------------
# 19. Label Studio's target storage (https://labelstud.io/guide/storage), seen on Label Studio 1.23's local-files
# export storage: by default one file per annotation, named by the annotation's id with no extension, the task
# nested under "task" (id, data; no annotations) and completed_by an object with id and email; with the task format,
# one "<task id>.json" per task, a task of the JSON export.  A folder of them was refused ("is a folder"), and an
# annotation file was "not a Label Studio export".

def _stored(aid, task_id, who, choice):
    return {"id": aid, "result": [{"id": "c", "from_name": "mood", "to_name": "text", "type": "choices",
                                   "value": {"choices": [choice]}}],
            "completed_by": {"id": who, "first_name": "", "last_name": "", "email": f"u{who}@example.org"},
            "task": {"id": task_id, "data": {"text": f"text {task_id}"}, "meta": {}, "inner_id": task_id},
            "was_cancelled": False, "ground_truth": False, "lead_time": 2.5}


def test_label_studio_target_storage_folder_of_annotations_or_tasks(tmp_path):
    folder = tmp_path / "target"
    folder.mkdir()
    answers = [(11, 1, 1, "pos"), (12, 1, 2, "neg"), (13, 2, 1, "neg"), (14, 2, 2, "neg"), (15, 3, 1, "pos")]
    for aid, task_id, who, choice in answers:
        (folder / str(aid)).write_text(json.dumps(_stored(aid, task_id, who, choice)), encoding="utf-8")
    (folder / ".DS_Store").write_bytes(b"\x00\x01")
    assert guess_tool(folder) == "label-studio"
    imp = read_export(folder)
    assert imp.field == "mood" and imp.report.n_items == 3
    assert imp.report.counts["u1@example.org"] == {"annotated": 3, "empty": 0, "skipped": 0, "unassigned": 0}
    assert imp.report.counts["u2@example.org"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 1}
    assert "target storage folder: 5 annotation files and 0 task files gathered into 3 tasks" in imp.report.notes
    one = read_export(folder / "12")  # one annotation file alone
    assert one.report.counts == {"u2@example.org": {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 0}}
    # the task format: <task id>.json, every annotation of the task; a task file and an annotation file both
    # holding annotation 11 read it once
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for task_id in (1, 2, 3):
        anns = [{k: v for k, v in _stored(a, t, w, c).items() if k != "task"} for a, t, w, c in answers if t == task_id]
        (tasks / f"{task_id}.json").write_text(json.dumps({"id": task_id, "data": {"text": f"text {task_id}"},
                                                           "annotations": anns, "predictions": []}), encoding="utf-8")
    (tasks / "11").write_text(json.dumps(_stored(11, 1, 1, "pos")), encoding="utf-8")
    both = read_export(tasks)
    assert both.report.counts == imp.report.counts
    assert "1 annotation held by two files (the same id) read once" in both.report.notes
    (tasks / "junk.json").write_text(json.dumps({"hello": 1}), encoding="utf-8")
    with pytest.raises(AccordError, match=r"junk.json: not a Label Studio task nor a stored annotation"):
        read_export(tasks, tool="label-studio")
