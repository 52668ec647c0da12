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
attribute of an event (``A1 TAB Negation E1``, brat's example of an event attribute) is read onto the
event's trigger, the text-bound annotation of its ``E`` line (``E1 TAB Type:T2 ...``): the span the
annotators marked for the event, which is what the attribute measures align (the import report says how
many were). An attribute of a relation is not a span's: counted as dropped. A line naming an id the file
does not hold, a binary and a valued form of one attribute on one target, two different values of one
attribute on one span (given through two events sharing a trigger, say), or an event whose trigger is not
a text-bound annotation of the file is an :class:`~accord.AccordError` naming the file, the line and the
annotation.

Not public: :func:`accord.importers.read_export` (``tool="brat", attributes=True``) is the API.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from accord._shared.errors import AccordError

__all__ = ["AttributeLine", "attach", "event_note", "parse_line", "trigger_of"]

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


def trigger_of(ann: Path, event: tuple[int, str], fail: Callable[..., AccordError]) -> str:
    """The trigger id of an ``E`` line (``E1 TAB Type:T2 Role:T3``), given as (line number, line)."""
    lineno, raw = event
    ident, tab, rest = raw.partition("\t")
    head = rest.split()[0] if rest.split() else ""
    kind, colon, trigger = head.partition(":")
    if not tab or not colon or not kind or not trigger:
        raise fail(ann, lineno, "an event line needs ID TAB TYPE:TRIGGER [ROLE:ID]*", ident.strip(), "trigger")
    return trigger


def event_note(n: int) -> str | None:
    """The import report's note on the attributes of events read onto their triggers."""
    if not n:
        return None
    return (f"{n} attribute{'s' if n != 1 else ''} of events read onto the events' triggers (the text-bound "
            "annotation of each E line), where accord attributes measures them")


def attach(ann: Path, lines: list[AttributeLine], spans: list[Any], span_of: dict[str, int], ids: dict[str, int],
           fail: Callable[..., AccordError], events: dict[str, tuple[int, str]] | None = None,
           ) -> tuple[list[AttributeLine], int]:
    """Set each line's attribute on its span in *spans* (``span_of``: a ``T`` id -> index; *events*: an ``E`` id
    -> its line number and line, whose trigger takes the event's attributes); returns the lines whose target is
    a relation or other annotation that is not a span (the caller counts them as dropped), and how many
    attributes of events were read onto triggers."""
    values: dict[int, dict[str, Any]] = {}
    where: dict[tuple[int, str], AttributeLine] = {}
    others = []
    n_events = 0
    events = events or {}
    for a in lines:
        if a.target in span_of:
            k = span_of[a.target]
        elif a.target in events:
            trigger = trigger_of(ann, events[a.target], fail)
            if trigger not in span_of:
                raise fail(ann, events[a.target][0], f"the trigger {trigger} of event {a.target} (whose attribute "
                           f"{a.ident} is on line {a.line}) is not a text-bound annotation of the file",
                           a.target, "trigger")
            k = span_of[trigger]
            n_events += 1
        else:
            if a.target not in ids:
                raise fail(ann, a.line, f"names the annotation {a.target}, which the file does not hold", a.ident,
                           "target")
            others.append(a)
            continue
        mine = values.setdefault(k, {})
        if a.name.startswith("N:"):
            mine[a.name] = (*mine.get(a.name, ()), a.value)
            continue
        first = where.get((k, a.name))
        if first is not None and first.value != a.value:
            said = ("set without a value" if v is True else f"the value {v!r}" for v in (first.value, a.value))
            on = a.target if first.target == a.target else f"{a.target}'s span (also {first.target}'s)"
            raise fail(ann, a.line, f"gives {on} the attribute {a.name} {next(said)} on line {first.line} and "
                       f"{next(said)} here; brat gives an attribute one value", a.ident)
        where[(k, a.name)] = a
        mine[a.name] = a.value
    for k, mine in values.items():
        for name, v in mine.items():
            if isinstance(v, tuple):
                ids_given = tuple(dict.fromkeys(v))  # one entry linked twice is one link
                mine[name] = ids_given[0] if len(ids_given) == 1 else ids_given
        spans[k] = dataclasses.replace(spans[k], attributes=mine)
    return others, n_events
