"""The vectorised relation agreement (BENCHMARKS.md section 13) gives what the loop over relations gave.

The implementation before the change is kept in ``tests/_relations_oracle.py``; on seeded random projects with
every feature that changes a number (several documents and coders, documents some coders did not see,
identical relations of one coder, undirected relations and declared undirected types, a relation from a span
to itself, discontinuous spans, spans no relation uses, numeric-looking types), every option, both agree field
by field: the per-pair scores, the unmatched relations in order with their reasons, the candidate values and
the merged count.
"""

from __future__ import annotations

import copy
import math
import pickle
import warnings

import numpy as np
import pytest
from _relations_oracle import oracle

from accord.data._annotations import Annotations
from accord.relations import Relation, RelationAnnotations, agreement
from accord.spans import Span


def _project(seed: int) -> RelationAnnotations:
    rng = np.random.default_rng(seed)
    n_coders = int(rng.integers(2, 5))
    coders = [f"c{k}" for k in range(n_coders)]
    types = ["A", "B", "10", "sib"]
    rels, extra, seen = [], [], []
    for d in range(int(rng.integers(1, 5))):
        doc = f"d{d}"
        places = [(int(s), int(s) + int(rng.integers(1, 4))) for s in rng.integers(0, 40, size=8)]
        for c in coders:
            if rng.random() < 0.15:
                continue  # a document this coder did not see
            seen.append((doc, c))

            def span(k: int, c: str = c, doc: str = doc, places: list = places) -> Span:
                s, e = places[k]
                label = "E" if k % 3 else "F"
                if k == 7:  # discontinuous
                    return Span(doc, s, e + 5, label, c, fragments=((s, e), (e + 2, e + 5)))
                return Span(doc, s, e, label, c)

            for _ in range(int(rng.integers(0, 9))):
                i, j = (int(x) for x in rng.integers(0, 8, size=2))
                r = Relation(doc, c, str(rng.choice(types)), span(i), span(j), directed=bool(rng.random() < 0.8),
                             id=f"R{len(rels)}")
                rels.append(r)
                if rng.random() < 0.1:
                    rels.append(Relation(doc, c, r.type, span(i), span(j), directed=r.directed))  # a repeat
            if rng.random() < 0.5:
                extra.append(span(int(rng.integers(0, 8))))
    return RelationAnnotations.from_relations(rels, spans=extra, seen=seen)


def _plain(x: object) -> object:
    """NaN as None, recursively, so that == compares results that hold NaN."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return None if isinstance(x, float) and math.isnan(x) else x


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or x == y


@pytest.mark.parametrize("seed", range(60))
def test_agreement_equals_the_loop_over_relations(seed):
    data = _project(seed)
    rng = np.random.default_rng(1000 + seed)
    opts = {"match": str(rng.choice(["exact", "exact", "overlap"])), "argument_labels": bool(rng.random() < 0.7),
            "ignore_type": bool(rng.random() < 0.3), "unmarked": str(rng.choice(["missing", "none"])),
            "undirected": ["sib"] if rng.random() < 0.4 and "sib" in data.types else []}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = agreement(data, **opts)
        except Exception as exc:  # the oracle has no errors of its own: the same data must fail for a reason
            assert "seen by two coders" in str(exc) or "at least two coders" in str(exc)
            return
    want = oracle(data, **opts)
    assert res.n_merged == want["n_merged"]
    assert _plain([p.to_dict() for p in res.pairs]) == _plain([p.to_dict() for p in want["pairs"]])
    assert [u.to_dict() for u in res.unmatched] == [u.to_dict() for u in want["unmatched"]]
    assert res.n_candidates == len({u for u, _, _ in want["records"]})
    if not want["records"]:
        assert res.candidates is None
        return
    old = Annotations.from_records(want["records"])
    new = res.candidates
    for name in ("unit_index", "coder_index", "value_index", "units", "coders", "values"):
        assert getattr(new, name).tolist() == getattr(old, name).tolist(), name
    per_unit = np.bincount(old.unit_index)
    assert res.n_pairable == int((per_unit >= 2).sum())
    if res.alpha_result is not None:
        from accord.coefficients import alpha

        assert _same(res.alpha, alpha(old).alpha)


def test_span_hash_is_cached_and_equal_to_the_fields_hash():
    s = Span("d", 0, 5, "PER", "a", text="Alice")
    t = Span("d", 0, 5, "PER", "a")
    assert s == t and hash(s) == hash(t) == hash(("d", 0, 5, "PER", "a", ((0, 5),)))
    assert "_hash" in s.__dict__  # computed once
    assert Span("d", 0, 5, "PER", "b") != s and len({s, t, Span("d", 0, 5, "PER", "b")}) == 2
    for back in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert back == s and hash(back) == hash(s) and back.text == "Alice"
    assert "_hash" not in pickle.loads(pickle.dumps(s)).__dict__  # recomputed where unpickled
    assert sorted([Span("d", 3, 4, "X", "a"), s]) == [s, Span("d", 3, 4, "X", "a")]


@pytest.mark.parametrize("seed", range(3))
def test_gamma_alignment_equals_the_loop_over_relations(seed):
    data = _project(100 + seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = agreement(data, match="gamma")
        except Exception as exc:
            assert "two coders" in str(exc)
            return
    want = oracle(data, match="gamma")
    assert [u.to_dict() for u in res.unmatched] == [u.to_dict() for u in want["unmatched"]]
    assert _plain([p.to_dict() for p in res.pairs]) == _plain([p.to_dict() for p in want["pairs"]])


def test_the_collector_is_resumed_as_it_was():
    import gc

    data = _project(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        agreement(data)
        assert gc.isenabled()
        gc.disable()
        try:
            agreement(data)
            assert not gc.isenabled()  # left off, as the caller had it
        finally:
            gc.enable()


def test_sorting_by_key_orders_spans_and_relations_as_their_own_comparison() -> None:
    """SpanAnnotations and RelationAnnotations sort by key tuples (no call of ``<`` per comparison): the order is
    the dataclasses' own, ties and discontinuous spans included."""
    import random

    from accord.relations import Relation
    from accord.spans import Span

    rnd = random.Random(3)
    spans = []
    for _ in range(400):
        doc, coder = rnd.choice("de"), rnd.choice(["a", "b"])
        s = rnd.randrange(6)
        e = s + rnd.randrange(3)
        frags = rnd.choice([(), ((s, s), (e, e))])
        spans.append(Span(doc, s, e, rnd.choice("XY"), coder, frags))
    assert sorted(spans) == sorted(spans, key=Span.sort_key)
    rels = [Relation(a.document, a.coder, rnd.choice("RS"), a, b, directed=rnd.random() < 0.5)
            for a in spans for b in rnd.sample(spans, 2) if (a.document, a.coder) == (b.document, b.coder)]
    from accord.relations import RelationAnnotations
    from accord.spans import SpanAnnotations

    assert RelationAnnotations.from_relations(rels).relations == tuple(sorted(rels))
    assert SpanAnnotations.from_spans(spans).spans == tuple(sorted(spans))
