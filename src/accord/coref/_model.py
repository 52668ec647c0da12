"""The coreference data model: per document, per coder, a partition of the mentions.

A coreference annotation assigns every mention (a span ``(start, end)`` or any
hashable id, unique within its document) to a chain; the chains of one coder in
one document partition the mentions that coder treated as referring.  Following
Passonneau (2004, section 2), a mention can also be *non-referring* for a coder
(Table 1's NIL): it then has no value for that coder (missing), which is not the
same as a singleton chain (a mention that refers but corefers with nothing).

:class:`CorefAnnotations` stores the mentions of all documents in one global
order (documents contiguous) and, for every coder, an integer chain code per
mention (``-1`` = missing), so that the reliability engine can work on arrays:

* :meth:`CorefAnnotations.classes` gives one coder's classes in one document as
  frozensets of mention ids (seed 003, Figure 2);
* :meth:`CorefAnnotations.canonical_classes` interns identical classes across
  coders into one code each -- the "coding values" of seed 003 (Figure 2, bottom;
  Table 2) -- and gives their members as a CSR array;
* :meth:`CorefAnnotations.partition` gives one coder's chains per document for the
  scores of :mod:`accord.coref._scores`.

Mentions are aligned across coders by exact identity (the same span in the same
document).  A mention that occurs in some coders' input but not in another's is
handled by the named policy ``missing_mentions`` and reported in
:attr:`CorefAnnotations.presence`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, plural
from accord._shared.names import shown
from accord._shared.results import Result
from accord.coref._records import _columns, _factorize, _group, _kept, _per_mention, _sort_rank

__all__ = [
    "CorefAnnotations",
    "CorefClasses",
    "MentionPresence",
    "example_passonneau2004",
]

MissingMentions = Literal["singleton", "missing", "error"]
Duplicates = Literal["error", "first"]
Convention = Literal["classes", "classes-less-unit"]

_MISSING_POLICIES = ("singleton", "missing", "error")
_DUPLICATE_POLICIES = ("error", "first")
_CONVENTIONS = ("classes", "classes-less-unit")
_ABSENT = -2  # internal marker: mention not in this coder's input (before the policy is applied)


@dataclass(frozen=True, eq=False)
class MentionPresence(Result):
    """Which coders' input held each mention, and the policy applied to the others.

    Attributes
    ----------
    n_mentions : int
        Mentions after alignment across coders (all documents).
    n_coders : int
        Coders.
    n_partial : int
        Mentions present in the input of some coders but not all.
    policy : str
        ``missing_mentions`` as applied to the partial mentions: ``"singleton"`` (a
        singleton chain for the coders that lack the mention) or ``"missing"`` (no
        value for them).
    partial : tuple
        One ``(document, mention, coders_present)`` triple per partial mention.
    """

    n_mentions: int
    n_coders: int
    n_partial: int
    policy: str
    partial: tuple[tuple[Hashable, Hashable, tuple[Hashable, ...]], ...]

    def to_frame(self) -> pd.DataFrame:
        """The partial mentions as a table (document, mention, coders_present)."""
        return pd.DataFrame(list(self.partial), columns=["document", "mention", "coders_present"])


@dataclass(frozen=True, eq=False)
class CorefClasses:
    """Every distinct class of every coder, interned (seed 003, Figure 2 and Table 2).

    Two coders' classes with the same members (in the same document) share one
    code.  Members are global mention indices (positions in
    :meth:`CorefAnnotations.mention_index`).

    Attributes
    ----------
    codes : numpy.ndarray
        ``(n_coders, n_mentions)`` int64: the class code each coder gave each mention,
        ``-1`` where the mention has no value for that coder.
    indptr : numpy.ndarray
        ``(n_classes + 1,)`` int64: the members of class ``k`` are
        ``members[indptr[k]:indptr[k + 1]]``.
    members : numpy.ndarray
        Global mention indices, sorted within each class.
    sizes : numpy.ndarray
        ``(n_classes,)`` int64 class sizes.
    """

    codes: np.ndarray
    indptr: np.ndarray
    members: np.ndarray
    sizes: np.ndarray

    @property
    def n_classes(self) -> int:
        """Number of distinct classes."""
        return int(self.sizes.shape[0])

    def members_of(self, k: int) -> np.ndarray:
        """Global mention indices of class ``k``."""
        return self.members[self.indptr[k] : self.indptr[k + 1]]


@dataclass(frozen=True, eq=False)
class CorefAnnotations:
    """Coreference chains of several coders over the mentions of several documents.

    Build it with :meth:`from_records` or a reader of :mod:`accord.coref._readers`.

    Attributes
    ----------
    documents : tuple
        Document names, in order of first appearance.
    coders : tuple
        Coder names, in order of first appearance.
    missing_mentions : str
        The policy applied to mentions present for only some coders.
    presence : MentionPresence
        Which mentions were present for which coders.

    Notes
    -----
    Internally mentions are numbered ``0 .. n_mentions - 1`` with each document's
    mentions contiguous (sorted by id when ids sort, else in order of first
    appearance); ``chain_codes[c, m]`` is coder ``c``'s chain for mention ``m``,
    unique across documents and coders, ``-1`` when the mention has no value for
    the coder (non-referring, or absent under ``missing_mentions="missing"``).

    References
    ----------
    Passonneau, R. J. (2004). Computing reliability for coreference annotation.
    *Proceedings of LREC 2004*.
    """

    documents: tuple[Hashable, ...]
    coders: tuple[Hashable, ...]
    missing_mentions: str
    presence: MentionPresence
    _doc_offsets: np.ndarray
    _mention_ids: np.ndarray
    _chains: np.ndarray
    _annotated: np.ndarray
    _mention_text: np.ndarray | None = None
    _mention_sentence: np.ndarray | None = None
    _tokens: Mapping[Hashable, Any] | None = None

    @property
    def tokens(self) -> Mapping[Hashable, Any]:
        """Each document's tokens, where the files had them (CoNLL, CorefUD, jsonlines with sentences): the
        positions the mentions count, which a key is checked against (:mod:`accord.coref._tokens`)."""
        return dict(self._tokens or {})

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_records(
        cls,
        records: Any,
        *,
        document: str = "document",
        mention: str = "mention",
        coder: str = "coder",
        chain: str = "chain",
        missing_mentions: MissingMentions = "singleton",
        duplicates: Duplicates = "error",
        text: str | None = None,
        sentence: str | None = None,
    ) -> CorefAnnotations:
        """Build the model from long records, one per mention per coder.

        Parameters
        ----------
        records : iterable of tuple or DataFrame
            ``(document, mention, coder, chain)`` tuples, or a pandas (or polars, or
            any narwhals-supported) DataFrame with those columns.  ``chain`` is any
            hashable label, unique within a document and coder; ``None``/NaN marks
            the mention non-referring for that coder (missing).  A mention is any
            hashable id, unique within its document: a ``(start, end)`` span or a
            string.
        document, mention, coder, chain : str
            Column names when ``records`` is a DataFrame.
        missing_mentions : {"singleton", "missing", "error"}
            What a mention that some coders' records hold and another coder's do not
            becomes for the latter: a singleton chain (a referring mention the coder
            linked to nothing, the default), missing (no value), or an
            :class:`~accord.AccordError`.
        duplicates : {"error", "first"}
            A mention given two different chains by one coder: raise (default), or
            keep the first record (what the CoNLL-2012 reference scorer does with a
            response mention repeated in two chains).
        text, sentence : str, optional
            Columns (of a DataFrame) holding the words of each mention and the sentence
            it sits in, kept for what a person reads (:meth:`mention_texts`, the
            report); the first non-empty cell of a mention is kept.  They change no
            number.

        Returns
        -------
        CorefAnnotations

        Examples
        --------
        >>> data = CorefAnnotations.from_records([
        ...     ("d1", "A", "ann1", 1), ("d1", "B", "ann1", 1), ("d1", "C", "ann1", 2),
        ...     ("d1", "A", "ann2", "x"), ("d1", "B", "ann2", "y"), ("d1", "C", "ann2", "y"),
        ... ])
        >>> [sorted(k) for k in data.classes("d1", "ann1")]
        [['A', 'B'], ['C']]
        >>> [sorted(k) for k in data.classes("d1", "ann2")]
        [['A'], ['B', 'C']]
        """
        if missing_mentions not in _MISSING_POLICIES:
            raise AccordError(
                f"missing_mentions must be one of {_MISSING_POLICIES}, got {missing_mentions!r}"
            )
        if duplicates not in _DUPLICATE_POLICIES:
            raise AccordError(f"duplicates must be one of {_DUPLICATE_POLICIES}, got {duplicates!r}")
        docs, ments, cods, chs, texts, sents = _columns(records, document, mention, coder, chain, text, sentence)
        n = len(docs)
        if n == 0:
            raise AccordError("records: no records given")
        for name, col in (("document", docs), ("mention", ments), ("coder", cods)):
            nulls = np.flatnonzero(col.isna().to_numpy())
            if nulls.size:
                i = int(nulls[0])
                raise AccordError(f"records: record {i} has no {name} (got {shown(col.iloc[i])})")

        doc_codes, doc_uniques = _factorize(docs)
        coder_codes, coder_uniques = _factorize(cods)
        ment_codes, ment_uniques = _factorize(ments)
        ment_rank = _sort_rank(ment_uniques)
        n_docs, n_coders, n_ment_ids = len(doc_uniques), len(coder_uniques), len(ment_uniques)

        # global mention index: documents in order of appearance, mentions sorted within
        key = doc_codes * n_ment_ids + ment_rank[ment_codes]
        mention_keys, global_idx = np.unique(key, return_inverse=True)
        global_idx = global_idx.astype(np.int64)
        n_mentions = len(mention_keys)
        mention_doc = mention_keys // n_ment_ids
        rank_to_code = np.empty(n_ment_ids, dtype=np.int64)
        rank_to_code[ment_rank] = np.arange(n_ment_ids, dtype=np.int64)
        mention_ids = ment_uniques[rank_to_code[mention_keys % n_ment_ids]]
        doc_offsets = np.searchsorted(mention_doc, np.arange(n_docs + 1)).astype(np.int64)

        # chains: null -> missing (-1); otherwise unique per (document, coder, label)
        label_codes, label_uniques = _factorize(chs)
        is_null = label_codes < 0
        n_labels = max(len(label_uniques), 1)
        chain_key = (doc_codes * n_coders + coder_codes) * n_labels + label_codes
        _, chain_codes = np.unique(chain_key, return_inverse=True)
        chain_codes = chain_codes.astype(np.int64).reshape(-1)
        chain_codes[is_null] = -1

        # one value per (mention, coder)
        cell = global_idx * n_coders + coder_codes
        order = np.argsort(cell, kind="stable")
        cell_sorted = cell[order]
        first = np.ones(n, dtype=bool)
        first[1:] = cell_sorted[1:] != cell_sorted[:-1]
        if not first.all() and duplicates == "error":
            ch_sorted = chain_codes[order]
            starts = np.flatnonzero(first)
            group = np.cumsum(first) - 1
            conflict = ch_sorted != ch_sorted[starts[group]]
            if conflict.any():
                i = int(order[np.flatnonzero(conflict)[0]])
                raise AccordError(
                    f"records: coder {shown(cods.iloc[i])} puts mention {shown(ments.iloc[i])} of document "
                    f"{shown(docs.iloc[i])} "
                    "in two chains (or both in a chain and non-referring); pass duplicates='first' "
                    "to keep the first",
                    cli=f"records: coder {shown(cods.iloc[i])} puts mention {shown(ments.iloc[i])} of document "
                    f"{shown(docs.iloc[i])} in two chains (or both in a chain and non-referring); pass --duplicates "
                    "first to keep the first"
                )
        keep = order[first]
        chains = np.full((n_coders, n_mentions), _ABSENT, dtype=np.int64)
        chains[coder_codes[keep], global_idx[keep]] = chain_codes[keep]
        # renumber chain codes densely (duplicates may have dropped some)
        used = chains >= 0
        if used.any():
            _, dense = np.unique(chains[used], return_inverse=True)
            chains[used] = dense

        return cls._finish(
            tuple(doc_uniques.tolist()),
            tuple(coder_uniques.tolist()),
            doc_offsets,
            mention_ids,
            chains,
            missing_mentions,
            _per_mention(texts, global_idx, n_mentions),
            _per_mention(sents, global_idx, n_mentions),
        )

    @classmethod
    def _finish(
        cls,
        documents: tuple[Hashable, ...],
        coders: tuple[Hashable, ...],
        doc_offsets: np.ndarray,
        mention_ids: np.ndarray,
        chains: np.ndarray,
        missing_mentions: str,
        mention_text: np.ndarray | None = None,
        mention_sentence: np.ndarray | None = None,
        tokens: Mapping[Hashable, Any] | None = None,
    ) -> CorefAnnotations:
        annotated = chains != _ABSENT
        n_coders, n_mentions = chains.shape
        partial_mask = ~annotated.all(axis=0)
        partial_idx = np.flatnonzero(partial_mask)
        mention_doc = np.repeat(np.arange(len(documents)), np.diff(doc_offsets))
        partial = tuple(
            (
                documents[int(mention_doc[m])],
                mention_ids[m],
                tuple(coders[c] for c in np.flatnonzero(annotated[:, m])),
            )
            for m in partial_idx
        )
        if partial and missing_mentions == "error":
            doc, men, present = partial[0]
            said = (f"{plural(len(partial), 'mention is', 'mentions are')} present for only some coders, "
                    f"e.g. mention {men!r} of document {doc!r} (present for {list(present)})")
            raise AccordError(f"missing_mentions='error': {said}; use missing_mentions='singleton' or 'missing'",
                              cli=f"--missing-mentions error: {said}; use --missing-mentions singleton or missing")
        absent = ~annotated
        if absent.any():
            if missing_mentions == "singleton":
                start = int(chains.max()) + 1 if (chains >= 0).any() else 0
                chains = chains.copy()
                chains[absent] = start + np.arange(int(absent.sum()), dtype=np.int64)
            else:
                chains = np.where(absent, -1, chains)
        chains.setflags(write=False)
        annotated.setflags(write=False)
        doc_offsets.setflags(write=False)
        presence = MentionPresence(
            n_mentions=int(n_mentions),
            n_coders=int(n_coders),
            n_partial=len(partial),
            policy=missing_mentions,
            partial=partial,
        )
        return cls(
            documents=documents,
            coders=coders,
            missing_mentions=missing_mentions,
            presence=presence,
            _doc_offsets=doc_offsets,
            _mention_ids=mention_ids,
            _chains=chains,
            _annotated=annotated,
            _mention_text=mention_text,
            _mention_sentence=mention_sentence,
            _tokens=tokens or None,
        )

    # ------------------------------------------------------------------ look-ups
    def _doc_code(self, document: Hashable) -> int:
        try:
            return self.documents.index(document)
        except ValueError:
            raise AccordError(
                f"document {document!r} is not in the data (documents: {list(self.documents)[:10]})"
            ) from None

    def _coder_code(self, coder: Hashable) -> int:
        try:
            return self.coders.index(coder)
        except ValueError:
            raise AccordError(f"coder {coder!r} is not in the data (coders: {list(self.coders)})") from None

    @property
    def n_mentions(self) -> int:
        """Number of mentions over all documents."""
        return int(self._mention_ids.shape[0])

    @property
    def chain_codes(self) -> np.ndarray:
        """``(n_coders, n_mentions)`` read-only int64 array of chain codes, ``-1`` = missing."""
        return self._chains

    @property
    def annotated(self) -> np.ndarray:
        """``(n_coders, n_mentions)`` read-only bool array: the mention was in that coder's input."""
        return self._annotated

    def mention_index(self) -> pd.DataFrame:
        """The global mention order: one row per mention with its document and id."""
        mention_doc = np.repeat(np.arange(len(self.documents)), np.diff(self._doc_offsets))
        return pd.DataFrame(
            {
                "document": pd.Series(np.asarray(self.documents, dtype=object)[mention_doc], dtype=object),
                "mention": pd.Series(self._mention_ids, dtype=object),
            }
        )

    def mention_texts(self) -> pd.DataFrame:
        """What a person reads of each mention: one row per mention (in :meth:`mention_index` order) with its
        document, id, ``text`` (its words, ``None`` where the input gave none) and ``sentence`` (the sentence
        of the document it starts in, ``None`` where unknown).

        Examples
        --------
        >>> example_passonneau2004().mention_texts().iloc[3].tolist()
        ['fig1', 'D', 'Daniel', 2]
        """
        out = self.mention_index()
        n = self.n_mentions
        for name, arr in (("text", self._mention_text), ("sentence", self._mention_sentence)):
            out[name] = pd.Series(arr if arr is not None else np.full(n, None, dtype=object), dtype=object)
        return out

    def mentions(self, document: Hashable) -> tuple[Hashable, ...]:
        """The mention ids of one document, in the model's order."""
        d = self._doc_code(document)
        return tuple(self._mention_ids[self._doc_offsets[d] : self._doc_offsets[d + 1]].tolist())

    def classes(self, document: Hashable, coder: Hashable) -> list[frozenset[Hashable]]:
        """One coder's equivalence classes in one document (seed 003, Figure 2).

        Every mention with a value for the coder is in exactly one class (singletons
        included); mentions missing for the coder are in none.  Classes are ordered
        by their first mention.
        """
        d, c = self._doc_code(document), self._coder_code(coder)
        lo, hi = int(self._doc_offsets[d]), int(self._doc_offsets[d + 1])
        return _group(self._chains[c, lo:hi], self._mention_ids[lo:hi])

    def partition(self, coder: Hashable, *, annotated_only: bool = True) -> dict[Hashable, list[frozenset]]:
        """One coder's chains per document, as the scores of :mod:`accord.coref._scores` take them.

        Parameters
        ----------
        coder : hashable
            The coder.
        annotated_only : bool
            Keep only the mentions that were in this coder's own input (default), so
            that singletons added by ``missing_mentions="singleton"`` for mentions
            only other coders had do not count as this coder's mentions.
        """
        c = self._coder_code(coder)
        out: dict[Hashable, list[frozenset]] = {}
        for d, doc in enumerate(self.documents):
            lo, hi = int(self._doc_offsets[d]), int(self._doc_offsets[d + 1])
            ch = self._chains[c, lo:hi]
            if annotated_only:
                ch = np.where(self._annotated[c, lo:hi], ch, -1)
            out[doc] = _group(ch, self._mention_ids[lo:hi])
        return out

    def select_coders(self, coders: Iterable[Hashable]) -> CorefAnnotations:
        """The same data restricted to some coders (policy re-applied to their input)."""
        idx = [self._coder_code(c) for c in coders]
        if not idx:
            raise AccordError("coders: select at least one coder")
        chains = np.where(self._annotated[idx], self._chains[idx], _ABSENT)
        keep = (chains != _ABSENT).any(axis=0)
        return self._subset_mentions(keep, chains, tuple(self.coders[i] for i in idx))

    def _subset_mentions(
        self, keep: np.ndarray, chains: np.ndarray, coders: tuple[Hashable, ...]
    ) -> CorefAnnotations:
        mention_doc = np.repeat(np.arange(len(self.documents)), np.diff(self._doc_offsets))
        kept_docs = np.unique(mention_doc[keep])
        remap = np.full(len(self.documents), -1, dtype=np.int64)
        remap[kept_docs] = np.arange(len(kept_docs))
        new_doc = remap[mention_doc[keep]]
        offsets = np.searchsorted(new_doc, np.arange(len(kept_docs) + 1)).astype(np.int64)
        return self._finish(
            tuple(self.documents[d] for d in kept_docs),
            coders,
            offsets,
            self._mention_ids[keep],
            np.ascontiguousarray(chains[:, keep]),
            self.missing_mentions,
            None if self._mention_text is None else self._mention_text[keep],
            None if self._mention_sentence is None else self._mention_sentence[keep],
            None if self._tokens is None else _kept(self._tokens, {self.documents[k] for k in kept_docs.tolist()}),
        )

    # ------------------------------------------------------------------ views
    def to_records(self) -> pd.DataFrame:
        """Long table (document, mention, coder, chain), one row per mention per coder.

        ``chain`` is the model's integer chain code (unique across documents and
        coders), ``None`` where the mention has no value for the coder.  Mentions a
        coder's input lacked are included as the policy made them (a singleton chain
        or ``None``).  ``from_records(data.to_records())`` gives the same partitions.
        """
        n_c, n_m = self._chains.shape
        index = self.mention_index()
        ch = self._chains.reshape(-1)
        return pd.DataFrame(
            {
                "document": pd.Series(np.tile(index["document"].to_numpy(dtype=object), n_c), dtype=object),
                "mention": pd.Series(np.tile(self._mention_ids, n_c), dtype=object),
                "coder": pd.Series(np.repeat(np.asarray(self.coders, dtype=object), n_m), dtype=object),
                "chain": pd.Series([None if v < 0 else int(v) for v in ch.tolist()], dtype=object),
            }
        )

    def canonical_classes(self) -> CorefClasses:
        """Intern every coder's classes into codes shared by identical classes.

        This is the representation of seed 003, Table 2: the values are "the set of
        equivalence classes created by the union of all the codings" (Figure 2); a
        class two coders both built gets one code.  Cost: one sort of the
        (coder, mention) memberships plus one row-wise ``np.unique`` per distinct
        class size.
        """
        n_c, n_m = self._chains.shape
        valid = self._chains >= 0
        coder_idx, mention_idx = np.nonzero(valid)
        chain = self._chains[coder_idx, mention_idx]
        order = np.lexsort((mention_idx, chain))
        chain_s, mention_s = chain[order], mention_idx[order]
        n_chains = int(chain.max()) + 1 if chain.size else 0
        sizes_all = np.bincount(chain_s, minlength=n_chains)
        present = np.flatnonzero(sizes_all)
        starts = np.concatenate([[0], np.cumsum(sizes_all)])
        canon = np.full(n_chains, -1, dtype=np.int64)
        class_sizes: list[np.ndarray] = []
        class_members: list[np.ndarray] = []
        next_code = 0
        for s in np.unique(sizes_all[present]):
            ids = present[sizes_all[present] == s]
            rows = mention_s[starts[ids][:, None] + np.arange(s)[None, :]]
            uniq, inv = np.unique(rows, axis=0, return_inverse=True)
            canon[ids] = next_code + inv.reshape(-1)
            class_sizes.append(np.full(len(uniq), s, dtype=np.int64))
            class_members.append(uniq.reshape(-1))
            next_code += len(uniq)
        sizes = np.concatenate(class_sizes) if class_sizes else np.zeros(0, dtype=np.int64)
        members = np.concatenate(class_members) if class_members else np.zeros(0, dtype=np.int64)
        indptr = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        codes = np.full((n_c, n_m), -1, dtype=np.int64)
        codes[valid] = canon[self._chains[valid]]
        return CorefClasses(codes=codes, indptr=indptr, members=members.astype(np.int64), sizes=sizes)

    def reliability_records(self, *, convention: Convention = "classes") -> pd.DataFrame:
        """Plain (unit, coder, value) records with frozenset values, for any set-valued estimator.

        Parameters
        ----------
        convention : {"classes", "classes-less-unit"}
            Seed 003 uses both: the class itself is the value of a mention (its
            nominal .45, Table 2), or the class less the mention being coded (its
            set-distance .74, section 3.3).

        Returns
        -------
        pandas.DataFrame
            Columns ``unit`` (a ``(document, mention)`` pair), ``coder`` and ``value``:
            a frozenset of ``(document, mention)`` pairs.  Members are qualified by
            document so that equal-looking classes of different documents stay
            different values.  Mentions missing for a coder have no row.  This is
            the plain, slow form (one frozenset per value); the alpha engine works
            from :meth:`canonical_classes` instead.

        Examples
        --------
        >>> recs = example_passonneau2004().reliability_records(convention="classes-less-unit")
        >>> row = recs[(recs.unit == ("fig1", "C")) & (recs.coder == "RA.3")]
        >>> sorted(m for _, m in row["value"].iloc[0])
        ['H', 'J', 'K']
        """
        if convention not in _CONVENTIONS:
            raise AccordError(f"convention must be one of {_CONVENTIONS}, got {convention!r}")
        index = self.mention_index()
        pairs = list(zip(index["document"].tolist(), self._mention_ids.tolist(), strict=True))
        cc = self.canonical_classes()
        class_sets = [
            frozenset(pairs[m] for m in cc.members_of(k).tolist()) for k in range(cc.n_classes)
        ]
        units: list[Any] = []
        coders: list[Any] = []
        values: list[Any] = []
        less = convention == "classes-less-unit"
        for c, coder in enumerate(self.coders):
            row = cc.codes[c]
            for m in np.flatnonzero(row >= 0).tolist():
                v = class_sets[int(row[m])]
                units.append(pairs[m])
                coders.append(coder)
                values.append(v - {pairs[m]} if less else v)
        return pd.DataFrame(
            {
                "unit": pd.Series(units, dtype=object),
                "coder": pd.Series(coders, dtype=object),
                "value": pd.Series(values, dtype=object),
            }
        )

    def __repr__(self) -> str:
        return (
            f"CorefAnnotations(documents={len(self.documents)}, coders={list(self.coders)}, "
            f"mentions={self.n_mentions}, partial_mentions={self.presence.n_partial}, "
            f"missing_mentions={self.missing_mentions!r})"
        )


# ---------------------------------------------------------------------- the seed example
_PASSONNEAU_TABLE1: dict[str, tuple[Any, Any, Any]] = {
    # ID: (RA.1, RA.2, RA.3), Passonneau (2004), Table 1; None = NIL
    "A": (1, 1, 1),
    "B": (2, 2, 2),
    "C": (3, 3, 3),
    "D": (1, 1, 1),
    "E": (2, 2, 2),
    "F": (2, 2, 2),
    "G": (4, 4, 4),
    "H": (3, 5, 3),
    "J": (4, None, 3),
    "K": (4, 4, 3),
    "L": (2, 2, 2),
}


# the words of each NP and the sentence of Figure 1 it sits in (Passonneau 2004, Table 1 and Figure 1)
_PASSONNEAU_WORDS: dict[str, str] = {
    "A": "Gov. Price Daniel", "B": "abandoned property act", "C": "Texas bankers", "D": "Daniel",
    "E": "the measure", "F": "it", "G": "committee members", "H": "bankers", "J": "witnesses", "K": "they",
    "L": "it",
}
_PASSONNEAU_SENTENCES: dict[str, int] = {"A": 1, "B": 1, "C": 1, "D": 2, "E": 2, "F": 3, "G": 4, "H": 4, "J": 4,
                                         "K": 4, "L": 4}


def example_passonneau2004(*, nil_as: Literal["singleton", "missing"] = "singleton") -> CorefAnnotations:
    """The newswire example of Passonneau (2004): 11 NPs, three coders (Table 1).

    Parameters
    ----------
    nil_as : {"singleton", "missing"}
        How to read RA.2's NIL for token J.  Table 1 prints NIL (non-referring), but
        Figure 2 lists ``{J}`` among RA.2's classes and Table 2 codes RA.2's J as
        class 10 = ``{J}``, a singleton.  ``"singleton"`` (default) follows Table 2
        and Figure 2 and is what reproduces the printed alphas: .45 nominal on the
        classes (49/109) and .74 with the 0, 1/3, 2/3, 1 set distance on the classes
        less the unit (875/1179).  ``"missing"`` follows Table 1's NIL (J then has
        two values, RA.2 codes 10 units); it reproduces neither printed number
        (nominal alpha on the classes is then 187/404 = 0.4629).

    Returns
    -------
    CorefAnnotations
        One document ``"fig1"``, coders ``"RA.1"``, ``"RA.2"``, ``"RA.3"``, mentions
        ``"A"`` .. ``"L"`` (Table 1's IDs; there is no ``"I"``: Figure 1 letters the
        last three NPs I, J, K where Table 1 has J, K, L).

    Examples
    --------
    >>> data = example_passonneau2004()
    >>> [sorted(c) for c in data.classes("fig1", "RA.3")]
    [['A', 'D'], ['B', 'E', 'F', 'L'], ['C', 'H', 'J', 'K'], ['G']]
    >>> data.canonical_classes().n_classes  # Figure 2: "10 Coding Values"
    10
    >>> example_passonneau2004(nil_as="missing").classes("fig1", "RA.2")[-1]
    frozenset({'H'})

    References
    ----------
    Passonneau, R. J. (2004). Computing reliability for coreference annotation.
    *Proceedings of LREC 2004*, Table 1, Figure 2, Table 2.
    """
    if nil_as not in ("singleton", "missing"):
        raise AccordError(f"nil_as must be 'singleton' or 'missing', got {nil_as!r}")
    coders = ("RA.1", "RA.2", "RA.3")
    records = []
    for mention, chains in _PASSONNEAU_TABLE1.items():
        for coder, ch in zip(coders, chains, strict=True):
            if ch is None and nil_as == "singleton":
                ch = f"nil-{mention}"
            records.append(("fig1", mention, coder, ch, _PASSONNEAU_WORDS[mention], _PASSONNEAU_SENTENCES[mention]))
    frame = pd.DataFrame(records, columns=["document", "mention", "coder", "chain", "text", "sentence"], dtype=object)
    return CorefAnnotations.from_records(frame, text="text", sentence="sentence")
