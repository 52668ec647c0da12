"""Agreement on pyramids (words as units, SCU word sets as values) and on peer annotations.

Pyramid agreement (Passonneau 2006, section 3.3; Passonneau 2010, section
4.1.4): every word of the model summaries is a coding unit; an annotator's
value for word w is the set of words in the SCU w belongs to, less w itself
(otherwise two annotators' sets always intersect).  Words in no SCU get the
empty set.  Alpha is reported with several distances side by side (seed 000
Table 2: nominal, Jaccard, MASI).

Peer annotation agreement (Passonneau 2010, section 4.1.3, Figure 4): the SCUs
are the units; an annotator's value is the multiset of PSEs found for the SCU
(an SCU found twice is {y1, y2}, not found is the empty set), compared with
Dice; "Binary" compares the same values nominally and "Binary'" reduces them to
found / not found.

The alpha and the distances are those of :mod:`accord.alpha` and
:mod:`accord.distances`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp

from accord._shared.errors import AccordError, plural
from accord._shared.results import Result
from accord.pyramid._model import DEFAULT_TOKEN_PATTERN, PeerAnnotation, Pyramid, Span, Tokens, tokenize

__all__ = [
    "PeerAgreement",
    "PyramidAgreement",
    "align_tokens",
    "peer_agreement",
    "peer_reliability_data",
    "pyramid_agreement",
    "pyramid_reliability_data",
    "unit_values",
]


def _membership(pyramid: Pyramid, units: Tokens | Sequence[Span]) -> sp.csr_matrix:
    """Sparse units x SCUs incidence: unit u overlaps a contributor span of SCU s."""
    if isinstance(units, Tokens):
        tok = units
    else:
        arr = np.asarray([tuple(u) for u in units], dtype=np.int64).reshape(-1, 2)
        order = np.argsort(arr[:, 0], kind="stable")
        if np.any(order != np.arange(order.size)) or np.any(arr[1:, 0] < arr[:-1, 1]):
            raise AccordError("units: spans must be sorted and must not overlap")
        tok = Tokens(pyramid.text, arr[:, 0].copy(), arr[:, 1].copy())
    rows, cols = [], []
    for j, scu in enumerate(pyramid.scus):
        for c in scu.contributors:
            for s in c.spans:
                idx = tok.covered_by(s)
                rows.append(idx)
                cols.append(np.full(idx.size, j))
    r = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    c = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    m = sp.csr_matrix((np.ones(r.size, dtype=np.int8), (r, c)), shape=(len(tok), len(pyramid.scus)))
    m.data[:] = 1  # duplicates summed to >1; membership is boolean
    return m


def unit_values(
    pyramid: Pyramid,
    units: Tokens | Sequence[Span] | None = None,
    *,
    less_unit: bool = True,
    pattern: str = DEFAULT_TOKEN_PATTERN,
) -> list[frozenset[int]]:
    """Each unit's value: the set of units (by index) in the SCU(s) it belongs to.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid.
    units : Tokens or sequence of Span, optional
        The coding units: the pyramid's words (default) or given spans (seed 000
        Figure 4 uses contributor spans).
    less_unit : bool, keyword-only
        Leave the unit itself out of its value (seed 000 section 3.3).
    pattern : str, keyword-only
        Word pattern when *units* is None.

    Notes
    -----
    A unit in several SCUs (the relaxed DUC 2005 style) gets the union of their
    units.  A unit in no SCU is a singleton class: its value is the empty set
    (``less_unit``) or itself.

    Examples
    --------
    Seed 000, Figure 1 / Figure 4, spans 1-7 as units: annotator A1's classes.

    >>> from accord.pyramid import SCU, Contributor, ModelSummary
    >>> text = "s1 s2 s3 s4 s5 s6 s7"
    >>> spans = [Span(3 * i, 3 * i + 2) for i in range(7)]
    >>> a1 = Pyramid(text, (ModelSummary(0, 0, len(text)),), (
    ...     SCU(1, "", tuple(Contributor((spans[i],)) for i in (0, 1, 2, 3))),
    ...     SCU(2, "", tuple(Contributor((spans[i],)) for i in (4, 6))),
    ...     SCU(3, "", (Contributor((spans[5],)),))))
    >>> [sorted(i + 1 for i in v) for v in unit_values(a1, spans, less_unit=False)]
    [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4], [5, 7], [6], [5, 7]]
    """
    tok = tokenize(pyramid.text, pattern=pattern) if units is None else units
    m = _membership(pyramid, tok)
    co = (m @ m.T).tocsr()
    n = m.shape[0]
    out = []
    for u in range(n):
        members = co.indices[co.indptr[u] : co.indptr[u + 1]]
        s = frozenset(members.tolist()) if members.size else frozenset({u})
        out.append(s - {u} if less_unit else s)
    return out


def align_tokens(a: Tokens, b: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """Align two tokenisations of (nearly) the same text on the word strings.

    Returns index arrays ``ia, ib`` of equal length: word ``ia[k]`` of *a* is word
    ``ib[k]`` of *b*.  Identical word sequences align one to one; otherwise the
    longest matching blocks (:class:`difflib.SequenceMatcher`) are used and
    unmatched words are left out.

    Examples
    --------
    >>> ia, ib = align_tokens(tokenize("the U.S. asked"), tokenize("header\\nthe U.S. asked"))
    >>> ia.tolist(), ib.tolist()
    ([0, 1, 2], [1, 2, 3])
    """
    wa, wb = a.words(), b.words()
    if wa == wb:
        idx = np.arange(len(wa))
        return idx, idx.copy()
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    ia, ib = [], []
    for blk in sm.get_matching_blocks():
        ia.extend(range(blk.a, blk.a + blk.size))
        ib.extend(range(blk.b, blk.b + blk.size))
    return np.asarray(ia, dtype=np.int64), np.asarray(ib, dtype=np.int64)


@dataclass(frozen=True)
class PyramidAgreement(Result):
    """Alpha between two pyramids of the same models, one result per distance.

    ``results`` maps a distance name to the :class:`~accord.AlphaResult`;
    ``n_units`` is the number of aligned words (or given spans);
    ``n_unaligned`` the words of each pyramid left out by the alignment.
    """

    alphas: dict[str, float]
    results: dict[str, Any]
    n_units: int
    n_unaligned: tuple[int, int]
    units: str
    _data: Any = None

    def to_frame(self) -> Any:
        """One row per distance: alpha, observed and expected disagreement."""
        import pandas as pd

        return pd.DataFrame([
            {"distance": k, "alpha": r.alpha, "observed_disagreement": r.observed_disagreement,
             "expected_disagreement": r.expected_disagreement}
            for k, r in self.results.items()
        ])


def pyramid_reliability_data(
    a: Pyramid,
    b: Pyramid,
    *more: Pyramid,
    units: Literal["words"] | Sequence[Span] = "words",
    less_unit: bool = True,
    pattern: str = DEFAULT_TOKEN_PATTERN,
    coders: Sequence[str] | None = None,
) -> tuple[Any, int, tuple[int, ...]]:
    """Reliability data for pyramid agreement: (Annotations, n_units, unaligned words per pyramid).

    Units are the words of the first pyramid that every other pyramid's words
    align with (:func:`align_tokens`), or the given spans (all pyramids must then
    share one text).  Values are frozensets of unit indices (first pyramid's
    numbering) from :func:`unit_values`.
    """
    from accord.data._annotations import Annotations

    pyrs = (a, b, *more)
    names = list(coders) if coders is not None else [p.name or f"A{i + 1}" for i, p in enumerate(pyrs)]
    if len(names) != len(pyrs) or len(set(names)) != len(names):
        raise AccordError(f"coders: need {len(pyrs)} distinct names, got {names!r}")
    if isinstance(units, str):
        if units != "words":
            raise AccordError(f"units: must be 'words' or a sequence of spans, got {units!r}")
        toks = [tokenize(p.text, pattern=pattern) for p in pyrs]
        # Map every pyramid's words onto the first one's; keep words aligned in all.
        maps = []
        keep = np.ones(len(toks[0]), dtype=bool)
        for t in toks[1:]:
            ia, ib = align_tokens(toks[0], t)
            mp = np.full(len(toks[0]), -1, dtype=np.int64)
            mp[ia] = ib
            maps.append(mp)
            keep &= mp >= 0
        kept = np.flatnonzero(keep)
        unaligned = [int(len(toks[0]) - kept.size)] + [int(len(t) - kept.size) for t in toks[1:]]
        per_pyr_units = [kept] + [mp[kept] for mp in maps]
        values = [unit_values(p, t, less_unit=less_unit) for p, t in zip(pyrs, toks, strict=True)]
    else:
        span_list = [Span(int(s), int(e)) for s, e in units]
        texts = {p.text for p in pyrs}
        if len(texts) > 1:
            raise AccordError("units: explicit spans need pyramids over one identical text")
        kept = np.arange(len(span_list))
        per_pyr_units = [kept for _ in pyrs]
        values = [unit_values(p, span_list, less_unit=less_unit) for p in pyrs]
        unaligned = [0 for _ in pyrs]
    records = []
    for name, vals, idx in zip(names, values, per_pyr_units, strict=True):
        # Translate this pyramid's unit indices into the common numbering (position in `kept`).
        back = np.full(max(len(vals), 1), -1, dtype=np.int64)
        back[idx] = np.arange(idx.size)
        for k, u in enumerate(idx.tolist()):
            v = frozenset(int(back[x]) for x in vals[u] if back[x] >= 0)
            records.append((k, name, v))
    data = Annotations.from_records(records)
    return data, int(kept.size), tuple(unaligned)


def pyramid_agreement(
    a: Pyramid,
    b: Pyramid,
    *more: Pyramid,
    distances: Sequence[str] = ("nominal", "jaccard", "masi-2006", "masi-2010"),
    units: Literal["words"] | Sequence[Span] = "words",
    less_unit: bool = True,
    pattern: str = DEFAULT_TOKEN_PATTERN,
) -> PyramidAgreement:
    """Krippendorff's alpha between pyramids of the same model summaries.

    Parameters
    ----------
    a, b, *more : Pyramid
        Pyramids by different annotators over the same models (they may be
        tokenised or laid out differently: words are aligned on the text).
    distances : sequence of str, keyword-only
        Distances for alpha, reported side by side (seed 000 Table 2 uses
        nominal, Jaccard and MASI = J x M, i.e. ``"masi-2006"``; seed 002 writes
        MASI as (1 - J) x M, ``"masi-2010"``).
    units : "words" or sequence of Span, keyword-only
        The coding units.
    less_unit : bool, keyword-only
        Remove the unit from its own value (the papers' convention).
    pattern : str, keyword-only
        Word pattern.

    References
    ----------
    Passonneau (2006), section 3.3 and Tables 1-2; Passonneau (2010), section 4.1.4.
    """
    from accord.coefficients._alpha import alpha

    data, n, unaligned = pyramid_reliability_data(a, b, *more, units=units, less_unit=less_unit,
                                                  pattern=pattern)
    if not distances:
        raise AccordError("distances: give at least one distance")
    results = {str(d): alpha(data, distance=d) for d in distances}
    return PyramidAgreement(
        alphas={k: r.alpha for k, r in results.items()}, results=results, n_units=n,
        n_unaligned=tuple(unaligned), units="words" if isinstance(units, str) else "spans", _data=data,
    )


# ------------------------------------------------------------- peer annotation
def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def peer_reliability_data(
    peers: Sequence[PeerAnnotation],
    *,
    representation: Literal["multiset", "binary"] = "multiset",
    units: Literal["found", "all"] = "found",
    coders: Sequence[str] | None = None,
    check_text: bool = True,
) -> Any:
    """Reliability data for peer annotation agreement: SCUs x annotators.

    Parameters
    ----------
    peers : sequence of PeerAnnotation
        Two or more annotations of the same peer summary.
    representation : {"multiset", "binary"}, keyword-only
        ``"multiset"``: the PSEs found for the SCU as a multiset, {y1, y2} for
        two (:func:`accord.distances.multiset_value`), the empty set for none;
        ``"binary"``: found (True) or not (False), seed 002's reduced form.
    units : {"found", "all"}, keyword-only
        The SCUs found by at least one annotator (seed 002 Figure 4) or all the
        pyramid's SCUs (needs ``peer.pyramid``).
    coders : sequence of str, optional
        Annotator names (default: the peers' names, else A1, A2, ...).
    check_text : bool, keyword-only
        Refuse annotations of different texts (whitespace ignored).

    Examples
    --------
    >>> a1 = PeerAnnotation.from_phrases("x y z", [(1, "x"), (1, "y"), (2, "z")])
    >>> a2 = PeerAnnotation.from_phrases("x y z", [(1, "x y"), (0, "z")])
    >>> d = peer_reliability_data([a1, a2], representation="binary")
    >>> d.n_units
    2
    """
    from accord.data._annotations import Annotations
    from accord.distances import multiset_value

    if len(peers) < 2:
        raise AccordError(f"peers: need at least 2 annotations, got {len(peers)}")
    if representation not in ("multiset", "binary"):
        raise AccordError(f"representation: must be 'multiset' or 'binary', got {representation!r}")
    if units not in ("found", "all"):
        raise AccordError(f"units: must be 'found' or 'all', got {units!r}")
    names = list(coders) if coders is not None else [p.name or f"A{i + 1}" for i, p in enumerate(peers)]
    if len(set(names)) != len(names):
        names = [f"A{i + 1}" for i in range(len(peers))]
    if len(names) != len(peers):
        raise AccordError(f"coders: need {plural(len(peers), 'name')}, got {len(names)}")
    if check_text:
        base = _norm(peers[0].text)
        for nm, p in zip(names[1:], peers[1:], strict=True):
            if _norm(p.text) != base:
                raise AccordError(f"peers: annotator {nm!r} annotated a different text than {names[0]!r}")
    counts = [p.counts() for p in peers]
    if units == "found":
        ids = sorted(set().union(*[c.keys() for c in counts]))
    else:
        pyr = peers[0].pyramid
        if pyr is None:
            raise AccordError("units: 'all' needs the pyramid (peers[0].pyramid is None)")
        ids = [s.id for s in pyr.scus]
    records = []
    for nm, c in zip(names, counts, strict=True):
        for sid in ids:
            k = c.get(sid, 0)
            v: Any = multiset_value({"y": k}) if representation == "multiset" else k > 0
            records.append((sid, nm, v))
    return Annotations.from_records(records)


@dataclass(frozen=True)
class PeerAgreement(Result):
    """Seed 002 Figure 4: alpha with Dice on PSE multisets, Binary, and Binary'."""

    alpha_dice: float
    alpha_binary: float
    alpha_binary_prime: float
    n_units: int
    n_coders: int
    dice: Any
    binary: Any
    binary_prime: Any

    def to_frame(self) -> Any:
        """One row per representation/distance."""
        import pandas as pd

        rows = [("dice", self.dice), ("binary", self.binary), ("binary'", self.binary_prime)]
        return pd.DataFrame([
            {"measure": k, "alpha": r.alpha, "observed_disagreement": r.observed_disagreement,
             "expected_disagreement": r.expected_disagreement}
            for k, r in rows
        ])


def peer_agreement(
    peers: Sequence[PeerAnnotation],
    *,
    units: Literal["found", "all"] = "found",
    coders: Sequence[str] | None = None,
    check_text: bool = True,
) -> PeerAgreement:
    """Agreement between annotators of one peer summary (Passonneau 2010, Figure 4).

    ``alpha_dice``: alpha with Dice distance on the PSE multisets ({y1, y2} for
    an SCU found twice); ``alpha_binary``: the same values compared nominally;
    ``alpha_binary_prime``: found / not found, nominal.

    References
    ----------
    Passonneau (2010), section 4.1.3 and Figure 4 (alpha_Dice 0.15,
    alpha_Binary 0.34, alpha_Binary' -0.07).
    """
    from accord.coefficients._alpha import alpha

    kw = dict(units=units, coders=coders, check_text=check_text)
    multi = peer_reliability_data(peers, representation="multiset", **kw)  # type: ignore[arg-type]
    flags = peer_reliability_data(peers, representation="binary", **kw)  # type: ignore[arg-type]
    dice = alpha(multi, distance="dice")
    binary = alpha(multi, distance="nominal")
    binary_prime = alpha(flags, distance="nominal")
    return PeerAgreement(
        alpha_dice=dice.alpha, alpha_binary=binary.alpha, alpha_binary_prime=binary_prime.alpha,
        n_units=multi.n_units, n_coders=len(peers), dice=dice, binary=binary, binary_prime=binary_prime,
    )
