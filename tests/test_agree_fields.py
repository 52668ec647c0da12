"""``accord agree --field all``: every field of an export, each measured as ``accord agree --field NAME``.

The Label Studio export is written by hand from the documented JSON export format
(https://labelstud.io/guide/export#JSON: tasks with ``annotations``, each with ``completed_by`` and its
``result`` regions: ``choices`` as ``{"choices": [...]}``, ``rating`` as ``{"rating": n}``, ``labels`` as
``{"start", "end", "text", "labels"}``), as tests/test_importers_labelstudio.py's fixtures are.
"""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from typer.testing import CliRunner

from accord import AccordError
from accord.cli import app
from accord.engines import AgreementByField, agree_fields, agree_file
from accord.importers import ImportOptions

runner = CliRunner()

#: (task, annotator) -> mood, topic, stars, the span of "Paris" labelled or not
_ROWS = {
    (1, 1): ("pos", "travel", 5, True), (1, 2): ("pos", "travel", 4, True), (1, 3): ("pos", "food", 5, False),
    (2, 1): ("neg", "food", 2, False), (2, 2): ("neg", "food", 1, False), (2, 3): ("pos", "food", 2, False),
    (3, 1): ("neg", "travel", 3, True), (3, 2): ("pos", "travel", 3, True), (3, 3): ("neg", "travel", 4, True),
    (4, 1): ("pos", "food", 4, False), (4, 2): ("pos", "food", 5, False),
}


def _export(tmp_path):
    tasks = []
    for task in (1, 2, 3, 4):
        annotations = []
        for (t, who), (mood, topic, stars, span) in _ROWS.items():
            if t != task:
                continue
            result = [
                {"from_name": "mood", "to_name": "text", "type": "choices", "value": {"choices": [mood]}},
                {"from_name": "topic", "to_name": "text", "type": "choices", "value": {"choices": [topic]}},
                {"from_name": "stars", "to_name": "text", "type": "rating", "value": {"rating": stars}},
            ]
            if span:
                result.append({"from_name": "ner", "to_name": "text", "type": "labels",
                               "value": {"start": 0, "end": 5, "text": "Paris", "labels": ["LOC"]}})
            annotations.append({"id": 10 * task + who, "completed_by": who, "was_cancelled": False,
                                "result": result})
        tasks.append({"id": task, "data": {"text": "Paris is lovely."}, "annotations": annotations})
    f = tmp_path / "export.json"
    f.write_text(json.dumps(tasks))
    return f


def test_each_field_gives_the_numbers_of_its_own_run(tmp_path):
    f = _export(tmp_path)
    res = agree_fields(f, "all", importer=ImportOptions(tool="label-studio"))
    assert isinstance(res, AgreementByField)
    assert list(res.fields) == ["mood", "stars", "topic"]
    assert res.kinds == {"mood": "nominal", "stars": "ordinal", "topic": "nominal"}
    for name, got in res.fields.items():
        alone = agree_file(f, "all", importer=ImportOptions(tool="label-studio", field=name))
        assert got.distance.name == alone.distance.name
        assert list(got.results) == list(alone.results)
        assert got.to_dict() == alone.to_dict()
    assert res.fields["stars"].distance.name == "ordinal"  # each field's own default distance


def test_alpha_of_each_field_by_hand(tmp_path):
    """mood, nominal (Krippendorff 2011's coincidence counts): units {pos,pos,pos}, {neg,neg,pos}, {neg,pos,neg},
    {pos,pos}; n = 11 (pos 7, neg 4); the two mixed units hold 2 * 2 / (3 - 1) = 2 disagreeing pairs each:
    Do = 4/11, De = 2 * 7 * 4 / (11 * 10) = 56/110, alpha = 1 - 40/56 = 2/7."""
    res = agree_fields(_export(tmp_path), importer=ImportOptions(tool="label-studio"))
    assert res.fields["mood"].results["alpha"].alpha == pytest.approx(2 / 7)


def test_a_field_of_spans_is_listed_with_its_reason(tmp_path):
    f = _export(tmp_path)
    res = agree_fields(f, importer=ImportOptions(tool="label-studio"))
    [ner] = [x for x in res.not_measured if x.field == "ner"]
    assert ner.kind == "spans"
    assert "spans" in ner.reason and "accord spans" in ner.reason and "--field ner" in ner.reason
    assert ner.command is not None and ner.command.startswith("accord spans")
    entries = {e["field"]: e for e in res.to_dict()["fields"]}
    assert entries["ner"]["measured"] is False and "spans" in entries["ner"]["reason"]
    assert entries["mood"]["measured"] is True and "alpha" in entries["mood"]["agreement"]


def test_frame_has_one_row_per_field_and_coefficient(tmp_path):
    res = agree_fields(_export(tmp_path), "all", importer=ImportOptions(tool="label-studio"))
    frame = res.to_frame()
    measured = frame[frame["coefficient"].notna()]
    assert len(measured) == sum(len(r.results) for r in res.fields.values())
    row = measured[(measured["field"] == "mood") & (measured["coefficient"] == "alpha")].iloc[0]
    assert row["value"] == pytest.approx(res.fields["mood"].results["alpha"].alpha)
    [ner] = frame[frame["field"] == "ner"].itertuples(index=False)
    assert pd.isna(ner.coefficient) and math.isnan(ner.value) and "spans" in ner.reason


def test_one_scale_for_every_field_is_refused(tmp_path):
    with pytest.raises(AccordError, match="own default distance: not with distance"):
        agree_fields(_export(tmp_path), distance="interval", importer=ImportOptions(tool="label-studio"))


def test_cli_json_gives_each_field_the_json_of_its_own_run(tmp_path):
    f = str(_export(tmp_path))
    out = runner.invoke(app, ["agree", f, "--from", "label-studio", "--field", "all", "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    assert got["tool"] == "label-studio"
    by_name = {e["field"]: e for e in got["fields"]}
    for name in ("mood", "topic", "stars"):
        alone = runner.invoke(app, ["agree", f, "--from", "label-studio", "--field", name, "--json"])
        assert by_name[name]["agreement"] == json.loads(alone.stdout)
    assert by_name["ner"]["measured"] is False and "accord spans" in by_name["ner"]["reason"]


def test_cli_table_has_a_field_column_and_says_what_is_not_measured(tmp_path):
    out = runner.invoke(app, ["agree", str(_export(tmp_path)), "--from", "label-studio", "--field", "all"],
                        env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "field" in out.stdout and "mood" in out.stdout and "stars" in out.stdout and "topic" in out.stdout
    assert "not measured: ner (spans)" in out.stdout


def test_cli_refuses_a_distance_for_every_field(tmp_path):
    out = runner.invoke(app, ["agree", str(_export(tmp_path)), "--from", "label-studio", "--field", "all",
                              "--distance", "interval"])
    assert out.exit_code == 2
    assert "--field all measures each field with its own default distance: not with --distance" in out.output


def test_argilla_dataset_every_question(tmp_path):
    """tests/data/importers/argilla/dataset/ (hand-written from Argilla 2.x's ``dataset.to_disk`` layout, see
    tests/test_importers_argilla.py): each question as ``accord agree --field NAME``; the span question listed
    with its command, and questions answered by one annotator only listed with the reason."""
    from pathlib import Path

    dataset = Path(__file__).parent / "data" / "importers" / "argilla" / "dataset"
    res = agree_fields(dataset, importer=ImportOptions(tool="argilla"))
    assert list(res.fields) == ["quality", "sentiment", "topics"]
    for name, got in res.fields.items():
        alone = agree_file(dataset, importer=ImportOptions(tool="argilla", field=name))
        assert got.to_dict() == alone.to_dict()
    left = {x.field: x for x in res.not_measured}
    assert left["places"].kind == "spans" and "accord spans" in left["places"].reason
    assert "at least 2 coders" in left["comment"].reason and "at least 2 coders" in left["order"].reason


def test_a_plain_table_is_refused(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n")
    out = runner.invoke(app, ["agree", str(f), "--field", "all"])
    assert out.exit_code == 2
    assert "--field all measures every field of an annotation tool's export (with --from)" in out.output


def test_report_has_each_fields_sections_and_what_is_not_measured(tmp_path):
    from accord.reporting._files import report_files

    f = _export(tmp_path)
    run = report_files([f], output=tmp_path / "all.html", importer=ImportOptions(tool="label-studio", field="all"),
                       bootstrap=0)
    rep = run.report
    titles = [s.title for s in rep.sections]
    for name in ("mood", "stars", "topic"):
        assert any(t.startswith(f"{name}: ") for t in titles)
        alone = report_files([f], output=tmp_path / f"{name}.html", bootstrap=0,
                             importer=ImportOptions(tool="label-studio", field=name)).report
        got = [h for h in rep.headline if h.label.startswith(f"{name}: ")]
        assert [h.value for h in got] == [h.value for h in alone.headline]
    assert len({s.id for s in rep.sections}) == len(rep.sections)
    [left] = [s for s in rep.sections if s.id == "not-measured"]
    assert [row[:2] for row in left.tables[0].rows] == [("ner", "spans")]
    assert "accord spans" in left.tables[0].rows[0][3]
    assert rep.summary["not_measured"][0]["field"] == "ner"
    html = (tmp_path / "all.html").read_text()
    assert "Not measured here" in html and "mood: " in html


def test_report_refuses_a_distance_for_every_field(tmp_path):
    out = runner.invoke(app, ["report", str(_export(tmp_path)), "--from", "label-studio", "--field", "all",
                              "--distance", "ordinal", "-o", str(tmp_path / "r.html")])
    assert out.exit_code == 2
    assert "--field all measures each field with its own default distance: not with --distance" in out.output


def test_prodigy_exports_of_one_field(tmp_path):
    """tests/data/importers/prodigy/ (hand-written ``db-out`` JSONL, see tests/test_importers_prodigy.py): a choice
    export's one field is measured as ``accord agree`` measures it; an ``ner_manual`` export has nothing
    ``accord agree`` measures, and says so."""
    from pathlib import Path

    prodigy = Path(__file__).parent / "data" / "importers" / "prodigy"
    res = agree_fields(prodigy / "choice.jsonl", importer=ImportOptions(tool="prodigy"))
    [(name, got)] = res.fields.items()
    assert got.to_dict() == agree_file(prodigy / "choice.jsonl", importer=ImportOptions(tool="prodigy")).to_dict()
    assert res.not_measured == ()
    spans = agree_fields(prodigy / "ner.jsonl", importer=ImportOptions(tool="prodigy"))
    assert spans.fields == {}
    [left] = spans.not_measured
    assert left.kind == "spans" and left.command.startswith("accord spans")


def _count_reads(monkeypatch):
    """Count the reads of the export (accord.importers.read_export, the loader every path calls), by field."""
    import collections

    import accord.importers

    reads = collections.Counter()
    real = accord.importers.read_export

    def counted(path, *, field=None, **options):
        reads[field] += 1
        return real(path, field=field, **options)

    monkeypatch.setattr(accord.importers, "read_export", counted)
    return reads


@pytest.mark.parametrize("how", ["agree_fields", "report"])
def test_field_all_reads_each_field_once(tmp_path, monkeypatch, how):
    """layers() reads each field; the run of each field reuses that read instead of reading the export again
    (before: twice per measured field).  The numbers stay those of each field's own run (the tests above)."""
    f = _export(tmp_path)
    reads = _count_reads(monkeypatch)
    if how == "agree_fields":
        res = agree_fields(f, "all", importer=ImportOptions(tool="label-studio"))
        assert list(res.fields) == ["mood", "stars", "topic"]
    else:
        from accord.reporting._files import report_files

        run = report_files([f], output=tmp_path / "all.html", bootstrap=0,
                           importer=ImportOptions(tool="label-studio", field="all"))
        assert set(run.report.summary["fields"]) == {"mood", "stars", "topic"}
    # one read that finds the export holds several fields, then one per field (ner: its spans, listed)
    assert reads == {None: 1, "mood": 1, "stars": 1, "topic": 1, "ner": 1}
    # one field alone, outside --field all: read as before
    reads.clear()
    agree_file(f, "all", importer=ImportOptions(tool="label-studio", field="mood"))
    assert reads == {"mood": 1}
