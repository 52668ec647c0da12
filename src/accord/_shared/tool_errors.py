"""Errors that name where in a tool's export they are: the tool, the file, the record, its line, the field.

Below the importers and the readers of zip containers and spreadsheets (:mod:`accord._shared.zips`), which all say
an error in one form.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words

__all__ = ["QUOTE_LIMIT", "fail", "quote"]

#: Characters of a user's value a message quotes before cutting it (see :func:`quote`).
QUOTE_LIMIT = 60


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """*value* as a message quotes it: its ``repr``, cut to its first *limit* characters when longer.

    A record id, a label or a cell can be a whole document (doccano keys an example without an id by its
    text); a message quotes its start and says how long it is, so that one line stays one line.

    Examples
    --------
    >>> quote("PER")
    "'PER'"
    >>> quote("x" * 100, limit=5)
    "'xxxxx'…(100 characters)"
    >>> quote(12)
    '12'
    """
    text = value if isinstance(value, str) else None
    if text is None:
        shown = repr(value)
        return shown if len(shown) <= limit + 2 else f"{shown[:limit]}…({plural(len(shown), 'character')})"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}…({plural(len(text), 'character')})"


def _name(value: Any) -> str:
    """A record id or an annotator as a message names it (bare, cut like :func:`quote` when long)."""
    text = str(value)
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}…({plural(len(text), 'character')})"


def fail(
    tool: str,
    source: str | Path,
    message: str,
    *,
    record: Any = None,
    line: int | None = None,
    field: str | None = None,
    coder: Any = None,
) -> AccordError:
    """An :class:`AccordError` naming the tool, the file, the record, its line, the field and the coder."""
    where = [f"{tool} export {source}"]
    if line is not None:
        where.append(f"line {line}")
    if record is not None:
        where.append(f"record {_name(record)}")
    if coder is not None:
        where.append(f"annotator {_name(coder)}")
    if field is not None:
        where.append(f"field {quote(field)}")
    return AccordError(words(f"{', '.join(where)}: ", message))
