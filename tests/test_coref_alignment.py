"""The coreference readers compare the files they align, and read any bytes without a traceback (issue 29).

CoNLL files are written by hand in the CoNLL-2011/2012 layout (Pradhan et al. 2012, the CoNLL-2012 shared task's
``*_conll`` format: column 3 is the word number within the sentence, column 4 the word, the last column the
chains); CoNLL-U files in the CorefUD 1.x layout (ten tab-separated columns, ID first, FORM second, ``Entity=`` in
MISC; the CoNLL-U format documentation: ``ID`` is the word index, an integer starting at 1 for each sentence).
Mentions are placed by token position in the document: a file that lost a token line shifts every later mention,
which must be an error naming the document, sentence and token, not a score of 0.
"""

from __future__ import annotations

import json
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from accord._shared.errors import AccordError, AccordWarning
from accord.cli import app
from accord.coref import coref_scores, read_coref
from accord.coref._report import coref_reliability

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "coref"
ANN1 = (DATA / "ann1.conll").read_text()
# ann1 less the unmarked token 'saw' (sentence 1, word 3): a line deleted by mistake
SHORT = ANN1.replace("story 0 3 saw VBD -\n", "")


def _write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def _quiet_read(*args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        data = read_coref(*args, **kwargs)
    return data, [str(w.message) for w in caught if issubclass(w.category, AccordWarning)]


# --------------------------------------------------------------------------- CoNLL-2012: token ids
def test_a_deleted_token_line_is_an_error_naming_document_sentence_and_token(tmp_path):
    a, b = _write(tmp_path, "ann1.conll", ANN1), _write(tmp_path, "ann2.conll", SHORT)
    with pytest.raises(AccordError) as e:
        read_coref([a, b])
    msg = str(e.value)
    assert f"{b}:5" in msg and "(story); part 000" in msg and "sentence 1" in msg and "token 4" in msg
    assert "'him'" in msg and f"{a}:5" in msg and "token 3" in msg and "'saw'" in msg
    assert "align='words'" in msg


def test_a_deleted_token_line_against_the_key_is_an_error(tmp_path):
    key, resp = _write(tmp_path, "gold.conll", ANN1), _write(tmp_path, "sys.conll", SHORT)
    with pytest.raises(AccordError, match="sentence 1.*token 4"):
        coref_scores(read_coref(key), read_coref(resp))
    with pytest.raises(AccordError, match="sentence 1.*token 4"):
        coref_reliability(read_coref([resp, _write(tmp_path, "other.conll", SHORT)]), key=read_coref(key))
    r = runner.invoke(app, ["coref", str(resp), "--key", str(key)])
    assert r.exit_code == 2 and "sentence 1" in r.output and "--align words" in r.output
    assert "Traceback" not in r.output


def test_align_words_places_mentions_by_the_words_and_says_what_differs(tmp_path):
    a, b = _write(tmp_path, "ann1.conll", ANN1), _write(tmp_path, "ann2.conll", SHORT)
    intact, _ = _quiet_read([a, _write(tmp_path, "copy.conll", ANN1)], coders=["ann1", "ann2"])
    data, said = _quiet_read([a, b], align="words")
    assert data.partition("ann2") == intact.partition("ann2")
    assert any("ann2.conll" in s and "'saw'" in s and "1 token" in s for s in said), said
    # and against the key: MUC and LEA F1 stay 1.0 (0.0 when mentions were placed by line)
    key = _write(tmp_path, "gold.conll", ANN1)
    r = runner.invoke(app, ["coref", str(b), "--key", str(key), "--align", "words", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["scores"]["muc"]["f1"] == 1.0 and out["scores"]["lea"]["f1"] == 1.0
    assert "'saw'" in r.stderr
    r = runner.invoke(app, ["coref", str(a), str(b), "--key", str(key), "--align", "words", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["scores"]["ann2"]["muc"]["f1"] == 1.0


def test_align_words_with_the_key_and_two_coders_in_the_api(tmp_path):
    key = read_coref(_write(tmp_path, "gold.conll", ANN1))
    data, _ = _quiet_read([_write(tmp_path, "x.conll", SHORT), _write(tmp_path, "y.conll", SHORT)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        rep = coref_reliability(data, key=key, align="words")
    assert rep.scores["x"].muc.f1 == 1.0 and rep.scores["x"].lea.f1 == 1.0
    assert any("'saw'" in str(w.message) for w in caught)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert coref_scores(key, data.select_coders(["x"]), align="words").muc.f1 == 1.0


def test_a_mention_on_a_token_the_reference_lacks_is_left_out_and_counted(tmp_path):
    extra = ANN1.replace("story 0 3 saw VBD -\n", "story 0 3 saw VBD -\nstory 0 4 clearly RB (9)\n")
    extra = extra.replace("story 0 4 him", "story 0 5 him").replace("story 0 5 . . -\n\nstory 0 0 She",
                                                                   "story 0 6 . . -\n\nstory 0 0 She")
    a, b = _write(tmp_path, "ann1.conll", ANN1), _write(tmp_path, "ann2.conll", extra)
    with pytest.raises(AccordError, match="token 4"):
        read_coref([a, b])
    data, said = _quiet_read([a, b], align="words")
    assert (4, 4) in data.mentions("(story); part 000")  # 'him' in both, where ann1 has it
    assert (5, 5) not in data.mentions("(story); part 000")
    assert any("'clearly'" in s and "1 mention" in s for s in said), said


def test_words_are_compared_when_the_layout_has_no_token_ids(tmp_path):
    # jsonlines with sentences (e2e-coref): no token ids, the words decide
    a = '{"doc_key": "d", "sentences": [["John", "saw", "him"]], "clusters": [[[0, 0], [2, 2]]]}\n'
    b = '{"doc_key": "d", "sentences": [["John", "him"]], "clusters": [[[0, 0], [1, 1]]]}\n'
    pa, pb = _write(tmp_path, "a.jsonl", a), _write(tmp_path, "b.jsonl", b)
    with pytest.raises(AccordError, match=r"b.jsonl:1: document 'd': coder 'b' has sentence 1, token 2 \('him'\)"):
        read_coref([pa, pb])
    data, said = _quiet_read([pa, pb], align="words")
    assert data.partition("a") == data.partition("b")
    # same ids, other words: the ids decide (a spelling fixed in one file moves nothing)
    c = ANN1.replace(" mother ", " Mother ")
    _quiet_read([_write(tmp_path, "one.conll", ANN1), _write(tmp_path, "two.conll", c)])


def test_align_option_is_checked(tmp_path):
    a = _write(tmp_path, "ann1.conll", ANN1)
    with pytest.raises(AccordError, match="align must be one of"):
        read_coref(a, align="lines")
    r = runner.invoke(app, ["coref", str(a), str(a), "--align", "lines"])
    assert r.exit_code == 2 and "--align" in r.output


# --------------------------------------------------------------------------- CorefUD / CoNLL-U: word IDs
def _row(ident: str, form: str, misc: str = "_") -> str:
    return "\t".join([ident, form, "_", "_", "_", "_", "_", "_", "_", misc])


CONLLU = "\n".join([
    "# newdoc id = d1", "# sent_id = s1",
    _row("1", "Marie", "Entity=(e1-person-1-)"), _row("2", "saw"), _row("3", "Pierre", "Entity=(e2-person-1-)"),
    _row("4", "and"), _row("5", "she", "Entity=(e1-person-1-)"), "",
]) + "\n"


def test_corefud_deleted_word_is_an_error_and_aligns_by_words(tmp_path):
    a = _write(tmp_path, "a.conllu", CONLLU)
    b = _write(tmp_path, "b.conllu", CONLLU.replace(_row("2", "saw") + "\n", "").replace(
        _row("3", "Pierre"), _row("2", "Pierre")).replace(_row("4", "and"), _row("3", "and")).replace(
        _row("5", "she"), _row("4", "she")))
    with pytest.raises(AccordError) as e:
        read_coref([a, b])
    assert f"{b}:4" in str(e.value) and "'d1'" in str(e.value) and "sentence 1" in str(e.value)
    data, said = _quiet_read([a, b], align="words")
    assert data.partition("b") == data.partition("a")
    assert any("'saw'" in s for s in said)


# --------------------------------------------------------------------------- bytes and byte-order marks
@pytest.mark.parametrize("name,good", [
    ("a.conll", ANN1),
    ("a.conllu", CONLLU),
    ("a.ann", (DATA / "ann1.ann").read_text()),
    ("a.jsonl", (DATA / "ann1.jsonl").read_text()),
    ("a.csv", "document,mention,coder,chain\nd,A,x,1\nd,B,x,1\n"),
])
def test_bad_bytes_are_a_clear_error_with_file_and_line(tmp_path, name, good):
    lines = good.encode().split(b"\n")
    lines[2] = lines[2][:3] + b"\xff\xfe" + lines[2][3:]
    p = _write(tmp_path, name, b"\n".join(lines))
    with pytest.raises(AccordError, match=rf"{p.name}:3: not UTF-8 text"):
        read_coref(p)
    r = runner.invoke(app, ["coref", str(p), str(p)])
    assert r.exit_code == 2 and "not UTF-8" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("name,good", [
    ("a.conll", ANN1),
    ("a.conllu", CONLLU),
    ("a.ann", (DATA / "ann1.ann").read_text()),
    ("a.jsonl", (DATA / "ann1.jsonl").read_text()),
    ("a.csv", "document,mention,coder,chain\nd,A,x,1\nd,B,x,1\n"),
])
def test_a_byte_order_mark_is_read_and_said(tmp_path, name, good):
    (tmp_path / "plain").mkdir()
    plain, _ = _quiet_read(_write(tmp_path / "plain", name, good))
    marked, said = _quiet_read(_write(tmp_path, name, "\ufeff" + good))
    assert marked.partition(marked.coders[0]) == plain.partition(plain.coders[0])
    assert any("byte-order mark" in s for s in said), said


# --------------------------------------------------------------------------- ids and labels
def test_surrounding_spaces_of_ids_are_removed_and_counted(tmp_path):
    clean = _write(tmp_path, "clean.csv", "document,mention,coder,chain\nd,A,x,1\nd,B,x,1\nd,A,y,1\nd,B,y,2\n")
    spaced = _write(tmp_path, "spaced.csv",
                    "document,mention,coder,chain\nd ,A,x,1\n d,B, x,1\nd,A ,y,1 \nd,B,y,2\n")
    a, _ = _quiet_read(clean)
    b, said = _quiet_read(spaced)
    assert a.coders == b.coders and a.documents == b.documents
    assert a.partition("x") == b.partition("x") and a.partition("y") == b.partition("y")
    assert any("5 id cells" in s and "spaces" in s for s in said), said
    j1 = _write(tmp_path, "j1.jsonl", '{"doc_key": " d1 ", "clusters": [[[0, 0], [2, 2]]]}\n')
    j2 = _write(tmp_path, "j2.jsonl", '{"doc_key": "d1", "clusters": [[[0, 0], [2, 2]]]}\n')
    data, _ = _quiet_read([j1, j2])
    assert data.documents == ("d1",) and data.presence.n_partial == 0


def test_report_checks_the_key_and_aligns_by_words_on_request(tmp_path):
    key = _write(tmp_path, "gold.conll", ANN1)
    a, b = _write(tmp_path, "a.conll", SHORT), _write(tmp_path, "b.conll", SHORT)
    out = tmp_path / "r.html"
    args = ["report", str(a), str(b), "--key", str(key), "-o", str(out), "--bootstrap", "0", "-q", "--json"]
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and "sentence 1, token 4 ('him')" in r.output and "--align words" in r.output
    r = runner.invoke(app, [*args, "--align", "words"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["headline"]["alpha"]["nominal"]["alpha"] == 1.0
    assert "'saw'" in r.stderr and out.exists()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_align_words_undoes_deleted_unmarked_tokens(data):
    # a document of distinct words with chains on some tokens; the second file loses some unmarked tokens
    n = data.draw(st.integers(4, 30))
    cells = data.draw(st.lists(st.sampled_from(["-", "-", "(1)", "(2)", "(3)"]), min_size=n, max_size=n))
    marked = [k for k, c in enumerate(cells) if c != "-"]
    unmarked = [k for k, c in enumerate(cells) if c == "-"]
    if not marked or not unmarked:
        return
    gone = set(data.draw(st.lists(st.sampled_from(unmarked), min_size=1, unique=True)))

    def conll(keep):
        rows = [f"d 0 {i} w{k} {cells[k]}" for i, k in enumerate(k for k in range(n) if k in keep)]
        return "#begin document d\n" + "\n".join(rows) + "\n#end document\n"

    with tempfile.TemporaryDirectory() as tmp:
        a = _write(Path(tmp), "a.conll", conll(set(range(n))))
        b = _write(Path(tmp), "b.conll", conll(set(range(n)) - gone))
        with pytest.raises(AccordError, match="document 'd'"):
            read_coref([a, b])
        aligned, said = _quiet_read([a, b], align="words")
    assert aligned.partition("b") == aligned.partition("a")
    assert any(f"{len(gone)} token" in s for s in said), said


def test_corefud_empty_nodes_move_with_their_word(tmp_path):
    # an empty node 0.1 before the first word (position -0.9) and one after word 3 (position 2.1)
    rows = ["# newdoc id = d1", _row("0.1", "_", "Entity=(e3-person-1-)"),
            _row("1", "Marie", "Entity=(e1-person-1-)"), _row("2", "saw"), _row("3", "Pierre"),
            _row("3.1", "_", "Entity=(e1-person-1-)"), _row("4", "and"), _row("5", "she", "Entity=(e1-person-1-)"),
            ""]
    a = _write(tmp_path, "a.conllu", "\n".join(rows) + "\n")
    short = [r for r in rows if r != _row("2", "saw")]
    short = [r.replace("3\tPierre", "2\tPierre").replace("3.1\t", "2.1\t").replace("4\tand", "3\tand")
             .replace("5\tshe", "4\tshe") for r in short]
    b = _write(tmp_path, "b.conllu", "\n".join(short) + "\n")
    with pytest.raises(AccordError, match="sentence 1"):
        read_coref([a, b])
    data, _ = _quiet_read([a, b], align="words")
    assert data.partition("b") == data.partition("a")
    assert data.presence.n_partial == 0


def test_brat_mention_types_and_document_name_lose_surrounding_spaces():
    plain = read_coref(DATA / "ann1.ann", mention_types=["Person"], document="story")
    spaced = read_coref(DATA / "ann1.ann", mention_types=[" Person "], document="story ")
    assert spaced.documents == plain.documents == ("story",)
    assert spaced.partition("ann1") == plain.partition("ann1")
    assert read_coref(DATA / "ann1.ann", mention_types="Person", document="story").partition("ann1") == (
        plain.partition("ann1"))
    assert plain.n_mentions == 4  # T5 is an Other


@pytest.mark.parametrize("key", ["NaN", "[1]", "{}", "true", "Infinity"])
def test_jsonl_doc_key_must_name_a_document(tmp_path, key):
    p = _write(tmp_path, "a.jsonl", f'{{"doc_key": {key}, "clusters": [[[0, 0]]]}}\n')
    with pytest.raises(AccordError, match=r"a\.jsonl:1: doc_key must be a string"):
        read_coref(p)


def test_csv_header_names_lose_spaces_and_a_repeated_one_is_refused(tmp_path):
    p = _write(tmp_path, "a.csv", "document , mention,coder,chain \nd,A,x,1\nd,B,x,1\n")
    assert read_coref(p).mentions("d") == ("A", "B")
    p = _write(tmp_path, "b.csv", "document,mention,coder,chain,chain\nd,A,x,1,2\nd,B,x,1,1\n")
    with pytest.raises(AccordError, match=r"b\.csv:1: the header names column 'chain' 2 times"):
        read_coref(p)


def test_the_error_names_the_deleted_token_not_an_earlier_spelling(tmp_path):
    a = _write(tmp_path, "a.conll", ANN1)
    b = _write(tmp_path, "b.conll", SHORT.replace(" mother ", " Mother "))
    with pytest.raises(AccordError, match=r"sentence 1, token 4 \('him'\) where .* token 3 \('saw'\)"):
        read_coref([a, b])
