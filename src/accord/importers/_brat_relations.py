"""brat relations (``R``) and events (``E``), read into :class:`~accord.data._relations.Relation` objects.

Follows the brat standoff format documentation (https://brat.nlplab.org/standoff.html, brat v1.3):

- a relation is ``R<id> TAB <type> <name>:<id> <name>:<id>``, its two arguments ``Arg1`` and ``Arg2``
  (read as source and target; written in the other order, they are put back);
- an event is ``E<id> TAB <type>:<trigger> [<role>:<id>]*``: a trigger (a text-bound annotation) and
  role arguments; it becomes one relation per role, from the trigger to the argument, typed by the role.
  brat numbers the repeated roles of one event (``Theme2``, ``Org1``, ``Org2``; brat's event-annotation
  tutorial): the number is not part of the role, so it is read without it (said in the import report).

An argument is a text-bound annotation (``T``) or an event (``E``), which stands for its trigger. An
argument id that names no annotation of the file, a trigger that is not text-bound, an event argument
that leads back to itself and a malformed line are errors naming the file, the line, the annotation
and the field.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from accord._shared.errors import plural
from accord.data._relations import Relation
from accord.data._spans import Span

__all__ = ["read_relation_lines", "renumber_note"]

_ARG = re.compile(r"(?P<name>[^\s:]+):(?P<id>\S+)")
_ROLE_NUMBER = re.compile(r"(?<=\D)[0-9]+$")

Fail = Callable[..., Exception]


def _args(fail: Fail, ann: Path, lineno: int, ident: str, data: str) -> list[tuple[str, str]]:
    out = []
    for piece in data.split():
        m = _ARG.fullmatch(piece)
        if m is None:
            raise fail(ann, lineno, f"cannot read the argument {piece!r} (NAME:ID)", ident, "arguments")
        out.append((m["name"], m["id"]))
    return out


def read_relation_lines(ann: Path, doc: str, coder: str, lines: list[tuple[int, str]], textbound: dict[str, Span],
                        fail: Fail) -> tuple[list[Relation], int]:
    """The relations of one ``.ann`` file's ``R`` and ``E`` lines, and how many event roles lost a number.

    *lines* are ``(line number, raw line)``; *textbound* maps the file's ``T`` ids to their spans; *fail*
    builds the error (file, line, message, annotation, field).
    """
    parsed: dict[str, tuple[int, str, list[tuple[str, str]]]] = {}
    for lineno, raw in lines:
        ident, _, tail = raw.partition("\t")
        ident = ident.strip()
        data = tail.split("\t", 1)[0].strip()  # a trailing tab (and anything after it) is not part of the line
        if not data:
            what = "TYPE ARG1:ID ARG2:ID" if ident.startswith("R") else "TYPE:TRIGGER [ROLE:ID]*"
            raise fail(ann, lineno, f"no annotation after the id (expected {what})", ident, "type")
        if ident.startswith("R"):
            typ, _, rest = data.partition(" ")
            args = _args(fail, ann, lineno, ident, rest)
            if len(args) != 2:
                raise fail(ann, lineno, f"a relation has two arguments (Arg1:ID Arg2:ID); found {len(args)}", ident,
                           "arguments")
            parsed[ident] = (lineno, typ, args)
        else:
            args = _args(fail, ann, lineno, ident, data)
            parsed[ident] = (lineno, "", args)

    def trigger(eid: str) -> Span:
        lineno, _, args = parsed[eid]
        _, tid = args[0]
        span = textbound.get(tid)
        if span is None:
            raise fail(ann, lineno, f"its trigger {tid} is not a text-bound annotation (T) of this file", eid,
                       "trigger")
        return span

    def argument(aid: str, lineno: int, ident: str, field: str) -> Span:
        if aid in textbound:
            return textbound[aid]
        if aid.startswith("E") and aid in parsed:
            return trigger(aid)
        raise fail(ann, lineno, f"its argument {aid} names no text-bound annotation or event of this file", ident,
                   field)

    out: list[Relation] = []
    renumbered = 0
    for ident, (lineno, typ, args) in parsed.items():
        if ident.startswith("R"):
            (n1, a1), (n2, a2) = args
            if (n1, n2) == ("Arg2", "Arg1"):
                (n1, a1), (n2, a2) = (n2, a2), (n1, a1)
            src = argument(a1, lineno, ident, n1)
            tgt = argument(a2, lineno, ident, n2)
            out.append(Relation(doc, coder, typ, src, tgt, id=ident))
            continue
        trig = trigger(ident)
        for role, aid in args[1:]:
            if aid == ident:
                raise fail(ann, lineno, f"the event is its own argument ({role}:{aid})", ident, role)
            base = _ROLE_NUMBER.sub("", role)
            renumbered += base != role
            out.append(Relation(doc, coder, base, trig, argument(aid, lineno, ident, role), id=f"{ident}:{role}",
                                event=ident))
    return out, renumbered


def renumber_note(n: int) -> str | None:
    """The import report's note on the event roles read without their number (none when *n* is 0)."""
    if not n:
        return None
    return (f"{plural(n, 'event role')} read without {'its' if n == 1 else 'their'} number (Theme2 as Theme): brat "
            "numbers the repeated roles of an event")
