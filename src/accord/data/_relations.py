"""Relations between spans: who linked which two spans of a document, with which type.

A :class:`Relation` joins two :class:`~accord.data._spans.Span` of one coder in one document: its *source*
(brat's ``Arg1``, Prodigy's ``head``, an event's trigger) and its *target* (``Arg2``, ``child``, an event's
argument). It is directed unless it says otherwise (``directed=False``: Label Studio's ``bi`` direction); a
measure may also declare whole types undirected.

An event (brat ``E`` line) is a trigger span with role arguments; it is held as one relation per role, from
the trigger to the argument, typed by the role, with the event's id in :attr:`Relation.event`.

:class:`RelationAnnotations` holds the relations with the spans of every coder (the arguments and any span
no relation uses), so that a measure knows which spans a coder marked: a pair of spans a coder marked and
did not relate is a "no relation" of theirs, a span they did not mark is a missing value. The model sits
under the importers (which build it) and is exported from :mod:`accord.relations`, which measures it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from accord._shared.errors import AccordError, plural
from accord.data._spans import Span, SpanAnnotations

__all__ = ["Relation", "RelationAnnotations"]


def _describe(r: Relation) -> str:
    what = f"relation {r.id}" if r.id else f"relation {r.type!r}"
    return f"{what} of coder {r.coder!r} in document {r.document!r}"


@dataclass(frozen=True, order=True)
class Relation:
    """A typed link from one span to another, made by one coder in one document.

    Attributes
    ----------
    document : str
    coder : str
        Who made the relation (and marked both its spans).
    type : str
        The relation's type (brat's relation type, an event role, a Label Studio relation label).
    source, target : Span
        The two arguments, from source to target (brat ``Arg1`` to ``Arg2``, Prodigy ``head`` to ``child``,
        an event's trigger to its argument); both of *coder* in *document*.
    directed : bool
        False for a relation its tool marks as going both ways (Label Studio ``"bi"``).
    id : str or None
        The relation's id in the export (brat ``R3``, ``E2:Theme``), for messages.
    event : str or None
        For an event's role, the event's id (brat ``E2``).

    Examples
    --------
    >>> r = Relation("d", "ann1", "works_for", Span("d", 0, 5, "PER", "ann1"), Span("d", 15, 19, "ORG", "ann1"))
    >>> r.source.label, r.target.label, r.directed
    ('PER', 'ORG', True)
    """

    document: str
    coder: str
    type: str
    source: Span
    target: Span
    directed: bool = True
    id: str | None = field(default=None, compare=False)
    event: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.type, str) or not self.type.strip():
            raise AccordError(f"{_describe(self)}: its type must be a non-empty text; got {self.type!r}")
        for role in ("source", "target"):
            arg = getattr(self, role)
            if not isinstance(arg, Span):
                raise AccordError(f"{_describe(self)}: its {role} must be an accord.spans.Span; got "
                                  f"{type(arg).__name__}")
            if arg.document != self.document or arg.coder != self.coder:
                raise AccordError(
                    f"{_describe(self)}: its {role} span [{arg.start}, {arg.end}) {arg.label!r} is of coder "
                    f"{arg.coder!r} in document {arg.document!r}; a relation joins spans of its own coder and document"
                )
        if not isinstance(self.directed, bool):
            raise AccordError(f"{_describe(self)}: directed must be True or False; got {self.directed!r}")


_SPAN_KEYS = ("id", "document", "coder", "start", "end", "label")
_RELATION_KEYS = ("document", "coder", "type", "source", "target")


def _get(rec: Any, key: str, what: str, k: int) -> Any:
    if not isinstance(rec, Mapping):
        keys = ", ".join(_SPAN_KEYS if what == "span" else _RELATION_KEYS)
        raise AccordError(f"{what} {k + 1} must be a mapping with keys {keys}; got {type(rec).__name__}")
    if key not in rec or rec[key] is None:
        raise AccordError(f"{what} {k + 1} has no {key!r}")
    return rec[key]


@dataclass(frozen=True, eq=False)
class RelationAnnotations:
    """Relations of several coders, with every span each coder marked.

    Attributes
    ----------
    spans : SpanAnnotations
        Every span of every coder: the relations' arguments and the spans no relation uses; its ``seen`` says
        which documents each coder saw.
    relations : tuple of Relation
        Sorted by document, coder, type and arguments.
    source : str or None
        The file read, for messages.

    Examples
    --------
    >>> a1, a2 = Span("d", 0, 5, "PER", "a"), Span("d", 15, 19, "ORG", "a")
    >>> ra = RelationAnnotations.from_relations([Relation("d", "a", "works_for", a1, a2)],
    ...                                         spans=[Span("d", 0, 5, "PER", "b")])
    >>> ra.coders, len(ra.spans.spans), len(ra.relations)
    (('a', 'b'), 3, 1)
    """

    spans: SpanAnnotations
    relations: tuple[Relation, ...]
    source: str | None = None

    @classmethod
    def from_relations(
        cls,
        relations: Iterable[Relation],
        *,
        spans: SpanAnnotations | Iterable[Span] = (),
        texts: Mapping[str, str] | None = None,
        seen: Iterable[tuple[str, str]] | None = None,
        source: str | None = None,
    ) -> RelationAnnotations:
        """Build from relations and the other spans; every argument counts as a span its coder marked.

        Parameters
        ----------
        relations : iterable of Relation
        spans : SpanAnnotations or iterable of Span
            The spans besides the arguments (arguments given here too are not counted twice).
        texts, seen, source
            As :meth:`SpanAnnotations.from_spans` takes them (with a SpanAnnotations, added to its own).
        """
        rels = list(relations)
        for r in rels:
            if not isinstance(r, Relation):
                raise AccordError(f"relations must be accord.relations.Relation objects; got {type(r).__name__}")
        if isinstance(spans, SpanAnnotations):
            base = list(spans.spans)
            texts = {**spans.texts, **(texts or {})}
            seen = set(spans.seen) | set(seen or ())
            source = source or spans.source
        else:
            base = list(spans)
            for s in base:
                if not isinstance(s, Span):
                    raise AccordError(f"spans must be accord.spans.Span objects; got {type(s).__name__}")
        have = set(base)
        for r in rels:
            for arg in (r.source, r.target):
                if arg not in have:
                    have.add(arg)
                    base.append(arg)
        sa = SpanAnnotations.from_spans(base, texts=texts, seen=seen, source=source)
        # the relations' order (document, coder, type, source, target, directed) by a key: as sorting by their
        # own "<", without a call of it for each comparison
        return cls(spans=sa, relations=tuple(sorted(rels, key=lambda r: (
            r.document, r.coder, r.type, r.source.sort_key(), r.target.sort_key(), r.directed))), source=source)

    @classmethod
    def from_records(
        cls,
        spans: Iterable[Mapping[str, Any]],
        relations: Iterable[Mapping[str, Any]],
        *,
        texts: Mapping[str, str] | None = None,
        seen: Iterable[tuple[str, str]] | None = None,
        source: str | None = None,
    ) -> RelationAnnotations:
        """Build from two tables: spans with ids, and relations naming their spans by id.

        Parameters
        ----------
        spans : iterable of mappings
            Keys ``id``, ``document``, ``coder``, ``start``, ``end``, ``label``; an id names one span among
            the spans of its coder in its document.
        relations : iterable of mappings
            Keys ``document``, ``coder``, ``type``, ``source`` and ``target`` (span ids of that coder and
            document), optionally ``id`` and ``directed``.

        Raises
        ------
        AccordError
            A span id used twice by one coder in one document, or a relation naming a span id its coder
            does not have there.

        Examples
        --------
        >>> ra = RelationAnnotations.from_records(
        ...     [{"id": "T1", "document": "d", "coder": "a", "start": 0, "end": 5, "label": "PER"},
        ...      {"id": "T2", "document": "d", "coder": "a", "start": 15, "end": 19, "label": "ORG"}],
        ...     [{"document": "d", "coder": "a", "type": "works_for", "source": "T1", "target": "T2"}])
        >>> ra.relations[0].target.label
        'ORG'
        """
        by_id: dict[tuple[str, str, str], Span] = {}
        all_spans: list[Span] = []
        for k, rec in enumerate(spans):
            vals = [_get(rec, key, "span", k) for key in _SPAN_KEYS]
            ident, doc, coder = str(vals[0]), str(vals[1]), str(vals[2])
            try:
                start, end = int(vals[3]), int(vals[4])
            except (TypeError, ValueError):
                raise AccordError(f"span {ident!r} of coder {coder!r} in document {doc!r}: start and end must be "
                                  f"whole numbers; got {vals[3]!r}, {vals[4]!r}") from None
            s = Span(doc, start, end, str(vals[5]), coder)
            key = (doc, coder, ident)
            if key in by_id:
                raise AccordError(f"span id {ident!r} is used twice by coder {coder!r} in document {doc!r}")
            by_id[key] = s
            all_spans.append(s)
        rels = []
        for k, rec in enumerate(relations):
            doc, coder, typ, src, tgt = (_get(rec, key, "relation", k) for key in _RELATION_KEYS)
            doc, coder = str(doc), str(coder)
            ident = rec.get("id")
            args = []
            for role, sid in (("source", src), ("target", tgt)):
                span = by_id.get((doc, coder, str(sid)))
                if span is None:
                    name = f"relation {ident}" if ident is not None else f"relation {k + 1} ({str(typ)!r})"
                    raise AccordError(f"{name} of coder {coder!r} in document {doc!r}: its {role} {str(sid)!r} is "
                                      "not a span id of that coder in that document")
                args.append(span)
            rels.append(Relation(doc, coder, str(typ), args[0], args[1], directed=bool(rec.get("directed", True)),
                                 id=None if ident is None else str(ident)))
        return cls.from_relations(rels, spans=all_spans, texts=texts, seen=seen, source=source)

    @property
    def coders(self) -> tuple[str, ...]:
        """Every coder, sorted."""
        return self.spans.coders

    @property
    def documents(self) -> tuple[str, ...]:
        """Every document, sorted."""
        return self.spans.documents

    @property
    def types(self) -> tuple[str, ...]:
        """Every relation type, sorted."""
        return tuple(sorted({r.type for r in self.relations}))

    def __repr__(self) -> str:
        return (f"RelationAnnotations({plural(len(self.relations), 'relation')}, "
                f"{plural(len(self.spans.spans), 'span')}, {plural(len(self.coders), 'coder')})")

    def to_frame(self) -> Any:
        """The relations as a pandas DataFrame, one row per relation (a view for display and export)."""
        import pandas as pd

        rows = [{"document": r.document, "coder": r.coder, "id": r.id, "type": r.type, "directed": r.directed,
                 "event": r.event,
                 "source_start": r.source.start, "source_end": r.source.end, "source_label": r.source.label,
                 "target_start": r.target.start, "target_end": r.target.end, "target_label": r.target.label}
                for r in self.relations]
        cols = ["document", "coder", "id", "type", "directed", "event", "source_start", "source_end", "source_label",
                "target_start", "target_end", "target_label"]
        return pd.DataFrame(rows, columns=cols)
