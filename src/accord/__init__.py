"""accord: agreement on complex annotations, and gold standards with a known noise level.

The public API, by concept (each in its own module):

- data: :class:`Annotations`, :func:`read`
- distances: :func:`get_distance`, :func:`make_distance`, the distance classes
- Krippendorff's alpha: :func:`alpha`
- the kappa family: :func:`cohen_kappa`, :func:`weighted_kappa`, :func:`scott_pi`,
  :func:`fleiss_kappa`, :func:`multi_kappa`, :func:`bennett_s`, :func:`percent_agreement`
- Gwet's AC1 and AC2: :func:`gwet_ac1`, :func:`gwet_ac2`
- diagnostics: :func:`unit_disagreement`, :func:`pairwise_agreement`, :func:`coder_left_out`
- coreference: :mod:`accord.coref` (:func:`read_coref`, :func:`coref_alpha`, :func:`coref_scores`)
- multi-label items: :mod:`accord.multilabel` (:func:`augmented_kappa` and friends)
- pyramids: :mod:`accord.pyramid`
- noise models and gold standards: :mod:`accord.noise`, :mod:`accord.gold`
- significance studies: :mod:`accord.significance`
- the reliability report (one HTML page): :func:`report`, :mod:`accord.reporting`
"""

from __future__ import annotations

from accord.alpha import AlphaResult, alpha
from accord.coref import (
    CorefAnnotations,
    CorefScores,
    coref_scores,
    example_passonneau2004,
)
from accord.coref.alpha import CorefAlphaResult, coref_alpha
from accord.coref.readers import read_coref
from accord.coref.report import CorefReliability, coref_reliability
from accord.data import Annotations
from accord.diagnostics import (
    CoderLeftOut,
    CoderPairs,
    UnitDisagreement,
    coder_left_out,
    pairwise_agreement,
    unit_disagreement,
)
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
from accord.gold import GoldStandard, gold_standard
from accord.gwet import GwetResult, gwet_ac1, gwet_ac2
from accord.io import read
from accord.kappa import (
    AgreementResult,
    KappaResult,
    bennett_s,
    cohen_kappa,
    fleiss_kappa,
    multi_kappa,
    percent_agreement,
    scott_pi,
    siegel_castellan_k,
    weighted_kappa,
)
from accord.multilabel import (
    AugmentedKappaResult,
    AugmentedKappaSweep,
    ItemClasses,
    MultiLabelData,
    augmented_kappa,
    augmented_kappa_sweep,
    classify_items,
    read_multilabel,
)
from accord.noise import (
    ChanceDifference,
    NoiseBound,
    chance_difference,
    max_disagreements,
    noise_bound,
)
from accord.pyramid import (
    PeerAnnotation,
    Pyramid,
    peer_agreement,
    pyramid_agreement,
    read_peer_annotation,
    read_pyramid,
    score_peer,
)
from accord.reporting import report
from accord.significance import (
    SignificanceStudy,
    anova_power,
    anova_sample_size,
    significance_study,
)

__version__ = "0.1.0"

__all__ = [
    "MASI2006",
    "MASI2010",
    "AccordError",
    "AccordWarning",
    "AgreementResult",
    "AlphaResult",
    "Annotations",
    "AugmentedKappaResult",
    "AugmentedKappaSweep",
    "ChanceDifference",
    "CoderLeftOut",
    "CoderPairs",
    "CorefAlphaResult",
    "CorefAnnotations",
    "CorefReliability",
    "CorefScores",
    "Dice",
    "Distance",
    "DistanceFunction",
    "GoldStandard",
    "GwetResult",
    "Interval",
    "ItemClasses",
    "Jaccard",
    "KappaResult",
    "MultiLabelData",
    "Nominal",
    "NoiseBound",
    "Ordinal",
    "PeerAnnotation",
    "Pyramid",
    "Ratio",
    "SetDistance",
    "SetRelation",
    "SignificanceStudy",
    "UnitDisagreement",
    "__version__",
    "alpha",
    "anova_power",
    "anova_sample_size",
    "augmented_kappa",
    "augmented_kappa_sweep",
    "bennett_s",
    "chance_difference",
    "classify_items",
    "coder_left_out",
    "cohen_kappa",
    "coref_alpha",
    "coref_reliability",
    "coref_scores",
    "example_passonneau2004",
    "fleiss_kappa",
    "get_distance",
    "gold_standard",
    "gwet_ac1",
    "gwet_ac2",
    "make_distance",
    "max_disagreements",
    "multi_kappa",
    "multiset_value",
    "noise_bound",
    "pairwise_agreement",
    "peer_agreement",
    "percent_agreement",
    "pyramid_agreement",
    "read",
    "read_coref",
    "read_multilabel",
    "read_peer_annotation",
    "read_pyramid",
    "report",
    "score_peer",
    "scott_pi",
    "siegel_castellan_k",
    "significance_study",
    "unit_disagreement",
    "weighted_kappa",
]
