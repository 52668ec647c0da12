"""The span report: pairwise span F1 per label (a label x coder-pair matrix), token alpha and kappa, unitizing
alpha, every unmatched span shown in its text, and with ``gamma`` gamma (Mathet et al. 2015) with its best
alignment drawn per document; the token table goes through the agreement sections."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from accord._shared.errors import AccordError, plural
from accord._shared.progress import progress_for
from accord.reporting import _charts as charts
from accord.reporting._agreement import MAX_ROWS, agreement_parts, check_report_options
from accord.reporting._attributes import attributes_section
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Report, Section, fmt_number
from accord.reporting._words import seed_words, threshold_words

__all__ = ["accepts", "load_spans", "spans_report"]

_CONTEXT = 40
#: Documents whose best alignment is drawn (the most disordered first), and units drawn per document.
MAX_ALIGNMENT_CHARTS = 12
MAX_ALIGNMENT_UNITS = 600


def accepts(obj: Any) -> bool:
    """Whether *obj* is span annotations (:class:`accord.spans.SpanAnnotations`)."""
    from accord.data._spans import SpanAnnotations

    return isinstance(obj, SpanAnnotations)


def load_spans(inputs: list[Any], **o: Any) -> tuple[Any, dict[str, Any]]:
    """Read the span table (or a tool's export with ``tool``) as ``accord spans`` does; the report options."""
    from accord.spans._readers import read_span_input

    if len(inputs) != 1:
        raise AccordError(f"span reports read one file; got {len(inputs)}")
    data, _ = read_span_input(inputs[0], tool=o.get("tool"), field=o.get("field"), texts=o.get("texts"))
    return data, {"match": o.get("match", "exact"), "tokens": o.get("tokens", "whitespace")}


def _gamma_section(data: Any, g: Any, seed: Any) -> Section:
    """Gamma per document and the best alignment of the most disordered documents, drawn."""
    texts = data.texts
    frame = g.to_frame()
    docs = sorted(g.documents, key=lambda d: (-(d.observed_disorder if math.isfinite(d.observed_disorder) else -1),
                                              d.document))
    drawn = [d for d in docs if d.n_units][:MAX_ALIGNMENT_CHARTS]
    chart_list = []
    for d in drawn:
        f = frame[frame["document"] == d.document].sort_values(["start", "end"])
        cut = len(f) > MAX_ALIGNMENT_UNITS
        if cut:
            f = f.iloc[:MAX_ALIGNMENT_UNITS]
            f = frame[(frame["document"] == d.document) & frame["alignment"].isin(set(f["alignment"]))]
        text = texts.get(d.document)
        f = f.assign(
            text=[_covered(text, int(a), int(b)) if text else "" for a, b in zip(f["start"], f["end"], strict=True)],
            aligned=f["aligned"].astype(bool))
        partners = f.groupby("alignment")["annotator"].agg(lambda a: ", ".join(sorted(map(str, a))))
        f = f.assign(partners=[p if ok else "nobody (left alone)" for p, ok in
                               zip(f["alignment"].map(partners), f["aligned"], strict=True)])
        annotators = list(next(c for c in g._continua if c.document == d.document).annotators)
        row_of = {a: i for i, a in enumerate(annotators)}
        links = f[f["aligned"]]
        links = links.assign(middle=(links["start"] + links["end"]) / 2, row=links["annotator"].map(row_of))
        cols = ["annotator", "start", "end", "category", "alignment", "aligned", "disorder", "text", "partners"]
        spec = charts.alignment_chart(f[cols].reset_index(drop=True),
                                      links[["alignment", "annotator", "middle", "disorder", "row"]]
                                      .sort_values(["alignment", "row"]).reset_index(drop=True), annotators)
        how = " (windowed: an approximation)" if d.alignment == "windowed" else ""
        caption = (f"Gamma {fmt_number(d.gamma)}, observed disorder {fmt_number(d.observed_disorder)}{how}: "
                   f"{plural(d.n_units, 'unit')}, {plural(d.n_unitary_alignments, 'unitary alignment')}, "
                   f"{plural(d.n_unaligned, 'unit')} left "
                   "alone (red outline). Units joined by a line are aligned; a line that slants shows a shift, a "
                   "row without a bar where the others have one a miss, two bars of one annotator under one of "
                   "another a split.")
        if cut:
            caption += f" Showing the first {MAX_ALIGNMENT_UNITS} of its {d.n_units} units; zoom and drag to move."
        chart_list.append(Chart(f"gamma_alignment_{len(chart_list) + 1}", f"Best alignment of {d.document}", spec,
                                caption=caption))
    paras = [
        "Gamma (Mathet, Widlöcher & Métivier 2015) aligns the units of all annotators at once and prices both "
        "where they lie and what category they carry: 1 is perfect agreement, 0 is the agreement of chance "
        "(continua drawn at random from the annotations), below 0 worse than chance.",
        f"The expected disorder comes from {g.n_samples} {g.sampler} samples, {seed_words(seed)}; the interval "
        "is that of the sampling.",
    ]
    if g.approximate:
        paras.append("APPROXIMATE: some best alignments were too large for the exact program and were found by "
                     f"windows ({plural(sum(d.alignment == 'windowed' for d in g.documents), 'document')}, "
                     f"{g.n_windowed_samples} of {g.n_samples} samples); a windowed disorder is at least the exact "
                     "one.")
    if len(docs) > len(drawn):
        paras.append(f"The {len(drawn)} documents of most disorder are drawn; the table lists all {len(docs)}.")
    rows = tuple((d.document, d.n_annotators, d.n_units, d.gamma, d.observed_disorder, d.expected_disorder,
                  d.n_unitary_alignments, d.n_unaligned, d.alignment) for d in docs)
    facts = (Fact("gamma", g.gamma), Fact("gamma-cat (categories only, Mathet 2017)", g.gamma_cat),
             Fact("observed disorder", g.observed_disorder), Fact("expected disorder", g.expected_disorder),
             Fact("dissimilarity", g.dissimilarity))
    return Section(id="gamma", title="Gamma: the best alignment", paragraphs=tuple(paras), facts=facts,
                   charts=tuple(chart_list), tables=(DataTable(
                       name="gamma_documents", title="Gamma per document",
                       columns=("document", "annotators", "units", "gamma", "observed disorder", "expected disorder",
                                "unitary alignments", "left alone", "alignment"),
                       rows=rows, kinds=("text", "num", "num", "num", "num", "num", "num", "num", "text")),))


def _covered(text: str | None, start: int, end: int, given: str | None = None) -> str:
    """The text a span covers (its document's, else the text the input gave), or its offsets in words."""
    if text and 0 <= start < end <= len(text):
        return " ".join(text[start:end].split())
    if given:
        return " ".join(str(given).split())
    return f"characters {start}–{end}"


def _in_text(text: str | None, start: int, end: int) -> str:
    if not text:
        return ""
    lo, hi = max(0, start - _CONTEXT), min(len(text), end + _CONTEXT)
    return (("…" if lo > 0 else "") + text[lo:start] + "⟦" + text[start:end] + "⟧" + text[end:hi]
            + ("…" if hi < len(text) else "")).replace("\n", " ")


def spans_report(
    data: Any,
    *,
    title: str | None = None,
    match: str = "exact",
    tokens: str = "whitespace",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
    distance: str | None = None,
    gamma: bool = False,
    gamma_alignment: str = "auto",
) -> Report:
    """The report of :class:`accord.spans.SpanAnnotations` (numbers as ``accord spans --json``).

    With *gamma*, gamma (:func:`accord.spans.gamma`, seeded by *seed*, alignments as *gamma_alignment*
    says) is a headline number and its section draws the best alignment of each document.
    """
    from accord.spans._summary import span_statistics

    if not accepts(data):
        raise AccordError(f"data must be accord.spans.SpanAnnotations; got {type(data).__name__}")
    if match not in ("exact", "overlap"):
        raise AccordError(f"match must be 'exact' or 'overlap'; got {match!r}")
    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    prog = progress_for(progress)
    prog.add(1)
    with prog.step("span F1, token and unitizing alpha" + (f", {bootstrap} resamples" if bootstrap else "")):
        rep = span_statistics(data, match=match, tokens=tokens, bootstrap=bootstrap, confidence=confidence, seed=seed)
    f1, tok, uni, cis = rep["f1"], rep["tokens"], rep["unitizing"], rep["confidence_intervals"]

    def interval(name: str) -> tuple[tuple[float, float] | None, str]:
        ci = cis.get(name)
        if ci is None:
            return None, "no interval: bootstrap is off" if not bootstrap else ""
        if isinstance(ci, dict):
            return None, f"no interval: {ci['undefined_reason']}"
        note = f"{confidence * 100:g}% bootstrap interval, {bootstrap:,} resamples of documents, {seed_words(seed)}"
        return (float(ci[0]), float(ci[1])), note

    iv, note = interval("span micro F1")
    heads = [HeadlineNumber("micro_f1", f"span F1, {match} match (micro, mean over pairs)", f1.micro_f1, iv, note),
             HeadlineNumber("macro_f1", "span F1 (macro)", f1.macro_f1)]
    notes = ["Span F1 is symmetric between two coders (2 tp / (spans of a + spans of b)); it ignores agreement by "
             "chance, which token and unitizing alpha correct for."]
    summary: dict[str, Any] = {"f1": f1.to_dict(), "confidence_intervals": cis}
    if isinstance(tok, dict):
        notes.append(f"Token agreement is undefined: {tok['undefined_reason']}")
    else:
        iv, note = interval("token alpha")
        words, level = threshold_words(tok.alpha.alpha, iv)
        heads.append(HeadlineNumber("token_alpha", f"token alpha ({tok.tokenisation} tokens)", tok.alpha.alpha, iv,
                                    note, words, level))
        summary["token_agreement"] = tok.to_dict()
    if isinstance(uni, dict):
        notes.append(f"Unitizing alpha is undefined: {uni['undefined_reason']}")
    else:
        iv, note = interval("unitizing alpha")
        words, level = threshold_words(uni.alpha, iv, what="unitizing alpha")
        heads.append(HeadlineNumber("unitizing_alpha", "unitizing alpha (Krippendorff)", uni.alpha, iv, note, words,
                                    level))
        summary["unitizing_alpha"] = uni.to_dict()

    if gamma:
        from accord.spans import gamma as gamma_fn

        with prog.step("gamma: best alignments and chance samples"):
            g = gamma_fn(data, alignment=gamma_alignment, rng=seed)
        iv = None if g.undefined_reason else g.interval
        what = "gamma (Mathet et al. 2015)" + (", APPROXIMATE (windowed alignment)" if g.approximate else "")
        heads.append(HeadlineNumber(
            "gamma", what, g.gamma, iv,
            f"sampling interval, {g.n_samples} {g.sampler} samples, {seed_words(seed)}" if iv else
            f"undefined: {g.undefined_reason}",
            "1 is perfect agreement, 0 that of chance; gamma has no threshold of its own (Krippendorff's are "
            "for alpha)."))
        summary["gamma"] = g.to_dict()
    sections = [_f1_section(f1), _unmatched_section(data, f1, max_rows)]
    if gamma:
        sections.append(_gamma_section(data, g, seed))
    attributes, attributes_json = attributes_section(data, match=match, max_rows=max_rows)
    if attributes is not None:
        sections.append(attributes)
        summary["attributes"] = attributes_json
    if not isinstance(tok, dict) and tok._table is not None:
        parts = agreement_parts(tok._table, distance="nominal", coefficients="alpha", bootstrap=0,
                                max_rows=max_rows, progress=prog, unit_word="token", headline=False)
        sections += [s for s in parts.sections if s.id in ("data", "who")]
    sections.append(Section(
        id="uncertainty", title="Uncertainty",
        paragraphs=("Spans cannot be resampled one by one (a span's match depends on the others in its document), "
                    "so the intervals resample documents; with one document there is none.",),
        facts=tuple(Fact(f"{confidence * 100:g}% interval, {h.label}", h.shown_interval or "none", h.interval_note)
                    for h in heads if h.key != "macro_f1"),
    ))
    return Report(
        title=title or f"Span agreement{f' of {data.source}' if data.source else ''}",
        subtitle=f"{plural(len(data.documents), 'document')}, {len(data.spans):,} spans, "
                 f"{plural(len(data.coders), 'coder')}",
        kind="spans", headline=tuple(heads), headline_notes=tuple(notes), sections=tuple(sections), summary=summary,
    )


def _f1_section(f1: Any) -> Section:
    rows = []
    for p in f1.pairs:
        for s in p.labels:
            ok = math.isfinite(s.f1)
            rows.append({"pair": f"{p.coder_a} / {p.coder_b}", "label": s.label, "f1": s.f1 if ok else None,
                         "text": fmt_number(s.f1, 2) if ok else "", "precision": s.precision, "recall": s.recall,
                         "spans_a": s.n_a, "spans_b": s.n_b})
    chart_list: tuple[Chart, ...] = ()
    if rows:
        df = pd.DataFrame(rows)
        chart_list = (Chart("span_f1", "F1 per label and pair of coders", charts.heatmap_chart(
            df, x="label", y="pair", value="f1", text="text", domain=(0, 1), title="F1",
            tooltip=[("pair:N", "pair"), ("label:N", "label"), ("f1:Q", "F1"), ("precision:Q", "precision"),
                     ("recall:Q", "recall"), ("spans_a:Q", "spans of the first"), ("spans_b:Q", "spans of the other")]),
            caption="Labels with low F1 across pairs are the ones the guidelines leave open."),)
    table_rows = tuple((p.coder_a, p.coder_b, s.label, s.n_a, s.n_b, s.precision, s.recall, s.f1)
                       for p in f1.pairs for s in (*p.labels, p.micro, p.macro))
    facts = (Fact("documents seen by two or more coders", f1.n_documents), Fact("spans compared", f1.n_spans),
             Fact("spans in documents one coder saw", f1.n_spans_unshared), Fact("unmatched spans", len(f1.diagnosis)))
    return Section(id="f1", title="Spans: F1 per label", facts=facts, charts=chart_list, tables=(DataTable(
        name="span_scores", title="Precision, recall and F1 (coder b against coder a)",
        columns=("coder a", "coder b", "label", "spans a", "spans b", "precision", "recall", "F1"),
        rows=table_rows, kinds=("text", "text", "text", "num", "num", "num", "num", "num")),))


def _unmatched_section(data: Any, f1: Any, max_rows: int) -> Section:
    texts = data.texts
    rows = []
    for d in f1.diagnosis[:max_rows]:
        text = texts.get(d.document)
        other = ("" if d.other_label is None
                 else f"{_covered(text, d.other_start, d.other_end)} ({d.other_label})")
        rows.append((d.document, d.coder, d.other_coder, d.label, d.kind, _covered(text, d.start, d.end, d.text),
                     _in_text(text, d.start, d.end) or (d.text or ""), other))
    kinds = pd.Series([d.kind for d in f1.diagnosis]).value_counts().to_dict() if f1.diagnosis else {}
    note = f"Showing {max_rows:,} of {len(f1.diagnosis):,} unmatched spans." if len(f1.diagnosis) > max_rows else ""
    paras = ["Every span one coder marked and the other did not match, shown in its text (the span between ⟦ and "
             "⟧): 'missing' means nothing of the other coder overlaps it, 'boundary' the same label with other "
             "offsets, 'label' the same stretch with another label."]
    if kinds:
        paras.append("By kind: " + ", ".join(f"{k} {v}" for k, v in kinds.items()) + ".")
    if not texts:
        paras.append("The input gave no document texts, so a span is shown by the words it holds where the input "
                      "gave them, else by its character offsets.")
    return Section(id="fix", title="What to fix: unmatched spans", paragraphs=tuple(paras), tables=(DataTable(
        name="unmatched", title="Unmatched spans",
        columns=("document", "coder", "other coder", "label", "why", "span", "in the text", "other coder's span"),
        rows=tuple(rows), note=note),))
