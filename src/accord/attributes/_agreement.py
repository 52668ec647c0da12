"""Agreement on each attribute (feature, normalisation) of a span layer, over the spans the annotators share.

Not public: :mod:`accord.attributes` is the API.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from accord._shared.errors import AccordError, AccordWarning, choice_error, warn_undefined
from accord.attributes._align import MATCHES, Alignment, Match, align
from accord.attributes._results import AttributeAgreement, AttributesResult, Kind, UnalignedSpan
from accord.data._spans import SpanAnnotations

__all__ = ["NOT_SET", "agreement"]

#: The value of a valued attribute left unset on an aligned span, with ``unset="value"``.
NOT_SET = "(not set)"
_UNSET = ("missing", "value")
_SETS = (set, frozenset, list, tuple)


def _kind_of(name: str, values: list[Any]) -> Kind:
    """binary when every value is a bool, set when any is a collection, nominal otherwise."""
    bools = [isinstance(v, bool) for v in values]
    if all(bools):
        return "binary"
    if any(bools):
        raise AccordError(f"attribute {name!r} is set without a value on some spans and with a value on others; "
                          "an attribute is either binary (set or not) or valued")
    return "set" if any(isinstance(v, _SETS) for v in values) else "nominal"


def _as_set(v: Any) -> frozenset[Any]:
    return frozenset(v) if isinstance(v, _SETS) else frozenset([v])


def _shown(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, frozenset):
        return "|".join(sorted(map(str, v))) or "(empty)"
    return str(v)


def _check(data: Any, match: Any, ignore_labels: Any, unset: Any, distances: Any, orders: Any) -> None:
    if not isinstance(data, SpanAnnotations):
        raise AccordError(f"data must be accord.spans.SpanAnnotations (spans whose attributes are set); got "
                          f"{type(data).__name__}")
    if match not in MATCHES:
        raise choice_error("match", match, MATCHES)
    if not isinstance(ignore_labels, bool):
        raise AccordError(f"ignore_labels must be True or False; got {ignore_labels!r}")
    if unset not in _UNSET:
        raise choice_error("unset", unset, _UNSET)
    for param, given in (("distances", distances), ("orders", orders)):
        if given is not None and not isinstance(given, Mapping):
            raise AccordError(f"{param} must map attribute names to {'distances' if param == 'distances' else 'orders'}"
                              f"; got {type(given).__name__}")
    if len(data.coders) < 2:
        raise AccordError(f"{data.source or 'data'}: attribute agreement needs at least two annotators; found "
                          + (f"{len(data.coders)} ({', '.join(data.coders)})" if data.coders else "none"))


def agreement(
    data: SpanAnnotations,
    *,
    match: Match = "exact",
    ignore_labels: bool = False,
    distances: Mapping[str, Any] | None = None,
    orders: Mapping[str, Sequence[Hashable]] | None = None,
    unset: str = "missing",
) -> AttributesResult:
    """Krippendorff's alpha for each attribute of a span layer, over the spans the annotators align on.

    Parameters
    ----------
    data : SpanAnnotations
        Spans of two or more annotators, each with its ``attributes`` (``{name: value}``): brat's A, M and
        N lines, INCEpTION's other features of the layer (read with ``attributes=True`` by those importers),
        or set by hand.  A value ``True`` is a binary attribute (brat's valueless attribute: set or not);
        a collection (list, tuple, set) is several values (several knowledge-base identifiers); anything
        else is one value.
    match : {"exact", "overlap"}
        How spans align: the same document, fragments and label (``"exact"``, default); or overlapping spans
        of the same label, the pairs sharing the largest part of their code points first, at most one span
        per annotator in a group (``"overlap"``).
    ignore_labels : bool
        Align spans whatever their labels (default: a span aligns only with spans of its label).
    distances : mapping of str to distance, optional
        The distance of an attribute (a name of :func:`accord.distances.get_distance`, a
        :class:`~accord.distances.Distance` or a callable).  Default: nominal for a binary or one-valued
        attribute, ``"masi-2006"`` for a set-valued one (as :attr:`accord.importers.Imported.default_distance`).
    orders : mapping of str to sequence, optional
        Declares an attribute ordinal, with its values from lowest to highest (Krippendorff's ordinal
        distance unless *distances* names another ordered one).
    unset : {"missing", "value"}
        A valued attribute that an annotator left unset on an aligned span: missing (default: the annotator
        gave no value, as a skipped question), or a value of its own (``"(not set)"``; the empty set for a
        set-valued attribute), so that setting it against leaving it unset is a disagreement. A binary
        attribute is always ``true`` or ``false`` on every aligned span of its labels: brat writes the line
        only when the box is ticked, so its absence is the value ``false``.

    Returns
    -------
    AttributesResult
        One :class:`AttributeAgreement` per attribute, and the spans only one annotator marked.

    Raises
    ------
    AccordError
        On data that is not spans, fewer than two annotators, an attribute both binary and valued, a
        distance or order for an attribute no span carries, an ordinal attribute with ``unset="value"``.

    Notes
    -----
    The units of an attribute are the aligned spans (groups of two or more annotators' spans) whose label
    is one the attribute was found on anywhere in the data: an attribute declared for one entity type says
    nothing about spans of another. Each annotator's value on a unit is the value on their span. Spans only
    one annotator marked (or in documents only one annotator saw) are listed with their values, not scored:
    whether a span is there at all is span agreement's question (:func:`accord.spans.span_f1`).

    Examples
    --------
    Two annotators, three aligned disease mentions, the second also negated by one of them; one span of
    annotator a only:

    >>> from accord.spans import Span, SpanAnnotations
    >>> sa = SpanAnnotations.from_spans([
    ...     Span("d", 0, 4, "Disease", "a", attributes={"Negated": True, "Certainty": "high"}),
    ...     Span("d", 0, 4, "Disease", "b", attributes={"Negated": True, "Certainty": "high"}),
    ...     Span("d", 10, 14, "Disease", "a", attributes={"Certainty": "low"}),
    ...     Span("d", 10, 14, "Disease", "b", attributes={"Negated": True, "Certainty": "low"}),
    ...     Span("d", 20, 24, "Disease", "a", attributes={"Certainty": "high"}),
    ...     Span("d", 20, 24, "Disease", "b", attributes={"Certainty": "high"}),
    ...     Span("d", 30, 34, "Disease", "a", attributes={"Certainty": "low"}),
    ... ])
    >>> res = agreement(sa)
    >>> res.names
    ('Certainty', 'Negated')
    >>> res["Certainty"].alpha, res["Certainty"].n_unaligned
    (1.0, 1)
    >>> round(res["Negated"].alpha, 4)
    0.4444
    """
    _check(data, match, ignore_labels, unset, distances, orders)
    aligned = align(data, match=match, ignore_labels=ignore_labels)
    found: dict[str, list[Any]] = {}
    labels: dict[str, set[str]] = {}
    for s in data.spans:
        for name, value in s.attributes.items():
            if value is None:
                continue
            found.setdefault(name, []).append(value)
            labels.setdefault(name, set()).add(s.label)
    distances, orders = dict(distances or {}), dict(orders or {})
    for param, given in (("distances", distances), ("orders", orders)):
        for name in given:
            if name not in found:
                raise AccordError(f"{param}: no span carries the attribute {name!r}; the attributes are "
                                  + (", ".join(sorted(found)) or "none"))
    results = tuple(_one(name, found[name], labels[name], aligned, distances.get(name), orders.get(name), unset)
                    for name in sorted(found))
    return AttributesResult(
        match=match, ignore_labels=ignore_labels, unset=unset, coders=data.coders, n_aligned=len(aligned.groups),
        attributes=results,
        unaligned=tuple(_unaligned(aligned, i, None, why) for i, why in aligned.alone),
    )


def _unaligned(aligned: Alignment, i: int, value: Any, why: str) -> UnalignedSpan:
    s = aligned.spans[i]
    return UnalignedSpan(s.document, s.coder, s.start, s.end, s.label, value, why)


def _one(name: str, values: list[Any], labels: set[str], aligned: Alignment, distance: Any,
         order: Sequence[Hashable] | None, unset: str) -> AttributeAgreement:
    from accord.coefficients._alpha import alpha
    from accord.data._annotations import Annotations
    from accord.distances import get_distance

    kind = _kind_of(name, values)
    if order is not None:
        if kind != "nominal":
            raise AccordError(f"orders: attribute {name!r} is {kind}-valued; an order applies to one-valued "
                              "attributes")
        if unset == "value":
            raise AccordError(f"orders: attribute {name!r} is ordinal, and unset='value' would give it a value "
                              "'(not set)' outside its order; use unset='missing'")
        kind = "ordinal"
        dist = get_distance("ordinal" if distance is None else distance, order=order)
    else:
        dist = get_distance(distance if distance is not None else ("masi-2006" if kind == "set" else "nominal"))
        if dist.name == "ordinal":
            kind = "ordinal"

    def value_of(i: int) -> Any:
        raw = aligned.spans[i].attributes.get(name)
        if kind == "binary":
            return bool(raw)
        if raw is None:
            if unset == "missing":
                return None
            return frozenset() if kind == "set" else NOT_SET
        return _as_set(raw) if kind == "set" else raw

    records = []
    n_units = n_pairable = 0
    counts: Counter[str] = Counter()
    for u, group in enumerate(aligned.groups):
        if not any(aligned.spans[i].label in labels for i in group):
            continue
        given = [(aligned.spans[i].coder, v) for i in group if (v := value_of(i)) is not None]
        if not given:
            continue
        n_units += 1
        n_pairable += len(given) >= 2
        for coder, v in given:
            records.append((u, coder, v))
            counts[_shown(v)] += 1
    unaligned = tuple(_unaligned(aligned, i, value_of(i), why) for i, why in aligned.alone
                      if aligned.spans[i].label in labels and value_of(i) is not None)
    res = None
    reason = None
    if n_pairable:
        with warnings.catch_warnings():  # said below, naming the attribute
            warnings.simplefilter("ignore", AccordWarning)
            res = alpha(Annotations.from_records(records), distance=dist)
        reason = res.undefined_reason
        if reason:
            warn_undefined(f"alpha of attribute {name!r}", reason)
    else:
        reason = (f"no aligned span of {'label' if len(labels) == 1 else 'labels'} {', '.join(sorted(labels))} holds "
                  f"two annotators' values of {name!r}")
        warn_undefined(f"alpha of attribute {name!r}", reason)
    return AttributeAgreement(
        name=name, kind=kind, distance=dist.name, alpha=res.alpha if res is not None else math.nan,
        observed_disagreement=res.observed_disagreement if res is not None else math.nan,
        expected_disagreement=res.expected_disagreement if res is not None else math.nan,
        labels=tuple(sorted(labels)), n_units=n_units, n_pairable_units=n_pairable, n_values=len(records),
        value_counts=dict(sorted(counts.items())), unaligned=unaligned, undefined_reason=reason, _alpha=res,
    )
