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
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp

from accord.alpha import AlphaResult
from accord.coref.model import CorefAnnotations, CorefClasses
from accord.data import Annotations
from accord.distances import (
    Distance,
    Nominal,
    PreparedDistance,
    SetDistance,
    SetIdentity,
    get_distance,
)
from accord.engine import count_values, unit_disagreement_sums
from accord.errors import AccordError, warn_undefined

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

    convention: str = "classes"
    n_classes: int = 0

    def confidence_interval(self, confidence_level: float = 0.95, **_: object) -> tuple[float, float]:
        """Not offered for coreference alpha.

        Resampling mentions would split chains (a mention's value is its whole
        class), so the unit bootstrap of :class:`~accord.AlphaResult` does not
        apply; resampling whole documents would, and is not implemented yet.
        """
        raise AccordError(
            "no confidence interval for coreference alpha: resampling mentions would break the chains "
            "that are the values; resampling documents is not implemented"
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


def _expected_sum_less_unit(
    dist: SetDistance, cc: CorefClasses, pairable: np.ndarray, n_mentions: int
) -> tuple[float, float]:
    """Sum over ordered pairs of distinct value instances of delta; and n.

    Instances of classes are (coder, class) pairs; only pairable mentions count.
    """
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
    size = cc.sizes[inst_class].astype(float)  # |C|, full class
    # P: instance x mention, pairable members; X: instance x mention, all members of the class
    p_mat = sp.csr_matrix((np.ones(len(inst)), (inst, mention_idx)), shape=(n_inst, max(n_mentions, 1)))
    full = _incidence(cc, n_mentions)[inst_class]
    pc = np.asarray(p_mat.sum(axis=1)).ravel()  # |P_C|
    n = float(pc.sum())
    # bulk: every ordered pair of instances as if disjoint, grouped by class size
    sizes_u, size_inv = np.unique(size, return_inverse=True)
    w = np.bincount(size_inv.reshape(-1), weights=pc, minlength=len(sizes_u))
    sa, sb = np.meshgrid(sizes_u - 1, sizes_u - 1, indexing="ij")
    f0 = dist.from_sizes(sa.ravel(), sb.ravel(), np.zeros(sa.size)).reshape(sa.shape)
    total = float(w @ f0 @ w)
    # intersecting pairs of instances: replace their bulk term by the exact one
    k_mat = (full @ full.T).tocoo()
    r, c, k = k_mat.row, k_mat.col, k_mat.data
    ku = np.asarray((p_mat @ full.T)[r, c]).ravel()  # |P_C & D|
    kv = np.asarray((full @ p_mat.T)[r, c]).ravel()  # |C & P_D|
    kuv = np.asarray((p_mat @ p_mat.T)[r, c]).ravel()  # |P_C & P_D|
    s_r, s_c = size[r] - 1, size[c] - 1
    p_r, p_c = pc[r], pc[c]
    same = r == c
    total -= float(p_r @ (p_c * dist.from_sizes(s_r, s_c, np.zeros(len(r)))))
    n_k = (p_r - ku) * (p_c - kv)
    n_k1 = ku * (p_c - kv) + (p_r - ku) * kv + np.where(same, 0.0, kuv)
    n_k2 = ku * kv - kuv
    total += float(n_k @ dist.from_sizes(s_r, s_c, k))
    total += float(n_k1 @ dist.from_sizes(s_r, s_c, np.maximum(k - 1, 0)))
    total += float(n_k2 @ dist.from_sizes(s_r, s_c, np.maximum(k - 2, 0)))
    return total, n


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
    if conv == "classes":
        prepared: PreparedDistance = (
            dist.prepare(ann.values, marg)
            if isinstance(dist, Nominal)
            else set_dist.prepare_incidence(incidence, marg)
        )
        d_e_sum = prepared.cross_sum(marg, marg)
        n = uc.n
    else:
        prepared = _PreparedLessUnit(set_dist, cc, incidence)
        pairable = np.zeros(data.n_mentions, dtype=bool)
        pairable[uc.unit_ids] = True
        d_e_sum, n = _expected_sum_less_unit(set_dist, cc, pairable, data.n_mentions)
    d_o = float(unit_disagreement_sums(uc, prepared) @ (1.0 / (uc.m - 1.0))) / n
    d_e = d_e_sum / (n * (n - 1.0))
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
    )

