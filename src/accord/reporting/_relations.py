"""The relation report: alpha over the candidate argument pairs and F1 per coder pair (with and without the
type), the unmatched relations with their reasons, and every candidate pair with each coder's value."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

from accord._shared.errors import AccordError, AccordWarning, plural
from accord.reporting._agreement import MAX_ROWS
from accord.reporting._page import DataTable, Fact, HeadlineNumber, Report, Section
from accord.reporting._words import seed_words, threshold_words

__all__ = ["accepts", "load_relations", "relations_report"]

_UNKNOWN = object()  # the seed of a result measured elsewhere


def accepts(obj: Any) -> bool:
    """Whether *obj* is relations (:class:`accord.relations.RelationAnnotations`) or their agreement."""
    from accord.data._relations import RelationAnnotations
    from accord.relations._results import RelationAgreement

    return isinstance(obj, RelationAnnotations | RelationAgreement)


def load_relations(inputs: list[Any], **o: Any) -> tuple[Any, dict[str, Any]]:
    """Read the relations of the exports (``tool``, ``field``, ``texts``) as ``accord relations`` does; the report
    options."""
    from accord.relations._read import read_relations

    data, _ = read_relations(inputs, tool=o.get("tool"), field=o.get("field"),
                             **({"texts": o["texts"]} if o.get("texts") is not None else {}))
    return data, {"match": o.get("match", "exact")}


def _interval(res: Any, seed: Any) -> tuple[tuple[float, float] | None, str]:
    """Alpha's interval on the page and how it was drawn, or why there is none."""
    if res.undefined_reason:
        return None, "no interval: alpha is undefined"
    if not res.bootstrap:
        return None, "no interval: the bootstrap was turned off for this page"
    if res.interval_undefined_reason:
        return None, f"no interval: {res.interval_undefined_reason}"
    how = "" if seed is _UNKNOWN else f", {seed_words(seed)}"
    return ((res.alpha_ci_low, res.alpha_ci_high),
            f"{res.confidence * 100:g}% bootstrap interval over documents, {res.bootstrap:,} resamples{how}")


def relations_report(obj: Any, *, title: str | None = None, match: str = "exact", argument_labels: bool = True,
                     ignore_type: bool = False, unmarked: str = "missing", undirected: Any = (),
                     max_rows: int = MAX_ROWS, bootstrap: int = 0, seed: Any = None, confidence: float = 0.95,
                     progress: Any = None) -> Report:
    """The report of :class:`accord.relations.RelationAnnotations` (measured with the options) or of a
    :class:`accord.relations.RelationAgreement`. Alpha's interval resamples documents (*bootstrap* resamples,
    *seed*, *confidence*; a RelationAgreement shows the interval it holds); *progress* is not shown."""
    from accord.relations._agreement import agreement
    from accord.relations._results import REASONS, RelationAgreement

    if not accepts(obj):
        raise AccordError(f"data must be accord.relations.RelationAnnotations or RelationAgreement; got "
                          f"{type(obj).__name__}")
    if not isinstance(max_rows, int) or isinstance(max_rows, bool) or max_rows < 1:
        raise AccordError(f"max_rows must be a whole number >= 1; got {max_rows!r}")
    notes: list[str] = []
    if isinstance(obj, RelationAgreement):
        res = obj
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AccordWarning)
            res = agreement(obj, match=match, argument_labels=argument_labels, ignore_type=ignore_type,
                            unmarked=unmarked, undirected=undirected, bootstrap=bootstrap, confidence=confidence,
                            rng=seed)
        notes += list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AccordWarning)))
    interval, note = _interval(res, _UNKNOWN if isinstance(obj, RelationAgreement) else seed)
    words, level = threshold_words(res.alpha, interval)
    values = "whether and which way the pair is related" if res.ignore_type else "the type given"
    headline = (
        HeadlineNumber(key="alpha", label="alpha over the candidate argument pairs", value=res.alpha,
                       interval=interval, interval_note=note,
                       words=words if not res.undefined_reason else res.undefined_reason,
                       level=level if not res.undefined_reason else "neutral"),
        HeadlineNumber(key="f1", label="relation F1 with the type", value=res.f1,
                       words=f"the mean over {plural(len(res.pairs), 'pair')} of coders"),
        HeadlineNumber(key="f1_untyped", label="relation F1 without the type", value=res.f1_untyped,
                       words="the same arguments linked, whatever the type and direction"),
    )
    how = {"exact": "the same offsets", "overlap": "spans sharing a character, one to one",
           "gamma": "gamma's best alignment"}[res.match]
    pair_rows = []
    for p in res.pairs:
        for s in (p.typed, p.untyped, *p.types):
            pair_rows.append((p.coder_a, p.coder_b, s.label, s.true_positives, s.n_a, s.n_b, s.precision, s.recall,
                              s.f1))
    f1_section = Section(
        id="relations", title="Relations: F1 per pair of coders",
        paragraphs=(f"Arguments aligned by {how}" + ("" if res.argument_labels else ", whatever their labels")
                    + ". A relation matches when both its arguments are aligned, its type is the same and, unless "
                    "the type is undirected, it goes the same way; without the type, when the same two arguments "
                    "are linked.",),
        facts=(Fact("relations", res.n_relations), Fact("documents seen by two coders or more", res.n_documents),
               Fact("repeated relations counted once", res.n_merged)),
        tables=(DataTable(name="relation_f1", title="F1 of each pair of coders, with and without the type, and "
                          "per type", columns=("coder A", "coder B", "relations", "matched", "of A", "of B",
                                               "precision", "recall", "F1"),
                          rows=tuple(pair_rows[:max_rows]),
                          kinds=("text", "text", "text", "num", "num", "num", "num", "num", "num")),),
    )
    reasons = Counter(u.reason for u in res.unmatched)
    unmatched = Section(
        id="unmatched_relations", title="Unmatched relations and why",
        paragraphs=("Every relation of one coder with no typed match among another's, from both sides.",),
        facts=tuple(Fact(k, reasons[k], REASONS[k]) for k in REASONS if reasons[k]),
        tables=(DataTable(name="unmatched_relations", title="Unmatched relations",
                          columns=("document", "coder", "other coder", "relation", "type", "source", "target",
                                   "reason", "other type"),
                          rows=tuple((u.document, u.coder, u.other_coder, u.relation or "", u.type, u.source,
                                      u.target, u.reason + (f" ({u.missing})" if u.missing else ""),
                                      u.other_type or "") for u in res.unmatched[:max_rows]),
                          note=(f"the first {max_rows:,} of {len(res.unmatched):,}"
                                if len(res.unmatched) > max_rows else "")),),
    )
    frame = res.candidates_frame()
    cand = Section(
        id="candidate_pairs", title="Candidate argument pairs",
        paragraphs=(f"Alpha compares, on each pair of arguments some coder related, the value of each coder: "
                    f"{values}; none when they marked both arguments and related nothing; "
                    + ("none too when they did not mark an argument but saw the document." if res.unmarked == "none"
                       else "missing when they did not mark an argument."),),
        facts=(Fact("candidate pairs", res.n_candidates), Fact("with values of two coders or more", res.n_pairable)),
        tables=(DataTable(name="candidate_values", title="Each coder's value on each candidate pair",
                          columns=("candidate", "document", "first argument", "second argument", "coder", "value"),
                          rows=tuple(tuple(r) for r in frame.head(max_rows).itertuples(index=False)),
                          kinds=("num", "text", "text", "text", "text", "text")),),
        notes=tuple(notes),
    )
    return Report(title=title or "Relation agreement", kind="relations", headline=headline,
                  sections=(f1_section, unmatched, cand), summary=res.to_dict())
