"""The agreement report of reliability data or of an alpha result."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from accord._shared.errors import plural
from accord._shared.progress import progress_for
from accord.reporting._agreement import MAX_ROWS, agreement_parts, check_report_options
from accord.reporting._page import HeadlineNumber, Report, Section
from accord.reporting._words import describe_distance, threshold_words

__all__ = ["agreement_report"]


def agreement_report(
    data: Any,
    *,
    title: str | None = None,
    distance: Any = None,
    coefficients: str = "all",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
) -> Report:
    """The full agreement report of :class:`accord.Annotations`, or the headline and uncertainty of an
    :class:`accord.AlphaResult` (a result carries no coders, so the coder sections need the data).

    *distance* None is the nominal distance by default: numbers that look like a scale get a note with alpha
    under the ordered distances (:func:`accord.scale_hint`)."""
    from accord.coefficients._alpha import AlphaResult

    if isinstance(data, AlphaResult):
        return _alpha_result_report(data, title=title, bootstrap=bootstrap, seed=seed, confidence=confidence)
    from accord.distances import get_distance

    dist = get_distance("nominal" if distance is None else distance)  # None: nominal, by default (not chosen)
    prog = progress_for(progress)
    parts = agreement_parts(data, distance=dist.name if isinstance(distance, str) else distance,
                            coefficients=coefficients, bootstrap=bootstrap, seed=seed, confidence=confidence,
                            max_rows=max_rows, progress=prog)
    name = data.source or "annotations"
    return Report(
        title=title or f"Reliability of {name}",
        subtitle=f"{plural(data.n_coders, 'coder')}, {data.n_units:,} units, {data.n_entries:,} values; "
                 f"distance {dist.name}",
        kind="agreement",
        headline=parts.headline,
        headline_notes=parts.notes,
        sections=parts.sections,
        summary=parts.summary,
    )


def _alpha_result_report(res: Any, *, title: str | None, bootstrap: int, seed: int | None,
                         confidence: float) -> Report:
    from accord.reporting._agreement import _uncertainty_section

    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=1)
    from accord.reporting._agreement import bootstrap_interval
    from accord.reporting._words import seed_words

    interval = samples = None
    note = "no interval: the bootstrap was turned off for this page"
    if bootstrap and math.isfinite(res.alpha):
        interval, samples, why = bootstrap_interval(res, confidence=confidence, bootstrap=bootstrap, seed=seed)
        note = (f"{confidence * 100:g}% bootstrap interval: {bootstrap:,} resamples of units, {seed_words(seed)}"
                if interval is not None else f"no interval: {why}")
    words, level = threshold_words(res.alpha, interval)
    head = HeadlineNumber("alpha", "Krippendorff's alpha", res.alpha, interval, note, words, level)
    sections = [Section(id="data", title="The data", paragraphs=(
        f"{res.n_units:,} units, {res.n_pairable_units:,} pairable, {res.n_pairable:,} pairable values, "
        f"{plural(res.n_coders, 'coder')}. This page was made from a result; make it from the data "
        "(accord.report(annotations, path)) for the coder and unit sections.",))]
    if samples is not None and interval is not None:
        sections.append(_uncertainty_section(samples, res.alpha, interval, confidence, bootstrap, seed, "unit"))
    summary = {"alpha": res.to_dict()}
    if interval is not None:
        summary["confidence_interval"] = list(interval)
    values = res._values if res._values is not None else np.array([])
    return Report(title=title or "Reliability (alpha result)", kind="agreement", headline=(head,),
                  headline_notes=(describe_distance(res.distance, values),), sections=tuple(sections),
                  summary=summary)
