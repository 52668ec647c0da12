"""``accord demo``: reliability reports on the example data bundled with accord."""

from __future__ import annotations

import warnings

import typer
from rich.panel import Panel
from rich.table import Table

from accord.alpha import alpha
from accord.cli._common import cli_errors, console
from accord.cli.coref import render_coref
from accord.coref import example_passonneau2004
from accord.coref.report import coref_reliability
from accord.datasets import load_krippendorff2011
from accord.kappa import bennett_s, fleiss_kappa, percent_agreement

__all__ = ["demo", "register"]


def _coreference() -> None:
    console.print(Panel.fit(
        "[bold]1. Coreference: Passonneau (2004), Table 1[/bold]\n"
        "11 noun phrases of a newswire text, indexed by three coders. The coding values are the union of "
        "every coder's equivalence classes (Figure 2). The paper reports alpha .45 treating the classes as "
        "nominal values and .74 with its set-relation distance (0 identical, 1/3 subset, 2/3 overlap, "
        "1 disjoint) on each class less the mention. RA.2's NIL on J is coded {J}, as Table 2 does."
    ))
    rep = coref_reliability(example_passonneau2004(), distances=("nominal", "set-relation", "masi-2006"))
    render_coref(rep, title="Coreference reliability, Passonneau (2004)")


def _krippendorff() -> None:
    console.print(Panel.fit(
        "[bold]2. Any annotation: Krippendorff (2011), example C[/bold]\n"
        "4 observers, 12 units, values 1-5 with missing cells. Printed alphas: nominal .743, ordinal .815, "
        "interval .849, ratio .797."
    ))
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
    from accord.data import Annotations

    fk = fleiss_kappa(Annotations.from_records(sub))
    console.print(f"On the {len(complete)} units all four coded: Fleiss' kappa {fk.kappa:.4f}.")


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
        "secondary label. K' weighs the primary p and the secondary 1 - p; p = 1 is Cohen's kappa on primaries."
    ))
    data = load_multilabel_example()
    t = Table(title="Augmented kappa K' (mean over annotator pairs)")
    t.add_column("p")
    t.add_column("K'", justify="right")
    for p in (0.5, 0.6, 0.8, 1.0):
        t.add_row(f"{p:.1f}", f"{augmented_kappa(data, p=p).kappa:.4f}")
    console.print(t)
    classes = classify_items(augmented_kappa_sweep(data))
    console.print("Items by class over the sweep: " + ", ".join(f"{k} {v}" for k, v in classes.counts.items()))
    console.print(f"Beside it, alpha with MASI (1 - J*M, Passonneau 2006) on the label sets: "
                  f"{masi_alpha(data).alpha:.4f}")


def demo() -> None:
    """Print reliability reports for the example data bundled with accord."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _coreference()
        _krippendorff()
        _multilabel()
    console.print(
        "\nTry it on your data: [bold]accord agree FILE --coefficient all --diagnostics[/bold] "
        "(long format: unit, coder, value)."
    )


def register(app: typer.Typer) -> None:
    """Add ``demo`` to *app*."""
    app.command("demo")(cli_errors(demo))
