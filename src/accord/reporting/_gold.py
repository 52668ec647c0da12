"""The gold-standard report: the noise bound gamma of the agreed items (Beigman Klebanov & Beigman 2009) against
the number of disagreements, the project's point on that curve, and what it means for comparing systems."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.progress import progress_for
from accord.reporting import _charts as charts
from accord.reporting._agreement import MAX_ROWS, agreement_parts, check_report_options
from accord.reporting._page import Chart, Fact, HeadlineNumber, Report, Section

__all__ = ["gold_report"]

_CURVE_POINTS = 60


def gold_report(
    data: Any,
    *,
    title: str | None = None,
    p: float | None = None,
    target_gamma: float = 0.05,
    incomplete: str = "error",
    unit: str = "unit",
    coder: str = "coder",
    value: str = "value",
    source: str | None = None,
    distance: str = "nominal",
    coefficients: str = "all",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
) -> Report:
    """The report of a long annotation table (``pandas.DataFrame``) read as a gold standard, or of a
    :class:`accord.GoldStandard` (then without the agreement sections, which need the annotations)."""
    from accord.data._annotations import Annotations
    from accord.noise._gold import GoldStandard, gold_standard

    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    prog = progress_for(progress)
    if isinstance(data, GoldStandard):
        gold, parts, warned = data, None, []
    else:
        if isinstance(data, Annotations):
            frame = data.to_frame()
            source = source or data.source
            unit, coder, value = "unit", "coder", "value"
        elif isinstance(data, pd.DataFrame):
            frame = data
            source = source or data.attrs.get("source")
        else:
            raise AccordError(f"a gold report reads a pandas.DataFrame, accord.Annotations or GoldStandard; got "
                              f"{type(data).__name__}")
        prog.add(1)
        with prog.step("gold standard and noise bound"), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AccordWarning)
            gold = gold_standard(frame, unit=unit, coder=coder, value=value, confidence=confidence,
                                 target_gamma=target_gamma, p=p, incomplete=incomplete)  # type: ignore[arg-type]
        warned = [str(w.message) for w in caught if issubclass(w.category, AccordWarning)]
        present = frame[[unit, coder, value]].dropna(subset=[value])
        ann = Annotations.from_records(present, unit=unit, coder=coder, value=value)
        parts = agreement_parts(ann, distance=distance, coefficients=coefficients, bootstrap=bootstrap, seed=seed,
                                confidence=confidence, max_rows=max_rows, progress=prog, unit_word="item",
                                coder_word="annotator")
    conf = f"{gold.confidence * 100:g}%"
    if math.isfinite(gold.gamma):
        good = gold.gamma <= gold.target_gamma
        words = (f"At {conf} confidence, at most {gold.gamma:.2%} of the {gold.n_agreed:,} agreed items "
                 f"({gold.bound.random_agreements if gold.bound else '?'} items) may be hard items the annotators "
                 f"agreed on by chance; the target is {gold.target_gamma:.0%}, so the gold standard "
                 + ("meets it." if good else "misses it."))
        level = "good" if good else "poor"
    else:
        words, level = f"The noise bound is undefined: {gold.reason}", "neutral"
    heads = [HeadlineNumber("gamma", f"noise bound gamma ({conf})", gold.gamma, words=words, level=level,
                            interval_note=f"p = {gold.p:.4g} ({gold.p_source}); n = {gold.n_items:,}, "
                                          f"d = {gold.n_disagreed:,}"),
             HeadlineNumber("k", "K (Siegel & Castellan)", gold.k.kappa,
                            interval_note="over all complete items (equation 2)")]
    summary: dict[str, Any] = {"gold": gold.to_dict()}
    notes: list[str] = list(dict.fromkeys(warned))
    sections: list[Section] = [_gold_section(gold)]
    if parts is not None:
        heads = [*heads, *parts.headline]
        notes += parts.notes
        sections += list(parts.sections)
        summary.update(parts.summary)
    return Report(
        title=title or f"Gold standard{f' from {source}' if source else ''}",
        subtitle=f"{gold.n_items:,} items, {plural(gold.n_annotators, 'annotator')}, "
                 f"{plural(gold.n_categories, 'category')}; "
                 f"{gold.n_agreed:,} agreed items kept",
        kind="gold", headline=tuple(heads), headline_notes=tuple(notes), sections=tuple(sections), summary=summary,
    )


def _gold_section(gold: Any) -> Section:
    from accord.noise import noise_bound

    facts = [Fact("items (n)", gold.n_items), Fact("disagreed (d)", gold.n_disagreed),
             Fact("agreed: the gold standard", gold.n_agreed), Fact("annotators", gold.n_annotators),
             Fact("categories", gold.n_categories), Fact(f"p ({gold.p_source})", f"{gold.p:.4g}",
                                                         "chance agreement on a hard item")]
    if gold.n_dropped_incomplete:
        facts.append(Fact("incomplete items left out", gold.n_dropped_incomplete))
    if gold.bound is not None:
        facts += [Fact(f"hard items at most (t0, {gold.confidence * 100:g}%)", gold.bound.t0),
                  Fact("agreed items that may be coin flips", gold.bound.random_agreements)]
    if gold.k_noise is not None:
        facts.append(Fact("noise implied by K", f"{gold.k_noise.noise:.2%}"))
    paras = ["Beigman Klebanov & Beigman (2009): every item is easy (all annotators agree) or hard (each annotator "
             "flips a coin); the disagreed items are all hard, and some agreed items are hard too. Gamma bounds "
             "the share of such coin-flip items in the gold standard of agreed items."]
    cd, cdn = gold.chance_difference, gold.chance_difference_normal
    if cd is not None:
        paras.append(
            f"Comparing systems on this gold standard: two systems must differ on more than {cd.bound:.1f} of the "
            f"{cd.n_items:,} items ({cd.fraction:.2%}, Chebyshev at {gold.confidence * 100:g}%"
            + (f"; {cdn.bound:.1f} items, {cdn.fraction:.2%}, with the normal approximation" if cdn else "")
            + ") before the difference can be told from the noise of the hard items; smaller differences may be "
              "the coin flips, not the systems.")
    if gold.tolerance is not None:
        most = gold.tolerance.max_disagreements
        paras.append(f"With {gold.n_items:,} items and this p, gamma stays at or below {gold.target_gamma:.0%} for "
                     + ("no number of disagreements." if most is None else f"at most {most:,} disagreements "
                        f"(the project has {gold.n_disagreed:,})."))
    if gold.reason:
        paras.append(f"Note: {gold.reason}")
    chart_list: tuple[Chart, ...] = ()
    n = gold.n_items
    if n >= 2 and math.isfinite(gold.p) and 0 < gold.p < 1:
        ds = np.unique(np.linspace(0, n - 1, min(n, _CURVE_POINTS)).round().astype(int))
        ds = np.unique(np.append(ds, min(gold.n_disagreed, n - 1)))
        rows = []
        for d in ds.tolist():
            try:
                g = noise_bound(n, d, gold.p, confidence=gold.confidence).gamma
            except AccordError:
                continue
            if math.isfinite(g):
                rows.append({"d": d, "gamma": g, "curve": f"gamma at {gold.confidence * 100:g}%, n = {n:,}, "
                                                          f"p = {gold.p:.3g}"})
        rows += [{"d": int(ds.min()), "gamma": gold.target_gamma, "curve": f"target {gold.target_gamma:.0%}"},
                 {"d": int(ds.max()), "gamma": gold.target_gamma, "curve": f"target {gold.target_gamma:.0%}"}]
        point = (pd.DataFrame([{"d": gold.n_disagreed, "gamma": gold.gamma}]) if math.isfinite(gold.gamma)
                 else None)
        chart_list = (Chart("gamma_against_d", "The noise bound against the number of disagreements",
                            charts.line_chart(pd.DataFrame(rows), x="d", y="gamma", series="curve",
                                              title_x="disagreed items d", title_y="noise bound gamma", x_counts=True,
                                              points=point, point_label="this project"),
                            caption="The diamond is this project; fewer disagreements (better guidelines, easier "
                                    "items) move it down the curve."),)
    return Section(id="gold", title="Gold standard", paragraphs=tuple(paras), facts=tuple(facts),
                   charts=chart_list)
