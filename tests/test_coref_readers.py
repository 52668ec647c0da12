"""The coreference data model and its readers (seed 003: Passonneau 2004)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from accord._shared.errors import AccordError
from accord.coref import CorefAnnotations, example_passonneau2004

# --------------------------------------------------------------------------- model


def test_passonneau2004_figure2_classes():
    """Passonneau 2004, Figure 2: the equivalence classes of the three coders."""
    data = example_passonneau2004()
    as_sorted = {c: sorted(sorted(k) for k in data.classes("fig1", c)) for c in data.coders}
    assert as_sorted["RA.1"] == [["A", "D"], ["B", "E", "F", "L"], ["C", "H"], ["G", "J", "K"]]
    assert as_sorted["RA.2"] == [["A", "D"], ["B", "E", "F", "L"], ["C"], ["G", "K"], ["H"], ["J"]]
    assert as_sorted["RA.3"] == [["A", "D"], ["B", "E", "F", "L"], ["C", "H", "J", "K"], ["G"]]


def test_passonneau2004_table2_coding_values():
    """Passonneau 2004, Figure 2 ("10 Coding Values") and Table 2 (the canonical form)."""
    data = example_passonneau2004()
    cc = data.canonical_classes()
    assert cc.n_classes == 10
    mentions = data.mentions("fig1")
    sets = {k: frozenset(mentions[m] for m in cc.members_of(k)) for k in range(cc.n_classes)}
    table2 = {  # Table 2, right-hand key
        1: "AD", 2: "BEFL", 3: "CHJK", 4: "CH", 5: "C", 6: "GJK", 7: "GK", 8: "G", 9: "H", 10: "J",
    }
    assert set(sets.values()) == {frozenset(v) for v in table2.values()}
    # Table 2, body: the value each coder gives each token
    body = {
        "A": (1, 1, 1), "B": (2, 2, 2), "C": (4, 5, 3), "D": (1, 1, 1), "E": (2, 2, 2), "F": (2, 2, 2),
        "G": (6, 7, 8), "H": (4, 9, 3), "J": (6, 10, 3), "K": (6, 7, 3), "L": (2, 2, 2),
    }
    for m, tok in enumerate(mentions):
        for c in range(3):
            assert sets[int(cc.codes[c, m])] == frozenset(table2[body[tok][c]])


def test_passonneau2004_nil_as_missing():
    """Table 1 prints NIL for RA.2's J: with nil_as='missing' J has no value for RA.2."""
    data = example_passonneau2004(nil_as="missing")
    j = data.mentions("fig1").index("J")
    assert data.chain_codes[1, j] == -1
    assert data.canonical_classes().n_classes == 9
    assert all("J" not in k for k in data.classes("fig1", "RA.2"))


def test_passonneau2004_alpha_oracle():
    """The nominal .45 = 49/109 of Passonneau 2004 (section 3.1) on the interned classes,
    with the krippendorff package as an oracle (the lead's alpha is tested elsewhere)."""
    krippendorff = pytest.importorskip("krippendorff")
    codes = example_passonneau2004().canonical_classes().codes.astype(float)
    alpha = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert alpha == pytest.approx(49 / 109)
    codes = example_passonneau2004(nil_as="missing").canonical_classes().codes.astype(float)
    codes[codes < 0] = np.nan
    alpha = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert alpha == pytest.approx(187 / 404)


def test_reliability_records_less_unit():
    """Seed 003 section 3.3: C for RA.1 and RA.3 is {H} and {H, J, K} once C is removed."""
    recs = example_passonneau2004().reliability_records(convention="classes-less-unit")
    assert len(recs) == 33
    val = {(u[1], c): frozenset(m for _, m in v) for u, c, v in recs.itertuples(index=False)}
    assert val[("C", "RA.1")] == {"H"} and val[("C", "RA.3")] == {"H", "J", "K"}
    assert val[("J", "RA.1")] == {"G", "K"} and val[("J", "RA.3")] == {"C", "H", "K"}
    assert val[("K", "RA.2")] == {"G"} and val[("K", "RA.3")] == {"C", "H", "J"}
    assert val[("J", "RA.2")] == frozenset()
    whole = example_passonneau2004().reliability_records()
    assert all(u in v for u, _, v in whole.itertuples(index=False))
    with pytest.raises(AccordError, match="convention"):
        example_passonneau2004().reliability_records(convention="less")


def test_from_records_dataframe_and_roundtrip():
    df = pd.DataFrame(
        {
            "doc": ["d1"] * 4 + ["d2"] * 2,
            "m": [(0, 1), (3, 3), (5, 6), (0, 1), (2, 2), (4, 4)],
            "who": ["a", "a", "a", "b", "a", "a"],
            "ch": [1, 1, None, 7, 1, 2],
        }
    )
    data = CorefAnnotations.from_records(df, document="doc", mention="m", coder="who", chain="ch")
    assert data.documents == ("d1", "d2") and data.coders == ("a", "b")
    assert data.mentions("d1") == ((0, 1), (3, 3), (5, 6))
    assert data.classes("d1", "a") == [frozenset({(0, 1), (3, 3)})]  # (5, 6) non-referring
    # b lacks (3, 3), (5, 6) and all of d2: singletons by default, reported
    assert data.classes("d1", "b") == [frozenset({(0, 1)}), frozenset({(3, 3)}), frozenset({(5, 6)})]
    assert data.presence.n_partial == 4
    assert data.presence.to_frame().shape == (4, 3)
    assert data.partition("b") == {"d1": [frozenset({(0, 1)})], "d2": []}
    back = CorefAnnotations.from_records(data.to_records())
    for doc in data.documents:
        for c in data.coders:
            assert back.classes(doc, c) == data.classes(doc, c)
    missing = CorefAnnotations.from_records(
        df, document="doc", mention="m", coder="who", chain="ch", missing_mentions="missing"
    )
    assert missing.classes("d1", "b") == [frozenset({(0, 1)})]
    assert missing.classes("d2", "b") == []
    with pytest.raises(AccordError, match="present for only some coders"):
        CorefAnnotations.from_records(
            df, document="doc", mention="m", coder="who", chain="ch", missing_mentions="error"
        )


def test_from_records_polars():
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame(
        {"document": ["x", "x"], "mention": ["m1", "m2"], "coder": ["a", "a"], "chain": [1, 1]}
    )
    assert CorefAnnotations.from_records(frame).classes("x", "a") == [frozenset({"m1", "m2"})]


def test_from_records_errors_and_duplicates():
    with pytest.raises(AccordError, match="missing_mentions"):
        CorefAnnotations.from_records([("d", "m", "a", 1)], missing_mentions="drop")
    with pytest.raises(AccordError, match="no records"):
        CorefAnnotations.from_records([])
    with pytest.raises(AccordError, match="record 1 has no coder"):
        CorefAnnotations.from_records([("d", "m", "a", 1), ("d", "n", None, 1)])
    with pytest.raises(AccordError, match="4-tuple"):
        CorefAnnotations.from_records([("d", "m", "a")])
    with pytest.raises(AccordError, match="column"):
        CorefAnnotations.from_records(pd.DataFrame({"doc": []}))
    dup = [("d", "m", "a", 1), ("d", "n", "a", 2), ("d", "m", "a", 2)]
    with pytest.raises(AccordError, match="two chains"):
        CorefAnnotations.from_records(dup)
    first = CorefAnnotations.from_records(dup, duplicates="first")
    assert first.classes("d", "a") == [frozenset({"m"}), frozenset({"n"})]
    # the same chain twice is one record
    same = CorefAnnotations.from_records([("d", "m", "a", 1), ("d", "m", "a", 1), ("d", "n", "a", 1)])
    assert same.classes("d", "a") == [frozenset({"m", "n"})]
    data = example_passonneau2004()
    with pytest.raises(AccordError, match="coder 'X'"):
        data.classes("fig1", "X")
    with pytest.raises(AccordError, match="document 'nope'"):
        data.mentions("nope")


def test_chain_labels_are_per_document_and_coder():
    """The same chain label in two documents (or for two coders) is two chains."""
    data = CorefAnnotations.from_records(
        [("d1", "a", "x", 1), ("d1", "b", "x", 1), ("d2", "a", "x", 1), ("d1", "a", "y", 1)]
    )
    codes = data.chain_codes
    # d1/x, d2/x, d1/y, and y's singletons for b in d1 and a in d2
    assert len({int(v) for v in codes[codes >= 0]}) == 5
    assert data.classes("d2", "x") == [frozenset({"a"})]


def test_select_coders():
    data = example_passonneau2004()
    two = data.select_coders(["RA.1", "RA.3"])
    assert two.coders == ("RA.1", "RA.3")
    assert two.classes("fig1", "RA.3") == data.classes("fig1", "RA.3")
    with pytest.raises(AccordError, match="at least one"):
        data.select_coders([])


def test_canonical_classes_against_frozensets():
    """The vectorised interning agrees with plain frozensets on random partitions."""
    rng = np.random.default_rng(3)
    records = []
    for d in range(4):
        for c in range(3):
            for m in range(30):
                ch = None if rng.random() < 0.1 else int(rng.integers(0, 6))
                records.append((f"d{d}", m, f"c{c}", ch))
    data = CorefAnnotations.from_records(records)
    cc = data.canonical_classes()
    index = data.mention_index()
    pairs = list(zip(index["document"], index["mention"], strict=True))
    as_sets = [frozenset(pairs[m] for m in cc.members_of(k)) for k in range(cc.n_classes)]
    assert len(set(as_sets)) == cc.n_classes
    for c, coder in enumerate(data.coders):
        for doc in data.documents:
            expected = {frozenset((doc, m) for m in k) for k in data.classes(doc, coder)}
            got = {as_sets[k] for k, p in zip(cc.codes[c], pairs, strict=True) if p[0] == doc and k >= 0}
            assert got == expected


# --------------------------------------------------------------------------- readers
from pathlib import Path  # noqa: E402

from accord.coref import coref_scores, read_coref  # noqa: E402

DATA = Path(__file__).parent / "data" / "coref"


def _sorted_classes(data, doc, coder):
    return sorted(sorted(k) for k in data.classes(doc, coder))


def test_read_conll_two_coders():
    data = read_coref([DATA / "ann1.conll", DATA / "ann2.conll"])
    assert data.coders == ("ann1", "ann2")
    assert data.documents == ("(story); part 000", "(story); part 001")
    doc = "(story); part 000"
    # token indices run through the document part across the sentence break
    assert data.mentions(doc) == ((0, 0), (0, 2), (4, 4), (6, 6))
    assert _sorted_classes(data, doc, "ann1") == [[(0, 0), (4, 4)], [(0, 2), (6, 6)]]
    assert _sorted_classes(data, doc, "ann2") == [[(0, 0)], [(0, 2), (4, 4), (6, 6)]]
    # "It" is a (singleton) mention only for ann1: reported, and a singleton for ann2 by policy
    assert data.presence.partial == (("(story); part 001", (0, 0), ("ann1",)),)
    assert data.classes("(story); part 001", "ann2") == [frozenset({(0, 0)})]
    assert data.partition("ann2")["(story); part 001"] == []
    missing = read_coref([DATA / "ann1.conll", DATA / "ann2.conll"], missing_mentions="missing")
    assert missing.classes("(story); part 001", "ann2") == []
    named = read_coref([DATA / "ann1.conll", DATA / "ann2.conll"], coders=["x", "y"], format="conll")
    assert named.coders == ("x", "y")


def test_conll_scores_against_key():
    key = read_coref(DATA / "ann1.conll")
    resp = read_coref(DATA / "ann2.conll")
    s = coref_scores(key, resp)
    # key {J, him} {mother, She} {It}; response {J} {mother, him, She}
    assert (s.muc.recall_numerator, s.muc.recall_denominator) == (1, 2)
    assert (s.muc.precision_numerator, s.muc.precision_denominator) == (1, 2)
    assert s.n_documents == 2


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_conll_nesting_and_same_start(tmp_path):
    text = (
        "#begin document d\n"
        "x (5|(5|(6\n"  # two mentions of chain 5 start here, one of chain 6
        "x 5)\n"  # closes the inner (latest) 5: (0, 1)
        "x 6)|5)\n"  # closes 6 (0, 2) and the outer 5 (0, 2)? no: same span twice in two chains
        "#end document\n"
    )
    path = _write(tmp_path, "a.conll", text)
    with pytest.raises(AccordError, match=r"a\.conll:4: mention \(0, 2\)"):
        read_coref(path)
    first = read_coref(path, duplicates="first")
    assert _sorted_classes(first, "d", "a") == [[(0, 1)], [(0, 2)]]
    ok = _write(tmp_path, "b.conll", "#begin document d\nx (5|(5\nx 5)\nx -\nx 5)\nx (5)\n#end document\n")
    assert _sorted_classes(read_coref(ok), "d", "b") == [[(0, 1), (0, 3), (4, 4)]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x (1)\n", r"x\.conll:1: token line outside"),
        ("#begin document d\nx 1)\n#end document\n", r"x\.conll:2: '1\)' closes a mention of chain 1"),
        ("#begin document d\nx (1\nx -\n#end document\n", r"x\.conll:2: mention of chain 1 opened here"),
        ("#begin document d\nx 12\n#end document\n", r"x\.conll:2: cannot read coreference cell"),
        ("#begin document d\nx (1)\n", r"x\.conll: document 'd' has no '#end document'"),
        ("#end document\n", r"x\.conll:1: '#end document' without"),
        ("#begin document d\n#begin document e\n", r"x\.conll:2: '#begin document' inside"),
        (
            "#begin document d\n#end document\n#begin document d\n#end document\n",
            r"x\.conll:3: document 'd' appears twice",
        ),
    ],
)
def test_conll_errors_name_file_and_line(tmp_path, text, message):
    path = _write(tmp_path, "x.conll", text)
    with pytest.raises(AccordError, match=message):
        read_coref(path)


def test_read_brat():
    data = read_coref([DATA / "ann1.ann", DATA / "ann2.ann"])
    assert _sorted_classes(data, "document", "ann1") == [[(0, 4), (18, 21)], [(0, 13), (24, 27)], [(40, 45)]]
    assert _sorted_classes(data, "document", "ann2") == [[(0, 4)], [(0, 13), (18, 21), (24, 27)], [(40, 45)]]
    assert data.presence.n_partial == 1  # T5 only in ann1
    people = read_coref([DATA / "ann1.ann", DATA / "ann2.ann"], mention_types={"Person"})
    assert people.presence.n_partial == 0


def test_brat_directories_and_errors(tmp_path):
    for coder in ("a", "b"):
        (tmp_path / coder).mkdir()
        ann = "T1\tM 0 3\tabc\nT2\tM 5 8;9 12\tdef ghi\n*\tCoreference T1 T2\n"
        _write(tmp_path / coder, "doc1.ann", ann)
        _write(tmp_path / coder, "doc1.txt", "ignored")
    data = read_coref([tmp_path / "a", tmp_path / "b"], format="brat")
    assert data.coders == ("a", "b") and data.documents == ("doc1",)
    assert data.classes("doc1", "a") == [frozenset({(0, 3), (5, 8, 9, 12)})]
    bad = _write(tmp_path, "bad.ann", "T1\tM 0 3\tabc\nR1\tCoreference Arg1:T1 Arg2:T9\n")
    with pytest.raises(AccordError, match=r"bad\.ann:2: Coreference links T9, which is not defined"):
        read_coref(bad)
    bad = _write(tmp_path, "bad2.ann", "T1\tM zero 3\tabc\n")
    with pytest.raises(AccordError, match=r"bad2\.ann:1: cannot read offsets"):
        read_coref(bad)
    rel = _write(tmp_path, "rel.ann", "T1\tM 0 3\ta\nT2\tM 4 5\tb\nR1\tSame Arg1:T1 Arg2:T2\n")
    assert read_coref(rel, relation="Same").classes("document", "rel") == [frozenset({(0, 3), (4, 5)})]


def test_read_jsonl():
    data = read_coref([DATA / "ann1.jsonl", DATA / "ann2.jsonl"])
    assert data.documents == ("story_0", "story_1")
    assert _sorted_classes(data, "story_0", "ann1") == [[(0, 0), (4, 4)], [(0, 2), (7, 7)]]
    assert _sorted_classes(data, "story_0", "ann2") == [[(0, 0)], [(0, 2), (4, 4), (7, 7)]]
    assert data.presence.partial == (("story_1", (0, 0), ("ann1",)),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"doc_key": "d", "clusters": [[[0, 1]]]}\nnot json\n', r"y\.jsonl:2: not valid JSON"),
        ('{"doc_key": "d"}\n', r"y\.jsonl:1: expected a JSON object with a 'clusters' list"),
        ('{"doc_key": "d", "clusters": [[[0, 1, 2]]]}\n', r"y\.jsonl:1: cluster 0 holds \[0, 1, 2\]"),
        ('{"doc_key": "d", "clusters": [[[0, 1]], [[0, 1]]]}\n', r"y\.jsonl:1: mention \(0, 1\)"),
        ('{"doc_key": "d", "clusters": []}\n{"doc_key": "d", "clusters": []}\n', r"y\.jsonl:2: document 'd'"),
    ],
)
def test_jsonl_errors(tmp_path, text, message):
    with pytest.raises(AccordError, match=message):
        read_coref(_write(tmp_path, "y.jsonl", text))


def test_jsonl_predicted_clusters_and_missing_doc_key(tmp_path):
    path = _write(tmp_path, "sys.jsonl", '{"predicted_clusters": [[[1, 2], [5, 5]]]}\n')
    data = read_coref(path, clusters_key="predicted_clusters")
    assert data.classes("#1", "sys") == [frozenset({(1, 2), (5, 5)})]


def test_read_csv_passonneau_table1():
    """Table 1 of Passonneau 2004 as a long CSV; the empty chain cell is RA.2's NIL."""
    data = read_coref(DATA / "passonneau2004_table1.csv")
    expected = example_passonneau2004(nil_as="missing")
    assert data.coders == expected.coders
    for c in data.coders:
        assert _sorted_classes(data, "fig1", c) == _sorted_classes(expected, "fig1", c)


def test_csv_errors(tmp_path):
    path = _write(tmp_path, "z.csv", "document,mention,coder\nd,m,a\n")
    with pytest.raises(AccordError, match=r"z\.csv:1: missing column"):
        read_coref(path)
    path = _write(tmp_path, "z2.csv", "document,mention,coder,chain\nd,m,a,1\nd,,a,1\n")
    with pytest.raises(AccordError, match=r"z2\.csv:3: empty mention"):
        read_coref(path)
    path = _write(tmp_path, "z3.csv", "document,mention,coder,chain\nd,m,a,1\nd,n,a,1\nd,m,a,2\n")
    with pytest.raises(AccordError, match=r"z3\.csv:4: coder 'a' puts mention 'm'"):
        read_coref(path)
    with pytest.raises(AccordError, match="coders= cannot be used"):
        read_coref(DATA / "passonneau2004_table1.csv", coders=["x"])
    tsv = _write(tmp_path, "t.tsv", "document\tmention\tcoder\tchain\nd\tm\ta\t1\nd\tn\ta\t1\n")
    assert read_coref(tsv).classes("d", "a") == [frozenset({"m", "n"})]


def test_read_coref_argument_errors(tmp_path):
    with pytest.raises(AccordError, match="format must be one of"):
        read_coref(DATA / "ann1.conll", format="xml")
    with pytest.raises(AccordError, match="2 names for 1 paths"):
        read_coref(DATA / "ann1.conll", coders=["a", "b"])
    with pytest.raises(AccordError, match="cannot tell the format"):
        read_coref(_write(tmp_path, "x.txt", "hello"))
    with pytest.raises(AccordError, match="no such file"):
        read_coref(tmp_path / "nope.conll")
    with pytest.raises(AccordError, match="already read from"):
        read_coref([DATA / "ann1.conll", DATA / "ann2.conll"], coders=["a", "a"])
    with pytest.raises(AccordError, match="no mentions found"):
        read_coref(_write(tmp_path, "empty.jsonl", '{"doc_key": "d", "clusters": []}\n'))


def test_passonneau2004_alphas_through_plain_records():
    """Passonneau 2004, section 3: .45 nominal on the classes (49/109), .74 with the 0, 1/3, 2/3, 1
    distance on the classes less the unit (875/1179 with exact thirds), and 11/21 nominal on the
    classes less the unit (issue 3), from the plain frozenset records and accord.coefficients._alpha."""
    from accord.coefficients._alpha import alpha
    from accord.data._annotations import Annotations

    data = example_passonneau2004()

    def run(convention, distance):
        recs = data.reliability_records(convention=convention)
        annotations = Annotations.from_records(recs, unit="unit", coder="coder", value="value")
        return alpha(annotations, distance=distance)

    assert run("classes", "nominal").alpha == pytest.approx(49 / 109, abs=1e-12)
    assert run("classes-less-unit", "set-relation").alpha == pytest.approx(875 / 1179, abs=1e-12)
    assert run("classes-less-unit", "nominal").alpha == pytest.approx(11 / 21, abs=1e-12)


def test_readers_keep_the_words_and_sentence_of_each_mention(tmp_path):
    """What a person reads of a mention (the report names mentions by it): CoNLL's word column with sentences
    counted from 1 per document part, brat's T-line text, the sentences of a JSON line, a CSV's text and sentence
    columns (tests/data/coref, written by hand)."""
    from accord.coref import read_coref

    data_dir = Path(__file__).parent / "data" / "coref"
    conll = read_coref([data_dir / "ann1.conll", data_dir / "ann2.conll"]).mention_texts()
    assert conll[["text", "sentence"]].values.tolist() == [["John", 1], ["John 's mother", 1], ["him", 1],
                                                         ["She", 2], ["It", 1]]
    brat = read_coref([data_dir / "ann1.ann", data_dir / "ann2.ann"]).mention_texts()
    assert brat["text"].tolist()[:4] == ["John", "John's mother", "him", "She"]
    assert brat["sentence"].isna().all()
    jsonl = read_coref([data_dir / "ann1.jsonl", data_dir / "ann2.jsonl"]).mention_texts()
    assert jsonl["text"].tolist()[:2] == ["John", "John s mother"] and jsonl["text"].iloc[2] is None
    src = tmp_path / "c.csv"
    src.write_text("document,mention,coder,chain,text\nd,m1,a,1,the cat\nd,m1,b,1,\nd,m2,a,1,it\nd,m2,b,2,it\n")
    csv = read_coref(src).mention_texts()
    assert csv["text"].tolist() == ["the cat", "it"] and csv["sentence"].isna().all()
