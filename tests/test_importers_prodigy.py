"""Prodigy importer on hand-written ``db-out`` JSONL in the documented task format.

Fixtures (tests/data/importers/prodigy/) follow https://prodi.gy/docs/api-interfaces (``ner_manual``:
``tokens`` and ``spans`` with character and inclusive token offsets; ``choice``: ``options`` and
``accept``; binary ``classification``: ``label`` and ``answer``) with the ``_input_hash``,
``_annotator_id`` / ``_session_id`` and ``answer`` keys ``db-out`` writes.  The first text has an emoji
before the spans: Prodigy's offsets are Python code points, read as they are.
"""

import json
from pathlib import Path

import pytest

from accord import AccordError
from accord.importers import _prodigy as prodigy
from accord.importers import guess_tool

DATA = Path(__file__).parent / "data" / "importers" / "prodigy"


def test_manual_spans_with_tokens_and_the_four_states():
    imp = prodigy.read(DATA / "ner.jsonl")
    assert imp.field == "spans" and imp.kind == "spans"
    sa = imp.spans
    got = {(s.document, s.coder, s.start, s.end, s.label) for s in sa.spans}
    assert got == {
        ("11", "news-alex", 10, 13, "PER"), ("11", "news-alex", 17, 22, "LOC"),
        ("11", "news-bea", 0, 3, "PER"), ("11", "news-bea", 10, 13, "PER"),
        ("14", "news-bea", 0, 3, "PER"),  # from token offsets only
    }
    assert sa.texts["11"][17:22] == "Paris"
    assert sa.tokens["11"][1] == (4, 5)  # the emoji token, in code points
    assert ("12", "news-alex") in sa.seen and ("12", "news-bea") not in sa.seen
    c = imp.report.counts
    assert c["news-alex"] == {"annotated": 1, "empty": 1, "skipped": 1, "unassigned": 1}
    assert c["news-bea"] == {"annotated": 2, "empty": 0, "skipped": 1, "unassigned": 1}
    assert any("rejected" in n for n in imp.report.notes)


def test_choice_is_nominal_and_ignore_is_skipped():
    imp = prodigy.read(DATA / "choice.jsonl")
    assert imp.field == "accept" and imp.kind == "nominal"
    c = imp.report.counts
    assert c["sent-alex"] == {"annotated": 2, "empty": 1, "skipped": 0, "unassigned": 1}
    assert c["sent-bea"] == {"annotated": 2, "empty": 0, "skipped": 2, "unassigned": 0}
    assert sorted(imp.annotations.values) == ["NEG", "NEU", "POS"]
    sets = prodigy.read(DATA / "choice.jsonl", multiple=True)
    assert sets.kind == "set" and frozenset() in set(sets.annotations.values)


def test_binary_answers_with_session_id_fallback():
    imp = prodigy.read(DATA / "binary.jsonl")
    assert imp.field == "answer"
    c = imp.report.counts
    assert c["cat-alex"] == {"annotated": 2, "empty": 0, "skipped": 1, "unassigned": 0}
    assert c["cat-bea"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 1}
    assert set(imp.annotations.values) == {"accept", "reject"}


def test_mixed_interfaces_need_a_field(tmp_path):
    f = tmp_path / "mixed.jsonl"
    f.write_text((DATA / "choice.jsonl").read_text() + (DATA / "binary.jsonl").read_text())
    with pytest.raises(AccordError, match="mixes accept \\(7 tasks\\), answer \\(5 tasks\\).*pass field="):
        prodigy.read(f)
    imp = prodigy.read(f, field="answer")
    assert imp.report.dropped_reasons() == {"a task of another interface (its answers are in field 'accept')": 7}


def _one(tmp_path, **change):
    task = json.loads((DATA / "ner.jsonl").read_text().splitlines()[0])
    task.update(change)
    f = tmp_path / "one.jsonl"
    f.write_text("\n" + json.dumps(task) + "\n")
    return f


def test_span_text_mismatch_names_line_record_field(tmp_path):
    f = _one(tmp_path, spans=[{"start": 17, "end": 22, "label": "LOC", "text": "Rome"}])
    where = "prodigy export .*line 2, record 11, annotator news-alex, field 'spans'.*Rome"
    with pytest.raises(AccordError, match=where):
        prodigy.read(f)


def test_offsets_outside_the_text_and_bad_tokens(tmp_path):
    with pytest.raises(AccordError, match="outside the text"):
        prodigy.read(_one(tmp_path, spans=[{"start": 17, "end": 90, "label": "LOC"}]))
    with pytest.raises(AccordError, match="disagree with token offsets"):
        prodigy.read(_one(tmp_path, spans=[{"start": 17, "end": 22, "token_start": 4, "token_end": 5, "label": "X"}]))
    with pytest.raises(AccordError, match="outside the 7 tokens"):
        prodigy.read(_one(tmp_path, spans=[{"token_start": 4, "token_end": 9, "label": "X"}]))


def test_no_annotator_and_other_tools(tmp_path):
    f = _one(tmp_path, _annotator_id=None, _session_id=None)
    with pytest.raises(AccordError, match="neither '_annotator_id' nor '_session_id'"):
        prodigy.read(f)
    g = tmp_path / "ls.jsonl"
    g.write_text(json.dumps({"id": 1, "data": {"text": "x"}, "annotations": []}) + "\n")
    with pytest.raises(AccordError, match="not a Prodigy db-out export"):
        prodigy.read(g)


def test_guess():
    assert guess_tool(DATA / "ner.jsonl") == "prodigy"


def test_blocks_with_choices_and_spans_offer_both_fields(tmp_path):
    base = {"text": "Ann \N{GRINNING FACE} runs", "_input_hash": 5, "_view_id": "blocks", "answer": "accept",
            "options": [{"id": "A", "text": "a"}, {"id": "B", "text": "b"}]}
    rows = [dict(base, accept=["A"], spans=[{"start": 0, "end": 3, "label": "PER"}], _annotator_id="x"),
            dict(base, accept=["B"], spans=[], _annotator_id="y")]
    f = tmp_path / "blocks.jsonl"
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    with pytest.raises(AccordError, match="mixes accept \\(2 tasks\\), spans \\(2 tasks\\)"):
        prodigy.read(f)
    assert sorted(prodigy.read(f, field="accept").annotations.values) == ["A", "B"]
    sp = prodigy.read(f, field="spans")
    assert [(s.coder, s.start, s.end) for s in sp.spans.spans] == [("x", 0, 3)]
    assert sp.report.counts["y"]["empty"] == 1


def _jsonl(path, rows):
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")


def test_folder_of_single_user_datasets_names_annotators_by_file(tmp_path):
    """One ``db-out`` per annotator (``prodigy db-out insults_alice > alice.jsonl``) from datasets of a single
    user: tasks carry neither _annotator_id nor _session_id, and older Prodigy writes no _view_id; a
    textcat.teach task has a top-level label beside "spans": [] (shape of the annotated textcat examples in
    explosion/prodigy-recipes, example-datasets/, commit 40b98023): a binary answer about the label."""
    folder = tmp_path / "insults"
    folder.mkdir()

    def task(i, answer, **extra):
        return {"text": f"{i} \N{SMILING FACE WITH SUNGLASSES} you are {i}", "meta": {"section": "AskReddit"},
                "label": "INSULT", "score": 0.7, "priority": 0.7, "spans": [], "_input_hash": 100 + i,
                "_task_hash": 200 + i, "answer": answer, **extra}

    _jsonl(folder / "alice.jsonl", [task(1, "accept"), task(2, "reject"), task(3, "ignore"), task(4, "accept")])
    _jsonl(folder / "bob.jsonl", [task(1, "accept"), task(2, "accept"), task(4, "reject")])
    _jsonl(folder / "cy.jsonl", [task(1, "accept", _session_id="insults-cyril")])  # a session names its annotator
    assert guess_tool(folder) == "prodigy"
    imp = prodigy.read(folder)
    assert imp.field == "answer" and imp.kind == "nominal"
    assert imp.report.counts["alice"] == {"annotated": 3, "empty": 0, "skipped": 1, "unassigned": 0}
    assert imp.report.counts["bob"] == {"annotated": 3, "empty": 0, "skipped": 0, "unassigned": 1}
    assert imp.report.counts["insults-cyril"] == {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 3}
    assert any("7 tasks name no annotator" in n for n in imp.report.notes)
    values = {(r.unit, r.coder): r.value for r in imp.annotations.to_frame().itertuples()}
    assert values[(102, "alice")] == "reject" and values[(102, "bob")] == "accept"


def test_folder_of_manual_span_files_and_errors_name_the_file(tmp_path):
    folder = tmp_path / "ner"
    folder.mkdir()
    text = "\N{WAVING HAND SIGN} Ana met Bo"
    toks = [{"text": w, "start": text.index(w), "end": text.index(w) + len(w), "id": i}
            for i, w in enumerate(["Ana", "met", "Bo"])]

    def task(spans, answer="accept"):
        return {"text": text, "tokens": toks, "spans": spans, "_input_hash": 7, "_task_hash": 8, "answer": answer}

    ana = {"start": 2, "end": 5, "token_start": 0, "token_end": 0, "label": "PER"}
    bo = {"start": 10, "end": 12, "token_start": 2, "token_end": 2, "label": "PER"}
    _jsonl(folder / "alice.jsonl", [task([ana, bo])])
    _jsonl(folder / "bob.jsonl", [task([ana])])
    imp = prodigy.read(folder)
    assert imp.field == "spans"
    assert {(s.coder, s.start, s.end) for s in imp.spans.spans} == {("alice", 2, 5), ("alice", 10, 12),
                                                                    ("bob", 2, 5)}
    _jsonl(folder / "bob.jsonl", [task([ana]), task([], answer="maybe")])
    with pytest.raises(AccordError, match=r"bob\.jsonl, line 2.*'answer' must be accept"):
        prodigy.read(folder)
    with pytest.raises(AccordError, match=r"alice\.jsonl, line 1.*neither '_annotator_id' nor '_session_id'"
                                          r".*folder of files"):
        prodigy.read(folder / "alice.jsonl")
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(AccordError, match="no .jsonl file"):
        prodigy.read(empty)
