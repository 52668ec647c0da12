"""The canonical span table reader on damaged and unusual input (issue 29): bad bytes and a huge cell are clear
errors or read, a byte-order mark is read, ids and labels lose their surrounding spaces."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError
from accord.cli import app
from accord.spans._readers import read_spans, read_texts

runner = CliRunner()
TABLE = "document,coder,start,end,label\nd1,ann1,0,5,PER\nd1,ann2,0,5,PER\nd2,ann1,3,7,LOC\nd2,ann2,3,7,LOC\n"


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_bad_bytes_name_the_file_and_line(tmp_path, suffix):
    good = TABLE if suffix == ".csv" else "".join(
        f'{{"document": "{d}", "coder": "{c}", "start": {s}, "end": {e}, "label": "{lab}"}}\n'
        for d, c, s, e, lab in (r.split(",") for r in TABLE.splitlines()[1:]))
    lines = good.encode().split(b"\n")
    lines[2] = lines[2].replace(b"ann", b"a\xe9n", 1)
    p = tmp_path / f"spans{suffix}"
    p.write_bytes(b"\n".join(lines))
    with pytest.raises(AccordError, match=r"spans\.(csv|jsonl):3: not UTF-8 text"):
        read_spans(p)
    r = runner.invoke(app, ["spans", str(p)])
    assert r.exit_code == 2 and "not UTF-8" in r.output and "Traceback" not in r.output


def test_texts_with_bad_bytes_name_the_file(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "d1.txt").write_bytes(b"Hello\nw\xffrld\n")
    with pytest.raises(AccordError, match=r"d1\.txt:2: not UTF-8 text"):
        read_texts(tmp_path / "t")
    (tmp_path / "texts.csv").write_bytes(b"document,text\nd1,caf\xe9\n")
    with pytest.raises(AccordError, match=r"texts\.csv:2: not UTF-8 text"):
        read_texts(tmp_path / "texts.csv")


def test_a_cell_of_140000_characters_is_read(tmp_path):
    big = "x" * 140_000
    p = tmp_path / "spans.csv"
    p.write_text("document,coder,start,end,label,text\n" + f"d1,ann1,0,5,PER,{big}\nd1,ann2,0,5,PER,\n")
    data = read_spans(p)
    assert len(data.spans) == 2 and max(len(s.text or "") for s in data.spans) == 140_000
    t = tmp_path / "texts.csv"
    t.write_text(f"document,text\nd1,{big}\n")
    assert len(read_texts(t)["d1"]) == 140_000


def test_a_byte_order_mark_is_read(tmp_path):
    p = tmp_path / "spans.csv"
    p.write_text("\ufeff" + TABLE, encoding="utf-8")
    assert len(read_spans(p).spans) == 4


def test_ids_and_labels_lose_surrounding_spaces(tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text(TABLE)
    b.write_text(TABLE.replace("d1,ann1,0,5,PER", " d1,ann1 ,0,5, PER ")
                 .replace("d2,ann2,3,7,LOC", "d2 , ann2,3,7,LOC "))
    x, y = read_spans(a), read_spans(b)
    assert sorted(x.seen) == sorted(y.seen)
    assert sorted((s.document, s.coder, s.label) for s in x.spans) == sorted((s.document, s.coder, s.label)
                                                                               for s in y.spans)
    j = tmp_path / "c.jsonl"
    j.write_text('{"document": 1, "coder": "ann1", "start": 0, "end": 5, "label": "PER"}\n'
                 '{"document": 1.0, "coder": " ann2", "start": 0, "end": 5, "label": "PER "}\n')
    z = read_spans(j)
    assert sorted(z.seen) == [("1", "ann1"), ("1", "ann2")] and {s.label for s in z.spans} == {"PER"}


def test_header_names_lose_spaces_and_a_repeated_one_is_refused(tmp_path):
    p = tmp_path / "spans.csv"
    p.write_text(TABLE.replace("document,coder,start,end,label", "document , coder,start,end, label"))
    assert len(read_spans(p).spans) == 4
    p.write_text(TABLE.replace("document,coder,start,end,label", "document,coder,start,end,label,label")
                 .replace("PER\n", "PER,ORG\n"))
    with pytest.raises(AccordError, match=r"spans\.csv:1: the header names column 'label' 2 times"):
        read_spans(p)
