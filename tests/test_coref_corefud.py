"""The CorefUD reader: CoNLL-U with ``Entity=`` bracket annotations in the MISC column.

The fixtures are written by hand in the CorefUD 1.x layout (ten tab-separated CoNLL-U columns, ``Entity=`` in
MISC: ``(e1-person-2-`` opens a mention of e1, ``e1)`` closes it, ``(e2-person-1-)`` is one word, several chunks
joined without separators, ``(e7[1/2]-...`` ... ``e7[1/2])`` a part of a discontinuous mention), and every
expected chain is worked out by hand in the comments: the position of word k of a sentence is the number of
words of the document's earlier sentences plus k - 1; multiword-token lines are not words; an empty node k.n
is at position(word k) + n/10.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from accord._shared.errors import AccordError, AccordWarning
from accord.cli import app
from accord.coref import coref_scores, read_coref
from accord.coref._alpha import coref_alpha
from accord.coref._readers import detect_format

runner = CliRunner()


def _row(ident: str, form: str, misc: str = "_") -> str:
    return "\t".join([ident, form, "_", "_", "_", "_", "_", "_", "_", misc])


def _doc(*sentences: tuple[str, list[tuple[str, str, str]]], newdoc: str | None = None) -> str:
    out = [f"# newdoc id = {newdoc}"] if newdoc else []
    for sent_id, rows in sentences:
        out.append(f"# sent_id = {sent_id}")
        out += [_row(*r) for r in rows]
        out.append("")
    return "\n".join(out) + "\n"


# Document 1 (English).  Positions in brackets.
S1 = [  # Marie Curie met Pierre and his sister .
    ("1", "Marie", "Entity=(e1-person-2-"),  # [0]
    ("2", "Curie", "Entity=e1)"),  # [1]   e1 (0, 1)
    ("3", "met"),  # [2]
    ("4", "Pierre", "Entity=(e2-person-1-)"),  # [3]   e2 (3, 3) single word
    ("5", "and"),  # [4]
    ("6", "his", "Entity=(e3-person-2-(e2-person-1-)"),  # [5]   two chunks: e3 opens, e2 (5, 5)
    ("7", "sister", "Entity=e3)"),  # [6]   e3 (5, 6), nesting e2 (5, 5)
    ("8", ".", "_"),  # [7]
]
S2 = [  # She gave the old red book to her brother .
    ("1", "She", "Entity=(e1-person-1-)"),  # [8]   e1 (8, 8)
    ("2", "gave"),  # [9]
    ("3", "the", "Entity=(e4-object-3-"),  # [10]
    ("4", "old", "Entity=(e5-object-3-"),  # [11]
    ("5", "red", "Entity=e4)"),  # [12]  e4 (10, 12) crosses e5
    ("6", "book", "Entity=e5)"),  # [13]  e5 (11, 13)
    ("7", "to"),  # [14]
    ("8", "her", "Entity=(e2-person-2-(e1-person-1-)"),  # [15]  e1 (15, 15)
    ("9", "brother", "Entity=e2)"),  # [16]  e2 (15, 16), same start as e1 (15, 15)
    ("10", "."),  # [17]
]
S3 = [  # A book , he said , about physics .
    ("1", "A", "Entity=(e7[1/2]-object-2-"),  # [18]
    ("2", "book", "Entity=e7[1/2])|Bridge=e8<e7"),  # [19]  part 1 of e7: (18, 19); one Bridge link
    ("3", ","),  # [20]
    ("4", "he", "Entity=(e2-person-1-)"),  # [21]  e2 (21, 21)
    ("5", "said"),  # [22]
    ("6", ","),  # [23]
    ("7", "about", "Entity=(e7[2/2]-object-2-"),  # [24]
    ("8", "physics", "Entity=(e8-abstract-1-)e7[2/2])"),  # [25]  e8 (25, 25); e7 (18, 19, 24, 25)
    ("9", "."),  # [26]
]
# Document 2 (German): a multiword token, a nested mention of the same entity, an empty node.
T1 = [  # Jürgen geht zum Bäcker , der ihn kennt .
    ("1", "Jürgen", "Entity=(e1-person-1-)"),  # [0]   e1 (0, 0)
    ("2", "geht"),  # [1]
    ("3-4", "zum", "SpaceAfter=No"),  # not a word
    ("3", "zu"),  # [2]
    ("4", "dem", "Entity=(e2-person-2-"),  # [3]
    ("5", "Bäcker"),  # [4]
    ("6", ","),  # [5]
    ("7", "der", "Entity=(e2-person-1-)"),  # [6]   e2 (6, 6) inside e2 (3, 8)
    ("8", "ihn", "Entity=(e1-person-1-)"),  # [7]   e1 (7, 7)
    ("9", "kennt", "Entity=e2)"),  # [8]   e2 (3, 8)
    ("10", "."),  # [9]
]
T2 = [  # Dann lachte _ .  (an empty node for the dropped subject)
    ("1", "Dann"),  # [10]
    ("2", "lachte", "Entity=(e3-event-1-"),  # [11]
    ("2.1", "_", "Entity=(e1-person-1-)e3)|SplitAnte=e1<e9"),  # [11.1] e1 (11.1, 11.1), e3 (11, 11.1)
    ("3", "."),  # [12]
]

HEADER = "# global.Entity = eid-etype-head-other\n"
CODER_A = HEADER + _doc(("d1-s1", S1), ("d1-s2", S2), ("d1-s3", S3), newdoc="doc1") + _doc(
    ("d2-s1", T1), ("d2-s2", T2), newdoc="dok2"
)
CHAINS_A = {
    "doc1": {
        frozenset({(0, 1), (8, 8), (15, 15)}),
        frozenset({(3, 3), (5, 5), (15, 16), (21, 21)}),
        frozenset({(5, 6)}),
        frozenset({(10, 12)}),
        frozenset({(11, 13)}),
        frozenset({(18, 19, 24, 25)}),
        frozenset({(25, 25)}),
    },
    "dok2": {
        frozenset({(0, 0), (7, 7), (11.1, 11.1)}),
        frozenset({(3, 8), (6, 6)}),
        frozenset({(11, 11.1)}),
    },
}
# Coder B: "She" (S2 word 1) is put with Pierre (e2) rather than Marie, and "ihn" (T1 word 8) with the baker.
def _recode(text: str, form: str, old: str, new: str) -> str:
    """*text* with the MISC cell *old* of the (one) word *form* replaced by *new*."""
    assert text.count(_row("1", form, old)[2:]) == 1
    return text.replace(_row("1", form, old)[2:], _row("1", form, new)[2:])


CODER_B = _recode(_recode(CODER_A, "She", "Entity=(e1-person-1-)", "Entity=(e2-person-1-)"),
                  "ihn", "Entity=(e1-person-1-)", "Entity=(e2-person-1-)")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _as_sets(partition: dict) -> dict:
    return {doc: set(chains) for doc, chains in partition.items()}


def test_chains_worked_out_by_hand(tmp_path):
    a = _write(tmp_path, "a.conllu", CODER_A)
    with pytest.warns(AccordWarning) as caught:
        data = read_coref(a)
    messages = [str(w.message) for w in caught]
    assert any("read as corefud" in m for m in messages)
    # SplitAnte and Bridge are counted and stated, not read into chains
    assert any("1 SplitAnte link and 1 Bridge link are not identity coreference" in m for m in messages)
    assert data.documents == ("doc1", "dok2")
    assert _as_sets(data.partition("a")) == CHAINS_A
    assert data.mentions("dok2") == ((0, 0), (3, 8), (6, 6), (7, 7), (11, 11.1), (11.1, 11.1))


def test_coder_b_and_detection(tmp_path):
    b = _write(tmp_path, "b.conllu", CODER_B)
    assert detect_format(b) == ("corefud", "CoNLL-U whose MISC column carries Entity= (CorefUD)")
    with pytest.warns(AccordWarning) as caught:
        data = read_coref(b, format="corefud")
    assert not any("read as" in str(w.message) for w in caught)  # named: no guess to state
    doc1 = set(data.partition("b")["doc1"])
    assert frozenset({(0, 1), (15, 15)}) in doc1
    assert frozenset({(3, 3), (5, 5), (8, 8), (15, 16), (21, 21)}) in doc1
    assert set(data.partition("b")["dok2"]) == {frozenset({(0, 0), (11.1, 11.1)}),
                                                frozenset({(3, 8), (6, 6), (7, 7)}), frozenset({(11, 11.1)})}
    # an unknown extension is recognised by its CoNLL-U lines with Entity= in MISC
    odd = _write(tmp_path, "b.txt", CODER_B)
    assert detect_format(odd)[0] == "corefud"
    # a .conllu with no coreference at all is refused, naming both layouts
    plain = _write(tmp_path, "plain.conllu", _doc(("s1", [("1", "Hallo")])))
    with pytest.raises(AccordError, match="neither '#begin document'.*nor Entity="):
        detect_format(plain)


def test_global_entity_layout_and_defaults(tmp_path):
    # eid in second place; no '# newdoc': one document named 'document'
    text = "# global.Entity = etype-eid-head\n" + _doc(("s1", [
        ("1", "Ελένη", "Entity=(person-x1-1)"),  # [0]
        ("2", "και"),  # [1]
        ("3", "αυτή", "Entity=(person-x1-1)"),  # [2]
    ]))
    data = read_coref(_write(tmp_path, "gr.conllu", text), format="corefud")
    assert data.partition("gr") == {"document": [frozenset({(0, 0), (2, 2)})]}
    # without the header the CorefUD 1.0 layout eid-etype-head-other is assumed; '# newdoc' without id
    text = "# newdoc\n" + _doc(("s1", [("1", "Ich", "Entity=(e1-person-1-)"), ("2", "mich", "Entity=(e1)")]))
    data = read_coref(_write(tmp_path, "de.conllu", text), format="corefud")
    assert data.partition("de") == {"#1": [frozenset({(0, 0), (1, 1)})]}


def test_empty_nodes_before_the_first_word_and_after_the_last(tmp_path):
    text = _doc(
        ("s1", [("1", "A", "Entity=(e1-x-1-)"), ("2", "B"), ("2.1", "_", "Entity=(e1-x-1-)")]),  # [0] [1] [1.1]
        ("s2", [("0.1", "_", "Entity=(e1-x-1-)"), ("1", "C", "Entity=(e1-x-1-)")]),  # [1.2] (after 1.1), [2]
        newdoc="d",
    )
    data = read_coref(_write(tmp_path, "e.conllu", text), format="corefud")
    assert data.partition("e") == {"d": [frozenset({(0, 0), (1.1, 1.1), (1.2, 1.2), (2, 2)})]}


def test_same_chains_and_scores_as_conll_2012(tmp_path):
    """Document 1's first two sentences written in the CoNLL-2012 layout read to the same chains and scores."""
    conll = "#begin document (doc1); part 000\n"
    cells = [  # chains e1..e5 as 1..5; the same nesting, crossing and several parts in one cell
        ("Marie", "(1"), ("Curie", "1)"), ("met", "-"), ("Pierre", "(2)"), ("and", "-"), ("his", "(3|(2)"),
        ("sister", "3)"), (".", "-"), None,
        ("She", "(1)"), ("gave", "-"), ("the", "(4"), ("old", "(5"), ("red", "4)"), ("book", "5)"), ("to", "-"),
        ("her", "(2|(1)"), ("brother", "2)"), (".", "-"),
    ]
    i = 0
    for c in cells:
        if c is None:
            conll += "\n"
            continue
        conll += f"doc1\t0\t{i}\t{c[0]}\t{c[1]}\n"
        i += 1
    conll += "#end document\n"
    ud = HEADER + _doc(("d1-s1", S1), ("d1-s2", S2), newdoc="doc1")
    ud_b = _recode(ud, "She", "Entity=(e1-person-1-)", "Entity=(e2-person-1-)")
    conll_b = conll.replace("She\t(1)", "She\t(2)")
    from_ud = read_coref([_write(tmp_path, "a.conllu", ud), _write(tmp_path, "b.conllu", ud_b)],
                         format="corefud")
    from_conll = read_coref([_write(tmp_path, "a.conll", conll), _write(tmp_path, "b.conll", conll_b)])
    for coder in ("a", "b"):
        assert set(from_ud.partition(coder)["doc1"]) == set(from_conll.partition(coder)["(doc1); part 000"])
    s_ud = coref_scores(from_ud.partition("a"), from_ud.partition("b"))
    s_conll = coref_scores(from_conll.partition("a"), from_conll.partition("b"))
    assert s_ud.to_frame().equals(s_conll.to_frame())
    # MUC recall: key e1 {Marie Curie, She, her} split by b into {Marie Curie, her} + {She}: 3 - 2 = 1 link kept;
    # e2 {Pierre, his, her brother} whole in b's e2: 3 - 1 = 2; e3..e5 singletons: 0.  (1 + 2) / (2 + 2)
    assert s_ud.muc.recall == pytest.approx(3 / 4)
    for dist in ("nominal", "set-relation"):
        assert coref_alpha(from_ud, distance=dist).alpha == pytest.approx(coref_alpha(from_conll, distance=dist).alpha)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([("1", "a", "Entity=(e1-x-1-"), ("2", "b")], r"u\.conllu:3: a mention of entity e1 opened here is never "
                                                      r"closed \(document 'd' ends at line 6\)"),
        ([("1", "a", "Entity=e9)")], r"u\.conllu:3 \(sentence 's1'\): 'e9\)' closes a mention of entity e9 that is "
                                     "not open"),
        ([("1", "a", "Entity=(e1[3/2]-x-1-)")], r"u\.conllu:3 .*bad discontinuous index 'e1\[3/2\]'"),
        ([("1", "a", "Entity=(e1[2/2]-x-1-)")], r"u\.conllu:3 .*bad discontinuous index.*part 2 of 2 of entity e1 "
                                                "follows no closed part 1"),
        ([("1", "a", "Entity=(e1[1/2]-x-1-"), ("2", "b", "Entity=e1[2/2])")],
         r"u\.conllu:4 .*bad discontinuous index: 'e1\[2/2\]\)' closes part 2/2 .* is part 1/2"),
        ([("1", "a", "Entity=(e1[1/2]-x-1-)")], r"u\.conllu:3: the discontinuous mention of entity e1 begun here "
                                                "has 1 of its 2 parts"),
        ([("1", "a", "Entity=(e1-x-1-)e1")], r"u\.conllu:3 .*cannot read Entity='\(e1-x-1-\)e1'"),
        ([("1-2", "ab", "Entity=(e1)"), ("1", "a"), ("2", "b")], r"u\.conllu:3 .*multiword token 1-2 carries"),
    ],
)
def test_errors_name_file_and_line(tmp_path, rows, message):
    text = "# newdoc id = d\n" + _doc(("s1", rows)) + "# newdoc id = d2\n"
    with pytest.raises(AccordError, match=message):
        read_coref(_write(tmp_path, "u.conllu", text), format="corefud")


def test_more_errors(tmp_path):
    with pytest.raises(AccordError, match=r"u\.conllu:2 .*10 tab-separated columns"):
        read_coref(_write(tmp_path, "u.conllu", "# sent_id = s\n1\ta\tEntity=(e1)\n"), format="corefud")
    same_span = _doc(("s1", [("1", "a", "Entity=(e1-x-1-)(e2-x-1-)")]), newdoc="d")
    with pytest.raises(AccordError, match=r"v\.conllu:3: mention \(0, 0\) of document 'd' is in chain 'e2'.*"
                                          "duplicates='first'"):
        read_coref(_write(tmp_path, "v.conllu", same_span), format="corefud")
    assert read_coref(tmp_path / "v.conllu", format="corefud", duplicates="first").partition("v") == {
        "d": [frozenset({(0, 0)})]
    }
    twice = _doc(("s1", [("1", "a")]), newdoc="d") + _doc(("s2", [("1", "b")]), newdoc="d")
    with pytest.raises(AccordError, match=r"w\.conllu:5: document 'd' appears twice"):
        read_coref(_write(tmp_path, "w.conllu", twice), format="corefud")


def test_directories_of_conllu_files(tmp_path):
    for coder, text in (("annA", CODER_A), ("annB", CODER_B)):
        (tmp_path / coder).mkdir()
        _write(tmp_path / coder, "part.conllu", text)
    with pytest.warns(AccordWarning) as caught:
        data = read_coref([tmp_path / "annA", tmp_path / "annB"])
    assert sum("read as corefud" in str(w.message) for w in caught) == 2
    assert data.coders == ("annA", "annB") and data.documents == ("doc1", "dok2")
    assert _as_sets(data.partition("annA")) == CHAINS_A


def test_cli_two_coders_end_to_end(tmp_path):
    a = _write(tmp_path, "a.conllu", CODER_A)
    b = _write(tmp_path, "b.conllu", CODER_B)
    r = runner.invoke(app, ["coref", str(a), str(b), "--json"])
    assert r.exit_code == 0, r.output
    assert "a.conllu: read as corefud" in r.stderr and "SplitAnte" in r.stderr
    out = json.loads(r.stdout)
    with pytest.warns(AccordWarning):
        data = read_coref([a, b])
    want = coref_alpha(data, distance="nominal", convention="classes").alpha
    assert out["alpha"]["nominal"]["classes"]["alpha"] == pytest.approx(want)
    assert 0 < want < 1
    r = runner.invoke(app, ["coref", str(a), str(b), "--key", str(a)])
    assert r.exit_code == 0, r.output
    assert "conll" in r.stdout.lower()


def test_mentions_keep_their_words_and_sentence(tmp_path):
    """The FORMs of each mention's words (empty nodes left out; a discontinuous mention's parts joined by '…') and
    the sentence it starts in, counted from 1 within the document."""
    text = _doc(("s1", [("1", "Anna", "Entity=(e1-person-1-)"), ("2", "sleeps", "_")]),
                ("s2", [("1", "She", "Entity=(e1-person-1-)"), ("2", "and", "_"),
                        ("3", "her", "Entity=(e2[1/2]-person-1-)"), ("4", "big", "_"),
                        ("5", "dog", "Entity=(e2[2/2]-person-1-)")]), newdoc="d")
    with pytest.warns(AccordWarning, match="read as corefud"):
        data = read_coref(_write(tmp_path, "a.conllu", text))
    rows = data.mention_texts()[["mention", "text", "sentence"]].values.tolist()
    assert rows == [[(0, 0), "Anna", 1], [(2, 2), "She", 2], [(4, 4, 6, 6), "her … dog", 2]]
