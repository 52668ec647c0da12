"""The layout of a CoNLL coreference file is read from its lines, not from its name (issue 18, part B).

A corpus named its files ``.conllu`` but wrote the five-column word-first layout ``word sentence token _
chains`` (the chains in the last column as CoNLL-2012 writes them, ``(1``, ``1)``, ``(1)`` joined by ``|``;
Pradhan et al. 2014, reference-coreference-scorers README); a word such as ``9.90`` was taken for a CoNLL-U
empty node and the file refused.  The fixtures below are written by hand in that layout, in CoNLL-U (the
ten columns of https://universaldependencies.org/format.html, ``Entity=`` in MISC as CorefUD 1.x writes it)
and in CoNLL-U with the chains last; every expected mention is worked out in the comments (positions count
the tokens of the document from 0).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError, AccordWarning
from accord.cli import app
from accord.coref import read_coref
from accord.coref._readers import conllu_ids, detect_format

runner = CliRunner()

# word sentence token _ chains
WORD_FIRST = """#begin document (prices); part 000
Shares\t0\t0\t_\t(1
of\t0\t1\t_\t-
Acme\t0\t2\t_\t(2)|1)
rose\t0\t3\t_\t-
to\t0\t4\t_\t-
9.90\t0\t5\t_\t(3)
.\t0\t6\t_\t-

It\t1\t0\t_\t(1)
won\t1\t1\t_\t-
2-1\t1\t2\t_\t-
at\t1\t3\t_\t-
9.90\t1\t4\t_\t(3)
.\t1\t5\t_\t-
#end document
"""
# tokens: Shares 0, of 1, Acme 2, rose 3, to 4, 9.90 5, . 6, It 7, won 8, 2-1 9, at 10, 9.90 11, . 12
# chain 1: (0, 2) "Shares of Acme" and (7, 7) "It"; chain 2: (2, 2) "Acme"; chain 3: (5, 5) and (11, 11), the prices
EXPECTED = [frozenset({(0, 2), (7, 7)}), frozenset({(2, 2)}), frozenset({(5, 5), (11, 11)})]
DOC = "(prices); part 000"


def _write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def _chains(data, coder: str) -> list[frozenset]:  # type: ignore[no-untyped-def]
    return sorted(data.partition(coder)[DOC], key=min)


@pytest.mark.parametrize("name", ["prices.conllu", "prices.conll", "prices.txt"])
def test_word_first_layout_with_numeric_words(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name, WORD_FIRST)
    assert detect_format(path) == ("conll", "extension" if name.endswith(".conll") else
                                   "content starts with '#begin document'")
    for fmt in ("auto", "conll"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)  # the guess from the content, tested above
            data = read_coref(path, format=fmt)
        assert _chains(data, "prices") == EXPECTED
        assert data.mentions(DOC) == ((0, 2), (2, 2), (5, 5), (7, 7), (11, 11))


def test_word_first_layout_on_the_command_line(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.conllu", WORD_FIRST)
    b = _write(tmp_path, "b.conllu", WORD_FIRST.replace("It\t1\t0\t_\t(1)", "It\t1\t0\t_\t(2)"))
    for extra in ([], ["--format", "conll"]):
        res = runner.invoke(app, ["coref", str(a), str(b), "--json", *extra])
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert out["n_documents"] == 1 and out["n_mentions"] == 5


def test_conllu_ids_decide_from_the_lines() -> None:
    assert conllu_ids(["1", "2", "3-4", "3", "4", "5", "1", "2"])  # two sentences, one multiword token
    assert conllu_ids(["1", "2", "2.1", "3", "0.1", "1"])  # empty nodes after word 2, and before a sentence
    assert not conllu_ids(["Shares", "of", "9.90"])  # the words of the word-first layout
    assert not conllu_ids(["9.90"])  # an empty node after no word
    assert not conllu_ids(["1", "3"])  # a word skipped
    assert not conllu_ids(["1", "5-6"])  # a range that does not start at the next word
    assert not conllu_ids([])


# CoNLL-U with the chains in the last column (ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS chains),
# named .conll: the multiword line 3-4 and the empty node 2.1 are not tokens because the ids say so.
CONLLU_CHAINS = """#begin document (fr); part 000
1\tLes\tle\tDET\t_\t_\t2\tdet\t_\t(0
2\tsinges\tsinge\tNOUN\t_\t_\t0\troot\t_\t0)
2.1\tvont\taller\tVERB\t_\t_\t_\t_\t_\t_
3-4\tdes\t_\t_\t_\t_\t_\t_\t_\t_
3\tde\tde\tADP\t_\t_\t5\tcase\t_\t-
4\tles\tle\tDET\t_\t_\t5\tdet\t_\t(0
5\tprimates\tprimate\tNOUN\t_\t_\t2\tnmod\t_\t0)
#end document
"""
# tokens: Les 0, singes 1, de 2, les 3, primates 4: chain 0 is {(0, 1), (3, 4)}


@pytest.mark.parametrize("name", ["fr.conll", "fr.conllu", "fr.v4_gold_conll"])
def test_conllu_ids_under_any_name(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name, CONLLU_CHAINS)
    data = read_coref(path, format="conll")
    assert data.partition(path.stem) == {"(fr); part 000": [frozenset({(0, 1), (3, 4)})]}


def test_coreference_on_a_multiword_line_is_still_refused(tmp_path: Path) -> None:
    bad = CONLLU_CHAINS.replace("3-4\tdes\t_\t_\t_\t_\t_\t_\t_\t_", "3-4\tdes\t_\t_\t_\t_\t_\t_\t_\t(7)")
    with pytest.raises(AccordError, match=r"x\.conll:5: CoNLL-U line 3-4 \(a multiword token or an empty node\) "
                                          r"carries coreference '\(7\)'"):
        read_coref(_write(tmp_path, "x.conll", bad), format="conll")


def _row(ident: str, form: str, misc: str = "_") -> str:
    return "\t".join([ident, form, "_", "_", "_", "_", "_", "_", "_", misc])


# CorefUD 1.x: ten tab-separated columns, Entity= in MISC.
COREFUD = "\n".join([
    "# newdoc id = story",
    "# global.Entity = eid-etype-head-other",
    "# sent_id = s1",
    _row("1", "Marie", "Entity=(e1-person-1-)"),  # [0]  e1 (0, 0)
    _row("2", "saw"),  # [1]
    _row("3-4", "du"),  # not a word
    _row("3", "de", "Entity=(e2-person-2-"),  # [2]
    _row("4", "le"),  # [3]
    _row("5", "Pierre", "Entity=e2)"),  # [4]  e2 (2, 4)
    "",
    "# sent_id = s2",
    _row("1", "She", "Entity=(e1-person-1-)"),  # [5]  e1 (5, 5)
    _row("2", "left"),  # [6]
    "",
]) + "\n"


def test_corefud_named_conll_is_read_as_corefud(tmp_path: Path) -> None:
    named_conll = _write(tmp_path, "ud.conll", COREFUD)
    assert detect_format(named_conll) == ("corefud", "CoNLL-U whose MISC column carries Entity= (CorefUD), "
                                                     "whatever the name .conll says")
    with pytest.warns(AccordWarning, match=r"ud\.conll: read as corefud"):
        data = read_coref(named_conll)
    assert data.partition("ud") == {"story": [frozenset({(0, 0), (5, 5)}), frozenset({(2, 4)})]}
    with pytest.warns(AccordWarning, match=r"ud\.conllu: read as corefud"):
        same = read_coref(_write(tmp_path, "ud.conllu", COREFUD))
    assert same.partition("ud") == data.partition("ud")
    # a folder of them, with format corefud given
    folder = tmp_path / "coder"
    folder.mkdir()
    _write(folder, "story.conll", COREFUD)
    assert read_coref(folder, format="corefud").partition("coder") == data.partition("ud")


def test_corefud_named_conll_on_the_command_line(tmp_path: Path) -> None:
    a = _write(tmp_path, "a.conll", COREFUD)
    b = _write(tmp_path, "b.conll", COREFUD.replace("Entity=(e1-person-1-)\n\n# sent_id = s2", "_\n\n# sent_id = s2"))
    res = runner.invoke(app, ["coref", str(a), str(b), "--json"])
    assert res.exit_code == 0, res.output
    assert "a.conll: read as corefud" in res.stderr


def test_format_wins_over_name_and_content(tmp_path: Path) -> None:
    ud = _write(tmp_path, "ud.conll", COREFUD)
    # --format conll on CorefUD: read as CoNLL-2012, refused with the way out
    res = runner.invoke(app, ["coref", str(ud), str(ud), "--format", "conll"])
    assert res.exit_code == 2
    assert "token line outside '#begin document'" in res.stderr and "--format corefud" in res.stderr
    # --format corefud on the word-first layout: read as CoNLL-U, refused naming the columns
    wf = _write(tmp_path, "wf.conllu", WORD_FIRST)
    res = runner.invoke(app, ["coref", str(wf), str(wf), "--format", "corefud"])
    assert res.exit_code == 2 and "10 tab-separated columns" in res.stderr
    # --format corefud on CorefUD named .conll: read without a guess to state
    res = runner.invoke(app, ["coref", str(ud), str(ud), "--coders", "a,b", "--format", "corefud", "--json"])
    assert res.exit_code == 0 and "read as" not in res.stderr
