"""``accord multilabel``: augmented kappa for primary and secondary labels.

Rosenberg & Binkowski (2004), Augmenting the kappa statistic to determine
interannotator reliability for multiply labeled data points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from accord._shared.errors import plural
from accord._shared.names import ITEM_CLASSES as ITEM_CLASS_NAMES
from accord.cli._common import cli_errors, console, print_json, said
from accord.cli._options import OptionGroup, with_options
from accord.cli._render import print_table
from accord.cli._render import table as make_table
from accord.multilabel._sweep import ITEM_CLASSES

__all__ = ["register"]

# the paper's four classes numbered as in its section 6, then the items in no pair
_CLASS_TITLES = {k: (f"{i}: {name}" if i <= 4 else name) for i, (k, name) in enumerate(ITEM_CLASS_NAMES.items(), 1)}


def _num(x: Any) -> str:
    return "undefined" if x is None or not math.isfinite(x) else f"{x:.4f}"


@dataclass(frozen=True)
class KappaOptions(OptionGroup):
    """What to compute: K' at p with the weighting rule, the sweep and classes, the interval, alpha, sharpening."""

    p: Annotated[float, typer.Option("--p", help="Weight of the primary label, 0.5 <= p <= 1.")] = 0.6
    rule: Annotated[
        str,
        typer.Option(help="Weights for 3+ labels: pair (the paper; refuses 3+), geometric, primary-rest.")
    ] = "pair"
    sweep: Annotated[bool, typer.Option("--sweep", help="K' over p = 0.5, 0.55, ..., 1.")] = False
    classes: Annotated[
        bool, typer.Option("--classes", help="Sort items into the paper's four classes (implies --sweep).")
    ] = False
    tolerance: Annotated[
        float, typer.Option(help="Largest |score(p=1) - score(p=0.5)| of a 'nearly constant' item.")
    ] = 0.1
    high: Annotated[float, typer.Option(help="Smallest mean item score of a 'constant high' item.")] = 0.6
    plot: Annotated[
        Path | None,
        typer.Option(
            "--plot",
            help="Save K' against p, overall and per class, as .svg, .png, .pdf or .html "
            "(needs altair and vl-convert-python, the report extra).",
        ),
    ] = None
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --plot file.")] = False
    ci: Annotated[
        bool, typer.Option("--ci", help="Bootstrap confidence interval for K' (items resampled).")
    ] = False
    confidence_level: Annotated[float, typer.Option("--confidence-level", help="Of the interval.")] = 0.95
    n_resamples: Annotated[int, typer.Option("--n-resamples", help="Bootstrap replicates.")] = 2000
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed of the bootstrap.")] = None
    masi: Annotated[
        bool, typer.Option("--masi/--no-masi", help="Also Krippendorff's alpha with MASI on the label sets.")
    ] = True
    do_sharpen: Annotated[
        bool, typer.Option("--sharpen", help="Iterated annotator/item weights and a label per item.")
    ] = False

    def study_options(self) -> dict[str, Any]:
        """The options as :func:`accord.multilabel.multilabel_study` takes them."""
        out = self.as_dict(exclude=("seed", "do_sharpen"))
        return {**out, "rng": self.seed, "sharpening": self.do_sharpen}


@dataclass(frozen=True)
class MultiLabelReading(OptionGroup):
    """How to read the labels: the table's form, the separator of a compact cell, the item and annotator columns."""

    fmt: Annotated[str, typer.Option("--format", help="auto, compact or ranked.")] = "auto"
    sep: Annotated[str, typer.Option("--sep", help="Separator inside a compact labels cell.")] = ","
    item: Annotated[str, typer.Option(help="Column of the item.")] = "item"
    annotator: Annotated[str, typer.Option(help="Column of the annotator.")] = "annotator"


@with_options
def _multilabel(
    file: Annotated[
        Path,
        typer.Argument(
            help="CSV, TSV or JSONL: columns item, annotator, labels ('a,b' = primary a, secondary b), "
            "or item, annotator, label, rank (one row per label)."
        ),
    ],
    kappa: KappaOptions = KappaOptions(),
    reading: MultiLabelReading = MultiLabelReading(),
    json_out: Annotated[bool, typer.Option("--json", help="Print the results as one JSON object.")] = False,
) -> None:
    """K', the augmented kappa for a primary and an optional secondary label (Rosenberg & Binkowski 2004)."""
    from accord.multilabel._study import multilabel_study

    plot = kappa.plot
    study = multilabel_study(file, **kappa.study_options(), format=reading.fmt, sep=reading.sep, item=reading.item,
                             annotator=reading.annotator)
    notes = [said(w) for w in study.warnings]
    if json_out:
        print_json({"file": str(file), **study.parts(), **({"plot": str(plot)} if plot is not None else {}),
                    "warnings": notes})
        return
    _print_study(study, file, sweep=kappa.sweep, classes=kappa.classes)
    for note in notes:
        console.print(f"[yellow]warning:[/yellow] {escape(str(note))}", markup=True)
    if plot is not None:
        console.print(f"wrote {plot}")


def _print_study(study: Any, file: Path, *, sweep: bool, classes: bool) -> None:
    """K' and its quantities, the pairs, the sweep, the classes and the sharpening, as tables."""
    res, interval, sw, cls = study.augmented_kappa, study.confidence_interval, study.sweep, study.classes
    alpha_res, sharp = study.masi_alpha, study.sharpening
    table = make_table(f"Augmented kappa K' (p = {res.p:g}, rule {res.rule}) for {file}", ("quantity", "value"),
                       numbers=("value",), show_header=False)
    table.add_row("items in at least one pair", str(res.n_items))
    table.add_row("items labelled by one annotator (in no pair)", str(res.n_items_unpaired))
    table.add_row("annotators", str(res.n_annotators))
    table.add_row("categories", str(res.n_categories))
    label = "K'" if res.n_annotators == 2 else f"K' (mean of {plural(len(res.pairs) - res.n_pairs_undefined, 'pair')})"
    table.add_row(label, _num(res.kappa))
    if interval is not None:
        table.add_row(
            f"{100 * interval.confidence_level:g}% bootstrap interval ({interval.method})",
            f"[{_num(interval.low)}, {_num(interval.high)}]",
        )
    table.add_row("p(A)" if res.n_annotators == 2 else "p(A), mean of pairs", _num(res.observed_agreement))
    table.add_row("p(E)" if res.n_annotators == 2 else "p(E), mean of pairs", _num(res.expected_agreement))
    if alpha_res is not None:
        table.add_row(f"Krippendorff's alpha, {alpha_res.distance} on label sets", _num(alpha_res.alpha))
    print_table(table)
    if res.n_items_unpaired:
        shown = ", ".join(map(str, res.unpaired_items[:10])) + (" ..." if res.n_items_unpaired > 10 else "")
        console.print(f"[yellow]note:[/yellow] {plural(res.n_items_unpaired, 'item')} in no pair: "
                      f"{escape(shown)}", markup=True)

    if res.n_annotators > 2:
        pairs = make_table("Pairwise K'", ("annotator A", "annotator B", "items", "p(A)", "p(E)", "K'"),
                           numbers=("items", "p(A)", "p(E)", "K'"))
        for t in res.pairs:
            pairs.add_row(str(t.annotator_a), str(t.annotator_b), str(t.n_items), _num(t.observed_agreement),
                          _num(t.expected_agreement), _num(t.kappa))
        print_table(pairs)

    if sw is not None and (sweep or not classes):
        st = make_table("K' over p", ("p", "K'", "p(A)", "p(E)"), numbers=("p", "K'", "p(A)", "p(E)"))
        for j, pv in enumerate(sw.grid):
            st.add_row(f"{pv:.2f}", _num(sw.kappa[j]), _num(sw.observed_agreement[j]),
                       _num(sw.expected_agreement[j]))
        print_table(st)

    if cls is not None and classes:
        ct = make_table(f"Items by class (tolerance {cls.tolerance:g}, high {cls.high:g}, {cls.scale} scale)",
                        ("class", "items"), numbers=("items",))
        for name in (*ITEM_CLASSES, "unpaired"):
            ct.add_row(_CLASS_TITLES[name], str(cls.counts[name]))
        print_table(ct)

    if sharp is not None:
        sh = make_table(f"Sharpening: {plural(sharp.n_iterations, 'iteration')}, "
                        f"{'converged' if sharp.converged else 'not converged'}",
                        ("annotator", "weight", "K' vs group"), numbers=("weight", "K' vs group"))
        for a, w, k in zip(sharp.annotators, sharp.annotator_weights, sharp.annotator_kappa, strict=True):
            sh.add_row(str(a), _num(w), _num(k))
        print_table(sh)
        console.print("per-item labels and confidences: use --json")


def register(app: typer.Typer) -> None:
    """Add ``accord multilabel`` to *app*."""
    app.command("multilabel")(cli_errors(_multilabel))
