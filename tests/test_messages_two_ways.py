"""Messages in two languages from one source (issue 19, "Messages" and "Notebooks").

The Python API names arguments (``field=``, ``force=True``), the command line names flags (``--field``,
``--force``); each message is written once with both (``AccordError(api, cli=...)``, :class:`Message`) and
neither reader sees the other's words.  One wording for a missing input everywhere; plurals that agree
with their number; an unreachable Dask scheduler in one line within a timeout; Cohen's kappa with the
standard error, interval and p-value of the Python result; escaped HTML views for notebooks.
"""

from __future__ import annotations

import html
import json
import pickle
import re
import time
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

import accord
from accord._shared.errors import (
    AccordError,
    AccordWarning,
    Message,
    MissingFileError,
    for_cli,
    no_such_file,
    plural,
    words,
)
from accord.cli import app

RUNNER = CliRunner()
DATA = Path(__file__).parent / "data"

# a flag of the command line, and an argument of a Python call (but "--option name=value" is a flag's value)
_FLAG = re.compile(r"(?<![\w-])--[a-z]")
_ARG = re.compile(r"(?<!--option )(?<![\w.-])[a-z_]{2,}=(?!=)")


def _api_speaks_python(text: str) -> None:
    assert not _FLAG.search(text), f"a flag in the API's words: {text}"


def _cli_speaks_flags(text: str) -> None:
    assert not _ARG.search(text), f"a Python argument in the command line's words: {text}"


def _both(err: BaseException, api: str, cli: str) -> None:
    """*err* says *api* to Python (and no flag) and *cli* on the command line (and no argument)."""
    assert api in str(err), str(err)
    assert cli in for_cli(err), for_cli(err)
    _api_speaks_python(str(err))
    _cli_speaks_flags(for_cli(err))


def test_message_is_a_str_in_the_api_words_that_knows_the_cli_words() -> None:
    m = Message("pass field= to choose", cli="pass --field to choose")
    assert m == "pass field= to choose" and isinstance(m, str) and m.cli == "pass --field to choose"
    assert pickle.loads(pickle.dumps(m)).cli == m.cli
    joined = words("a.json, line 3: ", m, "!")
    assert str(joined) == "a.json, line 3: pass field= to choose!"
    assert joined.cli == "a.json, line 3: pass --field to choose!"
    err = AccordError(joined)
    assert str(err) == str(joined) and err.for_cli() == joined.cli
    assert for_cli("plain words") == "plain words"


def test_a_warning_carries_both_and_the_cli_prints_its_own() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn(Message("pass order=[...]", cli="pass --order"), AccordWarning, stacklevel=1)
    w = caught[0].message
    assert isinstance(w, AccordWarning) and str(w) == "pass order=[...]" and for_cli(w) == "pass --order"


# --------------------------------------------------------------------------- a sample, both ways


def _three_coders() -> accord.Annotations:
    return accord.Annotations.from_records([(u, c, "x" if (u + len(c)) % 3 else "y") for u in range(6)
                                            for c in ("a", "bb", "ccc")])


def test_cohen_kappa_on_three_coders() -> None:
    with pytest.raises(AccordError) as e:
        accord.cohen_kappa(_three_coders())
    _both(e.value, "pass coders=(a, b), or use fleiss_kappa", "use --coefficient fleiss, multi-kappa or alpha")


def test_ordinal_text_labels_without_an_order() -> None:
    data = accord.Annotations.from_records([(1, "a", "low"), (1, "b", "high"), (2, "a", "mid"), (2, "b", "mid")])
    with pytest.raises(AccordError) as e:
        accord.alpha(data, distance="ordinal")
    _both(e.value, "order=[...]", '--order "lowest,...,highest"')


def test_an_existing_output(tmp_path) -> None:
    from accord._shared.output import check_output

    (tmp_path / "out.csv").write_text("x")
    with pytest.raises(AccordError) as e:
        check_output(tmp_path / "out.csv")
    _both(e.value, "exists; pass force=True to replace it", "exists; pass --force to replace it")


def test_an_export_with_several_fields() -> None:
    from accord.importers import AmbiguousField, read_export

    with pytest.raises(AmbiguousField) as e:
        read_export(DATA / "importers" / "labelstudio" / "export.json")
    _both(e.value, "pass field= to choose one", "pass --field to choose one")


def test_an_importer_note_names_the_other_fields() -> None:
    from accord.importers import read_export

    imp = read_export(DATA / "importers" / "labelstudio" / "export.json", field="sentiment")
    note = next(n for n in imp.report.notes if "not read:" in n)
    assert "(pass field= to choose)" in note and "(pass --field to choose)" in for_cli(note)
    _api_speaks_python(note)
    _cli_speaks_flags(for_cli(note))
    assert "pass field= to choose" in imp.report.summary()
    assert "pass --field to choose" in imp.report.summary(cli=True)


def test_importer_options_without_a_flag_of_their_own() -> None:
    from accord.importers._common import opt

    assert (str(opt("follow_symlinks", True)), opt("follow_symlinks", True).cli) == (
        "follow_symlinks=True", "--option follow_symlinks=true")
    assert (str(opt("offsets", "codepoints")), opt("offsets", "codepoints").cli) == (
        "offsets='codepoints'", "--offsets codepoints")
    assert (str(opt("tool")), opt("tool").cli) == ("tool=", "--from")


def test_span_tokens_from_an_export_without_any() -> None:
    from accord.spans import Span, SpanAnnotations, tokenise

    spans = SpanAnnotations.from_spans([Span("d", 0, 3, "X", "a"), Span("d", 0, 3, "X", "b")], texts={"d": "abc def"})
    with pytest.raises(AccordError) as e:
        tokenise(spans, "export")
    _both(e.value, "tokens='export'", "--tokens export")


def test_a_mention_in_two_chains(tmp_path) -> None:
    f = tmp_path / "a.csv"
    f.write_text("document,mention,coder,chain\nd,1-1,a,A\nd,1-1,a,B\n")
    with pytest.raises(AccordError) as e:
        accord.read_coref([f], format="csv")
    _both(e.value, "duplicates='first'", "--duplicates first")


def test_left_out_coefficients_say_the_distance_both_ways() -> None:
    from accord.coefficients._registry import choose

    _, left = choose(accord.as_annotations([[1, 2, 2, 4], [1, 2, 3, 4], [1, 3, 3, 4]]), "nominal")
    reasons = [r for r in left.values() if "distance" in str(r) and "pass" in str(r)]
    assert reasons, left
    for r in reasons:
        assert "distance='interval'" in r or "distance='ratio'" in r or "distance='ordinal'" in r, r
        _api_speaks_python(r)
        _cli_speaks_flags(for_cli(r))


@pytest.mark.parametrize(("rows", "expected", "absent"), [
    ("unit,coder,value\n1,a,x\n1,b,x\n1,c,y\n2,a,y\n2,b,y\n2,c,y\n", "--coefficient fleiss", "coders=("),
    ("unit,coder,value\n1,a,low\n1,b,high\n2,a,mid\n2,b,mid\n", '--order "lowest,...,highest"', "order=["),
])
def test_the_cli_line_has_no_python_argument(tmp_path, rows: str, expected: str, absent: str) -> None:
    f = tmp_path / "labels.csv"
    f.write_text(rows)
    extra = ["--coefficient", "cohen"] if "coders=" in absent else ["--distance", "ordinal"]
    res = RUNNER.invoke(app, ["agree", str(f), *extra])
    assert res.exit_code == 2, res.output
    line = res.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("accord: error: ")
    assert expected in line and absent not in line
    _cli_speaks_flags(line)


def test_the_cli_prints_the_import_notes_in_its_words(tmp_path) -> None:
    res = RUNNER.invoke(app, ["import", str(DATA / "importers" / "labelstudio" / "export.json"), "--field",
                              "sentiment", "-o", str(tmp_path / "out.csv")])
    assert res.exit_code == 0, res.output
    assert "(pass --field to choose)" in res.stderr and "field=" not in res.stderr


# --------------------------------------------------------------------------- one wording for a missing input


def test_no_such_file_is_one_error_that_is_also_a_file_not_found_error() -> None:
    err = no_such_file("x.csv")
    assert str(err) == "x.csv: no such file or folder" and isinstance(err, AccordError)
    assert isinstance(err, FileNotFoundError) and isinstance(err, ValueError) and isinstance(err, MissingFileError)
    texts = no_such_file("t", param="texts")
    assert (str(texts), texts.for_cli()) == ("texts: t: no such file or folder", "--texts t: no such file or folder")


def _readers():
    from accord.data._confusion import read_confusion
    from accord.importers import _labelstudio as labelstudio
    from accord.importers import read_export
    from accord.multilabel._readers import read_multilabel
    from accord.pyramid._ducview import read_peer_annotation, read_pyramid
    from accord.pyramid._jsonio import read_json
    from accord.spans._readers import read_spans, read_texts

    return {
        "read": lambda p: accord.read(p),
        "read_export": read_export,
        "labelstudio.read": labelstudio.read,
        "read_coref": lambda p: accord.read_coref([p], format="conll"),
        "read_spans": read_spans,
        "read_texts": read_texts,
        "read_confusion": read_confusion,
        "read_multilabel": read_multilabel,
        "read_pyramid": read_pyramid,
        "read_peer_annotation": read_peer_annotation,
        "read_json": read_json,
    }


@pytest.mark.parametrize("name", sorted(_readers()))
def test_every_reader_says_a_missing_file_the_same_way(tmp_path, name: str) -> None:
    missing = tmp_path / ("nothing.csv" if name != "read_pyramid" else "nothing.pyr")
    with pytest.raises(FileNotFoundError) as e:
        _readers()[name](missing)
    assert isinstance(e.value, AccordError)
    assert str(e.value).endswith(f"{missing}: no such file or folder"), str(e.value)


@pytest.mark.parametrize("args", [
    ["agree", "{m}"],
    ["agree", "{m}", "--engine", "duckdb"],
    ["coref", "{m}"],
    ["multilabel", "{m}"],
    ["pyramid", "show", "{m}"],
    ["pyramid", "score", "{m}", "{m}"],
    ["gold", "{m}"],
    ["significance", "{m}", "--system", "s", "--docset", "d", "--score", "y"],
    ["spans", "{m}"],
    ["report", "{m}", "-o", "{out}"],
    ["import", "{m}", "-o", "{out}"],
])
def test_every_command_says_a_missing_file_the_same_way(tmp_path, args: list[str]) -> None:
    m, out = tmp_path / "missing.csv", tmp_path / "out.html"
    res = RUNNER.invoke(app, [a.format(m=m, out=out) for a in args])
    assert res.exit_code == 2, res.output
    assert res.stderr.strip().splitlines() == [f"accord: error: {m}: no such file or folder"], res.stderr


def test_python_file_not_found_gets_the_same_words_in_the_cli(tmp_path, capsys) -> None:
    import typer

    from accord.cli._common import cli_errors

    missing = tmp_path / "x.csv"

    @cli_errors
    def opens() -> None:
        missing.read_text()

    with pytest.raises(typer.Exit):
        opens()
    assert capsys.readouterr().err.splitlines() == [f"accord: error: {missing}: no such file or folder"]


# --------------------------------------------------------------------------- plurals


def test_plural() -> None:
    assert plural(1, "value") == "1 value" and plural(2, "value") == "2 values" and plural(0, "value") == "0 values"
    assert plural(1, "entry") == "1 entry" and plural(3, "entry") == "3 entries" and plural(2, "key") == "2 keys"
    assert plural(2, "class") == "2 classes" and plural(1, "record holds", "records hold") == "1 record holds"


def test_the_words_agree_with_their_number() -> None:
    one = accord.Annotations.from_records([(1, "a", "x")])
    assert repr(one) == "Annotations(1 unit, 1 coder, 1 value, 1 distinct value, 0 missing)"
    two = accord.Annotations.from_records([(1, "a", "x"), (2, "b", "y")])
    assert repr(two) == "Annotations(2 units, 2 coders, 2 values, 2 distinct values, 0 missing)"
    from accord.importers._report import DroppedRecord, ImportReport

    rep = ImportReport.from_cells("demo", "x.json", items=["t1"], cells=[("t1", "ann1", "annotated")],
                                  dropped=[DroppedRecord("r1", "no value")])
    text = rep.summary()
    assert "1 item, 1 annotator" in text and "dropped 1 record: no value" in text
    assert "(s)" not in text


def test_the_cli_says_one_value_not_one_values(tmp_path) -> None:
    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,y\n3,a,x\n")
    res = RUNNER.invoke(app, ["agree", str(f), "--coefficient", "alpha"])
    assert res.exit_code == 0, res.output
    assert "(1 value left out)" in res.stdout and "1 values" not in res.stdout


# --------------------------------------------------------------------------- Dask scheduler


def test_an_unreachable_dask_scheduler_is_one_line_within_the_timeout(tmp_path, monkeypatch) -> None:
    pytest.importorskip("distributed")  # the dask extra
    from accord.engines import _sources as sources

    assert sources.SCHEDULER_TIMEOUT <= 10  # with dask's imports the command ends within about 10 s
    monkeypatch.setattr(sources, "SCHEDULER_TIMEOUT", 2.0)
    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n")
    start = time.monotonic()
    # port 1 on the loopback: nothing listens there
    res = RUNNER.invoke(app, ["agree", str(f), "--engine", "dask", "--scheduler", "tcp://127.0.0.1:1"])
    elapsed = time.monotonic() - start
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("accord: error: --scheduler tcp://127.0.0.1:1: cannot reach the Dask scheduler "
                               "within 2 s"), lines[0]
    assert elapsed < 20, elapsed


# --------------------------------------------------------------------------- Cohen's kappa in the CLI


def test_cohen_kappa_in_the_cli_has_the_standard_error_interval_and_p_value(tmp_path) -> None:
    rows = [(u, c, v) for u, (a, b) in enumerate(["xx", "xy", "yy", "xx", "yy", "yx", "xx", "yy", "xx", "yy"])
            for c, v in (("a", a), ("b", b))]
    f = tmp_path / "labels.csv"
    f.write_text("unit,coder,value\n" + "".join(f"{u},{c},{v}\n" for u, c, v in rows))
    res = accord.cohen_kappa(accord.read(f))
    lo, hi = res.confidence_interval(0.95)

    table = RUNNER.invoke(app, ["agree", str(f), "--coefficient", "cohen"])
    assert table.exit_code == 0, table.output
    flat = " ".join(table.stdout.split())  # the line wraps at the terminal's width
    line = flat[flat.index("Cohen's kappa: "):flat.index(" beyond chance") + len(" beyond chance")]
    assert line == (f"Cohen's kappa: standard error {res.standard_error:.4f}, 95% interval [{lo:.4f}, {hi:.4f}], "
                    f"p = {res.p_value:.4g} against no agreement beyond chance"), line

    out = json.loads(RUNNER.invoke(app, ["agree", str(f), "--coefficient", "cohen", "--json"]).stdout)
    assert out["standard_error"] == pytest.approx(res.standard_error)
    assert out["p_value"] == pytest.approx(res.p_value)
    assert out["confidence_interval"] == pytest.approx([lo, hi]) and out["confidence_level"] == 0.95


# --------------------------------------------------------------------------- notebooks


def _script_coders() -> accord.Annotations:
    return accord.Annotations.from_records([(u, c, v) for u, vs in enumerate(["xx", "xy", "yy", "xx"])
                                            for c, v in zip(("<script>", "b&b"), vs, strict=True)],
                                           source="<i>f.csv</i>")


def test_annotations_show_as_an_escaped_table() -> None:
    out = _script_coders()._repr_html_()
    assert "<table" in out and "<script>" not in out and "<i>" not in out
    assert "&lt;script&gt;" in out and "b&amp;b" in out and "&lt;i&gt;f.csv&lt;/i&gt;" in out
    for row in ("units", "coders", "values", "missing", "source"):
        assert f">{row}</th>" in out


def test_every_result_shows_as_an_escaped_table() -> None:
    data = _script_coders()
    for res in (accord.alpha(data), accord.cohen_kappa(data), accord.gwet_ac1(data)):
        out = res._repr_html_()
        assert out.startswith('<div class="accord-repr"><strong>') and "<table" in out
        assert "<script>" not in out
    k = accord.cohen_kappa(data)._repr_html_()
    assert ">kappa</th>" in k and ">standard_error</th>" in k and ">p_value</th>" in k


def test_report_shows_inline_and_writes_the_file(tmp_path) -> None:
    pytest.importorskip("altair")  # the report extra
    from accord.reporting import ReportFile

    out = accord.report(_script_coders(), tmp_path / "r.html", bootstrap=0)
    assert isinstance(out, Path) and isinstance(out, ReportFile) and out.is_file()
    view = out._repr_html_()
    assert view.startswith("<iframe srcdoc=\"") and "sandbox=" in view
    srcdoc = view.split('srcdoc="', 1)[1].split('" title=', 1)[0]
    assert "<" not in srcdoc and '"' not in srcdoc  # the whole page is escaped into the attribute
    assert html.unescape(srcdoc) == out.read_text(encoding="utf-8")
    assert "&lt;script&gt;" not in view.split('srcdoc="', 1)[0]


def test_the_cli_json_carries_the_import_notes_in_its_words() -> None:
    res = RUNNER.invoke(app, ["agree", str(DATA / "importers" / "labelstudio" / "export.json"), "--field",
                              "sentiment", "--json"])
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["import"]["report"]["notes"]
    assert any("(pass --field to choose)" in n for n in notes) and not any("field=" in n for n in notes)
