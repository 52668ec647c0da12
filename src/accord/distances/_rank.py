"""Rank distances: Kendall's tau distance with ties (Fagin et al.'s K^(1/2)) and Spearman's footrule.

A ranking value is a tuple of tie groups, best first, each group a frozenset of
items (:func:`ranking` builds one from a list or from ranks); a bare item in
the tuple is a group of one.  Both distances embed every distinct ranking of a
domain as a vector (Kendall: the sign of every item pair; footrule: every
item's position) and are L1 distances between those vectors, so the V x V
matrix, the pairs within units and the expected sum are numpy arithmetic over
the value domain, and both are metrics on rankings of one item set.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Literal

import numpy as np

from accord._shared.errors import AccordError, choice_error
from accord._shared.names import shown
from accord.distances._base import Distance, PreparedDistance, check_each_value

__all__ = ["Footrule", "KendallTau", "check_rankings", "ranking", "ranking_text"]

Unranked = Literal["error", "last"]
_UNRANKED = ("error", "last")
_PAIR_BLOCK = 1 << 21  # vector cells read per block in pairs()
_TOP_K = "pass unranked='last' to read an item a ranking leaves out as tied after its last"
_TOP_K_CLI = "use --distance {0}-top-k to read an item a ranking leaves out as tied after its last"


def ranking(order: Iterable[Any] | Mapping[Hashable, float], *, where: str | None = None) -> tuple[frozenset, ...]:
    """A ranking as accord holds it: a tuple of tie groups, best first, each a frozenset.

    Parameters
    ----------
    order : sequence or mapping
        Either the items best first, a tie given as a list, tuple or set of
        items (``["a", ["b", "c"], "d"]``: b and c tie for second), or a
        mapping of each item to its rank (smaller is better, equal ranks tie:
        ``{"a": 1, "b": 2, "c": 2, "d": 3}``).
    where : str, optional
        Where the ranking comes from (file, unit, coder), for messages.

    Returns
    -------
    tuple of frozenset

    Raises
    ------
    AccordError
        An item ranked twice, an empty tie group, a rank that is not a finite
        number, or no item at all.

    Examples
    --------
    >>> ranking(["a", ["b", "c"], "d"]) == ranking({"a": 1, "b": 2, "c": 2, "d": 4})
    True
    >>> ranking_text(ranking({"x": 2, "y": 1}))
    'y > x'
    """
    at = f"{where}: " if where else ""
    if isinstance(order, Mapping):
        by_rank: dict[float, list[Hashable]] = {}
        for item, r in order.items():
            if isinstance(r, bool) or not isinstance(r, (int, float, np.integer, np.floating)) or not np.isfinite(r):
                raise AccordError(f"{at}the rank of item {shown(item)} must be a finite number; got {shown(r)}")
            by_rank.setdefault(float(r), []).append(item)
        groups = [frozenset(by_rank[r]) for r in sorted(by_rank)]
    elif isinstance(order, (str, bytes)):
        raise AccordError(f"{at}a ranking is a sequence of items (or of tie groups), best first; got the text "
                          f"{shown(order)}")
    else:
        groups = []
        for g in order:
            if isinstance(g, (list, tuple, set, frozenset)):
                if not g:
                    raise AccordError(f"{at}a ranking has an empty tie group")
                if isinstance(g, (list, tuple)) and len(set(g)) < len(g):
                    raise AccordError(f"{at}a ranking names item {shown(_first_repeat(g))} twice")
                groups.append(frozenset(g))
            else:
                groups.append(frozenset([g]))
    value = tuple(groups)
    _check_groups(value, at)
    return value


def _first_repeat(items: Iterable[Any]) -> Any:
    seen: set[Any] = set()
    for x in items:
        if x in seen:
            return x
        seen.add(x)
    return None


def _check_groups(groups: tuple[frozenset, ...], at: str) -> None:
    if not groups:
        raise AccordError(f"{at}a ranking ranks no item")
    sizes = sum(len(g) for g in groups)
    if sizes != len(frozenset().union(*groups)):
        raise AccordError(f"{at}a ranking names item {shown(_first_repeat(x for g in groups for x in g))} twice")


def ranking_text(value: tuple[Any, ...]) -> str:
    """A ranking as a person reads it: ``a > b = c > d`` (best first, ``=`` joins ties).

    Examples
    --------
    >>> ranking_text(("a", frozenset({"c", "b"})))
    'a > b = c'
    """
    parts = []
    for g in value:
        members = sorted(g, key=str) if isinstance(g, frozenset) else [g]
        parts.append(" = ".join(str(x) for x in members))
    return " > ".join(parts)


def _groups_of(value: Any, dist_name: str) -> tuple[frozenset, ...]:
    """The tie groups of a ranking value, checked (bare items are groups of one)."""
    if not isinstance(value, tuple):
        hint = (" (a list given as a value is read as a set, which has no order: build rankings with "
                "accord.distances.ranking)") if isinstance(value, frozenset) else ""
        raise AccordError(f"the {dist_name} distance needs rankings (tuples of items or of tie groups, best "
                          f"first); got {shown(value)}{hint}")
    groups = tuple(g if isinstance(g, frozenset) else frozenset([g]) for g in value)
    if any(not g for g in groups):
        raise AccordError(f"the {dist_name} distance: ranking {shown(value)} has an empty tie group")
    _check_groups(groups, f"the {dist_name} distance: ranking {ranking_text(value)}: ")
    return groups


class _Embedded:
    """Every distinct ranking's bucket index per item (V x n), over the sorted union of the items."""

    def __init__(self, values: np.ndarray, dist_name: str, unranked: Unranked) -> None:
        groups = [_groups_of(v, dist_name) for v in values.tolist()]
        item_sets = [frozenset().union(*g) for g in groups]
        universe = frozenset().union(*item_sets) if item_sets else frozenset()
        if unranked == "error":
            for k, s in enumerate(item_sets):
                if s != item_sets[0]:
                    head = (f"the {dist_name} distance compares rankings of the same items; ranking "
                            f"{ranking_text(values[0])} and ranking {ranking_text(values[k])} rank different items "
                            f"({_diff(item_sets[0], s)}); give every unit the same items, or ")
                    raise AccordError(head + _TOP_K, cli=head + _TOP_K_CLI.format(dist_name))
        try:
            items = sorted(universe)
        except TypeError:
            items = sorted(universe, key=repr)
        pos = {x: i for i, x in enumerate(items)}
        self.items = items
        n = len(items)
        # bucket index of each item (0 = best); items a ranking leaves out share the bucket after its last
        bucket = np.empty((len(groups), n), dtype=np.int64)
        sizes = np.zeros((len(groups), n + 1), dtype=np.int64)  # size of each bucket, bottom bucket included
        for v, gs in enumerate(groups):
            bucket[v, :] = len(gs)
            for b, g in enumerate(gs):
                bucket[v, [pos[x] for x in g]] = b
                sizes[v, b] = len(g)
            sizes[v, len(gs)] = n - len(item_sets[v])
        self.bucket = bucket
        # position of each item: the mean of the positions (1-based) its bucket spans
        start = np.cumsum(sizes, axis=1) - sizes
        rows = np.arange(len(groups))[:, None]
        self.position = start[rows, bucket] + (sizes[rows, bucket] + 1) / 2.0


def _diff(a: frozenset, b: frozenset) -> str:
    only_a, only_b = sorted(map(str, a - b)), sorted(map(str, b - a))
    parts = []
    if only_a:
        parts.append("only the first has " + ", ".join(only_a[:5]) + (", ..." if len(only_a) > 5 else ""))
    if only_b:
        parts.append("only the second has " + ", ".join(only_b[:5]) + (", ..." if len(only_b) > 5 else ""))
    return "; ".join(parts)


class _PreparedL1(PreparedDistance):
    """delta(v, w) = scale * sum_k |X[v, k] - X[w, k]| for an integer embedding X with few levels per column."""

    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, x: np.ndarray, scale: float) -> None:
        self.values, self.counts = values, counts
        self.x = x  # integer array V x K
        self.scale = scale
        self._matrix: np.ndarray | None = None

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        out = np.zeros(len(i))
        k = max(self.x.shape[1], 1)
        step = max(1, _PAIR_BLOCK // k)
        for s in range(0, len(i), step):
            a, b = self.x[i[s:s + step]], self.x[j[s:s + step]]
            out[s:s + step] = np.abs(a - b).sum(axis=1)
        return out * self.scale

    def matrix(self) -> np.ndarray:
        from scipy.spatial.distance import cdist

        if self._matrix is None:
            if self.x.shape[1] == 0 or len(self.values) == 0:
                self._matrix = np.zeros((len(self.values), len(self.values)))
            else:
                self._matrix = cdist(self.x.astype(float), self.x.astype(float), "cityblock") * self.scale
        return self._matrix

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        """sum_{v, w} a_v b_w delta(v, w) column by column: per column, the weight at each level, then
        sum_{l, m} A[l] B[m] |l - m| (the pairs v = w add 0)."""
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        x = self.x
        if x.shape[1] == 0 or not a.any() or not b.any():
            return 0.0
        lo = int(x.min())
        levels = x - lo
        n_levels = int(levels.max()) + 1
        n_cols = x.shape[1]
        wa = np.zeros(n_cols * n_levels)
        wb = np.zeros(n_cols * n_levels)
        offset = np.arange(n_cols)[None, :] * n_levels
        step = max(1, _PAIR_BLOCK // n_cols)  # values per block: memory bounded whatever the number of items
        for s in range(0, len(a), step):
            flat = (offset + levels[s:s + step]).ravel()
            wa += np.bincount(flat, weights=np.repeat(a[s:s + step], n_cols), minlength=n_cols * n_levels)
            wb += np.bincount(flat, weights=np.repeat(b[s:s + step], n_cols), minlength=n_cols * n_levels)
        wa, wb = wa.reshape(n_cols, n_levels), wb.reshape(n_cols, n_levels)
        steps = np.abs(np.arange(n_levels)[:, None] - np.arange(n_levels)[None, :]).astype(float)
        return float(np.einsum("kl,lm,km->", wa, steps, wb)) * self.scale


class _RankDistance(Distance):
    def __init__(self, *, unranked: Unranked = "error") -> None:
        if unranked not in _UNRANKED:
            raise choice_error("unranked", unranked, _UNRANKED)
        self.unranked = unranked
        if unranked == "last":
            self.name = f"{type(self).name}-top-k"

    def check_data(self, data: Any) -> None:
        """Name the unit and coders when two coders of a unit rank different items (``unranked='error'``)."""
        check_rankings(data, distance=self)


class KendallTau(_RankDistance):
    """Kendall's tau distance between rankings with ties, normalised to [0, 1] (Fagin et al. 2006, K^(1/2)).

    Over the n(n - 1)/2 pairs of the n items ranked, a pair counts 1 when the
    two rankings order it oppositely, 1/2 when one ties it and the other
    orders it, and 0 otherwise (both order it alike, or both tie it); the sum
    is divided by n(n - 1)/2.

    Parameters
    ----------
    unranked : {"error", "last"}
        ``"error"`` (default): every ranking must rank the same items.
        ``"last"``: the items are the union over all the rankings of the data,
        and an item a ranking leaves out is tied with the others it leaves out,
        after its last group (a top-k list as a partial ranking, Fagin et al.
        2006, section 2); named ``kendall-top-k``.

    Notes
    -----
    Writing s_r(i, j) = sign(rank_r(i) - rank_r(j)) in {-1, 0, 1},
    d(r, t) = sum_{i < j} |s_r(i, j) - s_t(i, j)| / 2 / (n(n - 1)/2): an L1
    distance between sign vectors, so a metric, and the sign vector tells the
    ranking back, so d = 0 only for equal rankings.  Without ties
    d = (1 - tau) / 2 with Kendall's tau.  One item: 0.

    References
    ----------
    Fagin, R., Kumar, R., Mahdian, M., Sivakumar, D. & Vee, E. (2006).
    Comparing partial rankings. SIAM Journal on Discrete Mathematics 20(3),
    628-648 (K^(p) with p = 1/2; a metric for p in [1/2, 1]).

    Examples
    --------
    >>> d = KendallTau()
    >>> d(ranking(["a", "b", "c"]), ranking(["c", "b", "a"]))
    1.0
    >>> d(ranking(["a", "b", "c"]), ranking([["a", "b"], "c"]))  # one pair tied against ordered: 1/2 of 3
    0.16666666666666666
    """

    name = "kendall"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        emb = _Embedded(values, self.name, self.unranked)
        n = len(emb.items)
        ii, jj = np.triu_indices(n, k=1)
        signs = np.empty((len(emb.bucket), len(ii)), dtype=np.int16)
        step = max(1, _PAIR_BLOCK // max(len(emb.bucket), 1))  # pair columns per block: no V x pairs int64 array
        for s in range(0, len(ii), step):
            signs[:, s:s + step] = np.sign(emb.bucket[:, ii[s:s + step]] - emb.bucket[:, jj[s:s + step]])
        scale = 0.5 / len(ii) if len(ii) else 0.0
        return _PreparedL1(values, counts, signs, scale)


class Footrule(_RankDistance):
    """Spearman's footrule between rankings with ties, normalised to [0, 1] (Fagin et al. 2006, F_prof).

    An item's position in a ranking is the mean of the positions its tie group
    spans (the first group of two holds positions 1 and 2: both items are at
    1.5); the footrule is the sum over items of the absolute difference of
    their two positions, divided by floor(n^2 / 2), its largest value over
    rankings of n items.

    Parameters
    ----------
    unranked : {"error", "last"}
        As for :class:`KendallTau` (``"last"`` is named ``footrule-top-k``).

    Notes
    -----
    d(r, t) = sum_i |pos_r(i) - pos_t(i)| / floor(n^2 / 2): an L1 distance
    between position vectors, so a metric; positions tell the ranking back, so
    d = 0 only for equal rankings.  Position vectors of rankings with ties lie
    in the convex hull of those without, where the L1 distance is largest at
    two reversed orders: floor(n^2 / 2) (Diaconis & Graham 1977).  One item: 0.

    References
    ----------
    Fagin, R., Kumar, R., Mahdian, M., Sivakumar, D. & Vee, E. (2006).
    Comparing partial rankings. SIAM Journal on Discrete Mathematics 20(3),
    628-648 (F_prof).
    Diaconis, P. & Graham, R. L. (1977). Spearman's footrule as a measure of
    disarray. Journal of the Royal Statistical Society B 39(2), 262-268.

    Examples
    --------
    >>> d = Footrule()
    >>> d(ranking(["a", "b", "c"]), ranking(["c", "b", "a"]))
    1.0
    >>> d(ranking(["a", "b", "c"]), ranking([["a", "b"], "c"]))  # |1 - 1.5| + |2 - 1.5| = 1, over 4
    0.25
    """

    name = "footrule"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        emb = _Embedded(values, self.name, self.unranked)
        n = len(emb.items)
        twice = np.rint(2 * emb.position).astype(np.int64)  # half-integer positions, doubled: exact integers
        norm = (n * n) // 2
        scale = 0.5 / norm if norm else 0.0
        return _PreparedL1(values, counts, twice, scale)


def check_rankings(data: Any, *, distance: KendallTau | Footrule | None = None) -> None:
    """Check the ranking values of *data*, naming the unit and the coder of the first fault.

    Every value must be a ranking (a tuple of items or tie groups, no item
    twice); with ``unranked='error'`` (the default) all the coders of a unit
    must rank the same items, and so must all the units.

    Examples
    --------
    >>> from accord import Annotations
    >>> data = Annotations.from_records([("q1", "ann", ranking(["a", "b", "c"])),
    ...                                  ("q1", "bob", ranking(["a", "b"]))])
    >>> check_rankings(data)
    Traceback (most recent call last):
    ...
    accord.AccordError: unit 'q1': coder 'ann' ranks a > b > c and coder 'bob' ranks a > b: different items ...
    """
    dist = distance if distance is not None else KendallTau()
    name = dist.name
    where = f"{data.source}: " if data.source else ""
    values = data.values.tolist()
    item_sets: list[frozenset] = []
    check_each_value(data, lambda v: item_sets.append(frozenset().union(*_groups_of(v, name))))
    if dist.unranked != "error" or not values:
        return
    set_code = {s: i for i, s in enumerate(dict.fromkeys(item_sets))}
    entry_set = np.array([set_code[s] for s in item_sets], dtype=np.int64)[data.value_index]
    unit = data.unit_index
    # within a unit: every entry's item set against the unit's first entry's
    first = np.full(data.n_units, -1, dtype=np.int64)
    order = np.arange(len(unit))[::-1]
    first[unit[order]] = order
    bad = np.flatnonzero(entry_set != entry_set[first[unit]])
    if len(bad):
        k, k0 = int(bad[0]), int(first[unit[bad[0]]])
        a, b = values[data.value_index[k0]], values[data.value_index[k]]
        raise AccordError(
            f"{where}unit {shown(data.units[unit[k]])}: coder {shown(data.coders[data.coder_index[k0]])} ranks "
            f"{ranking_text(a)} and coder {shown(data.coders[data.coder_index[k]])} ranks {ranking_text(b)}: "
            f"different items ({_diff(item_sets[data.value_index[k0]], item_sets[data.value_index[k]])})")
    across = np.flatnonzero(entry_set != entry_set[0])
    if len(across):
        k = int(across[0])
        head = (f"{where}unit {shown(data.units[unit[0]])} ranks "
                f"{', '.join(sorted(map(str, item_sets[data.value_index[0]])))} and unit {shown(data.units[unit[k]])} "
                f"ranks {', '.join(sorted(map(str, item_sets[data.value_index[k]])))}: alpha compares rankings across "
                "units (its expected disagreement), so every unit must rank the same items (name them alike in every "
                "unit, e.g. by system or by the position shown), or ")
        raise AccordError(head + _TOP_K, cli=head + _TOP_K_CLI.format(name))
