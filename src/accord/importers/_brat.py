"""brat standoff: one folder per annotator, each holding ``<document>.ann`` files with the ``.txt`` beside.

Follows the brat standoff format documentation (https://brat.nlplab.org/standoff.html, brat v1.3) and
brat's own reader (``server/src/annotation.py``). A text-bound annotation is a line
``T<id> TAB <type> <start> <end>[;<start> <end>]* TAB <text>``: offsets are character offsets into the
document's ``.txt``, that is code points of the UTF-8 text (brat's client counts an emoji or any character
outside the BMP as one, ``client/src/util.js``), half-open; files are read with universal newlines as brat
opens them, so a CRLF line break counts one. A discontinuous annotation lists its fragments separated by
``;`` and its text joins the fragments' texts with a space. The text is taken by its length, as brat does:
a tab, form feed or U+2028 inside it is text (only a newline ends an ``.ann`` line), whatever follows it
after whitespace is a tail brat keeps, a blank or absent text is accepted (brat fills it in), and fragments
written out of order are put in order. Relations (``R``) and events (``E``) are read with
``relations=True`` (:mod:`accord.importers._brat_relations`; ``kind="relations"``) and otherwise counted as
dropped; attributes (``A``/``M``) and normalisations (``N``) are read onto their spans with ``attributes=True``
(:mod:`accord.importers._brat_attributes`) and otherwise counted as dropped; notes (``#``) and equivalences
(``*``) are not spans: each is counted as dropped, not compared. Offsets outside the text, a start after an end,
overlapping fragments, a text that does not match the document, an id used twice in a file, a malformed
line and a file that is not UTF-8 are :class:`~accord.AccordError` naming the file, the line, the
annotation and the field.

The export is a folder of annotator folders (``round1/alice/doc1.ann``, ``round1/bob/doc1.ann``...).
Texts are the ``.txt`` beside each ``.ann``, or in one shared folder (``texts=``). Cell states: an
``.ann`` with text-bound annotations is *annotated*; an empty ``.ann`` (or one with no ``T`` line) is
*empty*, a document the annotator saw and marked nothing in; a document another annotator has and this
one does not is *unassigned*. brat has no skip.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError, plural, words
from accord.importers import Imported
from accord.importers._brat_attributes import attach, event_note, parse_line
from accord.importers._brat_relations import read_relation_lines, renumber_note
from accord.importers._common import folder_entries, opt, quote, symlink_note, symlink_refused
from accord.importers._report import DroppedRecord, ImportReport

__all__ = ["read", "sniff"]

TOOL = "brat"
_OTHER = {"R": "relation", "E": "event", "A": "attribute", "M": "attribute", "N": "normalisation",
          "#": "note", "*": "equivalence"}


def _annotator_dirs(path: Path, follow_symlinks: bool = False, skipped: list[Path] | None = None) -> list[Path]:
    """The annotator folders: folders holding ``.ann`` files (symbolic links left out unless followed)."""
    out = []
    for d in folder_entries(path, follow_symlinks=follow_symlinks, skipped=skipped, dirs=True):
        links: list[Path] = []
        if folder_entries(d, "*.ann", follow_symlinks=follow_symlinks, skipped=links):
            out.append(d)  # its links are counted as its files are read
        elif skipped is not None:
            skipped.extend(links)  # a folder whose .ann files are all links
    return out


def sniff(path: Path, head: str) -> bool:
    """A folder of annotator folders holding ``.ann`` files."""
    return path.is_dir() and len(_annotator_dirs(path)) >= 1


def _fail(source: Path, line: int | None, message: str, record: str | None = None,
          field: str | None = None) -> AccordError:
    where = f"brat export {source}" + (f", line {line}" if line else "") + (f", annotation {record}" if record else "")
    where += f", field {quote(field)}" if field else ""
    return AccordError(words(f"{where}: ", message))


def _read_text(source: Path, *, bom: bool = False) -> str:
    """A file as text with universal newlines (``\\r\\n`` and ``\\r`` read as ``\\n``, as brat opens files)."""
    try:
        return source.read_text(encoding="utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        data = source.read_bytes()
        start = exc.start + (3 if bom and data.startswith(b"\xef\xbb\xbf") else 0)
        raise _fail(source, data.count(b"\n", 0, start) + 1,
                    f"not UTF-8 text ({exc.reason} at byte {start}); brat reads UTF-8") from None


_OFFSETS = re.compile(r"([0-9]+) ([0-9]+)\s*")
_SEP = " "  # brat joins the texts of a discontinuous annotation's fragments with one space


def _textbound(ann: Path, lineno: int, raw: str, text: str, doc: str) -> tuple[str, str, tuple[tuple[int, int], ...]]:
    """``(id, type, fragments in the order written)`` of a ``T`` line, checked as brat checks it.

    Follows brat's reader (``server/src/annotation.py``): the text field is the
    fragments' texts joined by a space and may be followed by whitespace and
    anything else (brat keeps it as a tail); it may be absent or blank (brat fills
    it in); a text that matches the fragments' texts joined without the space
    (written by brat before v1.3) is accepted as brat accepts it.
    """
    ident, tab, tail = raw.partition("\t")
    if not tab:
        raise _fail(ann, lineno, "a text-bound line needs ID TAB TYPE START END TAB TEXT (no tab after the id)",
                    ident)
    data, tab, covered = tail.partition("\t")
    label, space, offsets = data.partition(" ")
    if not label or label != label.strip():
        raise _fail(ann, lineno, f"no annotation type in {quote(data)}", ident, "type")
    fragments = []
    for piece in offsets.split(";") if space else ():
        m = _OFFSETS.fullmatch(piece)
        if m is None:
            raise _fail(ann, lineno, f"cannot read the offsets {quote(offsets)} (START END[;START END]*, integers)",
                        ident, "offsets")
        if max(len(m[1]), len(m[2])) > 18:  # past any text's length (and past what int() reads, at 4300 digits)
            big = m[1] if len(m[1]) > 18 else m[2]
            raise _fail(ann, lineno, f"offset {big[:12]}... ({plural(len(big), 'digit')}) lies outside the text "
                                     f"of {doc!r} "
                        f"({plural(len(text), 'character')})", ident, "offsets")
        fragments.append((int(m[1]), int(m[2])))
    if not fragments:
        raise _fail(ann, lineno, f"no offsets in {quote(data)} (TYPE START END[;START END]*)", ident, "offsets")
    for a, b in fragments:
        if a > b:
            raise _fail(ann, lineno, f"fragment {a} {b} ends before it starts", ident, "offsets")
        if b > len(text):
            raise _fail(ann, lineno, f"offsets {a} {b} outside the text of {quote(doc)} "
                                     f"({plural(len(text), 'character')})",
                        ident, "offsets")
    for k, (a, b) in enumerate(fragments):
        for c, d in fragments[:k]:
            if a < d and c < b:
                raise _fail(ann, lineno, f"fragments {c} {d} and {a} {b} overlap", ident, "offsets")
    if tab and covered.strip():
        pieces = [text[a:b] for a, b in fragments]
        expected = _SEP.join(pieces)
        old = "".join(pieces)
        if covered.startswith(expected):
            rest = covered[len(expected):]
        elif len(pieces) > 1 and covered.startswith(old):
            rest = covered[len(old):]
        else:
            rest = "x"
        if rest and not rest[0].isspace():
            raise _fail(ann, lineno, f"its text {quote(covered)} does not match the document's {quote(expected)}",
                        ident, "text")
    return ident, label, tuple(fragments)


def read(path: str | Path, *, field: str | None = None, texts: str | Path | None = None,
         follow_symlinks: bool = False, relations: bool = False, attributes: bool = False) -> Imported:
    """Read a folder of brat annotator folders into span annotations.

    Parameters
    ----------
    path : str or Path
        The folder holding one folder per annotator.
    field : None
        brat's text-bound annotations are one field; any other value is refused.
    texts : str or Path, optional
        A folder holding ``<document>.txt`` for every document, when the texts
        are not beside the ``.ann`` files.
    follow_symlinks : bool
        Read annotator folders and ``.ann`` files that are symbolic links (default: left out, and counted in a
        note) and ``.txt`` files that are (default: an error): a link inside an export can pull in any file of
        the machine.
    relations : bool
        Read the relations and events too (``kind="relations"``, :class:`~accord.relations.RelationAnnotations`
        in ``relations``); otherwise each is counted as dropped.
    attributes : bool
        Read the attribute (``A``, ``M``) and normalisation (``N``) lines onto the spans they name
        (:attr:`accord.spans.Span.attributes`, see :mod:`accord.importers._brat_attributes`), for
        :func:`accord.attributes.agreement`; by default they are counted as dropped, not read.

    Returns
    -------
    Imported
        ``kind="spans"``, with the spans, the texts and the report of cell states.

    Raises
    ------
    AccordError
        Naming the file, the line, the annotation id and the field (``id``,
        ``type``, ``offsets``, ``text``): a line brat would refuse (see the
        module's description), a missing ``.txt``, a text that differs between
        annotators, a file that is not UTF-8.
    """
    from accord.data._relations import RelationAnnotations
    from accord.data._spans import Span, SpanAnnotations

    path = Path(path)
    if field is not None:
        raise AccordError(f"brat export {path}: text-bound annotations are one field; got field={quote(field)}")
    if not path.is_dir():
        raise AccordError(f"brat export {path}: expected a folder of annotator folders holding .ann files")
    skipped: list[Path] = []
    coders = _annotator_dirs(path, follow_symlinks, skipped)
    if not coders:
        raise AccordError(words(f"brat export {path}: no annotator folder with .ann files inside", *(
            (f" (but {plural(len(skipped), 'symbolic link')}, not followed: pass ", opt("follow_symlinks", True),
             " to read them)") if skipped else ())))
    text_dir = Path(texts) if texts is not None else None
    doc_texts: dict[str, str] = {}
    spans: list[Any] = []
    seen: list[tuple[str, str]] = []
    cells: list[tuple[str, str, str]] = []
    dropped: list[DroppedRecord] = []
    documents: set[str] = set()
    rels: list[Any] = []
    renumbered = event_attributes = 0
    for cdir in coders:
        coder = cdir.name
        for ann in folder_entries(cdir, "*.ann", follow_symlinks=follow_symlinks, skipped=skipped):
            doc = ann.stem
            documents.add(doc)
            txt = (text_dir / f"{doc}.txt") if text_dir is not None else ann.with_suffix(".txt")
            if txt.is_symlink() and not follow_symlinks:
                raise symlink_refused(TOOL, txt)
            if not txt.exists():
                raise _fail(ann, None, words(f"no text {txt} for this document (pass ", opt("texts"), ")"))
            text = _read_text(txt)
            if doc in doc_texts and doc_texts[doc] != text:
                raise _fail(txt, None, f"the text of document {quote(doc)} differs between annotators")
            doc_texts[doc] = text
            n_spans = 0
            ids: dict[str, int] = {}
            linked: list[tuple[int, str]] = []  # the R and E lines, read once the file's T lines are known
            span_of: dict[str, int] = {}  # a T id -> its span in spans, for the attribute and relation lines
            pending: list[Any] = []
            events: dict[str, tuple[int, str]] = {}
            # brat's lines end at a newline only: a tab, form feed or U+2028 is part of a span's text
            for lineno, raw in enumerate(_read_text(ann, bom=True).split("\n"), start=1):
                if not raw.strip():
                    continue
                kind = raw[0]
                ident = raw.split("\t", 1)[0].strip()
                if kind != "*":  # equivalences have no id of their own
                    if ident in ids:
                        raise _fail(ann, lineno, f"the id {ident} is used twice (first on line {ids[ident]})",
                                    ident, "id")
                    ids[ident] = lineno
                if kind == "E" and attributes:  # an event's attributes are its trigger's
                    events[ident] = (lineno, raw)
                if relations and kind in "RE":
                    linked.append((lineno, raw))
                    continue
                if kind in "AMN" and attributes:
                    pending.append(parse_line(ann, lineno, raw, _fail))
                    continue
                if kind != "T":
                    reason = _OTHER.get(kind)
                    if reason is None:
                        raise _fail(ann, lineno, f"not a brat standoff line: {quote(raw[:60])}", field="id")
                    dropped.append(DroppedRecord(f"{doc}:{ident}", f"{reason} (not compared)", lineno, coder))
                    continue
                ident, label, fragments = _textbound(ann, lineno, raw, text, doc)
                ordered = tuple(sorted(fragments))
                spans.append(Span(doc, ordered[0][0], ordered[-1][1], label, coder, fragments=ordered,
                                  text=_SEP.join(text[a:b] for a, b in fragments)))
                span_of[ident] = len(spans) - 1
                n_spans += 1
            others, n_event_attributes = attach(ann, pending, spans, span_of, ids, _fail, events)
            for a in others:
                what = "a relation" if a.target.startswith("R") else "an annotation that is not a span"
                dropped.append(DroppedRecord(f"{doc}:{a.ident}", f"attribute of {what} (not compared)", a.line, coder))
            event_attributes += n_event_attributes
            if linked:  # after the attributes: the relations' arguments are the spans as they end up
                textbound = {ident: spans[i] for ident, i in span_of.items()}
                found, k = read_relation_lines(ann, doc, coder, linked, textbound, _fail)
                rels += found
                renumbered += k
            seen.append((doc, coder))
            cells.append((doc, coder, "annotated" if n_spans else "empty"))
    data = SpanAnnotations.from_spans(spans, texts=doc_texts, seen=seen, source=str(path))
    notes = [n for n in (symlink_note(path, skipped), renumber_note(renumbered), event_note(event_attributes)) if n]
    report = ImportReport.from_cells(
        TOOL, str(path), items=sorted(documents), cells=cells, coders=[c.name for c in coders], dropped=dropped,
        notes=notes,
    )
    if relations:
        return Imported(tool=TOOL, field=None, kind="relations", annotations=None, spans=data, report=report,
                        relations=RelationAnnotations.from_relations(rels, spans=data))
    return Imported(tool=TOOL, field=None, kind="spans", annotations=None, spans=data, report=report)
