r"""Pairwise precision, recall and F1 between coders' spans, with the disagreements listed.

For every pair of coders (a, b), over the documents both saw, the spans of
*a* are taken as the reference and those of *b* as the response; a span of
*b* is a true positive when it is matched to a span of *a* with the same
label:

- ``match="exact"``: same document, same offsets (all fragments) and same
  label; a span marked twice by both coders matches twice (multiset);
- ``match="overlap"``: same document and label, sharing at least one code
  point, matched one to one (a maximum bipartite matching, so that one long
  span does not match three short ones).

Precision of *b* against *a* is recall of *a* against *b*, so F1 is
symmetric and each unordered pair is reported once.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, warn_undefined
from accord._shared.results import Coefficient, Result
from accord.data._spans import SpanAnnotations
from accord.spans._arrays import SpanArrays, fragments_overlap, overlap_pairs, span_arrays

__all__ = ["CoderPairScores", "SpanDisagreement", "SpanF1Result", "SpanScore", "span_f1"]

Match = Literal["exact", "overlap"]
MATCHES: tuple[str, ...] = ("exact", "overlap")
#: The label of every span when labels are ignored.
UNLABELLED = "(span)"


def _ratio(num: float, den: float) -> float:
    return num / den if den > 0 else math.nan


@dataclass(frozen=True)
class SpanScore(Result):
    """Precision, recall and F1 of coder b against coder a for one label (or averaged).

    Attributes
    ----------
    label : str
        The label, or ``"(micro)"`` / ``"(macro)"`` for the averages.
    true_positives : int
        Spans of b matched to a span of a (summed over labels for micro;
        NaN for macro).
    n_a, n_b : int
        Spans of a (reference) and of b (response).
    precision, recall, f1 : float
        tp / n_b, tp / n_a and 2 tp / (n_a + n_b); NaN when the denominator is
        0 (no span of that side).  For macro, the means over labels of the
        defined per-label values.
    """

    label: str
    true_positives: float
    n_a: int
    n_b: int
    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class CoderPairScores(Result):
    """Span scores of one pair of coders over the documents both saw."""

    coder_a: str
    coder_b: str
    n_documents: int
    labels: tuple[SpanScore, ...]
    micro: SpanScore
    macro: SpanScore


@dataclass(frozen=True)
class SpanDisagreement(Result):
    """A span of one coder with no match in the other coder's spans, and why.

    Attributes
    ----------
    kind : str
        ``"label"``: the other coder marked the same offsets (exact) or an
        overlapping stretch (overlap) with another label; ``"boundary"``: the
        other coder has an overlapping span with the same label, but with
        other offsets (exact) or already matched to another span (overlap);
        ``"label+boundary"``: only overlapping spans with other labels and
        other offsets; ``"missing"``: nothing of the other coder overlaps it.
    other_start, other_end, other_label
        The other coder's closest overlapping span (same offsets first, then
        same label), or None when *kind* is ``"missing"``.
    """

    document: str
    coder: str
    other_coder: str
    start: int
    end: int
    label: str
    text: str | None
    kind: str
    other_start: int | None = None
    other_end: int | None = None
    other_label: str | None = None


@dataclass(frozen=True)
class SpanF1Result(Coefficient):
    """Pairwise span precision / recall / F1 per label, micro and macro averaged, with the diagnosis.

    Attributes
    ----------
    match : str
        ``"exact"`` or ``"overlap"``.
    ignore_labels : bool
        Whether labels were ignored (offsets only).
    coders : tuple of str
    pairs : tuple of CoderPairScores
        One per unordered pair of coders sharing at least one document.
    micro_f1, macro_f1 : float
        Means over coder pairs of the pairs' micro and macro F1.
    diagnosis : tuple of SpanDisagreement
        Every span without a match, for each pair, from both sides.
    n_documents : int
        Documents seen by at least two coders.
    n_spans : int
        Spans compared (in documents seen by at least two coders).
    n_spans_unshared : int
        Spans in documents only one coder saw (nothing to compare them with).
    unshared_pairs : tuple of (str, str)
        Pairs of coders who saw no document in common (no scores for them).
    undefined_reason : str or None
        Why ``micro_f1`` is NaN, when it is.
    """

    _value_field: ClassVar[str] = "micro_f1"
    _coefficient_id: ClassVar[str] = "span_f1"

    match: str
    coders: tuple[str, ...]
    pairs: tuple[CoderPairScores, ...]
    micro_f1: float
    macro_f1: float
    diagnosis: tuple[SpanDisagreement, ...]
    n_documents: int
    n_spans: int
    n_spans_unshared: int = 0
    ignore_labels: bool = False
    unshared_pairs: tuple[tuple[str, str], ...] = ()
    undefined_reason: str | None = None
    _doc_counts: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """One row per (coder pair, label), with the micro and macro rows of each pair."""
        rows = []
        for p in self.pairs:
            for s in (*p.labels, p.micro, p.macro):
                rows.append({"coder_a": p.coder_a, "coder_b": p.coder_b, **s.to_dict()})
        cols = ["coder_a", "coder_b", "label", "true_positives", "n_a", "n_b", "precision", "recall", "f1"]
        return pd.DataFrame(rows, columns=cols)

    def diagnosis_frame(self) -> pd.DataFrame:
        """The unmatched spans, one row each."""
        cols = [
            "document", "coder", "other_coder", "start", "end", "label", "text", "kind",
            "other_start", "other_end", "other_label",
        ]
        return pd.DataFrame([d.to_dict() for d in self.diagnosis], columns=cols)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap interval for ``micro_f1`` (mean over pairs of micro F1), resampling documents.

        Documents are drawn with replacement (each keeps all its spans) and
        every pair's micro F1 is recomputed from per-document counts, with
        :func:`scipy.stats.bootstrap`.  The documents drawn are those at
        least two coders saw (``n_documents``).
        """
        from accord.spans._bootstrap import document_bootstrap

        if self._doc_counts is None:
            raise AccordError("this result carries no data to resample")
        counts = self._doc_counts  # (3, pairs, documents): tp, n_a, n_b

        def statistic(w: np.ndarray) -> float:
            tp, na, nb = counts @ w
            den = na + nb
            ok = den > 0
            return float(np.mean(2 * tp[ok] / den[ok])) if ok.any() else np.nan

        return document_bootstrap(
            counts.shape[2], statistic, what="span micro F1", confidence_level=confidence_level,
            n_resamples=n_resamples, method=method, rng=rng,
        )


# ------------------------------------------------------------------ matching
def _exact_keys(arr: SpanArrays, ia: np.ndarray, ib: np.ndarray, frag: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """A common integer key for (document, label, fragments) of the spans *ia* and *ib*."""
    both = np.concatenate([ia, ib])
    frag_id = np.zeros(len(both), dtype=np.int64)  # 0 for ordinary spans; discontinuous ones get their own ids
    ids: dict[Any, int] = {}
    for k in np.flatnonzero(arr.multi[both]).tolist():
        frag_id[k] = ids.setdefault(frag[both[k]], len(ids) + 1)
    cols = (frag_id, arr.end[both], arr.start[both], arr.label[both], arr.document[both])
    order = np.lexsort(cols)
    change = np.zeros(len(both), dtype=bool)
    if len(both):
        change[0] = True
        for c in cols:
            sc = c[order]
            change[1:] |= sc[1:] != sc[:-1]
    key = np.empty(len(both), dtype=np.int64)
    key[order] = np.cumsum(change) - 1
    return key[: len(ia)], key[len(ia):]


def _exact_matched(arr: SpanArrays, ia: np.ndarray, ib: np.ndarray, frag: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Multiset exact matching: the k-th copy of a span in a matches the k-th copy in b."""
    ka, kb = _exact_keys(arr, ia, ib, frag)
    n_keys = int(max(ka.max(initial=-1), kb.max(initial=-1))) + 1

    def rank(k: np.ndarray) -> np.ndarray:
        order = np.argsort(k, kind="stable")
        sk = k[order]
        first = np.searchsorted(sk, sk, side="left")
        r = np.empty(len(k), dtype=np.int64)
        r[order] = np.arange(len(k)) - first
        return r

    ca = np.bincount(ka, minlength=n_keys)
    cb = np.bincount(kb, minlength=n_keys)
    return rank(ka) < cb[ka], rank(kb) < ca[kb]


def _overlap_matched(
    arr: SpanArrays, ia: np.ndarray, ib: np.ndarray, frag: list[Any]
) -> tuple[np.ndarray, np.ndarray]:
    """One-to-one matching of overlapping same-label spans, of maximum size."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_bipartite_matching

    ga, first_a, count_a = _copies(arr, ia, frag)
    gb, first_b, count_b = _copies(arr, ib, frag)
    if len(first_a) < len(ia) or len(first_b) < len(ib):
        # copies of one span have the same overlaps: match the distinct spans with their counts as capacities,
        # so that n copies on each side cost n, not the n x n pairs of every copy with every other
        return _overlap_matched_copies(arr, ia, ib, frag, (ga, first_a, count_a), (gb, first_b, count_b))
    key_a = arr.document[ia] * len(arr.labels) + arr.label[ia]
    key_b = arr.document[ib] * len(arr.labels) + arr.label[ib]
    ea, eb = overlap_pairs(key_a, arr.start[ia], arr.end[ia], key_b, arr.start[ib], arr.end[ib])
    ea, eb = _refine_fragments(arr, ia, ib, ea, eb, frag)
    ma = np.zeros(len(ia), dtype=bool)
    mb = np.zeros(len(ib), dtype=bool)
    if len(ea) == 0:
        return ma, mb
    graph = sp.csr_matrix((np.ones(len(ea)), (ea, eb)), shape=(len(ia), len(ib)))
    col_of_row = maximum_bipartite_matching(graph, perm_type="column")
    ma = col_of_row >= 0
    mb[col_of_row[ma]] = True
    return ma, mb


def _copies(arr: SpanArrays, idx: np.ndarray, frag: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The group of each span of *idx* among identical spans (document, label, fragments), the first span of
    each group (positions in *idx*) and each group's size."""
    if len(idx) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    shape = np.zeros(len(idx), dtype=np.int64)
    multi = np.flatnonzero(arr.multi[idx])
    if len(multi):  # discontinuous spans: their fragments tell copies apart (one number per distinct list)
        codes: dict[Any, int] = {}
        shape[multi] = [codes.setdefault(frag[idx[k]], len(codes) + 1) for k in multi.tolist()]
    rows = np.stack([arr.document[idx], arr.label[idx], arr.start[idx], arr.end[idx], shape], axis=1)
    _, first, group, count = np.unique(rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    return group.ravel(), first, count


def _overlap_matched_copies(
    arr: SpanArrays, ia: np.ndarray, ib: np.ndarray, frag: list[Any],
    side_a: tuple[np.ndarray, np.ndarray, np.ndarray], side_b: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray]:
    """The maximum one-to-one matching when spans repeat: a maximum flow from the distinct spans of one side
    (each with its number of copies) to the distinct spans of the other that they overlap. The first copies
    of a group are the matched ones (copies are interchangeable)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import maximum_flow

    ga, first_a, count_a = side_a
    gb, first_b, count_b = side_b
    ua, ub = ia[first_a], ib[first_b]
    key_a = arr.document[ua] * len(arr.labels) + arr.label[ua]
    key_b = arr.document[ub] * len(arr.labels) + arr.label[ub]
    ea, eb = overlap_pairs(key_a, arr.start[ua], arr.end[ua], key_b, arr.start[ub], arr.end[ub])
    ea, eb = _refine_fragments(arr, ua, ub, ea, eb, frag)
    ma = np.zeros(len(ia), dtype=bool)
    mb = np.zeros(len(ib), dtype=bool)
    if len(ea) == 0:
        return ma, mb
    na, nb = len(ua), len(ub)
    source, sink = 0, na + nb + 1
    tails = np.concatenate([np.full(na, source), 1 + ea, 1 + na + np.arange(nb)])
    heads = np.concatenate([1 + np.arange(na), 1 + na + eb, np.full(nb, sink)])
    caps = np.concatenate([count_a, np.minimum(count_a[ea], count_b[eb]), count_b]).astype(np.int32)
    graph = sp.csr_matrix((caps, (tails, heads)), shape=(sink + 1, sink + 1))
    flow = maximum_flow(graph, source, sink).flow.tocsr()
    used_a = np.asarray(flow[source, 1:na + 1].todense()).ravel()
    used_b = np.asarray(flow[1 + na:1 + na + nb, sink].todense()).ravel()
    return _first_copies(ga, used_a), _first_copies(gb, used_b)


def _first_copies(group: np.ndarray, used: np.ndarray) -> np.ndarray:
    """Mark the first ``used[g]`` spans of each group *g* (in the order of the spans)."""
    order = np.argsort(group, kind="stable")
    sorted_groups = group[order]
    starts = np.searchsorted(sorted_groups, np.arange(len(used)))
    rank = np.arange(len(group)) - starts[sorted_groups]
    out = np.zeros(len(group), dtype=bool)
    out[order] = rank < used[sorted_groups]
    return out


def _refine_fragments(
    arr: SpanArrays, ia: np.ndarray, ib: np.ndarray, ea: np.ndarray, eb: np.ndarray, frag: list[Any]
) -> tuple[np.ndarray, np.ndarray]:
    """Drop hull overlaps of discontinuous spans whose fragments do not overlap."""
    multi = arr.multi[ia[ea]] | arr.multi[ib[eb]]
    if not multi.any():
        return ea, eb
    keep = np.ones(len(ea), dtype=bool)
    for k in np.flatnonzero(multi):
        keep[k] = fragments_overlap(frag[ia[ea[k]]], frag[ib[eb[k]]])
    return ea[keep], eb[keep]


def _diagnose(
    data: SpanAnnotations,
    arr: SpanArrays,
    own: np.ndarray,
    other: np.ndarray,
    unmatched: np.ndarray,
    frag: list[Any],
    other_coder: str,
) -> list[SpanDisagreement]:
    """Classify the unmatched spans of one side against every span of the other side (vectorised).

    Identical spans (document, offsets, label, fragments) get the same diagnosis: each is classified once, against
    the first copy of each span of the other side (the partner chosen among equals), so that many copies of one
    span cost their number, not its square."""
    every = own[unmatched]
    if len(every) == 0:
        return []
    ko, kx = _exact_keys(arr, every, other, frag)
    _, first_own, copy_of = np.unique(ko, return_index=True, return_inverse=True)
    idx = every[first_own]
    other = other[np.sort(np.unique(kx, return_index=True)[1])]
    ea, eb = overlap_pairs(
        arr.document[idx], arr.start[idx], arr.end[idx], arr.document[other], arr.start[other], arr.end[other]
    )
    ea, eb = _refine_fragments(arr, idx, other, ea, eb, frag)
    i, j = idx[ea], other[eb]
    same_off = (arr.start[i] == arr.start[j]) & (arr.end[i] == arr.end[j])
    multi = np.flatnonzero(same_off & (arr.multi[i] | arr.multi[j]))
    for k in multi.tolist():
        same_off[k] = frag[i[k]] == frag[j[k]]
    same_lab = arr.label[i] == arr.label[j]
    rank = np.where(same_off & ~same_lab, 0, np.where(same_lab, 1, 2))
    order = np.lexsort((rank, ea))
    first = order[np.r_[True, ea[order][1:] != ea[order][:-1]]] if len(order) else order
    kind = np.full(len(idx), 3, dtype=np.int64)
    partner = np.full(len(idx), -1, dtype=np.int64)
    kind[ea[first]] = rank[first]
    partner[ea[first]] = j[first]
    kind, partner, idx = kind[copy_of.reshape(-1)], partner[copy_of.reshape(-1)], every
    kinds = ("label", "boundary", "label+boundary", "missing")
    spans, texts = data.spans, data.texts
    out = []
    for pos, (k, p) in enumerate(zip(kind.tolist(), partner.tolist(), strict=True)):
        sp = spans[idx[pos]]
        text = texts.get(sp.document)
        if text is None:
            covered = sp.text
        elif len(sp.fragments) == 1:
            covered = text[sp.start:sp.end]
        else:
            covered = "".join(text[a:b] for a, b in sp.fragments)
        if p < 0:
            out.append(SpanDisagreement(sp.document, sp.coder, other_coder, sp.start, sp.end, sp.label, covered,
                                        kinds[k]))
        else:
            o = spans[p]
            out.append(SpanDisagreement(sp.document, sp.coder, other_coder, sp.start, sp.end, sp.label, covered,
                                        kinds[k], o.start, o.end, o.label))
    return out


def _label_scores(labels: tuple[str, ...], tp: np.ndarray, na: np.ndarray, nb: np.ndarray) -> tuple[SpanScore, ...]:
    return tuple(
        SpanScore(
            label=labels[k],
            true_positives=int(tp[k]),
            n_a=int(na[k]),
            n_b=int(nb[k]),
            precision=_ratio(tp[k], nb[k]),
            recall=_ratio(tp[k], na[k]),
            f1=_ratio(2 * tp[k], na[k] + nb[k]),
        )
        for k in range(len(labels))
        if na[k] + nb[k] > 0
    )


def _nanmean(x: list[float]) -> float:
    v = [a for a in x if not math.isnan(a)]
    return float(np.mean(v)) if v else math.nan


def span_f1(data: SpanAnnotations, *, match: Match = "exact", ignore_labels: bool = False) -> SpanF1Result:
    r"""Pairwise span precision, recall and F1 per label, micro and macro averaged.

    Parameters
    ----------
    data : SpanAnnotations
        Spans of two or more coders.
    match : {"exact", "overlap"}
        Exact offsets and label, or one-to-one overlap with the same label.
    ignore_labels : bool
        Compare offsets only: every span counts as label ``"(span)"``, so
        the scores say whether the coders found the same stretches, whatever
        they called them.

    Returns
    -------
    SpanF1Result
        Per pair of coders, per label and averaged, with the unmatched spans
        listed as the diagnosis.

    Notes
    -----
    For coders a (reference) and b (response) over the documents both saw,
    with :math:`TP_\ell` the matched spans of label :math:`\ell` and
    :math:`n^a_\ell`, :math:`n^b_\ell` their spans:

    .. math::

        P_\ell = \frac{TP_\ell}{n^b_\ell},\quad R_\ell = \frac{TP_\ell}{n^a_\ell},\quad
        F_\ell = \frac{2\,TP_\ell}{n^a_\ell + n^b_\ell}.

    Micro sums TP and n over labels before dividing; macro averages the
    per-label values over the labels either coder used.  F1 between two coders
    is symmetric, and equals positive specific agreement (Fleiss 1975), the
    measure Hripcsak & Rothschild (2005) recommend where negatives (stretches
    nobody marked) cannot be counted.

    A zero-length span matches only exactly (it shares no code point with
    anything).

    References
    ----------
    Fleiss, J. L. (1975). Measuring agreement between two judges on the
    presence or absence of a trait. Biometrics 31(3), 651-659.
    Hripcsak, G., & Rothschild, A. S. (2005). Agreement, the F-measure, and
    reliability in information retrieval. JAMIA 12(3), 296-298.

    Examples
    --------
    >>> from accord.spans import Span, SpanAnnotations
    >>> sa = SpanAnnotations.from_spans([
    ...     Span("d", 0, 5, "PER", "a"), Span("d", 10, 13, "LOC", "a"),
    ...     Span("d", 0, 5, "PER", "b"), Span("d", 10, 14, "LOC", "b"),
    ... ])
    >>> span_f1(sa).micro_f1, span_f1(sa, match="overlap").micro_f1
    (0.5, 1.0)
    """
    if not isinstance(data, SpanAnnotations):
        raise AccordError(f"data must be accord.spans.SpanAnnotations; got {type(data).__name__}")
    if match not in MATCHES:
        raise AccordError(f"match must be one of {', '.join(map(repr, MATCHES))}; got {match!r}")
    if not isinstance(ignore_labels, bool):
        raise AccordError(f"ignore_labels must be True or False; got {ignore_labels!r}")
    if ignore_labels:
        data = SpanAnnotations.from_spans(
            (dataclasses.replace(s, label=UNLABELLED) for s in data.spans),
            texts=data.texts, seen=data.seen, tokens=data.tokens, source=data.source,
        )
    coders = data.coders
    if len(coders) < 2:
        raise AccordError(
            f"{data.source or 'data'}: span agreement needs at least two coders; found "
            + (f"{len(coders)} ({', '.join(map(repr, coders))})" if coders else "none")
        )
    arr = span_arrays(data)
    frag = [s.fragments for s in data.spans]
    documents = data.documents
    d_of = {d: i for i, d in enumerate(documents)}
    seen = np.zeros((len(coders), len(documents)), dtype=bool)
    for d, c in data.seen:
        seen[coders.index(c), d_of[d]] = True
    n_labels = len(arr.labels)
    pairs: list[CoderPairScores] = []
    diagnosis: list[SpanDisagreement] = []
    doc_counts: list[np.ndarray] = []
    unshared: list[tuple[str, str]] = []
    for a in range(len(coders)):
        for b in range(a + 1, len(coders)):
            shared = seen[a] & seen[b]
            if not shared.any():
                unshared.append((coders[a], coders[b]))
                continue
            ia = np.flatnonzero((arr.coder == a) & shared[arr.document])
            ib = np.flatnonzero((arr.coder == b) & shared[arr.document])
            matcher = _exact_matched if match == "exact" else _overlap_matched
            ma, mb = matcher(arr, ia, ib, frag)
            tp = np.bincount(arr.label[ia[ma]], minlength=n_labels)
            na = np.bincount(arr.label[ia], minlength=n_labels)
            nb = np.bincount(arr.label[ib], minlength=n_labels)
            n_docs = len(documents)
            doc_counts.append(
                np.stack([
                    np.bincount(arr.document[ia[ma]], minlength=n_docs),
                    np.bincount(arr.document[ia], minlength=n_docs),
                    np.bincount(arr.document[ib], minlength=n_docs),
                ]).astype(float)
            )
            per_label = _label_scores(arr.labels, tp, na, nb)
            t, sa, sb = int(tp.sum()), int(na.sum()), int(nb.sum())
            micro = SpanScore("(micro)", t, sa, sb, _ratio(t, sb), _ratio(t, sa), _ratio(2 * t, sa + sb))
            macro = SpanScore(
                "(macro)", math.nan, sa, sb,
                _nanmean([s.precision for s in per_label]),
                _nanmean([s.recall for s in per_label]),
                _nanmean([s.f1 for s in per_label]),
            )
            pairs.append(CoderPairScores(coders[a], coders[b], int(shared.sum()), per_label, micro, macro))
            diagnosis += _diagnose(data, arr, ia, ib, ~ma, frag, coders[b])
            diagnosis += _diagnose(data, arr, ib, ia, ~mb, frag, coders[a])
    if not pairs:
        raise AccordError(f"{data.source or 'data'}: no document was seen by two coders; nothing to compare")
    shared_any = seen.sum(axis=0) >= 2
    in_shared = shared_any[arr.document] if len(arr) else np.zeros(0, dtype=bool)
    micro_f1 = _nanmean([p.micro.f1 for p in pairs])
    reason = None
    if math.isnan(micro_f1):
        reason = "no coder marked a span in the documents the coders share"
        warn_undefined("span F1", reason)
    return SpanF1Result(
        match=match,
        ignore_labels=ignore_labels,
        coders=coders,
        pairs=tuple(pairs),
        micro_f1=micro_f1,
        macro_f1=_nanmean([p.macro.f1 for p in pairs]),
        diagnosis=tuple(diagnosis),
        n_documents=int(shared_any.sum()),
        n_spans=int(in_shared.sum()),
        n_spans_unshared=int((~in_shared).sum()),
        unshared_pairs=tuple(unshared),
        undefined_reason=reason,
        _doc_counts=np.stack(doc_counts, axis=1)[:, :, shared_any],
    )
