"""Agreement on the attributes of spans: brat's attributes and normalisations, INCEpTION's features.

For each attribute or feature of a span layer, Krippendorff's alpha over the spans the annotators align on
(:func:`agreement`), with the distance that fits the attribute: nominal for one value, ``true``/``false`` for
brat's valueless (binary) attributes, ordinal when declared with an order, a set distance for several
values (several knowledge-base identifiers on one span). Spans only one annotator marked are counted and
listed, not scored. The spans come from the importers (``accord.importers.read_export(..., attributes=True)``
for brat and INCEpTION / WebAnno) or are built by hand (:class:`accord.spans.Span`'s ``attributes``).

Each name is imported on first use.
"""

from __future__ import annotations

from accord._shared.lazy import exports

_NAMES = {
    **dict.fromkeys(["NOT_SET", "agreement"], "accord.attributes._agreement"),
    "export_agreement": "accord.attributes._export",
    **dict.fromkeys(["AttributeAgreement", "AttributesResult", "UnalignedSpan"], "accord.attributes._results"),
}
__all__ = sorted(_NAMES)
__getattr__, __dir__ = exports(__name__, _NAMES)
