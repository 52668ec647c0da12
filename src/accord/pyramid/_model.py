"""The pyramid model: model summaries, SCUs with gappy contributors, tiers, peer annotations.

All offsets are 0-based, end-exclusive character offsets into one text: the
pyramid text (all model summaries, as DUCView stores them) or the peer text.
A contributor is one or more spans (gaps allowed) of one model summary; an SCU
is a labelled set of contributors; its weight is the number of distinct models
that contribute to it (Passonneau 2010, section 2.1).  A peer annotation is the
peer text and its peer SCU expressions (PSEs), each coindexed with an SCU id or
with 0 for content that matches no SCU (weight 0; section 2.3).

References
----------
Passonneau, R. J. (2010). Formal and functional assessment of the pyramid
method for summary content evaluation. *Natural Language Engineering* 16(2),
107-131. doi:10.1017/S1351324909990164
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

import numpy as np

from accord._shared.errors import AccordError, Message, plural
from accord._shared.results import Result

__all__ = [
    "DEFAULT_TOKEN_PATTERN",
    "MODEL_RULES",
    "PSE",
    "SCU",
    "Contributor",
    "Defect",
    "ModelSummary",
    "PeerAnnotation",
    "Pyramid",
    "Span",
    "Tokens",
    "ValidationReport",
    "check_pyramid",
    "merge_duplicate_contributors",
    "tokenize",
    "validate_pyramid",
]

#: Words: runs of letters/digits, keeping internal hyphens, apostrophes and dots
#: ("U.S", "don't", "self-governing"); punctuation is not a word (seed 000, Fig. 5
#: numbers the words of "Saudi Arabian officials, under" without the comma).
DEFAULT_TOKEN_PATTERN = r"\w+(?:[-'\u2019.]\w+)*"

#: How the model summaries of a pyramid text were found (``Pyramid.models_found_by``).
MODEL_RULES: dict[str, str] = {
    "given": "given explicitly (built in Python or read from JSON)",
    "start-regex": "the file's <startDocumentRegEx>",
    "start-regex-option": Message("the start regex given by the caller (start_regex=)",
                                  cli="the start regex given by the caller (--start-regex)"),
    "peer-start-regex": "the <startDocumentRegEx> of a peer annotation's embedded copy of the pyramid",
    "duc-headers": "DUC model header lines (a dashed line, a model id such as D0608.M.250.H.D, a dashed line)",
    "blank-lines": "blank lines (no start regex anywhere and no DUC model header lines)",
}

WeightBy = Literal["models", "contributors"]
Style = Literal["partition", "relaxed"]


class Span(NamedTuple):
    """A half-open character range ``[start, end)``."""

    start: int
    end: int

    def overlaps(self, other: Span) -> bool:
        """True when the two spans share at least one character."""
        return self.start < other.end and other.start < self.end


def _spans(spans: Iterable[Any], *, what: str) -> tuple[Span, ...]:
    out = []
    for s in spans:
        try:
            start, end = s
            out.append(Span(int(start), int(end)))
        except (TypeError, ValueError):
            raise AccordError(f"{what}: a span must be a (start, end) pair of integers, got {s!r}") from None
    if not out:
        raise AccordError(f"{what}: needs at least one span")
    return tuple(out)


@dataclass(frozen=True)
class Tokens:
    """Words of a text with their character offsets (``starts[i]``, ``ends[i]``)."""

    text: str
    starts: np.ndarray
    ends: np.ndarray

    def __len__(self) -> int:
        return int(self.starts.size)

    def words(self) -> list[str]:
        """The word strings."""
        return [self.text[s:e] for s, e in zip(self.starts.tolist(), self.ends.tolist(), strict=True)]

    def covered_by(self, span: Span) -> np.ndarray:
        """Indices of the words sharing at least one character with *span*."""
        lo = int(np.searchsorted(self.ends, span.start, side="right"))
        hi = int(np.searchsorted(self.starts, span.end, side="left"))
        return np.arange(lo, max(lo, hi))


def tokenize(text: str, *, pattern: str = DEFAULT_TOKEN_PATTERN) -> Tokens:
    """Split *text* into words with their character offsets.

    Parameters
    ----------
    text : str
        The text.
    pattern : str, keyword-only
        A regular expression matching one word.

    Examples
    --------
    >>> t = tokenize("Saudi Arabian officials, under U.S. pressure")
    >>> t.words()
    ['Saudi', 'Arabian', 'officials', 'under', 'U.S', 'pressure']
    >>> int(t.starts[3]), int(t.ends[3])
    (25, 30)
    """
    try:
        rx = re.compile(pattern)
    except re.error as exc:
        raise AccordError(f"pattern: not a valid regular expression ({exc}), got {pattern!r}") from None
    bounds = [m.span() for m in rx.finditer(text) if m.end() > m.start()]
    arr = np.asarray(bounds, dtype=np.int64).reshape(-1, 2)
    return Tokens(text=text, starts=arr[:, 0].copy(), ends=arr[:, 1].copy())


@dataclass(frozen=True)
class Defect(Result):
    """One problem found in a pyramid or peer annotation.

    ``kind`` is a stable key (see ``docs/pyramid.md``); ``severity`` is
    ``"error"`` (violates the guidelines or the file format), ``"warning"``
    (suspicious, scores may be affected) or ``"info"``; ``repaired`` tells
    whether the reader fixed it (for example a part shifted by one character
    whose label pins the span down).
    """

    kind: str
    message: str
    severity: Literal["error", "warning", "info"] = "error"
    file: str | None = None
    scu_id: int | None = None
    start: int | None = None
    end: int | None = None
    repaired: bool = False

    def __str__(self) -> str:
        where = [self.file or "<pyramid>"]
        if self.scu_id is not None:
            where.append(f"SCU {self.scu_id}")
        if self.start is not None:
            where.append(f"offsets {self.start}-{self.end}")
        fixed = " (repaired)" if self.repaired else ""
        return f"{', '.join(where)}: {self.kind}: {self.message}{fixed}"


@dataclass(frozen=True)
class ValidationReport(Result):
    """The defects found by :func:`check_pyramid` (and by the file readers)."""

    defects: tuple[Defect, ...]
    style: str = "partition"

    @property
    def ok(self) -> bool:
        """True when no unrepaired error remains."""
        return not self.errors

    @property
    def errors(self) -> tuple[Defect, ...]:
        """The unrepaired errors."""
        return tuple(d for d in self.defects if d.severity == "error" and not d.repaired)

    def to_frame(self) -> Any:
        """The defects as a pandas DataFrame, one row each."""
        import pandas as pd

        cols = ["kind", "severity", "file", "scu_id", "start", "end", "repaired", "message"]
        return pd.DataFrame([{c: getattr(d, c) for c in cols} for d in self.defects], columns=cols)


@dataclass(frozen=True)
class ModelSummary:
    """One model summary: its position ``[start, end)`` in the pyramid text."""

    index: int
    start: int
    end: int
    name: str = ""


@dataclass(frozen=True)
class Contributor:
    """A contributor: one or more spans (gaps allowed) of one model summary."""

    spans: tuple[Span, ...]
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "spans", _spans(self.spans, what="Contributor"))


@dataclass(frozen=True)
class SCU:
    """A summary content unit: id, label and contributors."""

    id: int
    label: str
    contributors: tuple[Contributor, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "id", int(self.id))
        object.__setattr__(self, "contributors", tuple(self.contributors))


@dataclass(frozen=True)
class Pyramid:
    """Model summaries and the SCUs annotated over them.

    Parameters
    ----------
    text : str
        All model summaries in one text (DUCView: the ``<line>``s joined by newlines).
    models : tuple of ModelSummary
        Where each model summary lies in *text*, in order.
    scus : tuple of SCU
        The SCUs; contributor spans are offsets into *text*.
    start_regex : str or None
        The regular expression that marks the start of each model (DUCView's
        ``startDocumentRegEx``), kept for writing the file back.
    name : str
        A name (the file, the docset).
    defects : tuple of Defect
        Problems found when the pyramid was read from a file.
    models_found_by : str
        Which rule found the models, a key of :data:`MODEL_RULES`: ``"given"``
        (the default), ``"start-regex"``, ``"start-regex-option"``,
        ``"peer-start-regex"``, ``"duc-headers"`` or ``"blank-lines"``.

    Examples
    --------
    >>> p = Pyramid.from_models(
    ...     ["Plaid Cymru wants full independence.", "Plaid Cymru wants an independent Wales."],
    ...     [{"id": 49, "label": "Plaid Cymru wants independence",
    ...       "contributors": [{"model": 0, "parts": ["Plaid Cymru wants full independence"]},
    ...                        {"model": 1, "parts": ["Plaid Cymru wants", "independent Wales"]}]}])
    >>> p.weights()
    {49: 2}
    >>> p.tiers()
    {2: 1, 1: 0}
    """

    text: str
    models: tuple[ModelSummary, ...]
    scus: tuple[SCU, ...]
    start_regex: str | None = None
    name: str = ""
    defects: tuple[Defect, ...] = field(default=(), compare=False)
    models_found_by: str = field(default="given", compare=False)

    def __post_init__(self) -> None:
        if self.models_found_by not in MODEL_RULES:
            raise AccordError(
                f"models_found_by: must be one of {sorted(MODEL_RULES)}, got {self.models_found_by!r}"
            )
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "scus", tuple(self.scus))
        if not self.models:
            raise AccordError(f"pyramid {self.name!r}: needs at least one model summary")
        ids = [s.id for s in self.scus]
        dup = [i for i, c in Counter(ids).items() if c > 1]
        if dup:
            raise AccordError(f"pyramid {self.name!r}: SCU id {dup[0]} is used by more than one SCU")
        if 0 in ids:
            raise AccordError(f"pyramid {self.name!r}: SCU id 0 is reserved for peer content matching no SCU")

    # ----------------------------------------------------------------- building
    @classmethod
    def from_models(
        cls,
        models: Sequence[str],
        scus: Iterable[Mapping[str, Any] | SCU],
        *,
        separator: str = "\n\n",
        name: str = "",
    ) -> Pyramid:
        """Build a pyramid from model texts and SCUs given per model.

        Parameters
        ----------
        models : sequence of str
            The model summaries; they are joined with *separator* into the pyramid text.
        scus : iterable of mapping
            Each ``{"id", "label", "contributors": [{"model": i, "parts": [...]}]}``;
            a part is a phrase (found in model *i*, searching left to right after the
            previous part) or a ``(start, end)`` pair of offsets local to model *i*.
            :class:`SCU` objects (global offsets) pass through.
        separator : str, keyword-only
            What goes between two model texts.
        name : str, keyword-only
            A name for the pyramid.
        """
        starts, pos = [], 0
        for m in models:
            starts.append(pos)
            pos += len(m) + len(separator)
        text = separator.join(models)
        summaries = tuple(
            ModelSummary(i, s, s + len(m), name=f"model {i + 1}")
            for i, (s, m) in enumerate(zip(starts, models, strict=True))
        )
        out = []
        for spec in scus:
            if isinstance(spec, SCU):
                out.append(spec)
                continue
            sid = spec.get("id")
            if sid is None:
                raise AccordError("scus: every SCU needs an 'id'")
            contribs = []
            for c in spec.get("contributors", ()):
                mi = c.get("model")
                if not isinstance(mi, (int, np.integer)) or not 0 <= mi < len(models):
                    raise AccordError(
                        f"scus: SCU {sid}: contributor 'model' must be an index 0..{len(models) - 1}, "
                        f"got {mi!r}"
                    )
                spans = _locate_parts(models[mi], c.get("parts", ()), what=f"SCU {sid}, model {mi}")
                off = starts[mi]
                contribs.append(
                    Contributor(tuple(Span(s + off, e + off) for s, e in spans), label=c.get("label", ""))
                )
            out.append(SCU(int(sid), spec.get("label", ""), tuple(contribs)))
        return cls(text=text, models=summaries, scus=tuple(out), name=name)

    # --------------------------------------------------------------- structure
    @property
    def n_models(self) -> int:
        """The number of model summaries (n in equation 2)."""
        return len(self.models)

    def scu(self, scu_id: int) -> SCU:
        """The SCU with this id."""
        for s in self.scus:
            if s.id == scu_id:
                return s
        raise AccordError(f"scu_id: no SCU {scu_id} in pyramid {self.name!r}")

    def model_of(self, offset: int) -> int:
        """Index of the model summary holding character *offset* (-1 if none)."""
        starts = np.fromiter((m.start for m in self.models), dtype=np.int64)
        i = int(np.searchsorted(starts, offset, side="right")) - 1
        if i < 0 or offset >= self.models[i].end:
            return -1
        return i

    def contributor_models(self, contributor: Contributor) -> list[int]:
        """The distinct models the spans of *contributor* fall in, in span order."""
        seen: list[int] = []
        for s in contributor.spans:
            m = self.model_of(s.start)
            if m not in seen:
                seen.append(m)
        return seen

    def contributor_model(self, contributor: Contributor) -> int:
        """The model a contributor belongs to: that of its first span."""
        return self.contributor_models(contributor)[0]

    def weights(self, *, by: WeightBy = "models") -> dict[int, int]:
        """SCU weights: distinct contributing models (the paper) or contributors (DUCView).

        Parameters
        ----------
        by : {"models", "contributors"}, keyword-only
            ``"models"``: the number of distinct model summaries contributing
            (Passonneau 2010, section 2.1: repetitions in one model count once);
            ``"contributors"``: the number of contributors, as DUCView counts.
        """
        if by == "contributors":
            return {s.id: len(s.contributors) for s in self.scus}
        if by != "models":
            raise AccordError(f"by: must be 'models' or 'contributors', got {by!r}")
        return {s.id: len({self.contributor_model(c) for c in s.contributors}) for s in self.scus}

    def tiers(self, *, by: WeightBy = "models") -> dict[int, int]:
        """Tier sizes |T_i| for i = n ... 1 (n = the number of models, or the top weight if larger)."""
        w = self.weights(by=by)
        top = max([self.n_models, *w.values()])
        counts = Counter(w.values())
        return {i: counts.get(i, 0) for i in range(top, 0, -1)}

    def tokens(self, *, pattern: str = DEFAULT_TOKEN_PATTERN) -> Tokens:
        """The words of the pyramid text."""
        return tokenize(self.text, pattern=pattern)

    def model_text(self, index: int) -> str:
        """The text of model summary *index*."""
        m = self.models[index]
        return self.text[m.start : m.end]

    def check(self, *, style: Style = "partition") -> ValidationReport:
        """Shortcut for :func:`check_pyramid`."""
        return check_pyramid(self, style=style)


def _locate_parts(text: str, parts: Iterable[Any], *, what: str) -> list[tuple[int, int]]:
    out, pos = [], 0
    for p in parts:
        if isinstance(p, str):
            i = text.find(p, pos)
            if i < 0:
                i = text.find(p)
            if i < 0:
                raise AccordError(f"{what}: part {p!r} does not occur in the model text")
            out.append((i, i + len(p)))
            pos = i + len(p)
        else:
            try:
                s, e = (int(x) for x in p)
            except (TypeError, ValueError):
                raise AccordError(f"{what}: a part is a phrase or a (start, end) pair, got {p!r}") from None
            out.append((s, e))
    if not out:
        raise AccordError(f"{what}: a contributor needs at least one part")
    return out


@dataclass(frozen=True)
class PSE:
    """A peer SCU expression: spans of the peer text coindexed with an SCU (0: no SCU, weight 0)."""

    scu_id: int
    spans: tuple[Span, ...]
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "scu_id", int(self.scu_id))
        object.__setattr__(self, "spans", _spans(self.spans, what=f"PSE for SCU {self.scu_id}"))


@dataclass(frozen=True)
class PeerAnnotation:
    """A peer summary annotated against a pyramid.

    Examples
    --------
    >>> peer = PeerAnnotation.from_phrases(
    ...     "Libyan suspects in the Pan Am bombing. Sanctions were imposed.",
    ...     [(3, "Libyan suspects"), (17, "in the Pan Am"), (1, "bombing"), (0, "Sanctions were imposed")])
    >>> peer.n_pses, sorted(peer.scu_ids())
    (4, [1, 3, 17])
    """

    text: str
    pses: tuple[PSE, ...]
    pyramid: Pyramid | None = field(default=None, compare=False, repr=False)
    name: str = ""
    defects: tuple[Defect, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pses", tuple(self.pses))

    @classmethod
    def from_phrases(
        cls,
        text: str,
        pses: Iterable[tuple[int, str | Sequence[str]]],
        *,
        pyramid: Pyramid | None = None,
        name: str = "",
    ) -> PeerAnnotation:
        """Build from ``(scu_id, phrase)`` pairs; phrases are found left to right in *text*.

        A phrase may be a list of phrases for a PSE with gaps.
        """
        out, pos = [], 0
        for sid, phrase in pses:
            parts = [phrase] if isinstance(phrase, str) else list(phrase)
            spans = []
            for p in parts:
                i = text.find(p, pos)
                if i < 0:
                    i = text.find(p)
                if i < 0:
                    raise AccordError(f"pses: phrase {p!r} (SCU {sid}) does not occur in the peer text")
                spans.append((i, i + len(p)))
                pos = i + len(p)
            out.append(PSE(int(sid), tuple(spans), label=" ... ".join(parts)))
        return cls(text=text, pses=tuple(out), pyramid=pyramid, name=name)

    @property
    def n_pses(self) -> int:
        """X of equation (1): the number of PSEs, zero-weight ones included."""
        return len(self.pses)

    def scu_ids(self) -> set[int]:
        """The distinct SCUs expressed (uid 0 excluded)."""
        return {p.scu_id for p in self.pses if p.scu_id != 0}

    def counts(self) -> dict[int, int]:
        """How many PSEs the peer has for each SCU (uid 0 excluded)."""
        return dict(Counter(p.scu_id for p in self.pses if p.scu_id != 0))


# ------------------------------------------------------------------ validation
def check_pyramid(pyramid: Pyramid, *, style: Style = "partition") -> ValidationReport:
    """Check a pyramid against the guidelines of Passonneau (2010), section 2.1.

    Reported (never raised): spans outside the text or with ``end <= start``;
    contributors whose spans fall in two models; SCUs with no contributor; more
    than one contributor from one model in an SCU (guideline 2: an error naming
    both); and, in the original ``"partition"`` style, contributors that overlap
    (SCUs partition the words; the relaxed DUC 2005 style allows a word in
    several contributors and SCUs).  Defects found when reading a file are
    included.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid.
    style : {"partition", "relaxed"}, keyword-only
        The annotation style to check against.

    Examples
    --------
    >>> p = Pyramid.from_models(["a b c", "a b d"], [
    ...     {"id": 1, "label": "x", "contributors": [{"model": 0, "parts": ["a b"]},
    ...                                               {"model": 0, "parts": ["c"]}]},
    ...     {"id": 2, "label": "y", "contributors": [{"model": 1, "parts": ["a b"]}]},
    ...     {"id": 3, "label": "z", "contributors": [{"model": 1, "parts": ["b d"]}]}])
    >>> [d.kind for d in check_pyramid(p).defects]
    ['duplicate-model-contributor', 'overlapping-contributors']
    >>> [d.kind for d in check_pyramid(p, style="relaxed").defects]
    ['duplicate-model-contributor']
    """
    if style not in ("partition", "relaxed"):
        raise AccordError(f"style: must be 'partition' or 'relaxed', got {style!r}")
    f = pyramid.name or None
    out: list[Defect] = list(pyramid.defects)
    n = len(pyramid.text)
    placed: list[tuple[Span, int, int]] = []  # span, scu id, contributor index
    for scu in pyramid.scus:
        if not scu.contributors:
            out.append(Defect("scu-without-contributors", "the SCU has no contributor", file=f,
                              scu_id=scu.id))
        by_model: dict[int, list[Contributor]] = defaultdict(list)
        for ci, c in enumerate(scu.contributors):
            bad = False
            for s in c.spans:
                if s.end <= s.start or s.start < 0 or s.end > n:
                    bad = True
                    out.append(
                        Defect(
                            "span-out-of-range",
                            f"span must satisfy 0 <= start < end <= {n} (the text length)",
                            file=f, scu_id=scu.id, start=s.start, end=s.end,
                        )
                    )
            if bad:
                continue
            ms = pyramid.contributor_models(c)
            if len(ms) > 1:
                out.append(
                    Defect(
                        "contributor-spans-models",
                        f"contributor {c.label!r} has parts in models {[m + 1 for m in ms]}",
                        file=f, scu_id=scu.id, start=c.spans[0].start, end=c.spans[-1].end,
                    )
                )
            by_model[ms[0]].append(c)
            placed.extend((s, scu.id, ci) for s in c.spans)
        for m, cs in by_model.items():
            if len(cs) > 1:
                desc = "; ".join(f"{c.label!r} at {c.spans[0].start}-{c.spans[-1].end}" for c in cs)
                out.append(
                    Defect(
                        "duplicate-model-contributor",
                        Message(f"{plural(len(cs), 'contributor')} from model {m + 1}: {desc} (guideline 2 allows "
                                "one; merge them with merge_duplicate_contributors)",
                                cli=f"{plural(len(cs), 'contributor')} from model {m + 1}: {desc} (guideline 2 "
                                    "allows one; merge them in DUCView)"),
                        file=f, scu_id=scu.id, start=cs[1].spans[0].start, end=cs[1].spans[-1].end,
                    )
                )
    if style == "partition" and placed:
        placed.sort(key=lambda t: (t[0].start, t[0].end))
        reach_end, reach_owner = -1, None
        for span, sid, ci in placed:
            if reach_owner is not None and span.start < reach_end and reach_owner != (sid, ci):
                out.append(
                    Defect(
                        "overlapping-contributors",
                        Message(f"overlaps a contributor of SCU {reach_owner[0]} (the partition style puts every "
                                "word in at most one contributor; use style='relaxed' for DUC 2005 style)",
                                cli=f"overlaps a contributor of SCU {reach_owner[0]} (the partition style puts "
                                    "every word in at most one contributor; use --style relaxed for DUC 2005 style)"),
                        file=f, scu_id=sid, start=span.start, end=span.end,
                    )
                )
            if span.end > reach_end:
                reach_end, reach_owner = span.end, (sid, ci)
    # the reader's own check found the structural defects again: each is reported once
    return ValidationReport(defects=tuple(dict.fromkeys(out)), style=style)


def merge_duplicate_contributors(pyramid: Pyramid) -> Pyramid:
    """Merge the contributors one model gives to one SCU into a single contributor.

    Examples
    --------
    >>> p = Pyramid.from_models(["a b c"], [{"id": 1, "label": "x", "contributors": [
    ...     {"model": 0, "parts": ["a"]}, {"model": 0, "parts": ["c"]}]}])
    >>> merge_duplicate_contributors(p).scus[0].contributors[0].spans
    (Span(start=0, end=1), Span(start=4, end=5))
    """
    scus = []
    for scu in pyramid.scus:
        groups: dict[int, list[Contributor]] = {}
        for c in scu.contributors:
            groups.setdefault(pyramid.contributor_model(c), []).append(c)
        contribs = []
        for cs in groups.values():
            if len(cs) == 1:
                contribs.append(cs[0])
            else:
                spans = tuple(sorted({s for c in cs for s in c.spans}))
                contribs.append(Contributor(spans, label=" ... ".join(c.label for c in cs if c.label)))
        scus.append(replace(scu, contributors=tuple(contribs)))
    return replace(pyramid, scus=tuple(scus))


def validate_pyramid(
    pyramid: Pyramid,
    *,
    style: Style = "partition",
    duplicates: Literal["error", "merge"] = "error",
) -> Pyramid:
    """Raise :class:`~accord.AccordError` on any unrepaired guideline error, else return the pyramid.

    Parameters
    ----------
    pyramid : Pyramid
        The pyramid.
    style : {"partition", "relaxed"}, keyword-only
        See :func:`check_pyramid`.
    duplicates : {"error", "merge"}, keyword-only
        A second contributor from one model in one SCU is an error (the default)
        or is merged into the first (:func:`merge_duplicate_contributors`).
    """
    if duplicates not in ("error", "merge"):
        raise AccordError(f"duplicates: must be 'error' or 'merge', got {duplicates!r}")
    if duplicates == "merge":
        pyramid = merge_duplicate_contributors(pyramid)
    report = check_pyramid(pyramid, style=style)
    if report.errors:
        first = report.errors[0]
        more = f" (and {len(report.errors) - 1} more)" if len(report.errors) > 1 else ""
        raise AccordError(f"{first}{more}")
    return pyramid
