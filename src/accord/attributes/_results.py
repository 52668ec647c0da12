"""The results of per-attribute agreement.

Not public: :mod:`accord.attributes` is the API.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from accord._shared.errors import AccordError, choice_error
from accord._shared.results import Result

__all__ = ["AttributeAgreement", "AttributesResult", "UnalignedSpan"]

Kind = Literal["binary", "nominal", "ordinal", "set"]


@dataclass(frozen=True)
class UnalignedSpan(Result):
    """A span only one annotator marked: counted and listed, not scored.

    Attributes
    ----------
    document, coder, label : str
        Where it is, who marked it, its label.
    start, end : int
        Its code-point offsets ``[start, end)``.
    value : object
        The attribute's value on it (``None`` in the list of all unaligned spans).
    reason : str
        ``"no other annotator marked this span"`` or ``"no other annotator saw the document"``.
    """

    document: str
    coder: str
    start: int
    end: int
    label: str
    value: Any
    reason: str


@dataclass(frozen=True)
class AttributeAgreement(Result):
    """Krippendorff's alpha for one attribute (or feature) over the aligned spans.

    Attributes
    ----------
    name : str
        The attribute.
    kind : {"binary", "nominal", "ordinal", "set"}
        How its values were read: ``binary`` (brat's valueless attributes: set or not), ``nominal`` (one value),
        ``ordinal`` (declared, with an order), ``set`` (several values on one span, such as several
        knowledge-base identifiers).
    distance : str
        The distance alpha used.
    alpha : float
        Krippendorff's alpha; NaN when undefined (see ``undefined_reason``).
    observed_disagreement, expected_disagreement : float
        D_o and D_e.
    labels : tuple of str
        The span labels the attribute was found on: the aligned spans of these labels are its units.
    n_units : int
        Aligned spans (groups of two or more annotators' spans) of those labels holding at least one value.
    n_pairable_units : int
        Those holding two or more values: the units alpha compares.
    n_values : int
        Values on aligned spans.
    value_counts : dict of str to int
        How often each value was given on the aligned spans (sets written ``a|b``).
    unaligned : tuple of UnalignedSpan
        Spans only one annotator marked that carry the attribute (or, for a binary attribute, that
        have a label it applies to), with the value: counted and listed, not scored.
    undefined_reason : str or None
        Why alpha is NaN, when it is.
    """

    name: str
    kind: Kind
    distance: str
    alpha: float
    observed_disagreement: float
    expected_disagreement: float
    labels: tuple[str, ...]
    n_units: int
    n_pairable_units: int
    n_values: int
    value_counts: dict[str, int]
    unaligned: tuple[UnalignedSpan, ...]
    undefined_reason: str | None = None
    _alpha: Any = field(default=None, repr=False, compare=False)

    @property
    def n_unaligned(self) -> int:
        """Spans only one annotator marked that carry the attribute."""
        return len(self.unaligned)

    @property
    def alpha_result(self) -> Any:
        """The :class:`~accord.AlphaResult` behind :attr:`alpha` (None when no unit was pairable), for its
        bootstrap interval."""
        return self._alpha

    def to_dict(self) -> dict[str, Any]:
        """The public fields as JSON-ready data (NaN as ``None``), with ``n_unaligned``."""
        out = super().to_dict()
        out["n_unaligned"] = self.n_unaligned
        return out


@dataclass(frozen=True)
class AttributesResult(Result):
    """Agreement on every attribute of a span layer.

    Attributes
    ----------
    match : {"exact", "overlap"}
        How spans were aligned.
    ignore_labels : bool
        Whether spans of different labels could align.
    unset : {"missing", "value"}
        What a valued attribute not set on an aligned span counts as.
    coders : tuple of str
        The annotators.
    n_aligned : int
        Aligned spans: groups of two or more annotators' spans.
    attributes : tuple of AttributeAgreement
        One per attribute, by name.
    unaligned : tuple of UnalignedSpan
        Every span only one annotator marked (``value`` None).
    report : ImportReport or None
        What the importer read, when the spans came from one tool's export
        (:func:`accord.attributes.export_agreement`).
    reports : tuple of ImportReport
        Each export's import report, when the spans came from one or several exports (in the order read).

    Examples
    --------
    >>> from accord.spans import Span, SpanAnnotations
    >>> from accord.attributes import agreement
    >>> sa = SpanAnnotations.from_spans([
    ...     Span("d", 0, 5, "Drug", "a", attributes={"Negated": True}),
    ...     Span("d", 0, 5, "Drug", "b", attributes={"Negated": True}),
    ...     Span("d", 9, 12, "Drug", "a"), Span("d", 9, 12, "Drug", "b"),
    ... ])
    >>> res = agreement(sa)
    >>> res["Negated"].kind, res["Negated"].n_pairable_units, res["Negated"].alpha
    ('binary', 2, 1.0)
    """

    match: str
    ignore_labels: bool
    unset: str
    coders: tuple[str, ...]
    n_aligned: int
    attributes: tuple[AttributeAgreement, ...]
    unaligned: tuple[UnalignedSpan, ...]
    report: Any = None
    reports: tuple[Any, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The attributes' names."""
        return tuple(a.name for a in self.attributes)

    def __getitem__(self, name: str) -> AttributeAgreement:
        for a in self.attributes:
            if a.name == name:
                return a
        raise choice_error("name", name, self.names) if self.attributes else AccordError(
            f"no attribute {name!r}: the spans carry no attribute")

    def to_frame(self) -> Any:
        """One row per attribute: name, kind, distance, alpha, units, pairable units, values, unaligned."""
        import pandas as pd

        rows = [{"attribute": a.name, "kind": a.kind, "distance": a.distance, "alpha": a.alpha,
                 "units": a.n_units, "pairable_units": a.n_pairable_units, "values": a.n_values,
                 "unaligned": a.n_unaligned} for a in self.attributes]
        return pd.DataFrame(rows, columns=["attribute", "kind", "distance", "alpha", "units", "pairable_units",
                                           "values", "unaligned"])

    def to_dict(self) -> dict[str, Any]:
        """The public fields as JSON-ready data (NaN as ``None``)."""
        out = super().to_dict()
        out["n_unaligned"] = len(self.unaligned)
        return out
