"""The tour of the bundled data that ``accord demo`` prints, and its report pages.

:func:`demo_tour` computes what the tour shows (Passonneau's 2004 coreference table, Krippendorff's 2011
example C under four distances with bootstrap intervals, the multi-label example's K' and classes);
:func:`demo_pages` writes one report page per bundled dataset.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from accord._shared.errors import AccordError

__all__ = ["DemoTour", "demo_pages", "demo_tour"]


@dataclass(frozen=True)
class DemoTour:
    """What ``accord demo`` prints (:func:`demo_tour`).

    Attributes
    ----------
    coreference : CorefReliability
        Passonneau (2004), Table 1: nominal, set-relation and MASI.
    krippendorff : list of (str, AlphaResult, (float, float))
        Example C by level of measurement: the distance, alpha, its 95% bootstrap interval (1000 resamples,
        seed 1).
    percent, bennett : results
        Percent agreement and Bennett's S of example C.
    n_missing : int
        Its missing cells.
    complete_units : int
        The units all four observers coded, and *fleiss* Fleiss' kappa on them.
    fleiss : KappaResult
    multilabel_kappa : list of (float, float)
        p and K' of the multi-label example.
    classes : ItemClasses
        Its items by class over the sweep.
    masi : AlphaResult
        Alpha with MASI on its label sets.
    """

    coreference: Any
    krippendorff: list[tuple[str, Any, tuple[float, float]]]
    percent: Any
    bennett: Any
    n_missing: int
    complete_units: int
    fleiss: Any
    multilabel_kappa: list[tuple[float, float]]
    classes: Any
    masi: Any


def demo_tour() -> DemoTour:
    """Compute the tour of the bundled data (its warnings silenced: the examples' undefined parts are known)."""
    from accord.coefficients._alpha import alpha
    from accord.coefficients._fleiss import bennett_s, fleiss_kappa
    from accord.coefficients._kappa import percent_agreement
    from accord.coref import example_passonneau2004
    from accord.coref._report import coref_reliability
    from accord.data._annotations import Annotations
    from accord.datasets import load_krippendorff2011
    from accord.multilabel import (
        augmented_kappa,
        augmented_kappa_sweep,
        classify_items,
        load_multilabel_example,
        masi_alpha,
    )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rep = coref_reliability(example_passonneau2004(), distances=("nominal", "set-relation", "masi-2006"))
        data = load_krippendorff2011()
        levels = []
        for level in ("nominal", "ordinal", "interval", "ratio"):
            r = alpha(data, distance=level)
            levels.append((level, r, r.confidence_interval(0.95, n_resamples=1000, rng=1)))
        complete = [u for u in range(data.n_units) if (data.unit_index == u).sum() == 4]
        sub = data.to_frame()
        sub = sub[sub.unit.isin(data.units[complete])]
        ml = load_multilabel_example()
        return DemoTour(coreference=rep, krippendorff=levels, percent=percent_agreement(data), bennett=bennett_s(data),
                        n_missing=data.n_missing, complete_units=len(complete),
                        fleiss=fleiss_kappa(Annotations.from_records(sub)),
                        multilabel_kappa=[(p, augmented_kappa(ml, p=p).kappa) for p in (0.5, 0.6, 0.8, 1.0)],
                        classes=classify_items(augmented_kappa_sweep(ml)), masi=masi_alpha(ml))


def demo_pages(folder: Path, *, force: bool = False, quiet: bool = True) -> list[Path]:
    """Write one report page per bundled dataset into *folder* (created if missing); return the paths.

    The Krippendorff (2011) example (agreement), Passonneau's (2004) coreference table, and the
    multi-label example twice: as primary and secondary labels, and its primary labels as a gold
    standard (items not labelled by every annotator left out).  Every target is checked before the
    first page is written.
    """
    from accord._shared.output import check_output
    from accord._shared.progress import Progress
    from accord.coref import example_passonneau2004
    from accord.datasets import load_krippendorff2011
    from accord.multilabel import load_multilabel_example
    from accord.reporting import build_report

    if folder.exists() and not folder.is_dir():
        raise AccordError(f"--report {folder}: exists and is not a folder")
    ml = load_multilabel_example()
    primary = ml.to_frame()
    primary = primary[primary["rank"] == 1].rename(columns={"item": "unit", "annotator": "coder", "label": "value"})
    kripp = replace(load_krippendorff2011(), source="krippendorff2011.csv, bundled with accord")
    pages: list[tuple[str, Any, dict[str, Any]]] = [
        ("krippendorff2011.html", kripp, {"title": "Krippendorff (2011), example C: 4 observers, 12 units"}),
        ("passonneau2004-coreference.html", example_passonneau2004(),
         {"title": "Passonneau (2004), Table 1: coreference of 11 noun phrases by 3 coders"}),
        ("multilabel-example.html", ml,
         {"title": "Primary and secondary labels: the multi-label example (synthetic)"}),
        ("multilabel-example-gold.html", primary[["unit", "coder", "value"]].reset_index(drop=True),
         {"kind": "gold", "incomplete": "drop",
          "title": "The multi-label example's primary labels as a gold standard"}),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    targets = [folder / name for name, _, _ in pages]
    for t in targets:
        check_output(t, force=force)
    written = []
    with Progress(enabled=not quiet) as prog:
        for target, (_, obj, options) in zip(targets, pages, strict=True):
            rep = build_report(obj, bootstrap=1000, seed=1, progress=prog, **options)
            written.append(rep.save(target, force=force))
    return written


