"""``accord coref RESPONSE --key KEY``, ``--duplicates`` and format detection by content (issue 10, part 2).

CoNLL files are written by hand in the CoNLL-2011/2012 layout the reference scorer reads (documents between
``#begin document (name); part 000`` and ``#end document``, the chains in the last column as ``(1``, ``1)``,
``(1)`` joined by ``|``; Pradhan et al. 2014, reference-coreference-scorers README), including the 5-column
``document part index word chains`` variant.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordWarning
from accord.cli import app
from accord.coref import coref_scores, read_coref
from accord.coref._readers import detect_format

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "coref"

KEY = """#begin document (news); part 000
news\t0\t0\tMary\t(1)
news\t0\t1\tsaw\t-
news\t0\t2\tJohn\t(2)
news\t0\t3\t.\t-

news\t0\t4\tShe\t(1)
news\t0\t5\tgreeted\t-
news\t0\t6\thim\t(2)
news\t0\t7\t.\t-
#end document
"""
# The response puts "him" with Mary and She. Key chains {Mary, She}, {John, him}; response {Mary, She, him},
# {John}: MUC recall = ((2 - 1) + (2 - 2)) / ((2 - 1) + (2 - 1)) = 1/2 (Vilain et al. 1995).
RESPONSE = KEY.replace("him\t(2)", "him\t(1)")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_one_response_against_the_key_prints_scores_and_no_alpha(tmp_path):
    key = _write(tmp_path, "gold.conll", KEY)
    resp = _write(tmp_path, "system.conll", RESPONSE)
    want = coref_scores(read_coref(key).partition("gold"), read_coref(resp).partition("system"))
    r = runner.invoke(app, ["coref", str(resp), "--key", str(key), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert "alpha" not in out and out["response"] == "system"
    assert out["scores"]["muc"]["recall"] == want.muc.recall == 0.5  # key links Mary-She, John-him: 1 of 2 kept
    assert out["scores"]["conll_f1"] == pytest.approx(want.conll_f1)
    r = runner.invoke(app, ["coref", str(resp), "--key", str(key)])
    assert r.exit_code == 0, r.output
    assert "system against the key gold.conll" in r.stdout and "alpha" not in r.stdout.lower()
    assert "CEAF-e" in r.stdout and "CoNLL F1 (mean of MUC, B³, CEAF-e)" in r.stdout and "ceaf_e" not in r.stdout


def test_one_file_without_key_says_what_to_do(tmp_path):
    resp = _write(tmp_path, "system.conll", RESPONSE)
    r = runner.invoke(app, ["coref", str(resp)])
    assert r.exit_code == 2
    assert "--key KEY" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = runner.invoke(app, ["coref", str(resp), "--key", str(resp), "--bootstrap", "10"])
    assert r.exit_code == 2 and "no alpha" in r.stderr


def test_duplicates_flag(tmp_path):
    key = _write(tmp_path, "gold.conll", KEY)
    dup = _write(tmp_path, "dup.conll", RESPONSE.replace("John\t(2)", "John\t(2)|(1)"))
    r = runner.invoke(app, ["coref", str(dup), "--key", str(key)])
    assert r.exit_code == 2
    assert "--duplicates first" in r.stderr and "dup.conll:4" in r.stderr and "duplicates='first'" not in r.stderr
    r = runner.invoke(app, ["coref", str(dup), "--key", str(key), "--duplicates", "first", "--json"])
    assert r.exit_code == 0, r.output
    first = json.loads(r.stdout)["scores"]["muc"]
    plain = runner.invoke(app, ["coref", str(_write(tmp_path, "s.conll", RESPONSE)), "--key", str(key), "--json"])
    assert first == json.loads(plain.stdout)["scores"]["muc"]  # the first chain (2) kept, as in RESPONSE
    r = runner.invoke(app, ["coref", str(dup), "--key", str(key), "--duplicates", "last"])
    assert r.exit_code == 2 and "--duplicates must be 'error' or 'first'; got 'last'" in r.stderr


@pytest.mark.parametrize("name", ["system.conllu", "system.txt", "system"])
def test_conll_content_under_other_names_is_read_and_the_guess_stated(tmp_path, name):
    key = _write(tmp_path, "gold.conll", KEY)
    resp = _write(tmp_path, name, RESPONSE)
    assert detect_format(resp) == ("conll", "content starts with '#begin document'")
    r = runner.invoke(app, ["coref", str(resp), "--key", str(key), "--json"])
    assert r.exit_code == 0, r.output
    assert f"{name}: read as conll (content starts with '#begin document')" in r.stderr
    assert json.loads(r.stdout)["scores"]["muc"]["recall"] == 0.5


def test_five_column_variant_equals_the_full_layout(tmp_path):
    five = read_coref(_write(tmp_path, "five.conll", KEY))
    # The same document in the 12-column CoNLL-2012 layout (POS, parse, lemma, frameset, sense, speaker, NE).
    rows = []
    for line in KEY.splitlines():
        cells = line.split("\t")
        rows.append(" ".join([*cells[:4], "NN", "*", "-", "-", "-", "-", "*", cells[4]]) if len(cells) == 5 else line)
    wide = "\n".join(rows)
    full = read_coref(_write(tmp_path, "full.v4_gold_conll", wide + "\n"))
    assert five.mentions("(news); part 000") == ((0, 0), (2, 2), (4, 4), (6, 6))
    assert five.partition("five") == full.partition("full")


def test_detection_by_content_of_other_formats(tmp_path):
    jl = _write(tmp_path, "a.out", '{"doc_key": "d", "clusters": [[[0, 0], [4, 5]]]}\n')
    assert detect_format(jl)[0] == "jsonl"
    csv = _write(tmp_path, "b.data", "document\tmention\tcoder\tchain\nd\tA\tx\t1\nd\tB\tx\t1\n")
    assert detect_format(csv)[0] == "csv"
    with pytest.warns(AccordWarning, match="b.data: read as csv"):
        assert read_coref(csv).coders == ("x",)
    brat = _write(tmp_path, "c.standoff", "T1\tPerson 0 4\tMary\nT2\tPerson 10 13\tShe\n*\tCoreference T1 T2\n")
    assert detect_format(brat)[0] == "brat"
    r = runner.invoke(app, ["coref", str(jl), "--key", str(jl)])
    assert r.exit_code == 0 and "a.out: read as jsonl" in r.stderr
    # CoNLL-U without '#begin document' but with Entity= in MISC is CorefUD (tests/test_coref_corefud.py);
    # without either, and an unknown content: one clear line each.
    conllu = _write(tmp_path, "x.conllu", "# sent_id = 1\n1\tMary\tMary\tPROPN\t_\t_\t0\troot\t_\tEntity=(e1)\n")
    r = runner.invoke(app, ["coref", str(conllu), "--key", str(conllu)])
    assert r.exit_code == 0 and "x.conllu: read as corefud" in r.stderr
    bare = _write(tmp_path, "z.conllu", "# sent_id = 1\n1\tMary\tMary\tPROPN\t_\t_\t0\troot\t_\t_\n")
    r = runner.invoke(app, ["coref", str(bare), "--key", str(bare)])
    assert r.exit_code == 2 and "CorefUD" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    odd = _write(tmp_path, "y.bin", "hello world\n")
    r = runner.invoke(app, ["coref", str(odd)])
    assert r.exit_code == 2 and "cannot tell the format" in r.stderr and "--format" in r.stderr


def test_conllu_multiword_lines_are_not_tokens(tmp_path):
    # CoNLL-U with '#begin document': ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS and the chains last.
    text = (
        "#begin document (fr); part 000\n"
        "1\tLes\tle\tDET\t_\t_\t2\tdet\t_\t(0\n"
        "2\tsinges\tsinge\tNOUN\t_\t_\t0\troot\t_\t0)\n"
        "3-4\tdes\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\tde\tde\tADP\t_\t_\t5\tcase\t_\t-\n"
        "4\tles\tle\tDET\t_\t_\t5\tdet\t_\t(0\n"
        "5\tprimates\tprimate\tNOUN\t_\t_\t2\tnmod\t_\t0)\n"
        "#end document\n"
    )
    data = read_coref(_write(tmp_path, "fr.conllu", text), format="conll")
    assert data.partition("fr") == {"(fr); part 000": [frozenset({(0, 1), (3, 4)})]}
