"""Free text, rankings and pairwise preferences read from Label Studio, Argilla and Prodigy (issue 32).

Every fixture is written here by hand from the tool's documented format:

- Label Studio JSON export (https://labelstud.io/guide/export#Label-Studio-JSON-format-of-annotated-tasks), with
  the regions of the ``TextArea`` tag (``"value": {"text": [lines]}``, https://labelstud.io/tags/textarea), the
  ``Ranker`` tag over a ``List`` (``"value": {"ranker": {<list name>: [item ids in the order given]}}``, buckets as
  one key each, https://labelstud.io/tags/ranker) and the ``Pairwise`` tag (``"value": {"selected": "left"}``,
  https://labelstud.io/tags/pairwise);
- Argilla 2.x ``dataset.to_disk`` (https://docs.argilla.io/latest/how_to_guides/import_export/): ``settings.json``
  with a ``text`` and a ``ranking`` question, ``records.json`` whose responses give the text, and the ranking as
  ``[{"value", "rank"}]`` (RankingQuestion: equal ranks tie,
  https://docs.argilla.io/latest/reference/argilla/settings/questions/);
- Prodigy ``db-out`` JSONL of the ``text_input`` interface, whose typed text sits under the task key ``field_id``
  (default ``user_input``, https://prodi.gy/docs/api-interfaces#text_input).
"""

from __future__ import annotations

import json

import pytest

from accord import AccordError, alpha
from accord.distances import ranking
from accord.importers import _argilla as argilla
from accord.importers import _labelstudio as labelstudio
from accord.importers import _prodigy as prodigy

# ----------------------------------------------------------------------------------------------- Label Studio


def _ls_task(tid, anns):
    return {"id": tid, "data": {"prompt": "Which answer is best?", "text1": "A", "text2": "B",
                                "items": [{"id": "blog", "title": "t"}, {"id": "mdn", "title": "t"},
                                          {"id": "wiki", "title": "t"}]},
            "annotations": [{"id": 100 * tid + k, "completed_by": who, "was_cancelled": False, "result": res}
                            for k, (who, res) in enumerate(anns)]}


def _choice(v):
    return {"id": "c", "from_name": "quality", "to_name": "text1", "type": "choices", "value": {"choices": [v]}}


def _note(*lines):
    return {"id": "n", "from_name": "note", "to_name": "text1", "type": "textarea", "value": {"text": list(lines)}}


def _rank(*ids):
    return {"id": "r", "from_name": "rank", "to_name": "results", "type": "ranker", "value": {"ranker": {"results":
                                                                                                      list(ids)}}}


def _pw(side):
    return {"id": "p", "from_name": "pw", "to_name": "text1,text2", "type": "pairwise", "value": {"selected": side}}


@pytest.fixture
def ls_export(tmp_path):
    tasks = [
        _ls_task(1, [(1, [_choice("good"), _note("fine answer"), _rank("mdn", "blog", "wiki"), _pw("left")]),
                     (2, [_choice("good"), _note("fine", "answer"), _rank("mdn", "wiki", "blog"), _pw("left")])]),
        _ls_task(2, [(1, [_choice("bad"), _note("wrong"), _rank("wiki", "mdn", "blog"), _pw("right")]),
                     (2, [_choice("bad"), _rank("wiki", "mdn", "blog"), _pw("left")])]),
    ]
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks))
    return f


def test_label_studio_guesses_only_the_choices_and_counts_the_rest(ls_export):
    imp = labelstudio.read(ls_export)
    assert imp.field == "quality" and imp.kind == "nominal"
    assert imp.report.dropped_reasons() == {
        "textarea 'note': free text, read only when named as the field": 3,
        "ranker 'rank': a ranking, read only when named as the field": 4,
        "pairwise 'pw': a preference, read only when named as the field": 4,
    }
    # named, each is read and the others are counted
    assert labelstudio.read(ls_export, field="rank").report.dropped_reasons() == {
        "textarea 'note': free text, read only when named as the field": 3,
        "pairwise 'pw': a preference, read only when named as the field": 4,
    }


def test_label_studio_textarea_ranker_pairwise(ls_export):
    text = labelstudio.read(ls_export, field="note")
    assert text.kind == "text" and text.default_distance == "levenshtein"
    assert sorted(text.annotations.values.tolist()) == ["fine\nanswer", "fine answer", "wrong"]
    assert text.report.counts["2"] == {"annotated": 1, "empty": 1, "skipped": 0, "unassigned": 0}
    ranked = labelstudio.read(ls_export, field="rank")
    assert ranked.kind == "ranking" and ranked.default_distance == "kendall"
    assert ranking(["mdn", "blog", "wiki"]) in set(ranked.annotations.values.tolist())
    # d(mdn > blog > wiki, mdn > wiki > blog) = 1/3: D_o = 2/3 / 4, D_e = ... as the definition gives
    assert alpha(ranked.annotations, distance="kendall").alpha == pytest.approx(1 - (2 / 3 / 4) / (
        2 * (1 * 1 * 1 / 3 + 1 * 2 * 2 / 3 + 1 * 2 * 1 / 3) / 12))
    pw = labelstudio.read(ls_export, field="pw")
    assert pw.kind == "nominal" and sorted(pw.annotations.values.tolist()) == ["first", "second"]


def test_label_studio_ranker_with_buckets_is_a_set_and_repeats_are_refused(tmp_path):
    # buckets are groups, not an order: read as (bucket, item) pairs (tests/test_importers_real_exports_tools.py, 9)
    bucket = {"id": "r", "from_name": "rank", "to_name": "results", "type": "ranker",
              "value": {"ranker": {"relevant": ["mdn"], "_": ["blog", "wiki"]}}}
    f = tmp_path / "b.json"
    f.write_text(json.dumps([_ls_task(1, [(1, [bucket])])]))
    imp = labelstudio.read(f, field="rank")
    assert imp.kind == "set" and imp.annotations.values.tolist() == [frozenset({("relevant", "mdn")})]
    f.write_text(json.dumps([_ls_task(1, [(1, [_rank("mdn", "blog", "mdn")])])]))
    with pytest.raises(AccordError, match="names item 'mdn' twice"):
        labelstudio.read(f, field="rank")
    f.write_text(json.dumps([_ls_task(1, [(1, [_pw("middle")])])]))
    with pytest.raises(AccordError, match="must be 'left' or 'right'"):
        labelstudio.read(f, field="pw")


# ----------------------------------------------------------------------------------------------- Argilla


def _argilla_dataset(tmp_path, records):
    folder = tmp_path / "ds"
    folder.mkdir()
    settings = {"guidelines": None, "questions": [
        {"name": "label", "settings": {"type": "label_selection", "options": [{"value": "yes"}, {"value": "no"}]}},
        {"name": "comment", "settings": {"type": "text"}},
        {"name": "order", "settings": {"type": "ranking", "options": [{"value": "reply-1"}, {"value": "reply-2"},
                                                                     {"value": "reply-3"}]}},
    ], "fields": [{"name": "text", "settings": {"type": "text"}}]}
    (folder / "settings.json").write_text(json.dumps(settings))
    (folder / "records.json").write_text(json.dumps(records))
    return folder


def _rec(rid, responses):
    return {"id": rid, "status": "completed", "fields": {"text": "prompt"}, "metadata": {}, "suggestions": {},
            "vectors": {}, "responses": responses}


def _ranks(**r):
    return [{"value": k.replace("_", "-"), "rank": v} for k, v in r.items()]


def test_argilla_text_and_ranking_questions(tmp_path):
    folder = _argilla_dataset(tmp_path, [
        _rec("r1", {"label": [{"value": "yes", "user_id": "u1", "status": "submitted"},
                              {"value": "yes", "user_id": "u2", "status": "submitted"}],
                    "comment": [{"value": "too long", "user_id": "u1", "status": "submitted"},
                                {"value": "too long!", "user_id": "u2", "status": "submitted"}],
                    "order": [{"value": _ranks(reply_1=1, reply_2=2, reply_3=3), "user_id": "u1",
                               "status": "submitted"},
                              {"value": _ranks(reply_1=1, reply_2=1, reply_3=2), "user_id": "u2",
                               "status": "submitted"}]}),
        _rec("r2", {"label": [{"value": "no", "user_id": "u1", "status": "submitted"}],
                    "order": [{"value": _ranks(reply_1=3, reply_2=2, reply_3=1), "user_id": "u1",
                               "status": "submitted"},
                              {"value": _ranks(reply_1=3, reply_2=2, reply_3=1), "user_id": "u2",
                               "status": "submitted"}]}),
    ])
    guessed = argilla.read(folder)
    assert guessed.field == "label"
    assert guessed.report.dropped_reasons() == {
        "text question 'comment': answers read only when named as the field": 2,
        "ranking question 'order': answers read only when named as the field": 4}
    text = argilla.read(folder, field="comment")
    assert text.kind == "text" and sorted(text.annotations.values.tolist()) == ["too long", "too long!"]
    order = argilla.read(folder, field="order")
    assert order.kind == "ranking"
    assert ranking([["reply-1", "reply-2"], "reply-3"]) in set(order.annotations.values.tolist())  # a tie
    assert alpha(order.annotations, distance="kendall").alpha == pytest.approx(
        1 - (2 * (1 / 6) / 4) / (2 * (1 * 1 * 1 / 6 + 1 * 2 * 1 + 1 * 2 * (5 / 6)) / 12))


def test_argilla_ranking_with_a_repeated_option_names_the_record_and_user(tmp_path):
    folder = _argilla_dataset(tmp_path, [
        _rec("r1", {"order": [{"value": [{"value": "reply-1", "rank": 1}, {"value": "reply-1", "rank": 2}],
                               "user_id": "u1", "status": "submitted"}]})])
    with pytest.raises(AccordError, match="r1.*u1.*option 'reply-1' twice|u1.*r1.*option 'reply-1' twice"):
        argilla.read(folder, field="order")


# ----------------------------------------------------------------------------------------------- Prodigy


def test_prodigy_text_input_field(tmp_path):
    rows = [
        {"text": "Translate: chat", "user_input": "cat", "_input_hash": 1, "_task_hash": 11, "answer": "accept",
         "_view_id": "text_input", "_annotator_id": "s-ann"},
        {"text": "Translate: chat", "user_input": "a cat", "_input_hash": 1, "_task_hash": 11, "answer": "accept",
         "_view_id": "text_input", "_annotator_id": "s-bob"},
        {"text": "Translate: chien", "user_input": "dog", "_input_hash": 2, "_task_hash": 12, "answer": "accept",
         "_view_id": "text_input", "_annotator_id": "s-ann"},
        {"text": "Translate: chien", "user_input": "", "_input_hash": 2, "_task_hash": 12, "answer": "accept",
         "_view_id": "text_input", "_annotator_id": "s-bob"},
        {"text": "Translate: oiseau", "user_input": "bird", "_input_hash": 3, "_task_hash": 13, "answer": "ignore",
         "_view_id": "text_input", "_annotator_id": "s-bob"},
    ]
    f = tmp_path / "db.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows))
    imp = prodigy.read(f, field="user_input")
    assert imp.kind == "text" and imp.field == "user_input"
    assert sorted(imp.annotations.values.tolist()) == ["a cat", "cat", "dog"]
    assert imp.report.counts["s-bob"] == {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 0}
    with pytest.raises(AccordError, match="or the task key holding typed text.*got 'comment'"):
        prodigy.read(f, field="comment")
    # read without a field, the binary answers are compared, and the typed text is said to be there
    binary = prodigy.read(f)
    assert binary.field == "answer"
    assert any("typed text" in n and "user_input" in n for n in binary.report.notes)


def test_label_studio_json_min_text():
    """JSON-MIN (https://labelstud.io/guide/export#JSON-MIN) writes a textarea's lines as {"text": [...]} and a
    one-line text bare, like a single choice: the control named reads as text, and ``kind="text"`` reads bare
    strings as text (the shipped fixture of tests/test_importers_labelstudio.py)."""
    from pathlib import Path

    min_export = Path(__file__).parent / "data" / "importers" / "labelstudio" / "export_min.json"
    text = labelstudio.read(min_export, field="comment")
    assert text.kind == "text" and text.annotations.values.tolist() == ["lovely\ncity"]
    assert text.report.dropped_reasons() == {}
    bare = labelstudio.read(min_export, field="sentiment", kind="text")
    assert bare.kind == "text" and bare.default_distance == "levenshtein"


def test_rankings_and_taxonomies_on_the_command_line(ls_export, tmp_path):
    """``accord import`` writes a ranking as JSON lists of tie groups (no Python repr); ``accord agree`` takes the
    new distances by name, the taxonomy distance on Label Studio's sets of paths too."""
    from typer.testing import CliRunner

    from accord.cli import app

    runner = CliRunner()
    out = tmp_path / "long.csv"
    res = runner.invoke(app, ["import", str(ls_export), "--from", "label-studio", "--field", "rank", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert '"[[""mdn""], [""blog""], [""wiki""]]"' in out.read_text()
    assert "frozenset" not in out.read_text()
    res = runner.invoke(app, ["agree", str(ls_export), "--from", "label-studio", "--field", "rank", "--distance",
                              "footrule", "--coefficient", "alpha", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout[res.stdout.index("{"):])["distance"] == "footrule"
    from pathlib import Path

    full = Path(__file__).parent / "data" / "importers" / "labelstudio" / "export.json"
    res = runner.invoke(app, ["agree", str(full), "--from", "label-studio", "--field", "topic", "--distance",
                              "taxonomy", "--coefficient", "alpha", "--json"])
    assert res.exit_code == 0, res.output
    # {Places/City, Feelings} against {Places/City}: nodes {Places, Places/City, Feelings} and two of them shared
    assert json.loads(res.stdout[res.stdout.index("{"):])["observed_disagreement"] == pytest.approx(1 / 3)


def test_argilla_flattened_records_ranking_and_text(tmp_path):
    """``records.to_list(flatten=True)`` saved as JSON lines: ``<q>.responses`` lists each user's value; without
    settings.json a ranking is told by its ``{"value", "rank"}`` shape, and a text question is named by
    ``question_type`` (its strings look like labels)."""
    rows = [{"id": "r1", "text": "prompt",
             "order.responses": [_ranks(reply_1=1, reply_2=2), _ranks(reply_1=2, reply_2=1)],
             "order.responses.users": ["u1", "u2"], "order.responses.status": ["submitted", "submitted"],
             "note.responses": ["short", "shorter"], "note.responses.users": ["u1", "u2"],
             "note.responses.status": ["submitted", "submitted"]}]
    f = tmp_path / "flat.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows))
    order = argilla.read(f, field="order")
    assert order.kind == "ranking"
    assert set(order.annotations.values.tolist()) == {ranking(["reply-1", "reply-2"]), ranking(["reply-2", "reply-1"])}
    note = argilla.read(f, field="note", question_type="text")
    assert note.kind == "text" and sorted(note.annotations.values.tolist()) == ["short", "shorter"]
