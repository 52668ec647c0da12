"""The order of ordered text labels (``--order``), checked against the values read.

``--order "Very Easy,Easy,Neutral,Difficult,Very Difficult"`` gives the labels from lowest to highest
for the ordinal, interval and ratio distances (the one mechanism of the Python API,
``get_distance(name, order=[...])``); without it, those distances refuse text labels, whose
alphabetical order is not a scale.  :func:`parse_order` reads the option's text and :func:`ordered_distance`
resolves the distance once and checks the order against the values read, so every command (and the
library functions behind them, :func:`accord.coefficients.agree`, the report) says the same thing.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from typing import Any

import numpy as np

from accord._shared.errors import AccordError
from accord._shared.names import shown_list
from accord.distances import ORDERED_DISTANCES, Distance, get_distance, text_labels
from accord.distances._scalar import check_order, number_labels, refuse_unordered_text

__all__ = ["order_items", "ordered_distance", "parse_order"]


def parse_order(text: str | None) -> list[str] | None:
    """The labels of ``--order``, in order (None without the option).

    Examples
    --------
    >>> parse_order("low, mid ,high")
    ['low', 'mid', 'high']
    >>> parse_order('"1, a",2')
    ['1, a', '2']
    """
    if text is None:
        return None
    rows = list(csv.reader([text], skipinitialspace=True))
    items = [item.strip() for item in (rows[0] if rows else [])]
    if not items or any(not item for item in items):
        raise AccordError(f"--order must list the labels from lowest to highest, comma-separated; got {text!r}")
    twice = sorted({item for item in items if items.count(item) > 1})
    if twice:
        raise AccordError(f"--order names {', '.join(map(repr, twice))} more than once; got {text!r}")
    return items


def _number(text: str) -> int | float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return int(x) if x.is_integer() and "." not in text and "e" not in text.lower() else x


def order_items(items: list[str], values: np.ndarray) -> list[Any]:
    """The labels of ``--order`` as the values they name: the text label itself, or the number it spells
    when the values are numbers (``"2"`` is the value 2)."""
    texts = {v for v in text_labels(values)}
    out: list[Any] = []
    for item in items:
        if item in texts:
            out.append(item)
            continue
        n = _number(item)
        out.append(item if n is None else n)
    return out


def ordered_distance(distance: str | Distance, order: str | Sequence[Any] | None, values: np.ndarray, *,
                     source: str | None = None, set_valued: bool = False) -> Distance:
    """The distance to compute with, resolved once: *distance* with the order of ``--order`` when given (the
    option's text, or the labels in order).

    Refuses (naming ``--order``) text labels under the ordinal, interval or ratio distance without an
    order, ``--order`` with any other distance, and labels of the data that ``--order`` does not name
    (all of them).
    """
    where = f"{source}: " if source else ""
    dist = get_distance(distance)
    items = parse_order(order) if isinstance(order, str) or order is None else check_order(list(order))
    if items is None:
        if isinstance(dist, ORDERED_DISTANCES) and dist.order is None and not set_valued:
            text = text_labels(values)
            if text and number_labels(values) is None:  # "1".."5" are the numbers they spell: no order needed
                raise AccordError(where + str(refuse_unordered_text(
                    dist.name, text, how='--order "lowest,...,highest"')))
        return dist
    if set_valued or not isinstance(dist, ORDERED_DISTANCES):
        raise AccordError(f"--order gives the order of the labels for the ordinal, interval and ratio distances; "
                          f"the distance here is {dist.name}")
    wanted = order_items(items, values)
    named = set(wanted)
    outside = [v for v in values.tolist() if v not in named]
    if outside:
        shown = shown_list(outside, 10)
        raise AccordError(f"{where}{'a label' if len(outside) == 1 else f'{len(outside)} labels'} of the data "
                          f"{'is' if len(outside) == 1 else 'are'} not in --order: {shown}; --order names "
                          f"{', '.join(items)}")
    return get_distance(dist, order=wanted)
