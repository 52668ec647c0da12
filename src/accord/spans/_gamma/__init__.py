"""Gamma (Mathet, Widlöcher & Métivier 2015): agreement on units placed and labelled on a continuum."""

from accord.spans._gamma.alignment import AlignmentSolution, best_alignment
from accord.spans._gamma.dissimilarity import (
    CategoricalDissimilarity,
    CombinedDissimilarity,
    Dissimilarity,
    PositionalDissimilarity,
)
from accord.spans._gamma.estimate import DocumentGamma, GammaResult, gamma
from accord.spans._gamma.model import Continuum, continua
from accord.spans._gamma.sampling import SAMPLERS

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
