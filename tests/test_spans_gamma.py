"""Gamma (Mathet, Widlöcher & Métivier 2015): hand cases, pygamma-agreement as an oracle, errors.

pygamma-agreement 0.5.9 computes in float32; its best alignment is re-priced in
float64 here (with accord's dissimilarity on the units it chose) before the
1e-9 comparison, so the test checks that both programs choose a partition of
the same least disorder.
"""

from __future__ import annotations

import itertools
import logging
import math
import warnings

import numpy as np
import pytest

from accord import AccordError
from accord._shared.errors import AccordWarning
from accord.spans import Span, SpanAnnotations
from accord.spans._gamma import (
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Continuum,
    PositionalDissimilarity,
    best_alignment,
    continua,
    gamma,
)


def cont(rows, annotators=(), document="d"):
    return Continuum.from_arrays(document, list(annotators), [r[0] for r in rows], [r[1] for r in rows],
                                 [r[2] for r in rows], [r[3] for r in rows])


def dpos(u, v):
    r = (abs(u[1] - v[1]) + abs(u[2] - v[2])) / ((u[2] - u[1]) + (v[2] - v[1]))
    return r * r


def ua_cost(units, n, d):
    """Disorder of one unitary alignment (None for the empty unit), by the definition."""
    pairs = list(itertools.combinations(units + [None] * (n - len(units)), 2))
    return sum(1.0 if u is None or v is None else d(u, v) for u, v in pairs) / len(pairs)


def combined(u, v):
    return dpos(u, v) + (0.0 if u[3] == v[3] else 1.0)


# -- hand cases ---------------------------------------------------------------------------------------------------


def test_identical_annotations_have_no_disorder():
    rows = [(a, s, e, c) for a in "AB" for s, e, c in [(0, 5, "x"), (10, 20, "y")]]
    sol = best_alignment(cont(rows), CombinedDissimilarity())
    assert sol.disorder == 0.0
    assert sorted(map(tuple, sol.tuples.tolist())) == [(0, 2), (1, 3)]


def test_three_annotators_by_the_definition():
    rows = [("A", 0, 10, "x"), ("A", 12, 20, "y"), ("B", 1, 9, "x"), ("B", 30, 40, "y"), ("C", 0, 11, "y")]
    sol = best_alignment(cont(rows), CombinedDissimilarity())
    # A1, B1, C1 together; A2 and B2 alone (each costs delta_empty = 1)
    expected = (ua_cost([rows[0], rows[2], rows[4]], 3, combined) + 1 + 1) / (5 / 3)
    assert sol.disorder == pytest.approx(expected, abs=1e-12)
    assert sol.disorder == pytest.approx(1.6079088, abs=1e-6)  # pygamma-agreement 0.5.9 on the same continuum


def test_an_annotator_who_marked_nothing_counts_in_the_mean():
    rows = [("A", 0, 10, "x"), ("B", 0, 10, "x")]
    two = best_alignment(cont(rows), CombinedDissimilarity())
    three = best_alignment(cont(rows, annotators=["A", "B", "C"]), CombinedDissimilarity())
    assert two.disorder == 0
    # {A, B, empty}: pairs (A,B)=0, (A,-)=(B,-)=1 -> 2/3, over x = 2/3 units per annotator
    assert three.disorder == pytest.approx((2 / 3) / (2 / 3))


def test_far_units_stay_alone_and_delta_empty_scales():
    rows = [("A", 0, 10, "x"), ("B", 100, 110, "x")]
    for de in (1.0, 2.5):
        sol = best_alignment(cont(rows), CombinedDissimilarity(delta_empty=de))
        assert len(sol.tuples) == 2 and sol.disorder == pytest.approx(2 * de)


def test_pair_kept_exactly_at_its_bound():
    # two annotators: a pair costs d, its units alone 2 delta; d = 2 is a tie, either way the disorder is 2
    rows = [("A", 0, 10, "x"), ("B", 0, 10, "y")]
    d = CombinedDissimilarity(beta=2.0)
    assert best_alignment(cont(rows), d).disorder == pytest.approx(2.0)


def test_fractional_relaxation_is_solved_as_an_integer_program():
    # three units, pairwise dissimilarity 2.5: half of each pair (LP 2.25) beats any partition (2.5)
    m = CategoricalDissimilarity.from_matrix({"a": {"b": 2.5, "c": 2.5}, "b": {"c": 2.5}})
    d = CombinedDissimilarity(alpha=0, beta=1, categorical=m)
    rows = [("A", 0, 1, "a"), ("B", 0, 1, "b"), ("C", 0, 1, "c")]
    sol = best_alignment(cont(rows), d)
    assert sol.total == pytest.approx(2.5)
    assert sol.disorder == pytest.approx(2.5)


def test_zero_length_units_align_only_at_the_same_point():
    rows = [("A", 5, 5, "x"), ("B", 5, 5, "x"), ("A", 9, 9, "x"), ("B", 10, 10, "x")]
    sol = best_alignment(cont(rows), CombinedDissimilarity())
    assert sol.total == pytest.approx(0 + 1 + 1)


def test_dissimilarity_values():
    f = PositionalDissimilarity(delta_empty=2).bind(())
    v = f(np.array([0.0]), np.array([10.0]), np.array([0]), np.array([2.0]), np.array([8.0]), np.array([0]))
    assert v[0] == pytest.approx(((2 + 2) / 16) ** 2 * 2)
    o = CategoricalDissimilarity.ordinal(["lo", "mid", "hi"], delta_empty=2).bind(["hi", "lo", "mid"])
    assert o(None, None, np.array([0, 1]), None, None, np.array([1, 2])).tolist() == [2.0, 1.0]
    n = CategoricalDissimilarity.numeric(["1", "2", "5"]).matrix
    assert n[0, 2] == 1.0 and n[0, 1] == pytest.approx(0.25)


def test_corpus_pools_the_documents():
    rows1 = [("A", 0, 10, "x"), ("B", 2, 10, "x")]
    rows2 = [("A", 0, 10, "x"), ("B", 50, 60, "x"), ("B", 70, 80, "y")]
    r = gamma([cont(rows1, document="d1"), cont(rows2, document="d2")], rng=0, min_samples=5, max_samples=5)
    s1 = best_alignment(cont(rows1), CombinedDissimilarity())
    s2 = best_alignment(cont(rows2), CombinedDissimilarity())
    assert r.observed_disorder == pytest.approx((s1.total + s2.total) / (1 + 1.5))
    assert [d.document for d in r.documents] == ["d1", "d2"]
    assert r.documents[1].observed_disorder == pytest.approx(s2.disorder)
    assert r.n_samples == 5 and len(r.expected_samples) == 5


def test_result_faces():
    rows = [("A", 0, 10, "x"), ("B", 1, 10, "x"), ("A", 20, 30, "y"), ("B", 60, 70, "y"), ("C", 0, 9, "x")]
    r = gamma(cont(rows), rng=1, min_samples=10, max_samples=50, precision=0.05)
    f = r.to_frame()
    assert list(f.columns) == ["document", "alignment", "annotator", "unit", "start", "end", "category",
                               "disorder", "aligned"]
    assert len(f) == 5
    assert set(f.loc[f.aligned, "annotator"]) == {"A", "B", "C"}
    assert (~f.aligned).sum() == 2
    d = r.to_dict()
    assert d["n_units"] == 5 and "gamma_k" in d and "_continua" not in d
    lo, hi = r.confidence_interval()
    assert lo < r.gamma < hi
    assert r.interval[0] <= r.gamma <= r.interval[1]
    assert r.n_samples >= 10 and (r.achieved_precision <= 0.05 or r.n_samples == 50)
    assert set(r.gamma_k) == {"x", "y"}


def test_same_seed_same_result_and_processes_agree():
    rows = [("A", 0, 10, "x"), ("B", 1, 10, "x"), ("A", 20, 30, "y"), ("B", 22, 30, "y")]
    a = gamma(cont(rows), rng=3, min_samples=6, max_samples=6)
    b = gamma(cont(rows), rng=3, min_samples=6, max_samples=6)
    c = gamma(cont(rows), rng=3, min_samples=6, max_samples=6, n_jobs=2)
    assert a.expected_samples == b.expected_samples == c.expected_samples


def test_from_span_annotations_with_a_silent_annotator():
    sa = SpanAnnotations.from_spans(
        [Span("d1", 0, 5, "PER", "ann1"), Span("d1", 0, 5, "PER", "ann2"), Span("d2", 3, 8, "ORG", "ann1")],
        seen=[("d1", "ann3"), ("d2", "ann2")],
    )
    cs = continua(sa)
    assert [(c.document, c.annotators, len(c)) for c in cs] == [
        ("d1", ("ann1", "ann2", "ann3"), 2), ("d2", ("ann1", "ann2"), 1)]
    r = gamma(sa, rng=0, min_samples=4, max_samples=4)
    assert r.n_documents == 2 and r.n_units == 3


def test_gamma_cat_by_the_definition():
    # all units aligned; gamma-cat observed disorder = weighted mean of categorical dissimilarities
    rows = [("A", 0, 10, "x"), ("B", 0, 10, "y"), ("A", 20, 30, "x"), ("B", 21, 30, "x")]
    c = cont(rows)
    d = CombinedDissimilarity()
    sol = best_alignment(c, d)
    from accord.spans._gamma.estimate import _cat_sums

    num, den, _, _ = _cat_sums([(c, sol, np.array([0, 1]))], d, ("x", "y"))
    w2 = 1 - dpos(rows[2], rows[3])
    assert num / den == pytest.approx(1.0 / (1.0 + w2))


# -- the program's two ways (listed candidates, column generation) and the windowed approximation ----------------


def _alignment_module(name="alignment"):
    import sys

    import accord.spans._gamma  # noqa: F401

    return sys.modules[f"accord.spans._gamma.{name}"]


def dense_rows(rng, n_ann, n_units, sd=3.0):
    """A continuum where every stretch is covered (the benchmark's shape): copies of reference units, moved."""
    base_s = np.sort(rng.uniform(0, 20 * n_units, n_units))
    base_l = rng.uniform(5, 30, n_units)
    rows = set()
    for a in range(n_ann):
        for i in range(n_units):
            if rng.random() < 0.15:
                continue
            s = base_s[i] + rng.normal(0, sd)
            c = "abc"[rng.integers(3)] if rng.random() < 0.3 else "abc"[i % 3]
            rows.add((f"a{a}", round(s, 3), round(s + max(1.0, base_l[i] + rng.normal(0, sd)), 3), c))
        if rng.random() < 0.5:
            s = rng.uniform(0, 20 * n_units)
            rows.add((f"a{a}", round(s, 3), round(s + 10, 3), "a"))
    return sorted(rows)


@pytest.mark.parametrize("pricing", ["listed", "search"])
@pytest.mark.parametrize("seed,n_ann,n_units", [(10, 2, 40), (11, 3, 25), (12, 4, 15), (13, 5, 12), (14, 3, 40)])
def test_column_generation_equals_the_listed_program(monkeypatch, pricing, seed, n_ann, n_units):
    # column generation, pricing by a product over the listed candidates or by the search with its dual lower
    # bounds, must find the same least disorder as the program over every listed candidate, whatever the
    # dissimilarity
    al = _alignment_module()
    c = cont(dense_rows(np.random.default_rng(seed), n_ann, n_units))
    m = CategoricalDissimilarity.from_matrix({"a": {"b": 0.3, "c": 1.0}, "b": {"c": 0.6}})
    dissims = [CombinedDissimilarity(), PositionalDissimilarity(), CombinedDissimilarity(alpha=2, beta=0.5),
               CombinedDissimilarity(delta_empty=2), CombinedDissimilarity(categorical=m)]
    listed = [best_alignment(c, d, alignment="exact") for d in dissims]  # two annotators: by a matching
    monkeypatch.setattr(al, "_LISTED", 0)
    monkeypatch.setattr(al, "_MATCHING", False)
    if pricing == "search":
        monkeypatch.setattr(al, "_EXPLICIT", 0)
    for d, ref in zip(dissims, listed, strict=True):
        got = best_alignment(c, d, alignment="exact")
        assert got.disorder == pytest.approx(ref.disorder, abs=1e-9), d.describe()
        assert got.method == "exact" and not got.approximate


@pytest.mark.parametrize("dense", [True, False])
@pytest.mark.parametrize("seed,sd", [(30, 3.0), (31, 8.0), (32, 20.0)])
def test_two_annotators_matching_equals_the_set_partition(monkeypatch, seed, sd, dense):
    # two annotators are aligned by a least-cost bipartite matching; the set partition over every listed
    # candidate must find the same least disorder, whatever the dissimilarity (ties at 2 delta_empty included)
    al = _alignment_module()
    rows = dense_rows(np.random.default_rng(seed), 2, 40, sd=sd) + [("a0", 900, 900, "a"), ("a1", 900, 900, "a"),
                                                                   ("a0", 950, 960, "a"), ("a1", 950, 960, "b")]
    c = cont(rows)
    if not dense:  # the matching's rest by the sparse solver (LAPJVsp), not the dense assignment
        monkeypatch.setattr(_alignment_module("bipartite"), "_DENSE", 0)
    m = CategoricalDissimilarity.from_matrix({"a": {"b": 0.3, "c": 1.0}, "b": {"c": 0.6}})
    dissims = [CombinedDissimilarity(), PositionalDissimilarity(), CombinedDissimilarity(alpha=2, beta=0.5),
               CombinedDissimilarity(delta_empty=2), CombinedDissimilarity(categorical=m),
               CombinedDissimilarity(alpha=0, beta=2)]
    matched = [best_alignment(c, d, alignment="exact") for d in dissims]
    monkeypatch.setattr(al, "_MATCHING", False)
    for d, ref in zip(dissims, matched, strict=True):
        got = best_alignment(c, d, alignment="exact")
        assert ref.disorder == pytest.approx(got.disorder, abs=1e-9), d.describe()
        assert ref.disorders.sum() == pytest.approx(ref.total, abs=1e-12)
        assert sorted(ref.tuples[ref.tuples >= 0].tolist()) == list(range(len(c)))
        for t, dis in zip(ref.tuples.tolist(), ref.disorders.tolist(), strict=True):
            units = [rows_of(c, u) for u in t if u >= 0]
            expect = d.delta_empty if len(units) == 1 else float(
                d.bind(c.categories)(*(np.array([x]) for x in units[0]), *(np.array([x]) for x in units[1]))[0])
            assert dis == pytest.approx(expect, abs=1e-12)


def rows_of(c, u):
    return c.start[u], c.end[u], c.category[u]


@pytest.mark.parametrize("seed", [50, 80])
@pytest.mark.parametrize("listed", [20_000, 0])
def test_integer_program_is_certified_at_the_gap(monkeypatch, seed, listed):
    # regression: the integer program's reduced-cost threshold was multiplied past the gap and the loop stopped
    # without solving there, missing a cheaper partition (these statistical samples); the least cost must be
    # that of the integer program over every listed candidate at once
    from accord.spans._gamma.candidates import grow, neighbours
    from accord.spans._gamma.sampling import sampler_for

    al = _alignment_module()
    monkeypatch.setattr(al, "_LISTED", listed)
    rng = np.random.default_rng(seed)
    c = cont(dense_rows(rng, 4, 40))
    s = sampler_for(c, "statistical")(rng)
    d = CombinedDissimilarity()
    f = d.bind(s.categories)
    tuples, cost = grow(s, neighbours(s, f, 1.0, d.reach(9.0)), 1.0)
    _, truth = _alignment_module("partition")._mip(tuples, cost, len(s), 1e3 / 6)
    assert best_alignment(s, d, alignment="exact").total == pytest.approx(truth / 6, abs=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_integer_program_equals_scipy_milp(seed):
    # _mip calls HiGHS' MIP solver directly, its feasibility-jump heuristic off (a fixed 8 ms); the optimum must
    # be scipy.optimize.milp's on random set partitions (units alone always allowed, triangles of cheap pairs
    # make the relaxation fractional)
    import scipy.sparse as sp
    from scipy.optimize import Bounds, LinearConstraint, milp

    al = _alignment_module("partition")
    rng = np.random.default_rng(seed)
    for _ in range(25):
        n = int(rng.integers(3, 14))
        cols = [[u] for u in range(n)] + [sorted(rng.choice(n, size=int(rng.integers(2, 4)), replace=False).tolist())
                                          for _ in range(int(rng.integers(1, 3 * n)))]
        width = max(len(c) for c in cols)
        tuples = np.array([c + [-1] * (width - len(c)) for c in cols])
        costs = np.array([1.0 if len(c) == 1 else float(rng.uniform(0.5, 0.8 * len(c))) for c in cols])
        pick, total = al._mip(tuples, costs, n, 1e3)
        assert sorted(tuples[pick][tuples[pick] >= 0].tolist()) == list(range(n))
        a = sp.csc_matrix((np.ones(sum(map(len, cols))), [u for c in cols for u in c],
                           np.cumsum([0] + [len(c) for c in cols])), shape=(n, len(cols)))
        ref = milp(costs, integrality=np.ones(len(cols)), bounds=Bounds(0, 1), constraints=LinearConstraint(a, 1, 1),
                   options={"mip_rel_gap": 0.0})
        assert total == pytest.approx(float(ref.fun), abs=1e-9)
        # the branch and bound over the relaxation, which solves a fractional component before HiGHS' MIP solver
        # would, finds the same least cost (its units need not be numbered from 0)
        bb = al._branch_and_bound(np.where(tuples >= 0, tuples + 7, -1), costs, 1e3)
        assert bb is not None
        assert sorted(tuples[bb][tuples[bb] >= 0].tolist()) == list(range(n))
        assert float(costs[bb].sum()) == pytest.approx(float(ref.fun), abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_branch_and_bound_gives_way_to_the_integer_program(monkeypatch, seed):
    # samples of five annotators often have fractional relaxations: the alignment is the same whether their
    # components go through the branch and bound, or (past its node limit) through HiGHS' MIP solver
    from accord.spans._gamma.sampling import sampler_for

    part = _alignment_module("partition")
    rng = np.random.default_rng(seed)
    draw = sampler_for(cont(dense_rows(rng, 5, 40)), "statistical")
    d = CombinedDissimilarity()
    calls = []
    real = part._branch_and_bound
    monkeypatch.setattr(part, "_branch_and_bound", lambda *a: calls.append(1) or real(*a))
    found = []  # samples whose relaxation was fractional, with their alignment
    for _ in range(40):
        s = draw(rng)
        before = len(calls)
        sol = best_alignment(s, d, alignment="exact")
        if len(calls) > before:
            found.append((s, sol))
        if len(found) == 2:
            break
    assert found, "no sample had a fractional relaxation"
    monkeypatch.setattr(part, "_NODES", 0)
    mips = []
    real_mip = part._mip
    monkeypatch.setattr(part, "_mip", lambda *a: mips.append(1) or real_mip(*a))
    for s, sol in found:
        assert best_alignment(s, d, alignment="exact").total == pytest.approx(sol.total, abs=1e-9)
    assert len(mips) >= len(found)


@pytest.mark.parametrize("pricing", ["listed", "search"])
def test_column_generation_solves_a_fractional_relaxation(monkeypatch, pricing):
    al = _alignment_module()
    monkeypatch.setattr(al, "_LISTED", 0)
    monkeypatch.setattr(al, "_EXPLICIT", 0 if pricing == "search" else 10**6)
    m = CategoricalDissimilarity.from_matrix({"a": {"b": 2.5, "c": 2.5}, "b": {"c": 2.5}})
    d = CombinedDissimilarity(alpha=0, beta=1, categorical=m)
    sol = best_alignment(cont([("A", 0, 1, "a"), ("B", 0, 1, "b"), ("C", 0, 1, "c")]), d)
    assert sol.total == pytest.approx(2.5)


@pytest.mark.parametrize("seed,n_ann,n_units", [(20, 3, 30), (21, 5, 15)])
def test_column_generation_equals_pygamma(monkeypatch, seed, n_ann, n_units):
    al = _alignment_module()
    monkeypatch.setattr(al, "_LISTED", 0)
    monkeypatch.setattr(al, "_EXPLICIT", 0)
    pa, Segment = _pygamma()
    rows = dense_rows(np.random.default_rng(seed), n_ann, n_units)
    pc = pa.Continuum()
    for a, s, e, cat in rows:
        pc.add(a, Segment(s, e), cat)
    c = cont(rows)
    ours = best_alignment(c, CombinedDissimilarity())
    pg = pc.get_best_alignment(pa.CombinedCategoricalDissimilarity())
    assert _repriced(pg, c, CombinedDissimilarity()) == pytest.approx(ours.disorder, abs=1e-9)


def test_windowed_alignment_is_labelled_and_never_below_the_exact():
    c = cont(dense_rows(np.random.default_rng(5), 3, 60))
    d = CombinedDissimilarity()
    exact = best_alignment(c, d, alignment="exact")
    win = best_alignment(c, d, alignment="windowed", window=8)
    assert win.method == "windowed" and win.approximate and win.window == 8
    assert exact.method == "exact" and not exact.approximate and exact.window is None
    assert win.disorder >= exact.disorder - 1e-12
    assert win.disorder <= exact.disorder * 1.05  # a close approximation on this continuum
    whole = best_alignment(c, d, alignment="windowed", window=1000)  # one window holds everything: exact
    assert whole.disorder == pytest.approx(exact.disorder, abs=1e-12)
    assert sorted(win.tuples[win.tuples >= 0].tolist()) == list(range(len(c)))


def test_past_the_limit_exact_refuses_and_auto_windows_with_a_warning():
    c = cont(dense_rows(np.random.default_rng(6), 4, 30))
    d = CombinedDissimilarity()
    with pytest.raises(AccordError, match=r"more than 50 candidate unitary alignments.*alignment='windowed' or 'auto'"):
        best_alignment(c, d, alignment="exact", max_candidates=50)
    with pytest.warns(AccordWarning, match="aligned by windows of 2 units per annotator instead, an approximation"):
        sol = best_alignment(c, d, alignment="auto", window=2, max_candidates=300)
    assert sol.method == "windowed"
    with pytest.raises(AccordError, match="alignment must be one of exact, windowed, auto"):
        best_alignment(c, d, alignment="fast")
    with pytest.raises(AccordError, match="window must be a positive integer"):
        best_alignment(c, d, window=0)


def test_gamma_says_when_it_is_approximate():
    c = cont(dense_rows(np.random.default_rng(7), 3, 20))
    r = gamma(c, alignment="windowed", window=5, rng=0, min_samples=4, max_samples=4)
    assert r.approximate and r.alignment == "windowed" and r.n_windowed_samples == 4
    assert r.documents[0].alignment == "windowed" and r.to_dict()["approximate"] is True
    e = gamma(c, alignment="exact", rng=0, min_samples=4, max_samples=4)
    assert not e.approximate and e.documents[0].alignment == "exact" and e.n_windowed_samples == 0
    assert r.observed_disorder >= e.observed_disorder - 1e-12


# -- errors and undefined ---------------------------------------------------------------------------------------


def test_bad_units_are_named():
    with pytest.raises(AccordError, match=r"document 'd', annotator 'B', unit 1 .*end < start"):
        cont([("A", 0, 5, "x"), ("B", 5, 2, "x")])
    with pytest.raises(AccordError, match=r"annotator 'A', unit 0 .*not a finite number"):
        cont([("A", float("nan"), 5, "x"), ("B", 1, 2, "x")])
    with pytest.raises(AccordError, match=r"document 'd' has only annotator 'A'"):
        cont([("A", 0, 5, "x")])


def test_unknown_category_in_a_matrix_is_named():
    m = CategoricalDissimilarity.from_matrix({"x": {"y": 0.5}})
    with pytest.raises(AccordError, match=r"annotator 'B', unit 1 .*category 'z' is not in the dissimilarity"):
        gamma(cont([("A", 0, 5, "x"), ("B", 0, 5, "z")]), dissimilarity=CombinedDissimilarity(categorical=m))


def test_bad_options():
    c = cont([("A", 0, 5, "x"), ("B", 0, 5, "x")])
    with pytest.raises(AccordError, match="sampler must be one of"):
        gamma(c, sampler="uniform")
    with pytest.raises(AccordError, match="precision must be in"):
        gamma(c, precision=2)
    with pytest.raises(AccordError, match="delta_empty"):
        CombinedDissimilarity(delta_empty=0)
    with pytest.raises(AccordError, match="not symmetric"):
        CategoricalDissimilarity.from_matrix([[0, 1], [2, 0]], ["a", "b"])
    with pytest.raises(AccordError, match="give both the same"):
        CombinedDissimilarity(delta_empty=2, categorical=CategoricalDissimilarity.nominal())


def test_no_unit_at_all_is_undefined():
    c = Continuum.from_arrays("d", ["A", "B"], [], [], [], [])
    with pytest.warns(AccordWarning, match="gamma is undefined: no annotator marked any unit"):
        r = gamma(c, rng=0)
    assert math.isnan(r.gamma) and r.undefined_reason == "no annotator marked any unit"
    assert r.to_frame().empty


# -- pygamma-agreement as the oracle ------------------------------------------------------------------------------



def _pygamma():
    logging.getLogger().setLevel(logging.ERROR)
    warnings.filterwarnings("ignore")
    import pygamma_agreement
    from pyannote.core import Segment

    return pygamma_agreement, Segment


def random_rows(rng, n_ann, n_units, cats="abc"):
    base_s = np.sort(rng.uniform(0, 20 * n_units, n_units))
    base_l = rng.uniform(5, 30, n_units)
    rows = set()
    for a in range(n_ann):
        for i in range(n_units):
            if rng.random() < 0.15:
                continue
            s = base_s[i] + rng.normal(0, 3)
            ln = max(1.0, base_l[i] + rng.normal(0, 4))
            c = cats[rng.integers(len(cats))] if rng.random() < 0.3 else cats[i % len(cats)]
            rows.add((f"a{a}", round(s, 3), round(s + ln, 3), c))
        if rng.random() < 0.5:
            s = rng.uniform(0, 20 * n_units)
            rows.add((f"a{a}", round(s, 3), round(s + 10, 3), cats[0]))
    return sorted(rows)


def _repriced(pg_alignment, c, d):
    """The float64 disorder, under accord's dissimilarity *d*, of the partition pygamma chose."""
    index = {(c.annotators[c.annotator[i]], c.start[i], c.end[i], c.categories[c.category[i]]): i
             for i in range(len(c))}
    f = d.bind(c.categories)
    n = c.n_annotators
    total = 0.0
    for ua in pg_alignment:
        units = [None if u is None else index[(a, u.segment.start, u.segment.end, u.annotation)]
                 for a, u in ua.n_tuple]
        s = 0.0
        for x, y in itertools.combinations(units, 2):
            if x is None or y is None:
                s += d.delta_empty
            else:
                s += float(f(c.start[[x]], c.end[[x]], c.category[[x]], c.start[[y]], c.end[[y]], c.category[[y]])[0])
        total += s / (n * (n - 1) / 2)
    return total / c.mean_units


def _dissimilarity_pairs(pa, cats):
    cats = sorted(cats)
    rng = np.random.default_rng(7)
    m = rng.uniform(0, 1, (len(cats), len(cats)))
    m = np.round((m + m.T) / 2, 3)
    np.fill_diagonal(m, 0)
    yield ("combined", CombinedDissimilarity(), pa.CombinedCategoricalDissimilarity())
    yield ("positional", PositionalDissimilarity(), pa.PositionalSporadicDissimilarity())
    yield ("alpha/beta", CombinedDissimilarity(alpha=2, beta=0.5), pa.CombinedCategoricalDissimilarity(alpha=2,
                                                                                                        beta=0.5))
    yield ("delta 2", CombinedDissimilarity(delta_empty=2),
           pa.CombinedCategoricalDissimilarity(delta_empty=2,
                                               cat_dissim=pa.AbsoluteCategoricalDissimilarity(delta_empty=2)))
    from sortedcontainers import SortedSet

    yield ("matrix", CombinedDissimilarity(categorical=CategoricalDissimilarity.from_matrix(m, cats)),
           pa.CombinedCategoricalDissimilarity(
               cat_dissim=pa.PrecomputedCategoricalDissimilarity(SortedSet(cats), m.astype(np.float32))))
    yield ("ordinal", CombinedDissimilarity(categorical=CategoricalDissimilarity.ordinal(cats)),
           pa.CombinedCategoricalDissimilarity(cat_dissim=pa.OrdinalCategoricalDissimilarity(cats)))


@pytest.mark.parametrize("seed,n_ann,n_units", [(0, 2, 12), (1, 3, 8), (2, 3, 12), (3, 4, 5), (4, 2, 30)])
def test_best_alignment_equals_pygamma(seed, n_ann, n_units):
    pa, Segment = _pygamma()
    rows = random_rows(np.random.default_rng(seed), n_ann, n_units)
    pc = pa.Continuum()
    for a, s, e, cat in rows:
        pc.add(a, Segment(s, e), cat)
    c = cont(rows)
    for name, mine, theirs in _dissimilarity_pairs(pa, c.categories):
        ours = best_alignment(c, mine)
        pg = pc.get_best_alignment(theirs)
        assert pg.disorder == pytest.approx(ours.disorder, rel=1e-5), name  # pygamma's own float32 value
        assert _repriced(pg, c, mine) == pytest.approx(ours.disorder, abs=1e-9), name


@pytest.mark.parametrize("sampler,n_ann,seed", [("statistical", 3, 0), ("shuffle", 2, 1)])
def test_gamma_within_pygamma_interval(sampler, n_ann, seed):
    # pygamma's shuffle sampler keeps pivots apart only for the first two annotators (its removal of the
    # used stretch re-extends the others), so the comparison of the shuffle sampler uses two annotators.
    pa, Segment = _pygamma()
    rows = random_rows(np.random.default_rng(seed), n_ann, 10)
    pc = pa.Continuum()
    for a, s, e, cat in rows:
        pc.add(a, Segment(s, e), cat)
    np.random.seed(seed)  # noqa: NPY002 (pygamma draws from the legacy global generator)
    smp = pa.StatisticalContinuumSampler() if sampler == "statistical" else pa.ShuffleContinuumSampler("float_pivot")
    pg = pc.compute_gamma(pa.CombinedCategoricalDissimilarity(), precision_level=0.02, sampler=smp)
    lo, hi = pg.approx_gamma_range
    r = gamma(cont(rows), sampler=sampler, precision=0.02, rng=seed)
    assert r.observed_disorder == pytest.approx(float(pg.observed_disorder), rel=1e-5)
    if sampler == "statistical":
        assert lo <= r.gamma <= hi, (r.gamma, (lo, hi))
    else:  # two estimates of nearly the same expected disorder (accord's pivots a mean unit apart as section
        # 5.2.1 says, pygamma's half that as the Java software): their sampling intervals meet
        assert r.interval[0] <= hi and lo <= r.interval[1], (r.interval, (lo, hi))
    assert math.isfinite(r.gamma_cat)


# -- command line -------------------------------------------------------------------------------------------------

SPAN_CSV = """document,coder,start,end,label
d1,ann1,0,5,PER
d1,ann2,0,5,PER
d1,ann1,10,14,ORG
d1,ann2,11,14,LOC
d2,ann1,3,9,PER
d2,ann2,3,8,PER
d2,ann3,,,
"""


def test_cli_spans_gamma(tmp_path):
    import json

    from typer.testing import CliRunner

    from accord.cli import app

    (tmp_path / "s.csv").write_text(SPAN_CSV, encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["spans", str(tmp_path / "s.csv"), "--gamma", "--seed", "1", "--json", "-q"])
    assert res.exit_code == 0, res.output
    g = json.loads(res.output)["gamma"]
    assert g["n_documents"] == 2 and g["n_units"] == 6 and g["n_samples"] >= 30
    assert [d["n_annotators"] for d in g["documents"]] == [2, 3]
    res = runner.invoke(app, ["spans", str(tmp_path / "s.csv"), "--gamma", "--seed", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert "gamma: " in res.output and "best alignment: 3 unitary alignments of 6 units" in res.output
    res = runner.invoke(app, ["spans", str(tmp_path / "s.csv"), "--gamma", "--gamma-sampler", "nope"])
    assert res.exit_code == 2 and "sampler must be one of statistical, shuffle" in res.output
    res = runner.invoke(app, ["spans", str(tmp_path / "s.csv"), "--gamma", "--seed", "1", "-q", "--gamma-alignment",
                              "windowed", "--gamma-window", "1"])
    assert res.exit_code == 0, res.output
    assert "APPROXIMATE: windowed alignment (not the exact best) for 2 documents (d1, d2)" in res.output
    res = runner.invoke(app, ["spans", str(tmp_path / "s.csv"), "--gamma", "--gamma-alignment", "fast"])
    assert res.exit_code == 2 and "--gamma-alignment must be one of exact, windowed, auto" in res.output


def test_bench_gamma_runs_beside_pygamma(capsys, tmp_path):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_gamma.py"
    spec = importlib.util.spec_from_file_location("accord_bench_gamma", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    (tmp_path / "s.csv").write_text(SPAN_CSV, encoding="utf-8")
    records = bench.main(["--sizes", "2x6", "--files", str(tmp_path / "s.csv"), "--corpora", "3x4x3", "--timeout",
                          "300", "--gamma", "--repeat", "1", "--quiet", "--contenders", "accord", "accord-windowed",
                          "pygamma-exact"])
    out = capsys.readouterr().out
    assert "| 2x6 " in out and "| s.csv " in out and "| 3x4x3 " in out and "load average (1 min) around the runs" in out
    grid = [r for r in records if "file" not in r["spec"] and "documents" not in r["spec"]]
    # pygamma's fast mode is left out here: each pygamma worker pays numba's compilation (about 20 s)
    assert [r["spec"]["what"] for r in grid] == ["accord", "accord-windowed", "pygamma-exact", "accord-gamma"]
    assert all("failed" not in r and r["repeat"] == 1 for r in grid), grid
    exact = {r["spec"]["what"]: r["result"]["disorder"] for r in grid}
    assert exact["accord"] == pytest.approx(exact["pygamma-exact"], rel=1e-6)  # pygamma rounds to float32
    assert exact["accord-gamma"] == pytest.approx(exact["accord"], abs=1e-12)
    # a span table's documents, and a corpus of short ones: pygamma aligns them one by one, accord together (as
    # gamma does); the disorders pooled over the documents agree
    for key in ("file", "documents"):
        several = {r["spec"]["what"]: r for r in records if key in r["spec"]}
        assert all("failed" not in r for r in several.values()), several
        assert several["accord"]["result"]["disorder"] > 0
        assert several["accord"]["result"]["disorder"] == pytest.approx(
            several["pygamma-exact"]["result"]["disorder"], rel=1e-6)
    assert bench.make_corpus(3, 4, 3, 0)[0][0] == "d0" and len({r[0] for r in bench.make_corpus(3, 4, 3, 0)}) == 4
    assert "pygamma-exact / accord" in out  # the ratio column, per round
    # rounds: the contenders in turn, one record each with the rounds' timed runs; the ratio of two rounds
    records = bench.main(["--sizes", "2x6", "--repeat", "1", "--rounds", "2", "--quiet", "--contenders", "accord",
                          "accord-windowed"])
    assert [r["repeat"] for r in records] == [2, 2]
    assert "2 rounds, the contenders in turn" in capsys.readouterr().out
    assert bench.h.spread([50.0, 40.0, 60.0]) == "50.0x (40.0x-60.0x)" and bench.h.spread([]) == "-"
