"""The relations as columns of integers, and the work of :func:`~accord.relations.agreement` done on them.

Each relation (each coder's identical ones merged) is a row: its coder, document, type, the positions of its
arguments (:mod:`accord.relations._align`), whether it is directed, the *key* a typed match compares (the
positions, in order when directed, the type, the directedness) and the *pair* of positions an untyped match
and the candidates compare.  Keys and pairs are dense integer codes, so matching two coders is a set operation
on arrays and the candidates are a table of counts, not a Python loop over relations (BENCHMARKS.md section
13); what is said per relation (the unmatched ones and their reasons) is still made one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter

import numpy as np

from accord.data._relations import Relation, RelationAnnotations
from accord.relations._align import Alignment
from accord.relations._results import UnmatchedRelation

__all__ = ["RelationTable", "codes"]

_RELATED = "related"
#: The value of a coder who marked both arguments of a candidate pair and did not relate them.
NONE = "none"


def codes(*cols: np.ndarray) -> np.ndarray:
    """Dense codes of the rows of *cols*, numbered in the rows' lexicographic order (first column first)."""
    n = len(cols[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    radix = [int(c.max()) + 1 for c in cols]
    if min(int(c.min()) for c in cols) >= 0 and np.prod([float(r) for r in radix]) < 2.0 ** 62:
        code = np.zeros(n, dtype=np.int64)
        for c, r in zip(cols, radix, strict=True):
            code = code * r + c
        return np.unique(code, return_inverse=True)[1].ravel().astype(np.int64)
    inverse = np.unique(np.stack(cols, axis=1), axis=0, return_inverse=True)[1]
    return np.asarray(inverse, dtype=np.int64).ravel()


@dataclass
class RelationTable:
    """The relations of :func:`~accord.relations.agreement`, one row each (a coder's identical ones merged)."""

    relations: list[Relation]
    coder: np.ndarray
    document: np.ndarray
    type: np.ndarray
    first: np.ndarray
    second: np.ndarray
    directed: np.ndarray
    key: np.ndarray
    pair: np.ndarray
    n_merged: int
    types: tuple[str, ...]
    documents: tuple[str, ...]

    @classmethod
    def build(cls, data: RelationAnnotations, al: Alignment, declared: frozenset[str],
              coders: Sequence[str]) -> RelationTable:
        rels = list(data.relations)
        n = len(rels)
        documents = data.documents
        if n:  # one pass over the relations, each field then mapped to its code at C speed
            fields = zip(*map(attrgetter("coder", "type", "document", "source", "target", "directed"), rels),
                         strict=True)
            coder_names, type_names, doc_names, sources, targets, flags = fields
        else:
            coder_names = type_names = doc_names = sources = targets = flags = ()
        types = tuple(sorted(set(type_names)))
        ci = {c: k for k, c in enumerate(coders)}
        ti = {t: k for k, t in enumerate(types)}
        di = {d: k for k, d in enumerate(documents)}
        coder = np.fromiter(map(ci.__getitem__, coder_names), dtype=np.int64, count=n)
        typ = np.fromiter(map(ti.__getitem__, type_names), dtype=np.int64, count=n)
        doc = np.fromiter(map(di.__getitem__, doc_names), dtype=np.int64, count=n)
        first, second = al.positions(sources), al.positions(targets)
        directed = np.array(flags, dtype=bool)
        if declared:
            directed &= ~np.array([t in declared for t in types], dtype=bool)[typ]
        lo, hi = np.minimum(first, second), np.maximum(first, second)
        key = codes(np.where(directed, first, lo), np.where(directed, second, hi), typ, directed.astype(np.int64))
        # a coder's identical relations (same key) count once: the first of them stands for all
        keep = np.sort(np.unique(codes(coder, key), return_index=True)[1]) if n else np.zeros(0, dtype=np.int64)
        take = keep.tolist()
        return cls(relations=[rels[k] for k in take], coder=coder[keep], document=doc[keep], type=typ[keep],
                   first=first[keep], second=second[keep], directed=directed[keep], key=key[keep],
                   pair=codes(lo[keep], hi[keep]), n_merged=n - len(take), types=types, documents=documents)

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The (first, second) positions of each pair code, in code order (sorted pairs)."""
        n_pairs = int(self.pair.max()) + 1 if len(self.pair) else 0
        x = np.zeros(n_pairs, dtype=np.int64)
        y = np.zeros(n_pairs, dtype=np.int64)
        x[self.pair] = np.minimum(self.first, self.second)
        y[self.pair] = np.maximum(self.first, self.second)
        return x, y

    def unmatched(self, own: np.ndarray, other: int, other_keys: np.ndarray, coders: Sequence[str],
                  marked: np.ndarray, al: Alignment, describe: dict[int, str]) -> list[UnmatchedRelation]:
        """The rows *own* (of one coder, in order) without a typed match among *other_keys* of coder *other*,
        with their reasons (:data:`~accord.relations.REASONS`)."""
        miss = own[~np.isin(self.key[own], other_keys)]
        if not len(miss):
            return []
        has_first, has_second = marked[other, self.first[miss]], marked[other, self.second[miss]]
        both = miss[has_first & has_second]
        theirs: dict[int, list[int]] = {}
        if len(both):
            mine = np.flatnonzero(self.coder == other)
            mine = mine[np.isin(self.pair[mine], self.pair[both])]
            for k, p in zip(mine.tolist(), self.pair[mine].tolist(), strict=True):
                theirs.setdefault(p, []).append(k)
        first, second, directed = self.first.tolist(), self.second.tolist(), self.directed.tolist()
        typ, pair, types = self.type.tolist(), self.pair.tolist(), self.types
        other_name = coders[other]
        out = []

        def same_direction(i: int, j: int) -> bool:
            if directed[i] and directed[j]:
                return first[i] == first[j] and second[i] == second[j]
            return directed[i] == directed[j]

        for k, hf, hs in zip(miss.tolist(), has_first.tolist(), has_second.tolist(), strict=True):
            missing = other_type = None
            if not (hf and hs):
                reason = "argument"
                missing = "both" if not (hf or hs) else "source" if not hf else "target"
            else:
                cands = theirs.get(pair[k], [])
                o = next((o for o in cands if same_direction(o, k) and typ[o] != typ[k]), None)
                reason = "type"
                if o is None:
                    o = next((o for o in cands if typ[o] == typ[k] and not same_direction(o, k)), None)
                    reason = "direction"
                if o is None and cands:
                    o, reason = cands[0], "type+direction"
                if o is None:
                    reason = "absent"
                else:
                    other_type = types[typ[o]]
            r = self.relations[k]
            for p in (first[k], second[k]):
                if p not in describe:
                    describe[p] = al.describe(p)
            out.append(UnmatchedRelation(r.document, r.coder, other_name, r.id, r.type, describe[first[k]],
                                         describe[second[k]], reason, missing, other_type))
        return out

    def values(self, ignore_type: bool, declared: frozenset[str]) -> tuple[np.ndarray, list[str]]:
        """Each row's value on its candidate (its type, ``" (reversed)"`` or ``" (undirected)"`` added; or
        ``"related"``) as a code into the returned names."""
        first, second = self.first, self.second
        base = np.zeros(len(first), dtype=np.int64) if ignore_type else self.type
        names = [_RELATED] if ignore_type else list(self.types)
        plain = np.array([ignore_type or t in declared for t in names], dtype=bool)
        variant = np.where(first == second, 0,
                           np.where(self.directed, np.where(first < second, 0, 1), np.where(plain[base], 0, 2)))
        suffix = ("", " (reversed)", " (undirected)")
        return base * 3 + variant, [b + s for b in names for s in suffix]
