"""accord: agreement on complex annotations, and gold standards with a known noise level.

The public API, by concept (each in its own module):

- data: :class:`Annotations`, :func:`read`, :func:`as_annotations` (matrices and wide frames)
- distances: :func:`get_distance`, :func:`make_distance`, the distance classes
- Krippendorff's alpha: :func:`alpha`
- the kappa family: :func:`cohen_kappa`, :func:`weighted_kappa`, :func:`scott_pi`,
  :func:`fleiss_kappa`, :func:`multi_kappa`, :func:`bennett_s`, :func:`percent_agreement`
- Gwet's AC1 and AC2: :func:`gwet_ac1`, :func:`gwet_ac2`
- by their authors' names: :func:`brennan_prediger`, :func:`conger_kappa`, :func:`light_kappa`;
  named kappa weights :func:`kappa_weights`; confusion matrices :meth:`Annotations.from_confusion`
- numeric ratings (:mod:`accord.rating_coefficients`): :func:`icc`, :func:`icc_table` (McGraw & Wong's ten forms,
  Shrout & Fleiss' six), :func:`kendall_w`, :func:`lin_ccc`
- diagnostics: :func:`unit_disagreement`, :func:`pairwise_agreement`, :func:`coder_left_out`
- coreference: :mod:`accord.coref` (:func:`read_coref`, :func:`coref_alpha`, :func:`coref_scores`)
- multi-label items: :mod:`accord.multilabel` (:func:`augmented_kappa` and friends)
- pyramids: :mod:`accord.pyramid`
- noise models and gold standards: :mod:`accord.noise`
- significance studies: :mod:`accord.significance`
- spans: :mod:`accord.spans` (:func:`read_spans`, :func:`span_f1`, :func:`token_agreement`,
  :func:`unitizing_alpha`)
- relations and events between spans: :mod:`accord.relations` (``agreement``, ``read_relations``)
- humans and models (:mod:`accord.models_vs_humans`): :func:`alt_test`, the alternative annotator test (may a
  model replace the human annotators?), the model-vs-panel reads beside it, and :func:`judge_audit`, the audit
  of an LLM judge (position consistency, repeatability, agreement with humans, the pass rate corrected)
- the reliability report (one HTML page): :func:`report`, :mod:`accord.reporting`
- annotation tools' exports: :mod:`accord.importers` (:func:`read_export`, :class:`Imported`,
  :class:`ImportReport`)

Everything is imported on first use (PEP 562): ``import accord`` loads
neither pandas nor SciPy, and a command pays only for what it uses.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from accord._shared.errors import AccordError, AccordWarning

if TYPE_CHECKING:
    from accord.coefficients._alpha import (
        AlphaResult,
        ScaleHint,
        alpha,
        scale_hint,
    )
    from accord.coefficients._cac import (
        ChanceCorrectedResult,
        LightKappaResult,
        brennan_prediger,
        conger_kappa,
        light_kappa,
    )
    from accord.coefficients._diagnostics import (
        CoderLeftOut,
        CoderPairs,
        UnitDisagreement,
        coder_left_out,
        pairwise_agreement,
        unit_disagreement,
    )
    from accord.coefficients._fleiss import bennett_s, fleiss_kappa, multi_kappa, scott_pi, siegel_castellan_k
    from accord.coefficients._gwet import (
        GwetResult,
        gwet_ac1,
        gwet_ac2,
    )
    from accord.coefficients._kappa import AgreementResult, KappaResult, cohen_kappa, percent_agreement, weighted_kappa
    from accord.coefficients._weights import (
        kappa_weights,
    )
    from accord.coref import (
        CorefAnnotations,
        CorefScores,
        coref_scores,
        example_passonneau2004,
    )
    from accord.coref._alpha import (
        CorefAlphaResult,
        coref_alpha,
    )
    from accord.coref._readers import (
        read_coref,
    )
    from accord.coref._report import (
        CorefReliability,
        coref_reliability,
    )
    from accord.data._annotations import (
        Annotations,
        as_annotations,
    )
    from accord.data._read import (
        read,
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
    from accord.importers import (
        Imported,
        ImportReport,
        read_export,
    )
    from accord.models_vs_humans import (
        AltTestResult,
        JudgeAuditResult,
        alt_test,
        judge_audit,
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
        GoldStandard,
        NoiseBound,
        chance_difference,
        gold_standard,
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
    from accord.rating_coefficients import (
        CCCResult,
        ICCResult,
        ICCTable,
        KendallWResult,
        icc,
        icc_table,
        kendall_w,
        lin_ccc,
    )
    from accord.reporting import (
        report,
    )
    from accord.significance import (
        SignificanceStudy,
        anova_power,
        anova_sample_size,
        significance_study,
    )
    from accord.spans import (
        Span,
        SpanAnnotations,
        SpanF1Result,
        TokenAgreement,
        UnitizingAlphaResult,
        read_spans,
        span_f1,
        token_agreement,
        unitizing_alpha,
    )

__version__ = "0.1.0"

#: public name -> the module that defines it, imported on first access.
_EXPORTS: dict[str, str] = {
    "brennan_prediger": "accord.coefficients._cac",
    "conger_kappa": "accord.coefficients._cac",
    "light_kappa": "accord.coefficients._cac",
    "ChanceCorrectedResult": "accord.coefficients._cac",
    "LightKappaResult": "accord.coefficients._cac",
    "CCCResult": "accord.rating_coefficients",
    "ICCResult": "accord.rating_coefficients",
    "ICCTable": "accord.rating_coefficients",
    "KendallWResult": "accord.rating_coefficients",
    "icc": "accord.rating_coefficients",
    "icc_table": "accord.rating_coefficients",
    "kendall_w": "accord.rating_coefficients",
    "lin_ccc": "accord.rating_coefficients",
    "kappa_weights": "accord.coefficients._weights",
    "AgreementResult": "accord.coefficients._kappa",
    "alpha": "accord.coefficients._alpha",
    "alt_test": "accord.models_vs_humans",
    "AltTestResult": "accord.models_vs_humans",
    "judge_audit": "accord.models_vs_humans._judge",
    "JudgeAuditResult": "accord.models_vs_humans._judge_results",
    "AlphaResult": "accord.coefficients._alpha",
    "scale_hint": "accord.coefficients._alpha",
    "ScaleHint": "accord.coefficients._alpha",
    "Annotations": "accord.data._annotations",
    "as_annotations": "accord.data._annotations",
    "anova_power": "accord.significance",
    "anova_sample_size": "accord.significance",
    "augmented_kappa": "accord.multilabel",
    "augmented_kappa_sweep": "accord.multilabel",
    "AugmentedKappaResult": "accord.multilabel",
    "AugmentedKappaSweep": "accord.multilabel",
    "bennett_s": "accord.coefficients._fleiss",
    "chance_difference": "accord.noise",
    "ChanceDifference": "accord.noise",
    "classify_items": "accord.multilabel",
    "coder_left_out": "accord.coefficients._diagnostics",
    "CoderLeftOut": "accord.coefficients._diagnostics",
    "CoderPairs": "accord.coefficients._diagnostics",
    "cohen_kappa": "accord.coefficients._kappa",
    "coref_alpha": "accord.coref._alpha",
    "coref_reliability": "accord.coref._report",
    "coref_scores": "accord.coref",
    "CorefAlphaResult": "accord.coref._alpha",
    "CorefAnnotations": "accord.coref",
    "CorefReliability": "accord.coref._report",
    "CorefScores": "accord.coref",
    "Dice": "accord.distances",
    "Distance": "accord.distances",
    "DistanceFunction": "accord.distances",
    "example_passonneau2004": "accord.coref",
    "fleiss_kappa": "accord.coefficients._fleiss",
    "get_distance": "accord.distances",
    "gold_standard": "accord.noise",
    "GoldStandard": "accord.noise",
    "gwet_ac1": "accord.coefficients._gwet",
    "gwet_ac2": "accord.coefficients._gwet",
    "GwetResult": "accord.coefficients._gwet",
    "ImportReport": "accord.importers",
    "Imported": "accord.importers",
    "Interval": "accord.distances",
    "ItemClasses": "accord.multilabel",
    "Jaccard": "accord.distances",
    "KappaResult": "accord.coefficients._kappa",
    "make_distance": "accord.distances",
    "MASI2006": "accord.distances",
    "MASI2010": "accord.distances",
    "max_disagreements": "accord.noise",
    "multi_kappa": "accord.coefficients._fleiss",
    "MultiLabelData": "accord.multilabel",
    "multiset_value": "accord.distances",
    "noise_bound": "accord.noise",
    "NoiseBound": "accord.noise",
    "Nominal": "accord.distances",
    "Ordinal": "accord.distances",
    "pairwise_agreement": "accord.coefficients._diagnostics",
    "peer_agreement": "accord.pyramid",
    "PeerAnnotation": "accord.pyramid",
    "percent_agreement": "accord.coefficients._kappa",
    "Pyramid": "accord.pyramid",
    "pyramid_agreement": "accord.pyramid",
    "Ratio": "accord.distances",
    "read": "accord.data._read",
    "read_coref": "accord.coref._readers",
    "read_export": "accord.importers",
    "read_multilabel": "accord.multilabel",
    "read_peer_annotation": "accord.pyramid",
    "read_pyramid": "accord.pyramid",
    "read_spans": "accord.spans",
    "report": "accord.reporting",
    "score_peer": "accord.pyramid",
    "scott_pi": "accord.coefficients._fleiss",
    "SetDistance": "accord.distances",
    "SetRelation": "accord.distances",
    "siegel_castellan_k": "accord.coefficients._fleiss",
    "significance_study": "accord.significance",
    "SignificanceStudy": "accord.significance",
    "Span": "accord.spans",
    "span_f1": "accord.spans",
    "SpanAnnotations": "accord.spans",
    "SpanF1Result": "accord.spans",
    "token_agreement": "accord.spans",
    "TokenAgreement": "accord.spans",
    "unit_disagreement": "accord.coefficients._diagnostics",
    "UnitDisagreement": "accord.coefficients._diagnostics",
    "unitizing_alpha": "accord.spans",
    "UnitizingAlphaResult": "accord.spans",
    "weighted_kappa": "accord.coefficients._kappa",
}

__all__ = [
    "MASI2006",
    "MASI2010",
    "AccordError",
    "AccordWarning",
    "AgreementResult",
    "AlphaResult",
    "AltTestResult",
    "Annotations",
    "AugmentedKappaResult",
    "AugmentedKappaSweep",
    "CCCResult",
    "ChanceCorrectedResult",
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
    "ICCResult",
    "ICCTable",
    "ImportReport",
    "Imported",
    "Interval",
    "ItemClasses",
    "Jaccard",
    "JudgeAuditResult",
    "KappaResult",
    "KendallWResult",
    "LightKappaResult",
    "MultiLabelData",
    "NoiseBound",
    "Nominal",
    "Ordinal",
    "PeerAnnotation",
    "Pyramid",
    "Ratio",
    "SetDistance",
    "SetRelation",
    "SignificanceStudy",
    "Span",
    "ScaleHint",
    "SpanAnnotations",
    "SpanF1Result",
    "TokenAgreement",
    "UnitDisagreement",
    "UnitizingAlphaResult",
    "__version__",
    "alpha",
    "alt_test",
    "anova_power",
    "anova_sample_size",
    "as_annotations",
    "augmented_kappa",
    "augmented_kappa_sweep",
    "bennett_s",
    "brennan_prediger",
    "chance_difference",
    "classify_items",
    "coder_left_out",
    "cohen_kappa",
    "conger_kappa",
    "coref_alpha",
    "coref_reliability",
    "coref_scores",
    "example_passonneau2004",
    "fleiss_kappa",
    "get_distance",
    "gold_standard",
    "gwet_ac1",
    "gwet_ac2",
    "icc",
    "icc_table",
    "judge_audit",
    "kappa_weights",
    "kendall_w",
    "light_kappa",
    "lin_ccc",
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
    "read_export",
    "read_multilabel",
    "read_peer_annotation",
    "read_pyramid",
    "read_spans",
    "report",
    "scale_hint",
    "score_peer",
    "scott_pi",
    "siegel_castellan_k",
    "significance_study",
    "span_f1",
    "token_agreement",
    "unit_disagreement",
    "unitizing_alpha",
    "weighted_kappa",
]


#: subpackages reachable as attributes (``accord.engines.agree``), imported on first access.
_SUBPACKAGES = frozenset(
    {"coefficients", "coref", "data", "datasets", "distances", "engines", "importers", "models_vs_humans",
     "multilabel", "noise", "pyramid", "rating_coefficients", "reporting", "significance", "spans"}
)


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        return importlib.import_module(f"accord.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'accord' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    setattr(sys.modules[__name__], name, value)
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
