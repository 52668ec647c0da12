r"""Agreement on relations and events: pairwise F1 with the unmatched relations explained, and alpha over
the candidate argument pairs.

The arguments are aligned first (:mod:`accord.relations._align`): every span gets a position, and two
coders' relations can only match when their arguments are at the same positions.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, choice_error, plural, warn_undefined
from accord.data._relations import Relation, RelationAnnotations
from accord.relations._align import MATCHES, Alignment, align_arguments
from accord.relations._results import RelationAgreement, RelationPairScores, RelationScore, UnmatchedRelation

__all__ = ["NONE", "UNMARKED", "agreement", "check_options"]

#: The value of a coder who marked both arguments of a candidate pair and did not relate them.
NONE = "none"
#: What a coder who did not mark an argument of a candidate pair counts as.
UNMARKED = ("missing", "none")
_RELATED = "related"


class _Rel:
    """A relation at its arguments' positions (each coder's identical relations merged into one)."""

    __slots__ = ("coder", "directed", "document", "first", "key", "pair", "relation", "second", "type")

    def __init__(self, coder: str, document: str, type: str, first: int, second: int, directed: bool,
                 relation: Relation) -> None:
        self.coder, self.document, self.type, self.relation = coder, document, type, relation
        self.first, self.second, self.directed = first, second, directed  # source and target positions
        self.pair = (first, second) if first <= second else (second, first)
        # what a typed match compares: the positions (in order when directed), the type, the directedness
        self.key = (first, second, type, True) if directed else (*self.pair, type, False)

    def same_direction(self, other: _Rel) -> bool:
        if self.directed and other.directed:
            return (self.first, self.second) == (other.first, other.second)
        return self.directed == other.directed


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else math.nan


def _score(label: str, tp: int, na: int, nb: int) -> RelationScore:
    return RelationScore(label, tp, na, nb, _ratio(tp, nb), _ratio(tp, na), _ratio(2 * tp, na + nb))


def _nanmean(x: Iterable[float]) -> float:
    v = [a for a in x if not math.isnan(a)]
    return sum(v) / len(v) if v else math.nan


def check_options(match: object, argument_labels: object, ignore_type: object, unmarked: object,
                  undirected: object, *, bootstrap: object = 0, confidence: object = 0.95) -> frozenset[str]:
    """The options of :func:`agreement`, checked (before any file is read); the undirected types."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise AccordError(f"bootstrap must be a whole number >= 0 (resamples of documents; 0: no interval); got "
                          f"{bootstrap!r}", cli=f"--bootstrap must be a whole number >= 0 (resamples of documents; "
                          f"0: no interval); got {bootstrap!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 < confidence < 1:
        raise AccordError(f"confidence must be a number in (0, 1); got {confidence!r}",
                          cli=f"--confidence must be a number in (0, 1); got {confidence!r}")
    if match not in MATCHES:
        raise choice_error("match", match, MATCHES)
    for name, v in (("argument_labels", argument_labels), ("ignore_type", ignore_type)):
        if not isinstance(v, bool):
            raise AccordError(f"{name} must be True or False; got {v!r}")
    if unmarked not in UNMARKED:
        raise choice_error("unmarked", unmarked, UNMARKED)
    if isinstance(undirected, str) or not isinstance(undirected, Iterable):
        raise AccordError(f"undirected must be a collection of relation types (['sibling_of']); got {undirected!r}")
    declared = frozenset(undirected)
    for t in declared:
        if not isinstance(t, str):
            raise AccordError(f"undirected must hold relation types as text; got {t!r}")
    return declared


def _check(data: object, match: object, argument_labels: object, ignore_type: object, unmarked: object,
           undirected: object, bootstrap: object, confidence: object) -> frozenset[str]:
    if not isinstance(data, RelationAnnotations):
        raise AccordError(f"data must be accord.relations.RelationAnnotations; got {type(data).__name__}")
    declared = check_options(match, argument_labels, ignore_type, unmarked, undirected, bootstrap=bootstrap,
                             confidence=confidence)
    unknown = sorted(declared - set(data.types))
    if unknown:
        raise AccordError(f"undirected names {plural(len(unknown), 'type')} no relation has: "
                          f"{', '.join(map(repr, unknown))} (the types: {', '.join(map(repr, data.types)) or 'none'})")
    if len(data.coders) < 2:
        raise AccordError(f"{data.source or 'data'}: relation agreement needs at least two coders; found "
                          + (f"{len(data.coders)} ({', '.join(map(repr, data.coders))})" if data.coders else "none"))
    return declared


def _placed(data: RelationAnnotations, al: Alignment, declared: frozenset[str]) -> tuple[list[_Rel], int]:
    """The relations at their positions, each coder's identical ones merged (and how many were merged)."""
    out: dict[tuple[str, tuple[int, int, str, bool]], _Rel] = {}
    for r in data.relations:
        x = _Rel(r.coder, r.document, r.type, al.of(r.source), al.of(r.target),
                 r.directed and r.type not in declared, r)
        out.setdefault((r.coder, x.key), x)
    return list(out.values()), len(data.relations) - len(out)


def _reason(r: _Rel, other: str, marked: set[tuple[str, int]], by_pair: dict[tuple[str, tuple[int, int]], list[_Rel]],
            ) -> tuple[str, str | None, str | None]:
    """(reason, missing argument, other type) for a relation of one coder without a typed match in *other*'s."""
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


def _value(r: _Rel, ignore_type: bool, declared: frozenset[str]) -> str:
    base = _RELATED if ignore_type else r.type
    if r.first == r.second:
        return base
    if r.directed:
        return base if r.first < r.second else f"{base} (reversed)"
    return base if ignore_type or r.type in declared else f"{base} (undirected)"


def agreement(
    data: RelationAnnotations,
    *,
    match: str = "exact",
    argument_labels: bool = True,
    ignore_type: bool = False,
    unmarked: str = "missing",
    undirected: Iterable[str] = (),
    bootstrap: int = 0,
    confidence: float = 0.95,
    rng: Any = None,
) -> RelationAgreement:
    r"""Agreement on relations (and events' roles): pairwise F1 and chance-corrected agreement.

    Parameters
    ----------
    data : RelationAnnotations
        Relations of two or more coders with every span each marked (:func:`read_relations` reads a tool's
        export into it).
    match : {"exact", "overlap", "gamma"}
        How arguments are aligned: the same offsets; spans sharing a code point, one to one, overlapping most;
        or gamma's best alignment, which may align near spans that do not overlap.
    argument_labels : bool
        Whether two spans must have the same label to stand for one argument (default True).
    ignore_type : bool
        Alpha and kappa compare whether a pair is related (and in which direction), not the type.
    unmarked : {"missing", "none"}
        A coder who did not mark an argument of a candidate pair has no value on it (``"missing"``, the
        default), or relates nothing there (``"none"``, when they saw the document).
    undirected : iterable of str
        Relation types whose direction does not matter (``["sibling_of"]``).
    bootstrap : int
        Resamples of documents for alpha's interval (0, the default: none;
        :meth:`RelationAgreement.confidence_interval` draws one afterwards).
    confidence : float
        Level of the interval (default 0.95).
    rng : int, numpy.random.Generator or None
        The bootstrap's randomness: a seed makes the interval reproducible.

    Returns
    -------
    RelationAgreement
        Per coder pair the F1 with and without the type and the unmatched relations with their reasons;
        alpha (and Cohen's kappa for two coders) over the candidate pairs; with *bootstrap*, alpha's interval
        (``alpha_ci_low``, ``alpha_ci_high``), or why it could not be drawn (``interval_undefined_reason``).

    Notes
    -----
    **F1.** For coders a and b over the documents both saw, a relation of b matches one of a when its
    arguments are at the same positions and its type is the same, in the same direction unless the type is
    undirected (typed F1), or when its arguments are the same pair of positions, whatever the type and
    direction (untyped F1). With *tp* matches and :math:`n_a, n_b` relations,
    :math:`F_1 = 2\,tp / (n_a + n_b)`; identical relations of one coder count once.

    **Alpha.** The candidates are the pairs of positions that any coder related: the union over coders. On
    a candidate, a coder's value is the type they gave (with ``" (reversed)"`` when it goes from the later
    argument to the earlier, or ``" (undirected)"`` for a relation going both ways whose type is not
    declared undirected; several relations on one pair join as ``"a + b"``), ``"none"`` when they marked
    both arguments and related nothing, and missing when they did not mark an argument. Alpha is nominal
    Krippendorff's alpha over those values, and Cohen's kappa is computed over the candidates both coders
    have a value on when there are two coders.

    A pair no coder related is left out: every coder agrees there, and the pairs of marked spans grow as
    the square of the spans, so counting them would make alpha depend on how many spans there are rather
    than on the relations. The union keeps every pair on which someone made a claim, so each relation a
    coder gave counts once, against what every other coder said about the same arguments.

    **The interval.** The candidates of one document share their arguments, so they are not independent
    draws: the bootstrap draws documents (those two coders or more saw) with replacement, each with all its
    candidates, and recomputes alpha, observed and expected disagreement both, on each resample, as the
    span measures do (:meth:`accord.spans.SpanF1.confidence_interval`); the percentile interval is taken
    over the resamples on which alpha is defined. With one candidate per document this is alpha's own unit
    bootstrap (:meth:`accord.AlphaResult.confidence_interval`) on :attr:`RelationAgreement.candidates`. It
    is undefined, with the reason, when alpha is, or with fewer than two documents.

    Examples
    --------
    >>> from accord.spans import Span
    >>> from accord.relations import Relation, RelationAnnotations
    >>> def rel(coder, typ, s, t):
    ...     return Relation("d", coder, typ, Span("d", *s, "E", coder), Span("d", *t, "E", coder))
    >>> data = RelationAnnotations.from_relations([
    ...     rel("a", "part_of", (0, 4), (10, 14)), rel("b", "part_of", (0, 4), (10, 14)),
    ...     rel("a", "part_of", (20, 24), (30, 34)), rel("b", "cause", (20, 24), (30, 34)),
    ... ])
    >>> res = agreement(data)
    >>> res.f1, res.f1_untyped, res.n_candidates, [u.reason for u in res.unmatched]
    (0.5, 1.0, 2, ['type', 'type'])
    """
    declared = _check(data, match, argument_labels, ignore_type, unmarked, undirected, bootstrap, confidence)
    coders = data.coders
    al = align_arguments(data.spans, match=match, labels=argument_labels)
    rels, merged = _placed(data, al, declared)
    marked = al.marked()
    seen_docs: dict[str, set[str]] = {c: set() for c in coders}
    for d, c in data.spans.seen:
        seen_docs[c].add(d)
    by_pair: dict[tuple[str, tuple[int, int]], list[_Rel]] = {}
    by_coder: dict[str, list[_Rel]] = {c: [] for c in coders}
    for r in rels:
        by_pair.setdefault((r.coder, r.pair), []).append(r)
        by_coder[r.coder].append(r)

    pairs: list[RelationPairScores] = []
    unmatched: list[UnmatchedRelation] = []
    unshared: list[tuple[str, str]] = []
    for i, a in enumerate(coders):
        for b in coders[i + 1:]:
            shared = seen_docs[a] & seen_docs[b]
            if not shared:
                unshared.append((a, b))
                continue
            ra, rb = (by_coder[c] if seen_docs[c] <= shared else [r for r in by_coder[c] if r.document in shared]
                      for c in (a, b))
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
                    unmatched.append(UnmatchedRelation(
                        r.document, r.coder, other, r.relation.id, r.type, al.describe(r.first),
                        al.describe(r.second), reason, missing, other_type))
    if not pairs:
        raise AccordError(f"{data.source or 'data'}: no document was seen by two coders; nothing to compare")

    # candidates: the pairs of positions some coder related
    units = sorted({r.pair for r in rels})
    values: dict[tuple[tuple[int, int], str], set[str]] = {}
    for r in rels:
        values.setdefault((r.pair, r.coder), set()).add(_value(r, ignore_type, declared))
    records = []
    for u, (x, y) in enumerate(units):
        doc = al.document[x]
        for c in coders:
            given = values.get(((x, y), c))
            if given:
                records.append((u, c, " + ".join(sorted(given))))
            elif ((c, x) in marked and (c, y) in marked) or (unmarked == "none" and doc in seen_docs[c]):
                records.append((u, c, NONE))
    alpha_res, kappa_res, reason, kappa_reason, candidates, n_pairable = _coefficients(records, coders)
    shared_docs = [d for d in data.documents if sum(d in seen_docs[c] for c in coders) >= 2]
    documents = _documents(records, [al.document[x] for x, _ in units], shared_docs)
    res = RelationAgreement(
        match=match, argument_labels=argument_labels, ignore_type=ignore_type, unmarked=unmarked,
        undirected=tuple(sorted(declared)), coders=coders, pairs=tuple(pairs),
        f1=_nanmean(p.typed.f1 for p in pairs), f1_untyped=_nanmean(p.untyped.f1 for p in pairs),
        alpha=alpha_res.alpha if alpha_res is not None else math.nan, alpha_result=alpha_res,
        kappa=kappa_res.kappa if kappa_res is not None else math.nan, kappa_result=kappa_res,
        n_documents=len(shared_docs), n_relations=len(data.relations), n_candidates=len(units), n_pairable=n_pairable,
        unmatched=tuple(unmatched), unshared_pairs=tuple(unshared), undefined_reason=reason,
        kappa_undefined_reason=kappa_reason, n_merged=merged, _candidates=candidates,
        _candidate_pairs=(al, tuple(units)), bootstrap=bootstrap, confidence=float(confidence),
        _documents=documents,
    )
    if not bootstrap:
        return res
    try:
        low, high = res.confidence_interval(confidence, n_resamples=bootstrap, rng=rng)
    except AccordError as exc:
        return dataclasses.replace(res, interval_undefined_reason=str(exc))
    return dataclasses.replace(res, alpha_ci_low=low, alpha_ci_high=high)


def _documents(records: list[tuple[int, str, str]], document_of_candidate: list[str], shared: list[str]
               ) -> tuple[np.ndarray, int]:
    """The document of each candidate, as an index into the documents the bootstrap draws (those two coders or
    more saw, and any other holding a candidate with two values), and how many those are."""
    per_unit = Counter(u for u, _, _ in records)
    drawn = set(shared) | {document_of_candidate[u] for u, n in per_unit.items() if n >= 2}
    index = {d: i for i, d in enumerate(sorted(drawn))}
    # a candidate with fewer than two values enters no resample's alpha: its document index is never read
    return np.array([index.get(d, 0) for d in document_of_candidate], dtype=np.int64), len(index)


def _coefficients(records: list[tuple[int, str, str]], coders: tuple[str, ...]) -> tuple:
    """Alpha (and Cohen's kappa for two coders) over the candidate values, or why they are undefined."""
    from accord.coefficients._alpha import alpha
    from accord.coefficients._kappa import cohen_kappa
    from accord.data._annotations import Annotations

    per_unit = Counter(u for u, _, _ in records)
    n_pairable = sum(1 for n in per_unit.values() if n >= 2)
    candidates = Annotations.from_records(records) if records else None
    alpha_res = kappa_res = None
    reason = kappa_reason = None
    if not n_pairable:
        reason = ("no coder related any pair of spans" if not per_unit
                  else "no candidate pair has values of two coders (no other coder marked both arguments of a "
                       "related pair)")
        warn_undefined("relation alpha", reason)
    else:
        alpha_res = alpha(candidates)
        reason = alpha_res.undefined_reason
    if len(coders) != 2:
        kappa_reason = f"Cohen's kappa is for two coders; there are {len(coders)}"
    elif candidates is None or candidates.n_coders < 2 or not n_pairable:
        kappa_reason = "no candidate pair has values of both coders"
    else:
        try:
            kappa_res = cohen_kappa(candidates)
            kappa_reason = kappa_res.undefined_reason
        except AccordError as exc:
            kappa_reason = str(exc)
    return alpha_res, kappa_res, reason, kappa_reason, candidates, n_pairable
