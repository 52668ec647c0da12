"""The 'humans and models' page: may each model replace the human annotators (the alternative annotator test of
Calderon, Reichart & Dror 2025), omega and rho with their per-human detail, agreement among the humans and with
each model added, and the list of items where a model departs from a (near-)unanimous human panel."""

from __future__ import annotations

import math
import warnings
from typing import Any

from accord._shared.errors import AccordError, AccordWarning
from accord._shared.progress import progress_for
from accord.reporting._agreement import MAX_ROWS
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Report, Section

__all__ = ["accepts", "models_report"]

#: the distance of the panel's alpha that fits each score
PANEL_DISTANCE = {"accuracy": "nominal", "neg_rmse": "interval", "rank": "ordinal", "jaccard": "jaccard"}


def accepts(obj: Any) -> bool:
    """Whether *obj* is an alternative annotator test's result (which gets this page without the data's
    sections)."""
    from accord.models_vs_humans import AltTestResult

    return isinstance(obj, AltTestResult)


def models_report(
    data: Any,
    *,
    models: Any = None,
    title: str | None = None,
    epsilon: float = 0.2,
    alpha: float = 0.05,
    scoring: Any = "auto",
    min_items: int = 30,
    min_humans: int = 3,
    distance: str | None = None,
    max_dissent: int = 1,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
    **_ignored: Any,
) -> Report:
    """The humans-and-models page of :class:`accord.Annotations` with *models* marked (or of an import), or of
    an :class:`accord.AltTestResult` alone (then without the agreement and adjudication sections, which need
    the annotations).  Options a humans-and-models page has no use for (``bootstrap``, ``seed``,
    ``confidence``, given to every kind by ``accord report``) are ignored."""
    from accord.models_vs_humans import alt_test, panel_agreement, panel_departures
    from accord.models_vs_humans._alt_test import _check

    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1:
        raise AccordError(f"max_rows must be a positive integer; got {max_rows!r}")
    prog = progress_for(progress)
    if accepts(data):
        result, agreement, departures, notes, source = data, None, None, [], data.source
    else:
        from accord.reporting import _imported as imported_kind

        if imported_kind.accepts(data):
            data = data.annotations
        from accord.data._annotations import as_annotations

        data = as_annotations(data)
        if models is None:
            raise AccordError("a humans-and-models page needs models= (the coders that are models; --models)")
        _check(epsilon, alpha, scoring, min_items, min_humans)
        prog.add(3)
        with prog.step("alternative annotator test"):
            result = alt_test(data, models=models, epsilon=epsilon, alpha=alpha, scoring=scoring,
                              min_items=min_items, min_humans=min_humans)
        dist = distance or PANEL_DISTANCE.get(result.scoring, "nominal")
        if dist == "jaccard" and not data.is_set_valued:
            dist = "nominal"
        with prog.step("agreement among the humans"), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AccordWarning)
            agreement = panel_agreement(data, models=models, distance=dist)
        notes = list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AccordWarning)))
        with prog.step("departures from the panel"):
            departures = panel_departures(data, models=models, max_dissent=max_dissent)
        source = data.source
    heads = []
    for t in result.tests:
        if t.passes is None:
            words, level = f"undefined: {t.undefined_reason}", "neutral"
        elif t.passes:
            words = (f"passes: wins against {t.n_wins} of {t.n_humans} humans at epsilon {result.epsilon:g}; it may "
                     "replace them.")
            level = "good"
        else:
            words = (f"fails: wins against {t.n_wins} of {t.n_humans} humans at epsilon {result.epsilon:g} (half "
                     "are needed); keep the humans.")
            level = "poor"
        heads.append(HeadlineNumber(f"omega-{t.model}", f"{t.model}: winning rate omega", t.omega, words=words,
                                    level=level, interval_note=f"advantage probability rho = {_num(t.rho)}"))
    if agreement is not None:
        heads.append(HeadlineNumber("alpha-humans", "alpha among the humans", agreement.humans.alpha,
                                    interval_note=f"{agreement.n_humans} humans, distance {agreement.distance}"))
    sections = [_verdict_section(result), _per_human_section(result, max_rows)]
    if agreement is not None:
        sections.append(_agreement_section(agreement))
    if departures is not None:
        sections.append(_departures_section(departures, max_rows))
    sections.append(_guidance_section(result))
    summary: dict[str, Any] = {"alt_test": result.summary().to_dict("records"), "epsilon": result.epsilon,
                               "alpha": result.alpha, "scoring": result.scoring}
    if agreement is not None:
        summary["panel_agreement"] = agreement.to_frame().to_dict("records")
    if departures is not None:
        summary["departures"] = {str(k): v for k, v in departures.n_departures.items()}
    n_models = len(result.tests)
    return Report(
        title=title or f"Humans and models{f' in {source}' if source else ''}",
        subtitle=f"{len(result.humans)} humans, {n_models} model{'s' if n_models != 1 else ''}, "
                 f"{result.n_units:,} items; scoring {result.scoring}, epsilon {result.epsilon:g}, "
                 f"false discovery rate {result.alpha:g}",
        kind="models", headline=tuple(heads), headline_notes=tuple(notes), sections=tuple(sections),
        summary=summary,
    )


def _num(x: float) -> str:
    return "undefined" if x is None or math.isnan(x) else f"{x:.3f}"


def _verdict_section(result: Any) -> Section:
    rows = []
    for t in result.tests:
        verdict = "undefined" if t.passes is None else ("passes" if t.passes else "fails")
        rows.append((str(t.model), t.n_items, t.n_humans, t.n_wins, t.omega, t.rho, verdict,
                     t.undefined_reason or ""))
    table = DataTable(name="verdicts", title="Verdict per model",
                      columns=("model", "items", "humans tested", "wins", "omega", "rho", "verdict", "why undefined"),
                      rows=tuple(rows), kinds=("text", "num", "num", "num", "num", "num", "text", "text"),
                      caption="omega: the share of humans the model wins against (it passes at 0.5 or more); rho: "
                              "the mean advantage probability, the measure for comparing models.")
    best = result.best()
    paras = [
        "The alternative annotator test (Calderon, Reichart & Dror 2025) asks whether a model may replace the "
        "human annotators. Each human is left out in turn; item by item, whichever of the model and that human "
        "agrees better with the remaining humans wins the item (both win a tie). A one-sided t-test per human "
        f"asks whether the human's share of wins exceeds the model's by less than epsilon = {result.epsilon:g}, "
        "the model's cost-benefit advantage; the Benjamini-Yekutieli procedure controls the false discovery rate "
        f"({result.alpha:g}) across the humans. The model passes when it wins against at least half of them.",
    ]
    if best is not None and len(result.tests) > 1:
        paras.append(f"Of the models, {best.model} has the highest advantage probability (rho = {best.rho:.3f}): "
                     "rho compares models, omega decides whether one may replace the humans.")
    facts = (Fact("humans", len(result.humans)), Fact("epsilon", f"{result.epsilon:g}"),
             Fact("false discovery rate", f"{result.alpha:g}"), Fact("alignment score", result.scoring),
             Fact("least items per human", result.min_items))
    return Section(id="verdict", title="May a model replace the humans?", paragraphs=tuple(paras), facts=facts,
                   tables=(table,))


def _per_human_section(result: Any, max_rows: int) -> Section:
    rows = []
    skipped = []
    for t in result.tests:
        for c in t.comparisons:
            rows.append((str(t.model), str(c.human), c.n_items, c.rho_model, c.rho_human, _finite(c.t_statistic),
                         _finite(c.p_value), _finite(c.p_adjusted), "yes" if c.model_wins else "no", c.note or ""))
        skipped += [f"{t.model} was not tested against {s.human}: {s.reason} (it still serves as one of the remaining "
                    "humans)." for s in t.not_tested]
    table = DataTable(name="per-human", title="The model against each human left out",
                      columns=("model", "human", "items", "rho model", "rho human", "t", "p", "p (BY)",
                               "model wins", "note"),
                      rows=tuple(rows[:max_rows]), kinds=("text", "text", "num", "num", "num", "num", "num", "num",
                                                          "text", "text"), p_values=("p", "p (BY)"),
                      note="" if len(rows) <= max_rows else f"Showing {max_rows:,} of {len(rows):,} rows.",
                      caption="rho model: the share of the human's items where the model agrees with the other "
                              "humans at least as well as the human does; rho human: the reverse; p: the one-sided "
                              "t-test's p-value, p (BY): after the Benjamini-Yekutieli correction. An infinite t "
                              "(constant differences) shows as empty, with p 0 or 1.")
    charts = ()
    bars = [{"pair": f"{t.model} / {c.human}", "who": who, "rho": rho, "model": str(t.model), "human": str(c.human),
             "wins": "yes" if c.model_wins else "no"}
            for t in result.tests for c in t.comparisons
            for who, rho in ((str(t.model), c.rho_model), (str(c.human), c.rho_human))]
    if bars and len(bars) <= 2 * max_rows:
        import pandas as pd

        from accord.reporting._charts import bar_chart

        df = pd.DataFrame(bars)
        df["who"] = ["model" if w == m else "human" for w, m in zip(df["who"], df["model"], strict=True)]
        spec = bar_chart(df, category="pair", value="rho", title_value="rho",
                         tooltip=[("model:N", "model"), ("human:N", "human left out"), ("who:N", "who"),
                                  ("rho:Q", "rho"), ("wins:N", "model wins")],
                         color="who", domain=(0.0, 1.0))
        charts = (Chart(name="rho-per-human", title="Model and human, each human left out in turn", spec=spec,
                        caption="Per model and human left out: the share of the human's items where the model "
                                "agrees with the other humans at least as well as the human (model), and the "
                                "reverse (human). The model wins when the human's share exceeds its own by less "
                                f"than epsilon = {result.epsilon:g}, significantly."),)
    return Section(id="per-human", title="omega and rho, human by human", charts=charts, tables=(table,),
                   notes=tuple(skipped))


def _finite(x: float) -> float | None:
    return None if x is None or math.isnan(x) or math.isinf(x) else float(x)


def _agreement_section(agreement: Any) -> Section:
    frame = agreement.to_frame()
    rows = tuple((str(r.coders), float(r.alpha), float(r.change), int(r.n_pairable_units))
                 for r in frame.itertuples(index=False))
    table = DataTable(name="panel-agreement", title="Alpha among the humans, and with each model added",
                      columns=("coders", "alpha", "change", "pairable items"), rows=rows,
                      kinds=("text", "num", "num", "num"),
                      caption=f"Krippendorff's alpha, distance {agreement.distance}.")
    paras = ("Adding a model to alpha as one more coder says how it moves the agreement a reader of the data would "
             "see, not whether it may replace the humans: a model that agrees with the panel raises alpha, one that "
             "departs from it lowers it. The paper asks for the humans' agreement to be reported beside the test: "
             "with humans who agree little, a smaller epsilon is fairer.",)
    return Section(id="agreement", title="Agreement among the humans and with each model", paragraphs=paras,
                   tables=(table,))


def _departures_section(departures: Any, max_rows: int) -> Section:
    frame = departures.to_frame()
    rows = tuple((str(r.model), _plain(r.unit), _plain(r.model_value), _plain(r.panel_value), int(r.n_agree),
                  int(r.n_panel), "yes" if r.unanimous else "no") for r in frame.head(max_rows).itertuples(index=False))
    table = DataTable(name="departures", title="Items to adjudicate: a model departs from the human panel",
                      columns=("model", "item", "model's value", "panel's value", "humans agreeing", "humans",
                               "unanimous"),
                      rows=rows, kinds=("text", "text", "text", "text", "num", "num", "text"),
                      note="" if len(frame) <= max_rows else f"Showing {max_rows:,} of {len(frame):,} departures.")
    panel = "unanimous" if departures.max_dissent == 0 else f"unanimous or all but {departures.max_dissent} humans"
    lines = []
    for m in departures.models:
        k, n = departures.n_departures[m], departures.n_panel_items[m]
        lines.append(f"{m} departs from a {panel} panel on {k:,} of {n:,} items" + (f" ({k / n:.1%})." if n else "."))
    paras = ("Where the humans agree (all of them, or all but one) and a model gives another value, either the model "
             "is wrong where people are sure or the humans share a blind spot: adjudicate these items first, "
             "unanimous panels at the top.", *lines)
    return Section(id="departures", title="Where a model departs from the panel", paragraphs=paras, tables=(table,))


def _plain(x: Any) -> Any:
    if isinstance(x, frozenset):
        return ", ".join(sorted(map(str, x)))
    return x.item() if hasattr(x, "item") else x


def _guidance_section(result: Any) -> Section:
    from accord.models_vs_humans._guidance import EPSILON_RULES, ITEMS_ADVICE

    rule = ", ".join(f"{v:g} for {k}" for k, v in EPSILON_RULES.items())
    paras = (f"Epsilon is the model's cost-benefit advantage, chosen before the test: the paper suggests {rule}, "
             "and a smaller value when the humans agree little.",
             f"Items: {ITEMS_ADVICE}. The paper's simulation (its appendix C), which accord runs for your number "
             "of labels and humans, shows from how many items a model as reliable as a human passes at each "
             "epsilon; accord's documentation on humans and models says how to run it.")
    return Section(id="guidance", title="Choosing epsilon and the number of items", paragraphs=paras)
