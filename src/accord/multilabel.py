"""Augmented kappa for items with a primary and a secondary label.

Rosenberg & Binkowski (2004) let annotators give an item one label or an
ordered pair (primary, secondary).  An annotation becomes one *divided*
selection: a single label weighs 1, a primary weighs ``p`` and a secondary
``1 - p`` for a chosen ``0.5 <= p <= 1``.  Observed and expected agreement of
Cohen's kappa are then computed from these weights (their section 5), which
gives partial credit for the cases ``{ab, a}``, ``{ab, ba}``, ``{ab, ac}`` ...
At ``p = 1`` the secondary labels are ignored and ``K'`` is Cohen's kappa on
the primary labels.

This module holds

- :class:`MultiLabelData` (items x annotators, each cell an ordered tuple of
  labels) and its readers: long format with a ``rank`` column, and the compact
  form ``"a,b"`` (primary ``a``, secondary ``b``), from CSV, TSV or JSONL
  (:func:`read_multilabel`);
- the annotation matrices ``M_A`` (:func:`annotation_matrix`, the paper's
  Tables 2 and 3);
- ``K'`` for one ``p`` with the pairwise table and the average over annotator
  pairs (:func:`augmented_kappa`), its bootstrap confidence interval over items
  (:func:`bootstrap_augmented_kappa`);
- the sweep of ``K'`` and of per-item agreement over a grid of ``p``
  (:func:`augmented_kappa_sweep`) and the paper's four classes of items
  (:func:`classify_items`);
- the "sharpening" the paper leaves as future work: iterated annotator and item
  weights (:func:`sharpen`);
- Krippendorff's alpha with MASI on the same items read as label sets
  (:func:`masi_alpha`), the set-valued view of the same data.

Lists of three or more labels need a stated weighting rule (``rule=``):

``"pair"`` (default, the paper)
    one label weighs 1; a pair weighs ``p, 1 - p``; three or more labels are an
    error.
``"geometric"``
    each rank takes ``p`` of what is left, the last takes the rest:
    ``p, p(1 - p), p(1 - p)^2, ..., (1 - p)^(k - 1)``.
``"primary-rest"``
    the primary weighs ``p`` and the others share ``1 - p`` equally.
a callable ``rule(k, p) -> k weights``
    non-negative, summing to 1.

All rules agree with the paper on one and two labels.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._lazy import stats
from accord.errors import AccordError, AccordWarning, warn_undefined
from accord.results import Result

__all__ = [
    "ITEM_CLASSES",
    "AnnotationMatrix",
    "AugmentedKappaInterval",
    "AugmentedKappaResult",
    "AugmentedKappaSweep",
    "ItemClasses",
    "MultiLabelData",
    "PairAugmentedKappa",
    "SharpenedLabels",
    "annotation_matrix",
    "augmented_kappa",
    "augmented_kappa_sweep",
    "bootstrap_augmented_kappa",
    "classify_items",
    "load_multilabel_example",
    "masi_alpha",
    "read_multilabel",
    "sharpen",
]

RuleName = Literal["pair", "geometric", "primary-rest"]
WeightRule = RuleName | Callable[[int, float], Sequence[float]]
_RULES = ("pair", "geometric", "primary-rest")

#: The paper's four classes of items (section 6), in its order: Class 1 constant
#: high, Class 2 constant low, Class 3 better at p = 1, Class 4 better at p = 0.5.
ITEM_CLASSES: tuple[str, ...] = ("constant_high", "constant_low", "better_at_p1", "better_at_p05")

_DEFAULT_GRID = np.linspace(0.5, 1.0, 11)


# ====================================================================== data
def _missing(x: Any) -> bool:
    if x is None or x is pd.NA or x is pd.NaT:
        return True
    if isinstance(x, float | np.floating):
        return bool(np.isnan(x))
    return False


def _clean_label(x: Any) -> Any:
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, str):
        x = x.strip()
        return None if x == "" else x
    return None if _missing(x) else x


def _sortable(values: Sequence[Any]) -> bool:
    kinds = {type(v) for v in values}
    return kinds <= {str} or (bool(kinds) and all(issubclass(k, int | float) for k in kinds))


def _where(source: str | None, row: int) -> str:
    return f"{source}, line {row}" if source else f"row {row}"


class MultiLabelData:
    """Items labelled by annotators with ordered lists of labels.

    Each (annotator, item) cell holds an ordered tuple of distinct labels: one
    label, a (primary, secondary) pair, or longer lists that need a weighting
    rule; an empty cell means the annotator did not label the item.  Build it
    with :meth:`from_records` (compact ``"a,b"`` cells), :meth:`from_ranked`
    (one row per label with its rank), :meth:`from_dict` or
    :func:`read_multilabel`.

    Attributes
    ----------
    items, annotators, categories : tuple
        Items and annotators in order of first appearance; categories (the
        label vocabulary) as given, else sorted when the labels allow it.

    Examples
    --------
    Annotator A of Rosenberg & Binkowski (2004), Table 1:

    >>> data = MultiLabelData.from_dict(
    ...     {"A": {"Msg1": "a,b", "Msg2": "b,a", "Msg3": "b", "Msg4": "c", "Msg5": "c,b"}},
    ...     categories=["a", "b", "c", "d"],
    ... )
    >>> data
    MultiLabelData(5 items, 1 annotators, 4 categories, 5 labelled cells, at most 2 labels per cell)
    >>> data.labels_of("A", "Msg5")
    ('c', 'b')
    """

    __slots__ = ("_lengths", "_ranks", "annotators", "categories", "items", "source")

    def __init__(
        self,
        ranks: np.ndarray,
        lengths: np.ndarray,
        *,
        items: Sequence[Hashable],
        annotators: Sequence[Hashable],
        categories: Sequence[Hashable],
        source: str | None = None,
    ) -> None:
        # internal constructor: the public ones validate and call this
        self._ranks = ranks
        self._lengths = lengths
        self._ranks.flags.writeable = False
        self._lengths.flags.writeable = False
        self.items = tuple(items)
        self.annotators = tuple(annotators)
        self.categories = tuple(categories)
        self.source = source

    # ------------------------------------------------------------------ sizes
    @property
    def n_items(self) -> int:
        """Number of items."""
        return len(self.items)

    @property
    def n_annotators(self) -> int:
        """Number of annotators."""
        return len(self.annotators)

    @property
    def n_categories(self) -> int:
        """Number of categories (labels) in the vocabulary."""
        return len(self.categories)

    @property
    def labelled(self) -> np.ndarray:
        """Boolean array (annotators x items): the annotator labelled the item."""
        return self._lengths > 0

    @property
    def max_labels(self) -> int:
        """The longest list of labels in any cell."""
        return int(self._lengths.max()) if self._lengths.size else 0

    @property
    def annotators_per_item(self) -> np.ndarray:
        """Number of annotators who labelled each item."""
        return self.labelled.sum(axis=0)

    @property
    def unpaired_items(self) -> tuple[Hashable, ...]:
        """Items labelled by fewer than two annotators (they enter no pair)."""
        return tuple(np.asarray(self.items, dtype=object)[self.annotators_per_item < 2])

    def __repr__(self) -> str:
        return (
            f"MultiLabelData({self.n_items} items, {self.n_annotators} annotators, "
            f"{self.n_categories} categories, {int(self.labelled.sum())} labelled cells, "
            f"at most {self.max_labels} labels per cell)"
        )

    def labels_of(self, annotator: Hashable, item: Hashable) -> tuple[Hashable, ...]:
        """The ordered labels *annotator* gave *item* (empty when unlabelled)."""
        try:
            a = self.annotators.index(annotator)
        except ValueError:
            raise AccordError(
                f"annotator must be one of {list(self.annotators)!r}; got {annotator!r}"
            ) from None
        try:
            i = self.items.index(item)
        except ValueError:
            raise AccordError(f"item {item!r} is not in the data") from None
        row = self._ranks[a, i]
        order = np.argsort(row[row > 0])
        return tuple(np.asarray(self.categories, dtype=object)[np.flatnonzero(row)][order])

    def to_frame(self) -> pd.DataFrame:
        """Long view: one row per (item, annotator, label) with its ``rank`` (1 = primary)."""
        a, i, c = np.nonzero(self._ranks)
        r = self._ranks[a, i, c].astype(np.int64)
        order = np.lexsort((r, a, i))  # items, then annotators, in their order here; then rank
        a, i, c, r = a[order], i[order], c[order], r[order]
        return pd.DataFrame(
            {
                "item": np.asarray(self.items, dtype=object)[i],
                "annotator": np.asarray(self.annotators, dtype=object)[a],
                "label": np.asarray(self.categories, dtype=object)[c],
                "rank": r,
            }
        )

    def select_annotators(self, annotators: Sequence[Hashable]) -> MultiLabelData:
        """The same items restricted to some annotators (in the order given)."""
        idx = []
        for a in annotators:
            if a not in self.annotators:
                raise AccordError(f"annotators: {a!r} is not one of {list(self.annotators)!r}")
            idx.append(self.annotators.index(a))
        return MultiLabelData(
            self._ranks[idx].copy(),
            self._lengths[idx].copy(),
            items=self.items,
            annotators=[self.annotators[k] for k in idx],
            categories=self.categories,
            source=self.source,
        )

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_records(
        cls,
        records: Any,
        *,
        item: str = "item",
        annotator: str = "annotator",
        labels: str = "labels",
        sep: str = ",",
        categories: Sequence[Hashable] | None = None,
        source: str | None = None,
        row_numbers: Sequence[int] | None = None,
    ) -> MultiLabelData:
        """Build from compact records: one (item, annotator, labels) per row.

        Parameters
        ----------
        records : DataFrame or iterable
            A pandas or polars DataFrame with the named columns, or an iterable
            of ``(item, annotator, labels)`` tuples or of mappings.
        item, annotator, labels : str
            Column names (or mapping keys).
        sep : str
            Separator inside a string cell: ``"a,b"`` is primary ``a``,
            secondary ``b``.  A list or tuple cell is taken in its order.
            An empty cell (``""``, None, NaN) means "not labelled".
        categories : sequence, optional
            The label vocabulary (columns of ``M_A``); a label outside it is an
            error.  Default: the labels seen.
        source, row_numbers : optional
            File name and line numbers for messages.

        Raises
        ------
        AccordError
            A secondary without a primary (``",b"``), an empty label inside a
            list, a label twice in one cell, an unordered set of two or more
            labels, one annotator labelling one item on two rows.

        Examples
        --------
        >>> MultiLabelData.from_records([("m1", "A", "q,a"), ("m1", "B", "a")]).labels_of("A", "m1")
        ('q', 'a')
        """
        if not isinstance(sep, str) or sep == "":
            raise AccordError(f"sep must be a non-empty string; got {sep!r}")
        it, an, lab = _columns(records, (item, annotator, labels), source)
        rows = np.asarray(row_numbers) if row_numbers is not None else np.arange(1, len(it) + 1)
        parsed = [
            _parse_cell(x, sep, lambda k=k: f"{_where(source, int(rows[k]))} ({item} {it[k]!r}, "
                        f"{annotator} {an[k]!r})")
            for k, x in enumerate(lab)
        ]
        counts = np.fromiter((len(p) for p in parsed), dtype=np.int64, count=len(parsed))
        row_of = np.repeat(np.arange(len(parsed)), counts)
        flat_labels = _object_array([x for p in parsed for x in p])
        flat_ranks = np.concatenate([np.arange(1, c + 1) for c in counts]) if len(counts) else np.zeros(0)
        return cls._build(
            it, an, row_of, flat_labels, flat_ranks.astype(np.int64),
            categories=categories, source=source, rows=rows, compact=True,
            names=(item, annotator),
        )

    @classmethod
    def from_ranked(
        cls,
        records: Any,
        *,
        item: str = "item",
        annotator: str = "annotator",
        label: str = "label",
        rank: str = "rank",
        categories: Sequence[Hashable] | None = None,
        source: str | None = None,
        row_numbers: Sequence[int] | None = None,
    ) -> MultiLabelData:
        """Build from long records: one (item, annotator, label, rank) per row.

        ``rank`` 1 is the primary label, 2 the secondary, and so on; the ranks
        of one annotator on one item must be 1, 2, ..., k.

        Raises
        ------
        AccordError
            A missing label, a rank that is not a positive integer, a secondary
            (rank 2) without a primary (rank 1) or any other gap, two labels
            with one rank, one label twice.

        Examples
        --------
        >>> data = MultiLabelData.from_ranked(
        ...     [("m1", "A", "a", 2), ("m1", "A", "q", 1), ("m1", "B", "a", 1)]
        ... )
        >>> data.labels_of("A", "m1"), data.labels_of("B", "m1")
        (('q', 'a'), ('a',))
        """
        it, an, lab, rk = _columns(records, (item, annotator, label, rank), source)
        rows = np.asarray(row_numbers) if row_numbers is not None else np.arange(1, len(it) + 1)
        labels_clean = _object_array([_clean_label(x) for x in lab])
        bad = [k for k, x in enumerate(labels_clean) if x is None]
        if bad:
            raise AccordError(f"{_where(source, int(rows[bad[0]]))}: the {label!r} column is empty")
        ranks = np.zeros(len(rk), dtype=np.int64)
        for k, r in enumerate(rk):  # validation of user input, one pass
            try:
                f = float(r)
            except (TypeError, ValueError):
                f = math.nan
            if not (math.isfinite(f) and f == int(f) and f >= 1):
                raise AccordError(
                    f"{_where(source, int(rows[k]))}: {rank} must be a positive integer (1 = primary, "
                    f"2 = secondary, ...); got {r!r}"
                )
            ranks[k] = int(f)
        return cls._build(
            it, an, np.arange(len(it)), labels_clean, ranks,
            categories=categories, source=source, rows=rows, compact=False,
            names=(item, annotator),
        )

    @classmethod
    def from_dict(
        cls,
        mapping: Mapping[Hashable, Mapping[Hashable, Any] | Sequence[Any]],
        *,
        items: Sequence[Hashable] | None = None,
        sep: str = ",",
        categories: Sequence[Hashable] | None = None,
    ) -> MultiLabelData:
        """Build from ``{annotator: {item: labels}}`` (or ``{annotator: [labels per item]}``).

        With lists, *items* names the items (default 0, 1, 2, ...).  Cells are
        as in :meth:`from_records`.

        Examples
        --------
        >>> MultiLabelData.from_dict({"A": ["a", "a,b"], "B": ["a", "b"]}).items
        (0, 1)
        """
        records = []
        for a, cells in mapping.items():
            if isinstance(cells, Mapping):
                records.extend((i, a, v) for i, v in cells.items())
            else:
                cells = list(cells)
                names = list(items) if items is not None else list(range(len(cells)))
                if len(names) != len(cells):
                    raise AccordError(
                        f"items has {len(names)} names but annotator {a!r} has {len(cells)} cells"
                    )
                records.extend((i, a, v) for i, v in zip(names, cells, strict=True))
        if not records:
            raise AccordError("mapping holds no annotations")
        return cls.from_records(records, item="item", annotator="annotator", labels="labels", sep=sep,
                                categories=categories)

    # ---------------------------------------------------------------- builder
    @classmethod
    def _build(
        cls,
        row_items: Any,
        row_annotators: Any,
        label_row: np.ndarray,
        labels: np.ndarray,
        ranks: np.ndarray,
        *,
        categories: Sequence[Hashable] | None,
        source: str | None,
        rows: np.ndarray,
        compact: bool,
        names: tuple[str, str],
    ) -> MultiLabelData:
        """Validate long arrays and intern them.

        *row_items*, *row_annotators*: one entry per input row; *label_row*,
        *labels*, *ranks*: one entry per label, pointing at its input row.
        """
        it = _object_array([_clean_label(x) for x in row_items])
        an = _object_array([_clean_label(x) for x in row_annotators])
        for col, name in ((it, names[0]), (an, names[1])):
            empty = [k for k, x in enumerate(col) if x is None]
            if empty:
                raise AccordError(f"{_where(source, int(rows[empty[0]]))}: the {name!r} column is empty")
        icode, item_table = pd.factorize(it, sort=False)
        acode, annot_table = pd.factorize(an, sort=False)
        n_items, n_annot = len(item_table), len(annot_table)

        def at(k: int) -> str:
            return f"{_where(source, int(rows[k]))} ({names[0]} {it[k]!r}, {names[1]} {an[k]!r})"

        if compact:
            cell = acode.astype(np.int64) * n_items + icode
            uniq, first, counts = np.unique(cell, return_index=True, return_counts=True)
            if (counts > 1).any():
                dup = uniq[counts > 1][0]
                k1, k2 = np.flatnonzero(cell == dup)[:2]
                raise AccordError(
                    f"{at(int(k2))}: this annotator already labelled this item at "
                    f"{_where(source, int(rows[k1]))}; give all labels of one item in one cell"
                )

        # categories
        if categories is not None:
            cat_table = list(categories)
            if len(set(cat_table)) != len(cat_table):
                raise AccordError(f"categories must be distinct; got {cat_table!r}")
            index = pd.Index(_object_array(cat_table))
            ccode = index.get_indexer(labels) if len(labels) else np.zeros(0, dtype=np.int64)
            if (ccode < 0).any():
                k = int(np.flatnonzero(ccode < 0)[0])
                raise AccordError(
                    f"{at(int(label_row[k]))}: label {labels[k]!r} is not one of categories {cat_table!r}"
                )
        else:
            ccode, uniques = pd.factorize(labels, sort=False)
            cat_table = list(uniques)
            if _sortable(cat_table) and len(cat_table) > 1:
                order = np.argsort(np.asarray(cat_table, dtype=object), kind="stable")
                remap = np.empty(len(order), dtype=np.int64)
                remap[order] = np.arange(len(order))
                ccode = remap[ccode] if len(ccode) else ccode
                cat_table = [cat_table[k] for k in order]
        n_cat = len(cat_table)
        if n_cat == 0:
            raise AccordError(f"{source or 'data'}: no labels at all")

        la = acode[label_row].astype(np.int64)
        li = icode[label_row].astype(np.int64)
        cellkey = la * n_items + li
        # one label twice in one cell
        key = cellkey * n_cat + ccode
        uniq, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
        if (counts > 1).any():
            k = int(np.flatnonzero(counts[inv] > 1)[-1])
            raise AccordError(f"{at(int(label_row[k]))}: label {labels[k]!r} given twice")
        # two labels with one rank
        max_rank = int(ranks.max()) if len(ranks) else 0
        rkey = cellkey * (max_rank + 1) + ranks
        uniq, inv, counts = np.unique(rkey, return_inverse=True, return_counts=True)
        if (counts > 1).any():
            k = int(np.flatnonzero(counts[inv] > 1)[-1])
            raise AccordError(f"{at(int(label_row[k]))}: two labels with rank {int(ranks[k])}")
        # ranks 1..k without gaps
        n_cells = n_annot * n_items
        lengths = np.bincount(cellkey, minlength=n_cells)
        top = np.zeros(n_cells, dtype=np.int64)
        np.maximum.at(top, cellkey, ranks)
        gap = np.flatnonzero(top != lengths)
        if gap.size:
            c = int(gap[0])
            present = set(ranks[cellkey == c].tolist())
            missing = min(set(range(1, top[c] + 1)) - present)
            k = int(np.flatnonzero(cellkey == c)[0])
            if missing == 1:
                what = "a secondary label (rank 2 or later) without a primary (rank 1)"
            else:
                later = missing + 1 if missing + 1 in present else max(present)
                what = f"rank {later} without rank {missing}"
            raise AccordError(f"{at(int(label_row[k]))}: {what}")
        if max_rank > np.iinfo(np.int16).max:
            raise AccordError(
                f"{source or 'data'}: a cell holds {max_rank} labels; at most 32767 are supported"
            )
        rank_arr = np.zeros((n_annot, n_items, n_cat), dtype=np.int16)
        rank_arr[la, li, ccode] = ranks
        return cls(
            rank_arr,
            lengths.reshape(n_annot, n_items).astype(np.int16),
            items=list(item_table),
            annotators=list(annot_table),
            categories=cat_table,
            source=source,
        )


def _object_array(items: Iterable[Any]) -> np.ndarray:
    items = list(items)
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


def _parse_cell(x: Any, sep: str, where: Callable[[], str]) -> tuple[Any, ...]:
    """One compact cell -> ordered tuple of labels (empty: not labelled)."""
    if isinstance(x, np.ndarray):
        x = x.tolist()
    if isinstance(x, str):
        parts: list[Any] = [p.strip() for p in x.split(sep)]
        if all(p == "" for p in parts):
            return ()
        parts = [p if p != "" else None for p in parts]
    elif isinstance(x, set | frozenset):
        if len(x) > 1:
            raise AccordError(
                f"{where()}: labels given as an unordered set {sorted(x, key=repr)!r}; give an ordered "
                "list (primary first) or a string such as 'a,b'"
            )
        parts = [_clean_label(v) for v in x]
    elif isinstance(x, list | tuple):
        parts = [_clean_label(v) for v in x]
    elif _missing(x):
        return ()
    else:
        parts = [_clean_label(x)]
    if all(p is None for p in parts):
        return ()
    if parts[0] is None:
        raise AccordError(f"{where()}: a secondary label without a primary ({x!r})")
    if any(p is None for p in parts):
        k = parts.index(None)
        raise AccordError(f"{where()}: empty label at position {k + 1} of {x!r}")
    return tuple(parts)


def _columns(records: Any, names: tuple[str, ...], source: str | None) -> list[np.ndarray]:
    """Extract named columns from a DataFrame (pandas, or anything narwhals reads) or an iterable."""
    is_frame = hasattr(records, "columns") and not isinstance(records, Mapping)
    if is_frame and not isinstance(records, pd.DataFrame):
        try:
            import narwhals as nw

            frame = nw.from_native(records, eager_only=False)
            if isinstance(frame, nw.LazyFrame):
                frame = frame.collect()
            records = frame.to_pandas()
        except TypeError:
            pass
    if isinstance(records, pd.DataFrame):
        missing = [c for c in names if c not in records.columns]
        if missing:
            raise AccordError(
                f"{source or 'data'}: missing column {missing[0]!r}; columns are "
                f"{', '.join(repr(str(c)) for c in records.columns)}"
            )
        if len(records) == 0:
            raise AccordError(f"{source or 'data'}: no rows")
        return [_object_array(records[c].tolist()) for c in names]
    rows = list(records)
    if not rows:
        raise AccordError(f"{source or 'data'}: no records")
    if isinstance(rows[0], Mapping):
        for k, r in enumerate(rows):
            for c in names:
                if c not in r:
                    raise AccordError(f"{_where(source, k + 1)}: record has no key {c!r}")
        return [_object_array(r[c] for r in rows) for c in names]
    for k, r in enumerate(rows):
        if isinstance(r, str | bytes) or not isinstance(r, Sequence) or len(r) != len(names):
            raise AccordError(
                f"{_where(source, k + 1)}: a record must be ({', '.join(names)}); got {r!r}"
            )
    return [_object_array(r[j] for r in rows) for j in range(len(names))]


# =================================================================== readers
def read_multilabel(
    path: str | Path,
    *,
    format: Literal["auto", "compact", "ranked"] = "auto",
    item: str = "item",
    annotator: str = "annotator",
    labels: str = "labels",
    label: str = "label",
    rank: str = "rank",
    sep: str = ",",
    categories: Sequence[Hashable] | None = None,
) -> MultiLabelData:
    """Read multi-label annotations from CSV, TSV, JSONL or Parquet.

    Parameters
    ----------
    path : str or Path
        ``.csv``, ``.tsv``, ``.jsonl`` / ``.ndjson`` (one JSON object a line) or
        ``.parquet``, read by :func:`accord.io.read_table`.
    format : {"auto", "compact", "ranked"}
        ``"compact"``: columns *item*, *annotator*, *labels*, a cell such as
        ``"a,b"`` (in JSONL also a list ``["a", "b"]``).  ``"ranked"``: columns
        *item*, *annotator*, *label*, *rank*, one row per label.  ``"auto"``:
        ranked when the file has a *rank* column, else compact.
    item, annotator, labels, label, rank : str
        Column names.
    sep : str
        Separator inside a compact cell.
    categories : sequence, optional
        The label vocabulary; default the labels seen.

    Returns
    -------
    MultiLabelData

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> f = os.path.join(d, "x.csv")
    >>> _ = open(f, "w").write('item,annotator,labels\\nm1,A,"q,a"\\nm1,B,a\\n')
    >>> read_multilabel(f).labels_of("A", "m1")
    ('q', 'a')
    """
    if format not in ("auto", "compact", "ranked"):
        raise AccordError(f"format must be 'auto', 'compact' or 'ranked'; got {format!r}")
    from accord.io import read_table

    p = Path(path)
    frame, lines = read_table(p, convert=False)
    frame = frame.astype(object)
    lines = lines.tolist()
    fmt = format
    if fmt == "auto":
        fmt = "ranked" if rank in frame.columns else "compact"
    if fmt == "ranked":
        return MultiLabelData.from_ranked(
            frame, item=item, annotator=annotator, label=label, rank=rank, categories=categories,
            source=str(p), row_numbers=lines,
        )
    return MultiLabelData.from_records(
        frame, item=item, annotator=annotator, labels=labels, sep=sep, categories=categories,
        source=str(p), row_numbers=lines,
    )


def load_multilabel_example() -> MultiLabelData:
    """The bundled example: a small **synthetic** data set (not from the paper).

    Three annotators (``ann1``-``ann3``) label 24 messages with one or two of
    five email categories, six messages built for each of the four classes of
    Rosenberg & Binkowski (2004, section 6); a 25th message is labelled by
    ``ann1`` only, to show how such items are reported.  Written by hand; see
    ``docs/multilabel.md``.

    Examples
    --------
    >>> load_multilabel_example()
    MultiLabelData(25 items, 3 annotators, 5 categories, 73 labelled cells, at most 2 labels per cell)
    """
    ref = resources.files("accord").joinpath("datasets", "multilabel_example.csv")
    with resources.as_file(ref) as path:
        return read_multilabel(path)


# ======================================================= weights and matrices
def _check_p(p: Any, name: str = "p") -> float:
    if isinstance(p, bool | np.bool_):
        raise AccordError(f"{name} must be a number in [0.5, 1]; got {p!r}")
    try:
        f = float(p)
    except (TypeError, ValueError):
        raise AccordError(f"{name} must be a number in [0.5, 1]; got {p!r}") from None
    if not (0.5 <= f <= 1.0):
        raise AccordError(f"{name} must be in [0.5, 1] (the weight of the primary label); got {p!r}")
    return f


def _rule_name(rule: WeightRule) -> str:
    return rule if isinstance(rule, str) else getattr(rule, "__name__", repr(rule))


def _check_rule(rule: Any, data: MultiLabelData) -> None:
    if callable(rule):
        return
    if rule not in _RULES:
        raise AccordError(f"rule must be one of {', '.join(map(repr, _RULES))} or a callable; got {rule!r}")
    if rule == "pair" and data.max_labels > 2:
        a, i = np.argwhere(data._lengths > 2)[0]
        raise AccordError(
            f"annotator {data.annotators[a]!r} gave item {data.items[i]!r} "
            f"{int(data._lengths[a, i])} labels; "
            "the paper's rule='pair' weighs at most a primary and a secondary; state a rule for longer lists "
            "(rule='geometric', 'primary-rest' or a callable)"
        )


def _weight_table(rule: WeightRule, p: float, max_len: int) -> np.ndarray:
    """T[k, r]: weight of the label of rank r (1-based) in a list of k labels; T[k, 0] = 0."""
    table = np.zeros((max_len + 1, max_len + 1))
    for k in range(1, max_len + 1):  # loop over list lengths, not items
        if k == 1:
            w = np.ones(1)
        elif rule == "pair" or rule == "primary-rest":
            w = np.full(k, (1 - p) / (k - 1))
            w[0] = p
        elif rule == "geometric":
            w = p * (1 - p) ** np.arange(k)
            w[-1] = (1 - p) ** (k - 1)
        else:
            try:
                w = np.asarray(rule(k, p), dtype=float)  # type: ignore[operator]
            except Exception as exc:  # a user callable may fail in any way
                raise AccordError(f"rule {_rule_name(rule)!r} failed for k={k}, p={p}: {exc}") from None
            if w.shape != (k,) or not np.all(np.isfinite(w)) or (w < 0).any() or abs(w.sum() - 1) > 1e-9:
                raise AccordError(
                    f"rule must return {k} non-negative weights summing to 1 for k={k}, p={p}; "
                    f"got {w.tolist()}"
                )
        table[k, 1 : k + 1] = w
    return table


def _matrices(data: MultiLabelData, p: float, rule: WeightRule) -> np.ndarray:
    """All annotation matrices M (annotators x items x categories) at one p."""
    table = _weight_table(rule, p, max(data.max_labels, 1))
    return table[data._lengths[..., None], data._ranks]


@dataclass(frozen=True)
class AnnotationMatrix(Result):
    """One annotator's annotation matrix ``M_A`` and label frequencies (Rosenberg & Binkowski 2004, 5.1-5.2).

    Attributes
    ----------
    annotator : hashable
    p : float
        Weight of a primary label.
    rule : str
        Weighting rule for lists of labels.
    items : tuple
        The items the annotator labelled (the rows; N of them).
    categories : tuple
        The columns.
    matrix : numpy.ndarray
        N x M weights (1 single label, p primary, 1 - p secondary, 0 otherwise).
    column_totals : numpy.ndarray
        Column sums of ``matrix`` (the "Total" row of the paper's Table 2).
    frequencies : numpy.ndarray
        ``Freq_A = column_totals / N`` (the paper's Table 3).
    n_items : int
    """

    annotator: Hashable
    p: float
    rule: str
    items: tuple[Hashable, ...]
    categories: tuple[Hashable, ...]
    matrix: np.ndarray
    column_totals: np.ndarray
    frequencies: np.ndarray
    n_items: int

    def to_frame(self) -> pd.DataFrame:
        """The matrix with a ``Total`` row, as the paper's Table 2."""
        frame = pd.DataFrame(self.matrix, index=list(self.items), columns=list(self.categories))
        frame.loc["Total"] = self.column_totals
        return frame


def annotation_matrix(
    data: MultiLabelData, annotator: Hashable, *, p: float, rule: WeightRule = "pair"
) -> AnnotationMatrix:
    """The annotation matrix ``M_A`` of one annotator at weight *p*.

    Parameters
    ----------
    data : MultiLabelData
    annotator : hashable
        One of ``data.annotators``.
    p : float
        Weight of the primary label, ``0.5 <= p <= 1``.
    rule : {"pair", "geometric", "primary-rest"} or callable
        Weighting rule (see the module docstring).

    Returns
    -------
    AnnotationMatrix

    Notes
    -----
    ``M_A[x, y] = 1`` if A marked only label y for item x, ``p`` if y is A's
    primary label, ``1 - p`` if it is the secondary, 0 otherwise; rows are the
    N items A labelled.  ``Freq_A[y] = sum_x M_A[x, y] / N``.

    References
    ----------
    Rosenberg & Binkowski (2004), sections 5.1-5.2, Tables 1-3.

    Examples
    --------
    >>> data = MultiLabelData.from_dict(
    ...     {"A": {"Msg1": "a,b", "Msg2": "b,a", "Msg3": "b", "Msg4": "c", "Msg5": "c,b"}},
    ...     categories=["a", "b", "c", "d"],
    ... )
    >>> m = annotation_matrix(data, "A", p=0.6)
    >>> m.column_totals
    array([1. , 2.4, 1.6, 0. ])
    >>> m.frequencies
    array([0.2 , 0.48, 0.32, 0.  ])
    """
    if not isinstance(data, MultiLabelData):
        raise AccordError(f"data must be MultiLabelData; got {type(data).__name__}")
    if annotator not in data.annotators:
        raise AccordError(f"annotator must be one of {list(data.annotators)!r}; got {annotator!r}")
    pf = _check_p(p)
    _check_rule(rule, data)
    a = data.annotators.index(annotator)
    rows = data.labelled[a]
    m = _matrices(data, pf, rule)[a][rows]
    n = int(rows.sum())
    totals = m.sum(axis=0)
    return AnnotationMatrix(
        annotator=annotator,
        p=pf,
        rule=_rule_name(rule),
        items=tuple(np.asarray(data.items, dtype=object)[rows]),
        categories=data.categories,
        matrix=m,
        column_totals=totals,
        frequencies=totals / n if n else np.full(len(totals), np.nan),
        n_items=n,
    )


# ================================================================ the kappa
@dataclass(frozen=True)
class PairAugmentedKappa(Result):
    """``K'`` of one pair of annotators on the items both labelled.

    Attributes
    ----------
    annotator_a, annotator_b : hashable
    kappa : float
        ``K' = (p(A) - p(E)) / (1 - p(E))``; NaN when undefined.
    observed_agreement : float
        ``p(A)``.
    expected_agreement : float
        ``p(E)``.
    n_items : int
        Items labelled by both.
    reason : str or None
        Why ``kappa`` is undefined.
    """

    annotator_a: Hashable
    annotator_b: Hashable
    kappa: float
    observed_agreement: float
    expected_agreement: float
    n_items: int
    reason: str | None = None


@dataclass(frozen=True)
class AugmentedKappaResult(Result):
    """Augmented kappa ``K'`` at one primary weight ``p`` (Rosenberg & Binkowski 2004).

    Attributes
    ----------
    kappa : float
        ``K'`` for two annotators; with more, the mean of the pairwise ``K'``
        over the pairs where it is defined (the paper's "average kappa across
        the three annotators").
    p : float
    rule : str
    observed_agreement, expected_agreement : float
        ``p(A)`` and ``p(E)`` (means over pairs with more than two annotators;
        ``kappa`` is the mean of the pairwise kappas, not computed from these).
    pairs : tuple of PairAugmentedKappa
        The pairwise table (see :meth:`to_frame`).
    n_items : int
        Items labelled by at least two annotators.
    n_annotators, n_categories : int
    n_items_unpaired : int
        Items labelled by fewer than two annotators: they enter no pair.
    unpaired_items : tuple
    n_pairs_undefined : int
        Pairs whose ``K'`` is undefined and left out of the mean.
    reason : str or None
        Why ``kappa`` is NaN, or which pairs were left out.
    """

    kappa: float
    p: float
    rule: str
    observed_agreement: float
    expected_agreement: float
    pairs: tuple[PairAugmentedKappa, ...]
    n_items: int
    n_annotators: int
    n_categories: int
    n_items_unpaired: int
    unpaired_items: tuple[Hashable, ...]
    n_pairs_undefined: int
    reason: str | None = None
    _data: MultiLabelData | None = field(default=None, repr=False, compare=False)
    _rule: Any = field(default="pair", repr=False, compare=False)

    def to_frame(self) -> pd.DataFrame:
        """The pairwise table: one row per pair of annotators."""
        return pd.DataFrame([pair.to_dict() for pair in self.pairs])

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 2000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap interval for ``kappa``, resampling items (see :func:`bootstrap_augmented_kappa`)."""
        if self._data is None:  # pragma: no cover - results are built by augmented_kappa
            raise AccordError("this result does not carry its data; call bootstrap_augmented_kappa")
        ci = bootstrap_augmented_kappa(
            self._data, p=self.p, rule=self._rule, confidence_level=confidence_level,
            n_resamples=n_resamples, method=method, rng=rng,
        )
        return ci.low, ci.high


def _pairs(n: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(n), 2))


def _pair_core(
    m: np.ndarray, lab: np.ndarray, pairs: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per pair: n, p(A), p(E); per pair and item: agreement sum_y M_a M_b (NaN where not shared).

    Returns n (P,), pa (P,), pe (P,), agree (P, N), shared (P, N).
    """
    n_pairs, n_items = len(pairs), m.shape[1]
    n = np.zeros(n_pairs)
    pa = np.full(n_pairs, np.nan)
    pe = np.full(n_pairs, np.nan)
    agree = np.full((n_pairs, n_items), np.nan)
    shared = np.zeros((n_pairs, n_items), dtype=bool)
    for k, (a, b) in enumerate(pairs):  # loop over annotator pairs, vectorised over items
        mask = lab[a] & lab[b]
        shared[k] = mask
        cnt = int(mask.sum())
        n[k] = cnt
        if cnt == 0:
            continue
        ag = np.einsum("ic,ic->i", m[a], m[b])
        agree[k, mask] = ag[mask]
        pa[k] = ag[mask].sum() / cnt
        fa = m[a][mask].sum(axis=0) / cnt
        fb = m[b][mask].sum(axis=0) / cnt
        pe[k] = float(fa @ fb)
    return n, pa, pe, agree, shared


def _kappa_from(pa: np.ndarray, pe: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        k = (pa - pe) / (1 - pe)
    return np.where(np.isclose(pe, 1.0, rtol=0, atol=1e-12), np.nan, k)


def _pair_reason(n: float, pe: float) -> str | None:
    if n == 0:
        return "no items labelled by both annotators"
    if np.isclose(pe, 1.0, rtol=0, atol=1e-12):
        return "expected agreement p(E) = 1: both annotators gave every item the same single label"
    return None


def _validate(data: Any, rule: Any) -> None:
    if not isinstance(data, MultiLabelData):
        raise AccordError(
            f"data must be MultiLabelData (see MultiLabelData.from_records / read_multilabel); "
            f"got {type(data).__name__}"
        )
    if data.n_annotators < 2:
        raise AccordError(
            f"data must have at least two annotators for agreement; got {data.n_annotators} "
            f"({list(data.annotators)!r})"
        )
    _check_rule(rule, data)


def augmented_kappa(data: MultiLabelData, *, p: float, rule: WeightRule = "pair") -> AugmentedKappaResult:
    """Augmented kappa ``K'`` for items with primary and secondary labels.

    Parameters
    ----------
    data : MultiLabelData
        Two or more annotators.
    p : float
        Weight of the primary label, ``0.5 <= p <= 1`` (the paper's p; a
        secondary weighs ``1 - p``, a single label 1).  ``p = 1`` ignores
        secondary labels: ``K'`` is then Cohen's kappa on the primaries.
    rule : {"pair", "geometric", "primary-rest"} or callable
        Weighting rule for lists of labels (see the module docstring); the
        default is the paper's and rejects three or more labels.

    Returns
    -------
    AugmentedKappaResult
        ``kappa`` (the mean over annotator pairs with more than two
        annotators), ``p(A)``, ``p(E)`` and the pairwise table.

    Notes
    -----
    For annotators A and B and the N items both labelled, with annotation
    matrices ``M_A``, ``M_B`` (N x M):

    .. math::

        p(A) = \\frac{1}{N} \\sum_{x, y} M_A[x, y] M_B[x, y], \\qquad
        p(E) = \\sum_y Freq_A[y] Freq_B[y], \\qquad
        Freq_A[y] = \\frac{1}{N} \\sum_x M_A[x, y],

        K' = \\frac{p(A) - p(E)}{1 - p(E)}.

    Items labelled by one annotator only enter no pair; they are counted in
    ``n_items_unpaired``.  ``K'`` is undefined (NaN, with a warning and a
    ``reason``) when ``p(E) = 1`` or the pair shares no item.

    References
    ----------
    Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
    determine interannotator reliability for multiply labeled data points.
    HLT-NAACL 2004, section 5.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> round(augmented_kappa(data, p=1.0).kappa, 4)
    0.5556
    >>> round(augmented_kappa(data, p=0.5).kappa, 4)
    0.4
    """
    pf = _check_p(p)
    _validate(data, rule)
    m = _matrices(data, pf, rule)
    pairs = _pairs(data.n_annotators)
    n, pa, pe, _, _ = _pair_core(m, data.labelled, pairs)
    kap = _kappa_from(pa, pe)
    table = tuple(
        PairAugmentedKappa(
            annotator_a=data.annotators[a],
            annotator_b=data.annotators[b],
            kappa=float(kap[k]),
            observed_agreement=float(pa[k]),
            expected_agreement=float(pe[k]),
            n_items=int(n[k]),
            reason=_pair_reason(n[k], pe[k]),
        )
        for k, (a, b) in enumerate(pairs)
    )
    undefined = [t for t in table if t.reason is not None]
    defined = np.isfinite(kap)
    reason = None
    if not defined.any():
        reason = "; ".join(sorted({t.reason for t in undefined if t.reason})) or "no pair is defined"
        warn_undefined("K'", reason)
        value = math.nan
    else:
        value = float(kap[defined].mean())
        if undefined:
            reason = "left out of the mean: " + "; ".join(
                f"{t.annotator_a!r}-{t.annotator_b!r} ({t.reason})" for t in undefined
            )
            warnings.warn(f"K' averages {int(defined.sum())} of {len(table)} pairs; {reason}",
                          AccordWarning, stacklevel=2)
    unpaired = data.unpaired_items
    return AugmentedKappaResult(
        kappa=value,
        p=pf,
        rule=_rule_name(rule),
        observed_agreement=float(np.nanmean(pa)) if np.isfinite(pa).any() else math.nan,
        expected_agreement=float(np.nanmean(pe)) if np.isfinite(pe).any() else math.nan,
        pairs=table,
        n_items=data.n_items - len(unpaired),
        n_annotators=data.n_annotators,
        n_categories=data.n_categories,
        n_items_unpaired=len(unpaired),
        unpaired_items=unpaired,
        n_pairs_undefined=len(undefined),
        reason=reason,
        _data=data,
        _rule=rule,
    )


# ================================================================ bootstrap
@dataclass(frozen=True)
class AugmentedKappaInterval(Result):
    """Bootstrap confidence interval for ``K'`` (items resampled with replacement).

    Attributes
    ----------
    kappa : float
        The estimate on the full data.
    low, high : float
        Interval bounds.
    confidence_level : float
    method : str
        ``scipy.stats.bootstrap`` method.
    n_resamples : int
    standard_error : float
        Standard deviation of the bootstrap distribution.
    p : float
    rule : str
    n_items : int
        Items resampled (those labelled by at least two annotators).
    reason : str or None
    """

    kappa: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    standard_error: float
    p: float
    rule: str
    n_items: int
    reason: str | None = None

    def confidence_interval(self) -> tuple[float, float]:
        """``(low, high)``."""
        return self.low, self.high


def _resampled_kappa(
    m: np.ndarray, lab: np.ndarray, pairs: list[tuple[int, int]]
) -> Callable[..., np.ndarray]:
    """A vectorised statistic for scipy.stats.bootstrap: K' (mean over pairs) of resampled item indices."""
    n_items = m.shape[1]
    per_pair = []
    for a, b in pairs:
        mask = (lab[a] & lab[b]).astype(float)
        ag = np.einsum("ic,ic->i", m[a], m[b]) * mask
        per_pair.append((mask, ag, m[a] * mask[:, None], m[b] * mask[:, None]))

    def statistic(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        idx = np.moveaxis(np.asarray(idx), axis, -1)
        lead = idx.shape[:-1]
        flat = idx.reshape(-1, idx.shape[-1]).astype(np.int64)
        b = flat.shape[0]
        offsets = (np.arange(b) * n_items)[:, None]
        counts = np.bincount((flat + offsets).ravel(), minlength=b * n_items)
        counts = counts.reshape(b, n_items).astype(float)
        kappas = np.empty((len(per_pair), b))
        for k, (mask, ag, ma, mb) in enumerate(per_pair):
            nk = counts @ mask
            with np.errstate(divide="ignore", invalid="ignore"):
                pa = (counts @ ag) / nk
                pe = np.einsum("bc,bc->b", counts @ ma, counts @ mb) / nk**2
            kappas[k] = _kappa_from(pa, pe)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = np.nanmean(kappas, axis=0)
        return out.reshape(lead)

    return statistic


def bootstrap_augmented_kappa(
    data: MultiLabelData,
    *,
    p: float,
    rule: WeightRule = "pair",
    confidence_level: float = 0.95,
    n_resamples: int = 2000,
    method: Literal["percentile", "basic", "BCa"] = "percentile",
    rng: np.random.Generator | int | None = None,
) -> AugmentedKappaInterval:
    """Bootstrap confidence interval for ``K'``, resampling items.

    Items labelled by at least two annotators are drawn with replacement; each
    replicate recomputes ``p(A)``, ``p(E)`` and ``K'`` of every pair on the
    drawn items (an item drawn twice counts twice) and averages over pairs as
    :func:`augmented_kappa` does.  The interval is computed by
    :func:`scipy.stats.bootstrap`.

    Parameters
    ----------
    data : MultiLabelData
    p : float
        Weight of the primary label in [0.5, 1].
    rule : str or callable
        Weighting rule.
    confidence_level : float
        In (0, 1).
    n_resamples : int
        Number of bootstrap replicates (at least 2).
    method : {"percentile", "basic", "BCa"}
        Interval method of :func:`scipy.stats.bootstrap`.
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    AugmentedKappaInterval

    Examples
    --------
    >>> data = MultiLabelData.from_dict(
    ...     {"A": ["q,a", "q", "s", "a,q"] * 5, "B": ["q", "q,a", "s", "q,a"] * 5})
    >>> ci = bootstrap_augmented_kappa(data, p=0.6, n_resamples=200, rng=1)
    >>> bool(ci.low <= ci.kappa <= ci.high)
    True
    """
    pf = _check_p(p)
    _validate(data, rule)
    if not (isinstance(confidence_level, float | int) and 0 < confidence_level < 1):
        raise AccordError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if not isinstance(n_resamples, int | np.integer) or n_resamples < 2:
        raise AccordError(f"n_resamples must be an integer >= 2; got {n_resamples!r}")
    if method not in ("percentile", "basic", "BCa"):
        raise AccordError(f"method must be 'percentile', 'basic' or 'BCa'; got {method!r}")
    gen = np.random.default_rng(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        point = augmented_kappa(data, p=pf, rule=rule)
    keep = data.annotators_per_item >= 2
    n_items = int(keep.sum())
    common = dict(
        kappa=point.kappa, confidence_level=float(confidence_level), method=method,
        n_resamples=int(n_resamples), p=pf, rule=_rule_name(rule), n_items=n_items,
    )
    if not np.isfinite(point.kappa) or n_items < 2:
        reason = point.reason if not np.isfinite(point.kappa) else "fewer than two items to resample"
        warn_undefined("the bootstrap interval of K'", reason)
        return AugmentedKappaInterval(low=math.nan, high=math.nan, standard_error=math.nan, reason=reason,
                                      **common)
    m = _matrices(data, pf, rule)[:, keep]
    lab = data.labelled[:, keep]
    statistic = _resampled_kappa(m, lab, _pairs(data.n_annotators))
    batch = max(1, int(4_000_000 // max(n_items, 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.bootstrap(
            (np.arange(n_items),), statistic, vectorized=True, n_resamples=int(n_resamples),
            confidence_level=float(confidence_level), method=method, rng=gen, batch=batch,
        )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    reason = None
    if not (np.isfinite(low) and np.isfinite(high)):
        reason = "some bootstrap replicates have undefined K' (p(E) = 1 on the drawn items)"
        warn_undefined("the bootstrap interval of K'", reason)
    return AugmentedKappaInterval(
        low=low, high=high, standard_error=float(res.standard_error), reason=reason, **common
    )


# ==================================================================== sweep
@dataclass(frozen=True)
class AugmentedKappaSweep(Result):
    """``K'`` and per-item agreement over a grid of primary weights ``p``.

    Attributes
    ----------
    grid : numpy.ndarray
        The values of p (G of them, increasing).
    kappa : numpy.ndarray
        ``K'`` at each p (mean over pairs with more than two annotators).
    observed_agreement, expected_agreement : numpy.ndarray
        ``p(A)``, ``p(E)`` at each p (means over pairs).
    pair_names : tuple of (hashable, hashable)
    pair_kappa : numpy.ndarray
        Pairs x G.
    items : tuple
    item_agreement : numpy.ndarray
        Items x G: ``sum_y M_A[x, y] M_B[x, y]`` averaged over the pairs that
        labelled the item (NaN for unpaired items).
    item_kappa : numpy.ndarray
        Items x G: per-item kappa ``(agreement_x - p(E)) / (1 - p(E))`` with the
        pair's corpus ``p(E)`` at that p, averaged over pairs.  With two
        annotators and no missing cells its mean over items is ``K'``.
    rule : str
    n_items_unpaired : int
    unpaired_items : tuple
    """

    grid: np.ndarray
    kappa: np.ndarray
    observed_agreement: np.ndarray
    expected_agreement: np.ndarray
    pair_names: tuple[tuple[Hashable, Hashable], ...]
    pair_kappa: np.ndarray
    items: tuple[Hashable, ...]
    item_agreement: np.ndarray
    item_kappa: np.ndarray
    rule: str
    n_items_unpaired: int
    unpaired_items: tuple[Hashable, ...]

    def to_frame(self, which: Literal["kappa", "items"] = "kappa") -> pd.DataFrame:
        """``"kappa"``: one row per p (K', p(A), p(E), and each pair); ``"items"``: long per-item scores."""
        if which == "kappa":
            frame = pd.DataFrame(
                {
                    "p": self.grid,
                    "kappa": self.kappa,
                    "observed_agreement": self.observed_agreement,
                    "expected_agreement": self.expected_agreement,
                }
            )
            for (a, b), row in zip(self.pair_names, self.pair_kappa, strict=True):
                frame[f"kappa[{a}-{b}]"] = row
            return frame
        if which == "items":
            n, g = self.item_kappa.shape
            return pd.DataFrame(
                {
                    "item": np.repeat(np.asarray(self.items, dtype=object), g),
                    "p": np.tile(self.grid, n),
                    "agreement": self.item_agreement.ravel(),
                    "kappa": self.item_kappa.ravel(),
                }
            )
        raise AccordError(f"which must be 'kappa' or 'items'; got {which!r}")

    def classify(self, *, tolerance: float = 0.1, high: float = 0.6,
                 scale: Literal["kappa", "agreement"] = "kappa") -> ItemClasses:
        """The paper's four classes of items; see :func:`classify_items`."""
        return classify_items(self, tolerance=tolerance, high=high, scale=scale)


def _check_grid(grid: Any) -> np.ndarray:
    if grid is None:
        return _DEFAULT_GRID.copy()
    try:
        g = np.asarray(grid, dtype=float).ravel()
    except (TypeError, ValueError):
        raise AccordError(f"grid must be numbers in [0.5, 1]; got {grid!r}") from None
    if g.size == 0:
        raise AccordError("grid must hold at least one value of p")
    bad = g[~((g >= 0.5) & (g <= 1.0))]
    if bad.size:
        raise AccordError(f"grid values must be in [0.5, 1]; got {bad[0]!r}")
    return np.unique(g)


def augmented_kappa_sweep(
    data: MultiLabelData, *, grid: Sequence[float] | np.ndarray | None = None, rule: WeightRule = "pair"
) -> AugmentedKappaSweep:
    """``K'`` and per-item agreement over a grid of p (Rosenberg & Binkowski 2004, section 6).

    Parameters
    ----------
    data : MultiLabelData
    grid : sequence of float, optional
        Values of p in [0.5, 1]; default 0.5, 0.55, ..., 1.0.  Sorted and made
        unique.
    rule : str or callable
        Weighting rule.

    Returns
    -------
    AugmentedKappaSweep

    Notes
    -----
    The paper examines "the average kappa statistic for each message
    individually at different p values" without defining a per-message kappa.
    Here the item score is ``(a_x - p(E)) / (1 - p(E))`` with ``a_x =
    sum_y M_A[x, y] M_B[x, y]`` and the pair's corpus ``p(E)``, averaged over
    the pairs that labelled the item: the mean of these scores over the items
    of a pair is exactly that pair's ``K'``.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> sweep = augmented_kappa_sweep(data, grid=[0.5, 1.0])
    >>> sweep.kappa.round(4)
    array([0.4   , 0.5556])
    """
    g = _check_grid(grid)
    _validate(data, rule)
    pairs = _pairs(data.n_annotators)
    n_g, n_p, n_i = len(g), len(pairs), data.n_items
    pair_k = np.full((n_p, n_g), np.nan)
    pa_all = np.full((n_p, n_g), np.nan)
    pe_all = np.full((n_p, n_g), np.nan)
    item_ag = np.full((n_i, n_g), np.nan)
    item_k = np.full((n_i, n_g), np.nan)
    lab = data.labelled
    for j, p in enumerate(g):  # loop over the grid, vectorised over items
        n, pa, pe, agree, shared = _pair_core(_matrices(data, float(p), rule), lab, pairs)
        kap = _kappa_from(pa, pe)
        pair_k[:, j], pa_all[:, j], pe_all[:, j] = kap, pa, pe
        with np.errstate(divide="ignore", invalid="ignore"):
            ik = (agree - pe[:, None]) / (1 - pe[:, None])
        ik[~np.isfinite(kap)] = np.nan
        n_shared = shared.sum(axis=0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            item_ag[:, j] = np.where(n_shared > 0, np.nanmean(agree, axis=0), np.nan)
            item_k[:, j] = np.nanmean(ik, axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = np.nanmean(pair_k, axis=0)
        pa_mean = np.nanmean(pa_all, axis=0)
        pe_mean = np.nanmean(pe_all, axis=0)
    if np.isnan(kappa).any():
        warn_undefined("K'", f"no pair of annotators has a defined K' at p = {g[np.isnan(kappa)].tolist()}")
    unpaired = data.unpaired_items
    return AugmentedKappaSweep(
        grid=g,
        kappa=kappa,
        observed_agreement=pa_mean,
        expected_agreement=pe_mean,
        pair_names=tuple((data.annotators[a], data.annotators[b]) for a, b in pairs),
        pair_kappa=pair_k,
        items=data.items,
        item_agreement=item_ag,
        item_kappa=item_k,
        rule=_rule_name(rule),
        n_items_unpaired=len(unpaired),
        unpaired_items=unpaired,
    )


# ================================================================== classes
@dataclass(frozen=True)
class ItemClasses(Result):
    """The four classes of items of Rosenberg & Binkowski (2004, section 6).

    Attributes
    ----------
    items : tuple
    classes : tuple of str or None
        Per item one of :data:`ITEM_CLASSES` (``"constant_high"`` = the paper's
        Class 1, ``"constant_low"`` = Class 2, ``"better_at_p1"`` = Class 3,
        ``"better_at_p05"`` = Class 4); None for an item no pair labelled.
    counts : dict
        Items per class, plus ``"unpaired"``.
    tolerance : float
        An item is "nearly constant" when ``|s(1) - s(0.5)| <= tolerance``.
    high : float
        A nearly constant item is high when its mean score over the grid is
        ``>= high``.
    scale : str
        ``"kappa"`` (per-item kappa) or ``"agreement"`` (per-item p(A)).
    grid : numpy.ndarray
    score_at_p05, score_at_p1, mean_score : numpy.ndarray
        Per-item scores at p = 0.5, at p = 1, and their mean over the grid.
    class_curves : dict
        Per class, the mean item score at each p of the grid (for plotting).
    """

    items: tuple[Hashable, ...]
    classes: tuple[str | None, ...]
    counts: dict[str, int]
    tolerance: float
    high: float
    scale: str
    grid: np.ndarray
    score_at_p05: np.ndarray
    score_at_p1: np.ndarray
    mean_score: np.ndarray
    class_curves: dict[str, np.ndarray]

    def to_frame(self) -> pd.DataFrame:
        """One row per item: class and scores."""
        return pd.DataFrame(
            {
                "item": list(self.items),
                "class": list(self.classes),
                "score_at_p05": self.score_at_p05,
                "score_at_p1": self.score_at_p1,
                "mean_score": self.mean_score,
            }
        )

    def items_in(self, name: str) -> tuple[Hashable, ...]:
        """The items of one class."""
        if name not in ITEM_CLASSES:
            raise AccordError(f"class must be one of {ITEM_CLASSES!r}; got {name!r}")
        return tuple(i for i, c in zip(self.items, self.classes, strict=True) if c == name)


def classify_items(
    sweep: AugmentedKappaSweep,
    *,
    tolerance: float = 0.1,
    high: float = 0.6,
    scale: Literal["kappa", "agreement"] = "kappa",
) -> ItemClasses:
    """Sort items into the paper's four classes by how their agreement moves with p.

    Parameters
    ----------
    sweep : AugmentedKappaSweep
        From :func:`augmented_kappa_sweep`; its grid must contain 0.5 and 1.
    tolerance : float
        Largest ``|s(1) - s(0.5)|`` of a "nearly constant" item (``>= 0``).
    high : float
        Smallest mean score (over the grid) of a "constant high" item.
    scale : {"kappa", "agreement"}
        Per-item kappa (default; the paper's "kappa statistic for each message")
        or per-item observed agreement ``sum_y M_A[x, y] M_B[x, y]``.

    Returns
    -------
    ItemClasses

    Notes
    -----
    With ``s(p)`` the item's score and ``d = s(1) - s(0.5)``: ``|d| <=
    tolerance`` is nearly constant, high (Class 1) when the mean of ``s`` over
    the grid is ``>= high``, else low (Class 2); otherwise ``d > 0`` is Class 3
    (better at p = 1: agreement on the primary, not on the secondary) and
    ``d < 0`` is Class 4 (better at p = 0.5: primary and secondary swapped).
    The paper names the classes but gives no thresholds; these are choices.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q", "q,a", "s", "a,q"], "B": ["q", "q", "a", "q,a"]})
    >>> classify_items(augmented_kappa_sweep(data)).classes
    ('constant_high', 'better_at_p1', 'constant_low', 'better_at_p05')
    """
    if not isinstance(sweep, AugmentedKappaSweep):
        raise AccordError(f"sweep must be an AugmentedKappaSweep; got {type(sweep).__name__}")
    if not (isinstance(tolerance, int | float) and math.isfinite(tolerance) and tolerance >= 0):
        raise AccordError(f"tolerance must be a number >= 0; got {tolerance!r}")
    if not (isinstance(high, int | float) and math.isfinite(high)):
        raise AccordError(f"high must be a finite number; got {high!r}")
    if scale not in ("kappa", "agreement"):
        raise AccordError(f"scale must be 'kappa' or 'agreement'; got {scale!r}")
    g = sweep.grid
    lo, hi = np.flatnonzero(np.isclose(g, 0.5)), np.flatnonzero(np.isclose(g, 1.0))
    if not lo.size or not hi.size:
        raise AccordError(f"the sweep's grid must contain 0.5 and 1 to classify items; got {g.tolist()}")
    scores = sweep.item_kappa if scale == "kappa" else sweep.item_agreement
    s05, s1 = scores[:, lo[0]], scores[:, hi[0]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(scores, axis=1)
    d = s1 - s05
    paired = np.isfinite(d)
    constant = paired & (np.abs(d) <= tolerance)
    codes = np.full(len(d), -1)
    codes[constant & (mean >= high)] = 0
    codes[constant & (mean < high)] = 1
    codes[paired & ~constant & (d > 0)] = 2
    codes[paired & ~constant & (d < 0)] = 3
    names = np.array((*ITEM_CLASSES, None), dtype=object)
    classes = tuple(names[codes])
    counts = {name: int((codes == k).sum()) for k, name in enumerate(ITEM_CLASSES)}
    counts["unpaired"] = int((codes == -1).sum())
    curves = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k, name in enumerate(ITEM_CLASSES):
            sel = codes == k
            curves[name] = np.nanmean(scores[sel], axis=0) if sel.any() else np.full(len(g), np.nan)
    return ItemClasses(
        items=sweep.items,
        classes=classes,
        counts=counts,
        tolerance=float(tolerance),
        high=float(high),
        scale=scale,
        grid=g,
        score_at_p05=s05,
        score_at_p1=s1,
        mean_score=mean,
        class_curves=curves,
    )


# =============================================================== sharpening
@dataclass(frozen=True)
class SharpenedLabels(Result):
    """Per-item labels from iterated annotator and item weights ("sharpening").

    Attributes
    ----------
    annotators : tuple
    annotator_weights : numpy.ndarray
        Final weights, ``max(kappa, 0)`` scaled so the largest is 1.
    annotator_kappa : numpy.ndarray
        Each annotator's item-weighted ``K'`` against the weighted group
        without them, at the last iteration.
    items : tuple
    item_weights : numpy.ndarray
        How well the weighted group agrees on each item, in [0, 1] (1: all
        weight on one label).
    item_labels : tuple
        The label with the most weight in the weighted group (None for an
        item nobody labelled).
    item_confidence : numpy.ndarray
        That label's share of the weight, in (0, 1].
    item_tied : numpy.ndarray of bool
        Another label has the same share (the first category in order is
        reported).
    label_distribution : numpy.ndarray
        Items x categories: the weighted group's label distribution.
    categories : tuple
    p : float
    rule : str
    item_measure : str
    n_iterations : int
    converged : bool
    reason : str or None
    """

    annotators: tuple[Hashable, ...]
    annotator_weights: np.ndarray
    annotator_kappa: np.ndarray
    items: tuple[Hashable, ...]
    item_weights: np.ndarray
    item_labels: tuple[Hashable | None, ...]
    item_confidence: np.ndarray
    item_tied: np.ndarray
    label_distribution: np.ndarray
    categories: tuple[Hashable, ...]
    p: float
    rule: str
    item_measure: str
    n_iterations: int
    converged: bool
    reason: str | None = None

    def to_frame(self) -> pd.DataFrame:
        """One row per item: label, confidence, weight, tie flag."""
        return pd.DataFrame(
            {
                "item": list(self.items),
                "label": list(self.item_labels),
                "confidence": self.item_confidence,
                "item_weight": self.item_weights,
                "tied": self.item_tied,
            }
        )


def _group(m: np.ndarray, lab: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted sum of annotation rows per item (N x C) and the total weight per item (N,)."""
    lw = lab * w[:, None]
    return np.einsum("an,anc->nc", lw, m), lw.sum(axis=0)


def _item_agreement(
    m: np.ndarray, lab: np.ndarray, w: np.ndarray, measure: str
) -> tuple[np.ndarray, np.ndarray]:
    s, tot = _group(m, lab, w)
    with np.errstate(divide="ignore", invalid="ignore"):
        dist = s / tot[:, None]
    dist[tot <= 0] = np.nan
    c = m.shape[2]
    if measure == "entropy":
        with np.errstate(divide="ignore", invalid="ignore"):
            h = -np.nansum(np.where(dist > 0, dist * np.log(dist), 0.0), axis=1)
        v = 1.0 - h / math.log(c) if c > 1 else np.ones(len(h))
    else:
        # weighted variance of the annotators' rows around the group row: sum_a w_a |m_a|^2 / W - |G|^2
        sq = np.einsum("an,anc,anc->n", lab * w[:, None], m, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = 1.0 - (sq / tot - np.einsum("nc,nc->n", dist, dist))
    v = np.where(tot > 0, np.clip(v, 0.0, 1.0), np.nan)
    return v, dist


def _annotator_kappa(m: np.ndarray, lab: np.ndarray, w: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Each annotator's item-weighted K' against the weighted group of the others."""
    s, tot = _group(m, lab, w)
    lw = lab * w[:, None]
    rest = tot[None, :] - lw  # A x N
    with np.errstate(divide="ignore", invalid="ignore"):
        g = (s[None] - lw[..., None] * m) / rest[..., None]  # A x N x C
    use = lab & (rest > 1e-12) & np.isfinite(v)[None, :]
    iv = np.where(use, np.nan_to_num(v)[None, :], 0.0)  # item weights where usable
    g = np.where(use[..., None], g, 0.0)
    tw = iv.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        pa = np.einsum("an,anc,anc->a", iv, m, g) / tw
        fa = np.einsum("an,anc->ac", iv, m) / tw[:, None]
        fg = np.einsum("an,anc->ac", iv, g) / tw[:, None]
        pe = np.einsum("ac,ac->a", fa, fg)
    k = _kappa_from(pa, pe)
    return np.where(tw > 0, k, np.nan)


def sharpen(
    data: MultiLabelData,
    *,
    p: float,
    rule: WeightRule = "pair",
    item_measure: Literal["entropy", "variance"] = "entropy",
    tol: float = 1e-6,
    max_iter: int = 100,
) -> SharpenedLabels:
    """Iterate annotator and item weights to a weighted label per item ("sharpening").

    Rosenberg & Binkowski (2004, section 8) sketch it as future work:
    annotators ranked by how well they agree with the group (kappa), items by
    how well the group agrees on them (variance or ``-p ln p``), each ranking
    used to weight the other, alternating until the weights barely change.

    Parameters
    ----------
    data : MultiLabelData
        Two or more annotators (with two, both always get the same weight).
    p : float
        Weight of the primary label in [0.5, 1].
    rule : str or callable
        Weighting rule.
    item_measure : {"entropy", "variance"}
        How item weights measure group agreement.
    tol : float
        Stop when no weight moves by more than *tol*.
    max_iter : int
        Upper bound on iterations; not converging is reported (``converged``,
        ``reason``) and warned about.

    Returns
    -------
    SharpenedLabels

    Notes
    -----
    The paper leaves every detail open; the choices made here:

    1. Start with all annotator weights ``w_a = 1`` and item weights ``v_x = 1``.
    2. Group distribution of item x: ``G_x = sum_a w_a M_a[x] / sum_a w_a`` over
       the annotators who labelled x (``M_a`` at the given p).
    3. Item weight from ``G_x``: ``1 - H(G_x) / ln M`` (entropy, M categories)
       or ``1 - (sum_a w_a |M_a[x]|^2 / sum_a w_a - |G_x|^2)`` (weighted variance
       of the annotators' rows); both are 1 when all weight is on one label.
    4. Annotator kappa: ``K'`` between ``M_a`` and the weighted group without a,
       ``G_{-a}``, with every sum over items weighted by ``v_x`` (items where a
       or every other weighted annotator is missing are left out).
    5. ``w_a = max(kappa_a, 0)``, scaled so the largest is 1: annotators no
       better than chance get no say.  If every weight would be 0 the iteration
       stops (``reason`` says so) with the previous weights.
    6. Repeat 2-5 until no weight moves by more than *tol*.

    The label of item x is ``argmax_y G_x[y]`` and its confidence ``G_x[y]``.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({
    ...     "A": ["q", "a", "s", "q,a", "s"],
    ...     "B": ["q", "a", "s", "q", "s,q"],
    ...     "C": ["a", "s", "q", "a", "q"]})
    >>> res = sharpen(data, p=0.6)
    >>> res.annotator_weights.round(2)
    array([1., 1., 0.])
    >>> res.item_labels
    ('q', 'a', 's', 'q', 's')
    """
    pf = _check_p(p)
    _validate(data, rule)
    if item_measure not in ("entropy", "variance"):
        raise AccordError(f"item_measure must be 'entropy' or 'variance'; got {item_measure!r}")
    if not (isinstance(tol, int | float) and tol > 0):
        raise AccordError(f"tol must be a positive number; got {tol!r}")
    if not (isinstance(max_iter, int | np.integer) and max_iter >= 1):
        raise AccordError(f"max_iter must be an integer >= 1; got {max_iter!r}")
    m = _matrices(data, pf, rule)
    lab = data.labelled
    w = np.ones(data.n_annotators)
    v, dist = _item_agreement(m, lab, w, item_measure)
    kap = np.full(data.n_annotators, np.nan)
    converged, reason, n_iter = False, None, 0
    for it in range(1, max_iter + 1):  # iterations, each vectorised over items
        n_iter = it
        kap = _annotator_kappa(m, lab, w, v)
        new_w = np.clip(np.nan_to_num(kap, nan=0.0), 0.0, None)
        if new_w.max() <= 0:
            reason = (
                "no annotator agrees with the weighted group better than chance; weights left as they were"
            )
            break
        new_w = new_w / new_w.max()
        new_v, new_dist = _item_agreement(m, lab, new_w, item_measure)
        change = max(float(np.max(np.abs(new_w - w))), float(np.nanmax(np.abs(new_v - v), initial=0.0)))
        w, v, dist = new_w, new_v, new_dist
        if change <= tol:
            converged = True
            break
    if not converged and reason is None:
        reason = f"weights still moving after max_iter={max_iter} iterations"
    if reason is not None:
        warnings.warn(f"sharpening: {reason}", AccordWarning, stacklevel=2)
    has = np.isfinite(dist).all(axis=1)
    filled = np.where(has[:, None], dist, -1.0)
    best = filled.argmax(axis=1)
    conf = np.where(has, filled[np.arange(len(best)), best], np.nan)
    tied = has & ((np.abs(filled - conf[:, None]) <= 1e-12).sum(axis=1) > 1)
    cats = np.asarray(data.categories, dtype=object)
    labels = tuple(cats[b] if h else None for b, h in zip(best, has, strict=True))
    return SharpenedLabels(
        annotators=data.annotators,
        annotator_weights=w,
        annotator_kappa=kap,
        items=data.items,
        item_weights=v,
        item_labels=labels,
        item_confidence=conf,
        item_tied=tied,
        label_distribution=dist,
        categories=data.categories,
        p=pf,
        rule=_rule_name(rule),
        item_measure=item_measure,
        n_iterations=n_iter,
        converged=converged,
        reason=reason,
    )


# ============================================================ alpha beside it
def masi_alpha(data: MultiLabelData, *, distance: Any = "masi-2006") -> Any:
    """Krippendorff's alpha on the same items read as unordered label sets.

    Each (item, annotator) cell becomes the frozenset of its labels (primary
    and secondary alike) and :func:`accord.alpha.alpha` is computed with a set
    distance, MASI as published in Passonneau (2006) by default
    (``1 - J * M``).  This is the set-valued view
    of the data beside ``K'``: it gives partial credit for overlap but ignores
    which label is primary.

    Parameters
    ----------
    data : MultiLabelData
    distance : str or Distance
        Any distance :func:`accord.alpha.alpha` accepts for frozensets
        (``"masi-2006"``, ``"masi-2006-nltk"``, ``"masi-2010"``, ``"jaccard"``,
        ``"dice"``, ...).

    Returns
    -------
    accord.alpha.AlphaResult
        Items labelled by one annotator are unpairable there and counted by
        alpha itself.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for
    semantic and pragmatic annotation. LREC 2006.

    Examples
    --------
    >>> data = MultiLabelData.from_dict({"A": ["q,a", "q", "s", "a,q"], "B": ["q", "q,a", "s", "q,a"]})
    >>> res = masi_alpha(data)
    >>> res.distance, round(res.alpha, 4)
    ('masi-2006', 0.4615)
    """
    if not isinstance(data, MultiLabelData):
        raise AccordError(f"data must be MultiLabelData; got {type(data).__name__}")
    try:
        from accord.alpha import alpha
        from accord.data import Annotations
    except ImportError as exc:  # pragma: no cover - the core is part of accord
        raise AccordError(f"accord.alpha is not available: {exc}") from None
    a, i = np.nonzero(data.labelled)
    cats = np.asarray(data.categories, dtype=object)
    records = [
        (data.items[ii], data.annotators[aa], frozenset(cats[np.flatnonzero(data._ranks[aa, ii])].tolist()))
        for aa, ii in zip(a.tolist(), i.tolist(), strict=True)
    ]
    return alpha(Annotations.from_records(records), distance=distance)
