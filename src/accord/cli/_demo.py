"""``accord demo``: reliability reports on the example data bundled with accord."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.panel import Panel

from accord._shared.errors import plural
from accord._shared.names import ITEM_CLASSES
from accord.cli._common import cli_errors, console, echo
from accord.cli._coref import render_coref
from accord.cli._render import print_table, table
from accord.reporting._demo import demo_pages

__all__ = ["demo", "demo_pages", "register"]


def _coreference(tour: Any) -> None:
    console.print(Panel.fit(
        "[bold]1. Coreference: Passonneau (2004), Table 1[/bold]\n"
        "11 noun phrases of a newswire text, indexed by three coders. The coding values are the union of "
        "every coder's equivalence classes (Figure 2). The paper reports alpha .45 treating the classes as "
        "nominal values and .74 with its set-relation distance (0 identical, 1/3 subset, 2/3 overlap, "
        "1 disjoint) on each class less the mention. RA.2's NIL on J is coded {J}, as Table 2 does.",
    ), markup=True)
    render_coref(tour.coreference, title="Coreference reliability, Passonneau (2004)")


def _krippendorff(tour: Any) -> None:
    console.print(Panel.fit(
        "[bold]2. Any annotation: Krippendorff (2011), example C[/bold]\n"
        "4 observers, 12 units, values 1-5 with missing cells. Printed alphas: nominal .743, ordinal .815, "
        "interval .849, ratio .797.",
    ), markup=True)
    numbers = ("alpha", "D_o", "D_e", "95% bootstrap CI")
    t = table("Krippendorff's alpha by level of measurement", ("distance", *numbers), numbers=numbers,
              caption="the intervals: 1000 bootstrap resamples, seed 1")
    for level, r, (lo, hi) in tour.krippendorff:
        t.add_row(level, f"{r.alpha:.4f}", f"{r.observed_disagreement:.4f}", f"{r.expected_disagreement:.4f}",
                  f"[{lo:.3f}, {hi:.3f}]")
    print_table(t)
    pa, s = tour.percent, tour.bennett
    console.print(
        f"percent agreement {pa.percent_agreement:.4f} over {pa.n_pairable_units} pairable units; "
        f"Bennett's S {s.kappa:.4f}; Fleiss' kappa needs complete data and this has missing cells "
        f"({tour.n_missing})."
    )
    console.print(f"On the {plural(tour.complete_units, 'unit')} all four coded: Fleiss' kappa "
                  f"{tour.fleiss.kappa:.4f}.")


def _multilabel(tour: Any) -> None:
    console.print(Panel.fit(
        "[bold]3. Primary and secondary labels: augmented kappa (Rosenberg & Binkowski 2004)[/bold]\n"
        "A small synthetic e-mail set (bundled, built by hand): 3 annotators give a primary and sometimes a "
        "secondary label. K' weighs the primary p and the secondary 1 - p; p = 1 is Cohen's kappa on primaries.",
    ), markup=True)
    t = table("Augmented kappa K' (mean over annotator pairs)", ("p", "K'"), numbers=("p", "K'"))
    for p, kappa in tour.multilabel_kappa:
        t.add_row(f"{p:.1f}", f"{kappa:.4f}")
    print_table(t)
    console.print("Items by class over the sweep: "
                  + ", ".join(f"{ITEM_CLASSES.get(k, k)} {v}" for k, v in tour.classes.counts.items()))
    console.print(f"Beside it, alpha with MASI (1 - J*M, Passonneau 2006) on the label sets: "
                  f"{tour.masi.alpha:.4f}")


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
    from accord.reporting._demo import demo_tour

    if report is not None:
        for path in demo_pages(report, force=force, quiet=quiet):
            echo(f"wrote {path}")
        return
    tour = demo_tour()
    _coreference(tour)
    _krippendorff(tour)
    _multilabel(tour)
    console.print(
        "\nTry it on your data: [bold]accord agree FILE --coefficient all --diagnostics[/bold] "
        "(long format: unit, coder, value).",
        markup=True,
    )


def register(app: typer.Typer) -> None:
    """Add ``demo`` to *app*."""
    app.command("demo")(cli_errors(demo))
