"""Agreement on spans: named entities, arguments, evidence.

The model (:class:`Span`, :class:`SpanAnnotations`) is what the span importers of
:mod:`accord.importers` return; the statistics read it:

- :func:`span_f1`: pairwise precision / recall / F1 per label, exact or overlap
  matching, micro and macro averaged, with the unmatched spans as diagnosis;
- :func:`token_agreement`: alpha and kappa over tokens, a token outside every
  span being its own value;
- :func:`unitizing_alpha`: Krippendorff's alpha for unitizing a continuum;
- every result's ``confidence_interval()`` resamples documents;
- :func:`gamma`: Mathet et al.'s gamma, with the exact best alignment of the units
  (:func:`best_alignment`), its dissimilarities and continua (the implementation in the private
  :mod:`accord.spans._gamma`);
- :func:`span_statistics`: all three at once with their intervals (what ``accord spans``
  prints), and :func:`read_span_input`: a span table or a tool's export, as that command reads it.
"""

from accord.data._spans import Span, SpanAnnotations
from accord.spans._gamma import (
    SAMPLERS,
    AlignmentSolution,
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Continuum,
    Dissimilarity,
    DocumentGamma,
    GammaResult,
    PositionalDissimilarity,
    best_alignment,
    continua,
    gamma,
)
from accord.spans._matching import CoderPairScores, SpanDisagreement, SpanF1Result, SpanScore, span_f1
from accord.spans._readers import read_span_input, read_spans, read_texts
from accord.spans._study import SpanStudy, span_study
from accord.spans._summary import span_statistics
from accord.spans._tokens import OUTSIDE, TokenAgreement, token_agreement, token_table, tokenise
from accord.spans._unitizing import CategoryUnitizing, UnitizingAlphaResult, unitizing_alpha

__all__ = [
    "SpanStudy",
    "OUTSIDE",
    "SAMPLERS",
    "AlignmentSolution",
    "CategoricalDissimilarity",
    "CombinedDissimilarity",
    "Continuum",
    "Dissimilarity",
    "DocumentGamma",
    "PositionalDissimilarity",
    "best_alignment",
    "continua",
    "CategoryUnitizing",
    "CoderPairScores",
    "GammaResult",
    "Span",
    "SpanAnnotations",
    "SpanDisagreement",
    "SpanF1Result",
    "SpanScore",
    "TokenAgreement",
    "UnitizingAlphaResult",
    "gamma",
    "read_span_input",
    "read_spans",
    "read_texts",
    "span_f1",
    "span_statistics",
    "span_study",
    "token_agreement",
    "token_table",
    "tokenise",
    "unitizing_alpha",
]
