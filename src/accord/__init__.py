"""accord: agreement on complex annotations, and gold standards with a known noise level."""

from __future__ import annotations

from accord.alpha import AlphaResult, alpha
from accord.data import Annotations
from accord.distances import (
    MASI2006,
    MASI2010,
    Dice,
    Distance,
    DistanceFunction,
    Interval,
    Jaccard,
    Nominal,
    Ordinal,
    Ratio,
    SetDistance,
    SetRelation,
    get_distance,
    make_distance,
    multiset_value,
)
from accord.errors import AccordError, AccordWarning

__version__ = "0.1.0"

__all__ = [
    "MASI2006",
    "MASI2010",
    "AccordError",
    "AccordWarning",
    "AlphaResult",
    "Annotations",
    "Dice",
    "Distance",
    "DistanceFunction",
    "Interval",
    "Jaccard",
    "Nominal",
    "Ordinal",
    "Ratio",
    "SetDistance",
    "SetRelation",
    "alpha",
    "get_distance",
    "make_distance",
    "multiset_value",
    "__version__",
]
