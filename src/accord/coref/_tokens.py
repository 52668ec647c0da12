"""The tokens that mention positions count, and the check that two files hold the same ones.

The CoNLL and CorefUD readers place a mention by its token positions in the document.  Two coders' files (or a
response and its key) can only be compared when position *k* is the same token in both: a token line deleted in
one file would shift every later mention and turn agreement into disagreement without a word.  So each reader
keeps each document's tokens (:class:`DocumentTokens`), and every place that lines up two files compares them:

* ``align="tokens"`` (the default): the files must hold the same tokens, compared by their token ids where both
  files have them (CoNLL-2012's word number, the third column; CoNLL-U's ``ID``, the first), else by their words;
  the first difference is an :class:`~accord.AccordError` naming the document, the sentence and the token, with
  the file and line of both.
* ``align="words"``: the two files' words are aligned (the longest matching blocks, :mod:`difflib`), each mention
  is moved onto the reference's tokens, and the differences are said in an :class:`~accord.AccordWarning`; a
  mention that starts or ends on a token the reference lacks cannot be placed: it is left out and counted.
"""

from __future__ import annotations

import difflib
import math
import warnings
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, plural

__all__ = ["ALIGNS", "Align", "DocumentTokens", "align_documents", "check_align", "mismatch", "place", "say",
           "word_map"]

Align = Literal["tokens", "words"]
ALIGNS = ("tokens", "words")


@dataclass(frozen=True, eq=False)
class DocumentTokens:
    """The tokens of one document as one file holds them: position *k* is ``ids[k]`` / ``words[k]``.

    ``ids`` are the token ids the file gives (None when its layout has none), ``words`` the words (None where
    the layout has none), ``sentences`` the sentence of each token (from 1), ``lines`` its line in ``file``.
    """

    file: str
    ids: tuple[str, ...] | None
    words: tuple[str | None, ...]
    sentences: tuple[int, ...]
    lines: tuple[int, ...]
    end_line: int

    def __len__(self) -> int:
        return len(self.sentences)

    def has_words(self) -> bool:
        return all(w is not None for w in self.words)

    def where(self, k: int) -> str:
        """``file:line`` of token *k*, or of the document's end when *k* is past its last token."""
        return f"{self.file}:{self.lines[k] if k < len(self) else self.end_line}"

    def token(self, k: int, *, word: bool = True) -> str:
        """Token *k* as a person reads it: ``sentence 1, token 3 ('saw')``, or the end of the document."""
        if k >= len(self):
            return "the end of the document"
        ident = self.ids[k] if self.ids is not None else str(k - self.sentences.index(self.sentences[k]) + 1)
        said = f" ({self.words[k]!r})" if word and self.words[k] is not None else ""
        return f"sentence {self.sentences[k]}, token {ident}{said}"


def check_align(align: Any, *, cli: str = "--align") -> None:
    """Refuse an *align* that is not one of :data:`ALIGNS`."""
    if align not in ALIGNS:
        raise AccordError(f"align must be one of {ALIGNS}; got {align!r}",
                          cli=f"{cli} must be one of {', '.join(ALIGNS)}; got {align!r}")


def _first_difference(ref: DocumentTokens, other: DocumentTokens) -> tuple[int, str] | None:
    """The first position where the two differ, and what was compared; None when they hold the same tokens."""
    if ref.ids is not None and other.ids is not None:
        a: tuple[Any, ...] = ref.ids
        b: tuple[Any, ...] = other.ids
        what = "token ids"
    elif ref.has_words() and other.has_words():
        a, b, what = ref.words, other.words, "words"
    else:
        a, b, what = (None,) * len(ref), (None,) * len(other), "numbers of tokens"
    if a == b:
        return None
    n = min(len(a), len(b))
    k = next((i for i in range(n) if a[i] != b[i]), n)
    if what == "token ids" and ref.has_words() and other.has_words():
        # ids renumbered after a deleted or added line differ only later: name the token where the words shift
        r, o = ref.words, other.words

        def shifted(i: int) -> bool:
            return r[i] != o[i] and (r[i + 1:i + 2] == o[i:i + 1] or o[i + 1:i + 2] == r[i:i + 1])

        k = next((i for i in range(k) if shifted(i)), k)
    return k, what


def mismatch(ref: DocumentTokens, other: DocumentTokens, document: Hashable, *, ref_name: str,
             other_name: str) -> AccordError:
    """The error for two files whose tokens differ: document, sentence and token, file and line of both."""
    diff = _first_difference(ref, other)
    assert diff is not None
    k, what = diff
    head = (f"{other.where(k)}: document {document!r}: {other_name} has {other.token(k)} where {ref_name} "
            f"({ref.where(k)}) has {ref.token(k)}; mentions are placed by token position, so the files must hold "
            f"the same tokens (their {what} are compared); to align them by their words and be told the "
            "differences, pass ")
    return AccordError(head + "align='words'", cli=head + "--align words")


def word_map(ref: DocumentTokens, other: DocumentTokens, document: Hashable, *, ref_name: str,
             other_name: str) -> tuple[np.ndarray, str]:
    """Position in *ref* of each token of *other* (-1: not in *ref*) by their words; and the differences said."""
    for t, name in ((ref, ref_name), (other, other_name)):
        if not t.has_words():
            k = next(i for i, w in enumerate(t.words) if w is None)
            raise AccordError(f"{t.where(k)}: document {document!r}: the file of {name} has no word column here, so "
                              "its tokens cannot be aligned by their words")
    out = np.full(len(other), -1, dtype=np.int64)
    sm = difflib.SequenceMatcher(None, ref.words, other.words, autojunk=False)
    shown: list[str] = []
    n_diff = 0
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out[j1:j2] = np.arange(i1, i2)
            continue
        n_diff += max(i2 - i1, j2 - j1)
        if len(shown) < 3:
            mine = " ".join(str(w) for w in other.words[j1:j2])
            theirs = " ".join(str(w) for w in ref.words[i1:i2])
            at_ref = f"{ref.where(i1)}, {ref.token(i1, word=False)}"
            at_other = f"{other.where(j1)}, {other.token(j1, word=False)}"
            if not mine:
                shown.append(f"{theirs!r} ({at_ref}) is not in the file of {other_name}")
            elif not theirs:
                shown.append(f"{mine!r} ({at_other}) is not in the file of {ref_name}")
            else:
                shown.append(f"{mine!r} ({at_other}) where {ref_name} has {theirs!r}")
    said = (f"{other.file}: document {document!r}: {plural(n_diff, 'token differs', 'tokens differ')} from "
            f"the file of {ref_name}, {ref.file} ({'; '.join(shown)}{'; ...' if n_diff > len(shown) else ''})")
    return out, said


def place(mention: Any, mapping: np.ndarray) -> Any:
    """*mention* (a tuple of token positions; an empty node ``k + n/10``) on the reference's tokens, or None
    when one of its positions has no counterpart there."""
    out = []
    for p in mention:
        base = math.floor(p)
        if base == -1 and not isinstance(p, int):  # an empty node 0.n before the document's first word
            q = -1
        elif 0 <= base < len(mapping) and mapping[base] >= 0:
            q = int(mapping[base])
        else:
            return None
        out.append(q if isinstance(p, int) else round(q + (p - base), 1))
    return tuple(out)


def placeable(mention: Any) -> bool:
    return isinstance(mention, tuple) and bool(mention) and all(
        isinstance(p, (int, float)) and not isinstance(p, bool) for p in mention)


def align_documents(
    ref_tokens: Mapping[Hashable, DocumentTokens], tokens: Mapping[Hashable, DocumentTokens], *, align: str,
    ref_name: str, other_name: str,
) -> tuple[dict[Hashable, np.ndarray], dict[Hashable, str]]:
    """For each document of both whose tokens differ: the map of *tokens*' positions onto *ref_tokens*' (with
    ``align="words"``; ``"tokens"`` raises the error naming the first difference); and the differences said."""
    maps: dict[Hashable, np.ndarray] = {}
    said: dict[Hashable, str] = {}
    for doc, mine in tokens.items():
        ref = ref_tokens.get(doc)
        if ref is None or ref is mine or _first_difference(ref, mine) is None:
            continue
        if align == "tokens":
            raise mismatch(ref, mine, doc, ref_name=ref_name, other_name=other_name)
        maps[doc], said[doc] = word_map(ref, mine, doc, ref_name=ref_name, other_name=other_name)
    return maps, said


def say(said: Mapping[Hashable, str], unplaced: Mapping[Hashable, list[Any]], *, ref_name: str,
        stacklevel: int = 3) -> None:
    """One warning per document whose tokens differ: how, and the mentions that could not be placed."""
    for doc, text in said.items():
        lost = unplaced.get(doc, [])
        if lost:
            text += (f"; mentions placed by the words, {plural(len(lost), 'mention')} on tokens the file of "
                     f"{ref_name} lacks left out (the first: {lost[0]!r})")
        else:
            text += "; mentions placed by the words"
        warnings.warn(text, AccordWarning, stacklevel=stacklevel)


def placed_on(reference: Any, data: Any, *, align: str = "tokens", ref_name: str = "the key") -> Any:
    """*data* (a :class:`~accord.coref.CorefAnnotations`) with its mentions on *reference*'s tokens.

    Documents whose tokens both hold are compared (module docstring): the same tokens leave *data* as it is; a
    difference is an error with ``align="tokens"``, and with ``align="words"`` the mentions are moved onto the
    reference's positions, those that cannot be placed left out, and the differences said.  Data without
    tokens (brat, CSV, jsonlines without sentences) are returned as they are.
    """
    from accord.coref._model import _ABSENT, CorefAnnotations

    check_align(align)
    if not isinstance(reference, CorefAnnotations) or not isinstance(data, CorefAnnotations):
        return data
    ref_tokens, tokens = reference.tokens, data.tokens
    if not ref_tokens or not tokens:
        return data
    coders = repr(data.coders[0])
    maps, said = align_documents(ref_tokens, tokens, align=align, ref_name=ref_name,
                                 other_name=f"coder {coders}" if len(data.coders) == 1 else "the coders' annotation")
    if not maps:
        return data
    ids = data._mention_ids.copy()
    keep = np.ones(len(ids), dtype=bool)
    unplaced: dict[Hashable, list[Any]] = {}
    offsets = data._doc_offsets
    for k, doc in enumerate(data.documents):
        mapping = maps.get(doc)
        if mapping is None:
            continue
        for m in range(int(offsets[k]), int(offsets[k + 1])):
            if not placeable(ids[m]):
                continue
            moved = place(ids[m], mapping)
            if moved is None:
                keep[m] = False
                unplaced.setdefault(doc, []).append(ids[m])
            else:
                ids[m] = moved
    say(said, unplaced, ref_name=ref_name, stacklevel=4)
    chains = np.where(data._annotated, data._chains, _ABSENT)
    moved_tokens = {**tokens, **{d: ref_tokens[d] for d in maps}}
    from dataclasses import replace

    return replace(data, _mention_ids=ids, _tokens=moved_tokens)._subset_mentions(keep, chains, data.coders)
