"""Small HTML views for notebooks: the ``_repr_html_`` of results, of data and of a written report.

Everything a user gave (a coder's name, a label, a file name) is escaped: a coder named
``<script>`` shows as text, never as markup.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["EMPTY", "html_table", "result_html", "scalar_text"]

_STYLE = "border-collapse:collapse;font-size:0.9em"
_CELL = "padding:2px 10px;text-align:left;border-bottom:1px solid #ddd"


#: what a table cell shows for an empty field (None: no note, no reason, no source)
EMPTY = "-"


def scalar_text(value: Any) -> str:
    """A scalar as a table cell shows it: a dash for an empty field (None, an empty text), ``undefined`` for a
    number that is NaN, floats to 6 significant digits.

    An empty ``undefined_reason`` is a dash, not "undefined": only a number is undefined.

    Examples
    --------
    >>> scalar_text(0.74342105263), scalar_text(None), scalar_text(float("nan")), scalar_text(3), scalar_text(True)
    ('0.743421', '-', 'undefined', '3', 'True')
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return EMPTY
    if isinstance(value, float):
        return "undefined" if math.isnan(value) else f"{value:.6g}"
    return str(value)


def html_table(title: str, rows: Iterable[tuple[str, Any]], *, note: str = "") -> str:
    """A two-column HTML table of *rows* (name, value) under *title*, every text escaped.

    Examples
    --------
    >>> html_table("Result", [("coder", "<b>")])  # doctest: +ELLIPSIS
    '<div ...><strong>Result</strong><table ...><tr><th ...>coder</th><td ...>&lt;b&gt;</td></tr></table></div>'
    """
    body = "".join(f'<tr><th style="{_CELL}">{html.escape(str(k))}</th>'
                   f'<td style="{_CELL}">{html.escape(scalar_text(v))}</td></tr>' for k, v in rows)
    tail = f'<div style="color:#666;font-size:0.85em">{html.escape(note)}</div>' if note else ""
    return (f'<div class="accord-repr"><strong>{html.escape(title)}</strong>'
            f'<table style="{_STYLE}">{body}</table>{tail}</div>')


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def result_html(title: str, data: Mapping[str, Any], *, max_items: int = 20) -> str:
    """The table of a result's ``to_dict()``: its scalars and short lists of scalars, then the names of the
    other fields.

    Examples
    --------
    >>> out = result_html("KappaResult", {"kappa": 0.5, "coders": ["a", "<script>"], "table": {"a": 1}})
    >>> "0.5" in out, "a, &lt;script&gt;" in out, "<script>" in out, "also: table" in out
    (True, True, False, True)
    """
    rows: list[tuple[str, Any]] = []
    others = []
    for k, v in data.items():
        if _is_scalar(v):
            rows.append((k, v))
        elif isinstance(v, list) and len(v) <= max_items and all(_is_scalar(x) for x in v):
            rows.append((k, ", ".join(scalar_text(x) for x in v)))
        else:
            others.append(k)
    note = f"also: {', '.join(others)} (see to_dict())" if others else ""
    return html_table(title, rows, note=note)
