"""Text distances: normalised Levenshtein distance (rapidfuzz) and the Jaccard distance of token sets.

Free-text answers are mostly distinct, so the value domain is about as large as
the data: the edit distance is evaluated by rapidfuzz's compiled ``cdist`` /
``cpdist`` over blocks of the domain (no Python loop over values or units), and
the token-set Jaccard distance reuses the sparse set machinery of
:mod:`accord.distances._sets` on each text's set of tokens.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from accord._shared.errors import AccordError, choice_error
from accord._shared.names import shown
from accord.distances._base import DENSE_LIMIT, Distance, PreparedDistance, check_each_value

__all__ = ["Levenshtein", "TokenJaccard"]

Normalization = Literal["max", "metric"]
_NORMALIZATIONS = ("max", "metric")
_BLOCK = 1 << 22  # matrix cells per block of the expected sum


def _check_text(name: str) -> Any:
    def check(v: Any) -> None:
        if not isinstance(v, str):
            raise AccordError(f"the {name} distance needs text values; got {shown(v)}, which is not text")
    return check


def _texts(values: np.ndarray, name: str) -> list[str]:
    out = values.tolist()
    for v in out:
        if not isinstance(v, str):
            raise AccordError(f"the {name} distance needs text values; got {shown(v)}, which is not text")
    return out


class _PreparedLevenshtein(PreparedDistance):
    dense_ok = True

    def __init__(self, values: np.ndarray, counts: np.ndarray, normalization: Normalization, name: str) -> None:
        self.values, self.counts = values, counts
        self.texts = _texts(values, name)
        self.lengths = np.fromiter((len(t) for t in self.texts), dtype=float, count=len(self.texts))
        self.normalization = normalization
        self._matrix: np.ndarray | None = None

    def _normalise(self, lev: np.ndarray, la: np.ndarray, lb: np.ndarray) -> np.ndarray:
        lev = np.asarray(lev, dtype=float)
        if self.normalization == "max":
            den = np.maximum(la, lb)
        else:
            den = la + lb + lev
            lev = 2.0 * lev
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den == 0, 0.0, lev / np.where(den == 0, 1.0, den))

    def _block(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        from rapidfuzz.distance import Levenshtein as Lev
        from rapidfuzz.process import cdist

        t = self.texts
        lev = cdist([t[r] for r in rows.tolist()], [t[c] for c in cols.tolist()], scorer=Lev.distance,
                    dtype=np.int64)
        return self._normalise(lev, self.lengths[rows][:, None], self.lengths[cols][None, :])

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        from rapidfuzz.distance import Levenshtein as Lev
        from rapidfuzz.process import cpdist

        i = np.asarray(i, dtype=np.int64)
        j = np.asarray(j, dtype=np.int64)
        if len(i) == 0:
            return np.zeros(0)
        t = self.texts
        lev = cpdist([t[k] for k in i.tolist()], [t[k] for k in j.tolist()], scorer=Lev.distance, dtype=np.int64)
        return self._normalise(lev, self.lengths[i], self.lengths[j])

    def matrix(self) -> np.ndarray:
        """The V x V matrix, computed once (the bootstrap asks for the expected sum once per resample)."""
        if self._matrix is None:
            idx = np.arange(len(self.values))
            self._matrix = self._block(idx, idx)
        return self._matrix

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
        rows, cols = np.flatnonzero(a), np.flatnonzero(b)
        if len(rows) == 0 or len(cols) == 0:
            return 0.0
        if len(self.values) <= DENSE_LIMIT:
            return float(a @ self.matrix() @ b)
        step = max(1, _BLOCK // len(cols))
        total = 0.0
        for s in range(0, len(rows), step):
            r = rows[s:s + step]
            total += float(a[r] @ self._block(r, cols) @ b[cols])
        return total


class Levenshtein(Distance):
    """Normalised Levenshtein (edit) distance between texts, in [0, 1].

    lev(a, b) is the least number of single-character insertions, deletions
    and substitutions (each costing 1) turning a into b, counted in Python
    characters (code points), case and whitespace as given.

    Parameters
    ----------
    normalization : {"max", "metric"}
        ``"max"`` (default): lev(a, b) / max(|a|, |b|), rapidfuzz's
        ``Levenshtein.normalized_distance``.  It does not satisfy the triangle
        inequality ("ab" to "ba" is 1, but 1/3 + 1/3 through "bab"); alpha does
        not need it to.  ``"metric"``: 2 lev(a, b) / (|a| + |b| + lev(a, b)),
        Yujian and Bo's (2007) normalisation, which is a metric.
        Two empty texts: 0 under both.

    References
    ----------
    Levenshtein, V. I. (1966). Binary codes capable of correcting deletions,
    insertions, and reversals. Soviet Physics Doklady 10(8), 707-710.
    Yujian, L. & Bo, L. (2007). A normalized Levenshtein distance metric. IEEE
    Transactions on Pattern Analysis and Machine Intelligence 29(6), 1091-1095.

    Examples
    --------
    >>> Levenshtein()("kitten", "sitting")  # 3 edits over 7 characters
    0.42857142857142855
    >>> Levenshtein(normalization="metric")("kitten", "sitting")  # 2 * 3 / (6 + 7 + 3)
    0.375
    """

    name = "levenshtein"

    def check_data(self, data: Any) -> None:
        """Name the unit and coder of a value that is not text."""
        check_each_value(data, _check_text(self.name))

    def __init__(self, *, normalization: Normalization = "max") -> None:
        if normalization not in _NORMALIZATIONS:
            raise choice_error("normalization", normalization, _NORMALIZATIONS)
        self.normalization = normalization
        if normalization == "metric":
            self.name = "levenshtein-metric"

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        return _PreparedLevenshtein(values, counts, self.normalization, self.name)


def tokens(text: str) -> frozenset[str]:
    """The token set of a text: its maximal runs of non-whitespace characters (``str.split``), case kept.

    Examples
    --------
    >>> sorted(tokens("the cat  saw the\\tdog"))
    ['cat', 'dog', 'saw', 'the']
    """
    return frozenset(text.split())


class _PreparedOnSets(PreparedDistance):
    """A distance through a map of each value to a set: a set distance prepared on the distinct sets.

    Several values with the same set share one set code; the pairs and the
    expected sum run on the set codes (weights added up), so the set
    machinery sees each set once.
    """

    def __init__(self, values: np.ndarray, counts: np.ndarray, sets: list[frozenset], set_distance: Any) -> None:
        from pandas import factorize

        self.values, self.counts = values, counts
        holder = np.empty(len(sets), dtype=object)
        holder[:] = sets
        codes, uniques = factorize(holder)
        self.code = codes.astype(np.int64)
        distinct = np.empty(len(uniques), dtype=object)
        distinct[:] = list(uniques)
        self.n_sets = len(distinct)
        self.inner = set_distance.prepare(distinct, np.bincount(self.code, weights=counts, minlength=self.n_sets))
        self.dense_ok = self.inner.dense_ok
        self._matrix: np.ndarray | None = None  # over the distinct sets, once, for small domains

    def pairs(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return self.inner.pairs(self.code[np.asarray(i, dtype=np.int64)], self.code[np.asarray(j, dtype=np.int64)])

    def cross_sum(self, a: np.ndarray, b: np.ndarray) -> float:
        wa = np.bincount(self.code, weights=np.asarray(a, dtype=float), minlength=self.n_sets)
        wb = np.bincount(self.code, weights=np.asarray(b, dtype=float), minlength=self.n_sets)
        if self.n_sets <= DENSE_LIMIT:  # the bootstrap asks once per resample: one matrix, then products
            if self._matrix is None:
                self._matrix = self.inner.matrix()
            return float(wa @ self._matrix @ wb)
        return self.inner.cross_sum(wa, wb)  # pairs of values with one set add 0


class TokenJaccard(Distance):
    """Jaccard distance between the token sets of two texts: 1 - |A & B| / |A | B|, in [0, 1].

    A text's tokens are its maximal runs of non-whitespace characters
    (``str.split()``: any Unicode whitespace separates), case and punctuation
    kept, each token counted once.  Two texts without a token: 0.  A metric on
    token sets (two texts with the same tokens in another order are at 0).

    References
    ----------
    Jaccard, P. (1908). Nouvelles recherches sur la distribution florale.
    Bulletin de la Société vaudoise des sciences naturelles 44, 223-270.

    Examples
    --------
    >>> TokenJaccard()("the cat sat", "the cat ran")  # 2 shared of 4 tokens
    0.5
    """

    name = "token-jaccard"

    def check_data(self, data: Any) -> None:
        """Name the unit and coder of a value that is not text."""
        check_each_value(data, _check_text(self.name))

    def prepare(self, values: np.ndarray, counts: np.ndarray) -> PreparedDistance:
        from accord.distances._sets import Jaccard

        sets = [tokens(t) for t in _texts(values, self.name)]
        return _PreparedOnSets(values, counts, sets, Jaccard())
