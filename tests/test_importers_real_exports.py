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
