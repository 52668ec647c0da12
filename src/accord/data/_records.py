"""The three columns (unit, coder, value) of records given to :meth:`~accord.Annotations.from_records`:
a pandas DataFrame, any DataFrame narwhals reads (polars, pyarrow, ...), mappings or (unit, coder, value)
triples."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from accord._shared.errors import AccordError, missing_column_error
from accord.data._codes import _object_array, _value_column


def _where(source: str | None, row: int) -> str:
    return f"{source}, line {row}" if source else f"row {row}"


def _check_columns(source: str | None, unit: str, coder: str, value: str, columns: Any) -> None:
    for col, param in ((unit, "unit"), (coder, "coder"), (value, "value")):
        if col not in columns:
            raise missing_column_error(source or "data", col, columns, param=param)


def _columns_from_records(
    records: Any, unit: str, coder: str, value: str, source: str | None
) -> tuple[Any, Any, Any]:
    """Extract the three columns from a DataFrame (any narwhals backend) or an iterable."""
    if isinstance(records, pd.DataFrame):
        _check_columns(source, unit, coder, value, records.columns)
        if len(records) == 0:
            raise AccordError(f"{source or 'data'}: no rows")
        return (
            records[unit].to_numpy(dtype=object),
            records[coder].to_numpy(dtype=object),
            _value_column(records[value]),
        )
    try:
        import narwhals as nw

        frame = nw.from_native(records, eager_only=False, allow_series=False)
    except TypeError:
        frame = None
    if frame is not None:
        if isinstance(frame, nw.LazyFrame):
            frame = frame.collect()
        columns = frame.columns
        _check_columns(source, unit, coder, value, columns)
        native = frame.select(unit, coder, value).to_pandas()
        return _columns_from_records(native, unit, coder, value, source)
    rows = list(records)
    if not rows:
        raise AccordError(f"{source or 'data'}: no records")
    if isinstance(rows[0], Mapping):
        try:
            return (
                [r[unit] for r in rows],
                [r[coder] for r in rows],
                _object_array([r.get(value) for r in rows]),
            )
        except KeyError as exc:
            raise AccordError(f"{source or 'data'}: a record has no key {exc.args[0]!r}") from None
    for i, r in enumerate(rows):
        if not isinstance(r, Iterable) or isinstance(r, (str, bytes)) or len(r) != 3:
            raise AccordError(f"{_where(source, i + 1)}: a record must be (unit, coder, value); got {r!r}")
    return [r[0] for r in rows], [r[1] for r in rows], _object_array([r[2] for r in rows])


def _is_frame(obj: Any) -> bool:
    """A DataFrame of a library narwhals knows (polars, pyarrow, modin...), without importing them."""
    module = type(obj).__module__.split(".")[0]
    return module in {"polars", "pyarrow", "modin", "cudf"} and hasattr(obj, "columns")

