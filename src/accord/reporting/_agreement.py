"""The report of reliability data (:class:`accord.Annotations`): headline, the data, who disagrees, what to fix,
uncertainty.

Every number comes from the estimators of accord (alpha, the kappa family, the
diagnostics); nothing here re-counts pairs.  Coreference, multi-label and gold
reports reuse these sections on the reliability data they imply.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning
from accord._shared.names import coefficient as coefficient_name
from accord._shared.progress import Progress, progress_for
from accord.coefficients._alpha import alpha, check_annotations
from accord.coefficients._diagnostics import coder_left_out, pairwise_agreement, unit_disagreement
from accord.coefficients._pairs import count_values
from accord.coefficients._registry import same_coefficients
from accord.data._annotations import Annotations
from accord.distances import Distance, get_distance
from accord.reporting import _charts as charts
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Section, fmt_number
from accord.reporting._words import describe_distance, fmt, plain, seed_words, threshold_words, value_label

__all__ = ["AgreementParts", "agreement_parts", "bootstrap_interval", "check_report_options", "gwet_interval",
           "kappa_interval"]

MAX_ROWS = 2000
MAX_CODERS_MATRIX = 40
MAX_CATEGORIES = 40
MAX_VALUES_SHOWN = 20
MAX_CODER_COLUMNS = 12



@dataclass(frozen=True)
class AgreementParts:
    """What the agreement report of one data set contributes to a page."""

    headline: tuple[HeadlineNumber, ...]
    notes: tuple[str, ...]
    sections: tuple[Section, ...]
    summary: dict[str, Any]


def check_report_options(*, bootstrap: int, confidence: float, max_rows: int) -> None:
    """One validation step for the options every report shares."""
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, (int, np.integer)) or bootstrap < 0:
        raise AccordError(f"bootstrap must be an integer >= 0; got {bootstrap!r}")
    if not (isinstance(confidence, (int, float)) and 0 < confidence < 1):
        raise AccordError(f"confidence must be in (0, 1); got {confidence!r}")
    if isinstance(max_rows, bool) or not isinstance(max_rows, (int, np.integer)) or max_rows < 1:
        raise AccordError(f"max_rows must be a positive integer; got {max_rows!r}")


def bootstrap_interval(res: Any, *, confidence: float, bootstrap: int, seed: int | None, what: str = "alpha",
                       progress: Any = None) -> tuple[tuple[float, float] | None, np.ndarray | None, str]:
    """The percentile interval of *res* (an alpha result) over its defined resamples, as its
    ``confidence_interval`` gives it, with the resamples; ``(None, samples, reason)`` when there is none."""
    from accord.coefficients._alpha import interval_over_defined

    try:
        boot = res._bootstrap(confidence, bootstrap, "percentile", seed, progress=progress)
    except AccordError as exc:
        return None, None, str(exc)
    samples = np.asarray(boot.bootstrap_distribution, dtype=float)
    try:
        lo, hi = interval_over_defined(boot, res.alpha, confidence_level=confidence, method="percentile", what=what)
    except AccordError as exc:
        return None, samples, str(exc)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None, samples, f"{what} is undefined on too many resamples to place the interval's ends"
    return (float(lo), float(hi)), samples, ""


def gwet_interval(res: Any, confidence: float) -> tuple[tuple[float, float] | None, str]:
    """Gwet's large-sample interval as the page gives it, and the sentence that says how it was made.

    Gwet's (2008) variance is a large-sample approximation: with few subjects rated twice, AC +/- t * se
    reaches past the coefficient's range.  :meth:`accord.GwetResult.confidence_interval` cuts the interval
    to [-1, 1] (a true value lies in that range, so cutting there loses no coverage) and refuses one subject;
    the page says when the cut was needed, since the interval then says little beyond the range itself.
    """
    from scipy import stats

    try:
        lo, hi = res.confidence_interval(confidence)
    except AccordError as exc:
        return None, f"no interval: {plain(str(exc))}"
    note = f"{confidence * 100:g}% large-sample interval (Student's t)"
    half = float(stats.t.ppf(0.5 + confidence / 2, res.n_units - 1)) * res.standard_error
    if res.ac - half < -1 or res.ac + half > 1:
        raw = f"[{res.ac - half:.3f}, {res.ac + half:.3f}]"
        note += (f", cut to the coefficient's range [-1, 1]: with {res.n_pairable_units} subject"
                 f"{'' if res.n_pairable_units == 1 else 's'} rated twice or more the large-sample approximation "
                 f"reaches {raw}, so the interval says little")
    return (float(lo), float(hi)), note


def kappa_interval(res: Any, confidence: float) -> tuple[tuple[float, float] | None, str]:
    """Cohen's large-sample interval as the page gives it: none where its standard error is 0 (a few units
    can give that, and an interval of no width would claim certainty), cut to [-1, 1] with a sentence where
    the normal approximation reaches past the range."""
    try:
        lo, hi = res.confidence_interval(confidence)
    except AccordError as exc:
        return None, f"no interval: {plain(str(exc))}"
    n = getattr(res, "n_units", None)
    on = f" on {n} unit{'' if n == 1 else 's'}" if n is not None else ""
    if not res.standard_error > 0:
        return None, (f"no interval: the large-sample standard error is 0{on}, and an interval of no width "
                      "would claim a certainty that few units cannot give")
    note = f"{confidence * 100:g}% large-sample interval"
    if lo < -1 or hi > 1:
        note += (f", cut to the coefficient's range [-1, 1]: the normal approximation{on} reaches "
                 f"[{lo:.3f}, {hi:.3f}], so the interval says little")
        lo, hi = max(-1.0, lo), min(1.0, hi)
    return (float(lo), float(hi)), note


def _value(res: Any) -> float:
    if hasattr(res, "forms"):  # the ten intraclass correlations: absolute agreement of one coder on the card
        return float(res["ICC(A,1)"].icc)
    for name in ("alpha", "kappa", "percent_agreement", "ac", "w", "ccc"):
        if hasattr(res, name):
            return float(getattr(res, name))
    return math.nan


def _left_out_words(name: str, why: str) -> str:
    """A coefficient ``accord agree --coefficient all`` leaves out, and why, as the page says it.

    Examples
    --------
    >>> _left_out_words("cohen", "needs exactly two coders; the data have 3")
    "Not computed: Cohen's kappa, which needs exactly two coders; the data have 3."
    """
    why = plain(str(why)).strip().rstrip(".")
    if why.startswith(("needs ", "is ")):
        return f"Not computed: {coefficient_name(name)}, which {why}."
    return f"Not computed: {coefficient_name(name)} ({why})."


def _light_interval(res: Any, confidence: float, bootstrap: int, seed: int | None, unit_word: str,
                    coder_word: str) -> tuple[tuple[float, float] | None, str]:
    """Light's kappa's bootstrap interval (the page's resamples and seed), and how it was made."""
    mean = (f"the mean of Cohen's kappa over the {len(res.pairs)} pairs of {coder_word}s, on the {res.n_units} "
            f"{unit_word}s every {coder_word} coded")
    if not bootstrap:
        return None, f"{mean}; no interval: the bootstrap was turned off for this page"
    try:
        lo, hi = res.confidence_interval(confidence, n_resamples=bootstrap, rng=seed)
    except AccordError as exc:
        return None, f"{mean}; no interval: {plain(str(exc))}"
    return (lo, hi), (f"{mean}; {confidence * 100:g}% bootstrap interval: {bootstrap:,} resamples of those "
                      f"{unit_word}s, {seed_words(seed)}")


def _cut(lo: float, hi: float, note: str, how: str) -> tuple[tuple[float, float], str]:
    """The interval cut to a correlation's range [-1, 1], the note saying so where it was needed."""
    if lo < -1 or hi > 1:
        note += (f", cut to the coefficient's range [-1, 1]: {how} reaches [{lo:.3f}, {hi:.3f}], so the interval "
                 "says little")
    return (max(-1.0, float(lo)), min(1.0, float(hi))), note


def _icc_interval(res: Any, confidence: float) -> tuple[tuple[float, float] | None, str]:
    """McGraw & Wong's (1996, Table 7) interval of ICC(A,1) as the page gives it."""
    try:
        lo, hi = res.confidence_interval(confidence)
    except AccordError as exc:
        return None, f"no interval: {plain(str(exc))}"
    note = (f"{confidence * 100:g}% interval of McGraw & Wong (1996): F with Satterthwaite's degrees of freedom, "
            f"on {res.n_units} units rated by all {res.n_coders} coders")
    return _cut(lo, hi, note, "the F approximation")


def _ccc_interval(res: Any, confidence: float) -> tuple[tuple[float, float] | None, str]:
    """Lin's (1989) interval of the CCC (two coders) as the page gives it."""
    if res.n_coders > 2:
        return None, f"no interval: Lin's (1989) interval is for two coders; the overall CCC here is of {res.n_coders}"
    try:
        lo, hi = res.confidence_interval(confidence)
    except AccordError as exc:
        return None, f"no interval: {plain(str(exc))}"
    return _cut(lo, hi, f"{confidence * 100:g}% interval of Lin (1989), through Fisher's z", "the approximation")


def _whole(x: float) -> float | int:
    """A degree of freedom as the page shows it: 18, not 18.000; Satterthwaite's 17.42 as it is."""
    return int(x) if math.isfinite(x) and float(x).is_integer() else x


def _icc_section(table: Any, confidence: float, unit_word: str, coder_word: str) -> Section:
    """The ten intraclass correlations of McGraw & Wong (1996), with their F tests and intervals."""
    rows = []
    for r in table.forms:
        defined = math.isfinite(r.icc)
        lo, hi = r.confidence_interval(confidence) if defined else (None, None)
        rows.append((r.form, r.model, r.type, "one coder" if r.unit == "single" else f"mean of {r.n_coders}",
                     r.shrout_fleiss or "", r.icc if defined else None, r.f_statistic if defined else None,
                     _whole(r.df1), _whole(r.df2), r.p_value if defined else None, lo, hi))
    level = f"{confidence * 100:g}%"
    dropped = (f" {table.n_units_dropped} {unit_word}s not rated by every {coder_word} are left out."
               if table.n_units_dropped else "")
    paras = (f"The analysis of variance of the {table.n_units} {unit_word}s rated by all {table.n_coders} "
             f"{coder_word}s gives McGraw & Wong's (1996) ten intraclass correlations, Shrout & Fleiss' (1979) six "
             f"among them.{dropped} Absolute agreement counts a {coder_word}'s systematic offset as disagreement; "
             "consistency does not. The two-way random and mixed models give the same numbers and differ in "
             f"what they generalise to: other {coder_word}s like these, or these {coder_word}s.",)
    tab = DataTable(
        name="intraclass_correlations", title="The ten forms", p_values=("p",),
        columns=("McGraw & Wong", "model", "type", "reliability of", "Shrout & Fleiss", "ICC", "F", "df1", "df2",
                 "p", f"{level} low", f"{level} high"),
        rows=tuple(rows), kinds=("text", "text", "text", "text", "text", "num", "num", "num", "num", "num", "num",
                                 "num"),
        caption="F tests of ICC = 0 and intervals of McGraw & Wong (1996, Tables 7-8): exact F for the one-way and "
                "consistency forms, Satterthwaite's degrees of freedom for absolute agreement.")
    return Section(id="icc", title="Intraclass correlations", paragraphs=paras, tables=(tab,))


def agreement_parts(
    data: Annotations,
    *,
    distance: str | Distance | None = None,
    coefficients: str = "all",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Progress | bool | None = None,
    unit_word: str = "unit",
    coder_word: str = "coder",
    headline: bool = True,
    per_value: bool = True,
    cell_label: Any = None,
    unit_columns: tuple[str, ...] | None = None,
    unit_label: Any = None,
    cell_caption: str = "",
) -> AgreementParts:
    """Headline numbers and the data / who disagrees / what to fix / uncertainty sections of *data*.

    ``coefficients`` is ``"all"`` (those that apply, as ``accord agree --coefficient all``) or a
    comma-separated list of the names of ``accord agree`` (or the names people type for them:
    krippendorff, cohen-kappa...); the numbers equal that command's ``--json`` output for the same
    options.  ``distance=None`` is the nominal distance by default, not chosen: when the values look like
    a scale, the notes say so with alpha under the ordinal and interval distances
    (:func:`accord.scale_hint`).  ``cell_label(unit, coder)``, if given, writes the
    value a coder gave in the adjudication list (e.g. primary label first), and ``cell_caption`` says
    how; ``unit_label(unit)`` writes the cells of the columns ``unit_columns`` that name a unit there
    (e.g. a mention's text, document and sentence).
    """
    from accord.coefficients._alpha import scale_hint
    from accord.coefficients._registry import compute, compute_chosen, kappas_that_apply, resolve

    data = check_annotations(data)
    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    chosen = distance is not None
    distance = "nominal" if distance is None else distance
    dist = get_distance(distance)
    coefficients = "all" if coefficients.strip().lower() == "all" else coefficients
    names = [resolve(c, extra=()) for c in coefficients.split(",")] if coefficients != "all" else []
    if "kappa" in names:
        which = kappas_that_apply(data, distance)
        listed = ", ".join(which) if which else "none"
        raise AccordError(f"coefficients: 'kappa' names no one coefficient; the kappas that apply to these data are "
                          f"{listed}: name them (or 'all')",
                          cli=f"--coefficient kappa names no one coefficient; the kappas that apply to these data are "
                              f"{listed}: name them, comma-separated (or all)")
    prog = progress_for(progress)
    prog.add(7 + (1 if bootstrap else 0))
    notes: list[str] = []
    left_out: dict[str, str] = {}
    with prog.step("coefficients"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        if coefficients == "all":  # what applies, as accord agree --coefficient all chooses it
            results, left_out = compute_chosen(data, "all", distance)
        else:
            results = {name: compute(data, name, distance) for name in names}
        if "alpha" not in results:  # the sections below are alpha's
            left_out.pop("alpha", None)
            results = {"alpha": compute(data, "alpha", distance), **results}
    notes += list(dict.fromkeys(plain(str(w.message)) for w in caught if issubclass(w.category, AccordWarning)))
    res_alpha = results["alpha"]
    interval = None
    samples = None
    interval_note = ""
    if bootstrap and math.isfinite(res_alpha.alpha) and res_alpha.n_pairable_units >= 2:
        what = f"bootstrap: {bootstrap} resamples of {res_alpha.n_pairable_units:,} {unit_word}s"
        with prog.step(what), prog.counter(what, bootstrap) as advance:
            interval, samples, why = bootstrap_interval(res_alpha, confidence=confidence, bootstrap=bootstrap,
                                                        seed=seed, progress=advance)
        interval_note = (f"{confidence * 100:g}% bootstrap interval: {bootstrap:,} resamples of {unit_word}s, "
                         f"{seed_words(seed)}") if interval is not None else f"no interval: {why}"
    elif not bootstrap:
        interval_note = "no interval: the bootstrap was turned off for this page"
    elif not math.isfinite(res_alpha.alpha):
        interval_note = "no interval: alpha is undefined"
    else:
        interval_note = (f"no interval: a bootstrap interval needs at least two {unit_word}s with two or more "
                         f"values; there {'is' if res_alpha.n_pairable_units == 1 else 'are'} "
                         f"{res_alpha.n_pairable_units}")

    heads: list[HeadlineNumber] = []
    summary: dict[str, Any] = {}
    twins = same_coefficients(results)
    if twins:
        notes.append(" ".join(f"{coefficient_name(new)} equals {coefficient_name(old)} on these data (every "
                              f"{coder_word} rated every {unit_word}): one card shows both." for old, new in twins))
    for name, res in results.items():
        summary[name] = res.to_dict()
        if name in dict(twins):
            continue
        label = coefficient_name(name, res)
        label += "".join(f" = {coefficient_name(old)}" for old, new in twins if new == name)
        v = _value(res)
        iv = interval if name == "alpha" else None
        note = interval_note if name == "alpha" else ""
        words, level = threshold_words(v, iv, what="alpha") if name == "alpha" else ("", "neutral")
        if name == "gwet" and math.isfinite(v):
            iv, note = gwet_interval(res, confidence)  # type: ignore[assignment]
        elif name in ("cohen", "conger", "brennan-prediger") and math.isfinite(v):
            iv, note = kappa_interval(res, confidence)  # type: ignore[assignment]
        elif name == "icc":
            label = "ICC(A,1), absolute agreement of one coder"
            if math.isfinite(v):
                iv, note = _icc_interval(res["ICC(A,1)"], confidence)
        elif name == "ccc" and math.isfinite(v):
            iv, note = _ccc_interval(res, confidence)
        elif name == "kendall-w" and math.isfinite(v):
            words = (f"Friedman's chi-square({res.df}) = {res.chi_square:.3f}, p = {res.p_value:.3g} "
                     f"({'tie-corrected' if res.tie_correction else 'no tie correction'}).")
        elif name == "light" and math.isfinite(v):
            iv, note = _light_interval(res, confidence, bootstrap, seed, unit_word, coder_word)
        if not math.isfinite(v):
            reason = getattr(res, "undefined_reason", None) or "the data do not define it"
            words = f"{label} is undefined: {plain(reason)}."
            note = ""
        heads.append(HeadlineNumber(key=name, label=label, value=v, interval=iv, interval_note=note,
                                    words=words, level=level))
    said = " ".join(h.words for h in heads)  # an undefined coefficient's card says why: not again below
    notes = [n for n in notes if not (" is undefined: " in n and n.split(" is undefined: ", 1)[1] in said)]
    if interval is not None:
        summary["confidence_interval"] = list(interval)
        summary["confidence_level"] = confidence
        summary["bootstrap_resamples"] = bootstrap
        summary["bootstrap_seed"] = seed
    if getattr(res_alpha, "note", None):
        notes.append(res_alpha.note)
    notes.insert(0, describe_distance(dist.name, data.values, set_valued=data.is_set_valued,
                                      order=getattr(dist, "order", None)))
    hint = None if chosen else scale_hint(data, distance=dist)
    if hint is not None:  # numbers read as nominal by default: the ordered distances, and how to ask for them
        notes.insert(1, _scale_words(hint))
        summary["scale_hint"] = hint.to_dict()
    else:
        others = _other_distances(data, dist)
        if others:
            notes.insert(1, others)
    notes += [_left_out_words(name, why) for name, why in left_out.items()]
    if left_out:
        summary["left_out"] = {name: str(why) for name, why in left_out.items()}
    if len(heads) > 1:
        notes.append("Krippendorff's thresholds (.800 reliable, .667 tentative) are stated for alpha; the other "
                     "coefficients are shown for comparison (percent agreement ignores chance).")

    sections = [
        _data_section(data, res_alpha, dist, prog, unit_word, coder_word, per_value),
        _who_section(data, dist, prog, coder_word, per_value, unit_word),
        _fix_section(data, dist, prog, max_rows, unit_word, coder_word, per_value, cell_label,
                     unit_columns, unit_label, cell_caption),
    ]
    if "icc" in results:
        sections.append(_icc_section(results["icc"], confidence, unit_word, coder_word))
    if samples is not None and interval is not None:
        sections.append(_uncertainty_section(samples, res_alpha.alpha, interval, confidence, bootstrap, seed,
                                             unit_word))
    else:
        sections.append(Section(id="uncertainty", title="Uncertainty", paragraphs=(interval_note,)))
    return AgreementParts(headline=tuple(heads) if headline else (), notes=tuple(notes),
                          sections=tuple(sections), summary=summary)


#: How to read numbers as a scale, on the command line and in Python: the one command-line hint a page carries,
#: because a nominal default on ratings is a wrong number nobody chose (issue 28)
SCALE_FLAGS = '--distance ordinal (or --distance interval for equally spaced ones; in Python, distance="ordinal")'


def _scale_words(hint: Any) -> str:
    """The report's words for :class:`accord.ScaleHint`: both the command line's flag and Python's keyword."""
    what = f"{hint.n_numbers} numbers from {fmt(hint.low)} to {fmt(hint.high)}"
    return (f"These values look like a scale ({what}{', written as text' if hint.as_text else ''}), and they were "
            f"read as unordered categories: the nominal distance is the default, not a choice. Alpha is "
            f"{fmt_number(hint.nominal)} nominal, {fmt_number(hint.ordinal)} ordinal and "
            f"{fmt_number(hint.interval)} interval. If the values are ordered ratings, make this page again with "
            f"{SCALE_FLAGS}.")


def _other_distances(data: Annotations, used: Distance) -> str:
    """Alpha with the other levels of measurement, for numeric values or text labels in a given order (cheap:
    one count, four distances)."""
    order = getattr(used, "order", None)
    from accord.distances._scalar import number_labels

    numeric = data.values.dtype.kind != "b" and not data.is_set_valued and number_labels(data.values) is not None
    if data.is_set_valued or not (numeric or order is not None) or len(data.values) < 3:
        return ""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        for name in ("nominal", "ordinal", "interval", "ratio"):
            if name == used.name:
                continue
            try:
                other = get_distance(name, order=order) if order is not None and name != "nominal" else name
                out.append(f"{name} {fmt_number(alpha(data, distance=other).alpha)}")
            except AccordError:
                continue
    return ("For comparison, alpha with the other distances: " + ", ".join(out) + ".") if out else ""


# ---------------------------------------------------------------------------------------------------- the data
def _value_names(data: Annotations) -> list[str]:
    return [value_label(v) for v in data.values]


def _named(dist: str | Distance) -> str:
    return getattr(dist, "name", dist)  # type: ignore[return-value]


def _data_section(data: Annotations, res: Any, dist_name: str | Distance, prog: Progress, unit_word: str,
                  coder_word: str, per_value: bool = True) -> Section:
    with prog.step("the data"):
        per_unit = np.bincount(data.unit_index, minlength=data.n_units)
        facts = [
            Fact(f"{unit_word}s", data.n_units),
            Fact(f"{coder_word}s", data.n_coders),
            Fact("values given", data.n_entries),
            Fact("missing cells", data.n_units * data.n_coders - data.n_entries,
                 f"of {data.n_units * data.n_coders:,} ({coder_word}s x {unit_word}s)"),
            Fact(f"pairable {unit_word}s", res.n_pairable_units, f"{unit_word}s with two or more values"),
            Fact(f"{unit_word}s with one value", int(np.count_nonzero(per_unit == 1)),
                 f"{res.n_unpairable_values} value{'' if res.n_unpairable_values == 1 else 's'} left out of alpha"),
            Fact(f"{unit_word}s with no value", int(np.count_nonzero(per_unit == 0))),
            Fact("distinct values", len(data.values)),
        ]
        if data.n_missing:
            facts.append(Fact("cells given as missing in the input", data.n_missing))
        names = _value_names(data)
        counts = np.zeros((data.n_coders, len(data.values)), dtype=np.int64)
        np.add.at(counts, (data.coder_index, data.value_index), 1)
        keep, other = _top_values(counts.sum(axis=0))
        rows = []
        order = 0
        for c in range(data.n_coders):
            for k in keep:
                if counts[c, k]:
                    rows.append({"coder": value_label(data.coders[c]), "value": names[k], "count": int(counts[c, k]),
                                 "_order": order})
                    order += 1
            if len(other) and counts[c, other].sum():
                rows.append({"coder": value_label(data.coders[c]), "value": "other",
                             "count": int(counts[c, other].sum()), "_order": order})
                order += 1
        chart_list = []
        if rows and data.n_coders <= 200 and per_value:
            df = pd.DataFrame(rows)
            chart_list.append(Chart(
                "values_per_coder", f"Values per {coder_word}",
                charts.stacked_bars_chart(df, y="coder", x="count", color="value", title_x="values given"),
                caption=f"How many values each {coder_word} gave, split by value"
                        + (f" (the {len(keep)} most frequent; the rest as 'other')." if len(other) else "."),
            ))
    paras = [f"{data.n_entries:,} values from {data.n_coders} {coder_word}s on {data.n_units:,} {unit_word}s"
             + (f" (read from {data.source})." if data.source else ".")]
    return Section(id="data", title="The data", paragraphs=tuple(paras), facts=tuple(facts),
                   charts=tuple(chart_list))


def _top_values(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if len(totals) <= MAX_VALUES_SHOWN:
        return np.arange(len(totals)), np.array([], dtype=np.int64)
    order = np.argsort(-totals, kind="stable")
    return np.sort(order[:MAX_VALUES_SHOWN]), order[MAX_VALUES_SHOWN:]


# ---------------------------------------------------------------------------------------------- who disagrees
def _who_section(data: Annotations, dist_name: str | Distance, prog: Progress, coder_word: str, per_value: bool,
                 unit_word: str = "unit") -> Section:
    chart_list: list[Chart] = []
    paras: list[str] = []
    notes: list[str] = []
    coders = [value_label(c) for c in data.coders]
    if data.n_coders > MAX_CODERS_MATRIX:
        notes.append(f"{data.n_coders} {coder_word}s: the {coder_word} x {coder_word} matrix and the "
                     f"left-out alphas are drawn for at most {MAX_CODERS_MATRIX}.")
        prog.add(-2)
    else:
        with prog.step(f"{coder_word} pairs"):
            pairs = pairwise_agreement(data, distance=dist_name)
        rows = []
        for i in range(len(coders)):
            for j in range(len(coders)):
                if i == j:
                    continue
                a = float(pairs.alpha[i, j])
                rows.append({"coder_a": coders[i], "coder_b": coders[j], "alpha": a if math.isfinite(a) else None,
                             "text": fmt_number(a, 2) if math.isfinite(a) else "",
                             "percent_agreement": float(pairs.percent_agreement[i, j])
                             if math.isfinite(pairs.percent_agreement[i, j]) else None,
                             "shared_units": int(pairs.n_shared_units[i, j])})
        if rows:
            df = pd.DataFrame(rows)
            chart_list.append(Chart(
                "coder_pairs", f"Alpha of each pair of {coder_word}s",
                charts.heatmap_chart(df, x="coder_a", y="coder_b", value="alpha", text="text",
                                     x_order=coders, y_order=coders,
                                     tooltip=[("coder_a:N", coder_word), ("coder_b:N", f"other {coder_word}"),
                                              ("alpha:Q", "alpha"), ("percent_agreement:Q", "percent agreement"),
                                              ("shared_units:Q", f"shared {unit_word}s")]),
                caption=f"On the {unit_word}s both coded (distance {_named(dist_name)}); a cell is empty where alpha "
                        f"is undefined (the pair shares no {unit_word}, or agrees on a single value).",
            ))
            finite = df.dropna(subset=["alpha"])
            if len(finite):
                worst = finite.sort_values("alpha").iloc[0]
                paras.append(f"The pair that agrees least is {worst.coder_a} and {worst.coder_b} "
                             f"(alpha {worst.alpha:.3f} on {worst.shared_units} shared {unit_word}s).")
        if data.n_coders >= 3:
            with prog.step(f"alpha with each {coder_word} left out"):
                lo = coder_left_out(data, distance=dist_name)
            ldf = pd.DataFrame({"coder": coders, "alpha_without": lo.alpha_without, "change": lo.change})
            ldf = ldf.sort_values("change", ascending=False, kind="stable")
            chart_list.append(Chart(
                "coder_left_out", f"Alpha with each {coder_word} left out",
                charts.bar_chart(ldf.dropna(), category="coder", value="alpha_without",
                                 title_value=f"alpha without this {coder_word}",
                                 tooltip=[("coder:N", coder_word),
                                          ("alpha_without:Q", f"alpha without this {coder_word}"),
                                          ("change:Q", "change")],
                                 reference=lo.alpha_all, reference_label=f"alpha, all {coder_word}s"),
                caption=f"A bar right of the dashed line: agreement rises without that {coder_word}.",
            ))
            top = ldf.dropna().iloc[0] if ldf["change"].notna().any() else None
            if top is not None and top.change > 0:
                paras.append(f"Leaving {top.coder} out raises alpha most, from {lo.alpha_all:.3f} to "
                             f"{top.alpha_without:.3f}.")
        else:
            prog.add(-1)
    if per_value:
        with prog.step("distributions"):
            chart_list.append(_distribution(data, coders, coder_word))
    else:
        prog.add(-1)
    return Section(id="who", title="Who disagrees", paragraphs=tuple(paras), charts=tuple(chart_list),
                   notes=tuple(notes))


def _distribution(data: Annotations, coders: list[str], coder_word: str = "coder") -> Chart:
    names = _value_names(data)
    counts = np.zeros((data.n_coders, len(data.values)), dtype=np.int64)
    np.add.at(counts, (data.coder_index, data.value_index), 1)
    keep, other = _top_values(counts.sum(axis=0))
    cols = [counts[:, k] for k in keep] + ([counts[:, other].sum(axis=1)] if len(other) else [])
    labels = [names[k] for k in keep] + (["other"] if len(other) else [])
    table = np.stack(cols, axis=1).astype(float)
    pooled = table.sum(axis=0) / max(table.sum(), 1)
    show = np.argsort(-table.sum(axis=1), kind="stable")[:MAX_CODERS_MATRIX]
    rows = [{"coder": "all (pooled)", "value": lab, "share": float(pooled[j]), "pooled": float(pooled[j]),
             "difference": 0.0, "label": f"{pooled[j]:.0%}"} for j, lab in enumerate(labels)]
    for c in show:
        tot = table[c].sum()
        if tot == 0:
            continue
        for j, lab in enumerate(labels):
            s = table[c, j] / tot
            rows.append({"coder": coders[c], "value": lab, "share": float(s), "pooled": float(pooled[j]),
                         "difference": float(s - pooled[j]), "label": f"{s:.0%}"})
    return Chart("value_distribution", f"Each {coder_word}'s values against the pooled distribution",
                 charts.distribution_chart(pd.DataFrame(rows)),
                 caption=f"Share of each value per {coder_word}; orange: uses it more than all {coder_word}s "
                         "together, blue: less.")


# ------------------------------------------------------------------------------------------------ what to fix
def per_category_alpha(data: Annotations) -> pd.DataFrame:
    """Alpha of each value against all others (the data recoded as 'this value' / 'any other value').

    For set values, each label against its absence ('the set holds this label' / 'it does not').

    Examples
    --------
    >>> d = Annotations.from_matrix([["a", "a", "b", "c"], ["a", "a", "b", "b"]])
    >>> per_category_alpha(d)["value"].tolist()
    ['a', 'b', 'c']
    """
    if data.is_set_valued:
        labels = sorted({x for v in data.values for x in v}, key=lambda x: (str(type(x)), str(x)))
        member = [np.array([lab in v for v in data.values]) for lab in labels]
        names = [value_label(lab) for lab in labels]
    else:
        member = [np.arange(len(data.values)) == k for k in range(len(data.values))]
        names = [value_label(v) for v in data.values]
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        for name, m in zip(names, member, strict=True):
            coded = m[data.value_index].astype(np.int64)
            binary = replace(data, value_index=coded, values=np.array([0, 1]))
            try:
                a = alpha(binary, distance="nominal").alpha
            except AccordError:
                a = math.nan
            rows.append({"value": name, "alpha": a, "n_values": int(coded.sum())})
    return pd.DataFrame(rows)


def _fix_section(data: Annotations, dist_name: str | Distance, prog: Progress, max_rows: int, unit_word: str,
                 coder_word: str, per_value: bool, cell_label: Any = None, unit_columns: Any = None,
                 unit_label: Any = None, cell_caption: str = "") -> Section:
    chart_list: list[Chart] = []
    tables: list[DataTable] = []
    paras: list[str] = []
    notes: list[str] = []
    if not per_value:
        prog.add(-1)
    elif len(data.values) <= MAX_CATEGORIES or (data.is_set_valued
                                                and len({x for v in data.values for x in v}) <= MAX_CATEGORIES):
        with prog.step("per-category agreement"):
            cat = per_category_alpha(data)
        shown = cat.assign(alpha=cat["alpha"].where(np.isfinite(cat["alpha"]))).dropna(subset=["alpha"])
        if len(shown):
            chart_list.append(Chart(
                "per_category", "Agreement on each value",
                charts.bar_chart(shown, category="value", value="alpha", title_value="alpha, this value vs the rest",
                                 tooltip=[("value:N", "value"), ("alpha:Q", "alpha"), ("n_values:Q", "uses")],
                                 thresholds=True),
                caption="Nominal alpha of the data recoded as 'this value' or 'any other' (set values: 'holds "
                        "this label' or not); the dashed lines are Krippendorff's .667 and .800.",
            ))
            low = shown.sort_values("alpha").iloc[0]
            paras.append(f"The value {coder_word}s agree on least is {low.value} (alpha {low.alpha:.3f} against the "
                         f"rest, {low.n_values} uses): its definition is the first to clarify in the guidelines.")
    else:
        prog.add(-1)
        notes.append(f"{len(data.values)} distinct values: per-value agreement is shown for at most "
                     f"{MAX_CATEGORIES}.")
    with prog.step("adjudication list"):
        table, text = adjudication_table(data, dist_name, max_rows=max_rows, unit_word=unit_word,
                                         coder_word=coder_word, cell_label=cell_label, unit_columns=unit_columns,
                                         unit_label=unit_label, cell_caption=cell_caption)
    tables.append(table)
    paras.append(text)
    return Section(id="fix", title="What to fix", paragraphs=tuple(paras), charts=tuple(chart_list),
                   tables=tuple(tables), notes=tuple(notes))


def adjudication_table(data: Annotations, dist_name: str | Distance, *, max_rows: int = MAX_ROWS,
                       unit_word: str = "unit",
                       coder_word: str = "coder", cell_label: Any = None, unit_columns: Any = None,
                       unit_label: Any = None, cell_caption: str = "") -> tuple[DataTable, str]:
    """The units ranked by observed disagreement, with the value each coder gave: the adjudication list.

    Only units with some disagreement are listed, at most *max_rows* of them (a note says how many more).
    """
    ud = unit_disagreement(data, distance=dist_name)
    uc = count_values(data)
    order = np.argsort(-ud.disagreement, kind="stable")
    disagreeing = order[ud.disagreement[order] > 0]
    n_dis = len(disagreeing)
    shown = disagreeing[:max_rows]
    unit_ids = uc.unit_ids[shown]
    starts = np.searchsorted(data.unit_index, unit_ids, side="left")
    ends = np.searchsorted(data.unit_index, unit_ids, side="right")
    wide = data.n_coders <= MAX_CODER_COLUMNS
    coder_names = [value_label(c) for c in data.coders]
    value_names = _value_names(data)
    unit_columns = tuple(unit_columns) if unit_columns else (unit_word,)
    columns = ["rank", *unit_columns, "disagreement", "share of all disagreement", "values"]
    kinds = ["num", *(["text"] * len(unit_columns)), "num", "num", "num"]
    if wide:
        columns += coder_names
        kinds += ["text"] * len(coder_names)
    else:
        columns.append("values given")
        kinds.append("text")
    rows = []
    for r, (k, s, e) in enumerate(zip(shown.tolist(), starts.tolist(), ends.tolist(), strict=True)):
        named = tuple(unit_label(ud.units[k])) if unit_label is not None else (value_label(ud.units[k]),)
        row: list[Any] = [r + 1, *named, float(ud.disagreement[k]), float(ud.share[k]), int(ud.n_values[k])]
        cs = data.coder_index[s:e]
        vs = data.value_index[s:e]
        unit = data.units[uc.unit_ids[k]]
        given = [(c, value_names[v] if cell_label is None else cell_label(unit, data.coders[c]))
                 for c, v in zip(cs.tolist(), vs.tolist(), strict=True)]
        if wide:
            cells: list[Any] = [None] * data.n_coders
            for c, label in given:
                cells[c] = label
            row += cells
        else:
            row.append("; ".join(f"{coder_names[c]}: {label}" for c, label in given))
        rows.append(tuple(row))
    n_pairable = len(ud.units)
    note = ""
    if n_dis > len(shown):
        note = (f"Showing the {len(shown):,} {unit_word}s with most disagreement of {n_dis:,} that have any; the "
                "rest are left out to keep the page light (a page made with a higher limit on rows lists more).")
    top_share = float(ud.share[disagreeing[: max(1, n_dis // 10)]].sum()) if n_dis else 0.0
    text = (f"{n_dis:,} of {n_pairable:,} pairable {unit_word}s show some disagreement"
            + (f"; the top tenth of them carry {top_share:.0%} of the observed disagreement." if n_dis >= 10 else ".")
            + f" Adjudicate from the top of the list: sort by any column, filter by {coder_word} or value, and "
              "export to CSV.")
    table = DataTable(name="adjudication", title="Adjudication list", columns=tuple(columns), rows=tuple(rows),
                      kinds=tuple(kinds), note=note,
                      caption=f"Disagreement: mean distance ({_named(dist_name)}) over the pairs of values in the "
                              f"{unit_word}; share: its part of all the disagreement observed."
                              + (f" {cell_caption}" if cell_caption else ""))
    return table, text


# ------------------------------------------------------------------------------------------------ uncertainty
def _uncertainty_section(samples: np.ndarray, estimate: float, interval: tuple[float, float], confidence: float,
                         bootstrap: int, seed: int | None, unit_word: str) -> Section:
    finite = samples[np.isfinite(samples)]
    dropped = len(samples) - len(finite)
    paras = [f"Alpha recomputed on {bootstrap:,} resamples of the pairable {unit_word}s (drawn with replacement, "
             f"each keeping all its values; {seed_words(seed)}). The {confidence * 100:g}% "
             f"percentile interval is [{interval[0]:.3f}, {interval[1]:.3f}], {interval[1] - interval[0]:.3f} wide."]
    if len(finite):
        for t in (0.8, 0.667):
            share = float(np.mean(finite >= t))
            paras.append(f"{share:.0%} of the resamples reach {t:.3f}".replace("0.", ".", 1) + ".")
    notes = (f"{dropped} resamples with undefined alpha (all values equal) are left out.",) if dropped else ()
    return Section(
        id="uncertainty", title="Uncertainty", paragraphs=tuple(paras),
        charts=(Chart("bootstrap", "Bootstrap distribution of alpha",
                      charts.bootstrap_chart(samples, estimate=estimate, interval=interval),
                      caption="The interval is marked in red; drag to pan, scroll to zoom."),),
        notes=notes,
    )
