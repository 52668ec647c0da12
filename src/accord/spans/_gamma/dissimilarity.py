r"""Dissimilarities between two units of a continuum, for gamma.

A dissimilarity prices how far apart two units of different annotators are;
the cost of a unit left without a partner is :math:`\Delta_\varnothing`
(``delta_empty``), the unit every dissimilarity is expressed in (Mathet,
Widlöcher & Métivier 2015, section 4.2).

- :class:`PositionalDissimilarity`: the positional-sporadic dissimilarity
  :math:`d_{pos}(u, v) = \left(\frac{|s_u - s_v| + |e_u - e_v|}{l_u + l_v}\right)^2 \Delta_\varnothing`;
- :class:`CategoricalDissimilarity`: :math:`d_{cat}(u, v) = m[c_u, c_v]\,\Delta_\varnothing` with *m*
  the nominal matrix (0 on the diagonal, 1 elsewhere), a user matrix, or
  ordinal / numeric distances :math:`|p_u - p_v| / \max(1, \text{range of } p)` over ordered categories;
- :class:`CombinedDissimilarity`: :math:`\alpha\, d_{pos} + \beta\, d_{cat}`.

A user dissimilarity is any subclass of :class:`Dissimilarity`: it says its
``delta_empty``, the categories it knows (``None``: any), and binds to a
continuum's category table a function of unit arrays (``start``, ``end`` as
floats, category codes) returning the dissimilarity of each pair; optionally
:meth:`Dissimilarity.reach` bounds how far apart two units it prices at most
*bound* can lie, which lets the alignment skip far pairs without computing them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from accord._shared.errors import AccordError

__all__ = [
    "CategoricalDissimilarity",
    "CombinedDissimilarity",
    "Dissimilarity",
    "PairFunction",
    "PositionalDissimilarity",
]

#: ``f(start1, end1, cat1, start2, end2, cat2) -> d`` over aligned arrays (categories as codes).
PairFunction = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def _check_delta(delta_empty: float) -> float:
    try:
        d = float(delta_empty)
    except (TypeError, ValueError):
        raise AccordError(f"delta_empty must be a positive number; got {delta_empty!r}") from None
    if not math.isfinite(d) or d <= 0:
        raise AccordError(f"delta_empty must be a positive finite number; got {delta_empty!r}")
    return d


class Dissimilarity:
    """The protocol every dissimilarity follows (subclass it for your own).

    Attributes
    ----------
    delta_empty : float
        The cost of pairing a unit with the empty unit.
    categories : tuple of str or None
        The categories the dissimilarity knows; ``None`` when it takes any.
    """

    delta_empty: float = 1.0
    categories: tuple[str, ...] | None = None

    def bind(self, categories: Sequence[str]) -> PairFunction:
        """The pair function for a continuum whose category codes index *categories*."""
        raise NotImplementedError

    def reach(self, bound: float) -> float | None:
        """A radius r with ``d(u, v) <= bound`` implying ``|s_u - s_v| + |e_u - e_v| <= r (l_u + l_v)``.

        ``None`` (the default) when the dissimilarity gives no such bound: every
        pair of units is then priced.
        """
        return None

    def describe(self) -> str:
        """A short name for reports."""
        return type(self).__name__


def positional_ratio(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """(|s1 - s2| + |e1 - e2|) / (l1 + l2); 0 for two equal points, +inf for two distinct points."""
    num = np.abs(s1 - s2) + np.abs(e1 - e2)
    den = (e1 - s1) + (e2 - s2)
    zero = den == 0
    if not zero.any():
        return num / den
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / den
    return np.where(zero, np.where(num == 0, 0.0, np.inf), r)


class PositionalDissimilarity(Dissimilarity):
    r"""Positional-sporadic dissimilarity (Mathet et al. 2015, section 4.2.1).

    Parameters
    ----------
    delta_empty : float, default 1
        :math:`\Delta_\varnothing`.

    Notes
    -----
    .. math:: d_{pos}(u, v) = \left(\frac{|s_u - s_v| + |e_u - e_v|}{l_u + l_v}\right)^2 \Delta_\varnothing

    0 for equal units, below :math:`\Delta_\varnothing` when one contains the
    other, above it when they are disjoint.  Two zero-length units are 0 apart
    at the same point and infinitely apart otherwise.

    Examples
    --------
    >>> d = PositionalDissimilarity().bind(())
    >>> float(d(np.array([0.0]), np.array([10.0]), np.array([0]), np.array([1.0]), np.array([9.0]), np.array([0]))[0])
    0.012345679012345678
    """

    def __init__(self, delta_empty: float = 1.0) -> None:
        self.delta_empty = _check_delta(delta_empty)
        self.categories = None

    def bind(self, categories: Sequence[str]) -> PairFunction:
        de = self.delta_empty

        def f(s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
              c2: np.ndarray) -> np.ndarray:
            r = positional_ratio(s1, e1, s2, e2)
            return r * r * de

        return f

    def reach(self, bound: float) -> float | None:
        return math.sqrt(max(bound, 0.0) / self.delta_empty)

    def describe(self) -> str:
        return f"positional (Δ∅ = {self.delta_empty:g})"


class CategoricalDissimilarity(Dissimilarity):
    r"""A dissimilarity of categories only: :math:`d_{cat}(u, v) = m[c_u, c_v]\,\Delta_\varnothing`.

    Build it with :meth:`nominal` (the default: 0 for the same category, 1
    otherwise, any categories), :meth:`from_matrix`, :meth:`ordinal` or
    :meth:`numeric`.

    Parameters
    ----------
    matrix : array of shape (k, k) or None
        Symmetric, zero on the diagonal, finite and non-negative; ``None`` for nominal.
    categories : sequence of str or None
        The categories indexing *matrix* (``None`` for nominal).
    delta_empty : float, default 1
    kind : str
        ``"nominal"``, ``"matrix"``, ``"ordinal"`` or ``"numeric"`` (for reports).
    """

    def __init__(self, matrix: Any = None, categories: Sequence[str] | None = None, *, delta_empty: float = 1.0,
                 kind: str = "matrix") -> None:
        self.delta_empty = _check_delta(delta_empty)
        if matrix is None:
            if categories is not None:
                raise AccordError("a nominal categorical dissimilarity takes no categories; give a matrix with them")
            self.categories = None
            self.matrix = None
            self.kind = "nominal"
            return
        if categories is None:
            raise AccordError("a categorical dissimilarity matrix needs the categories that index it")
        cats = tuple(str(c) for c in categories)
        if len(set(cats)) != len(cats):
            dup = sorted({c for c in cats if cats.count(c) > 1})
            raise AccordError(f"categories of the dissimilarity matrix repeat: {', '.join(map(repr, dup))}")
        m = np.asarray(matrix, dtype=float)
        if m.shape != (len(cats), len(cats)):
            raise AccordError(
                f"the categorical dissimilarity matrix has shape {m.shape}; {len(cats)} categories need "
                f"({len(cats)}, {len(cats)})"
            )
        if not np.all(np.isfinite(m)) or np.any(m < 0):
            raise AccordError("the categorical dissimilarity matrix must be finite and non-negative")
        if np.any(np.diag(m) != 0):
            i = int(np.flatnonzero(np.diag(m) != 0)[0])
            raise AccordError(f"the categorical dissimilarity of {cats[i]!r} with itself is {m[i, i]:g}; it must be 0")
        bad = np.argwhere(m != m.T)
        if len(bad):
            i, j = bad[0]
            raise AccordError(
                f"the categorical dissimilarity matrix is not symmetric: d({cats[i]!r}, {cats[j]!r}) = {m[i, j]:g} "
                f"but d({cats[j]!r}, {cats[i]!r}) = {m[j, i]:g}"
            )
        self.categories = cats
        self.matrix = m
        self.kind = kind

    @classmethod
    def nominal(cls, *, delta_empty: float = 1.0) -> CategoricalDissimilarity:
        """0 for the same category, :math:`\\Delta_\\varnothing` otherwise (any categories).

        Examples
        --------
        >>> CategoricalDissimilarity.nominal().describe()
        'categorical nominal (Δ∅ = 1)'
        """
        return cls(None, None, delta_empty=delta_empty, kind="nominal")

    @classmethod
    def from_matrix(cls, matrix: Any, categories: Sequence[str] | None = None, *,
                    delta_empty: float = 1.0) -> CategoricalDissimilarity:
        """A user matrix: a (k, k) array with *categories*, a pandas DataFrame indexed by category, or a
        mapping ``{a: {b: d}}`` (missing symmetric entries are filled; the diagonal defaults to 0).

        Examples
        --------
        >>> d = CategoricalDissimilarity.from_matrix({"PER": {"ORG": 0.5}, "LOC": {"ORG": 1.0, "PER": 1.0}})
        >>> d.categories
        ('LOC', 'ORG', 'PER')
        """
        if isinstance(matrix, Mapping):
            cats = sorted({str(a) for a in matrix} | {str(b) for row in matrix.values() for b in row})
            idx = {c: i for i, c in enumerate(cats)}
            m = np.full((len(cats), len(cats)), np.nan)
            np.fill_diagonal(m, 0.0)
            for a, row in matrix.items():
                for b, v in row.items():
                    i, j = idx[str(a)], idx[str(b)]
                    for x, y in ((i, j), (j, i)):
                        if not np.isnan(m[x, y]) and m[x, y] != float(v) and x != y:
                            raise AccordError(
                                f"the categorical dissimilarity of {cats[i]!r} and {cats[j]!r} is given twice, "
                                f"as {m[x, y]:g} and {float(v):g}"
                            )
                        m[x, y] = float(v)
            if np.isnan(m).any():
                i, j = np.argwhere(np.isnan(m))[0]
                raise AccordError(f"the categorical dissimilarity matrix has no value for ({cats[i]!r}, {cats[j]!r})")
            return cls(m, cats, delta_empty=delta_empty, kind="matrix")
        if hasattr(matrix, "index") and hasattr(matrix, "columns"):
            rows = [str(c) for c in matrix.index]
            cols = [str(c) for c in matrix.columns]
            if sorted(rows) != sorted(cols):
                raise AccordError("the categorical dissimilarity frame must have the same categories as index and "
                                  "columns")
            m = matrix.to_numpy(dtype=float)[:, [cols.index(r) for r in rows]]
            return cls(m, rows, delta_empty=delta_empty, kind="matrix")
        return cls(matrix, categories, delta_empty=delta_empty, kind="matrix")

    @classmethod
    def ordinal(cls, categories: Sequence[str], positions: Sequence[float] | None = None, *,
                delta_empty: float = 1.0) -> CategoricalDissimilarity:
        """Ordered categories: ``|p_a - p_b| / max(1, max p - min p)``, *positions* defaulting to 0, 1, 2...

        Examples
        --------
        >>> CategoricalDissimilarity.ordinal(["low", "mid", "high"]).matrix[0].tolist()
        [0.0, 0.5, 1.0]
        """
        cats = [str(c) for c in categories]
        p = np.arange(len(cats), dtype=float) if positions is None else np.asarray(positions, dtype=float)
        if p.shape != (len(cats),):
            raise AccordError(f"ordinal dissimilarity: {len(cats)} categories but {p.size} positions")
        if not np.all(np.isfinite(p)):
            raise AccordError("ordinal dissimilarity: positions must be finite numbers")
        m = np.abs(p[:, None] - p[None, :])
        scale = max(1.0, float(m.max()) if m.size else 1.0)
        return cls(m / scale, cats, delta_empty=delta_empty, kind="ordinal")

    @classmethod
    def numeric(cls, categories: Sequence[str], *, delta_empty: float = 1.0) -> CategoricalDissimilarity:
        """Categories that are numbers (``"1"``, ``"2.5"``): ordinal with the numbers as positions.

        Examples
        --------
        >>> CategoricalDissimilarity.numeric(["1", "3", "5"]).matrix[0].tolist()
        [0.0, 0.5, 1.0]
        """
        cats = [str(c) for c in categories]
        try:
            p = [float(c) for c in cats]
        except ValueError:
            bad = next(c for c in cats if not _is_number(c))
            raise AccordError(f"numeric dissimilarity: category {bad!r} is not a number") from None
        d = cls.ordinal(cats, p, delta_empty=delta_empty)
        d.kind = "numeric"
        return d

    def bind(self, categories: Sequence[str]) -> PairFunction:
        de = self.delta_empty
        if self.matrix is None:
            def nominal(s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
                        c2: np.ndarray) -> np.ndarray:
                return np.where(c1 == c2, 0.0, de)

            return nominal
        assert self.categories is not None
        pos = {c: i for i, c in enumerate(self.categories)}
        missing = [c for c in categories if c not in pos]
        if missing:
            raise AccordError(
                f"categor{'y' if len(missing) == 1 else 'ies'} {', '.join(map(repr, missing))} not in the "
                f"dissimilarity matrix (it knows {', '.join(map(repr, self.categories))})"
            )
        code = np.array([pos[c] for c in categories], dtype=np.int64)
        sub = self.matrix[np.ix_(code, code)] * de if len(code) else np.zeros((0, 0))

        def matrix(s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
                   c2: np.ndarray) -> np.ndarray:
            return sub[c1, c2]

        return matrix

    def describe(self) -> str:
        return f"categorical {self.kind} (Δ∅ = {self.delta_empty:g})"


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


class CombinedDissimilarity(Dissimilarity):
    r"""Position and category together: :math:`d = \alpha\, d_{pos} + \beta\, d_{cat}` (section 4.2.3).

    Parameters
    ----------
    alpha, beta : float, default 1
        Non-negative weights of the positional and the categorical parts.
    delta_empty : float, default 1
    positional : Dissimilarity, optional
        Default :class:`PositionalDissimilarity` with *delta_empty*.
    categorical : Dissimilarity, optional
        Default :meth:`CategoricalDissimilarity.nominal` with *delta_empty*.  Its
        values must be non-negative (the alignment's pruning relies on it).

    Notes
    -----
    Both parts are expressed in the same :math:`\Delta_\varnothing`; parts built with another
    ``delta_empty`` are refused.  (pygamma-agreement keeps the default
    categorical part at :math:`\Delta_\varnothing = 1` whatever the combined value; give it an
    explicit categorical part with the same ``delta_empty`` to compare.)

    Examples
    --------
    >>> CombinedDissimilarity(alpha=1, beta=2).describe()
    'combined 1 x positional + 2 x categorical nominal (Δ∅ = 1)'
    """

    def __init__(self, alpha: float = 1.0, beta: float = 1.0, *, delta_empty: float = 1.0,
                 positional: Dissimilarity | None = None, categorical: Dissimilarity | None = None) -> None:
        self.delta_empty = _check_delta(delta_empty)
        for name, v in (("alpha", alpha), ("beta", beta)):
            if not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise AccordError(f"{name} must be a non-negative number; got {v!r}")
        self.alpha, self.beta = float(alpha), float(beta)
        self.positional = positional if positional is not None else PositionalDissimilarity(self.delta_empty)
        self.categorical = (categorical if categorical is not None
                            else CategoricalDissimilarity.nominal(delta_empty=self.delta_empty))
        for name, part in (("positional", self.positional), ("categorical", self.categorical)):
            if not isinstance(part, Dissimilarity):
                raise AccordError(f"{name} must be a Dissimilarity; got {type(part).__name__}")
            if part.delta_empty != self.delta_empty:
                raise AccordError(
                    f"the {name} part has delta_empty={part.delta_empty:g} but the combined dissimilarity "
                    f"{self.delta_empty:g}; give both the same"
                )
        self.categories = self.categorical.categories

    def bind(self, categories: Sequence[str]) -> PairFunction:
        pos = self.positional.bind(categories)
        cat = self.categorical.bind(categories)
        a, b = self.alpha, self.beta

        def combined(s1: np.ndarray, e1: np.ndarray, c1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
                     c2: np.ndarray) -> np.ndarray:
            out = a * pos(s1, e1, c1, s2, e2, c2) if a else np.zeros(len(s1))
            if b:
                out = out + b * cat(s1, e1, c1, s2, e2, c2)
            return out

        return combined

    def reach(self, bound: float) -> float | None:
        if self.alpha == 0:
            return None
        r = self.positional.reach(bound / self.alpha)
        return r

    def describe(self) -> str:
        return (f"combined {self.alpha:g} x positional + {self.beta:g} x {self.categorical.describe()}")
