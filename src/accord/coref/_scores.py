"""The standard coreference scores of a response partition against a key partition.

MUC (Vilain et al. 1995), B-cubed (Bagga & Baldwin 1998), CEAF with the
mention-based (phi3) and entity-based (phi4) similarity (Luo 2005), BLANC for
system mentions (Recasens & Hovy 2011, extended by Luo et al. 2014) and LEA
(Moosavi & Strube 2016), computed as the CoNLL-2012 reference scorer v8.01
(Pradhan et al. 2014) computes them:

* key and response are partitions of *their own* mentions in each document; a
  key mention the response lacks, or a response mention the key lacks, is not
  added to the other side (no Cai & Strube 2010 manipulation);
* a mention repeated in the response (or the key) is kept once, at its first
  occurrence (reference scorer test cases TC-A-7 to TC-A-9);
* singletons are kept as given: they count for B-cubed, CEAF, BLANC and LEA;
  MUC ignores them by construction;
* numerators and denominators are summed over documents before dividing, and a
  zero denominator gives 0, not NaN (an all-singleton key has MUC recall 0/0 = 0).
  Scores that hit a zero denominator carry a ``note`` and emit an
  :class:`~accord.AccordWarning`;
* only the key's documents are scored; response documents the key lacks are
  ignored with a warning, and a key document the response lacks scores against an
  empty response.

Everything derives from one sparse contingency table: for each key entity k and
response entity r of a document, n_kr = |k ∩ r|, computed with ``np.unique`` over
all documents at once.  CEAF solves one assignment problem
(:func:`scipy.optimize.linear_sum_assignment`) per connected component of the
bipartite "entities that share a mention" graph, so its cost follows the size of
the largest tangle of entities, not of the largest document.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.lazy import optimize
from accord._shared.names import COREF_METRICS
from accord._shared.results import Coefficient, Result
from accord.coref._model import CorefAnnotations
from accord.coref._tokens import Align, placed_on

__all__ = [
    "BlancScore",
    "CorefScore",
    "CorefScores",
    "b_cubed",
    "blanc",
    "ceaf",
    "coref_scores",
    "lea",
    "muc",
]

Similarity = Literal["entity", "mention"]


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class CorefScore(Result):
    """Recall, precision and F1 of one coreference metric, with the summed counts.

    Attributes
    ----------
    metric : str
        ``"muc"``, ``"b_cubed"``, ``"ceaf_m"``, ``"ceaf_e"``, ``"lea"``, or for the
        two halves of BLANC ``"blanc_coreference"`` / ``"blanc_non_coreference"``.
    recall, precision, f1 : float
        ``recall_numerator / recall_denominator`` (0 when the denominator is 0, as
        the reference scorer does), likewise precision; F1 their harmonic mean (0
        when both are 0).
    recall_numerator, recall_denominator, precision_numerator, precision_denominator : float
        The counts summed over documents.
    n_documents : int
        Documents scored (the key's).
    note : str or None
        Why a value is 0 by convention rather than by data, if it is.
    """

    metric: str
    recall: float
    precision: float
    f1: float
    recall_numerator: float
    recall_denominator: float
    precision_numerator: float
    precision_denominator: float
    n_documents: int
    note: str | None = None


@dataclass(frozen=True)
class BlancScore(Result):
    """BLANC (Luo et al. 2014): the mean of the coreference-link and non-coreference-link scores.

    Attributes
    ----------
    recall, precision, f1 : float
        Means of the two halves, except as the reference scorer does when the key
        has no links of one kind: then only the other half counts (and 0 when the
        key has no links at all).
    coreference, non_coreference : CorefScore
        The two halves with their link counts.
    n_documents : int
        Documents scored.
    note : str or None
        Which half was dropped and why, if one was.
    """

    recall: float
    precision: float
    f1: float
    coreference: CorefScore
    non_coreference: CorefScore
    n_documents: int
    note: str | None = None

    metric = "blanc"


@dataclass(frozen=True)
class CorefScores(Coefficient):
    """All the standard scores of a response against a key, and the CoNLL average.

    Attributes
    ----------
    muc, b_cubed, ceaf_m, ceaf_e, lea : CorefScore
    blanc : BlancScore
    conll_f1 : float
        (MUC F1 + B-cubed F1 + CEAF-e F1) / 3, the CoNLL-2011/2012 ranking score.
    n_documents : int
    """

    _value_field: ClassVar[str] = "conll_f1"
    _coefficient_id: ClassVar[str] = "coref_scores"

    muc: CorefScore
    b_cubed: CorefScore
    ceaf_m: CorefScore
    ceaf_e: CorefScore
    blanc: BlancScore
    lea: CorefScore
    conll_f1: float
    n_documents: int

    def to_frame(self) -> pd.DataFrame:
        """One row per metric: recall, precision, f1 (BLANC's counts are on ``.blanc``)."""
        rows = []
        for name in ("muc", "b_cubed", "ceaf_m", "ceaf_e", "blanc", "lea"):
            s = getattr(self, name)
            rows.append({"metric": name, "recall": s.recall, "precision": s.precision, "f1": s.f1})
        rows.append({"metric": "conll", "recall": np.nan, "precision": np.nan, "f1": self.conll_f1})
        return pd.DataFrame(rows).set_index("metric")


# ---------------------------------------------------------------------------- input
def _as_documents(partition: Any, name: str) -> dict[Hashable, list[list[Hashable]]]:
    """Normalise a partition argument into {document: [cluster, ...]}."""
    if isinstance(partition, CorefAnnotations):
        if len(partition.coders) != 1:
            raise AccordError(
                f"{name}: a CorefAnnotations with {plural(len(partition.coders), 'coder')} "
                f"({list(partition.coders)}); pass {name}=data.partition(coder) for one of them"
            )
        partition = partition.partition(partition.coders[0])
    if isinstance(partition, Mapping):
        items = list(partition.items())
    elif isinstance(partition, (str, bytes)) or not isinstance(partition, Iterable):
        raise AccordError(
            f"{name} must be a CorefAnnotations, a mapping document -> clusters, or a list of clusters; "
            f"got {type(partition).__name__}"
        )
    else:
        items = [("document", partition)]
    out: dict[Hashable, list[list[Hashable]]] = {}
    for doc, clusters in items:
        if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Iterable):
            raise AccordError(
                f"{name}: document {doc!r}: clusters must be a list of clusters, got {clusters!r}"
            )
        doc_clusters = []
        for cluster in clusters:
            if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Iterable):
                raise AccordError(
                    f"{name}: document {doc!r}: a cluster must be a collection of mentions, got {cluster!r}"
                )
            doc_clusters.append([tuple(m) if isinstance(m, list) else m for m in cluster])
        out[doc] = doc_clusters
    return out


@dataclass(frozen=True)
class _Side:
    """One partition as arrays: entity sizes and documents, and each global mention's entity."""

    size: np.ndarray  # per entity
    doc: np.ndarray  # per entity
    of_mention: np.ndarray  # per global mention: entity or -1


@dataclass(frozen=True)
class _Table:
    key: _Side
    response: _Side
    k: np.ndarray  # key entity of each nonzero cell
    r: np.ndarray  # response entity of each nonzero cell
    n: np.ndarray  # |k ∩ r|
    n_docs: int


def _contingency(key: Any, response: Any, align: str = "tokens") -> _Table:
    response = placed_on(key, response, align=align)
    key_docs = _as_documents(key, "key")
    resp_docs = _as_documents(response, "response")
    extra = [d for d in resp_docs if d not in key_docs]
    if extra:
        warnings.warn(
            f"{plural(len(extra), 'response document is', 'response documents are')} ignored (not in the key), "
            f"e.g. {extra[0]!r} "
            "(the CoNLL-2012 reference scorer scores the key's documents)",
            AccordWarning,
            stacklevel=3,
        )
    doc_names = list(key_docs)
    doc_code = {d: i for i, d in enumerate(doc_names)}
    # long arrays: (side, doc, entity within side, mention)
    sides = []
    for docs in (key_docs, {d: resp_docs.get(d, []) for d in doc_names}):
        d_col: list[int] = []
        e_col: list[int] = []
        m_col: list[Any] = []
        e = 0
        for doc, clusters in docs.items():
            dc = doc_code[doc]
            for cluster in clusters:
                if not cluster:
                    continue
                d_col.extend([dc] * len(cluster))
                e_col.extend([e] * len(cluster))
                m_col.extend(cluster)
                e += 1
        sides.append((np.asarray(d_col, dtype=np.int64), np.asarray(e_col, dtype=np.int64), m_col, e))
    all_mentions = np.empty(len(sides[0][2]) + len(sides[1][2]), dtype=object)
    all_mentions[:] = sides[0][2] + sides[1][2]
    m_codes, m_uniques = pd.factorize(all_mentions, use_na_sentinel=False)
    m_codes = np.asarray(m_codes, dtype=np.int64)
    n_mid = max(len(m_uniques), 1)
    n_key = len(sides[0][2])
    global_key = np.concatenate([sides[0][0], sides[1][0]]) * n_mid + m_codes
    _, global_m = np.unique(global_key, return_inverse=True)
    global_m = global_m.reshape(-1).astype(np.int64)
    n_global = int(global_m.max()) + 1 if global_m.size else 0

    built = []
    for (d_col, e_col, _, n_ent), gm in zip(sides, (global_m[:n_key], global_m[n_key:]), strict=True):
        # keep the first occurrence of a repeated mention (reference scorer de-duplication)
        _, first = np.unique(gm, return_index=True)
        keep = np.zeros(gm.shape[0], dtype=bool)
        keep[first] = True
        gm, e_col, d_col = gm[keep], e_col[keep], d_col[keep]
        size = np.bincount(e_col, minlength=n_ent)
        ent_doc = np.zeros(n_ent, dtype=np.int64)
        ent_doc[e_col] = d_col
        # drop entities emptied by de-duplication, renumber
        alive = size > 0
        renum = np.cumsum(alive) - 1
        of_mention = np.full(n_global, -1, dtype=np.int64)
        of_mention[gm] = renum[e_col]
        built.append(_Side(size=size[alive], doc=ent_doc[alive], of_mention=of_mention))
    ks, rs = built
    both = (ks.of_mention >= 0) & (rs.of_mention >= 0)
    n_r = max(rs.size.shape[0], 1)
    cell = ks.of_mention[both] * n_r + rs.of_mention[both]
    cells, counts = np.unique(cell, return_counts=True)
    return _Table(
        key=ks,
        response=rs,
        k=cells // n_r,
        r=cells % n_r,
        n=counts.astype(np.int64),
        n_docs=len(doc_names),
    )


# ---------------------------------------------------------------------------- helpers
def _ratio(num: float, den: float) -> float:
    return float(num) / float(den) if den else 0.0


def _f1(recall: float, precision: float) -> float:
    return 2.0 * recall * precision / (recall + precision) if recall + precision else 0.0


def _score(metric: str, rn: float, rd: float, pn: float, pd_: float, n_docs: int, what: str) -> CorefScore:
    recall, precision = _ratio(rn, rd), _ratio(pn, pd_)
    notes = []
    if rd == 0:
        notes.append(f"recall denominator is 0 (no {what} in the key)")
    if pd_ == 0:
        notes.append(f"precision denominator is 0 (no {what} in the response)")
    note = None
    if notes:
        note = "; ".join(notes) + "; reported as 0, as the CoNLL-2012 reference scorer does"
        warnings.warn(f"{COREF_METRICS.get(metric, metric)}: {note}", AccordWarning, stacklevel=4)
    return CorefScore(
        metric=metric,
        recall=recall,
        precision=precision,
        f1=_f1(recall, precision),
        recall_numerator=float(rn),
        recall_denominator=float(rd),
        precision_numerator=float(pn),
        precision_denominator=float(pd_),
        n_documents=n_docs,
        note=note,
    )


def _pairs(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.int64)
    return x * (x - 1) // 2


# ---------------------------------------------------------------------------- metrics
def _muc(t: _Table) -> CorefScore:
    def side(sizes: np.ndarray, own: np.ndarray, n_ent: int) -> tuple[float, float]:
        # partition of each entity by the other side: one part per intersecting entity
        # plus one per mention the other side lacks
        parts = np.bincount(own, minlength=n_ent)
        covered = np.bincount(own, weights=t.n, minlength=n_ent)
        p = parts + (sizes - covered)
        return float(np.sum(sizes - p)), float(np.sum(sizes - 1))

    rn, rd = side(t.key.size, t.k, t.key.size.shape[0])
    pn, pd_ = side(t.response.size, t.r, t.response.size.shape[0])
    return _score("muc", rn, rd, pn, pd_, t.n_docs, "coreference links")


def _b_cubed(t: _Table) -> CorefScore:
    sq = t.n.astype(np.float64) ** 2
    rn = float(np.sum(sq / t.key.size[t.k])) if t.n.size else 0.0
    pn = float(np.sum(sq / t.response.size[t.r])) if t.n.size else 0.0
    rd, pd_ = float(t.key.size.sum()), float(t.response.size.sum())
    return _score("b_cubed", rn, rd, pn, pd_, t.n_docs, "mentions")


def _ceaf(t: _Table, similarity: Similarity) -> CorefScore:
    nk, nr = t.key.size.shape[0], t.response.size.shape[0]
    if similarity == "mention":
        sim = t.n.astype(np.float64)
        rd, pd_ = float(t.key.size.sum()), float(t.response.size.sum())
    else:
        sim = 2.0 * t.n / (t.key.size[t.k] + t.response.size[t.r])
        rd, pd_ = float(nk), float(nr)
    total = 0.0
    if t.n.size:
        graph = coo_matrix((np.ones(t.n.size), (t.k, nk + t.r)), shape=(nk + nr, nk + nr))
        _, label = connected_components(graph, directed=False)
        comp = label[t.k]
        order = np.argsort(comp, kind="stable")
        comp_s = comp[order]
        bounds = np.flatnonzero(np.diff(comp_s)) + 1
        starts = np.concatenate([[0], bounds])
        ends = np.concatenate([bounds, [comp_s.size]])
        n_k_in = np.bincount(label[:nk], minlength=label.max() + 1)
        n_r_in = np.bincount(label[nk:], minlength=label.max() + 1)
        cid = comp_s[starts]
        trivial = (n_k_in[cid] == 1) | (n_r_in[cid] == 1)
        # a component with one entity on either side: the best single edge
        if trivial.any():
            best = np.maximum.reduceat(sim[order], starts)
            total += float(best[trivial].sum())
        for i in np.flatnonzero(~trivial):
            idx = order[starts[i] : ends[i]]
            ku, kinv = np.unique(t.k[idx], return_inverse=True)
            ru, rinv = np.unique(t.r[idx], return_inverse=True)
            mat = np.zeros((ku.size, ru.size))
            mat[kinv, rinv] = sim[idx]
            rows, cols = optimize.linear_sum_assignment(mat, maximize=True)
            total += float(mat[rows, cols].sum())
    metric = "ceaf_m" if similarity == "mention" else "ceaf_e"
    what = "mentions" if similarity == "mention" else "entities"
    return _score(metric, total, rd, total, pd_, t.n_docs, what)


def _blanc(t: _Table) -> BlancScore:
    n_docs = t.n_docs
    ck = float(_pairs(t.key.size).sum())
    cr = float(_pairs(t.response.size).sum())
    key_m = np.bincount(t.key.doc, weights=t.key.size, minlength=n_docs)
    resp_m = np.bincount(t.response.doc, weights=t.response.size, minlength=n_docs)
    nk = float(_pairs(key_m).sum()) - ck
    nr = float(_pairs(resp_m).sum()) - cr
    common_c = float(_pairs(t.n).sum())
    a = np.bincount(t.k, weights=t.n, minlength=t.key.size.shape[0])  # |k ∩ M|
    b = np.bincount(t.r, weights=t.n, minlength=t.response.size.shape[0])  # |r ∩ M|
    common_m = np.bincount(t.key.doc[t.k], weights=t.n, minlength=n_docs)  # |M| per document
    common_n = float(_pairs(common_m).sum() - _pairs(a).sum() - _pairs(b).sum()) + common_c
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        coref = _score("blanc_coreference", common_c, ck, common_c, cr, n_docs, "coreference links")
        non = _score("blanc_non_coreference", common_n, nk, common_n, nr, n_docs, "non-coreference links")
    note = None
    if ck == 0 and nk == 0:
        recall = precision = f1 = 0.0
        note = "the key has no links of either kind; BLANC reported as 0, as the reference scorer does"
    elif ck == 0:
        recall, precision, f1 = non.recall, non.precision, non.f1
        note = "the key has no coreference links; BLANC is the non-coreference score alone"
    elif nk == 0:
        recall, precision, f1 = coref.recall, coref.precision, coref.f1
        note = "the key has no non-coreference links; BLANC is the coreference score alone"
    else:
        recall = (coref.recall + non.recall) / 2
        precision = (coref.precision + non.precision) / 2
        f1 = (coref.f1 + non.f1) / 2
    return BlancScore(
        recall=recall,
        precision=precision,
        f1=f1,
        coreference=coref,
        non_coreference=non,
        n_documents=n_docs,
        note=note,
    )


def _lea(t: _Table) -> CorefScore:
    def side(sizes: np.ndarray, own: np.ndarray, other_sizes: np.ndarray, other: np.ndarray) -> float:
        n_ent = sizes.shape[0]
        links = _pairs(sizes).astype(np.float64)
        common = np.bincount(own, weights=_pairs(t.n), minlength=n_ent)
        # a singleton entity has one self-link, resolved iff its mention is a singleton on the other side
        single_hit = np.zeros(n_ent)
        hit = (sizes[own] == 1) & (other_sizes[other] == 1)
        single_hit[own[hit]] = 1.0
        resolution = np.where(sizes == 1, single_hit, common / np.where(links > 0, links, 1.0))
        return float(np.sum(sizes * resolution))

    rn = side(t.key.size, t.k, t.response.size, t.r)
    pn = side(t.response.size, t.r, t.key.size, t.k)
    return _score("lea", rn, float(t.key.size.sum()), pn, float(t.response.size.sum()), t.n_docs, "mentions")


# ---------------------------------------------------------------------------- public API
_PARTITION_DOC = """key, response : CorefAnnotations, mapping or list of clusters
        The key (gold) and the response (system) partitions: a single-coder
        :class:`~accord.coref.CorefAnnotations` (or ``data.partition(coder)``), a
        mapping ``{document: [cluster, ...]}``, or a list of clusters for one
        document.  A cluster is a collection of hashable mention ids.
    align : {{"tokens", "words"}}
        When both are :class:`~accord.coref.CorefAnnotations` read from files with tokens
        (CoNLL, CorefUD, jsonlines with sentences), each document's tokens are compared:
        ``"tokens"`` (default) refuses files whose tokens differ, naming the document,
        sentence and token; ``"words"`` moves the response's mentions onto the key's
        tokens by aligning the words, and says the differences in an
        :class:`~accord.AccordWarning` (:func:`~accord.coref.read_coref`)."""


def muc(key: Any, response: Any, *, align: Align = "tokens") -> CorefScore:
    """MUC link-based score (Vilain et al. 1995).

    Parameters
    ----------
    {partition}

    Returns
    -------
    CorefScore

    Notes
    -----
    For a key entity k, p(k) is the partition of k by the response entities, each
    key mention the response lacks forming a part of its own.  Recall is
    Σ_k (|k| - |p(k)|) / Σ_k (|k| - 1); precision swaps key and response.  Passonneau
    (2004, section 4): {{C, H, J, K}} partitioned by {{{{C, H}}, {{J, K}}}} has
    recall (4 - 2) / (4 - 1).

    References
    ----------
    Vilain, M., Burger, J., Aberdeen, J., Connolly, D., & Hirschman, L. (1995). A
    model-theoretic coreference scoring scheme. *MUC-6*. DOI 10.3115/1072399.1072405

    Examples
    --------
    >>> s = muc([["C", "H", "J", "K"]], [["C", "H"], ["J", "K"]])
    >>> s.recall_numerator, s.recall_denominator
    (2.0, 3.0)
    """
    return _muc(_contingency(key, response, align))


def b_cubed(key: Any, response: Any, *, align: Align = "tokens") -> CorefScore:
    """B-cubed mention-based score (Bagga & Baldwin 1998).

    Parameters
    ----------
    {partition}

    Returns
    -------
    CorefScore

    Notes
    -----
    Recall = Σ_k Σ_r |k ∩ r|² / |k| over Σ_k |k|; precision = Σ_r Σ_k |k ∩ r|² / |r|
    over Σ_r |r| (mentions one side lacks contribute 0 to that side's numerator).

    References
    ----------
    Bagga, A., & Baldwin, B. (1998). Algorithms for scoring coreference chains.
    *LREC 1998 Workshop on Linguistic Coreference*.

    Examples
    --------
    >>> s = b_cubed([["a"], ["b", "c"], ["d", "e", "f"]], [["a"], ["d", "e"]])
    >>> round(s.recall * 18), s.precision
    (7, 1.0)
    """
    return _b_cubed(_contingency(key, response, align))


def ceaf(key: Any, response: Any, *, similarity: Similarity = "entity", align: Align = "tokens") -> CorefScore:
    """CEAF: the best one-to-one alignment of key and response entities (Luo 2005).

    Parameters
    ----------
    {partition}
    similarity : {{"entity", "mention"}}
        ``"entity"`` (CEAF-e, phi4(k, r) = 2 |k ∩ r| / (|k| + |r|), the one in the
        CoNLL average) or ``"mention"`` (CEAF-m, phi3(k, r) = |k ∩ r|).

    Returns
    -------
    CorefScore

    Notes
    -----
    Φ(g*) = max over one-to-one maps g of Σ_k phi(k, g(k)); recall = Φ(g*) / Σ_k phi(k, k),
    precision = Φ(g*) / Σ_r phi(r, r), i.e. over the number of entities (phi4) or of
    mentions (phi3).  The maximum is found with
    :func:`scipy.optimize.linear_sum_assignment` per connected component.

    References
    ----------
    Luo, X. (2005). On coreference resolution performance metrics. *HLT/EMNLP 2005*.
    DOI 10.3115/1220575.1220579

    Examples
    --------
    >>> s = ceaf([["a"], ["b", "c"], ["d", "e", "f"]], [["a"], ["d", "e"]])
    >>> s.recall_numerator, s.recall_denominator, s.precision_denominator
    (1.8, 3.0, 2.0)
    """
    if similarity not in ("entity", "mention"):
        raise AccordError(f"similarity must be 'entity' or 'mention', got {similarity!r}")
    return _ceaf(_contingency(key, response, align), similarity)


def blanc(key: Any, response: Any, *, align: Align = "tokens") -> BlancScore:
    """BLANC, the link-based Rand index, for system mentions (Luo et al. 2014).

    Parameters
    ----------
    {partition}

    Returns
    -------
    BlancScore

    Notes
    -----
    C_k, C_r are the coreference links (mention pairs in one entity) of key and
    response, N_k, N_r the non-coreference links (pairs of the side's mentions in
    different entities, within a document).  R_c = |C_k ∩ C_r| / |C_k|,
    P_c = |C_k ∩ C_r| / |C_r|, likewise R_n, P_n; BLANC = (F_c + F_n) / 2, recall
    (R_c + R_n) / 2, precision (P_c + P_n) / 2.  When the key has no coreference
    links only the non-coreference half counts, and vice versa (the reference
    scorer's rule).  With M the mentions both sides hold,
    |N_k ∩ N_r| = C(|M|, 2) - Σ_k C(|k ∩ M|, 2) - Σ_r C(|r ∩ M|, 2) + |C_k ∩ C_r|.

    References
    ----------
    Recasens, M., & Hovy, E. (2011). BLANC: Implementing the Rand index for
    coreference evaluation. *Natural Language Engineering* 17(4).
    DOI 10.1017/S135132491000029X.
    Luo, X., Pradhan, S., Recasens, M., & Hovy, E. (2014). An extension of BLANC to
    system mentions. *ACL 2014*. DOI 10.3115/v1/P14-2005

    Examples
    --------
    >>> s = blanc([["a", "b"], ["c", "d", "e"]], [["b", "c", "x"], ["d", "e"]])
    >>> s.f1 == (1 / 4 + 1 / 3) / 2
    True
    """
    return _blanc(_contingency(key, response, align))


def lea(key: Any, response: Any, *, align: Align = "tokens") -> CorefScore:
    """LEA, the link-based entity-aware score (Moosavi & Strube 2016).

    Parameters
    ----------
    {partition}

    Returns
    -------
    CorefScore

    Notes
    -----
    Recall = Σ_k |k| · Σ_r link(k ∩ r) / link(k) over Σ_k |k|, with
    link(n) = n (n - 1) / 2; precision swaps the sides.  A singleton entity has one
    self-link, resolved iff its mention is a singleton entity on the other side.

    References
    ----------
    Moosavi, N. S., & Strube, M. (2016). Which coreference evaluation metric do you
    trust? A proposal for a link-based entity aware metric. *ACL 2016*.
    DOI 10.18653/v1/P16-1060

    Examples
    --------
    >>> s = lea([["a"], ["b", "c"], ["d", "e", "f"]], [["a"], ["d", "e"]])
    >>> s.recall_numerator, s.precision_numerator
    (2.0, 3.0)
    """
    return _lea(_contingency(key, response, align))


def coref_scores(key: Any, response: Any, *, align: Align = "tokens") -> CorefScores:
    """MUC, B-cubed, CEAF-m, CEAF-e, BLANC and LEA, and the CoNLL average.

    Parameters
    ----------
    {partition}

    Returns
    -------
    CorefScores
        The six scores and ``conll_f1`` = (MUC F1 + B-cubed F1 + CEAF-e F1) / 3.

    Notes
    -----
    The conventions are those of the CoNLL-2012 reference scorer v8.01 (Pradhan et
    al. 2014): counts summed over the key's documents, repeated mentions kept once,
    no mention manipulation, 0 for a zero denominator.

    References
    ----------
    Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V., & Strube, M. (2014).
    Scoring coreference partitions of predicted mentions: a reference
    implementation. *ACL 2014*. DOI 10.3115/v1/P14-2006

    Examples
    --------
    >>> s = coref_scores({{"d": [["a", "b"], ["c"]]}}, {{"d": [["a", "b"], ["c"]]}})
    >>> s.conll_f1
    1.0
    """
    t = _contingency(key, response, align)
    m, b, ce = _muc(t), _b_cubed(t), _ceaf(t, "entity")
    return CorefScores(
        muc=m,
        b_cubed=b,
        ceaf_m=_ceaf(t, "mention"),
        ceaf_e=ce,
        blanc=_blanc(t),
        lea=_lea(t),
        conll_f1=(m.f1 + b.f1 + ce.f1) / 3,
        n_documents=t.n_docs,
    )


for _f in (muc, b_cubed, ceaf, blanc, lea, coref_scores):
    _f.__doc__ = _f.__doc__.format(partition=_PARTITION_DOC)  # type: ignore[union-attr]
del _f
