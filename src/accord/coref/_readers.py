"""Readers of coreference annotation files into :class:`~accord.coref.CorefAnnotations`.

Each file (or each directory) is one coder's annotation; the coders are then
aligned mention by mention (exact span within a document).  Formats:

``conll``
    CoNLL-2011/2012 (``.conll``, ``.gold_conll``, ``.v4_gold_conll``, ...): the last
    column holds ``(12``, ``12)``, ``(12)``, several joined by ``|``, or ``-`` for
    none; documents run from ``#begin document (name); part 000`` to
    ``#end document``.  A mention is ``(start, end)``, the inclusive token indices
    counted through the whole document part (sentence breaks do not reset them),
    as the reference scorer counts them.  Nested and same-start mentions of one
    chain are matched with a stack per chain.  The document name is everything
    after ``#begin document``, e.g. ``"(bc/cctv/00/cctv_0000); part 000"``.
``brat``
    brat standoff ``.ann``: ``T`` lines are the mentions, ``(start, end)``
    character offsets (a discontinuous ``0 5;8 10`` gives ``(0, 5, 8, 10)``);
    equivalence lines ``*<TAB>Coreference T1 T2 ...`` and relations
    ``R1<TAB>Coreference Arg1:T1 Arg2:T2`` (type name set by ``relation``) are merged
    transitively (union-find).  Unlinked ``T`` mentions are singletons.  The document
    is the file stem when the path is a directory of ``.ann`` files, else
    ``document``.
``jsonl``
    One JSON object per line (e2e-coref style): ``doc_key`` and ``clusters``, a list
    of clusters of ``[start, end]`` token spans (mentions become ``(start, end)``
    tuples).  A line without ``doc_key`` is named ``"#<line number>"``.
``csv``
    A long table with columns ``document, mention, coder, chain`` (``.tsv``:
    tab-separated); an empty chain cell marks a non-referring mention.  The file
    names the coders itself.  Optional ``text`` and ``sentence`` columns give the
    words of each mention and the sentence it sits in.
``corefud``
    CorefUD 1.x: CoNLL-U (``.conllu``) with ``Entity=`` bracket annotations in the
    MISC column (``(e1-person-1-`` opens a mention of entity ``e1``, ``e1)`` closes
    it, ``(e2-place-1-)`` is one word, ``(e1[1/2]-...`` a part of a discontinuous
    mention); documents from ``# newdoc id = ...``.  Mentions are ``(start, end)``
    word positions counted through the document as for ``conll``, empty nodes
    ``8.1`` at fractional positions, discontinuous mentions as flat tuples
    ``(0, 1, 4, 4)``; ``SplitAnte=`` and ``Bridge=`` are counted in a warning, not
    read (:mod:`accord.coref._corefud`).

With ``format="auto"`` a ``.conllu`` or ``.conll`` file whose content starts with
``#begin document`` is read as ``conll``, one whose MISC column carries
``Entity=`` as ``corefud``; a file whose extension is unknown is read by its
content too (:func:`detect_format`); a guess the name does not give is stated in an
:class:`~accord.AccordWarning`.  ``format=`` (``--format``) wins over both.  The CoNLL
reader takes the chains from the last column whatever the number of columns (the
5-column ``doc part index word chains`` variant, or ``word sentence token _ chains``,
reads as the full 12+-column one).  When the first column of a document's lines
holds CoNLL-U word ids (``1``, ``2``, ``3-4``, ``3``, ``4``, ``4.1``: :func:`conllu_ids`),
the multiword-token lines (``9-10``) and empty nodes (``8.1``) are not tokens; the
lines decide, not the file's name, so a word ``9.90`` of a word-first layout is a
word even in a ``.conllu`` file.

The words of each mention and the sentence it starts in (counted from 1 within
the document) are kept where the format has them, for what a person reads (the
report): CoNLL's word column (blank lines end sentences), CoNLL-U's FORM, the
text of a brat ``T`` line, the ``sentences`` of a JSON line, a CSV's ``text`` and
``sentence`` columns.  They change no number.

Where the format has tokens (CoNLL, CorefUD, jsonlines with ``sentences``), each document's tokens are compared
across the files (token ids where both have them, else the words): mentions are token positions, so a token line
lost in one file is an error naming the document, sentence and token, or, with ``align="words"``, the mentions
are moved onto the first file's tokens and the differences said (:mod:`accord.coref._tokens`).  Files are UTF-8,
a byte-order mark dropped and said; ids (CSV cells, ``doc_key``) lose surrounding spaces, the cells counted.

Every error is an :class:`~accord.AccordError` naming the file and line.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import warnings
from collections.abc import Collection, Hashable, Sequence
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from accord._shared.decode import utf8_lines
from accord._shared.errors import AccordError, AccordWarning, Message, no_such_file, plural, words
from accord._shared.ids import canonical_id, clean_label
from accord.coref._corefud import looks_corefud, read_corefud
from accord.coref._files import _CSV_COLUMNS, _head, _Mentions, _read_brat, _read_csv, _read_jsonl, _Record
from accord.coref._model import CorefAnnotations, Duplicates, MissingMentions
from accord.coref._tokens import Align, DocumentTokens, align_documents, check_align, place, placeable, say

__all__ = ["conllu_ids", "detect_format", "read_coref"]

Format = Literal["auto", "conll", "brat", "jsonl", "csv", "corefud"]
_FORMATS = ("auto", "conll", "brat", "jsonl", "csv", "corefud")

_EXTENSIONS = {
    ".conll": "conll",
    ".gold_conll": "conll",
    ".auto_conll": "conll",
    ".v4_gold_conll": "conll",
    ".v4_auto_conll": "conll",
    ".v9_gold_conll": "conll",
    ".ann": "brat",
    ".jsonl": "jsonl",
    ".jsonlines": "jsonl",
    ".csv": "csv",
    ".tsv": "csv",
}



def _format_of(path: Path) -> str:
    name = path.name.lower()
    for ext in sorted(_EXTENSIONS, key=len, reverse=True):
        if name.endswith(ext):
            return _EXTENSIONS[ext]
    raise AccordError(
        f"{path}: cannot tell the format from the extension; pass format= one of {_FORMATS[1:]} "
        f"(known extensions: {sorted(_EXTENSIONS)})"
    )


_BRAT_LINE = re.compile(r"^(?:T\d+\t\S+ \d+ \d+|R\d+\t\S+ \S+:T\d+|\*\t\S+ T\d+|[EAMN#]\d*\t)")



def _begins_conll(lines: list[str]) -> bool:
    """True when a '#begin document' line comes before the first line that is not a '#' comment."""
    for line in lines:
        if _BEGIN.match(line):
            return True
        if not line.startswith("#"):
            return False
    return False


def detect_format(path: str | os.PathLike[str]) -> tuple[str, str]:
    """The format of a coreference file: by its extension, else by its content.

    ``.conllu`` files are CoNLL-U; those whose content starts with
    ``#begin document`` carry CoNLL-2012-style chains in the last column and
    read as ``conll``, those whose MISC column carries ``Entity=`` (or with a
    ``# global.Entity`` header) are CorefUD and read as ``corefud``.  A
    ``.conll`` file (or ``.gold_conll``...) is looked at the same way: CorefUD
    content under a CoNLL name reads as ``corefud``, the guess stated.  A file whose
    extension is unknown is recognised by its first lines: ``#begin document``
    (``conll``), CoNLL-U lines with ``Entity=`` in MISC (``corefud``), a JSON object with
    ``clusters`` (``jsonl``), brat ``T1<TAB>Type 0 5`` lines (``brat``), or a
    header naming ``document, mention, coder, chain`` (``csv``, comma or tab).

    Parameters
    ----------
    path : path-like
        The file.

    Returns
    -------
    format : str
        ``"conll"``, ``"brat"``, ``"jsonl"``, ``"csv"`` or ``"corefud"``.
    how : str
        ``"extension"``, or the reason for a guess from the content (stated by
        :func:`read_coref` in an :class:`~accord.AccordWarning`).

    Raises
    ------
    AccordError
        When neither the extension nor the content tells the format.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "story.txt"
    >>> _ = f.write_text("#begin document (story); part 000\\nstory 0 0 John (1)\\n#end document\\n")
    >>> detect_format(f)
    ('conll', "content starts with '#begin document'")
    """
    p = Path(path)
    name = p.name.lower()
    ext: str | None = None
    if not name.endswith(".conllu"):
        try:
            ext = _format_of(p)
        except AccordError:
            ext = None
        if ext is not None and ext != "conll":
            return ext, "extension"
    lines = _head(p)
    if _begins_conll(lines):
        return "conll", "extension" if ext == "conll" else "content starts with '#begin document'"
    if looks_corefud(p, None if name.endswith(".conllu") or ext == "conll" else lines):
        why = "CoNLL-U whose MISC column carries Entity= (CorefUD)"
        return "corefud", why + (f", whatever the name {p.suffix} says" if ext == "conll" else "")
    if ext == "conll":
        return "conll", "extension"
    if name.endswith(".conllu"):
        raise AccordError(
            f"{p}: a .conllu file with neither '#begin document' lines (CoNLL-2012-style chains in the last "
            "column) nor Entity= annotations in the MISC column (CorefUD); no coreference to read"
        )
    first = lines[0] if lines else ""
    if first.lstrip().startswith("{"):
        try:
            obj = json.loads(first)
        except (ValueError, RecursionError):  # not JSON, nested too deep, a number too long
            obj = None
        if isinstance(obj, dict):
            return "jsonl", "the first line is a JSON object"
    header = {c.strip().strip('"').lower() for c in re.split(r"[,\t]", first)}
    if set(_CSV_COLUMNS) <= header:
        return "csv", f"the header names {', '.join(_CSV_COLUMNS)}"
    if lines and all(_BRAT_LINE.match(x) for x in lines[:10]):
        return "brat", "lines are brat standoff annotations (T1<TAB>Type start end)"
    head = f"{p}: cannot tell the format from the extension or the content"
    tail = f"{_FORMATS[1:]} (known extensions: {sorted(_EXTENSIONS)})"
    raise AccordError(f"{head}; pass format= one of {tail}", cli=f"{head}; pass --format, one of {tail}")



# ---------------------------------------------------------------------------- CoNLL
_CONLL_PART = re.compile(r"^(\()?([^()|]+?)(\))?$")
_BEGIN = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
_END = re.compile(r"^#\s*end document")


_CONLLU_ID = re.compile(r"^(\d+)(?:-(\d+)|\.(\d+))?$")  # CoNLL-U word ids, multiword ranges, empty nodes


def conllu_ids(first_cells: Sequence[str]) -> bool:
    """True when *first_cells* (the first cell of a document's token lines) are CoNLL-U word ids.

    That is: every cell is a word id ``k``, a multiword range ``k-m`` or an empty node ``k.n``, and the
    ids count like CoNLL-U's: a word is the next one or starts a sentence (``1``), a range starts at the
    next word, an empty node follows the last word (or ``0.n`` opens a sentence).  The word-first
    layouts (``word sentence token _ chains``, or CoNLL-2012's ``document part token word ...``) fail
    at their first word that is not such an id, so a word such as ``9.90`` is a word there.

    Examples
    --------
    >>> conllu_ids(["1", "2", "3-4", "3", "4", "4.1", "1", "2"])
    True
    >>> conllu_ids(["The", "price", "9.90"]), conllu_ids(["9.90", "10"])
    (False, False)
    """
    nxt = 1  # the id the next word has unless it starts a sentence
    for cell in first_cells:
        m = _CONLLU_ID.match(cell)
        if m is None:
            return False
        k = int(m.group(1))
        if m.group(2) is not None:  # a range k-m over the next words
            if not (k in (nxt, 1) and int(m.group(2)) > k):
                return False
        elif m.group(3) is not None:  # an empty node after word k
            if k not in (nxt - 1, 0):
                return False
        elif k in (nxt, 1):
            nxt = k + 1
        else:
            return False
    return bool(first_cells)


def _corefud_hint(fields: list[str]) -> str:
    """A hint to read a CoNLL-U line with Entity= in MISC as CorefUD."""
    if len(fields) == 10 and any(x.startswith("Entity=") for x in fields[9].split("|")):
        return Message("; this is CoNLL-U with Entity= in MISC (CorefUD): read it with format='corefud'",
                       cli="; this is CoNLL-U with Entity= in MISC (CorefUD): read it with --format corefud")
    return ""


def _read_conll(path: Path, duplicates: str, tokens: dict[Hashable, DocumentTokens] | None = None) -> list[_Record]:
    out = _Mentions(path, duplicates)
    document: str | None = None
    names: set[str] = set()
    rows: list[tuple[int, list[str], int]] = []  # the token lines of the document being read, with their sentence
    sentence = 1
    with utf8_lines(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\r\n")
            if not line.strip():
                if rows and rows[-1][2] == sentence:
                    sentence += 1
                continue
            m = _BEGIN.match(line)
            if m:
                if document is not None:
                    raise AccordError(
                        f"{path}:{lineno}: '#begin document' inside document {document!r} "
                        "(no '#end document')"
                    )
                document = m.group(1)
                if document in names:
                    raise AccordError(f"{path}:{lineno}: document {document!r} appears twice")
                names.add(document)
                rows = []
                sentence = 1
                continue
            if _END.match(line):
                if document is None:
                    raise AccordError(f"{path}:{lineno}: '#end document' without '#begin document'")
                toks = _conll_document(path, document, rows, lineno, out)
                if tokens is not None:
                    tokens[document] = toks
                document = None
                continue
            if line.startswith("#"):
                continue
            fields = line.split()
            if document is None:
                raise AccordError(words(f"{path}:{lineno}: token line outside '#begin document' ... '#end document'",
                                        _corefud_hint(line.split("\t"))))
            rows.append((lineno, fields, sentence))
    if document is not None:
        raise AccordError(f"{path}: document {document!r} has no '#end document'")
    return out.records


def _conll_word(fields: list[str], ids: bool) -> str | None:
    """The word of a token line: CoNLL-U's FORM, CoNLL-2012's fourth column, or the first of the five-column
    word-first layout (word, sentence, token, _, chains); None when the line holds none."""
    if ids:
        return fields[1] if len(fields) > 1 else None
    if len(fields) == 5 and fields[3] in ("_", "-") and fields[1].isdigit() and fields[2].isdigit():
        return fields[0]
    return fields[3] if len(fields) >= 5 else None


def _conll_document(path: Path, document: str, rows: list[tuple[int, list[str], int]], end: int,
                    out: _Mentions) -> DocumentTokens:
    """The mentions of one document's token lines; CoNLL-U's multiword and empty-node lines are not tokens
    when the first column holds CoNLL-U ids (:func:`conllu_ids`: the lines decide, not the file's name).
    Each mention keeps its words and the sentence it starts in, for pages that show mentions as text.
    Returns the document's tokens, with their ids: CoNLL-U's ``ID`` (first column), else the word number of
    CoNLL-2012's third column when every token line has one."""
    ids = conllu_ids([fields[0] for _, fields, _ in rows])
    stacks: dict[str, list[tuple[int, int]]] = {}
    words: list[str | None] = []
    sentence_of: list[int] = []
    token_ids: list[str] | None = []
    lines: list[int] = []

    def add(start: int, stop: int, chain: str, lineno: int) -> None:
        span = words[start:stop + 1]
        text = " ".join(w for w in span if w) if all(w is not None for w in span) else None
        out.add(document, (start, stop), chain, lineno, text or None, sentence_of[start])

    token = 0
    for lineno, fields, sentence in rows:
        cell = fields[-1]
        if ids and not fields[0].isdigit():
            if cell not in ("-", "_"):
                raise AccordError(
                    f"{path}:{lineno}: CoNLL-U line {fields[0]} (a multiword token or an empty node) carries "
                    f"coreference {cell!r}; put it on the words"
                )
            continue
        words.append(_conll_word(fields, ids))
        sentence_of.append(sentence)
        lines.append(lineno)
        if token_ids is not None:
            if ids:
                token_ids.append(fields[0])
            elif len(fields) >= 5 and fields[2].isdigit():
                token_ids.append(fields[2])
            else:
                token_ids = None
        if cell not in ("-", "_"):
            for part in cell.split("|"):
                pm = _CONLL_PART.match(part)
                if pm is None or (pm.group(1) is None and pm.group(3) is None):
                    raise AccordError(
                        f"{path}:{lineno}: cannot read coreference cell {cell!r} (part {part!r}); "
                        "expected '(12', '12)', '(12)', joined by '|', or '-'"
                    )
                opens, chain, closes = pm.group(1) is not None, pm.group(2), pm.group(3) is not None
                if opens and closes:
                    add(token, token, chain, lineno)
                elif opens:
                    stacks.setdefault(chain, []).append((token, lineno))
                else:
                    stack = stacks.get(chain)
                    if not stack:
                        raise AccordError(
                            f"{path}:{lineno}: '{part}' closes a mention of chain {chain} "
                            "that is not open"
                        )
                    start, _ = stack.pop()
                    add(start, token, chain, lineno)
        token += 1
    for chain, stack in stacks.items():
        if stack:
            raise AccordError(
                f"{path}:{stack[-1][1]}: mention of chain {chain} opened here is never closed "
                f"(document {document!r} ends at line {end})"
            )
    return DocumentTokens(str(path), None if token_ids is None else tuple(token_ids), tuple(words),
                          tuple(sentence_of), tuple(lines), end)


# ---------------------------------------------------------------------------- entry point
def read_coref(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    format: Format = "auto",
    coders: Sequence[Hashable] | None = None,
    missing_mentions: MissingMentions = "singleton",
    duplicates: Duplicates = "error",
    relation: str = "Coreference",
    mention_types: Collection[str] | None = None,
    clusters_key: str = "clusters",
    document: str = "document",
    align: Align = "tokens",
) -> CorefAnnotations:
    """Read coreference annotations, one coder per file (or per directory).

    Parameters
    ----------
    paths : path or sequence of paths
        Each path is one coder's annotation: a file, or a directory whose files of
        the format (sorted by name) are that coder's documents.  For ``csv`` the
        files carry a ``coder`` column and are simply concatenated.
    format : {"auto", "conll", "brat", "jsonl", "csv", "corefud"}
        ``"auto"`` picks by extension (``.conll``/``.gold_conll``/``.v4_gold_conll``,
        ``.ann``, ``.jsonl``/``.jsonlines``, ``.csv``/``.tsv``); a ``.conllu`` file
        (``conll`` or ``corefud``), or one with an unknown extension, by its content
        (:func:`detect_format`), and the guess is stated in an
        :class:`~accord.AccordWarning`.
    coders : sequence, optional
        One coder name per path; by default the file stem (``ann1.conll`` ->
        ``"ann1"``) or the directory name.  Not allowed with ``csv``.
    missing_mentions : {"singleton", "missing", "error"}
        Policy for a mention present for only some coders (see
        :meth:`CorefAnnotations.from_records`); the alignment is reported in
        ``.presence``.
    duplicates : {"error", "first"}
        A mention put in two chains by one coder: raise naming file and line
        (default), or keep the first (the reference scorer's choice for responses).
    relation : str
        brat: the relation / equivalence type that links coreferent mentions.
    mention_types : collection of str, optional
        brat: the entity types that are mentions (default: every ``T`` line).
    clusters_key : str
        jsonl: the field holding the clusters (``"predicted_clusters"`` for some
        system outputs).
    document : str
        brat: the document name for a single ``.ann`` file given as a path (files
        inside a directory are named by their stem).
    align : {"tokens", "words"}
        How the files' tokens are lined up, where the format has them (CoNLL, CorefUD,
        jsonlines with ``sentences``).  ``"tokens"`` (default): each document must hold the
        same tokens in every file (token ids compared where both files have them, else the
        words), a difference is an :class:`~accord.AccordError` naming the document,
        sentence and token, file and line; the first coder's file is the reference.
        ``"words"``: the words are aligned, mentions moved onto the first coder's tokens,
        and the differences said in an :class:`~accord.AccordWarning` (a mention on a token
        the first coder's file lacks is left out and counted).

    Returns
    -------
    CorefAnnotations

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "ann1.jsonl").write_text('{"doc_key": "d", "clusters": [[[0, 0], [4, 5]], [[7, 7]]]}\\n')
    >>> _ = (tmp / "ann2.jsonl").write_text('{"doc_key": "d", "clusters": [[[0, 0], [4, 5], [7, 7]]]}\\n')
    >>> data = read_coref([tmp / "ann1.jsonl", tmp / "ann2.jsonl"])
    >>> data.coders, data.mentions("d")
    (('ann1', 'ann2'), ((0, 0), (4, 5), (7, 7)))
    """
    if format not in _FORMATS:
        raise AccordError(f"format must be one of {_FORMATS}, got {format!r}")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    path_list = [Path(p) for p in paths]
    if not path_list:
        raise AccordError("paths: give at least one file")
    if coders is not None:
        coders = list(coders)
        if len(coders) != len(path_list):
            raise AccordError(f"coders: {plural(len(coders), 'name')} for {len(path_list)} paths")

    check_align(align)
    frames: list[pd.DataFrame] = []
    owner: dict[tuple[Hashable, Hashable], Path] = {}
    ref_tokens: dict[Hashable, DocumentTokens] = {}  # each document's tokens in the first file that holds it
    ref_coder: dict[Hashable, Hashable] = {}
    for i, p in enumerate(path_list):
        if not p.exists():
            raise no_such_file(p)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and _known(f, format))
            if not files:
                raise AccordError(f"{p}: directory holds no {format if format != 'auto' else 'known'} files")
            default_coder: Hashable = p.name
        else:
            files = [p]
            default_coder = p.stem
        coder = canonical_id(coders[i]) if coders is not None else default_coder
        for f in files:
            if format == "auto":
                fmt, how = detect_format(f)
                if how != "extension":
                    warnings.warn(f"{f}: read as {fmt} ({how})", AccordWarning, stacklevel=2)
            else:
                fmt = format
            if fmt == "csv":
                if coders is not None:
                    msg = f"{f}: coders= cannot be used with CSV files, which carry a coder column"
                    raise AccordError(msg)
                frame = _read_csv(f)
                frame["_file"] = str(f)
                frames.append(frame)
                continue
            tokens: dict[Hashable, DocumentTokens] = {}
            if fmt == "conll":
                recs = _read_conll(f, duplicates, tokens)
            elif fmt == "corefud":
                recs = read_corefud(f, duplicates, tokens)
            elif fmt == "brat":
                types = None if mention_types is None else {
                    clean_label(t) for t in ([mention_types] if isinstance(mention_types, str) else mention_types)}
                recs = _read_brat(f, f.stem if p.is_dir() else canonical_id(document), relation, types, duplicates)
            else:
                recs = _read_jsonl(f, clusters_key, duplicates, tokens)
            docs_here = {r[0] for r in recs}
            for d in docs_here:
                if (coder, d) in owner:
                    raise AccordError(
                        f"{f}: document {d!r} of coder {coder!r} was already read from {owner[(coder, d)]}"
                    )
                owner[(coder, d)] = f
            recs = _on_reference_tokens(recs, tokens, ref_tokens, ref_coder, coder, align)
            for d, t in tokens.items():
                ref_tokens.setdefault(d, t)
                ref_coder.setdefault(d, coder)
            frames.append(
                pd.DataFrame(
                    {
                        "document": pd.Series([r[0] for r in recs], dtype=object),
                        "mention": pd.Series([r[1] for r in recs], dtype=object),
                        "coder": pd.Series([coder] * len(recs), dtype=object),
                        "chain": pd.Series([r[2] for r in recs], dtype=object),
                        "text": pd.Series([r[4] if len(r) > 4 else None for r in recs], dtype=object),
                        "sentence": pd.Series([r[5] if len(r) > 5 else None for r in recs], dtype=object),
                        "_line": [r[3] for r in recs],
                        "_file": str(f),
                    }
                )
            )
    records = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*_CSV_COLUMNS])
    if records.empty:
        raise AccordError(f"{', '.join(map(str, path_list))}: no mentions found")
    # CSV: one value per (document, mention, coder); report the file and line of a conflict
    dup = records.duplicated(subset=["document", "mention", "coder"], keep=False)
    if dup.any():
        sub = records.loc[dup]
        for _, group in sub.groupby(["document", "mention", "coder"], sort=False, dropna=False):
            chains = group["chain"].tolist()
            if len({repr(c) for c in chains}) > 1 and duplicates == "error":
                second = group.iloc[1]
                head = (f"{second['_file']}:{second['_line']}: coder {second['coder']!r} puts mention "
                        f"{second['mention']!r} of document {second['document']!r} in chain {second['chain']!r}, "
                        f"but {group.iloc[0]['_file']}:{group.iloc[0]['_line']} put it in {chains[0]!r}; "
                        "keep the first with ")
                raise AccordError(head + "duplicates='first'", cli=head + "--duplicates first")
    data = CorefAnnotations.from_records(
        records, missing_mentions=missing_mentions, duplicates="first", text="text", sentence="sentence"
    )
    # every document's tokens, a document without mentions too: a key's tokens are compared with a response's
    return dataclasses.replace(data, _tokens=dict(ref_tokens)) if ref_tokens else data


def _on_reference_tokens(recs: list[_Record], tokens: dict[Hashable, DocumentTokens],
                         ref_tokens: dict[Hashable, DocumentTokens], ref_coder: dict[Hashable, Hashable],
                         coder: Hashable, align: str) -> list[_Record]:
    """*recs* of one file whose documents' *tokens* are checked against the first file that held each document:
    the same tokens, or (``align="words"``) the mentions moved onto that file's tokens, the differences said."""
    shared = {d: t for d, t in tokens.items() if d in ref_tokens}
    if not shared:
        return recs
    names = {ref_coder[d] for d in shared}
    ref_name = f"coder {next(iter(names))!r}" if len(names) == 1 else "the first coder"
    maps, said = align_documents(ref_tokens, shared, align=align, ref_name=ref_name, other_name=f"coder {coder!r}")
    if not maps:
        return recs
    out: list[_Record] = []
    unplaced: dict[Hashable, list[Any]] = {}
    for r in recs:
        mapping = maps.get(r[0])
        if mapping is None or not placeable(r[1]):
            out.append(r)
            continue
        moved = place(r[1], mapping)
        if moved is None:
            unplaced.setdefault(r[0], []).append(r[1])
            continue
        out.append((r[0], moved, *r[2:]))
    say(said, unplaced, ref_name=ref_name, stacklevel=4)
    return out


def _known(path: Path, format: str) -> bool:
    if path.name.lower().endswith(".conllu"):
        if format in ("auto", "conll") and _begins_conll(_head(path, 20)):
            return True
        return format in ("auto", "corefud") and looks_corefud(path)
    try:
        fmt = _format_of(path)
    except AccordError:
        return False
    if fmt == "conll" and format == "corefud":  # CorefUD content under a CoNLL name: the content decides
        return looks_corefud(path)
    return format == "auto" or fmt == format
