"""Ids and labels as every reader takes them: one canonical form, applied the same way everywhere.

Unit, document, coder and annotator ids are names: they compare as text after one canonical form, so that
``1``, ``"1"``, ``1.0`` and ``" 1 "`` name one unit in every format.  Category labels keep their type (a
number stays a number) but lose surrounding whitespace, as their elements do in a set value.  Internal
whitespace is kept; free text, documents and anything offsets point into never pass through here.

Each function that changes cells says how many cells it changed (surrounding whitespace removed), for the
import report.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

__all__ = ["canonical_id", "canonical_ids", "clean_label", "clean_labels", "held_column", "held_ids"]


def _is_missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def canonical_id(x: Any) -> Any:
    """*x* as an id: text without surrounding whitespace; an integral number without its ``.0``.

    Missing values (None, NaN) are returned as they are; other objects (tuples, ...) unchanged.

    >>> canonical_id(" ann1 "), canonical_id(1), canonical_id(1.0), canonical_id("1"), canonical_id(2.5)
    ('ann1', '1', '1', '1', '2.5')
    """
    if isinstance(x, str):
        return x.strip()
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if math.isnan(x):
            return x
        if math.isfinite(x) and x.is_integer():
            return str(int(x))
        return repr(x)
    return x


def canonical_ids(arr: Any) -> tuple[np.ndarray, int]:
    """:func:`canonical_id` over an array of ids, each distinct id once; and the count of cells whose
    surrounding whitespace was removed."""
    a = np.asarray(arr, dtype=object)
    out = np.empty(len(a), dtype=object)
    changed = 0
    cache: dict[Any, Any] = {}
    for i, x in enumerate(a.tolist()):
        if _is_missing(x):
            out[i] = x
            continue
        key = (type(x), x)
        try:
            y = cache[key]
        except KeyError:
            y = cache[key] = canonical_id(x)
        except TypeError:  # unhashable: left for the caller to refuse with its file and line
            out[i] = x
            continue
        if isinstance(x, str) and y != x:
            changed += 1
        out[i] = y
    return out, changed


_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")


def held_ids(ids: list[Any]) -> tuple[np.ndarray, bool]:
    """Distinct ids as a table holds them: each in its :func:`canonical_id` form, then all as integers when every
    one is the text of an integer (``"7"``, not ``"07"``), so that a column of numbers reads, sorts and is
    written as numbers, whichever way the file typed them (``1``, ``1.0``, ``"1"``); else all as text.

    Ids that are neither text nor numbers (a tuple given through the API) are kept as they are.  Also returns
    whether the ids are integers.

    >>> held_ids([1, "2", 3.0])[0].tolist(), held_ids(["1", "a", 2.0])[0].tolist(), held_ids(["07", 7])[0].tolist()
    ([1, 2, 3], ['1', 'a', '2'], ['07', '7'])
    """
    canon = [canonical_id(x) for x in ids]
    if canon and all(isinstance(x, str) and _INTEGER.fullmatch(x) for x in canon):
        out = np.empty(len(canon), dtype=object)  # Python ints, as an object column holds them
        out[:] = [int(x) for x in canon]
        return out, True
    out = np.empty(len(canon), dtype=object)
    out[:] = canon
    return out, False


def held_column(arr: Any) -> tuple[np.ndarray, int]:
    """A column of ids as a table holds them (:func:`held_ids` over its distinct ids: all integers or all text),
    missing cells kept; and the count of cells whose surrounding whitespace was removed.

    >>> held_column([" 1", 2.0, None])[0].tolist(), held_column(["a ", "a", 1])
    ([1, 2, None], (array(['a', 'a', '1'], dtype=object), 1))
    """
    canon, changed = canonical_ids(arr)
    cells = canon.tolist()
    if any(not isinstance(x, str) and not _is_missing(x) for x in cells):  # an object: left for the caller
        return canon, changed
    distinct = list(dict.fromkeys(x for x in cells if isinstance(x, str)))
    held = dict(zip(distinct, held_ids(distinct)[0].tolist(), strict=True))
    out = np.empty(len(cells), dtype=object)
    out[:] = [held.get(x, x) if isinstance(x, str) else x for x in cells]
    return out, changed


def clean_label(x: Any) -> Any:
    """A category label without surrounding whitespace; a set value's text elements likewise.

    >>> clean_label(" pos "), clean_label(3), sorted(clean_label(frozenset({" a", "b "})))
    ('pos', 3, ['a', 'b'])
    """
    if isinstance(x, str):
        return x.strip()
    if isinstance(x, frozenset):
        return frozenset(e.strip() if isinstance(e, str) else e for e in x)
    return x


def _label_changed(x: Any, y: Any) -> bool:
    if isinstance(x, str):
        return x != y
    if isinstance(x, frozenset):
        return any(isinstance(e, str) and e != e.strip() for e in x)
    return False


def clean_labels(arr: Any) -> tuple[np.ndarray, int]:
    """:func:`clean_label` over an array of values; and the count of cells that changed."""
    a = np.asarray(arr, dtype=object)
    out = np.empty(len(a), dtype=object)
    changed = 0
    for i, x in enumerate(a.tolist()):
        if isinstance(x, (str, frozenset)):
            y = clean_label(x)
            changed += _label_changed(x, y)
            out[i] = y
        else:
            out[i] = x
    return out, changed

