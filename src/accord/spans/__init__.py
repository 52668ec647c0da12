"""Agreement on spans: named entities, arguments, evidence.

The model (:class:`Span`, :class:`SpanAnnotations`) is what the span importers of
:mod:`accord.importers` return; the statistics read it.
"""

from accord.spans.model import Span, SpanAnnotations

__all__ = ["Span", "SpanAnnotations"]
