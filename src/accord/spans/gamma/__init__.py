"""Gamma (Mathet, Widlöcher & Métivier 2015): agreement on units placed and labelled on a continuum."""

from accord.spans.gamma.alignment import AlignmentSolution, best_alignment
from accord.spans.gamma.dissimilarity import (
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Dissimilarity,
    PositionalDissimilarity,
)
from accord.spans.gamma.estimate import DocumentGamma, GammaResult, gamma
from accord.spans.gamma.model import Continuum, continua
from accord.spans.gamma.sampling import SAMPLERS

__all__ = [
    "AlignmentSolution",
    "CategoricalDissimilarity",
    "CombinedDissimilarity",
    "Continuum",
    "DocumentGamma",
    "GammaResult",
    "SAMPLERS",
    "Dissimilarity",
    "PositionalDissimilarity",
    "best_alignment",
    "continua",
    "gamma",
]
