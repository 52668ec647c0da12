"""Coreference alpha (Passonneau 2004): Table 2's numbers and the fast paths against plain frozensets."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from accord import AccordError, Annotations, alpha
from accord.coref import CorefAnnotations, example_passonneau2004
from accord.coref._alpha import coref_alpha


def test_table2_nominal_on_classes_is_049_over_109():
    """Passonneau (2004), section 3.1: alpha .45 treating Table 2's class indices as nominal."""
    res = coref_alpha(example_passonneau2004())
    assert res.convention == "classes" and res.n_classes == 10
    assert res.alpha == pytest.approx(float(Fraction(49, 109)), abs=1e-15)


def test_table2_set_relation_on_classes_less_unit_is_875_over_1179():
    """Passonneau (2004), section 3.3: .74 with delta 0, 1/3, 2/3, 1 after removing the unit (exact thirds)."""
    res = coref_alpha(example_passonneau2004(), distance="set-relation")
    assert res.convention == "classes-less-unit"
    assert res.alpha == pytest.approx(float(Fraction(875, 1179)), abs=1e-15)
    assert round(res.alpha, 2) == 0.74


def test_table2_with_printed_thirds():
    """With the printed .33 and .67 the value still rounds to the paper's .74."""
    from accord.distances import SetRelation

    res = coref_alpha(example_passonneau2004(), distance=SetRelation(exact=False))
    assert round(res.alpha, 2) == 0.74


def test_table2_nominal_on_classes_less_unit_is_11_over_21():
    """Nominal on the classes less the unit: the singletons all become the empty set and match: 11/21."""
    res = coref_alpha(example_passonneau2004(), convention="classes-less-unit")
    assert res.alpha == pytest.approx(11 / 21, abs=1e-15)


def random_coref(seed: int, n_mentions: int = 30, coders: int = 3, policy: str = "singleton",
                 drop: float = 0.0) -> CorefAnnotations:
    rng = np.random.default_rng(seed)
    rows = []
    base = rng.integers(0, n_mentions // 3, n_mentions)
    for d in ("d1", "d2"):
        for c in range(coders):
            chains = np.where(rng.random(n_mentions) < 0.3, rng.integers(0, n_mentions, n_mentions), base)
            for m in range(n_mentions):
                if rng.random() < drop:
                    continue  # the coder's input lacks this mention
                chain = None if rng.random() < 0.05 else f"{d}-{chains[m]}"
                rows.append((d, m, f"coder{c}", chain))
    df = pd.DataFrame(rows, columns=["document", "mention", "coder", "chain"])
    return CorefAnnotations.from_records(df, missing_mentions=policy)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("policy", ["singleton", "missing"])
@pytest.mark.parametrize("distance", ["nominal", "set-relation", "masi-2006", "masi-2010", "jaccard", "dice"])
@pytest.mark.parametrize("convention", ["classes", "classes-less-unit"])
def test_fast_path_equals_plain_frozensets(seed, policy, distance, convention):
    """DESIGN.md: check every fast path against the plain frozenset computation on small random data."""
    data = random_coref(seed, policy=policy, drop=0.1, coders=2 + seed % 3)
    fast = coref_alpha(data, distance=distance, convention=convention)
    plain = alpha(Annotations.from_records(data.reliability_records(convention=convention)), distance=distance)
    assert fast.alpha == pytest.approx(plain.alpha, abs=1e-12)
    assert fast.n_pairable == plain.n_pairable


def test_errors():
    data = example_passonneau2004()
    with pytest.raises(AccordError, match="convention must be one of"):
        coref_alpha(data, convention="mentions")
    with pytest.raises(AccordError, match="set distance"):
        coref_alpha(data, distance="interval")
    with pytest.raises(AccordError, match="CorefAnnotations"):
        coref_alpha([[1, 2]])
    with pytest.raises(AccordError, match="resamples documents and needs at least two"):
        coref_alpha(data).confidence_interval()


def corpus(seed: int, n_docs: int = 10, mentions: int = 12, coders: int = 3) -> CorefAnnotations:
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        base = rng.integers(0, mentions // 3, mentions)
        for c in range(coders):
            chains = np.where(rng.random(mentions) < 0.25, rng.integers(0, mentions, mentions), base)
            for m in range(mentions):
                rows.append((f"doc{d}", m, f"c{c}", None if rng.random() < 0.05 else int(chains[m])))
    df = pd.DataFrame(rows, columns=["document", "mention", "coder", "chain"])
    return CorefAnnotations.from_records(df, missing_mentions="missing")


def resampled(data: CorefAnnotations, docs: list[int]) -> CorefAnnotations:
    """The corpus made of the given documents (repeats become distinct copies), built from scratch."""
    recs = data.to_records()
    names = list(data.documents)
    parts = []
    for copy, d in enumerate(docs):
        part = recs[recs.document == names[d]].copy()
        part["document"] = f"{names[d]}#{copy}"
        part["chain"] = [None if ch is None else f"{ch}#{copy}" for ch in part["chain"]]
        parts.append(part)
    return CorefAnnotations.from_records(pd.concat(parts, ignore_index=True), missing_mentions="missing")


@pytest.mark.parametrize(("distance", "convention"), [("nominal", "classes"), ("set-relation", "classes-less-unit"),
                                                      ("masi-2006", "classes"), ("dice", "classes-less-unit")])
def test_document_decomposition_equals_rebuilt_resample(distance, convention):
    """The bootstrap's per-document sums give exactly the alpha of the resampled corpus rebuilt from records."""
    data = corpus(3)
    res = coref_alpha(data, distance=distance, convention=convention)
    docs = [0, 0, 2, 5, 5, 5, 7, 9]
    c = np.bincount(docs, minlength=len(data.documents)).astype(float)
    n = c @ res._doc_n
    from_parts = 1 - (c @ res._doc_observed / n) / (res._doc_parts.total(c) / (n * (n - 1)))
    rebuilt = coref_alpha(resampled(data, docs), distance=distance, convention=convention).alpha
    assert from_parts == pytest.approx(rebuilt, abs=1e-12)


def test_document_bootstrap_interval():
    res = coref_alpha(corpus(5, n_docs=20), distance="set-relation")
    lo, hi = res.confidence_interval(0.95, n_resamples=300, rng=2)
    assert (lo, hi) == res.confidence_interval(0.95, n_resamples=300, rng=2)
    assert lo < res.alpha < hi
    with pytest.raises(AccordError, match="confidence_level"):
        res.confidence_interval(2)


def test_document_bootstrap_with_two_documents_is_defined():
    # with two documents a resample may draw one document twice; the interval is over the defined resamples
    res = coref_alpha(corpus(5, n_docs=2), distance="set-relation")
    lo, hi = res.confidence_interval(0.95, n_resamples=200, rng=1)
    assert not (np.isnan(lo) or np.isnan(hi)) and lo <= res.alpha <= hi
