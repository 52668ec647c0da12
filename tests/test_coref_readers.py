"""The coreference data model and its readers (seed 003: Passonneau 2004)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from accord.coref import CorefAnnotations, example_passonneau2004
from accord.errors import AccordError

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
