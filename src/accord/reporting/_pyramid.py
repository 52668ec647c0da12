"""The pyramid report: tiers of the pyramid, validation, and the peers' raw, original and modified scores
(Passonneau 2010), with the models scored against the pyramids of the others (jackknife) beside them."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.progress import progress_for
from accord.reporting import _charts as charts
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Report, Section
from accord.reporting._words import value_label

__all__ = ["pyramid_report"]


def pyramid_report(
    data: Any,
    *,
    title: str | None = None,
    convention: str = "paper",
    progress: Any = None,
    bootstrap: int = 0,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = 2000,
    distance: str | None = None,
) -> Report:
    """The report of ``(Pyramid, [PeerAnnotation, ...])`` (or of ``PeerScores`` alone)."""
    from accord.pyramid import Pyramid, check_pyramid, jackknife_scores, score_peers, tier_table
    from accord.pyramid._scores import EMBEDDED_NOTE, PeerScores

    prog = progress_for(progress)
    if isinstance(data, PeerScores):
        pyr, peers, scores = None, [], data
    else:
        if isinstance(data, Pyramid):
            pyr, peers = data, []
        elif isinstance(data, tuple) and len(data) == 2 and isinstance(data[0], Pyramid):
            pyr, peers = data[0], list(data[1])
        else:
            raise AccordError(f"a pyramid report reads (Pyramid, [PeerAnnotation, ...]); got {type(data).__name__}")
        prog.add(2)
        with prog.step("peer scores"), warnings.catch_warnings():
            warnings.filterwarnings("ignore", EMBEDDED_NOTE, AccordWarning)  # in the notes, said below
            scores = score_peers(peers, pyr, convention=convention) if peers else None
    sections: list[Section] = []
    heads: list[HeadlineNumber] = []
    summary: dict[str, Any] = {}
    notes: list[str] = ["Scores (Passonneau 2010): original = raw / the best raw score a summary with as many "
                        "content units could have; modified = raw / the best for the average number of content "
                        "units per model (Xₐ). They are scores, not agreement coefficients: Krippendorff's "
                        "thresholds do not apply."]
    if scores is not None:
        notes += list(scores.notes)
    if pyr is not None:
        tiers = tier_table(pyr)
        report = check_pyramid(pyr)
        heads.append(HeadlineNumber("x_a", "average SCUs per model (Xₐ)", tiers.x_a,
                                    interval_note=f"{plural(pyr.n_models, 'model')}, {plural(len(pyr.scus), 'SCU')}"))
        summary["tiers"] = tiers.to_dict()
        df = pd.DataFrame({"weight": [str(w) for w in tiers.weights], "SCUs": list(tiers.sizes)})
        tier_chart = Chart("tiers", "Tiers of the pyramid", charts.bar_chart(
            df, category="weight", value="SCUs", title_value="SCUs of this weight", counts=True,
            tooltip=[("weight:N", "weight"), ("SCUs:Q", "SCUs")]),
            caption="An SCU's weight is the number of models that express it; a pyramid has few heavy SCUs and "
                    "many light ones.")
        defects = tuple((d.severity, d.message, "yes" if d.repaired else "no") for d in report.defects)
        sections.append(Section(
            id="pyramid", title="The pyramid",
            facts=(Fact("models", pyr.n_models), Fact("SCUs", len(pyr.scus)), Fact("Xₐ", f"{tiers.x_a:.4g}"),
                   Fact("validation", "valid" if report.ok else f"{plural(len(report.errors), 'unrepaired error')}")),
            charts=(tier_chart,),
            tables=(DataTable(name="defects", title="Validation", columns=("severity", "what was found", "repaired"),
                              rows=defects, note="" if defects else "No defect found."),),
        ))
    if scores is not None and scores.scores:
        frame = scores.to_frame()
        summary["scores"] = scores.to_dict()
        mod = np.array([s.modified for s in scores.scores], dtype=float)
        orig = np.array([s.original for s in scores.scores], dtype=float)
        heads.append(HeadlineNumber("modified", "mean modified score of the peers", float(np.nanmean(mod)),
                                    interval_note=f"{plural(len(mod), 'peer')}, from {np.nanmin(mod):.3f} to "
                                                  f"{np.nanmax(mod):.3f}; scored {_convention(scores.convention)}"))
        heads.append(HeadlineNumber("original", "mean original score of the peers", float(np.nanmean(orig))))
        long = pd.DataFrame(
            [{"peer": _short(s.peer), "score": kind, "value": getattr(s, kind)} for s in scores.scores
             for kind in ("original", "modified") if math.isfinite(getattr(s, kind))])
        chart_list: list[Chart] = []
        if len(long):
            chart_list.append(Chart("peer_scores", "Scores of each peer", charts.bar_chart(
                long, category="peer", value="value", color="score", title_value="score",
                tooltip=["peer:N", "score:N", "value:Q"], domain=(0, 1))))
        rows = tuple((_short(s.peer), s.raw, s.n_pses, s.n_scus_expressed, s.original, s.x_a_used, s.modified,
                      s.reason or "") for s in scores.scores)
        tables = [DataTable(name="peer_scores", title="Peer scores",
                            columns=("peer", "raw", "PSEs", "SCUs expressed", "original", "Xₐ used", "modified",
                                     "note"), rows=rows,
                            kinds=("text", "num", "num", "num", "num", "num", "num", "text"))]
        paras = [f"{len(frame)} peer summar{'y' if len(frame) == 1 else 'ies'} scored against the pyramid "
                 f"{_convention(scores.convention)}."]
        if pyr is not None and pyr.n_models >= 2:
            with prog.step("jackknife"):
                try:
                    jk = jackknife_scores(pyr, peers, convention=convention)
                except AccordError as exc:
                    paras.append(f"No jackknife: {exc}")
                    jk = None
            if jk is not None:
                tables.append(DataTable(
                    name="model_scores", title="Each model against the pyramid of the others",
                    columns=("model", "original", "modified"),
                    rows=tuple((_short(s.peer), s.original, s.modified) for s in jk.model_scores),
                    kinds=("text", "num", "num"),
                    caption="How a human summary scores: peers far below the models' range need a look."))
        elif pyr is not None:
            prog.add(-1)
        sections.append(Section(id="peers", title="Peer scores", paragraphs=tuple(paras), charts=tuple(chart_list),
                                tables=tuple(tables)))
    elif pyr is not None:
        prog.add(-1)
    name = getattr(pyr, "name", None) if pyr is not None else None
    return Report(title=title or f"Pyramid {name or ''}".strip(), kind="pyramid", headline=tuple(heads),
                  headline_notes=tuple(notes), sections=tuple(sections), summary=summary,
                  subtitle=(f"{plural(pyr.n_models, 'model')}, {plural(len(pyr.scus), 'SCU')}, "
                            f"{plural(len(peers), 'peer')}" if pyr is not None
                            else f"{plural(len(scores.scores), 'peer')}"))


_CONVENTIONS = {
    "paper": "as Passonneau (2010) defines the scores",
    "pyreval": "as PyrEval computes the scores",
    "ducview-1.5": "as DUCView 1.5 computes the scores",
    "ducview-1.4": "as DUCView 1.4 computes the scores",
    "nist-duc": "as NIST scored DUC 2006 and 2007 (DUCView 1.4)",
    "sacrerouge": "as SacreROUGE computes the scores",
}


def _convention(name: Any) -> str:
    return _CONVENTIONS.get(str(name), f"by the convention {name}")


def _short(name: Any) -> str:
    s = value_label(name)
    return s.rsplit("/", 1)[-1]
