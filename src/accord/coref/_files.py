"""The brat, jsonlines and CSV coreference readers, and what every reader shares (:mod:`accord.coref._readers`).

Each reader returns ``(document, mention, chain, line, words, sentence)`` records of one file; a mention one file
puts in two chains is caught by :class:`_Mentions`.
"""

from __future__ import annotations

import csv
import json
import math
import warnings
from collections.abc import Collection, Hashable
from pathlib import Path
from typing import Any

import pandas as pd

from accord._shared.decode import json_text, utf8_lines
from accord._shared.errors import AccordError, AccordWarning, no_such_file, plural
from accord._shared.ids import canonical_id, canonical_ids
from accord.coref._tokens import DocumentTokens

# one record: (document, mention, chain, line number, words of the mention, sentence it starts in)
_Record = tuple[Hashable, Hashable, Any, int, str | None, int | None]


def _head(path: Path, n: int = 50) -> list[str]:
    """The first *n* non-blank lines of a file (fewer if it is shorter)."""
    out: list[str] = []
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            for raw in fh:
                if raw.strip():
                    out.append(raw.rstrip("\r\n"))
                    if len(out) >= n:
                        break
    except FileNotFoundError:
        raise no_such_file(path) from None
    except OSError as exc:
        raise AccordError(f"{path}: cannot read ({exc.strerror})") from None
    return out



class _Mentions:
    """Collects one file's (document, mention, chain) records, catching a mention put in two chains."""

    def __init__(self, path: Path, duplicates: str) -> None:
        self.path = path
        self.duplicates = duplicates
        self.seen: dict[tuple[Hashable, Hashable], tuple[Any, int]] = {}
        self.records: list[_Record] = []

    def add(self, document: Hashable, mention: Hashable, chain: Any, line: int, text: str | None = None,
            sentence: int | None = None) -> None:
        key = (document, mention)
        if key in self.seen:
            old_chain, old_line = self.seen[key]
            if old_chain != chain and self.duplicates == "error":
                head = (f"{self.path}:{line}: mention {mention!r} of document {document!r} is in chain "
                        f"{chain!r} but line {old_line} put it in chain {old_chain!r}; keep the first with ")
                raise AccordError(head + "duplicates='first'", cli=head + "--duplicates first")
            return
        self.seen[key] = (chain, line)
        self.records.append((document, mention, chain, line, text, sentence))



# ---------------------------------------------------------------------------- brat
def _read_brat(
    path: Path,
    document: Hashable,
    relation: str,
    mention_types: Collection[str] | None,
    duplicates: str,
) -> list[_Record]:
    spans: dict[str, tuple[tuple[int, ...], int]] = {}
    texts: dict[str, str] = {}
    links: list[tuple[list[str], int]] = []
    with utf8_lines(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip("\r\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            ident = fields[0]
            if ident.startswith("T"):
                if len(fields) < 2:
                    raise AccordError(f"{path}:{lineno}: text-bound annotation without type and offsets")
                type_offsets = fields[1].split(" ", 1)
                if len(type_offsets) != 2:
                    raise AccordError(f"{path}:{lineno}: text-bound annotation {ident} has no offsets")
                ann_type, offsets = type_offsets
                if mention_types is not None and ann_type not in mention_types:
                    continue
                try:
                    span = tuple(int(x) for frag in offsets.split(";") for x in frag.split())
                except ValueError:
                    msg = f"{path}:{lineno}: cannot read offsets {offsets!r} of {ident}"
                    raise AccordError(msg) from None
                if len(span) < 2 or len(span) % 2:
                    msg = f"{path}:{lineno}: offsets {offsets!r} of {ident} are not start-end pairs"
                    raise AccordError(msg)
                if ident in spans:
                    raise AccordError(f"{path}:{lineno}: annotation id {ident} is defined twice")
                spans[ident] = (span, lineno)
                if len(fields) >= 3 and fields[2].strip():
                    texts[ident] = fields[2]
            elif ident == "*" or ident.startswith("R"):
                if len(fields) < 2:
                    continue
                parts = fields[1].split()
                if not parts or parts[0] != relation:
                    continue
                if ident == "*":
                    members = parts[1:]
                else:
                    members = []
                    for arg in parts[1:]:
                        if ":" not in arg:
                            raise AccordError(f"{path}:{lineno}: relation argument {arg!r} is not 'Role:Id'")
                        members.append(arg.split(":", 1)[1])
                    if len(members) != 2:
                        raise AccordError(
                            f"{path}:{lineno}: relation {ident} has {plural(len(members), 'argument')}, expected 2"
                        )
                links.append((members, lineno))
    parent = {t: t for t in spans}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for members, lineno in links:
        for t in members:
            if t not in spans:
                kind = "is not defined" if mention_types is None else "is not a mention of the chosen types"
                raise AccordError(f"{path}:{lineno}: {relation} links {t}, which {kind}")
        roots = [find(t) for t in members]
        for r in roots[1:]:
            a, b = find(roots[0]), find(r)
            if a != b:
                parent[b] = a
    out = _Mentions(path, duplicates)
    for t, (span, lineno) in spans.items():
        out.add(document, span, find(t), lineno, texts.get(t))
    return out.records


# ---------------------------------------------------------------------------- jsonlines
def _read_jsonl(path: Path, clusters_key: str, duplicates: str,
                tokens: dict[Hashable, DocumentTokens] | None = None) -> list[_Record]:
    out = _Mentions(path, duplicates)
    names: set[Hashable] = set()
    spaces = 0
    with utf8_lines(path) as fh:
        for lineno, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            obj = json_text(raw, f"{path}:{lineno}")
            if not isinstance(obj, dict) or clusters_key not in obj:
                raise AccordError(f"{path}:{lineno}: expected a JSON object with a {clusters_key!r} list")
            doc = obj.get("doc_key", f"#{lineno}")
            if (not isinstance(doc, (str, int, float)) or isinstance(doc, bool)
                    or (isinstance(doc, float) and not math.isfinite(doc))):
                raise AccordError(f"{path}:{lineno}: doc_key must be a string, got {json.dumps(doc)[:60]}")
            named = canonical_id(doc)
            spaces += isinstance(doc, str) and named != doc
            doc = named
            if doc in names:
                raise AccordError(f"{path}:{lineno}: document {doc!r} appears twice")
            names.add(doc)
            flat: list[str] = []
            sentence_of: list[int] = []
            sentences = obj.get("sentences")
            if isinstance(sentences, list) and all(isinstance(x, list) for x in sentences):
                for k, sent in enumerate(sentences, start=1):
                    flat += [str(w) for w in sent]
                    sentence_of += [k] * len(sent)
                if tokens is not None:
                    tokens[doc] = DocumentTokens(str(path), None, tuple(flat), tuple(sentence_of),
                                                 (lineno,) * len(flat), lineno)
            clusters = obj[clusters_key]
            if not isinstance(clusters, list):
                raise AccordError(f"{path}:{lineno}: {clusters_key!r} must be a list of clusters")
            for ci, cluster in enumerate(clusters):
                if not isinstance(cluster, list):
                    raise AccordError(f"{path}:{lineno}: cluster {ci} is not a list of [start, end] spans")
                for span in cluster:
                    if (
                        not isinstance(span, list)
                        or len(span) != 2
                        or not all(isinstance(x, int) and not isinstance(x, bool) for x in span)
                    ):
                        raise AccordError(
                            f"{path}:{lineno}: cluster {ci} holds {span!r}, "
                            "not a [start, end] pair of integers"
                        )
                    a, b = span
                    known = 0 <= a <= b < len(flat)
                    out.add(doc, (a, b), ci, lineno, " ".join(flat[a:b + 1]) if known else None,
                            sentence_of[a] if known else None)
    _said_spaces(path, spaces)
    return out.records


# ---------------------------------------------------------------------------- CSV
_CSV_COLUMNS = ("document", "mention", "coder", "chain")


def _read_csv(path: Path) -> pd.DataFrame:
    if path.name.lower().endswith(".tsv"):
        sep = "\t"
    elif path.name.lower().endswith(".csv"):
        sep = ","
    else:
        head = _head(path, 1)
        sep = "\t" if head and "\t" in head[0] and "," not in head[0] else ","
    try:
        stream = utf8_lines(path)
        header = [c.strip() for c in next(csv.reader([stream.readline()], delimiter=sep), [])]
        stream.seek(0)
        frame = pd.read_csv(stream, sep=sep, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, csv.Error) as exc:
        raise AccordError(f"{path}: cannot parse as {'TSV' if sep == chr(9) else 'CSV'}: {exc}") from None
    for c in (*_CSV_COLUMNS, "text", "sentence"):
        if header.count(c) > 1:
            raise AccordError(f"{path}:1: the header names column {c!r} {header.count(c)} times; which one is meant?")
    if len(header) == len(frame.columns):  # names without their surrounding spaces (pandas keeps them)
        frame.columns = header
    missing = [c for c in _CSV_COLUMNS if c not in frame.columns]
    if missing:
        raise AccordError(
            f"{path}:1: missing column(s) {missing}; the header must name {list(_CSV_COLUMNS)} "
            f"(found {list(frame.columns)})"
        )
    frame = frame.loc[:, [*_CSV_COLUMNS, *(c for c in ("text", "sentence") if c in frame.columns)]].astype(object)
    for col in ("text", "sentence"):
        frame[col] = frame[col].where(frame[col].str.strip() != "", None) if col in frame.columns else None
    for col in ("document", "mention", "coder"):
        empty = (frame[col].str.strip() == "").to_numpy()
        if empty.any():
            row = int(empty.argmax())
            raise AccordError(f"{path}:{row + 2}: empty {col}")
    frame["chain"] = frame["chain"].where(frame["chain"].str.strip() != "", None)
    changed = 0
    for col in _CSV_COLUMNS:  # ids are names: surrounding spaces are not part of them
        frame[col], n = canonical_ids(frame[col].to_numpy(dtype=object))
        changed += n
    _said_spaces(path, changed)
    frame["_line"] = range(2, len(frame) + 2)
    return frame


def _said_spaces(path: Path, n: int) -> None:
    if n:
        warnings.warn(f"{path}: surrounding spaces removed from {plural(n, 'id cell')} (documents, mentions, "
                      "coders, chains are names: ' d1' is d1)", AccordWarning, stacklevel=4)
