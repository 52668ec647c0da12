"""What real exports from public research projects showed the importers did wrong (issue 18), each reproduced on
a hand-written file of the same shape; every test names the tool behaviour it reproduces."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.importers import guess_tool, read_export

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "importers"

# ------------------------------------------------------------------------------------------------------------------
# 1. INCEpTION: a user's file named after INCEpTION's temporary file.
#
# inception-schema AnnotationDocumentExporter.exportAdditionalFormat (commit 55ba8ba6, lines 323-340) writes
# annotation/<document>/<user>.<ext> when userRepository.isValidUsername(user), and otherwise the name of the file
# the format's writer returned; UimaReaderWriterFormatSupport_ImplBase.write (inception-api-formats, lines 146-149)
# returns File.createTempFile(rightPad(<user>, 3, "_"), "." + ext): the user name padded to three characters with
# "_" and a random unsigned long.  SecurityPropertiesImpl.DEFAULT_MINIMUM_USERNAME_LENGTH is 4, so "yes" and "sm"
# are such users; exportedproject.json's annotation_documents name them (ExportedAnnotationDocument.user).

TSV_HEAD = "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"


def _tsv(*labels: str) -> str:
    """One sentence "Ana met Bob ." with the tokens' NamedEntity values."""
    tokens = [("Ana", 0, 3), ("met", 4, 7), ("Bob", 8, 11), (".", 12, 13)]
    lines = [f"1-{i + 1}\t{b}-{e}\t{t}\t{lab}" for i, ((t, b, e), lab) in enumerate(zip(tokens, labels, strict=True))]
    return TSV_HEAD + "#Text=Ana met Bob .\n" + "\n".join(lines) + "\n"


def _project_json(users: list[tuple[str, str, str]]) -> str:
    docs = sorted({d for d, _, _ in users})
    return json.dumps({
        "name": "deputies", "slug": "deputies", "mode": "annotation",
        "source_documents": [{"name": d, "format": "text", "state": "ANNOTATION_IN_PROGRESS"} for d in docs],
        "annotation_documents": [{"name": d, "user": u, "state": s} for d, u, s in users],
    }, indent=2)


def _zip(tmp_path, files: dict[str, str], name: str = "project.zip") -> Path:
    target = tmp_path / name
    with zipfile.ZipFile(target, "w") as z:
        for n, content in files.items():
            z.writestr(n, content)
    return target


STATES = [("2001.tsv", "yes", "FINISHED"), ("2001.tsv", "sm", "FINISHED"), ("2001.tsv", "laura", "FINISHED"),
          ("2002.tsv", "yes", "FINISHED"), ("2002.tsv", "sm", "FINISHED")]
FILES = {
    "exportedproject.json": _project_json(STATES),
    "annotation/2001.tsv/yes8090299544098498525.tsv": _tsv("PER", "_", "PER", "_"),
    "annotation/2001.tsv/sm_4343257511917352145.tsv": _tsv("PER", "_", "_", "_"),
    "annotation/2001.tsv/laura.tsv": _tsv("PER", "_", "PER", "_"),  # a valid user name: <user>.tsv, as before
    "annotation/2001.tsv/INITIAL_CAS.tsv": _tsv("_", "_", "_", "_"),
    "annotation/2002.tsv/yes1174485220474958839.tsv": _tsv("_", "_", "PER", "_"),
    "annotation/2002.tsv/sm_907718322690144627.tsv": _tsv("_", "_", "PER", "_"),
}


def test_inception_users_from_temporary_file_names_and_exportedproject(tmp_path):
    imp = read_export(_zip(tmp_path, FILES), tool="inception")
    assert imp.report.coders == ("laura", "sm", "yes")  # not one annotator per file
    assert imp.report.counts["yes"] == {"annotated": 2, "empty": 0, "skipped": 0, "unassigned": 0}
    assert imp.report.counts["laura"] == {"annotated": 1, "empty": 0, "skipped": 0, "unassigned": 1}
    assert not [d for d in imp.report.dropped if d.reason != "system user, not an annotator"]
    note = next(n for n in imp.report.notes if "temporary file name" in n)
    assert "4 annotation files" in note and "the users exportedproject.json names" in note
    assert "sm (2 files, e.g. sm_4343257511917352145.tsv)" in note
    assert "yes (2 files, e.g. yes8090299544098498525.tsv)" in note
    got = {(s.document, s.coder, s.start, s.end) for s in imp.spans.spans}
    assert got == {("2001.tsv", "yes", 0, 3), ("2001.tsv", "yes", 8, 11), ("2001.tsv", "sm", 0, 3),
                   ("2001.tsv", "laura", 0, 3), ("2001.tsv", "laura", 8, 11), ("2002.tsv", "yes", 8, 11),
                   ("2002.tsv", "sm", 8, 11)}
    # span F1 is the users', not the files': yes and sm share 2 of yes's 3 spans
    res = runner.invoke(app, ["spans", str(tmp_path / "project.zip"), "--json"])
    assert res.exit_code == 0, res.output
    pairs = {(p["coder_a"], p["coder_b"]): p for p in json.loads(res.stdout)["f1"]["pairs"]}
    assert pairs["sm", "yes"]["micro"]["f1"] == pytest.approx(2 * 2 / (2 + 3))


def test_inception_temporary_names_without_exportedproject_are_read_from_the_name(tmp_path):
    files = {k: v for k, v in FILES.items() if k != "exportedproject.json"}
    imp = read_export(_zip(tmp_path, files), tool="inception")
    assert imp.report.coders == ("laura", "sm", "yes")
    note = next(n for n in imp.report.notes if "temporary file name" in n)
    assert "users read from the names" in note and "check them" in note


def test_inception_temporary_name_of_nobody_the_project_names_is_dropped_and_said(tmp_path):
    files = {**FILES, "annotation/2002.tsv/bo_5550013344556677889.tsv": _tsv("PER", "_", "_", "_")}
    imp = read_export(_zip(tmp_path, files), tool="inception")
    assert "bo" not in imp.report.coders and "bo_5550013344556677889" not in imp.report.coders
    (drop,) = [d for d in imp.report.dropped if "temporary name" in d.reason]
    assert drop.record == "2002.tsv/bo_5550013344556677889" and "no user of exportedproject.json" in drop.reason


def test_inception_temporary_name_fitting_two_users_or_a_user_twice_is_an_error(tmp_path):
    # "ab" and "ab_" both pad to "ab_": a file of each in one document cannot be told apart
    states = [("d.txt", "ab", "FINISHED"), ("d.txt", "ab_", "FINISHED")]
    files = {"exportedproject.json": _project_json(states),
             "annotation/d.txt/ab_1234567890123456789.tsv": _tsv("PER", "_", "_", "_")}
    with pytest.raises(AccordError, match=r"annotation/d.txt/ab_1234567890123456789: .*fits several users.*ab, ab_"):
        read_export(_zip(tmp_path, files), tool="inception")
    files = {**FILES, "annotation/2001.tsv/yes.tsv": _tsv("PER", "_", "_", "_")}
    with pytest.raises(AccordError, match=r"a second annotation file of user 'yes' for document '2001.tsv'"):
        read_export(_zip(tmp_path, files, "twice.zip"), tool="inception")


# ------------------------------------------------------------------------------------------------------------------
# 2. Label Studio: region texts that differ from the document only in whitespace, and repeated regions.
#
# The JSON export's labels region is {"start", "end", "text", "labels"} (https://labelstud.io/guide/task_format);
# "text" is the browser's selection, which may carry a space the offsets do not, or write a run of spaces as one
# (https://github.com/HumanSignal/label-studio/issues/3078: "Berlin,  Germany" at the offsets, "Berlin, Germany"
# as the text).  A region can be repeated within one annotation (the same offsets and label twice in "result").

DEPUTY = "The deputy sheriff met the  county clerk."


def _region(start, end, text, label="ROLE", rid=None):
    return {"id": rid or f"r{start}", "from_name": "role", "to_name": "text", "type": "labels",
            "value": {"start": start, "end": end, "text": text, "labels": [label]}}


def _ls(tmp_path, regions_a, regions_b, name="export.json"):
    tasks = [{"id": 7, "data": {"text": DEPUTY}, "annotations": [
        {"completed_by": 1, "was_cancelled": False, "result": regions_a},
        {"completed_by": 2, "was_cancelled": False, "result": regions_b}]}]
    f = tmp_path / name
    f.write_text(json.dumps(tasks), encoding="utf-8")
    return f


def test_label_studio_whitespace_only_text_differences_are_read_and_said(tmp_path):
    f = _ls(tmp_path,
            [_region(4, 18, " deputy sheriff"), _region(23, 40, "the county clerk")],  # leading space; run of two
            [_region(4, 18, "deputy sheriff "), _region(28, 40, "county clerk")])  # trailing space; exact
    imp = read_export(f, tool="label-studio")
    assert {(s.coder, s.start, s.end) for s in imp.spans.spans} == {("1", 4, 18), ("1", 23, 40), ("2", 4, 18),
                                                                    ("2", 28, 40)}
    note = next(n for n in imp.report.notes if "only in whitespace" in n)
    assert note.startswith("3 spans whose text differs from the document's only in whitespace")
    assert "' deputy sheriff' for 'deputy sheriff'" in note


def test_label_studio_real_text_mismatch_is_still_refused(tmp_path):
    f = _ls(tmp_path, [_region(4, 18, "deputy sheriffs")], [])
    with pytest.raises(AccordError, match=r"record 7, annotator 1, field 'role': span \[4, 18\) .*'deputy sheriff'.*"
                                          r"'deputy sheriffs'"):
        read_export(f, tool="label-studio")


def test_label_studio_repeated_region_is_read_once_and_said(tmp_path):
    f = _ls(tmp_path, [_region(4, 18, "deputy sheriff", rid="a"), _region(4, 18, "deputy sheriff", rid="b"),
                       _region(4, 10, "deputy", label="ROLE")],
            [_region(4, 18, "deputy sheriff")])
    imp = read_export(f, tool="label-studio")
    assert sorted((s.coder, s.start, s.end) for s in imp.spans.spans) == [("1", 4, 10), ("1", 4, 18), ("2", 4, 18)]
    assert any(n.startswith("1 region repeats another region of the same annotation") and "7/1" in n
               for n in imp.report.notes)


def test_label_studio_json_min_repeated_region_and_whitespace(tmp_path):
    # JSON-MIN (https://labelstud.io/guide/export#JSON-MIN): one row per annotation, the control's regions bare
    rows = [{"text": DEPUTY, "id": 7, "role": [{"start": 4, "end": 18, "text": "deputy sheriff ", "labels": ["ROLE"]},
                                                {"start": 4, "end": 18, "text": "deputy sheriff", "labels": ["ROLE"]}],
             "annotator": "a@x.org", "annotation_id": 1}]
    f = tmp_path / "min.json"
    f.write_text(json.dumps(rows), encoding="utf-8")
    imp = read_export(f, tool="label-studio")
    assert len(imp.spans.spans) == 1
    assert any(n.startswith("1 span whose text differs") for n in imp.report.notes)
    assert any(n.startswith("1 region repeats another region") for n in imp.report.notes)


# ------------------------------------------------------------------------------------------------------------------
# 3, 4. MTurk: the batch results CSV the requester site downloads quotes every field; a crowd-classifier answer is
# one column, Answer.<name>.label (the Crowd HTML Elements reference, crowd-classifier: "the output ... is an object
# with a label").

MTURK = (
    '"HITId","HITTypeId","AssignmentId","WorkerId","AssignmentStatus","Input.text","Answer.sentiment.label",'
    '"Approve","Reject"\n'
    '"3H1","T1","3A1","A1W","Approved","great game","Positive"\n'
    '"3H1","T1","3A2","A2W","Approved","great game","Positive"\n'
    '"3H2","T1","3A3","A1W","Approved","awful ref","Negative"\n'
    '"3H2","T1","3A4","A2W","Submitted","awful ref","Neutral"\n'
    '"3H3","T1","3A5","A1W","Approved","rain","Neutral"\n'
    '"3H3","T1","3A6","A2W","Approved","rain","Neutral"\n'
)


def test_mturk_batch_is_recognised_from_its_header(tmp_path):
    f = tmp_path / "Batch_4711_batch_results.csv"
    f.write_text(MTURK, encoding="utf-8")
    assert guess_tool(f) == "mturk"
    res = runner.invoke(app, ["agree", str(f), "--json"])
    assert res.exit_code == 0, res.output
    assert "with --from mturk (guessed from the file" in res.stderr
    out = json.loads(res.stdout)
    assert out["import"]["tool"] == "mturk" and out["n_units"] == 3
    page = tmp_path / "page.html"
    rep = runner.invoke(app, ["report", str(f), "-o", str(page), "--bootstrap", "0"])
    assert rep.exit_code == 0, rep.output
    # a plain table with a HITId column but no MTurk answers stays a plain table
    plain = tmp_path / "plain.csv"
    plain.write_text("unit,coder,value,HITId,WorkerId\n1,a,x,h,w\n1,b,x,h,w\n", encoding="utf-8")
    with pytest.raises(AccordError, match="cannot tell which tool"):
        guess_tool(plain)


@pytest.mark.parametrize("field", ["sentiment", "Answer.sentiment", "Answer.sentiment.label"])
def test_mturk_field_by_short_or_column_name(tmp_path, field):
    f = tmp_path / "Batch_4711_batch_results.csv"
    f.write_text(MTURK, encoding="utf-8")
    res = runner.invoke(app, ["agree", str(f), "--field", field, "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["import"]["field"] == "sentiment"


def test_mturk_option_column_as_field_points_to_the_answer(tmp_path):
    f = tmp_path / "b.csv"
    f.write_text("HITId,AssignmentId,WorkerId,Answer.topic.sport,Answer.topic.politics\n"
                 "H1,A1,W1,true,false\nH1,A2,W2,true,false\n", encoding="utf-8")
    assert read_export(f, tool="mturk", field="Answer.topic").field == "topic"
    with pytest.raises(AccordError, match=r"column 'Answer.topic.sport' is one option of the answer 'topic'.*"
                                          r"pass field='topic'"):
        read_export(f, tool="mturk", field="Answer.topic.sport")


def test_argilla_flattened_column_name_as_field():
    # records.to_list(flatten=True) writes <question>.responses (the importers' fixture, see its test module)
    imp = read_export(DATA / "argilla" / "records_flat.jsonl", tool="argilla", field="sentiment.responses")
    assert imp.field == "sentiment"


# ------------------------------------------------------------------------------------------------------------------
# 5. The field that fits the command is guessed: a Label Studio project with one choice and one labels control
# (the "Text Classification" and "Named Entity Recognition" templates together, https://labelstud.io/templates).

def _choice_and_spans(tmp_path, extra_choice=False):
    def ann(who, choice, start, end, text):
        result = [{"from_name": "sentiment", "to_name": "text", "type": "choices", "value": {"choices": [choice]}},
                  _region(start, end, text)]
        if extra_choice:
            result.append({"from_name": "tone", "to_name": "text", "type": "choices", "value": {"choices": ["dry"]}})
        return {"completed_by": who, "was_cancelled": False, "result": result}

    tasks = [{"id": 1, "data": {"text": DEPUTY}, "annotations": [ann(1, "neutral", 4, 18, "deputy sheriff"),
                                                                 ann(2, "neutral", 4, 10, "deputy")]},
             {"id": 2, "data": {"text": DEPUTY}, "annotations": [ann(1, "bad", 4, 18, "deputy sheriff"),
                                                                 ann(2, "good", 4, 18, "deputy sheriff")]}]
    f = tmp_path / ("two.json" if extra_choice else "one.json")
    f.write_text(json.dumps(tasks), encoding="utf-8")
    return f


def test_the_one_fitting_field_is_guessed_and_said(tmp_path):
    f = _choice_and_spans(tmp_path)
    res = runner.invoke(app, ["agree", str(f), "--json"])
    assert res.exit_code == 0, res.output
    assert "accord: field 'sentiment' guessed: the only categorical field" in res.stderr
    assert json.loads(res.stdout)["import"]["field"] == "sentiment"
    res = runner.invoke(app, ["spans", str(f), "--json"])
    assert res.exit_code == 0, res.output
    assert "accord: field 'role' guessed: the only span field" in res.stderr
    assert json.loads(res.stdout)["n_spans"] == 4
    # import reads any kind: still ambiguous, the controls listed
    res = runner.invoke(app, ["import", str(f), "-o", str(tmp_path / "x.csv")])
    assert res.exit_code == 2
    assert "2 controls: role (labels), sentiment (choices)" in res.stderr


def test_several_fitting_fields_are_still_refused_with_the_candidates(tmp_path):
    f = _choice_and_spans(tmp_path, extra_choice=True)
    res = runner.invoke(app, ["agree", str(f)])
    assert res.exit_code == 2
    assert "(2 of them hold categorical values, not spans: sentiment, tone)" in res.stderr
    assert runner.invoke(app, ["spans", str(f), "--json"]).exit_code == 0  # one span control: still guessed


# ------------------------------------------------------------------------------------------------------------------
# 6. One set of importer options for import, agree, spans and report.

@pytest.mark.parametrize("command", ["import", "agree", "spans", "report"])
def test_every_command_that_reads_an_export_has_the_importer_options(command):
    res = runner.invoke(app, [command, "--help"], terminal_width=200)
    assert res.exit_code == 0
    for flag in ("--from", "--field", "--sheet", "--offsets", "--option"):
        assert flag in res.stdout, (command, flag)


def test_spans_takes_offsets_and_options_as_import_does(tmp_path):
    # doccano's per-annotator JSONL (doccano 1.x export, see test_importers_doccano): the emoji is two UTF-16 units
    folder = tmp_path / "dc"
    folder.mkdir()
    for who, span in (("alice", [5, 8, "PER"]), ("bob", [5, 8, "PER"])):
        (folder / f"{who}.jsonl").write_text(json.dumps({"id": 1, "text": "Hi 😀 Ana", "label": [span]}) + "\n",
                                             encoding="utf-8")
    res = runner.invoke(app, ["spans", str(folder), "--from", "doccano", "--offsets", "codepoints", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["f1"]["pairs"][0]["micro"]["f1"] == 1.0
    res = runner.invoke(app, ["spans", str(folder), "--from", "doccano", "--option", "offsets=codepoints", "--json"])
    assert res.exit_code == 0, res.output
    bad = runner.invoke(app, ["spans", str(folder), "--from", "doccano", "--option", "drafts=true"])
    assert bad.exit_code == 2 and "the doccano importer's options are" in bad.stderr
    page = tmp_path / "p.html"
    rep = runner.invoke(app, ["report", str(folder), "--from", "doccano", "--offsets", "codepoints", "-o", str(page),
                              "--bootstrap", "0"])
    assert rep.exit_code == 0, rep.output


# ------------------------------------------------------------------------------------------------------------------
# 7. No "None" in messages; a suggested command keeps every flag the user gave.

def test_no_none_in_messages_and_suggestions_keep_the_flags(tmp_path):
    # brat reads spans without a field (brat standoff, https://brat.nlplab.org/standoff.html)
    root = tmp_path / "round1"
    for who in ("alice", "bob"):
        (root / who).mkdir(parents=True)
        (root / who / "d1.txt").write_text("Ana met Bob.", encoding="utf-8")
        (root / who / "d1.ann").write_text("T1\tPER 0 3\tAna\n", encoding="utf-8")
    out = tmp_path / "spans.csv"
    res = runner.invoke(app, ["import", str(root), "--from", "brat", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f"wrote {out} (spans)" in res.stderr and "None" not in res.stderr
    res = runner.invoke(app, ["agree", str(root), "--from", "brat"])
    assert res.exit_code == 2 and "None" not in res.stderr
    assert f"this export holds spans; measure span agreement with accord spans {root} --from brat" in res.stderr
    ls = _choice_and_spans(tmp_path)
    res = runner.invoke(app, ["agree", str(ls), "--from", "label-studio", "--field", "role", "--option",
                              "text_key=text"])
    assert res.exit_code == 2
    assert (f"accord spans {ls} --from label-studio --field role --option text_key=text" in res.stderr), res.stderr
    res = runner.invoke(app, ["spans", str(ls), "--field", "sentiment", "--option", "multiple=false"])
    assert res.exit_code == 2
    assert (f"accord agree {ls} --from label-studio --field sentiment --option multiple=false" in res.stderr), \
        res.stderr


# ------------------------------------------------------------------------------------------------------------------
# 8. A span JSON-lines file with a text column is not doccano's, and long values are cut in messages.

def test_span_jsonl_with_text_is_not_taken_for_doccano(tmp_path):
    long_text = "word " * 2000
    f = tmp_path / "spans.jsonl"
    f.write_text(json.dumps({"doc": "d1", "annotator": "a", "start": 0, "end": 4, "label": "PER",
                             "text": long_text}) + "\n", encoding="utf-8")
    with pytest.raises(AccordError, match="cannot tell which tool wrote this export"):
        guess_tool(f)
    # doccano's own shapes are still recognised (doccano backend/data_export/pipeline examples)
    seq = tmp_path / "alice.jsonl"
    seq.write_text(json.dumps({"id": 1, "text": "EU rejects it", "label": [[0, 2, "ORG"]]}) + "\n", encoding="utf-8")
    assert guess_tool(seq) == "doccano"
    ent = tmp_path / "bob.jsonl"
    ent.write_text(json.dumps({"id": 1, "text": "EU", "entities": [{"id": 3, "label": "ORG", "start_offset": 0,
                                                                     "end_offset": 2}], "relations": []}) + "\n",
                   encoding="utf-8")
    assert guess_tool(ent) == "doccano"


def test_long_values_are_cut_in_messages(tmp_path):
    # doccano keys an example without an id by its text (see the importer): a bad span names that record
    long_text = "word " * 2000
    f = tmp_path / "alice.jsonl"
    f.write_text(json.dumps({"text": long_text, "label": [[0, 20000, "PER"]]}) + "\n", encoding="utf-8")
    with pytest.raises(AccordError) as err:
        read_export(f, tool="doccano")
    msg = str(err.value)
    assert len(msg) < 400, msg
    assert "…(10000 characters)" in msg and "lies outside the text" in msg
    res = runner.invoke(app, ["import", str(f), "--from", "doccano", "-o", str(tmp_path / "x.csv")])
    assert res.exit_code == 2 and len(res.stderr) < 400


def test_quote_helper():
    from accord.importers._common import quote

    assert quote("PER") == "'PER'"
    assert quote("é" * 61) == repr("é" * 60) + "…(61 characters)"
    assert quote(list(range(100))).endswith("characters)")


def test_import_of_a_guessed_field_writes_the_table(tmp_path):
    f = _choice_and_spans(tmp_path)
    out = tmp_path / "s.csv"
    res = runner.invoke(app, ["import", str(f), "--field", "role", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert f"wrote {out} (spans of field 'role')" in res.stderr
    assert len(pd.read_csv(out)) == 4


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
    found = {x.name: x.kind for x in __import__("accord.importers", fromlist=["layers"]).layers(
        ls_rank_export, tool="label-studio").layers}
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
# unquoted (QUOTE_NONNUMERIC).  They were read as a plain table, or refused with --from label-studio.

def _ls_csv(rows, sep=","):
    import csv as csvmod
    import io

    keys = sorted({k for r in rows for k in r} | {"annotator", "annotation_id", "created_at", "updated_at",
                                                  "lead_time"})
    buf = io.StringIO()
    w = csvmod.DictWriter(buf, fieldnames=keys, quoting=csvmod.QUOTE_NONNUMERIC, delimiter=sep, lineterminator="\n")
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
