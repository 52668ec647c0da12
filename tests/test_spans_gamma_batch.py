"""Small documents aligned together (accord.spans._gamma.batch): the same alignments as one at a time."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from accord.spans._gamma import (
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Continuum,
    PositionalDissimilarity,
    best_alignment,
    gamma,
)

batch = importlib.import_module("accord.spans._gamma.batch")

MATRIX = CategoricalDissimilarity.from_matrix({"a": {"b": 0.3, "c": 0.9}, "b": {"c": 0.5}})
DISSIMILARITIES = [CombinedDissimilarity(), PositionalDissimilarity(),
                   CombinedDissimilarity(0.5, 2, categorical=MATRIX)]


def document(rng, name, annotators, n_units, shift):
    """Units copied from reference units with noise, positions rounded to a tenth (ties happen)."""
    rows = []
    base = np.sort(rng.uniform(0, 20 * max(n_units, 1), n_units))
    for a in annotators:
        for s0 in base:
            if rng.random() < 0.2:
                continue
            s = round(float(s0 + rng.normal(0, 3) + shift), 1)
            rows.append((a, s, round(s + float(rng.uniform(2, 25)), 1), "abc"[int(rng.integers(3))]))
        if rng.random() < 0.4:
            s = round(float(rng.uniform(0, 20 * max(n_units, 1)) + shift), 1)
            rows.append((a, s, s + 10.0, "a"))
    return Continuum.from_arrays(name, annotators, [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
                                 [r[3] for r in rows])


def corpus(seed, n_docs=25):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n_docs):
        n_ann = int(rng.integers(2, 6))
        anns = [f"a{j}" for j in range(n_ann)]
        out.append(document(rng, f"d{i}", anns, int(rng.integers(0, 10)), float(rng.uniform(-100, 1000))))
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", range(len(DISSIMILARITIES)))
def test_batched_alignments_are_those_of_each_document_alone(seed, k):
    d = DISSIMILARITIES[k]
    cs = corpus(seed)
    many = batch.align_many(cs, d)
    assert any(len(b) > 1 for b in batch.batches(cs, d))
    for c, (sol, why) in zip(cs, many, strict=True):
        alone = best_alignment(c, d, alignment="exact")
        assert why is None and sol.method == "exact"
        assert sol.total == alone.total  # the same unitary alignments, summed in the same order
        assert sol.disorder == alone.disorder or (np.isnan(sol.disorder) and np.isnan(alone.disorder))
        np.testing.assert_array_equal(sol.tuples, alone.tuples)
        np.testing.assert_array_equal(sol.disorders, alone.disorders)
        assert sol.n_candidates == alone.n_candidates


def test_batches_group_documents_by_annotators_and_size(monkeypatch):
    rng = np.random.default_rng(1)
    two, three = ["A", "B"], ["A", "B", "C"]
    cs = [document(rng, "two0", two, 5, 0), document(rng, "three0", three, 5, 0), document(rng, "two1", two, 5, 0),
          Continuum.from_arrays("empty", two, [], [], [], []), document(rng, "big", two, 200, 0),
          document(rng, "three1", three, 5, 0)]
    d = CombinedDissimilarity()
    got = batch.batches(cs, d)
    assert sorted(map(sorted, got)) == [[0, 2], [1, 5], [3], [4]]  # the empty and the large one alone
    assert batch.batches(cs, d, "windowed") == [[i] for i in range(len(cs))]

    class Mine(PositionalDissimilarity):  # a user's dissimilarity may read a continuum's categories: alone
        pass

    assert batch.batches(cs, Mine()) == [[i] for i in range(len(cs))]
    monkeypatch.setitem(batch._BATCH_UNITS, 2, len(cs[0]))  # room for one document at a time
    assert [0] in batch.batches(cs, d) and [2] in batch.batches(cs, d)


def test_a_batch_past_the_listed_program_is_aligned_document_by_document(monkeypatch):
    cs = [c for c in corpus(3) if c.n_annotators >= 3]
    d = CombinedDissimilarity()
    calls = []
    real = batch.align
    monkeypatch.setattr(batch, "_LISTED", 5)
    monkeypatch.setattr(batch, "align", lambda c, *a: calls.append(c.document) or real(c, *a))
    many = batch.align_many(cs, d)
    assert sorted(calls) == sorted(c.document for c in cs)
    for c, (sol, _) in zip(cs, many, strict=True):
        assert sol.total == best_alignment(c, d, alignment="exact").total


def test_a_batch_names_the_document_of_a_unit():
    rng = np.random.default_rng(2)
    cs = [document(rng, f"doc{i}", ["A", "B", "C"], 4, 0) for i in range(3)]
    m = batch._merge(cs)
    assert len(m) == sum(len(c) for c in cs)
    for i in range(len(m)):
        c = cs[int(m.doc[i])]
        j = int(m.local[i])
        assert m.describe_unit(i) == c.describe_unit(j)
        assert (m.start[i], m.end[i], m.categories[m.category[i]]) == (c.start[j], c.end[j],
                                                                         c.categories[c.category[j]])


def test_gamma_aligns_small_documents_together_with_the_same_result(monkeypatch):
    cs = [c for c in corpus(4, 30) if len(c)]
    solved = []
    real = batch._solve
    monkeypatch.setattr(batch, "_solve", lambda m, *a: solved.append(len(m.parts)) or real(m, *a))
    together = gamma(cs, rng=5, min_samples=5, max_samples=5)
    assert solved and max(solved) > 1
    monkeypatch.setattr(batch, "_BATCH_DOC", 0)  # every document alone
    solved.clear()
    alone = gamma(cs, rng=5, min_samples=5, max_samples=5)
    assert not solved
    assert together.gamma == alone.gamma
    assert together.expected_samples == alone.expected_samples
    assert together.gamma_cat == alone.gamma_cat
    assert [x.n_candidates for x in together.documents] == [x.n_candidates for x in alone.documents]


def test_gamma_cat_sums_are_the_same_with_a_dissimilarity_of_ones_own():
    # accord's dissimilarities are bound once over the corpus's categories; a user's (here a subclass that
    # changes nothing) is bound per continuum: the sums behind gamma-cat and gamma-k agree
    estimate = importlib.import_module("accord.spans._gamma.estimate")

    class Mine(CategoricalDissimilarity):
        pass

    mine = Mine(MATRIX.matrix, MATRIX.categories)
    cs = [c for c in corpus(7, 12) if len(c)]
    cats = tuple(sorted({x for c in cs for x in c.categories}))
    codes = [np.array([cats.index(x) for x in c.categories]) for c in cs]
    sums = []
    for cat in (MATRIX, mine):
        d = CombinedDissimilarity(0.5, 2, categorical=cat)
        items = [(c, best_alignment(c, d, alignment="exact"), k) for c, k in zip(cs, codes, strict=True)]
        sums.append(estimate._cat_sums(items, d, cats))
    assert sums[0][0] == pytest.approx(sums[1][0], rel=1e-12) and sums[0][1] == pytest.approx(sums[1][1], rel=1e-12)
    np.testing.assert_allclose(sums[0][2], sums[1][2], rtol=1e-12)
    np.testing.assert_allclose(sums[0][3], sums[1][3], rtol=1e-12)
    assert sums[0][1] > 0
