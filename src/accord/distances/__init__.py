"""Distances (delta functions) between coding values.

A distance supplies delta(b, c) >= 0 with delta(b, b) = 0.  Every coefficient
takes one, by name or as an object.  The engine never asks for a V x V matrix
unless the value domain is small: it asks a *prepared* distance for

- ``pairs(i, j)``: delta for given pairs of value codes (vectorised), used for
  the pairs that occur inside units (observed disagreement), and
- ``cross_sum(a, b)``: sum over ordered pairs of distinct values of
  ``a[v] * b[w] * delta(v, w)``, used for expected disagreement (``a = b = n``,
  the pooled marginals, for alpha and Scott's pi; per-coder marginals for
  Cohen-style coefficients).

Scalar distances (nominal, ordinal, interval, ratio) have closed forms or a
blocked dense product.  Set distances (Jaccard, Dice, MASI in both published
forms, the set-relation scale) are functions of ``|b|``, ``|c|`` and ``|b & c|``
only; over large domains the expected sum runs over *intersecting* pairs only,
found through the sparse product of the value x element incidence matrix with its
transpose (an inverted index), because every pair of disjoint non-empty sets has
distance 1.

Text, rank and taxonomy distances (issue 32): the normalised Levenshtein
distance and the Jaccard distance of token sets between texts, Kendall's tau
distance with ties (Fagin et al.'s K^(1/2)) and Spearman's footrule between
rankings (tuples of tie groups, :func:`ranking`), and the Jaccard distance of
ancestor-closed node sets between taxonomy paths.  Each works over the value
domain at once: rapidfuzz's compiled matrix for edit distances, the set
machinery for token and node sets, L1 arithmetic on embeddings for rankings.

User distances: any callable ``f(a, b) -> float`` (see :class:`DistanceFunction`)
is wrapped by :func:`make_distance`; for large domains implement
:class:`Distance` directly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from accord._shared.errors import AccordError, choice_error
from accord.distances._base import DENSE_LIMIT as DENSE_LIMIT
from accord.distances._base import Distance, DistanceFunction, PreparedDistance
from accord.distances._functions import FunctionDistance, make_distance
from accord.distances._rank import Footrule, KendallTau, check_rankings, ranking, ranking_text
from accord.distances._scalar import Interval, Nominal, Ordinal, Ratio, check_order, text_labels
from accord.distances._sets import (
    MASI2006,
    MASI2010,
    Dice,
    Jaccard,
    SetDistance,
    SetIdentity,
    SetRelation,
    multiset_value,
    set_relation,
)
from accord.distances._sets import SUBSET_BUDGET as SUBSET_BUDGET
from accord.distances._sets import SUBSET_MAX_SIZE as SUBSET_MAX_SIZE
from accord.distances._taxonomy import Taxonomy, taxonomy_paths
from accord.distances._text import Levenshtein, TokenJaccard, tokens

__all__ = [
    "DISTANCE_NAMES",
    "Dice",
    "Distance",
    "DistanceFunction",
    "Footrule",
    "FunctionDistance",
    "Interval",
    "Jaccard",
    "KendallTau",
    "Levenshtein",
    "MASI2006",
    "MASI2010",
    "ORDERED_DISTANCES",
    "Nominal",
    "Ordinal",
    "PreparedDistance",
    "Ratio",
    "SetDistance",
    "SetIdentity",
    "SetRelation",
    "Taxonomy",
    "TokenJaccard",
    "check_rankings",
    "get_distance",
    "make_distance",
    "multiset_value",
    "ranking",
    "ranking_text",
    "set_relation",
    "taxonomy_paths",
    "text_labels",
    "tokens",
]


_REGISTRY: dict[str, Callable[[], Distance]] = {
    "nominal": Nominal,
    "ordinal": Ordinal,
    "interval": Interval,
    "ratio": Ratio,
    "jaccard": Jaccard,
    "dice": Dice,
    "masi-2006": MASI2006,
    "masi-2010": MASI2010,
    "set-relation": SetRelation,
    "levenshtein": Levenshtein,
    "levenshtein-metric": lambda: Levenshtein(normalization="metric"),
    "token-jaccard": TokenJaccard,
    "kendall": KendallTau,
    "footrule": Footrule,
    "kendall-top-k": lambda: KendallTau(unranked="last"),
    "footrule-top-k": lambda: Footrule(unranked="last"),
    "taxonomy": Taxonomy,
}
_ALIASES = {
    "masi-lrec2006": "masi-2006",
    "masi-nle2010": "masi-2010",
    "setrelation": "set-relation",
    "set_relation": "set-relation",
    "edit": "levenshtein",
    "edit-distance": "levenshtein",
    "token_jaccard": "token-jaccard",
    "kendall-tau": "kendall",
    "kendall_tau": "kendall",
    "spearman-footrule": "footrule",
}
DISTANCE_NAMES: tuple[str, ...] = tuple(_REGISTRY)
#: The distances that take an order of text labels (``order=``), and refuse text labels without one.
ORDERED_DISTANCES: tuple[type[Ordinal] | type[Interval] | type[Ratio], ...] = (Ordinal, Interval, Ratio)


def get_distance(
    distance: str | Distance | DistanceFunction, *, order: Sequence[Hashable] | None = None
) -> Distance:
    """Resolve a distance given by name, object or callable.

    Names: nominal, ordinal, interval, ratio, jaccard, dice, masi-2006,
    masi-2010, set-relation (also ``masi-2006-rounded``: MASI with 0.67/0.33),
    levenshtein, levenshtein-metric, token-jaccard, kendall, footrule,
    kendall-top-k, footrule-top-k, taxonomy.
    A bare ``"masi"`` is refused: the two published forms differ a lot, so
    the user picks one.

    Parameters
    ----------
    distance : str, Distance or callable
    order : sequence, optional
        Text labels from lowest to highest, for the ordinal, interval and
        ratio distances (refused with any other).  These three refuse text
        labels without it: alphabetical order is not a scale.

    Examples
    --------
    >>> get_distance("interval")
    <distance interval>
    >>> get_distance("ordinal", order=["Easy", "Neutral", "Difficult"])
    <distance ordinal, order ['Easy', 'Neutral', 'Difficult']>
    """
    if order is not None:
        base = get_distance(distance)
        if not isinstance(base, ORDERED_DISTANCES):
            raise AccordError(
                f"order applies to the ordinal, interval and ratio distances; got distance {base.name!r}"
            )
        items = check_order(order)
        if base.order is not None and base.order != items:
            raise AccordError(f"order: the {base.name} distance given already has the order {base.order!r}; "
                              f"got order {items!r}")
        return type(base)(order=items)
    if isinstance(distance, Distance):
        return distance
    if isinstance(distance, str):
        key = distance.strip().lower()
        key = _ALIASES.get(key, key)
        if key == "masi":
            raise AccordError(
                "distance 'masi' is ambiguous: choose 'masi-2006' (1 - J*M, Passonneau 2006, NLTK's "
                "masi_distance) or 'masi-2010' ((1 - J)*M, Passonneau 2010, DKPro Agreement)"
            )
        if key == "masi-2006-rounded":
            return MASI2006(exact=False)
        if key not in _REGISTRY:
            raise choice_error("distance", distance, DISTANCE_NAMES, api_also=" (or a Distance or a callable)")
        return _REGISTRY[key]()
    if callable(distance):
        return make_distance(distance)
    raise AccordError(f"distance must be a name, a Distance or a callable; got {distance!r}")
