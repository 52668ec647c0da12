r"""Krippendorff's alpha for coreference chains (Passonneau 2004).

Every mention is a coding unit; the value a coder gives it is the coder's
equivalence class containing it.  The coding values are the union of every
coder's classes (seed 003, Figure 2 and Table 2).  Two conventions, both in
the paper, and its numbers depend on which:

``"classes"``
    the value is the class itself.  Nominal alpha on Table 2 is .45
    (exactly 49/109).
``"classes-less-unit"``
    the value is the class less the mention being coded ("I first remove the
    current token", section 3.3).  With the set-relation distance Table 2
    gives .74 (875/1179 with exact thirds); nominal gives 11/21, because all
    singleton classes become the empty set and match across mentions.

How it is computed (no frozenset per value, no V x V matrix):

- ``"classes"``: values are canonical class codes; nominal uses the engine's
  categorical path, set distances a domain built from the class x mention
  incidence matrix.
- ``"classes-less-unit"``: the observed pairs within a mention u are pairs of
  classes C, D that both contain u, so the values have sizes |C| - 1, |D| - 1
  and intersection |C & D| - 1.  For the expected disagreement, every pair of
  class instances (C of one coder, D of another or the same) contributes,
  with k = |C & D| and P_C, P_D their pairable members, intersections of only
  four sizes: k for u not in D and v not in C; k - 1 for exactly one of them
  in the other class, or u = v; k - 2 for u != v both in C & D.  Disjoint pairs
  of instances contribute |P_C||P_D| delta(|C| - 1, |D| - 1, 0) in bulk, summed
  by class size.  The pair of a value instance with itself (same coder, same
  mention) is left out.  Cost: the intersecting instance pairs, at most m^2
  per mention for m coders, whatever the chain sizes.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import scipy.sparse as sp

from accord._shared.errors import AccordError, warn_undefined
from accord.coefficients._alpha import AlphaResult, bootstrap_groups, interval_over_defined
from accord.coefficients._pairs import count_values, unit_disagreement_sums
from accord.coref._model import CorefAnnotations, CorefClasses
from accord.data._annotations import Annotations
from accord.distances import (
    Distance,
    Nominal,
    PreparedDistance,
    SetDistance,
    SetIdentity,
    get_distance,
)

__all__ = ["CorefAlphaResult", "Convention", "coref_alpha", "default_convention"]

Convention = Literal["classes", "classes-less-unit"]
_CONVENTIONS = ("classes", "classes-less-unit")


@dataclass(frozen=True)
class CorefAlphaResult(AlphaResult):
    """Alpha over coreference chains; the fields of :class:`~accord.AlphaResult` plus:

    Attributes
    ----------
    convention : str
        ``"classes"`` or ``"classes-less-unit"``.
    n_classes : int
        Distinct classes over all coders (the coding values of seed 003's Table 2).
    """

    _coefficient_id: ClassVar[str] = "coref_alpha"

    convention: str = "classes"
    n_classes: int = 0
    n_documents: int = 0
    _doc_observed: np.ndarray | None = field(default=None, repr=False, compare=False)
    _doc_n: np.ndarray | None = field(default=None, repr=False, compare=False)
    _doc_parts: _DocumentParts | None = field(default=None, repr=False, compare=False)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap confidence interval for coreference alpha, resampling documents.

        Mentions cannot be resampled one by one (a mention's value is its whole
        class), so the unit of resampling is the document: documents are drawn
        with replacement (a document drawn twice counts as two documents), and
        observed and expected disagreement are recomputed exactly from
        per-document sums (:class:`_DocumentParts`), with
        :func:`scipy.stats.bootstrap`.  Needs at least two documents; resamples
        where alpha is undefined (one document drawn every time, with no
        expected disagreement) are left out of percentile and basic intervals.

        Returns
        -------
        (low, high) : tuple of float
        """
        res = self._bootstrap(confidence_level, n_resamples, method, rng)
        return interval_over_defined(
            res, self.alpha, confidence_level=confidence_level, method=method, what="coreference alpha"
        )

    def _bootstrap(self, confidence_level: float, n_resamples: int, method: str, rng: Any,
                   progress: Any = None) -> Any:
        """The document bootstrap behind :meth:`confidence_interval` (and ``bootstrap_distribution``)."""
        if self._doc_parts is None or self._doc_observed is None or self._doc_n is None:
            raise AccordError("this result carries no data to resample")
        if math.isnan(self.alpha):
            raise AccordError(f"alpha is undefined ({self.undefined_reason}); no confidence interval")
        n_docs = len(self._doc_n)
        if n_docs < 2:
            raise AccordError(
                "a confidence interval for coreference alpha resamples documents and needs at least two; "
                f"the data have {n_docs}"
            )
        parts, obs, dn = self._doc_parts, self._doc_observed, self._doc_n

        def statistic(idx: np.ndarray) -> float:
            c = np.bincount(idx.astype(np.int64), minlength=n_docs).astype(float)
            n = float(c @ dn)
            if n < 2:
                return np.nan
            d_e = parts.total(c) / (n * (n - 1.0))
            return 1.0 - (float(c @ obs) / n) / d_e if d_e > 0 else np.nan

        return bootstrap_groups(
            n_docs, statistic, confidence_level=confidence_level, n_resamples=n_resamples, method=method, rng=rng
        )


_CLASSES: weakref.WeakKeyDictionary[CorefAnnotations, CorefClasses] = weakref.WeakKeyDictionary()


def _canonical_classes(data: CorefAnnotations) -> CorefClasses:
    """``data.canonical_classes()``, computed once per (immutable) data object."""
    try:
        return _CLASSES[data]
    except (KeyError, TypeError):
        cc = data.canonical_classes()
        try:
            _CLASSES[data] = cc
        except TypeError:  # not weak-referenceable: no cache
            pass
        return cc


def default_convention(distance: str | Distance) -> Convention:
    """The paper's convention for a distance: the class itself for nominal, less the unit otherwise."""
    d = get_distance(distance)
    return "classes" if isinstance(d, (Nominal, SetIdentity)) else "classes-less-unit"


def _class_annotations(data: CorefAnnotations, cc: CorefClasses) -> Annotations:
    """Reliability data with mentions as units and canonical class codes as values."""
    coder_idx, mention_idx = np.nonzero(cc.codes >= 0)
    order = np.lexsort((coder_idx, mention_idx))
    coder_idx, mention_idx = coder_idx[order], mention_idx[order]
    values = cc.codes[coder_idx, mention_idx]
    coders = np.empty(len(data.coders), dtype=object)
    coders[:] = list(data.coders)
    return Annotations(
        unit_index=mention_idx.astype(np.int64),
        coder_index=coder_idx.astype(np.int64),
        value_index=values.astype(np.int64),
        units=np.arange(data.n_mentions),
        coders=coders,
        values=np.arange(cc.n_classes),
    )


def _incidence(cc: CorefClasses, n_mentions: int) -> sp.csr_matrix:
    return sp.csr_matrix(
        (np.ones(len(cc.members)), cc.members, cc.indptr), shape=(cc.n_classes, max(n_mentions, 1))
    )


class _PreparedLessUnit(PreparedDistance):
    """delta between C - {u} and D - {u} for classes C, D that both contain the unit u."""

    def __init__(self, dist: SetDistance, cc: CorefClasses, incidence: sp.csr_matrix) -> None:
        self.dist = dist
        self.values = np.arange(cc.n_classes)
        self.counts = np.zeros(cc.n_classes)
        self.sizes = cc.sizes.astype(float)
        self.incidence = incidence

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        if len(i) == 0:
            return np.zeros(0)
        k = np.asarray(self.incidence[i].multiply(self.incidence[j]).sum(axis=1)).ravel()
        out = self.dist.from_sizes(self.sizes[i] - 1, self.sizes[j] - 1, k - 1)
        return np.where(i == j, 0.0, out)


@dataclass(frozen=True)
class _DocumentParts:
    """The expected-disagreement sum, decomposed by document.

    Classes never cross documents, so every pair of class instances from two
    documents is disjoint: those pairs are summed in bulk from the weight of
    each class size (``w``, documents x sizes, and ``f0``, delta at
    intersection 0 between sizes); the intersecting pairs, all within one
    document, add ``corr`` to their document.  The sum for any multiset of
    documents with multiplicities c is (c w) f0 (c w)^T + c . corr, which is
    what the document bootstrap needs.
    """

    w: sp.csr_matrix
    f0: np.ndarray
    corr: np.ndarray

    def total(self, c: np.ndarray | None = None) -> float:
        if c is None:
            c = np.ones(self.w.shape[0])
        ws = np.asarray(self.w.T @ c).ravel()
        return float(ws @ self.f0 @ ws + c @ self.corr)


def _expected_parts(
    dist: SetDistance,
    cc: CorefClasses,
    pairable: np.ndarray,
    mention_doc: np.ndarray,
    n_documents: int,
    *,
    less_unit: bool,
) -> tuple[_DocumentParts, float]:
    """Sum over ordered pairs of distinct value instances of delta, by document; and n.

    Instances of classes are (coder, class) pairs; only pairable mentions count.
    With ``less_unit`` the value of mention u in class C is C - {u} (four
    intersection sizes per intersecting instance pair, see the module
    docstring); otherwise it is C itself.
    """
    n_mentions = len(mention_doc)
    coder_idx, mention_idx = np.nonzero(cc.codes >= 0)
    keep = pairable[mention_idx]
    coder_idx, mention_idx = coder_idx[keep], mention_idx[keep]
    cls = cc.codes[coder_idx, mention_idx]
    # one instance per (coder, class); its pairable members are the mentions above
    n_classes = cc.n_classes
    inst_key = coder_idx.astype(np.int64) * n_classes + cls
    inst_codes, inst = np.unique(inst_key, return_inverse=True)
    inst = inst.reshape(-1)
    inst_class = inst_codes % n_classes
    n_inst = len(inst_codes)
    inst_doc = np.zeros(n_inst, dtype=np.int64)
    inst_doc[inst] = mention_doc[mention_idx]
    size = cc.sizes[inst_class].astype(float)  # |C|, full class
    value_size = size - 1 if less_unit else size
    # P: instance x mention, pairable members; X: instance x mention, all members of the class
    p_mat = sp.csr_matrix((np.ones(len(inst)), (inst, mention_idx)), shape=(n_inst, max(n_mentions, 1)))
    full = _incidence(cc, n_mentions)[inst_class]
    pc = np.asarray(p_mat.sum(axis=1)).ravel()  # |P_C|
    n = float(pc.sum())
    # bulk: every ordered pair of instances as if disjoint, weights by (document, size)
    sizes_u, size_inv = np.unique(value_size, return_inverse=True)
    size_inv = size_inv.reshape(-1)
    w = sp.csr_matrix((pc, (inst_doc, size_inv)), shape=(n_documents, len(sizes_u)))
    sa, sb = np.meshgrid(sizes_u, sizes_u, indexing="ij")
    f0 = dist.from_sizes(sa.ravel(), sb.ravel(), np.zeros(sa.size)).reshape(sa.shape)
    # intersecting pairs of instances (same document): replace their bulk term by the exact one
    k_mat = (full @ full.T).tocoo()
    r, c, k = k_mat.row, k_mat.col, k_mat.data
    s_r, s_c = value_size[r], value_size[c]
    p_r, p_c = pc[r], pc[c]
    corr = -(p_r * p_c * dist.from_sizes(s_r, s_c, np.zeros(len(r))))
    if less_unit:
        ku = np.asarray((p_mat @ full.T)[r, c]).ravel()  # |P_C & D|
        kv = np.asarray((full @ p_mat.T)[r, c]).ravel()  # |C & P_D|
        kuv = np.asarray((p_mat @ p_mat.T)[r, c]).ravel()  # |P_C & P_D|
        same = r == c
        n_k = (p_r - ku) * (p_c - kv)
        n_k1 = ku * (p_c - kv) + (p_r - ku) * kv + np.where(same, 0.0, kuv)
        n_k2 = ku * kv - kuv
        corr = corr + n_k * dist.from_sizes(s_r, s_c, k)
        corr = corr + n_k1 * dist.from_sizes(s_r, s_c, np.maximum(k - 1, 0))
        corr = corr + n_k2 * dist.from_sizes(s_r, s_c, np.maximum(k - 2, 0))
    else:
        corr = corr + p_r * p_c * dist.from_sizes(s_r, s_c, k)
    corr_doc = np.bincount(inst_doc[r], weights=corr, minlength=n_documents)
    return _DocumentParts(w=w, f0=f0, corr=corr_doc), n


def coref_alpha(
    data: CorefAnnotations,
    *,
    distance: str | Distance = "nominal",
    convention: Convention | None = None,
) -> CorefAlphaResult:
    """Krippendorff's alpha of coreference chains, mentions as units (Passonneau 2004).

    Parameters
    ----------
    data : CorefAnnotations
        Two or more coders' chains over the same mentions.
    distance : str or Distance
        ``"nominal"`` or a set distance (``"set-relation"``, ``"masi-2006"``,
        ``"masi-2010"``, ``"jaccard"``, ``"dice"`` or a
        :class:`~accord.distances.SetDistance`).
    convention : {"classes", "classes-less-unit"}, optional
        The value of a mention: its class, or its class less the mention.
        Default: the paper's for the distance (the class for nominal, less the
        unit for set distances).

    Returns
    -------
    CorefAlphaResult

    References
    ----------
    Passonneau, R. J. (2004). Computing Reliability for Coreference Annotation.
    LREC 2004, sections 2-3.

    Examples
    --------
    Seed 003, Table 2: .45 nominal on the classes, .74 with the set-relation
    distance on the classes less the unit.

    >>> from accord.coref import example_passonneau2004
    >>> data = example_passonneau2004()
    >>> round(coref_alpha(data).alpha, 4), round(coref_alpha(data, distance="set-relation").alpha, 4)
    (0.4495, 0.7422)
    """
    if not isinstance(data, CorefAnnotations):
        raise AccordError(f"data must be accord.coref.CorefAnnotations; got {type(data).__name__}")
    dist = get_distance(distance)
    conv = default_convention(dist) if convention is None else convention
    if conv not in _CONVENTIONS:
        raise AccordError(f"convention must be one of {', '.join(_CONVENTIONS)}; got {convention!r}")
    if isinstance(dist, Nominal):
        set_dist: SetDistance | None = SetIdentity()
    elif isinstance(dist, SetDistance):
        set_dist = dist
    else:
        raise AccordError(
            f"coreference alpha needs 'nominal' or a set distance (set-relation, masi-2006, masi-2010, "
            f"jaccard, dice); got {dist.name!r}"
        )
    if len(data.coders) < 2:
        raise AccordError(f"coreference alpha needs at least two coders; found {list(data.coders)}")
    cc = _canonical_classes(data)
    ann = _class_annotations(data, cc)
    uc = count_values(ann)
    if uc.n_pairable_units == 0:
        raise AccordError("no mention has values from two or more coders: nothing to compare")
    incidence = _incidence(cc, data.n_mentions)
    marg = uc.marginals()
    less_unit = conv == "classes-less-unit"
    if less_unit:
        prepared: PreparedDistance = _PreparedLessUnit(set_dist, cc, incidence)
    elif isinstance(dist, Nominal):
        prepared = dist.prepare(ann.values, marg)
    else:
        prepared = set_dist.prepare_incidence(incidence, marg)
    pairable = np.zeros(data.n_mentions, dtype=bool)
    pairable[uc.unit_ids] = True
    mention_doc = np.repeat(np.arange(len(data.documents)), np.diff(data._doc_offsets))
    parts, n = _expected_parts(set_dist, cc, pairable, mention_doc, len(data.documents), less_unit=less_unit)
    unit_obs = unit_disagreement_sums(uc, prepared) / (uc.m - 1.0)
    doc_obs = np.bincount(mention_doc[uc.unit_ids], weights=unit_obs, minlength=len(data.documents))
    doc_n = np.bincount(mention_doc[uc.unit_ids], weights=uc.m, minlength=len(data.documents))
    d_o = float(doc_obs.sum()) / n
    d_e = parts.total() / (n * (n - 1.0))
    reason = None
    if d_e <= 0:
        reason = "no expected disagreement: every mention has the same value"
        warn_undefined("alpha", reason)
        value = math.nan
    else:
        value = 1.0 - d_o / d_e
    return CorefAlphaResult(
        alpha=value,
        observed_disagreement=d_o,
        expected_disagreement=d_e,
        distance=dist.name,
        n_units=data.n_mentions,
        n_pairable_units=uc.n_pairable_units,
        n_coders=len(data.coders),
        n_pairable=int(n),
        n_unpairable_values=uc.n_unpairable_values,
        n_distinct_values=int(np.count_nonzero(marg)),
        undefined_reason=reason,
        convention=conv,
        n_classes=cc.n_classes,
        n_documents=len(data.documents),
        _doc_observed=doc_obs,
        _doc_n=doc_n,
        _doc_parts=parts,
    )

