"""The pyramid method: pyramids of SCUs, peer annotations, scores and agreement.

Passonneau (2010), *Formal and functional assessment of the pyramid method for
summary content evaluation*, Natural Language Engineering 16(2); Passonneau
(2006), *Measuring agreement on set-valued items (MASI)*, LREC.  See
``docs/pyramid.md``.
"""

from __future__ import annotations

from accord.pyramid.agreement import (
    PeerAgreement,
    PyramidAgreement,
    align_tokens,
    peer_agreement,
    peer_reliability_data,
    pyramid_agreement,
    pyramid_reliability_data,
    unit_values,
)
from accord.pyramid.ducview import read_peer_annotation, read_pyramid, write_peer_annotation, write_pyramid
from accord.pyramid.jsonio import (
    load_schema,
    peer_annotation_from_json,
    peer_annotation_to_json,
    pyramid_from_json,
    pyramid_to_json,
    read_json,
    write_json,
)
from accord.pyramid.model import (
    PSE,
    SCU,
    Contributor,
    Defect,
    ModelSummary,
    PeerAnnotation,
    Pyramid,
    Span,
    Tokens,
    ValidationReport,
    check_pyramid,
    merge_duplicate_contributors,
    tokenize,
    validate_pyramid,
)
from accord.pyramid.scores import (
    CONVENTIONS,
    JackknifeScores,
    PeerScore,
    PeerScores,
    ScoringConvention,
    TierTable,
    ZipfFit,
    average_scus_per_model,
    jackknife_scores,
    max_score,
    round_x,
    score_peer,
    score_peers,
    tier_table,
    zipf_fit,
)

__all__ = [
    "CONVENTIONS",
    "Contributor",
    "Defect",
    "JackknifeScores",
    "ModelSummary",
    "PSE",
    "PeerAgreement",
    "PeerAnnotation",
    "PeerScore",
    "PeerScores",
    "Pyramid",
    "PyramidAgreement",
    "SCU",
    "ScoringConvention",
    "Span",
    "TierTable",
    "Tokens",
    "ValidationReport",
    "ZipfFit",
    "align_tokens",
    "average_scus_per_model",
    "check_pyramid",
    "jackknife_scores",
    "load_schema",
    "max_score",
    "merge_duplicate_contributors",
    "peer_agreement",
    "peer_annotation_from_json",
    "peer_annotation_to_json",
    "peer_reliability_data",
    "pyramid_agreement",
    "pyramid_from_json",
    "pyramid_reliability_data",
    "pyramid_to_json",
    "read_json",
    "read_peer_annotation",
    "read_pyramid",
    "round_x",
    "score_peer",
    "score_peers",
    "tier_table",
    "tokenize",
    "unit_values",
    "validate_pyramid",
    "write_json",
    "write_peer_annotation",
    "write_pyramid",
    "zipf_fit",
]
