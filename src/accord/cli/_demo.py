"""``accord demo``: reliability reports on the example data bundled with accord."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table

from accord._shared.errors import AccordError, plural
from accord._shared.names import ITEM_CLASSES
from accord.cli._common import cli_errors, console, echo
from accord.cli._coref import render_coref
from accord.coefficients._alpha import alpha
from accord.coefficients._fleiss import bennett_s, fleiss_kappa
from accord.coefficients._kappa import percent_agreement
from accord.coref import example_passonneau2004
from accord.coref._report import coref_reliability
from accord.datasets import load_krippendorff2011

__all__ = ["demo", "demo_pages", "register"]


def _coreference() -> None:
    console.print(Panel.fit(
        "[bold]1. Coreference: Passonneau (2004), Table 1[/bold]\n"
        "11 noun phrases of a newswire text, indexed by three coders. The coding values are the union of "
        "every coder's equivalence classes (Figure 2). The paper reports alpha .45 treating the classes as "
        "nominal values and .74 with its set-relation distance (0 identical, 1/3 subset, 2/3 overlap, "
        "1 disjoint) on each class less the mention. RA.2's NIL on J is coded {J}, as Table 2 does.",
    ), markup=True)
    rep = coref_reliability(example_passonneau2004(), distances=("nominal", "set-relation", "masi-2006"))
    render_coref(rep, title="Coreference reliability, Passonneau (2004)")


def _krippendorff() -> None:
    console.print(Panel.fit(
        "[bold]2. Any annotation: Krippendorff (2011), example C[/bold]\n"
        "4 observers, 12 units, values 1-5 with missing cells. Printed alphas: nominal .743, ordinal .815, "
        "interval .849, ratio .797.",
    ), markup=True)
    data = load_krippendorff2011()
    t = Table(title="Krippendorff's alpha by level of measurement")
    for col in ("distance", "alpha", "D_o", "D_e", "95% bootstrap CI (1000 resamples, seed 1)"):
        t.add_column(col, justify="right" if col != "distance" else "left")
    for level in ("nominal", "ordinal", "interval", "ratio"):
        r = alpha(data, distance=level)
        lo, hi = r.confidence_interval(0.95, n_resamples=1000, rng=1)
        t.add_row(level, f"{r.alpha:.4f}", f"{r.observed_disagreement:.4f}", f"{r.expected_disagreement:.4f}",
                  f"[{lo:.3f}, {hi:.3f}]")
    console.print(t)
    pa = percent_agreement(data)
    s = bennett_s(data)
    console.print(
        f"percent agreement {pa.percent_agreement:.4f} over {pa.n_pairable_units} pairable units; "
        f"Bennett's S {s.kappa:.4f}; Fleiss' kappa needs complete data and this has missing cells "
        f"({data.n_missing})."
    )
    complete = [u for u in range(data.n_units) if (data.unit_index == u).sum() == 4]
    sub = data.to_frame()
    sub = sub[sub.unit.isin(data.units[complete])]
    from accord.data._annotations import Annotations

    fk = fleiss_kappa(Annotations.from_records(sub))
    console.print(f"On the {plural(len(complete), 'unit')} all four coded: Fleiss' kappa {fk.kappa:.4f}.")


def _multilabel() -> None:
    from accord.multilabel import (
        augmented_kappa,
        augmented_kappa_sweep,
        classify_items,
        load_multilabel_example,
        masi_alpha,
    )

    console.print(Panel.fit(
        "[bold]3. Primary and secondary labels: augmented kappa (Rosenberg & Binkowski 2004)[/bold]\n"
        "A small synthetic e-mail set (bundled, built by hand): 3 annotators give a primary and sometimes a "
        "secondary label. K' weighs the primary p and the secondary 1 - p; p = 1 is Cohen's kappa on primaries.",
    ), markup=True)
    data = load_multilabel_example()
    t = Table(title="Augmented kappa K' (mean over annotator pairs)")
    t.add_column("p")
    t.add_column("K'", justify="right")
    for p in (0.5, 0.6, 0.8, 1.0):
        t.add_row(f"{p:.1f}", f"{augmented_kappa(data, p=p).kappa:.4f}")
    console.print(t)
    classes = classify_items(augmented_kappa_sweep(data))
    console.print("Items by class over the sweep: "
                  + ", ".join(f"{ITEM_CLASSES.get(k, k)} {v}" for k, v in classes.counts.items()))
    console.print(f"Beside it, alpha with MASI (1 - J*M, Passonneau 2006) on the label sets: "
                  f"{masi_alpha(data).alpha:.4f}")


def demo_pages(folder: Path, *, force: bool = False, quiet: bool = True) -> list[Path]:
    """Write one report page per bundled dataset into *folder* (created if missing); return the paths.

    The Krippendorff (2011) example (agreement), Passonneau's (2004) coreference table, and the
    multi-label example twice: as primary and secondary labels, and its primary labels as a gold
    standard (items not labelled by every annotator left out).  Every target is checked before the
    first page is written.
    """
    from accord._shared.output import check_output
    from accord._shared.progress import Progress
    from accord.multilabel import load_multilabel_example
    from accord.reporting import build_report

    if folder.exists() and not folder.is_dir():
        raise AccordError(f"--report {folder}: exists and is not a folder")
    ml = load_multilabel_example()
    primary = ml.to_frame()
    primary = primary[primary["rank"] == 1].rename(columns={"item": "unit", "annotator": "coder", "label": "value"})
    from dataclasses import replace

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


def demo(
    report: Annotated[
        Path | None, typer.Option("--report", help="Also write one HTML report per bundled dataset in this folder.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace existing report pages.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Print reliability reports for the example data bundled with accord.

    With --report DIR, write one HTML report page per bundled dataset there instead, and print their paths.
    """
    if report is not None:
        for path in demo_pages(report, force=force, quiet=quiet):
            echo(f"wrote {path}")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _coreference()
        _krippendorff()
        _multilabel()
    console.print(
        "\nTry it on your data: [bold]accord agree FILE --coefficient all --diagnostics[/bold] "
        "(long format: unit, coder, value).",
        markup=True,
    )


def register(app: typer.Typer) -> None:
    """Add ``demo`` to *app*."""
    app.command("demo")(cli_errors(demo))
