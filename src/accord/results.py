"""Shared behaviour of result objects.

Result objects are frozen dataclasses named for what they hold.  They derive
from :class:`Result` to get :meth:`Result.to_dict` (JSON-ready: NaN becomes
``None``, numpy scalars and arrays become Python numbers and lists; fields whose
name starts with an underscore are private and left out) and
:meth:`Result.to_frame` where a tabular view makes sense.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["Result", "jsonable"]


def jsonable(obj: Any) -> Any:
    """Convert *obj* to plain JSON-compatible Python data.

    NaN and infinities become ``None``; numpy scalars become Python scalars;
    arrays, tuples and sets become lists (sets sorted when possible);
    dataclasses and mappings become dicts; other objects with ``to_dict`` use it.

    Examples
    --------
    >>> jsonable({"a": np.float64("nan"), "b": np.int64(3), "c": (1.5, frozenset({2, 1}))})
    {'a': None, 'b': 3, 'c': [1.5, [1, 2]]}
    """
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return f if math.isfinite(f) else None
    if isinstance(obj, np.ndarray):
        return [jsonable(x) for x in obj.tolist()]
    if isinstance(obj, Result):
        return obj.to_dict()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            f.name: jsonable(getattr(obj, f.name))
            for f in dataclasses.fields(obj)
            if not f.name.startswith("_")
        }
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        items = list(obj)
        try:
            items.sort()
        except TypeError:
            items.sort(key=repr)
        return [jsonable(x) for x in items]
    if isinstance(obj, (list, tuple)):
        return [jsonable(x) for x in obj]
    if hasattr(obj, "to_dict"):
        return jsonable(obj.to_dict())
    if hasattr(obj, "name") and isinstance(obj.name, str):
        return obj.name
    return str(obj)


class Result:
    """Mixin for frozen result dataclasses."""

    def _repr_html_(self) -> str:
        """A notebook's view: a table of the scalars of :meth:`to_dict` (every text escaped)."""
        from accord._html import result_html

        data = self.to_dict()
        for key, value in data.items():  # to_dict writes NaN as None: a number NaN is undefined, an empty field a dash
            raw = getattr(self, key, None)
            if value is None and isinstance(raw, float | np.floating) and math.isnan(raw):
                data[key] = math.nan
        return result_html(type(self).__name__, data)

    def to_dict(self) -> dict[str, Any]:
        """The public fields as JSON-ready data (NaN as ``None``)."""
        if not dataclasses.is_dataclass(self):  # pragma: no cover - programming error
            raise TypeError(f"{type(self).__name__} is not a dataclass")
        return {
            f.name: jsonable(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if not f.name.startswith("_")
        }
