"""The multi-label data model: items x annotators, each cell an ordered tuple of labels.

:class:`MultiLabelData` holds, for every (annotator, item) cell, the labels in
their order (primary first), as an integer rank array over the label
vocabulary.  It is built from records in the compact form ``"a,b"`` (primary
``a``, secondary ``b``), from long records with a ``rank`` column, or from a
mapping annotator -> cells; the readers of files are in
:mod:`accord.multilabel._readers`.

References
----------
Rosenberg, A. & Binkowski, E. (2004). Augmenting the kappa statistic to
determine interannotator reliability for multiply labeled data points.
Proceedings of HLT-NAACL 2004: Short Papers, 77-80.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, plural
from accord.data._codes import _is_missing

__all__ = [
    "MultiLabelData",
]


# ====================================================================== data
def _clean_label(x: Any) -> Any:
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, str):
        x = x.strip()
        return None if x == "" else x
    return None if _is_missing(x) else x


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
    MultiLabelData(5 items, 1 annotator, 4 categories, 5 labelled cells, at most 2 labels per cell)
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
            f"MultiLabelData({plural(self.n_items, 'item')}, {plural(self.n_annotators, 'annotator')}, "
            f"{plural(self.n_categories, 'category')}, {int(self.labelled.sum())} labelled cells, "
            f"at most {plural(self.max_labels, 'label')} per cell)"
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
                        f"items has {plural(len(names), 'name')} but annotator {a!r} has {plural(len(cells), 'cell')}"
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
                f"{source or 'data'}: a cell holds {plural(max_rank, 'label')}; at most 32767 are supported"
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
    elif _is_missing(x):
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
