"""Which report a given object gets: one builder per kind of data or result."""

from __future__ import annotations

from typing import Any

from accord._shared.errors import AccordError
from accord.reporting._page import Report

__all__ = ["build", "kind_of"]


def kind_of(obj: Any) -> str:
    """The kind of report *obj* calls for (``agreement``, ``coreference``, ``multilabel``, ``pyramid``, ``gold``,
    ``spans``, ``models``, ``judge``)."""
    from accord.coefficients._alpha import AlphaResult
    from accord.coref._model import CorefAnnotations
    from accord.coref._report import CorefReliability
    from accord.data._annotations import Annotations
    from accord.multilabel import MultiLabelData
    from accord.noise._gold import GoldStandard

    if isinstance(obj, CorefAnnotations | CorefReliability):
        return "coreference"
    if isinstance(obj, Annotations | AlphaResult):
        return "agreement"
    if isinstance(obj, MultiLabelData):
        return "multilabel"
    if isinstance(obj, GoldStandard):
        return "gold"
    from accord.pyramid import Pyramid
    from accord.pyramid._scores import PeerScores

    if isinstance(obj, Pyramid | PeerScores) or (isinstance(obj, tuple) and obj and isinstance(obj[0], Pyramid)):
        return "pyramid"
    from accord.reporting import _models as models

    if models.accepts(obj):
        return "models"
    from accord.reporting import _judge as judge

    if judge.accepts(obj):
        return "judge"
    spans = _spans_kind(obj)
    if spans:
        return spans
    from accord.reporting import _relations as relations

    if relations.accepts(obj):
        return "relations"
    from accord.reporting import _imported as imported

    if imported.accepts(obj):
        return {"spans": "spans", "relations": "relations"}.get(obj.kind, "agreement")
    raise AccordError(
        "result_or_data must be accord.Annotations, AlphaResult, CorefAnnotations, CorefReliability, "
        "MultiLabelData, GoldStandard, AltTestResult, JudgeAuditResult, an import (accord.read_export), a "
        "pandas.DataFrame with kind='gold', or (Pyramid, [PeerAnnotation]); "
        f"got {type(obj).__name__}"
    )


def _spans_kind(obj: Any) -> str | None:
    """``spans`` for span annotations (:class:`accord.spans.SpanAnnotations`), else None."""
    from accord.reporting import _spans as spans_report

    return "spans" if spans_report.accepts(obj) else None


def build(obj: Any, *, kind: str = "auto", title: str | None = None, **options: Any) -> Report:
    """Build the report of *obj*; ``kind="gold"`` reads a DataFrame or Annotations as a gold-standard table."""
    from accord.reporting import KINDS

    if kind not in ("auto", *KINDS):
        raise AccordError(f"kind must be one of auto, {', '.join(KINDS)}; got {kind!r}")
    k = kind_of(obj) if kind == "auto" else kind
    from accord.reporting import _imported as imported

    if imported.accepts(obj) and k == "relations":
        from accord.reporting._relations import relations_report

        return relations_report(obj.relations, title=title, **options)
    if imported.accepts(obj) and k != "models":
        if k not in ("agreement", "spans"):
            raise AccordError(f"an import of {obj.tool} gets an agreement, spans or models report; got kind {kind!r}")
        return imported.imported_report(obj, title=title, **options)
    if k == "judge":
        from accord.reporting._judge import judge_report

        return judge_report(obj, title=title, **options)
    if k == "models":
        from accord.reporting._models import models_report

        return models_report(obj, title=title, **options)
    if k == "agreement":
        from accord.reporting._reliability import agreement_report

        return agreement_report(obj, title=title, **options)
    if k == "coreference":
        from accord.reporting._coref import coref_report

        return coref_report(obj, title=title, **options)
    if k == "multilabel":
        from accord.reporting._multilabel import multilabel_report

        return multilabel_report(obj, title=title, **options)
    if k == "gold":
        from accord.reporting._gold import gold_report

        return gold_report(obj, title=title, **options)
    if k == "pyramid":
        from accord.reporting._pyramid import pyramid_report

        return pyramid_report(obj, title=title, **options)
    if k == "spans":
        from accord.reporting._spans import spans_report

        return spans_report(obj, title=title, **options)
    if k == "relations":
        from accord.reporting._relations import relations_report

        return relations_report(obj, title=title, **options)
    raise AccordError(f"no report for kind {k!r}")  # pragma: no cover
