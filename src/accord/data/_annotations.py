"""Reliability data: who gave which value to which unit.

:class:`Annotations` is the canonical reliability data of Krippendorff (one row
per coder, one column per unit; Passonneau 2006, section 3.1) held sparsely:
one entry per non-missing cell, as interned integer codes into three tables
(units, coders, distinct values).  Every coefficient in accord reads it through
the pair engine (:mod:`accord.coefficients._pairs`).

Values may be any hashable: numbers, strings, booleans, frozensets (set-valued
annotations).  Lists and sets given as values are turned into frozensets.
Missing cells (``None``, NaN, ``pandas.NA``) are simply absent.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, choice_error, plural
from accord._shared.ids import clean_labels, held_ids
from accord.data._codes import _as_value_array, _factorize, _intern, _label_key, _not_finite, _plain
from accord.data._confusion_records import confusion_records
from accord.data._records import _columns_from_records, _is_frame, _where

__all__ = ["Annotations", "DuplicatePolicy", "Layout", "as_annotations"]

DuplicatePolicy = Literal["error", "first", "last"]
Layout = Literal["coders-by-units", "units-by-coders"]
_LAYOUTS = ("coders-by-units", "units-by-coders")
_DUPLICATE_POLICIES = ("error", "first", "last")


@dataclass(frozen=True, eq=False, repr=False)
class Annotations:
    """Reliability data: one entry per (unit, coder) cell that holds a value.

    Build it with :meth:`from_records`, :meth:`from_matrix` or
    :func:`accord.read`; the fields are interned codes and are rarely needed
    directly.

    Attributes
    ----------
    unit_index, coder_index, value_index : numpy.ndarray of int64
        For each non-missing cell, its unit, coder and value code; sorted by
        unit, then coder.
    units, coders, values : numpy.ndarray
        The tables the codes point into.  ``values`` holds the distinct values
        (numeric dtype when all values are numbers, object otherwise); it is
        sorted when the values are numbers or strings.
    n_missing : int
        Cells given as missing in the input (they carry no information and are
        not stored).
    source : str or None
        Where the data came from (file name), for messages.
    read_as : accord.data._read.ReadAs or None
        How :func:`accord.read` read the file: the layout, the columns read and those left alone
        (``str(data.read_as)`` says it in one line).

    Examples
    --------
    >>> data = Annotations.from_records(
    ...     [("u1", "A", "x"), ("u1", "B", "x"), ("u2", "A", "y"), ("u2", "B", None)]
    ... )
    >>> data
    Annotations(2 units, 2 coders, 3 values, 2 distinct values, 1 missing)
    >>> data.to_matrix()
    array([['x', 'y'],
           ['x', None]], dtype=object)
    """

    unit_index: np.ndarray
    coder_index: np.ndarray
    value_index: np.ndarray
    units: np.ndarray
    coders: np.ndarray
    values: np.ndarray
    n_missing: int = 0
    source: str | None = None
    _row_numbers: np.ndarray | None = field(default=None, compare=False)
    #: How :func:`accord.read` read the file (:class:`accord.data._columns.ReadAs`: layout, columns, what was left
    #: alone); None for data built otherwise.
    read_as: Any = field(default=None, compare=False)

    # ------------------------------------------------------------------ sizes
    @property
    def n_units(self) -> int:
        """Number of units (columns of the reliability matrix), coded or not."""
        return len(self.units)

    @property
    def n_coders(self) -> int:
        """Number of coders (rows of the reliability matrix)."""
        return len(self.coders)

    @property
    def n_entries(self) -> int:
        """Number of non-missing cells."""
        return len(self.value_index)

    @property
    def is_set_valued(self) -> bool:
        """True when every value is a frozenset."""
        return self.values.dtype == object and all(isinstance(v, frozenset) for v in self.values)

    def __repr__(self) -> str:
        return (
            f"Annotations({plural(self.n_units, 'unit')}, {plural(self.n_coders, 'coder')}, "
            f"{plural(self.n_entries, 'value')}, "
            f"{plural(len(self.values), 'distinct value')}, {self.n_missing} missing)"
        )

    def _repr_html_(self) -> str:
        """A notebook's view: units, coders (named), values, missing cells, source; every name escaped."""
        from accord._shared.html import html_table, scalar_text

        names = ", ".join(scalar_text(c) for c in self.coders[:20].tolist()) + (", ..." if self.n_coders > 20 else "")
        return html_table("Annotations", [("units", self.n_units), ("coders", f"{self.n_coders}: {names}"),
                                          ("values", self.n_entries), ("distinct values", len(self.values)),
                                          ("missing", self.n_missing), ("source", self.source)])

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_records(
        cls,
        records: Any,
        *,
        unit: str = "unit",
        coder: str = "coder",
        value: str = "value",
        duplicates: DuplicatePolicy = "error",
        source: str | None = None,
        row_numbers: Sequence[int] | np.ndarray | None = None,
    ) -> Annotations:
        """Build from long records: one (unit, coder, value) per row.

        Parameters
        ----------
        records : DataFrame or iterable
            A pandas or polars DataFrame (eager or lazy, through narwhals) with
            the named columns, or an iterable of ``(unit, coder, value)`` tuples
            or of mappings with the named keys.
        unit, coder, value : str
            Column names (or mapping keys).
        duplicates : {"error", "first", "last"}
            What to do when one coder gives two values to one unit: raise an
            error naming both rows (default), or keep the first or last.
        source : str, optional
            A file name to use in messages.
        row_numbers : sequence of int, optional
            The line number of each record in *source*, for messages.

        Returns
        -------
        Annotations

        Notes
        -----
        Unit and coder ids are names: they compare as text without surrounding whitespace, a whole number
        without its ``.0``, so ``1``, ``1.0``, ``"1"`` and ``" 1 "`` are one unit.  A column whose ids are all
        whole numbers is held as integers; any other as text.  Text values lose surrounding whitespace
        (``"pos "`` is ``"pos"``); internal whitespace is kept.

        Examples
        --------
        >>> data = Annotations.from_records([(1, "ann1", "pos"), ("1", "ann1 ", "pos "), (2.0, " ann2", "neg")],
        ...                                 duplicates="first")
        >>> data.units.tolist(), data.coders.tolist(), data.values.tolist()
        ([1, 2], ['ann1', 'ann2'], ['neg', 'pos'])
        """
        if duplicates not in _DUPLICATE_POLICIES:
            raise AccordError(
                f"duplicates must be one of {', '.join(map(repr, _DUPLICATE_POLICIES))}; got {duplicates!r}"
            )
        u, c, v = _columns_from_records(records, unit, coder, value, source)
        return cls._build(u, c, v, duplicates=duplicates, source=source, row_numbers=row_numbers)

    @classmethod
    def from_matrix(
        cls,
        matrix: Any,
        *,
        units: Sequence[Hashable] | None = None,
        coders: Sequence[Hashable] | None = None,
        layout: Layout = "coders-by-units",
    ) -> Annotations:
        """Build from a reliability matrix with missing cells.

        Parameters
        ----------
        matrix : array-like or pandas.DataFrame
            By default one row per coder and one column per unit (Krippendorff's
            canonical form); ``None`` or NaN marks a missing cell.  A pandas
            DataFrame supplies its index and columns as labels.
        units, coders : sequence, optional
            Labels; default to the DataFrame's labels or to 0, 1, 2, ...
        layout : {"coders-by-units", "units-by-coders"}
            Orientation of *matrix*.

        Examples
        --------
        >>> Annotations.from_matrix([[1, 2, None], [1, 2, 3]]).n_entries
        5
        """
        if layout not in ("coders-by-units", "units-by-coders"):
            raise AccordError(
                f"layout must be 'coders-by-units' or 'units-by-coders'; got {layout!r}"
            )
        row_labels: Sequence[Hashable] | None = None
        col_labels: Sequence[Hashable] | None = None
        if not isinstance(matrix, pd.DataFrame) and _is_frame(matrix):  # polars and other narwhals frames
            import narwhals as nw

            frame = nw.from_native(matrix, eager_only=True)
            matrix = pd.DataFrame({str(c): frame[c].to_list() for c in frame.columns}, dtype=object)
            matrix = matrix.infer_objects()
        if isinstance(matrix, pd.DataFrame):
            row_labels, col_labels = list(matrix.index), list(matrix.columns)
            numeric = all(k in "biuf" for k in matrix.dtypes.map(lambda t: t.kind))
            arr = matrix.to_numpy(dtype=float if numeric else object)
        elif isinstance(matrix, np.ndarray) and matrix.dtype.kind in "biuf" and matrix.ndim == 2:
            arr = matrix
        else:
            try:
                arr = np.asarray(matrix, dtype=object)
            except ValueError as exc:
                raise AccordError(f"matrix must be rectangular: {exc}") from None
            if arr.ndim != 2:
                # ragged rows of set values end up 1-d arrays of lists
                try:
                    rows = [list(r) for r in matrix]
                    width = {len(r) for r in rows}
                except TypeError:
                    width = set()
                if len(width) != 1:
                    raise AccordError(f"matrix must be two-dimensional; got shape {arr.shape}")
                arr = np.empty((len(rows), width.pop()), dtype=object)
                for i, r in enumerate(rows):
                    for j, x in enumerate(r):
                        arr[i, j] = x
        if layout == "units-by-coders":
            arr = arr.T
            row_labels, col_labels = col_labels, row_labels
        n_coders, n_units = arr.shape
        coder_labels = list(coders) if coders is not None else (row_labels or list(range(n_coders)))
        unit_labels = list(units) if units is not None else (col_labels or list(range(n_units)))
        if len(coder_labels) != n_coders:
            raise AccordError(f"coders has {plural(len(coder_labels), 'label')} for {n_coders} matrix rows")
        if len(unit_labels) != n_units:
            raise AccordError(f"units has {plural(len(unit_labels), 'label')} for {n_units} matrix columns")
        if (units is not None or col_labels is not None) and len(set(map(_label_key, unit_labels))) != n_units:
            raise AccordError("unit labels must be unique")
        if (coders is not None or row_labels is not None) and len(set(map(_label_key, coder_labels))) != n_coders:
            raise AccordError("coder labels must be unique")
        bad = _not_finite(arr.ravel()).reshape(arr.shape)
        if bad.any():
            i, j = (int(k) for k in np.argwhere(bad)[0])
            raise AccordError(
                f"coder {_plain(coder_labels[i])!r} gave unit {_plain(unit_labels[j])!r} the value "
                f"{_plain(arr[i, j])!r}, which is not a finite number; agreement needs finite values (NaN or None "
                "marks a missing cell)"
            )
        if arr.dtype.kind in "biuf":
            return cls._from_numeric_matrix(arr, unit_labels, coder_labels)
        ci, ui = np.meshgrid(np.arange(n_coders), np.arange(n_units), indexing="ij")
        # build on positions (fast integer interning), then attach the full label tables so that
        # units and coders whose cells are all missing are kept
        data = cls._build(ui.ravel(), ci.ravel(), arr.ravel(), duplicates="error", source=None, row_numbers=None)
        ulab = np.empty(n_units, dtype=object)
        ulab[:] = list(unit_labels)
        clab = np.empty(n_coders, dtype=object)
        clab[:] = list(coder_labels)
        return Annotations(
            unit_index=data.units[data.unit_index].astype(np.int64),
            coder_index=data.coders[data.coder_index].astype(np.int64),
            value_index=data.value_index,
            units=ulab,
            coders=clab,
            values=data.values,
            n_missing=data.n_missing,
        )

    @classmethod
    def from_counts(
        cls,
        table: Any,
        *,
        categories: Sequence[Hashable] | None = None,
        units: Sequence[Hashable] | None = None,
    ) -> Annotations:
        """Build from a units x categories count table (how many coders put each unit in each category).

        This is the form of ``statsmodels.stats.inter_rater.aggregate_raters`` and of
        Fleiss (1971).  Who gave which value is not in such a table, so the coders
        are positions within a unit (coder ``0`` is each unit's first value, and so
        on): use it only with statistics that do not depend on coder identity
        (Fleiss' kappa, alpha, percent agreement, the unit diagnostics), not with
        Cohen's kappa or the per-coder diagnostics.

        Parameters
        ----------
        table : array-like or pandas.DataFrame
            Non-negative integer counts, one row per unit, one column per
            category; a DataFrame supplies the category and unit labels.
        categories, units : sequence, optional
            Labels; default to the DataFrame's columns and index, or 0, 1, 2, ...

        Examples
        --------
        >>> d = Annotations.from_counts([[3, 0], [1, 2], [0, 3]], categories=["yes", "no"])
        >>> d
        Annotations(3 units, 3 coders, 9 values, 2 distinct values, 0 missing)
        """
        col_labels: list[Hashable] | None = None
        row_labels: list[Hashable] | None = None
        if isinstance(table, pd.DataFrame):
            col_labels, row_labels = list(table.columns), list(table.index)
            table = table.to_numpy()
        try:
            arr = np.asarray(table, dtype=float)
        except (TypeError, ValueError) as exc:
            raise AccordError(f"table must be a units x categories table of counts: {exc}") from None
        if arr.ndim != 2:
            raise AccordError(f"table must be two-dimensional (units x categories); got shape {arr.shape}")
        if not np.isfinite(arr).all() or (arr < 0).any() or (arr != np.round(arr)).any():
            i, k = np.argwhere(~np.isfinite(arr) | (arr < 0) | (arr != np.round(arr)))[0]
            raise AccordError(
                f"table must hold non-negative whole counts; unit {i}, category {k} holds {arr[i, k]:g}"
            )
        counts = arr.astype(np.int64)
        n_units, n_cat = counts.shape
        cat_labels = list(categories) if categories is not None else (col_labels or list(range(n_cat)))
        unit_labels = list(units) if units is not None else (row_labels or list(range(n_units)))
        if len(cat_labels) != n_cat:
            raise AccordError(f"categories has {plural(len(cat_labels), 'label')} for {n_cat} table columns")
        if len(unit_labels) != n_units:
            raise AccordError(f"units has {plural(len(unit_labels), 'label')} for {n_units} table rows")
        if len(set(map(_label_key, cat_labels))) != n_cat:
            raise AccordError("category labels must be unique")
        per_unit = counts.sum(axis=1)
        flat = counts.ravel()
        unit_index = np.repeat(np.repeat(np.arange(n_units, dtype=np.int64), n_cat), flat)
        value_index = np.repeat(np.tile(np.arange(n_cat, dtype=np.int64), n_units), flat)
        starts = np.repeat(np.cumsum(per_unit) - per_unit, per_unit)
        coder_index = np.arange(len(unit_index), dtype=np.int64) - starts
        n_coders = int(per_unit.max()) if n_units else 0
        values = np.empty(n_cat, dtype=object)
        values[:] = cat_labels
        try:
            if all(isinstance(c, int | float) and not isinstance(c, bool) for c in cat_labels):
                values = np.asarray(cat_labels)
        except (TypeError, ValueError):  # pragma: no cover
            pass
        ulab = np.empty(n_units, dtype=object)
        ulab[:] = unit_labels
        return cls(
            unit_index=unit_index,
            coder_index=coder_index,
            value_index=value_index,
            units=ulab,
            coders=np.arange(n_coders, dtype=np.int64),
            values=values,
            n_missing=0,
        )

    @classmethod
    def from_confusion(
        cls,
        table: Any,
        *,
        categories: Sequence[Hashable] | None = None,
        coders: tuple[Hashable, Hashable] = ("rows", "columns"),
        source: str | None = None,
    ) -> Annotations:
        """Two coders' annotations from their confusion matrix: cell (i, j) counts the units the first coder
        (rows) put in category i and the second (columns) in j.

        Parameters
        ----------
        table : array-like or pandas.DataFrame
            A square table of non-negative integer counts; a DataFrame names the categories in its index
            and columns (the same set, in any order; numbers written as text match numbers).
        categories : sequence, optional
            The categories in the order of the rows (default: the DataFrame's labels, or 0..q-1).
        coders : (str, str)
            Labels of the two coders.  Returns one unit per counted pair of judgments.
        source : str, optional
            Name for messages (the file the table was read from).

        Examples
        --------
        >>> import accord
        >>> data = Annotations.from_confusion([[20, 5], [10, 15]], categories=["yes", "no"])
        >>> round(accord.cohen_kappa(data).kappa, 4)
        0.4
        """
        units, who, v = confusion_records(table, categories=categories, coders=coders, source=source)
        # the coders in the table's order (rows first), not sorted by label: the first is the rows' coder, for
        # weights with a direction (Cohen 1968) and for reading a result back against the table
        built = cls._build(units, who, v, duplicates="error", source=source, row_numbers=None)
        return built._with_labels(built.units.tolist(), list(coders))

    @classmethod
    def _from_numeric_matrix(
        cls, arr: np.ndarray, unit_labels: Sequence[Hashable], coder_labels: Sequence[Hashable]
    ) -> Annotations:
        """Numeric coders x units matrix: entries laid out units-major, no sort (a matrix has no duplicates)."""
        n_coders, n_units = arr.shape
        flat = arr.T.ravel()
        keep = ~np.isnan(flat) if flat.dtype.kind == "f" else np.ones(len(flat), dtype=bool)
        values, vcodes = np.unique(flat[keep], return_inverse=True)
        ulab = np.empty(n_units, dtype=object)
        ulab[:] = list(unit_labels)
        clab = np.empty(n_coders, dtype=object)
        clab[:] = list(coder_labels)
        return cls(
            unit_index=np.repeat(np.arange(n_units, dtype=np.int64), n_coders)[keep],
            coder_index=np.tile(np.arange(n_coders, dtype=np.int64), n_units)[keep],
            value_index=vcodes.reshape(-1).astype(np.int64),
            units=ulab,
            coders=clab,
            values=values,
            n_missing=int((~keep).sum()),
        )

    # ---------------------------------------------------------------- builder
    @classmethod
    def _build(
        cls,
        u: Sequence[Any] | np.ndarray,
        c: Sequence[Any] | np.ndarray,
        v: Sequence[Any] | np.ndarray,
        *,
        duplicates: DuplicatePolicy,
        source: str | None,
        row_numbers: Sequence[int] | np.ndarray | None,
    ) -> Annotations:
        varr, missing = _as_value_array(v)
        n_missing = int(missing.sum())
        keep = ~missing
        # one object per id, a tuple id too (np.asarray would make a list of tuples two-dimensional)
        uarr = np.fromiter(u, dtype=object, count=len(u)) if not isinstance(u, np.ndarray) else u
        carr = np.fromiter(c, dtype=object, count=len(c)) if not isinstance(c, np.ndarray) else c
        rows = (
            np.asarray(row_numbers, dtype=np.int64)
            if row_numbers is not None
            else np.arange(len(varr), dtype=np.int64) + 1
        )
        for name, arr in (("unit", uarr), ("coder", carr)):
            if arr.dtype == object:
                bad = np.asarray(pd.isna(arr), dtype=bool)  # None, NaN, pd.NA, NaT, as _is_missing, vectorised
            elif arr.dtype.kind == "f":
                bad = np.isnan(arr)
            else:
                bad = np.zeros(len(arr), dtype=bool)
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise AccordError(f"{_where(source, rows[k])}: the {name} is missing")
        uarr, carr, varr, rows = uarr[keep], carr[keep], varr[keep], rows[keep]
        ucodes, units = _intern_ids(uarr, "unit", source, rows)
        ccodes, coders = _intern_ids(carr, "coder", source, rows)
        if varr.dtype == object:
            try:
                vcodes, values = _intern(varr, "value")
            except AccordError as exc:
                raise AccordError(f"{source or 'data'}: {exc}") from None
            vcodes, values = _clean_value_table(vcodes, values)
        else:
            vcodes, values = _intern(varr, "value")
        bad_values = _not_finite(values)
        if bad_values.any():
            k = int(np.flatnonzero(bad_values[vcodes])[0])
            who, what = _plain(coders[ccodes[k]]), _plain(units[ucodes[k]])
            raise AccordError(
                f"{_where(source, rows[k])}: coder {who!r} gave unit {what!r} the value {_plain(values[vcodes[k]])!r}, "
                "which is not a finite number; agreement needs finite values (leave the cell empty for a missing one)"
            )
        order = np.lexsort((np.arange(len(ucodes)), ccodes, ucodes))
        ucodes, ccodes, vcodes, rows = ucodes[order], ccodes[order], vcodes[order], rows[order]
        same = (ucodes[1:] == ucodes[:-1]) & (ccodes[1:] == ccodes[:-1])
        if same.any():
            if duplicates == "error":
                k = int(np.flatnonzero(same)[0])
                from accord._shared.names import shown  # values as a person reads them: 4, not np.float64(4.0)

                head = (f"{source or 'data'}: coder {shown(coders[ccodes[k]])} gave two values to unit "
                        f"{shown(units[ucodes[k]])}: {shown(values[vcodes[k]])} (row {rows[k]}) and "
                        f"{shown(values[vcodes[k + 1]])} (row {rows[k + 1]})")
                raise AccordError(f"{head}; pass duplicates='first' or 'last' to keep one",
                                  cli=f"{head}; a coder gives a unit one value: keep one of them in the file")
            drop = np.zeros(len(ucodes), dtype=bool)
            if duplicates == "first":
                drop[1:] = same
            else:
                drop[:-1] = same
            ucodes, ccodes, vcodes, rows = ucodes[~drop], ccodes[~drop], vcodes[~drop], rows[~drop]
            used = np.unique(vcodes)
            if len(used) < len(values):
                remap = np.full(len(values), -1, dtype=np.int64)
                remap[used] = np.arange(len(used))
                vcodes, values = remap[vcodes], values[used]
        return cls(
            unit_index=ucodes,
            coder_index=ccodes,
            value_index=vcodes,
            units=units,
            coders=coders,
            values=values,
            n_missing=n_missing,
            source=source,
            _row_numbers=rows,
        )

    @classmethod
    def _from_codes(
        cls,
        unit_codes: np.ndarray,
        units: np.ndarray,
        coder_codes: np.ndarray,
        coders: np.ndarray,
        value_codes: np.ndarray,
        values: np.ndarray,
        *,
        source: str | None,
        row_numbers: np.ndarray,
    ) -> Annotations:
        """What :meth:`_build` makes of the rows ``(units[unit_codes[i]], coders[coder_codes[i]], values[...])``,
        each distinct label interned once instead of once per row.

        For importers that have already coded their columns (``pandas.factorize``): the tables hold distinct
        labels (values neither missing nor with a bool beside the number equal to it) and no (unit, coder)
        pair repeats; the caller checks both.  Labels no row uses are left out of the tables, as :meth:`_build`
        leaves them out.
        """

        def table(codes: np.ndarray, labels: np.ndarray, what: str, normalise: bool) -> tuple[np.ndarray, np.ndarray]:
            used = np.flatnonzero(np.bincount(codes, minlength=len(labels)))
            remap = np.zeros(len(labels), dtype=np.int64)
            remap[used] = np.arange(len(used))
            distinct = np.empty(len(used), dtype=object)
            distinct[:] = [labels[k] for k in used.tolist()]
            if normalise:
                distinct = _as_value_array(distinct)[0]
            else:  # ids are names, in their canonical form, as _build holds them
                distinct = held_ids(distinct.tolist())[0]
            sub, tab = _intern(distinct, what)
            return sub[remap[codes]], tab

        ucodes, unit_table = table(unit_codes, units, "unit", False)
        ccodes, coder_table = table(coder_codes, coders, "coder", False)
        vcodes, value_table = table(value_codes, values, "value", True)
        order = np.lexsort((ccodes, ucodes))
        return cls(
            unit_index=ucodes[order],
            coder_index=ccodes[order],
            value_index=vcodes[order],
            units=unit_table,
            coders=coder_table,
            values=value_table,
            n_missing=0,
            source=source,
            _row_numbers=np.asarray(row_numbers, dtype=np.int64)[order],
        )

    def _with_labels(self, unit_labels: Sequence[Hashable], coder_labels: Sequence[Hashable]) -> Annotations:
        """Re-express codes against full label tables (labels with no values kept)."""
        ulab = np.empty(len(unit_labels), dtype=object)
        ulab[:] = list(unit_labels)
        clab = np.empty(len(coder_labels), dtype=object)
        clab[:] = list(coder_labels)
        upos = {lab: i for i, lab in enumerate(ulab.tolist())}
        cpos = {lab: i for i, lab in enumerate(clab.tolist())}
        if len(upos) != len(ulab) or len(cpos) != len(clab):
            raise AccordError("unit and coder labels must be unique")
        umap = np.array([upos[x] for x in self.units.tolist()], dtype=np.int64)
        cmap = np.array([cpos[x] for x in self.coders.tolist()], dtype=np.int64)
        ui, ci = umap[self.unit_index], cmap[self.coder_index]
        order = np.lexsort((ci, ui))
        return Annotations(
            unit_index=ui[order],
            coder_index=ci[order],
            value_index=self.value_index[order],
            units=ulab,
            coders=clab,
            values=self.values,
            n_missing=self.n_missing,
            source=self.source,
            _row_numbers=None if self._row_numbers is None else self._row_numbers[order],
        )

    # ------------------------------------------------------------------ views
    def to_matrix(self) -> np.ndarray:
        """The coders x units matrix (object dtype, ``None`` for missing)."""
        out = np.full((self.n_coders, self.n_units), None, dtype=object)
        out[self.coder_index, self.unit_index] = self.values[self.value_index]
        return out

    def to_frame(self) -> pd.DataFrame:
        """One row per non-missing cell: columns unit, coder, value."""
        return pd.DataFrame(
            {
                "unit": self.units[self.unit_index],
                "coder": self.coders[self.coder_index],
                "value": self.values[self.value_index],
            }
        )

    def select_coders(self, keep: Sequence[Hashable] | Sequence[bool] | np.ndarray) -> Annotations:
        """The same data restricted to some coders (tables kept whole).

        Parameters
        ----------
        keep : sequence of coder labels, or of booleans
            The coders to keep by their labels (``["ann", "bob"]``), or a boolean mask over
            :attr:`coders` (one entry per coder, true to keep).

        Examples
        --------
        >>> d = Annotations.from_records([("u1", "ann", "a"), ("u1", "bob", "a"), ("u1", "cy", "b")])
        >>> d.select_coders(["ann", "cy"]).to_matrix().tolist()  # bob's row is kept, empty
        [['a'], [None], ['b']]
        """
        if isinstance(keep, (str, bytes)) or not hasattr(keep, "__len__"):
            raise AccordError(f"keep must be a list of coder labels or a boolean mask over the coders; got {keep!r}")
        items = list(keep.tolist() if isinstance(keep, np.ndarray) else keep)
        if items and all(isinstance(x, (bool, np.bool_)) for x in items):
            if len(items) != self.n_coders:
                raise AccordError(f"keep: a boolean mask needs one entry per coder ({self.n_coders}); "
                                  f"got {len(items)}")
            flags = np.asarray(items, dtype=bool)
        else:
            where = {c: i for i, c in enumerate(self.coders.tolist())}
            unknown = [x for x in items if not isinstance(x, Hashable) or x not in where]
            if unknown:
                shown = ", ".join(map(repr, self.coders.tolist()[:10])) + (", ..." if self.n_coders > 10 else "")
                raise AccordError(f"keep: {unknown[0]!r} is not a coder in the data; the coders are {shown}")
            flags = np.zeros(self.n_coders, dtype=bool)
            flags[[where[x] for x in items]] = True
        mask = flags[self.coder_index]
        return Annotations(
            unit_index=self.unit_index[mask],
            coder_index=self.coder_index[mask],
            value_index=self.value_index[mask],
            units=self.units,
            coders=self.coders,
            values=self.values,
            n_missing=self.n_missing,
            source=self.source,
            _row_numbers=None if self._row_numbers is None else self._row_numbers[mask],
        )

    def map_values(self, func: Any) -> Annotations:
        """Apply *func* to each distinct value (e.g. to make labels sets) and re-intern."""
        new = np.fromiter((func(v) for v in self.values.tolist()), dtype=object, count=len(self.values))
        # built on the unit and coder positions, so that the label tables stay as they are (whole, and in the
        # form they were given: a matrix's labels are not made canonical)
        data = Annotations._build(
            self.unit_index,
            self.coder_index,
            new[self.value_index],
            duplicates="error",
            source=self.source,
            row_numbers=self._row_numbers,
        )
        return Annotations(
            unit_index=data.units[data.unit_index].astype(np.int64),
            coder_index=data.coders[data.coder_index].astype(np.int64),
            value_index=data.value_index,
            units=self.units,
            coders=self.coders,
            values=data.values,
            n_missing=data.n_missing,
            source=self.source,
            _row_numbers=data._row_numbers,
        )


def _intern_ids(arr: np.ndarray, what: str, source: str | None, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and the table of distinct ids of a unit or coder column, each id in its canonical form
    (:func:`accord._shared.ids.held_ids`): ids are names, so ``1``, ``1.0``, ``"1"`` and ``" 1 "`` are one id; a column
    of integers stays integers.  An id that cannot be a name (a list, an object) is an error naming the line."""
    if arr.dtype.kind in "iu":
        return _intern(arr, what)
    obj = arr if arr.dtype == object else arr.astype(object)
    try:
        codes, uniques = _factorize(obj)
    except TypeError:
        for k, x in enumerate(obj.tolist()):
            try:
                hash(x)
            except TypeError:
                raise AccordError(f"{_where(source, int(rows[k]))}: the {what} {_short_repr(x)} is not a name (text "
                                  "or a number); unit and coder labels must be hashable text or numbers") from None
        raise
    table, _ = held_ids(list(uniques))
    merged, distinct = _intern(table, what)
    return merged[codes].astype(np.int64), distinct


def _short_repr(x: Any) -> str:
    try:
        text = json.dumps(x)  # a list or an object as the JSON file wrote it
    except (TypeError, ValueError):
        text = repr(x)
    return text if len(text) <= 60 else text[:60] + "..."


def _clean_value_table(vcodes: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The value table with surrounding whitespace taken from text labels (and from a set's text elements),
    labels that become equal merged."""
    if values.dtype != object or not any(isinstance(v, (str, frozenset)) for v in values.tolist()):
        return vcodes, values
    cleaned, changed = clean_labels(values)
    if not changed:
        return vcodes, values
    merged, distinct = _intern(cleaned, "value")
    return merged[vcodes].astype(np.int64), distinct


def as_annotations(data: Any, *, layout: Layout = "coders-by-units", what: str = "data") -> Annotations:
    """Reliability data in any form accord accepts, as :class:`Annotations`.

    Parameters
    ----------
    data : Annotations or array-like
        :class:`Annotations` (returned as is), or a reliability matrix with
        NaN / ``None`` for missing cells: a numpy array, nested lists, a pandas or
        polars DataFrame (wide: one row per coder, one column per unit, as the
        ``krippendorff`` package takes it).
    layout : {"coders-by-units", "units-by-coders"}
        Orientation of a matrix: ``"units-by-coders"`` is irrCAC's and R's
        (one row per unit, one column per coder).
    what : str
        The parameter's name, for messages.

    Returns
    -------
    Annotations

    Raises
    ------
    AccordError
        For anything else (a long table, a scalar, a ragged list), naming what
        was received and the forms accepted.

    Examples
    --------
    >>> as_annotations([[1, 2, None], [1, 2, 3]])
    Annotations(3 units, 2 coders, 5 values, 3 distinct values, 1 missing)
    >>> as_annotations([[1, 1], [2, 2], [None, 3]], layout="units-by-coders").n_units
    3
    """
    if layout not in _LAYOUTS:
        raise choice_error("layout", layout, _LAYOUTS)
    if isinstance(data, Annotations):
        if layout != "coders-by-units":
            raise AccordError(
                f"layout={layout!r} applies to a matrix; {what} is already Annotations, which has no orientation"
            )
        return data
    forms = (
        "accord.Annotations (Annotations.from_records, accord.read), or a coders x units matrix with NaN/None "
        "for missing: a numpy array, nested lists, a pandas or polars DataFrame (layout='units-by-coders' for "
        "one row per unit)"
    )
    if isinstance(data, pd.DataFrame) or _is_frame(data):
        columns = {str(c).lower() for c in data.columns}
        if {"unit", "coder", "value"} <= columns or {"item", "annotator", "label"} <= columns:
            raise AccordError(
                f"{what} looks like a long table (one row per unit, coder and value): build it with "
                "Annotations.from_records(frame, unit=..., coder=..., value=...) or accord.read; a DataFrame "
                "given directly is read as a wide coders x units matrix"
            )
        return Annotations.from_matrix(data, layout=layout)
    if isinstance(data, np.ndarray) or (isinstance(data, list | tuple) and data and
                                        all(isinstance(r, list | tuple | np.ndarray) for r in data)):
        arr_shape = np.shape(data) if isinstance(data, np.ndarray) else None
        if arr_shape is not None and len(arr_shape) != 2:
            raise AccordError(f"{what} must be a two-dimensional matrix; got a numpy array of shape {arr_shape}")
        return Annotations.from_matrix(data, layout=layout)
    raise AccordError(f"{what} must be {forms}; got {type(data).__module__}.{type(data).__qualname__}")
