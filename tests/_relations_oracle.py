"""The relation agreement before its vectorisation (BENCHMARKS.md section 13), kept as a brute-force oracle.

One Python object per relation, sets and counters of tuples: slow, plainly right. ``oracle(data, ...)`` returns
what :func:`accord.relations.agreement` must give on the same data: the per-pair scores, the unmatched
relations in order, the candidate records ``(candidate, coder, value)`` and the merged count.
"""

from __future__ import annotations

from collections import Counter

from accord.relations import Relation, RelationAnnotations
from accord.relations._align import align_arguments
from accord.relations._results import RelationPairScores, RelationScore, UnmatchedRelation

NONE = "none"


class _Rel:
    def __init__(self, coder: str, document: str, type: str, first: int, second: int, directed: bool,
                 relation: Relation) -> None:
        self.coder, self.document, self.type, self.relation = coder, document, type, relation
        self.first, self.second, self.directed = first, second, directed
        self.pair = (first, second) if first <= second else (second, first)
        self.key = (first, second, type, True) if directed else (*self.pair, type, False)

    def same_direction(self, other: _Rel) -> bool:
        if self.directed and other.directed:
            return (self.first, self.second) == (other.first, other.second)
        return self.directed == other.directed


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else float("nan")


def _score(label: str, tp: int, na: int, nb: int) -> RelationScore:
    return RelationScore(label, tp, na, nb, _ratio(tp, nb), _ratio(tp, na), _ratio(2 * tp, na + nb))


def _exact_groups(data: RelationAnnotations, labels: bool) -> dict:
    by_key: dict = {}
    for s in data.spans.spans:
        by_key.setdefault((s.document, s.start, s.end, s.fragments, s.label if labels else ""), []).append(s)
    groups = [by_key[k] for k in sorted(by_key)]
    return {s: p for p, g in enumerate(groups) for s in g}, [g[0].document for g in groups], groups


def _reason(r, other, marked, by_pair):
    has_first, has_second = (other, r.first) in marked, (other, r.second) in marked
    if not (has_first and has_second):
        return "argument", "both" if not (has_first or has_second) else "source" if not has_first else "target", None
    theirs = by_pair.get((other, r.pair), [])
    for o in theirs:
        if o.same_direction(r) and o.type != r.type:
            return "type", None, o.type
    for o in theirs:
        if o.type == r.type and not o.same_direction(r):
            return "direction", None, o.type
    for o in theirs:
        return "type+direction", None, o.type
    return "absent", None, None


def _value(r, ignore_type, declared):
    base = "related" if ignore_type else r.type
    if r.first == r.second:
        return base
    if r.directed:
        return base if r.first < r.second else f"{base} (reversed)"
    return base if ignore_type or r.type in declared else f"{base} (undirected)"


def oracle(data: RelationAnnotations, *, match: str = "exact", argument_labels: bool = True,
           ignore_type: bool = False, unmarked: str = "missing", undirected=()) -> dict:
    declared = frozenset(undirected)
    coders = data.coders
    if match == "exact":
        pos, document, groups = _exact_groups(data, argument_labels)
    else:
        al = align_arguments(data.spans, match=match, labels=argument_labels)
        groups, document = al.spans_at, al.document
        pos = {s: p for p, g in enumerate(groups) for s in g}

    def describe(p):
        s = groups[p][0]
        return f"[{s.start}, {s.end}) {s.label!r}"

    out: dict = {}
    for r in data.relations:
        x = _Rel(r.coder, r.document, r.type, pos[r.source], pos[r.target], r.directed and r.type not in declared, r)
        out.setdefault((r.coder, x.key), x)
    rels, merged = list(out.values()), len(data.relations) - len(out)
    marked = {(s.coder, p) for p, g in enumerate(groups) for s in g}
    seen_docs: dict = {c: set() for c in coders}
    for d, c in data.spans.seen:
        seen_docs[c].add(d)
    by_pair: dict = {}
    by_coder: dict = {c: [] for c in coders}
    for r in rels:
        by_pair.setdefault((r.coder, r.pair), []).append(r)
        by_coder[r.coder].append(r)
    pairs, unmatched = [], []
    for i, a in enumerate(coders):
        for b in coders[i + 1:]:
            shared = seen_docs[a] & seen_docs[b]
            if not shared:
                continue
            ra, rb = ([r for r in by_coder[c] if r.document in shared] for c in (a, b))
            ka, kb = {r.key for r in ra}, {r.key for r in rb}
            ua, ub = Counter(r.pair for r in ra), Counter(r.pair for r in rb)
            tp_untyped = sum(min(n, ub[p]) for p, n in ua.items())
            na_t, nb_t = Counter(r.type for r in ra), Counter(r.type for r in rb)
            tp_t = Counter(k[2] for k in ka & kb)
            per_type = [_score(t, tp_t[t], na_t[t], nb_t[t]) for t in sorted(na_t.keys() | nb_t.keys())]
            tp = sum(tp_t.values())
            pairs.append(RelationPairScores(a, b, len(shared), _score("(typed)", tp, len(ra), len(rb)),
                                            _score("(untyped)", tp_untyped, len(ra), len(rb)), tuple(per_type)))
            for own, other, other_keys in ((ra, b, kb), (rb, a, ka)):
                for r in own:
                    if r.key in other_keys:
                        continue
                    reason, missing, other_type = _reason(r, other, marked, by_pair)
                    unmatched.append(UnmatchedRelation(r.document, r.coder, other, r.relation.id, r.type,
                                                       describe(r.first), describe(r.second), reason, missing,
                                                       other_type))
    units = sorted({r.pair for r in rels})
    values: dict = {}
    for r in rels:
        values.setdefault((r.pair, r.coder), set()).add(_value(r, ignore_type, declared))
    records = []
    for u, (x, y) in enumerate(units):
        doc = document[x]
        for c in coders:
            given = values.get(((x, y), c))
            if given:
                records.append((u, c, " + ".join(sorted(given))))
            elif ((c, x) in marked and (c, y) in marked) or (unmarked == "none" and doc in seen_docs[c]):
                records.append((u, c, NONE))
    return {"pairs": pairs, "unmatched": unmatched, "records": records, "n_merged": merged}
