"""Span annotations: who marked which stretch of which document with which label.

:class:`SpanAnnotations` is what every span importer returns and every span
statistic reads (:mod:`accord.spans`).  Offsets are Python code points into the
document text, half-open ``[start, end)``; importers re-anchor the UTF-16 code
units of JavaScript tools and INCEpTION before building it.

Which documents a coder *saw* is kept apart from the spans: a coder who saw a
document and marked nothing in it agrees with another who marked nothing
there, while a document never assigned to a coder is missing for that coder.

The model sits under the importers, which build it, and under :mod:`accord.spans`, which reads it (and reads
a tool's export through the importers); its names are exported from :mod:`accord.spans` and :mod:`accord`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from accord._shared.errors import AccordError, plural

__all__ = ["Span", "SpanAnnotations"]


@dataclass(frozen=True, order=True)
class Span:
    """One annotated stretch of text.

    Attributes
    ----------
    document : str
        The document the span belongs to.
    start, end : int
        Half-open code-point offsets ``[start, end)`` into the document text;
        for a discontinuous span, the first fragment's start and the last
        fragment's end.
    label : str
        The span's label (entity type, argument role...).
    coder : str
        Who marked it.
    fragments : tuple of (int, int)
        The fragments of a discontinuous span (brat ``T1 Org 0 5;10 15``), in
        order; ``((start, end),)`` for an ordinary span.
    text : str or None
        The covered text as the export gives it, when it does (checked against
        the document by the importer).
    attributes : mapping of str to object
        The span's attributes or features, ``{name: value}`` (brat's ``A``/``M``/``N`` lines, INCEpTION's
        other features of the layer, read with ``attributes=True``): ``True`` for a binary attribute, a tuple
        for several values; compared by :func:`accord.attributes.agreement`, not by the span statistics.
    """

    document: str
    start: int
    end: int
    label: str
    coder: str
    fragments: tuple[tuple[int, int], ...] = ()
    text: str | None = field(default=None, compare=False)
    attributes: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.fragments:
            object.__setattr__(self, "fragments", ((self.start, self.end),))
        if self.start < 0 or self.end < self.start:
            raise AccordError(
                f"span {self.label!r} of coder {self.coder!r} in document {self.document!r} has offsets "
                f"[{self.start}, {self.end}): start must be >= 0 and end >= start"
            )

    def __hash__(self) -> int:
        # the hash of the compared fields, as the dataclass would make it, computed once: spans are hashed
        # again and again (sets of spans, alignments by value) and a frozen span's fields never change
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.document, self.start, self.end, self.label, self.coder, self.fragments))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, Any]:
        # string hashes differ between processes: a pickled span recomputes its hash where it is unpickled
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    def sort_key(self) -> tuple[Any, ...]:
        """The span's compared fields in order: sorting by it orders spans as their ``<`` does, without a call of
        ``<`` for each comparison (a large export's spans sort several times faster)."""
        return (self.document, self.start, self.end, self.label, self.coder, self.fragments)

    @property
    def length(self) -> int:
        """Number of code points covered (the sum over fragments)."""
        return sum(e - s for s, e in self.fragments)


@dataclass(frozen=True, eq=False)
class SpanAnnotations:
    """Spans of several coders over a set of documents.

    Attributes
    ----------
    spans : tuple of Span
        Every span, sorted by document, coder, start, end, label.
    texts : mapping of str to str
        The text of each document where the export carries it (may be empty).
    seen : frozenset of (document, coder)
        The documents each coder saw and annotated (possibly with no span).  A
        span's (document, coder) is always in it.
    tokens : mapping of str to tuple of (int, int), optional
        The export's tokenisation of each document, as code-point offsets, when
        it has one (WebAnno TSV, Prodigy).
    source : str or None
        The file the spans came from, for messages.

    Examples
    --------
    >>> sa = SpanAnnotations.from_spans(
    ...     [Span("d1", 0, 5, "PER", "ann1"), Span("d1", 0, 5, "PER", "ann2")],
    ...     texts={"d1": "Alice met Bob."},
    ... )
    >>> sa.documents, sa.coders
    (('d1',), ('ann1', 'ann2'))
    """

    spans: tuple[Span, ...]
    texts: Mapping[str, str] = field(default_factory=dict)
    seen: frozenset[tuple[str, str]] = frozenset()
    tokens: Mapping[str, tuple[tuple[int, int], ...]] | None = None
    source: str | None = None

    @classmethod
    def from_spans(
        cls,
        spans: Iterable[Span],
        *,
        texts: Mapping[str, str] | None = None,
        seen: Iterable[tuple[str, str]] | None = None,
        tokens: Mapping[str, Sequence[tuple[int, int]]] | None = None,
        source: str | None = None,
    ) -> SpanAnnotations:
        """Build from spans; *seen* defaults to the (document, coder) pairs that hold a span.

        Offsets are checked against *texts* where a document's text is known.
        """
        spans = tuple(sorted(spans, key=Span.sort_key))
        texts = dict(texts or {})
        seen_set = set(seen or ()) | {(s.document, s.coder) for s in spans}
        where = f" in {source}" if source else ""
        for s in spans:
            text = texts.get(s.document)
            if text is not None and s.end > len(text):
                raise AccordError(
                    f"span {s.label!r} of coder {s.coder!r} in document {s.document!r}{where} ends at {s.end}, "
                    f"past the end of the text ({plural(len(text), 'character')})"
                )
        tok = None if tokens is None else {d: tuple(map(tuple, t)) for d, t in tokens.items()}
        return cls(spans=spans, texts=texts, seen=frozenset(seen_set), tokens=tok, source=source)

    @classmethod
    def merged(cls, parts: Sequence[SpanAnnotations], sources: Sequence[Any]) -> SpanAnnotations:
        """The spans of several exports (*sources*, one per part, for messages) as one project.

        What ``accord relations`` and ``accord attributes`` read from several files. The exports'
        tokenisations are not kept: neither measure reads them.

        Raises
        ------
        AccordError
            One coder's annotations of a document in two exports, or a document's text differing between
            exports.
        """
        owner: dict[tuple[str, str], Any] = {}
        texts: dict[str, str] = {}
        for part, p in zip(parts, sources, strict=True):
            for d, c in sorted(part.seen):
                if (d, c) in owner:
                    raise AccordError(f"{p}: coder {c!r} annotated document {d!r} here and in {owner[(d, c)]}; read "
                                      "each coder's annotations of a document from one export")
                owner[(d, c)] = p
            for d, t in part.texts.items():
                if texts.setdefault(d, t) != t:
                    raise AccordError(f"{p}: the text of document {d!r} differs from another export's")
        return cls.from_spans([s for part in parts for s in part.spans], texts=texts, seen=list(owner),
                              source=", ".join(map(str, sources)))

    @property
    def documents(self) -> tuple[str, ...]:
        """Every document seen by some coder or holding a span, sorted."""
        return tuple(sorted({d for d, _ in self.seen} | set(self.texts)))

    @property
    def coders(self) -> tuple[str, ...]:
        """Every coder, sorted."""
        return tuple(sorted({c for _, c in self.seen}))

    @property
    def labels(self) -> tuple[str, ...]:
        """Every label, sorted."""
        return tuple(sorted({s.label for s in self.spans}))

    def to_frame(self) -> Any:
        """The spans as a pandas DataFrame, one row per span (a view for display and export)."""
        import pandas as pd

        return pd.DataFrame(
            [
                {
                    "document": s.document,
                    "coder": s.coder,
                    "start": s.start,
                    "end": s.end,
                    "label": s.label,
                    "fragments": ";".join(f"{a} {b}" for a, b in s.fragments),
                    "text": s.text,
                }
                for s in self.spans
            ],
            columns=["document", "coder", "start", "end", "label", "fragments", "text"],
        )
