r"""Token-level agreement on spans: each token is a unit, its value the label of the span covering it.

Spans are turned into reliability data over a tokenisation (whitespace by
default, the export's own tokens when it carries them, or the user's): for
every document a coder saw, every token gets, from that coder, the label of
the coder's span(s) overlapping it, or the *outside* value when no span of
that coder touches it.  A token outside every span is thus a value of its own
and agreement on "nothing here" counts.  Documents a coder did
not see are missing for that coder.

Alpha and kappa are then the ordinary :func:`accord.alpha` and kappa family on
that table (:func:`token_table` returns it), counted by the pair engine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError
from accord._shared.results import Coefficient
from accord.coefficients._alpha import AlphaResult
from accord.coefficients._alpha import alpha as _alpha
from accord.coefficients._fleiss import fleiss_kappa
from accord.coefficients._kappa import KappaResult, cohen_kappa
from accord.data._annotations import Annotations
from accord.data._spans import SpanAnnotations
from accord.spans._arrays import overlap_pairs, span_arrays

__all__ = ["OUTSIDE", "TokenAgreement", "token_agreement", "token_table", "tokenise"]

#: The value of a token outside every span of a coder.
OUTSIDE = "(outside)"

Tokens = Literal["whitespace", "export"] | Mapping[str, Sequence[tuple[int, int]]] | Callable[[str], Any]
_WS = re.compile(r"\S+")
Scheme = Literal["label", "bio"]
SCHEMES: tuple[str, ...] = ("label", "bio")


def tokenise(
    data: SpanAnnotations, tokens: Tokens = "whitespace", *, documents: Sequence[str] | None = None
) -> dict[str, tuple[tuple[int, int], ...]]:
    """The token offsets of the documents of *data* (all, or those named in *documents*).

    Parameters
    ----------
    data : SpanAnnotations
    tokens : "whitespace", "export", mapping or callable
        ``"whitespace"``: maximal runs of non-space characters of each
        document's text (every document needs its text); ``"export"``: the
        tokens the export carried (``data.tokens``); a mapping from document to
        ``(start, end)`` offsets; or a callable taking a text and returning
        ``(start, end)`` offsets.

    Examples
    --------
    >>> from accord.spans import Span, SpanAnnotations
    >>> sa = SpanAnnotations.from_spans([Span("d", 0, 5, "PER", "a")], texts={"d": "Alice  met"})
    >>> tokenise(sa)
    {'d': ((0, 5), (7, 10))}
    """
    docs = data.documents if documents is None else tuple(documents)
    if isinstance(tokens, str):
        if tokens == "export":
            if data.tokens is None:
                said = f"{data.source or 'the data'} carry no tokenisation"
                raise AccordError(f"tokens='export': {said}; use tokens='whitespace'",
                                  cli=f"--tokens export: {said}; use --tokens whitespace")
            missing = [d for d in docs if d not in data.tokens]
            if missing:
                said = f"the export has no tokens for document {missing[0]!r}"
                raise AccordError(f"tokens='export': {said}", cli=f"--tokens export: {said}")
            return {d: tuple(data.tokens[d]) for d in docs}
        if tokens != "whitespace":
            raise AccordError(f"tokens must be 'whitespace', 'export', a mapping or a callable; got {tokens!r}")

        def split(text: str) -> Any:
            return [m.span() for m in _WS.finditer(text)]

        tokens = split
    if callable(tokens):
        out = {}
        for d in docs:
            if d not in data.texts:
                raise AccordError(f"document {d!r} has no text to tokenise; give the texts (texts=) or tokens='export'",
                                  cli=f"document {d!r} has no text to tokenise; give the texts (--texts) or --tokens "
                                      "export")
            out[d] = tuple((int(s), int(e)) for s, e in tokens(data.texts[d]))
        return out
    if isinstance(tokens, Mapping):
        missing = [d for d in docs if d not in tokens]
        if missing:
            raise AccordError(f"tokens: no tokens given for document {missing[0]!r}")
        return {d: tuple((int(s), int(e)) for s, e in tokens[d]) for d in docs}
    raise AccordError(f"tokens must be 'whitespace', 'export', a mapping or a callable; got {type(tokens).__name__}")


def _shared_documents(data: SpanAnnotations) -> tuple[str, ...]:
    """Documents at least two coders saw, in order."""
    n_seen: dict[str, int] = {}
    for d, _ in data.seen:
        n_seen[d] = n_seen.get(d, 0) + 1
    return tuple(d for d in data.documents if n_seen.get(d, 0) >= 2)


def token_table(
    data: SpanAnnotations, *, tokens: Tokens = "whitespace", outside: str = OUTSIDE, scheme: Scheme = "label"
) -> tuple[Annotations, np.ndarray, int]:
    """Reliability data with one unit per token.

    Returns
    -------
    table : Annotations
        Units named ``"document[start:end]"``; one value per (token, coder who
        saw the document): the label of the coder's span overlapping the token,
        several labels joined by ``"+"`` in sorted order, or *outside*.
    document_of_unit : ndarray of int
        For each unit, its document's index among the documents used: those
        at least two coders saw, in the order of ``data.documents`` (a
        document one coder saw holds nothing to compare and needs no text).
    n_multilabel : int
        (token, coder) cells covered by spans with different labels.

    Examples
    --------
    >>> from accord.spans import Span, SpanAnnotations
    >>> sa = SpanAnnotations.from_spans(
    ...     [Span("d", 0, 5, "PER", "a"), Span("d", 10, 13, "PER", "b")],
    ...     texts={"d": "Alice met Bob"}, seen=[("d", "a"), ("d", "b")])
    >>> table, _, _ = token_table(sa)
    >>> table.to_matrix()
    array([['PER', '(outside)', '(outside)'],
           ['(outside)', '(outside)', 'PER']], dtype=object)
    """
    if scheme not in SCHEMES:
        raise AccordError(f"scheme must be one of {', '.join(map(repr, SCHEMES))}; got {scheme!r}")
    if outside in data.labels:
        raise AccordError(f"outside: {outside!r} is also a span label; choose another outside value")
    coders = data.coders
    docs = _shared_documents(data)
    tok = tokenise(data, tokens, documents=docs)
    d_of = {d: i for i, d in enumerate(docs)}
    c_of = {c: i for i, c in enumerate(coders)}
    n_tok = np.array([len(tok[d]) for d in docs], dtype=np.int64)
    t_doc = np.repeat(np.arange(len(docs), dtype=np.int64), n_tok)
    flat = [t for d in docs for t in tok[d]]
    t_start = np.array([s for s, _ in flat], dtype=np.int64)
    t_end = np.array([e for _, e in flat], dtype=np.int64)
    units = np.array([f"{docs[k]}[{s}:{e}]" for k, (s, e) in zip(t_doc.tolist(), flat, strict=False)], dtype=object)
    # cells: every token of a document x every coder who saw it
    seen = sorted((d_of[d], c_of[c]) for d, c in data.seen if d in d_of)
    seen_doc = np.array([d for d, _ in seen], dtype=np.int64)
    seen_coder = np.array([c for _, c in seen], dtype=np.int64)
    first = np.concatenate([[0], np.cumsum(n_tok)[:-1]])
    reps = n_tok[seen_doc]
    cell_unit = np.repeat(first[seen_doc], reps) + (
        np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps)
    )
    cell_coder = np.repeat(seen_coder, reps)
    order = np.lexsort((cell_coder, cell_unit))
    cell_unit, cell_coder = cell_unit[order], cell_coder[order]
    # spans overlapping each token, per coder
    arr = span_arrays(data)
    n_c = max(len(coders), 1)
    used = np.array([d in d_of for d in data.documents], dtype=bool)
    remap = np.full(len(data.documents), -1, dtype=np.int64)
    remap[used] = np.arange(int(used.sum()))
    span_doc = remap[arr.document] if len(arr) else arr.document
    ti, sj = overlap_pairs(
        t_doc * n_c, t_start, t_end, span_doc * n_c, arr.start, arr.end
    ) if len(arr) else (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    frags = [s.fragments for s in data.spans]
    if arr.multi.any() and len(ti):
        keep = np.array(
            [not arr.multi[j] or any(a < t_end[i] and t_start[i] < b for a, b in frags[j])
             for i, j in zip(ti.tolist(), sj.tolist(), strict=False)], dtype=bool)
        ti, sj = ti[keep], sj[keep]
    if scheme == "bio":  # the first token of a span is B-label, the others I-label
        base_names = [f"{p}-{lab}" for lab in arr.labels for p in ("B", "I")]
        if outside in base_names:
            raise AccordError(f"outside: {outside!r} is also a BIO value; choose another outside value")
    else:
        base_names = list(arr.labels)
    n_lab = len(base_names)
    names: list[str] = [*base_names, outside]  # value code -> name; combinations appended
    codes = np.full(len(cell_unit), n_lab, dtype=np.int64)  # outside unless a span covers the token
    n_multi = 0
    if len(ti):
        key = ti * n_c + arr.coder[sj]
        cell_key = cell_unit * n_c + cell_coder
        pos = np.searchsorted(cell_key, key)
        ok = (pos < len(cell_key)) & (cell_key[np.minimum(pos, len(cell_key) - 1)] == key)
        lab = arr.label[sj]
        if scheme == "bio":
            order = np.lexsort((ti, sj))  # each span's tokens in order: its first one is B
            first_tok = np.zeros(len(ti), dtype=bool)
            first_tok[order[np.r_[True, sj[order][1:] != sj[order][:-1]]]] = True
            lab = 2 * lab + (~first_tok).astype(np.int64)
        pos, lab = pos[ok], lab[ok]
        width = max(n_lab, 1)
        pairs = np.unique(pos * width + lab)  # distinct (cell, value), sorted by cell
        p_cell, p_lab = pairs // width, pairs % width
        cells, first, n_labels = np.unique(p_cell, return_index=True, return_counts=True)
        label_names = np.array(base_names, dtype=object)
        single = n_labels == 1
        codes[cells[single]] = p_lab[first[single]]
        combo: dict[str, int] = {}
        for cell, f, k in zip(cells[~single].tolist(), first[~single].tolist(), n_labels[~single].tolist(),
                              strict=True):
            name = "+".join(sorted(label_names[p_lab[f:f + k]]))
            if name not in combo:
                combo[name] = len(names)
                names.append(name)
            codes[cell] = combo[name]
        n_multi = int((~single).sum())
    used_codes = np.unique(codes)  # the values that occur, sorted by name as Annotations keeps them
    by_name = sorted(range(len(used_codes)), key=lambda k: names[used_codes[k]])
    value_remap = np.zeros(len(names), dtype=np.int64)
    value_remap[used_codes[by_name]] = np.arange(len(used_codes))
    vcodes = value_remap[codes]
    distinct = np.array([names[used_codes[k]] for k in by_name], dtype=object)
    table = Annotations(
        unit_index=cell_unit,
        coder_index=cell_coder,
        value_index=vcodes,
        units=units,
        coders=np.array(coders, dtype=object),
        values=distinct,
        source=data.source,
    )
    return table, t_doc, n_multi


@dataclass(frozen=True)
class TokenAgreement(Coefficient):
    """Alpha and kappa over the tokens of span annotations.

    Attributes
    ----------
    tokenisation : str
        ``"whitespace"``, ``"export"``, ``"given"`` (a mapping) or ``"callable"``.
    outside : str
        The value of a token outside every span.
    scheme : str
        ``"label"`` or ``"bio"`` (see :func:`token_agreement`).
    n_documents, n_tokens : int
    n_multilabel_cells : int
        (token, coder) cells covered by spans with different labels (their
        value is the labels joined by ``"+"``).
    alpha : AlphaResult
        Nominal alpha over the token table.
    kappa : KappaResult or None
        Cohen's kappa for two coders, Fleiss' kappa for more when every token
        has the same number of coders; None otherwise (see ``kappa_undefined_reason``).
    """

    _coefficient_id: ClassVar[str] = "token_agreement"

    tokenisation: str
    outside: str
    scheme: str
    n_documents: int
    n_tokens: int
    n_multilabel_cells: int
    alpha: AlphaResult
    kappa: KappaResult | None
    kappa_undefined_reason: str | None = None
    _table: Annotations | None = field(default=None, repr=False, compare=False)
    _document_of_unit: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def value(self) -> float:
        """Token alpha (``alpha.alpha``)."""
        return self.alpha.alpha

    @property
    def table(self) -> Annotations:
        """The token x coder reliability data the coefficients were computed on."""
        assert self._table is not None
        return self._table

    def to_frame(self) -> pd.DataFrame:
        """One row per coefficient (alpha, and kappa when defined)."""
        rows = [{"coefficient": "alpha", "value": self.alpha.alpha,
                 "observed_disagreement": self.alpha.observed_disagreement,
                 "expected_disagreement": self.alpha.expected_disagreement}]
        if self.kappa is not None:
            rows.append({"coefficient": self.kappa.coefficient, "value": self.kappa.kappa,
                         "observed_disagreement": self.kappa.observed_disagreement,
                         "expected_disagreement": self.kappa.expected_disagreement})
        return pd.DataFrame(rows)

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        *,
        n_resamples: int = 1000,
        method: Literal["percentile", "basic", "BCa"] = "percentile",
        rng: np.random.Generator | int | None = None,
    ) -> tuple[float, float]:
        """Bootstrap interval for token alpha, resampling documents (tokens of one document stay together).

        Per-document observed sums, pairable-value counts and value marginals
        come from the pair engine once; a resample reweights them.
        """
        from accord.coefficients._pairs import count_values, unit_disagreement_sums
        from accord.distances import get_distance
        from accord.spans._bootstrap import document_bootstrap

        if self._table is None or self._document_of_unit is None:
            raise AccordError("this result carries no data to resample")
        if math.isnan(self.alpha.alpha):
            raise AccordError(f"token alpha is undefined ({self.alpha.undefined_reason}); no confidence interval")
        table = self._table
        uc = count_values(table)
        prepared = get_distance("nominal").prepare(table.values, uc.marginals())
        n_docs = self.n_documents
        doc_u = self._document_of_unit[uc.unit_ids]
        obs = np.bincount(doc_u, weights=unit_disagreement_sums(uc, prepared) / (uc.m - 1.0), minlength=n_docs)
        n_d = np.bincount(doc_u, weights=uc.m, minlength=n_docs)
        v = uc.n_values
        marg = np.bincount(doc_u[uc.unit] * v + uc.value, weights=uc.count, minlength=n_docs * v).reshape(n_docs, v)

        def statistic(w: np.ndarray) -> float:
            n = float(w @ n_d)
            if n < 2:
                return np.nan
            m = w @ marg
            d_e = prepared.cross_sum(m, m) / (n * (n - 1.0))
            return 1.0 - (float(w @ obs) / n) / d_e if d_e > 0 else np.nan

        return document_bootstrap(
            n_docs, statistic, what="token alpha", confidence_level=confidence_level,
            n_resamples=n_resamples, method=method, rng=rng,
        )


def token_agreement(
    data: SpanAnnotations, *, tokens: Tokens = "whitespace", outside: str = OUTSIDE, scheme: Scheme = "label"
) -> TokenAgreement:
    r"""Krippendorff's alpha and kappa over tokens, a token outside every span being its own value.

    Parameters
    ----------
    data : SpanAnnotations
        Spans of two or more coders.
    tokens : "whitespace", "export", mapping or callable
        The tokenisation (see :func:`tokenise`).
    outside : str
        The value of a token no span of the coder touches.
    scheme : {"label", "bio"}
        A covered token's value: the span's label, or ``B-label`` for the
        span's first token and ``I-label`` for the others (so that two
        adjacent spans differ from one long span).

    Returns
    -------
    TokenAgreement

    Notes
    -----
    With the token table of :func:`token_table` as reliability data (units =
    tokens, values = labels), alpha is :func:`accord.alpha` with the nominal
    distance, :math:`\alpha = 1 - D_o / D_e`, and kappa is Cohen's (two
    coders) or Fleiss' (more) on the same table.  A token counts as covered
    when a span shares at least one code point with it, so spans that cut a
    token still label it.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.
    Cohen, J. (1960). A coefficient of agreement for nominal scales.
    Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.

    Examples
    --------
    >>> from accord.spans import Span, SpanAnnotations
    >>> sa = SpanAnnotations.from_spans(
    ...     [Span("d", 0, 5, "PER", "a"), Span("d", 0, 5, "PER", "b"), Span("d", 10, 13, "PER", "b")],
    ...     texts={"d": "Alice met Bob and Eve"})
    >>> r = token_agreement(sa)
    >>> r.n_tokens, round(r.alpha.alpha, 4)
    (5, 0.5714)
    """
    if not isinstance(data, SpanAnnotations):
        raise AccordError(f"data must be accord.spans.SpanAnnotations; got {type(data).__name__}")
    if not isinstance(outside, str) or not outside:
        raise AccordError(f"outside must be a non-empty string; got {outside!r}")
    if len(data.coders) < 2:
        raise AccordError(f"{data.source or 'data'}: token agreement needs at least two coders; found "
                          f"{len(data.coders)}")
    table, doc_of_unit, n_multi = token_table(data, tokens=tokens, outside=outside, scheme=scheme)
    if table.n_entries == 0:
        raise AccordError(f"{data.source or 'data'}: no tokens to compare (the documents are empty)")
    a = _alpha(table)
    kappa: KappaResult | None = None
    reason = None
    try:
        kappa = cohen_kappa(table) if len(data.coders) == 2 else fleiss_kappa(table)
    except AccordError as exc:
        reason = str(exc)
    kind = tokens if isinstance(tokens, str) else "given" if isinstance(tokens, Mapping) else "callable"
    return TokenAgreement(
        tokenisation=kind,
        outside=outside,
        scheme=scheme,
        n_documents=len(_shared_documents(data)),
        n_tokens=table.n_units,
        n_multilabel_cells=n_multi,
        alpha=a,
        kappa=kappa,
        kappa_undefined_reason=reason,
        _table=table,
        _document_of_unit=doc_of_unit,
    )
