"""Read and write DUCView's ``.pyr`` (pyramid) and ``.pan`` (peer annotation) XML files.

Format (DUCView 1.4/1.5): ``<pyramid>`` holds an optional ``<startDocumentRegEx>``,
a ``<text>`` of ``<line>``s and ``<scu uid label>``s with ``<contributor label>``s
of ``<part label start end>``s.  Offsets are 0-based, end-exclusive character
offsets into the text rebuilt by joining the lines with ``"\\n"``; the start
regex splits that text into model summaries (a model runs from one match start
to the next).  A ``.pan`` file is ``<peerAnnotation>`` with the ``<pyramid>`` and
an ``<annotation>`` of ``<text>`` and ``<peerscu uid label>``s whose
contributors are the PSEs; uid 0 collects peer content that matches no SCU.

The files carry an internal DTD, so they are parsed with :mod:`defusedxml`:
entity declarations (entity-expansion bombs) and external entities are refused
with an :class:`~accord.AccordError`, never expanded or fetched.

Real NIST files carry defects; the readers report each one as a
:class:`~accord.pyramid._model.Defect` on the result's ``defects`` (file, SCU id,
offsets) and repair it when the part's label pins the span down.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Literal
from xml.etree.ElementTree import Element, ParseError
from xml.sax.saxutils import escape, quoteattr

import defusedxml
import defusedxml.ElementTree as DET
import numpy as np

from accord._shared.errors import AccordError, no_such_file, plural, words
from accord._shared.output import write_output
from accord.pyramid._model import (
    PSE,
    SCU,
    Contributor,
    Defect,
    ModelSummary,
    PeerAnnotation,
    Pyramid,
    Span,
    merge_duplicate_contributors,
    tokenize,
)
from accord.pyramid._saferegex import match_starts

__all__ = [
    "DUCVIEW_14_REGEX",
    "DUC_HEADER",
    "models_from_peers",
    "pyramid_differences",
    "read_peer_annotation",
    "read_pyramid",
    "split_models",
    "write_peer_annotation",
    "write_pyramid",
]

_PYR_DTD = """ <!ELEMENT pyramid (startDocumentRegEx?,text,scu*)>
 <!ELEMENT startDocumentRegEx (#PCDATA)>
 <!ELEMENT text (line*)>
 <!ELEMENT line (#PCDATA)>
 <!ELEMENT scu (contributor)+>
 <!ATTLIST scu uid CDATA #REQUIRED
               label CDATA #REQUIRED
               comment CDATA #IMPLIED>
 <!ELEMENT contributor (part)+>
 <!ATTLIST contributor label CDATA #REQUIRED
                       comment CDATA #IMPLIED>
 <!ELEMENT part EMPTY>
 <!ATTLIST part label CDATA #REQUIRED
                start CDATA #REQUIRED
                end   CDATA #REQUIRED>
"""
_PAN_DTD = """ <!ELEMENT peerAnnotation (pyramid,annotation,score?)>
 <!ELEMENT annotation (text,peerscu+)>
 <!ELEMENT peerscu (contributor)*>
 <!ATTLIST peerscu uid CDATA #REQUIRED
                   label CDATA #REQUIRED
                   comment CDATA #IMPLIED>
""" + _PYR_DTD

Source = str | os.PathLike[str] | bytes

# Defects that depend on where the models lie (found again when the models change).
_STRUCTURAL = ("contributor-spans-models", "duplicate-model-contributor", "scu-without-contributors")


# ------------------------------------------------------------------- parsing
def _load(source: Source) -> tuple[str, str, list[Defect]]:
    """Return (xml text, display name, the defects of its bytes: CR line ends, Latin-1 rather than UTF-8)."""
    if isinstance(source, bytes):
        raw, name = source, "<bytes>"
    elif isinstance(source, str) and source.lstrip().startswith("<"):
        raw, name = source.encode("utf-8"), "<string>"
    else:
        path = Path(source)
        name = str(path)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise no_such_file(name) from None
    defects: list[Defect] = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = raw.decode("latin-1")
        line = raw.count(b"\n", 0, exc.start) + 1
        defects.append(Defect("latin-1", f"not UTF-8 (byte 0x{raw[exc.start]:02x} on line {line}); read as Latin-1, "
                              "as DUCView's Java may write it", severity="info", file=name, repaired=True))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        defects.append(Defect("crlf", "CR or CRLF line ends, normalised to LF", severity="info", file=name,
                              repaired=True))
    return text, name, defects


def _parse(text: str, name: str) -> Element:
    try:
        return DET.fromstring(text.encode("utf-8"), forbid_dtd=False, forbid_entities=True,
                              forbid_external=True)
    except defusedxml.EntitiesForbidden as exc:
        raise AccordError(
            f"file {name}: refused an XML entity declaration ({exc.name!r}); entity expansion and "
            "external entities are not allowed in DUCView files"
        ) from None
    except (defusedxml.ExternalReferenceForbidden, defusedxml.DTDForbidden) as exc:
        raise AccordError(f"file {name}: refused an external reference in the XML ({exc})") from None
    except ParseError as exc:
        raise AccordError(f"file {name}: not well-formed XML: {exc}") from None


def _lines_text(text_el: Element | None) -> str:
    if text_el is None:
        return ""
    return "\n".join(line.text or "" for line in text_el.findall("line"))


def _int_attr(el: Element, attr: str, name: str, scu: int | None) -> int:
    v = el.get(attr)
    try:
        return int(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        where = f", SCU {scu}" if scu is not None else ""
        raise AccordError(
            f"file {name}{where}: <{el.tag}> attribute {attr!r} must be an integer, got {v!r}"
        ) from None


def _strip_nl(s: str) -> str:
    return s.replace("\n", "").replace("\r", "")


def _matches(text: str, start: int, end: int, label: str) -> bool:
    if not (0 <= start <= end <= len(text)):
        return False
    piece = text[start:end]
    return piece == label or _strip_nl(piece) == _strip_nl(label)


@functools.lru_cache(maxsize=4)
def _label_index(text: str) -> tuple[str, np.ndarray, np.ndarray]:
    """*text* without its newlines; the position in *text* of each of its characters; and the starts of its
    runs: a run ends where two or more newlines stood between two characters, which no label spans."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    where = np.flatnonzero(codes != 10)
    flat = text.replace("\n", "")
    breaks = np.flatnonzero(np.diff(where) > 2) + 1
    return flat, where, np.concatenate(([0], breaks, [len(flat)]))


def _find_label(text: str, label: str, near: int) -> Span | None:
    """Nearest occurrence of *label* in *text*, a newline of the text allowed between any two of its characters.

    The occurrences are those of a left-to-right search that does not overlap them (the first at the leftmost
    place, the next after its end), found with ``str.find`` in the text less its newlines, run by run: linear in
    the text, whatever the label (a regex built from the label took time of the text times the label).
    """
    want = _strip_nl(label)
    if not want:
        return None
    flat, where, bounds = _label_index(text)
    n = len(want)
    best = None
    for lo, hi in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        j = flat.find(want, lo, hi) if hi - lo >= n else -1
        while j >= 0:
            start, end = int(where[j]), int(where[j + n - 1]) + 1
            if best is None or abs(start - near) < abs(best.start - near):
                best = Span(start, end)
            j = flat.find(want, j + n, hi)
    return best


def _resolve_part(
    text: str, start: int, end: int, label: str | None, *, repair: bool, name: str, scu: int | None,
    defects: list[Defect],
) -> Span:
    """Check one part against its label; record defects; return the (repaired) span."""
    if label is None:
        if end < start:
            defects.append(Defect("end-before-start", "part end is before its start and there is no label "
                                  "to repair it", file=name, scu_id=scu, start=start, end=end))
        return Span(start, end)
    if _matches(text, start, end, label):
        if text[start:end] != label:
            defects.append(Defect("label-newline", "part label matches the text only with newlines removed "
                                  "(DUCView strips them from labels)", severity="info", file=name, scu_id=scu,
                                  start=start, end=end, repaired=True))
        return Span(start, end)
    n = len(label)
    if end < start:
        for cand in ((end, start), (start, start + n), (end - n, end)):
            if _matches(text, *cand, label):
                defects.append(Defect("end-before-start", f"part end {end} is before its start {start}; the "
                                      f"label places it at {cand[0]}-{cand[1]}", file=name, scu_id=scu,
                                      start=start, end=end, repaired=repair))
                return Span(*cand) if repair else Span(start, end)
    else:
        for ds, de in ((-1, -1), (1, 1), (0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)):
            if _matches(text, start + ds, end + de, label):
                defects.append(Defect("offset-off-by-one", f"part offsets are off by one; the label "
                                      f"{label[:40]!r} lies at {start + ds}-{end + de}", file=name,
                                      scu_id=scu, start=start, end=end, repaired=repair))
                return Span(start + ds, end + de) if repair else Span(start, end)
    found = _find_label(text, label, start)
    if found is not None:
        defects.append(Defect("offset-mismatch", f"part label {label[:40]!r} is not at its offsets; nearest "
                              f"occurrence at {found.start}-{found.end}", file=name, scu_id=scu,
                              start=start, end=end, repaired=repair))
        return found if repair else Span(start, end)
    defects.append(Defect("label-mismatch", f"part label {label[:40]!r} matches neither the text at its "
                          "offsets nor anywhere else; offsets kept", file=name, scu_id=scu,
                          start=start, end=end))
    return Span(min(start, end), max(start, end))


def _contributors(
    el: Element, text: str, *, repair: bool, name: str, scu: int | None, defects: list[Defect]
) -> list[Contributor]:
    out = []
    for c in el.findall("contributor"):
        spans = []
        for part in c.findall("part"):
            s = _int_attr(part, "start", name, scu)
            e = _int_attr(part, "end", name, scu)
            spans.append(_resolve_part(text, s, e, part.get("label"), repair=repair, name=name, scu=scu,
                                       defects=defects))
        if not spans:
            defects.append(Defect("contributor-without-parts", "a contributor has no <part>", file=name,
                                  scu_id=scu))
            continue
        out.append(Contributor(tuple(spans), label=c.get("label", "")))
    return out


#: DUC's model header: a dashed line, a model id such as ``D0608.M.250.H.D``, a dashed line.  The model
#: starts at the first dashed line, where DUCView 1.4's ``[-]*\n(\s*)D[0-9]*\.M\.250\.[A-Z]\.[A-Z]\n[-]*\n``
#: (the start regex of the peer annotations of DUC 2006/2007) puts it.
DUC_HEADER = re.compile(r"(?m)^-+[ \t]*\n\s*D\d+(?:-?[A-Z])?\.M\.\d+\.[A-Z]\.[A-Z0-9]+[ \t]*\n-+[ \t]*(?:\n|\Z)")


def _models_at(starts: list[int], n: int) -> tuple[ModelSummary, ...]:
    ends = starts[1:] + [n]
    return tuple(ModelSummary(i, s, e, name=f"model {i + 1}") for i, (s, e) in enumerate(zip(starts, ends,
                                                                                          strict=True)))


def split_models(
    text: str, regex: str | None, *, name: str = "<pyramid>", defects: list[Defect] | None = None,
    what: str = "startDocumentRegEx",
) -> tuple[tuple[ModelSummary, ...], str]:
    """Find the model summaries of a pyramid text.

    With a start regex, a model runs from one match start to the next (the
    pattern is untrusted: it runs on RE2, or on Python's ``re`` under a time
    limit, see :mod:`accord.pyramid._saferegex`).  Without one, DUC's model
    header lines (a dashed line, an id such as ``D0608.M.250.H.D``, a dashed
    line) start the models; failing those, the models are the blocks between
    blank lines.

    Parameters
    ----------
    text : str
        The pyramid text.
    regex : str or None
        The start regex.
    name : str, keyword-only
        The file, for messages.
    defects : list, keyword-only
        Receives a ``no-start-regex`` defect when no regex was given.
    what : str, keyword-only
        Where the regex came from, for messages.

    Returns
    -------
    models : tuple of ModelSummary
    rule : str
        ``"start-regex"``, ``"duc-headers"`` or ``"blank-lines"`` (see
        :data:`~accord.pyramid._model.MODEL_RULES`).

    Examples
    --------
    >>> text = "---\\nD0608.M.250.H.D\\n---\\nOne.\\n\\nTwo.\\n---\\nD0608.M.250.H.F\\n---\\nThree."
    >>> models, rule = split_models(text, None)
    >>> len(models), rule
    (2, 'duc-headers')
    """
    if defects is None:
        defects = []
    if regex is not None:
        starts, _ = match_starts(regex, text, source=name, what=what)
        if not starts:
            raise AccordError(f"file {name}: {what} {regex!r} matches nowhere in the text")
        return _models_at(starts, len(text)), "start-regex"
    headers = [m.start() for m in DUC_HEADER.finditer(text)]
    if headers:
        defects.append(Defect("no-start-regex", "no <startDocumentRegEx>: found "
                                                f"{plural(len(headers), 'model')} at DUC "
                              "model header lines (dashed line, model id, dashed line)", severity="info",
                              file=name, repaired=True))
        return _models_at(headers, len(text)), "duc-headers"
    # No start regex and no DUC headers: models are the blocks between blank lines.
    blocks = [(m.start(), m.end()) for m in re.finditer(r"\S(?:.|\n(?![ \t]*\n))*", text)]
    defects.append(Defect("no-start-regex", f"no <startDocumentRegEx>: split the text into {len(blocks)} "
                          "models at blank lines (pass start_regex= to override)", severity="warning",
                          file=name, repaired=True))
    if not blocks:
        blocks = [(0, len(text))]
    return tuple(ModelSummary(i, s, e, name=f"model {i + 1}") for i, (s, e) in enumerate(blocks)), "blank-lines"


def _pyramid_from_element(
    root: Element, name: str, *, repair: bool, start_regex: str | None,
    duplicates: Literal["keep", "merge"], defects: list[Defect],
) -> Pyramid:
    text = _lines_text(root.find("text"))
    rx_el = root.find("startDocumentRegEx")
    file_regex = rx_el.text if rx_el is not None and rx_el.text else None
    regex = start_regex if start_regex is not None else file_regex
    models, rule = split_models(text, regex, name=name, defects=defects,
                                what="startDocumentRegEx" if start_regex is None else "start_regex")
    if start_regex is not None:
        rule = "start-regex-option"
    scus = []
    for el in root.findall("scu"):
        sid = _int_attr(el, "uid", name, None)
        contribs = _contributors(el, text, repair=repair, name=name, scu=sid, defects=defects)
        scus.append(SCU(sid, el.get("label", ""), tuple(contribs)))
    pyr = Pyramid(text=text, models=models, scus=tuple(scus), start_regex=regex, name=name, models_found_by=rule)
    # Structural defects the label cannot fix: parts in two models, two contributors from one model.
    for d in pyr.check(style="relaxed").defects:
        if d.kind in _STRUCTURAL:
            if d.kind == "duplicate-model-contributor" and duplicates == "merge":
                d = replace(d, repaired=True, message=words(d.message, "; merged"))
            defects.append(d)
    if duplicates == "merge":
        pyr = merge_duplicate_contributors(pyr)
    elif duplicates != "keep":
        raise AccordError(f"duplicates: must be 'keep' or 'merge', got {duplicates!r}")
    return replace(pyr, defects=tuple(defects))


def read_pyramid(
    source: Source,
    *,
    repair: bool = True,
    start_regex: str | None = None,
    duplicates: Literal["keep", "merge"] = "keep",
) -> Pyramid:
    """Read a DUCView ``.pyr`` file (or the ``<pyramid>`` of a ``.pan`` file).

    Parameters
    ----------
    source : path, XML string or bytes
        The file.
    repair : bool, keyword-only
        Move parts to where their label pins them down (off by one, end before
        start, offsets elsewhere).  Defects are reported either way.
    start_regex : str, keyword-only
        Overrides the file's ``<startDocumentRegEx>`` (or supplies a missing one).
    duplicates : {"keep", "merge"}, keyword-only
        Two contributors from one model in one SCU: keep both (reported) or merge.

    Returns
    -------
    Pyramid
        With ``defects`` listing what was found.

    Examples
    --------
    >>> xml = '''<pyramid><startDocumentRegEx><![CDATA[== ]]></startDocumentRegEx>
    ... <text><line>== A</line><line>Plaid Cymru wants independence</line>
    ... <line>== B</line><line>Plaid Cymru wants self-rule</line></text>
    ... <scu uid="1" label="PC wants independence">
    ...  <contributor label="Plaid Cymru wants independence">
    ...   <part label="Plaid Cymru wants independence" start="5" end="35"/></contributor>
    ...  <contributor label="Plaid Cymru wants self-rule">
    ...   <part label="Plaid Cymru wants self-rule" start="42" end="69"/></contributor>
    ... </scu></pyramid>'''
    >>> p = read_pyramid(xml)
    >>> p.n_models, p.weights(), [d.kind for d in p.defects]
    (2, {1: 2}, ['offset-off-by-one'])
    """
    text, name, defects = _load(source)
    root = _parse(text, name)
    if root.tag == "peerAnnotation":
        root = root.find("pyramid")
        if root is None:
            raise AccordError(f"file {name}: <peerAnnotation> has no <pyramid>")
    if root.tag != "pyramid":
        raise AccordError(f"file {name}: expected a <pyramid> root element, got <{root.tag}>")
    return _pyramid_from_element(root, name, repair=repair, start_regex=start_regex, duplicates=duplicates,
                                 defects=defects)


def read_peer_annotation(
    source: Source,
    *,
    repair: bool = True,
    start_regex: str | None = None,
    duplicates: Literal["keep", "merge"] = "keep",
) -> PeerAnnotation:
    """Read a DUCView ``.pan`` file: the peer text, its PSEs and the embedded pyramid.

    Every ``<contributor>`` of a ``<peerscu uid=k>`` is one PSE for SCU k
    (k = 0: content matching no SCU).  A peer whose words are not all covered
    by PSEs while uid 0 holds nothing is reported (``uid0-unmarked``): its
    zero-weight content was never marked, so X of equation (1) is too small.
    Parameters are those of :func:`read_pyramid`.
    """
    text, name, defects = _load(source)
    root = _parse(text, name)
    if root.tag != "peerAnnotation":
        raise AccordError(f"file {name}: expected a <peerAnnotation> root element, got <{root.tag}>")
    pyr_el, ann = root.find("pyramid"), root.find("annotation")
    if pyr_el is None or ann is None:
        raise AccordError(f"file {name}: <peerAnnotation> needs a <pyramid> and an <annotation>")
    pyramid = _pyramid_from_element(pyr_el, name, repair=repair, start_regex=start_regex,
                                    duplicates=duplicates, defects=[])
    peer_text = _lines_text(ann.find("text"))
    pses, ids = [], set()
    peer_defects: list[Defect] = []
    for el in ann.findall("peerscu"):
        sid = _int_attr(el, "uid", name, None)
        if sid != 0:
            ids.add(sid)
        for c in _contributors(el, peer_text, repair=repair, name=name, scu=sid, defects=peer_defects):
            pses.append(PSE(sid, c.spans, c.label))
    known = {s.id for s in pyramid.scus}
    for p in pses:
        if p.scu_id != 0 and p.scu_id not in known:
            peer_defects.append(Defect("unknown-scu", "PSE coindexed with an SCU the pyramid lacks",
                                       file=name, scu_id=p.scu_id, start=p.spans[0].start,
                                       end=p.spans[-1].end))
    if not any(p.scu_id == 0 for p in pses):
        toks = tokenize(peer_text)
        covered = set()
        for p in pses:
            for s in p.spans:
                covered.update(toks.covered_by(s).tolist())
        loose = [i for i in range(len(toks)) if i not in covered]
        if loose:
            first, last = int(toks.starts[loose[0]]), int(toks.ends[loose[-1]])
            peer_defects.append(Defect(
                "uid0-unmarked",
                f"{len(loose)} peer words lie in no PSE and uid 0 holds nothing: zero-weight content was "
                "never marked, so the number of PSEs (X) and the original score are unreliable",
                severity="warning", file=name, scu_id=0, start=first, end=last,
            ))
    return PeerAnnotation(text=peer_text, pses=tuple(pses), pyramid=pyramid, name=name,
                          defects=tuple(defects + list(pyramid.defects) + peer_defects))


# ------------------------------------------------- models from a peer's copy
_GUESSED = ("duc-headers", "blank-lines")


def _squash(s: str) -> str:
    return " ".join(s.split())


def _contributor_keys(pyr: Pyramid, scu: SCU, by_text: bool) -> list[tuple]:  # type: ignore[type-arg]
    """The contributors of *scu*, sorted: their offsets, or (texts that differ) the words they cover."""
    if by_text:
        return sorted(tuple(_squash(pyr.text[s.start:s.end]) for s in c.spans) for c in scu.contributors)
    return sorted(tuple((s.start, s.end) for s in c.spans) for c in scu.contributors)


def pyramid_differences(a: Pyramid, b: Pyramid, *, a_name: str = "the pyramid",
                        b_name: str = "the peer annotation's copy") -> tuple[tuple[int | None, str], ...]:
    """Every difference between the text and SCUs of two pyramids, as ``(SCU id or None, what)``.

    SCUs are matched by id: one only in one pyramid, labels that differ (spaces aside), a different number
    of contributors, or contributors at other offsets (the words they cover, when the texts differ).

    Examples
    --------
    >>> from accord.pyramid import Pyramid
    >>> scus = [{"id": 1, "label": "a", "contributors": [{"model": 0, "parts": ["a"]},
    ...                                                  {"model": 1, "parts": ["a"]}]}]
    >>> p = Pyramid.from_models(["a b", "a c"], scus)
    >>> q = Pyramid.from_models(["a b", "a c"], [{**scus[0], "contributors": scus[0]["contributors"][:1]}])
    >>> pyramid_differences(p, q, a_name="p", b_name="q")
    ((1, '2 contributors in p, 1 in q'),)
    """
    out: list[tuple[int | None, str]] = []
    by_text = a.text != b.text
    if by_text:
        i = next((k for k, (x, y) in enumerate(zip(a.text, b.text, strict=False)) if x != y),
                 min(len(a.text), len(b.text)))
        line = a.text.count("\n", 0, i) + 1
        out.append((None, f"the texts differ from character {i} (line {line})"))
    sa, sb = {s.id: s for s in a.scus}, {s.id: s for s in b.scus}
    for sid in sorted(sa.keys() | sb.keys()):
        if sid not in sb:
            out.append((sid, f"the SCU is missing from {b_name}"))
            continue
        if sid not in sa:
            out.append((sid, f"the SCU is only in {b_name}"))
            continue
        x, y = sa[sid], sb[sid]
        if _squash(x.label) != _squash(y.label):
            out.append((sid, f"labels differ ({x.label[:40]!r} vs {y.label[:40]!r})"))
        if len(x.contributors) != len(y.contributors):
            out.append((sid, f"{plural(len(x.contributors), 'contributor')} in {a_name}, {len(y.contributors)} "
                             f"in {b_name}"))
            continue
        cx, cy = _contributor_keys(a, x, by_text), _contributor_keys(b, y, by_text)
        if cx != cy:
            if by_text:
                out.append((sid, "contributors cover other words"))
            else:
                out.append((sid, "contributors differ (" + ", ".join(f"{s}-{e}" for c in cx for s, e in c) + " vs "
                            + ", ".join(f"{s}-{e}" for c in cy for s, e in c) + ")"))
    return tuple(out)


def _difference(a: Pyramid, b: Pyramid) -> tuple[int | None, str] | None:
    """The first difference between the text and SCUs of two pyramids: (SCU id or None, what), or None."""
    diffs = pyramid_differences(a, b)
    return diffs[0] if diffs else None


def models_from_peers(pyramid: Pyramid, peers: Iterable[PeerAnnotation]) -> Pyramid:
    """Take the model boundaries from a peer annotation's copy of the pyramid when the pyramid lacks a start regex.

    Some DUC 2006/2007 pyramid files carry no ``<startDocumentRegEx>`` while
    their ``.pan`` files embed the same pyramid with one; DUCView 1.4 scored
    with that copy.  When *pyramid*'s models were guessed (``models_found_by``
    is ``"duc-headers"`` or ``"blank-lines"``) and a peer's embedded pyramid
    has a start regex, the models of that copy are used, after checking that
    every such copy holds the same text and SCUs as *pyramid*.  Otherwise
    *pyramid* is returned unchanged.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid (e.g. read from the ``.pyr`` file).
    peers : iterable of PeerAnnotation
        Peer annotations; those read from ``.pan`` files carry ``pyramid``.

    Returns
    -------
    Pyramid
        With ``models_found_by == "peer-start-regex"`` and the copy's
        ``start_regex`` when a copy was used.

    Raises
    ------
    AccordError
        When a copy with a start regex differs from *pyramid* (text, SCU ids,
        labels or contributors), naming the peer file and the SCU; or two
        copies split the text differently.
    """
    if pyramid.models_found_by not in _GUESSED:
        return pyramid
    donor: PeerAnnotation | None = None
    for peer in peers:
        copy = peer.pyramid
        if copy is None or copy.start_regex is None:
            continue
        diff = _difference(pyramid, copy)
        if diff is not None:
            sid, what = diff
            scu = f", SCU {sid}" if sid is not None else ""
            head = (f"file {peer.name}{scu}: the peer annotation's copy of the pyramid differs from "
                    f"{pyramid.name or 'the pyramid'} ({what}), so its startDocumentRegEx cannot be used to find "
                    f"the models of {pyramid.name or 'the pyramid'}; pass ")
            tail = ", or score each peer against its own embedded pyramid "
            raise AccordError(f"{head}start_regex={tail}(against='embedded')",
                              cli=f"{head}--start-regex{tail}(--pyramid embedded)")
        if donor is None:
            donor = peer
        elif [(m.start, m.end) for m in copy.models] != [(m.start, m.end) for m in donor.pyramid.models]:  # type: ignore[union-attr]
            head = (f"file {peer.name}: its copy of the pyramid splits the text into {plural(copy.n_models, 'model')}, "
                    f"the copy in {donor.name} into {donor.pyramid.n_models}; pass ")  # type: ignore[union-attr]
            raise AccordError(head + "start_regex=", cli=head + "--start-regex")
    if donor is None:
        return pyramid
    copy = donor.pyramid
    assert copy is not None
    note = Defect("peer-start-regex", f"models found by the startDocumentRegEx {copy.start_regex!r} of the "
                  f"pyramid embedded in {donor.name}: {plural(copy.n_models, 'model')} (the file's own rule, "
                  f"{pyramid.models_found_by}, found {pyramid.n_models})", severity="info",
                  file=pyramid.name or None, repaired=True)
    # Structural defects depend on where the models lie: check them again under the copy's models.
    kept = tuple(d for d in pyramid.defects if d.kind not in _STRUCTURAL)
    out = replace(pyramid, models=copy.models, start_regex=copy.start_regex, models_found_by="peer-start-regex",
                  defects=(*kept, note))
    again = tuple(d for d in out.check(style="relaxed").defects[len(out.defects):] if d.kind in _STRUCTURAL)
    return replace(out, defects=(*out.defects, *again))


# ------------------------------------------------------------------- writing
def _attr(s: str) -> str:
    return quoteattr(_strip_nl(s))


def _text_xml(text: str) -> list[str]:
    return [" <text>", *(f"  <line>{escape(line)}</line>" for line in text.split("\n")), " </text>"]


def _contrib_xml(text: str, spans: Iterable[Span], label: str) -> list[str]:
    spans = list(spans)
    label = label or "...".join(text[s.start:s.end] for s in spans)
    out = [f"  <contributor label={_attr(label)}>"]
    out += [
        f"   <part label={_attr(text[s.start:s.end])} start=\"{s.start}\" end=\"{s.end}\"/>" for s in spans
    ]
    out.append("  </contributor>")
    return out


def _pyramid_xml(pyramid: Pyramid) -> list[str]:
    out = []
    if pyramid.start_regex is not None:
        out.append(f"<startDocumentRegEx><![CDATA[{pyramid.start_regex}]]></startDocumentRegEx>")
    out += _text_xml(pyramid.text)
    for s in pyramid.scus:
        out.append(f" <scu uid=\"{s.id}\" label={_attr(s.label)}>")
        for c in s.contributors:
            out += _contrib_xml(pyramid.text, c.spans, c.label)
        out.append(" </scu>")
    return out


def _emit(lines: list[str], path: str | os.PathLike[str] | None, force: bool) -> str:
    xml = "\n".join(lines) + "\n"
    if path is not None:
        write_output(path, xml, force=force)
    return xml


#: The start regex DUCView 1.4 put in the peer annotations of DUC 2006/2007.
DUCVIEW_14_REGEX = r"[-]*\n(\s*)D[0-9]*\.M\.250\.[A-Z]\.[A-Z]\n[-]*\n"
# DUC_HEADER without the multi-line anchors, for files (Java's Pattern reads it the same way).
_HEADER_REGEX = r"-+[ \t]*\n\s*D\d+(?:-?[A-Z])?\.M\.\d+\.[A-Z]\.[A-Z0-9]+[ \t]*\n-+"


def _writable(pyramid: Pyramid) -> Pyramid:
    """The pyramid with a start regex DUCView can find its models with (or an error)."""
    if pyramid.start_regex is not None or pyramid.n_models == 1:
        return pyramid
    if pyramid.models_found_by == "duc-headers":
        want = [(m.start, m.end) for m in pyramid.models]
        for rx in (DUCVIEW_14_REGEX, _HEADER_REGEX):
            models, _ = split_models(pyramid.text, rx, name=pyramid.name)
            if [(m.start, m.end) for m in models] == want:
                return replace(pyramid, start_regex=rx)
    raise AccordError(
        f"pyramid {pyramid.name!r}: has {plural(pyramid.n_models, 'model')} but no start_regex; DUCView finds the "
        "models with <startDocumentRegEx>, so set one (dataclasses.replace(pyramid, start_regex=...))"
    )


def write_pyramid(
    pyramid: Pyramid, path: str | os.PathLike[str] | None = None, *, force: bool = False
) -> str:
    """Write a pyramid as a DUCView ``.pyr`` file; returns the XML (and writes *path* if given).

    Labels lose their newlines, as DUCView writes them.  A pyramid whose models
    were found at DUC header lines (no start regex in its file) is written with
    DUCView 1.4's start regex (:data:`DUCVIEW_14_REGEX`) when that finds the
    same models.  The file is written atomically (:func:`accord._shared.output.write_output`); an existing file is
    replaced only with ``force=True``.
    """
    pyramid = _writable(pyramid)
    lines = ['<?xml version="1.0"?>', "<!DOCTYPE pyramid [", _PYR_DTD + "]>", "", "<pyramid>",
             *_pyramid_xml(pyramid), "</pyramid>"]
    return _emit(lines, path, force)


def write_peer_annotation(
    peer: PeerAnnotation,
    path: str | os.PathLike[str] | None = None,
    *,
    pyramid: Pyramid | None = None,
    force: bool = False,
) -> str:
    """Write a peer annotation as a DUCView ``.pan`` file (pyramid embedded).

    Written atomically; an existing file is replaced only with ``force=True``.
    """
    pyr = pyramid if pyramid is not None else peer.pyramid
    if pyr is None:
        raise AccordError(f"pyramid: peer {peer.name!r} carries no pyramid; pass pyramid=")
    pyr = _writable(pyr)
    weights = pyr.weights(by="contributors")
    ann = _text_xml(peer.text)
    groups: dict[int, list[PSE]] = {}
    for p in peer.pses:
        groups.setdefault(p.scu_id, []).append(p)
    order = [s.id for s in pyr.scus] + sorted(k for k in groups if k != 0 and k not in weights) + [0]
    for sid in order:
        if sid == 0:
            label = "All non-matching SCUs go here"
        else:
            base = pyr.scu(sid).label if sid in weights else ""
            label = f"({weights.get(sid, 0)}) {base}"
        ann.append(f" <peerscu uid=\"{sid}\" label={_attr(label)}>")
        for p in groups.get(sid, ()):
            ann += _contrib_xml(peer.text, p.spans, p.label)
        ann.append(" </peerscu>")
    lines = ['<?xml version="1.0"?>', "<!DOCTYPE peerAnnotation [", _PAN_DTD + "]>", "", "<peerAnnotation>",
             "<pyramid>", *_pyramid_xml(pyr), "</pyramid>", "<annotation>", *ann, "</annotation>",
             "</peerAnnotation>"]
    return _emit(lines, path, force)
