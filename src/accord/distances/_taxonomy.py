"""A taxonomy distance: sets of paths from a root, a shared ancestor earning partial credit.

Each value (one path, or a set of paths such as Label Studio's ``taxonomy``
control writes) becomes the set of the nodes it names with all their
ancestors, each node known by its path from the root; the distance is the
Jaccard distance of those sets, computed by the sparse set machinery of
:mod:`accord.distances._sets`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown
from accord.distances._base import Distance, PreparedDistance, check_each_value

__all__ = ["Taxonomy", "taxonomy_paths"]


def _path(p: Any, name: str) -> tuple:
    if isinstance(p, tuple):
        path = p
    elif isinstance(p, (str, int)) and not isinstance(p, bool):
        path = (p,)
    else:
        raise AccordError(f"the {name} distance needs paths (tuples of node names from the root) or sets of "
                          f"paths; got {shown(p)} ({type(p).__name__})")
    if not path:
        raise AccordError(f"the {name} distance: a path names no node")
    seen: set[Hashable] = set()
    for node in path:
        if node in seen:
            raise AccordError(f"the {name} distance: path {' / '.join(map(str, path))} passes through "
                              f"{shown(node)} twice (a cycle in the taxonomy)")
        seen.add(node)
    return path


def taxonomy_paths(value: Any, *, name: str = "taxonomy") -> frozenset[tuple]:
    """The paths of a taxonomy value: a path (a tuple of node names from the root, or one name) or a set of them.

    Examples
    --------
    >>> sorted(taxonomy_paths(frozenset({("Animal", "Cat"), ("Plant",)})))
    [('Animal', 'Cat'), ('Plant',)]
    >>> taxonomy_paths("Plant")
    frozenset({('Plant',)})
    """
    if isinstance(value, frozenset):
        return frozenset(_path(p, name) for p in value)
    return frozenset([_path(value, name)])


def _closure(paths: Iterable[tuple]) -> frozenset[tuple]:
    """Every node the paths name, with its ancestors, each node as its path from the root."""
    return frozenset(p[:k] for p in paths for k in range(1, len(p) + 1))


class Taxonomy(Distance):
    """Distance between sets of taxonomy paths, a shared ancestor giving partial credit; in [0, 1].

    Notes
    -----
    A value is a path from the root, ``("Animal", "Mammal", "Cat")``, or a set
    (frozenset) of paths; a single name is a path of one node.  Let N(x) be the
    set of nodes the paths of x pass through, each node identified by its path
    from the root (so ``Cat`` under ``Mammal`` and a ``Cat`` elsewhere differ):
    N({Animal/Mammal/Cat}) = {Animal, Animal/Mammal, Animal/Mammal/Cat}.  Then

        d(x, y) = 1 - |N(x) & N(y)| / |N(x) | N(y)|,

    the Jaccard distance of the ancestor-closed node sets (Kiritchenko et al.
    2006 close label sets under ancestors in the same way for hierarchical
    precision and recall).  For two single paths sharing their first c nodes,
    d = 1 - c / (|p| + |q| - c): Animal/Mammal/Cat against Animal/Mammal/Dog
    is 1 - 2/4 = 1/2, against Animal/Bird 1 - 1/4 = 3/4, against Plant 1.
    Two paths under different roots are at 1, equal sets at 0, and two empty
    selections at 0 (an empty one against any other at 1).  As a Jaccard
    distance of sets it is a metric on the node sets; a set holding a path and
    one of its ancestors (Animal and Animal/Mammal) names the same nodes as the
    longer path alone, so the two are at 0.  A path naming a node twice is a
    cycle and is refused.

    References
    ----------
    Kiritchenko, S., Matwin, S., Nock, R. & Famili, A. F. (2006). Learning and
    evaluation in the presence of class hierarchies: application to text
    categorization. Canadian AI 2006, LNAI 4013, 395-406.

    Examples
    --------
    >>> d = Taxonomy()
    >>> d(("Animal", "Mammal", "Cat"), ("Animal", "Mammal", "Dog"))
    0.5
    >>> d(frozenset({("Animal", "Cat"), ("Plant",)}), frozenset({("Animal", "Cat")}))
    0.3333333333333333
    """

    name = "taxonomy"

    def check_data(self, data: Any) -> None:
        """Name the unit and coder of a value that is no path or set of paths, or of a path with a cycle."""
        check_each_value(data, lambda v: taxonomy_paths(v, name=self.name))

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        from accord.distances._sets import Jaccard
        from accord.distances._text import _PreparedOnSets

        sets = [_closure(taxonomy_paths(v, name=self.name)) for v in values.tolist()]
        return _PreparedOnSets(values, counts, sets, Jaccard())
