"""brat standoff: one folder per annotator, each holding ``<document>.ann`` files with the ``.txt`` beside.

Follows the brat standoff format documentation (https://brat.nlplab.org/standoff.html, brat v1.3).
A text-bound annotation is a line ``T<id> TAB <type> <start> <end>[;<start> <end>]* TAB <text>``:
offsets are character offsets into the document's ``.txt`` (code points of the UTF-8 text, newlines
counting one), half-open, and a discontinuous annotation lists its fragments separated by ``;`` (its
text field joins the fragments' texts with a space). Relations (``R``), events (``E``), attributes
(``A``/``M``), normalisations (``N``), notes (``#``) and equivalences (``*``) are not spans: each is counted
as dropped, not compared.

The export is a folder of annotator folders (``round1/alice/doc1.ann``, ``round1/bob/doc1.ann``...).
Texts are the ``.txt`` beside each ``.ann``, or in one shared folder (``texts=``). Cell states: an
``.ann`` with text-bound annotations is *annotated*; an empty ``.ann`` (or one with no ``T`` line) is
*empty*, a document the annotator saw and marked nothing in; a document another annotator has and this
one does not is *unassigned*. brat has no skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.errors import AccordError
from accord.importers import Imported
from accord.importers.report import DroppedRecord, ImportReport

__all__ = ["read", "sniff"]

TOOL = "brat"
_OTHER = {"R": "relation", "E": "event", "A": "attribute", "M": "attribute", "N": "normalisation",
          "#": "note", "*": "equivalence"}


def _annotator_dirs(path: Path) -> list[Path]:
    return sorted(d for d in path.iterdir() if d.is_dir() and any(d.glob("*.ann")))


def sniff(path: Path, head: str) -> bool:
    """A folder of annotator folders holding ``.ann`` files."""
    return path.is_dir() and len(_annotator_dirs(path)) >= 1


def _fail(source: Path, line: int | None, message: str, record: str | None = None) -> AccordError:
    where = f"brat export {source}" + (f", line {line}" if line else "") + (f", annotation {record}" if record else "")
    return AccordError(f"{where}: {message}")


def read(path: str | Path, *, field: str | None = None, texts: str | Path | None = None) -> Imported:
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

    Returns
    -------
    Imported
        ``kind="spans"``, with the spans, the texts and the report of cell states.
    """
    from accord.spans.model import Span, SpanAnnotations

    path = Path(path)
    if field is not None:
        raise AccordError(f"brat export {path}: text-bound annotations are one field; got field={field!r}")
    if not path.is_dir():
        raise AccordError(f"brat export {path}: expected a folder of annotator folders holding .ann files")
    coders = _annotator_dirs(path)
    if not coders:
        raise AccordError(f"brat export {path}: no annotator folder with .ann files inside")
    text_dir = Path(texts) if texts is not None else None
    doc_texts: dict[str, str] = {}
    spans: list[Any] = []
    seen: list[tuple[str, str]] = []
    cells: list[tuple[str, str, str]] = []
    dropped: list[DroppedRecord] = []
    documents: set[str] = set()
    for cdir in coders:
        coder = cdir.name
        for ann in sorted(cdir.glob("*.ann")):
            doc = ann.stem
            documents.add(doc)
            txt = (text_dir / f"{doc}.txt") if text_dir is not None else ann.with_suffix(".txt")
            if not txt.exists():
                raise _fail(ann, None, f"no text {txt} for this document (pass texts= / --option texts=DIR)")
            text = txt.read_text(encoding="utf-8")
            if doc in doc_texts and doc_texts[doc] != text:
                raise _fail(txt, None, f"the text of document {doc!r} differs between annotators")
            doc_texts[doc] = text
            n_spans = 0
            for lineno, raw in enumerate(ann.read_text(encoding="utf-8").splitlines(), start=1):
                if not raw.strip():
                    continue
                kind = raw[0]
                ident = raw.split("\t", 1)[0]
                if kind != "T":
                    reason = _OTHER.get(kind)
                    if reason is None:
                        raise _fail(ann, lineno, f"not a brat standoff line: {raw[:60]!r}")
                    dropped.append(DroppedRecord(f"{doc}:{ident}", f"{reason} (not compared)", lineno, coder))
                    continue
                parts = raw.split("\t")
                if len(parts) < 2:
                    raise _fail(ann, lineno, "a text-bound line needs ID TAB TYPE START END TAB TEXT", ident)
                try:
                    label, offsets = parts[1].split(" ", 1)
                    fragments = tuple(
                        (int(a), int(b)) for a, b in (f.split() for f in offsets.split(";"))
                    )
                except ValueError:
                    raise _fail(ann, lineno, f"cannot read type and offsets {parts[1]!r}", ident) from None
                for a, b in fragments:
                    if not 0 <= a <= b <= len(text):
                        raise _fail(
                            ann, lineno, f"offsets {a} {b} outside the text of {doc!r} ({len(text)} characters)", ident
                        )
                if len(parts) >= 3:
                    expected = " ".join(text[a:b] for a, b in fragments)
                    if parts[2] != expected:
                        raise _fail(
                            ann, lineno, f"its text {parts[2]!r} does not match the document's {expected!r}", ident
                        )
                spans.append(Span(doc, fragments[0][0], fragments[-1][1], label, coder, fragments=fragments,
                                  text=" ".join(text[a:b] for a, b in fragments)))
                n_spans += 1
            seen.append((doc, coder))
            cells.append((doc, coder, "annotated" if n_spans else "empty"))
    data = SpanAnnotations.from_spans(spans, texts=doc_texts, seen=seen, source=str(path))
    report = ImportReport.from_cells(
        TOOL, str(path), items=sorted(documents), cells=cells, coders=[c.name for c in coders], dropped=dropped
    )
    return Imported(tool=TOOL, field=None, kind="spans", annotations=None, spans=data, report=report)
