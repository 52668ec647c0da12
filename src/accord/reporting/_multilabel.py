"""The multi-label report: augmented kappa K' (Rosenberg & Binkowski 2004) at p with its interval, K' against p
with the four classes of items, and the label sets read with MASI (Passonneau 2006) through the agreement
sections."""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

import numpy as np

from accord._shared.errors import AccordError, AccordWarning, plural
from accord._shared.names import ITEM_CLASSES
from accord._shared.progress import progress_for
from accord.reporting._agreement import MAX_ROWS, agreement_parts, check_report_options
from accord.reporting._page import Chart, DataTable, Fact, HeadlineNumber, Report, Section
from accord.reporting._words import seed_words, threshold_words, value_label

__all__ = ["multilabel_annotations", "multilabel_report"]

_RULES = {
    "pair": "a primary label weighs p and a secondary 1 - p, as the paper has it",
    "geometric": "each label of a list takes p of the weight the labels before it left, the last the rest",
    "primary-rest": "the primary label weighs p and the others share 1 - p",
}
# the paper's four classes, numbered as in its section 6
_CLASS_TITLES = {k: f"{ITEM_CLASSES[k]} (class {i})" for i, k in enumerate(list(ITEM_CLASSES)[:4], 1)}


def multilabel_annotations(data: Any) -> Any:
    """The label sets as :class:`accord.Annotations` (one frozenset per item and annotator), as ``masi_alpha``
    reads them."""
    from accord.data._annotations import Annotations

    frame = data.to_frame()
    sets = frame.groupby(["item", "annotator"], sort=False)["label"].agg(frozenset).reset_index()
    return Annotations.from_records(list(sets.itertuples(index=False, name=None)))


def multilabel_report(
    data: Any,
    *,
    title: str | None = None,
    p: float = 0.6,
    rule: str = "pair",
    tolerance: float = 0.1,
    high: float = 0.6,
    distance: str = "masi-2006",
    bootstrap: int = 1000,
    seed: int | None = None,
    confidence: float = 0.95,
    max_rows: int = MAX_ROWS,
    progress: Any = None,
) -> Report:
    """The report of :class:`accord.MultiLabelData`."""
    from accord.multilabel import (
        MultiLabelData,
        augmented_kappa,
        augmented_kappa_sweep,
        bootstrap_augmented_kappa,
    )

    if not isinstance(data, MultiLabelData):
        raise AccordError(f"data must be accord.MultiLabelData; got {type(data).__name__}")
    check_report_options(bootstrap=bootstrap, confidence=confidence, max_rows=max_rows)
    prog = progress_for(progress)
    prog.add(3)
    notes: list[str] = []
    with prog.step("augmented kappa"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AccordWarning)
        res = augmented_kappa(data, p=p, rule=rule)  # type: ignore[arg-type]
        sweep = augmented_kappa_sweep(data, rule=rule)  # type: ignore[arg-type]
        classes = sweep.classify(tolerance=tolerance, high=high)
    notes += list(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, AccordWarning)))
    interval = None
    samples = None
    note = "no interval: bootstrap is off"
    if bootstrap and math.isfinite(res.kappa):
        with prog.step(f"bootstrap K': {bootstrap} resamples of {plural(res.n_items, 'item')}"):
            iv = bootstrap_augmented_kappa(data, p=p, rule=rule, confidence_level=confidence,  # type: ignore[arg-type]
                                           n_resamples=bootstrap, rng=seed)
        interval = (iv.low, iv.high)
        note = (f"{confidence * 100:g}% bootstrap interval ({iv.method}), {bootstrap:,} resamples of items, "
                f"{seed_words(seed)}")
        samples = iv.bootstrap_distribution
    else:
        prog.add(-1)
    k_head = HeadlineNumber(
        key="kappa", label=f"augmented kappa K' (p = {p:g})", value=res.kappa, interval=interval,
        interval_note=note,
        words=(f"K' weighs the primary label {p:g} and the secondary {1 - p:g}"
               + ("" if res.n_annotators == 2 else f"; the mean over {len(res.pairs) - res.n_pairs_undefined} "
                  "pairs of annotators") + "."),
    )
    ann = multilabel_annotations(data)
    ranked = data.to_frame()  # items, then annotators, then rank (primary first)
    order = {key: " > ".join(value_label(x) for x in grp["label"])
             for key, grp in ranked.groupby(["item", "annotator"], sort=False)}
    parts = agreement_parts(ann, distance=distance, coefficients="alpha", bootstrap=bootstrap, seed=seed,
                            confidence=confidence, max_rows=max_rows, progress=prog, unit_word="item",
                            coder_word="annotator", cell_label=lambda u, c: order.get((u, c), ""))
    a = parts.headline[0]
    words, level = threshold_words(a.value, a.interval)
    masi_head = HeadlineNumber(key="masi_alpha", label=f"alpha, {distance} on the label sets", value=a.value,
                               interval=a.interval, interval_note=a.interval_note, words=words, level=level)
    summary = {"augmented_kappa": res.to_dict(), "masi_alpha": parts.summary["alpha"]}
    if interval is not None:
        summary["confidence_interval"] = list(interval)
    if a.interval is not None:
        summary["masi_alpha_interval"] = list(a.interval)

    with prog.step("K' against p"):
        from accord.multilabel._plot import sweep_chart
        from accord.reporting._charts import responsive_legends

        spec = sweep_chart(sweep, classes=classes, title="").properties(width="container", height=260).to_dict()
        spec.pop("$schema", None)
        spec.pop("title", None)  # the figure's caption names it; a title would be cut on a phone
        spec = responsive_legends(spec)
        sweep_chart_ = Chart("kappa_against_p", "K' against p, overall and per class of items", spec,
                             caption=f"This report's K' is the value at p = {p:g}. Rosenberg & Binkowski (2004), "
                                     "section 6: items whose agreement does not move with p are constant; the "
                                     "others agree better on the primary alone (p = 1) or with the secondary "
                                     "(p = 0.5).")
    pairs = DataTable(name="kappa_pairs", title="K' of each pair of annotators",
                      columns=("annotator A", "annotator B", "items", "p(A)", "p(E)", "K'"),
                      rows=tuple((value_label(t.annotator_a), value_label(t.annotator_b), t.n_items,
                                  t.observed_agreement, t.expected_agreement, t.kappa) for t in res.pairs),
                      kinds=("text", "text", "num", "num", "num", "num"))
    cls_rows = tuple((value_label(i), _CLASS_TITLES.get(c, "labelled by one annotator") if c else
                      "labelled by one annotator") for i, c in zip(classes.items, classes.classes, strict=True))
    facts = [Fact(_CLASS_TITLES.get(k, k.replace("_", " ")), v) for k, v in classes.counts.items()]
    ml = Section(
        id="multilabel", title="Primary and secondary labels",
        paragraphs=(f"{plural(res.n_items, 'item')} labelled by at least two of "
                    f"{plural(res.n_annotators, 'annotator')}, "
                    f"{plural(res.n_categories, 'category')}; "
                    f"{_RULES.get(res.rule, 'labels weighted by a rule of the user')}."
                    + (f" {res.n_items_unpaired} item{' is' if res.n_items_unpaired == 1 else 's are'} labelled by "
                       "one annotator and enter no pair." if res.n_items_unpaired else ""),),
        facts=tuple(facts), charts=(sweep_chart_,),
        tables=(pairs, DataTable(name="item_classes", title="Items by class", columns=("item", "class"),
                                 rows=cls_rows)),
        notes=(f"Classes with tolerance {classes.tolerance:g} and high {classes.high:g} ({classes.scale} scale).",),
    )
    sections = [*parts.sections]
    if samples is not None and interval is not None and np.isfinite(samples).any():
        from accord.reporting import _charts as charts

        k_chart = Chart("bootstrap_kappa", "Bootstrap distribution of K'",
                        charts.bootstrap_chart(samples, estimate=res.kappa, interval=interval, label="K'",
                                               thresholds=False),
                        caption="Resampling items; the interval is marked in red.")
        at = next((i for i, s in enumerate(sections) if s.id == "uncertainty"), None)
        k_words = (f"K' recomputed on {bootstrap} resamples of the {plural(res.n_items, 'item')} two annotators "
                   "labelled "
                   f"({seed_words(seed)}): the {confidence * 100:g}% interval is "
                   f"[{interval[0]:.3f}, {interval[1]:.3f}].")
        if at is None:
            sections.append(Section(id="uncertainty", title="Uncertainty", paragraphs=(k_words,), charts=(k_chart,)))
        else:
            s = sections[at]
            sections[at] = dataclasses.replace(s, paragraphs=(*s.paragraphs, k_words), charts=(*s.charts, k_chart))
    return Report(
        title=title or f"Multi-label reliability{f' of {data.source}' if getattr(data, 'source', None) else ''}",
        subtitle=f"{plural(data.n_items, 'item')}, {plural(data.n_annotators, 'annotator')}, "
                 f"{plural(data.n_categories, 'category')}",
        kind="multilabel", headline=(k_head, masi_head),
        headline_notes=(*parts.notes, *notes), sections=(ml, *sections), summary=summary,
    )
