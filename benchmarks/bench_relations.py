"""Relation agreement at scale (issue 32: 100,000 relations x 3 annotators in under 10 s).

Data: 1,000 documents; in each, 100 relations between spans 5 characters long at random places (types A, B,
C); the three annotators share them, each replacing the type by A with probability 0.1. The model
(``RelationAnnotations.from_relations``) is built before the clock starts; timed: ``accord.relations.agreement``
with exact argument matching (alignment, pairwise F1 with the unmatched relations and their reasons, the
candidate matrix, alpha and the per-pair scores).

Usage::

    .venv/bin/python benchmarks/bench_relations.py             # 1,000 documents x 100 relations x 3 annotators
    .venv/bin/python benchmarks/bench_relations.py --quick     # 100 documents
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np


def make(n_docs: int, per_doc: int = 100, seed: int = 1) -> object:
    from accord.relations import Relation, RelationAnnotations
    from accord.spans import Span

    rng = np.random.default_rng(seed)
    rels = []
    for d in range(n_docs):
        doc = f"d{d}"
        starts = rng.integers(0, 5000, size=(per_doc, 2)) * 10
        types = rng.choice(["A", "B", "C"], size=per_doc)
        for c in ("a", "b", "c"):
            swap = rng.random(per_doc) < 0.1
            for (s, t), typ, sw in zip(starts.tolist(), types.tolist(), swap.tolist(), strict=True):
                if s != t:
                    rels.append(Relation(doc, c, "A" if sw else typ, Span(doc, s, s + 5, "E", c),
                                         Span(doc, t, t + 5, "E", c)))
    return RelationAnnotations.from_relations(rels)


def main(argv: list[str]) -> None:
    from accord.relations import agreement

    n_docs = 100 if "--quick" in argv else 1000
    data = make(n_docs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0, c0 = time.perf_counter(), time.process_time()
        res = agreement(data)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{len(data.relations):,} relations, {len(data.coders)} annotators: agreement in {took:.2f} s "
          f"({cpu:.2f} s of CPU; more wall time than CPU time: the machine is shared) "
          f"(alpha {res.alpha:.4f}, F1 {res.f1:.4f}, {res.n_candidates:,} candidate pairs)")


if __name__ == "__main__":
    main(sys.argv[1:])
