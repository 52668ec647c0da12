"""The CorefUD reader: CoNLL-U whose MISC column carries ``Entity=`` bracket annotations.

CorefUD 1.x (https://ufal.mff.cuni.cz/corefud) stores coreference in the MISC
column of CoNLL-U files.  ``Entity=`` holds *chunks* written without separators:

* ``(e1-person-1-`` opens a mention of entity ``e1``; the fields after ``(`` follow
  the file's ``# global.Entity = eid-etype-head-other`` header (that layout when the
  header is absent), and only the ``eid`` is read (with ``GRP`` in its place the
  group id is read instead: ids are per document here anyway);
* ``e1)`` closes the innermost open mention of ``e1``;
* ``(e2-place-1)`` is a single-word mention;
* ``Entity=e1)(e2-place-2-(e3-object-1-)`` closes one, opens one and adds a
  single-word mention on the same word, read in written order;
* ``(e1[1/2]-...`` ... ``e1[1/2])`` then ``(e1[2/2]-...`` ... ``e1[2/2])`` are the
  two parts of one discontinuous mention.

Positions follow the words the CorefUD scorer aligns (sentence and word ``ID``),
flattened through the document as the ``conll`` reader counts tokens: word ``k`` of
a sentence is ``offset + k - 1``, where ``offset`` counts the words of the
document's earlier sentences (0-based, sentence breaks do not reset it).
Multiword-token lines (``9-10``) are not words (their words ``9`` and ``10`` are).
An empty node ``k.n`` sits at ``position(word k) + n/10`` (a float: ``8.1`` after
document word 7 is ``7.1``); an empty node ``0.n`` before a sentence's first word
takes the next free tenths after the previous word of the document.  A mention is
``(start, end)``, inclusive; a discontinuous one is the flat tuple of its parts'
starts and ends, ``(0, 1, 4, 4)``, as brat's ``0 5;8 10`` gives ``(0, 5, 8, 10)``.
The chain of a mention is its ``eid``, within its document.

Documents start at ``# newdoc`` (named by ``id = ...``, else ``#<ordinal>``);
sentences before the first one form a document named ``document``.  ``SplitAnte=``
and ``Bridge=`` links are not identity coreference: they are counted and stated in
an :class:`~accord.AccordWarning`, not read into chains.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accord._shared.decode import utf8_lines
from accord._shared.errors import AccordError, AccordWarning, no_such_file, plural
from accord.coref._files import _Mentions
from accord.coref._tokens import DocumentTokens

__all__ = ["looks_corefud", "read_corefud"]

# the pieces of an Entity value: brackets and what lies between them (one pass, no backtracking)
_PIECE = re.compile(r"[()]|[^()]+")
# ids and indices of at most 18 digits: longer ones are not read (int() refuses past 4,300 digits)
_DISCONTINUOUS = re.compile(r"^(.+)\[(\d{1,18})/(\d{1,18})\]$")
_GLOBAL_ENTITY = re.compile(r"^#\s*global\.Entity\s*=\s*(\S+)\s*$")
_NEWDOC = re.compile(r"^#\s*newdoc(?:\s+id\s*=\s*(.*?))?\s*$")
_SENT_ID = re.compile(r"^#\s*sent_id\s*=\s*(.*?)\s*$")
_WORD = re.compile(r"^[1-9]\d{0,17}$")
_MULTIWORD = re.compile(r"^\d+-\d+$")
_EMPTY = re.compile(r"^(\d{1,18})\.(\d{1,18})$")
_DEFAULT_LAYOUT = "eid-etype-head-other"


def _chunks(value: str) -> list[str] | None:
    """The chunks of an Entity value, in order: an opening bracket (optionally closed on the same word,
    ``(e1-person-1-)``) or a closing one (``e1)``); None when the value is not made of such chunks."""
    pieces = _PIECE.findall(value)
    out: list[str] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if p == "(" and nxt not in (None, "(", ")"):
            closed = i + 2 < len(pieces) and pieces[i + 2] == ")"
            out.append(f"({nxt}{')' if closed else ''}")
            i += 3 if closed else 2
        elif p not in ("(", ")") and nxt == ")":
            out.append(f"{p})")
            i += 2
        else:
            return None
    return out


def _cut(text: str, limit: int = 60) -> str:
    """*text* as a message quotes it: its repr, cut to *limit* characters when longer."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}…({len(text):,} characters)"


def looks_corefud(path: Path, lines: list[str] | None = None) -> bool:
    """True when a CoNLL-U token line carries ``Entity=`` in MISC, or a ``# global.Entity`` header is present.

    With *lines* only those lines are looked at; else the file is scanned until the first hit.
    """

    def hit(line: str) -> bool:
        if line.startswith("#"):
            return _GLOBAL_ENTITY.match(line) is not None
        cells = line.rstrip("\r\n").split("\t")
        return len(cells) >= 10 and any(x.startswith("Entity=") for x in cells[9].split("|"))

    if lines is not None:
        return any(hit(x) for x in lines)
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            return any(hit(x) for x in fh)
    except FileNotFoundError:
        raise no_such_file(path) from None
    except OSError as exc:
        raise AccordError(f"{path}: cannot read ({exc.strerror})") from None


@dataclass
class _Discontinuous:
    """A discontinuous mention whose parts are being read."""

    total: int
    line: int
    parts: list[tuple[Any, Any]] = field(default_factory=list)
    open: bool = False


@dataclass
class _Open:
    """An opened, not yet closed, mention (or part of one)."""

    start: Any
    line: int
    part: tuple[int, int] | None = None
    whole: _Discontinuous | None = None


class _Document:
    def __init__(self, name: Hashable, line: int) -> None:
        self.name = name
        self.line = line
        self.words = 0  # words of the document read so far
        self.offset = 0  # words of the document before the current sentence
        self.last_ord = 0  # highest word ID of the current sentence
        self.tail: dict[int, int] = {}  # word ID -> highest empty-node index after it (current sentence)
        self.trailing = 0  # tenths used by empty nodes after the previous sentence's last word
        self.open: dict[str, list[_Open]] = {}
        self.pending: dict[str, list[_Discontinuous]] = {}
        self.forms: list[str] = []  # FORM of each word, and the sentence it is in (from 1)
        self.sentence_of: list[int] = []
        self.sentence = 1
        self.ids: list[str] = []  # word ID and line of each word, for the check that two files hold the same words
        self.lines: list[int] = []

    def words_of(self, mention: tuple[Any, ...]) -> tuple[str | None, int | None]:
        """The words of a mention ((start, end) pairs of positions; empty nodes left out) and its sentence."""
        parts = []
        for a, b in zip(mention[::2], mention[1::2], strict=True):
            lo, hi = math.ceil(a), math.floor(b)
            parts.append(" ".join(self.forms[lo:hi + 1]))
        first = math.ceil(mention[0])
        sentence = self.sentence_of[first] if first < len(self.sentence_of) else None
        text = " … ".join(p for p in parts if p)
        return text or None, sentence

    def end_sentence(self) -> None:
        if self.words > self.offset:
            self.sentence += 1
            self.trailing = self.tail.get(self.last_ord, 0)
        self.offset = self.words
        self.last_ord = 0
        self.tail = {}


def read_corefud(path: Path, duplicates: str, tokens: dict[Hashable, DocumentTokens] | None = None
                 ) -> list[tuple[Any, ...]]:
    """Read one CorefUD file into ``(document, mention, chain, line, words, sentence)`` records (see the module
    docstring); *words* are the FORMs of the mention's words, *sentence* the sentence it starts in (from 1).
    *tokens*, when given, receives each document's words (their ``ID``, FORM, sentence and line)."""
    out = _Mentions(path, duplicates)
    layout = _DEFAULT_LAYOUT.split("-")
    names: set[Hashable] = set()
    doc: _Document | None = None
    n_docs = 0
    sent_id = ""
    split_ante = bridge = 0
    lineno = 0

    def where(line: int) -> str:
        return f"{path}:{line}" + (f" (sentence {sent_id!r})" if sent_id else "")

    def finish(d: _Document, end_line: int) -> None:
        for eid, stack in d.open.items():
            if stack:
                o = stack[-1]
                what = f"part {o.part[0]}/{o.part[1]} of a discontinuous mention" if o.part else "a mention"
                raise AccordError(
                    f"{path}:{o.line}: {what} of entity {eid} opened here is never closed "
                    f"(document {d.name!r} ends at line {end_line})"
                )
        for eid, wholes in d.pending.items():
            for w in wholes:
                raise AccordError(
                    f"{path}:{w.line}: the discontinuous mention of entity {eid} begun here has "
                    f"{len(w.parts)} of its {w.total} parts (document {d.name!r} ends at line {end_line})"
                )
        if tokens is not None:
            tokens[d.name] = DocumentTokens(str(path), tuple(d.ids), tuple(d.forms), tuple(d.sentence_of),
                                            tuple(d.lines), end_line)

    def close(d: _Document, eid: str, o: _Open, end: Any, line: int) -> None:
        if o.whole is None:
            out.add(d.name, (o.start, end), eid, line, *d.words_of((o.start, end)))
            return
        o.whole.parts.append((o.start, end))
        o.whole.open = False
        if len(o.whole.parts) == o.whole.total:
            d.pending[eid].remove(o.whole)
            mention = tuple(x for part in o.whole.parts for x in part)
            out.add(d.name, mention, eid, line, *d.words_of(mention))

    def part_of(eid: str, line: int) -> tuple[str, tuple[int, int] | None]:
        if not eid.endswith("]"):
            return eid, None
        m = _DISCONTINUOUS.match(eid)
        if m is None:
            raise AccordError(f"{where(line)}: cannot read the discontinuous mention id {_cut(eid)}; expected "
                              "'e1[1/2]' (part 1 of 2)")
        i, n = int(m.group(2)), int(m.group(3))
        if not 1 <= i <= n or n < 2:
            raise AccordError(f"{where(line)}: bad discontinuous index {_cut(eid)}: part {i} of {n} "
                              "(expected 1 <= part <= total, total >= 2)")
        return m.group(1), (i, n)

    def entity_cell(d: _Document, value: str, pos: Any, line: int) -> None:
        chunks = _chunks(value)
        if not value or chunks is None:
            raise AccordError(
                f"{where(line)}: cannot read Entity={_cut(value)}; expected chunks such as '(e1-person-1-' "
                "(opens e1), 'e1)' (closes it) and '(e2-place-1-)' (a single word), written without separators"
            )
        for chunk in chunks:
            opening, closing = chunk.startswith("("), chunk.endswith(")")
            if opening:
                body = chunk[1:-1] if closing else chunk[1:]
                values = body.split("-")
                slot = next((k for k, name in enumerate(layout) if name in ("eid", "GRP")), 0)
                eid_full = values[slot] if slot < len(values) else ""
                if not eid_full:
                    raise AccordError(f"{where(line)}: no entity id in {_cut(chunk)} (global.Entity = "
                                      f"{'-'.join(layout)})")
                eid, part = part_of(eid_full, line)
                whole: _Discontinuous | None = None
                if part is not None:
                    i, n = part
                    wholes = d.pending.setdefault(eid, [])
                    if i == 1:
                        whole = _Discontinuous(total=n, line=line)
                        wholes.append(whole)
                    else:
                        whole = next((w for w in wholes if w.total == n and len(w.parts) == i - 1 and not w.open),
                                     None)
                        if whole is None:
                            raise AccordError(
                                f"{where(line)}: bad discontinuous index in {_cut(chunk)}: part {i} of {n} of entity "
                                f"{eid} follows no closed part {i - 1} of {n}"
                            )
                    whole.open = True
                o = _Open(start=pos, line=line, part=part, whole=whole)
                if closing:
                    close(d, eid, o, pos, line)
                else:
                    d.open.setdefault(eid, []).append(o)
            else:
                eid, part = part_of(chunk[:-1], line)
                stack = d.open.get(eid)
                if not stack:
                    raise AccordError(f"{where(line)}: {_cut(chunk)} closes a mention of entity {eid[:60]} that is "
                                      f"not open in document {d.name!r}")
                o = stack.pop()
                if part is not None and o.part != part:
                    got = f"part {o.part[0]}/{o.part[1]}" if o.part else "a continuous mention"
                    raise AccordError(f"{where(line)}: bad discontinuous index: {_cut(chunk)} closes part "
                                      f"{part[0]}/{part[1]} of entity {eid}, but the open mention of {eid} "
                                      f"(line {o.line}) is {got}")
                close(d, eid, o, pos, line)

    with utf8_lines(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\r\n")
            if not line.strip():
                if doc is not None:
                    doc.end_sentence()
                sent_id = ""
                continue
            if line.startswith("#"):
                m = _GLOBAL_ENTITY.match(line)
                if m:
                    layout = m.group(1).split("-")
                    if "eid" not in layout and "GRP" not in layout:
                        raise AccordError(f"{path}:{lineno}: global.Entity = {m.group(1)} names no 'eid' field")
                    continue
                m = _NEWDOC.match(line)
                if m:
                    if doc is not None:
                        finish(doc, lineno)
                    n_docs += 1
                    name = m.group(1) or f"#{n_docs}"
                    if name in names:
                        raise AccordError(f"{path}:{lineno}: document {name!r} appears twice")
                    names.add(name)
                    doc = _Document(name, lineno)
                    continue
                m = _SENT_ID.match(line)
                if m:
                    sent_id = m.group(1)
                continue
            cells = line.split("\t")
            if len(cells) != 10:
                raise AccordError(f"{where(lineno)}: a CoNLL-U line has 10 tab-separated columns, this one "
                                  f"{len(cells)}")
            if doc is None:
                n_docs += 1
                names.add("document")
                doc = _Document("document", lineno)
            ident = cells[0]
            misc = {}
            if cells[9] not in ("_", ""):
                for item in cells[9].split("|"):
                    key, _, value = item.partition("=")
                    misc[key] = value
            pos: Any
            if _WORD.match(ident):
                k = int(ident)
                pos = doc.words
                doc.words += 1
                doc.forms.append(cells[1])
                doc.sentence_of.append(doc.sentence)
                doc.ids.append(ident)
                doc.lines.append(lineno)
                doc.last_ord = max(doc.last_ord, k)
            elif _MULTIWORD.match(ident):
                if "Entity" in misc:
                    raise AccordError(f"{where(lineno)}: multiword token {ident[:40]} carries "
                                      f"Entity={_cut(misc['Entity'])}; CorefUD puts mentions on its words")
                continue
            else:
                m = _EMPTY.match(ident)
                if m is None:
                    raise AccordError(f"{where(lineno)}: cannot read the ID {_cut(ident)} (expected 5, 9-10 or 8.1)")
                k, n = int(m.group(1)), int(m.group(2))
                doc.tail[k] = max(doc.tail.get(k, 0), n)
                if k == 0:
                    tenths, base = doc.trailing + n, doc.offset - 1
                else:
                    tenths, base = n, doc.offset + k - 1
                if not 1 <= tenths <= 9:
                    raise AccordError(f"{where(lineno)}: empty node {ident}: at most 9 empty nodes fit between two "
                                      "words here")
                pos = round(base + tenths / 10, 1)
            if "Entity" in misc:
                entity_cell(doc, misc["Entity"], pos, lineno)
            if misc.get("SplitAnte"):
                split_ante += len(misc["SplitAnte"].split(","))
            if misc.get("Bridge"):
                bridge += len(misc["Bridge"].split(","))
    if doc is not None:
        finish(doc, lineno)
    if split_ante or bridge:
        warnings.warn(
            f"{path}: {plural(split_ante, 'SplitAnte link')} and {plural(bridge, 'Bridge link')} are not identity "
            "coreference "
            "(split antecedents, bridging) and are not read into chains",
            AccordWarning,
            stacklevel=3,
        )
    return out.records
