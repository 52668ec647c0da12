r"""Agreement on relations and events: pairwise F1 with the unmatched relations explained, and alpha over
the candidate argument pairs.

The arguments are aligned first (:mod:`accord.relations._align`): every span gets a position, and two
coders' relations can only match when their arguments are at the same positions.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import gc
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, choice_error, plural, warn_undefined
from accord.data._relations import RelationAnnotations
from accord.relations._align import MATCHES, Alignment, align_arguments
from accord.relations._results import RelationAgreement, RelationPairScores, RelationScore, UnmatchedRelation
from accord.relations._table import NONE, RelationTable

__all__ = ["NONE", "UNMARKED", "agreement", "check_options"]

#: What a coder who did not mark an argument of a candidate pair counts as.
UNMARKED = ("missing", "none")


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused for the block (and resumed after, if it ran before).

    The agreement makes few objects that outlive it, but each pass of the collector walks every object alive,
    the data's hundreds of thousands of spans and relations included: at 100,000 relations x 3 coders, the
    passes the allocations set off took half the time (BENCHMARKS.md section 13). Cycles made in the block
    are collected on the next pass after it.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


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
    unknown = sorted(declared - set(data.types)) if declared else []
    if unknown:
        raise AccordError(f"undirected names {plural(len(unknown), 'type')} no relation has: "
                          f"{', '.join(map(repr, unknown))} (the types: {', '.join(map(repr, data.types)) or 'none'})")
    if len(data.coders) < 2:
        raise AccordError(f"{data.source or 'data'}: relation agreement needs at least two coders; found "
                          + (f"{len(data.coders)} ({', '.join(map(repr, data.coders))})" if data.coders else "none"))
    return declared


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
        Resamples of documents for alpha's interval, and Cohen's kappa's with two coders (0, the default: none;
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
        (``alpha_ci_low``, ``alpha_ci_high``), or why it could not be drawn (``interval_undefined_reason``), and
        with two coders kappa's on the same resamples (``kappa_ci_low``, ``kappa_ci_high``,
        ``kappa_interval_undefined_reason``).

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
    is undefined, with the reason, when alpha is, or with fewer than two documents. With two coders, Cohen's
    kappa gets its interval from the same resamples: on each, the observed agreement and the two coders'
    marginals are summed over the candidates both valued in the documents drawn.

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
    with _collector_paused():
        res = _agreement(data, declared, match, argument_labels, ignore_type, unmarked, bootstrap, confidence)
    if not bootstrap:
        return res
    rng = np.random.default_rng(rng) if not isinstance(rng, np.random.Generator) else rng
    kappa: dict[str, Any] = {}
    if len(res.coders) == 2:  # on the resamples alpha's interval draws (a copy of the generator draws them again)
        kappa_rng = copy.deepcopy(rng)
        try:
            kappa["kappa_ci_low"], kappa["kappa_ci_high"] = res.confidence_interval(
                confidence, n_resamples=bootstrap, rng=kappa_rng, coefficient="kappa")
        except AccordError as exc:
            kappa["kappa_interval_undefined_reason"] = str(exc)
    try:
        low, high = res.confidence_interval(confidence, n_resamples=bootstrap, rng=rng)
    except AccordError as exc:
        return dataclasses.replace(res, interval_undefined_reason=str(exc), **kappa)
    return dataclasses.replace(res, alpha_ci_low=low, alpha_ci_high=high, **kappa)


def _agreement(data: RelationAnnotations, declared: frozenset[str], match: str, argument_labels: bool,
               ignore_type: bool, unmarked: str, bootstrap: int, confidence: float) -> RelationAgreement:
    coders = data.coders
    al = align_arguments(data.spans, match=match, labels=argument_labels)
    table = RelationTable.build(data, al, declared, coders)
    marked = al.marked_matrix(coders)
    seen_docs: dict[str, set[str]] = {c: set() for c in coders}
    for d, c in data.spans.seen:
        seen_docs[c].add(d)
    doc_index = {d: k for k, d in enumerate(table.documents)}
    seen = np.zeros((len(coders), len(table.documents)), dtype=bool)
    for k, c in enumerate(coders):
        seen[k, [doc_index[d] for d in seen_docs[c]]] = True
    n_types = len(table.types)
    n_pairs = int(table.pair.max()) + 1 if len(table.pair) else 0
    key_type = np.zeros(int(table.key.max()) + 1 if len(table.key) else 0, dtype=np.int64)
    key_type[table.key] = table.type

    pairs: list[RelationPairScores] = []
    unmatched: list[UnmatchedRelation] = []
    unshared: list[tuple[str, str]] = []
    described: dict[int, str] = {}
    for i, a in enumerate(coders):
        for j in range(i + 1, len(coders)):
            b = coders[j]
            shared = seen[i] & seen[j]
            if not shared.any():
                unshared.append((a, b))
                continue
            in_shared = shared[table.document]
            ra, rb = np.flatnonzero((table.coder == i) & in_shared), np.flatnonzero((table.coder == j) & in_shared)
            ka, kb = table.key[ra], table.key[rb]
            tp_t = np.bincount(key_type[np.intersect1d(ka, kb, assume_unique=True)], minlength=n_types)
            na_t = np.bincount(table.type[ra], minlength=n_types)
            nb_t = np.bincount(table.type[rb], minlength=n_types)
            tp_untyped = int(np.minimum(np.bincount(table.pair[ra], minlength=n_pairs),
                                        np.bincount(table.pair[rb], minlength=n_pairs)).sum())
            per_type = [_score(t, int(tp_t[k]), int(na_t[k]), int(nb_t[k])) for k, t in enumerate(table.types)
                        if na_t[k] or nb_t[k]]
            tp = int(tp_t.sum())
            pairs.append(RelationPairScores(a, b, int(shared.sum()), _score("(typed)", tp, len(ra), len(rb)),
                                            _score("(untyped)", tp_untyped, len(ra), len(rb)), tuple(per_type)))
            unmatched += table.unmatched(ra, j, kb, coders, marked, al, described)
            unmatched += table.unmatched(rb, i, ka, coders, marked, al, described)
    if not pairs:
        raise AccordError(f"{data.source or 'data'}: no document was seen by two coders; nothing to compare")

    candidates, per_unit, unit_doc = _candidates(table, coders, marked, seen, unmarked, ignore_type, declared, al)
    alpha_res, kappa_res, reason, kappa_reason, n_pairable = _coefficients(candidates, per_unit, coders)
    shared_docs = seen.sum(axis=0) >= 2
    documents = _documents(per_unit, unit_doc, shared_docs)
    x, y = table.pairs()
    units = list(zip(x.tolist(), y.tolist(), strict=True))
    merged = table.n_merged
    return RelationAgreement(
        match=match, argument_labels=argument_labels, ignore_type=ignore_type, unmarked=unmarked,
        undirected=tuple(sorted(declared)), coders=coders, pairs=tuple(pairs),
        f1=_nanmean(p.typed.f1 for p in pairs), f1_untyped=_nanmean(p.untyped.f1 for p in pairs),
        alpha=alpha_res.alpha if alpha_res is not None else math.nan, alpha_result=alpha_res,
        kappa=kappa_res.kappa if kappa_res is not None else math.nan, kappa_result=kappa_res,
        n_documents=int(shared_docs.sum()), n_relations=len(data.relations), n_candidates=len(units),
        n_pairable=n_pairable,
        unmatched=tuple(unmatched), unshared_pairs=tuple(unshared), undefined_reason=reason,
        kappa_undefined_reason=kappa_reason, n_merged=merged, _candidates=candidates,
        _candidate_pairs=(al, tuple(units)), bootstrap=bootstrap, confidence=float(confidence),
        _documents=documents,
    )


def _candidates(table: RelationTable, coders: tuple[str, ...], marked: np.ndarray, seen: np.ndarray,
                unmarked: str, ignore_type: bool, declared: frozenset[str], al: Alignment
                ) -> tuple[Any, np.ndarray, np.ndarray]:
    """The candidate pairs as Annotations (unit = candidate number, coder, value), the number of values on each
    candidate and each candidate's document (an index into ``table.documents``)."""
    from accord.data._annotations import Annotations

    x, y = table.pairs()
    n_units, n_coders = len(x), len(coders)
    vid, names = table.values(ignore_type, declared)
    # each (candidate, coder)'s values, distinct, as one text: "a + b" for two
    cell = table.pair * n_coders + table.coder
    given = np.zeros(n_units * n_coders, dtype=bool)
    given[cell] = True
    uniq = np.unique(np.stack([cell, vid], axis=1), axis=0) if len(cell) else np.zeros((0, 2), dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, uniq[1:, 0] != uniq[:-1, 0]]) if len(uniq) else np.zeros(0, np.int64)
    ends = np.r_[starts[1:], len(uniq)].astype(np.int64) if len(uniq) else np.zeros(0, np.int64)
    texts = [NONE]
    text_code: dict[str, int] = {NONE: 0}
    cell_value = np.zeros(n_units * n_coders, dtype=np.int64)
    vids = uniq[:, 1].tolist()
    for lo, hi, c in zip(starts.tolist(), ends.tolist(), uniq[starts, 0].tolist(), strict=True):
        v = names[vids[lo]] if hi - lo == 1 else " + ".join(sorted(names[k] for k in vids[lo:hi]))
        code = text_code.get(v)
        if code is None:
            code = text_code[v] = len(texts)
            texts.append(v)
        cell_value[c] = code
    given = given.reshape(n_units, n_coders)
    position_doc = _position_documents(al, table.documents)
    unit_doc = position_doc[x] if n_units else np.zeros(0, dtype=np.int64)
    none = marked[:, x].T & marked[:, y].T
    if unmarked == "none":
        none |= seen[:, unit_doc].T
    has = given | none  # a coder with no value given and not "none" is missing
    u, c = np.nonzero(has)  # row-major: candidate by candidate, coders in order
    values = np.where(given[u, c], cell_value.reshape(n_units, n_coders)[u, c], 0)
    per_unit = has.sum(axis=1)
    if not len(u):
        return None, per_unit, unit_doc
    unit_labels = np.empty(n_units, dtype=object)
    unit_labels[:] = list(range(n_units))
    coder_labels = np.empty(n_coders, dtype=object)
    coder_labels[:] = list(coders)
    value_labels = np.empty(len(texts), dtype=object)
    value_labels[:] = texts
    data = Annotations._from_codes(u.astype(np.int64), unit_labels, c.astype(np.int64), coder_labels,
                                   values.astype(np.int64), value_labels, source=None,
                                   row_numbers=np.arange(1, len(u) + 1, dtype=np.int64))
    return data, per_unit, unit_doc


def _position_documents(al: Alignment, documents: tuple[str, ...]) -> np.ndarray:
    index = {d: k for k, d in enumerate(documents)}
    return np.fromiter((index[d] for d in al.document), dtype=np.int64, count=len(al.document))


def _documents(per_unit: np.ndarray, unit_doc: np.ndarray, shared: np.ndarray) -> tuple[np.ndarray, int]:
    """The document of each candidate, as an index into the documents the bootstrap draws (those two coders or
    more saw, and any other holding a candidate with two values), and how many those are."""
    drawn = shared.copy()
    drawn[unit_doc[per_unit >= 2]] = True
    index = np.cumsum(drawn) - 1
    # a candidate with fewer than two values enters no resample's alpha: its document index is never read
    return np.where(drawn[unit_doc], index[unit_doc], 0).astype(np.int64), int(drawn.sum())


def _coefficients(candidates: Any, per_unit: np.ndarray, coders: tuple[str, ...]) -> tuple:
    """Alpha (and Cohen's kappa for two coders) over the candidate values, or why they are undefined."""
    from accord.coefficients._alpha import alpha
    from accord.coefficients._kappa import cohen_kappa

    n_pairable = int((per_unit >= 2).sum())
    alpha_res = kappa_res = None
    reason = kappa_reason = None
    if not n_pairable:
        reason = ("no coder related any pair of spans" if not (per_unit > 0).any()
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
    return alpha_res, kappa_res, reason, kappa_reason, n_pairable
