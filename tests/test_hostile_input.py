"""Hostile and broken files (issue 18): every reader of user files ends in one ``AccordError`` line or a said outcome.

Each case is built here, on the fly and at small scale: zip bombs of a few MiB of spaces against limits
lowered with ``monkeypatch`` (the shape of any deflate bomb: a member inflating ~1,000 times), truncated
zips, a malformed ``.xlsx``, formula cells as openpyxl and odfpy save them (``<f>`` with an empty ``<v/>``,
ECMA-376 Part 1 18.3.1.40; ``table:formula`` without ``office:value-type``, ODF 1.2 19.642), JSON nested
past the recursion limit, integers past Python's int-string limit and past int64 / float64, a symbolic
link loop under ``**``, a glob naming one file, symbolic links inside export folders.  Each is checked
through the Python API and through the CLI (exit 2, one line on stderr, no traceback).
"""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import accord
from accord import AccordError
from accord._shared import zips as _zip
from accord._shared.globs import glob_files
from accord.cli import app
from accord.engines._sources import expand
from accord.importers import _spreadsheet as spreadsheet
from accord.importers import read_export

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "importers"
LS = DATA / "labelstudio" / "export.json"
DOCCANO_LINE = json.dumps({"id": 1, "text": "Fine.", "label": ["pos"]})


def _one_line_error(res, *needles: str) -> str:
    """The CLI ended in ``accord: error: ...``, one line, exit 2, no traceback; return the line.

    What came before on stderr is what the command said on the way (the format guessed, an import report)."""
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    lines = res.stderr.splitlines()
    errors = [ln for ln in lines if ln.startswith("accord: error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], res.stderr
    assert "Traceback" not in res.output and not res.stdout.strip()
    for n in needles:
        assert n in errors[0], errors[0]
    return errors[0]


@pytest.fixture
def small_limits(monkeypatch):
    """Zip limits a few MiB of spaces cross: ratio 50 past 64 KiB, no environment override."""
    monkeypatch.setattr(_zip, "ZIP_RATIO_GRACE_BYTES", 64 * 1024)
    monkeypatch.setattr(_zip, "ZIP_MAX_RATIO", 50.0)
    monkeypatch.delenv("ACCORD_ZIP_MAX_RATIO", raising=False)
    monkeypatch.delenv("ACCORD_ZIP_MAX_MEMBER_BYTES", raising=False)


def _bomb_zip(path: Path, members: dict[str, int]) -> Path:
    """A zip whose members are one doccano line followed by *n* spaces (deflate: about 1,000 to 1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, n in members.items():
            with z.open(name, "w") as fh:
                fh.write(DOCCANO_LINE.encode() + b"\n")
                for _ in range(n // 65536):
                    fh.write(b" " * 65536)
                fh.write(b" " * (n % 65536))
    return path


# --- zip bombs ------------------------------------------------------------------------------------------


def test_zip_bomb_member_is_refused_before_inflating(tmp_path, small_limits):
    f = _bomb_zip(tmp_path / "export.zip", {"alice.jsonl": 4 * 2**20})
    assert f.stat().st_size < 20_000
    with pytest.raises(AccordError, match=r"doccano export .*export\.zip:alice\.jsonl: the member declares "
                       r"4,194,[0-9]+ bytes inflated from [0-9,]+ bytes \(ratio [0-9,]+\), past the limit of ratio 50"):
        read_export(f, tool="doccano")
    line = _one_line_error(runner.invoke(app, ["import", str(f), "-o", str(tmp_path / "o.csv")]),
                           "alice.jsonl", "ratio", "ACCORD_ZIP_MAX_RATIO")
    assert "zip bomb" in line
    assert not (tmp_path / "o.csv").exists()


def test_zip_bomb_spread_over_small_members_stops_while_streaming(tmp_path, small_limits):
    # each member is under the grace size, so only the archive's running total (checked chunk by chunk) catches it
    f = _bomb_zip(tmp_path / "export.zip", {f"a{k}.jsonl": 48 * 1024 for k in range(4)})
    with pytest.raises(AccordError, match=r"the members read so far inflate to [0-9,]+ bytes from an archive of"):
        read_export(f, tool="doccano")


def test_zip_member_size_limit_and_raising_limits_by_environment(tmp_path, small_limits, monkeypatch):
    f = _bomb_zip(tmp_path / "export.zip", {"alice.jsonl": 256 * 1024, "bob.jsonl": 0})
    with pytest.raises(AccordError, match="ratio"):
        read_export(f, tool="doccano")
    monkeypatch.setenv("ACCORD_ZIP_MAX_RATIO", "100000")
    assert read_export(f, tool="doccano").report.coders == ("alice", "bob")  # trusted: read in full
    monkeypatch.setattr(_zip, "ZIP_MAX_MEMBER_BYTES", 1000)
    with pytest.raises(AccordError, match=r"alice\.jsonl: the member declares [0-9,]+ bytes inflated .* past the "
                       r"limit of 1,000 bytes per member; .*ACCORD_ZIP_MAX_MEMBER_BYTES"):
        read_export(f, tool="doccano")
    monkeypatch.setenv("ACCORD_ZIP_MAX_MEMBER_BYTES", "1MiB")
    assert read_export(f, tool="doccano").report.coders == ("alice", "bob")
    monkeypatch.setenv("ACCORD_ZIP_MAX_MEMBER_BYTES", "lots")
    _one_line_error(runner.invoke(app, ["import", str(f), "--from", "doccano", "-o", str(tmp_path / "o.csv")]),
                    "ACCORD_ZIP_MAX_MEMBER_BYTES must be a size", "'lots'")


def test_inception_zip_bomb_and_nested_zip_bomb(tmp_path, small_limits):
    tsv = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n#Text=Hi\n1-1\t0-2\tHi\tX\n"
    flat = tmp_path / "project.zip"
    with zipfile.ZipFile(flat, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("annotation/doc.txt/ann.tsv", tsv + " " * (2 * 2**20))
    with pytest.raises(AccordError, match=r"inception export .*project\.zip:annotation/doc\.txt/ann\.tsv: the member "
                       r"declares"):
        read_export(flat, tool="inception")
    # WebAnno wrote annotation/<doc>/<user>.zip: the inner zip's members count against the outer archive's size
    inner = tmp_path / "inner.zip"
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as z:
        for k in range(3):
            z.writestr(f"ann{k}.tsv", tsv + " " * (60 * 1024))
    nested = tmp_path / "webanno.zip"
    with zipfile.ZipFile(nested, "w", zipfile.ZIP_STORED) as z:
        z.write(inner, "annotation/doc.txt/ann.zip")
    with pytest.raises(AccordError, match=r"ann\.zip:ann[0-9]\.tsv: the members read so far inflate"):
        read_export(nested, tool="inception")
    _one_line_error(runner.invoke(app, ["import", str(nested), "-o", str(tmp_path / "o.csv")]), "inflate")


def test_format_guess_reads_only_the_head_of_a_member(tmp_path, small_limits, monkeypatch):
    f = _bomb_zip(tmp_path / "export.zip", {"alice.jsonl": 4 * 2**20})
    read = []
    original = _zip.ZipArchive.read

    def spy(self, name, *, limit=None):
        read.append(limit)
        return original(self, name, limit=limit)

    monkeypatch.setattr(_zip.ZipArchive, "read", spy)
    assert accord.importers.guess_tool(f) == "doccano"
    assert read and all(limit is not None and limit <= 65536 for limit in read)


# --- damaged files --------------------------------------------------------------------------------------


def test_truncated_zip(tmp_path):
    whole = tmp_path / "whole.zip"
    with zipfile.ZipFile(whole, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("alice.jsonl", DOCCANO_LINE + "\n")
        z.writestr("bob.jsonl", DOCCANO_LINE + "\n")
    cut = tmp_path / "cut.zip"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(AccordError, match=r"doccano export .*cut\.zip: not a readable zip \(BadZipFile"):
        read_export(cut, tool="doccano")
    _one_line_error(runner.invoke(app, ["import", str(cut), "-o", str(tmp_path / "o.csv")]),
                    "cut.zip: not a readable zip", "is the file whole?")
    _one_line_error(runner.invoke(app, ["import", str(cut), "--from", "inception", "-o", str(tmp_path / "o.csv")]),
                    "inception export", "not a readable zip")


def test_zip_with_a_corrupt_member(tmp_path):
    f = tmp_path / "export.zip"
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        z.writestr("alice.jsonl", DOCCANO_LINE + "\n")
    data = bytearray(f.read_bytes())
    at = data.index(b'"Fine."')
    data[at + 1] = ord("X")  # the bytes no longer match the member's CRC
    f.write_bytes(bytes(data))
    with pytest.raises(AccordError, match=r"export\.zip:alice\.jsonl: cannot inflate the member \(BadZipFile: Bad "
                       r"CRC-32"):
        read_export(f, tool="doccano")


def _xlsx(path: Path, rows: list[list[str]]) -> Path:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "long"
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def _rewrite_member(path: Path, out: Path, member: str, edit) -> Path:
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            dst.writestr(info.filename, edit(data) if info.filename == member else data)
    return out


SHEET = "xl/worksheets/sheet1.xml"


def test_malformed_and_truncated_xlsx(tmp_path):
    good = _xlsx(tmp_path / "good.xlsx", [["unit", "coder", "value"], ["q1", "a", "x"], ["q1", "b", "x"]])
    bad = _rewrite_member(good, tmp_path / "bad.xlsx", SHEET, lambda d: d[: len(d) // 2])
    with pytest.raises(AccordError, match=r"bad\.xlsx: cannot read sheet 'long' \(ParseError"):
        accord.read(bad)
    _one_line_error(runner.invoke(app, ["agree", str(bad)]), "bad.xlsx", "ParseError")
    _one_line_error(runner.invoke(app, ["import", str(bad), "-o", str(tmp_path / "o.csv")]), "bad.xlsx")
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(good.read_bytes()[:1000])
    with pytest.raises(AccordError, match=r"cut\.xlsx: cannot read as a spreadsheet \(BadZipFile"):
        accord.read(cut)
    _one_line_error(runner.invoke(app, ["agree", str(cut)]), "cut.xlsx", "cannot read as a spreadsheet")


def test_xlsx_bomb_is_refused_before_openpyxl_opens_it(tmp_path, small_limits):
    good = _xlsx(tmp_path / "good.xlsx", [["unit", "coder", "value"], ["q1", "a", "x"], ["q1", "b", "x"]])
    bomb = _rewrite_member(good, tmp_path / "bomb.xlsx", SHEET,
                           lambda d: d.replace(b"<sheetData>", b"<sheetData>" + b" " * (2 * 2**20)))
    with pytest.raises(AccordError, match=r"bomb\.xlsx:xl/worksheets/sheet1\.xml: the member declares [0-9,]+ bytes "
                       r"inflated from [0-9,]+ bytes \(ratio"):
        accord.read(bomb)
    _one_line_error(runner.invoke(app, ["agree", str(bomb)]), "sheet1.xml", "ratio")
    with pytest.raises(AccordError, match="ratio"):
        spreadsheet.read(bomb)


# --- formulas without a computed value ------------------------------------------------------------------


def test_xlsx_formula_without_cached_value_is_refused_then_read_as_missing_and_said(tmp_path):
    f = _xlsx(tmp_path / "f.xlsx", [["unit", "coder", "value"], ["q1", "a", "yes"], ["q1", "b", "=C2"],
                                     ["q2", "a", "no"], ["q2", "b", ""]])
    with pytest.raises(AccordError, match=r"sheet 'long': 1 formula cell holds no computed value \(C3\)"):
        accord.read(f)
    line = _one_line_error(runner.invoke(app, ["agree", str(f)]), "C3", "formulas=missing")
    assert "Excel or LibreOffice" in line
    _one_line_error(runner.invoke(app, ["import", str(f), "-o", str(tmp_path / "o.csv")]), "C3")
    imp = spreadsheet.read(f, formulas="missing")
    # the formula's cell is unknown, not "seen, nothing chosen": b is unassigned on q1 (empty only where blank)
    assert imp.report.counts["b"] == {"annotated": 0, "empty": 1, "skipped": 0, "unassigned": 1}
    assert any("1 formula cell of sheet 'long' with no computed value" in n and "C3" in n
               for n in imp.report.notes)
    assert accord.read(f, formulas="missing").n_entries == 2
    res = runner.invoke(app, ["import", str(f), "--from", "spreadsheet", "--option", "formulas=missing",
                              "-o", str(tmp_path / "o.csv")])
    assert res.exit_code == 0, res.output
    assert "with no computed value read as missing" in res.stderr
    with pytest.raises(AccordError, match="formulas must be one of refuse, missing; got 'zero'"):
        accord.read(f, formulas="zero")


def test_xlsx_formula_with_a_cached_value_is_read(tmp_path):
    f = _xlsx(tmp_path / "f.xlsx", [["unit", "coder", "value"], ["q1", "a", "yes"], ["q1", "b", "=C2"]])
    # what Excel saves: the formula and the value it computed (t="str": a text result)
    cached = _rewrite_member(f, tmp_path / "cached.xlsx", SHEET,
                             lambda d: d.replace(b'<c r="C3"><f>C2</f><v /></c>',
                                                 b'<c r="C3" t="str"><f>C2</f><v>yes</v></c>'))
    assert b'<v>yes</v>' in zipfile.ZipFile(cached).read(SHEET)
    data = accord.read(cached)
    assert data.n_entries == 2 and set(data.values) == {"yes"}


def test_ods_formula_without_value(tmp_path):
    pytest.importorskip("odf")
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="long")
    for row in [["unit", "coder", "value"], ["q1", "a", "yes"], ["q1", "b", None]]:
        tr = TableRow()
        for v in row:
            if v is None:
                cell = TableCell(formula="of:=[.C2]")  # no office:value-type: nothing computed
            else:
                cell = TableCell(valuetype="string")
                cell.addElement(P(text=v))
            tr.addElement(cell)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    f = tmp_path / "f.ods"
    doc.save(str(f))
    with pytest.raises(AccordError, match=r"1 formula cell holds no computed value \(C3\)"):
        accord.read(f)
    assert spreadsheet.read(f, formulas="missing").report.counts["b"]["unassigned"] == 1


# --- JSON nesting and giant numbers ---------------------------------------------------------------------


def test_json_nested_past_the_recursion_limit(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[\n" + "[" * 100_000 + "]" * 100_000 + "\n]")
    with pytest.raises(AccordError, match=r"label-studio export .*deep\.json, line 2: JSON nested too deeply"):
        read_export(deep, tool="label-studio")
    _one_line_error(runner.invoke(app, ["import", str(deep), "--from", "label-studio", "-o", str(tmp_path / "o.csv")]),
                    "nested too deeply")
    jl = tmp_path / "deep.jsonl"
    jl.write_text(DOCCANO_LINE + "\n" + '{"text": "a", "label": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(AccordError, match=r"doccano export .*deep\.jsonl, line 2: JSON nested too deeply"):
        read_export(jl, tool="doccano")
    # nested deep enough to parse, too deep for what reads it after
    jl.write_text(DOCCANO_LINE + "\n" + '{"id": 2, "text": "a", "label": [' + "[" * 900 + "]" * 900 + "]}\n")
    with pytest.raises(AccordError, match="doccano export"):
        read_export(jl, tool="doccano")
    table = tmp_path / "deep.csv"
    table.write_text('unit,coder,value\n1,a,"' + "[" * 600 + "]" * 600 + '"\n1,b,x\n')
    with pytest.raises(AccordError, match=r"deep\.csv: a cell nests lists more deeply"):
        accord.read(table)
    _one_line_error(runner.invoke(app, ["agree", str(table)]), "nests lists")
    long = tmp_path / "deep_long.jsonl"
    long.write_text('{"unit": 1, "coder": "a", "value": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    _one_line_error(runner.invoke(app, ["agree", str(long)]), "deep_long.jsonl, line 1", "nested too deeply")


def test_giant_integers_as_coder_offset_and_value(tmp_path):
    if not hasattr(sys, "get_int_max_str_digits"):  # pragma: no cover - Python < 3.11 has no limit
        pytest.skip("no int-string limit in this Python")
    export = json.loads(LS.read_text())
    text = json.dumps(export, indent=1)
    digits = "9" * 5000
    # a coder id past the int-string limit: the JSON decoder gives up; the line of the number is named
    coder = tmp_path / "coder.json"
    coder.write_text(text.replace('"completed_by": 1', f'"completed_by": {digits}', 1))
    want = text[: text.index('"completed_by": 1')].count("\n") + 1
    with pytest.raises(AccordError, match=rf"label-studio export .*coder\.json, line {want}: a number of 5,000 digits"):
        read_export(coder, tool="label-studio", field="sentiment")
    _one_line_error(runner.invoke(app, ["import", str(coder), "--field", "sentiment", "-o", str(tmp_path / "o.csv")]),
                    f"line {want}", "5,000 digits")
    # an offset of 400 digits parses, and is outside any text (shortened in the message)
    off = tmp_path / "offset.json"
    off.write_text(text.replace('"end": 15', f'"end": {"9" * 400}', 1))
    with pytest.raises(AccordError, match=r"span \[10, 999999999999\.\.\. \(400 digits\)\) lies outside the text"):
        read_export(off, tool="label-studio", field="ner")
    # a value of 400 digits: exact as a label, refused by a distance that needs floats
    big = tmp_path / "big.csv"
    big.write_text(f"unit,coder,value\n1,a,{'9' * 400}\n1,b,3\n2,a,4\n2,b,4\n")
    data = accord.read(big)
    assert 10**400 - 1 in set(data.values)
    # nominal: the number is one label among others, as a word in its place would be
    word = tmp_path / "word.csv"
    word.write_text(big.read_text().replace("9" * 400, "big"))
    assert accord.alpha(data).alpha == pytest.approx(accord.alpha(accord.read(word)).alpha)
    with pytest.raises(AccordError, match=r"the interval distance needs numbers a float holds; got an integer of 400 "
                       r"digits"):
        accord.alpha(data, distance="interval")
    _one_line_error(runner.invoke(app, ["agree", str(big), "--distance", "interval"]), "400 digits")
    _one_line_error(runner.invoke(app, ["agree", str(big), "--distance", "interval", "--engine", "duckdb"]),
                    "400 digits")
    score = tmp_path / "score.json"
    score.write_text(text.replace('"number": 2.5', f'"number": {"9" * 400}', 1))
    _one_line_error(runner.invoke(app, ["agree", str(score), "--field", "score"]), "400 digits")


def test_giant_offsets_in_brat_and_inception(tmp_path):
    root = tmp_path / "brat"
    (root / "ann").mkdir(parents=True)
    (root / "ann" / "d.txt").write_text("Ann met Bob.\n")
    (root / "ann" / "d.ann").write_text(f"T1\tPER 0 {'9' * 5000}\tAnn\n")
    with pytest.raises(AccordError, match=r"brat export .*d\.ann, line 1, annotation T1, field 'offsets': offset "
                       r"999999999999\.\.\. \(5000 digits\) lies outside the text"):
        read_export(root, tool="brat")
    tsv = tmp_path / "doc.tsv"
    tsv.write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n#Text=Hi\n"
                   f"1-1\t0-{'9' * 5000}\tHi\tX\n")
    with pytest.raises(AccordError, match=r"inception export .*doc\.tsv.*, line 6: offsets '0-9{58}'…\(5002 "
                       r"characters\) are not begin-end"):
        read_export(tsv, tool="inception")
    tsv.write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n#Text=Hi\n"
                   f"1-1\t{10**15}-{10**15 + 2}\tHi\tX\n")
    with pytest.raises(AccordError, match=r"lies 1,000,000,000,000,000 characters past the previous sentence"):
        read_export(tsv, tool="inception")
    _one_line_error(runner.invoke(app, ["import", str(tsv), "-o", str(tmp_path / "o.csv")]), "past the previous")


# --- globs ----------------------------------------------------------------------------------------------


TABLE = "unit,coder,value\n1,a,x\n1,b,x\n2,a,y\n2,b,x\n3,a,y\n3,b,y\n"


def test_symlink_loop_under_double_star_ends_and_reads_each_folder_once(tmp_path):
    root = tmp_path / "data"
    (root / "2024" / "may").mkdir(parents=True)
    (root / "2024" / "may" / "part.csv").write_text(TABLE)
    (root / "2024" / "may" / "loop").symlink_to("..")  # may/loop -> 2024: a loop
    (root / "2024" / "up").symlink_to(root)  # and another
    (root / "alias").symlink_to(root / "2024")  # the same folder by a second route
    pattern = str(root / "**" / "*.csv")
    assert glob_files(pattern) == [root / "2024" / "may" / "part.csv"]
    assert expand(pattern) == [root / "2024" / "may" / "part.csv"]
    assert accord.read(pattern).n_entries == 6
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "more.csv").write_text(TABLE.replace("\n1,", "\n11,").replace("\n2,", "\n12,").replace("\n3,", "\n13,"))
    (root / "linked").symlink_to(outside)  # a link to a folder not otherwise under the glob is entered
    assert glob_files(pattern) == [root / "2024" / "may" / "part.csv", root / "linked" / "more.csv"]
    res = runner.invoke(app, ["agree", pattern, "--json"])
    assert res.exit_code == 0, res.output
    duck = runner.invoke(app, ["agree", pattern, "--engine", "duckdb", "--json"])
    assert duck.exit_code == 0, duck.output
    assert json.loads(res.stdout)["n_pairable"] == json.loads(duck.stdout)["n_pairable"] == 12


def test_glob_matching_one_file_reads_that_file_on_every_engine(tmp_path):
    (tmp_path / "only.csv").write_text(TABLE)
    pattern = str(tmp_path / "o*.csv")
    assert accord.read(pattern).n_entries == accord.read(tmp_path / "only.csv").n_entries == 6
    outs = {}
    for engine in ("auto", "memory", "duckdb"):
        res = runner.invoke(app, ["agree", pattern, "--engine", engine, "--json"])
        assert res.exit_code == 0, (engine, res.output)
        outs[engine] = json.loads(res.stdout)["alpha"]
    assert outs["auto"] == pytest.approx(outs["memory"]) and outs["memory"] == pytest.approx(outs["duckdb"])
    res = runner.invoke(app, ["agree", pattern, "--layout", "wide", "--unit", "unit"])
    assert "no such file" not in res.output
    # a literal name with glob characters is that file
    odd = tmp_path / "[odd].csv"
    odd.write_text(TABLE)
    assert accord.read(odd).n_entries == 6
    # several files on the memory engine: said, not half read
    (tmp_path / "other.csv").write_text(TABLE)
    with pytest.raises(AccordError, match=r"matches 2 files .*accord\.read reads one file"):
        accord.read(pattern)
    _one_line_error(runner.invoke(app, ["agree", pattern, "--engine", "memory"]), "matches 2 files")
    _one_line_error(runner.invoke(app, ["agree", str(tmp_path / "z*.csv")]), "no file matches")


# --- symbolic links inside export folders ---------------------------------------------------------------


def _brat(root: Path, secret: Path) -> None:
    for who in ("alice", "bob"):
        (root / who).mkdir(parents=True)
        (root / who / "d1.txt").write_text("Ann met Bob.\n")
        (root / who / "d1.ann").write_text("T1\tPER 0 3\tAnn\n")
    (root / "bob" / "d2.ann").symlink_to(secret.with_suffix(".ann"))
    (root / "bob" / "d2.txt").write_text("Top secret words.\n")


def test_symlinks_inside_a_brat_folder_are_not_followed_unless_asked(tmp_path):
    secret = tmp_path / "private" / "notes.txt"
    secret.parent.mkdir()
    secret.write_text("Top secret words.\n")
    secret.with_suffix(".ann").write_text("T1\tSECRET 0 10\tTop secret\n")
    root = tmp_path / "brat"
    _brat(root, secret)
    imp = read_export(root, tool="brat")
    assert {s.document for s in imp.spans.spans} == {"d1"}
    assert any("1 symbolic link inside the export folder not followed (bob/d2.ann)" in n for n in imp.report.notes)
    out = tmp_path / "o.csv"
    res = runner.invoke(app, ["import", str(root), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "symbolic link" in res.stderr and "SECRET" not in out.read_text()
    followed = read_export(root, tool="brat", follow_symlinks=True)
    assert "SECRET" in {s.label for s in followed.spans.spans}
    res = runner.invoke(app, ["import", str(root), "--option", "follow_symlinks=true", "-o", str(tmp_path / "f.csv")])
    assert res.exit_code == 0, res.output
    assert "SECRET" in (tmp_path / "f.csv").read_text()
    # a document's text that is a link: the annotations need it, so it is an error, not a silent skip
    (root / "alice" / "d1.txt").unlink()
    (root / "alice" / "d1.txt").symlink_to(secret)
    with pytest.raises(AccordError, match=r"brat export .*alice/d1\.txt: is a symbolic link, not followed"):
        read_export(root, tool="brat")
    _one_line_error(runner.invoke(app, ["import", str(root), "-o", str(tmp_path / "x.csv")]), "symbolic link",
                    "follow_symlinks=true")


def test_symlinks_inside_doccano_prodigy_and_inception_folders(tmp_path):
    outside = tmp_path / "outside.jsonl"
    outside.write_text(json.dumps({"id": 1, "text": "Fine.", "label": ["neg"]}) + "\n")
    folder = tmp_path / "doccano"
    folder.mkdir()
    (folder / "alice.jsonl").write_text(DOCCANO_LINE + "\n")
    (folder / "mallory.jsonl").symlink_to(outside)
    imp = read_export(folder, tool="doccano")
    assert imp.report.coders == ("alice",)
    assert any("mallory.jsonl" in n and "follow_symlinks" in n for n in imp.report.notes)
    assert read_export(folder, tool="doccano", follow_symlinks=True).report.coders == ("alice", "mallory")
    (folder / "alice.jsonl").unlink()
    with pytest.raises(AccordError, match=r"no \.jsonl file but 1 symbolic link to one, not followed"):
        read_export(folder, tool="doccano")
    # an INCEpTION folder whose annotation file is a link
    proj = tmp_path / "inception"
    (proj / "annotation" / "doc.txt").mkdir(parents=True)
    tsv = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n\n\n#Text=Hi\n1-1\t0-2\tHi\tX\n"
    (proj / "annotation" / "doc.txt" / "ann.tsv").write_text(tsv)
    (tmp_path / "other.tsv").write_text(tsv.replace("\tX\n", "\tY\n"))
    (proj / "annotation" / "doc.txt" / "eve.tsv").symlink_to(tmp_path / "other.tsv")
    imp = read_export(proj, tool="inception")
    assert imp.report.coders == ("ann",)
    assert any("annotation/doc.txt/eve.tsv" in n for n in imp.report.notes)
    assert read_export(proj, tool="inception", follow_symlinks=True).report.coders == ("ann", "eve")


@pytest.mark.skipif(os.name != "posix", reason="FIFOs")
def test_format_guess_does_not_read_whole_files_of_a_folder(tmp_path):
    # the guess reads the head of each file of a folder; a FIFO named *.jsonl is not a file and is not opened
    folder = tmp_path / "doccano"
    folder.mkdir()
    (folder / "alice.jsonl").write_text(DOCCANO_LINE + "\n")
    os.mkfifo(folder / "stuck.jsonl")
    assert accord.importers.guess_tool(folder) == "doccano"
    assert read_export(folder).report.coders == ("alice",)


def test_spreadsheet_import_report_frame_is_unchanged_without_formulas(tmp_path):
    f = tmp_path / "plain.xlsx"
    pd.DataFrame({"unit": ["q1", "q1"], "coder": ["a", "b"], "value": ["x", None]}).to_excel(f, index=False)
    imp = spreadsheet.read(f)
    assert imp.report.counts["b"] == {"annotated": 0, "empty": 1, "skipped": 0, "unassigned": 0}
    assert len(imp.report.notes) == 1
