"""Set distances: Jaccard, Dice, both MASI forms, the set-relation scale, set identity.

A :class:`SetDistance` depends only on |b|, |c| and |b & c|.  Its prepared
form keeps the distinct set values as a sparse value x element incidence
matrix and computes the expected sum by subset sums (small sets), blockwise
(small domains) or over intersecting pairs only (large domains).
:func:`set_relation` names the relation of two sets and
:func:`multiset_value` encodes a multiset as a set.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from typing import Literal

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.lazy import sparse as sp
from accord.distances._base import DENSE_LIMIT, Distance, PreparedDistance

#: Set values this small (and few enough subsets in all) take the subset-sum path of the expected sum.
SUBSET_MAX_SIZE = 8
SUBSET_BUDGET = 5e7


def _relation(sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
    """0 identical, 1 subset (incl. the empty set against a non-empty one), 2 overlap, 3 disjoint."""
    mn = np.minimum(sa, sb)
    ident = (sa == sb) & (k == sa)
    subset = ~ident & (k == mn)
    overlap = (k > 0) & (k < mn)
    rel = np.full(np.shape(k), 3, dtype=np.int8)
    rel[overlap] = 2
    rel[subset] = 1
    rel[ident] = 0
    return rel


def _jaccard(sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
    union = sa + sb - k
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union == 0, 1.0, k / np.where(union == 0, 1, union))


class _SetDomain:
    """Distinct set values as a sparse value x element incidence matrix."""

    @classmethod
    def from_incidence(cls, incidence: sp.csr_matrix) -> _SetDomain:
        """A domain whose value v has the elements of row v of a 0/1 incidence matrix."""
        self = cls.__new__(cls)
        self.incidence = sp.csr_matrix(incidence, dtype=float)
        self.sizes = np.asarray(self.incidence.sum(axis=1)).ravel()
        self.n_elements = self.incidence.shape[1]
        return self

    def __init__(self, values: np.ndarray) -> None:
        lengths = np.fromiter((len(v) for v in values.tolist()), dtype=np.int64, count=len(values))
        flat = [e for v in values.tolist() for e in v]
        if flat:
            from pandas import factorize

            elem_codes, elements = factorize(np.array(flat + [None], dtype=object)[:-1])
        else:
            elem_codes, elements = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object)
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        self.sizes = lengths.astype(float)
        self.n_elements = len(elements)
        self.incidence = sp.csr_matrix(
            (np.ones(len(flat)), elem_codes.astype(np.int64), indptr),
            shape=(len(values), max(self.n_elements, 1)),
        )

    def intersections(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        if len(i) == 0:
            return np.zeros(0)
        x = self.incidence
        return np.asarray(x[i].multiply(x[j]).sum(axis=1)).ravel()


class _PreparedSet(PreparedDistance):
    def __init__(
        self, dist: SetDistance, values: np.ndarray, counts: np.ndarray, domain: _SetDomain | None = None
    ) -> None:
        self.dist, self.values, self.counts = dist, values, counts
        self.domain = _SetDomain(values) if domain is None else domain

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        s = self.domain.sizes
        k = self.domain.intersections(i, j)
        out = self.dist.from_sizes(s[i], s[j], k)
        return np.where(i == j, 0.0, out)

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        sizes = self.domain.sizes[(a != 0) | (b != 0)]
        if len(sizes) and sizes.max() <= SUBSET_MAX_SIZE and float(np.sum(2.0**sizes)) <= SUBSET_BUDGET:
            return self._subset_cross_sum(a, b)
        if len(self.values) <= DENSE_LIMIT:
            return super().cross_sum(a, b)
        return self._sparse_cross_sum(a, b)

    def _subset_cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        """Sum over value pairs of a_v b_w delta through subset sums, for small sets.

        For every j, S_j[s, t] = sum over pairs with |v| = s, |w| = t of
        a_v b_w C(|v & w|, j) is the sum over j-subsets T of (weight of the
        size-s values containing T) x (weight of the size-t values containing
        T).  Binomial inversion gives the weight H[s, t, k] of pairs with
        intersection k: H[s, t, k] = sum_{j >= k} (-1)^(j-k) C(j, k) S_j[s, t],
        and the answer is sum H[s, t, k] delta(s, t, k).  The pairs v = w add
        delta = 0.  Cost: O(sum_v 2^|v|), whatever the number of values.
        """
        from itertools import combinations
        from math import comb

        x = self.domain.incidence.tocsr()
        sizes = self.domain.sizes.astype(np.int64)
        keep = (a != 0) | (b != 0)
        smax = int(sizes[keep].max())
        size_ids = np.arange(smax + 1)
        s_mat = np.zeros((smax + 1, smax + 1, smax + 1))  # [j, s, t]
        # j = 0: every pair
        wa = np.bincount(sizes[keep], weights=a[keep], minlength=smax + 1)
        wb = np.bincount(sizes[keep], weights=b[keep], minlength=smax + 1)
        s_mat[0] = np.outer(wa, wb)
        for j in range(1, smax + 1):
            keys_all, size_all, wa_all, wb_all = [], [], [], []
            for s_ in range(j, smax + 1):
                rows = np.flatnonzero(keep & (sizes == s_))
                if len(rows) == 0:
                    continue
                starts = x.indptr[rows]
                elems = x.indices[starts[:, None] + np.arange(s_)[None, :]]
                elems.sort(axis=1)
                combos = np.array(list(combinations(range(s_), j)), dtype=np.int64)
                sub = elems[:, combos]  # (rows, n_combos, j)
                keys_all.append(sub.reshape(-1, j))
                n_c = len(combos)
                size_all.append(np.full(len(rows) * n_c, s_))
                wa_all.append(np.repeat(a[rows], n_c))
                wb_all.append(np.repeat(b[rows], n_c))
            if not keys_all:
                continue
            keys = np.concatenate(keys_all)
            radix = max(x.shape[1], 2)
            if j * math.log2(radix) < 62:  # a j-subset of element codes as one integer
                keys = keys @ (radix ** np.arange(j, dtype=np.int64))
                _, key_id = np.unique(keys, return_inverse=True)
            else:
                _, key_id = np.unique(keys, axis=0, return_inverse=True)
            key_id = key_id.reshape(-1)
            n_keys = int(key_id.max()) + 1
            sz = np.concatenate(size_all)
            flat = key_id * (smax + 1) + sz
            ma = np.bincount(flat, weights=np.concatenate(wa_all), minlength=n_keys * (smax + 1))
            mb = np.bincount(flat, weights=np.concatenate(wb_all), minlength=n_keys * (smax + 1))
            s_mat[j] = ma.reshape(n_keys, smax + 1).T @ mb.reshape(n_keys, smax + 1)
        total = 0.0
        ss, tt = np.meshgrid(size_ids, size_ids, indexing="ij")
        for k in range(smax + 1):
            h = sum((-1) ** (j - k) * comb(j, k) * s_mat[j] for j in range(k, smax + 1))
            valid = (k <= np.minimum(ss, tt)) & (h != 0)
            if valid.any():
                d = self.dist.from_sizes(ss[valid].astype(float), tt[valid].astype(float), np.full(valid.sum(), k))
                total += float(h[valid] @ d)
        return total

    def _sparse_cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        """Sum over v != w of a_v b_w delta, touching intersecting pairs only.

        Non-empty disjoint pairs all have delta = 1: start from that for every
        pair of distinct non-empty values, then correct the intersecting pairs
        (the nonzeros of X X^T) and add the pairs involving the empty set.
        Cost: O(sum over elements of (number of values containing it)^2).
        """
        s = self.domain.sizes
        empty = s == 0
        ne = ~empty
        a_ne, b_ne = np.where(ne, a, 0.0), np.where(ne, b, 0.0)
        total = a_ne.sum() * b_ne.sum() - a_ne @ b_ne
        # intersecting pairs v != w among the values that carry weight
        rows = np.flatnonzero((a_ne != 0) | (b_ne != 0))
        if len(rows):
            x = self.domain.incidence[rows]
            inter = (x @ x.T).tocoo()
            off = inter.row != inter.col
            r, c, k = rows[inter.row[off]], rows[inter.col[off]], inter.data[off]
            w = a[r] * b[c]
            nz = w != 0
            if nz.any():
                r, c, k, w = r[nz], c[nz], k[nz], w[nz]
                total -= float(w @ (1.0 - self.dist.from_sizes(s[r], s[c], k)))
        if empty.any():
            e = int(np.flatnonzero(empty)[0])
            ne_idx = np.flatnonzero(ne)
            if len(ne_idx):
                d_e = self.dist.from_sizes(np.zeros(len(ne_idx)), s[ne_idx], np.zeros(len(ne_idx)))
                total += float(a[e] * (b[ne_idx] @ d_e) + b[e] * (a[ne_idx] @ d_e))
        return float(total)


class SetDistance(Distance):
    """A distance between sets that depends only on |b|, |c| and |b & c|.

    Subclasses implement :meth:`from_sizes`.  Values must be frozensets (lists
    and sets given as values are made frozensets when the data are built).
    """

    name = "set"

    @abstractmethod
    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        """delta from the two set sizes and the size of their intersection, elementwise."""

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        for v in values.tolist():
            if not isinstance(v, frozenset):
                raise AccordError(
                    f"the {self.name} distance needs set values (frozensets, or lists in files); "
                    f"got {v!r} ({type(v).__name__})"
                )
        return _PreparedSet(self, values, counts)

    def prepare_incidence(self, incidence: sp.csr_matrix, counts: np.ndarray) -> PreparedDistance:
        """Bind to values given as rows of a value x element 0/1 incidence matrix (no frozensets built)."""
        domain = _SetDomain.from_incidence(incidence)
        return _PreparedSet(self, np.arange(incidence.shape[0]), counts, domain)


class SetIdentity(SetDistance):
    """Nominal distance on sets, from sizes: 0 for identical sets, 1 otherwise.

    The same as :class:`Nominal` on frozenset values; it exists so that code
    working from set sizes and intersections (coreference) can use nominal too.

    Examples
    --------
    >>> SetIdentity()(frozenset("ab"), frozenset("ba")), SetIdentity()(frozenset("a"), frozenset("ab"))
    (0.0, 1.0)
    """

    name = "nominal"

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        return (_relation(sa, sb, k) != 0).astype(float)


class Jaccard(SetDistance):
    """Jaccard distance 1 - |b & c| / |b | c| (Jaccard 1908); two empty sets: 0.

    Examples
    --------
    >>> Jaccard()(frozenset("ab"), frozenset("bc"))
    0.6666666666666667
    """

    name = "jaccard"

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        return 1.0 - _jaccard(sa, sb, k)


class Dice(SetDistance):
    """Dice distance 1 - 2|b & c| / (|b| + |c|) (Dice 1945); two empty sets: 0.

    Examples
    --------
    >>> Dice()(frozenset("ab"), frozenset("bc"))
    0.5
    """

    name = "dice"

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        tot = sa + sb
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(tot == 0, 0.0, 1.0 - 2.0 * k / np.where(tot == 0, 1, tot))


def _scale(exact: bool) -> tuple[float, float]:
    return (1 / 3, 2 / 3) if exact else (0.33, 0.67)


class MASI2006(SetDistance):
    """MASI distance as Passonneau (2006) defines it: 1 - J * M.

    J is Jaccard's coefficient and M the monotonicity weight: 1 when the sets
    are identical, 2/3 when one is a subset of the other, 1/3 when they overlap
    and 0 when they are disjoint.  This is NLTK's ``masi_distance`` from NLTK
    3.10 on, which uses exact thirds (checked on 3.10.4); NLTK before 3.10 used
    the rounded weights 0.67 and 0.33 (its doctest printed 0.665 for {1, 2}
    against {1, 2, 3, 4}), which is ``exact=False``, name
    ``masi-2006-rounded``.  Two empty sets: 0 (NLTK raises ZeroDivisionError
    there).

    Compare :class:`MASI2010`, the form Passonneau (2010) prints, which is
    much smaller for subsets: {A} against {A, B} gives 1 - 1/2 * 2/3 = 2/3 here
    and (1 - 1/2) * 1/3 = 1/6 there.

    References
    ----------
    Passonneau, R. (2006). Measuring Agreement on Set-valued Items (MASI) for
    Semantic and Pragmatic Annotation. LREC 2006, section 3.3.

    Examples
    --------
    >>> MASI2006()(frozenset("A"), frozenset("AB"))
    0.6666666666666667
    """

    name = "masi-2006"

    def __init__(self, *, exact: bool = True) -> None:
        self.exact = bool(exact)
        if not exact:
            self.name = "masi-2006-rounded"

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        third, two_thirds = _scale(self.exact)
        m = np.array([1.0, two_thirds, third, 0.0])[_relation(sa, sb, k)]
        return 1.0 - _jaccard(sa, sb, k) * m


class MASI2010(SetDistance):
    """MASI distance as Passonneau (2010) writes it: (1 - J) * M'.

    M' is 0 for identical sets, 1/3 when one is a subset of the other (the
    empty set against a non-empty set counts as a subset), 2/3 when they
    overlap and 1 when they are disjoint.  DKPro Agreement implements this form.
    It differs from :class:`MASI2006` (1 - J * M), most for subsets.

    References
    ----------
    Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
    method for summary content evaluation. Natural Language Engineering 16(2),
    section 4.1.4. doi:10.1017/S1351324909990305

    Examples
    --------
    >>> MASI2010()(frozenset("A"), frozenset("AB"))
    0.16666666666666666
    """

    name = "masi-2010"

    def __init__(self, *, exact: bool = True) -> None:
        self.exact = bool(exact)

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        third, two_thirds = _scale(self.exact)
        m = np.array([0.0, third, two_thirds, 1.0])[_relation(sa, sb, k)]
        return (1.0 - _jaccard(sa, sb, k)) * m


class SetRelation(SetDistance):
    """Passonneau's (2004) set-relation scale: 0 identical, 1/3 subset, 2/3 overlap, 1 disjoint.

    The empty set against a non-empty set is a subset (1/3).  The paper prints
    .33 and .67: ``exact=False`` uses those.

    References
    ----------
    Passonneau, R. J. (2004). Computing Reliability for Coreference Annotation.
    LREC 2004, section 3.3.

    Examples
    --------
    >>> SetRelation()(frozenset("HJK"), frozenset("H"))
    0.3333333333333333
    """

    name = "set-relation"

    def __init__(self, *, exact: bool = True) -> None:
        self.exact = bool(exact)

    def from_sizes(self, sa: np.ndarray, sb: np.ndarray, k: np.ndarray) -> np.ndarray:
        third, two_thirds = _scale(self.exact)
        return np.array([0.0, third, two_thirds, 1.0])[_relation(sa, sb, k)]


def set_relation(a: frozenset, b: frozenset) -> Literal["identical", "subset", "overlap", "disjoint"]:
    """Name the relation between two sets as the set-relation and MASI scales see it.

    Examples
    --------
    >>> set_relation(frozenset(), frozenset({1}))
    'subset'
    """
    rel = int(_relation(np.array([len(a)]), np.array([len(b)]), np.array([len(a & b)]))[0])
    return ("identical", "subset", "overlap", "disjoint")[rel]  # type: ignore[return-value]


def multiset_value(counts: Mapping[Hashable, int] | Iterable[Hashable]) -> frozenset:
    """Encode a multiset as a set of (element, occurrence) pairs.

    Passonneau (2010, Figure 4) codes an SCU found twice in a peer summary as
    {y1, y2}: the i-th occurrence of an element is its own member, so set
    distances (Dice, Jaccard, ...) count partial agreement on how often.

    Examples
    --------
    >>> sorted(multiset_value({"y": 2}))
    [('y', 1), ('y', 2)]
    >>> multiset_value(["a", "a", "b"]) == multiset_value({"a": 2, "b": 1})
    True
    """
    if not isinstance(counts, Mapping):
        tally: dict[Hashable, int] = {}
        for e in counts:
            tally[e] = tally.get(e, 0) + 1
        counts = tally
    out = []
    for e, n in counts.items():
        if not isinstance(n, (int, np.integer)) or n < 0:
            raise AccordError(f"multiset count for {e!r} must be a non-negative integer; got {n!r}")
        out.extend((e, r) for r in range(1, int(n) + 1))
    return frozenset(out)
