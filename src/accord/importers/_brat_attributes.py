"""brat's attribute (``A``, and the older ``M``) and normalisation (``N``) lines, read onto the spans they name.

Follows the brat standoff format documentation (https://brat.nlplab.org/standoff.html, brat v1.3,
"Attribute and modification annotations" and "Normalization annotations"):

- ``A<id> TAB <name> <target>`` is a binary attribute, set on the annotation *target* (a ``T`` span, or an
  event); ``A<id> TAB <name> <target> <value>`` a multi-valued one. ``M<id>`` lines are the same
  annotation in the form of brat's earlier versions ("modifications").
- ``N<id> TAB <type> <target> <resource>:<identifier> TAB <text>`` links *target* to an entry of a
  knowledge base (the type is ``Reference``; the text, the entry's name, is optional). Several ``N`` lines
  may link one target to several entries.

A span's attribute ``<name>`` is ``True`` (binary) or its value; its normalisations to one resource are the
attribute ``N:<resource>``: the identifier, or the tuple of identifiers when several are given. An
attribute of an event or a relation is not a span's: counted as dropped. A line naming an id the file does
not hold, a binary and a valued form of one attribute on one target, or two different values of one
attribute on one target is an :class:`~accord.AccordError` naming the file, the line and the annotation.

Not public: :func:`accord.importers.read_export` (``tool="brat", attributes=True``) is the API.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from accord._shared.errors import AccordError

__all__ = ["AttributeLine", "attach", "parse_line"]

#: The attribute name a normalisation to *resource* is read as.
NORMALISATION = "N:{}"


class AttributeLine(NamedTuple):
    """One ``A``, ``M`` or ``N`` line: its line number and id, the attribute, its target and value."""

    line: int
    ident: str
    name: str
    target: str
    value: Any


def parse_line(ann: Path, lineno: int, raw: str, fail: Callable[..., AccordError]) -> AttributeLine:
    """Read an ``A``, ``M`` or ``N`` line (``fail(file, line, message, record, field)`` makes the error)."""
    ident, tab, rest = raw.partition("\t")
    ident = ident.strip()
    if raw[0] == "N":
        data = rest.partition("\t")[0].split()
        if not tab or len(data) != 3:
            raise fail(ann, lineno, "a normalisation line needs ID TAB TYPE TARGET RESOURCE:IDENTIFIER [TAB TEXT]",
                       ident)
        kind, target, ref = data
        resource, colon, entry = ref.partition(":")
        if not colon or not resource or not entry:
            raise fail(ann, lineno, f"the reference {ref!r} is not RESOURCE:IDENTIFIER", ident, "reference")
        return AttributeLine(lineno, ident, NORMALISATION.format(resource), target, entry)
    data = rest.split()
    if not tab or len(data) not in (2, 3):
        raise fail(ann, lineno, "an attribute line needs ID TAB NAME TARGET [VALUE]", ident)
    return AttributeLine(lineno, ident, data[0], data[1], data[2] if len(data) == 3 else True)


def attach(ann: Path, lines: list[AttributeLine], spans: list[Any], span_of: dict[str, int], ids: dict[str, int],
           fail: Callable[..., AccordError]) -> list[AttributeLine]:
    """Set each line's attribute on its span in *spans* (``span_of``: a ``T`` id -> index); returns the lines whose
    target is an event, relation or other annotation that is not a span (the caller counts them as dropped)."""
    values: dict[int, dict[str, Any]] = {}
    where: dict[tuple[int, str], AttributeLine] = {}
    others = []
    for a in lines:
        if a.target not in span_of:
            if a.target not in ids:
                raise fail(ann, a.line, f"names the annotation {a.target}, which the file does not hold", a.ident,
                           "target")
            others.append(a)
            continue
        k = span_of[a.target]
        mine = values.setdefault(k, {})
        if a.name.startswith("N:"):
            mine[a.name] = (*mine.get(a.name, ()), a.value)
            continue
        first = where.get((k, a.name))
        if first is not None and first.value != a.value:
            said = ("set without a value" if v is True else f"the value {v!r}" for v in (first.value, a.value))
            raise fail(ann, a.line, f"gives {a.target} the attribute {a.name} {next(said)} on line {first.line} and "
                       f"{next(said)} here; brat gives an attribute one value", a.ident)
        where[(k, a.name)] = a
        mine[a.name] = a.value
    for k, mine in values.items():
        for name, v in mine.items():
            if isinstance(v, tuple):
                ids_given = tuple(dict.fromkeys(v))  # one entry linked twice is one link
                mine[name] = ids_given[0] if len(ids_given) == 1 else ids_given
        spans[k] = dataclasses.replace(spans[k], attributes=mine)
    return others
