"""The coreference report: alpha over the mentions both ways (Passonneau 2004), per document, the standard
scores (MUC, B3, CEAF, BLANC, LEA) against a key or between coders, and the chains that split or merge."""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.names import CONLL, COREF_METRICS
from accord._shared.progress import progress_for
from accord.reporting import _charts as charts
from accord.reporting._agreement import MAX_ROWS, agreement_parts, bootstrap_interval, check_report_options
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Report, Section
from accord.reporting._words import describe_distance, seed_words, threshold_words, value_label

__all__ = ["MentionWords", "coref_report"]

MAX_DOCUMENTS = 100


class MentionWords:
    """How the page names mentions and chains: a mention is its words (told apart by their sentence, or by
    their order, where a document holds the same words twice), its document and its sentence; a chain is the
    words of its mentions in the order of the text.  A mention the input gives no words for is its id with
    ``(no text in the input)`` (in a chain, its id alone).

    Examples
    --------
    >>> from accord.coref import example_passonneau2004
    >>> w = MentionWords(example_passonneau2004())
    >>> w.name("fig1", "A"), w.name("fig1", "F"), w.where("fig1", "F")
    ('Gov. Price Daniel', 'it (sentence 3)', ('fig1', '3'))
    >>> w.chain("fig1", ["D", "A"])
    'Gov. Price Daniel; Daniel'
    """

    def __init__(self, data: Any) -> None:
        frame = data.mention_texts()
        self.has_sentences = bool(frame["sentence"].notna().any())
        self._name: dict[tuple[Hashable, Hashable], str] = {}
        self._short: dict[tuple[Hashable, Hashable], str] = {}
        self._where: dict[tuple[Hashable, Hashable], tuple[str, str]] = {}
        self._rank: dict[tuple[Hashable, Hashable], int] = {}
        for doc, grp in frame.groupby("document", sort=False):
            texts = grp["text"].tolist()
            sentences = grp["sentence"].tolist()
            same_text = Counter(t for t in texts if t is not None)
            same_place = Counter((t, s) for t, s in zip(texts, sentences, strict=True) if t is not None)
            seen: Counter = Counter()
            for rank, (m, t, sent) in enumerate(zip(grp["mention"].tolist(), texts, sentences, strict=True)):
                key = (doc, m)
                self._rank[key] = rank
                self._where[key] = (value_label(doc), "" if sent is None else value_label(sent))
                if t is None:
                    self._short[key] = _mention_id(m).removeprefix("mention ")
                    self._name[key] = f"{_mention_id(m)} (no text in the input)"
                    continue
                text = " ".join(str(t).split())
                if same_text[t] == 1:
                    self._name[key] = text
                elif sent is not None and same_place[(t, sent)] == 1:
                    self._name[key] = f"{text} (sentence {value_label(sent)})"
                else:
                    seen[(t, sent)] += 1
                    place = f" in sentence {value_label(sent)}" if sent is not None else ""
                    self._name[key] = f"{text} ({_ordinal(seen[(t, sent)])}{place})"

    def name(self, document: Hashable, mention: Hashable) -> str:
        return self._name.get((document, mention), _mention_id(mention))

    def where(self, document: Hashable, mention: Hashable) -> tuple[str, str]:
        """The document and the sentence (empty where unknown)."""
        return self._where.get((document, mention), (value_label(document), ""))

    def chain(self, document: Hashable, mentions: Any) -> str:
        """The mentions' names in the order of the text, joined by semicolons."""
        ordered = sorted(mentions, key=lambda m: self._rank.get((document, m), 0))
        return "; ".join(self._short.get((document, m)) or self.name(document, m) for m in ordered)


def _mention_id(m: Any) -> str:
    """A mention the input gives no words for: its id as the input wrote it, a span as its two ends."""
    if isinstance(m, tuple) and m and all(isinstance(x, (int, float)) for x in m):
        ends = [value_label(x) for x in m]
        return "span " + ", ".join(f"{a}–{b}" for a, b in zip(ends[::2], ends[1::2], strict=False))
    return f"mention {value_label(m)}"


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def coref_report(
    data: Any,
    *,
    title: str | None = None,
    key: Any = None,
    set_distance: str = "set-relation",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
    distance: str | None = None,
) -> Report:
    """The report of :class:`accord.CorefAnnotations` (``key``: an optional one-coder key annotation)."""
    from accord.coref._alpha import default_convention
    from accord.coref._model import CorefAnnotations
    from accord.coref._report import CorefReliability, coref_reliability
    from accord.data._annotations import Annotations
    from accord.distances import get_distance

    if isinstance(data, CorefReliability):
        raise AccordError("a coreference report needs the annotations (CorefAnnotations), not a CorefReliability: "
                          "per-document alpha and the chains that split or merge come from the data")
    if not isinstance(data, CorefAnnotations):
        raise AccordError(f"data must be accord.CorefAnnotations; got {type(data).__name__}")
    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    set_name = get_distance(distance or set_distance).name
    prog = progress_for(progress)
    prog.add(4)
    dists = ("nominal",) if set_name == "nominal" else ("nominal", set_name)
    with prog.step("coreference alpha"):
        rel = coref_reliability(data, distances=dists, key=key)
    heads: list[HeadlineNumber] = []
    summary: dict[str, Any] = {"alpha": {}, "confidence_intervals": {}}
    samples: dict[str, np.ndarray] = {}
    for dist in dists:
        conv = default_convention(dist)
        res = rel.alpha[dist][conv]
        interval = None
        note = f"value of a mention: {'its class' if conv == 'classes' else 'its class less the mention'}"
        if bootstrap and math.isfinite(res.alpha):
            with prog.step(f"bootstrap {dist}: {bootstrap} resamples of {plural(rel.n_documents, 'document')}"):
                interval, boot, why = bootstrap_interval(res, confidence=confidence, bootstrap=bootstrap, seed=seed,
                                                         what="coreference alpha")
            if interval is not None and boot is not None:
                samples[dist] = boot
                note += (f"; {confidence * 100:g}% bootstrap interval over documents, {bootstrap:,} resamples, "
                         f"{seed_words(seed)}")
                summary["confidence_intervals"][dist] = list(interval)
            else:
                note += f"; no interval: {why}"
        elif not bootstrap:
            note += "; no interval: the bootstrap was turned off for this page"
        words, level = threshold_words(res.alpha, interval)
        heads.append(HeadlineNumber(key=f"alpha_{dist}", label=f"alpha, {dist}", value=res.alpha, interval=interval,
                                    interval_note=note, words=words, level=level))
        summary["alpha"][dist] = res.to_dict()
    notes = [describe_distance(d, np.array([]), set_valued=True) for d in dists]
    notes.append("Passonneau (2004): each mention is a unit and its value is the chain (class of mentions) a coder "
                 "put it in; the nominal reading counts any difference of chains as full disagreement, the set "
                 "distance gives credit for chains that overlap.")

    conv = default_convention(set_name)
    with prog.step("mention-level records"):
        recs = data.reliability_records(convention=conv)
        ann = Annotations.from_records(recs, unit="unit", coder="coder", value="value")
        words = MentionWords(data)
        others = _chain_of_each_mention(data, words)
    unit_columns = ("mention", "document", "sentence") if words.has_sentences else ("mention", "document")

    def unit_label(unit: tuple[Hashable, Hashable]) -> tuple[str, ...]:
        doc, sent = words.where(*unit)
        return (words.name(*unit), doc, sent) if words.has_sentences else (words.name(*unit), doc)

    parts = agreement_parts(ann, distance=set_name, coefficients="alpha", bootstrap=0, max_rows=max_rows,
                            progress=prog, unit_word="mention", headline=False, per_value=False,
                            unit_columns=unit_columns, unit_label=unit_label,
                            cell_label=lambda u, c: others.get((c, u), ""),
                            cell_caption="Each coder's cell lists the other mentions that coder put in the "
                                         "mention's chain, in the order of the text; alone: a chain of its own.")
    sections = [s for s in parts.sections if s.id != "uncertainty"]
    sections.insert(0, _overview(rel, data))
    with prog.step("per-document alpha"):
        sections.append(_documents(data, set_name, conv))
    with prog.step("scores and chains"):
        sections.append(_scores(data, rel, key))
        sections.append(_split_merge(data, key, max_rows, words))
    boot_charts = []
    for h, dist in zip(heads, dists, strict=True):
        if dist in samples and h.interval is not None and np.isfinite(samples[dist]).any():
            boot_charts.append(Chart(f"bootstrap_{dist}", f"Bootstrap distribution of alpha, {dist}",
                                     charts.bootstrap_chart(samples[dist], estimate=h.value, interval=h.interval),
                                     caption="Resampling documents; the interval is marked in red."))
    sections.append(Section(id="uncertainty", title="Uncertainty", facts=tuple(
        Fact(f"{confidence * 100:g}% interval, {h.label}", h.shown_interval or "none",
             h.interval_note.split("; ", 1)[-1]) for h in heads),
        paragraphs=("Mentions cannot be resampled one by one (a mention's value is its whole chain), so the "
                    "intervals resample documents; with one document there is none.",), charts=tuple(boot_charts)))
    return Report(
        title=title or f"Coreference reliability of {', '.join(map(str, data.coders))}",
        subtitle=f"{plural(len(data.documents), 'document')}, {data.n_mentions:,} mentions, "
                 f"{plural(len(data.coders), 'coder')}",
        kind="coreference", headline=tuple(heads), headline_notes=tuple(notes), sections=tuple(sections),
        summary=summary,
    )


def _overview(rel: Any, data: Any) -> Section:
    rows = []
    for dist, by_conv in rel.alpha.items():
        for conv, res in by_conv.items():
            rows.append((dist, "its class" if conv == "classes" else "its class less the mention",
                         float(res.alpha), float(res.observed_disagreement), float(res.expected_disagreement)))
    first = next(iter(rel.alpha.values()))["classes"]
    policy = {"singleton": "each is a chain of its own for the coders who lack it",
              "missing": "each is left out for the coders who lack it"}.get(rel.missing_mentions, "")
    facts = (Fact("documents", rel.n_documents), Fact("mentions", rel.n_mentions),
             Fact("mentions coded by two or more", first.n_pairable_units),
             Fact("distinct chains", first.n_classes),
             Fact("mentions only some coders have", rel.n_partial_mentions, policy if rel.n_partial_mentions else ""))
    return Section(id="coref", title="Coreference alpha", facts=facts, tables=(DataTable(
        name="coref_alpha", title="Alpha under both value conventions",
        columns=("distance", "value of a mention", "alpha", "observed disagreement", "expected disagreement"),
        rows=tuple(rows), kinds=("text", "text", "num", "num", "num")),))


def _documents(data: Any, dist: str, conv: str) -> Section:
    from accord.coref._alpha import coref_alpha
    from accord.coref._model import CorefAnnotations

    docs = list(data.documents)
    if len(docs) < 2:
        return Section(id="documents", title="Per document",
                       paragraphs=("One document: its alpha is the headline.",))
    recs = data.to_records()
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        for doc in docs[:MAX_DOCUMENTS]:
            sub = recs[recs["document"] == doc]
            try:
                one = CorefAnnotations.from_records(sub, missing_mentions="missing")
                a = coref_alpha(one, distance=dist, convention=conv).alpha  # type: ignore[arg-type]
            except AccordError:
                a = math.nan
            rows.append({"document": value_label(doc), "alpha": a if math.isfinite(a) else None,
                         "mentions": int(sub["mention"].nunique()),
                         "why": "" if math.isfinite(a) else "alpha is undefined on this document alone"})
    df = pd.DataFrame(rows)
    notes = (f"{plural(len(docs), 'document')}: the first {MAX_DOCUMENTS} are "
             "shown.",) if len(docs) > MAX_DOCUMENTS else ()
    shown = df.dropna(subset=["alpha"])
    chart_list = ()
    if len(shown):
        chart_list = (Chart("documents", f"Alpha of each document ({dist})", charts.bar_chart(
            shown, category="document", value="alpha", title_value="alpha",
            tooltip=[("document:N", "document"), ("alpha:Q", "alpha"), ("mentions:Q", "mentions")],
            thresholds=True), caption="Documents far below the others are where the guidelines were read "
                                      "differently."),)
    return Section(id="documents", title="Per document", charts=chart_list, notes=notes, tables=(DataTable(
        name="documents", title="Per-document alpha", columns=("document", "alpha", "mentions", "note"),
        rows=tuple((r["document"], r["alpha"], r["mentions"], r["why"]) for r in rows),
        kinds=("text", "num", "num", "text")),))


def _pairs(data: Any, key: Any) -> list[tuple[str, Any, str, Any]]:
    """(name A, partition A, name B, partition B): each coder against the key, or each pair of coders."""
    if key is not None:
        kp = key.partition(key.coders[0])
        return [("key", kp, str(c), data.partition(c)) for c in data.coders]
    coders = list(data.coders)
    return [(str(a), data.partition(a), str(b), data.partition(b))
            for i, a in enumerate(coders) for b in coders[i + 1:]]


def _scores(data: Any, rel: Any, key: Any) -> Section:
    from accord.coref._scores import coref_scores

    if key is not None:
        scored = {f"{c} vs key": s for c, s in rel.scores.items()}
        intro = "Each coder scored against the key."
    else:
        scored = {}
        for a_name, a, b_name, b in _pairs(data, None):
            try:
                scored[f"{b_name} vs {a_name}"] = coref_scores(a, b)
            except AccordError:
                continue
        intro = ("No key was given, so each pair of coders is scored, the first coder as the key (F1 is symmetric "
                 "for MUC, B³ and CEAF; recall and precision swap).")
    rows = []
    for pair, sc in scored.items():
        for metric, name in COREF_METRICS.items():
            s = getattr(sc, metric)
            rows.append({"pair": pair, "metric": name, "recall": s.recall, "precision": s.precision, "f1": s.f1})
        rows.append({"pair": pair, "metric": CONLL, "recall": None, "precision": None, "f1": sc.conll_f1})
    if not rows:
        return Section(id="scores", title="MUC, B³, CEAF, BLANC, LEA", paragraphs=(intro, "No pair could be scored."))
    df = pd.DataFrame(rows)
    chart = Chart("coref_scores", "F1 of each metric", charts.bar_chart(
        df.dropna(subset=["f1"]).replace({CONLL: "CoNLL F1"}), category="metric", value="f1", color="pair",
        title_value="F1", tooltip=[("pair:N", "pair"), ("metric:N", "metric"), ("recall:Q", "recall"),
                                   ("precision:Q", "precision"), ("f1:Q", "F1")], domain=(0, 1)))
    table = DataTable(name="coref_scores", title="Scores", columns=("pair", "metric", "recall", "precision", "F1"),
                      rows=tuple(tuple(r.values()) for r in rows), kinds=("text", "text", "num", "num", "num"))
    return Section(id="scores", title="MUC, B³, CEAF, BLANC, LEA", paragraphs=(intro,), charts=(chart,),
                   tables=(table,))


def _split_merge(data: Any, key: Any, max_rows: int, words: MentionWords) -> Section:
    """Chains of A that B splits, and chains of B that merge several of A's."""
    rows: list[tuple[Any, ...]] = []
    for a_name, a, b_name, b in _pairs(data, key):
        for doc, a_chains in a.items():
            b_chains = b.get(doc, [])
            where_b = {m: i for i, ch in enumerate(b_chains) for m in ch}
            where_a = {m: i for i, ch in enumerate(a_chains) for m in ch}
            for ch in a_chains:
                if len(ch) < 2:
                    continue
                groups = {where_b.get(m, -1) for m in ch}
                if len(groups) > 1:
                    pieces = [words.chain(doc, [m for m in ch if where_b.get(m, -1) == g]) for g in groups]
                    pieces.sort(key=lambda piece: piece.lower())
                    rows.append(("split", value_label(doc), a_name, b_name, words.chain(doc, ch), len(groups),
                                 f"{b_name} keeps apart: " + " | ".join(pieces)))
            for ch in b_chains:
                groups = {where_a.get(m, -1) for m in ch}
                if len(ch) >= 2 and len(groups) > 1:
                    rows.append(("merge", value_label(doc), a_name, b_name, words.chain(doc, ch), len(groups),
                                 f"{b_name} joins what {a_name} keeps in {plural(len(groups), 'chain')}"))
    note = ""
    if len(rows) > max_rows:
        note = f"Showing {max_rows:,} of {len(rows):,} split or merged chains."
    rows.sort(key=lambda r: -r[5])
    n_split = sum(r[0] == "split" for r in rows)
    return Section(id="chains", title="Chains that split or merge", paragraphs=(
        f"{plural(n_split, 'chain is', 'chains are')} split and {len(rows) - n_split} merged between "
        + ("each coder and the key." if key is not None else "pairs of coders.")
        + " These are the decisions to adjudicate first: a split is a link one side missed, a merge a link one "
          "side added. A chain is written as its mentions in the order of the text, separated by semicolons; the "
          "pieces of a split by a bar.",),
        tables=(DataTable(name="chains", title="Split and merged chains",
                          columns=("what", "document", "A", "B", "chain", "pieces", "how"),
                          rows=tuple(rows[:max_rows]), kinds=("text", "text", "text", "text", "text", "num", "text"),
                          note=note),))


def _chain_of_each_mention(data: Any, words: MentionWords) -> dict[tuple[Hashable, Any], str]:
    """(coder, (document, mention)) -> the other mentions of the chain the coder put the mention in, in words
    ("alone" for a chain of its own)."""
    out: dict[tuple[Hashable, Any], str] = {}
    for coder in data.coders:
        for doc in data.documents:
            for ch in data.classes(doc, coder):
                for m in ch:
                    rest = [x for x in ch if x != m]
                    out[(coder, (doc, m))] = words.chain(doc, rest) if rest else "alone"
    return out
