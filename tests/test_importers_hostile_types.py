"""Issue 29 in the importers: JSON value types checked against each tool's format before use, ids and labels
in one form (surrounding whitespace removed and counted, ``1``, ``1.0`` and ``"1"`` one id), repeated headers,
byte order marks and bytes that are not UTF-8.

The exports are written by hand from each tool's documented format (the importers' module docstrings cite
it); each test mutates one value of an intact export, as the mutation campaign of issue 29 did.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import read_export

runner = CliRunner()

# --- intact exports -------------------------------------------------------------------------------------------

def _ls_task(tid: Any, who: Any, choice: Any, rid: str = "r1") -> dict[str, Any]:
    return {"id": tid, "data": {"text": "Fine."}, "annotations": [
        {"completed_by": who, "was_cancelled": False, "result": [
            {"id": rid, "from_name": "sentiment", "to_name": "text", "type": "choices",
             "value": {"choices": [choice]}}]}]}


def _label_studio() -> list[dict[str, Any]]:
    t1 = _ls_task(1, 7, "Positive")
    t1["annotations"].append(_ls_task(1, 8, "Negative")["annotations"][0])
    return [t1, _ls_task(2, 7, "Negative")]


def _prodigy() -> list[dict[str, Any]]:
    return [{"text": "hi", "_input_hash": h, "_task_hash": 2, "answer": "accept", "_view_id": "choice",
             "options": [{"id": "A", "text": "A"}, {"id": "B", "text": "B"}], "accept": [a], "_annotator_id": who}
            for h, who, a in [(1, "s-al", "A"), (1, "s-bo", "B"), (2, "s-al", "B")]]


def _doccano() -> list[dict[str, Any]]:
    return [{"id": 1, "text": "Fine.", "label": ["pos"]}, {"id": 2, "text": "Bad.", "label": ["neg"]}]


def _argilla() -> list[dict[str, Any]]:
    return [{"id": f"r{k}", "status": "completed", "fields": {"text": "ok"}, "responses": {"label": [
        {"value": v1, "user_id": "u1", "status": "submitted"},
        {"value": v2, "user_id": "u2", "status": "submitted"}]}} for k, (v1, v2) in enumerate([("y", "n"), ("y", "y")])]


def _write_json(tmp_path: Path, name: str, obj: Any) -> Path:
    f = tmp_path / name
    f.write_text(json.dumps(obj, indent=1))
    return f


def _write_jsonl(tmp_path: Path, name: str, rows: list[Any]) -> Path:
    f = tmp_path / name
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return f


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    obj = copy.deepcopy(obj)
    target = obj
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return obj


# --- 1. JSON value types ----------------------------------------------------------------------------------------

LS_MUTANTS = [
    ((0, "id"), [1], "id", "an id"),
    ((0, "id"), {"a": 1}, "id", "an id"),
    ((0, "annotations", 0, "result", 0, "id"), [1], "annotations[0].result[0].id", "an id"),
    ((0, "annotations", 0, "result", 0, "value", "choices"), True, "annotations[0].result[0].value.choices",
     "a list"),
    ((0, "annotations", 0, "result", 0, "value", "choices"), 1.5, "annotations[0].result[0].value.choices",
     "a list"),
    ((0, "annotations", 0, "completed_by"), [7], "annotations[0].completed_by", "an id"),
    ((0, "annotations"), True, "annotations", "a list"),
    ((0, "annotations", 0, "result", 0), "x", "annotations[0].result[0]", "an object"),
]


@pytest.mark.parametrize(("path", "value", "field", "expected"), LS_MUTANTS)
def test_label_studio_value_types(tmp_path, path, value, field, expected):
    f = _write_json(tmp_path, "export.json", _set(_label_studio(), path, value))
    with pytest.raises(AccordError, match=rf"label-studio export \S+export\.json, line \d+, record \d+, field "
                                          rf"{re.escape(repr(field))}: expected {expected}.*, found "):
        read_export(f, tool="label-studio")


def test_label_studio_json_min_labels_that_are_not_a_list(tmp_path):
    rows = [{"text": "Anna", "id": 1, "ents": [{"start": 0, "end": 4, "text": "Anna", "labels": lab}],
             "annotator": who, "annotation_id": k} for k, (who, lab) in enumerate([(1, ["PER"]), (2, "PER")])]
    f = _write_json(tmp_path, "min.json", rows)
    with pytest.raises(AccordError, match=r"field 'ents\[0\]\.labels': expected a list of labels .*found the text"):
        read_export(f, tool="label-studio")


PRODIGY_MUTANTS = [
    ((0, "accept"), True, "accept", "a list"),
    ((0, "accept"), 1.5, "accept", "a list"),
    ((0, "accept"), [["A"]], "accept[0]", "an id"),
    ((0, "_input_hash"), [1], "_input_hash", "an id"),
    ((0, "_input_hash"), {"h": 1}, "_input_hash", "an id"),
    ((0, "_annotator_id"), {"a": 1}, "_annotator_id", "an id"),
    ((0, "config"), [1], "config", "an object"),
    ((0, "spans"), True, "spans", "a list"),
]


@pytest.mark.parametrize(("path", "value", "field", "expected"), PRODIGY_MUTANTS)
def test_prodigy_value_types(tmp_path, path, value, field, expected):
    f = _write_jsonl(tmp_path, "db.jsonl", _set(_prodigy(), path, value))
    with pytest.raises(AccordError, match=rf"prodigy export \S+db\.jsonl, line 1, .*field {re.escape(repr(field))}: "
                                          rf"expected {expected}.*, found "):
        read_export(f, tool="prodigy")


def test_prodigy_span_label_that_is_a_list(tmp_path):
    rows = [{"text": "Anna", "_input_hash": 1, "_task_hash": 1, "answer": "accept", "_view_id": "ner_manual",
             "spans": [{"start": 0, "end": 4, "label": lab}], "_annotator_id": who}
            for who, lab in [("a", "PER"), ("b", ["PER"])]]
    f = _write_jsonl(tmp_path, "ner.jsonl", rows)
    with pytest.raises(AccordError, match=r"line 2, .*field 'spans\[0\]\.label': expected a label"):
        read_export(f, tool="prodigy")


DOCCANO_MUTANTS = [
    ((0, "label"), True, "label", "a list"),
    ((0, "label"), 1.5, "label", "a list"),
    ((0, "label"), [["pos"]], "label[0]", "a span"),
    ((0, "id"), {"a": 1}, "id", "an id"),
    ((0, "label"), [{"label": ["pos"], "start_offset": 0, "end_offset": 1}], "label[0].label", "a label"),
]


@pytest.mark.parametrize(("path", "value", "field", "expected"), DOCCANO_MUTANTS)
def test_doccano_value_types(tmp_path, path, value, field, expected):
    d = tmp_path / "exp"
    d.mkdir()
    _write_jsonl(d, "ann.jsonl", _set(_doccano(), path, value))
    _write_jsonl(d, "bob.jsonl", _doccano())
    with pytest.raises(AccordError, match=rf"doccano export \S+ann\.jsonl, line 1, .*field {re.escape(repr(field))}: "
                                          rf"expected {expected}.*, found "):
        read_export(d, tool="doccano")


ARGILLA_MUTANTS = [
    ((0, "responses", "label", 0, "status"), {"s": 1}, "responses.label[0].status", "text"),
    ((0, "responses", "label", 0, "user_id"), ["u1"], "responses.label[0].user_id", "an id"),
    ((0, "responses", "label"), True, "responses.label", "a list"),
    ((0, "responses", "label", 0), "x", "responses.label[0]", "an object"),
    ((0, "id"), ["r0"], "id", "an id"),
    ((0, "status"), {"s": 1}, "status", "text"),
]


@pytest.mark.parametrize(("path", "value", "field", "expected"), ARGILLA_MUTANTS)
def test_argilla_value_types(tmp_path, path, value, field, expected):
    f = _write_json(tmp_path, "records.json", _set(_argilla(), path, value))
    with pytest.raises(AccordError, match=rf"argilla export \S+records\.json, line \d+, .*field "
                                          rf"{re.escape(repr(field))}: expected {expected}.*, found "):
        read_export(f, tool="argilla")


def test_argilla_multi_label_answer_that_is_not_a_list_of_labels(tmp_path):
    recs = _set(_set(_argilla(), (0, "responses", "label", 0, "value"), ["a", ["b"]]),
                (1, "responses", "label", 0, "value"), ["a"])
    f = _write_json(tmp_path, "records.json", recs)
    with pytest.raises(AccordError, match=r"field 'label\[1\]': expected a label"):
        read_export(f, tool="argilla", field="label", question_type="multi_label_selection")


def test_a_type_error_is_one_line_and_exit_2_in_the_cli(tmp_path):
    f = _write_jsonl(tmp_path, "db.jsonl", _set(_prodigy(), (0, "accept"), True))
    res = runner.invoke(app, ["agree", str(f), "--from", "prodigy"])
    assert res.exit_code == 2, res.output
    message = res.stderr.strip()
    assert "\n" not in message and "Traceback" not in message
    assert "db.jsonl, line 1" in message and "field 'accept'" in message and "found true" in message


# --- 2 and 3. ids and labels: one form ------------------------------------------------------------------------

def test_label_studio_spaces_and_number_types_of_ids_and_labels(tmp_path):
    tasks = [_ls_task(1, 7, "Positive"), _ls_task("1", " 8", "Negative "), _ls_task(2.0, "7 ", " Negative"),
             _ls_task(" 2", 8, "Negative")]
    tasks = [{**tasks[0], "annotations": tasks[0]["annotations"] + tasks[1]["annotations"]},
             {**tasks[2], "annotations": tasks[2]["annotations"] + tasks[3]["annotations"]}]
    tasks[1]["annotations"][0]["completed_by"] = "7 "
    imp = read_export(_write_json(tmp_path, "export.json", tasks), tool="label-studio")
    assert imp.report.coders == ("7", "8")
    assert imp.annotations.units.tolist() == [1, 2]
    assert sorted(imp.annotations.values.tolist()) == ["Negative", "Positive"]
    # " 8", "Negative ", "7 ", " Negative"
    assert imp.report.stripped == 4
    assert imp.report.to_dict()["stripped"] == 4
    assert "4 ids or labels read without surrounding whitespace" in imp.report.summary().splitlines()[0]


def test_prodigy_annotator_and_input_hash_in_one_form(tmp_path):
    rows = _prodigy()
    rows[1]["_annotator_id"] = "s-bo "
    rows.append({**rows[0], "_input_hash": "2", "_annotator_id": " s-bo", "accept": ["A "]})
    imp = read_export(_write_jsonl(tmp_path, "db.jsonl", rows), tool="prodigy")
    assert imp.report.coders == ("s-al", "s-bo")
    assert imp.annotations.n_units == 2
    assert sorted(imp.annotations.values.tolist()) == ["A", "B"]
    assert imp.report.stripped == 3


def test_doccano_ids_across_files_and_labels(tmp_path):
    d = tmp_path / "exp"
    d.mkdir()
    _write_jsonl(d, "ann.jsonl", [{"id": 1, "text": "Fine.", "label": ["pos "]}])
    _write_jsonl(d, "bob.jsonl", [{"id": "1", "text": "Fine.", "label": ["pos"]}])
    imp = read_export(d, tool="doccano")
    assert imp.annotations.n_units == 1
    assert imp.annotations.values.tolist() == ["pos"]
    assert imp.report.stripped == 1


def test_argilla_users_in_one_form(tmp_path):
    recs = _set(_argilla(), (1, "responses", "label", 0, "user_id"), "u1 ")
    recs = _set(recs, (1, "responses", "label", 1, "value"), " y")
    imp = read_export(_write_json(tmp_path, "records.json", recs), tool="argilla")
    assert imp.report.coders == ("u1", "u2")
    assert sorted(imp.annotations.values.tolist()) == ["n", "y"]
    assert imp.report.stripped == 2


def test_plain_csv_trailing_space_is_not_a_fourth_coder(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("unit,coder,value\nu1,ann1,pos\nu1,ann2,pos\nu1,ann3,neg\nu2,ann1 ,pos \nu2,ann2,neg\nu2, ann3,neg\n")
    imp = read_export(f, tool="csv")
    assert imp.report.coders == ("ann1", "ann2", "ann3")
    assert sorted(imp.annotations.values.tolist()) == ["neg", "pos"]
    assert imp.report.stripped == 3


def test_plain_csv_quoted_file_strips_as_the_plain_one(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text('unit,coder,value\n"u1","ann1","pos"\n"u1","ann1 ","pos"\n')
    with pytest.raises(AccordError, match=r"coder ann1 has two judgments of unit u1 \(lines 2 and 3\)"):
        read_export(f, tool="csv")


def test_mturk_worker_ids_and_answers_in_one_form(tmp_path):
    f = tmp_path / "batch.csv"
    f.write_text("HITId,AssignmentId,WorkerId,AssignmentStatus,Answer.s\n"
                 "H1,A1,W1,Approved,yes\nH1,A2,W2 ,Approved,yes \nH2,A3, W1,Approved,no\n")
    imp = read_export(f, tool="mturk")
    assert imp.report.coders == ("W1", "W2")
    assert sorted(imp.annotations.values.tolist()) == ["no", "yes"]
    assert imp.report.stripped == 3


# --- 4. repeated headers ----------------------------------------------------------------------------------------

def test_plain_csv_repeated_column_it_reads_is_refused(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("unit,coder,value,value\nu1,a,x,y\n")
    with pytest.raises(AccordError, match=r"line 1, field 'value': the header names 'value' twice, a column"):
        read_export(f, tool="csv")


def test_plain_csv_repeated_column_it_does_not_read_is_counted(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("unit,coder,value,note,note\nu1,a,x,n1,n2\nu1,b,y,n3,n4\n")
    imp = read_export(f, tool="csv")
    assert imp.annotations.n_entries == 2
    assert any("'note' (twice)" in n for n in imp.report.notes)


def test_mturk_repeated_input_column_is_counted_and_a_repeated_answer_refused(tmp_path):
    f = tmp_path / "batch.csv"
    f.write_text("HITId,AssignmentId,WorkerId,AssignmentStatus,Input.t,Input.t,Answer.s\n"
                 "H1,A1,W1,Approved,a,a,yes\nH1,A2,W2,Approved,a,a,no\n")
    imp = read_export(f, tool="mturk")
    assert any("'Input.t' (twice)" in n for n in imp.report.notes)
    with pytest.raises(AccordError, match=r"field 'Input.t': the header names 'Input.t' twice"):
        read_export(f, tool="mturk", unit="Input.t")
    f.write_text("HITId,AssignmentId,WorkerId,AssignmentStatus,Answer.s,Answer.s\nH1,A1,W1,Approved,yes,no\n")
    with pytest.raises(AccordError, match=r"field 'Answer.s': the header names 'Answer.s' twice"):
        read_export(f, tool="mturk")


# --- 5. byte order marks and bytes that are not UTF-8 ----------------------------------------------------------

def test_a_bom_does_not_defeat_guessing_label_studio(tmp_path):
    f = tmp_path / "export.json"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(_label_studio()).encode())
    imp = read_export(f)
    assert imp.tool == "label-studio"
    assert any("byte order mark" in n for n in imp.report.notes)


def test_a_bom_does_not_defeat_guessing_prodigy(tmp_path):
    f = tmp_path / "db.jsonl"
    f.write_bytes(b"\xef\xbb\xbf" + "".join(json.dumps(r) + "\n" for r in _prodigy()).encode())
    imp = read_export(f)
    assert imp.tool == "prodigy"
    assert any("byte order mark" in n for n in imp.report.notes)


def test_a_bom_in_a_folder_export_is_counted(tmp_path):
    d = tmp_path / "exp"
    d.mkdir()
    (d / "ann.jsonl").write_bytes(b"\xef\xbb\xbf" + json.dumps(_doccano()[0]).encode() + b"\n")
    _write_jsonl(d, "bob.jsonl", _doccano())
    imp = read_export(d)
    assert imp.tool == "doccano"
    assert any("1 file begins with a UTF-8 byte order mark" in n and "ann.jsonl" in n for n in imp.report.notes)


@pytest.mark.parametrize(("tool", "name", "content"), [
    ("prodigy", "db.jsonl", "".join(json.dumps(r) + "\n" for r in _prodigy())),
    ("label-studio", "export.json", json.dumps(_label_studio(), indent=1)),
    ("argilla", "records.json", json.dumps(_argilla(), indent=1)),
])
def test_bytes_that_are_not_utf8_name_the_file_and_line(tmp_path, tool, name, content):
    lines = content.split("\n")
    lines[2] = lines[2].replace('"', '"\xe9', 1)
    f = tmp_path / name
    f.write_bytes("\n".join(lines).encode("latin-1"))
    with pytest.raises(AccordError, match=rf"{tool} export \S+{re.escape(name)}, line 3: not UTF-8 text"):
        read_export(f, tool=tool)


def test_doccano_bytes_that_are_not_utf8_name_the_line(tmp_path):
    d = tmp_path / "exp"
    d.mkdir()
    (d / "ann.jsonl").write_bytes(b'{"id": 1, "text": "Fine.", "label": ["pos"]}\n{"id": 2, "text": "Caf\xe9"}\n')
    with pytest.raises(AccordError, match=r"doccano export \S+ann\.jsonl, line 2: not UTF-8 text"):
        read_export(d, tool="doccano")


def test_inception_labels_lose_surrounding_whitespace(tmp_path):
    tsv = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"
           "#Text=Bob met Ann .\n1-1\t0-3\tBob\t{a}\n1-2\t4-7\tmet\t_\n1-3\t8-11\tAnn\t{b}\n1-4\t12-13\t.\t_\n")
    for user, (a, b) in {"alice": ("PER", "PER"), "bob": ("PER ", " PER")}.items():
        f = tmp_path / "exp" / "annotation" / "doc1.txt" / f"{user}.tsv"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(tsv.format(a=a, b=b))
    imp = read_export(tmp_path / "exp", tool="inception")
    assert {s.label for s in imp.spans.spans} == {"PER"}
    assert imp.report.stripped == 2


def test_inception_project_state_of_the_wrong_type(tmp_path):
    d = tmp_path / "exp"
    (d / "annotation" / "doc1.txt").mkdir(parents=True)
    (d / "annotation" / "doc1.txt" / "alice.tsv").write_text(
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"
        "#Text=Bob .\n1-1\t0-3\tBob\tPER\n1-2\t4-5\t.\t_\n")
    (d / "exportedproject.json").write_text(json.dumps(
        {"source_documents": [], "annotation_documents": [{"name": "doc1.txt", "user": "alice", "state": {"s": 1}}]}))
    with pytest.raises(AccordError, match=r"field 'annotation_documents\[0\]\.state': expected text, found an object"):
        read_export(d, tool="inception")


# --- every value of the bundled exports swapped for a value of another JSON type ---------------------------------

FIXTURES = Path(__file__).parent / "data" / "importers"
SWAPS = (True, 1.5, [1], {"a": 1})


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:2]):
            out += _paths(v, (*prefix, i))
    return out


@pytest.mark.parametrize(("name", "tool", "options"), [
    ("labelstudio/export.json", "label-studio", {"field": "sentiment"}),
    ("labelstudio/export.json", "label-studio", {"field": "ner"}),
    ("labelstudio/export_min.json", "label-studio", {}),
    ("prodigy/choice.jsonl", "prodigy", {}),
    ("prodigy/ner.jsonl", "prodigy", {}),
    ("doccano/old.jsonl", "doccano", {}),
    ("argilla/records_flat.jsonl", "argilla", {}),
    ("argilla/dataset/records.json", "argilla", {}),
])
def test_no_value_of_another_type_is_a_traceback(tmp_path, name, tool, options):
    """The mutation campaign of issue 29 in small: each value of the first two records swapped for a value
    of each other JSON type is read or refused with an AccordError, never a traceback (before the validation
    layers, 483 of 8,481 such runs over these files raised TypeError or AttributeError)."""
    src = FIXTURES / name
    jsonl = src.suffix == ".jsonl"
    text = src.read_text(encoding="utf-8")
    records = [json.loads(line) for line in text.splitlines() if line.strip()] if jsonl else json.loads(text)
    target = tmp_path / src.name
    for path in _paths(records[:2]):
        for value in SWAPS:
            mutant = _set(records, path, value)
            target.write_text("\n".join(map(json.dumps, mutant)) if jsonl else json.dumps(mutant), encoding="utf-8")
            try:
                read_export(target, tool=tool, **options)
            except AccordError:
                pass


def test_inception_agreement_annotators_and_labels_in_one_form(tmp_path):
    ne = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
    f = tmp_path / "diff.csv"
    f.write_text("Type,Collection,Document,Layer,Feature,Position,Flags,ann1 ,bob\n"
                 f'SpanPosition,p,doc1.txt,{ne},value,0-4 [Zoë],"COMPLETE, USED",PER ,PER\n')
    imp = read_export(f, tool="inception-agreement")
    assert imp.report.coders == ("ann1", "bob")
    assert imp.annotations.values.tolist() == ["PER"]
    assert imp.report.stripped == 2


@pytest.mark.parametrize("text", [["Anna"], {"a": 1}, 5, True])
def test_label_studio_span_text_of_another_type(tmp_path, text):
    tasks = [{"id": 1, "data": {"text": "Anna met Bob"}, "annotations": [
        {"completed_by": who, "result": [{"id": "s", "from_name": "ner", "to_name": "text", "type": "labels",
                                          "value": {"start": 0, "end": 4, "text": t, "labels": ["PER"]}}]}
        for who, t in [(1, "Anna"), (2, text)]]}]
    f = _write_json(tmp_path, "export.json", tasks)
    with pytest.raises(AccordError, match=r"line \d+, record 1, annotator 2, field 'ner\.text': expected text, found"):
        read_export(f, tool="label-studio")
